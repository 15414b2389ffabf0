/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Sample accelerator (rtl/accel, PCI 1ee7:0100): the /dev/saccN interface of
 * sample_accel.ko, shared by the driver and userspace/accel/.
 *
 * Each open file owns a DMA buffer in host memory (SACC_IOC_INFO .buf_size
 * bytes). Userspace fills and reads it with mmap(MAP_SHARED) or
 * pread/pwrite; the ioctls move data between that buffer and the device's
 * memory and run the CRC-32 kernel on device memory. Every offset and
 * length is in bytes and must be a multiple of SACC_ALIGN; every range must
 * lie inside the buffer and inside the device memory that jobs can reach
 * (.devmem_size), otherwise the ioctl fails with EINVAL. Jobs of all open
 * files are serialised by the driver; device memory itself is shared by
 * all users (no allocator).
 *
 * Errors: EINVAL (arguments), ETIMEDOUT (the job did not finish within the
 * driver's time bound, or a DMA read completion timed out; the device was
 * reset), EIO (the device reported another job error, or is unusable),
 * ENODEV (the device was removed or does not respond), EFAULT, ENOTTY.
 */
#ifndef _UAPI_SAMPLE_ACCEL_H
#define _UAPI_SAMPLE_ACCEL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SACC_ABI_VERSION	1

/* Alignment of every offset and length (the DMA engine is dword granular). */
#define SACC_ALIGN		4

/* struct sacc_info.irq_mode: how the driver learns that a job finished. */
#define SACC_IRQ_POLL		0	/* polling JOB_STATUS (no working interrupt) */
#define SACC_IRQ_INTX		1
#define SACC_IRQ_MSI		2
#define SACC_IRQ_MSIX		3

struct sacc_info {
	__u32 abi_version;	/* SACC_ABI_VERSION */
	__u32 irq_mode;		/* SACC_IRQ_* */
	__u32 irq_vectors;	/* vectors allocated (0 when polling) */
	__u32 hw_version;	/* VERSION register: major in 31:16, minor in 15:0 */
	__u64 devmem_size;	/* device memory reachable by jobs (backed), bytes */
	__u64 bar_size;		/* size of the device-memory BAR (BAR2), bytes */
	__u64 buf_size;		/* this open file's DMA buffer, bytes */
	__u64 jobs_done;	/* jobs finished without error since probe */
	__u64 irq_count;	/* job interrupts handled since probe */
	char pci_name[32];	/* e.g. "0000:00:02.0", "10000:01:00.0", NUL-terminated */
};

/* SACC_IOC_COPY_TO_DEV / SACC_IOC_COPY_FROM_DEV */
struct sacc_copy {
	__u64 buf_offset;	/* in: offset into this file's DMA buffer */
	__u64 dev_offset;	/* in: offset into device memory */
	__u64 len;		/* in: bytes, > 0 */
	__u32 flags;		/* in: must be 0 */
	__u32 cycles;		/* out: device clock cycles the job(s) took */
};

/* SACC_IOC_CRC32: zlib's crc32(0, devmem + dev_offset, len) */
struct sacc_crc32 {
	__u64 dev_offset;	/* in */
	__u64 len;		/* in: bytes, > 0 */
	__u32 flags;		/* in: must be 0 */
	__u32 crc;		/* out: IEEE 802.3, reflected, init and final XOR ~0 */
	__u32 cycles;		/* out: device clock cycles */
	__u32 reserved;		/* must be 0 */
};

/*
 * SACC_IOC_RMA_SEND: the device itself puts device memory [dev_offset,
 * dev_offset + len) to bus address dst_addr at node dst_node through the
 * RMA unit of the NAA it sits behind (docs/accelerator.md "RMA send"): it
 * writes the descriptor into the NAA's descriptor window (win_addr, the
 * NIC's rma.win) and the job ends when the RMA unit's requester record
 * arrives in device memory at rnoti_offset. Needs device version 1.1
 * (VERSION minor >= 1, else EOPNOTSUPP). Errors: EINVAL (arguments, or the
 * RMA unit refused the descriptor: err ACCEL_ERR_RMA_BAD), EIO (the RMA
 * unit reported a failed read or write: err ACCEL_ERR_RMA_RD / _RMA_WR),
 * ETIMEDOUT (no requester record: err ACCEL_ERR_RMA_TMO, or the job did not
 * end in the driver's time bound). .err and .cycles are copied back also
 * when the job failed.
 */
struct sacc_rma_send {
	__u64 dev_offset;	/* in: source offset in device memory */
	__u64 len;		/* in: bytes, 4..1 MiB (ACCEL_RMA_MAX_LEN), multiple of 4 */
	__u64 dst_addr;		/* in: bus address at dst_node, multiple of 4 */
	__u64 cnoti_addr;	/* in: completer record at dst_node, 16-byte aligned; 0: none */
	__u64 win_addr;		/* in: the NAA's rma.win base as the device addresses it, 4 KiB aligned, not 0 */
	__u64 rnoti_offset;	/* in: device-memory offset of the requester record, 16-byte aligned, outside the range */
	__u16 src_node;		/* in: node id of the NAA the device is behind */
	__u16 dst_node;		/* in: destination node */
	__u16 cookie;		/* in: echoed in the notification records */
	__u16 reserved;		/* must be 0 */
	__u32 flags;		/* in: must be 0 */
	__u32 cycles;		/* out: device cycles from start to the requester record */
	__u32 err;		/* out: the job's error code (ACCEL_ERR_*), 0 on success */
	__u32 reserved2;	/* must be 0 */
};

#define SACC_IOC_MAGIC		0xac

#define SACC_IOC_INFO		_IOR(SACC_IOC_MAGIC, 0, struct sacc_info)
#define SACC_IOC_COPY_TO_DEV	_IOWR(SACC_IOC_MAGIC, 1, struct sacc_copy)
#define SACC_IOC_COPY_FROM_DEV	_IOWR(SACC_IOC_MAGIC, 2, struct sacc_copy)
#define SACC_IOC_CRC32		_IOWR(SACC_IOC_MAGIC, 3, struct sacc_crc32)
#define SACC_IOC_RMA_SEND	_IOWR(SACC_IOC_MAGIC, 4, struct sacc_rma_send)

#endif /* _UAPI_SAMPLE_ACCEL_H */
