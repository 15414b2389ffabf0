// SPDX-License-Identifier: Apache-2.0
/*
 * tlp_check_test.c: the unit test of the TLP protocol checker (hw/lib/tlp_check.c),
 * independent of the RTL and of our codec: a table of hand-built header dwords,
 * legal and illegal, each case a short exchange on one link (requests from
 * "dn", completions on "up").  Every illegal case must fire its rule on its
 * last TLP and nothing before (and only that rule, unless marked `several`);
 * every legal case must pass.  `make -C hw check`.
 */
#include <stdio.h>
#include <string.h>

#include "tlp_check.h"

/* dword 0: Fmt, Type, TC, Attr {IDO, RO, NS}, Length (PCIe 2.2.1) */
#define D0(fmt, type, tc, attr, len)                                                    \
	((uint32_t)(fmt) << 29 | (uint32_t)(type) << 24 | (uint32_t)(tc) << 20 |         \
	 (uint32_t)((attr) >> 2 & 1) << 18 | (uint32_t)((attr) & 3) << 12 | ((len) & 0x3ff))
/* requests: dword 1 = requester ID, tag, Last/First DW BE */
#define RQ(rid, tag, lbe, fbe) ((uint32_t)(rid) << 16 | (uint32_t)(tag) << 8 | (lbe) << 4 | (fbe))
/* completions: dword 1 = completer ID, status, byte count; dword 2 = requester ID, tag, LA */
#define C1(cid, st, bc) ((uint32_t)(cid) << 16 | (uint32_t)(st) << 13 | ((bc) & 0xfff))
#define C2(rid, tag, la) ((uint32_t)(rid) << 16 | (uint32_t)(tag) << 8 | ((la) & 0x7f))

#define MRD32(len, tag, lbe, fbe, a) {D0(0, 0, 0, 0, len), RQ(0x0100, tag, lbe, fbe), (uint32_t)(a), 0}
#define MRD64(len, tag, lbe, fbe, a) {D0(1, 0, 0, 0, len), RQ(0x0100, tag, lbe, fbe), (uint32_t)((uint64_t)(a) >> 32), (uint32_t)(a)}
#define MWR32(len, lbe, fbe, a) {D0(2, 0, 0, 0, len), RQ(0x0100, 0, lbe, fbe), (uint32_t)(a), 0}
#define MWR64(len, lbe, fbe, a) {D0(3, 0, 0, 0, len), RQ(0x0100, 0, lbe, fbe), (uint32_t)((uint64_t)(a) >> 32), (uint32_t)(a)}
#define CFGRD(tag, fbe) {D0(0, 4, 0, 0, 1), RQ(0x0000, tag, 0, fbe), 0x01000010, 0}
#define CFGWR(tag, fbe) {D0(2, 4, 0, 0, 1), RQ(0x0000, tag, 0, fbe), 0x01000010, 0}
#define CPLD(len, st, bc, tag, la) {D0(2, 0x0a, 0, 0, len), C1(0x0200, st, bc), C2(0x0100, tag, la), 0}
#define CPL(st, bc, tag, la) {D0(0, 0x0a, 0, 0, 0), C1(0x0200, st, bc), C2(0x0100, tag, la), 0}
#define CFGCPLD(tag) {D0(2, 0x0a, 0, 0, 1), C1(0x0100, 0, 4), C2(0x0000, tag, 0), 0}
#define CFGCPL(tag, bc) {D0(0, 0x0a, 0, 0, 0), C1(0x0100, 0, bc), C2(0x0000, tag, 0), 0}

/* DN: a TLP requester -> completer; UP: completer -> requester; GIVE_UP: the
 * requester of hdr's (requester ID, tag) gave up (tlp_check_forget) */
enum { DN, UP, GIVE_UP };
#define LEGAL (-1)

struct step {
	int dir;
	uint32_t hdr[4];
	unsigned payload_dw;
};

