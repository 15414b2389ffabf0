// SPDX-License-Identifier: Apache-2.0
//
// tb_pcie_cfg_t0: block testbench of rtl/pcie/pcie_cfg_t0.sv, the Type-0
// configuration space of the endpoint, judged by the PCI Express Base
// Specification (Type 0 header, PCI Express Capability):
//   * identity and reset values of every implemented register, reserved and
//     unimplemented registers (BAR1, BAR3-5, CardBus CIS, expansion ROM, the
//     extended space from 0x100) reading 0;
//   * a write of all ones to every dword: only the RW bits change (the
//     table of writable bits below is taken from the specification), RO and
//     hard-wired bits keep their value;
//   * BAR sizing: all ones reads back the size mask with the low attribute
//     bits (memory, 32-bit, non-prefetchable) zero; base addresses drive bar0/bar2;
//     built with TB_APERTURE_64 (tb_pcie_cfg_t0_64): BAR2/3 is one 64-bit
//     prefetchable BAR of 2^TB_APERTURE_LOG2 bytes, the upper half sizes too;
//   * Command: MSE, BME, INTx Disable drive mem_en, bus_master, intx_disable;
//     I/O space enable is hard-wired 0 (no I/O BAR);
//   * Status: Capabilities List set, Interrupt Status follows intx_pending;
//     Device Status UR Detected is RW1C (write 0 keeps it, write 1 clears it,
//     a new event wins) and only with its byte enabled; the error bits of the
//     Status register (7.5.1.1.4) are set by their events only (Master Data
//     Parity Error only with Parity Error Response), RW1C per byte, Signaled
//     System Error never (no ERR_* messages);
//   * Power Management capability (7.5.2): version 3, D0/D3hot, No_Soft_Reset;
//     a write of D1/D2 changes nothing; in D3hot mem_en/bus_master are off and
//     Command keeps its value; back in D0 they return;
//   * MSI-X capability (7.7.2): one vector, table/PBA in BAR0 at 0x1000/0x1800,
//     Enable and Function Mask RW and drive msix_en/msix_fmask;
//   * DevCap advertises the Extended Tag Field (the NIC uses 8-bit tags), its
//     enable in DevCtl is RW and set after reset;
//   * byte enables: only the enabled bytes of a CfgWr0 are written, BE 0 writes nothing;
//   * the capability list: pointer 0x40 (dword aligned): PCI Express (ID 0x10,
//     version 2, endpoint) -> PM (0x01) -> MSI-X (0x11), last;
//   * completions: CplD with one dword for CfgRd0, Cpl for CfgWr0, status SC,
//     byte count 4, lower address 0, requester ID/tag/TC/attributes echoed,
//     completer ID = the target ID; the captured bus/device (cpl_id) comes
//     from the CfgWr0s only; one request at a time.
// Requests come with random gaps, completions are taken with random
// back-pressure (tlp_port.h checks the stream rules).
//
// Usage: tb_pcie_cfg_t0 [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <string>

#include "Vpcie_cfg_t0.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"

// Parameter defaults of pcie_cfg_t0
static const uint32_t VENDOR_ID = 0x1ee7, DEVICE_ID = 0x0001, CLASS_CODE = 0x028000;
static const uint32_t BAR0_SIZE = 1u << 16;
#ifdef TB_APERTURE_64
static const uint64_t BAR2_SIZE = 1ull << TB_APERTURE_LOG2;   // 64-bit prefetchable BAR2/3
static const uint32_t BAR2_TYPE = 0xc;
#else
static const uint64_t BAR2_SIZE = 1ull << 28;
static const uint32_t BAR2_TYPE = 0x0;
#endif
static const unsigned LINK_SPEED = 2, LINK_WIDTH = 4;

static const uint16_t RC_ID = 0x0000;
static const uint16_t DEV = 0x0300;   // bus 3, device 0, function 0

