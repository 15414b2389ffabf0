// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_net_fence: Verilator block test of the boundary between the network's
// reset domain and the NIC function's (rtl/nic/nic_net_fence.sv, docs/network.md
// "Reset domains"). Two local ports, small buffers (LOCAL_BUF_DEPTH =
// LOCAL_CREDITS = 8 flits per class).
//
// A C++ router model on the network side: per port and class an inport buffer
// (overrun checked) drained at random with a credit pulse per flit, and an
// outport that sends whole packets (header with plen, every flit tagged with
// packet id and index) on the credits it holds. A C++ unit model on the
// function side, reset by m_fn_rst: receive buffers drained at random with
// credit pulses, packets injected flit by flit with random gaps (so that a
// reset cuts them), registered outputs in the first cycle of its reset (which
// the fence must ignore). fn_rst in random windows.
//
// Checks: no buffer overrun on either side, never more credits back than
// flits; the unit receives only whole packets of the router, in order, each
// once; packets sent to the unit = received whole + those whole in its buffer
// when its reset came + m_drop_cnt; the router
// receives the unit's packets whole and in order, or a prefix of one ended by
// filler flits so that its flit count is not plen + 1 (counted: m_cut_cnt);
// at the end (quiet, fn_rst low) m_clean, m_fn_rst low, every credit home on
// both sides.
//
// Usage: tb_nic_net_fence [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <vector>

#include "Vnic_net_fence.h"
#include "tb.h"
#include "verilated.h"

static const int NP = 2, NC = 2, DEPTH = 8, CRED = 8;

struct Flit {
	uint32_t id;      // packet id (0: filler)
	unsigned idx;     // flit index in its packet
	unsigned plen;    // the header's plen
	bool last;
};

// flit data of port u (words 4u..4u+3 of the packed ports): the header's plen
// at [42:38], id in word 2, index in word 3
static void put_flit(VlWide<8> &d, int u, const Flit &f)
{
	d[4 * u + 0] = 0;
	d[4 * u + 1] = f.idx == 0 ? (uint32_t)f.plen << (38 - 32) : 0;
	d[4 * u + 2] = f.id;
	d[4 * u + 3] = f.idx;
}
static Flit get_flit(const VlWide<8> &d, int u, bool last)
{
	return Flit{d[4 * u + 2], d[4 * u + 3], 0, last};
}

class Tb : public TbModel<Vnic_net_fence> {
public:
	explicit Tb(uint32_t seed) : rng(seed) {}
	std::mt19937 rng;
	bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

	uint64_t fr_on = ~0ull, fr_off = 0;   // fn_rst in [fr_on, fr_off)
	bool gen = true;                      // generate new packets

	// ---- router model (network side)
	std::deque<Flit> r_in[NP][NC];        // inport buffers (flits from the fence)
	std::vector<Flit> r_cur[NP][NC];      // packet being received
	unsigned r_credit[NP][NC];            // credits toward the unit (outport)
	bool r_cpulse[NP][NC] = {};           // credit pulse to the fence (next cycle)
	std::deque<Flit> r_out[NP];           // flits of the packet being sent
	unsigned r_out_cls[NP] = {};
	uint32_t next_id = 1;
	std::deque<std::vector<Flit>> r_sent[NP][NC];   // packets sent to the unit, not yet accounted
	uint64_t r_sent_pkts = 0;

	// ---- unit model (function side)
	std::deque<Flit> u_buf[NP][NC];       // receive buffers
	std::vector<Flit> u_cur[NP][NC];      // packet being received
	bool u_cpulse[NP][NC] = {};
	unsigned u_credit[NP][NC];            // credits into the router's inport
	std::deque<Flit> u_pkt[NP];           // flits of the packet being injected
	unsigned u_cls[NP] = {};
	std::deque<std::vector<Flit>> u_sent[NP][NC];   // packets the unit injected (begun)
	uint64_t u_recv_pkts = 0, u_lost_pkts = 0, r_whole = 0, r_cut = 0;

