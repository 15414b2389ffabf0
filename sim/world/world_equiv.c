// SPDX-License-Identifier: Apache-2.0
/*
 * world_equiv: skipping idle nodes and the partitioned world are cycle-exact
 * (docs/cosim.md "Skipping idle nodes", "Partitioned world").  Runs one world
 * four times under the same fixed pattern: plain lockstep (skipping off, one
 * thread), with skipping, partitioned over THREADS threads (default 2) with
 * skipping, and partitioned without; each is compared with the plain run:
 *   - every packet on every link: link, direction, VC, CRC, flits and the
 *     world cycle of its last flit (world_set_packet_hook), in order;
 *   - the host's completions (cycle and data: the remote node's free-running
 *     info.cycles, so a counter not advanced over a skip shows);
 *   - the flit and control-word counts of all wires;
 *   - at the end, every node's cycle count and, read by the host over the
 *     network (one more completion each, in the completion hash), every
 *     other node's info.cycles, router.crc_errors, router.replays,
 *     router.link_status and rra.served (the RTL state seen from outside:
 *     the bytes of two Verilated instances cannot be compared, their padding
 *     holds whatever the compiled code left there).
 * The pattern (world cycles): remote register reads host -> naa node
 * (world_traffic.h) in [2000, 30000), idle, a link between two non-host nodes
 * down at 45000 and up at 52000, a non-host node reset at 60000, killed at
 * 70000 and revived at 76000, reads again in [85000, 95000), a bit-error rate
 * of 1e-5 on every wire in [96000, 98000), idle until -n (default 120000),
 * then the register sweep (one read at a time).  The skipping run must also have skipped (sleeps and wakes).
 * The partitioned runs drive the host through a node hook (world_set_node_hook,
 * in the host's thread) and step with world_run between the pattern's events;
 * the register sweep with world_step (windows of one cycle).
 *   world_equiv [-n CYCLES] [-t THREADS] TOPOLOGY.topo
 * Exit 0: equal; 1: a difference (the first one is reported); 2: usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extoll_regs.h"
#include "world.h"
#include "world_traffic.h"

struct pkt_rec {
	uint64_t cycle;
	uint32_t crc;
	uint16_t link, src, vc, nflits;
};

struct run {
	struct pkt_rec *pkt;
	size_t npkt, cap;
	uint64_t done, hash, flits, ctl, sig;
	struct world_skip_stats sk;
	uint64_t *cycles;
	uint64_t sweep_done, sweep_lost;
};

static bool pkt_eq(const struct pkt_rec *a, const struct pkt_rec *b)
{
	return a->cycle == b->cycle && a->crc == b->crc && a->link == b->link && a->src == b->src &&
	       a->vc == b->vc && a->nflits == b->nflits;
}

static void on_packet(void *ctx, const struct world_packet *p)
{
	struct run *r = ctx;

	if (r->npkt == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		struct pkt_rec *n = realloc(r->pkt, cap * sizeof(*n));

		if (!n) {
			fprintf(stderr, "world_equiv: out of memory\n");
			exit(2);
		}
		r->pkt = n;
		r->cap = cap;
	}
	r->pkt[r->npkt++] = (struct pkt_rec){ p->cycle, p->crc, (uint16_t)p->link, (uint16_t)p->src,
					      (uint16_t)p->vc, (uint16_t)p->nflits };
}

/* a non-host node other than dst, preferring the highest id; or -1 */
static int pick_node(const struct extoll_topo *t, unsigned not)
{
	for (int i = (int)t->n - 1; i >= 0; i--)
		if (extoll_topo_role(t, (unsigned)i) != EXTOLL_TOPO_HOST && (unsigned)i != not)
			return i;
	return -1;
}

static unsigned path_dst(const struct extoll_topo *t)
{
	for (unsigned i = 0; i < t->n; i++)
		if (extoll_topo_role(t, i) == EXTOLL_TOPO_NAA)
			return i;
	return 1;
}

/* the registers every node is asked for at the end */
static const uint32_t sweep_regs[] = {
	EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES,
	EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_CRC_ERRORS,
	EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_REPLAYS,
	EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_LINK_STATUS,
	EXTOLL_RRA_BASE + EXTOLL_RRA_SERVED,
};

/* read sweep_regs of every node but the host, one read at a time, each
 * waited for (a lost one counts after the traffic's timeout) */
static void sweep(struct world *w, struct world_traffic *tr, struct run *r)
{
	const struct extoll_topo *t = world_topology(w);
	char err[256];

	for (unsigned i = 0; i < t->n; i++) {
		if (i == world_host_node(w, 0))
			continue;
		for (unsigned k = 0; k < sizeof(sweep_regs) / sizeof(sweep_regs[0]); k++) {
			uint64_t done = tr->done, lost = tr->timeouts;

			while (tr->outstanding) {
				world_traffic_poll(tr, false);
				world_step(w);
			}
			if (world_traffic_retarget(tr, i, sweep_regs[k], err, sizeof(err)))
				break;
			world_traffic_poll(tr, true);
			while (tr->done == done && tr->timeouts == lost) {
				world_step(w);
				world_traffic_poll(tr, false);
			}
			r->sweep_done += tr->done - done;
			r->sweep_lost += tr->timeouts - lost;
		}
	}
}

