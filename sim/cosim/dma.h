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
#include <stdio.h>

#include "pcie_model.h"

void dma_init(struct pcie_model *dev);
/* Take every TLP the device has sent; true if there was any. */
bool dma_service(void);
void dma_print_stats(FILE *f);

#endif /* SIM_COSIM_DMA_H */
