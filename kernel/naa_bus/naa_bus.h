/* SPDX-License-Identifier: GPL-2.0 */
/*
 * naa_bus: a PCI domain for each attached network-attached accelerator node.
 *
 * The NIC driver (extoll) creates an auxiliary device extoll.naa.<id> per
 * attached node; this driver checks the node, claims its backdoor, carves a
 * window out of the NIC's aperture BAR and registers a host bridge whose
 * config accessors tunnel through extoll_cfg_tlp(). Modelled on
 * drivers/pci/controller/vmd.c (a domain behind an endpoint) and
 * drivers/pci/xen-pcifront.c (config space by messages).
 *
 * Next issue (do not build yet): the child MSI domain (VMD's flat scheme,
 * created before the scan and handed to the bridge with dev_set_msi_domain)
 * and the SMFU interval that maps the window onto the node. Their hooks are
 * marked "NEXT:" in host.c.
 */
#ifndef NAA_BUS_H
#define NAA_BUS_H

#include <linux/atomic.h>
#include <linux/ioport.h>
#include <linux/pci.h>
#include <linux/types.h>

#include "linux-extoll.h"

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
	bool backdoor_claimed;
};

/* Module parameters (main.c). */
extern unsigned int naa_window_mb;
extern unsigned long naa_bus_base;
extern unsigned int naa_dead_after;

/* remote.c: the node's own registers, by RRA */
int naa_remote_check(struct naa_host *host);
int naa_remote_claim(struct naa_host *host);
void naa_remote_release(struct naa_host *host);
int naa_remote_probe_tunnel(struct naa_host *host);

/* ops.c: config accessors */
extern struct pci_ops naa_pci_ops;
void naa_mark_dead(struct naa_host *host, const char *why);

/* host.c: window, host bridge, domain */
int naa_host_create(struct naa_host *host);
void naa_host_remove(struct naa_host *host);

#endif /* NAA_BUS_H */
