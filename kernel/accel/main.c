// SPDX-License-Identifier: GPL-2.0
/*
 * Sample accelerator (rtl/accel, PCI 1ee7:0100): PCI probe and remove.
 *
 * An ordinary PCI driver. It knows nothing of the network: whether the
 * accelerator sits in a local slot or in a remote PCI domain behind an
 * EXTOLL NIC (naa_bus) makes no difference to it.
 *
 *   BAR0  control registers (accel_hw.h)
 *   BAR2  device memory; jobs move data between it and host memory
 *
 * Lifetime: struct sacc_dev is reference counted. Probe holds one
 * reference and every open /dev/saccN file another, so remove() (unbind,
 * hot-unplug of a remote accelerator) can complete while files are open;
 * their operations then fail with -ENODEV.
 */
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#include "sacc.h"

static bool force_poll;
module_param(force_poll, bool, 0444);
MODULE_PARM_DESC(force_poll,
		 "Do not use interrupts; complete jobs by polling JOB_STATUS (default off)");

unsigned int sacc_job_timeout_ms = 10000;
module_param_named(job_timeout_ms, sacc_job_timeout_ms, uint, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "Time bound of one job in ms; a job still running then fails with ETIMEDOUT and the device is reset (default 10000)");

static DEFINE_IDA(sacc_ida);

static void sacc_release(struct kref *ref)
{
	struct sacc_dev *sdev = container_of(ref, struct sacc_dev, ref);

	ida_free(&sacc_ida, sdev->index);
	pci_dev_put(sdev->pdev);
	kfree(sdev);
}

/**
 * sacc_put() - drop a reference to the device state
 * @sdev: the device
 */
void sacc_put(struct sacc_dev *sdev)
{
	kref_put(&sdev->ref, sacc_release);
}

/**
 * sacc_mark_gone() - the registers read all-ones: note it once
 * @sdev: the device
 *
 * A removed or unreachable device (a detached remote accelerator, a link
 * down) answers reads with all-ones. From then on jobs fail with -ENODEV.
 */
void sacc_mark_gone(struct sacc_dev *sdev)
{
	if (READ_ONCE(sdev->gone))
		return;
	WRITE_ONCE(sdev->gone, true);
	dev_err(&sdev->pdev->dev,
		"device not responding (registers read all-ones): removed or unreachable; jobs now fail with ENODEV\n");
	wake_up_all(&sdev->job_wq);
}

/* Enable the device, claim and map BAR0, set up DMA. */
static int sacc_pci_setup(struct sacc_dev *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	struct device *dev = &pdev->dev;
	int ret;

	ret = pci_enable_device_mem(pdev);
	if (ret) {
		dev_err(dev, "cannot enable device: %d\n", ret);
		return ret;
	}

	if (!(pci_resource_flags(pdev, ACCEL_BAR_REGS) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, ACCEL_BAR_REGS) < ACCEL_REG_MSIX_PBA + 4) {
		dev_err(dev, "BAR%d (registers) is missing, not memory or smaller than 4 KiB (%pR)\n",
			ACCEL_BAR_REGS, &pdev->resource[ACCEL_BAR_REGS]);
		ret = -ENODEV;
		goto err_disable;
	}
	if (!(pci_resource_flags(pdev, ACCEL_BAR_MEM) & IORESOURCE_MEM) ||
	    !pci_resource_len(pdev, ACCEL_BAR_MEM)) {
		dev_err(dev, "BAR%d (device memory) is missing or not memory (%pR)\n",
			ACCEL_BAR_MEM, &pdev->resource[ACCEL_BAR_MEM]);
		ret = -ENODEV;
		goto err_disable;
	}

	ret = pci_request_regions(pdev, KBUILD_MODNAME);
	if (ret) {
		dev_err(dev, "cannot claim the BARs: %d\n", ret);
		goto err_disable;
	}

	sdev->regs = pci_iomap(pdev, ACCEL_BAR_REGS, 0);
	if (!sdev->regs) {
		dev_err(dev, "cannot map BAR%d (%pR)\n", ACCEL_BAR_REGS,
			&pdev->resource[ACCEL_BAR_REGS]);
		ret = -ENOMEM;
		goto err_release;
	}

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret) {
		ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
		if (ret) {
			dev_err(dev, "no usable DMA configuration (64 and 32-bit masks refused: %d)\n",
				ret);
			goto err_unmap;
		}
		dev_info(dev, "64-bit DMA refused, using 32-bit DMA addresses\n");
	}

	pci_set_master(pdev);
	return 0;

