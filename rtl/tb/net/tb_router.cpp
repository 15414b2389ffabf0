// SPDX-License-Identifier: Apache-2.0
// tb_router: block tests of rtl/net/router.sv (N_LOCAL = 2, BUF_DEPTH = 32).
// Every input is driven by a credit-counting sender model, every output feeds a
// receiver model with a finite buffer (its credits) and random back-pressure.
// A C++ reference of the routing rules (tables, source routes, dateline VC
// rule, eject map) predicts port, VC and rewritten header of every packet.
// `tb_router bench` prints the zero-load latency instead.
#include "Vrouter.h"
#include "tb_common.h"
#include "verilated.h"

// NVC = 4 VCs {message class, dateline VC} (docs/network.md); a local inport has the
// dateline VC 0 of each class only, a packet's class is net_class() of its header.
static const int NP = 9, NVC = 4, DEPTH = 32, TN = 64, LOCAL_CAP = 32;
static const uint64_t EJECT_MAP = 0x0000000111100000ull;

static int dim_of(int p) { return p < 6 ? p / 2 : p == 6 ? 3 : 4; }

struct Exp {
	int port = 0, vc = 0;
	bool drop = false;
	Flit hdr;
};

struct RouterTB {
	Vrouter *d;
	std::mt19937_64 rng;
	uint64_t cyc = 0;
	uint8_t tbl[NP][TN] = {};
	unsigned dateline = 0;
	// senders
	struct Snd {
		std::deque<Pkt> q[NVC];
		size_t pos[NVC] = {0, 0, 0, 0};
		int cred[NVC] = {DEPTH, DEPTH, DEPTH, DEPTH};
		double prob = 1.0;
	} snd[NP];
	// receivers
	struct Rcv {
		std::deque<Flit> buf[NVC];
		std::vector<Flit> cur[NVC];
		int cap = DEPTH;
		double drain = 1.0;
	} rcv[NP];
	std::string err;
	std::function<void(int, int, std::vector<Flit> &)> on_pkt;
	uint64_t first_out_cycle[NP] = {};

	RouterTB(uint64_t seed) : rng(seed)
	{
		d = new Vrouter;
		for (int o = 0; o < NP; o++) rcv[o].cap = o < 7 ? DEPTH : LOCAL_CAP;
		d->rst = 1;
		d->clk = 0;
		d->eval();
		for (int i = 0; i < 3; i++) tick();
		d->rst = 0;
	}
	~RouterTB() { delete d; }
	double rnd() { return std::uniform_real_distribution<double>(0, 1)(rng); }
	void tick()
	{
		d->clk = 1;
		d->eval();
		d->clk = 0;
		d->eval();
		cyc++;
	}

	void write_tbl(int port, int idx, uint8_t e)
	{
		d->s_tbl_we = 1;
		d->s_tbl_addr = (port << 6) | idx;
		d->s_tbl_wdata = e;
		tick();
		d->s_tbl_we = 0;
		for (int p = 0; p < NP; p++)
			if (port == 15 || port == p) tbl[p][idx] = e;
	}

	Exp expect(int in, const Flit &h)
	{
		Exp x;
		x.hdr = h;
		int code, rule;
		unsigned vc = net_hdr_get_vc(h.w);
		if (net_hdr_get_rmode(h.w) == NET_RMODE_SOURCE) {
			uint64_t r = net_hdr_get_route(h.w);
			code = r & 7;
			rule = NET_VCRULE_AUTO;
			uint64_t rev = in < 7 ? in : 7;
			net_hdr_set_route(x.hdr.w, (r >> 3) | (rev << 18));
		} else {
			unsigned dst = net_hdr_get_dst(h.w);
			uint8_t e = tbl[in][dst & (TN - 1)];
			code = e & 7;
			rule = (e >> 3) & 3;
			x.drop = !(e >> 5) || dst >= TN;
		}
		unsigned loc = (EJECT_MAP >> (4 * net_hdr_get_ptype(h.w))) & 15;
		if (loc >= 2) loc = 0;
		x.port = code == 7 ? 7 + loc : code;
		unsigned a = code == 7 ? vc : ((dim_of(code) == dim_of(in) ? vc : 0) | ((dateline >> code) & 1));
		unsigned dl = rule == NET_VCRULE_VC0 ? 0 : rule == NET_VCRULE_VC1 ? 1 : rule == NET_VCRULE_KEEP ? vc : a;
		if (code == 7) dl = 0;  // ejected on dateline VC 0 of its class
		net_hdr_set_vc(x.hdr.w, dl);
		x.vc = (int)(net_class(h.w) << 1 | dl);
		return x;
	}

