/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the sample accelerator's test programs: finding the
 * device by PCI address (any domain) or by ID, its character device, sizes
 * with suffixes, timing.
 */
#ifndef SACC_COMMON_H
#define SACC_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define SACC_SYSFS_PCI "/sys/bus/pci/devices"

/* Exit codes of both tools. */
enum {
	EXIT_PASS = 0,	/* every check passed */
	EXIT_FAIL = 1,	/* a check failed (data mismatch, job error) */
	EXIT_USAGE = 2,	/* bad command line */
	EXIT_ENV = 3,	/* could not run: no device, no driver, no permission */
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

/* Monotonic time in seconds. */
double sacc_now(void);

#endif /* SACC_COMMON_H */
