// SPDX-License-Identifier: Apache-2.0
//
// tb_epf_test: Verilator testbench of the PCI endpoint test function
// (rtl/accel/epf_test_top, docs/epf-test.md).
//
// The testbench is the root complex, host memory and Linux's host driver
// drivers/misc/pci_endpoint_test.c: it enumerates and sizes the six BARs,
// walks the capabilities, runs the driver's BAR test (0xA0A0A0A0 over every
// BAR, BAR0 only at offset 0), raises legacy, MSI (1..32 vectors) and MSI-X
// (1..2048) interrupts as the driver does and checks the messages, and runs
// READ/WRITE/COPY with the driver's CRC (crc32_le(~0, buf, size)) for many
// sizes, alignments, Max_Read_Request_Size 128..4096 and Max_Payload_Size
// 128..512 B, with and without FLAG_USE_DMA, against a host-memory model that
// answers reads with completions split at random 64-byte RCBs after random
// delays and back-pressures the device. Every TLP the device sends is judged
// by the independent protocol checker (docs/tlp-check.md: payload and read
// length against MPS/MRRS, no 4 KiB crossing, byte enables, header format,
// tags); the testbench itself checks the requester ID and the stream
// protocol (stable while not ready, sop/eop, keep).
//
// Usage: Vepf_test_top [--seed N] [--bench]
//   --bench  zero-latency host: DMA bytes per cycle by MRRS/MPS
//   TB_TRACE=1 prints every TLP the device sends

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <unordered_map>
#include <vector>

#include "Vepf_test_top.h"
#include "tb.h"
#include "host_mem.h"
#include "tlp.h"
#include "tlp_port.h"
#include "verilated.h"

static const uint16_t RC_ID = 0x0000;
static const uint16_t DEV_ID = 0x0100;  // bus 1, device 0, function 0
static const uint32_t BAR_ADDR[6] = {0xe0000000u, 0xe0100000u, 0xe0200000u,
				     0xe0300000u, 0xe0400000u, 0xe0800000u};
static const uint32_t BAR_SIZE[6] = {65536, 512, 1024, 16384, 131072, 1048576};
static const uint64_t UR_HOST_BASE = 0xdead0000ull;  // the host answers reads with UR
static const uint64_t MSI_ADDR = 0xfee00000ull;
static const uint64_t MSIX_ADDR = 0x1fee00000ull;    // above 4 GiB: 4-DW headers

// pci_endpoint_test.c's registers and bits
enum {
	R_MAGIC = 0x0, R_COMMAND = 0x4, R_STATUS = 0x8, R_SRC_LO = 0x0c, R_SRC_HI = 0x10,
	R_DST_LO = 0x14, R_DST_HI = 0x18, R_SIZE = 0x1c, R_CHECKSUM = 0x20, R_IRQ_TYPE = 0x24,
	R_IRQ_NUMBER = 0x28, R_FLAGS = 0x2c,
};
enum {
	CMD_LEGACY = 1, CMD_MSI = 2, CMD_MSIX = 4, CMD_READ = 8, CMD_WRITE = 16, CMD_COPY = 32,
};
enum {
	ST_READ_OK = 1, ST_READ_FAIL = 2, ST_WRITE_OK = 4, ST_WRITE_FAIL = 8, ST_COPY_OK = 16,
	ST_COPY_FAIL = 32, ST_IRQ = 64,
};

// Linux's crc32_le(~0, p, n): reflected 0xEDB88320, no final inversion.
static uint32_t crc32_le_linux(const uint8_t *p, size_t n)
{
	return crc32_reflected(p, n);
}


// A TLP the device sent: raw header and payload (any length up to 1024 dwords).
struct DevTlp {
	uint32_t h[4];
	std::vector<uint32_t> pl;
	unsigned fmt() const { return h[0] >> 29; }
	unsigned type() const { return (h[0] >> 24) & 0x1f; }
	unsigned len() const { return (h[0] & 0x3ff) ? (h[0] & 0x3ff) : 1024; }
	uint16_t req_id() const { return (uint16_t)(h[1] >> 16); }
	uint8_t tag() const { return (uint8_t)(h[1] >> 8); }
	unsigned fbe() const { return h[1] & 0xf; }
	unsigned lbe() const { return (h[1] >> 4) & 0xf; }
	uint64_t addr() const
	{
		return (fmt() & 1) ? ((uint64_t)h[2] << 32 | (h[3] & ~3u)) : (h[2] & ~3u);
	}
	bool is_cpl() const { return type() == 0x0a; }
};

struct Msg {
	uint64_t addr;
	uint32_t data;
	uint64_t seq;
};

