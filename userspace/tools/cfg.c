// SPDX-License-Identifier: Apache-2.0
/*
 * naactl cfg: setpci's register syntax (pciutils, setpci(8)) for one
 * tunnelled config request: hex offsets always (10.w is 0x10), the width
 * suffix in either case, setpci's register names and capability names with
 * an optional +offset, VALUE in hex. libpci exports no table of register
 * names (setpci keeps its own), so the one table below is declared from
 * libpci's <pci/header.h> constants: NAME is PCI_NAME there, as in setpci.
 * Not supported: setpci's VALUE:MASK and several values after one '='.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pci/header.h>

#include "cfg.h"
#include "naactl.h"

struct cfg_name {
	const char *name;
	unsigned int offset, size;
};

#define REG(n, w) { #n, PCI_##n, w }
static const struct cfg_name reg_names[] = {
	REG(VENDOR_ID, 2), REG(DEVICE_ID, 2), REG(COMMAND, 2), REG(STATUS, 2),
	{ "REVISION", PCI_REVISION_ID, 1 }, REG(REVISION_ID, 1),
	REG(CLASS_PROG, 1), REG(CLASS_DEVICE, 2), REG(CACHE_LINE_SIZE, 1),
	REG(LATENCY_TIMER, 1), REG(HEADER_TYPE, 1), REG(BIST, 1),
	REG(BASE_ADDRESS_0, 4), REG(BASE_ADDRESS_1, 4), REG(BASE_ADDRESS_2, 4),
	REG(BASE_ADDRESS_3, 4), REG(BASE_ADDRESS_4, 4), REG(BASE_ADDRESS_5, 4),
	REG(CARDBUS_CIS, 4), REG(SUBSYSTEM_VENDOR_ID, 2), REG(SUBSYSTEM_ID, 2),
	REG(ROM_ADDRESS, 4), { "CAPABILITIES", PCI_CAPABILITY_LIST, 1 },
	REG(CAPABILITY_LIST, 1), REG(INTERRUPT_LINE, 1), REG(INTERRUPT_PIN, 1),
	REG(MIN_GNT, 1), REG(MAX_LAT, 1),
	/* type 1 (bridges: the root port on bus 0) */
	REG(PRIMARY_BUS, 1), REG(SECONDARY_BUS, 1), REG(SUBORDINATE_BUS, 1),
	REG(SEC_LATENCY_TIMER, 1), REG(IO_BASE, 1), REG(IO_LIMIT, 1), REG(SEC_STATUS, 2),
	REG(MEMORY_BASE, 2), REG(MEMORY_LIMIT, 2), REG(PREF_MEMORY_BASE, 2),
	REG(PREF_MEMORY_LIMIT, 2), REG(PREF_BASE_UPPER32, 4), REG(PREF_LIMIT_UPPER32, 4),
	REG(IO_BASE_UPPER16, 2), REG(IO_LIMIT_UPPER16, 2),
	{ "BRIDGE_ROM_ADDRESS", PCI_ROM_ADDRESS1, 4 }, REG(BRIDGE_CONTROL, 2),
};

#define CAP(n) { "CAP_" #n, PCI_CAP_ID_##n, 0 }
static const struct cfg_name cap_names[] = {
	CAP(PM), CAP(AGP), CAP(VPD), CAP(SLOTID), CAP(MSI), CAP(CHSWP), CAP(PCIX),
	CAP(HT), CAP(VNDR), CAP(DBG), CAP(CCRC), CAP(HOTPLUG), CAP(SSVID), CAP(AGP3),
	CAP(SECURE), CAP(EXP), CAP(MSIX), CAP(SATA), CAP(AF), CAP(EA),
};

