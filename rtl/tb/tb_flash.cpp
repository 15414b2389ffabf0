// SPDX-License-Identifier: Apache-2.0
//
// tb_flash: the configuration flash controller (rtl/nic/nic_flash.sv) behind the
// generated register file (tb_flash_top), against the pin-level model of the
// Micron MT25QU01G (hw/lib/flash_part.c), every access through register offsets
// of hw/include/extoll_regs.h (docs/flash.md "Controller", docs/testbenches.md).
// The flash file is build/rtl/tb_flash/flash.bin, created fresh on every run.

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

#include "Vtb_flash_top.h"
#include "extoll_regs.h"
#include "flash_part.h"
#include "tb.h"

static const uint64_t F = EXTOLL_FLASH_BASE;
static const uint32_t TOP_ADDR = FLASH_PART_SIZE - FLASH_PART_PAGE;

class FlashTb : public TbModel<Vtb_flash_top> {
public:
	struct flash_part *part = nullptr;
	unsigned reload_pulses = 0;
	uint32_t reload_addr = 0;
	uint64_t sck_rises = 0, last_rise = 0, period = 0;
	int prev_sck = 0;

	uint64_t rd(uint64_t addr)
	{
		auto *t = top();
		t->s_cpuif_req = 1;
		t->s_cpuif_req_is_wr = 0;
		t->s_cpuif_addr = (uint32_t)addr;
		tick();
		t->s_cpuif_req = 0;
		for (int i = 0; i < 100 && !t->s_cpuif_rd_ack; i++)
			tick();
		uint64_t v = t->s_cpuif_rd_data;
		tick();
		return v;
	}
	void wr(uint64_t addr, uint64_t v)
	{
		auto *t = top();
		t->s_cpuif_req = 1;
		t->s_cpuif_req_is_wr = 1;
		t->s_cpuif_addr = (uint32_t)addr;
		t->s_cpuif_wr_data = v;
		t->s_cpuif_wr_biten = ~0ull;
		tick();
		t->s_cpuif_req = 0;
		for (int i = 0; i < 100 && !t->s_cpuif_wr_ack; i++)
			tick();
		tick();
	}

protected:
	// The part sees the registered pins after each rising edge; dq1 is
	// ready for the next one.
	void posedge() override
	{
		auto *t = top();
		if (part)
			t->flash_dq1 = flash_part_step(part, t->flash_sck, t->flash_cs_n, t->flash_dq0);
		if (t->flash_sck && !prev_sck) {
			if (sck_rises)
				period = cycle() - last_rise;
			last_rise = cycle();
			sck_rises++;
		}
		prev_sck = t->flash_sck;
		if (t->reload_req) {
			reload_pulses++;
			reload_addr = t->reload_addr;
		}
	}
};

static uint64_t cmd_word(uint8_t op, unsigned alen, bool rdir, bool poll, unsigned len)
{
	return (uint64_t)op << EXTOLL_FLASH_CMD_OPCODE_SHIFT | (uint64_t)alen << EXTOLL_FLASH_CMD_ALEN_SHIFT |
	       (uint64_t)rdir << EXTOLL_FLASH_CMD_RD_SHIFT | (uint64_t)poll << EXTOLL_FLASH_CMD_POLL_SHIFT |
	       (uint64_t)len << EXTOLL_FLASH_CMD_LEN_SHIFT | EXTOLL_FLASH_CMD_GO_MASK;
}

// Runs one command and waits for status.busy to fall (register polling).
static uint64_t run(FlashTb &tb, uint8_t op, unsigned alen, uint32_t addr, bool rdir, bool poll, unsigned len)
{
	tb.wr(F + EXTOLL_FLASH_ADDR, addr);
	tb.wr(F + EXTOLL_FLASH_CMD, cmd_word(op, alen, rdir, poll, len));
	uint64_t st = 0;
	for (int i = 0; i < 200000; i++) {
		st = tb.rd(F + EXTOLL_FLASH_STATUS);
		if (!(st & EXTOLL_FLASH_STATUS_BUSY_MASK))
			break;
	}
	return st;
}

static void buf_write(FlashTb &tb, const uint8_t *b)
{
	for (int i = 0; i < 32; i++) {
		uint64_t v;
		memcpy(&v, b + 8 * i, 8);
		tb.wr(F + EXTOLL_FLASH_DATA_N(i), v);
	}
}

static void buf_read(FlashTb &tb, uint8_t *b)
{
	for (int i = 0; i < 32; i++) {
		uint64_t v = tb.rd(F + EXTOLL_FLASH_DATA_N(i));
		memcpy(b + 8 * i, &v, 8);
	}
}

