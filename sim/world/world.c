// SPDX-License-Identifier: Apache-2.0
/* The lockstep world of device models: see world.h. */
#include "world.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net_packet.h"

/* what one directed wire carries in one cycle: one link symbol */
struct wire_slot {
	uint32_t data[4];
	uint16_t frm;
	uint32_t crc;
};

/* src node's link port sp -> dst node's link port dp (flits src->dst and the
 * credits src returns for dst's flits) */
struct wire {
	unsigned src, sp, dst, dp;
	struct wire_slot *ring;         /* 2 (latency + 1) slots, indexed by cycle */
	struct wire_pkt *pkt;           /* the packet being sent (packet hook only) */
	uint32_t last_ctl[2];           /* the last control word's ACK and credits */
	uint8_t cap_seq;                /* packet hook: next link sequence number */
	double topo_ber;                /* the topology's link-ber, or -1: the world's */
	double ber;                     /* bit-error rate on this wire */
	int64_t next_err;               /* wire bits until the next error, -1: draw */
	uint64_t rng;                   /* this wire's bit errors (xorshift64*) */
	bool cut;                       /* link down (world_link_set): carries nothing */
};

/* flits of the packet on a wire so far, for the packet hook */
struct wire_pkt {
	uint32_t flit[WORLD_PKT_MAX_FLITS][4];
	unsigned n, vc;
	bool truncated;
};

/* Skipping an idle node (docs/cosim.md "Skipping idle nodes"): while awake,
 * every cycle's link inputs and outputs go into rings of `period` entries
 * (index cycle % period).  A snapshot of the RTL state (pcie_model_skip_state)
 * that recurs `period` cycles later (free-running counters advanced by
 * period) proves the node periodic: from then on (asleep, not evaluated) it
 * drives the recorded outputs as long as its inputs repeat the recorded ones.
 * An input that differs, or a call that needs the model (world_node_set,
 * world_node_reset, world_skip_sync), wakes it: the counters advance by the
 * whole periods slept (pcie_model_skip) and the rest is evaluated with the
 * recorded inputs, so the model is in exactly the state it would have had. */
struct node_skip {
	bool on;                        /* may be skipped: router and naa nodes */
	bool asleep;
	struct nic_links *in, *out;     /* rings: period entries each */
	uint8_t *snap;                  /* state snapshot (len bytes), or NULL */
	size_t len;
	bool have_snap;
	uint64_t snap_cycle;            /* the cycle whose start state snap is */
	uint64_t run;                   /* cycles of inputs/outputs equal to period ago */
	uint64_t next_try, backoff;     /* next snapshot not before; after a failure */
	uint64_t t0;                    /* asleep: first cycle not evaluated */
	struct world_skip_stats st;
};

struct node {
	enum extoll_topo_role role;
	struct pcie_model *m;
	struct nic_links in, out;
	bool dead;                      /* world_node_kill: not clocked, its wires cut */
	struct node_skip sk;
	unsigned part;                  /* the partition that steps it */
	world_node_fn hook;             /* world_set_node_hook, or NULL */
	void *hook_ctx;
};

/* a packet captured by a partition's thread, reported in world order after the run */
struct part_pkt {
	struct world_packet wp;
	unsigned wire;
	uint32_t flit[WORLD_PKT_MAX_FLITS][4];
};

/* Partitioned stepping (docs/cosim.md "Partitioned world"): partition p steps
 * its nodes, reads the wires into them and writes the wires out of them.  A
 * wire's symbol driven in cycle c is read in cycle c + latency + 1, so each
 * thread may run latency + 1 cycles (a window) without seeing the others;
 * the threads meet at one barrier per window.  What they count, and the
 * packets they capture, are merged by the calling thread after the run. */
struct part {
	struct world *w;
	unsigned id;
	uint64_t flits, credits, flipped, last_active, sig;
	bool any_active, ret;
	double cpu;                     /* thread CPU seconds stepping (partitioned only) */
	struct part_pkt *pkt;
	size_t npkt, cap;
	pthread_t th;
};

/* what the threads do after barrier k: win[k % 2] */
enum { WIN_RUN, WIN_PARK, WIN_STOP };
struct window {
	uint64_t start;
	unsigned len, cmd;
};

struct world {
	struct extoll_topo t;
	struct node node[WORLD_MAX_NODES];
	struct wire *wire;
	unsigned nwires, ring_len;
	unsigned host[WORLD_MAX_NODES], nhosts;
	uint64_t cycle, last_active, flits, credits, sig;
	world_packet_fn hook;
	void *hook_ctx;
	double ber;                     /* --ber: wires without a link-ber */
	uint64_t flipped;
	unsigned period;                /* skipping: period in cycles (0: off) */
	unsigned nparts;                /* partitions = threads (1: no thread started) */
	struct part part[WORLD_MAX_NODES];
	pthread_barrier_t bar;
	struct window win[2];
	uint64_t gen;                   /* barriers passed by the calling thread */
	unsigned lookahead;             /* cycles per window: latency + 1 */
	/* distributed (world_set_distributed): this process steps partition local */
	bool dist;
	unsigned local;
	world_exchange_fn exchange;
	void *xctx;
	unsigned npeers;
	struct peer *peer;
	unsigned *peer_id;              /* npeers: peer[k].part */
	void **sbuf, **rbuf;            /* npeers each: peer[k].send, .recv */
	size_t *slen, *rlen;
};