#define ECAP(n) { "ECAP_" #n, PCI_EXT_CAP_ID_##n, 0 }
static const struct cfg_name ecap_names[] = {
	ECAP(AER), ECAP(VC), ECAP(DSN), ECAP(PB), ECAP(RCLINK), ECAP(RCILINK), ECAP(RCEC),
	ECAP(MFVC), ECAP(VC2), ECAP(RCRB), ECAP(VNDR), ECAP(ACS), ECAP(ARI), ECAP(ATS),
	ECAP(SRIOV), ECAP(MRIOV), ECAP(MCAST), ECAP(PRI), ECAP(REBAR), ECAP(DPA), ECAP(TPH),
	ECAP(LTR), ECAP(SECPCI), ECAP(PMUX), ECAP(PASID), ECAP(LNR), ECAP(DPC), ECAP(L1PM),
	ECAP(PTM), ECAP(DVSEC), ECAP(DLNK),
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const struct cfg_name *lookup(const struct cfg_name *t, size_t n, const char *name,
				     size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(t[i].name) == len && !strncasecmp(t[i].name, name, len))
			return &t[i];
	return NULL;
}

/* Hex digits s[0..len) (an optional 0x) -> v; 0 or -EINVAL. */
static int hex_n(const char *s, size_t len, unsigned long max, unsigned long *v)
{
	char buf[24], *end;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!isxdigit((unsigned char)buf[0]))
		return -EINVAL;
	errno = 0;
	*v = strtoul(buf, &end, 16);
	return errno || *end || *v > max ? -EINVAL : 0;
}

static int bad(const char *what, const char *s)
{
	err_msg("invalid %s '%s' (setpci syntax: REG[+OFF][.B|.W|.L][=VALUE], REG a hex offset, "
		"a name such as COMMAND or BASE_ADDRESS_0, or CAP_EXP/ECAP_AER; hex values)",
		what, s);
	return -EINVAL;
}

/* CAP_NAME / CAPid (cap 1) or ECAP_NAME / ECAPid (cap 2), len chars of p */
static int parse_cap(const char *p, size_t len, int cap, struct naactl_cfg_reg *r)
{
	size_t skip = cap == 2 ? 4 : 3;
	const struct cfg_name *n;
	unsigned long v;

	r->cap = cap;
	if (p[skip] == '_') {
		n = cap == 2 ? lookup(ecap_names, N_OF(ecap_names), p, len) :
			       lookup(cap_names, N_OF(cap_names), p, len);
		if (!n)
			return -EINVAL;
		r->cap_id = n->offset;
		return 0;
	}
	if (hex_n(p + skip, len - skip, cap == 2 ? 0xffff : 0xff, &v))
		return -EINVAL;
	r->cap_id = (unsigned int)v;
	return 0;
}

