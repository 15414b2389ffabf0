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

/* Attach / detach a remote node: write its node id (decimal or 0x hex). */
static int extoll_parse_node(const char *buf, u16 *node)
{
	return kstrtou16(buf, 0, node);
}

static ssize_t naa_attach_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct extoll_naa_result res;
	u16 node;
	int ret;

	if (extoll_parse_node(buf, &node))
		return -EINVAL;
	ret = extoll_naa_attach(extoll_from_dev(dev), node, &res);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(naa_attach);

static ssize_t naa_detach_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	u16 node;
	int ret;

	if (extoll_parse_node(buf, &node))
		return -EINVAL;
	ret = extoll_naa_detach(extoll_from_dev(dev), node);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(naa_detach);

/* Character device name, "extoll0". */
static ssize_t chardev_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "extoll%d\n", extoll_from_dev(dev)->index);
}
static DEVICE_ATTR_RO(chardev);

static struct attribute *extoll_dev_attrs[] = {
	&dev_attr_rtl_version.attr,
	&dev_attr_build.attr,
	&dev_attr_node_id.attr,
	&dev_attr_role.attr,
	&dev_attr_scratch.attr,
	&dev_attr_irq_mode.attr,
	&dev_attr_naa_attach.attr,
	&dev_attr_naa_detach.attr,
	&dev_attr_chardev.attr,
	NULL
};

static const struct attribute_group extoll_dev_group = {
	.attrs = extoll_dev_attrs,
};

/* A counter @_name of struct extoll_@_part_stats, from extoll_@_part_stats_get(). */
#define EXTOLL_STAT_ATTR(_part, _name)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct extoll_##_part##_stats st;				\
									\
	extoll_##_part##_stats_get(extoll_from_dev(dev), &st);		\
	return sysfs_emit(buf, "%llu\n", st._name);			\
}									\
static DEVICE_ATTR_RO(_name)

/* rra/: counters of the remote register access engine. */
EXTOLL_STAT_ATTR(rra, requests);
EXTOLL_STAT_ATTR(rra, timeouts);
EXTOLL_STAT_ATTR(rra, errors);
EXTOLL_STAT_ATTR(rra, stale);

static struct attribute *extoll_rra_attrs[] = {
	&dev_attr_requests.attr,
	&dev_attr_timeouts.attr,
	&dev_attr_errors.attr,
	&dev_attr_stale.attr,
	NULL
};

static const struct attribute_group extoll_rra_group = {
	.name = "rra",
	.attrs = extoll_rra_attrs,
};

/* notify/: the notification queue (forwarded interrupts). */
EXTOLL_STAT_ATTR(notify, entries);
EXTOLL_STAT_ATTR(notify, unclaimed);

/* The NIC's count of events held back by a full ring. */
static ssize_t full_stalls_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct extoll_dev *edev = extoll_from_dev(dev);

	if (!edev->notify.ready)
		return -EOPNOTSUPP;
	return sysfs_emit(buf, "%llu\n",
			  extoll_rd(edev, edev->notify_off + EXTOLL_NOTIFY_FULL_STALLS) &
			  EXTOLL_NOTIFY_FULL_STALLS_COUNT_MASK);
}
static DEVICE_ATTR_RO(full_stalls);

static struct attribute *extoll_notify_attrs[] = {
	&dev_attr_entries.attr,
	&dev_attr_unclaimed.attr,
	&dev_attr_full_stalls.attr,
	NULL
};

static const struct attribute_group extoll_notify_group = {
	.name = "notify",
	.attrs = extoll_notify_attrs,
};

/*
 * A counter of a part whose names other groups use too (errors, stale):
 * the attribute variable carries the part's name, the file does not.
 */
#define EXTOLL_PART_STAT_ATTR(_part, _name)				\
static ssize_t _part##_##_name##_show(struct device *dev,		\
				      struct device_attribute *attr,	\
				      char *buf)			\
{									\
	struct extoll_##_part##_stats st;				\
									\
	extoll_##_part##_stats_get(extoll_from_dev(dev), &st);		\
	return sysfs_emit(buf, "%llu\n", st._name);			\
}									\
static struct device_attribute dev_attr_##_part##_##_name =		\
	__ATTR(_name, 0444, _part##_##_name##_show, NULL)

/* rma/: one-sided put/get (rma.c). */
EXTOLL_PART_STAT_ATTR(rma, posted);
EXTOLL_PART_STAT_ATTR(rma, done);
EXTOLL_PART_STAT_ATTR(rma, errors);
EXTOLL_PART_STAT_ATTR(rma, full);
EXTOLL_PART_STAT_ATTR(rma, stale);
EXTOLL_PART_STAT_ATTR(rma, cmp_notis);

static struct attribute *extoll_rma_attrs[] = {
	&dev_attr_rma_posted.attr,
	&dev_attr_rma_done.attr,
	&dev_attr_rma_errors.attr,
	&dev_attr_rma_full.attr,
	&dev_attr_rma_stale.attr,
	&dev_attr_rma_cmp_notis.attr,
	NULL
};

static const struct attribute_group extoll_rma_group = {
	.name = "rma",
	.attrs = extoll_rma_attrs,
};

const struct attribute_group *extoll_dev_groups[] = {
	&extoll_dev_group,
	&extoll_rra_group,
	&extoll_notify_group,
	&extoll_rma_group,
	&extoll_link0_group,
	&extoll_link1_group,
	&extoll_link2_group,
	&extoll_link3_group,
	&extoll_link4_group,
	&extoll_link5_group,
	&extoll_link6_group,
	NULL
};
