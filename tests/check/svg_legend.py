#!/usr/bin/python3
"""svg_legend.py FILE N [--per-panel] — FILE (a gnuplot SVG of skyplot
tenants) has N legend entries "class ...", no two drawn alike: each
entry's line has its own (colour, dash pattern) pair; with --per-panel,
no two alike within one panel (each panel has its own key)."""
import re
import sys

path, want = sys.argv[1], int(sys.argv[2])
per_panel = "--per-panel" in sys.argv[3:]
svg = open(path, encoding="utf-8").read()
seen = {}
parts = re.split(r'<g id="gnuplot_plot_\d+([a-z]*)" >', svg)[1:]
for panel, part in zip(parts[0::2], parts[1::2]):
    m = re.match(r'<title>(class [^<]*)</title>', part)
    if not m:
        continue
    st = re.search(r"<path stroke='(rgb\([^)]*\))'(?: stroke-dasharray='([^']*)')?", part)
    if not st:
        sys.exit(f"{path}: {m.group(1)}: no line")
    seen.setdefault((panel if per_panel else "", st.group(1), st.group(2)), []).append(m.group(1))
n = sum(len(v) for v in seen.values())
dup = [v for v in seen.values() if len(v) > 1]
if n != want or dup:
    sys.exit(f"{path}: {n} classes (want {want}); drawn alike: {dup}")
