// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: the PCI domain of one node - its window in the NIC's aperture,
 * the host bridge, the scan, and the teardown.
 *
 * Addresses: the PCI core works with host CPU addresses inside the window
 * (a child of the aperture BAR resource); the devices on the NAA side see
 * bus addresses from bus_base (pci_add_resource_offset). SMFU intervals
 * map the assigned ranges onto the node (map.c) before any driver binds,
 * so CPU loads and stores to a BAR reach the remote device; the child MSI
 * domain (msi.c) is set on the bridge before the scan.
 *
 * Teardown order (kernel-notes.md): unbind and remove the devices (their
 * vectors are freed), stop the node's pass-through, unregister the
 * notification handler, free the MSI domain and its fwnode, invalidate
 * the intervals, release the window.
 */
#include <linux/ioport.h>
#include <linux/pci.h>

#include "naa_bus.h"

/* Domains are searched downward from here; 0xffff and above confuse tools. */
#define NAA_DOMAIN_MAX		0xfffe

/* Carve the node's window out of the aperture BAR, size-aligned. */
static int naa_window_claim(struct naa_host *host)
{
	struct resource *ap = extoll_aperture(host->nic);
	resource_size_t size = host->window_size;
	int ret;

	if (!ap) {
		dev_err(host->dev, "node %u: the NIC has no assigned aperture BAR (memory BAR2)\n",
			host->node);
		return -ENODEV;
	}
	if (resource_size(ap) < size) {
		dev_err(host->dev, "node %u: the aperture %pR is smaller than the %llu MiB window\n",
			host->node, ap, (u64)size >> 20);
		return -ENOSPC;
	}

	snprintf(host->window_name, sizeof(host->window_name), "naa node %u",
		 host->node);
	host->window.name = host->window_name;
	/*
	 * MEM only: no PREFETCH (non-prefetchable BARs must fit), no MEM_64.
	 * A 64-bit prefetchable aperture (docs/nic.md) works the same: the PCI
	 * core puts 64-bit prefetchable BARs into a non-prefetchable window
	 * when no better one exists, and keeps 32-bit BARs below 4 GiB of bus
	 * address by itself (bus_base decides where the window lies).
	 */
	host->window.flags = IORESOURCE_MEM;
	ret = allocate_resource(ap, &host->window, size, ap->start, ap->end,
				size, NULL, NULL);
	if (ret) {
		dev_err(host->dev,
			"node %u: no free %llu MiB window in the aperture %pR (all taken by other nodes?)\n",
			host->node, (u64)size >> 20, ap);
		return -ENOSPC;
	}
	host->window_claimed = true;
	return 0;
}

static void naa_window_release(struct naa_host *host)
{
	if (!host->window_claimed)
		return;
	release_resource(&host->window);
	host->window_claimed = false;
}

static bool naa_domain_used(int domain)
{
	struct pci_bus *bus = NULL;

	while ((bus = pci_find_next_bus(bus)))
		if (pci_domain_nr(bus) == domain)
			return true;
	return false;
}

/* A free domain number. Call under pci_lock_rescan_remove(). */
static int naa_domain_find(void)
{
	int domain;

	for (domain = NAA_DOMAIN_MAX; domain > 0; domain--)
		if (!naa_domain_used(domain))
			return domain;
	return -ENOSPC;
}

/* Host bridge with bus numbers 0-255 and the window, not yet registered. */
static struct pci_host_bridge *naa_bridge_alloc(struct naa_host *host)
{
	struct pci_dev *nic = extoll_pci_dev(host->nic);
	struct pci_host_bridge *bridge;

	bridge = pci_alloc_host_bridge(0);
	if (!bridge)
		return NULL;

	host->busn.name = host->window_name;
	host->busn.start = 0;
	host->busn.end = 255;
	host->busn.flags = IORESOURCE_BUS;

	/* x86 needs a pci_sysdata; fwnode and vmd_dev stay NULL. */
	host->sysdata.node = dev_to_node(&nic->dev);

	bridge->dev.parent = &nic->dev;
	bridge->sysdata = &host->sysdata;
	bridge->ops = &naa_pci_ops;
	bridge->busnr = 0;
	/* Nothing of the platform's firmware applies to the remote side. */
	bridge->native_aer = 0;
	bridge->native_pcie_hotplug = 0;
	bridge->native_shpc_hotplug = 0;
	bridge->native_pme = 0;
	bridge->native_ltr = 0;
	bridge->native_dpc = 0;