struct Sim {
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vepf_test_top> top;
	std::mt19937_64 rng;
	uint64_t cycle = 0;
	bool bench = false;
	bool trace = getenv("TB_TRACE") != nullptr;
	std::unique_ptr<TlpSource<VlWide<4>>> src;
	// the protocol checker of the link (docs/tlp-check.md), the one judge of
	// the PCIe rules (rx() checks only the stream protocol and the function):
	// Device Control as programmed (cfg_write), the host model without a
	// read-size limit of its own
	TlpLink link{"host link"};
	std::multimap<uint64_t, std::vector<TlpBeat>> sched;
	uint64_t last_sched_end = 0;
	HostMem host;
	std::deque<DevTlp> cpls;
	std::vector<Msg> msgs;
	uint64_t mwr_seq = 0, last_data_seq = 0;
	unsigned mps = 128, mrrs = 512;  // what the testbench programmed
	unsigned max_rd = 0, max_wr = 0;  // largest request / payload seen (bytes of Length)
	int errors = 0;
	int ready_pct = 70, gap_pct = 20, max_delay = 40;
	uint8_t rc_tag = 0;
	unsigned outstanding = 0;
	// m_tlp sink state
	bool stalled = false, in_tlp = false;
	TlpBeat last{};
	DevTlp cur;

	explicit Sim(uint64_t seed) : ctx(new VerilatedContext), rng(seed)
	{
		top.reset(new Vepf_test_top(ctx.get()));
		src = std::make_unique<TlpSource<VlWide<4>>>("s_tlp", TLP_PINS(top.get(), s_tlp),
							     (uint32_t)seed * 7 + 1);
		link.attach_in(*src);
		link.set_in(128, 4096);
		top->clk = 0;
		top->rst = 1;
		top->m_tlp_ready = 0;
		for (int i = 0; i < 5; i++)
			step();
		top->rst = 0;
		step();
	}
	unsigned rnd(unsigned n) { return n ? (unsigned)(rng() % n) : 0; }
	void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
	{
		va_list ap;
		va_start(ap, fmt);
		printf("  FAIL ");
		vprintf(fmt, ap);
		printf("\n");
		va_end(ap);
		errors++;
	}

	void step()
	{
		while (!sched.empty() && sched.begin()->first <= cycle) {
			src->send_beats(sched.begin()->second);
			sched.erase(sched.begin());
		}
		src->prob = bench ? 1.0 : (100 - gap_pct) / 100.0;
		src->drive();
		top->m_tlp_ready = bench || (int)rnd(100) < ready_pct;
		top->clk = 0;
		top->eval();
		src->sample();
		sample_out();
		top->clk = 1;
		top->eval();
		cycle++;
	}
	void run(int n)
	{
		for (int i = 0; i < n; i++)
			step();
	}

	// ---- the device's output stream: protocol, reassembly
	void sample_out()
	{
		TlpBeat b{};
		for (int i = 0; i < 4; i++)
			b.dw[i] = top->m_tlp_data[i];
		b.keep = top->m_tlp_keep;
		b.sop = top->m_tlp_sop;
		b.eop = top->m_tlp_eop;
		if (top->m_tlp_valid) {
			if (stalled && memcmp(&b, &last, sizeof(b)) != 0)
				fail("m_tlp beat changed while not ready");
			last = b;
		} else if (stalled) {
			fail("m_tlp valid dropped before ready");
		}
		stalled = top->m_tlp_valid && !top->m_tlp_ready;
		if (!(top->m_tlp_valid && top->m_tlp_ready))
			return;
		if (b.sop) {
			if (in_tlp)
				fail("sop inside a TLP");
			in_tlp = true;
			memcpy(cur.h, b.dw, sizeof(cur.h));
			cur.pl.clear();
			unsigned hdw = (cur.h[0] >> 29) & 1 ? 4 : 3;
			if (b.keep != (hdw == 4 ? 0xf : 0x7))
				fail("header keep 0x%x", b.keep);
		} else {
			if (!in_tlp) {
				fail("beat outside a TLP");
				return;
			}
			if (b.keep != 1 && b.keep != 3 && b.keep != 7 && b.keep != 15)
				fail("keep not contiguous");
			if (!b.eop && b.keep != 15)
				fail("partial beat before eop");
			for (int j = 0; j < 4; j++)
				if (b.keep & (1u << j))
					cur.pl.push_back(b.dw[j]);
		}
		if (b.eop) {
			in_tlp = false;
			// the PCIe rules (payload vs Length, byte enables, 4 KiB, MPS,
			// MRRS, header format, tags, completions) are the checker's
			tlp_check_tlp(&link.out, cur.h, cur.pl.data(), (unsigned)cur.pl.size());
			if (trace)
				printf("    m_tlp <- fmt %u type 0x%x len %u addr 0x%" PRIx64 " be %x/%x\n",
				       cur.fmt(), cur.type(), cur.len(), cur.addr(), cur.fbe(), cur.lbe());
			rx(cur);
		}
	}

