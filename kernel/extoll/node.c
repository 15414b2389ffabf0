// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: a remote node's own registers, reached by RRA.
 *
 * Before the driver opens a config tunnel to a node (tunnel.c) or maps
 * intervals onto it (smfu.c), the node must answer as a root-port EXTOLL
 * NIC with the blocks those use. Where the blocks are is defined once, in
 * extoll.h (EXTOLL_NODE_*): every node runs the same RTL, so the fixed
 * bases of the generated map hold there.
 */
#include <linux/bitfield.h>

#include "extoll.h"

/* RRA reads of the info block before giving up on the node. */
#define EXTOLL_NODE_CHECK_TRIES	2

/* A register block a node must have, and at which major version. */
struct extoll_node_block {
	const char *name;
	u32 base;
	u16 type;
	u8 ver_major;
};

static const struct extoll_node_block extoll_naa_blocks[] = {
	/* The backdoor reaches the node's PCI devices (the config tunnel) ... */
	{ "backdoor", EXTOLL_BACKDOOR_BASE, EXTOLL_BLK_TYPE_BACKDOOR,
	  EXTOLL_BACKDOOR_VER_MAJOR },
	/* ... and the smfu maps our intervals and passes their requests through. */
	{ "smfu", EXTOLL_SMFU_BASE, EXTOLL_BLK_TYPE_SMFU, EXTOLL_SMFU_VER_MAJOR },
};

static int extoll_node_read(struct extoll_dev *edev, u16 node, u32 addr,
			    u64 *val, unsigned int tries)
{
	int ret;

	do {
		ret = extoll_rra_read(edev, node, addr, val);
	} while (ret == -ETIMEDOUT && --tries);
	return ret;
}

static int extoll_node_check_id(struct extoll_dev *edev, u16 node, u64 id)
{
	struct device *dev = &edev->pdev->dev;
	u32 magic = FIELD_GET(EXTOLL_INFO_ID_MAGIC_MASK, id);
	u16 answered = FIELD_GET(EXTOLL_INFO_ID_NODE_ID_MASK, id);
	u8 role = FIELD_GET(EXTOLL_INFO_ID_ROLE_MASK, id);

	if (magic != EXTOLL_INFO_ID_MAGIC_RESET) {
		dev_err(dev,
			"node %u: bad magic 0x%08x in its info block, expected 0x%08llx ('EXTL'): not an EXTOLL NIC\n",
			node, magic, EXTOLL_INFO_ID_MAGIC_RESET);
		return -ENODEV;
	}
	if (answered != node) {
		dev_err(dev,
			"node %u: the NIC that answered has node id %u: routing tables and node ids disagree\n",
			node, answered);
		return -ENODEV;
	}
	if (role != EXTOLL_ROLE_RP) {
		dev_err(dev,
			"node %u is %s, not a root-port NAA node: nothing to attach\n",
			node, role == EXTOLL_ROLE_EP ?
			"a host NIC (endpoint mode)" : "in an unknown role");
		return -ENODEV;
	}
	return 0;
}

static int extoll_node_check_block(struct extoll_dev *edev, u16 node,
				   const struct extoll_node_block *blk)
{
	struct device *dev = &edev->pdev->dev;
	u64 hdr;
	int ret;

	ret = extoll_node_read(edev, node, blk->base + EXTOLL_BLK_HDR, &hdr, 1);
	if (ret) {
		dev_err(dev, "node %u: cannot read its %s block header: %d\n",
			node, blk->name, ret);
		return ret == -ETIMEDOUT ? -EHOSTUNREACH : -EIO;
	}
	if (FIELD_GET(EXTOLL_BLK_HDR_BTYPE_MASK, hdr) != blk->type ||
	    FIELD_GET(EXTOLL_BLK_HDR_VER_MAJOR_MASK, hdr) != blk->ver_major) {
		dev_err(dev,
			"node %u: no %s v%u block at 0x%x (header 0x%016llx): RTL too old or different\n",
			node, blk->name, blk->ver_major, blk->base, hdr);
		return -ENODEV;
	}
	return 0;
}

/**
 * extoll_node_check() - does the node exist, answer, and is it an NAA?
 * @edev: the local NIC
 * @node: the node
 *
 * Bounded by EXTOLL_NODE_CHECK_TRIES RRA timeouts for a node that does not
 * answer at all.
 *
 * Context: any, never sleeps.
 * Return: 0, -EHOSTUNREACH (no answer), -ENODEV (not a root-port NIC with
 * a backdoor and an smfu block), -EIO.
 */
int extoll_node_check(struct extoll_dev *edev, u16 node)
{
	struct device *dev = &edev->pdev->dev;
	unsigned int i;
	u64 id;
	int ret;

	ret = extoll_node_read(edev, node, EXTOLL_NODE_INFO_ID, &id,
			       EXTOLL_NODE_CHECK_TRIES);
	if (ret == -ETIMEDOUT) {
		dev_err(dev,
			"node %u does not answer: RRA read of its info block timed out %u times (%u us each); no such node, link down, or routing tables not programmed\n",
			node, EXTOLL_NODE_CHECK_TRIES, extoll_rra_timeout_us());
		return -EHOSTUNREACH;
	}
	if (ret) {
		dev_err(dev, "node %u: RRA read of its info block failed: %d\n",
			node, ret);
		return -EIO;
	}

	ret = extoll_node_check_id(edev, node, id);
	for (i = 0; !ret && i < ARRAY_SIZE(extoll_naa_blocks); i++)
		ret = extoll_node_check_block(edev, node, &extoll_naa_blocks[i]);
	return ret;
}
