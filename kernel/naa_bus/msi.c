// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: the node's child MSI domain (VMD's flat scheme, vmd.c).
 *
 * The remote devices cannot reach the host's APIC: their MSI/MSI-X writes
 * travel upstream through the node's pass-through to the host NIC, which
 * turns a write into its interrupt window into a notification-queue entry
 * {data, source node}. So every child vector gets a slot (0..255 per node)
 * and the message {address = the interrupt window as the node's devices
 * address it, data = slot}; the notification handler looks the slot up and
 * raises the child's Linux interrupt with generic_handle_irq_safe().
 *
 * The domain has no parent. Its chip must have irq_set_affinity (returning
 * -EINVAL): the core's default would dereference the missing parent. The
 * flow handler is handle_simple_irq (nothing to ack). The bus token
 * DOMAIN_BUS_VMD_MSI keeps the Intel/AMD interrupt-remapping code from
 * replacing the children's MSI domain. Multi-MSI gets a naturally aligned
 * block of slots, since the device ORs the vector number into the data.
 */
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/msi.h>
#include <linux/pci.h>

#include "naa_bus.h"

static struct naa_host *naa_msi_host(struct msi_domain_info *info)
{
	return container_of(info, struct naa_host, msi.info);
}

static void naa_msi_compose_msg(struct irq_data *data, struct msi_msg *msg)
{
	struct msi_domain_info *info = data->domain->host_data;
	struct naa_host *host = naa_msi_host(info);

	msg->address_hi = upper_32_bits(host->msi.addr);
	msg->address_lo = lower_32_bits(host->msi.addr);
	msg->data = (u32)(uintptr_t)irq_data_get_irq_chip_data(data);
}

/* Every child vector arrives through the NIC's one interrupt. */
static int naa_msi_set_affinity(struct irq_data *data,
				const struct cpumask *dest, bool force)
{
	return -EINVAL;
}

static struct irq_chip naa_msi_chip = {
	.name			= "NAA-MSI",
	.irq_compose_msi_msg	= naa_msi_compose_msg,
	.irq_set_affinity	= naa_msi_set_affinity,
};

/* A free slot, or for multi-MSI a block of them. */
static int naa_msi_slot_alloc(struct naa_msi *msi, unsigned int nvec)
{
	unsigned long flags;
	int slot;

	spin_lock_irqsave(&msi->lock, flags);
	slot = bitmap_find_free_region(msi->used, NAA_MSI_SLOTS,
				       order_base_2(nvec));
	spin_unlock_irqrestore(&msi->lock, flags);
	return slot;
}

static int naa_msi_init(struct irq_domain *domain,
			struct msi_domain_info *info, unsigned int virq,
			irq_hw_number_t hwirq, msi_alloc_info_t *arg)
{
	struct naa_host *host = naa_msi_host(info);
	struct naa_msi *msi = &host->msi;
	struct msi_desc *desc = arg->desc;
	unsigned int idx = 0, nvec = 1;
	int slot;

	/* Multi-MSI: one call per vector, hwirq = base + index. */
	if (desc && !desc->pci.msi_attrib.is_msix && desc->nvec_used > 1) {
		nvec = desc->nvec_used;
		idx = hwirq - arg->hwirq;
	}

	if (idx == 0) {
		slot = naa_msi_slot_alloc(msi, nvec);
		if (slot < 0) {
			dev_err(host->dev,
				"node %u: no %u free MSI slot(s) of %u\n",
				host->node, nvec, NAA_MSI_SLOTS);
			return -ENOSPC;
		}
		msi->multi_base = slot;
	} else {
		/* Reserved with the block at idx 0 (calls are serialised). */
		slot = msi->multi_base + idx;
	}

	irq_domain_set_info(domain, virq, hwirq, &naa_msi_chip,
			    (void *)(uintptr_t)slot, handle_simple_irq,
			    NULL, NULL);
	WRITE_ONCE(msi->virq[slot], virq);
	return 0;
}

static void naa_msi_free(struct irq_domain *domain,
			 struct msi_domain_info *info, unsigned int virq)
{
	struct naa_host *host = naa_msi_host(info);
	struct naa_msi *msi = &host->msi;
	struct irq_data *data = irq_domain_get_irq_data(domain, virq);
	unsigned int slot = (uintptr_t)irq_data_get_irq_chip_data(data);
	unsigned long flags;

	if (WARN_ON(slot >= NAA_MSI_SLOTS))
		return;
	WRITE_ONCE(msi->virq[slot], 0);
	/* Like synchronize_irq() on the NIC's vector: no dispatch uses it. */
	extoll_notify_sync(host->nic);

	spin_lock_irqsave(&msi->lock, flags);
	__clear_bit(slot, msi->used);
	spin_unlock_irqrestore(&msi->lock, flags);
}