	void rx(const DevTlp &t)
	{
		if (t.is_cpl()) {
			cpls.push_back(t);
			return;
		}
		if (t.type() != 0 || t.req_id() != DEV_ID) {
			fail("unexpected TLP type 0x%x requester %04x", t.type(), t.req_id());
			return;
		}
		uint64_t a = t.addr();
		unsigned bytes = t.len() * 4;
		if (t.fmt() & 2) {
			// MWr
			if (bytes > max_wr)
				max_wr = bytes;
			mwr_seq++;
			if (a == MSI_ADDR || (a >> 20) == (MSIX_ADDR >> 20)) {
				msgs.push_back({a, t.pl[0], mwr_seq});
				return;
			}
			last_data_seq = mwr_seq;
			for (unsigned i = 0; i < t.len(); i++) {
				unsigned be = i == 0 ? t.fbe() : (i == t.len() - 1 ? t.lbe() : 0xf);
				for (int k = 0; k < 4; k++)
					if (be & (1u << k))
						*host.byte(a + 4 * i + k) = (uint8_t)(t.pl[i] >> (8 * k));
			}
			return;
		}
		// MRd
		if (bytes > max_rd)
			max_rd = bytes;
		uint64_t when = cycle + (bench ? 0 : rnd(max_delay + 1));
		if (when < last_sched_end)
			when = last_sched_end;
		// byte count from the byte enables (PCIe table 2-37)
		unsigned lead = __builtin_ctz(t.fbe() | 0x10);
		unsigned trail = t.len() == 1 ? 0 : 3 - (31 - __builtin_clz(t.lbe()));
		unsigned bc = t.len() == 1 ? (unsigned)(32 - __builtin_clz(t.fbe()) - lead) : bytes - lead - trail;
		if ((a >> 16) == (UR_HOST_BASE >> 16)) {
			struct tlp c;
			tlp_cpl(&c, RC_ID, TLP_CPL_UR, t.req_id(), t.tag(), (uint8_t)((a + lead) & 0x7f),
				(uint16_t)bc, nullptr, 0);
			sched.emplace(when, tlp_to_beats(c));
			last_sched_end = when;
			return;
		}
		// completions at random RCB (64 B) multiples, at most 256 B and MPS each
		uint64_t cur_a = a, end = a + bytes;
		unsigned remaining = bc;
		bool first = true;
		while (cur_a < end) {
			uint64_t e = bench ? ((cur_a | 255) + 1) : (cur_a | 63) + 1 + 64 * rnd(4);
			// no completion above the device's MPS (PCIe 2.2.2), still on an RCB boundary
			if (e - cur_a > mps)
				e = (cur_a + mps) & ~63ull;
			if (e > end)
				e = end;
			unsigned n = (unsigned)(e - cur_a) / 4;
			uint32_t d[64];
			host.read(cur_a, (uint8_t *)d, n * 4);
			struct tlp c;
			uint8_t la = (uint8_t)((first ? cur_a + lead : cur_a) & 0x7f);
			tlp_cpl(&c, RC_ID, TLP_CPL_SC, t.req_id(), t.tag(), la, (uint16_t)(remaining & 0xfff),
				d, n);
			sched.emplace(when, tlp_to_beats(c));
			unsigned got = n * 4 - (first ? lead : 0);
			remaining = got >= remaining ? 0 : remaining - got;
			first = false;
			if (!bench)
				when += rnd(3);
			cur_a = e;
		}
		last_sched_end = when;
	}

