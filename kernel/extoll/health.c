// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: devlink health reporter "rra", the driver's view of remote
 * register access (the counters belong to the driver, not to a register).
 *
 *   $ devlink health show pci/0000:00:02.0 reporter rra
 *   $ devlink health diagnose pci/0000:00:02.0 reporter rra
 *       requests, timeouts, errors, stale records, the timeout in us
 *   $ devlink health dump show pci/0000:00:02.0 reporter rra
 *       the request that last timed out (node, route, operation, address)
 *
 * A request without a completion record within rra_timeout_us is a fabric
 * problem (a node gone, a link down, a routing table that loses packets):
 * it is reported to devlink, which counts it, keeps a dump of the request
 * and calls the recover op. Register errors (no such register, UR/CA of a
 * tunnelled TLP) are answers, not failures of the fabric: they count in the
 * diagnosis only.
 *
 * extoll_rra_exec() runs with interrupts off and must not sleep, and
 * devlink_health_report() may: the timeout is copied under a raw spinlock
 * and reported from a work item. Timeouts that happen while one is waiting
 * to be reported replace it (the dump shows the latest) and count as
 * "coalesced"; the diagnosis counts every one.
 */
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/devlink.h>

#include "extoll.h"
#include "extoll_compat.h"

static int extoll_health_diagnose(struct devlink_health_reporter *reporter,
				  struct devlink_fmsg *fmsg,
				  struct netlink_ext_ack *extack)
{
	struct extoll_dev *edev = devlink_health_reporter_priv(reporter);
	struct extoll_rra_stats st;
	unsigned long flags;
	u64 coalesced;

	extoll_rra_stats_get(edev, &st);
	raw_spin_lock_irqsave(&edev->health.lock, flags);
	coalesced = edev->health.coalesced;
	raw_spin_unlock_irqrestore(&edev->health.lock, flags);

	return extoll_fmsg(devlink_fmsg_u64_pair_put(fmsg, "requests", st.requests)) ?:
	       extoll_fmsg(devlink_fmsg_u64_pair_put(fmsg, "timeouts", st.timeouts)) ?:
	       extoll_fmsg(devlink_fmsg_u64_pair_put(fmsg, "errors", st.errors)) ?:
	       extoll_fmsg(devlink_fmsg_u64_pair_put(fmsg, "stale", st.stale)) ?:
	       extoll_fmsg(devlink_fmsg_u64_pair_put(fmsg, "coalesced", coalesced)) ?:
	       extoll_fmsg(devlink_fmsg_u32_pair_put(fmsg, "timeout_us",
						     extoll_rra_timeout_us()));
}

/* The request of @ctx, or (a dump asked for by hand) the last one kept. */
static int extoll_health_dump(struct devlink_health_reporter *reporter,
			      struct devlink_fmsg *fmsg, void *ctx,
			      struct netlink_ext_ack *extack)
{
	struct extoll_dev *edev = devlink_health_reporter_priv(reporter);
	struct extoll_rra_fail f;
	unsigned long flags;

	if (ctx) {
		f = *(struct extoll_rra_fail *)ctx;
	} else {
		raw_spin_lock_irqsave(&edev->health.lock, flags);
		f = edev->health.last;
		raw_spin_unlock_irqrestore(&edev->health.lock, flags);
		if (!f.valid) {
			NL_SET_ERR_MSG_MOD(extack, "no remote register access has timed out");
			return -ENODATA;
		}
	}

	return extoll_fmsg(devlink_fmsg_u32_pair_put(fmsg, "node", f.node)) ?:
	       extoll_fmsg(devlink_fmsg_string_pair_put(fmsg, "operation",
							extoll_rra_op_name(f.op))) ?:
	       extoll_fmsg(devlink_fmsg_u32_pair_put(fmsg, "address", f.addr)) ?:
	       extoll_fmsg(devlink_fmsg_bool_pair_put(fmsg, "source_routed", f.srcroute)) ?:
	       extoll_fmsg(devlink_fmsg_u64_pair_put(fmsg, "route", f.route)) ?:
	       extoll_fmsg(devlink_fmsg_u32_pair_put(fmsg, "seq", f.seq)) ?:
	       extoll_fmsg(devlink_fmsg_u32_pair_put(fmsg, "timeout_us", f.timeout_us));
}

