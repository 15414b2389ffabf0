// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: the notification queue (docs/smfu.md).
 *
 * A pass-through write from a node that lands in the interrupt window is
 * not written to memory: the NIC appends a 16-byte entry {data, window
 * offset, source node, phase} to a ring in host memory, bumps notify.prod
 * and raises info.irq_status.notify. The driver consumes entries whose
 * phase bit matches the pass it expects (1 on the first pass over the
 * ring, 0 on the second, ...), hands each to the handler the node's driver
 * registered (naa_bus: the MSI data is a slot, the handler raises the
 * child interrupt) - or, at window offsets EXTOLL_NQ_WIN_RMA_OFF up to
 * EXTOLL_NQ_WIN_RMA_END (the window's layout: NQ_WIN in hw/gen/gen_net.py),
 * an RMA notification record to rma.c - and writes notify.cons. A full ring stalls the source
 * in the NIC; nothing is lost.
 *
 * The drain runs from the NIC's interrupt handler (cause notify), from the
 * irq_status poller when interrupts do not work, and - while the NIC polls
 * and some node has a handler - from a high-resolution timer every
 * notify_poll_us that looks at the ring in host memory only (no register
 * read across the bus) so forwarded interrupts are not delayed by poll_ms.
 *
 * One spinlock (irqsave) covers the drain, the handler list and the
 * statistics: a handler removed under it is neither running nor called
 * again, which is what extoll_notify_unregister() promises.
 */
#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/hrtimer.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "extoll.h"

/* qword 0: data and offset; the other: node and phase, read first. */
static_assert(EXTOLL_NOTIFY_ENT_OFFSET_QW == EXTOLL_NOTIFY_ENT_DATA_QW &&
	      EXTOLL_NOTIFY_ENT_NODE_QW == EXTOLL_NOTIFY_ENT_PHASE_QW &&
	      EXTOLL_NOTIFY_ENT_DATA_QW != EXTOLL_NOTIFY_ENT_PHASE_QW);

/* log2_entries is a 4-bit field: 16 .. 32768 entries. */
#define EXTOLL_NOTIFY_MIN_ENTRIES	16
#define EXTOLL_NOTIFY_MAX_ENTRIES	32768

/* The interrupt window, the RTL's reset values (docs/smfu.md). */
#define EXTOLL_NOTIFY_WIN_BASE_DEFAULT	EXTOLL_NOTIFY_WIN_BASE_ADDR_RESET
#define EXTOLL_NOTIFY_WIN_SIZE_DEFAULT	EXTOLL_NOTIFY_WIN_SIZE_SIZE_RESET

static unsigned int notify_entries = 256;
module_param(notify_entries, uint, 0444);
MODULE_PARM_DESC(notify_entries,
		 "Entries in the notification ring (power of two, 16..32768; default 256)");

static unsigned int notify_poll_us = 1000;
module_param(notify_poll_us, uint, 0644);
MODULE_PARM_DESC(notify_poll_us,
		 "When the NIC polls: interval in us to look at the notification ring (default 1000, 0: only every poll_ms)");

/* One registered handler. */
struct extoll_notify_handler {
	struct list_head list;
	u16 node;
	extoll_notify_fn fn;
	void *ctx;
};

static u32 extoll_notify_reg(struct extoll_dev *edev, u32 reg)
{
	return edev->notify_off + reg;
}

/* The phase bit the NIC writes on the pass that index @idx belongs to. */
static bool extoll_notify_phase(const struct extoll_notify *nt, u32 idx)
{
	return !((idx >> nt->log2_entries) & 1);
}

/*
 * Make every slot look stale to the consumer starting at nt->cons: slot j
 * is next written at the first index >= cons that maps to it, with that
 * index's phase, so it must hold the opposite phase until then.
 */
static void extoll_notify_prime(struct extoll_notify *nt)
{
	u32 size = BIT(nt->log2_entries), mask = size - 1, j, idx;

	for (j = 0; j < size; j++) {
		idx = (nt->cons & ~mask) + j;
		if (j < (nt->cons & mask))
			idx += size;
		nt->ring[j].qw[EXTOLL_NOTIFY_ENT_DATA_QW] = 0;
		nt->ring[j].qw[EXTOLL_NOTIFY_ENT_PHASE_QW] =
			extoll_notify_phase(nt, idx) ? 0 :
			cpu_to_le64(EXTOLL_NOTIFY_ENT_PHASE_MASK);
	}
}

/* Called under nt->lock. */
static struct extoll_notify_handler *
extoll_notify_find(struct extoll_notify *nt, u16 node)
{
	struct extoll_notify_handler *h;

	list_for_each_entry(h, &nt->handlers, list)
		if (h->node == node)
			return h;
	return NULL;
}

/* Consume the ready entries; returns how many. Called under nt->lock. */
static unsigned int extoll_notify_drain_locked(struct extoll_dev *edev,
					       unsigned int budget)
{
	struct extoll_notify *nt = &edev->notify;
	u32 mask = BIT(nt->log2_entries) - 1;
	struct extoll_notify_entry e;
	struct extoll_notify_handler *h;
	struct extoll_notify_ent *ent;
	unsigned int n = 0;
	u64 qw0, qw1;
	bool rma;

	while (n < budget) {
		ent = &nt->ring[nt->cons & mask];
		qw1 = le64_to_cpu(READ_ONCE(ent->qw[EXTOLL_NOTIFY_ENT_PHASE_QW]));
		if (!!(qw1 & EXTOLL_NOTIFY_ENT_PHASE_MASK) !=
		    extoll_notify_phase(nt, nt->cons))
			break;
		/* The phase bit first, then the rest of the entry. */
		dma_rmb();
		qw0 = le64_to_cpu(READ_ONCE(ent->qw[EXTOLL_NOTIFY_ENT_DATA_QW]));

		e.data = FIELD_GET(EXTOLL_NOTIFY_ENT_DATA_MASK, qw0);
		e.offset = FIELD_GET(EXTOLL_NOTIFY_ENT_OFFSET_MASK, qw0);
		e.node = FIELD_GET(EXTOLL_NOTIFY_ENT_NODE_MASK, qw1);

		rma = e.offset >= EXTOLL_NQ_WIN_RMA_OFF &&
		      e.offset < EXTOLL_NQ_WIN_RMA_END;
		h = rma ? NULL : extoll_notify_find(nt, e.node);
		if (rma) {
			extoll_rma_notify(edev, &e);
		} else if (h) {
			h->fn(h->ctx, &e);
		} else {
			nt->stats.unclaimed++;
			dev_dbg_ratelimited(&edev->pdev->dev,
					    "notification from node %u (data 0x%x, offset 0x%x) without a handler\n",
					    e.node, e.data, e.offset);
		}
		nt->cons++;
		n++;
		/* Give the NIC room during a long drain: a stalled source resumes. */
		if (!(n & (mask >> 2)))
			extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_CONS),
				  nt->cons);
	}
	if (n) {
		extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_CONS),
			  nt->cons);
		nt->stats.entries += n;
		nt->stats.drains++;
	}
	return n;
}

