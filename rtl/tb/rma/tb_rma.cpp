// SPDX-License-Identifier: Apache-2.0
//
// tb_rma: the RMA unit (rtl/rma/rma_unit.sv, docs/rma.md) against a strict
// packet-level model of the network and of the memories at the nodes.
//
// The unit's packet output (m_pkt, random back-pressure) goes through a
// network model (a delay) to node models. Every node is a memory: SMFU_RD is
// answered with SMFU_CPL (after a random delay, reads answered out of order,
// each read's data split at random RCB boundaries of 64 or 128 bytes into
// several completions, delivered on s_cpl with random gaps), SMFU_WR writes.
// Unwritten memory reads as a pattern of (node, address), so the data at D is
// verified by content.
//
// Every packet is checked against the format (docs/packets.md): source node,
// table routing, no TC/attributes, the pass-through form (interval 32..63),
// dword granularity (first BE 0xf, last BE 0xf or 0 for one dword), length
// <= 64 dwords, no 4 KiB crossing, plen = the payload, padding dwords 0, read
// tags with bit 7 set and never reused while outstanding. And against the
// descriptors: reads of a descriptor in address order, each the chunk the
// rules give (min(256 B, the rest, the 4 KiB boundaries at S and at D)); each
// write exactly the data of the read of the same chunk, in order, at the right
// place; no write of a descriptor after a failed read of it; the flush read
// of the last dword at D after the last write; the notifications after the
// flush answer, record fields checked; nothing at all for a bad descriptor
// but its requester record. Counters and status registers at the end.
//
//   tb_rma [seed] [-v]     the tests
//   tb_rma bench           put bandwidth and latency, 8 B .. 1 MiB (docs/benchmarks.md)

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <unordered_map>
#include <vector>

#include "Vrma_unit.h"
#include "extoll_records.h"
#include "net_packet.h"
#include "tb.h"

typedef VlWide<4> W4;

struct Flit {
	uint64_t w[2];
};

static Flit get_flit(const W4 &v)
{
	Flit f;
	f.w[0] = (uint64_t)v[0] | ((uint64_t)v[1] << 32);
	f.w[1] = (uint64_t)v[2] | ((uint64_t)v[3] << 32);
	return f;
}

static void set_flit(W4 &v, const Flit &f)
{
	v[0] = (uint32_t)f.w[0];
	v[1] = (uint32_t)(f.w[0] >> 32);
	v[2] = (uint32_t)f.w[1];
	v[3] = (uint32_t)(f.w[1] >> 32);
}

static const uint16_t NODE_R = 0x0011;   // the requester (this unit)
static const uint16_t NODE_S = 0x0022;
static const uint16_t NODE_D = 0x0033;
static const unsigned NSLOT = 8;

static std::mt19937_64 rng;
static bool verbose;

static unsigned rnd(unsigned n) { return n ? (unsigned)(rng() % n) : 0; }
static bool chance(unsigned pct) { return rnd(100) < pct; }

// ---------------------------------------------------------------------------
// Memory of all nodes: written dwords, else a pattern of (node, address)
// ---------------------------------------------------------------------------
static std::unordered_map<uint64_t, uint32_t> mem;

static uint32_t pattern(uint16_t node, uint64_t addr)
{
	uint64_t x = ((uint64_t)node << 48) ^ (addr >> 2) ^ 0x9E3779B97F4A7C15ull;
	x ^= x >> 29;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 32;
	return (uint32_t)x;
}
static uint64_t mkey(uint16_t node, uint64_t addr) { return ((uint64_t)node << 48) | (addr >> 2); }
static uint32_t mem_rd(uint16_t node, uint64_t addr)
{
	auto it = mem.find(mkey(node, addr));
	return it == mem.end() ? pattern(node, addr) : it->second;
}
static bool mem_written(uint16_t node, uint64_t addr) { return mem.count(mkey(node, addr)) != 0; }
static void mem_wr(uint16_t node, uint64_t addr, uint32_t v) { mem[mkey(node, addr)] = v; }

// ---------------------------------------------------------------------------
// Descriptors and what the model expects of them
// ---------------------------------------------------------------------------
enum RdAct { ACT_OK, ACT_UR, ACT_CA, ACT_POISON, ACT_DROP, ACT_LATE };

struct Desc {
	uint16_t snode = NODE_S, dnode = NODE_D;
	uint64_t saddr = 0, daddr = 0;
	uint32_t len = 0;
	uint16_t cookie = 0;
	bool nreq = false, ncmp = false;
	uint64_t rnoti = 0, cnoti = 0;
	// injected faults
	int64_t fail_at = -1;        // offset of the chunk whose read fails
	RdAct fail_act = ACT_OK;
	bool flush_fail = false;     // the flush read is answered UR
	// expectations
	bool bad = false;            // refused by the checks
	bool rn_ok = true;           // the requester record can be written
	int status = EXTOLL_RMA_ST_OK;
	// progress seen by the model
	uint64_t rd_next = 0, wr_next = 0;
	bool rd_stopped = false;     // no more reads expected
	bool fail_issued = false;    // the failing read has gone out
	std::deque<uint32_t> chunks; // bytes of each read, in order, not yet written
	bool flush_seen = false, flush_answered = false;
	bool req_seen = false, cmp_seen = false;
	bool finished = false;       // all expected packets seen
	uint64_t t_post = 0, t_first_rd = 0, t_last_wr = 0, t_req = 0, t_cmp = 0;
};

static std::deque<Desc *> active;   // posted, not finished, in order
static std::vector<Desc *> all_descs;

