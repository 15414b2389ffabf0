// SPDX-License-Identifier: Apache-2.0
/*
 * sacc-test: end-to-end test of the sample accelerator through
 * sample_accel.ko's /dev/saccN.
 *
 * Fills SIZE bytes with random data, DMAs them host -> device, has the
 * device compute their CRC-32 and compares it with zlib's crc32() (the
 * device computes exactly zlib's CRC-32: IEEE 802.3, reflected, init and
 * final XOR 0xffffffff; docs/accelerator.md), DMAs them back device -> host
 * into a second buffer and compares byte for byte. The data pass through
 * the file's DMA buffer (mmap, or pread/pwrite with --rw) in pieces of the
 * buffer's size.
 *
 * --rma-send NODE:ADDR instead has the device itself put the range to bus
 * address ADDR at node NODE through the RMA unit of the NAA it sits behind
 * (SACC_IOC_RMA_SEND, docs/accelerator.md "RMA send"): nothing is moved by
 * the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>
#include <zlib.h>

#include "accel_hw.h"
#include "sacc-common.h"
#include "sample_accel.h"

#define PROG "sacc-test"
#define DEFAULT_SIZE (4u << 20)

struct opts {
	struct sacc_opts common;	/* device: PCI address or /dev path */
	uint64_t size;		/* 0: min(4 MiB, device memory - offset) */
	uint64_t offset;
	bool use_rw;
	bool crc_only;
	/* --rma-send */
	bool rma;
	struct sacc_rma_send r;
	bool have_win, have_self, have_rnoti;
};

struct ctx {
	int fd;
	struct sacc_info info;
	uint8_t *map;		/* the DMA buffer, mmap'ed (NULL with --rw) */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [options]\n"
		"\n"
		"End-to-end test of the sample accelerator (PCI 1ee7:0100) through\n"
		"/dev/saccN: random data host->device by DMA, CRC-32 on the device\n"
		"checked against zlib's crc32(), device->host by DMA, byte compare.\n"
		"Overwrites the device memory range it uses.\n"
		"\n"
		"  -d, --device DEV    PCI address ([domain:]bus:dev.fn, e.g. 10000:01:00.0)\n"
		"                      or a /dev/saccN path; default: the first 1ee7:0100\n"
		"  -s, --size N        bytes (suffix K, M), a multiple of 4;\n"
		"                      default min(4M, device memory - offset)\n"
		"  -o, --offset N      device memory offset, a multiple of 4 (default 0)\n"
		"  -S, --seed N        seed of the random data (default: random; printed)\n"
		"      --rw            move data with pwrite/pread instead of mmap\n"
		"      --crc-only      only the CRC-32 job over the range, nothing written:\n"
		"                      prints 'crc32 0x...' (e.g. of data put there by RMA)\n"
		"      --rma-send NODE:ADDR  the device puts the range (--offset, --size) to\n"
		"                      bus address ADDR at node NODE by RMA through its NAA\n"
		"                      (the RMA send job; the host moves nothing); needs:\n"
		"      --rma-win ADDR    the NAA's descriptor window (its rma.win base)\n"
		"      --rma-self NODE   node id of the NAA the device sits behind\n"
		"      --rma-rnoti OFF   device offset of the requester record (16-byte\n"
		"                        aligned; default: the last 16 bytes of device memory)\n"
		"      --rma-cnoti ADDR  completer record at NODE (16-byte aligned; default none)\n"
		"      --rma-cookie N    cookie of the descriptor (default 1)\n"
		"  -q, --quiet         print only the verdict and errors\n"
		"  -h, --help          this text\n"
		"  -V, --version       the version\n"
		"\n"
		"Prints PASS or FAIL last. Exit status: 0 PASS, 1 FAIL, 2 usage error,\n"
		"3 could not run (no device, no driver, no permission).\n");
}

/* A number (base prefix allowed) that fits MAX; 0 or -1. */
static int parse_num(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return (!*s || *end || errno || *out > max || s[0] == '-') ? -1 : 0;
}

