// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: remote register access (RRA), the engine under the exported
 * API of linux-extoll.h.
 *
 * One request at a time per NIC (docs/remote-access.md):
 *   1. rra.cmp_addr holds, once and for all, the bus address of a 16-byte
 *      completion record in host RAM (dma_alloc_coherent);
 *   2. zero the record's status qword, write wdata / tlp_hdr* / route;
 *   3. write rra.req with a new sequence number (one 64-bit store);
 *   4. poll the record in host RAM, never a register across the network,
 *      until it is valid and carries our sequence number, or the time is up.
 *
 * Callers may hold spinlocks or run with interrupts off (PCI config
 * accessors), so this never sleeps: a raw spinlock with interrupts saved
 * serialises the requests and ktime_get_mono_fast_ns() bounds the poll.
 */
#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/timekeeping.h>

#include "extoll.h"

/* The record's status qword: valid, seq, status, PCIe status, node. */
#define EXTOLL_CMP_ST_QW		EXTOLL_CMP_VALID_QW
static_assert(EXTOLL_CMP_SEQ_QW == EXTOLL_CMP_ST_QW &&
	      EXTOLL_CMP_STATUS_QW == EXTOLL_CMP_ST_QW &&
	      EXTOLL_CMP_CPL_QW == EXTOLL_CMP_ST_QW &&
	      EXTOLL_CMP_NODE_QW == EXTOLL_CMP_ST_QW &&
	      EXTOLL_CMP_DATA_QW != EXTOLL_CMP_ST_QW);

#define EXTOLL_RRA_TIMEOUT_MIN_US	10
#define EXTOLL_RRA_TIMEOUT_MAX_US	1000000

unsigned int extoll_rra_timeout = 5000;
module_param_named(rra_timeout_us, extoll_rra_timeout, uint, 0644);
MODULE_PARM_DESC(rra_timeout_us,
		 "Time in us to wait for a remote register access or config completion (default 5000, 10..1000000)");

/*
 * In co-simulation the guest's clock runs at wall-clock pace while the
 * simulated fabric runs a thousand times slower than hardware, and slower
 * still on a loaded machine (measured: 6,600 world cycles per second with the
 * machine's two cores shared by four simulations): rra_timeout_us of guest time
 * can then be fewer cycles than a request needs. A request that is unanswered
 * after rra_timeout_us waits on until the NIC's own clock (info.cycles) has
 * also counted rra_grace_cycles more cycles: a bound in the device's time.
 * 0 (the default, for hardware): no grace.
 */
static unsigned int extoll_rra_grace;
module_param_named(rra_grace_cycles, extoll_rra_grace, uint, 0644);
MODULE_PARM_DESC(rra_grace_cycles,
		 "After rra_timeout_us without an answer, wait until the NIC has counted this many more clock cycles (default 0: no grace; for simulation, where guest time and device time are unrelated; at most 100000000)");
#define EXTOLL_RRA_GRACE_MAX		100000000U

/* Register addresses an RRA request can carry (rra.req.addr). */
#define EXTOLL_RRA_ADDR_LIMIT	(1U << EXTOLL_RRA_REQ_ADDR_WIDTH)

/* Source routes: 7 hops of 3 bits. */
#define EXTOLL_ROUTE_BITS	(EXTOLL_ROUTE_HOPS * EXTOLL_ROUTE_HOP_BITS)

/**
 * extoll_rra_timeout_us() - the current RRA timeout, clamped to its range
 *
 * Return: microseconds.
 */
unsigned int extoll_rra_timeout_us(void)
{
	return clamp_t(unsigned int, READ_ONCE(extoll_rra_timeout),
		       EXTOLL_RRA_TIMEOUT_MIN_US, EXTOLL_RRA_TIMEOUT_MAX_US);
}
EXPORT_SYMBOL_GPL(extoll_rra_timeout_us);

static u32 extoll_rra_reg(struct extoll_dev *edev, u32 reg)
{
	return edev->rra_off + reg;
}

