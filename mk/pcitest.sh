#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds Linux's PCI endpoint test host driver and tool, unmodified, out of tree,
# for the co-simulation guest (docs/epf-test.md): Debian's amd64 kernel does not
# ship pci_endpoint_test.ko.
#
#   mk/pcitest.sh [OUTDIR]     default OUTDIR build/pcitest
#
# From Debian's linux-source-6.1 package (mk/deps.sh installs it) only these files
# are extracted into OUTDIR/src (never committed):
#   drivers/misc/pci_endpoint_test.c  include/uapi/linux/pcitest.h
#   tools/pci/pcitest.c               tools/pci/pcitest.sh
# pci_endpoint_test.ko is built against the headers our modules build with
# (kernel/Makefile's KDIR: build/kernel/release), pcitest statically with the
# extracted uapi header. Products: OUTDIR/pci_endpoint_test.ko, OUTDIR/pcitest,
# OUTDIR/pcitest.sh. Idempotent: rebuilds only when the source archive is newer.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/pcitest}
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -1)
[ -n "$tarball" ] || { echo "pcitest: /usr/src/linux-source-6.1.tar.* missing (make deps: linux-source-6.1)" >&2; exit 1; }
if [ -f "$out/pci_endpoint_test.ko" ] && [ -x "$out/pcitest" ] && [ "$out/pcitest" -nt "$tarball" ] &&
   [ "$out/pci_endpoint_test.ko" -nt "$top/build/kernel/release" ]; then
	exit 0
fi
files=(drivers/misc/pci_endpoint_test.c include/uapi/linux/pcitest.h tools/pci/pcitest.c tools/pci/pcitest.sh)
rm -rf "$out" && mkdir -p "$out/src" "$out/kmod"
tar -xf "$tarball" -C "$out/src" --strip-components=1 "${files[@]/#/linux-source-6.1/}"
# the module: the driver's source as is, a one-line Kbuild, kernel/Makefile's KDIR
cp "$out/src/drivers/misc/pci_endpoint_test.c" "$out/kmod/"
echo 'obj-m := pci_endpoint_test.o' >"$out/kmod/Kbuild"
kdir=$(make -s -C "$top/kernel" help | sed -n 's/^KDIR=//p')
[ -n "$kdir" ] || { echo "pcitest: no KDIR from kernel/Makefile" >&2; exit 1; }
make -s -C "$kdir" M="$out/kmod" modules >"$out/kmod/build.log" 2>&1 ||
	{ cat "$out/kmod/build.log" >&2; echo "pcitest: module build failed" >&2; exit 1; }
cp "$out/kmod/pci_endpoint_test.ko" "$out/"
# the tool: as tools/pci/Makefile builds it (-O2 -Wall -D_GNU_SOURCE, the uapi
# header from the same tree), linked statically for the guest
${CC:-cc} -static -O2 -Wall -D_GNU_SOURCE -I"$out/src/include/uapi" -o "$out/pcitest" \
	"$out/src/tools/pci/pcitest.c"
cp "$out/src/tools/pci/pcitest.sh" "$out/pcitest.sh"
chmod +x "$out/pcitest.sh"
echo "pcitest: $out/pci_endpoint_test.ko ($(modinfo -F vermagic "$out/pci_endpoint_test.ko" | cut -d' ' -f1)), $out/pcitest, $out/pcitest.sh"
