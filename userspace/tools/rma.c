// SPDX-License-Identifier: Apache-2.0
/*
 * naactl rma: one-sided put and get through the NIC's RMA unit (libextoll's
 * extoll_rma_*, docs/rma.md).
 *   naactl rma put TARGET [--bar N] [--offset OFF] [--size SIZE] [--seed S] [--no-verify]
 *                 [--cnoti OFF]
 *       a pattern put to TARGET, got back into a second buffer, CRC-32 compared;
 *       --cnoti: the completer's notification record to OFF (as --offset)
 *   naactl rma get TARGET [--bar N] [--offset OFF] [--size SIZE] [--hex]
 *       TARGET into a buffer, its CRC-32 (zlib's, as the sample accelerator's job);
 *       --hex: also the bytes, as little-endian dwords (at most 256 B)
 *   naactl rma bench TARGET [--bar N] [--offset OFF] [--max SIZE] [--iters N]
 *       put and get latency and bandwidth, 8 B .. --max (default 1 MiB), in
 *       wall-clock time and in the NIC's cycles
 *   naactl rma expose [--size SIZE] [--offset OFF] [--len LEN] [--access rw|r|w]
 *                    [--guard BYTE] [--seed S]
 *       host to host: a buffer of SIZE (default 2M) filled with BYTE (default
 *       0xa5; the region with the pattern of S if given), its [OFF, OFF+LEN)
 *       exposed to other nodes' RMA units; prints "handle NODE:0xADDR:LEN:0xCNOTI"
 *       for the peer, then serves commands on stdin, one answer line each:
 *       crc OFF LEN (in the region), guard (every byte outside the region
 *       still BYTE?), unexpose, quit (or end of input: revoked, exit)
 * TARGET: a device of an attached node's PCI domain (fffe:01:00.0, memory
 * BAR --bar, offset --offset in it), --node N with --offset the bus
 * address at that node, or --peer HANDLE (what expose printed on the other
 * host; --offset in the region, checked against its length here; a put asks
 * for the completer notification at the peer). The lengths and addresses are
 * the driver's to check, the peer's region its NIC's: a refused transfer is
 * reported with its errno, nothing is written.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "extoll_regs.h"
#include "libextoll.h"
#include "uapi/extoll_ioctl.h"
#include "naactl.h"

const char rma_usage[] =
	"put TARGET [--bar N] [--offset OFF] [--size SIZE] [--seed S] [--no-verify] [--cnoti OFF]\n"
	"get TARGET [--bar N] [--offset OFF] [--size SIZE] [--hex]\n"
	"bench TARGET [--bar N] [--offset OFF] [--max SIZE] [--iters N]\n"
	"expose [--size SIZE] [--offset OFF] [--len LEN] [--access rw|r|w] [--guard BYTE] [--seed S]\n"
	"TARGET: DOMAIN:BUS:DEV.FN, --node N or --peer NODE:ADDR:LEN[:CNOTI]";

/* How long one transfer may take before naactl gives up waiting. */
#define RMA_TIMEOUT_MS	60000

enum rma_cmd { RMA_PUT, RMA_GET, RMA_BENCH, RMA_EXPOSE };

struct rma_opts {
	enum rma_cmd cmd;
	struct extoll_rma_target t;
	const char *target;		/* as given, for messages */
	char node_name[96];		/* "node N", "peer HANDLE" */
	uint64_t offset, size, max, seed, iters, cnoti;
	int verify, have_cnoti, hex;
	int have_peer, have_seed;	/* --peer; --seed given (expose) */
	const char *size_arg, *max_arg;	/* --size, --max as given */
	struct extoll_rma_remote peer;	/* --peer */
	uint64_t len, guard;		/* expose: region length, guard byte */
	unsigned int access;		/* expose: EXTOLL_RMA_PEER_* */
};

/* "4096", "0x1000", "4K", "1M": 0 or -EINVAL. */
static int parse_size(const char *s, uint64_t *v)
{
	char buf[32];
	size_t n = strlen(s);
	unsigned int shift = 0;

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	switch (buf[n - 1]) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	}
	if (shift)
		buf[n - 1] = '\0';
	if (naactl_parse_u64(buf, v) || (shift && *v >> (64 - shift)))
		return -EINVAL;
	*v <<= shift;
	return 0;
}

