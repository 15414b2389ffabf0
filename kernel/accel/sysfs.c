// SPDX-License-Identifier: GPL-2.0
/*
 * Sample accelerator: sysfs attributes of the PCI device
 * (/sys/bus/pci/devices/<bdf>/), present while the driver is bound.
 * The driver core removes them before remove() runs.
 */
#include <linux/device.h>
#include <linux/pci.h>
#include <linux/sysfs.h>

#include "sacc.h"

static struct sacc_dev *sacc_from_dev(struct device *dev)
{
	return pci_get_drvdata(to_pci_dev(dev));
}

static ssize_t irq_mode_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  sacc_irq_mode_name(READ_ONCE(sacc_from_dev(dev)->irq_mode)));
}
static DEVICE_ATTR_RO(irq_mode);

static ssize_t irq_vectors_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(sacc_from_dev(dev)->nvec));
}
static DEVICE_ATTR_RO(irq_vectors);

static ssize_t chardev_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", sacc_from_dev(dev)->name);
}
static DEVICE_ATTR_RO(chardev);

static ssize_t devmem_size_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", sacc_from_dev(dev)->devmem_size);
}
static DEVICE_ATTR_RO(devmem_size);

#define SACC_STAT_ATTR(_name)						\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n",				\
			  atomic64_read(&sacc_from_dev(dev)->stats._name)); \
}									\
static DEVICE_ATTR_RO(_name)

SACC_STAT_ATTR(jobs_done);
SACC_STAT_ATTR(jobs_failed);
SACC_STAT_ATTR(jobs_timedout);
SACC_STAT_ATTR(irq_count);
SACC_STAT_ATTR(irq_lost);
SACC_STAT_ATTR(resets);

static struct attribute *sacc_dev_attrs[] = {
	&dev_attr_irq_mode.attr,
	&dev_attr_irq_vectors.attr,
	&dev_attr_chardev.attr,
	&dev_attr_devmem_size.attr,
	&dev_attr_jobs_done.attr,
	&dev_attr_jobs_failed.attr,
	&dev_attr_jobs_timedout.attr,
	&dev_attr_irq_count.attr,
	&dev_attr_irq_lost.attr,
	&dev_attr_resets.attr,
	NULL,
};

static const struct attribute_group sacc_dev_group = {
	.attrs = sacc_dev_attrs,
};

const struct attribute_group *sacc_dev_groups[] = {
	&sacc_dev_group,
	NULL,
};
