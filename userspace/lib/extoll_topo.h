/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libextoll: torus geometry, dimension-order routing and topology files.
 * No NIC needed: naactl's route planning and the co-simulation's world
 * (sim/world/, sim/cosim/) build on the same definitions, so a torus is
 * numbered, wired and routed in exactly one way.
 *
 * Geometry (torus.c): node id = x + X * (y + Y * z); ports 0..5 = X+, X-,
 * Y+, Y-, Z+, Z-, 7 ejects to the local units. Dimension order X, Y, Z; in
 * each ring the shorter way, the + direction on a tie.
 *
 * Topology files (topo.c, the .topo files in sim/topologies/): one directive per line,
 * `#` starts a comment:
 *
 *   torus XxYxZ          (or `torus X Y Z`, `torus X`, `torus XxY`; required,
 *                        once) dimensions, each 1..256
 *   link-latency CYCLES  wire delay per link and direction, flits and credits
 *                        alike (1..1024, default 4); used by the co-simulation
 *   node ID host|naa|router
 *                        what sits at node ID: a host NIC (extoll_nic, endpoint
 *                        role, served to a QEMU), a network-attached
 *                        accelerator (naa_node: root-port NIC + sample
 *                        accelerator), or a router (extoll_nic, endpoint role,
 *                        nothing on its PCIe side). Unlisted ids: router.
 *                        Used by the co-simulation; routing covers every node.
 *   missing-link NODE PORT
 *                        the link at NODE's PORT (X+ X- Y+ Y- Z+ Z-) and the
 *                        facing port of its neighbour is not cabled: the
 *                        co-simulation leaves it unwired (a failed link), and
 *                        naactl topo reports it as missing when it compares a
 *                        discovered fabric with the file.
 *   link-ber NODE PORT RATE
 *                        bit-error rate of the link at NODE's PORT, both
 *                        directions, every wire bit (data, framing, CRC):
 *                        a number 0 <= RATE < 1 (e.g. 1e-6); the link must
 *                        exist (dimension longer than 1, not a missing-link);
 *                        once per link. Used by the co-simulation (it replaces
 *                        cosimd --ber on that link); routing ignores it.
 *
 * Functions return 0 or a negative errno (the parsers add a message
 * "name:line: ..." in err); they never print.
 */
#ifndef EXTOLL_TOPO_H
#define EXTOLL_TOPO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- torus geometry and dimension-order routing */

#define EXTOLL_PORT_XP		0
#define EXTOLL_PORT_XM		1
#define EXTOLL_PORT_YP		2
#define EXTOLL_PORT_YM		3
#define EXTOLL_PORT_ZP		4
#define EXTOLL_PORT_ZM		5
#define EXTOLL_PORT_SPARE	6
#define EXTOLL_PORT_EJECT	7

#define EXTOLL_ROUTE_MAX_LINKS	6	/* 7 hops, the last one ejects */
#define EXTOLL_TORUS_MAX_DIM	256	/* per dimension */
#define EXTOLL_TORUS_MAX_NODES	65536	/* 16-bit node ids */

struct extoll_torus {
	unsigned int dim[3];	/* X, Y, Z */
};

/* "4x4x2", "4x4", "8": each 1..256, at most 65536 nodes; -EINVAL */
int extoll_torus_parse(const char *s, struct extoll_torus *t);
unsigned int extoll_torus_nodes(const struct extoll_torus *t);
void extoll_torus_coords(const struct extoll_torus *t, unsigned int node,
			 unsigned int c[3]);
unsigned int extoll_torus_node_at(const struct extoll_torus *t,
				  const unsigned int c[3]);
/* The neighbour of node `at` through link port 0..5 (wrapping). */
unsigned int extoll_torus_neighbour(const struct extoll_torus *t,
				    unsigned int at, unsigned int port);
/* Output port at node `at` toward `dest`, dimension order X, Y, Z. */
unsigned int extoll_torus_next_port(const struct extoll_torus *t,
				    unsigned int at, unsigned int dest);
/* Number of link hops from `from` to `to` on the dimension-order path. */
unsigned int extoll_torus_hops(const struct extoll_torus *t, unsigned int from,
			       unsigned int to);
/* Source route from -> to (3 bits a hop, ending in eject); -E2BIG beyond
 * EXTOLL_ROUTE_MAX_LINKS link hops. */