	// ---- root complex requests
	std::vector<DevTlp> wait_cpl(uint8_t tag, int limit = 100000)
	{
		std::vector<DevTlp> out;
		for (int i = 0; i < limit; i++) {
			for (auto it = cpls.begin(); it != cpls.end();) {
				if (((it->h[2] >> 8) & 0xff) == tag) {
					out.push_back(*it);
					it = cpls.erase(it);
				} else {
					++it;
				}
			}
			if (!out.empty()) {
				const DevTlp &l = out.back();
				unsigned bc = (l.h[1] & 0xfff) ? (l.h[1] & 0xfff) : 4096;
				unsigned la = l.h[2] & 0x7f;
				if (((l.h[1] >> 13) & 7) != 0 || !((l.h[0] >> 30) & 1) ||
				    l.len() * 4 - (la & 3) >= bc)
					return out;
			}
			step();
		}
		fail("timeout waiting for completion tag %u", tag);
		return out;
	}
	uint32_t cfg_read(uint16_t reg)
	{
		struct tlp t;
		uint8_t tag = rc_tag++;
		tlp_cfg(&t, false, 0, DEV_ID, reg, 0xf, 0, RC_ID, tag);
		src->send(t);
		auto c = wait_cpl(tag);
		if (c.size() != 1 || c[0].pl.size() != 1)
			return 0xffffffff;
		return c[0].pl[0];
	}
	void cfg_write(uint16_t reg, uint32_t v, uint8_t be = 0xf)
	{
		struct tlp t;
		uint8_t tag = rc_tag++;
		tlp_cfg(&t, true, 0, DEV_ID, reg, be, v, RC_ID, tag);
		if (reg == 0x48 && (be & 3) == 3)
			link.devctl((uint16_t)v);
		src->send(t);
		auto c = wait_cpl(tag);
		if (c.size() != 1 || ((c[0].h[1] >> 13) & 7) != 0)
			fail("CfgWr 0x%x not completed", reg);
	}
	// read up to 256 bytes; returns the completion status
	unsigned mem_read(uint64_t addr, unsigned size, uint8_t *out)
	{
		uint64_t dwa;
		unsigned ndw;
		uint8_t fbe, lbe;
		tlp_access_bes(addr, size, &dwa, &ndw, &fbe, &lbe);
		struct tlp t;
		uint8_t tag = rc_tag++;
		tlp_mrd(&t, dwa, ndw, fbe, lbe, RC_ID, tag);
		src->send(t);
		auto c = wait_cpl(tag);
		if (c.empty())
			return 0xff;
		unsigned st = (c[0].h[1] >> 13) & 7;
		if (st)
			return st;
		unsigned got = 0;
		uint64_t cur_a = addr;
		for (auto &p : c) {
			unsigned off = (unsigned)(cur_a & 3);
			unsigned n = (unsigned)p.pl.size() * 4 - off;
			if (n > size - got)
				n = size - got;
			if ((p.h[2] & 0x7f) != (cur_a & 0x7f))
				fail("completion lower address 0x%x, want 0x%x", p.h[2] & 0x7f,
				     (unsigned)(cur_a & 0x7f));
			memcpy(out + got, (const uint8_t *)p.pl.data() + off, n);
			got += n;
			cur_a += n;
		}
		if (got != size)
			fail("read %u of %u bytes", got, size);
		return 0;
	}
	void mem_write(uint64_t addr, unsigned size, const uint8_t *in)
	{
		struct tlp t;
		tlp_mwr_bytes(&t, addr, in, size, RC_ID);
		src->send(t);
	}
	uint32_t rd32(uint64_t a)
	{
		uint32_t v = 0xffffffff;
		mem_read(a, 4, (uint8_t *)&v);
		return v;
	}
	void wr32(uint64_t a, uint32_t v) { mem_write(a, 4, (uint8_t *)&v); }
	void flush()
	{
		while (!src->idle())
			step();
		run(4);
	}
	uint32_t reg(unsigned off) { return rd32(BAR_ADDR[0] + off); }
	void wreg(unsigned off, uint32_t v) { wr32(BAR_ADDR[0] + off, v); }
	void set_devctl(unsigned mps_b, unsigned mrrs_b)
	{
		unsigned me = __builtin_ctz(mps_b) - 7, re = __builtin_ctz(mrrs_b) - 7;
		cfg_write(0x48, (re << 12) | (me << 5) | 0x10, 0x3);
		mps = mps_b;
		mrrs = mrrs_b;
	}
};

static int check_errors(Sim &s, const char *what)
{
	CHECK(s.errors == 0, "%s: %d protocol errors", what, s.errors);
	int e = s.errors;
	s.errors = 0;
	return e;
}

static void enumerate(Sim &s)
{
	section("config space: identity, BARs, capabilities");
	uint32_t id = s.cfg_read(0x00);
	CHECK_EQ(id, 0x01011ee7u, "vendor/device");
	CHECK_EQ(s.cfg_read(0x08) >> 8, 0xff0000u, "class");
	CHECK_EQ(s.cfg_read(0x3c) >> 8 & 0xff, 1u, "interrupt pin INTA");
	for (int n = 0; n < 6; n++) {
		s.cfg_write(0x10 + 4 * n, 0xffffffff);
		uint32_t m = s.cfg_read(0x10 + 4 * n);
		CHECK_EQ(m, ~(BAR_SIZE[n] - 1), "BAR size mask (32-bit, non-prefetchable memory)");
		s.cfg_write(0x10 + 4 * n, BAR_ADDR[n]);
		CHECK_EQ(s.cfg_read(0x10 + 4 * n), BAR_ADDR[n], "BAR address");
	}
	// capability chain: PCIe 0x40 -> MSI 0x80 -> MSI-X 0xA0
	CHECK_EQ(s.cfg_read(0x34) & 0xff, 0x40u, "capability pointer");
	uint32_t exp = s.cfg_read(0x40);
	CHECK_EQ(exp & 0xffff, 0x8010u, "PCIe capability, next MSI");
	CHECK_EQ(s.cfg_read(0x44) & 7, 5u, "DevCap Max_Payload_Size Supported 4096");
	uint32_t msi = s.cfg_read(0x80);
	CHECK_EQ(msi & 0xffff, 0xa005u, "MSI capability, next MSI-X");
	CHECK_EQ((msi >> 17) & 7, 5u, "MSI multiple message capable 32");
	CHECK((msi >> 23) & 1, "MSI 64-bit");
	CHECK((msi >> 24) & 1, "MSI per-vector masking");
	uint32_t msix = s.cfg_read(0xa0);
	CHECK_EQ(msix & 0xffff, 0x0011u, "MSI-X capability, last");
	CHECK_EQ((msix >> 16) & 0x7ff, 2047u, "MSI-X table size 2048");
	CHECK_EQ(s.cfg_read(0xa4), 0x8000u, "MSI-X table BAR0 + 0x8000");
	CHECK_EQ(s.cfg_read(0xa8), 0x200u, "MSI-X PBA BAR0 + 0x200");
	s.cfg_write(0x04, 0x0006, 0x3);   // memory space, bus master
	s.set_devctl(128, 512);
	check_errors(s, "config");
}

