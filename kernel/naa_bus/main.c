// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: auxiliary driver for extoll.naa.<id>, module parameters.
 *
 * probe: open extoll's config tunnel to the node (extoll checks that it is
 * a root-port NAA node, claims its backdoor and reads the root port through
 * the tunnel), then create the PCI domain and report it to extoll
 * (extoll_naa_set_domain: the attach command returns it, sysfs links it).
 * Any failure leaves nothing behind and is reported to extoll's attach
 * command through extoll_naa_set_state().
 * remove: tear the domain down (unbinding the remote devices' drivers),
 * close the tunnel (extoll releases the backdoor).
 * While attached, alive.c probes the node and surprise-removes the domain of
 * a node that stopped answering.
 */
#include <linux/auxiliary_bus.h>
#include <linux/err.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "naa_bus.h"

unsigned int naa_window_mb = 64;
module_param_named(window_mb, naa_window_mb, uint, 0644);
MODULE_PARM_DESC(window_mb,
		 "Size in MiB of each node's window in the NIC's aperture BAR (power of two, at most the aperture; default 64)");

unsigned long naa_bus_base = 0x80000000UL;
module_param_named(bus_base, naa_bus_base, ulong, 0644);
MODULE_PARM_DESC(bus_base,
		 "Bus address of the window on the NAA side, aligned to window_mb; above 4 GiB for windows of GiBs (default 0x80000000)");

unsigned int naa_dead_after = 4;
module_param_named(dead_after, naa_dead_after, uint, 0644);
MODULE_PARM_DESC(dead_after,
		 "Consecutive config timeouts after which a node is marked dead (default 4, 0 is taken as 1)");

unsigned int naa_probe_ms = 200;
module_param_named(probe_ms, naa_probe_ms, uint, 0644);
MODULE_PARM_DESC(probe_ms,
		 "Interval in ms of the liveness probe of every attached node; 2 unanswered probes in a row surprise-remove its domain (default 200, 0: no probes)");

/* Read once per probe: a node keeps the values it was attached with. */
static int naa_params_check(struct naa_host *host)
{
	u64 size = (u64)READ_ONCE(naa_window_mb) * SZ_1M;

	host->bus_base = READ_ONCE(naa_bus_base);
	/*
	 * The upper bound is the aperture BAR (naa_window_claim): 256 MiB with
	 * the NIC's default 32-bit aperture, GiBs with its 64-bit prefetchable
	 * one, so a device BAR of GiBs can be mapped (docs/nic.md).
	 */
	if (!size || !is_power_of_2(size)) {
		dev_err(host->dev, "window_mb=%u: must be a power of two\n",
			naa_window_mb);
		return -EINVAL;
	}
	if (!IS_ALIGNED(host->bus_base, size)) {
		dev_err(host->dev, "bus_base=%#llx is not aligned to the %llu MiB window\n",
			host->bus_base, size / SZ_1M);
		return -EINVAL;
	}
	host->window_size = size;
	return 0;
}

/*
 * The remote devices' DMA reaches the host with the NIC's requester ID and
 * untranslated (dma-direct) addresses. A translating IOMMU domain on the
 * NIC would fault every such access: require passthrough.
 */
static int naa_iommu_check(struct naa_host *host)
{
	struct pci_dev *pdev = extoll_pci_dev(host->nic);
	struct iommu_domain *dom = iommu_get_domain_for_dev(&pdev->dev);

	if (dom && dom->type != IOMMU_DOMAIN_IDENTITY) {
		dev_err(host->dev,
			"node %u: the NIC %s is behind a translating IOMMU domain; remote devices need passthrough (boot with iommu=pt)\n",
			host->node, pci_name(pdev));
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Release the node's backdoor, unless it stopped answering. */
static void naa_tunnel_close(struct naa_host *host)
{
	extoll_tunnel_close(host->tunnel, READ_ONCE(host->unreachable));
	host->tunnel = NULL;
}

static int naa_bus_probe(struct auxiliary_device *adev,
			 const struct auxiliary_device_id *id)
{
	struct extoll_naa_dev *naa = to_extoll_naa(adev);
	struct naa_host *host;
	int ret;

	extoll_naa_set_state(naa, EXTOLL_NAA_PROBING, 0);

	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host) {
		ret = -ENOMEM;
		goto err_state;
	}
	host->naa = naa;
	host->nic = naa->nic;
	host->dev = &adev->dev;
	host->node = naa->node;
	host->host_node = extoll_node_id(naa->nic);
	host->domain = -1;
	atomic_set(&host->cfg_timeouts, 0);
	naa_alive_init(host);

	ret = naa_params_check(host);
	if (ret)
		goto err_free;
	ret = naa_iommu_check(host);
	if (ret)
		goto err_free;

	/* Ours alone: the node's NIC decides between racing hosts. */
	ret = naa_own_claim(host);
	if (ret)
		goto err_free;

	/* Nothing touches the PCI core before the node has answered. */
	host->tunnel = extoll_tunnel_open(host->nic, host->node);
	if (IS_ERR(host->tunnel)) {
		ret = PTR_ERR(host->tunnel);
		goto err_release;
	}

	ret = naa_handover_reset(host);
	if (ret)
		goto err_close;

	ret = naa_host_create(host);
	if (ret)
		goto err_close;

	auxiliary_set_drvdata(adev, host);
	extoll_naa_set_domain(naa, host->bus);
	extoll_naa_set_state(naa, EXTOLL_NAA_ATTACHED, 0);
	naa_alive_start(host);
	dev_info(host->dev,
		 "node %u attached as PCI domain %04x: window %pR, bus addresses %#llx-%#llx\n",
		 host->node, host->domain, &host->window, host->bus_base,
		 host->bus_base + resource_size(&host->window) - 1);
	return 0;

err_close:
	naa_tunnel_close(host);
err_release:
	naa_own_release(host);
err_free:
	naa_alive_stop(host);
	kfree(host);
err_state:
	extoll_naa_set_state(naa, EXTOLL_NAA_FAILED, ret);
	return ret;
}

static void naa_bus_remove(struct auxiliary_device *adev)
{
	struct naa_host *host = auxiliary_get_drvdata(adev);
	int domain = host->domain;

	naa_alive_stop(host);
	extoll_naa_set_state(host->naa, EXTOLL_NAA_DETACHING, 0);
	extoll_naa_set_domain(host->naa, NULL);
	naa_host_remove(host);
	naa_tunnel_close(host);
	naa_own_release(host);
	extoll_naa_set_state(host->naa, EXTOLL_NAA_WAITING, 0);
	dev_info(host->dev, "node %u detached, PCI domain %04x removed\n",
		 host->node, domain);
	auxiliary_set_drvdata(adev, NULL);
	kfree(host);
}

static const struct auxiliary_device_id naa_bus_id_table[] = {
	{ .name = EXTOLL_NAA_AUXDEV_MATCH },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, naa_bus_id_table);

static struct auxiliary_driver naa_bus_driver = {
	.probe = naa_bus_probe,
	.remove = naa_bus_remove,
	.id_table = naa_bus_id_table,
};
module_auxiliary_driver(naa_bus_driver);

MODULE_DESCRIPTION("Remote PCI domains of network-attached accelerators behind an EXTOLL NIC");
MODULE_LICENSE("GPL");
