// SPDX-License-Identifier: Apache-2.0
/*
 * tlp_check.c: the strict TLP protocol checker of tlp_check.h (docs/tlp-check.md).
 *
 * Written from the PCI Express Base Specification, Rev. 4.0/5.0, chapter 2
 * (Transaction Layer); every rule cites its section.  It deliberately does
 * not use tlp.h/tlp.c (our codec): a bug shared by the codec and the RTL must
 * not hide from the checker.  Header dwords are the big-endian values of the
 * header bytes, so bit n of a dword is the bit n of the specification's
 * figures (docs/tlp-interface.md).
 */
#include "tlp_check.h"

#include <stdarg.h>
#include <string.h>

/* ---- rule table ---- */

static const struct {
	const char *name, *section;
} rules[TLP_R_COUNT] = {
	[TLP_R_FMT_TYPE] = {"undefined Fmt/Type", "2.2.1"},
	[TLP_R_LEN_PAYLOAD] = {"payload vs Length", "2.2.2"},
	[TLP_R_MPS] = {"payload above Max_Payload_Size", "2.2.2"},
	[TLP_R_MRRS] = {"read request above Max_Read_Request_Size", "2.2.2, 7.5.3.4"},
	[TLP_R_ADDR_FMT] = {"64-bit address format below 4 GiB", "2.2.4.1"},
	[TLP_R_BE_1DW] = {"1-DW request with Last DW BE != 0", "2.2.5"},
	[TLP_R_BE_MULTI] = {"multi-DW request with a zero byte enable field", "2.2.5"},
	[TLP_R_BE_CONTIG] = {"non-contiguous byte enables", "2.2.5"},
	[TLP_R_4K] = {"memory request crosses a 4 KiB boundary", "2.2.7"},
	[TLP_R_CFG_IO] = {"Cfg/IO request fields (Length 1, Last BE 0, TC 0, Attr 0)", "2.2.7, 2.2.8"},
	[TLP_R_TAG_EXT] = {"tag above 5 bits without Extended Tag Field Enable", "2.2.6.2"},
	[TLP_R_TAG_REUSE] = {"tag of an outstanding non-posted request reused", "2.2.6.2"},
	[TLP_R_CPL_UNEXPECTED] = {"unexpected completion", "2.3.2"},
	[TLP_R_CPL_STATUS] = {"completion status / Cpl vs CplD", "2.2.9, 2.3.1"},
	[TLP_R_CPL_ATTR] = {"completion TC/Attr differ from the request", "2.2.9"},
	[TLP_R_CPL_BC] = {"completion byte count", "2.2.9, 2.3.1.1"},
	[TLP_R_CPL_LA] = {"completion lower address", "2.2.9, 2.3.1.1"},
	[TLP_R_CPL_LEN] = {"completion Length / RCB split", "2.3.1.1"},
};

const char *tlp_rule_name(enum tlp_rule r) { return r < TLP_R_COUNT ? rules[r].name : "?"; }
const char *tlp_rule_section(enum tlp_rule r) { return r < TLP_R_COUNT ? rules[r].section : "?"; }

/* ---- the header, parsed from the raw dwords (2.2.1, figures 2-5 .. 2-24) ---- */

enum cls { C_MEM_RD, C_MEM_WR, C_IO, C_CFG, C_MSG, C_CPL, C_ATOMIC, C_PREFIX, C_BAD };

struct hdr {
	unsigned fmt, type, hdr_dw, tc, attr, len_dw;
	bool data, td;
	enum cls cls;
	bool write;       /* IO/Cfg write */
	bool locked;      /* MRdLk, CplLk, CplDLk */
	uint16_t rid, tag;
	unsigned fbe, lbe;
	uint64_t addr;
	/* completions */
	uint16_t cid;
	unsigned status, bc;
	bool bcm;
	unsigned la;
};

static enum cls classify(unsigned fmt, unsigned type, bool *locked, bool *write)
{
	bool data = fmt & 2;

