#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation check of tb_rma (docs/rma.md "Tests"): every line of rtl/rma/mutants.list is a
# sed expression on a copy of one file of rtl/rma; tb_rma (seed 1) must fail on it, except
# for lines whose description says "expected to survive". Builds in build/rma/mut/N/.
#   rtl/rma/mutants.sh [N...]     all mutants, or the listed line numbers (1-based)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=build/rma/mut
mkdir -p "$out"
vflags=$(mk/rtl-files.sh vflags rma)
mk_objs="build/rma/tlp.o build/rma/tlp_check.o build/rma/tlp_order.o build/rma/flash_part.o"
make -s -C rtl/rma "$top/build/rma/tb_rma/tb_rma" >/dev/null   # the objects and a clean reference
caught=0; survived=0; fail=0; n=0
mapfile -t lines < <(grep -v '^#' rtl/rma/mutants.list | grep -v '^\s*$')
sel=("$@")
for line in "${lines[@]}"; do
	n=$((n + 1))
	if [ ${#sel[@]} -gt 0 ] && ! printf '%s\n' "${sel[@]}" | grep -qx "$n"; then continue; fi
	file=$(echo "$line" | cut -d'|' -f1 | xargs)
	expr=$(echo "$line" | cut -d'|' -f2 | sed 's/^ //; s/ $//')
	what=$(echo "$line" | cut -d'|' -f3- | sed 's/^ //')
	d=$out/$n; rm -rf "$d"; mkdir -p "$d"
	cp "rtl/rma/$file" "$d/$file"
	sed -i "$expr" "$d/$file"
	if cmp -s "rtl/rma/$file" "$d/$file"; then
		echo "BROKEN mutant $n ($what): the expression changes nothing"; fail=1; continue
	fi
	mv_flags=$(echo "$vflags" | sed "s#$top/rtl/rma/$file#$top/$d/$file#")
	if ! MAKEFLAGS= verilator --cc --exe --build -j 0 -O3 --x-assign fast --x-initial fast \
		-MAKEFLAGS "OPT_FAST=-O2" $mv_flags --top-module rma_unit --Mdir "$d/obj" -o tb_rma \
		-CFLAGS "-O2 -I$top/hw/include -I$top/rtl/tb" -LDFLAGS "$(echo $mk_objs | sed "s#build/#$top/build/#g")" \
		"$top/rtl/tb/rma/tb_rma.cpp" > "$d/build.log" 2>&1; then
		echo "BROKEN mutant $n ($what): does not build (see $d/build.log)"; fail=1; continue
	fi
	# a mutant that hangs the unit makes the testbench wait out its timeouts: 300 s at most
	if timeout 300 "$d/obj/tb_rma" --seed 1 > "$d/run.log" 2>&1; then
		if [[ "$what" == *"expected to survive"* ]]; then
			echo "SURVIVED mutant $n (as expected): $what"
		else
			echo "SURVIVED mutant $n: $what"; survived=$((survived + 1)); fail=1
		fi
	else
		caught=$((caught + 1))
		nf=$(grep -c '  FAIL' "$d/run.log")
		first=$(grep -m1 '  FAIL' "$d/run.log" | sed 's/.*tb_rma.cpp:[0-9]*: //' | cut -c1-90)
		[ "$nf" = 0 ] && first="no summary: stopped after 300 s"
		echo "CAUGHT mutant $n: $what ($nf failed checks; first: $first)"
	fi
done
echo "mutants: $caught caught, $survived survived"
[ $fail = 0 ] && echo "PASS mutants" || { echo "FAIL mutants"; exit 1; }
