/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sample accelerator (rtl/accel): PCI IDs, BAR0 register offsets and fields,
 * for drivers and testbenches. docs/accelerator.md describes them; the RTL
 * takes the same values from accel_pkg.sv and `make -C rtl/accel lint`
 * checks that both agree (rtl/accel/check_hw_h.py).
 */
#ifndef ACCEL_HW_H
#define ACCEL_HW_H

#define ACCEL_PCI_VENDOR_ID 0x1ee7
#define ACCEL_PCI_DEVICE_ID 0x0100
#define ACCEL_PCI_CLASS 0x120000 /* processing accelerator */

#define ACCEL_BAR_REGS 0 /* 4 KiB control registers */
#define ACCEL_BAR_MEM 2  /* device memory (64-bit prefetchable BAR2/3, or 32-bit BAR2) */

#define ACCEL_MAGIC 0xacc01ee7u /* value of ACCEL_REG_ID */

/* BAR0 register byte offsets (32-bit registers; 64-bit pairs may be accessed as one 8-byte access) */
#define ACCEL_REG_ID 0x000
#define ACCEL_REG_VERSION 0x004
#define ACCEL_REG_CAPS 0x008
#define ACCEL_REG_SCRATCH_LO 0x010
#define ACCEL_REG_SCRATCH_HI 0x014
#define ACCEL_REG_CYCLES_LO 0x018
#define ACCEL_REG_CYCLES_HI 0x01c
#define ACCEL_REG_CYCLES ACCEL_REG_CYCLES_LO /* 64-bit */
#define ACCEL_REG_IRQ_STATUS 0x020
#define ACCEL_REG_IRQ_ENABLE 0x024
#define ACCEL_REG_IRQ_VECTOR 0x028
#define ACCEL_REG_JOB_HOST_LO 0x040
#define ACCEL_REG_JOB_HOST_HI 0x044
#define ACCEL_REG_JOB_DEV_OFF 0x048
#define ACCEL_REG_JOB_LEN 0x04c
#define ACCEL_REG_JOB_CTRL 0x050
#define ACCEL_REG_JOB_STATUS 0x054
#define ACCEL_REG_JOB_COUNT 0x058
#define ACCEL_REG_JOB_CYCLES 0x05c
#define ACCEL_REG_RESULT_LO 0x060
#define ACCEL_REG_RESULT_HI 0x064
#define ACCEL_MSIX_TABLE 0x800 /* 16 bytes per vector: addr lo, addr hi, data, ctrl (bit 0 mask) */
#define ACCEL_MSIX_PBA 0xc00
#define ACCEL_MSIX_VECTORS 4

/* CAPS fields */
#define ACCEL_CAPS_DEVMEM_LOG2(c) ((c) & 0xff)
#define ACCEL_CAPS_IMPL_LOG2(c) (((c) >> 8) & 0xff)
#define ACCEL_CAPS_NTAGS(c) (((c) >> 16) & 0xff)
#define ACCEL_CAPS_MSIX_VECTORS(c) (((c) >> 24) & 0xff)

/* IRQ_STATUS (RW1C) / IRQ_ENABLE bits */
#define ACCEL_IRQ_DONE 0x1u
#define ACCEL_IRQ_ERROR 0x2u

/* JOB_CTRL */
#define ACCEL_JOB_START 0x80000000u
#define ACCEL_OP_H2D 1 /* DMA host memory -> device memory */
#define ACCEL_OP_D2H 2 /* DMA device memory -> host memory */
#define ACCEL_OP_CRC 3 /* CRC-32 (zlib crc32) of device memory -> RESULT */

/* JOB_STATUS */
#define ACCEL_JOB_BUSY 0x1u
#define ACCEL_JOB_DONE 0x2u
#define ACCEL_JOB_ERROR 0x4u
#define ACCEL_JOB_ERR_CODE(s) (((s) >> 4) & 0xf)
#define ACCEL_JOB_LAST_OP(s) (((s) >> 8) & 0xf)
#define ACCEL_ERR_NONE 0
#define ACCEL_ERR_PARAM 1   /* length 0, not 4-byte aligned, or outside the backed device memory */
#define ACCEL_ERR_CPL 2     /* a DMA read completed with UR/CA */
#define ACCEL_ERR_NO_BME 3  /* DMA while Bus Master Enable is clear */
#define ACCEL_ERR_TIMEOUT 4 /* DMA read completion timeout */
#define ACCEL_ERR_OPCODE 5  /* unknown opcode */

#endif /* ACCEL_HW_H */
