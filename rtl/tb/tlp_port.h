// SPDX-License-Identifier: Apache-2.0
//
// tlp_port.h: the one TLP beat driver of the testbenches: a TLP stream source
// and sink bound to ANY set of Verilator ports (docs/tlp-interface.md), and
// TlpDriver, which binds one source and one sink to the s_tlp_*/m_tlp_* names
// of a top (extoll_nic, accel_top, tb_nic_remote_top).
//
//  * tlp_to_beats(): a TLP cut into 128-bit beats (header beat, then payload
//    beats of four dwords).
//  * TlpSource: send() queues a TLP, cut into beats by tlp_to_beats(); beats
//    are presented with random gaps (valid_prob).
//  * TlpSink: ready is asserted at random (ready_prob); beats are checked for
//    the AXI-Stream rules and the beat layout, reassembled and decoded; the
//    raw header dwords are kept next to the decoded TLP.
//
//  * TlpDriver<Model>: a TlpSource on s_tlp_* and a TlpSink on m_tlp_* that
//    share one random generator; m_tlp TLPs are collected decoded (rx()) or
//    with their raw header dwords (rx_raw()).
//  * TlpLink: the strict PCIe protocol checker (hw/include/tlp_check.h,
//    docs/tlp-check.md) on both directions of one link; attach() puts its
//    "in" checker on the sources that feed the device under test and its
//    "out" checker on the sinks that take what it sends.  Every TlpDriver
//    has one (drv.link()); a violation is a failed check (tb.h).
//
// Per clock cycle: drive() on every port, eval with clk low, sample() on every
// port, then the rising edge:
//    drv.drive();   top->clk = 0; top->eval();
//    drv.sample();  top->clk = 1; top->eval();
// drive() sets the inputs for the coming edge, sample() records the
// handshakes (valid && ready) that this edge completes.
#ifndef RTL_TB_TLP_PORT_H
#define RTL_TB_TLP_PORT_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tb.h"
#include "tlp.h"
#include "tlp_check.h"
#include "tlp_order.h"
#include "verilated.h"

struct TlpBeat {
	uint32_t dw[4];
	uint8_t keep;
	bool sop, eop;
};

// Cut a TLP into beats. dw0_or is ORed into header dword 0 (e.g. 1u << 14
// for a poisoned TLP); hdr_override, if non-null, replaces the encoded header.
inline std::vector<TlpBeat> tlp_to_beats(const struct tlp &t, uint32_t dw0_or = 0,
					 const uint32_t *hdr_override = nullptr)
{
	std::vector<TlpBeat> beats;
	uint32_t hdr[4];
	unsigned hdr_dw = tlp_encode_hdr(&t, hdr);
	if (hdr_override) {
		memcpy(hdr, hdr_override, sizeof(hdr));
		hdr_dw = (hdr[0] >> 29) & 1 ? 4 : 3;
	}
	hdr[0] |= dw0_or;
	bool data = (hdr[0] >> 30) & 1;
	unsigned n = data ? t.payload_dw : 0;
	TlpBeat b{};
	memcpy(b.dw, hdr, sizeof(hdr));
	b.keep = hdr_dw == 4 ? 0xf : 0x7;
	b.sop = true;
	b.eop = n == 0;
	beats.push_back(b);
	for (unsigned i = 0; i < n; i += 4) {
		TlpBeat p{};
		unsigned k = n - i < 4 ? n - i : 4;
		for (unsigned j = 0; j < k; j++)
			p.dw[j] = t.payload[i + j];
		p.keep = (uint8_t)((1u << k) - 1);
		p.sop = false;
		p.eop = i + 4 >= n;
		beats.push_back(p);
	}
	return beats;
}

// A memory write of the bytes data[0..n) at byte address addr (n <= 256, not
// crossing 4 KiB): dword address, Length and byte enables by tlp_access_bes.
inline void tlp_mwr_bytes(struct tlp *t, uint64_t addr, const uint8_t *data, unsigned n, uint16_t req_id)
{
	uint64_t dwa;
	unsigned len;
	uint8_t fbe, lbe;
	tlp_access_bes(addr, n, &dwa, &len, &fbe, &lbe);
	uint32_t pl[TLP_MAX_PAYLOAD_DW + 1] = {0};
	for (unsigned i = 0; i < n; i++) {
		unsigned o = (unsigned)(addr - dwa) + i;
		pl[o / 4] |= (uint32_t)data[i] << (8 * (o & 3));
	}
	tlp_mwr(t, dwa, pl, len, fbe, lbe, req_id);
}

