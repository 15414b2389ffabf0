// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: regions of registered buffers exposed to other nodes' RMA
 * units, host to host (docs/rma.md "Host to host", docs/security.md).
 *
 * On a host NIC the dma block's window table polices the SMFU requests
 * other nodes' RMA units send into host memory (nic_smfu_gate): while
 * dma.ctrl.enforce is set, a request passes only inside a window that
 * allows it; a refused write is dropped, a refused read answered UR, so the
 * requester's transfer ends WR_ERR / RD_ERR and nothing is written here.
 * The driver sets enforce at probe with window 0 opened for writes over the
 * RMA part of the notify window (peers' completer records become
 * notification-queue entries) and every other window off: nothing of host
 * memory is open to a peer until a file exposes it.
 *
 * EXTOLL_IOC_RMA_EXPOSE opens one window (1 .. EXTOLL_DMA_WIN_BASE_COUNT -
 * 1) over whole pages of a registered buffer and holds a reference to the
 * buffer while it is open; EXTOLL_IOC_RMA_UNEXPOSE, EXTOLL_IOC_RMA_UNREG of
 * the buffer, closing the file and the NIC's removal close it again (the
 * permissions first, read back so the write has reached the NIC) before the
 * reference is dropped.
 */
#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/uaccess.h>

#include "extoll.h"

/* Window 0: completer records into the notification queue. */
#define EXTOLL_EXPO_NOTI_WIN	0
#define EXTOLL_EXPO_NWIN	EXTOLL_DMA_WIN_BASE_COUNT

static_assert(EXTOLL_RMA_EXPOSE_MAX == EXTOLL_EXPO_NWIN - 1);
static_assert(EXTOLL_RMA_EXPOSE_ALIGN == BIT(EXTOLL_DMA_WIN_BASE_BASE_SHIFT));

/* Completer records of peers' puts: after our own requester records. */
#define EXTOLL_EXPO_CNOTI_OFF	0x20

static bool extoll_expo_present(struct extoll_dev *nic)
{
	return nic->dma_off != EXTOLL_NO_BLOCK &&
	       nic->info.role == EXTOLL_ROLE_ENDPOINT;
}

static void extoll_expo_wr(struct extoll_dev *nic, u32 reg, u64 val)
{
	extoll_wr(nic, nic->dma_off + reg, val);
}

/* Window @i over bus addresses [first, last], or off (@rd, @wr false). */
static void extoll_expo_win_set(struct extoll_dev *nic, unsigned int i,
				u64 first, u64 last, bool rd, bool wr)
{
	u64 base = (first & EXTOLL_DMA_WIN_BASE_BASE_MASK) |
		   (rd ? EXTOLL_DMA_WIN_BASE_READ_MASK : 0) |
		   (wr ? EXTOLL_DMA_WIN_BASE_WRITE_MASK : 0);

	if (!rd && !wr) {
		/* Permissions off first, then the range. */
		extoll_expo_wr(nic, EXTOLL_DMA_WIN_BASE_N(i), 0);
		extoll_expo_wr(nic, EXTOLL_DMA_WIN_LIMIT_N(i), 0);
	} else {
		extoll_expo_wr(nic, EXTOLL_DMA_WIN_LIMIT_N(i),
			       last & EXTOLL_DMA_WIN_LIMIT_LIMIT_MASK);
		extoll_expo_wr(nic, EXTOLL_DMA_WIN_BASE_N(i), base);
	}
	/* A read: the posted writes have reached the register file. */
	extoll_rd(nic, nic->dma_off + EXTOLL_DMA_WIN_BASE_N(i));
}

/**
 * extoll_rma_expose_init() - police other nodes' RMA requests into host memory
 * @nic: the NIC, notification queue set up (or not: then no completer
 *	 records from peers)
 */
void extoll_rma_expose_init(struct extoll_dev *nic)
{
	struct extoll_rma_expo *ex = &nic->expo;
	unsigned int i;
	u64 noti;

	mutex_init(&ex->lock);
	ex->next_key = 1;
	if (!extoll_expo_present(nic)) {
		dev_info(&nic->pdev->dev,
			 "no dma block: host memory cannot be exposed to peers' RMA (EXTOLL_IOC_RMA_EXPOSE fails with ENODEV)\n");
		return;
	}
	for (i = 0; i < EXTOLL_EXPO_NWIN; i++)
		extoll_expo_win_set(nic, i, 0, 0, false, false);
	if (nic->notify.ready) {
		noti = nic->notify.win_base;
		extoll_expo_win_set(nic, EXTOLL_EXPO_NOTI_WIN,
				    noti + EXTOLL_NQ_WIN_RMA_OFF,
				    noti + EXTOLL_NQ_WIN_RMA_END - 1, false, true);
	}
	extoll_expo_wr(nic, EXTOLL_DMA_CTRL, EXTOLL_DMA_CTRL_ENFORCE_MASK);
	ex->enforced = true;
}

/* Close window @i and drop its buffer; under ex->lock. */
static void extoll_expo_close(struct extoll_dev *nic, unsigned int i)
{
	struct extoll_rma_expo_win *w = &nic->expo.win[i];

	extoll_expo_win_set(nic, i, 0, 0, false, false);
	extoll_rma_buf_put(w->buf);
	w->buf = NULL;
	w->file = NULL;
	w->key = 0;
}

