/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Clock policy: the world (every model, in lockstep) is clocked while
 * anything is active (a link carries a flit or a credit, a model is busy: TLP
 * beats in flight, an accelerator job; the device sent something) and for
 * --linger cycles after the last activity; then the clock stops and the
 * daemon sleeps in poll() until QEMU sends something.  So RTL cycle counts
 * measure activity, not wall time.
 */
#ifndef SIM_COSIM_CLOCK_H
#define SIM_COSIM_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "pcie_model.h"
#include "world.h"

/* devs: the host devices (n of them; a busy one keeps the clock running);
 * service: called after every cycle to take what the devices sent; returns
 * true if there was anything (activity). */
void clock_init(struct world *w, struct pcie_model *const *devs, unsigned n, uint64_t linger,
		bool (*service)(void));
/* Clock n cycles, serving the device after each. */
void clock_run(uint64_t n);
/* Activity from the host side (a request pushed): linger from now. */
void clock_kick(void);
/* Device reset: forget the linger. */
void clock_stop(void);
/* Is there a reason to clock (busy or lingering)? */
bool clock_running(void);
/* Cycles to run per round of the event loop: fewer while only lingering,
 * so a new request from QEMU is seen sooner. */
uint64_t clock_batch(void);

#endif /* SIM_COSIM_CLOCK_H */
