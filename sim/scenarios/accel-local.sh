#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The sample accelerator attached LOCALLY: the same accelerator RTL
# (accel_top, BAR64=0: QEMU's proxy mis-sizes 64-bit BARs) served by
# `cosimd --device accel` as the guest's own proxy device at 00:02.0, no NIC.  The same
# driver (sample_accel) and the same tools as scenario accel: sacc-test 4 MiB
# (DMA both ways, CRC-32) and bar-test (driver unbound: Debian's
# CONFIG_IO_STRICT_DEVMEM).  Under TCG a local proxy device cannot deliver
# interrupts (qemu-cosim-notes.md), so the driver's self-test falls back to
# polling.
# topology: single
# device: accel
. /lib/scenario-lib.sh
. /lib/naa-lib.sh     # sacc_job
SIZE=${SACC_SIZE:-4M}
DEV=$NIC_BDF

lspci -nn -vv -s "$DEV"
lspci -n -s "$DEV" | grep -q '1ee7:0100' && pass "accelerator $DEV [1ee7:0100] as a local proxy device" ||
	{ fail "accelerator $DEV [1ee7:0100] as a local proxy device"; finish; exit 1; }
sacc_insmod || { finish; exit 1; }
driver_bound "$DEV" sample_accel && pass "sample_accel bound to $DEV" ||
	{ fail "sample_accel bound to $DEV"; dmesg | tail -n 20; finish; exit 1; }
dmesg | grep "sample_accel $DEV"
echo "irq_mode $(cat /sys/bus/pci/devices/$DEV/irq_mode) (no interrupts from a local proxy device under TCG: the driver polls)"

# ---- DMA, CRC
sacc_job local "$DEV" "$SIZE"

# ---- BAR mapping without the driver
sacc_bar_test local "$DEV" "BAR2"

rmmod sample_accel && pass "rmmod sample_accel" || fail "rmmod sample_accel"
if dmesg | grep -E 'WARNING|BUG|Oops|Call Trace'; then fail "dmesg free of WARNING/BUG/Oops"
else pass "dmesg free of WARNING/BUG/Oops"; fi
finish
