// SPDX-License-Identifier: Apache-2.0
/*
 * world_mpi: the distributed world (docs/cosim.md "Distributed world (MPI)").
 * Run by mpirun as P ranks; every rank builds the whole world of each
 * topology and evaluates partition `rank` of it (world_set_distributed: the
 * partitioning of the threads, contiguous node ids); after each window of
 * link latency + 1 cycles the symbols on the wires that cross partitions go
 * to the neighbouring ranks, one message per neighbour and window each way
 * (MPI_Irecv/MPI_Isend, MPI_Waitall).  At the end rank 0 gathers every
 * rank's share and runs the same world with the same traffic as one process
 * (the other ranks wait), then compares:
 *   - the packet trace: every packet on every link (link, direction, VC, CRC,
 *     flits, world cycle of its last flit), in the single process's order;
 *   - every node's cycle count;
 *   - every traffic source's reads: completed, lost, and the hash of the
 *     completions with their cycles (the data read: remote nodes' info.cycles
 *     and router counters);
 *   - the link totals (flits, control words, bit flips) and the link signature
 *     (world_link_signature).
 * Load (-l): pattern (default): all-to-all reads (world_bench -a: every node
 * with a PCIe side reads every other node in turn, one read outstanding each,
 * polled by node hooks) in [2000, 40 %) of the cycles, idle, a link between two
 * partitions down at 45 % and up at 52 %, the highest non-host node killed at
 * 55 % and revived at 60 %, the lowest non-host node reset at 62 %, a bit-error
 * rate of 1e-5 on every wire in [65 %, 68 %), all-to-all reads again in
 * [72 %, 95 %) (info.cycles, router.crc_errors, replays, link_status,
 * rra.served in turn), idle to the end.  all: all-to-all reads of
 * info.cycles from cycle 0, no faults; idle: neither.  Both runs print their
 * wall time and world cycles/s (world creation not included).
 *   mpirun -n P world_mpi [-n CYCLES] [-s SKIP_PERIOD] [-l pattern|all|idle] [-p P] TOPOLOGY.topo ...
 * -p P: the partitions expected (default: the ranks; a mismatch is an error).
 * Exit 0: equal; 1: a difference (each differing item is printed); 2: usage
 * or an error.
 */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "extoll_regs.h"
#include "world.h"
#include "world_traffic.h"

#define TAG_WINDOW 12

/* a packet; wire = 2 * link + direction (the world's wire index) */
struct pkt_rec {
	uint64_t cycle;
	uint32_t crc;
	uint16_t link, wire, src, dst, vc, nflits;
};

/* a node: its cycle count and, for a traffic source, its reads */
struct node_rec {
	uint64_t cycles, done, lost, hash;
	uint32_t owned, source;
};

struct totals {
	uint64_t flits, ctl, sig, flips, npkt;
	uint64_t sleeps, wakes, skipped;
	uint64_t windows, msgs, bytes;
	double wall, cpu, step, wait;   /* wall; process CPU; CPU stepping the models; in the exchange */
};

struct result {
	struct pkt_rec *pkt;
	size_t npkt, cap;
	struct node_rec node[WORLD_MAX_NODES];
	struct totals tot;
};

enum load { LOAD_PATTERN, LOAD_ALL, LOAD_IDLE };
static const char *const load_name[] = { "pattern", "all", "idle" };

struct cfg {
	uint64_t cycles;
	unsigned skip, parts;
	enum load load;
};

static int rank, nranks;

static void die_oom(void)
{
	fprintf(stderr, "world_mpi: rank %d: out of memory\n", rank);
	MPI_Abort(MPI_COMM_WORLD, 2);
}

static void on_packet(void *ctx, const struct world_packet *p)
{
	struct result *r = ctx;

	if (r->npkt == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		struct pkt_rec *n = realloc(r->pkt, cap * sizeof(*n));

		if (!n)
			die_oom();
		r->pkt = n;
		r->cap = cap;
	}
	/* wire 2 l runs from the link's + port (even), 2 l + 1 back from its - port */
	r->pkt[r->npkt++] = (struct pkt_rec){ .cycle = p->cycle, .crc = p->crc, .link = (uint16_t)p->link,
					      .wire = (uint16_t)(2 * p->link + (p->src_port & 1)),
					      .src = (uint16_t)p->src, .dst = (uint16_t)p->dst,
					      .vc = (uint16_t)p->vc, .nflits = (uint16_t)p->nflits };
}

