// SPDX-License-Identifier: Apache-2.0
/*
 * tlp_order.c: ordering between the TLP classes across a bridge (PCIe Base
 * Specification 2.4.1, table 2-40). See tlp_order.h and docs/tlp-check.md.
 *
 * Header fields (2.2.1, 2.2.6, 2.2.9), parsed here from the raw dwords:
 *   dword 0: Fmt [31:29], Type [28:24], Attr[1] = Relaxed Ordering [13], Length [9:0]
 *   request dword 1: Requester ID [31:16], Tag [15:8], Last DW BE [7:4], First DW BE [3:0]
 *   request address: dword 2 (3-DW header) or dwords 2..3 (4-DW header), [1:0] reserved
 *   completion dword 1: Completion Status [15:13], Byte Count [11:0] (0 = 4096)
 *   completion dword 2: Requester ID [31:16], Tag [15:8]
 */
#include "tlp_order.h"

#include <stdlib.h>
#include <string.h>

static const char *const cls_name[TLP_ORDER_NCLS] = {"posted request", "read request", "completion"};

static void default_report(void *arg, const struct tlp_order *o, const char *msg)
{
	(void)arg;
	fprintf(stderr, "tlp-order %s: %s\n", o->name, msg);
}

void tlp_order_init(struct tlp_order *o, const char *name, tlp_order_xlate_fn xlate, void *ctx)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->xlate = xlate;
	o->ctx = ctx;
	o->report = default_report;
	o->enabled = true;
}

void tlp_order_set_report(struct tlp_order *o, tlp_order_report_fn fn, void *arg)
{
	o->report = fn ? fn : default_report;
	o->report_arg = arg;
}

static void drop_entries(struct tlp_order *o, int d)
{
	for (unsigned i = 0; i < o->n_ent[d]; i++)
		free(o->ent[d][i].done);
	o->n_ent[d] = 0;
}

void tlp_order_reset(struct tlp_order *o)
{
	for (int d = 0; d < 2; d++)
		drop_entries(o, d);
	memset(o->req_in, 0, sizeof(o->req_in));
	memset(o->req_out, 0, sizeof(o->req_out));
}

void tlp_order_free(struct tlp_order *o)
{
	tlp_order_reset(o);
	for (int d = 0; d < 2; d++) {
		free(o->ent[d]);
		o->ent[d] = NULL;
		o->cap_ent[d] = 0;
	}
}

void tlp_order_enable(struct tlp_order *o, bool on)
{
	o->enabled = on;
}

void tlp_order_set_time(struct tlp_order *o, uint64_t now)
{
	o->now = now;
}

/* ---- header parsing ---- */

struct parsed {
	int cls;            /* enum tlp_order_cls, or -1: not followed */
	bool ro;
	uint32_t key;       /* requester ID << 16 | tag, + 1 */
	uint64_t lo, hi;    /* requests: the bytes they address */
	/* completions with data */
	uint32_t bc;        /* Byte Count */
	unsigned len_dw;
};

static unsigned first_set(unsigned be)
{
	for (unsigned i = 0; i < 4; i++)
		if (be & (1u << i))
			return i;
	return 4;
}

static unsigned last_set(unsigned be)
{
	for (int i = 3; i >= 0; i--)
		if (be & (1u << i))
			return (unsigned)i;
	return 0;
}

static void parse(const uint32_t hdr[4], struct parsed *p)
{
	unsigned fmt = hdr[0] >> 29 & 7, type = hdr[0] >> 24 & 0x1f;
	unsigned len_dw = hdr[0] & 0x3ff ? hdr[0] & 0x3ff : 1024;

	memset(p, 0, sizeof(*p));
	p->cls = -1;
	p->ro = hdr[0] >> 13 & 1;
	if (type == 0x00 && fmt <= 3) {   /* MRd (000, 001), MWr (010, 011): 2.2.7 */
		unsigned fbe = hdr[1] & 0xf, lbe = hdr[1] >> 4 & 0xf;
		uint64_t a = fmt & 1 ? (uint64_t)hdr[2] << 32 | (hdr[3] & ~3u) : hdr[2] & ~3u;

		if (!fbe)
			return;   /* zero-length: carries no byte */
		p->cls = fmt & 2 ? TLP_ORDER_P : TLP_ORDER_NP;
		p->key = (hdr[1] >> 8 & 0xffffffu) + 1;
		p->lo = a + first_set(fbe);
		p->hi = len_dw == 1 ? a + last_set(fbe) + 1 : a + 4 * (len_dw - 1) + last_set(lbe) + 1;
	} else if (type == 0x0a && fmt == 2) {   /* CplD: 2.2.9 */
		if (hdr[1] >> 13 & 7)
			return;   /* not Successful Completion: no data */
		p->cls = TLP_ORDER_CPL;
		p->key = (hdr[2] >> 8 & 0xffffffu) + 1;
		p->bc = hdr[1] & 0xfff ? hdr[1] & 0xfff : 4096;
		p->len_dw = len_dw;
	}
}

