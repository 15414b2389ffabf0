// SPDX-License-Identifier: Apache-2.0
/*
 * naactl topo and naactl route --discover: the fabric explored in-band from
 * this host's NIC (libextoll's extoll_fabric.h: source-routed register reads,
 * no topology file, no routing table needed), printed as text, JSON (-j) or
 * Graphviz DOT (--dot), compared with an expected topology file, and routing
 * tables programmed for it: dimension order where it is a whole torus,
 * up*-down* around failed links (docs/network.md, docs/naactl.md).
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "extoll_fabric.h"
#include "extoll_regs.h"
#include "libextoll.h"
#include "naactl.h"
#include "net_packet.h"

#define INPORTS		9	/* links 0-6, local units 7 and 8 */
#define INPORT_ALL	15	/* rt_entry.inport 15: every inport's table */

struct disc_opts {
	const char *topology;	/* expected fabric, or NULL */
	int dot;
	int discover;		/* route --discover */
	int dry_run;
};

struct disc {
	struct extoll_nic *nic;
	struct extoll_fabric f;
	struct extoll_topo *expect;	/* NULL without --topology */
	struct extoll_torus torus;
	int whole;			/* the fabric is a whole torus */
	unsigned int problems;		/* differences from the expected topology */
	uint64_t cycles;		/* NIC cycles the discovery took */
	double secs;
};

