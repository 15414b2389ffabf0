// SPDX-License-Identifier: Apache-2.0
/*
 * Behavioural model of the Micron MT25QU01G at its pins (hw/include/flash_part.h,
 * docs/flash.md "Part model").  SPI mode 0/3: dq0 is sampled on the rising
 * edge of sck, dq1 changes on the falling edge.  A command is the bytes
 * between cs_n falling and cs_n rising; program, erase and WRSR execute at
 * cs_n rising (on a byte boundary only), take their busy time and change the
 * contents when the busy time ends.
 */
#define _DEFAULT_SOURCE
#include "flash_part.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* RDID: manufacturer 0x20 (Micron), memory type 0xBB (1.8 V), capacity 0x21
 * (1 Gbit), then the extended device id 0x10 0x44 0x00 as Linux's
 * drivers/mtd/spi-nor/micron-st.c lists it; the rest (unique id) reads 0. */
const uint8_t flash_part_id[FLASH_PART_ID_LEN] = {
	(FLASH_PART_JEDEC >> 16) & 0xFF, (FLASH_PART_JEDEC >> 8) & 0xFF, FLASH_PART_JEDEC & 0xFF,
	0x10, 0x44, 0x00,
};

enum phase { PH_IDLE, PH_CMD, PH_ADDR, PH_DATA_IN, PH_OUT, PH_IGNORE };
enum pending_op { OP_NONE, OP_PROGRAM, OP_ERASE, OP_WRSR };

struct flash_part {
	uint8_t *mem;
	int fd;
	struct flash_part_timing t;
	struct flash_part_stats st;
	/* registers */
	uint8_t sr, fsr;
	/* pins of the previous step */
	int sck, cs_n;
	/* the command being clocked in */
	enum phase ph;
	uint8_t op, in_byte, out_byte;
	int in_bits, out_bits, addr_bytes;
	uint32_t addr, nbytes;
	int partial;           /* cs_n rose inside a byte */
	uint8_t page[256];     /* page program latch */
	uint8_t page_valid[256];
	uint8_t wrsr_val;
	/* operation in progress */
	enum pending_op busy_op;
	uint32_t busy_left, busy_addr, busy_len;
	uint8_t busy_sr;
	int dq1;
};

static int op_addressed(uint8_t op)
{
	return op == FLASH_OP_PP4 || op == FLASH_OP_READ4 || op == FLASH_OP_SSE4 || op == FLASH_OP_SE4;
}

static int op_known(uint8_t op)
{
	switch (op) {
	case FLASH_OP_WRSR: case FLASH_OP_WRDI: case FLASH_OP_RDSR: case FLASH_OP_WREN:
	case FLASH_OP_PP4: case FLASH_OP_READ4: case FLASH_OP_SSE4: case FLASH_OP_CLFSR:
	case FLASH_OP_RDFSR: case FLASH_OP_RDID: case FLASH_OP_SE4:
		return 1;
	}
	return 0;
}

/* Protected range [lo, hi) from BP3..0 and TB (Linux spi-nor's 4-bit BP rule:
 * BP = n > 0 protects 64 KiB << (n - 1), capped at the whole part). */
static void prot_range(uint8_t sr, uint32_t *lo, uint32_t *hi)
{
	unsigned bp = ((sr & FLASH_SR_BP3) ? 8 : 0) | ((sr >> 2) & 7);
	uint64_t len;

	if (!bp) {
		*lo = *hi = 0;
		return;
	}
	len = (uint64_t)FLASH_PART_SECTOR << (bp - 1);
	if (len > FLASH_PART_SIZE)
		len = FLASH_PART_SIZE;
	if (sr & FLASH_SR_TB) {
		*lo = 0;
		*hi = (uint32_t)len;
	} else {
		*lo = FLASH_PART_SIZE - (uint32_t)len;
		*hi = FLASH_PART_SIZE;
	}
}

static int protected_area(const struct flash_part *p, uint32_t addr, uint32_t len)
{
	uint32_t lo, hi;

	prot_range(p->sr, &lo, &hi);
	return lo < hi && addr < hi && addr + len > lo;
}

