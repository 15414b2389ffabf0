// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: sysfs attributes on the PCI device.
 *
 * The driver core creates them after probe succeeds and removes them before
 * remove() runs (driver dev_groups), so drvdata is always valid here.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include "extoll.h"

static struct extoll_dev *extoll_from_dev(struct device *dev)
{
	return pci_get_drvdata(to_pci_dev(dev));
}

static ssize_t rtl_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	const struct extoll_info *info = &extoll_from_dev(dev)->info;

	return sysfs_emit(buf, "%u.%u.%u\n", info->ver_major, info->ver_minor,
			  info->ver_patch);
}
static DEVICE_ATTR_RO(rtl_version);

/* Build date (BCD YYYYMMDD) and source commit, as "20261122-1a2b3c4d". */
static ssize_t build_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	const struct extoll_info *info = &extoll_from_dev(dev)->info;

	return sysfs_emit(buf, "%08x-%08x\n", info->build_date,
			  info->build_commit);
}
static DEVICE_ATTR_RO(build);

static ssize_t node_id_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", extoll_from_dev(dev)->info.node_id);
}
static DEVICE_ATTR_RO(node_id);

static ssize_t role_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  extoll_role_name(extoll_from_dev(dev)->info.role));
}
static DEVICE_ATTR_RO(role);

/* Read and written through to the RTL every time. */
static ssize_t scratch_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct extoll_dev *edev = extoll_from_dev(dev);

	return sysfs_emit(buf, "0x%016llx\n",
			  extoll_info_rd(edev, EXTOLL_INFO_SCRATCH));
}

static ssize_t scratch_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct extoll_dev *edev = extoll_from_dev(dev);
	u64 val;

	if (kstrtou64(buf, 0, &val))
		return -EINVAL;

	extoll_info_wr(edev, EXTOLL_INFO_SCRATCH, val);
	return count;
}
static DEVICE_ATTR_RW(scratch);

static ssize_t irq_mode_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  extoll_irq_mode_name(extoll_from_dev(dev)->irq_mode));
}
static DEVICE_ATTR_RO(irq_mode);

static struct attribute *extoll_dev_attrs[] = {
	&dev_attr_rtl_version.attr,
	&dev_attr_build.attr,
	&dev_attr_node_id.attr,
	&dev_attr_role.attr,
	&dev_attr_scratch.attr,
	&dev_attr_irq_mode.attr,
	NULL
};

static const struct attribute_group extoll_dev_group = {
	.attrs = extoll_dev_attrs,
};

const struct attribute_group *extoll_dev_groups[] = {
	&extoll_dev_group,
	NULL
};
