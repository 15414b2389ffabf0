// SPDX-License-Identifier: Apache-2.0
//
// tb_pcie_rp: Verilator block test of the root port (pcie_rp: pcie_rp_up,
// pcie_rp_dn, pcie_cfg_t1). The upstream side is driven like the backdoor
// does (requester ID 00:00.0); below the root port sits a C++ device model on
// the secondary bus that captures its ID from CfgWr0 and completes with it,
// serves memory reads/writes from a sparse memory, and can issue its own
// requests (DMA, MSI). All five streams see random gaps / back-pressure.
//
// Checks: own Type-1 config space (identity, header type, BARs read 0,
// command bits, bus numbers, I/O window absent, memory and prefetchable
// windows incl. 64-bit upper registers, capability list: PCIe root port and
// MSI, extended space 0, bridge control secondary reset, captured ID);
// Type-1 -> Type-0 conversion to the device (header otherwise unchanged) and
// its completions routed up with the device's completer ID; Type 1 passed on
// to buses (secondary, subordinate]; UR with the root port's completer ID for
// other buses, device != 0 on the secondary bus, other functions/devices on
// bus 0; memory requests inside/outside the windows and with memory space
// disabled (UR for reads, writes dropped); requests from below gated by bus
// master enable (UR back down / dropped when off, routed to m_up_req when
// on), completions from above routed down; a random stress mix in which
// every non-posted request gets exactly one completion; event counters.
//
// Usage: tb_pcie_rp [-v] [seed]    exit status 0 = all checks passed

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include "Vpcie_rp.h"
#include "tb.h"
#include "tlp.h"
#include "tlp_port.h"
#include "verilated.h"

static const uint16_t RP_ID = 0x0000;   // the root port, 00:00.0 (also the requester above)
static const uint16_t DEV_ID = 0x0100;  // the device, 01:00.0
static const uint32_t VENDOR_ID = 0x1ee7, DEVICE_ID = 0x0002, CLASS_CODE = 0x060400;
static const uint32_t DEV_VENDOR_DEVICE = 0x01001ee7;   // the model's ID register

// ---------------------------------------------------------------------------
// Device model on the secondary bus
// ---------------------------------------------------------------------------
struct DeviceModel {
	uint16_t id = 0;                     // captured from CfgWr0
	uint32_t cfg[64] = {};               // config dwords (0x00: ID)
	std::map<uint64_t, uint32_t> mem;    // sparse memory, dword address -> data
	std::deque<RxTlp> log;               // every TLP received, for inspection
	std::deque<RxTlp> cpls;              // completions received (for its own requests)
	bool auto_answer = true;

	DeviceModel() { cfg[0] = DEV_VENDOR_DEVICE; }

	// Handle one TLP from m_dn; completions go to `out`.
	template <class Src> void handle(const RxTlp &r, Src &out)
	{
		const struct tlp &t = r.t;
		struct tlp c;
		log.push_back(r);
		switch (t.kind) {
		case TLP_CFGRD0:
		case TLP_CFGWR0: {
			bool wr = t.kind == TLP_CFGWR0;
			uint8_t fn = t.target_id & 7, dev = (t.target_id >> 3) & 0x1f;
			if (wr) {
				// capture the ID (PCIe rule), even before the function check
				id = t.target_id & 0xfff8;
			}
			if (fn != 0 || dev != 0) {
				tlp_cpl(&c, id, TLP_CPL_UR, t.requester_id, t.tag, 0, 4, nullptr, 0);
			} else if (wr) {
				unsigned i = (t.reg >> 2) & 63;
				for (int b = 0; b < 4; b++)
					if (t.first_be & (1u << b))
						cfg[i] = (cfg[i] & ~(0xffu << (8 * b))) | (t.payload[0] & (0xffu << (8 * b)));
				cfg[0] = DEV_VENDOR_DEVICE;
				tlp_cpl(&c, t.target_id, TLP_CPL_SC, t.requester_id, t.tag, 0, 4, nullptr, 0);
			} else {
				uint32_t v = cfg[(t.reg >> 2) & 63];
				tlp_cpl(&c, t.target_id, TLP_CPL_SC, t.requester_id, t.tag, 0, 4, &v, 1);
			}
			out.send(c);
			break;
		}
		case TLP_CFGRD1:
		case TLP_CFGWR1:
			// an endpoint does not route Type 1: UR (the test checks the header it saw)
			tlp_cpl(&c, id, TLP_CPL_UR, t.requester_id, t.tag, 0, 4, nullptr, 0);
			out.send(c);
			break;
		case TLP_MRD: {
			uint32_t d[TLP_MAX_PAYLOAD_DW];
			for (unsigned i = 0; i < t.len_dw && i < TLP_MAX_PAYLOAD_DW; i++) {
				auto it = mem.find((t.addr >> 2) + i);
				d[i] = it == mem.end() ? 0xa5a50000u + i : it->second;
			}
			uint16_t bc = (uint16_t)(4 * t.len_dw);   // full-dword reads in this test
			tlp_cpl(&c, id, TLP_CPL_SC, t.requester_id, t.tag, (uint8_t)(t.addr & 0x7f), bc, d,
				t.len_dw);
			out.send(c);
			break;
		}
		case TLP_MWR:
			for (unsigned i = 0; i < t.payload_dw; i++)
				mem[(t.addr >> 2) + i] = t.payload[i];
			break;
		case TLP_CPL:
		case TLP_CPLD:
			cpls.push_back(r);
			break;
		default:
			break;
		}
	}
};

// ---------------------------------------------------------------------------
// Testbench
// ---------------------------------------------------------------------------
struct Events {
	uint64_t up_rx, up_cfg, up_fwd, up_ur, up_drop, dn_rx, dn_cpl, dn_req, dn_ur, dn_drop, dn_tx;
};

class Tb : public TbModel<Vpcie_rp> {
public:
	using Src = TlpSource<VlWide<4>>;
	using Snk = TlpSink<VlWide<4>>;

