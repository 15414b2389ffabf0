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

void guest_ram_unmap_all(struct guest_ram *g)
{
	for (int i = 0; i < g->n; i++) {
		munmap(g->sec[i].ptr, g->sec[i].size);
		close(g->sec[i].fd);
	}
	g->n = 0;
}

void guest_ram_map(struct guest_ram *g, const struct guest_ram_region *r, int n, int verbose)
{
	guest_ram_unmap_all(g);
	g->syncs++;
	for (int i = 0; i < n; i++) {
		void *p = mmap(NULL, r[i].size, PROT_READ | PROT_WRITE, MAP_SHARED, r[i].fd,
			       r[i].offset);

		if (p == MAP_FAILED || g->n == GUEST_RAM_MAX_REGIONS) {
			logmsg("mmap guest RAM 0x%" PRIx64 "+0x%" PRIx64 ": %s", r[i].gpa, r[i].size,
			       p == MAP_FAILED ? strerror(errno) : "too many sections");
			if (p != MAP_FAILED)
				munmap(p, r[i].size);
			close(r[i].fd);
			continue;
		}
		g->sec[g->n].gpa = r[i].gpa;
		g->sec[g->n].size = r[i].size;
		g->sec[g->n].ptr = p;
		g->sec[g->n].fd = r[i].fd;
		g->n++;
		if (verbose > 1)
			logmsg("RAM 0x%" PRIx64 "+0x%" PRIx64, r[i].gpa, r[i].size);
	}
}

/* The section holding gpa, or -1. */
static int find(const struct guest_ram *g, uint64_t gpa)
{
	for (int i = 0; i < g->n; i++)
		if (gpa >= g->sec[i].gpa && gpa - g->sec[i].gpa < g->sec[i].size)
			return i;
	return -1;
}

/* Two passes: check the whole range, then copy it section by section (a
 * range may span adjacent sections).  buf NULL: the check only. */
static int copy(const struct guest_ram *g, uint64_t gpa, void *buf, size_t len, bool write,
		uint64_t *bad)
{
	for (int pass = 0; pass < (buf ? 2 : 1); pass++) {
		uint64_t a = gpa;
		uint8_t *b = buf;
		size_t left = len;

		while (left) {
			int i = find(g, a);

			if (i < 0) {
				if (bad)
					*bad = a;
				return -1;
			}
			uint64_t n = g->sec[i].size - (a - g->sec[i].gpa);
			if (n > left)
				n = left;
			if (pass) {
				uint8_t *p = g->sec[i].ptr + (a - g->sec[i].gpa);
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

int guest_ram_read(const struct guest_ram *g, uint64_t gpa, void *buf, size_t len, uint64_t *bad)
{
	return copy(g, gpa, buf, len, false, bad);
}

int guest_ram_write(const struct guest_ram *g, uint64_t gpa, const void *buf, size_t len,
		    uint64_t *bad)
{
	return copy(g, gpa, (void *)buf, len, true, bad);
}

int guest_ram_check(const struct guest_ram *g, uint64_t gpa, size_t len, uint64_t *bad)
{
	return copy(g, gpa, NULL, len, false, bad);
}

uint64_t guest_ram_syncs(const struct guest_ram *g)
{
	return g->syncs;
}
