/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR Apache-2.0 */
/*
 * EXTOLL-style NIC: the character device /dev/extollN and its ioctls.
 *
 * Shared by the kernel driver (kernel/extoll/cdev.c) and user space
 * (userspace/lib/libextoll). Documented in docs/kernel.md.
 *
 * Every ioctl except EXTOLL_IOC_INFO needs CAP_SYS_ADMIN.
 */
#ifndef EXTOLL_IOCTL_H
#define EXTOLL_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define EXTOLL_IOC_MAGIC	'X'

/*
 * ABI version of this header, reported by EXTOLL_IOC_INFO.
 * 2: EXTOLL_IOC_ATTACH_DOMAIN.
 * 3: RMA (EXTOLL_IOC_RMA_*), mmap of registered buffers, poll.
 * 4: EXTOLL_IOC_RMA_EXPOSE / _UNEXPOSE (host to host).
 */
#define EXTOLL_IOC_ABI		4

/* struct extoll_ioc_info: the NIC. */
struct extoll_ioc_info {
	__u32 abi;		/* EXTOLL_IOC_ABI of the driver */
	__u16 node_id;		/* this NIC's node id */
	__u8 role;		/* 0 endpoint, 1 root port */
	__u8 rra;		/* 1: the NIC has an rra block (remote access works) */
	__u32 rtl_version;	/* major << 16 | minor << 8 | patch (8 bit each) */
	__u32 rra_timeout_us;	/* current RRA/config timeout */
	char pci_name[32];	/* "0000:00:02.0" */
};

/* struct extoll_ioc_rra: one remote register access. */
#define EXTOLL_RRA_READ		0
#define EXTOLL_RRA_WRITE	1

/* flags */
#define EXTOLL_RRA_F_SRCROUTE	(1U << 0)	/* route by .route, not the tables */

/* A source route: 7 hops of 3 bits, hop 0 in bits 2:0 (docs/packets.md). */
#define EXTOLL_ROUTE_HOP_BITS	3
#define EXTOLL_ROUTE_HOPS	7
#define EXTOLL_ROUTE_PORT_EJECT	7

struct extoll_ioc_rra {
	__u32 op;		/* in: EXTOLL_RRA_READ or EXTOLL_RRA_WRITE */
	__u32 flags;		/* in: EXTOLL_RRA_F_* */
	__u16 node;		/* in: destination node (table routing) */
	__u16 answered;		/* out: node id in the completion record */
	__u32 addr;		/* in: register byte offset at the node (8-byte aligned, < 16 MiB) */
	__u64 route;		/* in: hop list when EXTOLL_RRA_F_SRCROUTE */
	__u64 data;		/* in: write data; out: read data (all-ones on error) */
	__u32 status;		/* out: completion record status (0 ok, 1 register error) */
	__u32 pad;
};

/* struct extoll_ioc_cfg: one tunnelled configuration request (op TLP). */
struct extoll_ioc_cfg {
	__u16 node;		/* in: the root-port NIC */
	__u8 bus;		/* in: bus number in the remote hierarchy (0: the root port) */
	__u8 devfn;		/* in: device << 3 | function */
	__u16 where;		/* in: register offset, 0..4095 */
	__u8 size;		/* in: 1, 2 or 4 bytes, naturally aligned */
	__u8 write;		/* in: 1 write, 0 read */
	__u32 val;		/* in: write data; out: read data (all-ones on error) */
	__u8 cpl_status;	/* out: PCIe completion status (0 SC, 1 UR, 2 CRS, 4 CA) */
	__u8 pad[3];
};

/* struct extoll_ioc_node: attach / detach one remote node. */
struct extoll_ioc_node {
	__u16 node;
	__u16 pad;
	__u32 id;		/* out (attach): auxiliary device extoll.naa.<id> */
};

/*
 * struct extoll_ioc_attach: attach one remote node and learn what it became
 * (EXTOLL_IOC_ATTACH_DOMAIN, ABI 2). The node's device links the same root
 * bus in sysfs (extoll.naa.<id>/root_bus).
 */
struct extoll_ioc_attach {
	__u16 node;		/* in: the remote node */
	__u16 flags;		/* in: 0 */
	__u32 id;		/* out: auxiliary device extoll.naa.<id> */
	__s32 domain;		/* out: its PCI domain; -1 while no driver is bound (naa_bus not loaded) */
	__u8 root_bus;		/* out: the domain's root bus number (0 if domain is -1) */
	__u8 rsvd[3];		/* in: 0 */
};

