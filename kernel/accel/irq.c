// SPDX-License-Identifier: GPL-2.0
/*
 * Sample accelerator: job interrupts, with a self-test and a polling
 * fallback.
 *
 * The driver asks for MSI-X, else MSI, else INTx (up to as many vectors as
 * the device has MSI-X entries; job interrupts use vector 0, IRQ_VECTOR = 0)
 * and proves the interrupt at probe with a tiny CRC job. If the interrupt
 * does not arrive - a device attached through multi-process QEMU's proxy
 * under TCG never delivers one - it frees the vectors and completes jobs by
 * polling JOB_STATUS instead. A remote accelerator's MSIs are forwarded by
 * the NIC driver and do arrive; the driver cannot tell and need not.
 */
#include <linux/crc32.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>

#include "sacc.h"
#include "extoll_compat.h"

static unsigned int irq_test_ms = SACC_IRQ_SELFTEST_MS;
module_param(irq_test_ms, uint, 0444);
MODULE_PARM_DESC(irq_test_ms,
		 "How long the probe-time self-test waits for the job interrupt, ms (default 100)");

const char *sacc_irq_mode_name(enum sacc_irq_mode mode)
{
	switch (mode) {
	case SACC_MODE_INTX:
		return "intx";
	case SACC_MODE_MSI:
		return "msi";
	case SACC_MODE_MSIX:
		return "msix";
	case SACC_MODE_POLL:
		break;
	}
	return "poll";
}

/*
 * Acknowledge the job causes and wake the waiter. Returns IRQ_NONE when
 * none of ours is pending, so a shared INTx line can tell it was not us.
 */
static irqreturn_t sacc_irq_handler(int irq, void *data)
{
	struct sacc_dev *sdev = data;
	u32 status;

	status = sacc_rd(sdev, ACCEL_REG_IRQ_STATUS);
	if (status == ~0U) {
		sacc_mark_gone(sdev);
		return IRQ_NONE;
	}
	status &= SACC_IRQ_CAUSES;
	if (!status)
		return IRQ_NONE;

	/* Write 1 to clear; the waiter reads JOB_STATUS for the outcome. */
	sacc_wr(sdev, ACCEL_REG_IRQ_STATUS, status);
	atomic64_inc(&sdev->stats.irq_count);
	WRITE_ONCE(sdev->job_irq, true);
	wake_up(&sdev->job_wq);
	return IRQ_HANDLED;
}

/**
 * sacc_irq_setup_hw() - program the interrupt registers for the current mode
 * @sdev: the device
 *
 * Also called after a device reset, which clears them.
 */
void sacc_irq_setup_hw(struct sacc_dev *sdev)
{
	sacc_wr(sdev, ACCEL_REG_IRQ_ENABLE, 0);
	sacc_wr(sdev, ACCEL_REG_IRQ_STATUS, SACC_IRQ_CAUSES);
	sacc_wr(sdev, ACCEL_REG_IRQ_VECTOR, 0);
	if (sdev->irq_mode != SACC_MODE_POLL)
		sacc_wr(sdev, ACCEL_REG_IRQ_ENABLE, SACC_IRQ_CAUSES);
}

/* Allocate vectors of the best type and install the handler on vector 0. */
static int sacc_irq_request(struct sacc_dev *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	enum sacc_irq_mode mode;
	unsigned long flags = 0;
	int nvec, max, irq, ret;

	max = clamp_t(int, ACCEL_CAPS_MSIX_VECTORS(sdev->caps), 1,
		      ACCEL_MSIX_VECTORS);
	nvec = pci_alloc_irq_vectors(pdev, 1, max,
				     PCI_IRQ_MSIX | PCI_IRQ_MSI | PCI_IRQ_INTX);
	if (nvec < 0)
		return nvec;

	if (pdev->msix_enabled)
		mode = SACC_MODE_MSIX;
	else if (pdev->msi_enabled)
		mode = SACC_MODE_MSI;
	else
		mode = SACC_MODE_INTX;

	irq = pci_irq_vector(pdev, 0);
	if (irq < 0) {
		ret = irq;
		goto err_free_vectors;
	}

	/* An INTx line may be shared: the handler checks IRQ_STATUS first. */
	if (mode == SACC_MODE_INTX)
		flags |= IRQF_SHARED;

	snprintf(sdev->irq_name, sizeof(sdev->irq_name), "%s@%s", sdev->name,
		 pci_name(pdev));
	ret = request_irq(irq, sacc_irq_handler, flags, sdev->irq_name, sdev);
	if (ret) {
		dev_err(&pdev->dev, "request_irq(%d, %s): %d\n", irq,
			sacc_irq_mode_name(mode), ret);
		goto err_free_vectors;
	}

	sdev->irq = irq;
	sdev->nvec = nvec;
	sdev->irq_mode = mode;
	return 0;

err_free_vectors:
	pci_free_irq_vectors(pdev);
	return ret;
}

