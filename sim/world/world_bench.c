// SPDX-License-Identifier: Apache-2.0
/*
 * world_bench: simulation speed of a co-simulation world (sim/world/).
 *   world_bench [TOPOLOGY.topo ...] [-n CYCLES]
 * Per topology: models built, then CYCLES idle cycles of the whole world in
 * lockstep: world cycles per second and model cycles per second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "world.h"   /* and extoll_topo.h (userspace/lib) */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long cycles = 20000;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			cycles = strtoul(argv[++i], NULL, 0);
			continue;
		}
		struct extoll_topo t;
		char err[256];
		if (extoll_topo_load(argv[i], &t, err, sizeof(err))) {
			fprintf(stderr, "world_bench: %s\n", err);
			rc = 1;
			continue;
		}
		double t0 = now();
		struct world *w = world_create(&t, NULL, NULL, NULL, err, sizeof(err));
		if (!w) {
			fprintf(stderr, "world_bench: %s\n", err);
			rc = 1;
			continue;
		}
		double t1 = now();
		for (unsigned long c = 0; c < cycles; c++)
			world_step(w);
		double t2 = now();
		printf("world_bench: %-12s %2u node(s) (%u host, %u naa, %u router): build %.2f s, "
		       "%.3f M world cycles/s = %.3f M model cycles/s; %s\n",
		       t.name, t.n, extoll_topo_count(&t, EXTOLL_TOPO_HOST),
		       extoll_topo_count(&t, EXTOLL_TOPO_NAA), extoll_topo_count(&t, EXTOLL_TOPO_ROUTER), t1 - t0, cycles / (t2 - t1) / 1e6,
		       cycles * (double)t.n / (t2 - t1) / 1e6,
		       world_overrun(w) ? "OVERRUN" : "no overrun");
		world_destroy(w);
	}
	return rc;
}
