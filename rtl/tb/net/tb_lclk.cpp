// SPDX-License-Identifier: Apache-2.0
// tb_lclk: links between nodes whose clocks are all unrelated (docs/network.md
// "Link clocking"). Each node is rtl/net/net_node_lclk.sv (net_node + a
// link_phy_cdc per link); the harness wires N of them into a ring along X
// (X+ of node i to X- of node i+1), and drives every clock from one event-time
// loop in femtoseconds: each node's core clock and each link's PHY transmit
// clock have their own frequency and phase; the far receiver's PHY side is
// clocked by that transmit clock (as a transceiver recovers it).
//
//   node 0: core 156.25 MHz,          PHY 161.1328 MHz (+0, +20 ppm per link)
//   node 1: core 156.25 MHz -300 ppm, PHY 156.25 MHz -2300 ppm (slower than its core)
//   node 2: core 156.25 MHz +1500 ppm, PHY 161.1328 MHz +100 ppm
//   node 3: core 156.25 MHz +200 ppm, PHY 156.25 MHz +300 ppm
//
// So every kind of rate matching happens: a PHY faster than its core (IDLEs
// inserted on transmit, deleted on receive), a PHY slower than its core (node
// 1: its FIFO drains only thanks to link_tx's forced IDLE, LINK_IDLE_GAP), a
// receiving core slower than the sending one (node 1 from node 2: 1800 ppm),
// and a receiving core faster than the far PHY (IDLEs inserted on receive).
// Synchronisers jitter (sync_bit SIM_SYNC_JITTER: a changed bit arrives one
// edge late at random).
//
// Zero-load latency: the crossings' latency (a one-hop packet's minus a local
// one's minus net_node's own) within the bounds the synchronisers imply; a
// synchroniser bypassed (its output its raw input) shows only there.
//
// Traffic: random all-to-all packets (both classes, plen 0..31, random unit
// back-pressure), then long-packet streams both ways between nodes 1 and 2
// that keep that link saturated. Checks: every packet delivered exactly once,
// at the right port, intact, in order per flow; the links train and never go
// down; no bad symbol, no NAK, no replay (the link layer's retransmission is
// never needed for clock reasons); no FIFO overflow (link_phy_cdc) or buffer
// overrun; nothing dropped as unroutable or malformed.
//
// Then PHY resets in traffic (links retrain, every packet once), and symbol
// slips: a fault injected on every wire that deletes or repeats a DATA symbol
// in the middle of a packet, as a broken rate-matching FIFO would. Every
// symbol that arrives is good; link_rx must see the flit out of place
// (net_lfrm_t.fidx), drop the partial packet and NAK: every packet once,
// intact, in order, NAKs and replays on every wire, nothing malformed, no
// link down (docs/network.md "Lost and repeated symbols").
#include "Vnet_node_lclk.h"
#include "tb_common.h"
#include "verilated.h"

#include <algorithm>

static const int NL = 7, NLC = 2, TN = 64, DEPTH = 32, LOCAL_CAP = 32;
static const uint64_t FS_CORE = 6400000;  // 156.25 MHz
static const uint64_t FS_PHY_FAST = 6206060;  // 161.1328125 MHz (10GBASE-R's 64b/66b user clock)

struct Phy {
	Flit data = {{0, 0}};
	uint16_t frm = 0;
	uint32_t crc = 0;
	bool idle() const { return !data.w[0] && !data.w[1] && !frm && crc == NET_LINK_IDLE_CRC; }
};

static Phy get_phy(Vnet_node_lclk *m, int l)
{
	Phy p;
	p.data = get_flit(m->m_phy_data, l);
	p.frm = (uint16_t)(m->m_phy_frm[l / 2] >> (16 * (l % 2)));
	p.crc = m->m_phy_crc[l];
	return p;
}
static void set_phy(Vnet_node_lclk *m, int l, const Phy &p)
{
	set_flit(m->s_phy_data, l, p.data);
	m->s_phy_frm[l / 2] = (m->s_phy_frm[l / 2] & ~(0xFFFFu << (16 * (l % 2)))) | (uint32_t)p.frm << (16 * (l % 2));
	m->s_phy_crc[l] = p.crc;
}

