#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make bench`: every benchmark, figures printed and kept in build/bench/.
# docs/benchmarks.md records the figures of a run, with this command.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/bench
mkdir -p "$out"
rc=0
run() {
	local name=$1; shift
	echo "=== $name: $*"
	if "$@" 2>&1 | tee "$out/$name.txt"; then :; else echo "bench $name FAILED"; rc=1; fi
	echo
}
run rtl-nic   make -s -C rtl bench
run net       make -s -C rtl/net bench
run accel     make -s -C rtl/accel bench
run smfu      make -s -C rtl/smfu bench
run fpga      make -s -C rtl bench-fpga
run rma       make -s -C rtl/rma bench
run cosim     make -s -C sim bench
exit $rc