/* a neighbouring partition of a distributed world: the wires from our nodes to
 * its nodes (out) and from its nodes to ours (in), in index order, and the
 * buffers of one window: lookahead symbols per wire */
struct peer {
	unsigned part;
	unsigned *out, nout, *in, nin;
	struct wire_slot *send, *recv;
};

static void dist_free(struct world *w);

static const char *const port_name[] = { "X+", "X-", "Y+", "Y-", "Z+", "Z-", "spare" };

struct world *world_create(const struct extoll_topo *t, const struct pcie_model_backend *host_dev,
			   const struct pcie_model_backend *naa_dev, const char *fst_path, char *err,
			   size_t errlen)
{
	struct world *w;

	if (!host_dev)
		host_dev = &pcie_backend_nic;
	if (!naa_dev)
		naa_dev = &pcie_backend_naa;
	if (!host_dev->links && t->n > 1) {
		snprintf(err, errlen, "device %s has no network links: it can only be the one node "
			 "of a world (topology single), not a node of '%s' (%u nodes)",
			 host_dev->name, t->name, t->n);
		return NULL;
	}

	if (t->n > WORLD_MAX_NODES) {
		snprintf(err, errlen, "%s: %u nodes: at most %d (routing table size)", t->name, t->n,
			 WORLD_MAX_NODES);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	unsigned failed = 0;

	w->t = *t;
	w->lookahead = t->latency + 1;
	w->ring_len = 2 * w->lookahead;
	w->nparts = 1;
	w->part[0] = (struct part){ .w = w, .id = 0 };
	for (unsigned i = 0; i < t->n; i++) {
		struct node *n = &w->node[i];
		char name[32], fst[4096];
		const char *fp = NULL;
		uint8_t dl = extoll_torus_dateline(&t->torus, i);

		n->role = extoll_topo_role(t, i);
		snprintf(name, sizeof(name), "node%u", i);
		if (n->role == EXTOLL_TOPO_HOST)
			w->host[w->nhosts++] = i;
		if (fst_path) {
			if (n->role == EXTOLL_TOPO_HOST && w->nhosts == 1)
				fp = fst_path;
			else {
				snprintf(fst, sizeof(fst), "%s.node%u.fst", fst_path, i);
				fp = fst;
			}
		}
		failed = i;
		const struct pcie_model_params p = { name, fp, (uint16_t)i, dl };
		n->m = pcie_model_create(n->role == EXTOLL_TOPO_NAA  ? naa_dev :
					 n->role == EXTOLL_TOPO_HOST ? host_dev :
								       &pcie_backend_nic, &p);
		if (!n->m)
			goto fail;
	}
	/* every + port of every dimension longer than 1: one link, two wires
	 * (none for a missing-link of the topology: a failed link) */
	for (unsigned i = 0; i < t->n; i++)
		for (unsigned d = 0; d < 3; d++)
			if (extoll_topo_link_cabled(t, i, 2 * d))
				w->nwires += 2;
	w->wire = calloc(w->nwires ? w->nwires : 1, sizeof(*w->wire));
	if (!w->wire)
		goto oom;
	unsigned k = 0;
	for (unsigned i = 0; i < t->n; i++) {
		for (unsigned d = 0; d < 3; d++) {
			if (!extoll_topo_link_cabled(t, i, 2 * d))
				continue;
			unsigned j = extoll_torus_neighbour(&t->torus, i, 2 * d);
			w->wire[k++] = (struct wire){ .src = i, .sp = 2 * d, .dst = j, .dp = 2 * d + 1 };
			w->wire[k++] = (struct wire){ .src = j, .sp = 2 * d + 1, .dst = i, .dp = 2 * d };
		}
	}
	for (unsigned i = 0; i < w->nwires; i++) {
		w->wire[i].ring = calloc(w->ring_len, sizeof(struct wire_slot));
		if (!w->wire[i].ring)
			goto oom;
		w->wire[i].topo_ber = extoll_topo_link_ber(t, w->wire[i].src, w->wire[i].sp);
		w->wire[i].rng = 0x9E3779B97F4A7C15ull * (2 * i + 1);
	}
	world_set_ber(w, 0);
	const char *sk = getenv("COSIM_WORLD_SKIP");
	unsigned long period = WORLD_SKIP_PERIOD;
	if (sk && *sk) {
		char *end;

		period = strtoul(sk, &end, 0);
		if (*end || period > WORLD_SKIP_MAX) {
			snprintf(err, errlen, "COSIM_WORLD_SKIP=%s: a period in cycles, 0 (off) .. %u",
				 sk, WORLD_SKIP_MAX);
			world_destroy(w);
			return NULL;
		}
	}
	if (world_set_skip(w, (unsigned)period) < 0)
		goto oom;
	const char *th = getenv("COSIM_WORLD_THREADS");
	if (th && *th) {
		char *end;
		unsigned long n = strtoul(th, &end, 0);

		if (*end || n < 1 || n > WORLD_MAX_NODES) {
			snprintf(err, errlen, "COSIM_WORLD_THREADS=%s: threads, 1 .. %d", th,
				 WORLD_MAX_NODES);
			world_destroy(w);
			return NULL;
		}
		if (world_set_threads(w, (unsigned)n) < 0) {
			snprintf(err, errlen, "cannot start %lu threads", n);
			world_destroy(w);
			return NULL;
		}
	}
	return w;
oom:
	snprintf(err, errlen, "out of memory");
	world_destroy(w);
	return NULL;
fail:
	snprintf(err, errlen, "cannot create the model of node %u", failed);
	world_destroy(w);
	return NULL;
}

static void skip_free(struct node_skip *k)
{
	free(k->in);
	free(k->out);
	free(k->snap);
	k->in = k->out = NULL;
	k->snap = NULL;
	k->on = k->have_snap = false;
}

/* Wake a sleeping node at the start of cycle c (before it is evaluated):
 * whole periods by the counters, the rest evaluated with the recorded inputs. */
static void skip_wake(struct world *w, struct node *n, uint64_t c)
{
	struct node_skip *k = &n->sk;

	if (!k->asleep)
		return;
	uint64_t rest = (c - k->t0) % w->period;

	pcie_model_skip(n->m, c - k->t0 - rest);
	for (uint64_t i = 0; i < rest; i++) {
		pcie_model_links_set(n->m, &k->in[(k->t0 + i) % w->period]);
		pcie_model_step(n->m, 1);
	}
	k->st.skipped += c - k->t0 - rest;
	k->st.wakes++;
	k->asleep = false;
	k->have_snap = false;
	k->run = 0;
}

/* The model is about to be changed outside of its clock (reset, death):
 * wake it, and forget a snapshot (the period it would prove began before). */
static void skip_touch(struct world *w, struct node *n)
{
	skip_wake(w, n, w->cycle);
	n->sk.have_snap = false;
	n->sk.run = 0;
}

/* Does the state st repeat the snapshot, the free-running counters advanced by period? */
static bool skip_repeats(const struct world *w, struct node_skip *k, const uint8_t *st,
			 const size_t *cnt, unsigned ncnt)
{
	for (unsigned i = 0; i < ncnt; i++)
		pcie_state_add64(k->snap, cnt[i], w->period);
	return !memcmp(k->snap, st, k->len);
}

/* An awake node after its evaluation in cycle c: record its inputs and
 * outputs; snapshot its state once they have repeated for a period; sleep
 * when the state a period after the snapshot equals it. */
static void skip_observe(struct world *w, struct node *n, uint64_t c)
{
	struct node_skip *k = &n->sk;
	unsigned p = (unsigned)(c % w->period);
	size_t len;
	const size_t *cnt;
	unsigned ncnt;

	if (!memcmp(&k->in[p], &n->in, sizeof(n->in)) && !memcmp(&k->out[p], &n->out, sizeof(n->out)))
		k->run++;
	else
		k->run = 0;
	k->in[p] = n->in;
	k->out[p] = n->out;
	const uint8_t *st = pcie_model_skip_state(n->m, &len, &cnt, &ncnt);
	if (!st) {
		k->run = 0;
		k->have_snap = false;
		return;
	}
	if (k->have_snap && c + 1 - k->snap_cycle >= w->period) {
		k->st.tries++;
		if (c + 1 - k->snap_cycle == w->period && k->len == len &&
		    skip_repeats(w, k, st, cnt, ncnt)) {
			k->asleep = true;
			k->t0 = c + 1;
			k->backoff = 0;
			k->st.sleeps++;
			return;
		}
		k->have_snap = false;
		k->backoff = k->backoff ? (k->backoff < 64u * w->period ? 2 * k->backoff : k->backoff) : w->period;
		k->next_try = c + 1 + k->backoff;
		return;
	}
	if (k->have_snap || k->run < w->period || c + 1 < k->next_try)
		return;
	if (k->len != len) {
		free(k->snap);
		k->snap = malloc(len);
		k->len = k->snap ? len : 0;
		if (!k->snap)
			return;
	}
	memcpy(k->snap, st, len);
	k->have_snap = true;
	k->snap_cycle = c + 1;
}

int world_set_skip(struct world *w, unsigned period)
{
	for (unsigned i = 0; i < w->t.n; i++) {
		struct node *n = &w->node[i];

		skip_wake(w, n, w->cycle);
		skip_free(&n->sk);
	}
	w->period = 0;
	if (!period || !w->nwires)
		return 0;
	w->period = period;
	for (unsigned i = 0; i < w->t.n; i++) {
		struct node_skip *k = &w->node[i].sk;

		if (w->node[i].role == EXTOLL_TOPO_HOST || w->node[i].hook ||
		    !w->node[i].m->ops->skip_state)
			continue;
		k->in = calloc(period, sizeof(*k->in));
		k->out = calloc(period, sizeof(*k->out));
		if (!k->in || !k->out) {
			world_set_skip(w, 0);
			return -1;
		}
		k->on = true;
	}
	return 0;
}

unsigned world_skip_period(const struct world *w)
{
	return w->period;
}

void world_skip_sync(struct world *w)
{
	for (unsigned i = 0; i < w->t.n; i++)
		skip_wake(w, &w->node[i], w->cycle);
}

const void *world_node_state(const struct world *w, unsigned node, size_t *len, uint64_t *cycles)
{
	const size_t *cnt;
	unsigned ncnt;

	if (node >= w->t.n || w->node[node].sk.asleep)
		return NULL;
	*cycles = pcie_model_cycles(w->node[node].m);
	return pcie_model_skip_state(w->node[node].m, len, &cnt, &ncnt);
}

bool world_node_asleep(const struct world *w, unsigned node)
{
	return node < w->t.n && w->node[node].sk.asleep;
}

void world_skip_stats(const struct world *w, struct world_skip_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < w->t.n; i++) {
		const struct node_skip *k = &w->node[i].sk;

		s->sleeps += k->st.sleeps;
		s->wakes += k->st.wakes;
		s->tries += k->st.tries;
		s->skipped += k->st.skipped + (k->asleep ? w->cycle - k->t0 : 0);
	}
}

