// SPDX-License-Identifier: Apache-2.0
//
// tb_icape3_iprog: Verilator block test of the ICAPE3 IPROG sequencer
// (rtl/vendor/xilinx/icape3_iprog.sv) against a model of the configuration
// logic behind ICAPE3, written from UG570 (UltraScale Architecture
// Configuration), not from the sequencer:
//   - the ICAPE3 interface: a word is taken at a rising edge with CSIB low;
//     RDWRB low (write) at the edge before CSIB goes low and unchanged while
//     CSIB stays low (a change aborts the access); no access while AVAIL is
//     low; each byte of a word arrives bit-swapped ("Parallel Bus Bit Order":
//     0xAA995566 as 0x5599AA66);
//   - the packet processor: words before the sync word 0xAA995566 are ignored;
//     after it, type 1 packets (header bits 31:29 = 001, opcode 28:27, register
//     address 17:13, word count 10:0) with their data words; NOOP (opcode 0);
//     writes to WBSTAR (register 0x10) and CMD (0x04); CMD = 0x0F (IPROG)
//     reconfigures the device from WBSTAR[28:0], after which the model stops
//     listening (the FPGA is reconfiguring).
// Tests: IPROG of the update slot's address, the word sequence equal to
// UG570's example; a request while AVAIL is low waits for it; a request during
// a running sequence is dropped; a reset in the middle of a sequence leaves no
// IPROG and the next request works; every address bit reaches WBSTAR.
//
// Usage: tb_icape3_iprog [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "Vicape3_iprog.h"
#include "tb.h"
#include "verilated.h"

// UG570, "IPROG Using ICAP": the example bitstream, WBSTAR in word 4
static std::vector<uint32_t> ug570_iprog(uint32_t wbstar)
{
	return {0xFFFFFFFF, 0xAA995566, 0x20000000, 0x30020001, wbstar, 0x30008001, 0x0000000F, 0x20000000};
}

static uint32_t unswap(uint32_t w)   // the bits of each byte reversed back
{
	uint32_t r = 0;
	for (int b = 0; b < 32; b++)
		if (w >> b & 1)
			r |= 1u << ((b & ~7) + 7 - (b & 7));
	return r;
}

// The configuration logic behind ICAPE3 (UG570), fed one edge at a time.
struct ConfigModel {
	bool avail = true;
	bool prev_csib = true, prev_rdwrb = true;
	bool synced = false, reconfiguring = false;
	unsigned data_left = 0, data_reg = 0;
	uint32_t wbstar = 0;
	unsigned iprogs = 0;
	uint32_t iprog_wbstar = 0;
	unsigned errors = 0;
	std::vector<uint32_t> words;      // every word taken (unswapped), this access

	void error(const char *what, uint64_t cyc)
	{
		errors++;
		printf("  ICAPE3 rule broken at cycle %" PRIu64 ": %s\n", cyc, what);
	}
	void edge(bool csib, bool rdwrb, uint32_t data, uint64_t cyc)
	{
		if (!csib) {
			if (prev_csib && prev_rdwrb)
				error("CSIB low without RDWRB low at the edge before", cyc);
			if (!prev_csib && rdwrb != prev_rdwrb)
				error("RDWRB changed while CSIB low (abort)", cyc);
			if (!avail)
				error("access while AVAIL is low", cyc);
			if (rdwrb)
				error("a read: the sequencer only writes", cyc);
			else
				word(unswap(data), cyc);
		}
		prev_csib = csib;
		prev_rdwrb = rdwrb;
	}
	void word(uint32_t w, uint64_t cyc)
	{
		words.push_back(w);
		if (reconfiguring)
			return;
		if (!synced) {
			synced = w == 0xAA995566;
			return;
		}
		if (data_left) {
			data_left--;
			if (data_reg == 0x10) {
				wbstar = w;
			} else if (data_reg == 0x04 && (w & 0x1F) == 0x0F) {
				iprogs++;
				iprog_wbstar = wbstar & 0x1FFFFFFF;
				reconfiguring = true;
			} else if (data_reg != 0x04) {
				error("write to a register other than WBSTAR and CMD", cyc);
			}
			return;
		}
		if (w >> 29 != 1) {
			error("not a type 1 packet header", cyc);
			return;
		}
		unsigned op = w >> 27 & 3, reg = w >> 13 & 0x1F, cnt = w & 0x7FF;
		if (op == 0)
			return;                       // NOOP
		if (op != 2) {
			error("a packet other than NOOP or write", cyc);
			return;
		}
		data_left = cnt;
		data_reg = reg;
	}
	// the FPGA came back from reconfiguration (the test's next case)
	void restart()
	{
		synced = reconfiguring = false;
		data_left = 0;
		wbstar = 0;
		words.clear();
	}
};

