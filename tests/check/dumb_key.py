#!/usr/bin/env python3
"""dumb_key.py N1[,N2...] < chart.txt — the key of a text chart (skyplot
--term dumb, gnuplot's dumb terminal, key below each panel) names every
series with a character no other series of its panel uses.

A panel is drawn between its top and bottom frame lines (+-----...+); a
short key stands right of the frame, a long one below it, after the x tic
labels and the x axis label, in rows up to a blank line.  A key
entry is its title, a space and a 7-column sample: seven of one character
for a line, or the character alone in the middle ("   o   ") for one drawn
at points.  Fails (exit 1, saying why) when a panel repeats a character,
or when the panels' entries are not N1, N2, ... (one count per panel)."""
import re
import sys

FRAME = re.compile(r"^\s*\S*\s*\+-{20,}\+\s*$")
LINE = re.compile(r"(?:^|(?<=\s))(\S)\1{6}(?!\1)")
POINT = re.compile(r"(?<=\S {4})(\S)(?= {3}|\s*$)")


def keys(rows):
    """Yield the key rows of each panel, a list per panel: what stands right
    of the frame (a key beside the plot) and the rows below it."""
    i = 0
    while i < len(rows):
        if not (FRAME.match(rows[i]) and i + 1 < len(rows) and "|" in rows[i + 1]):
            i += 1
            continue
        right = rows[i].rindex("+") + 1  # the top frame: a panel starts
        panel = []
        i += 1
        while i < len(rows) and not FRAME.match(rows[i]):
            panel.append(rows[i][right:])
            i += 1
        k = i + 3  # the bottom frame, tic labels, axis label
        while k < len(rows) and rows[k].strip():
            panel.append(rows[k])
            k += 1
        yield panel
        i = k


def main():
    need = [int(v) for v in sys.argv[1].split(",")]
    rows = sys.stdin.read().split("\n")
    panels = list(keys(rows))
    if len(panels) != len(need):
        sys.exit("%d panels, want %d" % (len(panels), len(need)))
    for n, panel in enumerate(panels):
        chars = []
        for row in panel:
            found = [(m.start(), m.group(1)) for m in LINE.finditer(row)]
            found += [(m.start(), m.group(1)) for m in POINT.finditer(row)]
            chars += [c for _, c in sorted(found)]
        dup = sorted({c for c in chars if chars.count(c) > 1})
        if dup:
            sys.exit("panel %d: %d entries, characters %s used twice: %s"
                     % (n + 1, len(chars), " ".join(dup), "".join(chars)))
        if len(chars) != need[n]:
            sys.exit("panel %d: %d key entries, want %d: %s"
                     % (n + 1, len(chars), need[n], "".join(chars)))
        print("panel %d: %d entries: %s" % (n + 1, len(chars), "".join(chars)))


if __name__ == "__main__":
    main()