static uint8_t read_reg(FlashTb &tb, uint8_t op)
{
	run(tb, op, 0, 0, true, false, 1);
	return (uint8_t)tb.rd(F + EXTOLL_FLASH_DATA_N(0));
}

static uint64_t program(FlashTb &tb, uint32_t addr, const uint8_t *b, unsigned len)
{
	uint8_t page[256] = {0};
	memcpy(page, b, len);
	buf_write(tb, page);
	run(tb, FLASH_OP_WREN, 0, 0, false, false, 0);
	return run(tb, FLASH_OP_PP4, 4, addr, false, true, len);
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	FlashTb tb;
	auto *t = tb.top();
	char err[256];
	std::string dir = argc > 0 ? std::string(argv[0]) : std::string("./tb_flash");
	std::string path = dir.substr(0, dir.find_last_of('/') + 1) + "flash.bin";
	unlink(path.c_str());
	struct flash_part_timing tm = { 3000, 8000, 20000, 500 };
	tb.part = flash_part_open(path.c_str(), &tm, err, sizeof(err));
	if (!tb.part) {
		printf("tb_flash: %s\n", err);
		return 1;
	}
	t->flash_dq1 = 1;
	t->boot_slot = 2;
	t->boot_version = 0x000300020001ull;           // 3.2.1
	t->boot_build = 0xabcdef0120260101ull;
	tb.reset();

	section("boot identity and JEDEC ID after reset");
	CHECK(tb.rd(F + EXTOLL_FLASH_STATUS) & EXTOLL_FLASH_STATUS_BUSY_MASK, "busy with the ID read after reset");
	CHECK(tb.wait_for([&] { return !(tb.rd(F + EXTOLL_FLASH_STATUS) & EXTOLL_FLASH_STATUS_BUSY_MASK); }, 5000),
	      "ID read finishes");
	uint64_t jed = tb.rd(F + EXTOLL_FLASH_JEDEC);
	CHECK_EQ(jed, (uint64_t)FLASH_PART_JEDEC | EXTOLL_FLASH_JEDEC_VALID_MASK, "jedec register");
	CHECK_EQ(tb.rd(F + EXTOLL_FLASH_BOOT), (uint64_t)2, "boot.slot");
	CHECK(t->id_boot == 1, "id_boot with boot_slot 2");
	CHECK_EQ((uint64_t)t->id_version, (uint64_t)0x000300020001ull, "id_version from the strap");
	CHECK_EQ((uint64_t)t->id_build, (uint64_t)0xabcdef0120260101ull, "id_build from the strap");
	CHECK_EQ(tb.rd(F) & 0xffff, (uint64_t)EXTOLL_FLASH_TYPE, "block type");

	section("clock divider");
	tb.wr(F + EXTOLL_FLASH_DIV, 3);
	CHECK_EQ(read_reg(tb, FLASH_OP_RDSR), (uint8_t)0, "RDSR at divider 3");
	CHECK_EQ(tb.period, (uint64_t)8, "sck period at half = 3");
	tb.wr(F + EXTOLL_FLASH_DIV, 1);
	CHECK_EQ(read_reg(tb, FLASH_OP_RDFSR), (uint8_t)FLASH_FSR_READY, "RDFSR at divider 1");
	CHECK_EQ(tb.period, (uint64_t)4, "sck period at half = 1");

	section("subsector erase");
	const uint32_t base = FLASH_PART_MT25QU01G_UPDATE_OFF + 0x3000;
	uint8_t pat[256], got[256], exp[256], ff[256];
	memset(ff, 0xff, sizeof(ff));
	for (int i = 0; i < 256; i++)
		pat[i] = (uint8_t)(i * 13 + 7);
	uint64_t st = program(tb, base, pat, 256);   // something to erase
	CHECK(st & EXTOLL_FLASH_STATUS_DONE_MASK, "program done");
	run(tb, FLASH_OP_WREN, 0, 0, false, false, 0);
	uint64_t c0 = tb.cycle();
	st = run(tb, FLASH_OP_SSE4, 4, base + 0x123, false, true, 0);
	CHECK(tb.cycle() - c0 >= tm.sse, "SSE4 with poll lasts the busy time (%" PRIu64 " cycles)", tb.cycle() - c0);
	CHECK(((st >> EXTOLL_FLASH_STATUS_POLLS_SHIFT) & 0xffffffff) > 1, "several flag status polls (%" PRIu64 ")",
	      (st >> EXTOLL_FLASH_STATUS_POLLS_SHIFT) & 0xffffffff);
	CHECK_EQ((st >> EXTOLL_FLASH_STATUS_FSR_SHIFT) & 0xff, (uint64_t)FLASH_FSR_READY, "status.fsr ready, no error");
	CHECK(!(st & EXTOLL_FLASH_STATUS_FSR_ERR_MASK), "no fsr_err");
	flash_part_read(tb.part, base, got, 256);
	CHECK(memcmp(got, ff, 256) == 0, "subsector erased (part)");

	section("page program, aligned, read back");
	st = program(tb, base, pat, 256);
	CHECK(st & EXTOLL_FLASH_STATUS_DONE_MASK, "PP4 256 done");
	flash_part_read(tb.part, base, got, 256);
	CHECK(memcmp(got, pat, 256) == 0, "part holds the 256 bytes");
	buf_write(tb, ff);
	memset(got, 0, sizeof(got));
	buf_write(tb, got);
	run(tb, FLASH_OP_READ4, 4, base, true, false, 256);
	buf_read(tb, got);
	CHECK(memcmp(got, pat, 256) == 0, "READ4 256 into the buffer equals the page (got[0] %02x [255] %02x)",
	      got[0], got[255]);
	run(tb, FLASH_OP_READ4, 4, base + 5, true, false, 3);
	buf_read(tb, got);
	CHECK(got[0] == pat[5] && got[1] == pat[6] && got[2] == pat[7], "READ4 of 3 bytes at +5");

	section("page program, unaligned");
	const uint32_t pg2 = base + 0x100;
	uint8_t small[64];
	for (int i = 0; i < 64; i++)
		small[i] = (uint8_t)(0xa0 + i);
	st = program(tb, pg2 + 0x30, small, 64);
	flash_part_read(tb.part, pg2, got, 256);
	memcpy(exp, ff, 256);
	memcpy(exp + 0x30, small, 64);
	CHECK(memcmp(got, exp, 256) == 0, "64 bytes at +0x30 of a page");
	st = program(tb, pg2 + 0xf0, small, 32);       // wraps to the start of the page
	flash_part_read(tb.part, pg2, got, 256);
	memcpy(exp + 0xf0, small, 16);
	for (int i = 0; i < 16; i++)
		exp[i] = small[16 + i];
	CHECK(memcmp(got, exp, 256) == 0, "32 bytes at +0xf0 wrap within the page (got[0] %02x)", got[0]);
	CHECK(!(st & EXTOLL_FLASH_STATUS_FSR_ERR_MASK), "no error");

	section("protected area refused");
	uint8_t bp[1] = { FLASH_SR_BP0 };                // top 64 KiB
	buf_write(tb, ff);
	{
		uint8_t b[256];
		memcpy(b, ff, 256);
		b[0] = bp[0];
		buf_write(tb, b);
	}
	run(tb, FLASH_OP_WREN, 0, 0, false, false, 0);
	run(tb, FLASH_OP_WRSR, 0, 0, false, true, 1);
	CHECK_EQ(read_reg(tb, FLASH_OP_RDSR), (uint8_t)FLASH_SR_BP0, "RDSR: BP0 set");
	st = program(tb, TOP_ADDR, pat, 256);
	CHECK(st & EXTOLL_FLASH_STATUS_FSR_ERR_MASK, "status.fsr_err after PP4 into the protected area");
	CHECK_EQ((st >> EXTOLL_FLASH_STATUS_FSR_SHIFT) & 0xff,
		 (uint64_t)(FLASH_FSR_READY | FLASH_FSR_PROG | FLASH_FSR_PROT), "status.fsr");
	flash_part_read(tb.part, TOP_ADDR, got, 256);
	CHECK(memcmp(got, ff, 256) == 0, "protected page unchanged");
	run(tb, FLASH_OP_WREN, 0, 0, false, false, 0);
	st = run(tb, FLASH_OP_SE4, 4, TOP_ADDR, false, true, 0);
	CHECK_EQ((st >> EXTOLL_FLASH_STATUS_FSR_SHIFT) & 0xff,
		 (uint64_t)(FLASH_FSR_READY | FLASH_FSR_ERASE | FLASH_FSR_PROG | FLASH_FSR_PROT),
		 "status.fsr after SE4 into the protected area (errors accumulate until CLFSR)");
	run(tb, FLASH_OP_CLFSR, 0, 0, false, false, 0);
	CHECK_EQ(read_reg(tb, FLASH_OP_RDFSR), (uint8_t)FLASH_FSR_READY, "CLFSR clears");
	{
		uint8_t b[256];
		memcpy(b, ff, 256);
		b[0] = 0;
		buf_write(tb, b);
	}
	run(tb, FLASH_OP_WREN, 0, 0, false, false, 0);
	run(tb, FLASH_OP_WRSR, 0, 0, false, true, 1);
	st = program(tb, TOP_ADDR, pat, 256);
	flash_part_read(tb.part, TOP_ADDR, got, 256);
	CHECK(memcmp(got, pat, 256) == 0 && !(st & EXTOLL_FLASH_STATUS_FSR_ERR_MASK), "unprotected: programmed");

	section("commands while busy");
	run(tb, FLASH_OP_WREN, 0, 0, false, false, 0);
	tb.wr(F + EXTOLL_FLASH_ADDR, base + 0x10000);
	tb.wr(F + EXTOLL_FLASH_CMD, cmd_word(FLASH_OP_SE4, 4, false, true, 0));
	CHECK(tb.rd(F + EXTOLL_FLASH_STATUS) & EXTOLL_FLASH_STATUS_BUSY_MASK, "busy");
	tb.wr(F + EXTOLL_FLASH_CMD, cmd_word(FLASH_OP_RDSR, 0, true, false, 1));
	st = tb.rd(F + EXTOLL_FLASH_STATUS);
	CHECK(st & EXTOLL_FLASH_STATUS_ERROR_MASK, "GO while busy: status.error");
	CHECK(tb.wait_for([&] { return !(tb.rd(F + EXTOLL_FLASH_STATUS) & EXTOLL_FLASH_STATUS_BUSY_MASK); }, 100000),
	      "the erase finishes");
	// the part busy, the controller not: status reads served, others ignored
	run(tb, FLASH_OP_WREN, 0, 0, false, false, 0);
	run(tb, FLASH_OP_SSE4, 4, base + 0x20000, false, false, 0);
	CHECK(read_reg(tb, FLASH_OP_RDSR) & FLASH_SR_WIP, "RDSR command: WIP while the part erases");
	run(tb, FLASH_OP_RDID, 0, 0, true, false, 3);
	CHECK_EQ(tb.rd(F + EXTOLL_FLASH_DATA_N(0)) & 0xffffff, (uint64_t)0xffffff, "READ ID while the part is busy: ignored");
	st = run(tb, FLASH_OP_RDSR, 0, 0, true, true, 1);   // poll until ready
	CHECK(((st >> EXTOLL_FLASH_STATUS_POLLS_SHIFT) & 0xffffffff) >= 1 && !(read_reg(tb, FLASH_OP_RDSR) & FLASH_SR_WIP),
	      "poll waits until the part is ready");
	st = run(tb, FLASH_OP_RDID, 0, 0, true, false, 3);
	CHECK_EQ(tb.rd(F + EXTOLL_FLASH_DATA_N(0)) & 0xffffff, (uint64_t)0x21bb20, "READ ID as a command (bytes 20 BB 21)");
	CHECK(!(st & EXTOLL_FLASH_STATUS_ERROR_MASK), "accepted GO clears status.error");
	tb.wr(F + EXTOLL_FLASH_CMD, cmd_word(FLASH_OP_READ4, 4, true, false, 257));
	st = tb.rd(F + EXTOLL_FLASH_STATUS);
	CHECK((st & EXTOLL_FLASH_STATUS_ERROR_MASK) && !(st & EXTOLL_FLASH_STATUS_BUSY_MASK), "len 257 refused");

	section("reload request");
	CHECK_EQ(tb.reload_pulses, 0u, "no reload yet");
	tb.wr(F + EXTOLL_FLASH_RELOAD, (uint64_t)FLASH_PART_MT25QU01G_UPDATE_OFF | EXTOLL_FLASH_RELOAD_GO_MASK);
	tb.idle(5);
	CHECK_EQ(tb.reload_pulses, 1u, "one reload pulse");
	CHECK_EQ(tb.reload_addr, (uint32_t)FLASH_PART_MT25QU01G_UPDATE_OFF, "reload address");
	tb.wr(F + EXTOLL_FLASH_RELOAD, 0x1234);
	tb.idle(5);
	CHECK_EQ(tb.reload_pulses, 1u, "writing the address without GO: no pulse");

	const struct flash_part_stats *ps = flash_part_stats(tb.part);
	uint64_t progs = ps->programs, erases = ps->erases, refused = ps->refused;
	uint64_t cyc = tb.cycle();
	flash_part_close(tb.part);
	tb.part = nullptr;
	unlink(path.c_str());
	(void)a;
	return tb_finish("tb_flash", "%" PRIu64 " cycles, %" PRIu64 " programs, %" PRIu64 " erases, %" PRIu64 " refused",
			 cyc, progs, erases, refused);
}
