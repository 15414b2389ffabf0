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
# the generators write every file of mk/gen.sh's list: none (a generator that stopped early
# without an error) would compare nothing and pass
n=$(find . -type f | wc -l)
if [ "$n" -lt 15 ]; then
	echo "STALE: the generators wrote $n files, expected the 15 or more of mk/gen.sh"
	exit 1
fi
for f in $(find . -type f | sed 's|^\./||' | sort); do
	if ! diff -u "$top/$f" "$tmp/$f"; then
		echo "STALE: $f differs from what its generator writes; run 'make gen'"
		rc=1
	else
		echo "ok: $f"
	fi
done
exit $rc
