#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The project's test runner, called by `make test` (and so by .ci/run).
# Runs every test in mk/tests.list, logs each to build/test-logs/NAME.log, prints
# one PASS/FAIL line per test and the summary `N passed, M failed`.
# Usage: mk/run-tests.sh [NAME-PATTERN...]   (default: all)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logs=build/test-logs
mkdir -p "$logs"
pass=0 fail=0 failed=()
while IFS='|' read -r name limit cmd; do
	case "$name" in ''|\#*|[[:space:]]*\#*) continue ;; esac
	name=$(echo "$name" | xargs); limit=$(echo "$limit" | xargs)
	if [ $# -gt 0 ]; then
		match=0
		for p in "$@"; do case "$name" in $p) match=1 ;; esac; done
		[ $match = 1 ] || continue
	fi
	start=$(date +%s)
	timeout --kill-after=10 "$limit" bash -c "$cmd" >"$logs/$name.log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); printf 'PASS  %-28s %4ss\n' "$name" "$secs"
	else
		fail=$((fail + 1)); failed+=("$name")
		[ $rc -eq 124 ] && why="timed out after ${limit}s" || why="exit $rc"
		printf 'FAIL  %-28s %4ss  (%s; log: %s)\n' "$name" "$secs" "$why" "$logs/$name.log"
		tail -n 15 "$logs/$name.log" | sed 's/^/      | /'
	fi
done < mk/tests.list
echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