	pci_add_resource(&bridge->windows, &host->busn);
	pci_add_resource_offset(&bridge->windows, &host->window,
				host->window.start - host->bus_base);
	return bridge;
}

/* Register, scan, assign, add: under the rescan lock. */
static int naa_bridge_scan(struct naa_host *host)
{
	int domain, ret;

	pci_lock_rescan_remove();
	domain = naa_domain_find();
	if (domain < 0) {
		pci_unlock_rescan_remove();
		dev_err(host->dev, "node %u: no free PCI domain number\n", host->node);
		return domain;
	}
	host->sysdata.domain = domain;
	host->domain = domain;

	ret = pci_scan_root_bus_bridge(host->bridge);
	if (ret) {
		pci_unlock_rescan_remove();
		dev_err(host->dev, "node %u: registering PCI domain %04x failed: %d\n",
			host->node, domain, ret);
		/*
		 * The core has released the bridge itself if device_add()
		 * failed; it is still ours only for a refused bus number
		 * (-EEXIST). Leak it otherwise rather than free it twice.
		 */
		if (ret != -EEXIST)
			host->bridge = NULL;
		return ret;
	}
	host->bus = host->bridge->bus;
	pci_assign_unassigned_bus_resources(host->bus);

	/* The BARs must be reachable before a driver binds. */
	ret = naa_map_create(host);
	if (ret) {
		pci_stop_root_bus(host->bus);
		pci_remove_root_bus(host->bus);
		pci_unlock_rescan_remove();
		host->bus = NULL;
		return ret;
	}

	pci_bus_add_devices(host->bus);
	pci_unlock_rescan_remove();
	return 0;
}

/**
 * naa_host_create() - the node's PCI domain
 * @host: the node, its config tunnel open
 *
 * Return: 0, or a negative errno with nothing left behind.
 */
int naa_host_create(struct naa_host *host)
{
	int ret;

	ret = naa_window_claim(host);
	if (ret)
		return ret;

	host->bridge = naa_bridge_alloc(host);
	if (!host->bridge) {
		ret = -ENOMEM;
		goto err_window;
	}

	/* Child MSI domain on the bridge, notification handler. */
	ret = naa_msi_create(host);
	if (ret)
		goto err_bridge;

	/* Only into the interrupt window and RAM (dma.c) ... */
	ret = naa_dma_grant(host);
	if (ret)
		goto err_msi;

	/* ... the devices' DMA and MSI writes come to us. */
	ret = naa_passthru_enable(host);
	if (ret)
		goto err_dma;

	ret = naa_bridge_scan(host);
	if (ret)
		goto err_passthru;
	return 0;

err_passthru:
	naa_passthru_disable(host);
err_dma:
	naa_dma_revoke(host);
err_msi:
	naa_msi_remove(host);
err_bridge:
	if (host->bridge)
		pci_free_host_bridge(host->bridge);
	host->bridge = NULL;
	host->domain = -1;
err_window:
	naa_window_release(host);
	return ret;
}

/**
 * naa_host_remove() - tear the node's PCI domain down
 * @host: the node
 *
 * Unbinds the remote devices' drivers (pci_stop_root_bus) and removes the
 * devices while config accesses still work (bounded by naa_dead_after if
 * the node is gone), then frees the bridge and the window.
 */
void naa_host_remove(struct naa_host *host)
{
	/*
	 * When the NIC itself is being removed our caller may hold the rescan
	 * lock already (sysfs remove, hot-unplug of the NIC): tear down
	 * without it then, as vmd_remove() does.
	 */
	bool lock = !host->naa->nic_removing;

	/* A dead node's domain may be gone already (alive.c). */
	if (host->bus) {
		if (lock)
			pci_lock_rescan_remove();
		pci_stop_root_bus(host->bus);
		pci_remove_root_bus(host->bus);
		if (lock)
			pci_unlock_rescan_remove();
	}
	pci_free_host_bridge(host->bridge);
	host->bridge = NULL;
	host->bus = NULL;

	/* Drivers gone, vectors freed: nothing of the node's may reach us. */
	naa_passthru_disable(host);
	naa_dma_revoke(host);
	/* Waits for a dispatch in progress; then the domain can go. */
	naa_msi_remove(host);
	naa_map_remove(host);

	/* No more config accesses can come: make any stray one fail fast. */
	WRITE_ONCE(host->dead, true);
	naa_window_release(host);
}
