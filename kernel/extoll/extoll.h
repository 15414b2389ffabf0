/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EXTOLL-style NIC driver: private definitions shared by the driver's objects.
 *
 * Register offsets and fields come from the generated extoll_regs.h, the
 * completion record and the notification-queue entry the NIC writes into host
 * memory (struct extoll_cmp_rec, struct extoll_notify_ent, their EXTOLL_CMP_*
 * and EXTOLL_NOTIFY_ENT_* fields and status values) from the generated
 * extoll_records.h; nothing here repeats them.
 */
#ifndef EXTOLL_H
#define EXTOLL_H

#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/poll.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "extoll_records.h"
#include "extoll_regs.h"
#include "linux-extoll.h"
#include "uapi/extoll_ioctl.h"

#define PCI_VENDOR_ID_EXTOLL		0x1ee7
/* The NIC in PCIe endpoint mode: the booster interface host's NIC. */
#define PCI_DEVICE_ID_EXTOLL_NIC	0x0001
/* The same NIC strapped to root-port mode (NAA side); not bound yet. */
#define PCI_DEVICE_ID_EXTOLL_NIC_RP	0x0002

/* BAR0: register file. BAR2: SMFU aperture, carved up by naa_bus children. */
#define EXTOLL_BAR_REGS			0
#define EXTOLL_BAR_APERTURE		2

/* Upper bound on the register block list, so a corrupt list cannot loop. */
#define EXTOLL_MAX_BLOCKS		64

/* How long the interrupt self-test waits for its interrupt. */
#define EXTOLL_IRQ_SELFTEST_MS		100

/* Values of the INFO block's role strap. */
enum extoll_role {
	EXTOLL_ROLE_ENDPOINT = EXTOLL_ROLE_EP,
	EXTOLL_ROLE_ROOT_PORT = EXTOLL_ROLE_RP,
};

/* No block of that type in the register file. */
#define EXTOLL_NO_BLOCK			U32_MAX

/*
 * Registers at a remote node, by RRA. Every node runs the same RTL, so its
 * blocks sit at the fixed bases of the generated map (the local NIC's own
 * offsets come from the block walk, regs.c). extoll_node_check() makes
 * sure a node has the blocks before anything else uses these.
 */
#define EXTOLL_NODE_INFO_ID		(EXTOLL_INFO_BASE + EXTOLL_INFO_ID)
#define EXTOLL_NODE_BD_RX_FILTER	(EXTOLL_BACKDOOR_BASE + EXTOLL_BACKDOOR_RX_FILTER)
#define EXTOLL_NODE_BD_RX_FWD_ADDR	(EXTOLL_BACKDOOR_BASE + EXTOLL_BACKDOOR_RX_FWD_ADDR)
#define EXTOLL_NODE_SMFU_CTRL		(EXTOLL_SMFU_BASE + EXTOLL_SMFU_CTRL)
#define EXTOLL_NODE_SMFU_IN_BASE(i)	(EXTOLL_SMFU_BASE + EXTOLL_SMFU_IN_BASE_N(i))

/*
 * The tag of tunnelled config requests: tlp.c sends it, the node's backdoor
 * RX filter (claimed by tunnel.c) extracts the completions that carry it.
 */
#define EXTOLL_CFG_TAG			0xff

/* RRA ops (rra.req.op). */
#define EXTOLL_RRA_OP_READ		0
#define EXTOLL_RRA_OP_WRITE		1
#define EXTOLL_RRA_OP_TLP		2

/* One request to the rra block, and what came back. */
struct extoll_rra_op {
	u8 op;			/* EXTOLL_RRA_OP_* */
	bool srcroute;
	u8 tlp_len;		/* op TLP: payload dwords (0-2) */
	u16 node;
	u32 addr;
	u64 route;
	u64 wdata;
	u64 hdr0, hdr1;		/* op TLP */
	/* results */
	u64 rdata;
	u8 status;		/* EXTOLL_CMP_* */
	u8 cpl_status;
	u16 answered;
};

/* RRA statistics (sysfs rra/), updated under rra_lock. */
struct extoll_rra_stats {
	u64 requests;
	u64 timeouts;
	u64 errors;		/* register errors and non-SC completions */
	u64 stale;		/* records with a foreign seq seen while waiting */
};

