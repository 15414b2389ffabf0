/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Everything the device sends toward the host, taken after every cycle:
 *   MWr  -> its enabled bytes into guest RAM (blocks; a write that is not
 *           entirely in guest RAM is dropped with a message);
 *   MRd  -> guest RAM read, answered with CplDs split at 64-byte (RCB)
 *           boundaries, or one UR completion if not entirely in guest RAM;
 *   Cpl  -> the guest CPU's outstanding request (mmio.c).
 */
#ifndef SIM_COSIM_DMA_H
#define SIM_COSIM_DMA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One host's counts (struct host.dma). */
struct dma {
	uint64_t wr, wr_bytes, rd, rd_bytes, ur, drop;
};

struct host;

/* Take every TLP the host's device has sent; true if there was any. */
bool dma_service(struct host *h);
void dma_print_stats(const struct host *h, FILE *f);

#endif /* SIM_COSIM_DMA_H */
