// SPDX-License-Identifier: Apache-2.0
//
// tb_accel: Verilator testbench of the sample accelerator (rtl/accel/accel_top).
//
// The testbench is the root complex and host memory: it enumerates the device
// with configuration requests, sizes and assigns its BARs, reads and writes
// device memory and registers, and answers the device's DMA reads from a host
// memory model (completions split at the 64-byte RCB, random delays,
// back-pressure on the device's output). The streams are driven and checked
// by the TLP driver of tlp_port.h, the checks are those of tb.h; the exit
// status is non-zero if any failed.
//
// Usage: Vaccel_top [--seed N] [--bench]
//   --bench   zero-latency host, no back-pressure: DMA bytes per cycle only
//   TB_TRACE=1 in the environment prints every TLP on s_tlp and m_tlp
//
// Build-time: -DTB_BAR64=0 for a model built with BAR64=0 (32-bit BAR2).

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vaccel_top.h"
#include "accel_hw.h"
#include "extoll_records.h"
#include "extoll_regs.h"
#include "tb.h"
#include "host_mem.h"
#include "tlp.h"
#include "tlp_port.h"
#include "verilated.h"

#ifndef TB_BAR64
#define TB_BAR64 1
#endif
#ifndef TB_DEVMEM_LOG2
#define TB_DEVMEM_LOG2 26
#endif
#ifndef TB_IMPL_LOG2
#define TB_IMPL_LOG2 22
#endif

static const uint16_t RC_ID = 0x0000;
static const uint16_t DEV_ID = 0x0300;  // bus 3, device 0, function 0
static const uint64_t BAR0_ADDR = 0xf0000000ull;
static const uint64_t BAR2_ADDR = TB_BAR64 ? 0x800000000ull : 0xc0000000ull;
static const uint64_t UR_HOST_BASE = 0xdead0000ull;     // host answers DMA reads with UR
static const uint64_t HOLE_HOST_BASE = 0xbeef0000ull;   // host never answers
static const uint64_t MSI_WINDOW = 0xfee00000ull;       // writes here are interrupts
static const uint64_t RMA_WIN = 0x7f00000000ull;         // the NAA's rma.win (RMA send job)

static uint32_t crc32_ref(const uint8_t *p, size_t n)
{
	return ~crc32_reflected(p, n);
}


using Beat = TlpBeat;   // tlp_port.h

struct MsgEvent {
	uint64_t addr;
	uint32_t data;
	uint64_t seq;  // position among all MWr the device sent
	uint64_t cycle;
};

// ---------------------------------------------------------------------------
// The simulation: DUT, host-to-device stream, device-to-host stream, host model
// ---------------------------------------------------------------------------
struct Sim {
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vaccel_top> top;
	std::mt19937_64 rng;
	uint64_t cycle = 0;
	bool bench = false;
	unsigned bench_latency = 0;  // host read latency in bench mode, cycles
	bool trace = getenv("TB_TRACE") != nullptr;

	// host -> device (s_tlp) and device -> host (m_tlp): the TLP driver of tlp_port.h
	std::unique_ptr<TlpSource<VlWide<4>>> src;
	std::unique_ptr<TlpSink<VlWide<4>>> snk;
	// the protocol checker of the link (docs/tlp-check.md): Device Control as
	// programmed (cfg_write), reset MPS 128 B / MRRS 512 B; the host model
	// asks without a read-size limit of its own
	TlpLink link{"host link"};
	unsigned snk_errors = 0;  // sink errors already counted in protocol_errors
	// delayed completions from the host model: (ready cycle, beats)
	std::multimap<uint64_t, std::vector<Beat>> sched;
	uint64_t last_sched_end = 0;

	// device -> host
	std::deque<struct tlp> rx_cpls;  // completions for the root complex's requests
	uint64_t mwr_seq = 0;
	uint64_t dma_rd_bytes = 0, dma_wr_bytes = 0;
	std::vector<MsgEvent> msgs;
	std::map<uint8_t, uint64_t> dev_tags;  // outstanding device reads: tag -> addr
	int protocol_errors = 0;
	bool split_rcb = true;   // host splits completions at 64-byte boundaries
	int max_delay = 40;      // host completion latency, cycles
	int ready_pct = 70;      // m_tlp_ready probability (percent)
	int gap_pct = 20;        // probability of an idle beat on s_tlp
	HostMem host;
	// The NAA's rma block behind the window RMA_WIN (RMA send job): every
	// write into the window is kept; a post answers with a requester record
	// written into device memory at d_rnoti after rma_delay cycles, status
	// rma_status (-1: no answer), cookie rma_cookie_xor ^ the descriptor's
	std::map<unsigned, uint64_t> rma_regs;  // window offset -> value
	unsigned rma_win_writes = 0, rma_posts = 0;
	int rma_status = EXTOLL_RMA_ST_OK;
	unsigned rma_delay = 300;
	uint16_t rma_cookie_xor = 0;
	uint64_t rma_post_cycle = 0;
	uint8_t rc_tag = 0;
	unsigned max_mwr_dw = 0;  // largest DMA write seen

	explicit Sim(uint64_t seed) : ctx(new VerilatedContext), rng(seed)
	{
		top.reset(new Vaccel_top(ctx.get()));
		src = std::make_unique<TlpSource<VlWide<4>>>("s_tlp", TLP_PINS(top.get(), s_tlp), (uint32_t)seed * 5 + 1);
		snk = std::make_unique<TlpSink<VlWide<4>>>("m_tlp", TLP_PINS(top.get(), m_tlp), (uint32_t)seed * 5 + 2);
		src->verbose = snk->verbose = trace;
		link.attach_in(*src);
		link.attach_out(*snk);
		link.set_in(128, 4096);
		top->clk = 0;
		top->rst = 1;
		top->s_tlp_valid = 0;
		top->m_tlp_ready = 0;
		for (int i = 0; i < 5; i++)
			step();
		top->rst = 0;
		step();
	}

	unsigned rnd(unsigned n) { return n ? (unsigned)(rng() % n) : 0; }

	static std::vector<Beat> to_beats(const struct tlp &t) { return tlp_to_beats(t); }

	void send(const std::vector<Beat> &v) { src->send_beats(v); }
	void send(const struct tlp &t) { src->send(t); }

	// One clock cycle.
	void step()
	{
		// scheduled completions whose time has come
		while (!sched.empty() && sched.begin()->first <= cycle) {
			send(sched.begin()->second);
			sched.erase(sched.begin());
		}
		src->prob = bench ? 1.0 : (100 - gap_pct) / 100.0;
		snk->prob = bench ? 1.0 : ready_pct / 100.0;
		src->drive();
		snk->drive();
		top->clk = 0;
		top->eval();
		src->sample();
		snk->sample();   // stream rules, reassembly and decoding of m_tlp
		top->clk = 1;
		top->eval();
		cycle++;
		protocol_errors += (int)(snk->errors() - snk_errors);
		snk_errors = snk->errors();
		for (std::deque<RxTlp> &q = snk->rx(); !q.empty(); q.pop_front())
			rx_tlp(q.front().t);
	}

	void run(int n)
	{
		for (int i = 0; i < n; i++)
			step();
	}

	// ---- device -> host
	void rx_tlp(const struct tlp &t)
	{
		if ((t.kind == TLP_MWR || t.kind == TLP_CPLD) && t.payload_dw > 64) {
			protocol_errors++;
			printf("  FAIL TLP from device with %u payload dwords\n", t.payload_dw);
			return;
		}
		switch (t.kind) {
		case TLP_CPL:
		case TLP_CPLD:
			if (t.completer_id != expect_cpl_id) {
				protocol_errors++;
				printf("  FAIL completer id %04x, expected %04x\n", t.completer_id,
				       expect_cpl_id);
			}
			rx_cpls.push_back(t);
			break;
		case TLP_MRD:
			host_mrd(t);
			break;
		case TLP_MWR:
			host_mwr(t);
			break;
		default:
			protocol_errors++;
			printf("  FAIL unexpected TLP kind from device\n");
		}
	}
	uint16_t expect_cpl_id = 0;