	*locked = false;
	*write = data;
	if (fmt == 4)
		return C_PREFIX;                                   /* 2.2.1: TLP prefix */
	if (fmt > 4)
		return C_BAD;
	if ((type & 0x18) == 0x10)
		return fmt & 1 ? C_MSG : C_BAD;                    /* Msg/MsgD: 4-DW only */
	switch (type) {
	case 0x00:
		return data ? C_MEM_WR : C_MEM_RD;                 /* MRd / MWr */
	case 0x01:
		*locked = true;
		return data ? C_BAD : C_MEM_RD;                    /* MRdLk */
	case 0x02:
		return fmt & 1 ? C_BAD : C_IO;                     /* IORd / IOWr, 3-DW */
	case 0x04:
	case 0x05:
		return fmt & 1 ? C_BAD : C_CFG;                    /* CfgRd0/1, CfgWr0/1, 3-DW */
	case 0x0a:
		return fmt & 1 ? C_BAD : C_CPL;                    /* Cpl / CplD */
	case 0x0b:
		*locked = true;
		return fmt & 1 ? C_BAD : C_CPL;                    /* CplLk / CplDLk */
	case 0x0c:
	case 0x0d:
	case 0x0e:
		return data ? C_ATOMIC : C_BAD;                    /* FetchAdd, Swap, CAS */
	default:
		return C_BAD;
	}
}

static void parse(const uint32_t d[4], struct hdr *h)
{
	uint32_t d0 = d[0];

	memset(h, 0, sizeof(*h));
	h->fmt = d0 >> 29;
	h->type = (d0 >> 24) & 0x1f;
	h->hdr_dw = h->fmt & 1 ? 4 : 3;
	h->data = h->fmt & 2;
	h->tc = (d0 >> 20) & 7;
	h->attr = ((d0 >> 18) & 1) << 2 | ((d0 >> 12) & 3);  /* {IDO, RO, NS} */
	h->td = (d0 >> 15) & 1;
	h->len_dw = d0 & 0x3ff ? d0 & 0x3ff : 1024;          /* 2.2.2: 0 = 1024 DW */
	h->cls = classify(h->fmt, h->type, &h->locked, &h->write);
	/* 10-bit tags: T9 (bit 23), T8 (bit 19) of dword 0 (2.2.6.2) */
	unsigned t98 = ((d0 >> 23) & 1) << 1 | ((d0 >> 19) & 1);
	if (h->cls == C_CPL) {
		h->cid = d[1] >> 16;
		h->status = (d[1] >> 13) & 7;
		h->bcm = (d[1] >> 12) & 1;
		h->bc = d[1] & 0xfff ? d[1] & 0xfff : 4096;  /* 2.2.9: 0 = 4096 */
		h->rid = d[2] >> 16;
		h->tag = (uint16_t)(t98 << 8 | ((d[2] >> 8) & 0xff));
		h->la = d[2] & 0x7f;
		return;
	}
	h->rid = d[1] >> 16;
	h->tag = (uint16_t)(t98 << 8 | ((d[1] >> 8) & 0xff));
	h->lbe = (d[1] >> 4) & 0xf;
	h->fbe = d[1] & 0xf;
	if (h->hdr_dw == 4)
		h->addr = (uint64_t)d[2] << 32 | (d[3] & ~3u);
	else
		h->addr = d[2] & ~3u;
}

/* ---- reporting ---- */

static bool default_report(void *arg, const struct tlp_check *c, enum tlp_rule rule,
			   const uint32_t hdr[4], const char *msg)
{
	(void)arg;
	fprintf(stderr, "TLP CHECK %s: %s (PCIe %s): %s [hdr %08x %08x %08x %08x]\n", c->name,
		tlp_rule_name(rule), tlp_rule_section(rule), msg, hdr[0], hdr[1], hdr[2], hdr[3]);
	return false;
}

