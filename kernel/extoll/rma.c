// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: one-sided put and get through the RMA unit (docs/rma.md,
 * docs/kernel.md "RMA").
 *
 * Buffers. A registered buffer is DMA-coherent memory the driver allocates
 * for an open file of /dev/extollN (2 MiB at most, 4 MiB per file); user
 * space maps it with mmap() and names it by handle and offset. Its bus
 * address leaves the kernel only for a region exposed to peers
 * (rma_expose.c: what their descriptors must name). A buffer lives while the file lists it,
 * a mapping of it exists or a transfer uses it (kref), so neither munmap()
 * nor EXTOLL_IOC_RMA_UNREG during a transfer frees memory the NIC may
 * still write.
 *
 * Transfers. EXTOLL_IOC_RMA_POST checks everything first - length 4..1 MiB
 * and a multiple of 4, buffer range, the remote side (a bus address at a
 * node, 4-byte aligned, below 2^43, not this node; or a memory BAR of a
 * device in an attached node's PCI domain, resolved here to the bus address
 * the node's PCI hierarchy assigned) - and only then touches the NIC: a
 * refused transfer writes nothing. A posted descriptor carries a 16-bit
 * cookie (a slot of the NIC's table and a generation) and always asks for
 * the requester notification: the RMA unit writes its record into this
 * NIC's notify window at EXTOLL_NQ_WIN_RMA_OFF, the notification queue turns
 * it into an entry, and notify.c hands every entry at that offset or above
 * to extoll_rma_notify(), in atomic context. Waiters are woken from an
 * irq_work, outside the ring's raw spinlock.
 *
 * Life cycle. A transfer is in the NIC's slot table from post to its
 * notification and on its file's list from post until EXTOLL_IOC_RMA_WAIT
 * reaps it, both under rma.lock. A file closed with transfers in flight
 * leaves them to the table (orphans, freed by their notification or by the
 * NIC's removal after bus mastering is off).
 */
#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/iopoll.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "extoll.h"
#include "extoll_compat.h"

static_assert(EXTOLL_RMA_RES_OK == EXTOLL_RMA_ST_OK &&
	      EXTOLL_RMA_RES_RD_ERR == EXTOLL_RMA_ST_RD_ERR &&
	      EXTOLL_RMA_RES_BAD_DESC == EXTOLL_RMA_ST_BAD_DESC &&
	      EXTOLL_RMA_RES_WR_ERR == EXTOLL_RMA_ST_WR_ERR);
static_assert(EXTOLL_RMA_SLOTS <= BIT(EXTOLL_RMA_NOTI_COOKIE_WIDTH));

/* Cookie: generation above the slot index; never 0 (0 means "any"). */
#define EXTOLL_RMA_SLOT_BITS	ilog2(EXTOLL_RMA_SLOTS)
#define EXTOLL_RMA_GEN_MASK	(U16_MAX >> EXTOLL_RMA_SLOT_BITS)

/* Offset of the completer records in the window (requester: + 0). */
#define EXTOLL_RMA_CNOTI_OFF	0x10

/* A full descriptor FIFO: how long a post waits for room. */
#define EXTOLL_RMA_FULL_WAIT_US	10000

struct extoll_rma_buf {
	struct kref ref;
	struct device *dev;	/* get_device(): dma_free_coherent() after unbind */
	struct list_head list;	/* extoll_rma_file.bufs, under its lock */
	void *cpu;
	dma_addr_t dma;
	size_t size;
	u32 handle;
};

struct extoll_rma_op {
	struct list_head list;		/* extoll_rma_file.ops, under rma.lock */
	struct extoll_rma_file *file;	/* NULL: orphan */
	struct extoll_rma_buf *buf;	/* a reference */
	u16 cookie;
	bool done;
	u8 status;
	u32 len;
	ktime_t posted, completed;
};

static void extoll_rma_buf_free(struct kref *ref)
{
	struct extoll_rma_buf *buf = container_of(ref, struct extoll_rma_buf, ref);

	dma_free_coherent(buf->dev, buf->size, buf->cpu, buf->dma);
	put_device(buf->dev);
	kfree(buf);
}

void extoll_rma_buf_put(struct extoll_rma_buf *buf)
{
	kref_put(&buf->ref, extoll_rma_buf_free);
}

static void extoll_rma_op_free(struct extoll_rma_op *op)
{
	extoll_rma_buf_put(op->buf);
	kfree(op);
}

static void extoll_rma_file_wake(struct irq_work *work)
{
	struct extoll_rma_file *f = container_of(work, struct extoll_rma_file,
						 wake);

	wake_up_interruptible_all(&f->wq);
}

/**
 * extoll_rma_file_init() - the RMA state of a newly opened file
 * @f: zeroed
 */
void extoll_rma_file_init(struct extoll_rma_file *f)
{
	mutex_init(&f->lock);
	INIT_LIST_HEAD(&f->bufs);
	INIT_LIST_HEAD(&f->ops);
	init_waitqueue_head(&f->wq);
	init_irq_work(&f->wake, extoll_rma_file_wake);
}

/**
 * extoll_rma_file_release() - the file is closed
 * @nic: its NIC, or NULL if the NIC is gone (its transfers were orphaned
 *	 then, extoll_rma_detach_files())
 * @f: the file's RMA state
 *
 * Transfers still in flight stay in the NIC's table; the buffers go when
 * nothing uses them any more.
 */
void extoll_rma_file_release(struct extoll_dev *nic, struct extoll_rma_file *f)
{
	struct extoll_rma_op *op, *tmp;
	struct extoll_rma_buf *buf, *btmp;
	unsigned long flags;
	LIST_HEAD(reap);

	if (nic)
		raw_spin_lock_irqsave(&nic->rma.lock, flags);
	list_for_each_entry_safe(op, tmp, &f->ops, list) {
		list_del_init(&op->list);
		if (op->done)
			list_add(&op->list, &reap);
		else
			op->file = NULL;
	}
	f->nr_ops = 0;
	if (nic)
		raw_spin_unlock_irqrestore(&nic->rma.lock, flags);
	irq_work_sync(&f->wake);
	if (nic && f->poll_held)
		extoll_notify_rma_hold(nic, false);
	f->poll_held = false;

	list_for_each_entry_safe(op, tmp, &reap, list)
		extoll_rma_op_free(op);
	if (nic)
		extoll_rma_expose_revoke(nic, f, NULL);
	list_for_each_entry_safe(buf, btmp, &f->bufs, list) {
		list_del(&buf->list);
		extoll_rma_buf_put(buf);
	}
	f->bytes = 0;
}

/* ---- buffers */

/* Under f->lock. */
static struct extoll_rma_buf *extoll_rma_buf_find(struct extoll_rma_file *f,
						  u32 handle)
{
	struct extoll_rma_buf *buf;

	list_for_each_entry(buf, &f->bufs, list)
		if (buf->handle == handle)
			return buf;
	return NULL;
}

static u64 extoll_rma_mmap_off(u32 handle)
{
	return (u64)handle * EXTOLL_RMA_BUF_MAX;
}

long extoll_rma_ioc_reg(struct extoll_dev *nic, struct extoll_rma_file *f,
			void __user *arg)
{
	struct extoll_ioc_rma_reg req;
	struct extoll_rma_buf *buf;
	u32 handle;
	size_t size;
	int ret = 0;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (!req.size || req.size > EXTOLL_RMA_BUF_MAX || req.handle ||
	    req.mmap_off)
		return -EINVAL;
	size = PAGE_ALIGN(req.size);

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kref_init(&buf->ref);
	buf->size = size;

	mutex_lock(&f->lock);
	if (f->bytes + size > EXTOLL_RMA_FILE_MAX) {
		ret = -ENOSPC;
		goto out_unlock;
	}
	/* The lowest free handle: mmap offsets stay small. */
	for (handle = 1; extoll_rma_buf_find(f, handle); handle++)
		;
	buf->cpu = dma_alloc_coherent(&nic->pdev->dev, size, &buf->dma,
				      GFP_KERNEL);
	if (!buf->cpu) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	/* The RMA unit reaches 2^43 bytes (pass-through addresses). */
	if (buf->dma + size > BIT_ULL(EXTOLL_RMA_ADDR_BITS)) {
		dma_free_coherent(&nic->pdev->dev, size, buf->cpu, buf->dma);
		dev_warn_ratelimited(&nic->pdev->dev,
				     "RMA: buffer at bus address %pad is above 2^%u, out of the unit's reach\n",
				     &buf->dma, EXTOLL_RMA_ADDR_BITS);
		ret = -ERANGE;
		goto out_unlock;
	}
	buf->dev = get_device(&nic->pdev->dev);
	buf->handle = handle;
	list_add_tail(&buf->list, &f->bufs);
	f->bytes += size;
	/* From the first buffer on, completions are awaited: a fast ring poll. */
	if (!f->poll_held) {
		f->poll_held = true;
		extoll_notify_rma_hold(nic, true);
	}
	mutex_unlock(&f->lock);

	req.size = size;
	req.handle = handle;
	req.mmap_off = extoll_rma_mmap_off(handle);
	/* A caller that cannot learn the handle would leak the buffer. */
	if (copy_to_user(arg, &req, sizeof(req))) {
		extoll_rma_ioc_unreg(nic, f, handle);
		return -EFAULT;
	}
	return 0;

out_unlock:
	mutex_unlock(&f->lock);
	kfree(buf);
	return ret;
}

/**
 * extoll_rma_ioc_unreg() - drop a buffer from the file
 * @nic: the NIC (its regions of the buffer exposed to peers are revoked)
 * @f: the file
 * @handle: the buffer
 *
 * Its memory stays while a mapping or a transfer uses it.
 *
 * Return: 0 or -ENOENT.
 */
long extoll_rma_ioc_unreg(struct extoll_dev *nic, struct extoll_rma_file *f,
			  u32 handle)
{
	struct extoll_rma_buf *buf;

	mutex_lock(&f->lock);
	buf = extoll_rma_buf_find(f, handle);
	if (buf) {
		list_del(&buf->list);
		f->bytes -= buf->size;
	}
	mutex_unlock(&f->lock);
	if (!buf)
		return -ENOENT;
	extoll_rma_expose_revoke(nic, f, buf);
	extoll_rma_buf_put(buf);
	return 0;
}

/**
 * extoll_rma_buf_get() - a registered buffer of the file, referenced
 * @f: the file
 * @handle: the buffer
 * @dma: its bus address
 * @size: its size (whole pages)
 *
 * Return: the buffer (extoll_rma_buf_put() when done) or NULL.
 */
struct extoll_rma_buf *extoll_rma_buf_get(struct extoll_rma_file *f, u32 handle,
					  dma_addr_t *dma, size_t *size)
{
	struct extoll_rma_buf *buf;

	mutex_lock(&f->lock);
	buf = extoll_rma_buf_find(f, handle);
	if (buf) {
		kref_get(&buf->ref);
		*dma = buf->dma;
		*size = buf->size;
	}
	mutex_unlock(&f->lock);
	return buf;
}

static void extoll_rma_vm_open(struct vm_area_struct *vma)
{
	struct extoll_rma_buf *buf = vma->vm_private_data;

	kref_get(&buf->ref);
}

static void extoll_rma_vm_close(struct vm_area_struct *vma)
{
	extoll_rma_buf_put(vma->vm_private_data);
}

static const struct vm_operations_struct extoll_rma_vm_ops = {
	.open = extoll_rma_vm_open,
	.close = extoll_rma_vm_close,
};

/**
 * extoll_rma_mmap() - map a registered buffer
 * @f: the file
 * @vma: offset: the buffer's mmap_off; at most its size; MAP_SHARED
 *
 * Return: 0, -EINVAL (not shared, no buffer at that offset, too long), or the error of
 * dma_mmap_coherent().
 */
int extoll_rma_mmap(struct extoll_rma_file *f, struct vm_area_struct *vma)
{
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	size_t len = vma->vm_end - vma->vm_start;
	struct extoll_rma_buf *buf;
	int ret;

	/* Shared only: a private copy would not be what the NIC reads and writes. */
	if (!(vma->vm_flags & VM_SHARED) || off % EXTOLL_RMA_BUF_MAX ||
	    off / EXTOLL_RMA_BUF_MAX > U32_MAX)
		return -EINVAL;
	mutex_lock(&f->lock);
	buf = extoll_rma_buf_find(f, off / EXTOLL_RMA_BUF_MAX);
	if (!buf || len > buf->size) {
		mutex_unlock(&f->lock);
		return -EINVAL;
	}
	/* dma_mmap_coherent() takes the offset into the buffer from vm_pgoff. */
	vma->vm_pgoff = 0;
	ret = dma_mmap_coherent(buf->dev, vma, buf->cpu, buf->dma, buf->size);
	if (!ret) {
		vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
		vma->vm_private_data = buf;
		vma->vm_ops = &extoll_rma_vm_ops;
		kref_get(&buf->ref);
	}
	mutex_unlock(&f->lock);
	return ret;
}

/* ---- posting */

/* The remote side of a transfer, resolved. */
struct extoll_rma_remote {
	u16 node;
	u64 addr;
	u64 cnoti;	/* completer notification address at the destination */
};

static int extoll_rma_check_addr(u64 addr, u64 len)
{
	if (!IS_ALIGNED(addr, 4))
		return -EINVAL;
	if (addr >= BIT_ULL(EXTOLL_RMA_ADDR_BITS) ||
	    len > BIT_ULL(EXTOLL_RMA_ADDR_BITS) - addr)
		return -ERANGE;
	return 0;
}

/*
 * A memory BAR of a device in an attached node's PCI domain: the node, and
 * the bus address there that the node's hierarchy assigned (the address the
 * node's root port forwards to the device).
 */
static int extoll_rma_resolve_pci(struct extoll_dev *nic,
				  const struct extoll_ioc_rma_post *req,
				  struct extoll_rma_remote *rem)
{
	struct device *dev = &nic->pdev->dev;
	struct pci_bus_region region;
	struct pci_dev *pdev;
	struct resource *res;
	int state = -1, ret;
	bool found = false;
	struct extoll_naa *priv;

	if (req->domain < 0 || req->bar >= PCI_STD_NUM_BARS)
		return -EINVAL;
	mutex_lock(&nic->naa_lock);
	list_for_each_entry(priv, &nic->naa_list, list) {
		if (READ_ONCE(priv->domain) == req->domain) {
			rem->node = priv->naa.node;
			state = priv->state;
			found = true;
			break;
		}
	}
	mutex_unlock(&nic->naa_lock);
	if (!found) {
		dev_dbg(dev, "RMA: PCI domain %04x is not an attached node's\n",
			req->domain);
		return -ENOENT;
	}
	if (state != EXTOLL_NAA_ATTACHED)
		return state == EXTOLL_NAA_DEAD ? -EHOSTUNREACH : -ENXIO;

	pdev = pci_get_domain_bus_and_slot(req->domain, req->bus, req->devfn);
	if (!pdev)
		return -ENXIO;
	res = &pdev->resource[req->bar];
	ret = 0;
	if (resource_type(res) != IORESOURCE_MEM || !resource_size(res) ||
	    !res->parent) {
		ret = -EINVAL;		/* no memory BAR there, or not assigned */
		goto out;
	}
	if (req->addr >= resource_size(res) ||
	    req->len > resource_size(res) - req->addr ||
	    ((req->flags & EXTOLL_RMA_F_NOTI_CMP) && req->op == EXTOLL_RMA_PUT &&
	     (req->cnoti >= resource_size(res) ||
	      resource_size(res) - req->cnoti < sizeof(struct extoll_rma_noti)))) {
		ret = -ERANGE;
		goto out;
	}
	pcibios_resource_to_bus(pdev->bus, &region, res);
	rem->addr = region.start + req->addr;
	rem->cnoti = region.start + req->cnoti;
out:
	pci_dev_put(pdev);
	return ret;
}

/* A node answers as an EXTOLL NIC with its node id (one RRA read). */
static int extoll_rma_node_reachable(struct extoll_dev *nic, u16 node)
{
	u64 id;
	int ret;

	ret = extoll_rra_read(nic, node, EXTOLL_NODE_INFO_ID, &id);
	if (ret == -ETIMEDOUT)
		return -EHOSTUNREACH;
	if (ret)
		return ret;
	if (FIELD_GET(EXTOLL_INFO_ID_MAGIC_MASK, id) != EXTOLL_INFO_ID_MAGIC_RESET ||
	    FIELD_GET(EXTOLL_INFO_ID_NODE_ID_MASK, id) != node)
		return -EHOSTUNREACH;
	return 0;
}

/* Allocate a cookie for @op and link it to @f. */
static int extoll_rma_slot_get(struct extoll_dev *nic, struct extoll_rma_file *f,
			       struct extoll_rma_op *op)
{
	struct extoll_rma *rma = &nic->rma;
	unsigned long flags;
	unsigned int i, s;
	int ret = -EBUSY;

	raw_spin_lock_irqsave(&rma->lock, flags);
	if (f->nr_ops >= EXTOLL_RMA_PENDING_MAX) {
		ret = -EAGAIN;
		goto out;
	}
	for (i = 0; i < EXTOLL_RMA_SLOTS; i++) {
		s = (rma->next + i) % EXTOLL_RMA_SLOTS;
		if (rma->slot[s])
			continue;
		rma->gen[s] = (rma->gen[s] + 1) & EXTOLL_RMA_GEN_MASK;
		if (!rma->gen[s] && !s)
			rma->gen[s] = 1;	/* cookie 0 is "any" */
		op->cookie = rma->gen[s] << EXTOLL_RMA_SLOT_BITS | s;
		rma->slot[s] = op;
		rma->next = s + 1;
		op->file = f;
		list_add_tail(&op->list, &f->ops);
		f->nr_ops++;
		ret = 0;
		break;
	}
out:
	raw_spin_unlock_irqrestore(&rma->lock, flags);
	return ret;
}

/* The post failed: the op was never seen by the NIC. */
static void extoll_rma_slot_put(struct extoll_dev *nic, struct extoll_rma_op *op)
{
	struct extoll_rma *rma = &nic->rma;
	unsigned long flags;

	raw_spin_lock_irqsave(&rma->lock, flags);
	rma->slot[op->cookie % EXTOLL_RMA_SLOTS] = NULL;
	if (op->file) {
		list_del(&op->list);
		op->file->nr_ops--;
	}
	raw_spin_unlock_irqrestore(&rma->lock, flags);
}

static u32 extoll_rma_reg(struct extoll_dev *nic, u32 reg)
{
	return nic->rma_off + reg;
}

static void extoll_rma_count(struct extoll_rma *rma, u64 *counter)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rma->lock, flags);
	(*counter)++;
	raw_spin_unlock_irqrestore(&rma->lock, flags);
}

/* Write the descriptor and post it; -EBUSY while the FIFO stays full. */
static int extoll_rma_hw_post(struct extoll_dev *nic, u16 src_node, u64 src,
			      u16 dst_node, u64 dst, u64 len_reg, u64 cnoti)
{
	struct extoll_rma *rma = &nic->rma;
	u64 status;
	int ret;

	mutex_lock(&rma->post_lock);
	ret = read_poll_timeout(extoll_rd, status,
				status == U64_MAX ||
				FIELD_GET(EXTOLL_RMA_STATUS_FREE_MASK, status),
				20, EXTOLL_RMA_FULL_WAIT_US, false, nic,
				extoll_rma_reg(nic, EXTOLL_RMA_STATUS));
	if (status == U64_MAX) {
		ret = -EIO;		/* the NIC reads all-ones: gone */
	} else if (ret) {
		extoll_rma_count(rma, &rma->stats.full);
		ret = -EBUSY;
	} else {
		extoll_wr(nic, extoll_rma_reg(nic, EXTOLL_RMA_D_SRC),
			  FIELD_PREP(EXTOLL_RMA_D_SRC_ADDR_MASK, src) |
			  FIELD_PREP(EXTOLL_RMA_D_SRC_NODE_MASK, src_node));
		extoll_wr(nic, extoll_rma_reg(nic, EXTOLL_RMA_D_DST),
			  FIELD_PREP(EXTOLL_RMA_D_DST_ADDR_MASK, dst) |
			  FIELD_PREP(EXTOLL_RMA_D_DST_NODE_MASK, dst_node));
		extoll_wr(nic, extoll_rma_reg(nic, EXTOLL_RMA_D_LEN), len_reg);
		extoll_wr(nic, extoll_rma_reg(nic, EXTOLL_RMA_D_RNOTI),
			  nic->notify.win_base + EXTOLL_NQ_WIN_RMA_OFF);
		extoll_wr(nic, extoll_rma_reg(nic, EXTOLL_RMA_D_CNOTI), cnoti);
		extoll_wr(nic, extoll_rma_reg(nic, EXTOLL_RMA_POST),
			  EXTOLL_RMA_POST_GO_MASK);
		extoll_rma_count(rma, &rma->stats.posted);
	}
	mutex_unlock(&rma->post_lock);
	return ret;
}

long extoll_rma_ioc_post(struct extoll_dev *nic, struct extoll_rma_file *f,
			 void __user *arg)
{
	struct extoll_ioc_rma_post req;
	struct extoll_rma_remote rem = { };
	struct extoll_rma_buf *buf;
	struct extoll_rma_op *op;
	bool put, noti_cmp;
	u16 own = nic->info.node_id, cookie;
	u64 local, len_reg;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;

	/* The descriptor itself. */
	if ((req.op != EXTOLL_RMA_PUT && req.op != EXTOLL_RMA_GET) ||
	    req.flags & ~EXTOLL_RMA_F_NOTI_CMP || req.rsvd0 || req.rsvd[0] ||
	    req.rsvd[1] || req.cookie || req.bus_addr)
		return -EINVAL;
	if (req.len < 4 || req.len > EXTOLL_RMA_LEN_MAX || req.len % 4)
		return -EINVAL;
	put = req.op == EXTOLL_RMA_PUT;
	noti_cmp = req.flags & EXTOLL_RMA_F_NOTI_CMP;
	if (noti_cmp && put && !IS_ALIGNED(req.cnoti, 16))
		return -EINVAL;
	if (noti_cmp && !put && req.cnoti)
		return -EINVAL;		/* a get's completer is this node */

	/* The remote side. */
	switch (req.remote) {
	case EXTOLL_RMA_REMOTE_ADDR:
		if (req.node == own || req.domain || req.bus || req.devfn ||
		    req.bar)
			return -EINVAL;
		rem.node = req.node;
		rem.addr = req.addr;
		rem.cnoti = req.cnoti;
		break;
	case EXTOLL_RMA_REMOTE_PCI:
		if (req.node)
			return -EINVAL;
		if (!IS_ALIGNED(req.addr, 4))
			return -EINVAL;
		ret = extoll_rma_resolve_pci(nic, &req, &rem);
		if (ret)
			return ret;
		break;
	default:
		return -EINVAL;
	}
	ret = extoll_rma_check_addr(rem.addr, req.len);
	if (!ret && noti_cmp && put)
		ret = extoll_rma_check_addr(rem.cnoti, sizeof(struct extoll_rma_noti));
	if (ret)
		return ret;

	/* The local buffer: a reference for the transfer. */
	mutex_lock(&f->lock);
	buf = extoll_rma_buf_find(f, req.handle);
	if (buf && (req.offset >= buf->size || req.len > buf->size - req.offset))
		ret = -ERANGE;
	else if (!buf)
		ret = -ENOENT;
	else
		kref_get(&buf->ref);
	mutex_unlock(&f->lock);
	if (ret)
		return ret;
	local = buf->dma + req.offset;

	/* Only now the hardware: the unit, the node. */
	if (nic->rma_off == EXTOLL_NO_BLOCK) {
		ret = -ENODEV;		/* "no RMA unit" */
		goto err_buf;
	}
	if (!nic->notify.ready) {
		ret = -EOPNOTSUPP;	/* no notification queue: no completions */
		goto err_buf;
	}
	if (req.remote == EXTOLL_RMA_REMOTE_ADDR) {
		ret = extoll_rma_node_reachable(nic, rem.node);
		if (ret)
			goto err_buf;
	}

	op = kzalloc(sizeof(*op), GFP_KERNEL);
	if (!op) {
		ret = -ENOMEM;
		goto err_buf;
	}
	op->buf = buf;
	op->len = req.len;
	ret = extoll_rma_slot_get(nic, f, op);
	if (ret)
		goto err_op;

	/* Once posted, the op may complete and be reaped at any time. */
	cookie = op->cookie;
	len_reg = FIELD_PREP(EXTOLL_RMA_D_LEN_LEN_MASK, req.len) |
		  FIELD_PREP(EXTOLL_RMA_D_LEN_COOKIE_MASK, cookie) |
		  EXTOLL_RMA_D_LEN_NOTI_REQ_MASK |
		  (noti_cmp ? EXTOLL_RMA_D_LEN_NOTI_CMP_MASK : 0);
	if (noti_cmp && !put)
		rem.cnoti = nic->notify.win_base + EXTOLL_NQ_WIN_RMA_OFF +
			    EXTOLL_RMA_CNOTI_OFF;
	op->posted = ktime_get();
	if (put)
		ret = extoll_rma_hw_post(nic, own, local, rem.node, rem.addr,
					 len_reg, noti_cmp ? rem.cnoti : 0);
	else
		ret = extoll_rma_hw_post(nic, rem.node, rem.addr, own, local,
					 len_reg, noti_cmp ? rem.cnoti : 0);
	if (ret) {
		extoll_rma_slot_put(nic, op);
		goto err_op;
	}

	req.node = rem.node;
	req.cookie = cookie;
	req.bus_addr = rem.addr;
	/* Posted: the transfer runs whether or not the caller learns its cookie. */
	return copy_to_user(arg, &req, sizeof(req)) ? -EFAULT : 0;

err_op:
	kfree(op);
err_buf:
	extoll_rma_buf_put(buf);
	return ret;
}

/* ---- completions */

/**
 * extoll_rma_notify() - an RMA notification record arrived
 * @nic: the NIC
 * @e: its notification-queue entry (data: dword 0 of the record)
 *
 * Called by the ring's drain, under its raw spinlock, for every entry at
 * EXTOLL_NQ_WIN_RMA_OFF or above.
 */
void extoll_rma_notify(struct extoll_dev *nic, const struct extoll_notify_entry *e)
{
	struct extoll_rma *rma = &nic->rma;
	u16 cookie = FIELD_GET(EXTOLL_RMA_NOTI_COOKIE_MASK, e->data);
	u8 status = FIELD_GET(EXTOLL_RMA_NOTI_STATUS_MASK, e->data);
	bool cmp = FIELD_GET(EXTOLL_RMA_NOTI_KIND_MASK, e->data) == EXTOLL_RMA_KIND_CMP;
	struct extoll_rma_op *op;
	unsigned int s = cookie % EXTOLL_RMA_SLOTS;

	raw_spin_lock(&rma->lock);
	if (cmp) {
		/* Our own gets' completer records, or another requester's put. */
		rma->stats.cmp_notis++;
		goto out;
	}
	op = rma->slot[s];
	if (!op || op->cookie != cookie) {
		rma->stats.stale++;
		goto out;
	}
	rma->slot[s] = NULL;
	op->done = true;
	op->status = status;
	op->completed = ktime_get();
	if (status == EXTOLL_RMA_ST_OK)
		rma->stats.done++;
	else
		rma->stats.errors++;
	if (op->file) {
		irq_work_queue(&op->file->wake);
	} else {
		/* Orphan: the buffer reference is the last that matters. */
		list_add(&op->list, &rma->reap);
		irq_work_queue(&rma->reap_work);
	}
out:
	raw_spin_unlock(&rma->lock);
}

/* Orphans completed: free them outside the ring's lock. */
static void extoll_rma_reap(struct work_struct *work)
{
	struct extoll_rma *rma = container_of(work, struct extoll_rma, reap_wq);
	struct extoll_rma_op *op, *tmp;
	unsigned long flags;
	LIST_HEAD(reap);

	raw_spin_lock_irqsave(&rma->lock, flags);
	list_splice_init(&rma->reap, &reap);
	raw_spin_unlock_irqrestore(&rma->lock, flags);
	list_for_each_entry_safe(op, tmp, &reap, list)
		extoll_rma_op_free(op);
}

static void extoll_rma_reap_kick(struct irq_work *work)
{
	struct extoll_rma *rma = container_of(work, struct extoll_rma, reap_work);

	schedule_work(&rma->reap_wq);
}

/* A completed op of @f (@cookie, or any if 0), unlinked; under rma.lock. */
static struct extoll_rma_op *extoll_rma_take(struct extoll_rma_file *f,
					     u16 cookie, bool *known)
{
	struct extoll_rma_op *op;

	*known = !cookie && !list_empty(&f->ops);
	list_for_each_entry(op, &f->ops, list) {
		if (cookie && op->cookie != cookie)
			continue;
		*known = true;
		if (!op->done)
			continue;
		list_del(&op->list);
		f->nr_ops--;
		return op;
	}
	return NULL;
}

static bool extoll_rma_wait_cond(struct extoll_dev *nic, struct extoll_rma_file *f,
				 u16 cookie, struct extoll_rma_op **op, bool *known)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&nic->rma.lock, flags);
	*op = extoll_rma_take(f, cookie, known);
	raw_spin_unlock_irqrestore(&nic->rma.lock, flags);
	return *op || !*known;
}