struct tcase {
	const char *name;
	int rule;           /* the rule the last step must fire, or LEGAL */
	struct step s[5];   /* unused steps have payload_dw 0 and hdr all zero */
	unsigned n;
};
/* the last step fires `rule` and may fire others as well */
#define SEVERAL 0x100

static const struct tcase cases[] = {
	/* ---- legal traffic ---- */
	{"MWr32 1 DW", LEGAL, {{DN, MWR32(1, 0, 0xf, 0x1000), 1}}, 1},
	{"MWr32 zero-length write", LEGAL, {{DN, MWR32(1, 0, 0x0, 0x1000), 1}}, 1},
	{"MWr32 1 DW non-contiguous BE", LEGAL, {{DN, MWR32(1, 0, 0x9, 0x1000), 1}}, 1},
	{"MWr32 2 DW QW-aligned non-contiguous", LEGAL, {{DN, MWR32(2, 0x5, 0xa, 0x1000), 2}}, 1},
	{"MWr32 128 B at MPS, ends at 4 KiB", LEGAL, {{DN, MWR32(32, 0xf, 0xf, 0x1f80), 32}}, 1},
	{"MWr64 above 4 GiB", LEGAL, {{DN, MWR64(4, 0xf, 0xf, 0x100000000ull), 4}}, 1},
	{"MRd 1 DW + CplD", LEGAL, {{DN, MRD32(1, 1, 0, 0xf, 0x2004), 0}, {UP, CPLD(1, 0, 4, 1, 0x04), 1}}, 2},
	{"MRd 1 DW BE 0110 + CplD bc 2 la+1", LEGAL,
	 {{DN, MRD32(1, 1, 0, 0x6, 0x2004), 0}, {UP, CPLD(1, 0, 2, 1, 0x05), 1}}, 2},
	{"MRd 1 DW BE 1001 + CplD bc 4", LEGAL,
	 {{DN, MRD32(1, 1, 0, 0x9, 0x2004), 0}, {UP, CPLD(1, 0, 4, 1, 0x04), 1}}, 2},
	{"zero-length read + CplD bc 1", LEGAL,
	 {{DN, MRD32(1, 2, 0, 0x0, 0x2008), 0}, {UP, CPLD(1, 0, 1, 2, 0x08), 1}}, 2},
	{"MRd 256 B split at the 64 B RCB", LEGAL,
	 {{DN, MRD32(64, 3, 0xf, 0xf, 0x3020), 0},
	  {UP, CPLD(8, 0, 256, 3, 0x20), 8},
	  {UP, CPLD(16, 0, 224, 3, 0x40), 16},
	  {UP, CPLD(32, 0, 160, 3, 0x80), 32},
	  {UP, CPLD(8, 0, 32, 3, 0x00), 8}}, 5},
	{"MRd with partial BEs, one CplD", LEGAL,
	 {{DN, MRD32(3, 4, 0x3, 0xe, 0x4000), 0}, {UP, CPLD(3, 0, 9, 4, 0x01), 3}}, 2},
	{"MRd answered UR (Cpl, request ends)", LEGAL,
	 {{DN, MRD32(4, 5, 0xf, 0xf, 0x5000), 0}, {UP, CPL(1, 16, 5, 0), 0},
	  {DN, MRD32(4, 5, 0xf, 0xf, 0x5000), 0}}, 3},
	{"tag reused after its completion", LEGAL,
	 {{DN, MRD32(1, 6, 0, 0xf, 0x6000), 0}, {UP, CPLD(1, 0, 4, 6, 0), 1},
	  {DN, MRD32(1, 6, 0, 0xf, 0x6000), 0}}, 3},
	{"CfgRd0 + CplD, CfgWr0 + Cpl", LEGAL,
	 {{DN, CFGRD(7, 0xf), 0}, {UP, CFGCPLD(7), 1}, {DN, CFGWR(8, 0xf), 1}, {UP, CFGCPL(8, 4), 0}}, 4},
	{"tag reused after a completion timeout", LEGAL,
	 {{DN, MRD32(1, 31, 0, 0xf, 0x6000), 0}, {GIVE_UP, MRD32(1, 31, 0, 0xf, 0x6000), 0},
	  {DN, MRD32(1, 31, 0, 0xf, 0x7000), 0}}, 3},
	{"Msg (4 DW, no data)", LEGAL, {{DN, {D0(1, 0x14, 0, 0, 0), 0x01000020, 0, 0}, 0}}, 1},

	/* ---- each rule fires ---- */
	{"reserved Fmt 101", TLP_R_FMT_TYPE, {{DN, {D0(5, 0, 0, 0, 1), 0, 0, 0}, 0}}, 1},
	{"undefined Type 00011", TLP_R_FMT_TYPE, {{DN, {D0(0, 3, 0, 0, 1), 0, 0, 0}, 0}}, 1},
	{"MWr payload shorter than Length", TLP_R_LEN_PAYLOAD, {{DN, MWR32(4, 0xf, 0xf, 0x1000), 3}}, 1},
	{"MRd carrying payload", TLP_R_LEN_PAYLOAD, {{DN, MRD32(1, 9, 0, 0xf, 0x1000), 1}}, 1},
	{"MWr 256 B above MPS 128", TLP_R_MPS, {{DN, MWR32(64, 0xf, 0xf, 0x1000), 64}}, 1},
	{"CplD 256 B above MPS 128", TLP_R_MPS,
	 {{DN, MRD32(64, 10, 0xf, 0xf, 0x1000), 0}, {UP, CPLD(64, 0, 256, 10, 0), 64}}, 2},
	{"MRd 1024 B above MRRS 512", TLP_R_MRRS, {{DN, MRD32(256, 11, 0xf, 0xf, 0x1000), 0}}, 1},
	{"MRd64 below 4 GiB", TLP_R_ADDR_FMT, {{DN, MRD64(1, 12, 0, 0xf, 0xfffff000ull), 0}}, 1},
	{"MWr 1 DW with Last BE", TLP_R_BE_1DW, {{DN, MWR32(1, 0xf, 0xf, 0x1000), 1}}, 1},
	{"MWr 2 DW with First BE 0", TLP_R_BE_MULTI, {{DN, MWR32(2, 0xf, 0x0, 0x1000), 2}}, 1},
	{"MRd 4 DW with Last BE 0", TLP_R_BE_MULTI, {{DN, MRD32(4, 13, 0x0, 0xf, 0x1000), 0}}, 1},
	{"MWr 3 DW First BE 0111 (hole)", TLP_R_BE_CONTIG, {{DN, MWR32(3, 0xf, 0x7, 0x1000), 3}}, 1},
	{"MWr 2 DW not QW-aligned, Last BE 1010", TLP_R_BE_CONTIG, {{DN, MWR32(2, 0xa, 0xf, 0x1004), 2}}, 1},
	{"MWr crossing 4 KiB", TLP_R_4K, {{DN, MWR32(2, 0xf, 0xf, 0x1ffc), 2}}, 1},
	{"MRd crossing 4 KiB", TLP_R_4K, {{DN, MRD32(32, 14, 0xf, 0xf, 0x1fc0), 0}}, 1},
	{"CfgRd with Length 2", TLP_R_CFG_IO, {{DN, {D0(0, 4, 0, 0, 2), RQ(0, 15, 0xf, 0xf), 0x01000010, 0}, 0}}, 1},
	{"CfgWr with TC 1", TLP_R_CFG_IO, {{DN, {D0(2, 4, 1, 0, 1), RQ(0, 15, 0, 0xf), 0x01000010, 0}, 1}}, 1},
	{"8-bit tag without Extended Tag", TLP_R_TAG_EXT, {{DN, MRD32(1, 0x80, 0, 0xf, 0x1000), 0}}, 1},
	{"tag reuse while outstanding", TLP_R_TAG_REUSE,
	 {{DN, MRD32(1, 16, 0, 0xf, 0x1000), 0}, {DN, MRD32(1, 16, 0, 0xf, 0x2000), 0}}, 2},
	{"completion without request", TLP_R_CPL_UNEXPECTED, {{UP, CPLD(1, 0, 4, 17, 0), 1}}, 1},
	{"second completion after the last", TLP_R_CPL_UNEXPECTED,
	 {{DN, MRD32(1, 18, 0, 0xf, 0x1000), 0}, {UP, CPLD(1, 0, 4, 18, 0), 1}, {UP, CPLD(1, 0, 4, 18, 0), 1}}, 3},
	{"late completion after a completion timeout", TLP_R_CPL_UNEXPECTED,
	 {{DN, MRD32(1, 31, 0, 0xf, 0x1000), 0}, {GIVE_UP, MRD32(1, 31, 0, 0xf, 0x1000), 0},
	  {UP, CPLD(1, 0, 4, 31, 0), 1}}, 3},
	{"reserved completion status 3", TLP_R_CPL_STATUS,
	 {{DN, MRD32(1, 19, 0, 0xf, 0x1000), 0}, {UP, CPL(3, 4, 19, 0), 0}}, 2},
	{"CplD with status UR", TLP_R_CPL_STATUS,
	 {{DN, MRD32(1, 20, 0, 0xf, 0x1000), 0}, {UP, CPLD(1, 1, 4, 20, 0), 1}}, 2},
	{"successful memory read completion without data", TLP_R_CPL_STATUS,
	 {{DN, MRD32(1, 21, 0, 0xf, 0x1000), 0}, {UP, CPL(0, 4, 21, 0), 0}}, 2},
	{"CplD for a CfgWr", TLP_R_CPL_STATUS, {{DN, CFGWR(22, 0xf), 1}, {UP, CFGCPLD(22), 1}}, 2},
	{"completion TC differs", TLP_R_CPL_ATTR,
	 {{DN, MRD32(1, 23, 0, 0xf, 0x1000), 0},
	  {UP, {D0(2, 0x0a, 2, 0, 1), C1(0x0200, 0, 4), C2(0x0100, 23, 0), 0}, 1}}, 2},
	{"completion byte count wrong", TLP_R_CPL_BC,
	 {{DN, MRD32(4, 24, 0xf, 0xf, 0x1000), 0}, {UP, CPLD(4, 0, 12, 24, 0), 4}}, 2},
	{"split: byte count not decreasing", TLP_R_CPL_BC,
	 {{DN, MRD32(32, 25, 0xf, 0xf, 0x1000), 0}, {UP, CPLD(16, 0, 128, 25, 0x00), 16},
	  {UP, CPLD(16, 0, 128, 25, 0x40), 16}}, 3},
	{"Cfg completion byte count 8", TLP_R_CPL_BC, {{DN, CFGWR(26, 0xf), 1}, {UP, CFGCPL(26, 8), 0}}, 2},
	{"lower address ignores First BE", TLP_R_CPL_LA,
	 {{DN, MRD32(1, 27, 0, 0xc, 0x1000), 0}, {UP, CPLD(1, 0, 2, 27, 0x00), 1}}, 2},
	{"split: completions out of address order", TLP_R_CPL_LA | SEVERAL,
	 {{DN, MRD32(32, 28, 0xf, 0xf, 0x1000), 0}, {UP, CPLD(16, 0, 64, 28, 0x40), 16}}, 2},
	{"split not at the RCB", TLP_R_CPL_LEN,
	 {{DN, MRD32(32, 29, 0xf, 0xf, 0x1000), 0}, {UP, CPLD(8, 0, 128, 29, 0x00), 8}}, 2},
	{"completion returns more than requested", TLP_R_CPL_LEN,
	 {{DN, MRD32(4, 30, 0xf, 0xf, 0x1000), 0}, {UP, CPLD(8, 0, 16, 30, 0x00), 8}}, 2},
};

