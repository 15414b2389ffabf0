// SPDX-License-Identifier: Apache-2.0
//
// tb_extoll_nic: Verilator testbench of the NIC top (extoll_nic) in PCIe
// endpoint mode, driven only through TLPs on s_tlp/m_tlp (as the QEMU bridge
// will), with random gaps on s_tlp_valid and random back-pressure on
// m_tlp_ready. TLP headers are encoded/decoded with hw/include/tlp.h, register
// offsets come from the generated hw/include/extoll_regs.h.
//
// Checks: config space identity, capability list, BAR sizing and assignment,
// command register; the info and pcie register blocks; scratch accesses of
// 8/4/2/1 bytes with byte enables; burst reads and writes; the test
// interrupt and INTx disable; MSI-X (table and PBA in BAR0, masking, Bus
// Master Enable, no INTx while enabled, no spurious message); unsupported
// requests (UR completions with the right tag/requester/completer, posted
// ones dropped without side effects) and the counters that record them; the
// Status error bits and Device Status UR Detected (only for UR).
//
// Usage: tb_extoll_nic [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vextoll_nic.h"
#include "extoll_regs.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"
#include "verilated.h"

// Values the Makefile passes both as -G parameters and as -D defines.
#ifndef TB_NODE_ID
#define TB_NODE_ID 0
#endif
#ifndef TB_BUILD_DATE
#define TB_BUILD_DATE 0
#endif
#ifndef TB_BUILD_COMMIT
#define TB_BUILD_COMMIT 0
#endif
// Parameter defaults of extoll_nic that the test checks.
static const uint32_t VENDOR_ID = 0x1ee7, DEVICE_ID = 0x0001, CLASS_CODE = 0x028000;
static const unsigned RTL_MAJOR = 0, RTL_MINOR = 1, RTL_PATCH = 0;
static const uint32_t BAR0_SIZE = 1u << 16, BAR2_SIZE = 1u << 28;

static const uint16_t HOST_ID = 0x0000;   // requester ID of the root complex
static const uint16_t NIC_ID = 0x0300;    // bus 3, device 0, function 0
static const uint32_t BAR0 = 0xfe000000, BAR2 = 0xe0000000;

typedef TlpTb<Vextoll_nic> Tb;

// Check the routing fields of a completion against its request.
static void check_cpl_ids(const struct tlp &c, uint8_t tag, uint16_t completer, const char *what)
{
	std::string w(what);
	CHECK_EQ(c.tag, tag, (w + ": tag").c_str());
	CHECK_EQ(c.requester_id, HOST_ID, (w + ": requester id").c_str());
	CHECK_EQ(c.completer_id, completer, (w + ": completer id").c_str());
}

// ---------------------------------------------------------------------------
// Configuration requests
// ---------------------------------------------------------------------------
static uint32_t cfg_rd(Tb &tb, uint16_t reg, uint16_t target = NIC_ID)
{
	struct tlp t, c;
	uint8_t tag = tb.next_tag();
	tlp_cfg(&t, false, 0, target, reg, 0xf, 0, HOST_ID, tag);
	tb.drv().send(t);
	if (!tb.wait_rx(&c)) {
		CHECK(false, "CfgRd0 0x%03x: no completion", reg);
		return 0xffffffff;
	}
	CHECK(c.kind == TLP_CPLD && c.status == TLP_CPL_SC && c.len_dw == 1,
	      "CfgRd0 0x%03x: want CplD SC len 1, got kind %d status %u len %u", reg, c.kind,
	      c.status, c.len_dw);
	CHECK_EQ(c.byte_count, 4, "CfgRd0 byte count");
	CHECK_EQ(c.lower_addr, 0, "CfgRd0 lower address");
	check_cpl_ids(c, tag, target, "CfgRd0");
	return c.payload[0];
}

static void cfg_wr(Tb &tb, uint16_t reg, uint32_t val, uint8_t be = 0xf, uint16_t target = NIC_ID)
{
	struct tlp t, c;
	uint8_t tag = tb.next_tag();
	tlp_cfg(&t, true, 0, target, reg, be, val, HOST_ID, tag);
	tb.drv().send(t);
	if (!tb.wait_rx(&c)) {
		CHECK(false, "CfgWr0 0x%03x: no completion", reg);
		return;
	}
	CHECK(c.kind == TLP_CPL && c.status == TLP_CPL_SC,
	      "CfgWr0 0x%03x: want Cpl SC, got kind %d status %u", reg, c.kind, c.status);
	CHECK_EQ(c.byte_count, 4, "CfgWr0 byte count");
	check_cpl_ids(c, tag, target, "CfgWr0");
}

// ---------------------------------------------------------------------------
// Memory requests
// ---------------------------------------------------------------------------
// Read `size` bytes (1, 2, 4, 8; naturally aligned) at BAR address `addr`.
static uint64_t mem_rd(Tb &tb, uint64_t addr, unsigned size)
{
	struct tlp t, c;
	uint64_t dw_addr;
	unsigned len;
	uint8_t fbe, lbe;
	uint8_t tag = tb.next_tag();
	tlp_access_bes(addr, size, &dw_addr, &len, &fbe, &lbe);
	tlp_mrd(&t, dw_addr, len, fbe, lbe, HOST_ID, tag);
	tb.drv().send(t);
	if (!tb.wait_rx(&c)) {
		CHECK(false, "MRd 0x%" PRIx64 ": no completion", addr);
		return ~0ull;
	}
	CHECK(c.kind == TLP_CPLD && c.status == TLP_CPL_SC && c.len_dw == len,
	      "MRd 0x%" PRIx64 " size %u: want CplD SC len %u, got kind %d status %u len %u", addr,
	      size, len, c.kind, c.status, c.len_dw);
	CHECK_EQ(c.byte_count, size, "MRd byte count");
	CHECK_EQ(c.lower_addr, addr & 0x7f, "MRd lower address");
	check_cpl_ids(c, tag, NIC_ID, "MRd");
	uint64_t raw = c.payload[0] | (len > 1 ? (uint64_t)c.payload[1] << 32 : 0);
	raw >>= 8 * (addr & 3);
	return size == 8 ? raw : raw & ((1ull << (8 * size)) - 1);
}

static void mem_wr(Tb &tb, uint64_t addr, unsigned size, uint64_t val)
{
	struct tlp t;
	uint64_t dw_addr;
	unsigned len;
	uint8_t fbe, lbe;
	tlp_access_bes(addr, size, &dw_addr, &len, &fbe, &lbe);
	uint64_t shifted = val << (8 * (addr & 3));
	uint32_t data[2] = {(uint32_t)shifted, (uint32_t)(shifted >> 32)};
	tlp_mwr(&t, dw_addr, data, len, fbe, lbe, HOST_ID);
	tb.drv().send(t);
}

