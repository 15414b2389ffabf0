#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Test install-destdir: `make install DESTDIR=tmp PREFIX=/usr` puts every file
# where docs/real-hosts.md says (modules for build/kernel/release's kernel in
# /lib/modules/KREL/extra, tools, library, headers, the udev rule) and nothing
# outside DESTDIR; the tools run from there.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$(cat "$top/build/kernel/release" 2>/dev/null || true)
[ -n "$krel" ] || { echo "install-destdir: no build/kernel/release (make deps)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d=$tmp/root
make -s -C "$top" install DESTDIR="$d" PREFIX=/usr UDEVDIR=/lib/udev/rules.d >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; echo "FAIL make install"; exit 1; }
rc=0
for f in lib/modules/$krel/extra/extoll.ko lib/modules/$krel/extra/naa_bus.ko \
	 lib/modules/$krel/extra/accel/sample_accel.ko \
	 usr/bin/naactl usr/bin/naaimg usr/bin/sacc-test usr/bin/bar-test usr/lib/libextoll.a \
	 usr/include/extoll/libextoll.h usr/include/extoll/extoll_topo.h \
	 usr/include/extoll/extoll_ioctl.h usr/include/extoll/sample_accel.h \
	 lib/udev/rules.d/60-extoll.rules; do
	if [ -f "$d/$f" ]; then echo "ok: /$f"; else echo "FAIL missing /$f"; rc=1; fi
done
for m in "$d"/lib/modules/"$krel"/extra/*.ko "$d"/lib/modules/"$krel"/extra/accel/*.ko; do
	vm=$(modinfo -F vermagic "$m" | awk '{ print $1 }')
	[ "$vm" = "$krel" ] || { echo "FAIL $m: vermagic $vm, expected $krel"; rc=1; }
done
for t in naactl naaimg sacc-test bar-test; do
	[ -x "$d/usr/bin/$t" ] || { echo "FAIL /usr/bin/$t not executable"; rc=1; }
done
grep -q 'KERNEL=="extoll\[0-9\]\*", GROUP="extoll", MODE="0660"' "$d/lib/udev/rules.d/60-extoll.rules" ||
	{ echo "FAIL udev rule: no extoll group rule"; rc=1; }
# a program built against the installed headers and library alone
# (opens a NIC, or says why not: none here)
printf '#include <stdio.h>\n#include <libextoll.h>\nint main(void)\n{\n\tstruct extoll_nic *nic;\n\tint r = extoll_open(NULL, &nic);\n\n\tif (r == 0)\n\t\textoll_close(nic);\n\tprintf("extoll_open: %%d\\n", r);\n\treturn 0;\n}\n' >"$tmp/t.c"
if cc -std=c11 -Wall -Wextra -Werror -I"$d/usr/include/extoll" -o "$tmp/t" "$tmp/t.c" \
	-L"$d/usr/lib" -lextoll -lpci >"$tmp/cc.log" 2>&1 && LD_LIBRARY_PATH=$d/usr/lib "$tmp/t"; then
	echo "ok: a program compiles, links and runs against the installed library"
else cat "$tmp/cc.log"; echo "FAIL compiling against the installed headers"; rc=1; fi
echo "files installed: $(find "$d" -type f | wc -l)"
[ $rc = 0 ] && echo "PASS install-destdir" || echo "FAIL install-destdir"
exit $rc
