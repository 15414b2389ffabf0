// SPDX-License-Identifier: Apache-2.0
//
// tb_pcie_backdoor: Verilator block test of the PCIe backdoor
// (pcie_backdoor). The register side (tx_*, rx_filter, rx_fwd_addr, rx_pop)
// is driven directly, as the NIC top will from the generated register block;
// the TLP streams m_tx, s_rx, m_rx, the inject input and the forward output
// see random gaps and back-pressure.
//
// Checks: register-driven TX of 3-DW/4-DW headers with 0/1/2 payload dwords
// (header and payload exactly as written, dword 3 of a 3-DW header zero);
// tx_send while the register slot is busy is ignored and counted; network
// inject (valid/ready) arbitrated with the register path, per-source order
// kept; RX filter: disabled passes everything, tag match extracts Cpl/CplD
// only (not requests with the same tag), buffer contents/status, drop counter
// when full, rx_pop (also in the same cycle as a new completion), multi-beat
// completions keep the first two dwords, forward output with the node/address
// snapshot and back-pressure; non-matching TLPs pass unchanged and in order;
// a random mix.
//
// Usage: tb_pcie_backdoor [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>

#include "Vpcie_backdoor.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"
#include "verilated.h"

static const uint16_t RP_ID = 0x0000, DEV_ID = 0x0100;

// A raw TLP as the backdoor sends it: header dwords, up to 2 payload dwords.
struct RawTlp {
	uint32_t hdr[4];
	unsigned hdr_dw;
	uint32_t data[2];
	unsigned data_dw;
};

// A forwarded completion as seen on m_fwd.
struct Fwd {
	uint32_t hdr[4];
	uint64_t data;
	unsigned data_dw;
	uint16_t node;
	uint64_t addr;
};

static RawTlp raw_from(const struct tlp &t)
{
	RawTlp r{};
	r.hdr_dw = tlp_encode_hdr(&t, r.hdr);
	r.data_dw = ((r.hdr[0] >> 30) & 1) ? t.payload_dw : 0;
	for (unsigned i = 0; i < r.data_dw && i < 2; i++)
		r.data[i] = t.payload[i];
	return r;
}

// ---------------------------------------------------------------------------
// Testbench
// ---------------------------------------------------------------------------
class Tb : public TbModel<Vpcie_backdoor> {
public:
	using Src = TlpSource<VlWide<4>>;
	using Snk = TlpSink<VlWide<4>>;

	Tb(uint32_t seed, bool verbose) : rng_(seed * 7 + 3)
	{
		Vpcie_backdoor *m = top();
		rx = std::make_unique<Src>("s_rx", TLP_PINS(m, s_rx), seed * 13 + 1);
		pass = std::make_unique<Snk>("m_rx", TLP_PINS(m, m_rx), seed * 13 + 2);
		tx = std::make_unique<Snk>("m_tx", TLP_PINS(m, m_tx), seed * 13 + 3);
		rx->verbose = pass->verbose = tx->verbose = verbose;
	}

	unsigned errors() const { return rx->errors() + pass->errors() + tx->errors() + fwd_err; }


	void reset()
	{
		Vpcie_backdoor *m = top();
		m->tx_send = 0;
		m->rx_pop = 0;
		m->rx_filter_tag = 0xff;   // register reset values
		m->rx_filter_enable = 0;
		m->rx_filter_fwd = 0;
		m->rx_filter_fwd_node = 0;
		m->rx_fwd_addr = 0;
		m->tx_hdr_dw = 3;
		m->tx_data_dw = 0;
		TbModel::reset();
	}

	void drain(unsigned extra = 40)
	{
		for (unsigned i = 0; i < 20000 && !(rx->idle() && injq.empty() && !inj_presenting); i++)
			tick();
		idle(extra);
	}