static int rd(void *ctx, uint64_t route, uint32_t addr, uint64_t *val)
{
	return extoll_rra_read_routed(ctx, route, addr, val, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_opts(int argc, char **argv, struct disc_opts *o, int route)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 'f' },
		{ "dot", no_argument, NULL, 'D' },
		{ "discover", no_argument, NULL, 'X' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;
	while ((c = getopt_long(argc, argv, "+f:", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->topology = optarg;
			break;
		case 'D':
			if (route)
				return -EINVAL;
			o->dot = 1;
			break;
		case 'X':
			if (!route)
				return -EINVAL;
			o->discover = 1;
			break;
		case 'n':
			if (!route)
				return -EINVAL;
			o->dry_run = 1;
			break;
		default:
			return -EINVAL;
		}
	}
	return optind == argc ? 0 : -EINVAL;
}

/* Explore, and compare with the expected topology. 0 or -errno (message printed). */
static int explore(struct disc *d, const struct disc_opts *o)
{
	uint64_t c0 = 0, c1 = 0;
	char err[512];
	double t0;
	int ret;

	if (o->topology) {
		d->expect = malloc(sizeof(*d->expect));
		if (!d->expect)
			return -ENOMEM;
		ret = extoll_topo_load(o->topology, d->expect, err, sizeof(err));
		if (ret) {
			err_msg("topology %s", err);
			return ret;
		}
	}
	/* the host NIC's cycle counter: the discovery's simulated/real cycles */
	rd(d->nic, EXTOLL_PORT_EJECT, EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, &c0);
	t0 = now_s();
	ret = extoll_fabric_discover(rd, d->nic, &d->f);
	d->secs = now_s() - t0;
	rd(d->nic, EXTOLL_PORT_EJECT, EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, &c1);
	d->cycles = c1 - c0;
	if (ret) {
		err_msg("discovery: the NIC's own registers do not answer: %s", strerror(-ret));
		return ret;
	}
	d->whole = extoll_fabric_torus(&d->f, &d->torus);
	return 0;
}

/* the port of node k's link that leads back over node i's link p */
static int far_port(const struct extoll_fabric *f, unsigned int i, unsigned int p)
{
	int k = f->node[i].peer[p];
	unsigned int q;

	if (k < 0)
		return -1;
	if (p < 6 && f->node[k].peer[p ^ 1] == (int)i)	/* cabling rule: X+ to X- */
		return (int)(p ^ 1);
	for (q = 0; q < EXTOLL_FABRIC_LINKS; q++)
		if (f->node[k].peer[q] == (int)i)
			return (int)q;
	return -1;
}

/* each link once: from the end with the lower id (on a 2-ring, from both of i's ports) */
static int link_listed_here(const struct extoll_fabric *f, unsigned int i, unsigned int p)
{
	int k = f->node[i].peer[p];

	return k >= 0 && (f->node[i].id < f->node[k].id ||
			  (k == (int)i && (p & 1) == 0));
}

static void print_node(const struct disc *d, unsigned int i)
{
	const struct extoll_fabric_node *n = &d->f.node[i];
	char buf[64];
	unsigned int p;

	open_json_object(NULL);
	print_uint(PRINT_ANY, "node", "node %u:", n->id);
	print_uint(PRINT_ANY, "hops", " %u hop(s)", n->hops);
	extoll_route_string(n->route, buf, sizeof(buf));
	print_string(PRINT_ANY, "route", " via %s,", buf);
	print_uint(PRINT_JSON, "link_status", NULL, n->link_status);
	open_json_array(PRINT_JSON, "links");
	print_text(" links");
	for (p = 0; p < EXTOLL_FABRIC_LINKS; p++) {
		if (!(n->link_up >> p & 1))
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "port", " %s", extoll_port_name(p));
		if (n->peer[p] >= 0)
			print_uint(PRINT_ANY, "peer", "->%u", d->f.node[n->peer[p]].id);
		else
			print_null(PRINT_ANY, "peer", "->%s", "?");
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	print_nl();
	close_json_object();
}

/* every difference from the expected topology, as text and JSON */
static void compare(struct disc *d)
{
	const struct extoll_topo *t = d->expect;
	unsigned int i, p, j;

	open_json_array(PRINT_JSON, "differences");
	for (i = 0; i < t->n; i++) {
		int a = extoll_fabric_index(&d->f, i);

		if (a < 0) {
			open_json_object(NULL);
			print_string(PRINT_ANY, "what", "%s", "missing node");
			print_uint(PRINT_ANY, "node", " %u\n", i);
			close_json_object();
			d->problems++;
		}
		for (p = 0; p < 6; p++) {
			int cabled = extoll_topo_link_cabled(t, i, p), k, have;

			j = extoll_torus_neighbour(&t->torus, i, p);
			if (t->torus.dim[p / 2] < 2 || (i > j) || (i == j && (p & 1)))
				continue;	/* each link once, from the lower id */
			k = a < 0 ? -1 : d->f.node[a].peer[p];
			have = k >= 0 && d->f.node[k].id == j;
			if (cabled == have)
				continue;
			open_json_object(NULL);
			print_string(PRINT_ANY, "what", "%s", cabled ? "missing link" : "unexpected link");
			print_uint(PRINT_ANY, "node", " node %u", i);
			print_string(PRINT_ANY, "port", " %s", extoll_port_name(p));
			print_uint(PRINT_ANY, "peer", " <-> node %u", j);
			print_string(PRINT_ANY, "peer_port", " %s\n", extoll_port_name(p ^ 1));
			close_json_object();
			d->problems++;
		}
	}
	for (i = 0; i < d->f.n; i++)
		if (d->f.node[i].id >= t->n) {
			open_json_object(NULL);
			print_string(PRINT_ANY, "what", "%s", "unexpected node");
			print_uint(PRINT_ANY, "node", " %u\n", d->f.node[i].id);
			close_json_object();
			d->problems++;
		}
	close_json_array(PRINT_JSON, NULL);
}

static void print_summary(struct disc *d)
{
	char dims[48];
	unsigned int i, p, links = 0;

	for (i = 0; i < d->f.n; i++)
		for (p = 0; p < EXTOLL_FABRIC_LINKS; p++)
			links += link_listed_here(&d->f, i, p);
	print_uint(PRINT_ANY, "node_count", "fabric: %u node(s)", d->f.n);
	print_uint(PRINT_ANY, "link_count", ", %u link(s)", links);
	print_uint(PRINT_ANY, "host", ", explored from node %u", d->f.node[0].id);
	print_uint(PRINT_ANY, "reads", " in %u register reads", d->f.reads);
	print_uint(PRINT_ANY, "silent", " (%u unanswered)", d->f.silent);
	print_u64(PRINT_ANY, "cycles", " (%" PRIu64 " NIC cycles", d->cycles);
	print_uint(PRINT_ANY, "ms", ", %u ms)", (unsigned int)(d->secs * 1000 + 0.5));
	print_nl();
	if (d->whole) {
		snprintf(dims, sizeof(dims), "%ux%ux%u", d->torus.dim[0], d->torus.dim[1],
			 d->torus.dim[2]);
		print_string(PRINT_ANY, "torus", "whole torus %s: dimension-order routing\n", dims);
	} else {
		print_null(PRINT_ANY, "torus", "%s\n",
			   "not a whole torus (failed links or other cabling): up*/down* routing");
	}
	if (d->f.unexplored)
		print_uint(PRINT_ANY, "unexplored",
			   "%u link(s) beyond the 6-link source-route reach not explored\n",
			   d->f.unexplored);
}

static void print_dot(const struct disc *d)
{
	unsigned int i, p;

	printf("graph extoll {\n\tnode [shape=box];\n");
	for (i = 0; i < d->f.n; i++)
		printf("\tn%u [label=\"node %u\\n%u hop(s)\"%s];\n", d->f.node[i].id,
		       d->f.node[i].id, d->f.node[i].hops, i ? "" : " style=bold");
	for (i = 0; i < d->f.n; i++)
		for (p = 0; p < EXTOLL_FABRIC_LINKS; p++) {
			int k = d->f.node[i].peer[p], q = far_port(&d->f, i, p);

			if (!link_listed_here(&d->f, i, p))
				continue;
			printf("\tn%u -- n%u [taillabel=\"%s\" headlabel=\"%s\"];\n",
			       d->f.node[i].id, d->f.node[k].id, extoll_port_name(p),
			       q >= 0 ? extoll_port_name((unsigned int)q) : "?");
		}
	if (d->expect)	/* what the expected topology has and the fabric lacks: dashed red */
		for (i = 0; i < d->expect->n; i++)
			for (p = 0; p < 6; p++) {
				unsigned int j = extoll_torus_neighbour(&d->expect->torus, i, p);
				int a = extoll_fabric_index(&d->f, i), k;

				if (!extoll_topo_link_cabled(d->expect, i, p) || i > j ||
				    (i == j && (p & 1)))
					continue;
				k = a < 0 ? -1 : d->f.node[a].peer[p];
				if (k < 0 || d->f.node[k].id != j)
					printf("\tn%u -- n%u [style=dashed color=red taillabel=\"%s\"];\n",
					       i, j, extoll_port_name(p));
			}
	printf("}\n");
}

static void disc_free(struct disc *d)
{
	free(d->expect);
	extoll_close(d->nic);
}

int cmd_topo(struct extoll_nic *nic, int argc, char **argv)
{
	struct disc_opts o;
	struct disc *d;
	unsigned int i;
	int ret;

	if (parse_opts(argc, argv, &o, 0)) {
		err_msg("usage: topo %s", topo_usage);
		return NAACTL_EXIT_USAGE;
	}
	ret = naactl_open(&nic, 1);	/* only once the arguments are good */
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d) {
		extoll_close(nic);
		return NAACTL_EXIT_OTHER;
	}
	d->nic = nic;
	ret = explore(d, &o);
	if (ret) {
		d->nic = NULL;
		disc_free(d);
		free(d);
		extoll_close(nic);
		return naactl_exit_of(ret);
	}
	if (o.dot) {
		print_dot(d);
	} else {
		new_json_obj();
		print_summary(d);
		open_json_array(PRINT_JSON, "nodes");
		for (i = 0; i < d->f.n; i++)
			print_node(d, i);
		close_json_array(PRINT_JSON, NULL);
		if (d->expect) {
			compare(d);
			print_uint(PRINT_ANY, "differences_count", "%u difference(s)", d->problems);
			print_string(PRINT_ANY, "topology", " from %s\n", o.topology);
		}
		delete_json_obj();
	}
	if (d->expect && o.dot) {
		int q = print_set_quiet(1);	/* the count only, for the exit status */
		compare(d);
		print_set_quiet(q);
	}
	ret = d->problems ? NAACTL_EXIT_NONODE : NAACTL_EXIT_OK;
	d->nic = NULL;
	disc_free(d);
	free(d);
	extoll_close(nic);
	return ret;
}

static uint64_t entry(unsigned int dest, unsigned int inport, unsigned int port, unsigned int vcrule)
{
	return ((uint64_t)dest << EXTOLL_ROUTER_RT_ENTRY_DEST_SHIFT) |
	       ((uint64_t)inport << EXTOLL_ROUTER_RT_ENTRY_INPORT_SHIFT) |
	       ((uint64_t)port << EXTOLL_ROUTER_RT_ENTRY_OUTPORT_SHIFT) |
	       ((uint64_t)vcrule << EXTOLL_ROUTER_RT_ENTRY_VCRULE_SHIFT) |
	       EXTOLL_ROUTER_RT_ENTRY_VALID_MASK | EXTOLL_ROUTER_RT_ENTRY_COMMIT_MASK;
}

/* output port at fabric node a toward node b for inport in, and its VC rule */
static int out_port(const struct disc *d, unsigned int a, unsigned int in, unsigned int b,
		    unsigned int *vcrule)
{
	if (d->whole) {
		*vcrule = NET_VCRULE_AUTO;
		return (int)extoll_torus_next_port(&d->torus, d->f.node[a].id, d->f.node[b].id);
	}
	*vcrule = NET_VCRULE_VC0;
	return extoll_fabric_updown_port(&d->f, a, in, b);
}

/* every entry of node a: all inports at once with the entry of a packet from
 * a local unit, then the link inports whose entry differs. */
static int program(struct disc *d, unsigned int a, unsigned int *writes, int dry_run)
{
	unsigned int b, in, vr, vr0;
	uint16_t answered;
	int ret;

	for (b = 0; b < d->f.n; b++) {
		int p0 = out_port(d, a, 7, b, &vr0);

		for (in = 0; in < INPORTS; in++) {
			int p = in == 0 ? p0 : out_port(d, a, in, b, &vr);

			if (in > 0 && (in >= 7 || p == p0 || p < 0 ||
				       !(d->f.node[a].link_up >> in & 1)))
				continue;
			if (p < 0)
				continue;	/* no legal path from anywhere: stays invalid */
			(*writes)++;
			if (dry_run)
				continue;
			ret = extoll_rra_write_routed(d->nic, d->f.node[a].route,
						      EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_RT_ENTRY,
						      entry(d->f.node[b].id, in == 0 ? INPORT_ALL : in,
							    (unsigned int)p, in == 0 ? vr0 : vr),
						      &answered);
			if (!ret && answered != d->f.node[a].id)
				ret = -EPROTO;
			if (ret)
				return ret;
		}
	}
	return 0;
}

int cmd_route_discover(int argc, char **argv)
{
	struct disc_opts o;
	struct disc *d;
	unsigned int i, writes = 0, reachable = 0;
	int ret, failed = 0;
	uint64_t id;

	if (parse_opts(argc, argv, &o, 1) || !o.discover) {
		err_msg("usage: route --discover [--topology FILE] [--dry-run]");
		return NAACTL_EXIT_USAGE;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NAACTL_EXIT_OTHER;
	ret = naactl_open_nic(&d->nic);
	if (ret) {
		free(d);
		return ret;
	}
	ret = naactl_require_rra(d->nic) ? -EOPNOTSUPP : explore(d, &o);
	if (ret) {
		disc_free(d);
		free(d);
		return naactl_exit_of(ret);
	}
	new_json_obj();
	print_summary(d);
	if (d->expect) {
		compare(d);
		print_uint(PRINT_ANY, "differences_count", "%u difference(s)", d->problems);
		print_string(PRINT_ANY, "topology", " from %s\n", o.topology);
	}
	print_string(PRINT_ANY, "scheme", "routing: %s\n", d->whole ? "dimension-order" : "up*/down*");
	open_json_array(PRINT_JSON, "nodes");
	for (i = 0; i < d->f.n; i++) {
		unsigned int w = 0;

		ret = program(d, i, &w, o.dry_run);
		writes += w;
		open_json_object(NULL);
		print_uint(PRINT_ANY, "node", "node %u:", d->f.node[i].id);
		print_uint(PRINT_ANY, "entries", " %u table write(s)", w);
		if (ret) {
			failed++;
			print_string(PRINT_ANY, "error", ", FAILED: %s", strerror(-ret));
		}
		if (!o.dry_run && !ret) {
			/* table routed now: the node must answer as itself */
			int ok = !extoll_rra_read(d->nic, d->f.node[i].id, extoll_reg_info_id(), &id) &&
				 (uint16_t)(id >> EXTOLL_INFO_ID_NODE_ID_SHIFT) == d->f.node[i].id;

			reachable += ok;
			print_bool(PRINT_JSON, "reachable", NULL, ok);
			print_text(", %s", ok ? "reachable by table routing" :
				   "NOT reachable by table routing");
		}
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	if (!o.dry_run)
		print_text("%u of %u node(s) programmed (%u writes), %u reachable by table routing\n",
			   d->f.n - failed, d->f.n, writes, reachable);
	delete_json_obj();
	ret = failed ? NAACTL_EXIT_OTHER : (!o.dry_run && reachable < d->f.n) ? NAACTL_EXIT_NONODE :
	      NAACTL_EXIT_OK;
	disc_free(d);
	free(d);
	return ret;
}

const char topo_usage[] = "[--topology FILE] [--dot]";
