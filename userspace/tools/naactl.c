// SPDX-License-Identifier: Apache-2.0
/*
 * naactl: attach, detach and list network-attached accelerator nodes,
 * program the routing tables of a torus, raw remote register and config
 * access. Usage in docs/naactl.md; `naactl help`, `naactl COMMAND help`.
 *
 * On the conventions of iproute2 and pciutils: a command table (name,
 * handler, help; a command may be abbreviated to any unique prefix), one
 * print layer for text and JSON (print.h), the exit codes every tool shares
 * (extoll_exit.h), getopt_long with argument permutation per command (its
 * options anywhere after the command name), every argument checked before
 * the NIC is opened, setpci's register syntax for cfg (cfg.c).
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extoll_pci.h"
#include "libextoll.h"
#include "naactl.h"

static const char *prog = "naactl";
static const char *opt_dev;
static int opt_json, opt_pretty, opt_quiet;

void err_msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

enum naactl_exit naactl_exit_of(int err)
{
	switch (-err) {
	case 0:
		return NAACTL_EXIT_OK;
	case EHOSTUNREACH:
	case ETIMEDOUT:
	case ENODEV:
	case ENXIO:
	case ENOENT:
		return NAACTL_EXIT_NONODE;
	case EEXIST:
	case EBUSY:
	case ENOSPC:
		return NAACTL_EXIT_BUSY;
	case EACCES:
	case EPERM:
		return NAACTL_EXIT_NONIC;
	}
	return NAACTL_EXIT_OTHER;
}

/* A number: hex with 0x, else decimal (never octal: 010 is ten). */
int naactl_parse_u64(const char *s, uint64_t *v)
{
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s))	/* no sign, no blank, not empty */
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno || end == s || *end ? -EINVAL : 0;
}

/* Node ids are decimal (as in topology files and the driver's messages);
 * leading zeros do not make them octal, and hex is refused rather than
 * guessed. */
int naactl_parse_node(const char *s, uint16_t *node)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = isdigit((unsigned char)*s) ? strtoul(s, &end, 10) : 0;
	if (!isdigit((unsigned char)*s) || errno || *end || v > 0xffff) {
		err_msg("invalid node id '%s' (decimal, 0..65535)", s);
		return -EINVAL;
	}
	*node = (uint16_t)v;
	return 0;
}

/*
 * getopt_long over a command's arguments (argv[0]: the command), with
 * permutation: options anywhere after the command name, "--" ends them.
 * The output options -j, -p, -q are accepted here too. Returns the next
 * option of shortopts/longopts, -1 at the end (argv then permuted:
 * operands from optind), or '?' after a message.
 */
int naactl_getopt(int argc, char **argv, const char *shortopts,
		  const struct option *longopts)
{
	static const struct option common[] = {
		EXTOLL_OPTS_JSON, { "quiet", no_argument, NULL, 'q' },
	};
	static struct option all[32];
	char opts[64];
	size_t n = 0, i;
	int c;

	for (; longopts && longopts[n].name && n < 28; n++)
		all[n] = longopts[n];
	for (i = 0; i < 3; i++)
		all[n++] = common[i];
	memset(&all[n], 0, sizeof(all[n]));
	/* '-' first would return operands as options; ':' not: messages by getopt */
	snprintf(opts, sizeof(opts), "%sjpq", shortopts ? shortopts : "");
	opterr = 0;	/* our messages: "naactl: rra: ...", not "rra: ..." */
	for (;;) {
		c = getopt_long(argc, argv, opts, all, NULL);
		switch (c) {
		case '?':
			if (optopt && strchr(opts, optopt))
				err_msg("%s: option '%s' requires an argument", argv[0],
					argv[optind - 1]);
			else if (optopt)
				err_msg("%s: invalid option '-%c'", argv[0], optopt);
			else
				err_msg("%s: unrecognized option '%s'", argv[0], argv[optind - 1]);
			return c;
		case 'j':
			opt_json = 1;
			break;
		case 'p':
			opt_pretty = 1;
			break;
		case 'q':
			opt_quiet = 1;
			break;
		default:
			print_set_mode(opt_json, opt_pretty, opt_quiet);
			return c;
		}
	}
}

/*
 * For a command with no options of its own: parses -j/-p/-q wherever they
 * are and leaves the operands in (*argv)[1..*argc-1] after the command
 * name. Returns 0, or a usage message (the command's synopsis) and
 * NAACTL_EXIT_USAGE.
 */
int naactl_operands(int *argc, char ***argv)
{
	char *name = (*argv)[0];

	optind = 0;
	if (naactl_getopt(*argc, *argv, "", NULL) != -1)
		return naactl_usage_error(name);
	*argv += optind - 1;
	*argc -= optind - 1;
	(*argv)[0] = name;
	return 0;
}


const char *naactl_device(void)
{
	return opt_dev;
}