// The six signals of one stream. W is the Verilator type of the data port.
template <class W> struct TlpPins {
	W *data;
	CData *keep, *sop, *eop, *valid, *ready;
};

// The six pins of stream <prefix> of model pointer m, e.g. TLP_PINS(m, s_up).
#define TLP_PINS(m, prefix)                                                                   \
	TlpPins<std::remove_reference_t<decltype((m)->prefix##_data)>>{                         \
		&(m)->prefix##_data, &(m)->prefix##_keep, &(m)->prefix##_sop, &(m)->prefix##_eop, \
		&(m)->prefix##_valid, &(m)->prefix##_ready}

// A received TLP: decoded, plus the raw header dwords.
struct RxTlp {
	struct tlp t;
	uint32_t hdr[4];
};

class TlpPortBase {
public:
	double prob = 1.0;   // valid (source) / ready (sink) probability per cycle
	bool verbose = false;
	std::string name;
	struct tlp_check *check = nullptr;  // the protocol checker of this direction (TlpLink)
	struct tlp_order *order = nullptr;  // the ordering checker of a bridge (TlpBridgeOrder)
	int order_side = 0;                 // ... the bridge's side this port is on
	enum tlp_order_dir order_dir = TLP_ORDER_IN;   // ... and whether its TLPs enter or leave
	unsigned errors() const { return errors_; }

protected:
	explicit TlpPortBase(const std::string &n, uint32_t seed)
		: name(n), rng_(std::make_shared<std::mt19937>(seed)) {}
	// ports that draw from one generator (in the order of their drive() calls)
	TlpPortBase(const std::string &n, std::shared_ptr<std::mt19937> rng) : name(n), rng_(std::move(rng)) {}
	bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(*rng_) < p; }
	void error(const char *what)
	{
		fprintf(stderr, "  TLP PROTOCOL ERROR on %s: %s\n", name.c_str(), what);
		errors_++;
	}
	// a whole TLP crossed this port: the protocol checker sees it
	void checked(const uint32_t hdr[4], const std::vector<uint32_t> &payload)
	{
		if (check)
			tlp_check_tlp(check, hdr, payload.data(), (unsigned)payload.size());
		if (order)
			tlp_order_tlp(order, order_side, order_dir, hdr, (unsigned)payload.size());
	}
	std::shared_ptr<std::mt19937> rng_;
	unsigned errors_ = 0;
};

