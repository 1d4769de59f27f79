#!/usr/bin/python3
"""replay_check.py — an independent re-implementation of replay(1)'s model
(static, plan and plan+dra with the default DRA options) that compares its
per-run results with the tool's output.

    replay_check.py USAGE SLO PROV PLAN CAP_CORES CAP_MEM IDLE REPLAY_OUT [ALIGN]

Written from the man page, not from lib/morpheus/replay.c: the plan is read row by row
(allocations summed per job and offset, no reservation geometry), idle
capacity is shared by bisection on the fair-share level (the tool sorts), and
the whole grid is simulated step by step.  Exits 1 listing the runs whose
start, finish, met, over or under differ.
"""
import csv
import math
import sys
from collections import defaultdict

usage_p, slo_p, prov_p, plan_p, capc, capm, idle, out_p = sys.argv[1:9]
align = len(sys.argv) > 9 and sys.argv[9] == "reservation"
capc, capm, idle = float(capc), float(capm), idle == "fair"

slo = {}
for r in csv.DictReader(open(slo_p)):
    st = r.get("status")
    if st is None or st in ("actionable", "overridden") or r.get("source") == "overridden":
        slo[r["job"]] = (float(r["period"]), float(r["a"]), float(r["d"]))
prov = {r["job"]: float(r["provisioned"]) for r in csv.DictReader(open(prov_p))}

# plan: containers per (job, offset step) for periodic rows, per (job, cycle, step) for once rows
per, once, shape = defaultdict(int), defaultdict(int), {}
step = lcm = None
for r in csv.DictReader(open(plan_p)):
    if r["kind"] == "end":
        continue
    step, lcm = int(r["step"]), int(r["lcm"])
    s = int(r["t"]) // step
    shape[r["job"]] = (float(r["cores"]), float(r["mem_mb"]), float(r["period"]))
    if r["kind"] == "periodic":
        per[(r["job"], s)] += int(r["containers"])
    else:
        once[(r["job"], int(r["cycle"]), s)] += int(r["containers"])


def alloc_at(job, g):
    T = g * step
    c = T // lcm
    s = (T - c * lcm) // step
    return per.get((job, s), 0) + once.get((job, c, s), 0)


# runs, resampled onto the grid
runs = []
rows = defaultdict(list)
order = []
for r in csv.DictReader(open(usage_p)):
    if r["job"] not in slo:
        continue
    if r["run"] not in rows:
        order.append((r["run"], r["job"], float(r["cores"]), float(r["mem_mb"])))
    rows[r["run"]].append((float(r["t"]), float(r["containers"])))
for run, job, c, m in order:
    sm = rows[run]
    dt = sm[-1][0] - sm[-2][0] if len(sm) > 1 else step
    first = sm[0][0]
    g0 = math.floor(first / step)
    n = max(1, math.ceil((sm[-1][0] + dt) / step - 1e-9) - g0)
    use = [0.0] * n
    for i, (t, x) in enumerate(sm):
        t1 = sm[i + 1][0] if i + 1 < len(sm) else t + dt
        k = math.floor(t / step)
        while k * step < t1:
            lo, hi = max(t, k * step), min(t1, (k + 1) * step)
            if hi > lo and 0 <= k - g0 < n:
                use[k - g0] += x * (hi - lo) / step
            k += 1
    P, a, d = slo[job]
    ps = math.floor(first / P) * P
    runs.append(dict(run=run, job=job, c=c, m=m, first=first, g0=g0, use=use, end=sm[-1][0] + dt,
                     deadline=ps + d, cutoff=ps + d + P, a=ps + a, dd=ps + d))


GRANT, WINDOW, RHO = 60.0, 120.0, 2.0


