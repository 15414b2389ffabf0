/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libextoll: PCI device addresses as lspci -s spells them, parsed by libpci
 * (pciutils' pci_filter_parse_slot), for naactl, the sample accelerator's
 * tools (userspace/accel/) and the co-simulation (sim/). Link with
 * `pkg-config --libs libpci`.
 */
#ifndef EXTOLL_PCI_H
#define EXTOLL_PCI_H

#ifdef __cplusplus
extern "C" {
#endif

struct extoll_pci_addr {
	int domain;	/* -1: not given */
	int bus;	/* -1: not given */
	int dev;	/* -1: not given */
	int fn;		/* -1: not given */
};

/*
 * "DOMAIN:BUS:DEV.FN", "BUS:DEV.FN", "DEV.FN" (hex), or "DOMAIN:" (a PCI
 * domain alone). Parts left out are -1; no wildcards. 0 or -EINVAL.
 */
int extoll_pci_addr_parse(const char *s, struct extoll_pci_addr *a);
/* A whole device: BUS:DEV.FN given, the domain optional (0). */
int extoll_pci_addr_full(const struct extoll_pci_addr *a);

#ifdef __cplusplus
}
#endif

#endif /* EXTOLL_PCI_H */
