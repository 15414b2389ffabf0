#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarise a Yosys `stat` report: cells, flip-flops and memories per module
(excluding submodules) and for the whole hierarchy."""
import re
import sys

mods, cur = [], None
for line in open(sys.argv[1]):
    m = re.match(r"^=== (.*) ===", line)
    if m:
        name = m.group(1)
        name = re.sub(r"^\$paramod\$[0-9a-f]+\\", "", name)
        name = re.sub(r"^\$paramod\\([A-Za-z0-9_]+)\\.*", r"\1", name)
        cur = {"name": name, "cells": 0, "ff": 0, "mem": 0}
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
    elif re.match(r"\$_(S?DFF|DFFE|SDFFE|SDFFCE|SDFFC|ALDFF|DFFSR)", what):
        cur["ff"] += n
    elif what == "$mem_v2":
        cur["mem"] += n
for m in mods:
    label = "total (hierarchy)" if m["name"] == "design hierarchy" else m["name"]
    print(f"  {label:<18} {m['cells']:>7} cells {m['ff']:>6} flip-flops {m['mem']:>3} memories")
