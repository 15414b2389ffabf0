// SPDX-License-Identifier: Apache-2.0
//
// tb.h: the one harness of the C++ (Verilator) testbenches in rtl/tb and its
// subfolders: check counters and assertions, the command line, the final
// PASS/FAIL line, and a clock/reset base class for a Verilated model.
//
//   CHECK(cond, fmt, ...)    count a check; on failure print "  FAIL file:line: msg"
//   CHECK_EQ(got, want, what) the same for a value (operands evaluated once: a
//                            failing check of an access prints the value it got)
//   EXPECT(cond, fmt, ...)   CHECK, and `return false` from the enclosing
//                            bool test function on failure (test runner below)
//   section(name)            print "-- name" (a group of checks)
//   TbArgs a = tb_args(argc, argv)
//                            -v / --verbose, --seed N or a bare number N,
//                            bench / --bench; +plusargs are left to Verilator
//   return tb_finish("name", fmt, ...)
//                            "name: N checks, F failed[, extra]" and the final
//                            line "PASS name" / "FAIL name"; exit status
//   TbRunner                 named tests (bool functions): "[ RUN  ]"/"[  OK  ]"
//                            lines and "suite: P passed, F failed"
//   TbModel<M>               context, model, cycle counter, tick() (drive /
//                            sample hooks around the falling and rising edge),
//                            reset(), idle(), wait_for(cond, timeout)
//
// Each testbench is one translation unit, so the counters live here.
#ifndef RTL_TB_TB_H
#define RTL_TB_TB_H

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"

static unsigned g_checks, g_fails;
// Run by tb_finish before the summary (e.g. the TLP checkers' summaries, tlp_port.h).
static std::vector<std::function<void()>> g_finish_hooks;

#define CHECK(cond, ...)                                                                   \
	do {                                                                               \
		g_checks++;                                                                \
		if (!(cond)) {                                                             \
			g_fails++;                                                         \
			printf("  FAIL %s:%d: ", __FILE__, __LINE__);                      \
			printf(__VA_ARGS__);                                               \
			printf("\n");                                                      \
		}                                                                          \
	} while (0)

#define CHECK_EQ(got, want, what)                                                          \
	do {                                                                               \
		uint64_t got_ = (uint64_t)(got), want_ = (uint64_t)(want);                 \
		CHECK(got_ == want_, "%s: got 0x%" PRIx64 ", want 0x%" PRIx64, what, got_, want_); \
	} while (0)

#define EXPECT(cond, ...)                                                                  \
	do {                                                                               \
		unsigned fails_ = g_fails;                                                 \
		CHECK(cond, __VA_ARGS__);                                                  \
		if (g_fails != fails_)                                                     \
			return false;                                                      \
	} while (0)

static inline void section(const char *name) { printf("-- %s\n", name); }

struct TbArgs {
	bool verbose = false;
	bool bench = false;
	uint32_t seed = 1;
};

// The one command line of every testbench (Makefiles pass any of the forms).
static inline TbArgs tb_args(int argc, char **argv)
{
	TbArgs a;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			a.verbose = true;
		else if (!strcmp(argv[i], "bench") || !strcmp(argv[i], "--bench"))
			a.bench = true;
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			a.seed = (uint32_t)strtoul(argv[++i], nullptr, 0);
		else if (argv[i][0] != '+')
			a.seed = (uint32_t)strtoul(argv[i], nullptr, 0);
	}
	Verilated::commandArgs(argc, argv);
	return a;
}

// The summary and the final line; returns the exit status.
static inline int tb_finish(const char *name, const char *fmt = nullptr, ...)
{
	for (auto &h : g_finish_hooks)
		h();
	g_finish_hooks.clear();
	printf("%s: %u checks, %u failed", name, g_checks, g_fails);
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		printf(", ");
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n%s %s\n", g_fails || !g_checks ? "FAIL" : "PASS", name);
	return g_fails || !g_checks ? 1 : 0;
}

// Named tests, each a bool function (EXPECT returns false on the first failure).
struct TbRunner {
	int passed = 0, failed = 0;
	std::vector<std::string> failures;
	// TB_ONLY=NAME in the environment: run only the test NAME (the others are not counted)
	void run(const char *name, const char *what, const std::function<bool()> &fn)
	{
		const char *only = getenv("TB_ONLY");
		if (only && *only && strcmp(only, name)) return;
		printf("[ RUN  ] %s: %s\n", name, what);
		fflush(stdout);
		unsigned fails = g_fails;
		bool ok = fn() && g_fails == fails;
		printf("[ %s ] %s\n", ok ? " OK " : "FAIL", name);
		fflush(stdout);
		if (ok) {
			passed++;
		} else {
			failed++;
			failures.push_back(name);
		}
	}
	// "suite: P passed, F failed" (read by rtl/net/Makefile), then tb_finish.
	int finish(const char *suite)
	{
		printf("%s: %d passed, %d failed\n", suite, passed, failed);
		for (auto &f : failures)
			printf("  failed: %s\n", f.c_str());
		int rc = tb_finish(suite, "%d tests", passed + failed);
		return failed ? 1 : rc;
	}
};

// A Verilated model with ports clk and rst (synchronous, active high). One
// tick(): drive() sets the inputs for the coming edge, eval with clk low,
// sample() records the handshakes this edge completes, the rising edge,
// posedge() reacts to its results.
template <class M> class TbModel {
public:
	TbModel() : ctx_(std::make_unique<VerilatedContext>()), top_(std::make_unique<M>(ctx_.get())) {}
	virtual ~TbModel() { top_->final(); }
	M *top() { return top_.get(); }
	uint64_t cycle() const { return cycle_; }

	void tick()
	{
		drive();
		top_->clk = 0;
		top_->eval();
		sample();
		top_->clk = 1;
		top_->eval();
		cycle_++;
		posedge();
	}
	void reset(unsigned cycles = 5)
	{
		top_->rst = 1;
		for (unsigned i = 0; i < cycles; i++)
			tick();
		top_->rst = 0;
		tick();
	}
	void idle(unsigned n)
	{
		for (unsigned i = 0; i < n; i++)
			tick();
	}
	// Tick until cond() holds (checked before each tick); false on timeout.
	template <class F> bool wait_for(F cond, unsigned timeout)
	{
		for (unsigned i = 0; i < timeout; i++) {
			if (cond())
				return true;
			tick();
		}
		return cond();
	}

protected:
	virtual void drive() {}
	virtual void sample() {}
	virtual void posedge() {}

	std::unique_ptr<VerilatedContext> ctx_;
	std::unique_ptr<M> top_;
	uint64_t cycle_ = 0;
};

#endif // RTL_TB_TB_H