class Dra:
    """The DRA as replay(1) and reprov(1) describe it (defaults 60 s, 120 s, 2,
    --recent instance: the recent allocation R counts the plan plus the
    extensions granted in force during each step of the window)."""

    def __init__(self):
        self.nst = lcm // step
        self.lc = [0.0] * self.nst
        self.lm = [0.0] * self.nst
        for (j, s_), c in per.items():
            self.lc[s_] += c * shape[j][0]
            self.lm[s_] += c * shape[j][1]
        for (j, cyc, s_), c in once.items():
            self.lc[s_ % self.nst] += c * shape[j][0]
            self.lm[s_ % self.nst] += c * shape[j][1]
        self.st = {}

    def expire(self, t):
        for j, x in self.st.items():
            e = x["ext"]
            if e and e["until"] <= t:
                for s_ in e["slots"]:
                    self.lc[s_] -= e["extra"] * shape[j][0]
                    self.lm[s_] -= e["extra"] * shape[j][1]
                x["ext"], x["last_until"], x["last_extra"] = None, e["until"], e["extra"]

    def sample(self, j, t, demand):
        if j not in shape:
            return 0
        x = self.st.setdefault(j, dict(ext=None, hold=-math.inf, last_until=-math.inf, last_extra=0, granted=[],
                                       last=0))
        self.expire(t)
        a = self.decide(j, x, t, demand)
        if a > 0:  # the allocation in force at the job's last sample that had one
            x["last"] = a
        return a

    def decide(self, j, x, t, demand):
        g_ = math.floor(t / step)
        b = alloc_at(j, g_)
        if x["ext"] and x["ext"]["until"] > t:
            return b + x["ext"]["extra"]
        if t < x["hold"]:
            return b
        dem = math.ceil(demand - 1e-9)
        if dem <= b:
            return b
        R = max(alloc_at(j, k) + max([e for t0, u, e in x["granted"] if t0 < (k + 1) * step and u > k * step],
                                     default=0)
                for k in range(math.floor((t - WINDOW) / step), g_ + 1))
        if R == 0:  # nothing recent (refused past its reservation): its last allocation
            R = x["last"]
        extra = min(dem - b, math.floor(RHO * R + 1e-9))
        until = t + GRANT
        if extra <= 0:
            x["hold"] = until
            return b
        slots = [k % self.nst for k in range(g_, max(math.ceil((t + GRANT) / step - 1e-9), g_ + 1))]
        c, m, _ = shape[j]
        # partial grants: what fits at every slot of the extension; refused when not one container does
        fit = min(min(math.floor((capc - self.lc[s_]) / c + 1e-9), math.floor((capm - self.lm[s_]) / m + 1e-9))
                  for s_ in slots)
        if fit < 1:
            x["hold"] = until
            return b
        extra = min(extra, fit)
        for s_ in slots:
            self.lc[s_] += extra * c
            self.lm[s_] += extra * m
        x["ext"] = dict(extra=extra, until=until, slots=slots)
        x["granted"].append((t, until, extra))
        return b + extra


