#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Re-indents 4-space SystemVerilog to the project's 2 spaces (docs/rtl-build.md),
changing only leading spaces. A file already indented by 2 is left as it is, so
running it twice changes nothing.

    mk/sv-reindent.py [--check] [FILE...]   default: every hand-written .sv/.svh under
                                            rtl/ (not rtl/gen/, which is generated)
    --check   only list the files it would change (exit 1 if any)

Each line that starts a statement, item or comment goes to half its indentation.
A continuation line (inside an unfinished statement or expression) moves by as
much as the line that started the statement, so alignment to an operand or an
opening bracket stays. A comment that lines up with the trailing comment of the
line above moves with that line."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svstyle  # noqa: E402

def is_four_space(lines):
    c = svstyle.step_counts(lines)
    return c.get(4, 0) > c.get(2, 0)


def reindent(text):
    lines = svstyle.split_lines(text)
    if not is_four_space(lines):
        return text
    raw = text.split("\n")
    out = []
    stack = []          # open brackets: True if opened at the end of its line (block list)
    boundary = True     # the previous code line finished its statement
    anchor_shift = 0    # shift of the line that started the current statement
    prev_shift, prev_ccol = 0, None
    block_shift = 0     # shift of the line a /* */ comment started on
    for k, (ind, code, ccol, inblk) in enumerate(lines):
        line = raw[k]
        if not line.strip():
            out.append(line)
            continue
        if inblk:
            shift = block_shift
        elif not code and ccol is not None and ccol == ind and prev_ccol == ind:
            shift = prev_shift          # a comment continuing the trailing comment above
        elif boundary or (code and code[0] in ")}]" and stack and stack[-1]):
            new = ind // 2 if ind % 4 == 0 else ind - (ind // 4) * 2
            shift = ind - new
            if code:
                anchor_shift = shift
        else:
            shift = anchor_shift if anchor_shift <= ind else ind // 2
        shift = max(0, min(shift, ind))
        out.append(line[shift:])
        # track the statement state after this line
        if code:
            svstyle.track_brackets(code, stack)
            boundary = svstyle.ends_statement(code, stack)
        if ccol is not None and not inblk:
            block_shift = shift
        prev_shift = shift
        prev_ccol = (ccol - 0) if ccol is not None else None
        if prev_ccol is not None and code:
            prev_ccol = ccol            # column in the old layout, compared with old columns
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    files = [a for a in args if a != "--check"] or svstyle.hand_written_sv()
    changed = []
    for f in files:
        text = open(f, encoding="utf-8").read()
        new = reindent(text)
        if new != text:
            changed.append(f)
            if not check:
                with open(f, "w", encoding="utf-8") as fh:
                    fh.write(new)
    for f in changed:
        print(("would re-indent " if check else "re-indented ") + os.path.relpath(f))
    if check:
        return 1 if changed else 0
    print(f"sv-reindent: {len(changed)} of {len(files)} file(s) re-indented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
