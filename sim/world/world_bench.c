// SPDX-License-Identifier: Apache-2.0
/*
 * world_bench: simulation speed of a co-simulation world (sim/world/).
 *   world_bench [-n CYCLES] [-w WARMUP] [-t THREADS] [-a] TOPOLOGY.topo ...
 * Per topology, four runs on a world built afresh: idle and with one
 * host-NAA path active (world_traffic.h: the host reads info.cycles of the
 * first naa node, else node 1, by remote register access; a world of one node:
 * BAR reads), each with skipping off and on (world_set_skip).  -a: two more,
 * all-to-all load: every node with a PCIe side (host and router nodes) reads
 * info.cycles of every other node in turn, one read outstanding each.
 * -t THREADS: every run once more partitioned over THREADS threads
 * (world_set_threads; the traffic is polled by node hooks in the threads of
 * the nodes' partitions).  A run steps
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
	return world_clock_s(CLOCK_MONOTONIC);
}

/* the far end of the active path: the first naa node, else node 1, else the host */
static unsigned path_dst(const struct extoll_topo *t)
{
	for (unsigned i = 0; i < t->n; i++)
		if (extoll_topo_role(t, i) == EXTOLL_TOPO_NAA)
			return i;
	return t->n > 1 ? 1 : 0;
}

/* a node's traffic: the next node it reads (all-to-all) or always the same (path) */
struct src {
	struct world_traffic tr;
	const struct extoll_topo *t;
	bool all;
	unsigned next;
};

static void src_hook(void *ctx, uint64_t c)
{
	struct src *s = ctx;
	char err[256];

	world_traffic_poll_at(&s->tr, c, false);
	if (s->tr.outstanding)
		return;
	if (s->all) {
		if (++s->next == s->tr.src)
			s->next++;
		if (s->next >= s->t->n)
			s->next = s->tr.src == 0 ? 1 : 0;
		world_traffic_retarget(&s->tr, s->next, EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, err,
				       sizeof(err));
	}
	world_traffic_poll_at(&s->tr, c, true);
}

struct result {
	double rate;                    /* M world cycles/s */
	double skipped;                 /* share of node cycles not evaluated */
	uint64_t done;                  /* completions of the path */
};

static const char *const load_name[] = { "idle", "path", "all" };

static uint64_t reads_done(const struct src *src, unsigned n)
{
	uint64_t d = 0;

	for (unsigned i = 0; i < n; i++)
		d += src[i].tr.done;
	return d;
}

