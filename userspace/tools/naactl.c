// SPDX-License-Identifier: Apache-2.0
/*
 * naactl: attach, detach and list network-attached accelerator nodes,
 * program the routing tables of a torus, raw remote register and config
 * access. Usage in docs/naactl.md; `naactl --help`.
 *
 * Exit status: 0 ok, 1 usage, 2 no such node / not answering / not
 * attached, 3 busy (already attached, claimed by another host, no free
 * window or domain), 4 no NIC / driver not loaded / permission, 5 other.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "libextoll.h"
#include "naactl.h"

enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,
	EXIT_NONODE = 2,
	EXIT_BUSY = 3,
	EXIT_NONIC = 4,
	EXIT_OTHER = 5,
};

static const char *prog = "naactl";
static int opt_json;
static int opt_quiet;
static const char *opt_dev;

static void usage(FILE *f)
{
	fprintf(f,
"usage: naactl [-d NIC] [-j] [-q] COMMAND [ARGS]\n"
"\n"
"Network-attached accelerators behind an EXTOLL NIC.\n"
"\n"
"commands:\n"
"  list                      attached nodes: node, state, PCI domain, root port, devices\n"
"  attach NODE               make remote node NODE a PCI domain of this host\n"
"  detach NODE | DOMAIN:     remove it again (DOMAIN: hex PCI domain with a colon,\n"
"                            e.g. fffe: or any device address in it, fffe:01:00.0)\n"
"  info                      the NIC: node id, role, PCI address, RRA timeout\n"
"  route --torus XxYxZ | --topology FILE [--dry-run] [--tables] [--host-node N]\n"
"        [--all-inports] [--no-check]\n"
"                            program every node's routing tables (dimension order)\n"
"  rra read NODE ADDR [--route PORTS]\n"
"  rra write NODE ADDR VALUE [--route PORTS]\n"
"                            remote register access; PORTS e.g. 0,2,7 (source route)\n"
"  cfg NODE BUS:DEV.FN OFFSET[.b|.w|.l] [VALUE]\n"
"                            one config request through the tunnel (bus 0: root port)\n"
"\n"
"options:\n"
"  -d, --device NIC          /dev/extollN, extollN or a PCI address (default: the first NIC)\n"
"  -j, --json                JSON output\n"
"  -q, --quiet               no output on success\n"
"  -h, --help                this help\n"
"\n"
"exit status: 0 ok, 1 usage, 2 no such node / not answering / not attached,\n"
"3 busy / already attached, 4 no NIC / driver not loaded / permission, 5 other error\n");
}

void err_msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int exit_of(int err)
{
	switch (-err) {
	case 0:
		return EXIT_OK;
	case EHOSTUNREACH:
	case ETIMEDOUT:
	case ENODEV:
	case ENXIO:
	case ENOENT:
		return EXIT_NONODE;
	case EEXIST:
	case EBUSY:
	case ENOSPC:
		return EXIT_BUSY;
	case EACCES:
	case EPERM:
		return EXIT_NONIC;
	}
	return EXIT_OTHER;
}

static void json_print(struct json_object *o)
{
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_SPACED));
	json_object_put(o);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end ? -EINVAL : 0;
}

static int parse_node(const char *s, uint16_t *node)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > 0xffff) {
		err_msg("bad node id '%s' (0..65535)", s);
		return -EINVAL;
	}
	*node = (uint16_t)v;
	return 0;
}

static int open_nic(struct extoll_nic **nic)
{
	int ret = extoll_open(opt_dev, nic);

	if (!ret)
		return EXIT_OK;
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
	return ret == -EINVAL ? EXIT_USAGE : EXIT_NONIC;
}

/* ---- list */

static struct json_object *naa_json(const struct extoll_naa *a)
{
	struct json_object *o = json_object_new_object(), *devs;
	char dom[12];
	size_t i;

