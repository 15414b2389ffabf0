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

pkgs=(build-essential verilator qemu-system-x86 busybox-static pciutils iproute2
      cpio gzip kmod zstd python3 python3-venv libjson-c-dev libpci-dev zlib1g-dev "$kabi_pkg"
      linux-source-6.1)   # pci_endpoint_test.c and pcitest (mk/pcitest.sh)

need=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "deps: installing Debian packages: ${need[*]}"
	SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
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