struct extoll_cdev;

struct devlink_health_reporter;

/* An RRA request that timed out, as the health reporter keeps it (health.c). */
struct extoll_rra_fail {
	bool valid;
	bool srcroute;
	u8 op;			/* EXTOLL_RRA_OP_* */
	u16 node;
	u16 seq;
	u32 addr;
	u32 timeout_us;
	u64 route;		/* the hop list of a source-routed request */
};

/* The devlink health reporter "rra" and its deferred report (health.c). */
struct extoll_health {
	struct devlink_health_reporter *rra;	/* NULL: none */
	struct work_struct work;		/* reports @last */
	raw_spinlock_t lock;			/* the fields below */
	struct extoll_rra_fail last;		/* the latest timeout */
	bool pending;				/* @work scheduled, not run */
	bool stopped;				/* teardown: report no more */
	u64 coalesced;				/* timeouts replaced while pending */
};

/* SMFU egress intervals (smfu.eg_start/eg_end/eg_ctrl/in_base[]). */
#define EXTOLL_SMFU_INTERVALS		EXTOLL_SMFU_EG_CTRL_COUNT

/* Notification statistics (sysfs notify/), updated under the ring lock. */
struct extoll_notify_stats {
	u64 entries;		/* entries consumed */
	u64 unclaimed;		/* entries from a node without a handler */
	u64 drains;		/* drain runs that found at least one entry */
};

/*
 * The notification ring and the per-node handlers. @lock serialises the
 * drain (interrupt handler, poller, poll timer) and the handler list, so
 * a handler removed under it is not running and will not run again.
 */
struct extoll_notify {
	bool ready;			/* ring programmed and enabled */
	struct extoll_notify_ent *ring;	/* dma_alloc_coherent */
	dma_addr_t ring_dma;
	unsigned int log2_entries;
	u32 cons;			/* free-running, mirrors notify.cons */
	u64 win_base;			/* interrupt window, NAA-side bus address */
	u64 win_size;

	raw_spinlock_t lock;		/* drain, handlers, stats */
	struct list_head handlers;	/* struct extoll_notify_handler */
	struct extoll_notify_stats stats;

	/* Fast poll of the ring in host memory while the NIC polls. */
	struct mutex reg_lock;		/* register/unregister, timer start/stop */
	unsigned int nr_handlers;
	unsigned int nr_rma;		/* RMA users (extoll_notify_rma_hold) */
	struct hrtimer timer;
	ktime_t period;
	bool timer_on;
};

/* Transfers in flight per NIC: the slots of the cookie table (rma.c). */
#define EXTOLL_RMA_SLOTS		1024

/* RMA statistics (sysfs rma/), under rma.lock. */
struct extoll_rma_stats {
	u64 posted;		/* descriptors posted */
	u64 done;		/* requester notifications with status OK */
	u64 errors;		/* ... with an error status */
	u64 full;		/* posts refused: the descriptor FIFO stayed full */
	u64 stale;		/* requester notifications without a transfer */
	u64 cmp_notis;		/* completer notifications received */
};

struct extoll_rma_op;

/* The NIC's RMA state (rma.c). */
struct extoll_rma {
	raw_spinlock_t lock;		/* slots, ops' state and file links, stats */
	struct extoll_rma_op *slot[EXTOLL_RMA_SLOTS];
	u16 gen[EXTOLL_RMA_SLOTS];	/* cookie generation per slot */
	unsigned int next;		/* where the next slot search starts */
	struct mutex post_lock;		/* the descriptor staging registers */
	struct list_head reap;		/* completed orphans, freed by reap_wq */
	struct irq_work reap_work;
	struct work_struct reap_wq;
	struct extoll_rma_stats stats;
};

struct extoll_rma_buf;
struct extoll_rma_file;

/* One window of the dma block: a region exposed to other nodes' RMA units. */
struct extoll_rma_expo_win {
	struct extoll_rma_file *file;	/* the exposing file; NULL: free */
	struct extoll_rma_buf *buf;	/* a reference while exposed */
	u32 key;
};

