// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_dma_win: Verilator block test of the accelerator's DMA window table
// (rtl/nic/nic_dma_win.sv) with the UR completer its refused reads go to
// (tb_nic_dma_win_top.sv). A C++ "device" sends memory requests (MRd, MWr)
// on s; what passes must come out of m unchanged and in order, a refused
// read must be answered by one Unsupported Request completion on c, a
// refused write must vanish. The protocol checker of docs/tlp-check.md
// (TlpLink) watches the device's link: the requests on s ("in") and the
// completions on c ("out"), so a UR with a wrong byte count, lower address,
// tag or attributes fails the run.
//
// Sections: enforcement off (everything passes, nothing counted); windows
// at their edges (first and last byte of a window, the bytes just outside,
// requests straddling either edge: refused); permissions (read-only,
// write-only as for the notify window where MSIs go, a window without
// permission, a wrap past 2^64); the counters and the last refused address;
// the hardware clear of every permission (a change of holder); enforcement
// off again; a random mix of 600 requests against changing random windows,
// decided by a model here, with random gaps and back-pressure on all three
// streams.
//
// Usage: tb_nic_dma_win [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "Vtb_nic_dma_win_top.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"

static const unsigned NWIN = 8;

// CHECK_EQ with a formatted description
#define CHECK_EQF(got, want, fmt, ...)                                                      \
	do {                                                                               \
		uint64_t got_ = (uint64_t)(got), want_ = (uint64_t)(want);                 \
		CHECK(got_ == want_, fmt ": got 0x%" PRIx64 ", want 0x%" PRIx64, __VA_ARGS__, got_, want_); \
	} while (0)

struct Win {
	uint64_t base = 0, limit = 0;   // first and last byte (page granular)
	bool rd = false, wr = false;
};

// A request the device sent, with what must happen to it.
struct Sent {
	struct tlp t;
	bool pass;
};

class Tb : public TbModel<Vtb_nic_dma_win_top> {
public:
	using Src = TlpSource<VlWide<4>>;
	using Snk = TlpSink<VlWide<4>>;

	Tb(uint32_t seed, bool verbose) : rng_(seed * 13 + 3)
	{
		auto *m = top();
		s = std::make_unique<Src>("s", TLP_PINS(m, s), seed * 17 + 1);
		mo = std::make_unique<Snk>("m", TLP_PINS(m, m), seed * 17 + 2);
		c = std::make_unique<Snk>("c", TLP_PINS(m, c), seed * 17 + 3);
		s->verbose = mo->verbose = c->verbose = verbose;
		link.attach_in(*s);
		link.attach_out(*c);
		link.set_in(4096, 4096);
		link.set_out(4096, 4096);
	}

	std::unique_ptr<Src> s;
	std::unique_ptr<Snk> mo, c;
	TlpLink link{"device link"};
	Win win[NWIN];
	bool enforce = false;
	std::deque<Sent> exp_pass, exp_ur;
	unsigned n_rd_ref = 0, n_wr_ref = 0;
	uint64_t last_addr = 0;
	bool last_wr = false, any_ref = false;
	unsigned n_sent = 0;

	unsigned errors() const { return s->errors() + mo->errors() + c->errors(); }

	void set_enforce(bool on)
	{
		enforce = on;
		top()->cfg_enforce = on;
		tick();
	}
	void set_win(unsigned i, uint64_t base, uint64_t last, bool rd, bool wr)
	{
		win[i] = {base & ~0xfffull, last | 0xfffull, rd, wr};
		auto *m = top();
		m->cfg_idx = i;
		m->cfg_base_addr = base;
		m->cfg_limit_addr = last;
		m->cfg_rd = rd;
		m->cfg_wr = wr;
		m->cfg_we = 1;
		tick();
		m->cfg_we = 0;
	}
	void clear_perms()
	{
		for (Win &w : win)
			w.rd = w.wr = false;
		top()->cfg_clr = 1;
		tick();
		top()->cfg_clr = 0;
	}

	// the model: does the request pass?
	bool allowed(const struct tlp &t) const
	{
		if (!enforce)
			return true;
		bool wr = t.kind == TLP_MWR;
		uint64_t first = t.addr, last = t.addr + 4ull * t.len_dw - 1;
		if (last < first)
			return false;
		for (const Win &w : win)
			if ((wr ? w.wr : w.rd) && first >= w.base && last <= w.limit)
				return true;
		return false;
	}

