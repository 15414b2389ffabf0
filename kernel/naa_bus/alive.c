// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: is the node still there? A periodic probe, and the surprise
 * removal of a dead node's PCI domain.
 *
 * Every probe_ms the node's root port is asked for its vendor and device
 * ID through the config tunnel (a request like any other: atomic-safe and
 * bounded by extoll's rra_timeout_us). A node that does not answer is asked
 * again at once; NAA_PROBE_FAILS unanswered probes in a row - or
 * naa_dead_after config timeouts of the drivers (ops.c) - mark it dead
 * (naa_mark_dead: config accesses fail at once, extoll shows the node as
 * "dead"), and the domain is surprise-removed as pciehp does on a surprise
 * link-down: every device is marked disconnected first
 * (pci_dev_is_disconnected() is then true, so drivers that check it stop
 * waiting for the device at once), then the drivers are unbound and the
 * devices removed under pci_lock_rescan_remove(). The node's device
 * (extoll.naa.<id>) stays, state "dead", until user space detaches it;
 * once the node is back, attach works again.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/pci.h>
#include <linux/workqueue.h>

#include "naa_bus.h"

/* Unanswered probes in a row that make a node dead. */
#define NAA_PROBE_FAILS		2

/*
 * pci_dev_set_disconnected() is private to the PCI core (drivers/pci/pci.h):
 * set the state it sets. pci_channel_io_perm_failure is final, so a plain
 * store cannot undo another transition.
 */
static int naa_dev_disconnect(struct pci_dev *pdev, void *unused)
{
	WRITE_ONCE(pdev->error_state, pci_channel_io_perm_failure);
	return 0;
}

static void naa_surprise_work(struct work_struct *work)
{
	struct naa_host *host = container_of(work, struct naa_host, surprise);
	int domain = host->domain;
	u64 ms;

	pci_lock_rescan_remove();
	/* A detach in progress removes the domain itself. */
	if (READ_ONCE(host->stopping) || !host->bus) {
		pci_unlock_rescan_remove();
		return;
	}
	pci_walk_bus(host->bus, naa_dev_disconnect, NULL);
	/*
	 * The devices' BARs no longer reach the node: a CPU access to them
	 * misses every SMFU interval and the NIC answers it at once (UR:
	 * all-ones for a load, a store dropped) instead of after its
	 * completion timeout, so the drivers' remove() runs at full speed.
	 */
	naa_map_remove(host);
	extoll_naa_set_domain(host->naa, NULL);
	pci_stop_root_bus(host->bus);
	pci_remove_root_bus(host->bus);
	host->bus = NULL;
	pci_unlock_rescan_remove();

	ms = div_u64(ktime_get_ns() - host->dead_ns, NSEC_PER_MSEC);
	dev_warn(host->dev,
		 "node %u: PCI domain %04x surprise-removed, %llu ms after the node was found dead (first unanswered request %llu ms before that)\n",
		 host->node, domain, ms,
		 div_u64(host->dead_ns - host->first_fail_ns, NSEC_PER_MSEC));
}

/**
 * naa_alive_dead() - the node was marked dead: remove its domain
 * @host: the node
 *
 * Context: any (queues the removal).
 */
void naa_alive_dead(struct naa_host *host)
{
	host->dead_ns = ktime_get_ns();
	if (!host->first_fail_ns)
		host->first_fail_ns = host->dead_ns;
	if (!READ_ONCE(host->stopping))
		queue_work(system_long_wq, &host->surprise);
}

static void naa_probe_work(struct work_struct *work)
{
	struct naa_host *host = container_of(to_delayed_work(work),
					     struct naa_host, probe);
	struct extoll_cfg_req req = {
		.bus = 0, .devfn = 0, .where = PCI_VENDOR_ID, .size = 4,
	};
	unsigned int ms = READ_ONCE(naa_probe_ms);
	unsigned long delay;

	if (READ_ONCE(host->dead) || READ_ONCE(host->stopping))
		return;
	if (!ms) {		/* probing switched off: look again later */
		schedule_delayed_work(&host->probe, HZ);
		return;
	}
	/* A CRS or an error completion is an answer: the node is there. */
	if (extoll_tunnel_cfg(host->tunnel, &req) != -ETIMEDOUT) {
		host->probe_fails = 0;
		host->first_fail_ns = 0;
		delay = msecs_to_jiffies(ms);
	} else {
		if (!host->probe_fails++)
			host->first_fail_ns = ktime_get_ns();
		if (host->probe_fails >= NAA_PROBE_FAILS) {
			naa_mark_dead(host, "no answer to the liveness probe");
			return;
		}
		delay = 0;	/* ask again at once */
	}
	schedule_delayed_work(&host->probe, delay);
}

/**
 * naa_alive_start() - start probing an attached node
 * @host: the node, its domain registered
 */
void naa_alive_start(struct naa_host *host)
{
	unsigned int ms = READ_ONCE(naa_probe_ms);

	WRITE_ONCE(host->stopping, false);
	/* Found dead while the domain was being set up: remove it now. */
	if (READ_ONCE(host->dead))
		queue_work(system_long_wq, &host->surprise);
	else
		schedule_delayed_work(&host->probe, msecs_to_jiffies(ms ? ms : 1000));
}

/**
 * naa_alive_init() - set up the probe and the removal work, not started
 * @host: the node
 */
void naa_alive_init(struct naa_host *host)
{
	INIT_DELAYED_WORK(&host->probe, naa_probe_work);
	INIT_WORK(&host->surprise, naa_surprise_work);
	/* Until naa_alive_start(): the attach itself handles a node that fails. */
	host->stopping = true;
}

/**
 * naa_alive_stop() - no more probes or surprise removals (detach, failed attach)
 * @host: the node
 *
 * Context: process. Waits for a surprise removal in progress, which needs
 * pci_lock_rescan_remove(): a node found dead at the very moment its NIC is
 * removed under that lock (sysfs remove of the NIC, @host->naa->nic_removing)
 * is a case left open - the wait would not end.
 */
void naa_alive_stop(struct naa_host *host)
{
	WRITE_ONCE(host->stopping, true);
	cancel_delayed_work_sync(&host->probe);
	flush_work(&host->surprise);
}
