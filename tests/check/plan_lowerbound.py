#!/usr/bin/python3
"""plan_lowerbound.py -- lower bounds on the peak cost of any plan for a set
of lcmpack requests, computed independently of lcmpack (numpy).

usage: plan_lowerbound.py SKYLINE SLO CAP_CORES CAP_MEM [LCM [STEP]]

Prints three numbers, in cost units (load / capacity, constant capacity):
  simple    max(largest gang of any stage, total area / LCM)   (lcmpack's bound)
  interval  max over intervals [s, e] of the area of the instances whose
            windows [A, D] lie inside it, divided by e - s (every instance
            must be placed inside its window, so some step carries at least
            that average); windows that wrap past the cycle end are left out,
            which keeps the bound valid
  best      the larger of the two
Only the jobs whose period divides the LCM (periodic) are counted.
"""
import csv, math, sys
import numpy as np

sky, slo, capc, capm = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
L = float(sys.argv[5]) if len(sys.argv) > 5 else 86400.0
S = float(sys.argv[6]) if len(sys.argv) > 6 else 60.0

req = {}
with open(slo) as f:
    for r in csv.DictReader(f):
        st = r.get('status', 'actionable')
        if st not in ('actionable', 'overridden') and r.get('source') != 'overridden':
            continue
        req[r['job']] = (float(r['period']), float(r['a']), float(r['d']))
area = {}    # job -> (container-steps, cores, mem)
gmax = 0.0
with open(sky) as f:
    for r in csv.DictReader(f):
        j = r['job']
        c = float(r.get('cores') or 1); m = float(r.get('mem_mb') or 1024)
        g = float(r.get('gang') or 1)
        al = math.ceil(float(r['alloc']) / g - 1e-9) * g
        a = area.get(j, (0.0, c, m))
        area[j] = (a[0] + al, c, m)
        if j in req:
            p = req[j][0]
            if L % p == 0:
                gmax = max(gmax, g * max(c / capc, m / capm))
A, D, W = [], [], []
tot = 0.0
for j, (p, a, d) in req.items():
    if j not in area or L % p != 0 or p % S != 0:
        continue
    cs, c, m = area[j]
    w = cs * S * max(c / capc, m / capm)   # upper side per instance...
    wc, wm = cs * S * c / capc, cs * S * m / capm
    n = int(round(L / p))
    for i in range(n):
        lo = i * p + math.ceil(a / S - 1e-9) * S
        hi = i * p + math.floor(d / S + 1e-9) * S
        tot_c = wc; tot_m = wm
        if hi <= L:
            A.append(lo); D.append(hi); W.append((wc, wm))
    tot += 0  # filled below
tc = sum(area[j][0] * area[j][1] / capc * int(round(L / req[j][0])) for j in req if j in area and L % req[j][0] == 0 and req[j][0] % S == 0)
tm = sum(area[j][0] * area[j][2] / capm * int(round(L / req[j][0])) for j in req if j in area and L % req[j][0] == 0 and req[j][0] % S == 0)
simple = max(gmax, tc * S / L, tm * S / L)
A = np.array(A); D = np.array(D); W = np.array(W)
best_int = 0.0
if len(A):
    order = np.argsort(D, kind='stable')
    A, D, W = A[order], D[order], W[order]
    for s in np.unique(A):
        mask = A >= s
        if not mask.any():
            continue
        d = D[mask]; w = W[mask]
        cum = np.cumsum(w, axis=0)
        # only the last entry for each distinct D matters; dividing all is fine
        span = d - s
        ok = span > 0
        if ok.any():
            v = (cum[ok] / span[ok, None]).max()
            best_int = max(best_int, float(v))
print("%.6g %.6g %.6g" % (simple, best_int, max(simple, best_int)))
