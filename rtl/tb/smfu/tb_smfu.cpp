// SPDX-License-Identifier: Apache-2.0
//
// tb_smfu: block tests and bench of the SMFU (rtl/smfu, docs/smfu.md) on
// tb_smfu_pair: a host NIC's smfu_host and an NAA NIC's smfu_naa whose local
// router ports are joined by a modelled wire (credits per message class, the
// class of every packet checked against net_class(), latency, an extra delay per
// class so that reads overtake the writes sent before them (the fence test),
// random gaps, packet drop / hold for the timeout test). The host side has
// an aperture requester and a host memory; the NAA side a device model below
// the root port (memory, split completions, DMA and MSI requests).
//
//   tb_smfu           run every test, print "N checks, M failed" and PASS/FAIL, exit 1 on failure
//   tb_smfu bench     throughput / latency figures (docs/smfu.md)
//   --seed N          random seed
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vtb_smfu_pair.h"
#include "extoll_records.h"
#include "net_packet.h"
#include "tlp.h"
#include "tb.h"
#include "tlp_port.h"
#include "verilated.h"

typedef Vtb_smfu_pair M;
static M *m;
static uint64_t cyc;
static std::mt19937 rng(1);
static double bp = 0.7; // valid/ready/delivery probability in the tests

static bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng) < p; }
static unsigned rnd(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(rng); }

static const uint16_t HOST_NODE = 3, NAA_NODE = 9, HOST_ID = 0x0100, RP_ID = 0x0200, DEV_ID = 0x0300;
static const uint16_t CPU_ID = 0x0000;

// ---------------------------------------------------------------------------
// The wire between the two local router ports (one direction)
// ---------------------------------------------------------------------------
struct Flit {
	uint64_t w[2];
	bool last;
};
struct Pkt {
	std::vector<Flit> f;
	uint64_t t_ready = 0;
	int vc = 0;
	uint64_t seq = 0;  // order in which the sender sent it
};
enum { F_PASS, F_DROP, F_HOLD };

static uint64_t next_seq = 0;  // packets sent on both wires, in order

struct Wire {
	std::string name;
	// sender (unit -> router) pins
	CData *s_valid, *s_last, *s_vc, *s_credit;
	VlWide<4> *s_data;
	// receiver (router -> unit) pins
	CData *r_valid, *r_last, *r_vc, *r_credit;
	VlWide<4> *r_data;
	unsigned latency = 4;
	double prob = 1.0;
	std::function<int(const Pkt &)> filter;
	std::deque<Pkt> q;   // class 1 (response), or both classes when in order
	std::deque<Pkt> q0;  // class 0 (request) while cls_delay: it may overtake q
	std::vector<Pkt> held;
	Pkt cur;
	int rcv_cred[2] = {32, 32};
	int pend_credit[2] = {0, 0};  // per class: credits owed to the sender
	unsigned cls_delay = 0;       // extra cycles for class 1 packets (0: one FIFO, in order)
	size_t pos = 0;
	bool active = false, driving = false, from0 = false;
	unsigned drops = 0, vc_errors = 0, overtakes = 0;
	uint64_t tx_flits = 0, tx_first = 0, tx_last = 0, rx_hdr_cycle = 0;
	std::vector<std::pair<uint64_t, uint64_t>> hdr_times; // (cycle sent, cycle delivered)

	void drive()
	{
		*s_credit = 0;
		for (int c = 0; c < 2; c++)
			if (pend_credit[c] > 0) {
				*s_credit |= (CData)(1u << c);
				pend_credit[c]--;
			}
		driving = false;
		if (!active)  // the next packet: a ready class 0 packet may go before class 1 ones
			from0 = !q0.empty() && q0.front().t_ready <= cyc && rcv_cred[0] >= (int)q0.front().f.size();
		std::deque<Pkt> &dq = from0 ? q0 : q;
		if (!dq.empty() && dq.front().t_ready <= cyc) {
			Pkt &p = dq.front();
			if (!active && rcv_cred[p.vc] >= (int)p.f.size() && coin(prob)) {
				active = true;
				if (from0 && !q.empty() && q.front().seq < p.seq)
					overtakes++;  // delivered before a class 1 packet sent earlier
			}
			if (active) {
				driving = true;
				const Flit &f = p.f[pos];
				for (int i = 0; i < 4; i++)
					(*r_data)[i] = (uint32_t)(f.w[i / 2] >> (32 * (i & 1)));
				*r_last = f.last;
				*r_vc = p.vc;
			}
		}
		*r_valid = driving;
	}
	void sample()
	{
		if (*r_credit & 1)
			rcv_cred[0]++;
		if (*r_credit & 2)
			rcv_cred[1]++;
		if (driving) {
			std::deque<Pkt> &dq = from0 ? q0 : q;
			Pkt &p = dq.front();
			rcv_cred[p.vc]--;
			pend_credit[p.vc]++;
			if (pos == 0)
				rx_hdr_cycle = cyc;
			if (++pos == p.f.size()) {
				dq.pop_front();
				pos = 0;
				active = false;
			}
		}
		if (*s_valid) {
			Flit f;
			f.w[0] = (uint64_t)(*s_data)[0] | (uint64_t)(*s_data)[1] << 32;
			f.w[1] = (uint64_t)(*s_data)[2] | (uint64_t)(*s_data)[3] << 32;
			f.last = *s_last;
			if (cur.f.empty())
				cur.vc = *s_vc & 1;  // the sender's local VC = its message class
			if (!tx_flits)
				tx_first = cyc;
			tx_flits++;
			tx_last = cyc;
			cur.f.push_back(f);
			if (f.last) {
				int cls = (int)net_class(cur.f[0].w);
				if (cur.vc != cls)
					vc_errors++;
				cur.vc = cls;
				cur.seq = next_seq++;
				cur.t_ready = cyc + latency + (cls == 1 ? cls_delay : 0);
				int act = filter ? filter(cur) : F_PASS;
				if (act == F_PASS) {
					(cls == 0 && cls_delay ? q0 : q).push_back(cur);
				} else {
					pend_credit[cls] += (int)cur.f.size();
					if (act == F_DROP)
						drops++;
					else
						held.push_back(cur);
				}
				cur = Pkt();
			}
		}
	}
	void release_held()
	{
		for (Pkt &p : held) {
			p.t_ready = cyc;
			(p.vc == 0 && cls_delay ? q0 : q).push_back(p);
		}
		held.clear();
	}
};

static Wire w_h2n, w_n2h;

// ---------------------------------------------------------------------------
// Memories and completion generation (host memory, device memory)
// ---------------------------------------------------------------------------
struct Mem {
	std::map<uint64_t, uint8_t> b;
	uint8_t get(uint64_t a) const
	{
		auto it = b.find(a);
		return it == b.end() ? (uint8_t)(a * 7 + 1) : it->second;
	}
	void write_tlp(const tlp &t)
	{
		for (unsigned d = 0; d < t.len_dw; d++) {
			uint8_t be = d == 0 ? t.first_be : d == t.len_dw - 1 ? t.last_be : 0xf;
			for (unsigned k = 0; k < 4; k++)
				if (be & (1u << k))
					b[t.addr + 4 * d + k] = (uint8_t)(t.payload[d] >> (8 * k));
		}
	}
	uint32_t dw(uint64_t a) const
	{
		uint32_t v = 0;
		for (int k = 0; k < 4; k++)
			v |= (uint32_t)get(a + k) << (8 * k);
		return v;
	}
};
static Mem hostmem, devmem;

static unsigned first_off(uint8_t be)
{
	for (unsigned k = 0; k < 4; k++)
		if (be & (1u << k))
			return k;
	return 0;
}
static unsigned mrd_bc(unsigned len, uint8_t fbe, uint8_t lbe)
{
	if (len == 1) {
		if (!fbe)
			return 1;
		int lo = -1, hi = -1;
		for (int k = 0; k < 4; k++)
			if (fbe & (1 << k)) {
				if (lo < 0)
					lo = k;
				hi = k;
			}
		return hi - lo + 1;
	}
	int hi = 3;
	while (hi > 0 && !(lbe & (1 << hi)))
		hi--;
	return len * 4 - first_off(fbe) - (3 - hi);
}

static unsigned n_cpl_made;
// Completions of an MRd, split at 64-byte boundaries at random.
static std::vector<tlp> make_cpls(const tlp &r, const Mem &mem, uint16_t cid, bool split)
{
	std::vector<tlp> out;
	unsigned total = mrd_bc(r.len_dw, r.first_be, r.last_be), fo = first_off(r.first_be);
	unsigned d = 0;
	while (d < r.len_dw) {
		unsigned e = r.len_dw;
		// at most 128 B (the MPS both NICs report, PCIe 2.2.2), ending on a
		// 64-byte RCB boundary (2.3.1.1)
		uint64_t lim = (r.addr + 4ull * d + 128) & ~63ull;
		if (r.addr + 4ull * e > lim)
			e = (unsigned)((lim - r.addr) / 4);
		if (split) {
			// some 64-byte (RCB) boundary after dword d, chosen at random
			for (uint64_t nb = ((r.addr + 4 * d) | 63) + 1; nb < r.addr + 4 * r.len_dw; nb += 64)
				if (coin(0.5)) {
					if (nb < r.addr + 4ull * e)
						e = (unsigned)((nb - r.addr) / 4);
					break;
				}
		}
		uint32_t data[64];
		for (unsigned k = d; k < e; k++)
			data[k - d] = mem.dw(r.addr + 4 * k);
		unsigned before = d == 0 ? 0 : d * 4 - fo;
		uint8_t la = (uint8_t)((d == 0 ? (r.addr + fo) : (r.addr + 4 * d)) & 0x7f);
		tlp c;
		tlp_cpl(&c, cid, TLP_CPL_SC, r.requester_id, r.tag, la, (uint16_t)((total - before) & 0xfff), data,
			e - d);
		out.push_back(c);
		d = e;
		n_cpl_made++;
	}
	return out;
}

// ---------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------
typedef VlWide<4> W4;
static std::unique_ptr<TlpSource<W4>> h_ap, h_cpl, n_req, n_cpl;
static std::unique_ptr<TlpSink<W4>> h_tlp, n_dev;
// The protocol checker (docs/tlp-check.md) on the two links of the pair: the
// host NIC's host link (h_ap, h_cpl in; h_tlp out) and the NAA's root-port
// link to the device (n_req, n_cpl in; n_dev out).  No config space here: the
// test drives the Device Control fields into the NICs (h_cfg_mps/h_cfg_mrrs,
// n_cfg_dev_mps/n_cfg_dev_mrrs) and sync_links() sets each checker from them
// every cycle (Extended Tag on at both NICs, RCB 64 B); the host and device
// models ask without a read-size limit.
static std::unique_ptr<TlpLink> host_link, dev_link;
// Ordering between the classes across the pair, a bridge from the device link
// (side 0: n_req, n_cpl enter; n_dev leaves) to the host link (side 1: h_ap,
// h_cpl enter; h_tlp leaves): PCIe table 2-40 judged by tlp_order
// (docs/tlp-check.md), with the translation of the test's interval table.
// Followed in the tests where every forwarded TLP must come out (order_begin /
// order_end), not in those that drop TLPs on purpose (timeouts, poison, SBR).
static std::unique_ptr<TlpBridgeOrder> bridge;
static bool bridge_xlate(int side, enum tlp_order_dir dir, enum tlp_order_cls cls, uint64_t a, uint64_t *in);

struct Delayed {
	uint64_t t;
	tlp c;
	unsigned seq = 0;   // host memory: number of the MRd it answers (out-of-order coverage)
	uint32_t dw0 = 0;   // the request's TC and attribute bits: a completion carries them (2.2.9)
};
static const uint32_t TCATTR_MASK = (7u << 20) | (1u << 18) | (3u << 12);
static std::deque<Delayed> host_cpl_q, dev_cpl_q;  // completions waiting to be sent
static std::vector<RxTlp> host_rx;                 // everything the host got (completions and requests)
static std::vector<RxTlp> dev_rx;                  // everything the device got
static std::vector<uint64_t> host_rx_cycle, dev_rx_cycle;
static bool dev_split = true, host_split = true;
static unsigned dev_cpl_delay = 3;
static bool dev_hold = false;   // the device does not answer reads (tests)
static bool dev_poison = false, host_poison = false;   // completions sent with EP = 1 (test_poison)
static bool host_hold = false;  // host memory does not answer reads (tests)
static std::vector<tlp> dev_held, host_held;  // reads not answered while held
// The host memory answers different reads out of order (PCIe Base Spec. 2.4.1:
// completions of different requests may pass each other): each MRd gets a
// random delay of up to host_ooo cycles; the completions of one MRd keep their
// order. 0: in order.
static unsigned host_ooo = 0;
static uint64_t host_hold_from = 0;   // host memory holds reads at or above this address (0: none)

// The sizes the test programs into the NICs' Device Control (bytes); the
// protocol checkers of both links follow them (sync_links), and what each NIC
// sends is judged there (MPS, MRRS, 4 KiB, RCB: docs/tlp-check.md).
static unsigned host_mps = 256, host_mrrs = 512;   // host NIC
static unsigned dev_mps = 256;                     // root port
static unsigned dev_mrrs = 512;                    // root port
static unsigned host_mrd_seq, host_seq_max, host_ooo_seen;   // completions sent behind a later read's
// Violations the checkers found in what the host NIC / the NAA NIC sent.
static unsigned host_viol() { return (unsigned)tlp_check_violations(&host_link->out); }
static unsigned dev_viol() { return (unsigned)tlp_check_violations(&dev_link->out); }
static bool hold_is_loss = false;  // held reads are never answered (completion timeout tests)

// Root-port window w (0 non-prefetchable, 1 prefetchable) as the NAA SMFU sees it.
static void set_fwd(int w, uint64_t base, uint64_t limit)
{
	m->n_cfg_fwd_base[2 * w] = (uint32_t)base;
	m->n_cfg_fwd_base[2 * w + 1] = (uint32_t)(base >> 32);
	m->n_cfg_fwd_limit[2 * w] = (uint32_t)limit;
	m->n_cfg_fwd_limit[2 * w + 1] = (uint32_t)(limit >> 32);
}

static void set_cfg_defaults()
{
	m->h_cfg_node_id = HOST_NODE;
	m->h_cfg_pcie_id = HOST_ID;
	m->h_cfg_bus_master = 1;
	m->h_cfg_timeout = 0x400;
	for (int i = 0; i < 32; i++) {
		m->h_cfg_eg_start[i] = 0;
		m->h_cfg_eg_end[i] = 0;
		m->n_cfg_in_base[i] = 0;
	}
	for (int i = 0; i < 8; i++)
		m->h_cfg_eg_node[i] = 0;
	m->h_cfg_eg_valid = 0;
	m->h_cfg_nq_win_base = 0xFD00000000ull;
	m->h_cfg_nq_win_size = 0x100000;
	m->h_cfg_nq_ring_base = 0x12340000ull;
	m->h_cfg_nq_enable = 1;
	m->h_cfg_nq_log2 = 8;
	m->h_cfg_nq_cons = 0;
	m->n_cfg_node_id = NAA_NODE;
	m->n_cfg_rp_id = RP_ID;
	m->n_cfg_passthru = 1;
	m->n_cfg_up_node = HOST_NODE;
	m->n_cfg_timeout = 0x400;
	m->n_cfg_dev_mps = 1;
	m->h_cfg_mps = 1;    // 256 B
	m->h_cfg_mrrs = 2;   // 512 B
	m->n_cfg_dev_mrrs = 2;
	m->n_sbr = 0;
	m->h_cfg_ro_en = m->h_cfg_ns_en = 1;
	m->n_cfg_ro_en = m->n_cfg_ns_en = 1;
	m->h_cfg_ext_tag = m->n_cfg_ext_tag = 1;
	set_fwd(0, 0, ~0ull);   // the root port's windows: everything forwardable ...
	set_fwd(1, ~0ull, 0);   // ... through window 0, window 1 off
}
static void set_ivl(int i, uint64_t start, uint64_t end, uint16_t node, uint64_t in_base)
{
	m->h_cfg_eg_start[2 * i] = (uint32_t)start;
	m->h_cfg_eg_start[2 * i + 1] = (uint32_t)(start >> 32);
	m->h_cfg_eg_end[2 * i] = (uint32_t)end;
	m->h_cfg_eg_end[2 * i + 1] = (uint32_t)(end >> 32);
	m->h_cfg_eg_valid |= 1u << i;
	uint32_t &wn = m->h_cfg_eg_node[i / 2];
	wn = (wn & ~(0xffffu << (16 * (i & 1)))) | ((uint32_t)node << (16 * (i & 1)));
	m->n_cfg_in_base[2 * i] = (uint32_t)in_base;
	m->n_cfg_in_base[2 * i + 1] = (uint32_t)(in_base >> 32);
}

