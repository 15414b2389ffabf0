// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: legacy INTx of the remote bus (docs/epf-test.md, INTx forwarding).
 *
 * The NAA turns every edge of its device's INTx level into a write into the
 * host NIC's interrupt window (rtl/nic/naa_intx.sv): a notification entry
 * with data EXTOLL_NQ_WIN_INTX_MSG | pin << 1 | level at offset EXTOLL_NQ_WIN_INTX_OFF, the
 * virtual-wire Assert_INTx / Deassert_INTx of PCIe. Here the four lines
 * INTA..INTD are a linear irq domain with level semantics, as a host
 * bridge's INTx controller (pci-hyperv, vmd provide the same to the PCI
 * core through map_irq):
 *
 *   - the line's level is the last message's;
 *   - handle_level_irq masks the line while the handlers run; a message
 *     that raises an unmasked line runs them at once;
 *   - unmask re-checks the level (the EOI of a level interrupt): still
 *     asserted, the handlers run again - after NAA_INTX_RECHECK_US, from a
 *     timer, not at once: the deassert that the handler's register write
 *     caused is still on its way (network, notification poll), and an
 *     immediate re-run would re-run forever in hard interrupt context,
 *     starving the poller that would deliver it. So an interrupt whose
 *     source did not deassert is never lost, and one that did is not
 *     repeated once the deassert arrived.
 *
 * The bridge's map_irq gives every child its swizzled pin's Linux irq
 * (pci_assign_irq), so pci_alloc_irq_vectors(PCI_IRQ_LEGACY) and
 * request_irq(IRQF_SHARED) work as on a local bus; the config accessors
 * (ops.c) then let INTERRUPT_PIN/LINE through.
 */
#include <linux/hrtimer.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/pci.h>

#include "extoll_regs.h"
#include "naa_bus.h"

/* Level re-check after unmask: about one notification poll (notify_poll_us). */
#define NAA_INTX_RECHECK_US	1000

static void naa_intx_mask(struct irq_data *d)
{
	struct naa_intx *intx = irq_data_get_irq_chip_data(d);
	unsigned long flags;

	spin_lock_irqsave(&intx->lock, flags);
	intx->masked |= BIT(irqd_to_hwirq(d));
	spin_unlock_irqrestore(&intx->lock, flags);
}

