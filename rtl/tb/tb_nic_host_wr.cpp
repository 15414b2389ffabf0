// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_host_wr: block testbench of rtl/nic/nic_host_wr.sv, the writer of
// RRA completion records into host memory (docs/remote-access.md,
// "Completion record"). Answer packets (RRA_RSP, TLP_RAW extract) built with
// hw/include/net_packet.h are offered with random gaps; the MWr TLPs on m_tlp
// are taken with random back-pressure (tlp_port.h checks the stream rules) and
// judged against the record table of the docs and the PCIe rules for a
// posted write: 3-DW header below 4 GiB and 4-DW above, Length 4 with all
// byte enables, requester ID = the captured ID, tag/TC/attributes 0, no TD/EP,
// the 16 bytes inside one 4 KiB page; one record per answer, in order; none
// (and a drop event) without Bus Master Enable, outside the endpoint role, or
// for an answer whose record address is not rec_addr (rra.cmp_addr): a forged
// or stale answer writes nothing. The testbench drives rec_addr = the record
// address of the answer it presents, unless the answer is meant to be forged.
//
// Usage: tb_nic_host_wr [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <deque>
#include <random>
#include <string>

#include "Vnic_host_wr.h"
#include "net_packet.h"
#include "tb.h"
#include "extoll_records.h"
#include "tlp.h"
#include "tlp_port.h"

static const uint16_t REQ_ID = 0x0300;   // bus 3, device 0

// ---------------------------------------------------------------------------
// The completion record, from the generated layout (hw/include/extoll_records.h,
// hw/gen/gen_net.py; tb_pkt checks it against the RTL's net_pkg::cmp_rec_t).
// ---------------------------------------------------------------------------
struct Record {
	uint64_t q0, q1;
};
#define REC_PUT(F, v) (((uint64_t)(v) << F##_SHIFT) & F##_MASK)
static_assert(EXTOLL_CMP_DATA_QW == 0 && EXTOLL_CMP_SEQ_QW == 1 && EXTOLL_CMP_STATUS_QW == 1 &&
	      EXTOLL_CMP_CPL_QW == 1 && EXTOLL_CMP_NODE_QW == 1 && EXTOLL_CMP_VALID_QW == 1,
	      "record qwords as this testbench builds them");
static Record record(uint64_t data, unsigned seq, unsigned status, unsigned cpl_status, unsigned node)
{
	return {REC_PUT(EXTOLL_CMP_DATA, data),
		REC_PUT(EXTOLL_CMP_SEQ, seq) | REC_PUT(EXTOLL_CMP_STATUS, status) |
			REC_PUT(EXTOLL_CMP_CPL, cpl_status) | REC_PUT(EXTOLL_CMP_NODE, node) |
			REC_PUT(EXTOLL_CMP_VALID, 1)};
}

// ---------------------------------------------------------------------------
// Answer packets (docs/packets.md)
// ---------------------------------------------------------------------------
struct Answer {
	net_flit f[3];
	uint64_t addr;   // where the record must go
	uint64_t cmp;    // rec_addr (rra.cmp_addr) while it is offered: addr, unless forged
	Record rec;      // what it must hold
};

static net_flit hdr_flit(unsigned type, uint16_t src, uint64_t cmd)
{
	net_flit h = {{0, 0}};
	net_hdr_set_dst(h.w, 1);
	net_hdr_set_src(h.w, src);
	net_hdr_set_ptype(h.w, type);
	net_hdr_set_cmd(h.w, cmd);
	return h;
}

// RRA_RSP: read data (or write ack) and aux.status for the record at addr (< 2^48).
static Answer rra_rsp(uint64_t addr, uint16_t seq, uint64_t data, unsigned status, uint16_t src)
{
	Answer a{};
	uint64_t cmd[1] = {0};
	net_cmd_rra_set_addr(cmd, addr);
	net_cmd_rra_set_seq(cmd, seq);
	a.f[0] = hdr_flit(NET_TYPE_RRA_RSP, src, cmd[0]);
	a.f[1].w[0] = data;
	net_rsp_aux_set_addr(&a.f[1].w[1], 0x123456);
	net_rsp_aux_set_status(&a.f[1].w[1], status);
	a.f[2] = {{0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull}};   // not part of an RRA_RSP
	a.addr = addr;
	a.cmp = addr;
	a.rec = record(data, seq, status, 0, src);
	return a;
}