/*
 * RMA: one-sided put/get by the NIC's RMA unit (docs/kernel.md "RMA").
 *
 * A registered buffer is memory the driver allocates (DMA-coherent, its bus
 * address known only to the kernel unless exposed: EXTOLL_IOC_RMA_EXPOSE);
 * the caller maps it with mmap() on the same file at .mmap_off. A transfer moves .len bytes between the buffer at
 * .offset and a remote side: a bus address at a node (EXTOLL_RMA_REMOTE_ADDR)
 * or a memory BAR of a device in an attached node's PCI domain
 * (EXTOLL_RMA_REMOTE_PCI: the driver resolves the BAR's bus address at the
 * node). Every check is made before the NIC is touched; a refused transfer
 * writes nothing. Completion: EXTOLL_IOC_RMA_WAIT, or poll() (POLLIN: a
 * transfer of this file has completed and is not yet waited for).
 */
#define EXTOLL_RMA_BUF_MAX	(2U << 20)	/* one buffer: 4 KiB .. 2 MiB */
#define EXTOLL_RMA_FILE_MAX	(4U << 20)	/* all buffers of one open file */
#define EXTOLL_RMA_LEN_MAX	(1U << 20)	/* one transfer: 4 .. 1 MiB, multiple of 4 */
#define EXTOLL_RMA_ADDR_BITS	43		/* remote bus addresses below 2^43 */
#define EXTOLL_RMA_PENDING_MAX	256		/* transfers of one file not waited for */

/* struct extoll_ioc_rma_reg: register (allocate) a buffer. */
struct extoll_ioc_rma_reg {
	__u32 size;		/* in: bytes, rounded up to pages; 1 .. EXTOLL_RMA_BUF_MAX */
	__u32 handle;		/* out: the buffer's handle (1 ..) */
	__u64 mmap_off;		/* out: mmap() offset of the buffer on this file */
};

/* op */
#define EXTOLL_RMA_PUT		0	/* local buffer -> remote */
#define EXTOLL_RMA_GET		1	/* remote -> local buffer */

/* remote */
#define EXTOLL_RMA_REMOTE_ADDR	0	/* .node, bus address .addr there */
#define EXTOLL_RMA_REMOTE_PCI	1	/* .domain/.bus/.devfn BAR .bar, offset .addr */

/* flags */
#define EXTOLL_RMA_F_NOTI_CMP	(1U << 0)	/* also notify the completer (at .cnoti) */

/* struct extoll_ioc_rma_post: post one transfer. */
struct extoll_ioc_rma_post {
	__u32 op;		/* in: EXTOLL_RMA_PUT or EXTOLL_RMA_GET */
	__u32 flags;		/* in: EXTOLL_RMA_F_* */
	__u32 handle;		/* in: the local buffer */
	__u32 len;		/* in: bytes */
	__u64 offset;		/* in: in the local buffer */
	__u32 remote;		/* in: EXTOLL_RMA_REMOTE_* */
	__u16 node;		/* in (ADDR): the remote node; out: the node resolved */
	__u8 bar;		/* in (PCI): BAR number 0..5 */
	__u8 devfn;		/* in (PCI): device << 3 | function */
	__u64 addr;		/* in: bus address at .node (ADDR), offset in the BAR (PCI) */
	__u64 cnoti;		/* in (EXTOLL_RMA_F_NOTI_CMP, put): completer notification address, as .addr */
	__s32 domain;		/* in (PCI): PCI domain of an attached node */
	__u8 bus;		/* in (PCI): bus number */
	__u8 rsvd0;		/* in: 0 */
	__u16 cookie;		/* out: the transfer's cookie */
	__u64 bus_addr;		/* out: the remote bus address used */
	__u64 rsvd[2];		/* in: 0 */
};

/* struct extoll_ioc_rma_wait: wait for a transfer of this file. */
struct extoll_ioc_rma_wait {
	__u16 cookie;		/* in: a cookie, or 0: any transfer of this file; out: the one that completed */
	__u16 rsvd0;		/* in: 0 */
	__u32 timeout_ms;	/* in: 0: do not wait */
	__u32 status;		/* out: EXTOLL_RMA_RES_* */
	__u32 len;		/* out: bytes of the transfer */
	__u64 ns;		/* out: post to completion, nanoseconds */
};

/* status: the RMA notification's status (hw/include/extoll_records.h rma_status) */
#define EXTOLL_RMA_RES_OK	0	/* done; the data is at the destination */
#define EXTOLL_RMA_RES_RD_ERR	1	/* a source read failed (UR/CA/poison/timeout): errno EIO */
#define EXTOLL_RMA_RES_BAD_DESC	2	/* the unit refused the descriptor: errno EINVAL */
#define EXTOLL_RMA_RES_WR_ERR	3	/* the flush read at the destination failed: errno EIO */