	// The device reads host memory: answer with completions.
	void host_mrd(const struct tlp &t)
	{
		unsigned bytes = t.len_dw * 4;  // the device always uses full byte enables
		if (t.requester_id != DEV_ID || t.len_dw > 64 ||
		    (t.addr & ~0xfffull) != ((t.addr + bytes - 1) & ~0xfffull) || t.first_be != 0xf ||
		    t.last_be != (t.len_dw == 1 ? 0 : 0xf) || dev_tags.count(t.tag)) {
			protocol_errors++;
			printf("  FAIL bad DMA read: addr=%" PRIx64 " len=%u req=%04x tag=%u be=%x/%x\n",
			       t.addr, t.len_dw, t.requester_id, t.tag, t.first_be, t.last_be);
		}
		dev_tags[t.tag] = t.addr;
		dma_rd_bytes += bytes;
		uint64_t when = cycle + (bench ? bench_latency : rnd(max_delay + 1));
		// completions of one request stay in order
		if (when < last_sched_end && rnd(2))
			when = last_sched_end;
		if ((t.addr & ~0xffffull) == HOLE_HOST_BASE) {
			dev_tags.erase(t.tag);
			return;
		}
		if ((t.addr & ~0xffffull) == UR_HOST_BASE) {
			struct tlp c;
			tlp_cpl(&c, RC_ID, TLP_CPL_UR, t.requester_id, t.tag, t.addr & 0x7f, bytes,
				nullptr, 0);
			dev_tags.erase(t.tag);
			sched.emplace(when, to_beats(c));
			return;
		}
		uint64_t a = t.addr, end = t.addr + bytes;
		while (a < end) {
			uint64_t e = end;
			if (split_rcb) {
				uint64_t b = (a | 63) + 1 + 64 * rnd(4);  // 1..4 RCBs
				if (b < e)
					e = b;
			} else {
				uint64_t b = (a | 255) + 1;
				if (b < e)
					e = b;
			}
			unsigned n = (unsigned)(e - a) / 4;
			uint32_t d[64];
			host.read(a, (uint8_t *)d, n * 4);
			struct tlp c;
			tlp_cpl(&c, RC_ID, TLP_CPL_SC, t.requester_id, t.tag, a & 0x7f,
				(uint16_t)(end - a), d, n);
			sched.emplace(when, to_beats(c));
			if (!bench)
				when += rnd(3);
			a = e;
		}
		last_sched_end = when;
		dev_tags.erase(t.tag);  // the last completion is scheduled
	}

	// The device writes host memory (DMA data or an interrupt message).
	void host_mwr(const struct tlp &t)
	{
		unsigned bytes = t.len_dw * 4;
		if (t.requester_id != DEV_ID || t.len_dw > 64 ||
		    (t.addr & ~0xfffull) != ((t.addr + bytes - 1) & ~0xfffull)) {
			protocol_errors++;
			printf("  FAIL bad DMA write: addr=%" PRIx64 " len=%u\n", t.addr, t.len_dw);
		}
		mwr_seq++;
		if (t.len_dw > max_mwr_dw)
			max_mwr_dw = t.len_dw;
		if ((t.addr & ~0xfffffull) == MSI_WINDOW || (t.addr & ~0xfffffull) == 0x1fee00000ull) {
			msgs.push_back({t.addr, t.payload[0], mwr_seq, cycle});
			return;
		}
		if ((t.addr & ~0xfffull) == RMA_WIN) {
			rma_window_write(t);
			return;
		}
		dma_wr_bytes += bytes;
		for (unsigned i = 0; i < t.len_dw; i++) {
			uint8_t be = i == 0 ? t.first_be : (i == t.len_dw - 1 ? t.last_be : 0xf);
			for (int k = 0; k < 4; k++)
				if (be & (1 << k))
					*host.byte(t.addr + 4 * i + k) = (uint8_t)(t.payload[i] >> (8 * k));
		}
	}

	// A write into the NAA's descriptor window: the staging registers, and
	// on post.go the requester record (as the RMA unit writes it through the
	// NAA's root port: one 16-byte MWr into device memory).
	void rma_window_write(const struct tlp &t)
	{
		rma_win_writes++;
		unsigned off = (unsigned)(t.addr & 0xfff);
		if (t.first_be != 0xf || t.last_be != 0xf || (off & 7) || (t.len_dw & 1)) {
			protocol_errors++;
			printf("  FAIL window write: offset 0x%x, %u dwords, be %x/%x\n", off, t.len_dw,
			       t.first_be, t.last_be);
			return;
		}
		for (unsigned i = 0; i < t.len_dw; i += 2)
			rma_regs[off + 4 * i] = t.payload[i] | (uint64_t)t.payload[i + 1] << 32;
		if (!rma_regs.count(EXTOLL_RMA_POST) || !(rma_regs[EXTOLL_RMA_POST] & 1))
			return;
		rma_regs[EXTOLL_RMA_POST] = 0;
		rma_posts++;
		rma_post_cycle = cycle;
		if (rma_status < 0)
			return;
		uint64_t d_src = rma_regs[EXTOLL_RMA_D_SRC], d_dst = rma_regs[EXTOLL_RMA_D_DST];
		uint64_t d_len = rma_regs[EXTOLL_RMA_D_LEN];
		uint64_t rec[2];
		rec[0] = (((d_len & EXTOLL_RMA_D_LEN_COOKIE_MASK) >> EXTOLL_RMA_D_LEN_COOKIE_SHIFT) ^
			  rma_cookie_xor) |
			 (uint64_t)rma_status << EXTOLL_RMA_NOTI_STATUS_SHIFT |
			 (uint64_t)EXTOLL_RMA_KIND_REQ << EXTOLL_RMA_NOTI_KIND_SHIFT |
			 (d_len & EXTOLL_RMA_D_LEN_LEN_MASK) << EXTOLL_RMA_NOTI_LEN_SHIFT;
		rec[1] = (d_src >> EXTOLL_RMA_D_SRC_NODE_SHIFT) << EXTOLL_RMA_NOTI_REQ_NODE_SHIFT |
			 (d_src >> EXTOLL_RMA_D_SRC_NODE_SHIFT) << EXTOLL_RMA_NOTI_SRC_NODE_SHIFT |
			 (d_dst >> EXTOLL_RMA_D_DST_NODE_SHIFT) << EXTOLL_RMA_NOTI_DST_NODE_SHIFT |
			 EXTOLL_RMA_NOTI_VALID_MASK;
		struct tlp w;
		tlp_mwr_bytes(&w, rma_regs[EXTOLL_RMA_D_RNOTI] & EXTOLL_RMA_D_RNOTI_ADDR_MASK,
			      (const uint8_t *)rec, 16, RC_ID);
		sched.emplace(cycle + rma_delay, to_beats(w));
	}

	// ---- root complex requests (blocking)
	// Waits for the completions of tag; returns all of them (may be several).
	std::vector<struct tlp> wait_cpls(uint8_t tag, unsigned total_bytes, int limit = 200000)
	{
		std::vector<struct tlp> out;
		for (int i = 0; i < limit; i++) {
			for (auto it = rx_cpls.begin(); it != rx_cpls.end();) {
				if (it->tag == tag) {
					out.push_back(*it);
					it = rx_cpls.erase(it);
				} else {
					++it;
				}
			}
			if (!out.empty()) {
				const struct tlp &l = out.back();
				unsigned bc = l.byte_count ? l.byte_count : 4096;
				if (l.status != TLP_CPL_SC || l.kind == TLP_CPL)
					return out;
				// last completion: its payload covers the remaining bytes
				unsigned first_off = l.lower_addr & 3;
				if (l.len_dw * 4 - first_off >= bc)
					return out;
				(void)total_bytes;
			}
			step();
		}
		CHECK(false, "timeout waiting for completion tag %u", tag);
		return out;
	}

	uint32_t cfg_read(uint16_t reg, uint8_t *status = nullptr, int type1 = 0, uint16_t id = DEV_ID)
	{
		struct tlp t;
		uint8_t tag = rc_tag++;
		tlp_cfg(&t, false, type1, id, reg, 0xf, 0, RC_ID, tag);
		send(t);
		auto c = wait_cpls(tag, 4);
		if (c.empty())
			return 0xffffffff;
		if (status)
			*status = c[0].status;
		if (c.size() != 1 || c[0].byte_count != 4 || c[0].lower_addr != 0)
			protocol_errors++;
		if (c[0].status != TLP_CPL_SC)
			return 0xffffffff;
		return c[0].kind == TLP_CPLD && c[0].len_dw == 1 ? c[0].payload[0] : 0xdeadbeef;
	}

	uint8_t cfg_write(uint16_t reg, uint32_t val, uint8_t be = 0xf, uint16_t id = DEV_ID,
			  int type1 = 0)
	{
		struct tlp t;
		uint8_t tag = rc_tag++;
		tlp_cfg(&t, true, type1, id, reg, be, val, RC_ID, tag);
		if (reg == 0x48 && (be & 3) == 3 && !type1 && id == DEV_ID)
			link.devctl((uint16_t)val);
		send(t);
		auto c = wait_cpls(tag, 4);
		if (c.empty())
			return 0xff;
		if (c.size() != 1 || c[0].kind != TLP_CPL)
			protocol_errors++;
		return c[0].status;
	}