	// Register path: write tx_hdr0/1, tx_data, tx_ctrl; the send pulse lasts one cycle.
	void reg_send(const RawTlp &r, uint32_t junk_dw3 = 0)
	{
		Vpcie_backdoor *m = top();
		m->tx_hdr0 = (uint64_t)r.hdr[1] << 32 | r.hdr[0];
		m->tx_hdr1 = (uint64_t)(r.hdr_dw == 4 ? r.hdr[3] : junk_dw3) << 32 | r.hdr[2];
		m->tx_data = (uint64_t)r.data[1] << 32 | r.data[0];
		m->tx_hdr_dw = r.hdr_dw;
		m->tx_data_dw = r.data_dw;
		m->tx_send = 1;
		tick();
	}

	bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

	std::unique_ptr<Src> rx;
	std::unique_ptr<Snk> pass, tx;
	std::deque<RawTlp> injq;
	std::deque<Fwd> fwds;
	double inj_prob = 1.0, fwd_prob = 1.0;
	uint64_t ev_tx = 0, ev_tx_busy = 0, ev_rx_extract = 0, ev_rx_drop = 0;

private:
	void drive() override
	{
		Vpcie_backdoor *m = top();
		rx->drive();
		pass->drive();
		tx->drive();
		// inject input
		if (!inj_presenting && !injq.empty() && coin(inj_prob)) {
			inj_cur = injq.front();
			injq.pop_front();
			inj_presenting = true;
		}
		m->s_inj_valid = inj_presenting;
		for (int i = 0; i < 4; i++)
			m->s_inj_hdr[i] = inj_presenting ? inj_cur.hdr[i] : 0;
		m->s_inj_data = inj_presenting ? ((uint64_t)inj_cur.data[1] << 32 | inj_cur.data[0]) : 0;
		m->s_inj_hdr_dw = inj_presenting ? inj_cur.hdr_dw : 0;
		m->s_inj_data_dw = inj_presenting ? inj_cur.data_dw : 0;
		m->m_fwd_ready = coin(fwd_prob);
	}
	void sample() override
	{
		Vpcie_backdoor *m = top();
		rx->sample();
		pass->sample();
		tx->sample();
		if (m->s_inj_valid && m->s_inj_ready)
			inj_presenting = false;
		// forward output: AXI-style stability, capture
		Fwd f{};
		for (int i = 0; i < 4; i++)
			f.hdr[i] = m->m_fwd_hdr[i];
		f.data = m->m_fwd_data;
		f.data_dw = m->m_fwd_data_dw;
		f.node = m->m_fwd_node;
		f.addr = m->m_fwd_addr;
		if (fwd_stalled && (!m->m_fwd_valid || memcmp(&f, &fwd_last, sizeof(f)) != 0)) {
			fprintf(stderr, "  PROTOCOL ERROR on m_fwd: changed while valid && !ready\n");
			fwd_err++;
		}
		fwd_stalled = m->m_fwd_valid && !m->m_fwd_ready;
		fwd_last = f;
		if (m->m_fwd_valid && m->m_fwd_ready)
			fwds.push_back(f);
		ev_tx += m->ev_tx;
		ev_tx_busy += m->ev_tx_busy;
		ev_rx_extract += m->ev_rx_extract;
		ev_rx_drop += m->ev_rx_drop;
	}
	void posedge() override
	{
		// single-cycle pulses from the register block
		top()->tx_send = 0;
		top()->rx_pop = 0;
	}

	std::mt19937 rng_;
	RawTlp inj_cur{};
	bool inj_presenting = false;
	bool fwd_stalled = false;
	Fwd fwd_last{};
	unsigned fwd_err = 0;
};

// Compare a TLP taken from m_tx with what was sent.
static void check_sent(const RxTlp &got, const RawTlp &want, const char *what)
{
	std::string w(what);
	bool ok = true;
	for (unsigned i = 0; i < 4; i++)
		ok = ok && got.hdr[i] == (i < want.hdr_dw ? want.hdr[i] : 0);
	CHECK(ok, "%s: header %08x %08x %08x %08x, want %08x %08x %08x %08x", what, got.hdr[0], got.hdr[1],
	      got.hdr[2], got.hdr[3], want.hdr[0], want.hdr[1], want.hdr[2],
	      want.hdr_dw == 4 ? want.hdr[3] : 0);
	CHECK_EQ(got.t.payload_dw, want.data_dw, (w + ": payload dwords").c_str());
	for (unsigned i = 0; i < want.data_dw && i < got.t.payload_dw; i++)
		CHECK_EQ(got.t.payload[i], want.data[i], (w + ": payload").c_str());
}

