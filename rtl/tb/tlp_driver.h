// SPDX-License-Identifier: Apache-2.0
//
// tlp_driver.h: a small, reusable C++ driver for the NIC's TLP streams
// (docs/tlp-interface.md) in Verilator testbenches, built on tlp_port.h.
//
//  * send(): queue a TLP (struct tlp from hw/include/tlp.h) for s_tlp; it is
//    cut into 128-bit beats (header beat, then payload beats of four dwords)
//    and presented with optional random gaps in s_tlp_valid.
//  * m_tlp beats are collected with m_tlp_ready deasserted at random
//    (back-pressure), reassembled and decoded into struct tlp; protocol
//    violations of the DUT (beat without sop, keep pattern, data changing
//    while valid && !ready, payload length vs. Length field) are counted in
//    errors() and described on stderr (tagged "m_tlp").
//
// Usage per clock cycle (the model has ports clk, s_tlp_*, m_tlp_*):
//    drv.drive();   top->clk = 0; top->eval();
//    drv.sample();  top->clk = 1; top->eval();
// drive() sets the inputs for the coming edge, sample() records the
// handshakes (valid && ready) that this edge completes.
#ifndef RTL_TB_TLP_DRIVER_H
#define RTL_TB_TLP_DRIVER_H

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "tlp.h"
#include "tlp_port.h"

// A TlpSource on s_tlp_* and a TlpSink on m_tlp_* (tlp_port.h) that share one
// random generator, so a seed gives the same gaps and back-pressure as ever.
template <class Model> class TlpDriver {
	using W = std::remove_reference_t<decltype(std::declval<Model &>().s_tlp_data)>;

public:
	explicit TlpDriver(Model *m, uint32_t seed = 1)
		: rng_(std::make_shared<std::mt19937>(seed)),
		  src_("s_tlp", TlpPins<W>{&m->s_tlp_data, &m->s_tlp_keep, &m->s_tlp_sop, &m->s_tlp_eop,
					   &m->s_tlp_valid, &m->s_tlp_ready}, rng_),
		  snk_("m_tlp", TlpPins<W>{&m->m_tlp_data, &m->m_tlp_keep, &m->m_tlp_sop, &m->m_tlp_eop,
					   &m->m_tlp_valid, &m->m_tlp_ready}, rng_)
	{
	}

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
};

#endif // RTL_TB_TLP_DRIVER_H
