#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build the guest initramfs for one scenario:
#   sim/guest/mkimage.sh SCENARIO [OUTPUT]
# default OUTPUT: build/sim/initramfs-SCENARIO.cpio.gz
#
# Contents: static busybox (every applet as a symlink), lspci/setpci with their
# shared libraries and pci.ids, devlink (iproute2) with its libraries if
# installed, our kernel modules (kernel/**/*.ko -> /lib/modules/*.ko, plus any
# modules of the Debian kernel they depend on, loaded by /init), userspace
# tools (executables under userspace/, with their libraries), the guest-side
# helpers of sim/guest/tools (built static), sim/scenarios/lib.sh as
# /lib/scenario-lib.sh and sim/scenarios/SCENARIO.sh as /scenario.
#
# /init mounts proc, sysfs, devtmpfs, prints `SCENARIO-START name`, runs
# /scenario, prints `SCENARIO-EXIT rc` and powers off (or crashes the kernel if the
# scenario left /tmp/scenario-crash).
#
# $TOPOLOGY (a sim/topologies/*.topo file, optional): installed as
# /etc/extoll/topology, with /etc/extoll/host-node (the first host node's id),
# /etc/extoll/host-nodes (every host node, in order: sim.host=I on the kernel command
# line picks the I-th, scenario-lib.sh)
# and /etc/extoll/naa-nodes (the naa node ids, one line, space separated).
# $KVER (optional, e.g. 6.12): the kernel of build/kernel-KVER, our modules from
# build/kmod-KVER/kernel (make -C kernel KVER=KVER); default OUTPUT then
# build/sim/initramfs-SCENARIO-KVER.cpio.gz.
set -euo pipefail

sim=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$sim/.." && pwd)
scen=${1:?usage: mkimage.sh SCENARIO [OUTPUT]}
build=${BUILD:-$top/build/sim}
kver=${KVER:-}
tag=$scen${kver:+-$kver}
out=${2:-$build/initramfs-$tag.cpio.gz}
script=$sim/scenarios/$scen.sh
kdir=$top/build/kernel${kver:+-$kver}
# where our .ko files are (kernel/Makefile: KVER builds in a copy)
kmods=$top/kernel
[ -z "$kver" ] || kmods=$top/build/kmod-$kver/kernel
[ -f "$script" ] || { echo "mkimage: no scenario $script" >&2; exit 2; }
[ -x /bin/busybox ] || { echo "mkimage: /bin/busybox missing (apt-get install busybox-static)" >&2; exit 1; }
file -L /bin/busybox | grep -q 'statically linked' ||
	{ echo "mkimage: /bin/busybox is not static (install busybox-static)" >&2; exit 1; }

stage=$build/guest-$tag
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,lib/modules,proc,sys,dev,tmp,run,etc,usr/share/misc,root}
mkdir -p "$(dirname "$out")"

# --- busybox and its applets
cp /bin/busybox "$stage/bin/busybox"
for a in $(/bin/busybox --list-full); do
	[ -e "$stage/$a" ] || ln -s /bin/busybox "$stage/$a"
done

# --- dynamically linked tools with their libraries
copy_bin() { # copy_bin SRC DEST-DIR
	local src=$1 dst=$2 lib
	rm -f "$stage/$dst/$(basename "$src")"
	cp -L "$src" "$stage/$dst/"
	for lib in $(ldd "$src" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -f "$lib" ] || continue
		mkdir -p "$stage$(dirname "$lib")"
		[ -e "$stage$lib" ] || cp -L "$lib" "$stage$lib"
	done
}
for t in lspci setpci; do
	p=$(command -v $t || true)
	[ -n "$p" ] || { echo "mkimage: $t not installed (apt-get install pciutils)" >&2; exit 1; }
	copy_bin "$p" usr/bin
done
# GNU date: busybox's has no %N (nanoseconds), which scenarios use for timing
p=$(command -v date) && file -L "$p" | grep -q ELF && copy_bin "$p" usr/bin
cp /usr/share/misc/pci.ids "$stage/usr/share/misc/" 2>/dev/null ||
	cp /usr/share/hwdata/pci.ids "$stage/usr/share/misc/" 2>/dev/null || true
