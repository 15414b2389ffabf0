/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fixed traffic pattern for world tests and benchmarks, without QEMU: the
 * first host node's NIC (BAR0 and bus mastering set up by config writes, as
 * firmware would) reads a register of node dst again and again by remote
 * register access with a source route (no routing tables needed): one host-NAA
 * path active.  Each completion record (an MWr the host NIC writes upstream)
 * is hashed with its cycle; with dst = the host itself the reads are local
 * BAR reads (a world of one node).
 */
#ifndef SIM_WORLD_WORLD_TRAFFIC_H
#define SIM_WORLD_WORLD_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "world.h"

/* seconds on a clock (CLOCK_MONOTONIC: wall, CLOCK_PROCESS_CPUTIME_ID: CPU),
 * for the drivers' figures */
static inline double world_clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct world_traffic {
	struct world *w;
	struct pcie_model *host;        /* the model of src */
	unsigned src, dst;
	uint32_t reg;                   /* register offset read at dst */
	bool local;                     /* dst is the host: BAR reads */
	bool outstanding;
	uint16_t seq;
	uint64_t sent_cycle;
	uint64_t sent, done, timeouts;
	uint64_t hash;                  /* FNV-1a over (cycle, record) of every completion */
};

/* Set up host 0 of w; 0, or -1 with a message in err (no host, no route). */
int world_traffic_init(struct world_traffic *t, struct world *w, unsigned dst, uint32_t reg,
		       char *err, size_t errlen);
/* The same from any node src with a PCIe side (a host or router node's NIC). */
int world_traffic_init_node(struct world_traffic *t, struct world *w, unsigned src, unsigned dst,
			    uint32_t reg, char *err, size_t errlen);
/* Before each world_step while the path is active: take completions, launch
 * the next read when none is outstanding (a lost one after 20000 cycles). */
void world_traffic_poll(struct world_traffic *t, bool launch);
/* The same before cycle c is evaluated (a node hook, world_set_node_hook). */
void world_traffic_poll_at(struct world_traffic *t, uint64_t c, bool launch);
/* From now on read register reg of node dst (a new source route); 0 or -1. */
int world_traffic_retarget(struct world_traffic *t, unsigned dst, uint32_t reg, char *err,
			   size_t errlen);

#endif /* SIM_WORLD_WORLD_TRAFFIC_H */