// TLP_RAW extract: the completion (status cst, ndw payload dwords) of a tunnelled
// request, for the record at rec (16-byte aligned, < 2^48).
static Answer tlp_extract(uint64_t rec, uint16_t seq, uint8_t cst, unsigned ndw, uint64_t data, uint16_t src)
{
	Answer a{};
	uint64_t cmd[1] = {0};
	net_cmd_tlp_set_seq(cmd, seq);
	net_cmd_tlp_set_dir(cmd, 1);
	net_cmd_tlp_set_ndw(cmd, ndw);
	net_cmd_tlp_set_rec(cmd, rec >> 4);
	a.f[0] = hdr_flit(NET_TYPE_TLP_RAW, src, cmd[0]);
	struct tlp c;
	uint32_t d[2] = {(uint32_t)data, (uint32_t)(data >> 32)};
	tlp_cpl(&c, 0x0100, cst, 0x0000, 0xff, 0, (uint16_t)(4 * ndw), d, cst == TLP_CPL_SC ? ndw : 0);
	uint32_t hdr[4];
	tlp_encode_hdr(&c, hdr);
	a.f[1].w[0] = hdr[0] | (uint64_t)hdr[1] << 32;
	a.f[1].w[1] = hdr[2] | (uint64_t)hdr[3] << 32;
	a.f[2].w[0] = data;
	a.f[2].w[1] = 0x0123456789abcdefull;   // beyond the two payload dwords
	a.addr = rec;
	a.cmp = rec;
	a.rec = record(ndw ? data : 0, seq, cst == TLP_CPL_SC ? EXTOLL_CMP_OK : EXTOLL_CMP_CPL_ERR, cst, src);
	return a;
}

// ---------------------------------------------------------------------------
// Testbench
// ---------------------------------------------------------------------------
class Tb : public TbModel<Vnic_host_wr> {
public:
	Tb(uint32_t seed, bool verbose) : rng_(seed), snk_("m_tlp", TLP_PINS(top(), m_tlp), seed * 5 + 1)
	{
		snk_.verbose = verbose;
		top()->enable = 1;
		top()->bus_master = 1;
		top()->req_id = REQ_ID;
	}

	void send(const Answer &a) { q_.push_back(a); }
	bool quiet() const { return q_.empty() && !presenting_; }
	std::deque<RxTlp> &rx() { return snk_.rx(); }
	unsigned errors() const { return snk_.errors() + s_errors_; }
	void run_until_quiet(unsigned extra = 20)
	{
		wait_for([&] { return quiet(); }, 20000);
		idle(extra);
	}

	double valid_prob = 1.0;
	uint64_t ev_done = 0, ev_drop = 0, accepted = 0;
	void ready_prob(double p) { snk_.prob = p; }

private:
	bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
	static void put(VlWide<4> &w, const net_flit &f)
	{
		w[0] = (uint32_t)f.w[0];
		w[1] = (uint32_t)(f.w[0] >> 32);
		w[2] = (uint32_t)f.w[1];
		w[3] = (uint32_t)(f.w[1] >> 32);
	}
	void drive() override
	{
		if (!presenting_ && !q_.empty() && coin(valid_prob)) {
			cur_ = q_.front();
			q_.pop_front();
			presenting_ = true;
		}
		Vnic_host_wr *m = top();
		m->s_valid = presenting_;
		Answer z{};
		const Answer &a = presenting_ ? cur_ : z;
		m->rec_addr = presenting_ ? a.cmp : 0;
		put(m->s_f0, a.f[0]);
		put(m->s_f1, a.f[1]);
		put(m->s_f2, a.f[2]);
		snk_.drive();
	}
	void sample() override
	{
		Vnic_host_wr *m = top();
		snk_.sample();
		if (m->s_valid && m->s_ready) {
			presenting_ = false;
			accepted++;
		}
		if (m->ev_done && !(m->m_tlp_valid && m->m_tlp_ready && m->m_tlp_eop))
			s_errors_++;   // ev_done is the record's last beat being taken
		ev_done += m->ev_done;
		ev_drop += m->ev_drop;
	}

	std::mt19937 rng_;
	TlpSink<VlWide<4>> snk_;
	std::deque<Answer> q_;
	Answer cur_{};
	bool presenting_ = false;
	unsigned s_errors_ = 0;
};

