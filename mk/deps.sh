#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs everything the project needs; idempotent. Called by `make deps` and,
# through the stamp file, by every target that needs a tool.
#   Debian packages: toolchains, QEMU, busybox, pciutils, the kernel headers.
#   The Debian kernel image that matches the headers, unpacked into build/kernel
#   (never installed into the machine's /boot).
#   PyPI tools, pinned, in the project's virtual environment build/venv.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
mkdir -p "$build"

# Kernel ABI we boot and build against (Debian bookworm's linux-image-amd64).
kabi_pkg=linux-headers-amd64

pkgs=(build-essential verilator clang-14 qemu-system-x86 busybox-static pciutils iproute2
      cpio gzip kmod zstd python3 python3-venv python3-dev libjson-c-dev libpci-dev zlib1g-dev "$kabi_pkg"
      libpcap-dev tshark    # cosimd --pcap (libpcap's writer); test pcap-dissect
      openmpi-bin libopenmpi-dev   # the distributed world (sim/world/world_mpi.c, test world-mpi)
      tcl                          # fw-u250 runs the board's constraint Tcl on a stub netlist
      dwarves pkgconf dkms debhelper dh-dkms lintian fakeroot dpkg-dev
      linux-source-6.1)   # pci_endpoint_test.c and pcitest (mk/pcitest.sh); python3-dev: cocotb builds its VPI library

need=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "deps: installing Debian packages: ${need[*]}"
	SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	# tshark asks whether non-root users may capture: no (we only read files)
	echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# The kernel release the headers are for, e.g. 6.1.0-56-amd64.
krel=$(dpkg-query -W -f='${Depends}' "$kabi_pkg" | sed -E 's/.*linux-headers-([^ ,]+).*/\1/')
kdir=$build/kernel
if [ ! -f "$kdir/vmlinuz-$krel" ] || [ ! -d "$kdir/lib/modules/$krel" ]; then
	echo "deps: unpacking linux-image-$krel into $kdir"
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download "linux-image-$krel" >/dev/null 2>&1 || {
		SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo; $SUDO apt-get update -qq;
		apt-get download "linux-image-$krel"; })
	rm -rf "$kdir.tmp" && mkdir -p "$kdir.tmp"
	dpkg-deb -x "$tmp"/linux-image-*.deb "$kdir.tmp"
	cp "$kdir.tmp/boot/vmlinuz-$krel" "$kdir.tmp/"
	rm -rf "$kdir" && mv "$kdir.tmp" "$kdir"
	rm -rf "$tmp"
fi
echo "$krel" > "$build/kernel/release"

# The second kernel we support: bookworm's 6.12 (linux-6.12). Its headers package
# depends on its image, so neither is installed: headers, common headers, kbuild
# and image are unpacked into build/kernel-6.12 (headers under usr/src, the image
# as for 6.1). The newest 6.12 in the archive unless K612_RELEASE names one.
k612=$build/kernel-6.12
k612_rel=${K612_RELEASE:-$(cat "$k612/release" 2>/dev/null || true)}
k612_newest() { apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' |
	awk '{ print $1 }' | sed 's/^linux-headers-//' | sort -V | tail -1; }
[ -n "$k612_rel" ] || k612_rel=$(k612_newest)
if [ -z "$k612_rel" ]; then   # no package lists yet
	SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo; $SUDO apt-get update -qq
	k612_rel=$(k612_newest)
fi
[ -n "$k612_rel" ] || { echo "deps: no linux-headers-6.12.*+deb12-amd64 in the archive (apt-get update?)" >&2; exit 1; }
if [ ! -f "$k612/vmlinuz-$k612_rel" ] || [ ! -f "$k612/usr/src/linux-headers-$k612_rel/Makefile" ]; then
	echo "deps: unpacking linux-image/headers-$k612_rel into $k612"
	v=${k612_rel%-amd64}
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download "linux-image-$k612_rel" "linux-headers-$k612_rel" \
		"linux-headers-$v-common" "linux-kbuild-$v") >/dev/null 2>&1 ||
		{ echo "deps: cannot download the 6.12 packages ($k612_rel)" >&2; rm -rf "$tmp"; exit 1; }
	rm -rf "$k612.tmp" && mkdir -p "$k612.tmp"
	for d in "$tmp"/*.deb; do dpkg-deb -x "$d" "$k612.tmp"; done
	cp "$k612.tmp/boot/vmlinuz-$k612_rel" "$k612.tmp/"
	# the arch headers' Makefile includes the common one by its absolute /usr/src path
	sed -i "s|/usr/src/|$k612/usr/src/|" "$k612.tmp/usr/src/linux-headers-$k612_rel/Makefile"
	rm -rf "$k612" && mv "$k612.tmp" "$k612"
	rm -rf "$tmp"
fi
echo "$k612_rel" > "$k612/release"

# Python tools, pinned, in a project-local virtual environment.
venv=$build/venv
req=$top/mk/requirements.txt
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$venv/requirements.txt"; then
	echo "deps: creating $venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
	cp "$req" "$venv/requirements.txt"
fi
touch "$build/deps.stamp"