void world_destroy(struct world *w)
{
	if (!w)
		return;
	world_set_threads(w, 1);
	for (unsigned i = 0; i < w->nparts; i++)
		free(w->part[i].pkt);
	w->nparts = 1;
	w->dist = false;
	dist_free(w);
	for (unsigned i = 0; i < WORLD_MAX_NODES; i++) {
		pcie_model_destroy(w->node[i].m);
		skip_free(&w->node[i].sk);
	}
	for (unsigned i = 0; i < w->nwires; i++) {
		free(w->wire[i].ring);
		free(w->wire[i].pkt);
	}
	free(w->wire);
	free(w);
}

void world_set_packet_hook(struct world *w, world_packet_fn fn, void *ctx)
{
	for (unsigned i = 0; fn && i < w->nwires; i++)
		if (!w->wire[i].pkt)
			w->wire[i].pkt = calloc(1, sizeof(struct wire_pkt));
	w->hook = fn;
	w->hook_ctx = ctx;
}

static bool part_pkt_grow(struct part *pt)
{
	size_t cap = pt->cap ? 2 * pt->cap : 256;
	struct part_pkt *n = realloc(pt->pkt, cap * sizeof(*n));

	if (!n)
		return false;
	pt->pkt = n;
	pt->cap = cap;
	return true;
}