/* the host's traffic in the partitioned runs: polled in its thread */
struct host_hook {
	struct world_traffic *tr;
};

static bool pattern_go(uint64_t c)
{
	return (c >= 2000 && c < 30000) || (c >= 85000 && c < 95000);
}

static void host_hook(void *ctx, uint64_t c)
{
	struct host_hook *h = ctx;

	world_traffic_poll_at(h->tr, c, pattern_go(c));
}

static const uint64_t events[] = { 45000, 52000, 60000, 70000, 76000, 96000, 98000 };

static int run_world(const struct extoll_topo *t, unsigned period, unsigned threads, uint64_t cycles,
		     struct run *r)
{
	char err[256];
	struct world_traffic tr;
	struct world *w = world_create(t, NULL, NULL, NULL, err, sizeof(err));
	unsigned dst = path_dst(t);
	int victim = pick_node(t, dst);

	if (!w || world_set_skip(w, period) < 0 ||
	    world_traffic_init(&tr, w, dst, EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, err, sizeof(err))) {
		fprintf(stderr, "world_equiv: %s\n", w ? err : "cannot build the world");
		world_destroy(w);
		return -1;
	}
	world_set_packet_hook(w, on_packet, r);
	struct host_hook hh = { &tr };
	if (threads > 1) {
		if (world_set_threads(w, threads) < 0 || world_threads(w) != threads) {
			fprintf(stderr, "world_equiv: cannot partition %s over %u threads\n", t->name,
				threads);
			world_destroy(w);
			return -1;
		}
		world_set_node_hook(w, world_host_node(w, 0), host_hook, &hh);
	}
	for (uint64_t c = 0; c < cycles; c++) {
		bool go = pattern_go(c);

		if (victim >= 0 && c == 45000)
			world_link_set(w, (unsigned)victim, 1, false);
		if (victim >= 0 && c == 52000)
			world_link_set(w, (unsigned)victim, 1, true);
		if (victim >= 0 && c == 60000)
			world_node_reset(w, (unsigned)victim);
		if (victim >= 0 && c == 70000)
			world_node_set(w, (unsigned)victim, false);
		if (victim >= 0 && c == 76000)
			world_node_set(w, (unsigned)victim, true);
		if (c == 96000)
			world_set_ber(w, 1e-5);
		if (c == 98000)
			world_set_ber(w, 0);
		if (threads > 1) {
			/* to the next event: one world_run, windows of lookahead cycles */
			uint64_t next = cycles;

			for (unsigned i = 0; i < sizeof(events) / sizeof(events[0]); i++)
				if (events[i] > c && events[i] < next)
					next = events[i];
			world_run(w, next - c);
			c = next - 1;
			continue;
		}
		world_traffic_poll(&tr, go);
		world_step(w);
	}
	if (threads > 1)
		world_set_node_hook(w, world_host_node(w, 0), NULL, NULL);
	sweep(w, &tr, r);
	world_skip_stats(w, &r->sk);
	world_skip_sync(w);
	r->done = tr.done;
	r->hash = tr.hash;
	r->flits = world_flits(w);
	r->ctl = world_ctl_words(w);
	r->sig = world_link_signature(w);
	r->cycles = calloc(t->n, sizeof(*r->cycles));
	for (unsigned i = 0; r->cycles && i < t->n; i++) {
		size_t len;

		world_node_state(w, i, &len, &r->cycles[i]);
	}
	printf("world_equiv: %s skip period %u, %u thread(s): %llu cycles, %zu packets, %llu flits, %llu control words, "
	       "%llu reads completed (%llu of them the register sweep, %llu lost); %llu sleeps, %llu wakes, "
	       "%llu node cycles skipped (%.1f %%)\n",
	       t->name, period, world_threads(w), (unsigned long long)cycles, r->npkt, (unsigned long long)r->flits,
	       (unsigned long long)r->ctl, (unsigned long long)r->done,
	       (unsigned long long)r->sweep_done, (unsigned long long)r->sweep_lost,
	       (unsigned long long)r->sk.sleeps,
	       (unsigned long long)r->sk.wakes, (unsigned long long)r->sk.skipped,
	       100.0 * (double)r->sk.skipped / ((double)cycles * t->n));
	world_destroy(w);
	return 0;
}

