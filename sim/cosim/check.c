// SPDX-License-Identifier: Apache-2.0
/* The TLP protocol checker on cosimd's host link: see check.h. */
#include "check.h"

#include <inttypes.h>

#include "tlp_check.h"
#include "trace.h"

/*
 * Every device behind cosimd has its PCI Express capability at 0x40
 * (rtl/pcie/pcie_cfg_t0.sv EXP_DW, rtl/lib/pcie_cfg_func.sv A_PCIE); Device Control is the low half of its dword 2 (PCIe 7.5.3.4).
 */
#define DEVCTL_REG 0x48

static struct tlp_check to_dev, from_dev;

static bool report(void *arg, const struct tlp_check *c, enum tlp_rule rule, const uint32_t hdr[4],
		   const char *msg)
{
	(void)arg;
	if (c->violations < 100)
		logmsg("TLP CHECK %s: %s (PCIe %s): %s [hdr %08x %08x %08x %08x]", c->name,
		       tlp_rule_name(rule), tlp_rule_section(rule), msg, hdr[0], hdr[1], hdr[2], hdr[3]);
	return false;
}

void check_init(void)
{
	/* until the guest reads Device Control: its reset value (MPS 128 B,
	 * MRRS 512 B, Extended Tag off); the guest (a root complex) uses 8-bit
	 * tags, which completers handle whatever their own setting (2.2.6.2),
	 * and has no read-size limit toward the device; the device is an
	 * endpoint, whose completions may be split only at 128-byte boundaries
	 * (2.3.1.1: the RCB of every completer but a root complex) */
	struct tlp_check_cfg down = {128, 4096, 64, true}, up = TLP_CHECK_CFG_DEFAULT;

	up.rcb = 128;

	tlp_check_init(&to_dev, "host->dev", &down);
	tlp_check_init(&from_dev, "dev->host", &up);
	tlp_check_pair(&to_dev, &from_dev);
	tlp_check_set_report(&to_dev, report, NULL);
	tlp_check_set_report(&from_dev, report, NULL);
}

void check_to_dev(const uint32_t hdr[4], const uint32_t *payload, unsigned payload_dw)
{
	tlp_check_tlp(&to_dev, hdr, payload, payload_dw);
}

void check_from_dev(const uint32_t hdr[4], const uint32_t *payload, unsigned payload_dw)
{
	tlp_check_tlp(&from_dev, hdr, payload, payload_dw);
}

void check_cfg(unsigned reg, uint8_t be, uint32_t value)
{
	if (reg != DEVCTL_REG || (be & 3) != 3)
		return;
	unsigned mps = 128u << ((value >> 5) & 7), mrrs = 128u << ((value >> 12) & 7);
	struct tlp_check_cfg up = {mps, mrrs, from_dev.cfg.rcb, (value >> 8) & 1};
	struct tlp_check_cfg down = to_dev.cfg;

	down.mps = mps;
	if (up.mps != from_dev.cfg.mps || up.mrrs != from_dev.cfg.mrrs || up.ext_tag != from_dev.cfg.ext_tag)
		logmsg("tlp-check: Device Control 0x%04x: MPS %u B, MRRS %u B, Extended Tag %s",
		       value & 0xffff, mps, mrrs, up.ext_tag ? "on" : "off");
	tlp_check_set_cfg(&from_dev, &up);
	tlp_check_set_cfg(&to_dev, &down);
}

void check_give_up(uint16_t requester_id, uint8_t tag)
{
	tlp_check_forget(&to_dev, requester_id, tag);
}

void check_reset(void)
{
	tlp_check_reset(&to_dev);
	tlp_check_reset(&from_dev);
}

uint64_t check_violations(void)
{
	return tlp_check_violations(&to_dev) + tlp_check_violations(&from_dev);
}

void check_print(FILE *f)
{
	fprintf(f, "cosimd tlp-check: %" PRIu64 " TLPs checked, %" PRIu64 " violations\n",
		to_dev.tlps + from_dev.tlps, check_violations());
	tlp_check_print(&to_dev, f);
	tlp_check_print(&from_dev, f);
}
