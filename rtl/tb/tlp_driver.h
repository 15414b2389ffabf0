// SPDX-License-Identifier: Apache-2.0
//
// tlp_driver.h: a small, reusable C++ driver for the NIC's TLP streams
// (docs/tlp-interface.md) in Verilator testbenches.
//
//  * send(): queue a TLP (struct tlp from sim/lib/tlp.h) for s_tlp; it is
//    cut into 128-bit beats (header beat, then payload beats of four dwords)
//    and presented with optional random gaps in s_tlp_valid.
//  * m_tlp beats are collected with m_tlp_ready deasserted at random
//    (back-pressure), reassembled and decoded into struct tlp; protocol
//    violations of the DUT (beat without sop, keep pattern, data changing
//    while valid && !ready, payload length vs. Length field) are counted in
//    errors() and described on stderr.
//
// Usage per clock cycle (the model has ports clk, s_tlp_*, m_tlp_*):
//    drv.drive();   top->clk = 0; top->eval();
//    drv.sample();  top->clk = 1; top->eval();
// drive() sets the inputs for the coming edge, sample() records the
// handshakes (valid && ready) that this edge completes.
#ifndef RTL_TB_TLP_DRIVER_H
#define RTL_TB_TLP_DRIVER_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

#include "tlp.h"

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

template <class Model> class TlpDriver {
public:
	explicit TlpDriver(Model *m, uint32_t seed = 1) : m_(m), rng_(seed) {}

	// Probability that s_tlp_valid is offered / m_tlp_ready asserted in a cycle.
	double valid_prob = 1.0;
	double ready_prob = 1.0;
	bool verbose = false;

	void send(const struct tlp &t, uint32_t dw0_or = 0, const uint32_t *hdr_override = nullptr)
	{
		for (const TlpBeat &b : tlp_to_beats(t, dw0_or, hdr_override))
			txq_.push_back(b);
		if (verbose) {
			char buf[160];
			tlp_format(&t, buf, sizeof(buf));
			printf("    -> %s%s\n", buf, dw0_or & (1u << 14) ? " (poisoned)" : "");
		}
	}
	void send_beats(const std::vector<TlpBeat> &beats)
	{
		for (const TlpBeat &b : beats)
			txq_.push_back(b);
	}

	bool tx_idle() const { return txq_.empty() && !presenting_; }
	std::deque<struct tlp> &rx() { return rxq_; }
	unsigned errors() const { return errors_; }
	uint64_t tx_beats() const { return tx_beats_; }
	uint64_t rx_beats() const { return rx_beats_; }

	// Set the inputs for the next rising edge (call with clk low).
	void drive()
	{
		if (!presenting_ && !txq_.empty() && coin(valid_prob)) {
			cur_ = txq_.front();
			txq_.pop_front();
			presenting_ = true;
		}
		for (int i = 0; i < 4; i++)
			m_->s_tlp_data[i] = presenting_ ? cur_.dw[i] : 0;
		m_->s_tlp_keep = presenting_ ? cur_.keep : 0;
		m_->s_tlp_sop = presenting_ && cur_.sop;
		m_->s_tlp_eop = presenting_ && cur_.eop;
		m_->s_tlp_valid = presenting_;
		m_->m_tlp_ready = coin(ready_prob);
	}

	// Record the handshakes of the coming edge (after eval with clk low).
	void sample()
	{
		if (m_->s_tlp_valid && m_->s_tlp_ready) {
			presenting_ = false;
			tx_beats_++;
		}
		TlpBeat mb{};
		for (int i = 0; i < 4; i++)
			mb.dw[i] = m_->m_tlp_data[i];
		mb.keep = m_->m_tlp_keep;
		mb.sop = m_->m_tlp_sop;
		mb.eop = m_->m_tlp_eop;
		if (m_->m_tlp_valid) {
			// AXI-Stream: a presented beat must not change until taken
			if (m_stalled_ && !same(mb, m_last_))
				error("m_tlp beat changed while valid && !ready");
			m_last_ = mb;
		} else if (m_stalled_) {
			error("m_tlp_valid dropped before the beat was taken");
		}
		m_stalled_ = m_->m_tlp_valid && !m_->m_tlp_ready;
		if (m_->m_tlp_valid && m_->m_tlp_ready) {
			rx_beats_++;
			take(mb);
		}
	}

private:
	static bool same(const TlpBeat &a, const TlpBeat &b)
	{
		return memcmp(a.dw, b.dw, sizeof(a.dw)) == 0 && a.keep == b.keep && a.sop == b.sop &&
		       a.eop == b.eop;
	}
	bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

	void error(const char *what)
	{
		fprintf(stderr, "  TLP PROTOCOL ERROR: %s\n", what);
		errors_++;
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
			struct tlp t;
			if (tlp_decode(hdr_, payload_.data(), (unsigned)payload_.size(), &t) != 0) {
				error("undecodable TLP");
				return;
			}
			bool data = (hdr_[0] >> 30) & 1;
			if (data && payload_.size() != t.len_dw)
				error("payload length differs from the Length field");
			if (!data && !payload_.empty())
				error("payload on a TLP without data");
			if (verbose) {
				char buf[160];
				tlp_format(&t, buf, sizeof(buf));
				printf("    <- %s\n", buf);
			}
			rxq_.push_back(t);
		}
	}

	Model *m_;
	std::mt19937 rng_;
	std::deque<TlpBeat> txq_;
	TlpBeat cur_{};
	bool presenting_ = false;
	bool m_stalled_ = false;
	TlpBeat m_last_{};
	bool in_tlp_ = false;
	uint32_t hdr_[4] = {0, 0, 0, 0};
	std::vector<uint32_t> payload_;
	std::deque<struct tlp> rxq_;
	unsigned errors_ = 0;
	uint64_t tx_beats_ = 0, rx_beats_ = 0;
};

#endif // RTL_TB_TLP_DRIVER_H
