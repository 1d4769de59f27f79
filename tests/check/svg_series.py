#!/usr/bin/python3
"""svg_series.py FILE N [TEXT] — FILE is well-formed SVG drawn by gnuplot with
exactly N plotted series (gnuplot_plot_K groups), and contains TEXT if given."""
import re
import sys
import xml.etree.ElementTree as ET

path, want = sys.argv[1], int(sys.argv[2])
ET.parse(path)  # raises on malformed XML
svg = open(path, encoding="utf-8").read()
n = len(re.findall(r'<g id="gnuplot_plot_\d+[a-z]*"', svg))
if n != want:
    sys.exit(f"{path}: {n} series, want {want}")
if len(sys.argv) > 3 and sys.argv[3] not in svg:
    sys.exit(f"{path}: text {sys.argv[3]!r} not found")
