/* SPDX-License-Identifier: Apache-2.0 */
/*
 * naactl cfg: setpci's register syntax (cfg.c), parsed before the NIC is
 * opened; capability offsets resolved afterwards through a read callback.
 *
 *   REG[+OFF][.B|.W|.L][=VALUE]     REG: hex offset (10 is 0x10), a name of
 *                                   setpci (COMMAND, BASE_ADDRESS_0, ...),
 *                                   CAP_name / ECAP_name or CAPid / ECAPid
 */
#ifndef NAACTL_CFG_H
#define NAACTL_CFG_H

#include <stdint.h>

struct extoll_nic;

struct naactl_cfg_target {
	uint16_t node;
	uint8_t bus, devfn;
};

struct naactl_cfg_reg {
	int cap;		/* 0 plain offset, 1 capability, 2 extended capability */
	unsigned int cap_id;
	unsigned int offset;	/* from 0, or from the capability's start */
	unsigned int size;	/* 1, 2, 4 */
	int write;
	uint32_t value;
};

/* REG (and VALUE, NULL for none unless REG has =VALUE) -> r; 0, or a message
 * on stderr and -EINVAL. */
int naactl_cfg_parse(const char *reg, const char *value, struct naactl_cfg_reg *r);

typedef int (*naactl_cfg_read_fn)(struct extoll_nic *nic, const struct naactl_cfg_target *t,
				  unsigned int where, unsigned int size, uint32_t *val);
/* The byte offset in config space of r, walking the capability lists with
 * read() for CAP_/ECAP_; 0, -ENOENT (no such capability: a message), or the
 * read's error. */
int naactl_cfg_resolve(const struct naactl_cfg_reg *r, struct extoll_nic *nic,
		       const struct naactl_cfg_target *t, naactl_cfg_read_fn read,
		       unsigned int *where);

#endif /* NAACTL_CFG_H */