if p=$(command -v devlink); then
	copy_bin "$p" usr/sbin
else
	echo "mkimage: devlink (iproute2) not installed: left out" >&2
fi

# --- guest-side helpers (static)
for c in "$sim"/guest/tools/*.c; do
	[ -f "$c" ] || continue
	b=$build/guest-tools/$(basename "$c" .c)
	mkdir -p "$build/guest-tools"
	if [ ! -x "$b" ] || [ "$c" -nt "$b" ]; then
		${CC:-cc} -static -O2 -Wall -Wextra -std=c11 -D_GNU_SOURCE -o "$b" "$c"
	fi
	cp "$b" "$stage/usr/bin/"
done

# --- our kernel modules (+ Debian modules they depend on)
rel=$(cat "$kdir/release" 2>/dev/null || true)
deps=()
add_dep() { # add_dep NAME: resolve in the Debian module tree, recursively
	local n=${1//-/_} f d
	for d in "${deps[@]}"; do [ "$(basename "$d" .ko)" = "$n" ] && return 0; done
	f=$(find "$kdir/lib/modules/$rel" -name "$n.ko" -o -name "${n//_/-}.ko" \
		-o -name "$n.ko.xz" -o -name "${n//_/-}.ko.xz" 2>/dev/null | head -1)
	[ -n "$f" ] || { echo "mkimage: dependency module $n not found in $kdir" >&2; return 0; }
	for d in $(modinfo -F depends "$f" | tr , ' '); do add_dep "$d"; done
	deps+=("$f")
}
nko=0
while IFS= read -r ko; do
	cp "$ko" "$stage/lib/modules/"
	nko=$((nko + 1))
	for d in $(modinfo -F depends "$ko" 2>/dev/null | tr , ' '); do
		# a dependency on one of our own modules is satisfied by the scenario
		[ -n "$(find "$kmods" -name "$d.ko" | head -1)" ] || add_dep "$d"
	done
done < <(find "$kmods" -name '*.ko' 2>/dev/null | sort)
[ $nko -gt 0 ] || echo "mkimage: no kernel modules under $kmods (run make -C kernel${kver:+ KVER=$kver})" >&2
copy_ko() { # copy_ko MODULE DIR: as DIR/NAME.ko (6.12's modules are .ko.xz; insmod takes .ko)
	case "$1" in
	*.xz) xz -dc "$1" >"$2/$(basename "$1" .xz)" ;;
	*) cp "$1" "$2/" ;;
	esac
}
mkdir -p "$stage/lib/modules/deps"
: >"$stage/lib/modules/deps/order"
for f in "${deps[@]}"; do
	copy_ko "$f" "$stage/lib/modules/deps"
	basename "$f" .xz >>"$stage/lib/modules/deps/order"
done

# module index so that modprobe, lspci -k and libkmod work (our modules in extra/)
if [ -n "$rel" ]; then
	mkdir -p "$stage/lib/modules/$rel/extra" "$stage/lib/modules/$rel/kernel"
	cp "$stage"/lib/modules/*.ko "$stage/lib/modules/$rel/extra/" 2>/dev/null || true
	for f in "${deps[@]}"; do copy_ko "$f" "$stage/lib/modules/$rel/kernel"; done
	cp "$kdir/lib/modules/$rel"/modules.builtin* "$stage/lib/modules/$rel/" 2>/dev/null || true
	depmod -b "$stage" "$rel" 2>/dev/null || echo "mkimage: depmod failed (modprobe unavailable in the guest)" >&2
fi

# --- userspace tools: executables under userspace/ (ELF), with their libraries
if [ -d "$top/userspace" ]; then
	while IFS= read -r f; do
		case "$f" in *.so|*.so.*) cp -L "$f" "$stage/usr/lib/" 2>/dev/null ||
			{ mkdir -p "$stage/usr/lib"; cp -L "$f" "$stage/usr/lib/"; }; continue ;; esac
		head -c 4 "$f" | grep -q 'ELF' || continue
		[ -x "$f" ] || continue
		copy_bin "$f" usr/bin
	done < <(find "$top/userspace" -type f \( -perm -u+x -o -name '*.so*' \) ! -name '*.o' ! -name '*.sh' 2>/dev/null)
fi

# --- Linux's PCI endpoint test host driver and tool, if built (mk/pcitest.sh):
# /lib/modules/extra-pcitest/pci_endpoint_test.ko, /usr/bin/pcitest, pcitest.sh
if [ -f "$top/build/pcitest/pci_endpoint_test.ko" ] && [ -x "$top/build/pcitest/pcitest" ]; then
	mkdir -p "$stage/lib/modules/extra-pcitest"
	cp "$top/build/pcitest/pci_endpoint_test.ko" "$stage/lib/modules/extra-pcitest/"
	cp "$top/build/pcitest/pcitest" "$top/build/pcitest/pcitest.sh" "$stage/usr/bin/"
fi

# --- topology of the co-simulated world
mkdir -p "$stage/etc/extoll"
if [ -n "${TOPOLOGY:-}" ]; then
	[ -f "$TOPOLOGY" ] || { echo "mkimage: no topology file $TOPOLOGY" >&2; exit 1; }
	cp "$TOPOLOGY" "$stage/etc/extoll/topology"
	sed 's/#.*//' "$TOPOLOGY" | awk '$1 == "node" && $3 == "host" { print $2; exit }' \
		>"$stage/etc/extoll/host-node"
	sed 's/#.*//' "$TOPOLOGY" | awk '$1 == "node" && $3 == "host" { printf "%s%s", s, $2; s = " " } END { print "" }' \
		>"$stage/etc/extoll/host-nodes"
	sed 's/#.*//' "$TOPOLOGY" | awk '$1 == "node" && $3 == "naa" { printf "%s%s", s, $2; s = " " } END { print "" }' \
		>"$stage/etc/extoll/naa-nodes"