// Writable bits of each dword of the Type 0 header and the PCI Express
// capability at 0x40 (PCIe Base Spec. 7.5.1, 7.5.3); everything else is RO,
// hard-wired or RW1C (Device Status, checked on its own).
static uint32_t rw_mask(unsigned reg)
{
	switch (reg) {
	case 0x04: return 0x0000'0546;      // Command: MSE, BME, Parity Error Resp., SERR# En., INTx Disable
	case 0x0c: return 0x0000'00ff;      // Cache Line Size (Latency Timer: 0 in PCIe)
	case 0x10: return ~(BAR0_SIZE - 1); // BAR0 address bits above the size
	case 0x18: return (uint32_t)~(BAR2_SIZE - 1) & ~0xfu;   // BAR2
#ifdef TB_APERTURE_64
	case 0x1c: return (uint32_t)(~(BAR2_SIZE - 1) >> 32);  // BAR3: upper half of BAR2
#endif
	case 0x3c: return 0x0000'00ff;      // Interrupt Line
	case 0x48: return 0x0000'79ff;      // Device Control (Extended Tag; no phantom, aux power, FLR)
	case 0x50: return 0x0000'00cb;      // Link Control: ASPM, RCB, Common Clock, Extended Synch
	case 0x70: return 0x0000'000f;      // Link Control 2: Target Link Speed
	case 0x84: return 0x0000'0003;      // PMCSR: PowerState (D3hot = 11b is supported)
	case 0x88: return 0xc000'0000;      // MSI-X Message Control: Enable, Function Mask
	default: return 0;
	}
}

// Reset values (all other dwords of the first 256 bytes and the extended space: 0).
static uint32_t reset_value(unsigned reg)
{
	switch (reg) {
	case 0x00: return DEVICE_ID << 16 | VENDOR_ID;
	case 0x04: return 0x0010'0000;                    // Status: Capabilities List
	case 0x08: return CLASS_CODE << 8;                // revision 0
	case 0x0c: return 0;                              // header type 0, single function
	case 0x2c: return DEVICE_ID << 16 | VENDOR_ID;    // subsystem = vendor/device
	case 0x34: return 0x40;                           // Capabilities Pointer
	case 0x3c: return 0x0000'0100;                    // Interrupt Pin INTA
	case 0x18: return BAR2_TYPE;                      // memory; 64-bit prefetchable (TB_APERTURE_64)
	case 0x40: return 0x0002'8010;                    // PCIe cap: ID 0x10, next 0x80, version 2, endpoint
	case 0x44: return 0x0000'8fe1;                    // DevCap: MPS 256, Extended Tag, no L0s/L1 limits, RBER
	case 0x48: return 0x0000'2910;                    // DevCtl: MRRS 512 B, Ext. Tag, No Snoop, Relaxed Ordering
	case 0x4c: return LINK_WIDTH << 4 | LINK_SPEED;   // LinkCap: max width and speed
	case 0x50: return (1u << 12 | LINK_WIDTH << 4 | LINK_SPEED) << 16;   // LinkSta: slot clock
	case 0x6c: return ((1u << LINK_SPEED) - 1) << 1;  // LinkCap2: supported speeds vector
	case 0x70: return LINK_SPEED;                     // LinkCtl2: target speed = the highest
	case 0x80: return 0x0003'8801;                    // PM cap: ID 0x01, next 0x88, PMC version 3
	case 0x84: return 0x0000'0008;                    // PMCSR: D0, No_Soft_Reset
	case 0x88: return 0x0000'0011;                    // MSI-X cap: ID 0x11, last, table size 1, off
	case 0x8c: return 0x0000'1000;                    // Table Offset 0x1000, BIR 0
	case 0x90: return 0x0000'1800;                    // PBA Offset 0x1800, BIR 0
	default: return 0;
	}
}

class Tb : public TbModel<Vpcie_cfg_t0> {
public:
	Tb(uint32_t seed, bool verbose)
		: req("req", &top()->req_valid, &top()->req_ready, &top()->req, &top()->req_wdata, seed * 3 + 1),
		  cpl("m_cpl", TLP_PINS(top(), m_cpl), seed * 3 + 2)
	{
		req.verbose = cpl.verbose = verbose;
		top()->intx_pending = 0;
		clear_events();
	}

	void clear_events()
	{
		top()->ur_detected = 0;
		top()->ev_sig_ca = top()->ev_rcv_ca = top()->ev_rcv_ur = 0;
		top()->ev_poisoned = top()->ev_mdpe = 0;
	}

	TlpReqSource req;
	TlpSink<VlWide<4>> cpl;
	unsigned busy_takes = 0;   // requests taken while a completion was pending

	bool wait_cpl(RxTlp *out, unsigned timeout = 200)
	{
		if (!wait_for([&] { return !cpl.rx().empty(); }, timeout))
			return false;
		*out = cpl.rx().front();
		cpl.rx().pop_front();
		return true;
	}

private:
	void drive() override
	{
		req.drive();
		cpl.drive();
	}
	void sample() override
	{
		if (top()->req_valid && top()->req_ready && (top()->m_cpl_valid || cpl.in_tlp()))
			busy_takes++;
		req.sample();
		cpl.sample();
	}
	void posedge() override { clear_events(); }   // pulses
};

