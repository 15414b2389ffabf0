#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The project's test runner, called by `make test` (and so by .ci/run).
# Runs the tests of mk/tests.list (format: its header) in a pool of N jobs, logs each
# to build/test-logs/NAME.log, prints one PASS/FAIL line per test as it ends and the
# summary `N passed, M failed`; exits non-zero if a test failed.
#
# Usage: mk/run-tests.sh [-j N] [NAME-PATTERN...]   (default: all tests, N = number of cores)
#   -j N   at most N tests at a time (also TEST_JOBS=N; make test TEST_JOBS=N)
#
# Scheduling: two tests that name the same lock in tests.list never run at the same
# time; a test that names after=T starts only once test T has passed (T failed: it
# fails without running; T not selected: no wait). Among the tests that may start, the
# one with the longest remaining chain goes first: its own expected time, or for a test
# holding locks the sum of the expected times of the tests of its lock still to run,
# and for a test others wait for, its time plus theirs shared among the N jobs.
# Each running test gets a slot, TEST_SLOT=0..N-1 in its environment, free while it
# runs (sim/run pins its co-simulation to CPU TEST_SLOT). Expected times come from mk/test-times
# (a hint measured on a fresh clone; a test missing there counts 60 s). Every run
# writes the measured times to build/test-logs/times (same format: `cp` it to
# mk/test-times to refresh the hint).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logs=build/test-logs
mkdir -p "$logs"

list=${TESTS_LIST:-mk/tests.list}   # another list: for testing the runner
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
if [ "${1:-}" = -j ]; then jobs=${2:-}; shift 2 || shift
elif [[ ${1:-} == -j* ]]; then jobs=${1#-j}; shift; fi
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run-tests: bad job count '$jobs'" >&2; exit 2; }
# Several tests at a time: each builds its models one after another (make tb, make synth,
# make -C sim models), so that a test takes about as long as alone on one core and stays
# within its time limit; alone (-j 1), they build in parallel. RTL_JOBS/SIM_JOBS set
# in the environment win.
if [ "$jobs" -gt 1 ]; then export RTL_JOBS=${RTL_JOBS:-1} SIM_JOBS=${SIM_JOBS:-1}; fi

# ---- read mk/tests.list: name | limit | locks | command
names=()
declare -A limit=() locks=() after=() cmd=() est=()
lineno=0
while IFS= read -r line; do
	lineno=$((lineno + 1))
	case "$line" in ''|\#*|[[:space:]]*\#*) continue ;; esac
	IFS='|' read -r n l k c <<<"$line"
	n=$(echo "$n" | xargs); l=$(echo "$l" | xargs); k=$(echo "$k" | xargs)
	c=${c#"${c%%[![:space:]]*}"}
	if [ -z "$n" ] || ! [[ $l =~ ^[0-9]+$ ]] || ! [[ $k =~ ^(-|(after=)?[A-Za-z0-9_.-]+(,(after=)?[A-Za-z0-9_.-]+)*)$ ]] ||
	   [ -z "$c" ]; then
		echo "run-tests: $list line $lineno: expected 'name | limit | locks | command'" \
		     "(locks: - or a comma-separated list of locks and after=TEST): $line" >&2
		exit 2
	fi
	[ -z "${limit[$n]+x}" ] || { echo "run-tests: $list line $lineno: $n twice" >&2; exit 2; }
	if [ $# -gt 0 ]; then
		match=0
		for p in "$@"; do case "$n" in $p) match=1 ;; esac; done
		[ $match = 1 ] || continue
	fi
	names+=("$n"); limit[$n]=$l; cmd[$n]=$c; locks[$n]= after[$n]=
	for t in ${k//,/ }; do
		case "$t" in
		-) ;;
		after=*) after[$n]="${after[$n]} ${t#after=}" ;;
		*) locks[$n]="${locks[$n]} $t" ;;
		esac
	done
	est[$n]=60
done < "$list"
# no test at all (a pattern that matches nothing, an empty list) is no pass
if [ ${#names[@]} -eq 0 ]; then
	echo "run-tests: no test in $list${1:+ matches: $*}" >&2
	exit 2
fi
# after=T: T must be in the list; a T left out by the patterns is no wait
for n in "${names[@]}"; do
	a=
	for t in ${after[$n]}; do
		grep -qE "^[[:space:]]*$t[[:space:]]*\|" "$list" ||
			{ echo "run-tests: $list: $n: after=$t: no test $t" >&2; exit 2; }
		[ -n "${limit[$t]+x}" ] && a="$a $t"
	done
	after[$n]=$a
done
if [ -f mk/test-times ]; then
	while read -r n s _; do
		case "$n" in ''|\#*) continue ;; esac
		[ -n "${est[$n]+x}" ] && [[ $s =~ ^[0-9]+$ ]] && est[$n]=$s
	done < mk/test-times
fi

# ---- the pool
declare -A state=() held=() start=() pidof=() byname=() slotof=()
slots=()   # slots[i]: the test in slot i, empty when free
for n in "${names[@]}"; do state[$n]=wait; done
pass=0 fail=0 failed=() running=0 left=${#names[@]}
times=$logs/times.new
printf '# name seconds: measured by mk/run-tests.sh -j %s on %s (%s)\n' "$jobs" "$(date -u +%FT%TZ)" \
	"$(hostname)" >"$times"

# the remaining chain of test N: its own time, or its locks' waiting tests together;
# plus, shared among the jobs, the times of the waiting tests that run after it
chain() {
	local n=$1 k m sum best=${est[$1]}
	for k in ${locks[$n]}; do
		sum=0
		for m in "${names[@]}"; do
			[ "${state[$m]}" = wait ] && [[ " ${locks[$m]} " == *" $k "* ]] && sum=$((sum + est[$m]))
		done
		[ $sum -gt $best ] && best=$sum
	done
	sum=0
	for m in "${names[@]}"; do
		[ "${state[$m]}" = wait ] && [[ " ${after[$m]} " == *" $n "* ]] && sum=$((sum + est[$m]))
	done
	echo $((best + sum / jobs))
}

# ready N: 0 if every test N runs after has passed, 1 if one has yet to, 2 if one failed
ready() {
	local t
	for t in ${after[$1]}; do
		case "${state[$t]}" in
		passed) ;;
		failed) return 2 ;;
		*) return 1 ;;
		esac
	done
	return 0
}