/* expose: the options given; defaults size 2M, the whole buffer. */
static int rma_parse_expose(int argc, struct rma_opts *o, int have_target)
{
	if (argc != 1 || have_target || o->have_cnoti || o->hex || !o->verify) {
		err_msg("rma expose: options --size, --offset, --len, --access, --guard, --seed only");
		return NAACTL_EXIT_USAGE;
	}
	o->cmd = RMA_EXPOSE;
	if (!o->size_arg)
		o->size = EXTOLL_RMA_REG_MAX;
	if (!o->len)
		o->len = o->offset < o->size ? o->size - o->offset : 0;
	if (o->offset % EXTOLL_RMA_EXPOSE_PAGE || o->len % EXTOLL_RMA_EXPOSE_PAGE || !o->len ||
	    o->offset + o->len > o->size) {
		err_msg("rma expose: --offset and --len multiples of %u, the region inside the buffer of %" PRIu64 " B",
			EXTOLL_RMA_EXPOSE_PAGE, o->size);
		return NAACTL_EXIT_USAGE;
	}
	o->target = "this host";
	return NAACTL_EXIT_OK;
}

static int rma_parse(int argc, char **argv, struct rma_opts *o)
{
	static const struct option opts[] = {
		{ "bar", required_argument, NULL, 'b' },
		{ "offset", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "max", required_argument, NULL, 'm' },
		{ "iters", required_argument, NULL, 'i' },
		{ "seed", required_argument, NULL, 'S' },
		{ "node", required_argument, NULL, 'n' },
		{ "no-verify", no_argument, NULL, 'N' },
		{ "cnoti", required_argument, NULL, 'c' },
		{ "hex", no_argument, NULL, 'x' },
		{ "peer", required_argument, NULL, 'P' },
		{ "len", required_argument, NULL, 'l' },
		{ "access", required_argument, NULL, 'a' },
		{ "guard", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t bar = 0;
	uint16_t node = 0;
	int c, have_node = 0, have_bar = 0;

	memset(o, 0, sizeof(*o));
	o->size = 4096;
	o->max = EXTOLL_RMA_XFER_MAX;
	o->iters = 4;
	o->seed = 1;
	o->verify = 1;
	optind = 0;
	o->guard = 0xa5;
	o->access = EXTOLL_RMA_PEER_READ | EXTOLL_RMA_PEER_WRITE;
	while ((c = naactl_getopt(argc, argv, "b:o:s:m:i:S:n:Nc:xP:l:a:g:", opts)) != -1) {
		switch (c) {
		case 'b':
			if (naactl_parse_u64(optarg, &bar) || bar > 5) {
				err_msg("rma: invalid BAR '%s' (0..5)", optarg);
				return NAACTL_EXIT_USAGE;
			}
			have_bar = 1;
			break;
		case 'o':
			if (parse_size(optarg, &o->offset)) {
				err_msg("rma: invalid offset '%s'", optarg);
				return NAACTL_EXIT_USAGE;
			}
			break;
		case 's':
		case 'm':
			*(c == 's' ? &o->size_arg : &o->max_arg) = optarg;
			/* (a transfer's limit; expose's buffer: checked below) */
			if (parse_size(optarg, c == 's' ? &o->size : &o->max) ||
			    (c == 's' ? o->size : o->max) > EXTOLL_RMA_REG_MAX) {
				err_msg("rma: invalid size '%s' (bytes, K or M; at most 1M, expose 2M)",
					optarg);
				return NAACTL_EXIT_USAGE;
			}
			break;
		case 'P':
			if (extoll_rma_remote_parse(optarg, &o->peer)) {
				err_msg("rma: invalid --peer '%s' (NODE:ADDR:LEN[:CNOTI], as 'rma expose' printed it)",
					optarg);
				return NAACTL_EXIT_USAGE;
			}
			o->have_peer = 1;
			break;
		case 'l':
			if (parse_size(optarg, &o->len)) {
				err_msg("rma: invalid --len '%s'", optarg);
				return NAACTL_EXIT_USAGE;
			}
			break;
		case 'a':
			if (!strcmp(optarg, "rw"))
				o->access = EXTOLL_RMA_PEER_READ | EXTOLL_RMA_PEER_WRITE;
			else if (!strcmp(optarg, "r"))
				o->access = EXTOLL_RMA_PEER_READ;
			else if (!strcmp(optarg, "w"))
				o->access = EXTOLL_RMA_PEER_WRITE;
			else {
				err_msg("rma: invalid --access '%s' (rw, r or w)", optarg);
				return NAACTL_EXIT_USAGE;
			}
			break;
		case 'g':
			if (naactl_parse_u64(optarg, &o->guard) || o->guard > 0xff) {
				err_msg("rma: invalid --guard '%s' (a byte, 0..0xff)", optarg);
				return NAACTL_EXIT_USAGE;
			}
			break;
		case 'i':
			if (naactl_parse_u64(optarg, &o->iters) || !o->iters || o->iters > 1000000) {
				err_msg("rma: invalid count '%s' (1..1000000)", optarg);
				return NAACTL_EXIT_USAGE;
			}
			break;
		case 'S':
			if (naactl_parse_u64(optarg, &o->seed)) {
				err_msg("rma: invalid seed '%s'", optarg);
				return NAACTL_EXIT_USAGE;
			}
			o->have_seed = 1;
			break;
		case 'n':
			if (naactl_parse_node(optarg, &node))
				return NAACTL_EXIT_USAGE;
			have_node = 1;
			break;
		case 'N':
			o->verify = 0;
			break;
		case 'c':
			if (parse_size(optarg, &o->cnoti)) {
				err_msg("rma: invalid --cnoti '%s'", optarg);
				return NAACTL_EXIT_USAGE;
			}
			o->have_cnoti = 1;
			break;
		case 'x':
			o->hex = 1;
			break;
		default:
			return naactl_usage_error("rma");
		}
	}
	argc -= optind;
	argv += optind;
	if (argc >= 1 && !strcmp(argv[0], "expose"))
		return rma_parse_expose(argc, o, have_node || o->have_peer || have_bar);
	if (have_node && o->have_peer) {
		err_msg("rma: --node or --peer, not both");
		return NAACTL_EXIT_USAGE;
	}
	if (argc < 1 || argc > 2 || (argc == 2) == (have_node || o->have_peer))
		return naactl_usage_error("rma");
	if (!strcmp(argv[0], "put"))
		o->cmd = RMA_PUT;
	else if (!strcmp(argv[0], "get"))
		o->cmd = RMA_GET;
	else if (!strcmp(argv[0], "bench"))
		o->cmd = RMA_BENCH;
	else
		return naactl_usage_error("rma");
	if (o->len || o->guard != 0xa5 ||
	    o->access != (EXTOLL_RMA_PEER_READ | EXTOLL_RMA_PEER_WRITE)) {
		err_msg("rma: --len, --access and --guard are options of expose");
		return NAACTL_EXIT_USAGE;
	}
	if (o->size > EXTOLL_RMA_XFER_MAX || o->max > EXTOLL_RMA_XFER_MAX) {
		err_msg("rma: invalid size '%s' (a transfer: at most 1M)",
			o->size > EXTOLL_RMA_XFER_MAX ? o->size_arg : o->max_arg);
		return NAACTL_EXIT_USAGE;
	}
	if ((o->have_cnoti && o->cmd != RMA_PUT) || (o->hex && o->cmd != RMA_GET)) {
		err_msg("rma: --cnoti is an option of put, --hex of get");
		return NAACTL_EXIT_USAGE;
	}
	if (o->hex && o->size > 256) {
		err_msg("rma get --hex: at most 256 B");
		return NAACTL_EXIT_USAGE;
	}
	if (o->have_peer) {
		char h[EXTOLL_RMA_REMOTE_STRLEN];

		if (have_bar || o->have_cnoti) {
			err_msg("rma: --peer names a region of another host: no --bar, no --cnoti (the handle has it)");
			return NAACTL_EXIT_USAGE;
		}
		if (o->cmd == RMA_BENCH) {
			err_msg("rma bench: not with --peer (use --node and the region's address)");
			return NAACTL_EXIT_USAGE;
		}
		extoll_rma_remote_format(&o->peer, h, sizeof(h));
		snprintf(o->node_name, sizeof(o->node_name), "peer %s", h);
		o->target = o->node_name;
		/* inside the region: checked here, the peer's NIC checks again */
		if (extoll_rma_target_remote(&o->t, &o->peer, o->offset, o->size)) {
			err_msg("rma %s %s %" PRIu64 " B at offset 0x%" PRIx64
				": %s (beyond the peer's exposed region of %" PRIu64 " B)",
				o->cmd == RMA_PUT ? "put" : "get", o->target, o->size, o->offset,
				strerror(ERANGE), o->peer.len);
			return NAACTL_EXIT_USAGE;
		}
		o->have_cnoti = o->cmd == RMA_PUT && o->peer.cnoti;
		o->cnoti = o->t.cnoti;
		return NAACTL_EXIT_OK;
	}
	if (have_node) {
		if (have_bar) {
			err_msg("rma: --bar names a BAR of a PCI device, not of --node");
			return NAACTL_EXIT_USAGE;
		}
		extoll_rma_target_node(&o->t, node, o->offset);
		snprintf(o->node_name, sizeof(o->node_name), "node %u", node);
		o->target = o->node_name;
	} else if (extoll_rma_target_pci(&o->t, argv[1], (unsigned int)bar, o->offset)) {
		err_msg("rma: invalid device '%s' (DOMAIN:BUS:DEV.FN of an attached node's domain, e.g. fffe:01:00.0)",
			argv[1]);
		return NAACTL_EXIT_USAGE;
	} else {
		o->target = argv[1];
	}
	o->t.cnoti = o->cnoti;
	return NAACTL_EXIT_OK;
}

/* The reason behind an errno of a put/get, for the message. */
static const char *rma_hint(int err)
{
	switch (err) {
	case -EINVAL: return "length 4 B..1 MiB and a multiple of 4, address 4-byte aligned, not this node";
	case -ERANGE: return "beyond the BAR, the buffer or 2^43";
	case -ENOENT: return "not a device of an attached node's domain";
	case -ENXIO: return "no such device, or its node is not attached";
	case -ENODEV: return "the NIC has no RMA unit: its RTL has no rma block";
	case -EHOSTUNREACH: return "the node does not answer";
	case -EBUSY: return "the NIC's descriptor FIFO stayed full";
	case -EIO: return "a source read or the flush read at the destination failed: RD_ERR or WR_ERR "
			  "(outside a region the peer exposed, or revoked)";
	case -ETIMEDOUT: return "no completion notification";
	case -ENOSPC: return "every region of the NIC is exposed already";
	default: return NULL;
	}
}

static int rma_fail(const char *what, const struct rma_opts *o, uint64_t len, int err)
{
	const char *hint = rma_hint(err);

	err_msg("rma %s %s %" PRIu64 " B at offset 0x%" PRIx64 ": %s%s%s%s", what,
		o->target, len, o->offset, strerror(-err), hint ? " (" : "",
		hint ? hint : "", hint ? ")" : "");
	if (err == -ENODEV || err == -ENOTSUP || err == -EPERM || err == -EACCES)
		return NAACTL_EXIT_NONIC;
	if (err == -ENOENT || err == -ENXIO || err == -EHOSTUNREACH)
		return NAACTL_EXIT_NONODE;
	if (err == -EBUSY || err == -EAGAIN || err == -ENOSPC)
		return NAACTL_EXIT_BUSY;
	return NAACTL_EXIT_OTHER;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* xorshift64 bytes: the same seed, the same pattern. */
static void fill_pattern(uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t x = seed ? seed : 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(i % 8)) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		p[i] = (uint8_t)(x >> (8 * (i % 8)));
	}
}

static uint32_t crc32_of(const void *p, size_t n)
{
	return (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), p, n);
}

