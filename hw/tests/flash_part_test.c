// SPDX-License-Identifier: Apache-2.0
/*
 * flash_part_test.c: the unit test of the flash part model (hw/lib/flash_part.c,
 * docs/flash.md "Part model"), driving its pins bit by bit as a SPI master in
 * mode 0 would: JEDEC ID, WEL rules, page program (aligned, wrapping in the
 * page, only clearing bits), subsector and sector erase with their bounds,
 * busy times, commands while busy, block protection and the flag status
 * errors, unknown commands, cs_n inside a byte, persistence in the file, a
 * file of the wrong size refused, and four processes that open one new file at
 * once (two simulations started together) all getting the whole erased part.  `make -C hw check-flash DIR`: the flash
 * file goes to build/hw/.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flash_part.h"

static int checks, failed;
#define CHECK(c, ...)                                                       \
	do {                                                                \
		checks++;                                                   \
		if (!(c)) {                                                 \
			failed++;                                           \
			printf("  FAIL %s:%d: ", __FILE__, __LINE__);       \
			printf(__VA_ARGS__);                                \
			printf("\n");                                       \
		}                                                           \
	} while (0)

static const struct flash_part_timing tm = { 1000, 1500, 4000, 100 };
static unsigned long ticks;

/* One command: n_out bytes sent, then n_in bytes read (dq0 low meanwhile). */
static void xfer(struct flash_part *p, const uint8_t *out, int n_out, uint8_t *in, int n_in)
{
	flash_part_step(p, 0, 0, 0);
	ticks++;
	for (int i = 0; i < n_out + n_in; i++) {
		uint8_t b = i < n_out ? out[i] : 0, r = 0;

		for (int k = 7; k >= 0; k--) {
			int d = (b >> k) & 1;

			flash_part_step(p, 0, 0, d);
			r = (uint8_t)(r << 1 | flash_part_step(p, 1, 0, d));
			ticks += 2;
		}
		if (i >= n_out)
			in[i - n_out] = r;
		flash_part_step(p, 0, 0, 0);
		ticks++;
	}
	flash_part_step(p, 0, 1, 0);
	flash_part_step(p, 0, 1, 0);
	ticks += 2;
}

static void cmd1(struct flash_part *p, uint8_t op)
{
	xfer(p, &op, 1, NULL, 0);
}

static uint8_t rd_reg(struct flash_part *p, uint8_t op)
{
	uint8_t v;

	xfer(p, &op, 1, &v, 1);
	return v;
}

static void addr_cmd(struct flash_part *p, uint8_t op, uint32_t a, const uint8_t *data, int n)
{
	uint8_t b[5 + 300];

	b[0] = op;
	b[1] = (uint8_t)(a >> 24);
	b[2] = (uint8_t)(a >> 16);
	b[3] = (uint8_t)(a >> 8);
	b[4] = (uint8_t)a;
	memcpy(b + 5, data, (size_t)n);
	xfer(p, b, 5 + n, NULL, 0);
}

static void read4(struct flash_part *p, uint32_t a, uint8_t *buf, int n)
{
	uint8_t b[5] = { FLASH_OP_READ4, (uint8_t)(a >> 24), (uint8_t)(a >> 16), (uint8_t)(a >> 8), (uint8_t)a };

	xfer(p, b, 5, buf, n);
}

/* Polls RDSR until WIP clears; returns the polls it took. */
static int wait_ready(struct flash_part *p)
{
	int n = 0;

	while ((rd_reg(p, FLASH_OP_RDSR) & FLASH_SR_WIP) && n < 100000)
		n++;
	return n;
}

static int all_ff(struct flash_part *p, uint32_t a, uint32_t n)
{
	static uint8_t buf[FLASH_PART_SECTOR];

	flash_part_read(p, a, buf, n);
	for (uint32_t i = 0; i < n; i++)
		if (buf[i] != 0xFF)
			return 0;
	return 1;
}

static void fill(struct flash_part *p, uint32_t a, uint8_t v)
{
	uint8_t d[256];

	memset(d, v, sizeof(d));
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_PP4, a, d, 256);
	wait_ready(p);
}

