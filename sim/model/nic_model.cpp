// SPDX-License-Identifier: Apache-2.0
/* The Verilated extoll_nic behind the C API of nic_model.h.
 *
 * Also compiled for another top with the same TLP ports (s_tlp_*, m_tlp_*,
 * intx) and no network links: define NIC_MODEL_TOP (class), NIC_MODEL_TOP_H
 * (its header) and NIC_MODEL_LINKS 0 before including this file
 * (sim/model/accel_model.cpp: the sample accelerator as a local device).
 * NIC_MODEL_BUSY(top), if defined, makes nic_model_idle() false while it is
 * true (internal work that the caller must keep clocking). */
#include "nic_model.h"

#ifndef NIC_MODEL_TOP
#define NIC_MODEL_TOP Vextoll_nic
#define NIC_MODEL_TOP_H "Vextoll_nic.h"
#define NIC_MODEL_LINKS 1
#endif

#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

#include NIC_MODEL_TOP_H
#include "vmodel.h"

namespace {

struct beat {
	uint32_t d[4];
	uint8_t keep;
	bool sop, eop;
};

} // namespace

struct nic_model : vmodel<NIC_MODEL_TOP> {
	std::deque<beat> in;            /* beats toward the NIC */
	unsigned in_tlps = 0;           /* TLPs (eop beats) in `in` */
	uint64_t tlps_pushed = 0, tlps_in = 0;
	bool rx_active = false;         /* a TLP from the NIC is half received */
	std::vector<uint32_t> rx;       /* its dwords: 4 header, then payload */
	std::deque<std::vector<uint32_t>> out; /* complete TLPs from the NIC */
	bool hold = false;
	bool warned_framing = false;
};

static void framing_warn(nic_model *m, const char *what)
{
	if (!m->warned_framing)
		fprintf(stderr, "nic_model %s: cycle %llu: m_tlp framing error: %s (further ones not shown)\n",
			m->name.c_str(), (unsigned long long)m->cycles, what);
	m->warned_framing = true;
}

/* One rising edge.  Inputs are driven with clk low, handshakes sampled before
 * the edge, queues updated after it. */
static void cycle(nic_model *m, bool rst)
{
	NIC_MODEL_TOP *top = m->top.get();
	bool s_valid = !rst && !m->in.empty();

	top->rst = rst;
	top->s_tlp_valid = s_valid;
	if (s_valid) {
		const beat &b = m->in.front();
		for (int i = 0; i < 4; i++)
			top->s_tlp_data[i] = b.d[i];
		top->s_tlp_keep = b.keep;
		top->s_tlp_sop = b.sop;
		top->s_tlp_eop = b.eop;
	} else {
		top->s_tlp_keep = 0;
		top->s_tlp_sop = 0;
		top->s_tlp_eop = 0;
	}
	top->m_tlp_ready = !m->hold;
	m->clk_low();

	bool in_fire = s_valid && top->s_tlp_ready;
	bool out_fire = top->m_tlp_valid && top->m_tlp_ready && !rst;
	beat ob;
	if (out_fire) {
		for (int i = 0; i < 4; i++)
			ob.d[i] = top->m_tlp_data[i];
		ob.keep = top->m_tlp_keep & 0xf;
		ob.sop = top->m_tlp_sop;
		ob.eop = top->m_tlp_eop;
	}

	m->clk_rise();

	if (in_fire) {
		if (m->in.front().eop) {
			m->in_tlps--;
			m->tlps_in++;
		}
		m->in.pop_front();
	}
	if (out_fire) {
		if (ob.sop) {
			if (m->rx_active)
				framing_warn(m, "sop inside a TLP (previous one dropped)");
			m->rx.assign(ob.d, ob.d + 4);
			m->rx_active = true;
		} else if (!m->rx_active) {
			framing_warn(m, "beat without sop (dropped)");
			return;
		} else {
			for (int i = 0; i < 4; i++)
				if (ob.keep & (1u << i))
					m->rx.push_back(ob.d[i]);
		}
		if (ob.eop) {
			m->out.push_back(std::move(m->rx));
			m->rx.clear();
			m->rx_active = false;
		}
	}
}