// pci_endpoint_test_bar(): every dword of the BAR (BAR0: offset 0) written with
// 0xA0A0A0A0 and read back; plus: the BARs do not alias each other.
static void test_bars(Sim &s)
{
	section("BAR test as pci_endpoint_test_bar()");
	for (int n = 0; n < 6; n++) {
		unsigned size = n == 0 ? 4 : BAR_SIZE[n];
		// big BARs: writes of the device's MPS (fewer TLPs; PCIe 2.2.2: never above MPS)
		unsigned step = size > 16384 ? s.mps : 4;
		std::vector<uint8_t> pat(step, 0xa0);
		for (unsigned j = 0; j < size; j += step)
			s.mem_write(BAR_ADDR[n] + j, step, pat.data());
		s.flush();
		unsigned bad = 0;
		for (unsigned j = 0; j < size; j += (size > 16384 ? 60 : 4)) {
			if (s.rd32(BAR_ADDR[n] + (j & ~3u)) != 0xa0a0a0a0u)
				bad++;
		}
		CHECK(bad == 0, "BAR%d: %u dwords not 0xA0A0A0A0", n, bad);
		printf("  BAR%d (%u B): OKAY\n", n, BAR_SIZE[n]);
	}
	// distinct patterns at the same offsets of BAR1..5: no aliasing
	for (int n = 1; n < 6; n++)
		for (unsigned o : {0u, 256u, BAR_SIZE[n] - 4})
			s.wr32(BAR_ADDR[n] + o, 0x1000u * n + o);
	s.flush();
	for (int n = 1; n < 6; n++)
		for (unsigned o : {0u, 256u, BAR_SIZE[n] - 4})
			CHECK_EQ(s.rd32(BAR_ADDR[n] + o), 0x1000u * n + o, "BAR keeps its own data");
	// a 4 KiB read of BAR5 (completions split at MPS)
	std::vector<uint8_t> big(256);
	CHECK_EQ(s.mem_read(BAR_ADDR[5] + 0x1000, 256, big.data()), 0u, "BAR5 256-byte read");
	// outside every BAR: UR
	uint8_t b4[4];
	CHECK_EQ(s.mem_read(0xe0000000u + BAR_SIZE[0], 4, b4), (unsigned)TLP_CPL_UR, "read outside BARs");
	s.wreg(R_MAGIC, 0x12345678);
	CHECK_EQ(s.reg(R_MAGIC), 0x12345678u, "MAGIC read/write");
	check_errors(s, "bars");
}

// The driver's interrupt handler: read STATUS, clear IRQ_RAISED, write back.
static uint32_t ack_irq(Sim &s)
{
	uint32_t st = s.reg(R_STATUS);
	s.wreg(R_STATUS, st & ~ST_IRQ);
	s.flush();
	return st;
}

static bool wait_idle(Sim &s, int limit = 2000000)
{
	s.run(16);   // the command reaches BAR0 and is taken
	for (int i = 0; i < limit; i++) {
		if (!s.top->busy && !s.top->m_tlp_valid && s.src->idle() && s.sched.empty())
			return true;
		s.step();
	}
	return false;
}

// Command the function: run_cmd() one command and wait until it is idle;
// raise_irq() interrupt N (CMD_MSI or CMD_MSIX), with the messages of
// earlier ones cleared.
static void run_cmd(Sim &s, uint32_t cmd)
{
	s.wreg(R_COMMAND, cmd);
	s.flush();
	wait_idle(s);
}

static void raise_irq(Sim &s, unsigned n, uint32_t cmd)
{
	s.msgs.clear();
	s.wreg(R_IRQ_NUMBER, n);
	run_cmd(s, cmd);
}

