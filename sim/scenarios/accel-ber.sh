#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The accelerator scenario, short, on links with bit errors: cosimd --ber 1e-4
# flips every bit of every link wire (data, framing, CRC) with probability
# 1e-4 (about one link symbol in 57). The link layer repairs it (docs/network.md
# "Link layer"): attach, sample_accel binds, one sacc-test job (DMA both ways
# through the SMFU, CRC on the device, MSI-X through the notification queue)
# passes, and the replay counters of both NICs (naactl links, local and in-band)
# are non-zero.
# topology: direct
# cosimd: --ber 1e-4
. /lib/scenario-lib.sh
. /lib/naa-lib.sh
SIZE=${SACC_SIZE:-256K}

naa_setup || { finish; exit 1; }
check "insmod sample_accel.ko" insmod /lib/modules/sample_accel.ko || { finish; exit 1; }
NODE=${NAA_NODES%% *}

naa_attach "$NODE" || { finish; exit 1; }
DEV=$ATTACH_DOMAIN:01:00.0
i=0
while [ $i -lt 100 ] && [ ! -e "/sys/bus/pci/devices/$DEV/driver" ]; do sleep 0.1; i=$((i + 1)); done
[ "$(basename "$(readlink "/sys/bus/pci/devices/$DEV/driver" 2>/dev/null)")" = sample_accel ] &&
	pass "sample_accel bound to $DEV" || { fail "sample_accel bound to $DEV"; finish; exit 1; }
sacc_job "BER 1e-4" "$DEV" "$SIZE"

# links LABEL [NODE]: naactl links, sets RETX and CRCERR
links() {
	local out
	out=$(naactl links $2 2>&1)
	echo "$out"
	RETX=$(echo "$out" | sed -n 's/.*retransmissions \([0-9]*\).*/\1/p' | head -1)
	CRCERR=$(echo "$out" | sed -n 's/.*CRC errors \([0-9]*\).*/\1/p' | head -1)
	[ "${RETX:-0}" -gt 0 ] && pass "$1: link-layer retransmissions $RETX > 0 (CRC errors ${CRCERR:-?})" ||
		fail "$1: link-layer retransmissions '${RETX}' > 0 (CRC errors ${CRCERR:-?})"
}
links "host NIC (node $HOST_NODE)"
links "NAA NIC (node $NODE, in-band)" "$NODE"

naactl detach "$NODE" >/dev/null && pass "naactl detach $NODE" || fail "naactl detach $NODE"
rmmod sample_accel && pass "rmmod sample_accel" || fail "rmmod sample_accel"
naa_stats
naa_dmesg_clean
finish