static void test_id_and_wel(struct flash_part *p)
{
	uint8_t id[22], buf[8];
	uint8_t op = FLASH_OP_RDID;

	printf("-- JEDEC ID, WEL\n");
	xfer(p, &op, 1, id, 22);
	CHECK(id[0] == 0x20 && id[1] == 0xBB && id[2] == 0x21, "JEDEC ID %02X %02X %02X", id[0], id[1], id[2]);
	CHECK(id[3] == 0x10 && id[4] == 0x44 && id[5] == 0x00, "extended id %02X %02X %02X", id[3], id[4], id[5]);
	CHECK(id[20] == 0 && id[21] == 0, "after 20 bytes: 0x00");
	read4(p, 0x123456, buf, 8);
	CHECK(buf[0] == 0xFF && buf[7] == 0xFF, "fresh part reads 0xFF (%02X)", buf[0]);
	CHECK(rd_reg(p, FLASH_OP_RDSR) == 0, "RDSR after open: 0x%02X", rd_reg(p, FLASH_OP_RDSR));
	CHECK(rd_reg(p, FLASH_OP_RDFSR) == FLASH_FSR_READY, "RDFSR: ready");
	cmd1(p, FLASH_OP_WREN);
	CHECK(rd_reg(p, FLASH_OP_RDSR) == FLASH_SR_WEL, "WREN sets WEL");
	cmd1(p, FLASH_OP_WRDI);
	CHECK(rd_reg(p, FLASH_OP_RDSR) == 0, "WRDI clears WEL");
	addr_cmd(p, FLASH_OP_PP4, 0x1000, (const uint8_t *)"\0\0\0\0", 4);
	CHECK(!(rd_reg(p, FLASH_OP_RDSR) & FLASH_SR_WIP), "PP4 without WEL: not busy");
	CHECK(all_ff(p, 0x1000, 4), "PP4 without WEL: nothing programmed");
}

