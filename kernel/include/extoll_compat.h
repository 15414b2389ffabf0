/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels we build for, in one place.
 *
 * Supported: Debian 12's two kernels, 6.1 (linux-image-amd64) and 6.12
 * (linux-image-6.12.*+deb12-amd64); mk/check-kbuild.sh builds for both with
 * W=1. Every version check of the drivers lives here, so that the driver
 * sources call one spelling of each API; a new kernel's break gets one entry
 * below (what changed, in which release) rather than #ifs in the drivers.
 */
#ifndef EXTOLL_COMPAT_H
#define EXTOLL_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <net/devlink.h>

/*
 * 6.2 dropped devlink_info_driver_name_put(): the devlink core reports the
 * driver's name itself (from the device's driver), so there is nothing left
 * to do on newer kernels.
 */
static inline int extoll_devlink_info_driver_name_put(struct devlink_info_req *req,
						      const char *name)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
	return devlink_info_driver_name_put(req, name);
#else
	return 0;
#endif
}

/*
 * 6.7 made the devlink_fmsg_*_put() helpers return void (an error is kept in
 * the message and reported once by the core). extoll_fmsg(call) is the int
 * the call returns on older kernels and 0 on newer ones, so one spelling of
 * "put, stop at the first error" builds on both.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
#define extoll_fmsg(call)	(call)
#else
#define extoll_fmsg(call)	({ call; 0; })
#endif

/*
 * 6.3 made vma->vm_flags read-only for drivers (per-VMA locking); flags are
 * set through vm_flags_set(). Older kernels have no such helper.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/*
 * 6.8 renamed pci_alloc_irq_vectors()'s PCI_IRQ_LEGACY to PCI_IRQ_INTX; 6.10
 * removed the old name. Same bit.
 */
#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX	PCI_IRQ_LEGACY
#endif

/*
 * 6.12 moved <asm/unaligned.h> to <linux/unaligned.h> (get_unaligned_le32()
 * and friends).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#include <asm/unaligned.h>
#else
#include <linux/unaligned.h>
#endif

/*
 * 6.2 added NL_SET_ERR_MSG_FMT_MOD() (a formatted extack message kept in the
 * extack). On 6.1 the message is formatted into buf, a char array that must
 * outlive the operation (the devlink reply is built after it returns).
 */
#ifdef NL_SET_ERR_MSG_FMT_MOD
#define extoll_extack_fmt(extack, buf, fmt, args...)			\
	NL_SET_ERR_MSG_FMT_MOD(extack, fmt, ##args)
#else
#define extoll_extack_fmt(extack, buf, fmt, args...)			\
	do {								\
		snprintf(buf, sizeof(buf), KBUILD_MODNAME ": " fmt, ##args); \
		if (extack)						\
			(extack)->_msg = (buf);				\
	} while (0)
#endif

/*
 * 6.3 dropped devlink_set_features(): a driver with reload ops supports
 * reload; before, DEVLINK_F_RELOAD had to be set before devlink_register().
 */
static inline void extoll_devlink_enable_reload(struct devlink *devlink)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
	devlink_set_features(devlink, DEVLINK_F_RELOAD);
#endif
}

#endif /* EXTOLL_COMPAT_H */