/* The --rma-* options (long option values 1..6). */
static int parse_rma_opt(int c, const char *arg, struct opts *o)
{
	static const char *const names[] = { "", "--rma-send", "--rma-win", "--rma-self",
					     "--rma-rnoti", "--rma-cnoti", "--rma-cookie" };
	const char *what = "";
	uint64_t v = 0, node;
	char nbuf[16];
	const char *colon;

	switch (c) {
	case 1:
		colon = strchr(arg, ':');
		if (!colon || (size_t)(colon - arg) >= sizeof(nbuf)) {
			what = "NODE:ADDR, e.g. 2:0x800000000";
			break;
		}
		memcpy(nbuf, arg, colon - arg);
		nbuf[colon - arg] = '\0';
		if (parse_num(nbuf, 0xffff, &node) || parse_num(colon + 1, UINT64_MAX, &v) || v % 4) {
			what = "NODE:ADDR with NODE 0..65535 and ADDR a multiple of 4";
			break;
		}
		o->rma = true;
		o->r.dst_node = (uint16_t)node;
		o->r.dst_addr = v;
		return 0;
	case 2:
		if (parse_num(arg, UINT64_MAX, &v) || !v || v % 4096) {
			what = "a non-zero bus address, 4 KiB aligned";
			break;
		}
		o->r.win_addr = v;
		o->have_win = true;
		return 0;
	case 3:
		if (parse_num(arg, 0xffff, &v)) {
			what = "a node id 0..65535";
			break;
		}
		o->r.src_node = (uint16_t)v;
		o->have_self = true;
		return 0;
	case 4:
		if (sacc_parse_size(arg, &v) || v % 16) {
			what = "a device memory offset, 16-byte aligned";
			break;
		}
		o->r.rnoti_offset = v;
		o->have_rnoti = true;
		return 0;
	case 5:
		if (parse_num(arg, UINT64_MAX, &v) || !v || v % 16) {
			what = "a non-zero bus address, 16-byte aligned";
			break;
		}
		o->r.cnoti_addr = v;
		return 0;
	case 6:
		if (parse_num(arg, 0xffff, &v)) {
			what = "0..65535";
			break;
		}
		o->r.cookie = (uint16_t)v;
		return 0;
	}
	fprintf(stderr, PROG ": bad %s '%s': %s\n", names[c], arg, what);
	return -1;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		EXTOLL_OPT_DEVICE, { "size", required_argument, NULL, 's' },
		{ "offset", required_argument, NULL, 'o' }, { "seed", required_argument, NULL, 'S' },
		{ "rw", no_argument, NULL, 'r' }, { "crc-only", no_argument, NULL, 'c' },
		{ "rma-send", required_argument, NULL, 1 }, { "rma-win", required_argument, NULL, 2 },
		{ "rma-self", required_argument, NULL, 3 }, { "rma-rnoti", required_argument, NULL, 4 },
		{ "rma-cnoti", required_argument, NULL, 5 }, { "rma-cookie", required_argument, NULL, 6 },
		EXTOLL_OPTS_STD, { NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "d:s:o:S:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (sacc_parse_size(optarg, &o->size) || !o->size || o->size % 4) {
				fprintf(stderr, PROG ": bad --size '%s': a positive multiple of 4 (K/M suffix allowed)\n",
					optarg);
				return -1;
			}
			break;
		case 'o':
			if (sacc_parse_size(optarg, &o->offset) || o->offset % 4) {
				fprintf(stderr, PROG ": bad --offset '%s': a multiple of 4\n", optarg);
				return -1;
			}
			break;
		case 'r':
			o->use_rw = true;
			break;
		case 'c':
			o->crc_only = true;
			break;
		case 1: case 2: case 3: case 4: case 5: case 6:
			if (parse_rma_opt(c, optarg, o))
				return -1;
			break;
		default:
			if (sacc_common_opt(PROG, c, optarg, &o->common, usage))
				return -1;
		}
	}
	if (sacc_no_operands(PROG, argc, argv))
		return -1;
	if (o->rma && (!o->have_win || !o->have_self)) {
		fprintf(stderr, PROG ": --rma-send needs --rma-win ADDR (the NAA's rma.win) and --rma-self NODE (its node id)\n");
		return -1;
	}
	if (!o->rma && (o->have_win || o->have_self || o->have_rnoti || o->r.cnoti_addr)) {
		fprintf(stderr, PROG ": --rma-win/--rma-self/--rma-rnoti/--rma-cnoti only with --rma-send\n");
		return -1;
	}
	return 0;
}

/* xorshift64*: fast, reproducible from the printed seed. */
static void fill_random(uint8_t *p, size_t len, uint64_t seed)
{
	uint64_t x = seed ? seed : 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < len; i += 8) {
		uint64_t v;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		v = x * 0x2545f4914f6cdd1dull;
		memcpy(p + i, &v, len - i < 8 ? len - i : 8);
	}
}

static const char *irq_mode_name(uint32_t mode)
{
	switch (mode) {
	case SACC_IRQ_POLL:
		return "poll";
	case SACC_IRQ_INTX:
		return "intx";
	case SACC_IRQ_MSI:
		return "msi";
	case SACC_IRQ_MSIX:
		return "msix";
	}
	return "unknown";
}

