// SPDX-License-Identifier: Apache-2.0
//
// bench_extoll_nic: a tiny benchmark of the Verilated NIC. After enumerating
// the NIC (BAR0 assigned, memory space enabled) it runs N clock cycles with a
// stream of 8-byte register reads (MRd of info.scratch, one outstanding at a
// time, no back-pressure) and prints
//   - simulated cycles per second of wall time (Verilator model speed), and
//   - cycles per register read round trip (MRd header beat offered on s_tlp
//     until the last CplD beat taken from m_tlp), the NIC's BAR read latency.
//
// Usage: bench_extoll_nic [cycles] [idle]   (default 2000000)
//   idle: after enumeration run the cycles with no traffic at all (the common
//   case in a co-simulation: the guest is mostly not touching the NIC).

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "Vextoll_nic.h"
#include "extoll_regs.h"
#include "tlp.h"
#include "tlp_port.h"
#include "verilated.h"

int main(int argc, char **argv)
{
	uint64_t cycles = argc > 1 ? strtoull(argv[1], nullptr, 0) : 2000000;
	bool idle = argc > 2 && std::string(argv[2]) == "idle";
	TlpTb<Vextoll_nic> tb(1, false);
	TlpDriver<Vextoll_nic> &drv = tb.drv();
	auto wait_cpl = [&](struct tlp *c) { return tb.wait_rx(c, 10000); };
	tb.reset();

	// enumerate: BAR0, memory space enable
	const uint32_t bar0 = 0xfe000000;
	struct tlp t, c;
	tlp_cfg(&t, true, 0, 0x0100, 0x10, 0xf, bar0, 0, 1);
	drv.send(t);
	tlp_cfg(&t, true, 0, 0x0100, 0x04, 0x3, 0x0006, 0, 2);
	drv.send(t);
	if (!wait_cpl(&c) || !wait_cpl(&c)) {
		printf("FAIL bench: no completion during enumeration\n");
		return 1;
	}

	if (idle) {
		uint64_t start_cyc = tb.cycle();
		auto t0 = std::chrono::steady_clock::now();
		while (tb.cycle() - start_cyc < cycles)
			tb.tick();
		double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		printf("bench_extoll_nic idle: %" PRIu64 " cycles in %.3f s wall: %.0f cycles/s (%.2f MHz)\n",
		       cycles, wall, cycles / wall, cycles / wall / 1e6);
		printf("PASS bench idle: %.0f cycles/s\n", cycles / wall);
		return 0;
	}

	const uint64_t addr = bar0 + EXTOLL_INFO_BASE + EXTOLL_INFO_SCRATCH;
	uint64_t reads = 0, rt_cycles = 0, rt_min = ~0ull, rt_max = 0;
	uint64_t start_cyc = tb.cycle();
	auto t0 = std::chrono::steady_clock::now();
	while (tb.cycle() - start_cyc < cycles) {
		tlp_mrd(&t, addr, 2, 0xf, 0xf, 0, (uint8_t)reads);
		uint64_t issued = tb.cycle();
		drv.send(t);
		if (!wait_cpl(&c) || c.kind != TLP_CPLD || c.tag != (uint8_t)reads) {
			printf("FAIL bench: bad or missing completion\n");
			return 1;
		}
		uint64_t rt = tb.cycle() - issued;
		rt_cycles += rt;
		rt_min = rt < rt_min ? rt : rt_min;
		rt_max = rt > rt_max ? rt : rt_max;
		reads++;
	}
	double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	uint64_t simulated = tb.cycle() - start_cyc;
	printf("bench_extoll_nic: %" PRIu64 " cycles in %.3f s wall: %.0f cycles/s (%.2f MHz)\n",
	       simulated, wall, simulated / wall, simulated / wall / 1e6);
	printf("bench_extoll_nic: %" PRIu64 " register reads (8 B), round trip %.2f cycles "
	       "(min %" PRIu64 ", max %" PRIu64 "), %.0f reads/s wall\n",
	       reads, (double)rt_cycles / reads, rt_min, rt_max, reads / wall);
	printf("PASS bench: %.0f cycles/s, %.2f cycles per register read round trip\n",
	       simulated / wall, (double)rt_cycles / reads);
	return 0;
}