	// a request of the device: n_dw dwords at addr (all byte enables)
	void request(bool wr, uint64_t addr, unsigned n_dw)
	{
		struct tlp t;
		uint16_t rid = (uint16_t)(0x0100 + n_sent / 200);   // (requester, tag) never reused
		uint8_t tag = (uint8_t)(n_sent % 200);
		uint8_t lbe = n_dw > 1 ? 0xf : 0x0;
		if (wr) {
			std::vector<uint32_t> d(n_dw);
			for (auto &x : d)
				x = (uint32_t)rng_();
			tlp_mwr(&t, addr, d.data(), n_dw, 0xf, lbe, rid);
		} else {
			tlp_mrd(&t, addr, n_dw, 0xf, lbe, rid, tag);
		}
		n_sent++;
		bool pass = allowed(t);
		if (pass) {
			exp_pass.push_back({t, true});
		} else {
			(wr ? n_wr_ref : n_rd_ref)++;
			any_ref = true;
			last_addr = addr;
			last_wr = wr;
			if (!wr)
				exp_ur.push_back({t, false});
		}
		s->send(t);
	}

	// everything sent has come out; compare with the expectations
	void settle(const char *what)
	{
		wait_for([&] { return s->idle(); }, 100000);
		idle(40);
		printf("  %s: %zu passed, %zu reads answered UR, %u reads and %u writes refused in all\n", what,
		       exp_pass.size(), exp_ur.size(), n_rd_ref, n_wr_ref);
		CHECK_EQF(mo->rx().size(), exp_pass.size(), "%s: requests passed", what);
		while (!mo->rx().empty() && !exp_pass.empty()) {
			const struct tlp &got = mo->rx().front().t, &want = exp_pass.front().t;
			CHECK(got.kind == want.kind && got.addr == want.addr && got.len_dw == want.len_dw &&
				      got.requester_id == want.requester_id &&
				      (got.kind != TLP_MRD || got.tag == want.tag) &&
				      got.payload_dw == want.payload_dw &&
				      !memcmp(got.payload, want.payload, 4 * got.payload_dw),
			      "%s: passed request at 0x%" PRIx64 " unchanged and in order (got 0x%" PRIx64 ")",
			      what, want.addr, got.addr);
			mo->rx().pop_front();
			exp_pass.pop_front();
		}
		mo->rx().clear();
		exp_pass.clear();
		CHECK_EQF(c->rx().size(), exp_ur.size(), "%s: UR completions", what);
		while (!c->rx().empty() && !exp_ur.empty()) {
			const struct tlp &got = c->rx().front().t, &want = exp_ur.front().t;
			CHECK(got.kind == TLP_CPL && got.status == TLP_CPL_UR &&
				      got.requester_id == want.requester_id && got.tag == want.tag,
			      "%s: read at 0x%" PRIx64 " answered UR (kind %d status %u tag 0x%02x)", what,
			      want.addr, got.kind, got.status, got.tag);
			c->rx().pop_front();
			exp_ur.pop_front();
		}
		c->rx().clear();
		exp_ur.clear();
		auto *m = top();
		CHECK_EQF(m->st_rd_refused, n_rd_ref, "%s: dma.refused.reads", what);
		CHECK_EQF(m->st_wr_refused, n_wr_ref, "%s: dma.refused.writes", what);
		CHECK_EQF(m->st_last_valid, any_ref ? 1u : 0u, "%s: dma.last.valid", what);
		if (any_ref) {
			CHECK_EQF(m->st_last_addr << 2, last_addr, "%s: dma.last.addr", what);
			CHECK_EQF(m->st_last_wr, last_wr ? 1u : 0u, "%s: dma.last.write", what);
		}
		CHECK_EQF(errors(), 0u, "%s: stream protocol", what);
	}

	std::mt19937 rng_;

protected:
	void drive() override
	{
		s->drive();
		mo->drive();
		c->drive();
	}
	void sample() override
	{
		s->sample();
		mo->sample();
		c->sample();
	}
};

static const uint64_t W0 = 0x10000000, W0_END = 0x1000ffff;      // read and write
static const uint64_t NQ = 0xfd00000000ull, NQ_END = 0xfd000fffffull;  // write only (MSIs)
static const uint64_t RO = 0x200000000ull;                       // read only, one page
static const uint64_t OFF = 0x30000000;                          // no permission
static const uint64_t TOP = 0xfffffffffffff000ull;               // the last page, read and write

static void windows(Tb &tb)
{
	tb.set_win(0, W0, W0_END, true, true);
	tb.set_win(1, NQ, NQ_END, false, true);
	tb.set_win(2, RO, RO + 0xfff, true, false);
	tb.set_win(3, OFF, OFF + 0xfff, false, false);
	tb.set_win(7, TOP, ~0ull, true, true);
}

