// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: the character device /dev/extollN (a misc device) and its
 * ioctls (include/uapi/extoll_ioctl.h): NIC info, remote register access
 * with optional source route, tunnelled config requests, attach/detach,
 * and RMA: registered buffers (mmap), put/get, completions (ioctl, poll).
 *
 * An open file may outlive the NIC (unbind, rmmod): the file holds a
 * reference on struct extoll_cdev, whose edev pointer remove() clears under
 * the rwsem; ioctls then fail with -ENODEV.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "extoll.h"

struct extoll_cdev {
	struct miscdevice misc;
	char name[24];		/* "extoll%d" for any int */
	struct kref ref;
	struct rw_semaphore lock;	/* protects edev */
	struct extoll_dev *edev;	/* NULL once the NIC is gone */
};

/* An open file: its device, and its RMA buffers and transfers. */
struct extoll_file {
	struct extoll_cdev *cdev;
	struct extoll_rma_file rma;
};

/* /dev/extollN numbers. */
static DEFINE_IDA(extoll_cdev_ida);

static void extoll_cdev_free(struct kref *ref)
{
	struct extoll_cdev *cdev = container_of(ref, struct extoll_cdev, ref);

	kfree(cdev);
}

/*
 * misc_open() calls this under misc_mtx, so misc_deregister() cannot race;
 * it set private_data to the misc device, replaced here by the file's own.
 */
static int extoll_cdev_open(struct inode *inode, struct file *file)
{
	struct extoll_cdev *cdev = container_of(file->private_data,
						struct extoll_cdev, misc);
	struct extoll_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	kref_get(&cdev->ref);
	f->cdev = cdev;
	extoll_rma_file_init(&f->rma);
	file->private_data = f;
	return 0;
}

static int extoll_cdev_release(struct inode *inode, struct file *file)
{
	struct extoll_file *f = file->private_data;
	struct extoll_cdev *cdev = f->cdev;

	down_read(&cdev->lock);
	extoll_rma_file_release(cdev->edev, &f->rma);
	up_read(&cdev->lock);
	kref_put(&cdev->ref, extoll_cdev_free);
	kfree(f);
	return 0;
}

static long extoll_ioc_info(struct extoll_dev *edev, void __user *arg)
{
	const struct extoll_info *info = &edev->info;
	struct extoll_ioc_info out = {
		.abi = EXTOLL_IOC_ABI,
		.node_id = info->node_id,
		.role = info->role,
		.rra = edev->rra_ready,
		.rtl_version = (info->ver_major & 0xff) << 16 |
			       (info->ver_minor & 0xff) << 8 |
			       (info->ver_patch & 0xff),
		.rra_timeout_us = extoll_rra_timeout_us(),
	};

	strscpy(out.pci_name, pci_name(edev->pdev), sizeof(out.pci_name));
	return copy_to_user(arg, &out, sizeof(out)) ? -EFAULT : 0;
}

static long extoll_ioc_rra(struct extoll_dev *edev, void __user *arg)
{
	struct extoll_rra_op op = { };
	struct extoll_ioc_rra req;
	bool routed;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags & ~EXTOLL_RRA_F_SRCROUTE)
		return -EINVAL;
	routed = req.flags & EXTOLL_RRA_F_SRCROUTE;

	if (req.op != EXTOLL_RRA_READ && req.op != EXTOLL_RRA_WRITE)
		return -EINVAL;
	op.op = req.op == EXTOLL_RRA_READ ? EXTOLL_RRA_OP_READ : EXTOLL_RRA_OP_WRITE;
	op.srcroute = routed;
	op.route = req.route;
	op.node = req.node;
	op.addr = req.addr;
	op.wdata = req.data;
	ret = extoll_rra_access(edev, &op,
				req.op == EXTOLL_RRA_READ ? &req.data : NULL,
				&req.answered);
	if (!routed)
		req.answered = req.node;
	req.status = ret == -EREMOTEIO ? EXTOLL_CMP_REG_ERR :
		     ret == -EACCES ? EXTOLL_CMP_DENIED : EXTOLL_CMP_OK;

	/* The results also go back on error: data is all-ones then. */
	if (copy_to_user(arg, &req, sizeof(req)))
		return -EFAULT;
	return ret;
}

static long extoll_ioc_cfg(struct extoll_dev *edev, void __user *arg)
{
	struct extoll_cfg_req cfg = {};
	struct extoll_ioc_cfg req;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;

	cfg.bus = req.bus;
	cfg.devfn = req.devfn;
	cfg.where = req.where;
	cfg.size = req.size;
	cfg.write = req.write;
	cfg.val = req.val;
	ret = extoll_cfg_tlp(edev, req.node, &cfg);
	req.val = cfg.val;
	req.cpl_status = cfg.cpl_status;

	if (copy_to_user(arg, &req, sizeof(req)))
		return -EFAULT;
	return ret;
}

/* EXTOLL_IOC_ATTACH (ABI 1: the device id only) and EXTOLL_IOC_DETACH. */
static long extoll_ioc_node(struct extoll_dev *edev, unsigned int cmd,
			    void __user *arg)
{
	struct extoll_naa_result res;
	struct extoll_ioc_node req;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;

	if (cmd == EXTOLL_IOC_DETACH)
		return extoll_naa_detach(edev, req.node);

	ret = extoll_naa_attach(edev, req.node, &res);
	if (ret)
		return ret;
	req.id = res.id;
	return copy_to_user(arg, &req, sizeof(req)) ? -EFAULT : 0;
}

