// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_cpl_split: Verilator block test of the root port's completion split
// (rtl/nic/nic_cpl_split.sv). A C++ "device" emits a mixed stream of requests
// (MWr, MRd: pcie_rp m_up_req) and completions (Cpl, CplD: m_up_cpl) in one
// device order, as pcie_rp hands them up: a completion is offered only after
// every request before it has been offered. All five streams see random gaps
// and back-pressure.
//
// Checks: routing by tag (0x80..0x8f and the 5-bit alias 0x10..0x1f -> m_sm,
// every other tag, also the
// neighbours 0x7f / 0x90 and the tunnel's 0xff, -> m_bd), decided at sop and
// held to eop (payload beats carry tag-like bits of the other class);
// requests pass unchanged; every output carries exactly its subsequence of
// the input beats, in order, nothing lost or duplicated; ordering: an SMFU
// completion's sop is never taken while a posted request (MWr) is valid, and
// it is taken after the sop of every MWr that preceded it in device order
// (the hold), also when m_req is back-pressured; it passes a pending MRd
// (PCIe 2.4.1: completions pass non-posted requests); backdoor completions
// are not held;
// back-pressure: a stalled output stalls the completion stream (s_cpl_ready),
// also for the completions behind it; the AXI-stream rules on m_req / m_bd
// (tlp_port.h) and on m_sm, where the only allowed exception is the
// documented withdrawal of an offered SMFU sop when a request arrives.
//
// Usage: tb_nic_cpl_split [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vnic_cpl_split.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"
#include "verilated.h"

static const uint16_t RP_ID = 0x0000, DEV_ID = 0x0100;
static const unsigned TAG_BASE = 0x80, TAGS = 16;

// the SMFU's 8-bit tags and their 5-bit alias (Extended Tag Field Enable clear)
static bool smfu_tag(unsigned tag) { return (tag & ~(TAGS - 1)) == TAG_BASE || (tag & ~(TAGS - 1)) == TAG_BASE >> 3; }

// One TLP of the device's upstream stream.
struct Item {
	bool is_req;
	bool smfu;               // completions: SMFU tag
	bool posted;             // requests: MWr
	unsigned reqs_before;    // requests before it in device order
	unsigned posted_before;  // 1 + index of the last MWr before it in device order (0: none)
	std::vector<TlpBeat> beats;
};

static bool same_beat(const TlpBeat &a, const TlpBeat &b)
{
	return memcmp(a.dw, b.dw, sizeof(a.dw)) == 0 && a.keep == b.keep && a.sop == b.sop && a.eop == b.eop;
}

// ---------------------------------------------------------------------------
// Testbench
// ---------------------------------------------------------------------------
class Tb : public TbModel<Vnic_cpl_split> {
public:
	using Src = TlpSource<VlWide<4>>;
	using Snk = TlpSink<VlWide<4>>;

	Tb(uint32_t seed, bool verbose) : rng_(seed * 7 + 5)
	{
		Vnic_cpl_split *m = top();
		req = std::make_unique<Src>("s_req", TLP_PINS(m, s_req), seed * 11 + 1);
		cpl = std::make_unique<Src>("s_cpl", TLP_PINS(m, s_cpl), seed * 11 + 2);
		mreq = std::make_unique<Snk>("m_req", TLP_PINS(m, m_req), seed * 11 + 3);
		bd = std::make_unique<Snk>("m_bd", TLP_PINS(m, m_bd), seed * 11 + 4);
		req->verbose = cpl->verbose = mreq->verbose = bd->verbose = verbose;
	}
	unsigned errors() const
	{
		return req->errors() + cpl->errors() + mreq->errors() + bd->errors() + sm_err + inv_err;
	}

