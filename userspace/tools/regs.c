// SPDX-License-Identifier: Apache-2.0
/*
 * naactl regs and links: the NIC's registers by name, with their fields
 * decoded, from the table generated out of the SystemRDL in the same pass as
 * extoll_regs.h (hw/include/extoll_regs_table.h, hw/gen/gen_cheader.py).
 *
 * Without NODE the local NIC is read through its BAR0 (libextoll's
 * extoll_reg_read, sysfs resource0); where the kernel refuses to map a BAR
 * its driver claimed (CONFIG_IO_STRICT_DEVMEM) the local registers are read
 * by the NIC's own remote register access with the source route "7" (eject
 * at the first router: this node, no routing table needed). With NODE any
 * node is read in-band by RRA (table routing, or --route PORTS).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "extoll_regs.h"
#include "extoll_regs_table.h"
#include "libextoll.h"
#include "naactl.h"

const char regs_usage[] = "[NODE] [BLOCK[.REG] | REG] [--route PORTS]";
const char links_usage[] = "[NODE] [--route PORTS]";

/* Where registers are read from. */
struct reg_src {
	struct extoll_nic *nic;
	int remote;		/* NODE given (or --route) */
	int routed;
	uint16_t node;
	uint64_t route;
	const char *via;	/* "bar0", "rra" */
};

/* [NODE] [--route PORTS] and, for regs, a register selection: the
 * operands left in argv[first..argc). Returns 0 or an exit status. */