template <class W> class TlpSource : public TlpPortBase {
public:
	TlpSource(const std::string &n, TlpPins<W> p, uint32_t seed) : TlpPortBase(n, seed), p_(p) {}
	TlpSource(const std::string &n, TlpPins<W> p, std::shared_ptr<std::mt19937> rng)
		: TlpPortBase(n, std::move(rng)), p_(p) {}

	void send(const struct tlp &t, uint32_t dw0_or = 0, const uint32_t *hdr_override = nullptr)
	{
		for (const TlpBeat &b : tlp_to_beats(t, dw0_or, hdr_override))
			q_.push_back(b);
		if (verbose) {
			char buf[160];
			tlp_format(&t, buf, sizeof(buf));
			printf("    %s -> %s%s\n", name.c_str(), buf, dw0_or & (1u << 14) ? " (poisoned)" : "");
		}
	}
	void send_beats(const std::vector<TlpBeat> &beats)
	{
		for (const TlpBeat &b : beats)
			q_.push_back(b);
	}
	bool idle() const { return q_.empty() && !presenting_; }
	uint64_t beats() const { return beats_; }

	void drive()
	{
		if (!presenting_ && !q_.empty() && coin(prob)) {
			cur_ = q_.front();
			q_.pop_front();
			presenting_ = true;
		}
		for (int i = 0; i < 4; i++)
			(*p_.data)[i] = presenting_ ? cur_.dw[i] : 0;
		*p_.keep = presenting_ ? cur_.keep : 0;
		*p_.sop = presenting_ && cur_.sop;
		*p_.eop = presenting_ && cur_.eop;
		*p_.valid = presenting_;
	}
	void sample()
	{
		if (*p_.valid && *p_.ready) {
			presenting_ = false;
			beats_++;
			reassemble(cur_);
		}
	}

private:
	// The protocol checker sees a TLP of the testbench when its header beat is
	// taken (the rest of its beats are queued behind it): the device under
	// test may act on a header before the payload has streamed in, e.g. free
	// a tag at the header of the last completion and reuse it at once.
	void reassemble(const TlpBeat &b)
	{
		if (!b.sop || (!check && !order))
			return;  // beats without sop: a stray beat (a stream test) or payload
		memcpy(hdr_, b.dw, sizeof(hdr_));
		payload_.clear();
		bool eop = b.eop;
		for (size_t i = 0; !eop && i < q_.size() && !q_[i].sop; i++) {
			for (int j = 0; j < 4; j++)
				if (q_[i].keep & (1u << j))
					payload_.push_back(q_[i].dw[j]);
			eop = q_[i].eop;
		}
		checked(hdr_, payload_);
	}

	uint32_t hdr_[4] = {0, 0, 0, 0};
	std::vector<uint32_t> payload_;
	TlpPins<W> p_;
	std::deque<TlpBeat> q_;
	TlpBeat cur_{};
	bool presenting_ = false;
	uint64_t beats_ = 0;
};

template <class W> class TlpSink : public TlpPortBase {
public:
	TlpSink(const std::string &n, TlpPins<W> p, uint32_t seed) : TlpPortBase(n, seed), p_(p) {}
	TlpSink(const std::string &n, TlpPins<W> p, std::shared_ptr<std::mt19937> rng)
		: TlpPortBase(n, std::move(rng)), p_(p) {}

	std::deque<RxTlp> &rx() { return q_; }
	uint64_t beats() const { return beats_; }
	bool in_tlp() const { return in_tlp_; }

	void drive() { *p_.ready = coin(prob); }
	void sample()
	{
		TlpBeat b{};
		for (int i = 0; i < 4; i++)
			b.dw[i] = (*p_.data)[i];
		b.keep = *p_.keep;
		b.sop = *p_.sop;
		b.eop = *p_.eop;
		if (*p_.valid) {
			if (stalled_ && !same(b, last_))
				error("beat changed while valid && !ready");
			last_ = b;
		} else if (stalled_) {
			error("valid dropped before the beat was taken");
		}
		stalled_ = *p_.valid && !*p_.ready;
		if (*p_.valid && *p_.ready) {
			beats_++;
			take(b);
		}
	}

private:
	static bool same(const TlpBeat &a, const TlpBeat &b)
	{
		return memcmp(a.dw, b.dw, sizeof(a.dw)) == 0 && a.keep == b.keep && a.sop == b.sop &&
		       a.eop == b.eop;
	}
	void take(const TlpBeat &b)
	{
		if (b.sop) {
			if (in_tlp_)
				error("sop inside a TLP");
			in_tlp_ = true;
			memcpy(hdr_, b.dw, sizeof(hdr_));
			unsigned hdr_dw = (hdr_[0] >> 29) & 1 ? 4 : 3;
			if (b.keep != (hdr_dw == 4 ? 0xf : 0x7))
				error("header beat keep does not match the header size");
			if (hdr_dw == 3 && hdr_[3] != 0)
				error("dword 3 of a 3-DW header is not zero");
			payload_.clear();
		} else {
			if (!in_tlp_) {
				error("beat without sop outside a TLP");
				return;
			}
			if (b.keep != 0x1 && b.keep != 0x3 && b.keep != 0x7 && b.keep != 0xf)
				error("payload keep not contiguous from dword 0");
			if (!b.eop && b.keep != 0xf)
				error("partial payload beat before eop");
			for (int j = 0; j < 4; j++)
				if (b.keep & (1u << j))
					payload_.push_back(b.dw[j]);
		}
		if (b.eop) {
			in_tlp_ = false;
			checked(hdr_, payload_);
			RxTlp r;
			memcpy(r.hdr, hdr_, sizeof(hdr_));
			if (tlp_decode(hdr_, payload_.data(), (unsigned)payload_.size(), &r.t) != 0) {
				error("undecodable TLP");
				return;
			}
			bool data = (hdr_[0] >> 30) & 1;
			if (data && payload_.size() != r.t.len_dw)
				error("payload length differs from the Length field");
			if (!data && !payload_.empty())
				error("payload on a TLP without data");
			if (verbose) {
				char buf[160];
				tlp_format(&r.t, buf, sizeof(buf));
				printf("    %s <- %s\n", name.c_str(), buf);
			}
			q_.push_back(r);
		}
	}

	TlpPins<W> p_;
	bool stalled_ = false;
	TlpBeat last_{};
	bool in_tlp_ = false;
	uint32_t hdr_[4] = {0, 0, 0, 0};
	std::vector<uint32_t> payload_;
	std::deque<RxTlp> q_;
	uint64_t beats_ = 0;
};