static void setup()
{
	m = new M;
	w_h2n.name = "host->naa";
	w_h2n.s_valid = &m->h_m_net_valid; w_h2n.s_last = &m->h_m_net_last; w_h2n.s_data = &m->h_m_net_data;
	w_h2n.s_credit = &m->h_s_net_credit; w_h2n.s_vc = &m->h_m_net_vc;
	w_h2n.r_valid = &m->n_s_net_valid; w_h2n.r_last = &m->n_s_net_last; w_h2n.r_vc = &m->n_s_net_vc;
	w_h2n.r_data = &m->n_s_net_data; w_h2n.r_credit = &m->n_m_net_credit;
	w_n2h.name = "naa->host";
	w_n2h.s_valid = &m->n_m_net_valid; w_n2h.s_last = &m->n_m_net_last; w_n2h.s_data = &m->n_m_net_data;
	w_n2h.s_credit = &m->n_s_net_credit; w_n2h.s_vc = &m->n_m_net_vc;
	w_n2h.r_valid = &m->h_s_net_valid; w_n2h.r_last = &m->h_s_net_last; w_n2h.r_vc = &m->h_s_net_vc;
	w_n2h.r_data = &m->h_s_net_data; w_n2h.r_credit = &m->h_m_net_credit;
	h_ap.reset(new TlpSource<W4>("h_ap", TLP_PINS(m, h_ap), 11));
	h_cpl.reset(new TlpSource<W4>("h_cpl", TLP_PINS(m, h_cpl), 12));
	n_req.reset(new TlpSource<W4>("n_req", TLP_PINS(m, n_req), 13));
	n_cpl.reset(new TlpSource<W4>("n_cpl", TLP_PINS(m, n_cpl), 14));
	h_tlp.reset(new TlpSink<W4>("h_tlp", TLP_PINS(m, h_tlp), 15));
	n_dev.reset(new TlpSink<W4>("n_dev", TLP_PINS(m, n_dev), 16));
	host_link.reset(new TlpLink("host link"));
	host_link->attach_in(*h_ap);
	host_link->attach_in(*h_cpl);
	host_link->attach_out(*h_tlp);
	dev_link.reset(new TlpLink("device link"));
	dev_link->attach_in(*n_req);
	dev_link->attach_in(*n_cpl);
	dev_link->attach_out(*n_dev);
	bridge.reset(new TlpBridgeOrder("smfu pair", bridge_xlate));
	bridge->attach_in(*n_req, 0);
	bridge->attach_in(*n_cpl, 0);
	bridge->attach_out(*n_dev, 0);
	bridge->attach_in(*h_ap, 1);
	bridge->attach_in(*h_cpl, 1);
	bridge->attach_out(*h_tlp, 1);
	bridge->stop();
	set_cfg_defaults();
	m->rst = 1;
	for (int i = 0; i < 4; i++) {
		m->clk = 0; m->eval(); m->clk = 1; m->eval();
	}
	m->rst = 0;
}

static void set_prob(double p)
{
	h_ap->prob = h_cpl->prob = n_req->prob = n_cpl->prob = p;
	h_tlp->prob = n_dev->prob = p;
	w_h2n.prob = w_n2h.prob = p;
}

// A memory model behind a TLP stream (the host's, the device's): every TLP is
// logged, MWr written, MRd answered with completions after `delay` cycles
// (none while `hold`).
static void serve(TlpSink<W4> &snk, std::vector<RxTlp> &log, std::vector<uint64_t> &log_cycle, Mem &mem,
		  uint16_t cid, bool split, bool hold, unsigned delay, std::deque<Delayed> &cpl_q,
		  std::vector<tlp> &held)
{
	while (!snk.rx().empty()) {
		RxTlp r = snk.rx().front();
		snk.rx().pop_front();
		log.push_back(r);
		log_cycle.push_back(cyc);
		if (r.t.kind == TLP_MWR)
			mem.write_tlp(r.t);
		else if (r.t.kind == TLP_MRD && (hold || (&snk == h_tlp.get() && host_hold_from &&
							      r.t.addr >= host_hold_from))) {
			held.push_back(r.t);
			// a read the model will never answer (hold_is_loss): to the protocol
			// checker its completion is lost, the requester may time out and
			// reuse the tag (PCIe 2.8). Reads held by host_hold_from are
			// answered late (test_split_abort): still outstanding.
			if (hold && hold_is_loss && snk.check)
				tlp_check_forget(snk.check, r.t.requester_id, r.t.tag);
		} else if (r.t.kind == TLP_MRD && &snk == h_tlp.get() && host_ooo) {
			// out of order between reads: a random delay per read, the queue
			// kept sorted by time (stable: one read's completions stay in order)
			uint64_t t = cyc + delay + rnd(host_ooo);
			host_mrd_seq++;
			for (const tlp &c : make_cpls(r.t, mem, cid, split)) {
				auto it = cpl_q.begin();
				while (it != cpl_q.end() && it->t <= t)
					++it;
				cpl_q.insert(it, {t++, c, host_mrd_seq, r.hdr[0] & TCATTR_MASK});
			}
		} else if (r.t.kind == TLP_MRD)
			for (const tlp &c : make_cpls(r.t, mem, cid, split))
				cpl_q.push_back({cyc + delay, c, 0, r.hdr[0] & TCATTR_MASK});
	}
}

// Notification race (docs/pcie-rules.md row 6): the producer index and the
// interrupt pulse never run ahead of the entry MWrs whose last beat the host
// has taken. Checked every cycle.
static const uint64_t RING = 0x12340000ull;
static bool is_ring_mwr(const tlp &t) { return t.kind == TLP_MWR && t.addr >= RING && t.addr < RING + 0x100000; }
static unsigned ring_taken, nq_race, irq_total;
static unsigned irq_pulses;
// The checkers of both links follow the Device Control the test drives into
// the NICs: the link's MPS both ways, the NIC's MRRS for its own reads.
static void sync_links()
{
	static unsigned last = ~0u;
	unsigned key = m->h_cfg_mps | m->h_cfg_mrrs << 3 | m->n_cfg_dev_mps << 6 | m->n_cfg_dev_mrrs << 9 |
		       m->h_cfg_ext_tag << 12 | m->n_cfg_ext_tag << 13;
	if (key == last)
		return;
	last = key;
	host_link->set_in(128u << m->h_cfg_mps, 4096);
	host_link->set_out(128u << m->h_cfg_mps, 128u << m->h_cfg_mrrs, 64, m->h_cfg_ext_tag);
	dev_link->set_in(128u << m->n_cfg_dev_mps, 4096);
	dev_link->set_out(128u << m->n_cfg_dev_mps, 128u << m->n_cfg_dev_mrrs, 64, m->n_cfg_ext_tag);
}

static void step()
{
	sync_links();
	bridge->tick(cyc);
	// models react to what arrived
	for (const RxTlp &r : h_tlp->rx())
		ring_taken += is_ring_mwr(r.t);
	serve(*h_tlp, host_rx, host_rx_cycle, hostmem, CPU_ID, host_split, host_hold, 5, host_cpl_q, host_held);
	serve(*n_dev, dev_rx, dev_rx_cycle, devmem, DEV_ID, dev_split, dev_hold, dev_cpl_delay, dev_cpl_q, dev_held);
	while (!host_cpl_q.empty() && host_cpl_q.front().t <= cyc) {
		unsigned sq = host_cpl_q.front().seq;
		if (sq && sq < host_seq_max)
			host_ooo_seen++;
		if (sq > host_seq_max)
			host_seq_max = sq;
		h_cpl->send(host_cpl_q.front().c, (host_poison ? 1u << 14 : 0) | host_cpl_q.front().dw0);
		host_cpl_q.pop_front();
	}
	while (!dev_cpl_q.empty() && dev_cpl_q.front().t <= cyc) {
		n_cpl->send(dev_cpl_q.front().c, (dev_poison ? 1u << 14 : 0) | dev_cpl_q.front().dw0);
		dev_cpl_q.pop_front();
	}
	m->clk = 0;
	h_ap->drive(); h_cpl->drive(); n_req->drive(); n_cpl->drive(); h_tlp->drive(); n_dev->drive();
	w_h2n.drive(); w_n2h.drive();
	m->eval();
	h_ap->sample(); h_cpl->sample(); n_req->sample(); n_cpl->sample(); h_tlp->sample(); n_dev->sample();
	w_h2n.sample(); w_n2h.sample();
	if (m->h_irq_notify) {
		irq_pulses++;
		irq_total++;
	}
	{
		unsigned taken = ring_taken;   // entries the host has taken, this cycle's included
		for (const RxTlp &r : h_tlp->rx())
			taken += is_ring_mwr(r.t);
		if (m->h_nq_prod > taken || irq_total > taken)
			nq_race++;
	}
	m->clk = 1;
	m->eval();
	cyc++;
}
static bool idle()
{
	return h_ap->idle() && h_cpl->idle() && n_req->idle() && n_cpl->idle() && w_h2n.q.empty() &&
	       w_n2h.q.empty() && w_h2n.q0.empty() && w_n2h.q0.empty() && host_cpl_q.empty() && dev_cpl_q.empty() && !h_tlp->in_tlp() &&
	       !n_dev->in_tlp() && !m->h_tlp_valid && !m->n_dev_valid && !m->h_m_net_valid && !m->n_m_net_valid;
}
static void settle(unsigned max = 20000)
{
	unsigned quiet = 0;
	for (unsigned i = 0; i < max && quiet < 40; i++) {
		step();
		quiet = idle() ? quiet + 1 : 0;
	}
}

static void run(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		step();
}
// ---------------------------------------------------------------------------
// Host aperture accesses with expected results
// ---------------------------------------------------------------------------
struct HostRd {
	uint64_t addr;
	unsigned size;
	std::vector<uint8_t> expect, got;
	int status = -1;   // final status, -1: pending
	unsigned cpls = 0;
	bool bad = false;
	uint64_t t_issue = 0, t_done = 0;
};
static std::map<uint8_t, HostRd> host_rds;
static uint8_t next_tag;

// Device address of a host aperture address (the interval table of the test).
static std::function<bool(uint64_t, uint64_t *)> host2dev;
// ... and its inverse: the aperture address of a device address
static std::function<bool(uint64_t, uint64_t *)> dev2host;

// dw0_or: bits ORed into header dword 0 (TC, attributes: tcattr_dw0)
static void host_write(uint64_t addr, const std::vector<uint8_t> &data, uint32_t dw0_or = 0)
{
	tlp t;
	tlp_mwr_bytes(&t, addr, data.data(), (unsigned)data.size(), CPU_ID);
	h_ap->send(t, dw0_or);
}
static uint8_t host_read(uint64_t addr, unsigned size, const std::vector<uint8_t> &expect,
			 uint32_t dw0_or = 0)
{
	uint64_t dwa; unsigned len; uint8_t fbe, lbe;
	tlp_access_bes(addr, size, &dwa, &len, &fbe, &lbe);
	uint8_t tag = next_tag++;
	tlp t;
	tlp_mrd(&t, dwa, len, fbe, lbe, CPU_ID, tag);
	HostRd r;
	r.addr = addr;
	r.size = size;
	r.expect = expect;
	r.t_issue = cyc;
	host_rds[tag] = r;
	h_ap->send(t, dw0_or);
	return tag;
}

// Collect the host's completions into host_rds; returns protocol problems.
static unsigned host_cpl_errors;
static size_t host_rx_done;
static void collect_host_cpls()
{
	for (; host_rx_done < host_rx.size(); host_rx_done++) {
		const tlp &c = host_rx[host_rx_done].t;
		if (c.kind != TLP_CPL && c.kind != TLP_CPLD)
			continue;
		auto it = host_rds.find(c.tag);
		if (it == host_rds.end() || it->second.status >= 0 || c.requester_id != CPU_ID ||
		    c.completer_id != HOST_ID) {
			host_cpl_errors++;
			continue;
		}
		HostRd &r = it->second;
		r.cpls++;
		unsigned rcv = (unsigned)r.got.size();
		uint64_t cur = r.addr + rcv;
		unsigned total = r.size ? r.size : 1;
		unsigned bc = c.byte_count ? c.byte_count : 4096;
		if (c.status != TLP_CPL_SC) {
			r.status = c.status;
			if (bc != total - rcv || c.lower_addr != (cur & 0x7f))
				r.bad = true;
			r.t_done = host_rx_cycle[host_rx_done];
			continue;
		}
		if (c.lower_addr != (cur & 0x7f) || bc != total - rcv)
			r.bad = true;
		unsigned n = c.len_dw * 4 - (cur & 3);
		if (n > bc)
			n = bc;
		for (unsigned i = 0; i < n; i++) {
			unsigned o = (cur & 3) + i;
			r.got.push_back((uint8_t)(c.payload[o / 4] >> (8 * (o & 3))));
		}
		if (r.got.size() >= total) {
			r.status = 0;
			r.t_done = host_rx_cycle[host_rx_done];
		}
	}
}

// Every host read of TAGS completed successfully with the expected data.
static bool host_reads_ok(const std::vector<uint8_t> &tags)
{
	for (uint8_t t : tags)
		if (host_rds[t].status != 0 || host_rds[t].got != host_rds[t].expect)
			return false;
	return true;
}

