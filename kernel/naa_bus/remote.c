// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: the remote node's own registers, reached by RRA.
 *
 * Before anything touches the PCI core the node must answer as a root-port
 * EXTOLL NIC with a backdoor; then its backdoor RX filter is pointed at our
 * completion record (docs/remote-access.md, "The config tunnel").
 */
#include <linux/bitfield.h>
#include <linux/pci_regs.h>

#include "extoll_regs.h"
#include "naa_bus.h"

/* RRA reads of the info block before giving up on the node. */
#define NAA_CHECK_TRIES		2

/* Register addresses at the node: the same RTL, so the same layout. */
#define NAA_REG_INFO_ID		(EXTOLL_INFO_BASE + EXTOLL_INFO_ID)
#define NAA_REG_BD_FILTER	(EXTOLL_BACKDOOR_BASE + EXTOLL_BACKDOOR_RX_FILTER)
#define NAA_REG_BD_FWD_ADDR	(EXTOLL_BACKDOOR_BASE + EXTOLL_BACKDOOR_RX_FWD_ADDR)

/* The tag of tunnelled config requests, extracted by the filter. */
#define NAA_CFG_TAG		0xff

static int naa_rra_read(struct naa_host *host, u32 addr, u64 *val,
			unsigned int tries)
{
	int ret;

	do {
		ret = extoll_rra_read(host->nic, host->node, addr, val);
	} while (ret == -ETIMEDOUT && --tries);
	return ret;
}

static int naa_check_info(struct naa_host *host, u64 id)
{
	u32 magic = FIELD_GET(EXTOLL_INFO_ID_MAGIC_MASK, id);
	u16 node = FIELD_GET(EXTOLL_INFO_ID_NODE_ID_MASK, id);
	u8 role = FIELD_GET(EXTOLL_INFO_ID_ROLE_MASK, id);

	if (magic != EXTOLL_INFO_ID_MAGIC_RESET) {
		dev_err(host->dev,
			"node %u: bad magic 0x%08x in its info block, expected 0x%08llx ('EXTL'): not an EXTOLL NIC\n",
			host->node, magic, EXTOLL_INFO_ID_MAGIC_RESET);
		return -ENODEV;
	}
	if (node != host->node) {
		dev_err(host->dev,
			"node %u: the NIC that answered has node id %u: routing tables and node ids disagree\n",
			host->node, node);
		return -ENODEV;
	}
	if (role != EXTOLL_ROLE_RP) {
		dev_err(host->dev,
			"node %u is %s, not a root-port NAA node: nothing to attach\n",
			host->node, role == EXTOLL_ROLE_EP ?
			"a host NIC (endpoint mode)" : "in an unknown role");
		return -ENODEV;
	}
	return 0;
}

/*
 * The node has register block @type at @base with major version @ver.
 * @what names it in messages.
 */
static int naa_check_block(struct naa_host *host, const char *what, u32 base,
			   u16 type, u16 ver)
{
	u64 hdr;
	int ret;

	ret = naa_rra_read(host, base + EXTOLL_BLK_HDR, &hdr, 1);
	if (ret) {
		dev_err(host->dev, "node %u: cannot read its %s block header: %d\n",
			host->node, what, ret);
		return ret == -ETIMEDOUT ? -EHOSTUNREACH : -EIO;
	}
	if (FIELD_GET(EXTOLL_BLK_HDR_BTYPE_MASK, hdr) != type ||
	    FIELD_GET(EXTOLL_BLK_HDR_VER_MAJOR_MASK, hdr) != ver) {
		dev_err(host->dev,
			"node %u: no %s v%u block at 0x%x (header 0x%016llx): RTL too old or different\n",
			host->node, what, ver, base, hdr);
		return -ENODEV;
	}
	return 0;
}

/**
 * naa_remote_check() - does the node exist, answer, and is it an NAA?
 * @host: the node
 *
 * Bounded by NAA_CHECK_TRIES RRA timeouts (10 ms with the default).
 *
 * Return: 0, -EHOSTUNREACH (no answer), -ENODEV (not a root-port NIC with
 * a backdoor and an smfu block), -EIO.
 */
int naa_remote_check(struct naa_host *host)
{
	u64 id;
	int ret;

	ret = naa_rra_read(host, NAA_REG_INFO_ID, &id, NAA_CHECK_TRIES);
	if (ret == -ETIMEDOUT) {
		dev_err(host->dev,
			"node %u does not answer: RRA read of its info block timed out %u times (%u us each); no such node, link down, or routing tables not programmed\n",
			host->node, NAA_CHECK_TRIES, extoll_rra_timeout_us());
		return -EHOSTUNREACH;
	}
	if (ret) {
		dev_err(host->dev, "node %u: RRA read of its info block failed: %d\n",
			host->node, ret);
		return -EIO;
	}

	ret = naa_check_info(host, id);
	if (ret)
		return ret;
	/* The backdoor reaches the node's PCI devices ... */
	ret = naa_check_block(host, "backdoor", EXTOLL_BACKDOOR_BASE,
			      EXTOLL_BLK_TYPE_BACKDOOR, EXTOLL_BACKDOOR_VER_MAJOR);
	if (ret)
		return ret;
	/* ... and the node maps our intervals and passes their requests through. */
	return naa_check_block(host, "smfu", EXTOLL_SMFU_BASE, EXTOLL_BLK_TYPE_SMFU,
			       EXTOLL_SMFU_VER_MAJOR);
}