// ---------------------------------------------------------------------------
// The decoded request header (pcie_tlp_pkg::tlp_req_t) that the endpoint's
// receive path hands to pcie_cfg_t0 and pcie_reg_bridge, packed from the
// header dwords by the PCIe field positions (MSB first: fmt 3, type 5, tc 3,
// attr 3 = {Attr[2], Attr[1:0]}, ep, len 11 (0 = 1024), requester ID 16,
// tag 8, last BE 4, first BE 4, address 64: config {0, dword 2}, memory the
// dword-aligned address).
// ---------------------------------------------------------------------------
inline void tlp_req_pack(const uint32_t hdr[4], VlWide<4> &w)
{
	uint32_t v[4] = {0, 0, 0, 0};
	auto put = [&](unsigned lsb, unsigned width, uint64_t x) {
		for (unsigned i = 0; i < width; i++)
			if ((x >> i) & 1)
				v[(lsb + i) / 32] |= 1u << ((lsb + i) % 32);
	};
	uint32_t dw0 = hdr[0], dw1 = hdr[1];
	bool four = (dw0 >> 29) & 1;
	bool cfg = !four && ((dw0 >> 25) & 0xf) == 0x2;   // Type 0010x
	uint64_t addr = four ? ((uint64_t)hdr[2] << 32 | (hdr[3] & ~3u)) : cfg ? hdr[2] : (hdr[2] & ~3u);
	unsigned len = dw0 & 0x3ff;
	put(0, 64, addr);
	put(64, 4, dw1 & 0xf);
	put(68, 4, (dw1 >> 4) & 0xf);
	put(72, 8, (dw1 >> 8) & 0xff);
	put(80, 16, dw1 >> 16);
	put(96, 11, len ? len : 1024);
	put(107, 1, (dw0 >> 14) & 1);
	put(108, 3, ((dw0 >> 18) & 1) << 2 | ((dw0 >> 12) & 3));
	put(111, 3, (dw0 >> 20) & 7);
	put(114, 5, (dw0 >> 24) & 0x1f);
	put(119, 3, dw0 >> 29);
	for (int i = 0; i < 4; i++)
		w[i] = v[i];
}

// A source of decoded requests (req_valid/req_ready/req, plus the payload
// dword of a config write if the module has one), random gaps (prob).
class TlpReqSource : public TlpPortBase {
public:
	TlpReqSource(const std::string &n, CData *valid, CData *ready, VlWide<4> *req, IData *wdata, uint32_t seed)
		: TlpPortBase(n, seed), valid_(valid), ready_(ready), req_(req), wdata_(wdata) {}

	void send(const struct tlp &t, uint32_t dw0_or = 0)
	{
		Item it{};
		tlp_encode_hdr(&t, it.hdr);
		it.hdr[0] |= dw0_or;
		it.wdata = t.payload_dw ? t.payload[0] : 0;
		q_.push_back(it);
	}
	bool idle() const { return q_.empty() && !presenting_; }
	uint64_t taken() const { return taken_; }

