/* SPDX-License-Identifier: Apache-2.0 */
/* naactl: what the command files share (naactl.c: options, the command
 * table, NIC opening; route.c: the route command; regs.c: regs and links;
 * cfg.c: setpci's syntax for cfg; own.c: release, mgmt and a node's holder;
 * fabric_list.c: list --all, the free NAAs for attach --any). A new command: its handler and synopsis
 * here, a line in naactl.c's cmds[] table, its file in the Makefile. */
#ifndef NAACTL_H
#define NAACTL_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "naactl_exit.h"
#include "print.h"

struct extoll_nic;

/* naactl.c */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Opens the NIC of -d (or the first); returns an exit status. */
enum naactl_exit naactl_open_nic(struct extoll_nic **nic);
/* The message and exit status of extoll_open()'s error ret. */
enum naactl_exit naactl_open_error(int ret);
/* -d's NIC, or NULL (the first). */
const char *naactl_device(void);
/* 0, or a message and -EOPNOTSUPP. */
int naactl_require_rra(struct extoll_nic *nic);
/* naactl_open_nic, then (need_rra) naactl_require_rra; an exit status. */
enum naactl_exit naactl_open(struct extoll_nic **nic, int need_rra);

/* Arguments, checked before the NIC is opened; each prints its message. */
/* getopt_long with permutation over a command's argv (argv[0] the command;
 * set optind = 0 first), also taking -j -p -q; see naactl.c. */
int naactl_getopt(int argc, char **argv, const char *shortopts,
		  const struct option *longopts);
/* A command without options: -j/-p/-q anywhere, operands after argv[0]. */
int naactl_operands(int *argc, char ***argv);
/* The command's synopsis on stderr; returns NAACTL_EXIT_USAGE. */
int naactl_usage_error(const char *name);
/* Decimal node id 0..65535 (010 is ten; 0x.. refused): 0 or -EINVAL. */
int naactl_parse_node(const char *s, uint16_t *node);
/* Decimal, or hex with 0x: 0 or -EINVAL (no message). */
int naactl_parse_u64(const char *s, uint64_t *v);
/* "0,2,7" -> source route: 0 or -EINVAL. */
int naactl_parse_route(const char *s, uint64_t *route);

/* route.c: a command of the table; nic is NULL (it opens the NIC itself
 * unless --dry-run). */
int cmd_route(struct extoll_nic *nic, int argc, char **argv);
extern const char route_usage[];

/* regs.c */
int cmd_regs(struct extoll_nic *nic, int argc, char **argv);
int cmd_links(struct extoll_nic *nic, int argc, char **argv);
extern const char regs_usage[], links_usage[];

/* own.c: release (a command of the table); the holder of a node (own.owner):
 * 0 and *held, *holder, or a negative errno */
int cmd_release(struct extoll_nic *nic, int argc, char **argv);
/* own.c: mgmt (a command of the table): a node's management node (own.mgmt):
 * 0 and *valid, *mgmt, or a negative errno */
int cmd_mgmt(struct extoll_nic *nic, int argc, char **argv);
int naactl_mgmt(struct extoll_nic *nic, uint16_t node, int *valid, uint16_t *mgmt);
extern const char mgmt_usage[];
int naactl_owner(struct extoll_nic *nic, uint16_t node, int *held, uint16_t *holder);
/* 1 if NODE is attached to this host (a PCI domain here), else 0 */
int naactl_attached_here(struct extoll_nic *nic, uint16_t node);
extern const char release_usage[];

/* fabric_list.c: what a node says about itself */
struct naactl_node {
	uint16_t node;
	int error;		/* 0, or the negative errno of its RRA reads */
	int self;		/* this host's own NIC */
	int role;		/* 0 endpoint (host), 1 root port (NAA) */
	int no_own;		/* an NAA without an own block (older NIC) */
	int held;		/* own.owner.held */
	uint16_t holder;	/* own.owner.node */
	uint32_t lease_left;	/* own.lease_left (1024-cycle units), 0: none */
	int domain;		/* the PCI domain here if attached here, else -1 */
};
/* --torus / --topology (else /etc/extoll/topology): 0 and *n nodes, or a
 * negative errno with a message. */
int naactl_fabric_size(const char *torus, const char *topo, unsigned int *n);
/* 0, or s->error (negative errno; s filled as far as it got). */
int naactl_node_state(struct extoll_nic *nic, uint16_t node, struct naactl_node *s);
/* list --all on an unopened nic: an exit status. */
int naactl_list_all(struct extoll_nic *nic, const char *torus, const char *topo);
/* The free NAAs of nodes 0..n-1 in node order, at most max. */
int naactl_free_naas(struct extoll_nic *nic, unsigned int n, uint16_t *nodes,
		     size_t max, size_t *cnt);

/* discover.c: topo (a command of the table) and route --discover (from cmd_route) */
int cmd_topo(struct extoll_nic *nic, int argc, char **argv);
int cmd_route_discover(int argc, char **argv);
extern const char topo_usage[];

/* flash.c: flash (a command of the table): an NAA node's configuration flash */
int cmd_flash(struct extoll_nic *nic, int argc, char **argv);
extern const char flash_usage[];
/* rma.c: put, get, bench (a command of the table) */
int cmd_rma(struct extoll_nic *nic, int argc, char **argv);
extern const char rma_usage[];

/* dma.c: an NAA's DMA window table (a command of the table) */
int cmd_dma(struct extoll_nic *nic, int argc, char **argv);
extern const char dma_usage[];

#endif /* NAACTL_H */