	// One clock cycle of traffic.
	bool step()
	{
		d->s_in_valid = 0;
		d->s_in_last = 0;
		d->s_in_vc = 0;
		d->s_in_drop = 0;
		for (int p = 0; p < NP; p++) {
			Snd &s = snd[p];
			int cand[NVC], n = 0;
			for (int v = 0; v < NVC; v++)
				if (!s.q[v].empty() && s.cred[v] > 0) cand[n++] = v;
			if (!n || rnd() >= s.prob) continue;
			int v = cand[rng() % n];
			Pkt &pk = s.q[v].front();
			set_flit(d->s_in_data, p, pk.f[s.pos[v]]);
			bool last = s.pos[v] + 1 == pk.f.size();
			d->s_in_valid |= 1u << p;
			d->s_in_last |= (uint32_t)last << p;
			d->s_in_vc |= (uint32_t)v << (2 * p);
			s.cred[v]--;
			if (last) {
				s.q[v].pop_front();
				s.pos[v] = 0;
			} else {
				s.pos[v]++;
			}
		}
		uint64_t oc = 0;
		for (int o = 0; o < NP; o++)
			for (int v = 0; v < NVC; v++)
				if (!rcv[o].buf[v].empty() && rnd() < rcv[o].drain) {
					rcv[o].buf[v].pop_front();
					oc |= 1ull << (o * NVC + v);
				}
		d->s_out_credit = oc;
		d->eval();
		for (int p = 0; p < NP; p++)
			for (int v = 0; v < NVC; v++)
				if ((d->m_in_credit >> (p * NVC + v)) & 1)
					if (++snd[p].cred[v] > DEPTH) {
						err = "input credit returned beyond the buffer size";
						return false;
					}
		for (int o = 0; o < NP; o++) {
			if (!((d->m_out_valid >> o) & 1)) continue;
			int v = (d->m_out_vc >> (2 * o)) & 3;
			if (o >= 7 && (v & 1)) {
				err = "local output " + std::to_string(o) + ": packet on dateline VC 1";
				return false;
			}
			Flit f = get_flit(d->m_out_data, o);
			Rcv &r = rcv[o];
			r.buf[v].push_back(f);
			if ((int)r.buf[v].size() > r.cap) {
				err = "output " + std::to_string(o) + " overran the receiver's buffer (credits broken)";
				return false;
			}
			if (!first_out_cycle[o]) first_out_cycle[o] = cyc;
			r.cur[v].push_back(f);
			if ((d->m_out_last >> o) & 1) {
				if (on_pkt) on_pkt(o, v, r.cur[v]);
				r.cur[v].clear();
			}
		}
		if (d->m_ovf) {
			err = "router input buffer overrun (m_ovf)";
			return false;
		}
		tick();
		return err.empty();
	}
	bool busy()
	{
		for (int p = 0; p < NP; p++)
			for (int v = 0; v < NVC; v++)
				if (!snd[p].q[v].empty()) return true;
		return false;
	}
};

