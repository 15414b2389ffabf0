/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libextoll: user-space access to the EXTOLL NIC driver (/dev/extollN ioctls
 * and sysfs). Functions return 0 or a negative errno; they never print.
 */
#ifndef LIBEXTOLL_H
#define LIBEXTOLL_H

#include <stddef.h>
#include <stdint.h>

#include "extoll_topo.h"

#ifdef __cplusplus
extern "C" {
#endif

struct extoll_nic;

struct extoll_nic_info {
	char dev_path[64];	/* /dev/extoll0 */
	char pci_name[32];	/* 0000:00:02.0 */
	char sysfs[128];	/* /sys/bus/pci/devices/0000:00:02.0 */
	uint16_t node_id;
	uint8_t role;		/* 0 endpoint, 1 root port */
	int rra;		/* remote access available */
	unsigned int rtl_major, rtl_minor, rtl_patch;
	unsigned int rra_timeout_us;
};

/*
 * Open a NIC. spec: NULL or "" (the first NIC), "/dev/extollN", "extollN",
 * or a PCI address ("0000:00:02.0", "00:02.0").
 * Errors: -ENOENT (no such NIC / driver not bound), -EACCES, ...
 */
int extoll_open(const char *spec, struct extoll_nic **nic);
void extoll_close(struct extoll_nic *nic);
const struct extoll_nic_info *extoll_nic_info(const struct extoll_nic *nic);

/* Remote register access; val is all-ones on error. */
int extoll_rra_read(struct extoll_nic *nic, uint16_t node, uint32_t addr,
		    uint64_t *val);
int extoll_rra_write(struct extoll_nic *nic, uint16_t node, uint32_t addr,
		     uint64_t val);
/* Source-routed; answered (may be NULL) gets the answering node's id. */
int extoll_rra_read_routed(struct extoll_nic *nic, uint64_t route,
			   uint32_t addr, uint64_t *val, uint16_t *answered);
int extoll_rra_write_routed(struct extoll_nic *nic, uint64_t route,
			    uint32_t addr, uint64_t val, uint16_t *answered);

/* The NIC's own register at byte offset addr (a multiple of 8) of its
 * BAR0, through sysfs resource0 (root; refused with -EPERM where the kernel
 * forbids mapping a BAR its driver claimed, CONFIG_IO_STRICT_DEVMEM: then
 * read the local node by RRA). val is all-ones on error. */
int extoll_reg_read(struct extoll_nic *nic, uint32_t addr, uint64_t *val);

/* One tunnelled config request; cpl_status (may be NULL): 0 SC, 1 UR, 2 CRS, 4 CA. */
int extoll_cfg(struct extoll_nic *nic, uint16_t node, uint8_t bus,
	       uint8_t devfn, uint16_t where, unsigned int size, int write,
	       uint32_t *val, unsigned int *cpl_status);

/* What an attach came to, as the driver returns it. */
struct extoll_attach_result {
	unsigned int id;	/* the node's device extoll.naa.<id> */
	char name[32];		/* "extoll.naa.3" */
	int domain;		/* its PCI domain; -1: no driver bound yet (naa_bus not loaded) */
	unsigned int root_bus;	/* the domain's root bus number */
};

/* Attach / detach a remote node. res may be NULL. */
int extoll_attach(struct extoll_nic *nic, uint16_t node,
		  struct extoll_attach_result *res);
int extoll_detach(struct extoll_nic *nic, uint16_t node);

/* An attached node, as sysfs shows it. */
struct extoll_naa {
	char name[32];		/* extoll.naa.3 */
	uint16_t node;
	char state[16];		/* waiting probing attached failed dead detaching */
	int domain;		/* -1: none */
	int error;		/* last driver error (negative errno) */
	int has_root_port;	/* DDDD:BB:00.0 exists (BB: the root bus) */
	char root_port[16];	/* "DDDD:BB:00.0" */
	size_t n_devices;	/* the other functions of the domain */
	char (*devices)[16];	/* their addresses, n_devices of them */
};

/* Every attached node, sorted by node id; free with extoll_list_free(). */
int extoll_list(struct extoll_nic *nic, struct extoll_naa **list, size_t *n);
void extoll_list_free(struct extoll_naa *list);

/* --- RMA: one-sided put and get by the NIC's RMA unit (docs/rma.md), in the
 * manner of EXTOLL's librma2: open an endpoint, register buffers (memory the
 * driver allocates and this library maps), put/get between a buffer and
 * remote memory, wait for the completion. Needs root (CAP_SYS_ADMIN), as the
 * other ioctls. Every argument is checked by the driver before the NIC is
 * touched: a refused transfer returns its errno and writes nothing. */

struct extoll_rma;

/* A registered buffer; addr is its mapping (size bytes, page-rounded). */
struct extoll_rma_buf {
	void *addr;
	size_t size;
	uint32_t handle;
};

/* Remote memory. */
enum extoll_rma_target_kind {
	EXTOLL_RMA_TARGET_NODE,	/* a bus address at a node */
	EXTOLL_RMA_TARGET_PCI,	/* a memory BAR of a device in an attached node's domain */
};

struct extoll_rma_target {
	enum extoll_rma_target_kind kind;
	uint16_t node;		/* NODE */
	int domain;		/* PCI: domain, bus, devfn of the device */
	uint8_t bus, devfn;
	uint8_t bar;		/* PCI: BAR 0..5 */
	uint64_t addr;		/* NODE: bus address; PCI: offset in the BAR */
	uint64_t cnoti;		/* put with EXTOLL_RMA_NOTIFY_COMPLETER: where the completer's
				 * 16-byte record goes (as addr: bus address or BAR offset,
				 * 16-byte aligned); a get's completer record goes to this
				 * host's notification queue */
};

/* "fffe:01:00.0" (domain required), BAR, offset -> *t; 0 or -EINVAL. */
int extoll_rma_target_pci(struct extoll_rma_target *t, const char *pci,
			  unsigned int bar, uint64_t offset);
/* node, bus address at the node -> *t. */
void extoll_rma_target_node(struct extoll_rma_target *t, uint16_t node,
			    uint64_t addr);

/* Limits (the driver's, kernel/include/uapi/extoll_ioctl.h). */
#define EXTOLL_RMA_XFER_MAX	(1u << 20)	/* one transfer: 4 B .. 1 MiB, multiple of 4 */
#define EXTOLL_RMA_REG_MAX	(2u << 20)	/* one buffer */
#define EXTOLL_RMA_REG_TOTAL	(4u << 20)	/* all buffers of one endpoint */

/* flags of put/get */
#define EXTOLL_RMA_NOTIFY_COMPLETER	(1u << 0)	/* also a completer notification */

/* A finished transfer. */
struct extoll_rma_completion {
	uint16_t cookie;
	unsigned int status;	/* 0 OK, 1 RD_ERR (a source read failed), 2 BAD_DESC,
				 * 3 WR_ERR (the destination refused the writes) */
	uint32_t len;
	uint64_t ns;		/* post to completion, as the driver saw it */
};

/* An endpoint on a NIC (spec as extoll_open; each endpoint has its own
 * buffers and transfers). Errors as extoll_open; -ENOTSUP: the driver is
 * older than RMA (ABI < 3). */
int extoll_rma_open(const char *spec, struct extoll_rma **ep);
/* Unmaps and releases its buffers (transfers in flight finish in the driver). */
void extoll_rma_close(struct extoll_rma *ep);
/* Its NIC (for extoll_nic_info), and a file descriptor for poll() (POLLIN:
 * a transfer completed). */
struct extoll_nic *extoll_rma_nic(struct extoll_rma *ep);
int extoll_rma_fd(const struct extoll_rma *ep);
/* A buffer of size bytes (1 .. EXTOLL_RMA_REG_MAX), zeroed, mapped.
 * -ENOSPC: the endpoint's EXTOLL_RMA_REG_TOTAL is used up. */
int extoll_rma_register(struct extoll_rma *ep, size_t size,
			struct extoll_rma_buf **buf);
int extoll_rma_unregister(struct extoll_rma *ep, struct extoll_rma_buf *buf);
/* Post: put sends buf[off, off+len) to t; get fetches t into it. cookie
 * (may be NULL) identifies the transfer for extoll_rma_wait. Errors:
 * -EINVAL (length 0, not a multiple of 4 or > 1 MiB; address not 4-byte
 * aligned; the own node; bad flags), -ERANGE (beyond the buffer, the BAR
 * or 2^43), -ENOENT (no such buffer; domain not an attached node's), -ENODEV
 * (the NIC has no RMA unit), -ENXIO (no such device, node not attached),
 * -EHOSTUNREACH (node not answering), -EBUSY (the descriptor FIFO stayed
 * full), -EAGAIN (too many transfers not yet waited for). */
int extoll_rma_put(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
		   size_t off, const struct extoll_rma_target *t, size_t len,
		   unsigned int flags, uint16_t *cookie);
int extoll_rma_get(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
		   size_t off, const struct extoll_rma_target *t, size_t len,
		   unsigned int flags, uint16_t *cookie);
/* Wait up to timeout_ms for the transfer cookie (0: any of the endpoint's);
 * c (may be NULL) gets its completion. 0 (status OK), -EIO (RD_ERR, WR_ERR),
 * -EINVAL (BAD_DESC), -ETIMEDOUT (not yet: wait again), -ENOENT (no such
 * transfer). */
int extoll_rma_wait(struct extoll_rma *ep, uint16_t cookie, int timeout_ms,
		    struct extoll_rma_completion *c);
/* --- host to host: a region of a registered buffer exposed to other nodes'
 * RMA units (driver ABI 4, docs/rma.md "Host to host"). The NIC takes other
 * nodes' RMA reads and writes into this host's memory only inside exposed
 * regions; everything else is refused by the NIC (the peer's transfer ends
 * with -EIO, nothing is written here). */

/* What a peer needs to address an exposed region (pass it to the peer, e.g.
 * as text: extoll_rma_remote_format / _parse, "NODE:ADDR:LEN:CNOTI"). */
struct extoll_rma_remote {
	uint16_t node;		/* the exposing host's node */
	uint64_t addr;		/* the region's bus address there (no address translation) */
	uint64_t len;		/* its bytes */
	uint64_t cnoti;		/* where the peer asks for completer notifications (0: none) */
};

/* flags of extoll_rma_expose */
#define EXTOLL_RMA_PEER_READ	(1u << 0)	/* peers may get from it */
#define EXTOLL_RMA_PEER_WRITE	(1u << 1)	/* peers may put into it */
#define EXTOLL_RMA_EXPOSE_PAGE	4096u		/* off and len: multiples of this */
#define EXTOLL_RMA_EXPOSE_REGIONS 7		/* regions per NIC */

/* Expose buf[off, off+len) to peers; *key names it for extoll_rma_unexpose,
 * *r is what a peer needs. Errors: -EINVAL (off or len not a multiple of
 * EXTOLL_RMA_EXPOSE_PAGE, len 0, no flag), -ERANGE (beyond the buffer),
 * -ENOENT (no such buffer), -ENOSPC (every region of the NIC in use), -ENODEV
 * (the NIC has no dma block), -ENOTSUP (the driver is older: ABI < 4).
 * Unexposing, unregistering the buffer and closing the endpoint revoke it. */
int extoll_rma_expose(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
		      size_t off, size_t len, unsigned int flags, uint32_t *key,
		      struct extoll_rma_remote *r);
int extoll_rma_unexpose(struct extoll_rma *ep, uint32_t key);
/* A peer's region at offset off for len bytes -> *t (its completer
 * notification address in t->cnoti); -ERANGE: not inside the region. */
int extoll_rma_target_remote(struct extoll_rma_target *t,
			     const struct extoll_rma_remote *r, uint64_t off,
			     uint64_t len);
/* "NODE:0xADDR:LEN:0xCNOTI" (at most EXTOLL_RMA_REMOTE_STRLEN bytes with the
 * NUL); parse takes decimal or 0x numbers and CNOTI may be left out: 0 or
 * -EINVAL. */
#define EXTOLL_RMA_REMOTE_STRLEN 64
int extoll_rma_remote_format(const struct extoll_rma_remote *r, char *s, size_t n);
int extoll_rma_remote_parse(const char *s, struct extoll_rma_remote *r);

/* put/get and wait. */
int extoll_rma_put_sync(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
			size_t off, const struct extoll_rma_target *t, size_t len,
			int timeout_ms, struct extoll_rma_completion *c);
int extoll_rma_get_sync(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
			size_t off, const struct extoll_rma_target *t, size_t len,
			int timeout_ms, struct extoll_rma_completion *c);

/* The version of naa-extoll this library was built from ("0.1.0", with
 * " (git <describe>)" when built in a git checkout). */
const char *extoll_version(void);

/* --- routing tables (torus geometry and routes: extoll_topo.h) */

/* Router rt_entry value: dest, inport, outport, vc rule auto, valid. */
uint64_t extoll_rt_entry(uint16_t dest, unsigned int inport,
			 unsigned int outport);
/* Router node value: the node id and dateline in use from now on (valid). */
uint64_t extoll_node_word(uint16_t id, uint8_t dateline);
/* Register offsets at a node. */
uint32_t extoll_reg_info_id(void);
uint32_t extoll_reg_rt_entry(void);
uint32_t extoll_reg_node(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBEXTOLL_H */