/* the schedule (the pattern's fractions of the cycles) */
static bool load_on(const struct cfg *g, uint64_t c)
{
	switch (g->load) {
	case LOAD_ALL:
		return true;
	case LOAD_IDLE:
		return false;
	default:
		return (c >= 2000 && c < g->cycles * 40 / 100) ||
		       (c >= g->cycles * 72 / 100 && c < g->cycles * 95 / 100);
	}
}

static const uint32_t regs[] = {
	EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES,
	EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_CRC_ERRORS,
	EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_REPLAYS,
	EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_LINK_STATUS,
	EXTOLL_RRA_BASE + EXTOLL_RRA_SERVED,
};

/* a node's all-to-all reads: the next node in turn, one read outstanding */
struct src {
	struct world_traffic tr;
	const struct cfg *g;
	unsigned n, next, round;
};

static void src_hook(void *ctx, uint64_t c)
{
	struct src *s = ctx;
	char err[256];

	world_traffic_poll_at(&s->tr, c, false);
	if (s->tr.outstanding || !load_on(s->g, c))
		return;
	if (++s->next == s->tr.src)
		s->next++;
	if (s->next >= s->n) {
		s->next = s->tr.src == 0 ? 1 : 0;
		s->round++;
	}
	uint32_t reg = s->g->load == LOAD_PATTERN && c >= s->g->cycles * 72 / 100 ?
			       regs[s->round % (sizeof(regs) / sizeof(regs[0]))] : regs[0];
	world_traffic_retarget(&s->tr, s->next, reg, err, sizeof(err));
	world_traffic_poll_at(&s->tr, c, true);
}

/* the pattern's fault victims (the same in both runs: from the partitioning
 * into g->parts, not from how the run is stepped) */
struct victims {
	int cut_node, cut_port;         /* a link between two partitions */
	int dead, reset;                /* highest / lowest non-host node */
};

static void pick_victims(const struct extoll_topo *t, unsigned parts, struct victims *v)
{
	*v = (struct victims){ -1, -1, -1, -1 };
	for (int i = (int)t->n - 1; i >= 0 && v->dead < 0; i--)
		if (extoll_topo_role(t, (unsigned)i) != EXTOLL_TOPO_HOST)
			v->dead = i;
	for (unsigned i = 0; i < t->n && v->reset < 0; i++)
		if (extoll_topo_role(t, i) != EXTOLL_TOPO_HOST && (int)i != v->dead)
			v->reset = (int)i;
	for (unsigned i = 0; i < t->n && v->cut_node < 0; i++)
		for (unsigned p = 0; p < 6 && v->cut_node < 0; p++) {
			if (!extoll_topo_link_cabled(t, i, p))
				continue;
			unsigned j = extoll_torus_neighbour(&t->torus, i, p);

			if (i * parts / t->n != j * parts / t->n) {
				v->cut_node = (int)i;
				v->cut_port = (int)p;
			}
		}
}

/* how a rank waits for its neighbours' symbols (-w) */
enum wait { WAIT_SPIN, WAIT_YIELD, WAIT_SLEEP };
static const char *const wait_name[] = { "spin", "yield", "sleep" };
static enum wait wait_mode = WAIT_SLEEP;

struct xstat {
	uint64_t windows, msgs, bytes;
	double wait;
};