static double mbps(uint64_t bytes, double secs)
{
	return secs > 0 ? bytes / secs / 1e6 : 0;
}

/* Buffer <- user data (PUT) or user data <- buffer, piece at buffer offset 0. */
static int buf_move(struct ctx *c, bool put, uint8_t *user, size_t len)
{
	ssize_t n;

	if (c->map) {
		if (put)
			memcpy(c->map, user, len);
		else
			memcpy(user, c->map, len);
		return 0;
	}
	n = put ? pwrite(c->fd, user, len, 0) : pread(c->fd, user, len, 0);
	if (n != (ssize_t)len) {
		fprintf(stderr, PROG ": %s of %zu bytes %s the DMA buffer: %s\n",
			put ? "pwrite" : "pread", len, put ? "into" : "from",
			n < 0 ? strerror(errno) : put ? "short write" : "short read");
		return -1;
	}
	return 0;
}

/*
 * Move SIZE bytes between host memory and device memory at OFFSET, one
 * buffer-sized piece per ioctl, and print a line with the figures unless
 * QUIET. Returns 0 or -1 (message printed).
 */
static int transfer(struct ctx *c, bool to_dev, uint8_t *host, uint64_t offset,
		    uint64_t size, bool quiet)
{
	uint64_t pos, cycles = 0;
	unsigned int ioctls = 0;
	double secs = 0;

	for (pos = 0; pos < size; ) {
		uint64_t piece = size - pos < c->info.buf_size ? size - pos : c->info.buf_size;
		struct sacc_copy cp = {
			.buf_offset = 0,
			.dev_offset = offset + pos,
			.len = piece,
		};
		double t0;
		int ret;

		if (to_dev) {
			if (buf_move(c, true, host + pos, piece))
				return -1;
		} else if (c->map) {
			memset(c->map, 0x5a, piece);	/* stale data must not pass */
		}
		t0 = sacc_now();
		ret = ioctl(c->fd, to_dev ? SACC_IOC_COPY_TO_DEV : SACC_IOC_COPY_FROM_DEV, &cp);
		secs += sacc_now() - t0;
		if (ret) {
			fprintf(stderr, PROG ": %s (dev offset 0x%" PRIx64 ", %" PRIu64 " bytes): %s\n",
				to_dev ? "COPY_TO_DEV" : "COPY_FROM_DEV", (uint64_t)cp.dev_offset, piece,
				strerror(errno));
			return -1;
		}
		if (!to_dev && buf_move(c, false, host + pos, piece))
			return -1;
		cycles += cp.cycles;
		ioctls++;
		pos += piece;
	}
	if (!quiet)
		printf(PROG ": %s: %" PRIu64 " bytes in %u ioctl(s), %.3f ms (%.2f MB/s), %" PRIu64 " device cycles\n",
		       to_dev ? "host->device" : "device->host", size, ioctls, secs * 1e3,
		       mbps(size, secs), cycles);
	return 0;
}

/* Names of the job error codes an RMA send can end with. */
static const char *rma_err_name(uint32_t err)
{
	switch (err) {
	case ACCEL_ERR_PARAM:
		return "bad parameters";
	case ACCEL_ERR_NO_BME:
		return "bus mastering off";
	case ACCEL_ERR_RMA_RD:
		return "RD_ERR: a source read failed";
	case ACCEL_ERR_RMA_BAD:
		return "BAD_DESC: the RMA unit refused the descriptor";
	case ACCEL_ERR_RMA_WR:
		return "WR_ERR: the destination refused the writes or is unreachable";
	case ACCEL_ERR_RMA_TMO:
		return "no requester record (window off, or the descriptor was lost)";
	}
	return "";
}

