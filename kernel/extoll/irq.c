// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: interrupts, with a self-test and a polling fallback.
 *
 * The NIC has one interrupt vector (MSI-X, MSI or INTx, whichever the
 * platform gives). At probe the driver fires the INFO block's test cause and
 * waits for it. When it does not arrive - multi-process QEMU under TCG never
 * delivers one - the driver frees the vector and polls irq_status from a
 * delayed work instead. Both paths run the same dispatch code.
 */
#include <linux/interrupt.h>
#include <linux/jiffies.h>

#include "extoll.h"

/* Every interrupt cause this driver knows how to handle. */
#define EXTOLL_IRQ_CAUSES	(EXTOLL_INFO_IRQ_STATUS_TEST_MASK | \
				 EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK)

const char *extoll_irq_mode_name(enum extoll_irq_mode mode)
{
	switch (mode) {
	case EXTOLL_IRQ_INTX:
		return "intx";
	case EXTOLL_IRQ_MSI:
		return "msi";
	case EXTOLL_IRQ_MSIX:
		return "msix";
	case EXTOLL_IRQ_POLL:
		break;
	}
	return "poll";
}

/* Update the enabled causes; the shadow is also the poller's cause mask. */
static void extoll_irq_enable_update(struct extoll_dev *edev, u64 set, u64 clear)
{
	unsigned long flags;

	spin_lock_irqsave(&edev->irq_lock, flags);
	edev->irq_enable = (edev->irq_enable & ~clear) | set;
	extoll_info_wr(edev, EXTOLL_INFO_IRQ_ENABLE, edev->irq_enable);
	spin_unlock_irqrestore(&edev->irq_lock, flags);
}

/*
 * Look at irq_status, acknowledge and act on the enabled causes. Called from
 * the interrupt handler and from the poller. Returns true when a cause of
 * ours was pending (so a shared INTx line can tell it was not us).
 */
static bool extoll_irq_dispatch(struct extoll_dev *edev)
{
	u64 status, pending;

	if (READ_ONCE(edev->gone))
		return false;

	status = extoll_info_rd(edev, EXTOLL_INFO_IRQ_STATUS);
	if (status == ~0ULL) {
		WRITE_ONCE(edev->gone, true);
		dev_err(&edev->pdev->dev,
			"irq_status reads all-ones: device gone, interrupt processing stopped\n");
		return false;
	}

	pending = status & READ_ONCE(edev->irq_enable);
	if (!pending)
		return false;

	/* Write 1 to clear before acting, so a new event latches again. */
	extoll_info_wr(edev, EXTOLL_INFO_IRQ_STATUS, pending);

	if (pending & EXTOLL_INFO_IRQ_STATUS_TEST_MASK)
		complete(&edev->selftest_done);
	if (pending & EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK)
		extoll_notify_drain(edev);

	return true;
}

static irqreturn_t extoll_irq_handler(int irq, void *data)
{
	return extoll_irq_dispatch(data) ? IRQ_HANDLED : IRQ_NONE;
}

static void extoll_poll_work(struct work_struct *work)
{
	struct extoll_dev *edev = container_of(to_delayed_work(work),
					       struct extoll_dev, poll_work);

	extoll_irq_dispatch(edev);
	if (!READ_ONCE(edev->gone))
		schedule_delayed_work(&edev->poll_work, edev->poll_interval);
}

static void extoll_poll_start(struct extoll_dev *edev)
{
	edev->irq_mode = EXTOLL_IRQ_POLL;
	/* Keep a level-triggered line quiet while nobody handles it. */
	pci_intx(edev->pdev, 0);
	edev->polling = true;
	schedule_delayed_work(&edev->poll_work, edev->poll_interval);
}

/* Get one vector of the best type and install the handler on it. */
static int extoll_irq_request(struct extoll_dev *edev)
{
	struct pci_dev *pdev = edev->pdev;
	enum extoll_irq_mode mode;
	unsigned long flags = 0;
	int ret, irq;

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_ALL_TYPES);
	if (ret < 0) {
		dev_dbg(&pdev->dev, "pci_alloc_irq_vectors: %d\n", ret);
		return ret;
	}
	edev->vectors_allocated = true;

	if (pdev->msix_enabled)
		mode = EXTOLL_IRQ_MSIX;
	else if (pdev->msi_enabled)
		mode = EXTOLL_IRQ_MSI;
	else
		mode = EXTOLL_IRQ_INTX;

	irq = pci_irq_vector(pdev, 0);
	if (irq < 0) {
		ret = irq;
		goto err_free_vectors;
	}

	/*
	 * An INTx line may be shared: the handler checks irq_status first.
	 * Otherwise the handler raises forwarded child interrupts
	 * (notification queue) and must not be force-threaded.
	 */
	if (mode == EXTOLL_IRQ_INTX)
		flags |= IRQF_SHARED;
	else
		flags |= IRQF_NO_THREAD;

	snprintf(edev->irq_name, sizeof(edev->irq_name), "extoll@%s",
		 pci_name(pdev));
	ret = request_irq(irq, extoll_irq_handler, flags, edev->irq_name, edev);
	if (ret) {
		dev_err(&pdev->dev, "request_irq(%d, %s): %d\n", irq,
			extoll_irq_mode_name(mode), ret);
		goto err_free_vectors;
	}

	edev->irq = irq;
	edev->irq_mode = mode;
	return 0;

