// SPDX-License-Identifier: GPL-2.0
/*
 * Sample accelerator: the per-file host DMA buffer.
 *
 * Chunks of up to 1 MiB of physically contiguous pages, each DMA-mapped
 * (streaming, bidirectional) while the device is there. The high-order
 * allocations are split into independent pages so that user mappings take
 * their own page references (the fault handler hands out pages, as ALSA's
 * PCM mmap does): after a hot-unplug the driver DMA-unmaps the buffer at
 * once, and a process that still has it mapped keeps valid memory until it
 * unmaps it. Coherent memory (dma_alloc_coherent) would have to be freed
 * against a device that may no longer exist.
 *
 * Jobs are split at chunk boundaries; with the default 4 MiB buffer a copy
 * is at most four jobs.
 */
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "sacc.h"
#include "extoll_compat.h"

static size_t sacc_chunk_size(const struct sacc_buf *buf)
{
	return PAGE_SIZE << buf->chunk_order;
}

static struct page *sacc_buf_page(const struct sacc_buf *buf, pgoff_t pg)
{
	const struct sacc_chunk *c = &buf->chunks[pg >> buf->chunk_order];

	return nth_page(c->page, pg & ((1UL << buf->chunk_order) - 1));
}

static void *sacc_buf_vaddr(const struct sacc_buf *buf, size_t off)
{
	return page_address(sacc_buf_page(buf, off >> PAGE_SHIFT)) +
	       offset_in_page(off);
}

/* Give back the pages; those still mapped by a process live on until unmapped. */
static void sacc_buf_free_pages(struct sacc_buf *buf, unsigned int nchunks)
{
	unsigned int i, j;

	for (i = 0; i < nchunks; i++)
		for (j = 0; j < (1U << buf->chunk_order); j++)
			__free_page(nth_page(buf->chunks[i].page, j));
}

static int sacc_buf_alloc_order(struct sacc_buf *buf, unsigned int order)
{
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
	unsigned int i;

	if (order)
		gfp |= __GFP_NORETRY;
	buf->chunk_order = order;
	buf->nchunks = buf->size >> (PAGE_SHIFT + order);
	buf->chunks = kcalloc(buf->nchunks, sizeof(*buf->chunks), GFP_KERNEL);
	if (!buf->chunks)
		return -ENOMEM;

	for (i = 0; i < buf->nchunks; i++) {
		struct page *page = alloc_pages(gfp, order);

		if (!page) {
			sacc_buf_free_pages(buf, i);
			kfree(buf->chunks);
			buf->chunks = NULL;
			return -ENOMEM;
		}
		if (order)
			split_page(page, order);
		buf->chunks[i].page = page;
	}
	return 0;
}

/**
 * sacc_buf_alloc() - allocate and DMA-map a buffer
 * @buf: the buffer (zeroed)
 * @dev: the device that will DMA to and from it
 * @size: bytes, a multiple of PAGE_SIZE
 *
 * Tries 1 MiB chunks first, then smaller ones when memory is fragmented.
 *
 * Return: 0 or -ENOMEM.
 */
int sacc_buf_alloc(struct sacc_buf *buf, struct device *dev, size_t size)
{
	unsigned int order, i;
	int ret = -ENOMEM;

	buf->size = size;
	order = min_t(unsigned int, get_order(size), SACC_CHUNK_ORDER_MAX);
	/* Chunks must tile the buffer. */
	while (order && (size & ((PAGE_SIZE << order) - 1)))
		order--;
	for (;; order--) {
		ret = sacc_buf_alloc_order(buf, order);
		if (!ret || !order)
			break;
	}
	if (ret)
		return ret;

	for (i = 0; i < buf->nchunks; i++) {
		struct sacc_chunk *c = &buf->chunks[i];

		c->dma = dma_map_page(dev, c->page, 0, sacc_chunk_size(buf),
				      DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, c->dma)) {
			dev_dbg(dev, "dma_map_page of chunk %u (%zu bytes) failed\n",
				i, sacc_chunk_size(buf));
			while (i--)
				dma_unmap_page(dev, buf->chunks[i].dma,
					       sacc_chunk_size(buf),
					       DMA_BIDIRECTIONAL);
			sacc_buf_free_pages(buf, buf->nchunks);
			kfree(buf->chunks);
			buf->chunks = NULL;
			return -ENOMEM;
		}
	}
	buf->dma_dev = dev;
	return 0;
}

/**
 * sacc_buf_unmap() - end the device's access to the buffer
 * @buf: the buffer
 *
 * Called when the file is released or the device removed, whichever comes
 * first. The memory stays (for the file and its mappings).
 */
void sacc_buf_unmap(struct sacc_buf *buf)
{
	unsigned int i;

	if (!buf->dma_dev)
		return;
	for (i = 0; i < buf->nchunks; i++)
		dma_unmap_page(buf->dma_dev, buf->chunks[i].dma,
			       sacc_chunk_size(buf), DMA_BIDIRECTIONAL);
	buf->dma_dev = NULL;
}

