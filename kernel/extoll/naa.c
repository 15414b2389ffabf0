// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: attachable remote nodes as auxiliary devices.
 *
 * User space attaches a remote node (sysfs naa_attach, or the attach
 * ioctls): the driver creates the auxiliary device extoll.naa.<id>, a child
 * of the NIC's PCI device, and its driver (naa_bus) turns the node into a
 * PCI domain. Detach deletes the device; the driver's remove() tears the
 * domain down. The driver reports how far it got with
 * extoll_naa_set_state() and its domain with extoll_naa_set_domain(): the
 * attach command returns the domain and root bus, and the node's device
 * links the root bus (sysfs "root_bus", as vmd links its domain). A node
 * the driver refuses is deleted again and attach returns its error.
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

static struct extoll_naa *extoll_naa_of(struct extoll_naa_dev *naa)
{
	return container_of(naa, struct extoll_naa, naa);
}

static struct extoll_naa *extoll_naa_from_dev(struct device *dev)
{
	return extoll_naa_of(to_extoll_naa(to_auxiliary_dev(dev)));
}

static ssize_t node_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", extoll_naa_from_dev(dev)->naa.node);
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
 *
 * Context: any.
 */
void extoll_naa_set_state(struct extoll_naa_dev *naa,
			  enum extoll_naa_state state, int error)
{
	struct extoll_naa *priv = extoll_naa_of(naa);

	WRITE_ONCE(priv->error, error);
	WRITE_ONCE(priv->state, state);
}
EXPORT_SYMBOL_GPL(extoll_naa_set_state);

/* The domain is going: unlink it before its root bus goes, as vmd does. */
static void extoll_naa_unlink(struct extoll_naa *priv)
{
	if (priv->linked)
		sysfs_remove_link(&priv->naa.adev.dev.kobj, "root_bus");
	priv->linked = false;
	WRITE_ONCE(priv->domain, -1);
}

/**
 * extoll_naa_set_domain() - the node's driver reports its PCI domain
 * @naa: the node
 * @root: the domain's root bus, or NULL before the driver removes it
 *
 * The domain and the root bus number go back to the attach command; the
 * root bus is linked from the node's device (sysfs "root_bus"). A link
 * that cannot be created is only warned about: the domain works without.
 *
 * Context: process, from the driver's probe() and remove().
 */
void extoll_naa_set_domain(struct extoll_naa_dev *naa, struct pci_bus *root)
{
	struct extoll_naa *priv = extoll_naa_of(naa);
	int ret;

	extoll_naa_unlink(priv);
	if (!root)
		return;

	priv->root_bus = root->number;
	WRITE_ONCE(priv->domain, pci_domain_nr(root));
	ret = sysfs_create_link(&naa->adev.dev.kobj, &root->dev.kobj, "root_bus");
	if (ret)
		dev_warn(&naa->adev.dev, "cannot link its root bus %s: %d\n",
			 dev_name(&root->dev), ret);
	priv->linked = !ret;
}
EXPORT_SYMBOL_GPL(extoll_naa_set_domain);

static void extoll_naa_release(struct device *dev)
{
	struct extoll_naa *priv = extoll_naa_from_dev(dev);

	ida_free(&extoll_naa_ida, priv->naa.adev.id);
	kfree(priv);
}

static struct extoll_naa *extoll_naa_find(struct extoll_dev *edev, u16 node)
{
	struct extoll_naa *priv;

	lockdep_assert_held(&edev->naa_lock);
	list_for_each_entry(priv, &edev->naa_list, list)
		if (priv->naa.node == node)
			return priv;
	return NULL;
}

/* Allocate and initialise (not add) the auxiliary device of a node. */
static struct extoll_naa *extoll_naa_alloc(struct extoll_dev *edev, u16 node)
{
	struct extoll_naa *priv;
	struct auxiliary_device *adev;
	int id, ret;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);

	id = ida_alloc(&extoll_naa_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(priv);
		return ERR_PTR(id);
	}

	priv->naa.nic = edev;
	priv->naa.node = node;
	priv->state = EXTOLL_NAA_WAITING;
	priv->domain = -1;
	INIT_LIST_HEAD(&priv->list);
	adev = &priv->naa.adev;
	adev->name = EXTOLL_NAA_AUXDEV_NAME;
	adev->id = id;
	adev->dev.parent = &edev->pdev->dev;
	adev->dev.release = extoll_naa_release;
	adev->dev.groups = extoll_naa_groups;

	ret = auxiliary_device_init(adev);
	if (ret) {
		ida_free(&extoll_naa_ida, id);
		kfree(priv);
		return ERR_PTR(ret);
	}
	return priv;
}