// Leave D3hot for D0 and read a register (No_Soft_Reset: BARs and Command kept).
static bool mem_rd_ok_after_d0(Tb &tb, uint64_t addr)
{
	cfg_wr(tb, 0x84, 0x0);
	mem_wr(tb, addr, 8, 0x600dd0d0600dd0d0ull);
	return mem_rd(tb, addr, 8) == 0x600dd0d0600dd0d0ull;
}

// Send a non-posted request and expect exactly one UR completion for it.
static void expect_ur(Tb &tb, const struct tlp &t, const char *what, uint32_t dw0_or = 0,
		      unsigned want_bc = 4, unsigned want_la = 0)
{
	struct tlp c;
	printf("   %s -> UR\n", what);
	tb.drv().send(t, dw0_or);
	if (!tb.wait_rx(&c)) {
		CHECK(false, "%s: no completion", what);
		return;
	}
	CHECK(c.kind == TLP_CPL && c.status == TLP_CPL_UR,
	      "%s: want Cpl UR, got kind %d status %u", what, c.kind, c.status);
	check_cpl_ids(c, t.tag, NIC_ID, what);
	CHECK_EQ(c.byte_count, want_bc, (std::string(what) + ": byte count").c_str());
	CHECK_EQ(c.lower_addr, want_la, (std::string(what) + ": lower address").c_str());
	tb.idle(20);
	CHECK(tb.drv().rx().empty(), "%s: more than one completion", what);
}