static void test_irqs(Sim &s)
{
	section("interrupts: legacy, MSI 1..32, MSI-X 1..2048");
	// legacy
	s.wreg(R_IRQ_TYPE, 0);
	s.wreg(R_IRQ_NUMBER, 0);
	s.wreg(R_COMMAND, CMD_LEGACY);
	s.flush();
	CHECK(wait_idle(s), "legacy: idle");
	CHECK(s.top->intx, "INTx asserted");
	CHECK((s.cfg_read(0x04) >> 19) & 1, "Status.Interrupt Status");
	s.cfg_write(0x04, 0x0406, 0x3);
	CHECK(!s.top->intx, "Interrupt Disable gates INTx");
	s.cfg_write(0x04, 0x0006, 0x3);
	CHECK(s.top->intx, "INTx again");
	CHECK_EQ(s.reg(R_COMMAND), 0u, "COMMAND consumed");
	uint32_t st = ack_irq(s);
	CHECK_EQ(st, (uint32_t)ST_IRQ, "STATUS = IRQ_RAISED");
	s.run(4);
	CHECK(!s.top->intx, "INTx deasserted once the handler cleared IRQ_RAISED (level)");
	CHECK(s.msgs.empty(), "no messages for legacy");

	// MSI: 32 vectors
	s.cfg_write(0x84, (uint32_t)MSI_ADDR);
	s.cfg_write(0x88, 0);
	s.cfg_write(0x8c, 0x4be0);
	s.cfg_write(0x80, (5u << 20) | (1u << 16));
	CHECK_EQ((s.cfg_read(0x80) >> 20) & 7, 5u, "MME 32");
	s.wreg(R_IRQ_TYPE, 1);
	unsigned ok = 0;
	for (unsigned n = 1; n <= 33; n++) {
		raise_irq(s, n, CMD_MSI);
		if (n <= 32) {
			bool good = s.msgs.size() == 1 && s.msgs[0].addr == MSI_ADDR &&
				    s.msgs[0].data == (0x4be0u | (n - 1));
			CHECK(good, "MSI %u: %zu messages, data 0x%x", n, s.msgs.size(),
			      s.msgs.empty() ? 0 : s.msgs[0].data);
			CHECK_EQ(ack_irq(s), (uint32_t)ST_IRQ, "MSI status");
			ok += good;
		} else {
			CHECK(s.msgs.empty(), "MSI 33: no message");
			CHECK_EQ(s.reg(R_STATUS), 0u, "MSI 33: no IRQ_RAISED");
		}
	}
	printf("  MSI 1..32: %u OKAY, 33: refused\n", ok);
	// masked vector: pending, sent on unmask
	s.cfg_write(0x90, 1u << 4);
	raise_irq(s, 5, CMD_MSI);
	CHECK(s.msgs.empty(), "masked MSI vector: no message");
	CHECK_EQ(s.cfg_read(0x94), 1u << 4, "MSI pending bit");
	s.cfg_write(0x90, 0);
	wait_idle(s);
	s.run(20);
	CHECK(s.msgs.size() == 1 && s.msgs[0].data == (0x4be0u | 4), "pending MSI sent on unmask");
	CHECK_EQ(s.cfg_read(0x94), 0u, "MSI pending bit cleared");
	ack_irq(s);
	// fewer vectors granted: 4
	s.cfg_write(0x80, (2u << 20) | (1u << 16));
	raise_irq(s, 5, CMD_MSI);
	CHECK(s.msgs.empty() && s.reg(R_STATUS) == 0, "MSI 5 of 4 granted: refused");
	s.cfg_write(0x80, 0);

	// MSI-X: 2048 entries, above 4 GiB
	for (unsigned v = 0; v < 2048; v++) {
		uint32_t e[4] = {(uint32_t)(MSIX_ADDR + 4 * (v & 63)), (uint32_t)(MSIX_ADDR >> 32),
				 0x50000u + v, 0};
		s.mem_write(BAR_ADDR[0] + 0x8000 + 16 * v, 16, (const uint8_t *)e);
	}
	s.flush();
	s.cfg_write(0xa0, 1u << 31);
	s.wreg(R_IRQ_TYPE, 2);
	ok = 0;
	for (unsigned n = 1; n <= 2049; n++) {
		raise_irq(s, n, CMD_MSIX);
		if (n <= 2048) {
			bool good = s.msgs.size() == 1 && s.msgs[0].data == 0x50000u + n - 1 &&
				    s.msgs[0].addr == MSIX_ADDR + 4 * ((n - 1) & 63);
			CHECK(good, "MSI-X %u", n);
			ok += good;
			s.wreg(R_STATUS, 0);
		} else {
			CHECK(s.msgs.empty(), "MSI-X 2049: no message");
		}
	}
	printf("  MSI-X 1..2048: %u OKAY, 2049: refused\n", ok);
	// masked entry: PBA, sent when unmasked
	s.wr32(BAR_ADDR[0] + 0x8000 + 16 * 700 + 12, 1);
	raise_irq(s, 701, CMD_MSIX);
	CHECK(s.msgs.empty(), "masked MSI-X entry: no message");
	CHECK_EQ(s.reg(0x200 + 4 * (700 / 32)), 1u << (700 % 32), "PBA bit");
	s.wr32(BAR_ADDR[0] + 0x8000 + 16 * 700 + 12, 0);
	s.flush();
	wait_idle(s);
	CHECK(s.msgs.size() == 1 && s.msgs[0].data == 0x50000u + 700, "pending MSI-X sent on unmask");
	CHECK_EQ(s.reg(0x200 + 4 * (700 / 32)), 0u, "PBA bit cleared");
	s.wreg(R_STATUS, 0);
	s.cfg_write(0xa0, 0);
	s.flush();
	check_errors(s, "irqs");
}

