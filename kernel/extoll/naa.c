// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: attachable remote nodes as auxiliary devices.
 *
 * User space attaches a remote node (sysfs naa_attach, or EXTOLL_IOC_ATTACH):
 * the driver creates the auxiliary device extoll.naa.<id>, a child of the
 * NIC's PCI device, and its driver (naa_bus) turns the node into a PCI
 * domain. Detach deletes the device; the driver's remove() tears the domain
 * down. The driver reports how far it got with extoll_naa_set_state(); a
 * node the driver refuses is deleted again and attach returns its error.
 */
#include <linux/idr.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "extoll.h"

/* Device ids of extoll.naa.<id>, unique across NICs. */
static DEFINE_IDA(extoll_naa_ida);

static const char * const extoll_naa_state_names[] = {
	[EXTOLL_NAA_WAITING] = "waiting",
	[EXTOLL_NAA_PROBING] = "probing",
	[EXTOLL_NAA_ATTACHED] = "attached",
	[EXTOLL_NAA_FAILED] = "failed",
	[EXTOLL_NAA_DEAD] = "dead",
	[EXTOLL_NAA_DETACHING] = "detaching",
};

static struct extoll_naa_dev *extoll_naa_from_dev(struct device *dev)
{
	return to_extoll_naa(to_auxiliary_dev(dev));
}

static ssize_t node_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", extoll_naa_from_dev(dev)->node);
}
static DEVICE_ATTR_RO(node);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	int state = READ_ONCE(extoll_naa_from_dev(dev)->state);

	if (state < 0 || state >= ARRAY_SIZE(extoll_naa_state_names))
		return sysfs_emit(buf, "unknown\n");
	return sysfs_emit(buf, "%s\n", extoll_naa_state_names[state]);
}
static DEVICE_ATTR_RO(state);

/* The PCI domain as lspci prints it, or "none". */
static ssize_t domain_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	int domain = READ_ONCE(extoll_naa_from_dev(dev)->domain);

	if (domain < 0)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%04x\n", domain);
}
static DEVICE_ATTR_RO(domain);

/* The last error the driver reported (negative errno), 0 if none. */
static ssize_t error_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(extoll_naa_from_dev(dev)->error));
}
static DEVICE_ATTR_RO(error);

static struct attribute *extoll_naa_attrs[] = {
	&dev_attr_node.attr,
	&dev_attr_state.attr,
	&dev_attr_domain.attr,
	&dev_attr_error.attr,
	NULL
};
ATTRIBUTE_GROUPS(extoll_naa);

/**
 * extoll_naa_set_state() - the node's driver reports progress
 * @naa: the node
 * @state: the new state
 * @error: a negative errno with EXTOLL_NAA_FAILED, else 0
 * @domain: the PCI domain, or -1
 *
 * Context: any.
 */
void extoll_naa_set_state(struct extoll_naa_dev *naa,
			  enum extoll_naa_state state, int error, int domain)
{
	WRITE_ONCE(naa->error, error);
	WRITE_ONCE(naa->domain, domain);
	WRITE_ONCE(naa->state, state);
}
EXPORT_SYMBOL_GPL(extoll_naa_set_state);

static void extoll_naa_release(struct device *dev)
{
	struct extoll_naa_dev *naa = extoll_naa_from_dev(dev);

	ida_free(&extoll_naa_ida, naa->adev.id);
	kfree(naa);
}

static struct extoll_naa_dev *extoll_naa_find(struct extoll_dev *edev, u16 node)
{
	struct extoll_naa_dev *naa;

	lockdep_assert_held(&edev->naa_lock);
	list_for_each_entry(naa, &edev->naa_list, list)
		if (naa->node == node)
			return naa;
	return NULL;
}

/* Allocate and initialise (not add) the auxiliary device of a node. */
static struct extoll_naa_dev *extoll_naa_alloc(struct extoll_dev *edev, u16 node)
{
	struct extoll_naa_dev *naa;
	int id, ret;

	naa = kzalloc(sizeof(*naa), GFP_KERNEL);
	if (!naa)
		return ERR_PTR(-ENOMEM);

	id = ida_alloc(&extoll_naa_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(naa);
		return ERR_PTR(id);
	}

	naa->nic = edev;
	naa->node = node;
	naa->state = EXTOLL_NAA_WAITING;
	naa->domain = -1;
	INIT_LIST_HEAD(&naa->list);
	naa->adev.name = EXTOLL_NAA_AUXDEV_NAME;
	naa->adev.id = id;
	naa->adev.dev.parent = &edev->pdev->dev;
	naa->adev.dev.release = extoll_naa_release;
	naa->adev.dev.groups = extoll_naa_groups;