/* Delete and drop an added device; its driver's remove() runs here. */
static void extoll_naa_destroy(struct extoll_naa *priv)
{
	auxiliary_device_delete(&priv->naa.adev);
	auxiliary_device_uninit(&priv->naa.adev);
}

/* What the driver made of a node it did not refuse. */
static void extoll_naa_result(struct extoll_naa *priv,
			      struct extoll_naa_result *res)
{
	res->id = priv->naa.adev.id;
	res->domain = READ_ONCE(priv->domain);
	res->root_bus = res->domain < 0 ? 0 : priv->root_bus;
}

/**
 * extoll_naa_attach() - create the auxiliary device of a remote node
 * @edev: the NIC
 * @node: the remote node
 * @res: on success the device id, and the PCI domain and root bus the
 *	driver created (domain -1 while no driver is bound)
 *
 * If naa_bus is loaded it probes the node before this returns; when it
 * refuses the node the device is deleted again and its error returned.
 * Without a driver the device waits for one (state "waiting").
 *
 * Context: process, may sleep.
 * Return: 0, -EEXIST (already attached), -EOPNOTSUPP (no remote access),
 * -EINVAL (the NIC's own node id), or the driver's error.
 */
int extoll_naa_attach(struct extoll_dev *edev, u16 node,
		      struct extoll_naa_result *res)
{
	struct device *dev = &edev->pdev->dev;
	struct extoll_naa *priv;
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
	if (edev->reloading) {
		dev_err(dev, "cannot attach node %u: the NIC is being reloaded\n",
			node);
		ret = -EBUSY;
		goto out_unlock;
	}
	priv = extoll_naa_find(edev, node);
	if (priv) {
		dev_info(dev, "node %u is already attached (%s)\n", node,
			 dev_name(&priv->naa.adev.dev));
		ret = -EEXIST;
		goto out_unlock;
	}

	priv = extoll_naa_alloc(edev, node);
	if (IS_ERR(priv)) {
		ret = PTR_ERR(priv);
		goto out_unlock;
	}

	ret = auxiliary_device_add(&priv->naa.adev);
	if (ret) {
		dev_err(dev, "node %u: cannot add its auxiliary device: %d\n",
			node, ret);
		auxiliary_device_uninit(&priv->naa.adev);
		goto out_unlock;
	}

	/* A loaded driver has probed synchronously by now. */
	if (READ_ONCE(priv->state) == EXTOLL_NAA_FAILED) {
		ret = READ_ONCE(priv->error) ?: -ENODEV;
		extoll_naa_destroy(priv);
		goto out_unlock;
	}

	list_add_tail(&priv->list, &edev->naa_list);
	extoll_naa_result(priv, res);
	if (!priv->naa.adev.dev.driver)
		dev_info(dev, "node %u: %s waits for its driver (load naa_bus)\n",
			 node, dev_name(&priv->naa.adev.dev));
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
	struct extoll_naa *priv;

	mutex_lock(&edev->naa_lock);
	priv = extoll_naa_find(edev, node);
	if (!priv) {
		mutex_unlock(&edev->naa_lock);
		return -ENOENT;
	}
	list_del_init(&priv->list);
	extoll_naa_destroy(priv);
	mutex_unlock(&edev->naa_lock);
	return 0;
}

/* Detach every node; the NIC is going away. */
void extoll_naa_detach_all(struct extoll_dev *edev)
{
	struct extoll_naa *priv, *tmp;

	mutex_lock(&edev->naa_lock);
	list_for_each_entry_safe(priv, tmp, &edev->naa_list, list) {
		list_del_init(&priv->list);
		priv->naa.nic_removing = true;
		extoll_naa_destroy(priv);
	}
	mutex_unlock(&edev->naa_lock);
}

void extoll_naa_init(struct extoll_dev *edev)
{
	mutex_init(&edev->naa_lock);
	INIT_LIST_HEAD(&edev->naa_list);
}
