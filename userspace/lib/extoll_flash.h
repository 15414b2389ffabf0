/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libextoll, internal (not exported by libextoll.so; naactl and naaimg link
 * libextoll.a): flash images and the flash of a remote node (docs/flash.md).
 *
 * flash_img.c: the checks of an image, in the order of docs/flash.md
 * ("Checks, in order, and their verdicts"): the one userspace implementation,
 * used by `naaimg verify/show` and `naactl flash`. The kernel's devlink flash
 * has its own (kernel/extoll/devlink.c), on the same generated format
 * (hw/include/flash_image.h).
 *
 * flash.c: the flash controller of a node (register block `flash`,
 * docs/flash.md "Controller") driven by remote register access: the same
 * command sequence as the kernel's BAR0 transport (kernel/extoll/flash.c).
 * Functions return 0 or a negative errno and never print.
 */
#ifndef EXTOLL_FLASH_H
#define EXTOLL_FLASH_H

#include <stddef.h>
#include <stdint.h>

#include "flash_image.h"

struct extoll_nic;

/* ---- images (flash_img.c) */

/* What an image is checked against; unset fields are not checked. */
struct extoll_flash_limits {
	int board_set, part_set, max_set;
	uint32_t board, part;
	uint64_t max_size;	/* default: the slot of the image's part, if known */
};

uint32_t extoll_flash_crc32(const uint8_t *p, size_t n);
/* Decode a header (n >= FLASH_IMG_HEADER_SIZE bytes at b), no checks. */
void extoll_flash_hdr_decode(const uint8_t *b, struct flash_img_hdr *h);
/* The header's own checks (length, magic, format, header CRC, role): a
 * FLASH_VERDICT_*, *detail says why. */
int extoll_flash_hdr_check(const uint8_t *d, size_t n, char *detail, size_t dn);
/* Every check of an image of n bytes, in order; stops at the first that
 * fails: a FLASH_VERDICT_* (FLASH_VERDICT_OK 0), *detail says why. */
int extoll_flash_img_check(const uint8_t *d, size_t n,
			   const struct extoll_flash_limits *lim,
			   char *detail, size_t dn);
const char *extoll_flash_verdict_msg(int verdict);
const char *extoll_flash_verdict_name(int verdict);
const struct flash_img_part *extoll_flash_part(uint32_t jedec_id);
/* "1.2.3" from a version word (the layout of info.version) */
void extoll_flash_version_str(uint64_t v, char *buf, size_t n);

/* ---- a node's flash, over RRA (flash.c) */

/* A command (a subsector erase: up to 400 ms on the part) ends within this. */
#define EXTOLL_FLASH_CMD_TIMEOUT_MS	10000

/* The flash block of node: its JEDEC ID (valid after the controller's
 * READ ID at reset). -EOPNOTSUPP: the node has no flash block; -ENODEV: the
 * part did not answer READ ID; RRA errors as extoll_rra_read(). */
int extoll_flash_jedec(struct extoll_nic *nic, uint16_t node, uint32_t *id);
/* Read len bytes at flash address addr (READ4, a page buffer at a time). */
int extoll_flash_read(struct extoll_nic *nic, uint16_t node, uint32_t addr,
		      void *buf, size_t len);
/* Erase the 4 KiB subsector holding addr (WREN, SSE4, flag status poll);
 * -EIO if the part reports an error. */
int extoll_flash_erase_subsector(struct extoll_nic *nic, uint16_t node,
				 uint32_t addr);
/* Program up to one page at addr (not crossing a page). */
int extoll_flash_program_page(struct extoll_nic *nic, uint16_t node,
			      uint32_t addr, const void *buf, size_t len);

/* Progress: phase "Erasing", "Programming", "Verifying"; done of total. */
typedef void (*extoll_flash_progress_fn)(void *ctx, const char *phase,
					 unsigned long done, unsigned long total);

/*
 * Write an image (already checked) at flash address off: erase the
 * subsectors it needs, program it a page at a time, read it back page by
 * page. -EIO with *bad_addr set when the read-back differs.
 */
int extoll_flash_write(struct extoll_nic *nic, uint16_t node, uint32_t off,
		       const uint8_t *data, size_t len,
		       extoll_flash_progress_fn progress, void *ctx,
		       uint32_t *bad_addr);

/* Ask the node to reconfigure from flash address addr (flash.reload). The
 * node resets: its answer to this write may be lost (-ETIMEDOUT). */
int extoll_flash_reload(struct extoll_nic *nic, uint16_t node, uint32_t addr);

#endif /* EXTOLL_FLASH_H */