/* load: 0 idle, 1 one path, 2 all-to-all */
static int run(const struct extoll_topo *t, unsigned load, bool skip, unsigned threads,
	       unsigned long warm, unsigned long cycles, struct result *r)
{
	char err[256];
	static struct src src[WORLD_MAX_NODES];
	unsigned nsrc = 0;
	struct world_skip_stats s0, s1;
	struct world *w = world_create(t, NULL, NULL, NULL, err, sizeof(err));

	if (!w) {
		fprintf(stderr, "world_bench: %s\n", err);
		return -1;
	}
	if (world_set_skip(w, skip ? WORLD_SKIP_PERIOD : 0) < 0 || world_set_threads(w, threads) < 0) {
		fprintf(stderr, "world_bench: out of memory\n");
		world_destroy(w);
		return -1;
	}
	for (unsigned i = 0; load && i < t->n; i++) {
		struct src *s = &src[nsrc];
		bool host0 = world_nhosts(w) && i == world_host_node(w, 0);

		if (load == 1 && !host0)
			continue;
		if (load == 2 && !world_node_model(w, i)->backend->upstream)
			continue;
		unsigned first = i ? 0 : 1;    /* all-to-all: another node */

		*s = (struct src){ .t = t, .all = load == 2, .next = first };
		if (world_traffic_init_node(&s->tr, w, i, load == 1 ? path_dst(t) : first,
					    EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, err, sizeof(err)) < 0) {
			fprintf(stderr, "world_bench: %s\n", err);
			world_destroy(w);
			return -1;
		}
		nsrc++;
	}
	for (unsigned i = 0; i < nsrc; i++)
		world_set_node_hook(w, src[i].tr.src, src_hook, &src[i]);
	world_run(w, warm);
	uint64_t d0 = reads_done(src, nsrc);
	world_skip_stats(w, &s0);
	double pc[WORLD_MAX_NODES];
	for (unsigned p = 0; p < world_threads(w); p++)
		pc[p] = world_partition_cpu(w, p);
	double c0 = world_clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = now();
	world_run(w, cycles);
	double dt = now() - t0, cpu = world_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	world_skip_stats(w, &s1);
	r->rate = cycles / dt / 1e6;
	r->skipped = (double)(s1.skipped - s0.skipped) / ((double)cycles * t->n);
	r->done = reads_done(src, nsrc) - d0;
	printf("world_bench: %-20s %2u node(s) %-4s skip %-3s %u thread(s): %.4f M world cycles/s, "
	       "%.1f %% of node cycles skipped, %llu reads completed%s\n", t->name, t->n,
	       load_name[load], skip ? "on" : "off", world_threads(w), r->rate, 100 * r->skipped,
	       (unsigned long long)r->done, world_overrun(w) ? ", OVERRUN" : "");
	/* where the time went: the process's CPU against the wall, and with
	 * threads each partition's CPU stepping (the rest: barriers, merging) */
	printf("world_bench:   wall %.2f s, process CPU %.2f s (%.2f CPUs)", dt, cpu, cpu / dt);
	for (unsigned p = 0; world_threads(w) > 1 && p < world_threads(w); p++)
		printf("%s partition %u %.2f s", p ? "," : ";", p, world_partition_cpu(w, p) - pc[p]);
	printf("\n");
	bool bad = world_overrun(w) || (load && r->done == 0);
	world_destroy(w);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long cycles = 20000, warm = 20 * WORLD_SKIP_PERIOD;
	struct extoll_topo topo[16];
	struct result res[16][2][6];
	unsigned nt = 0, threads = 1, nload = 2;
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
		if (!strcmp(argv[i], "-t") && i + 1 < argc) {
			threads = (unsigned)strtoul(argv[++i], NULL, 0);
			continue;
		}
		if (!strcmp(argv[i], "-a")) {
			nload = 3;
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
	if (!nt || !cycles || threads < 1 || threads > WORLD_MAX_NODES) {
		fprintf(stderr, "usage: world_bench [-n CYCLES] [-w WARMUP] [-t THREADS] [-a] TOPOLOGY.topo ...\n");
		return 2;
	}
	unsigned nth = threads > 1 ? 2 : 1;
	for (unsigned i = 0; i < nt; i++)
		for (unsigned h = 0; h < nth; h++)
			for (unsigned m = 0; m < 2 * nload; m++) {
				res[i][h][m].rate = 0;
				if (m / 2 == 2 && topo[i].n < 2)
					continue;       /* all-to-all: needs another node */
				if (run(&topo[i], m / 2, m & 1, h ? threads : 1, warm, cycles,
					&res[i][h][m]) < 0)
					rc = 1;
			}
	printf("\n| nodes | topology | threads | idle, skip off | idle, skip on | one path, skip off | "
	       "one path, skip on |%s\n|---|---|---|---|---|---|---|%s\n",
	       nload > 2 ? " all-to-all, skip off | all-to-all, skip on |" : "",
	       nload > 2 ? "---|---|" : "");
	for (unsigned i = 0; i < nt; i++)
		for (unsigned h = 0; h < nth; h++) {
			printf("| %u | %s | %u |", topo[i].n, topo[i].name, h ? threads : 1);
			for (unsigned m = 0; m < 2 * nload; m++)
				printf(res[i][h][m].rate > 0 ? " %.4f |" : " - |", res[i][h][m].rate);
			printf("\n");
		}
	printf("(M world cycles/s; %lu cycles measured after %lu of warm-up; skip period %u)\n", cycles,
	       warm, WORLD_SKIP_PERIOD);
	return rc;
}