	// Memory read of size bytes (1..4096, not crossing 4 KiB). Checks the
	// completion sequence (byte counts, lower addresses, RCB/MPS splits).
	// Returns the completion status of the first completion.
	uint8_t mem_read(uint64_t addr, unsigned size, uint8_t *out, unsigned mps = 256)
	{
		uint64_t dwa;
		unsigned ndw;
		uint8_t fbe, lbe;
		tlp_access_bes(addr, size, &dwa, &ndw, &fbe, &lbe);
		struct tlp t;
		uint8_t tag = rc_tag++;
		tlp_mrd(&t, dwa, ndw, fbe, lbe, RC_ID, tag);
		send(t);
		auto c = wait_cpls(tag, size);
		if (c.empty())
			return 0xff;
		if (c[0].status != TLP_CPL_SC) {
			if (c.size() != 1 || c[0].kind != TLP_CPL)
				protocol_errors++;
			return c[0].status;
		}
		// reassemble and check
		unsigned expect_bc = size;
		uint64_t cur = addr;  // byte address of the next expected byte
		unsigned got = 0;
		for (size_t i = 0; i < c.size(); i++) {
			const struct tlp &p = c[i];
			unsigned bc = p.byte_count ? p.byte_count : 4096;
			if (p.kind != TLP_CPLD || bc != expect_bc || p.lower_addr != (cur & 0x7f) ||
			    p.len_dw * 4 > mps) {
				protocol_errors++;
				printf("  FAIL completion %zu: bc=%u (exp %u) la=0x%x (exp 0x%x) len=%u\n",
				       i, bc, expect_bc, p.lower_addr, (unsigned)(cur & 0x7f), p.len_dw);
				return 0xfe;
			}
			unsigned off = cur & 3;
			unsigned nbytes = p.len_dw * 4 - off;
			if (nbytes > expect_bc)
				nbytes = expect_bc;
			// a completion that is not the last must end on a 64-byte boundary
			if (i + 1 < c.size() && ((cur + nbytes) & 63) != 0) {
				protocol_errors++;
				printf("  FAIL completion %zu ends off the RCB\n", i);
			}
			memcpy(out + got, (const uint8_t *)p.payload + off, nbytes);
			got += nbytes;
			cur += nbytes;
			expect_bc -= nbytes;
		}
		if (got != size) {
			protocol_errors++;
			printf("  FAIL read %u of %u bytes\n", got, size);
		}
		return TLP_CPL_SC;
	}

	void mem_write(uint64_t addr, unsigned size, const uint8_t *in)
	{
		struct tlp t;
		tlp_mwr_bytes(&t, addr, in, size, RC_ID);
		send(t);
	}

	uint32_t rd32(uint64_t a)
	{
		uint32_t v = 0xffffffff;
		mem_read(a, 4, (uint8_t *)&v);
		return v;
	}
	uint64_t rd64(uint64_t a)
	{
		uint64_t v = ~0ull;
		mem_read(a, 8, (uint8_t *)&v);
		return v;
	}
	void wr32(uint64_t a, uint32_t v) { mem_write(a, 4, (uint8_t *)&v); }
	void wr64(uint64_t a, uint64_t v) { mem_write(a, 8, (uint8_t *)&v); }
	// wait until the transmit queue is empty (posted writes delivered)
	void flush()
	{
		while (!src->idle())
			step();
		run(4);
	}
};

// ---------------------------------------------------------------------------
// Test steps
// ---------------------------------------------------------------------------
static uint32_t reg(Sim &s, unsigned off) { return s.rd32(BAR0_ADDR + off); }
static void wreg(Sim &s, unsigned off, uint32_t v) { s.wr32(BAR0_ADDR + off, v); }

static int check_protocol(Sim &s, const char *what)
{
	CHECK(s.protocol_errors == 0, "%s: %d protocol errors", what, s.protocol_errors);
	int e = s.protocol_errors;
	s.protocol_errors = 0;
	return e;
}

static void test_config(Sim &s)
{
	section("config space: identity, capture of bus/device, capability chain");
	s.expect_cpl_id = 0x0000;  // not captured yet
	uint32_t id = s.cfg_read(0x00);
	CHECK(id == 0x01001ee7, "vendor/device 0x%08x", id);
	printf("  vendor:device = %04x:%04x\n", id & 0xffff, id >> 16);
	s.expect_cpl_id = DEV_ID;  // the CfgWr0's own completion carries the captured ID
	uint8_t st = s.cfg_write(0x04, 0x0000, 0x3);
	CHECK(st == TLP_CPL_SC, "CfgWr0 status %u", st);
	uint32_t cls = s.cfg_read(0x08);
	CHECK(cls == 0x12000001, "class/rev 0x%08x", cls);
	uint32_t hdr = s.cfg_read(0x0c);
	CHECK(((hdr >> 16) & 0x7f) == 0, "header type 0x%02x", (hdr >> 16) & 0xff);
	uint32_t cmdsta = s.cfg_read(0x04);
	CHECK(cmdsta & (1u << 20), "status capability list bit");
	uint32_t intr = s.cfg_read(0x3c);
	CHECK(((intr >> 8) & 0xff) == 1, "interrupt pin %u", (intr >> 8) & 0xff);
	printf("  completer id after CfgWr0 = %04x, class 0x%06x, INTA\n", DEV_ID, cls >> 8);

	unsigned ptr = s.cfg_read(0x34) & 0xff;
	std::vector<unsigned> ids, offs;
	for (int n = 0; ptr && n < 16; n++) {
		uint32_t h = s.cfg_read(ptr);
		ids.push_back(h & 0xff);
		offs.push_back(ptr);
		ptr = (h >> 8) & 0xfc;
	}
	CHECK(ids.size() == 3 && ids[0] == 0x10 && ids[1] == 0x05 && ids[2] == 0x11,
	      "capability chain (%zu entries)", ids.size());
	printf("  capabilities:");
	for (size_t i = 0; i < ids.size(); i++)
		printf(" 0x%02x@0x%02x", ids[i], offs[i]);
	printf("\n");
	uint32_t pcie = s.cfg_read(0x40);
	CHECK(((pcie >> 16) & 0xf) == 2 && ((pcie >> 20) & 0xf) == 0, "PCIe cap v2 endpoint 0x%08x",
	      pcie);
	uint32_t devcap = s.cfg_read(0x44);
	CHECK((devcap & 7) == 1, "DevCap MPS 256");
	uint32_t msi = s.cfg_read(0x80);
	CHECK(((msi >> 16) & 0x180) == 0x180 && ((msi >> 17) & 7) == 2, "MSI 64-bit/PVM/4 vec 0x%08x",
	      msi);
	uint32_t msix = s.cfg_read(0xa0);
	CHECK(((msix >> 16) & 0x7ff) == 3, "MSI-X table size 4");
	CHECK(s.cfg_read(0xa4) == 0x800 && s.cfg_read(0xa8) == 0xc00, "MSI-X table/PBA in BAR0");
	uint32_t ext = s.cfg_read(0x100);
	CHECK((ext & 0xffff) == 0x0003 && (ext >> 20) == 0, "ext cap 0x100 DSN, next 0 (0x%08x)",
	      ext);
	uint64_t dsn = s.cfg_read(0x104) | ((uint64_t)s.cfg_read(0x108) << 32);
	printf("  extended capability at 0x100: id 0x%04x (DSN %016" PRIx64 "), next 0x%03x\n",
	       ext & 0xffff, dsn, ext >> 20);
	CHECK(s.cfg_read(0x10c) == 0, "0x10c reads 0");

	uint8_t stat = 0;
	s.cfg_read(0x00, &stat, 0, DEV_ID | 1);
	CHECK(stat == TLP_CPL_UR, "CfgRd0 to function 1: UR (status %u)", stat);
	s.cfg_read(0x00, &stat, 1, 0x0400);
	CHECK(stat == TLP_CPL_UR, "CfgRd1: UR (status %u)", stat);
	st = s.cfg_write(0x10, 0x12345678, 0xf, DEV_ID | 2);
	CHECK(st == TLP_CPL_UR, "CfgWr0 to function 2: UR");
	check_protocol(s, "config");
}

