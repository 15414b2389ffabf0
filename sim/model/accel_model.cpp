// SPDX-License-Identifier: Apache-2.0
/*
 * The Verilated sample accelerator (accel_top, built with BAR64=0: QEMU's
 * proxy mis-sizes 64-bit BARs) as a back end of pcie_model.h, so that cosimd
 * can serve it to QEMU as its own proxy device (`cosimd --device accel`, a
 * local attach, no NIC): the same TLP port as extoll_nic, no straps, no
 * network links.  Its `busy` output (a DMA or CRC job running) keeps the
 * clock going while a job works without traffic.
 */
#include "pcie_model.h"

#include "Vaccel_top.h"
#include "vmodel.h"

namespace {

struct accel_model : tlp_port_model<Vaccel_top> {
	void init(const pcie_model_params *)
	{
		init_ports();
		reset(8);
	}
	bool irq() const { return top->intx; }
	bool busy() const { return port_busy() || top->busy; }
};

using ops_t = vops<accel_model>;

const pcie_model_ops accel_ops = ops_t::with_port(ops_t::common());

pcie_model *create(const pcie_model_params *p)
{
	return ops_t::create(&accel_ops, &pcie_backend_accel, "accel_model", "accel", p);
}

} // namespace

extern "C" const struct pcie_model_backend pcie_backend_accel = {
	"accel", "accel_top BAR64=0 (sample accelerator, no network links)", true, false, create,
};
