/* SPDX-License-Identifier: Apache-2.0 */
/* naactl: what the command files share (naactl.c: options, the command
 * table, NIC opening; route.c: the route command). */
#ifndef NAACTL_H
#define NAACTL_H

#include "naactl_exit.h"
#include "print.h"

struct extoll_nic;

/* naactl.c */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Opens the NIC of -d (or the first); returns an exit status. */
enum naactl_exit naactl_open_nic(struct extoll_nic **nic);
/* 0, or a message and -EOPNOTSUPP. */
int naactl_require_rra(struct extoll_nic *nic);

/* route.c: a command of the table; nic is NULL (it opens the NIC itself
 * unless --dry-run). */
int cmd_route(struct extoll_nic *nic, int argc, char **argv);
extern const char route_usage[];

/* discover.c: topo (a command of the table) and route --discover (from cmd_route) */
int cmd_topo(struct extoll_nic *nic, int argc, char **argv);
int cmd_route_discover(int argc, char **argv);
extern const char topo_usage[];

#endif /* NAACTL_H */