static bool wait_tx(Tb &tb, RxTlp *out, unsigned timeout = 500)
{
	for (unsigned i = 0; i < timeout; i++) {
		if (!tb.tx->rx().empty()) {
			*out = tb.tx->rx().front();
			tb.tx->rx().pop_front();
			return true;
		}
		tb.tick();
	}
	return false;
}

// one register send: the TLP must leave on m_tx exactly as written
static void send_expect(Tb &tb, const RawTlp &r, const char *what, uint32_t junk = 0)
{
	RxTlp g;

	tb.reg_send(r, junk);
	if (wait_tx(tb, &g))
		check_sent(g, r, what);
	else
		CHECK(false, "%s: nothing on m_tx", what);
}

// ---------------------------------------------------------------------------
// TX
// ---------------------------------------------------------------------------
static void test_tx_regs(Tb &tb)
{
	section("register TX: one TLP per tx_ctrl.send");
	struct tlp t;
	uint32_t d[2] = {0x11223344, 0x55667788};
	RxTlp g;
	// CfgWr1 (3 DW, 1 payload dword), junk in tx_hdr1[63:32] must not appear
	tlp_cfg(&t, true, 1, DEV_ID, 0x10, 0xf, 0xfe000000, RP_ID, 0xff);
	RawTlp a = raw_from(t);
	uint64_t ev0 = tb.ev_tx;
	send_expect(tb, a, "CfgWr1 3-DW + 1 DW (dword 3 forced 0)", 0xdeadbeef);
	// CfgRd0, no payload
	tlp_cfg(&t, false, 0, RP_ID, 0x00, 0xf, 0, RP_ID, 0xff);
	RawTlp b = raw_from(t);
	send_expect(tb, b, "CfgRd0 3-DW, no payload (single beat)");
	// MWr64, 4-DW header, 2 payload dwords
	tlp_mwr(&t, 0x4000001000ull, d, 2, 0xf, 0xf, RP_ID);
	RawTlp c = raw_from(t);
	send_expect(tb, c, "MWr64 4-DW + 2 DW");
	tb.idle(20);
	CHECK(tb.tx->rx().empty(), "exactly one TLP per send");
	CHECK_EQ(tb.ev_tx - ev0, 3, "ev_tx counted three TLPs");

	section("register TX: send while the slot is busy is ignored");
	Vpcie_backdoor *m = tb.top();
	double p = tb.tx->prob;
	tb.tx->prob = 0.0;      // hold m_tx
	uint64_t busy0 = tb.ev_tx_busy;
	tb.reg_send(a);
	tb.idle(2);
	CHECK(m->tx_busy, "tx_busy while the TLP waits for m_tx");
	tb.reg_send(b);         // ignored
	CHECK_EQ(tb.ev_tx_busy - busy0, 1, "ev_tx_busy");
	tb.tx->prob = p;
	if (wait_tx(tb, &g))
		check_sent(g, a, "the first TLP leaves");
	tb.idle(30);
	CHECK(tb.tx->rx().empty(), "the ignored send produced nothing");
	CHECK(!m->tx_busy, "tx_busy clear");
}