enum naactl_exit naactl_open_nic(struct extoll_nic **nic)
{
	int ret = extoll_open(opt_dev, nic);

	return ret ? naactl_open_error(ret) : NAACTL_EXIT_OK;
}

enum naactl_exit naactl_open_error(int ret)
{
	if (ret == -ENOENT)
		err_msg("no EXTOLL NIC %s (is the extoll driver loaded and bound?)",
			opt_dev ? opt_dev : "found");
	else if (ret == -EACCES || ret == -EPERM)
		err_msg("cannot open %s: %s (run as root)", opt_dev ? opt_dev : "the NIC",
			strerror(-ret));
	else if (ret == -EINVAL)
		err_msg("'%s' is neither /dev/extollN, extollN nor a PCI address", opt_dev);
	else
		err_msg("cannot open %s: %s", opt_dev ? opt_dev : "the NIC", strerror(-ret));
	return ret == -EINVAL ? NAACTL_EXIT_USAGE : NAACTL_EXIT_NONIC;
}

enum naactl_exit naactl_open(struct extoll_nic **nic, int need_rra)
{
	enum naactl_exit ret = naactl_open_nic(nic);

	if (ret)
		return ret;
	if (need_rra && naactl_require_rra(*nic)) {
		extoll_close(*nic);
		*nic = NULL;
		return NAACTL_EXIT_NONIC;
	}
	return NAACTL_EXIT_OK;
}

static int usage_error(const char *name)
{
	return naactl_usage_error(name);
}

/* ---- list: one node a row */

/* naactl list, one node a row:
 *   "    5  attached   fffe    fffe:00:00.0  fffe:01:00.0,fffe:01:00.1"
 * JSON: the node's members into the caller's object. */
static void print_naa(const struct extoll_naa *a)
{
	char dom[12];
	size_t i;

	if (a->domain >= 0)
		snprintf(dom, sizeof(dom), "%04x", (unsigned int)a->domain);
	print_uint(PRINT_ANY, "node", "%5u  ", a->node);
	print_string(PRINT_JSON, "device", NULL, a->name);
	print_string(PRINT_ANY, "state", "%-9s  ", a->state);
	print_or_null("domain", "%-6s  ", a->domain >= 0 ? dom : NULL, "-");
	print_or_null("root_port", "%-12s  ", a->has_root_port ? a->root_port : NULL, "-");
	open_json_array(PRINT_JSON, "devices");
	if (!a->n_devices)
		print_text("-");
	for (i = 0; i < a->n_devices; i++)
		print_string(PRINT_ANY, NULL, i ? ",%s" : "%s", a->devices[i]);
	close_json_array(PRINT_JSON, NULL);
	if (a->error) {
		print_int(PRINT_ANY, "error", "  (error %d: ", a->error);
		print_text("%s)", strerror(-a->error));
	}
	print_nl();
}

/* --all / --any's fabric: --torus XxYxZ, --topology FILE */
#define FABRIC_LONGOPTS \
	{ "torus", required_argument, NULL, 't' }, \
	{ "topology", required_argument, NULL, 'f' }