/* Load the request registers and launch it. Called under rra_lock. */
static void extoll_rra_launch(struct extoll_dev *edev,
			      const struct extoll_rra_op *op, u16 seq)
{
	u64 req;

	if (op->op != EXTOLL_RRA_OP_READ)
		extoll_wr(edev, extoll_rra_reg(edev, EXTOLL_RRA_WDATA), op->wdata);
	if (op->op == EXTOLL_RRA_OP_TLP) {
		extoll_wr(edev, extoll_rra_reg(edev, EXTOLL_RRA_TLP_HDR0), op->hdr0);
		extoll_wr(edev, extoll_rra_reg(edev, EXTOLL_RRA_TLP_HDR1), op->hdr1);
	}
	if (op->srcroute)
		extoll_wr(edev, extoll_rra_reg(edev, EXTOLL_RRA_ROUTE), op->route);

	req = FIELD_PREP(EXTOLL_RRA_REQ_NODE_MASK, op->node) |
	      FIELD_PREP(EXTOLL_RRA_REQ_ADDR_MASK, op->addr) |
	      FIELD_PREP(EXTOLL_RRA_REQ_OP_MASK, op->op) |
	      FIELD_PREP(EXTOLL_RRA_REQ_SRCROUTE_MASK, op->srcroute) |
	      FIELD_PREP(EXTOLL_RRA_REQ_TLP_LEN_MASK, op->tlp_len) |
	      FIELD_PREP(EXTOLL_RRA_REQ_SEQ_MASK, seq);
	/* The upper half (seq) launches: lo-hi order if split. */
	extoll_wr(edev, extoll_rra_reg(edev, EXTOLL_RRA_REQ), req);
}

/*
 * Poll the completion record until it is valid with our seq. A record with
 * another seq is a late answer to an earlier, timed-out request: keep
 * waiting, ours will overwrite it. Called under rra_lock.
 */
static int extoll_rra_poll(struct extoll_dev *edev, u16 seq, u64 deadline,
			   u64 *status)
{
	u32 grace = min(READ_ONCE(extoll_rra_grace), EXTOLL_RRA_GRACE_MAX);
	u64 st, seen = 0, c0 = 0, now;
	bool late = false;

	for (;;) {
		st = le64_to_cpu(READ_ONCE(edev->cmp->qw[EXTOLL_CMP_ST_QW]));
		if (st & EXTOLL_CMP_VALID_MASK) {
			if (FIELD_GET(EXTOLL_CMP_SEQ_MASK, st) == seq) {
				*status = st;
				return 0;
			}
			if (st != seen) {
				edev->rra_stats.stale++;
				seen = st;
			}
		}
		if (!late && ktime_get_mono_fast_ns() > deadline) {
			if (!grace)
				return -ETIMEDOUT;
			late = true;	/* now the device's clock decides */
			c0 = extoll_info_rd(edev, EXTOLL_INFO_CYCLES);
		} else if (late) {
			now = extoll_info_rd(edev, EXTOLL_INFO_CYCLES);
			/* all-ones: the NIC is gone */
			if (now == U64_MAX || c0 == U64_MAX || now - c0 >= grace)
				return -ETIMEDOUT;
		}
		cpu_relax();
	}
}

/* The name of an EXTOLL_RRA_OP_* in messages. */
const char *extoll_rra_op_name(u8 op)
{
	switch (op) {
	case EXTOLL_RRA_OP_READ:
		return "read";
	case EXTOLL_RRA_OP_WRITE:
		return "write";
	}
	return "tlp";
}

/**
 * extoll_rra_exec() - run one RRA request and wait for its completion record
 * @edev: the NIC
 * @op: the request; the results are filled in when it returns 0
 *
 * Atomic-safe, never sleeps.
 *
 * Return: 0 when the completion record arrived (look at op->status),
 * -ETIMEDOUT, -EOPNOTSUPP without an rra block, -ENODEV when the NIC is gone.
 */
