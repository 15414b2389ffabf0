#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Co-simulation benchmark: wall time of one 4 MiB sacc-test (DMA host->device,
# CRC-32, DMA device->host) with the accelerator behind the network
# (topology direct; compare bench-accel-local: the same RTL as a local device).
# topology: direct
. /lib/scenario-lib.sh
. /lib/naa-lib.sh
naa_setup >/dev/null || { finish; exit 1; }
sacc_insmod || { finish; exit 1; }
NODE=${NAA_NODES%% *}
naa_attach "$NODE" >/dev/null || { finish; exit 1; }
DEV=$ATTACH_DOMAIN:01:00.0
echo "BENCH-BEGIN"
sacc_job network "$DEV" 4M -S 1
echo "BENCH sacc-test 4 MiB, network (node $NODE, irq $(cat /sys/bus/pci/devices/$DEV/irq_mode)): $SACC_MS ms wall (guest clock)"
sed -n 's/^sacc-test: \(host->device\|crc32 on the device\|device->host\)/BENCH   network \1/p' /tmp/sacc.out
echo "BENCH-END"
naactl detach "$NODE" >/dev/null
finish
