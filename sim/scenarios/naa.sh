#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Remote PCIe hierarchy: the host attaches the network-attached accelerator
# at node 1 (topology direct: host 0 <-> naa 1) as a new PCI domain whose
# config space is tunnelled through the network; the guest's PCI core
# enumerates it, lspci/setpci reach the accelerator, detach/attach again, a
# node that does not exist fails fast and cleanly.
# topology: direct
. /lib/scenario-lib.sh
. /lib/naa-lib.sh

naa_setup || { finish; exit 1; }
NODE=${NAA_NODES%% *}
before=$(lspci -D | cut -d: -f1 | sort -u | tr '\n' ' ')

# ---- attach
naa_attach "$NODE" || { finish; exit 1; }
dom=$ATTACH_DOMAIN
echo "NAA-ATTACH node $NODE: $ATTACH_MS ms wall (guest), $ATTACH_REQS remote requests (rra/requests), $ATTACH_TIMEOUTS timeouts"
lspci -D -tv
naa_check_domain "$dom"
# the attach ioctl's result, and the node's sysfs link to the same root bus
[ "$ATTACH_ROOT_BUS" = "$dom:00" ] && pass "attach returns root bus $dom:00" ||
	fail "attach returns root bus $dom:00 ('$ATTACH_ROOT_BUS')"
link=$(readlink "$NIC_DEV"/extoll.naa.*/root_bus)
[ "${link##*/}" = "$dom:00" ] && pass "sysfs root_bus link -> $link" || fail "sysfs root_bus link -> $dom:00 ('$link')"

# ---- the accelerator's config space, through the tunnel
v=$(lspci -vvv -s "$dom:01:00.0")
echo "$v"
echo "$v" | grep -q 'Memory at .* (64-bit, prefetchable) .*\[size=64M\]' &&
	pass "BAR: 64-bit prefetchable 64M" || fail "BAR: 64-bit prefetchable 64M"
n=$(echo "$v" | grep -c 'Region [0-9]: Memory at')
[ "$n" -ge 2 ] && pass "control BAR as well ($n memory BARs)" || fail "control BAR as well ($n memory BARs)"
for cap in 'MSI: Enable' 'MSI-X: Enable' 'Express (v2) Endpoint\|Express Endpoint\|Express (v[0-9]) ' 'Device Serial Number'; do
	echo "$v" | grep -q "Capabilities: .*\($cap\)" && pass "capability $cap" || fail "capability $cap"
done
lspci -vvv -s "$dom:00:00.0" | head -n 30

# setpci: MSI address register (writable, harmless while MSI is disabled)
old=$(setpci -s "$dom:01:00.0" CAP_MSI+4.l)
setpci -s "$dom:01:00.0" CAP_MSI+4.l=fee0a5a4
new=$(setpci -s "$dom:01:00.0" CAP_MSI+4.l)
[ "$new" = fee0a5a4 ] && pass "setpci write/read back MSI address (was $old, now $new)" ||
	fail "setpci write/read back MSI address (was $old, wrote fee0a5a4, read '$new')"
setpci -s "$dom:01:00.0" CAP_MSI+4.l="$old"
[ "$(setpci -s "$dom:01:00.0" CAP_MSI+4.l)" = "$old" ] && pass "setpci restore ($old)" || fail "setpci restore ($old)"

naactl list