/* Entries per drain call; a flood is continued by the poll timer. */
static unsigned int extoll_notify_budget(struct extoll_notify *nt)
{
	return 4U << nt->log2_entries;
}

static void extoll_notify_kick(struct extoll_dev *edev)
{
	struct extoll_notify *nt = &edev->notify;

	if (!hrtimer_active(&nt->timer))
		hrtimer_start(&nt->timer, ns_to_ktime(NSEC_PER_USEC * 100),
			      HRTIMER_MODE_REL_SOFT);
}

/**
 * extoll_notify_drain() - consume the notification ring
 * @edev: the NIC
 *
 * Called from the interrupt dispatch (hard interrupt or poller) after the
 * notify cause was acknowledged, so entries that arrive meanwhile raise it
 * again.
 *
 * Return: true if entries were consumed.
 */
bool extoll_notify_drain(struct extoll_dev *edev)
{
	struct extoll_notify *nt = &edev->notify;
	unsigned int budget, n;
	unsigned long flags;

	if (!nt->ready)
		return false;

	budget = extoll_notify_budget(nt);
	raw_spin_lock_irqsave(&nt->lock, flags);
	n = extoll_notify_drain_locked(edev, budget);
	raw_spin_unlock_irqrestore(&nt->lock, flags);

	/* Budget used up: more may be waiting, and no new cause for them. */
	if (n == budget)
		extoll_notify_kick(edev);
	return n;
}