static int rma_put_get(struct extoll_rma *ep, const struct rma_opts *o)
{
	struct extoll_rma_buf *src, *dst;
	struct extoll_rma_completion cp = { 0 }, cg = { 0 };
	/* a buffer even for --size 0: the driver is the one to refuse that */
	uint64_t bufsize = o->size < 4 ? 4 : o->size;
	uint32_t crc_src = 0, crc_dst = 0;
	char hex[16];
	int ret;

	ret = extoll_rma_register(ep, bufsize, &src);
	if (!ret)
		ret = extoll_rma_register(ep, bufsize, &dst);
	if (ret) {
		err_msg("rma: cannot register two buffers of %" PRIu64 " B: %s", bufsize,
			strerror(-ret));
		return naactl_exit_of(ret);
	}
	if (o->cmd == RMA_PUT) {
		uint16_t cookie;

		fill_pattern(src->addr, o->size, o->seed);
		crc_src = crc32_of(src->addr, o->size);
		ret = extoll_rma_put(ep, src, 0, &o->t, o->size,
				     o->have_cnoti ? EXTOLL_RMA_NOTIFY_COMPLETER : 0, &cookie);
		if (!ret)
			ret = extoll_rma_wait(ep, cookie, RMA_TIMEOUT_MS, &cp);
		if (ret)
			return rma_fail("put", o, o->size, ret);
		if (!o->verify)
			goto print;
	}
	memset(dst->addr, 0, o->size);
	ret = extoll_rma_get_sync(ep, dst, 0, &o->t, o->size, RMA_TIMEOUT_MS, &cg);
	if (ret)
		return rma_fail("get", o, o->size, ret);
	crc_dst = crc32_of(dst->addr, o->size);
	if (o->cmd == RMA_GET)
		crc_src = crc_dst;
print:
	new_json_obj();
	print_string(PRINT_ANY, "op", "%s ", o->cmd == RMA_PUT ? "put" : "get");
	print_string(PRINT_ANY, "target", "%s ", o->target);
	print_u64(PRINT_ANY, "offset", "offset 0x%" PRIx64 " ", o->offset);
	print_u64(PRINT_ANY, "bytes", "%" PRIu64 " B: ", o->size);
	if (o->cmd == RMA_PUT)
		print_u64(PRINT_ANY, "put_ns", "put %" PRIu64 " ns, ", cp.ns);
	if (o->cmd == RMA_GET || o->verify)
		print_u64(PRINT_ANY, "get_ns", "get %" PRIu64 " ns, ", cg.ns);
	snprintf(hex, sizeof(hex), "0x%08x", crc_src);
	print_string(PRINT_ANY, "crc32", "crc32 %s", hex);
	if (o->cmd == RMA_PUT && o->verify) {
		snprintf(hex, sizeof(hex), "0x%08x", crc_dst);
		print_string(PRINT_ANY, "crc32_back", ", back %s", hex);
		print_bool(PRINT_JSON, "match", NULL, crc_dst == crc_src);
		print_text(": %s", crc_dst == crc_src ? "match" : "MISMATCH");
	}
	print_nl();
	if (o->hex) {
		const uint8_t *p = dst->addr;
		uint64_t i;

		open_json_array(PRINT_JSON, "dwords");
		for (i = 0; i + 4 <= o->size; i += 4) {
			snprintf(hex, sizeof(hex), "0x%08x", (unsigned int)(p[i] | p[i + 1] << 8 |
				 p[i + 2] << 16 | (uint32_t)p[i + 3] << 24));
			print_string(PRINT_ANY, NULL, i % 32 ? " %s" : "%s", hex);
			if (i % 32 == 28)
				print_nl();
		}
		close_json_array(PRINT_JSON, NULL);
		if (o->size % 32)
			print_nl();
	}
	delete_json_obj();
	if (o->cmd == RMA_PUT && o->verify && crc_dst != crc_src) {
		err_msg("rma put %s: the data got back differs (crc32 0x%08x, put 0x%08x)",
			o->target, crc_dst, crc_src);
		return NAACTL_EXIT_OTHER;
	}
	return NAACTL_EXIT_OK;
}

