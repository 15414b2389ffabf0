// SPDX-License-Identifier: GPL-2.0
/*
 * Sample accelerator: jobs (DMA host <-> device memory, CRC-32).
 *
 * One job at a time (the caller holds sdev->lock): program the job
 * registers, write JOB_CTRL = START | op, then wait for the job interrupt or
 * poll JOB_STATUS until BUSY clears. Every wait is bounded by
 * job_timeout_ms; a job still running then is reported as -ETIMEDOUT and the
 * device is reset (docs/accelerator.md: reset after a timeout). Removal of
 * the device ends every wait at once with -ENODEV.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/pci.h>
#include <linux/sched.h>

#include "sacc.h"

/* Polling: first sleep, and the cap the sleep doubles up to. */
#define SACC_POLL_MIN_US	10
#define SACC_POLL_MAX_US	1000

static const char *const sacc_err_names[] = {
	[ACCEL_ERR_NONE] = "none",
	[ACCEL_ERR_PARAM] = "bad parameters",
	[ACCEL_ERR_CPL] = "DMA read completed with UR/CA",
	[ACCEL_ERR_NO_BME] = "DMA while Bus Master Enable is clear",
	[ACCEL_ERR_TIMEOUT] = "DMA read completion timeout",
	[ACCEL_ERR_OPCODE] = "unknown opcode",
	[ACCEL_ERR_RMA_RD] = "RMA: a source read failed (RD_ERR)",
	[ACCEL_ERR_RMA_BAD] = "RMA: the RMA unit refused the descriptor (BAD_DESC)",
	[ACCEL_ERR_RMA_WR] = "RMA: the destination refused the writes or is unreachable (WR_ERR)",
	[ACCEL_ERR_RMA_TMO] = "RMA: no requester record arrived",
};

const char *sacc_op_name(u32 op)
{
	switch (op) {
	case ACCEL_OP_H2D:
		return "host->device";
	case ACCEL_OP_D2H:
		return "device->host";
	case ACCEL_OP_CRC:
		return "crc32";
	case ACCEL_OP_RMA:
		return "rma-send";
	}
	return "unknown";
}

static const char *sacc_err_name(unsigned int code)
{
	if (code < ARRAY_SIZE(sacc_err_names) && sacc_err_names[code])
		return sacc_err_names[code];
	return "unknown error";
}

/**
 * sacc_job_start() - program a job and start it
 * @sdev: the device (lock held)
 * @job: what to do
 */
void sacc_job_start(struct sacc_dev *sdev, const struct sacc_job *job)
{
	if (job->op == ACCEL_OP_RMA) {
		sacc_rma_program(sdev, job->rma);
	} else if (job->op != ACCEL_OP_CRC) {
		sacc_wr(sdev, ACCEL_REG_JOB_HOST_LO, lower_32_bits(job->host));
		sacc_wr(sdev, ACCEL_REG_JOB_HOST_HI, upper_32_bits(job->host));
	}
	sacc_wr(sdev, ACCEL_REG_JOB_DEV_OFF, job->dev_off);
	sacc_wr(sdev, ACCEL_REG_JOB_LEN, job->len);
	WRITE_ONCE(sdev->job_irq, false);
	sacc_wr(sdev, ACCEL_REG_JOB_CTRL, ACCEL_JOB_START | job->op);
}

/*
 * Read JOB_STATUS. Returns 1 if the job has ended (status in job->status),
 * 0 if it is still busy, -ENODEV if the device reads all-ones.
 */
static int sacc_job_check(struct sacc_dev *sdev, struct sacc_job *job)
{
	u32 status = sacc_rd(sdev, ACCEL_REG_JOB_STATUS);

	if (status == ~0U) {
		/* JOB_STATUS never reads all-ones; confirm with ID. */
		if (sacc_rd(sdev, ACCEL_REG_ID) == ~0U) {
			sacc_mark_gone(sdev);
			return -ENODEV;
		}
		return 0;
	}
	job->status = status;
	return !(status & ACCEL_JOB_BUSY);
}

/**
 * sacc_job_wait_poll() - wait for the running job by polling JOB_STATUS
 * @sdev: the device (lock held)
 * @job: the running job; ->status is set when it ends
 * @deadline: jiffies after which the job counts as hung
 *
 * Return: 0 when the job has ended, -ETIMEDOUT, -ENODEV (removed or gone).
 */