static int cmd_list(struct extoll_nic *nic, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		FABRIC_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const struct extoll_nic_info *info;
	const char *torus = NULL, *topo = NULL;
	struct extoll_naa *list;
	size_t n, i;
	int c, all = 0, ret;

	optind = 0;
	while ((c = naactl_getopt(argc, argv, "a", opts)) != -1) {
		if (c == 'a')
			all = 1;
		else if (c == 't')
			torus = optarg;
		else if (c == 'f')
			topo = optarg;
		else
			return usage_error(argv[0]);
	}
	if (optind != argc) {
		err_msg("list takes no operands");
		return NAACTL_EXIT_USAGE;
	}
	if ((torus || topo) && !all) {
		err_msg("--torus and --topology go with --all");
		return NAACTL_EXIT_USAGE;
	}
	if (torus && topo) {
		err_msg("--torus or --topology, not both");
		return NAACTL_EXIT_USAGE;
	}
	if (all)
		return naactl_list_all(nic, torus, topo);
	ret = naactl_open(&nic, 0);
	if (ret)
		return ret;
	info = extoll_nic_info(nic);
	ret = extoll_list(nic, &list, &n);
	if (ret) {
		err_msg("cannot list the nodes of %s: %s", info->pci_name, strerror(-ret));
		extoll_close(nic);
		return NAACTL_EXIT_OTHER;
	}
	new_json_obj();
	print_string(PRINT_JSON, "nic", NULL, info->pci_name);
	print_uint(PRINT_JSON, "node", NULL, info->node_id);
	if (!n)
		print_text("no nodes attached to %s (node %u)\n", info->pci_name,
			   info->node_id);
	else
		print_text(" NODE  STATE      DOMAIN  ROOT PORT     DEVICES\n");
	open_json_array(PRINT_JSON, "nodes");
	for (i = 0; i < n; i++) {
		open_json_object(NULL);
		print_naa(&list[i]);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	delete_json_obj();
	extoll_list_free(list);
	extoll_close(nic);
	return NAACTL_EXIT_OK;
}

/* ---- attach / detach */

static const char *attach_reason(int err)
{
	switch (-err) {
	case EHOSTUNREACH:
	case ETIMEDOUT:
		return "does not answer (no such node, link down, or routing tables not programmed: see 'naactl route')";
	case ENODEV:
	case ENXIO:
		return "is not an attachable NAA (not a root-port EXTOLL NIC with a backdoor, or no root port answers)";
	case EEXIST:
		return "is already attached";
	case EBUSY:
		return "is attached to another host (its backdoor forwards there): detach it there first";
	case ENOSPC:
		return "cannot get a window in the NIC's aperture or a PCI domain number (too many nodes attached?)";
	case EOPNOTSUPP:
		return "cannot be attached: this NIC has no remote register access, or an IOMMU translates its DMA";
	case EINVAL:
		return "cannot be attached: it is this NIC, or a naa_bus parameter is invalid";
	case EPERM:
	case EACCES:
		return "cannot be attached: permission denied (run as root)";
	}
	return NULL;
}

/* naactl attach: what the driver returned (the attach ioctl), one object:
 * "node 5 attached as extoll.naa.0: PCI domain fffe, root bus fffe:00". */
static void print_attach(uint16_t node, const struct extoll_attach_result *res)
{
	int up = res->domain >= 0;
	char dom[12], bus[16];

	snprintf(dom, sizeof(dom), "%04x", (unsigned int)res->domain & 0xffff);
	snprintf(bus, sizeof(bus), "%s:%02x", dom, res->root_bus & 0xff);
	new_json_obj();
	print_uint(PRINT_ANY, "node", up ? "node %u attached as " : "node %u: ", node);
	print_string(PRINT_ANY, "device", up ? "%s: " : "%s created, ", res->name);
	print_string(PRINT_ANY, "state",
		     up ? NULL : "state %s (is naa_bus loaded?)",
		     up ? "attached" : "waiting");
	print_or_null("domain", up ? "PCI domain %s, " : NULL, up ? dom : NULL, NULL);
	print_or_null("root_bus", up ? "root bus %s" : NULL, up ? bus : NULL, NULL);
	print_nl();
	delete_json_obj();
}

/* attach --any N: the first N free NAAs in node order. A node another host
 * claims between the look and our claim refuses it (-EBUSY): go on to the
 * next. All or nothing: if fewer than N can be had, the ones attached here
 * are detached again. */
static int attach_any(struct extoll_nic *nic, unsigned long want, const char *torus,
		      const char *topo)
{
	struct extoll_attach_result res;
	uint16_t *cand, *got;
	size_t nc = 0, ng = 0, i;
	unsigned int n;
	int ret;

	ret = naactl_fabric_size(torus, topo, &n);
	if (ret)
		return NAACTL_EXIT_USAGE;
	if (want > n) {
		err_msg("--any %lu: the fabric has %u nodes", want, n);
		return NAACTL_EXIT_USAGE;
	}
	ret = naactl_open(&nic, 1);
	if (ret)
		return ret;
	cand = calloc(n, sizeof(*cand));
	got = calloc(n, sizeof(*got));
	if (!cand || !got) {
		ret = -ENOMEM;
		goto out;
	}
	naactl_free_naas(nic, n, cand, n, &nc);
	for (i = 0; i < nc && ng < want; i++) {
		ret = extoll_attach(nic, cand[i], &res);
		if (ret == -EBUSY || ret == -EEXIST)
			continue;	/* taken meanwhile */
		if (ret) {
			err_msg("attaching node %u failed: %s", cand[i], strerror(-ret));
			continue;
		}
		got[ng++] = cand[i];
		print_attach(cand[i], &res);
	}
	ret = 0;
	if (ng < want) {
		err_msg("only %zu of %lu NAAs could be had (%zu looked free): detaching them again",
			ng, want, nc);
		for (i = 0; i < ng; i++)
			extoll_detach(nic, got[i]);
		ret = -EBUSY;
	}
out:
	free(cand);
	free(got);
	extoll_close(nic);
	if (ret == -ENOMEM)
		err_msg("out of memory");
	return ret ? naactl_exit_of(ret) : NAACTL_EXIT_OK;
}

static int cmd_attach(struct extoll_nic *nic, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "any", required_argument, NULL, 'n' },
		FABRIC_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct extoll_attach_result res;
	const char *torus = NULL, *topo = NULL;
	uint64_t any = 0;
	uint16_t node;
	int c, ret;

	optind = 0;
	while ((c = naactl_getopt(argc, argv, "", opts)) != -1) {
		if (c == 'n') {
			if (naactl_parse_u64(optarg, &any) || !any || any > 65535) {
				err_msg("bad --any '%s' (a count of NAAs, 1..65535)", optarg);
				return NAACTL_EXIT_USAGE;
			}
		} else if (c == 't') {
			torus = optarg;
		} else if (c == 'f') {
			topo = optarg;
		} else {
			return usage_error(argv[0]);
		}
	}
	if (any) {
		if (optind != argc || (torus && topo))
			return usage_error(argv[0]);
		return attach_any(nic, (unsigned long)any, torus, topo);
	}
	if (torus || topo) {
		err_msg("--torus and --topology go with --any");
		return NAACTL_EXIT_USAGE;
	}
	if (argc - optind != 1)
		return usage_error(argv[0]);
	if (naactl_parse_node(argv[optind], &node))
		return NAACTL_EXIT_USAGE;
	ret = naactl_open(&nic, 1);
	if (ret)
		return ret;

	ret = extoll_attach(nic, node, &res);
	if (ret == -EBUSY) {
		/* the node's NIC refused our claim: name its holder */
		uint16_t holder;
		int held;

		if (!naactl_owner(nic, node, &held, &holder) && held &&
		    holder != extoll_nic_info(nic)->node_id) {
			extoll_close(nic);
			err_msg("node %u is held by node %u", node, holder);
			return NAACTL_EXIT_BUSY;
		}
	}
	extoll_close(nic);
	if (ret) {
		const char *why = attach_reason(ret);

		if (why)
			err_msg("node %u %s", node, why);
		else
			err_msg("attaching node %u failed: %s (see dmesg)", node, strerror(-ret));
		return naactl_exit_of(ret);
	}

	print_attach(node, &res);
	return NAACTL_EXIT_OK;
}