static std::vector<uint8_t> rand_bytes(unsigned n)
{
	std::vector<uint8_t> v(n);
	for (auto &b : v)
		b = (uint8_t)rnd(256);
	return v;
}
static std::vector<uint8_t> dev_bytes(uint64_t a, unsigned n)
{
	std::vector<uint8_t> v(n);
	for (unsigned i = 0; i < n; i++)
		v[i] = devmem.get(a + i);
	return v;
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------
static const uint64_t AP = 0xE0000000ull;       // host aperture BAR base
static const uint64_t NAA_BAR = 0x4000100000ull; // device BAR on the NAA side

static void cfg_std_intervals()
{
	// interval 0: 64 KiB at AP -> NAA_BAR; interval 5: 4 KiB at AP+0x20000 -> NAA_BAR+0x81000
	// (translation offsets are 4 KiB aligned: docs/pcie-rules.md, row 8)
	set_ivl(0, AP, AP + 0xFFFF, NAA_NODE, NAA_BAR);
	set_ivl(5, AP + 0x20000, AP + 0x20FFF, NAA_NODE, NAA_BAR + 0x81000);
	host2dev = [](uint64_t a, uint64_t *d) {
		if (a >= AP && a <= AP + 0xFFFF) { *d = NAA_BAR + (a - AP); return true; }
		if (a >= AP + 0x20000 && a <= AP + 0x20FFF) { *d = NAA_BAR + 0x81000 + (a - AP - 0x20000); return true; }
		return false;
	};
	dev2host = [](uint64_t d, uint64_t *a) {
		if (d >= NAA_BAR && d <= NAA_BAR + 0xFFFF) { *a = AP + (d - NAA_BAR); return true; }
		if (d >= NAA_BAR + 0x81000 && d <= NAA_BAR + 0x81FFF) { *a = AP + 0x20000 + (d - NAA_BAR - 0x81000); return true; }
		return false;
	};
}

// The pair's translation for tlp_order (tlp_order_xlate_fn): the host's
// aperture requests go down through the interval table, the device's requests
// go up unchanged (pass-through), its MSIs (writes into the interrupt window
// the test programmed) become notifications, and the host NIC's notification
// entries (the ring) are its own.
static bool bridge_xlate(int side, enum tlp_order_dir dir, enum tlp_order_cls cls, uint64_t a, uint64_t *in)
{
	uint64_t x = a;
	if (dir == TLP_ORDER_IN) {
		if (side == 0)   // from the device: all but MSIs go up
			return cls != TLP_ORDER_P || a < m->h_cfg_nq_win_base ||
			       a >= m->h_cfg_nq_win_base + m->h_cfg_nq_win_size;
		return cls == TLP_ORDER_CPL || host2dev(a, &x);   // from the host: hits go down
	}
	if (side == 1) {   // toward the host
		if (cls == TLP_ORDER_CPL)
			return host2dev(a, in);
		*in = a;
		uint64_t ring = m->h_cfg_nq_ring_base;
		return !(cls == TLP_ORDER_P && a >= ring && a < ring + (16ull << m->h_cfg_nq_log2));
	}
	if (cls == TLP_ORDER_CPL) {   // toward the device: its reads' completions
		*in = a;
		return true;
	}
	return dev2host(a, in);
}

// Follow the ordering across the pair from here (a test that loses nothing).
static uint64_t order_unmatched0;
static void order_begin()
{
	bridge->start();
	order_unmatched0 = bridge->o.unmatched;
}
// ... up to here, the pair idle: no violation (each was a failed check as it
// came) and every forwarded byte came out.
static void order_end(const char *test)
{
	settle();
	uint64_t unmatched = bridge->o.unmatched - order_unmatched0;
	CHECK(bridge->o.tlps_in > 0 && bridge->pending() == 0 && unmatched == 0,
	      "%s: tlp-order followed the TLPs across the pair; %llu bytes still inside, %llu came out unmatched", test,
	      (unsigned long long)bridge->pending(), (unsigned long long)unmatched);
	bridge->print();
	bridge->stop();
}

static void test_intervals()
{
	printf("intervals: hits, misses, offsets, last byte of an interval and the first byte after\n");
	cfg_std_intervals();
	uint32_t hits0 = m->h_eg_hits, miss0 = m->h_eg_misses, inreq0 = m->n_in_reqs;
	size_t dev0 = dev_rx.size();
	host_write(AP + 0x10, {1, 2, 3, 4});                    // hit ivl 0
	host_write(AP + 0xFFFC, {5, 6, 7, 8});                  // last dword of ivl 0
	host_write(AP + 0xFFFF, {9});                           // last byte of ivl 0
	host_write(AP + 0x10000, {10, 11, 12, 13});             // first byte after: miss (dropped)
	host_write(AP + 0x20000, {14, 15, 16, 17});             // ivl 5 offset 0
	host_write(AP + 0x20FFC, {18, 19, 20, 21});             // ivl 5 last dword
	host_write(AP + 0x1FFFC, {22});                         // miss before ivl 5
	uint8_t t_miss = host_read(AP + 0x10000, 4, {});         // read miss: UR
	uint8_t t_hit = host_read(AP + 0xFFFC, 4, {5, 6, 7, 8}); // read back last dword
	settle();
	collect_host_cpls();
	std::vector<uint64_t> want = {NAA_BAR + 0x10, NAA_BAR + 0xFFFC, NAA_BAR + 0xFFFC,
				      NAA_BAR + 0x81000, NAA_BAR + 0x81000 + 0xFFC};
	bool addr_ok = dev_rx.size() - dev0 == 6;
	for (size_t i = 0; addr_ok && i < 5; i++)
		addr_ok = dev_rx[dev0 + i].t.kind == TLP_MWR && dev_rx[dev0 + i].t.addr == want[i];
	CHECK(addr_ok, "5 hits arrive as MWr at in_base + offset, 2 misses never reach the device");
	CHECK(dev_rx.size() > dev0 + 2 && dev_rx[dev0 + 2].t.first_be == 0x8 && dev_rx[dev0 + 2].t.len_dw == 1,
	      "last byte of an interval: one dword, first BE 1000");
	CHECK(devmem.get(NAA_BAR + 0x10) == 1 && devmem.get(NAA_BAR + 0xFFFF) == 9 &&
		  devmem.get(NAA_BAR + 0x81000) == 14 && devmem.get(NAA_BAR + 0x81000 + 0xFFF) == 21,
	      "device memory holds the written bytes");
	CHECK(host_rds[t_miss].status == TLP_CPL_UR && !host_rds[t_miss].bad, "read miss answered UR (byte count, lower address)");
	CHECK(host_rds[t_hit].status == 0 && host_rds[t_hit].got == std::vector<uint8_t>({5, 6, 7, 9}) && !host_rds[t_hit].bad,
	      "read of the last dword returns the data (CplD fields)");
	CHECK(m->h_eg_hits - hits0 == 6 && m->h_eg_misses - miss0 == 3, "eg_hits += 6, eg_misses += 3");
	CHECK(m->n_in_reqs - inreq0 == 6, "in_reqs += 6");
}

static void test_sizes()
{
	printf("sizes and byte enables: 1/2/4/8-byte and 256-byte writes and reads, split completions\n");
	cfg_std_intervals();
	std::map<uint64_t, uint8_t> shadow;
	auto sh = [&](uint64_t a) { uint64_t d; host2dev(a, &d); return devmem.get(d); };
	bool ok = true;
	unsigned n_split_before = 0;
	std::vector<uint8_t> tags;
	for (unsigned sz : {1u, 2u, 4u, 8u, 256u}) {
		for (int k = 0; k < 6; k++) {
			uint64_t a = AP + (sz == 256 ? 0x1000 * k + 0x100 : (0x200 + k * 16 + (sz < 4 ? rnd(4 / sz) * sz : 0)));
			if (sz == 8 && k & 1)
				a += 4; // 8 bytes across a dword pair at a 4-byte offset: BEs f/f over 2 DW
			auto d = rand_bytes(sz);
			host_write(a, d);
			for (unsigned i = 0; i < sz; i++)
				shadow[a + i] = d[i];
			std::vector<uint8_t> exp(sz);
			for (unsigned i = 0; i < sz; i++)
				exp[i] = shadow[a + i];
			tags.push_back(host_read(a, sz, exp));
		}
	}
	// unaligned 256-byte-ish reads of untouched memory (first/last BE partial)
	for (int k = 0; k < 4; k++) {
		uint64_t a = AP + 0x8000 + 0x40 * k + 1 + k;
		unsigned sz = 250 - k;
		std::vector<uint8_t> exp(sz);
		for (unsigned i = 0; i < sz; i++)
			exp[i] = sh(a + i);
		tags.push_back(host_read(a, sz, exp));
	}
	settle();
	collect_host_cpls();
	unsigned multi = 0;
	for (uint8_t t : tags) {
		HostRd &r = host_rds[t];
		if (r.status != 0 || r.bad || r.got != r.expect) {
			ok = false;
			printf("    read 0x%llx size %u: status %d bad %d\n", (unsigned long long)r.addr, r.size, r.status, r.bad);
		}
		if (r.cpls > 1)
			multi++;
	}
	(void)n_split_before;
	printf("    multi %u cpls made %u\n", multi, n_cpl_made);
	CHECK(ok, "every read returns the bytes last written (ordering: reads never pass writes)");
	CHECK(multi > 4, "split device completions arrive as several correct CplDs (lower address, byte count)");
	CHECK(host_cpl_errors == 0, "no stray or duplicate completion at the host");
	bool bes = true;
	for (const RxTlp &r : dev_rx)
		if (r.t.kind == TLP_MWR && r.t.len_dw > 64)
			bes = false;
	CHECK(bes && h_tlp->errors() == 0 && n_dev->errors() == 0, "TLP streams obey the protocol (keep, sop/eop, lengths)");
}

static void test_timeout()
{
	printf("completion timeout: a dropped completion gets CA, a late one is dropped\n");
	cfg_std_intervals();
	m->h_cfg_timeout = 2;    // 512 cycles
	uint32_t to0 = m->h_timeouts, drops0 = m->h_drops;
	int mode = F_DROP;
	w_n2h.filter = [&](const Pkt &p) {
		return net_hdr_get_ptype(p.f[0].w) == NET_TYPE_SMFU_CPL ? mode : F_PASS;
	};
	uint8_t t1 = host_read(AP + 0x40, 4, dev_bytes(NAA_BAR + 0x40, 4));
	run(1500);
	collect_host_cpls();
	HostRd &r1 = host_rds[t1];
	printf("    t1 status %d bad %d issue %llu done %llu cpls %u\n", r1.status, r1.bad, (unsigned long long)r1.t_issue, (unsigned long long)r1.t_done, r1.cpls);
	CHECK(r1.status == TLP_CPL_CA && !r1.bad, "dropped completion: CA completion to the host (byte count 4)");
	CHECK(r1.t_done - r1.t_issue >= 512 && r1.t_done - r1.t_issue < 1000, "CA after timeout x 256 cycles (2 units: 512..768 + path)");
	CHECK(m->h_timeouts - to0 == 1, "smfu.timeouts += 1");
	mode = F_HOLD;
	uint8_t t2 = host_read(AP + 0x80, 64, dev_bytes(NAA_BAR + 0x80, 64));
	run(1500);
	w_n2h.filter = nullptr;
	unsigned held = (unsigned)w_n2h.held.size();
	w_n2h.release_held();
	settle();
	collect_host_cpls();
	HostRd &r2 = host_rds[t2];
	CHECK(held >= 1 && r2.status == TLP_CPL_CA && r2.cpls == 1, "late completion(s) after the CA are dropped: exactly one answer");
	CHECK(m->h_drops - drops0 == held && host_cpl_errors == 0, "late completions counted as dropped, none reaches the host");
	uint8_t t3 = host_read(AP + 0x80, 64, dev_bytes(NAA_BAR + 0x80, 64));
	settle();
	collect_host_cpls();
	CHECK(host_rds[t3].status == 0 && host_rds[t3].got == host_rds[t3].expect, "the tag slot works again afterwards");
	m->h_cfg_timeout = 0x400;
}

// Device-side pass-through
struct DevRd {
	uint64_t addr;
	unsigned size;
	std::vector<uint8_t> got, exp;
	bool done = false, bad = false;
};
static std::map<uint8_t, DevRd> dev_rds;
static unsigned big_fail;   // reads of tag 0x40.. that ended wrong (test_big_reads)
static size_t dev_rx_done;
static void dev_write(uint64_t addr, const std::vector<uint8_t> &data)
{
	tlp t;
	tlp_mwr_bytes(&t, addr, data.data(), (unsigned)data.size(), DEV_ID);
	n_req->send(t);
}
static void collect_dev_cpls()
{
	for (; dev_rx_done < dev_rx.size(); dev_rx_done++) {
		const tlp &c = dev_rx[dev_rx_done].t;
		if (c.kind != TLP_CPLD && c.kind != TLP_CPL)
			continue;
		auto it = dev_rds.find(c.tag);
		if (it == dev_rds.end() || c.requester_id != DEV_ID || c.status != 0) {
			if (it != dev_rds.end())
				it->second.bad = true;
			continue;
		}
		DevRd &r = it->second;
		uint64_t cur = r.addr + r.got.size();
		unsigned bc = c.byte_count ? c.byte_count : 4096;
		if (c.lower_addr != (cur & 0x7f) || bc != r.size - r.got.size())
			r.bad = true;
		unsigned n = c.len_dw * 4 - (cur & 3);
		if (n > bc)
			n = bc;
		for (unsigned i = 0; i < n; i++) {
			unsigned o = (cur & 3) + i;
			r.got.push_back((uint8_t)(c.payload[o / 4] >> (8 * (o & 3))));
		}
		if (r.got.size() >= r.size && !r.done) {
			r.done = true;
			if (c.tag >= 0x40 && c.tag < 0x60 && (r.bad || r.got != r.exp)) {
				if (big_fail++ < 5)
					printf("    dev read 0x%llx size %u: bad %d got %zu\n", (unsigned long long)r.addr,
					       r.size, r.bad, r.got.size());
			}
		}
	}
}

// A device read of sz bytes at a with the given tag; the expected data: the
// host memory model's, or for the bytes in shadow (written but maybe not yet
// landed) the shadow's.
static uint8_t dev_read(uint64_t a, unsigned sz, uint8_t tag,
			const std::map<uint64_t, uint8_t> *shadow = nullptr)
{
	uint64_t dwa; unsigned len; uint8_t fbe, lbe;
	tlp_access_bes(a, sz, &dwa, &len, &fbe, &lbe);
	tlp t;
	tlp_mrd(&t, dwa, len, fbe, lbe, DEV_ID, tag);
	DevRd r;
	r.addr = a;
	r.size = sz;
	for (unsigned i = 0; i < sz; i++) {
		auto it = shadow ? shadow->find(a + i) : std::map<uint64_t, uint8_t>::const_iterator();
		r.exp.push_back(shadow && it != shadow->end() ? it->second : hostmem.get(a + i));
	}
	dev_rds[tag] = r;
	n_req->send(t);
	return tag;
}

static void test_passthru()
{
	printf("pass-through: device DMA writes and reads reach host memory unaltered\n");
	uint32_t up0 = m->n_up_reqs, uph0 = m->h_up_reqs;
	std::map<uint64_t, uint8_t> shadow;
	bool ok = true;
	std::vector<uint8_t> tags;
	uint8_t tg = 0x10;
	for (int k = 0; k < 30; k++) {
		unsigned sz = (unsigned[]){1, 2, 4, 8, 64, 256, 100}[rnd(7)];
		uint64_t a = (k & 1 ? 0x7F00000000ull : 0x20000000ull) + 0x1000 * rnd(8) + (sz >= 64 ? 4 * rnd(4) : 0);
		auto d = rand_bytes(sz);
		dev_write(a, d);
		for (unsigned i = 0; i < sz; i++)
			shadow[a + i] = d[i];
		if (k % 3 == 0)
			tags.push_back(dev_read(a, sz, tg++, &shadow));
	}
	settle();
	collect_dev_cpls();
	for (auto &kv : shadow)
		if (hostmem.get(kv.first) != kv.second)
			ok = false;
	CHECK(ok, "30 DMA writes (1..256 B, above 4 GiB too) land in host memory");
	bool rok = true;
	for (uint8_t t : tags) {
		DevRd &r = dev_rds[t];
		if (!r.done || r.bad || r.got != r.exp) {
			rok = false;
			printf("    dev read 0x%llx size %u done %d bad %d got %zu\n", (unsigned long long)r.addr, r.size, r.done, r.bad, r.got.size());
		}
	}
	CHECK(rok, "10 DMA reads complete to the device with its tag/requester ID and the data (split at host RCB)");
	CHECK(m->n_up_reqs - up0 == 40 && m->h_up_reqs - uph0 == 40, "up_reqs += 40 on both NICs");
	bool rid = true;
	for (const RxTlp &r : host_rx)
		if ((r.t.kind == TLP_MWR || r.t.kind == TLP_MRD) && r.t.requester_id != HOST_ID)
			rid = false;
	CHECK(rid, "host sees the NIC as requester (requester ID = endpoint ID)");
}

static const uint64_t WIN = 0xFD00000000ull;
static void msi(uint32_t data, uint32_t off = 0x100)
{
	uint32_t pl[1] = {data};
	tlp t;
	tlp_mwr(&t, WIN + off, pl, 1, 0xf, 0, DEV_ID);
	n_req->send(t);
}

static void test_interrupts()
{
	printf("interrupt forwarding: notification entry after every earlier DMA write, ring full\n");
	m->h_cfg_nq_log2 = 4;
	uint32_t prod0 = m->h_nq_prod;
	m->h_cfg_nq_cons = prod0;
	size_t rx0 = host_rx.size();
	irq_pulses = 0;
	for (int k = 0; k < 12; k++)
		dev_write(0x30000000ull + 256 * k, rand_bytes(256));
	msi(0xabc0, 0x40);
	settle();
	size_t last_data = 0, entry = 0;
	for (size_t i = rx0; i < host_rx.size(); i++) {
		const tlp &t = host_rx[i].t;
		if (t.kind == TLP_MWR && t.addr >= 0x30000000ull && t.addr < 0x30010000ull)
			last_data = i;
		if (t.kind == TLP_MWR && t.addr >= RING && t.addr < RING + 0x100000)
			entry = i;
	}
	CHECK(entry > last_data && last_data > 0, "the entry's MWr leaves after all 12 data MWrs of the burst");
	uint64_t ea = RING + 16 * (prod0 & 15);
	const tlp &e = host_rx[entry].t;
	bool phase = ((prod0 >> 4) & 1) == 0;
	uint64_t eq[2] = {e.payload[0] | (uint64_t)e.payload[1] << 32, e.payload[2] | (uint64_t)e.payload[3] << 32};
	CHECK(e.addr == ea && e.len_dw == 4 &&
		  EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_DATA, eq[EXTOLL_NOTIFY_ENT_DATA_QW]) == 0xabc0 &&
		  EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_OFFSET, eq[EXTOLL_NOTIFY_ENT_OFFSET_QW]) == 0x40 &&
		  EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_NODE, eq[EXTOLL_NOTIFY_ENT_NODE_QW]) == NAA_NODE &&
		  EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_PHASE, eq[EXTOLL_NOTIFY_ENT_PHASE_QW]) == (uint64_t)phase,
	      "entry: data, window offset, source node, phase at prod & mask");
	CHECK(m->h_nq_prod == prod0 + 1 && irq_pulses == 1 && m->h_nq_events >= 1, "prod += 1, one notify interrupt pulse");
	// ring full: 16 entries of room, send 20 events, then data behind them
	prod0 = m->h_nq_prod;
	m->h_cfg_nq_cons = prod0;
	uint32_t st0 = m->h_nq_full_stalls;
	rx0 = host_rx.size();
	for (int k = 0; k < 20; k++)
		msi(0x1000 + k);
	dev_write(0x31000000ull, {0x5a, 0x5a, 0x5a, 0x5a});
	settle(3000);
	CHECK(m->h_nq_prod == prod0 + 16, "a full ring stops the producer at 16 entries");
	CHECK(m->h_nq_full_stalls - st0 == 1 && hostmem.get(0x31000000ull) != 0x5a,
	      "full_stalls counts the held event; a later write from the source waits behind it");
	m->h_cfg_nq_cons = prod0 + 10;
	settle(3000);
	m->h_cfg_nq_cons = prod0 + 20;
	settle(3000);
	bool all = m->h_nq_prod == prod0 + 20;
	std::vector<uint32_t> seen;
	for (size_t i = rx0; i < host_rx.size(); i++) {
		const tlp &t = host_rx[i].t;
		if (t.kind == TLP_MWR && t.addr >= RING && t.addr < RING + 0x100000) {
			uint32_t idx = (uint32_t)((t.addr - RING) / 16);
			uint32_t p = (uint32_t)seen.size() + prod0;
			if (idx != (p & 15) || (t.payload[3] >> 31) != (((p >> 4) & 1) == 0))
				all = false;
			seen.push_back(t.payload[0]);
		}
	}
	for (int k = 0; k < 20 && all; k++)
		all = k < (int)seen.size() && seen[k] == 0x1000u + k;
	CHECK(all && seen.size() == 20, "after cons advances all 20 entries are written in order, phases flip per pass");
	CHECK(hostmem.get(0x31000000ull) == 0x5a, "the write behind the stalled events completes: nothing lost");
	m->h_cfg_nq_log2 = 8;
}

