#!/usr/bin/python3
"""plan_validate.py -- an independent validator of an lcmpack plan.

usage: plan_validate.py PLAN --sky SKYLINE --slo SLO (--cap CORES,MEM | --cap-file FILE)
                        [--report REPORT] [--container CORES,MEM] [--peak X]

Written from the file format in lib/morpheus/plan.h and the model in lcmpack(1), not
from lcmpack's code.  Checks:
  format    header, the version on every row, each row's CRC-32, the
            trailers (one after each segment, the last row of the file;
            each holds the rows so far and the chained CRC of their crcs),
            constant step/lcm, t on the grid
  windows   every instance lies inside its window [n p + a, n p + d] on
            the plan step grid (planwin.py: the grid never costs it a step)
            (periodic instance i: [i p + a, i p + d] modulo the cycle)
  contiguity every instance is one run of consecutive steps (no holes)
  periodic  all instances of a periodic job repeat instance 0 at i p
  demand    per skyline stage (skyline step = plan step): the containers over
            the stage's steps add up to ceil(alloc / gang) * gang, every step
            holds a multiple of the gang and at most max(ceil(alloc), gang),
            stages appear in order, each over consecutive steps
  capacity  the load folded onto the cycle never exceeds the capacity
  request   period, a, d, cores, mem_mb are those of the SLO and the skyline
  report    (with --report) every requested job is placed, kept or rejected,
            and placed/kept jobs are in the plan, rejected ones are not
  peak      (with --peak X, X as lcmpack prints it: 4 decimals) the highest
            cost max(load_cores/cap_cores, load_mem/cap_mem) over the cycle
            rounds to X
Exits 0 when everything holds, 1 with one line per problem otherwise.
"""
import argparse, csv, math, sys, zlib
import os as _os, sys as _sys
_sys.path.insert(0, _os.path.dirname(_os.path.abspath(__file__)))
from planwin import window_steps  # noqa: E402  the plan's window rule
from collections import defaultdict

ap = argparse.ArgumentParser()
ap.add_argument('plan'); ap.add_argument('--sky', required=True); ap.add_argument('--slo', required=True)
ap.add_argument('--cap'); ap.add_argument('--cap-file'); ap.add_argument('--report')
ap.add_argument('--container', default='1,1024')
ap.add_argument('--peak', type=float)
args = ap.parse_args()
errs = []
def err(m):
    errs.append(m)

COLS = 'plan,job,kind,instance,cycle,t,step,lcm,stage,gang,containers,cores,mem_mb,period,a,d,problematic,crc'.split(',')
rows = list(csv.reader(open(args.plan, newline='')))
if not rows or rows[0] != COLS:
    print('header is not the plan header'); sys.exit(1)
body = rows[1:]
if not body or body[-1][2] != 'end':
    print('no trailer row'); sys.exit(1)
chain = 0
data = []          # (line, row) of the data rows; None marks a segment's end
for ln, r in enumerate(body, start=2):
    if len(r) != 18: err('line %d: %d fields' % (ln, len(r))); continue
    if r[0] != 'slokit-plan/1': err('line %d: version %r' % (ln, r[0]))
    if r[2] == 'end':
        n = sum(1 for x in data if x)
        if int(r[3]) != n: err('line %d: trailer count %s, rows so far %d' % (ln, r[3], n))
        if r[17] != '%08x' % chain: err('line %d: trailer crc %s, computed %08x' % (ln, r[17], chain))
        data.append(None)
        continue
    c = '%08x' % zlib.crc32(','.join(r[:17]).encode())
    if c != r[17]: err('line %d: crc %s, computed %s' % (ln, r[17], c))
    chain = zlib.crc32(r[17].encode(), chain)
    data.append((ln, r))
tr = body[-1]
step, lcm = int(tr[6]), int(tr[7])
nsteps = lcm // step

# requests, independently
slo = {}
for r in csv.DictReader(open(args.slo)):
    st = r.get('status', 'actionable')
    if st in ('actionable', 'overridden') or r.get('source') == 'overridden':
        slo[r['job']] = (float(r['period']), float(r['a']), float(r['d']))
dc, dm = (float(x) for x in args.container.split(','))
sky = defaultdict(list); shape = {}
for r in csv.DictReader(open(args.sky)):
    al = float(r['alloc']); g = int(r.get('gang') or 1)
    shape[r['job']] = (float(r['cores']), float(r['mem_mb'])) if r.get('cores') else (dc, dm)
    if al <= 0: continue
    dem = math.ceil(al - 1e-9)
    sky[r['job']].append((math.ceil(dem / g) * g, max(dem, g), g))   # (total, maxpar, gang)

# reservations: consecutive rows of one (job, kind, once-instance), never
# across a trailer
res = []
cut = True
for x in data:
    if x is None:
        cut = True; continue
    ln, r = x
    key = (r[1], r[2], r[3] if r[2] == 'once' else '')
    if cut or res[-1]['key'] != key:
        res.append({'key': key, 'rows': []})
    cut = False
    res[-1]['rows'].append((ln, r))

