// SPDX-License-Identifier: Apache-2.0
/*
 * naactl: a node's holder (the own block of its NIC, docs/security.md).
 *   naactl release NODE            give back a node this host holds (not attached)
 *   naactl release --force NODE    free it whoever holds it (the administrator's
 *                                  way out when a holder crashed)
 *   naactl mgmt NODE               its management node (own.mgmt)
 *   naactl mgmt NODE set [MGMT]    name MGMT (default: this host's node) as
 *                                  the node that administers NODE
 *   naactl mgmt NODE clear         no management node any more
 * and the holder's name for attach's "node N is held by node M".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "extoll_regs.h"
#include "libextoll.h"
#include "naactl.h"

const char release_usage[] = "[--force] NODE";
const char mgmt_usage[] = "NODE [set [MGMT] | clear]";

/* A register of NODE's own block that names a node: {flag, node}. */
static int own_node_reg(struct extoll_nic *nic, uint16_t node, uint32_t reg, uint64_t flag_mask,
			uint64_t node_mask, unsigned int node_shift, int *flag, uint16_t *who)
{
	uint64_t v;
	int ret = extoll_rra_read(nic, node, EXTOLL_OWN_BASE + reg, &v);

	if (ret)
		return ret;
	*flag = !!(v & flag_mask);
	*who = (uint16_t)((v & node_mask) >> node_shift);
	return 0;
}

/* own.owner of NODE: 0 and *held / *holder, or a negative errno. */
int naactl_owner(struct extoll_nic *nic, uint16_t node, int *held, uint16_t *holder)
{
	return own_node_reg(nic, node, EXTOLL_OWN_OWNER, EXTOLL_OWN_OWNER_HELD_MASK,
			    EXTOLL_OWN_OWNER_NODE_MASK, EXTOLL_OWN_OWNER_NODE_SHIFT, held, holder);
}

int naactl_attached_here(struct extoll_nic *nic, uint16_t node)
{
	struct extoll_naa *list = NULL;
	size_t n = 0, i;
	int found = 0;

	if (extoll_list(nic, &list, &n))
		return 0;
	for (i = 0; i < n; i++)
		found |= list[i].node == node;
	extoll_list_free(list);
	return found;
}

