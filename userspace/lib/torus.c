// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll: torus geometry and dimension-order routing (extoll_topo.h).
 *
 * Node id = x + X * (y + Y * z). Ports 0..5 = X+, X-, Y+, Y-, Z+, Z-;
 * 7 ejects to the local units. Dimension order X, Y, Z; in each ring the
 * shorter way, the + direction on a tie. The router's dateline VC rule
 * (vcrule auto) keeps the rings deadlock free.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extoll_topo.h"

static const char *const port_names[8] = {
	"X+", "X-", "Y+", "Y-", "Z+", "Z-", "spare", "eject",
};

const char *extoll_port_name(unsigned int port)
{
	return port_names[port & 7];
}

unsigned int extoll_torus_nodes(const struct extoll_torus *t)
{
	return t->dim[0] * t->dim[1] * t->dim[2];
}

void extoll_torus_coords(const struct extoll_torus *t, unsigned int node,
			 unsigned int c[3])
{
	c[0] = node % t->dim[0];
	c[1] = (node / t->dim[0]) % t->dim[1];
	c[2] = node / (t->dim[0] * t->dim[1]);
}

unsigned int extoll_torus_node_at(const struct extoll_torus *t,
				  const unsigned int c[3])
{
	return c[0] + t->dim[0] * (c[1] + t->dim[1] * c[2]);
}

/* Steps from a to b in a ring of n: > 0 the + way, < 0 the - way. */
static int ring_steps(unsigned int a, unsigned int b, unsigned int n)
{
	unsigned int fwd = (b + n - a) % n;

	if (fwd == 0)
		return 0;
	return 2 * fwd <= n ? (int)fwd : -(int)(n - fwd);
}

unsigned int extoll_torus_next_port(const struct extoll_torus *t,
				    unsigned int at, unsigned int dest)
{
	unsigned int a[3], d[3], i;

	extoll_torus_coords(t, at, a);
	extoll_torus_coords(t, dest, d);
	for (i = 0; i < 3; i++) {
		int s = ring_steps(a[i], d[i], t->dim[i]);

		if (s)
			return 2 * i + (s > 0 ? 0 : 1);
	}
	return EXTOLL_PORT_EJECT;
}

unsigned int extoll_torus_hops(const struct extoll_torus *t, unsigned int from,
			       unsigned int to)
{
	unsigned int a[3], b[3], i, hops = 0;

	extoll_torus_coords(t, from, a);
	extoll_torus_coords(t, to, b);
	for (i = 0; i < 3; i++)
		hops += (unsigned int)abs(ring_steps(a[i], b[i], t->dim[i]));
	return hops;
}

unsigned int extoll_torus_neighbour(const struct extoll_torus *t,
				    unsigned int at, unsigned int port)
{
	unsigned int c[3], i = port / 2, n = t->dim[i];

	extoll_torus_coords(t, at, c);
	c[i] = port & 1 ? (c[i] + n - 1) % n : (c[i] + 1) % n;
	return extoll_torus_node_at(t, c);
}

uint8_t extoll_torus_dateline(const struct extoll_torus *t, unsigned int node)
{
	unsigned int c[3], d;
	uint8_t m = 0;

	extoll_torus_coords(t, node, c);
	for (d = 0; d < 3; d++) {
		if (t->dim[d] < 2)
			continue;
		if (c[d] == t->dim[d] - 1)
			m |= (uint8_t)(1u << (2 * d));		/* + link wraps */
		if (c[d] == 0)
			m |= (uint8_t)(1u << (2 * d + 1));	/* - link wraps */
	}
	return m;
}

int extoll_torus_route(const struct extoll_torus *t, unsigned int from,
		       unsigned int to, uint64_t *route)
{
	unsigned int at = from, hop = 0, port;
	uint64_t r = 0;

	if (extoll_torus_hops(t, from, to) > EXTOLL_ROUTE_MAX_LINKS)
		return -E2BIG;
	for (;;) {
		port = extoll_torus_next_port(t, at, to);
		r |= (uint64_t)port << (3 * hop++);
		if (port == EXTOLL_PORT_EJECT)
			break;
		at = extoll_torus_neighbour(t, at, port);
	}
	*route = r;
	return 0;
}

void extoll_route_string(uint64_t route, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i, p;

	buf[0] = '\0';
	for (i = 0; i <= EXTOLL_ROUTE_MAX_LINKS; i++) {
		p = (route >> (3 * i)) & 7;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "",
					extoll_port_name(p));
		if (p == EXTOLL_PORT_EJECT || off >= len)
			break;
	}
}

/* Nearest first, then by id. */
static int by_distance(const void *a, const void *b)
{
	const struct extoll_route_step *x = a, *y = b;

	if (x->hops != y->hops)
		return (int)x->hops - (int)y->hops;
	return (int)x->node - (int)y->node;
}

int extoll_route_plan(const struct extoll_torus *t, unsigned int host,
		      struct extoll_route_step **plan)
{
	unsigned int n = extoll_torus_nodes(t), i;
	struct extoll_route_step *r = calloc(n, sizeof(*r));

	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r[i].node = i;
		r[i].hops = extoll_torus_hops(t, host, i);
		r[i].source_routed = !extoll_torus_route(t, host, i, &r[i].route);
	}
	qsort(r, n, sizeof(*r), by_distance);
	*plan = r;
	return 0;
}

unsigned int extoll_route_dest(unsigned int host, unsigned int k)
{
	return k == 0 ? host : (k <= host ? k - 1 : k);
}

int extoll_torus_parse(const char *s, struct extoll_torus *t)
{
	unsigned long v;
	unsigned int i;
	char *end;

	t->dim[0] = t->dim[1] = t->dim[2] = 1;
	for (i = 0; i < 3; i++) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v == 0 || v > EXTOLL_TORUS_MAX_DIM)
			return -EINVAL;
		t->dim[i] = (unsigned int)v;
		if (*end == '\0')
			break;
		if (*end != 'x' && *end != 'X')
			return -EINVAL;
		s = end + 1;
	}
	if (*end != '\0' || extoll_torus_nodes(t) > EXTOLL_TORUS_MAX_NODES)
		return -EINVAL;
	return 0;
}