// A scoreboard: every sent packet's expectation; checks exactly once, intact,
// in order per (inport, injection VC, destination, route).
struct Board {
	std::map<uint64_t, std::pair<Exp, Pkt>> pending;
	std::map<std::tuple<int, int, unsigned, uint64_t>, uint64_t> last_id;
	std::map<uint64_t, std::tuple<int, int, unsigned, uint64_t>> key_of;
	uint64_t delivered = 0, dropped_expected = 0;
	std::string err;
	void sent(RouterTB &tb, int in, int vc, Pkt &p)
	{
		Exp x = tb.expect(in, p.f[0]);
		if (x.drop) {
			dropped_expected++;
			return;
		}
		pending[p.id] = {x, p};
		key_of[p.id] = {in, vc, (unsigned)net_hdr_get_dst(p.f[0].w), net_hdr_get_route(p.f[0].w)};
	}
	void got(int o, int v, std::vector<Flit> &f)
	{
		if (!err.empty()) return;
		uint64_t id = net_hdr_get_cmd(f[0].w);
		auto it = pending.find(id);
		if (it == pending.end()) {
			err = "packet " + std::to_string(id) + " delivered twice or never sent";
			return;
		}
		Exp &x = it->second.first;
		Pkt &p = it->second.second;
		if (o != x.port || v != x.vc) {
			char b[160];
			snprintf(b, sizeof b, "packet %llu on port %d vc %d, expected port %d vc %d", (unsigned long long)id, o, v, x.port, x.vc);
			err = b;
			return;
		}
		if (f.size() != p.f.size() || !flit_eq(f[0], x.hdr)) {
			err = "packet " + std::to_string(id) + " header/length wrong";
			return;
		}
		for (size_t i = 1; i < f.size(); i++)
			if (!flit_eq(f[i], p.f[i])) {
				err = "packet " + std::to_string(id) + " payload corrupted";
				return;
			}
		auto k = key_of[id];
		auto li = last_id.find(k);
		if (li != last_id.end() && li->second > id) {
			err = "packet " + std::to_string(id) + " overtook an older packet of its flow";
			return;
		}
		last_id[k] = id;
		pending.erase(it);
		delivered++;
	}
};

static uint64_t next_id = 1;

// dl: the dateline VC the packet arrives on (a link inport; local inports: 0). It
// enters the buffer of VC {net_class(header), dl}.
static void enqueue(RouterTB &tb, Board &b, int in, int dl, Pkt p)
{
	if (in >= 7) dl = 0;
	net_hdr_set_vc(p.f[0].w, dl);
	int vc = (int)(net_class(p.f[0].w) << 1) | dl;
	b.sent(tb, in, vc, p);
	tb.snd[in].q[vc].push_back(p);
}

static bool drain(RouterTB &tb, Board &b, uint64_t limit)
{
	uint64_t t0 = tb.cyc, quiet = 0;
	while (tb.cyc - t0 < limit) {
		if (!tb.step()) {
			printf("    %s\n", tb.err.c_str());
			return false;
		}
		if (!b.err.empty()) {
			printf("    %s\n", b.err.c_str());
			return false;
		}
		if (!tb.busy() && b.pending.empty() && ++quiet > 50) return true;
	}
	printf("    timeout: %zu packets not delivered (deadlock or loss)\n", b.pending.size());
	return false;
}

static uint8_t rand_entry(std::mt19937_64 &rng, bool allow_invalid)
{
	uint8_t port = rng() % 8, rule = (rng() % 4 == 0) ? rng() % 4 : 0;
	bool valid = !allow_invalid || rng() % 16;
	return (uint8_t)(valid << 5 | rule << 3 | port);
}

static int bench(void)
{
	RouterTB tb(7);
	tb.write_tbl(15, 1, 1 << 5 | NET_PORT_XP);
	struct Case {
		const char *what;
		int in;
		unsigned plen;
	} cases[] = {{"local inport (cut-through), 1-flit packet", 7, 0},
		     {"local inport (cut-through), 5-flit packet (64 B)", 7, 4},
		     {"link inport (store-and-forward), 1-flit packet", 2, 0},
		     {"link inport (store-and-forward), 5-flit packet (64 B)", 2, 4},
		     {"link inport (store-and-forward), 17-flit packet (256 B)", 2, 16}};
	printf("router zero-load latency, header flit into the input buffer -> header in the output register:\n");
	for (auto &c : cases) {
		for (int i = 0; i < 20; i++) tb.step();
		for (auto &x : tb.first_out_cycle) x = 0;
		Pkt p = make_pkt(tb.rng, next_id++, 1, 0, NET_TYPE_RRA_RD, 0, NET_RMODE_TABLE, 0, c.plen);
		tb.snd[c.in].q[0].push_back(p);
		uint64_t t0 = tb.cyc;
		for (int i = 0; i < 40; i++) tb.step();
		printf("  %-58s %3llu cycles\n", c.what, (unsigned long long)(tb.first_out_cycle[0] - t0));
	}
	return 0;
}

// Let board b check every packet the router delivers; set the dateline links.
static void collect(RouterTB &tb, Board &b, unsigned dateline)
{
	tb.on_pkt = [&b](int o, int v, std::vector<Flit> &f) { b.got(o, v, f); };
	tb.dateline = dateline;
	tb.d->cfg_dateline = tb.dateline;
}