struct Snd {
	std::deque<Pkt> q[NLC];
	size_t pos = 0;
	int cur = -1, rr = 0;
	int cred[NLC] = {DEPTH, DEPTH};
	bool empty() const { return q[0].empty() && q[1].empty(); }
};
struct Rcv {
	std::deque<int> buf[NLC];
	std::vector<Flit> cur[NLC];
};

// a clock: period and next rising edge in fs; what it drives
struct Clock {
	uint64_t period, next;
	int node, link;  // link -1: the node's core clock; else node's phy_tx_clk[link] and the far phy_rx_clk
};

// one wire per direction: symbols seen at its transmit clock
struct Wire {
	int src, sl, dst, dl;
	uint64_t syms = 0, idles = 0, run = 0, max_run = 0;
	// fault injection ("symbol slips"): DATA symbols in the middle of a packet
	// still to delete (shown as IDLE, which the receiving crossing's FIFO drops)
	// and to repeat (the FIFO takes it twice)
	int del_left = 0, dup_left = 0, dels = 0, dups = 0;
	std::deque<Phy> late;  // symbols behind a repeated one, until the next IDLE
};

struct Ring {
	int N;
	std::vector<Vnet_node_lclk *> n;
	std::vector<Clock> clk;
	std::vector<Wire> wire;
	std::vector<Snd> snd;     // [node*2+u]
	std::vector<Rcv> rcv;
	std::vector<int> tbl_pos;
	std::vector<uint64_t> cyc;
	std::mt19937_64 rng;
	uint64_t now = 0, rst_until;
	std::vector<uint64_t> txr_until, rxr_until;  // [node*2+link]: that PHY side in reset until (fs)
	double drain = 0.95;
	double slip_prob = 0;  // chance per mid-packet DATA symbol of a slip (while a wire has some left)
	std::string err;
	std::function<void(int, int, std::vector<Flit> &)> on_pkt;

	// frequency offsets (ppm of the nominal frequency) per node: core, PHY
	static double core_ppm(int i) { static const double p[4] = {0, -300, 1500, 200}; return p[i % 4]; }
	static double phy_ppm(int i) { static const double p[4] = {0, -2300, 100, 300}; return p[i % 4]; }
	static uint64_t phy_nom(int i) { return i % 2 == 0 ? FS_PHY_FAST : FS_CORE; }
	static uint64_t period(uint64_t nom, double ppm) { return (uint64_t)llround((double)nom / (1 + ppm * 1e-6)); }

	Ring(int nodes, uint64_t seed) : N(nodes), rng(seed)
	{
		snd.resize(N * 2);
		rcv.resize(N * 2);
		tbl_pos.resize(N, 0);
		cyc.resize(N, 0);
		txr_until.resize(N * 2, 0);
		rxr_until.resize(N * 2, 0);
		for (int i = 0; i < N; i++) {
			auto *m = new Vnet_node_lclk;
			n.push_back(m);
			m->rst = 1;
			m->clk = 0;
			m->phy_tx_clk = 0;
			m->phy_rx_clk = 0;
			m->phy_tx_rst = 0x7F;
			m->phy_rx_rst = 0x7F;
			m->cfg_dateline = (i == N - 1 ? 1u : 0u) | (i == 0 ? 2u : 0u);
			m->eval();
			clk.push_back({period(FS_CORE, core_ppm(i)), 0, i, -1});
			for (int l = 0; l < 2; l++) {
				clk.push_back({period(phy_nom(i), phy_ppm(i) + 20 * l), 0, i, l});
				int j = l == 0 ? (i + 1) % N : (i + N - 1) % N;
				wire.push_back({i, l, j, l ^ 1});
			}
		}
		for (auto &c : clk) c.next = rng() % c.period;  // random phases
		rst_until = 40 * FS_CORE;
	}
	~Ring()
	{
		for (auto *m : n) delete m;
	}
	double rnd() { return std::uniform_real_distribution<double>(0, 1)(rng); }
	uint8_t dor_entry(int i, int dst)
	{
		if (dst >= N) return 0;
		int d = ((dst - i) % N + N) % N;
		int port = d == 0 ? NET_PORT_EJECT : d <= N / 2 ? 0 : 1;
		return (uint8_t)(1 << 5 | NET_VCRULE_AUTO << 3 | port);
	}
	void push(int i, int u, const Pkt &p) { snd[i * 2 + u].q[net_class(p.f[0].w)].push_back(p); }