/* Close the regions of file f (NULL: every file's), only those of buf if given. */
static void extoll_expo_close_matching(struct extoll_dev *nic, struct extoll_rma_file *f,
				       const struct extoll_rma_buf *buf)
{
	struct extoll_rma_expo *ex = &nic->expo;
	unsigned int i;

	if (!ex->enforced)
		return;
	mutex_lock(&ex->lock);
	for (i = 1; i < EXTOLL_EXPO_NWIN; i++)
		if (ex->win[i].file && (!f || ex->win[i].file == f) &&
		    (!buf || ex->win[i].buf == buf))
			extoll_expo_close(nic, i);
	mutex_unlock(&ex->lock);
}

/**
 * extoll_rma_expose_teardown() - revoke every exposed region
 * @nic: the NIC, no file uses it any more (cdev unregistered)
 */
void extoll_rma_expose_teardown(struct extoll_dev *nic)
{
	extoll_expo_close_matching(nic, NULL, NULL);
}

/**
 * extoll_rma_expose_revoke() - revoke a file's exposed regions
 * @nic: the NIC
 * @f: the file
 * @buf: only the regions of this buffer, or NULL: all of the file's
 */
void extoll_rma_expose_revoke(struct extoll_dev *nic, struct extoll_rma_file *f,
			      const struct extoll_rma_buf *buf)
{
	extoll_expo_close_matching(nic, f, buf);
}

/* The request's own fields; 0 or -EINVAL. */
static int extoll_expo_check(const struct extoll_ioc_rma_expose *req)
{
	if (!req->flags ||
	    req->flags & ~(EXTOLL_RMA_EXPOSE_READ | EXTOLL_RMA_EXPOSE_WRITE) ||
	    req->key || req->node || req->rsvd0 || req->addr || req->cnoti ||
	    req->rsvd[0] || req->rsvd[1])
		return -EINVAL;
	if (!req->len || !IS_ALIGNED(req->offset, EXTOLL_RMA_EXPOSE_ALIGN) ||
	    !IS_ALIGNED(req->len, EXTOLL_RMA_EXPOSE_ALIGN))
		return -EINVAL;
	return 0;
}

/* Open a free window for @req over [first, first + len); under ex->lock. */
static int extoll_expo_open(struct extoll_dev *nic, struct extoll_rma_file *f,
			    struct extoll_rma_buf *buf, u64 first,
			    struct extoll_ioc_rma_expose *req)
{
	struct extoll_rma_expo *ex = &nic->expo;
	struct extoll_rma_expo_win *w;
	unsigned int i;

	for (i = 1; i < EXTOLL_EXPO_NWIN; i++)
		if (!ex->win[i].file)
			break;
	if (i == EXTOLL_EXPO_NWIN)
		return -ENOSPC;
	w = &ex->win[i];
	w->file = f;
	w->buf = buf;
	w->key = ex->next_key++;
	if (!ex->next_key)
		ex->next_key = 1;	/* key 0 names no region */
	extoll_expo_win_set(nic, i, first, first + req->len - 1,
			    req->flags & EXTOLL_RMA_EXPOSE_READ,
			    req->flags & EXTOLL_RMA_EXPOSE_WRITE);
	req->key = w->key;
	return 0;
}

long extoll_rma_ioc_expose(struct extoll_dev *nic, struct extoll_rma_file *f,
			   void __user *arg)
{
	struct extoll_ioc_rma_expose req;
	struct extoll_rma_buf *buf;
	dma_addr_t dma;
	size_t size;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	ret = extoll_expo_check(&req);
	if (ret)
		return ret;
	buf = extoll_rma_buf_get(f, req.handle, &dma, &size);
	if (!buf)
		return -ENOENT;
	if (req.offset >= size || req.len > size - req.offset) {
		ret = -ERANGE;
		goto err_buf;
	}
	if (!nic->expo.enforced) {
		ret = -ENODEV;		/* no dma block: nothing to police with */
		goto err_buf;
	}
	mutex_lock(&nic->expo.lock);
	ret = extoll_expo_open(nic, f, buf, dma + req.offset, &req);
	mutex_unlock(&nic->expo.lock);
	if (ret)
		goto err_buf;

	req.node = nic->info.node_id;
	req.addr = dma + req.offset;
	req.cnoti = nic->notify.ready ? nic->notify.win_base +
		    EXTOLL_NQ_WIN_RMA_OFF + EXTOLL_EXPO_CNOTI_OFF : 0;
	/* A caller that cannot learn the key could not revoke the region. */
	if (copy_to_user(arg, &req, sizeof(req))) {
		extoll_rma_ioc_unexpose(nic, f, req.key);
		return -EFAULT;
	}
	return 0;

err_buf:
	extoll_rma_buf_put(buf);
	return ret;
}

long extoll_rma_ioc_unexpose(struct extoll_dev *nic, struct extoll_rma_file *f,
			     u32 key)
{
	struct extoll_rma_expo *ex = &nic->expo;
	unsigned int i;
	int ret = -ENOENT;

	if (!key || !ex->enforced)
		return -ENOENT;
	mutex_lock(&ex->lock);
	for (i = 1; i < EXTOLL_EXPO_NWIN; i++) {
		if (ex->win[i].file == f && ex->win[i].key == key) {
			extoll_expo_close(nic, i);
			ret = 0;
			break;
		}
	}
	mutex_unlock(&ex->lock);
	return ret;
}