static uint32_t chunk_len(const Desc *d)
{
	uint64_t s = d->saddr + d->rd_next, t = d->daddr + d->rd_next;
	uint64_t cl = 256;
	cl = std::min<uint64_t>(cl, d->len - d->rd_next);
	cl = std::min<uint64_t>(cl, 4096 - (s & 0xfff));
	cl = std::min<uint64_t>(cl, 4096 - (t & 0xfff));
	return (uint32_t)cl;
}

// the expected outcome of a descriptor by the rules of docs/rma.md
static void classify(Desc *d)
{
	auto addr_bad = [&](uint64_t a) {
		return (a & 3) || a >= (1ull << 43) || a + d->len > (1ull << 43);
	};
	auto noti_bad = [](uint64_t a) { return (a & 15) || a >= (1ull << 43); };
	d->rn_ok = !noti_bad(d->rnoti);
	d->bad = d->len == 0 || d->len > 0x100000 || (d->len & 3) || addr_bad(d->saddr) ||
		 addr_bad(d->daddr) || (d->nreq && !d->rn_ok) || (d->ncmp && noti_bad(d->cnoti));
	d->status = d->bad ? EXTOLL_RMA_ST_BAD_DESC
		  : d->fail_at >= 0 ? EXTOLL_RMA_ST_RD_ERR
		  : d->flush_fail ? EXTOLL_RMA_ST_WR_ERR
				  : EXTOLL_RMA_ST_OK;
}

// ---------------------------------------------------------------------------
// The model of the network and the nodes
// ---------------------------------------------------------------------------
struct Pkt {
	std::vector<Flit> f;
	uint64_t t = 0;   // arrival at the node / ready to send
	int vc = -1;      // m_pkt_vc of its flits (-1: not from the unit; 2: it changed within the packet)
};

struct Read {
	uint16_t node, req;
	uint64_t addr;
	unsigned ndw;
	uint8_t tag;
	RdAct act;
	std::deque<Pkt> cpls;   // completions still to send, in order
	uint64_t t;             // the first may leave at
	bool flush;
};

static std::deque<Pkt> to_nodes;           // packets from the unit on their way
static std::vector<Read> reads;            // reads waiting for their answers
static std::set<uint8_t> tags_out;         // tags of reads not fully answered
static std::vector<Flit> rx_cur;           // completion packet being sent
static size_t rx_idx;
static uint64_t now;
static unsigned p_tx_ready = 70, p_rx_gap = 30, net_delay = 8, rd_delay_min = 10, rd_delay_max = 120;
static bool rd_split = true;
static bool rx_inorder = false;            // answer the oldest ready read first (bench)
static unsigned n_pkts_sd;                 // packets to S or D (the bad descriptor tests)
static unsigned n_pkts, n_rd, n_wr;
static std::vector<Flit> tx_cur;           // flits of the packet the unit is sending
static int tx_vc = -1;
static uint64_t late_delay = 0;            // ACT_LATE: answer after this many cycles
static unsigned flush_delay = 0;           // flush reads answered after this many cycles (0: as others)

static uint64_t pt_addr(const uint64_t *cmd)
{
	uint64_t ivl = net_cmd_smfu_get_ivl(cmd), off = net_cmd_smfu_get_off_dw(cmd);
	return ((ivl & 31) << 36 | off) << 2;
}

// SMFU_CPL packets answering a read of ndw dwords at addr
static std::deque<Pkt> make_cpls(const Read &r)
{
	std::deque<Pkt> out;
	unsigned bytes = r.ndw * 4, done = 0;
	unsigned rcb = chance(50) ? 64 : 128;
	bool split = rd_split && chance(60);
	if (r.act == ACT_UR || r.act == ACT_CA) {
		Pkt p;
		Flit h = {{0, 0}};
		net_hdr_set_dst(h.w, r.req);
		net_hdr_set_src(h.w, r.node);
		net_hdr_set_ptype(h.w, NET_TYPE_SMFU_CPL);
		net_cmd_cpl_set_tag(&h.w[1], r.tag);
		net_cmd_cpl_set_status(&h.w[1], r.act == ACT_UR ? 1 : 4);
		net_cmd_cpl_set_last(&h.w[1], 1);
		net_cmd_cpl_set_byte_count(&h.w[1], bytes);
		net_cmd_cpl_set_lower_addr(&h.w[1], r.addr & 0x7f);
		p.f.push_back(h);
		out.push_back(p);
		return out;
	}
	while (done < bytes) {
		uint64_t a = r.addr + done;
		unsigned n = bytes - done;
		if (split) {
			unsigned to_b = rcb - (unsigned)(a % rcb);
			if (n > to_b)
				n = to_b;
		}
		unsigned ndw = n / 4;
		Pkt p;
		Flit h = {{0, 0}};
		net_hdr_set_dst(h.w, r.req);
		net_hdr_set_src(h.w, r.node);
		net_hdr_set_ptype(h.w, NET_TYPE_SMFU_CPL);
		net_hdr_set_plen(h.w, (ndw + 3) / 4);
		net_cmd_cpl_set_tag(&h.w[1], r.tag);
		net_cmd_cpl_set_len_m1(&h.w[1], ndw - 1);
		net_cmd_cpl_set_byte_count(&h.w[1], bytes - done);
		net_cmd_cpl_set_lower_addr(&h.w[1], a & 0x7f);
		net_cmd_cpl_set_last(&h.w[1], done + n == bytes);
		net_cmd_cpl_set_ep(&h.w[1], r.act == ACT_POISON);
		p.f.push_back(h);
		for (unsigned i = 0; i < ndw; i += 4) {
			Flit d = {{0, 0}};
			for (unsigned j = 0; j < 4 && i + j < ndw; j++) {
				uint64_t v = mem_rd(r.node, a + 4 * (i + j));
				d.w[j / 2] |= v << (32 * (j % 2));
			}
			p.f.push_back(d);
		}
		out.push_back(p);
		done += n;
	}
	return out;
}