static void test_bars(Sim &s)
{
	section("BAR sizing and assignment");
	s.cfg_write(0x10, 0xffffffff);
	uint32_t b0 = s.cfg_read(0x10);
	CHECK(b0 == 0xfffff000, "BAR0 sizing 0x%08x", b0);
	s.cfg_write(0x18, 0xffffffff);
	s.cfg_write(0x1c, 0xffffffff);
	uint32_t b2 = s.cfg_read(0x18), b3 = s.cfg_read(0x1c);
	uint64_t mask2 = TB_BAR64 ? ((uint64_t)b3 << 32 | (b2 & ~0xfu)) : (0xffffffff00000000ull | (b2 & ~0xfu));
	uint64_t size2 = ~mask2 + 1;
	if (TB_BAR64) {
		CHECK((b2 & 0xf) == 0xc, "BAR2 64-bit prefetchable (0x%x)", b2 & 0xf);
		CHECK(b3 == 0xffffffff, "BAR3 upper sizing 0x%08x", b3);
	} else {
		CHECK((b2 & 0xf) == 0x0, "BAR2 32-bit non-prefetchable (0x%x)", b2 & 0xf);
		CHECK(b3 == 0, "BAR3 unimplemented");
	}
	CHECK(size2 == (1ull << TB_DEVMEM_LOG2), "BAR2 size %" PRIu64, size2);
	printf("  BAR0: %u bytes mem32; BAR2: %" PRIu64 " bytes %s\n", ~(b0 & ~0xfu) + 1, size2,
	       TB_BAR64 ? "mem64 prefetchable (BAR2/3 pair)" : "mem32 non-prefetchable");
	for (unsigned r : {0x14u, 0x20u, 0x24u, 0x30u}) {
		s.cfg_write(r, 0xffffffff);
		CHECK(s.cfg_read(r) == 0, "unimplemented BAR 0x%02x reads 0", r);
	}
	s.cfg_write(0x10, (uint32_t)BAR0_ADDR);
	s.cfg_write(0x18, (uint32_t)BAR2_ADDR);
	s.cfg_write(0x1c, (uint32_t)(BAR2_ADDR >> 32));
	CHECK(s.cfg_read(0x10) == (uint32_t)BAR0_ADDR, "BAR0 assigned");
	CHECK((s.cfg_read(0x18) & ~0xfu) == (uint32_t)BAR2_ADDR, "BAR2 assigned");
	printf("  assigned BAR0=0x%" PRIx64 " BAR2=0x%" PRIx64 "\n", BAR0_ADDR, BAR2_ADDR);

	uint8_t v[4];
	uint8_t st = s.mem_read(BAR0_ADDR, 4, v);
	CHECK(st == TLP_CPL_UR, "MRd with Memory Space disabled: UR (%u)", st);
	s.cfg_write(0x04, 0x0006, 0x3);  // memory space + bus master
	s.cfg_write(0x48, 0x2830, 0x3);  // MPS 256, MRRS 512
	uint32_t dc = s.cfg_read(0x48);
	CHECK((dc & 0xffff) == 0x2830, "device control 0x%04x", dc & 0xffff);
	CHECK(dc & (1u << 19), "UR detected set in device status");
	s.cfg_write(0x48, 0x00080000, 0x4);  // RW1C
	CHECK(!(s.cfg_read(0x48) & (1u << 19)), "UR detected cleared (RW1C)");
	check_protocol(s, "bars");
}

static void test_regs(Sim &s)
{
	section("BAR0 registers");
	uint32_t id = reg(s, ACCEL_REG_ID), ver = reg(s, ACCEL_REG_VERSION), caps = reg(s, ACCEL_REG_CAPS);
	CHECK(id == ACCEL_MAGIC, "ID 0x%08x", id);
	printf("  ID 0x%08x version 0x%08x caps 0x%08x\n", id, ver, caps);
	CHECK((caps & 0xff) == TB_DEVMEM_LOG2 && ((caps >> 8) & 0xff) == TB_IMPL_LOG2, "caps");
	wreg(s, ACCEL_REG_SCRATCH_LO, 0x11223344);
	CHECK(reg(s, ACCEL_REG_SCRATCH_LO) == 0x11223344, "scratch 32-bit");
	s.wr64(BAR0_ADDR + ACCEL_REG_SCRATCH_LO, 0x0123456789abcdefull);
	uint64_t v = s.rd64(BAR0_ADDR + ACCEL_REG_SCRATCH_LO);
	CHECK(v == 0x0123456789abcdefull, "scratch 64-bit 0x%016" PRIx64, v);
	uint8_t b = 0x5a;
	s.mem_write(BAR0_ADDR + ACCEL_REG_SCRATCH_LO + 1, 1, &b);
	CHECK(reg(s, ACCEL_REG_SCRATCH_LO) == 0x89ab5aef, "scratch byte write");
	uint64_t c1 = s.rd64(BAR0_ADDR + ACCEL_REG_CYCLES), c2 = s.rd64(BAR0_ADDR + ACCEL_REG_CYCLES);
	CHECK(c2 > c1, "cycle counter runs");
	// a 16-dword read over the register block
	uint8_t blk[64];
	CHECK(s.mem_read(BAR0_ADDR, 64, blk) == TLP_CPL_SC, "64-byte register read");
	uint32_t w0;
	memcpy(&w0, blk, 4);
	CHECK(w0 == ACCEL_MAGIC, "block read ID");
	// MSI-X table: entries masked after reset, writable
	CHECK(reg(s, ACCEL_MSIX_TABLE + 12) == 1, "MSI-X vector 0 masked at reset");
	wreg(s, ACCEL_MSIX_TABLE + 16 + 8, 0xcafe);
	CHECK(reg(s, ACCEL_MSIX_TABLE + 16 + 8) == 0xcafe, "MSI-X table entry writable");
	check_protocol(s, "regs");
}

static std::vector<uint8_t> g_shadow;  // device memory shadow (backed part)

static void test_devmem(Sim &s)
{
	section("device memory: 1/2/4/8/256-byte and random accesses");
	const size_t impl = 1ull << TB_IMPL_LOG2;
	g_shadow.assign(impl, 0);
	// known contents in the first 64 KiB
	const unsigned span = 65536;
	for (unsigned off = 0; off < span; off += 256) {
		uint8_t d[256];
		for (int i = 0; i < 256; i++)
			d[i] = (uint8_t)s.rnd(256);
		s.mem_write(BAR2_ADDR + off, 256, d);
		memcpy(&g_shadow[off], d, 256);
	}
	int bad = 0;
	for (unsigned off = 0; off < span; off += 4096 - 256) {
		uint8_t d[256];
		s.mem_read(BAR2_ADDR + off, 256, d);
		bad += memcmp(d, &g_shadow[off], 256) != 0;
	}
	CHECK(bad == 0, "256-byte writes then reads (%d mismatches)", bad);
	int nsz = 0;
	for (unsigned size : {1u, 2u, 4u, 8u}) {
		for (unsigned align = 0; align < 8; align += size) {
			uint64_t off = 0x2000 + 16 * size + align;
			uint8_t w[8], r[8];
			for (unsigned i = 0; i < size; i++)
				w[i] = (uint8_t)s.rnd(256);
			s.mem_write(BAR2_ADDR + off, size, w);
			memcpy(&g_shadow[off], w, size);
			s.mem_read(BAR2_ADDR + off, size, r);
			CHECK(memcmp(r, w, size) == 0, "%u-byte access at +%u", size, align);
			uint8_t around[16];
			s.mem_read(BAR2_ADDR + (off & ~7ull) - 4, 16, around);
			CHECK(memcmp(around, &g_shadow[(off & ~7ull) - 4], 16) == 0,
			      "neighbours of %u-byte write untouched", size);
			nsz++;
		}
	}
	printf("  %d naturally aligned 1/2/4/8-byte accesses checked\n", nsz);
	// 256 bytes at an odd dword; 4 KiB read (split completions)
	{
		uint8_t d[256], r[256];
		for (int i = 0; i < 256; i++)
			d[i] = (uint8_t)(i * 7 + 3);
		s.mem_write(BAR2_ADDR + 0x3104, 252, d);
		memcpy(&g_shadow[0x3104], d, 252);
		s.mem_read(BAR2_ADDR + 0x3104, 252, r);
		CHECK(memcmp(r, d, 252) == 0, "252 bytes at +0x3104");
		std::vector<uint8_t> big(4096);
		s.mem_read(BAR2_ADDR + 0x4000, 4096, big.data());
		CHECK(memcmp(big.data(), &g_shadow[0x4000], 4096) == 0, "4096-byte read (16 completions)");
		s.mem_read(BAR2_ADDR + 0x4013, 3000, big.data());
		CHECK(memcmp(big.data(), &g_shadow[0x4013], 3000) == 0, "3000-byte read at +0x4013");
	}
	// random accesses (any byte offset, 1..512 bytes, within a 4 KiB page)
	int mism = 0, n = 600;
	for (int i = 0; i < n; i++) {
		unsigned size = s.rnd(3) == 0 ? 1 + s.rnd(8) : 1 + s.rnd(s.rnd(2) ? 256 : 512);
		uint64_t off = s.rnd(span - 4096);
		if ((off & 0xfff) + size > 4096)
			off -= (off & 0xfff) + size - 4096;
		bool wr = s.rnd(2);
		if (wr && (off & 3) + size > 256)
			size = 256 - (off & 3);  // writes up to Max_Payload_Size (64 dwords)
		std::vector<uint8_t> buf(size);
		if (wr) {
			for (auto &x : buf)
				x = (uint8_t)s.rnd(256);
			s.mem_write(BAR2_ADDR + off, size, buf.data());
			memcpy(&g_shadow[off], buf.data(), size);
		} else {
			s.mem_read(BAR2_ADDR + off, size, buf.data());
			if (memcmp(buf.data(), &g_shadow[off], size) != 0)
				mism++;
		}
	}
	CHECK(mism == 0, "random accesses: %d mismatches", mism);
	printf("  %d random reads/writes (1..512 bytes, any alignment) against a shadow copy\n", n);
	// aliasing above the backed size
	if (TB_DEVMEM_LOG2 > TB_IMPL_LOG2) {
		uint32_t v = s.rd32(BAR2_ADDR + impl + 0x100);
		uint32_t e;
		memcpy(&e, &g_shadow[0x100], 4);
		CHECK(v == e, "BAR2 offset above the backed size aliases (wraps)");
	}
	check_protocol(s, "devmem");
}

