/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Behavioural model of the configuration flash, Micron MT25QU01G (1 Gbit QSPI
 * NOR), at its pins: sck, cs_n, dq0 (data in), dq1 (data out); extended SPI
 * x1 only (dual and quad I/O are not modelled).  One model for the RTL
 * testbenches (rtl/tb) and the co-simulation (sim/), hence in hw/ (the layer
 * both may include).  docs/flash.md "Part model" lists the commands, the
 * status and flag status bits, block protection and what is not modelled.
 *
 * The contents live in a file of exactly the part's size, mapped shared: what
 * was programmed stays in the file when the process ends (or is killed).  A
 * file that does not exist or is empty is created erased (all 0xFF).
 */
#ifndef HW_FLASH_PART_H
#define HW_FLASH_PART_H

#include <stddef.h>
#include <stdint.h>

#include "flash_image.h" /* the part's id, geometry and opcodes (FLASH_OP_*): hw/gen/gen_flash.py */

#ifdef __cplusplus
extern "C" {
#endif

/* Status register (RDSR) bits. */
#define FLASH_SR_WIP    0x01 /* write in progress (busy) */
#define FLASH_SR_WEL    0x02 /* write enable latch */
#define FLASH_SR_BP0    0x04
#define FLASH_SR_BP1    0x08
#define FLASH_SR_BP2    0x10
#define FLASH_SR_TB     0x20 /* 1: protected area counted from the bottom */
#define FLASH_SR_BP3    0x40
#define FLASH_SR_SRWD   0x80 /* stored, no effect (W# pin not modelled) */
#define FLASH_SR_WRITABLE 0xFC

/* Flag status register (RDFSR) bits. */
#define FLASH_FSR_READY 0x80 /* 1: ready, 0: program/erase/WRSR busy */
#define FLASH_FSR_ERASE 0x20 /* erase error (protected area) */
#define FLASH_FSR_PROG  0x10 /* program error (protected area) */
#define FLASH_FSR_PROT  0x02 /* protection error */

/* The part: geometry and JEDEC ID from flash_image.h (one source). */
#define FLASH_PART_JEDEC     FLASH_PART_MT25QU01G
#define FLASH_PART_SIZE      ((uint32_t)FLASH_PART_MT25QU01G_SIZE)
#define FLASH_PART_PAGE      ((uint32_t)FLASH_PART_MT25QU01G_PAGE)
#define FLASH_PART_SUBSECTOR ((uint32_t)FLASH_PART_MT25QU01G_SUBSECTOR)
#define FLASH_PART_SECTOR    ((uint32_t)FLASH_PART_MT25QU01G_SECTOR)
#define FLASH_PART_ID_LEN    20 /* RDID answers 20 bytes, then 0x00 */

/* Busy times in calls of flash_part_step (simulated clock cycles), scaled
 * down from the data sheet's typical 120 us / 50 ms / 150 ms. */
struct flash_part_timing {
	uint32_t pp;   /* page program */
	uint32_t sse;  /* 4 KiB subsector erase */
	uint32_t se;   /* 64 KiB sector erase */
	uint32_t wrsr; /* write status register */
};
#define FLASH_PART_TIMING_DEFAULT { 400, 2000, 6000, 200 }

struct flash_part_stats {
	uint64_t programs;   /* page programs done */
	uint64_t erases;     /* subsector and sector erases done */
	uint64_t refused;    /* program/erase refused: protected area */
	uint64_t ignored;    /* commands ignored: unknown, no WEL, busy, malformed */
};

struct flash_part;

/* Opens (or creates erased) the flash file PATH; timing NULL: the default.
 * On error returns NULL with a message in err. */
struct flash_part *flash_part_open(const char *path, const struct flash_part_timing *t,
				   char *err, size_t errlen);
void flash_part_close(struct flash_part *p);

/* One simulated clock cycle: the pins as the controller drives them now.
 * Edges of sck and cs_n are found against the previous call.  Returns dq1. */
int flash_part_step(struct flash_part *p, int sck, int cs_n, int dq0);

/* Back door for harnesses: read contents (no busy check), status. */
void flash_part_read(const struct flash_part *p, uint32_t off, void *buf, uint32_t len);
uint8_t flash_part_sr(const struct flash_part *p);
uint8_t flash_part_fsr(const struct flash_part *p);
const struct flash_part_stats *flash_part_stats(const struct flash_part *p);
/* The JEDEC ID bytes RDID sends (FLASH_PART_ID_LEN). */
extern const uint8_t flash_part_id[FLASH_PART_ID_LEN];

#ifdef __cplusplus
}
#endif
#endif
