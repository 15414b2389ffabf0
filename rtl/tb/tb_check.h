// SPDX-License-Identifier: Apache-2.0
//
// tb_check.h: the check counters and macros of the C++ testbenches in rtl/tb.
// Each testbench is one translation unit, so the counters can live here.
// CHECK_EQ evaluates its operands once: a failing check of an access (e.g. a
// register read) prints the value it got instead of doing the access again.
#ifndef RTL_TB_TB_CHECK_H
#define RTL_TB_TB_CHECK_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static unsigned g_checks, g_fails;

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

static inline void section(const char *name) { printf("-- %s\n", name); }

// Command line: -v (verbose), "bench" (only where bench is given), a number
// (the seed); +plusargs are left to Verilator::commandArgs.
static inline void tb_args(int argc, char **argv, bool *verbose, uint32_t *seed, bool *bench = nullptr)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			*verbose = true;
		else if (bench && !strcmp(argv[i], "bench"))
			*bench = true;
		else if (argv[i][0] != '+')
			*seed = (uint32_t)strtoul(argv[i], nullptr, 0);
	}
}

#endif // RTL_TB_TB_CHECK_H
