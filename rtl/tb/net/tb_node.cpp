// SPDX-License-Identifier: Apache-2.0
// tb_node: network tests over real links. Each node is rtl/net/net_node.sv
// (router + 7 reliable link ports, link_tx/link_rx); the harness wires X*Y*Z of
// them into a torus with a delay of D cycles on every link in both directions.
// The link model carries one symbol per cycle each way (128 data bits, 16
// framing bits, 32 CRC bits: docs/network.md "Link layer") and injects faults:
// a bit-error rate on every one of those 176 wire bits (`--ber RATE` on the
// command line overrides the tests' rates), and links taken down (every symbol
// zero) for a while. Routing tables are dimension-order minimal routes with the
// dateline VC rule (AUTO). The scoreboard checks every packet end to end:
// delivered exactly once, at the right port, header and payload intact, in
// order per flow (source, unit port, destination, route).
// `tb_node bench` prints zero-load latency and link throughput at several BERs.
#include "Vnet_node.h"
#include "tb_common.h"
#include "verilated.h"

#include <cmath>
#include <set>

// Links carry NVC = 4 VCs {message class, dateline VC}; a unit port has one VC per
// message class (NLC = 2, net_class() of the header: docs/network.md).
static const int NL = 7, NVC = 4, NLC = 2, DEPTH = 32, TN = 64, LOCAL_CAP = 32;
// flits per VC of a link inport (the model's LINK_BUF_DEPTH, -DTB_LINK_DEPTH: rtl/net/Makefile)
#ifndef TB_LINK_DEPTH
#define TB_LINK_DEPTH 32
#endif
static const int LINK_DEPTH = TB_LINK_DEPTH;
static const int SYM_BITS = 128 + 16 + 32;  // one link symbol on the wire
static double g_ber = -1;                    // --ber: overrides every test's rate
static const char *g_only;                   // --only PREFIX: run only the tests whose name starts so

// the common test runner, restricted by --only
struct NodeRunner : TbRunner {
	void run(const char *name, const char *what, const std::function<bool()> &fn)
	{
		if (!g_only || !strncmp(name, g_only, strlen(g_only))) TbRunner::run(name, what, fn);
	}
};

// one symbol on a wire
struct Phy {
	Flit data = {{0, 0}};
	uint16_t frm = 0;
	uint32_t crc = NET_LINK_IDLE_CRC;
};

struct Net {
	int X, Y, Z, N, delay;
	std::vector<Vnet_node *> n;
	std::mt19937_64 rng;
	uint64_t cyc = 0;
	// wires: [node][link] outgoing delay lines
	std::vector<std::deque<Phy>> wire;
	std::vector<uint64_t> down_until;   // [node*NL+l]: link (both directions) down until that cycle
	std::vector<bool> frozen;           // [node]: node death: not clocked, its links carry nothing
	std::vector<int> rst_left;          // [node]: node reset: cycles of rst left (state cleared, not frozen)
	std::vector<int> tbl_pos;           // [node]: after a reset: next table entry to write (TN: done)
	std::vector<uint64_t> injected;     // [node]: packets whose header its units injected
	double ber = 0;                     // bit-error rate on every wire bit
	int64_t next_err = -1;              // wire bits until the next error (geometric)
	uint64_t flipped = 0, sym_hit = 0, sym_data = 0;
	// local ports
	// A unit port: one queue per message class, sent on the local VC of the class
	// with the class's credits (a class without credits does not hold up the other).
	struct Snd {
		std::deque<Pkt> q[NLC];
		size_t pos = 0;
		int cur = -1;  // class of the packet being sent
		int rr = 0;
		int cred[NLC] = {DEPTH, DEPTH};
		void push(const Pkt &p) { q[net_class(p.f[0].w)].push_back(p); }
		bool empty() const { return q[0].empty() && q[1].empty(); }
	};
	struct Rcv {
		std::deque<int> buf[NLC];
		std::vector<Flit> cur[NLC];
		double drain = 1.0;
		double drain_cls[NLC] = {1.0, 1.0};  // per class (a request sink that stalls)
	};
	std::vector<Snd> snd;  // [node*2+port]
	std::vector<Rcv> rcv;
	double inj_prob = 1.0;
	std::string err;
	std::function<void(int node, int port, std::vector<Flit> &)> on_pkt;
	std::function<void(const Pkt &)> on_inject;  // header flit of a packet enters the network
	// a device on a link the torus leaves unconnected: the symbol it sends to
	// node i's link l this cycle, and what node i sends it
	std::function<Phy(int node, int l)> ext_in;
	std::function<void(int node, int l, const Phy &)> ext_out;

