/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the sample accelerator's test programs: finding the
 * device by PCI address (any domain) or by ID, its character device, sizes
 * with suffixes, timing.
 */
#ifndef SACC_COMMON_H
#define SACC_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SACC_SYSFS_PCI "/sys/bus/pci/devices"

#include "extoll_exit.h"

/* Exit codes of both tools: the table every naa-extoll tool shares
 * (userspace/lib/extoll_exit.h). */
enum {
	EXIT_PASS = EXTOLL_EXIT_OK,	/* every check passed */
	EXIT_FAIL = EXTOLL_EXIT_FAIL,	/* a check failed (data mismatch, job error) */
	EXIT_USAGE = EXTOLL_EXIT_USAGE,	/* bad command line */
	EXIT_ENV = EXTOLL_EXIT_ENV,	/* could not run: no device, no driver, no permission */
};

/*
 * Resolve ARG (a PCI address like 10000:01:00.0, fffe:01:00.0 or 01:00.0,
 * or NULL for the first 1ee7:0100 device) to the sysfs name in BDF.
 * Returns 0, or with a message in ERR -2 (ARG is not a PCI address: a
 * usage error) or -1 (no such device, or not an accelerator).
 */
int sacc_find_device(const char *arg, char *bdf, size_t bdf_len, char *err,
		     size_t err_len);

/* The driver bound to BDF ("" if none) into NAME. Returns 0 or -1. */
int sacc_driver_name(const char *bdf, char *name, size_t len);

/* /dev/saccN of BDF (from .../misc/). Returns 0, or -1 with ERR. */
int sacc_chardev(const char *bdf, char *path, size_t len, char *err,
		 size_t err_len);

/* Parse "4194304", "4096K", "4M", "0x1000" into *out. Returns 0 or -1. */
int sacc_parse_size(const char *s, uint64_t *out);

/* Read a whole small sysfs file (trailing newline removed). Returns 0 or -1. */
int sacc_read_sysfs(const char *path, char *buf, size_t len);

/* The options both tools take: -d/--device, -S/--seed, -q/--quiet, -h/--help. */
struct sacc_opts {
	const char *device;	/* NULL: the first accelerator found */
	uint64_t seed;
	bool have_seed;
	bool quiet;
};

/*
 * Handle option C from getopt_long() (argument ARG) when it is one of the
 * common options, or an unknown one. -h prints USAGE to stdout, -V the
 * version (userspace/version.mk), and exit with EXIT_PASS. Returns 0, or -1 after a message naming PROG (a usage
 * error: a bad value, or an option the tool does not know).
 */
int sacc_common_opt(const char *prog, int c, const char *arg,
		    struct sacc_opts *o, void (*usage)(FILE *f));

/* After getopt_long(): 0, or -1 with a message if operands are left. */
int sacc_no_operands(const char *prog, int argc, char **argv);

/* Monotonic time in seconds. */
double sacc_now(void);

#endif /* SACC_COMMON_H */
