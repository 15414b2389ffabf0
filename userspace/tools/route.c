// SPDX-License-Identifier: Apache-2.0
/*
 * naactl route: program every node's routing tables for a torus with
 * dimension-order routing (docs/naactl.md), like EXTOLL's EMP does.
 *
 * Each node is reached by a source-routed RRA (from the host, along the
 * dimension-order path, at most 6 links), so the order of programming does
 * not matter and no table has to exist beforehand. A node farther away is
 * reached by table routing through the nodes programmed before it (nearest
 * first); its first entries, those toward this host, are written blind (the
 * acknowledgement cannot come back before they exist).
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "extoll_regs.h"
#include "libextoll.h"
#include "naactl.h"

/* Inports with tables: links 0-6 and the local unit ports 7 and 8. */
#define ROUTE_INPORTS		9
/* rt_entry.inport 15 writes every inport's table at once (router.sv). */
#define ROUTE_INPORT_ALL	15

static const char *const port_names[8] = {
	"X+", "X-", "Y+", "Y-", "Z+", "Z-", "spare", "eject",
};

struct route_opts {
	struct extoll_torus torus;
	int have_torus;
	int dry_run;
	int tables;
	int all_inports;
	int check;
	long host_node;		/* -1: the NIC's */
};

struct node_result {
	unsigned int node;
	unsigned int hops;
	int source_routed;
	uint64_t route;
	unsigned int entries;
	int error;		/* 0 or negative errno */
	int reachable;		/* -1 not checked */
};

static void route_string(uint64_t route, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i, p;

	buf[0] = '\0';
	for (i = 0; i < 7; i++) {
		p = (route >> (3 * i)) & 7;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "",
					port_names[p]);
		if (p == EXTOLL_PORT_EJECT || off >= len)
			break;
	}
}