	// ---- device order: queue an item on its source (now, no release rule)
	void push(bool is_req, const struct tlp &t)
	{
		Item it;
		it.is_req = is_req;
		it.smfu = !is_req && smfu_tag(t.tag);
		it.posted = is_req && t.kind == TLP_MWR;
		it.reqs_before = n_req_;
		it.posted_before = last_posted;
		it.beats = tlp_to_beats(t);
		for (const TlpBeat &b : it.beats)
			(is_req ? exp_req : it.smfu ? exp_sm : exp_bd).push_back(b);
		if (is_req) {
			n_req_++;
			if (t.kind == TLP_MWR)
				last_posted = n_req_;
		} else if (it.smfu) {
			sm_reqs_before.push_back(last_posted);
		}
		(is_req ? req : cpl)->send_beats(it.beats);
		(is_req ? req_out : cpl_out)++;
	}

	// ---- device order with the release rule (random phase): the next item
	// of `dev` is queued when the device is ready (dev_prob) and, for a
	// completion, once every request before it has been offered on s_req
	void feed()
	{
		if (dev.empty() || !coin(dev_prob))
			return;
		const Item &it = dev.front();
		if (it.is_req ? req_out >= 3 : cpl_out >= 3)
			return;
		if (!it.is_req && req_sops_offered() < it.reqs_before)
			return;
		for (const TlpBeat &b : it.beats)
			(it.is_req ? exp_req : it.smfu ? exp_sm : exp_bd).push_back(b);
		if (it.is_req)
			n_req_++;
		else if (it.smfu)
			sm_reqs_before.push_back(it.posted_before);
		(it.is_req ? req : cpl)->send_beats(it.beats);
		(it.is_req ? req_out : cpl_out)++;
		dev.pop_front();
	}

	void drive() override
	{
		feed();
		req->drive();
		cpl->drive();
		mreq->drive();
		bd->drive();
		top()->m_sm_ready = coin(sm_prob);
	}
	void sample() override
	{
		observe();
		req->sample();
		cpl->sample();
		mreq->sample();
		bd->sample();
		mreq->rx().clear();   // contents are checked beat by beat in observe()
		bd->rx().clear();
	}

	// run until every queued item went through (or a limit), then a few idle cycles
	bool drain(unsigned limit = 200000)
	{
		unsigned i = 0;
		for (; i < limit && !(dev.empty() && req->idle() && cpl->idle() && req_out == 0 && cpl_out == 0); i++)
			tick();
		idle(10);
		return i < limit;
	}

	bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

	std::unique_ptr<Src> req, cpl;
	std::unique_ptr<Snk> mreq, bd;
	double sm_prob = 1.0, dev_prob = 1.0;
	std::deque<Item> dev;                  // device order, not yet queued (random phase)
	// expected and received beats per output
	std::vector<TlpBeat> exp_req, exp_sm, exp_bd, got_req, got_sm, got_bd;
	std::vector<unsigned> sm_reqs_before;  // per SMFU completion, in order: its posted_before
	unsigned last_posted = 0;              // 1 + index of the last MWr queued so far (0: none)
	std::vector<uint64_t> req_sop_cycle, sm_sop_cycle;
	// per-cycle observations for the directed tests
	uint64_t n_sm_valid = 0, n_bd_valid = 0, n_cpl_ready = 0;
	// coverage
	uint64_t cov_held = 0, cov_withdrawn = 0, cov_bd_past_req = 0, cov_mid_tlp = 0, cov_sm_past_np = 0;

private:
	unsigned req_sops_offered() const { return (unsigned)req_sop_cycle.size() + (last_req_sop_offered_ ? 1 : 0); }

