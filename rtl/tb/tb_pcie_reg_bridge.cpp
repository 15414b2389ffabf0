// SPDX-License-Identifier: Apache-2.0
//
// tb_pcie_reg_bridge: block testbench of rtl/pcie/pcie_reg_bridge.sv, the
// BAR0 register bridge between memory requests and the passthrough CPU
// interface of the generated register block. A register-block model (64
// registers of 64 bits, random stalls, acks after 0-3 cycles, one register
// that answers reads with an error) sits on the cpuif side; requests come
// with random gaps, write payload beats with random gaps, completions are
// taken with random back-pressure (tlp_port.h checks the stream rules).
//
// Judged by the PCIe Base Specification and the cpuif contract:
//   * byte enables: the bytes a write enables (first/last BE, all bytes in
//     between) and only those reach the registers (wr_biten), a write with
//     no byte enabled for a register does not access it, a zero-length write
//     accesses nothing;
//   * a 64-bit access (8-byte aligned, Length 2) is one 64-bit register
//     access; two dwords of one register are never written as two halves;
//     registers are accessed once each, in address order;
//   * completions of reads: CplD with Length = the request's, status SC,
//     byte count (table 2-37, zero-length read: 1) and lower address (from
//     the address and first BE), requester ID, tag, TC and attributes echoed,
//     completer ID = cpl_id; a register read error gives a Completer Abort
//     without data; writes (posted) get no completion;
//   * reads see the writes that arrived before them (one request at a time);
//   * the data read back is what the byte-enabled writes left (a shadow
//     memory of bytes kept by the testbench, not by the register model).
// Unsupported requests (UR) are the receive path's job (pcie_ep_rx).
//
// Usage: tb_pcie_reg_bridge [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "Vpcie_reg_bridge.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"

static const uint64_t BAR0 = 0xfe000000;
static const unsigned NREGS = 64;          // ADDR_W = 9: 512 bytes
static const unsigned ERR_REG = 0x30;      // register index whose reads fail
static const uint16_t RC_ID = 0x0000;
static const uint16_t CPL_ID = 0x0300;

// Byte count of the completion of a memory read (PCIe Base Spec. table 2-37).
static unsigned mrd_byte_count(unsigned len, uint8_t fbe, uint8_t lbe)
{
	if (len == 1) {
		if (!fbe)
			return 1;
		int lo = __builtin_ctz(fbe), hi = 31 - __builtin_clz(fbe);
		return (unsigned)(hi - lo + 1);
	}
	int lo = fbe ? __builtin_ctz(fbe) : 0;
	int hi = lbe ? 31 - __builtin_clz(lbe) : 3;
	return len * 4 - (unsigned)lo - (unsigned)(3 - hi);
}

class Tb : public TbModel<Vpcie_reg_bridge> {
public:
	Tb(uint32_t seed, bool verbose)
		: req("req", &top()->req_valid, &top()->req_ready, &top()->req, nullptr, seed * 7 + 1),
		  cpl("m_cpl", TLP_PINS(top(), m_cpl), seed * 7 + 2), rng_(seed * 7 + 3)
	{
		req.verbose = cpl.verbose = verbose;
		top()->cpl_id = CPL_ID;
		for (unsigned i = 0; i < NREGS; i++)
			regs[i] = 0;
	}

	TlpReqSource req;
	TlpSink<VlWide<4>> cpl;
	double pl_prob = 1.0, stall_prob = 0.0;
	unsigned max_ack_delay = 0;

	// register model and its log of accesses
	uint64_t regs[NREGS];
	struct Access {
		bool wr;
		unsigned reg;
		uint64_t data, biten;
	};
	std::vector<Access> log;
	unsigned cpuif_errors = 0;

	void send_payload(const uint32_t *d, unsigned n)
	{
		for (unsigned i = 0; i < n; i += 4) {
			Beat b{};
			unsigned k = n - i < 4 ? n - i : 4;
			for (unsigned j = 0; j < k; j++)
				b.dw[j] = d[i + j];
			b.keep = (uint8_t)((1u << k) - 1);
			b.last = i + 4 >= n;
			plq_.push_back(b);
		}
	}
	bool quiet() const { return req.idle() && plq_.empty() && !pl_presenting_ && !pending_; }

private:
	struct Beat {
		uint32_t dw[4];
		uint8_t keep;
		bool last;
	};
	bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

