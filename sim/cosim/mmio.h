/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The guest CPU's accesses to the device, as the root complex makes them:
 *   config reads/writes -> CfgRd0/CfgWr0 TLPs, one per dword touched (byte
 *                          enables from offset and length, data shifted); the
 *                          answer is the device's completion;
 *   BAR reads           -> MRd with the absolute guest-physical address (the
 *                          device decodes it against its BARs), answered from
 *                          the CplD (all-ones on UR, CA or timeout);
 *   BAR writes          -> MWr, posted: answered once the device's stream took
 *                          it (or at once, --write-ack immediate).
 * One request is outstanding at a time (the guest CPU blocks on it); the
 * clock runs until its completion or the timeout.
 */
#ifndef SIM_COSIM_MMIO_H
#define SIM_COSIM_MMIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pcie_model.h"
#include "tlp.h"

struct mmio_config {
	uint16_t bdf;           /* the device's bus/device/function in the guest */
	uint64_t timeout;       /* cycles to wait for a completion */
	bool write_ack_now;     /* answer BAR writes before the device took them */
};

#define MMIO_WR_RING 64

/* One host's state (struct host.mmio). */
struct mmio {
	struct mmio_config cfg;
	uint8_t next_tag;
	/* the one outstanding request (the guest CPU blocks on it) */
	struct {
		bool waiting, done;
		uint8_t tag;
		struct tlp cpl;
	} req;
	/* posted writes waiting to be accepted by the device, for --stats */
	struct {
		uint64_t seq, cycle;
	} wr_ring[MMIO_WR_RING];
	unsigned wr_head, wr_tail;
	struct {
		uint64_t cfg_rd, cfg_wr, bar_rd, bar_wr;
		uint64_t rd_cycles, rd_ns, wr_ns, wr_cycles, wr_accepted;
		uint64_t rd_timeout, rd_err, cfg_timeout, cfg_err, unexpected_cpl;
	} st;
};

struct host;

void mmio_init(struct host *h, const struct mmio_config *c);

/* Config access of len (1..4) bytes: the value read, or for writes 0
 * (UINT64_MAX if the device did not complete it successfully). */
uint64_t mmio_cfg_read(struct host *h, uint32_t addr, int len);
uint64_t mmio_cfg_write(struct host *h, uint32_t addr, uint32_t val, int len);
/* Memory BAR access of size 1..8 at a guest-physical address. */
uint64_t mmio_bar_read(struct host *h, uint64_t addr, unsigned size);
void mmio_bar_write(struct host *h, uint64_t addr, uint64_t val, unsigned size);

/* Push a TLP toward the device (traced). */
void mmio_push(struct host *h, const struct tlp *t);
/* A completion from the device: the outstanding request's, or dropped. */
void mmio_completion(struct host *h, const struct tlp *t);
/* After every cycle: account the posted writes the device has taken. */
void mmio_service(struct host *h);
/* Device reset: no request outstanding, no write pending. */
void mmio_reset(struct host *h);

void mmio_print_stats(const struct host *h, FILE *f);

#endif /* SIM_COSIM_MMIO_H */