load_c = [0.0] * nsteps; load_m = [0.0] * nsteps
for R in res:
    job, kind, _ = R['key']
    rr = R['rows']; ln0 = rr[0][0]
    f = rr[0][1]
    period, a, d = float(f[13]), float(f[14]), float(f[15])
    cores, mem = float(f[11]), float(f[12])
    if job in slo and slo[job] != (period, a, d):
        err('line %d: job %s: window %s differs from its SLO %s' % (ln0, job, (period, a, d), slo[job]))
    if job not in slo:
        err('line %d: job %s has no usable SLO row' % (ln0, job))
    if job in shape and shape[job] != (cores, mem):
        err('line %d: job %s: container %s differs from the skyline %s' % (ln0, job, (cores, mem), shape[job]))
    insts = defaultdict(list)
    for ln, r in rr:
        insts[int(r[3])].append((ln, r))
    if kind == 'periodic':
        n = lcm // int(period)
        if sorted(insts) != list(range(n)):
            err('line %d: job %s: instances %s, expected 0..%d' % (ln0, job, sorted(insts), n - 1)); continue
    steps0 = None
    for i, ir in sorted(insts.items()):
        ts = [int(r[5]) + (int(r[4]) * lcm if kind == 'once' else 0) for _, r in ir]
        wl, wh = window_steps(i * period, a, d, step, len(ts))   # the plan's window rule
        lo, hi = wl * step, wh * step
        T0 = ts[0] if kind == 'once' or ts[0] >= lo - 1e-6 else ts[0] + lcm
        # contiguity
        for k in range(1, len(ts)):
            exp = ts[k - 1] + step
            if kind == 'periodic': exp %= lcm
            if ts[k] != exp:
                err('line %d: job %s instance %d: hole or overlap at t %d' % (ir[k][0], job, i, ts[k])); break
        T1 = T0 + len(ts) * step
        if T0 < lo - 1e-6 or T1 > hi + 1e-6:
            err('line %d: job %s instance %d: [%g, %g) outside its window [%g, %g]' % (ir[0][0], job, i, T0, T1, lo, hi))
        cont = [(int(r[8]), int(r[9]), int(r[10])) for _, r in ir]
        if steps0 is None:
            steps0 = (T0, cont)
        elif kind == 'periodic' and (T0 - steps0[0] != i * period or cont != steps0[1]):
            err('line %d: job %s instance %d does not repeat instance 0' % (ir[0][0], job, i))
        for (_, r), (stg, g, c) in zip(ir, cont):
            s = (int(r[5]) // step) % nsteps
            load_c[s] += c * cores; load_m[s] += c * mem
    # demand per stage
    if job in sky:
        stages = sky[job]
        cont = steps0[1]
        seen = [x[0] for x in cont]
        if seen != sorted(seen): err('line %d: job %s: stages out of order' % (ln0, job))
        if sorted(set(seen)) != list(range(1, len(stages) + 1)):
            err('line %d: job %s: stages %s, skyline has %d' % (ln0, job, sorted(set(seen)), len(stages)))
        tot = defaultdict(int)
        for stg, g, c in cont:
            if 1 <= stg <= len(stages):
                total, mx, gg = stages[stg - 1]
                if g != gg: err('line %d: job %s stage %d: gang %d, skyline %d' % (ln0, job, stg, g, gg))
                if c % gg: err('line %d: job %s stage %d: %d containers, not whole gangs of %d' % (ln0, job, stg, c, gg))
                if c > mx: err('line %d: job %s stage %d: %d containers above the stage maximum %d' % (ln0, job, stg, c, mx))
                tot[stg] += c
        for k, (total, mx, gg) in enumerate(stages, start=1):
            if tot[k] != total:
                err('line %d: job %s stage %d: %d containers placed, demand %d' % (ln0, job, k, tot[k], total))

# capacity
if args.cap:
    cc, cm = (float(x) for x in args.cap.split(','))
    capc = [cc] * nsteps; capm = [cm] * nsteps
else:
    capc = [0.0] * nsteps; capm = [0.0] * nsteps
    pts = [(int(float(r['t'])), float(r['cores']), float(r['mem_mb'])) for r in csv.DictReader(open(args.cap_file))]
    for k, (t, c, m) in enumerate(pts):
        end = pts[k + 1][0] if k + 1 < len(pts) else lcm
        for s in range(t // step, end // step):
            capc[s], capm[s] = c, m
for s in range(nsteps):
    if load_c[s] > capc[s] * (1 + 1e-9) + 1e-9 or load_m[s] > capm[s] * (1 + 1e-9) + 1e-9:
        err('t %d: load %g cores %g MB above the capacity %g cores %g MB' % (s * step, load_c[s], load_m[s], capc[s], capm[s]))

if args.peak is not None:
    def cost(s):
        a = load_c[s] / capc[s] if capc[s] > 0 else (math.inf if load_c[s] > 0 else 0)
        b = load_m[s] / capm[s] if capm[s] > 0 else (math.inf if load_m[s] > 0 else 0)
        return max(a, b)
    pk = max(cost(s) for s in range(nsteps)) if nsteps else 0
    if abs(pk - args.peak) > 0.00005 + 1e-12:
        err('peak cost %.6f, not %s as claimed' % (pk, args.peak))

if args.report:
    inplan = {R['key'][0] for R in res}
    status = defaultdict(set)
    for r in csv.DictReader(open(args.report)):
        status[r['job']].add(r['status'])
    for job in slo:
        if job in sky and not status[job] & {'placed', 'kept', 'rejected', 'skipped'}:
            err('job %s: requested but neither placed, kept, rejected nor skipped in the report' % job)
    for job, st in status.items():
        if st & {'placed', 'kept'} and job not in inplan:
            err('job %s: reported %s but not in the plan' % (job, sorted(st)))
        if st == {'rejected'} and job in inplan:
            err('job %s: reported rejected but in the plan' % job)

for e in errs[:50]:
    print(e)
if errs:
    print('%d problems' % len(errs)); sys.exit(1)
print('ok: %d reservations, %d rows, %d segments' % (len(res), sum(1 for x in data if x), data.count(None)))