	Net(int x, int y, int z, int d, uint64_t seed) : X(x), Y(y), Z(z), N(x * y * z), delay(d), rng(seed)
	{
		for (int i = 0; i < N; i++) n.push_back(new Vnet_node);
		wire.resize(N * NL);
		for (auto &w : wire) w.resize(delay);
		down_until.resize(N * NL, 0);
		frozen.resize(N, false);
		rst_left.resize(N, 0);
		tbl_pos.resize(N, TN);
		injected.resize(N, 0);
		snd.resize(N * 2);
		rcv.resize(N * 2);
		for (auto *m : n) {
			m->rst = 1;
			m->clk = 0;
			m->eval();
		}
		for (int i = 0; i < 3; i++) tick();
		for (auto *m : n) m->rst = 0;
		program_dor();
		// bring-up: writing the tables of a large torus (64 cycles per node, no
		// symbols on the links meanwhile) takes about DOWN_TIME (link_rx, 2048
		// cycles) or longer; links that were never up by then turn dead (the
		// router drops packets routed into them), so they train before traffic
		// starts. Small nets start at once (the benches' figures depend on it).
		if (cyc >= 1024)
			for (int k = 0; k < 1000 && !all_up(); k++) step();
	}
	~Net()
	{
		for (auto *m : n) delete m;
	}
	double rnd() { return std::uniform_real_distribution<double>(0, 1)(rng); }
	void coords(int id, int c[3]) { c[0] = id % X, c[1] = (id / X) % Y, c[2] = id / (X * Y); }
	int id_of(const int c[3]) { return c[0] + X * (c[1] + Y * c[2]); }
	int dimk(int k) { return k == 0 ? X : k == 1 ? Y : Z; }
	// neighbour behind link l (0..5) of node i
	int neigh(int i, int l)
	{
		int c[3];
		coords(i, c);
		int k = l / 2, K = dimk(k);
		c[k] = (c[k] + (l & 1 ? K - 1 : 1)) % K;
		return id_of(c);
	}
	bool link_used(int l) { return l < 6 && dimk(l / 2) > 1; }
	void tick()
	{
		for (int i = 0; i < N; i++) {
			if (frozen[i]) continue;
			n[i]->clk = 1;
			n[i]->eval();
		}
		for (int i = 0; i < N; i++) {
			if (frozen[i]) continue;
			n[i]->clk = 0;
			n[i]->eval();
		}
		cyc++;
	}
	// dimension-order minimal route at node i towards dst: port code (0..5, EJECT);
	// ties (distance K/2) go in the + direction
	int dor_port(int i, int dst)
	{
		int c[3], dc[3];
		coords(i, c);
		coords(dst, dc);
		for (int k = 0; k < 3; k++) {
			if (dc[k] == c[k]) continue;
			int K = dimk(k), delta = ((dc[k] - c[k]) % K + K) % K;
			return 2 * k + (delta <= K / 2 ? 0 : 1);
		}
		return NET_PORT_EJECT;
	}
	uint8_t dor_entry(int i, int dst)
	{
		return dst < N ? (uint8_t)(1 << 5 | NET_VCRULE_AUTO << 3 | dor_port(i, dst)) : 0;
	}
	void program_dor()
	{
		for (int i = 0; i < N; i++) {
			Vnet_node *m = n[i];
			int c[3];
			coords(i, c);
			unsigned dl = 0;
			for (int k = 0; k < 3; k++) {
				if (dimk(k) < 2) continue;
				if (c[k] == dimk(k) - 1) dl |= 1u << (2 * k);
				if (c[k] == 0) dl |= 1u << (2 * k + 1);
			}
			m->cfg_dateline = dl;
			for (int dst = 0; dst < TN; dst++) {
				m->s_tbl_we = 1;
				m->s_tbl_addr = (15 << 6) | dst;
				m->s_tbl_wdata = dor_entry(i, dst);
				tick();
			}
			m->s_tbl_we = 0;
		}
	}
	// node reset: rst for `cycles` (the node keeps being clocked, its state is
	// cleared: link ports restart at sequence number 0, tables invalid); then
	// its tables are written again, one entry per cycle, before its units send.
	// Its units lose what they held: queued packets are never sent (removed
	// from the queue), a packet partly injected or partly received is lost.
	void node_reset(int i, int cycles, std::function<void(const Pkt &)> unsent)
	{
		rst_left[i] = cycles;
		for (int u = 0; u < 2; u++) {
			Snd &s = snd[i * 2 + u];
			if (s.pos) s.q[s.cur].pop_front();  // partly injected: lost in the node
			for (int c = 0; c < NLC; c++) {
				for (auto &p : s.q[c]) unsent(p);
				s.q[c].clear();
				s.cred[c] = DEPTH;
			}
			s.pos = 0;
			s.cur = -1;
			Rcv &r = rcv[i * 2 + u];
			for (int v = 0; v < NLC; v++) r.buf[v].clear(), r.cur[v].clear();
		}
	}
	bool step()
	{
		// drive inputs
		for (int i = 0; i < N; i++) {
			Vnet_node *m = n[i];
			if (frozen[i]) continue;
			m->rst = rst_left[i] > 0;
			if (rst_left[i] > 0 && --rst_left[i] == 0) tbl_pos[i] = 0;
			m->s_tbl_we = !m->rst && tbl_pos[i] < TN;
			if (m->s_tbl_we) {
				m->s_tbl_addr = (15 << 6) | tbl_pos[i];
				m->s_tbl_wdata = dor_entry(i, tbl_pos[i]);
				tbl_pos[i]++;
			}
			bool quiet = m->rst || m->s_tbl_we;  // no unit traffic while reset or programmed
			for (int l = 0; l < NL; l++) {
				Phy p;  // unconnected: a dead wire (all zero)
				p.crc = 0;
				if (link_used(l)) {
					int j = neigh(i, l), rl = l ^ 1;  // the far end's link facing us
					p = wire[j * NL + rl].front();
				} else if (ext_in) {
					p = ext_in(i, l);
				}
				set_flit(m->s_phy_data, l, p.data);
				m->s_phy_frm[l / 2] = (m->s_phy_frm[l / 2] & ~(0xFFFFu << (16 * (l % 2)))) |
						      (uint32_t)p.frm << (16 * (l % 2));
				m->s_phy_crc[l] = p.crc;
			}
			m->s_loc_valid = 0;
			m->s_loc_last = 0;
			m->s_loc_vc = 0;
			unsigned lc = 0;
			for (int u = 0; u < 2; u++) {
				Snd &s = snd[i * 2 + u];
				int c = s.cur;
				if (c < 0)  // a new packet, with credits for all of it (as the NIC's units):
					    // the classes round robin
					for (int k = 0; k < NLC && c < 0; k++) {
						int cc = (s.rr + k) % NLC;
						if (!s.q[cc].empty() && s.cred[cc] >= (int)s.q[cc].front().f.size()) c = cc;
					}
				if (!quiet && c >= 0 && s.cred[c] > 0 && rnd() < inj_prob) {
					Pkt &pk = s.q[c].front();
					if (s.pos == 0 && on_inject) on_inject(pk);
					if (s.pos == 0) injected[i]++;
					send_loc_flit(m, s, u, c, NLC);
				}
				Rcv &r = rcv[i * 2 + u];
				for (int v = 0; v < NLC; v++)
					if (!quiet && !r.buf[v].empty() && rnd() < r.drain && rnd() < r.drain_cls[v]) {
						r.buf[v].pop_front();
						lc |= 1u << (u * 2 + v);
					}
			}
			m->s_loc_credit = lc;
			m->eval();
		}
		for (auto &w : wire) w.pop_front();
		// sample outputs
		for (int i = 0; i < N; i++) {
			Vnet_node *m = n[i];
			if (frozen[i]) {  // a dead node sends nothing, its units do nothing
				for (int l = 0; l < NL; l++) {
					Phy p;
					p.crc = 0;
					wire[i * NL + l].push_back(p);
				}
				continue;
			}
			if (m->m_ovf) {
				err = "node " + std::to_string(i) + ": input buffer overrun (credit protocol broken)";
				return false;
			}
			for (int l = 0; l < NL; l++) {
				Phy p;
				p.data = get_flit(m->m_phy_data, l);
				p.frm = (uint16_t)(m->m_phy_frm[l / 2] >> (16 * (l % 2)));
				p.crc = m->m_phy_crc[l];
				if ((p.frm & 3) == NET_LKIND_DATA) sym_data++;
				if (!link_used(l) && ext_out) ext_out(i, l, p);
				int k = i * NL + l, j = link_used(l) ? neigh(i, l) * NL + (l ^ 1) : k;
				if (cyc < down_until[k] || cyc < down_until[j]) {
					p = Phy();  // link down: nothing arrives
					p.crc = 0;
				} else if (ber > 0 && link_used(l)) {
					corrupt(p);
				}
				wire[k].push_back(p);
			}
			for (int u = 0; u < 2 && !m->rst; u++) {  // a unit in reset sees nothing
				for (int v = 0; v < NLC; v++)
					if ((m->m_loc_credit >> (u * 2 + v)) & 1)
						if (++snd[i * 2 + u].cred[v] > DEPTH) {
							err = "local input credit returned beyond the buffer size";
							return false;
						}
				if (!((m->m_loc_valid >> u) & 1)) continue;
				int v = (m->m_loc_vc >> u) & 1;
				Rcv &r = rcv[i * 2 + u];
				r.buf[v].push_back(0);
				if ((int)r.buf[v].size() > LOCAL_CAP) {
					err = "local output overran the unit's buffer";
					return false;
				}
				r.cur[v].push_back(get_flit(m->m_loc_data, u));
				if ((m->m_loc_last >> u) & 1) {
					if (on_pkt) on_pkt(i, u, r.cur[v]);
					r.cur[v].clear();
				}
			}
		}
		tick();
		return err.empty();
	}
	// flip every wire bit of symbol p with probability ber (geometric gaps between errors)
	void corrupt(Phy &p)
	{
		bool hit = false;
		if (next_err < 0) next_err = gap();
		while (next_err < SYM_BITS) {
			int b = (int)next_err;
			if (b < 128) p.data.w[b / 64] ^= 1ull << (b % 64);
			else if (b < 144) p.frm ^= (uint16_t)(1u << (b - 128));
			else p.crc ^= 1u << (b - 144);
			flipped++;
			hit = true;
			next_err += 1 + gap();
		}
		next_err -= SYM_BITS;
		sym_hit += hit;
	}
	int64_t gap()
	{
		double u = std::uniform_real_distribution<double>(0, 1)(rng);
		if (u <= 0) u = 1e-300;
		return (int64_t)std::floor(std::log(u) / std::log1p(-ber));
	}
	void set_ber(double b)
	{
		ber = g_ber >= 0 ? g_ber : b;
		next_err = -1;
	}
	// take link l of node i down (both directions) for `cycles`
	void link_down(int i, int l, uint64_t cycles) { down_until[i * NL + l] = cyc + cycles; }
	template <typename F> uint64_t total(F f)
	{
		uint64_t s = 0;
		for (auto *m : n)
			for (int l = 0; l < NL; l++) s += f(m, l);
		return s;
	}
	uint64_t crc_errs() { return total([](Vnet_node *m, int l) { return (uint64_t)m->m_crc_err_cnt[l]; }); }
	uint64_t replays() { return total([](Vnet_node *m, int l) { return (uint64_t)m->m_replay_cnt[l]; }); }
	uint64_t naks_tx() { return total([](Vnet_node *m, int l) { return (uint64_t)m->m_nak_tx_cnt[l]; }); }
	uint64_t naks_rx() { return total([](Vnet_node *m, int l) { return (uint64_t)m->m_nak_rx_cnt[l]; }); }
	uint64_t downs() { return total([](Vnet_node *m, int l) { return (uint64_t)m->m_down_cnt[l]; }); }
	uint64_t drops()
	{
		uint64_t s = 0;
		for (auto *m : n) s += m->m_noroute_cnt;
		return s;
	}
	// every used link trained
	bool all_up()
	{
		for (int i = 0; i < N; i++)
			for (int l = 0; l < NL; l++)
				if (link_used(l) && ((n[i]->m_link_state >> (2 * l)) & 3) != NET_LSTATE_UP) return false;
		return true;
	}
	std::string counters()
	{
		char b[256];
		snprintf(b, sizeof b, "%llu bit flips in %llu symbols, %llu bad symbols counted, %llu NAKs sent / %llu received, "
			 "%llu replays, %llu link-down events",
			 (unsigned long long)flipped, (unsigned long long)sym_hit, (unsigned long long)crc_errs(),
			 (unsigned long long)naks_tx(), (unsigned long long)naks_rx(), (unsigned long long)replays(),
			 (unsigned long long)downs());
		return b;
	}
};

struct Board {
	struct E {
		int node, port;
		Pkt p;
		std::tuple<int, int, int> key;
	};
	std::map<uint64_t, E> pending;
	std::map<uint64_t, E> maybe;  // may be dropped (sent to a node that died), delivered at most once
	std::map<std::tuple<int, int, int>, uint64_t> last_id;
	uint64_t delivered = 0;
	std::string err;
	Net *net = nullptr;
	void got(int node, int port, std::vector<Flit> &f)
	{
		if (!err.empty()) return;
		uint64_t id = net_hdr_get_cmd(f[0].w);
		std::map<uint64_t, E> *from = &pending;
		auto it = pending.find(id);
		if (it == pending.end()) {
			from = &maybe;
			it = maybe.find(id);
		}
		if (it == from->end()) {
			err = "packet " + std::to_string(id) + " delivered twice, or never sent";
			return;
		}
		E &e = it->second;
		if (node != e.node || port != e.port) {
			err = "packet " + std::to_string(id) + " at node " + std::to_string(node) + " port " +
			      std::to_string(port) + ", expected node " + std::to_string(e.node) + " port " + std::to_string(e.port);
			return;
		}
		err = check_delivery(id, f, e.p.f, e.key, last_id);
		if (!err.empty()) return;
		from->erase(it);
		delivered++;
	}
};

static uint64_t next_id = 1;
static const int eject_port_of_type[9] = {0, 0, 0, 0, 0, 1, 1, 1, 1};

