// SPDX-License-Identifier: GPL-2.0
/*
 * Sample accelerator: /dev/saccN (misc device) and its ioctls
 * (uapi/sample_accel.h).
 *
 * Every open file gets its own DMA buffer (buf_kb KiB) for mmap and
 * pread/pwrite; the ioctls run jobs between it and device memory. All
 * arguments are checked before the device sees them, so userspace can
 * never make the device DMA outside the file's buffer or run a job outside
 * the backed device memory. Jobs of all files are serialised by sdev->lock.
 *
 * An open file keeps struct sacc_dev alive across remove(); once the device
 * is removed its ioctls fail with -ENODEV, the buffer stays readable.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>

#include "sacc.h"

unsigned int sacc_buf_kb = 4096;
module_param_named(buf_kb, sacc_buf_kb, uint, 0444);
MODULE_PARM_DESC(buf_kb,
		 "DMA buffer per open file of /dev/saccN, KiB (default 4096, 4..65536, whole pages)");

static struct sacc_dev *sacc_from_misc(struct file *file)
{
	struct miscdevice *misc = file->private_data;

	return container_of(misc, struct sacc_dev, misc);
}

static int sacc_open(struct inode *inode, struct file *file)
{
	struct sacc_dev *sdev = sacc_from_misc(file);
	struct sacc_file *sf;
	size_t size;
	int ret;

	/* misc_open() holds misc_mtx: remove() cannot have passed misc_deregister(). */
	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	kref_get(&sdev->ref);
	sf->sdev = sdev;

	size = PAGE_ALIGN((size_t)clamp(sacc_buf_kb, 4U, 65536U) * SZ_1K);

	mutex_lock(&sdev->lock);
	if (sdev->dead) {
		ret = -ENODEV;
		goto err_unlock;
	}
	ret = sacc_buf_alloc(&sf->buf, &sdev->pdev->dev, size);
	if (ret) {
		dev_warn_ratelimited(&sdev->pdev->dev,
				     "open: no memory for a %zu KiB DMA buffer\n",
				     size / SZ_1K);
		goto err_unlock;
	}
	list_add(&sf->node, &sdev->files);
	mutex_unlock(&sdev->lock);

	file->private_data = sf;
	return 0;

err_unlock:
	mutex_unlock(&sdev->lock);
	sacc_put(sdev);
	kfree(sf);
	return ret;
}

static int sacc_release(struct inode *inode, struct file *file)
{
	struct sacc_file *sf = file->private_data;
	struct sacc_dev *sdev = sf->sdev;

	mutex_lock(&sdev->lock);
	if (!sdev->dead) {
		list_del(&sf->node);
		sacc_buf_unmap(&sf->buf);
	}
	mutex_unlock(&sdev->lock);

	sacc_buf_free(&sf->buf);
	sacc_put(sdev);
	kfree(sf);
	return 0;
}

/**
 * sacc_cdev_kill_files() - the device is going: unmap every file's buffer
 * @sdev: the device (lock held, dead set, bus mastering off)
 */
void sacc_cdev_kill_files(struct sacc_dev *sdev)
{
	struct sacc_file *sf, *tmp;

	lockdep_assert_held(&sdev->lock);
	list_for_each_entry_safe(sf, tmp, &sdev->files, node) {
		list_del_init(&sf->node);
		sacc_buf_unmap(&sf->buf);
	}
}

static int sacc_ioc_info(struct sacc_file *sf, void __user *uarg)
{
	struct sacc_dev *sdev = sf->sdev;
	struct sacc_info info = {
		.abi_version = SACC_ABI_VERSION,
		.buf_size = sf->buf.size,
	};

	mutex_lock(&sdev->lock);
	if (sdev->dead) {
		mutex_unlock(&sdev->lock);
		return -ENODEV;
	}
	info.irq_mode = sdev->irq_mode;
	info.irq_vectors = sdev->nvec;
	info.hw_version = sdev->version;
	info.devmem_size = sdev->devmem_size;
	info.bar_size = sdev->bar_size;
	info.jobs_done = atomic64_read(&sdev->stats.jobs_done);
	info.irq_count = atomic64_read(&sdev->stats.irq_count);
	strscpy(info.pci_name, pci_name(sdev->pdev), sizeof(info.pci_name));
	mutex_unlock(&sdev->lock);

	return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
}

/*
 * Check a device memory range (and, for copies, a buffer range).
 * Everything is u64, so no sum below can wrap.
 */
static int sacc_check_range(struct sacc_file *sf, const char *what,
			    u64 dev_off, u64 len, bool has_buf, u64 buf_off)
{
	struct sacc_dev *sdev = sf->sdev;
	struct device *dev = &sdev->pdev->dev;

	if (!len || len % SACC_ALIGN || dev_off % SACC_ALIGN ||
	    (has_buf && buf_off % SACC_ALIGN)) {
		dev_dbg(dev, "%s: len %llu, dev offset 0x%llx, buf offset 0x%llx: zero or not multiples of %d\n",
			what, len, dev_off, buf_off, SACC_ALIGN);
		return -EINVAL;
	}
	if (len > sdev->devmem_size || dev_off > sdev->devmem_size - len) {
		dev_dbg(dev, "%s: dev offset 0x%llx len %llu beyond the device memory (%u bytes)\n",
			what, dev_off, len, sdev->devmem_size);
		return -EINVAL;
	}
	if (has_buf && (len > sf->buf.size || buf_off > sf->buf.size - len)) {
		dev_dbg(dev, "%s: buf offset 0x%llx len %llu beyond the DMA buffer (%zu bytes)\n",
			what, buf_off, len, sf->buf.size);
		return -EINVAL;
	}
	return 0;
}