static void test_ordering_ur(Sim &s)
{
	section("ordering and unsupported requests");
	// a read queued right before a write to the same address sees the old data
	uint32_t oldv, newv = 0xa5a5a5a5;
	memcpy(&oldv, &g_shadow[0x500], 4);
	{
		struct tlp t;
		uint8_t tag = s.rc_tag++;
		tlp_mrd(&t, BAR2_ADDR + 0x500, 1, 0xf, 0, RC_ID, tag);
		s.send(t);
		uint32_t d = newv;
		tlp_mwr(&t, BAR2_ADDR + 0x500, &d, 1, 0xf, 0, RC_ID);
		s.send(t);
		auto c = s.wait_cpls(tag, 4);
		CHECK(!c.empty() && c[0].payload[0] == oldv, "read not passed by the later write");
		memcpy(&g_shadow[0x500], &newv, 4);
		CHECK(s.rd32(BAR2_ADDR + 0x500) == newv, "then the write is visible");
	}
	{
		// zero-length read: one dword, byte count 1
		struct tlp t;
		uint8_t tag = s.rc_tag++;
		tlp_mrd(&t, BAR2_ADDR + 0x40, 1, 0x0, 0, RC_ID, tag);
		s.send(t);
		auto c = s.wait_cpls(tag, 1);
		CHECK(c.size() == 1 && c[0].kind == TLP_CPLD && c[0].byte_count == 1 && c[0].len_dw == 1,
		      "zero-length read: CplD, 1 dword, byte count 1");
	}
	uint8_t v[8];
	uint8_t st = s.mem_read(0x12340000, 4, v);
	CHECK(st == TLP_CPL_UR, "MRd outside the BARs: UR (%u)", st);
	st = s.mem_read(0x1234500000ull, 8, v);
	CHECK(st == TLP_CPL_UR, "MRd64 outside the BARs: UR");
	s.wr32(0x12340000, 1);  // posted, silently dropped
	// IO read (Fmt 000 Type 00010): UR
	{
		Beat b{};
		uint8_t tag = s.rc_tag++;
		b.dw[0] = (0x02u << 24) | 1;
		b.dw[1] = ((uint32_t)RC_ID << 16) | (tag << 8) | 0xf;
		b.dw[2] = 0x1000;
		b.keep = 7;
		b.sop = b.eop = true;
		s.send(std::vector<Beat>{b});
		auto c = s.wait_cpls(tag, 4);
		CHECK(c.size() == 1 && c[0].status == TLP_CPL_UR && c[0].kind == TLP_CPL, "IO read: UR");
		// a message (posted): no completion, nothing breaks
		Beat m{};
		m.dw[0] = (0x1u << 29) | (0x14u << 24);
		m.dw[1] = (uint32_t)RC_ID << 16 | 0x7f;
		m.keep = 0xf;
		m.sop = m.eop = true;
		s.send(std::vector<Beat>{m});
		// an atomic FetchAdd (non-posted with data): UR after its payload
		Beat a0{}, a1{};
		tag = s.rc_tag++;
		a0.dw[0] = (0x2u << 29) | (0x0cu << 24) | 1;
		a0.dw[1] = ((uint32_t)RC_ID << 16) | (tag << 8) | 0xf;
		a0.dw[2] = (uint32_t)BAR0_ADDR;
		a0.keep = 7;
		a0.sop = true;
		a1.dw[0] = 1;
		a1.keep = 1;
		a1.eop = true;
		s.send(std::vector<Beat>{a0, a1});
		c = s.wait_cpls(tag, 4);
		CHECK(c.size() == 1 && c[0].status == TLP_CPL_UR, "AtomicOp FetchAdd: UR");
	}
	CHECK(s.rd32(BAR2_ADDR + 0x500) == newv, "device still serves after bad requests");
	CHECK(s.cfg_read(0x48) & (1u << 19), "UR detected flag");
	check_protocol(s, "ordering/ur");
}

// Polls JOB_STATUS every `every` cycles (each poll costs a completion on m_tlp).
static uint32_t wait_job(Sim &s, int limit = 400000, int every = 20)
{
	uint32_t st = 0;
	int polls = 0;
	for (int i = 0; i < limit; i++) {
		st = reg(s, ACCEL_REG_JOB_STATUS);
		polls++;
		if (!(st & ACCEL_JOB_BUSY))
			break;
		s.run(every);
	}
	(void)polls;
	return st;
}

static void start_job(Sim &s, unsigned op, uint64_t host, uint32_t dev, uint32_t len)
{
	s.wr64(BAR0_ADDR + ACCEL_REG_JOB_HOST_LO, host);
	wreg(s, ACCEL_REG_JOB_DEV_OFF, dev);
	wreg(s, ACCEL_REG_JOB_LEN, len);
	wreg(s, ACCEL_REG_JOB_CTRL, ACCEL_JOB_START | op);
}