int cmd_release(struct extoll_nic *nic, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	int c, force = 0, held, ret;
	uint16_t node, holder;

	optind = 0;
	while ((c = naactl_getopt(argc, argv, "f", opts)) != -1) {
		if (c != 'f')
			return naactl_usage_error("release");
		force = 1;
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		return naactl_usage_error("release");
	if (naactl_parse_node(argv[0], &node))
		return NAACTL_EXIT_USAGE;
	ret = naactl_open(&nic, 1);
	if (ret)
		return ret;
	if (naactl_attached_here(nic, node)) {
		err_msg("node %u is attached to this host: 'naactl detach %u' releases it", node, node);
		extoll_close(nic);
		return NAACTL_EXIT_BUSY;
	}
	ret = extoll_rra_write(nic, node, EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM,
			       force ? EXTOLL_OWN_CLAIM_OP_FORCE : EXTOLL_OWN_CLAIM_OP_RELEASE);
	if (!ret)
		ret = naactl_owner(nic, node, &held, &holder);
	extoll_close(nic);
	if (ret == -EREMOTEIO) {
		err_msg("node %u has no ownership block (an older NIC)", node);
		return NAACTL_EXIT_OTHER;
	}
	if (ret) {
		err_msg("node %u: %s", node, strerror(-ret));
		return naactl_exit_of(ret);
	}
	if (held) {
		err_msg("node %u is held by node %u (a release by its holder or --force frees it)", node, holder);
		return NAACTL_EXIT_BUSY;
	}
	new_json_obj();
	print_uint(PRINT_ANY, "node", "node %u ", node);
	print_string(PRINT_ANY, "state", "%s", "free");
	print_nl();
	delete_json_obj();
	return NAACTL_EXIT_OK;
}

/* own.mgmt of NODE: 0 and *valid / *mgmt, or a negative errno. */
int naactl_mgmt(struct extoll_nic *nic, uint16_t node, int *valid, uint16_t *mgmt)
{
	return own_node_reg(nic, node, EXTOLL_OWN_MGMT, EXTOLL_OWN_MGMT_VALID_MASK,
			    EXTOLL_OWN_MGMT_NODE_MASK, EXTOLL_OWN_MGMT_NODE_SHIFT, valid, mgmt);
}

static void mgmt_print(uint16_t node, int valid, uint16_t mgmt, uint16_t self)
{
	new_json_obj();
	print_uint(PRINT_ANY, "node", "node %u: ", node);
	if (valid) {
		print_uint(PRINT_ANY, "mgmt", "managed by node %u", mgmt);
		print_bool(PRINT_JSON, "this_host", NULL, mgmt == self);
		print_text("%s", mgmt == self ? " (this host)" : "");
	} else {
		print_null(PRINT_ANY, "mgmt", "%s", "no management node");
		print_bool(PRINT_JSON, "this_host", NULL, 0);
	}
	print_nl();
	delete_json_obj();
}

/* The message and exit status of a failed access to NODE's own.mgmt. */
static int mgmt_error(struct extoll_nic *nic, uint16_t node, int ret)
{
	int valid = 0;
	uint16_t mgmt = 0;

	if (ret == -EREMOTEIO) {
		err_msg("node %u has no management register (an older NIC)", node);
		return NAACTL_EXIT_OTHER;
	}
	if (ret == -EACCES) {
		if (!naactl_mgmt(nic, node, &valid, &mgmt) && valid)
			err_msg("node %u is managed by node %u: only node %u (or node %u itself) may change it",
				node, mgmt, mgmt, node);
		else
			err_msg("node %u refused the write (held by another node: naactl regs %u own)",
				node, node);
		return NAACTL_EXIT_BUSY;
	}
	if (ret == -ETIMEDOUT)
		err_msg("node %u does not answer (no such node, or unreachable)", node);
	else
		err_msg("node %u: %s", node, strerror(-ret));
	return naactl_exit_of(ret);
}

/* Operands NODE [set [MGMT] | clear]: 0, or a usage exit status. */
static int mgmt_parse(int argc, char **argv, uint16_t *node, int *op, int *named, uint16_t *mgmt)
{
	*op = 0;
	*named = 0;
	if (argc < 2 || argc > 4 || naactl_parse_node(argv[1], node))
		return argc < 2 || argc > 4 ? naactl_usage_error("mgmt") : NAACTL_EXIT_USAGE;
	if (argc == 2)
		return 0;
	if (!strcmp(argv[2], "set"))
		*op = 1;
	else if (!strcmp(argv[2], "clear") && argc == 3)
		*op = 2;
	else
		return naactl_usage_error("mgmt");
	if (argc == 4) {
		if (naactl_parse_node(argv[3], mgmt))
			return NAACTL_EXIT_USAGE;
		*named = 1;
	}
	return 0;
}

int cmd_mgmt(struct extoll_nic *nic, int argc, char **argv)
{
	uint16_t node, mgmt = 0, self;
	int ret, op, named, valid;

	ret = naactl_operands(&argc, &argv);
	if (ret)
		return ret;
	ret = mgmt_parse(argc, argv, &node, &op, &named, &mgmt);
	if (ret)
		return ret;
	ret = naactl_open(&nic, 1);
	if (ret)
		return ret;
	self = extoll_nic_info(nic)->node_id;
	if (op == 1 && !named)
		mgmt = self;
	if (op)
		ret = extoll_rra_write(nic, node, EXTOLL_OWN_BASE + EXTOLL_OWN_MGMT,
				       op == 1 ? EXTOLL_OWN_MGMT_VALID_MASK |
				       ((uint64_t)mgmt << EXTOLL_OWN_MGMT_NODE_SHIFT) : 0);
	if (!ret)
		ret = naactl_mgmt(nic, node, &valid, &mgmt);
	if (ret) {
		ret = mgmt_error(nic, node, ret);
		extoll_close(nic);
		return ret;
	}
	extoll_close(nic);
	mgmt_print(node, valid, mgmt, self);
	return NAACTL_EXIT_OK;
}