static Desc *noti_owner(uint16_t node, uint64_t addr, bool *cmp)
{
	for (Desc *d : active) {
		if (d->ncmp && !d->bad && node == d->dnode && addr == d->cnoti && !d->cmp_seen) {
			*cmp = true;
			return d;
		}
		if (d->nreq && d->rn_ok && node == NODE_R && addr == d->rnoti && !d->req_seen) {
			*cmp = false;
			return d;
		}
	}
	return nullptr;
}

static void check_finished(Desc *d)
{
	bool req_ok = !(d->nreq && d->rn_ok) || d->req_seen;
	bool cmp_ok = !(d->ncmp && !d->bad) || d->cmp_seen;
	bool flush_ok = d->bad || d->flush_answered;
	if (req_ok && cmp_ok && flush_ok && !d->finished) {
		d->finished = true;
		// records come after the flush; later descriptors may finish first
		// only through their bad-descriptor record
		active.erase(std::find(active.begin(), active.end(), d));
	}
}

// A packet from the unit arrives at its node.
static void node_rx(const Pkt &p)
{
	const Flit &h = p.f[0];
	uint16_t dst = (uint16_t)net_hdr_get_dst(h.w);
	unsigned ptype = (unsigned)net_hdr_get_ptype(h.w);
	const uint64_t *cmd = &h.w[1];
	n_pkts++;
	if (verbose && getenv("TB_RMA_TRACE"))
		printf("   %llu: %s node 0x%x 0x%llx %u dw tag 0x%02x\n", (unsigned long long)now,
		       ptype == NET_TYPE_SMFU_RD ? "RD" : "WR", dst, (unsigned long long)pt_addr(cmd),
		       (unsigned)net_cmd_smfu_get_len_m1(cmd) + 1, (unsigned)net_cmd_smfu_get_tag(cmd));
	if (dst != NODE_R)
		n_pkts_sd++;
	CHECK_EQ(net_hdr_get_src(h.w), NODE_R, "packet src");
	CHECK_EQ(net_hdr_get_rmode(h.w), NET_RMODE_TABLE, "table routed");
	CHECK_EQ(net_hdr_get_vc(h.w), 0, "vc 0 at the unit");
	CHECK_EQ(net_hdr_get_route(h.w), 0, "no TC / attributes");
	CHECK(ptype == NET_TYPE_SMFU_RD || ptype == NET_TYPE_SMFU_WR, "packet type %u", ptype);
	CHECK(net_cmd_smfu_get_ivl(cmd) >= 32, "pass-through interval id (%u)",
	      (unsigned)net_cmd_smfu_get_ivl(cmd));
	uint64_t addr = pt_addr(cmd);
	unsigned ndw = (unsigned)net_cmd_smfu_get_len_m1(cmd) + 1;
	CHECK_EQ(net_cmd_smfu_get_fbe(cmd), 0xf, "first BE");
	CHECK_EQ(net_cmd_smfu_get_lbe(cmd), ndw == 1 ? 0 : 0xf, "last BE");
	CHECK((addr & 0xfff) + 4 * ndw <= 4096, "request crosses 4 KiB: 0x%llx + %u dw",
	      (unsigned long long)addr, ndw);
	if (ptype == NET_TYPE_SMFU_RD) {
		n_rd++;
		uint8_t tag = (uint8_t)net_cmd_smfu_get_tag(cmd);
		CHECK(p.f.size() == 1 && net_hdr_get_plen(h.w) == 0, "SMFU_RD with payload");
		CHECK(tag & 0x80, "read tag 0x%02x without bit 7", tag);
		CHECK(!tags_out.count(tag), "tag 0x%02x reused while outstanding", tag);
		tags_out.insert(tag);
		Read r = {};
		r.node = dst;
		r.req = NODE_R;
		r.addr = addr;
		r.ndw = ndw;
		r.tag = tag;
		r.act = ACT_OK;
		r.t = now + rd_delay_min + rnd(rd_delay_max - rd_delay_min + 1);
		r.flush = false;
		// a flush read: the last dword at D of a descriptor whose writes are all out
		Desc *fd = nullptr;
		for (Desc *d : active) {
			bool written = d->fail_at < 0 ? d->wr_next == d->len
						      : d->fail_issued && d->wr_next == (uint64_t)d->fail_at;
			if (!d->bad && !d->flush_seen && written && dst == d->dnode &&
			    addr == d->daddr + d->len - 4 && ndw == 1) {
				fd = d;
				break;
			}
		}
		CHECK_EQ(p.vc, fd ? 1 : 0, fd ? "m_pkt_vc of a flush read (behind the writes)" : "m_pkt_vc of a data read");
		if (fd) {
			fd->flush_seen = true;
			fd->rd_stopped = true;
			if (flush_delay)
				r.t = now + flush_delay;
			fd->chunks.clear();   // a failed descriptor's later chunks are never written
			r.flush = true;
			if (fd->flush_fail)
				r.act = ACT_UR;
		} else {
			// a data read: the next chunk of the first descriptor still reading (one
			// whose read failed may stop at any point after the failed chunk)
			Desc *rd = nullptr;
			for (Desc *d : active) {
				if (d->bad || d->rd_stopped)
					continue;
				if (d->fail_issued && (dst != d->snode || addr != d->saddr + d->rd_next)) {
					d->rd_stopped = true;
					continue;
				}
				rd = d;
				break;
			}
			CHECK(rd, "read of 0x%llx at node 0x%x: no descriptor reads", (unsigned long long)addr, dst);
			if (!rd)
				return;
			uint32_t cl = chunk_len(rd);
			CHECK(dst == rd->snode && addr == rd->saddr + rd->rd_next && ndw * 4 == cl,
			      "read node 0x%x 0x%llx %u B, want node 0x%x 0x%llx %u B (cookie %u)", dst,
			      (unsigned long long)addr, ndw * 4, rd->snode,
			      (unsigned long long)(rd->saddr + rd->rd_next), cl, rd->cookie);
			if (!rd->t_first_rd)
				rd->t_first_rd = now;
			if ((int64_t)rd->rd_next == rd->fail_at) {
				r.act = rd->fail_act;
				rd->fail_issued = true;
			}
			if (r.act == ACT_LATE)
				r.t = now + late_delay;
			rd->chunks.push_back(ndw * 4);
			rd->rd_next += ndw * 4;
			if (rd->rd_next == rd->len)
				rd->rd_stopped = true;
		}
		if (r.act != ACT_DROP)
			r.cpls = make_cpls(r);
		else
			tags_out.erase(tag);
		if (r.act == ACT_LATE)
			tags_out.erase(tag);   // the unit times it out and may reuse the slot
		reads.push_back(r);
		return;
	}
	// SMFU_WR
	n_wr++;
	CHECK_EQ(p.vc, 1, "m_pkt_vc of a write");
	CHECK_EQ(net_cmd_smfu_get_tag(cmd), 0, "write tag");
	CHECK_EQ(net_hdr_get_plen(h.w), (ndw + 3) / 4, "write plen");
	CHECK_EQ(p.f.size(), 1 + (ndw + 3) / 4, "write flits");
	std::vector<uint32_t> data(ndw);
	for (unsigned i = 0; i < (ndw + 3) / 4 * 4; i++) {
		if (1 + i / 4 >= p.f.size())
			break;
		uint32_t v = (uint32_t)(p.f[1 + i / 4].w[(i % 4) / 2] >> (32 * (i % 2)));
		if (i < ndw)
			data[i] = v;
		else
			CHECK_EQ(v, 0, "padding dword of a write");
	}
	bool cmp = false;
	Desc *nd = ndw == 4 ? noti_owner(dst, addr, &cmp) : nullptr;
	if (nd) {
		CHECK(nd->bad || nd->flush_answered, "notification before the flush answer (cookie %u)", nd->cookie);
		uint64_t q0 = (uint64_t)data[0] | ((uint64_t)data[1] << 32);
		uint64_t q1 = (uint64_t)data[2] | ((uint64_t)data[3] << 32);
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_COOKIE, q0), nd->cookie, "record cookie");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_STATUS, q0), nd->status, "record status");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_KIND, q0), cmp ? EXTOLL_RMA_KIND_CMP : EXTOLL_RMA_KIND_REQ,
			 "record kind");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_LEN, q0), nd->len, "record len");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_REQ_NODE, q1), NODE_R, "record requester");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_SRC_NODE, q1), nd->snode, "record source");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_DST_NODE, q1), nd->dnode, "record destination");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_VALID, q1), 1, "record valid");
		CHECK_EQ(q1 & 0x7fff000000000000ull, 0, "record reserved bits");
		CHECK_EQ(q0 & 0xfe000000ull, 0, "record reserved bits (dword 0)");
		if (cmp) {
			nd->cmp_seen = true;
			nd->t_cmp = now;
		} else {
			nd->req_seen = true;
			nd->t_req = now;
		}
		for (unsigned i = 0; i < 4; i++)
			mem_wr(dst, addr + 4 * i, data[i]);
		check_finished(nd);
		return;
	}
	// a data write: the next chunk of the first descriptor with writes to come
	Desc *wd = nullptr;
	for (Desc *d : active)
		if (!d->bad && !d->chunks.empty() && !(d->fail_at >= 0 && d->wr_next == (uint64_t)d->fail_at)) {
			wd = d;
			break;
		}
	CHECK(wd, "write of %u B at node 0x%x 0x%llx: no descriptor expects it", ndw * 4, dst,
	      (unsigned long long)addr);
	if (!wd)
		return;
	CHECK(dst == wd->dnode && addr == wd->daddr + wd->wr_next && ndw * 4 == wd->chunks.front(),
	      "write node 0x%x 0x%llx %u B, want node 0x%x 0x%llx %u B (cookie %u)", dst,
	      (unsigned long long)addr, ndw * 4, wd->dnode, (unsigned long long)(wd->daddr + wd->wr_next),
	      wd->chunks.front(), wd->cookie);
	CHECK(wd->fail_at < 0 || (int64_t)wd->wr_next < wd->fail_at, "write at offset %llu after the failed read at %lld",
	      (unsigned long long)wd->wr_next, (long long)wd->fail_at);
	for (unsigned i = 0; i < ndw; i++)
		mem_wr(dst, addr + 4 * i, data[i]);
	wd->chunks.pop_front();
	wd->wr_next += ndw * 4;
	wd->t_last_wr = now;
}