/* ---- requests seen at a side (for the completions' byte ranges) ---- */

static struct tlp_order_req *req_slot(struct tlp_order_req *t, uint32_t key)
{
	return &t[(key * 2654435761u) >> 24 & (TLP_ORDER_REQS - 1)];
}

static void req_note(struct tlp_order_req *t, const struct parsed *p)
{
	/* direct-mapped by key: a reused tag replaces its old request (2.2.6.2) */
	struct tlp_order_req *r = req_slot(t, p->key);

	r->key = p->key;
	r->start = p->lo;
	r->total = (uint32_t)(p->hi - p->lo);
}

/* The byte range a completion returns: the request's remaining byte count
 * (2.3.1.1) tells where it starts; its payload and the byte count where it ends. */
static bool cpl_range(struct tlp_order_req *t, struct parsed *p)
{
	struct tlp_order_req *r = req_slot(t, p->key);
	uint64_t first;
	uint32_t n;

	if (r->key != p->key || p->bc > r->total)
		return false;
	first = r->start + (r->total - p->bc);
	n = 4 * p->len_dw - (uint32_t)(first & 3);
	if (n > p->bc)
		n = p->bc;
	p->lo = first;
	p->hi = first + n;
	return true;
}

/* ---- TLPs inside the bridge ---- */

static void enter(struct tlp_order *o, int d, const struct parsed *p)
{
	struct tlp_order_ent *e;
	uint64_t n = p->hi - p->lo;

	if (o->n_ent[d] == o->cap_ent[d]) {
		unsigned cap = o->cap_ent[d] ? 2 * o->cap_ent[d] : 64;
		struct tlp_order_ent *ne = realloc(o->ent[d], cap * sizeof(*ne));

		if (!ne)
			return;
		o->ent[d] = ne;
		o->cap_ent[d] = cap;
	}
	e = &o->ent[d][o->n_ent[d]];
	e->done = calloc((size_t)(n + 7) / 8, 1);
	if (!e->done)
		return;
	e->seq = o->now;
	e->lo = p->lo;
	e->hi = p->hi;
	e->remain = (uint32_t)n;
	e->cls = (uint8_t)p->cls;
	e->ro = p->ro;
	o->n_ent[d]++;
}

static void compact(struct tlp_order *o, int d)
{
	unsigned j = 0;

	for (unsigned i = 0; i < o->n_ent[d]; i++) {
		if (!o->ent[d][i].remain) {
			free(o->ent[d][i].done);
			continue;
		}
		o->ent[d][j++] = o->ent[d][i];
	}
	o->n_ent[d] = j;
}

static void violation(struct tlp_order *o, const struct tlp_order_ent *pass, const struct tlp_order_ent *w,
		      int cls)
{
	char msg[256];

	o->violations++;
	o->count[cls]++;
	snprintf(msg, sizeof(msg),
		 "%s (bytes 0x%llx..0x%llx, entered at %llu) left before all of an earlier posted write "
		 "(bytes 0x%llx..0x%llx, entered at %llu, %u bytes still inside) (PCIe 2.4.1, table 2-40 %s)",
		 cls_name[cls], (unsigned long long)pass->lo, (unsigned long long)pass->hi - 1,
		 (unsigned long long)pass->seq, (unsigned long long)w->lo, (unsigned long long)w->hi - 1,
		 (unsigned long long)w->seq, w->remain, cls == TLP_ORDER_P ? "A2a" : cls == TLP_ORDER_NP ? "B2a" : "D2a");
	o->report(o->report_arg, o, msg);
}

