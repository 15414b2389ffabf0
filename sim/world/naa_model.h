/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Verilated naa_node (NIC in the root-port role + the sample accelerator,
 * docs/nic.md) behind a small C API.  A network-attached accelerator has no
 * CPU and no PCIe link to the outside: all it has are its straps and its 7
 * network links (struct nic_links of nic_model.h).  Built as its own
 * Verilated class (--prefix Vnaa_node) next to Vextoll_nic in one binary.
 */
#ifndef SIM_WORLD_NAA_MODEL_H
#define SIM_WORLD_NAA_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "nic_model.h"

#ifdef __cplusplus
extern "C" {
#endif

struct naa_model;

/* Create an NAA node with its straps; held in reset for a few cycles. */
struct naa_model *naa_model_create(const char *name, const char *fst_path, uint16_t node_id,
				   uint8_t dateline);
void naa_model_destroy(struct naa_model *m);
void naa_model_reset(struct naa_model *m, unsigned cycles);
void naa_model_step(struct naa_model *m, uint64_t n);
void naa_model_links_get(const struct naa_model *m, struct nic_links *out);
void naa_model_links_set(struct naa_model *m, const struct nic_links *in);
uint64_t naa_model_cycles(const struct naa_model *m);
/* net_ovf (sticky network buffer overrun; must stay 0) and dev_intx. */
bool naa_model_net_ovf(const struct naa_model *m);
bool naa_model_dev_intx(const struct naa_model *m);
/* The accelerator's job engine is busy (a DMA or CRC job): work that may
 * go on without any traffic (a CRC), so the world must keep clocking. */
bool naa_model_busy(const struct naa_model *m);
void naa_model_trace_flush(struct naa_model *m);

#ifdef __cplusplus
}
#endif
#endif /* SIM_WORLD_NAA_MODEL_H */