/* world_exchange_fn: one message to and one from each neighbouring rank */
static int mpi_exchange(void *ctx, unsigned npeers, const unsigned *peer, void *const *sendbuf,
			const size_t *sendlen, void *const *recvbuf, const size_t *recvlen)
{
	struct xstat *x = ctx;
	MPI_Request rq[2 * WORLD_MAX_NODES];
	int n = 0, rc = MPI_SUCCESS;
	double t0 = MPI_Wtime();

	for (unsigned k = 0; k < npeers && rc == MPI_SUCCESS; k++)
		if (recvlen[k])
			rc = MPI_Irecv(recvbuf[k], (int)recvlen[k], MPI_BYTE, (int)peer[k], TAG_WINDOW,
				       MPI_COMM_WORLD, &rq[n++]);
	for (unsigned k = 0; k < npeers && rc == MPI_SUCCESS; k++)
		if (sendlen[k]) {
			rc = MPI_Isend(sendbuf[k], (int)sendlen[k], MPI_BYTE, (int)peer[k], TAG_WINDOW,
				       MPI_COMM_WORLD, &rq[n++]);
			x->msgs++;
			x->bytes += sendlen[k];
		}
	if (rc == MPI_SUCCESS && wait_mode == WAIT_SPIN)
		rc = MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
	else if (rc == MPI_SUCCESS) {
		/* poll, then give the core away: the ranks share the cores with other work */
		int done = 0;

		for (unsigned k = 0; (rc = MPI_Testall(n, rq, &done, MPI_STATUSES_IGNORE)) == MPI_SUCCESS &&
				     !done; k++)
			if (k >= 64 && wait_mode == WAIT_SLEEP)
				nanosleep(&(struct timespec){ 0, 20000 }, NULL);
			else if (k >= 16)
				sched_yield();
	}
	x->wait += MPI_Wtime() - t0;
	x->windows++;
	return rc == MPI_SUCCESS ? 0 : -1;
}

static double now(void)
{
	return world_clock_s(CLOCK_MONOTONIC);
}

