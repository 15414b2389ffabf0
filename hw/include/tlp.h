/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PCIe TLP headers as carried on the NIC's TLP stream (docs/tlp-interface.md).
 *
 * Header dwords use the PCIe specification's bit numbering (dword 0: Fmt 31:29,
 * Type 28:24, Length 9:0); payload dwords are little-endian host order.
 * Used by the co-simulation bridge and by the Verilator testbenches, so the
 * format is written down once in C.
 */
#ifndef SIM_LIB_TLP_H
#define SIM_LIB_TLP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TLP_MAX_PAYLOAD_DW 64 /* 256-byte max payload */

enum tlp_kind {
	TLP_MRD,
	TLP_MWR,
	TLP_CFGRD0,
	TLP_CFGWR0,
	TLP_CFGRD1,
	TLP_CFGWR1,
	TLP_CPL,
	TLP_CPLD,
	TLP_OTHER,
};

enum tlp_cpl_status {
	TLP_CPL_SC = 0,
	TLP_CPL_UR = 1,
	TLP_CPL_CRS = 2,
	TLP_CPL_CA = 4,
};

/* A decoded TLP. Unused fields are zero. */
struct tlp {
	enum tlp_kind kind;
	unsigned hdr_dw;        /* 3 or 4 */
	unsigned len_dw;        /* Length field (payload dwords; for reads: requested) */
	uint16_t requester_id;
	uint8_t tag;
	uint8_t first_be, last_be;
	uint64_t addr;          /* memory requests: byte address (dword aligned) */
	uint16_t target_id;     /* config requests: bus/dev/fn */
	uint16_t reg;           /* config requests: register byte offset (dword aligned) */
	uint16_t completer_id;  /* completions */
	uint8_t status;         /* completions */
	uint16_t byte_count;    /* completions: remaining byte count (12 bit, 0 = 4096) */
	uint8_t lower_addr;     /* completions: 7 bit */
	unsigned payload_dw;    /* dwords in payload[] */
	uint32_t payload[TLP_MAX_PAYLOAD_DW];
};

/* Encode a TLP header into hdr[4] (dword 3 zero for 3-DW headers). Returns hdr_dw. */
unsigned tlp_encode_hdr(const struct tlp *t, uint32_t hdr[4]);
/* Decode hdr[4] (and payload) into *t. Returns 0, or -1 for a malformed header. */
int tlp_decode(const uint32_t hdr[4], const uint32_t *payload, unsigned payload_dw,
	       struct tlp *t);

/* Convenience builders. */
void tlp_mrd(struct tlp *t, uint64_t addr, unsigned len_dw, uint8_t first_be,
	     uint8_t last_be, uint16_t req_id, uint8_t tag);
void tlp_mwr(struct tlp *t, uint64_t addr, const uint32_t *data, unsigned len_dw,
	     uint8_t first_be, uint8_t last_be, uint16_t req_id);
void tlp_cfg(struct tlp *t, bool write, int type1, uint16_t target_id, uint16_t reg,
	     uint8_t first_be, uint32_t data, uint16_t req_id, uint8_t tag);
void tlp_cpl(struct tlp *t, uint16_t completer_id, uint8_t status, uint16_t req_id,
	     uint8_t tag, uint8_t lower_addr, uint16_t byte_count,
	     const uint32_t *data, unsigned len_dw);

/* Byte enables for an access of `size` bytes at byte address `addr` (size 1..8,
 * naturally aligned). Gives the dword-aligned address, dword count and BEs. */
void tlp_access_bes(uint64_t addr, unsigned size, uint64_t *dw_addr, unsigned *len_dw,
		    uint8_t *first_be, uint8_t *last_be);

/* Human-readable one-line description, for traces. */
int tlp_format(const struct tlp *t, char *buf, unsigned len);

#ifdef __cplusplus
}
#endif
#endif /* SIM_LIB_TLP_H */
