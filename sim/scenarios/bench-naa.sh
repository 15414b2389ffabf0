#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Co-simulation benchmark: wall time to attach one network-attached
# accelerator (topology direct) and the remote requests it took (guest: extoll
# rra/requests; cosimd --stats: rra.req writes by op, the tunnelled config
# requests among them).
# topology: direct
. /lib/scenario-lib.sh
. /lib/naa-lib.sh
naa_setup || { finish; exit 1; }
NODE=${NAA_NODES%% *}
echo "BENCH-BEGIN"
naa_attach "$NODE" &&
	echo "BENCH attach node $NODE: $ATTACH_MS ms wall (guest clock), $ATTACH_REQS remote requests (rra/requests, config tunnel + RRA), $ATTACH_TIMEOUTS timeouts"
naactl detach "$NODE" >/dev/null
c0=$(rra_count requests); t0=$(now_ns)
naactl cfg "$NODE" 01:00.0 0 >/dev/null
i=1; while [ $i -lt 20 ]; do naactl cfg "$NODE" 01:00.0 0 >/dev/null; i=$((i + 1)); done
t1=$(now_ns)
echo "BENCH naactl cfg (one tunnelled config read per process) x20: $(( (t1 - t0) / 20000 )) us each, $(( $(rra_count requests) - c0 )) requests"
echo "BENCH-END"
finish
