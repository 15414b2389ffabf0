// SPDX-License-Identifier: Apache-2.0
/*
 * world_bench: simulation speed of a co-simulation world (sim/world/).
 *   world_bench [-n CYCLES] [-w WARMUP] TOPOLOGY.topo ...
 * Per topology, four runs on a world built afresh: idle and with one
 * host-NAA path active (world_traffic.h: the host reads info.cycles of the
 * first naa node, else node 1, by remote register access; a world of one node:
 * BAR reads), each with skipping off and on (world_set_skip).  A run steps
 * WARMUP cycles (default 20 periods: links train, the timers of ports without
 * a cable saturate after DEAD_TIME = 8192, idle nodes fall asleep after two
 * periods of repeating I/O), then measures CYCLES:
 * world cycles per second, and for skipping the share of node cycles that
 * were not evaluated.  One line per run, then a table (docs/benchmarks.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "extoll_regs.h"
#include "world.h"   /* and extoll_topo.h (userspace/lib) */
#include "world_traffic.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the far end of the active path: the first naa node, else node 1, else the host */
static unsigned path_dst(const struct extoll_topo *t)
{
	for (unsigned i = 0; i < t->n; i++)
		if (extoll_topo_role(t, i) == EXTOLL_TOPO_NAA)
			return i;
	return t->n > 1 ? 1 : 0;
}

struct result {
	double rate;                    /* M world cycles/s */
	double skipped;                 /* share of node cycles not evaluated */
	uint64_t done;                  /* completions of the path */
};

static int run(const struct extoll_topo *t, bool path, bool skip, unsigned long warm,
	       unsigned long cycles, struct result *r)
{
	char err[256];
	struct world_traffic tr;
	struct world_skip_stats s0, s1;
	struct world *w = world_create(t, NULL, NULL, NULL, err, sizeof(err));

	if (!w) {
		fprintf(stderr, "world_bench: %s\n", err);
		return -1;
	}
	if (world_set_skip(w, skip ? WORLD_SKIP_PERIOD : 0) < 0) {
		fprintf(stderr, "world_bench: out of memory\n");
		world_destroy(w);
		return -1;
	}
	if (path && world_traffic_init(&tr, w, path_dst(t), EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, err,
				       sizeof(err)) < 0) {
		fprintf(stderr, "world_bench: %s\n", err);
		world_destroy(w);
		return -1;
	}
	for (unsigned long c = 0; c < warm; c++) {
		if (path)
			world_traffic_poll(&tr, true);
		world_step(w);
	}
	uint64_t d0 = path ? tr.done : 0;
	world_skip_stats(w, &s0);
	double t0 = now();
	for (unsigned long c = 0; c < cycles; c++) {
		if (path)
			world_traffic_poll(&tr, true);
		world_step(w);
	}
	double dt = now() - t0;
	world_skip_stats(w, &s1);
	r->rate = cycles / dt / 1e6;
	r->skipped = (double)(s1.skipped - s0.skipped) / ((double)cycles * t->n);
	r->done = path ? tr.done - d0 : 0;
	printf("world_bench: %-20s %2u node(s) %-5s skip %-3s: %.4f M world cycles/s, %.1f %% of node "
	       "cycles skipped, %llu reads completed%s\n", t->name, t->n, path ? "path" : "idle",
	       skip ? "on" : "off", r->rate, 100 * r->skipped, (unsigned long long)r->done,
	       world_overrun(w) ? ", OVERRUN" : "");
	bool bad = world_overrun(w) || (path && r->done == 0);
	world_destroy(w);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long cycles = 20000, warm = 20 * WORLD_SKIP_PERIOD;
	struct extoll_topo topo[16];
	struct result res[16][4];
	unsigned nt = 0;
	int rc = 0;

	setenv("COSIM_FLASH_DIR", "none", 0);  /* the world's speed, not its flash files */
	for (int i = 1; i < argc; i++) {
		char err[256];

		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			cycles = strtoul(argv[++i], NULL, 0);
			continue;
		}
		if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			warm = strtoul(argv[++i], NULL, 0);
			continue;
		}
		if (nt == sizeof(topo) / sizeof(topo[0])) {
			fprintf(stderr, "world_bench: at most %u topologies\n", nt);
			return 2;
		}
		if (extoll_topo_load(argv[i], &topo[nt], err, sizeof(err))) {
			fprintf(stderr, "world_bench: %s\n", err);
			return 2;
		}
		nt++;
	}
	if (!nt || !cycles) {
		fprintf(stderr, "usage: world_bench [-n CYCLES] [-w WARMUP] TOPOLOGY.topo ...\n");
		return 2;
	}
	for (unsigned i = 0; i < nt; i++)
		for (unsigned m = 0; m < 4; m++)
			if (run(&topo[i], m >= 2, m & 1, warm, cycles, &res[i][m]) < 0)
				rc = 1;
	printf("\n| nodes | topology | idle, skip off | idle, skip on | one path, skip off | one path, skip on |\n"
	       "|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < nt; i++) {
		printf("| %u | %s |", topo[i].n, topo[i].name);
		for (unsigned m = 0; m < 4; m++)
			printf(" %.4f |", res[i][m].rate);
		printf("\n");
	}
	printf("(M world cycles/s; %lu cycles measured after %lu of warm-up; skip period %u)\n", cycles,
	       warm, WORLD_SKIP_PERIOD);
	return rc;
}