static uint8_t g_tag;

// One config request to target id; checks the completion fields against the
// request and returns the read data (writes: 0).
static uint32_t cfg(Tb &tb, bool wr, uint16_t reg, uint32_t val = 0, uint8_t be = 0xf, uint16_t id = DEV,
		    uint32_t dw0_or = 0)
{
	struct tlp t;
	uint8_t tag = g_tag++;
	tlp_cfg(&t, wr, 0, id, reg, be, val, RC_ID, tag);
	tb.req.send(t, dw0_or);
	RxTlp r;
	if (!tb.wait_cpl(&r)) {
		CHECK(false, "Cfg%s0 0x%03x: no completion", wr ? "Wr" : "Rd", reg);
		return 0xdeadbeef;
	}
	const struct tlp &c = r.t;
	bool ok = c.kind == (wr ? TLP_CPL : TLP_CPLD) && c.status == TLP_CPL_SC && c.completer_id == id &&
		  c.requester_id == RC_ID && c.tag == tag && c.byte_count == 4 && c.lower_addr == 0 &&
		  (wr || c.len_dw == 1) && (r.hdr[0] & 0x0074'3000u) == (dw0_or & 0x0074'3000u);
	CHECK(ok, "Cfg%s0 0x%03x: completion kind %d status %u completer %04x req %04x tag %u/%u bc %u la %u "
		  "dw0 %08x", wr ? "Wr" : "Rd", reg, c.kind, c.status, c.completer_id, c.requester_id, c.tag, tag,
	      c.byte_count, c.lower_addr, r.hdr[0]);
	return wr ? 0 : c.payload[0];
}
static uint32_t rd(Tb &tb, uint16_t reg) { return cfg(tb, false, reg); }
static void wr(Tb &tb, uint16_t reg, uint32_t v, uint8_t be = 0xf) { cfg(tb, true, reg, v, be); }

static std::string hexs(const char *what, unsigned reg)
{
	char b[96];
	snprintf(b, sizeof(b), "%s 0x%03x", what, reg);
	return b;
}

static void test_reset_values(Tb &tb)
{
	section("reset values: every dword of the header and capability, reserved space 0");
	for (unsigned reg = 0; reg < 0x100; reg += 4)
		CHECK_EQ(rd(tb, reg), reset_value(reg), hexs("reset value of", reg).c_str());
	for (unsigned reg : {0x100u, 0x104u, 0x400u, 0xffcu})
		CHECK_EQ(rd(tb, reg), 0, hexs("extended space (no extended capability)", reg).c_str());
	CHECK(!tb.top()->mem_en && !tb.top()->bus_master && !tb.top()->intx_disable,
	      "Command bits clear after reset");
	CHECK_EQ(tb.top()->bar0, 0, "bar0 after reset");
	CHECK_EQ(tb.top()->bar2, 0, "bar2 after reset");
}

// Write all ones to every dword: only the RW bits take them.
static void test_rw_bits(Tb &tb)
{
	section("all ones to every dword: RW bits set, RO/hard-wired bits unchanged");
	for (unsigned reg = 0; reg < 0x100; reg += 4) {
		uint32_t before = rd(tb, reg);
		wr(tb, reg, 0xffffffff);
		uint32_t want = (before & ~rw_mask(reg)) | rw_mask(reg);
		CHECK_EQ(rd(tb, reg), want, hexs("after writing all ones to", reg).c_str());
		wr(tb, reg, before & rw_mask(reg));   // restore (Device Status UR is 0: nothing to clear)
		CHECK_EQ(rd(tb, reg), before, hexs("restored", reg).c_str());
	}
	wr(tb, 0x100, 0xffffffff);
	CHECK_EQ(rd(tb, 0x100), 0, "extended space ignores writes");
}

