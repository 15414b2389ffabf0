// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: SMFU egress intervals and pass-through (docs/smfu.md).
 *
 * A memory request that hits the aperture BAR inside the valid egress
 * interval i (eg_start[i] <= address <= eg_end[i]) leaves as a packet to
 * eg_ctrl[i].node carrying i and the offset from eg_start[i]; the node
 * adds its in_base[i] and sends the TLP down its root port. The 16
 * intervals are allocated per NIC; the node's in_base of the same index
 * is written by RRA. Pass-through (smfu.ctrl at the node) sends its
 * devices' upstream memory requests to this host.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/pci.h>

#include "extoll.h"

static u32 extoll_smfu_reg(struct extoll_dev *edev, u32 reg, unsigned int i)
{
	return edev->smfu_off + reg + i * sizeof(u64);
}

void extoll_smfu_init(struct extoll_dev *edev)
{
	unsigned int i;

	mutex_init(&edev->smfu_lock);
	edev->smfu_used = 0;
	if (edev->smfu_off == EXTOLL_NO_BLOCK) {
		dev_info(&edev->pdev->dev,
			 "no smfu register block: remote devices' BARs cannot be mapped\n");
		return;
	}
	/* Nothing maps until a node is attached. */
	for (i = 0; i < EXTOLL_SMFU_INTERVALS; i++)
		extoll_wr(edev, extoll_smfu_reg(edev, EXTOLL_SMFU_EG_CTRL, i), 0);
}

void extoll_smfu_teardown(struct extoll_dev *edev)
{
	unsigned int i;

	if (edev->smfu_off == EXTOLL_NO_BLOCK || READ_ONCE(edev->gone))
		return;
	WARN_ON(edev->smfu_used);
	for (i = 0; i < EXTOLL_SMFU_INTERVALS; i++)
		extoll_wr(edev, extoll_smfu_reg(edev, EXTOLL_SMFU_EG_CTRL, i), 0);
}

/**
 * extoll_smfu_map() - map a range of the aperture onto a node's PCIe side
 * @nic: the NIC
 * @node: the node
 * @host_start: first host CPU address, inside the aperture BAR
 * @len: bytes
 * @naa_bus_addr: the node's bus address that @host_start maps to
 *
 * Return: the interval id, or a negative errno (see linux-extoll.h).
 */
int extoll_smfu_map(struct extoll_dev *nic, u16 node, phys_addr_t host_start,
		    resource_size_t len, u64 naa_bus_addr)
{
	struct device *dev = &nic->pdev->dev;
	struct resource *ap = extoll_aperture(nic);
	struct pci_bus_region region;
	struct resource res = {
		.start = host_start,
		.end = host_start + len - 1,
		.flags = IORESOURCE_MEM,
	};
	unsigned int id;
	int ret;

	if (nic->smfu_off == EXTOLL_NO_BLOCK)
		return -EOPNOTSUPP;
	if (!ap || !len || res.end < res.start || !resource_contains(ap, &res)) {
		dev_err(dev, "SMFU map to node %u: %pR is not inside the aperture %pR\n",
			node, &res, ap);
		return -EINVAL;
	}
	/* The interval compares host bus addresses. */
	pcibios_resource_to_bus(nic->pdev->bus, &region, &res);

	mutex_lock(&nic->smfu_lock);
	id = find_first_zero_bit(&nic->smfu_used, EXTOLL_SMFU_INTERVALS);
	if (id >= EXTOLL_SMFU_INTERVALS) {
		mutex_unlock(&nic->smfu_lock);
		dev_err(dev, "SMFU map to node %u: all %u intervals in use\n",
			node, EXTOLL_SMFU_INTERVALS);
		return -ENOSPC;
	}

	/* The node's side first, so the first packet finds its base. */
	ret = extoll_rra_write(nic, node, EXTOLL_NODE_SMFU_IN_BASE(id),
			       naa_bus_addr);
	if (ret) {
		mutex_unlock(&nic->smfu_lock);
		dev_err(dev, "SMFU map to node %u: cannot write its in_base[%u]: %d\n",
			node, id, ret);
		return ret;
	}

	extoll_wr(nic, extoll_smfu_reg(nic, EXTOLL_SMFU_EG_CTRL, id), 0);
	extoll_wr(nic, extoll_smfu_reg(nic, EXTOLL_SMFU_EG_START, id),
		  region.start);
	extoll_wr(nic, extoll_smfu_reg(nic, EXTOLL_SMFU_EG_END, id), region.end);
	extoll_wr(nic, extoll_smfu_reg(nic, EXTOLL_SMFU_EG_CTRL, id),
		  EXTOLL_SMFU_EG_CTRL_VALID_MASK |
		  FIELD_PREP(EXTOLL_SMFU_EG_CTRL_NODE_MASK, node));
	/* Flush: the interval is live when we return. */
	extoll_rd(nic, extoll_smfu_reg(nic, EXTOLL_SMFU_EG_CTRL, id));

	__set_bit(id, &nic->smfu_used);
	nic->smfu_node[id] = node;
	mutex_unlock(&nic->smfu_lock);

	dev_dbg(dev, "SMFU interval %u: %pR (bus %#llx-%#llx) -> node %u at %#llx\n",
		id, &res, (u64)region.start, (u64)region.end, node, naa_bus_addr);
	return id;
}
EXPORT_SYMBOL_GPL(extoll_smfu_map);

