#!/usr/bin/python3
"""svg_fills.py FILE N [NAME RGB] — FILE (a gnuplot SVG of skyplot plan) has
N key entries drawn as filled areas, no two alike: each entry's fill is
its own (colour, opacity) or, for a fill pattern, its own (colour, hatch
path).  With NAME and RGB ("153,153,153"), the entry NAME is filled with
that colour, and no other entry is grey (red = green = blue)."""
import re
import sys

path, want = sys.argv[1], int(sys.argv[2])
svg = open(path, encoding="utf-8").read()
fills = {}
for part in re.split(r'<g id="gnuplot_plot_\d+[a-z]*" >', svg)[1:]:
    m = re.match(r"<title>([^<]*)</title>", part)
    poly = re.search(r"<polygon\s+fill = '([^']*)'(?: fill-opacity = '([^']*)')?", part)
    if not m or not poly:
        continue
    fill = poly.group(1)
    if fill.startswith("url(#"):
        pid = fill[5:-1]
        pat = re.search(r"<pattern id='%s'.*?<path style='([^']*)' d='([^']*)'" % re.escape(pid), part, re.S)
        if not pat:
            sys.exit(f"{path}: {m.group(1)}: pattern {pid} not defined in its group")
        key = ("pattern", pat.group(1), pat.group(2))
    else:
        key = ("solid", re.sub(r"\s", "", fill), poly.group(2))
    fills[m.group(1)] = key
keys = list(fills.values())
dup = sorted({k for k in keys if keys.count(k) > 1})
if len(fills) != want or dup:
    sys.exit(f"{path}: {len(fills)} filled entries (want {want}); drawn alike: "
             + "; ".join(", ".join(n for n, k in fills.items() if k == d) for d in dup))
if len(sys.argv) > 4:
    name, rgb = sys.argv[3], "rgb(" + sys.argv[4] + ")"
    if fills.get(name, ("",))[:2] != ("solid", rgb):
        sys.exit(f"{path}: {name} filled {fills.get(name)}, want {rgb}")
    for n, k in fills.items():
        c = re.search(r"rgb\((\d+),(\d+),(\d+)\)", re.sub(r"\s", "", k[1]))
        if n != name and c and c.group(1) == c.group(2) == c.group(3):
            sys.exit(f"{path}: {n} is grey too ({k[1]}), like {name}")
