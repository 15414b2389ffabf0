// SPDX-License-Identifier: Apache-2.0
// tb_node: network tests over real links. Each node is rtl/net/net_node.sv
// (router + 7 link_tx/link_rx); the harness wires X*Y*Z of them into a torus
// with LINK_DELAY cycles on every link, in both directions (flits and credit
// returns), optionally flipping bits on the wire. Routing tables are
// dimension-order minimal routes with the dateline VC rule (AUTO).
// `tb_node bench` prints zero-load latency and link throughput.
#include "Vnet_node.h"
#include "tb_common.h"
#include "verilated.h"

#include <set>

static const int NL = 7, NVC = 2, DEPTH = 32, TN = 64, LOCAL_CAP = 32;

struct Phy {
	bool valid = false, last = false;
	int vc = 0;
	Flit data = {{0, 0}};
	uint32_t crc = 0;
};

struct Net {
	int X, Y, Z, N, delay;
	std::vector<Vnet_node *> n;
	std::mt19937_64 rng;
	uint64_t cyc = 0;
	// wires: [node][link] outgoing delay lines; credit lines for returns
	std::vector<std::deque<Phy>> wire;
	std::vector<std::deque<unsigned>> cwire;
	std::vector<bool> in_pkt;           // [node*NL+l]: a packet is being sent on that link
	std::vector<uint64_t> cur_id;       // its id
	std::set<uint64_t> corrupted;       // packets whose flits were hit on some link
	double err_prob = 0;                // per flit on the wire
	// local ports
	struct Snd {
		std::deque<Pkt> q;
		size_t pos = 0;
		int cred[NVC] = {DEPTH, DEPTH};
	};
	struct Rcv {
		std::deque<int> buf[NVC];
		std::vector<Flit> cur[NVC];
		double drain = 1.0;
	};
	std::vector<Snd> snd;  // [node*2+port]
	std::vector<Rcv> rcv;
	double inj_prob = 1.0;
	std::string err;
	std::function<void(int node, int port, std::vector<Flit> &)> on_pkt;