static void test_tx_inject(Tb &tb, uint32_t seed)
{
	section("network inject arbitrated with the register path");
	std::mt19937 rng(seed + 100);
	std::deque<RawTlp> want_reg, want_inj;
	unsigned nreg = 0;
	tb.inj_prob = 0.5;
	for (int i = 0; i < 40; i++) {
		struct tlp t;
		uint32_t d[2] = {(uint32_t)rng(), (uint32_t)rng()};
		// inject: config requests with tag 0xff and up to 2 dwords; hdr_dw from Fmt
		tlp_cfg(&t, i & 1, (i >> 1) & 1, DEV_ID, (uint16_t)(4 * i), 0xf, d[0], RP_ID, 0xff);
		RawTlp r = raw_from(t);
		if (i % 5 == 4) {          // a 4-DW MWr64 with 2 dwords
			tlp_mwr(&t, 0x100000000ull + 8 * i, d, 2, 0xf, 0xf, RP_ID);
			r = raw_from(t);
		}
		tb.injq.push_back(r);
		want_inj.push_back(r);
	}
	for (int i = 0; i < 400 && (nreg < 20 || !tb.injq.empty()); i++) {
		if (nreg < 20 && !tb.top()->tx_busy && (rng() & 3) == 0) {
			struct tlp t;
			uint32_t d[2] = {(uint32_t)rng(), 0x5a5a0000u + nreg};
			tlp_mwr(&t, 0xfe000000 + 4 * nreg, d, 1 + nreg % 2, 0xf, nreg % 2 ? 0xf : 0, RP_ID);
			RawTlp r = raw_from(t);
			want_reg.push_back(r);
			tb.reg_send(r);
			nreg++;
		} else {
			tb.tick();
		}
	}
	tb.drain(100);
	unsigned n_inj = 0, n_reg = 0, bad = 0;
	bool interleaved = false;
	int last_src = -1;
	while (!tb.tx->rx().empty()) {
		RxTlp g = tb.tx->rx().front();
		tb.tx->rx().pop_front();
		bool from_reg = ((g.hdr[2] >> 24) == 0xfe);   // register TLPs go to 0xfexxxxxx
		std::deque<RawTlp> &q = from_reg ? want_reg : want_inj;
		if (q.empty()) {
			bad++;
			continue;
		}
		RawTlp w = q.front();
		q.pop_front();
		unsigned f0 = g_fails;
		check_sent(g, w, from_reg ? "register TLP in order" : "injected TLP in order");
		bad += g_fails != f0;
		(from_reg ? n_reg : n_inj)++;
		if (last_src != -1 && last_src != (int)from_reg)
			interleaved = true;
		last_src = from_reg;
	}
	CHECK(bad == 0, "%u TLPs out of order or unexpected", bad);
	CHECK(n_inj == 40 && n_reg == nreg, "all sent: %u/40 injected, %u/%u register", n_inj, n_reg, nreg);
	CHECK(interleaved, "both sources interleaved on m_tx");
	tb.inj_prob = 1.0;
}

// ---------------------------------------------------------------------------
// RX filter
// ---------------------------------------------------------------------------
static void set_filter(Tb &tb, bool enable, uint8_t tag, bool fwd, uint16_t node = 0, uint64_t addr = 0)
{
	Vpcie_backdoor *m = tb.top();
	m->rx_filter_enable = enable;
	m->rx_filter_tag = tag;
	m->rx_filter_fwd = fwd;
	m->rx_filter_fwd_node = node;
	m->rx_fwd_addr = addr;
}

static void pop(Tb &tb)
{
	tb.top()->rx_pop = 1;
	tb.tick();
}

// Expect `t` to come out of m_rx unchanged.
static void expect_pass(Tb &tb, const char *what, const RawTlp &want)
{
	tb.drain();
	CHECK(!tb.pass->rx().empty(), "%s: passed through", what);
	if (tb.pass->rx().empty())
		return;
	RxTlp g = tb.pass->rx().front();
	tb.pass->rx().pop_front();
	bool ok = true;
	for (unsigned i = 0; i < want.hdr_dw; i++)
		ok = ok && g.hdr[i] == want.hdr[i];
	CHECK(ok, "%s: header unchanged", what);
}