static int parse_src(int argc, char **argv, struct reg_src *s, int *first)
{
	static const struct option opts[] = {
		{ "route", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(s, 0, sizeof(*s));
	optind = 0;
	while ((c = naactl_getopt(argc, argv, "r:", opts)) != -1) {
		if (c != 'r')
			return naactl_usage_error(argv[0]);
		if (naactl_parse_route(optarg, &s->route))
			return NAACTL_EXIT_USAGE;
		s->routed = s->remote = 1;
	}
	*first = optind;
	/* NODE: digits ('-' with --route); a register name starts with a letter */
	if (optind < argc && (argv[optind][0] >= '0' && argv[optind][0] <= '9')) {
		if (naactl_parse_node(argv[optind], &s->node))
			return NAACTL_EXIT_USAGE;
		s->remote = 1;
		(*first)++;
	} else if (optind < argc && s->routed && !strcmp(argv[optind], "-")) {
		(*first)++;
	}
	return 0;
}

static int src_read(struct reg_src *s, uint32_t addr, uint64_t *val)
{
	uint16_t answered;
	int ret;

	if (s->remote && s->routed)
		return extoll_rra_read_routed(s->nic, s->route, addr, val, &answered);
	if (s->remote)
		return extoll_rra_read(s->nic, s->node, addr, val);
	if (!s->via || !strcmp(s->via, "bar0")) {
		ret = extoll_reg_read(s->nic, addr, val);
		if (!ret || !extoll_nic_info(s->nic)->rra) {
			s->via = "bar0";
			return ret;
		}
	}
	s->via = "rra";	/* route 7: eject at this node's router */
	return extoll_rra_read_routed(s->nic, EXTOLL_PORT_EJECT, addr, val, &answered);
}

static int open_src(struct reg_src *s)
{
	int ret = naactl_open(&s->nic, s->remote);

	if (ret)
		return ret;
	if (s->remote)
		s->via = "rra";
	else
		s->node = extoll_nic_info(s->nic)->node_id;
	return 0;
}

static int read_error(const struct reg_src *s, const struct extoll_reg_desc *r, int err)
{
	if (s->remote)
		err_msg("%s.%s of node %u%s: %s", r->block, r->name, s->node,
			s->routed ? " (source-routed)" : "",
			err == -ETIMEDOUT ? "no answer within the timeout" : strerror(-err));
	else
		err_msg("%s.%s of the local NIC: %s%s", r->block, r->name, strerror(-err),
			err == -EACCES || err == -EPERM ? " (run as root)" : "");
	return err == -EREMOTEIO ? NAACTL_EXIT_OTHER : naactl_exit_of(err);
}

/* The header of both commands: which node, read how. */
static void print_src(const struct reg_src *s)
{
	if (s->routed) {
		char buf[64];

		extoll_route_string(s->route, buf, sizeof(buf));
		print_null(PRINT_JSON, "node", NULL, NULL);
		print_string(PRINT_ANY, "route", "node at %s", buf);
	} else {
		print_uint(PRINT_ANY, "node", "node %u", s->node);
		print_null(PRINT_JSON, "route", NULL, NULL);
	}
	print_bool(PRINT_JSON, "local", NULL, !s->remote);
	print_string(PRINT_ANY, "via", s->remote ? " (%s)" : " (local NIC, %s)", s->via);
}

/* ---- regs */

/* sel: NULL (all), "block", "block.reg" or "reg" (unique); the table
 * entries it selects are flagged in pick[]. Returns how many (0: a message). */
/* " info pcie ...": the blocks of the register table, in map order */
static void block_names(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = 0;
	for (i = 0; i < EXTOLL_REG_TABLE_LEN && used < len; i++) {
		if (i && !strcmp(extoll_reg_table[i].block, extoll_reg_table[i - 1].block))
			continue;
		used += (size_t)snprintf(buf + used, len - used, " %s", extoll_reg_table[i].block);
	}
}

static size_t select_regs(const char *sel, char *pick)
{
	const char *dot = sel ? strchr(sel, '.') : NULL;
	size_t i, n = 0, blen = dot ? (size_t)(dot - sel) : sel ? strlen(sel) : 0;
	int any_block = 0;

	for (i = 0; sel && i < EXTOLL_REG_TABLE_LEN; i++)
		any_block |= strlen(extoll_reg_table[i].block) == blen &&
			     !strncmp(extoll_reg_table[i].block, sel, blen);
	for (i = 0; i < EXTOLL_REG_TABLE_LEN; i++) {
		const struct extoll_reg_desc *r = &extoll_reg_table[i];
		int match;

		if (!sel)
			match = 1;
		else if (dot)
			match = strlen(r->block) == blen && !strncmp(r->block, sel, blen) &&
				!strcmp(r->name, dot + 1);
		else if (any_block)
			match = !strcmp(r->block, sel);
		else
			match = !strcmp(r->name, sel);
		/* a whole block or all: the readable registers (not rx_pop, irq_test) */
		pick[i] = match && (strchr(r->access, 'r') || (dot && sel));
		n += pick[i];
	}
	if (sel && !dot && !any_block && n > 1) {
		err_msg("register '%s' is in several blocks: give BLOCK.%s", sel, sel);
		return 0;
	}
	if (!n) {
		char blocks[256];

		block_names(blocks, sizeof(blocks));
		err_msg("no register '%s' (blocks:%s; 'naactl regs' reads them all)", sel, blocks);
	}
	return n;
}

static void print_reg(const struct extoll_reg_desc *r, uint64_t v)
{
	char name[48], off[8], val[24];
	unsigned int i;

	snprintf(name, sizeof(name), "%s.%s", r->block, r->name);
	snprintf(off, sizeof(off), "0x%04x", r->offset);
	snprintf(val, sizeof(val), "0x%016" PRIx64, v);
	open_json_object(NULL);
	print_string(PRINT_JSON, "block", NULL, r->block);
	print_string(PRINT_JSON, "register", NULL, r->name);
	print_string(PRINT_FP, NULL, "%-22s ", name);
	print_string(PRINT_ANY, "offset", "%s  ", off);
	print_string(PRINT_ANY, "value", "%s", val);
	print_string(PRINT_JSON, "title", NULL, r->title);
	open_json_object("fields");
	print_text("  ");
	for (i = 0; i < r->n_fields; i++) {
		const struct extoll_reg_field *f = &r->fields[i];
		uint64_t fv = f->width == 64 ? v : (v >> f->lsb) & ((1ULL << f->width) - 1);

		print_text(" %s=", f->name);
		print_u64(PRINT_ANY, f->name, fv > 9 ? "0x%" PRIx64 : "%" PRIu64, fv);
	}
	close_json_object();
	print_nl();
	close_json_object();
}

int cmd_regs(struct extoll_nic *nic, int argc, char **argv)
{
	uint64_t vals[EXTOLL_REG_TABLE_LEN];
	char pick[EXTOLL_REG_TABLE_LEN];
	struct reg_src s;
	const char *sel;
	uint64_t v;
	size_t i;
	int first, ret;

	(void)nic;
	ret = parse_src(argc, argv, &s, &first);
	if (ret)
		return ret;
	if (argc - first > 1)
		return naactl_usage_error(argv[0]);
	sel = first < argc ? argv[first] : NULL;
	if (!select_regs(sel, pick))
		return NAACTL_EXIT_USAGE;
	ret = open_src(&s);
	if (ret)
		return ret;
	/* every value first: an error leaves no half document */
	for (i = 0; i < EXTOLL_REG_TABLE_LEN; i++) {
		if (!pick[i])
			continue;
		ret = src_read(&s, extoll_reg_table[i].offset, &vals[i]);
		if (ret) {
			ret = read_error(&s, &extoll_reg_table[i], ret);
			extoll_close(s.nic);
			return ret;
		}
	}
	new_json_obj();
	print_src(&s);
	print_text(":\n");
	open_json_array(PRINT_JSON, "registers");
	for (i = 0; i < EXTOLL_REG_TABLE_LEN; i++) {
		v = vals[i];
		if (pick[i])
			print_reg(&extoll_reg_table[i], v);
	}
	close_json_array(PRINT_JSON, NULL);
	delete_json_obj();
	extoll_close(s.nic);
	return NAACTL_EXIT_OK;
}

/* ---- links */

int cmd_links(struct extoll_nic *nic, int argc, char **argv)
{
	static const uint32_t addr[5] = {
		EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_LINK_STATUS,
		EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_CRC_ERRORS,
		EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_UNROUTABLE,
		EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_REPLAYS,
		EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_MALFORMED,
	};
	static const char *const names[5] = { "link_status", "crc_errors", "unroutable", "replays",
					      "malformed" };
	static const char *const lstate[4] = { "down", "training", "retraining", "up" };
	struct extoll_reg_desc what = { .block = "router" };
	uint64_t v[5];
	unsigned int i, up;
	struct reg_src s;
	int first, ret;

	(void)nic;
	ret = parse_src(argc, argv, &s, &first);
	if (ret)
		return ret;
	if (first != argc)
		return naactl_usage_error(argv[0]);
	ret = open_src(&s);
	if (ret)
		return ret;
	for (i = 0; i < 5; i++) {
		ret = src_read(&s, addr[i], &v[i]);
		if (ret) {
			what.name = names[i];
			ret = read_error(&s, &what, ret);
			extoll_close(s.nic);
			return ret;
		}
	}
	up = (unsigned int)((v[0] & EXTOLL_ROUTER_LINK_STATUS_UP_MASK) >>
			    EXTOLL_ROUTER_LINK_STATUS_UP_SHIFT);
	new_json_obj();
	print_src(&s);
	print_text(": ");
	print_uint(PRINT_ANY, "links_up", "%u", (unsigned int)__builtin_popcount(up));
	print_uint(PRINT_ANY, "n_links", " of %u links up", EXTOLL_ROUTER_LINK_STATUS_UP_WIDTH);
	/* sums over the links; per link: router.link_sel and router.link_* */
	print_u64(PRINT_ANY, "crc_errors", ", CRC errors %" PRIu64,
		  (v[1] & EXTOLL_ROUTER_CRC_ERRORS_COUNT_MASK) >> EXTOLL_ROUTER_CRC_ERRORS_COUNT_SHIFT);
	print_u64(PRINT_ANY, "unroutable", ", unroutable %" PRIu64,
		  (v[2] & EXTOLL_ROUTER_UNROUTABLE_COUNT_MASK) >> EXTOLL_ROUTER_UNROUTABLE_COUNT_SHIFT);
	print_u64(PRINT_ANY, "malformed", ", malformed %" PRIu64 " (all links)",
		  (v[4] & EXTOLL_ROUTER_MALFORMED_COUNT_MASK) >> EXTOLL_ROUTER_MALFORMED_COUNT_SHIFT);
	print_u64(PRINT_ANY, "retransmissions", ", retransmissions %" PRIu64,
		  (v[3] & EXTOLL_ROUTER_REPLAYS_COUNT_MASK) >> EXTOLL_ROUTER_REPLAYS_COUNT_SHIFT);
	print_nl();
	print_text(" LINK  PORT   STATE\n");
	open_json_array(PRINT_JSON, "links");
	for (i = 0; i < EXTOLL_ROUTER_LINK_STATUS_UP_WIDTH; i++) {
		open_json_object(NULL);
		print_uint(PRINT_ANY, "link", "%5u  ", i);
		print_string(PRINT_ANY, "port", "%-5s  ", extoll_port_name(i));
		print_string(PRINT_ANY, "state", "%s", up >> i & 1 ? "up" : "down");
		print_string(PRINT_JSON, "link_state", NULL,
			     lstate[(v[0] & EXTOLL_ROUTER_LINK_STATUS_STATE_MASK) >>
				    (EXTOLL_ROUTER_LINK_STATUS_STATE_SHIFT + 2 * i) & 3]);
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	delete_json_obj();
	extoll_close(s.nic);
	return NAACTL_EXIT_OK;
}