/**
 * sacc_buf_free() - free an unmapped buffer
 * @buf: the buffer, sacc_buf_unmap() done
 */
void sacc_buf_free(struct sacc_buf *buf)
{
	if (!buf->chunks)
		return;
	WARN_ON_ONCE(buf->dma_dev);
	sacc_buf_free_pages(buf, buf->nchunks);
	kfree(buf->chunks);
	buf->chunks = NULL;
}

/**
 * sacc_buf_copy_job() - DMA between the buffer and device memory
 * @sdev: the device (lock held)
 * @buf: the buffer (DMA-mapped)
 * @op: ACCEL_OP_H2D or ACCEL_OP_D2H
 * @buf_off: offset into the buffer (validated by the caller)
 * @dev_off: offset into device memory (validated by the caller)
 * @len: bytes (validated by the caller)
 * @cycles: device cycles of all jobs, summed
 *
 * One job per chunk the range touches.
 *
 * Return: 0 or a job's error.
 */
int sacc_buf_copy_job(struct sacc_dev *sdev, struct sacc_buf *buf, u32 op,
		      u64 buf_off, u32 dev_off, u32 len, u32 *cycles)
{
	size_t csize = sacc_chunk_size(buf);
	u32 done = 0;
	int ret = 0;

	*cycles = 0;
	if (!buf->dma_dev)
		return -ENODEV;

	while (done < len) {
		u64 off = buf_off + done;
		const struct sacc_chunk *c = &buf->chunks[off / csize];
		size_t in_chunk = off % csize;
		u32 piece = min_t(u64, len - done, csize - in_chunk);
		struct sacc_job job = {
			.op = op,
			.host = c->dma + in_chunk,
			.dev_off = dev_off + done,
			.len = piece,
		};

		if (op == ACCEL_OP_H2D)
			dma_sync_single_range_for_device(buf->dma_dev, c->dma,
							 in_chunk, piece,
							 DMA_TO_DEVICE);
		ret = sacc_job_run(sdev, &job);
		/* Even a failed D2H may have written part of the range. */
		if (op == ACCEL_OP_D2H && buf->dma_dev)
			dma_sync_single_range_for_cpu(buf->dma_dev, c->dma,
						      in_chunk, piece,
						      DMA_FROM_DEVICE);
		if (ret)
			break;
		*cycles += job.cycles;
		done += piece;
	}
	return ret;
}

/**
 * sacc_buf_rw() - pread/pwrite on the buffer
 * @buf: the buffer
 * @ubuf: user memory
 * @count: bytes
 * @ppos: file position (offset into the buffer)
 * @write: true: user -> buffer
 *
 * Return: bytes copied, 0 at the end of the buffer, -EFAULT.
 */
ssize_t sacc_buf_rw(struct sacc_buf *buf, char __user *ubuf, size_t count,
		    loff_t *ppos, bool write)
{
	loff_t pos = *ppos;
	size_t done = 0;

	if (pos < 0)
		return -EINVAL;
	if (pos >= buf->size)
		return write && count ? -ENOSPC : 0;
	count = min_t(size_t, count, buf->size - pos);

	while (done < count) {
		size_t off = pos + done;
		size_t piece = min_t(size_t, count - done,
				     PAGE_SIZE - offset_in_page(off));
		void *p = sacc_buf_vaddr(buf, off);
		unsigned long left;

		if (write)
			left = copy_from_user(p, ubuf + done, piece);
		else
			left = copy_to_user(ubuf + done, p, piece);
		done += piece - left;
		if (left)
			break;
	}
	if (!done && count)
		return -EFAULT;
	*ppos = pos + done;
	return done;
}

static vm_fault_t sacc_buf_fault(struct vm_fault *vmf)
{
	struct sacc_buf *buf = vmf->vma->vm_private_data;
	struct page *page;

	if (vmf->pgoff >= buf->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	page = sacc_buf_page(buf, vmf->pgoff);
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct sacc_buf_vm_ops = {
	.fault = sacc_buf_fault,
};

/**
 * sacc_buf_mmap() - map (part of) the buffer, MAP_SHARED only
 * @buf: the buffer
 * @vma: the mapping; vm_pgoff is the offset into the buffer in pages
 *
 * The file stays referenced by the mapping, so the buffer outlives it.
 *
 * Return: 0, -EINVAL (private or beyond the buffer).
 */
int sacc_buf_mmap(struct sacc_buf *buf, struct vm_area_struct *vma)
{
	unsigned long pages = vma_pages(vma);
	unsigned long total = buf->size >> PAGE_SHIFT;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_pgoff >= total || pages > total - vma->vm_pgoff)
		return -EINVAL;

	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_private_data = buf;
	vma->vm_ops = &sacc_buf_vm_ops;
	return 0;
}