static void test_rx_buffer(Tb &tb)
{
	Vpcie_backdoor *m = tb.top();
	struct tlp t;
	uint32_t d[8];
	for (int i = 0; i < 8; i++)
		d[i] = 0xd0d00000u + i;

	section("RX filter disabled: everything passes");
	set_filter(tb, false, 0xff, false);
	tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, 0xff, 0, 4, d, 1);
	tb.rx->send(t);
	expect_pass(tb, "CplD tag 0xff, filter off", raw_from(t));
	CHECK(!m->rx_valid, "buffer stays empty");

	section("RX filter: tag 0xff completions into the buffer");
	set_filter(tb, true, 0xff, false);
	uint64_t ext0 = tb.ev_rx_extract;
	tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, 0xff, 0, 4, d, 1);
	RawTlp c1 = raw_from(t);
	tb.rx->send(t);
	tb.drain();
	CHECK(tb.pass->rx().empty(), "matching completion not passed on");
	CHECK(m->rx_valid, "rx_status.valid");
	CHECK_EQ(m->rx_data_dw, 1, "rx_status.data_dw");
	CHECK_EQ(m->rx_hdr0, (uint64_t)c1.hdr[1] << 32 | c1.hdr[0], "rx_hdr0 = header dwords 1:0");
	CHECK_EQ(m->rx_hdr1, c1.hdr[2], "rx_hdr1 = header dword 2");
	CHECK_EQ(m->rx_data, d[0], "rx_data = payload dword 0");
	CHECK_EQ(tb.ev_rx_extract - ext0, 1, "ev_rx_extract");

	section("RX filter: non-matching TLPs pass unchanged");
	tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, 0xfe, 0, 4, d, 1);
	tb.rx->send(t);
	expect_pass(tb, "CplD with tag 0xfe", raw_from(t));
	tlp_mrd(&t, 0x1000, 1, 0xf, 0, DEV_ID, 0xff);
	tb.rx->send(t);
	expect_pass(tb, "MRd with tag 0xff (a request, not a completion)", raw_from(t));
	tlp_mwr(&t, 0x123456000ull, d, 8, 0xf, 0xf, DEV_ID);
	tb.rx->send(t);
	tb.drain();
	CHECK(!tb.pass->rx().empty() && tb.pass->rx().front().t.payload_dw == 8 &&
		      tb.pass->rx().front().t.payload[7] == d[7],
	      "MWr64 with 8 dwords passes with its payload");
	tb.pass->rx().clear();

	section("RX filter: buffer full -> dropped counter");
	uint64_t drop0 = tb.ev_rx_drop;
	tlp_cpl(&t, DEV_ID, TLP_CPL_UR, RP_ID, 0xff, 0, 4, nullptr, 0);
	tb.rx->send(t);
	tb.rx->send(t);
	tb.drain();
	CHECK_EQ(m->rx_dropped, 2, "rx_status.dropped counts both");
	CHECK_EQ(tb.ev_rx_drop - drop0, 2, "ev_rx_drop");
	CHECK(m->rx_valid && m->rx_data == d[0], "buffer still holds the first completion");
	CHECK(tb.pass->rx().empty(), "dropped completions are not passed on");

	section("RX pop, then a Cpl without data and a multi-beat CplD");
	pop(tb);
	CHECK(!m->rx_valid, "rx_pop releases the buffer");
	tlp_cpl(&t, 0x0108, TLP_CPL_UR, RP_ID, 0xff, 0, 4, nullptr, 0);
	RawTlp c2 = raw_from(t);
	tb.rx->send(t);
	tb.drain();
	CHECK(m->rx_valid && m->rx_data_dw == 0, "Cpl UR stored, data_dw 0");
	CHECK_EQ(m->rx_hdr0, (uint64_t)c2.hdr[1] << 32 | c2.hdr[0], "Cpl UR header (status in dword 1)");
	CHECK_EQ(m->rx_data, 0, "rx_data zero without payload");
	pop(tb);
	tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, 0xff, 0, 32, d, 8);
	tb.rx->send(t);
	tb.drain();
	CHECK(m->rx_valid && m->rx_data_dw == 2, "8-dword CplD stored with data_dw 2");
	CHECK_EQ(m->rx_data, (uint64_t)d[1] << 32 | d[0], "first two payload dwords");
	CHECK(tb.pass->rx().empty(), "its remaining beats consumed");

	section("RX pop in the same cycle as the next completion is stored");
	// The filter delivers in the cycle after the completion's eop beat was
	// taken: pop exactly then, with the buffer full.
	CHECK(m->rx_valid, "buffer full before the race");
	uint16_t dropped0 = m->rx_dropped;
	tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, 0xff, 0, 4, d + 3, 1);
	tb.rx->send(t);
	for (int i = 0; i < 200 && !tb.rx->idle(); i++)
		tb.tick();
	pop(tb);
	tb.idle(5);
	CHECK(m->rx_valid && m->rx_data == d[3] && m->rx_dropped == dropped0,
	      "a completion delivered in the cycle of rx_pop is stored, not dropped");
	pop(tb);
}

