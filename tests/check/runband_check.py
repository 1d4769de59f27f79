#!/usr/bin/python3
"""runband_check.py USAGE.csv DIR — check skyplot skyline's percentile band.

DIR is a SKYPLOT_KEEP directory of `skyplot skyline USAGE.csv` with more
runs than --runs: s0.dat is the 10-90% band (x minutes, lo, hi), s1.dat the
median.  Recomputed here independently with numpy: runs aligned at their
first sample, bins of the median sample gap, a run's value in a bin the mean
of its samples there, else the previous bin's, 0 after its last sample;
numpy's default (linear, type-7) percentiles.  Exit 0 when every value
matches to 1e-9."""
import csv
import sys

import numpy as np

usage, d = sys.argv[1], sys.argv[2]
runs = {}
for r in csv.DictReader(open(usage)):
    runs.setdefault(r["run"], []).append((float(r["t"]), float(r["containers"])))
gaps = []
for pts in runs.values():
    pts.sort()
    gaps += [b[0] - a[0] for a, b in zip(pts, pts[1:]) if b[0] > a[0]]
w = float(np.median(gaps)) if gaps else 60.0
end = max(p[-1][0] - p[0][0] for p in runs.values())
nb = int(end // w) + 1
vals = []
for pts in runs.values():
    t0 = pts[0][0]
    last = int((pts[-1][0] - t0) // w)
    v, carry = [], 0.0
    for k in range(nb):
        ys = [y for t, y in pts if int((t - t0) // w) == k]
        if ys:
            carry = sum(ys) / len(ys)
        v.append(carry if k <= last else 0.0)
    vals.append(v)
vals = np.array(vals)
lo, mid, hi = (np.percentile(vals, q, axis=0) for q in (10, 50, 90))


def rows(name):
    out = []
    for line in open(f"{d}/{name}").read().split("\n")[1:]:
        if line.strip():
            out.append([float(x) for x in line.split()])
    return out


band, med = rows("s0.dat"), rows("s1.dat")
if len(band) != 2 * nb or len(med) != 2 * nb:
    sys.exit(f"{len(band)} band rows, {len(med)} median rows, want {2 * nb}")
for k in range(nb):
    for e in range(2):
        x = (k + e) * w / 60
        b, m = band[2 * k + e], med[2 * k + e]
        if abs(b[0] - x) > 1e-9 or abs(b[1] - lo[k]) > 1e-9 or abs(b[2] - hi[k]) > 1e-9 or abs(m[2] - mid[k]) > 1e-9:
            sys.exit(f"bin {k}: got band {b} median {m}, want x {x} lo {lo[k]} hi {hi[k]} median {mid[k]}")
print(f"{nb} bins of {w} s over {len(runs)} runs match")
