// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL-style NIC driver: PCI probe and remove.
 *
 * The NIC has two BARs of interest:
 *   BAR0  the register file (a list of self-describing 64-bit blocks);
 *   BAR2  the SMFU aperture. Loads and stores to it become network packets.
 * This driver owns BAR0 only. The aperture is carved into windows that the
 * remote PCI bus (naa_bus) hands to the devices it enumerates, and those
 * devices' drivers claim their BARs with pci_request_regions() as usual.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>

#include "extoll.h"

static unsigned int poll_ms = 10;
module_param(poll_ms, uint, 0444);
MODULE_PARM_DESC(poll_ms,
		 "Interval in ms to poll for events when interrupts do not work (default 10)");

static bool force_poll;
module_param(force_poll, bool, 0444);
MODULE_PARM_DESC(force_poll,
		 "Do not use interrupts; poll every poll_ms instead (default off)");

const char *extoll_role_name(u8 role)
{
	switch (role) {
	case EXTOLL_ROLE_ENDPOINT:
		return "endpoint";
	case EXTOLL_ROLE_ROOT_PORT:
		return "root-port";
	}
	return "unknown";
}

/* Enable the device and map the register BAR. */
static int extoll_pci_setup(struct extoll_dev *edev)
{
	struct pci_dev *pdev = edev->pdev;
	struct device *dev = &pdev->dev;
	int ret;

	ret = pci_enable_device_mem(pdev);
	if (ret) {
		dev_err(dev, "cannot enable device: %d\n", ret);
		return ret;
	}

	if (!(pci_resource_flags(pdev, EXTOLL_BAR_REGS) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, EXTOLL_BAR_REGS) < sizeof(u64)) {
		dev_err(dev, "BAR%d (registers) is missing or not a memory BAR\n",
			EXTOLL_BAR_REGS);
		ret = -ENODEV;
		goto err_disable;
	}

	/*
	 * BAR0 only. The aperture BAR is deliberately left unrequested:
	 * naa_bus inserts child windows into it and the remote devices'
	 * drivers request those, which would fail with -EBUSY under a
	 * region held here.
	 */
	ret = pci_request_region(pdev, EXTOLL_BAR_REGS, KBUILD_MODNAME);
	if (ret) {
		dev_err(dev, "cannot claim BAR%d: %d\n", EXTOLL_BAR_REGS, ret);
		goto err_disable;
	}

	edev->regs_len = pci_resource_len(pdev, EXTOLL_BAR_REGS);
	edev->regs = pci_iomap(pdev, EXTOLL_BAR_REGS, 0);
	if (!edev->regs) {
		dev_err(dev, "cannot map BAR%d (%pR)\n", EXTOLL_BAR_REGS,
			&pdev->resource[EXTOLL_BAR_REGS]);
		ret = -ENOMEM;
		goto err_release;
	}

	return 0;

err_release:
	pci_release_region(pdev, EXTOLL_BAR_REGS);
err_disable:
	pci_disable_device(pdev);
	return ret;
}

static void extoll_pci_teardown(struct extoll_dev *edev)
{
	struct pci_dev *pdev = edev->pdev;

	pci_clear_master(pdev);
	pci_iounmap(pdev, edev->regs);
	edev->regs = NULL;
	pci_release_region(pdev, EXTOLL_BAR_REGS);
	pci_disable_device(pdev);
}

/**
 * extoll_pci_dev() - the NIC's PCI device
 * @nic: the NIC
 *
 * Return: the PCI device (parent of the remote PCI domains).
 */
struct pci_dev *extoll_pci_dev(struct extoll_dev *nic)
{
	return nic->pdev;
}
EXPORT_SYMBOL_GPL(extoll_pci_dev);

/**
 * extoll_node_id() - the NIC's own node id
 * @nic: the NIC
 *
 * Return: the node id (INFO id.node_id).
 */
u16 extoll_node_id(struct extoll_dev *nic)
{
	return nic->info.node_id;
}
EXPORT_SYMBOL_GPL(extoll_node_id);

/**
 * extoll_aperture() - the SMFU aperture BAR, parent of the child windows
 * @nic: the NIC
 *
 * The driver does not request this BAR; callers insert their windows
 * below it with request_resource()/allocate_resource().
 *
 * Return: the BAR resource, or NULL if the BAR is absent or not memory.
 */
struct resource *extoll_aperture(struct extoll_dev *nic)
{
	struct resource *res = &nic->pdev->resource[EXTOLL_BAR_APERTURE];

	if (!(resource_type(res) == IORESOURCE_MEM) || !resource_size(res) ||
	    !res->parent)
		return NULL;
	return res;
}
EXPORT_SYMBOL_GPL(extoll_aperture);

