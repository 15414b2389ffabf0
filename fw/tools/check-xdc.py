#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that a board's XDC and its top agree on the ports (test fw-u250).

    fw/tools/check-xdc.py TOP.sv BOARD.xdc

The top's ports are read from its ANSI port list (one port a line, as the
project's tops are written: `input wire logic [3:0] name,`). Every
`get_ports` of a constraint line (comments ignored) must name a port of the top
(`name` or `name[i]` with i in range, or a `name[*]` pattern of a vector), and
every port (every bit of a vector) must get a location (LOC or PACKAGE_PIN).
The `_n` half of a differential pair counts as placed when its `_p` half is
(Vivado places it with the `_p` pin). Exit 0 and one PASS line, or one line per
mismatch and exit 1.
"""
import re
import sys

PORT_RE = re.compile(r'^\s*(input|output|inout)\s+(?:wire\s+)?(?:logic\s+)?'
                     r'(?:\[(\d+):(\d+)\]\s*)?(\w+)\s*,?\s*(//.*)?$')


def top_ports(path):
    """{name: set of bit indices or None for a scalar}, from the module header."""
    ports = {}
    text = open(path).read()
    start = text.index('module ')
    header = text[start:text.index(');', text.index(') (', start))]
    for line in header.splitlines():
        m = PORT_RE.match(line)
        if not m:
            continue
        hi, lo, name = m.group(2), m.group(3), m.group(4)
        ports[name] = None if hi is None else set(range(int(lo), int(hi) + 1))
    return ports


def xdc_constraints(path):
    """[(line number, port expression, has a location)] for every get_ports."""
    out = []
    for no, raw in enumerate(open(path), 1):
        if raw.lstrip().startswith('#'):
            continue
        line = re.sub(r';\s*#.*$', '', raw)
        has_loc = bool(re.search(r'\b(LOC|PACKAGE_PIN)\b', line))
        for m in re.finditer(r'get_ports\s+(\{[^}]*\}|\S+?)\s*\]', line):
            for expr in m.group(1).strip('{}').split():
                out.append((no, expr, has_loc))
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    top, xdc = sys.argv[1], sys.argv[2]
    ports = top_ports(top)
    if not ports:
        print(f'FAIL check-xdc: no ports found in {top}')
        return 1
    errors = []
    placed = set()
    for no, expr, has_loc in xdc_constraints(xdc):
        m = re.fullmatch(r'(\w+)(?:\[(\d+|\*)\])?', expr)
        if not m or m.group(1) not in ports:
            errors.append(f'{xdc}:{no}: {expr}: not a port of the top')
            continue
        name, idx = m.group(1), m.group(2)
        bits = ports[name]
        if bits is None and idx is not None:
            errors.append(f'{xdc}:{no}: {expr}: {name} is a scalar')
            continue
        if bits is not None and idx is None:
            errors.append(f'{xdc}:{no}: {expr}: {name} is a vector, name a bit')
            continue
        if idx is not None and idx != '*' and int(idx) not in bits:
            errors.append(f'{xdc}:{no}: {expr}: index out of range')
            continue
        if has_loc:
            if idx == '*':
                errors.append(f'{xdc}:{no}: {expr}: a location for a pattern')
            else:
                placed.add((name, None if idx is None else int(idx)))
    nbits = 0
    for name, bits in sorted(ports.items()):
        for b in ([None] if bits is None else sorted(bits)):
            nbits += 1
            if (name, b) in placed:
                continue
            if name.endswith('_n') and (name[:-2] + '_p', b) in placed:
                continue
            errors.append(f'{top}: port {name}{"" if b is None else f"[{b}]"} has no location in {xdc}')
    for e in errors:
        print(e)
    if errors:
        print(f'FAIL check-xdc: {len(errors)} mismatch(es)')
        return 1
    print(f'PASS check-xdc: {len(ports)} ports ({nbits} bits) of {top.split("/")[-1]} placed, '
          f'every get_ports in {xdc.split("/")[-1]} names one')
    return 0


if __name__ == '__main__':
    sys.exit(main())