static void send(Net &net, Board &b, int src, int u, int dst, unsigned type, unsigned plen, bool srcroute = false,
		 uint64_t route = 0)
{
	Pkt p = make_pkt(net.rng, next_id++, dst, src, type, 0, srcroute ? NET_RMODE_SOURCE : NET_RMODE_TABLE, route, plen);
	// a flow: source, unit port, destination, route, class (the classes are independent)
	b.pending[p.id] = {dst, eject_port_of_type[type], p,
			   {src, u, (dst * 4 + (srcroute ? 1 + (int)(route & 1) : 0)) * 2 + (int)net_class(p.f[0].w)}};
	net.snd[src * 2 + u].push(p);
}

static bool run(Net &net, Board &b, uint64_t limit)
{
	uint64_t last_progress = net.cyc, last_cnt = 0;
	while (true) {
		if (!net.step()) {
			printf("    %s\n", net.err.c_str());
			return false;
		}
		if (!b.err.empty()) {
			printf("    %s\n", b.err.c_str());
			return false;
		}
		bool idle = true;
		for (auto &s : net.snd) idle &= s.empty();
		if (idle && b.pending.empty()) {
			for (int i = 0; i < 100; i++) net.step();  // let counters settle
			return b.err.empty();
		}
		if (b.delivered != last_cnt) last_cnt = b.delivered, last_progress = net.cyc;
		if (net.cyc - last_progress > limit) {
			printf("    no progress for %llu cycles: %zu packets stuck (deadlock?)\n", (unsigned long long)limit,
			       b.pending.size());
			return false;
		}
	}
}

// one stream node 0 -> node 1 over X+; payload bytes delivered per cycle
static double stream(unsigned plen, double ber, uint64_t *replays)
{
	const int D = 4;
	Net net(2, 1, 1, D, 6);
	net.ber = ber;  // the bench's own rates, not --ber
	Board b;
	b.net = &net;
	uint64_t bytes = 0;
	bool measuring = false;
	net.on_pkt = [&](int node, int port, std::vector<Flit> &f) {
		if (measuring) bytes += 16 * (f.size() - 1);
		b.got(node, port, f);
	};
	for (int k = 0; k < 6000; k++) send(net, b, 0, 0, 1, NET_TYPE_RRA_RD, plen);
	for (int i = 0; i < 1000; i++) net.step();
	measuring = true;
	uint64_t t0 = net.cyc;
	for (int i = 0; i < 20000; i++) net.step();
	if (!b.err.empty() || !net.err.empty()) printf("    ERROR: %s%s\n", b.err.c_str(), net.err.c_str());
	*replays = net.replays();
	return (double)bytes / (net.cyc - t0);
}

static int bench(void)
{
	const int D = 4;
	printf("link model: %d cycles of wire delay each way; one 176-bit symbol (16 B data) per cycle; raw link = 16 B/cycle\n", D);
	{
		Net net(2, 1, 1, D, 5);
		Board b;
		b.net = &net;
		uint64_t t_out = 0;
		net.on_pkt = [&](int node, int port, std::vector<Flit> &f) {
			if (!t_out) t_out = net.cyc - f.size() + 1;
			b.got(node, port, f);
		};
		for (int i = 0; i < 300 && !net.all_up(); i++) net.step();
		printf("zero-load latency, node 0 unit port -> node 1 unit port (one link hop, two routers), header flit, BER 0:\n");
		for (unsigned plen : {0u, 4u, 16u}) {
			for (int i = 0; i < 100; i++) net.step();
			t_out = 0;
			send(net, b, 0, 0, 1, NET_TYPE_RRA_RD, plen);
			uint64_t t0 = net.cyc;
			for (int i = 0; i < 80; i++) net.step();
			printf("  %2u payload flits: %3llu cycles = router 3 + link_tx 1 + wire %d + store-and-forward %u + router 3\n",
			       plen, (unsigned long long)(t_out - t0), D, plen);
		}
	}
	printf("link throughput, node 0 streams to node 1 over X+ (payload bytes delivered per cycle):\n");
	for (unsigned plen : {4u, 16u}) {
		unsigned pay = plen * 16;
		for (double ber : {0.0, 1e-6, 1e-4}) {
			uint64_t rp = 0;
			double bpc = stream(plen, ber, &rp);
			printf("  %3u B payload, BER %-6g: %.2f B/cycle = %.1f%% of the raw link (datapath bound %.1f%%), %llu replays\n",
			       pay, ber, bpc, 100 * bpc / 16, 100.0 * pay / (pay + 16), (unsigned long long)rp);
		}
	}
	return 0;
}

// Saturation throughput on a 4x4x2 torus (D = 3): every unit port of every node
// generates 5-flit packets (64 B payload) as a Bernoulli process at the offered
// load into an unbounded source queue; uniform random destinations (any other
// node) or hotspot (a fraction `hot` of every other node's packets to node 0,
// the rest uniform). Capacity is the injection rate at which the most loaded
// channel (link, injection or ejection port) carries one flit per cycle under
// the tables' own dimension-order routes; accepted throughput counts flits
// delivered to units in the measurement window. Latency: generation to
// delivery of the last flit (includes the source queue) and head injection to
// delivery (network only), over packets delivered in the window. Every packet
// is checked end to end as in the tests.
struct SatPoint {
	double offered, accepted, lat, net_lat;
	bool ok;
};

static double sat_capacity(Net &net, double hot, std::string *bound)
{
	std::vector<double> load(net.N * (NL + 4), 0.0);  // links, 2 injection, 2 ejection ports per node
	for (int s = 0; s < net.N; s++) {
		load[s * (NL + 4) + NL + 0] += 0.5;
		load[s * (NL + 4) + NL + 1] += 0.5;
		for (int d = 0; d < net.N; d++) {
			if (d == s) continue;
			double p = (1 - (s == 0 ? 0 : hot)) / (net.N - 1) + (d == 0 && s != 0 ? hot : 0);
			for (int i = s;;) {
				int port = net.dor_port(i, d);
				if (port == NET_PORT_EJECT) {
					load[d * (NL + 4) + NL + 2] += p / 2;  // types 1-4 eject at unit 0, 5-8 at unit 1
					load[d * (NL + 4) + NL + 3] += p / 2;
					break;
				}
				load[i * (NL + 4) + port] += p;
				i = net.neigh(i, port);
			}
		}
	}
	double mx = 0;
	for (double l : load) mx = std::max(mx, l);
	static const char *pname[NL + 4] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-", "spare", "injection 0", "injection 1",
					    "ejection 0", "ejection 1"};
	std::map<std::string, int> at;  // which channels carry the maximum, how many of them
	for (size_t c = 0; c < load.size(); c++)
		if (load[c] > mx * (1 - 1e-9)) at[pname[c % (NL + 4)]]++;
	*bound = "";
	for (auto &a : at) *bound += (bound->empty() ? "" : ", ") + a.first + " x" + std::to_string(a.second);
	return 1.0 / mx;
}

static SatPoint sat_point(double offered, double hot, uint64_t seed)
{
	const int F = 5, WARM = 1500, MEAS = 3000;
	Net net(4, 4, 2, 3, seed);
	Board b;
	b.net = &net;
	std::map<uint64_t, uint64_t> t_gen, t_inj;
	uint64_t flits = 0, npk = 0, t0 = 0;
	double lat = 0, nlat = 0;
	bool measuring = false;
	net.on_inject = [&](const Pkt &p) { t_inj[p.id] = net.cyc; };
	net.on_pkt = [&](int node, int port, std::vector<Flit> &f) {
		uint64_t id = net_hdr_get_cmd(f[0].w);
		if (measuring) {
			flits += f.size();
			npk++;
			lat += (double)(net.cyc - t_gen[id]);
			nlat += (double)(net.cyc - t_inj[id]);
		}
		t_gen.erase(id);
		t_inj.erase(id);
		b.got(node, port, f);
	};
	for (int i = 0; i < 300 && !net.all_up(); i++) net.step();
	double p_gen = offered / (2.0 * F);  // per unit port and cycle
	for (int c = 0; c < WARM + MEAS; c++) {
		if (c == WARM) measuring = true, t0 = net.cyc;
		for (int s = 0; s < net.N; s++)
			for (int u = 0; u < 2; u++) {
				if (net.rnd() >= p_gen) continue;
				int d;
				if (s != 0 && net.rnd() < hot) d = 0;
				else do d = (int)(net.rng() % net.N); while (d == s);
				send(net, b, s, u, d, 1 + net.rng() % 8, F - 1);
				t_gen[next_id - 1] = net.cyc;
			}
		if (!net.step() || !b.err.empty()) break;
	}
	SatPoint r;
	r.ok = net.err.empty() && b.err.empty();
	if (!r.ok) printf("    ERROR: %s%s\n", net.err.c_str(), b.err.c_str());
	r.offered = offered;
	r.accepted = (double)flits / net.N / (double)(net.cyc - t0);
	r.lat = npk ? lat / npk : 0;
	r.net_lat = npk ? nlat / npk : 0;
	return r;
}

