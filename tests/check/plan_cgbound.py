#!/usr/bin/python3
"""plan_cgbound.py -- the LP relaxation of plan_ebound.py's model, solved by
column generation: the strongest lower bound that model can certify.

usage: plan_cgbound.py SKYLINE SLO CAP_CORES CAP_MEM [LCM [STEP [AT [ITER]]]]

The model is plan_ebound.py's (read it first): every instance of a periodic
job repeats instance 0's allocation, the skyline's stages run in order, each
on at least one step of the window; contiguity is relaxed.  For weights
w(t) >= 0 on the cycle's steps and one resource (cores or memory), every
plan has
        peak cost x (sum of the weights)  >=  sum over jobs of DP_j(w)
where DP_j(w) is the least weighted cost (that resource's share of the
capacity) of job j over every placement the model allows: the dynamic
programme of plan_ebound.py, with the weights of a step summed over the
job's instances.  So every w gives a bound (an interval's 0/1 weights give
plan_ebound's); the best w is the dual of the LP in which each job mixes
such placements and the resource's peak is minimised.  That LP is solved by
column generation, once per resource (seeded by five Frank-Wolfe rounds;
master: HiGHS through scipy.optimize.linprog; pricing: the dynamic
programme at the master's duals, stabilised towards the best weights so
far), for at most ITER (default 30) rounds or until the master's value is
within 1e-4 of the bound.

Prints:  lp bound B (master M after K rounds; area bound A)
B (the larger resource's) is a valid lower bound on every plan's peak cost
whatever K is; M, the larger restricted master's value, is at least either
resource's LP, so no weights of one resource in this model certify more
than M.  Needs numpy and scipy.
"""
import sys
import os as _os, sys as _sys
_sys.path.insert(0, _os.path.dirname(_os.path.abspath(__file__)))
from planreq import load  # noqa: E402  the requests, by the plan's window rule
import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

sky, slo, capc, capm = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
L = int(float(sys.argv[5])) if len(sys.argv) > 5 else 86400
S = int(float(sys.argv[6])) if len(sys.argv) > 6 else 60
AT = float(sys.argv[7]) if len(sys.argv) > 7 and sys.argv[7] != '-' else None
ITER = int(sys.argv[8]) if len(sys.argv) > 8 else 30
SEED = 5
N = L // S

items, stages, res = load(sky, slo, L, S, AT)
arr = {j: np.array(v, dtype=float) for j, v in stages.items()}
idx = [(np.arange(lo, hi)[None, :] + np.array(st)[:, None]) % N for lo, hi, st, j in items]


def respond(w, r):
    """w: weights on the cycle's steps for resource r (0 cores, 1 memory).
    Per item: DP_j(w) in cost units, and the best placement as the (rows,
    coefficients) of its master column."""
    out = []
    for (lo, hi, st, j), ix in zip(items, idx):
        u = res[j][r] / (capc, capm)[r]
        W = u * w[ix].sum(axis=0)
        v = arr[j]
        m = len(W)
        f = v[0] * W
        back = []
        for k in range(1, len(v)):
            cm = np.minimum.accumulate(f)
            am = np.maximum.accumulate(np.where(f <= cm, np.arange(m), 0))
            g = np.empty_like(f)
            g[0] = np.inf
            g[1:] = cm[:-1]
            back.append(np.concatenate(([0], am[:-1])))
            f = v[k] * W + g
        t = int(np.argmin(f))
        val = float(f[t])
        ts = [t]
        for k in range(len(v) - 2, -1, -1):
            t = int(back[k][t])
            ts.append(t)
        ts.reverse()
        rows = np.concatenate([ix[:, ts[k]] for k in range(len(v))])
        coef = np.concatenate([np.full(ix.shape[0], v[k] * u) for k in range(len(v))])
        out.append((val, rows, coef))
    return out


def bound(w, resp):
    return sum(x[0] for x in resp) / w.sum()


def lp(r):
    """column generation for resource r: (best bound, master value, rounds, area bound)"""
    NI = len(items)
    cols = []          # (item, rows, coefs)
    seen = [set() for _ in range(NI)]

    def add(i, rows, coef):
        key = tuple(sorted(zip(rows.tolist(), np.round(coef, 12).tolist())))
        if key in seen[i]:
            return False
        seen[i].add(key)
        cols.append((i, rows, coef))
        return True

    w = np.ones(N) / N
    resp = respond(w, r)
    area = bound(w, resp)
    best, center = area, w
    # seed the master with Frank-Wolfe rounds on the smoothed peak: each
    # round's best placements at weights exp(K (load / peak - 1)) of the
    # running mixture's load
    mix = None
    for f in range(SEED):
        prof = np.zeros(N)
        for i, (val, rows, coef) in enumerate(resp):
            add(i, rows, coef)
            np.add.at(prof, rows, coef)
        mix = prof if mix is None else (1 - 2 / (f + 2)) * mix + 2 / (f + 2) * prof
        wf = np.exp(30 * (mix / mix.max() - 1))
        wf /= wf.sum()
        resp = respond(wf, r)
        if bound(wf, resp) > best:
            best, center = bound(wf, resp), wf
    for i, (val, rows, coef) in enumerate(resp):
        add(i, rows, coef)
    z, k = float('inf'), 0
    for k in range(1, ITER + 1):
        nc = len(cols)
        A = sp.csr_matrix((np.concatenate([c for _, _, c in cols] + [-np.ones(N)]),
                           (np.concatenate([rw for _, rw, _ in cols] + [np.arange(N)]),
                            np.concatenate([np.full(len(rw), q) for q, (_, rw, _) in enumerate(cols)]
                                           + [np.full(N, nc)]))), shape=(N, nc + 1))
        E = sp.csr_matrix((np.ones(nc), ([i for i, _, _ in cols], np.arange(nc))), shape=(NI, nc + 1))
        c = np.zeros(nc + 1)
        c[nc] = 1
        sol = linprog(c, A_ub=A, b_ub=np.zeros(N), A_eq=E, b_eq=np.ones(NI),
                      bounds=(0, None), method='highs')
        if sol.status != 0:
            sys.exit('plan_cgbound: master LP: ' + sol.message)
        z = sol.fun
        wm = np.maximum(-sol.ineqlin.marginals, 0)
        wm /= wm.sum()
        u = sol.eqlin.marginals
        added = 0
        for wt in (0.7 * center + 0.3 * wm, wm):    # stabilised first, then the master's own
            resp = respond(wt, r)
            if bound(wt, resp) > best:
                best, center = bound(wt, resp), wt
            for i, (val, rows, coef) in enumerate(resp):
                if val < u[i] - 1e-12 and add(i, rows, coef):
                    added += 1
            if added:
                break
        print('%s round %d: master %.7g bound %.7g, %d columns' % (('cores', 'memory')[r], k, z, best, len(cols)),
              file=sys.stderr, flush=True)
        if not added or z - best <= 1e-4 * z:
            break
    return best, z, k, area


out = [lp(0), lp(1)]
b = max(out)
print('lp bound %.6g (master %.6g after %d rounds; area bound %.6g)'
      % (b[0], max(o[1] for o in out), max(o[2] for o in out), max(o[3] for o in out)))
