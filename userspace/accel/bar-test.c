// SPDX-License-Identifier: Apache-2.0
/*
 * bar-test: the sample accelerator's device memory through a plain BAR
 * mapping (/sys/bus/pci/devices/<BDF>/resource2, uncached), without its
 * driver: stores patterns with 1, 2, 4 and 8-byte accesses (volatile, one
 * load/store instruction each, so each is one PCIe request of that size,
 * or one network round trip for a remote accelerator) in windows at
 * several offsets, reads them back with the same size and byte by byte,
 * and reports every mismatch.
 *
 * BAR0 (resource0) is mapped too, to check the ID register and learn how
 * much of BAR2 is backed (CAPS).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accel_hw.h"
#include "sacc-common.h"

#define PROG "bar-test"
#define WINDOW 64	/* bytes per (offset, access size) */
#define MAX_SHOWN 16	/* mismatch lines printed */

struct bar {
	void *base;
	size_t len;
};

static unsigned long mismatches;
static unsigned long reads, writes;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [options]\n"
		"\n"
		"Tests the sample accelerator's device memory (BAR2) through\n"
		"/sys/bus/pci/devices/<BDF>/resource2: 1, 2, 4 and 8-byte stores and\n"
		"loads at several offsets, read back with the same size and bytewise.\n"
		"Overwrites %u bytes of device memory at each offset tested.\n"
		"\n"
		"Needs root. With CONFIG_IO_STRICT_DEVMEM (Debian) a BAR claimed by a\n"
		"driver cannot be mapped: unbind sample_accel first, or boot with\n"
		"iomem=relaxed. Without a driver, " PROG " enables memory decoding through\n"
		"sysfs 'enable' for the test and restores it afterwards.\n"
		"\n"
		"  -d, --device BDF    PCI address ([domain:]bus:dev.fn, e.g. 10000:01:00.0);\n"
		"                      default: the first 1ee7:0100\n"
		"  -S, --seed N        pattern seed (default: random; printed)\n"
		"  -q, --quiet         print only mismatches and the verdict\n"
		"  -h, --help          this text\n"
		"  -V, --version       the version\n"
		"\n"
		"Prints PASS or FAIL last. Exit status: 0 PASS, 1 FAIL, 2 usage error,\n"
		"3 could not run (no device, cannot map, no permission).\n", WINDOW);
}

static int parse_args(int argc, char **argv, struct sacc_opts *o)
{
	static const struct option longopts[] = {
		EXTOLL_OPT_DEVICE, { "seed", required_argument, NULL, 'S' }, EXTOLL_OPTS_STD,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "d:S:qhV", longopts, NULL)) != -1)
		if (sacc_common_opt(PROG, c, optarg, o, usage))
			return -1;
	return sacc_no_operands(PROG, argc, argv);
}