// Check one received MWr against the answer it must record.
static void check_record(const RxTlp &r, const Answer &a, uint16_t req_id, const char *what)
{
	std::string w(what);
	const struct tlp &t = r.t;
	CHECK_EQ(t.kind, TLP_MWR, (w + ": TLP is a memory write").c_str());
	// PCIe: addresses below 4 GiB must use the 3-DW (32-bit) header format
	CHECK_EQ(t.hdr_dw, a.addr >> 32 ? 4u : 3u, (w + ": header size").c_str());
	CHECK_EQ(t.addr, a.addr, (w + ": address").c_str());
	CHECK_EQ(t.len_dw, 4, (w + ": Length (16-byte record)").c_str());
	CHECK_EQ(t.first_be, 0xf, (w + ": first DW byte enables").c_str());
	CHECK_EQ(t.last_be, 0xf, (w + ": last DW byte enables").c_str());
	CHECK_EQ(t.requester_id, req_id, (w + ": requester ID").c_str());
	CHECK_EQ(t.tag, 0, (w + ": tag").c_str());
	// TC 22:20, Attr[2] 18, TH 16, TD 15, EP 14, Attr[1:0] 13:12, AT 11:10
	CHECK_EQ(r.hdr[0] & 0x0077fc00u, 0, (w + ": TC, attributes, TH, TD, EP, AT are 0").c_str());
	CHECK((a.addr & 0xfff) + 16 <= 4096, "%s: record crosses a 4 KiB page", what);
	if (t.payload_dw < 4) {
		CHECK(false, "%s: payload of %u dwords", what, t.payload_dw);
		return;
	}
	uint64_t q0 = t.payload[0] | (uint64_t)t.payload[1] << 32;
	uint64_t q1 = t.payload[2] | (uint64_t)t.payload[3] << 32;
	CHECK_EQ(q0, a.rec.q0, (w + ": record qword 0 (data)").c_str());
	CHECK_EQ(q1, a.rec.q1, (w + ": record qword 1 (valid, node, status, seq)").c_str());
}

// Send one answer and check the one record it must produce.
static void one(Tb &tb, const Answer &a, const char *what)
{
	uint64_t done0 = tb.ev_done;
	tb.send(a);
	if (!tb.wait_for([&] { return !tb.rx().empty(); }, 200)) {
		CHECK(false, "%s: no MWr", what);
		return;
	}
	RxTlp r = tb.rx().front();
	tb.rx().pop_front();
	check_record(r, a, REQ_ID, what);
	tb.idle(5);
	CHECK_EQ(tb.ev_done - done0, 1, (std::string(what) + ": one ev_done").c_str());
	CHECK(tb.rx().empty(), "%s: exactly one MWr", what);
}

static void test_layout(Tb &tb)
{
	section("record layout: RRA_RSP");
	one(tb, rra_rsp(0x10000, 0x0100, 0x1122334455667788ull, 0, 3), "read answer, 32-bit address");
	one(tb, rra_rsp(0x10000, 0xffff, 0, 0, 0xfffe), "write ack, seq and node all ones");
	one(tb, rra_rsp(0x0000ffff0, 0x0101, ~0ull, 1, 9), "register error (status 1), last 16 B of 4 GiB");
	one(tb, rra_rsp(0x100000000ull, 0x0102, 0xdeadbeefcafef00dull, 0, 3), "record at 4 GiB: 4-DW header");
	one(tb, rra_rsp(0xfffffffffff0ull, 0x0103, 42, 0, 3), "record at the top of the 48-bit range");

	section("record layout: TLP_RAW extract (tunnel completions)");
	one(tb, tlp_extract(0x20040, 0x0200, TLP_CPL_SC, 1, 0x00000000a5a5a5a5ull, 3), "CplD of 1 DW");
	one(tb, tlp_extract(0x20040, 0x0201, TLP_CPL_SC, 2, 0x0102030405060708ull, 3), "CplD of 2 DW");
	one(tb, tlp_extract(0x20040, 0x0202, TLP_CPL_SC, 0, 0x0102030405060708ull, 3),
	    "Cpl without data: qword 0 is 0");
	one(tb, tlp_extract(0x1234560040ull, 0x0203, TLP_CPL_UR, 0, 0, 9), "UR: status 2, PCIe status 1, 4-DW");
	one(tb, tlp_extract(0x20050, 0x0204, TLP_CPL_CA, 0, 0, 9), "CA: status 2, PCIe status 4");
	one(tb, tlp_extract(0x20060, 0x0205, TLP_CPL_CRS, 0, 0, 9), "CRS: status 2, PCIe status 2");
}

