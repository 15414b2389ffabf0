// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_common.h: what the testbenches on tb/tb_nic_remote_top.sv
// (tb_nic_remote, tb_nic_smfu) share: the host-side testbench base (model,
// TLP driver, host memory, link probes), config/BAR0 accesses to the host
// NIC, RRA requests and records, the config tunnel and the common setup.
// Each testbench derives its Tb from NicTb and adds its own probes and
// handling of the NIC's requests to host memory.
#ifndef RTL_TB_TB_NIC_COMMON_H
#define RTL_TB_TB_NIC_COMMON_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>

#include "Vtb_nic_remote_top.h"
#include "extoll_records.h"
#include "extoll_regs.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"
#include "verilated.h"

typedef Vtb_nic_remote_top Top;

static const uint16_t HOST_ID = 0x0000;     // root complex requester ID
static const uint16_t NIC_ID = 0x0300;      // host NIC: bus 3, device 0
static const uint32_t BAR0 = 0xfe000000;
static const uint16_t N_HOST = 1, N_NAA = 3, N_NONE = 9;
static const uint64_t REC = 0x10000;        // RRA completion record (host memory)
static const uint64_t REC_TUN = 0x1234560040ull; // tunnel completion record (above 4 GiB: 4-DW MWr)

// ---------------------------------------------------------------------------
// Testbench base: model, TLP driver, host memory, probes
// ---------------------------------------------------------------------------
class NicTb : public TlpTb<Top> {
public:
	NicTb(uint32_t seed, bool verbose) : TlpTb(seed, verbose)
	{
		// The protocol checker of the host link (docs/tlp-check.md), set as the
		// host NIC's config space reports it after reset (Device Control 0x2910:
		// MPS 128 B, the most Device Capabilities allows; MRRS 512 B; Extended
		// Tag on); its completions may be split only at 128-byte boundaries
		// (PCIe Base Spec. 2.3.1.1: the RCB of a completer that is not a
		// root complex); the testbench plays a root complex without a
		// read-size limit of its own.
		drv().link().set_in(128, 4096);
		drv().link().set_out(128, 512, 128, true);
	}

	// probe event cycles (most recent)
	uint64_t s_sop = 0, m_sop = 0;
	uint64_t p_h_tx = 0, p_n_rx = 0, p_d_in = 0, p_d_out = 0, p_n_tx = 0, p_h_rx = 0;
	// first-flit times of the most recent packet on the link probes
	bool h_tx_prev = false, n_tx_prev = false, n_rx_prev = false, h_rx_prev = false;

	void drain(unsigned extra = 10) { TlpTb::drain(extra, 20000); }
	bool wait_cpl(struct tlp *out, unsigned timeout = 5000)
	{
		if (!wait_for([&] { return !cpls_.empty(); }, timeout))
			return false;
		*out = cpls_.front();
		cpls_.pop_front();
		return true;
	}
	uint32_t mem32(uint64_t a) { return mem_.count(a) ? mem_[a] : 0; }
	uint64_t mem64(uint64_t a) { return (uint64_t)mem32(a) | (uint64_t)mem32(a + 4) << 32; }
	void mem_set(uint64_t a, uint32_t v) { mem_[a] = v; }
	void mem_clear(uint64_t a, unsigned bytes)
	{
		for (unsigned i = 0; i < bytes; i += 4)
			mem_[a + i] = 0;
	}
	uint8_t next_tag() { return tag_++ & 0x7f; }

protected:
	// Per-testbench probes, sampled with clk low before the edge.
	virtual void probe(Top *) {}
	// A TLP from the NIC: true if the host model took it (MWr, MRd), false
	// for a completion (queued for wait_cpl).
	virtual bool host_request(const struct tlp &) { return false; }