/* Quiet the device's interrupt and give the vectors back. */
static void sacc_irq_release(struct sacc_dev *sdev)
{
	enum sacc_irq_mode mode = sdev->irq_mode;

	if (!READ_ONCE(sdev->gone)) {
		sacc_wr(sdev, ACCEL_REG_IRQ_ENABLE, 0);
		sacc_wr(sdev, ACCEL_REG_IRQ_STATUS, SACC_IRQ_CAUSES);
	}
	sdev->irq_mode = SACC_MODE_POLL;
	if (sdev->irq >= 0) {
		free_irq(sdev->irq, sdev);
		sdev->irq = -1;
	}
	if (sdev->nvec) {
		pci_free_irq_vectors(sdev->pdev);
		sdev->nvec = 0;
	}
	/* Keep a level-triggered line quiet while nobody handles it. */
	if (mode == SACC_MODE_INTX)
		pci_intx(sdev->pdev, 0);
}

/*
 * The self-test: a CRC-32 job over the first bytes of device memory with the
 * job interrupt enabled. Checks the interrupt (falling back to polling if it
 * does not come) and the data path: the result must equal zlib's crc32 of
 * the same bytes read through BAR2.
 */
static int sacc_selftest(struct sacc_dev *sdev)
{
	struct device *dev = &sdev->pdev->dev;
	struct sacc_job job = {
		.op = ACCEL_OP_CRC,
		.dev_off = 0,
		.len = SACC_SELFTEST_LEN,
	};
	const char *mode = sacc_irq_mode_name(sdev->irq_mode);
	u8 data[SACC_SELFTEST_LEN];
	unsigned long deadline;
	u32 expected;
	int ret;

	memcpy_fromio(data, sdev->mem, sizeof(data));
	expected = ~crc32_le(~0U, data, sizeof(data));

	sacc_job_start(sdev, &job);
	deadline = jiffies + msecs_to_jiffies(max(READ_ONCE(sacc_job_timeout_ms), 1U));

	if (sdev->irq_mode != SACC_MODE_POLL) {
		wait_event_timeout(sdev->job_wq,
				   READ_ONCE(sdev->job_irq) || READ_ONCE(sdev->gone),
				   msecs_to_jiffies(irq_test_ms));
		if (READ_ONCE(sdev->job_irq)) {
			dev_info(dev, "interrupt self-test passed (%s, %d vector(s))\n",
				 mode, sdev->nvec);
		} else if (!READ_ONCE(sdev->gone)) {
			dev_warn(dev, "no job interrupt within %u ms (%s): completing jobs by polling\n",
				 irq_test_ms, mode);
			sacc_irq_release(sdev);
		}
	}

	/* The job may still run (or the interrupt is lost): poll, bounded. */
	ret = sacc_job_wait_poll(sdev, &job, deadline);
	ret = sacc_job_finish(sdev, &job, ret);
	if (ret) {
		dev_err(dev, "self-test: CRC-32 job over %u bytes of device memory failed (%d): refusing the device\n",
			SACC_SELFTEST_LEN, ret);
		return ret == -ENODEV ? -ENODEV : -EIO;
	}
	if (job.result != expected) {
		dev_err(dev, "self-test: the device's CRC-32 of %u bytes of device memory is 0x%08x, zlib's crc32 of the same bytes read through BAR%d is 0x%08x: refusing the device\n",
			SACC_SELFTEST_LEN, job.result, ACCEL_BAR_MEM, expected);
		return -EIO;
	}
	dev_dbg(dev, "self-test: CRC-32 of %u bytes 0x%08x in %u cycles\n",
		SACC_SELFTEST_LEN, job.result, job.cycles);
	return 0;
}

/**
 * sacc_irq_init() - set up job completion: an interrupt vector, or polling
 * @sdev: the device (lock held)
 * @force_poll: do not try interrupts at all
 *
 * Runs the self-test. Without a working interrupt the driver polls.
 *
 * Return: 0, or the self-test's error (the device is unusable).
 */
int sacc_irq_init(struct sacc_dev *sdev, bool force_poll)
{
	struct device *dev = &sdev->pdev->dev;
	int ret;

	sdev->irq_mode = SACC_MODE_POLL;
	if (force_poll) {
		dev_info(dev, "force_poll set: completing jobs by polling\n");
	} else {
		ret = sacc_irq_request(sdev);
		if (ret)
			dev_warn(dev, "no interrupt vector (%d): completing jobs by polling\n",
				 ret);
	}

	sacc_irq_setup_hw(sdev);
	ret = sacc_selftest(sdev);
	if (ret)
		sacc_irq_release(sdev);
	return ret;
}

/**
 * sacc_irq_teardown() - mask the job interrupt and free the vectors
 * @sdev: the device (lock held)
 */
void sacc_irq_teardown(struct sacc_dev *sdev)
{
	sacc_irq_release(sdev);
}