	void init()
	{
		for (int u = 0; u < NP; u++)
			for (int c = 0; c < NC; c++) {
				r_credit[u][c] = CRED;
				u_credit[u][c] = DEPTH;
			}
	}

	std::vector<Flit> make_pkt(unsigned plen)
	{
		std::vector<Flit> p;
		uint32_t id = next_id++;
		for (unsigned i = 0; i <= plen; i++)
			p.push_back(Flit{id, i, plen, i == plen});
		return p;
	}

protected:
	void drive() override
	{
		auto *t = top();
		t->fn_rst = cycle_ >= fr_on && cycle_ < fr_off;
		bool frst = t->m_fn_rst;
		if (t->rst) {   // the node's reset: both models idle
			t->s_fn_valid = t->s_fn_credit = t->s_net_valid = t->s_net_credit = 0;
			return;
		}
		// the unit: registered outputs, so in the first cycle of its reset it
		// still offers what its state says (the fence must ignore it); its state
		// resets at every edge with m_fn_rst high (posedge)
		t->s_fn_valid = 0;
		t->s_fn_last = 0;
		t->s_fn_vc = 0;
		t->s_fn_credit = 0;
		for (int u = 0; u < NP; u++) {
			for (int c = 0; c < NC; c++)
				if (u_cpulse[u][c])
					t->s_fn_credit |= 1u << (u * NC + c);
			if (!frst && u_pkt[u].empty() && gen && coin(0.3)) {
				unsigned c = rng() % NC;
				auto p = make_pkt(rng() % 5);
				u_cls[u] = c;
				for (auto &f : p)
					u_pkt[u].push_back(f);
			}
			if (!u_pkt[u].empty() && u_credit[u][u_cls[u]] > 0 && coin(0.6)) {
				Flit f = u_pkt[u].front();
				if (!frst) {
					u_pkt[u].pop_front();
					u_credit[u][u_cls[u]]--;
					if (f.idx == 0)
						u_sent[u][u_cls[u]].push_back({});
					u_sent[u][u_cls[u]].back().push_back(f);
				}
				t->s_fn_valid |= 1u << u;
				if (f.last)
					t->s_fn_last |= 1u << u;
				if (u_cls[u])
					t->s_fn_vc |= 1u << u;
				put_flit(t->s_fn_data, u, f);
			}
		}
		// the router: credit pulses for its inports, packets out on its credits
		t->s_net_credit = 0;
		t->s_net_valid = 0;
		t->s_net_last = 0;
		t->s_net_vc = 0;
		for (int u = 0; u < NP; u++) {
			for (int c = 0; c < NC; c++)
				if (r_cpulse[u][c])
					t->s_net_credit |= 1u << (u * NC + c);
			if (r_out[u].empty() && gen && coin(0.3)) {
				unsigned c = rng() % NC;
				auto p = make_pkt(rng() % 5);
				r_out_cls[u] = c;
				r_sent[u][c].push_back(p);
				r_sent_pkts++;
				for (auto &f : p)
					r_out[u].push_back(f);
			}
			unsigned c = r_out_cls[u];
			if (!r_out[u].empty() && r_credit[u][c] > 0 && coin(0.7)) {
				Flit f = r_out[u].front();
				r_out[u].pop_front();
				r_credit[u][c]--;
				t->s_net_valid |= 1u << u;
				if (f.last)
					t->s_net_last |= 1u << u;
				if (c)
					t->s_net_vc |= 1u << u;
				put_flit(t->s_net_data, u, f);
			}
		}
	}