static void test_program(struct flash_part *p)
{
	uint8_t d[256], buf[256], exp[256];
	int polls;

	printf("-- page program\n");
	for (int i = 0; i < 256; i++)
		d[i] = (uint8_t)(i * 7 + 3);
	cmd1(p, FLASH_OP_WREN);
	unsigned long t0 = ticks;
	addr_cmd(p, FLASH_OP_PP4, 0x20000, d, 256);
	CHECK(rd_reg(p, FLASH_OP_RDSR) & FLASH_SR_WIP, "PP4: WIP right after cs_n");
	CHECK(!(rd_reg(p, FLASH_OP_RDFSR) & FLASH_FSR_READY), "PP4: FSR not ready while busy");
	read4(p, 0x20000, buf, 4);
	CHECK(buf[0] == 0xFF && buf[1] == 0xFF, "READ4 while busy is ignored (dq1 high)");
	cmd1(p, FLASH_OP_WRDI);
	CHECK((rd_reg(p, FLASH_OP_RDSR) & FLASH_SR_WEL), "WRDI while busy ignored: WEL still set");
	{
		uint8_t op = FLASH_OP_RDID, id[3];

		xfer(p, &op, 1, id, 3);
		CHECK(id[0] == 0xFF && id[1] == 0xFF, "RDID while busy ignored (%02X)", id[0]);
	}
	polls = wait_ready(p);
	CHECK(polls > 0, "busy for some polls (%d)", polls);
	CHECK(ticks - t0 >= tm.pp, "busy at least %u ticks (%lu)", tm.pp, ticks - t0);
	CHECK(!(rd_reg(p, FLASH_OP_RDSR) & FLASH_SR_WEL), "WEL cleared at the end");
	read4(p, 0x20000, buf, 256);
	CHECK(memcmp(buf, d, 256) == 0, "aligned page reads back");

	/* unaligned: 32 bytes at 0xF0 of the page wrap to its start */
	memset(d, 0xA5, 32);
	memcpy(exp, (uint8_t[256]){0}, 0);
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_PP4, 0x300F0, d, 32);
	wait_ready(p);
	flash_part_read(p, 0x30000, buf, 256);
	for (int i = 0; i < 256; i++)
		exp[i] = (i >= 0xF0 || i < 0x10) ? 0xA5 : 0xFF;
	CHECK(memcmp(buf, exp, 256) == 0, "unaligned program wraps within the page (0x30000: %02X, 0x30010: %02X)",
	      buf[0], buf[0x10]);
	CHECK(all_ff(p, 0x30100, 16), "next page untouched");

	/* program only clears bits */
	d[0] = 0x0F;
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_PP4, 0x300F0, d, 1);
	wait_ready(p);
	flash_part_read(p, 0x300F0, buf, 2);
	CHECK(buf[0] == (0xA5 & 0x0F) && buf[1] == 0xA5, "program ANDs: %02X %02X", buf[0], buf[1]);

	/* more than 256 bytes: the last 256 land */
	uint8_t big[300];
	for (int i = 0; i < 300; i++)
		big[i] = (uint8_t)(i < 44 ? 0x11 : 0x22);
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_PP4, 0x40000, big, 300);
	wait_ready(p);
	flash_part_read(p, 0x40000, buf, 256);
	CHECK(buf[0] == 0x22 && buf[43] == 0x22 && buf[44] == 0x22, "300 bytes: the last 256 kept (%02X)", buf[0]);

	/* cs_n inside a byte: not executed */
	cmd1(p, FLASH_OP_WREN);
	{
		uint8_t b[7] = { FLASH_OP_PP4, 0, 0x05, 0, 0, 0x00, 0x00 };
		flash_part_step(p, 0, 0, 0);
		for (int i = 0; i < 7; i++)
			for (int k = 7; k >= 0; k--) {
				if (i == 6 && k == 3)
					goto cut;
				flash_part_step(p, 0, 0, (b[i] >> k) & 1);
				flash_part_step(p, 1, 0, (b[i] >> k) & 1);
			}
cut:
		flash_part_step(p, 0, 1, 0);
	}
	CHECK(!(rd_reg(p, FLASH_OP_RDSR) & FLASH_SR_WIP) && all_ff(p, 0x50000, 1), "cs_n inside a byte: PP4 not executed");
	cmd1(p, FLASH_OP_WRDI);
}

static void test_erase(struct flash_part *p)
{
	uint8_t b[2];

	printf("-- erase\n");
	fill(p, 0x60FF0 & ~0xFFu, 0x00);
	fill(p, 0x61000, 0x00);
	fill(p, 0x61F00, 0x00);
	fill(p, 0x62000, 0x00);
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_SSE4, 0x61ABC, NULL, 0);
	CHECK(rd_reg(p, FLASH_OP_RDSR) & FLASH_SR_WIP, "SSE4 busy");
	wait_ready(p);
	CHECK(all_ff(p, 0x61000, FLASH_PART_SUBSECTOR), "SSE4 erased its 4 KiB subsector");
	flash_part_read(p, 0x60FFF, b, 1);
	flash_part_read(p, 0x62000, b + 1, 1);
	CHECK(b[0] == 0 && b[1] == 0, "bytes around the subsector kept (%02X %02X)", b[0], b[1]);

	fill(p, 0x70000, 0x00);
	fill(p, 0x7FF00, 0x00);
	fill(p, 0x80000, 0x00);
	cmd1(p, FLASH_OP_WREN);
	unsigned long t0 = ticks;
	addr_cmd(p, FLASH_OP_SE4, 0x7F000, NULL, 0);
	wait_ready(p);
	CHECK(ticks - t0 >= tm.se, "SE4 busy at least %u ticks (%lu)", tm.se, ticks - t0);
	CHECK(all_ff(p, 0x70000, FLASH_PART_SECTOR), "SE4 erased its 64 KiB sector");
	flash_part_read(p, 0x80000, b, 1);
	CHECK(b[0] == 0, "next sector kept");
	CHECK(flash_part_stats(p)->erases == 2, "two erases counted (%llu)",
	      (unsigned long long)flash_part_stats(p)->erases);

	/* erase without WEL, erase with data bytes: ignored */
	fill(p, 0x90000, 0x00);
	addr_cmd(p, FLASH_OP_SSE4, 0x90000, NULL, 0);
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_SSE4, 0x90000, (const uint8_t *)"x", 1);
	wait_ready(p);
	flash_part_read(p, 0x90000, b, 1);
	CHECK(b[0] == 0, "SSE4 without WEL or with extra bytes ignored");
	cmd1(p, FLASH_OP_WRDI);
}

