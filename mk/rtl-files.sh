#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The RTL file-list resolver: expands units (rtl/**/*.f) with their dependencies,
# dependencies first, each file once. Every RTL consumer reads the lists through
# it: lint, Yosys synthesis and the Verilator testbenches (mk/rtl.mk) and the
# co-simulation models (sim/Makefile, sim/world/world.mk, sim/model/accel.mk).
#
#   mk/rtl-files.sh [--rtl DIR] MODE UNIT...
#
# A unit is named by its path under rtl/ without ".f": UNIT is the list
# rtl/UNIT.f if that exists, else rtl/UNIT/<last part of UNIT>.f
# (net -> rtl/net/net.f, gen/net_pkg -> rtl/gen/net_pkg.f,
# tb/tb_nic_remote_top -> rtl/tb/tb_nic_remote_top.f).
#
# List file format (docs/rtl-build.md), one entry a line, '#' starts a comment,
# paths relative to the list's own directory:
#   @UNIT            a unit this one depends on (its files come first, wherever
#                    the line stands)
#   FILE.sv | .v     a source file, in compile order (packages before their users)
#   FILE.svh | .vh   a header (`include); its directory becomes an include directory
#   FILE.vlt         a Verilator configuration file (lint waivers); Verilator only
#   +incdir+DIR      an include directory
#
# MODE (output: absolute paths, space-separated, on one line):
#   srcs      source files in compile order
#   incdirs   include directories
#   vlt       Verilator configuration files
#   deps      every file a build depends on: sources, headers, .vlt and the lists
#   vflags    Verilator arguments: -I<dir>... <.vlt>... <sources>...
#   yosys     Yosys read_verilog arguments: -I<dir>... <sources>...
#   units     (no UNIT) every unit of the tree, one a line
#   check     (no UNIT) every list resolves, and every .sv/.svh/.vlt file under
#             rtl/ (generated ones included) is in exactly one list
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
rtl=$top/rtl
if [ "${1:-}" = --rtl ]; then rtl=$(cd "$2" && pwd); shift 2; fi
mode=${1:?usage: rtl-files.sh [--rtl DIR] MODE UNIT...}; shift

die() { echo "rtl-files: $*" >&2; exit 1; }

listfile() {
	local u=$1
	if [ -f "$rtl/$u.f" ]; then echo "$rtl/$u.f"
	elif [ -f "$rtl/$u/${u##*/}.f" ]; then echo "$rtl/$u/${u##*/}.f"
	else die "no list for unit '$u' (rtl/$u.f or rtl/$u/${u##*/}.f)"; fi
}

declare -A state=() have=()
srcs=() hdrs=() vlts=() incs=() lists=()
add() {	# add ARRAY PATH: append once
	local -n arr=$1
	[ -n "${have[$1:$2]:-}" ] && return 0
	have[$1:$2]=1; arr+=("$2")
}

visit() {
	local unit=$1 f dir line e
	case "${state[$unit]:-}" in
	done) return 0 ;;
	active) die "dependency cycle through unit '$unit'" ;;
	esac
	state[$unit]=active
	f=$(listfile "$unit") || exit 1
	dir=$(dirname "$f")
	local -a ents=() deps=() paths=()
	while IFS= read -r line || [ -n "$line" ]; do
		trim line
		[ -n "$line" ] || continue
		case "$line" in
		@*) deps+=("${line#@}") ;;
		+incdir+*) ents+=("I"); paths+=("$dir/${line#+incdir+}") ;;
		*) ents+=("F"); paths+=("$dir/$line") ;;
		esac
	done < "$f"
	for e in "${deps[@]}"; do visit "$e"; done
	if [ ${#paths[@]} -gt 0 ]; then
		mapfile -t paths < <(realpath -m -- "${paths[@]}")
	fi
	local i p
	for i in "${!paths[@]}"; do
		p=${paths[$i]}
		[ -e "$p" ] || die "$f: ${p#"$rtl"/} does not exist"
		if [ "${ents[$i]}" = I ]; then add incs "$p"; continue; fi
		case "$p" in
		*.sv|*.v) add srcs "$p" ;;
		*.svh|*.vh) add hdrs "$p"; add incs "$(dirname "$p")" ;;
		*.vlt) add vlts "$p" ;;
		*) die "$f: '${p#"$rtl"/}': not a .sv, .v, .svh, .vh or .vlt file" ;;
		esac
	done
	add lists "$f"
	state[$unit]=done
}

all_units() {
	local f u
	find "$rtl" -name '*.f' | sort | while read -r f; do
		u=${f#"$rtl"/}; u=${u%.f}
		# rtl/P/X/X.f is unit P/X, any other rtl/P.f is unit P
		if [[ $u == */* && ${u%/*} =~ (^|/)"${u##*/}"$ ]]; then
			echo "${u%/*}"
		else
			echo "$u"
		fi
	done
}

trim() {	# trim VAR: strip the comment and surrounding blanks
	local -n v=$1
	v=${v%%#*}
	v=${v#"${v%%[![:space:]]*}"}
	v=${v%"${v##*[![:space:]]}"}
}

case "$mode" in
units) all_units; exit 0 ;;
check)
	rc=0
	declare -A owner=()
	while read -r u; do
		state=() have=() srcs=() hdrs=() vlts=() incs=() lists=()
		(visit "$u") || rc=1
		# own entries only: the files of this list, not of its dependencies
		f=$(listfile "$u"); dir=$(dirname "$f")
		while IFS= read -r line || [ -n "$line" ]; do
			trim line
			case "$line" in ''|@*|+incdir+*) continue ;; esac
			p=$(realpath -m -- "$dir/$line")
			if [ -n "${owner[$p]:-}" ]; then
				echo "rtl-files: ${p#"$rtl"/} is in both ${owner[$p]} and $u" >&2; rc=1
			fi
			owner[$p]=$u
		done < "$f"
	done < <(all_units)
	while read -r p; do
		if [ -z "${owner[$p]:-}" ]; then
			echo "rtl-files: ${p#"$rtl"/} is in no list: add it to its unit's .f (docs/rtl-build.md)" >&2
			rc=1
		fi
	done < <(find "$rtl" \( -name '*.sv' -o -name '*.svh' -o -name '*.v' -o -name '*.vh' -o -name '*.vlt' \) | sort)
	n=$(all_units | wc -l)
	if [ $rc -eq 0 ]; then echo "PASS rtl-files: $n units, every RTL file in exactly one list"
	else echo "FAIL rtl-files"; fi
	exit $rc ;;
esac

[ $# -gt 0 ] || die "mode $mode needs at least one unit"
for u in "$@"; do visit "$u"; done

case "$mode" in
srcs)    out=("${srcs[@]}") ;;
incdirs) out=("${incs[@]}") ;;
vlt)     out=("${vlts[@]}") ;;
deps)    out=("${srcs[@]}" "${hdrs[@]}" "${vlts[@]}" "${lists[@]}") ;;
vflags)  out=("${incs[@]/#/-I}" "${vlts[@]}" "${srcs[@]}") ;;
yosys)   out=("${incs[@]/#/-I}" "${srcs[@]}") ;;
*) die "unknown mode '$mode'" ;;
esac
echo "${out[*]}"
