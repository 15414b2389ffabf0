/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EXTOLL-style NIC: the in-kernel API of the extoll driver (GPL exports).
 *
 * Remote register access (RRA) and requests through a config tunnel are
 * atomic-safe: they never sleep, may be called with interrupts off and from
 * interrupt context, are serialised per NIC by a raw spinlock and give up
 * after the module parameter extoll.rra_timeout_us (default 5000 us).
 *
 * For every remote node attached by user space the extoll driver creates an
 * auxiliary device "extoll.naa.<id>" (struct extoll_naa_dev); naa_bus is its
 * driver. See docs/kernel.md and docs/remote-access.md.
 */
#ifndef LINUX_EXTOLL_H
#define LINUX_EXTOLL_H

#include <linux/auxiliary_bus.h>
#include <linux/types.h>

struct extoll_dev;
struct pci_bus;
struct pci_dev;
struct resource;

/* Name of the auxiliary devices, as matched by a driver's id table. */
#define EXTOLL_NAA_AUXDEV_NAME	"naa"
#define EXTOLL_NAA_AUXDEV_MATCH	"extoll." EXTOLL_NAA_AUXDEV_NAME

/* PCIe completion status values (cpl_status). */
#define EXTOLL_CPL_SC		0
#define EXTOLL_CPL_UR		1
#define EXTOLL_CPL_CRS		2
#define EXTOLL_CPL_CA		4

/* The NIC's role strap (INFO id.role). */
#define EXTOLL_ROLE_EP		0
#define EXTOLL_ROLE_RP		1

/* Life of an attached node, as reported by its driver (sysfs "state"). */
enum extoll_naa_state {
	EXTOLL_NAA_WAITING = 0,	/* created, no driver bound yet */
	EXTOLL_NAA_PROBING,	/* the driver is checking the node */
	EXTOLL_NAA_ATTACHED,	/* PCI domain exists */
	EXTOLL_NAA_FAILED,	/* the driver refused the node (see error) */
	EXTOLL_NAA_DEAD,	/* attached, but the node stopped answering */
	EXTOLL_NAA_DETACHING,	/* the driver is tearing the domain down */
};

/**
 * struct extoll_naa_dev - one attachable remote node (auxiliary device)
 * @adev: the auxiliary device, a child of the NIC's PCI device
 * @nic: the NIC that reaches the node
 * @node: the node id of the remote NIC (root-port mode)
 * @nic_removing: set by extoll before it deletes the device because the NIC
 *	itself is being removed, possibly under pci_lock_rescan_remove() (sysfs
 *	remove, hot-unplug): the driver must then not take that lock
 *
 * What the driver makes of the node it reports with extoll_naa_set_state()
 * and extoll_naa_set_domain(); the extoll driver keeps that to itself.
 */
struct extoll_naa_dev {
	struct auxiliary_device adev;
	struct extoll_dev *nic;
	u16 node;
	bool nic_removing;
};

static inline struct extoll_naa_dev *to_extoll_naa(struct auxiliary_device *adev)
{
	return container_of(adev, struct extoll_naa_dev, adev);
}

/*
 * The node's driver reports progress: @state (sysfs "state"), and with
 * EXTOLL_NAA_FAILED the negative errno the attach command returns. Any
 * context.
 */
void extoll_naa_set_state(struct extoll_naa_dev *naa,
			  enum extoll_naa_state state, int error);

/*
 * The node's PCI domain exists (@root: its root bus) or is about to go
 * (@root NULL, before the root bus is removed). extoll returns the domain
 * and root bus number to the attach command and links the root bus from
 * the node's device directory (sysfs "root_bus", as vmd links its
 * "domain"). Process context.
 */
void extoll_naa_set_domain(struct extoll_naa_dev *naa, struct pci_bus *root);

/* The NIC. */
struct pci_dev *extoll_pci_dev(struct extoll_dev *nic);
u16 extoll_node_id(struct extoll_dev *nic);
struct resource *extoll_aperture(struct extoll_dev *nic);
unsigned int extoll_rra_timeout_us(void);

/*
 * Remote register access. addr is the register byte offset at the node
 * (8-byte aligned, the node's BAR0 layout). Return 0, or:
 *   -ETIMEDOUT   no completion within the timeout (*val = all-ones)
 *   -EREMOTEIO   the node answered "no such register" (*val = all-ones)
 *   -EINVAL      bad address or route
 *   -EOPNOTSUPP  this NIC has no rra block
 */
int extoll_rra_read(struct extoll_dev *nic, u16 node, u32 addr, u64 *val);
int extoll_rra_write(struct extoll_dev *nic, u16 node, u32 addr, u64 val);

/**
 * struct extoll_cfg_req - a configuration request through the config tunnel
 * @bus: bus number in the remote hierarchy; 0 is the root port's own bus
 *       (CfgRd0/CfgWr0), others are sent as CfgRd1/CfgWr1
 * @devfn: device and function
 * @where: register offset, 0..4095, naturally aligned to @size
 * @size: 1, 2 or 4
 * @write: write @val instead of reading
 * @val: write data (low @size bytes), or the read data on return
 * @cpl_status: the PCIe completion status on return (EXTOLL_CPL_*)
 */
