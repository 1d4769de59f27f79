#!/usr/bin/python3
"""plan_lpbound.py -- the LP relaxation lower bound on the peak cost of any
plan for a set of lcmpack requests, solved with glpsol (GLPK).

usage: plan_lpbound.py SKYLINE SLO CAP_CORES CAP_MEM [LCM [STEP [BUCKET [AT]]]]

Relaxation: every instance of every periodic job (period dividing LCM) must
put its area (container-seconds, gangs rounded up) inside its window, at most
its largest stage's containers at a time; the cycle is cut into buckets of
BUCKET seconds (default 600) and the load of a bucket, divided by its length
and the capacity, is at most P, for cores and for memory; minimise P.
Instances need not share offsets, stages need not be contiguous or ordered
and containers may be fractional, so P is a lower bound on the peak cost of
any valid plan (windows are rounded outward to whole buckets).  With AT
(epoch seconds of a cycle start), jobs whose period does not divide LCM
count too: each instance whose window opens in [AT, AT + LCM), folded onto
the cycle as lcmpack folds its once reservations.  Prints P.
"""
import csv, math, os, subprocess, sys, tempfile
import os as _os, sys as _sys
_sys.path.insert(0, _os.path.dirname(_os.path.abspath(__file__)))
from planwin import window_steps  # noqa: E402  the plan's window rule
from planreq import read_slo  # noqa: E402  the SLO rows lcmpack plans

sky, slo, capc, capm = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
L = float(sys.argv[5]) if len(sys.argv) > 5 else 86400.0
S = float(sys.argv[6]) if len(sys.argv) > 6 else 60.0
BK = float(sys.argv[7]) if len(sys.argv) > 7 else 600.0
AT = float(sys.argv[8]) if len(sys.argv) > 8 else None
nb = int(round(L / BK))

req = read_slo(slo)
info = {}
for r in csv.DictReader(open(sky)):
    j = r['job']
    g = float(r.get('gang') or 1)
    al = math.ceil(float(r['alloc']) / g - 1e-9) * g
    c = float(r.get('cores') or 1); m = float(r.get('mem_mb') or 1024)
    a, mx, _, _ = info.get(j, (0.0, 0.0, c, m))
    info[j] = (a + al * S, max(mx, al), c, m)

rows = []   # (var, bucket, coef_c, coef_m)
eqs = []    # (list of vars, area)
bnds = []
nv = 0
for j, (p, a, d) in req.items():
    if j not in info:
        continue
    area, mx, c, m = info[j]
    wins = []
    if L % p == 0 and p % S == 0:
        lo0, hi0 = (x * S for x in window_steps(0, a, d, S))
        wins = [(i * p + lo0, i * p + hi0) for i in range(int(round(L / p)))]
    elif AT is not None:
        k = math.ceil((AT - a) / p - 1e-9)
        while k * p + a < AT + L:
            base = k * p - AT
            wins.append(tuple(x * S for x in window_steps(base, a, d, S)))
            k += 1
    for lo, hi in wins:
        b0, b1 = int(math.floor(lo / BK)), int(math.ceil(hi / BK))
        vs = []
        for b in range(b0, b1):
            ov = min(hi, (b + 1) * BK) - max(lo, b * BK)
            # outward rounding: the whole bucket may be used, but the amount is
            # still bounded by maxpar over the overlap (a valid relaxation)
            if ov <= 0:
                continue
            v = 'x%d' % nv; nv += 1
            vs.append(v)
            bnds.append((v, mx * ov))
            rows.append((v, b % nb, c / capc, m / capm))
        eqs.append((vs, area))

fd, path = tempfile.mkstemp(suffix='.lp'); os.close(fd)
with open(path, 'w') as f:
    f.write('Minimize\n obj: P\nSubject To\n')
    for k, (vs, area) in enumerate(eqs):
        f.write(' e%d: %s = %.10g\n' % (k, ' + '.join(vs) if vs else '0 P', area))
    byb = {}
    for v, b, cc, cm in rows:
        byb.setdefault(b, []).append((v, cc, cm))
    for b, lst in byb.items():
        f.write(' c%d: %s - %.10g P <= 0\n' % (b, ' + '.join('%.10g %s' % (cc, v) for v, cc, cm in lst), BK))
        f.write(' m%d: %s - %.10g P <= 0\n' % (b, ' + '.join('%.10g %s' % (cm, v) for v, cc, cm in lst), BK))
    f.write('Bounds\n')
    for v, ub in bnds:
        f.write(' 0 <= %s <= %.10g\n' % (v, ub))
    f.write('End\n')
out = path + '.sol'
r = subprocess.run(['glpsol', '--lp', path, '-o', out], capture_output=True, text=True)
val = None
for line in open(out):
    if line.startswith('Objective:'):
        val = float(line.split('=')[1].split()[0])
os.unlink(path); os.unlink(out)
if val is None:
    sys.exit('plan_lpbound: glpsol failed: ' + r.stdout[-500:])
print('%.6g' % val)
