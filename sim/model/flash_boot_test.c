// SPDX-License-Identifier: Apache-2.0
/*
 * flash_boot_test: the boot identity of a simulated NIC from its flash
 * (docs/flash.md "Boot in simulation"), on the Verilated extoll_nic back end
 * (libnicmodel.a) without QEMU: BAR0 programmed through config space, the
 * registers read with memory reads.  For each flash content (erased; a
 * fallback image; a good update image; an update image with a bad payload
 * CRC, with a payload that is not its header's identity, with a bad header
 * CRC, for another board, with the fallback role) a fresh model reports the
 * expected info.version / info.build and flash.boot.slot (erased: the
 * run-time build id of $COSIM_BUILD_ID in info.build); the NIC reads the
 * part's JEDEC ID through its pins; then a reload request written to
 * flash.reload makes the model boot again from the (changed) flash and reset.
 *
 *   flash_boot_test DIR     (the flash file goes to DIR/flash-fbt.bin)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "extoll_regs.h"
#include "flash_image.h"
#include "flash_part.h"
#include "pcie_model.h"

#define BAR0 0xfe000000u
#define ID 0x0010 /* 00:02.0 */

static int checks, failed;
#define CHECK(c, ...)                                               \
	do {                                                        \
		checks++;                                           \
		if (!(c)) {                                         \
			failed++;                                   \
			printf("  FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);                        \
			printf("\n");                               \
		}                                                   \
	} while (0)

static char path[4096];

static int wait_cpl(struct pcie_model *m, struct tlp *c)
{
	for (long n = 0; n < 200000; n++) {
		pcie_model_step(m, 1);
		if (pcie_model_pop_tlp(m, c, NULL) == 1 && (c->kind == TLP_CPL || c->kind == TLP_CPLD))
			return 0;
	}
	return -1;
}

static int cfg_wr(struct pcie_model *m, unsigned reg, uint32_t val)
{
	struct tlp t, c;

	tlp_cfg(&t, 1, 0, ID, reg, 0xf, val, 0, 1);
	pcie_model_push_tlp(m, &t);
	return wait_cpl(m, &c);
}

static void enable(struct pcie_model *m)
{
	cfg_wr(m, 0x10, BAR0);
	cfg_wr(m, 0x04, 0x6);
}

static uint64_t rd64(struct pcie_model *m, uint32_t off)
{
	struct tlp t, c;

	tlp_mrd(&t, BAR0 + off, 2, 0xf, 0xf, 0, 1);
	pcie_model_push_tlp(m, &t);
	if (wait_cpl(m, &c) || c.payload_dw < 2)
		return ~0ull;
	return c.payload[0] | (uint64_t)c.payload[1] << 32;
}

static void wr64(struct pcie_model *m, uint32_t off, uint64_t v)
{
	struct tlp t;
	uint32_t d[2] = { (uint32_t)v, (uint32_t)(v >> 32) };

	tlp_mwr(&t, BAR0 + off, d, 2, 0xf, 0xf, 0);
	pcie_model_push_tlp(m, &t);
	pcie_model_step(m, 50);
}

static void put(uint8_t *b, unsigned off, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

/* A simulation image (header + 16-byte payload) written into the flash file at off. */
static void image(uint32_t off, int role, uint64_t version, uint64_t build, uint32_t board, int bad)
{
	uint8_t b[FLASH_IMG_HEADER_SIZE + 16] = { 0 };
	int fd = open(path, O_RDWR);

	put(b, FLASH_IMG_OFF_MAGIC, FLASH_IMG_MAGIC, 4);
	put(b, FLASH_IMG_OFF_FORMAT, FLASH_IMG_FORMAT, 2);
	put(b, FLASH_IMG_OFF_HEADER_SIZE, FLASH_IMG_HEADER_SIZE, 2);
	put(b, FLASH_IMG_OFF_BOARD_ID, board, 4);
	put(b, FLASH_IMG_OFF_PART_ID, FLASH_PART_MT25QU01G, 4);
	put(b, FLASH_IMG_OFF_ROLE, (uint64_t)role, 1);
	put(b, FLASH_IMG_OFF_PAYLOAD_LEN, 16, 4);
	put(b, FLASH_IMG_OFF_VERSION, version, 8);
	put(b, FLASH_IMG_OFF_BUILD, build, 8);
	put(b, FLASH_IMG_HEADER_SIZE, version, 8);
	put(b, FLASH_IMG_HEADER_SIZE + 8, build, 8);
	if (bad == 3)
		b[FLASH_IMG_HEADER_SIZE + 3] ^= 0x10;   /* payload differs from the header, CRC holds */
	put(b, FLASH_IMG_OFF_PAYLOAD_CRC, crc32(0, b + FLASH_IMG_HEADER_SIZE, 16) ^ (bad == 1), 4);
	put(b, FLASH_IMG_OFF_HEADER_CRC, crc32(0, b, FLASH_IMG_HEADER_CRC_LEN), 4);
	if (bad == 2)
		b[FLASH_IMG_OFF_VERSION] ^= 0x01;       /* header byte: header CRC */
	if (fd < 0 || pwrite(fd, b, sizeof(b), off) != (ssize_t)sizeof(b))
		printf("  cannot write %s\n", path);
	if (fd >= 0)
		close(fd);
}

static void erase_file(void)
{
	char err[256];
	struct flash_part *p;

	unlink(path);
	p = flash_part_open(path, NULL, err, sizeof(err));
	if (!p)
		printf("  %s\n", err);
	flash_part_close(p);
}

/* A fresh NIC: its version, build and boot slot. */
static void boot(const char *what, uint64_t ver, uint64_t bld, uint64_t slot)
{
	const struct pcie_model_params p = { .name = "fbt" };
	struct pcie_model *m = pcie_model_create(&pcie_backend_nic, &p);

	printf("-- %s\n", what);
	if (!m) {
		CHECK(0, "model creation");
		return;
	}
	enable(m);
	uint64_t v = rd64(m, EXTOLL_INFO_BASE + EXTOLL_INFO_VERSION), b = rd64(m, EXTOLL_INFO_BASE + EXTOLL_INFO_BUILD);
	uint64_t s = rd64(m, EXTOLL_FLASH_BASE + EXTOLL_FLASH_BOOT);
	CHECK(s == slot, "%s: flash.boot.slot %llu, want %llu", what, (unsigned long long)s, (unsigned long long)slot);
	if (slot) {
		CHECK(v == ver, "%s: info.version 0x%llx, want 0x%llx", what, (unsigned long long)v,
		      (unsigned long long)ver);
		CHECK(b == bld, "%s: info.build 0x%llx, want 0x%llx", what, (unsigned long long)b,
		      (unsigned long long)bld);
	} else {
		CHECK(v != ~0ull && (v >> 16 & 0xffff) == 1, "%s: the build-time version 0.1.0 (0x%llx)", what,
		      (unsigned long long)v);
		CHECK(b == bld, "%s: info.build 0x%llx, want the run-time build id 0x%llx", what,
		      (unsigned long long)b, (unsigned long long)bld);
	}
	pcie_model_destroy(m);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	const uint64_t V1 = 0x000100000000ull, B1 = 0x1111111120260101ull;   /* 1.0.0 */
	const uint64_t V2 = 0x000200030004ull, B2 = 0x2222222220261124ull;   /* 2.3.4 */
	const uint32_t UPD = FLASH_PART_MT25QU01G_UPDATE_OFF;

	setenv("COSIM_FLASH_DIR", dir, 1);
	snprintf(path, sizeof(path), "%s/flash-fbt.bin", dir);

	/* no image: the build-time version, the run-time build id (flash_boot_build_id) */
	setenv("COSIM_BUILD_ID", "20261125 5eedf00d", 1);
	erase_file();
	boot("erased flash: build-time version, run-time build id", 0, 0x5eedf00d20261125ull, 0);
	setenv("COSIM_BUILD_ID", "20270101 0badcafe", 1);
	boot("erased flash: another run-time build id, the same model", 0, 0x0badcafe20270101ull, 0);
	unsetenv("COSIM_BUILD_ID");
	image(0, FLASH_ROLE_FALLBACK, V1, B1, FLASH_BOARD_SIM, 0);
	boot("fallback image only", V1, B1, 1);
	image(UPD, FLASH_ROLE_UPDATE, V2, B2, FLASH_BOARD_SIM, 0);
	boot("good update image", V2, B2, 2);
	image(UPD, FLASH_ROLE_UPDATE, V2, B2, FLASH_BOARD_SIM, 1);
	boot("update with a bad payload CRC: fallback", V1, B1, 1);
	image(UPD, FLASH_ROLE_UPDATE, V2, B2, FLASH_BOARD_SIM, 3);
	boot("update whose payload is not its header's identity: fallback", V1, B1, 1);
	image(UPD, FLASH_ROLE_UPDATE, V2, B2, FLASH_BOARD_SIM, 2);
	boot("update with a bad header CRC: fallback", V1, B1, 1);
	image(UPD, FLASH_ROLE_UPDATE, V2, B2, FLASH_BOARD_U250, 0);
	boot("update for another board: fallback", V1, B1, 1);
	image(UPD, FLASH_ROLE_FALLBACK, V2, B2, FLASH_BOARD_SIM, 0);
	boot("fallback role in the update slot: fallback", V1, B1, 1);

	printf("-- JEDEC ID through the NIC's pins, reload\n");
	const struct pcie_model_params p = { .name = "fbt" };
	struct pcie_model *m = pcie_model_create(&pcie_backend_nic, &p);
	if (!m) {
		printf("FAIL flash-boot: model\n");
		return 1;
	}
	enable(m);
	for (int i = 0; i < 100 && (rd64(m, EXTOLL_FLASH_BASE + EXTOLL_FLASH_STATUS) & EXTOLL_FLASH_STATUS_BUSY_MASK); i++)
		;  /* the ID read after reset */
	uint64_t j = rd64(m, EXTOLL_FLASH_BASE + EXTOLL_FLASH_JEDEC);
	CHECK(j == (FLASH_PART_MT25QU01G | EXTOLL_FLASH_JEDEC_VALID_MASK), "flash.jedec 0x%llx", (unsigned long long)j);
	CHECK(rd64(m, EXTOLL_INFO_BASE + EXTOLL_INFO_VERSION) == V1, "running the fallback");
	image(UPD, FLASH_ROLE_UPDATE, V2, B2, FLASH_BOARD_SIM, 0);   /* a good update appears */
	CHECK(rd64(m, EXTOLL_INFO_BASE + EXTOLL_INFO_VERSION) == V1, "no change before the reload");
	wr64(m, EXTOLL_FLASH_BASE + EXTOLL_FLASH_RELOAD, UPD | EXTOLL_FLASH_RELOAD_GO_MASK);
	uint32_t id = ~0u;	/* stays so without a completion with data */
	{
		struct tlp t, c;
		tlp_cfg(&t, 0, 0, ID, 0x10, 0xf, 0, 0, 1);
		pcie_model_push_tlp(m, &t);
		if (!wait_cpl(m, &c) && c.kind == TLP_CPLD && c.status == 0)
			id = c.payload[0];
	}
	CHECK((id & ~0xfu) == 0, "after the reload BAR0 is unassigned again (0x%08x): the device was reset", id);
	enable(m);
	CHECK(rd64(m, EXTOLL_INFO_BASE + EXTOLL_INFO_VERSION) == V2, "after the reload: the update's version");
	CHECK(rd64(m, EXTOLL_INFO_BASE + EXTOLL_INFO_BUILD) == B2, "after the reload: the update's build");
	CHECK(rd64(m, EXTOLL_FLASH_BASE + EXTOLL_FLASH_BOOT) == 2, "after the reload: slot 2");
	pcie_model_destroy(m);
	unlink(path);

	printf("flash-boot: %d checks, %d failed\n", checks, failed);
	printf("%s flash-boot\n", failed || !checks ? "FAIL" : "PASS");
	return failed || !checks;
}
