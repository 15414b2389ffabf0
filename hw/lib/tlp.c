// SPDX-License-Identifier: Apache-2.0
/* PCIe TLP header encode/decode for the NIC's TLP stream (see tlp.h). */
#include "tlp.h"

#include <stdio.h>
#include <string.h>

#define FMT_3DW 0u
#define FMT_4DW 1u
#define FMT_3DW_D 2u
#define FMT_4DW_D 3u

#define TYPE_MEM 0x00u
#define TYPE_CFG0 0x04u
#define TYPE_CFG1 0x05u
#define TYPE_CPL 0x0au

static uint32_t dw0(unsigned fmt, unsigned type, unsigned len_dw)
{
	return (fmt << 29) | (type << 24) | (len_dw & 0x3ffu);
}

unsigned tlp_encode_hdr(const struct tlp *t, uint32_t hdr[4])
{
	bool wide = t->addr > 0xffffffffull;
	unsigned len = t->len_dw;

	memset(hdr, 0, 4 * sizeof(hdr[0]));
	switch (t->kind) {
	case TLP_MRD:
	case TLP_MWR: {
		bool wr = t->kind == TLP_MWR;
		unsigned fmt = (wr ? 2u : 0u) | (wide ? 1u : 0u);

		hdr[0] = dw0(fmt, TYPE_MEM, len);
		hdr[1] = ((uint32_t)t->requester_id << 16) | ((uint32_t)t->tag << 8) |
			 ((uint32_t)(t->last_be & 0xf) << 4) | (t->first_be & 0xf);
		if (wide) {
			hdr[2] = (uint32_t)(t->addr >> 32);
			hdr[3] = (uint32_t)t->addr & ~3u;
			return 4;
		}
		hdr[2] = (uint32_t)t->addr & ~3u;
		return 3;
	}
	case TLP_CFGRD0:
	case TLP_CFGWR0:
	case TLP_CFGRD1:
	case TLP_CFGWR1: {
		bool wr = t->kind == TLP_CFGWR0 || t->kind == TLP_CFGWR1;
		bool t1 = t->kind == TLP_CFGRD1 || t->kind == TLP_CFGWR1;

		hdr[0] = dw0(wr ? FMT_3DW_D : FMT_3DW, t1 ? TYPE_CFG1 : TYPE_CFG0, 1);
		hdr[1] = ((uint32_t)t->requester_id << 16) | ((uint32_t)t->tag << 8) |
			 (t->first_be & 0xf);
		hdr[2] = ((uint32_t)t->target_id << 16) | (t->reg & 0xffcu);
		return 3;
	}
	case TLP_CPL:
	case TLP_CPLD:
		hdr[0] = dw0(t->kind == TLP_CPLD ? FMT_3DW_D : FMT_3DW, TYPE_CPL, len);
		hdr[1] = ((uint32_t)t->completer_id << 16) | ((uint32_t)(t->status & 7) << 13) |
			 (t->byte_count & 0xfffu);
		hdr[2] = ((uint32_t)t->requester_id << 16) | ((uint32_t)t->tag << 8) |
			 (t->lower_addr & 0x7fu);
		return 3;
	default:
		return 0;
	}
}

int tlp_decode(const uint32_t hdr[4], const uint32_t *payload, unsigned payload_dw,
	       struct tlp *t)
{
	unsigned fmt = hdr[0] >> 29, type = (hdr[0] >> 24) & 0x1f;
	bool data = fmt & 2, wide = fmt & 1;

	memset(t, 0, sizeof(*t));
	t->hdr_dw = wide ? 4 : 3;
	t->len_dw = hdr[0] & 0x3ff;
	if (t->len_dw == 0)
		t->len_dw = 1024;
	if (fmt > FMT_4DW_D)
		return -1;
	switch (type) {
	case TYPE_MEM:
		t->kind = data ? TLP_MWR : TLP_MRD;
		t->requester_id = hdr[1] >> 16;
		t->tag = (hdr[1] >> 8) & 0xff;
		t->last_be = (hdr[1] >> 4) & 0xf;
		t->first_be = hdr[1] & 0xf;
		t->addr = wide ? ((uint64_t)hdr[2] << 32) | (hdr[3] & ~3u) : (hdr[2] & ~3u);
		break;
	case TYPE_CFG0:
	case TYPE_CFG1:
		if (wide)
			return -1;
		t->kind = type == TYPE_CFG0 ? (data ? TLP_CFGWR0 : TLP_CFGRD0)
					    : (data ? TLP_CFGWR1 : TLP_CFGRD1);
		t->requester_id = hdr[1] >> 16;
		t->tag = (hdr[1] >> 8) & 0xff;
		t->first_be = hdr[1] & 0xf;
		t->target_id = hdr[2] >> 16;
		t->reg = hdr[2] & 0xffc;
		break;
	case TYPE_CPL:
		if (wide)
			return -1;
		t->kind = data ? TLP_CPLD : TLP_CPL;
		t->completer_id = hdr[1] >> 16;
		t->status = (hdr[1] >> 13) & 7;
		t->byte_count = hdr[1] & 0xfff;
		t->requester_id = hdr[2] >> 16;
		t->tag = (hdr[2] >> 8) & 0xff;
		t->lower_addr = hdr[2] & 0x7f;
		break;
	default:
		t->kind = TLP_OTHER;
		break;
	}
	if (data) {
		if (payload_dw > TLP_MAX_PAYLOAD_DW)
			return -1;
		t->payload_dw = payload_dw;
		if (payload_dw)
			memcpy(t->payload, payload, payload_dw * sizeof(uint32_t));
	}
	return 0;
}

