// SPDX-License-Identifier: Apache-2.0
/*
 * naactl cfg's setpci syntax without a NIC (make -C userspace check): every
 * form of tools/cfg.c's parser against the offset, width, capability and
 * value it must give, and the forms it must refuse; the capability walk
 * over a fake config space (a PCIe capability at 0x40 after PM at 0x50's
 * predecessor, AER at 0x100). Prints one line per failure; exit 1 if any.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"

void err_msg(const char *fmt, ...);
void err_msg(const char *fmt, ...)
{
	(void)fmt;	/* the messages are naactl's; here only the verdict counts */
}

static int fails, passes;

static void ok(const char *reg, const char *val, int cap, unsigned int cap_id,
	       unsigned int off, unsigned int size, int write, uint32_t value)
{
	struct naactl_cfg_reg r;

	if (naactl_cfg_parse(reg, val, &r) || r.cap != cap || r.cap_id != cap_id ||
	    r.offset != off || r.size != size || r.write != write || r.value != value) {
		printf("FAIL cfg '%s'%s%s: cap %d/%#x offset %#x size %u write %d value %#x\n",
		       reg, val ? " " : "", val ? val : "", r.cap, r.cap_id, r.offset, r.size,
		       r.write, r.value);
		fails++;
	} else {
		passes++;
	}
}

static void bad(const char *reg, const char *val)
{
	struct naactl_cfg_reg r;

	if (naactl_cfg_parse(reg, val, &r) != -EINVAL) {
		printf("FAIL cfg '%s' %s: accepted\n", reg, val ? val : "");
		fails++;
	} else {
		passes++;
	}
}

/* a fake function: STATUS has a list; 0x34 -> 0x50 (PM) -> 0x40 (EXP) -> 0;
 * extended: 0x100 ACS (0x0d) -> 0x140 AER (0x01) -> end */
static uint8_t space[4096];

static int fake_read(struct extoll_nic *nic, const struct naactl_cfg_target *t,
		     unsigned int where, unsigned int size, uint32_t *val)
{
	(void)nic;
	(void)t;
	*val = 0;
	memcpy(val, &space[where], size);
	return 0;
}

static void where(const char *reg, int want)
{
	struct naactl_cfg_target t = { 5, 1, 0 };
	struct naactl_cfg_reg r;
	unsigned int w = 0;
	int ret;

	ret = naactl_cfg_parse(reg, NULL, &r);
	if (!ret)
		ret = naactl_cfg_resolve(&r, NULL, &t, fake_read, &w);
	if (want < 0 ? ret != want : ret || w != (unsigned int)want) {
		printf("FAIL resolve '%s': ret %d offset %#x, expected %d\n", reg, ret, w, want);
		fails++;
	} else {
		passes++;
	}
}

int main(void)
{
	/* hex offsets always, widths either case, default 32 bits */
	ok("10.w", NULL, 0, 0, 0x10, 2, 0, 0);
	ok("10", NULL, 0, 0, 0x10, 4, 0, 0);
	ok("0.L", NULL, 0, 0, 0, 4, 0, 0);
	ok("3c.b", NULL, 0, 0, 0x3c, 1, 0, 0);
	ok("3C.B", NULL, 0, 0, 0x3c, 1, 0, 0);
	ok("0x10.w", NULL, 0, 0, 0x10, 2, 0, 0);
	ok("ffc.l", NULL, 0, 0, 0xffc, 4, 0, 0);
	/* names, with their width, any case, +offset, explicit width */
	ok("COMMAND", NULL, 0, 0, 0x04, 2, 0, 0);
	ok("command", NULL, 0, 0, 0x04, 2, 0, 0);
	ok("STATUS", NULL, 0, 0, 0x06, 2, 0, 0);
	ok("VENDOR_ID", NULL, 0, 0, 0, 2, 0, 0);
	ok("BASE_ADDRESS_0", NULL, 0, 0, 0x10, 4, 0, 0);
	ok("BASE_ADDRESS_5", NULL, 0, 0, 0x24, 4, 0, 0);
	ok("HEADER_TYPE", NULL, 0, 0, 0x0e, 1, 0, 0);
	ok("CAPABILITIES", NULL, 0, 0, 0x34, 1, 0, 0);
	ok("SECONDARY_BUS", NULL, 0, 0, 0x19, 1, 0, 0);
	ok("COMMAND.b", NULL, 0, 0, 0x04, 1, 0, 0);
	ok("VENDOR_ID+2", NULL, 0, 0, 0x02, 2, 0, 0);
	/* capabilities by name or id */
	ok("CAP_EXP", NULL, 1, 0x10, 0, 4, 0, 0);
	ok("CAP_EXP+8.w", NULL, 1, 0x10, 8, 2, 0, 0);
	ok("cap_msi+2.W", NULL, 1, 0x05, 2, 2, 0, 0);
	ok("CAP10+8", NULL, 1, 0x10, 8, 4, 0, 0);
	ok("ECAP_AER+4", NULL, 2, 0x01, 4, 4, 0, 0);
	ok("ECAP0d", NULL, 2, 0x0d, 0, 4, 0, 0);
	/* values: hex, after '=' or as an argument */
	ok("COMMAND=0146", NULL, 0, 0, 0x04, 2, 1, 0x146);
	ok("4.w", "146", 0, 0, 0x04, 2, 1, 0x146);
	ok("4.w", "0x146", 0, 0, 0x04, 2, 1, 0x146);
	ok("18.l=00020100", NULL, 0, 0, 0x18, 4, 1, 0x20100);
	ok("3c.b=ff", NULL, 0, 0, 0x3c, 1, 1, 0xff);
	/* refused */
	bad("BOGUS", NULL);
	bad("CAP_BOGUS", NULL);
	bad("ECAP_NOPE+4", NULL);
	bad("3.w", NULL);		/* unaligned */
	bad("2.l", NULL);
	bad("1000", NULL);		/* beyond 4K */
	bad("ffe.l", NULL);
	bad("10.q", NULL);
	bad("10.ww", NULL);
	bad("", NULL);
	bad("+4", NULL);
	bad("10.w+2", NULL);
	bad("COMMAND=10000", NULL);	/* too wide */
	bad("3c.b", "100");
	bad("COMMAND=1:1", NULL);	/* masks are not supported */
	bad("COMMAND=1", "2");		/* two values */
	bad("4.w", "xyz");
	bad("4.w", "-1");
	bad("CAP_EXP+zz", NULL);

	/* the capability walk */
	space[0x06] = 0x10;			/* STATUS: capability list */
	space[0x34] = 0x50;
	space[0x50] = 0x01; space[0x51] = 0x40;	/* PM -> 0x40 */
	space[0x40] = 0x10; space[0x41] = 0x00;	/* EXP, last */
	space[0x100] = 0x0d; space[0x102] = 0x01; space[0x103] = 0x14;	/* ACS, next 0x140 */
	space[0x140] = 0x01; space[0x142] = 0x01;	/* AER, last */
	where("CAP_EXP+8.w", 0x48);
	where("CAP_PM", 0x50);
	where("CAP_MSI", -ENOENT);
	where("ECAP_AER+4", 0x144);
	where("ECAP_ACS", 0x100);
	where("ECAP_SRIOV", -ENOENT);
	where("COMMAND", 0x04);
	space[0x06] = 0;			/* no list: no capability */
	where("CAP_EXP", -ENOENT);

	printf("cfg parser: %d passed, %d failed\n", passes, fails);
	return fails || !passes ? 1 : 0;	/* no check passed: nothing proven */
}