/* The NIC's cycle counter (info.cycles, by RRA to the own node, source-routed): in the
 * co-simulation the clock runs only while there is work, so cycles are the
 * device time a transfer took. */
struct rma_clock {
	struct extoll_nic *nic;
	int ok;			/* the counter could be read */
	uint64_t overhead;	/* cycles of one read, subtracted */
};

static int read_cycles(struct rma_clock *k, uint64_t *c)
{
	/* source route 7: eject at the first router, this node (no table needed) */
	return extoll_rra_read_routed(k->nic, EXTOLL_ROUTE_PORT_EJECT,
				      EXTOLL_INFO_BASE + EXTOLL_INFO_CYCLES, c, NULL);
}

static void clock_init(struct rma_clock *k, struct extoll_nic *nic)
{
	uint64_t a, b;
	int i;

	k->nic = nic;
	k->ok = !read_cycles(k, &a);
	k->overhead = UINT64_MAX;
	for (i = 0; k->ok && i < 3; i++) {
		k->ok = !read_cycles(k, &a) && !read_cycles(k, &b) && b >= a;
		if (k->ok && b - a < k->overhead)
			k->overhead = b - a;
	}
}

/* cycles from c0 to now, less one read; 0 without a counter */
static uint64_t cycles_since(struct rma_clock *k, uint64_t c0)
{
	uint64_t c1;

	if (!k->ok || read_cycles(k, &c1) || c1 < c0)
		return 0;
	return c1 - c0 > k->overhead ? c1 - c0 - k->overhead : 0;
}