static int last_rule;
static unsigned fired_mask;  /* rules fired since the last reset */

static bool record(void *arg, const struct tlp_check *c, enum tlp_rule rule, const uint32_t hdr[4],
		   const char *msg)
{
	(void)arg;
	(void)c;
	(void)hdr;
	(void)msg;
	last_rule = (int)rule;
	fired_mask |= 1u << rule;
	return false;
}

static int run_case(const struct tcase *tc, bool verbose)
{
	static const uint32_t zero[1024];
	struct tlp_check dn, up;
	unsigned fired_last = 0, fired_before = 0;

	tlp_check_init(&dn, "dn", NULL);
	tlp_check_init(&up, "up", NULL);
	tlp_check_pair(&dn, &up);
	if (!verbose) {
		tlp_check_set_report(&dn, record, NULL);
		tlp_check_set_report(&up, record, NULL);
	}
	last_rule = LEGAL;
	for (unsigned i = 0; i < tc->n; i++) {
		const struct step *s = &tc->s[i];
		fired_mask = 0;
		if (s->dir == GIVE_UP) {
			tlp_check_forget(&dn, (uint16_t)(s->hdr[1] >> 16), (uint16_t)((s->hdr[1] >> 8) & 0xff));
			continue;
		}
		unsigned f = tlp_check_tlp(s->dir == DN ? &dn : &up, s->hdr, zero, s->payload_dw);
		if (i + 1 < tc->n)
			fired_before += f;
		else
			fired_last = f;
	}
	bool ok;
	if (tc->rule == LEGAL)
		ok = fired_before + fired_last == 0;
	else
		ok = fired_before == 0 && fired_last >= 1 && (fired_mask & (1u << (tc->rule & 0xff))) &&
		     (fired_last == 1 || (tc->rule & SEVERAL));
	printf("%s %-50s %s%s\n", ok ? "ok  " : "FAIL", tc->name,
	       tc->rule == LEGAL ? "legal" : tlp_rule_name((enum tlp_rule)(tc->rule & 0xff)),
	       ok ? "" : " (not as expected)");
	if (!ok && !verbose) {
		printf("     fired %u before the last step, %u on it, last rule %s\n", fired_before,
		       fired_last, last_rule == LEGAL ? "-" : tlp_rule_name((enum tlp_rule)last_rule));
		run_case(tc, true);
	}
	return ok ? 0 : 1;
}