// ---------------------------------------------------------------------------
// The testbench
// ---------------------------------------------------------------------------
class Tb : public TbModel<Vrma_unit> {
public:
	bool post = false;
	unsigned tx_ready_pct = 70;

protected:
	void drive() override
	{
		auto *t = top();
		t->post = post;
		post = false;
		t->m_pkt_ready = chance(p_tx_ready);
		// completions into the unit
		t->s_cpl_valid = 0;
		t->s_cpl_last = 0;
		if (rx_cur.empty()) {
			// the next packet: a ready read's first completion, chosen at random
			std::vector<size_t> ready;
			for (size_t i = 0; i < reads.size(); i++)
				if (reads[i].t <= now && !reads[i].cpls.empty())
					ready.push_back(i);
			if (!ready.empty()) {
				Read &r = reads[ready[rx_inorder ? 0 : rnd((unsigned)ready.size())]];
				rx_cur = r.cpls.front().f;
				r.cpls.pop_front();
				rx_idx = 0;
				if (r.cpls.empty())
					tags_out.erase(r.tag);
				if (r.flush && r.cpls.empty()) {
					for (Desc *d : active)
						if (d->flush_seen && !d->flush_answered && !d->bad &&
						    d->dnode == r.node && r.addr == d->daddr + d->len - 4) {
							d->flush_answered = true;
							check_finished(d);
							break;
						}
				}
			}
			reads.erase(std::remove_if(reads.begin(), reads.end(),
						   [](const Read &r) { return r.cpls.empty(); }),
				    reads.end());
		}
		if (!rx_cur.empty() && !(rx_idx > 0 && chance(p_rx_gap))) {
			set_flit(t->s_cpl_data, rx_cur[rx_idx]);
			t->s_cpl_valid = 1;
			t->s_cpl_last = rx_idx + 1 == rx_cur.size();
			if (++rx_idx == rx_cur.size())
				rx_cur.clear();
		}
	}
	void sample() override
	{
		auto *t = top();
		if (t->m_pkt_valid && t->m_pkt_ready) {
			tx_cur.push_back(get_flit(t->m_pkt_data));
			tx_vc = tx_cur.size() == 1 ? t->m_pkt_vc : (tx_vc == t->m_pkt_vc ? tx_vc : 2);
			if (t->m_pkt_last) {
				Pkt p;
				p.f = tx_cur;
				p.t = now + net_delay;
				p.vc = tx_vc;
				to_nodes.push_back(p);
				tx_cur.clear();
			}
		}
	}
	void posedge() override
	{
		now++;
		while (!to_nodes.empty() && to_nodes.front().t <= now) {
			node_rx(to_nodes.front());
			to_nodes.pop_front();
		}
	}
};