int extoll_rra_exec(struct extoll_dev *edev, struct extoll_rra_op *op)
{
	unsigned int timeout_us = extoll_rra_timeout_us();
	unsigned long flags;
	u64 deadline, st = 0;
	u16 seq;
	int ret;

	op->rdata = ~0ULL;
	op->status = EXTOLL_CMP_OK;
	op->cpl_status = EXTOLL_CPL_SC;
	op->answered = 0;
	if (!edev->rra_ready)
		return -EOPNOTSUPP;
	if (READ_ONCE(edev->gone))
		return -ENODEV;

	raw_spin_lock_irqsave(&edev->rra_lock, flags);
	seq = ++edev->rra_seq;
	edev->rra_stats.requests++;
	WRITE_ONCE(edev->cmp->qw[EXTOLL_CMP_ST_QW], 0);
	/* writeq orders the store to coherent memory before the MMIO write. */
	extoll_rra_launch(edev, op, seq);
	deadline = ktime_get_mono_fast_ns() + (u64)timeout_us * NSEC_PER_USEC;
	ret = extoll_rra_poll(edev, seq, deadline, &st);
	if (!ret) {
		dma_rmb();	/* status before data */
		op->rdata = le64_to_cpu(READ_ONCE(edev->cmp->qw[EXTOLL_CMP_DATA_QW]));
		op->status = FIELD_GET(EXTOLL_CMP_STATUS_MASK, st);
		op->cpl_status = FIELD_GET(EXTOLL_CMP_CPL_MASK, st);
		op->answered = FIELD_GET(EXTOLL_CMP_NODE_MASK, st);
		if (op->status != EXTOLL_CMP_OK) {
			op->rdata = ~0ULL;
			edev->rra_stats.errors++;
		}
	} else {
		edev->rra_stats.timeouts++;
	}
	raw_spin_unlock_irqrestore(&edev->rra_lock, flags);

	if (ret) {
		dev_warn_ratelimited(&edev->pdev->dev,
				     "RRA %s to node %u%s addr 0x%x: no completion within %u us (seq %u)\n",
				     extoll_rra_op_name(op->op), op->node,
				     op->srcroute ? " (source-routed)" : "",
				     op->addr, timeout_us, seq);
		extoll_health_rra_timeout(edev, op, seq, timeout_us);
	}
	return ret;
}

/* Is this a usable hop list: in range, and does it eject somewhere? */
static bool extoll_route_ok(u64 route)
{
	unsigned int i;

	if (route >> EXTOLL_ROUTE_BITS)
		return false;
	for (i = 0; i < EXTOLL_ROUTE_HOPS; i++)
		if (((route >> (i * EXTOLL_ROUTE_HOP_BITS)) & 7) ==
		    EXTOLL_ROUTE_PORT_EJECT)
			return true;
	return false;
}

/**
 * extoll_rra_access() - one register read or write at a node, checked
 * @nic: the local NIC
 * @op: op READ or WRITE, node or (srcroute) route, addr, wdata
 * @val: the value read, all-ones on error (may be NULL)
 * @answered: the node id of the NIC that answered (may be NULL)
 *
 * Source routes (srcroute) reach a node before the routing tables exist:
 * 7 hops x 3 bits, hop 0 in bits 2:0, one hop must be 7 (eject).
 * Context: any, never sleeps.
 * Return: as extoll_rra_read().
 */
int extoll_rra_access(struct extoll_dev *nic, struct extoll_rra_op *op,
		      u64 *val, u16 *answered)
{
	int ret;

	if (!nic || !IS_ALIGNED(op->addr, sizeof(u64)) ||
	    op->addr >= EXTOLL_RRA_ADDR_LIMIT ||
	    (op->srcroute && !extoll_route_ok(op->route))) {
		if (val)
			*val = ~0ULL;
		return -EINVAL;
	}

	ret = extoll_rra_exec(nic, op);
	if (val)
		*val = op->rdata;
	if (answered)
		*answered = op->answered;
	if (ret)
		return ret;
	switch (op->status) {
	case EXTOLL_CMP_OK:
		return 0;
	case EXTOLL_CMP_DENIED:	/* the node is held by another node */
		return -EACCES;
	default:
		return -EREMOTEIO;
	}
}