	void sample() override
	{
		auto *t = top();
		bool frst = t->m_fn_rst;
		rst_seen_ = frst;
		for (int u = 0; u < NP; u++) {
			// into the router's inport
			if (t->m_net_valid >> u & 1) {
				unsigned c = t->m_net_vc >> u & 1;
				CHECK(r_in[u][c].size() < (size_t)DEPTH, "port %d class %u: router inport overrun", u, c);
				r_in[u][c].push_back(get_flit(t->m_net_data, u, t->m_net_last >> u & 1));
			}
			// credits from the fence to the router's outport
			for (int c = 0; c < NC; c++) {
				if (t->m_net_credit >> (u * NC + c) & 1) {
					r_credit[u][c]++;
					CHECK(r_credit[u][c] <= (unsigned)CRED, "port %d class %d: more credits than flits", u, c);
				}
				if (t->m_fn_credit >> (u * NC + c) & 1) {
					CHECK(!frst, "port %d class %d: credit to a unit in reset", u, c);
					u_credit[u][c]++;
					CHECK(u_credit[u][c] <= (unsigned)DEPTH, "port %d class %d: unit gets more credits than flits", u, c);
				}
			}
			// to the unit
			if (t->m_fn_valid >> u & 1) {
				unsigned c = t->m_fn_vc >> u & 1;
				CHECK(!frst, "port %d: flit to a unit in reset", u);
				CHECK(u_buf[u][c].size() < (size_t)CRED, "port %d class %u: unit buffer overrun", u, c);
				u_buf[u][c].push_back(get_flit(t->m_fn_data, u, t->m_fn_last >> u & 1));
			}
		}
	}

	void posedge() override
	{
		// router: pop one flit per port at random (credit next cycle); whole packets checked
		for (int u = 0; u < NP; u++) {
			for (int c = 0; c < NC; c++)
				r_cpulse[u][c] = false;
			for (int c = 0; c < NC; c++) {
				if (r_in[u][c].empty() || !coin(0.5))
					continue;
				Flit f = r_in[u][c].front();
				r_in[u][c].pop_front();
				r_cpulse[u][c] = true;
				r_cur[u][c].push_back(f);
				if (f.last) {
					check_router_pkt(u, c, r_cur[u][c]);
					r_cur[u][c].clear();
				}
				break;
			}
		}
		// unit: reset at this edge, or drain one flit per port at random (credit next cycle)
		for (int u = 0; u < NP; u++) {
			for (int c = 0; c < NC; c++)
				u_cpulse[u][c] = false;
			if (rst_seen_) {
				u_pkt[u].clear();
				for (int c = 0; c < NC; c++) {
					for (auto &f : u_buf[u][c])   // delivered whole, lost in the unit's reset
						u_lost_pkts += f.last;
					u_buf[u][c].clear();
					u_cur[u][c].clear();
					u_credit[u][c] = DEPTH;
				}
				continue;
			}
			int c = rng() % NC;
			if (u_buf[u][c].empty() || !coin(0.5))
				continue;
			Flit f = u_buf[u][c].front();
			u_buf[u][c].pop_front();
			u_cpulse[u][c] = true;
			u_cur[u][c].push_back(f);
			if (f.last) {
				check_unit_pkt(u, c, u_cur[u][c]);
				u_cur[u][c].clear();
			}
		}
	}

private:
	bool rst_seen_ = false;   // m_fn_rst in the cycle before this edge

	// a packet the router's inport received from the fence
	void check_router_pkt(int u, int c, const std::vector<Flit> &p)
	{
		CHECK(!u_sent[u][c].empty(), "port %d class %d: router got a packet the unit never began", u, c);
		if (u_sent[u][c].empty())
			return;
		std::vector<Flit> s = u_sent[u][c].front();
		u_sent[u][c].pop_front();
		unsigned plen = s[0].plen;
		bool whole = p.size() == plen + 1;
		for (size_t i = 0; i < p.size(); i++) {
			bool want_unit = i < s.size();
			if (want_unit) {
				CHECK(p[i].id == s[i].id && p[i].idx == s[i].idx,
				      "port %d class %d: flit %zu of packet %u: got id %u idx %u", u, c, i, s[0].id, p[i].id, p[i].idx);
			} else {
				CHECK(p[i].id == 0 && p[i].idx == 0, "port %d class %d: filler flit %zu not zero", u, c, i);
				whole = false;
			}
		}
		if (whole) {
			CHECK(s.size() == plen + 1, "port %d class %d: packet %u whole", u, c, s[0].id);
			r_whole++;
		} else {
			CHECK(p.size() != plen + 1, "port %d class %d: cut packet %u of plen %u: %zu flits (must differ from plen + 1)",
			      u, c, s[0].id, plen, p.size());
			CHECK(s.size() < plen + 1 || p.size() == s.size(), "port %d class %d: cut packet has the unit's flits", u, c);
			r_cut++;
		}
	}

