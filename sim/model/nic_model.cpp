// SPDX-License-Identifier: Apache-2.0
/* The Verilated extoll_nic (ROLE 0) as a back end of pcie_model.h: the host
 * NIC served to QEMU by cosimd, and the router nodes of a world.  Upstream TLP
 * port, straps and network links, intx, net_ovf.
 *
 * For --stats it counts the remote requests the host launches (writes of
 * rra.req, by op), seen in the TLPs pushed: BAR0's base from the config
 * write to the BAR, the register offsets and the op field from the generated
 * hw/include/extoll_regs.h. */
#include "pcie_model.h"

#include <linux/pci_regs.h>

#include "Vextoll_nic.h"
#include "Vextoll_nic___024root.h"  /* the RTL state, for skipping (vmodel.h) */
#include "extoll_regs.h"
#include "vmodel.h"

namespace {

struct nic_model : tlp_port_model<Vextoll_nic> {
	uint32_t bar0 = 0;              /* BAR0 as last written (32-bit BAR) */
	uint64_t rra_req[8] = {};       /* rra.req writes by op */

	flash_node<Vextoll_nic> flash;  /* configuration flash, boot identity */

	void init(const pcie_model_params *p)
	{
		init_ports();
		set_straps(p->node_id, p->dateline);
		flash.open(name);
		flash.boot_straps(top.get(), name, 0);
		reset(8);
		/* info.cycles (nic_reg_hw), read only by register reads, and its
		 * copy in the register block's input struct */
		skip_counter(&top->rootp->extoll_nic__DOT__u_core__DOT__cycles);
		skip_mirror(&top->rootp->extoll_nic__DOT__u_core__DOT__cycles,
			    &top->rootp->extoll_nic__DOT__u_core__DOT__hwif_in);
	}

	/* one rising edge, then the flash part on the pins; a reload request
	 * (flash.reload) boots again from the flash and resets the NIC: the
	 * PCI device loses its configuration, as an FPGA reconfiguration does */
	void cycle(bool rst)
	{
		tlp_port_model::cycle(rst);
		flash.after_cycle(top.get(), name, rst, [this] { reset(8); });
	}

	void close()
	{
		flash.close();
		tlp_port_model::close();
	}

	/* the host's config writes to BAR0 and 64-bit stores to rra.req */
	void observe(const uint32_t hdr[4], const uint32_t *payload, unsigned payload_dw)
	{
		struct tlp t;

		if (tlp_decode(hdr, payload, payload_dw, &t))
			return;
		if (t.kind == TLP_CFGWR0 && t.reg == PCI_BASE_ADDRESS_0 && t.first_be == 0xf &&
		    t.payload_dw == 1 && t.payload[0] != ~0u)
			bar0 = t.payload[0] & (uint32_t)PCI_BASE_ADDRESS_MEM_MASK;
		if (t.kind == TLP_MWR && bar0 && t.addr == (uint64_t)bar0 + EXTOLL_RRA_BASE + EXTOLL_RRA_REQ &&
		    t.len_dw == 2 && t.payload_dw == 2 && t.first_be == 0xf && t.last_be == 0xf) {
			uint64_t v = t.payload[0] | (uint64_t)t.payload[1] << 32;
			rra_req[(v & EXTOLL_RRA_REQ_OP_MASK) >> EXTOLL_RRA_REQ_OP_SHIFT]++;
		}
	}

	int push(const uint32_t hdr[4], unsigned hdr_dw, const uint32_t *payload, unsigned payload_dw)
	{
		int r = tlp_port_model::push(hdr, hdr_dw, payload, payload_dw);

		if (!r && payload_dw <= TLP_MAX_PAYLOAD_DW)
			observe(hdr, payload, payload_dw);
		return r;
	}

	bool irq() const { return top->intx; }
	bool busy() const { return port_busy(); }
	bool overrun() const { return top->net_ovf; }
	bool skippable() const { return !busy() && flash.idle(top.get()); }
};

using ops_t = vops<nic_model>;

void print_stats(const pcie_model *m, FILE *f, const char *prefix)
{
	const nic_model *s = ops_t::self(m);

	fprintf(f,
		"%s%s (extoll_nic): remote requests (rra.req writes): %llu register reads, "
		"%llu register writes, %llu tunnelled config\n",
		prefix, s->name.c_str(), (unsigned long long)s->rra_req[0],
		(unsigned long long)s->rra_req[1], (unsigned long long)s->rra_req[2]);
}

pcie_model_ops make_ops()
{
	pcie_model_ops o = ops_t::with_skip(ops_t::with_links(ops_t::with_port(ops_t::common())));

	o.print_stats = print_stats;
	return o;
}

const pcie_model_ops nic_ops = make_ops();

pcie_model *create(const pcie_model_params *p)
{
	return ops_t::create(&nic_ops, &pcie_backend_nic, "nic_model", "nic", p);
}

} // namespace

extern "C" {

const struct pcie_model_backend pcie_backend_nic = {
	"nic", "extoll_nic ROLE 0 (endpoint NIC, network links)", true, true, create,
};

int pcie_model_has_trace(void)
{
	return NIC_MODEL_TRACE ? 1 : 0;
}

} /* extern "C" */