struct rma_result {
	uint64_t lat_ns, bps;		/* wall clock */
	uint64_t lat_cyc, bpkc;		/* device cycles; bytes per 1000 cycles */
};

/* One size of the bench: latency (one transfer at a time) and bandwidth
 * (iters transfers posted back to back, then waited for). */
static int rma_bench_one(struct extoll_rma *ep, struct extoll_rma_buf *buf,
			 const struct rma_opts *o, struct rma_clock *k, int get,
			 uint64_t size, struct rma_result *r)
{
	struct extoll_rma_completion c;
	uint64_t i, t0, c0 = 0, sum = 0, csum = 0, posted = 0, cyc;
	int ret;

	for (i = 0; i < o->iters; i++) {
		if (k->ok && read_cycles(k, &c0))
			k->ok = 0;
		t0 = now_ns();
		ret = get ? extoll_rma_get_sync(ep, buf, 0, &o->t, size, RMA_TIMEOUT_MS, &c) :
			    extoll_rma_put_sync(ep, buf, 0, &o->t, size, RMA_TIMEOUT_MS, &c);
		if (ret)
			return ret;
		sum += now_ns() - t0;
		csum += cycles_since(k, c0);
	}
	r->lat_ns = sum / o->iters;
	r->lat_cyc = csum / o->iters;
	if (k->ok && read_cycles(k, &c0))
		k->ok = 0;
	t0 = now_ns();
	for (i = 0; i < o->iters;) {
		ret = get ? extoll_rma_get(ep, buf, 0, &o->t, size, 0, NULL) :
			    extoll_rma_put(ep, buf, 0, &o->t, size, 0, NULL);
		if ((ret == -EBUSY || ret == -EAGAIN) && posted) {
			/* the pipe is full: take a completion first */
			ret = extoll_rma_wait(ep, 0, RMA_TIMEOUT_MS, NULL);
			if (ret)
				return ret;
			posted--;
			continue;
		}
		if (ret)
			return ret;
		posted++;
		i++;
	}
	while (posted--) {
		ret = extoll_rma_wait(ep, 0, RMA_TIMEOUT_MS, NULL);
		if (ret)
			return ret;
	}
	t0 = now_ns() - t0;
	cyc = cycles_since(k, c0);
	r->bps = t0 ? size * o->iters * 1000000000u / t0 : 0;
	r->bpkc = cyc ? size * o->iters * 1000u / cyc : 0;
	return 0;
}