struct ctx {
	struct tlp_check *c;
	const uint32_t *hdr;
	unsigned found;
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void violation(struct ctx *x, enum tlp_rule rule, const char *fmt, ...)
{
	char msg[256];
	uint32_t h[4];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memcpy(h, x->hdr, sizeof(h));
	if (((h[0] >> 29) & 1) == 0)
		h[3] = 0;
	x->found++;
	x->c->count[rule]++;
	if (x->c->report(x->c->report_arg, x->c, rule, h, msg))
		x->c->waived++;
	else
		x->c->violations++;
}

/* ---- outstanding requests ---- */

/* the kind of an outstanding request */
enum { K_MEM_RD, K_CFG_RD, K_CFG_WR, K_OTHER };

static struct tlp_check_req *find(struct tlp_check *c, uint16_t rid, uint16_t tag)
{
	for (unsigned i = 0; i < c->n_out; i++)
		if (c->out[i].rid == rid && c->out[i].tag == tag)
			return &c->out[i];
	return NULL;
}

static void retire(struct tlp_check *c, struct tlp_check_req *r)
{
	*r = c->out[--c->n_out];
}

/* ---- byte enables and byte counts (2.2.5, 2.2.9) ---- */

static unsigned lowest_bit(unsigned be) { return be ? (unsigned)__builtin_ctz(be) : 0; }
static unsigned highest_bit(unsigned be) { return be ? 31u - (unsigned)__builtin_clz(be) : 0; }

/* 2.2.5: byte enables of a memory request. */
static void check_bes(struct ctx *x, const struct hdr *h)
{
	if (h->len_dw == 1) {
		/* Length 1: Last DW BE must be 0000b; any First DW BE (0000b = zero length) */
		if (h->lbe)
			violation(x, TLP_R_BE_1DW, "Length 1 with Last DW BE 0x%x", h->lbe);
		return;
	}
	if (!h->fbe || !h->lbe) {
		violation(x, TLP_R_BE_MULTI, "Length %u with First/Last DW BE 0x%x/0x%x", h->len_dw,
			  h->fbe, h->lbe);
		return;
	}
	/* non-contiguous BEs only in 1-DW requests and QW-aligned 2-DW memory requests */
	if (h->len_dw == 2 && !(h->addr & 4))
		return;
	bool fbe_ok = h->fbe == 0xf || h->fbe == 0xe || h->fbe == 0xc || h->fbe == 0x8;
	bool lbe_ok = h->lbe == 0xf || h->lbe == 0x7 || h->lbe == 0x3 || h->lbe == 0x1;
	if (!fbe_ok || !lbe_ok)
		violation(x, TLP_R_BE_CONTIG, "Length %u at 0x%llx with First/Last DW BE 0x%x/0x%x",
			  h->len_dw, (unsigned long long)h->addr, h->fbe, h->lbe);
}

/* 2.2.9 (table 2-37): the byte count of a memory read request. */
static uint32_t read_bytes(const struct hdr *h)
{
	if (h->len_dw == 1)
		return h->fbe ? highest_bit(h->fbe) - lowest_bit(h->fbe) + 1 : 1;
	return 4 * h->len_dw - lowest_bit(h->fbe) - (3 - highest_bit(h->lbe));
}

/* ---- requests ---- */

static void check_mem(struct ctx *x, const struct hdr *h)
{
	const struct tlp_check_cfg *cfg = &x->c->cfg;
	uint64_t last = h->addr + 4ull * h->len_dw - 1;

	/* 2.2.4.1: addresses below 4 GiB must use the 32-bit (3-DW) format */
	if (h->hdr_dw == 4 && h->addr < (1ull << 32))
		violation(x, TLP_R_ADDR_FMT, "4-DW header for address 0x%llx",
			  (unsigned long long)h->addr);
	/* 2.2.7: a memory request must not cross a 4 KiB boundary */
	if ((h->addr >> 12) != (last >> 12))
		violation(x, TLP_R_4K, "0x%llx + %u B crosses 4 KiB", (unsigned long long)h->addr,
			  4 * h->len_dw);
	check_bes(x, h);
	/* 2.2.2: a read request must not exceed Max_Read_Request_Size */
	if (h->cls == C_MEM_RD && 4 * h->len_dw > cfg->mrrs)
		violation(x, TLP_R_MRRS, "read of %u B, MRRS %u B", 4 * h->len_dw, cfg->mrrs);
}

/* 2.2.7 (Cfg) and 2.2.8 (IO): Length 1, Last DW BE 0000b, TC0, Attr 0. */
static void check_cfg_io(struct ctx *x, const struct hdr *h)
{
	if (h->len_dw != 1 || h->lbe || h->tc || h->attr)
		violation(x, TLP_R_CFG_IO,
			  "%s request with Length %u, Last DW BE 0x%x, TC %u, Attr %u",
			  h->cls == C_CFG ? "Cfg" : "IO", h->len_dw, h->lbe, h->tc, h->attr);
}

/* 2.2.6.2: tags; then remember the request for its completions (2.3.2). */
static void track_request(struct ctx *x, const struct hdr *h)
{
	struct tlp_check *c = x->c;
	struct tlp_check_req *r;

	if (h->tag > 0xff)
		violation(x, TLP_R_TAG_EXT, "10-bit tag 0x%x (10-Bit Tag Requester not enabled)",
			  h->tag);
	else if (h->tag > 0x1f && !c->cfg.ext_tag)
		violation(x, TLP_R_TAG_EXT, "tag 0x%x with Extended Tag Field Enable clear", h->tag);
	r = find(c, h->rid, h->tag);
	if (r) {
		violation(x, TLP_R_TAG_REUSE, "requester %04x tag 0x%x still outstanding", h->rid,
			  h->tag);
	} else if (c->n_out == TLP_CHECK_MAX_OUT) {
		if (!c->table_full_noted)
			fprintf(stderr, "TLP CHECK %s: more than %u outstanding requests, not tracked\n",
				c->name, TLP_CHECK_MAX_OUT);
		c->table_full_noted = true;
		return;
	} else {
		r = &c->out[c->n_out++];
	}
	memset(r, 0, sizeof(*r));
	r->rid = h->rid;
	r->tag = h->tag;
	r->tc = (uint8_t)h->tc;
	r->attr = (uint8_t)h->attr;
	if (h->cls == C_CFG || h->cls == C_IO)
		r->kind = h->write ? K_CFG_WR : K_CFG_RD;
	else
		r->kind = h->cls == C_MEM_RD ? K_MEM_RD : K_OTHER;
	if (h->cls == C_MEM_RD) {
		r->zero_len = h->len_dw == 1 && !h->fbe;
		r->next_addr = h->addr + lowest_bit(h->fbe);
		r->remain = read_bytes(h);
		r->end_addr = h->addr + 4ull * h->len_dw;
	}
}

/* ---- completions (2.2.9, 2.3.1.1, 2.3.2) ---- */

/* Completion of a Cfg/IO request: byte count 4, lower address 0; CplD Length 1
 * for reads, Cpl for writes (2.2.9). */
static void check_cpl_cfg_io(struct ctx *x, const struct hdr *h, const struct tlp_check_req *r)
{
	if (h->bc != 4)
		violation(x, TLP_R_CPL_BC, "Cfg/IO completion with byte count %u (must be 4)", h->bc);
	if (h->la)
		violation(x, TLP_R_CPL_LA, "Cfg/IO completion with lower address 0x%x (must be 0)",
			  h->la);
	if (h->status == 0 && r->kind == K_CFG_RD && (!h->data || h->len_dw != 1))
		violation(x, TLP_R_CPL_STATUS, "successful Cfg/IO read completion %s",
			  h->data ? "with Length != 1" : "without data");
	if (h->status == 0 && r->kind == K_CFG_WR && h->data)
		violation(x, TLP_R_CPL_STATUS, "CplD for a Cfg/IO write");
}

/* A successful CplD of a memory read: byte count, lower address, Length
 * against what is left of the request; split only at RCB boundaries and in
 * increasing address order (2.3.1.1).  Returns true when the request is done. */
static bool check_cpl_mem(struct ctx *x, const struct hdr *h, struct tlp_check_req *r)
{
	uint64_t start = r->next_addr & ~3ull, end = start + 4ull * h->len_dw;
	unsigned rcb = x->c->cfg.rcb ? x->c->cfg.rcb : 64;

	if (!h->data) {
		violation(x, TLP_R_CPL_STATUS, "successful memory read completion without data");
		return true;
	}
	if (!h->bcm && h->bc != r->remain)
		violation(x, TLP_R_CPL_BC, "byte count %u, %u bytes of the request remain", h->bc,
			  r->remain);
	if (h->la != (r->next_addr & 0x7f))
		violation(x, TLP_R_CPL_LA, "lower address 0x%02x, next byte of the request at 0x%llx",
			  h->la, (unsigned long long)r->next_addr);
	if (r->zero_len) {
		if (h->len_dw != 1)
			violation(x, TLP_R_CPL_LEN, "zero-length read completed with Length %u",
				  h->len_dw);
		return true;
	}
	if (end > r->end_addr) {
		violation(x, TLP_R_CPL_LEN, "Length %u returns data up to 0x%llx, request ends at 0x%llx",
			  h->len_dw, (unsigned long long)end, (unsigned long long)r->end_addr);
		return true;
	}
	if (end == r->end_addr)
		return true;
	/* a partial completion ends on a naturally aligned RCB boundary */
	if (end % rcb)
		violation(x, TLP_R_CPL_LEN, "partial completion ends at 0x%llx, not on the %u B RCB",
			  (unsigned long long)end, rcb);
	r->remain -= (uint32_t)(end - r->next_addr);
	r->next_addr = end;
	return false;
}

static void check_completion(struct ctx *x, const struct hdr *h)
{
	struct tlp_check *req_side = x->c->peer;
	struct tlp_check_req *r;
	bool done = true;

	/* 2.2.9: status 011, 101-111 are reserved; data only with Successful Completion */
	if (h->status != 0 && h->status != 1 && h->status != 2 && h->status != 4)
		violation(x, TLP_R_CPL_STATUS, "reserved completion status %u", h->status);
	if (h->status != 0 && h->data)
		violation(x, TLP_R_CPL_STATUS, "CplD with status %u (data only with SC)", h->status);
	if (!req_side)
		return;
	r = find(req_side, h->rid, h->tag);
	if (!r) {
		violation(x, TLP_R_CPL_UNEXPECTED, "no outstanding request of %04x tag 0x%x", h->rid,
			  h->tag);
		return;
	}
	if (h->tc != r->tc || (h->attr & 3) != (r->attr & 3))
		violation(x, TLP_R_CPL_ATTR, "TC %u Attr %u, request TC %u Attr %u", h->tc, h->attr,
			  r->tc, r->attr);
	/* 2.3.1: CRS only for configuration requests */
	bool cfg_io = r->kind == K_CFG_RD || r->kind == K_CFG_WR;
	if (h->status == 2 && !cfg_io)
		violation(x, TLP_R_CPL_STATUS, "CRS for a request other than Cfg/IO");
	if (cfg_io)
		check_cpl_cfg_io(x, h, r);  /* one completion ends a Cfg/IO request */
	else if (r->kind == K_MEM_RD && h->status == 0)
		done = check_cpl_mem(x, h, r);
	/* 2.3.2: a completion with a status other than SC ends the request */
	if (done)
		retire(req_side, r);
}

/* ---- the entry point ---- */

static void check_payload(struct ctx *x, const struct hdr *h, unsigned payload_dw)
{
	unsigned want = h->data ? h->len_dw + (h->td ? 1 : 0) : (h->td ? 1 : 0);

	/* 2.2.2: the payload must match Length (plus the TLP digest when TD is set) */
	if (payload_dw != want)
		violation(x, TLP_R_LEN_PAYLOAD, "%u payload dwords, Length %u%s%s", payload_dw,
			  h->data ? h->len_dw : 0, h->data ? "" : " (no data)", h->td ? " + digest" : "");
	/* 2.2.2: no payload above the receiver's Max_Payload_Size */
	if (h->data && 4 * h->len_dw > x->c->cfg.mps && h->cls != C_ATOMIC)
		violation(x, TLP_R_MPS, "payload of %u B, MPS %u B", 4 * h->len_dw, x->c->cfg.mps);
}

unsigned tlp_check_tlp(struct tlp_check *c, const uint32_t hdr[4], const uint32_t *payload,
		       unsigned payload_dw)
{
	struct ctx x = {c, hdr, 0};
	struct hdr h;

	(void)payload;
	c->tlps++;
	parse(hdr, &h);
	if (h.cls == C_PREFIX)
		return 0;  /* TLP prefixes (2.2.10) are not checked */
	if (h.cls == C_BAD) {
		violation(&x, TLP_R_FMT_TYPE, "Fmt %u Type 0x%02x", h.fmt, h.type);
		return x.found;
	}
	check_payload(&x, &h, payload_dw);
	switch (h.cls) {
	case C_MEM_RD:
		check_mem(&x, &h);
		track_request(&x, &h);
		break;
	case C_MEM_WR:
		check_mem(&x, &h);
		break;
	case C_CFG:
	case C_IO:
		check_cfg_io(&x, &h);
		track_request(&x, &h);
		break;
	case C_ATOMIC:
		track_request(&x, &h);
		break;
	case C_CPL:
		check_completion(&x, &h);
		break;
	default:
		break;
	}
	return x.found;
}

/* ---- setup and results ---- */

void tlp_check_init(struct tlp_check *c, const char *name, const struct tlp_check_cfg *cfg)
{
	static const struct tlp_check_cfg def = TLP_CHECK_CFG_DEFAULT;

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name ? name : "tlp");
	c->cfg = cfg ? *cfg : def;
	c->report = default_report;
}