static void test_rx_forward(Tb &tb)
{
	Vpcie_backdoor *m = tb.top();
	struct tlp t;
	uint32_t d[4] = {0x0100ffff, 0xcafef00d, 3, 4};
	section("RX filter forward: completions to the network unit");
	set_filter(tb, true, 0xff, true, 0x0042, 0x12345670);
	tb.fwd_prob = 0.3;
	tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, 0xff, 0, 8, d, 2);
	RawTlp c = raw_from(t);
	tb.rx->send(t);
	tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, 0x07, 0, 4, d, 1);
	RawTlp p = raw_from(t);
	tb.rx->send(t);
	tlp_cpl(&t, 0x0000, TLP_CPL_UR, RP_ID, 0xff, 0, 4, nullptr, 0);
	RawTlp u = raw_from(t);
	tb.rx->send(t);
	tb.drain(100);
	CHECK_EQ(tb.fwds.size(), 2, "two completions forwarded");
	CHECK(!m->rx_valid, "forwarded completions do not fill the buffer");
	if (tb.fwds.size() == 2) {
		const Fwd &a = tb.fwds[0], &b = tb.fwds[1];
		CHECK(a.hdr[0] == c.hdr[0] && a.hdr[1] == c.hdr[1] && a.hdr[2] == c.hdr[2] && a.hdr[3] == 0,
		      "forwarded CplD header");
		CHECK(a.data_dw == 2 && a.data == ((uint64_t)d[1] << 32 | d[0]), "forwarded CplD data");
		CHECK(a.node == 0x0042 && a.addr == 0x12345670, "fwd_node / fwd_addr");
		CHECK(b.hdr[0] == u.hdr[0] && b.hdr[1] == u.hdr[1] && b.data_dw == 0 && b.data == 0,
		      "forwarded Cpl UR, no data");
	}
	CHECK_EQ(tb.pass->rx().size(), 1, "the non-matching completion passed");
	if (!tb.pass->rx().empty())
		CHECK(tb.pass->rx().front().hdr[2] == p.hdr[2], "passed completion unchanged");
	tb.pass->rx().clear();
	tb.fwds.clear();

	section("RX filter forward: node/address taken per completion");
	tb.fwd_prob = 0.0;        // hold the first one on m_fwd
	tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, 0xff, 0, 4, d, 1);
	tb.rx->send(t);
	tb.idle(30);
	CHECK(m->m_fwd_valid, "m_fwd waits for ready");
	set_filter(tb, true, 0xff, true, 0x0099, 0xabc0);   // reprogrammed meanwhile
	tb.rx->send(t);
	tb.idle(10);
	tb.fwd_prob = 0.5;
	tb.drain(100);
	CHECK_EQ(tb.fwds.size(), 2, "both forwarded");
	if (tb.fwds.size() == 2)
		CHECK(tb.fwds[0].node == 0x0042 && tb.fwds[0].addr == 0x12345670 &&
			      tb.fwds[1].node == 0x0099 && tb.fwds[1].addr == 0xabc0,
		      "each completion carries the node/address in effect when it arrived");
	tb.fwds.clear();
	tb.fwd_prob = 1.0;
}