/*
 * Host to host (rma_expose.c): the NIC's dma block polices other nodes' RMA
 * requests into host memory; window 0 takes completer records into the
 * notification queue, windows 1.. the exposed regions.
 */
struct extoll_rma_expo {
	struct mutex lock;		/* win[], next_key, the dma block's windows */
	bool enforced;			/* dma.ctrl.enforce set by the driver */
	u32 next_key;
	struct extoll_rma_expo_win win[EXTOLL_DMA_WIN_BASE_COUNT];
};

/* An open file's RMA state (rma.c): its buffers and transfers. */
struct extoll_rma_file {
	struct mutex lock;		/* bufs, bytes */
	struct list_head bufs;		/* struct extoll_rma_buf */
	size_t bytes;			/* their total size */
	struct list_head ops;		/* its transfers, under the NIC's rma.lock */
	unsigned int nr_ops;		/* ... counted, under the same lock */
	bool poll_held;			/* extoll_notify_rma_hold() taken */
	wait_queue_head_t wq;		/* a transfer completed */
	struct irq_work wake;		/* wakes wq outside the ring's lock */
};

/* The config tunnel to one node (tunnel.c); opaque to its user. */
struct extoll_tunnel {
	struct extoll_dev *nic;
	u16 node;
};

/*
 * An attachable node as this driver keeps it (naa.c): the auxiliary
 * device its driver sees, and what the driver reported.
 */
struct extoll_naa {
	struct extoll_naa_dev naa;
	int state;			/* enum extoll_naa_state */
	int error;			/* last error reported with EXTOLL_NAA_FAILED */
	int domain;			/* PCI domain, or -1 */
	u8 root_bus;			/* the domain's root bus number */
	bool linked;			/* sysfs link "root_bus" exists */
	struct list_head list;		/* extoll_dev.naa_list, under naa_lock */
};

/* What an attach came to (EXTOLL_IOC_ATTACH_DOMAIN). */
struct extoll_naa_result {
	u32 id;				/* extoll.naa.<id> */
	int domain;			/* PCI domain, or -1 (no driver yet) */
	u8 root_bus;
};

enum extoll_irq_mode {
	EXTOLL_IRQ_POLL,
	EXTOLL_IRQ_INTX,
	EXTOLL_IRQ_MSI,
	EXTOLL_IRQ_MSIX,
};

/* Identity of the NIC, read once from the INFO block at probe. */
struct extoll_info {
	u16 ver_major;
	u16 ver_minor;
	u16 ver_patch;
	u32 build_date;		/* BCD 0xYYYYMMDD */
	u32 build_commit;	/* first 8 hex digits of the source commit */
	u16 node_id;
	u8 role;
};

/*
 * Per-NIC state. It is the devlink instance's private area, so it is
 * allocated by devlink_alloc() and freed by devlink_free().
 */
struct extoll_dev {
	struct pci_dev *pdev;
	void __iomem *regs;		/* BAR0 */
	resource_size_t regs_len;

	/* Register blocks found by the walk. */
	unsigned int nr_blocks;
	u32 info_off;			/* BAR0 offset of the INFO block */
	u32 rra_off;			/* ... of the rra block, or EXTOLL_NO_BLOCK */
	u32 backdoor_off;		/* ... of the backdoor block, or EXTOLL_NO_BLOCK */
	u32 router_off;			/* ... of the router block, or EXTOLL_NO_BLOCK */
	u32 smfu_off;			/* ... of the smfu block, or EXTOLL_NO_BLOCK */
	u32 notify_off;			/* ... of the notify block, or EXTOLL_NO_BLOCK */
	u32 flash_off;			/* ... of the flash block, or EXTOLL_NO_BLOCK */
	u32 rma_off;			/* ... of the rma block, or EXTOLL_NO_BLOCK */
	u32 dma_off;			/* ... of the dma block, or EXTOLL_NO_BLOCK */
	struct extoll_info info;
	char flash_msg[160];		/* extack text of the last flash update (6.1) */

	/* Remote register access: one request at a time, polled in host RAM. */
	raw_spinlock_t rra_lock;
	u16 rra_seq;
	bool rra_ready;			/* completion record set up */
	bool reloading;			/* devlink reload: state torn down (naa_lock) */
	ktime_t reload_start;		/* when reload_down began */
	struct extoll_cmp_rec *cmp;	/* dma_alloc_coherent */
	dma_addr_t cmp_dma;
	struct extoll_rra_stats rra_stats;
	struct extoll_health health;