/* "fffe:" or "fffe:01:00.0" -> domain; a plain number is a node. */
static int parse_target(const char *s, int *domain, uint16_t *node)
{
	struct extoll_pci_addr pa;

	if (strchr(s, ':')) {
		if (extoll_pci_addr_parse(s, &pa) || pa.domain > 0xffff ||
		    (pa.domain < 0 && !extoll_pci_addr_full(&pa))) {
			err_msg("bad PCI domain '%s' (hex, e.g. fffe: or fffe:01:00.0)", s);
			return -EINVAL;
		}
		*domain = pa.domain < 0 ? 0 : pa.domain;
		return 0;
	}
	*domain = -1;
	return naactl_parse_node(s, node);
}

static int cmd_detach(struct extoll_nic *nic, int argc, char **argv)
{
	struct extoll_naa *list = NULL;
	uint16_t node = 0;
	size_t n = 0, i;
	int domain, ret;

	if (naactl_operands(&argc, &argv))
		return NAACTL_EXIT_USAGE;
	if (argc != 2)
		return usage_error(argv[0]);
	if (parse_target(argv[1], &domain, &node))
		return NAACTL_EXIT_USAGE;
	ret = naactl_open(&nic, 0);
	if (ret)
		return ret;

	if (domain >= 0) {
		ret = extoll_list(nic, &list, &n);
		for (i = 0; !ret && i < n; i++)
			if (list[i].domain == domain)
				break;
		if (ret || i == n) {
			err_msg("no attached node has PCI domain %04x", (unsigned int)domain);
			extoll_list_free(list);
			extoll_close(nic);
			return NAACTL_EXIT_NONODE;
		}
		node = list[i].node;
		extoll_list_free(list);
	}

	ret = extoll_detach(nic, node);
	extoll_close(nic);
	if (ret == -ENOENT) {
		err_msg("node %u is not attached", node);
		return NAACTL_EXIT_NONODE;
	}
	if (ret) {
		err_msg("detaching node %u failed: %s", node, strerror(-ret));
		return naactl_exit_of(ret);
	}
	new_json_obj();
	print_uint(PRINT_ANY, "node", "node %u ", node);
	print_bool(PRINT_JSON, "detached", NULL, 1);
	print_text("detached\n");
	delete_json_obj();
	return NAACTL_EXIT_OK;
}

static int cmd_info(struct extoll_nic *nic, int argc, char **argv)
{
	const struct extoll_nic_info *i;
	char ver[32];
	int ret;

	if (naactl_operands(&argc, &argv))
		return NAACTL_EXIT_USAGE;
	if (argc > 1) {
		err_msg("info takes no arguments");
		return NAACTL_EXIT_USAGE;
	}
	ret = naactl_open(&nic, 0);
	if (ret)
		return ret;
	i = extoll_nic_info(nic);
	snprintf(ver, sizeof(ver), "%u.%u.%u", i->rtl_major, i->rtl_minor, i->rtl_patch);
	new_json_obj();
	print_string(PRINT_ANY, "device", "%s: ", i->dev_path);
	print_string(PRINT_ANY, "pci", "PCI %s, ", i->pci_name);
	print_uint(PRINT_ANY, "node", "node %u, ", i->node_id);
	print_string(PRINT_ANY, "role", "%s, ", i->role ? "root-port" : "endpoint");
	print_string(PRINT_ANY, "rtl_version", "rtl %s, ", ver);
	print_bool(PRINT_JSON, "rra", NULL, i->rra);
	print_text("remote access %s", i->rra ? "yes" : "no");
	print_uint(PRINT_ANY, "rra_timeout_us", " (timeout %u us)", i->rra_timeout_us);
	print_nl();
	delete_json_obj();
	extoll_close(nic);
	return NAACTL_EXIT_OK;
}