	Tb(uint32_t seed, bool verbose)
	{
		Vpcie_rp *m = top();
		up = std::make_unique<Src>("s_up", TLP_PINS(m, s_up), seed * 11 + 1);
		dn = std::make_unique<Src>("s_dn", TLP_PINS(m, s_dn), seed * 11 + 2);
		cpl = std::make_unique<Snk>("m_up_cpl", TLP_PINS(m, m_up_cpl), seed * 11 + 3);
		req = std::make_unique<Snk>("m_up_req", TLP_PINS(m, m_up_req), seed * 11 + 4);
		down = std::make_unique<Snk>("m_dn", TLP_PINS(m, m_dn), seed * 11 + 5);
		up->verbose = dn->verbose = cpl->verbose = req->verbose = down->verbose = verbose;
		m->link_up = 1;
		// The protocol checker (docs/tlp-check.md) on both links of the bridge:
		// above (s_up in; m_up_cpl, m_up_req out) and below (s_dn in, m_dn out),
		// reset MPS/MRRS; a bridge forwards requests with their requester's
		// tags, which may be 8-bit on both sides.
		up_link.attach_in(*up);
		up_link.attach_out(*cpl);
		up_link.attach_out(*req);
		dn_link.attach_in(*dn);
		dn_link.attach_out(*down);
		up_link.set_out(128, 512, 64, true);
		dn_link.set_out(128, 4096, 64, true);
	}
	TlpLink up_link{"above"}, dn_link{"below"};

	unsigned errors() const
	{
		return up->errors() + dn->errors() + cpl->errors() + req->errors() + down->errors();
	}




	// Run until everything queued has been sent and the streams are quiet.
	void drain(unsigned extra = 60)
	{
		for (unsigned i = 0; i < 20000 && !(up->idle() && dn->idle()); i++)
			tick();
		idle(extra);
	}

	// Wait for the completion with `tag` on m_up_cpl.
	bool wait_cpl(uint8_t tag, RxTlp *out, unsigned timeout = 3000)
	{
		for (unsigned i = 0; i < timeout; i++) {
			for (auto it = cpl->rx().begin(); it != cpl->rx().end(); ++it) {
				if (it->t.tag == tag) {
					*out = *it;
					cpl->rx().erase(it);
					return true;
				}
			}
			tick();
		}
		return false;
	}

	uint8_t next_tag()
	{
		tag_ = (uint8_t)(tag_ + 1);
		if (tag_ == 0xff)   // keep 0xff for the stress test's bookkeeping
			tag_ = 0;
		return tag_;
	}

	std::unique_ptr<Src> up, dn;
	std::unique_ptr<Snk> cpl, req, down;
	DeviceModel dev;
	Events ev{};

private:
	void drive() override
	{
		up->drive();
		dn->drive();
		cpl->drive();
		req->drive();
		down->drive();
	}
	void sample() override
	{
		Vpcie_rp *m = top();
		up->sample();
		dn->sample();
		cpl->sample();
		req->sample();
		down->sample();
		ev.up_rx += m->ev_up_rx;
		ev.up_cfg += m->ev_up_cfg;
		ev.up_fwd += m->ev_up_fwd;
		ev.up_ur += m->ev_up_ur;
		ev.up_drop += m->ev_up_drop;
		ev.dn_rx += m->ev_dn_rx;
		ev.dn_cpl += m->ev_dn_cpl;
		ev.dn_req += m->ev_dn_req;
		ev.dn_ur += m->ev_dn_ur;
		ev.dn_drop += m->ev_dn_drop;
		ev.dn_tx += m->ev_dn_tx;
	}
	void posedge() override
	{
		// the device answers what reached it
		while (!down->rx().empty()) {
			RxTlp r = down->rx().front();
			down->rx().pop_front();
			if (dev.auto_answer)
				dev.handle(r, *dn);
			else
				dev.log.push_back(r);
		}
	}

	uint8_t tag_ = 0;
};

// ---------------------------------------------------------------------------
// Request helpers (from above, requester 00:00.0)
// ---------------------------------------------------------------------------
// A config request; returns the completion (status checked by the caller).
static RxTlp cfg_req(Tb &tb, bool wr, int type1, uint16_t target, uint16_t reg, uint32_t val,
		     uint8_t be = 0xf)
{
	struct tlp t;
	RxTlp c{};
	uint8_t tag = tb.next_tag();
	tlp_cfg(&t, wr, type1, target, reg, be, val, RP_ID, tag);
	tb.up->send(t);
	if (!tb.wait_cpl(tag, &c)) {
		CHECK(false, "Cfg%s%d %04x:%03x: no completion", wr ? "Wr" : "Rd", type1, target, reg);
		c.t.status = 0xff;
		return c;
	}
	CHECK_EQ(c.t.requester_id, RP_ID, "completion requester id");
	CHECK_EQ(c.t.byte_count, 4, "config completion byte count");
	return c;
}

static uint32_t rp_rd(Tb &tb, uint16_t reg)
{
	RxTlp c = cfg_req(tb, false, 0, RP_ID, reg, 0);
	CHECK(c.t.kind == TLP_CPLD && c.t.status == TLP_CPL_SC && c.t.len_dw == 1,
	      "CfgRd0 RP 0x%03x: want CplD SC, got kind %d status %u", reg, c.t.kind, c.t.status);
	CHECK_EQ(c.t.completer_id, RP_ID, "CfgRd0 RP completer id");
	return c.t.payload[0];
}

static void rp_wr(Tb &tb, uint16_t reg, uint32_t val, uint8_t be = 0xf)
{
	RxTlp c = cfg_req(tb, true, 0, RP_ID, reg, val, be);
	CHECK(c.t.kind == TLP_CPL && c.t.status == TLP_CPL_SC,
	      "CfgWr0 RP 0x%03x: want Cpl SC, got kind %d status %u", reg, c.t.kind, c.t.status);
	CHECK_EQ(c.t.completer_id, RP_ID, "CfgWr0 RP completer id");
}