static int fill_erased(int fd)
{
	static uint8_t ff[1 << 20];
	uint32_t off;

	memset(ff, 0xFF, sizeof(ff));
	for (off = 0; off < FLASH_PART_SIZE; off += sizeof(ff))
		if (pwrite(fd, ff, sizeof(ff), off) != (ssize_t)sizeof(ff))
			return -1;
	return 0;
}

/*
 * A missing file becomes an erased part atomically: filled under a temporary
 * name, then linked to path. Two processes that start on the same new file at
 * once (two simulations at a time) both end up with the one complete file;
 * neither sees it half filled. 0, or -1 with errno.
 */
static int create_erased(const char *path)
{
	size_t n = strlen(path) + 8;
	char *tmp = malloc(n);
	int fd, rc = -1, e;

	if (!tmp)
		return -1;
	snprintf(tmp, n, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	if (fchmod(fd, 0644) == 0 && fill_erased(fd) == 0 &&
	    (link(tmp, path) == 0 || errno == EEXIST))
		rc = 0;
	e = errno;
	close(fd);
	unlink(tmp);
	free(tmp);
	errno = e;
	return rc;
}

struct flash_part *flash_part_open(const char *path, const struct flash_part_timing *t,
				   char *err, size_t errlen)
{
	static const struct flash_part_timing def = FLASH_PART_TIMING_DEFAULT;
	struct flash_part *p;
	struct stat sb;
	int fd;

	fd = open(path, O_RDWR);
	if (fd < 0 && errno == ENOENT) {
		if (create_erased(path) < 0) {
			snprintf(err, errlen, "%s: cannot create the erased part: %s", path,
				 strerror(errno));
			return NULL;
		}
		fd = open(path, O_RDWR);
	}
	if (fd < 0 || fstat(fd, &sb) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (sb.st_size == 0 && fill_erased(fd) < 0) {   /* an empty file: made erased */
		snprintf(err, errlen, "%s: cannot create the erased part: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (sb.st_size != 0 && sb.st_size != (off_t)FLASH_PART_SIZE) {
		snprintf(err, errlen, "%s: %lld bytes, not a flash file (MT25QU01G: %u bytes); left as it is",
			 path, (long long)sb.st_size, FLASH_PART_SIZE);
		close(fd);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		return NULL;
	}
	p->mem = mmap(NULL, FLASH_PART_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p->mem == MAP_FAILED) {
		snprintf(err, errlen, "%s: mmap: %s", path, strerror(errno));
		close(fd);
		free(p);
		return NULL;
	}
	p->fd = fd;
	p->t = t ? *t : def;
	p->fsr = FLASH_FSR_READY;
	p->sck = 0;
	p->cs_n = 1;
	p->ph = PH_IDLE;
	return p;
}

void flash_part_close(struct flash_part *p)
{
	if (!p)
		return;
	munmap(p->mem, FLASH_PART_SIZE);
	close(p->fd);
	free(p);
}

static void start_busy(struct flash_part *p, enum pending_op op, uint32_t ticks)
{
	p->busy_op = op;
	p->busy_left = ticks ? ticks : 1;
	p->sr |= FLASH_SR_WIP;
	p->fsr &= (uint8_t)~FLASH_FSR_READY;
}

static void refuse(struct flash_part *p, uint8_t err_bit)
{
	p->fsr |= err_bit | FLASH_FSR_PROT;
	p->sr &= (uint8_t)~FLASH_SR_WEL;
	p->st.refused++;
}

static void ignore(struct flash_part *p)
{
	p->st.ignored++;
}

static void end_program(struct flash_part *p)
{
	uint32_t base = p->addr & ~(FLASH_PART_PAGE - 1) & (FLASH_PART_SIZE - 1);
	int any = 0;

	for (unsigned i = 0; i < FLASH_PART_PAGE; i++)
		any |= p->page_valid[i];
	if (!(p->sr & FLASH_SR_WEL) || !any) {
		ignore(p);
		return;
	}
	if (protected_area(p, base, FLASH_PART_PAGE)) {
		refuse(p, FLASH_FSR_PROG);
		return;
	}
	p->busy_addr = base;
	start_busy(p, OP_PROGRAM, p->t.pp);
}

static void end_erase(struct flash_part *p)
{
	uint32_t len = p->op == FLASH_OP_SE4 ? FLASH_PART_SECTOR : FLASH_PART_SUBSECTOR;
	uint32_t base = p->addr & ~(len - 1) & (FLASH_PART_SIZE - 1);

	if (!(p->sr & FLASH_SR_WEL) || p->nbytes != 0 || p->addr_bytes != 4) {
		ignore(p);
		return;
	}
	if (protected_area(p, base, len)) {
		refuse(p, FLASH_FSR_ERASE);
		return;
	}
	p->busy_addr = base;
	p->busy_len = len;
	start_busy(p, OP_ERASE, p->op == FLASH_OP_SE4 ? p->t.se : p->t.sse);
}

/* cs_n rose: execute what the command asked for (on a byte boundary only). */
static void end_command(struct flash_part *p)
{
	if (p->ph == PH_IGNORE || p->ph == PH_IDLE || p->partial) {
		if (p->ph != PH_IDLE)
			ignore(p);
		return;
	}
	switch (p->op) {
	case FLASH_OP_WREN:
	case FLASH_OP_WRDI:
		if (p->nbytes || p->ph != PH_CMD) {
			ignore(p);
			break;
		}
		if (p->op == FLASH_OP_WREN)
			p->sr |= FLASH_SR_WEL;
		else
			p->sr &= (uint8_t)~FLASH_SR_WEL;
		break;
	case FLASH_OP_CLFSR:
		p->fsr &= (uint8_t)~(FLASH_FSR_ERASE | FLASH_FSR_PROG | FLASH_FSR_PROT);
		break;
	case FLASH_OP_WRSR:
		if (!(p->sr & FLASH_SR_WEL) || p->nbytes != 1) {
			ignore(p);
			break;
		}
		start_busy(p, OP_WRSR, p->t.wrsr);
		break;
	case FLASH_OP_PP4:
		if (p->addr_bytes != 4) {
			ignore(p);
			break;
		}
		end_program(p);
		break;
	case FLASH_OP_SSE4:
	case FLASH_OP_SE4:
		end_erase(p);
		break;
	default:
		break; /* reads: nothing to do */
	}
}

/* The busy operation ends: change the contents. */
static void finish_busy(struct flash_part *p)
{
	switch (p->busy_op) {
	case OP_PROGRAM:
		for (unsigned i = 0; i < FLASH_PART_PAGE; i++)
			if (p->page_valid[i])
				p->mem[p->busy_addr + i] &= p->page[i]; /* only clears bits */
		p->st.programs++;
		break;
	case OP_ERASE:
		memset(p->mem + p->busy_addr, 0xFF, p->busy_len);
		p->st.erases++;
		break;
	case OP_WRSR:
		p->sr = (uint8_t)((p->sr & ~FLASH_SR_WRITABLE) | (p->wrsr_val & FLASH_SR_WRITABLE));
		break;
	case OP_NONE:
		break;
	}
	p->busy_op = OP_NONE;
	p->sr &= (uint8_t)~(FLASH_SR_WIP | FLASH_SR_WEL);
	p->fsr |= FLASH_FSR_READY;
}

/* The first byte: the opcode.  While busy only the status reads are served. */
static void got_opcode(struct flash_part *p, uint8_t op)
{
	p->op = op;
	if (!op_known(op) || (p->busy_op != OP_NONE && op != FLASH_OP_RDSR && op != FLASH_OP_RDFSR)) {
		p->ph = PH_IGNORE;
		return;
	}
	if (op_addressed(op)) {
		p->ph = PH_ADDR;
		if (op == FLASH_OP_PP4) {
			memset(p->page_valid, 0, sizeof(p->page_valid));
		}
	} else if (op == FLASH_OP_RDSR || op == FLASH_OP_RDFSR || op == FLASH_OP_RDID) {
		p->ph = PH_OUT;
	} else if (op == FLASH_OP_WRSR) {
		p->ph = PH_DATA_IN;
	} else {
		p->ph = PH_CMD; /* no bytes may follow */
	}
}

static void got_byte(struct flash_part *p, uint8_t b)
{
	switch (p->ph) {
	case PH_IDLE:
		got_opcode(p, b);
		break;
	case PH_ADDR:
		p->addr = (p->addr << 8) | b;
		if (++p->addr_bytes == 4) {
			p->addr &= FLASH_PART_SIZE - 1;
			p->ph = p->op == FLASH_OP_READ4 ? PH_OUT : PH_DATA_IN;
		}
		break;
	case PH_DATA_IN:
		if (p->op == FLASH_OP_PP4) {
			uint8_t col = (uint8_t)((p->addr + p->nbytes) & 0xFF); /* wraps in the page */

			p->page[col] = b;
			p->page_valid[col] = 1;
		} else {
			p->wrsr_val = b;
		}
		p->nbytes++;
		break;
	case PH_CMD:
		p->nbytes++; /* a byte after a one-byte command: ignored at cs_n */
		break;
	default:
		break;
	}
}

static uint8_t next_out(struct flash_part *p)
{
	uint8_t v = 0;

	switch (p->op) {
	case FLASH_OP_RDSR:
		return p->sr;
	case FLASH_OP_RDFSR:
		return p->fsr;
	case FLASH_OP_RDID:
		v = p->nbytes < FLASH_PART_ID_LEN ? flash_part_id[p->nbytes] : 0;
		break;
	case FLASH_OP_READ4:
		v = p->mem[(p->addr + p->nbytes) & (FLASH_PART_SIZE - 1)];
		break;
	}
	p->nbytes++;
	return v;
}

int flash_part_step(struct flash_part *p, int sck, int cs_n, int dq0)
{
	sck = !!sck;
	cs_n = !!cs_n;
	if (p->busy_op != OP_NONE && --p->busy_left == 0)
		finish_busy(p);

	if (p->cs_n && !cs_n) { /* select: a new command */
		p->ph = PH_IDLE;
		p->in_bits = p->out_bits = 0;
		p->addr = 0;
		p->addr_bytes = 0;
		p->nbytes = 0;
		p->partial = 0;
	} else if (!p->cs_n && cs_n) {
		p->partial = p->in_bits != 0 && p->ph != PH_OUT;
		end_command(p);
		p->ph = PH_IDLE;
	} else if (!cs_n && !p->sck && sck) { /* rising: sample dq0 */
		p->in_byte = (uint8_t)((p->in_byte << 1) | (dq0 & 1));
		if (++p->in_bits == 8) {
			p->in_bits = 0;
			got_byte(p, p->in_byte);
		}
	} else if (!cs_n && p->sck && !sck && p->ph == PH_OUT) { /* falling: drive dq1 */
		if (p->out_bits == 0)
			p->out_byte = next_out(p);
		p->dq1 = (p->out_byte >> (7 - p->out_bits)) & 1;
		p->out_bits = (p->out_bits + 1) & 7;
	}
	p->sck = sck;
	p->cs_n = cs_n;
	return cs_n || p->ph != PH_OUT ? 1 : p->dq1; /* not driven: pulled up */
}

void flash_part_read(const struct flash_part *p, uint32_t off, void *buf, uint32_t len)
{
	uint8_t *b = buf;

	for (uint32_t i = 0; i < len; i++)
		b[i] = p->mem[(off + i) & (FLASH_PART_SIZE - 1)];
}

uint8_t flash_part_sr(const struct flash_part *p)
{
	return p->sr;
}

uint8_t flash_part_fsr(const struct flash_part *p)
{
	return p->fsr;
}

const struct flash_part_stats *flash_part_stats(const struct flash_part *p)
{
	return &p->st;
}