/* ---- rra */

/* "0,2,7" -> hop list */
int naactl_parse_route(const char *s, uint64_t *route)
{
	unsigned int hop = 0;
	unsigned long p;
	char *end;

	*route = 0;
	for (;;) {
		errno = 0;
		p = isdigit((unsigned char)*s) ? strtoul(s, &end, 10) : 8;
		if (errno || end == s || p > 7 || hop >= 7)
			goto bad;
		*route |= (uint64_t)p << (3 * hop++);
		if (*end == '\0')
			break;
		if (*end != ',')
			goto bad;
		s = end + 1;
	}
	if (p == 7)
		return 0;
bad:
	err_msg("--route takes a comma-separated port list ending in 7 (eject), e.g. 0,2,7");
	return -EINVAL;
}

static int cmd_rra(struct extoll_nic *nic, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "route", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t addr, val = 0, route = 0;
	uint16_t node = 0, answered = 0;
	int c, write, routed = 0, ret;
	char abuf[24], vbuf[24];

	optind = 0;
	while ((c = naactl_getopt(argc, argv, "r:", opts)) != -1) {
		if (c != 'r')
			return usage_error("rra");
		if (naactl_parse_route(optarg, &route))
			return NAACTL_EXIT_USAGE;
		routed = 1;
	}
	argc -= optind;
	argv += optind;
	if (argc < 3 || (strcmp(argv[0], "read") && strcmp(argv[0], "write")))
		return usage_error("rra");
	write = !strcmp(argv[0], "write");
	if (argc != (write ? 4 : 3))
		return usage_error("rra");
	/* with --route the node is not used: any id or '-' */
	if (routed ? strcmp(argv[1], "-") && naactl_parse_node(argv[1], &node) : naactl_parse_node(argv[1], &node))
		return NAACTL_EXIT_USAGE;
	if (naactl_parse_u64(argv[2], &addr) || addr > UINT32_MAX) {
		err_msg("invalid register address '%s' (decimal or 0x hex, e.g. 0x408)", argv[2]);
		return NAACTL_EXIT_USAGE;
	}
	if (write && naactl_parse_u64(argv[3], &val)) {
		err_msg("invalid value '%s' (64 bit, decimal or 0x hex)", argv[3]);
		return NAACTL_EXIT_USAGE;
	}
	ret = naactl_open(&nic, 1);
	if (ret)
		return ret;

	if (write)
		ret = routed ? extoll_rra_write_routed(nic, route, (uint32_t)addr, val, &answered)
			     : extoll_rra_write(nic, node, (uint32_t)addr, val);
	else
		ret = routed ? extoll_rra_read_routed(nic, route, (uint32_t)addr, &val, &answered)
			     : extoll_rra_read(nic, node, (uint32_t)addr, &val);
	extoll_close(nic);
	if (!routed)
		answered = node;
	if (ret) {
		if (ret == -ETIMEDOUT)
			err_msg("rra %s %s 0x%" PRIx64 ": no answer within the timeout",
				argv[0], argv[1], addr);
		else if (ret == -EREMOTEIO)
			err_msg("rra %s %s 0x%" PRIx64 ": the node has no such register",
				argv[0], argv[1], addr);
		else if (ret == -EACCES)
			err_msg("rra %s %s 0x%" PRIx64 ": refused, the node is held by another node "
				"(naactl regs %s own)", argv[0], argv[1], addr, argv[1]);
		else
			err_msg("rra %s %s 0x%" PRIx64 ": %s", argv[0], argv[1], addr,
				strerror(-ret));
		if (ret == -EACCES)
			return NAACTL_EXIT_BUSY;
		return ret == -EREMOTEIO ? NAACTL_EXIT_OTHER : naactl_exit_of(ret);
	}
	snprintf(abuf, sizeof(abuf), "0x%" PRIx64, addr);
	snprintf(vbuf, sizeof(vbuf), "0x%016" PRIx64, val);
	new_json_obj();
	if (write) {	/* "node 5: wrote 0x... to 0x..." */
		print_uint(PRINT_ANY, "node", "node %u: ", answered);
		print_string(PRINT_ANY, "value", "wrote %s ", vbuf);
		print_string(PRINT_ANY, "addr", "to %s\n", abuf);
	} else {	/* the value alone */
		print_uint(PRINT_JSON, "node", NULL, answered);
		print_string(PRINT_JSON, "addr", NULL, abuf);
		print_string(PRINT_ANY, "value", "%s\n", vbuf);
	}
	delete_json_obj();
	return NAACTL_EXIT_OK;
}