// Answer the reads a held model kept back (in arrival order).
static void answer_held(std::vector<tlp> &held, Mem &mem, uint16_t cid, bool split, std::deque<Delayed> &cpl_q)
{
	for (const tlp &r : held)
		for (const tlp &c : make_cpls(r, mem, cid, split))
			cpl_q.push_back({cyc + 1, c});
	held.clear();
}


// Row 2 of docs/pcie-rules.md: reads that find no tag are parked; the posted
// writes behind them and the completions of the other direction flow.
// 8 posted writes of 64 random bytes from the host into the aperture at AP + off
// (device memory NAA_BAR + off under the standard intervals); returns the data
static std::vector<std::vector<uint8_t>> host_writes8(uint64_t off)
{
	std::vector<std::vector<uint8_t>> wd;
	for (int k = 0; k < 8; k++) {
		wd.push_back(rand_bytes(64));
		host_write(AP + off + 64 * k, wd.back());
	}
	return wd;
}

// device memory at NAA_BAR + off holds what host_writes8(off) wrote
static bool dev_holds8(uint64_t off, const std::vector<std::vector<uint8_t>> &wd)
{
	bool ok = true;
	for (int k = 0; k < 8; k++)
		for (int i = 0; i < 64; i++)
			ok = ok && devmem.get(NAA_BAR + off + 64 * k + i) == wd[k][i];
	return ok;
}

// MRd received since rx[d0] (dev_rx: the device, host_rx: host memory)
static unsigned mrds_since(const std::vector<RxTlp> &rx, size_t d0)
{
	unsigned n = 0;
	for (size_t k = d0; k < rx.size(); k++)
		n += rx[k].t.kind == TLP_MRD;
	return n;
}

static void test_np_bypass()
{
	printf("non-posted bypass: reads blocked on tags; writes and completions pass them\n");
	cfg_std_intervals();
	// host side: the device holds its reads, 16 egress tags + 2 parked reads
	dev_hold = true;
	std::vector<uint8_t> rds;
	for (int k = 0; k < 18; k++)
		rds.push_back(host_read(AP + 0x8000 + 64 * k, 64, dev_bytes(NAA_BAR + 0x8000 + 64 * k, 64)));
	std::vector<std::vector<uint8_t>> wd = host_writes8(0x4000);
	uint8_t dr = dev_read(0x22000000ull, 64, 0x60);
	run(3000);
	collect_host_cpls();
	collect_dev_cpls();
	bool wok = dev_holds8(0x4000, wd);
	unsigned pend = 0;
	for (uint8_t t : rds)
		pend += host_rds[t].status < 0;
	printf("    host reads pending %u, held at the device %zu\n", pend, dev_held.size());
	CHECK(h_ap->idle() && pend == 18 && dev_held.size() == 16,
	      "18 host reads outstanding (16 tags + 2 parked), the aperture input is not blocked");
	CHECK(wok, "8 posted writes behind the blocked reads reach the device");
	CHECK(dev_rds[dr].done && !dev_rds[dr].bad, "a device DMA read completes past the blocked host reads");
	dev_hold = false;
	answer_held(dev_held, devmem, DEV_ID, dev_split, dev_cpl_q);
	settle();
	collect_host_cpls();
	bool rok = host_reads_ok(rds);
	CHECK(rok, "the 18 blocked host reads complete with their data once the device answers");

	// NAA side: host memory holds the device's DMA reads (16 pass-through tags + 2 parked)
	host_hold = true;
	std::vector<uint8_t> drs;
	for (int k = 0; k < 18; k++)
		drs.push_back(dev_read(0x23000000ull + 64 * k, 64, (uint8_t)(0x70 + k)));
	std::vector<uint8_t> dw = rand_bytes(64);
	dev_write(0x24000000ull, dw);
	uint8_t hr = host_read(AP + 0x100, 8, dev_bytes(NAA_BAR + 0x100, 8));
	run(3000);
	collect_host_cpls();
	collect_dev_cpls();
	bool dwok = true;
	for (int i = 0; i < 64; i++)
		dwok = dwok && hostmem.get(0x24000000ull + i) == dw[i];
	unsigned dpend = 0;
	for (uint8_t t : drs)
		dpend += !dev_rds[t].done;
	printf("    device reads pending %u, held at the host %zu\n", dpend, host_held.size());
	CHECK(n_req->idle() && dpend == 18 && host_held.size() == 16,
	      "18 device reads outstanding (16 pass-through tags + 2 parked), the device request input is not blocked");
	CHECK(dwok, "a device DMA write behind the blocked reads reaches host memory");
	CHECK(host_rds[hr].status == 0 && host_rds[hr].got == host_rds[hr].expect,
	      "a host read of the device completes past the blocked device reads");
	host_hold = false;
	answer_held(host_held, hostmem, CPU_ID, host_split, host_cpl_q);
	settle();
	collect_dev_cpls();
	bool drok = true;
	for (uint8_t t : drs)
		drok = drok && dev_rds[t].done && !dev_rds[t].bad && dev_rds[t].got == dev_rds[t].exp;
	CHECK(drok, "the 18 blocked device reads complete with their data once the host answers");
}

// Issue 9 (docs/network.md "The protocol part"): at the ingress (smfu_in) a
// read that cannot issue (here: the MRRS pieces of an earlier read, whose
// first piece the far side holds) parks, and the posted writes that arrive
// after it pass it and reach the memory; a write before it still reaches the
// memory before its MRd (the ordering checker and the read's data show it).
// Both directions: the NAA's ingress (root-port MRRS 128 B, the device holds
// its reads) and the host NIC's pass-through receiver (host MRRS 128 B, host
// memory holds the device's reads).
static void test_in_bypass()
{
	printf("ingress bypass: posted writes pass a read parked in smfu_in\n");
	cfg_std_intervals();
	// NAA ingress
	m->n_cfg_dev_mrrs = 0;
	dev_mrrs = 128;
	dev_hold = true;
	size_t d0 = dev_rx.size();
	uint8_t r1 = host_read(AP + 0xA000, 256, dev_bytes(NAA_BAR + 0xA000, 256));
	for (int i = 0; i < 5000 && dev_held.empty(); i++)
		run(1);
	std::vector<uint8_t> w0 = rand_bytes(64);
	host_write(AP + 0xB000, w0);     // before r2: reaches the device before r2's MRd
	std::vector<uint8_t> e2 = w0, rest = dev_bytes(NAA_BAR + 0xB040, 192);
	e2.insert(e2.end(), rest.begin(), rest.end());
	uint8_t r2 = host_read(AP + 0xB000, 256, e2);
	std::vector<std::vector<uint8_t>> wd = host_writes8(0xC000);
	run(3000);
	bool wok = dev_holds8(0xC000, wd);
	unsigned nmrd = mrds_since(dev_rx, d0);
	printf("    MRd at the device %u, held %zu\n", nmrd, dev_held.size());
	CHECK(nmrd == 1 && dev_held.size() == 1, "NAA: one MRd piece held by the device, the second read waits");
	CHECK(wok, "NAA: 8 posted writes sent after the waiting read reach the device");
	dev_hold = false;
	answer_held(dev_held, devmem, DEV_ID, dev_split, dev_cpl_q);
	settle();
	collect_host_cpls();
	// the device saw: w0 before r2's first MRd, the 8 writes before it too
	size_t iw0 = 0, ir2 = 0, iwl = 0;
	for (size_t k = d0; k < dev_rx.size(); k++) {
		const tlp &t = dev_rx[k].t;
		if (t.kind == TLP_MWR && t.addr == NAA_BAR + 0xB000 && !iw0)
			iw0 = k;
		if (t.kind == TLP_MWR && t.addr >= NAA_BAR + 0xC000 && t.addr < NAA_BAR + 0xC200)
			iwl = k;
		if (t.kind == TLP_MRD && t.addr >= NAA_BAR + 0xB000 && t.addr < NAA_BAR + 0xB100 && !ir2)
			ir2 = k;
	}
	CHECK(host_reads_ok({r1, r2}) && !host_rds[r1].bad && !host_rds[r2].bad,
	      "NAA: both reads complete with their data (the second one sees the write before it)");
	CHECK(iw0 && ir2 && iwl && iw0 < ir2 && iwl < ir2,
	      "NAA: at the device the write before the parked read and the 8 writes after it precede its MRd");

	// a parked read becomes free while writes stream (multi-beat payloads):
	// 60 reads of 256 B (two MRd pieces each) and 120 writes of 256 B mixed,
	// disjoint bytes, the device answering as usual
	std::vector<uint8_t> rs;
	std::map<uint64_t, std::vector<uint8_t>> ws;
	for (int k = 0; k < 180; k++) {
		if (k % 3 == 0) {
			uint64_t o = 0xD000 + 0x100 * (uint64_t)rnd(16);
			rs.push_back(host_read(AP + o, 256, dev_bytes(NAA_BAR + o, 256)));
		} else {
			uint64_t o = 0xE000 + 0x100 * (uint64_t)rnd(16);
			ws[o] = rand_bytes(256);
			host_write(AP + o, ws[o]);
		}
	}
	settle();
	collect_host_cpls();
	bool mok = host_reads_ok(rs);
	for (uint8_t t : rs)
		mok = mok && !host_rds[t].bad;
	for (auto &w : ws)
		for (int i = 0; i < 256; i++)
			mok = mok && devmem.get(NAA_BAR + w.first + i) == w.second[i];
	CHECK(mok, "NAA: 60 reads of 256 B (MRRS pieces, parked) and 120 writes of 256 B mixed: data both ways");
	m->n_cfg_dev_mrrs = 2;
	dev_mrrs = 512;

	// host NIC pass-through receiver
	m->h_cfg_mrrs = 0;
	host_hold = true;
	size_t h0 = host_rx.size();
	uint8_t q1 = dev_read(0x25000000ull, 256, 0x50);
	for (int i = 0; i < 5000 && host_held.empty(); i++)
		run(1);
	uint8_t q2 = dev_read(0x25001000ull, 256, 0x51);
	std::vector<std::vector<uint8_t>> hd;
	for (int k = 0; k < 8; k++) {
		hd.push_back(rand_bytes(64));
		dev_write(0x25002000ull + 64 * k, hd.back());
	}
	run(3000);
	bool hok = true;
	for (int k = 0; k < 8; k++)
		for (int i = 0; i < 64; i++)
			hok = hok && hostmem.get(0x25002000ull + 64 * k + i) == hd[k][i];
	unsigned hmrd = mrds_since(host_rx, h0);
	printf("    MRd at the host %u, held %zu\n", hmrd, host_held.size());
	CHECK(hmrd == 1 && host_held.size() == 1, "host: one MRd piece held by host memory, the second read waits");
	CHECK(hok, "host: 8 device writes sent after the waiting read reach host memory");
	host_hold = false;
	answer_held(host_held, hostmem, CPU_ID, host_split, host_cpl_q);
	settle();
	collect_dev_cpls();
	CHECK(dev_rds[q1].done && !dev_rds[q1].bad && dev_rds[q1].got == dev_rds[q1].exp && dev_rds[q2].done &&
	      !dev_rds[q2].bad && dev_rds[q2].got == dev_rds[q2].exp,
	      "host: both device reads complete with their data");
	m->h_cfg_mrrs = 2;
}