	void observe()
	{
		Vnic_cpl_split *m = top();
		TlpBeat c = beat(m->s_cpl_data, m->s_cpl_keep, m->s_cpl_sop, m->s_cpl_eop);
		TlpBeat s = beat(m->m_sm_data, m->m_sm_keep, m->m_sm_sop, m->m_sm_eop);
		TlpBeat b = beat(m->m_bd_data, m->m_bd_keep, m->m_bd_sop, m->m_bd_eop);
		TlpBeat r = beat(m->m_req_data, m->m_req_keep, m->m_req_sop, m->m_req_eop);
		TlpBeat ri = beat(m->s_req_data, m->s_req_keep, m->s_req_sop, m->s_req_eop);
		bool sm_hs = m->m_sm_valid && m->m_sm_ready, bd_hs = m->m_bd_valid && m->m_bd_ready;
		bool cpl_hs = m->s_cpl_valid && m->s_cpl_ready, req_hs = m->m_req_valid && m->m_req_ready;

		// requests: wires
		if (m->m_req_valid != m->s_req_valid || m->s_req_ready != m->m_req_ready ||
		    (m->s_req_valid && !same_beat(r, ri)))
			invariant("m_req differs from s_req");
		// one completion stream: at most one output, the beat of s_cpl, taken iff s_cpl is
		if (m->m_sm_valid && m->m_bd_valid)
			invariant("m_sm and m_bd valid together");
		if ((m->m_sm_valid && !same_beat(s, c)) || (m->m_bd_valid && !same_beat(b, c)))
			invariant("output beat differs from s_cpl");
		if ((m->m_sm_valid || m->m_bd_valid) && !m->s_cpl_valid)
			invariant("output valid without s_cpl_valid");
		if (cpl_hs != (sm_hs || bd_hs))
			invariant("s_cpl handshake without exactly one output handshake");
		// the hold: an SMFU sop never goes while a posted request (MWr header or
		// payload beat) is valid
		bool posted_v = m->s_req_valid && (!ri.sop || (ri.dw[0] >> 30 & 1));
		if (m->m_sm_valid && m->m_sm_sop && posted_v)
			invariant("SMFU completion sop offered while a posted request is valid");

		// m_sm stream rules; the one allowed exception: an offered sop withdrawn
		// because a request became valid
		if (sm_stalled_) {
			if (m->m_sm_valid && !same_beat(s, sm_last_)) {
				fprintf(stderr, "  PROTOCOL ERROR on m_sm: beat changed while valid && !ready\n");
				sm_err++;
			} else if (!m->m_sm_valid) {
				if (sm_last_.sop && posted_v) {
					cov_withdrawn++;
				} else {
					fprintf(stderr, "  PROTOCOL ERROR on m_sm: valid dropped before the beat was taken\n");
					sm_err++;
				}
			}
		}
		sm_stalled_ = m->m_sm_valid && !m->m_sm_ready;
		if (m->m_sm_valid)
			sm_last_ = s;

		// coverage
		if (m->s_cpl_valid && m->s_cpl_sop && smfu_tag((c.dw[2] >> 8) & 0xff) && posted_v)
			cov_held++;
		if (sm_hs && s.sop && m->s_req_valid && !posted_v)
			cov_sm_past_np++;
		if (bd_hs && b.sop && m->s_req_valid)
			cov_bd_past_req++;
		if (sm_hs && !s.sop && m->s_req_valid)
			cov_mid_tlp++;
		n_sm_valid += m->m_sm_valid;
		n_bd_valid += m->m_bd_valid;
		n_cpl_ready += m->s_cpl_ready;

		// handshakes
		if (req_hs) {
			got_req.push_back(r);
			if (r.sop)
				req_sop_cycle.push_back(cycle_);
			if (r.eop)
				req_out--;
		}
		if (sm_hs) {
			got_sm.push_back(s);
			if (s.sop)
				sm_sop_cycle.push_back(cycle_);
		}
		if (bd_hs)
			got_bd.push_back(b);
		if (cpl_hs && c.eop)
			cpl_out--;
		// a request sop offered and not taken stays offered (AXI), so the device
		// may release a completion behind it
		last_req_sop_offered_ = m->s_req_valid && m->s_req_sop && !req_hs;
	}

	static TlpBeat beat(const VlWide<4> &d, uint8_t keep, bool sop, bool eop)
	{
		TlpBeat b{};
		for (int i = 0; i < 4; i++)
			b.dw[i] = d[i];
		b.keep = keep;
		b.sop = sop;
		b.eop = eop;
		return b;
	}
	void invariant(const char *what)
	{
		if (inv_err < 10)
			fprintf(stderr, "  INVARIANT at cycle %" PRIu64 ": %s\n", cycle_, what);
		inv_err++;
	}