# ---- the node's registers by name, in-band (table-routed and source-routed)
out=$(naactl regs "$NODE" info.id 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -Eq "^info\.id +0x0008 .* magic=0x4c545845 role=1 node_id=(0x)?$(printf '%x' "$NODE")\$" &&
	pass "naactl regs $NODE info.id: magic, role root port, node id" || fail "naactl regs $NODE info.id (exit $rc)"
out=$(naactl regs - info.id --route 0,7 -j 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q '"route":"X+,eject","local":false,"via":"rra"' &&
	echo "$out" | grep -q "\"node_id\":$NODE}" && pass "naactl regs --route 0,7 -j: node $NODE" ||
	fail "naactl regs --route 0,7 -j (exit $rc)"
out=$(naactl links "$NODE" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -Eq "^node $NODE \(rra\): [1-7] of 7 links up" &&
	pass "naactl links $NODE: a link up" || fail "naactl links $NODE (exit $rc)"
out=$(naactl -j links "$NODE" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^{\"node\":$NODE,\"route\":null,\"local\":false,\"via\":\"rra\",\"links_up\":[1-7]," &&
	pass "naactl -j links $NODE" || fail "naactl -j links $NODE (exit $rc): $out"

# the host NIC's own links in sysfs (link0/ .. link6/): on the direct topology
# X+ and X- (links 0, 1) reach node 1 and are up, the others down; no CRC errors
for l in 0 1 2 3 4 5 6; do
	echo "link$l: $(cat "$NIC_DEV/link$l/port") $(cat "$NIC_DEV/link$l/state")" \
		"crc_errors $(cat "$NIC_DEV/link$l/crc_errors") naks $(cat "$NIC_DEV/link$l/naks_sent")/$(cat "$NIC_DEV/link$l/naks_received")" \
		"replays $(cat "$NIC_DEV/link$l/replays") downs $(cat "$NIC_DEV/link$l/downs")"
done
[ "$(cat "$NIC_DEV/link0/port") $(cat "$NIC_DEV/link0/state") $(cat "$NIC_DEV/link1/state") $(cat "$NIC_DEV/link2/state")" = "X+ up up down" ] &&
	[ "$(cat "$NIC_DEV/link0/crc_errors")" = 0 ] &&
	pass "sysfs link0..6: X+/X- up, Y+ down, no CRC errors" ||
	fail "sysfs link0..6: X+/X- up, Y+ down, no CRC errors"

# ---- ownership (own block, docs/security.md): attach claimed the node for this host
hx=$(printf '%x' "$HOST_NODE")
out=$(naactl regs "$NODE" own.owner 2>&1); echo "$out"
echo "$out" | grep -Eq " node=(0x)?$hx held=1 " && pass "own.owner: held by this host (node $HOST_NODE)" ||
	fail "own.owner: held by this host (node $HOST_NODE)"
out=$(naactl release "$NODE" 2>&1); rc=$?
echo "$out"
[ $rc -eq 5 ] && echo "$out" | grep -q "naactl detach $NODE' releases it" &&
	pass "naactl release of an attached node refused (exit 5)" || fail "naactl release of an attached node refused (exit $rc)"

# ---- detach, attach again
if naactl detach "$NODE"; then pass "naactl detach $NODE"; else fail "naactl detach $NODE"; fi
lspci -D | grep -q "^$dom:" && fail "domain $dom gone after detach" || pass "domain $dom gone after detach"
out=$(naactl regs "$NODE" own.owner 2>&1); echo "$out"
echo "$out" | grep -Eq " held=0 " && pass "own.owner: free after detach" || fail "own.owner: free after detach"
out=$(naactl -j release --force "$NODE" 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$out" = "{\"node\":$NODE,\"state\":\"free\"}" ] && pass "naactl -j release --force: $out" ||
	fail "naactl -j release --force (exit $rc): $out"
naa_attach "$NODE" && naa_check_domain "$ATTACH_DOMAIN" && pass "attach again (domain $ATTACH_DOMAIN)" ||
	fail "attach again"
naactl detach "$NODE" >/dev/null && pass "naactl detach $NODE (second time)" || fail "naactl detach $NODE (second time)"

# ---- a node that does not exist
t0=$(now_ns)   # GNU date +%s%N
out=$(naactl attach 9 2>&1)
rc=$?
t1=$(now_ns)
ms=$(( (t1 - t0) / 1000000 ))
echo "naactl attach 9 -> exit $rc after $ms ms: $out"
[ $rc -ne 0 ] && pass "attach of node 9 (none) fails (exit $rc)" || fail "attach of node 9 (none) fails"
# 2 x (rra_timeout_us + rra_grace_cycles): under 1 s on a quiet machine, more when the
# fabric runs slowly on a loaded one
[ $ms -lt 10000 ] && pass "... within 10 s ($ms ms)" || fail "... within 10 s ($ms ms)"
echo "$out" | grep -q 'node 9 does not answer' && pass "... with a clear message" || fail "... with a clear message: $out"
after=$(lspci -D | cut -d: -f1 | sort -u | tr '\n' ' ')
[ "$after" = "$before" ] && pass "no domain left behind (domains: $after)" ||
	fail "no domain left behind (before: $before, after: $after)"
naactl list

# ---- the timeouts are health events of the NIC: devlink health reporter rra
dl=pci/$NIC_BDF
out=$(devlink health show "$dl" reporter rra 2>&1); rc=$?
echo "$out"
errs=$(echo "$out" | sed -n 's/.* error \([0-9]*\) .*/\1/p')
[ $rc -eq 0 ] && [ "${errs:-0}" -ge 1 ] && echo "$out" | grep -q 'state healthy' &&
	pass "devlink health show: reporter rra, $errs error(s), recovered to healthy" ||
	fail "devlink health show reporter rra (exit $rc)"
out=$(devlink health diagnose "$dl" reporter rra 2>&1); rc=$?
echo "$out"
to=$(echo "$out" | sed -n 's/.* timeouts: \([0-9]*\) .*/\1/p')
[ $rc -eq 0 ] && [ "$to" = "$(rra_count timeouts)" ] && [ "$to" -ge 1 ] &&
	pass "devlink health diagnose: timeouts $to = rra/timeouts" ||
	fail "devlink health diagnose: timeouts '$to' vs rra/timeouts $(rra_count timeouts) (exit $rc)"
out=$(devlink health dump show "$dl" reporter rra 2>&1); rc=$?
echo "$out"
# attach's first request to a node is naa_bus's claim: a write of own.claim (0xf10)
[ $rc -eq 0 ] && echo "$out" | grep -q "node: 9 operation: write address: $((0xf10)) " &&
	pass "devlink health dump: the request to node 9 that timed out" ||
	fail "devlink health dump (exit $rc)"
out=$(devlink -j health diagnose "$dl" reporter rra 2>&1)
echo "$out" | grep -q "\"timeouts\":$to," && pass "devlink -j health diagnose" ||
	fail "devlink -j health diagnose: $out"

# ---- the RRA timeout in the device's time (rra_grace_cycles, docs/kernel.md): 10 us
# of guest time alone is shorter than any round trip here; with a grace of
# RRA_GRACE_CYCLES device cycles after it, every request is answered
P=/sys/module/extoll/parameters
to_us=$(cat $P/rra_timeout_us)
echo 10 >$P/rra_timeout_us && echo 0 >$P/rra_grace_cycles
# (an answer can still be seen when the host deschedules QEMU between the request
# and the guest's first look at the record: 1 read in 5 here; 5 reads, one must fail)
t0=$(rra_count timeouts)
nok=0
for i in 1 2 3 4 5; do naactl rra read "$NODE" "$EXTOLL_INFO_ID" >/dev/null 2>&1 || nok=$((nok + 1)); done
t1=$(rra_count timeouts)
[ $nok -ge 1 ] && [ $((t1 - t0)) -eq $nok ] &&
	pass "rra_timeout_us 10, no grace: $nok of 5 RRA reads time out" ||
	fail "rra_timeout_us 10, no grace: $nok of 5 RRA reads failed (rra/timeouts $t0 -> $t1)"
echo "$RRA_GRACE_CYCLES" >$P/rra_grace_cycles
ok=0
for i in 1 2 3 4 5; do naactl rra read "$NODE" "$EXTOLL_INFO_ID" >/dev/null && ok=$((ok + 1)); done
t2=$(rra_count timeouts)
[ $ok -eq 5 ] && [ "$t2" = "$t1" ] &&
	pass "rra_timeout_us 10, rra_grace_cycles $RRA_GRACE_CYCLES: 5 of 5 RRA reads answered, no timeout" ||
	fail "rra_timeout_us 10, rra_grace_cycles $RRA_GRACE_CYCLES: $ok of 5 answered (rra/timeouts $t1 -> $t2)"
echo "$to_us" >$P/rra_timeout_us

naa_stats
naa_dmesg_clean
finish
