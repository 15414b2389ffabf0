// SPDX-License-Identifier: Apache-2.0
//
// tb_naa_intx: block test of INTx forwarding at the NAA (rtl/nic/naa_intx.sv,
// docs/epf-test.md). The device side sends random memory writes while its
// INTA# level toggles (long levels, short pulses, pulses while the stream is
// busy); the NIC side back-pressures at random. Checked:
//   - the device's TLPs leave unchanged and in order (stream rules by TlpSink)
//   - every INTx message is a 1-DW MWr to the window address, requester 0,
//     data 0x8000000L (bit 31 marker, pin A, level L), never inside a device TLP
//   - messages alternate assert/deassert, every rising edge of the level is
//     followed by an assert message, the last message equals the final level
//   - an assert message leaves after every device TLP that was presented
//     before the level rose (posted-write ordering of Assert_INTx)

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "Vnaa_intx.h"
#include "extoll_records.h"
#include "extoll_regs.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"

// where the host's driver (naa_bus) looks for the messages: the notify window's
// reset base + its INTx offset, data INTX_MSG | pin << 1 | level
static const uint64_t ADDR = EXTOLL_NOTIFY_WIN_BASE_ADDR_RESET + EXTOLL_NQ_WIN_INTX_OFF;

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	auto ctx = std::make_unique<VerilatedContext>();
	auto top = std::make_unique<Vnaa_intx>(ctx.get());
	std::mt19937 rng(a.seed);
	TlpSource<VlWide<4>> src("s_tlp", TLP_PINS(top.get(), s_tlp), a.seed * 3 + 1);
	TlpSink<VlWide<4>> snk("m_tlp", TLP_PINS(top.get(), m_tlp), a.seed * 3 + 2);
	std::deque<struct tlp> sent;      // device TLPs in send order
	uint64_t dev_started = 0;         // device TLPs whose sop was presented
	uint64_t dev_out = 0;             // device TLPs seen at the output
	unsigned nmsg = 0, nassert = 0, ndeassert = 0, rises = 0;
	int last_msg = 0;                 // level of the last message
	bool pending_rise = false;        // a rising edge not yet answered by an assert
	uint64_t rise_started = 0;        // dev_started at that edge
	unsigned order_errors = 0, fmt_errors = 0, alt_errors = 0;
	int level = 0;
	uint64_t cyc = 0;
	bool held_sop = false;            // a sop beat presented and not yet taken

	// one cycle with INTA# at l
	auto tick = [&](int l) {
		src.drive();
		snk.drive();
		if (top->s_tlp_valid && top->s_tlp_sop && !held_sop)
			dev_started++;
		if (l && !level) {
			rises++;
			// an assert is due unless the host's line is already high (the
			// last message committed was an assert: no deassert went out)
			if (!pending_rise && !top->sent_level) {
				pending_rise = true;
				rise_started = dev_started;   // every TLP presented up to this cycle
			}
		}
		level = l;
		top->intx = level;
		top->clk = 0;
		top->eval();
		held_sop = top->s_tlp_valid && top->s_tlp_sop && !top->s_tlp_ready;
		src.sample();
		snk.sample();
		top->clk = 1;
		top->eval();
		cyc++;
		for (auto &q = snk.rx(); !q.empty(); q.pop_front()) {
			const struct tlp &t = q.front().t;
			if (t.kind == TLP_MWR && t.addr == (ADDR & ~3ull) && t.len_dw == 1 &&
			    (t.payload[0] & EXTOLL_NQ_WIN_INTX_MSG)) {
				nmsg++;
				if (t.requester_id != 0 || t.first_be != 0xf || t.last_be != 0 ||
				    (t.payload[0] & ~1u) != EXTOLL_NQ_WIN_INTX_MSG)
					fmt_errors++;
				int l = t.payload[0] & 1;
				if (l == last_msg)
					alt_errors++;
				last_msg = l;
				if (l) {
					nassert++;
					if (pending_rise) {
						if (dev_out < rise_started)
							order_errors++;
						pending_rise = false;
					}
				} else {
					ndeassert++;
				}
				continue;
			}
			if (sent.empty() || t.kind != sent.front().kind || t.addr != sent.front().addr ||
			    t.len_dw != sent.front().len_dw ||
			    memcmp(t.payload, sent.front().payload, 4 * t.len_dw) != 0) {
				order_errors++;
			} else {
				sent.pop_front();
			}
			dev_out++;
		}
	};

	top->rst = 1;
	for (int i = 0; i < 4; i++)
		tick(0);
	top->rst = 0;

	section("random device writes, INTx levels and pulses, random back-pressure");
	for (int round = 0; round < 4000; round++) {
		// a device write now and then
		if (rng() % 8 == 0) {
			struct tlp t;
			unsigned n = 1 + rng() % 32;
			uint32_t d[64];
			for (unsigned i = 0; i < n; i++)
				d[i] = rng();
			tlp_mwr(&t, 0x100000ull + 64 * (rng() % 1000), d, n, 0xf, n > 1 ? 0xf : 0, 0x0100);
			src.send(t);
			sent.push_back(t);
		}
		src.prob = 0.3 + (rng() % 70) / 100.0;
		snk.prob = 0.3 + (rng() % 70) / 100.0;
		// level: long stretches, sometimes a one- or two-cycle pulse
		int r = rng() % 100;
		if (r < 4) {
			tick(!level);
		} else if (r < 7 && !level) {
			int pulse = 1 + (int)(rng() % 2);
			for (int k = 0; k < pulse; k++)
				tick(1);
			tick(0);
		} else {
			tick(level);
		}
	}
	// settle: the final level, everything delivered
	snk.prob = 1.0;
	src.prob = 1.0;
	for (int i = 0; i < 100000 && !src.idle(); i++)
		tick(level);
	for (int i = 0; i < 100; i++)
		tick(level);
	CHECK(sent.empty(), "every device TLP delivered (%zu left)", sent.size());
	CHECK_EQ(order_errors, 0, "device TLPs unchanged and in order, asserts behind earlier TLPs");
	CHECK_EQ(fmt_errors, 0, "message format");
	CHECK_EQ(alt_errors, 0, "messages alternate assert / deassert");
	CHECK(!pending_rise, "every rising edge answered by an assert message");
	CHECK_EQ(last_msg, level, "the last message is the final level");
	CHECK_EQ(top->sent_level, level, "sent_level");
	CHECK_EQ(snk.errors(), 0, "stream rules on the output");
	CHECK(nassert > 20 && rises >= nassert, "asserts %u for %u rising edges", nassert, rises);
	printf("  %u device TLPs, %u rising edges (pulses included), %u assert / %u deassert messages\n",
	       (unsigned)dev_out, rises, nassert, ndeassert);
	return tb_finish("tb_naa_intx", "%" PRIu64 " cycles", cyc);
}