// The same with the NAA's 16 MRd tags all outstanding: the host's own
// timeout (1024 cycles) is far shorter than the NAA's (65,536 cycles and
// more), so the host answers 16 reads the device holds CA, frees its egress
// tags and sends a 17th read, which waits at the NAA's ingress for a tag;
// 8 writes sent after it reach the device meanwhile. Then the device answers
// the 16 (their completions reach the host late and are dropped) while 40
// writes of 256 B sent before stream in, so the parked read gets its tag in the middle
// of write payloads; it completes with its data, the writes arrive whole.
static void test_in_bypass_tags()
{
	printf("ingress bypass: posted writes pass a read parked in smfu_in for a tag\n");
	cfg_std_intervals();
	m->h_cfg_timeout = 4;    // 1024 cycles
	uint32_t drops0 = m->h_drops;
	dev_hold = true;
	size_t d0 = dev_rx.size();
	std::vector<uint8_t> lost;
	for (int k = 0; k < 16; k++)
		lost.push_back(host_read(AP + 0x3000 + 64 * k, 64, dev_bytes(NAA_BAR + 0x3000 + 64 * k, 64)));
	run(2000);
	collect_host_cpls();
	unsigned ca = 0;
	for (uint8_t t : lost)
		ca += host_rds[t].status == TLP_CPL_CA;
	CHECK(ca == 16 && dev_held.size() == 16, "16 reads held by the device (all NAA tags), answered CA by the host NIC");
	uint8_t r17 = host_read(AP + 0x3800, 64, dev_bytes(NAA_BAR + 0x3800, 64));
	std::vector<std::vector<uint8_t>> wd = host_writes8(0x3400);
	run(600);
	bool wok = dev_holds8(0x3400, wd);
	unsigned nmrd = mrds_since(dev_rx, d0);
	printf("    MRd at the device %u, held %zu\n", nmrd, dev_held.size());
	CHECK(nmrd == 16, "the 17th read waits at the NAA for a tag");
	CHECK(wok, "8 posted writes sent after it reach the device");
	std::map<uint64_t, std::vector<uint8_t>> ws;
	for (int k = 0; k < 40; k++) {
		uint64_t o = 0x5000 + 0x100 * (uint64_t)rnd(16);
		ws[o] = rand_bytes(256);
		host_write(AP + o, ws[o]);
	}
	run(150);    // the writes stream into the NAA's ingress
	dev_hold = false;
	answer_held(dev_held, devmem, DEV_ID, dev_split, dev_cpl_q);
	settle();
	collect_host_cpls();
	bool mok = true;
	for (auto &w : ws)
		for (int i = 0; i < 256; i++)
			mok = mok && devmem.get(NAA_BAR + w.first + i) == w.second[i];
	CHECK(host_rds[r17].status == 0 && !host_rds[r17].bad && host_rds[r17].got == host_rds[r17].expect,
	      "the parked read completes with its data once a tag is free");
	CHECK(mok, "40 writes of 256 B streaming while it got its tag arrive whole");
	CHECK(m->h_drops - drops0 >= 16 && host_cpl_errors == 0, "the 16 late completions are dropped at the host (%u)",
	      m->h_drops - drops0);
	m->h_cfg_timeout = 0x400;
}

// The parked read issues only between TLPs (smfu_in: go_prd in R_HDR), made
// deterministic: all 16 NAA tags outstanding (held by the device, answered CA
// by the host as above), a 17th read parked, then the device stops taking
// TLPs (ready 0) while a 256-byte write is in smfu_in: its header waits in
// the output register, the payload behind it (R_PL). One held read is
// answered, so a tag is free while the write is stopped in the middle; then
// the device takes TLPs again. The first cycle the output moves is in the
// middle of the write: a parked read that may issue there (mutation: R_HDR
// dropped from go_prd) breaks the MWr or loses its MRd in every run.
static void test_in_bypass_midtlp()
{
	printf("ingress bypass: a parked read whose tag frees in the middle of a write issues after the write\n");
	cfg_std_intervals();
	m->h_cfg_timeout = 4;    // 1024 cycles
	unsigned dv0 = dev_viol();
	dev_hold = true;
	size_t d0 = dev_rx.size();
	std::vector<uint8_t> lost;
	for (int k = 0; k < 16; k++)
		lost.push_back(host_read(AP + 0x6000 + 64 * k, 64, dev_bytes(NAA_BAR + 0x6000 + 64 * k, 64)));
	run(2000);
	collect_host_cpls();
	unsigned ca = 0;
	for (uint8_t t : lost)
		ca += host_rds[t].status == TLP_CPL_CA;
	CHECK(ca == 16 && dev_held.size() == 16, "mid-TLP: 16 reads held by the device (all NAA tags), CA at the host");
	m->h_cfg_timeout = 0x400;   // the 17th read may wait at the host now
	uint8_t r17 = host_read(AP + 0x6800, 64, dev_bytes(NAA_BAR + 0x6800, 64));
	run(400);
	CHECK(mrds_since(dev_rx, d0) == 16, "mid-TLP: the 17th read is parked at the NAA");
	double p0 = n_dev->prob;
	n_dev->prob = 0.0;       // the device takes nothing
	std::vector<uint8_t> w = rand_bytes(256);
	host_write(AP + 0x6400, w);
	run(600);
	size_t d1 = dev_rx.size();
	bool mid = m->n_dev_valid && m->n_dev_sop && !m->n_dev_eop;
	CHECK(mid, "mid-TLP: the write's MWr header waits at the device port (a TLP in progress)");
	// one held read answered: its tag comes back while the write is stopped
	std::vector<tlp> one(dev_held.begin(), dev_held.begin() + 1);
	dev_held.erase(dev_held.begin());
	dev_hold = false;
	answer_held(one, devmem, DEV_ID, dev_split, dev_cpl_q);
	dev_hold = true;
	run(400);
	CHECK(dev_rx.size() == d1, "mid-TLP: nothing reached the device while it was stopped");
	n_dev->prob = p0;
	run(600);
	// the device saw the MWr whole, then the parked read's MRd
	size_t iw = 0, ir = 0;
	for (size_t k = d1; k < dev_rx.size(); k++) {
		const tlp &t = dev_rx[k].t;
		if (t.kind == TLP_MWR && t.addr == NAA_BAR + 0x6400 && !iw)
			iw = k + 1;
		if (t.kind == TLP_MRD && t.addr == NAA_BAR + 0x6800 && !ir)
			ir = k + 1;
	}
	bool wok = true;
	for (int i = 0; i < 256; i++)
		wok = wok && devmem.get(NAA_BAR + 0x6400 + i) == w[i];
	CHECK(wok && iw, "mid-TLP: the 256-byte write reaches the device whole");
	CHECK(ir && iw && iw < ir && dev_held.size() == 16, "mid-TLP: the parked read's MRd follows the write (%zu, %zu)", iw, ir);
	CHECK(dev_viol() == dv0, "mid-TLP: no protocol violation on the device link (%u)", dev_viol() - dv0);
	dev_hold = false;
	answer_held(dev_held, devmem, DEV_ID, dev_split, dev_cpl_q);
	settle();
	collect_host_cpls();
	CHECK(host_rds[r17].status == 0 && !host_rds[r17].bad && host_rds[r17].got == host_rds[r17].expect,
	      "mid-TLP: the parked read completes with its data");
	m->h_cfg_timeout = 0x400;
}

// Row 3: at the NAA a completion for the device never passes a posted write
// (host -> device) that was sent into the network before it.
static unsigned be_bytes(const tlp &t)
{
	unsigned n = 0;
	for (unsigned d = 0; d < t.len_dw; d++) {
		uint8_t be = d == 0 ? t.first_be : d == t.len_dw - 1 ? t.last_be : 0xf;
		n += __builtin_popcount(be);
	}
	return n;
}

static void test_order_naa(unsigned mps_enc)
{
	printf("NAA ordering: a completion toward the device never passes an earlier posted write (MPS %u)\n",
	       128u << mps_enc);
	m->n_cfg_dev_mps = mps_enc;
	dev_mps = 128u << mps_enc;
	cfg_std_intervals();
	std::deque<unsigned> wsz;   // bytes of the host's writes, in order
	std::vector<int> wire;   // h2n packet types in send order
	w_h2n.filter = [&](const Pkt &p) {
		wire.push_back((int)net_hdr_get_ptype(p.f[0].w));
		return F_PASS;
	};
	size_t dev0 = dev_rx.size();
	for (int k = 0; k < 60; k++) {
		unsigned n = 1 + rnd(256);
		host_write(AP + 0x2000 + 256 * (k % 16), rand_bytes(n));
		wsz.push_back(n);
		if (k % 3 == 0)
			dev_read(0x25000000ull + 64 * k, 4 + 4 * rnd(16), (uint8_t)(0xa0 + k / 3));
		run(rnd(20));
	}
	settle();
	w_h2n.filter = nullptr;
	// the k-th completion at the device must see at least as many writes before it
	// as the k-th SMFU_CPL had before it on the wire
	std::vector<unsigned> wr_before_wire, wr_before_dev;
	unsigned nw = 0;
	for (int t : wire) {
		if (t == NET_TYPE_SMFU_WR) nw++;
		if (t == NET_TYPE_SMFU_CPL) wr_before_wire.push_back(nw);
	}
	// a write counts at the device once all its bytes arrived (its MWr pieces, MPS)
	nw = 0;
	unsigned acc = 0, nmwr = 0;
	for (size_t i = dev0; i < dev_rx.size(); i++) {
		const tlp &t = dev_rx[i].t;
		if (t.kind == TLP_MWR) {
			nmwr++;
			acc += be_bytes(t);
			while (!wsz.empty() && acc >= wsz.front()) {
				acc -= wsz.front();
				wsz.pop_front();
				nw++;
			}
		}
		if (t.kind == TLP_CPLD || t.kind == TLP_CPL) wr_before_dev.push_back(nw);
	}
	bool ok = wr_before_wire.size() == wr_before_dev.size() && wr_before_dev.size() >= 20;
	unsigned bad = 0;
	for (size_t k = 0; ok && k < wr_before_dev.size(); k++)
		if (wr_before_dev[k] < wr_before_wire[k])
			bad++;
	printf("    completions %zu / %zu, passed writes %u, 60 writes as %u MWr\n", wr_before_wire.size(),
	       wr_before_dev.size(), bad, nmwr);
	CHECK(ok && bad == 0 && wsz.empty(), "every completion reaches the device after the writes sent before it");
	m->n_cfg_dev_mps = 1;
	dev_mps = 256;
}

// Max_Payload_Size on both sides (PCIe Base Spec. 2.2.2): with the host NIC's
// MPS at 128 B the device's DMA writes of up to 256 B reach host memory as
// MWr of <= 128 B; with the root port's MPS at 128 B the host's writes reach
// the device so too. The data is checked byte for byte; the rule checker
// fails any larger MWr.
static void test_write_split()
{
	printf("MPS 128 B: writes of up to 256 B are split into MWr of <= 128 B on both sides\n");
	cfg_std_intervals();
	settle();
	// Each hierarchy has its own MPS (PCIe 2.2.2): the writer's side at 256 B
	// sends 256-B writes, the other side at 128 B must get them split.
	// Device -> host first: device hierarchy 256 B, host NIC 128 B.
	m->h_cfg_mps = 0;
	host_mps = 128;
	m->n_cfg_dev_mps = 1;
	dev_mps = 256;
	unsigned hv0 = host_viol(), dv0 = dev_viol();
	// device -> host: ten aligned 256-byte writes, then 40 of random size and alignment
	size_t h0 = host_rx.size();
	std::map<uint64_t, uint8_t> shadow;
	for (int k = 0; k < 50; k++) {
		unsigned sz = k < 10 ? 256 : 1 + rnd(256);
		uint64_t a = 0x21000000ull + 0x1000 * k + (k < 10 ? 0 : rnd(0x1000 - sz + 1));
		if ((a & 3) + sz > 256)   // at most 64 dwords (the device's MPS 256 B)
			sz = 256 - (unsigned)(a & 3);
		auto d = rand_bytes(sz);
		dev_write(a, d);
		for (unsigned i = 0; i < sz; i++)
			shadow[a + i] = d[i];
	}
	settle();
	bool ok = true;
	for (auto &kv : shadow)
		ok = ok && hostmem.get(kv.first) == kv.second;
	unsigned n128 = 0, nmwr = 0, nfirst = 0;
	for (size_t k = h0; k < host_rx.size(); k++) {
		const tlp &t = host_rx[k].t;
		if (t.kind != TLP_MWR)
			continue;
		nmwr++;
		if (t.addr >= 0x21000000ull && t.addr < 0x2100a000ull) {
			nfirst++;
			n128 += t.len_dw == 32 && t.first_be == 0xf && t.last_be == 0xf;
		}
	}
	CHECK(ok, "device -> host: every byte of 50 writes (1..256 B) lands in host memory");
	CHECK(nfirst == 20 && n128 == 20, "ten 256-byte writes arrive as 20 MWr of 128 B (%u of %u)", n128, nfirst);
	CHECK(host_viol() == hv0 && nmwr > 50, "no MWr above the host NIC's MPS 128 B (%u MWr for 50 writes)", nmwr);
	// host -> device: host NIC 256 B, device hierarchy 128 B
	m->h_cfg_mps = 1;
	host_mps = 256;
	m->n_cfg_dev_mps = 0;
	dev_mps = 128;
	settle();
	uint32_t dbg_hits = m->h_eg_hits, dbg_miss = m->h_eg_misses, dbg_in = m->n_in_reqs, dbg_drops = m->n_drops;
	size_t d0 = dev_rx.size();
	bool hit_ok = true;
	std::map<uint64_t, uint8_t> dshadow;
	for (int k = 0; k < 30; k++) {
		unsigned sz = k < 8 ? 256 : 1 + rnd(256);
		uint64_t off = 0x4000 + 0x100 * (uint64_t)(k % 32);
		if (k >= 8)
			off += rnd(0x100);
		uint64_t a = AP + off;
		if ((a & 0xfff) + sz > 0x1000)
			a &= ~0xfffull;
		if ((a & 3) + sz > 256)   // at most 64 dwords
			sz = 256 - (unsigned)(a & 3);
		auto d = rand_bytes(sz);
		host_write(a, d);
		if (getenv("TB_DEBUG"))
			printf("    hw 0x%llx %u\n", (unsigned long long)a, sz);
		for (unsigned i = 0; i < sz; i++) {
			uint64_t dv = 0;
			if (host2dev(a + i, &dv))
				dshadow[dv] = d[i];
			else
				hit_ok = false;
		}
	}
	settle();
	ok = true;
	unsigned shown = 0;
	for (auto &kv : dshadow)
		if (devmem.get(kv.first) != kv.second) {
			ok = false;
			if (shown++ < 3)
				printf("    device byte 0x%llx: 0x%02x, want 0x%02x\n", (unsigned long long)kv.first,
				       devmem.get(kv.first), kv.second);
		}
	unsigned dmwr = 0;
	for (size_t k = d0; k < dev_rx.size(); k++) {
		dmwr += dev_rx[k].t.kind == TLP_MWR;
		if (getenv("TB_DEBUG")) {
			char b[160];
			tlp_format(&dev_rx[k].t, b, sizeof b);
			printf("    dev %s\n", b);
		}
	}
	if (getenv("TB_DEBUG"))
		printf("    hits %u misses %u in_reqs %u drops %u\n", m->h_eg_hits - dbg_hits, m->h_eg_misses - dbg_miss,
		       m->n_in_reqs - dbg_in, m->n_drops - dbg_drops);
	CHECK(ok && hit_ok, "host -> device: every byte of 30 writes (1..256 B) reaches the device");
	CHECK(dev_viol() == dv0 && dmwr > 30, "no MWr above the root port's MPS 128 B (%u MWr for 30 writes)", dmwr);
	m->h_cfg_mps = 1;
	host_mps = 256;
	m->n_cfg_dev_mps = 1;
	dev_mps = 256;
}

// Step until every host read in rds has its final completion (or max cycles).
static void wait_host(const std::vector<uint8_t> &rds, unsigned max)
{
	for (unsigned i = 0; i < max; i += 64) {
		run(64);
		collect_host_cpls();
		bool all = true;
		for (uint8_t t : rds)
			all = all && host_rds[t].status >= 0;
		if (all)
			return;
	}
}

