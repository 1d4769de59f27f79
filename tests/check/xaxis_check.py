#!/usr/bin/python3
"""xaxis_check.py DIR [LO HI] — the chart kept in DIR by SKYPLOT_KEEP (plot.gp
and its data; one panel, an image terminal), drawn again by gnuplot to
/dev/null, has x tics far enough apart for their labels: on the plot area
gnuplot laid out (GPVAL_TERM_XMIN to _XMAX, pixels) over the x range it
drew (GPVAL_X_MIN to _MAX), one tic interval (set xtics STEP: a date axis)
is at least as wide as the longest line of the label format (set format x)
in gnuplot's own character cells (GPVAL_TERM_HCHAR / GPVAL_TERM_SCALE),
plus one; on a number axis (set format x '%g'), the longest label of the
tics drawn; an axis with gnuplot's own tics (autofreq: a single x) is not
checked for that.  With LO and HI, the x range drawn is exactly [LO, HI] (the data's)."""
import math
import os
import re
import subprocess
import sys

d = sys.argv[1]
script = open(os.path.join(d, "plot.gp"), encoding="utf-8").read()
step = re.search(r"^set xtics (\d+(?:\.\d+)?)", script, re.M)
fmt = re.search(r'^set format x "(.*)"', script, re.M)
numbers = re.search(r"^set format x '%g'$", script, re.M)
if step and not fmt and not numbers:
    sys.exit(f"{d}: set xtics STEP without set format x \"...\"")
step = float(step.group(1)) if step else None
# the label's widest line: %Y 4 characters, the other fields 2
label = max(len(re.sub(r"%[mdHMS]", "xx", re.sub(r"%Y", "xxxx", line))) for line in fmt.group(1).split("\\n")) if fmt else 0
script = re.sub(r"^set output$", "set output '/dev/null'", script, flags=re.M)
script += "\nprint GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_TERM_HCHAR, GPVAL_TERM_SCALE\n"
# the script names its data files relative to its directory: run it there
out = subprocess.run(["gnuplot"], input=script, capture_output=True, text=True, check=True, cwd=d).stderr
txmin, txmax, xmin, xmax, hchar, scale = (float(v) for v in out.strip().splitlines()[-1].split())
if step and numbers and not fmt:
    first, last = math.ceil(xmin / step - 1e-9), math.floor(xmax / step + 1e-9)
    label = max(len("%g" % (t * step + 0.0)) for t in range(first, last + 1)) if last >= first else 0
room = step * (txmax - txmin) / (xmax - xmin) if step else 0
need = (label + 1) * hchar / scale
if step and room < need:
    sys.exit(f"{d}: tics {step:g} s apart are {room:.1f} px on a plot {txmax - txmin:.0f} px wide, "
             f"labels of {label} characters need {need:.1f} px")
if len(sys.argv) > 3:
    lo, hi = float(sys.argv[2]), float(sys.argv[3])
    if abs(xmin - lo) > 1e-6 * max(1, abs(lo)) or abs(xmax - hi) > 1e-6 * max(1, abs(hi)):
        sys.exit(f"{d}: x range drawn [{xmin:.10g}, {xmax:.10g}], data [{lo:.10g}, {hi:.10g}]")
