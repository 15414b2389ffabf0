#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Linux's own PCI endpoint test suite against a remote device (docs/epf-test.md):
# the NAA (topology direct: host 0 <-> naa 1) carries the PCI endpoint test
# function (epf_test_top) below its root port. The host attaches node 1, loads
# the unmodified pci_endpoint_test.ko (built out of tree from Debian's
# linux-source-6.1 by mk/pcitest.sh), binds it with new_id and runs the
# unmodified tools/pci/pcitest.sh, then the READ/WRITE/COPY tests with DMA
# (pcitest -d). Every line pcitest prints is in the log; each OKAY counts as a
# PASS, each NOT OKAY / failure as a FAIL.
#
# Quick run (make test): pcitest.sh with its MSI-X loop cut to the vectors
# 1..64 and 2048 and its transfers to the sizes 1, 1024, 1025 (sed on a copy;
# everything else as shipped), DMA transfers of 1, 1024, 1025 and 65536 bytes.
# The kernel command line pcitest=full (make -C sim test-pcitest-full) runs
# pcitest.sh itself (MSI-X 1..2048, up to 1024001 bytes) and DMA up to 1024001.
# MPS/MRRS: as Linux leaves them (MRRS 512 B, the device's reset value Linux keeps;
# the NAA splits device reads into network reads of <= min(256 B, root-port MPS) and
# delivers the completions in order, issue 8 row 1); pcitest_mrrs=N on the kernel
# command line sets another MRRS with setpci. After the suite, the DMA READ/COPY
# tests run once more at MRRS 4096 B (setpci), then the MRRS Linux left is restored.
# topology: direct
# naa-device: epf-test
. /lib/scenario-lib.sh
. /lib/naa-lib.sh
FULL=0
grep -qw pcitest=full /proc/cmdline && FULL=1
MRRS=$(sed -n 's/.*pcitest_mrrs=\([0-9]*\).*/\1/p' /proc/cmdline)

naa_setup || { finish; exit 1; }
NODE=${NAA_NODES%% *}
naa_attach "$NODE" || { finish; exit 1; }
DEV=$ATTACH_DOMAIN:01:00.0
lspci -D -vv -s "$DEV" | grep -E "^[0-9a-f]|Region|MSI|DevCtl|MaxPayload|Interrupt" 
[ "$(cat /sys/bus/pci/devices/$DEV/vendor):$(cat /sys/bus/pci/devices/$DEV/device)" = 0x1ee7:0x0101 ] &&
	pass "endpoint test function 1ee7:0101 at $DEV" || { fail "endpoint test function at $DEV"; finish; exit 1; }

# Max_Read_Request_Size (Device Control 14:12): as Linux left it unless pcitest_mrrs=N
set_mrrs() {
	enc=0
	while [ $((128 << enc)) -lt "$1" ]; do enc=$((enc + 1)); done
	devctl=$(setpci -s "$DEV" CAP_EXP+8.w)
	setpci -s "$DEV" CAP_EXP+8.w=$(printf '%04x' $(( (0x$devctl & 0x8fff) | (enc << 12) )))
}
show_devctl() {
	devctl=$(setpci -s "$DEV" CAP_EXP+8.w)
	echo "device control 0x$devctl: MPS $((128 << ((0x$devctl >> 5) & 7))) B, MRRS $((128 << ((0x$devctl >> 12) & 7))) B"
}
[ -n "$MRRS" ] && set_mrrs "$MRRS"
show_devctl
devctl_linux=$devctl

check "insmod pci_endpoint_test.ko (unmodified, Debian linux-source-6.1)" \
	insmod /lib/modules/extra-pcitest/pci_endpoint_test.ko || { finish; exit 1; }
echo "1ee7 0101" >/sys/bus/pci/drivers/pci-endpoint-test/new_id
i=0
while [ ! -c /dev/pci-endpoint-test.0 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ -c /dev/pci-endpoint-test.0 ] && pass "pci-endpoint-test bound by new_id: /dev/pci-endpoint-test.0" ||
	{ fail "pci-endpoint-test bound by new_id"; dmesg | tail -n 20; finish; exit 1; }
dmesg | grep -i "pci-endpoint-test\|pci_endpoint_test\|INTx" | tail -n 5
echo "$DEV: irq $(cat /sys/bus/pci/devices/$DEV/irq), interrupt pin 0x$(setpci -s "$DEV" INTERRUPT_PIN)"

