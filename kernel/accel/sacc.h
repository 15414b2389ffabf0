/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample accelerator driver: private definitions shared by its objects.
 *
 * The hardware's IDs, register offsets and fields come from accel_hw.h
 * (rtl/accel/, checked against the RTL); nothing here repeats them.
 */
#ifndef SACC_H
#define SACC_H

#include <linux/atomic.h>
#include <linux/io.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "accel_hw.h"
#include "uapi/sample_accel.h"

/* How long the probe-time self-test waits for its job interrupt. */
#define SACC_IRQ_SELFTEST_MS	100
/* Bytes of device memory the self-test CRC job covers. */
#define SACC_SELFTEST_LEN	16
/* After clearing Bus Master Enable, how long to wait for the engine to stop. */
#define SACC_QUIESCE_MS		100
/* Largest chunk of a DMA buffer: 2^8 pages (1 MiB with 4 KiB pages). */
#define SACC_CHUNK_ORDER_MAX	8

/* Job interrupt causes the driver enables and acknowledges. */
#define SACC_IRQ_CAUSES		(ACCEL_IRQ_DONE | ACCEL_IRQ_ERROR)

enum sacc_irq_mode {
	SACC_MODE_POLL = SACC_IRQ_POLL,
	SACC_MODE_INTX = SACC_IRQ_INTX,
	SACC_MODE_MSI = SACC_IRQ_MSI,
	SACC_MODE_MSIX = SACC_IRQ_MSIX,
};

/* One physically contiguous, DMA-mapped piece of a buffer. */
struct sacc_chunk {
	struct page *page;	/* first of 2^order independent (split) pages */
	dma_addr_t dma;
};

/*
 * A host DMA buffer, one per open file. Made of split order-0 pages so that
 * user mappings hold their own page references: a mapping stays valid (just
 * no longer DMA-mapped) after the device is gone.
 */
struct sacc_buf {
	size_t size;
	unsigned int chunk_order;	/* pages per chunk: 2^chunk_order */
	unsigned int nchunks;
	struct sacc_chunk *chunks;
	struct device *dma_dev;		/* non-NULL while DMA-mapped */
};

/* Per open file of /dev/saccN. */
struct sacc_file {
	struct sacc_dev *sdev;		/* holds a reference */
	struct sacc_buf buf;
	struct list_head node;		/* in sdev->files, under sdev->lock */
};

/* Counters (sysfs), updated without the lock. */
struct sacc_stats {
	atomic64_t jobs_done;
	atomic64_t jobs_failed;
	atomic64_t jobs_timedout;
	atomic64_t irq_count;
	atomic64_t irq_lost;		/* job finished, its interrupt did not come */
	atomic64_t resets;
};

/* One job for the engine. */
struct sacc_job {
	u32 op;				/* ACCEL_OP_* */
	dma_addr_t host;		/* H2D/D2H */
	u32 dev_off;
	u32 len;
	const struct sacc_rma_send *rma;	/* ACCEL_OP_RMA: the other parameters */
	/* results */
	u32 status;			/* JOB_STATUS at the end */
	u32 result;			/* RESULT_LO */
	u32 cycles;			/* JOB_CYCLES */
};

/*
 * Per-device state. Reference counted: probe holds one reference, every
 * open file another, so an open file outlives remove() safely.
 */
struct sacc_dev {
	struct kref ref;
	struct pci_dev *pdev;		/* reference held until the last put */
	int index;			/* N of /dev/saccN */
	char name[16];			/* "saccN" */

	void __iomem *regs;		/* BAR0 */
	void __iomem *mem;		/* BAR2, the backed part only */
	bool mem_wc;			/* BAR2 mapped write-combining */
	resource_size_t bar_size;	/* BAR2 size */
	u32 devmem_size;		/* bytes jobs may reach (backed memory) */
	u32 version;
	u32 caps;

	struct miscdevice misc;
	bool misc_registered;

	/*
	 * Serialises jobs and protects files, dead and broken. Probe and
	 * remove take it to switch the device on and off under users' feet.
	 */
	struct mutex lock;
	struct list_head files;
	bool dead;			/* removed: every operation fails with -ENODEV */
	bool broken;			/* engine did not recover from a reset: -EIO */
	bool removing;			/* remove() started: running waits end (READ_ONCE) */
	bool gone;			/* registers read all-ones (READ_ONCE) */

	/* Interrupts. */
	enum sacc_irq_mode irq_mode;
	int nvec;			/* vectors allocated */
	int irq;			/* Linux irq of vector 0, or -1 */
	char irq_name[32];
	wait_queue_head_t job_wq;	/* job waiters */
	bool job_irq;			/* set by the handler (READ_ONCE) */

	struct sacc_stats stats;
};

/* BAR0 register access. */
static inline u32 sacc_rd(struct sacc_dev *sdev, u32 off)
{
	return ioread32(sdev->regs + off);
}

static inline void sacc_wr(struct sacc_dev *sdev, u32 off, u32 val)
{
	iowrite32(val, sdev->regs + off);
}

/* main.c */
extern unsigned int sacc_job_timeout_ms;	/* module parameter */
void sacc_put(struct sacc_dev *sdev);
void sacc_mark_gone(struct sacc_dev *sdev);

/* irq.c */
const char *sacc_irq_mode_name(enum sacc_irq_mode mode);
int sacc_irq_init(struct sacc_dev *sdev, bool force_poll);
void sacc_irq_setup_hw(struct sacc_dev *sdev);
void sacc_irq_teardown(struct sacc_dev *sdev);

/* job.c */
const char *sacc_op_name(u32 op);
void sacc_job_start(struct sacc_dev *sdev, const struct sacc_job *job);
int sacc_job_wait_poll(struct sacc_dev *sdev, struct sacc_job *job,
		       unsigned long deadline);
int sacc_job_finish(struct sacc_dev *sdev, struct sacc_job *job, int ret);
int sacc_job_run(struct sacc_dev *sdev, struct sacc_job *job);

/* rma.c */
int sacc_ioc_rma_send(struct sacc_file *sf, void __user *uarg);
void sacc_rma_program(struct sacc_dev *sdev, const struct sacc_rma_send *r);

/* buf.c */
int sacc_buf_alloc(struct sacc_buf *buf, struct device *dev, size_t size);
void sacc_buf_unmap(struct sacc_buf *buf);
void sacc_buf_free(struct sacc_buf *buf);
int sacc_buf_copy_job(struct sacc_dev *sdev, struct sacc_buf *buf, u32 op,
		      u64 buf_off, u32 dev_off, u32 len, u32 *cycles);
ssize_t sacc_buf_rw(struct sacc_buf *buf, char __user *ubuf, size_t count,
		    loff_t *ppos, bool write);
int sacc_buf_mmap(struct sacc_buf *buf, struct vm_area_struct *vma);

/* cdev.c */
extern unsigned int sacc_buf_kb;		/* module parameter */
int sacc_cdev_register(struct sacc_dev *sdev);
void sacc_cdev_unregister(struct sacc_dev *sdev);
void sacc_cdev_kill_files(struct sacc_dev *sdev);

/* sysfs.c */
extern const struct attribute_group *sacc_dev_groups[];

#endif /* SACC_H */