static int load_topology(const char *path, struct route_opts *o)
{
	char line[256], dims[64];
	unsigned int x, y, z, lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		err_msg("cannot open topology file %s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		lineno++;
		if (*p == '#' || *p == '\n' || *p == '\0')
			continue;
		/* Lines the co-simulation's topology files add (node roles, link
		 * latency) do not matter for routing: the tables cover every node. */
		if (!strncmp(p, "node", 4) || !strncmp(p, "link-latency", 12))
			continue;
		if (sscanf(p, "torus %u %u %u", &x, &y, &z) == 3) {
			snprintf(dims, sizeof(dims), "%ux%ux%u", x, y, z);
		} else if (sscanf(p, "torus %63s", dims) != 1) {
			err_msg("%s:%u: expected 'torus XxYxZ'", path, lineno);
			fclose(f);
			return -EINVAL;
		}
		if (extoll_torus_parse(dims, &o->torus)) {
			err_msg("%s:%u: bad torus dimensions '%s'", path, lineno, dims);
			fclose(f);
			return -EINVAL;
		}
		o->have_torus = 1;
	}
	fclose(f);
	if (!o->have_torus) {
		err_msg("%s: no 'torus' line", path);
		return -EINVAL;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct route_opts *o)
{
	static const struct option opts[] = {
		{ "torus", required_argument, NULL, 't' },
		{ "topology", required_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "tables", no_argument, NULL, 'T' },
		{ "host-node", required_argument, NULL, 'H' },
		{ "all-inports", no_argument, NULL, 'a' },
		{ "no-check", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->check = 1;
	o->host_node = -1;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+t:f:nTH:aC", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (extoll_torus_parse(optarg, &o->torus)) {
				err_msg("bad --torus '%s' (e.g. 4x4x2)", optarg);
				return -EINVAL;
			}
			o->have_torus = 1;
			break;
		case 'f':
			if (load_topology(optarg, o))
				return -EINVAL;
			break;
		case 'n':
			o->dry_run = 1;
			break;
		case 'T':
			o->tables = 1;
			break;
		case 'H':
			o->host_node = strtol(optarg, &end, 0);
			if (*end || o->host_node < 0 || o->host_node > 0xffff) {
				err_msg("bad --host-node '%s'", optarg);
				return -EINVAL;
			}
			break;
		case 'a':
			o->all_inports = 1;
			break;
		case 'C':
			o->check = 0;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind != argc || !o->have_torus) {
		err_msg("usage: route --torus XxYxZ | --topology FILE [--dry-run] [--tables] [--host-node N] [--all-inports] [--no-check]");
		return -EINVAL;
	}
	return 0;
}

/* Nodes nearest first, so table-routed requests find their path programmed. */
static int by_distance(const void *a, const void *b)
{
	const struct node_result *x = a, *y = b;

	if (x->hops != y->hops)
		return (int)x->hops - (int)y->hops;
	return (int)x->node - (int)y->node;
}

static struct node_result *plan(const struct route_opts *o, unsigned int host)
{
	unsigned int n = extoll_torus_nodes(&o->torus), i;
	struct node_result *r = calloc(n, sizeof(*r));

	if (!r)
		return NULL;
	for (i = 0; i < n; i++) {
		r[i].node = i;
		r[i].hops = extoll_torus_hops(&o->torus, host, i);
		r[i].source_routed = !extoll_torus_route(&o->torus, host, i, &r[i].route);
		r[i].reachable = -1;
	}
	qsort(r, n, sizeof(*r), by_distance);
	return r;
}

static int write_entry(struct extoll_nic *nic, struct node_result *r,
		       uint64_t entry)
{
	uint16_t answered = 0;
	int ret;

	if (!r->source_routed)
		return extoll_rra_write(nic, (uint16_t)r->node, extoll_reg_rt_entry(), entry);
	ret = extoll_rra_write_routed(nic, r->route, extoll_reg_rt_entry(), entry,
				      &answered);
	if (!ret && answered != r->node) {
		err_msg("the source route to node %u reached node %u: the torus dimensions or node ids are wrong",
			r->node, answered);
		return -EPROTO;
	}
	return ret;
}

/* All entries of one node, those toward this host first. */
static int program_node(struct extoll_nic *nic, const struct route_opts *o,
			unsigned int host, struct node_result *r)
{
	unsigned int n = extoll_torus_nodes(&o->torus), k, d, in;
	unsigned int n_in = o->all_inports ? 1 : ROUTE_INPORTS;
	int ret;

	for (k = 0; k < n; k++) {
		d = k == 0 ? host : (k <= host ? k - 1 : k);
		for (in = 0; in < n_in; in++) {
			unsigned int inport = o->all_inports ? ROUTE_INPORT_ALL : in;
			uint64_t e = extoll_rt_entry((uint16_t)d, inport,
					extoll_torus_next_port(&o->torus, r->node, d));

			ret = write_entry(nic, r, e);
			/* Table-routed: the way back exists only after these. */
			if (ret == -ETIMEDOUT && !r->source_routed && d == host)
				ret = 0;
			if (ret)
				return ret;
			r->entries++;
		}
	}
	return 0;
}

static int check_node(struct extoll_nic *nic, struct node_result *r)
{
	uint64_t id;
	int ret;

	ret = extoll_rra_read(nic, (uint16_t)r->node, extoll_reg_info_id(), &id);
	if (ret)
		return ret;
	if ((id & EXTOLL_INFO_ID_MAGIC_MASK) != EXTOLL_INFO_ID_MAGIC_RESET ||
	    ((id & EXTOLL_INFO_ID_NODE_ID_MASK) >> EXTOLL_INFO_ID_NODE_ID_SHIFT) != r->node)
		return -EPROTO;
	return 0;
}

static void print_tables(const struct route_opts *o, unsigned int node)
{
	unsigned int n = extoll_torus_nodes(&o->torus), d;

	printf("    out port by destination:");
	for (d = 0; d < n; d++)
		printf(" %u:%s", d, port_names[extoll_torus_next_port(&o->torus, node, d)]);
	putchar('\n');
}

static struct json_object *result_json(const struct route_opts *o,
				       const struct node_result *r)
{
	struct json_object *j = json_object_new_object(), *c = json_object_new_array();
	unsigned int xyz[3], i;
	char buf[64];

	extoll_torus_coords(&o->torus, r->node, xyz);
	for (i = 0; i < 3; i++)
		json_object_array_add(c, json_object_new_int((int)xyz[i]));
	json_object_object_add(j, "node", json_object_new_int((int)r->node));
	json_object_object_add(j, "coords", c);
	json_object_object_add(j, "hops", json_object_new_int((int)r->hops));
	if (r->source_routed) {
		route_string(r->route, buf, sizeof(buf));
		json_object_object_add(j, "source_route", json_object_new_string(buf));
	} else {
		json_object_object_add(j, "source_route", NULL);
	}
	json_object_object_add(j, "entries", json_object_new_int((int)r->entries));
	json_object_object_add(j, "error", r->error ?
			       json_object_new_string(strerror(-r->error)) : NULL);
	json_object_object_add(j, "reachable", r->reachable < 0 ? NULL :
			       json_object_new_boolean(r->reachable));
	return j;
}

static void result_print(const struct route_opts *o, const struct node_result *r,
			 int dry_run)
{
	unsigned int xyz[3];
	char buf[64];

	extoll_torus_coords(&o->torus, r->node, xyz);
	if (r->source_routed)
		route_string(r->route, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "table routing");
	printf("node %u (%u,%u,%u): %u hop(s), via %s", r->node, xyz[0], xyz[1],
	       xyz[2], r->hops, buf);
	if (!dry_run) {
		if (r->error)
			printf(": FAILED after %u entries: %s", r->entries,
			       strerror(-r->error));
		else
			printf(": %u entries", r->entries);
		if (r->reachable >= 0)
			printf(", %s", r->reachable ? "reachable by table routing" :
			       "NOT reachable by table routing");
	}
	putchar('\n');
	if (o->tables)
		print_tables(o, r->node);
}

int cmd_route(int argc, char **argv)
{
	struct extoll_nic *nic = NULL;
	struct node_result *res;
	struct route_opts o;
	unsigned int host, n, i, failed = 0, unreachable = 0;
	int ret, worst = 0;

	if (parse_opts(argc, argv, &o))
		return 1;
	n = extoll_torus_nodes(&o.torus);

	if (!o.dry_run) {
		ret = naactl_open_nic(&nic);
		if (ret)
			return ret;
		if (naactl_require_rra(nic)) {
			extoll_close(nic);
			return 4;
		}
	}
	host = o.host_node >= 0 ? (unsigned int)o.host_node :
	       nic ? extoll_nic_info(nic)->node_id : 0;
	if (host >= n) {
		err_msg("this host is node %u, outside the %ux%ux%u torus", host,
			o.torus.dim[0], o.torus.dim[1], o.torus.dim[2]);
		extoll_close(nic);
		return 1;
	}

	res = plan(&o, host);
	if (!res) {
		extoll_close(nic);
		return 5;
	}

	for (i = 0; !nic && i < n; i++)	/* dry run: what would be written */
		res[i].entries = n * (o.all_inports ? 1 : ROUTE_INPORTS);
	for (i = 0; nic && i < n; i++) {
		res[i].error = program_node(nic, &o, host, &res[i]);
		if (res[i].error) {
			failed++;
			if (!worst)
				worst = res[i].error;
		}
	}
	for (i = 0; nic && o.check && i < n; i++) {
		res[i].reachable = !res[i].error && !check_node(nic, &res[i]);
		unreachable += !res[i].reachable;
	}

	if (naactl_json()) {
		struct json_object *j = json_object_new_object(), *arr = json_object_new_array();
		char dims[48];

		snprintf(dims, sizeof(dims), "%ux%ux%u", o.torus.dim[0],
			 o.torus.dim[1], o.torus.dim[2]);
		json_object_object_add(j, "torus", json_object_new_string(dims));
		json_object_object_add(j, "host", json_object_new_int((int)host));
		json_object_object_add(j, "dry_run", json_object_new_boolean(o.dry_run));
		for (i = 0; i < n; i++)
			json_object_array_add(arr, result_json(&o, &res[i]));
		json_object_object_add(j, "nodes", arr);
		puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
							JSON_C_TO_STRING_SPACED));
		json_object_put(j);
	} else if (!naactl_quiet() || failed || unreachable) {
		for (i = 0; i < n; i++)
			if (!naactl_quiet() || res[i].error || !res[i].reachable)
				result_print(&o, &res[i], o.dry_run);
		if (!o.dry_run)
			printf("%u of %u node(s) programmed%s", n - failed, n,
			       o.check ? "" : "\n");
		if (!o.dry_run && o.check)
			printf(", %u reachable by table routing\n", n - unreachable);
	}

	free(res);
	extoll_close(nic);
	if (failed)
		return naactl_exit_of(worst);
	return unreachable ? 2 : 0;
}