static int sat_bench(void)
{
	printf("saturation throughput, 4x4x2 torus (32 nodes), 3-cycle links, 4 VCs x %d-flit link buffers, DOR + dateline "
	       "VCs,\n5-flit packets (64 B payload), Bernoulli sources on both unit ports, 1500 cycles warm-up, 3000 measured\n",
	       LINK_DEPTH);
	bool ok = true;
	for (double hot : {0.0, 0.25}) {
		Net probe(4, 4, 2, 3, 1);
		std::string bound;
		double cap = sat_capacity(probe, hot, &bound);
		if (hot == 0) printf("uniform random: ");
		else printf("hotspot, %.0f%% of every other node's packets to node 0: ", 100 * hot);
		printf("capacity %.3f flits/cycle/node (most loaded channels: %s)\n", cap, bound.c_str());
		printf("  %-22s %-24s %-16s %s\n", "offered flits/cyc/node", "accepted flits/cyc/node", "latency (cycles)",
		       "network latency");
		double best = 0, last = 0;
		for (double f : {0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0, 1.2, 1.5}) {
			SatPoint r = sat_point(f * cap, hot, 40 + (uint64_t)(f * 10));
			ok &= r.ok;
			best = std::max(best, r.accepted);
			last = r.accepted;
			printf("  %5.3f (%3.0f%%)           %5.3f (%5.1f%% of capacity)  %8.1f         %8.1f\n", r.offered, 100 * f,
			       r.accepted, 100 * r.accepted / cap, r.lat, r.net_lat);
		}
		printf("  saturation throughput: peak %.3f flits/cycle/node = %.1f%% of capacity; at 150%% offered %.3f = %.1f%%\n",
		       best, 100 * best / cap, last, 100 * last / cap);
	}
	return ok ? 0 : 1;
}

// A link partner modelled in C++ on one otherwise unconnected link: it speaks
// the link protocol (training, sequence numbers, cumulative ACKs and credits in
// control words, symbol CRC) correctly, so whatever it sends is accepted by the
// link layer, but the packets themselves may break the packet format. It sinks
// everything the node sends it (ACKs and returns credits at once).
struct Rogue {
	std::deque<std::pair<std::vector<Flit>, int>> q;  // packets (flits, vc) to send
	size_t pos = 0;
	uint8_t seq = 0, rx_ack = 0xFF;
	bool seen_init = false, up = false, seen_fresh = false;
	uint16_t cred[NVC] = {0, 0, 0, 0}, sent[NVC] = {0, 0, 0, 0}, rx_flits[NVC] = {0, 0, 0, 0};
	uint64_t cyc = 0, rx_pkts = 0, naks = 0;
	std::vector<Flit> rx_cur;
	Phy sym(uint16_t frm, const Flit &d)
	{
		Phy p;
		p.data = d;
		p.frm = frm;
		p.crc = net_link_sym_crc(frm, d.w);
		return p;
	}
	Phy next()
	{
		cyc++;
		bool want_ctl = cyc % (up ? 32 : 8) == 0;
		if (!want_ctl && up && !q.empty()) {
			auto &pk = q.front();
			int vc = pk.second;
			if ((uint16_t)(cred[vc] - sent[vc]) != 0 && (uint16_t)(cred[vc] - sent[vc]) < 0x8000) {
				uint64_t f = 0;
				bool last = pos + 1 == pk.first.size();
				net_lfrm_set_kind(&f, NET_LKIND_DATA);
				net_lfrm_set_first(&f, pos == 0);
				net_lfrm_set_last(&f, last);
				net_lfrm_set_vc(&f, vc);
				net_lfrm_set_fidx(&f, pos % 4);
				net_lfrm_set_seq(&f, seq);
				Phy p = sym((uint16_t)f, pk.first[pos]);
				sent[vc]++;
				if (last) {
					q.pop_front();
					pos = 0;
					seq++;
				} else {
					pos++;
				}
				return p;
			}
		}
		if (want_ctl || !up) {
			Flit c = {{0, 0}};
			net_lctl_set_ctype(c.w, up ? NET_LCTL_ACK : NET_LCTL_INIT);
			net_lctl_set_peer(c.w, seen_init);
			net_lctl_set_fresh(c.w, !up);         // never reset again: fresh until up
			net_lctl_set_fack(c.w, seen_fresh);   // its state is always the initial one
			net_lctl_set_ack(c.w, rx_ack);
			net_lctl_set_cred0(c.w, (uint16_t)(LINK_DEPTH + rx_flits[0]));
			net_lctl_set_cred1(c.w, (uint16_t)(LINK_DEPTH + rx_flits[1]));
			net_lctl_set_cred2(c.w, (uint16_t)(LINK_DEPTH + rx_flits[2]));
			net_lctl_set_cred3(c.w, (uint16_t)(LINK_DEPTH + rx_flits[3]));
			uint64_t f = 0;
			net_lfrm_set_kind(&f, NET_LKIND_CTL);
			return sym((uint16_t)f, c);
		}
		Phy idle;
		return idle;
	}
	void see(const Phy &p)
	{
		uint64_t f = p.frm;
		unsigned kind = (unsigned)net_lfrm_get_kind(&f);
		if (kind == NET_LKIND_IDLE || p.crc != net_link_sym_crc(p.frm, p.data.w)) return;
		if (kind == NET_LKIND_CTL) {
			unsigned t = (unsigned)net_lctl_get_ctype(p.data.w);
			if (net_lctl_get_fresh(p.data.w)) seen_fresh = true;
			if (t == NET_LCTL_INIT && !net_lctl_get_fack(p.data.w)) return;  // node 0's old state: ignored
			if (t == NET_LCTL_INIT) seen_init = true;
			if (t == NET_LCTL_ACK || t == NET_LCTL_NAK || (t == NET_LCTL_INIT && net_lctl_get_peer(p.data.w)))
				up = true;
			if (t == NET_LCTL_NAK) naks++;
			cred[0] = (uint16_t)net_lctl_get_cred0(p.data.w);
			cred[1] = (uint16_t)net_lctl_get_cred1(p.data.w);
			cred[2] = (uint16_t)net_lctl_get_cred2(p.data.w);
			cred[3] = (uint16_t)net_lctl_get_cred3(p.data.w);
		} else if (kind == NET_LKIND_DATA) {
			int vc = (int)net_lfrm_get_vc(&f);
			rx_flits[vc]++;
			if (net_lfrm_get_last(&f)) {
				rx_ack = (uint8_t)net_lfrm_get_seq(&f);
				rx_pkts++;
			}
		}
	}
};

// Let board b check every packet the network delivers.
static void collect(Net &net, Board &b)
{
	b.net = &net;
	net.on_pkt = [&b](int node, int port, std::vector<Flit> &f) { b.got(node, port, f); };
}

// all-to-all random traffic: per packets from every unit port of every node
static void all_to_all(Net &net, Board &b, int per)
{
	for (int i = 0; i < net.N; i++)
		for (int u = 0; u < 2; u++)
			for (int k = 0; k < per; k++) send(net, b, i, u, net.rng() % net.N, 1 + net.rng() % 8, net.rng() % 17);
}

