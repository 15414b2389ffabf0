#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Alveo U250 build: RTL unit lists -> Vivado (non-project, build.tcl) -> bitstream
# and SPI x4 flash file -> the project's flash image (naaimg, docs/flash.md).
#
#   fw/boards/u250/build.sh [--out DIR] [--role fallback|update] [--version X.Y.Z]
#                           [--check | --package BIN]
#
#   (no mode)      the whole build; needs `vivado` (2022.2 or later) in PATH
#   --check        resolve and check every input the build reads (the sources from the
#                  unit list vendor/boards/u250 and the units it depends on, the
#                  headers they include, the XDC, the IP Tcl), write OUT/sources.tcl,
#                  and stop before Vivado: what can be checked without Vivado
#   --package BIN  only the last step: wrap BIN (a write_cfgmem .bin) into
#                  OUT/extoll_u250-ROLE.naaimg and verify it
#
# Defaults: OUT build/fw/u250, role update, version from VERSION; the build id is the
# commit (git, first 8 hex digits) and today's date (UTC), the same values the
# bitstream's info.build register reports (BUILD_COMMIT, BUILD_DATE generics).
# NAAIMG: the naaimg binary (default userspace/build/naaimg, built by make -C userspace).
# RTL_DIR: read the unit lists from another rtl/ tree (the test's mutations).
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
board=$top/fw/boards/u250
out=$top/build/fw/u250
role=update
version=$(cat "$top/VERSION")
mode=build
bin=
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$(realpath -m "$2"); shift 2 ;;
	--role) role=$2; shift 2 ;;
	--version) version=$2; shift 2 ;;
	--check) mode=check; shift ;;
	--package) mode=package; bin=$2; shift 2 ;;
	*) echo "usage: $0 [--out DIR] [--role fallback|update] [--version X.Y.Z] [--check | --package BIN]" >&2
	   exit 2 ;;
	esac
done
case "$role" in fallback|update) ;; *) echo "build.sh: --role fallback or update" >&2; exit 2 ;; esac
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "build.sh: version '$version' is not X.Y.Z" >&2; exit 2; }
IFS=. read -r v_major v_minor v_patch <<<"$version"
commit=$(git -C "$top" rev-parse --short=8 HEAD 2>/dev/null || echo 00000000)
date=$(date -u +%Y%m%d)
naaimg=${NAAIMG:-$top/userspace/build/naaimg}
name=extoll_u250

package() {	# package BIN: the flash image, then verify it as devlink dev flash would
	local img=$out/$name-$role.naaimg
	[ -x "$naaimg" ] || { echo "build.sh: no naaimg at $naaimg (make -C userspace)" >&2; exit 3; }
	"$naaimg" create --board u250 --part mt25qu01g --role "$role" --version "$version" \
		--build "$commit" --date "$date" -o "$img" "$1"
	"$naaimg" verify --board u250 --part mt25qu01g "$img"
	echo "build.sh: $img"
}

mkdir -p "$out"
if [ "$mode" = package ]; then
	package "$bin"
	exit 0
fi

# --- every input, from the unit list, checked -------------------------------------
unit=vendor/boards/u250
rtlf=("$top/mk/rtl-files.sh" --rtl "${RTL_DIR:-$top/rtl}")
srcs=$("${rtlf[@]}" srcs "$unit")
incdirs=$("${rtlf[@]}" incdirs "$unit")
bad=0
for f in $srcs "$board/u250.xdc" "$board/../common/cdc.tcl" "$board/ip/pcie4_u250.tcl" "$board/build.tcl"; do
	[ -f "$f" ] || { echo "build.sh: missing input $f" >&2; bad=1; }
done
for d in $incdirs; do
	[ -d "$d" ] || { echo "build.sh: missing include folder $d" >&2; bad=1; }
done
# every `include of a source resolves in one of the include folders
for h in $(sed -n 's/^[[:space:]]*`include[[:space:]]*"\([^"]*\)".*/\1/p' $srcs | sort -u); do
	found=
	for d in $incdirs; do [ -f "$d/$h" ] && found=1; done
	[ -n "$found" ] || { echo "build.sh: \`include \"$h\" not found in the include folders" >&2; bad=1; }
done
# the lint-only black boxes must never reach Vivado (it has the real primitives)
case " $srcs " in *"/boards/stubs/"*) echo "build.sh: a lint-only stub is in the build's sources" >&2; bad=1 ;; esac
# the top is the last source of the unit
case "$srcs" in *"/$name.sv") ;; *) echo "build.sh: $name.sv is not the unit's last source" >&2; bad=1 ;; esac
[ "$bad" = 0 ] || exit 1

cat >"$out/sources.tcl" <<EOF
# written by fw/boards/u250/build.sh (unit $unit, commit $commit)
set PART        xcu250-figd2104-2-e
set TOP         $name
set OUT         {$out}
set SRCS        {$srcs}
set INCDIRS     {$incdirs}
set XDC         {$board/u250.xdc}
set CDC_TCL     {$(cd "$board/../common" && pwd)/cdc.tcl}
set IP_TCL      {$board/ip/pcie4_u250.tcl}
set GENERICS    {RTL_MAJOR=16'd$v_major RTL_MINOR=16'd$v_minor RTL_PATCH=16'd$v_patch BUILD_DATE=32'h$date BUILD_COMMIT=32'h$commit}
set CFGMEM_SIZE 128
EOF

nsrc=$(wc -w <<<"$srcs")
if [ "$mode" = check ]; then
	echo "build.sh: $nsrc sources, $(wc -w <<<"$incdirs") include folders, XDC, CDC Tcl, IP Tcl: all present; $out/sources.tcl"
	exit 0
fi

command -v vivado >/dev/null || {
	echo "build.sh: vivado not in PATH (Vivado cannot run on the project's machines: fw/README.md)" >&2
	exit 3
}
(cd "$out" && vivado -mode batch -nojournal -log "$out/vivado.log" -source "$board/build.tcl" \
	-tclargs "$out/sources.tcl")
package "$out/$name.bin"