static void test_dma(Sim &s)
{
	section("DMA host->device and device->host, compute (CRC-32)");
	// host buffer above 4 GiB (64-bit MRd) and below (32-bit)
	for (int pass = 0; pass < 2; pass++) {
		uint64_t hsrc = pass ? 0x40001040ull : 0x123450040ull;
		uint32_t dev = pass ? 0x20000 : 0x10004;
		uint32_t len = pass ? 4096 + 12 : 8192 + 64;
		std::vector<uint8_t> src(len);
		for (auto &x : src)
			x = (uint8_t)s.rnd(256);
		s.host.write(hsrc, src.data(), len);
		uint32_t cnt0 = reg(s, ACCEL_REG_JOB_COUNT);
		start_job(s, ACCEL_OP_H2D, hsrc, dev, len);
		uint32_t st = reg(s, ACCEL_REG_JOB_STATUS);
		CHECK(st & ACCEL_JOB_BUSY, "status reads busy during the job (0x%x)", st);
		st = wait_job(s);
		CHECK((st & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR | ACCEL_JOB_BUSY)) == ACCEL_JOB_DONE,
		      "H2D done without error (status 0x%x)", st);
		CHECK(reg(s, ACCEL_REG_JOB_COUNT) == cnt0 + 1, "completion counter +1");
		std::vector<uint8_t> got(len);
		// read back in requests of up to 256 B that do not cross 4 KiB (PCIe 2.2.7)
		for (uint32_t o = 0, n; o < len; o += n) {
			uint64_t a = BAR2_ADDR + dev + o;
			n = len - o < 256 ? len - o : 256;
			if ((a & 0xfff) + n > 0x1000)
				n = (unsigned)(0x1000 - (a & 0xfff));
			s.mem_read(a, n, &got[o]);
		}
		memcpy(&g_shadow[dev], src.data(), len);
		CHECK(got == src, "H2D %u bytes from host 0x%" PRIx64 " (read back via BAR2)", len, hsrc);
		printf("  H2D %u bytes host 0x%" PRIx64 " -> dev 0x%x in %u cycles\n", len, hsrc, dev,
		       reg(s, ACCEL_REG_JOB_CYCLES));

		uint64_t hdst = pass ? 0x40100000ull : 0x200000f00ull;
		start_job(s, ACCEL_OP_D2H, hdst, dev, len);
		st = wait_job(s);
		CHECK((st & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR)) == ACCEL_JOB_DONE, "D2H done (0x%x)", st);
		std::vector<uint8_t> back(len);
		s.host.read(hdst, back.data(), len);
		CHECK(back == src, "D2H %u bytes to host 0x%" PRIx64, len, hdst);
		printf("  D2H %u bytes dev 0x%x -> host 0x%" PRIx64 " in %u cycles\n", len, dev, hdst,
		       reg(s, ACCEL_REG_JOB_CYCLES));
	}
	// Max_Payload_Size 128 B, Max_Read_Request_Size 128 B
	{
		s.cfg_write(0x48, 0x0810, 0x3);
		uint8_t buf[1000];
		s.mem_read(BAR2_ADDR + 0x10008, 1000, buf, 128);
		CHECK(memcmp(buf, &g_shadow[0x10008], 1000) == 0, "1000-byte read, MPS 128: data");
		s.max_mwr_dw = 0;
		start_job(s, ACCEL_OP_D2H, 0x500000, 0x10008, 1000);
		uint32_t st = wait_job(s);
		std::vector<uint8_t> back(1000);
		s.host.read(0x500000, back.data(), 1000);
		CHECK(!(st & ACCEL_JOB_ERROR) && memcmp(back.data(), &g_shadow[0x10008], 1000) == 0 &&
			      s.max_mwr_dw == 32,
		      "D2H with MPS 128: writes of <= 128 B (largest %u B)", s.max_mwr_dw * 4);
		start_job(s, ACCEL_OP_H2D, 0x500000, 0x30000, 1000);
		st = wait_job(s);
		memcpy(&g_shadow[0x30000], back.data(), 1000);
		s.mem_read(BAR2_ADDR + 0x30000, 1000, buf, 128);
		CHECK(!(st & ACCEL_JOB_ERROR) && memcmp(buf, back.data(), 1000) == 0,
		      "H2D with MRRS 128");
		s.cfg_write(0x48, 0x2830, 0x3);
		printf("  MPS/MRRS 128 B: completions, DMA writes and reads sized accordingly\n");
	}
	// CRC-32 over device memory
	for (uint32_t len : {4u, 8u, 12u, 1000u, 65536u - 4}) {
		uint32_t off = len == 4 ? 0x10004 : 0x4;
		start_job(s, ACCEL_OP_CRC, 0, off, len);
		uint32_t st = wait_job(s);
		uint32_t r = reg(s, ACCEL_REG_RESULT_LO);
		uint32_t e = crc32_ref(&g_shadow[off], len);
		CHECK((st & ACCEL_JOB_ERROR) == 0 && r == e, "CRC-32 of %u bytes: 0x%08x (C: 0x%08x)",
		      len, r, e);
	}
	printf("  CRC-32 job checked against a C crc32 for 5 ranges\n");
	// errors
	struct {
		unsigned op;
		uint64_t host;
		uint32_t dev, len, code;
		const char *what;
	} errs[] = {
		{ACCEL_OP_H2D, 0x1000, 0, 0, ACCEL_ERR_PARAM, "length 0"},
		{ACCEL_OP_D2H, 0x1002, 0, 64, ACCEL_ERR_PARAM, "unaligned host address"},
		{ACCEL_OP_CRC, 0, (1u << TB_IMPL_LOG2) - 8, 16, ACCEL_ERR_PARAM, "range past device memory"},
		{9, 0, 0, 64, ACCEL_ERR_OPCODE, "unknown opcode"},
		{ACCEL_OP_H2D, UR_HOST_BASE, 0, 1024, ACCEL_ERR_CPL, "host answers UR"},
	};
	for (auto &e : errs) {
		start_job(s, e.op, e.host, e.dev, e.len);
		uint32_t st = wait_job(s);
		CHECK((st & ACCEL_JOB_ERROR) && ((st >> 4) & 0xf) == e.code,
		      "job error: %s -> code %u (status 0x%x)", e.what, (st >> 4) & 0xf, st);
	}
	CHECK(s.cfg_read(0x04) & (1u << 29), "Received Master Abort after a UR completion");
	s.cfg_write(0x04, 0x20000000, 0x8);
	CHECK(!(s.cfg_read(0x04) & (1u << 29)), "Received Master Abort cleared");
	// completion timeout (the model is built with a short timeout)
	start_job(s, ACCEL_OP_H2D, HOLE_HOST_BASE, 0x8000, 512);
	uint32_t st = wait_job(s);
	CHECK((st & ACCEL_JOB_ERROR) && ((st >> 4) & 0xf) == ACCEL_ERR_TIMEOUT,
	      "completion timeout -> error code %u", (st >> 4) & 0xf);
	// bus master disabled
	s.cfg_write(0x04, 0x0002, 0x3);
	start_job(s, ACCEL_OP_D2H, 0x1000, 0, 64);
	st = wait_job(s);
	CHECK(((st >> 4) & 0xf) == ACCEL_ERR_NO_BME, "DMA with bus master off -> error %u",
	      (st >> 4) & 0xf);
	s.cfg_write(0x04, 0x0006, 0x3);
	wreg(s, ACCEL_REG_IRQ_STATUS, 3);
	check_protocol(s, "dma");
}

// The RMA send job (docs/accelerator.md "RMA send"): the descriptor the
// device writes into the NAA's window, checked field by field against the
// NIC's register layout (extoll_regs.h); completion by the requester record
// in device memory; every record status and the missing record as job
// errors; parameter errors with nothing written to the window.
static void rma_job(Sim &s, uint32_t off, uint32_t len, uint16_t node, uint64_t dst, uint16_t cookie,
		    uint32_t rnoti, uint64_t cnoti)
{
	s.wr64(BAR0_ADDR + ACCEL_REG_JOB_CNOTI_LO, cnoti);
	wreg(s, ACCEL_REG_JOB_RMA, node | (uint32_t)cookie << 16);
	wreg(s, ACCEL_REG_JOB_RNOTI, rnoti);
	start_job(s, ACCEL_OP_RMA, dst, off, len);
}

static unsigned job_err(uint32_t st) { return ACCEL_JOB_ERR_CODE(st); }