static void print_bpc(const char *key, uint64_t bpkc)
{
	print_u64(PRINT_JSON, key, NULL, bpkc);
	print_text("  %5" PRIu64 ".%03" PRIu64, bpkc / 1000, bpkc % 1000);
}

static int rma_bench(struct extoll_rma *ep, const struct rma_opts *o)
{
	struct extoll_rma_buf *buf;
	struct rma_result r[2];
	struct rma_clock k;
	uint64_t size;
	int ret, get;

	ret = extoll_rma_register(ep, o->max, &buf);
	if (ret) {
		err_msg("rma: cannot register a buffer of %" PRIu64 " B: %s", o->max, strerror(-ret));
		return naactl_exit_of(ret);
	}
	fill_pattern(buf->addr, o->max, o->seed);
	clock_init(&k, extoll_rma_nic(ep));
	new_json_obj();
	print_string(PRINT_ANY, "target", "rma bench %s", o->target);
	print_u64(PRINT_ANY, "offset", " offset 0x%" PRIx64, o->offset);
	print_u64(PRINT_ANY, "iters", ", %" PRIu64 " transfers per size and direction", o->iters);
	print_bool(PRINT_JSON, "cycles", NULL, k.ok);
	print_text("%s", k.ok ? "; cycles: the NIC's info.cycles (RRA), less one read" :
		   "; no cycle counter (RRA to the own node failed): cycles 0");
	print_nl();
	print_text("%8s %11s %10s %12s %8s %11s %10s %12s %8s\n", "bytes", "put ns", "put cyc",
		   "put B/s", "put B/c", "get ns", "get cyc", "get B/s", "get B/c");
	open_json_array(PRINT_JSON, "sizes");
	for (size = 8; size <= o->max; size *= 2) {
		for (get = 0; get < 2; get++) {
			ret = rma_bench_one(ep, buf, o, &k, get, size, &r[get]);
			if (ret) {
				close_json_array(PRINT_JSON, NULL);
				delete_json_obj();
				return rma_fail(get ? "get" : "put", o, size, ret);
			}
		}
		open_json_object(NULL);
		print_u64(PRINT_ANY, "bytes", "%8" PRIu64, size);
		for (get = 0; get < 2; get++) {
			print_u64(PRINT_ANY, get ? "get_ns" : "put_ns", " %11" PRIu64, r[get].lat_ns);
			print_u64(PRINT_ANY, get ? "get_cycles" : "put_cycles", " %10" PRIu64,
				  r[get].lat_cyc);
			print_u64(PRINT_ANY, get ? "get_bps" : "put_bps", " %12" PRIu64, r[get].bps);
			print_bpc(get ? "get_bytes_per_kcycle" : "put_bytes_per_kcycle", r[get].bpkc);
		}
		close_json_object();
		print_nl();
	}
	close_json_array(PRINT_JSON, NULL);
	delete_json_obj();
	return NAACTL_EXIT_OK;
}