static void test_bars(Tb &tb)
{
	section("BAR sizing and assignment");
	wr(tb, 0x10, 0xffffffff);
	uint32_t m0 = rd(tb, 0x10);
	CHECK_EQ(m0, ~(BAR0_SIZE - 1), "BAR0 size mask (64 KiB, 32-bit memory, non-prefetchable)");
	CHECK_EQ(m0 & 0xf, 0, "BAR0: memory space, 32-bit, not prefetchable");
	CHECK_EQ(~(m0 & ~0xfu) + 1, BAR0_SIZE, "BAR0 size from the mask");
	wr(tb, 0x18, 0xffffffff);
	uint32_t m2 = rd(tb, 0x18);
#ifdef TB_APERTURE_64
	// 64-bit BAR sizing (7.5.1.2.1): both halves written with all ones
	wr(tb, 0x1c, 0xffffffff);
	uint64_t m64 = (uint64_t)rd(tb, 0x1c) << 32 | m2;
	CHECK_EQ(m2 & 0xf, 0xc, "BAR2: memory, 64-bit (type 10b), prefetchable");
	CHECK_EQ(~(m64 & ~0xfull) + 1, BAR2_SIZE, "BAR2/3 size from the 64-bit mask");
	CHECK(BAR2_SIZE > (1ull << 32), "the aperture is larger than 4 GiB");
	const std::initializer_list<unsigned> unimpl = {0x14u, 0x20u, 0x24u, 0x30u};
#else
	CHECK_EQ(m2, (uint32_t)~(BAR2_SIZE - 1), "BAR2 size mask (256 MiB)");
	CHECK_EQ(~(m2 & ~0xfu) + 1, BAR2_SIZE, "BAR2 size from the mask");
	const std::initializer_list<unsigned> unimpl = {0x14u, 0x1cu, 0x20u, 0x24u, 0x30u};
#endif
	for (unsigned reg : unimpl) {
		wr(tb, reg, 0xffffffff);
		CHECK_EQ(rd(tb, reg), 0, hexs("unimplemented BAR / expansion ROM sizes to 0:", reg).c_str());
	}
	wr(tb, 0x10, 0xfe00abcd);   // low bits below the size are hard-wired 0
	CHECK_EQ(rd(tb, 0x10), 0xfe000000, "BAR0 base, bits below the size dropped");
	CHECK_EQ(tb.top()->bar0, 0xfe000000, "bar0 output");
#ifdef TB_APERTURE_64
	// above 4 GiB, aligned to its size (a GPU-class BAR)
	uint64_t base = 0x0000'4000'0000'0000ull & ~(BAR2_SIZE - 1);
	wr(tb, 0x18, (uint32_t)base | 0x1234567);
	wr(tb, 0x1c, (uint32_t)(base >> 32) | (uint32_t)((BAR2_SIZE - 1) >> 32));
	CHECK_EQ(rd(tb, 0x18), (uint32_t)base | 0xc, "BAR2 base (low), type bits kept");
	CHECK_EQ(rd(tb, 0x1c), (uint32_t)(base >> 32), "BAR3 base (high), bits below the size dropped");
	CHECK_EQ(tb.top()->bar2, base, "bar2 output (64-bit)");
#else
	wr(tb, 0x18, 0xe1234567);
	CHECK_EQ(rd(tb, 0x18), 0xe0000000, "BAR2 base");
	CHECK_EQ(tb.top()->bar2, 0xe0000000, "bar2 output");
#endif
	wr(tb, 0x10, 0x00ff0000, 0x4);   // byte 2 only
	CHECK_EQ(rd(tb, 0x10), 0xfeff0000, "BAR0 byte 2 written alone");
	wr(tb, 0x10, 0xfe000000);
}