	// the core edge of node i: drive its inputs, settle, sample its outputs
	void core_edge(int i)
	{
		Vnet_node_lclk *m = n[i];
		bool rst = now < rst_until;
		m->rst = rst;
		// links 2..6 unused: PHY held in reset (no clock); 0, 1: the PHY resets of a test
		m->phy_tx_rst = rst ? 0x7F : 0x7C | (now < txr_until[i * 2]) | (now < txr_until[i * 2 + 1]) << 1;
		m->phy_rx_rst = rst ? 0x7F : 0x7C | (now < rxr_until[i * 2]) | (now < rxr_until[i * 2 + 1]) << 1;
		m->s_tbl_we = !rst && tbl_pos[i] < TN;
		if (m->s_tbl_we) {
			m->s_tbl_addr = (15 << 6) | tbl_pos[i];
			m->s_tbl_wdata = dor_entry(i, tbl_pos[i]);
			tbl_pos[i]++;
		}
		bool quiet = rst || m->s_tbl_we;
		m->s_loc_valid = 0;
		m->s_loc_last = 0;
		m->s_loc_vc = 0;
		unsigned lc = 0;
		for (int u = 0; u < 2; u++) {
			Snd &s = snd[i * 2 + u];
			int c = s.cur;
			if (c < 0)
				for (int k = 0; k < NLC && c < 0; k++) {
					int cc = (s.rr + k) % NLC;
					if (!s.q[cc].empty() && s.cred[cc] >= (int)s.q[cc].front().f.size()) c = cc;
				}
			if (!quiet && c >= 0 && s.cred[c] > 0) {
				send_loc_flit(m, s, u, c, NLC);
			}
			Rcv &r = rcv[i * 2 + u];
			for (int v = 0; v < NLC; v++)
				if (!quiet && !r.buf[v].empty() && rnd() < drain) {
					r.buf[v].pop_front();
					lc |= 1u << (u * 2 + v);
				}
		}
		m->s_loc_credit = lc;
		m->eval();
		if (m->m_ovf) err = "node " + std::to_string(i) + ": input buffer overrun";
		for (int u = 0; u < 2 && !rst; u++) {
			for (int v = 0; v < NLC; v++)
				if ((m->m_loc_credit >> (u * 2 + v)) & 1)
					if (++snd[i * 2 + u].cred[v] > DEPTH) err = "local input credit returned beyond the buffer size";
			if (!((m->m_loc_valid >> u) & 1)) continue;
			int v = (m->m_loc_vc >> u) & 1;
			Rcv &r = rcv[i * 2 + u];
			r.buf[v].push_back(0);
			if ((int)r.buf[v].size() > LOCAL_CAP) err = "local output overran the unit's buffer";
			r.cur[v].push_back(get_flit(m->m_loc_data, u));
			if ((m->m_loc_last >> u) & 1) {
				if (on_pkt) on_pkt(i, u, r.cur[v]);
				r.cur[v].clear();
			}
		}
		cyc[i]++;
	}

