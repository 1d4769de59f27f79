#!/usr/bin/python3
"""plan_bruteforce.py -- brute-force LowCost for rigid jobs, to check lcmpack.

usage: plan_bruteforce.py SKYLINE SLO CAP_CORES CAP_MEM LCM STEP [SHARPNESS] > expected.csv

For jobs whose every stage is rigid (gang = the stage's containers, so a
stage is exactly one step of the skyline), LowCost reduces to: for every end
point e of the window, the skyline placed as is ending at e; keep the one with
the lowest load score, then the lowest sum of cost x containers (cost at a
step: the worst over the job's instances), then the earliest end; skip
placements that exceed the capacity.  The load score (lib/morpheus/lowcost.h):
with peak = the highest cost over the job's slots after adding it (every
instance of a periodic job folded onto the cycle), c0 and c = a slot's cost
before and after, B = SHARPNESS (default 10) / max(the plan's peak before the
job, one container's cost),
    score = peak + ln(sum over the job's slots of exp(B (c - peak)) - exp(B (c0 - peak))) / B.
SHARPNESS inf gives the score peak (LowCost before the load score).  Jobs are
placed in skyline order (periodic only).  Prints job,t,containers for every
allocated step of instance 0, sorted.
"""
import csv, math, sys
import os as _os, sys as _sys
_sys.path.insert(0, _os.path.dirname(_os.path.abspath(__file__)))
from planwin import window_steps  # noqa: E402  the plan's window rule
from collections import OrderedDict

sky, slo, capc, capm, L, S = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
SHARP = float(sys.argv[7]) if len(sys.argv) > 7 else 10.0
n = L // S
req = {r['job']: (float(r['period']), float(r['a']), float(r['d'])) for r in csv.DictReader(open(slo))}
jobs = OrderedDict()
for r in csv.DictReader(open(sky)):
    al = math.ceil(float(r['alloc']) - 1e-9)
    g = int(r.get('gang') or 1)
    if al <= 0: continue
    assert g == al, 'not rigid'
    jobs.setdefault(r['job'], [float(r.get('cores') or 1), float(r.get('mem_mb') or 1024), []])[2].append(al)
lc = [0.0] * n; lm = [0.0] * n
out = []
for job, (c, m, shape) in jobs.items():
    p, a, d = req[job]
    if L % p or p % S: continue
    pp = int(p) // S; ni = L // int(p)
    lo, hi = window_steps(0, a, d, S, len(shape))
    K = len(shape)
    ref = max([max(lm[s] / capm, lc[s] / capc) for s in range(n)] + [m / capm, c / capc])
    B = SHARP / ref if math.isfinite(SHARP) else 0.0
    best = None
    for e in range(lo + K, hi + 1):
        st = e - K
        ok = True; peak = 0.0; tot = 0.0; costs = []
        for j, x in enumerate(shape):
            o = st + j
            worst = 0.0; fits = True
            for i in range(ni):
                s = (o + i * pp) % n
                # lcmpack's headroom: floor((cap - load)/size + 1e-9)
                h = min(math.floor((capc - lc[s]) / c + 1e-9) if c > 0 else 1 << 31,
                        math.floor((capm - lm[s]) / m + 1e-9) if m > 0 else 1 << 31)
                if h < x: fits = False
                c0 = max(lm[s] / capm, lc[s] / capc)
                c1 = max((lm[s] + x * m) / capm, (lc[s] + x * c) / capc)
                costs.append((c0, c1))
                worst = max(worst, c1)
            if not fits: ok = False; break
            peak = max(peak, worst); tot += worst * x
        if not ok: continue
        score = peak
        if B > 0:
            S_ = sum(math.exp(B * (c0 - peak)) * math.expm1(B * (c1 - c0)) for c0, c1 in costs)
            if S_ > 0:
                score = peak + math.log(S_) / B
        if best is None or score < best[0] - 1e-12 or (score <= best[0] + 1e-12 and tot < best[1] - 1e-9):
            best = (score, tot, st)
    if best is None: continue
    st = best[2]
    for j, x in enumerate(shape):
        for i in range(ni):
            s = (st + j + i * pp) % n
            lc[s] += x * c; lm[s] += x * m
        out.append((job, ((st + j) % n) * S, x))
for r in sorted(out):
    print('%s,%d,%d' % r)
