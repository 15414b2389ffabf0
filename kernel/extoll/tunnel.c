// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: the config tunnel to one root-port node, end to end
 * (docs/remote-access.md, "The config tunnel").
 *
 * A request leaves as one RRA request with op TLP and tag EXTOLL_CFG_TAG
 * (tlp.c); the node injects it at its PCIe side, and its backdoor RX filter
 * sends the completion with that tag back into our completion record.
 * Opening the tunnel checks the node (node.c), claims that filter for this
 * host and reads the root port's ID through it; closing releases the
 * filter. The tag and the filter's layout stay in this driver: the
 * tunnel's user (naa_bus) only holds the handle.
 */
#include <linux/bitfield.h>
#include <linux/err.h>
#include <linux/pci_regs.h>
#include <linux/slab.h>

#include "extoll.h"

/* The filter value that forwards our tag to this host. */
static u64 extoll_tunnel_filter(struct extoll_tunnel *tun)
{
	return FIELD_PREP(EXTOLL_BACKDOOR_RX_FILTER_TAG_MASK, EXTOLL_CFG_TAG) |
	       EXTOLL_BACKDOOR_RX_FILTER_ENABLE_MASK |
	       EXTOLL_BACKDOOR_RX_FILTER_FWD_MASK |
	       FIELD_PREP(EXTOLL_BACKDOOR_RX_FILTER_FWD_NODE_MASK,
			  tun->nic->info.node_id);
}

/*
 * Does this host hold the node (own.owner, docs/security.md)? The node's NIC
 * decides between hosts; a node without the own block: no.
 */
static bool extoll_tunnel_held_here(struct extoll_tunnel *tun)
{
	u64 owner;

	if (extoll_rra_read(tun->nic, tun->node, EXTOLL_OWN_BASE + EXTOLL_OWN_OWNER,
			    &owner))
		return false;
	return (owner & EXTOLL_OWN_OWNER_HELD_MASK) &&
	       FIELD_GET(EXTOLL_OWN_OWNER_NODE_MASK, owner) == tun->nic->info.node_id;
}

/*
 * Refuse a node whose filter forwards to another host, unless the node's
 * holder is this host: then that host's claim has ended without a detach (it
 * died, and the node was freed by a forced release or its lease ran out) and
 * the filter it left is stale.
 */
static int extoll_tunnel_check_owner(struct extoll_tunnel *tun, u64 filter)
{
	u16 owner = FIELD_GET(EXTOLL_BACKDOOR_RX_FILTER_FWD_NODE_MASK, filter);

	if (!(filter & EXTOLL_BACKDOOR_RX_FILTER_ENABLE_MASK) ||
	    !(filter & EXTOLL_BACKDOOR_RX_FILTER_FWD_MASK) ||
	    owner == tun->nic->info.node_id)
		return 0;
	if (extoll_tunnel_held_here(tun)) {
		dev_warn(&tun->nic->pdev->dev,
			 "node %u: its backdoor still forwarded to node %u, which no longer holds it (this host does): taken over\n",
			 tun->node, owner);
		return 0;
	}
	dev_err(&tun->nic->pdev->dev,
		"node %u is attached to the host at node %u (its backdoor forwards there): detach it there first\n",
		tun->node, owner);
	return -EBUSY;
}

/* Point the node's backdoor RX filter at our completion record. */
static int extoll_tunnel_claim(struct extoll_tunnel *tun)
{
	struct extoll_dev *nic = tun->nic;
	u64 filter;
	int ret;

	ret = extoll_rra_read(nic, tun->node, EXTOLL_NODE_BD_RX_FILTER, &filter);
	if (ret)
		goto err;
	ret = extoll_tunnel_check_owner(tun, filter);
	if (ret)
		return ret;

	ret = extoll_rra_write(nic, tun->node, EXTOLL_NODE_BD_RX_FWD_ADDR,
			       nic->cmp_dma);
	if (ret)
		goto err;
	ret = extoll_rra_write(nic, tun->node, EXTOLL_NODE_BD_RX_FILTER,
			       extoll_tunnel_filter(tun));
	if (ret)
		goto err;
	return 0;

err:
	dev_err(&nic->pdev->dev, "node %u: cannot program its backdoor RX filter: %d\n",
		tun->node, ret);
	return ret == -ETIMEDOUT ? -EHOSTUNREACH : -EIO;
}

