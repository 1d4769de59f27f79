#!/usr/bin/python3
"""naive_online.py -- the naive online baseline for lcmpack's LowCost,
written independently of lib/morpheus/lowcost.c (bench/lcmpack.sh).

usage: naive_online.py [--tie earliest|load] SKYLINE SLO CAP_CORES CAP_MEM [LCM [STEP [AT]]]

Requests are made as lcmpack makes them: periodic jobs (period divides LCM
in whole steps) first, in the skyline file's job order, then one request per
instance of the other jobs whose window opens in the cycle starting at AT
(epoch seconds), folded onto the cycle.  Each request is placed, in that
order, rigid (every skyline step at its full height, gangs rounded up) at the
start inside its window [ceil(a/STEP), floor(d/STEP)) that least raises the
current peak cost of the plan, max(peak so far, the highest cost over the
job's slots and instances after adding it); ties go to the earliest start,
or with --tie load to the start whose sum over the job's slots of cost x
containers is lowest (the lowest load), then the earliest.
Cost of a slot: max(mem load / CAP_MEM, core load / CAP_CORES).  A request
that fits in no start without exceeding the capacity is counted as rejected.
The skyline's step must be STEP.

Prints:  peak P area bound A placed N rejected R
with A = max(total core-steps / (CAP_CORES x steps), total MB-steps /
(CAP_MEM x steps)) over the requests (lcmpack's area/lcm; its other bound,
the largest fixed demand, is far below it on tracegen's mix).
Needs numpy.
"""
import csv, math, sys
from collections import OrderedDict
import numpy as np

argv = sys.argv[1:]
TIE = 'earliest'
if argv[:1] == ['--tie']:
    TIE = argv[1]
    argv = argv[2:]
    if TIE not in ('earliest', 'load'):
        sys.exit('naive_online.py: --tie earliest or load')
sky, slo, capc, capm = argv[0], argv[1], float(argv[2]), float(argv[3])
L = int(float(argv[4])) if len(argv) > 4 else 86400
S = int(float(argv[5])) if len(argv) > 5 else 60
AT = float(argv[6]) if len(argv) > 6 and argv[6] != '-' else None
N = L // S

req = {}
for r in csv.DictReader(open(slo)):
    st = r.get('status', 'actionable')
    if st not in ('actionable', 'overridden') and r.get('source') != 'overridden':
        continue
    req[r['job']] = (float(r['period']), float(r['a']), float(r['d']))
shape = OrderedDict()
res = {}
for r in csv.DictReader(open(sky)):
    j = r['job']
    if float(r['step']) != S:
        sys.exit('naive_online.py: skyline step %s is not the plan step %d' % (r['step'], S))
    g = int(float(r.get('gang') or 1))
    shape.setdefault(j, []).append(math.ceil(float(r['alloc']) / g - 1e-9) * g)
    res[j] = (float(r.get('cores') or 1), float(r.get('mem_mb') or 1024))

# requests: (job, lo, hi, instance offsets in steps), periodic first
reqs = []
for j in shape:
    if j not in req:
        continue
    p, a, d = req[j]
    if L % p == 0 and p % S == 0 and p >= S:
        P = int(p // S)
        reqs.append((j, math.ceil(a / S - 1e-9), math.floor(d / S + 1e-9), [i * P for i in range(L // int(p))]))
for j in shape:
    if j not in req or AT is None:
        continue
    p, a, d = req[j]
    if (L % p == 0 and p % S == 0) or p < S:
        continue
    k = math.ceil((AT - a) / p - 1e-9)
    while k * p + a < AT + L:
        base = k * p - AT
        reqs.append((j, max(0, math.ceil((base + a) / S - 1e-9)), math.floor((base + d) / S + 1e-9), [0]))
        k += 1

areac = sum(sum(shape[j]) * res[j][0] * len(offs) for j, lo, hi, offs in reqs)
aream = sum(sum(shape[j]) * res[j][1] * len(offs) for j, lo, hi, offs in reqs)
area = max(areac / (capc * N), aream / (capm * N))
loadc = np.zeros(N)
loadm = np.zeros(N)
peak, placed, rejected = 0.0, 0, 0
for j, lo, hi, offs in reqs:
    x = np.array(shape[j], dtype=float)
    n = len(x)
    cores, mem = res[j]
    starts = np.arange(lo, hi - n + 1)
    if len(starts) == 0:
        rejected += 1
        continue
    # slot of (start, instance, step): (start + offset + step) mod N
    sl = (starts[:, None, None] + np.array(offs)[None, :, None] + np.arange(n)[None, None, :]) % N
    lc = loadc[sl] + x * cores
    lm = loadm[sl] + x * mem
    over = ((lc > capc + 1e-9 * capc) | (lm > capm + 1e-9 * capm)).any(axis=(1, 2))
    cost = np.maximum(lc / capc, lm / capm).max(axis=(1, 2))
    score = np.where(over, np.inf, np.maximum(cost, peak))
    if TIE == 'load':
        load = (np.maximum(lc / capc, lm / capm).max(axis=1) * x).sum(axis=1)
        b = int(np.lexsort((starts, load, np.round(score, 12)))[0])
    else:
        b = int(np.argmin(score))  # the first of the least: the earliest start
    if not np.isfinite(score[b]):
        rejected += 1
        continue
    for o in offs:
        s = (starts[b] + o + np.arange(n)) % N
        np.add.at(loadc, s, x * cores)
        np.add.at(loadm, s, x * mem)
    peak = max(peak, float(cost[b]))
    placed += 1
print('peak %.6g area bound %.6g placed %d rejected %d' % (peak, area, placed, rejected))