class Tb : public TbModel<Vicape3_iprog> {
public:
	ConfigModel icap;
	bool req = false;
	uint32_t addr = 0;

protected:
	void drive() override
	{
		top()->s_req = req;
		top()->s_addr = addr;
		top()->s_icap_avail = icap.avail;
		req = false;
	}
	void sample() override
	{
		icap.edge(top()->m_icap_csib, top()->m_icap_rdwrb, top()->m_icap_data, cycle());
	}
};

static void request(Tb &tb, uint32_t a)
{
	tb.req = true;
	tb.addr = a;
	tb.tick();
}

int main(int argc, char **argv)
{
	TbArgs args = tb_args(argc, argv);
	Tb tb;
	tb.reset();

	section("IPROG of the update slot (16 MiB): UG570's example sequence");
	CHECK(!tb.top()->s_busy && tb.top()->m_icap_csib, "idle after reset");
	request(tb, 0x01000000);
	CHECK(tb.wait_for([&] { return !tb.top()->s_busy; }, 100), "sequence ends");
	CHECK_EQ(tb.icap.iprogs, 1, "IPROG commands");
	CHECK_EQ(tb.icap.iprog_wbstar, 0x01000000, "WBSTAR at IPROG");
	CHECK(tb.icap.words == ug570_iprog(0x01000000), "the words (unswapped) are UG570's example (%zu words)",
	      tb.icap.words.size());
	if (args.verbose)
		for (uint32_t w : tb.icap.words)
			printf("    %08x\n", w);
	tb.idle(20);
	CHECK(tb.top()->m_icap_csib, "CSIB high afterwards");

	section("a request while AVAIL is low waits for AVAIL");
	tb.icap.restart();
	tb.icap.avail = false;
	request(tb, 0x00800000);
	tb.idle(50);
	CHECK(tb.top()->s_busy, "busy while waiting");
	CHECK(tb.icap.words.empty(), "no access while AVAIL is low (%zu words)", tb.icap.words.size());
	tb.icap.avail = true;
	CHECK(tb.wait_for([&] { return !tb.top()->s_busy; }, 100), "sequence ends");
	CHECK_EQ(tb.icap.iprogs, 2, "IPROG commands");
	CHECK_EQ(tb.icap.iprog_wbstar, 0x00800000, "WBSTAR at IPROG");

	section("a second request during a sequence is dropped");
	tb.icap.restart();
	request(tb, 0x02000000);
	tb.idle(3);
	request(tb, 0x03000000);
	CHECK(tb.wait_for([&] { return !tb.top()->s_busy; }, 100), "sequence ends");
	tb.idle(20);
	CHECK_EQ(tb.icap.iprogs, 3, "IPROG commands");
	CHECK_EQ(tb.icap.iprog_wbstar, 0x02000000, "WBSTAR at IPROG: the first request's");
	CHECK_EQ(tb.icap.words.size(), 8, "words: one sequence");

	section("a reset in the middle: no IPROG, the next request works");
	tb.icap.restart();
	request(tb, 0x04000000);
	tb.idle(4);
	tb.reset(2);
	tb.idle(10);
	CHECK_EQ(tb.icap.iprogs, 3, "IPROG commands (none from the cut sequence)");
	CHECK(tb.top()->m_icap_csib && !tb.top()->s_busy, "idle after the reset");
	tb.icap.restart();
	request(tb, 0x05000000);
	CHECK(tb.wait_for([&] { return !tb.top()->s_busy; }, 100), "sequence ends");
	CHECK_EQ(tb.icap.iprogs, 4, "IPROG commands");
	CHECK_EQ(tb.icap.iprog_wbstar, 0x05000000, "WBSTAR at IPROG");

	section("every START_ADDR bit reaches WBSTAR");
	for (int b = 0; b < 29; b++) {
		tb.icap.restart();
		request(tb, 1u << b);
		CHECK(tb.wait_for([&] { return !tb.top()->s_busy; }, 100), "sequence ends (bit %d)", b);
		CHECK_EQ(tb.icap.iprog_wbstar, 1u << b, "WBSTAR at IPROG");
	}
	CHECK_EQ(tb.icap.iprogs, 4 + 29, "IPROG commands");
	CHECK_EQ(tb.icap.errors, 0, "ICAPE3 rule violations");
	return tb_finish("tb_icape3_iprog", "%u IPROG commands", tb.icap.iprogs);
}