# every pcitest run (pcitest.sh's and ours) through a wrapper first in PATH that records
# its exit status: a run that printed no OKAY / NOT OKAY line (could not open the device,
# crashed) is counted too
mkdir -p /tmp/pcitest-bin
cat >/tmp/pcitest-bin/pcitest <<'EOF_WRAP'
#!/bin/sh
/usr/bin/pcitest "$@"
rc=$?
echo "$rc $*" >>/tmp/pcitest.runs
exit $rc
EOF_WRAP
chmod +x /tmp/pcitest-bin/pcitest
export PATH=/tmp/pcitest-bin:$PATH
rm -f /tmp/pcitest.runs

# the suite: pcitest.sh as shipped (full), or its own commands with fewer MSI-X vectors
t0=$(now_ms)
if [ $FULL = 1 ]; then
	echo "---- pcitest.sh (tools/pci/pcitest.sh, unmodified)"
	pcitest.sh >/tmp/pcitest.out 2>&1
else
	echo "---- pcitest.sh's commands, MSI-X vectors 1..64 and 2048, sizes 1, 1024, 1025"
	sed -e 's/while \[ \$msix -lt 2049 \]/while [ $msix -lt 65 ] || [ $msix -eq 2048 ]/' \
	    -e 's/msix=`expr \$msix + 1`/msix=`expr $msix + 1`; [ $msix -eq 65 ] \&\& msix=2048/' \
	    -e '/-s 102400[01]$/d' \
	    /usr/bin/pcitest.sh >/tmp/pcitest-quick.sh
	sh /tmp/pcitest-quick.sh >/tmp/pcitest.out 2>&1
fi
sizes="1 1024 1025 65536"
[ $FULL = 1 ] && sizes="1 1024 1025 1024000 1024001"
for cmd in r w c; do
	echo
	case $cmd in r) echo "Read Tests DMA" ;; w) echo "Write Tests DMA" ;; c) echo "Copy Tests DMA" ;; esac
	echo
	for s in $sizes; do pcitest -$cmd -d -s $s; done
done >>/tmp/pcitest.out 2>&1
# device reads of up to 4096 B through the NAA
set_mrrs 4096
{
	echo
	echo "Read / Copy Tests DMA at MRRS 4096 ($(show_devctl))"
	echo
	for s in 1025 65536; do pcitest -r -d -s $s; pcitest -c -d -s $s; done
} >>/tmp/pcitest.out 2>&1
setpci -s "$DEV" CAP_EXP+8.w="$devctl_linux"
t1=$(now_ms)
cat /tmp/pcitest.out
echo "---- end of pcitest output ($(( (t1 - t0) / 1000 )) s guest time)"
ok=$(grep -c ':[[:space:]]*OKAY$' /tmp/pcitest.out)
bad=$(grep -c 'NOT OKAY\|FAILED' /tmp/pcitest.out)
grep 'NOT OKAY\|FAILED' /tmp/pcitest.out | while IFS= read -r l; do echo "FAIL pcitest: $l"; done
NFAIL=$((NFAIL + bad))
NPASS=$((NPASS + ok))
runs=$(cat /tmp/pcitest.runs 2>/dev/null | wc -l)
nonzero=$(awk '$1 != 0' /tmp/pcitest.runs 2>/dev/null | wc -l)
awk '$1 != 0 { print "FAIL pcitest: exit " $0 }' /tmp/pcitest.runs 2>/dev/null
echo "PCITEST $ok OKAY, $bad not okay; $runs pcitest runs, $nonzero with a non-zero exit"
[ "$ok" -gt 0 ] && [ "$bad" -eq 0 ] && pass "pcitest suite: every case OKAY ($ok)" || fail "pcitest suite: $bad case(s) not OKAY"
# one OKAY per run: a run without its result line (no device, a crash) fails
[ "$runs" -gt 0 ] && [ "$ok" -eq "$runs" ] && [ "$nonzero" -eq 0 ] &&
	pass "pcitest: $runs runs, each exit 0 with its OKAY" ||
	fail "pcitest: $runs runs, $ok OKAY, $nonzero with a non-zero exit"
# every kind of test ran (pcitest.sh's BAR, legacy, MSI, MSI-X, READ/WRITE/COPY; ours with DMA)
missing=
for k in '-b' '-l' '-m' '-x' '-r -s' '-w -s' '-c -s' '-r -d' '-w -d' '-c -d'; do
	grep -q -- "^0 $k " /tmp/pcitest.runs 2>/dev/null || grep -qx -- "0 $k" /tmp/pcitest.runs 2>/dev/null ||
		missing="$missing '$k'"
done
[ -z "$missing" ] && pass "pcitest: every kind of test ran (BAR, legacy, MSI, MSI-X, read/write/copy, DMA)" ||
	fail "pcitest: no passing run of$missing"
grep "pci-endpoint-test\|NAA-MSI\|NAA-INTx" /proc/interrupts | head -n 5
naa_dmesg_clean 2>/dev/null
finish
