// SPDX-License-Identifier: Apache-2.0
//
// tlp_port.h: TLP stream source and sink bound to ANY set of Verilator ports
// (docs/tlp-interface.md), for block tests of modules with several TLP
// streams (pcie_rp, pcie_backdoor); tlp_driver.h binds one source and one
// sink to the fixed s_tlp_*/m_tlp_* names of the NIC top.
//
//  * tlp_to_beats(): a TLP cut into 128-bit beats (header beat, then payload
//    beats of four dwords).
//  * TlpSource: send() queues a TLP, cut into beats by tlp_to_beats(); beats
//    are presented with random gaps (valid_prob).
//  * TlpSink: ready is asserted at random (ready_prob); beats are checked for
//    the AXI-Stream rules and the beat layout, reassembled and decoded; the
//    raw header dwords are kept next to the decoded TLP.
//
// Per clock cycle: drive() on every port, eval with clk low, sample() on every
// port, then the rising edge (as in tlp_driver.h).
#ifndef RTL_TB_TLP_PORT_H
#define RTL_TB_TLP_PORT_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tlp.h"
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

// The six signals of one stream. W is the Verilator type of the data port.
template <class W> struct TlpPins {
	W *data;
	CData *keep, *sop, *eop, *valid, *ready;
};

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
		}
	}

private:
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

#endif // RTL_TB_TLP_PORT_H