int sacc_job_wait_poll(struct sacc_dev *sdev, struct sacc_job *job,
		       unsigned long deadline)
{
	unsigned int delay = SACC_POLL_MIN_US;
	int ret;

	for (;;) {
		ret = sacc_job_check(sdev, job);
		if (ret)
			return ret < 0 ? ret : 0;
		if (READ_ONCE(sdev->removing))
			return -ENODEV;
		if (time_after(jiffies, deadline))
			break;
		usleep_range(delay, delay * 2);
		delay = min(delay * 2, SACC_POLL_MAX_US);
	}
	/* One last look: the deadline may have passed while we slept. */
	ret = sacc_job_check(sdev, job);
	if (ret)
		return ret < 0 ? ret : 0;
	return -ETIMEDOUT;
}

/* Wait for the job interrupt; the handler sets job_irq and wakes us. */
static int sacc_job_wait_irq(struct sacc_dev *sdev, struct sacc_job *job,
			     unsigned long deadline)
{
	long left;
	int ret;

	for (;;) {
		/* An interrupt of an earlier job must not end this wait. */
		WRITE_ONCE(sdev->job_irq, false);
		ret = sacc_job_check(sdev, job);
		if (ret)
			return ret < 0 ? ret : 0;
		if (READ_ONCE(sdev->removing))
			return -ENODEV;
		left = (long)(deadline - jiffies);
		if (left <= 0)
			break;
		wait_event_timeout(sdev->job_wq,
				   READ_ONCE(sdev->job_irq) ||
				   READ_ONCE(sdev->removing) ||
				   READ_ONCE(sdev->gone), left);
	}
	/* Timed out waiting. A finished job means its interrupt got lost. */
	ret = sacc_job_check(sdev, job);
	if (ret > 0) {
		atomic64_inc(&sdev->stats.irq_lost);
		dev_warn_ratelimited(&sdev->pdev->dev,
				     "%s job finished but its %s interrupt did not arrive within %u ms\n",
				     sacc_op_name(job->op),
				     sacc_irq_mode_name(sdev->irq_mode),
				     READ_ONCE(sacc_job_timeout_ms));
		return 0;
	}
	return ret < 0 ? ret : -ETIMEDOUT;
}

/* Reprogram what a reset clears, after the job engine is quiet again. */
static void sacc_reset(struct sacc_dev *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	struct sacc_job probe = {};
	unsigned long deadline;
	int ret;

	atomic64_inc(&sdev->stats.resets);

	/*
	 * A real reset if the platform has one (FLR/PM/bus; try-variant: the
	 * remove path may hold the device lock while it waits for our lock).
	 * The device has no FLR and a root-bus device (local in QEMU, or
	 * remote, bus 0 of its domain) no bus reset: then stop the engine by
	 * clearing Bus Master Enable, which fails the job (error 3).
	 */
	ret = pci_try_reset_function(pdev);
	if (!ret) {
		dev_warn(&pdev->dev, "device reset\n");
		sacc_irq_setup_hw(sdev);
	} else {
		dev_warn(&pdev->dev,
			 "no function reset (%d): stopping the job engine by clearing Bus Master Enable\n",
			 ret);
		pci_clear_master(pdev);
		deadline = jiffies + msecs_to_jiffies(SACC_QUIESCE_MS);
		ret = sacc_job_wait_poll(sdev, &probe, deadline);
		pci_set_master(pdev);
		/* Acknowledge what the aborted job latched. */
		if (ret != -ENODEV)
			sacc_wr(sdev, ACCEL_REG_IRQ_STATUS, SACC_IRQ_CAUSES);
		if (ret == -ETIMEDOUT) {
			sdev->broken = true;
			pci_clear_master(pdev);
			dev_err(&pdev->dev,
				"job engine still busy %u ms after reset (JOB_STATUS 0x%08x): refusing further jobs, bus mastering left off (rebind the driver)\n",
				SACC_QUIESCE_MS, probe.status);
		}
	}
}

/**
 * sacc_job_finish() - account for an ended (or abandoned) job
 * @sdev: the device (lock held)
 * @job: the job, ->status read
 * @ret: the result of the wait
 *
 * Return: 0, or the job's error as an errno.
 */
