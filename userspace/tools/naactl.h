/* SPDX-License-Identifier: Apache-2.0 */
/* naactl: what the subcommand files share. */
#ifndef NAACTL_H
#define NAACTL_H

struct extoll_nic;

/* naactl.c */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int naactl_open_nic(struct extoll_nic **nic);	/* returns an exit status */
int naactl_json(void);
int naactl_quiet(void);
int naactl_exit_of(int err);
int naactl_require_rra(struct extoll_nic *nic);	/* 0, or message + -EOPNOTSUPP */

/* route.c */
int cmd_route(int argc, char **argv);

#endif /* NAACTL_H */
