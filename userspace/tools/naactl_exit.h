/* SPDX-License-Identifier: Apache-2.0 */
/*
 * naactl's exit status: the names of the table every tool shares
 * (extoll_exit.h, docs/naactl.md "Exit status"). naactl_exit_of() maps a
 * libextoll error (negative errno) to it.
 */
#ifndef NAACTL_EXIT_H
#define NAACTL_EXIT_H

#include "extoll_exit.h"

enum naactl_exit {
	NAACTL_EXIT_OK = EXTOLL_EXIT_OK,	/* success */
	NAACTL_EXIT_OTHER = EXTOLL_EXIT_FAIL,	/* any other error */
	NAACTL_EXIT_USAGE = EXTOLL_EXIT_USAGE,	/* usage error */
	NAACTL_EXIT_NONIC = EXTOLL_EXIT_ENV,	/* no NIC, driver not loaded, no remote
						 * access, permission */
	NAACTL_EXIT_NONODE = EXTOLL_EXIT_NONODE, /* no such node, node not answering,
						  * not attached */
	NAACTL_EXIT_BUSY = EXTOLL_EXIT_BUSY,	/* already attached, claimed by another
						 * host, no free window or domain */
};

/* 0 -> OK; EHOSTUNREACH ETIMEDOUT ENODEV ENXIO ENOENT -> NONODE; EEXIST EBUSY
 * ENOSPC -> BUSY; EACCES EPERM -> NONIC; anything else -> OTHER. */
enum naactl_exit naactl_exit_of(int err);

#endif /* NAACTL_EXIT_H */
