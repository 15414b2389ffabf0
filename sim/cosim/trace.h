/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cosimd's messages (stderr, prefixed "cosimd: "), the monotonic clock for
 * wall-time figures, and the TLP trace file (--trace-tlp: one line per TLP
 * with the device's cycle).
 */
#ifndef SIM_COSIM_TRACE_H
#define SIM_COSIM_TRACE_H

#include <stdint.h>

#include "tlp.h"

void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t now_ns(void);

/* Open the trace file: 0, or -1 with errno. */
int tlp_trace_open(const char *path);
void tlp_trace_close(void);
/* One line: "CYCLE DIR TLP [data=...]" (no-op without a trace file). */
void tlp_trace(const char *dir, const struct tlp *t, uint64_t cycle);

#endif /* SIM_COSIM_TRACE_H */
