// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll: PCI device addresses (extoll_pci.h), parsed by libpci as
 * lspci -s parses them, so every tool of the tree accepts the same spelling.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <pci/pci.h>

#include "extoll_pci.h"

int extoll_pci_addr_parse(const char *s, struct extoll_pci_addr *a)
{
	struct pci_filter f;
	size_t len = strlen(s);
	char buf[64];

	/* "fffe:" is a domain alone; libpci spells it "fffe::" (any bus) */
	if (!len || len + 2 > sizeof(buf) || strchr(s, '*') ||
	    snprintf(buf, sizeof(buf), "%s%s", s,
		     s[len - 1] == ':' && strchr(s, ':') == s + len - 1 ? ":" : "") < 0)
		return -EINVAL;
	pci_filter_init(NULL, &f);
	if (pci_filter_parse_slot(&f, buf))
		return -EINVAL;
	a->domain = f.domain;
	a->bus = f.bus;
	a->dev = f.slot;
	a->fn = f.func;
	return 0;
}

int extoll_pci_addr_full(const struct extoll_pci_addr *a)
{
	return a->bus >= 0 && a->dev >= 0 && a->fn >= 0;
}