	void drive() override
	{
		Vpcie_reg_bridge *m = top();
		req.drive();
		cpl.drive();
		if (!pl_presenting_ && !plq_.empty() && coin(pl_prob)) {
			pl_cur_ = plq_.front();
			plq_.pop_front();
			pl_presenting_ = true;
		}
		for (int i = 0; i < 4; i++)
			m->s_pl_data[i] = pl_presenting_ ? pl_cur_.dw[i] : 0;
		m->s_pl_keep = pl_presenting_ ? pl_cur_.keep : 0;
		m->s_pl_last = pl_presenting_ && pl_cur_.last;
		m->s_pl_valid = pl_presenting_;
		// the register block: stall, then ack after a delay (0: the same cycle)
		m->cpuif_req_stall_wr = m->cpuif_req_stall_rd = coin(stall_prob);
		m->cpuif_rd_ack = m->cpuif_wr_ack = m->cpuif_rd_err = m->cpuif_wr_err = 0;
		m->cpuif_rd_data = 0;
		if (pending_ && ack_in_ == 0)
			ack(pend_);
	}
	void ack(const Access &a)
	{
		Vpcie_reg_bridge *m = top();
		if (a.wr) {
			m->cpuif_wr_ack = 1;
		} else {
			m->cpuif_rd_ack = 1;
			m->cpuif_rd_err = a.reg == ERR_REG;
			m->cpuif_rd_data = a.reg == ERR_REG ? 0 : regs[a.reg];
		}
	}
	void sample() override
	{
		Vpcie_reg_bridge *m = top();
		bool acked = m->cpuif_rd_ack || m->cpuif_wr_ack;
		if (m->cpuif_req) {
			bool stalled = m->cpuif_req_is_wr ? m->cpuif_req_stall_wr : m->cpuif_req_stall_rd;
			if (pending_) {
				fprintf(stderr, "  cpuif: request while one is outstanding\n");
				cpuif_errors++;
			} else if (!stalled) {
				Access a{(bool)m->cpuif_req_is_wr, (unsigned)(m->cpuif_addr >> 3), m->cpuif_wr_data,
					 m->cpuif_wr_biten};
				if (m->cpuif_addr & 7) {
					fprintf(stderr, "  cpuif: address 0x%x not 8-byte aligned\n", m->cpuif_addr);
					cpuif_errors++;
				}
				if (a.wr)
					regs[a.reg] = (regs[a.reg] & ~a.biten) | (a.data & a.biten);
				log.push_back(a);
				unsigned delay = max_ack_delay ? (unsigned)(rng_() % (max_ack_delay + 1)) : 0;
				if (delay == 0) {
					ack(a);   // in the same cycle: combinational ack
					m->eval();
					acked = true;
				} else {
					pending_ = true;
					pend_ = a;
					ack_in_ = delay;
				}
			}
		} else if (acked && !pending_) {
			fprintf(stderr, "  cpuif: ack without a request\n");
			cpuif_errors++;
		}
		if (pending_ && acked && ack_in_ == 0)
			pending_ = false;
		else if (pending_ && ack_in_ > 0)
			ack_in_--;
		req.sample();
		cpl.sample();
		if (m->s_pl_valid && m->s_pl_ready)
			pl_presenting_ = false;
	}

	std::mt19937 rng_;
	std::deque<Beat> plq_;
	Beat pl_cur_{};
	bool pl_presenting_ = false;
	bool pending_ = false;
	Access pend_{};
	unsigned ack_in_ = 0;
};

// ---------------------------------------------------------------------------
// The host side: requests and the shadow of the register bytes
// ---------------------------------------------------------------------------
static uint8_t shadow[NREGS * 8];
static uint8_t g_tag;

// Byte address range -> dword address, Length and byte enables.
static void bes(unsigned off, unsigned size, unsigned *dwa, unsigned *len, uint8_t *fbe, uint8_t *lbe)
{
	uint64_t a;
	tlp_access_bes(off, size, &a, len, fbe, lbe);
	*dwa = (unsigned)a;
}