/**
 * extoll_smfu_unmap() - invalidate an interval
 * @nic: the NIC
 * @id: an id extoll_smfu_map() returned
 */
void extoll_smfu_unmap(struct extoll_dev *nic, int id)
{
	if (id < 0 || id >= EXTOLL_SMFU_INTERVALS ||
	    nic->smfu_off == EXTOLL_NO_BLOCK)
		return;

	mutex_lock(&nic->smfu_lock);
	if (WARN_ON(!test_bit(id, &nic->smfu_used))) {
		mutex_unlock(&nic->smfu_lock);
		return;
	}
	if (!READ_ONCE(nic->gone)) {
		extoll_wr(nic, extoll_smfu_reg(nic, EXTOLL_SMFU_EG_CTRL, id), 0);
		extoll_rd(nic, extoll_smfu_reg(nic, EXTOLL_SMFU_EG_CTRL, id));
	}
	__clear_bit(id, &nic->smfu_used);
	mutex_unlock(&nic->smfu_lock);
	dev_dbg(&nic->pdev->dev, "SMFU interval %d unmapped\n", id);
}
EXPORT_SYMBOL_GPL(extoll_smfu_unmap);

/**
 * extoll_smfu_passthru() - route a node's upstream requests to this host
 * @nic: the NIC
 * @node: the node (root-port role)
 * @enable: set or clear smfu.ctrl.passthru there
 *
 * Keeps the node's read timeout field; up_node = this NIC's node id.
 *
 * Return: 0, or the RRA error.
 */
int extoll_smfu_passthru(struct extoll_dev *nic, u16 node, bool enable)
{
	u64 ctrl;
	int ret;

	ret = extoll_rra_read(nic, node, EXTOLL_NODE_SMFU_CTRL, &ctrl);
	if (ret)
		return ret;
	ctrl &= ~(EXTOLL_SMFU_CTRL_PASSTHRU_MASK | EXTOLL_SMFU_CTRL_UP_NODE_MASK);
	if (enable)
		ctrl |= EXTOLL_SMFU_CTRL_PASSTHRU_MASK |
			FIELD_PREP(EXTOLL_SMFU_CTRL_UP_NODE_MASK,
				   nic->info.node_id);
	return extoll_rra_write(nic, node, EXTOLL_NODE_SMFU_CTRL, ctrl);
}
EXPORT_SYMBOL_GPL(extoll_smfu_passthru);