	// advance to the next clock edge(s)
	void step()
	{
		uint64_t t = UINT64_MAX;
		for (auto &c : clk) t = std::min(t, c.next);
		now = t;
		// the wires: every receiver samples what its transmitter showed before this instant
		for (auto &w : wire) set_phy(n[w.dst], w.dl, get_phy(n[w.src], w.sl));
		std::vector<bool> hit(N, false);
		for (auto &c : clk) {
			if (c.next != t) continue;
			if (c.link < 0) {
				core_edge(c.node);
				n[c.node]->clk = 1;
			} else {
				n[c.node]->phy_tx_clk |= 1u << c.link;
				for (auto &w : wire)
					if (w.src == c.node && w.sl == c.link) {
						n[w.dst]->phy_rx_clk |= 1u << w.dl;
						hit[w.dst] = true;
						// the symbol on this wire during the cycle that ends now
						Phy p = get_phy(n[w.src], w.sl);
						if (w.del_left || w.dup_left || !w.late.empty()) slip(w, p);
						if (now >= rst_until + 200 * FS_CORE) {
							w.syms++;
							if (p.idle()) {
								w.idles++;
								w.run = 0;
							} else {
								w.max_run = std::max(w.max_run, ++w.run);
							}
						}
					}
			}
			hit[c.node] = true;
			c.next += c.period;
		}
		for (int i = 0; i < N; i++) {
			if (!hit[i]) continue;
			n[i]->eval();
			n[i]->clk = 0;
			n[i]->phy_tx_clk = 0;
			n[i]->phy_rx_clk = 0;
			n[i]->eval();
		}
	}
	// a rate-matching fault on wire w, whose symbol this transmit cycle is p:
	// delete a DATA symbol in the middle of a packet (the far PHY side gets an
	// IDLE instead, which its crossing deletes: the packet is a flit short), or
	// repeat one (shown now and again in the next cycle, the symbols behind it
	// one cycle late until the next IDLE, which is deleted: the packet is a flit
	// long). Every symbol that reaches link_rx is good (CRC intact).
	void slip(Wire &w, const Phy &p)
	{
		auto mid = [](const Phy &q) { return (q.frm & 3) == NET_LKIND_DATA && !(q.frm & 0xC); };
		Phy out = p;
		if (!w.late.empty()) {  // behind a repeated symbol
			if (!p.idle()) w.late.push_back(p);
			out = w.late.front();
			w.late.pop_front();
		} else if (w.del_left && mid(p) && rnd() < slip_prob) {
			out = Phy();
			out.crc = NET_LINK_IDLE_CRC;
			w.del_left--, w.dels++;
		} else if (w.dup_left && mid(p) && rnd() < slip_prob) {
			w.late.push_back(p);
			w.dup_left--, w.dups++;
		}
		set_phy(n[w.dst], w.dl, out);
	}
	void run_for(uint64_t fs)
	{
		uint64_t end = now + fs;
		while (now < end && err.empty()) step();
	}
	bool all_up()
	{
		for (int i = 0; i < N; i++)
			for (int l = 0; l < 2; l++)
				if (((n[i]->m_link_state >> (2 * l)) & 3) != NET_LSTATE_UP) return false;
		return true;
	}
};

// the scoreboard (as tb_node's Board, without deaths and source routes)
struct Board {
	struct E {
		int node, port;
		Pkt p;
		std::tuple<int, int, int> key;
	};
	std::map<uint64_t, E> pending;
	std::map<std::tuple<int, int, int>, uint64_t> last_id;
	uint64_t delivered = 0, flits = 0, next_id = 1;
	std::string err;
	void send(Ring &r, int src, int u, int dst, unsigned type, unsigned plen)
	{
		static const int eject_port_of_type[9] = {0, 0, 0, 0, 0, 1, 1, 1, 1};
		Pkt p = make_pkt(r.rng, next_id++, dst, src, type, 0, NET_RMODE_TABLE, 0, plen);
		pending[p.id] = {dst, eject_port_of_type[type], p, {src, u, dst * 2 + (int)net_class(p.f[0].w)}};
		r.push(src, u, p);
	}
	void got(int node, int port, std::vector<Flit> &f)
	{
		if (!err.empty()) return;
		uint64_t id = net_hdr_get_cmd(f[0].w);
		auto it = pending.find(id);
		if (it == pending.end()) {
			err = "packet " + std::to_string(id) + " delivered twice, or never sent";
			return;
		}
		E &e = it->second;
		if (node != e.node || port != e.port) {
			err = "packet " + std::to_string(id) + " at the wrong node/port";
			return;
		}
		err = check_delivery(id, f, e.p.f, e.key, last_id);
		if (!err.empty()) return;
		flits += f.size();
		pending.erase(it);
		delivered++;
	}
};