	json_object_object_add(o, "node", json_object_new_int(a->node));
	json_object_object_add(o, "device", json_object_new_string(a->name));
	json_object_object_add(o, "state", json_object_new_string(a->state));
	if (a->domain >= 0) {
		snprintf(dom, sizeof(dom), "%04x", (unsigned int)a->domain);
		json_object_object_add(o, "domain", json_object_new_string(dom));
	} else {
		json_object_object_add(o, "domain", NULL);
	}
	json_object_object_add(o, "root_port", a->has_root_port ?
			       json_object_new_string(a->root_port) : NULL);
	devs = json_object_new_array();
	for (i = 0; i < a->n_devices; i++)
		json_object_array_add(devs, json_object_new_string(a->devices[i]));
	json_object_object_add(o, "devices", devs);
	if (a->error)
		json_object_object_add(o, "error", json_object_new_int(a->error));
	return o;
}

static void naa_print(const struct extoll_naa *a)
{
	char dom[12] = "-";
	size_t i;

	if (a->domain >= 0)
		snprintf(dom, sizeof(dom), "%04x", (unsigned int)a->domain);
	printf("%5u  %-9s  %-6s  %-12s  ", a->node, a->state, dom,
	       a->has_root_port ? a->root_port : "-");
	if (!a->n_devices)
		printf("-");
	for (i = 0; i < a->n_devices; i++)
		printf("%s%s", i ? "," : "", a->devices[i]);
	if (a->error)
		printf("  (error %d: %s)", a->error, strerror(-a->error));
	putchar('\n');
}

static int cmd_list(struct extoll_nic *nic, int argc, char **argv)
{
	const struct extoll_nic_info *info = extoll_nic_info(nic);
	struct extoll_naa *list;
	size_t n, i;
	int ret;

	(void)argv;
	if (argc > 1) {
		err_msg("list takes no arguments");
		return EXIT_USAGE;
	}
	ret = extoll_list(nic, &list, &n);
	if (ret) {
		err_msg("cannot list the nodes of %s: %s", info->pci_name, strerror(-ret));
		return EXIT_OTHER;
	}
	if (opt_json) {
		struct json_object *o = json_object_new_object();
		struct json_object *arr = json_object_new_array();

		json_object_object_add(o, "nic", json_object_new_string(info->pci_name));
		json_object_object_add(o, "node", json_object_new_int(info->node_id));
		for (i = 0; i < n; i++)
			json_object_array_add(arr, naa_json(&list[i]));
		json_object_object_add(o, "nodes", arr);
		json_print(o);
	} else if (!opt_quiet) {
		if (!n)
			printf("no nodes attached to %s (node %u)\n", info->pci_name,
			       info->node_id);
		else
			printf(" NODE  STATE      DOMAIN  ROOT PORT     DEVICES\n");
		for (i = 0; i < n; i++)
			naa_print(&list[i]);
	}
	extoll_list_free(list);
	return EXIT_OK;
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

static int cmd_attach(struct extoll_nic *nic, int argc, char **argv)
{
	struct extoll_attach_result res;
	char dom[12], bus[16];
	uint16_t node;
	int ret;

	if (argc != 2) {
		err_msg("usage: attach NODE");
		return EXIT_USAGE;
	}
	if (parse_node(argv[1], &node))
		return EXIT_USAGE;

	ret = extoll_attach(nic, node, &res);
	if (ret) {
		const char *why = attach_reason(ret);

		if (why)
			err_msg("node %u %s", node, why);
		else
			err_msg("attaching node %u failed: %s (see dmesg)", node, strerror(-ret));
		return exit_of(ret);
	}

	/* What the driver returned: the domain and its root bus. */
	snprintf(dom, sizeof(dom), "%04x", (unsigned int)res.domain & 0xffff);
	snprintf(bus, sizeof(bus), "%s:%02x", dom, res.root_bus & 0xff);
	if (opt_json) {
		struct json_object *o = json_object_new_object();
		int up = res.domain >= 0;

		json_object_object_add(o, "node", json_object_new_int(node));
		json_object_object_add(o, "device", json_object_new_string(res.name));
		json_object_object_add(o, "state", json_object_new_string(
				       up ? "attached" : "waiting"));
		json_object_object_add(o, "domain", up ? json_object_new_string(dom) : NULL);
		json_object_object_add(o, "root_bus", up ? json_object_new_string(bus) : NULL);
		json_print(o);
	} else if (!opt_quiet) {
		if (res.domain >= 0)
			printf("node %u attached as %s: PCI domain %s, root bus %s\n",
			       node, res.name, dom, bus);
		else
			printf("node %u: %s created, waiting for its driver (is naa_bus loaded?)\n",
			       node, res.name);
	}
	return EXIT_OK;
}

/* "fffe:" or "fffe:01:00.0" -> domain; a plain number is a node. */
static int parse_target(const char *s, int *domain, uint16_t *node)
{
	char *end;
	long d;

	if (strchr(s, ':')) {
		errno = 0;
		d = strtol(s, &end, 16);
		if (errno || end == s || *end != ':' || d < 0 || d > 0xffff) {
			err_msg("bad PCI domain '%s' (hex, e.g. fffe: or fffe:01:00.0)", s);
			return -EINVAL;
		}
		*domain = (int)d;
		return 0;
	}
	*domain = -1;
	return parse_node(s, node);
}

static int cmd_detach(struct extoll_nic *nic, int argc, char **argv)
{
	struct extoll_naa *list = NULL;
	uint16_t node = 0;
	size_t n = 0, i;
	int domain, ret;

	if (argc != 2) {
		err_msg("usage: detach NODE | DOMAIN:");
		return EXIT_USAGE;
	}
	if (parse_target(argv[1], &domain, &node))
		return EXIT_USAGE;

	if (domain >= 0) {
		ret = extoll_list(nic, &list, &n);
		for (i = 0; !ret && i < n; i++)
			if (list[i].domain == domain)
				break;
		if (ret || i == n) {
			err_msg("no attached node has PCI domain %04x", (unsigned int)domain);
			extoll_list_free(list);
			return EXIT_NONODE;
		}
		node = list[i].node;
		extoll_list_free(list);
	}

	ret = extoll_detach(nic, node);
	if (ret == -ENOENT) {
		err_msg("node %u is not attached", node);
		return EXIT_NONODE;
	}
	if (ret) {
		err_msg("detaching node %u failed: %s", node, strerror(-ret));
		return exit_of(ret);
	}
	if (opt_json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "node", json_object_new_int(node));
		json_object_object_add(o, "detached", json_object_new_boolean(1));
		json_print(o);
	} else if (!opt_quiet) {
		printf("node %u detached\n", node);
	}
	return EXIT_OK;
}

