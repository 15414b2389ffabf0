/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The strict TLP protocol checker (hw/include/tlp_check.h, docs/tlp-check.md)
 * on cosimd's host link: every TLP between QEMU's guest (the root complex)
 * and the device model, both directions.  The device's Device Control (MPS,
 * MRRS, Extended Tag) is taken from the guest's config reads and writes of it.
 * A violation is logged at once; check_print() gives the summary line that
 * sim/run reads (a scenario with violations fails).
 */
#ifndef SIM_COSIM_CHECK_H
#define SIM_COSIM_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "tlp_check.h"

/* The checker of one host link (one per host, cosimd serves several). */
struct check {
	struct tlp_check to_dev, from_dev;
	char prefix[24];        /* "" or "host K: ", in its messages */
};

/* prefix: put before the messages (NULL: none). */
void check_init(struct check *c, const char *prefix);
/* A TLP toward the device (host->dev) or from it (dev->host): header dwords,
 * payload dwords as many as the TLP carried. */
void check_to_dev(struct check *c, const uint32_t hdr[4], const uint32_t *payload,
		  unsigned payload_dw);
void check_from_dev(struct check *c, const uint32_t hdr[4], const uint32_t *payload,
		    unsigned payload_dw);
/* The guest read or wrote config dword `reg` (byte enables be): Device Control. */
void check_cfg(struct check *c, unsigned reg, uint8_t be, uint32_t value);
/* The host gave up waiting for the completion of its request (timeout). */
void check_give_up(struct check *c, uint16_t requester_id, uint8_t tag);
/* Device reset: nothing outstanding. */
void check_reset(struct check *c);
uint64_t check_violations(const struct check *c);
uint64_t check_tlps(const struct check *c);
/* "cosimd tlp-check: ..." summary (label NULL) or "cosimd tlp-check (LABEL): ...",
 * and one line per rule that fired. */
void check_print(const struct check *c, FILE *f, const char *label);

#endif /* SIM_COSIM_CHECK_H */
