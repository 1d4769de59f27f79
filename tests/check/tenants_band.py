#!/usr/bin/python3
"""tenants_band.py UTIL.csv CLASSES.csv DIR — check skyplot tenants' bands.

DIR is a SKYPLOT_KEEP directory of `skyplot tenants UTIL.csv --classes
CLASSES.csv`.  Recomputed here independently with numpy from the spec in
lib/plot/charts.h: bin width w = the median gap between a tenant's
consecutive samples (all tenants pooled), bins from the first sample t0; a
tenant's value in a bin is the mean of its samples there (w is at least
1/500 of the time span); per class and bin
the type-7 10th, 50th and 90th percentiles over the class's tenants; a blank
line (the pen lifted) where consecutive bins are more than 3 w apart.
Checks every data file (x low high mid, name "class K (N tenants)") to 1e-9
and that plot.gp draws each band and its median line in one colour with one
key entry per class.  Exit 0 when all holds."""
import csv
import glob
import math
import re
import sys

import numpy as np

util, classes_path, d = sys.argv[1:4]
cls = {}
for r in csv.DictReader(open(classes_path)):
    if r["tenant"] and r["class"]:
        cls[r["tenant"]] = r["class"]
series = {}
for r in csv.DictReader(open(util)):
    series.setdefault(r["tenant"], []).append((float(r["t"]), float(r["util"])))
gaps, t0 = [], math.inf
for pts in series.values():
    pts.sort()
    t0 = min(t0, pts[0][0])
    gaps += [b[0] - a[0] for a, b in zip(pts, pts[1:]) if b[0] > a[0]]
w = float(np.median(gaps)) if gaps else 60.0
t1 = max(p[-1][0] for p in series.values())
w = max(w, (t1 - t0) / 500)   # at most about 500 bins across the chart
want = {}      # class -> {bin: [tenant means]}
ntenants = {}
for ten, pts in series.items():
    c = cls.get(ten)
    if c is None:
        continue
    ntenants[c] = ntenants.get(c, 0) + 1
    per = {}
    for t, u in pts:
        per.setdefault(t0 + math.floor((t - t0) / w) * w, []).append(u)
    for b, us in per.items():
        want.setdefault(c, {}).setdefault(b, []).append(sum(us) / len(us))

bad = 0
def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))

seen = set()
for path in sorted(glob.glob(d + "/s*.dat")):
    lines = open(path).read().split("\n")
    m = re.match(r'"class (.*) \((\d+) tenants?\)" "low" "high" "mid"$', lines[0])
    if not m:
        print(f"{path}: header {lines[0]!r}"); bad = 1; continue
    c, n = m.group(1), int(m.group(2))
    seen.add(c)
    if ntenants.get(c) != n:
        print(f"class {c}: {n} tenants, want {ntenants.get(c)}"); bad = 1
    exp = []
    prev = None
    for b in sorted(want[c]):
        if prev is not None and b - prev > 3 * w:
            exp.append(None)
        v = np.array(want[c][b])
        exp.append((b, np.percentile(v, 10), np.percentile(v, 90), np.percentile(v, 50)))
        prev = b
    got = [None if not l.strip() else tuple(map(float, l.split())) for l in lines[1:] if l != "" or True]
    while got and got[-1] is None:   # the file's final newline
        got.pop()
    if len(got) != len(exp):
        print(f"class {c}: {len(got)} rows, want {len(exp)}"); bad = 1; continue
    for g, e in zip(got, exp):
        if (g is None) != (e is None) or (g and not all(close(x, y) for x, y in zip(g, e))):
            print(f"class {c}: got {g}, want {e}"); bad = 1; break
if seen != set(want):
    print(f"classes drawn {sorted(seen)}, want {sorted(want)}"); bad = 1
gp = open(d + "/plot.gp").read()
pairs = re.findall(r"filledcurves fs transparent solid [0-9.]+ noborder lc rgb '(#[0-9a-f]+)' notitle, \\\n"
                   r"    '[^']*' using 1:4 with lines lw 2 lc rgb '(#[0-9a-f]+)' title columnheader", gp)
if len(pairs) != len(want) or any(a != b for a, b in pairs):
    print(f"plot.gp: {len(pairs)} band+median pairs in one colour, want {len(want)}"); bad = 1
if gp.count("title columnheader") != len(want):
    print(f"plot.gp: {gp.count('title columnheader')} key entries, want {len(want)}"); bad = 1
sys.exit(bad)
