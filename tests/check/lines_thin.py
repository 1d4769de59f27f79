#!/usr/bin/python3
"""lines_thin.py CSV DIR X Y BY NCOLS — check skyplot lines/memory's thinning.

DIR is a SKYPLOT_KEEP directory of `skyplot lines CSV --x X --y Y --by BY
--width NCOLS` (one y column, one panel; BY a comma-separated list, names
"a=1 b=2" for several).  Recomputed here from the spec in man/skyplot.1:
each series sorted by x (points of one x in input order); the pen lifted where a step is more than 3 times
the series' median step; a series of more than NCOLS points is cut into
NCOLS columns across the panel's x range (all series), and each stretch
between gaps keeps, per column, its first, lowest, highest and last point
(the first of equal values), in x order; fewer points: all of them.
Checks every data file row for row (x and y to 1e-9), and, from the raw
data alone, that each column of each stretch shows the raw lowest and
highest value with at most 4 points.  Exit 0 when all holds."""
import csv
import glob
import math
import sys

import numpy as np

path, d, xcol, ycol, by, ncols = sys.argv[1:7]
ncols = int(ncols)
bys = [b for b in by.split(",") if b]
series = {}
for r in csv.DictReader(open(path)):
    if len(bys) == 1:
        name = r[bys[0]]
    else:
        name = " ".join(f"{b}={r[b]}" for b in bys)
    series.setdefault(name, []).append((float(r[xcol]), float(r[ycol])))
xlo = min(x for pts in series.values() for x, _ in pts)
xhi = max(x for pts in series.values() for x, _ in pts)


def column(x):
    if not xhi > xlo:
        return 0
    return min(max(math.floor((x - xlo) / (xhi - xlo) * ncols), 0), ncols - 1)


def stretches(pts):
    steps = [b[0] - a[0] for a, b in zip(pts, pts[1:]) if b[0] > a[0]]
    gap = 3 * float(np.median(steps)) if steps else math.inf
    out, cur = [], [pts[0]]
    for a, b in zip(pts, pts[1:]):
        if b[0] - a[0] > gap:
            out.append(cur)
            cur = []
        cur.append(b)
    out.append(cur)
    return out


def thinned(seg):
    rows, i = [], 0
    while i < len(seg):
        c, j = column(seg[i][0]), i
        while j < len(seg) and column(seg[j][0]) == c:
            j += 1
        ys = [y for _, y in seg[i:j]]
        lo = i + ys.index(min(ys))
        hi = i + ys.index(max(ys))
        rows += [seg[k] for k in sorted({i, lo, hi, j - 1})]
        i = j
    return rows


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


files = {}
for f in glob.glob(d + "/s*.dat"):
    lines = open(f).read().split("\n")
    files[lines[0].split('" "')[0].lstrip('"')] = lines[1:]
bad = 0
for name, pts in series.items():
    pts.sort(key=lambda p: p[0])  # stable: one x's points in input order
    if name not in files:
        print(f"{name}: no data file")
        bad = 1
        continue
    want = []
    for k, seg in enumerate(stretches(pts)):
        if k:
            want.append(None)
        want += thinned(seg) if len(pts) > ncols else seg
    got = [None if not l.strip() else tuple(float(v) for v in l.split()) for l in files[name]]
    while got and got[-1] is None:
        got.pop()
    if len(got) != len(want):
        print(f"{name}: {len(got)} rows, want {len(want)} (of {len(pts)} points)")
        bad = 1
        continue
    for g, w in zip(got, want):
        if (g is None) != (w is None) or (g and not (close(g[0], w[0]) and close(g[2], w[1]))):
            print(f"{name}: got {g}, want {w}")
            bad = 1
            break
    if len(pts) <= ncols or bad:
        continue
    # from the raw data alone: each column of each stretch, its extremes, at most 4 points
    drawn = [g for g in got]
    k = 0
    for seg in stretches(pts):
        rows = []
        while k < len(drawn) and drawn[k] is not None:
            rows.append(drawn[k])
            k += 1
        k += 1
        for c in {column(x) for x, _ in seg}:
            raw = [y for x, y in seg if column(x) == c]
            shown = [r[2] for r in rows if column(r[0]) == c]
            if len(shown) > 4 or not close(min(shown), min(raw)) or not close(max(shown), max(raw)):
                print(f"{name}: column {c}: shows {shown}, raw min {min(raw)} max {max(raw)}")
                bad = 1
                break
sys.exit(bad)
