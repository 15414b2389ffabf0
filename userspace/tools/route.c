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

#include "extoll_regs.h"
#include "libextoll.h"
#include "naactl.h"

/* Inports with tables: links 0-6 and the local unit ports 7 and 8. */
#define ROUTE_INPORTS		9
/* rt_entry.inport 15 writes every inport's table at once (router.sv). */
#define ROUTE_INPORT_ALL	15

struct route_opts {
	struct extoll_torus torus;
	int have_torus;
	int dry_run;
	int tables;
	int all_inports;
	int check;
	int assign_ids;		/* set router.node at every node first */
	int mgmt;		/* then own.mgmt = this host at every node */
	long host_node;		/* -1: the NIC's */
};

struct node_result {
	struct extoll_route_step s;	/* node, hops, source route */
	unsigned int entries;
	int error;		/* 0 or negative errno */
	int reachable;		/* -1 not checked */
	int mgmt;		/* --mgmt: 1 set, 0 not tried, negative errno */
	int mgmt_other;		/* refused (-EACCES): the node that manages it, or -1 */
};

/* The torus of a topology file (sim/topologies/): the co-simulation's node
 * roles and link latency do not matter here, the tables cover every node. */
static int load_topology(const char *path, struct route_opts *o)
{
	struct extoll_topo *t = malloc(sizeof(*t));
	char err[512];
	int ret;

	if (!t)
		return -ENOMEM;
	ret = extoll_topo_load(path, t, err, sizeof(err));
	if (ret)
		err_msg("topology %s", err);
	else
		o->torus = t->torus;
	free(t);
	o->have_torus = !ret;
	return ret;
}

const char route_usage[] = "--torus XxYxZ | --topology FILE [--dry-run] [--tables] "
			   "[--host-node N] [--all-inports] [--no-check] [--assign-ids] [--mgmt]\n"
			   "--discover [--topology FILE] [--dry-run]";

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
		{ "assign-ids", no_argument, NULL, 'I' },
		{ "mgmt", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->check = 1;
	o->host_node = -1;
	optind = 0;	/* options anywhere after "route", -j -p -q too */
	while ((c = naactl_getopt(argc, argv, "t:f:nTH:aCIM", opts)) != -1) {
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
		case 'H': {
			uint16_t node;

			if (naactl_parse_node(optarg, &node))
				return -EINVAL;
			o->host_node = node;
			break;
		}
		case 'a':
			o->all_inports = 1;
			break;
		case 'C':
			o->check = 0;
			break;
		case 'I':
			o->assign_ids = 1;
			break;
		case 'M':
			o->mgmt = 1;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind != argc || !o->have_torus) {
		err_msg("usage: route %s", route_usage);
		return -EINVAL;
	}
	return 0;
}

/* The library's plan (nearest first), with room for the results. */
static struct node_result *plan(const struct route_opts *o, unsigned int host)
{
	unsigned int n = extoll_torus_nodes(&o->torus), i;
	struct node_result *r = calloc(n, sizeof(*r));
	struct extoll_route_step *steps;

	if (!r || extoll_route_plan(&o->torus, host, &steps)) {
		free(r);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		r[i].s = steps[i];
		r[i].reachable = -1;
		r[i].mgmt_other = -1;
	}
	free(steps);
	return r;
}

static int write_entry(struct extoll_nic *nic, struct node_result *r,
		       uint64_t entry)
{
	uint16_t answered = 0;
	int ret;

	if (!r->s.source_routed)
		return extoll_rra_write(nic, (uint16_t)r->s.node, extoll_reg_rt_entry(), entry);
	ret = extoll_rra_write_routed(nic, r->s.route, extoll_reg_rt_entry(), entry,
				      &answered);
	if (!ret && answered != r->s.node) {
		err_msg("the source route to node %u reached node %u: the torus dimensions or node ids are wrong",
			r->s.node, answered);
		return -EPROTO;
	}
	return ret;
}

