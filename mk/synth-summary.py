#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarise a Yosys `stat` report for mk/rtl.mk's `make synth`: one line for the
top (cells, flip-flops, memories of the whole hierarchy), then cells, flip-flops
and memories per module (excluding submodules; the parameterised copies of a
module added up).

    synth-summary.py [--coarse] NAME STATFILE

--coarse: a `stat -width` report of Yosys' coarse cells (make synth-check): the
flip-flops are the bits of the coarse flip-flop cells ($dff_8 = 8 bits).
"""
import re
import sys

args = sys.argv[1:]
coarse = bool(args) and args[0] == "--coarse"
if coarse:
    args = args[1:]
name, path = args[0], args[1]
COARSE_FF = re.compile(r"\$(a?dffe?|sdff[ce]?e?|aldffe?|dffsre?|ff)_(\d+)$")
mods, cur = [], None
for line in open(path):
    m = re.match(r"^=== (.*) ===", line)
    if m:
        mod = m.group(1)
        mod = re.sub(r"^\$paramod\$[0-9a-f]+\\", "", mod)
        mod = re.sub(r"^\$paramod\\([A-Za-z0-9_]+)\\.*", r"\1", mod)
        cur = {"name": mod, "cells": 0, "ff": 0, "mem": 0}
        mods.append(cur)
        continue
    if cur is None:
        continue
    m = re.match(r"^\s+(\d+)\s+(\S+)\s*$", line)
    if not m:
        continue
    n, what = int(m.group(1)), m.group(2)
    if what == "cells":
        cur["cells"] = n
    elif coarse and COARSE_FF.match(what):
        cur["ff"] += n * int(COARSE_FF.match(what).group(2))
    elif re.match(r"\$_(S?DFF|DFFE|SDFFE|SDFFCE|SDFFC|ALDFF|DFFSR)", what):
        cur["ff"] += n
    elif what == "$mem_v2" or (coarse and re.match(r"\$mem_v2_\d+$", what)):
        cur["mem"] += n
if not mods:
    sys.exit(f"synth-summary: no module statistics in {path}")
# the design hierarchy entry holds the totals; a design of one module has none
total = next((m for m in mods if m["name"] == "design hierarchy"), mods[0])
# a top optimised away (outputs tied off, logic lost) would pass the latch check: no
# top synthesizes to fewer cells or to no flip-flop at all
if total["cells"] < 100 or total["ff"] == 0:
    sys.exit(f"synth-summary: {name} synthesized to {total['cells']} cells, {total['ff']} flip-flops: "
             "optimised away?")
mems = f", {total['mem']} memories" if total["mem"] else ""
if coarse:
    print(f"  synth-check {name}: {total['cells']} coarse cells ({total['ff']} flip-flop bits{mems}), no latches")
else:
    print(f"  synth {name}: {total['cells']} cells ({total['ff']} flip-flops{mems}), no latches")
# parameterised copies of a module (one per parameter set) are summed in one line
rows = {}
for m in mods:
    if m is total:
        continue
    r = rows.setdefault(m["name"], {"n": 0, "cells": 0, "ff": 0, "mem": 0})
    r["n"] += 1
    for k in ("cells", "ff", "mem"):
        r[k] += m[k]
if len(mods) > 1:
    for mod, r in rows.items():
        label = f"{mod} (x{r['n']})" if r["n"] > 1 else mod
        print(f"      {label:<26} {r['cells']:>7} cells {r['ff']:>6} flip-flops {r['mem']:>3} memories")
