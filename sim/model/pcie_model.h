/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A PCIe device model: one Verilated device behind one C interface, an ops
 * table, so that cosimd and the topology world (sim/world/) drive every
 * device the same way.  Three back ends:
 *
 *   nic    extoll_nic ROLE 0 (sim/model/nic_model.cpp): upstream TLP port and
 *          network links; the host NIC and the router nodes
 *   accel  accel_top, BAR64=0 (sim/model/accel_model.cpp): upstream TLP port,
 *          no links; the sample accelerator as a local proxy device
 *   naa    naa_node (sim/world/naa_model.cpp): network links only (the NIC in
 *          the root-port role with the accelerator below it)
 *
 * The caller clocks: pcie_model_step() on every model of a world in turn
 * (lockstep; several models can live in one process, each has its own
 * VerilatedContext).  One cycle = one rising edge of clk; handshakes are
 * sampled just before the edge, as a synchronous receiver would.
 *
 * TLPs use the stream format of docs/tlp-interface.md: the back end splits a
 * pushed TLP into beats (beat 0 = header, payload from beat 1), drives them
 * into s_tlp respecting s_tlp_ready, and assembles the beats the device sends
 * on m_tlp into whole TLPs for pcie_model_pop().  Config and BAR accesses are
 * TLPs like any other: the caller knows no register of the device; what it
 * needs (interrupt level, busy) comes from the back end (ops below).
 */
#ifndef SIM_MODEL_PCIE_MODEL_H
#define SIM_MODEL_PCIE_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tlp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- network links (for a world of several nodes, sim/world/) ----
 * The 7 link ports (X+ X- Y+ Y- Z+ Z- spare) of docs/network.md.  `out` of
 * one node, delayed, is `in` of its link partner: every cycle one link symbol
 * per direction (docs/network.md "Link layer"): 128 data bits, the framing
 * word (net_lfrm: kind, first, last, vc, fidx, seq) and the CRC over both.  Flits,
 * ACK/NAK and credits all travel as symbols. */
#define NIC_LINKS 7
struct nic_links {
	uint32_t data[NIC_LINKS][4];    /* 128-bit data, dword 0 = bits 31:0 */
	uint16_t frm[NIC_LINKS];        /* framing word (net_lfrm) */
	uint32_t crc[NIC_LINKS];
};

struct pcie_model;

/* What a back end implements.  Entries marked optional are NULL when the
 * device lacks the port; the pcie_model_* wrappers below then do nothing
 * (push fails, pop finds nothing, links read as idle). */
struct pcie_model_ops {
	void (*destroy)(struct pcie_model *m);
	/* synchronous reset: rst high for `cycles` cycles (minimum 1); drops
	 * every queued or partially transferred TLP in both directions */
	void (*reset)(struct pcie_model *m, unsigned cycles);
	/* advance the clock by n cycles */
	void (*step)(struct pcie_model *m, uint64_t n);
	/* rising edges since creation (reset cycles included) */
	uint64_t (*cycles)(const struct pcie_model *m);

	/* -- upstream TLP port (optional) -- */
	/* queue a TLP toward the device: hdr_dw 3 or 4, payload_dw 0 for TLPs
	 * without data; 0, or -1 when the TLP is malformed or too long */
	int (*push)(struct pcie_model *m, const uint32_t hdr[4], unsigned hdr_dw,
		    const uint32_t *payload, unsigned payload_dw);
	/* take the oldest complete TLP the device sent: 1 with hdr[4] and up to
	 * max_dw payload dwords (*payload_dw = dwords received, may exceed
	 * max_dw, excess dropped), or 0 when none is waiting */
	int (*pop)(struct pcie_model *m, uint32_t hdr[4], uint32_t *payload, unsigned max_dw,
		   unsigned *payload_dw);
	/* TLPs pushed / fully accepted by the device (eop beat taken) since
	 * creation: TLP number k (1-based, in push order) is accepted once
	 * tlps_in >= k (TLPs dropped by a reset count as accepted) */
	uint64_t (*tlps_pushed)(const struct pcie_model *m);
	uint64_t (*tlps_in)(const struct pcie_model *m);

	/* -- state the caller acts on -- */
	/* interrupt pending: the INTx level (naa: the accelerator's, which the
	 * NIC does not forward) */
	bool (*irq)(const struct pcie_model *m);
	/* work in flight that needs the clock: TLP beats not yet transferred in
	 * either direction, or internal work without traffic (an accelerator
	 * job).  Complete TLPs waiting for pop do not count. */
	bool (*busy)(const struct pcie_model *m);
	/* sticky network buffer overrun (optional; must stay false) */
	bool (*overrun)(const struct pcie_model *m);