static Tb *tb;

static void do_post(Desc *d)
{
	auto *t = tb->top();
	t->d_src = ((uint64_t)d->snode << 48) | (d->saddr & 0xffffffffffffull);
	t->d_dst = ((uint64_t)d->dnode << 48) | (d->daddr & 0xffffffffffffull);
	t->d_len = (uint64_t)(d->len & 0x1fffff) | ((uint64_t)d->cookie << 32) | ((uint64_t)d->nreq << 48) |
		   ((uint64_t)d->ncmp << 49);
	t->d_rnoti = d->rnoti & 0xffffffffffffull;
	t->d_cnoti = d->cnoti & 0xffffffffffffull;
	tb->post = true;
	d->t_post = now;
	classify(d);
	active.push_back(d);
	all_descs.push_back(d);
	check_finished(d);   // a bad one without a record: nothing to wait for
	tb->tick();
}

static bool quiet()
{
	return active.empty() && to_nodes.empty() && reads.empty() && rx_cur.empty() && !tb->top()->st_busy &&
	       !tb->top()->m_pkt_valid;
}

static bool run_until_quiet(unsigned timeout)
{
	bool ok = tb->wait_for(quiet, timeout);
	CHECK(ok, "not quiet after %u cycles: %zu descriptors active, busy %u", timeout, active.size(),
	      tb->top()->st_busy);
	for (Desc *d : active)
		printf("  still active: cookie %u len %u rd %llu wr %llu flush %d/%d req %d cmp %d\n", d->cookie, d->len,
		       (unsigned long long)d->rd_next, (unsigned long long)d->wr_next, d->flush_seen,
		       d->flush_answered, d->req_seen, d->cmp_seen);
	return ok;
}

// the data at D by content: the whole range (OK / WR_ERR) or the prefix before the failed chunk
static void check_data(const Desc *d)
{
	if (d->bad)
		return;
	uint64_t upto = d->status == EXTOLL_RMA_ST_RD_ERR ? (uint64_t)d->fail_at : d->len;
	CHECK_EQ(d->wr_next, upto, "bytes written at D");
	unsigned bad = 0;
	for (uint64_t o = 0; o < d->len; o += 4) {
		bool w = mem_written(d->dnode, d->daddr + o);
		if (o < upto) {
			if (!w || mem_rd(d->dnode, d->daddr + o) != mem_rd(d->snode, d->saddr + o))
				bad++;
		} else if (w) {
			bad++;
		}
	}
	CHECK(bad == 0, "cookie %u: %u dwords at D differ from S (len %u, saddr 0x%llx daddr 0x%llx)", d->cookie,
	      bad, d->len, (unsigned long long)d->saddr, (unsigned long long)d->daddr);
}

struct Counters {
	uint32_t done, rd_err, bad, wr_err, notis, refused;
	uint64_t bytes;
};
static Counters counters()
{
	auto *t = tb->top();
	return {t->st_done, t->st_rd_err, t->st_bad_desc, t->st_wr_err, t->st_notis, t->st_refused, t->st_bytes};
}