static void write(Tb &tb, unsigned dwa, unsigned len, uint8_t fbe, uint8_t lbe, const uint32_t *d)
{
	struct tlp t;
	tlp_mwr(&t, BAR0 + dwa, d, len, fbe, lbe, RC_ID);
	tb.req.send(t);
	tb.send_payload(d, len);
	for (unsigned i = 0; i < len; i++) {
		uint8_t be = len == 1 ? fbe : i == 0 ? fbe : i == len - 1 ? lbe : 0xf;
		for (unsigned b = 0; b < 4; b++)
			if (be >> b & 1)
				shadow[dwa + 4 * i + b] = (uint8_t)(d[i] >> (8 * b));
	}
}

// A read; checks the completion against the request and returns its payload.
static bool read(Tb &tb, unsigned dwa, unsigned len, uint8_t fbe, uint8_t lbe, std::vector<uint32_t> *out,
		 const char *what, uint32_t dw0_or = 0, bool expect_ca = false)
{
	struct tlp t;
	uint8_t tag = g_tag++;
	tlp_mrd(&t, BAR0 + dwa, len, fbe, lbe, RC_ID, tag);
	tb.req.send(t, dw0_or);
	if (!tb.wait_for([&] { return !tb.cpl.rx().empty(); }, 3000)) {
		CHECK(false, "%s: no completion", what);
		return false;
	}
	RxTlp r = tb.cpl.rx().front();
	tb.cpl.rx().pop_front();
	const struct tlp &c = r.t;
	std::string w(what);
	CHECK_EQ(c.tag, tag, (w + ": tag").c_str());
	CHECK_EQ(c.requester_id, RC_ID, (w + ": requester ID").c_str());
	CHECK_EQ(c.completer_id, CPL_ID, (w + ": completer ID").c_str());
	CHECK_EQ(r.hdr[0] & 0x0074'3000u, dw0_or & 0x0074'3000u, (w + ": TC and attributes echoed").c_str());
	if (expect_ca) {
		CHECK(c.kind == TLP_CPL && c.status == TLP_CPL_CA, "%s: CA without data (kind %d status %u)", what,
		      c.kind, c.status);
		return false;
	}
	CHECK(c.kind == TLP_CPLD && c.status == TLP_CPL_SC, "%s: CplD SC (kind %d status %u)", what, c.kind,
	      c.status);
	CHECK_EQ(c.len_dw, len, (w + ": Length").c_str());
	CHECK_EQ(c.byte_count ? c.byte_count : 4096, mrd_byte_count(len, fbe, lbe), (w + ": byte count").c_str());
	unsigned lo = fbe ? __builtin_ctz(fbe) : 0;
	CHECK_EQ(c.lower_addr, ((BAR0 + dwa) & 0x7c) | lo, (w + ": lower address").c_str());
	if (c.kind != TLP_CPLD || c.payload_dw != len)
		return false;
	out->assign(c.payload, c.payload + len);
	// the enabled bytes are what the writes left
	unsigned bad = 0;
	for (unsigned i = 0; i < len; i++) {
		uint8_t be = len == 1 ? fbe : i == 0 ? fbe : i == len - 1 ? lbe : 0xf;
		for (unsigned b = 0; b < 4; b++)
			if ((be >> b & 1) && (uint8_t)(c.payload[i] >> (8 * b)) != shadow[dwa + 4 * i + b])
				bad++;
	}
	CHECK_EQ(bad, 0, (w + ": bytes read = bytes written").c_str());
	return true;
}

static void settle(Tb &tb)
{
	tb.wait_for([&] { return tb.quiet(); }, 5000);
	tb.idle(10);
}

