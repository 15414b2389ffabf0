/* SPDX-License-Identifier: Apache-2.0 */
/*
 * naactl's exit status, one definition for every command (docs/naactl.md,
 * "Exit status"). naactl_exit_of() maps a libextoll error (negative errno)
 * to it.
 */
#ifndef NAACTL_EXIT_H
#define NAACTL_EXIT_H

enum naactl_exit {
	NAACTL_EXIT_OK = 0,	/* success */
	NAACTL_EXIT_USAGE = 1,	/* usage error */
	NAACTL_EXIT_NONODE = 2,	/* no such node, node not answering, not attached */
	NAACTL_EXIT_BUSY = 3,	/* already attached, claimed by another host,
				 * no free window or domain */
	NAACTL_EXIT_NONIC = 4,	/* no NIC, driver not loaded, no remote access,
				 * permission */
	NAACTL_EXIT_OTHER = 5,	/* any other error */
};

/* 0 -> OK; EHOSTUNREACH ETIMEDOUT ENODEV ENXIO ENOENT -> NONODE; EEXIST EBUSY
 * ENOSPC -> BUSY; EACCES EPERM -> NONIC; anything else -> OTHER. */
enum naactl_exit naactl_exit_of(int err);

#endif /* NAACTL_EXIT_H */