static int compare(const struct extoll_topo *t, const struct run *a, const struct run *b,
		   const char *bname, bool skipped)
{
	int bad = 0;

	for (size_t i = 0; i < a->npkt && i < b->npkt; i++)
		if (!pkt_eq(&a->pkt[i], &b->pkt[i])) {
			printf("world_equiv: FAIL: packet %zu differs: link %u cycle %llu crc %08x (plain) vs "
			       "link %u cycle %llu crc %08x (%s)\n", i, a->pkt[i].link,
			       (unsigned long long)a->pkt[i].cycle, a->pkt[i].crc, b->pkt[i].link,
			       (unsigned long long)b->pkt[i].cycle, b->pkt[i].crc, bname);
			bad = 1;
			break;
		}
	if (a->npkt != b->npkt) {
		printf("world_equiv: FAIL: %zu packets (plain) vs %zu (%s)\n", a->npkt, b->npkt, bname);
		bad = 1;
	}
	if (a->done != b->done || a->hash != b->hash) {
		printf("world_equiv: FAIL: completions %llu hash %016llx (plain) vs %llu hash %016llx (%s)\n",
		       (unsigned long long)a->done, (unsigned long long)a->hash,
		       (unsigned long long)b->done, (unsigned long long)b->hash, bname);
		bad = 1;
	}
	if (a->flits != b->flits || a->ctl != b->ctl || a->sig != b->sig) {
		printf("world_equiv: FAIL: flits/control words/link signature %llu/%llu/%016llx (plain) vs "
		       "%llu/%llu/%016llx (%s)\n",
		       (unsigned long long)a->flits, (unsigned long long)a->ctl, (unsigned long long)a->sig,
		       (unsigned long long)b->flits, (unsigned long long)b->ctl, (unsigned long long)b->sig,
		       bname);
		bad = 1;
	}
	for (unsigned i = 0; i < t->n; i++)
		if (!a->cycles || !b->cycles || a->cycles[i] != b->cycles[i]) {
			printf("world_equiv: FAIL: node %u: %llu cycles (plain) vs %llu (%s)\n", i,
			       a->cycles ? (unsigned long long)a->cycles[i] : 0ull,
			       b->cycles ? (unsigned long long)b->cycles[i] : 0ull, bname);
			bad = 1;
		}
	if (a->sweep_done != b->sweep_done || a->sweep_lost || b->sweep_lost) {
		printf("world_equiv: FAIL: register sweep: %llu read, %llu lost (plain) vs %llu, %llu (%s)\n",
		       (unsigned long long)a->sweep_done, (unsigned long long)a->sweep_lost,
		       (unsigned long long)b->sweep_done, (unsigned long long)b->sweep_lost, bname);
		bad = 1;
	}
	if (skipped && (!b->sk.sleeps || !b->sk.wakes || !b->sk.skipped)) {
		printf("world_equiv: FAIL: the %s run did not skip (%llu sleeps, %llu wakes)\n", bname,
		       (unsigned long long)b->sk.sleeps, (unsigned long long)b->sk.wakes);
		bad = 1;
	}
	if (!a->done) {
		printf("world_equiv: FAIL: no read completed: the pattern has no traffic\n");
		bad = 1;
	}
	return bad;
}

int main(int argc, char **argv)
{
	uint64_t cycles = 120000;
	const char *path = NULL;
	struct extoll_topo t;
	char err[256];
	struct run plain = { 0 }, skip = { 0 }, part = { 0 }, part_ns = { 0 };
	unsigned threads = 2;

	setenv("COSIM_FLASH_DIR", "none", 0);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			cycles = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			threads = (unsigned)strtoul(argv[++i], NULL, 0);
		else
			path = argv[i];
	}
	if (!path || cycles < 100000 || threads < 2) {
		fprintf(stderr, "usage: world_equiv [-n CYCLES >= 100000] [-t THREADS >= 2] TOPOLOGY.topo\n");
		return 2;
	}
	if (extoll_topo_load(path, &t, err, sizeof(err))) {
		fprintf(stderr, "world_equiv: %s\n", err);
		return 2;
	}
	if (run_world(&t, 0, 1, cycles, &plain) || run_world(&t, WORLD_SKIP_PERIOD, 1, cycles, &skip) ||
	    run_world(&t, WORLD_SKIP_PERIOD, threads, cycles, &part) || run_world(&t, 0, threads, cycles, &part_ns))
		return 2;
	int bad = compare(&t, &plain, &skip, "skipping", true);
	bad |= compare(&t, &plain, &part, "partitioned, skipping", true);
	bad |= compare(&t, &plain, &part_ns, "partitioned", false);
	if (bad)
		return 1;
	printf("world_equiv: %s: plain lockstep, skipping and partitioned (%u threads, with and without "
	       "skipping) equal (%zu packets, %llu completions "
	       "incl. %llu register reads of the %u other nodes, %u node cycle counts)\n", t.name, threads,
	       plain.npkt, (unsigned long long)plain.done, (unsigned long long)plain.sweep_done,
	       t.n - 1, t.n);
	return 0;
}