static int cmd_info(struct extoll_nic *nic, int argc, char **argv)
{
	const struct extoll_nic_info *i = extoll_nic_info(nic);

	(void)argv;
	if (argc > 1) {
		err_msg("info takes no arguments");
		return EXIT_USAGE;
	}
	if (opt_json) {
		struct json_object *o = json_object_new_object();
		char ver[32];

		snprintf(ver, sizeof(ver), "%u.%u.%u", i->rtl_major, i->rtl_minor,
			 i->rtl_patch);
		json_object_object_add(o, "device", json_object_new_string(i->dev_path));
		json_object_object_add(o, "pci", json_object_new_string(i->pci_name));
		json_object_object_add(o, "node", json_object_new_int(i->node_id));
		json_object_object_add(o, "role", json_object_new_string(
				       i->role ? "root-port" : "endpoint"));
		json_object_object_add(o, "rtl_version", json_object_new_string(ver));
		json_object_object_add(o, "rra", json_object_new_boolean(i->rra));
		json_object_object_add(o, "rra_timeout_us",
				       json_object_new_int64(i->rra_timeout_us));
		json_print(o);
	} else if (!opt_quiet) {
		printf("%s: PCI %s, node %u, %s, rtl %u.%u.%u, remote access %s (timeout %u us)\n",
		       i->dev_path, i->pci_name, i->node_id,
		       i->role ? "root-port" : "endpoint", i->rtl_major,
		       i->rtl_minor, i->rtl_patch, i->rra ? "yes" : "no",
		       i->rra_timeout_us);
	}
	return EXIT_OK;
}

