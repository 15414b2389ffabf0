/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fault injection (docs/cosim.md "Fault injection"): commands that take a
 * link down or up, kill a node (removed: no longer clocked, its links
 * carry nothing) or bring it back (reset, links retrain), or change the
 * bit-error rate; from two sources:
 *
 *  - the guest, over the control channel: a second serial port of the
 *    guest (ttyS1, a socketpair cosimd holds; QEMU's socket chardev), one
 *    command a line, each answered by one line "ok CYCLE ..." or
 *    "error ..." (CYCLE: the world cycle at which it took effect), so a
 *    scenario triggers a fault at a moment of its choosing (sim/scenarios/
 *    lib.sh `simctl`);
 *  - the command line: `--fault CYCLE:COMMAND`, run when the world clock
 *    reaches CYCLE (while one is pending the world is clocked without pause,
 *    so its cycle comes even when nothing moves).
 *
 * Commands:
 *   link-down NODE PORT   link-up NODE PORT   (PORT: X+ X- Y+ Y- Z+ Z-)
 *   kill NODE             revive NODE         (not the host node)
 *   ber RATE              (every link without a link-ber line)
 *   cycle                 (answers the world cycle only)
 *   busy NODE             (answers "node N busy" or "idle": a job running, TLPs in
 *                         flight; e.g. a revived node finishing the job it was in)
 *   barrier NAME          (guests only: the answer comes when every host has sent
 *                         `barrier NAME`; an error if a host's QEMU has gone or the
 *                         hosts wait at different names)
 *
 * Every host (QEMU) has its own channel; the fault list and the barriers are
 * shared.
 */
#ifndef SIM_COSIM_CONTROL_H
#define SIM_COSIM_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "world.h"

/* Check one command (without executing it): 0, or -1 with a message in err. */
int control_check(const struct world *w, const char *cmd, char *err, size_t errlen);
/* Run one command on w now (cosimd --replay): 0 with what was done in what,
 * or -1 with a message there. */
int control_run(struct world *w, const char *cmd, char *what, size_t wlen);
/* --fault CYCLE:COMMAND, before the world exists: 0, or -1 with a message. */
int control_add_fault(const char *spec, char *err, size_t errlen);
#define CONTROL_MAX_HOSTS 8

/* After world_create: check the --fault commands against the world (0, or -1
 * with a message in err); w is then the world faults act on, nhosts the
 * channels (one per QEMU). */
int control_init(struct world *w, unsigned nhosts, char *err, size_t errlen);
/* The QEMU arguments for host's control channel (-chardev socket,fd=N and
 * -serial chardev:...): creates the socketpair; fd_no is the descriptor
 * number QEMU gets.  args must hold 4 pointers; 0 or -1. */
int control_qemu_args(unsigned host, int fd_no, const char *args[4]);
/* In host's QEMU child before exec: put the channel's far end on fd_no. */
int control_child(unsigned host);
/* The daemon's end of host's channel (-1: none), to poll; read and run what
 * arrived. */
int control_fd(unsigned host);
void control_handle(unsigned host);
/* host's QEMU has gone: its channel is closed, a barrier waited at fails. */
void control_host_gone(unsigned host);
/* Barriers passed by all hosts. */
uint64_t control_barriers(void);
/* Run the --fault commands whose cycle has come (cheap: one comparison). */
void control_tick(void);
/* A --fault command is still to come: the world must be clocked until its cycle. */
bool control_pending(void);
/* Faults run so far (both sources). */
uint64_t control_faults(void);

#endif /* SIM_COSIM_CONTROL_H */
