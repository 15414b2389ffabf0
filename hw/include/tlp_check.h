/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tlp_check.h: an independent, strict PCIe TLP protocol checker (docs/tlp-check.md).
 *
 * Written from the PCI Express Base Specification (4.0/5.0 section numbers in
 * the comments of tlp_check.c), not from our codec (tlp.h/tlp.c): it parses
 * the raw header dwords itself.  One checker watches one direction of one
 * link; the checker of the opposite direction is its peer, so completions
 * seen here are matched against the non-posted requests that the peer saw.
 *
 *   struct tlp_check up, dn;
 *   tlp_check_init(&dn, "host->nic", &cfg_dn);     receiver's MPS, requester's MRRS, ...
 *   tlp_check_init(&up, "nic->host", &cfg_up);
 *   tlp_check_pair(&dn, &up);
 *   tlp_check_tlp(&up, hdr, payload, payload_dw);  every TLP, in wire order
 *   tlp_check_violations(&up), tlp_check_print(&up, stderr)
 *
 * Each violation calls the report hook (default: one line on stderr naming
 * the checker, the rule and its section); the hook can waive it (a known,
 * tracked violation), which counts it as waived instead.
 *
 * Plain C11 with <stdio.h>: for the testbenches (C++) and cosimd (C); not for
 * kernel code.
 */
#ifndef HW_TLP_CHECK_H
#define HW_TLP_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rules, one per kind of violation. */
enum tlp_rule {
	TLP_R_FMT_TYPE,       /* 2.2.1: reserved or undefined Fmt/Type */
	TLP_R_LEN_PAYLOAD,    /* 2.2.2: payload dwords differ from Length; data on a TLP without data */
	TLP_R_MPS,            /* 2.2.2: payload above the receiver's Max_Payload_Size */
	TLP_R_MRRS,           /* 2.2.2 / 7.5.3.4: read request above Max_Read_Request_Size */
	TLP_R_ADDR_FMT,       /* 2.2.4.1: 64-bit format for an address below 4 GiB */
	TLP_R_BE_1DW,         /* 2.2.5: Length 1 with a nonzero Last DW BE */
	TLP_R_BE_MULTI,       /* 2.2.5: Length > 1 with a zero First or Last DW BE */
	TLP_R_BE_CONTIG,      /* 2.2.5: non-contiguous byte enables where not permitted */
	TLP_R_4K,             /* 2.2.7: memory request crosses a 4 KiB boundary */
	TLP_R_CFG_IO,         /* 2.2.7, 2.2.8 (IO/Cfg request rules): Length 1, Last BE 0, TC 0, Attr 0 */
	TLP_R_TAG_EXT,        /* 2.2.6.2: 8-bit tag without Extended Tag Field Enable */
	TLP_R_TAG_REUSE,      /* 2.2.6.2: tag of an outstanding non-posted request reused */
	TLP_R_CPL_UNEXPECTED, /* 2.3.2: completion matching no outstanding request */
	TLP_R_CPL_STATUS,     /* 2.2.9: reserved status; data with a status other than SC; wrong Cpl/CplD */
	TLP_R_CPL_ATTR,       /* 2.2.9: completion TC/Attr differ from the request's */
	TLP_R_CPL_BC,         /* 2.2.9: byte count not the remaining byte count (4 for Cfg/IO) */
	TLP_R_CPL_LA,         /* 2.2.9: lower address not the address of the first returned byte */
	TLP_R_CPL_LEN,        /* 2.3.1.1: completion Length does not fit the request / RCB split */
	TLP_R_COUNT
};

/* What the checker is told about its direction of the link. */
struct tlp_check_cfg {
	unsigned mps;     /* bytes: Max_Payload_Size of the receiver (payload of MWr, CplD, MsgD) */
	unsigned mrrs;    /* bytes: Max_Read_Request_Size of the requesters sending here */
	unsigned rcb;     /* bytes, 64 or 128: Read Completion Boundary of the completers sending here */
	bool ext_tag;     /* Extended Tag Field Enable of the requesters sending here (8-bit tags) */
};

/* The defaults after reset (7.5.3.4 Device Control: MPS 128 B, MRRS 512 B;
 * Extended Tag off; RCB 64 B, 7.5.3.7 Link Control). */
#define TLP_CHECK_CFG_DEFAULT { 128, 512, 64, false }

/* Outstanding non-posted request, by (requester ID, tag). */
struct tlp_check_req {
	uint16_t rid;
	uint16_t tag;
	uint8_t kind;       /* internal: read / write (Cfg, IO) / other */
	uint8_t tc, attr;
	uint64_t next_addr; /* memory reads: address of the next byte to be returned */
	uint32_t remain;    /* memory reads: bytes still to be returned */
	uint64_t end_addr;  /* memory reads: one past the last byte of the dword range */
	bool zero_len;      /* a zero-length read (Length 1, First BE 0) */
};

#define TLP_CHECK_MAX_OUT 1024

struct tlp_check;
/* Called for each violation; return true to waive it (a known violation). */
typedef bool (*tlp_check_report_fn)(void *arg, const struct tlp_check *c, enum tlp_rule rule,
				    const uint32_t hdr[4], const char *msg);

struct tlp_check {
	char name[48];
	struct tlp_check_cfg cfg;
	struct tlp_check *peer;  /* the opposite direction of the link */
	tlp_check_report_fn report;
	void *report_arg;
	/* non-posted requests sent in this direction, not yet fully completed */
	struct tlp_check_req out[TLP_CHECK_MAX_OUT];
	unsigned n_out;
	bool table_full_noted;
	uint64_t tlps;           /* TLPs checked */
	uint64_t violations;     /* not waived */
	uint64_t waived;
	uint64_t count[TLP_R_COUNT];
};

/* Name and spec section of a rule, e.g. "4 KiB crossing", "2.2.7". */
const char *tlp_rule_name(enum tlp_rule r);
const char *tlp_rule_section(enum tlp_rule r);

void tlp_check_init(struct tlp_check *c, const char *name, const struct tlp_check_cfg *cfg);
/* Link the two directions of a link (completions are matched across). */
void tlp_check_pair(struct tlp_check *a, struct tlp_check *b);
/* Change the configuration (e.g. after the testbench programmed Device Control). */
void tlp_check_set_cfg(struct tlp_check *c, const struct tlp_check_cfg *cfg);
void tlp_check_set_report(struct tlp_check *c, tlp_check_report_fn fn, void *arg);
/* Forget all outstanding requests (a reset of the link partners). */
void tlp_check_reset(struct tlp_check *c);
/* Forget one request sent in this direction: its requester gave up (completion
 * timeout, 2.8); the tag may be reused and a late completion is unexpected. */
void tlp_check_forget(struct tlp_check *c, uint16_t requester_id, uint16_t tag);

/* Check one TLP seen in this direction: hdr[0..3] (dword 3 ignored for a
 * 3-DW header) and the number of payload dwords it carried (the payload's
 * contents are not read; payload may be NULL).  Returns the number of
 * violations found in it (waived ones included). */
unsigned tlp_check_tlp(struct tlp_check *c, const uint32_t hdr[4], const uint32_t *payload,
		       unsigned payload_dw);

uint64_t tlp_check_violations(const struct tlp_check *c);
/* Non-posted requests sent in this direction still waiting for completions. */
unsigned tlp_check_outstanding(const struct tlp_check *c);
/* One summary line "tlp-check <name>: N TLPs, V violations, W waived, O outstanding"
 * and one line per rule that fired. */
void tlp_check_print(const struct tlp_check *c, FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* HW_TLP_CHECK_H */
