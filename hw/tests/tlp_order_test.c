// SPDX-License-Identifier: Apache-2.0
/*
 * tlp_order_test.c: the unit test of the ordering checker (hw/lib/tlp_order.c),
 * hand-built header dwords through a made-up bridge: side 0 is the device link,
 * side 1 the host link; an address A on side 0 is A + OFF on side 1 (both ways),
 * and writes into the MSI window on side 0 are consumed by the bridge.  Each
 * case is a short sequence of TLPs entering and leaving, with the number of
 * violations it must give (PCIe Base Spec. 2.4.1, table 2-40).  `make -C hw check`.
 */
#include <stdio.h>

#include "tlp_order.h"

#define OFF 0x10000000ull
#define MSI 0xfee00000ull

#define D0(fmt, type, ro, len) ((uint32_t)(fmt) << 29 | (uint32_t)(type) << 24 | (uint32_t)(ro) << 13 | ((len) & 0x3ff))
#define RQ(rid, tag, lbe, fbe) ((uint32_t)(rid) << 16 | (uint32_t)(tag) << 8 | (lbe) << 4 | (fbe))
#define MWR(ro, len, a) {D0(2, 0, ro, len), RQ(0x0300, 0, 0xf, 0xf), (uint32_t)(a), 0}
#define MRD(len, rid, tag, a) {D0(0, 0, 0, len), RQ(rid, tag, 0xf, 0xf), (uint32_t)(a), 0}
#define CPLD(ro, len, bc, rid, tag) {D0(2, 0x0a, ro, len), 0x01000000u | ((bc) & 0xfff), (uint32_t)(rid) << 16 | (uint32_t)(tag) << 8, 0}
#define CPL_UR(rid, tag) {D0(0, 0x0a, 0, 0), 0x01000000u | 1u << 13 | 4, (uint32_t)(rid) << 16 | (uint32_t)(tag) << 8, 0}

/* enter/leave at a side; T: the clock moves on (no header) */
enum { END, IN0, IN1, OUT0, OUT1, T };

struct step {
	int what;
	uint32_t hdr[4];
};

struct tcase {
	const char *name;
	unsigned violations;
	uint64_t unmatched, pending;
	struct step s[12];   /* up to the first END */
};

/* The host's read of 64 bytes at OFF + 0x2000 (tag 5) has gone down as the
 * bridge's read at 0x2000 (tag 9): its completion may come up. */
#define HOST_READ {IN1, MRD(16, 0x0000, 5, OFF + 0x2000)}, {OUT0, MRD(16, 0x0200, 9, 0x2000)}
#define DEV_CPL(ro) {IN0, CPLD(ro, 16, 64, 0x0200, 9)}
#define HOST_CPL(ro) {OUT1, CPLD(ro, 16, 64, 0x0000, 5)}