	/* -- network links (optional) -- */
	/* cfg_node_id / cfg_dateline, registered by the NIC every cycle: set
	 * them before a reset so the NIC comes out of it with them */
	void (*set_straps)(struct pcie_model *m, uint16_t node_id, uint8_t dateline);
	/* outputs after the last step: m_phy_* */
	void (*links_get)(const struct pcie_model *m, struct nic_links *out);
	/* inputs for the next step: s_phy_* */
	void (*links_set)(struct pcie_model *m, const struct nic_links *in);

	/* -- idle-node skipping (optional; sim/world/world.c, docs/cosim.md
	 * "Skipping idle nodes") -- */
	/* The model's whole RTL state (the Verilated root object: every register,
	 * memory and input port), *len bytes, or NULL when the model must not be
	 * skipped now: a trace is written, TLP beats are pending (busy), its flash
	 * part is selected or busy, or a reload is requested.  *cnt (ncnt entries):
	 * bit offsets in that state of the free-running 64-bit counters (and of
	 * their combinational copies), which count every cycle and feed nothing
	 * but register reads (info.cycles); pcie_state_add64 advances one. */
	const void *(*skip_state)(const struct pcie_model *m, size_t *len, const size_t **cnt,
				  unsigned *ncnt);
	/* n cycles that were not evaluated: the free-running counters and the
	 * cycle count (pcie_model_cycles) advance by n; nothing else changes */
	void (*skip)(struct pcie_model *m, uint64_t n);

	/* -- diagnostics -- */
	void (*trace_flush)(struct pcie_model *m);
	/* device-specific counters for --stats, lines starting with prefix
	 * (optional) */
	void (*print_stats)(const struct pcie_model *m, FILE *f, const char *prefix);
};

/* Every back end's state starts with this. */
struct pcie_model {
	const struct pcie_model_ops *ops;
	const struct pcie_model_backend *backend;
};

/* Creation parameters.  name: instance name (traces, messages; may be NULL).
 * fst_path: FST waveform file or NULL (needs a model built with --trace-fst,
 * else creation fails with a message).  node_id/dateline: the straps of a
 * device with network links.  The device is held in reset for a few cycles
 * before create returns. */
struct pcie_model_params {
	const char *name;
	const char *fst_path;
	uint16_t node_id;
	uint8_t dateline;
};

/* A back end: its name (cosimd --device), a description, capabilities. */
struct pcie_model_backend {
	const char *name;
	const char *desc;
	bool upstream;          /* has an upstream TLP port (can serve QEMU) */
	bool links;             /* has network links (can be a world node) */
	struct pcie_model *(*create)(const struct pcie_model_params *p);
};

extern const struct pcie_model_backend pcie_backend_nic;   /* nic_model.cpp */
extern const struct pcie_model_backend pcie_backend_accel; /* accel_model.cpp */
extern const struct pcie_model_backend pcie_backend_naa;   /* sim/world/naa_model.cpp */
extern const struct pcie_model_backend pcie_backend_naa_epf;  /* sim/world/naa_epf_model.cpp */

/* 1 if the models were built with FST tracing support */
int pcie_model_has_trace(void);

/* ---- the interface, through the ops table ---- */
static inline struct pcie_model *pcie_model_create(const struct pcie_model_backend *b,
						   const struct pcie_model_params *p)
{
	return b->create(p);
}

static inline void pcie_model_destroy(struct pcie_model *m)
{
	if (m)
		m->ops->destroy(m);
}

static inline void pcie_model_reset(struct pcie_model *m, unsigned cycles)
{
	m->ops->reset(m, cycles);
}

static inline void pcie_model_step(struct pcie_model *m, uint64_t n)
{
	m->ops->step(m, n);
}

static inline uint64_t pcie_model_cycles(const struct pcie_model *m)
{
	return m->ops->cycles(m);
}

static inline int pcie_model_push(struct pcie_model *m, const uint32_t hdr[4], unsigned hdr_dw,
				  const uint32_t *payload, unsigned payload_dw)
{
	return m->ops->push ? m->ops->push(m, hdr, hdr_dw, payload, payload_dw) : -1;
}

