/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a simulated node boots from its flash (docs/flash.md "Boot in
 * simulation"): the update slot if its image holds (header and both CRCs,
 * board sim, part MT25QU01G, role update, the simulation payload), else the
 * fallback slot if its image holds, else nothing (the build-time identity,
 * with the run-time build id: flash_boot_build_id).
 * The models (nic_model.cpp, naa_model.cpp) drive the result into the NIC's
 * boot_* straps; a reload request makes them choose again and reset.
 */
#ifndef SIM_MODEL_FLASH_BOOT_H
#define SIM_MODEL_FLASH_BOOT_H

#include <stdint.h>

#include "flash_part.h"

#ifdef __cplusplus
extern "C" {
#endif

enum flash_boot_slot { FLASH_BOOT_NONE = 0, FLASH_BOOT_FALLBACK = 1, FLASH_BOOT_UPDATE = 2 };

struct flash_boot {
	enum flash_boot_slot slot;
	uint64_t version, build;   /* of the booted image (slot != NONE) */
	char why[256];             /* one line: what was found in each slot */
};

/* Checks one slot's image; 0 (with version/build) or a message in msg. */
int flash_boot_check_slot(const struct flash_part *p, uint32_t off, int role, uint64_t *version,
			  uint64_t *build, char *msg, unsigned msglen);
/* Chooses the slot to boot. */
void flash_boot_choose(const struct flash_part *p, struct flash_boot *b);

/* The flash file of a node: $COSIM_FLASH_DIR (default: the compiled-in
 * SIM_FLASH_DIR, build/sim/flash) / flash-NAME.bin; 0, or -1 when flash is
 * off (COSIM_FLASH_DIR=none, or no directory known). */
int flash_boot_path(const char *name, char *out, unsigned outlen);

/* The run-time build id a node without a boot image reports in info.build
 * (the models are Verilated without one, so that a new commit does not
 * rebuild them; docs/cosim.md "Build id"): $COSIM_BUILD_ID, else the file
 * $COSIM_BUILD_ID_FILE, else the compiled-in SIM_BUILD_ID_FILE
 * (build/sim/build-id, written by sim/Makefile), each "YYYYMMDD COMMIT"
 * (8 hex digits each, e.g. "20261125 93b51ac0"), as {commit, date}; 0 if
 * none (a message to stderr if one is given but malformed). */
uint64_t flash_boot_build_id(void);

#ifdef __cplusplus
}
#endif
#endif