/**
 * naa_remote_claim() - point the node's backdoor RX filter at this host
 * @host: the node, checked
 *
 * Refuses a node whose filter forwards to another host.
 *
 * Return: 0, -EBUSY, or an RRA error.
 */
int naa_remote_claim(struct naa_host *host)
{
	u64 filter, owner;
	int ret;

	ret = naa_rra_read(host, NAA_REG_BD_FILTER, &filter, 1);
	if (ret)
		goto err;
	owner = FIELD_GET(EXTOLL_BACKDOOR_RX_FILTER_FWD_NODE_MASK, filter);
	if ((filter & EXTOLL_BACKDOOR_RX_FILTER_ENABLE_MASK) &&
	    (filter & EXTOLL_BACKDOOR_RX_FILTER_FWD_MASK) &&
	    owner != host->host_node) {
		dev_err(host->dev,
			"node %u is attached to the host at node %llu (its backdoor forwards there): detach it there first\n",
			host->node, owner);
		return -EBUSY;
	}

	ret = extoll_rra_write(host->nic, host->node, NAA_REG_BD_FWD_ADDR,
			       extoll_cmp_bus_addr(host->nic));
	if (ret)
		goto err;

	filter = FIELD_PREP(EXTOLL_BACKDOOR_RX_FILTER_TAG_MASK, NAA_CFG_TAG) |
		 EXTOLL_BACKDOOR_RX_FILTER_ENABLE_MASK |
		 EXTOLL_BACKDOOR_RX_FILTER_FWD_MASK |
		 FIELD_PREP(EXTOLL_BACKDOOR_RX_FILTER_FWD_NODE_MASK, host->host_node);
	ret = extoll_rra_write(host->nic, host->node, NAA_REG_BD_FILTER, filter);
	if (ret)
		goto err;

	host->backdoor_claimed = true;
	return 0;

err:
	dev_err(host->dev, "node %u: cannot program its backdoor RX filter: %d\n",
		host->node, ret);
	return ret == -ETIMEDOUT ? -EHOSTUNREACH : -EIO;
}

/**
 * naa_remote_release() - stop the node's backdoor forwarding to us
 * @host: the node
 *
 * Best effort: a node that stopped answering is left alone.
 */
void naa_remote_release(struct naa_host *host)
{
	u64 filter = FIELD_PREP(EXTOLL_BACKDOOR_RX_FILTER_TAG_MASK, NAA_CFG_TAG);
	int ret;

	if (!host->backdoor_claimed)
		return;
	host->backdoor_claimed = false;
	if (READ_ONCE(host->unreachable))
		return;

	ret = extoll_rra_write(host->nic, host->node, NAA_REG_BD_FILTER, filter);
	if (ret)
		dev_warn(host->dev,
			 "node %u: could not disable its backdoor forwarding (%d); the next host will find it claimed\n",
			 host->node, ret);
}

/**
 * naa_remote_probe_tunnel() - one config read of the root port, 00:00.0
 * @host: the node, with its backdoor claimed
 *
 * Return: 0 if the tunnel works and a root port answers, else an error.
 */
int naa_remote_probe_tunnel(struct naa_host *host)
{
	struct extoll_cfg_req req = {
		.bus = 0, .devfn = 0, .where = PCI_VENDOR_ID, .size = 4,
	};
	int ret;

	ret = extoll_cfg_tlp(host->nic, host->node, &req);
	if (ret == -EAGAIN)	/* CRS: alive, still initialising */
		return 0;
	if (ret == -ETIMEDOUT) {
		dev_err(host->dev,
			"node %u: the config tunnel does not answer (no completion for a CfgRd0 of 00:00.0 within %u us): backdoor forwarding broken?\n",
			host->node, extoll_rra_timeout_us());
		return -EHOSTUNREACH;
	}
	if (ret) {
		dev_err(host->dev,
			"node %u: config read of the root port 00:00.0 failed: %d (completion status %u)\n",
			host->node, ret, req.cpl_status);
		return -EIO;
	}
	if ((req.val & 0xffff) == 0xffff || !(req.val & 0xffff)) {
		dev_err(host->dev,
			"node %u: the root port 00:00.0 reads vendor/device 0x%08x: no root port\n",
			host->node, req.val);
		return -ENODEV;
	}
	dev_dbg(host->dev, "node %u: root port %04x:%04x\n", host->node,
		req.val & 0xffff, req.val >> 16);
	return 0;
}