static void check_counters(const Counters &c0, const std::vector<Desc *> &ds)
{
	Counters c1 = counters();
	uint32_t ok = 0, rd = 0, bad = 0, wr = 0, notis = 0;
	uint64_t bytes = 0;
	for (const Desc *d : ds) {
		ok += d->status == EXTOLL_RMA_ST_OK;
		rd += d->status == EXTOLL_RMA_ST_RD_ERR;
		bad += d->status == EXTOLL_RMA_ST_BAD_DESC;
		wr += d->status == EXTOLL_RMA_ST_WR_ERR;
		notis += (d->nreq && d->rn_ok) + (d->ncmp && !d->bad);
		bytes += d->wr_next;
	}
	CHECK_EQ(c1.done - c0.done, ok, "rma.done");
	CHECK_EQ(c1.rd_err - c0.rd_err, rd, "rma.errors.rd_err");
	CHECK_EQ(c1.bad - c0.bad, bad, "rma.errors.bad_desc");
	CHECK_EQ(c1.wr_err - c0.wr_err, wr, "rma.wr_err");
	CHECK_EQ(c1.notis - c0.notis, notis, "rma.stats.notis");
	CHECK_EQ(c1.bytes - c0.bytes, bytes, "rma.bytes");
	CHECK_EQ(tb->top()->st_free, 4, "rma.status.free when idle");
	CHECK_EQ(tb->top()->st_inflight, 0, "rma.status.inflight when idle");
}

static uint16_t next_cookie = 1;
static uint64_t rn_base = 0x7000000000ull, cn_base = 0x7100000000ull;

static Desc *mk(uint64_t saddr, uint64_t daddr, uint32_t len, bool nreq = true, bool ncmp = true)
{
	Desc *d = new Desc;
	d->saddr = saddr;
	d->daddr = daddr;
	d->len = len;
	d->cookie = next_cookie++;
	d->nreq = nreq;
	d->ncmp = ncmp;
	d->rnoti = rn_base + 16 * d->cookie;
	d->cnoti = cn_base + 16 * d->cookie;
	return d;
}

// post a batch, run, check every descriptor and the counters
static void run_batch(const std::vector<Desc *> &ds, unsigned timeout = 2000000)
{
	Counters c0 = counters();
	for (Desc *d : ds)
		do_post(d);
	run_until_quiet(timeout);
	for (Desc *d : ds) {
		check_data(d);
		CHECK(d->bad || d->flush_answered, "cookie %u: no flush", d->cookie);
		if (d->nreq && d->rn_ok)
			CHECK(d->req_seen, "cookie %u: no requester record", d->cookie);
		if (d->ncmp && !d->bad)
			CHECK(d->cmp_seen, "cookie %u: no completer record", d->cookie);
	}
	check_counters(c0, ds);
}