	void sample() override
	{
		Top *t = top();
		if (t->s_tlp_valid && t->s_tlp_ready && t->s_tlp_sop)
			s_sop = cycle_;
		if (t->m_tlp_valid && t->m_tlp_ready && t->m_tlp_sop)
			m_sop = cycle_;
		// packet starts on the links (a flit after an idle cycle)
		if (t->p_h_tx && !h_tx_prev) p_h_tx = cycle_;
		if (t->p_n_rx && !n_rx_prev) p_n_rx = cycle_;
		if (t->p_n_tx && !n_tx_prev) p_n_tx = cycle_;
		if (t->p_h_rx && !h_rx_prev) p_h_rx = cycle_;
		probe(t);
		h_tx_prev = t->p_h_tx; n_rx_prev = t->p_n_rx; n_tx_prev = t->p_n_tx; h_rx_prev = t->p_h_rx;
		if (t->p_d_in) p_d_in = cycle_;
		if (t->p_d_out) p_d_out = cycle_;
		drv_.sample();
	}
	void posedge() override
	{
		Top *t = top();
		if (t->ovf && !ovf_seen_) {
			ovf_seen_ = true;
			CHECK(false, "network buffer overrun (ovf = %u) at cycle %" PRIu64, t->ovf, cycle_);
		}
		// requests of the NIC go to the host model; everything else is a completion
		while (!drv_.rx().empty()) {
			struct tlp r = drv_.rx().front();
			drv_.rx().pop_front();
			if (!host_request(r))
				cpls_.push_back(r);
		}
	}

	std::map<uint64_t, uint32_t> mem_;
	std::deque<struct tlp> cpls_;
	bool ovf_seen_ = false;
};
// ---------------------------------------------------------------------------
// Host-side accesses to the host NIC
// ---------------------------------------------------------------------------
static void cfg_wr(NicTb &tb, uint16_t reg, uint32_t val)
{
	struct tlp t, c;
	tlp_cfg(&t, true, 0, NIC_ID, reg, 0xf, val, HOST_ID, tb.next_tag());
	tb.drv().send(t);
	CHECK(tb.wait_cpl(&c) && c.kind == TLP_CPL && c.status == TLP_CPL_SC,
	      "CfgWr0 0x%03x: no SC completion", reg);
}

static uint64_t bar_rd(NicTb &tb, uint32_t off)
{
	struct tlp t, c;
	uint8_t tag = tb.next_tag();
	tlp_mrd(&t, BAR0 + off, 2, 0xf, 0xf, HOST_ID, tag);
	tb.drv().send(t);
	if (!tb.wait_cpl(&c)) {
		CHECK(false, "BAR0 read 0x%x: no completion", off);
		return ~0ull;
	}
	CHECK(c.kind == TLP_CPLD && c.status == TLP_CPL_SC && c.len_dw == 2 && c.tag == tag,
	      "BAR0 read 0x%x: bad completion (kind %d status %u)", off, c.kind, c.status);
	return c.payload[0] | (uint64_t)c.payload[1] << 32;
}