/* The fast ring poll: host memory only, no register read. */
static enum hrtimer_restart extoll_notify_timer(struct hrtimer *timer)
{
	struct extoll_notify *nt = container_of(timer, struct extoll_notify,
						timer);
	struct extoll_dev *edev = container_of(nt, struct extoll_dev, notify);
	unsigned int budget = extoll_notify_budget(nt), n;
	unsigned long flags;

	if (READ_ONCE(edev->gone))
		return HRTIMER_NORESTART;

	raw_spin_lock_irqsave(&nt->lock, flags);
	n = extoll_notify_drain_locked(edev, budget);
	raw_spin_unlock_irqrestore(&nt->lock, flags);

	if (n == budget) {
		hrtimer_forward_now(timer, ns_to_ktime(NSEC_PER_USEC * 100));
		return HRTIMER_RESTART;
	}
	if (!READ_ONCE(nt->timer_on))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, nt->period);
	return HRTIMER_RESTART;
}

/*
 * Under reg_lock: run the fast poll while the NIC polls and nodes listen
 * or RMA users wait for notifications.
 */
static void extoll_notify_timer_update(struct extoll_dev *edev)
{
	struct extoll_notify *nt = &edev->notify;
	unsigned int us = READ_ONCE(notify_poll_us);
	bool want = edev->polling && (nt->nr_handlers || nt->nr_rma) && us;

	if (want == nt->timer_on)
		return;
	if (want) {
		nt->period = ns_to_ktime((u64)us * NSEC_PER_USEC);
		WRITE_ONCE(nt->timer_on, true);
		hrtimer_start(&nt->timer, nt->period, HRTIMER_MODE_REL_SOFT);
	} else {
		WRITE_ONCE(nt->timer_on, false);
		hrtimer_cancel(&nt->timer);
	}
}

/**
 * extoll_notify_init() - allocate the ring and enable the queue
 * @edev: the NIC, with its register blocks found
 *
 * Without a notify block the NIC simply has no interrupt forwarding
 * (extoll_notify_window() then fails). The notify cause is enabled later,
 * by extoll_irq_init().
 *
 * Return: 0, or -ENOMEM / -EINVAL (bad notify_entries).
 */