void tlp_check_pair(struct tlp_check *a, struct tlp_check *b)
{
	a->peer = b;
	b->peer = a;
}

void tlp_check_set_cfg(struct tlp_check *c, const struct tlp_check_cfg *cfg) { c->cfg = *cfg; }

void tlp_check_set_report(struct tlp_check *c, tlp_check_report_fn fn, void *arg)
{
	c->report = fn ? fn : default_report;
	c->report_arg = arg;
}

void tlp_check_reset(struct tlp_check *c) { c->n_out = 0; }

void tlp_check_forget(struct tlp_check *c, uint16_t requester_id, uint16_t tag)
{
	struct tlp_check_req *r = find(c, requester_id, tag);

	if (r)
		retire(c, r);
}

uint64_t tlp_check_violations(const struct tlp_check *c) { return c->violations; }

unsigned tlp_check_outstanding(const struct tlp_check *c) { return c->n_out; }

void tlp_check_print(const struct tlp_check *c, FILE *f)
{
	fprintf(f, "tlp-check %s: %llu TLPs, %llu violations, %llu waived, %u outstanding\n",
		c->name, (unsigned long long)c->tlps, (unsigned long long)c->violations,
		(unsigned long long)c->waived, c->n_out);
	for (int r = 0; r < TLP_R_COUNT; r++)
		if (c->count[r])
			fprintf(f, "tlp-check %s:   %llu x %s (PCIe %s)\n", c->name,
				(unsigned long long)c->count[r], rules[r].name, rules[r].section);
}