	std::mt19937 rng_;
	unsigned n_req_ = 0;
	unsigned req_out = 0, cpl_out = 0;   // queued on a source, eop not yet taken
	bool last_req_sop_offered_ = false;
	bool sm_stalled_ = false;
	TlpBeat sm_last_{};
	unsigned sm_err = 0, inv_err = 0;
};

// ---------------------------------------------------------------------------
// TLP makers
// ---------------------------------------------------------------------------
// A completion; payload dwords 4k+2 carry, in bits 15:8 (where a header beat
// has the tag), a tag of the other class: the decision must hold to eop.
static struct tlp make_cpl(unsigned tag, unsigned ndw, std::mt19937 &rng)
{
	struct tlp t;
	uint32_t d[64];
	for (unsigned i = 0; i < ndw; i++) {
		d[i] = (uint32_t)rng();
		if (i % 4 == 2)
			d[i] = (d[i] & ~0xff00u) | ((smfu_tag(tag) ? 0xffu : 0x85u) << 8);
	}
	tlp_cpl(&t, DEV_ID, 0, RP_ID, (uint8_t)tag, 0, (uint16_t)(4 * (ndw ? ndw : 1)), ndw ? d : nullptr, ndw);
	return t;
}

// A request; kind: 0 MRd, 1 MWr, other: MRd one time in four.
static struct tlp make_req(unsigned i, std::mt19937 &rng, int kind = -1)
{
	struct tlp t;
	uint32_t d[64];
	unsigned ndw = 1 + rng() % 12;
	for (unsigned k = 0; k < ndw; k++)
		d[k] = (uint32_t)rng();
	uint64_t addr = (rng() & 1) ? 0x80000000ull + 64 * i : 0x100000000ull + 64 * i;   // 3-DW / 4-DW
	bool rd = rng() % 4 == 0;
	if (kind >= 0)
		rd = kind == 0;
	if (rd)
		tlp_mrd(&t, addr, ndw, 0xf, ndw > 1 ? 0xf : 0, DEV_ID, (uint8_t)(rng() & 0x1f));
	else
		tlp_mwr(&t, addr, d, ndw, 0xf, ndw > 1 ? 0xf : 0, DEV_ID);
	return t;
}

// Outputs carry exactly their subsequences; SMFU completions after their requests.
static void check_streams(Tb &tb, const char *what)
{
	std::string w(what);
	CHECK_EQ(tb.got_req.size(), tb.exp_req.size(), (w + ": request beats").c_str());
	CHECK_EQ(tb.got_sm.size(), tb.exp_sm.size(), (w + ": m_sm beats").c_str());
	CHECK_EQ(tb.got_bd.size(), tb.exp_bd.size(), (w + ": m_bd beats").c_str());
	unsigned bad_req = 0, bad_sm = 0, bad_bd = 0;
	for (size_t i = 0; i < tb.got_req.size() && i < tb.exp_req.size(); i++)
		bad_req += !same_beat(tb.got_req[i], tb.exp_req[i]);
	for (size_t i = 0; i < tb.got_sm.size() && i < tb.exp_sm.size(); i++)
		bad_sm += !same_beat(tb.got_sm[i], tb.exp_sm[i]);
	for (size_t i = 0; i < tb.got_bd.size() && i < tb.exp_bd.size(); i++)
		bad_bd += !same_beat(tb.got_bd[i], tb.exp_bd[i]);
	CHECK_EQ(bad_req, 0, (w + ": request beats differ (content or order)").c_str());
	CHECK_EQ(bad_sm, 0, (w + ": m_sm beats differ (routing, content or order)").c_str());
	CHECK_EQ(bad_bd, 0, (w + ": m_bd beats differ (routing, content or order)").c_str());
	// ordering against the requests before each SMFU completion
	unsigned early = 0;
	CHECK_EQ(tb.sm_sop_cycle.size(), tb.sm_reqs_before.size(), (w + ": SMFU completions").c_str());
	for (size_t k = 0; k < tb.sm_sop_cycle.size() && k < tb.sm_reqs_before.size(); k++) {
		unsigned r = tb.sm_reqs_before[k];
		if (r == 0)
			continue;
		if (r > tb.req_sop_cycle.size() || tb.sm_sop_cycle[k] <= tb.req_sop_cycle[r - 1]) {
			if (early < 5)
				printf("    SMFU completion %zu (after %u requests) taken at cycle %" PRIu64 "\n", k, r,
				       tb.sm_sop_cycle[k]);
			early++;
		}
	}
	CHECK_EQ(early, 0, (w + ": SMFU completions ahead of an earlier request").c_str());
	CHECK_EQ(tb.errors(), 0, (w + ": stream protocol errors / invariants").c_str());
}