/* ---- rra */

/* "0,2,7" -> hop list */
static int parse_route(const char *s, uint64_t *route)
{
	unsigned int hop = 0;
	unsigned long p;
	char *end;

	*route = 0;
	for (;;) {
		errno = 0;
		p = strtoul(s, &end, 10);
		if (errno || end == s || p > 7 || hop >= 7)
			return -EINVAL;
		*route |= (uint64_t)p << (3 * hop++);
		if (*end == '\0')
			break;
		if (*end != ',')
			return -EINVAL;
		s = end + 1;
	}
	return p == 7 ? 0 : -EINVAL;
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

	optind = 0;
	while ((c = getopt_long(argc, argv, "+r:", opts, NULL)) != -1) {
		if (c != 'r' || parse_route(optarg, &route)) {
			err_msg("--route takes a comma-separated port list ending in 7 (eject), e.g. 0,2,7");
			return EXIT_USAGE;
		}
		routed = 1;
	}
	argc -= optind;
	argv += optind;
	if (argc < 3 || (strcmp(argv[0], "read") && strcmp(argv[0], "write"))) {
		err_msg("usage: rra read NODE ADDR | rra write NODE ADDR VALUE [--route PORTS]");
		return EXIT_USAGE;
	}
	write = !strcmp(argv[0], "write");
	if (argc != (write ? 4 : 3) ||
	    (!routed && parse_node(argv[1], &node)) || parse_u64(argv[2], &addr) ||
	    addr > UINT32_MAX || (write && parse_u64(argv[3], &val))) {
		err_msg("usage: rra read NODE ADDR | rra write NODE ADDR VALUE [--route PORTS]");
		return EXIT_USAGE;
	}

	if (write)
		ret = routed ? extoll_rra_write_routed(nic, route, (uint32_t)addr, val, &answered)
			     : extoll_rra_write(nic, node, (uint32_t)addr, val);
	else
		ret = routed ? extoll_rra_read_routed(nic, route, (uint32_t)addr, &val, &answered)
			     : extoll_rra_read(nic, node, (uint32_t)addr, &val);
	if (!routed)
		answered = node;
	if (ret) {
		if (ret == -ETIMEDOUT)
			err_msg("rra %s %s 0x%" PRIx64 ": no answer within the timeout",
				argv[0], argv[1], addr);
		else if (ret == -EREMOTEIO)
			err_msg("rra %s %s 0x%" PRIx64 ": the node has no such register",
				argv[0], argv[1], addr);
		else
			err_msg("rra %s %s 0x%" PRIx64 ": %s", argv[0], argv[1], addr,
				strerror(-ret));
		return ret == -EREMOTEIO ? EXIT_OTHER : exit_of(ret);
	}
	if (opt_json) {
		struct json_object *o = json_object_new_object();
		char buf[24];

		json_object_object_add(o, "node", json_object_new_int(answered));
		snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
		json_object_object_add(o, "addr", json_object_new_string(buf));
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, val);
		json_object_object_add(o, "value", json_object_new_string(buf));
		json_print(o);
	} else if (!opt_quiet) {
		if (write)
			printf("node %u: wrote 0x%016" PRIx64 " to 0x%" PRIx64 "\n",
			       answered, val, addr);
		else
			printf("0x%016" PRIx64 "\n", val);
	}
	return EXIT_OK;
}

/* ---- cfg */