int extoll_notify_init(struct extoll_dev *edev)
{
	struct extoll_notify *nt = &edev->notify;
	struct device *dev = &edev->pdev->dev;
	unsigned int entries = notify_entries;
	u64 prod;

	raw_spin_lock_init(&nt->lock);
	mutex_init(&nt->reg_lock);
	INIT_LIST_HEAD(&nt->handlers);
	hrtimer_init(&nt->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	nt->timer.function = extoll_notify_timer;

	if (edev->notify_off == EXTOLL_NO_BLOCK) {
		dev_info(dev, "no notify register block: no interrupt forwarding from remote devices\n");
		return 0;
	}
	if (!is_power_of_2(entries) || entries < EXTOLL_NOTIFY_MIN_ENTRIES ||
	    entries > EXTOLL_NOTIFY_MAX_ENTRIES) {
		dev_err(dev, "notify_entries=%u: must be a power of two from %u to %u\n",
			entries, EXTOLL_NOTIFY_MIN_ENTRIES, EXTOLL_NOTIFY_MAX_ENTRIES);
		return -EINVAL;
	}

	nt->log2_entries = ilog2(entries);
	nt->ring = dma_alloc_coherent(dev, entries * sizeof(*nt->ring),
				      &nt->ring_dma, GFP_KERNEL);
	if (!nt->ring)
		return -ENOMEM;
	nt->win_base = EXTOLL_NOTIFY_WIN_BASE_DEFAULT;
	nt->win_size = EXTOLL_NOTIFY_WIN_SIZE_DEFAULT;

	/*
	 * Disabled, the producer stands still. Enabling does not reset it
	 * (only a NIC reset does; a previous driver instance may have
	 * consumed entries): start consuming where it stands, with every
	 * slot primed stale for the phase it will next be written with.
	 */
	extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_RING_CTRL), 0);
	prod = extoll_rd(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_PROD));
	nt->cons = FIELD_GET(EXTOLL_NOTIFY_PROD_INDEX_MASK, prod);
	extoll_notify_prime(nt);
	/* The primed ring is in memory before the NIC may write it. */
	wmb();

	extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_RING_BASE),
		  nt->ring_dma);
	extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_WIN_BASE),
		  nt->win_base);
	extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_WIN_SIZE),
		  nt->win_size);
	extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_CONS), nt->cons);
	extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_RING_CTRL),
		  EXTOLL_NOTIFY_RING_CTRL_ENABLE_MASK |
		  FIELD_PREP(EXTOLL_NOTIFY_RING_CTRL_LOG2_ENTRIES_MASK,
			     nt->log2_entries));

	nt->ready = true;
	dev_dbg(dev, "notification ring: %u entries at %pad from index %u, interrupt window %#llx+%#llx\n",
		entries, &nt->ring_dma, nt->cons, nt->win_base, nt->win_size);
	return 0;
}

/**
 * extoll_notify_stop() - disable the queue
 * @edev: the NIC; every node detached, the interrupt released
 *
 * The ring memory stays until extoll_notify_free(), after bus mastering
 * is off.
 */
void extoll_notify_stop(struct extoll_dev *edev)
{
	struct extoll_notify *nt = &edev->notify;
	unsigned long flags;

	WRITE_ONCE(nt->timer_on, false);
	hrtimer_cancel(&nt->timer);
	if (!nt->ready)
		return;

	raw_spin_lock_irqsave(&nt->lock, flags);
	nt->ready = false;
	raw_spin_unlock_irqrestore(&nt->lock, flags);
	WARN_ON(!list_empty(&nt->handlers));

	if (!READ_ONCE(edev->gone)) {
		extoll_wr(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_RING_CTRL), 0);
		/* Flush the posted write before the ring may go away. */
		extoll_rd(edev, extoll_notify_reg(edev, EXTOLL_NOTIFY_RING_CTRL));
	}
}

/**
 * extoll_notify_free() - free the ring
 * @edev: the NIC, queue stopped, bus mastering off
 */
void extoll_notify_free(struct extoll_dev *edev)
{
	struct extoll_notify *nt = &edev->notify;

	if (!nt->ring)
		return;
	dma_free_coherent(&edev->pdev->dev,
			  BIT(nt->log2_entries) * sizeof(*nt->ring), nt->ring,
			  nt->ring_dma);
	nt->ring = NULL;
}

void extoll_notify_stats_get(struct extoll_dev *edev,
			     struct extoll_notify_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&edev->notify.lock, flags);
	*st = edev->notify.stats;
	raw_spin_unlock_irqrestore(&edev->notify.lock, flags);
}

/**
 * extoll_notify_window() - the interrupt window, as NAA-side bus addresses
 * @nic: the NIC
 * @base: first address
 * @size: size in bytes
 *
 * Return: 0, or -EOPNOTSUPP without a working notification queue.
 */
