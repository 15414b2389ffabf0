// SPDX-License-Identifier: Apache-2.0
/* vmodel.h: the Verilator glue that the C-API models share (nic_model.cpp,
 * accel_model.cpp through it, sim/world/naa_model.cpp): context and top, the
 * optional FST trace (built in with NIC_MODEL_TRACE=1), the two clock half
 * cycles with their trace dumps, the network link ports (struct nic_links,
 * for tops that have them), and teardown.  Each model derives its state
 * struct from vmodel<its Verilated class>. */
#ifndef SIM_MODEL_VMODEL_H
#define SIM_MODEL_VMODEL_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "nic_model.h"
#include "verilated.h"
#if NIC_MODEL_TRACE
#include "verilated_fst_c.h"
#endif

template <class Top> struct vmodel {
	std::string name;
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Top> top;
#if NIC_MODEL_TRACE
	std::unique_ptr<VerilatedFstC> tfp;
#endif
	bool tracing = false;
	uint64_t cycles = 0;

	/* Context and top called `nm` (dflt if null), tracing to fst_path if it
	 * is given.  false, with a message prefixed by `who`, if the trace cannot
	 * be had: the caller deletes the model. */
	bool open(const char *who, const char *nm, const char *dflt, const char *fst_path)
	{
		name = nm ? nm : dflt;
		ctx.reset(new VerilatedContext);
		ctx->randReset(0);
		if (fst_path) {
#if NIC_MODEL_TRACE
			ctx->traceEverOn(true);
#else
			fprintf(stderr, "%s: FST trace requested but the model was built without --trace-fst\n", who);
			return false;
#endif
		}
		top.reset(new Top(ctx.get(), name.c_str()));
#if NIC_MODEL_TRACE
		if (fst_path) {
			tfp.reset(new VerilatedFstC);
			top->trace(tfp.get(), 99);
			tfp->open(fst_path);
			if (!tfp->isOpen()) {
				fprintf(stderr, "%s: cannot open FST trace %s\n", who, fst_path);
				tfp.reset();
				top.reset();
				return false;
			}
			tracing = true;
		}
#endif
		return true;
	}

	void dump(uint64_t t)
	{
#if NIC_MODEL_TRACE
		if (tracing)
			tfp->dump(t);
#else
		(void)t;
#endif
	}

	/* clk low (inputs set by the caller before), then the rising edge:
	 * time advances one cycle, two trace steps */
	void clk_low()
	{
		top->clk = 0;
		top->eval();
		dump(2 * cycles);
	}
	void clk_rise()
	{
		top->clk = 1;
		top->eval();
		cycles++;
		ctx->time(2 * cycles);
		dump(2 * cycles - 1);
	}

	/* the six link ports (m_phy_* out, s_phy_* in) */
	void links_get(struct nic_links *o) const
	{
		o->valid = top->m_phy_valid;
		o->last = top->m_phy_last;
		o->vc = top->m_phy_vc;
		o->credit = top->m_phy_credit;
		memcpy(o->data, top->m_phy_data.data(), sizeof(o->data));
		memcpy(o->crc, top->m_phy_crc.data(), sizeof(o->crc));
	}
	void links_set(const struct nic_links *in)
	{
		top->s_phy_valid = in->valid;
		top->s_phy_last = in->last;
		top->s_phy_vc = in->vc;
		top->s_phy_credit = in->credit;
		memcpy(top->s_phy_data.data(), in->data, sizeof(in->data));
		memcpy(top->s_phy_crc.data(), in->crc, sizeof(in->crc));
	}

	/* final, close the trace, free the top (the context stays) */
	void close()
	{
		top->final();
#if NIC_MODEL_TRACE
		if (tracing)
			tfp->close();
		tfp.reset();
#endif
		top.reset();
	}

	void trace_flush()
	{
#if NIC_MODEL_TRACE
		if (tracing)
			tfp->flush();
#endif
	}
};

#endif /* SIM_MODEL_VMODEL_H */
