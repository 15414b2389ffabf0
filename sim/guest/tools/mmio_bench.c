// SPDX-License-Identifier: Apache-2.0
/*
 * Guest-side MMIO round-trip benchmark: maps a PCI BAR through sysfs
 * (resourceN) and times N reads and N writes of one register.
 *
 *   mmio_bench [-d 0000:00:02.0] [-b 0] [-o 0x20] [-n 1000] [-w 8|4]
 *
 * Prints one line per direction: "mmio_bench: read64 n=1000 avg 6.1 us".
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	const char *dev = "0000:00:02.0";
	int bar = 0, n = 1000, width = 8, c;
	unsigned long off = 0x20;
	char path[256];

	while ((c = getopt(argc, argv, "d:b:o:n:w:")) != -1) {
		switch (c) {
		case 'd': dev = optarg; break;
		case 'b': bar = atoi(optarg); break;
		case 'o': off = strtoul(optarg, NULL, 0); break;
		case 'n': n = atoi(optarg); break;
		case 'w': width = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: mmio_bench [-d dev] [-b bar] [-o off] [-n count] [-w 8|4]\n");
			return 2;
		}
	}
	if ((width != 4 && width != 8) || n < 1) {
		fprintf(stderr, "mmio_bench: -w 4|8, -n >= 1\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource%d", dev, bar);
	int fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	long pg = sysconf(_SC_PAGESIZE);
	unsigned long base = off & ~(pg - 1);
	volatile uint8_t *p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	volatile uint8_t *r = p + (off - base);
	uint64_t sum = 0, last = 0;
	double t0 = now_us();
	for (int i = 0; i < n; i++) {
		uint64_t v = 0x5a5a000000000000ull | (uint64_t)i;
		if (width == 8)
			*(volatile uint64_t *)r = v;
		else
			*(volatile uint32_t *)r = (uint32_t)v;
	}
	double tw = (now_us() - t0) / n;
	t0 = now_us();
	for (int i = 0; i < n; i++) {
		last = width == 8 ? *(volatile uint64_t *)r : *(volatile uint32_t *)r;
		sum += last;
	}
	double tr = (now_us() - t0) / n;
	uint64_t expect = 0x5a5a000000000000ull | (uint64_t)(n - 1);
	if (width == 4)
		expect &= 0xffffffffu;
	printf("mmio_bench: write%d n=%d avg %.2f us\n", width * 8, n, tw);
	printf("mmio_bench: read%d n=%d avg %.2f us\n", width * 8, n, tr);
	printf("mmio_bench: last read 0x%llx (%s)\n", (unsigned long long)last,
	       last == expect ? "as written" : "MISMATCH");
	return last == expect ? 0 : 1;
}