// ---------------------------------------------------------------------------
// Directed tests
// ---------------------------------------------------------------------------
static void test_routing(Tb &tb, std::mt19937 &rng)
{
	section("routing by tag, decided at sop and held to eop");
	const unsigned tags[] = {0x80, 0x8f, 0x85, 0x7f, 0x90, 0xff, 0x00, 0x70, 0xa0, 0x10, 0x1f, 0x0f, 0x20};
	for (unsigned tag : tags) {
		for (unsigned ndw : {0u, 1u, 3u, 4u, 9u}) {
			size_t sm0 = tb.got_sm.size(), bd0 = tb.got_bd.size();
			struct tlp t = make_cpl(tag, ndw, rng);
			tb.push(false, t);
			tb.drain();
			size_t beats = tlp_to_beats(t).size();
			char what[64];
			snprintf(what, sizeof(what), "tag 0x%02x, %u dwords: beats on m_sm", tag, ndw);
			CHECK_EQ(tb.got_sm.size() - sm0, smfu_tag(tag) ? beats : 0, what);
			snprintf(what, sizeof(what), "tag 0x%02x, %u dwords: beats on m_bd", tag, ndw);
			CHECK_EQ(tb.got_bd.size() - bd0, smfu_tag(tag) ? 0 : beats, what);
		}
	}
	check_streams(tb, "routing");
}

static void test_hold(Tb &tb, std::mt19937 &rng)
{
	section("an SMFU completion waits while a posted request is pending; backdoor ones do not");
	tb.mreq->prob = 0.0;                 // the request stays pending
	tb.push(true, make_req(1, rng, 1));
	tb.idle(3);
	tb.n_sm_valid = tb.n_bd_valid = 0;
	size_t bd0 = tb.got_bd.size();
	tb.push(false, make_cpl(0xff, 2, rng));   // backdoor: passes
	tb.push(false, make_cpl(0x83, 6, rng));   // SMFU: held
	tb.push(false, make_cpl(0x00, 0, rng));   // behind it: waits too (one stream)
	tb.idle(40);
	CHECK_EQ(tb.got_bd.size() - bd0, 2, "the backdoor completion passed the pending request");
	CHECK_EQ(tb.n_sm_valid, 0, "m_sm_valid never rose while the request was pending");
	CHECK(tb.cov_bd_past_req > 0, "a backdoor sop was taken while a request was valid");
	uint64_t held = tb.sm_sop_cycle.size();
	tb.mreq->prob = 1.0;
	tb.drain();
	CHECK_EQ(tb.sm_sop_cycle.size() - held, 1, "the SMFU completion went once the request was taken");
	CHECK(tb.sm_sop_cycle.back() > tb.req_sop_cycle.back(), "... after the request");
	check_streams(tb, "hold");

	section("an SMFU completion passes a pending non-posted request (MRd blocked on tags)");
	tb.mreq->prob = 0.0;                 // the MRd stays pending: no tag downstream
	tb.push(true, make_req(4, rng, 0));
	tb.idle(3);
	size_t sm0 = tb.got_sm.size(), req0 = tb.got_req.size();
	tb.push(false, make_cpl(0x86, 5, rng));   // SMFU: passes the MRd
	tb.push(false, make_cpl(0x8e, 0, rng));
	tb.idle(40);
	CHECK_EQ(tb.got_sm.size() - sm0, 4, "both SMFU completions (3 + 1 beats) went while the MRd was pending");
	CHECK_EQ(tb.got_req.size() - req0, 0, "the MRd is still pending");
	tb.mreq->prob = 1.0;
	tb.drain();
	check_streams(tb, "pass non-posted");
}

