#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An interactive shell in the guest (sim/run --shell): nothing loaded, the tools and
# modules of the image at hand, for debugging the stack by hand. With several hosts
# every guest gets one (host 0 on sim/run's terminal, the others on TCP ports of
# 127.0.0.1: docs/cosim.md "Several hosts"). `exit` (or Ctrl-D) powers the guest off.
# topology: direct
. /lib/scenario-lib.sh
cat <<MSG
sim shell: host $HOST_INDEX of $NHOSTS (node $HOST_NODE), topology $TOPOLOGY (NAAs: $NAA_NODES)
  insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS; insmod /lib/modules/naa_bus.ko window_mb=128
  naactl route --topology $TOPOLOGY; naactl attach NODE; insmod /lib/modules/sample_accel.ko; sacc-test -d DEV
  . /lib/scenario-lib.sh for simctl (fault injection) and barrier NAME (all hosts)
MSG
trap - EXIT	# a user's session: leaving it is not a scenario stopping early
export HOST_INDEX HOST_NODE HOST_NODES NHOSTS NAA_NODES TOPOLOGY RRA_TIMEOUT_US RRA_GRACE_CYCLES EXTOLL_KO_PARAMS
# a controlling terminal for job control and Ctrl-C (busybox cttyhack)
setsid cttyhack sh -l