static double cpu_now(void)
{
	return world_clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* One run of the pattern: distributed (this rank's partition) or, with
 * dist false, the whole world in this process.  Returns 0 or -1. */
static int run_world(const struct extoll_topo *t, const struct cfg *g, bool dist, struct result *r)
{
	char err[256];
	static struct src src[WORLD_MAX_NODES];
	struct xstat xs = { 0 };
	struct victims v;
	struct world *w = world_create(t, NULL, NULL, NULL, err, sizeof(err));

	memset(r, 0, sizeof(*r));
	if (!w) {
		fprintf(stderr, "world_mpi: rank %d: %s\n", rank, err);
		return -1;
	}
	if (world_set_threads(w, 1) < 0 || world_set_skip(w, g->skip) < 0 ||
	    (dist && world_set_distributed(w, (unsigned)nranks, (unsigned)rank, mpi_exchange, &xs) < 0)) {
		fprintf(stderr, "world_mpi: rank %d: cannot set up %s over %d ranks\n", rank, t->name, nranks);
		world_destroy(w);
		return -1;
	}
	pick_victims(t, g->parts, &v);
	world_set_packet_hook(w, on_packet, r);
	unsigned nsrc = 0;
	for (unsigned i = 0; g->load != LOAD_IDLE && i < t->n; i++) {
		struct src *s = &src[nsrc];

		if (!world_node_model(w, i)->backend->upstream)
			continue;
		*s = (struct src){ .g = g, .n = t->n, .next = i ? 0 : 1 };
		if (world_traffic_init_node(&s->tr, w, i, s->next, regs[0], err, sizeof(err)) < 0) {
			fprintf(stderr, "world_mpi: %s\n", err);
			world_destroy(w);
			return -1;
		}
		world_set_node_hook(w, i, src_hook, s);
		nsrc++;
	}
	const uint64_t N = g->cycles;
	const struct {
		uint64_t at;
		int what;
	} ev[] = {
		{ N * 45 / 100, 0 }, { N * 52 / 100, 1 }, { N * 55 / 100, 2 }, { N * 60 / 100, 3 },
		{ N * 62 / 100, 4 }, { N * 65 / 100, 5 }, { N * 68 / 100, 6 }, { N, -1 },
	};
	if (dist)
		MPI_Barrier(MPI_COMM_WORLD);
	double t0 = now(), c0 = cpu_now();
	uint64_t c = 0;
	for (unsigned k = 0; k < sizeof(ev) / sizeof(ev[0]); k++) {
		world_run(w, ev[k].at - c);
		c = ev[k].at;
		if (g->load != LOAD_PATTERN)
			continue;
		switch (ev[k].what) {
		case 0:
		case 1:
			if (v.cut_node >= 0)
				world_link_set(w, (unsigned)v.cut_node, (unsigned)v.cut_port, ev[k].what == 1);
			break;
		case 2:
		case 3:
			if (v.dead >= 0)
				world_node_set(w, (unsigned)v.dead, ev[k].what == 3);
			break;
		case 4:
			if (v.reset >= 0)
				world_node_reset(w, (unsigned)v.reset);
			break;
		case 5:
		case 6:
			world_set_ber(w, ev[k].what == 5 ? 1e-5 : 0);
			break;
		}
	}
	r->tot.wall = now() - t0;
	r->tot.cpu = cpu_now() - c0;
	if (dist) {
		/* the slowest rank's wall time is the run's */
		MPI_Barrier(MPI_COMM_WORLD);
		r->tot.wall = now() - t0;
	}
	struct world_skip_stats sk;
	world_skip_stats(w, &sk);
	world_skip_sync(w);
	unsigned local = world_local_partition(w);
	for (unsigned i = 0; i < t->n; i++) {
		struct node_rec *n = &r->node[i];
		size_t len;

		if (world_node_partition(w, i) != local)
			continue;
		n->owned = 1;
		world_node_state(w, i, &len, &n->cycles);
	}
	for (unsigned k = 0; k < nsrc; k++) {
		struct node_rec *n = &r->node[src[k].tr.src];

		if (!n->owned)
			continue;
		n->source = 1;
		n->done = src[k].tr.done;
		n->lost = src[k].tr.timeouts;
		n->hash = src[k].tr.hash;
	}
	r->tot.flits = world_flits(w);
	r->tot.ctl = world_ctl_words(w);
	r->tot.sig = world_link_signature(w);
	r->tot.flips = world_bit_flips(w);
	r->tot.npkt = r->npkt;
	r->tot.sleeps = sk.sleeps;
	r->tot.wakes = sk.wakes;
	r->tot.skipped = sk.skipped;
	r->tot.step = dist ? world_partition_cpu(w, local) : r->tot.cpu;
	r->tot.windows = xs.windows;
	r->tot.msgs = xs.msgs;
	r->tot.bytes = xs.bytes;
	r->tot.wait = xs.wait;
	if (world_overrun(w))
		fprintf(stderr, "world_mpi: rank %d: %s: a buffer overran (net_ovf)\n", rank, t->name);
	world_destroy(w);
	return 0;
}

static int pkt_order(const void *a, const void *b)
{
	const struct pkt_rec *x = a, *y = b;

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	return (x->wire > y->wire) - (x->wire < y->wire);
}

/* every rank's share to rank 0, merged into *all (rank 0 only) */
static int gather(const struct extoll_topo *t, struct result *mine, struct result *all,
		  struct totals *per_rank)
{
	size_t hdr = sizeof(mine->tot) + sizeof(mine->node);
	size_t len = hdr + mine->npkt * sizeof(struct pkt_rec);
	char *buf = malloc(len);
	int n = (int)len, *lens = NULL, *offs = NULL;
	char *rbuf = NULL;

	if (!buf || len > 0x7fffffff)
		die_oom();
	memcpy(buf, &mine->tot, sizeof(mine->tot));
	memcpy(buf + sizeof(mine->tot), mine->node, sizeof(mine->node));
	if (mine->npkt)
		memcpy(buf + hdr, mine->pkt, mine->npkt * sizeof(struct pkt_rec));
	if (rank == 0) {
		lens = calloc((size_t)nranks, sizeof(int));
		offs = calloc((size_t)nranks, sizeof(int));
		if (!lens || !offs)
			die_oom();
	}
	MPI_Gather(&n, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		long total = 0;

		for (int i = 0; i < nranks; i++) {
			offs[i] = (int)total;
			total += lens[i];
		}
		if (total > 0x7fffffff || !(rbuf = malloc((size_t)total)))
			die_oom();
	}
	MPI_Gatherv(buf, n, MPI_BYTE, rbuf, lens, offs, MPI_BYTE, 0, MPI_COMM_WORLD);
	free(buf);
	if (rank != 0)
		return 0;
	memset(all, 0, sizeof(*all));
	for (int i = 0; i < nranks; i++) {
		const char *p = rbuf + offs[i];
		struct totals tt;
		struct node_rec nr[WORLD_MAX_NODES];
		size_t np = ((size_t)lens[i] - hdr) / sizeof(struct pkt_rec);

		memcpy(&tt, p, sizeof(tt));
		memcpy(nr, p + sizeof(tt), sizeof(nr));
		per_rank[i] = tt;
		all->tot.flits += tt.flits;
		all->tot.ctl += tt.ctl;
		all->tot.sig += tt.sig;
		all->tot.flips += tt.flips;
		all->tot.npkt += tt.npkt;
		all->tot.sleeps += tt.sleeps;
		all->tot.wakes += tt.wakes;
		all->tot.skipped += tt.skipped;
		all->tot.cpu += tt.cpu;
		all->tot.step += tt.step;
		all->tot.msgs += tt.msgs;
		all->tot.bytes += tt.bytes;
		all->tot.windows = tt.windows;
		if (tt.wall > all->tot.wall)
			all->tot.wall = tt.wall;
		for (unsigned k = 0; k < t->n; k++)
			if (nr[k].owned) {
				if (all->node[k].owned)
					fprintf(stderr, "world_mpi: node %u reported by two ranks\n", k);
				all->node[k] = nr[k];
			}
		if (np) {
			struct pkt_rec *q = realloc(all->pkt, (all->npkt + np) * sizeof(*q));

			if (!q)
				die_oom();
			all->pkt = q;
			memcpy(all->pkt + all->npkt, p + hdr, np * sizeof(*q));
			all->npkt += np;
		}
	}
	/* the order of one process: cycle, then wire (at most one packet per wire and cycle) */
	if (all->npkt)
		qsort(all->pkt, all->npkt, sizeof(*all->pkt), pkt_order);
	free(rbuf);
	free(lens);
	free(offs);
	return 0;
}

static bool pkt_eq(const struct pkt_rec *a, const struct pkt_rec *b)
{
	return a->cycle == b->cycle && a->crc == b->crc && a->link == b->link && a->wire == b->wire &&
	       a->src == b->src && a->dst == b->dst && a->vc == b->vc && a->nflits == b->nflits;
}

/* rank 0: every item that differs, printed; 0 equal, 1 not */
static int compare(const struct extoll_topo *t, const struct result *s, const struct result *d)
{
	int bad = 0;
	const char *tn = t->name;

#define FAIL(...) do { printf("world_mpi: FAIL: %s: ", tn); printf(__VA_ARGS__); printf("\n"); bad = 1; } while (0)
	for (size_t i = 0; i < s->npkt && i < d->npkt; i++)
		if (!pkt_eq(&s->pkt[i], &d->pkt[i])) {
			FAIL("packet trace: packet %zu differs: link %u %u->%u vc %u %u flits crc %08x cycle %llu "
			     "(single) vs link %u %u->%u vc %u %u flits crc %08x cycle %llu (%d ranks)", i,
			     s->pkt[i].link, s->pkt[i].src, s->pkt[i].dst, s->pkt[i].vc, s->pkt[i].nflits,
			     s->pkt[i].crc, (unsigned long long)s->pkt[i].cycle, d->pkt[i].link, d->pkt[i].src,
			     d->pkt[i].dst, d->pkt[i].vc, d->pkt[i].nflits, d->pkt[i].crc,
			     (unsigned long long)d->pkt[i].cycle, nranks);
			break;
		}
	if (s->npkt != d->npkt)
		FAIL("packet trace: %zu packets (single) vs %zu (%d ranks)", s->npkt, d->npkt, nranks);
	for (unsigned i = 0; i < t->n; i++) {
		const struct node_rec *a = &s->node[i], *b = &d->node[i];

		if (!b->owned) {
			FAIL("node %u: no rank reported it", i);
			continue;
		}
		if (a->cycles != b->cycles)
			FAIL("node %u cycle count: %llu (single) vs %llu (%d ranks)", i,
			     (unsigned long long)a->cycles, (unsigned long long)b->cycles, nranks);
		if (a->source != b->source || a->done != b->done || a->lost != b->lost || a->hash != b->hash)
			FAIL("node %u reads: %llu completed, %llu lost, hash %016llx (single) vs %llu, %llu, "
			     "%016llx (%d ranks)", i, (unsigned long long)a->done, (unsigned long long)a->lost,
			     (unsigned long long)a->hash, (unsigned long long)b->done,
			     (unsigned long long)b->lost, (unsigned long long)b->hash, nranks);
	}
	if (s->tot.flits != d->tot.flits)
		FAIL("link flits: %llu (single) vs %llu (%d ranks)", (unsigned long long)s->tot.flits,
		     (unsigned long long)d->tot.flits, nranks);
	if (s->tot.ctl != d->tot.ctl)
		FAIL("link control words: %llu (single) vs %llu (%d ranks)", (unsigned long long)s->tot.ctl,
		     (unsigned long long)d->tot.ctl, nranks);
	if (s->tot.flips != d->tot.flips)
		FAIL("link bit flips: %llu (single) vs %llu (%d ranks)", (unsigned long long)s->tot.flips,
		     (unsigned long long)d->tot.flips, nranks);
	if (s->tot.sig != d->tot.sig)
		FAIL("link signature: %016llx (single) vs %016llx (%d ranks)", (unsigned long long)s->tot.sig,
		     (unsigned long long)d->tot.sig, nranks);
#undef FAIL
	return bad;
}

static uint64_t reads(const struct result *r, unsigned n)
{
	uint64_t d = 0;

	for (unsigned i = 0; i < n; i++)
		d += r->node[i].done;
	return d;
}

static void report(const struct extoll_topo *t, const struct cfg *g, const char *what,
		   const struct result *r)
{
	printf("world_mpi: %s %-8s %s: %llu cycles in %.2f s (%.0f world cycles/s), %zu packets, %llu flits, "
	       "%llu control words, %llu bit flips, signature %016llx, %llu reads; skip %u: %llu sleeps, "
	       "%.1f %% of node cycles skipped; CPU %.2f s (stepping the models %.2f s)\n",
	       t->name, load_name[g->load], what, (unsigned long long)g->cycles, r->tot.wall,
	       (double)g->cycles / r->tot.wall, r->npkt, (unsigned long long)r->tot.flits,
	       (unsigned long long)r->tot.ctl, (unsigned long long)r->tot.flips,
	       (unsigned long long)r->tot.sig, (unsigned long long)reads(r, t->n), g->skip,
	       (unsigned long long)r->tot.sleeps, 100.0 * (double)r->tot.skipped / ((double)g->cycles * t->n),
	       r->tot.cpu, r->tot.step);
}

/* rank != 0 while rank 0 runs alone: wait without spinning (a blocking MPI
 * call polls, taking a core from rank 0) */
static void idle_barrier(void)
{
	MPI_Request rq;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	while (MPI_Test(&rq, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
}

static int one_topology(const struct extoll_topo *t, const struct cfg *g)
{
	struct result mine, dist = { 0 }, single;
	struct totals per_rank[WORLD_MAX_NODES];
	int rc = 0, ok;

	ok = run_world(t, g, true, &mine) == 0;
	MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (!ok)
		return 2;
	gather(t, &mine, &dist, per_rank);
	free(mine.pkt);
	if (rank == 0) {
		rc = run_world(t, g, false, &single) ? 2 : 0;
		MPI_Request rq;
		MPI_Ibarrier(MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	} else
		idle_barrier();
	if (rank == 0 && rc == 0) {
		report(t, g, "single process", &single);
		char what[32];
		snprintf(what, sizeof(what), "%d ranks", nranks);
		report(t, g, what, &dist);
		for (int i = 0; i < nranks; i++)
			printf("world_mpi:   rank %d: %llu packets; CPU %.2f s, stepping the models %.2f s, "
			       "in the exchange %.2f s wall; %llu windows, %llu messages, %llu bytes sent\n", i,
			       (unsigned long long)per_rank[i].npkt, per_rank[i].cpu, per_rank[i].step, per_rank[i].wait,
			       (unsigned long long)per_rank[i].windows, (unsigned long long)per_rank[i].msgs,
			       (unsigned long long)per_rank[i].bytes);
		rc = compare(t, &single, &dist);
		if (!rc && reads(&single, t->n) == 0 && g->load != LOAD_IDLE) {
			printf("world_mpi: FAIL: %s: no read completed: the pattern has no traffic\n", t->name);
			rc = 1;
		}
		if (!rc)
			printf("world_mpi: %s: %d ranks equal the single process (%zu packets, %u node cycle "
			       "counts, %llu reads, link totals and signature)\n", t->name, nranks, single.npkt,
			       t->n, (unsigned long long)reads(&single, t->n));
		free(single.pkt);
	}
	free(dist.pkt);
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return rc;
}

static int usage(void)
{
	if (rank == 0)
		fprintf(stderr, "usage: mpirun -n P world_mpi [-n CYCLES >= 10000] [-s SKIP_PERIOD] "
			"[-l pattern|all|idle] [-w spin|yield|sleep] [-p P] TOPOLOGY.topo ...\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct cfg g = { .cycles = 24000, .skip = WORLD_SKIP_PERIOD, .load = LOAD_PATTERN };
	static struct extoll_topo topo[16];
	unsigned nt = 0;
	int rc = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	setenv("COSIM_FLASH_DIR", "none", 0);
	for (int i = 1; i < argc && !rc; i++) {
		char err[256], *end;

		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			g.cycles = strtoull(argv[++i], &end, 0);
			if (*end || g.cycles < 10000)
				rc = usage();
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			unsigned long v = strtoul(argv[++i], &end, 0);

			if (*end || v > WORLD_SKIP_MAX)
				rc = usage();
			g.skip = (unsigned)v;
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			g.parts = (unsigned)strtoul(argv[++i], &end, 0);
			if (*end || !g.parts)
				rc = usage();
		} else if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "spin"))
				wait_mode = WAIT_SPIN;
			else if (!strcmp(argv[i], "yield"))
				wait_mode = WAIT_YIELD;
			else if (!strcmp(argv[i], "sleep"))
				wait_mode = WAIT_SLEEP;
			else
				rc = usage();
		} else if (!strcmp(argv[i], "-l") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "pattern"))
				g.load = LOAD_PATTERN;
			else if (!strcmp(argv[i], "all"))
				g.load = LOAD_ALL;
			else if (!strcmp(argv[i], "idle"))
				g.load = LOAD_IDLE;
			else
				rc = usage();
		} else if (argv[i][0] == '-')
			rc = usage();
		else if (nt == sizeof(topo) / sizeof(topo[0])) {
			if (rank == 0)
				fprintf(stderr, "world_mpi: at most %u topologies\n", nt);
			rc = 2;
		} else if (extoll_topo_load(argv[i], &topo[nt], err, sizeof(err))) {
			if (rank == 0)
				fprintf(stderr, "world_mpi: %s\n", err);
			rc = 2;
		} else
			nt++;
	}
	if (!rc && !nt)
		rc = usage();
	if (!g.parts)
		g.parts = (unsigned)nranks;
	if (!rc && g.parts != (unsigned)nranks) {
		if (rank == 0)
			fprintf(stderr, "world_mpi: %d rank(s) for %u partitions: start it with mpirun -n %u\n",
				nranks, g.parts, g.parts);
		rc = 2;
	}
	if (!rc && nranks < 2) {
		if (rank == 0)
			fprintf(stderr, "world_mpi: 1 rank: the distributed world needs 2 or more "
				"(mpirun -n 2 world_mpi ...)\n");
		rc = 2;
	}
	for (unsigned i = 0; !rc && i < nt; i++)
		if ((unsigned)nranks > topo[i].n) {
			if (rank == 0)
				fprintf(stderr, "world_mpi: %s has %u node(s): at most %u rank(s) (one partition "
					"of contiguous node ids each)\n", topo[i].name, topo[i].n, topo[i].n);
			rc = 2;
		}
	/* every rank parses the same arguments and files, but agree anyway */
	MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (rank == 0 && !rc)
		printf("world_mpi: %d ranks, %llu cycles per run, load %s, skip period %u, waiting: %s\n",
		       nranks, (unsigned long long)g.cycles, load_name[g.load], g.skip, wait_name[wait_mode]);
	for (unsigned i = 0; rc < 2 && i < nt; i++) {
		int r = one_topology(&topo[i], &g);

		if (r > rc)
			rc = r;
		fflush(stdout);
	}
	MPI_Finalize();
	return rc;
}