/* The EOI of a level interrupt: still asserted, run the handlers again. */
static void naa_intx_unmask(struct irq_data *d)
{
	struct naa_intx *intx = irq_data_get_irq_chip_data(d);
	unsigned long flags;
	bool again;

	spin_lock_irqsave(&intx->lock, flags);
	intx->masked &= ~BIT(irqd_to_hwirq(d));
	again = intx->level & BIT(irqd_to_hwirq(d));
	spin_unlock_irqrestore(&intx->lock, flags);
	if (again)
		hrtimer_start(&intx->recheck, ns_to_ktime(NAA_INTX_RECHECK_US * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_SOFT);
}

/* Every line arrives through the NIC's one interrupt. */
static int naa_intx_set_affinity(struct irq_data *d, const struct cpumask *dest, bool force)
{
	return -EINVAL;
}

static struct irq_chip naa_intx_chip = {
	.name			= "NAA-INTx",
	.irq_mask		= naa_intx_mask,
	.irq_unmask		= naa_intx_unmask,
	.irq_set_affinity	= naa_intx_set_affinity,
};

static int naa_intx_domain_map(struct irq_domain *d, unsigned int virq, irq_hw_number_t hw)
{
	irq_set_chip_and_handler(virq, &naa_intx_chip, handle_level_irq);
	irq_set_chip_data(virq, d->host_data);
	irq_set_status_flags(virq, IRQ_LEVEL);
	return 0;
}

static const struct irq_domain_ops naa_intx_domain_ops = {
	.map	= naa_intx_domain_map,
	.xlate	= irq_domain_xlate_onecell,
};

/* Run the handlers of every asserted, unmasked line. */
static void naa_intx_fire(struct naa_intx *intx)
{
	unsigned long flags, pend;
	unsigned int pin;

	spin_lock_irqsave(&intx->lock, flags);
	pend = intx->level & ~intx->masked;
	spin_unlock_irqrestore(&intx->lock, flags);
	for_each_set_bit(pin, &pend, PCI_NUM_INTX) {
		unsigned int virq = irq_find_mapping(intx->domain, pin);

		if (virq)
			generic_handle_irq_safe(virq);
	}
}

static enum hrtimer_restart naa_intx_recheck(struct hrtimer *t)
{
	naa_intx_fire(container_of(t, struct naa_intx, recheck));
	return HRTIMER_NORESTART;
}

/**
 * naa_intx_event() - an INTx message from the node (notification handler)
 * @host: the node
 * @data: EXTOLL_NQ_WIN_INTX_MSG | pin << 1 | level
 *
 * Atomic context.
 */
void naa_intx_event(struct naa_host *host, u32 data)
{
	struct naa_intx *intx = &host->intx;
	unsigned int pin = (data >> 1) & 3;
	unsigned long flags;

	if (!intx->domain)
		return;
	spin_lock_irqsave(&intx->lock, flags);
	if (data & 1)
		intx->level |= BIT(pin);
	else
		intx->level &= ~BIT(pin);
	spin_unlock_irqrestore(&intx->lock, flags);
	intx->messages++;
	if (data & 1)
		naa_intx_fire(intx);
}

/* pci_assign_irq(): the child's (swizzled) pin 1..4 -> its Linux irq. */
static int naa_intx_map_irq(const struct pci_dev *dev, u8 slot, u8 pin)
{
	struct pci_host_bridge *bridge = pci_find_host_bridge(dev->bus);
	struct naa_host *host = container_of(bridge->sysdata, struct naa_host, sysdata);

	if (!host->intx.domain || pin < 1 || pin > PCI_NUM_INTX)
		return 0;
	return irq_create_mapping(host->intx.domain, pin - 1);
}

/**
 * naa_intx_create() - the node's INTx domain, and map_irq on its bridge
 * @host: the node, its bridge allocated (not registered), @host->msi.addr set
 *
 * The NAA sends its messages to the interrupt window's reset base + offset
 * EXTOLL_NQ_WIN_INTX_OFF (hw/gen/gen_net.py, NQ_WIN; rtl/nic/naa_intx.sv); a NIC whose window
 * was moved, or is smaller, gets no INTx (children see no irq, as on a bus
 * without INTx routing). Not an error.
 */
void naa_intx_create(struct naa_host *host)
{
	struct naa_intx *intx = &host->intx;
	u64 base, size;

	spin_lock_init(&intx->lock);
	hrtimer_init(&intx->recheck, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	intx->recheck.function = naa_intx_recheck;
	if (extoll_notify_window(host->nic, &base, &size) ||
	    base != EXTOLL_NOTIFY_WIN_BASE_ADDR_RESET || size <= EXTOLL_NQ_WIN_INTX_OFF) {
		dev_info(host->dev, "node %u: interrupt window moved: no INTx forwarding\n",
			 host->node);
		return;
	}
	intx->fwnode = irq_domain_alloc_named_id_fwnode("NAA-INTx", host->naa->adev.id);
	if (!intx->fwnode)
		return;
	intx->domain = irq_domain_create_linear(intx->fwnode, PCI_NUM_INTX,
						&naa_intx_domain_ops, intx);
	if (!intx->domain) {
		irq_domain_free_fwnode(intx->fwnode);
		intx->fwnode = NULL;
		return;
	}
	host->bridge->map_irq = naa_intx_map_irq;
	host->bridge->swizzle_irq = pci_common_swizzle;
	dev_info(host->dev, "node %u: INTx forwarded (INTA..INTD, level)\n", host->node);
}

/**
 * naa_intx_remove() - free the domain
 * @host: the node, its devices removed and its notifications stopped
 */
void naa_intx_remove(struct naa_host *host)
{
	struct naa_intx *intx = &host->intx;
	unsigned int pin;

	if (!intx->domain)
		return;
	hrtimer_cancel(&intx->recheck);
	for (pin = 0; pin < PCI_NUM_INTX; pin++)
		irq_dispose_mapping(irq_find_mapping(intx->domain, pin));
	irq_domain_remove(intx->domain);
	intx->domain = NULL;
	irq_domain_free_fwnode(intx->fwnode);
	intx->fwnode = NULL;
	if (intx->messages)
		dev_dbg(host->dev, "node %u: %llu INTx message(s)\n", host->node, intx->messages);
}