static void test_rma(Sim &s)
{
	section("RMA send: descriptor through the NAA's window, requester record, errors");
	const uint16_t self = 3;
	s.wr64(BAR0_ADDR + ACCEL_REG_RMA_WIN_LO, RMA_WIN | 0x123);   // bits 11:0 ignored
	wreg(s, ACCEL_REG_RMA_NODE, self);
	CHECK(s.rd64(BAR0_ADDR + ACCEL_REG_RMA_WIN_LO) == (RMA_WIN | 0x123) &&
	      reg(s, ACCEL_REG_RMA_NODE) == self, "RMA_WIN and RMA_NODE read back");
	const uint64_t bar2 = BAR2_ADDR;
	const uint32_t rnoti = 0x20000;
	// a stale record with this job's cookie and valid set: the job clears it first
	uint64_t stale[2] = {0xbeef, EXTOLL_RMA_NOTI_VALID_MASK};
	s.mem_write(bar2 + rnoti, 16, (const uint8_t *)stale);
	s.flush();
	uint32_t cnt0 = reg(s, ACCEL_REG_JOB_COUNT);
	uint64_t mwr0 = s.dma_wr_bytes;
	s.rma_delay = 500;
	rma_job(s, 0x1000, 65536, 9, 0x123450000ull, 0xbeef, rnoti, 0x2000010ull);
	uint64_t t0 = s.cycle;
	uint32_t st = wait_job(s);
	CHECK((st & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR | ACCEL_JOB_BUSY)) == ACCEL_JOB_DONE &&
	      ACCEL_JOB_LAST_OP(st) == ACCEL_OP_RMA, "RMA send done without error (status 0x%x)", st);
	CHECK(s.rma_posts == 1 && s.rma_win_writes == 1, "one window write, one post (%u writes, %u posts)",
	      s.rma_win_writes, s.rma_posts);
	CHECK(s.cycle - t0 > s.rma_delay, "the job waited for the record, not the stale one (%" PRIu64 " cycles)",
	      s.cycle - t0);
	CHECK(s.dma_wr_bytes == mwr0, "nothing of the window passed to host memory");
	auto &r = s.rma_regs;
	CHECK(r[EXTOLL_RMA_D_SRC] == ((uint64_t)self << EXTOLL_RMA_D_SRC_NODE_SHIFT | (bar2 + 0x1000)),
	      "d_src = {own node, BAR2 + dev_off} (0x%016" PRIx64 ")", r[EXTOLL_RMA_D_SRC]);
	CHECK(r[EXTOLL_RMA_D_DST] == ((uint64_t)9 << EXTOLL_RMA_D_DST_NODE_SHIFT | 0x123450000ull),
	      "d_dst = {node 9, 0x123450000} (0x%016" PRIx64 ")", r[EXTOLL_RMA_D_DST]);
	CHECK(r[EXTOLL_RMA_D_LEN] == (65536 | (uint64_t)0xbeef << EXTOLL_RMA_D_LEN_COOKIE_SHIFT |
				      EXTOLL_RMA_D_LEN_NOTI_REQ_MASK | EXTOLL_RMA_D_LEN_NOTI_CMP_MASK),
	      "d_len = len, cookie, noti_req, noti_cmp (0x%016" PRIx64 ")", r[EXTOLL_RMA_D_LEN]);
	CHECK(r[EXTOLL_RMA_D_RNOTI] == bar2 + rnoti, "d_rnoti = BAR2 + JOB_RNOTI (0x%" PRIx64 ")",
	      r[EXTOLL_RMA_D_RNOTI]);
	CHECK(r[EXTOLL_RMA_D_CNOTI] == 0x2000010ull, "d_cnoti = JOB_CNOTI (0x%" PRIx64 ")",
	      r[EXTOLL_RMA_D_CNOTI]);
	CHECK(s.rd64(BAR0_ADDR + ACCEL_REG_RESULT_LO) == 65536 && reg(s, ACCEL_REG_JOB_COUNT) == cnt0 + 1,
	      "RESULT = 65536 bytes, JOB_COUNT + 1");
	uint64_t rec[2];
	s.mem_read(bar2 + rnoti, 16, (uint8_t *)rec);
	CHECK((rec[1] & EXTOLL_RMA_NOTI_VALID_MASK) && (rec[0] & 0xffff) == 0xbeef,
	      "the requester record in device memory (0x%016" PRIx64 " 0x%016" PRIx64 ")", rec[1], rec[0]);

	// no completer record: noti_cmp clear; rnoti at the end of the backed memory
	const uint32_t top = (1u << TB_IMPL_LOG2) - 16;
	rma_job(s, 0, 256, 4, 0x40000000ull, 7, top, 0);
	st = wait_job(s);
	CHECK((st & (ACCEL_JOB_ERROR | ACCEL_JOB_BUSY)) == 0 && !(r[EXTOLL_RMA_D_LEN] & EXTOLL_RMA_D_LEN_NOTI_CMP_MASK) &&
	      r[EXTOLL_RMA_D_RNOTI] == bar2 + top,
	      "JOB_CNOTI 0: no completer record asked; record at the top of memory (status 0x%x)", st);

	// the record's status is the job's error
	struct { int status; unsigned err; const char *name; } es[] = {
		{EXTOLL_RMA_ST_RD_ERR, ACCEL_ERR_RMA_RD, "RD_ERR"},
		{EXTOLL_RMA_ST_BAD_DESC, ACCEL_ERR_RMA_BAD, "BAD_DESC"},
		{EXTOLL_RMA_ST_WR_ERR, ACCEL_ERR_RMA_WR, "WR_ERR"},
	};
	for (auto &e : es) {
		s.rma_status = e.status;
		rma_job(s, 0x100, 4096, 5, 0x10000, 0x4000 + e.err, rnoti, 0);
		st = wait_job(s);
		CHECK((st & ACCEL_JOB_ERROR) && job_err(st) == e.err && s.rd64(BAR0_ADDR + ACCEL_REG_RESULT_LO) == 0,
		      "record status %s -> job error %u (status 0x%x)", e.name, e.err, st);
	}
	// no record at all, and a record of another cookie: ERR_RMA_TMO
	s.rma_status = -1;
	rma_job(s, 0x100, 4096, 5, 0x10000, 1, rnoti, 0);
	st = wait_job(s, 400000, 200);
	CHECK((st & ACCEL_JOB_ERROR) && job_err(st) == ACCEL_ERR_RMA_TMO,
	      "no requester record: ERR_RMA_TMO (status 0x%x, %u cycles)", st, reg(s, ACCEL_REG_JOB_CYCLES));
	s.rma_status = EXTOLL_RMA_ST_OK;
	s.rma_cookie_xor = 0x8000;
	rma_job(s, 0x100, 4096, 5, 0x10000, 2, rnoti, 0);
	st = wait_job(s, 400000, 200);
	CHECK((st & ACCEL_JOB_ERROR) && job_err(st) == ACCEL_ERR_RMA_TMO,
	      "a record with another cookie is not this job's: ERR_RMA_TMO (status 0x%x)", st);
	s.rma_cookie_xor = 0;

	// bad parameters: ERR_PARAM, nothing written to the window
	struct { uint32_t off, len, rnoti; uint64_t dst, cnoti; const char *what; } bad[] = {
		{0, (1u << 20) + 4, rnoti, 0x1000, 0, "length above 1 MiB"},
		{0, 0, rnoti, 0x1000, 0, "length 0"},
		{0, 6, rnoti, 0x1000, 0, "length not a multiple of 4"},
		{2, 8, rnoti, 0x1000, 0, "offset not 4-byte aligned"},
		{0, 8, rnoti, 0x1002, 0, "destination not 4-byte aligned"},
		{0, 8, rnoti + 4, 0x1000, 0, "record offset not 16-byte aligned"},
		{0, 8, top + 16, 0x1000, 0, "record beyond the backed memory"},
		{rnoti - 8, 64, rnoti, 0x1000, 0, "record inside the sent range"},
		{0, 8, rnoti, 0x1000, 0x2008, "completer record not 16-byte aligned"},
	};
	unsigned w0 = s.rma_win_writes;
	for (auto &b : bad) {
		rma_job(s, b.off, b.len, 5, b.dst, 3, b.rnoti, b.cnoti);
		st = wait_job(s);
		CHECK((st & ACCEL_JOB_ERROR) && job_err(st) == ACCEL_ERR_PARAM, "%s: ERR_PARAM (status 0x%x)",
		      b.what, st);
	}
	s.wr64(BAR0_ADDR + ACCEL_REG_RMA_WIN_LO, 0);
	rma_job(s, 0, 8, 5, 0x1000, 3, rnoti, 0);
	st = wait_job(s);
	CHECK((st & ACCEL_JOB_ERROR) && job_err(st) == ACCEL_ERR_PARAM, "RMA_WIN not set: ERR_PARAM (status 0x%x)", st);
	s.wr64(BAR0_ADDR + ACCEL_REG_RMA_WIN_LO, RMA_WIN);
	s.cfg_write(0x04, 0x0002, 0x3);  // bus master off
	rma_job(s, 0, 8, 5, 0x1000, 3, rnoti, 0);
	st = wait_job(s);
	CHECK((st & ACCEL_JOB_ERROR) && job_err(st) == ACCEL_ERR_NO_BME, "bus master off: ERR_NO_BME (status 0x%x)", st);
	s.cfg_write(0x04, 0x0006, 0x3);
	CHECK(s.rma_win_writes == w0, "refused jobs wrote nothing to the window (%u writes)", s.rma_win_writes - w0);
	// and a good one afterwards
	const uint32_t big = TB_IMPL_LOG2 > 20 ? 1u << 20 : 1u << (TB_IMPL_LOG2 - 1);
	rma_job(s, 0, big, 6, 0x8000000ull, 0x77, top, 0);
	st = wait_job(s);
	CHECK((st & (ACCEL_JOB_ERROR | ACCEL_JOB_BUSY)) == 0 && (r[EXTOLL_RMA_D_LEN] & EXTOLL_RMA_D_LEN_LEN_MASK) == big,
	      "%u-byte RMA send after the refusals (status 0x%x)", big, st);
	check_protocol(s, "RMA send");
}