static void bar_wr(NicTb &tb, uint32_t off, uint64_t v)
{
	struct tlp t;
	uint32_t d[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
	tlp_mwr(&t, BAR0 + off, d, 2, 0xf, 0xf, HOST_ID);
	tb.drv().send(t);
}

// ---------------------------------------------------------------------------
// RRA through the host NIC's rra block
// ---------------------------------------------------------------------------
enum { OP_READ = 0, OP_WRITE = 1, OP_TLP = 2 };

// A completion record (hw/include/extoll_records.h): q0 = data, q1 = the rest.
static_assert(EXTOLL_CMP_DATA_QW == 0 && EXTOLL_CMP_SEQ_QW == 1 && EXTOLL_CMP_STATUS_QW == 1 &&
	      EXTOLL_CMP_CPL_QW == 1 && EXTOLL_CMP_NODE_QW == 1 && EXTOLL_CMP_VALID_QW == 1,
	      "completion record layout");
struct Rec {
	bool ok;          // a record arrived
	uint64_t q0, q1;
	unsigned status() const { return EXTOLL_REC_GET(EXTOLL_CMP_STATUS, q1); }
	unsigned cst() const { return EXTOLL_REC_GET(EXTOLL_CMP_CPL, q1); }
	unsigned node() const { return EXTOLL_REC_GET(EXTOLL_CMP_NODE, q1); }
	unsigned seq() const { return EXTOLL_REC_GET(EXTOLL_CMP_SEQ, q1); }
};

// Is q1 the second qword of a valid record for request seq?
static bool rec_for(uint64_t q1, uint16_t seq)
{
	return EXTOLL_REC_GET(EXTOLL_CMP_VALID, q1) && EXTOLL_REC_GET(EXTOLL_CMP_SEQ, q1) == seq;
}

static uint16_t g_seq = 0x100;

static uint64_t req_word(uint16_t node, uint32_t addr, unsigned op, bool src, unsigned tlp_len,
			 uint16_t seq)
{
	return (uint64_t)node | (uint64_t)(addr & 0xffffff) << 16 | (uint64_t)op << 40 |
	       (uint64_t)src << 43 | (uint64_t)tlp_len << 44 | (uint64_t)seq << 48;
}

// rra.cmp_addr: the host NIC writes records only there (docs/security.md), so a
// request whose record goes elsewhere (the tunnel's REC_TUN, above 4 GiB) first
// points cmp_addr at it, as software with two records would.
static uint64_t g_cmp = ~0ull;
static void set_cmp(NicTb &tb, uint64_t rec)
{
	if (rec == g_cmp)
		return;
	bar_wr(tb, EXTOLL_RRA_BASE + EXTOLL_RRA_CMP_ADDR, rec);
	g_cmp = rec;
}

// Launch one request and wait for its record at rec (0: expect none).
static Rec rra(NicTb &tb, uint16_t node, uint32_t addr, unsigned op, uint64_t wdata = 0,
	       uint64_t route = 0, uint64_t rec = REC, unsigned timeout = 3000,
	       const uint32_t *tlp_hdr = nullptr, unsigned tlp_len = 0)
{
	Rec r{};
	uint16_t seq = g_seq++;
	tb.mem_clear(rec, 16);
	set_cmp(tb, rec);
	bar_wr(tb, EXTOLL_RRA_BASE + EXTOLL_RRA_WDATA, wdata);
	if (route)
		bar_wr(tb, EXTOLL_RRA_BASE + EXTOLL_RRA_ROUTE, route);
	if (tlp_hdr) {
		bar_wr(tb, EXTOLL_RRA_BASE + EXTOLL_RRA_TLP_HDR0, tlp_hdr[0] | (uint64_t)tlp_hdr[1] << 32);
		bar_wr(tb, EXTOLL_RRA_BASE + EXTOLL_RRA_TLP_HDR1, tlp_hdr[2] | (uint64_t)tlp_hdr[3] << 32);
	}
	bar_wr(tb, EXTOLL_RRA_BASE + EXTOLL_RRA_REQ, req_word(node, addr, op, route != 0, tlp_len, seq));
	for (unsigned i = 0; i < timeout; i++) {
		uint64_t q1 = tb.mem64(rec + 8);
		if (rec_for(q1, seq)) {
			r.ok = true;
			r.q0 = tb.mem64(rec);
			r.q1 = q1;
			return r;
		}
		tb.tick();
	}
	return r;
}

// hop list: hops[0] first
static uint64_t route_of(std::initializer_list<unsigned> hops)
{
	uint64_t r = 0;
	unsigned i = 0;
	for (unsigned h : hops)
		r |= (uint64_t)(h & 7) << (3 * i++);
	return r;
}

static uint64_t rt_entry(uint16_t dest, unsigned inport, unsigned outport, bool valid = true)
{
	return (uint64_t)dest | (uint64_t)inport << 16 | (uint64_t)outport << 24 |
	       (uint64_t)valid << 31 | 1ull << 32;
}

static void rra_wr_ok(NicTb &tb, uint16_t node, uint32_t addr, uint64_t v, uint64_t route, const char *what)
{
	Rec r = rra(tb, node, addr, OP_WRITE, v, route);
	CHECK(r.ok, "%s: no record", what);
	if (r.ok) {
		CHECK_EQ(r.status(), 0, (std::string(what) + ": status").c_str());
		CHECK_EQ(r.node(), node, (std::string(what) + ": answering node").c_str());
	}
}

static uint64_t rra_rd_ok(NicTb &tb, uint16_t node, uint32_t addr, const char *what, uint64_t route = 0)
{
	Rec r = rra(tb, node, addr, OP_READ, 0, route);
	CHECK(r.ok, "%s: no record", what);
	if (!r.ok)
		return ~0ull;
	CHECK_EQ(r.status(), 0, (std::string(what) + ": status").c_str());
	CHECK_EQ(r.node(), node, (std::string(what) + ": answering node").c_str());
	return r.q0;
}

// A tunnelled config request (tag 0xff, built by "host software").
static Rec tunnel(NicTb &tb, bool write, int type1, uint16_t target, uint16_t reg, uint32_t data = 0)
{
	struct tlp t;
	uint32_t hdr[4];
	tlp_cfg(&t, write, type1, target, reg, 0xf, data, HOST_ID, 0xff);
	tlp_encode_hdr(&t, hdr);
	return rra(tb, N_NAA, 0, OP_TLP, data, 0, REC_TUN, 3000, hdr, write ? 1 : 0);
}

// ---------------------------------------------------------------------------
// Setup shared by the tests and the benches
// ---------------------------------------------------------------------------
// Config space of the host NIC (BAR0, BAR2 if given, command) and the RRA
// completion record address.
static void setup_host(NicTb &tb, uint32_t bar2 = 0)
{
	cfg_wr(tb, 0x10, BAR0);
	if (bar2)
		cfg_wr(tb, 0x18, bar2);
	cfg_wr(tb, 0x04, 0x0006);   // memory space + bus master
	g_cmp = ~0ull;
	set_cmp(tb, REC);
}

// NAA backdoor: forward the tunnel's config completions to the host as records.
static void setup_filter(NicTb &tb)
{
	const uint32_t BD = EXTOLL_BACKDOOR_BASE;
	uint64_t filt = 0xff | 1ull << 8 | 1ull << 9 | (uint64_t)N_HOST << 16;
	rra_wr_ok(tb, N_NAA, BD + EXTOLL_BACKDOOR_RX_FWD_ADDR, REC_TUN, 0, "naa rx_fwd_addr");
	rra_wr_ok(tb, N_NAA, BD + EXTOLL_BACKDOOR_RX_FILTER, filt, 0, "naa rx_filter");
}

// ---------------------------------------------------------------------------
// main: random gaps and back-pressure on the host link for the tests (none
// for the bench), the tests or the bench; after the tests the host link's
// stream rules and the network buffers; the summary
// ---------------------------------------------------------------------------
template <class T>
static int nic_tb_main(int argc, char **argv, const std::string &name, void (*test)(T &), void (*bench)(T &))
{
	TbArgs a = tb_args(argc, argv);
	T tb(a.seed, a.verbose);
	if (!a.bench) {
		tb.drv().valid_prob = 0.7;
		tb.drv().ready_prob = 0.6;
	}
	tb.reset();
	if (a.bench) {
		bench(tb);
		return g_fails ? 1 : 0;
	}
	printf("%s: HOPS=%d, seed %u\n", name.c_str(), TB_HOPS, a.seed);
	test(tb);
	tb.drain(200);
	CHECK_EQ(tb.drv().errors(), 0, "TLP protocol errors on the host link");
	CHECK_EQ(tb.top()->ovf, 0, "network buffer overrun flags");
	return tb_finish(name.c_str(), "%" PRIu64 " cycles", tb.cycle());
}

#endif // RTL_TB_TB_NIC_COMMON_H