/* ---- cfg: setpci's syntax (cfg.c) */

static int cfg_read(struct extoll_nic *nic, const struct naactl_cfg_target *t,
		    unsigned int where, unsigned int size, uint32_t *val)
{
	unsigned int cpl = 0;
	int ret;

	ret = extoll_cfg(nic, t->node, t->bus, t->devfn, (uint16_t)where, size, 0, val, &cpl);
	return ret ? ret : cpl ? -EIO : 0;
}

static int cmd_cfg(struct extoll_nic *nic, int argc, char **argv)
{
	struct naactl_cfg_target t;
	struct naactl_cfg_reg reg;
	struct extoll_pci_addr pa;
	unsigned int cpl = 0, off;
	uint32_t val = 0;
	char buf[16], offs[8];
	const char *regs, *vals;
	int write, ret;

	if (naactl_operands(&argc, &argv))
		return NAACTL_EXIT_USAGE;
	if (argc != 4 && argc != 5)
		return usage_error(argv[0]);
	if (naactl_parse_node(argv[1], &t.node))
		return NAACTL_EXIT_USAGE;
	/* BUS:DEV.FN in the node's hierarchy: no domain (it has none yet) */
	if (extoll_pci_addr_parse(argv[2], &pa) || pa.domain >= 0 ||
	    !extoll_pci_addr_full(&pa)) {
		err_msg("bad address '%s' (BUS:DEV.FN in hex, e.g. 01:00.0)", argv[2]);
		return NAACTL_EXIT_USAGE;
	}
	t.bus = (uint8_t)pa.bus;
	t.devfn = (uint8_t)(pa.dev << 3 | pa.fn);
	/* setpci: REG=VALUE; naactl also takes the value as its own argument */
	regs = argv[3];
	vals = argc == 5 ? argv[4] : NULL;
	if (naactl_cfg_parse(regs, vals, &reg))
		return NAACTL_EXIT_USAGE;
	write = reg.write;
	val = reg.value;

	ret = naactl_open(&nic, 1);
	if (ret)
		return ret;
	ret = naactl_cfg_resolve(&reg, nic, &t, cfg_read, &off);
	if (ret) {
		extoll_close(nic);
		return ret == -ENOENT ? NAACTL_EXIT_OTHER : naactl_exit_of(ret == -EIO ? -ENXIO : ret);
	}
	ret = extoll_cfg(nic, t.node, t.bus, t.devfn, (uint16_t)off, reg.size, write,
			 &val, &cpl);
	extoll_close(nic);
	if (ret) {
		err_msg("cfg node %u %02x:%02x.%x 0x%03x: %s (completion status %u)",
			t.node, (unsigned int)pa.bus, (unsigned int)pa.dev, (unsigned int)pa.fn,
			off, ret == -ETIMEDOUT ? "no answer" : strerror(-ret), cpl);
		return naactl_exit_of(ret == -EIO ? -ENXIO : ret);
	}
	/* text, as setpci: a read's value alone, in hex without 0x; a write
	 * prints nothing. JSON: the same value, and where it was. */
	snprintf(buf, sizeof(buf), "0x%0*x", (int)reg.size * 2, val);
	snprintf(offs, sizeof(offs), "0x%03x", off);
	new_json_obj();
	print_uint(PRINT_JSON, "node", NULL, t.node);
	print_string(PRINT_JSON, "address", NULL, argv[2]);
	print_string(PRINT_JSON, "register", NULL, regs);
	print_string(PRINT_JSON, "offset", NULL, offs);
	print_uint(PRINT_JSON, "width", NULL, reg.size);
	print_bool(PRINT_JSON, "write", NULL, write);
	print_string(PRINT_JSON, "value", NULL, buf);
	if (!write)
		print_text("%s\n", buf + 2);
	delete_json_obj();
	return NAACTL_EXIT_OK;
}

/* ---- the command table */

static int cmd_help(struct extoll_nic *nic, int argc, char **argv);

/*
 * A command: a handler int cmd_x(struct extoll_nic *nic, int argc, char
 * **argv) (argv[0] the command's full name; nic NULL) that checks all its
 * arguments first (naactl_getopt() or naactl_operands(), naactl_parse_*())
 * and only then opens the NIC with naactl_open(), so that a bad argument
 * is a usage error (exit 2) with or without a NIC. To add one: declare the
 * handler and its synopsis in naactl.h, its file in the Makefile's TOOL_SRC,
 * and a line below. CMD_NIC (main opens the NIC and passes it) remains for
 * a command without arguments to check.
 */
#define CMD_NIC		1	/* the NIC is opened before the handler runs */
#define CMD_RRA		2	/* and must have remote register access */