	void drive()
	{
		if (!presenting_ && !q_.empty() && coin(prob)) {
			cur_ = q_.front();
			q_.pop_front();
			presenting_ = true;
		}
		Item z{};
		const Item &it = presenting_ ? cur_ : z;
		tlp_req_pack(it.hdr, *req_);
		if (wdata_)
			*wdata_ = it.wdata;
		*valid_ = presenting_;
	}
	void sample()
	{
		if (*valid_ && *ready_) {
			presenting_ = false;
			taken_++;
		}
	}

private:
	struct Item {
		uint32_t hdr[4];
		uint32_t wdata;
	};
	CData *valid_, *ready_;
	VlWide<4> *req_;
	IData *wdata_;
	std::deque<Item> q_;
	Item cur_{};
	bool presenting_ = false;
	uint64_t taken_ = 0;
};

// ---------------------------------------------------------------------------
// The protocol checker on both directions of one link (docs/tlp-check.md).
// `in` sees what the testbench sends to the device under test (requests of
// the host model, completions of its memory model), `out` what the device
// sends; they are paired, so completions are matched to the requests of the
// other direction.  Each violation prints "  FAIL TLP CHECK <link> <dir>:
// <rule> (PCIe <section>): ..." and counts as a failed check; tb_finish
// prints one summary line per direction first.  The receiver's MPS, the
// requester's MRRS, RCB and Extended Tag of each direction come from what the
// testbench programs (set_in/set_out; the defaults are the reset values).
// ---------------------------------------------------------------------------


class TlpLink {
public:
	struct tlp_check in, out;
	std::string name;

	explicit TlpLink(const std::string &n) : name(n)
	{
		tlp_check_init(&in, (n + " in").c_str(), nullptr);
		tlp_check_init(&out, (n + " out").c_str(), nullptr);
		// completers handle 8-bit tags whatever their Extended Tag Field Enable
		// (PCIe 2.2.6.2); the host models use them
		in.cfg.ext_tag = true;
		tlp_check_pair(&in, &out);
		tlp_check_set_report(&in, report, this);
		tlp_check_set_report(&out, report, this);
		if (live().empty())
			g_finish_hooks.push_back([] {
				for (TlpLink *l : live())
					l->summary();
				live().clear();
			});
		live().push_back(this);
	}
	// a link that ends before tb_finish (one per test) prints its summary now
	~TlpLink()
	{
		auto &v = live();
		for (size_t i = 0; i < v.size(); i++)
			if (v[i] == this) {
				summary();
				v.erase(v.begin() + (long)i);
				break;
			}
	}
	TlpLink(const TlpLink &) = delete;
	TlpLink &operator=(const TlpLink &) = delete;