/**
 * extoll_rra_read() - read a register of a remote node (table routing)
 * @nic: the local NIC
 * @node: the remote node
 * @addr: register byte offset at the node, 8-byte aligned
 * @val: the value, all-ones on error
 *
 * Context: any, never sleeps.
 * Return: 0, -ETIMEDOUT, -EREMOTEIO (no such register), -EACCES (a write to a
 * node held by another node, docs/security.md), -EINVAL, -EOPNOTSUPP or -ENODEV.
 */
int extoll_rra_read(struct extoll_dev *nic, u16 node, u32 addr, u64 *val)
{
	struct extoll_rra_op op = {
		.op = EXTOLL_RRA_OP_READ, .node = node, .addr = addr,
	};

	return extoll_rra_access(nic, &op, val, NULL);
}
EXPORT_SYMBOL_GPL(extoll_rra_read);

/**
 * extoll_rra_write() - write a register of a remote node (table routing)
 * @nic: the local NIC
 * @node: the remote node
 * @addr: register byte offset at the node, 8-byte aligned
 * @val: the value
 *
 * The write is acknowledged by the node; this returns after the ack.
 * Context: any, never sleeps.
 * Return: as extoll_rra_read().
 */
int extoll_rra_write(struct extoll_dev *nic, u16 node, u32 addr, u64 val)
{
	struct extoll_rra_op op = {
		.op = EXTOLL_RRA_OP_WRITE, .node = node, .addr = addr,
		.wdata = val,
	};

	return extoll_rra_access(nic, &op, NULL, NULL);
}
EXPORT_SYMBOL_GPL(extoll_rra_write);

/* Snapshot of the counters for sysfs. */
void extoll_rra_stats_get(struct extoll_dev *edev, struct extoll_rra_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&edev->rra_lock, flags);
	*st = edev->rra_stats;
	raw_spin_unlock_irqrestore(&edev->rra_lock, flags);
}

/**
 * extoll_rra_init() - set up the completion record, if the NIC can do RRA
 * @edev: the NIC, with its register blocks found and bus mastering on
 *
 * A NIC without an rra block (an older RTL) works without remote access.
 *
 * Return: 0, or -ENOMEM / -EIO when the record cannot be allocated.
 */
int extoll_rra_init(struct extoll_dev *edev)
{
	struct device *dev = &edev->pdev->dev;
	int ret;

	raw_spin_lock_init(&edev->rra_lock);
	if (edev->rra_off == EXTOLL_NO_BLOCK) {
		dev_info(dev, "no rra register block: remote access unavailable\n");
		return 0;
	}

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret) {
		ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
		if (ret) {
			dev_err(dev, "no usable DMA mask (64 or 32 bit): %d\n", ret);
			return ret;
		}
	}

	edev->cmp = dma_alloc_coherent(dev, sizeof(*edev->cmp), &edev->cmp_dma,
				       GFP_KERNEL);
	if (!edev->cmp) {
		dev_err(dev, "cannot allocate the RRA completion record\n");
		return -ENOMEM;
	}

	extoll_wr(edev, extoll_rra_reg(edev, EXTOLL_RRA_CMP_ADDR), edev->cmp_dma);
	edev->rra_ready = true;
	dev_dbg(dev, "RRA completion record at %pad\n", &edev->cmp_dma);
	return 0;
}

/**
 * extoll_rra_teardown() - free the completion record
 * @edev: the NIC, with bus mastering already off
 *
 * A late completion of a timed-out request may still be on its way, so the
 * record is freed only after pci_clear_master() (a zero cmp_addr would
 * point the NIC at bus address 0 instead).
 */
void extoll_rra_teardown(struct extoll_dev *edev)
{
	if (!edev->cmp)
		return;
	edev->rra_ready = false;
	dma_free_coherent(&edev->pdev->dev, sizeof(*edev->cmp), edev->cmp,
			  edev->cmp_dma);
	edev->cmp = NULL;
}