/* Every rule must have at least one illegal case. */
static int coverage(void)
{
	int bad = 0;

	for (int r = 0; r < TLP_R_COUNT; r++) {
		bool seen = false;
		for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			seen |= cases[i].rule != LEGAL && (cases[i].rule & 0xff) == r;
		if (!seen) {
			printf("FAIL no case for rule %s\n", tlp_rule_name((enum tlp_rule)r));
			bad++;
		}
	}
	return bad;
}

/* The waiver hook: a waived violation is counted apart. */
static bool waive(void *arg, const struct tlp_check *c, enum tlp_rule rule, const uint32_t hdr[4],
		  const char *msg)
{
	(void)arg;
	(void)c;
	(void)hdr;
	(void)msg;
	return rule == TLP_R_MPS;
}

static int waiver(void)
{
	static const uint32_t zero[64];
	static const uint32_t h[4] = MWR32(64, 0xf, 0xf, 0x1000);
	struct tlp_check c;

	tlp_check_init(&c, "waiver", NULL);
	tlp_check_set_report(&c, waive, NULL);
	tlp_check_tlp(&c, h, zero, 64);
	bool ok = c.violations == 0 && c.waived == 1;
	printf("%s %-50s\n", ok ? "ok  " : "FAIL", "a waived violation does not count");
	return !ok;
}

int main(int argc, char **argv)
{
	int fails = 0;
	unsigned n = sizeof(cases) / sizeof(cases[0]);

	(void)argv;
	for (unsigned i = 0; i < n; i++)
		fails += run_case(&cases[i], argc > 1);
	fails += coverage();
	fails += waiver();
	printf("tlp-check: %u cases, %d failed\n%s tlp-check\n", n + 1, fails, fails ? "FAIL" : "PASS");
	return fails ? 1 : 0;
}
