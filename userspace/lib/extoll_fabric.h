/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libextoll: the fabric as discovered in-band (like EXTOLL's EMP), without a
 * topology file, and the routing tables for it (fabric.c).
 *
 * Discovery: breadth first from the host's NIC, by source-routed register
 * reads only (no table needs to exist): at every node found, through every
 * link port, the neighbour's nic_info.id (its node id); a port whose probe
 * is not answered (the RRA timeout) has no working link. The router's
 * link_status is read afterwards, for the report only: its bits are sticky
 * once a link carried a flit or a credit, so before any traffic they are all
 * 0 and cannot tell a dead link from an idle one. The read goes through a
 * callback, so the same code serves naactl (libextoll's RRA) and tests
 * without a NIC.
 *
 * Routing: where the fabric is a whole torus (every link of a torus of
 * X*Y*Z = n nodes up, node ids in the torus numbering), dimension order with
 * the dateline VC rule (extoll_torus_next_port, vc rule AUTO). Otherwise
 * up*-down*: a breadth-first tree from the host ranks the nodes by (level,
 * id); a hop toward a lower rank is "up"; a legal path is any up hops, then
 * only down hops, which is deadlock-free on one VC (the dependency graph of
 * legal turns has no cycle); the router's per-inport tables know which phase
 * a packet is in from the link it arrived on. Entries use the VC0 rule.
 * docs/network.md, "Discovery and routing around failed links".
 */
#ifndef EXTOLL_FABRIC_H
#define EXTOLL_FABRIC_H

#include <stdint.h>

#include "extoll_topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EXTOLL_FABRIC_MAX_NODES	64	/* the routers' tables: 64 entries */
#define EXTOLL_FABRIC_LINKS	7	/* X+ X- Y+ Y- Z+ Z- spare */

struct extoll_fabric_node {
	uint16_t id;		/* node id (nic_info.id) */
	unsigned int hops;	/* links from the host on the discovery path */
	uint64_t route;		/* source route from the host, ending in eject */
	uint8_t link_up;	/* bit p: link p answered the probe (a peer) */
	uint8_t link_status;	/* the router's link_status after the probes */
	int peer[EXTOLL_FABRIC_LINKS];	/* node index behind link p, -1: none */
	unsigned int level;	/* breadth-first level (= hops) */
};

struct extoll_fabric {
	unsigned int n;		/* nodes found; node[0] is the host's NIC */
	struct extoll_fabric_node node[EXTOLL_FABRIC_MAX_NODES];
	unsigned int reads;	/* register reads it took */
	unsigned int unexplored; /* ports beyond the source-route reach */
	unsigned int silent;	/* probes not answered (no link, or a dead one) */
};

/* Read register addr at the node a source route leads to; 0 or -errno. */
typedef int (*extoll_fabric_read_fn)(void *ctx, uint64_t route, uint32_t addr,
				     uint64_t *val);

/* Explore the fabric from the host (the node behind route "eject"). 0, or
 * the first read error at the host itself (a neighbour that does not answer
 * counts as absent, its link is listed with peer -1). */
int extoll_fabric_discover(extoll_fabric_read_fn rd, void *ctx,
			   struct extoll_fabric *f);
/* Index of node id in f, or -1. */
int extoll_fabric_index(const struct extoll_fabric *f, unsigned int id);
/* The torus the fabric wholly is (dimensions tried in order of X), 1 with *t
 * set; 0 if none: a link is missing or ids do not follow the torus. */
int extoll_fabric_torus(const struct extoll_fabric *f, struct extoll_torus *t);
/* Up*-down* output port at node index `at` for destination index `dest`, for
 * a packet that arrived on inport `in` (0..6 links, 7 and up local units):
 * a link 0..6, EXTOLL_PORT_EJECT at the destination, or -1 (no legal path
 * from that phase: the entry stays invalid). */
int extoll_fabric_updown_port(const struct extoll_fabric *f, unsigned int at,
			      unsigned int in, unsigned int dest);

#ifdef __cplusplus
}
#endif

#endif /* EXTOLL_FABRIC_H */