static void test_off(Tb &tb)
{
	printf("enforcement off: everything passes\n");
	windows(tb);
	tb.set_enforce(false);
	tb.request(true, 0x5000, 16);
	tb.request(false, 0x123456780ull, 64);
	tb.request(true, NQ + 0x10, 1);
	tb.request(false, OFF, 1);
	tb.request(true, 0x1001'0000, 4);
	tb.settle("enforcement off");
	CHECK_EQ(tb.top()->st_rd_refused + tb.top()->st_wr_refused, 0u, "enforcement off: nothing refused");
}

static void test_edges(Tb &tb)
{
	printf("window edges\n");
	tb.set_enforce(true);
	tb.request(true, W0, 16);                  // first byte of the window
	tb.request(true, W0_END - 3, 1);           // last dword
	tb.request(false, W0 + 0x8000, 64);        // a 256-byte read inside
	tb.request(false, W0 + 0xff00, 64);        // up to the last byte
	tb.request(true, W0_END + 1, 1);           // first byte after: refused
	tb.request(false, W0 - 4, 1);              // last dword before: refused (UR)
	// straddling an edge (the device breaks the 4 KiB rule too: the checker
	// must see it, the table must refuse it)
	tb.link.expect_in(TLP_R_4K, 2);
	tb.request(true, W0_END - 15, 8);          // 16 bytes inside, 16 after
	tb.request(false, W0 - 16, 8);             // 16 bytes before, 16 inside
	tb.settle("edges");
}

static void test_perms(Tb &tb)
{
	printf("permissions\n");
	tb.request(true, NQ + 0x40, 1);            // an MSI into the notify window: passes
	tb.request(true, NQ_END - 3, 1);
	tb.request(false, NQ, 1);                  // reading the notify window: refused
	tb.request(false, RO + 0x100, 16);         // read-only window: read passes
	tb.request(true, RO + 0x100, 16);          // ... write refused
	tb.request(true, OFF, 1);                  // a window without permission
	tb.request(false, OFF + 0x800, 2);
	tb.request(false, TOP + 0x800, 16);        // the last page of the address space
	tb.request(true, ~0ull - 3, 1);            // its last dword
	tb.link.expect_in(TLP_R_4K, 1);
	tb.request(false, ~0ull - 15, 8);          // wraps past 2^64: refused
	tb.settle("permissions");
}

static void test_clear(Tb &tb)
{
	printf("permissions cleared (a change of holder)\n");
	tb.clear_perms();
	tb.request(true, W0, 4);
	tb.request(false, W0, 4);
	tb.request(true, NQ, 1);
	tb.settle("cleared");
	windows(tb);
	tb.request(true, W0, 4);
	tb.settle("granted again");
}

static void test_off_again(Tb &tb)
{
	printf("enforcement off again\n");
	tb.set_enforce(false);
	tb.request(true, 0x7000, 4);
	tb.request(false, OFF, 4);
	tb.settle("off again");
}

static void test_random(Tb &tb, unsigned n)
{
	printf("random mix: %u requests, back-pressure\n", n);
	std::mt19937 &r = tb.rng_;
	tb.s->prob = 0.7;
	tb.mo->prob = 0.6;
	tb.c->prob = 0.5;
	tb.set_enforce(true);
	// addresses from a few pages around few windows, so hits, misses and edges all occur
	static const uint64_t area[] = {0x10000000, 0x7fff0000ull, 0xfd00000000ull, 0x123400000000ull};
	for (unsigned round = 0; round < 4; round++) {
		for (unsigned i = 0; i < NWIN; i++) {
			uint64_t b = area[r() % 4] + (uint64_t)(r() % 8) * 0x1000;
			uint64_t l = b + (uint64_t)(r() % 4) * 0x1000 + 0xfff;
			tb.set_win(i, b, l, r() % 3 != 0, r() % 3 != 0);
		}
		for (unsigned k = 0; k < n / 4; k++) {
			bool wr = r() % 2;
			uint64_t page = area[r() % 4] + (uint64_t)(r() % 10) * 0x1000;
			unsigned n_dw = 1 + r() % (wr ? 32 : 128);
			uint64_t off = (uint64_t)(r() % (1024 - n_dw + 1)) * 4;   // inside the page
			tb.request(wr, page + off, n_dw);
		}
		tb.settle("random");
	}
	tb.s->prob = tb.mo->prob = tb.c->prob = 1.0;
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	Tb tb(a.seed, a.verbose);
	printf("tb_nic_dma_win: seed %u\n", a.seed);
	tb.reset();

	test_off(tb);
	test_edges(tb);
	test_perms(tb);
	test_clear(tb);
	test_off_again(tb);
	test_random(tb, 600);

	return tb_finish("tb_nic_dma_win", "%" PRIu64 " cycles, %u requests", tb.cycle(), tb.n_sent);
}