err_free_vectors:
	pci_free_irq_vectors(pdev);
	edev->vectors_allocated = false;
	return ret;
}

/* Mask every cause and give the vector back. */
static void extoll_irq_release(struct extoll_dev *edev)
{
	extoll_irq_enable_update(edev, 0, ~0ULL);

	if (edev->irq >= 0) {
		free_irq(edev->irq, edev);
		edev->irq = -1;
	}
	if (edev->vectors_allocated) {
		pci_free_irq_vectors(edev->pdev);
		edev->vectors_allocated = false;
	}
	edev->irq_mode = EXTOLL_IRQ_POLL;
}

/* Fire the test cause and wait for the handler to see it. */
static bool extoll_irq_selftest(struct extoll_dev *edev)
{
	unsigned long left;
	u64 status;

	reinit_completion(&edev->selftest_done);
	extoll_irq_enable_update(edev, EXTOLL_INFO_IRQ_ENABLE_TEST_MASK, 0);
	extoll_info_wr(edev, EXTOLL_INFO_IRQ_TEST,
		       EXTOLL_INFO_IRQ_TEST_FIRE_MASK);

	left = wait_for_completion_timeout(&edev->selftest_done,
				msecs_to_jiffies(EXTOLL_IRQ_SELFTEST_MS));

	extoll_irq_enable_update(edev, 0, EXTOLL_INFO_IRQ_ENABLE_TEST_MASK);
	if (left)
		return true;

	/* Tell a lost interrupt apart from a cause that never latched. */
	status = extoll_info_rd(edev, EXTOLL_INFO_IRQ_STATUS);
	if (status != ~0ULL && !(status & EXTOLL_INFO_IRQ_STATUS_TEST_MASK))
		dev_warn(&edev->pdev->dev,
			 "test cause did not latch in irq_status (0x%016llx)\n",
			 status);
	extoll_info_wr(edev, EXTOLL_INFO_IRQ_STATUS,
		       EXTOLL_INFO_IRQ_STATUS_TEST_MASK);
	return false;
}

/**
 * extoll_irq_init() - set up interrupt delivery, or a poller
 * @edev: the NIC, with its INFO block found
 * @poll_ms: poll interval in milliseconds when interrupts do not work
 * @force_poll: do not try interrupts at all
 *
 * Never fails: without a working interrupt the driver polls.
 */
void extoll_irq_init(struct extoll_dev *edev, unsigned int poll_ms,
		     bool force_poll)
{
	struct device *dev = &edev->pdev->dev;
	const char *mode;
	int ret;

	spin_lock_init(&edev->irq_lock);
	init_completion(&edev->selftest_done);
	INIT_DELAYED_WORK(&edev->poll_work, extoll_poll_work);
	edev->irq = -1;
	edev->irq_mode = EXTOLL_IRQ_POLL;
	poll_ms = max(poll_ms, 1U);
	edev->poll_interval = max(msecs_to_jiffies(poll_ms), 1UL);

	/* Start from a quiet device: nothing enabled, nothing pending. */
	extoll_irq_enable_update(edev, 0, ~0ULL);
	extoll_info_wr(edev, EXTOLL_INFO_IRQ_STATUS, EXTOLL_IRQ_CAUSES);

	if (force_poll) {
		dev_info(dev, "force_poll set: polling every %u ms\n", poll_ms);
		extoll_poll_start(edev);
		goto causes;
	}

	ret = extoll_irq_request(edev);
	if (ret) {
		dev_warn(dev,
			 "no interrupt vector (%d): falling back to polling every %u ms\n",
			 ret, poll_ms);
		extoll_poll_start(edev);
		goto causes;
	}

	mode = extoll_irq_mode_name(edev->irq_mode);
	if (extoll_irq_selftest(edev)) {
		dev_info(dev, "interrupt self-test passed (%s)\n", mode);
		goto causes;
	}

	dev_warn(dev,
		 "no interrupt within %u ms (%s): falling back to polling every %u ms\n",
		 EXTOLL_IRQ_SELFTEST_MS, mode, poll_ms);
	extoll_irq_release(edev);
	extoll_poll_start(edev);

causes:
	/* The causes in use from now on (the shadow is the poller's mask). */
	if (edev->notify.ready)
		extoll_irq_enable_update(edev, EXTOLL_INFO_IRQ_ENABLE_NOTIFY_MASK, 0);
}

/**
 * extoll_irq_teardown() - stop the poller or free the vector
 * @edev: the NIC
 */
void extoll_irq_teardown(struct extoll_dev *edev)
{
	if (edev->polling) {
		cancel_delayed_work_sync(&edev->poll_work);
		edev->polling = false;
	}
	extoll_irq_release(edev);
}
