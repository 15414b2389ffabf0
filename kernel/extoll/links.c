// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: sysfs link0/ .. link6/ on the PCI device, the link layer of
 * each of the NIC's own network links (docs/network.md "Link layer"):
 *
 *   port           X+ X- Y+ Y- Z+ Z- spare
 *   state          down, training, retraining or up
 *   crc_errors     bad symbols received while up (each repaired by a replay)
 *   naks_sent      NAK control words sent
 *   naks_received  NAK control words received
 *   replays        retransmissions from the replay buffer
 *   downs          times the link left state up (retrain)
 *
 * The per-link counters sit behind one selector (router.link_sel): a read
 * selects the link and reads the counter under a mutex. The counters are
 * 32 bits wide and wrap.
 */
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

#include "extoll.h"

#define EXTOLL_NLINKS	EXTOLL_ROUTER_LINK_STATUS_UP_WIDTH

static DEFINE_MUTEX(extoll_link_sel_lock);

static const char *const extoll_link_port[EXTOLL_NLINKS] = {
	"X+", "X-", "Y+", "Y-", "Z+", "Z-", "spare",
};

/* net_lstate: the link state machine (link_rx/link_tx). */
static const char *const extoll_link_state[4] = {
	"down", "training", "retraining", "up",
};

/* The link of an attribute: its group's dev_ext_attribute var. */
static unsigned int extoll_link_of(struct device_attribute *attr)
{
	return (uintptr_t)container_of(attr, struct dev_ext_attribute, attr)->var;
}

static struct extoll_dev *extoll_links_dev(struct device *dev)
{
	struct extoll_dev *edev = pci_get_drvdata(to_pci_dev(dev));

	return edev->router_off == EXTOLL_NO_BLOCK ? NULL : edev;
}

/* One counter of one link: select, then read (the read follows the write). */
static ssize_t extoll_link_counter(struct device *dev,
				   struct device_attribute *attr, char *buf,
				   u32 reg)
{
	struct extoll_dev *edev = extoll_links_dev(dev);
	u64 v;

	if (!edev)
		return -EOPNOTSUPP;
	mutex_lock(&extoll_link_sel_lock);
	extoll_wr(edev, edev->router_off + EXTOLL_ROUTER_LINK_SEL,
		  extoll_link_of(attr));
	v = extoll_rd(edev, edev->router_off + reg);
	mutex_unlock(&extoll_link_sel_lock);
	if (v == ~0ULL)
		return -ENODEV;		/* the device is gone */
	return sysfs_emit(buf, "%llu\n", v & U32_MAX);
}

#define EXTOLL_LINK_COUNTER(_name, _reg)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return extoll_link_counter(dev, attr, buf, _reg);		\
}

EXTOLL_LINK_COUNTER(crc_errors, EXTOLL_ROUTER_LINK_CRC_ERRORS)
EXTOLL_LINK_COUNTER(naks_sent, EXTOLL_ROUTER_LINK_NAKS_SENT)
EXTOLL_LINK_COUNTER(naks_received, EXTOLL_ROUTER_LINK_NAKS_RCVD)
EXTOLL_LINK_COUNTER(replays, EXTOLL_ROUTER_LINK_REPLAYS)
EXTOLL_LINK_COUNTER(downs, EXTOLL_ROUTER_LINK_DOWNS)

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct extoll_dev *edev = extoll_links_dev(dev);
	unsigned int l = extoll_link_of(attr);
	u64 v;

	if (!edev)
		return -EOPNOTSUPP;
	v = extoll_rd(edev, edev->router_off + EXTOLL_ROUTER_LINK_STATUS);
	if (v == ~0ULL)
		return -ENODEV;
	v = (v & EXTOLL_ROUTER_LINK_STATUS_STATE_MASK) >>
	    EXTOLL_ROUTER_LINK_STATUS_STATE_SHIFT;
	return sysfs_emit(buf, "%s\n", extoll_link_state[(v >> (2 * l)) & 3]);
}

static ssize_t port_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", extoll_link_port[extoll_link_of(attr)]);
}

#define EXTOLL_LINK_ATTR(_name, _n)					\
	{ __ATTR_RO(_name), (void *)(uintptr_t)(_n) }

#define EXTOLL_LINK_GROUP(_n)						\
static struct dev_ext_attribute extoll_link##_n##_ext[] = {		\
	EXTOLL_LINK_ATTR(port, _n),					\
	EXTOLL_LINK_ATTR(state, _n),					\
	EXTOLL_LINK_ATTR(crc_errors, _n),				\
	EXTOLL_LINK_ATTR(naks_sent, _n),				\
	EXTOLL_LINK_ATTR(naks_received, _n),				\
	EXTOLL_LINK_ATTR(replays, _n),					\
	EXTOLL_LINK_ATTR(downs, _n),					\
};									\
static struct attribute *extoll_link##_n##_attrs[] = {			\
	&extoll_link##_n##_ext[0].attr.attr,				\
	&extoll_link##_n##_ext[1].attr.attr,				\
	&extoll_link##_n##_ext[2].attr.attr,				\
	&extoll_link##_n##_ext[3].attr.attr,				\
	&extoll_link##_n##_ext[4].attr.attr,				\
	&extoll_link##_n##_ext[5].attr.attr,				\
	&extoll_link##_n##_ext[6].attr.attr,				\
	NULL								\
};									\
const struct attribute_group extoll_link##_n##_group = {		\
	.name = "link" #_n,						\
	.attrs = extoll_link##_n##_attrs,				\
}

EXTOLL_LINK_GROUP(0);
EXTOLL_LINK_GROUP(1);
EXTOLL_LINK_GROUP(2);
EXTOLL_LINK_GROUP(3);
EXTOLL_LINK_GROUP(4);
EXTOLL_LINK_GROUP(5);
EXTOLL_LINK_GROUP(6);
