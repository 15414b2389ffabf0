// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: the node's holder (the NAA NIC's own block, docs/security.md).
 *
 * Attaching claims the node first: a write of "claim" to own.claim, which the
 * NAA's NIC applies in hardware for the node the write came from (this host),
 * then a read of own.owner says who holds it. Of two hosts racing for a free
 * node exactly one wins; the other gets -EBUSY and a message naming the
 * holder. Detaching releases it, unless the node stopped answering.
 */
#include <linux/device.h>

#include "naa_bus.h"
#include "extoll_regs.h"

#define NAA_OWN_CLAIM	1
#define NAA_OWN_RELEASE	2

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

	ret = naa_own_op(host, NAA_OWN_CLAIM);
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

/**
 * naa_own_release() - give the node back (detach, or a failed attach)
 * @host: the node
 */
void naa_own_release(struct naa_host *host)
{
	int ret;

	if (!host->claimed || READ_ONCE(host->unreachable))
		return;
	ret = naa_own_op(host, NAA_OWN_RELEASE);
	if (ret)
		dev_warn(host->dev, "node %u: release failed (%d), it stays held until forced free\n",
			 host->node, ret);
	host->claimed = false;
}
