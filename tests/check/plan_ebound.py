#!/usr/bin/python3
"""plan_ebound.py -- an interval (energetic) lower bound on the peak cost of
any plan for a set of lcmpack requests, one that knows periodic instances
share one shape.

usage: plan_ebound.py SKYLINE SLO CAP_CORES CAP_MEM [LCM [STEP [AT [GRID]]]]

For an interval I of the cycle, every job puts some least amount of work
inside I wherever it goes; the peak cost is at least that work divided by
|I| and the capacity.  The least amount for one job: its skyline stages run
in order, each on at least one step of its window, and every instance of a
periodic job repeats instance 0's allocation at i * period.  So with
w(t) = how many of the job's instances have their step t inside I, the job
puts at least
        min over t_1 < t_2 < ... < t_n in the window of  sum_k D_k w(t_k)
containers x steps inside I (D_k = stage k's containers, gangs rounded up):
a stage spread over several steps costs at least D_k times the smallest w
among them, and the stages' smallest-w steps are in order.  A dynamic
programme over the window gives it.  Contiguity is relaxed (stages may
leave gaps), so the bound is valid for every plan lcmpack may make.
With I = the whole cycle it is the area bound; the bound printed is the
largest over intervals starting and ending on a GRID-second grid (default
3600 s), refined on a 900 s grid within an hour of the best.  Jobs whose
period does not divide LCM count with AT (epoch seconds of a cycle start),
folded onto the cycle as lcmpack folds its once reservations.

Prints:  bound B at [start, end) s  (area bound A)
Needs numpy.
"""
import sys
import os as _os, sys as _sys
_sys.path.insert(0, _os.path.dirname(_os.path.abspath(__file__)))
from planreq import load  # noqa: E402  the requests, by the plan's window rule
import numpy as np

sky, slo, capc, capm = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
L = int(float(sys.argv[5])) if len(sys.argv) > 5 else 86400
S = int(float(sys.argv[6])) if len(sys.argv) > 6 else 60
AT = float(sys.argv[7]) if len(sys.argv) > 7 and sys.argv[7] != '-' else None
GRID = int(float(sys.argv[8])) if len(sys.argv) > 8 else 3600
N = L // S

items, stages, res = load(sky, slo, L, S, AT)
arr = {j: np.array(v, dtype=float) for j, v in stages.items()}
tot = {j: float(v.sum()) for j, v in arr.items()}


_steps = {}


def steps_of(lo, hi, starts):
    """the cycle steps of the window [lo, hi) in every instance: one row per instance"""
    key = (lo, hi, tuple(starts))
    if key not in _steps:
        _steps[key] = (np.arange(lo, hi)[None, :] + np.array(starts)[:, None]) % N
    return _steps[key]


def least_inside(lo, hi, starts, j, inI):
    """least containers x steps job j puts inside I (inI: 0/1 per cycle step)"""
    w = inI[steps_of(lo, hi, starts)].sum(axis=0)
    v = arr[j]
    if w.min() == w.max():  # the same w everywhere: every placement puts w x its area inside
        return float(w[0] * tot[j])
    f = v[0] * w
    for k in range(1, len(v)):
        g = np.empty_like(f)
        g[0] = np.inf
        g[1:] = np.minimum.accumulate(f)[:-1]
        f = v[k] * w + g
    return float(f.min())


def bound(s, e):
    """the bound for I = steps [s, e) (e - s <= N; wraps around the cycle)"""
    inI = np.zeros(N)
    inI[np.arange(s, e) % N] = 1
    c = m = 0.0
    for lo, hi, starts, j in items:
        x = least_inside(lo, hi, starts, j, inI)
        c += x * res[j][0]
        m += x * res[j][1]
    n = e - s
    return max(c / capc, m / capm) / n


area = bound(0, N)
g = max(1, GRID // S)
best = (area, 0, N)
for s in range(0, N, g):
    for n in range(g, N, g):
        b = bound(s, s + n)
        if b > best[0]:
            best = (b, s, s + n)
f = max(1, 900 // S)
b0, s0, e0 = best
for s in range(s0 - g, s0 + g + 1, f):
    for e in range(e0 - g, e0 + g + 1, f):
        if 0 < e - s <= N:
            b = bound(s, e)
            if b > best[0]:
                best = (b, s, e)
print('bound %.6g at [%d, %d) s  (area bound %.6g)' % (best[0], best[1] * S, best[2] * S, area))
