// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: config accessors of the remote PCI domain.
 *
 * Every access is one request through extoll's config tunnel to the node
 * (extoll_tunnel_cfg):
 * atomic-safe, polled, time-boxed, so the accessors work under pci_lock,
 * with interrupts off (MSI masking) and from interrupt context (AER).
 *
 * Local answers, without a request:
 *  - bus 0 has the root port only: devfn != 0 there reads all-ones;
 *  - without INTx forwarding (intx.c: no domain), INTERRUPT_LINE/PIN read 0
 *    and ignore writes; BRIDGE_CONTROL, the upper half of that dword, is
 *    tunnelled; with it, they are tunnelled too (the device's pin, the
 *    line pci_assign_irq writes);
 *  - a node marked dead (naa_dead_after consecutive timeouts, or the
 *    liveness probe of alive.c) fails at once with all-ones; marking it
 *    dead also starts the surprise removal of its domain (alive.c).
 * A CRS completion of a vendor ID read returns 0x0001 so the PCI core
 * retries (pci_bus_wait_crs).
 */
#include <linux/ktime.h>
#include <linux/pci.h>

#include "naa_bus.h"

static struct naa_host *naa_host_of(struct pci_bus *bus)
{
	/* Child buses inherit the root bus's sysdata. */
	return container_of(bus->sysdata, struct naa_host, sysdata);
}

/**
 * naa_mark_dead() - stop talking to a node that does not answer
 * @host: the node
 * @why: for the message
 *
 * Context: any.
 */
void naa_mark_dead(struct naa_host *host, const char *why)
{
	WRITE_ONCE(host->unreachable, true);
	if (xchg(&host->dead, true))
		return;
	dev_err(host->dev,
		"node %u: %s: marking it dead, config accesses to domain %04x now fail at once\n",
		host->node, why, host->domain);
	extoll_naa_set_state(host->naa, EXTOLL_NAA_DEAD, 0);
	naa_alive_dead(host);
}

static void naa_cfg_answered(struct naa_host *host)
{
	atomic_set(&host->cfg_timeouts, 0);
}

static void naa_cfg_timed_out(struct naa_host *host)
{
	unsigned int limit = max(READ_ONCE(naa_dead_after), 1U);

	if (atomic_inc_return(&host->cfg_timeouts) == 1 && !host->first_fail_ns)
		host->first_fail_ns = ktime_get_ns();
	if (atomic_read(&host->cfg_timeouts) >= limit)
		naa_mark_dead(host, "repeated config timeouts");
}

/* Is the whole access inside INTERRUPT_LINE/PIN? */
static bool naa_cfg_intx_only(int where, int size)
{
	return where >= PCI_INTERRUPT_LINE &&
	       where + size <= PCI_INTERRUPT_PIN + 1;
}

/* One tunnelled request; returns a PCIBIOS_* code. */
static int naa_cfg_xfer(struct naa_host *host, struct pci_bus *bus,
			unsigned int devfn, int where, int size, bool write,
			u32 *val)
{
	struct extoll_cfg_req req = {
		.bus = bus->number, .devfn = devfn, .where = where,
		.size = size, .write = write, .val = write ? *val : 0,
	};
	int ret;

	if (READ_ONCE(host->dead))
		goto fail;

	ret = extoll_tunnel_cfg(host->tunnel, &req);
	switch (ret) {
	case 0:
		naa_cfg_answered(host);
		if (!write)
			*val = req.val;
		return PCIBIOS_SUCCESSFUL;
	case -EAGAIN:	/* CRS */
		naa_cfg_answered(host);
		if (!write && where == PCI_VENDOR_ID && size >= 2) {
			*val = size == 2 ? 0x0001 : 0xffff0001;
			return PCIBIOS_SUCCESSFUL;
		}
		break;
	case -ETIMEDOUT:
		naa_cfg_timed_out(host);
		break;
	default:	/* UR, CA: the node answered */
		naa_cfg_answered(host);
		break;
	}
fail:
	if (!write)
		*val = ~0U;
	return PCIBIOS_DEVICE_NOT_FOUND;
}

static int naa_cfg_read(struct pci_bus *bus, unsigned int devfn, int where,
			int size, u32 *val)
{
	struct naa_host *host = naa_host_of(bus);
	int ret;

	if (pci_is_root_bus(bus) && devfn != 0) {
		*val = ~0U;
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	if (!host->intx.domain && naa_cfg_intx_only(where, size)) {
		*val = 0;
		return PCIBIOS_SUCCESSFUL;
	}

	ret = naa_cfg_xfer(host, bus, devfn, where, size, false, val);
	/* A dword read at 0x3c: LINE and PIN from here, the rest tunnelled. */
	if (!host->intx.domain && ret == PCIBIOS_SUCCESSFUL && where == PCI_INTERRUPT_LINE)
		*val &= ~0xffffU;
	return ret;
}

static int naa_cfg_write(struct pci_bus *bus, unsigned int devfn, int where,
			 int size, u32 val)
{
	struct naa_host *host = naa_host_of(bus);

	if (pci_is_root_bus(bus) && devfn != 0)
		return PCIBIOS_DEVICE_NOT_FOUND;
	if (!host->intx.domain && naa_cfg_intx_only(where, size))
		return PCIBIOS_SUCCESSFUL;
	/* A dword write at 0x3c: only its upper half (BRIDGE_CONTROL) goes out. */
	if (!host->intx.domain && where == PCI_INTERRUPT_LINE && size == 4) {
		where = PCI_BRIDGE_CONTROL;
		size = 2;
		val >>= 16;
	}

	return naa_cfg_xfer(host, bus, devfn, where, size, true, &val);
}

struct pci_ops naa_pci_ops = {
	.read = naa_cfg_read,
	.write = naa_cfg_write,
};