/* --rma-send: the device puts [offset, offset + size) by RMA. */
static int rma_send(struct ctx *c, struct opts *o)
{
	struct sacc_rma_send *r = &o->r;
	double t0, t;

	r->dev_offset = o->offset;
	r->len = o->size;
	if (!o->have_rnoti)
		r->rnoti_offset = c->info.devmem_size - 16;
	if (!r->cookie)
		r->cookie = 1;
	t0 = sacc_now();
	if (ioctl(c->fd, SACC_IOC_RMA_SEND, r)) {
		int e = errno;

		fprintf(stderr, PROG ": RMA_SEND of %" PRIu64 " bytes at device offset 0x%" PRIx64
			" to node %u address 0x%" PRIx64 ": %s%s%s (job error %u)\n",
			o->size, o->offset, r->dst_node, (uint64_t)r->dst_addr, strerror(e),
			r->err ? ": " : "", rma_err_name(r->err), r->err);
		printf("FAIL\n");
		return e == EOPNOTSUPP || e == ENOTTY ? EXIT_ENV : EXIT_FAIL;
	}
	t = sacc_now() - t0;
	printf(PROG ": rma-send %" PRIu64 " bytes from device offset 0x%" PRIx64 " (node %u) to node %u address 0x%" PRIx64
	       ": %u device cycles (%.2f bytes/cycle), %.3f ms, cookie %u\n",
	       o->size, o->offset, r->src_node, r->dst_node, (uint64_t)r->dst_addr, r->cycles,
	       r->cycles ? (double)o->size / r->cycles : 0.0, t * 1e3, r->cookie);
	printf("PASS\n");
	return EXIT_PASS;
}