/*
 * --assign-ids: the node's id and dateline in router.node, before its tables
 * (docs/naactl.md). The write is answered with the id the node had before
 * (its strap), which may be anything: it is not checked; the table writes
 * after it are answered by the new id.
 */
static int assign_id(struct extoll_nic *nic, const struct route_opts *o,
		     struct node_result *r)
{
	uint64_t v = extoll_node_word((uint16_t)r->s.node,
				      extoll_torus_dateline(&o->torus, r->s.node));

	if (!r->s.source_routed)
		return extoll_rra_write(nic, (uint16_t)r->s.node, extoll_reg_node(), v);
	return extoll_rra_write_routed(nic, r->s.route, extoll_reg_node(), v, NULL);
}

/* All entries of one node, those toward this host first. */
static int program_node(struct extoll_nic *nic, const struct route_opts *o,
			unsigned int host, struct node_result *r)
{
	unsigned int n = extoll_torus_nodes(&o->torus), k, d, in;
	unsigned int n_in = o->all_inports ? 1 : ROUTE_INPORTS;
	int ret;

	if (o->assign_ids) {
		ret = assign_id(nic, o, r);
		if (ret)
			return ret;
	}
	for (k = 0; k < n; k++) {
		d = extoll_route_dest(host, k);
		for (in = 0; in < n_in; in++) {
			unsigned int inport = o->all_inports ? ROUTE_INPORT_ALL : in;
			uint64_t e = extoll_rt_entry((uint16_t)d, inport,
					extoll_torus_next_port(&o->torus, r->s.node, d));

			ret = write_entry(nic, r, e);
			/* Table-routed: the way back exists only after these. */
			if (ret == -ETIMEDOUT && !r->s.source_routed && d == host)
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

	ret = extoll_rra_read(nic, (uint16_t)r->s.node, extoll_reg_info_id(), &id);
	if (ret)
		return ret;
	if ((id & EXTOLL_INFO_ID_MAGIC_MASK) != EXTOLL_INFO_ID_MAGIC_RESET ||
	    ((id & EXTOLL_INFO_ID_NODE_ID_MASK) >> EXTOLL_INFO_ID_NODE_ID_SHIFT) != r->s.node)
		return -EPROTO;
	return 0;
}

/* The node that manages NODE (own.mgmt), after NODE refused a write, or -1
 * (none set, or unreadable). */
static int managed_by(struct extoll_nic *nic, uint16_t node)
{
	uint16_t mgmt;
	int valid;

	if (naactl_mgmt(nic, node, &valid, &mgmt) || !valid)
		return -1;
	return mgmt;
}

/* own.mgmt = this host (table routed, after the tables): 1, or a negative
 * errno; a node another node manages refuses it (-EACCES, mgmt_other). */
static int set_mgmt(struct extoll_nic *nic, unsigned int host, struct node_result *r)
{
	uint16_t node = (uint16_t)r->s.node;
	uint64_t v = EXTOLL_OWN_MGMT_VALID_MASK | ((uint64_t)host << EXTOLL_OWN_MGMT_NODE_SHIFT);
	int ret = extoll_rra_write(nic, node, EXTOLL_OWN_BASE + EXTOLL_OWN_MGMT, v);

	if (ret == -EACCES)
		r->mgmt_other = managed_by(nic, node);
	return ret ? ret : 1;
}

/* ", managed by this host" or why not; JSON "mgmt": true, false or absent */
static void print_mgmt(const struct node_result *r)
{
	if (!r->mgmt)
		return;
	print_bool(PRINT_JSON, "mgmt", NULL, r->mgmt > 0);
	if (r->mgmt > 0) {
		print_text(", managed by this host");
	} else if (r->mgmt == -EACCES && r->mgmt_other >= 0) {
		print_uint(PRINT_ANY, "mgmt_other", ", NOT managed by this host: node %u manages it",
			   (unsigned int)r->mgmt_other);
	} else {
		print_string(PRINT_ANY, "mgmt_error", ", own.mgmt not set: %s",
			     r->mgmt == -EREMOTEIO ? "no own block (an older NIC)" : strerror(-r->mgmt));
	}
}

/* The out port toward every destination; JSON: "tables", an array indexed
 * by destination. */
static void print_tables(const struct route_opts *o, unsigned int node)
{
	unsigned int n = extoll_torus_nodes(&o->torus), d;

	print_text("    out port by destination:");
	open_json_array(PRINT_JSON, "tables");
	for (d = 0; d < n; d++) {
		print_text(" %u:", d);
		print_string(PRINT_ANY, NULL, "%s",
			     extoll_port_name(extoll_torus_next_port(&o->torus, node, d)));
	}
	close_json_array(PRINT_JSON, NULL);
	print_nl();
}

/* "node 3 (1,1,0): 2 hop(s), via X+,Y+,eject: 36 entries, reachable by ..." */
static void print_result(const struct route_opts *o, const struct node_result *r)
{
	unsigned int xyz[3], i;
	char buf[64];

	extoll_torus_coords(&o->torus, r->s.node, xyz);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "node", "node %u ", r->s.node);
	open_json_array(PRINT_ANY, "coords");
	for (i = 0; i < 3; i++)
		print_uint(PRINT_ANY, NULL, i ? ",%u" : "(%u", xyz[i]);
	close_json_array(PRINT_ANY, "): ");
	print_uint(PRINT_ANY, "hops", "%u hop(s), ", r->s.hops);
	if (r->s.source_routed) {
		extoll_route_string(r->s.route, buf, sizeof(buf));
		print_string(PRINT_ANY, "source_route", "via %s", buf);
	} else {
		print_null(PRINT_ANY, "source_route", "via %s", "table routing");
	}
	if (o->dry_run) {
		print_uint(PRINT_JSON, "entries", NULL, r->entries);
		print_null(PRINT_JSON, "error", NULL, NULL);
	} else if (r->error == -EACCES && r->mgmt_other >= 0) {
		print_uint(PRINT_ANY, "entries", ": FAILED after %u entries: ", r->entries);
		print_string(PRINT_JSON, "error", NULL, "refused");
		print_uint(PRINT_ANY, "mgmt_other", "refused, node %u manages it",
			   (unsigned int)r->mgmt_other);
	} else if (r->error) {
		print_uint(PRINT_ANY, "entries", ": FAILED after %u entries: ", r->entries);
		print_string(PRINT_ANY, "error", "%s", r->error == -EACCES ?
			     "refused (held by another node: naactl regs NODE own)" :
			     strerror(-r->error));
	} else {
		print_uint(PRINT_ANY, "entries", ": %u entries", r->entries);
		print_null(PRINT_JSON, "error", NULL, NULL);
	}
	if (r->reachable >= 0) {
		print_bool(PRINT_JSON, "reachable", NULL, r->reachable);
		print_text(", %s", r->reachable ? "reachable by table routing" :
			   "NOT reachable by table routing");
	} else {
		print_null(PRINT_JSON, "reachable", NULL, NULL);
	}
	print_mgmt(r);
	print_nl();
	if (o->tables)
		print_tables(o, r->s.node);
	close_json_object();
}

int cmd_route(struct extoll_nic *nic, int argc, char **argv)
{
	struct node_result *res;
	struct route_opts o;
	unsigned int host, n, i, failed = 0, unreachable = 0, mgmt_ok = 0;
	int ret, quiet, worst = 0;
	char dims[48];

	for (i = 1; !nic && i < (unsigned int)argc; i++)	/* in-band: discover.c */
		if (!strcmp(argv[i], "--discover"))
			return cmd_route_discover(argc, argv);
	if (nic || parse_opts(argc, argv, &o))
		return NAACTL_EXIT_USAGE;
	n = extoll_torus_nodes(&o.torus);

	if (!o.dry_run) {
		ret = naactl_open_nic(&nic);
		if (ret)
			return ret;
		if (naactl_require_rra(nic)) {
			extoll_close(nic);
			return NAACTL_EXIT_NONIC;
		}
	}
	host = o.host_node >= 0 ? (unsigned int)o.host_node :
	       nic ? extoll_nic_info(nic)->node_id : 0;
	if (host >= n) {
		err_msg("this host is node %u, outside the %ux%ux%u torus", host,
			o.torus.dim[0], o.torus.dim[1], o.torus.dim[2]);
		extoll_close(nic);
		return NAACTL_EXIT_USAGE;
	}
	/* The driver keeps the id it read at probe: the host keeps its own. */
	if (o.assign_ids && nic && host != extoll_nic_info(nic)->node_id) {
		err_msg("--assign-ids: this host's NIC is node %u, not %u: the host keeps its id (strap it, or omit --host-node)",
			extoll_nic_info(nic)->node_id, host);
		extoll_close(nic);
		return NAACTL_EXIT_USAGE;
	}

	res = plan(&o, host);
	if (!res) {
		extoll_close(nic);
		return NAACTL_EXIT_OTHER;
	}

	for (i = 0; !nic && i < n; i++)	/* dry run: what would be written */
		res[i].entries = n * (o.all_inports ? 1 : ROUTE_INPORTS);
	for (i = 0; nic && i < n; i++) {
		res[i].error = program_node(nic, &o, host, &res[i]);
		if (res[i].error == -EACCES)
			res[i].mgmt_other = managed_by(nic, (uint16_t)res[i].s.node);
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
	for (i = 0; nic && o.mgmt && i < n; i++) {
		if (res[i].error || !res[i].reachable)
			continue;
		res[i].mgmt = set_mgmt(nic, host, &res[i]);
		mgmt_ok += res[i].mgmt > 0;
	}

	/* -q: the text names only the nodes that failed, and the summary */
	quiet = print_set_quiet(0);
	snprintf(dims, sizeof(dims), "%ux%ux%u", o.torus.dim[0], o.torus.dim[1],
		 o.torus.dim[2]);
	new_json_obj();
	print_string(PRINT_JSON, "torus", NULL, dims);
	print_uint(PRINT_JSON, "host", NULL, host);
	print_bool(PRINT_JSON, "dry_run", NULL, o.dry_run);
	open_json_array(PRINT_JSON, "nodes");
	for (i = 0; i < n; i++)
		if (is_json_context() || !quiet || res[i].error || !res[i].reachable ||
		    res[i].mgmt < 0)
			print_result(&o, &res[i]);
	close_json_array(PRINT_JSON, NULL);
	if (!o.dry_run) {	/* the summary: JSON always, text unless -q and all well */
		enum output_type t = !quiet || failed || unreachable || (o.mgmt && mgmt_ok < n) ?
				     PRINT_ANY : PRINT_JSON;

		print_uint(t, "programmed", "%u", n - failed);
		print_uint(t, "n_nodes", " of %u node(s) programmed", n);
		if (o.check)
			print_uint(t, "n_reachable", ", %u reachable by table routing",
				   n - unreachable);
		if (o.mgmt)
			print_uint(t, "n_managed", ", %u managed by this host", mgmt_ok);
		if (t == PRINT_ANY)
			print_nl();
	}
	delete_json_obj();
	print_set_quiet(quiet);

	free(res);
	extoll_close(nic);
	if (failed)	/* refused: another node manages or holds it */
		return worst == -EACCES ? NAACTL_EXIT_BUSY : naactl_exit_of(worst);
	if (unreachable)
		return NAACTL_EXIT_NONODE;
	return o.mgmt && mgmt_ok < n ? NAACTL_EXIT_BUSY : NAACTL_EXIT_OK;
}
