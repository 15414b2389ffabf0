// SPDX-License-Identifier: Apache-2.0
/* The Verilated naa_node behind the C API of naa_model.h. */
#include "naa_model.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "Vnaa_node.h"
#include "Vnaa_node___024root.h"   /* job_busy: public by sim/model/accel_public.vlt */
#include "verilated.h"
#if NIC_MODEL_TRACE
#include "verilated_fst_c.h"
#endif

struct naa_model {
	std::string name;
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vnaa_node> top;
#if NIC_MODEL_TRACE
	std::unique_ptr<VerilatedFstC> tfp;
#endif
	bool tracing = false;
	uint64_t cycles = 0;
};

static void dump(naa_model *m, uint64_t t)
{
#if NIC_MODEL_TRACE
	if (m->tracing)
		m->tfp->dump(t);
#else
	(void)m;
	(void)t;
#endif
}

static void cycle(naa_model *m, bool rst)
{
	Vnaa_node *top = m->top.get();

	top->rst = rst;
	top->clk = 0;
	top->eval();
	dump(m, 2 * m->cycles);
	top->clk = 1;
	top->eval();
	m->cycles++;
	m->ctx->time(2 * m->cycles);
	dump(m, 2 * m->cycles - 1);
}

extern "C" {

struct naa_model *naa_model_create(const char *name, const char *fst_path, uint16_t node_id,
				   uint8_t dateline)
{
	naa_model *m = new naa_model;

	m->name = name ? name : "naa";
	m->ctx.reset(new VerilatedContext);
	m->ctx->randReset(0);
	if (fst_path) {
#if NIC_MODEL_TRACE
		m->ctx->traceEverOn(true);
#else
		fprintf(stderr, "naa_model: FST trace requested but the model was built without --trace-fst\n");
		delete m;
		return nullptr;
#endif
	}
	m->top.reset(new Vnaa_node(m->ctx.get(), m->name.c_str()));
#if NIC_MODEL_TRACE
	if (fst_path) {
		m->tfp.reset(new VerilatedFstC);
		m->top->trace(m->tfp.get(), 99);
		m->tfp->open(fst_path);
		if (!m->tfp->isOpen()) {
			fprintf(stderr, "naa_model: cannot open FST trace %s\n", fst_path);
			m->tfp.reset();
			m->top.reset();
			delete m;
			return nullptr;
		}
		m->tracing = true;
	}
#endif
	m->top->clk = 0;
	m->top->rst = 1;
	m->top->cfg_node_id = node_id;
	m->top->cfg_dateline = dateline & 0x7f;
	m->top->eval();
	naa_model_reset(m, 8);
	return m;
}

void naa_model_destroy(struct naa_model *m)
{
	if (!m)
		return;
	m->top->final();
#if NIC_MODEL_TRACE
	if (m->tracing)
		m->tfp->close();
	m->tfp.reset();
#endif
	m->top.reset();
	delete m;
}

void naa_model_reset(struct naa_model *m, unsigned cycles)
{
	if (cycles < 1)
		cycles = 1;
	for (unsigned i = 0; i < cycles; i++)
		cycle(m, true);
	m->top->rst = 0;
	m->top->eval();
}

void naa_model_step(struct naa_model *m, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		cycle(m, false);
}

void naa_model_links_get(const struct naa_model *m, struct nic_links *o)
{
	const Vnaa_node *top = m->top.get();

	o->valid = top->m_phy_valid;
	o->last = top->m_phy_last;
	o->vc = top->m_phy_vc;
	o->credit = top->m_phy_credit;
	memcpy(o->data, top->m_phy_data.data(), sizeof(o->data));
	memcpy(o->crc, top->m_phy_crc.data(), sizeof(o->crc));
}

void naa_model_links_set(struct naa_model *m, const struct nic_links *in)
{
	Vnaa_node *top = m->top.get();

	top->s_phy_valid = in->valid;
	top->s_phy_last = in->last;
	top->s_phy_vc = in->vc;
	top->s_phy_credit = in->credit;
	memcpy(top->s_phy_data.data(), in->data, sizeof(in->data));
	memcpy(top->s_phy_crc.data(), in->crc, sizeof(in->crc));
}

uint64_t naa_model_cycles(const struct naa_model *m)
{
	return m->cycles;
}

bool naa_model_net_ovf(const struct naa_model *m)
{
	return m->top->net_ovf;
}

bool naa_model_dev_intx(const struct naa_model *m)
{
	return m->top->dev_intx;
}

bool naa_model_busy(const struct naa_model *m)
{
	return m->top->rootp->naa_node__DOT__u_dev__DOT__job_busy;
}

void naa_model_trace_flush(struct naa_model *m)
{
#if NIC_MODEL_TRACE
	if (m->tracing)
		m->tfp->flush();
#else
	(void)m;
#endif
}

} /* extern "C" */