long extoll_rma_ioc_wait(struct extoll_dev *nic, struct extoll_rma_file *f,
			 void __user *arg)
{
	struct extoll_ioc_rma_wait req;
	struct extoll_rma_op *op = NULL;
	bool known;
	long left;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.rsvd0 || req.status || req.len || req.ns)
		return -EINVAL;

	left = wait_event_interruptible_timeout(f->wq,
			extoll_rma_wait_cond(nic, f, req.cookie, &op, &known),
			msecs_to_jiffies(req.timeout_ms));
	if (!op) {
		if (!known)
			return -ENOENT;		/* no such transfer of this file */
		return left < 0 ? left : -ETIMEDOUT;
	}

	req.cookie = op->cookie;
	req.status = op->status;
	req.len = op->len;
	req.ns = ktime_to_ns(ktime_sub(op->completed, op->posted));
	switch (op->status) {
	case EXTOLL_RMA_ST_OK:
		ret = 0;
		break;
	case EXTOLL_RMA_ST_BAD_DESC:
		ret = -EINVAL;
		break;
	default:
		ret = -EIO;
		break;
	}
	extoll_rma_op_free(op);
	if (copy_to_user(arg, &req, sizeof(req)))
		return -EFAULT;
	return ret;
}

/**
 * extoll_rma_poll() - POLLIN: a transfer of @f has completed
 * @nic: the NIC, or NULL if gone
 * @f: the file
 * @file: its struct file
 * @wait: the poll table
 *
 * Return: the poll mask.
 */