int main(int argc, char **argv)
{
	if (tb_args(argc, argv).bench) return bench();
	TbRunner r;

	r.run("router_tables", "per-inport tables (incl. broadcast writes, read-back) route every destination to its port "
			       "with the table's VC rule; headers only change in the VC field", [&] {
		RouterTB tb(11);
		Board b;
		collect(tb, b, 0x15);
		for (int i = 0; i < TN; i++) tb.write_tbl(15, i, rand_entry(tb.rng, false));
		for (int p = 0; p < NP; p++)
			for (int i = 0; i < TN; i++)
				if (tb.rng() % 3 == 0) tb.write_tbl(p, i, rand_entry(tb.rng, false));
		for (int p = 0; p < NP; p++)
			for (int i = 0; i < TN; i++) {
				tb.d->s_tbl_raddr = (p << 6) | i;
				tb.d->eval();
				EXPECT(tb.d->m_tbl_rdata == tb.tbl[p][i], "read-back port %d dst %d", p, i);
			}
		for (int n = 0; n < 3000; n++) {
			int in = tb.rng() % NP, vc = tb.rng() % 2;
			Pkt p = make_pkt(tb.rng, next_id++, tb.rng() % TN, in, 1 + tb.rng() % 8, vc, NET_RMODE_TABLE, 0, tb.rng() % 5);
			enqueue(tb, b, in, vc, p);
		}
		EXPECT(drain(tb, b, 200000), "drain");
		EXPECT(b.delivered == 3000, "delivered %llu", (unsigned long long)b.delivered);
		EXPECT(tb.d->m_noroute_cnt == 0, "no drops expected");
		printf("    3000 packets routed as programmed\n");
		return true;
	});

	r.run("router_source", "with no table written, source-routed packets follow their hop list, the header "
			       "records the way back; table-mode packets are dropped and counted", [&] {
		RouterTB tb(12);
		Board b;
		collect(tb, b, 0x42);
		int drops = 0;
		for (int n = 0; n < 2000; n++) {
			int in = tb.rng() % NP, vc = tb.rng() % 2;
			bool src = tb.rng() % 8;
			Pkt p = make_pkt(tb.rng, next_id++, tb.rng() % 1000, in, 1 + tb.rng() % 8, vc,
					 src ? NET_RMODE_SOURCE : NET_RMODE_TABLE, src ? tb.rng() & 0x1FFFFF : 0, tb.rng() % 5);
			if (!src) drops++;
			enqueue(tb, b, in, vc, p);
		}
		EXPECT(drain(tb, b, 200000), "drain");
		EXPECT(b.delivered == 2000 - (uint64_t)drops, "delivered %llu", (unsigned long long)b.delivered);
		EXPECT((int)tb.d->m_noroute_cnt == drops, "noroute count %u expected %d", tb.d->m_noroute_cnt, drops);
		// the way back: a 3-hop route X+, Y-, eject; rewritten by three routers = our
		// router seen from inports local 7, X- 1, Y+ 2 in turn
		uint64_t route = 0 | (3 << 3) | (7 << 6) | (0x1FFFFFull & ~0x1FFull), r = route;
		int ins[3] = {7, 1, 2};
		for (int h = 0; h < 3; h++) r = (r >> 3) | ((uint64_t)(ins[h] < 7 ? ins[h] : 7) << 18);
		uint64_t back = net_route_reverse(r);
		EXPECT((back & 0x1FF) == (2 | 1 << 3 | 7 << 6), "reverse route %llx", (unsigned long long)back);
		printf("    %llu source-routed packets delivered, %d table-mode packets dropped and counted\n",
		       (unsigned long long)b.delivered, drops);
		return true;
	});

	r.run("router_stress", "random traffic from all inputs to all outputs (all four VCs, 1..32 flits, some no-route "
			       "drops) with random back-pressure: credits never overflow, every packet delivered exactly "
			       "once, intact, in order per (inport, VC, destination)", [&] {
		RouterTB tb(13);
		Board b;
		collect(tb, b, tb.rng() & 0x7F);
		for (int p = 0; p < NP; p++)
			for (int i = 0; i < TN; i++) tb.write_tbl(p, i, rand_entry(tb.rng, true));
		for (int p = 0; p < NP; p++) {
			tb.snd[p].prob = 0.2 + 0.8 * tb.rnd();
			tb.rcv[p].drain = (p % 3 == 0 || p == 8) ? 0.05 + 0.2 * tb.rnd() : 0.3 + 0.7 * tb.rnd();
		}
		const int N = 20000;
		for (int n = 0; n < N; n++) {
			int in = tb.rng() % NP, vc = tb.rng() % 2;
			bool src = tb.rng() % 10 == 0;
			unsigned plen = tb.rng() % 50 == 0 ? 31 : tb.rng() % 17;
			Pkt p = make_pkt(tb.rng, next_id++, tb.rng() % (TN + 2), in, 1 + tb.rng() % 8, vc,
					 src ? NET_RMODE_SOURCE : NET_RMODE_TABLE, src ? tb.rng() & 0x1FFFFF : 0, plen);
			enqueue(tb, b, in, vc, p);
		}
		EXPECT(drain(tb, b, 4000000), "drain");
		EXPECT(b.delivered + b.dropped_expected == N, "count");
		EXPECT(tb.d->m_noroute_cnt == b.dropped_expected, "noroute %u expected %llu", tb.d->m_noroute_cnt,
		       (unsigned long long)b.dropped_expected);
		printf("    %llu delivered, %llu dropped for no route, %llu cycles\n", (unsigned long long)b.delivered,
		       (unsigned long long)b.dropped_expected, (unsigned long long)tb.cyc);
		return true;
	});

	r.run("router_fair", "a 32-flit packet (every credit of the output VC) competes for X+ VC0 with continuous streams "
			     "of 1-flit packets from three other inputs while the receiver drains slowly: it gets through "
			     "within a bound (credit reservation), from a link inport and from a local inport", [&] {
		RouterTB tb(14);
		Board b;
		collect(tb, b, 0);
		tb.write_tbl(15, 1, 1 << 5 | NET_VCRULE_VC0 << 3 | NET_PORT_XP);  // everything to X+ on VC0
		tb.rcv[0].drain = 0.6;
		uint64_t t_long = 0, delivered_long = 0, long_id = 0;
		auto inner = tb.on_pkt;
		tb.on_pkt = [&](int o, int v, std::vector<Flit> &f) {
			if (net_hdr_get_cmd(f[0].w) == long_id) delivered_long = tb.cyc;
			inner(o, v, f);
		};
		const int streams[3] = {2, 7, 5}, longs[2] = {3, 8};
		for (int in : streams)
			for (int n = 0; n < 4000; n++)
				enqueue(tb, b, in, 0, make_pkt(tb.rng, next_id++, 1, in, NET_TYPE_RRA_RD, 0, NET_RMODE_TABLE, 0, 0));
		uint64_t worst = 0;
		for (int in : longs) {
			for (int c = 0; c < 300; c++) EXPECT(tb.step(), "%s", tb.err.c_str());
			long_id = next_id++;
			delivered_long = 0;
			enqueue(tb, b, in, 0, make_pkt(tb.rng, long_id, 1, in, NET_TYPE_RRA_WR, 0, NET_RMODE_TABLE, 0, 31));
			t_long = tb.cyc;
			// 32 cycles to write it, at most one short packet still leaving, then the
			// receiver frees its 32 slots at 0.6 per cycle: ~90 cycles expected
			const uint64_t BOUND = 400;
			while (!delivered_long && tb.cyc - t_long < 5000) EXPECT(tb.step(), "%s", tb.err.c_str());
			EXPECT(tb.busy(), "the short streams ran dry before the long packet was through");
			EXPECT(delivered_long && delivered_long - t_long <= BOUND,
			       "32-flit packet from inport %d: %s after %llu cycles (bound %llu)", in,
			       delivered_long ? "delivered" : "not delivered", (unsigned long long)(tb.cyc - t_long),
			       (unsigned long long)BOUND);
			worst = std::max(worst, delivered_long - t_long);
		}
		EXPECT(drain(tb, b, 200000), "drain");
		EXPECT(b.delivered == 3 * 4000 + 2, "delivered %llu", (unsigned long long)b.delivered);
		printf("    32-flit packets delivered at most %llu cycles after they were sent, among 12,000 short packets\n",
		       (unsigned long long)worst);
		return true;
	});

	return r.finish("tb_router");
}
