"""planreq — lcmpack's requests as the bound checkers see them.

load(sky, slo, L, S, AT) -> (items, stages, res):
  items   [(lo, hi, starts, job)]: a request's window [lo, hi) in steps of S s
          from the cycle start and the steps at which its instances repeat
          instance 0 (a periodic job whose period divides the L-second cycle:
          every instance; with AT, epoch seconds of a cycle start, a job whose
          period does not divide it: one item per instance whose window opens
          in [AT, AT + L), folded onto the cycle as lcmpack folds its once
          reservations);
  stages  {job: [containers per skyline step, gangs rounded up]};
  res     {job: (cores, mem_mb) per container}.
Only actionable (or overridden) SLO rows count; a window shorter than the
job's skyline is left out (lcmpack refuses it).  Shared by plan_ebound.py
and plan_cgbound.py (read_slo by plan_lpbound.py too); the window rule is
planwin's.
"""
import csv, math
from collections import defaultdict
from planwin import window_steps


def read_slo(slo):
    """{job: (period, a, d)} of the SLO rows lcmpack plans (actionable or
    overridden)."""
    req = {}
    for r in csv.DictReader(open(slo)):
        st = r.get('status', 'actionable')
        if st not in ('actionable', 'overridden') and r.get('source') != 'overridden':
            continue
        req[r['job']] = (float(r['period']), float(r['a']), float(r['d']))
    return req


def load(sky, slo, L, S, AT=None):
    req = read_slo(slo)
    stages = defaultdict(list)
    res = {}
    for r in csv.DictReader(open(sky)):
        j = r['job']
        g = int(float(r.get('gang') or 1))
        stages[j].append(math.ceil(float(r['alloc']) / g - 1e-9) * g)
        res[j] = (float(r.get('cores') or 1), float(r.get('mem_mb') or 1024))
    items = []
    for j, (p, a, d) in req.items():
        if j not in stages:
            continue
        if L % p == 0 and p % S == 0:
            lo, hi = window_steps(0, a, d, S, len(stages[j]))
            P = int(p // S)
            items.append((lo, hi, [i * P for i in range(int(L // p))], j))
        elif AT is not None:
            k = math.ceil((AT - a) / p - 1e-9)
            while k * p + a < AT + L:
                base = k * p - AT
                items.append(window_steps(base, a, d, S, len(stages[j])) + ([0], j))
                k += 1
    items = [it for it in items if it[1] - it[0] >= len(stages[it[3]])]
    return items, stages, res
