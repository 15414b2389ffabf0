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

struct mmio_config {
	uint16_t bdf;           /* the device's bus/device/function in the guest */
	uint64_t timeout;       /* cycles to wait for a completion */
	bool write_ack_now;     /* answer BAR writes before the device took them */
};

void mmio_init(struct pcie_model *dev, const struct mmio_config *c);

/* Config access of len (1..4) bytes: the value read, or for writes 0
 * (UINT64_MAX if the device did not complete it successfully). */
uint64_t mmio_cfg_read(uint32_t addr, int len);
uint64_t mmio_cfg_write(uint32_t addr, uint32_t val, int len);
/* Memory BAR access of size 1..8 at a guest-physical address. */
uint64_t mmio_bar_read(uint64_t addr, unsigned size);
void mmio_bar_write(uint64_t addr, uint64_t val, unsigned size);

/* Push a TLP toward the device (traced). */
void mmio_push(const struct tlp *t);
/* A completion from the device: the outstanding request's, or dropped. */
void mmio_completion(const struct tlp *t);
/* After every cycle: account the posted writes the device has taken. */
void mmio_service(void);
/* Device reset: no request outstanding, no write pending. */
void mmio_reset(void);

void mmio_print_stats(FILE *f);

#endif /* SIM_COSIM_MMIO_H */