static void test_req_id(Tb &tb)
{
	section("requester ID follows the captured bus/device");
	tb.top()->req_id = 0xab08;
	tb.send(rra_rsp(0x10000, 0x0300, 7, 0, 3));
	if (tb.wait_for([&] { return !tb.rx().empty(); }, 200)) {
		check_record(tb.rx().front(), rra_rsp(0x10000, 0x0300, 7, 0, 3), 0xab08, "req_id 0xab08");
		tb.rx().pop_front();
	} else {
		CHECK(false, "req_id 0xab08: no MWr");
	}
	tb.top()->req_id = REQ_ID;
	tb.idle(5);
}

// No bus mastering (PCIe: a function must not issue memory requests with
// Command.BME clear) and no host (root-port role): the answer is consumed and
// dropped with ev_drop, nothing is written.
static void test_drop(Tb &tb)
{
	const struct {
		int enable, bme;
		const char *what;
	} cases[] = {{1, 0, "Bus Master Enable clear"}, {0, 1, "root-port role"}, {0, 0, "both"}};
	for (auto &c : cases) {
		section((std::string("dropped: ") + c.what).c_str());
		tb.top()->enable = c.enable;
		tb.top()->bus_master = c.bme;
		uint64_t drop0 = tb.ev_drop, done0 = tb.ev_done, acc0 = tb.accepted;
		tb.send(rra_rsp(0x10000, 0x0400, 1, 0, 3));
		tb.send(tlp_extract(0x20040, 0x0401, TLP_CPL_SC, 1, 2, 3));
		tb.run_until_quiet(50);
		CHECK_EQ(tb.accepted - acc0, 2, (std::string(c.what) + ": answers consumed").c_str());
		CHECK_EQ(tb.ev_drop - drop0, 2, (std::string(c.what) + ": ev_drop per answer").c_str());
		CHECK_EQ(tb.ev_done - done0, 0, (std::string(c.what) + ": no ev_done").c_str());
		CHECK(tb.rx().empty(), "%s: no MWr (%zu)", c.what, tb.rx().size());
		tb.rx().clear();
	}
	tb.top()->enable = 1;
	tb.top()->bus_master = 1;
	one(tb, rra_rsp(0x10000, 0x0402, 3, 0, 3), "records written again with BME set");
}

// An answer is only written to rra.cmp_addr: one that names any other record
// address (forged by another node, or stale after cmp_addr changed) is consumed
// and dropped with ev_drop, nothing is written; the next good one is written.
static void test_forged(Tb &tb)
{
	const uint64_t cmp = 0x7654320;
	const struct {
		uint64_t addr;
		bool tlp;
		const char *what;
	} cases[] = {
		{0x0, false, "RRA_RSP to address 0"},
		{cmp + 0x10, false, "RRA_RSP 16 bytes past cmp_addr"},
		{cmp - 0x10, false, "RRA_RSP 16 bytes before cmp_addr"},
		{cmp | 0x800000000000ull, false, "RRA_RSP with bit 47 set"},
		{0xfee00000, false, "RRA_RSP at the MSI address"},
		{cmp + 0x1000, true, "TLP_RAW extract one page off"},
		{cmp | 0x100000000ull, true, "TLP_RAW extract with bit 32 set"},
	};
	for (auto &c : cases) {
		section((std::string("forged: ") + c.what).c_str());
		Answer a = c.tlp ? tlp_extract(c.addr, 0x0600, TLP_CPL_SC, 2, 0x1111, 7) : rra_rsp(c.addr, 0x0600, 0x2222, 0, 7);
		a.cmp = cmp;
		uint64_t drop0 = tb.ev_drop, done0 = tb.ev_done, acc0 = tb.accepted;
		tb.send(a);
		tb.run_until_quiet(50);
		CHECK_EQ(tb.accepted - acc0, 1, (std::string(c.what) + ": consumed").c_str());
		CHECK_EQ(tb.ev_drop - drop0, 1, (std::string(c.what) + ": ev_drop").c_str());
		CHECK_EQ(tb.ev_done - done0, 0, (std::string(c.what) + ": no ev_done").c_str());
		CHECK(tb.rx().empty(), "%s: no MWr (%zu)", c.what, tb.rx().size());
		tb.rx().clear();
	}
	one(tb, rra_rsp(cmp, 0x0601, 5, 0, 3), "the answer at cmp_addr after the forged ones");
	one(tb, tlp_extract(cmp, 0x0602, TLP_CPL_SC, 1, 6, 3), "a tunnel completion at cmp_addr");
}