/*
 * Nothing is left to repair after a timeout: every request starts from a
 * zeroed completion record with a new sequence number, and a late answer
 * to the timed-out one is discarded as stale. Recovery only returns the
 * reporter to "healthy", so that the next timeout is reported again.
 */
static int extoll_health_recover(struct devlink_health_reporter *reporter,
				 void *ctx, struct netlink_ext_ack *extack)
{
	return 0;
}

static const struct devlink_health_reporter_ops extoll_health_rra_ops = {
	.name = "rra",
	.diagnose = extoll_health_diagnose,
	.dump = extoll_health_dump,
	.recover = extoll_health_recover,
};

static void extoll_health_work(struct work_struct *work)
{
	struct extoll_health *h = container_of(work, struct extoll_health, work);
	struct extoll_rra_fail f;
	unsigned long flags;
	char msg[64];

	raw_spin_lock_irqsave(&h->lock, flags);
	f = h->last;
	h->pending = false;
	raw_spin_unlock_irqrestore(&h->lock, flags);

	snprintf(msg, sizeof(msg), "RRA %s to node %u timed out",
		 extoll_rra_op_name(f.op), f.node);
	devlink_health_report(h->rra, msg, &f);
}

/**
 * extoll_health_rra_timeout() - report an RRA request that timed out
 * @edev: the NIC
 * @op: the request
 * @seq: its sequence number
 * @timeout_us: the time it was given
 *
 * Context: any (interrupts may be off); never sleeps.
 */
void extoll_health_rra_timeout(struct extoll_dev *edev,
			       const struct extoll_rra_op *op, u16 seq,
			       unsigned int timeout_us)
{
	struct extoll_health *h = &edev->health;
	unsigned long flags;

	raw_spin_lock_irqsave(&h->lock, flags);
	h->last = (struct extoll_rra_fail) {
		.valid = true, .node = op->node, .op = op->op,
		.addr = op->addr, .srcroute = op->srcroute,
		.route = op->srcroute ? op->route : 0, .seq = seq,
		.timeout_us = timeout_us,
	};
	if (h->rra && !h->stopped) {
		if (h->pending)
			h->coalesced++;
		h->pending = true;
		schedule_work(&h->work);
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/**
 * extoll_health_init() - create the reporter (before devlink_register)
 * @edev: the NIC
 *
 * Without a reporter the driver works on; timeouts are then only counted
 * (sysfs rra/timeouts) and logged.
 */
void extoll_health_init(struct extoll_dev *edev)
{
	struct extoll_health *h = &edev->health;
	struct devlink_health_reporter *r;

	raw_spin_lock_init(&h->lock);
	INIT_WORK(&h->work, extoll_health_work);
	r = devlink_health_reporter_create(priv_to_devlink(edev),
					   &extoll_health_rra_ops, 0, edev);
	if (IS_ERR(r)) {
		dev_warn(&edev->pdev->dev,
			 "no devlink health reporter rra (%pe): timeouts are only counted\n", r);
		return;
	}
	h->rra = r;
}

/**
 * extoll_health_stop() - stop or resume reporting, the reporter kept
 * @edev: the NIC
 * @stop: true: report no more and wait for a report under way; false: resume
 *
 * devlink reload keeps the reporter (it runs under the devlink instance
 * lock, which creating and destroying reporters takes on newer kernels).
 */
void extoll_health_stop(struct extoll_dev *edev, bool stop)
{
	struct extoll_health *h = &edev->health;
	unsigned long flags;

	raw_spin_lock_irqsave(&h->lock, flags);
	h->stopped = stop;
	raw_spin_unlock_irqrestore(&h->lock, flags);
	if (stop)
		cancel_work_sync(&h->work);
}

/**
 * extoll_health_teardown() - stop reporting and destroy the reporter
 * @edev: the NIC
 *
 * Call once nothing issues RRA requests any more.
 */
void extoll_health_teardown(struct extoll_dev *edev)
{
	struct extoll_health *h = &edev->health;

	if (!h->rra)
		return;
	extoll_health_stop(edev, true);
	devlink_health_reporter_destroy(h->rra);
	h->rra = NULL;
}