fi

# --- scenario and init
cp "$script" "$stage/scenario"
chmod +x "$stage/scenario"
[ -f "$sim/scenarios/lib.sh" ] && cp "$sim/scenarios/lib.sh" "$stage/lib/scenario-lib.sh"
[ -f "$sim/scenarios/naa-lib.sh" ] && cp "$sim/scenarios/naa-lib.sh" "$stage/lib/naa-lib.sh"
# register offsets and fields for shell scenarios, from the generated C header
if [ -f "$top/hw/include/extoll_regs.h" ]; then
	sed -nE 's/^#define (EXTOLL_[A-Z0-9_]+)[[:space:]]+(0x[0-9a-fA-F]+|[0-9]+)(U?L*)?[[:space:]]*$/\1=\2/p' \
		"$top/hw/include/extoll_regs.h" >"$stage/lib/extoll_regs.sh"
	# and the records' constants (statuses, notification window offsets)
	sed -nE 's/^#define (EXTOLL_[A-Z0-9_]+)[[:space:]]+(0x[0-9a-fA-F]+|[0-9]+)(U?L*|u)?[[:space:]]*(\/\*.*\*\/)?[[:space:]]*$/\1=\2/p' \
		"$top/hw/include/extoll_records.h" >>"$stage/lib/extoll_regs.sh"
fi
cat >"$stage/init" <<EOF
#!/bin/busybox sh
# generated by sim/guest/mkimage.sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
echo "SCENARIO-START $scen"
while read -r m; do insmod /lib/modules/deps/\$m || echo "init: insmod \$m failed"; done </lib/modules/deps/order
cd /root
sh /scenario
rc=\$?
echo "SCENARIO-EXIT \$rc"
sync
# a scenario that plays a host crashing (two-hosts: the holder of an NAA dies)
# ends the guest by a kernel crash instead of a power-off: panic=-1 reboots at
# once and QEMU, run with -no-reboot, exits without the guest shutting anything down
[ -e /tmp/scenario-crash ] && echo c >/proc/sysrq-trigger
poweroff -f
EOF
chmod +x "$stage/init"
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
echo "mkimage: $out ($(du -h "$out" | cut -f1), modules: $nko ours, ${#deps[@]} Debian)"