static void report_mismatch(const uint8_t *a, const uint8_t *b, uint64_t size, uint64_t offset)
{
	uint64_t i, first = 0, count = 0;
	unsigned int shown = 0;

	for (i = 0; i < size; i++) {
		if (a[i] == b[i])
			continue;
		if (!count)
			first = i;
		count++;
		if (shown < 8) {
			fprintf(stderr, PROG ":   byte 0x%" PRIx64 " (device offset 0x%" PRIx64
				"): wrote 0x%02x, read back 0x%02x\n",
				i, offset + i, a[i], b[i]);
			shown++;
		}
	}
	fprintf(stderr, PROG ": compare: %" PRIu64 " of %" PRIu64
		" bytes differ, first at 0x%" PRIx64 "\n", count, size, first);
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct ctx c = { .fd = -1 };
	char bdf[64], path[128], err[512];
	uint8_t *src = NULL, *dst = NULL;
	uint32_t sw_crc;
	struct sacc_crc32 crc;
	double t, t0;
	int rc = EXIT_FAIL, ret;
	bool ok = true;

	if (parse_args(argc, argv, &o))
		return EXIT_USAGE;

	/* The device and its character device. */
	if (o.common.device && o.common.device[0] == '/') {
		snprintf(path, sizeof(path), "%s", o.common.device);
		bdf[0] = '\0';
	} else {
		ret = sacc_find_device(o.common.device, bdf, sizeof(bdf), err, sizeof(err));
		if (!ret)
			ret = sacc_chardev(bdf, path, sizeof(path), err, sizeof(err));
		if (ret) {
			fprintf(stderr, PROG ": %s\n", err);
			return ret == -2 ? EXIT_USAGE : EXIT_ENV;
		}
	}
	c.fd = open(path, O_RDWR | O_CLOEXEC);
	if (c.fd < 0) {
		fprintf(stderr, PROG ": open %s: %s\n", path, strerror(errno));
		return EXIT_ENV;
	}
	if (ioctl(c.fd, SACC_IOC_INFO, &c.info)) {
		fprintf(stderr, PROG ": %s: SACC_IOC_INFO: %s\n", path, strerror(errno));
		rc = EXIT_ENV;
		goto out;
	}
	if (c.info.abi_version != SACC_ABI_VERSION) {
		fprintf(stderr, PROG ": %s: driver ABI version %u, this tool speaks %u\n",
			path, c.info.abi_version, SACC_ABI_VERSION);
		rc = EXIT_ENV;
		goto out;
	}

	/* Size and offset against the device memory. */
	if (o.offset >= c.info.devmem_size) {
		fprintf(stderr, PROG ": --offset 0x%" PRIx64 " is beyond the device memory (%llu bytes)\n",
			o.offset, (unsigned long long)c.info.devmem_size);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!o.size)
		o.size = c.info.devmem_size - o.offset < DEFAULT_SIZE ?
			 c.info.devmem_size - o.offset : DEFAULT_SIZE;
	if (o.size > c.info.devmem_size - o.offset) {
		fprintf(stderr, PROG ": --size %" PRIu64 " at offset 0x%" PRIx64
			" does not fit the device memory (%llu bytes)\n",
			o.size, o.offset, (unsigned long long)c.info.devmem_size);
		rc = EXIT_USAGE;
		goto out;
	}
	if (o.rma) {
		rc = rma_send(&c, &o);
		goto out;
	}
	if (o.crc_only) {
		memset(&crc, 0, sizeof(crc));
		crc.dev_offset = o.offset;
		crc.len = o.size;
		if (ioctl(c.fd, SACC_IOC_CRC32, &crc)) {
			fprintf(stderr, PROG ": CRC32 (dev offset 0x%" PRIx64 ", %" PRIu64 " bytes): %s\n",
				o.offset, o.size, strerror(errno));
			printf("FAIL\n");
			goto out;
		}
		printf(PROG ": device offset 0x%" PRIx64 ", %" PRIu64 " bytes: crc32 0x%08x, %u device cycles\n",
		       o.offset, o.size, crc.crc, crc.cycles);
		printf("PASS\n");
		rc = EXIT_PASS;
		goto out;
	}
	if (!o.common.have_seed &&
	    getrandom(&o.common.seed, sizeof(o.common.seed), 0) != sizeof(o.common.seed))
		o.common.seed = (uint64_t)sacc_now() * 1000003u ^ (uint64_t)getpid();

	if (!o.use_rw) {
		c.map = mmap(NULL, c.info.buf_size, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
		if (c.map == MAP_FAILED) {
			fprintf(stderr, PROG ": mmap of the %llu-byte DMA buffer: %s\n",
				(unsigned long long)c.info.buf_size, strerror(errno));
			c.map = NULL;
			rc = EXIT_ENV;
			goto out;
		}
	}

	src = malloc(o.size);
	dst = malloc(o.size);
	if (!src || !dst) {
		fprintf(stderr, PROG ": out of memory for 2 x %" PRIu64 " bytes\n", o.size);
		rc = EXIT_ENV;
		goto out;
	}

	if (!o.common.quiet) {
		printf(PROG ": device %s (%s): hw v%u.%u, device memory %llu KiB, irq %s (%u vectors), DMA buffer %llu KiB (%s)\n",
		       c.info.pci_name, path, c.info.hw_version >> 16, c.info.hw_version & 0xffff,
		       (unsigned long long)c.info.devmem_size >> 10, irq_mode_name(c.info.irq_mode),
		       c.info.irq_vectors, (unsigned long long)c.info.buf_size >> 10,
		       o.use_rw ? "pread/pwrite" : "mmap");
		printf(PROG ": %" PRIu64 " random bytes (seed 0x%" PRIx64 ") at device offset 0x%" PRIx64 "\n",
		       o.size, o.common.seed, o.offset);
	}
	fill_random(src, o.size, o.common.seed);

	/* 1. host -> device */
	if (transfer(&c, true, src, o.offset, o.size, o.common.quiet)) {
		ok = false;
		goto verdict;
	}

	/* 2. CRC-32 on the device vs zlib */
	memset(&crc, 0, sizeof(crc));
	crc.dev_offset = o.offset;
	crc.len = o.size;
	t0 = sacc_now();
	if (ioctl(c.fd, SACC_IOC_CRC32, &crc)) {
		fprintf(stderr, PROG ": CRC32 (dev offset 0x%" PRIx64 ", %" PRIu64 " bytes): %s\n",
			o.offset, o.size, strerror(errno));
		ok = false;
		goto verdict;
	}
	t = sacc_now() - t0;
	t0 = sacc_now();
	sw_crc = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), src, o.size);
	if (!o.common.quiet) {
		printf(PROG ": crc32 on the device: 0x%08x, %.3f ms, %u device cycles\n",
		       crc.crc, t * 1e3, crc.cycles);
		printf(PROG ": crc32 in software (zlib): 0x%08x, %.3f ms\n", sw_crc,
		       (sacc_now() - t0) * 1e3);
	}
	if (crc.crc == sw_crc) {
		if (!o.common.quiet)
			printf(PROG ": crc32 match\n");
	} else {
		fprintf(stderr, PROG ": crc32 MISMATCH: device 0x%08x, zlib 0x%08x\n", crc.crc, sw_crc);
		ok = false;
	}

	/* 3. device -> host into a second buffer, byte compare */
	memset(dst, 0xa5, o.size);
	if (transfer(&c, false, dst, o.offset, o.size, o.common.quiet)) {
		ok = false;
		goto verdict;
	}
	if (memcmp(src, dst, o.size)) {
		report_mismatch(src, dst, o.size, o.offset);
		ok = false;
	} else if (!o.common.quiet) {
		printf(PROG ": compare: %" PRIu64 " bytes identical\n", o.size);
	}

verdict:
	printf("%s\n", ok ? "PASS" : "FAIL");
	rc = ok ? EXIT_PASS : EXIT_FAIL;
out:
	if (c.map)
		munmap(c.map, c.info.buf_size);
	free(src);
	free(dst);
	close(c.fd);
	return rc;
}
