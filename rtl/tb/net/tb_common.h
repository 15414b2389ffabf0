// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the network block tests (rtl/tb/net): packets built and
// parsed with hw/include/net_packet.h, flit access to Verilator wide signals;
// the test runner (TbRunner) and EXPECT come from the common harness rtl/tb/tb.h.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "net_packet.h"
#include "tb.h"

using Flit = net_flit;

static inline bool flit_eq(const Flit &a, const Flit &b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }

// Flit p of a packed [N-1:0][127:0] Verilator signal (array of 32-bit words).
template <class W> static inline Flit get_flit(const W &sig, int p)
{
	Flit f;
	f.w[0] = (uint64_t)sig[4 * p + 0] | ((uint64_t)sig[4 * p + 1] << 32);
	f.w[1] = (uint64_t)sig[4 * p + 2] | ((uint64_t)sig[4 * p + 3] << 32);
	return f;
}
template <class W> static inline void set_flit(W &sig, int p, const Flit &f)
{
	sig[4 * p + 0] = (uint32_t)f.w[0];
	sig[4 * p + 1] = (uint32_t)(f.w[0] >> 32);
	sig[4 * p + 2] = (uint32_t)f.w[1];
	sig[4 * p + 3] = (uint32_t)(f.w[1] >> 32);
}
// A delivered packet against the one sent: its header (the VC ignored; the route
// field too for a source-routed packet, whose route now holds the way back), its
// length, its payload, and its order within its flow (key: last_id holds the newest
// id delivered per flow and is updated). Returns "" or what is wrong.
using FlowKey = std::tuple<int, int, int>;
static inline std::string check_delivery(uint64_t id, const std::vector<Flit> &got,
					 const std::vector<Flit> &sent, const FlowKey &key,
					 std::map<FlowKey, uint64_t> &last_id)
{
	Flit h = got[0], x = sent[0];
	net_hdr_set_vc(h.w, 0);
	net_hdr_set_vc(x.w, 0);
	if (net_hdr_get_rmode(x.w) == NET_RMODE_SOURCE) {
		net_hdr_set_route(h.w, 0);
		net_hdr_set_route(x.w, 0);
	}
	std::string pkt = "packet " + std::to_string(id);
	if (got.size() != sent.size() || !flit_eq(h, x)) return pkt + " header/length changed";
	for (size_t k = 1; k < got.size(); k++)
		if (!flit_eq(got[k], sent[k])) return pkt + " payload changed";
	auto li = last_id.find(key);
	if (li != last_id.end() && li->second > id) return pkt + " overtook an older packet of its flow";
	last_id[key] = id;
	return "";
}

static inline uint64_t bit(uint64_t v, int i) { return (v >> i) & 1u; }
static inline uint64_t setbit(uint64_t v, int i, uint64_t b) { return (v & ~(1ull << i)) | ((b & 1) << i); }

struct Pkt {
	std::vector<Flit> f;
	uint64_t id = 0;
};

// One flit of a unit port's sender s (fields q[class], pos, cur, rr, cred[class]: the
// tbs' Snd) onto local port u of model m, on the local VC of class c: valid, last, vc
// and data set, a credit taken; at the packet's last flit the next class in turn.
template <class M, class S> static inline void send_loc_flit(M *m, S &s, int u, int c, int nclass)
{
	const std::vector<Flit> &f = s.q[c].front().f;
	bool last = s.pos + 1 == f.size();

	set_flit(m->s_loc_data, u, f[s.pos]);
	m->s_loc_valid |= 1u << u;
	m->s_loc_last |= (uint32_t)last << u;
	m->s_loc_vc |= (uint32_t)c << u;
	s.cred[c]--;
	s.cur = c;
	if (last) {
		s.q[c].pop_front();
		s.pos = 0;
		s.cur = -1;
		s.rr = (c + 1) % nclass;
	} else {
		s.pos++;
	}
}


// A packet: header from the arguments, cmd = id, payload flit 0 word 0 = id,
// everything else random.
static inline Pkt make_pkt(std::mt19937_64 &rng, uint64_t id, unsigned dst, unsigned src, unsigned type,
			   unsigned vc, unsigned rmode, uint64_t route, unsigned plen)
{
	Pkt p;
	p.id = id;
	Flit h = {{0, 0}};
	net_hdr_set_dst(h.w, dst);
	net_hdr_set_src(h.w, src);
	net_hdr_set_ptype(h.w, type);
	net_hdr_set_vc(h.w, vc);
	net_hdr_set_rmode(h.w, rmode);
	net_hdr_set_plen(h.w, plen);
	net_hdr_set_route(h.w, route);
	net_hdr_set_cmd(h.w, id);
	p.f.push_back(h);
	for (unsigned i = 0; i < plen; i++) {
		Flit d = {{rng(), rng()}};
		if (i == 0) d.w[0] = id;
		p.f.push_back(d);
	}
	return p;
}
