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

sacc_setup || { finish; exit 1; }

naa_attach "$NODE" || { finish; exit 1; }
DEV=$ATTACH_DOMAIN:01:00.0
driver_bound "$DEV" sample_accel && pass "sample_accel bound to $DEV" ||
	{ fail "sample_accel bound to $DEV"; finish; exit 1; }
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
# the host NIC's own links in sysfs (link0/ .. link6/): the replays per link
r=0
for l in 0 1 2 3 4 5 6; do
	echo "link$l $(cat "$NIC_DEV/link$l/port"): $(cat "$NIC_DEV/link$l/state"), replays $(cat "$NIC_DEV/link$l/replays"), CRC errors $(cat "$NIC_DEV/link$l/crc_errors"), NAKs sent $(cat "$NIC_DEV/link$l/naks_sent")"
	r=$((r + $(cat "$NIC_DEV/link$l/replays")))
done
[ "$r" -gt 0 ] && pass "sysfs link*/replays: $r > 0" || fail "sysfs link*/replays: $r > 0"

sacc_teardown
finish