	void set_in(unsigned mps, unsigned mrrs, unsigned rcb = 64, bool ext_tag = true)
	{
		struct tlp_check_cfg c = {mps, mrrs, rcb, ext_tag};
		tlp_check_set_cfg(&in, &c);
	}
	void set_out(unsigned mps, unsigned mrrs, unsigned rcb = 64, bool ext_tag = false)
	{
		struct tlp_check_cfg c = {mps, mrrs, rcb, ext_tag};
		tlp_check_set_cfg(&out, &c);
	}
	// The device under test's Device Control as the testbench writes it (PCIe
	// 7.5.3.4: MPS bits 7:5, Extended Tag bit 8, MRRS bits 14:12): its
	// requests and completions follow its MPS, MRRS and Extended Tag; what the
	// host sends it stays within the same MPS.
	void devctl(uint16_t v)
	{
		unsigned mps = 128u << ((v >> 5) & 7), mrrs = 128u << ((v >> 12) & 7);
		set_out(mps, mrrs, out.cfg.rcb, (v >> 8) & 1);
		set_in(mps, in.cfg.mrrs, in.cfg.rcb, in.cfg.ext_tag);
	}
	// Sources feeding the device check as `in`, sinks taking its TLPs as `out`.
	void attach_in(TlpPortBase &p) { p.check = &in; }
	void attach_out(TlpPortBase &p) { p.check = &out; }
	// The device was reset: its outstanding requests are gone.
	void reset()
	{
		tlp_check_reset(&in);
		tlp_check_reset(&out);
	}
	uint64_t violations() const { return in.violations + out.violations; }
	// A negative test: the testbench is about to send n TLPs that break
	// `rule` on purpose; those violations are expected (and must happen).
	void expect_in(enum tlp_rule rule, unsigned n = 1) { expect_[rule] += n; }

private:
	static std::vector<TlpLink *> &live()
	{
		static std::vector<TlpLink *> v;
		return v;
	}
	static bool report(void *arg, const struct tlp_check *c, enum tlp_rule rule, const uint32_t hdr[4],
			   const char *msg)
	{
		TlpLink *l = static_cast<TlpLink *>(arg);
		bool expected = c == &l->in && l->expect_[rule] > 0;
		if (expected)
			l->expect_[rule]--;
		printf("  %s TLP CHECK %s: %s (PCIe %s): %s [hdr %08x %08x %08x %08x]\n",
		       expected ? "expected" : "FAIL", c->name,
		       tlp_rule_name(rule), tlp_rule_section(rule), msg, hdr[0], hdr[1], hdr[2], hdr[3]);
		if (!expected) {
			g_checks++;
			g_fails++;
		}
		return expected;
	}
	void summary()
	{
		for (const struct tlp_check *c : {&in, &out}) {
			if (!c->tlps)
				continue;
			g_checks++;  // the checker ran; its violations were counted as they came
			printf("  tlp-check %s: %llu TLPs, %llu violations, %llu waived%s, %u outstanding\n",
			       c->name, (unsigned long long)c->tlps, (unsigned long long)c->violations,
			       (unsigned long long)c->waived,
			       c->waived ? " (expected by negative tests)" : "",
			       tlp_check_outstanding(c));
			for (int r = 0; r < TLP_R_COUNT; r++)
				if (c->count[r])
					printf("    %llu x %s (PCIe %s)\n", (unsigned long long)c->count[r],
					       tlp_rule_name((enum tlp_rule)r), tlp_rule_section((enum tlp_rule)r));
		}
		for (auto &e : expect_)
			CHECK(e.second == 0, "TLP CHECK %s: %u expected violation(s) of '%s' not seen", name.c_str(),
			      e.second, tlp_rule_name(e.first));
		expect_.clear();
	}
	std::map<enum tlp_rule, unsigned> expect_;
};

// Ordering between the TLP classes across a bridge (hw/include/tlp_order.h,
// docs/tlp-check.md): side 0 and side 1 are the bridge's two links; the
// sources feeding a side are where TLPs enter (header taken), the sinks of a
// side where they leave.  `xlate` is the bridge's address translation as the
// test programmed it (tlp_order_xlate_fn).  Each violation prints "  FAIL TLP
// ORDER <name>: ..." and is a failed check; tick() once per cycle.
// ---------------------------------------------------------------------------
class TlpBridgeOrder {
public:
	using Xlate = std::function<bool(int side, enum tlp_order_dir dir, enum tlp_order_cls cls, uint64_t addr,
					 uint64_t *in_addr)>;
	struct tlp_order o;
	Xlate xlate;

	TlpBridgeOrder(const std::string &n, Xlate x) : xlate(std::move(x))
	{
		tlp_order_init(&o, n.c_str(), call, this);
		tlp_order_set_report(&o, report, this);
	}
	~TlpBridgeOrder() { tlp_order_free(&o); }
	TlpBridgeOrder(const TlpBridgeOrder &) = delete;
	TlpBridgeOrder &operator=(const TlpBridgeOrder &) = delete;

	void attach_in(TlpPortBase &p, int side) { attach(p, side, TLP_ORDER_IN); }
	void attach_out(TlpPortBase &p, int side) { attach(p, side, TLP_ORDER_OUT); }
	void tick(uint64_t cycle) { tlp_order_set_time(&o, cycle); }
	// start following (a test whose every forwarded TLP must come out) or stop
	void start() { tlp_order_reset(&o); tlp_order_enable(&o, true); }
	void stop() { tlp_order_enable(&o, false); }
	uint64_t violations() const { return o.violations; }
	uint64_t pending() const { return tlp_order_pending(&o, 0) + tlp_order_pending(&o, 1); }
	void print() const { printf("  "); tlp_order_print(&o, stdout); }

private:
	void attach(TlpPortBase &p, int side, enum tlp_order_dir dir)
	{
		p.order = &o;
		p.order_side = side;
		p.order_dir = dir;
	}
	static bool call(void *ctx, int side, enum tlp_order_dir dir, enum tlp_order_cls cls, uint64_t addr,
			 uint64_t *in_addr)
	{
		return static_cast<TlpBridgeOrder *>(ctx)->xlate(side, dir, cls, addr, in_addr);
	}
	static void report(void *arg, const struct tlp_order *o, const char *msg)
	{
		(void)arg;
		printf("  FAIL TLP ORDER %s: %s\n", o->name, msg);
		g_checks++;
		g_fails++;
	}
};

