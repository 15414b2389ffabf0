// SPDX-License-Identifier: Apache-2.0
/* Guest RAM mapped from QEMU's SYNC_SYSMEM descriptors: see guest_ram.h. */
#include "guest_ram.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace.h"

static struct {
	uint64_t gpa, size;
	uint8_t *ptr;
	int fd;
} ram[GUEST_RAM_MAX_REGIONS];
static int nram;
static uint64_t syncs;

void guest_ram_unmap_all(void)
{
	for (int i = 0; i < nram; i++) {
		munmap(ram[i].ptr, ram[i].size);
		close(ram[i].fd);
	}
	nram = 0;
}

void guest_ram_map(const struct guest_ram_region *r, int n, int verbose)
{
	guest_ram_unmap_all();
	syncs++;
	for (int i = 0; i < n; i++) {
		void *p = mmap(NULL, r[i].size, PROT_READ | PROT_WRITE, MAP_SHARED, r[i].fd,
			       r[i].offset);

		if (p == MAP_FAILED || nram == GUEST_RAM_MAX_REGIONS) {
			logmsg("mmap guest RAM 0x%" PRIx64 "+0x%" PRIx64 ": %s", r[i].gpa, r[i].size,
			       p == MAP_FAILED ? strerror(errno) : "too many sections");
			if (p != MAP_FAILED)
				munmap(p, r[i].size);
			close(r[i].fd);
			continue;
		}
		ram[nram].gpa = r[i].gpa;
		ram[nram].size = r[i].size;
		ram[nram].ptr = p;
		ram[nram].fd = r[i].fd;
		nram++;
		if (verbose > 1)
			logmsg("RAM 0x%" PRIx64 "+0x%" PRIx64, r[i].gpa, r[i].size);
	}
}

/* The section holding gpa, or -1. */
static int find(uint64_t gpa)
{
	for (int i = 0; i < nram; i++)
		if (gpa >= ram[i].gpa && gpa - ram[i].gpa < ram[i].size)
			return i;
	return -1;
}

/* Two passes: check the whole range, then copy it section by section (a
 * range may span adjacent sections).  buf NULL: the check only. */
static int copy(uint64_t gpa, void *buf, size_t len, bool write, uint64_t *bad)
{
	for (int pass = 0; pass < (buf ? 2 : 1); pass++) {
		uint64_t a = gpa;
		uint8_t *b = buf;
		size_t left = len;

		while (left) {
			int i = find(a);

			if (i < 0) {
				if (bad)
					*bad = a;
				return -1;
			}
			uint64_t n = ram[i].size - (a - ram[i].gpa);
			if (n > left)
				n = left;
			if (pass) {
				uint8_t *p = ram[i].ptr + (a - ram[i].gpa);
				if (write)
					memcpy(p, b, n);
				else
					memcpy(b, p, n);
			}
			a += n;
			b += n;
			left -= n;
		}
	}
	return 0;
}

int guest_ram_read(uint64_t gpa, void *buf, size_t len, uint64_t *bad)
{
	return copy(gpa, buf, len, false, bad);
}

int guest_ram_write(uint64_t gpa, const void *buf, size_t len, uint64_t *bad)
{
	return copy(gpa, (void *)buf, len, true, bad);
}

int guest_ram_check(uint64_t gpa, size_t len, uint64_t *bad)
{
	return copy(gpa, NULL, len, false, bad);
}

uint64_t guest_ram_syncs(void)
{
	return syncs;
}
