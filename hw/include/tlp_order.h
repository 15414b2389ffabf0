/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tlp_order.h: ordering between the TLP classes across a bridge (PCIe Base
 * Specification 2.4.1, table 2-40), judged from outside (docs/tlp-check.md,
 * "Ordering across a bridge").  One checker watches the two boundaries of one
 * bridge (side 0 and side 1, e.g. an NAA's device link and the host NIC's host
 * link of an SMFU path): every TLP that enters the bridge at a side and every
 * TLP that leaves it at a side.  The bridge may translate addresses, tags and
 * requester IDs and may split TLPs; the checker pairs what leaves with what
 * entered by the bytes they carry (posted writes and read requests: the
 * address range; completions: the address range of the request they answer),
 * through a translation callback the testbench provides (its interval table).
 * Then, for each TLP that leaves, every posted request that entered before
 * the TLP it came from must have left completely:
 *   posted must not pass posted              (A2a; allowed with Relaxed Ordering, A2b)
 *   read request must not pass posted        (B2a)
 *   completion must not pass posted          (D2a; allowed with Relaxed Ordering, D2b)
 * ("entered before": the header was taken in an earlier cycle; TLPs taken in
 * the same cycle on two ports of one side are unordered.)  Byte accounting also
 * shows what entered and never left (tlp_order_pending) and what left without
 * having entered (unmatched bytes).  Not checked: messages, Cfg/IO requests,
 * completions without data, the rules that say a TLP *must be able* to pass
 * (A3, A4, D3, D4: progress, which the block tests check).
 *   struct tlp_order o;
 *   tlp_order_init(&o, "smfu pair", xlate, ctx);
 *   tlp_order_set_time(&o, cycle);                    once per cycle
 *   tlp_order_tlp(&o, side, TLP_ORDER_IN, hdr, n);    a TLP entering at side (header taken)
 *   tlp_order_tlp(&o, side, TLP_ORDER_OUT, hdr, n);   a TLP leaving at side
 * Independent of our codec: parses the raw header dwords itself.  C11.
 */
#ifndef HW_TLP_ORDER_H
#define HW_TLP_ORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum tlp_order_cls { TLP_ORDER_P, TLP_ORDER_NP, TLP_ORDER_CPL, TLP_ORDER_NCLS };
enum tlp_order_dir { TLP_ORDER_IN, TLP_ORDER_OUT };

/*
 * The bridge's address translation, as the test programmed it.
 * dir IN:  a TLP of class cls enters at side with the address addr (completions:
 *          an address of the request they answer, which left at that side).
 *          Return true if the bridge forwards it to the other side; false if it
 *          consumes or answers it itself (an MSI turned into a notification, a
 *          request outside every window).
 * dir OUT: a TLP leaves at side with the address addr (completions: an address
 *          of the request they answer, which entered at that side).  Store the
 *          address its bytes had when they entered at the other side in *in_addr
 *          and return true; false if the bridge made it itself (a notification
 *          entry, its own register read).
 * The translation must be linear within one TLP (a TLP does not cross 4 KiB and
 * translations are 4 KiB aligned).
 */
typedef bool (*tlp_order_xlate_fn)(void *ctx, int side, enum tlp_order_dir dir, enum tlp_order_cls cls,
				   uint64_t addr, uint64_t *in_addr);

struct tlp_order;
/* Called for each violation (default: one line on stderr). */
typedef void (*tlp_order_report_fn)(void *arg, const struct tlp_order *o, const char *msg);

/* A request seen at a side, by (requester ID, tag): what its completions cover. */
struct tlp_order_req {
	uint32_t key;      /* requester ID << 16 | tag, +1 (0: free) */
	uint64_t start;    /* address of its first byte */
	uint32_t total;    /* bytes */
};
#define TLP_ORDER_REQS 256

/* A TLP that entered and has bytes not yet seen leaving. */
struct tlp_order_ent {
	uint64_t seq;      /* time its header was taken */
	uint64_t lo, hi;   /* byte range, in the entering side's space */
	uint32_t remain;   /* bytes not yet seen leaving */
	uint8_t cls;
	bool ro;           /* Relaxed Ordering attribute */
	uint8_t *done;     /* one bit a byte */
};

struct tlp_order {
	char name[48];
	tlp_order_xlate_fn xlate;
	void *ctx;
	tlp_order_report_fn report;
	void *report_arg;
	uint64_t now;
	bool enabled;
	/* per side: requests that entered there / left there (completions' ranges) */
	struct tlp_order_req req_in[2][TLP_ORDER_REQS], req_out[2][TLP_ORDER_REQS];
	/* per direction (the side entered at): TLPs with bytes still inside, in order */
	struct tlp_order_ent *ent[2];
	unsigned n_ent[2], cap_ent[2];
	uint64_t tlps_in, tlps_out;   /* TLPs followed */
	uint64_t violations;
	uint64_t unmatched;           /* bytes that left without having entered */
	uint64_t count[TLP_ORDER_NCLS];   /* violations by the class of the TLP that passed */
};

void tlp_order_init(struct tlp_order *o, const char *name, tlp_order_xlate_fn xlate, void *ctx);
void tlp_order_free(struct tlp_order *o);
void tlp_order_set_report(struct tlp_order *o, tlp_order_report_fn fn, void *arg);
/* Forget everything in flight (a reset; the start of a test). Counters stay. */
void tlp_order_reset(struct tlp_order *o);
/* Off: TLPs are ignored (tests that drop TLPs on purpose: timeouts, poison). */
void tlp_order_enable(struct tlp_order *o, bool on);
void tlp_order_set_time(struct tlp_order *o, uint64_t now);
/* One TLP at a side: hdr[0..3], payload dwords (contents not read). */
void tlp_order_tlp(struct tlp_order *o, int side, enum tlp_order_dir dir, const uint32_t hdr[4],
		   unsigned payload_dw);
/* Bytes that entered at side and have not left (0 after a quiet end). */
uint64_t tlp_order_pending(const struct tlp_order *o, int side);
uint64_t tlp_order_violations(const struct tlp_order *o);
void tlp_order_print(const struct tlp_order *o, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
