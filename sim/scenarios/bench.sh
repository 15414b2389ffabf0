#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Co-simulation benchmark: guest-observed BAR0 write/read round trips (mmap of
# sysfs resource0, 1000 accesses each; run with `sim/run bench --stats` for
# the daemon's RTL-cycle figures) and the same through busybox devmem.
# topology: single
. /lib/scenario-lib.sh
N=${BENCH_N:-1000}
setpci -s "$NIC_BDF" COMMAND=0x0002:0x0002
off=${EXTOLL_INFO_SCRATCH:-0x20}
echo "BENCH-BEGIN"
check "mmio_bench 64-bit scratch x$N" mmio_bench -d "$NIC_BDF" -b 0 -o "$off" -n "$N" -w 8
check "mmio_bench 32-bit scratch x$N" mmio_bench -d "$NIC_BDF" -b 0 -o "$off" -n "$N" -w 4
# devmem: one process per access, so this mostly measures fork+exec under TCG
addr=$(printf '0x%x' $(($(bar_addr 0) + off)))
t0=$(cut -d' ' -f1 /proc/uptime)
i=0; while [ $i -lt 100 ]; do devmem "$addr" 64 >/dev/null; i=$((i + 1)); done
t1=$(cut -d' ' -f1 /proc/uptime)
echo "devmem: 100 reads in $(awk "BEGIN{print ($t1-$t0)}") s (includes busybox fork/exec per access)"
echo "BENCH-END"
finish