int extoll_notify_window(struct extoll_dev *nic, u64 *base, u64 *size)
{
	if (!nic->notify.ready)
		return -EOPNOTSUPP;
	*base = nic->notify.win_base;
	*size = nic->notify.win_size;
	return 0;
}
EXPORT_SYMBOL_GPL(extoll_notify_window);

/**
 * extoll_notify_register() - receive the notifications of one node
 * @nic: the NIC
 * @node: the source node
 * @fn: called for every entry from @node, in atomic context
 * @ctx: its first argument
 *
 * Return: 0, -EBUSY (the node has a handler), -ENOMEM, -EOPNOTSUPP.
 */
int extoll_notify_register(struct extoll_dev *nic, u16 node,
			   extoll_notify_fn fn, void *ctx)
{
	struct extoll_notify *nt = &nic->notify;
	struct extoll_notify_handler *h;
	unsigned long flags;
	int ret = 0;

	if (!nt->ready)
		return -EOPNOTSUPP;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->node = node;
	h->fn = fn;
	h->ctx = ctx;

	mutex_lock(&nt->reg_lock);
	raw_spin_lock_irqsave(&nt->lock, flags);
	if (extoll_notify_find(nt, node))
		ret = -EBUSY;
	else
		list_add_tail(&h->list, &nt->handlers);
	raw_spin_unlock_irqrestore(&nt->lock, flags);
	if (!ret) {
		nt->nr_handlers++;
		extoll_notify_timer_update(nic);
	}
	mutex_unlock(&nt->reg_lock);

	if (ret)
		kfree(h);
	return ret;
}
EXPORT_SYMBOL_GPL(extoll_notify_register);

/**
 * extoll_notify_unregister() - stop the notifications of one node
 * @nic: the NIC
 * @node: the source node
 *
 * On return the handler is not running on any CPU and is not called
 * again; later entries from the node are counted as unclaimed.
 */
void extoll_notify_unregister(struct extoll_dev *nic, u16 node)
{
	struct extoll_notify *nt = &nic->notify;
	struct extoll_notify_handler *h;
	unsigned long flags;

	mutex_lock(&nt->reg_lock);
	raw_spin_lock_irqsave(&nt->lock, flags);
	h = extoll_notify_find(nt, node);
	if (h)
		list_del(&h->list);
	raw_spin_unlock_irqrestore(&nt->lock, flags);
	if (h) {
		nt->nr_handlers--;
		extoll_notify_timer_update(nic);
	}
	mutex_unlock(&nt->reg_lock);
	kfree(h);
}
EXPORT_SYMBOL_GPL(extoll_notify_unregister);

/**
 * extoll_notify_rma_hold() - RMA notifications are awaited
 * @nic: the NIC
 * @hold: true: one more user (an open file with RMA buffers); false: one less
 *
 * While the NIC polls, the fast poll of the ring runs while any user holds
 * it, so completions are not delayed by poll_ms. Process context.
 */
void extoll_notify_rma_hold(struct extoll_dev *nic, bool hold)
{
	struct extoll_notify *nt = &nic->notify;

	mutex_lock(&nt->reg_lock);
	if (hold)
		nt->nr_rma++;
	else if (!WARN_ON(!nt->nr_rma))
		nt->nr_rma--;
	if (nt->ready)
		extoll_notify_timer_update(nic);
	mutex_unlock(&nt->reg_lock);
}

/**
 * extoll_notify_sync() - wait for a dispatch in progress
 * @nic: the NIC
 *
 * Every handler runs under the ring lock: taking it once waits out the
 * dispatch in progress, and later dispatches see what the caller changed
 * before (lock ordering).
 */
void extoll_notify_sync(struct extoll_dev *nic)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&nic->notify.lock, flags);
	raw_spin_unlock_irqrestore(&nic->notify.lock, flags);
}
EXPORT_SYMBOL_GPL(extoll_notify_sync);