/* Map resourceN of BDF (its whole size, or at most MAX bytes). */
static int map_bar(const char *bdf, int n, size_t max, struct bar *b, const char *drv)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, e;

	snprintf(path, sizeof(path), SACC_SYSFS_PCI "/%s/resource%d", bdf, n);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, PROG ": open %s: %s%s\n", path, strerror(errno),
			errno == EACCES || errno == EPERM ? " (needs root)" : "");
		return -1;
	}
	if (fstat(fd, &st) || st.st_size <= 0) {
		fprintf(stderr, PROG ": %s: cannot tell the BAR size\n", path);
		close(fd);
		return -1;
	}
	b->len = (size_t)st.st_size < max ? (size_t)st.st_size : max;
	b->base = mmap(NULL, b->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	close(fd);
	if (b->base == MAP_FAILED) {
		fprintf(stderr, PROG ": mmap %s (%zu bytes): %s\n", path, b->len, strerror(e));
		if (e == EINVAL && drv[0])
			fprintf(stderr, PROG ": the BAR is claimed by driver %s and the kernel refuses to map claimed regions (CONFIG_IO_STRICT_DEVMEM): unbind it (echo %s > /sys/bus/pci/drivers/%s/unbind) or boot with iomem=relaxed\n",
				drv, bdf, drv);
		b->base = NULL;
		return -1;
	}
	return 0;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static void store(volatile uint8_t *p, unsigned int size, uint64_t v)
{
	switch (size) {
	case 1:
		*(volatile uint8_t *)p = (uint8_t)v;
		break;
	case 2:
		*(volatile uint16_t *)p = (uint16_t)v;
		break;
	case 4:
		*(volatile uint32_t *)p = (uint32_t)v;
		break;
	default:
		*(volatile uint64_t *)p = v;
		break;
	}
	writes++;
}

static uint64_t load(const volatile uint8_t *p, unsigned int size)
{
	reads++;
	switch (size) {
	case 1:
		return *(const volatile uint8_t *)p;
	case 2:
		return *(const volatile uint16_t *)p;
	case 4:
		return *(const volatile uint32_t *)p;
	default:
		return *(const volatile uint64_t *)p;
	}
}

static uint64_t mask(unsigned int size)
{
	return size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

static void mismatch(uint64_t off, unsigned int wsize, unsigned int rsize,
		     uint64_t want, uint64_t got)
{
	if (mismatches++ < MAX_SHOWN)
		fprintf(stderr, PROG ": MISMATCH at BAR2+0x%" PRIx64 ": stored with %u-byte accesses 0x%0*" PRIx64
			", read with %u-byte access 0x%0*" PRIx64 "\n",
			off, wsize, 2 * rsize, want, rsize, 2 * rsize, got);
}

/*
 * One window: store WINDOW bytes with SIZE-byte accesses, then load them
 * with SIZE-byte accesses and byte by byte. Returns the mismatches found.
 */
static unsigned long test_window(struct bar *mem, uint64_t off, unsigned int size, uint64_t seed)
{
	volatile uint8_t *base = (volatile uint8_t *)mem->base + off;
	uint8_t expect[WINDOW];
	unsigned long before = mismatches;
	unsigned int i, b;

	for (i = 0; i < WINDOW; i += size) {
		uint64_t v = mix(seed ^ (off + i) ^ ((uint64_t)size << 56)) & mask(size);

		for (b = 0; b < size; b++)
			expect[i + b] = (uint8_t)(v >> (8 * b));	/* little endian */
		store(base + i, size, v);
	}
	for (i = 0; i < WINDOW; i += size) {
		uint64_t want = 0, got = load(base + i, size);

		for (b = 0; b < size; b++)
			want |= (uint64_t)expect[i + b] << (8 * b);
		if (got != want)
			mismatch(off + i, size, size, want, got);
	}
	if (size > 1)
		for (i = 0; i < WINDOW; i++) {
			uint64_t got = load(base + i, 1);

			if (got != expect[i])
				mismatch(off + i, size, 1, expect[i], got);
		}
	return mismatches - before;
}

int main(int argc, char **argv)
{
	static const unsigned int sizes[] = { 1, 2, 4, 8 };
	struct sacc_opts o = { 0 };
	struct bar regs = { 0 }, mem = { 0 };
	char bdf[64], err[512], drv[64], path[PATH_MAX], en[16];
	uint64_t offsets[8], backed;
	unsigned int noff = 0, i, s;
	bool enabled_here = false;
	uint32_t id, caps;
	double t0, t;
	int rc = EXIT_ENV, ret;

	if (parse_args(argc, argv, &o))
		return EXIT_USAGE;
	ret = sacc_find_device(o.device, bdf, sizeof(bdf), err, sizeof(err));
	if (ret) {
		fprintf(stderr, PROG ": %s\n", err);
		return ret == -2 ? EXIT_USAGE : EXIT_ENV;
	}
	if (sacc_driver_name(bdf, drv, sizeof(drv)))
		drv[0] = '\0';

	/* Memory decoding: a device without a driver may have it off. */
	snprintf(path, sizeof(path), SACC_SYSFS_PCI "/%s/enable", bdf);
	if (!drv[0] && !sacc_read_sysfs(path, en, sizeof(en)) && !strcmp(en, "0")) {
		FILE *f = fopen(path, "w");

		if (!f || fputs("1", f) < 0 || fclose(f)) {
			fprintf(stderr, PROG ": cannot enable %s through %s: %s\n", bdf, path,
				strerror(errno));
			return EXIT_ENV;
		}
		enabled_here = true;
	}

	if (map_bar(bdf, ACCEL_BAR_REGS, 4096, &regs, drv))
		goto out;
	id = *(volatile uint32_t *)((uint8_t *)regs.base + ACCEL_REG_ID);
	if (id != ACCEL_MAGIC) {
		fprintf(stderr, PROG ": %s: ID register reads 0x%08x, expected 0x%08x%s\n", bdf, id,
			ACCEL_MAGIC, id == ~0u ? " (all-ones: device gone or memory decoding off)" : "");
		goto out;
	}
	caps = *(volatile uint32_t *)((uint8_t *)regs.base + ACCEL_REG_CAPS);
	backed = 1ull << ACCEL_CAPS_IMPL_LOG2(caps);
	if (ACCEL_CAPS_IMPL_LOG2(caps) < 7 || ACCEL_CAPS_IMPL_LOG2(caps) > 40) {
		fprintf(stderr, PROG ": %s: CAPS 0x%08x: implausible backed size 2^%u\n", bdf, caps,
			ACCEL_CAPS_IMPL_LOG2(caps));
		goto out;
	}
	if (map_bar(bdf, ACCEL_BAR_MEM, backed, &mem, drv))
		goto out;
	backed = mem.len;

	/* Offsets: start, unaligned-window corners, page and 64K crossings, middle, end. */
	{
		const uint64_t cand[] = { 0, 0x108, 0x1000 - WINDOW / 2, 0x10000 - WINDOW / 2,
					  backed / 2 + 0x40, backed - WINDOW };
		for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
			bool dup = false;
			unsigned int j;

			if (cand[i] + WINDOW > backed)
				continue;
			for (j = 0; j < noff; j++)
				dup |= offsets[j] == cand[i];
			if (!dup)
				offsets[noff++] = cand[i];
		}
	}

	if (!o.have_seed && getrandom(&o.seed, sizeof(o.seed), 0) != sizeof(o.seed))
		o.seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull;
	if (!o.quiet) {
		printf(PROG ": device %s (driver %s): BAR2 %zu bytes mapped (backed part), seed 0x%" PRIx64 "\n",
		       bdf, drv[0] ? drv : "none", mem.len, o.seed);
		printf(PROG ": offsets:");
		for (i = 0; i < noff; i++)
			printf(" 0x%" PRIx64, offsets[i]);
		printf(" (%u bytes each)\n", WINDOW);
	}

	t0 = sacc_now();
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned long bad = 0, r0 = reads, w0 = writes;
		double ts = sacc_now();

		for (i = 0; i < noff; i++)
			bad += test_window(&mem, offsets[i], sizes[s], o.seed);
		if (!o.quiet)
			printf(PROG ": %u-byte accesses: %lu stores, %lu loads, %lu mismatches, %.1f us per access\n",
			       sizes[s], writes - w0, reads - r0, bad,
			       (sacc_now() - ts) * 1e6 / (double)(writes - w0 + reads - r0));
	}
	t = sacc_now() - t0;
	if (!o.quiet)
		printf(PROG ": %lu stores, %lu loads in %.3f ms, %lu mismatches\n", writes, reads,
		       t * 1e3, mismatches);
	printf("%s\n", mismatches ? "FAIL" : "PASS");
	rc = mismatches ? EXIT_FAIL : EXIT_PASS;

out:
	if (mem.base)
		munmap(mem.base, mem.len);
	if (regs.base)
		munmap(regs.base, regs.len);
	if (enabled_here) {
		FILE *f = fopen(path, "w");

		if (!f || fputs("0", f) < 0 || fclose(f))
			fprintf(stderr, PROG ": could not restore %s to 0: %s\n", path, strerror(errno));
	}
	return rc;
}
