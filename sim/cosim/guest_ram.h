/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Guest RAM as QEMU shares it: the memfd-backed sections of SYNC_SYSMEM
 * (guest-physical address, size, file offset, one descriptor each), mapped
 * MAP_SHARED so that the device's DMA lands in the guest's memory.  QEMU
 * re-sends the whole map (fresh descriptors) on every memory-map change: a
 * new map replaces the old one.  Copies are blocks (memcpy per section); a
 * range that is not entirely guest RAM is refused as a whole.
 */
#ifndef SIM_COSIM_GUEST_RAM_H
#define SIM_COSIM_GUEST_RAM_H

#include <stddef.h>
#include <stdint.h>

#define GUEST_RAM_MAX_REGIONS 8   /* REMOTE_MAX_FDS of QEMU's protocol */

struct guest_ram_region {
	uint64_t gpa, size;
	int64_t offset;         /* in fd */
	int fd;
};

/* One guest's RAM (one per host; zero-initialised = empty). */
struct guest_ram {
	struct {
		uint64_t gpa, size;
		uint8_t *ptr;
		int fd;
	} sec[GUEST_RAM_MAX_REGIONS];
	int n;
	uint64_t syncs;
};

/* Replace the map by these n sections (the descriptors are ours from now
 * on; a section that cannot be mapped is left out with a message). */
void guest_ram_map(struct guest_ram *g, const struct guest_ram_region *r, int n, int verbose);
void guest_ram_unmap_all(struct guest_ram *g);

/* Copy len bytes between guest RAM at gpa and buf.  0, or -1 if some byte of
 * [gpa, gpa + len) is not guest RAM: then nothing is copied and *bad (if
 * not NULL) is the first such address. */
int guest_ram_read(const struct guest_ram *g, uint64_t gpa, void *buf, size_t len, uint64_t *bad);
int guest_ram_write(const struct guest_ram *g, uint64_t gpa, const void *buf, size_t len,
		    uint64_t *bad);
/* The same check without a copy. */
int guest_ram_check(const struct guest_ram *g, uint64_t gpa, size_t len, uint64_t *bad);

/* Map replacements since start. */
uint64_t guest_ram_syncs(const struct guest_ram *g);

#endif /* SIM_COSIM_GUEST_RAM_H */
