#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Co-simulation benchmark: wall time of one 4 MiB sacc-test with the
# accelerator RTL as the guest's local proxy device (cosimd --device accel, no NIC;
# the driver polls).  Compare bench-accel (behind the network).
# topology: single
# device: accel
. /lib/scenario-lib.sh
. /lib/naa-lib.sh     # sacc_job
DEV=$NIC_BDF
sacc_insmod || { finish; exit 1; }
echo "BENCH-BEGIN"
sacc_job local "$DEV" 4M -S 1
echo "BENCH sacc-test 4 MiB, local (irq $(cat /sys/bus/pci/devices/$DEV/irq_mode)): $SACC_MS ms wall (guest clock)"
sed -n 's/^sacc-test: \(host->device\|crc32 on the device\|device->host\)/BENCH   local \1/p' /tmp/sacc.out
echo "BENCH-END"
finish
