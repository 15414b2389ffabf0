#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Installs what a real host needs; called by the top Makefile.
#   mk/install.sh tools        naactl, naaimg, sacc-test, bar-test -> $PREFIX/bin; libextoll
#                              (and its shared library and pkg-config file, where
#                              userspace/ builds them) -> $PREFIX/lib; headers ->
#                              $PREFIX/include/extoll; the udev rule -> $UDEVDIR;
#                              without DESTDIR also the group extoll
#   mk/install.sh dkms-src DIR the DKMS source tree (dkms.conf, kernel/, hw/include)
#                              into DIR, e.g. /usr/src/naa-extoll-0.1.0
# Environment: DESTDIR (staging root, default none), PREFIX (default /usr/local),
# UDEVDIR (default /etc/udev/rules.d: a local rule; packages use /lib/udev/rules.d).
# The modules: `make -C kernel install` (modules_install for KDIR's kernel).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
destdir=${DESTDIR:-}
prefix=${PREFIX:-/usr/local}
udevdir=${UDEVDIR:-/etc/udev/rules.d}
group=extoll

# the version of dkms.conf, the one the DKMS tree is named after
version() { sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf"; }

case "${1:-}" in
tools)
	make -s -C "$top/userspace"
	make -s -C "$top/userspace/accel"
	bin=$destdir$prefix/bin lib=$destdir$prefix/lib inc=$destdir$prefix/include/extoll
	install -d "$bin" "$lib" "$inc" "$destdir$udevdir"
	install -m 0755 "$top/userspace/build/naactl" "$top/userspace/build/naaimg" \
		"$top/userspace/accel/build/sacc-test" \
		"$top/userspace/accel/build/bar-test" "$bin/"
	install -m 0644 "$top/userspace/build/libextoll.a" "$lib/"
	# the shared library and its pkg-config file, where the userspace build makes them
	for f in "$top"/userspace/build/libextoll.so*; do
		[ -e "$f" ] || continue
		if [ -L "$f" ]; then cp -P "$f" "$lib/"; else install -m 0644 "$f" "$lib/"; fi
	done
	if [ -f "$top/userspace/build/libextoll.pc" ]; then
		install -d "$lib/pkgconfig"
		install -m 0644 "$top/userspace/build/libextoll.pc" "$lib/pkgconfig/"
	fi
	install -m 0644 "$top"/userspace/lib/{libextoll.h,extoll_topo.h,extoll_pci.h} \
		"$top/kernel/include/uapi/extoll_ioctl.h" "$top/kernel/accel/uapi/sample_accel.h" \
		"$top/hw/include/extoll_regs.h" "$inc/"
	install -m 0644 "$top/userspace/udev/60-extoll.rules" "$destdir$udevdir/"
	if [ -z "$destdir" ] && [ "$(id -u)" = 0 ]; then
		getent group "$group" >/dev/null || groupadd --system "$group"
		if command -v udevadm >/dev/null && [ -d /run/udev ]; then
			udevadm control --reload || true
			udevadm trigger --subsystem-match=misc || true
		fi
		echo "install: members of group $group may use /dev/extoll* (adduser USER $group)"
	fi
	;;
dkms-src)
	dir=${2:?usage: mk/install.sh dkms-src DIR}
	install -d "$dir/hw/include"
	install -m 0644 "$top/dkms.conf" "$dir/"
	# sources only: not the objects of a build in place (nor Kbuild's generated *.mod.c)
	(cd "$top" && find kernel \( -name '*.[ch]' ! -name '*.mod.c' \) -o -name Kbuild -o -name Makefile) |
		sort | while IFS= read -r f; do
		install -D -m 0644 "$top/$f" "$dir/$f"
	done
	install -m 0644 "$top"/hw/include/*.h "$dir/hw/include/"
	;;
version) version ;;
*) sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