// A TlpSource on s_tlp_* and a TlpSink on m_tlp_* (tlp_port.h) that share one
// random generator, so a seed gives the same gaps and back-pressure as ever.
template <class Model> class TlpDriver {
	using W = std::remove_reference_t<decltype(std::declval<Model &>().s_tlp_data)>;

public:
	explicit TlpDriver(Model *m, uint32_t seed = 1)
		: rng_(std::make_shared<std::mt19937>(seed)),
		  src_("s_tlp", TLP_PINS(m, s_tlp), rng_), snk_("m_tlp", TLP_PINS(m, m_tlp), rng_),
		  link_(std::make_unique<TlpLink>("s_tlp/m_tlp"))
	{
		link_->attach_in(src_);
		link_->attach_out(snk_);
	}

	// The protocol checker of this link (set_in/set_out: MPS, MRRS, ...).
	TlpLink &link() { return *link_; }

	// Probability that s_tlp_valid is offered / m_tlp_ready asserted in a cycle.
	double valid_prob = 1.0;
	double ready_prob = 1.0;
	bool verbose = false;

	void send(const struct tlp &t, uint32_t dw0_or = 0, const uint32_t *hdr_override = nullptr)
	{
		src_.verbose = verbose;
		src_.send(t, dw0_or, hdr_override);
	}
	void send_beats(const std::vector<TlpBeat> &beats) { src_.send_beats(beats); }

	bool tx_idle() const { return src_.idle(); }
	std::deque<struct tlp> &rx() { return rxq_; }
	unsigned errors() const { return snk_.errors(); }
	uint64_t tx_beats() const { return src_.beats(); }
	uint64_t rx_beats() const { return snk_.beats(); }

	// Set the inputs for the next rising edge (call with clk low).
	void drive()
	{
		src_.prob = valid_prob;
		snk_.prob = ready_prob;
		src_.drive();
		snk_.drive();
	}

	// Record the handshakes of the coming edge (after eval with clk low).
	void sample()
	{
		snk_.verbose = verbose;
		src_.sample();
		snk_.sample();
		for (std::deque<RxTlp> &q = snk_.rx(); !q.empty(); q.pop_front())
			rxq_.push_back(q.front().t);
	}

private:
	std::shared_ptr<std::mt19937> rng_;
	TlpSource<W> src_;
	TlpSink<W> snk_;
	std::deque<struct tlp> rxq_;
	std::unique_ptr<TlpLink> link_;
};

// A testbench of a top with one TLP stream pair (s_tlp_*/m_tlp_*): the clock
// of tb.h with the TlpDriver in its drive/sample hooks.
template <class M> class TlpTb : public TbModel<M> {
public:
	TlpTb(uint32_t seed, bool verbose) : drv_(this->top(), seed) { drv_.verbose = verbose; }

	TlpDriver<M> &drv() { return drv_; }

	// Run until a TLP arrives on m_tlp (or the timeout passes).
	bool wait_rx(struct tlp *out, unsigned timeout = 2000)
	{
		if (!this->wait_for([&] { return !drv_.rx().empty(); }, timeout))
			return false;
		*out = drv_.rx().front();
		drv_.rx().pop_front();
		return true;
	}
	// Run until everything queued has been sent, then extra cycles.
	void drain(unsigned extra = 50, unsigned limit = 10000)
	{
		this->wait_for([&] { return drv_.tx_idle(); }, limit);
		this->idle(extra);
	}
	uint8_t next_tag() { return tag_++; }

protected:
	void drive() override { drv_.drive(); }
	void sample() override { drv_.sample(); }

	TlpDriver<M> drv_;
	uint8_t tag_ = 0x10;
};

#endif // RTL_TB_TLP_PORT_H