static void test_protect(struct flash_part *p)
{
	uint8_t wr[2] = { FLASH_OP_WRSR, FLASH_SR_BP0 }; /* top 64 KiB */
	uint8_t d[4] = { 0, 0, 0, 0 }, b[1];
	uint32_t top = FLASH_PART_SIZE - FLASH_PART_SECTOR;

	printf("-- block protection\n");
	xfer(p, wr, 2, NULL, 0);
	CHECK(rd_reg(p, FLASH_OP_RDSR) == 0, "WRSR without WEL ignored");
	cmd1(p, FLASH_OP_WREN);
	xfer(p, wr, 2, NULL, 0);
	wait_ready(p);
	CHECK(rd_reg(p, FLASH_OP_RDSR) == FLASH_SR_BP0, "WRSR: BP0 set (0x%02X)", rd_reg(p, FLASH_OP_RDSR));

	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_PP4, FLASH_PART_SIZE - 256, d, 4);
	CHECK(!(rd_reg(p, FLASH_OP_RDSR) & (FLASH_SR_WIP | FLASH_SR_WEL)), "protected PP4: not busy, WEL cleared");
	CHECK(rd_reg(p, FLASH_OP_RDFSR) == (FLASH_FSR_READY | FLASH_FSR_PROG | FLASH_FSR_PROT),
	      "protected PP4: FSR 0x%02X", rd_reg(p, FLASH_OP_RDFSR));
	CHECK(all_ff(p, FLASH_PART_SIZE - 256, 4), "protected PP4: nothing programmed");
	cmd1(p, FLASH_OP_CLFSR);
	CHECK(rd_reg(p, FLASH_OP_RDFSR) == FLASH_FSR_READY, "CLFSR clears the errors");

	fill(p, top - 256, 0x00); /* just below: allowed */
	flash_part_read(p, top - 1, b, 1);
	CHECK(b[0] == 0 && rd_reg(p, FLASH_OP_RDFSR) == FLASH_FSR_READY, "below the protected area: programmed");
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_SE4, top - FLASH_PART_SECTOR, NULL, 0);
	wait_ready(p);
	CHECK(all_ff(p, top - 256, 256), "unprotected sector below erased");
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_SSE4, top + 0x3000, NULL, 0);
	CHECK(rd_reg(p, FLASH_OP_RDFSR) == (FLASH_FSR_READY | FLASH_FSR_ERASE | FLASH_FSR_PROT),
	      "protected SSE4: FSR 0x%02X", rd_reg(p, FLASH_OP_RDFSR));
	cmd1(p, FLASH_OP_CLFSR);

	/* TB: bottom 128 KiB (BP = 2) */
	wr[1] = FLASH_SR_TB | FLASH_SR_BP1;
	cmd1(p, FLASH_OP_WREN);
	xfer(p, wr, 2, NULL, 0);
	wait_ready(p);
	cmd1(p, FLASH_OP_WREN);
	addr_cmd(p, FLASH_OP_PP4, 0x1FF00, d, 4);
	CHECK(rd_reg(p, FLASH_OP_RDFSR) & FLASH_FSR_PROT, "TB=1 BP=2: 0x1FF00 protected");
	cmd1(p, FLASH_OP_CLFSR);
	fill(p, 0x20100, 0x00);
	flash_part_read(p, 0x20100, b, 1);
	CHECK(b[0] == 0, "TB=1 BP=2: 0x20100 programmable");
	CHECK(flash_part_stats(p)->refused == 3, "refused counted (%llu)", (unsigned long long)flash_part_stats(p)->refused);
	wr[1] = 0;
	cmd1(p, FLASH_OP_WREN);
	xfer(p, wr, 2, NULL, 0);
	wait_ready(p);
}