static void test_withdraw(Tb &tb, std::mt19937 &rng)
{
	section("an offered SMFU sop is withdrawn when a request arrives");
	tb.sm_prob = 0.0;                    // m_sm stalled: the sop stays offered
	tb.push(false, make_cpl(0x8a, 5, rng));
	tb.idle(5);
	Vnic_cpl_split *m = tb.top();
	CHECK(m->m_sm_valid, "the SMFU completion is offered");
	uint64_t w0 = tb.cov_withdrawn;
	tb.mreq->prob = 0.0;
	tb.push(true, make_req(2, rng, 1));  // a posted request after it in device order
	tb.idle(10);
	CHECK_EQ(tb.cov_withdrawn - w0, 1, "m_sm_valid dropped once when the request became valid");
	tb.n_sm_valid = 0;
	tb.sm_prob = 1.0;
	tb.idle(10);
	CHECK_EQ(tb.n_sm_valid, 0, "and stays low while the request is pending, even with m_sm ready");
	tb.mreq->prob = 1.0;
	tb.drain();
	check_streams(tb, "withdraw");
}

static void test_backpressure(Tb &tb, std::mt19937 &rng)
{
	section("a stalled output stalls the completion stream");
	tb.bd->prob = 0.0;
	size_t sm0 = tb.got_sm.size(), bd0 = tb.got_bd.size();
	tb.push(false, make_cpl(0x20, 7, rng));   // backdoor, stalled
	tb.push(false, make_cpl(0x81, 1, rng));   // SMFU behind it
	tb.idle(30);
	tb.n_cpl_ready = tb.n_sm_valid = 0;
	tb.idle(20);
	CHECK_EQ(tb.n_cpl_ready, 0, "s_cpl_ready low while m_bd is stalled");
	CHECK_EQ(tb.n_sm_valid, 0, "the SMFU completion behind it is not offered");
	CHECK_EQ(tb.got_bd.size() - bd0, 0, "nothing taken from m_bd");
	tb.bd->prob = 1.0;
	tb.drain();
	CHECK_EQ(tb.got_bd.size() - bd0, 3, "backdoor completion delivered");
	CHECK_EQ(tb.got_sm.size() - sm0, 2, "then the SMFU completion");

	section("the hold applies at sop only: a started SMFU completion finishes");
	tb.sm_prob = 0.0;
	tb.push(false, make_cpl(0x84, 12, rng));  // 4 beats
	tb.idle(3);
	tb.sm_prob = 1.0;
	tb.tick();                                 // sop taken
	tb.sm_prob = 0.0;
	tb.idle(2);
	tb.mreq->prob = 0.0;
	tb.push(true, make_req(3, rng));           // a request arrives mid-completion
	tb.idle(4);
	uint64_t mid0 = tb.cov_mid_tlp;
	tb.sm_prob = 1.0;
	tb.idle(10);
	CHECK_EQ(tb.cov_mid_tlp - mid0, 3, "the remaining 3 beats went while the request was valid");
	tb.mreq->prob = 1.0;
	tb.drain();
	check_streams(tb, "back-pressure");
}