/* A TLP of class cls left the bridge with the bytes [lo, hi) of the entering side:
 * take them from the oldest entries that still hold them (its sources), then
 * check that no posted write that entered before a source still has bytes inside. */
static void leave(struct tlp_order *o, int d, int cls, uint64_t lo, uint64_t hi)
{
	struct tlp_order_ent *es = o->ent[d];
	unsigned n = o->n_ent[d];
	unsigned src[64], n_src = 0;

	for (uint64_t b = lo; b < hi; b++) {
		unsigned i;

		for (i = 0; i < n; i++) {
			struct tlp_order_ent *e = &es[i];
			uint64_t k = b - e->lo;

			if (e->cls != cls || b < e->lo || b >= e->hi || e->done[k / 8] & (1u << (k % 8)))
				continue;
			e->done[k / 8] |= (uint8_t)(1u << (k % 8));
			e->remain--;
			if ((!n_src || src[n_src - 1] != i) && n_src < sizeof(src) / sizeof(src[0]))
				src[n_src++] = i;
			break;
		}
		if (i == n)
			o->unmatched++;
	}
	for (unsigned s = 0; s < n_src; s++) {
		const struct tlp_order_ent *e = &es[src[s]];

		if (cls != TLP_ORDER_NP && e->ro)
			continue;   /* Relaxed Ordering: A2b, D2b */
		for (unsigned i = 0; i < src[s]; i++)
			if (es[i].cls == TLP_ORDER_P && es[i].remain && es[i].seq < e->seq) {
				violation(o, e, &es[i], cls);
				break;
			}
	}
	compact(o, d);
}

void tlp_order_tlp(struct tlp_order *o, int side, enum tlp_order_dir dir, const uint32_t hdr[4],
		   unsigned payload_dw)
{
	struct parsed p;
	uint64_t in_addr;

	(void)payload_dw;   /* a payload that does not match Length is tlp_check's business */
	if (!o->enabled || side < 0 || side > 1)
		return;
	parse(hdr, &p);
	if (p.cls < 0)
		return;
	if (dir == TLP_ORDER_IN) {
		o->tlps_in++;
		if (p.cls == TLP_ORDER_NP)
			req_note(o->req_in[side], &p);
		if (p.cls == TLP_ORDER_CPL && !cpl_range(o->req_out[side], &p))
			return;   /* answers no request that left here */
		if (p.hi > p.lo && o->xlate(o->ctx, side, TLP_ORDER_IN, p.cls, p.lo, &in_addr))
			enter(o, side, &p);
		return;
	}
	o->tlps_out++;
	if (p.cls == TLP_ORDER_NP)
		req_note(o->req_out[side], &p);
	if (p.cls == TLP_ORDER_CPL && !cpl_range(o->req_in[side], &p))
		return;
	if (p.hi > p.lo && o->xlate(o->ctx, side, TLP_ORDER_OUT, p.cls, p.lo, &in_addr))
		leave(o, !side, p.cls, in_addr, in_addr + (p.hi - p.lo));
}

uint64_t tlp_order_pending(const struct tlp_order *o, int side)
{
	uint64_t n = 0;

	for (unsigned i = 0; side >= 0 && side < 2 && i < o->n_ent[side]; i++)
		n += o->ent[side][i].remain;
	return n;
}

uint64_t tlp_order_violations(const struct tlp_order *o)
{
	return o->violations;
}

void tlp_order_print(const struct tlp_order *o, FILE *f)
{
	fprintf(f, "tlp-order %s: %llu TLPs in, %llu out, %llu violations (%llu posted, %llu read, %llu completion "
		   "passing a posted write), %llu bytes out unmatched, %llu + %llu bytes inside\n",
		o->name, (unsigned long long)o->tlps_in, (unsigned long long)o->tlps_out,
		(unsigned long long)o->violations, (unsigned long long)o->count[TLP_ORDER_P],
		(unsigned long long)o->count[TLP_ORDER_NP], (unsigned long long)o->count[TLP_ORDER_CPL],
		(unsigned long long)o->unmatched, (unsigned long long)tlp_order_pending(o, 0),
		(unsigned long long)tlp_order_pending(o, 1));
}
