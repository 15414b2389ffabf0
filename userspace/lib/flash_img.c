// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll: the checks of a flash image (docs/flash.md "Checks, in order,
 * and their verdicts"), shared by naaimg and naactl flash. The format comes
 * from hw/include/flash_image.h (hw/gen/gen_flash.py); CRC-32 is zlib's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <zlib.h>

#include "extoll_flash.h"

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#define GET(buf, f) get_le((buf) + FLASH_IMG_OFF_##f, FLASH_IMG_LEN_##f)

void extoll_flash_hdr_decode(const uint8_t *b, struct flash_img_hdr *h)
{
	h->magic = (uint32_t)GET(b, MAGIC);
	h->format = (uint16_t)GET(b, FORMAT);
	h->header_size = (uint16_t)GET(b, HEADER_SIZE);
	h->board_id = (uint32_t)GET(b, BOARD_ID);
	h->part_id = (uint32_t)GET(b, PART_ID);
	h->role = (uint8_t)GET(b, ROLE);
	h->payload_len = (uint32_t)GET(b, PAYLOAD_LEN);
	h->version = GET(b, VERSION);
	h->build = GET(b, BUILD);
	h->payload_crc = (uint32_t)GET(b, PAYLOAD_CRC);
	h->header_crc = (uint32_t)GET(b, HEADER_CRC);
}

uint32_t extoll_flash_crc32(const uint8_t *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);

	/* zlib takes uInt lengths: feed large payloads in pieces */
	while (n) {
		uInt k = n > (1u << 30) ? 1u << 30 : (uInt)n;

		c = crc32(c, p, k);
		p += k;
		n -= k;
	}
	return (uint32_t)c;
}

const struct flash_img_part *extoll_flash_part(uint32_t id)
{
	for (const struct flash_img_part *p = flash_img_parts; p->name; p++)
		if (p->jedec_id == id)
			return p;
	return NULL;
}

static int role_known(uint32_t role)
{
	for (const struct flash_img_name *t = flash_img_roles; t->name; t++)
		if (t->id == role)
			return 1;
	return 0;
}

const char *extoll_flash_verdict_msg(int v)
{
	for (const struct flash_img_verdict_msg *m = flash_img_verdicts; m->name; m++)
		if (m->verdict == v)
			return m->msg;
	return "?";
}

const char *extoll_flash_verdict_name(int v)
{
	for (const struct flash_img_verdict_msg *m = flash_img_verdicts; m->name; m++)
		if (m->verdict == v)
			return m->name;
	return "?";
}

void extoll_flash_version_str(uint64_t v, char *buf, size_t n)
{
	snprintf(buf, n, "%u.%u.%u", (unsigned int)(v >> 32 & 0xFFFF),
		 (unsigned int)(v >> 16 & 0xFFFF), (unsigned int)(v & 0xFFFF));
}

int extoll_flash_hdr_check(const uint8_t *d, size_t n, char *detail, size_t dn)
{
	struct flash_img_hdr h;
	uint32_t c;

	detail[0] = 0;
	if (n < FLASH_IMG_HEADER_SIZE) {
		snprintf(detail, dn, "%zu bytes, a header has %d", n, FLASH_IMG_HEADER_SIZE);
		return FLASH_VERDICT_TRUNCATED;
	}
	extoll_flash_hdr_decode(d, &h);
	if (h.magic != FLASH_IMG_MAGIC) {
		snprintf(detail, dn, "0x%08" PRIX32 ", expected 0x%08X", h.magic, FLASH_IMG_MAGIC);
		return FLASH_VERDICT_MAGIC;
	}
	if (h.format != FLASH_IMG_FORMAT || h.header_size != FLASH_IMG_HEADER_SIZE) {
		snprintf(detail, dn, "format %u header size %u, this tool knows %d/%d", h.format,
			 h.header_size, FLASH_IMG_FORMAT, FLASH_IMG_HEADER_SIZE);
		return FLASH_VERDICT_FORMAT;
	}
	c = extoll_flash_crc32(d, FLASH_IMG_HEADER_CRC_LEN);
	if (c != h.header_crc) {
		snprintf(detail, dn, "computed 0x%08" PRIX32 ", header says 0x%08" PRIX32, c,
			 h.header_crc);
		return FLASH_VERDICT_HEADER_CRC;
	}
	if (!role_known(h.role)) {
		snprintf(detail, dn, "role %u", h.role);
		return FLASH_VERDICT_ROLE;
	}
	return FLASH_VERDICT_OK;
}

int extoll_flash_img_check(const uint8_t *d, size_t n, const struct extoll_flash_limits *lim,
			   char *detail, size_t dn)
{
	struct flash_img_hdr h;
	uint32_t c;
	int v;

	v = extoll_flash_hdr_check(d, n, detail, dn);
	if (v != FLASH_VERDICT_OK)
		return v;
	extoll_flash_hdr_decode(d, &h);
	if (lim->board_set && h.board_id != lim->board) {
		snprintf(detail, dn, "image for board 0x%04" PRIX32 ", expected 0x%04" PRIX32,
			 h.board_id, lim->board);
		return FLASH_VERDICT_BOARD;
	}
	if (lim->part_set && h.part_id != lim->part) {
		snprintf(detail, dn, "image for part 0x%06" PRIX32 ", expected 0x%06" PRIX32,
			 h.part_id, lim->part);
		return FLASH_VERDICT_PART;
	}
	uint64_t want = (uint64_t)FLASH_IMG_HEADER_SIZE + h.payload_len;

	if (n < want) {
		snprintf(detail, dn, "%zu bytes, header and payload need %" PRIu64, n, want);
		return FLASH_VERDICT_TRUNCATED;
	}
	if (n > want) {
		snprintf(detail, dn, "%zu bytes, header and payload are %" PRIu64, n, want);
		return FLASH_VERDICT_TRAILING;
	}
	c = extoll_flash_crc32(d + FLASH_IMG_HEADER_SIZE, h.payload_len);
	if (c != h.payload_crc) {
		snprintf(detail, dn, "computed 0x%08" PRIX32 ", header says 0x%08" PRIX32, c,
			 h.payload_crc);
		return FLASH_VERDICT_PAYLOAD_CRC;
	}
	uint64_t max = 0;
	const struct flash_img_part *p = extoll_flash_part(h.part_id);

	if (lim->max_set)
		max = lim->max_size;
	else if (p)
		max = p->slot_size;
	if (max && want > max) {
		snprintf(detail, dn, "%" PRIu64 " bytes, the slot holds %" PRIu64, want, max);
		return FLASH_VERDICT_TOO_LARGE;
	}
	return FLASH_VERDICT_OK;
}
