// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: one configuration request on the wire. A request for a
 * remote PCIe hierarchy is one RRA request with op TLP: the NIC sends the
 * TLP header and payload to the root-port NIC, which injects it at its PCIe
 * side; that NIC's backdoor RX filter (tag EXTOLL_CFG_TAG, claimed when the
 * tunnel is opened, tunnel.c) sends the completion back into our
 * completion record.
 *
 * Header dwords follow docs/tlp-interface.md: each is the big-endian value
 * of its four bytes (Fmt in dword 0 bits 31:29); payload dwords are
 * little-endian.
 */
#include <linux/bitfield.h>

#include "extoll.h"

/* Dword 0 */
#define TLP_DW0_FMT		GENMASK(31, 29)
#define TLP_DW0_TYPE		GENMASK(28, 24)
#define TLP_DW0_LEN		GENMASK(9, 0)
/* Dword 1 of a request */
#define TLP_DW1_REQID		GENMASK(31, 16)
#define TLP_DW1_TAG		GENMASK(15, 8)
#define TLP_DW1_LBE		GENMASK(7, 4)
#define TLP_DW1_FBE		GENMASK(3, 0)
/* Dword 2 of a configuration request */
#define TLP_DW2_BUS		GENMASK(31, 24)
#define TLP_DW2_DEVFN		GENMASK(23, 16)
#define TLP_DW2_REG		GENMASK(11, 2)	/* extended register and register number */

#define TLP_FMT_3DW_NODATA	0x0
#define TLP_FMT_3DW_DATA	0x2
#define TLP_TYPE_CFG0		0x04
#define TLP_TYPE_CFG1		0x05

/* Configuration space of a PCIe function: 4 KiB. */
#define EXTOLL_CFG_SPACE	4096

static bool extoll_cfg_req_ok(const struct extoll_cfg_req *req)
{
	if (req->size != 1 && req->size != 2 && req->size != 4)
		return false;
	return req->where < EXTOLL_CFG_SPACE && IS_ALIGNED(req->where, req->size);
}

/* Build the 3-dword header of a CfgRd0/CfgWr0/CfgRd1/CfgWr1. */
static void extoll_cfg_build(const struct extoll_cfg_req *req,
			     struct extoll_rra_op *op)
{
	unsigned int shift = (req->where & 3) * 8;
	u8 be = GENMASK(req->size - 1, 0) << (req->where & 3);
	u32 dw0, dw1, dw2;

	dw0 = FIELD_PREP(TLP_DW0_FMT, req->write ? TLP_FMT_3DW_DATA :
						   TLP_FMT_3DW_NODATA) |
	      FIELD_PREP(TLP_DW0_TYPE, req->bus ? TLP_TYPE_CFG1 : TLP_TYPE_CFG0) |
	      FIELD_PREP(TLP_DW0_LEN, 1);
	/* Requester: the root port itself, 00:00.0. */
	dw1 = FIELD_PREP(TLP_DW1_REQID, 0) |
	      FIELD_PREP(TLP_DW1_TAG, EXTOLL_CFG_TAG) |
	      FIELD_PREP(TLP_DW1_LBE, 0) |
	      FIELD_PREP(TLP_DW1_FBE, be);
	dw2 = FIELD_PREP(TLP_DW2_BUS, req->bus) |
	      FIELD_PREP(TLP_DW2_DEVFN, req->devfn) |
	      FIELD_PREP(TLP_DW2_REG, req->where >> 2);

	op->op = EXTOLL_RRA_OP_TLP;
	op->hdr0 = dw0 | (u64)dw1 << 32;
	op->hdr1 = dw2;
	if (req->write) {
		u32 mask = req->size == 4 ? U32_MAX : GENMASK(req->size * 8 - 1, 0);

		op->wdata = (u64)((req->val & mask) << shift);
		op->tlp_len = 1;
	}
}

/**
 * extoll_cfg_tlp() - one configuration request through the config tunnel
 * @nic: the local NIC
 * @node: the root-port NIC whose hierarchy is addressed
 * @req: the request; val and cpl_status are filled in
 *
 * Used by the tunnel (tunnel.c) and the raw EXTOLL_IOC_CFG ioctl; the
 * completion only comes back from a node whose tunnel is open.
 *
 * Context: any, never sleeps (bounded by extoll.rra_timeout_us).
 * Return: 0 on a successful completion; -EIO (UR, CA), -EAGAIN (CRS),
 * -ETIMEDOUT, -EREMOTEIO (the node has no backdoor), -EINVAL, -EOPNOTSUPP,
 * -ENODEV. On error a read returns all-ones.
 */
int extoll_cfg_tlp(struct extoll_dev *nic, u16 node, struct extoll_cfg_req *req)
{
	struct extoll_rra_op op = { .node = node };
	int ret;

	req->cpl_status = EXTOLL_CPL_SC;
	if (!nic || !extoll_cfg_req_ok(req)) {
		if (!req->write)
			req->val = U32_MAX;
		return -EINVAL;
	}

	extoll_cfg_build(req, &op);
	ret = extoll_rra_exec(nic, &op);
	if (!ret) {
		req->cpl_status = op.cpl_status;
		switch (op.status) {
		case EXTOLL_CMP_OK:
			break;
		case EXTOLL_CMP_CPL_ERR:
			ret = op.cpl_status == EXTOLL_CPL_CRS ? -EAGAIN : -EIO;
			break;
		default:
			ret = -EREMOTEIO;
			break;
		}
	}

	if (!req->write) {
		if (ret) {
			req->val = U32_MAX;
		} else {
			u32 v = (u32)(op.rdata >> ((req->where & 3) * 8));

			req->val = req->size == 4 ? v :
				   v & GENMASK(req->size * 8 - 1, 0);
		}
	}
	return ret;
}