struct extoll_cfg_req {
	u8 bus;
	u8 devfn;
	u16 where;
	u8 size;
	bool write;
	u32 val;
	u8 cpl_status;
};

/*
 * The config tunnel to a root-port node (docs/remote-access.md): extoll
 * owns it end to end - the tag of the requests, the node's backdoor RX
 * filter that sends the completions back, the layout of its registers.
 *
 * extoll_tunnel_open() checks the node (an EXTOLL NIC in root-port mode,
 * with backdoor and smfu blocks), claims its backdoor for this host and
 * reads the root port's ID through the tunnel. Process context. Returns
 * the tunnel or ERR_PTR(-EHOSTUNREACH) (the node does not answer), -ENODEV
 * (not an NAA node, no root port), -EBUSY (the backdoor forwards to
 * another host), -EIO, -ENOMEM; nothing is left claimed on error.
 *
 * extoll_tunnel_close() releases the backdoor (best effort; skipped when
 * @node_gone, the caller knows the node stopped answering) and frees the
 * tunnel. Process context, no request in flight.
 *
 * extoll_tunnel_cfg() sends one CfgRd0/CfgWr0/CfgRd1/CfgWr1 and waits for
 * its completion. Any context, never sleeps. Returns 0 on SC, -EIO for
 * UR/CA, -EAGAIN for CRS (req->cpl_status tells which; read data
 * all-ones), -ETIMEDOUT, -EREMOTEIO (the node has no backdoor), -EINVAL,
 * -EOPNOTSUPP as for RRA.
 */
struct extoll_tunnel;

struct extoll_tunnel *extoll_tunnel_open(struct extoll_dev *nic, u16 node);
void extoll_tunnel_close(struct extoll_tunnel *tun, bool node_gone);
int extoll_tunnel_cfg(struct extoll_tunnel *tun, struct extoll_cfg_req *req);

/*
 * SMFU: transparent mapping of a range of the NIC's aperture BAR onto a
 * node's PCIe side (docs/smfu.md). Process context (takes a mutex; one RRA
 * write to the node).
 *
 * extoll_smfu_map() programs a free egress interval of this NIC:
 * [host_start, host_start + len) - host CPU addresses inside the aperture
 * BAR (extoll_aperture()) - goes to @node, and the node's in_base of the
 * same interval = @naa_bus_addr, the bus address on its PCIe side that
 * host_start maps to. Returns the interval id (>= 0), or -EINVAL (range
 * not inside the aperture), -ENOSPC (all intervals in use), -EOPNOTSUPP
 * (no smfu block), or the RRA error of the write to the node.
 *
 * extoll_smfu_unmap() invalidates the interval on this NIC (the node's
 * in_base is left alone: no packet carries the id any more).
 *
 * extoll_smfu_passthru() sets or clears smfu.ctrl.passthru at @node with
 * up_node = this NIC's node id: the node's PCIe devices' memory requests
 * (DMA, MSI writes) then reach this host. Returns 0 or an RRA error.
 */
int extoll_smfu_map(struct extoll_dev *nic, u16 node, phys_addr_t host_start,
		    resource_size_t len, u64 naa_bus_addr);
void extoll_smfu_unmap(struct extoll_dev *nic, int id);
int extoll_smfu_passthru(struct extoll_dev *nic, u16 node, bool enable);

/**
 * struct extoll_notify_entry - one notification-queue entry, decoded
 * @data: the data of the write into the interrupt window (the MSI data)
 * @offset: the write's offset in the interrupt window
 * @node: the node it came from
 */
struct extoll_notify_entry {
	u32 data;
	u32 offset;
	u16 node;
};

/*
 * Called for every entry from @node, in atomic context (the NIC's hard
 * interrupt handler, or its poller with interrupts off), serialised with
 * every other handler of the NIC. It must not sleep and must not call
 * extoll_notify_register/unregister/sync.
 */
typedef void (*extoll_notify_fn)(void *ctx, const struct extoll_notify_entry *entry);

/*
 * The interrupt window as the NAA side's devices address it: MSI address =
 * *base (+ an offset below *size). -EOPNOTSUPP when this NIC has no
 * working notification queue (no notify block, or no ring).
 */
int extoll_notify_window(struct extoll_dev *nic, u64 *base, u64 *size);

/*
 * One handler per node and NIC. register: 0, -EBUSY (node taken), -ENOMEM,
 * -EOPNOTSUPP (no notification queue). unregister: process context; on
 * return the handler is not running and will not be called again.
 * extoll_notify_sync(): waits until a dispatch in progress on another CPU
 * has finished (like synchronize_irq() on the NIC's vector); process or
 * atomic context, never from a handler.
 */
int extoll_notify_register(struct extoll_dev *nic, u16 node,
			   extoll_notify_fn fn, void *ctx);
void extoll_notify_unregister(struct extoll_dev *nic, u16 node);
void extoll_notify_sync(struct extoll_dev *nic);

#endif /* LINUX_EXTOLL_H */