/* ---- expose: serve a region to other hosts */

/* The bytes of the buffer outside [off, off+len) that are not the guard
 * byte: how many, the first's offset. */
static uint64_t guard_broken(const uint8_t *p, uint64_t size, uint64_t off, uint64_t len,
			     uint8_t guard, uint64_t *first)
{
	uint64_t i, n = 0;

	for (i = 0; i < size; i++) {
		if (i == off)
			i += len;
		if (i >= size)
			break;
		if (p[i] != guard && !n++)
			*first = i;
	}
	return n;
}

/* One command line of expose's stdin; 1: quit. */
static int expose_cmd(struct extoll_rma *ep, const struct rma_opts *o,
		      struct extoll_rma_buf *buf, uint32_t *key, char *line)
{
	const uint8_t *p = buf->addr;
	char cmd[16], a[32], b[32], extra[2];
	uint64_t off, len, first = 0, n;
	int ret, k;

	k = sscanf(line, "%15s %31s %31s %1s", cmd, a, b, extra);
	if (k < 1)
		return 0;
	if (!strcmp(cmd, "crc") && k == 3 && !parse_size(a, &off) && !parse_size(b, &len) &&
	    off <= o->len && len <= o->len - off) {
		printf("crc32 0x%08x\n", crc32_of(p + o->offset + off, len));
	} else if (!strcmp(cmd, "guard") && k == 1) {
		n = guard_broken(p, buf->size, o->offset, o->len, (uint8_t)o->guard, &first);
		if (n)
			printf("guard BROKEN: %" PRIu64 " B changed, the first at buffer offset 0x%" PRIx64 "\n",
			       n, first);
		else
			printf("guard intact: %" PRIu64 " B of 0x%02x around the region\n",
			       buf->size - o->len, (unsigned int)o->guard);
	} else if (!strcmp(cmd, "unexpose") && k == 1) {
		ret = *key ? extoll_rma_unexpose(ep, *key) : -ENOENT;
		if (ret)
			printf("error: unexpose: %s\n", strerror(-ret));
		else
			printf("unexposed key %u\n", *key);
		*key = 0;
	} else if (!strcmp(cmd, "quit") && k == 1) {
		return 1;
	} else {
		printf("error: '%s': commands: crc OFF LEN (inside the region of %" PRIu64
		       " B), guard, unexpose, quit\n", cmd, o->len);
	}
	return 0;
}

