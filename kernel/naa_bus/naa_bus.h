/* SPDX-License-Identifier: GPL-2.0 */
/*
 * naa_bus: a PCI domain for each attached network-attached accelerator node.
 *
 * The NIC driver (extoll) creates an auxiliary device extoll.naa.<id> per
 * attached node; this driver opens extoll's config tunnel to the node
 * (extoll checks the node and claims its backdoor), carves a window out of
 * the NIC's aperture BAR and registers a host bridge whose config accessors
 * go through the tunnel (extoll_tunnel_cfg()). Modelled on
 * drivers/pci/controller/vmd.c (a domain behind an endpoint) and
 * drivers/pci/xen-pcifront.c (config space by messages).
 *
 * The remote devices' BARs are reached through SMFU intervals that map the
 * assigned ranges of the window onto the node (map.c), their DMA and MSI
 * writes come back by pass-through, and their MSIs land in the NIC's
 * notification queue: a flat child MSI domain per node (VMD's scheme,
 * msi.c) turns the entry's data (a slot) back into the child's interrupt.
 */
#ifndef NAA_BUS_H
#define NAA_BUS_H

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/ioport.h>
#include <linux/hrtimer.h>
#include <linux/msi.h>
#include <linux/pci.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "extoll_records.h"
#include "linux-extoll.h"

/*
 * MSI slots per node: the MSI data values the node's devices write (a
 * device may have 2048 MSI-X vectors, plus MSI and other devices).
 */
#define NAA_MSI_SLOTS		4096

/* SMFU intervals one node may use (the NIC has 16 in all). */
#define NAA_MAX_MAPS		16

/*
 * The node's child MSI domain (flat, no parent: VMD's scheme). A device's
 * MSI/MSI-X message is {interrupt window, data = slot}; the notification
 * handler maps the slot back to the Linux interrupt.
 */
struct naa_msi {
	struct fwnode_handle *fwnode;
	struct irq_domain *domain;
	struct msi_domain_info info;	/* one per node, container_of -> host */
	u64 addr;			/* the interrupt window, NAA bus address */
	spinlock_t lock;		/* slot allocation */
	DECLARE_BITMAP(used, NAA_MSI_SLOTS);
	unsigned int multi_base;	/* multi-MSI block being set up */
	unsigned int virq[NAA_MSI_SLOTS];	/* slot -> Linux irq, 0 = none */
	u64 spurious;			/* under the NIC's notify lock */
	bool notify_registered;
};

/* The node's INTx lines INTA..INTD (intx.c): level semantics. */
struct naa_intx {
	struct fwnode_handle *fwnode;
	struct irq_domain *domain;	/* NULL: no INTx forwarding */
	spinlock_t lock;		/* level, masked */
	unsigned long level;		/* per pin: the last message asserted it */
	unsigned long masked;		/* per pin: masked by the flow handler */
	struct hrtimer recheck;		/* level re-check after unmask */
	u64 messages;
};

/* One attached node and its PCI domain. */
struct naa_host {
	struct extoll_naa_dev *naa;	/* the auxiliary device */
	struct extoll_dev *nic;
	struct device *dev;		/* &naa->adev.dev, for messages */
	u16 node;
	u16 host_node;			/* our NIC's node id */

	/* Config tunnel health: consecutive timeouts, then dead. */
	atomic_t cfg_timeouts;
	bool dead;			/* config accesses fail at once */
	bool unreachable;		/* dead because it stopped answering */

	/* Liveness (alive.c): periodic probe, surprise removal when dead. */
	struct delayed_work probe;
	struct work_struct surprise;
	unsigned int probe_fails;	/* unanswered probes in a row */
	u64 first_fail_ns;		/* the first of them (ktime_get_ns) */
	u64 dead_ns;			/* marked dead */
	bool stopping;			/* detach: no more probes or removals */

	/* The domain. */
	struct pci_sysdata sysdata;	/* x86: domain and NUMA node */
	struct pci_host_bridge *bridge;
	struct pci_bus *bus;
	int domain;			/* -1 until registered */
	struct resource busn;		/* bus numbers 0-255 */
	struct resource window;		/* host CPU addresses, in the aperture */
	resource_size_t window_size;
	u64 bus_base;			/* NAA-side bus address of the window */
	char window_name[32];
	bool window_claimed;
	struct extoll_tunnel *tunnel;	/* the config tunnel, extoll's */

	/* Interrupt forwarding and BAR mapping. */
	struct naa_msi msi;
	struct naa_intx intx;
	int map_id[NAA_MAX_MAPS];	/* SMFU interval ids */
	unsigned int nr_maps;
	bool passthru;			/* the node's pass-through points at us */
	bool claimed;			/* we hold the node (own.c) */
	bool dma_granted;		/* its DMA windows are ours (dma.c) */
};

/* Module parameters (main.c). */
extern unsigned int naa_window_mb;
extern unsigned long naa_bus_base;
extern unsigned int naa_dead_after;
extern unsigned int naa_probe_ms;

/* ops.c: config accessors */
extern struct pci_ops naa_pci_ops;
void naa_mark_dead(struct naa_host *host, const char *why);

/* msi.c: child MSI domain, notification handler */
int naa_msi_create(struct naa_host *host);
void naa_msi_remove(struct naa_host *host);

/* intx.c: INTx domain of the remote bus, map_irq */
void naa_intx_create(struct naa_host *host);
void naa_intx_remove(struct naa_host *host);
void naa_intx_event(struct naa_host *host, u32 data);

/* map.c: SMFU intervals and pass-through */
int naa_map_create(struct naa_host *host);
void naa_map_remove(struct naa_host *host);
int naa_passthru_enable(struct naa_host *host);
void naa_passthru_disable(struct naa_host *host);

/* own.c: the node's holder (claim on attach, handover reset, release on detach) */
int naa_own_claim(struct naa_host *host);
int naa_handover_reset(struct naa_host *host);
void naa_own_release(struct naa_host *host);

/* dma.c: the node's DMA windows (granted on attach, cleared on detach) */
int naa_dma_grant(struct naa_host *host);
void naa_dma_revoke(struct naa_host *host);

/* alive.c: liveness probe, surprise removal */
void naa_alive_init(struct naa_host *host);
void naa_alive_start(struct naa_host *host);
void naa_alive_stop(struct naa_host *host);
void naa_alive_dead(struct naa_host *host);

/* host.c: window, host bridge, domain */
int naa_host_create(struct naa_host *host);
void naa_host_remove(struct naa_host *host);

#endif /* NAA_BUS_H */