	/* SMFU egress intervals, allocated per NIC (smfu.c). */
	struct mutex smfu_lock;
	unsigned long smfu_used;	/* bitmap of EXTOLL_SMFU_INTERVALS */
	u16 smfu_node[EXTOLL_SMFU_INTERVALS];

	/* Notification queue (notify.c). */
	struct extoll_notify notify;

	/* One-sided put/get (rma.c). */
	struct extoll_rma rma;
	struct extoll_rma_expo expo;	/* regions exposed to peers (rma_expose.c) */

	/* Character device /dev/extollN. */
	int index;			/* N */
	struct extoll_cdev *cdev;

	/* Attached remote nodes (struct extoll_naa), under naa_lock. */
	struct mutex naa_lock;
	struct list_head naa_list;

	/* Interrupts: a vector with a handler, or a poller. */
	enum extoll_irq_mode irq_mode;
	int irq;			/* Linux irq number, or -1 */
	bool vectors_allocated;
	char irq_name[32];
	spinlock_t irq_lock;		/* protects irq_enable */
	u64 irq_enable;			/* shadow of INFO irq_enable */
	struct completion selftest_done;
	struct delayed_work poll_work;
	unsigned long poll_interval;	/* jiffies */
	bool polling;
	bool gone;			/* device read back all-ones */
};

/* Register access relative to BAR0. */
static inline u64 extoll_rd(struct extoll_dev *edev, u32 off)
{
	return readq(edev->regs + off);
}

static inline void extoll_wr(struct extoll_dev *edev, u32 off, u64 val)
{
	writeq(val, edev->regs + off);
}

/* INFO block registers. */
static inline u64 extoll_info_rd(struct extoll_dev *edev, u32 reg)
{
	return extoll_rd(edev, edev->info_off + reg);
}

static inline void extoll_info_wr(struct extoll_dev *edev, u32 reg, u64 val)
{
	extoll_wr(edev, edev->info_off + reg, val);
}

/* links.c: sysfs link0/ .. link6/ (the NIC's own links, link layer). */
extern const struct attribute_group extoll_link0_group, extoll_link1_group,
	extoll_link2_group, extoll_link3_group, extoll_link4_group,
	extoll_link5_group, extoll_link6_group;

const char *extoll_role_name(u8 role);
const char *extoll_irq_mode_name(enum extoll_irq_mode mode);

/* regs.c */
int extoll_regs_probe(struct extoll_dev *edev);

/* rra.c */
extern unsigned int extoll_rra_timeout;	/* module parameter, us */
int extoll_rra_init(struct extoll_dev *edev);
void extoll_rra_teardown(struct extoll_dev *edev);
int extoll_rra_exec(struct extoll_dev *edev, struct extoll_rra_op *op);
int extoll_rra_access(struct extoll_dev *nic, struct extoll_rra_op *op,
		      u64 *val, u16 *answered);
const char *extoll_rra_op_name(u8 op);
void extoll_rra_stats_get(struct extoll_dev *edev, struct extoll_rra_stats *st);

/* health.c */
void extoll_health_init(struct extoll_dev *edev);
void extoll_health_teardown(struct extoll_dev *edev);
void extoll_health_stop(struct extoll_dev *edev, bool stop);
void extoll_health_rra_timeout(struct extoll_dev *edev,
			       const struct extoll_rra_op *op, u16 seq,
			       unsigned int timeout_us);

/* cdev.c */
int extoll_cdev_register(struct extoll_dev *edev);
void extoll_cdev_unregister(struct extoll_dev *edev);

/* tlp.c */
int extoll_cfg_tlp(struct extoll_dev *edev, u16 node, struct extoll_cfg_req *req);

/* node.c */
int extoll_node_check(struct extoll_dev *edev, u16 node);

/* naa.c */
void extoll_naa_init(struct extoll_dev *edev);
int extoll_naa_attach(struct extoll_dev *edev, u16 node,
		      struct extoll_naa_result *res);
