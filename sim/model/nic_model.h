/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Verilated EXTOLL NIC (top module extoll_nic) behind a small C API.
 *
 * One `struct nic_model` per NIC instance; several instances can live in one
 * process (each has its own VerilatedContext) and are stepped in lockstep by
 * the caller (call nic_model_step(m, 1) on each in turn).
 *
 * TLPs use the stream format of docs/tlp-interface.md: the model splits a
 * pushed TLP into beats (beat 0 = header, payload from beat 1), drives them
 * into s_tlp respecting s_tlp_ready, and assembles the beats the NIC sends on
 * m_tlp into whole TLPs for nic_model_pop().  m_tlp_ready is held high unless
 * nic_model_set_backpressure() says otherwise.
 *
 * One cycle = one rising edge of clk.  Handshakes are sampled just before the
 * edge (valid && ready), as a synchronous receiver would.
 */
#ifndef SIM_MODEL_NIC_MODEL_H
#define SIM_MODEL_NIC_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "tlp.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nic_model;

/* Create a NIC.  name: instance name (used in traces/messages, may be NULL).
 * fst_path: FST waveform file, or NULL for none (needs a model built with
 * --trace-fst, else creation fails with a message).  The NIC is held in reset
 * for a few cycles before this returns. */
struct nic_model *nic_model_create(const char *name, const char *fst_path);
void nic_model_destroy(struct nic_model *m);

/* Synchronous reset: rst high for `cycles` cycles (minimum 1), drops every
 * queued or partially transferred TLP in both directions. */
void nic_model_reset(struct nic_model *m, unsigned cycles);

/* Advance the clock by n cycles. */
void nic_model_step(struct nic_model *m, uint64_t n);

/* Queue a TLP toward the NIC (s_tlp).  hdr_dw 3 or 4; payload_dw 0 for
 * TLPs without data.  Returns 0, or -1 when payload_dw is too large. */
int nic_model_push(struct nic_model *m, const uint32_t hdr[4], unsigned hdr_dw,
		   const uint32_t *payload, unsigned payload_dw);
/* Same, encoding a struct tlp with tlp_encode_hdr(). */
int nic_model_push_tlp(struct nic_model *m, const struct tlp *t);

/* Take the oldest complete TLP the NIC sent (m_tlp).  Returns 1 and fills
 * hdr[4]/payload (up to max_dw dwords; *payload_dw = dwords received, may
 * exceed max_dw, excess dropped), or 0 when none is waiting. */
int nic_model_pop(struct nic_model *m, uint32_t hdr[4], uint32_t *payload,
		  unsigned max_dw, unsigned *payload_dw);
/* Same, decoded with tlp_decode().  Returns 1, 0 (none), or -1 (malformed
 * header: raw dwords in hdr_out if non-NULL). */
int nic_model_pop_tlp(struct nic_model *m, struct tlp *t, uint32_t hdr_out[4]);

/* Number of complete TLPs waiting for nic_model_pop(). */
unsigned nic_model_pending_out(const struct nic_model *m);
/* Number of TLPs queued toward the NIC and not fully accepted yet. */
unsigned nic_model_pending_in(const struct nic_model *m);
/* TLPs pushed / fully accepted by the NIC (eop beat taken) since creation;
 * TLP number k (1-based, in push order) is accepted once tlps_in >= k. */
uint64_t nic_model_tlps_pushed(const struct nic_model *m);
uint64_t nic_model_tlps_in(const struct nic_model *m);

/* Level of the intx output (after the last step). */
bool nic_model_intx(const struct nic_model *m);

/* Rising edges since creation (reset cycles included). */
uint64_t nic_model_cycles(const struct nic_model *m);

/* True when no beats are pending in either direction: nothing queued toward
 * the NIC, no TLP half-received from it, and m_tlp_valid low.  TLPs already
 * complete and waiting for nic_model_pop() do not count (see pending_out).
 * Note that the NIC may still be busy internally. */
bool nic_model_idle(const struct nic_model *m);

/* Hold m_tlp_ready low (1) or high (0, default). */
void nic_model_set_backpressure(struct nic_model *m, bool hold);

/* Flush the FST trace file (no-op without trace). */
void nic_model_trace_flush(struct nic_model *m);

/* ---- straps and network links (for a world of several NICs, sim/world/) ----
 * The 7 link ports (X+ X- Y+ Y- Z+ Z- spare) of docs/network.md.  `out` of
 * one node, delayed, is `in` of its link partner: data/valid/last/vc/crc of
 * link l go to the facing link, and the credit bits (2 per link, VC0 in the
 * low bit) travel the other way. */
#define NIC_LINKS 7
struct nic_links {
	uint8_t valid, last, vc;        /* bit l = link l */
	uint16_t credit;                /* bits 2l+1:2l = credits of link l */
	uint32_t data[NIC_LINKS][4];    /* 128-bit flit, dword 0 = bits 31:0 */
	uint32_t crc[NIC_LINKS];
};
/* Set cfg_node_id / cfg_dateline (registered by the NIC every cycle; set them
 * before nic_model_reset() so the NIC comes out of reset with them). */
void nic_model_set_straps(struct nic_model *m, uint16_t node_id, uint8_t dateline);
/* Outputs after the last step: m_phy_* and m_phy_credit (credit returns). */
void nic_model_links_get(const struct nic_model *m, struct nic_links *out);
/* Inputs for the next step: s_phy_* and s_phy_credit. */
void nic_model_links_set(struct nic_model *m, const struct nic_links *in);

/* Model build facts: 1 if built with FST tracing support. */
int nic_model_has_trace(void);

#ifdef __cplusplus
}
#endif
#endif /* SIM_MODEL_NIC_MODEL_H */