/* EXTOLL_IOC_ATTACH_DOMAIN: attach, and return what the attach came to. */
static long extoll_ioc_attach(struct extoll_dev *edev, void __user *arg)
{
	struct extoll_naa_result res;
	struct extoll_ioc_attach req;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags || memchr_inv(req.rsvd, 0, sizeof(req.rsvd)))
		return -EINVAL;

	ret = extoll_naa_attach(edev, req.node, &res);
	if (ret)
		return ret;
	req.id = res.id;
	req.domain = res.domain;
	req.root_bus = res.root_bus;
	return copy_to_user(arg, &req, sizeof(req)) ? -EFAULT : 0;
}

static long extoll_ioc_dispatch(struct extoll_dev *edev, struct extoll_file *f,
				unsigned int cmd, void __user *arg)
{
	u32 handle;

	if (cmd == EXTOLL_IOC_INFO)
		return extoll_ioc_info(edev, arg);

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	switch (cmd) {
	case EXTOLL_IOC_RRA:
		return extoll_ioc_rra(edev, arg);
	case EXTOLL_IOC_CFG:
		return extoll_ioc_cfg(edev, arg);
	case EXTOLL_IOC_ATTACH:
	case EXTOLL_IOC_DETACH:
		return extoll_ioc_node(edev, cmd, arg);
	case EXTOLL_IOC_ATTACH_DOMAIN:
		return extoll_ioc_attach(edev, arg);
	case EXTOLL_IOC_RMA_REG:
		return extoll_rma_ioc_reg(edev, &f->rma, arg);
	case EXTOLL_IOC_RMA_UNREG:
		if (get_user(handle, (u32 __user *)arg))
			return -EFAULT;
		return extoll_rma_ioc_unreg(edev, &f->rma, handle);
	case EXTOLL_IOC_RMA_POST:
		return extoll_rma_ioc_post(edev, &f->rma, arg);
	case EXTOLL_IOC_RMA_WAIT:
		return extoll_rma_ioc_wait(edev, &f->rma, arg);
	case EXTOLL_IOC_RMA_EXPOSE:
		return extoll_rma_ioc_expose(edev, &f->rma, arg);
	case EXTOLL_IOC_RMA_UNEXPOSE:
		if (get_user(handle, (u32 __user *)arg))
			return -EFAULT;
		return extoll_rma_ioc_unexpose(edev, &f->rma, handle);
	}
	return -ENOTTY;
}

static long extoll_cdev_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct extoll_file *f = file->private_data;
	struct extoll_cdev *cdev = f->cdev;
	long ret;

	down_read(&cdev->lock);
	if (cdev->edev)
		ret = extoll_ioc_dispatch(cdev->edev, f, cmd, (void __user *)arg);
	else
		ret = -ENODEV;
	up_read(&cdev->lock);
	return ret;
}

/* A registered RMA buffer (EXTOLL_IOC_RMA_REG's mmap_off). */
static int extoll_cdev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct extoll_file *f = file->private_data;

	return extoll_rma_mmap(&f->rma, vma);
}

/* POLLIN: an RMA transfer of this file completed (EXTOLL_IOC_RMA_WAIT). */
static __poll_t extoll_cdev_poll(struct file *file, poll_table *wait)
{
	struct extoll_file *f = file->private_data;
	struct extoll_cdev *cdev = f->cdev;
	__poll_t mask;

	down_read(&cdev->lock);
	mask = extoll_rma_poll(cdev->edev, &f->rma, file, wait);
	up_read(&cdev->lock);
	return mask;
}

static const struct file_operations extoll_cdev_fops = {
	.owner = THIS_MODULE,
	.open = extoll_cdev_open,
	.release = extoll_cdev_release,
	.unlocked_ioctl = extoll_cdev_ioctl,
	.mmap = extoll_cdev_mmap,
	.poll = extoll_cdev_poll,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/**
 * extoll_cdev_register() - create /dev/extollN for the NIC
 * @edev: the NIC
 *
 * Return: 0 or a negative errno.
 */
int extoll_cdev_register(struct extoll_dev *edev)
{
	struct device *dev = &edev->pdev->dev;
	struct extoll_cdev *cdev;
	int ret;

	cdev = kzalloc(sizeof(*cdev), GFP_KERNEL);
	if (!cdev)
		return -ENOMEM;
	kref_init(&cdev->ref);
	init_rwsem(&cdev->lock);
	cdev->edev = edev;

	ret = ida_alloc(&extoll_cdev_ida, GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	edev->index = ret;
	snprintf(cdev->name, sizeof(cdev->name), "extoll%d", edev->index);

	cdev->misc.minor = MISC_DYNAMIC_MINOR;
	cdev->misc.name = cdev->name;
	cdev->misc.fops = &extoll_cdev_fops;
	cdev->misc.parent = dev;
	cdev->misc.mode = 0600;
	ret = misc_register(&cdev->misc);
	if (ret) {
		dev_err(dev, "cannot register /dev/%s: %d\n", cdev->name, ret);
		goto err_ida;
	}

	edev->cdev = cdev;
	return 0;

err_ida:
	ida_free(&extoll_cdev_ida, edev->index);
err_free:
	kfree(cdev);
	return ret;
}

/* Remove /dev/extollN; open files keep failing with -ENODEV. */
void extoll_cdev_unregister(struct extoll_dev *edev)
{
	struct extoll_cdev *cdev = edev->cdev;

	if (!cdev)
		return;
	misc_deregister(&cdev->misc);
	down_write(&cdev->lock);	/* waits for running ioctls */
	extoll_rma_detach_files(edev);	/* files released later leave the NIC be */
	cdev->edev = NULL;
	up_write(&cdev->lock);
	ida_free(&extoll_cdev_ida, edev->index);
	edev->cdev = NULL;
	kref_put(&cdev->ref, extoll_cdev_free);
}