	ret = auxiliary_device_init(&naa->adev);
	if (ret) {
		ida_free(&extoll_naa_ida, id);
		kfree(naa);
		return ERR_PTR(ret);
	}
	return naa;
}

/* Delete and drop an added device; its driver's remove() runs here. */
static void extoll_naa_destroy(struct extoll_naa_dev *naa)
{
	auxiliary_device_delete(&naa->adev);
	auxiliary_device_uninit(&naa->adev);
}

/**
 * extoll_naa_attach() - create the auxiliary device of a remote node
 * @edev: the NIC
 * @node: the remote node
 * @id: the device id (extoll.naa.<id>) on success
 *
 * If naa_bus is loaded it probes the node before this returns; when it
 * refuses the node the device is deleted again and its error returned.
 * Without a driver the device waits for one (state "waiting").
 *
 * Context: process, may sleep.
 * Return: 0, -EEXIST (already attached), -EOPNOTSUPP (no remote access),
 * -EINVAL (the NIC's own node id), or the driver's error.
 */
int extoll_naa_attach(struct extoll_dev *edev, u16 node, u32 *id)
{
	struct device *dev = &edev->pdev->dev;
	struct extoll_naa_dev *naa;
	int ret;

	if (!edev->rra_ready) {
		dev_err(dev, "cannot attach node %u: this NIC has no remote register access (no rra block)\n",
			node);
		return -EOPNOTSUPP;
	}
	if (node == edev->info.node_id) {
		dev_err(dev, "cannot attach node %u: that is this NIC\n", node);
		return -EINVAL;
	}

	mutex_lock(&edev->naa_lock);
	naa = extoll_naa_find(edev, node);
	if (naa) {
		dev_info(dev, "node %u is already attached (%s)\n", node,
			 dev_name(&naa->adev.dev));
		ret = -EEXIST;
		goto out_unlock;
	}

	naa = extoll_naa_alloc(edev, node);
	if (IS_ERR(naa)) {
		ret = PTR_ERR(naa);
		goto out_unlock;
	}

	ret = auxiliary_device_add(&naa->adev);
	if (ret) {
		dev_err(dev, "node %u: cannot add its auxiliary device: %d\n",
			node, ret);
		auxiliary_device_uninit(&naa->adev);
		goto out_unlock;
	}

	/* A loaded driver has probed synchronously by now. */
	if (READ_ONCE(naa->state) == EXTOLL_NAA_FAILED) {
		ret = READ_ONCE(naa->error) ?: -ENODEV;
		extoll_naa_destroy(naa);
		goto out_unlock;
	}

	list_add_tail(&naa->list, &edev->naa_list);
	*id = naa->adev.id;
	if (!naa->adev.dev.driver)
		dev_info(dev, "node %u: %s waits for its driver (load naa_bus)\n",
			 node, dev_name(&naa->adev.dev));
	ret = 0;

out_unlock:
	mutex_unlock(&edev->naa_lock);
	return ret;
}

/**
 * extoll_naa_detach() - delete the auxiliary device of a remote node
 * @edev: the NIC
 * @node: the remote node
 *
 * Its driver tears the PCI domain down first (unbinding the drivers of the
 * remote devices).
 *
 * Context: process, may sleep.
 * Return: 0, or -ENOENT if the node is not attached.
 */
int extoll_naa_detach(struct extoll_dev *edev, u16 node)
{
	struct extoll_naa_dev *naa;

	mutex_lock(&edev->naa_lock);
	naa = extoll_naa_find(edev, node);
	if (!naa) {
		mutex_unlock(&edev->naa_lock);
		return -ENOENT;
	}
	list_del_init(&naa->list);
	extoll_naa_destroy(naa);
	mutex_unlock(&edev->naa_lock);
	return 0;
}

/* Detach every node; the NIC is going away. */
void extoll_naa_detach_all(struct extoll_dev *edev)
{
	struct extoll_naa_dev *naa, *tmp;

	mutex_lock(&edev->naa_lock);
	list_for_each_entry_safe(naa, tmp, &edev->naa_list, list) {
		list_del_init(&naa->list);
		naa->nic_removing = true;
		extoll_naa_destroy(naa);
	}
	mutex_unlock(&edev->naa_lock);
}

void extoll_naa_init(struct extoll_dev *edev)
{
	mutex_init(&edev->naa_lock);
	INIT_LIST_HEAD(&edev->naa_list);
}
