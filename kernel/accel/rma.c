// SPDX-License-Identifier: GPL-2.0
/*
 * Sample accelerator: the RMA send job (SACC_IOC_RMA_SEND).
 *
 * The device puts a range of its own memory to a bus address at another
 * node through the RMA unit of the NAA it sits behind: it writes the
 * descriptor into the NAA's descriptor window and waits for the unit's
 * requester record in its own memory (docs/accelerator.md "RMA send",
 * docs/rma.md). The driver checks the arguments, programs the job
 * registers and runs the job like any other (job.c); the record's status
 * comes back as the job's error code.
 */
#include <linux/pci.h>
#include <linux/uaccess.h>

#include "sacc.h"

/* The record is 16 bytes, 16-byte aligned (rma_noti_t). */
#define SACC_RMA_REC_BYTES	16
/* The window is one 4 KiB page of the device's upstream address space. */
#define SACC_RMA_WIN_ALIGN	4096

/**
 * sacc_rma_program() - write the RMA send parameters into the job registers
 * @sdev: the device (lock held)
 * @r: checked parameters
 */
void sacc_rma_program(struct sacc_dev *sdev, const struct sacc_rma_send *r)
{
	sacc_wr(sdev, ACCEL_REG_RMA_WIN_LO, lower_32_bits(r->win_addr));
	sacc_wr(sdev, ACCEL_REG_RMA_WIN_HI, upper_32_bits(r->win_addr));
	sacc_wr(sdev, ACCEL_REG_RMA_NODE, r->src_node);
	sacc_wr(sdev, ACCEL_REG_JOB_HOST_LO, lower_32_bits(r->dst_addr));
	sacc_wr(sdev, ACCEL_REG_JOB_HOST_HI, upper_32_bits(r->dst_addr));
	sacc_wr(sdev, ACCEL_REG_JOB_RMA, r->dst_node | (u32)r->cookie << 16);
	sacc_wr(sdev, ACCEL_REG_JOB_RNOTI, r->rnoti_offset);
	sacc_wr(sdev, ACCEL_REG_JOB_CNOTI_LO, lower_32_bits(r->cnoti_addr));
	sacc_wr(sdev, ACCEL_REG_JOB_CNOTI_HI, upper_32_bits(r->cnoti_addr));
}

/* The source range and the record inside the backed memory, apart. */
static int sacc_rma_check_devmem(struct sacc_dev *sdev,
				 const struct sacc_rma_send *r)
{
	struct device *dev = &sdev->pdev->dev;
	u64 size = sdev->devmem_size;

	if (r->len > size || r->dev_offset > size - r->len) {
		dev_dbg(dev, "rma-send: dev offset 0x%llx len %llu beyond the device memory (%llu bytes)\n",
			r->dev_offset, r->len, size);
		return -EINVAL;
	}
	if (r->rnoti_offset % SACC_RMA_REC_BYTES ||
	    r->rnoti_offset > size - SACC_RMA_REC_BYTES) {
		dev_dbg(dev, "rma-send: record offset 0x%llx not 16-byte aligned or beyond the device memory\n",
			r->rnoti_offset);
		return -EINVAL;
	}
	if (r->rnoti_offset < r->dev_offset + r->len &&
	    r->rnoti_offset + SACC_RMA_REC_BYTES > r->dev_offset) {
		dev_dbg(dev, "rma-send: record offset 0x%llx inside the sent range\n",
			r->rnoti_offset);
		return -EINVAL;
	}
	return 0;
}

static int sacc_rma_check(struct sacc_dev *sdev, const struct sacc_rma_send *r)
{
	struct device *dev = &sdev->pdev->dev;

	if (r->flags || r->reserved || r->reserved2) {
		dev_dbg(dev, "rma-send: flags 0x%x / reserved fields must be 0\n",
			r->flags);
		return -EINVAL;
	}
	if (!r->len || r->len > ACCEL_RMA_MAX_LEN || r->len % SACC_ALIGN ||
	    r->dev_offset % SACC_ALIGN || r->dst_addr % SACC_ALIGN) {
		dev_dbg(dev, "rma-send: len %llu (1..%u), dev offset 0x%llx, destination 0x%llx: zero, too long or not multiples of %d\n",
			r->len, ACCEL_RMA_MAX_LEN, r->dev_offset, r->dst_addr,
			SACC_ALIGN);
		return -EINVAL;
	}
	if (r->cnoti_addr % SACC_RMA_REC_BYTES) {
		dev_dbg(dev, "rma-send: completer record 0x%llx not 16-byte aligned\n",
			r->cnoti_addr);
		return -EINVAL;
	}
	if (!r->win_addr || r->win_addr % SACC_RMA_WIN_ALIGN) {
		dev_dbg(dev, "rma-send: window 0x%llx zero or not 4 KiB aligned\n",
			r->win_addr);
		return -EINVAL;
	}
	return sacc_rma_check_devmem(sdev, r);
}

int sacc_ioc_rma_send(struct sacc_file *sf, void __user *uarg)
{
	struct sacc_dev *sdev = sf->sdev;
	struct sacc_rma_send r;
	struct sacc_job job = { .op = ACCEL_OP_RMA, .rma = &r };
	int ret;

	if (copy_from_user(&r, uarg, sizeof(r)))
		return -EFAULT;
	if (ACCEL_VERSION_MINOR(sdev->version) < 1) {
		dev_dbg(&sdev->pdev->dev, "rma-send: device version 0x%08x has no RMA send job\n",
			sdev->version);
		return -EOPNOTSUPP;
	}
	ret = sacc_rma_check(sdev, &r);
	if (ret)
		return ret;

	job.dev_off = r.dev_offset;
	job.len = r.len;
	mutex_lock(&sdev->lock);
	ret = sacc_job_run(sdev, &job);
	mutex_unlock(&sdev->lock);

	r.err = ACCEL_JOB_ERR_CODE(job.status);
	r.cycles = job.cycles;
	if (copy_to_user(uarg, &r, sizeof(r)))
		return -EFAULT;
	return ret;
}