/* Stop the node's backdoor forwarding to us; best effort. */
static void extoll_tunnel_release(struct extoll_tunnel *tun)
{
	u64 filter = FIELD_PREP(EXTOLL_BACKDOOR_RX_FILTER_TAG_MASK, EXTOLL_CFG_TAG);
	int ret;

	ret = extoll_rra_write(tun->nic, tun->node, EXTOLL_NODE_BD_RX_FILTER,
			       filter);
	if (ret)
		dev_warn(&tun->nic->pdev->dev,
			 "node %u: could not disable its backdoor forwarding (%d); the next host will find it claimed\n",
			 tun->node, ret);
}

/* One config read of the root port, 00:00.0: the tunnel works end to end. */
static int extoll_tunnel_verify(struct extoll_tunnel *tun)
{
	struct device *dev = &tun->nic->pdev->dev;
	struct extoll_cfg_req req = {
		.bus = 0, .devfn = 0, .where = PCI_VENDOR_ID, .size = 4,
	};
	int ret;

	ret = extoll_tunnel_cfg(tun, &req);
	if (ret == -EAGAIN)	/* CRS: alive, still initialising */
		return 0;
	if (ret == -ETIMEDOUT) {
		dev_err(dev,
			"node %u: the config tunnel does not answer (no completion for a CfgRd0 of 00:00.0 within %u us): backdoor forwarding broken?\n",
			tun->node, extoll_rra_timeout_us());
		return -EHOSTUNREACH;
	}
	if (ret) {
		dev_err(dev,
			"node %u: config read of the root port 00:00.0 failed: %d (completion status %u)\n",
			tun->node, ret, req.cpl_status);
		return -EIO;
	}
	if ((req.val & 0xffff) == 0xffff || !(req.val & 0xffff)) {
		dev_err(dev,
			"node %u: the root port 00:00.0 reads vendor/device 0x%08x: no root port\n",
			tun->node, req.val);
		return -ENODEV;
	}
	dev_dbg(dev, "node %u: root port %04x:%04x\n", tun->node,
		req.val & 0xffff, req.val >> 16);
	return 0;
}

/**
 * extoll_tunnel_open() - open the config tunnel to a root-port node
 * @nic: the local NIC
 * @node: the node
 *
 * Checks the node (an EXTOLL NIC in root-port mode with a backdoor and an
 * smfu block), claims its backdoor RX filter for this host and reads the
 * root port's vendor/device ID through the tunnel. Bounded by a few RRA
 * timeouts for a node that does not answer.
 *
 * Context: process (allocates); the checks never sleep.
 * Return: the tunnel, or ERR_PTR(-EHOSTUNREACH) (no answer), -ENODEV (not
 * an NAA node, no root port), -EBUSY (claimed by another host), -EIO,
 * -ENOMEM. Nothing is left claimed on error.
 */
struct extoll_tunnel *extoll_tunnel_open(struct extoll_dev *nic, u16 node)
{
	struct extoll_tunnel *tun;
	int ret;

	tun = kzalloc(sizeof(*tun), GFP_KERNEL);
	if (!tun)
		return ERR_PTR(-ENOMEM);
	tun->nic = nic;
	tun->node = node;

	ret = extoll_node_check(nic, node);
	if (ret)
		goto err_free;
	ret = extoll_tunnel_claim(tun);
	if (ret)
		goto err_free;
	ret = extoll_tunnel_verify(tun);
	if (ret)
		goto err_release;
	return tun;

err_release:
	extoll_tunnel_release(tun);
err_free:
	kfree(tun);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(extoll_tunnel_open);

/**
 * extoll_tunnel_close() - release the node's backdoor and free the tunnel
 * @tun: the tunnel, or NULL
 * @node_gone: the caller knows the node stopped answering: leave it alone
 *
 * No request may be in flight or follow.
 *
 * Context: process.
 */
void extoll_tunnel_close(struct extoll_tunnel *tun, bool node_gone)
{
	if (!tun)
		return;
	if (!node_gone && !READ_ONCE(tun->nic->gone))
		extoll_tunnel_release(tun);
	kfree(tun);
}
EXPORT_SYMBOL_GPL(extoll_tunnel_close);

/**
 * extoll_tunnel_cfg() - one configuration request through the tunnel
 * @tun: the tunnel
 * @req: the request; val and cpl_status are filled in
 *
 * Context: any, never sleeps (bounded by extoll.rra_timeout_us).
 * Return: as extoll_cfg_tlp().
 */
int extoll_tunnel_cfg(struct extoll_tunnel *tun, struct extoll_cfg_req *req)
{
	return extoll_cfg_tlp(tun->nic, tun->node, req);
}
EXPORT_SYMBOL_GPL(extoll_tunnel_cfg);
