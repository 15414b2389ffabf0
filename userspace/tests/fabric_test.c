// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll's discovery and up*-down* routing without a NIC (make -C userspace
 * check): a torus from a topology (with its missing-link lines as failed
 * links) answers the source-routed reads of extoll_fabric_discover() the way
 * the routers do; the test checks the map (nodes, links, whole torus or not)
 * and walks every source-destination pair through the tables that
 * extoll_fabric_updown_port() gives: each must reach its destination on a
 * legal up*-down* path (never up after down) without a loop.
 *   fabric_test TOPO...   prints one line per topology, exit 1 on a failure
 */
#include <stdio.h>
#include <stdlib.h>

#include "extoll_fabric.h"
#include "extoll_regs.h"

static int fails;

#define CHECK(c, ...) do { if (!(c)) { printf("FAIL " __VA_ARGS__); printf("\n"); fails++; } } while (0)

/* the router behaviour the discovery relies on: follow the hops, answer at eject */
static int fake_read(void *ctx, uint64_t route, uint32_t addr, uint64_t *val)
{
	const struct extoll_topo *t = ctx;
	unsigned int at = 0, h, p;

	for (h = 0; h < 7; h++) {
		p = route >> (3 * h) & 7;
		if (p == EXTOLL_PORT_EJECT)
			break;
		if (!extoll_topo_link_cabled(t, at, p))
			return -110;	/* into a dead link: no answer */
		at = extoll_torus_neighbour(&t->torus, at, p);
	}
	if (h == 7)
		return -22;
	if (addr == EXTOLL_INFO_BASE + EXTOLL_INFO_ID) {
		*val = (uint64_t)at << EXTOLL_INFO_ID_NODE_ID_SHIFT | EXTOLL_INFO_ID_MAGIC_RESET;
	} else if (addr == EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_LINK_STATUS) {
		*val = 0;
		for (p = 0; p < 6; p++)
			*val |= (uint64_t)extoll_topo_link_cabled(t, at, p) << p;
	} else {
		return -22;
	}
	return 0;
}

static void walk_all(const struct extoll_fabric *f, const char *name)
{
	unsigned int s, d, total = 0, worst = 0;

	for (s = 0; s < f->n; s++)
		for (d = 0; d < f->n; d++) {
			unsigned int at = s, in = 7, hops = 0, went_down = 0;

			for (;;) {
				int p = extoll_fabric_updown_port(f, at, in, d), k, q;

				if (p == EXTOLL_PORT_EJECT) {
					CHECK(at == d, "%s: %u->%u ejected at %u", name, s, d, at);
					break;
				}
				if (p < 0 || hops > 2 * f->n) {
					CHECK(0, "%s: %u->%u: %s at node %u", name, s, d,
					      p < 0 ? "no entry" : "loop", f->node[at].id);
					break;
				}
				k = f->node[at].peer[p];
				/* up = toward a lower (level, id) */
				int up = f->node[k].level < f->node[at].level ||
					 (f->node[k].level == f->node[at].level &&
					  f->node[k].id < f->node[at].id);
				CHECK(!(up && went_down), "%s: %u->%u goes up after down at %u", name,
				      s, d, f->node[at].id);
				went_down |= !up;
				/* the port it arrives on: the facing one */
				for (q = 0; q < EXTOLL_FABRIC_LINKS; q++)
					if (f->node[k].peer[q] == (int)at && (q ^ 1) == p)
						break;
				in = (unsigned int)q;
				at = (unsigned int)k;
				hops++;
			}
			total += hops;
			if (hops > worst)
				worst = hops;
		}
	printf("  up*/down*: %u pairs, %u link hops in total, longest %u\n", f->n * f->n,
	       total, worst);
}

int main(int argc, char **argv)
{
	static struct extoll_topo t;
	static struct extoll_fabric f;
	struct extoll_torus tor;
	char err[512];
	int i;

	if (argc < 2) {	/* nothing to check is no pass */
		printf("FAIL no topology file given\nfabric_test: FAILED\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		unsigned int cabled = 0, links = 0, n, p;
		int whole;

		if (extoll_topo_load(argv[i], &t, err, sizeof(err))) {
			printf("FAIL %s\n", err);
			fails++;
			continue;
		}
		CHECK(!extoll_fabric_discover(fake_read, &t, &f), "%s: discovery failed", t.name);
		for (n = 0; n < t.n; n++)
			for (p = 0; p < 6; p++)
				cabled += extoll_topo_link_cabled(&t, n, p);
		for (n = 0; n < f.n; n++)
			for (p = 0; p < EXTOLL_FABRIC_LINKS; p++)
				links += f.node[n].peer[p] >= 0;
		whole = extoll_fabric_torus(&f, &tor);
		printf("%s: %u node(s), %u link end(s), %u reads, %s\n", t.name, f.n, links, f.reads,
		       whole ? "whole torus" : "not a whole torus");
		CHECK(f.n == t.n, "%s: found %u of %u nodes", t.name, f.n, t.n);
		CHECK(links == cabled, "%s: %u link ends, want %u", t.name, links, cabled);
		CHECK(whole == !t.n_missing, "%s: whole torus %d, missing-link lines %u", t.name, whole,
		      t.n_missing);
		if (whole)
			CHECK(tor.dim[0] == t.torus.dim[0] && tor.dim[1] == t.torus.dim[1] &&
			      tor.dim[2] == t.torus.dim[2], "%s: torus %ux%ux%u", t.name, tor.dim[0],
			      tor.dim[1], tor.dim[2]);
		walk_all(&f, t.name);
	}
	printf("fabric_test: %s\n", fails ? "FAILED" : "passed");
	return fails ? 1 : 0;
}