static void extoll_log_identity(struct extoll_dev *edev)
{
	const struct extoll_info *info = &edev->info;

	dev_info(&edev->pdev->dev,
		 "EXTOLL NIC rtl %u.%u.%u build %08x commit %08x node %u (%s), %u register block(s)\n",
		 info->ver_major, info->ver_minor, info->ver_patch,
		 info->build_date, info->build_commit, info->node_id,
		 extoll_role_name(info->role), edev->nr_blocks);
}

/**
 * extoll_init() - bring up the driver's state on an enabled, mapped NIC
 * @edev: the NIC (PCI set up, health reporter created)
 *
 * The second half of probe, and what devlink reload runs again after the NIC
 * came back from its flash (reload_up). Undone by extoll_uninit().
 *
 * Return: 0, or a negative errno with nothing of it left set up.
 */
int extoll_init(struct extoll_dev *edev)
{
	struct pci_dev *pdev = edev->pdev;
	int ret;

	pci_set_master(pdev);
	ret = extoll_regs_probe(edev);
	if (ret)
		return ret;

	extoll_log_identity(edev);
	pci_set_drvdata(pdev, edev);

	ret = extoll_rra_init(edev);
	if (ret) {
		extoll_rra_teardown(edev);
		return ret;
	}

	/* SMFU and interrupt forwarding; without them nodes cannot attach. */
	extoll_smfu_init(edev);
	extoll_rma_init(edev);
	if (extoll_notify_init(edev))
		dev_warn(&pdev->dev,
			 "continuing without interrupt forwarding (no notification ring)\n");

	/* Other nodes' RMA requests into host memory: exposed regions only. */
	extoll_rma_expose_init(edev);

	/* Enables the notify cause when the ring is there. */
	extoll_irq_init(edev, poll_ms, force_poll);

	/* Tools still have sysfs without the character device. */
	if (extoll_cdev_register(edev))
		dev_warn(&pdev->dev, "continuing without a character device\n");
	return 0;
}

/**
 * extoll_uninit() - stop the NIC and free what extoll_init() set up
 * @edev: the NIC (no NAA node attached, health reporter stopped)
 *
 * Leaves the PCI device enabled with BAR0 mapped and bus mastering off.
 */
void extoll_uninit(struct extoll_dev *edev)
{
	extoll_irq_teardown(edev);
	extoll_notify_stop(edev);	/* ring disabled ... */
	extoll_rma_expose_teardown(edev);	/* no region exposed to peers */
	extoll_smfu_teardown(edev);
	pci_clear_master(edev->pdev);	/* bus mastering off ... */
	extoll_rma_teardown(edev);	/* ... before RMA buffers, */
	extoll_notify_free(edev);	/* the ring ... */
	extoll_rra_teardown(edev);	/* ... and the record are freed */
}

static int extoll_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct extoll_dev *edev;
	int ret;

	edev = extoll_devlink_alloc(pdev);
	if (!edev)
		return -ENOMEM;
	edev->pdev = pdev;

	ret = extoll_pci_setup(edev);
	if (ret)
		goto err_free;

	extoll_naa_init(edev);
	extoll_health_init(edev);
	ret = extoll_init(edev);
	if (ret)
		goto err_pci;

	/* Last: user space may query the device from here on. */
	extoll_devlink_register(edev);
	return 0;

err_pci:
	extoll_health_teardown(edev);
	extoll_pci_teardown(edev);
	pci_set_drvdata(pdev, NULL);
err_free:
	extoll_devlink_free(edev);
	return ret;
}

static void extoll_remove(struct pci_dev *pdev)
{
	struct extoll_dev *edev = pci_get_drvdata(pdev);

	extoll_devlink_unregister(edev);
	/* A reload that failed (device gone) left nothing but PCI set up. */
	if (!edev->reloading) {
		extoll_cdev_unregister(edev);
		/* The remote PCI domains go first: they use RRA and the aperture. */
		extoll_naa_detach_all(edev);
	}
	extoll_health_teardown(edev);	/* no RRA request from here on */
	if (!edev->reloading)
		extoll_uninit(edev);
	extoll_pci_teardown(edev);
	pci_set_drvdata(pdev, NULL);
	extoll_devlink_free(edev);
}

static const struct pci_device_id extoll_pci_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_EXTOLL, PCI_DEVICE_ID_EXTOLL_NIC) },
	{ }
};
MODULE_DEVICE_TABLE(pci, extoll_pci_ids);

static struct pci_driver extoll_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = extoll_pci_ids,
	.probe = extoll_probe,
	.remove = extoll_remove,
	.dev_groups = extoll_dev_groups,
};
module_pci_driver(extoll_pci_driver);

MODULE_DESCRIPTION("EXTOLL-style NIC (network-attached accelerators)");
MODULE_LICENSE("GPL");