launch() {
	local n=$1 k i=0
	for k in ${locks[$n]}; do held[$k]=$n; done
	while [ -n "${slots[$i]:-}" ]; do i=$((i + 1)); done
	slots[$i]=$n; slotof[$n]=$i
	state[$n]=run; start[$n]=$(date +%s); running=$((running + 1))
	TEST_SLOT=$i timeout --kill-after=10 "${limit[$n]}" bash -o pipefail -c "${cmd[$n]}" >"$logs/$n.log" 2>&1 </dev/null &
	pidof[$n]=$!; byname[$!]=$n
}

finish_one() {
	local n=$1 rc=$2 k secs why
	for k in ${locks[$n]}; do unset "held[$k]"; done
	slots[${slotof[$n]}]=
	running=$((running - 1)); left=$((left - 1))
	[ "$rc" -eq 0 ] && state[$n]=passed || state[$n]=failed
	secs=$(( $(date +%s) - start[$n] ))
	echo "$n $secs" >>"$times"
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1)); printf 'PASS  %-28s %4ss\n' "$n" "$secs"
	else
		fail=$((fail + 1)); failed+=("$n")
		[ "$rc" -eq 124 ] && why="timed out after ${limit[$n]}s" || why="exit $rc"
		printf 'FAIL  %-28s %4ss  (%s; log: %s)\n' "$n" "$secs" "$why" "$logs/$n.log"
		# what failed first (a scenario's FAIL lines, a shell or kernel error,
		# cosimd's answers of all-ones), then the end of the log
		grep -a -m 8 -E '^FAIL |: FAIL|^sh: |error:|Oops|BUG:|WARNING:|answering all-ones' \
			"$logs/$n.log" | sed 's/^/      ! /'
		tail -n 15 "$logs/$n.log" | sed 's/^/      | /'
	fi
}

stop() {
	local n
	for n in "${names[@]}"; do
		[ "${state[$n]}" = run ] && kill -TERM "${pidof[$n]}" 2>/dev/null
	done
	wait
	echo; echo "run-tests: interrupted"; exit 130
}
trap stop INT TERM

t0=$(date +%s)
while [ $left -gt 0 ]; do
	# what waits for a test that failed fails without running (and what waits for it)
	again=1
	while [ $again = 1 ]; do
		again=0
		for n in "${names[@]}"; do
			[ "${state[$n]}" = wait ] || continue
			ready "$n"; [ $? = 2 ] || continue
			state[$n]=failed; left=$((left - 1)); fail=$((fail + 1)); failed+=("$n"); again=1
			printf 'FAIL  %-28s %4ss  (not run: it runs after%s, which failed)\n' "$n" 0 "${after[$n]}"
		done
	done
	[ $left -gt 0 ] || break
	# start what may start, longest chain first
	while [ $running -lt "$jobs" ]; do
		best= bestc=-1
		for n in "${names[@]}"; do
			[ "${state[$n]}" = wait ] || continue
			ready "$n" || continue
			free=1
			for k in ${locks[$n]}; do [ -n "${held[$k]+x}" ] && { free=0; break; }; done
			[ $free = 1 ] || continue
			c=$(chain "$n")
			[ "$c" -gt $bestc ] && { best=$n; bestc=$c; }
		done
		[ -n "$best" ] || break
		launch "$best"
	done
	if [ $running = 0 ]; then   # nothing runs and nothing may start: after= in a circle
		echo "run-tests: $list: the after= of these tests wait for each other:" \
		     "$(for n in "${names[@]}"; do [ "${state[$n]}" = wait ] && printf '%s ' "$n"; done)" >&2
		exit 2
	fi
	wait -n -p done_pid
	rc=$?
	[ -n "${done_pid:-}" ] && [ -n "${byname[$done_pid]+x}" ] || continue
	finish_one "${byname[$done_pid]}" "$rc"
	unset "byname[$done_pid]"
done
wall=$(( $(date +%s) - t0 ))
[ $# -gt 0 ] || [ "$list" != mk/tests.list ] || mv "$logs/times.new" "$logs/times"
rm -f "$logs/times.new"
echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "wall time ${wall}s, $jobs job(s)"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
