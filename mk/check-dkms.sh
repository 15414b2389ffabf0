#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Test dkms-build: DKMS (Debian's dkms) adds and builds our modules from the
# tree `make install-dkms` would install, against the installed headers of
# build/kernel/release (Debian 12's 6.1; not the running kernel's), with its
# own DKMS, source and install trees and its own MOK signing key in a
# temporary folder, then removes them. Leaves nothing on the machine: it
# checks that /var/lib/dkms, /usr/src and /lib/modules are as before.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$(cat "$top/build/kernel/release" 2>/dev/null || true)
[ -n "$krel" ] || { echo "dkms-build: no build/kernel/release (make deps)"; exit 1; }
kdir=/usr/src/linux-headers-$krel
[ -f "$kdir/Makefile" ] || { echo "dkms-build: no headers $kdir (make deps)"; exit 1; }
command -v dkms >/dev/null || { echo "dkms-build: dkms not installed (make deps)"; exit 1; }
ver=$("$top/mk/install.sh" version)
tmp=$(mktemp -d)
snap() { ls -laR /var/lib/dkms /usr/src /lib/modules/"$krel" 2>/dev/null | md5sum; }
before=$(snap)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$tmp/dkms" "$tmp/src" "$tmp/install"
"$top/mk/install.sh" dkms-src "$tmp/src/naa-extoll-$ver"
opts=(--dkmstree "$tmp/dkms" --sourcetree "$tmp/src" --installtree "$tmp/install"
      -m naa-extoll -v "$ver" -k "$krel" --kernelsourcedir "$kdir")
# signing as a Secure Boot host would (DKMS MOK), with a throw-away key
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.der
start=$(date +%s)
dkms add "${opts[@]}"
if ! dkms build "${opts[@]}"; then
	cat "$tmp"/dkms/naa-extoll/"$ver"/build/make.log 2>/dev/null
	exit 1
fi
echo "dkms-build: built in $(( $(date +%s) - start )) s"
dkms status --dkmstree "$tmp/dkms" --sourcetree "$tmp/src" --installtree "$tmp/install" -m naa-extoll
mods=$tmp/dkms/naa-extoll/$ver/$krel/x86_64/module
rc=0
for m in extoll naa_bus sample_accel; do
	f=$(ls "$mods/$m".ko* 2>/dev/null | head -1)
	if [ -z "$f" ]; then echo "FAIL $m.ko not built by DKMS"; rc=1; continue; fi
	vm=$(modinfo -F vermagic "$f" | awk '{ print $1 }')
	signer=$(modinfo -F signer "$f" || true)
	if [ "$vm" = "$krel" ]; then echo "ok: $(basename "$f") for $vm${signer:+, signed by '$signer'}"
	else echo "FAIL $(basename "$f"): vermagic $vm, expected $krel"; rc=1; fi
done
dkms remove "${opts[@]}" || rc=1
[ ! -e "$tmp/dkms/naa-extoll/$ver" ] || { echo "FAIL dkms remove left $tmp/dkms/naa-extoll/$ver"; rc=1; }
after=$(snap)
if [ "$before" = "$after" ]; then echo "ok: /var/lib/dkms, /usr/src, /lib/modules/$krel unchanged"
else echo "FAIL the machine's DKMS or module trees changed"; rc=1; fi
[ $rc = 0 ] && echo "PASS dkms-build" || echo "FAIL dkms-build"
exit $rc