err_unmap:
	pci_iounmap(pdev, sdev->regs);
	sdev->regs = NULL;
err_release:
	pci_release_regions(pdev);
err_disable:
	pci_disable_device(pdev);
	return ret;
}

static void sacc_pci_teardown(struct sacc_dev *sdev)
{
	struct pci_dev *pdev = sdev->pdev;

	pci_clear_master(pdev);
	if (sdev->mem)
		pci_iounmap(pdev, sdev->mem);
	sdev->mem = NULL;
	pci_iounmap(pdev, sdev->regs);
	sdev->regs = NULL;
	pci_release_regions(pdev);
	pci_disable_device(pdev);
}

/* Identify the device from its registers and map the backed device memory. */
static int sacc_hw_probe(struct sacc_dev *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	struct device *dev = &pdev->dev;
	unsigned int log2, impl_log2;
	u32 id;

	id = sacc_rd(sdev, ACCEL_REG_ID);
	if (id == ~0U) {
		dev_err(dev, "ID register reads all-ones: device not responding (gone, or not out of reset)\n");
		return -ENODEV;
	}
	if (id != ACCEL_MAGIC) {
		dev_err(dev, "ID register is 0x%08x, expected 0x%08x: not a sample accelerator\n",
			id, ACCEL_MAGIC);
		return -ENODEV;
	}

	sdev->version = sacc_rd(sdev, ACCEL_REG_VERSION);
	if (sdev->version >> 16 != 1) {
		dev_err(dev, "hardware version %u.%u, driver supports major version 1: refusing the device\n",
			sdev->version >> 16, sdev->version & 0xffff);
		return -ENODEV;
	}

	sdev->caps = sacc_rd(sdev, ACCEL_REG_CAPS);
	log2 = ACCEL_CAPS_DEVMEM_LOG2(sdev->caps);
	impl_log2 = ACCEL_CAPS_IMPL_LOG2(sdev->caps);
	if (impl_log2 < 6 || impl_log2 > log2 || log2 > 40 || impl_log2 > 31) {
		dev_err(dev, "CAPS 0x%08x: device memory 2^%u bytes backed of 2^%u is inconsistent\n",
			sdev->caps, impl_log2, log2);
		return -ENODEV;
	}

	sdev->bar_size = pci_resource_len(pdev, ACCEL_BAR_MEM);
	if (sdev->bar_size < (1ULL << log2))
		dev_warn(dev, "BAR%d is %pa bytes, the device reports 2^%u: using the smaller\n",
			 ACCEL_BAR_MEM, &sdev->bar_size, log2);
	sdev->devmem_size = 1U << impl_log2;
	if (sdev->bar_size < sdev->devmem_size)
		sdev->devmem_size = rounddown_pow_of_two(sdev->bar_size);

	/* Only the backed part: the rest of the BAR aliases it. */
	sdev->mem_wc = pci_resource_flags(pdev, ACCEL_BAR_MEM) & IORESOURCE_PREFETCH;
	if (sdev->mem_wc)
		sdev->mem = pci_iomap_wc(pdev, ACCEL_BAR_MEM, sdev->devmem_size);
	else
		sdev->mem = pci_iomap(pdev, ACCEL_BAR_MEM, sdev->devmem_size);
	if (!sdev->mem) {
		dev_err(dev, "cannot map %u bytes of BAR%d (%pR)\n",
			sdev->devmem_size, ACCEL_BAR_MEM,
			&pdev->resource[ACCEL_BAR_MEM]);
		return -ENOMEM;
	}

	dev_info(dev,
		 "sample accelerator v%u.%u: device memory %u KiB backed, BAR%d %llu KiB (%s), %u DMA tags, %u MSI-X vectors\n",
		 sdev->version >> 16, sdev->version & 0xffff,
		 sdev->devmem_size / SZ_1K, ACCEL_BAR_MEM,
		 (unsigned long long)sdev->bar_size / SZ_1K,
		 sdev->mem_wc ? "prefetchable, write-combining" : "non-prefetchable",
		 ACCEL_CAPS_NTAGS(sdev->caps),
		 ACCEL_CAPS_MSIX_VECTORS(sdev->caps));
	return 0;
}