static inline int pcie_model_pop(struct pcie_model *m, uint32_t hdr[4], uint32_t *payload,
				 unsigned max_dw, unsigned *payload_dw)
{
	return m->ops->pop ? m->ops->pop(m, hdr, payload, max_dw, payload_dw) : 0;
}

static inline uint64_t pcie_model_tlps_pushed(const struct pcie_model *m)
{
	return m->ops->tlps_pushed ? m->ops->tlps_pushed(m) : 0;
}

static inline uint64_t pcie_model_tlps_in(const struct pcie_model *m)
{
	return m->ops->tlps_in ? m->ops->tlps_in(m) : 0;
}

static inline bool pcie_model_irq(const struct pcie_model *m)
{
	return m->ops->irq(m);
}

static inline bool pcie_model_busy(const struct pcie_model *m)
{
	return m->ops->busy(m);
}

static inline bool pcie_model_overrun(const struct pcie_model *m)
{
	return m->ops->overrun && m->ops->overrun(m);
}

static inline bool pcie_model_has_links(const struct pcie_model *m)
{
	return m->ops->links_get != NULL;
}

static inline void pcie_model_set_straps(struct pcie_model *m, uint16_t node_id, uint8_t dateline)
{
	if (m->ops->set_straps)
		m->ops->set_straps(m, node_id, dateline);
}

static inline void pcie_model_links_get(const struct pcie_model *m, struct nic_links *out)
{
	if (m->ops->links_get)
		m->ops->links_get(m, out);
	else
		memset(out, 0, sizeof(*out));
}

static inline void pcie_model_links_set(struct pcie_model *m, const struct nic_links *in)
{
	if (m->ops->links_set)
		m->ops->links_set(m, in);
}

/* add n to the little-endian 64-bit field at bit offset bit of state st */
static inline void pcie_state_add64(uint8_t *st, size_t bit, uint64_t n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 64; i++)
		v |= (uint64_t)((st[(bit + i) / 8] >> ((bit + i) % 8)) & 1) << i;
	v += n;
	for (unsigned i = 0; i < 64; i++) {
		uint8_t *b = &st[(bit + i) / 8];
		unsigned k = (unsigned)((bit + i) % 8);

		*b = (uint8_t)((*b & ~(1u << k)) | (((v >> i) & 1) << k));
	}
}

/* the state for skipping (ops.skip_state): NULL when the model has none or is not skippable now */
static inline const void *pcie_model_skip_state(const struct pcie_model *m, size_t *len,
						const size_t **cnt, unsigned *ncnt)
{
	return m->ops->skip_state ? m->ops->skip_state(m, len, cnt, ncnt) : NULL;
}

static inline void pcie_model_skip(struct pcie_model *m, uint64_t n)
{
	if (m->ops->skip)
		m->ops->skip(m, n);
}

static inline void pcie_model_trace_flush(struct pcie_model *m)
{
	m->ops->trace_flush(m);
}

static inline void pcie_model_print_stats(const struct pcie_model *m, FILE *f, const char *prefix)
{
	if (m->ops->print_stats)
		m->ops->print_stats(m, f, prefix);
}

/* ---- struct tlp on top of push/pop ---- */
/* Push a struct tlp, header encoded with tlp_encode_hdr(): 0 or -1. */
static inline int pcie_model_push_tlp(struct pcie_model *m, const struct tlp *t)
{
	uint32_t hdr[4];
	unsigned hdr_dw = tlp_encode_hdr(t, hdr);

	if (!hdr_dw)
		return -1;
	return pcie_model_push(m, hdr, hdr_dw, t->payload, t->payload_dw);
}

/* Pop and decode with tlp_decode(): 1, 0 (none), or -1 (malformed header or
 * payload too long: raw header dwords in hdr_out if non-NULL). */
static inline int pcie_model_pop_tlp(struct pcie_model *m, struct tlp *t, uint32_t hdr_out[4])
{
	uint32_t hdr[4], payload[TLP_MAX_PAYLOAD_DW];
	unsigned n;

	if (!pcie_model_pop(m, hdr, payload, TLP_MAX_PAYLOAD_DW, &n))
		return 0;
	if (hdr_out)
		memcpy(hdr_out, hdr, sizeof(hdr));
	if (n > TLP_MAX_PAYLOAD_DW)
		return -1;
	return tlp_decode(hdr, payload, n, t) ? -1 : 1;
}

#ifdef __cplusplus
}
#endif
#endif /* SIM_MODEL_PCIE_MODEL_H */
