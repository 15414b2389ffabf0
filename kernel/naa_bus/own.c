// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: the node's holder (the NAA NIC's own block, docs/security.md).
 *
 * Attaching claims the node first: a write of "claim" to own.claim, which the
 * NAA's NIC applies in hardware for the node the write came from (this host),
 * then a read of own.owner says who holds it. Of two hosts racing for a free
 * node exactly one wins; the other gets -EBUSY and a message naming the
 * holder. Detaching releases it, unless the node stopped answering.
 *
 * Handover: once held, and before the PCI core sees the hierarchy, the
 * accelerator is reset by a Secondary Bus Reset of the node's root port, so
 * no state a previous holder left (registers, a job, a DMA set up; a crashed
 * holder never detached) reaches this one.
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/pci_regs.h>

#include "naa_bus.h"
#include "extoll_regs.h"

static int naa_own_op(struct naa_host *host, u64 op)
{
	return extoll_rra_write(host->nic, host->node,
				EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM, op);
}

/**
 * naa_own_claim() - make this host the node's holder
 * @host: the node being attached
 *
 * Return: 0 (held by this host now, or the node's NIC has no own block:
 * then a warning and no ownership), -EBUSY (another node holds it), or the
 * remote access error.
 */
int naa_own_claim(struct naa_host *host)
{
	u64 owner;
	int ret;

	ret = naa_own_op(host, EXTOLL_OWN_CLAIM_OP_CLAIM);
	if (ret == -EREMOTEIO) {
		dev_warn(host->dev, "node %u has no ownership block: attached without a claim\n",
			 host->node);
		return 0;
	}
	if (ret)
		return ret;
	ret = extoll_rra_read(host->nic, host->node,
			      EXTOLL_OWN_BASE + EXTOLL_OWN_OWNER, &owner);
	if (ret)
		return ret;
	if (!(owner & EXTOLL_OWN_OWNER_HELD_MASK) ||
	    ((owner & EXTOLL_OWN_OWNER_NODE_MASK) >> EXTOLL_OWN_OWNER_NODE_SHIFT) != host->host_node) {
		dev_err(host->dev, "node %u is held by node %llu\n", host->node,
			(owner & EXTOLL_OWN_OWNER_NODE_MASK) >> EXTOLL_OWN_OWNER_NODE_SHIFT);
		return -EBUSY;
	}
	host->claimed = true;
	return 0;
}

/* 00:00.0 Bridge Control through the tunnel; a failed write: its errno. */
static int naa_brctl(struct naa_host *host, bool write, u16 *val)
{
	struct extoll_cfg_req req = {
		.bus = 0, .devfn = 0, .where = PCI_BRIDGE_CONTROL, .size = 2,
		.write = write, .val = write ? *val : 0,
	};
	int ret = extoll_tunnel_cfg(host->tunnel, &req);

	if (!ret && !write)
		*val = req.val;
	return ret;
}

/**
 * naa_handover_reset() - Secondary Bus Reset below the node's root port
 * @host: the node, held by this host, its tunnel open, no PCI domain yet
 *
 * Sets Bridge Control's Secondary Bus Reset for 2 ms (Trst >= 1 ms, as the
 * PCI core's pci_reset_secondary_bus()) and clears it, then waits 100 ms
 * before the first request to the device (PCIe Base Spec. 6.6.1; a device
 * still initialising answers CRS, which the scan waits out).
 *
 * Return: 0, or the tunnel's error (the attach fails: a hierarchy that might
 * carry another holder's state is not handed over).
 */
int naa_handover_reset(struct naa_host *host)
{
	u16 ctl;
	int ret;

	ret = naa_brctl(host, false, &ctl);
	if (ret)
		goto err;
	ctl |= PCI_BRIDGE_CTL_BUS_RESET;
	ret = naa_brctl(host, true, &ctl);
	if (ret)
		goto err;
	usleep_range(2000, 3000);
	ctl &= ~PCI_BRIDGE_CTL_BUS_RESET;
	ret = naa_brctl(host, true, &ctl);
	if (ret)
		goto err;
	msleep(100);
	return 0;
err:
	dev_err(host->dev, "node %u: secondary bus reset failed (%d)\n", host->node, ret);
	return ret;
}

/**
 * naa_own_release() - give the node back (detach, or a failed attach)
 * @host: the node
 */
void naa_own_release(struct naa_host *host)
{
	int ret;

	if (!host->claimed || READ_ONCE(host->unreachable))
		return;
	ret = naa_own_op(host, EXTOLL_OWN_CLAIM_OP_RELEASE);
	if (ret)
		dev_warn(host->dev, "node %u: release failed (%d), it stays held until forced free\n",
			 host->node, ret);
	host->claimed = false;
}