static int rma_expose(struct extoll_rma *ep, const struct rma_opts *o)
{
	struct extoll_rma_remote r;
	struct extoll_rma_buf *buf;
	char h[EXTOLL_RMA_REMOTE_STRLEN], line[256];
	uint32_t key = 0;
	int ret;

	ret = extoll_rma_register(ep, o->size, &buf);
	if (ret) {
		err_msg("rma expose: cannot register a buffer of %" PRIu64 " B: %s", o->size,
			strerror(-ret));
		return naactl_exit_of(ret);
	}
	memset(buf->addr, (int)o->guard, buf->size);
	if (o->have_seed)
		fill_pattern((uint8_t *)buf->addr + o->offset, o->len, o->seed);
	ret = extoll_rma_expose(ep, buf, o->offset, o->len, o->access, &key, &r);
	if (ret == -ENOTSUP) {
		err_msg("rma expose: the extoll driver is older than host-to-host RMA (ioctl ABI < 4)");
		return NAACTL_EXIT_NONIC;
	}
	if (ret) {
		err_msg("rma expose: %" PRIu64 " B at buffer offset 0x%" PRIx64 ": %s%s", o->len,
			o->offset, strerror(-ret), ret == -ENOSPC ?
			" (every region of the NIC is exposed already)" : ret == -ENODEV ?
			" (the NIC has no dma block: its RTL cannot police peers' requests)" : "");
		return ret == -ENOSPC ? NAACTL_EXIT_BUSY : naactl_exit_of(ret);
	}
	extoll_rma_remote_format(&r, h, sizeof(h));
	printf("exposed key %u: node %u bus address 0x%" PRIx64 " %" PRIu64 " B (%s%s), crc32 0x%08x\n",
	       key, r.node, r.addr, r.len, o->access & EXTOLL_RMA_PEER_READ ? "r" : "",
	       o->access & EXTOLL_RMA_PEER_WRITE ? "w" : "",
	       crc32_of((uint8_t *)buf->addr + o->offset, o->len));
	printf("handle %s\n", h);
	fflush(stdout);
	/* a reader that went away must not kill the server with SIGPIPE */
	signal(SIGPIPE, SIG_IGN);
	while (fgets(line, sizeof(line), stdin)) {
		ret = expose_cmd(ep, o, buf, &key, line);
		fflush(stdout);
		if (ret)
			break;
	}
	/* closing the endpoint revokes the region */
	printf("done\n");
	return NAACTL_EXIT_OK;
}

int cmd_rma(struct extoll_nic *nic, int argc, char **argv)
{
	struct extoll_rma *ep;
	struct rma_opts o;
	int ret;

	(void)nic;
	ret = rma_parse(argc, argv, &o);
	if (ret)
		return ret;
	if (o.cmd == RMA_BENCH && o.max < 8) {
		err_msg("rma bench: --max below 8 B");
		return NAACTL_EXIT_USAGE;
	}
	ret = extoll_rma_open(naactl_device(), &ep);
	if (ret == -ENOTSUP) {
		err_msg("the extoll driver is older than RMA (ioctl ABI < 3)");
		return NAACTL_EXIT_NONIC;
	}
	if (ret)
		return naactl_open_error(ret);
	ret = o.cmd == RMA_BENCH ? rma_bench(ep, &o) : o.cmd == RMA_EXPOSE ? rma_expose(ep, &o) :
	      rma_put_get(ep, &o);
	extoll_rma_close(ep);
	return ret;
}
