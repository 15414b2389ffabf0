#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian packages naa-extoll-dkms and naa-extoll-tools (debian/) from a
# clean copy of the tree: `git archive` of the work tree's tracked files (HEAD plus
# uncommitted edits, via git stash create) into build/deb/naa-extoll-VERSION, then
# dpkg-buildpackage -us -uc -b there; the .deb files land in build/deb/.
#   mk/deb.sh             build (make deb)
#   mk/deb.sh --lintian   build, check the packages' contents and versions, and run
#                         lintian: fails on any error (test deb-package), lists warnings
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/deb
lint=0
[ "${1:-}" = --lintian ] && lint=1
ver=$("$top/mk/install.sh" version)
deb_ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
rc=0
if [ "$deb_ver" != "$ver" ]; then
	echo "FAIL debian/changelog version $deb_ver differs from dkms.conf's $ver"; rc=1
fi
rm -rf "$out"
mkdir -p "$out"
rev=$(git -C "$top" stash create 2>/dev/null || true)
git -C "$top" archive --prefix="naa-extoll-$ver/" "${rev:-HEAD}" | tar -x -C "$out"
start=$(date +%s)
(cd "$out/naa-extoll-$ver" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 ||
	{ tail -n 40 "$out/build.log"; echo "FAIL dpkg-buildpackage (log: build/deb/build.log)"; exit 1; }
echo "deb: built in $(( $(date +%s) - start )) s:"
ls "$out"/*.deb
[ $lint = 1 ] || exit $rc

arch=$(dpkg --print-architecture)
dkms_deb=$out/naa-extoll-dkms_${ver}_all.deb
tools_deb=$out/naa-extoll-tools_${ver}_${arch}.deb
# Listings are read whole before grep: with pipefail, `grep -q` quitting at the first
# match could kill the writer with SIGPIPE and fail the pipeline at random.
check() { # check DEB PATH...
	local deb=$1 p files; shift
	files=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
	for p in "$@"; do
		if grep -qx "\./$p" <<<"$files"; then echo "ok: $(basename "$deb"): /$p"
		else echo "FAIL $(basename "$deb") lacks /$p"; rc=1; fi
	done
}
check "$dkms_deb" "usr/src/naa-extoll-$ver/dkms.conf" "usr/src/naa-extoll-$ver/kernel/Makefile" \
	"usr/src/naa-extoll-$ver/kernel/include/extoll_compat.h" "usr/src/naa-extoll-$ver/hw/include/extoll_regs.h"
check "$tools_deb" usr/bin/naactl usr/bin/sacc-test usr/bin/bar-test lib/udev/rules.d/60-extoll.rules
dkms_info=$(dpkg-deb -I "$dkms_deb")
grep -q 'Depends:.*dkms' <<<"$dkms_info" || { echo "FAIL naa-extoll-dkms does not depend on dkms"; rc=1; }
dpkg-deb -e "$tools_deb" "$out/tools-control"
grep -q 'addgroup --system --quiet extoll' "$out/tools-control/postinst" ||
	{ echo "FAIL naa-extoll-tools' postinst creates no group extoll"; rc=1; }

start=$(date +%s)
lintian --no-cfg --display-level '>=warning' "$out"/*.changes >"$out/lintian.log" 2>&1
echo "lintian ($(( $(date +%s) - start )) s): $(grep -c '^E:' "$out/lintian.log") errors, $(grep -c '^W:' "$out/lintian.log") warnings"
cat "$out/lintian.log"
grep -q '^E:' "$out/lintian.log" && { echo "FAIL lintian reports errors"; rc=1; }
[ $rc = 0 ] && echo "PASS deb-package" || echo "FAIL deb-package"
exit $rc