static void test_command(Tb &tb)
{
	section("Command register: MSE, BME, INTx Disable; I/O space hard-wired 0");
	wr(tb, 0x04, 0x0001);
	CHECK_EQ(rd(tb, 0x04) & 0xffff, 0, "I/O Space Enable stays 0 (no I/O BAR)");
	wr(tb, 0x04, 0x0002);
	CHECK(tb.top()->mem_en && !tb.top()->bus_master && !tb.top()->intx_disable, "MSE alone -> mem_en");
	wr(tb, 0x04, 0x0004);
	CHECK(!tb.top()->mem_en && tb.top()->bus_master && !tb.top()->intx_disable, "BME alone -> bus_master");
	wr(tb, 0x04, 0x0400);
	CHECK(!tb.top()->mem_en && !tb.top()->bus_master && tb.top()->intx_disable,
	      "INTx Disable alone -> intx_disable");
	wr(tb, 0x04, 0x0006);
	CHECK(tb.top()->mem_en && tb.top()->bus_master && !tb.top()->intx_disable, "MSE|BME");

	section("byte enables");
	wr(tb, 0x04, 0x0400, 0x1);   // byte 0 only: bit 10 (byte 1) not written
	CHECK_EQ(rd(tb, 0x04) & 0xffff, 0x0000, "BE 0001: low byte written (0), byte 1 untouched");
	CHECK(!tb.top()->intx_disable, "BE 0001: INTx Disable untouched");
	wr(tb, 0x04, 0x0406, 0x2);   // byte 1 only
	CHECK_EQ(rd(tb, 0x04) & 0xffff, 0x0400, "BE 0010: only byte 1 written");
	wr(tb, 0x04, 0x0006, 0x0);   // zero-length write: completes, writes nothing
	CHECK_EQ(rd(tb, 0x04) & 0xffff, 0x0400, "BE 0000 writes nothing");
	wr(tb, 0x3c, 0x5a5a5a5a, 0x8);
	CHECK_EQ(rd(tb, 0x3c), 0x0000'0100, "BE 1000 on Interrupt Line/Pin: nothing writable");
	wr(tb, 0x3c, 0x5a5a5a5a, 0x1);
	CHECK_EQ(rd(tb, 0x3c), 0x0000'015a, "BE 0001: Interrupt Line written");
	wr(tb, 0x04, 0x0006);
	wr(tb, 0x3c, 0);
}

static void test_status(Tb &tb)
{
	section("Status: Interrupt Status; Device Status UR Detected (RW1C)");
	tb.top()->intx_pending = 1;
	CHECK_EQ(rd(tb, 0x04) >> 16, 0x0018, "Interrupt Status with intx_pending");
	wr(tb, 0x04, 0xffff0006);
	CHECK_EQ(rd(tb, 0x04) >> 16, 0x0018, "Status ignores writes of ones (nothing to clear)");
	tb.top()->intx_pending = 0;
	CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010, "Interrupt Status clear");

	tb.top()->ur_detected = 1;
	tb.tick();
	CHECK_EQ(rd(tb, 0x48) >> 16, 0x0008, "UR Detected set by ur_detected");
	wr(tb, 0x48, 0x0000'2910);
	CHECK_EQ(rd(tb, 0x48) >> 16, 0x0008, "writing 0 keeps UR Detected");
	wr(tb, 0x48, 0x0008'2910, 0x3);
	CHECK_EQ(rd(tb, 0x48) >> 16, 0x0008, "a 1 in a byte not enabled keeps UR Detected");
	wr(tb, 0x48, 0x0008'2910);
	CHECK_EQ(rd(tb, 0x48), 0x0000'2910, "writing 1 clears UR Detected, Device Control kept");

	// a new event in the cycle the clearing write is taken wins
	tb.top()->ur_detected = 1;
	tb.tick();
	double prob = tb.req.prob;
	tb.req.prob = 1.0;   // the request is offered, and taken (idle), at the next edge
	struct tlp t;
	tlp_cfg(&t, true, 0, DEV, 0x48, 0xf, 0x0008'2910, RC_ID, g_tag++);
	uint64_t taken = tb.req.taken();
	tb.req.send(t);
	tb.top()->ur_detected = 1;
	tb.tick();
	CHECK_EQ(tb.req.taken() - taken, 1, "clearing write taken in the cycle of the event");
	RxTlp r;
	CHECK(tb.wait_cpl(&r), "clearing write completed");
	tb.req.prob = prob;
	CHECK_EQ(rd(tb, 0x48) >> 16, 0x0008, "an event in the cycle of the clear wins");
	wr(tb, 0x48, 0x0008'2910);
	CHECK_EQ(rd(tb, 0x48) >> 16, 0, "cleared");
}

// An event input of the model, and a pulse of it for one cycle.
typedef uint8_t &(*EvPin)(Vpcie_cfg_t0 &);
#define EV(pin) [](Vpcie_cfg_t0 &m) -> uint8_t & { return m.pin; }
static void pulse(Tb &tb, EvPin ev)
{
	ev(*tb.top()) = 1;
	tb.tick();
}

static void test_error_bits(Tb &tb)
{
	section("Status error bits (7.5.1.1.4): set by their events, RW1C");
	struct {
		EvPin ev;
		uint32_t bit;
		const char *name;
	} evs[] = {
		{EV(ev_poisoned), 15, "Detected Parity Error <- poisoned TLP received"},
		{EV(ev_rcv_ur), 13, "Received Master Abort <- UR completion"},
		{EV(ev_rcv_ca), 12, "Received Target Abort <- CA completion"},
		{EV(ev_sig_ca), 11, "Signaled Target Abort <- CA completion sent"},
	};
	wr(tb, 0x04, 0x0006);   // Parity Error Response off
	CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010, "no error bit after reset");
	for (auto &e : evs) {
		pulse(tb, e.ev);
		CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010 | 1u << e.bit, e.name);
		CHECK_EQ(rd(tb, 0x48) >> 16, 0, "Device Status UR Detected untouched");
		wr(tb, 0x04, 0x0006);
		CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010 | 1u << e.bit, "writing 0 keeps it");
		wr(tb, 0x04, (1u << (16 + e.bit)) | 0x0006, 0x7);   // bits 11-15: byte 3 not enabled
		CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010 | 1u << e.bit, "a 1 in a byte not enabled keeps it");
		wr(tb, 0x04, (1u << (16 + e.bit)) | 0x0006);
		CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010, "writing 1 clears it");
	}
	pulse(tb, EV(ev_mdpe));
	CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010, "Master Data Parity Error needs Parity Error Response");
	wr(tb, 0x04, 0x0046);
	pulse(tb, EV(ev_mdpe));
	CHECK_EQ(rd(tb, 0x04) >> 16, 0x0110, "Master Data Parity Error with Parity Error Response");
	pulse(tb, EV(ev_poisoned));
	pulse(tb, EV(ev_rcv_ur));
	CHECK_EQ(rd(tb, 0x04) >> 16, 0xa110, "several bits at once");
	wr(tb, 0x04, 0x0100'0046);
	CHECK_EQ(rd(tb, 0x04) >> 16, 0xa010, "clearing one leaves the others");
	wr(tb, 0x04, 0xffff'0006);
	CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010, "all ones clears every error bit; Signaled System Error stays 0");
	pulse(tb, EV(ur_detected));
	CHECK_EQ(rd(tb, 0x04) >> 16, 0x0010, "UR Detected sets no Status bit (it is a Device Status bit)");
	wr(tb, 0x48, 0x0008'2910);
}

static void test_pm(Tb &tb)
{
	section("Power Management (7.5.2): D0 <-> D3hot, D1/D2 ignored, No_Soft_Reset");
	wr(tb, 0x04, 0x0006);
	CHECK(tb.top()->mem_en && tb.top()->bus_master && !tb.top()->d3hot, "D0: MSE, BME in effect");
	for (uint32_t st : {1u, 2u}) {
		wr(tb, 0x84, st);
		CHECK_EQ(rd(tb, 0x84), 0x0000'0008, "a write of the unsupported D1/D2 changes nothing");
	}
	wr(tb, 0x84, 0x3);
	CHECK_EQ(rd(tb, 0x84), 0x0000'000b, "D3hot, No_Soft_Reset");
	CHECK(tb.top()->d3hot && !tb.top()->mem_en && !tb.top()->bus_master,
	      "D3hot: no memory space, no bus mastering");
	CHECK_EQ(rd(tb, 0x04) & 0xffff, 0x0006, "Command keeps its value in D3hot");
	CHECK_EQ(rd(tb, 0x00), DEVICE_ID << 16 | VENDOR_ID, "configuration requests still served in D3hot");
	wr(tb, 0x84, 0x3, 0x0);
	CHECK(tb.top()->d3hot, "BE 0000 writes nothing");
	wr(tb, 0x84, 0x0);
	CHECK(!tb.top()->d3hot && tb.top()->mem_en && tb.top()->bus_master,
	      "back in D0: MSE, BME in effect again without reprogramming (No_Soft_Reset)");
	CHECK_EQ(rd(tb, 0x10), 0xfe000000, "BAR0 kept across D3hot");
}

static void test_msix_cap(Tb &tb)
{
	section("MSI-X capability (7.7.2): Enable, Function Mask");
	CHECK(!tb.top()->msix_en && !tb.top()->msix_fmask, "disabled, unmasked after reset");
	wr(tb, 0x88, 0x8000'0000);
	CHECK(tb.top()->msix_en && !tb.top()->msix_fmask, "MSI-X Enable -> msix_en");
	wr(tb, 0x88, 0xc000'0000);
	CHECK(tb.top()->msix_en && tb.top()->msix_fmask, "Function Mask -> msix_fmask");
	CHECK_EQ(rd(tb, 0x88), 0xc000'0011, "read back; table size and header read-only");
	wr(tb, 0x88, 0x0000'0000, 0x7);
	CHECK(tb.top()->msix_en && tb.top()->msix_fmask, "byte 3 not enabled: nothing written");
	wr(tb, 0x88, 0x0000'0000);
	CHECK(!tb.top()->msix_en && !tb.top()->msix_fmask, "cleared");
	for (unsigned reg : {0x8cu, 0x90u}) {
		uint32_t v = rd(tb, reg);
		wr(tb, reg, ~v);
		CHECK_EQ(rd(tb, reg), v, hexs("Table/PBA Offset read-only:", reg).c_str());
	}
}

static void test_cap_list(Tb &tb)
{
	section("capability list");
	CHECK(rd(tb, 0x04) & (1u << 20), "Status.Capabilities List set");
	unsigned ptr = rd(tb, 0x34) & 0xff, n = 0, pcie = 0;
	while (ptr && n < 48) {
		CHECK(ptr >= 0x40 && (ptr & 3) == 0, "capability pointer 0x%02x inside the device area, aligned", ptr);
		uint32_t h = rd(tb, (uint16_t)ptr);
		if ((h & 0xff) == 0x10)
			pcie = ptr;
		ptr = (h >> 8) & 0xfc;
		n++;
	}
	CHECK(n >= 1 && n < 48, "capability list ends (%u entries)", n);
	CHECK(pcie != 0, "PCI Express capability present");
	CHECK_EQ(n, 3, "three capabilities: PCI Express, PM, MSI-X");
	CHECK_EQ(rd(tb, 0x80) & 0xff, 0x01, "PM capability at 0x80");
	CHECK_EQ((rd(tb, 0x80) >> 16) & 7, 3, "PM version 3 (PCI PM 1.2)");
	CHECK_EQ(rd(tb, 0x88) & 0xff, 0x11, "MSI-X capability at 0x88");
	CHECK_EQ((rd(tb, 0x88) >> 16) & 0x7ff, 0, "MSI-X table size 1");
	CHECK_EQ(rd(tb, 0x8c) & 7, 0, "MSI-X table in BAR0");
	CHECK_EQ(rd(tb, 0x8c) & ~7u, 0x1000, "MSI-X table at 0x1000 (extoll_regs.h EXTOLL_MSIX_BASE)");
	CHECK_EQ(rd(tb, 0x90), 0x1800, "MSI-X PBA at BAR0 0x1800");
	uint32_t h = pcie ? rd(tb, (uint16_t)pcie) : 0;
	CHECK_EQ((h >> 16) & 0xf, 2, "PCI Express capability version 2");
	CHECK_EQ((h >> 20) & 0xf, 0, "device/port type: PCI Express endpoint");
	uint32_t devcap = rd(tb, (uint16_t)(pcie + 4));
	uint32_t devctl = rd(tb, (uint16_t)(pcie + 8));
	CHECK_EQ(devcap & 7, 1, "Max_Payload_Size Supported 256 B (the SMFU splits its MWr at the programmed MPS)");
	CHECK(devcap & (1u << 5), "Extended Tag Field Supported (the NIC's tags are 8-bit)");
	CHECK(devctl & (1u << 8), "Extended Tag Field Enable set after reset");
	CHECK_EQ((devctl >> 5) & 7, 0, "Max_Payload_Size 128 B after reset");
	CHECK_EQ((devctl >> 12) & 7, 2, "Max_Read_Request_Size 512 B after reset");
	uint32_t lnksta = rd(tb, (uint16_t)(pcie + 0x10)) >> 16;
	uint32_t lnkcap = rd(tb, (uint16_t)(pcie + 0xc));
	CHECK_EQ(lnksta & 0xf, LINK_SPEED, "current link speed");
	CHECK_EQ((lnksta >> 4) & 0x3f, LINK_WIDTH, "negotiated link width");
	CHECK((lnksta & 0xf) <= (lnkcap & 0xf) && ((lnksta >> 4) & 0x3f) <= ((lnkcap >> 4) & 0x3f),
	      "link status within the link capabilities");
	// MPS / MRRS as Linux programs them reach the SMFU (dev_mps, dev_mrrs)
	CHECK(tb.top()->dev_mps == 0 && tb.top()->dev_mrrs == 2, "dev_mps/dev_mrrs = reset DevCtl (128 B / 512 B)");
	wr(tb, (uint16_t)(pcie + 8), (devctl & ~0x70e0u) | (1u << 5) | (5u << 12), 0x3);
	CHECK(tb.top()->dev_mps == 1 && tb.top()->dev_mrrs == 5, "dev_mps/dev_mrrs follow DevCtl (256 B / 4096 B)");
	wr(tb, (uint16_t)(pcie + 8), devctl, 0x3);
	CHECK(tb.top()->dev_mps == 0 && tb.top()->dev_mrrs == 2, "dev_mps/dev_mrrs back at 128 B / 512 B");
}

static void test_capture(Tb &tb)
{
	section("completer ID: target of the request, bus/device captured from CfgWr0");
	wr(tb, 0x0c, 0x10);
	CHECK_EQ(tb.top()->cpl_id, DEV, "cpl_id after a CfgWr0 to 03:00.0");
	cfg(tb, false, 0x00, 0, 0xf, 0x0510);   // CfgRd0 to 05:02.0: completer = target
	CHECK_EQ(tb.top()->cpl_id, DEV, "a CfgRd0 does not change the captured ID");
	cfg(tb, true, 0x0c, 0x20, 0xf, 0x0510);
	CHECK_EQ(tb.top()->cpl_id, 0x0510, "cpl_id after a CfgWr0 to 05:02.0");
	CHECK_EQ(rd(tb, 0x0c) & 0xff, 0x20, "the write landed");
	cfg(tb, true, 0x0c, 0, 0xf, DEV);
	CHECK_EQ(tb.top()->cpl_id, DEV, "cpl_id back to 03:00.0");
	section("TC and attributes echoed in the completion");
	// TC 5 (bits 22:20), Attr[2] IDO (18), Relaxed Ordering (13), No Snoop (12)
	cfg(tb, false, 0x00, 0, 0xf, DEV, 5u << 20 | 1u << 18 | 3u << 12);
	cfg(tb, true, 0x0c, 0, 0xf, DEV, 3u << 20 | 1u << 12);
}

// Many requests back to back, random gaps and back-pressure: one completion
// per request, in order, and no request taken while a completion is pending.
static void test_stream(Tb &tb, uint32_t seed)
{
	section("200 requests back to back, random back-pressure");
	std::mt19937 rng(seed);
	tb.req.prob = 0.8;
	tb.cpl.prob = 0.4;
	const unsigned N = 200;
	uint8_t tags[N];
	uint32_t vals[N];
	for (unsigned i = 0; i < N; i++) {
		struct tlp t;
		tags[i] = g_tag++;
		vals[i] = rng() & 0xff;
		bool w = i % 2 == 0;
		tlp_cfg(&t, w, 0, DEV, 0x3c, 0x1, vals[w ? i : i - 1], RC_ID, tags[i]);
		tb.req.send(t);
	}
	unsigned got = 0, bad = 0;
	for (unsigned i = 0; i < N; i++) {
		RxTlp r;
		if (!tb.wait_cpl(&r, 2000))
			break;
		got++;
		bool w = i % 2 == 0;
		if (r.t.tag != tags[i] || r.t.kind != (w ? TLP_CPL : TLP_CPLD) ||
		    (!w && r.t.payload[0] != (0x100u | vals[i - 1])))
			bad++;
	}
	CHECK_EQ(got, N, "one completion per request");
	CHECK_EQ(bad, 0, "completions in order, each read sees the write before it");
	CHECK_EQ(tb.busy_takes, 0, "no request taken while a completion is pending");
	tb.req.prob = 1.0;
	tb.cpl.prob = 1.0;
	wr(tb, 0x3c, 0);
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	Tb tb(a.seed, a.verbose);
	tb.req.prob = 0.7;
	tb.cpl.prob = 0.6;
	printf("tb_pcie_cfg_t0: seed %u\n", a.seed);
	tb.reset();

	test_reset_values(tb);
	test_rw_bits(tb);
	test_bars(tb);
	test_command(tb);
	test_status(tb);
	test_error_bits(tb);
	test_pm(tb);
	test_msix_cap(tb);
	test_cap_list(tb);
	test_capture(tb);
	test_stream(tb, a.seed);

	tb.idle(20);
	CHECK(tb.cpl.rx().empty(), "no unexpected completions left (%zu)", tb.cpl.rx().size());
	CHECK_EQ(tb.cpl.errors(), 0, "m_cpl stream protocol errors");
	return tb_finish("tb_pcie_cfg_t0", "%" PRIu64 " cycles", tb.cycle());
}
