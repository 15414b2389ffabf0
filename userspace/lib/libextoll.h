/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libextoll: user-space access to the EXTOLL NIC driver (/dev/extollN ioctls
 * and sysfs). Functions return 0 or a negative errno; they never print.
 */
#ifndef LIBEXTOLL_H
#define LIBEXTOLL_H

#include <stddef.h>
#include <stdint.h>

#include "extoll_topo.h"

#ifdef __cplusplus
extern "C" {
#endif

struct extoll_nic;

struct extoll_nic_info {
	char dev_path[64];	/* /dev/extoll0 */
	char pci_name[32];	/* 0000:00:02.0 */
	char sysfs[128];	/* /sys/bus/pci/devices/0000:00:02.0 */
	uint16_t node_id;
	uint8_t role;		/* 0 endpoint, 1 root port */
	int rra;		/* remote access available */
	unsigned int rtl_major, rtl_minor, rtl_patch;
	unsigned int rra_timeout_us;
};

/*
 * Open a NIC. spec: NULL or "" (the first NIC), "/dev/extollN", "extollN",
 * or a PCI address ("0000:00:02.0", "00:02.0").
 * Errors: -ENOENT (no such NIC / driver not bound), -EACCES, ...
 */
int extoll_open(const char *spec, struct extoll_nic **nic);
void extoll_close(struct extoll_nic *nic);
const struct extoll_nic_info *extoll_nic_info(const struct extoll_nic *nic);

/* Remote register access; val is all-ones on error. */
int extoll_rra_read(struct extoll_nic *nic, uint16_t node, uint32_t addr,
		    uint64_t *val);
int extoll_rra_write(struct extoll_nic *nic, uint16_t node, uint32_t addr,
		     uint64_t val);
/* Source-routed; answered (may be NULL) gets the answering node's id. */
int extoll_rra_read_routed(struct extoll_nic *nic, uint64_t route,
			   uint32_t addr, uint64_t *val, uint16_t *answered);
int extoll_rra_write_routed(struct extoll_nic *nic, uint64_t route,
			    uint32_t addr, uint64_t val, uint16_t *answered);

/* The NIC's own register at byte offset addr (a multiple of 8) of its
 * BAR0, through sysfs resource0 (root; refused with -EPERM where the kernel
 * forbids mapping a BAR its driver claimed, CONFIG_IO_STRICT_DEVMEM: then
 * read the local node by RRA). val is all-ones on error. */
int extoll_reg_read(struct extoll_nic *nic, uint32_t addr, uint64_t *val);

/* One tunnelled config request; cpl_status (may be NULL): 0 SC, 1 UR, 2 CRS, 4 CA. */
int extoll_cfg(struct extoll_nic *nic, uint16_t node, uint8_t bus,
	       uint8_t devfn, uint16_t where, unsigned int size, int write,
	       uint32_t *val, unsigned int *cpl_status);

/* What an attach came to, as the driver returns it. */
struct extoll_attach_result {
	unsigned int id;	/* the node's device extoll.naa.<id> */
	char name[32];		/* "extoll.naa.3" */
	int domain;		/* its PCI domain; -1: no driver bound yet (naa_bus not loaded) */
	unsigned int root_bus;	/* the domain's root bus number */
};

/* Attach / detach a remote node. res may be NULL. */
int extoll_attach(struct extoll_nic *nic, uint16_t node,
		  struct extoll_attach_result *res);
int extoll_detach(struct extoll_nic *nic, uint16_t node);

/* An attached node, as sysfs shows it. */
struct extoll_naa {
	char name[32];		/* extoll.naa.3 */
	uint16_t node;
	char state[16];		/* waiting probing attached failed dead detaching */
	int domain;		/* -1: none */
	int error;		/* last driver error (negative errno) */
	int has_root_port;	/* DDDD:BB:00.0 exists (BB: the root bus) */
	char root_port[16];	/* "DDDD:BB:00.0" */
	size_t n_devices;	/* the other functions of the domain */
	char (*devices)[16];	/* their addresses, n_devices of them */
};

/* Every attached node, sorted by node id; free with extoll_list_free(). */
int extoll_list(struct extoll_nic *nic, struct extoll_naa **list, size_t *n);
void extoll_list_free(struct extoll_naa *list);

/* The version of naa-extoll this library was built from ("0.1.0", with
 * " (git <describe>)" when built in a git checkout). */
const char *extoll_version(void);

/* --- routing tables (torus geometry and routes: extoll_topo.h) */

/* Router rt_entry value: dest, inport, outport, vc rule auto, valid. */
uint64_t extoll_rt_entry(uint16_t dest, unsigned int inport,
			 unsigned int outport);
/* Router node value: the node id and dateline in use from now on (valid). */
uint64_t extoll_node_word(uint16_t id, uint8_t dateline);
/* Register offsets at a node. */
uint32_t extoll_reg_info_id(void);
uint32_t extoll_reg_rt_entry(void);
uint32_t extoll_reg_node(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBEXTOLL_H */
