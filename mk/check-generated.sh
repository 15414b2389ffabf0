#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails when running the generators (mk/gen.sh) would change a committed file.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$top/build/gen-check
rm -rf "$tmp"
"$top/mk/gen.sh" "$tmp"
rc=0
cd "$tmp"
for f in $(find . -type f | sed 's|^\./||' | sort); do
	if ! diff -u "$top/$f" "$tmp/$f"; then
		echo "STALE: $f differs from what its generator writes; run 'make gen'"
		rc=1
	else
		echo "ok: $f"
	fi
done
exit $rc