	// a packet the unit received whole: the next not yet dropped packet of the router
	void check_unit_pkt(int u, int c, const std::vector<Flit> &p)
	{
		u_recv_pkts++;
		CHECK(!p.empty() && p[0].idx == 0, "port %d class %d: unit got a packet without its header", u, c);
		// skip packets the fence dropped
		while (!r_sent[u][c].empty() && r_sent[u][c].front()[0].id != p[0].id)
			r_sent[u][c].pop_front();
		CHECK(!r_sent[u][c].empty(), "port %d class %d: unit got packet %u out of order or twice", u, c, p[0].id);
		if (r_sent[u][c].empty())
			return;
		const std::vector<Flit> &s = r_sent[u][c].front();
		CHECK(p.size() == s.size(), "port %d class %d: packet %u: %zu flits, want %zu", u, c, s[0].id, p.size(), s.size());
		for (size_t i = 0; i < p.size() && i < s.size(); i++)
			CHECK(p[i].id == s[i].id && p[i].idx == s[i].idx, "port %d class %d: packet %u flit %zu", u, c, s[0].id, i);
		r_sent[u][c].pop_front();
	}
};

int main(int argc, char **argv)
{
	Verilated::commandArgs(argc, argv);
	TbArgs a = tb_args(argc, argv);
	Tb tb(a.seed);
	tb.init();
	printf("tb_nic_net_fence: seed %u\n", a.seed);
	tb.reset();
	section("random traffic both ways, fn_rst in random windows");
	unsigned resets = 0;
	uint64_t in_reset = 0;
	while (tb.cycle() < 200000) {
		uint64_t gap = 50 + tb.rng() % 2000;
		uint64_t len = 1 + tb.rng() % 200;
		tb.fr_on = tb.cycle() + gap;
		tb.fr_off = tb.fr_on + len;
		resets++;
		in_reset += len;
		tb.idle(gap + len);
	}
	section("quiet: the boundary clean, every credit home");
	tb.gen = false;
	tb.idle(2000);
	auto *t = tb.top();
	CHECK(t->m_clean, "m_clean at the end");
	CHECK(!t->m_fn_rst, "m_fn_rst low at the end");
	for (int u = 0; u < NP; u++)
		for (int c = 0; c < NC; c++) {
			CHECK_EQ(tb.r_credit[u][c], CRED, "router outport credits home");
			CHECK_EQ(tb.u_credit[u][c], DEPTH, "unit credits home");
			if (tb.r_credit[u][c] != CRED)
				printf("  port %d class %d: unit buffer %zu, cur %zu, router out %zu, in %zu\n", u, c,
				       tb.u_buf[u][c].size(), tb.u_cur[u][c].size(), tb.r_out[u].size(), tb.r_in[u][c].size());
		}
	uint64_t dropped = t->m_drop_cnt, cut = t->m_cut_cnt;
	CHECK_EQ(tb.u_recv_pkts + tb.u_lost_pkts + dropped, tb.r_sent_pkts,
		 "packets to the units: received whole + lost in the units' buffers at their reset + dropped = sent");
	CHECK_EQ(tb.r_cut, cut, "packets from the units cut = m_cut_cnt");
	CHECK(dropped > 0 && cut > 0, "the resets dropped (%" PRIu64 ") and cut (%" PRIu64 ") packets", dropped, cut);
	printf("  %u resets, %" PRIu64 " cycles in reset; to the units: %" PRIu64 " packets sent, %" PRIu64
	       " received, %" PRIu64 " lost in the units' reset, %" PRIu64 " dropped; from the units: %" PRIu64 " whole, %" PRIu64 " cut\n",
	       resets, in_reset, tb.r_sent_pkts, tb.u_recv_pkts, tb.u_lost_pkts, dropped, tb.r_whole, cut);
	return tb_finish("tb_nic_net_fence", "%" PRIu64 " cycles", tb.cycle());
}