// A request that the root port itself must answer with UR (nothing goes down).
static void expect_local_ur(Tb &tb, const struct tlp &t, const char *what, unsigned bc = 4,
			    unsigned la = 0, uint32_t dw0_or = 0)
{
	RxTlp c{};
	size_t seen = tb.dev.log.size();
	uint64_t urs = tb.ev.up_ur;
	printf("   %s -> UR from the root port\n", what);
	tb.up->send(t, dw0_or);
	if (!tb.wait_cpl(t.tag, &c)) {
		CHECK(false, "%s: no completion", what);
		return;
	}
	CHECK(c.t.kind == TLP_CPL && c.t.status == TLP_CPL_UR, "%s: want Cpl UR, got kind %d status %u",
	      what, c.t.kind, c.t.status);
	CHECK_EQ(c.t.completer_id, RP_ID, (std::string(what) + ": completer id").c_str());
	CHECK_EQ(c.t.requester_id, t.requester_id, (std::string(what) + ": requester id").c_str());
	CHECK_EQ(c.t.byte_count, bc, (std::string(what) + ": byte count").c_str());
	CHECK_EQ(c.t.lower_addr, la, (std::string(what) + ": lower address").c_str());
	tb.idle(30);
	CHECK(tb.cpl->rx().empty(), "%s: more than one completion", what);
	CHECK_EQ(tb.dev.log.size(), seen, (std::string(what) + ": nothing sent down").c_str());
	CHECK_EQ(tb.ev.up_ur, urs + 1, (std::string(what) + ": ev_up_ur").c_str());
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------
static void test_own_config(Tb &tb)
{
	section("own Type-1 config space: identity, header, BARs, command");
	Vpcie_rp *m = tb.top();
	CHECK_EQ(rp_rd(tb, 0x00), (DEVICE_ID << 16) | VENDOR_ID, "vendor/device ID");
	CHECK_EQ(rp_rd(tb, 0x08) >> 8, CLASS_CODE, "class code (PCI-to-PCI bridge)");
	CHECK_EQ((rp_rd(tb, 0x0c) >> 16) & 0xff, 0x01, "header type 1, single function");
	rp_wr(tb, 0x10, 0xffffffff);
	rp_wr(tb, 0x14, 0xffffffff);
	CHECK_EQ(rp_rd(tb, 0x10), 0, "BAR0 not implemented (reads 0 after all-ones)");
	CHECK_EQ(rp_rd(tb, 0x14), 0, "BAR1 not implemented");
	CHECK_EQ(rp_rd(tb, 0x38), 0, "expansion ROM 0");
	rp_wr(tb, 0x04, 0xffff);
	uint32_t cmdsta = rp_rd(tb, 0x04);
	CHECK_EQ(cmdsta & 0xffff, 0x0546, "command: I/O space RO 0; MSE, BME, PER, SERR, INTxD writable");
	CHECK(cmdsta & (1u << 20), "status: capabilities list");
	CHECK(m->mem_en && m->bus_master, "mem_en/bus_master outputs follow the command register");
	rp_wr(tb, 0x04, 0);
	CHECK(!m->mem_en && !m->bus_master, "command cleared");

	section("own config space: bus numbers and captured ID");
	rp_wr(tb, 0x18, 0xff030201);
	CHECK_EQ(rp_rd(tb, 0x18), 0x00030201, "primary/secondary/subordinate RW, sec. latency 0");
	CHECK(m->pri_bus == 1 && m->sec_bus == 2 && m->sub_bus == 3, "bus number outputs");
	printf("   (own config space stays at bus 0 whatever the primary bus register holds)\n");
	rp_wr(tb, 0x18, 0x00010100, 0x7);
	CHECK_EQ(rp_rd(tb, 0x18), 0x00010100, "bus numbers 0/1/1 (dissertation 4.2.2)");
	CHECK_EQ(m->cpl_id, RP_ID, "captured completer ID 00:00.0");

	section("own config space: windows");
	rp_wr(tb, 0x1c, 0x0000ffff);
	CHECK_EQ(rp_rd(tb, 0x1c), 0, "no I/O window: I/O base/limit read 0");
	rp_wr(tb, 0x30, 0xffffffff);
	CHECK_EQ(rp_rd(tb, 0x30), 0, "I/O upper registers read 0");
	rp_wr(tb, 0x20, 0xffffffff);
	CHECK_EQ(rp_rd(tb, 0x20), 0xfff0fff0, "memory base/limit: bits 31:20 writable, 1 MiB granularity");
	rp_wr(tb, 0x24, 0xffffffff);
	CHECK_EQ(rp_rd(tb, 0x24), 0xfff1fff1, "prefetchable base/limit: 64-bit type");
	rp_wr(tb, 0x28, 0xffffffff);
	rp_wr(tb, 0x2c, 0xffffffff);
	CHECK_EQ(rp_rd(tb, 0x28), 0xffffffff, "prefetchable base upper 32 RW");
	CHECK_EQ(rp_rd(tb, 0x2c), 0xffffffff, "prefetchable limit upper 32 RW");
	// the windows used by the rest of the test
	rp_wr(tb, 0x20, 0xfe10fe0f);                 // 0xfe000000 - 0xfe1fffff
	CHECK_EQ(rp_rd(tb, 0x20), 0xfe10fe00, "memory window 0xfe000000-0xfe1fffff");
	rp_wr(tb, 0x24, 0x3ff00000);                 // bits 31:20 0x000 .. 0x3ff
	rp_wr(tb, 0x28, 0x4);
	rp_wr(tb, 0x2c, 0x4);
	CHECK_EQ(rp_rd(tb, 0x24), 0x3ff10001, "prefetchable window 0x4_0000_0000-0x4_3fff_ffff");

	section("own config space: capabilities, bridge control, MSI");
	CHECK_EQ(rp_rd(tb, 0x34) & 0xff, 0x40, "capabilities pointer");
	uint32_t pcap = rp_rd(tb, 0x40);
	CHECK_EQ(pcap & 0xff, 0x10, "cap 0x40: PCI Express");
	CHECK_EQ((pcap >> 16) & 0xf, 2, "PCIe capability version 2");
	CHECK_EQ((pcap >> 20) & 0xf, 4, "device/port type: root port");
	CHECK_EQ((pcap >> 24) & 1, 0, "slot implemented 0");
	unsigned next = (pcap >> 8) & 0xff;
	CHECK_EQ(next, 0x80, "next capability");
	uint32_t msi = rp_rd(tb, next);
	CHECK_EQ(msi & 0xff, 0x05, "cap 0x80: MSI");
	CHECK_EQ((msi >> 8) & 0xff, 0, "MSI is the last capability");
	CHECK((msi >> 23) & 1, "MSI 64-bit address capable");
	CHECK_EQ(rp_rd(tb, 0x100), 0, "extended config space 0x100: end of list");
	CHECK_EQ(rp_rd(tb, 0xffc), 0, "extended config space 0xffc reads 0");
	CHECK((rp_rd(tb, 0x50) >> 29) & 1, "link status: data link layer active (link_up)");
	rp_wr(tb, 0x84, 0xfee00004);
	rp_wr(tb, 0x88, 0x00000001);
	rp_wr(tb, 0x8c, 0xffff4041);
	rp_wr(tb, 0x80, 0x00010000, 0x4);
	CHECK(m->msi_en && m->msi_addr == 0x1fee00004ull && m->msi_data == 0x4041, "MSI enable/address/data");
	CHECK_EQ(rp_rd(tb, 0x8c), 0x4041, "MSI data 16 bit");
	rp_wr(tb, 0x3c, 0xffffff0b);
	uint32_t bc = rp_rd(tb, 0x3c);
	CHECK_EQ(bc, 0x0043000b, "bridge control (PER, SERR#, sec. reset), interrupt pin 0, line RW");
	CHECK(m->sec_reset, "secondary bus reset output");
	rp_wr(tb, 0x3c, 0x0000000b);
	CHECK(!m->sec_reset, "secondary bus reset released");
}

static void test_cfg_routing(Tb &tb)
{
	struct tlp t;
	section("Type 1 to the secondary bus: converted to Type 0, device completes");
	// the device learns its ID from the first CfgWr0 (converted from CfgWr1)
	size_t seen = tb.dev.log.size();
	RxTlp c = cfg_req(tb, true, 1, DEV_ID, 0x3c, 0x0000000a, 0x1);
	CHECK(c.t.kind == TLP_CPL && c.t.status == TLP_CPL_SC, "CfgWr1 01:00.0: Cpl SC");
	CHECK_EQ(c.t.completer_id, DEV_ID, "completer id = the device's");
	CHECK_EQ(tb.dev.log.size(), seen + 1, "exactly one TLP went down");
	if (tb.dev.log.size() == seen + 1) {
		const RxTlp &d = tb.dev.log.back();
		CHECK(d.t.kind == TLP_CFGWR0, "device saw CfgWr0 (kind %d)", d.t.kind);
		uint32_t want[4];
		tlp_cfg(&t, true, 1, DEV_ID, 0x3c, 0x1, 0x0000000a, RP_ID, c.t.tag);
		tlp_encode_hdr(&t, want);
		CHECK_EQ(d.hdr[0], want[0] & ~(1u << 24), "dword 0: only Type changed (00101 -> 00100)");
		CHECK_EQ(d.hdr[1], want[1], "dword 1 unchanged (requester, tag, BEs)");
		CHECK_EQ(d.hdr[2], want[2], "dword 2 unchanged (target ID, register)");
		CHECK_EQ(d.t.payload[0], 0x0000000a, "payload unchanged");
	}
	CHECK_EQ(tb.dev.id, DEV_ID, "device captured bus 1 device 0");
	c = cfg_req(tb, false, 1, DEV_ID, 0x00, 0);
	CHECK(c.t.kind == TLP_CPLD && c.t.status == TLP_CPL_SC, "CfgRd1 01:00.0: CplD SC");
	CHECK_EQ(c.t.payload[0], DEV_VENDOR_DEVICE, "device ID read through the root port");
	CHECK_EQ(c.t.completer_id, DEV_ID, "completer id = the device's");
	c = cfg_req(tb, false, 1, DEV_ID, 0x3c, 0);
	CHECK_EQ(c.t.payload[0] & 0xff, 0x0a, "device config write took effect");
	c = cfg_req(tb, false, 1, DEV_ID | 1, 0x00, 0);
	CHECK(c.t.kind == TLP_CPL && c.t.status == TLP_CPL_UR && c.t.completer_id == DEV_ID,
	      "CfgRd1 01:00.1 forwarded; the device answers UR for its missing function");
	CHECK(!tb.dev.log.empty() && tb.dev.log.back().t.kind == TLP_CFGRD0 &&
		      tb.dev.log.back().t.target_id == (DEV_ID | 1),
	      "function number kept in the converted request");

	section("UR from the root port: other devices/functions/buses");
	static const struct {
		bool wr;
		int type;
		uint16_t target;
		uint16_t reg;
		uint32_t data;
		const char *what;
	} urs[] = {
		{ false, 1, 0x0108, 0, 0, "CfgRd1 01:01.0 (device != 0 on the secondary bus)" },
		{ true, 1, 0x01f8, 0, 0x1234, "CfgWr1 01:1f.0" },
		{ false, 0, 0x0008, 0, 0, "CfgRd0 00:01.0 (other device on bus 0)" },
		{ false, 0, 0x0001, 0, 0, "CfgRd0 00:00.1 (other function)" },
		{ true, 0, 0x0002, 0x18, 0x00ffffff, "CfgWr0 00:00.2 (no side effect)" },
		{ false, 0, 0x0100, 0, 0, "CfgRd0 to bus 1 (Type 0 must target bus 0)" },
		{ false, 1, 0x0000, 0, 0, "CfgRd1 to the primary bus" },
		{ false, 1, 0x0200, 0, 0, "CfgRd1 to bus 2 (above subordinate 1)" },
	};
	for (const auto &u : urs) {
		tlp_cfg(&t, u.wr, u.type, u.target, u.reg, 0xf, u.data, RP_ID, tb.next_tag());
		expect_local_ur(tb, t, u.what);
	}
	CHECK_EQ(rp_rd(tb, 0x18), 0x00010100, "bus numbers unchanged by the rejected write");
	// malformed: CfgRd with Length 2
	tlp_cfg(&t, false, 1, DEV_ID, 0, 0xf, 0, RP_ID, tb.next_tag());
	tb.up_link.expect_in(TLP_R_CFG_IO);
	expect_local_ur(tb, t, "CfgRd1 with Length 3", 4, 0, 0x2);

	section("Type 1 to buses (secondary, subordinate]: passed on unchanged");
	rp_wr(tb, 0x18, 0x00030100, 0x7);
	for (uint16_t bus = 2; bus <= 3; bus++) {
		seen = tb.dev.log.size();
		c = cfg_req(tb, false, 1, (uint16_t)(bus << 8 | 0x10), 0x08, 0);
		CHECK(c.t.kind == TLP_CPL && c.t.status == TLP_CPL_UR && c.t.completer_id == DEV_ID,
		      "CfgRd1 bus %u: answered by the device below (model: UR)", bus);
		CHECK(tb.dev.log.size() == seen + 1 && tb.dev.log.back().t.kind == TLP_CFGRD1 &&
			      tb.dev.log.back().t.target_id == (bus << 8 | 0x10),
		      "CfgRd1 bus %u went down as Type 1 with its target ID", bus);
	}
	tlp_cfg(&t, false, 1, 0x0400, 0, 0xf, 0, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "CfgRd1 to bus 4 (beyond subordinate 3)");
	rp_wr(tb, 0x18, 0x00010100, 0x7);
	tlp_cfg(&t, false, 1, 0x0200, 0, 0xf, 0, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "CfgRd1 to bus 2 after subordinate back to 1");
}

// Memory read from above that the device should answer.
static void mem_rd_dev(Tb &tb, uint64_t addr, unsigned len, const uint32_t *want, const char *what)
{
	struct tlp t;
	RxTlp c{};
	uint8_t tag = tb.next_tag();
	tlp_mrd(&t, addr, len, 0xf, len > 1 ? 0xf : 0, RP_ID, tag);
	tb.up->send(t);
	if (!tb.wait_cpl(tag, &c)) {
		CHECK(false, "%s: no completion", what);
		return;
	}
	CHECK(c.t.kind == TLP_CPLD && c.t.status == TLP_CPL_SC && c.t.len_dw == len,
	      "%s: want CplD SC len %u, got kind %d status %u len %u", what, len, c.t.kind, c.t.status,
	      c.t.len_dw);
	CHECK_EQ(c.t.completer_id, DEV_ID, (std::string(what) + ": completer id").c_str());
	bool ok = true;
	for (unsigned i = 0; i < len && i < c.t.payload_dw; i++)
		ok = ok && c.t.payload[i] == want[i];
	CHECK(ok, "%s: data", what);
}

static void test_memory(Tb &tb)
{
	struct tlp t;
	uint32_t d[16];
	section("memory requests from above: memory space disabled");
	rp_wr(tb, 0x04, 0x0000);
	tlp_mrd(&t, 0xfe000000, 1, 0xf, 0, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "MRd inside the window, memory space off");
	uint64_t drops = tb.ev.up_drop;
	size_t seen = tb.dev.log.size();
	for (int i = 0; i < 4; i++)
		d[i] = 0x11110000u + i;
	tlp_mwr(&t, 0xfe000000, d, 4, 0xf, 0xf, RP_ID);
	tb.up->send(t);
	tb.drain();
	CHECK_EQ(tb.ev.up_drop, drops + 1, "MWr with memory space off: dropped and counted");
	CHECK_EQ(tb.dev.log.size(), seen, "MWr with memory space off: nothing sent down");

	section("memory requests from above: inside the windows -> device");
	rp_wr(tb, 0x04, 0x0002);
	for (int i = 0; i < 16; i++)
		d[i] = 0xc0de0000u + (uint32_t)i * 0x111;
	tlp_mwr(&t, 0xfe000100, d, 9, 0xf, 0xf, RP_ID);   // 3 payload beats
	tb.up->send(t);
	mem_rd_dev(tb, 0xfe000100, 9, d, "MRd 9 DW at 0xfe000100 (non-prefetchable window)");
	tlp_mwr(&t, 0xfe1ffff8, d + 3, 2, 0xf, 0xf, RP_ID);
	tb.up->send(t);
	mem_rd_dev(tb, 0xfe1ffff8, 2, d + 3, "MRd at the window limit 0xfe1ffff8");
	tlp_mwr(&t, 0x400001000ull, d + 5, 4, 0xf, 0xf, RP_ID);
	tb.up->send(t);
	mem_rd_dev(tb, 0x400001000ull, 4, d + 5, "MRd64 at 0x4_0000_1000 (prefetchable window)");
	const uint32_t unwritten[1] = {0xa5a50000u};   // the model's fill pattern
	mem_rd_dev(tb, 0x43ffffffcull, 1, unwritten, "MRd64 at the prefetchable limit");
	tb.drain();
	bool seen64 = false;
	for (const RxTlp &r : tb.dev.log)
		if (r.t.kind == TLP_MWR && r.t.addr == 0x400001000ull && r.t.hdr_dw == 4)
			seen64 = true;
	CHECK(seen64, "64-bit MWr forwarded with its 4-DW header");

	section("memory requests from above: outside the windows");
	tlp_mrd(&t, 0xfe200000, 1, 0xf, 0, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "MRd 0xfe200000 (above the memory limit)");
	tlp_mrd(&t, 0xfdfffffc, 1, 0xf, 0, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "MRd 0xfdfffffc (below the memory base)", 4, 0x7c);
	tlp_mrd(&t, 0x440000000ull, 1, 0xf, 0, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "MRd64 0x4_4000_0000 (above the prefetchable limit)");
	tlp_mrd(&t, 0x3fffffff0ull, 1, 0xf, 0, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "MRd64 0x3_ffff_fff0 (below the prefetchable base)", 4, 0x70);
	tlp_mrd(&t, 0x00100044, 2, 0xe, 0x7, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "MRd 2 DW, BEs e/7 outside: byte count 6, lower address 0x45", 6, 0x45);
	drops = tb.ev.up_drop;
	seen = tb.dev.log.size();
	tlp_mwr(&t, 0xfe200000, d, 1, 0xf, 0, RP_ID);
	tb.up->send(t);
	tlp_mwr(&t, 0x500000000ull, d, 1, 0xf, 0, RP_ID);
	tb.up->send(t);
	tb.drain();
	CHECK_EQ(tb.ev.up_drop, drops + 2, "MWr outside the windows: dropped and counted");
	CHECK_EQ(tb.dev.log.size(), seen, "MWr outside the windows: nothing sent down");

	section("prefetchable window disabled (base > limit)");
	rp_wr(tb, 0x24, 0x00000010);   // base 0x0010_0000, limit 0x0000_0000 (upper both 4)
	tlp_mrd(&t, 0x400001000ull, 1, 0xf, 0, RP_ID, tb.next_tag());
	expect_local_ur(tb, t, "MRd64 in the former prefetchable window");
	rp_wr(tb, 0x24, 0x3ff00000);
	mem_rd_dev(tb, 0x400001000ull, 4, d + 5, "prefetchable window restored");
}

static void test_from_below(Tb &tb)
{
	struct tlp t;
	uint32_t d[4] = {0x0000abcd, 0x11111111, 0x22222222, 0x33333333};
	section("requests from below with bus master disabled");
	rp_wr(tb, 0x04, 0x0002);   // memory space only
	uint64_t drops = tb.ev.dn_drop;
	tlp_mwr(&t, 0xfee00000, d, 1, 0xf, 0, DEV_ID);   // an MSI
	tb.dn->send(t);
	tb.drain();
	CHECK(tb.req->rx().empty(), "MWr from below not sent up");
	CHECK_EQ(tb.ev.dn_drop, drops + 1, "MWr from below dropped and counted");
	size_t ncpl = tb.dev.cpls.size();
	tlp_mrd(&t, 0x1000, 2, 0xf, 0xf, DEV_ID, 0x21);
	tb.dn->send(t);
	tb.drain();
	CHECK(tb.req->rx().empty(), "MRd from below not sent up");
	CHECK_EQ(tb.dev.cpls.size(), ncpl + 1, "MRd from below: one completion back down");
	if (tb.dev.cpls.size() == ncpl + 1) {
		const struct tlp &c = tb.dev.cpls.back().t;
		CHECK(c.kind == TLP_CPL && c.status == TLP_CPL_UR, "MRd from below: Cpl UR");
		CHECK(c.completer_id == RP_ID && c.requester_id == DEV_ID && c.tag == 0x21,
		      "UR completion IDs: completer 00:00.0, requester 01:00.0, tag 0x21");
		CHECK_EQ(c.byte_count, 8, "UR byte count of a 2-DW read");
	}

	section("requests from below with bus master enabled -> m_up_req");
	rp_wr(tb, 0x04, 0x0006);
	uint64_t reqs = tb.ev.dn_req;
	tlp_mwr(&t, 0xfee00000, d, 1, 0xf, 0, DEV_ID);
	tb.dn->send(t);
	tlp_mwr(&t, 0x123456780ull, d, 4, 0xf, 0xf, DEV_ID);
	tb.dn->send(t);
	tlp_mrd(&t, 0x2000, 4, 0xf, 0xf, DEV_ID, 0x22);
	tb.dn->send(t);
	tb.drain();
	CHECK_EQ(tb.req->rx().size(), 3, "three requests on m_up_req");
	CHECK_EQ(tb.ev.dn_req, reqs + 3, "ev_dn_req counts them");
	if (tb.req->rx().size() == 3) {
		const struct tlp &a = tb.req->rx()[0].t, &b = tb.req->rx()[1].t, &r = tb.req->rx()[2].t;
		CHECK(a.kind == TLP_MWR && a.addr == 0xfee00000 && a.payload[0] == 0xabcd &&
			      a.requester_id == DEV_ID,
		      "MSI write passed up unchanged");
		CHECK(b.kind == TLP_MWR && b.addr == 0x123456780ull && b.payload_dw == 4 &&
			      b.payload[3] == 0x33333333,
		      "64-bit DMA write passed up unchanged");
		CHECK(r.kind == TLP_MRD && r.addr == 0x2000 && r.len_dw == 4 && r.tag == 0x22,
		      "DMA read passed up unchanged");
	}
	tb.req->rx().clear();

	section("inverse window decode: requests from below inside the bridge's windows are not passed up");
	ncpl = tb.dev.cpls.size();
	drops = tb.ev.dn_drop;
	tlp_mwr(&t, 0xfe000100, d, 1, 0xf, 0, DEV_ID);          // memory window
	tb.dn->send(t);
	tlp_mwr(&t, 0x400000000ull, d, 4, 0xf, 0xf, DEV_ID);    // prefetchable window
	tb.dn->send(t);
	tlp_mrd(&t, 0xfe1ffffc, 1, 0xf, 0, DEV_ID, 0x24);
	tb.dn->send(t);
	tlp_mrd(&t, 0x43ffff000ull, 4, 0xf, 0xf, DEV_ID, 0x25);
	tb.dn->send(t);
	tb.drain();
	CHECK(tb.req->rx().empty(), "nothing inside the windows went up");
	CHECK_EQ(tb.ev.dn_drop, drops + 2, "the two MWr inside the windows: dropped and counted");
	CHECK_EQ(tb.dev.cpls.size(), ncpl + 2, "the two MRd inside the windows: one completion each back down");
	if (tb.dev.cpls.size() == ncpl + 2)
		CHECK(tb.dev.cpls[ncpl].t.status == TLP_CPL_UR && tb.dev.cpls[ncpl].t.tag == 0x24 &&
			      tb.dev.cpls[ncpl + 1].t.status == TLP_CPL_UR && tb.dev.cpls[ncpl + 1].t.tag == 0x25,
		      "... with status UR");
	tlp_mwr(&t, 0xfe200000, d, 1, 0xf, 0, DEV_ID);          // just above the memory window
	tb.dn->send(t);
	tlp_mrd(&t, 0xfdfffffc, 1, 0xf, 0, DEV_ID, 0x27);       // just below it
	tb.dn->send(t);
	tlp_mwr(&t, 0x440000000ull, d, 1, 0xf, 0, DEV_ID);      // just above the prefetchable window
	tb.dn->send(t);
	tb.drain();
	CHECK_EQ(tb.req->rx().size(), 3, "addresses just outside the windows go up");
	tb.req->rx().clear();

	section("completions from above routed down by requester bus");
	ncpl = tb.dev.cpls.size();
	struct tlp c;
	tlp_cpl(&c, 0x0000, TLP_CPL_SC, DEV_ID, 0x22, 0, 16, d, 4);
	tb.up->send(c);
	tb.drain();
	CHECK_EQ(tb.dev.cpls.size(), ncpl + 1, "CplD for the device's read went down");
	if (tb.dev.cpls.size() == ncpl + 1)
		CHECK(tb.dev.cpls.back().t.tag == 0x22 && tb.dev.cpls.back().t.payload[2] == 0x22222222,
		      "completion data intact");
	drops = tb.ev.up_drop;
	tlp_cpl(&c, 0x0000, TLP_CPL_SC, 0x0500, 0x23, 0, 4, d, 1);
	tb.up_link.expect_in(TLP_R_CPL_UNEXPECTED);   // for no request: unroutable on purpose
	tb.up->send(c);
	tb.drain();
	CHECK_EQ(tb.dev.cpls.size(), ncpl + 1, "completion for bus 5 not routed down");
	CHECK_EQ(tb.ev.up_drop, drops + 1, "... dropped and counted");

	section("other TLPs from below");
	ncpl = tb.dev.cpls.size();
	tlp_cfg(&t, false, 0, 0x0000, 0, 0xf, 0, DEV_ID, 0x31);
	tb.dn->send(t);                                  // CfgRd0 from below
	tlp_cfg(&t, true, 1, 0x0000, 0, 0xf, 0, DEV_ID, 0x32);
	tb.dn->send(t);                                  // CfgWr1 from below (its own tag)
	drops = tb.ev.dn_drop;
	uint32_t msg[4] = {(1u << 29) | (0x14u << 24), (uint32_t)DEV_ID << 16 | 0x20, 0, 0};  // Msg, Assert_INTA
	tb.drain();
	struct tlp m0;
	memset(&m0, 0, sizeof(m0));
	m0.kind = TLP_OTHER;
	tb.dn->send(m0, 0, msg);
	tb.drain();
	CHECK_EQ(tb.dev.cpls.size(), ncpl + 2, "config requests from below: UR each");
	CHECK(!tb.dev.cpls.empty() && tb.dev.cpls.back().t.status == TLP_CPL_UR &&
	      (tb.dev.cpls.back().t.tag == 0x31 || tb.dev.cpls.back().t.tag == 0x32),
	      "config request from below: Cpl UR");
	CHECK_EQ(tb.ev.dn_drop, drops + 1, "message from below dropped and counted");
	CHECK(tb.req->rx().empty() && tb.cpl->rx().empty(), "nothing went up");
}

// Row 7 of docs/pcie-rules.md: link down / secondary bus reset (PCIe 2.9.1)
static void test_link_down(Tb &tb)
{
	struct tlp t, c;
	uint32_t d[4] = {0x5a5a0001, 0x5a5a0002, 0x5a5a0003, 0x5a5a0004};
	Vpcie_rp *m = tb.top();
	rp_wr(tb, 0x04, 0x0006);
	for (int sbr = 0; sbr < 2; sbr++) {
		section(sbr ? "secondary bus reset set: the link counts as down"
			    : "link down (PCIe 2.9.1): non-posted requests get UR, posted ones are discarded");
		if (sbr)
			rp_wr(tb, 0x3c, 0x0040000b);
		else
			m->link_up = 0;
		tlp_mrd(&t, 0xfe000040, 1, 0xf, 0, RP_ID, tb.next_tag());
		expect_local_ur(tb, t, "MRd inside the window", 4, 0x40);
		tlp_mrd(&t, 0x400000100ull, 2, 0xf, 0xf, RP_ID, tb.next_tag());
		expect_local_ur(tb, t, "MRd64 inside the prefetchable window", 8, 0x00);
		tlp_cfg(&t, false, 1, DEV_ID, 0x00, 0xf, 0, RP_ID, tb.next_tag());
		expect_local_ur(tb, t, "CfgRd1 to the device");
		uint64_t drops = tb.ev.up_drop;
		size_t seen = tb.dev.log.size(), ncpl = tb.dev.cpls.size();
		tlp_mwr(&t, 0xfe000000, d, 4, 0xf, 0xf, RP_ID);
		tb.up->send(t);
		tlp_cpl(&c, 0x0000, TLP_CPL_SC, DEV_ID, 0x26, 0, 4, d, 1);
		tb.up_link.expect_in(TLP_R_CPL_UNEXPECTED);   // for no request: discarded on purpose
		tb.up->send(c);
		tb.drain();
		CHECK_EQ(tb.ev.up_drop, drops + 2, "MWr and CplD toward the link: discarded and counted");
		CHECK(tb.dev.log.size() == seen && tb.dev.cpls.size() == ncpl, "nothing sent down");
		CHECK_EQ(rp_rd(tb, 0x00), (DEVICE_ID << 16) | VENDOR_ID, "own config space still answers");
		if (sbr)
			rp_wr(tb, 0x3c, 0x0000000b);
		else
			m->link_up = 1;
		tlp_mwr(&t, 0xfe000200, d, 4, 0xf, 0xf, RP_ID);
		tb.up->send(t);
		mem_rd_dev(tb, 0xfe000200, 4, d, "link back: MWr + MRd reach the device again");
	}
}

// Random mix with back-pressure: every non-posted request from above gets
// exactly one completion with the expected status; device DMA flows up.
static void test_stress(Tb &tb, uint32_t seed)
{
	section("random mix with back-pressure: exactly one completion per request");
	std::mt19937 rng(seed);
	rp_wr(tb, 0x04, 0x0006);
	struct Expect {
		uint8_t status;
		uint16_t completer;
		unsigned got;
	};
	std::map<uint8_t, Expect> exp;
	unsigned nreq = 0, ndma = 0;
	auto collect = [&]() {
		while (!tb.cpl->rx().empty()) {
			RxTlp c = tb.cpl->rx().front();
			tb.cpl->rx().pop_front();
			auto it = exp.find(c.t.tag);
			if (it == exp.end()) {
				CHECK(false, "unexpected completion tag 0x%02x", c.t.tag);
				continue;
			}
			it->second.got++;
			CHECK(c.t.status == it->second.status && c.t.completer_id == it->second.completer,
			      "tag 0x%02x: status %u completer %04x, want %u %04x", c.t.tag, c.t.status,
			      c.t.completer_id, it->second.status, it->second.completer);
		}
	};
	uint64_t dreq0 = tb.ev.dn_req;
	size_t reqs0 = tb.req->rx().size();
	for (int i = 0; i < 600; i++) {
		struct tlp t;
		uint8_t tag = (uint8_t)(i & 0x7f);   // at most 128 outstanding; tags reused per round
		if ((i & 0x7f) == 0 && i) {
			tb.drain(200);
			collect();
			for (auto &e : exp)
				CHECK(e.second.got == 1, "tag 0x%02x: %u completions", e.first, e.second.got);
			exp.clear();
		}
		uint32_t d[8];
		for (int k = 0; k < 8; k++)
			d[k] = rng();
		switch (rng() % 8) {
		case 0: // own config read
			tlp_cfg(&t, false, 0, RP_ID, 0x00, 0xf, 0, RP_ID, tag);
			exp[tag] = {TLP_CPL_SC, RP_ID, 0};
			break;
		case 1: // device config read
			tlp_cfg(&t, false, 1, DEV_ID, 0x00, 0xf, 0, RP_ID, tag);
			exp[tag] = {TLP_CPL_SC, DEV_ID, 0};
			break;
		case 2: // bad bus
			tlp_cfg(&t, rng() & 1, 1, 0x0900, 0x10, 0xf, 0, RP_ID, tag);
			exp[tag] = {TLP_CPL_UR, RP_ID, 0};
			break;
		case 3: // read in the window
			// 32-byte aligned: up to 8 DW never cross 4 KiB (PCIe 2.2.7)
			tlp_mrd(&t, 0xfe000000 + (rng() % 0x1000) * 4 / 32 * 32, 1 + rng() % 8, 0xf, 0xf, RP_ID, tag);
			if (t.len_dw == 1)
				t.last_be = 0;
			exp[tag] = {TLP_CPL_SC, DEV_ID, 0};
			break;
		case 4: // read outside
			tlp_mrd(&t, 0xe0000000 + (rng() % 0x1000) * 4, 1, 0xf, 0, RP_ID, tag);
			exp[tag] = {TLP_CPL_UR, RP_ID, 0};
			break;
		case 5: // posted write, inside or outside
			tlp_mwr(&t, (rng() & 1 ? 0xfe000000 : 0xe0000000) + (rng() % 0x1000) * 4 / 32 * 32, d,
				1 + rng() % 8, 0xf, 0xf, RP_ID);
			if (t.len_dw == 1)
				t.last_be = 0;   // PCIe 2.2.5
			tb.up->send(t);
			nreq++;
			continue;
		default: // device DMA write going up
			tlp_mwr(&t, 0x80000000ull + (rng() % 0x1000) * 4 / 32 * 32, d, 1 + rng() % 8, 0xf, 0xf, DEV_ID);
			if (t.len_dw == 1)
				t.last_be = 0;
			tb.dn->send(t);
			ndma++;
			continue;
		}
		tb.up->send(t);
		nreq++;
		// collect completions as they come
		for (int k = 0; k < 3; k++)
			tb.tick();
		collect();
	}
	tb.drain(300);
	collect();
	unsigned bad = 0;
	for (auto &e : exp)
		bad += e.second.got != 1;
	CHECK(bad == 0, "%u requests without exactly one completion", bad);
	CHECK_EQ(tb.ev.dn_req - dreq0, ndma, "every device DMA write went up");
	CHECK_EQ(tb.req->rx().size() - reqs0, ndma, "m_up_req received them all");
	printf("   %u requests from above, %u DMA writes from below\n", nreq, ndma);
	tb.req->rx().clear();
}

int main(int argc, char **argv)
{
	TbArgs a = tb_args(argc, argv);
	uint32_t seed = a.seed;
	Tb tb(seed, a.verbose);
	tb.up->prob = 0.7;
	tb.dn->prob = 0.7;
	tb.cpl->prob = 0.6;
	tb.req->prob = 0.5;
	tb.down->prob = 0.6;
	printf("tb_pcie_rp: seed %u, sources valid 70%%, sinks ready 50-60%%\n", seed);
	tb.reset();

	test_own_config(tb);
	test_cfg_routing(tb);
	test_memory(tb);
	test_from_below(tb);
	test_link_down(tb);
	test_stress(tb, seed);

	section("event counters and stream protocol");
	tb.drain();
	const Events &e = tb.ev;
	CHECK_EQ(e.up_rx, e.up_cfg + e.up_fwd + e.up_ur + e.up_drop, "every TLP from above classified once");
	CHECK_EQ(e.dn_rx, e.dn_cpl + e.dn_req + e.dn_ur + e.dn_drop, "every TLP from below classified once");
	CHECK_EQ(e.dn_tx, e.up_fwd + e.dn_ur, "m_dn carried the forwarded TLPs and the UR completions");
	printf("   from above: %" PRIu64 " (cfg %" PRIu64 ", fwd %" PRIu64 ", ur %" PRIu64 ", drop %" PRIu64
	       "); from below: %" PRIu64 " (cpl %" PRIu64 ", req %" PRIu64 ", ur %" PRIu64 ", drop %" PRIu64 ")\n",
	       e.up_rx, e.up_cfg, e.up_fwd, e.up_ur, e.up_drop, e.dn_rx, e.dn_cpl, e.dn_req, e.dn_ur, e.dn_drop);
	CHECK(tb.cpl->rx().empty() && tb.req->rx().empty(), "no unexpected TLPs left up (%zu, %zu)",
	      tb.cpl->rx().size(), tb.req->rx().size());
	CHECK_EQ(tb.errors(), 0, "TLP stream protocol errors");
	return tb_finish("tb_pcie_rp", "%" PRIu64 " cycles", tb.cycle());
}