int extoll_naa_detach(struct extoll_dev *edev, u16 node);
void extoll_naa_detach_all(struct extoll_dev *edev);

/* smfu.c */
void extoll_smfu_init(struct extoll_dev *edev);
void extoll_smfu_teardown(struct extoll_dev *edev);

/* notify.c */
int extoll_notify_init(struct extoll_dev *edev);
void extoll_notify_stop(struct extoll_dev *edev);
void extoll_notify_free(struct extoll_dev *edev);
bool extoll_notify_drain(struct extoll_dev *edev);
void extoll_notify_stats_get(struct extoll_dev *edev,
			     struct extoll_notify_stats *st);
void extoll_notify_rma_hold(struct extoll_dev *nic, bool hold);

/* rma.c */
void extoll_rma_init(struct extoll_dev *nic);
void extoll_rma_detach_files(struct extoll_dev *nic);
void extoll_rma_teardown(struct extoll_dev *nic);
void extoll_rma_notify(struct extoll_dev *nic, const struct extoll_notify_entry *e);
void extoll_rma_stats_get(struct extoll_dev *nic, struct extoll_rma_stats *st);
void extoll_rma_file_init(struct extoll_rma_file *f);
void extoll_rma_file_release(struct extoll_dev *nic, struct extoll_rma_file *f);
int extoll_rma_mmap(struct extoll_rma_file *f, struct vm_area_struct *vma);
__poll_t extoll_rma_poll(struct extoll_dev *nic, struct extoll_rma_file *f,
			 struct file *file, poll_table *wait);
long extoll_rma_ioc_reg(struct extoll_dev *nic, struct extoll_rma_file *f,
			void __user *arg);
long extoll_rma_ioc_unreg(struct extoll_dev *nic, struct extoll_rma_file *f,
			  u32 handle);
struct extoll_rma_buf *extoll_rma_buf_get(struct extoll_rma_file *f, u32 handle,
					  dma_addr_t *dma, size_t *size);
void extoll_rma_buf_put(struct extoll_rma_buf *buf);

/* rma_expose.c */
void extoll_rma_expose_init(struct extoll_dev *nic);
void extoll_rma_expose_teardown(struct extoll_dev *nic);
long extoll_rma_ioc_expose(struct extoll_dev *nic, struct extoll_rma_file *f,
			   void __user *arg);
long extoll_rma_ioc_unexpose(struct extoll_dev *nic, struct extoll_rma_file *f,
			     u32 key);
void extoll_rma_expose_revoke(struct extoll_dev *nic, struct extoll_rma_file *f,
			      const struct extoll_rma_buf *buf);
long extoll_rma_ioc_post(struct extoll_dev *nic, struct extoll_rma_file *f,
			 void __user *arg);
long extoll_rma_ioc_wait(struct extoll_dev *nic, struct extoll_rma_file *f,
			 void __user *arg);

/* irq.c */
void extoll_irq_init(struct extoll_dev *edev, unsigned int poll_ms,
		     bool force_poll);
void extoll_irq_teardown(struct extoll_dev *edev);

/* sysfs.c */
extern const struct attribute_group *extoll_dev_groups[];

/* flash.c: the configuration flash through the flash block. */
bool extoll_flash_present(struct extoll_dev *edev);
int extoll_flash_jedec(struct extoll_dev *edev, u32 *id);
int extoll_flash_read(struct extoll_dev *edev, u32 addr, void *buf, size_t len);
int extoll_flash_erase_subsector(struct extoll_dev *edev, u32 addr);
int extoll_flash_activate(struct extoll_dev *edev);
int extoll_flash_program_page(struct extoll_dev *edev, u32 addr,
			      const void *buf, size_t len);

/* devlink.c */
struct extoll_dev *extoll_devlink_alloc(struct pci_dev *pdev);
void extoll_devlink_register(struct extoll_dev *edev);
void extoll_devlink_unregister(struct extoll_dev *edev);
void extoll_devlink_free(struct extoll_dev *edev);

/* main.c: the halves of probe and remove that devlink reload reuses */
int extoll_init(struct extoll_dev *edev);
void extoll_uninit(struct extoll_dev *edev);

#endif /* EXTOLL_H */
