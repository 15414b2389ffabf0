#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The SystemVerilog layout check (test sv-style in mk/tests.list): 2 spaces per
indentation level, no tabs, no trailing whitespace, a final newline
(.editorconfig, docs/rtl-build.md). The indentation rule: the line after a block
opener (`begin`, `fork`, a `case` header, a port/parameter/struct/connection list
left open with `(` or `{`) is indented 2 spaces deeper than the opener, unless it
closes the block. Alignment inside statements is free.

    mk/check-sv-style.py [FILE...]   default: every hand-written .sv/.svh under rtl/
                                     (rtl/gen/ is generated and exempt)
mk/sv-reindent.py converts a 4-space file."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svstyle  # noqa: E402

MAX_REPORT = 5


def check(path):
    errs = []
    text = open(path, encoding="utf-8").read()
    if text and not text.endswith("\n"):
        errs.append((text.count("\n") + 1, "no newline at end of file"))
    raw = text.split("\n")
    for n, line in enumerate(raw, 1):
        if "\t" in line:
            errs.append((n, "tab character"))
        if line != line.rstrip():
            errs.append((n, "trailing whitespace"))
    lines = svstyle.split_lines(text)
    stack, boundary, start, in_macro = [], True, 0, False
    for k, (ind, code, _, inblk) in enumerate(lines):
        if inblk or not code:
            continue
        # a preprocessor line (and a `define's continuation lines) is no statement:
        # the next line starts one
        if in_macro or code.startswith("`"):
            in_macro = code.endswith("\\")
            boundary = True
            continue
        if boundary or code[0] in ")}]":
            start = ind     # indentation of the statement (or list closer) this line starts
        svstyle.track_brackets(code, stack)
        boundary = svstyle.ends_statement(code, stack)
        if svstyle.opener_kind(code) != "block":
            continue
        # a multi-line `if (...) begin` opens its block at the statement's level
        ind = start
        for j in range(k + 1, len(lines)):
            ind2, code2, _, inblk2 = lines[j]
            if inblk2 or not code2 or code2.startswith("`"):
                continue
            if not svstyle.CLOSER.match(code2) and ind2 != ind + 2:
                errs.append((j + 1, f"indented {ind2 - ind} spaces below line {k + 1} "
                                    f"(the style is 2: mk/sv-reindent.py)"))
            break
    return sorted(errs)


def main():
    files = sys.argv[1:] or svstyle.hand_written_sv()
    bad = 0
    for f in files:
        errs = check(f)
        if not errs:
            continue
        bad += 1
        rel = os.path.relpath(f, svstyle.ROOT)
        for n, msg in errs[:MAX_REPORT]:
            print(f"{rel}:{n}: {msg}")
        if len(errs) > MAX_REPORT:
            print(f"{rel}: ... {len(errs) - MAX_REPORT} more")
    if bad:
        print(f"FAIL sv-style: {bad} of {len(files)} file(s)")
        return 1
    print(f"PASS sv-style: {len(files)} file(s), 2-space indentation, no tabs or trailing blanks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