/* one data symbol leaving wire i's source: collect; on the last, report the
 * packet.  Each packet once: a replay (link sequence number already reported)
 * is not captured again. */
static void capture_flit(struct world *w, struct part *pt, unsigned i, const struct wire_slot *s,
			 uint64_t c)
{
	struct wire *e = &w->wire[i];
	struct wire_pkt *p = e->pkt;
	uint64_t f = s->frm;
	unsigned seq = (unsigned)net_lfrm_get_seq(&f);

	if (!p)
		return;
	if (net_lfrm_get_first(&f)) {
		p->n = 0;
		p->truncated = false;
	}
	if (seq != e->cap_seq)
		return;
	if (p->n == 0)
		p->vc = (unsigned)net_lfrm_get_vc(&f);
	if (p->n < WORLD_PKT_MAX_FLITS)
		memcpy(p->flit[p->n++], s->data, sizeof(s->data));
	else
		p->truncated = true;
	if (!net_lfrm_get_last(&f))
		return;
	const struct world_packet wp = {
		.link = i / 2, .src = e->src, .src_port = e->sp, .dst = e->dst, .dst_port = e->dp,
		.vc = p->vc, .crc = net_crc32c((const struct net_flit *)p->flit, p->n), .cycle = c,
		.nflits = p->n, .truncated = p->truncated, .flit = (const uint32_t (*)[4])p->flit,
	};
	if (w->nparts == 1)
		w->hook(w->hook_ctx, &wp);
	else if (pt->npkt < pt->cap || part_pkt_grow(pt)) {
		struct part_pkt *q = &pt->pkt[pt->npkt++];

		q->wp = wp;
		q->wire = i;
		memcpy(q->flit, p->flit, p->n * sizeof(p->flit[0]));
	}
	p->n = 0;
	p->truncated = false;
	e->cap_seq++;
}

void world_set_ber(struct world *w, double ber)
{
	w->ber = ber > 0 && ber < 1 ? ber : 0;
	for (unsigned i = 0; i < w->nwires; i++) {
		struct wire *e = &w->wire[i];
		double r = e->topo_ber >= 0 ? e->topo_ber : w->ber;

		e->ber = r > 0 && r < 1 ? r : 0;
		e->next_err = -1;
	}
}

double world_link_ber(const struct world *w, unsigned link)
{
	return link < w->nwires / 2 ? w->wire[2 * link].ber : -1;
}

unsigned world_nlinks(const struct world *w)
{
	return w->nwires / 2;
}

/* the link (pair of wires) at node's port, or -1 */
static int find_link(const struct world *w, unsigned node, unsigned port)
{
	for (unsigned i = 0; i < w->nwires; i++)
		if (w->wire[i].src == node && w->wire[i].sp == port)
			return (int)(i / 2);
	return -1;
}

/* a symbol no port sends: an undriven (dead) wire, as the RTL ties unconnected inputs */
static void cut_slots(struct wire *e, unsigned ring_len)
{
	memset(e->ring, 0, ring_len * sizeof(*e->ring));
	e->next_err = -1;
}

int world_link_set(struct world *w, unsigned node, unsigned port, bool up)
{
	int l = find_link(w, node, port);

	if (l < 0)
		return -1;
	for (unsigned i = 2 * (unsigned)l; i < 2 * (unsigned)l + 2; i++) {
		struct wire *e = &w->wire[i];

		e->cut = !up;
		if (!up)
			cut_slots(e, w->ring_len);
	}
	return l;
}

/* a node that fault injection may touch: *n, or -1 (no such node), -2 (a host) */
static int fault_node(struct world *w, unsigned node, struct node **n)
{
	if (node >= w->t.n)
		return -1;
	*n = &w->node[node];
	return (*n)->role == EXTOLL_TOPO_HOST ? -2 : 0;
}

int world_node_set(struct world *w, unsigned node, bool alive)
{
	struct node *n;
	int ret = fault_node(w, node, &n);

	if (ret)
		return ret;
	skip_touch(w, n);
	if (n->dead == !alive)
		return 0;
	n->dead = !alive;
	/* frozen, not reset (world_node_reset) */
	if (!alive)
		for (unsigned i = 0; i < w->nwires; i++)
			if (w->wire[i].src == node || w->wire[i].dst == node)
				cut_slots(&w->wire[i], w->ring_len);
	return 1;
}

