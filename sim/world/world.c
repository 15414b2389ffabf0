// SPDX-License-Identifier: Apache-2.0
/* The lockstep world of device models: see world.h. */
#include "world.h"

#include <stdlib.h>
#include <string.h>

/* what one directed wire carries in one cycle */
struct wire_slot {
	uint8_t valid, last, vc, credit;
	uint32_t crc;
	uint32_t data[4];
};

/* src node's link port sp -> dst node's link port dp (flits src->dst and the
 * credits src returns for dst's flits) */
struct wire {
	unsigned src, sp, dst, dp;
	struct wire_slot *ring;         /* latency + 1 slots, indexed by cycle */
	struct wire_pkt *pkt;           /* the packet being sent (packet hook only) */
};

/* flits of the packet on a wire so far, for the packet hook */
struct wire_pkt {
	uint32_t flit[WORLD_PKT_MAX_FLITS][4];
	unsigned n, vc;
	bool truncated;
};

struct node {
	enum extoll_topo_role role;
	struct pcie_model *m;
	struct nic_links in, out;
};

struct world {
	struct extoll_topo t;
	struct node node[WORLD_MAX_NODES];
	struct wire *wire;
	unsigned nwires, ring_len;
	unsigned host[WORLD_MAX_NODES], nhosts;
	uint64_t cycle, last_active, flits, credits;
	world_packet_fn hook;
	void *hook_ctx;
};

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
	w->ring_len = t->latency + 1;
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
			w->wire[k++] = (struct wire){ i, 2 * d, j, 2 * d + 1, NULL, NULL };
			w->wire[k++] = (struct wire){ j, 2 * d + 1, i, 2 * d, NULL, NULL };
		}
	}
	for (unsigned i = 0; i < w->nwires; i++) {
		w->wire[i].ring = calloc(w->ring_len, sizeof(struct wire_slot));
		if (!w->wire[i].ring)
			goto oom;
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

void world_destroy(struct world *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < WORLD_MAX_NODES; i++)
		pcie_model_destroy(w->node[i].m);
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

/* one flit leaving wire i's source: collect; on the last, report the packet */
static void capture_flit(struct world *w, unsigned i, const struct wire_slot *s)
{
	const struct wire *e = &w->wire[i];
	struct wire_pkt *p = e->pkt;

	if (!p)
		return;
	if (p->n == 0)
		p->vc = s->vc;
	if (p->n < WORLD_PKT_MAX_FLITS)
		memcpy(p->flit[p->n++], s->data, sizeof(s->data));
	else
		p->truncated = true;
	if (!s->last)
		return;
	const struct world_packet wp = {
		.link = i / 2, .src = e->src, .src_port = e->sp, .dst = e->dst, .dst_port = e->dp,
		.vc = p->vc, .crc = s->crc, .cycle = w->cycle, .nflits = p->n,
		.truncated = p->truncated, .flit = (const uint32_t (*)[4])p->flit,
	};
	w->hook(w->hook_ctx, &wp);
	p->n = 0;
	p->truncated = false;
}

bool world_step(struct world *w)
{
	unsigned slot = (unsigned)(w->cycle % w->ring_len);
	bool active = false, busy = false;

	/* 1. wires -> inputs (what was driven latency + 1 edges ago) */
	for (unsigned i = 0; i < w->nwires; i++) {
		const struct wire *e = &w->wire[i];
		const struct wire_slot *s = &e->ring[slot];
		struct nic_links *in = &w->node[e->dst].in;
		uint8_t b = (uint8_t)(1u << e->dp);

		in->valid = (uint8_t)((in->valid & ~b) | (s->valid ? b : 0));
		in->last = (uint8_t)((in->last & ~b) | (s->last ? b : 0));
		in->vc = (uint8_t)((in->vc & ~b) | (s->vc ? b : 0));
		in->credit = (uint16_t)((in->credit & ~(3u << 2 * e->dp)) |
					((unsigned)s->credit << 2 * e->dp));
		if (s->valid) {
			memcpy(in->data[e->dp], s->data, sizeof(s->data));
			in->crc[e->dp] = s->crc;
		}
		if (s->valid || s->credit)
			active = true;
	}
	/* 2. every model: one edge */
	for (unsigned i = 0; i < w->t.n; i++) {
		struct node *n = &w->node[i];
		if (w->nwires)
			pcie_model_links_set(n->m, &n->in);
		pcie_model_step(n->m, 1);
		if (w->nwires)
			pcie_model_links_get(n->m, &n->out);
		/* TLP beats in flight, or a job that runs without traffic (CRC) */
		if (pcie_model_busy(n->m))
			busy = true;
	}
	/* 3. outputs -> wires */
	for (unsigned i = 0; i < w->nwires; i++) {
		const struct wire *e = &w->wire[i];
		struct wire_slot *s = &e->ring[slot];
		const struct nic_links *o = &w->node[e->src].out;
		unsigned p = e->sp;

		s->valid = (uint8_t)(o->valid >> p & 1);
		s->last = (uint8_t)(o->last >> p & 1);
		s->vc = (uint8_t)(o->vc >> p & 1);
		s->credit = (uint8_t)(o->credit >> 2 * p & 3);
		if (s->valid) {
			memcpy(s->data, o->data[p], sizeof(s->data));
			s->crc = o->crc[p];
			w->flits++;
			if (w->hook)
				capture_flit(w, i, s);
		}
		if (s->credit)
			w->credits += (s->credit & 1) + (s->credit >> 1);
		if (s->valid || s->credit)
			active = true;
	}
	if (active)
		w->last_active = w->cycle;
	w->cycle++;
	return active || busy;
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

struct pcie_model *world_host(struct world *w, unsigned i)
{
	return i < w->nhosts ? w->node[w->host[i]].m : NULL;
}

uint64_t world_flits(const struct world *w)
{
	return w->flits;
}

uint64_t world_credits(const struct world *w)
{
	return w->credits;
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
	for (unsigned i = 0; i < w->nwires; i += 2)
		fprintf(f, "  link %u: node %u %s <-> node %u %s\n", i / 2, w->wire[i].src,
			port_name[w->wire[i].sp], w->wire[i].dst, port_name[w->wire[i].dp]);
	for (unsigned i = 0; i < t->n_missing; i++)
		fprintf(f, "  missing link node %u %s\n", t->missing[i].node,
			port_name[t->missing[i].port]);
}

void world_trace_flush(struct world *w)
{
	for (unsigned i = 0; i < w->t.n; i++)
		pcie_model_trace_flush(w->node[i].m);
}