// Random mix: every TLP either passes (in order, unchanged) or is forwarded (in order).
static void test_rx_random(Tb &tb, uint32_t seed)
{
	section("RX filter random mix with back-pressure (forward mode)");
	std::mt19937 rng(seed + 200);
	set_filter(tb, true, 0x5c, true, 7, 0x1000);
	tb.fwd_prob = 0.4;
	std::deque<RawTlp> want_pass, want_fwd;
	for (int i = 0; i < 300; i++) {
		struct tlp t;
		uint32_t d[16];
		for (int k = 0; k < 16; k++)
			d[k] = rng();
		uint8_t tag = (rng() & 1) ? 0x5c : (uint8_t)rng();
		switch (rng() % 4) {
		case 0:
			tlp_cpl(&t, DEV_ID, TLP_CPL_SC, RP_ID, tag, 0, 64, d, 1 + rng() % 16);
			break;
		case 1:
			tlp_cpl(&t, DEV_ID, TLP_CPL_UR, RP_ID, tag, 0, 4, nullptr, 0);
			break;
		case 2:
			tlp_mrd(&t, 0x2000, 1, 0xf, 0, DEV_ID, tag);
			break;
		default:
			tlp_mwr(&t, 0x3000, d, 1 + rng() % 12, 0xf, 0xf, DEV_ID);
			if (t.len_dw == 1)
				t.last_be = 0;
			break;
		}
		RawTlp r = raw_from(t);
		bool is_cpl = t.kind == TLP_CPL || t.kind == TLP_CPLD;
		if (is_cpl && t.tag == 0x5c)
			want_fwd.push_back(r);
		else
			want_pass.push_back(r);
		tb.rx->send(t);
	}
	tb.drain(200);
	unsigned bad = 0;
	size_t npass = tb.pass->rx().size(), nfwd = tb.fwds.size();
	while (!tb.pass->rx().empty() && !want_pass.empty()) {
		RxTlp g = tb.pass->rx().front();
		tb.pass->rx().pop_front();
		RawTlp w = want_pass.front();
		want_pass.pop_front();
		for (unsigned i = 0; i < w.hdr_dw; i++)
			bad += g.hdr[i] != w.hdr[i];
	}
	while (!tb.fwds.empty() && !want_fwd.empty()) {
		Fwd f = tb.fwds.front();
		tb.fwds.pop_front();
		RawTlp w = want_fwd.front();
		want_fwd.pop_front();
		bad += f.hdr[0] != w.hdr[0] || f.hdr[2] != w.hdr[2] || f.data_dw != (w.data_dw > 2 ? 2 : w.data_dw) ||
		       (uint32_t)f.data != (w.data_dw ? w.data[0] : 0) || f.node != 7;
	}
	CHECK(bad == 0 && want_pass.empty() && want_fwd.empty() && tb.pass->rx().empty() && tb.fwds.empty(),
	      "pass-through and forwarded streams match (%u mismatches, %zu/%zu left)", bad,
	      want_pass.size(), want_fwd.size());
	printf("   %zu passed, %zu forwarded\n", npass, nfwd);
	tb.fwd_prob = 1.0;
	set_filter(tb, false, 0xff, false);
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	uint32_t seed = a.seed;
	Tb tb(seed, a.verbose);
	tb.rx->prob = 0.7;
	tb.pass->prob = 0.6;
	tb.tx->prob = 0.6;
	printf("tb_pcie_backdoor: seed %u, s_rx valid 70%%, m_rx/m_tx ready 60%%\n", seed);
	tb.reset();

	test_tx_regs(tb);
	test_tx_inject(tb, seed);
	test_rx_buffer(tb);
	test_rx_forward(tb);
	test_rx_random(tb, seed);

	tb.drain();
	CHECK(tb.tx->rx().empty() && tb.pass->rx().empty() && tb.fwds.empty(), "no unexpected TLPs left");
	CHECK_EQ(tb.errors(), 0, "stream protocol errors");
	return tb_finish("tb_pcie_backdoor", "%" PRIu64 " cycles", tb.cycle());
}
