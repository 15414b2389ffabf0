// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: SMFU intervals and pass-through for one node (docs/smfu.md).
 *
 * After the PCI core has assigned the node's resources inside the window
 * (and before any driver binds), every top-level range it assigned - the
 * root port's memory and prefetchable windows, and BARs on bus 0 - gets an
 * SMFU interval: host side the range's CPU addresses in the aperture, node
 * side its bus address (pci_add_resource_offset makes the two differ by
 * window.start - bus_base). If the NIC has fewer free intervals than
 * ranges, one interval spans them all. Accesses between the ranges then
 * reach the node's root port, which answers them as unsupported.
 *
 * Pass-through at the node, with up_node = our node id, brings the
 * devices' DMA and MSI writes back to this host.
 */
#include <linux/ioport.h>
#include <linux/pci.h>

#include "naa_bus.h"

static int naa_map_one(struct naa_host *host, resource_size_t start,
		       resource_size_t end)
{
	struct resource res = {
		.start = start, .end = end, .flags = IORESOURCE_MEM,
	};
	struct pci_bus_region region;
	int id;

	if (host->nr_maps == NAA_MAX_MAPS)
		return -ENOSPC;
	pcibios_resource_to_bus(host->bus, &region, &res);
	id = extoll_smfu_map(host->nic, host->node, start, end - start + 1,
			     region.start);
	if (id < 0)
		return id;
	host->map_id[host->nr_maps++] = id;
	dev_info(host->dev, "node %u: SMFU interval %d: %pR -> bus %#llx-%#llx\n",
		 host->node, id, &res, (u64)region.start, (u64)region.end);
	return 0;
}

/**
 * naa_map_remove() - invalidate the node's intervals
 * @host: the node
 */
void naa_map_remove(struct naa_host *host)
{
	while (host->nr_maps)
		extoll_smfu_unmap(host->nic, host->map_id[--host->nr_maps]);
}

/**
 * naa_map_create() - map what the PCI core assigned in the window
 * @host: the node, scanned and assigned, under pci_lock_rescan_remove()
 *
 * Return: 0 (also when nothing was assigned), or a negative errno with no
 * interval left.
 */
int naa_map_create(struct naa_host *host)
{
	struct resource *r, *last;
	unsigned int n = 0;
	int ret = 0;

	for (r = host->window.child; r; r = r->sibling) {
		ret = naa_map_one(host, r->start, r->end);
		if (ret)
			break;
		n++;
	}
	if (!n && !ret) {
		dev_warn(host->dev,
			 "node %u: nothing assigned in the window %pR: no device memory to map\n",
			 host->node, &host->window);
		return 0;
	}
	if (ret == -ENOSPC) {
		/* Too few intervals: one spanning every range instead. */
		naa_map_remove(host);
		for (last = host->window.child; last->sibling; last = last->sibling)
			;
		ret = naa_map_one(host, host->window.child->start, last->end);
	}
	if (ret) {
		naa_map_remove(host);
		dev_err(host->dev,
			"node %u: cannot map its device memory through the SMFU: %d%s\n",
			host->node, ret, ret == -EOPNOTSUPP ?
			" (the NIC has no smfu block)" : "");
	}
	return ret;
}

/**
 * naa_passthru_enable() - the node's upstream requests come to this host
 * @host: the node
 *
 * Return: 0, or a negative errno.
 */
int naa_passthru_enable(struct naa_host *host)
{
	int ret;

	ret = extoll_smfu_passthru(host->nic, host->node, true);
	if (ret) {
		dev_err(host->dev,
			"node %u: cannot enable its SMFU pass-through to node %u: %d\n",
			host->node, host->host_node, ret);
		return ret == -ETIMEDOUT ? -EHOSTUNREACH : -EIO;
	}
	host->passthru = true;
	return 0;
}

/**
 * naa_passthru_disable() - stop the node's pass-through
 * @host: the node, its drivers unbound
 *
 * Best effort: a node that stopped answering is left alone.
 */
void naa_passthru_disable(struct naa_host *host)
{
	int ret;

	if (!host->passthru)
		return;
	host->passthru = false;
	if (READ_ONCE(host->unreachable))
		return;
	ret = extoll_smfu_passthru(host->nic, host->node, false);
	if (ret)
		dev_warn(host->dev,
			 "node %u: could not disable its SMFU pass-through (%d)\n",
			 host->node, ret);
}