def simulate(regime):
    res = {}
    dra = Dra() if regime == "plan+dra" else None
    starts = {}
    for i, r in enumerate(runs):
        s = r["g0"]
        if align and regime != "static":
            lo, hi = math.floor(r["a"] / step), math.ceil(r["dd"] / step)
            for g in range(lo, hi):
                if alloc_at(r["job"], g) > 0:
                    s = g
                    break
        starts[i] = s
    pending = sorted(range(len(runs)), key=lambda i: (starts[i], i))
    state = {i: dict(k=0, debt=0.0, over=0.0, under=0.0) for i in range(len(runs))}
    active, nxt = [], 0
    g = starts[pending[0]] if pending else 0
    while nxt < len(pending) or active:
        while nxt < len(pending) and starts[pending[nxt]] <= g:
            active.append(pending[nxt])
            nxt += 1
        dem = {}
        for i in active:
            r, x = runs[i], state[i]
            dem[i] = (r["use"][x["k"]] if x["k"] < len(r["use"]) else 0.0) + x["debt"]
        give = {}
        if dra:
            dra.expire(g * step)
            jd = defaultdict(float)
            for i in active:
                jd[runs[i]["job"]] += dem[i]
        # static, and the jobs the plan holds nothing for: manual provisioning
        manual = [i for i in active if regime == "static" or runs[i]["job"] not in shape]
        for i in manual:
            give[i] = prov.get(runs[i]["job"], 0.0)
        if regime != "static":
            left, cnt = {}, defaultdict(int)
            planned = [i for i in active if runs[i]["job"] in shape]
            for i in planned:
                cnt[runs[i]["job"]] += 1
            for i in planned:
                j = runs[i]["job"]
                if j not in left:
                    left[j] = float(dra.sample(j, g * step, jd[j]) if dra else alloc_at(j, g))
                cnt[j] -= 1
                give[i] = left[j] if cnt[j] == 0 else min(dem[i], left[j])
                left[j] -= give[i]
        alloc = {i: min(dem[i], give[i]) for i in active}
        uc = sum(alloc[i] * runs[i]["c"] for i in active)
        um = sum(alloc[i] * runs[i]["m"] for i in active)
        f = min(capc / uc if uc > capc else 1, capm / um if um > capm else 1)
        if f < 1:
            for i in active:
                alloc[i] *= f
            uc *= f
            um *= f
        if idle:
            want = {i: dem[i] - alloc[i] for i in active if dem[i] - alloc[i] > 1e-12}
            ic, im = capc - uc, capm - um
            if want and ic > 0 and im > 0:
                dsh = {i: max(runs[i]["c"] / capc, runs[i]["m"] / capm) for i in want}

                def fits(lam):
                    sc = sum(min(want[i], lam / dsh[i]) * runs[i]["c"] for i in want)
                    sm_ = sum(min(want[i], lam / dsh[i]) * runs[i]["m"] for i in want)
                    return sc <= ic * (1 + 1e-12) and sm_ <= im * (1 + 1e-12)
                top = max(want[i] * dsh[i] for i in want)
                if fits(top):
                    lam = top
                else:
                    lo, hi = 0.0, top
                    for _ in range(200):
                        mid = (lo + hi) / 2
                        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
                    lam = lo
                for i in want:
                    alloc[i] += min(want[i], lam / dsh[i])
        keep = []
        for i in active:
            r, x = runs[i], state[i]
            if give[i] > dem[i]:
                x["over"] += (give[i] - dem[i]) * step
            debt = dem[i] - alloc[i]
            if debt < 1e-9 * max(dem[i], 1):
                debt = 0.0
            x["debt"] = debt
            x["k"] += 1
            if x["k"] == len(r["use"]):
                x["under"] = debt * step
            tend = (g + 1) * step
            if x["k"] >= len(r["use"]) and debt == 0:
                # served in full at its last step: the recorded end, moved with the start
                fin = tend
                if x["k"] == len(r["use"]):
                    fin = min(tend, r["end"] + (starts[i] - r["g0"]) * step)
                res[r["run"]] = (starts[i] * step if align and regime != "static" else r["first"], fin,
                                 int(fin <= r["deadline"] + 1e-9), x["over"], x["under"])
            elif tend >= r["cutoff"]:
                res[r["run"]] = (starts[i] * step if align and regime != "static" else r["first"], None, 0,
                                 x["over"], x["under"])
            else:
                keep.append(i)
        active = keep
        g += 1
    return res


want = {}
got = defaultdict(dict)
for r in csv.DictReader(open(out_p)):
    got[r["regime"]][r["run"]] = r
bad = 0
checked = 0
for regime in got:
    mine = simulate(regime)
    if set(mine) != set(got[regime]):
        print("%s: runs differ: %d in the checker, %d in replay" % (regime, len(mine), len(got[regime])))
        bad += 1
        continue
    for run, (start, fin, met, over, under) in mine.items():
        o = got[regime][run]
        ofin = float(o["finish"]) if o["finish"] else None
        close = lambda x, y: abs(x - y) <= 1e-6 * max(1.0, abs(x), abs(y))
        same_t = lambda x, y: abs(x - y) <= 1e-3
        ok = (same_t(float(o["start"]), start) and (fin is None) == (ofin is None) and
              (fin is None or same_t(fin, ofin)) and int(o["met"]) == met and
              close(float(o["over_container_s"]), over) and close(float(o["under_container_s"]), under))
        checked += 1
        if not ok:
            bad += 1
            if bad <= 10:
                print("%s %s: checker start %s finish %s met %s over %.6g under %.6g; replay %s" %
                      (regime, run, start, fin, met, over, under, dict(o)))
print("replay_check: %d runs checked, %d differ" % (checked, bad))
sys.exit(1 if bad or not checked else 0)