// A stream of answers with gaps on the input and back-pressure on m_tlp: one
// record per answer, in arrival order, the stream rules kept (tlp_port.h).
static void test_stream(Tb &tb, uint32_t seed, unsigned n, double vp, double rp)
{
	char name[96];
	snprintf(name, sizeof(name), "%u answers, input valid %.0f%%, m_tlp ready %.0f%%", n, vp * 100, rp * 100);
	section(name);
	std::mt19937_64 rng(seed * 977 + n);
	std::vector<Answer> sent;
	uint64_t done0 = tb.ev_done;
	tb.valid_prob = vp;
	tb.ready_prob(rp);
	for (unsigned i = 0; i < n; i++) {
		static const uint8_t cst[4] = {TLP_CPL_SC, TLP_CPL_UR, TLP_CPL_CRS, TLP_CPL_CA};
		uint64_t addr = rng() & 0xfffffffffff0ull;   // 16-byte aligned, 48 bits
		if (rng() & 1)
			addr &= 0xfffffff0ull;   // half of them below 4 GiB
		Answer a = rng() & 1 ? rra_rsp(addr, (uint16_t)rng(), rng(), (unsigned)(rng() % 3), (uint16_t)rng())
				     : tlp_extract(addr, (uint16_t)rng(), cst[rng() % 4], (unsigned)(rng() % 3), rng(),
						   (uint16_t)rng());
		sent.push_back(a);
		tb.send(a);
	}
	tb.wait_for([&] { return tb.rx().size() >= n && tb.quiet(); }, 200 * n);
	tb.idle(20);
	CHECK_EQ(tb.rx().size(), n, "one MWr per answer");
	unsigned bad = 0;
	for (unsigned i = 0; i < n && !tb.rx().empty(); i++) {
		unsigned f0 = g_fails;
		check_record(tb.rx().front(), sent[i], REQ_ID, (std::string("record ") + std::to_string(i)).c_str());
		bad += g_fails != f0;
		tb.rx().pop_front();
	}
	CHECK_EQ(bad, 0, "records in arrival order with the right contents");
	CHECK_EQ(tb.ev_done - done0, n, "ev_done per record");
	tb.valid_prob = 1.0;
	tb.ready_prob(1.0);
}

// Back-pressure holds the record: nothing more is accepted while m_tlp stalls.
static void test_stall(Tb &tb)
{
	section("m_tlp stalled: the record waits, the input is not taken");
	tb.ready_prob(0.0);
	uint64_t acc0 = tb.accepted;
	tb.send(rra_rsp(0x10000, 0x0500, 1, 0, 3));
	tb.send(rra_rsp(0x10010, 0x0501, 2, 0, 3));
	tb.idle(100);
	CHECK_EQ(tb.accepted - acc0, 1, "one answer taken while the MWr waits");
	CHECK(tb.top()->m_tlp_valid && tb.top()->m_tlp_sop, "MWr header offered and held");
	CHECK(!tb.top()->s_ready, "s_ready low while a record is pending");
	tb.ready_prob(1.0);
	tb.run_until_quiet();
	CHECK_EQ(tb.accepted - acc0, 2, "second answer taken after the stall");
	CHECK_EQ(tb.rx().size(), 2, "both records written");
	if (tb.rx().size() == 2) {
		check_record(tb.rx()[0], rra_rsp(0x10000, 0x0500, 1, 0, 3), REQ_ID, "first after stall");
		check_record(tb.rx()[1], rra_rsp(0x10010, 0x0501, 2, 0, 3), REQ_ID, "second after stall");
	}
	tb.rx().clear();
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	Tb tb(a.seed, a.verbose);
	printf("tb_nic_host_wr: seed %u\n", a.seed);
	tb.reset();
	CHECK(!tb.top()->m_tlp_valid && tb.top()->s_ready, "idle after reset: no MWr, ready for an answer");

	test_layout(tb);
	test_req_id(tb);
	test_drop(tb);
	test_forged(tb);
	test_stall(tb);
	test_stream(tb, a.seed, 200, 0.7, 0.5);
	test_stream(tb, a.seed, 100, 1.0, 0.2);

	tb.idle(20);
	CHECK(tb.rx().empty(), "no unexpected TLPs left (%zu)", tb.rx().size());
	CHECK_EQ(tb.errors(), 0, "m_tlp stream protocol errors");
	return tb_finish("tb_nic_host_wr", "%" PRIu64 " cycles", tb.cycle());
}