static void test_odd_commands(struct flash_part *p)
{
	uint8_t junk[4] = { 0xAB, FLASH_OP_WREN, FLASH_OP_WREN, 0x00 };
	uint64_t ign = flash_part_stats(p)->ignored;

	printf("-- unknown commands\n");
	xfer(p, junk, 4, NULL, 0);
	CHECK(rd_reg(p, FLASH_OP_RDSR) == 0, "unknown 0xAB: the bytes after it ignored until cs_n");
	CHECK(flash_part_stats(p)->ignored == ign + 1, "ignored counted");
	cmd1(p, FLASH_OP_WREN);
	CHECK(rd_reg(p, FLASH_OP_RDSR) == FLASH_SR_WEL, "next command served");
	uint8_t two[2] = { FLASH_OP_WRDI, 0 };
	xfer(p, two, 2, NULL, 0);
	CHECK(rd_reg(p, FLASH_OP_RDSR) == FLASH_SR_WEL, "WRDI with an extra byte ignored");
	cmd1(p, FLASH_OP_WRDI);
}

/*
 * Four processes open the same missing file at once: every one must get the
 * part (none sees it half filled), and the file is one erased part.
 */
static void test_create_race(const char *path)
{
	enum { N = 4 };
	pid_t pid[N];
	int i, ok = 0, status;
	struct stat sb;

	printf("-- one new file opened by %d processes at once\n", N);
	unlink(path);
	for (i = 0; i < N; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			char e[256];
			struct flash_part *q = flash_part_open(path, &tm, e, sizeof(e));
			uint8_t v[2] = { 0, 0 };

			if (!q) {
				printf("  child %d: %s\n", i, e);
				_exit(1);
			}
			flash_part_read(q, FLASH_PART_SIZE - 2, v, 2);
			flash_part_close(q);
			_exit(v[0] == 0xFF && v[1] == 0xFF ? 0 : 2);
		}
	}
	for (i = 0; i < N; i++)
		if (pid[i] > 0 && waitpid(pid[i], &status, 0) == pid[i] &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 0)
			ok++;
	CHECK(ok == N, "%d of %d processes opened the erased part", ok, N);
	CHECK(stat(path, &sb) == 0 && sb.st_size == (off_t)FLASH_PART_SIZE,
	      "the file is one part (%lld bytes)", (long long)sb.st_size);
	unlink(path);
}

int main(int argc, char **argv)
{
	char path[4096], err[256];
	const char *dir = argc > 1 ? argv[1] : ".";
	struct flash_part *p;
	uint8_t b[4];
	FILE *f;

	snprintf(path, sizeof(path), "%s/flash_part_test.bin", dir);
	unlink(path);
	p = flash_part_open(path, &tm, err, sizeof(err));
	if (!p) {
		printf("FAIL flash-part: %s\n", err);
		return 1;
	}
	test_id_and_wel(p);
	test_program(p);
	test_erase(p);
	test_protect(p);
	test_odd_commands(p);
	flash_part_close(p);

	printf("-- persistence\n");
	p = flash_part_open(path, &tm, err, sizeof(err));
	CHECK(p != NULL, "reopen: %s", err);
	if (p) {
		flash_part_read(p, 0x20000, b, 2);
		CHECK(b[0] == 3 && b[1] == 10, "reopened file keeps the programmed page (%02X %02X)", b[0], b[1]);
		flash_part_close(p);
	}
	f = fopen(path, "r+");
	if (f) {
		CHECK(ftruncate(fileno(f), 4096) == 0, "truncate");
		fclose(f);
	}
	p = flash_part_open(path, &tm, err, sizeof(err));
	CHECK(p == NULL && strstr(err, "not a flash file"), "a 4096-byte file is refused: %s", err);
	if (p)
		flash_part_close(p);
	unlink(path);
	test_create_race(path);

	printf("flash-part: %d checks, %d failed, %lu ticks\n", checks, failed, ticks);
	printf("%s flash-part\n", failed || !checks ? "FAIL" : "PASS");
	return failed || !checks;
}