static int sacc_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct sacc_dev *sdev;
	int ret;

	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;
	ret = ida_alloc(&sacc_ida, GFP_KERNEL);
	if (ret < 0) {
		kfree(sdev);
		return ret;
	}
	sdev->index = ret;
	snprintf(sdev->name, sizeof(sdev->name), "sacc%d", sdev->index);
	kref_init(&sdev->ref);
	sdev->pdev = pci_dev_get(pdev);
	mutex_init(&sdev->lock);
	INIT_LIST_HEAD(&sdev->files);
	init_waitqueue_head(&sdev->job_wq);
	sdev->irq = -1;
	sdev->irq_mode = SACC_MODE_POLL;
	atomic64_set(&sdev->stats.jobs_done, 0);
	atomic64_set(&sdev->stats.jobs_failed, 0);
	atomic64_set(&sdev->stats.jobs_timedout, 0);
	atomic64_set(&sdev->stats.irq_count, 0);
	atomic64_set(&sdev->stats.irq_lost, 0);
	atomic64_set(&sdev->stats.resets, 0);

	ret = sacc_pci_setup(sdev);
	if (ret)
		goto err_put;

	ret = sacc_hw_probe(sdev);
	if (ret)
		goto err_pci;

	pci_set_drvdata(pdev, sdev);

	/* Vectors, self-test (a CRC job), and the polling fallback. */
	mutex_lock(&sdev->lock);
	ret = sacc_irq_init(sdev, force_poll);
	mutex_unlock(&sdev->lock);
	if (ret)
		goto err_drvdata;

	ret = sacc_cdev_register(sdev);
	if (ret)
		goto err_irq;

	dev_info(&pdev->dev, "/dev/%s ready: irq mode %s, %d vector(s), job timeout %u ms\n",
		 sdev->name, sacc_irq_mode_name(sdev->irq_mode), sdev->nvec,
		 READ_ONCE(sacc_job_timeout_ms));
	return 0;

err_irq:
	mutex_lock(&sdev->lock);
	sacc_irq_teardown(sdev);
	mutex_unlock(&sdev->lock);
err_drvdata:
	pci_set_drvdata(pdev, NULL);
err_pci:
	sacc_pci_teardown(sdev);
err_put:
	sacc_put(sdev);
	return ret;
}

static void sacc_remove(struct pci_dev *pdev)
{
	struct sacc_dev *sdev = pci_get_drvdata(pdev);

	/* No new opens. Files already open keep their reference. */
	sacc_cdev_unregister(sdev);

	/* A job waiting for the device gives up at once ... */
	WRITE_ONCE(sdev->removing, true);
	wake_up_all(&sdev->job_wq);

	/* ... so the lock comes free quickly; then nothing touches the device. */
	mutex_lock(&sdev->lock);
	sdev->dead = true;
	sacc_irq_teardown(sdev);
	pci_clear_master(pdev);		/* stops any DMA still running */
	sacc_cdev_kill_files(sdev);	/* DMA-unmap the open files' buffers */
	mutex_unlock(&sdev->lock);

	sacc_pci_teardown(sdev);
	pci_set_drvdata(pdev, NULL);
	dev_info(&pdev->dev, "/dev/%s removed\n", sdev->name);
	sacc_put(sdev);
}

static const struct pci_device_id sacc_pci_ids[] = {
	{ PCI_DEVICE(ACCEL_PCI_VENDOR_ID, ACCEL_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, sacc_pci_ids);

static struct pci_driver sacc_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = sacc_pci_ids,
	.probe = sacc_probe,
	.remove = sacc_remove,
	.dev_groups = sacc_dev_groups,
};
module_pci_driver(sacc_pci_driver);

MODULE_DESCRIPTION("Sample accelerator (DMA engine and CRC-32 job), local or network-attached");
MODULE_LICENSE("GPL");
