// SPDX-License-Identifier: Apache-2.0
/* The boot choice of a simulated node from its flash (flash_boot.h). */
#include "flash_boot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "flash_image.h"

/* Little-endian fields of the header (docs/flash.md). */
static uint64_t le(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | b[i];
	return v;
}

#define FIELD(h, NAME) le((h) + FLASH_IMG_OFF_##NAME, FLASH_IMG_LEN_##NAME)

int flash_boot_check_slot(const struct flash_part *p, uint32_t off, int role, uint64_t *version,
			  uint64_t *build, char *msg, unsigned msglen)
{
	uint8_t h[FLASH_IMG_HEADER_SIZE], pl[16];
	uint32_t len;

	flash_part_read(p, off, h, sizeof(h));
	if (FIELD(h, MAGIC) != FLASH_IMG_MAGIC) {
		snprintf(msg, msglen, "no image (magic 0x%08llx)", (unsigned long long)FIELD(h, MAGIC));
		return -1;
	}
	if (FIELD(h, FORMAT) != FLASH_IMG_FORMAT || FIELD(h, HEADER_SIZE) != FLASH_IMG_HEADER_SIZE) {
		snprintf(msg, msglen, "unknown format %llu", (unsigned long long)FIELD(h, FORMAT));
		return -1;
	}
	if (crc32(0, h, FLASH_IMG_HEADER_CRC_LEN) != FIELD(h, HEADER_CRC)) {
		snprintf(msg, msglen, "header CRC-32 mismatch");
		return -1;
	}
	if (FIELD(h, ROLE) != (uint64_t)role) {
		snprintf(msg, msglen, "role %llu in this slot", (unsigned long long)FIELD(h, ROLE));
		return -1;
	}
	if (FIELD(h, BOARD_ID) != FLASH_BOARD_SIM || FIELD(h, PART_ID) != FLASH_PART_MT25QU01G) {
		snprintf(msg, msglen, "board 0x%04llx part 0x%06llx, not sim/mt25qu01g",
			 (unsigned long long)FIELD(h, BOARD_ID), (unsigned long long)FIELD(h, PART_ID));
		return -1;
	}
	len = (uint32_t)FIELD(h, PAYLOAD_LEN);
	if (len != sizeof(pl)) {
		snprintf(msg, msglen, "payload of %u bytes, not a simulation image (16)", len);
		return -1;
	}
	flash_part_read(p, off + FLASH_IMG_HEADER_SIZE, pl, sizeof(pl));
	if (crc32(0, pl, sizeof(pl)) != FIELD(h, PAYLOAD_CRC)) {
		snprintf(msg, msglen, "payload CRC-32 mismatch");
		return -1;
	}
	if (le(pl, 8) != FIELD(h, VERSION) || le(pl + 8, 8) != FIELD(h, BUILD)) {
		snprintf(msg, msglen, "payload identity differs from the header");
		return -1;
	}
	*version = FIELD(h, VERSION);
	*build = FIELD(h, BUILD);
	snprintf(msg, msglen, "version %llu.%llu.%llu build %08llx/%08llx",
		 (unsigned long long)(*version >> 32 & 0xffff), (unsigned long long)(*version >> 16 & 0xffff),
		 (unsigned long long)(*version & 0xffff), (unsigned long long)(*build >> 32),
		 (unsigned long long)(*build & 0xffffffff));
	return 0;
}

void flash_boot_choose(const struct flash_part *p, struct flash_boot *b)
{
	char mu[100], mf[100];
	uint64_t v, bl;

	memset(b, 0, sizeof(*b));
	if (!flash_boot_check_slot(p, FLASH_PART_MT25QU01G_UPDATE_OFF, FLASH_ROLE_UPDATE, &v, &bl, mu, sizeof(mu))) {
		b->slot = FLASH_BOOT_UPDATE;
	} else if (!flash_boot_check_slot(p, FLASH_PART_MT25QU01G_FALLBACK_OFF, FLASH_ROLE_FALLBACK, &v, &bl, mf,
					  sizeof(mf))) {
		b->slot = FLASH_BOOT_FALLBACK;
	}
	if (b->slot == FLASH_BOOT_UPDATE)
		snprintf(b->why, sizeof(b->why), "update slot: %s", mu);
	else if (b->slot == FLASH_BOOT_FALLBACK)
		snprintf(b->why, sizeof(b->why), "fallback slot: %s (update slot: %s)", mf, mu);
	else
		snprintf(b->why, sizeof(b->why), "build-time identity (update slot: %s; fallback slot: %s)", mu, mf);
	if (b->slot != FLASH_BOOT_NONE) {
		b->version = v;
		b->build = bl;
	}
}

int flash_boot_path(const char *name, char *out, unsigned outlen)
{
	const char *dir = getenv("COSIM_FLASH_DIR");

#ifdef SIM_FLASH_DIR
	if (!dir || !*dir)
		dir = SIM_FLASH_DIR;
#endif
	if (!dir || !*dir || !strcmp(dir, "none"))
		return -1;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -1;
	snprintf(out, outlen, "%s/flash-%s.bin", dir, name && *name ? name : "node");
	return 0;
}

static int parse_build_id(const char *s, uint64_t *id)
{
	unsigned date, commit;
	int n = 0;

	if (sscanf(s, " %8x %8x %n", &date, &commit, &n) != 2 || s[n])
		return -1;
	*id = (uint64_t)commit << 32 | date;
	return 0;
}

uint64_t flash_boot_build_id(void)
{
	const char *env = getenv("COSIM_BUILD_ID"), *file = getenv("COSIM_BUILD_ID_FILE");
	char line[64] = "";
	uint64_t id = 0;
	FILE *f;

	if (env && *env) {
		if (parse_build_id(env, &id) < 0)
			fprintf(stderr, "pcie_model: COSIM_BUILD_ID '%s': not 'YYYYMMDD COMMIT' (build id 0)\n", env);
		return id;
	}
#ifdef SIM_BUILD_ID_FILE
	if (!file || !*file)
		file = SIM_BUILD_ID_FILE;
#endif
	if (!file || !*file || !(f = fopen(file, "r")))
		return 0;
	if (!fgets(line, sizeof(line), f) || parse_build_id(line, &id) < 0)
		fprintf(stderr, "pcie_model: build id file %s: not 'YYYYMMDD COMMIT' (build id 0)\n", file);
	fclose(f);
	return id;
}
