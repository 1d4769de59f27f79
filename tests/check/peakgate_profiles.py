#!/usr/bin/python3
"""Independent checker of peakgate profiles (tests/cli/peakgate.sh).

  peakgate_profiles.py INPUT PROFILES [--normal mean|pN] [--alloc-col alloc_mb]
                       [--well-use F] [--well-spread F] [--truth TRUTH --tol F]

Recomputes every task's normal, p90 (numpy's default linear percentile),
peak, waste and class from the raw INPUT with numpy and compares them with
PROFILES (peakgate's output).  With --truth (tracegen's task,class,normal_mb,
peak_mb), also checks that the profiles recover the generator's classes
exactly and its normal and peak within a relative --tol.  Exit 0 when all
agree.
"""
import argparse
import csv
import sys

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("profiles")
ap.add_argument("--normal", default="mean")
ap.add_argument("--mem-col", default="mem_mb")
ap.add_argument("--task-col", default="task")
ap.add_argument("--alloc-col", default="alloc_mb")
ap.add_argument("--well-use", type=float, default=0.75)
ap.add_argument("--well-spread", type=float, default=0.30)
ap.add_argument("--truth")
ap.add_argument("--tol", type=float, default=0.05)
a = ap.parse_args()

samples, alloc, order = {}, {}, []
with open(a.input, newline="") as f:
    for row in csv.DictReader(f):
        t = row[a.task_col]
        if t not in samples:
            samples[t] = []
            order.append(t)
        samples[t].append(float(row[a.mem_col]))
        if row.get(a.alloc_col):
            alloc[t] = float(row[a.alloc_col])

with open(a.profiles, newline="") as f:
    got = list(csv.DictReader(f))

bad = 0


def fail(msg):
    global bad
    bad += 1
    if bad <= 20:
        print("FAIL " + msg)


def near(x, y):
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))


if [r["task"] for r in got] != order:
    fail("tasks or their order differ: %s... vs %s..." % ([r["task"] for r in got][:5], order[:5]))
for r in got:
    x = np.array(samples.get(r["task"], [np.nan]))
    normal = x.mean() if a.normal == "mean" else np.percentile(x, float(a.normal[1:]))
    p90, peak = np.percentile(x, 90), x.max()
    al = alloc.get(r["task"])
    spread = (peak - normal) / normal if normal > 0 else (np.inf if peak > 0 else 0)
    well = spread <= a.well_spread and (al is None or normal / al >= a.well_use)
    want = {"normal_mb": normal, "p90_mb": p90, "peak_mb": peak}
    if al is not None:
        want["alloc_mb"] = al
        want["waste_mb"] = al - normal
    for col, v in want.items():
        if not near(float(r[col]), v):
            fail("task %s %s = %s, numpy says %.17g" % (r["task"], col, r[col], v))
    cls = "well-behaved" if well else "poorly-behaved"
    if r["class"] != cls:
        fail("task %s class %s, recomputed %s" % (r["task"], r["class"], cls))

if a.truth:
    prof = {r["task"]: r for r in got}
    n = 0
    with open(a.truth, newline="") as f:
        for row in csv.DictReader(f):
            n += 1
            p = prof.get(row["task"])
            if p is None:
                fail("truth task %s has no profile" % row["task"])
                continue
            if p["class"] != row["class"]:
                fail("task %s classified %s, truth %s" % (row["task"], p["class"], row["class"]))
            for col in ("normal_mb", "peak_mb"):
                g, w = float(p[col]), float(row[col])
                if abs(g - w) > a.tol * w:
                    fail("task %s %s %.1f vs truth %.1f (more than %g%% off)" % (row["task"], col, g, w, 100 * a.tol))
    if n != len(got):
        fail("truth has %d tasks, profiles %d" % (n, len(got)))

print("checked %d task profiles" % len(got))
sys.exit(1 if bad else 0)
