/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The exit status of every naa-extoll tool (naactl, sacc-test, bar-test):
 * one table, documented in docs/naactl.md ("Exit status"). As in GNU and
 * pciutils practice, 2 is a usage error everywhere and 1 a plain failure
 * (a test that ran and failed, an operation the device refused); the
 * higher codes tell a script why it could not run.
 */
#ifndef EXTOLL_EXIT_H
#define EXTOLL_EXIT_H

enum extoll_exit {
	EXTOLL_EXIT_OK = 0,	/* success (tests: PASS) */
	EXTOLL_EXIT_FAIL = 1,	/* failed: a check failed, or any error not below */
	EXTOLL_EXIT_USAGE = 2,	/* bad command line (checked before any device is opened) */
	EXTOLL_EXIT_ENV = 3,	/* could not run: no NIC/device, driver not loaded,
				 * no permission, no remote register access */
	EXTOLL_EXIT_NONODE = 4,	/* no such node, node not answering, not attached */
	EXTOLL_EXIT_BUSY = 5,	/* already attached, claimed by another host,
				 * no free window or domain */
};

#endif /* EXTOLL_EXIT_H */