// One transfer as pci_endpoint_test_{write,read,copy}() does it; returns true if OKAY.
static bool xfer(Sim &s, unsigned cmd, uint64_t src, uint64_t dst, unsigned size, bool dma,
		 uint64_t *cycles = nullptr)
{
	std::vector<uint8_t> buf(size), guard(8);
	for (auto &x : buf)
		x = (uint8_t)s.rnd(256);
	uint32_t crc = 0;
	if (cmd != CMD_WRITE) {
		s.host.write(src, buf.data(), size);
		crc = crc32_le_linux(buf.data(), size);
	}
	uint8_t g0[8], g1[8];
	if (cmd != CMD_READ) {
		for (int i = 0; i < 8; i++)
			g0[i] = g1[i] = (uint8_t)(0x5a ^ i);
		s.host.write(dst - 8, g0, 8);
		s.host.write(dst + size, g1, 8);
	}
	if (cmd == CMD_READ)
		s.wreg(R_CHECKSUM, crc);
	s.wreg(R_SRC_LO, (uint32_t)src);
	s.wreg(R_SRC_HI, (uint32_t)(src >> 32));
	s.wreg(R_DST_LO, (uint32_t)dst);
	s.wreg(R_DST_HI, (uint32_t)(dst >> 32));
	s.wreg(R_SIZE, size);
	s.wreg(R_FLAGS, dma ? 1 : 0);
	s.wreg(R_IRQ_TYPE, 1);
	s.wreg(R_IRQ_NUMBER, 1);
	s.msgs.clear();
	s.flush();
	uint64_t c0 = s.cycle;
	s.wreg(R_COMMAND, cmd);
	s.flush();
	bool idle = wait_idle(s, 20000000);
	if (cycles)
		*cycles = s.cycle - c0;
	CHECK(idle, "transfer finished");
	bool irq = s.msgs.size() == 1 && s.msgs[0].seq > s.last_data_seq - (cmd == CMD_READ ? 0 : 0);
	CHECK(irq, "one MSI after the data (%zu messages)", s.msgs.size());
	uint32_t st = ack_irq(s);
	bool ok = false;
	if (cmd == CMD_READ) {
		ok = st == (ST_IRQ | ST_READ_OK);
	} else {
		std::vector<uint8_t> out(size);
		s.host.read(dst, out.data(), size);
		uint32_t dcrc = crc32_le_linux(out.data(), size);
		if (cmd == CMD_WRITE)
			ok = st == (ST_IRQ | ST_WRITE_OK) && dcrc == s.reg(R_CHECKSUM);
		else
			ok = st == (ST_IRQ | ST_COPY_OK) && dcrc == crc && out == buf;
		uint8_t h0[8], h1[8];
		s.host.read(dst - 8, h0, 8);
		s.host.read(dst + size, h1, 8);
		if (memcmp(h0, g0, 8) || memcmp(h1, g1, 8)) {
			ok = false;
			printf("  FAIL bytes outside the destination written\n");
		}
	}
	return ok && irq;
}