// Row 5: completion timeout at the NAA and Secondary Bus Reset cleanup.
static void test_naa_timeout()
{
	printf("NAA completion timeout: lost device completions free their tags; SBR answers outstanding reads\n");
	cfg_std_intervals();
	uint32_t nto0 = m->n_timeouts, hto0 = m->h_timeouts;
	m->n_cfg_timeout = 2;   // 256 cycles at the NAA
	dev_hold = true;
	hold_is_loss = true;
	std::vector<uint8_t> rds;
	for (int k = 0; k < 100; k++) {
		rds.push_back(host_read(AP + 0x6000 + 4 * k, 4, {}));
		if (k % 20 == 19)
			wait_host(rds, 20000);
	}
	dev_held.clear();   // these completions are lost
	unsigned ca = 0;
	for (uint8_t t : rds)
		ca += host_rds[t].status == TLP_CPL_CA && !host_rds[t].bad;
	printf("    CA %u, NAA timeouts %u, host timeouts %u\n", ca, m->n_timeouts - nto0, m->h_timeouts - hto0);
	CHECK(ca == 100 && m->n_timeouts - nto0 == 100 && m->h_timeouts == hto0,
	      "100 lost completions: the NAA answers each with CA (smfu.timeouts), before the host's own timeout");
	dev_hold = false;
	rds.clear();
	for (int k = 0; k < 40; k++)
		rds.push_back(host_read(AP + 0x7000 + 8 * k, 8, dev_bytes(NAA_BAR + 0x7000 + 8 * k, 8)));
	settle();
	collect_host_cpls();
	bool ok = host_reads_ok(rds);
	CHECK(ok, "no leaked tag: 40 reads afterwards (all 16 tags in use) complete with data");

	// pass-through: a lost host completion answers the device CA after cfg_timeout x 256
	host_hold = true;
	uint8_t d = dev_read(0x26000000ull, 16, 0x90);
	run(2000);
	host_held.clear();
	collect_dev_cpls();
	CHECK(dev_rds[d].bad && !dev_rds[d].done && m->n_timeouts - nto0 == 101,
	      "a device read whose host completion is lost gets an error completion (CA) from the NAA");
	host_hold = false;

	// secondary bus reset: outstanding reads answered at once
	m->n_cfg_timeout = 0x400;
	dev_hold = true;
	rds.clear();
	for (int k = 0; k < 10; k++)
		rds.push_back(host_read(AP + 0x6800 + 4 * k, 4, {}));
	run(300);
	collect_host_cpls();
	unsigned pend = 0;
	for (uint8_t t : rds)
		pend += host_rds[t].status < 0;
	uint64_t t0 = cyc;
	m->n_sbr = 1;
	dev_link->reset();   // the device's outstanding requests are gone
	run(50);
	m->n_sbr = 0;
	dev_held.clear();
	run(400);
	collect_host_cpls();
	ca = 0;
	for (uint8_t t : rds)
		ca += host_rds[t].status == TLP_CPL_CA && host_rds[t].t_done - t0 < 400;
	CHECK(pend == 10 && ca == 10 && m->n_timeouts - nto0 == 111,
	      "secondary bus reset: the 10 outstanding reads are answered CA at once and their tags freed");
	dev_hold = false;
	hold_is_loss = false;
	rds.clear();
	for (int k = 0; k < 20; k++)
		rds.push_back(host_read(AP + 0x7400 + 4 * k, 4, dev_bytes(NAA_BAR + 0x7400 + 4 * k, 4)));
	settle();
	collect_host_cpls();
	ok = true;
	for (uint8_t t : rds)
		ok = ok && host_rds[t].status == 0 && host_rds[t].got == host_rds[t].expect;
	CHECK(ok && host_cpl_errors == 0, "the path works after the reset (20 reads)");
}

// Row 6: with the host slow to take TLPs, the producer index and the
// interrupt never run ahead of the entry (checked every cycle in step()).
static void test_nq_race()
{
	printf("notification race: prod and the interrupt follow the entry's last beat out of the NIC\n");
	uint32_t prod0 = m->h_nq_prod;
	m->h_cfg_nq_cons = prod0;
	h_tlp->prob = 0.15;
	for (int k = 0; k < 12; k++) {
		dev_write(0x32000000ull + 64 * k, rand_bytes(64));
		msi(0x2000 + k);
	}
	settle();
	h_tlp->prob = bp;
	printf("    entries %u, race violations %u\n", m->h_nq_prod - prod0, nq_race);
	CHECK(m->h_nq_prod == prod0 + 12 && nq_race == 0,
	      "12 events under host back-pressure: prod/interrupt never ahead of the entries taken (every cycle, whole run)");
}

// Row 1 of issue 8 (MPS/MRRS, docs/pcie-rules.md): device DMA reads of any
// size the device's MRRS allows cross the NAA (split into network reads of
// <= min(256 B, MPS), RCB-aligned), the host memory answers the network reads
// out of order (and splits its completions at RCB at random), and the device
// gets every read's completions in address order, each <= the root port's
// MPS, partial ones ending at RCB boundaries, with the right lower address,
// byte count and data. The rule checker watches both sides.
static void big_reads(unsigned n, unsigned mrrs, unsigned mps_enc, unsigned outstanding, unsigned host_mrrs_enc = 2)
{
	m->n_cfg_dev_mps = mps_enc;
	dev_mps = 128u << mps_enc;
	m->h_cfg_mrrs = host_mrrs_enc;
	host_mrrs = 128u << host_mrrs_enc;
	host_ooo = 120;
	unsigned ooo0 = host_ooo_seen, v0 = dev_viol(), hv0 = host_viol(), mrd0 = 0, f0 = big_fail;
	size_t h0 = host_rx.size(), d0 = dev_rx.size();
	std::vector<uint8_t> tags;
	uint8_t tg = 0x40;
	unsigned maxsz = 0, bigs = 0;
	for (unsigned k = 0; k < n; k++) {
		unsigned sz = 1 + rnd(k % 3 == 0 ? mrrs : (rnd(2) ? 64 : mrrs));
		uint64_t a = 0x30000000ull + 0x1000 * rnd(64) + rnd(0x1000);
		if ((a & 0xfff) + sz > 0x1000)
			a = (a & ~0xfffull) + 0x1000 - sz - (rnd(2) ? rnd(4) : 0);
		if ((a & 0xfff) + sz > 0x1000)
			a = a & ~0xfffull;
		tags.push_back(dev_read(a, sz, tg));
		maxsz = sz > maxsz ? sz : maxsz;
		bigs += sz > 256;
		tg = (uint8_t)(0x40 + (tg + 1 - 0x40) % outstanding);
		if (tg == 0x40 || k == n - 1) {
			settle();
			collect_dev_cpls();
			for (uint8_t t2 : tags)
				if (!dev_rds[t2].done && big_fail++ < 5)
					printf("    dev read 0x%llx size %u: not complete (got %zu)\n",
					       (unsigned long long)dev_rds[t2].addr, dev_rds[t2].size, dev_rds[t2].got.size());
			tags.clear();
		}
	}
	unsigned ncpl = 0, maxcpl = 0;
	for (size_t k = d0; k < dev_rx.size(); k++)
		if (dev_rx[k].t.kind == TLP_CPLD) {
			ncpl++;
			maxcpl = 4 * dev_rx[k].t.len_dw > maxcpl ? 4 * dev_rx[k].t.len_dw : maxcpl;
		}
	for (size_t k = h0; k < host_rx.size(); k++)
		mrd0 += host_rx[k].t.kind == TLP_MRD;
	printf("    MRRS %u, MPS %u, host MRRS %u: %u reads (%u > 256 B, largest %u B) -> %u MRd at the host, "
	       "%u completions at the device (largest %u B), %u host completions out of order\n",
	       mrrs, dev_mps, host_mrrs, n, bigs, maxsz, mrd0, ncpl, maxcpl, host_ooo_seen - ooo0);
	CHECK(big_fail == f0, "MRRS %u, MPS %u: every read completes in address order with its data, "
	      "lower address and byte count (%u failed)", mrrs, dev_mps, big_fail - f0);
	CHECK(dev_viol() == v0 && host_viol() == hv0, "MRRS %u, MPS %u: no MPS/MRRS/4 KiB/RCB violation (device %u, host %u)",
	      mrrs, dev_mps, dev_viol() - v0, host_viol() - hv0);
	CHECK(host_ooo_seen > ooo0, "the host answered out of order (%u completions behind a later read's)",
	      host_ooo_seen - ooo0);
	CHECK(maxcpl <= dev_mps && maxcpl >= (dev_mps < 256 ? dev_mps : 128u),
	      "completions toward the device up to the MPS (largest %u B)", maxcpl);
	host_ooo = 0;
	m->n_cfg_dev_mps = 1;
	dev_mps = 256;
	m->h_cfg_mrrs = 2;
	host_mrrs = 512;
}

// An error ends a split read (PCIe Base Spec. 2.3.2): the host answers the
// first two 256-byte chunks of a 1024-byte device read and never the last
// two; the NAA's completion timeout answers the device with one CA for the
// remaining 512 bytes, releases the last chunk without output, and drops the
// host's late answers; the tags are all free afterwards.
static void test_split_abort()
{
	printf("split read ended by a timeout: data of the answered chunks, one CA for the rest, nothing after\n");
	settle();
	m->n_cfg_timeout = 4;   // 1024 cycles
	host_hold_from = 0x31000200ull;
	uint32_t tmo0 = m->n_timeouts, drops0 = m->n_drops;
	size_t d0 = dev_rx.size();
	tlp t;
	tlp_mrd(&t, 0x31000000ull, 256, 0xf, 0xf, DEV_ID, 0x70);
	n_req->send(t);
	run(4000);
	unsigned ncpld = 0, bytes = 0, nca = 0, ca_bc = 0, after = 0;
	bool order = true;
	for (size_t k = d0; k < dev_rx.size(); k++) {
		const tlp &c = dev_rx[k].t;
		if (c.tag != 0x70 || (c.kind != TLP_CPLD && c.kind != TLP_CPL))
			continue;
		if (nca)
			after++;
		if (c.kind == TLP_CPLD && c.status == 0) {
			order = order && c.lower_addr == (bytes & 0x7f) && (c.byte_count ? c.byte_count : 4096) == 1024 - bytes;
			for (unsigned i = 0; i < c.len_dw && order; i++)
				order = c.payload[i] == hostmem.dw(0x31000000ull + bytes + 4 * i);
			bytes += 4 * c.len_dw;
			ncpld++;
		} else if (c.kind == TLP_CPL && c.status == TLP_CPL_CA) {
			nca++;
			ca_bc = c.byte_count;
			order = order && c.lower_addr == (bytes & 0x7f);
		}
	}
	CHECK(bytes == 512 && order, "the first two chunks' data in order (%u B in %u CplD)", bytes, ncpld);
	CHECK(nca == 1 && ca_bc == 512 && after == 0, "then one CA with byte count 512 (%u CA, bc %u), nothing after it (%u)",
	      nca, ca_bc, after);
	CHECK_EQ(m->n_timeouts - tmo0, 1, "one NAA timeout counted");
	host_hold_from = 0;
	answer_held(host_held, hostmem, CPU_ID, host_split, host_cpl_q);
	settle();
	unsigned late = 0;
	for (size_t k = d0; k < dev_rx.size(); k++)
		late += dev_rx[k].t.tag == 0x70 && dev_rx[k].t.kind != TLP_MRD;
	CHECK(late == ncpld + 1 && m->n_drops > drops0, "the host's late answers are dropped at the NAA (drops +%u)",
	      m->n_drops - drops0);
	m->n_cfg_timeout = 0x400;
	// every slot free again: 16 reads of up to 4 KiB complete
	unsigned f0 = big_fail;
	big_reads(16, 4096, 1, 4);
	CHECK(big_fail == f0, "afterwards split reads complete (no slot leaked)");
}

static void test_big_reads()
{
	printf("device DMA reads up to 4096 B through the NAA (split, reordered, RCB, MPS)\n");
	settle();
	big_reads(160, 512, 1, 8);
	big_reads(48, 4096, 1, 6);
	big_reads(48, 4096, 0, 6);
	big_reads(60, 512, 0, 12);
	// the host NIC's MRRS 128 B: each network read of up to 256 B goes to host
	// memory as MRd pieces of <= 128 B, one after the other
	big_reads(60, 512, 1, 8, 0);
	big_reads(24, 4096, 1, 4, 0);
	// the root port's MRRS 128 B: host CPU reads of up to 256 B reach the device
	// as MRd of <= 128 B, their completions return as one read
	printf("root-port MRRS 128 B: host reads of up to 256 B through the NAA\n");
	cfg_std_intervals();
	m->n_cfg_dev_mrrs = 0;
	dev_mrrs = 128;
	unsigned dv0 = dev_viol();
	size_t d0 = dev_rx.size();
	std::vector<uint8_t> tags;
	for (int k = 0; k < 40; k++) {
		unsigned sz = k < 8 ? 256 : 1 + rnd(256);
		uint64_t a = AP + 0x6000 + 0x100 * (uint64_t)k + (k < 8 ? 0 : rnd(0x100));
		if ((a & 0xfff) + sz > 0x1000)
			a &= ~0xfffull;
		if ((a & 3) + sz > 256)
			sz = 256 - (unsigned)(a & 3);
		uint64_t dv = 0;
		host2dev(a, &dv);
		tags.push_back(host_read(a, sz, dev_bytes(dv, sz)));
		if (k % 8 == 7)
			settle();
	}
	settle();
	collect_host_cpls();
	unsigned nmrd = mrds_since(dev_rx, d0);
	bool ok = host_reads_ok(tags);
	for (uint8_t t : tags)
		ok = ok && !host_rds[t].bad;
	CHECK(ok, "40 host reads (1..256 B) complete with their data, lower address and byte count");
	CHECK(dev_viol() == dv0 && nmrd > 40, "no MRd above the root port's MRRS 128 B (%u MRd for 40 reads)", nmrd);
	m->n_cfg_dev_mrrs = 2;
	dev_mrrs = 512;
}

static void test_random()
{
	printf("random mix (loopback egress -> ingress -> device -> egress, pass-through both ways)\n");
	cfg_std_intervals();
	std::map<uint64_t, uint8_t> shadow;
	std::vector<uint8_t> tags;
	uint32_t hits0 = m->h_eg_hits;
	unsigned nreq = 0, n_war = 0;
	for (int k = 0; k < 400; k++) {
		unsigned sz = 1 + rnd(rnd(2) ? 8 : 256);
		uint64_t a = AP + rnd(0xFFFF - sz);
		if ((a & 0xFFF) + sz > 0x1000)
			a &= ~0xFFFull;
		if ((a & 3) + sz > 256)
			sz = 256 - (unsigned)(a & 3);
		if (rnd(3)) {
			// a posted write may pass an earlier read that waits for a tag
			// (PCIe Base Spec. table 2-40, smfu_eg's non-posted queue): no
			// write to bytes of a read still outstanding, so the reference holds
			collect_host_cpls();
			bool war = false;
			for (uint8_t t : tags) {
				const HostRd &r = host_rds[t];
				if (r.status < 0 && a < r.addr + r.size && r.addr < a + sz)
					war = true;
			}
			if (war) {
				n_war++;
				continue;
			}
			auto d = rand_bytes(sz);
			host_write(a, d);
			for (unsigned i = 0; i < sz; i++)
				shadow[a + i] = d[i];
		} else {
			std::vector<uint8_t> exp(sz);
			for (unsigned i = 0; i < sz; i++) {
				uint64_t dv; host2dev(a + i, &dv);
				exp[i] = shadow.count(a + i) ? shadow[a + i] : devmem.get(dv);
			}
			tags.push_back(host_read(a, sz, exp));
		}
		nreq++;
		if (k % 4 == 0)
			dev_write(0x50000000ull + 64 * k, rand_bytes(1 + rnd(128)));
		if (k % 50 == 0)
			settle(200);
		if (tags.size() >= 100) { settle(); collect_host_cpls(); }
	}
	settle();
	collect_host_cpls();
	bool ok = true;
	for (uint8_t t : tags) {
		HostRd &r = host_rds[t];
		if (r.status != 0 || r.bad || r.got != r.expect) {
			ok = false;
			printf("    read 0x%llx size %u: status %d bad %d got %zu\n", (unsigned long long)r.addr, r.size, r.status, r.bad, r.got.size());
			for (unsigned i = 0, shown = 0; i < r.got.size() && i < r.expect.size() && shown < 4; i++)
				if (r.got[i] != r.expect[i]) {
					printf("      byte %u: got %02x want %02x\n", i, r.got[i], r.expect[i]);
					shown++;
				}
		}
	}
	printf("    cpl errors %u hits %u nreq %u (writes skipped: would overwrite an outstanding read %u)\n",
	       host_cpl_errors, m->h_eg_hits - hits0, nreq, n_war);
	CHECK(ok && host_cpl_errors == 0, "every read returns the reference data, no stray completion");
	CHECK(m->h_eg_hits - hits0 == nreq, "every request counted as a hit");
	CHECK(h_tlp->errors() == 0 && n_dev->errors() == 0, "TLP stream protocol clean under random back-pressure");
}

