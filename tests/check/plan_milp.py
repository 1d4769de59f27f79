#!/usr/bin/python3
"""plan_milp.py -- the offline optimum peak cost for rigid jobs, as a MILP
solved with glpsol (GLPK).

usage: plan_milp.py SKYLINE SLO CAP_CORES CAP_MEM LCM STEP [TIME_LIMIT_S]

Every job must be rigid (gang = the stage's containers: the skyline is
placed as is, only its start moves) and periodic (period divides LCM).
Binary z[j,s] = job j starts at step s of its window (instance 0; the other
instances repeat at i * period); minimise P subject to sum_s z[j,s] = 1 and,
for every step t of the cycle and both resources, the load / capacity <= P.
This is the exact offline optimum of the peak over all placements of these
rigid jobs (the same cost c(t) lcmpack minimises); jobs whose skyline is
longer than their window are left out (lcmpack rejects them).  Prints
"optimum P" when GLPK proved it, else "bound B best P" (time limit hit).
"""
import csv, math, os, subprocess, sys, tempfile
import os as _os, sys as _sys
_sys.path.insert(0, _os.path.dirname(_os.path.abspath(__file__)))
from planwin import window_steps  # noqa: E402  the plan's window rule
from collections import OrderedDict, defaultdict

sky, slo = sys.argv[1], sys.argv[2]
capc, capm, L, S = float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
tl = int(sys.argv[7]) if len(sys.argv) > 7 else 120
n = L // S
req = {r['job']: (float(r['period']), float(r['a']), float(r['d'])) for r in csv.DictReader(open(slo))}
jobs = OrderedDict()
for r in csv.DictReader(open(sky)):
    al = math.ceil(float(r['alloc']) - 1e-9)
    if al <= 0: continue
    if int(r.get('gang') or 1) != al: sys.exit('plan_milp: job %s is not rigid' % r['job'])
    jobs.setdefault(r['job'], [float(r.get('cores') or 1), float(r.get('mem_mb') or 1024), []])[2].append(al)
terms = defaultdict(list)     # slot -> [(var, cores, mem)]
ones = []
skipped = 0
for jn, (job, (c, m, shape)) in enumerate(jobs.items()):
    p, a, d = req[job]
    if L % p or p % S: sys.exit('plan_milp: job %s is not periodic in the cycle' % job)
    pp = int(p) // S; ni = L // int(p)
    lo, hi = window_steps(0, a, d, S, len(shape))
    vs = []
    for st in range(lo, hi - len(shape) + 1):
        v = 'z%d_%d' % (jn, st); vs.append(v)
        for k, x in enumerate(shape):
            for i in range(ni):
                terms[(st + k + i * pp) % n].append((v, x * c / capc, x * m / capm))
    if not vs:
        skipped += 1   # lcmpack rejects it too (window shorter than the skyline)
        continue
    ones.append(vs)
fd, path = tempfile.mkstemp(suffix='.lp'); os.close(fd)
with open(path, 'w') as f:
    f.write('Minimize\n obj: P\nSubject To\n')
    for k, vs in enumerate(ones):
        f.write(' one%d: %s = 1\n' % (k, ' + '.join(vs)))
    for t, lst in sorted(terms.items()):
        f.write(' c%d: %s - P <= 0\n' % (t, ' + '.join('%.12g %s' % (cc, v) for v, cc, cm in lst)))
        f.write(' m%d: %s - P <= 0\n' % (t, ' + '.join('%.12g %s' % (cm, v) for v, cc, cm in lst)))
    f.write('Binary\n')
    for vs in ones:
        for v in vs: f.write(' %s\n' % v)
    f.write('End\n')
out = path + '.sol'
r = subprocess.run(['glpsol', '--lp', path, '--tmlim', str(tl), '--cuts', '--pcost', '-o', out],
                   capture_output=True, text=True)
status, obj = None, None
for line in open(out):
    if line.startswith('Status:'): status = line.split(':', 1)[1].strip()
    if line.startswith('Objective:'): obj = float(line.split('=')[1].split()[0])
bound = None
for line in r.stdout.splitlines():
    if '>>>>>' in line or line.startswith('+') and 'mip' in line:
        parts = line.replace('>', ' ').split()
        try:
            i = parts.index('>=') if '>=' in parts else None
        except ValueError:
            i = None
os.unlink(path); os.unlink(out)
if status == 'INTEGER OPTIMAL':
    print('optimum %.6g' % obj + (' (%d jobs longer than their window left out)' % skipped if skipped else ''))
else:
    # the best bound is on the last progress line: "... mip = X >= Y ..."
    b = None
    for line in r.stdout.splitlines():
        if 'mip =' in line and '>=' in line:
            try: b = float(line.split('>=')[1].split()[0])
            except ValueError: pass
    print('bound %s best %s (%s)' % (b, obj, status))