static uint32_t counter(Tb &tb, unsigned off)
{
	return (uint32_t)mem_rd(tb, BAR0 + EXTOLL_PCIE_BASE + off, 8);
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------
static void test_config(Tb &tb)
{
	section("config space: identity, header, capabilities");
	// The first CfgWr0 gives the NIC its bus/device number; completions of
	// configuration requests carry the target ID.
	cfg_wr(tb, 0x3c, 0x0000000b, 0x1);   // interrupt line = 11
	CHECK_EQ(cfg_rd(tb, 0x00), (DEVICE_ID << 16) | VENDOR_ID, "vendor/device id");
	CHECK_EQ(cfg_rd(tb, 0x08), CLASS_CODE << 8 | 0x00, "class code / revision");
	uint32_t hdr = cfg_rd(tb, 0x0c);
	CHECK_EQ((hdr >> 16) & 0xff, 0x00, "header type 0, single function");
	uint32_t cmdsta = cfg_rd(tb, 0x04);
	CHECK_EQ(cmdsta & 0xffff, 0, "command after reset");
	CHECK((cmdsta >> 16) & 0x10, "status.capabilities list set (0x%08x)", cmdsta);
	CHECK_EQ(cfg_rd(tb, 0x2c), (DEVICE_ID << 16) | VENDOR_ID, "subsystem ids");
	CHECK_EQ(cfg_rd(tb, 0x34) & 0xff, 0x40, "capabilities pointer");
	CHECK_EQ(cfg_rd(tb, 0x3c) & 0xffff, 0x010b, "interrupt pin INTA, line RW");
	uint32_t cap = cfg_rd(tb, 0x40);
	CHECK_EQ(cap & 0xff, 0x10, "PCIe capability id");
	CHECK_EQ((cap >> 8) & 0xff, 0x80, "PCIe capability -> PM at 0x80");
	CHECK_EQ(cfg_rd(tb, 0x80) & 0xffff, 0x8801, "PM capability (0x01) -> MSI-X at 0x88");
	CHECK_EQ(cfg_rd(tb, 0x88) & 0xffff, 0x0011, "MSI-X capability (0x11), last in the list");
	CHECK_EQ(cfg_rd(tb, 0x8c), EXTOLL_MSIX_BASE + EXTOLL_MSIX_ADDR, "MSI-X table: BAR0 + msix.addr");
	CHECK_EQ(cfg_rd(tb, 0x90), EXTOLL_MSIX_BASE + EXTOLL_MSIX_PBA, "MSI-X PBA: BAR0 + msix.pba");
	CHECK((cfg_rd(tb, 0x44) >> 5) & 1, "DevCap Extended Tag Field supported (SMFU tags 0x80..)");
	CHECK_EQ((cap >> 16) & 0xf, 2, "PCIe capability version 2");
	CHECK_EQ((cap >> 20) & 0xf, 0, "device/port type: endpoint");
	CHECK((cfg_rd(tb, 0x44) >> 15) & 1, "DevCap role-based error reporting");
	uint32_t devctl = cfg_rd(tb, 0x48);
	CHECK_EQ(devctl & 0xffff, 0x2910, "DevCtl reset value (Extended Tag Field enabled)");
	cfg_wr(tb, 0x48, 0x0000500f, 0x3);
	CHECK_EQ(cfg_rd(tb, 0x48) & 0xffff, 0x500f, "DevCtl write");
	CHECK_EQ(cfg_rd(tb, 0x100), 0, "extended config space reads zero");
	CHECK_EQ(cfg_rd(tb, 0x00, NIC_ID) & 0xffff, VENDOR_ID, "config read after ID capture");
}

static void test_bars(Tb &tb)
{
	section("BAR sizing and assignment");
	static const struct {
		uint16_t reg;
		uint32_t mask;
		const char *name;
	} bars[] = {
		{0x10, ~(BAR0_SIZE - 1), "BAR0 (registers, 64 KiB)"},
		{0x14, 0, "BAR1 (unimplemented)"},
		{0x18, ~(BAR2_SIZE - 1), "BAR2 (aperture, 256 MiB)"},
		{0x1c, 0, "BAR3 (unimplemented)"},
		{0x20, 0, "BAR4 (unimplemented)"},
		{0x24, 0, "BAR5 (unimplemented)"},
		{0x30, 0, "expansion ROM (none)"},
	};
	for (const auto &b : bars) {
		CHECK_EQ(cfg_rd(tb, b.reg), 0, (std::string(b.name) + " after reset").c_str());
		cfg_wr(tb, b.reg, 0xffffffff);
		uint32_t v = cfg_rd(tb, b.reg);
		printf("   %-28s sizing readback 0x%08x\n", b.name, v);
		CHECK_EQ(v, b.mask, (std::string(b.name) + " size mask").c_str());
	}
	cfg_wr(tb, 0x10, BAR0);
	cfg_wr(tb, 0x18, BAR2);
	CHECK_EQ(cfg_rd(tb, 0x10), BAR0, "BAR0 assigned");
	CHECK_EQ(cfg_rd(tb, 0x18), BAR2, "BAR2 assigned");
	// byte-enable partial write to a BAR: only the enabled byte changes
	cfg_wr(tb, 0x10, 0x12345678, 0x8);
	CHECK_EQ(cfg_rd(tb, 0x10), 0x12000000, "BAR0 byte-3 write");
	cfg_wr(tb, 0x10, BAR0);
}

static void test_mem_enable(Tb &tb)
{
	section("command register: memory space enable");
	struct tlp t;
	tlp_mrd(&t, BAR0 + EXTOLL_INFO_BASE, 2, 0xf, 0xf, HOST_ID, tb.next_tag());
	expect_ur(tb, t, "MRd BAR0 with memory space disabled", 0, 8, 0);
	cfg_wr(tb, 0x04, 0x0006, 0x3);   // memory space + bus master
	CHECK_EQ(cfg_rd(tb, 0x04) & 0xffff, 0x0006, "command readback");
	cfg_wr(tb, 0x04, 0xffff, 0x3);   // only the implemented bits stick
	CHECK_EQ(cfg_rd(tb, 0x04) & 0xffff, 0x0546, "command writable bits");
	cfg_wr(tb, 0x04, 0x0006, 0x3);
}

static void test_info(Tb &tb)
{
	section("register file: info and pcie blocks");
	uint64_t hdr = mem_rd(tb, BAR0 + EXTOLL_INFO_BASE, 8);
	printf("   info.hdr = 0x%016" PRIx64 "\n", hdr);
	CHECK_EQ(hdr & EXTOLL_BLK_HDR_BTYPE_MASK, EXTOLL_INFO_TYPE, "info block type");
	CHECK_EQ((hdr & EXTOLL_BLK_HDR_VER_MAJOR_MASK) >> EXTOLL_BLK_HDR_VER_MAJOR_SHIFT,
		 EXTOLL_INFO_VER_MAJOR, "info major version");
	CHECK_EQ((hdr & EXTOLL_BLK_HDR_VER_MINOR_MASK) >> EXTOLL_BLK_HDR_VER_MINOR_SHIFT,
		 EXTOLL_INFO_VER_MINOR, "info minor version");
	uint64_t next = (hdr & EXTOLL_BLK_HDR_NEXT_MASK) >> EXTOLL_BLK_HDR_NEXT_SHIFT;
	CHECK_EQ(next, EXTOLL_PCIE_BASE, "info.hdr.next -> pcie block");
	uint64_t phdr = mem_rd(tb, BAR0 + next, 8);
	CHECK_EQ(phdr & EXTOLL_BLK_HDR_BTYPE_MASK, EXTOLL_PCIE_TYPE, "pcie block type");
	CHECK_EQ((phdr & EXTOLL_BLK_HDR_NEXT_MASK) >> EXTOLL_BLK_HDR_NEXT_SHIFT, EXTOLL_RRA_BASE,
		 "pcie.hdr.next -> rra block");

	uint64_t id = mem_rd(tb, BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_ID, 8);
	printf("   info.id = 0x%016" PRIx64 "\n", id);
	CHECK_EQ(id & EXTOLL_INFO_ID_MAGIC_MASK, EXTOLL_INFO_ID_MAGIC_RESET, "magic 'EXTL'");
	CHECK_EQ((id & EXTOLL_INFO_ID_ROLE_MASK) >> EXTOLL_INFO_ID_ROLE_SHIFT, 0, "role endpoint");
	CHECK_EQ((id & EXTOLL_INFO_ID_NODE_ID_MASK) >> EXTOLL_INFO_ID_NODE_ID_SHIFT, TB_NODE_ID,
		 "node id");
	uint64_t ver = mem_rd(tb, BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_VERSION, 8);
	printf("   info.version = 0x%016" PRIx64 "\n", ver);
	CHECK_EQ((ver & EXTOLL_INFO_VERSION_MAJOR_MASK) >> EXTOLL_INFO_VERSION_MAJOR_SHIFT,
		 RTL_MAJOR, "RTL major");
	CHECK_EQ((ver & EXTOLL_INFO_VERSION_MINOR_MASK) >> EXTOLL_INFO_VERSION_MINOR_SHIFT,
		 RTL_MINOR, "RTL minor");
	CHECK_EQ((ver & EXTOLL_INFO_VERSION_PATCH_MASK) >> EXTOLL_INFO_VERSION_PATCH_SHIFT,
		 RTL_PATCH, "RTL patch");
	uint64_t build = mem_rd(tb, BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_BUILD, 8);
	CHECK_EQ(build & EXTOLL_INFO_BUILD_DATE_MASK, TB_BUILD_DATE, "build date");
	CHECK_EQ((build & EXTOLL_INFO_BUILD_COMMIT_MASK) >> EXTOLL_INFO_BUILD_COMMIT_SHIFT,
		 TB_BUILD_COMMIT, "build commit");
	uint64_t c0 = mem_rd(tb, BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, 8);
	tb.idle(100);
	uint64_t c1 = mem_rd(tb, BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, 8);
	CHECK(c1 > c0 + 100 && c1 < tb.cycle() + 10, "cycle counter runs (%" PRIu64 " -> %" PRIu64
	      ", sim cycle %" PRIu64 ")", c0, c1, tb.cycle());

	uint64_t st = mem_rd(tb, BAR0 + EXTOLL_PCIE_BASE + EXTOLL_PCIE_STATUS, 8);
	printf("   pcie.status = 0x%016" PRIx64 "\n", st);
	CHECK_EQ(st & 0xffff, NIC_ID, "pcie.status captured bus/dev/fn");
	CHECK(st & EXTOLL_PCIE_STATUS_MEM_EN_MASK, "pcie.status.mem_en");
	CHECK(st & EXTOLL_PCIE_STATUS_BUS_MASTER_MASK, "pcie.status.bus_master");
}

static void test_scratch(Tb &tb)
{
	section("scratch: 8/4/2/1-byte accesses and byte enables");
	const uint64_t S = BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_SCRATCH;
	CHECK_EQ(mem_rd(tb, S, 8), 0, "scratch reset value");
	mem_wr(tb, S, 8, 0x1122334455667788ull);
	CHECK_EQ(mem_rd(tb, S, 8), 0x1122334455667788ull, "8-byte write/read");
	CHECK_EQ(mem_rd(tb, S, 4), 0x55667788, "4-byte read, low half");
	CHECK_EQ(mem_rd(tb, S + 4, 4), 0x11223344, "4-byte read, high half");
	mem_wr(tb, S + 4, 4, 0xdeadbeef);
	CHECK_EQ(mem_rd(tb, S, 8), 0xdeadbeef55667788ull, "4-byte write, high half");
	mem_wr(tb, S, 4, 0xcafef00d);
	CHECK_EQ(mem_rd(tb, S, 8), 0xdeadbeefcafef00dull, "4-byte write, low half");
	mem_wr(tb, S + 2, 2, 0xa5a5);
	CHECK_EQ(mem_rd(tb, S, 8), 0xdeadbeefa5a5f00dull, "2-byte write at +2");
	mem_wr(tb, S + 4, 2, 0x1234);
	CHECK_EQ(mem_rd(tb, S, 8), 0xdeadbeefa5a5f00dull & ~0xffff00000000ull | 0x123400000000ull,
		 "2-byte write at +4");
	mem_wr(tb, S + 7, 1, 0x42);
	mem_wr(tb, S + 1, 1, 0x99);
	CHECK_EQ(mem_rd(tb, S, 8), 0x42ad1234a5a5990dull, "1-byte writes at +7, +1");
	CHECK_EQ(mem_rd(tb, S + 6, 2), 0x42ad, "2-byte read at +6");
	CHECK_EQ(mem_rd(tb, S + 5, 1), 0x12, "1-byte read at +5");
	CHECK_EQ(mem_rd(tb, S + 3, 1), 0xa5, "1-byte read at +3");
	CHECK_EQ(mem_rd(tb, S + 2, 2), 0xa5a5, "2-byte read at +2");
	// zero-length write (first BE 0): no effect
	struct tlp t;
	uint32_t z = 0xffffffff;
	tlp_mwr(&t, S, &z, 1, 0x0, 0x0, HOST_ID);
	tb.drv().send(t);
	CHECK_EQ(mem_rd(tb, S, 8), 0x42ad1234a5a5990dull, "zero-length write ignored");
}

static void test_burst(Tb &tb)
{
	section("burst reads and writes");
	const uint64_t I = BAR0 + EXTOLL_INFO_BASE;
	uint64_t single[8];
	for (unsigned r = 0; r < 8; r++)
		single[r] = mem_rd(tb, I + 8 * r, 8);

	// 16-dword read of the first eight registers
	struct tlp t, c;
	uint8_t tag = tb.next_tag();
	tlp_mrd(&t, I, 16, 0xf, 0xf, HOST_ID, tag);
	tb.drv().send(t);
	if (tb.wait_rx(&c)) {
		printf("   MRd 16 DW at 0x%" PRIx64 ": %s len %u bc %u\n", (uint64_t)I,
		       c.kind == TLP_CPLD ? "CplD" : "?", c.len_dw, c.byte_count);
		CHECK(c.kind == TLP_CPLD && c.status == 0 && c.len_dw == 16, "16-DW read completion");
		CHECK_EQ(c.byte_count, 64, "16-DW read byte count");
		check_cpl_ids(c, tag, NIC_ID, "16-DW read");
		for (unsigned r = 0; r < 8; r++) {
			uint64_t v = c.payload[2 * r] | (uint64_t)c.payload[2 * r + 1] << 32;
			CHECK_EQ(v, single[r], ("burst register " + std::to_string(r)).c_str());
		}
	} else {
		CHECK(false, "16-DW read: no completion");
	}

	// odd start, partial byte enables: dwords 3..7 (0x0c..0x1f), bytes 0x0d..0x1d
	tag = tb.next_tag();
	tlp_mrd(&t, I + 0x0c, 5, 0xe, 0x3, HOST_ID, tag);
	tb.drv().send(t);
	if (tb.wait_rx(&c)) {
		printf("   MRd 5 DW at 0x%" PRIx64 " be e/3: len %u bc %u la 0x%02x\n",
		       (uint64_t)(I + 0x0c), c.len_dw, c.byte_count, c.lower_addr);
		CHECK(c.kind == TLP_CPLD && c.len_dw == 5, "5-DW read completion");
		CHECK_EQ(c.byte_count, 5 * 4 - 1 - 2, "5-DW read byte count");
		CHECK_EQ(c.lower_addr, 0x0d, "5-DW read lower address");
		for (unsigned i = 0; i < 5; i++) {
			unsigned dw = 3 + i;
			uint32_t want = (uint32_t)(single[dw / 2] >> (32 * (dw & 1)));
			CHECK_EQ(c.payload[i], want, ("odd-start burst dword " + std::to_string(i)).c_str());
		}
	} else {
		CHECK(false, "5-DW read: no completion");
	}

	// odd-start 3-DW write over build (read-only, high half) and scratch
	uint32_t data[3] = {0x0badf00d, 0x76543210, 0xfedcba98};
	tlp_mwr(&t, I + EXTOLL_INFO_BUILD + 4, data, 3, 0xf, 0xf, HOST_ID);
	tb.drv().send(t);
	CHECK_EQ(mem_rd(tb, I + EXTOLL_INFO_SCRATCH, 8), 0xfedcba9876543210ull,
		 "odd-start 3-DW write reaches scratch");
	CHECK_EQ(mem_rd(tb, I + EXTOLL_INFO_BUILD, 8), single[3], "read-only build unchanged");

	// several reads in flight, completions matched by tag
	const unsigned N = 8;
	uint8_t tags[N];
	for (unsigned i = 0; i < N; i++) {
		tags[i] = tb.next_tag();
		tlp_mrd(&t, I + 8 * i, 2, 0xf, 0xf, HOST_ID, tags[i]);
		tb.drv().send(t);
	}
	for (unsigned i = 0; i < N; i++) {
		if (!tb.wait_rx(&c)) {
			CHECK(false, "pipelined read %u: no completion", i);
			break;
		}
		CHECK_EQ(c.tag, tags[i], "pipelined read tag (in order)");
	}
}

static void test_irq(Tb &tb)
{
	section("test interrupt");
	const uint64_t I = BAR0 + EXTOLL_INFO_BASE;
	Vextoll_nic *top = tb.top();
	CHECK_EQ(top->intx, 0, "intx low after reset");
	mem_wr(tb, I + EXTOLL_INFO_IRQ_TEST, 8, 1);    // fire while disabled
	CHECK_EQ(mem_rd(tb, I + EXTOLL_INFO_IRQ_STATUS, 8), 1, "irq_status.test set by fire");
	CHECK_EQ(mem_rd(tb, I + EXTOLL_INFO_IRQ_TEST, 8), 0, "irq_test.fire is a pulse");
	CHECK_EQ(top->intx, 0, "intx low while the cause is disabled");
	mem_wr(tb, I + EXTOLL_INFO_IRQ_ENABLE, 8, 1);
	mem_rd(tb, I + EXTOLL_INFO_IRQ_ENABLE, 8);
	CHECK_EQ(top->intx, 1, "intx high: enabled cause pending");
	CHECK(cfg_rd(tb, 0x04) & (1u << 19), "config status.interrupt status set");
	CHECK(mem_rd(tb, BAR0 + EXTOLL_PCIE_BASE + EXTOLL_PCIE_STATUS, 8) &
		      EXTOLL_PCIE_STATUS_INTX_MASK, "pcie.status.intx set");
	cfg_wr(tb, 0x04, 0x0406, 0x3);                // INTx disable
	CHECK_EQ(top->intx, 0, "intx masked by command.INTx_disable");
	CHECK(cfg_rd(tb, 0x04) & (1u << 19), "status.interrupt status ignores INTx disable");
	cfg_wr(tb, 0x04, 0x0006, 0x3);
	CHECK_EQ(top->intx, 1, "intx back after clearing INTx disable");
	mem_wr(tb, I + EXTOLL_INFO_IRQ_STATUS, 8, 0);  // writing 0 clears nothing
	CHECK_EQ(mem_rd(tb, I + EXTOLL_INFO_IRQ_STATUS, 8), 1, "W1C: writing 0 keeps the cause");
	mem_wr(tb, I + EXTOLL_INFO_IRQ_STATUS, 8, 1);  // W1C
	CHECK_EQ(mem_rd(tb, I + EXTOLL_INFO_IRQ_STATUS, 8), 0, "W1C clears the cause");
	CHECK_EQ(top->intx, 0, "intx low after W1C");
	CHECK(!(cfg_rd(tb, 0x04) & (1u << 19)), "config status.interrupt status clear");
	// fire with the enable on: intx rises without further action
	mem_wr(tb, I + EXTOLL_INFO_IRQ_TEST, 4, 1);
	tb.drain();
	CHECK_EQ(top->intx, 1, "intx high after 4-byte fire");
	mem_wr(tb, I + EXTOLL_INFO_IRQ_STATUS, 1, 1);
	mem_wr(tb, I + EXTOLL_INFO_IRQ_ENABLE, 8, 0);
	tb.drain();
	CHECK_EQ(top->intx, 0, "intx low after 1-byte W1C");
}

// MSI-X (PCIe Base Spec. 6.1.4, 7.7.2): the one vector of the NIC, table in BAR0.
static void test_msix(Tb &tb)
{
	section("MSI-X: table in BAR0, masking, pending bit, no INTx while enabled");
	const uint64_t I = BAR0 + EXTOLL_INFO_BASE, X = BAR0 + EXTOLL_MSIX_BASE;
	Vextoll_nic *top = tb.top();
	struct tlp m;
	uint32_t n0 = counter(tb, EXTOLL_PCIE_MSIX_MSGS);
	auto fire = [&] {
		mem_wr(tb, I + EXTOLL_INFO_IRQ_TEST, 8, 1);
		tb.drain();
	};
	auto ack = [&] {
		mem_wr(tb, I + EXTOLL_INFO_IRQ_STATUS, 8, 1);
		tb.drain();
	};
	auto pba = [&] { return mem_rd(tb, X + EXTOLL_MSIX_PBA, 8) & 1; };
	auto no_msg = [&](const char *what) {
		tb.drain(100);
		CHECK(tb.drv().rx().empty(), "%s: no message (%zu TLPs)", what, tb.drv().rx().size());
		tb.drv().rx().clear();
	};
	auto expect_msg = [&](uint64_t addr, uint32_t data, const char *what) {
		if (!tb.wait_rx(&m)) {
			CHECK(false, "%s: no MSI-X message", what);
			return;
		}
		CHECK(m.kind == TLP_MWR && m.addr == addr && m.len_dw == 1 && m.first_be == 0xf &&
			      m.last_be == 0 && m.payload_dw == 1 && m.payload[0] == data &&
			      m.requester_id == NIC_ID && m.hdr_dw == (addr >> 32 ? 4u : 3u),
		      "%s: want MWr 0x%" PRIx64 " <- 0x%08x from %04x, got kind %d addr 0x%" PRIx64
		      " len %u be %x/%x data 0x%08x req %04x hdr %u", what, addr, data, NIC_ID, m.kind,
		      m.addr, m.len_dw, m.first_be, m.last_be, m.payload[0], m.requester_id, m.hdr_dw);
	};

	CHECK_EQ(mem_rd(tb, X + EXTOLL_MSIX_CTRL, 8), 1ull << 32, "Vector Control Mask Bit set after reset");
	mem_wr(tb, X + EXTOLL_MSIX_ADDR, 4, 0xfee01004);    // dword writes, as Linux does
	mem_wr(tb, X + EXTOLL_MSIX_ADDR + 4, 4, 0);
	mem_wr(tb, X + EXTOLL_MSIX_CTRL, 4, 0x4041);
	CHECK_EQ(mem_rd(tb, X + EXTOLL_MSIX_ADDR, 8), 0xfee01004, "table: message address");
	CHECK_EQ(mem_rd(tb, X + EXTOLL_MSIX_CTRL, 8), 1ull << 32 | 0x4041, "table: data, still masked");
	cfg_wr(tb, 0x04, 0x0006, 0x3);
	cfg_wr(tb, 0x88, 0x8000'0000);
	CHECK(mem_rd(tb, BAR0 + EXTOLL_PCIE_BASE + EXTOLL_PCIE_STATUS, 8) & EXTOLL_PCIE_STATUS_MSIX_EN_MASK,
	      "pcie.status.msix_en");
	mem_wr(tb, I + EXTOLL_INFO_IRQ_ENABLE, 8, 1);

	fire();
	CHECK_EQ(top->intx, 0, "no INTx while MSI-X is enabled (6.1.4.3)");
	no_msg("vector masked");
	CHECK_EQ(pba(), 1, "masked: Pending bit set");
	mem_wr(tb, X + EXTOLL_MSIX_CTRL + 4, 4, 0);          // unmask
	expect_msg(0xfee01004, 0x4041, "unmasked with the Pending bit set");
	no_msg("after the one message");
	CHECK_EQ(pba(), 0, "Pending bit clear after the message");
	ack();
	fire();
	expect_msg(0xfee01004, 0x4041, "a new cause, unmasked");
	ack();

	// Function Mask; the cause served while masked: no spurious message (6.1.4.5)
	cfg_wr(tb, 0x88, 0xc000'0000);
	fire();
	no_msg("function masked");
	CHECK_EQ(pba(), 1, "function masked: Pending bit set");
	ack();
	CHECK_EQ(pba(), 0, "cause served while masked: Pending bit cleared");
	cfg_wr(tb, 0x88, 0x8000'0000);
	no_msg("unmasked after the cause was served");

	// Bus Master Enable off: held back until it is set (7.5.1.1.3)
	cfg_wr(tb, 0x04, 0x0002, 0x3);
	fire();
	no_msg("bus mastering disabled");
	cfg_wr(tb, 0x04, 0x0006, 0x3);
	expect_msg(0xfee01004, 0x4041, "after Bus Master Enable");
	ack();

	// a 64-bit message address: 4-DW header
	mem_wr(tb, X + EXTOLL_MSIX_ADDR, 8, 0x0000'0012'3456'7890ull);
	mem_wr(tb, X + EXTOLL_MSIX_CTRL, 4, 0xbeef);
	fire();
	expect_msg(0x0000'0012'3456'7890ull, 0xbeef, "64-bit message address");
	CHECK_EQ(counter(tb, EXTOLL_PCIE_MSIX_MSGS) - n0, 4, "pcie.msix_msgs counts the messages");

	// MSI-X disabled: back to INTx
	cfg_wr(tb, 0x88, 0);
	CHECK_EQ(top->intx, 1, "MSI-X disabled with the cause pending: INTx");
	no_msg("MSI-X disabled");
	cfg_wr(tb, 0x88, 0x8000'0000);
	expect_msg(0x0000'0012'3456'7890ull, 0xbeef, "a cause pending when MSI-X gets enabled");
	CHECK_EQ(top->intx, 0, "INTx off again with MSI-X enabled");
	cfg_wr(tb, 0x88, 0);
	ack();
	CHECK_EQ(top->intx, 0, "INTx low after the W1C");
	mem_wr(tb, I + EXTOLL_INFO_IRQ_ENABLE, 8, 0);
	mem_wr(tb, X + EXTOLL_MSIX_CTRL + 4, 4, 1);
	tb.drain();
}

// Status error bits and Device Status (PCIe Base Spec. 7.5.1.1.4, 7.5.3.5,
// 2.7.2): a poisoned TLP sets Detected Parity Error and pcie.poisoned, not
// UR Detected; a good write to no BAR sets UR Detected.
static void test_err_status(Tb &tb)
{
	section("Status error bits, Device Status UR Detected only for UR");
	struct tlp t;
	const uint64_t S = BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_SCRATCH;
	cfg_wr(tb, 0x04, 0xffff'0006);
	cfg_wr(tb, 0x48, 0x000f'2910);
	CHECK_EQ(cfg_rd(tb, 0x04) >> 16, 0x0010, "Status: no error bit");
	CHECK_EQ(cfg_rd(tb, 0x48) >> 16, 0, "Device Status clear");
	uint32_t p0 = counter(tb, EXTOLL_PCIE_POISONED);
	uint32_t d2[2] = {0x44444444, 0x44444444};
	tlp_mwr(&t, S, d2, 2, 0xf, 0xf, HOST_ID);
	tb.drv().send(t, 1u << 14);                           // poisoned write: dropped
	uint32_t d = 0;
	tlp_cpl(&t, HOST_ID, 0, NIC_ID, 0x42, 0, 4, &d, 1);   // unexpected completion
	tb.drv().link().expect_in(TLP_R_CPL_UNEXPECTED);
	tb.drv().send(t);
	tb.drain();
	CHECK_EQ(cfg_rd(tb, 0x04) >> 16, 0x8010, "Detected Parity Error after a poisoned write");
	CHECK_EQ(cfg_rd(tb, 0x48) >> 16, 0, "UR Detected not set by a poisoned write or a stray completion");
	CHECK_EQ(counter(tb, EXTOLL_PCIE_POISONED) - p0, 1, "pcie.poisoned +1");
	CHECK(mem_rd(tb, S, 8) != 0x4444444444444444ull, "the poisoned write had no effect");
	tlp_mwr(&t, 0x10000000, &d, 1, 0xf, 0, HOST_ID);      // no BAR: unsupported
	tb.drv().send(t);
	tb.drain();
	CHECK_EQ(cfg_rd(tb, 0x48) >> 16, 0x8, "UR Detected after a write to no BAR");
	CHECK_EQ(cfg_rd(tb, 0x04) >> 16, 0x8010, "UR sent/received: no Status abort bit (only CA/UR completions received)");
	cfg_wr(tb, 0x04, 0x8000'0006);
	cfg_wr(tb, 0x48, 0x0008'2910);
	CHECK_EQ(cfg_rd(tb, 0x04) >> 16, 0x0010, "Detected Parity Error cleared (RW1C)");

	section("Status: completions for the NIC's own reads (SMFU tags 0x80..0x8f)");
	// none of the four completions below answers a read the NIC made
	tb.drv().link().expect_in(TLP_R_CPL_UNEXPECTED, 4);
	uint32_t ce0 = counter(tb, EXTOLL_PCIE_CPL_ERR);
	p0 = counter(tb, EXTOLL_PCIE_POISONED);
	tlp_cpl(&t, HOST_ID, TLP_CPL_UR, NIC_ID, 0x85, 0, 4, nullptr, 0);
	tb.drv().send(t);
	tb.drain();
	CHECK_EQ(cfg_rd(tb, 0x04) >> 16, 0x2010, "Received Master Abort after a UR completion");
	tlp_cpl(&t, HOST_ID, TLP_CPL_CA, NIC_ID, 0x86, 0, 4, nullptr, 0);
	tb.drv().send(t);
	tb.drain();
	CHECK_EQ(cfg_rd(tb, 0x04) >> 16, 0x3010, "Received Target Abort after a CA completion");
	tlp_cpl(&t, HOST_ID, TLP_CPL_UR, NIC_ID, 0x42, 0, 4, nullptr, 0);   // not our tag
	tb.drv().send(t);
	tb.drain();
	CHECK_EQ(counter(tb, EXTOLL_PCIE_CPL_ERR) - ce0, 2, "pcie.cpl_err counts only completions for our tags");
	cfg_wr(tb, 0x04, 0xffff'0046);   // clear; Parity Error Response on
	tlp_cpl(&t, HOST_ID, TLP_CPL_SC, NIC_ID, 0x87, 0, 4, &d, 1);
	tb.drv().send(t, 1u << 14);
	tb.drain();
	CHECK_EQ(cfg_rd(tb, 0x04) >> 16, 0x8110,
		 "poisoned completion for our read: Detected Parity Error, Master Data Parity Error (PER set)");
	CHECK_EQ(counter(tb, EXTOLL_PCIE_POISONED) - p0, 1, "pcie.poisoned +1");
	cfg_wr(tb, 0x04, 0xffff'0006);

	section("Status: Signaled Target Abort when the NIC completes an aperture read with CA");
	// an interval to a node nobody routes to: the read times out into a CA
	const uint64_t SM = BAR0 + EXTOLL_SMFU_BASE;
	uint32_t ca0 = counter(tb, EXTOLL_PCIE_CA_SENT);
	uint64_t ctrl = mem_rd(tb, SM + EXTOLL_SMFU_CTRL, 8);
	mem_wr(tb, SM + EXTOLL_SMFU_CTRL, 8, (ctrl & ~EXTOLL_SMFU_CTRL_TIMEOUT_MASK) |
	       1ull << EXTOLL_SMFU_CTRL_TIMEOUT_SHIFT);
	mem_wr(tb, SM + EXTOLL_SMFU_EG_START_N(0), 8, BAR2);
	mem_wr(tb, SM + EXTOLL_SMFU_EG_END_N(0), 8, BAR2 + 0xfff);
	mem_wr(tb, SM + EXTOLL_SMFU_EG_CTRL_N(0), 8, EXTOLL_SMFU_EG_CTRL_VALID_MASK |
	       5ull << EXTOLL_SMFU_EG_CTRL_NODE_SHIFT);
	tlp_mrd(&t, BAR2 + 0x40, 1, 0xf, 0, HOST_ID, 0x91);
	tb.drv().send(t);
	struct tlp c;
	bool got = tb.wait_rx(&c, 5000);
	CHECK(got && c.kind == TLP_CPL && c.status == TLP_CPL_CA && c.tag == 0x91,
	      "aperture read without an answer: CA completion (kind %d status %u)", c.kind, c.status);
	tb.drain();
	CHECK_EQ(cfg_rd(tb, 0x04) >> 16, 0x0810, "Signaled Target Abort after sending a CA completion");
	CHECK_EQ(counter(tb, EXTOLL_PCIE_CA_SENT) - ca0, 1, "pcie.ca_sent +1");
	mem_wr(tb, SM + EXTOLL_SMFU_EG_CTRL_N(0), 8, 0);
	mem_wr(tb, SM + EXTOLL_SMFU_CTRL, 8, ctrl);
	cfg_wr(tb, 0x04, 0xffff'0006);

	section("PM: D3hot -> memory requests UR, back to D0 with the state kept");
	cfg_wr(tb, 0x84, 0x3);
	tlp_mrd(&t, S, 2, 0xf, 0xf, HOST_ID, 0x90);
	expect_ur(tb, t, "MRd in D3hot", 0, 8, S & 0x7f);
	CHECK(mem_rd_ok_after_d0(tb, S), "registers work again in D0 without reprogramming");
	cfg_wr(tb, 0x48, 0x0008'2910);
}

static void test_bad(Tb &tb)
{
	section("unsupported requests");
	struct tlp t;
	const uint64_t S = BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_SCRATCH;
	uint32_t ur0 = counter(tb, EXTOLL_PCIE_UR), drop0 = counter(tb, EXTOLL_PCIE_DROP);
	uint32_t ap0 = counter(tb, EXTOLL_PCIE_APERTURE);
	uint32_t rx0 = counter(tb, EXTOLL_PCIE_RX_TLP), tx0 = counter(tb, EXTOLL_PCIE_TX_TLP);
	mem_wr(tb, S, 8, 0x5555aaaa5555aaaaull);
	tb.drain();

	tlp_mrd(&t, 0x10000000, 1, 0xf, 0, HOST_ID, 0x81);
	expect_ur(tb, t, "MRd to an unassigned address", 0, 4, 0);
	tlp_mrd(&t, 0x1000000000ull, 2, 0xf, 0xf, HOST_ID, 0x82);
	expect_ur(tb, t, "MRd64 above 4 GiB", 0, 8, 0);
	tlp_mrd(&t, BAR2 + 0x1234, 1, 0xc, 0, HOST_ID, 0x83);
	expect_ur(tb, t, "MRd to the aperture BAR2 (no SMFU interval: UR from the SMFU)", 0, 2, 0x36);
	tlp_mrd(&t, BAR0 + 0x8000, 2, 0xf, 0xf, HOST_ID, 0x84);
	expect_ur(tb, t, "MRd in BAR0 beyond the register map", 0, 8, 0);
	tlp_mrd(&t, BAR0 + EXTOLL_REGS_SIZE - 8, 4, 0xf, 0xf, HOST_ID, 0x85);
	expect_ur(tb, t, "MRd running past the register map", 0, 16, EXTOLL_REGS_SIZE - 8 & 0x7f);
	tlp_mrd(&t, BAR0, 32, 0xf, 0xf, HOST_ID, 0x86);
	expect_ur(tb, t, "MRd longer than 16 DW", 0, 128, 0);
	tlp_mrd(&t, S, 2, 0xf, 0xf, HOST_ID, 0x87);
	expect_ur(tb, t, "poisoned MRd", 1u << 14, 8, S & 0x7f);
	tlp_cfg(&t, false, 1, NIC_ID, 0x00, 0xf, 0, HOST_ID, 0x88);
	expect_ur(tb, t, "CfgRd1 (endpoint mode)");
	tlp_cfg(&t, true, 1, NIC_ID, 0x10, 0xf, 0x0, HOST_ID, 0x89);
	expect_ur(tb, t, "CfgWr1 (endpoint mode)");
	tlp_cfg(&t, false, 0, NIC_ID | 1, 0x00, 0xf, 0, HOST_ID, 0x8a);
	expect_ur(tb, t, "CfgRd0 to function 1");
	{
		uint32_t hdr[4] = {0x02000001, (uint32_t)HOST_ID << 16 | 0x8b << 8 | 0xf, 0xcf8, 0};
		tlp_mrd(&t, 0, 1, 0xf, 0, HOST_ID, 0x8b);
		struct tlp c;
		printf("   IORd -> UR\n");
		tb.drv().send(t, 0, hdr);
		if (tb.wait_rx(&c))
			CHECK(c.kind == TLP_CPL && c.status == TLP_CPL_UR && c.tag == 0x8b &&
				      c.byte_count == 4, "IORd: want UR, got kind %d status %u tag 0x%x",
			      c.kind, c.status, c.tag);
		else
			CHECK(false, "IORd: no completion");
	}
	uint32_t n_ur = 10;   // the aperture MRd is answered UR by the SMFU (smfu.eg_misses), not pcie.ur

	// memory space disabled
	cfg_wr(tb, 0x04, 0x0004, 0x3);
	tlp_mrd(&t, S, 2, 0xf, 0xf, HOST_ID, 0x8c);
	expect_ur(tb, t, "MRd with memory space disabled", 0, 8, S & 0x7f);
	n_ur++;
	printf("   posted writes that must be dropped:\n");
	mem_wr(tb, S, 8, 0x1111111111111111ull);          // memory disabled
	cfg_wr(tb, 0x04, 0x0006, 0x3);
	uint32_t d = 0x22222222;
	tlp_mwr(&t, 0x10000000, &d, 1, 0xf, 0, HOST_ID);  // no BAR
	tb.drv().send(t);
	tlp_mwr(&t, BAR2 + 0x100, &d, 1, 0xf, 0, HOST_ID); // aperture
	tb.drv().send(t);
	uint32_t d2[2] = {0x33333333, 0x33333333};
	tlp_mwr(&t, S, d2, 2, 0xf, 0xf, HOST_ID);          // poisoned
	tb.drv().send(t, 1u << 14);
	tlp_mwr(&t, BAR0 + 0x8000, d2, 2, 0xf, 0xf, HOST_ID); // beyond the map
	tb.drv().send(t);
	{
		// a message (Msg, routed to root complex, no data): posted, dropped
		uint32_t hdr[4] = {0x30000000, (uint32_t)HOST_ID << 16 | 0x20, 0, 0};
		tb.drv().send(t, 0, hdr);
		// an unexpected completion
		tlp_cpl(&t, HOST_ID, 0, NIC_ID, 0x42, 0, 4, &d, 1);
		tb.drv().link().expect_in(TLP_R_CPL_UNEXPECTED);
		tb.drv().send(t);
	}
	uint32_t n_drop = 6;  // the aperture MWr is dropped by the SMFU (smfu.eg_misses), not pcie.drop
	tb.drain(100);
	CHECK(tb.drv().rx().empty(), "no completion for dropped posted TLPs (%zu seen)",
	      tb.drv().rx().size());
	tb.drv().rx().clear();
	CHECK_EQ(mem_rd(tb, S, 8), 0x5555aaaa5555aaaaull, "scratch untouched by dropped writes");

	uint32_t ur1 = counter(tb, EXTOLL_PCIE_UR), drop1 = counter(tb, EXTOLL_PCIE_DROP);
	uint32_t ap1 = counter(tb, EXTOLL_PCIE_APERTURE);
	printf("   counters: ur +%u, drop +%u, aperture +%u\n", ur1 - ur0, drop1 - drop0, ap1 - ap0);
	CHECK_EQ(ur1 - ur0, n_ur, "pcie.ur counter");
	CHECK_EQ(drop1 - drop0, n_drop, "pcie.drop counter");
	CHECK_EQ(ap1 - ap0, 2, "pcie.aperture counter");
	CHECK_EQ(mem_rd(tb, BAR0 + EXTOLL_SMFU_BASE + EXTOLL_SMFU_EG_MISSES, 8) & 0xffffffff, 2,
		 "smfu.eg_misses: aperture MRd and MWr outside every interval");
	uint32_t rx1 = counter(tb, EXTOLL_PCIE_RX_TLP), tx1 = counter(tb, EXTOLL_PCIE_TX_TLP);
	CHECK(rx1 > rx0 && tx1 > tx0, "rx/tx TLP counters advance (%u->%u, %u->%u)", rx0, rx1,
	      tx0, tx1);
	uint32_t devsta = cfg_rd(tb, 0x48) >> 16;
	CHECK(devsta & 0x8, "DevSta.UR detected set");
	cfg_wr(tb, 0x48, 0x00080000, 0x4);
	CHECK(!((cfg_rd(tb, 0x48) >> 16) & 0x8), "DevSta.UR detected cleared (RW1C)");

	// the NIC still works after all that
	mem_wr(tb, S, 8, 0x0123456789abcdefull);
	CHECK_EQ(mem_rd(tb, S, 8), 0x0123456789abcdefull, "registers still work");
}

static void test_malformed(Tb &tb)
{
	section("malformed TLPs do not wedge the stream");
	// the two TLPs whose payload differs from their Length (the stray beat is no TLP)
	tb.drv().link().expect_in(TLP_R_LEN_PAYLOAD, 2);
	const uint64_t S = BAR0 + EXTOLL_INFO_BASE + EXTOLL_INFO_SCRATCH;
	// MWr announcing 2 DW, no payload beat: dropped
	struct tlp t;
	uint32_t d2[2] = {1, 2};
	tlp_mwr(&t, S, d2, 2, 0xf, 0xf, HOST_ID);
	std::vector<TlpBeat> b = tlp_to_beats(t);
	b.resize(1);
	b[0].eop = true;
	tb.drv().send_beats(b);
	// a stray payload beat without sop: ignored
	TlpBeat stray{};
	stray.dw[0] = 0xdeadbeef;
	stray.keep = 1;
	stray.eop = true;
	tb.drv().send_beats({stray});
	// MWr with 1 DW announced but two beats of payload: the surplus is ignored
	tlp_mwr(&t, S, d2, 1, 0xf, 0, HOST_ID);
	t.payload_dw = 2;
	b = tlp_to_beats(t);
	TlpBeat extra{};
	extra.keep = 0xf;
	extra.eop = true;
	b.back().eop = false;
	b.back().keep = 0xf;
	b.push_back(extra);
	tb.drv().send_beats(b);
	tb.drain();
	CHECK_EQ(mem_rd(tb, S, 8), 0x0123456700000001ull, "MWr with surplus payload writes 1 DW");
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	uint32_t seed = a.seed;
	Tb tb(seed, a.verbose);
	tb.drv().valid_prob = 0.7;   // gaps on s_tlp
	tb.drv().ready_prob = 0.6;   // back-pressure on m_tlp
	printf("tb_extoll_nic: seed %u, s_tlp valid %.0f%%, m_tlp ready %.0f%%\n", seed,
	       tb.drv().valid_prob * 100, tb.drv().ready_prob * 100);
	tb.reset();

	test_config(tb);
	test_bars(tb);
	test_mem_enable(tb);
	test_info(tb);
	test_scratch(tb);
	test_burst(tb);
	test_irq(tb);
	test_msix(tb);
	test_err_status(tb);
	test_bad(tb);
	test_malformed(tb);

	tb.drain();
	CHECK(tb.drv().rx().empty(), "no unexpected TLPs left (%zu)", tb.drv().rx().size());
	CHECK_EQ(tb.drv().errors(), 0, "TLP stream protocol errors");
	return tb_finish("tb_extoll_nic", "%" PRIu64 " cycles, %" PRIu64 " beats in, %" PRIu64 " beats out",
			 tb.cycle(), tb.drv().tx_beats(), tb.drv().rx_beats());
}
