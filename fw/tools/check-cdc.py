#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the crossings' constraints name cells the RTL has (test fw-u250).

    fw/tools/check-cdc.py CDC.tcl RTL_DIR

fw/boards/common/cdc.tcl finds every instance of a module (`foreach inst [cdc_cells
MOD]`) and constrains cells below it by name (`"$inst/u_wptr_sync/chain_q_reg[0][*]"`).
Vivado names a register after its RTL variable with `_reg`, an instance after its RTL
instance name; a renamed register or instance would leave the crossing unconstrained
(the script only warns), so this check resolves every such path against the RTL: each
instance name must be instantiated in the module it is looked up in (its module then
being the next one to look in), and the last part, without `_reg` and indices, must be
a variable declared in the module reached. Each module's source is RTL_DIR/**/MOD.sv.
Also: every module cdc.tcl names must exist, and every module of rtl/lib with a chain
of synchronising flip-flops (ASYNC_REG) must be one of them. Exit 0 and one PASS line,
or one line per problem and exit 1.
"""
import glob
import os
import re
import sys

FOREACH_RE = re.compile(r'foreach\s+inst\s+\[cdc_cells\s+(\w+)\]')
PATH_RE = re.compile(r'"\$inst/([\w/]+?)_reg[^"]*"')
INST_RE = r'^\s*(\w+)\s*(?:#\s*\([^;]*?\))?\s*{}\s*\('
DECL_RE = r'^\s*(?:\(\*.*?\*\)\s*)?(?:logic|reg|wire)\b[^;=]*?\b{}\b'


def source(rtl, mod):
    hits = glob.glob(os.path.join(rtl, '**', mod + '.sv'), recursive=True)
    return open(hits[0]).read() if len(hits) == 1 else None


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    tcl, rtl = sys.argv[1], sys.argv[2]
    problems, mods, paths = [], set(), 0
    cur = None
    for n, line in enumerate(open(tcl), 1):
        line = line.split('#', 1)[0] if line.lstrip().startswith('#') else line
        m = FOREACH_RE.search(line)
        if m:
            cur = m.group(1)
            mods.add(cur)
            if source(rtl, cur) is None:
                problems.append(f'{tcl}:{n}: module {cur}: no single {cur}.sv under {rtl}')
            continue
        for p in PATH_RE.findall(line):
            if cur is None:
                problems.append(f'{tcl}:{n}: $inst/{p} outside a foreach over cdc_cells')
                continue
            paths += 1
            mod, parts = cur, p.split('/')
            for inst in parts[:-1]:
                text = source(rtl, mod) or ''
                im = re.search(INST_RE.format(re.escape(inst)), text, re.M | re.S)
                if not im:
                    problems.append(f'{tcl}:{n}: {mod} has no instance {inst}')
                    mod = None
                    break
                mod = im.group(1)
            if mod is None:
                continue
            text = source(rtl, mod)
            if text is None:
                problems.append(f'{tcl}:{n}: module {mod} (of $inst/{p}) not found')
            elif not re.search(DECL_RE.format(re.escape(parts[-1])), text, re.M):
                problems.append(f'{tcl}:{n}: {mod} declares no {parts[-1]} ($inst/{p}_reg)')
    # every synchroniser module of the shared library is constrained
    for f in sorted(glob.glob(os.path.join(rtl, 'lib', '*.sv'))):
        mod = os.path.basename(f)[:-3]
        if 'ASYNC_REG' in open(f).read() and mod not in mods:
            problems.append(f'{f}: {mod} has ASYNC_REG flip-flops but {tcl} does not constrain it')
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f'PASS check-cdc: {len(mods)} modules, {paths} cell paths found in the RTL')
    return 0


if __name__ == '__main__':
    sys.exit(main())