static void test_irq(Sim &s)
{
	section("interrupts: MSI-X, MSI, INTx");
	// ---- MSI-X: vector 1
	const uint64_t xaddr = MSI_WINDOW + 0x1000;
	s.wr64(BAR0_ADDR + ACCEL_MSIX_TABLE + 16 * 1, xaddr);
	wreg(s, ACCEL_MSIX_TABLE + 16 * 1 + 8, 0x4041);
	wreg(s, ACCEL_MSIX_TABLE + 16 * 1 + 12, 0);  // unmask
	uint32_t mc = s.cfg_read(0xa0);
	s.cfg_write(0xa0, mc | 0x80000000u, 0x8);
	wreg(s, ACCEL_REG_IRQ_ENABLE, ACCEL_IRQ_DONE | ACCEL_IRQ_ERROR);
	wreg(s, ACCEL_REG_IRQ_VECTOR, 1);
	s.msgs.clear();
	uint64_t seq0 = s.mwr_seq;
	start_job(s, ACCEL_OP_D2H, 0x300000, 0x100, 1024);
	wait_job(s);
	s.run(50);
	CHECK(s.msgs.size() == 1 && s.msgs[0].addr == xaddr && s.msgs[0].data == 0x4041,
	      "MSI-X message: %zu msgs addr 0x%" PRIx64 " data 0x%x", s.msgs.size(),
	      s.msgs.empty() ? 0 : s.msgs[0].addr, s.msgs.empty() ? 0 : s.msgs[0].data);
	CHECK(!s.msgs.empty() && s.msgs[0].seq == seq0 + 5, "MSI-X after the job's 4 data writes");
	CHECK(!s.top->intx, "no INTx while MSI-X is enabled");
	printf("  MSI-X vector 1: MWr 0x%" PRIx64 " <- 0x4041 after the data\n", xaddr);
	// masked: pending bit, sent on unmask
	wreg(s, ACCEL_MSIX_TABLE + 16 * 1 + 12, 1);
	s.msgs.clear();
	start_job(s, ACCEL_OP_CRC, 0, 0, 64);
	wait_job(s);
	s.run(50);
	CHECK(s.msgs.empty(), "masked vector: no message");
	CHECK(reg(s, ACCEL_REG_MSIX_PBA) == 2, "PBA bit 1 pending");
	wreg(s, ACCEL_MSIX_TABLE + 16 * 1 + 12, 0);
	s.run(50);
	CHECK(s.msgs.size() == 1 && s.msgs[0].data == 0x4041, "unmask sends the pending message");
	CHECK(reg(s, ACCEL_REG_MSIX_PBA) == 0, "PBA cleared");
	// function mask
	s.cfg_write(0xa0, 0xc0000000u, 0x8);
	s.msgs.clear();
	start_job(s, ACCEL_OP_CRC, 0, 0, 64);
	wait_job(s);
	s.run(50);
	CHECK(s.msgs.empty(), "function mask holds the message");
	s.cfg_write(0xa0, 0x80000000u, 0x8);
	s.run(50);
	CHECK(s.msgs.size() == 1, "function unmask sends it");
	s.cfg_write(0xa0, 0x00000000u, 0x8);  // MSI-X off

	// ---- MSI: 64-bit address, 4 vectors, vector 2
	const uint64_t maddr = 0x1fee00000ull + 0x2000;
	s.cfg_write(0x84, (uint32_t)maddr);
	s.cfg_write(0x88, (uint32_t)(maddr >> 32));
	s.cfg_write(0x8c, 0x5550, 0x3);
	s.cfg_write(0x80, (1u << 16) | (2u << 20), 0x4);  // enable, MME = 4 vectors
	uint32_t m = s.cfg_read(0x80);
	CHECK(((m >> 16) & 1) && ((m >> 20) & 7) == 2, "MSI enabled with 4 vectors (0x%08x)", m);
	wreg(s, ACCEL_REG_IRQ_VECTOR, 2);
	s.msgs.clear();
	start_job(s, ACCEL_OP_CRC, 0, 0, 64);
	wait_job(s);
	s.run(50);
	CHECK(s.msgs.size() == 1 && s.msgs[0].addr == maddr && s.msgs[0].data == 0x5552,
	      "MSI message addr 0x%" PRIx64 " data 0x%x", s.msgs.empty() ? 0 : s.msgs[0].addr,
	      s.msgs.empty() ? 0 : s.msgs[0].data);
	printf("  MSI vector 2 of 4: MWr 0x%" PRIx64 " <- 0x5552\n", maddr);
	// per-vector mask + pending bits
	s.cfg_write(0x90, 0x4);
	s.msgs.clear();
	start_job(s, ACCEL_OP_CRC, 0, 0, 64);
	wait_job(s);
	s.run(50);
	CHECK(s.msgs.empty() && (s.cfg_read(0x94) & 4), "MSI masked vector: pending bit set");
	s.cfg_write(0x90, 0x0);
	s.run(50);
	CHECK(s.msgs.size() == 1 && (s.cfg_read(0x94) & 4) == 0, "MSI unmask sends it");
	s.cfg_write(0x80, 0, 0x4);  // MSI off

	// ---- INTx
	wreg(s, ACCEL_REG_IRQ_STATUS, 3);
	s.flush();
	CHECK(!s.top->intx, "INTx low before the job");
	s.msgs.clear();
	start_job(s, ACCEL_OP_CRC, 0, 0, 64);
	wait_job(s);
	s.run(5);
	CHECK(s.top->intx, "INTx asserted on job completion");
	CHECK(s.cfg_read(0x04) & (1u << 19), "Status.Interrupt Status set");
	s.cfg_write(0x04, 0x0406, 0x3);  // Interrupt Disable
	s.run(2);
	CHECK(!s.top->intx && (s.cfg_read(0x04) & (1u << 19)), "Interrupt Disable masks the pin only");
	s.cfg_write(0x04, 0x0006, 0x3);
	s.run(2);
	CHECK(s.top->intx, "INTx again");
	wreg(s, ACCEL_REG_IRQ_STATUS, ACCEL_IRQ_DONE);
	s.run(5);
	CHECK(!s.top->intx, "INTx deasserted after IRQ_STATUS is cleared");
	CHECK(s.msgs.empty(), "no message writes in INTx mode");
	printf("  INTx follows IRQ_STATUS & IRQ_ENABLE\n");
	check_protocol(s, "irq");
}

// ---------------------------------------------------------------------------
// Bench: DMA throughput with a zero-latency host
// ---------------------------------------------------------------------------
static void setup_minimal(Sim &s)
{
	s.expect_cpl_id = DEV_ID;
	s.cfg_write(0x04, 0, 0x3);
	s.cfg_write(0x10, (uint32_t)BAR0_ADDR);
	s.cfg_write(0x18, (uint32_t)BAR2_ADDR);
	s.cfg_write(0x1c, (uint32_t)(BAR2_ADDR >> 32));
	s.cfg_write(0x04, 0x0006, 0x3);
	s.cfg_write(0x48, 0x2830, 0x3);
}

static int bench(uint64_t seed)
{
	printf("DMA bench: zero-latency host model, no back-pressure, MPS 256 B, MRRS 512 B\n");
	for (int split = 0; split < 2; split++) {
		Sim s(seed);
		s.bench = true;
		s.split_rcb = split;
		setup_minimal(s);
		const uint32_t len = 1u << 20;
		std::vector<uint8_t> src(len);
		for (auto &x : src)
			x = (uint8_t)s.rnd(256);
		s.host.write(0x100000000ull, src.data(), len);
		start_job(s, ACCEL_OP_H2D, 0x100000000ull, 0, len);
		uint32_t st = wait_job(s, 400000, 4000);
		uint32_t cyc = reg(s, ACCEL_REG_JOB_CYCLES);
		printf("  host->device %u KiB, completions %s: %u cycles, %.2f bytes/cycle "
		       "(status 0x%x)\n",
		       len >> 10, split ? "of 64..256 B (RCB splits)" : "of 256 B", cyc,
		       (double)len / cyc, st);
		if (!split) {
			start_job(s, ACCEL_OP_D2H, 0x200000000ull, 0, len);
			st = wait_job(s, 400000, 4000);
			cyc = reg(s, ACCEL_REG_JOB_CYCLES);
			std::vector<uint8_t> back(len);
			s.host.read(0x200000000ull, back.data(), len);
			printf("  device->host %u KiB, MWr of 256 B: %u cycles, %.2f bytes/cycle "
			       "(status 0x%x)%s\n",
			       len >> 10, cyc, (double)len / cyc, st, back == src ? "" : " DATA MISMATCH");
			start_job(s, ACCEL_OP_CRC, 0, 0, len);
			st = wait_job(s, 400000, 4000);
			cyc = reg(s, ACCEL_REG_JOB_CYCLES);
			printf("  CRC-32 over %u KiB: %u cycles, %.2f bytes/cycle (result %s)\n", len >> 10,
			       cyc, (double)len / cyc,
			       reg(s, ACCEL_REG_RESULT_LO) == crc32_ref(src.data(), len) ? "ok" : "WRONG");
		}
	}
	for (unsigned lat : {100u, 200u, 400u}) {
		Sim s(seed);
		s.bench = true;
		s.bench_latency = lat;
		s.split_rcb = false;
		setup_minimal(s);
		const uint32_t len = 256u << 10;
		start_job(s, ACCEL_OP_H2D, 0x100000000ull, 0, len);
		uint32_t st = wait_job(s, 400000, 4000);
		uint32_t cyc = reg(s, ACCEL_REG_JOB_CYCLES);
		printf("  host->device %u KiB, host read latency %u cycles, %u tags: %.2f bytes/cycle "
		       "(status 0x%x)\n",
		       len >> 10, lat, ACCEL_CAPS_NTAGS(reg(s, ACCEL_REG_CAPS)), (double)len / cyc, st);
	}
	printf("  (ideal for this TLP stream: 256/17 = 15.06 bytes/cycle per direction)\n");
	return 0;
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	uint64_t seed = a.seed;
	if (a.bench)
		return bench(seed);

	printf("tb_accel: seed %" PRIu64 ", BAR64=%d, DEVMEM_LOG2=%d, DEVMEM_IMPL_LOG2=%d\n", seed,
	       TB_BAR64, TB_DEVMEM_LOG2, TB_IMPL_LOG2);
	Sim s(seed);
	test_config(s);
	test_bars(s);
	test_regs(s);
	test_devmem(s);
	test_ordering_ur(s);
	test_dma(s);
	test_rma(s);
	test_irq(s);
	return tb_finish(TB_BAR64 ? "tb_accel (BAR64=1)" : "tb_accel (BAR64=0)", "%" PRIu64 " cycles", s.cycle);
}
