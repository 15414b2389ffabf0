# SPDX-License-Identifier: Apache-2.0
"""SystemVerilog layout helpers shared by mk/check-sv-style.py (the style check)
and mk/sv-reindent.py (4-space to 2-space re-indenter).

The style (docs/rtl-build.md, .editorconfig): 2 spaces per indentation level,
spaces only, no trailing whitespace, a final newline. Files under rtl/gen/ are
generated and keep their generator's layout.

A line is split into its code (comments and string literals blanked) and its
leading spaces. An *opener* is a line after which the next line is one level
deeper: it ends with `begin` (optionally `begin : label`), `fork`, a `case`
header, or a bracket `(`, `{` (block-style lists: ports, parameters, struct
members, instance connections)."""
import os
import re
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CLOSER = re.compile(r"^(end\b|endcase\b|join|endgenerate|endfunction|endtask|`(else|elsif|endif)|[)}\]])")
BEGIN_END = re.compile(r"\b(begin|fork)(\s*:\s*\w+)?$")
CASE_HDR = re.compile(r"^((unique|priority)\s+)?case[zx]?\s*\(.*\)$")
EXPR_CTX = re.compile(r"(=|\?|&&|\|\||\breturn\b)")


def hand_written_sv():
    """The hand-written SystemVerilog of the tree: rtl/**/*.sv, *.svh, not rtl/gen/."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others",
                              "--exclude-standard", "rtl"], capture_output=True, text=True,
                             check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = [os.path.relpath(os.path.join(d, f), ROOT)
               for d, _, fs in os.walk(os.path.join(ROOT, "rtl")) for f in fs]
    return sorted(os.path.join(ROOT, p) for p in out
                  if p.endswith((".sv", ".svh")) and not p.startswith("rtl/gen/")
                  and os.path.exists(os.path.join(ROOT, p)))


def split_lines(text):
    """Per line: (indent, code, comment_col, in_block_comment_at_start).

    code has comments and strings blanked and is stripped; comment_col is the
    column of a // or /* comment on the line (None if none)."""
    res = []
    in_block = False
    for line in text.split("\n"):
        start_in_block = in_block
        indent = len(line) - len(line.lstrip(" "))
        code = []
        ccol = None
        i, n = 0, len(line)
        while i < n:
            c = line[i]
            if in_block:
                if line.startswith("*/", i):
                    in_block = False
                    i += 2
                    continue
                i += 1
                continue
            if line.startswith("//", i):
                if ccol is None:
                    ccol = i
                break
            if line.startswith("/*", i):
                if ccol is None:
                    ccol = i
                in_block = True
                i += 2
                continue
            if c == '"':
                j = i + 1
                while j < n and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                code.append('""')
                i = j + 1
                continue
            code.append(c)
            i += 1
        res.append((indent, "".join(code).strip(), ccol, start_in_block))
    return res


def opener_kind(code):
    """'block' if the next line must be one level deeper, 'expr' for an
    expression bracket left open at the end of the line, else None."""
    if not code or code.startswith("`"):
        return None
    if BEGIN_END.search(code) or CASE_HDR.match(code):
        return "block"
    if code.endswith(("(", "{", "[")):
        body = code[:-1]
        if code.endswith("(") and EXPR_CTX.search(body):
            return "expr"
        return "block"
    return None


def step_counts(lines):
    """How far the line after each block opener is indented: {delta: count}."""
    counts = {}
    for k, (ind, code, _, inblk) in enumerate(lines):
        if inblk or opener_kind(code) != "block":
            continue
        for ind2, code2, _, inblk2 in lines[k + 1:]:
            if inblk2 or not code2 or code2.startswith("`"):
                continue
            if not CLOSER.match(code2):
                d = ind2 - ind
                counts[d] = counts.get(d, 0) + 1
            break
    return counts


END_KW = re.compile(r"\b(end|endcase|endfunction|endtask|endmodule|endpackage|endinterface|"
                    r"endgenerate|endclass|join|join_any|join_none|else|generate|begin|fork)"
                    r"(\s*:\s*\w+)?$")
CONTROL = re.compile(r"^(end\s+)?(else\s+)?((unique|priority)\s+)?"
                     r"(if|for|foreach|while|repeat|always\w*|initial|final|forever)\b")
PREPROC_CONT = re.compile(r"\\$")


def ends_statement(code, stack):
    """True if the line whose code is `code` leaves no statement unfinished."""
    if not code:
        return True
    if code.startswith("`") and not PREPROC_CONT.search(code):
        return True
    if code.endswith(";") or code.endswith(":") or END_KW.search(code):
        return True
    if opener_kind(code) == "block":
        return True
    if code.endswith(",") and (not stack or stack[-1]):
        return True
    if CONTROL.match(code) and code.endswith(")") and not stack:
        return True
    if code.startswith(")") and not stack:
        return True
    return False


def track_brackets(code, stack):
    """Update the stack of open brackets (True: opened at the end of its line)."""
    for i, ch in enumerate(code):
        if ch in "([{":
            stack.append(i == len(code) - 1)
        elif ch in ")]}" and stack:
            stack.pop()