// ---------------------------------------------------------------------------
// Random device stream
// ---------------------------------------------------------------------------
static void test_random(Tb &tb, std::mt19937 &rng)
{
	struct Phase {
		const char *name;
		double dev, req_v, cpl_v, req_r, sm_r, bd_r;
	};
	const Phase phases[] = {
		{"no gaps, no back-pressure", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0},
		{"requests back-pressured", 0.8, 1.0, 1.0, 0.2, 0.9, 0.9},
		{"random gaps and back-pressure", 0.6, 0.7, 0.6, 0.5, 0.5, 0.6},
		{"slow SMFU", 0.9, 0.8, 0.9, 0.7, 0.15, 0.8},
		{"slow backdoor", 0.9, 0.8, 0.9, 0.7, 0.8, 0.15},
	};
	unsigned i = 0;
	for (const Phase &p : phases) {
		char name[96];
		snprintf(name, sizeof(name), "random device stream: %s", p.name);
		section(name);
		tb.dev_prob = p.dev;
		tb.req->prob = p.req_v;
		tb.cpl->prob = p.cpl_v;
		tb.mreq->prob = p.req_r;
		tb.sm_prob = p.sm_r;
		tb.bd->prob = p.bd_r;
		for (unsigned n = 0; n < 600; n++, i++) {
			Item it;
			it.is_req = rng() % 2 == 0;
			struct tlp t;
			if (it.is_req) {
				t = make_req(i, rng);
			} else {
				unsigned tag;
				switch (rng() % 6) {
				case 0: case 1: case 2: tag = TAG_BASE + rng() % TAGS; break;
				case 3: tag = 0xff; break;
				case 4: tag = (rng() & 1) ? TAG_BASE - 1 : TAG_BASE + TAGS; break;
				default: tag = rng() & 0xff; break;
				}
				t = make_cpl(tag, (rng() % 3) ? rng() % 14 : 0, rng);
			}
			it.smfu = !it.is_req && smfu_tag(t.tag);
			it.posted = it.is_req && t.kind == TLP_MWR;
			it.beats = tlp_to_beats(t);
			tb.dev.push_back(it);
		}
		// reqs_before: the requests before it in device order, counting all
		// earlier (drained) tests
		unsigned r = (unsigned)tb.req_sop_cycle.size(), lp = tb.last_posted;
		for (Item &it : tb.dev) {
			it.reqs_before = r;
			it.posted_before = lp;
			if (it.is_req) {
				r++;
				if (it.posted)
					lp = r;
			}
		}
		tb.last_posted = lp;
		CHECK(tb.drain(), "%s: the stream drained", name);
		check_streams(tb, name);
	}
	CHECK(tb.cov_held > 100, "SMFU completions held behind requests (%" PRIu64 " cycles)", tb.cov_held);
	CHECK(tb.cov_withdrawn > 0, "offered SMFU sops withdrawn (%" PRIu64 ")", tb.cov_withdrawn);
	CHECK(tb.cov_bd_past_req > 10, "backdoor completions past pending requests (%" PRIu64 ")", tb.cov_bd_past_req);
	CHECK(tb.cov_sm_past_np > 10, "SMFU completions past pending MRd (%" PRIu64 ")", tb.cov_sm_past_np);
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	uint32_t seed = a.seed;
	Tb tb(seed, a.verbose);
	std::mt19937 rng(seed * 31 + 7);
	printf("tb_nic_cpl_split: seed %u\n", seed);
	tb.reset(4);

	test_routing(tb, rng);
	test_hold(tb, rng);
	test_withdraw(tb, rng);
	test_backpressure(tb, rng);
	test_random(tb, rng);

	printf("tb_nic_cpl_split: %zu requests, %zu SMFU and %zu backdoor completion beats\n", tb.got_req.size(),
	       tb.got_sm.size(), tb.got_bd.size());
	printf("tb_nic_cpl_split: coverage: %" PRIu64 " cycles an SMFU sop held, %" PRIu64 " withdrawn, %" PRIu64
	       " backdoor sops past a request, %" PRIu64 " SMFU beats mid-TLP past a request, %" PRIu64
	       " SMFU sops past a pending MRd\n",
	       tb.cov_held, tb.cov_withdrawn, tb.cov_bd_past_req, tb.cov_mid_tlp, tb.cov_sm_past_np);
	return tb_finish("tb_nic_cpl_split", "%" PRIu64 " cycles", tb.cycle());
}