static void test_xfers(Sim &s, uint64_t seed)
{
	section("READ/WRITE/COPY with CRC, sizes, alignments, MRRS 128..4096, MPS 128..512");
	const unsigned sizes[] = {1, 2, 3, 4, 5, 63, 64, 65, 127, 1024, 1025, 4095, 4096, 4097, 9000};
	struct { unsigned mps, mrrs; } lims[] = {{128, 128}, {128, 512}, {256, 256}, {256, 512},
						  {512, 1024}, {256, 4096}, {128, 2048}};
	unsigned n = 0, okc = 0;
	std::mt19937 r((uint32_t)seed);
	s.cfg_write(0x80, 1u << 16);   // MSI, one vector: the driver's IRQ_NUMBER 1
	for (auto &l : lims) {
		s.set_devctl(l.mps, l.mrrs);
		for (unsigned size : sizes) {
			for (unsigned cmd : {CMD_READ, CMD_WRITE, CMD_COPY}) {
				bool dma = r() & 1;
				uint64_t src = (r() & 1 ? 0x100000000ull : 0x10000000ull) + (r() & 0xfff) + 0x4000 * (r() & 7);
				uint64_t dst = (r() & 1 ? 0x200000000ull : 0x20000000ull) + (r() & 0xfff) + 0x4000 * (r() & 7);
				bool ok = xfer(s, cmd, src, dst, size, dma);
				CHECK(ok, "%s size %u src 0x%" PRIx64 " dst 0x%" PRIx64 " dma %d MPS %u MRRS %u",
				      cmd == CMD_READ ? "READ" : cmd == CMD_WRITE ? "WRITE" : "COPY", size, src,
				      dst, dma, l.mps, l.mrrs);
				n++;
				okc += ok;
			}
		}
		// an aligned 8 KiB READ and WRITE: whole-MRRS reads, whole-MPS writes
		CHECK(xfer(s, CMD_READ, 0x100000000ull, 0, 8192, true), "aligned READ");
		CHECK(xfer(s, CMD_WRITE, 0, 0x200000000ull, 8192, true), "aligned WRITE");
		printf("  MPS %4u MRRS %4u: largest MRd %u B, MWr %u B\n", l.mps, l.mrrs, s.max_rd, s.max_wr);
		CHECK(s.max_rd <= l.mrrs && s.max_wr <= l.mps, "limits kept");
		CHECK(s.max_rd == l.mrrs && s.max_wr == l.mps, "DMA uses the whole MRRS and MPS");
		s.max_rd = s.max_wr = 0;
	}
	printf("  %u of %u transfers OKAY\n", okc, n);
	// the sizes pcitest.sh uses, MRRS 512 / MPS 256
	s.set_devctl(256, 512);
	for (unsigned size : {1u, 1024u, 1025u, 1024000u, 1024001u})
		for (unsigned cmd : {CMD_READ, CMD_WRITE, CMD_COPY})
			for (bool dma : {false, true})
				CHECK(xfer(s, cmd, 0x300000000ull, 0x400000000ull + 8, size, dma),
				      "pcitest size %u cmd %u dma %d", size, cmd, dma);
	printf("  pcitest.sh sizes (1, 1024, 1025, 1024000, 1024001) x READ/WRITE/COPY x DMA on/off\n");
	// a wrong checksum fails READ
	std::vector<uint8_t> b(100, 7);
	s.host.write(0x50000, b.data(), 100);
	s.wreg(R_CHECKSUM, crc32_le_linux(b.data(), 100) ^ 1);
	s.wreg(R_SRC_LO, 0x50000);
	s.wreg(R_SRC_HI, 0);
	s.wreg(R_SIZE, 100);
	run_cmd(s, CMD_READ);
	CHECK_EQ(ack_irq(s), (uint32_t)(ST_IRQ | ST_READ_FAIL), "wrong checksum: READ_FAIL");
	// UR from the host: READ_FAIL and Received Master Abort
	s.wreg(R_SRC_LO, (uint32_t)UR_HOST_BASE);
	run_cmd(s, CMD_READ);
	CHECK_EQ(ack_irq(s), (uint32_t)(ST_IRQ | ST_READ_FAIL), "UR completion: READ_FAIL");
	CHECK((s.cfg_read(0x04) >> 29) & 1, "Received Master Abort");
	// bus master off: COPY fails without any request
	s.cfg_write(0x04, 0x0002, 0x3);
	s.wreg(R_SRC_LO, 0x50000);
	s.wreg(R_DST_LO, 0x60000);
	s.wreg(R_DST_HI, 0);
	run_cmd(s, CMD_COPY);
	CHECK_EQ(s.reg(R_STATUS), (uint32_t)(ST_IRQ | ST_COPY_FAIL), "no bus master: COPY_FAIL");
	s.cfg_write(0x04, 0x0006, 0x3);
	s.wreg(R_STATUS, 0);
	s.flush();
	check_errors(s, "transfers");
}

static int bench(uint64_t seed)
{
	printf("epf_test DMA bench: zero-latency host, no back-pressure, 1 MB transfers\n");
	for (unsigned mrrs : {256u, 512u, 4096u}) {
		Sim s(seed);
		s.bench = true;
		enumerate(s);
		s.cfg_write(0x84, (uint32_t)MSI_ADDR);
		s.cfg_write(0x80, 1u << 16);
		s.set_devctl(256, mrrs);
		uint64_t cr, cw, cc;
		xfer(s, CMD_READ, 0x100000000ull, 0, 1u << 20, true, &cr);
		xfer(s, CMD_WRITE, 0, 0x200000000ull, 1u << 20, true, &cw);
		xfer(s, CMD_COPY, 0x100000000ull, 0x200000000ull, 1u << 20, true, &cc);
		printf("  MPS 256 MRRS %4u: READ %.2f B/cycle, WRITE %.2f B/cycle, COPY %.2f B/cycle\n",
		       mrrs, (double)(1u << 20) / cr, (double)(1u << 20) / cw, (double)(1u << 20) / cc);
	}
	return 0;
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	if (a.bench)
		return bench(a.seed);
	printf("tb_epf_test: seed %u\n", a.seed);
	Sim s(a.seed);
	enumerate(s);
	test_bars(s);
	test_irqs(s);
	test_xfers(s, a.seed);
	return tb_finish("tb_epf_test", "%" PRIu64 " cycles", s.cycle);
}