static void test_widths(Tb &tb)
{
	std::vector<uint32_t> d;
	section("64-bit access: one register access, all bytes");
	uint32_t q[2] = {0x89abcdef, 0x01234567};
	tb.log.clear();
	write(tb, 0x08, 2, 0xf, 0xf, q);
	settle(tb);
	CHECK_EQ(tb.log.size(), 1, "8-byte write: one cpuif access");
	if (tb.log.size() == 1) {
		CHECK(tb.log[0].wr && tb.log[0].reg == 1, "8-byte write to register 1");
		CHECK_EQ(tb.log[0].biten, ~0ull, "8-byte write: wr_biten all ones");
		CHECK_EQ(tb.log[0].data, 0x0123456789abcdefull, "8-byte write: data, dword 0 low");
	}
	tb.log.clear();
	read(tb, 0x08, 2, 0xf, 0xf, &d, "8-byte read");
	CHECK_EQ(tb.log.size(), 1, "8-byte read: one cpuif access");
	CHECK(!d.empty() && d[0] == 0x89abcdef && d[1] == 0x01234567, "8-byte read data");

	section("4-byte accesses reach either half");
	tb.log.clear();
	uint32_t v = 0x55aa55aa;
	write(tb, 0x14, 1, 0xf, 0, &v);
	settle(tb);
	CHECK(tb.log.size() == 1 && tb.log[0].reg == 2 && tb.log[0].biten == 0xffffffff00000000ull &&
		      (tb.log[0].data >> 32) == v,
	      "upper half: one access, upper biten and data");
	v = 0x11223344;
	tb.log.clear();
	write(tb, 0x10, 1, 0xf, 0, &v);
	settle(tb);
	CHECK(tb.log.size() == 1 && tb.log[0].biten == 0x00000000ffffffffull && (uint32_t)tb.log[0].data == v,
	      "lower half: one access, lower biten and data");
	read(tb, 0x14, 1, 0xf, 0, &d, "4-byte read of the upper half");
	read(tb, 0x10, 1, 0xf, 0, &d, "4-byte read of the lower half");

	section("1- and 2-byte accesses by byte enables");
	for (unsigned off = 0x18; off < 0x20; off++) {
		uint32_t b = 0xa0u + off;
		unsigned dwa, len;
		uint8_t fbe, lbe;
		bes(off, 1, &dwa, &len, &fbe, &lbe);
		tb.log.clear();
		uint32_t dv = b << (8 * (off & 3));
		write(tb, dwa, len, fbe, lbe, &dv);
		settle(tb);
		CHECK(tb.log.size() == 1 && tb.log[0].biten == 0xffull << (8 * (off & 7)),
		      "1-byte write at 0x%x: biten of that byte only", off);
	}
	for (unsigned off = 0x18; off < 0x20; off++) {
		unsigned dwa, len;
		uint8_t fbe, lbe;
		bes(off, 1, &dwa, &len, &fbe, &lbe);
		read(tb, dwa, len, fbe, lbe, &d, "1-byte read");
	}
	unsigned dwa, len;
	uint8_t fbe, lbe;
	bes(0x21, 2, &dwa, &len, &fbe, &lbe);
	uint32_t hv = 0x00beef00;
	tb.log.clear();
	write(tb, dwa, len, fbe, lbe, &hv);
	settle(tb);
	CHECK(tb.log.size() == 1 && tb.log[0].biten == 0x0000000000ffff00ull, "2-byte write at 0x21: biten");
	read(tb, dwa, len, fbe, lbe, &d, "2-byte read at 0x21");
	read(tb, 0x20, 1, 0x0, 0, &d, "zero-length read (byte count 1)");

	section("zero-length write: no register access");
	tb.log.clear();
	uint32_t z = 0xffffffff;
	write(tb, 0x28, 1, 0x0, 0, &z);
	settle(tb);
	CHECK_EQ(tb.log.size(), 0, "BE 0000 write: no cpuif access");
}

static void test_bursts(Tb &tb)
{
	std::vector<uint32_t> d;
	section("bursts: one access per register, in address order, never two halves");
	// odd start, 3 dwords: upper half of reg 5, all of reg 6
	uint32_t w3[3] = {0x11111111, 0x22222222, 0x33333333};
	tb.log.clear();
	write(tb, 0x2c, 3, 0xf, 0xf, w3);
	settle(tb);
	CHECK(tb.log.size() == 2 && tb.log[0].reg == 5 && tb.log[1].reg == 6 &&
		      tb.log[0].biten == 0xffffffff00000000ull && tb.log[1].biten == ~0ull,
	      "3 dwords from an odd dword: reg 5 upper, reg 6 whole");
	// 16 dwords, partial first and last bytes
	uint32_t w16[16];
	for (unsigned i = 0; i < 16; i++)
		w16[i] = 0x01010101u * (i + 1);
	tb.log.clear();
	write(tb, 0x40, 16, 0xe, 0x7, w16);
	settle(tb);
	bool order = tb.log.size() == 8;
	for (unsigned i = 0; order && i < 8; i++)
		order = tb.log[i].wr && tb.log[i].reg == 8 + i;
	CHECK(order, "16-dword write: 8 accesses, registers 8..15 in order (%zu)", tb.log.size());
	if (order) {
		CHECK_EQ(tb.log[0].biten, 0xffffffffffffff00ull, "first BE 1110 -> biten");
		CHECK_EQ(tb.log[7].biten, 0x00ffffffffffffffull, "last BE 0111 -> biten");
	}
	tb.log.clear();
	read(tb, 0x40, 16, 0xf, 0xf, &d, "16-dword read");
	CHECK_EQ(tb.log.size(), 8, "16-dword read: 8 register reads");
	read(tb, 0x44, 13, 0xc, 0x3, &d, "13-dword read from an odd dword, partial BEs");
	read(tb, 0x2c, 3, 0xf, 0xf, &d, "3-dword read");
}