void tlp_mrd(struct tlp *t, uint64_t addr, unsigned len_dw, uint8_t first_be,
	     uint8_t last_be, uint16_t req_id, uint8_t tag)
{
	memset(t, 0, sizeof(*t));
	t->kind = TLP_MRD;
	t->addr = addr & ~3ull;
	t->len_dw = len_dw;
	t->first_be = first_be;
	t->last_be = last_be;
	t->requester_id = req_id;
	t->tag = tag;
	t->hdr_dw = addr > 0xffffffffull ? 4 : 3;
}

void tlp_mwr(struct tlp *t, uint64_t addr, const uint32_t *data, unsigned len_dw,
	     uint8_t first_be, uint8_t last_be, uint16_t req_id)
{
	tlp_mrd(t, addr, len_dw, first_be, last_be, req_id, 0);
	t->kind = TLP_MWR;
	t->payload_dw = len_dw;
	memcpy(t->payload, data, len_dw * sizeof(uint32_t));
}

void tlp_cfg(struct tlp *t, bool write, int type1, uint16_t target_id, uint16_t reg,
	     uint8_t first_be, uint32_t data, uint16_t req_id, uint8_t tag)
{
	memset(t, 0, sizeof(*t));
	t->kind = type1 ? (write ? TLP_CFGWR1 : TLP_CFGRD1) : (write ? TLP_CFGWR0 : TLP_CFGRD0);
	t->hdr_dw = 3;
	t->len_dw = 1;
	t->target_id = target_id;
	t->reg = reg & 0xffc;
	t->first_be = first_be;
	t->requester_id = req_id;
	t->tag = tag;
	if (write) {
		t->payload_dw = 1;
		t->payload[0] = data;
	}
}

void tlp_cpl(struct tlp *t, uint16_t completer_id, uint8_t status, uint16_t req_id,
	     uint8_t tag, uint8_t lower_addr, uint16_t byte_count,
	     const uint32_t *data, unsigned len_dw)
{
	memset(t, 0, sizeof(*t));
	t->kind = data ? TLP_CPLD : TLP_CPL;
	t->hdr_dw = 3;
	t->completer_id = completer_id;
	t->status = status;
	t->requester_id = req_id;
	t->tag = tag;
	t->lower_addr = lower_addr & 0x7f;
	t->byte_count = byte_count & 0xfff;
	if (data) {
		t->len_dw = len_dw;
		t->payload_dw = len_dw;
		memcpy(t->payload, data, len_dw * sizeof(uint32_t));
	}
}

void tlp_access_bes(uint64_t addr, unsigned size, uint64_t *dw_addr, unsigned *len_dw,
		    uint8_t *first_be, uint8_t *last_be)
{
	unsigned off = addr & 3;
	unsigned end = off + size; /* bytes from the first dword's start */
	uint32_t mask;

	*dw_addr = addr & ~3ull;
	*len_dw = (end + 3) / 4;
	if (*len_dw == 1) {
		*first_be = (uint8_t)(((1u << size) - 1) << off);
		*last_be = 0;
		return;
	}
	*first_be = (uint8_t)(0xf << off) & 0xf;
	mask = end & 3 ? (1u << (end & 3)) - 1 : 0xf;
	*last_be = (uint8_t)mask;
}

int tlp_format(const struct tlp *t, char *buf, unsigned len)
{
	static const char *const names[] = {
		[TLP_MRD] = "MRd", [TLP_MWR] = "MWr", [TLP_CFGRD0] = "CfgRd0",
		[TLP_CFGWR0] = "CfgWr0", [TLP_CFGRD1] = "CfgRd1", [TLP_CFGWR1] = "CfgWr1",
		[TLP_CPL] = "Cpl", [TLP_CPLD] = "CplD", [TLP_OTHER] = "TLP?",
	};
	const char *n = names[t->kind];

	switch (t->kind) {
	case TLP_MRD:
	case TLP_MWR:
		return snprintf(buf, len, "%s addr=0x%llx len=%u be=%x/%x req=%04x tag=%u", n,
				(unsigned long long)t->addr, t->len_dw, t->first_be, t->last_be,
				t->requester_id, t->tag);
	case TLP_CFGRD0:
	case TLP_CFGWR0:
	case TLP_CFGRD1:
	case TLP_CFGWR1:
		return snprintf(buf, len, "%s id=%02x:%02x.%x reg=0x%03x be=%x req=%04x tag=%u%s",
				n, t->target_id >> 8, (t->target_id >> 3) & 0x1f,
				t->target_id & 7, t->reg, t->first_be, t->requester_id, t->tag,
				t->payload_dw ? "" : "");
	case TLP_CPL:
	case TLP_CPLD:
		return snprintf(buf, len, "%s cpl=%04x st=%u bc=%u req=%04x tag=%u la=0x%02x len=%u",
				n, t->completer_id, t->status, t->byte_count, t->requester_id,
				t->tag, t->lower_addr, t->len_dw);
	default:
		return snprintf(buf, len, "%s", n);
	}
}