int extoll_torus_route(const struct extoll_torus *t, unsigned int from,
		       unsigned int to, uint64_t *route);
/* cfg_dateline strap of a node (docs/network.md): X+ (bit 0) on x = X-1,
 * X- (bit 1) on x = 0, the same for Y (bits 2, 3) and Z (bits 4, 5); only
 * dimensions longer than 1 have links. */
uint8_t extoll_torus_dateline(const struct extoll_torus *t, unsigned int node);
/* "X+" ... "Z-", "spare", "eject" */
const char *extoll_port_name(unsigned int port);
/* "X+,Y+,eject": the ports of a source route, up to the eject. */
void extoll_route_string(uint64_t route, char *buf, size_t len);

/* --- route planning: in which order to program the nodes' tables */

struct extoll_route_step {
	unsigned int node;
	unsigned int hops;	/* from the host, on the dimension-order path */
	int source_routed;	/* reachable by a source route (at most
				 * EXTOLL_ROUTE_MAX_LINKS links) */
	uint64_t route;		/* that route */
};

/* Every node of the torus, the nearest to `host` first (ties by id), so a
 * table-routed request finds its path programmed. *plan: malloc'ed, n
 * steps (extoll_torus_nodes). 0 or -ENOMEM. */
int extoll_route_plan(const struct extoll_torus *t, unsigned int host,
		      struct extoll_route_step **plan);
/* The k-th destination (k = 0 .. nodes-1) whose entry a node gets: the
 * host first (the way back for the acknowledgements), then the others by
 * id. */
unsigned int extoll_route_dest(unsigned int host, unsigned int k);

/* --- topology files */

enum extoll_topo_role {
	EXTOLL_TOPO_ROUTER = 0,
	EXTOLL_TOPO_HOST = 1,
	EXTOLL_TOPO_NAA = 2,
};

#define EXTOLL_TOPO_DEFAULT_LATENCY	4
#define EXTOLL_TOPO_MAX_LISTED		256	/* node lines */
#define EXTOLL_TOPO_MAX_MISSING		16	/* missing-link lines */
#define EXTOLL_TOPO_MAX_BER		192	/* link-ber lines (64 nodes x 3 links) */

struct extoll_topo {
	struct extoll_torus torus;
	unsigned int n;			/* nodes: dim[0] * dim[1] * dim[2] */
	unsigned int latency;		/* link-latency, cycles */
	unsigned int n_listed;		/* node lines */
	struct {
		uint16_t node;
		uint8_t role;		/* enum extoll_topo_role */
	} listed[EXTOLL_TOPO_MAX_LISTED];
	unsigned int n_missing;		/* missing-link lines */
	struct {
		uint16_t node;
		uint8_t port;
	} missing[EXTOLL_TOPO_MAX_MISSING];
	char name[64];			/* file name without directory and .topo */
	unsigned int n_ber;		/* link-ber lines */
	struct {
		uint16_t node;
		uint8_t port;
		double rate;
	} ber[EXTOLL_TOPO_MAX_BER];
};

/* Parse text (name: for messages and t->name). 0, or -EINVAL with a message
 * "name:line: ..." in err. */
int extoll_topo_parse(const char *text, const char *name, struct extoll_topo *t,
		      char *err, size_t errlen);
/* Read and parse a file (at most 64 KiB); t->name is its base name without
 * .topo. 0, or a negative errno with a message in err. */
int extoll_topo_load(const char *path, struct extoll_topo *t, char *err,
		     size_t errlen);
enum extoll_topo_role extoll_topo_role(const struct extoll_topo *t,
				       unsigned int node);
const char *extoll_topo_role_name(enum extoll_topo_role r);
unsigned int extoll_topo_count(const struct extoll_topo *t,
			       enum extoll_topo_role r);
/* 1 if the link at node's port (0..5) is cabled: its dimension is longer
 * than 1 and no missing-link line names it (from either end). */
int extoll_topo_link_cabled(const struct extoll_topo *t, unsigned int node,
			    unsigned int port);
/* The link-ber rate of the link at node's port (either end named in the
 * file), or -1 when the file gives none. */
double extoll_topo_link_ber(const struct extoll_topo *t, unsigned int node,
			    unsigned int port);
/* "X+" ... "Z-" -> 0..5; -1 for anything else. */
int extoll_port_parse(const char *s);

#ifdef __cplusplus
}
#endif

#endif /* EXTOLL_TOPO_H */