struct cmd {
	const char *name;
	int (*handler)(struct extoll_nic *nic, int argc, char **argv);
	unsigned int flags;
	const char *args;	/* synopsis after the name; '\n': another form */
	const char *help;	/* '\n': another line */
};

static const struct cmd cmds[] = {
	{ "list", cmd_list, 0, "[--all [--torus XxYxZ | --topology FILE]]",
	  "attached nodes: node, state, PCI domain, root port, devices;\n"
	  "--all: every node of the fabric, its role and holder" },
	{ "attach", cmd_attach, 0,
	  "NODE\n--any N [--torus XxYxZ | --topology FILE]",
	  "make remote node NODE a PCI domain of this host;\n"
	  "--any N: the first N free NAAs (all or none)" },
	{ "detach", cmd_detach, 0, "NODE | DOMAIN:",
	  "remove it again (DOMAIN: hex PCI domain with a colon,\n"
	  "e.g. fffe: or any device address in it, fffe:01:00.0)" },
	{ "release", cmd_release, 0, release_usage,
	  "give back a node this host holds but has not attached;\n"
	  "--force: free it whoever holds it (a crashed holder)" },
	{ "mgmt", cmd_mgmt, 0, mgmt_usage,
	  "a node's management node (own.mgmt): the only node that may\n"
	  "force its release or write it while free; set (default MGMT:\n"
	  "this host), clear (by the management node only)" },
	{ "dma", cmd_dma, 0, dma_usage,
	  "an NAA's DMA window table: enforcement, the host ranges its\n"
	  "accelerator may read/write, refused requests (docs/security.md)" },
	{ "info", cmd_info, 0, "",
	  "the NIC: node id, role, PCI address, RRA timeout" },
	{ "route", cmd_route, 0, route_usage,
	  "program every node's routing tables (dimension order)" },
	{ "topo", cmd_topo, 0, topo_usage,
	  "discover the fabric in-band: text, -j JSON, --dot Graphviz" },
	{ "rra", cmd_rra, 0,
	  "read NODE ADDR [--route PORTS]\nwrite NODE ADDR VALUE [--route PORTS]",
	  "remote register access; PORTS e.g. 0,2,7 (source route;\n"
	  "NODE then unused, '-')" },
	{ "cfg", cmd_cfg, 0, "NODE BUS:DEV.FN REG[.B|.W|.L][=VALUE] [VALUE]",
	  "one config request through the tunnel (bus 0: root port);\n"
	  "REG as setpci: hex offset, name (COMMAND, BASE_ADDRESS_0)\n"
	  "or capability (CAP_EXP+8, ECAP_AER+4), optional +hex" },
	{ "regs", cmd_regs, 0, regs_usage,
	  "registers by name with their fields: the local NIC (BAR0),\n"
	  "or NODE in-band (RRA); BLOCK e.g. router, REG e.g. link_status" },
	{ "links", cmd_links, 0, links_usage,
	  "the router's links: state, CRC errors, unroutable packets" },
	{ "flash", cmd_flash, 0, flash_usage,
	  "an NAA node's configuration flash: write an image to its update\n"
	  "(or --fallback) slot, --info: stored and running versions,\n"
	  "--reload: boot it from the flash and wait for it" },
	{ "rma", cmd_rma, 0, rma_usage,
	  "one-sided put/get by the NIC's RMA unit to a device's BAR\n"
	  "(TARGET e.g. fffe:01:00.0) or --node N (--offset: its bus\n"
	  "address) or --peer HANDLE (a region another host exposed,\n"
	  "--offset in it): put = pattern, put, get back, CRC-32 compare;\n"
	  "bench: latency and B/s, 8 B .. --max; expose: a buffer's\n"
	  "region open to other hosts' put/get, its HANDLE printed" },
	{ "help", cmd_help, 0, "[COMMAND]",
	  "this help, or a command's (also: naactl COMMAND help)" },
};

#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))
#define HELP_COL 28

