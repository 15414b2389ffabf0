// SPDX-License-Identifier: Apache-2.0
/* The Verilated naa_node (NIC in the root-port role + the sample accelerator,
 * docs/nic.md) as a back end of pcie_model.h.  A network-attached accelerator
 * has no CPU and no PCIe link to the outside: all it has are its straps and
 * its 7 network links, so it has no upstream TLP port.  Its status ports:
 * net_ovf, dev_intx (the accelerator's INTx, not forwarded) and dev_busy (an
 * accelerator job, which may run without traffic: the world keeps clocking).
 * Built as its own Verilated class (--prefix Vnaa_node) next to Vextoll_nic
 * in one binary. */
#include "pcie_model.h"

/* The device below the root port is an RTL parameter (naa_node DEVICE): each
 * choice is its own Verilated class and back end; naa_epf_model.cpp builds
 * this file for the endpoint test function (docs/epf-test.md). */
#ifndef NAA_VTOP
#define NAA_VTOP    Vnaa_node
#define NAA_VTOP_H  "Vnaa_node.h"
#define NAA_ROOT_H  "Vnaa_node___024root.h"
/* the free-running counters besides the NIC's info.cycles (skipping, vmodel.h):
 * the sample accelerator's cycles register and Verilator's shadow of it */
#define NAA_DEV_COUNTERS(r)                                                              \
	do {                                                                             \
		skip_counter(&(r)->naa_node__DOT__u_dev__DOT__g_accel__DOT__u_dev__DOT__u_regs__DOT__cycles); \
		skip_counter(&(r)->__Vdly__naa_node__DOT__u_dev__DOT__g_accel__DOT__u_dev__DOT__u_regs__DOT__cycles); \
	} while (0)
#define NAA_BACKEND pcie_backend_naa
#define NAA_NAME    "naa"
#define NAA_DESC    "naa_node (extoll_nic ROLE 1 + accel_top, network links only)"
#endif

#include NAA_VTOP_H
#include NAA_ROOT_H
#include "vmodel.h"

namespace {

struct naa_model : vmodel<NAA_VTOP> {
	flash_node<NAA_VTOP> flash;     /* the NIC's configuration flash, boot identity */

	/* one rising edge, then the flash part on the pins; a reload request
	 * boots again from the flash and resets the node */
	void cycle(bool rst)
	{
		top->rst = rst;
		clk_low();
		clk_rise();
		flash.after_cycle(top.get(), name, rst, [this] { reset(8); });
	}
	void close()
	{
		flash.close();
		vmodel::close();
	}
	void reset(unsigned n)
	{
		if (n < 1)
			n = 1;
		for (unsigned i = 0; i < n; i++)
			cycle(true);
		top->rst = 0;
		top->eval();
	}
	void init(const pcie_model_params *p)
	{
		top->clk = 0;
		top->rst = 1;
		set_straps(p->node_id, p->dateline);
		flash.open(name);
		flash.boot_straps(top.get(), name, 0);
		top->eval();
		reset(8);
		skip_counter(&top->rootp->naa_node__DOT__u_nic__DOT__u_core__DOT__cycles);
		skip_mirror(&top->rootp->naa_node__DOT__u_nic__DOT__u_core__DOT__cycles,
			    &top->rootp->naa_node__DOT__u_nic__DOT__u_core__DOT__hwif_in);
		NAA_DEV_COUNTERS(top->rootp);
	}
	bool irq() const { return top->dev_intx; }
	bool busy() const { return top->dev_busy; }
	bool overrun() const { return top->net_ovf; }
	bool skippable() const { return !busy() && flash.idle(top.get()); }
};

using ops_t = vops<naa_model>;

const pcie_model_ops naa_ops = ops_t::with_skip(ops_t::with_links(ops_t::common()));

pcie_model *create(const pcie_model_params *p)
{
	return ops_t::create(&naa_ops, &NAA_BACKEND, "naa_model", NAA_NAME, p);
}

} // namespace

extern "C" const struct pcie_model_backend NAA_BACKEND = {
	NAA_NAME, NAA_DESC, false, true, create,
};