/*
 * hwirq: unique in the domain, like the PCI core's own calculation (x86
 * does not provide it: no GENERIC_MSI_DOMAIN_OPS). Multi-MSI vectors are
 * hwirq + index.
 */
static void naa_msi_set_desc(msi_alloc_info_t *arg, struct msi_desc *desc)
{
	arg->desc = desc;
	arg->hwirq = ((irq_hw_number_t)pci_dev_id(to_pci_dev(desc->dev)) << 11) |
		     (desc->msi_index & 0x7ff);
}

static struct msi_domain_ops naa_msi_domain_ops = {
	.set_desc	= naa_msi_set_desc,
	.msi_init	= naa_msi_init,
	.msi_free	= naa_msi_free,
};

/* Notification from the node: entry.data is the slot. Atomic context. */
static void naa_msi_notify(void *ctx, const struct extoll_notify_entry *entry)
{
	struct naa_host *host = ctx;
	unsigned int virq = 0;

	if ((entry->data & EXTOLL_NQ_WIN_INTX_MSG) && entry->offset == EXTOLL_NQ_WIN_INTX_OFF) {
		naa_intx_event(host, entry->data);
		return;
	}
	if (entry->data < NAA_MSI_SLOTS)
		virq = READ_ONCE(host->msi.virq[entry->data]);
	if (virq && !generic_handle_irq_safe(virq))
		return;

	host->msi.spurious++;
	dev_dbg_ratelimited(host->dev,
			    "node %u: notification with data 0x%x (offset 0x%x) matches no interrupt\n",
			    host->node, entry->data, entry->offset);
}

/**
 * naa_msi_create() - the node's MSI domain, set on the bridge before the scan
 * @host: the node, with its bridge allocated (not registered)
 *
 * Also registers the notification handler, so a vector fires as soon as a
 * driver enables it.
 *
 * Return: 0, or a negative errno with nothing left behind.
 */
int naa_msi_create(struct naa_host *host)
{
	struct naa_msi *msi = &host->msi;
	u64 size;
	int ret;

	ret = extoll_notify_window(host->nic, &msi->addr, &size);
	if (ret) {
		dev_err(host->dev,
			"node %u: the NIC has no notification queue: remote devices' interrupts cannot be forwarded\n",
			host->node);
		return ret;
	}
	spin_lock_init(&msi->lock);
	bitmap_zero(msi->used, NAA_MSI_SLOTS);

	msi->info.flags = MSI_FLAG_USE_DEF_DOM_OPS | MSI_FLAG_USE_DEF_CHIP_OPS |
			  MSI_FLAG_PCI_MSIX | MSI_FLAG_MULTI_PCI_MSI;
	msi->info.ops = &naa_msi_domain_ops;
	msi->info.chip = &naa_msi_chip;

	msi->fwnode = irq_domain_alloc_named_id_fwnode("NAA-MSI",
						       host->naa->adev.id);
	if (!msi->fwnode)
		return -ENOMEM;

	msi->domain = pci_msi_create_irq_domain(msi->fwnode, &msi->info, NULL);
	if (!msi->domain) {
		dev_err(host->dev, "node %u: cannot create the MSI domain\n",
			host->node);
		ret = -ENOMEM;
		goto err_fwnode;
	}
	/* Keep interrupt remapping from taking the children over. */
	irq_domain_update_bus_token(msi->domain, DOMAIN_BUS_VMD_MSI);

	ret = extoll_notify_register(host->nic, host->node, naa_msi_notify, host);
	if (ret) {
		dev_err(host->dev,
			"node %u: cannot register for its notifications: %d\n",
			host->node, ret);
		goto err_domain;
	}
	msi->notify_registered = true;

	/* INTx messages come the same way (map_irq on the bridge). */
	naa_intx_create(host);

	/* Before the scan: the root bus and every device inherit it. */
	dev_set_msi_domain(&host->bridge->dev, msi->domain);
	return 0;

err_domain:
	irq_domain_remove(msi->domain);
	msi->domain = NULL;
err_fwnode:
	irq_domain_free_fwnode(msi->fwnode);
	msi->fwnode = NULL;
	return ret;
}

/**
 * naa_msi_remove() - stop forwarding and free the domain
 * @host: the node, its devices removed (their vectors freed)
 */
void naa_msi_remove(struct naa_host *host)
{
	struct naa_msi *msi = &host->msi;

	if (msi->notify_registered) {
		/* Waits for a dispatch in progress. */
		extoll_notify_unregister(host->nic, host->node);
		msi->notify_registered = false;
	}
	naa_intx_remove(host);
	if (msi->domain) {
		irq_domain_remove(msi->domain);
		msi->domain = NULL;
	}
	if (msi->fwnode) {
		irq_domain_free_fwnode(msi->fwnode);
		msi->fwnode = NULL;
	}
	if (msi->spurious)
		dev_dbg(host->dev, "node %u: %llu notification(s) matched no interrupt\n",
			host->node, msi->spurious);
}