// The read-after-write fence (docs/network.md "The protocol part"): SMFU_WR
// travels in the response class, SMFU_RD in the request class, and the wires
// here delay class 1 by 300 cycles, so reads reach the far smfu_net_if before
// the writes their sender sent earlier. The random mix must still read what
// was written (the reference) and the bridge ordering checker must see no
// read pass a write: smfu_wr_stamp / smfu_net_if hold each read until its
// writes are in.
static void test_fence()
{
	printf("read after write across the message classes: class 1 (writes) 300 cycles slower on both wires\n");
	unsigned ot0 = w_h2n.overtakes + w_n2h.overtakes;
	w_h2n.cls_delay = w_n2h.cls_delay = 300;
	test_random();
	settle();
	w_h2n.cls_delay = w_n2h.cls_delay = 0;
	unsigned ot = w_h2n.overtakes + w_n2h.overtakes - ot0;
	printf("    %u reads delivered before a write sent earlier (each held by the fence)\n", ot);
	CHECK(ot > 0, "the wires let reads overtake earlier writes (%u times)", ot);
}

// ---------------------------------------------------------------------------
// Bench
// ---------------------------------------------------------------------------
static void bench()
{
	set_prob(1.0);
	w_h2n.latency = w_n2h.latency = 1;
	cfg_std_intervals();
	for (unsigned sz : {64u, 256u}) {
		settle();
		w_h2n.tx_flits = 0;
		unsigned n = 400;
		for (unsigned k = 0; k < n; k++)
			host_write(AP + (k * sz) % 0x8000, rand_bytes(sz));
		settle(100000);
		uint64_t cycles = w_h2n.tx_last - w_h2n.tx_first + 1;
		double bpc = (double)n * sz / cycles;
		double bound = sz * 16.0 / (sz + 16.0);
		printf("bench: posted writes %3u B: %llu flits in %llu cycles: %.2f B/cycle at the network side, "
		       "%.1f%% of the packet format bound (%.2f B/cycle)\n",
		       sz, (unsigned long long)w_h2n.tx_flits, (unsigned long long)cycles, bpc, 100.0 * bpc / bound, bound);
	}
	// remote 4-byte read latency per stage
	settle();
	dev_cpl_delay = 0;
	uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0, t7 = 0;
	host_read(AP + 0x100, 4, dev_bytes(NAA_BAR + 0x100, 4));
	size_t dev0 = dev_rx.size(), host0 = host_rx.size();
	bool seen_rd = false, seen_cpl_pkt = false, seen_cpl_deliv = false;
	for (int i = 0; i < 400; i++) {
		uint64_t b0 = h_ap->beats();
		step();
		if (h_ap->beats() != b0 && !t0) t0 = cyc - 1;   // cycle of the header handshake
		if (!seen_rd && w_h2n.tx_flits && w_h2n.tx_last >= t0 && t0) { t1 = w_h2n.tx_last; seen_rd = true; }
		if (seen_rd && !t2 && w_h2n.rx_hdr_cycle > t1) t2 = w_h2n.rx_hdr_cycle;
		if (!t3 && dev_rx.size() > dev0) t3 = dev_rx_cycle[dev0];
		if (t3 && !t4 && m->n_cpl_valid && m->n_cpl_ready) t4 = cyc;
		if (t4 && !seen_cpl_pkt && w_n2h.tx_last >= t4) { t5 = w_n2h.tx_last; seen_cpl_pkt = true; }
		if (seen_cpl_pkt && !seen_cpl_deliv && w_n2h.rx_hdr_cycle > t5) { t6 = w_n2h.rx_hdr_cycle; seen_cpl_deliv = true; }
		if (!t7 && host_rx.size() > host0) { t7 = host_rx_cycle[host0]; break; }
	}
	unsigned eg = (unsigned)(t1 - t0), in = (unsigned)(t3 - t2), inc = (unsigned)(t5 - t4 + 1), egc = (unsigned)(t7 - t6);
	printf("bench: remote 4-byte read, NIC logic cycles: egress %u (MRd accepted -> SMFU_RD on the wire), ingress %u "
	       "(SMFU_RD delivered -> MRd taken by the device), completion at NAA %u (CplD header taken -> SMFU_CPL header on "
	       "the wire), completion at host %u (SMFU_CPL delivered -> CplD taken by the host): total %u\n",
	       eg, in, inc, egc, eg + in + inc + egc);
	// interrupt forwarding
	settle();
	msi(0x77);
	uint64_t a = 0, b = 0;
	size_t h0 = host_rx.size();
	for (int i = 0; i < 400 && !b; i++) {
		bool hdr_in = m->h_s_net_valid && !a;
		step();
		if (hdr_in) a = cyc - 1;
		for (size_t k = h0; k < host_rx.size(); k++)
			if (host_rx[k].t.kind == TLP_MWR && host_rx[k].t.addr >= RING)
				b = host_rx_cycle[k];
	}
	printf("bench: interrupt forwarding, NIC logic cycles: %llu (SMFU_WR header into the host NIC unit -> notification "
	       "MWr's last beat taken at the unit's TLP output)\n", (unsigned long long)(b - a));
	// device DMA reads through the NAA at MRRS 512 (issue 8 row 1): 256 reads of 512 B
	// back to back; host memory answers after 5 cycles, unsplit (RCB splits cost one
	// header each); throughput of CplD data at the device against the format bound of
	// 256-byte SMFU_CPL packets (17 flits per 256 B)
	for (unsigned mps_enc : {1u, 0u}) {
		settle();
		m->n_cfg_dev_mps = mps_enc;
		host_split = false;
		size_t d0 = dev_rx.size();
		const unsigned n = 256, sz = 512;
		for (unsigned k = 0; k < n; k++) {
			tlp t;
			tlp_mrd(&t, 0x60000000ull + (uint64_t)sz * k, sz / 4, 0xf, 0xf, DEV_ID, (uint8_t)(0x40 + k % 32));
			n_req->send(t);
		}
		settle(200000);
		uint64_t first = 0, last = 0, bytes = 0;
		for (size_t k = d0; k < dev_rx.size(); k++)
			if (dev_rx[k].t.kind == TLP_CPLD) {
				// the first CplD's end opens the window: count the data after it
				if (first)
					bytes += 4 * dev_rx[k].t.len_dw;
				else
					first = dev_rx_cycle[k];
				last = dev_rx_cycle[k];
			}
		unsigned chunk = mps_enc ? 256 : 128;
		double bpc = (double)bytes / (double)(last - first);
		double bound = chunk * 16.0 / (chunk + 16.0);
		printf("bench: device DMA reads through the NAA, MRRS 512, root-port MPS %u: %llu B in %llu cycles: %.2f B/cycle "
		       "at the device, %.1f%% of the format bound (%.2f B/cycle, %u-byte SMFU_CPL)\n",
		       chunk, (unsigned long long)bytes, (unsigned long long)(last - first), bpc, 100.0 * bpc / bound,
		       bound, chunk);
		host_split = true;
		m->n_cfg_dev_mps = 1;
	}
}

// Poison (PCIe Base Spec. 2.7.2) across the network: a poisoned completion
// arrives at the far requester as a poisoned completion with its data; a
// poisoned write from the device is not forwarded (the NAA NIC is the root
// complex of its hierarchy: it discards the data and counts it).
static void test_poison()
{
	printf("poison: poisoned completions cross the network poisoned, poisoned writes are dropped and counted\n");
	cfg_std_intervals();
	settle();
	// the device poisons its completions of a host read (split at RCB at random)
	size_t h0 = host_rx.size();
	dev_poison = true;
	uint8_t t1 = host_read(AP + 0x200, 256, dev_bytes(NAA_BAR + 0x200, 256));
	settle();
	dev_poison = false;
	collect_host_cpls();
	unsigned ncpl = 0, nep = 0;
	for (size_t k = h0; k < host_rx.size(); k++)
		if (host_rx[k].t.kind == TLP_CPLD && host_rx[k].t.tag == t1) {
			ncpl++;
			nep += (host_rx[k].hdr[0] >> 14) & 1;
		}
	CHECK(ncpl >= 1 && nep == ncpl, "device -> host: every CplD of the read arrives with EP = 1 (%u of %u)", nep, ncpl);
	CHECK(host_rds[t1].status == 0 && host_rds[t1].got == host_rds[t1].expect && !host_rds[t1].bad,
	      "the poisoned completion keeps its data, byte count and lower address");
	uint8_t t2 = host_read(AP + 0x300, 8, dev_bytes(NAA_BAR + 0x300, 8));
	settle();
	collect_host_cpls();
	bool clean = true;
	for (size_t k = h0; k < host_rx.size(); k++)
		if (host_rx[k].t.tag == t2 && (host_rx[k].hdr[0] >> 14) & 1)
			clean = false;
	CHECK(clean && host_rds[t2].status == 0, "the next completion is not poisoned");

	// the host poisons its completion of a device DMA read
	size_t d0 = dev_rx.size();
	host_poison = true;
	uint64_t dwa; unsigned len; uint8_t fbe, lbe;
	tlp_access_bes(0x20001000ull, 64, &dwa, &len, &fbe, &lbe);
	tlp t;
	tlp_mrd(&t, dwa, len, fbe, lbe, DEV_ID, 0x3c);
	n_req->send(t);
	settle();
	host_poison = false;
	ncpl = nep = 0;
	for (size_t k = d0; k < dev_rx.size(); k++)
		if (dev_rx[k].t.kind == TLP_CPLD && dev_rx[k].t.tag == 0x3c) {
			ncpl++;
			nep += (dev_rx[k].hdr[0] >> 14) & 1;
		}
	CHECK(ncpl >= 1 && nep == ncpl, "host -> device: every CplD of the DMA read arrives with EP = 1 (%u of %u)", nep, ncpl);

	// a poisoned DMA write from the device: not forwarded, counted
	uint32_t drops0 = m->n_drops;
	size_t hw0 = host_rx.size();
	std::vector<uint8_t> d = rand_bytes(16);
	tlp_mwr_bytes(&t, 0x20002000ull, d.data(), 16, DEV_ID);
	n_req->send(t, 1u << 14);
	dev_write(0x20002040ull, d);   // a good one behind it still goes through
	settle();
	unsigned wr_poisoned = 0, wr_good = 0;
	for (size_t k = hw0; k < host_rx.size(); k++)
		if (host_rx[k].t.kind == TLP_MWR) {
			wr_poisoned += host_rx[k].t.addr == 0x20002000ull;
			wr_good += host_rx[k].t.addr == 0x20002040ull;
		}
	CHECK(wr_poisoned == 0 && wr_good == 1, "a poisoned write is dropped (%u), the next write passes (%u)", wr_poisoned, wr_good);
	CHECK_EQ(m->n_drops - drops0, 1, "the NAA SMFU counts the dropped poisoned write");
}

// ---------------------------------------------------------------------------
// Issue 8, row 8: interval offsets, what the NAA forwards, 4 KiB at the device
// ---------------------------------------------------------------------------
static void clr_ivl(int i)
{
	m->h_cfg_eg_valid &= ~(1u << i);
}
// TLPs the device got since index `from` at byte address range [a, a + n)
static unsigned dev_got(size_t from, uint64_t a, uint64_t n)
{
	unsigned k = 0;
	for (size_t i = from; i < dev_rx.size(); i++)
		if ((dev_rx[i].t.kind == TLP_MWR || dev_rx[i].t.kind == TLP_MRD) && dev_rx[i].t.addr >= a &&
		    dev_rx[i].t.addr < a + n)
			k++;
	return k;
}
static unsigned dev_reqs(size_t from)
{
	unsigned k = 0;
	for (size_t i = from; i < dev_rx.size(); i++)
		k += dev_rx[i].t.kind == TLP_MWR || dev_rx[i].t.kind == TLP_MRD;
	return k;
}

