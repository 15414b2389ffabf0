// SPDX-License-Identifier: Apache-2.0
/* The TLP protocol checker on cosimd's host link: see check.h. */
#include "check.h"

#include <inttypes.h>

#include "trace.h"

/*
 * Every device behind cosimd has its PCI Express capability at 0x40
 * (rtl/pcie/pcie_cfg_t0.sv EXP_DW, rtl/lib/pcie_cfg_func.sv A_PCIE); Device Control is the low half of its dword 2 (PCIe 7.5.3.4).
 */
#define DEVCTL_REG 0x48

static bool report(void *arg, const struct tlp_check *c, enum tlp_rule rule, const uint32_t hdr[4],
		   const char *msg)
{
	const struct check *k = arg;

	if (c->violations < 100)
		logmsg("%sTLP CHECK %s: %s (PCIe %s): %s [hdr %08x %08x %08x %08x]", k->prefix, c->name,
		       tlp_rule_name(rule), tlp_rule_section(rule), msg, hdr[0], hdr[1], hdr[2], hdr[3]);
	return false;
}

void check_init(struct check *k, const char *prefix)
{
	/* until the guest reads Device Control: its reset value (MPS 128 B,
	 * MRRS 512 B, Extended Tag off); the guest (a root complex) uses 8-bit
	 * tags, which completers handle whatever their own setting (2.2.6.2),
	 * and has no read-size limit toward the device; the device is an
	 * endpoint, whose completions may be split only at 128-byte boundaries
	 * (2.3.1.1: the RCB of every completer but a root complex) */
	struct tlp_check_cfg down = {128, 4096, 64, true}, up = TLP_CHECK_CFG_DEFAULT;

	up.rcb = 128;

	snprintf(k->prefix, sizeof(k->prefix), "%s", prefix ? prefix : "");
	tlp_check_init(&k->to_dev, "host->dev", &down);
	tlp_check_init(&k->from_dev, "dev->host", &up);
	tlp_check_pair(&k->to_dev, &k->from_dev);
	tlp_check_set_report(&k->to_dev, report, k);
	tlp_check_set_report(&k->from_dev, report, k);
}

void check_to_dev(struct check *k, const uint32_t hdr[4], const uint32_t *payload,
		  unsigned payload_dw)
{
	tlp_check_tlp(&k->to_dev, hdr, payload, payload_dw);
}

void check_from_dev(struct check *k, const uint32_t hdr[4], const uint32_t *payload,
		    unsigned payload_dw)
{
	tlp_check_tlp(&k->from_dev, hdr, payload, payload_dw);
}

void check_cfg(struct check *k, unsigned reg, uint8_t be, uint32_t value)
{
	if (reg != DEVCTL_REG || (be & 3) != 3)
		return;
	unsigned mps = 128u << ((value >> 5) & 7), mrrs = 128u << ((value >> 12) & 7);
	struct tlp_check_cfg up = {mps, mrrs, k->from_dev.cfg.rcb, (value >> 8) & 1};
	struct tlp_check_cfg down = k->to_dev.cfg;

	down.mps = mps;
	if (up.mps != k->from_dev.cfg.mps || up.mrrs != k->from_dev.cfg.mrrs ||
	    up.ext_tag != k->from_dev.cfg.ext_tag)
		logmsg("%stlp-check: Device Control 0x%04x: MPS %u B, MRRS %u B, Extended Tag %s",
		       k->prefix, value & 0xffff, mps, mrrs, up.ext_tag ? "on" : "off");
	tlp_check_set_cfg(&k->from_dev, &up);
	tlp_check_set_cfg(&k->to_dev, &down);
}

void check_give_up(struct check *k, uint16_t requester_id, uint8_t tag)
{
	tlp_check_forget(&k->to_dev, requester_id, tag);
}

void check_reset(struct check *k)
{
	tlp_check_reset(&k->to_dev);
	tlp_check_reset(&k->from_dev);
}

uint64_t check_violations(const struct check *k)
{
	return tlp_check_violations(&k->to_dev) + tlp_check_violations(&k->from_dev);
}

uint64_t check_tlps(const struct check *k)
{
	return k->to_dev.tlps + k->from_dev.tlps;
}

void check_print(const struct check *k, FILE *f, const char *label)
{
	if (label)
		fprintf(f, "cosimd tlp-check (%s): %" PRIu64 " TLPs checked, %" PRIu64 " violations\n",
			label, check_tlps(k), check_violations(k));
	else
		fprintf(f, "cosimd tlp-check: %" PRIu64 " TLPs checked, %" PRIu64 " violations\n",
			check_tlps(k), check_violations(k));
	tlp_check_print(&k->to_dev, f);
	tlp_check_print(&k->from_dev, f);
}