/*
 * Exposing a buffer to other nodes' RMA units (host to host, docs/rma.md "Host
 * to host"). While the region is exposed, the NIC accepts other nodes' RMA
 * reads (EXTOLL_RMA_EXPOSE_READ: their gets) and writes (..._WRITE: their
 * puts) inside it; every other inbound RMA request into this host's memory
 * is refused (writes dropped, reads answered UR: the requester's transfer
 * ends WR_ERR / RD_ERR). The region is whole pages of a registered buffer
 * (.offset and .len multiples of EXTOLL_RMA_EXPOSE_ALIGN); at most
 * EXTOLL_RMA_EXPOSE_MAX regions per NIC. A peer addresses it as .node and
 * .addr + offset (EXTOLL_RMA_REMOTE_ADDR), at most .len bytes, and may ask
 * for a completer notification at .cnoti (this NIC's notification queue).
 * EXTOLL_IOC_RMA_UNEXPOSE (.key), EXTOLL_IOC_RMA_UNREG of the buffer and
 * closing the file revoke it.
 */
#define EXTOLL_RMA_EXPOSE_ALIGN	4096U		/* the NIC's window granularity */
#define EXTOLL_RMA_EXPOSE_MAX	7		/* regions per NIC (window 0: notifications) */
#define EXTOLL_RMA_EXPOSE_READ	(1U << 0)	/* peers may read (get from it) */
#define EXTOLL_RMA_EXPOSE_WRITE	(1U << 1)	/* peers may write (put into it) */

/* struct extoll_ioc_rma_expose: expose part of a registered buffer. */
struct extoll_ioc_rma_expose {
	__u32 handle;		/* in: the buffer */
	__u32 flags;		/* in: EXTOLL_RMA_EXPOSE_READ and/or _WRITE */
	__u64 offset;		/* in: in the buffer, a multiple of EXTOLL_RMA_EXPOSE_ALIGN */
	__u64 len;		/* in: bytes, a multiple of EXTOLL_RMA_EXPOSE_ALIGN */
	__u32 key;		/* out: the region (EXTOLL_IOC_RMA_UNEXPOSE) */
	__u16 node;		/* out: this NIC's node id */
	__u16 rsvd0;		/* in: 0 */
	__u64 addr;		/* out: the region's bus address (what peers' descriptors name) */
	__u64 cnoti;		/* out: where peers ask for completer notifications */
	__u64 rsvd[2];		/* in: 0 */
};

#define EXTOLL_IOC_INFO		_IOR(EXTOLL_IOC_MAGIC, 0x00, struct extoll_ioc_info)
#define EXTOLL_IOC_RRA		_IOWR(EXTOLL_IOC_MAGIC, 0x01, struct extoll_ioc_rra)
#define EXTOLL_IOC_CFG		_IOWR(EXTOLL_IOC_MAGIC, 0x02, struct extoll_ioc_cfg)
#define EXTOLL_IOC_ATTACH	_IOWR(EXTOLL_IOC_MAGIC, 0x03, struct extoll_ioc_node)
#define EXTOLL_IOC_DETACH	_IOW(EXTOLL_IOC_MAGIC, 0x04, struct extoll_ioc_node)
#define EXTOLL_IOC_ATTACH_DOMAIN _IOWR(EXTOLL_IOC_MAGIC, 0x05, struct extoll_ioc_attach)
#define EXTOLL_IOC_RMA_REG	_IOWR(EXTOLL_IOC_MAGIC, 0x06, struct extoll_ioc_rma_reg)
#define EXTOLL_IOC_RMA_UNREG	_IOW(EXTOLL_IOC_MAGIC, 0x07, __u32)
#define EXTOLL_IOC_RMA_POST	_IOWR(EXTOLL_IOC_MAGIC, 0x08, struct extoll_ioc_rma_post)
#define EXTOLL_IOC_RMA_WAIT	_IOWR(EXTOLL_IOC_MAGIC, 0x09, struct extoll_ioc_rma_wait)
#define EXTOLL_IOC_RMA_EXPOSE	_IOWR(EXTOLL_IOC_MAGIC, 0x0a, struct extoll_ioc_rma_expose)
#define EXTOLL_IOC_RMA_UNEXPOSE	_IOW(EXTOLL_IOC_MAGIC, 0x0b, __u32)

#endif /* EXTOLL_IOCTL_H */