extern "C" {

int nic_model_has_trace(void)
{
	return NIC_MODEL_TRACE ? 1 : 0;
}

struct nic_model *nic_model_create(const char *name, const char *fst_path)
{
	nic_model *m = new nic_model;

	if (!m->open("nic_model", name, "nic", fst_path)) {
		delete m;
		return nullptr;
	}
	m->top->clk = 0;
	m->top->rst = 1;
	m->top->s_tlp_valid = 0;
	m->top->m_tlp_ready = 1;
	m->top->eval();
	nic_model_reset(m, 8);
	return m;
}

void nic_model_destroy(struct nic_model *m)
{
	if (!m)
		return;
	/* Verilator 5.006 unregisters the model's scopes from the *thread's*
	 * current context (Verilated::threadContextp()), which may be another
	 * model's or an already destroyed one (dangling: model_bench hung in a
	 * futex).  Point it at this model's context while destroying. */
	Verilated::threadContextp(m->ctx.get());
	m->close();
	m->ctx.reset();
	Verilated::threadContextp(nullptr);
	delete m;
}

void nic_model_reset(struct nic_model *m, unsigned cycles)
{
	m->in.clear();
	m->in_tlps = 0;
	m->tlps_in = m->tlps_pushed; /* dropped ones count as consumed */
	m->out.clear();
	m->rx.clear();
	m->rx_active = false;
	if (cycles < 1)
		cycles = 1;
	for (unsigned i = 0; i < cycles; i++)
		cycle(m, true);
	/* leave rst low with inputs settled */
	m->top->rst = 0;
	m->top->s_tlp_valid = 0;
	m->top->eval();
}

void nic_model_step(struct nic_model *m, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		cycle(m, false);
}

int nic_model_push(struct nic_model *m, const uint32_t hdr[4], unsigned hdr_dw,
		   const uint32_t *payload, unsigned payload_dw)
{
	beat b;

	if (payload_dw > 1024 || (hdr_dw != 3 && hdr_dw != 4))
		return -1;
	memcpy(b.d, hdr, sizeof(b.d));
	if (hdr_dw == 3)
		b.d[3] = 0;
	b.keep = hdr_dw == 4 ? 0xf : 0x7;
	b.sop = true;
	b.eop = payload_dw == 0;
	m->in.push_back(b);
	for (unsigned i = 0; i < payload_dw; i += 4) {
		unsigned n = payload_dw - i < 4 ? payload_dw - i : 4;
		beat p = {};
		memcpy(p.d, payload + i, n * sizeof(uint32_t));
		p.keep = (uint8_t)((1u << n) - 1);
		p.sop = false;
		p.eop = i + 4 >= payload_dw;
		m->in.push_back(p);
	}
	m->in_tlps++;
	m->tlps_pushed++;
	return 0;
}

int nic_model_push_tlp(struct nic_model *m, const struct tlp *t)
{
	uint32_t hdr[4];
	unsigned hdr_dw = tlp_encode_hdr(t, hdr);

	if (!hdr_dw)
		return -1;
	return nic_model_push(m, hdr, hdr_dw, t->payload, t->payload_dw);
}

int nic_model_pop(struct nic_model *m, uint32_t hdr[4], uint32_t *payload, unsigned max_dw,
		  unsigned *payload_dw)
{
	if (m->out.empty())
		return 0;
	std::vector<uint32_t> &v = m->out.front();
	unsigned n = (unsigned)v.size() - 4;

	memcpy(hdr, v.data(), 4 * sizeof(uint32_t));
	if (payload)
		memcpy(payload, v.data() + 4, (n < max_dw ? n : max_dw) * sizeof(uint32_t));
	if (payload_dw)
		*payload_dw = n;
	m->out.pop_front();
	return 1;
}

int nic_model_pop_tlp(struct nic_model *m, struct tlp *t, uint32_t hdr_out[4])
{
	uint32_t hdr[4], payload[TLP_MAX_PAYLOAD_DW];
	unsigned n;

	if (!nic_model_pop(m, hdr, payload, TLP_MAX_PAYLOAD_DW, &n))
		return 0;
	if (hdr_out)
		memcpy(hdr_out, hdr, sizeof(hdr));
	if (n > TLP_MAX_PAYLOAD_DW)
		return -1;
	return tlp_decode(hdr, payload, n, t) ? -1 : 1;
}

unsigned nic_model_pending_out(const struct nic_model *m)
{
	return (unsigned)m->out.size();
}

unsigned nic_model_pending_in(const struct nic_model *m)
{
	return m->in_tlps;
}

uint64_t nic_model_tlps_pushed(const struct nic_model *m)
{
	return m->tlps_pushed;
}

uint64_t nic_model_tlps_in(const struct nic_model *m)
{
	return m->tlps_in;
}

bool nic_model_intx(const struct nic_model *m)
{
	return m->top->intx;
}

uint64_t nic_model_cycles(const struct nic_model *m)
{
	return m->cycles;
}

bool nic_model_idle(const struct nic_model *m)
{
#ifdef NIC_MODEL_BUSY   /* a top that works without TLP traffic (accel_model.cpp) */
	if (NIC_MODEL_BUSY(m->top))
		return false;
#endif
	return m->in.empty() && !m->rx_active && !m->top->m_tlp_valid;
}

void nic_model_set_backpressure(struct nic_model *m, bool hold)
{
	m->hold = hold;
}

#if NIC_MODEL_LINKS
void nic_model_set_straps(struct nic_model *m, uint16_t node_id, uint8_t dateline)
{
	m->top->cfg_node_id = node_id;
	m->top->cfg_dateline = dateline & 0x7f;
}

void nic_model_links_get(const struct nic_model *m, struct nic_links *o)
{
	m->links_get(o);
}

void nic_model_links_set(struct nic_model *m, const struct nic_links *in)
{
	m->links_set(in);
}
#else /* a top without straps and links: nothing to drive, nothing arrives */
void nic_model_set_straps(struct nic_model *m, uint16_t node_id, uint8_t dateline)
{
	(void)m;
	(void)node_id;
	(void)dateline;
}

void nic_model_links_get(const struct nic_model *m, struct nic_links *o)
{
	(void)m;
	memset(o, 0, sizeof(*o));
}

void nic_model_links_set(struct nic_model *m, const struct nic_links *in)
{
	(void)m;
	(void)in;
}
#endif

void nic_model_trace_flush(struct nic_model *m)
{
	m->trace_flush();
}

} /* extern "C" */