int naactl_cfg_parse(const char *reg, const char *value, struct naactl_cfg_reg *r)
{
	const struct cfg_name *n = NULL;
	const char *p = reg, *eq = strchr(reg, '='), *end;
	unsigned long v;
	size_t len;

	memset(r, 0, sizeof(*r));
	if (eq && value) {
		err_msg("a value both after '=' and as an argument");
		return -EINVAL;
	}
	end = eq ? eq : reg + strlen(reg);
	/* the base: a name, a capability or a hex offset */
	len = strcspn(p, "+.=");
	if (len > (size_t)(end - p))
		len = (size_t)(end - p);
	if (!strncasecmp(p, "ECAP", 4) && len > 4) {
		if (parse_cap(p, len, 2, r))
			return bad("extended capability", reg);
	} else if (!strncasecmp(p, "CAP", 3) && len > 3 &&
		   !lookup(reg_names, N_OF(reg_names), p, len)) {	/* CAPABILITIES */
		if (parse_cap(p, len, 1, r))
			return bad("capability", reg);
	} else if (!hex_n(p, len, 0xfff, &v)) {
		r->offset = (unsigned int)v;
	} else {
		n = lookup(reg_names, N_OF(reg_names), p, len);
		if (!n)
			return bad("register", reg);
		r->offset = n->offset;
		r->size = n->size;
	}
	p += len;
	if (p < end && *p == '+') {	/* +OFF, hex */
		len = strcspn(p + 1, ".=");
		if (hex_n(p + 1, len, 0xfff, &v))
			return bad("offset", reg);
		r->offset += (unsigned int)v;
		p += 1 + len;
	}
	if (p < end && *p == '.') {	/* width, either case */
		if (end - p != 2)
			return bad("width", reg);
		switch (p[1]) {
		case 'b': case 'B': r->size = 1; break;
		case 'w': case 'W': r->size = 2; break;
		case 'l': case 'L': r->size = 4; break;
		default: return bad("width", reg);
		}
		p += 2;
	}
	if (p != end)
		return bad("register", reg);
	if (!r->size)	/* a plain offset or a capability: 32 bits */
		r->size = 4;
	if (r->offset % r->size || r->offset + r->size > 4096) {
		err_msg("register '%s': offset 0x%x is not aligned to its width %u or beyond 0xfff",
			reg, r->offset, r->size);
		return -EINVAL;
	}
	if (eq)
		value = eq + 1;
	if (value) {
		if (strchr(value, ':') || strchr(value, ',')) {
			err_msg("'%s': masks (VALUE:MASK) and lists of values are not supported", value);
			return -EINVAL;
		}
		if (hex_n(value, strlen(value), r->size == 4 ? 0xffffffffUL :
			  (1UL << (8 * r->size)) - 1, &v)) {
			err_msg("invalid value '%s' (hex, at most %u bytes)", value, r->size);
			return -EINVAL;
		}
		r->write = 1;
		r->value = (uint32_t)v;
	}
	return 0;
}

static const char *cap_label(const struct naactl_cfg_reg *r, char *buf, size_t len)
{
	const struct cfg_name *t = r->cap == 2 ? ecap_names : cap_names;
	size_t i, n = r->cap == 2 ? N_OF(ecap_names) : N_OF(cap_names);

	for (i = 0; i < n; i++)
		if (t[i].offset == r->cap_id)
			return t[i].name;
	snprintf(buf, len, "%s%02x", r->cap == 2 ? "ECAP" : "CAP", r->cap_id);
	return buf;
}

int naactl_cfg_resolve(const struct naactl_cfg_reg *r, struct extoll_nic *nic,
		       const struct naactl_cfg_target *t, naactl_cfg_read_fn read,
		       unsigned int *where)
{
	unsigned int pos, n;
	uint32_t v;
	char buf[16];
	int ret;

	*where = r->offset;
	if (!r->cap)
		return 0;
	if (r->cap == 1) {	/* the list from 0x34, if STATUS says there is one */
		ret = read(nic, t, PCI_STATUS, 2, &v);
		if (ret)
			return ret;
		pos = 0;
		if (v & PCI_STATUS_CAP_LIST) {
			ret = read(nic, t, PCI_CAPABILITY_LIST, 1, &v);
			if (ret)
				return ret;
			pos = v & 0xfc;
		}
		for (n = 0; pos >= 0x40 && n < 48; n++) {
			ret = read(nic, t, pos, 2, &v);
			if (ret)
				return ret;
			if ((v & 0xff) == r->cap_id)
				goto found;
			pos = (v >> 8) & 0xfc;
		}
	} else {		/* the extended list from 0x100 */
		for (pos = 0x100, n = 0; pos && n < 960; n++) {
			ret = read(nic, t, pos, 4, &v);
			if (ret)
				return ret;
			if (v == 0 || v == 0xffffffff)
				break;
			if ((v & 0xffff) == r->cap_id)
				goto found;
			pos = (v >> 20) & 0xffc;
			if (pos < 0x100)
				break;
		}
	}
	err_msg("the device has no capability %s", cap_label(r, buf, sizeof(buf)));
	return -ENOENT;
found:
	*where = pos + r->offset;
	if (*where + r->size > 4096) {
		err_msg("%s+%x is beyond the config space", cap_label(r, buf, sizeof(buf)),
			r->offset);
		return -ENOENT;
	}
	return 0;
}