	Net(int x, int y, int z, int d, uint64_t seed) : X(x), Y(y), Z(z), N(x * y * z), delay(d), rng(seed)
	{
		for (int i = 0; i < N; i++) n.push_back(new Vnet_node);
		wire.resize(N * NL);
		cwire.resize(N * NL);
		for (auto &w : wire) w.resize(delay);
		for (auto &w : cwire) w.resize(delay, 0);
		in_pkt.resize(N * NL, false);
		cur_id.resize(N * NL, 0);
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
		for (auto *m : n) {
			m->clk = 1;
			m->eval();
		}
		for (auto *m : n) {
			m->clk = 0;
			m->eval();
		}
		cyc++;
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
				uint8_t e = 0;
				if (dst < N) {
					int dc[3];
					coords(dst, dc);
					int port = NET_PORT_EJECT;
					for (int k = 0; k < 3; k++) {
						if (dc[k] == c[k]) continue;
						int K = dimk(k), delta = ((dc[k] - c[k]) % K + K) % K;
						port = 2 * k + (delta <= K / 2 ? 0 : 1);
						break;
					}
					e = (uint8_t)(1 << 5 | NET_VCRULE_AUTO << 3 | port);
				}
				m->s_tbl_we = 1;
				m->s_tbl_addr = (15 << 6) | dst;
				m->s_tbl_wdata = e;
				tick();
			}
			m->s_tbl_we = 0;
		}
	}
	bool step()
	{
		// drive inputs
		for (int i = 0; i < N; i++) {
			Vnet_node *m = n[i];
			m->s_phy_valid = 0;
			m->s_phy_last = 0;
			m->s_phy_vc = 0;
			m->s_phy_credit = 0;
			for (int l = 0; l < 6; l++) {
				if (!link_used(l)) continue;
				int j = neigh(i, l), rl = l ^ 1;  // the far end's link facing us
				Phy &p = wire[j * NL + rl].front();
				if (p.valid) {
					m->s_phy_valid |= 1u << l;
					m->s_phy_last |= (uint32_t)p.last << l;
					m->s_phy_vc |= (uint32_t)p.vc << l;
					set_flit(m->s_phy_data, l, p.data);
					m->s_phy_crc[l] = p.crc;
				}
				m->s_phy_credit |= cwire[j * NL + rl].front() << (2 * l);
			}
			m->s_loc_valid = 0;
			m->s_loc_last = 0;
			m->s_loc_vc = 0;
			unsigned lc = 0;
			for (int u = 0; u < 2; u++) {
				Snd &s = snd[i * 2 + u];
				if (!s.q.empty() && s.cred[0] > 0 && rnd() < inj_prob) {
					Pkt &pk = s.q.front();
					set_flit(m->s_loc_data, u, pk.f[s.pos]);
					bool last = s.pos + 1 == pk.f.size();
					m->s_loc_valid |= 1u << u;
					m->s_loc_last |= (uint32_t)last << u;
					s.cred[0]--;
					if (last) {
						s.q.pop_front();
						s.pos = 0;
					} else {
						s.pos++;
					}
				}
				Rcv &r = rcv[i * 2 + u];
				for (int v = 0; v < NVC; v++)
					if (!r.buf[v].empty() && rnd() < r.drain) {
						r.buf[v].pop_front();
						lc |= 1u << (u * 2 + v);
					}
			}
			m->s_loc_credit = lc;
			m->eval();
		}
		for (auto &w : wire) w.pop_front();
		for (auto &w : cwire) w.pop_front();
		// sample outputs
		for (int i = 0; i < N; i++) {
			Vnet_node *m = n[i];
			if (m->m_ovf) {
				err = "node " + std::to_string(i) + ": input buffer overrun (credit protocol broken)";
				return false;
			}
			for (int l = 0; l < NL; l++) {
				Phy p;
				p.valid = (m->m_phy_valid >> l) & 1;
				if (p.valid) {
					p.last = (m->m_phy_last >> l) & 1;
					p.vc = (m->m_phy_vc >> l) & 1;
					p.data = get_flit(m->m_phy_data, l);
					p.crc = m->m_phy_crc[l];
					int k = i * NL + l;
					if (!in_pkt[k]) cur_id[k] = net_hdr_get_cmd(p.data.w);
					in_pkt[k] = !p.last;
					if (err_prob > 0 && rnd() < err_prob) {
						int b = rng() % (p.last ? 160 : 128);  // the CRC side band only counts on the last flit
						if (b < 128) p.data.w[b / 64] ^= 1ull << (b % 64);
						else p.crc ^= 1u << (b - 128);
						corrupted.insert(cur_id[k]);
					}
				}
				wire[i * NL + l].push_back(p);
				cwire[i * NL + l].push_back((m->m_phy_credit >> (2 * l)) & 3);
			}
			for (int u = 0; u < 2; u++) {
				for (int v = 0; v < NVC; v++)
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
	uint64_t crc_errs()
	{
		uint64_t s = 0;
		for (auto *m : n)
			for (int l = 0; l < NL; l++) s += m->m_crc_err_cnt[l];
		return s;
	}
};

struct Board {
	struct E {
		int node, port;
		Pkt p;
		std::tuple<int, int, int> key;
	};
	std::map<uint64_t, E> pending;
	std::map<std::tuple<int, int, int>, uint64_t> last_id;
	uint64_t delivered = 0, lost_corrupt = 0;
	std::string err;
	Net *net = nullptr;
	void got(int node, int port, std::vector<Flit> &f)
	{
		if (!err.empty()) return;
		uint64_t id = net_hdr_get_cmd(f[0].w);
		auto it = pending.find(id);
		if (it == pending.end()) {
			err = "packet " + std::to_string(id) + " delivered twice, or never sent";
			return;
		}
		if (net->corrupted.count(id)) {
			err = "corrupted packet " + std::to_string(id) + " was delivered";
			return;
		}
		E &e = it->second;
		if (node != e.node || port != e.port) {
			err = "packet " + std::to_string(id) + " at node " + std::to_string(node) + " port " +
			      std::to_string(port) + ", expected node " + std::to_string(e.node) + " port " + std::to_string(e.port);
			return;
		}
		Flit h = f[0], x = e.p.f[0];
		net_hdr_set_vc(h.w, 0);
		net_hdr_set_vc(x.w, 0);
		bool src = net_hdr_get_rmode(x.w) == NET_RMODE_SOURCE;
		if (src) {  // the route field now holds the way back
			net_hdr_set_route(h.w, 0);
			net_hdr_set_route(x.w, 0);
		}
		if (f.size() != e.p.f.size() || !flit_eq(h, x)) {
			err = "packet " + std::to_string(id) + " header/length changed";
			return;
		}
		for (size_t i = 1; i < f.size(); i++)
			if (!flit_eq(f[i], e.p.f[i])) {
				err = "packet " + std::to_string(id) + " payload changed";
				return;
			}
		auto li = last_id.find(e.key);
		if (li != last_id.end() && li->second > id) {
			err = "packet " + std::to_string(id) + " overtook an older packet of its flow";
			return;
		}
		last_id[e.key] = id;
		pending.erase(it);
		delivered++;
	}
};

static uint64_t next_id = 1;
static const int eject_port_of_type[9] = {0, 0, 0, 0, 0, 1, 1, 1, 1};

static void send(Net &net, Board &b, int src, int u, int dst, unsigned type, unsigned plen, bool srcroute = false,
		 uint64_t route = 0)
{
	Pkt p = make_pkt(net.rng, next_id++, dst, src, type, 0, srcroute ? NET_RMODE_SOURCE : NET_RMODE_TABLE, route, plen);
	b.pending[p.id] = {dst, eject_port_of_type[type], p, {src, u, dst * 4 + (srcroute ? 1 + (int)(route & 1) : 0)}};
	net.snd[src * 2 + u].q.push_back(p);
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
		// corrupted packets are gone for good
		for (auto id : net.corrupted) {
			auto it = b.pending.find(id);
			if (it != b.pending.end()) {
				b.pending.erase(it);
				b.lost_corrupt++;
			}
		}
		bool idle = true;
		for (auto &s : net.snd) idle &= s.q.empty();
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

static int bench(void)
{
	const int D = 4;
	printf("link model: %d cycles of wire delay each way (flits and credits); raw link = 16 B/cycle\n", D);
	{
		Net net(2, 1, 1, D, 5);
		Board b;
		b.net = &net;
		uint64_t t_out = 0;
		net.on_pkt = [&](int node, int port, std::vector<Flit> &f) {
			if (!t_out) t_out = net.cyc - f.size() + 1;
			b.got(node, port, f);
		};
		printf("zero-load latency, node 0 unit port -> node 1 unit port (one link hop, two routers), header flit:\n");
		for (unsigned plen : {0u, 4u, 16u}) {
			for (int i = 0; i < 50; i++) net.step();
			t_out = 0;
			send(net, b, 0, 0, 1, NET_TYPE_RRA_RD, plen);
			uint64_t t0 = net.cyc;
			for (int i = 0; i < 80; i++) net.step();
			printf("  %2u payload flits: %3llu cycles = router 2 + link_tx 1 + wire %d + store-and-forward %u + router 2\n",
			       plen, (unsigned long long)(t_out - t0), D, plen);
		}
	}
	printf("link throughput, node 0 streams to node 1 over X+ (payload bytes delivered per cycle):\n");
	for (unsigned plen : {4u, 16u}) {
		Net net(2, 1, 1, D, 6);
		Board b;
		b.net = &net;
		uint64_t bytes = 0;
		bool measuring = false;
		net.on_pkt = [&](int node, int port, std::vector<Flit> &f) {
			if (measuring) bytes += 16 * (f.size() - 1);
			b.got(node, port, f);
		};
		for (int k = 0; k < 3000; k++) send(net, b, 0, 0, 1, NET_TYPE_RRA_RD, plen);
		for (int i = 0; i < 500; i++) net.step();
		measuring = true;
		uint64_t t0 = net.cyc;
		for (int i = 0; i < 10000; i++) net.step();
		double bpc = (double)bytes / (net.cyc - t0);
		unsigned pay = plen * 16;
		printf("  %3u B payload: %.2f B/cycle = %.1f%% of the raw link (datapath bound %u/%u = %.1f%%; on a serial "
		       "wire with a 4 B CRC trailer %.1f%%)\n",
		       pay, bpc, 100 * bpc / 16, pay, pay + 16, 100.0 * pay / (pay + 16), 100.0 * pay / (pay + 16 + 4));
	}
	return 0;
}

// Let board b check every packet the network delivers.
static void collect(Net &net, Board &b)
{
	b.net = &net;
	net.on_pkt = [&b](int node, int port, std::vector<Flit> &f) { b.got(node, port, f); };
}

int main(int argc, char **argv)
{
	if (tb_args(argc, argv).bench) return bench();
	TbRunner r;

	r.run("link_pair", "two nodes, 5-cycle links both ways, random traffic incl. source routes over X+ and X-, random "
			   "unit back-pressure: no link buffer overrun (credits), all packets delivered once, intact, in order",
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
		EXPECT(net.crc_errs() == 0, "crc errors without injection");
		printf("    3000 packets in %llu cycles\n", (unsigned long long)net.cyc);
		return true;
	});

	r.run("link_crc", "bit errors injected on the wire: every hit packet is dropped and counted, never delivered; "
			  "the others arrive; then 32-flit packets (= the whole buffer) still pass every link, so no credit leaked",
	      [&] {
		Net net(2, 1, 1, 3, 22);
		Board b;
		collect(net, b);
		net.err_prob = 0.01;
		for (int k = 0; k < 3000; k++) {
			int s = net.rng() % 2;
			uint64_t route = 0x1FFFF8 | (net.rng() % 2);
			send(net, b, s, net.rng() % 2, 1 - s, 1 + net.rng() % 8, net.rng() % 17, net.rng() % 2, route);
		}
		EXPECT(run(net, b, 20000), "run");
		uint64_t errs = net.crc_errs();
		EXPECT(errs == net.corrupted.size(), "crc error counters %llu, corrupted packets %zu", (unsigned long long)errs,
		       net.corrupted.size());
		EXPECT(errs > 50, "too few errors injected: %llu", (unsigned long long)errs);
		printf("    %llu delivered, %llu corrupted packets dropped and counted\n", (unsigned long long)b.delivered,
		       (unsigned long long)errs);
		net.err_prob = 0;
		uint64_t before = b.delivered;
		for (int s = 0; s < 2; s++)
			for (int l = 0; l < 2; l++)
				for (int k = 0; k < 4; k++) send(net, b, s, 0, 1 - s, NET_TYPE_RRA_WR, 31, true, 0x1FFFF8 | l);
		EXPECT(run(net, b, 5000), "max-size packets after errors");
		EXPECT(b.delivered - before == 16, "max-size delivered %llu", (unsigned long long)(b.delivered - before));
		return true;
	});

	r.run("torus_4x3x2", "24-node 3D torus, 3-cycle links, all-to-all random traffic at full injection rate with "
			     "unit back-pressure and bit errors: dimension-order routes with the dateline VC rule never "
			     "deadlock; good packets delivered once, intact, in order; hit packets dropped and counted", [&] {
		Net net(4, 3, 2, 3, 23);
		Board b;
		collect(net, b);
		net.err_prob = 0.0005;
		for (auto &rc : net.rcv) rc.drain = 0.5 + 0.5 * net.rnd();
		const int per = 150;
		for (int i = 0; i < net.N; i++)
			for (int u = 0; u < 2; u++)
				for (int k = 0; k < per; k++)
					send(net, b, i, u, net.rng() % net.N, 1 + net.rng() % 8, net.rng() % 17);
		EXPECT(run(net, b, 20000), "run");
		uint64_t errs = net.crc_errs();
		EXPECT(errs == net.corrupted.size(), "crc error counters %llu, corrupted packets %zu", (unsigned long long)errs,
		       net.corrupted.size());
		EXPECT(b.delivered + b.lost_corrupt == (uint64_t)net.N * 2 * per, "count");
		printf("    %llu delivered, %llu dropped for CRC errors, %llu cycles\n", (unsigned long long)b.delivered,
		       (unsigned long long)errs, (unsigned long long)net.cyc);
		return true;
	});

	return r.finish("tb_node");
}