static uint64_t rnd_addr(uint64_t base, uint32_t span)
{
	return base + ((uint64_t)rnd(span / 4) << 2);
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------
static void test_sizes()
{
	section("sizes 4 B .. 1 MiB, S and D at different alignments");
	const uint32_t sizes[] = {4, 8, 12, 16, 60, 64, 124, 128, 252, 256, 260, 1020, 4092, 4096, 4100, 8192 + 44,
				  65536, 262144 + 12, 1048576};
	uint64_t sb = 0x10000000ull, db = 0x40000000000ull;   // D above 4 GiB (and 2^42)
	for (uint32_t n : sizes) {
		std::vector<Desc *> v;
		v.push_back(mk(sb + rnd(1024) * 4, db + rnd(1024) * 4, n));
		run_batch(v);
		sb += 0x200000;
		db += 0x200000;
	}
	// aligned on both sides and the last dword below 2^43
	std::vector<Desc *> v = {mk(0x20000000, 0x30000000, 65536), mk((1ull << 43) - 4096, 0x31000000, 4096),
				 mk(0x22000000, (1ull << 43) - 256, 256)};
	run_batch(v);
}

static void test_queue()
{
	section("several descriptors queued; a post into a full FIFO refused");
	auto *t = tb->top();
	p_tx_ready = 0;   // hold the unit's output: the FIFO fills
	Counters c0 = counters();
	std::vector<Desc *> v;
	for (int i = 0; i < 6; i++)
		v.push_back(mk(0x50000000 + 0x100000 * i + 4 * i, 0x60000000 + 0x100000 * i + 8 * i, 3000 + 1000 * i,
			       i % 2, i % 3 != 0));
	// the first goes to the reader, four wait in the FIFO, the sixth is refused
	for (int i = 0; i < 5; i++)
		do_post(v[i]);
	tb->idle(4);
	CHECK_EQ(t->st_free, 0, "rma.status.free with 4 queued");
	CHECK_EQ(t->st_busy, 1, "rma.status.busy");
	// the sixth: refused, nothing queued
	Desc *r = v[5];
	t->d_src = ((uint64_t)r->snode << 48) | r->saddr;
	tb->post = true;
	tb->tick();
	tb->idle(2);
	CHECK_EQ(t->st_refused - c0.refused, 1, "rma.status.refused");
	v.pop_back();
	p_tx_ready = 70;
	run_until_quiet(2000000);
	for (Desc *d : v)
		check_data(d);
	check_counters(c0, v);
}

static void test_max_rd()
{
	section("reads in flight: ctrl.max_rd 1, 3, 0 (= 8); high-water mark");
	auto *t = tb->top();
	unsigned saved = rd_delay_min;
	rd_delay_min = 100;   // slow answers: the limit is reached
	for (unsigned m : {1u, 3u, 0u}) {
		t->cfg_max_rd = m;
		unsigned hwm = 0;
		std::vector<Desc *> v = {mk(0x70000000, 0x71000000, 16384)};
		Counters c0 = counters();
		do_post(v[0]);
		for (unsigned i = 0; i < 200000 && !quiet(); i++) {
			hwm = std::max<unsigned>(hwm, t->st_inflight);
			tb->tick();
		}
		check_data(v[0]);
		check_counters(c0, v);
		CHECK_EQ(hwm, m ? m : NSLOT, "reads in flight at most max_rd, and reached");
		CHECK(t->st_rd_hwm >= hwm, "stats.rd_hwm %u >= %u", t->st_rd_hwm, hwm);
	}
	t->cfg_max_rd = 0;
	rd_delay_min = saved;
}

static void test_read_errors()
{
	section("read errors: UR, CA, poisoned data, timeout, late answer -> RD_ERR, no write after the failed chunk");
	auto *t = tb->top();
	const RdAct acts[] = {ACT_UR, ACT_CA, ACT_POISON, ACT_DROP, ACT_LATE};
	const char *names[] = {"UR", "CA", "poisoned", "timeout", "late answer"};
	t->cfg_timeout = 4;   // 1024..1280 cycles
	late_delay = 1400;    // answered after the unit gave up
	for (unsigned k = 0; k < 5; k++) {
		for (int64_t at : {(int64_t)0, (int64_t)3 * 256, (int64_t)16384 - 256}) {
			if (verbose)
				printf("   %s at offset %lld\n", names[k], (long long)at);
			Desc *d = mk(0x80000000 + 0x100000 * k, 0x81000000 + 0x100000 * k, 16384);
			d->fail_at = at;
			d->fail_act = acts[k];
			std::vector<Desc *> v = {d};
			// a good descriptor behind it is not affected
			v.push_back(mk(0x88000000 + 0x100000 * k + 4 * at, 0x89000000 + 0x100000 * k, 2048));
			run_batch(v);
			// the late answer must not have written anything: check_data covers it
		}
	}
	// a 1 MiB descriptor failing early: the reader stops, the rest is not read
	Desc *d = mk(0x90000000, 0x91000000, 1048576);
	d->fail_at = 4096;
	d->fail_act = ACT_UR;
	unsigned rd0 = n_rd;
	run_batch({d});
	CHECK(n_rd - rd0 < 64, "reads after an early failure of 1 MiB: %u (the reader stops)", n_rd - rd0);
	t->cfg_timeout = 0x400;
	// a failed flush: WR_ERR
	section("flush read answered UR -> WR_ERR");
	Desc *f = mk(0x92000000, 0x93000000, 1000 * 4);
	f->flush_fail = true;
	run_batch({f});
}

static void test_bad()
{
	section("bad descriptors: refused, BAD_DESC record, nothing sent to S or D");
	struct {
		uint64_t s, d;
		uint32_t len;
		const char *what;
	} cases[] = {
		{0x1000, 0x2000, 0, "length 0"},
		{0x1000, 0x2000, 0x100004, "length above 1 MiB"},
		{0x1000, 0x2000, 0x1ffffc, "length 2 MiB - 4"},
		{0x1000, 0x2000, 6, "length not a multiple of 4"},
		{0x1002, 0x2000, 8, "source not dword aligned"},
		{0x1000, 0x2001, 8, "destination not dword aligned"},
		{1ull << 43, 0x2000, 8, "source at 2^43"},
		{0x1000, 0xffff00000000ull, 8, "destination above 2^43"},
		{(1ull << 43) - 4, 0x2000, 8, "source wraps past 2^43"},
		{0x1000, (1ull << 43) - 256, 260, "destination wraps past 2^43"},
	};
	for (auto &c : cases) {
		if (verbose)
			printf("   %s\n", c.what);
		unsigned sd0 = n_pkts_sd;
		Desc *d = mk(c.s, c.d, c.len);
		run_batch({d});
		CHECK(d->req_seen, "%s: requester record", c.what);
		CHECK_EQ(n_pkts_sd - sd0, 0, c.what);
	}
	// notification addresses
	unsigned sd0 = n_pkts_sd, p0 = n_pkts;
	Desc *a = mk(0x1000, 0x2000, 64);
	a->rnoti += 8;   // requester record address not 16-byte aligned: no record at all
	run_batch({a});
	CHECK_EQ(n_pkts - p0, 0, "bad requester-record address: nothing sent");
	Desc *b = mk(0x1000, 0x2000, 64);
	b->cnoti = (1ull << 43) + 16;   // completer record address above 2^43
	run_batch({b});
	CHECK(b->req_seen, "bad completer-record address: requester record");
	Desc *c = mk(0x1000, 0x2000, 64, true, false);
	c->cnoti = 4;   // not asked for: not checked
	run_batch({c});
	CHECK_EQ(c->status, EXTOLL_RMA_ST_OK, "unused completer address not checked");
	CHECK_EQ(n_pkts_sd - sd0, 3, "only the good descriptor reached S and D (read, write, flush)");
	// a bad one between good ones
	std::vector<Desc *> v = {mk(0xa0000000, 0xa1000000, 5000), mk(0xa2000001, 0xa3000000, 8),
				 mk(0xa4000000, 0xa5000000, 3000)};
	run_batch(v);
}

static void test_slow_flush()
{
	section("small descriptors behind a slow flush: the completion queue fills, nothing is lost, records in order");
	unsigned s0 = rd_delay_min, s1 = rd_delay_max;
	rd_delay_min = 5;
	rd_delay_max = 15;
	flush_delay = 600;
	p_tx_ready = 100;
	Counters c0 = counters();
	std::vector<Desc *> v;
	std::vector<uint64_t> t_req;
	for (int i = 0; i < 12; i++) {
		Desc *d = mk(0xb0000000 + 0x1000 * i, 0xb1000000 + 0x1000 * i, 8 + 4 * (i % 3), true, i % 2);
		tb->wait_for([] { return tb->top()->st_free > 0; }, 100000);
		do_post(d);
		v.push_back(d);
	}
	run_until_quiet(200000);
	for (size_t i = 0; i < v.size(); i++) {
		check_data(v[i]);
		if (i)
			CHECK(v[i]->t_req > v[i - 1]->t_req, "requester records in descriptor order (%zu)", i);
	}
	check_counters(c0, v);
	rd_delay_min = s0;
	rd_delay_max = s1;
	flush_delay = 0;
	p_tx_ready = 70;
}

static void test_random(unsigned n)
{
	section("random descriptors, back-pressure, split and reordered completions");
	std::vector<Desc *> batch;
	Counters c0 = counters();
	std::vector<Desc *> posted;
	uint64_t region = 0xc0000000ull;
	for (unsigned i = 0; i < n; i++) {
		uint32_t len = 4 * (1 + rnd(chance(20) ? 65536 : 2048));
		bool get = chance(30);
		Desc *d = mk(rnd_addr(region, 8192), rnd_addr(region + 0x200000 + ((uint64_t)rnd(2) << 40), 8192), len,
			     chance(70), chance(70));
		region += 0x400000;
		if (get) {
			d->snode = NODE_D;
			d->dnode = NODE_R;
		} else if (chance(30)) {
			d->snode = NODE_R;
		}
		if (chance(5)) {
			d->fail_at = (int64_t)(rnd(len / 256 + 1) * 256);
			if ((uint64_t)d->fail_at >= len)
				d->fail_at = -1;
			d->fail_act = ACT_UR;
		}
		if (chance(5)) {
			d->saddr |= 2;   // bad
		}
		// wait for room in the FIFO
		tb->wait_for([] { return tb->top()->st_free > 0; }, 200000);
		if (d->fail_at >= 0) {
			// the chunk boundaries decide where a failure can be: pick a real chunk start
			uint64_t off = 0;
			Desc tmp = *d;
			while (off < (uint64_t)d->fail_at && off < d->len) {
				tmp.rd_next = off;
				off += chunk_len(&tmp);
			}
			d->fail_at = off < d->len ? (int64_t)off : -1;
		}
		do_post(d);
		posted.push_back(d);
		tb->idle(rnd(200));
	}
	run_until_quiet(5000000);
	for (Desc *d : posted)
		check_data(d);
	check_counters(c0, posted);
}

// ---------------------------------------------------------------------------
// Bench: put bandwidth and latency (no back-pressure, fixed answer delay)
// ---------------------------------------------------------------------------
static void bench()
{
	p_tx_ready = 100;
	p_rx_gap = 0;
	rd_split = false;
	rx_inorder = true;
	net_delay = 8;
	rd_delay_min = rd_delay_max = 20;
	printf("RMA unit alone (tb_rma bench): network delay %u cycles each way, memory answers %u cycles\n"
	       "after the read arrives, no back-pressure; every read answered by one completion, in order.\n",
	       net_delay, rd_delay_min);
	printf("| bytes | cycles post -> requester record | first read | last write | B/cycle (post -> last write) | %% of format bound |\n");
	printf("|---|---|---|---|---|---|\n");
	for (uint32_t n : {8u, 64u, 256u, 1024u, 4096u, 16384u, 65536u, 262144u, 1048576u}) {
		Desc *d = mk(0x100000000ull, 0x200000000ull, n);
		run_batch({d});
		uint64_t lat = d->t_req - d->t_post;
		uint64_t wr = d->t_last_wr - d->t_post;
		// the format bound: 256-byte writes of 17 flits (16 B per flit of payload)
		double bound = 0;
		{
			uint64_t flits = 0, left = n, a = 0x200000000ull;
			while (left) {
				uint64_t c = std::min<uint64_t>({256, left, 4096 - (a & 0xfff)});
				flits += 1 + (c + 15) / 16;
				left -= c;
				a += c;
			}
			bound = (double)n / (double)flits;
		}
		double bw = (double)n / (double)wr;
		printf("| %u | %llu | %llu | %llu | %.2f | %.1f%% |\n", n, (unsigned long long)lat,
		       (unsigned long long)(d->t_first_rd - d->t_post), (unsigned long long)wr, bw, 100.0 * bw / bound);
	}
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	verbose = a.verbose;
	rng.seed(a.seed);
	tb = new Tb;
	auto *t = tb->top();
	t->cfg_node_id = NODE_R;
	t->cfg_max_rd = 0;
	t->cfg_timeout = 0x400;
	tb->reset();
	CHECK_EQ(t->st_free, 4, "rma.status.free after reset");
	CHECK_EQ(t->st_busy, 0, "rma.status.busy after reset");
	if (a.bench) {
		bench();
		return tb_finish("tb_rma bench");
	}
	test_sizes();
	test_queue();
	test_max_rd();
	test_read_errors();
	test_bad();
	test_slow_flush();
	test_random(60);
	int rc = tb_finish("tb_rma", "seed %u, %u packets (%u reads, %u writes), %llu cycles", a.seed, n_pkts, n_rd,
			   n_wr, (unsigned long long)now);
	delete tb;
	return rc;
}