static int sacc_ioc_copy(struct sacc_file *sf, void __user *uarg, u32 op)
{
	struct sacc_dev *sdev = sf->sdev;
	struct sacc_copy c;
	int ret;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	if (c.flags) {
		dev_dbg(&sdev->pdev->dev, "%s: flags 0x%x not supported\n",
			sacc_op_name(op), c.flags);
		return -EINVAL;
	}
	ret = sacc_check_range(sf, sacc_op_name(op), c.dev_offset, c.len,
			       true, c.buf_offset);
	if (ret)
		return ret;

	mutex_lock(&sdev->lock);
	if (sdev->dead)
		ret = -ENODEV;
	else
		ret = sacc_buf_copy_job(sdev, &sf->buf, op, c.buf_offset,
					c.dev_offset, c.len, &c.cycles);
	mutex_unlock(&sdev->lock);
	if (ret)
		return ret;

	return copy_to_user(uarg, &c, sizeof(c)) ? -EFAULT : 0;
}

static int sacc_ioc_crc32(struct sacc_file *sf, void __user *uarg)
{
	struct sacc_dev *sdev = sf->sdev;
	struct sacc_crc32 c;
	struct sacc_job job = { .op = ACCEL_OP_CRC };
	int ret;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	if (c.flags || c.reserved) {
		dev_dbg(&sdev->pdev->dev, "crc32: flags 0x%x / reserved 0x%x must be 0\n",
			c.flags, c.reserved);
		return -EINVAL;
	}
	ret = sacc_check_range(sf, "crc32", c.dev_offset, c.len, false, 0);
	if (ret)
		return ret;

	job.dev_off = c.dev_offset;
	job.len = c.len;
	mutex_lock(&sdev->lock);
	ret = sacc_job_run(sdev, &job);
	mutex_unlock(&sdev->lock);
	if (ret)
		return ret;

	c.crc = job.result;
	c.cycles = job.cycles;
	return copy_to_user(uarg, &c, sizeof(c)) ? -EFAULT : 0;
}

static long sacc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct sacc_file *sf = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case SACC_IOC_INFO:
		return sacc_ioc_info(sf, uarg);
	case SACC_IOC_COPY_TO_DEV:
		return sacc_ioc_copy(sf, uarg, ACCEL_OP_H2D);
	case SACC_IOC_COPY_FROM_DEV:
		return sacc_ioc_copy(sf, uarg, ACCEL_OP_D2H);
	case SACC_IOC_CRC32:
		return sacc_ioc_crc32(sf, uarg);
	case SACC_IOC_RMA_SEND:
		return sacc_ioc_rma_send(sf, uarg);
	}
	return -ENOTTY;
}

static ssize_t sacc_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct sacc_file *sf = file->private_data;

	return sacc_buf_rw(&sf->buf, ubuf, count, ppos, false);
}

static ssize_t sacc_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct sacc_file *sf = file->private_data;

	return sacc_buf_rw(&sf->buf, (char __user *)ubuf, count, ppos, true);
}

static loff_t sacc_llseek(struct file *file, loff_t offset, int whence)
{
	struct sacc_file *sf = file->private_data;

	return fixed_size_llseek(file, offset, whence, sf->buf.size);
}

static int sacc_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct sacc_file *sf = file->private_data;
	int ret;

	ret = sacc_buf_mmap(&sf->buf, vma);
	if (ret)
		dev_dbg(&sf->sdev->pdev->dev,
			"mmap: %lu pages at page %lu%s: not MAP_SHARED or beyond the %zu-byte buffer\n",
			vma_pages(vma), vma->vm_pgoff,
			vma->vm_flags & VM_SHARED ? "" : " (private)",
			sf->buf.size);
	return ret;
}

static const struct file_operations sacc_fops = {
	.owner = THIS_MODULE,
	.open = sacc_open,
	.release = sacc_release,
	.llseek = sacc_llseek,
	.read = sacc_read,
	.write = sacc_write,
	.unlocked_ioctl = sacc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = sacc_mmap,
};

/**
 * sacc_cdev_register() - create /dev/saccN
 * @sdev: the device
 *
 * Return: 0 or misc_register()'s error.
 */
int sacc_cdev_register(struct sacc_dev *sdev)
{
	int ret;

	sdev->misc.minor = MISC_DYNAMIC_MINOR;
	sdev->misc.name = sdev->name;
	sdev->misc.fops = &sacc_fops;
	sdev->misc.parent = &sdev->pdev->dev;
	sdev->misc.mode = 0600;
	ret = misc_register(&sdev->misc);
	if (ret) {
		dev_err(&sdev->pdev->dev, "cannot register /dev/%s: %d\n",
			sdev->name, ret);
		return ret;
	}
	sdev->misc_registered = true;
	return 0;
}

/**
 * sacc_cdev_unregister() - remove /dev/saccN; open files stay valid
 * @sdev: the device
 */
void sacc_cdev_unregister(struct sacc_dev *sdev)
{
	if (sdev->misc_registered) {
		misc_deregister(&sdev->misc);
		sdev->misc_registered = false;
	}
}