/* "  name args" for every form, then the help lines at HELP_COL. */
static void cmd_synopsis(FILE *f, const struct cmd *c)
{
	const char *a = c->args, *h = c->help, *nl;
	int col = 0;

	do {
		nl = strchr(a, '\n');
		col = fprintf(f, "  %s%s%.*s", c->name, *a ? " " : "",
			      nl ? (int)(nl - a) : (int)strlen(a), a);
		if (nl)
			fputc('\n', f);
		a = nl ? nl + 1 : NULL;
	} while (a);
	if (col >= HELP_COL) {	/* a long synopsis: the help below it */
		fputc('\n', f);
		col = 0;
	}
	do {
		nl = strchr(h, '\n');
		fprintf(f, "%*s%.*s\n", HELP_COL - col, "",
			nl ? (int)(nl - h) : (int)strlen(h), h);
		col = 0;
		h = nl ? nl + 1 : NULL;
	} while (h);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
"usage: naactl [-d NIC] [-j [-p]] [-q] COMMAND [ARGS] [COMMAND OPTIONS]\n"
"       naactl -V | --version\n"
"\n"
"Network-attached accelerators behind an EXTOLL NIC.\n"
"\n"
"commands (any unique prefix will do; 'naactl COMMAND help' for one):\n");
	for (i = 0; i < N_CMDS; i++)
		cmd_synopsis(f, &cmds[i]);
	fprintf(f,
"\n"
"options:\n"
"  -d, --device NIC          /dev/extollN, extollN or a PCI address (default: the first NIC)\n"
"  -j, --json                JSON output\n"
"  -p, --pretty              with -j: indented JSON\n"
"  -q, --quiet               no output on success\n"
"  -h, --help                this help\n"
"  -V, --version             the version\n"
"-j, -p and -q may also follow the command, as its own options do.\n"
"Numbers: node ids decimal; addresses and values decimal or 0x hex;\n"
"cfg registers and values hex (as setpci).\n"
"\n"
"exit status: 0 ok, 1 failed / other error, 2 usage, 3 no NIC / driver not loaded /\n"
"permission / no remote access, 4 no such node / not answering / not attached,\n"
"5 busy / already attached\n");
}

/* Exact name, else the one command it is a prefix of (iproute2's matches(),
 * but an ambiguous prefix is an error rather than the first in the table). */
static const struct cmd *find_cmd(const char *name)
{
	const struct cmd *found = NULL;
	size_t i, len = strlen(name), n = 0;

	for (i = 0; i < N_CMDS; i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	for (i = 0; len && i < N_CMDS; i++)
		if (!strncmp(name, cmds[i].name, len)) {
			found = &cmds[i];
			n++;
		}
	if (n == 1)
		return found;
	if (n > 1)
		err_msg("ambiguous command '%s' (try 'naactl help')", name);
	else
		err_msg("unknown command '%s' (try 'naactl help')", name);
	return NULL;
}

static int is_help(const char *s)
{
	return !strcmp(s, "help") || !strcmp(s, "-h") || !strcmp(s, "--help");
}

int naactl_usage_error(const char *name)
{
	const struct cmd *c = find_cmd(name);

	if (c) {
		fprintf(stderr, "%s: usage:\n", prog);
		cmd_synopsis(stderr, c);
	}
	return NAACTL_EXIT_USAGE;
}

static int cmd_help(struct extoll_nic *nic, int argc, char **argv)
{
	const struct cmd *c;

	(void)nic;
	if (argc == 1) {
		usage(stdout);
		return NAACTL_EXIT_OK;
	}
	c = argc == 2 ? find_cmd(argv[1]) : NULL;
	if (!c)
		return usage_error("help");
	printf("usage: naactl [OPTIONS]\n");
	cmd_synopsis(stdout, c);
	return NAACTL_EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		EXTOLL_OPT_DEVICE, EXTOLL_OPTS_JSON, EXTOLL_OPTS_STD,
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;
	struct extoll_nic *nic = NULL;
	const struct cmd *cmd;

	/* '+': the options before the command; the command parses its own */
	while ((c = getopt_long(argc, argv, "+d:jpqhV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			opt_dev = optarg;
			break;
		case 'j':
			opt_json = 1;
			break;
		case 'p':	/* as in iproute2: -p alone changes nothing */
			opt_pretty = 1;
			break;
		case 'q':
			opt_quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return NAACTL_EXIT_OK;
		case 'V':
			printf("naactl %s\n", extoll_version());
			return NAACTL_EXIT_OK;
		default:
			usage(stderr);
			return NAACTL_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return NAACTL_EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	print_set_mode(opt_json, opt_pretty, opt_quiet);

	cmd = find_cmd(argv[0]);
	if (!cmd)
		return NAACTL_EXIT_USAGE;
	argv[0] = (char *)cmd->name;	/* messages name the command in full */
	if (argc == 2 && is_help(argv[1]) && cmd->handler != cmd_help) {
		char *help_argv[] = { "help", argv[0], NULL };

		return cmd_help(NULL, 2, help_argv);
	}

	if (cmd->flags & CMD_NIC) {
		ret = naactl_open_nic(&nic);
		if (ret)
			return ret;
		if ((cmd->flags & CMD_RRA) && naactl_require_rra(nic)) {
			extoll_close(nic);
			return NAACTL_EXIT_NONIC;
		}
	}
	ret = cmd->handler(nic, argc, argv);
	extoll_close(nic);
	return ret;
}

int naactl_require_rra(struct extoll_nic *nic)
{
	const struct extoll_nic_info *i = extoll_nic_info(nic);

	if (i->rra)
		return 0;
	err_msg("the NIC %s has no remote register access (its RTL has no rra block)",
		i->pci_name);
	return -EOPNOTSUPP;
}