__poll_t extoll_rma_poll(struct extoll_dev *nic, struct extoll_rma_file *f,
			 struct file *file, poll_table *wait)
{
	struct extoll_rma_op *op;
	unsigned long flags;
	__poll_t mask = 0;

	poll_wait(file, &f->wq, wait);
	if (!nic)
		return EPOLLERR | EPOLLHUP;
	raw_spin_lock_irqsave(&nic->rma.lock, flags);
	list_for_each_entry(op, &f->ops, list)
		if (op->done)
			mask = EPOLLIN | EPOLLRDNORM;
	raw_spin_unlock_irqrestore(&nic->rma.lock, flags);
	return mask;
}

/* ---- the NIC */

/**
 * extoll_rma_init() - the RMA state of a NIC
 * @nic: the NIC, register blocks found
 */
void extoll_rma_init(struct extoll_dev *nic)
{
	struct extoll_rma *rma = &nic->rma;

	raw_spin_lock_init(&rma->lock);
	mutex_init(&rma->post_lock);
	INIT_LIST_HEAD(&rma->reap);
	INIT_WORK(&rma->reap_wq, extoll_rma_reap);
	init_irq_work(&rma->reap_work, extoll_rma_reap_kick);
	if (nic->rma_off == EXTOLL_NO_BLOCK)
		dev_info(&nic->pdev->dev,
			 "no rma register block: no one-sided put/get (RMA ioctls fail with ENODEV)\n");
}

