#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Co-simulation benchmark: wall time of one 4 MiB sacc-test with the
# accelerator RTL as the guest's local proxy device (cosimd --device accel, no NIC;
# the driver polls).  Compare bench-accel (behind the network).
# topology: single
# device: accel
. /lib/scenario-lib.sh
. /lib/naa-lib.sh     # now_ns
DEV=$NIC_BDF
check "insmod sample_accel.ko" insmod /lib/modules/sample_accel.ko || { finish; exit 1; }
echo "BENCH-BEGIN"
t0=$(now_ns)
sacc-test -d "$DEV" -s 4M -S 1 >/tmp/sacc.out 2>&1
rc=$?
t1=$(now_ns)
cat /tmp/sacc.out
[ $rc -eq 0 ] && pass "sacc-test 4M" || fail "sacc-test 4M (exit $rc)"
echo "BENCH sacc-test 4 MiB, local (irq $(cat /sys/bus/pci/devices/$DEV/irq_mode)): $(( (t1 - t0) / 1000000 )) ms wall (guest clock)"
sed -n 's/^sacc-test: \(host->device\|crc32 on the device\|device->host\)/BENCH   local \1/p' /tmp/sacc.out
echo "BENCH-END"
finish
