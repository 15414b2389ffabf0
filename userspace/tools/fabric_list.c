// SPDX-License-Identifier: Apache-2.0
/*
 * naactl: every node of the fabric with its holder (docs/security.md,
 * "Dynamic assignment"), read from the nodes themselves:
 *   naactl list --all [--torus XxYxZ | --topology FILE]
 * and the free NAAs for attach --any N. The state lives in the NAAs' own
 * blocks (own.owner), so there is no daemon to ask and nothing to get out
 * of step: what a node's NIC says is who holds it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extoll_regs.h"
#include "extoll_topo.h"
#include "libextoll.h"
#include "naactl.h"

/* the co-simulation's guests and a booster host's install put it here */
#define FABRIC_TOPOLOGY	"/etc/extoll/topology"

/* --torus / --topology (else FABRIC_TOPOLOGY, if it exists): *n nodes. */
int naactl_fabric_size(const char *torus, const char *topo, unsigned int *n)
{
	struct extoll_torus t;
	struct extoll_topo *tp;
	char err[512];
	int ret;

	if (torus) {
		if (extoll_torus_parse(torus, &t)) {
			err_msg("bad --torus '%s' (e.g. 4x4x2)", torus);
			return -EINVAL;
		}
		*n = extoll_torus_nodes(&t);
		return 0;
	}
	if (!topo && access(FABRIC_TOPOLOGY, R_OK)) {
		err_msg("which fabric? give --torus XxYxZ or --topology FILE (no %s)",
			FABRIC_TOPOLOGY);
		return -EINVAL;
	}
	tp = malloc(sizeof(*tp));
	if (!tp)
		return -ENOMEM;
	ret = extoll_topo_load(topo ? topo : FABRIC_TOPOLOGY, tp, err, sizeof(err));
	if (ret)
		err_msg("topology %s", err);
	else
		*n = extoll_torus_nodes(&tp->torus);
	free(tp);
	return ret;
}

/* What one node says about itself (RRA; the own node from BAR0). */
int naactl_node_state(struct extoll_nic *nic, uint16_t node, struct naactl_node *s)
{
	const struct extoll_nic_info *info = extoll_nic_info(nic);
	uint64_t id, left;
	int ret;

	memset(s, 0, sizeof(*s));
	s->node = node;
	s->domain = -1;
	if (node == info->node_id) {
		s->self = 1;
		s->role = info->role;
		return 0;
	}
	ret = extoll_rra_read(nic, node, EXTOLL_INFO_BASE + EXTOLL_INFO_ID, &id);
	if (ret)
		return s->error = ret;
	s->role = (int)((id & EXTOLL_INFO_ID_ROLE_MASK) >> EXTOLL_INFO_ID_ROLE_SHIFT);
	if (s->role != 1)
		return 0;
	ret = naactl_owner(nic, node, &s->held, &s->holder);
	if (!ret && s->held)
		ret = extoll_rra_read(nic, node, EXTOLL_OWN_BASE + EXTOLL_OWN_LEASE_LEFT, &left);
	if (ret == -EREMOTEIO) {	/* an older NIC without an own block */
		s->no_own = 1;
		return 0;
	}
	if (ret)
		return s->error = ret;
	if (s->held)
		s->lease_left = (uint32_t)(left & EXTOLL_OWN_LEASE_LEFT_UNITS_MASK);
	return 0;
}

static const char *node_state_name(const struct naactl_node *s, uint16_t me)
{
	if (s->error)
		return "no-answer";
	if (s->self)
		return "self";
	if (s->role != 1)
		return "host";
	if (s->no_own)
		return "unknown";
	if (!s->held)
		return "free";
	if (s->holder != me)
		return "held";
	return s->domain >= 0 ? "attached" : "held here";
}

static void print_node(const struct naactl_node *s, uint16_t me)
{
	char dom[8];

	print_uint(PRINT_ANY, "node", "%5u", s->node);
	print_string(PRINT_ANY, "role", "  %-5s",
		     s->error ? "-" : s->role == 1 ? "naa" : "host");
	print_string(PRINT_ANY, "state", "  %-10s", node_state_name(s, me));
	if (s->held)
		print_uint(PRINT_ANY, "holder", "  %6u", s->holder);
	else
		print_or_null("holder", "  %6s", NULL, "-");
	if (s->held && s->lease_left)
		print_uint(PRINT_ANY, "lease_left", "  %10u", s->lease_left);
	else
		print_or_null("lease_left", "  %10s", NULL, "-");
	snprintf(dom, sizeof(dom), "%04x", (unsigned int)s->domain & 0xffff);
	print_or_null("domain", "  %s", s->domain >= 0 ? dom : NULL, "-");
	if (s->error) {
		print_int(PRINT_ANY, "error", "  (error %d: ", s->error);
		print_text("%s)", strerror(-s->error));
	}
	print_nl();
}

/* list --all: every node 0..n-1; exit 0 even if some do not answer (shown). */
int naactl_list_all(struct extoll_nic *nic, const char *torus, const char *topo)
{
	struct extoll_naa *att = NULL;
	struct naactl_node s;
	size_t na = 0, k;
	unsigned int n, i;
	uint16_t me;
	int ret;

	ret = naactl_fabric_size(torus, topo, &n);
	if (ret)
		return NAACTL_EXIT_USAGE;
	ret = naactl_open(&nic, 1);
	if (ret)
		return ret;
	me = extoll_nic_info(nic)->node_id;
	if (extoll_list(nic, &att, &na))
		na = 0;
	new_json_obj();
	print_uint(PRINT_JSON, "node", NULL, me);
	print_text(" NODE  ROLE   STATE       HOLDER  LEASE_LEFT  DOMAIN\n");
	open_json_array(PRINT_JSON, "nodes");
	for (i = 0; i < n; i++) {
		naactl_node_state(nic, (uint16_t)i, &s);
		for (k = 0; k < na; k++)
			if (att[k].node == i)
				s.domain = att[k].domain;
		open_json_object(NULL);
		print_node(&s, me);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	delete_json_obj();
	extoll_list_free(att);
	extoll_close(nic);
	return NAACTL_EXIT_OK;
}

/* The free NAAs of the fabric in node order, at most max: 0 and *cnt, or a
 * negative errno. A node can be taken by another host between this look and
 * the claim: the claim decides (attach --any goes on to the next one). */
int naactl_free_naas(struct extoll_nic *nic, unsigned int n, uint16_t *nodes,
		     size_t max, size_t *cnt)
{
	struct naactl_node s;
	unsigned int i;

	*cnt = 0;
	for (i = 0; i < n && *cnt < max; i++)
		if (!naactl_node_state(nic, (uint16_t)i, &s) && !s.self &&
		    s.role == 1 && !s.no_own && !s.held)
			nodes[(*cnt)++] = (uint16_t)i;
	return 0;
}