/**
 * extoll_rma_detach_files() - the files lose the NIC
 * @nic: the NIC; no ioctl or release runs (the cdev's rwsem held for write)
 *
 * Transfers in flight become orphans, so a file released from now on does
 * not touch the NIC's table; completed ones stay on their files' lists.
 */
void extoll_rma_detach_files(struct extoll_dev *nic)
{
	struct extoll_rma *rma = &nic->rma;
	struct extoll_rma_op *op;
	unsigned long flags;
	unsigned int s;

	raw_spin_lock_irqsave(&rma->lock, flags);
	for (s = 0; s < EXTOLL_RMA_SLOTS; s++) {
		op = rma->slot[s];
		if (!op || !op->file)
			continue;
		list_del_init(&op->list);
		op->file->nr_ops--;
		op->file = NULL;
	}
	raw_spin_unlock_irqrestore(&rma->lock, flags);
}

/**
 * extoll_rma_teardown() - free the transfers that never completed
 * @nic: the NIC, notification queue stopped, bus mastering off
 */
void extoll_rma_teardown(struct extoll_dev *nic)
{
	struct extoll_rma *rma = &nic->rma;
	unsigned int s, n = 0;

	irq_work_sync(&rma->reap_work);
	flush_work(&rma->reap_wq);
	for (s = 0; s < EXTOLL_RMA_SLOTS; s++) {
		if (!rma->slot[s])
			continue;
		WARN_ON(rma->slot[s]->file);
		extoll_rma_op_free(rma->slot[s]);
		rma->slot[s] = NULL;
		n++;
	}
	extoll_rma_reap(&rma->reap_wq);
	if (n)
		dev_warn(&nic->pdev->dev,
			 "RMA: %u transfer(s) without a notification at removal\n", n);
}

void extoll_rma_stats_get(struct extoll_dev *nic, struct extoll_rma_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&nic->rma.lock, flags);
	*st = nic->rma.stats;
	raw_spin_unlock_irqrestore(&nic->rma.lock, flags);
}