// run until every queue is empty and every packet delivered; false on an error or a stall
static bool drain_all(Ring &r, Board &b, uint64_t stall_fs)
{
	uint64_t last = r.now, cnt = b.delivered;
	while (r.err.empty() && b.err.empty()) {
		bool idle = b.pending.empty();
		for (auto &s : r.snd) idle &= s.empty();
		if (idle) break;
		r.run_for(100 * FS_CORE);
		if (b.delivered != cnt) cnt = b.delivered, last = r.now;
		if (r.now - last > stall_fs) {
			printf("  no progress for %.1f us: %zu packets undelivered\n", stall_fs * 1e-9, b.pending.size());
			return false;
		}
	}
	r.run_for(500 * FS_CORE);  // counters settle
	if (!r.err.empty()) printf("  %s\n", r.err.c_str());
	if (!b.err.empty()) printf("  %s\n", b.err.c_str());
	return r.err.empty() && b.err.empty();
}

int main(int argc, char **argv)
{
	int nodes = 4, per = 600, stream = 400;
	std::vector<char *> args;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--nodes") && i + 1 < argc) {
			nodes = atoi(argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "--packets") && i + 1 < argc) {
			per = atoi(argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "--stream") && i + 1 < argc) {
			stream = atoi(argv[++i]);
			continue;
		}
		args.push_back(argv[i]);
	}
	TbArgs a = tb_args((int)args.size(), args.data());
	Verilated::commandArgs(argc, argv);
	Verilated::randSeed((int)a.seed);
	if (nodes < 3) nodes = 3;
	if (nodes > 4) nodes = 4;

	Ring r(nodes, a.seed);
	Board b;
	r.on_pkt = [&b](int node, int port, std::vector<Flit> &f) { b.got(node, port, f); };
	for (int i = 0; i < nodes; i++)
		printf("node %d: core %.6f MHz, PHY X+ %.6f MHz, X- %.6f MHz\n", i, 1e9 / r.clk[3 * i].period,
		       1e9 / r.clk[3 * i + 1].period, 1e9 / r.clk[3 * i + 2].period);

	section("bring-up: resets, tables, links train");
	r.run_for(r.rst_until + 3000 * FS_CORE);
	CHECK(r.all_up(), "every link UP 3000 cycles after reset");

	// Zero-load latency of the crossings, against a node's own latency: single
	// 1-flit packets, one at a time, at random phases. A local packet (node i to
	// itself: router only) and one hop (node i to its X+ neighbour: router,
	// link_tx, the two crossings, link_rx, router) differ by the link path;
	// net_node's synchronous figure for it is 3 cycles plus the wire delay D
	// (docs/network.md "Zero-load latency"), so D = hop - local - 3 is the
	// crossings' latency in core cycles. Each direction's synchroniser takes
	// SYNC_STAGES (2) reader edges at least, plus a register on each side, the
	// receive FIFO's write and the far register's sampling edge: D >= 2 * 2 + 4
	// - 1 (phase); measured mean 9.0. Without synchronisers (a sync_bit that
	// passes its input through, the bug found in review) the mean is 4.0: the
	// one way an RTL simulation sees a missing synchroniser.
	section("zero-load latency of the crossings");
	{
		const int SYNC_STAGES = 2, SAMPLES = 64;
		uint64_t t_got = 0;
		r.on_pkt = [&b, &r, &t_got](int node, int port, std::vector<Flit> &f) {
			b.got(node, port, f);
			t_got = r.now;
		};
		auto lat = [&](int src, int dst, double &lo, double &hi, double &mean) {
			lo = 1e9, hi = 0, mean = 0;
			for (int k = 0; k < SAMPLES && r.err.empty() && b.err.empty(); k++) {
				r.run_for(FS_CORE * (1 + r.rng() % 8) + r.rng() % FS_CORE);
				uint64_t t0 = r.now;
				t_got = 0;
				b.send(r, src, 0, dst, 1, 0);
				while (!t_got && r.now - t0 < 1000 * FS_CORE && r.err.empty()) r.step();
				double c = (double)(t_got - t0) / FS_CORE;
				if (!t_got) c = 1e9;
				lo = std::min(lo, c), hi = std::max(hi, c);
				mean += c / SAMPLES;
			}
		};
		for (int i = 0; i < 2; i++) {
			double l_lo, l_hi, l_m, h_lo, h_hi, h_m;
			lat(i, i, l_lo, l_hi, l_m);
			lat(i, (i + 1) % nodes, h_lo, h_hi, h_m);
			double d = h_m - l_m - 3;
			printf("  node %d: local %.1f..%.1f (mean %.2f), one hop %.1f..%.1f (mean %.2f) cycles: crossings D %.2f\n", i,
			       l_lo, l_hi, l_m, h_lo, h_hi, h_m, d);
			CHECK(d >= 2 * SYNC_STAGES + 3 && d <= 2 * SYNC_STAGES + 8,
			      "node %d -> %d: crossings' mean latency %.2f cycles within %d..%d (synchronisers in place)", i,
			      (i + 1) % nodes, d, 2 * SYNC_STAGES + 3, 2 * SYNC_STAGES + 8);
		}
		r.on_pkt = [&b](int node, int port, std::vector<Flit> &f) { b.got(node, port, f); };
		CHECK(b.pending.empty() && r.err.empty() && b.err.empty(), "latency packets delivered");
	}

	section("random all-to-all traffic");
	for (int i = 0; i < nodes; i++)
		for (int u = 0; u < 2; u++)
			for (int k = 0; k < per; k++) {
				int dst = (i + 1 + (int)(r.rng() % (nodes - 1))) % nodes;
				unsigned plen = r.rng() % 4 == 0 ? 31 : r.rng() % 17;
				b.send(r, i, u, dst, 1 + r.rng() % 8, plen);
			}
	uint64_t t0 = r.now;
	bool ok = drain_all(r, b, 20000 * FS_CORE);
	CHECK(ok, "all-to-all: every packet delivered once, intact, in order");
	printf("  %llu packets, %llu flits in %.1f us\n", (unsigned long long)b.delivered, (unsigned long long)b.flits,
	       (r.now - t0) * 1e-9);

	section("streams both ways between node 1 and node 2 (long packets, a saturated link)");
	r.drain = 1.0;
	uint64_t d0 = b.delivered;
	for (int u = 0; u < 2; u++)
		for (int k = 0; k < stream; k++) {
			b.send(r, 1, u, 2, k % 2 ? 6 : 1, 31);  // both classes
			b.send(r, 2, u, 1, k % 2 ? 6 : 1, 31);
		}
	t0 = r.now;
	ok = drain_all(r, b, 20000 * FS_CORE);
	CHECK(ok, "streams: every packet delivered once, intact, in order");
	printf("  %llu packets in %.1f us\n", (unsigned long long)(b.delivered - d0), (r.now - t0) * 1e-9);

	section("link and crossing counters");
	for (auto &w : r.wire)
		printf("  node %d link %d -> node %d: %llu symbols, %.2f %% IDLE, longest run of non-IDLE symbols %llu\n",
		       w.src, w.sl, w.dst, (unsigned long long)w.syms, 100.0 * w.idles / std::max<uint64_t>(w.syms, 1),
		       (unsigned long long)w.max_run);
	for (int i = 0; i < nodes; i++) {
		Vnet_node_lclk *m = r.n[i];
		for (int l = 0; l < 2; l++) {
			CHECK(((m->m_link_state >> (2 * l)) & 3) == NET_LSTATE_UP, "node %d link %d UP at the end", i, l);
			CHECK_EQ(m->m_down_cnt[l], 0, "link-down events");
			CHECK_EQ(m->m_crc_err_cnt[l], 0, "bad symbols");
			CHECK_EQ(m->m_replay_cnt[l], 0, "replays");
			CHECK_EQ(m->m_nak_tx_cnt[l], 0, "NAKs sent");
			CHECK_EQ(m->m_nak_rx_cnt[l], 0, "NAKs received");
		}
		CHECK_EQ(m->m_cdc_tx_ovf, 0, "link_phy_cdc transmit FIFO overflows");
		CHECK_EQ(m->m_cdc_rx_ovf, 0, "link_phy_cdc receive FIFO overflows");
		CHECK_EQ(m->m_noroute_cnt, 0, "packets dropped (no route, dead link, partner reset)");
		CHECK_EQ(m->m_malformed_cnt, 0, "malformed packets");
		CHECK(!m->m_ovf, "node %d: no input buffer overrun", i);
	}
	// the stream kept node 1's X+ link (PHY slower than its core) busy for longer
	// runs than the forced IDLE allows the core: only the IDLE gap let it drain
	uint64_t run12 = 0;
	for (auto &w : r.wire)
		if (w.src == 1 && w.sl == 0) run12 = w.max_run;
	CHECK(run12 >= 200, "node 1 -> node 2 saturated (longest non-IDLE run %llu >= 200)", (unsigned long long)run12);
	printf("  core cycles: ");
	for (int i = 0; i < nodes; i++) printf("%llu ", (unsigned long long)r.cyc[i]);
	printf("(%.1f us simulated)\n", r.now * 1e-9);
	// PHY resets in traffic (after the counters above: a reset takes its link
	// down). Short and long pulses on a transmit side and a receive side, the
	// crossings' resets of any length (link_phy_cdc's header): the far link_rx
	// sees a dead wire, the link retrains and replays; every packet arrives
	// once, in order, intact, and no crossing FIFO overflows (a side still
	// running while the other's pointer returns to 0 would see it full).
	section("PHY resets in traffic");
	{
		r.drain = 0.95;
		uint64_t d1 = b.delivered;
		for (int i = 0; i < nodes; i++)
			for (int u = 0; u < 2; u++)
				for (int k = 0; k < 150; k++)
					b.send(r, i, u, (i + 1 + (int)(r.rng() % (nodes - 1))) % nodes, 1 + r.rng() % 8, r.rng() % 17);
		static const int len[4] = {1, 3, 20, 200};  // core cycles
		for (int k = 0; k < 4; k++) {
			r.run_for(1500 * FS_CORE + r.rng() % FS_CORE);
			int side = k % 2, node = k % nodes, l = (k / 2) % 2;
			(side ? r.rxr_until : r.txr_until)[node * 2 + l] = r.now + len[k] * FS_CORE;
			printf("  node %d link %d: PHY %s side in reset for %d cycles\n", node, l, side ? "receive" : "transmit", len[k]);
		}
		ok = drain_all(r, b, 40000 * FS_CORE);
		r.run_for(5000 * FS_CORE);
		CHECK(ok, "PHY resets: every packet delivered once, intact, in order (%llu)",
		      (unsigned long long)(b.delivered - d1));
		CHECK(r.all_up(), "every link UP again after the PHY resets");
		unsigned downs = 0, replays = 0;
		for (int i = 0; i < nodes; i++)
			for (int l = 0; l < 2; l++) downs += r.n[i]->m_down_cnt[l], replays += r.n[i]->m_replay_cnt[l];
		printf("  %u link-down events, %u replays\n", downs, replays);
		CHECK(downs >= 2, "the resets took links down (%u link-down events)", downs);
		for (int i = 0; i < nodes; i++) {
			CHECK_EQ(r.n[i]->m_cdc_tx_ovf, 0, "link_phy_cdc transmit FIFO overflows after PHY resets");
			CHECK_EQ(r.n[i]->m_cdc_rx_ovf, 0, "link_phy_cdc receive FIFO overflows after PHY resets");
		}
	}
	// Symbol slips (a rate-matching FIFO that deletes or repeats a DATA symbol
	// instead of an IDLE): each symbol that arrives is good, but a packet is a
	// flit short or long, or a flit is shifted. link_rx must see it (the flit
	// index in the framing word), drop the partial packet and NAK; the replay
	// delivers the packet: every packet once, intact, in order, none taken
	// as malformed, no link down (recovered by NAK and replay, not retraining).
	// Two passes: deletions only, then repetitions only (each its own checks).
	for (int mode = 0; mode < 2; mode++) {
		const int SLIPS = 4;  // slips per wire
		const char *what = mode == 0 ? "deleted" : "repeated";
		section(mode == 0 ? "symbol slips in traffic: a DATA symbol deleted, 4 times on every wire"
				  : "symbol slips in traffic: a DATA symbol repeated, 4 times on every wire");
		r.drain = 0.95;
		r.slip_prob = 1.0 / 64;
		uint64_t d1 = b.delivered;
		std::vector<unsigned> nak0, rpl0;
		unsigned downs0 = 0, crc0 = 0;
		for (auto &w : r.wire) {
			w.dels = w.dups = 0;
			(mode == 0 ? w.del_left : w.dup_left) = SLIPS;
			nak0.push_back(r.n[w.dst]->m_nak_tx_cnt[w.dl]);
			rpl0.push_back(r.n[w.src]->m_replay_cnt[w.sl]);
		}
		for (int i = 0; i < nodes; i++)
			for (int l = 0; l < 2; l++) downs0 += r.n[i]->m_down_cnt[l], crc0 += r.n[i]->m_crc_err_cnt[l];
		for (int rep = 0; rep < 4; rep++) {  // until every wire had its slips (bounded)
			for (int i = 0; i < nodes; i++)
				for (int u = 0; u < 2; u++)
					for (int k = 0; k < 100; k++)
						b.send(r, i, u, (i + 1 + (int)(r.rng() % (nodes - 1))) % nodes, 1 + r.rng() % 8,
						       r.rng() % 4 == 0 ? 31 : 1 + r.rng() % 16);
			ok = drain_all(r, b, 40000 * FS_CORE);
			bool left = false;
			for (auto &w : r.wire) left |= w.del_left || w.dup_left;
			if (!ok || !left) break;
		}
		r.slip_prob = 0;
		for (auto &w : r.wire) w.del_left = w.dup_left = 0;
		CHECK(ok, "%s symbols: every packet delivered once, intact, in order (%llu)", what,
		      (unsigned long long)(b.delivered - d1));
		unsigned downs = 0, crc = 0;
		for (int i = 0; i < nodes; i++)
			for (int l = 0; l < 2; l++) downs += r.n[i]->m_down_cnt[l], crc += r.n[i]->m_crc_err_cnt[l];
		for (size_t k = 0; k < r.wire.size(); k++) {
			Wire &w = r.wire[k];
			unsigned naks = r.n[w.dst]->m_nak_tx_cnt[w.dl] - nak0[k], rpl = r.n[w.src]->m_replay_cnt[w.sl] - rpl0[k];
			int done = mode == 0 ? w.dels : w.dups;
			printf("  node %d link %d -> node %d: %d %s; %u NAKs, %u replays\n", w.src, w.sl, w.dst, done, what, naks,
			       rpl);
			CHECK(done == SLIPS, "node %d -> %d: %d DATA symbols %s (%d)", w.src, w.dst, done, what, SLIPS);
			CHECK(naks > 0 && rpl > 0, "node %d -> %d: the slips NAKed (%u) and replayed (%u)", w.src, w.dst, naks, rpl);
		}
		CHECK(downs == downs0, "%s symbols: no link-down event (%u)", what, downs - downs0);
		CHECK(crc == crc0, "%s symbols: no bad symbol (%u)", what, crc - crc0);
		for (int i = 0; i < nodes; i++) {
			CHECK_EQ(r.n[i]->m_malformed_cnt, 0, "malformed packets after the slips");
			CHECK_EQ(r.n[i]->m_cdc_rx_ovf, 0, "link_phy_cdc receive FIFO overflows after the slips");
		}
	}
	return tb_finish("tb_lclk", "%llu packets delivered", (unsigned long long)b.delivered);
}