int main(int argc, char **argv)
{
	// --ber RATE (ours), the rest to the common parser
	std::vector<char *> args;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "sat")) return sat_bench();
		if (!strcmp(argv[i], "--ber") && i + 1 < argc) {
			g_ber = strtod(argv[++i], nullptr);
			continue;
		}
		if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			g_only = argv[++i];
			continue;
		}
		args.push_back(argv[i]);
	}
	if (tb_args((int)args.size(), args.data()).bench) return bench();
	NodeRunner r;

	r.run("link_pair", "two nodes, 5-cycle links both ways, random traffic incl. source routes over X+ and X-, random "
			   "unit back-pressure, no errors: links train, no link buffer overrun (credits in control words), "
			   "all packets delivered once, intact, in order, and no replay or NAK",
	      [&] {
		Net net(2, 1, 1, 5, 21);
		Board b;
		collect(net, b);
		for (auto &rc : net.rcv) rc.drain = 0.3;
		for (int k = 0; k < 3000; k++) {
			int s = net.rng() % 2, u = net.rng() % 2, t = 1 + net.rng() % 8;
			bool sr = net.rng() % 4 == 0;
			uint64_t route = 0x1FFFF8 | (net.rng() % 2);  // X+ or X-, then eject
			send(net, b, s, u, sr ? 1 - s : (int)(net.rng() % 2), t, net.rng() % 17, sr, route);
		}
		EXPECT(run(net, b, 20000), "run");
		EXPECT(b.delivered == 3000, "delivered %llu", (unsigned long long)b.delivered);
		EXPECT(net.all_up(), "links up");
		EXPECT(net.crc_errs() == 0 && net.replays() == 0 && net.naks_tx() == 0 && net.downs() == 0,
		       "errors without injection: %s", net.counters().c_str());
		printf("    3000 packets in %llu cycles\n", (unsigned long long)net.cyc);
		return true;
	});

	r.run("link_ber", "two nodes, bit-error rate 1e-3 on every wire bit (data, framing, CRC, control words; ~16% "
			  "of all symbols hit): every packet delivered exactly once, intact, in order (replays); then "
			  "32-flit packets (= the whole buffer) still pass every link, so no credit leaked",
	      [&] {
		Net net(2, 1, 1, 3, 22);
		Board b;
		collect(net, b);
		net.set_ber(1e-3);
		for (auto &rc : net.rcv) rc.drain = 0.5;
		for (int k = 0; k < 3000; k++) {
			int s = net.rng() % 2;
			uint64_t route = 0x1FFFF8 | (net.rng() % 2);
			send(net, b, s, net.rng() % 2, 1 - s, 1 + net.rng() % 8, net.rng() % 17, net.rng() % 2, route);
		}
		EXPECT(run(net, b, 50000), "run");
		EXPECT(b.delivered == 3000, "delivered %llu", (unsigned long long)b.delivered);
		printf("    3000 packets in %llu cycles; %s\n", (unsigned long long)net.cyc, net.counters().c_str());
		EXPECT(net.replays() > 0 && net.naks_tx() > 0 && net.naks_rx() > 0 && net.crc_errs() > 0, "counters");
		EXPECT(net.crc_errs() <= net.sym_hit, "more bad symbols counted than hit");
		net.set_ber(0);
		uint64_t before = b.delivered;
		for (int s = 0; s < 2; s++)
			for (int l = 0; l < 2; l++)
				for (int k = 0; k < 4; k++) send(net, b, s, 0, 1 - s, NET_TYPE_RRA_WR, 31, true, 0x1FFFF8 | l);
		EXPECT(run(net, b, 5000), "max-size packets after errors");
		EXPECT(b.delivered - before == 16, "max-size delivered %llu", (unsigned long long)(b.delivered - before));
		return true;
	});

	r.run("link_down", "two nodes, traffic both ways while the X+ link goes down (all symbols zero) for 3000 cycles, "
			   "twice: the link retrains, unacknowledged packets are replayed, nothing lost or duplicated",
	      [&] {
		Net net(2, 1, 1, 4, 24);
		Board b;
		collect(net, b);
		for (int k = 0; k < 4000; k++) {
			int s = net.rng() % 2;
			uint64_t route = 0x1FFFF8 | (net.rng() % 2);
			send(net, b, s, net.rng() % 2, 1 - s, 1 + net.rng() % 8, net.rng() % 17, true, route);
		}
		for (int i = 0; i < 2000; i++) EXPECT(net.step(), "step");
		net.link_down(0, 0, 3000);
		bool seen_down = false;
		for (int i = 0; i < 3000; i++) {
			EXPECT(net.step(), "step");
			seen_down |= ((net.n[0]->m_link_state & 3) == NET_LSTATE_DOWN);
		}
		EXPECT(seen_down, "link state DOWN never reported during the outage");
		for (int i = 0; i < 2000; i++) EXPECT(net.step(), "step");
		net.link_down(1, 1, 500);  // the same link, from the other end
		EXPECT(run(net, b, 20000), "run");
		EXPECT(b.delivered == 4000, "delivered %llu", (unsigned long long)b.delivered);
		EXPECT(net.all_up(), "links up again");
		printf("    4000 packets in %llu cycles; %s\n", (unsigned long long)net.cyc, net.counters().c_str());
		EXPECT(net.downs() >= 2 && net.replays() > 0, "counters");
		return true;
	});

	r.run("torus_4x4x2_ber", "32-node 3D torus, 3-cycle links, all-to-all random traffic at full injection rate "
				 "with unit back-pressure and bit-error rate 1e-4 on every wire bit: no deadlock, every "
				 "packet delivered exactly once, intact, in order per flow; replays non-zero",
	      [&] {
		Net net(4, 4, 2, 3, 23);
		Board b;
		collect(net, b);
		net.set_ber(1e-4);
		for (auto &rc : net.rcv) rc.drain = 0.5 + 0.5 * net.rnd();
		const int per = 100;
		all_to_all(net, b, per);
		EXPECT(run(net, b, 20000), "run");
		EXPECT(b.delivered == (uint64_t)net.N * 2 * per, "delivered %llu", (unsigned long long)b.delivered);
		printf("    %llu packets in %llu cycles; %s\n", (unsigned long long)b.delivered, (unsigned long long)net.cyc,
		       net.counters().c_str());
		EXPECT(net.replays() > 0 && net.crc_errs() > 0, "counters");
		return true;
	});

	r.run("torus_4x4x2_down", "the same torus and traffic (BER 1e-4) with two links taken down for 4000 cycles in "
				  "the middle of it and brought back: nothing lost, duplicated, reordered or corrupted",
	      [&] {
		Net net(4, 4, 2, 3, 25);
		Board b;
		collect(net, b);
		net.set_ber(1e-4);
		const int per = 100;
		all_to_all(net, b, per);
		for (int i = 0; i < 1500; i++) EXPECT(net.step(), "step");
		net.link_down(5, 0, 4000);   // node 5 X+
		net.link_down(10, 4, 4000);  // node 10 Z+
		EXPECT(run(net, b, 30000), "run");
		EXPECT(b.delivered == (uint64_t)net.N * 2 * per, "delivered %llu", (unsigned long long)b.delivered);
		printf("    %llu packets in %llu cycles; %s\n", (unsigned long long)b.delivered, (unsigned long long)net.cyc,
		       net.counters().c_str());
		EXPECT(net.downs() >= 2 && net.replays() > 0, "counters");
		EXPECT(net.all_up(), "links up again");
		return true;
	});

	r.run("node_death", "3-node ring (every pair one hop apart), traffic between all nodes; node 1 dies (frozen: not "
			    "clocked, its links carry nothing) with packets for it queued and in flight: nothing is dropped "
			    "for DEAD_TIME (8192 cycles), then what is routed to it is dropped and counted, including the "
			    "heads already waiting, so traffic between nodes 0 and 2 behind them completes; node 1 revives: "
			    "links retrain, everything sent after the revival is delivered, and of the packets for node 1 "
			    "exactly as many are missing as were counted dropped (no loss besides, no duplicate)",
	      [&] {
		const uint64_t DEAD_TIME = 8192, BOUND = 10000;
		Net net(3, 1, 1, 3, 27);
		Board b;
		collect(net, b);
		for (auto &rc : net.rcv) rc.drain = 0.7;
		for (int i = 0; i < 300 && !net.all_up(); i++) EXPECT(net.step(), "step");
		EXPECT(net.all_up(), "links trained");
		// 2000 packets from every unit port, to every node (a third to node 1)
		for (int k = 0; k < 2000; k++) {
			int s = net.rng() % 3;
			send(net, b, s, net.rng() % 2, net.rng() % 3, 1 + net.rng() % 8, net.rng() % 17);
		}
		for (int i = 0; i < 1000; i++) EXPECT(net.step(), "step");
		EXPECT(b.delivered > 0 && !b.pending.empty(), "traffic flowing at the kill (%llu delivered)",
		       (unsigned long long)b.delivered);
		net.frozen[1] = true;
		uint64_t t_kill = net.cyc, d_kill = b.delivered;
		auto others_left = [&] {  // packets neither from nor to node 1 still pending
			size_t c = 0;
			for (auto &p : b.pending) c += p.second.node != 1 && std::get<0>(p.second.key) != 1;
			return c;
		};
		while (net.cyc < t_kill + DEAD_TIME) {
			EXPECT(net.step() && b.err.empty(), "step: %s%s", net.err.c_str(), b.err.c_str());
			EXPECT(net.drops() == 0, "packet dropped %llu cycles after the kill, before DEAD_TIME",
			       (unsigned long long)(net.cyc - t_kill));
		}
		size_t stuck = others_left();
		printf("    kill at cycle %llu: %llu delivered before it, %llu in DEAD_TIME; %zu packets between nodes 0 "
		       "and 2 still waiting\n", (unsigned long long)t_kill, (unsigned long long)d_kill,
		       (unsigned long long)(b.delivered - d_kill), stuck);
		uint64_t t_first = 0;  // first drop
		while (others_left() && net.cyc < t_kill + DEAD_TIME + BOUND) {
			EXPECT(net.step() && b.err.empty(), "step: %s%s", net.err.c_str(), b.err.c_str());
			if (!t_first && net.drops()) t_first = net.cyc;
		}
		EXPECT(others_left() == 0, "%zu packets between nodes 0 and 2 not delivered %llu cycles after DEAD_TIME "
		       "(wedged behind packets for the dead node)", others_left(), (unsigned long long)BOUND);
		uint64_t t_done = net.cyc;
		for (int i = 0; i < 500; i++) EXPECT(net.step(), "step");
		uint64_t dropped = net.drops();
		EXPECT(dropped > 0 && t_first, "nothing dropped");
		EXPECT(t_first - t_kill < DEAD_TIME + 100, "first drop %llu cycles after the kill (DEAD_TIME %llu)",
		       (unsigned long long)(t_first - t_kill), (unsigned long long)DEAD_TIME);
		EXPECT(((net.n[0]->m_link_state & 3) == NET_LSTATE_DOWN), "node 0 X+ not DOWN");
		printf("    first drop %llu cycles after the kill; traffic between nodes 0 and 2 done %llu cycles after the "
		       "kill; %llu packets for node 1 dropped and counted\n", (unsigned long long)(t_first - t_kill),
		       (unsigned long long)(t_done - t_kill), (unsigned long long)dropped);
		// revival: the links retrain; what was sent to node 1 until now may be lost
		net.frozen[1] = false;
		uint64_t t_rev = net.cyc;
		while (!net.all_up() && net.cyc < t_rev + 3000) EXPECT(net.step(), "step");
		EXPECT(net.all_up(), "links up again after the revival");
		uint64_t t_up = net.cyc - t_rev;
		for (auto it = b.pending.begin(); it != b.pending.end();)
			if (it->second.node == 1) b.maybe.insert(*it), it = b.pending.erase(it);
			else ++it;
		size_t maybe0 = b.maybe.size();
		for (int k = 0; k < 1500; k++) {
			int s = net.rng() % 3;
			send(net, b, s, net.rng() % 2, net.rng() % 3, 1 + net.rng() % 8, net.rng() % 17);
		}
		EXPECT(run(net, b, 20000), "traffic after the revival");
		for (int i = 0; i < 2000; i++) EXPECT(net.step(), "step");
		EXPECT(b.err.empty(), "%s", b.err.c_str());
		printf("    revived: links up in %llu cycles; all later packets delivered; of %zu packets for node 1 "
		       "pending at the revival %zu arrived (replayed), %zu lost = %llu counted dropped\n",
		       (unsigned long long)t_up, maybe0, maybe0 - b.maybe.size(), b.maybe.size(),
		       (unsigned long long)net.drops());
		EXPECT(b.maybe.size() == net.drops(), "%zu packets for node 1 missing, %llu counted dropped",
		       b.maybe.size(), (unsigned long long)net.drops());
		return true;
	});

	// node 1 of a 3-node ring is reset (state cleared, not frozen) for RST cycles at t_rst; returns the
	// cycles from the end of its reset until every link is up again (its tables rewritten meanwhile)
	auto reset_node1 = [&](Net &net, Board &b, int rst_cycles, uint64_t bound) -> int64_t {
		net.node_reset(1, rst_cycles, [&](const Pkt &p) { b.pending.erase(p.id); });
		while (net.rst_left[1] > 0) EXPECT(net.step() && b.err.empty(), "step");
		uint64_t t_rel = net.cyc;
		while (!net.all_up() && net.cyc < t_rel + bound) EXPECT(net.step() && b.err.empty(), "step");
		int64_t t = net.all_up() ? (int64_t)(net.cyc - t_rel) : -1;
		while (net.tbl_pos[1] < TN) EXPECT(net.step() && b.err.empty(), "step");  // its tables written
		return t;
	};

	// node 1 reset in the middle of traffic between all nodes; first hung (frozen) for `hang` cycles;
	// with `stall`, the units of nodes 0 and 2 take nothing from 300 cycles before the reset until
	// `stall` cycles after it (what node 1 sent them stays in their link input buffers: the links
	// come up only after it drained)
	auto reset_test = [&](int D, uint64_t seed, uint64_t hang, uint64_t stall) -> bool {
		const uint64_t UP_BOUND = 300 + stall, GAP_BOUND = 400 + stall;
		const int RST = 20;
		Net net(3, 1, 1, D, seed);
		Board b;
		collect(net, b);
		uint64_t last02 = 0, max_gap = 0, at1 = 0;  // deliveries between nodes 0 and 2; at node 1
		bool watch = false;
		net.on_pkt = [&](int node, int port, std::vector<Flit> &f) {
			uint64_t id = net_hdr_get_cmd(f[0].w);
			auto it = b.pending.find(id);
			bool other = it != b.pending.end() && node != 1 && std::get<0>(it->second.key) != 1;
			if (node == 1) at1++;
			if (other && watch) max_gap = std::max(max_gap, net.cyc - last02);
			if (other) last02 = net.cyc;
			b.got(node, port, f);
		};
		for (auto &rc : net.rcv) rc.drain = 0.7;
		for (int i = 0; i < 300 && !net.all_up(); i++) EXPECT(net.step(), "step");
		EXPECT(net.all_up(), "links trained");
		for (int k = 0; k < 3000; k++) {
			int s = net.rng() % 3;
			send(net, b, s, net.rng() % 2, net.rng() % 3, 1 + net.rng() % 8, net.rng() % 17);
		}
		for (int i = 0; i < 1500; i++) EXPECT(net.step(), "step");
		uint64_t drops0 = net.drops();
		EXPECT(b.delivered > 0 && !b.pending.empty() && drops0 == 0, "traffic flowing at the reset");
		// what entered node 1 and what left it, up to its reset (and until the last flits on the wires
		// from it have arrived): the difference was inside it and is lost with its state
		uint64_t entered = net.injected[1] + (uint64_t)net.n[1]->m_rx_pkt_cnt[0] + net.n[1]->m_rx_pkt_cnt[1];
		uint64_t at1_rst = at1;
		if (hang) {  // hung: its partners' replay buffers fill with packets it never ACKs
			net.frozen[1] = true;
			for (uint64_t i = 0; i < hang; i++) EXPECT(net.step() && b.err.empty(), "step");
			net.frozen[1] = false;
			EXPECT(net.drops() == drops0, "dropped while hung (shorter than DEAD_TIME)");
		}
		if (stall) {  // the units of nodes 0 and 2 stop taking packets: the buffers behind the links fill
			for (int u : {0, 1, 4, 5}) net.rcv[u].drain = 0;
			for (int i = 0; i < 300; i++) EXPECT(net.step() && b.err.empty(), "step");
			entered = net.injected[1] + (uint64_t)net.n[1]->m_rx_pkt_cnt[0] + net.n[1]->m_rx_pkt_cnt[1];
			at1_rst = at1;
		}
		size_t pend_rst = b.pending.size();
		last02 = net.cyc;
		watch = true;
		uint64_t t_rst = net.cyc;
		net.node_reset(1, RST, [&](const Pkt &p) { b.pending.erase(p.id); });
		auto unstall = [&] {
			if (stall && net.cyc >= t_rst + stall)
				for (int u : {0, 1, 4, 5}) net.rcv[u].drain = 0.7;
		};
		size_t unsent = pend_rst - b.pending.size();
		for (int i = 0; i < D + 4; i++) EXPECT(net.step() && b.err.empty(), "step");
		uint64_t left = at1_rst + (uint64_t)net.n[0]->m_rx_pkt_cnt[0] + net.n[2]->m_rx_pkt_cnt[1];
		uint64_t inside = entered - left;
		// every packet to or from node 1 pending now may be lost
		for (auto it = b.pending.begin(); it != b.pending.end();)
			if (it->second.node == 1 || std::get<0>(it->second.key) == 1) b.maybe.insert(*it), it = b.pending.erase(it);
			else ++it;
		size_t maybe0 = b.maybe.size();
		while (net.rst_left[1] > 0) EXPECT(net.step() && b.err.empty(), "step");
		uint64_t t_rel = net.cyc;
		while (!net.all_up() && net.cyc < t_rel + UP_BOUND) {
			EXPECT(net.step() && b.err.empty(), "step: %s%s", net.err.c_str(), b.err.c_str());
			unstall();
		}
		EXPECT(net.all_up(), "links not up %llu cycles after the reset of node 1 ended (states %x %x %x)",
		       (unsigned long long)UP_BOUND, net.n[0]->m_link_state, net.n[1]->m_link_state, net.n[2]->m_link_state);
		uint64_t t_up = net.cyc - t_rel;
		EXPECT(!stall || net.cyc >= t_rst + stall, "links up at cycle %llu after the reset, while the buffers behind "
		       "them still held node 1's packets (units stalled until %llu)", (unsigned long long)(net.cyc - t_rst),
		       (unsigned long long)stall);
		while (net.tbl_pos[1] < TN || (stall && net.cyc < t_rst + stall)) {
			EXPECT(net.step() && b.err.empty(), "step: %s%s", net.err.c_str(), b.err.c_str());  // its tables written
			unstall();
		}
		// traffic between all nodes again, node 1 included
		for (int k = 0; k < 1500; k++) {
			int s = net.rng() % 3;
			send(net, b, s, net.rng() % 2, net.rng() % 3, 1 + net.rng() % 8, net.rng() % 17);
		}
		EXPECT(run(net, b, 20000), "traffic after the reset");
		watch = false;
		for (int i = 0; i < 2000; i++) EXPECT(net.step(), "step");
		EXPECT(b.err.empty(), "%s", b.err.c_str());
		uint64_t dropped = net.drops() - drops0, missing = b.maybe.size();
		if (stall) printf("    units of nodes 0 and 2 stalled for %llu cycles from the reset\n", (unsigned long long)stall);
		printf("    %s%sreset of node 1 at cycle %llu for %d cycles (%zu queued packets of its units never sent): links "
		       "up %llu cycles after it; longest pause between deliveries of node 0 <-> 2 traffic %llu cycles; "
		       "%zu packets to/from node 1 pending, %zu delivered, %llu missing: %llu were inside node 1, %llu "
		       "counted dropped by its partners\n",
		       hang ? "hung for " : "", hang ? (std::to_string(hang) + " cycles, then ").c_str() : "",
		       (unsigned long long)t_rst, RST, unsent, (unsigned long long)t_up, (unsigned long long)max_gap, maybe0,
		       maybe0 - b.maybe.size(), (unsigned long long)missing, (unsigned long long)inside,
		       (unsigned long long)dropped);
		EXPECT(max_gap <= GAP_BOUND, "traffic between nodes 0 and 2 paused for %llu cycles (bound %llu)",
		       (unsigned long long)max_gap, (unsigned long long)GAP_BOUND);
		if (hang) EXPECT(dropped > 0, "nothing counted dropped (the partners' replay buffers held packets for node 1)");
		// a packet missing was inside node 1 (lost with its state) or dropped by a partner (counted; a partner
		// cannot know whether the old node had taken a packet it had not yet ACKed, so both may count one)
		EXPECT(missing >= inside && missing <= inside + dropped,
		       "%llu packets missing, %llu inside node 1 at its reset, %llu counted dropped",
		       (unsigned long long)missing, (unsigned long long)inside, (unsigned long long)dropped);
		EXPECT(net.all_up(), "links up at the end");
		return true;
	};
	r.run("node_reset", "3-node ring (every pair one hop apart), traffic between all nodes; node 1 is **reset** in "
			    "the middle (its state cleared, not frozen: its link ports restart at sequence number 0 with "
			    "initial credits, its tables are invalid until rewritten): its partners notice the fresh "
			    "incarnation (net_lctl_t.fresh), drop and count what it never ACKed and re-initialise; the links "
			    "are up again within a bound, traffic between nodes 0 and 2 never stops for longer than a bound, "
			    "no packet is delivered twice or corrupted, every packet missing was inside node 1 at its reset "
			    "or counted dropped by a partner, and traffic to and from node 1 flows afterwards",
	      [&] { return reset_test(3, 31, 0, 0); });
	r.run("node_reset_hung", "the same with 10-cycle links, and node 1 hung (frozen) for 1000 cycles before its reset "
				 "(the partners' replay buffers fill with packets it never ACKs: dropped and counted)",
	      [&] { return reset_test(10, 33, 1000, 0); });
	r.run("node_reset_full", "the same (3-cycle links), with the units of nodes 0 and 2 stalled for 400 cycles from "
				 "the reset (and 300 before it): their link input buffers still hold node 1's packets, so the links come up only "
				 "after those drained (a partner that trusted its initial credits at once would overrun them)",
	      [&] { return reset_test(3, 34, 0, 400); });

	r.run("node_reset_idle", "3-node ring, links up and idle; node 1 is reset: the links train again within a bound, "
				 "nothing is dropped, then traffic between all nodes (node 1 included) is delivered; twice",
	      [&] {
		Net net(3, 1, 1, 3, 32);
		Board b;
		collect(net, b);
		for (int i = 0; i < 300 && !net.all_up(); i++) EXPECT(net.step(), "step");
		EXPECT(net.all_up(), "links trained");
		for (int round = 0; round < 2; round++) {
			for (int i = 0; i < 500; i++) EXPECT(net.step(), "step");
			int64_t t = reset_node1(net, b, 10 + 100 * round, 300);
			EXPECT(t >= 0, "links not up 300 cycles after the reset of node 1 (states %x %x %x)",
			       net.n[0]->m_link_state, net.n[1]->m_link_state, net.n[2]->m_link_state);
			for (int k = 0; k < 600; k++) {
				int s = net.rng() % 3;
				send(net, b, s, net.rng() % 2, net.rng() % 3, 1 + net.rng() % 8, net.rng() % 17);
			}
			EXPECT(run(net, b, 20000), "traffic after the reset");
			EXPECT(net.drops() == 0, "%llu packets dropped", (unsigned long long)net.drops());
			printf("    reset %d: links up %lld cycles after it ended, 600 packets delivered\n", round + 1, (long long)t);
		}
		return true;
	});

	r.run("class_stall", "message classes (docs/network.md \"The protocol part\"): on a 3-node ring two request "
			     "sinks stall (node 0 unit 0 takes no RRA/TLP requests, node 1 unit 1 no SMFU_RD) until they have "
			     "received the responses they wait for (RRA_RSP; SMFU_CPL, SMFU_WR, INTR), which are sent after "
			     "1600 requests to them and share every link, router port and ejection port with those requests, "
			     "under random traffic of both classes between all nodes: the responses arrive while the requests "
			     "wait (else: deadlock), then everything is delivered", [&] {
		Net net(3, 1, 1, 3, 31);
		Board b;
		collect(net, b);
		for (auto &rc : net.rcv) rc.drain = 0.5;
		// the stalled sinks: (node, unit port); they count the responses that reach them
		const int SN[2] = {0, 1}, SU[2] = {0, 1};
		int need[2] = {0, 0}, got[2] = {0, 0}, req_got[2] = {0, 0};
		auto inner = net.on_pkt;
		net.on_pkt = [&](int node, int port, std::vector<Flit> &f) {
			for (int k = 0; k < 2; k++)
				if (node == SN[k] && port == SU[k]) (net_class(f[0].w) == NET_CLASS_RSP ? got : req_got)[k]++;
			inner(node, port, f);
		};
		for (int k = 0; k < 2; k++) net.rcv[SN[k] * 2 + SU[k]].drain_cls[NET_CLASS_REQ] = 0;
		// requests for the stalled sinks first (far more than the buffers on their way hold)
		for (int k = 0; k < 800; k++) {
			int s = 1 + (int)(net.rng() % 2);
			send(net, b, s, (int)(net.rng() % 2), 0, net.rng() % 2 ? NET_TYPE_RRA_RD : NET_TYPE_RRA_WR, 1);
			s = net.rng() % 2 ? 0 : 2;
			send(net, b, s, (int)(net.rng() % 2), 1, NET_TYPE_SMFU_RD, 0);
		}
		all_to_all(net, b, 100);  // background: both classes, all nodes
		// then the responses the stalled sinks wait for
		const unsigned rsp1[3] = {NET_TYPE_SMFU_CPL, NET_TYPE_SMFU_WR, NET_TYPE_INTR};
		for (int k = 0; k < 300; k++) {
			send(net, b, 1 + (int)(net.rng() % 2), (int)(net.rng() % 2), 0, NET_TYPE_RRA_RSP, 1);
			send(net, b, net.rng() % 2 ? 0 : 2, (int)(net.rng() % 2), 1, rsp1[net.rng() % 3], net.rng() % 17);
		}
		for (int k = 0; k < 2; k++)
			for (auto &e : b.pending)
				if (e.second.node == SN[k] && e.second.port == SU[k] && net_class(e.second.p.f[0].w) == NET_CLASS_RSP)
					need[k]++;
		// the wait below proves nothing unless responses are still on their way to both sinks
		EXPECT(need[0] > 100 && need[1] > 100, "only %d and %d responses still pending for the stalled sinks",
		       need[0], need[1]);
		// bounded wait: every response reaches its stalled sink
		const uint64_t BOUND = 30000;
		uint64_t t0 = net.cyc;
		while ((got[0] < need[0] || got[1] < need[1]) && net.cyc - t0 < BOUND)
			EXPECT(net.step() && b.err.empty(), "step: %s%s", net.err.c_str(), b.err.c_str());
		EXPECT(got[0] == need[0] && got[1] == need[1],
		       "deadlock: the stalled request sinks received %d of %d and %d of %d responses in %llu cycles "
		       "(responses held behind the requests they do not take)", got[0], need[0], got[1], need[1],
		       (unsigned long long)BOUND);
		uint64_t t_rsp = net.cyc - t0;
		int req_at[2] = {req_got[0], req_got[1]};  // requests the stalled sinks had received by then
		EXPECT(req_at[0] <= LOCAL_CAP && req_at[1] <= LOCAL_CAP, "the stalled sinks received %d and %d requests",
		       req_at[0], req_at[1]);
		int waiting = 0;
		for (auto &e : b.pending)
			for (int k = 0; k < 2; k++)
				waiting += e.second.node == SN[k] && e.second.port == SU[k];
		EXPECT(waiting > 1000, "only %d requests waiting at the stalled sinks: the stall was not real", waiting);
		for (int k = 0; k < 2; k++) net.rcv[SN[k] * 2 + SU[k]].drain_cls[NET_CLASS_REQ] = 1.0;
		EXPECT(run(net, b, 20000), "after the sinks resume");
		EXPECT(b.pending.empty(), "%zu packets not delivered", b.pending.size());
		printf("    %d + %d responses reached the stalled sinks in %llu cycles past %d waiting requests (%d + %d "
		       "requests in their full buffers); all %llu packets delivered in %llu cycles\n",
		       need[0], need[1], (unsigned long long)t_rsp, waiting, req_at[0], req_at[1],
		       (unsigned long long)b.delivered, (unsigned long long)(net.cyc - t0));
		return true;
	});

	// Per-VC link buffers (docs/network.md "Buffer depth per VC"): a stalled request
	// class fills its own VC buffers on the way, the response class keeps its own and
	// streams 256-byte packets at the link's rate (with 64 flits per VC: no longer
	// credit bound).
	r.run("vc_stream", "one link VC cannot take a buffer another needs, and one stream is not credit bound: node 1's "
			   "unit 0 stops taking requests (class 0) while 600 requests to it fill every buffer of that "
			   "class on the way; meanwhile node 0 streams 256-byte SMFU_WR (class 1) to node 1 over the "
			   "same link and router ports at >= 90 % of the format bound (64 flits per VC; with 32 the "
			   "stream is credit bound: >= 45 %); then the sink resumes and everything is delivered", [&] {
		const int D = 4;
		Net net(2, 1, 1, D, 41);
		Board b;
		collect(net, b);
		net.rcv[1 * 2 + 0].drain_cls[NET_CLASS_REQ] = 0;
		for (int k = 0; k < 600; k++) send(net, b, 0, 0, 1, NET_TYPE_RRA_WR, 1 + net.rng() % 16);
		for (int i = 0; i < 3000; i++) EXPECT(net.step() && b.err.empty(), "step: %s%s", net.err.c_str(), b.err.c_str());
		size_t waiting = b.pending.size();
		EXPECT(waiting > 500, "only %zu requests waiting: the stall was not real", waiting);
		uint64_t bytes = 0;
		bool measuring = false;
		auto inner = net.on_pkt;
		net.on_pkt = [&](int node, int port, std::vector<Flit> &f) {
			if (measuring && net_class(f[0].w) == NET_CLASS_RSP) bytes += 16 * (f.size() - 1);
			inner(node, port, f);
		};
		for (int k = 0; k < 2000; k++) send(net, b, 0, 1, 1, NET_TYPE_SMFU_WR, 16);
		for (int i = 0; i < 500; i++) EXPECT(net.step() && b.err.empty(), "step: %s%s", net.err.c_str(), b.err.c_str());
		measuring = true;
		uint64_t t0 = net.cyc;
		for (int i = 0; i < 10000; i++) EXPECT(net.step() && b.err.empty(), "step: %s%s", net.err.c_str(), b.err.c_str());
		double bpc = (double)bytes / (double)(net.cyc - t0), bound = 256.0 / 17;
		double need = LINK_DEPTH >= 64 ? 0.9 : 0.45;
		size_t req_left = 0;
		for (auto &e : b.pending) req_left += net_class(e.second.p.f[0].w) == NET_CLASS_REQ;
		EXPECT(req_left + 32 >= waiting, "the stalled sink took %zu requests", waiting - req_left);
		EXPECT(bpc >= need * bound, "response stream %.2f B/cycle = %.1f %% of the bound %.2f, expected >= %.0f %% "
		       "(%d flits per VC)", bpc, 100 * bpc / bound, bound, 100 * need, LINK_DEPTH);
		net.rcv[1 * 2 + 0].drain_cls[NET_CLASS_REQ] = 1.0;
		EXPECT(run(net, b, 20000), "after the sink resumes");
		EXPECT(b.pending.empty(), "%zu packets not delivered", b.pending.size());
		printf("    %d flits per VC: 256-byte stream %.2f B/cycle = %.1f %% of the format bound past %zu stalled "
		       "requests of the other class; all %llu packets delivered\n", LINK_DEPTH, bpc, 100 * bpc / bound,
		       req_left, (unsigned long long)b.delivered);
		return true;
	});

	// The sequence window of link_tx: with 64 flits per VC the replay buffer holds 256
	// flits, up to 256 one-flit packets, but 8-bit sequence numbers tell a replayed
	// packet from a new one only within 128: link_tx sends at most 128 unacknowledged.
	r.run("vc_window", "sequence window: 1-flit packets on all four VCs of one link (unit 1's table entry with VC "
			   "rule VC1), 150-cycle wires (a credit round trip holds all 256 credits of 1-flit packets), bit-error rate "
			   "1e-4 (NAKs, replays): every packet delivered exactly once, in order", [&] {
		Net net(2, 1, 1, 150, 42);
		Board b;
		collect(net, b);
		net.n[0]->s_tbl_we = 1;  // inport 8 (local unit 1) -> node 1: X+, dateline VC 1
		net.n[0]->s_tbl_addr = (8 << 6) | 1;
		net.n[0]->s_tbl_wdata = (uint8_t)(1 << 5 | NET_VCRULE_VC1 << 3 | NET_PORT_XP);
		net.tick();
		net.n[0]->s_tbl_we = 0;
		net.set_ber(1e-4);
		for (int k = 0; k < 8000; k++)
			send(net, b, 0, k % 2, 1, (k / 2) % 2 ? NET_TYPE_RRA_RD : NET_TYPE_SMFU_WR, 0);
		EXPECT(run(net, b, 20000), "run");
		EXPECT(b.delivered == 8000, "delivered %llu", (unsigned long long)b.delivered);
		printf("    8000 packets in %llu cycles; %s\n", (unsigned long long)net.cyc, net.counters().c_str());
		EXPECT(net.replays() > 0, "no replay: the window was not tested under errors");
		return true;
	});

	r.run("malformed", "100,000 random malformed packets into node 0 over a link (a link partner modelled in C++ "
			   "that keeps the link protocol): more or fewer flits than plen + 1 (up to 72), unknown types, "
			   "destinations without a route, source routes into links that never came up; every one is dropped "
			   "and counted exactly once, no buffer overruns, no NAKs; afterwards normal traffic flows through "
			   "the same link and the node in both directions", [&] {
		Net net(2, 1, 1, 3, 26);
		Board b;
		collect(net, b);
		Rogue rg;
		const int RL = 2;  // node 0's Y+: unconnected in a 2x1x1 torus
		net.ext_in = [&](int node, int l) {
			if (node == 0 && l == RL) return rg.next();
			Phy dead;
			dead.crc = 0;
			return dead;
		};
		net.ext_out = [&](int node, int l, const Phy &p) {
			if (node == 0 && l == RL) rg.see(p);
		};
		// links that never come up are reported dead after DOWN_TIME (2048 cycles)
		for (int i = 0; i < 2300; i++) EXPECT(net.step(), "step");
		EXPECT(rg.up && net.all_up(), "links trained");
		const int NBAD = 100000;
		int kinds[6] = {};
		for (int n = 0; n < NBAD; n++) {
			int kind = (int)(net.rng() % 6), dl = (int)(net.rng() % 2);
			unsigned plen = net.rng() % 32, nfl = plen + 1, type = 1 + net.rng() % 8, dst = net.rng() % 2;
			unsigned rmode = NET_RMODE_TABLE;
			uint64_t route = 0;
			switch (kind) {
			case 0: nfl = plen + 2 + net.rng() % 40; break;  // too long (up to 72 flits)
			case 1:                                          // too short
				plen = 1 + net.rng() % 31;
				nfl = 1 + net.rng() % plen;
				break;
			case 2: type = net.rng() % 2 ? 0 : 9 + net.rng() % 7; break;  // unknown type
			case 3: dst = 2 + net.rng() % 0xFFFE; break;                  // no table entry / beyond the table
			case 4:  // source route into a dead link: Y-, Z+, Z-, spare
				rmode = NET_RMODE_SOURCE;
				route = 0x1FFFF8 | (uint64_t)(3 + net.rng() % 4);
				break;
			case 5: break;  // on a VC of the other message class
			}
			kinds[kind]++;
			Pkt p = make_pkt(net.rng, next_id++, dst, 7, type, dl, rmode, route, plen);
			int vc = (int)((net_class(p.f[0].w) ^ (kind == 5)) << 1) | dl;
			while (p.f.size() < nfl) p.f.push_back(Flit{{net.rng(), net.rng()}});
			p.f.resize(nfl);
			rg.q.push_back({p.f, vc});
		}
		uint64_t t0 = net.cyc, limit = 20000;
		size_t last_q = rg.q.size();
		uint64_t last_prog = net.cyc;
		while (!rg.q.empty()) {
			if (!net.step()) EXPECT(false, "step: %s", net.err.c_str());
			if (rg.q.size() != last_q) last_q = rg.q.size(), last_prog = net.cyc;
			if (net.cyc - last_prog >= limit)
				EXPECT(false,
				       "link wedged: %zu malformed packets not sent for %llu cycles (credits granted %u/%u/%u/%u, "
				       "flits sent %u/%u/%u/%u, link state %u, %u dropped)",
				       rg.q.size(), (unsigned long long)limit, rg.cred[0], rg.cred[1], rg.cred[2], rg.cred[3],
				       rg.sent[0], rg.sent[1], rg.sent[2], rg.sent[3],
				       (unsigned)(net.n[0]->m_link_state >> (2 * RL)) & 3, net.n[0]->m_noroute_cnt + net.n[0]->m_malformed_cnt);
		}
		for (int i = 0; i < 500; i++) EXPECT(net.step(), "step");
		uint32_t drops = net.n[0]->m_noroute_cnt, malf = net.n[0]->m_malformed_cnt;
		printf("    %d malformed packets (%d too long, %d too short, %d unknown type, %d no route, %d into a dead link, "
		       "%d on the other class's VC) in %llu cycles; node 0 counted %u malformed, %u dropped by the router\n",
		       NBAD, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4], kinds[5], (unsigned long long)(net.cyc - t0), malf,
		       drops);
		EXPECT(malf == (uint32_t)(kinds[0] + kinds[1] + kinds[2] + kinds[5]), "counted %u malformed, expected %d", malf,
		       kinds[0] + kinds[1] + kinds[2] + kinds[5]);
		EXPECT(drops == (uint32_t)(kinds[3] + kinds[4]), "router dropped and counted %u, expected %d", drops,
		       kinds[3] + kinds[4]);
		EXPECT(net.n[1]->m_noroute_cnt == 0 && net.n[1]->m_malformed_cnt == 0, "node 1 counted drops");
		EXPECT(b.delivered == 0, "a malformed packet was delivered");
		EXPECT(rg.naks == 0 && net.crc_errs() == 0, "NAKs or bad symbols: %s", net.counters().c_str());
		// normal traffic: through the same link into node 0's units and on to node 1, between the
		// two nodes' units, and from node 0's units out through the link to the partner
		for (int k = 0; k < 2000; k++) {
			unsigned type = 1 + net.rng() % 8, dst = net.rng() % 2, dl = net.rng() % 2;
			Pkt p = make_pkt(net.rng, next_id++, dst, 7, type, dl, NET_RMODE_TABLE, 0, net.rng() % 32);
			unsigned vc = (unsigned)net_class(p.f[0].w) << 1 | dl;
			b.pending[p.id] = {(int)dst, eject_port_of_type[type], p, {7, vc, (int)dst}};
			rg.q.push_back({p.f, (int)vc});
		}
		for (int k = 0; k < 2000; k++) {
			int s = net.rng() % 2;
			send(net, b, s, net.rng() % 2, 1 - s, 1 + net.rng() % 8, net.rng() % 17);
		}
		uint64_t rx0 = rg.rx_pkts;
		for (int k = 0; k < 200; k++)
			net.snd[net.rng() % 2].push(
				make_pkt(net.rng, 0, 7, 0, NET_TYPE_RRA_WR, 0, NET_RMODE_SOURCE, 0x1FFFF8 | RL, net.rng() % 17));
		while (!rg.q.empty())
			if (!net.step() || !b.err.empty()) EXPECT(false, "step: %s%s", net.err.c_str(), b.err.c_str());
		EXPECT(run(net, b, 20000), "normal traffic after the malformed packets");
		EXPECT(b.delivered == 4000, "delivered %llu of 4000", (unsigned long long)b.delivered);
		EXPECT(rg.rx_pkts - rx0 == 200, "link partner received %llu of 200", (unsigned long long)(rg.rx_pkts - rx0));
		EXPECT(net.n[0]->m_noroute_cnt + net.n[0]->m_malformed_cnt == (uint32_t)NBAD, "drops counted afterwards");
		printf("    then 4000 normal packets delivered intact (2000 through that link), 200 sent out over it\n");
		return true;
	});

	return r.finish("tb_node");
}