int sacc_job_finish(struct sacc_dev *sdev, struct sacc_job *job, int ret)
{
	struct device *dev = &sdev->pdev->dev;
	unsigned int code;

	if (ret == -ENODEV) {
		dev_dbg(dev, "%s job abandoned: device removed or gone\n",
			sacc_op_name(job->op));
		atomic64_inc(&sdev->stats.jobs_failed);
		return ret;
	}
	if (ret == -ETIMEDOUT) {
		atomic64_inc(&sdev->stats.jobs_timedout);
		dev_err_ratelimited(dev,
				    "%s job dev 0x%x len %u host %pad: not finished within %u ms (JOB_STATUS 0x%08x): resetting the device\n",
				    sacc_op_name(job->op), job->dev_off, job->len,
				    &job->host, READ_ONCE(sacc_job_timeout_ms),
				    job->status);
		sacc_reset(sdev);
		return ret;
	}

	if (job->status & ACCEL_JOB_ERROR) {
		code = ACCEL_JOB_ERR_CODE(job->status);
		atomic64_inc(&sdev->stats.jobs_failed);
		dev_err_ratelimited(dev,
				    "%s job dev 0x%x len %u host %pad failed: error %u (%s), JOB_STATUS 0x%08x\n",
				    sacc_op_name(job->op), job->dev_off, job->len,
				    &job->host, code, sacc_err_name(code),
				    job->status);
		switch (code) {
		case ACCEL_ERR_TIMEOUT:
			/* Late completions could reach a later job. */
			sacc_reset(sdev);
			return -ETIMEDOUT;
		case ACCEL_ERR_PARAM:
		case ACCEL_ERR_RMA_BAD:
			return -EINVAL;
		case ACCEL_ERR_RMA_TMO:
			/* The engine stopped waiting: nothing to reset. */
			return -ETIMEDOUT;
		default:
			return -EIO;
		}
	}
	if (!(job->status & ACCEL_JOB_DONE) ||
	    ACCEL_JOB_LAST_OP(job->status) != job->op) {
		u32 id = sacc_rd(sdev, ACCEL_REG_ID);

		atomic64_inc(&sdev->stats.jobs_failed);
		if (id == ~0U) {
			sacc_mark_gone(sdev);
			return -ENODEV;
		}
		if (id != ACCEL_MAGIC)
			dev_err_ratelimited(dev,
					    "%s job: the device no longer answers as a sample accelerator (ID 0x%08x, JOB_STATUS 0x%08x): memory decoding off, or gone?\n",
					    sacc_op_name(job->op), id, job->status);
		else
			dev_err_ratelimited(dev,
					    "%s job: engine idle but JOB_STATUS 0x%08x does not report it done (START lost?)\n",
					    sacc_op_name(job->op), job->status);
		return -EIO;
	}

	job->result = sacc_rd(sdev, ACCEL_REG_RESULT_LO);
	job->cycles = sacc_rd(sdev, ACCEL_REG_JOB_CYCLES);
	if (job->op != ACCEL_OP_CRC && job->result != job->len) {
		atomic64_inc(&sdev->stats.jobs_failed);
		dev_err_ratelimited(dev,
				    "%s job dev 0x%x len %u: the device reports %u bytes moved\n",
				    sacc_op_name(job->op), job->dev_off, job->len,
				    job->result);
		return job->result == ~0U ? -ENODEV : -EIO;
	}
	atomic64_inc(&sdev->stats.jobs_done);
	return 0;
}

/**
 * sacc_job_run() - run one job to its end, bounded in time
 * @sdev: the device (lock held)
 * @job: the job; results filled in on success
 *
 * Return: 0, -EINVAL, -EIO, -ETIMEDOUT (device reset), -ENODEV.
 */
int sacc_job_run(struct sacc_dev *sdev, struct sacc_job *job)
{
	unsigned long deadline;
	int ret;

	lockdep_assert_held(&sdev->lock);
	if (sdev->dead || READ_ONCE(sdev->gone))
		return -ENODEV;
	if (sdev->broken)
		return -EIO;

	job->status = 0;
	sacc_job_start(sdev, job);
	deadline = jiffies + msecs_to_jiffies(max(READ_ONCE(sacc_job_timeout_ms), 1U));
	if (sdev->irq_mode == SACC_MODE_POLL)
		ret = sacc_job_wait_poll(sdev, job, deadline);
	else
		ret = sacc_job_wait_irq(sdev, job, deadline);
	return sacc_job_finish(sdev, job, ret);
}
