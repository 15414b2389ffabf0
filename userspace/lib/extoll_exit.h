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

/*
 * The options every tool spells the same way, for getopt_long tables (the
 * file that uses them includes <getopt.h>): -d/--device DEV, -j/--json with
 * -p/--pretty, and -q/--quiet, -h/--help, -V/--version.
 */
#define EXTOLL_OPT_DEVICE	{ "device", required_argument, NULL, 'd' }
#define EXTOLL_OPTS_JSON	{ "json", no_argument, NULL, 'j' }, { "pretty", no_argument, NULL, 'p' }
#define EXTOLL_OPTS_STD		{ "quiet", no_argument, NULL, 'q' }, \
				{ "help", no_argument, NULL, 'h' }, \
				{ "version", no_argument, NULL, 'V' }

#endif /* EXTOLL_EXIT_H */