static int cmd_cfg(struct extoll_nic *nic, int argc, char **argv)
{
	unsigned int bus, dev, fn, cpl = 0, size = 4;
	uint64_t off, v = 0;
	uint32_t val = 0;
	uint16_t node;
	char *dot, offs[32];
	int write, ret;

	if (argc != 4 && argc != 5) {
		err_msg("usage: cfg NODE BUS:DEV.FN OFFSET[.b|.w|.l] [VALUE]");
		return EXIT_USAGE;
	}
	if (parse_node(argv[1], &node))
		return EXIT_USAGE;
	if (sscanf(argv[2], "%x:%x.%x", &bus, &dev, &fn) != 3 || bus > 255 ||
	    dev > 31 || fn > 7) {
		err_msg("bad address '%s' (BUS:DEV.FN in hex, e.g. 01:00.0)", argv[2]);
		return EXIT_USAGE;
	}
	snprintf(offs, sizeof(offs), "%s", argv[3]);
	dot = strrchr(offs, '.');
	if (dot) {
		size = !strcmp(dot, ".b") ? 1 : !strcmp(dot, ".w") ? 2 :
		       !strcmp(dot, ".l") ? 4 : 0;
		*dot = '\0';
	}
	write = argc == 5;
	if (!size || parse_u64(offs, &off) || off > 4095 || off % size ||
	    (write && (parse_u64(argv[4], &v) || v > UINT32_MAX))) {
		err_msg("bad offset/size/value (OFFSET < 0x1000, aligned; .b .w .l)");
		return EXIT_USAGE;
	}
	val = (uint32_t)v;

	ret = extoll_cfg(nic, node, (uint8_t)bus, (uint8_t)(dev << 3 | fn),
			 (uint16_t)off, size, write, &val, &cpl);
	if (ret) {
		err_msg("cfg node %u %02x:%02x.%x 0x%03" PRIx64 ": %s (completion status %u)",
			node, bus, dev, fn, off,
			ret == -ETIMEDOUT ? "no answer" : strerror(-ret), cpl);
		return exit_of(ret == -EIO ? -ENXIO : ret);
	}
	if (opt_json) {
		struct json_object *o = json_object_new_object();
		char buf[16];

		snprintf(buf, sizeof(buf), "0x%0*x", (int)size * 2, val);
		json_object_object_add(o, "value", json_object_new_string(buf));
		json_print(o);
	} else if (!opt_quiet && !write) {
		printf("%0*x\n", (int)size * 2, val);
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct extoll_nic *nic = NULL;
	const char *cmd;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+d:jqh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			opt_dev = optarg;
			break;
		case 'j':
			opt_json = 1;
			break;
		case 'q':
			opt_quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	cmd = argv[0];

	if (!strcmp(cmd, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "route"))
		return cmd_route(argc, argv);	/* opens the NIC unless --dry-run */

	if (strcmp(cmd, "list") && strcmp(cmd, "attach") && strcmp(cmd, "detach") &&
	    strcmp(cmd, "info") && strcmp(cmd, "rra") && strcmp(cmd, "cfg")) {
		err_msg("unknown command '%s' (try --help)", cmd);
		return EXIT_USAGE;
	}

	ret = open_nic(&nic);
	if (ret)
		return ret;
	if (strcmp(cmd, "list") && strcmp(cmd, "info") && strcmp(cmd, "detach") &&
	    naactl_require_rra(nic)) {
		extoll_close(nic);
		return EXIT_NONIC;
	}

	if (!strcmp(cmd, "list"))
		ret = cmd_list(nic, argc, argv);
	else if (!strcmp(cmd, "attach"))
		ret = cmd_attach(nic, argc, argv);
	else if (!strcmp(cmd, "detach"))
		ret = cmd_detach(nic, argc, argv);
	else if (!strcmp(cmd, "info"))
		ret = cmd_info(nic, argc, argv);
	else if (!strcmp(cmd, "rra"))
		ret = cmd_rra(nic, argc, argv);
	else
		ret = cmd_cfg(nic, argc, argv);
	extoll_close(nic);
	return ret;
}

/* For route.c (naactl.h) */
int naactl_require_rra(struct extoll_nic *nic)
{
	const struct extoll_nic_info *i = extoll_nic_info(nic);

	if (i->rra)
		return 0;
	err_msg("the NIC %s has no remote register access (its RTL has no rra block)",
		i->pci_name);
	return -EOPNOTSUPP;
}

int naactl_open_nic(struct extoll_nic **nic)
{
	return open_nic(nic);
}

int naactl_json(void)
{
	return opt_json;
}

int naactl_quiet(void)
{
	return opt_quiet;
}

int naactl_exit_of(int err)
{
	return exit_of(err);
}