int world_node_reset(struct world *w, unsigned node)
{
	struct node *n;
	int ret = fault_node(w, node, &n);

	if (ret)
		return ret;
	skip_touch(w, n);
	n->dead = false;
	pcie_model_reset(n->m, 8);
	return 0;
}

bool world_node_busy(const struct world *w, unsigned node)
{
	return node < w->t.n && pcie_model_busy(w->node[node].m);
}

bool world_node_dead(const struct world *w, unsigned node)
{
	return node < w->t.n && w->node[node].dead;
}

uint64_t world_bit_flips(const struct world *w)
{
	return w->flipped;
}

/* wire bits until the next error: geometric with parameter ber (xorshift64*) */
static int64_t err_gap(uint64_t *rng, double ber)
{
	*rng ^= *rng >> 12;
	*rng ^= *rng << 25;
	*rng ^= *rng >> 27;
	double u = (double)((*rng * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
	if (u <= 0)
		u = 1e-300;
	return (int64_t)floor(log(u) / log1p(-ber));
}

/* flip every bit of a symbol (128 data, 16 framing, 32 CRC) with the wire's probability */
static void corrupt(struct part *pt, struct wire *e, struct wire_slot *s)
{
	enum { SYM_BITS = 176 };

	if (e->next_err < 0)
		e->next_err = err_gap(&e->rng, e->ber);
	while (e->next_err < SYM_BITS) {
		unsigned b = (unsigned)e->next_err;
		if (b < 128)
			s->data[b / 32] ^= 1u << (b % 32);
		else if (b < 144)
			s->frm ^= (uint16_t)(1u << (b - 128));
		else
			s->crc ^= 1u << (b - 144);
		pt->flipped++;
		e->next_err += 1 + err_gap(&e->rng, e->ber);
	}
	e->next_err -= SYM_BITS;
}

/* world_link_signature's term for the symbol s on wire i in cycle c (splitmix64's
 * finaliser over the fields) */
static uint64_t symbol_hash(uint64_t c, unsigned i, const struct wire_slot *s)
{
	uint64_t x = c * 0x9E3779B97F4A7C15ull ^ ((uint64_t)i << 48) ^ ((uint64_t)s->frm << 32) ^ s->crc;

	for (unsigned k = 0; k < 4; k++) {
		x ^= s->data[k] + 0x9E3779B97F4A7C15ull * (k + 1);
		x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
		x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
		x ^= x >> 31;
	}
	return x;
}

/* Does symbol s move anything: a flit, a NAK or INIT, or a control word whose
 * ACK or credits differ from the last one on that wire (not a keep-alive)? */
static bool symbol_active(struct wire *e, const struct wire_slot *s)
{
	uint64_t f = s->frm;
	unsigned kind = (unsigned)net_lfrm_get_kind(&f);

	if (kind == NET_LKIND_DATA)
		return true;
	if (kind != NET_LKIND_CTL)
		return false;
	bool news = (s->data[0] & 0xF) != NET_LCTL_ACK || (s->data[0] & ~0xFFu) != e->last_ctl[0] ||
		    (s->data[1] & 0xFFFF) != e->last_ctl[1];
	e->last_ctl[0] = s->data[0] & ~0xFFu;
	e->last_ctl[1] = s->data[1] & 0xFFFF;
	return news;
}

/* Cycle c of partition pt: the wires into its nodes, its nodes, the wires out
 * of them.  Returns true when a flit arrived or left, a control word carried
 * news, or one of its models is busy. */
static bool part_step(struct world *w, struct part *pt, uint64_t c)
{
	unsigned wslot = (unsigned)(c % w->ring_len);
	unsigned rslot = (unsigned)((c + w->lookahead) % w->ring_len);   /* c - lookahead */
	bool active = false, busy = false;

	/* 1. wires -> inputs (what was driven latency + 1 edges ago) */
	for (unsigned i = 0; i < w->nwires; i++) {
		const struct wire *e = &w->wire[i];
		if (w->node[e->dst].part != pt->id)
			continue;
		const struct wire_slot *s = &e->ring[rslot];
		struct nic_links *in = &w->node[e->dst].in;

		memcpy(in->data[e->dp], s->data, sizeof(s->data));
		in->frm[e->dp] = s->frm;
		in->crc[e->dp] = s->crc;
		if ((s->frm & 3) == NET_LKIND_DATA)
			active = true;
	}
	/* 2. every model: one edge (a dead node: none) */
	for (unsigned i = 0; i < w->t.n; i++) {
		struct node *n = &w->node[i];
		if (n->part != pt->id || n->dead)
			continue;
		if (n->hook)
			n->hook(n->hook_ctx, c);
		if (n->sk.asleep) {
			unsigned p = (unsigned)(c % w->period);

			if (!memcmp(&n->sk.in[p], &n->in, sizeof(n->in))) {
				n->out = n->sk.out[p];
				continue;
			}
			skip_wake(w, n, c);
		}
		if (w->nwires)
			pcie_model_links_set(n->m, &n->in);
		pcie_model_step(n->m, 1);
		if (w->nwires)
			pcie_model_links_get(n->m, &n->out);
		/* TLP beats in flight, or a job that runs without traffic (CRC) */
		if (pcie_model_busy(n->m))
			busy = true;
		if (n->sk.on)
			skip_observe(w, n, c);
	}
	/* 3. outputs -> wires */
	for (unsigned i = 0; i < w->nwires; i++) {
		struct wire *e = &w->wire[i];
		if (w->node[e->src].part != pt->id)
			continue;
		struct wire_slot *s = &e->ring[wslot];
		const struct nic_links *o = &w->node[e->src].out;
		unsigned p = e->sp;

		/* a link down or a dead node at either end: the wire carries nothing,
		 * and the live end's training words are no news */
		if (e->cut || w->node[e->src].dead || w->node[e->dst].dead) {
			memset(s, 0, sizeof(*s));
			continue;
		}
		memcpy(s->data, o->data[p], sizeof(s->data));
		s->frm = o->frm[p];
		s->crc = o->crc[p];
		if ((s->frm & 3) == NET_LKIND_DATA) {
			pt->flits++;
			pt->sig += symbol_hash(c, i, s);
			if (w->hook)
				capture_flit(w, pt, i, s, c);
		} else if ((s->frm & 3) == NET_LKIND_CTL) {
			pt->credits++;
			pt->sig += symbol_hash(c, i, s);
		}
		if (symbol_active(e, s))
			active = true;
		if (e->ber > 0)
			corrupt(pt, e, s);
	}
	if (active) {
		pt->last_active = c;
		pt->any_active = true;
	}
	return active || busy;
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* partition pt's thread: one window after each barrier (docs: struct part) */
static void *part_thread(void *arg)
{
	struct part *pt = arg;
	struct world *w = pt->w;

	for (uint64_t k = 0;; k++) {
		pthread_barrier_wait(&w->bar);
		const struct window win = w->win[k % 2];

		if (win.cmd == WIN_STOP)
			return NULL;
		if (win.cmd == WIN_PARK)
			continue;
		double t0 = thread_cpu();
		for (unsigned j = 0; j < win.len; j++)
			if (part_step(w, pt, win.start + j))
				pt->ret = true;
		pt->cpu += thread_cpu() - t0;
	}
}

/* the calling thread: window k's orders, then barrier k */
static void run_barrier(struct world *w, struct window win)
{
	w->win[w->gen % 2] = win;
	w->gen++;
	pthread_barrier_wait(&w->bar);
}

static int pkt_order(const void *a, const void *b)
{
	const struct part_pkt *x = *(const struct part_pkt *const *)a, *y = *(const struct part_pkt *const *)b;

	if (x->wp.cycle != y->wp.cycle)
		return x->wp.cycle < y->wp.cycle ? -1 : 1;
	return x->wire < y->wire ? -1 : x->wire > y->wire;
}

/* after a run: the partitions' counts into the world's; their packets to the
 * hook in the order of one thread (cycle, then wire) */
static bool run_merge(struct world *w)
{
	bool ret = false;
	size_t npkt = 0;

	for (unsigned p = 0; p < w->nparts; p++) {
		struct part *pt = &w->part[p];

		w->flits += pt->flits;
		w->credits += pt->credits;
		w->flipped += pt->flipped;
		w->sig += pt->sig;
		if (pt->any_active && pt->last_active > w->last_active)
			w->last_active = pt->last_active;
		ret |= pt->ret;
		npkt += pt->npkt;
		pt->flits = pt->credits = pt->flipped = pt->sig = 0;
		pt->any_active = pt->ret = false;
	}
	if (!npkt)
		return ret;
	struct part_pkt **v = malloc(npkt * sizeof(*v));
	size_t k = 0;

	for (unsigned p = 0; v && p < w->nparts; p++)
		for (size_t i = 0; i < w->part[p].npkt; i++)
			v[k++] = &w->part[p].pkt[i];
	if (v) {
		qsort(v, npkt, sizeof(*v), pkt_order);
		for (size_t i = 0; i < npkt; i++) {
			v[i]->wp.flit = (const uint32_t (*)[4])v[i]->flit;
			if (w->hook)
				w->hook(w->hook_ctx, &v[i]->wp);
		}
		free(v);
	}
	for (unsigned p = 0; p < w->nparts; p++)
		w->part[p].npkt = 0;
	return ret;
}

/* distributed: after the window [start, start + len) of the local partition,
 * the symbols it drove on the wires to each peer out, the peers' in */
static void dist_exchange(struct world *w, uint64_t start, unsigned len)
{
	for (unsigned k = 0; k < w->npeers; k++) {
		struct peer *q = &w->peer[k];

		for (unsigned i = 0; i < q->nout; i++)
			for (unsigned j = 0; j < len; j++)
				q->send[i * len + j] = w->wire[q->out[i]].ring[(start + j) % w->ring_len];
		w->slen[k] = (size_t)q->nout * len * sizeof(struct wire_slot);
		w->rlen[k] = (size_t)q->nin * len * sizeof(struct wire_slot);
	}
	if (w->exchange(w->xctx, w->npeers, w->peer_id, w->sbuf, w->slen, w->rbuf, w->rlen)) {
		fprintf(stderr, "world: partition %u: the exchange of window %llu+%u failed\n", w->local,
			(unsigned long long)start, len);
		abort();
	}
	for (unsigned k = 0; k < w->npeers; k++) {
		const struct peer *q = &w->peer[k];

		for (unsigned i = 0; i < q->nin; i++)
			for (unsigned j = 0; j < len; j++)
				w->wire[q->in[i]].ring[(start + j) % w->ring_len] = q->recv[i * len + j];
	}
}

bool world_run(struct world *w, uint64_t cycles)
{
	struct part *p0 = &w->part[0];

	if (w->dist) {
		/* the windows of the threads, the exchange in place of the barrier */
		struct part *pl = &w->part[w->local];

		while (cycles) {
			unsigned len = cycles < w->lookahead ? (unsigned)cycles : w->lookahead;
			double t0 = thread_cpu();

			for (unsigned j = 0; j < len; j++)
				if (part_step(w, pl, w->cycle + j))
					pl->ret = true;
			pl->cpu += thread_cpu() - t0;
			dist_exchange(w, w->cycle, len);
			w->cycle += len;
			cycles -= len;
		}
		return run_merge(w);
	}
	if (w->nparts == 1) {
		for (uint64_t j = 0; j < cycles; j++)
			if (part_step(w, p0, w->cycle++))
				p0->ret = true;
		return run_merge(w);
	}
	while (cycles) {
		unsigned len = cycles < w->lookahead ? (unsigned)cycles : w->lookahead;

		run_barrier(w, (struct window){ w->cycle, len, WIN_RUN });
		double t0 = thread_cpu();
		for (unsigned j = 0; j < len; j++)
			if (part_step(w, p0, w->cycle + j))
				p0->ret = true;
		p0->cpu += thread_cpu() - t0;
		w->cycle += len;
		cycles -= len;
	}
	run_barrier(w, (struct window){ 0, 0, WIN_PARK });
	return run_merge(w);
}

bool world_step(struct world *w)
{
	return world_run(w, 1);
}

static void dist_free(struct world *w)
{
	for (unsigned k = 0; k < w->npeers; k++) {
		free(w->peer[k].out);
		free(w->peer[k].in);
		free(w->peer[k].send);
		free(w->peer[k].recv);
	}
	free(w->peer);
	free(w->peer_id);
	free(w->sbuf);
	free(w->rbuf);
	free(w->slen);
	free(w->rlen);
	w->peer = NULL;
	w->peer_id = NULL;
	w->sbuf = w->rbuf = NULL;
	w->slen = w->rlen = NULL;
	w->npeers = 0;
	if (!w->dist)
		return;
	for (unsigned p = 1; p < w->nparts; p++) {
		free(w->part[p].pkt);
		w->part[p] = (struct part){ .w = w, .id = p };
	}
	for (unsigned i = 0; i < w->t.n; i++)
		w->node[i].part = 0;
	w->dist = false;
	w->local = 0;
	w->nparts = 1;
}

int world_set_distributed(struct world *w, unsigned nparts, unsigned local, world_exchange_fn exchange,
			  void *ctx)
{
	unsigned n = w->t.n;

	if (nparts < 1 || nparts > (n ? n : 1) || local >= nparts || (nparts > 1 && !exchange))
		return -1;
	dist_free(w);
	world_set_threads(w, 1);
	if (nparts == 1)
		return 0;
	for (unsigned i = 0; i < n; i++)
		w->node[i].part = i * nparts / n;
	for (unsigned p = 1; p < nparts; p++)
		w->part[p] = (struct part){ .w = w, .id = p };
	w->peer = calloc(nparts, sizeof(*w->peer));
	w->peer_id = calloc(nparts, sizeof(*w->peer_id));
	w->sbuf = calloc(nparts, sizeof(*w->sbuf));
	w->rbuf = calloc(nparts, sizeof(*w->rbuf));
	w->slen = calloc(nparts, sizeof(*w->slen));
	w->rlen = calloc(nparts, sizeof(*w->rlen));
	w->dist = true;
	w->local = local;
	w->nparts = nparts;
	w->exchange = exchange;
	w->xctx = ctx;
	if (!w->peer || !w->peer_id || !w->sbuf || !w->rbuf || !w->slen || !w->rlen)
		goto oom;
	for (unsigned q = 0; q < nparts; q++) {
		struct peer *pr = &w->peer[w->npeers];
		unsigned nout = 0, nin = 0;

		if (q == local)
			continue;
		for (unsigned i = 0; i < w->nwires; i++) {
			const struct wire *e = &w->wire[i];

			nout += w->node[e->src].part == local && w->node[e->dst].part == q;
			nin += w->node[e->src].part == q && w->node[e->dst].part == local;
		}
		if (!nout && !nin)
			continue;
		pr->part = q;
		pr->out = calloc(nout ? nout : 1, sizeof(*pr->out));
		pr->in = calloc(nin ? nin : 1, sizeof(*pr->in));
		pr->send = calloc((size_t)(nout ? nout : 1) * w->lookahead, sizeof(*pr->send));
		pr->recv = calloc((size_t)(nin ? nin : 1) * w->lookahead, sizeof(*pr->recv));
		w->npeers++;
		if (!pr->out || !pr->in || !pr->send || !pr->recv)
			goto oom;
		for (unsigned i = 0; i < w->nwires; i++) {
			const struct wire *e = &w->wire[i];

			if (w->node[e->src].part == local && w->node[e->dst].part == q)
				pr->out[pr->nout++] = i;
			if (w->node[e->src].part == q && w->node[e->dst].part == local)
				pr->in[pr->nin++] = i;
		}
		w->peer_id[w->npeers - 1] = q;
		w->sbuf[w->npeers - 1] = pr->send;
		w->rbuf[w->npeers - 1] = pr->recv;
	}
	return 0;
oom:
	dist_free(w);
	return -1;
}

unsigned world_local_partition(const struct world *w)
{
	return w->dist ? w->local : 0;
}

int world_set_threads(struct world *w, unsigned n)
{
	if (w->dist)                    /* one partition per process */
		return n <= 1 ? 0 : -1;
	if (n < 1)
		n = 1;
	if (n > w->t.n)
		n = w->t.n ? w->t.n : 1;
	if (w->nparts > 1) {
		run_barrier(w, (struct window){ 0, 0, WIN_STOP });
		for (unsigned p = 1; p < w->nparts; p++)
			pthread_join(w->part[p].th, NULL);
		pthread_barrier_destroy(&w->bar);
		for (unsigned p = 1; p < w->nparts; p++)
			free(w->part[p].pkt);
	}
	w->nparts = 1;
	w->gen = 0;
	for (unsigned i = 0; i < w->t.n; i++)
		w->node[i].part = 0;
	if (n == 1)
		return 0;
	/* contiguous blocks of node ids (a torus's x rows first: few links cut) */
	for (unsigned i = 0; i < w->t.n; i++)
		w->node[i].part = i * n / w->t.n;
	if (pthread_barrier_init(&w->bar, NULL, n))
		goto fail;
	for (unsigned p = 1; p < n; p++) {
		w->part[p] = (struct part){ .w = w, .id = p };
		if (pthread_create(&w->part[p].th, NULL, part_thread, &w->part[p])) {
			/* the threads started wait at a barrier for n: no way back */
			fprintf(stderr, "world: cannot start thread %u of %u\n", p, n);
			abort();
		}
	}
	w->nparts = n;
	return 0;
fail:
	for (unsigned i = 0; i < w->t.n; i++)
		w->node[i].part = 0;
	return -1;
}

unsigned world_threads(const struct world *w)
{
	return w->nparts;
}

double world_partition_cpu(const struct world *w, unsigned p)
{
	return p < w->nparts ? w->part[p].cpu : 0;
}

unsigned world_node_partition(const struct world *w, unsigned node)
{
	return node < w->t.n ? w->node[node].part : 0;
}

void world_set_node_hook(struct world *w, unsigned node, world_node_fn fn, void *ctx)
{
	if (node >= w->t.n)
		return;
	struct node *n = &w->node[node];

	skip_touch(w, n);
	n->hook = fn;
	n->hook_ctx = ctx;
	if (fn && n->sk.on)
		n->sk.on = false;       /* its TLPs come from outside the RTL: never asleep */
}

uint64_t world_cycles(const struct world *w)
{
	return w->cycle;
}

uint64_t world_quiet_cycles(const struct world *w)
{
	return w->cycle ? w->cycle - 1 - w->last_active : 0;
}

const struct extoll_topo *world_topology(const struct world *w)
{
	return &w->t;
}

unsigned world_nhosts(const struct world *w)
{
	return w->nhosts;
}

unsigned world_host_node(const struct world *w, unsigned i)
{
	return i < w->nhosts ? w->host[i] : ~0u;
}

struct pcie_model *world_node_model(struct world *w, unsigned node)
{
	return node < w->t.n ? w->node[node].m : NULL;
}

struct pcie_model *world_host(struct world *w, unsigned i)
{
	return i < w->nhosts ? w->node[w->host[i]].m : NULL;
}

uint64_t world_flits(const struct world *w)
{
	return w->flits;
}

uint64_t world_ctl_words(const struct world *w)
{
	return w->credits;
}

uint64_t world_link_signature(const struct world *w)
{
	return w->sig;
}

bool world_overrun(const struct world *w)
{
	for (unsigned i = 0; i < w->t.n; i++)
		if (pcie_model_overrun(w->node[i].m))
			return true;
	return false;
}

void world_reset_host(struct world *w, unsigned i, unsigned cycles)
{
	if (i < w->nhosts)
		pcie_model_reset(w->node[w->host[i]].m, cycles);
}

void world_describe(const struct world *w, FILE *f)
{
	const struct extoll_topo *t = &w->t;

	fprintf(f, "world '%s': torus %ux%ux%u, %u node(s), link latency %u cycles, %u link(s)\n",
		t->name, t->torus.dim[0], t->torus.dim[1], t->torus.dim[2], t->n, t->latency, w->nwires / 2);
	for (unsigned i = 0; i < t->n; i++) {
		unsigned c[3];
		enum extoll_topo_role r = extoll_topo_role(t, i);

		extoll_torus_coords(&t->torus, i, c);
		fprintf(f, "  node %u (%u,%u,%u) %-6s %s dateline 0x%02x\n", i, c[0], c[1], c[2],
			extoll_topo_role_name(r), w->node[i].m->backend->desc,
			extoll_torus_dateline(&t->torus, i));
	}
	for (unsigned i = 0; i < w->nwires; i += 2) {
		fprintf(f, "  link %u: node %u %s <-> node %u %s", i / 2, w->wire[i].src,
			port_name[w->wire[i].sp], w->wire[i].dst, port_name[w->wire[i].dp]);
		if (w->wire[i].ber > 0)
			fprintf(f, ", bit-error rate %g%s", w->wire[i].ber,
				w->wire[i].topo_ber >= 0 ? " (link-ber)" : "");
		fprintf(f, "\n");
	}
	for (unsigned i = 0; i < t->n_missing; i++)
		fprintf(f, "  missing link node %u %s\n", t->missing[i].node,
			port_name[t->missing[i].port]);
}

void world_trace_flush(struct world *w)
{
	for (unsigned i = 0; i < w->t.n; i++)
		pcie_model_trace_flush(w->node[i].m);
}