static const struct tcase cases[] = {
	{"posted then completion, in order", 0, 0, 0,
	 {HOST_READ, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 8, 0x1000)}, {T, {0, 0, 0, 0}}, DEV_CPL(0), {T, {0, 0, 0, 0}}, {OUT1, MWR(0, 8, OFF + 0x1000)}, HOST_CPL(0)}},
	{"completion passes a posted write (D2a)", 1, 0, 0,
	 {HOST_READ, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 8, 0x1000)}, {T, {0, 0, 0, 0}}, DEV_CPL(0), {T, {0, 0, 0, 0}}, HOST_CPL(0), {OUT1, MWR(0, 8, OFF + 0x1000)}}},
	{"completion with Relaxed Ordering passes a posted write (D2b)", 0, 0, 0,
	 {HOST_READ, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 8, 0x1000)}, {T, {0, 0, 0, 0}}, DEV_CPL(1), {T, {0, 0, 0, 0}}, HOST_CPL(1), {OUT1, MWR(0, 8, OFF + 0x1000)}}},
	{"completion passes a posted write taken in the same cycle on another port", 0, 0, 0,
	 {HOST_READ, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 8, 0x1000)}, DEV_CPL(0), {T, {0, 0, 0, 0}}, HOST_CPL(0), {OUT1, MWR(0, 8, OFF + 0x1000)}}},
	{"posted passes posted (A2a)", 1, 0, 0,
	 {{IN0, MWR(0, 8, 0x1000)}, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 8, 0x3000)}, {T, {0, 0, 0, 0}}, {OUT1, MWR(0, 8, OFF + 0x3000)},
	  {OUT1, MWR(0, 8, OFF + 0x1000)}}},
	{"posted with Relaxed Ordering passes posted (A2b)", 0, 0, 0,
	 {{IN0, MWR(0, 8, 0x1000)}, {T, {0, 0, 0, 0}}, {IN0, MWR(1, 8, 0x3000)}, {T, {0, 0, 0, 0}}, {OUT1, MWR(1, 8, OFF + 0x3000)},
	  {OUT1, MWR(0, 8, OFF + 0x1000)}}},
	{"read passes posted (B2a)", 1, 0, 0,
	 {{IN0, MWR(0, 8, 0x1000)}, {T, {0, 0, 0, 0}}, {IN0, MRD(4, 0x0300, 1, 0x5000)}, {T, {0, 0, 0, 0}}, {OUT1, MRD(4, 0x0100, 7, OFF + 0x5000)},
	  {OUT1, MWR(0, 8, OFF + 0x1000)}}},
	{"posted passes a read (allowed: A3)", 0, 0, 0,
	 {{IN0, MRD(4, 0x0300, 1, 0x5000)}, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 8, 0x1000)}, {T, {0, 0, 0, 0}}, {OUT1, MWR(0, 8, OFF + 0x1000)},
	  {OUT1, MRD(4, 0x0100, 7, OFF + 0x5000)}}},
	{"a write split in two, the completion between the halves", 1, 0, 0,
	 {HOST_READ, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 64, 0x1000)}, {T, {0, 0, 0, 0}}, DEV_CPL(0), {T, {0, 0, 0, 0}}, {OUT1, MWR(0, 32, OFF + 0x1000)}, HOST_CPL(0),
	  {OUT1, MWR(0, 32, OFF + 0x1080)}}},
	{"a write split in two, the completion after both", 0, 0, 0,
	 {HOST_READ, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 64, 0x1000)}, {T, {0, 0, 0, 0}}, DEV_CPL(0), {OUT1, MWR(0, 32, OFF + 0x1000)},
	  {OUT1, MWR(0, 32, OFF + 0x1080)}, HOST_CPL(0)}},
	{"an MSI the bridge consumes does not hold the completion", 0, 0, 0,
	 {HOST_READ, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 1, MSI)}, {T, {0, 0, 0, 0}}, DEV_CPL(0), {T, {0, 0, 0, 0}}, HOST_CPL(0)}},
	{"a write that never left is pending", 0, 0, 32,
	 {{IN0, MWR(0, 8, 0x1000)}}},
	{"bytes that left without having entered are unmatched", 0, 16, 0,
	 {{IN0, MWR(0, 4, 0x1000)}, {OUT1, MWR(0, 8, OFF + 0x1000)}}},
	{"a completion without data is not followed", 0, 0, 0,
	 {HOST_READ, {T, {0, 0, 0, 0}}, {IN0, MWR(0, 8, 0x1000)}, {T, {0, 0, 0, 0}}, {IN0, CPL_UR(0x0200, 9)}, {OUT1, CPL_UR(0x0000, 5)},
	  {OUT1, MWR(0, 8, OFF + 0x1000)}}},
	{"downstream: a completion for the device passes the host's write (D2a)", 1, 0, 0,
	 {{IN0, MRD(16, 0x0300, 3, 0x7000)}, {OUT1, MRD(16, 0x0100, 4, OFF + 0x7000)}, {T, {0, 0, 0, 0}},
	  {IN1, MWR(0, 8, OFF + 0x2000)}, {T, {0, 0, 0, 0}}, {IN1, CPLD(0, 16, 64, 0x0100, 4)}, {T, {0, 0, 0, 0}},
	  {OUT0, CPLD(0, 16, 64, 0x0300, 3)}, {OUT0, MWR(0, 8, 0x2000)}}},
};

static bool xlate(void *ctx, int side, enum tlp_order_dir dir, enum tlp_order_cls cls, uint64_t addr,
		  uint64_t *in_addr)
{
	(void)ctx;
	(void)cls;
	if (dir == TLP_ORDER_IN)
		return !(side == 0 && addr >= MSI && addr < MSI + 0x1000);
	*in_addr = side == 1 ? addr - OFF : addr + OFF;
	return true;
}

static unsigned quiet_reports;
static void count_report(void *arg, const struct tlp_order *o, const char *msg)
{
	(void)arg;
	(void)o;
	(void)msg;
	quiet_reports++;
}

int main(void)
{
	unsigned failed = 0, n = sizeof(cases) / sizeof(cases[0]);
	struct tlp_order o;

	tlp_order_init(&o, "test bridge", xlate, NULL);
	tlp_order_set_report(&o, count_report, NULL);
	for (unsigned i = 0; i < n; i++) {
		const struct tcase *c = &cases[i];
		uint64_t v0 = tlp_order_violations(&o), u0 = o.unmatched, t = 1;

		tlp_order_reset(&o);
		tlp_order_set_time(&o, t);
		for (unsigned k = 0; k < 12 && c->s[k].what != END; k++) {
			const struct step *s = &c->s[k];

			if (s->what == T)
				tlp_order_set_time(&o, ++t);
			else
				tlp_order_tlp(&o, s->what == IN1 || s->what == OUT1,
					      s->what <= IN1 ? TLP_ORDER_IN : TLP_ORDER_OUT, s->hdr, 0);
		}
		uint64_t v = tlp_order_violations(&o) - v0, u = o.unmatched - u0;
		uint64_t pend = tlp_order_pending(&o, 0) + tlp_order_pending(&o, 1);
		bool ok = v == c->violations && u == c->unmatched && pend == c->pending;

		printf("%s %s: %llu violations, %llu unmatched, %llu pending\n", ok ? "ok  " : "FAIL", c->name,
		       (unsigned long long)v, (unsigned long long)u, (unsigned long long)pend);
		failed += !ok;
	}
	tlp_order_free(&o);
	printf("tlp_order_test: %u cases, %u failed\n", n, failed);
	return failed ? 1 : 0;
}
