/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Topology description of a co-simulated EXTOLL network (sim/topologies/).
 * One directive per line, `#` starts a comment:
 *
 *   torus XxYxZ          (or `torus X Y Z`; required, once) dimensions
 *   link-latency CYCLES  wire delay per link and direction, flits and credits
 *                        alike (1..1024, default 4)
 *   node ID host|naa|router
 *                        what sits at node ID = x + X*(y + Y*z): a host NIC
 *                        (extoll_nic, endpoint role, served to a QEMU), a
 *                        network-attached accelerator (naa_node: root-port NIC +
 *                        sample accelerator), or a router (extoll_nic, endpoint
 *                        role, nothing on its PCIe side).  Unlisted ids: router.
 */
#ifndef SIM_WORLD_TOPOLOGY_H
#define SIM_WORLD_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

enum topo_role { TOPO_ROUTER = 0, TOPO_HOST = 1, TOPO_NAA = 2 };

#define TOPO_MAX_NODES 64       /* the router's tables: TBL_AW = 6 */
#define TOPO_DEFAULT_LATENCY 4

struct topology {
	unsigned dim[3];
	unsigned n;                     /* dim[0] * dim[1] * dim[2] */
	unsigned latency;               /* link-latency, cycles */
	enum topo_role role[TOPO_MAX_NODES];
	char name[64];                  /* file name without directory and .topo */
};

/* Parse text (name: for messages and t->name).  Returns 0, or -1 with a
 * message "name:line: ..." in err. */
int topology_parse(const char *text, const char *name, struct topology *t, char *err,
		   size_t errlen);
/* Read and parse a file. */
int topology_load(const char *path, struct topology *t, char *err, size_t errlen);

const char *topology_role_name(enum topo_role r);
void topology_coords(const struct topology *t, unsigned node, unsigned c[3]);
unsigned topology_node_at(const struct topology *t, const unsigned c[3]);
/* Neighbour of node in dimension d (0..2), direction +1 or -1 (wrapping). */
unsigned topology_neighbour(const struct topology *t, unsigned node, unsigned d, int dir);
/* cfg_dateline strap of a node (docs/network.md): X+ (bit 0) on x = X-1,
 * X- (bit 1) on x = 0, the same for Y (bits 2, 3) and Z (bits 4, 5); only
 * dimensions longer than 1 have links. */
uint8_t topology_dateline(const struct topology *t, unsigned node);
unsigned topology_count(const struct topology *t, enum topo_role r);

#endif /* SIM_WORLD_TOPOLOGY_H */
