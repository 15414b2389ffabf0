/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cosimd's messages (stderr, prefixed "cosimd: "), the monotonic clock for
 * wall-time figures, and the TLP trace files (--trace-tlp: one line per TLP
 * with the device's cycle; one file per host).
 */
#ifndef SIM_COSIM_TRACE_H
#define SIM_COSIM_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "tlp.h"

void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t now_ns(void);

/* Open a trace file (one per host): the file, or NULL with errno. */
FILE *tlp_trace_open(const char *path);
void tlp_trace_close(FILE *f);
/* One line: "CYCLE DIR TLP [data=...]" (no-op when f is NULL). */
void tlp_trace(FILE *f, const char *dir, const struct tlp *t, uint64_t cycle);

/*
 * The file of host i of n for a per-host option (--trace-tlp, --pcap-tlp):
 * path itself with one host, else with ".hostI" before its extension
 * (x.pcap -> x.host1.pcap) or at its end. Written into buf when changed.
 */
const char *host_file(const char *path, unsigned i, unsigned n, char *buf, size_t len);

#endif /* SIM_COSIM_TRACE_H */