static void test_row8()
{
	printf("row 8: intervals above 256 GiB / not 4 KiB aligned refused at the host, NAA forwarding checks\n");
	settle();
	const uint64_t H = 0x10000000000ull;      // host addresses of the big intervals (1 TiB)
	const uint64_t G256 = 1ull << 38;
	// (a) an interval of exactly 256 GiB works up to its last dword ...
	set_ivl(1, H, H + G256 - 1, NAA_NODE, 0x800000000000ull);
	size_t d0 = dev_rx.size();
	uint32_t miss0 = m->h_eg_misses;
	host_write(H + G256 - 4, {1, 2, 3, 4});
	uint8_t t1 = host_read(H + G256 - 4, 4, {1, 2, 3, 4});
	settle();
	collect_host_cpls();
	CHECK(dev_got(d0, 0x800000000000ull + G256 - 4, 4) == 2 && host_reads_ok({t1}),
	      "256-GiB interval: its last dword (offset 2^38 - 4) reaches in_base + offset");
	// ... one 4 KiB larger is refused whole, never sent with a truncated offset
	set_ivl(1, H, H + G256 + 0xFFF, NAA_NODE, 0x800000000000ull);
	d0 = dev_rx.size();
	host_write(H + G256 + 0x10, {5, 6, 7, 8});   // offset 2^38 + 16: truncated it would hit in_base + 16
	host_write(H + 0x10, {5, 6, 7, 8});
	uint8_t t2 = host_read(H + G256 + 0x10, 4, {});
	settle();
	collect_host_cpls();
	CHECK(dev_reqs(d0) == 0, "interval larger than 256 GiB: nothing reaches the device (%u TLPs)", dev_reqs(d0));
	CHECK(host_rds[t2].status == TLP_CPL_UR && !host_rds[t2].bad, "... a read of it is answered UR");
	CHECK_EQ(m->h_eg_misses - miss0, 3, "... and every access counts in eg_misses");
	// (c) a host interval start not 4 KiB aligned: refused
	set_ivl(1, H + 0x100, H + 0x1FFF, NAA_NODE, 0x800000000000ull);
	d0 = dev_rx.size();
	miss0 = m->h_eg_misses;
	host_write(H + 0xFF0, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});   // would cross 4 KiB at the device
	uint8_t t3 = host_read(H + 0x200, 4, {});
	settle();
	collect_host_cpls();
	CHECK(dev_reqs(d0) == 0 && host_rds[t3].status == TLP_CPL_UR && m->h_eg_misses - miss0 == 2,
	      "eg_start not 4 KiB aligned: write dropped, read UR, both counted, nothing at the device");
	// (c) at the NAA: in_base not 4 KiB aligned
	set_ivl(1, H, H + 0x1FFF, NAA_NODE, 0x800000000100ull);
	d0 = dev_rx.size();
	uint32_t ref0 = m->n_in_refused, miss1 = m->h_eg_misses;
	host_write(H + 0xFF0, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});   // 0x...10F0: would cross
	uint8_t t4 = host_read(H + 0x10, 8, {});
	settle();
	collect_host_cpls();
	printf("    in_base misaligned: %u TLPs at the device, read status %d bad %d\n", dev_reqs(d0), host_rds[t4].status, host_rds[t4].bad);
	CHECK(dev_reqs(d0) == 0 && host_rds[t4].status == TLP_CPL_UR && !host_rds[t4].bad,
	      "in_base not 4 KiB aligned: the NAA refuses (write dropped, read UR), nothing at the device");
	CHECK(m->n_in_refused - ref0 == 2 && m->h_eg_misses == miss1, "... counted at the NAA (in_refused += 2), hits at the host");
	// (b) the NAA forwards only inside the root port's windows
	set_fwd(0, 0x800000000000ull, 0x8000000FFFFFull);   // 1 MiB
	set_fwd(1, 0x900000000000ull, 0x9000001FFFFFull);   // 2 MiB
	set_ivl(1, H, H + 0x1FFFFF, NAA_NODE, 0x8000000FF000ull);
	d0 = dev_rx.size();
	ref0 = m->n_in_refused;
	host_write(H + 0xFFC, {1, 2, 3, 4});            // last dword of window 0
	host_write(H + 0x1000, {5, 6, 7, 8});           // first byte after it
	uint8_t t5 = host_read(H + 0x1000, 4, {});
	uint8_t t6 = host_read(H + 0xFFC, 4, {1, 2, 3, 4});
	settle();
	collect_host_cpls();
	CHECK(dev_got(d0, 0x8000000FF000ull, 0x1000) == 2 && dev_reqs(d0) == 2 && host_reads_ok({t6}),
	      "inside the window: forwarded; outside: never a TLP (%u TLPs)", dev_reqs(d0));
	CHECK(host_rds[t5].status == TLP_CPL_UR && m->n_in_refused - ref0 == 2, "outside the windows: read UR, both counted");
	set_ivl(2, H + 0x200000, H + 0x2FFFFF, NAA_NODE, 0x900000100000ull);
	d0 = dev_rx.size();
	host_write(H + 0x2FFFFC, {9, 9, 9, 9});         // last dword of window 1
	settle();
	CHECK(dev_got(d0, 0x9000001FFFFCull, 4) == 1, "the prefetchable window forwards too");
	// (b) an address that wraps past 2^64 (window 0 everything again)
	set_fwd(0, 0, ~0ull);
	set_fwd(1, ~0ull, 0);
	set_ivl(1, H, H + 0x1FFF, NAA_NODE, 0xFFFFFFFFFFFFF000ull);
	d0 = dev_rx.size();
	ref0 = m->n_in_refused;
	host_write(H + 0xFFC, {1, 2, 3, 4});   // 2^64 - 4: fine
	host_write(H + 0x1000, {5, 6, 7, 8});  // would be address 0
	uint8_t t7 = host_read(H + 0x1010, 4, {});
	settle();
	collect_host_cpls();
	CHECK(dev_reqs(d0) == 1 && dev_got(d0, 0, 0x2000) == 0 && host_rds[t7].status == TLP_CPL_UR &&
		  m->n_in_refused - ref0 == 2,
	      "in_base + offset wrapping past 2^64 is refused, not sent to address 0");
	clr_ivl(1);
	clr_ivl(2);
	CHECK(host_viol() == 0 && dev_viol() == 0, "row 8: no protocol violation on either link");
}

// ---------------------------------------------------------------------------
// Issue 8, row 11: TC and attributes through the network, DevCtl enables,
// the timeout clamp
// ---------------------------------------------------------------------------
static uint32_t tcattr_dw0(unsigned tc, unsigned attr)
{
	return (tc << 20) | (((attr >> 2) & 1) << 18) | ((attr & 3) << 12);
}
static unsigned tc_of(const RxTlp &r) { return (r.hdr[0] >> 20) & 7; }
static unsigned attr_of(const RxTlp &r) { return (((r.hdr[0] >> 18) & 1) << 2) | ((r.hdr[0] >> 12) & 3); }
// every request in `log` from `from` inside [a, a + n): TC and attributes as given, and how many
static bool reqs_tcattr(const std::vector<RxTlp> &log, size_t from, uint64_t a, uint64_t n, unsigned tc,
			unsigned attr, unsigned *cnt, int kind = -1)
{
	bool ok = true;
	*cnt = 0;
	for (size_t i = from; i < log.size(); i++) {
		const tlp &t = log[i].t;
		if ((t.kind != TLP_MWR && t.kind != TLP_MRD) || t.addr < a || t.addr >= a + n ||
		    (kind >= 0 && t.kind != kind))
			continue;
		(*cnt)++;
		if (tc_of(log[i]) != tc || attr_of(log[i]) != attr) {
			if (ok)
				printf("    %s at 0x%llx: TC %u attr %u, want TC %u attr %u\n", t.kind == TLP_MWR ? "MWr" : "MRd",
				       (unsigned long long)t.addr, tc_of(log[i]), attr_of(log[i]), tc, attr);
			ok = false;
		}
	}
	return ok;
}

static void test_tc_attr()
{
	printf("row 11: TC and attributes re-issued at the far side, Device Control RO/NS enables\n");
	cfg_std_intervals();
	settle();
	unsigned n = 0;
	// host -> device: a write and a read with TC 5, RO + NS + IDO: IDO is never re-issued
	size_t d0 = dev_rx.size(), h0 = host_rx.size();
	std::vector<uint8_t> d = rand_bytes(8);
	host_write(AP + 0x100, d, tcattr_dw0(5, 7));
	uint8_t tag = host_read(AP + 0x100, 8, d, tcattr_dw0(3, 2));
	settle();
	collect_host_cpls();
	bool ok = reqs_tcattr(dev_rx, d0, NAA_BAR + 0x100, 8, 5, 3, &n, TLP_MWR) && n == 1;
	CHECK(ok, "host MWr TC 5 RO NS IDO -> device MWr TC 5 RO NS (no IDO)");
	n = 0;
	bool rd_ok = false;
	for (size_t i = d0; i < dev_rx.size(); i++)
		if (dev_rx[i].t.kind == TLP_MRD && dev_rx[i].t.addr == NAA_BAR + 0x100)
			rd_ok = tc_of(dev_rx[i]) == 3 && attr_of(dev_rx[i]) == 2;
	bool cpl_ok = false;
	for (size_t i = h0; i < host_rx.size(); i++)
		if (host_rx[i].t.kind == TLP_CPLD && host_rx[i].t.tag == tag)
			cpl_ok = tc_of(host_rx[i]) == 3 && attr_of(host_rx[i]) == 2;
	CHECK(rd_ok && cpl_ok && host_reads_ok({tag}), "host MRd TC 3 RO -> device MRd TC 3 RO; the completion to the CPU keeps them");
	// pieces: MPS / MRRS 128 B at the root port: every MWr / MRd piece carries them
	m->n_cfg_dev_mps = 0;
	m->n_cfg_dev_mrrs = 0;
	d0 = dev_rx.size();
	d = rand_bytes(256);
	host_write(AP + 0x400, d, tcattr_dw0(6, 1));
	tag = host_read(AP + 0x400, 256, d, tcattr_dw0(6, 1));
	settle();
	collect_host_cpls();
	ok = reqs_tcattr(dev_rx, d0, NAA_BAR + 0x400, 256, 6, 1, &n);
	CHECK(ok && n == 4 && host_reads_ok({tag}), "MPS/MRRS 128: 2 MWr + 2 MRd pieces, all TC 6 NS (%u)", n);
	m->n_cfg_dev_mps = 1;
	m->n_cfg_dev_mrrs = 2;
	// device -> host: a DMA write and a 512-byte DMA read (chunks, parked queue)
	h0 = host_rx.size();
	d = rand_bytes(64);
	tlp t;
	tlp_mwr_bytes(&t, 0x20003000ull, d.data(), 64, DEV_ID);
	n_req->send(t, tcattr_dw0(2, 1));
	tlp_mrd(&t, 0x20004000ull, 128, 0xf, 0xf, DEV_ID, 0x33);
	DevRd dr;
	dr.addr = 0x20004000ull;
	dr.size = 512;
	dev_rds[0x33] = dr;
	n_req->send(t, tcattr_dw0(1, 2));
	settle();
	ok = reqs_tcattr(host_rx, h0, 0x20003000ull, 64, 2, 1, &n) && n == 1;
	CHECK(ok, "device MWr TC 2 NS -> host MWr TC 2 NS");
	ok = reqs_tcattr(host_rx, h0, 0x20004000ull, 512, 1, 2, &n) && n >= 2;
	CHECK(ok, "device 512-byte MRd TC 1 RO -> host MRd chunks, all TC 1 RO (%u)", n);
	// Device Control enables of the issuing side (7.5.3.4)
	for (int k = 0; k < 2; k++) {
		m->n_cfg_ro_en = k;
		m->n_cfg_ns_en = !k;
		m->h_cfg_ro_en = !k;
		m->h_cfg_ns_en = k;
		d0 = dev_rx.size();
		h0 = host_rx.size();
		d = rand_bytes(4);
		tlp_mwr_bytes(&t, AP + 0x800, d.data(), 4, CPU_ID);
		h_ap->send(t, tcattr_dw0(0, 3));
		tlp_mwr_bytes(&t, 0x20005000ull, d.data(), 4, DEV_ID);
		n_req->send(t, tcattr_dw0(0, 3));
		settle();
		unsigned want_dev = k ? 2 : 1, want_host = k ? 1 : 2;
		bool ok1 = reqs_tcattr(dev_rx, d0, NAA_BAR + 0x800, 4, 0, want_dev, &n) && n == 1;
		bool ok2 = reqs_tcattr(host_rx, h0, 0x20005000ull, 4, 0, want_host, &n) && n == 1;
		CHECK(ok1 && ok2, "RO enable %d / NS enable %d at the NAA, %d / %d at the host: RO NS re-issued as %s / %s",
		      k, !k, !k, k, k ? "RO" : "NS", k ? "NS" : "RO");
	}
	m->n_cfg_ro_en = m->n_cfg_ns_en = m->h_cfg_ro_en = m->h_cfg_ns_en = 1;
	// Extended Tag Field Enable clear at both issuing sides: the SMFU's MRd use
	// 5-bit tags (the checkers of both links now flag any tag above 31)
	m->h_cfg_ext_tag = m->n_cfg_ext_tag = 0;
	d0 = dev_rx.size();
	h0 = host_rx.size();
	std::vector<uint8_t> tags;
	for (unsigned k = 0; k < 24; k++)
		tags.push_back(host_read(AP + 0x1000 + 8 * k, 8, dev_bytes(NAA_BAR + 0x1000 + 8 * k, 8)));
	for (unsigned k = 0; k < 24; k++)
		dev_read(0x20006000ull + 64 * k, 64, (uint8_t)(0x60 + k));
	settle();
	collect_host_cpls();
	collect_dev_cpls();
	unsigned mrd_dev = 0, mrd_host = 0, wide = 0;
	for (size_t i = d0; i < dev_rx.size(); i++)
		if (dev_rx[i].t.kind == TLP_MRD)
			mrd_dev++, wide += dev_rx[i].t.tag >= 32;
	for (size_t i = h0; i < host_rx.size(); i++)
		if (host_rx[i].t.kind == TLP_MRD)
			mrd_host++, wide += host_rx[i].t.tag >= 32;
	bool dev_ok = true;
	for (unsigned k = 0; k < 24; k++)
		dev_ok = dev_ok && dev_rds[(uint8_t)(0x60 + k)].done && !dev_rds[(uint8_t)(0x60 + k)].bad &&
			 dev_rds[(uint8_t)(0x60 + k)].got == dev_rds[(uint8_t)(0x60 + k)].exp;
	CHECK(mrd_dev == 24 && mrd_host == 24 && wide == 0, "Extended Tag off: %u + %u MRd, %u with a tag above 31",
	      mrd_dev, mrd_host, wide);
	CHECK(host_reads_ok(tags) && dev_ok, "... and all 48 reads complete with their data (completions of the 5-bit tags reach the SMFU)");
	m->h_cfg_ext_tag = m->n_cfg_ext_tag = 1;
	CHECK(host_viol() == 0 && dev_viol() == 0, "row 11: no protocol violation on either link");
}

// The programmable timeout is clamped to 0x2000 units (below the host's 10 ms)
static void test_tmo_clamp()
{
	printf("row 11: smfu.ctrl.timeout above 0x2000 units is clamped to 0x2000 (2,097,152 cycles)\n");
	cfg_std_intervals();
	set_prob(1.0);
	settle();
	m->h_cfg_timeout = 0xFFFF;
	int mode = F_DROP;
	w_n2h.filter = [&](const Pkt &p) {
		return net_hdr_get_ptype(p.f[0].w) == NET_TYPE_SMFU_CPL ? mode : F_PASS;
	};
	uint32_t to0 = m->h_timeouts;
	printf("    held host %zu dev %zu timeouts %u\n", host_held.size(), dev_held.size(), to0);
	uint8_t t1 = host_read(AP + 0x40, 4, dev_bytes(NAA_BAR + 0x40, 4));
	for (unsigned k = 0; k < 2200 && host_rds[t1].status < 0; k++) {
		uint32_t tb4 = m->h_timeouts;
		run(1000);
		collect_host_cpls();
		if (m->h_timeouts != tb4) printf("    timeout at %u k cycles\n", k);
	}
	w_n2h.filter = nullptr;
	HostRd &r1 = host_rds[t1];
	uint64_t dt = r1.t_done - r1.t_issue;
	printf("    CA after %llu cycles\n", (unsigned long long)dt);
	CHECK(r1.status == TLP_CPL_CA && dt >= 0x1FFFull * 256 && dt <= 0x2000ull * 256 + 1000,
	      "timeout 0xFFFF: CA after 0x2000 x 256 cycles (%llu), not 0xFFFF x 256", (unsigned long long)dt);
	CHECK_EQ(m->h_timeouts - to0, 1, "smfu.timeouts += 1");
	m->h_cfg_timeout = 0x400;
	set_prob(bp);
}

// A test under the ordering checker (tests that lose nothing on purpose).
static void ordered(const std::function<void()> &test, const char *name)
{
	settle();
	order_begin();
	test();
	order_end(name);
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	bool do_bench = a.bench;
	rng.seed(a.seed);
	setup();
	if (do_bench) {
		bench();
		return 0;
	}
	set_prob(bp);
	test_intervals();
	ordered(test_sizes, "sizes");
	test_timeout();
	test_tmo_clamp();
	test_passthru();
	test_poison();
	ordered(test_interrupts, "interrupts");
	test_np_bypass();
	ordered(test_in_bypass, "ingress bypass");
	test_in_bypass_tags();
	test_in_bypass_midtlp();
	ordered([] { test_order_naa(1); }, "NAA ordering, MPS 256");
	ordered([] { test_order_naa(0); }, "NAA ordering, MPS 128");
	ordered(test_write_split, "write split");
	test_naa_timeout();
	ordered(test_nq_race, "notification race");
	ordered(test_big_reads, "big reads");
	test_split_abort();
	test_row8();
	ordered(test_tc_attr, "TC and attributes");
	ordered(test_random, "random mix");
	ordered(test_fence, "fence");
	CHECK(w_h2n.vc_errors + w_n2h.vc_errors == 0, "every packet sent on the VC of its message class (%u, %u not)",
	      w_h2n.vc_errors, w_n2h.vc_errors);
	unsigned perr = h_ap->errors() + h_tlp->errors() + n_dev->errors() + h_cpl->errors() + n_req->errors() + n_cpl->errors();
	CHECK(perr == 0, "no TLP protocol error on any stream");
	CHECK(host_viol() == 0 && dev_viol() == 0, "whole run: no MPS/MRRS/4 KiB/RCB violation at the host (%u) or the device (%u)",
	      host_viol(), dev_viol());
	delete m;
	return tb_finish("tb_smfu");
}
