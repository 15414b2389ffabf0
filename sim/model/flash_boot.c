// SPDX-License-Identifier: Apache-2.0
/* The boot choice of a simulated node from its flash (flash_boot.h). */
#include "flash_boot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "extoll_flash.h"
#include "flash_image.h"

/* A simulation image's payload: the identity it carries (docs/flash.md). */
#define SIM_PAYLOAD 16

static uint64_t le(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | b[i];
	return v;
}

/*
 * The image checks are libextoll's (userspace/lib/flash_img.c, the ones naaimg
 * and naactl flash apply): header, then board, part and payload CRC; the boot
 * adds what only it knows: the slot's role and a simulation payload whose
 * identity matches the header.
 */
int flash_boot_check_slot(const struct flash_part *p, uint32_t off, int role, uint64_t *version,
			  uint64_t *build, char *msg, unsigned msglen)
{
	static const struct extoll_flash_limits lim = {
		.board_set = 1, .board = FLASH_BOARD_SIM, .part_set = 1, .part = FLASH_PART_MT25QU01G,
	};
	uint8_t img[FLASH_IMG_HEADER_SIZE + SIM_PAYLOAD];
	struct flash_img_hdr h;
	char detail[96];
	int v;

	flash_part_read(p, off, img, FLASH_IMG_HEADER_SIZE);
	v = extoll_flash_hdr_check(img, FLASH_IMG_HEADER_SIZE, detail, sizeof(detail));
	if (v == FLASH_VERDICT_OK) {
		extoll_flash_hdr_decode(img, &h);
		if (h.payload_len != SIM_PAYLOAD) {
			snprintf(msg, msglen, "payload of %u bytes, not a simulation image (%d)",
				 (unsigned int)h.payload_len, SIM_PAYLOAD);
			return -1;
		}
		flash_part_read(p, off + FLASH_IMG_HEADER_SIZE, img + FLASH_IMG_HEADER_SIZE, SIM_PAYLOAD);
		v = extoll_flash_img_check(img, sizeof(img), &lim, detail, sizeof(detail));
	}
	if (v != FLASH_VERDICT_OK) {
		snprintf(msg, msglen, "%s (%s)", extoll_flash_verdict_msg(v), detail);
		return -1;
	}
	if (h.role != (uint32_t)role) {
		snprintf(msg, msglen, "role %u in this slot", (unsigned int)h.role);
		return -1;
	}
	if (le(img + FLASH_IMG_HEADER_SIZE, 8) != h.version || le(img + FLASH_IMG_HEADER_SIZE + 8, 8) != h.build) {
		snprintf(msg, msglen, "payload identity differs from the header");
		return -1;
	}
	*version = h.version;
	*build = h.build;
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
