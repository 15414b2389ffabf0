// SPDX-License-Identifier: Apache-2.0
/*
 * naactl: a node's holder (the own block of its NIC, docs/security.md).
 *   naactl release NODE            give back a node this host holds (not attached)
 *   naactl release --force NODE    free it whoever holds it (the administrator's
 *                                  way out when a holder crashed)
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

/* own.owner of NODE: 0 and *held / *holder, or a negative errno. */
int naactl_owner(struct extoll_nic *nic, uint16_t node, int *held, uint16_t *holder)
{
	uint64_t v;
	int ret = extoll_rra_read(nic, node, EXTOLL_OWN_BASE + EXTOLL_OWN_OWNER, &v);

	if (ret)
		return ret;
	*held = !!(v & EXTOLL_OWN_OWNER_HELD_MASK);
	*holder = (uint16_t)((v & EXTOLL_OWN_OWNER_NODE_MASK) >> EXTOLL_OWN_OWNER_NODE_SHIFT);
	return 0;
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