static void test_errors(Tb &tb)
{
	std::vector<uint32_t> d;
	section("register read error: Completer Abort without data");
	read(tb, ERR_REG * 8, 2, 0xf, 0xf, &d, "read of the failing register", 0, true);
	read(tb, ERR_REG * 8 - 8, 4, 0xf, 0xf, &d, "burst over the failing register", 0, true);
	read(tb, ERR_REG * 8 + 8, 2, 0xf, 0xf, &d, "next register reads normally");
	section("TC and attributes echoed");
	read(tb, 0x08, 2, 0xf, 0xf, &d, "TC 6, IDO, RO, NS", 6u << 20 | 1u << 18 | 3u << 12);
}

// Random writes and reads back to back with stalls, ack delays, gaps and
// back-pressure: reads see all writes before them.
static void test_random(Tb &tb, uint32_t seed)
{
	section("random writes and reads, stalls, ack delays, back-pressure");
	std::mt19937 rng(seed * 31 + 7);
	tb.req.prob = 0.6;
	tb.pl_prob = 0.6;
	tb.cpl.prob = 0.5;
	tb.stall_prob = 0.3;
	tb.max_ack_delay = 3;
	unsigned fails0 = g_fails, reads = 0;
	for (unsigned i = 0; i < 300; i++) {
		unsigned len = 1 + rng() % 16;
		unsigned dwa = 4 * (rng() % (NREGS * 2 - len + 1));
		if (dwa / 8 <= ERR_REG && (dwa + 4 * len - 1) / 8 >= ERR_REG)
			continue;   // the failing register: test_errors
		// contiguous byte enables (PCIe: required beyond 1 DW), any pattern for 1 DW
		static const uint8_t firsts[4] = {0xf, 0xe, 0xc, 0x8}, lasts[4] = {0x1, 0x3, 0x7, 0xf};
		uint8_t fbe = len == 1 ? rng() & 0xf : firsts[rng() % 4], lbe = len == 1 ? 0 : lasts[rng() % 4];
		bool is_wr = rng() % 2;
		if (is_wr) {
			uint32_t d[16];
			for (unsigned k = 0; k < len; k++)
				d[k] = (uint32_t)rng();
			write(tb, dwa, len, fbe, lbe, d);
		} else {
			std::vector<uint32_t> d;
			read(tb, dwa, len, fbe, lbe, &d, "random read");
			reads++;
		}
	}
	settle(tb);
	CHECK_EQ(g_fails - fails0, 0, "random traffic without a failed check");
	printf("   %u reads\n", reads);
	tb.req.prob = tb.pl_prob = tb.cpl.prob = 1.0;
	tb.stall_prob = 0;
	tb.max_ack_delay = 0;
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	Tb tb(a.seed, a.verbose);
	tb.req.prob = 0.8;
	tb.cpl.prob = 0.7;
	tb.pl_prob = 0.8;
	printf("tb_pcie_reg_bridge: seed %u\n", a.seed);
	tb.reset();

	test_widths(tb);
	test_bursts(tb);
	test_errors(tb);
	test_random(tb, a.seed);

	tb.idle(20);
	CHECK(tb.cpl.rx().empty(), "no unexpected completions (writes are posted) (%zu)", tb.cpl.rx().size());
	CHECK_EQ(tb.cpl.errors(), 0, "m_cpl stream protocol errors");
	CHECK_EQ(tb.cpuif_errors, 0, "cpuif protocol errors");
	return tb_finish("tb_pcie_reg_bridge", "%" PRIu64 " cycles", tb.cycle());
}
