// SPDX-License-Identifier: Apache-2.0
/* The Verilated naa_node behind the C API of naa_model.h. */
#include "naa_model.h"

#include "Vnaa_node.h"
#include "Vnaa_node___024root.h"   /* job_busy: public by sim/model/accel_public.vlt */
#include "vmodel.h"

struct naa_model : vmodel<Vnaa_node> {};

static void cycle(naa_model *m, bool rst)
{
	m->top->rst = rst;
	m->clk_low();
	m->clk_rise();
}

extern "C" {

struct naa_model *naa_model_create(const char *name, const char *fst_path, uint16_t node_id,
				   uint8_t dateline)
{
	naa_model *m = new naa_model;

	if (!m->open("naa_model", name, "naa", fst_path)) {
		delete m;
		return nullptr;
	}
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
	m->close();
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
	m->links_get(o);
}

void naa_model_links_set(struct naa_model *m, const struct nic_links *in)
{
	m->links_set(in);
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
	m->trace_flush();
}

} /* extern "C" */
