// SPDX-License-Identifier: Apache-2.0
/* In-band discovery and up*-down* routing: see extoll_fabric.h. */
#include <errno.h>
#include <string.h>

#include "extoll_fabric.h"
#include "extoll_regs.h"

#define HOP_W	3
#define INF	0xffffu

int extoll_fabric_index(const struct extoll_fabric *f, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < f->n; i++)
		if (f->node[i].id == id)
			return (int)i;
	return -1;
}

/* the route to a node, one more link p, then eject */
static uint64_t route_through(const struct extoll_fabric_node *n, unsigned int p)
{
	uint64_t r = n->route & ~((uint64_t)7 << (HOP_W * n->hops));

	return r | (uint64_t)p << (HOP_W * n->hops) |
	       (uint64_t)EXTOLL_PORT_EJECT << (HOP_W * (n->hops + 1));
}

int extoll_fabric_discover(extoll_fabric_read_fn rd, void *ctx, struct extoll_fabric *f)
{
	const uint32_t a_id = EXTOLL_INFO_BASE + EXTOLL_INFO_ID;
	const uint32_t a_ls = EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_LINK_STATUS;
	unsigned int q, p;
	uint64_t v;
	int ret;

	memset(f, 0, sizeof(*f));
	f->n = 1;
	f->node[0].route = EXTOLL_PORT_EJECT;
	ret = rd(ctx, EXTOLL_PORT_EJECT, a_id, &v);
	f->reads++;
	if (ret)
		return ret;
	f->node[0].id = (uint16_t)(v >> EXTOLL_INFO_ID_NODE_ID_SHIFT);
	/* breadth first: node[q] in the order found */
	for (q = 0; q < f->n; q++) {
		struct extoll_fabric_node *n = &f->node[q];

		for (p = 0; p < EXTOLL_FABRIC_LINKS; p++)
			n->peer[p] = -1;
		n->level = n->hops;
		for (p = 0; p < EXTOLL_FABRIC_LINKS; p++) {
			int k;

			if (n->hops >= EXTOLL_ROUTE_MAX_LINKS) {
				f->unexplored++;
				continue;
			}
			ret = rd(ctx, route_through(n, p), a_id, &v);
			f->reads++;
			if (ret) {
				f->silent++;
				continue;	/* no link, or a dead one */
			}
			n->link_up |= (uint8_t)(1u << p);
			k = extoll_fabric_index(f, (uint16_t)(v >> EXTOLL_INFO_ID_NODE_ID_SHIFT));
			if (k < 0) {
				if (f->n == EXTOLL_FABRIC_MAX_NODES)
					return -E2BIG;
				k = (int)f->n++;
				f->node[k].id = (uint16_t)(v >> EXTOLL_INFO_ID_NODE_ID_SHIFT);
				f->node[k].hops = n->hops + 1;
				f->node[k].route = route_through(n, p);
			}
			n->peer[p] = k;
		}
		/* for the report: which links carried traffic (sticky bits) */
		if (!rd(ctx, n->route, a_ls, &v))
			n->link_status = (uint8_t)(v & 0x7f);
		f->reads++;
	}
	return 0;
}

int extoll_fabric_torus(const struct extoll_fabric *f, struct extoll_torus *t)
{
	unsigned int x, y, z, i, p;

	for (x = 1; x <= f->n; x++)
		for (y = 1; x * y <= f->n; y++) {
			if (f->n % (x * y))
				continue;
			z = f->n / (x * y);
			t->dim[0] = x;
			t->dim[1] = y;
			t->dim[2] = z;
			for (i = 0; i < f->n; i++) {
				const struct extoll_fabric_node *n = &f->node[i];

				if (n->id >= f->n)
					return 0;
				for (p = 0; p < 6; p++) {
					int want = t->dim[p / 2] > 1;

					if (want != (n->link_up >> p & 1) || (want && (n->peer[p] < 0 ||
					    f->node[n->peer[p]].id != extoll_torus_neighbour(t, n->id, p))))
						break;
				}
				if (p < 6 || (n->link_up >> 6 & 1))
					break;
			}
			if (i == f->n)
				return 1;
		}
	return 0;
}

/* rank: (level, id), a total order; lower = nearer the host */
static int lower(const struct extoll_fabric *f, unsigned int a, unsigned int b)
{
	const struct extoll_fabric_node *x = &f->node[a], *y = &f->node[b];

	return x->level < y->level || (x->level == y->level && x->id < y->id);
}

/* down[i]: links to dest using only down hops from i; any[i]: up*-down* */
static void distances(const struct extoll_fabric *f, unsigned int dest,
		      unsigned int *down, unsigned int *any)
{
	unsigned int i, p, changed;

	for (i = 0; i < f->n; i++)
		down[i] = any[i] = i == dest ? 0 : INF;
	/* relax to a fixed point (n <= 64: cheap) */
	do {
		changed = 0;
		for (i = 0; i < f->n; i++)
			for (p = 0; p < EXTOLL_FABRIC_LINKS; p++) {
				int k = f->node[i].peer[p];
				unsigned int d;

				if (k < 0)
					continue;
				if (lower(f, i, (unsigned int)k)) {	/* i -> k is down */
					if (down[k] != INF && down[k] + 1 < down[i]) {
						down[i] = down[k] + 1;
						changed = 1;
					}
					d = down[k];
				} else {
					d = any[k];
				}
				if (d != INF && d + 1 < any[i]) {
					any[i] = d + 1;
					changed = 1;
				}
			}
		for (i = 0; i < f->n; i++)
			if (down[i] < any[i]) {
				any[i] = down[i];
				changed = 1;
			}
	} while (changed);
}

int extoll_fabric_updown_port(const struct extoll_fabric *f, unsigned int at,
			      unsigned int in, unsigned int dest)
{
	unsigned int down[EXTOLL_FABRIC_MAX_NODES], any[EXTOLL_FABRIC_MAX_NODES];
	unsigned int p, best = INF;
	int only_down = 0, port = -1;

	if (at >= f->n || dest >= f->n)
		return -1;
	if (at == dest)
		return EXTOLL_PORT_EJECT;
	/* arrived from a lower-ranked neighbour: the packet went down already */
	if (in < EXTOLL_FABRIC_LINKS) {
		int from = f->node[at].peer[in];

		if (from < 0)
			return -1;	/* nothing arrives on that link */
		only_down = lower(f, (unsigned int)from, at);
	}
	distances(f, dest, down, any);
	for (p = 0; p < EXTOLL_FABRIC_LINKS; p++) {
		int k = f->node[at].peer[p];
		unsigned int d;

		if (k < 0)
			continue;
		if (lower(f, at, (unsigned int)k))
			d = down[k];
		else if (only_down)
			continue;
		else
			d = any[k];
		if (d != INF && d + 1 < best) {
			best = d + 1;
			port = (int)p;
		}
	}
	return port;
}
