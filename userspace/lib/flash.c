// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll: the flash of a remote node, through its NIC's flash controller
 * (register block `flash`, docs/flash.md "Controller") by remote register
 * access. The command sequence is the kernel's (kernel/extoll/flash.c, over
 * BAR0 for the host's own NIC): one command at a time, GO, wait for
 * status.busy to clear, status.error and (with poll) status.fsr_err, CLFSR
 * after a part error. The opcodes and the geometry come from
 * hw/include/flash_image.h. Every wait is bounded; nothing sleeps between
 * two polls (each is a network round trip already).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "extoll_flash.h"
#include "extoll_regs.h"
#include "libextoll.h"

#define PAGE		FLASH_PART_MT25QU01G_PAGE
#define SUBSECTOR	FLASH_PART_MT25QU01G_SUBSECTOR

static int rd(struct extoll_nic *nic, uint16_t node, uint32_t reg, uint64_t *v)
{
	return extoll_rra_read(nic, node, EXTOLL_FLASH_BASE + reg, v);
}

static int wr(struct extoll_nic *nic, uint16_t node, uint32_t reg, uint64_t v)
{
	return extoll_rra_write(nic, node, EXTOLL_FLASH_BASE + reg, v);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Wait until the controller is idle: 0, -ETIMEDOUT or an RRA error. */
static int wait_ready(struct extoll_nic *nic, uint16_t node, uint64_t *status)
{
	uint64_t deadline = now_ms() + EXTOLL_FLASH_CMD_TIMEOUT_MS, st;
	int ret;

	for (;;) {
		ret = rd(nic, node, EXTOLL_FLASH_STATUS, &st);
		if (ret)
			return ret;
		if (!(st & EXTOLL_FLASH_STATUS_BUSY_MASK))
			break;
		if (now_ms() > deadline)
			return -ETIMEDOUT;
	}
	if (status)
		*status = st;
	return 0;
}

/* One command and its end; -EIO if the controller refused it or the part erred. */
static int flash_cmd(struct extoll_nic *nic, uint16_t node, uint8_t opcode,
		     unsigned int alen, int rdir, int poll, unsigned int len,
		     uint32_t addr)
{
	uint64_t cmd, st;
	int ret;

	ret = wait_ready(nic, node, NULL);
	if (ret)
		return ret;
	cmd = (uint64_t)opcode << EXTOLL_FLASH_CMD_OPCODE_SHIFT |
	      (uint64_t)alen << EXTOLL_FLASH_CMD_ALEN_SHIFT |
	      (uint64_t)!!rdir << EXTOLL_FLASH_CMD_RD_SHIFT |
	      (uint64_t)!!poll << EXTOLL_FLASH_CMD_POLL_SHIFT |
	      (uint64_t)len << EXTOLL_FLASH_CMD_LEN_SHIFT |
	      EXTOLL_FLASH_CMD_GO_MASK;
	ret = wr(nic, node, EXTOLL_FLASH_ADDR, addr);
	if (!ret)
		ret = wr(nic, node, EXTOLL_FLASH_CMD, cmd);
	if (!ret)
		ret = wait_ready(nic, node, &st);
	if (ret)
		return ret;
	if (st & EXTOLL_FLASH_STATUS_ERROR_MASK)
		return -EIO;
	if (poll && (st & EXTOLL_FLASH_STATUS_FSR_ERR_MASK)) {
		flash_cmd(nic, node, FLASH_OP_CLFSR, 0, 0, 0, 0, 0);
		return -EIO;
	}
	return 0;
}

int extoll_flash_jedec(struct extoll_nic *nic, uint16_t node, uint32_t *id)
{
	uint64_t v;
	int ret;

	ret = extoll_rra_read(nic, node, EXTOLL_FLASH_BASE, &v);
	if (ret == -EREMOTEIO ||
	    (!ret && (v & EXTOLL_BLK_HDR_BTYPE_MASK) >> EXTOLL_BLK_HDR_BTYPE_SHIFT != EXTOLL_FLASH_TYPE))
		return -EOPNOTSUPP;
	if (!ret)
		ret = wait_ready(nic, node, NULL);
	if (!ret)
		ret = rd(nic, node, EXTOLL_FLASH_JEDEC, &v);
	if (ret)
		return ret;
	if (!(v & EXTOLL_FLASH_JEDEC_VALID_MASK))
		return -ENODEV;
	*id = (uint32_t)((v & EXTOLL_FLASH_JEDEC_ID_MASK) >> EXTOLL_FLASH_JEDEC_ID_SHIFT);
	return 0;
}

/* Byte i of the page buffer is byte i % 8 of data(i / 8). */
static int buf_put(struct extoll_nic *nic, uint16_t node, const uint8_t *buf, size_t len)
{
	for (unsigned int w = 0; w * 8 < len; w++) {
		uint64_t v = ~0ULL;	/* bytes past len program nothing (0xFF) */

		for (unsigned int i = 0; i < 8 && w * 8 + i < len; i++) {
			v &= ~(0xffULL << (8 * i));
			v |= (uint64_t)buf[w * 8 + i] << (8 * i);
		}
		int ret = wr(nic, node, EXTOLL_FLASH_DATA_N(w), v);

		if (ret)
			return ret;
	}
	return 0;
}

static int buf_get(struct extoll_nic *nic, uint16_t node, uint8_t *buf, size_t len)
{
	for (unsigned int w = 0; w * 8 < len; w++) {
		uint64_t v;
		int ret = rd(nic, node, EXTOLL_FLASH_DATA_N(w), &v);

		if (ret)
			return ret;
		for (unsigned int i = 0; i < 8 && w * 8 + i < len; i++)
			buf[w * 8 + i] = (uint8_t)(v >> (8 * i));
	}
	return 0;
}

int extoll_flash_read(struct extoll_nic *nic, uint16_t node, uint32_t addr, void *buf,
		      size_t len)
{
	uint8_t *p = buf;

	while (len) {
		size_t n = len < PAGE ? len : PAGE;
		int ret = flash_cmd(nic, node, FLASH_OP_READ4, 4, 1, 0, (unsigned int)n, addr);

		if (!ret)
			ret = buf_get(nic, node, p, n);
		if (ret)
			return ret;
		p += n;
		addr += (uint32_t)n;
		len -= n;
	}
	return 0;
}

int extoll_flash_erase_subsector(struct extoll_nic *nic, uint16_t node, uint32_t addr)
{
	int ret = flash_cmd(nic, node, FLASH_OP_WREN, 0, 0, 0, 0, 0);

	return ret ? ret : flash_cmd(nic, node, FLASH_OP_SSE4, 4, 0, 1, 0, addr);
}

int extoll_flash_program_page(struct extoll_nic *nic, uint16_t node, uint32_t addr,
			      const void *buf, size_t len)
{
	int ret;

	if (!len || len > PAGE || (addr % PAGE) + len > PAGE)
		return -EINVAL;
	ret = buf_put(nic, node, buf, len);
	if (!ret)
		ret = flash_cmd(nic, node, FLASH_OP_WREN, 0, 0, 0, 0, 0);
	if (!ret)
		ret = flash_cmd(nic, node, FLASH_OP_PP4, 4, 0, 1, (unsigned int)len, addr);
	return ret;
}

static void progress_of(extoll_flash_progress_fn fn, void *ctx, const char *phase,
			unsigned long done, unsigned long total)
{
	if (fn)
		fn(ctx, phase, done, total);
}

int extoll_flash_write(struct extoll_nic *nic, uint16_t node, uint32_t off,
		       const uint8_t *data, size_t len, extoll_flash_progress_fn progress,
		       void *ctx, uint32_t *bad_addr)
{
	unsigned long ns = (len + SUBSECTOR - 1) / SUBSECTOR, np = (len + PAGE - 1) / PAGE, i;
	uint8_t buf[PAGE];
	int ret;

	for (i = 0; i < ns; i++) {
		progress_of(progress, ctx, "Erasing", i, ns);
		ret = extoll_flash_erase_subsector(nic, node, off + (uint32_t)(i * SUBSECTOR));
		if (ret)
			return ret;
	}
	progress_of(progress, ctx, "Erasing", ns, ns);
	for (i = 0; i < np; i++) {
		size_t o = i * PAGE, n = len - o < PAGE ? len - o : PAGE;

		progress_of(progress, ctx, "Programming", i, np);
		ret = extoll_flash_program_page(nic, node, off + (uint32_t)o, data + o, n);
		if (ret)
			return ret;
	}
	progress_of(progress, ctx, "Programming", np, np);
	for (i = 0; i < np; i++) {
		size_t o = i * PAGE, n = len - o < PAGE ? len - o : PAGE;

		progress_of(progress, ctx, "Verifying", i, np);
		ret = extoll_flash_read(nic, node, off + (uint32_t)o, buf, n);
		if (ret)
			return ret;
		if (memcmp(buf, data + o, n)) {
			if (bad_addr)
				*bad_addr = off + (uint32_t)o;
			return -EIO;
		}
	}
	progress_of(progress, ctx, "Verifying", np, np);
	return 0;
}

int extoll_flash_reload(struct extoll_nic *nic, uint16_t node, uint32_t addr)
{
	return wr(nic, node, EXTOLL_FLASH_RELOAD,
		  (uint64_t)addr << EXTOLL_FLASH_RELOAD_ADDR_SHIFT | EXTOLL_FLASH_RELOAD_GO_MASK);
}
