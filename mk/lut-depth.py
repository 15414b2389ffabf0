#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""mk/lut-depth.py NETLIST.json [TOP]: longest combinational path between sequential elements in a synth_ecp5 JSON netlist.
Sequential cut points: TRELLIS_FF, DP16KD (registered ports), module ports.
TRELLIS_DPR16X4 (LUT RAM): write side sequential, read (RAD->DO) combinational, one level.
Counts LUT4 levels and all logic cells (LUT4, PFUMX, L6MUX21, CCU2C, DPR16X4) on the path.
NETLIST: `synth_ecp5 -json` output (docs/benchmarks.md "ECP5", router logic depth). Yosys'
`ltp -noff` does not cut at TRELLIS_FF cells (it reports loops), hence this script."""
import json, sys
from collections import defaultdict
d = json.load(open(sys.argv[1]))
m = d['modules'][sys.argv[2] if len(sys.argv) > 2 else 'router']
cells = m['cells']
netname = {}
for n, v in m['netnames'].items():
    for b in v['bits']:
        if isinstance(b, int) and (b not in netname or (n.count('_') < netname[b].count('_'))):
            netname[b] = n
LOGIC = {'LUT4', 'PFUMX', 'L6MUX21', 'CCU2C', 'TRELLIS_DPR16X4'}
drv = {}          # bit -> cell driving it (logic cells only)
ins = {}          # cell -> input bits (combinational)
for cn, c in cells.items():
    t = c['type']
    if t not in LOGIC: continue
    pd = c['port_directions']
    ib, ob = [], []
    for p, bits in c['connections'].items():
        if t == 'TRELLIS_DPR16X4' and p not in ('RAD', 'DO'):  # write port: sequential
            continue
        for b in bits:
            if not isinstance(b, int): continue
            (ob if pd[p] == 'output' else ib).append(b)
    ins[cn] = ib
    for b in ob: drv[b] = cn
sys.setrecursionlimit(1000000)
memo = {}
def depth(cn):
    # (lut levels, cells, predecessor)
    if cn in memo: return memo[cn]
    memo[cn] = (0, 0, None)  # loop guard
    best = (0, 0, None)
    for b in ins[cn]:
        p = drv.get(b)
        if p is None: continue
        l, k, _ = depth(p)
        if (l, k) > best[:2]: best = (l, k, p)
    t = cells[cn]['type']
    r = (best[0] + (1 if t in ('LUT4', 'TRELLIS_DPR16X4') else 0), best[1] + 1, best[2])
    memo[cn] = r
    return r
# iterative warm-up to avoid deep recursion
order = list(ins)
for cn in order: depth(cn)
end = max(memo, key=lambda c: memo[c][:2])
l, k, _ = memo[end]
print(f'longest path: {l} LUT4 levels (LUT RAM reads counted as one), {k} logic cells')
path = []
c = end
while c is not None:
    path.append(c); c = memo[c][2]
path.reverse()
for c in path:
    t = cells[c]['type']
    outs = [b for p, bits in cells[c]['connections'].items() if cells[c]['port_directions'][p] == 'output' for b in bits if isinstance(b, int)]
    print(f'  {t:16s} {netname.get(outs[0], "?")[:110] if outs else ""}')
# where the path starts: the inputs of the first cell
c0 = path[0]
srcs = set()
for p, bits in cells[c0]['connections'].items():
    if cells[c0]['port_directions'][p] == 'input':
        for b in bits:
            if isinstance(b, int): srcs.add(netname.get(b, '?')[:110])
print('  first cell inputs:', sorted(srcs)[:6])
# histogram
hist = defaultdict(int)
for c, (l, k, _) in memo.items(): hist[l] += 1
print('  cells by LUT level (top):', sorted(hist.items())[-6:])
