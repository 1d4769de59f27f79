#!/usr/bin/python3
"""stretch_ref.py -- an independent reference simulator for stretch(1).

Written from the model in stretch(1), not from lib/vc/vcsim.c: at every event
it recomputes every allocation and every job rate from scratch (no lazy
updates, no per-VC completion heap) and steps all jobs forward together.

  stretch_ref.py gen SEED DIR        write DIR/vcs.csv and DIR/jobs.csv (a small random case)
  stretch_ref.py check DIR OUT.csv SCHEDULER SYSTEM QUANTUM WINDOW WITHIN
        compare stretch's per-job output OUT.csv with the reference; exit 1 on
        any finish time off by more than 1e-6 relative (1e-3 s absolute).
"""
import csv
import math
import random
import sys


def gen(seed, d):
    r = random.Random(seed)
    nvc = r.randint(2, 5)
    with open(f"{d}/vcs.csv", "w") as f:
        f.write("vc,capacity\n")
        for i in range(nvc):
            f.write(f"v{i},{r.choice([5, 10, 20, 40])}\n")
    with open(f"{d}/jobs.csv", "w") as f:
        f.write("job,vc,submit,size_server_hours,max_parallelism\n")
        t = 0
        for j in range(r.randint(5, 40)):
            t += r.choice([0, 0, 600, 1800, 3600, 7200, r.randint(1, 5000)])
            par = r.choice([1, 5, 10, 20, 50, ""])
            f.write(f"j{j},v{r.randrange(nvc)},{t},{r.choice([1, 2, 5, 10, 40, 100, r.random() * 50 + 0.1]):.6g},{par}\n")


def waterfill(amount, caps):
    """Max-min inside a VC: equal shares, capped; returns the shares (same order)."""
    order = sorted(range(len(caps)), key=lambda i: caps[i])
    out = [0.0] * len(caps)
    left = amount
    for n, i in enumerate(order):
        share = left / (len(caps) - n)
        g = min(caps[i], share)
        out[i] = g
        left -= g
    return out


def maxmin_total(extra, c, d):
    """Max-min of total allocation, capacities as guaranteed shares: each VC
    holds c[i] and gets min(d[i], max(c[i], x)) - c[i] more, the level x
    found by bisection (not the sweep stretch uses)."""
    def filled(x):
        return sum(min(di, max(ci, x)) - ci for ci, di in zip(c, d))
    if filled(max(d)) <= extra:
        return [di - ci for ci, di in zip(c, d)]
    lo, hi = min(c), max(d)
    for _ in range(200):
        mid = (lo + hi) / 2
        if filled(mid) < extra:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return [min(di, max(ci, x)) - ci for ci, di in zip(c, d)]


def simulate(vcs, jobs, policy, S, Q, W, within):
    names = [v[0] for v in vcs]
    cap = [v[1] for v in vcs]
    M = sum(cap) + S
    idx = {n: i for i, n in enumerate(names)}
    J = []
    for k, (jid, vc, sub, size, par) in enumerate(jobs):
        p = M if par is None else min(par, M)
        J.append(dict(id=jid, vc=idx[vc], sub=sub, work=size * 3600, p=p, rem=size * 3600, fin=None, k=k))
    pending = sorted(J, key=lambda j: (j["sub"], j["k"]))
    active = []
    credit = [0.0] * len(vcs)
    t0 = pending[0]["sub"] if pending else 0
    t = t0
    while pending or active:
        # arrivals at t
        while pending and pending[0]["sub"] <= t:
            active.append(pending.pop(0))
        # demands and allocations
        d = [0.0] * len(vcs)
        for j in active:
            d[j["vc"]] += j["p"]
        a = [min(d[i], cap[i]) for i in range(len(vcs))]
        extra = M - sum(a)
        over = [i for i in range(len(vcs)) if d[i] > cap[i]]
        if over and extra > 0:
            if policy == "maxmin":
                groups = [over]
            else:
                keyed = sorted(over, key=lambda i: (-credit[i] / cap[i], i))
                groups, cur = [], [keyed[0]]
                for i in keyed[1:]:
                    if (-credit[i] / cap[i]) - (-credit[cur[0]] / cap[cur[0]]) <= 1e-9 * W:
                        cur.append(i)
                    else:
                        groups.append(cur)
                        cur = [i]
                groups.append(cur)
            for g in groups:
                if extra <= 0:
                    break
                shares = maxmin_total(extra, [cap[i] for i in g], [d[i] for i in g])
                for i, s in zip(g, shares):
                    a[i] += s
                    extra -= s
        contended = sum(d) > M * (1 + 1e-12)
        borrowed = sum(max(0.0, a[i] - cap[i]) for i in range(len(vcs)))
        idle = sum(max(0.0, cap[i] - a[i]) for i in range(len(vcs)))
        u = min(1.0, borrowed / idle) if idle > 0 and borrowed > 0 else 0.0
        # job rates
        rate = {}
        for i in range(len(vcs)):
            mine = [j for j in active if j["vc"] == i]
            if within == "fifo":
                left = a[i]
                for j in sorted(mine, key=lambda j: (j["sub"], j["k"])):
                    rate[j["k"]] = min(j["p"], left)
                    left -= rate[j["k"]]
            else:
                for j, s in zip(mine, waterfill(a[i], [j["p"] for j in mine])):
                    rate[j["k"]] = s
        # next event
        nxt = pending[0]["sub"] if pending else math.inf
        for j in active:
            if rate[j["k"]] > 0:
                nxt = min(nxt, t + j["rem"] / rate[j["k"]])
        if policy != "maxmin" and Q > 0 and active:
            n = math.floor((t - t0) / Q) + 1
            nxt = min(nxt, t0 + n * Q)
        dt = nxt - t
        for j in active:
            j["rem"] -= rate[j["k"]] * dt
        if policy != "maxmin":
            for i in range(len(vcs)):
                r = cap[i] - a[i]
                if policy == "balanced":
                    r = r * u if r > 0 else (r if contended else 0.0)
                credit[i] = max(-cap[i] * W, min(cap[i] * W, credit[i] + r * dt))
        t = nxt
        still = []
        for j in active:
            if j["rem"] <= 1e-9 * j["work"] or (rate[j["k"]] > 0 and j["rem"] / rate[j["k"]] <= 1e-9 * (abs(t) + 1)):
                j["fin"] = t
            else:
                still.append(j)
        active = still
    return {j["id"]: (j["fin"], (j["fin"] - j["sub"]) / (j["work"] / cap[j["vc"]])) for j in J}


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def check(d, out, policy, S, Q, W, within):
    vcs = [(r["vc"], float(r["capacity"])) for r in read(f"{d}/vcs.csv")]
    jobs = [(r["job"], r["vc"], float(r["submit"]), float(r["size_server_hours"]),
             float(r["max_parallelism"]) if r.get("max_parallelism") else None) for r in read(f"{d}/jobs.csv")]
    ref = simulate(vcs, jobs, policy, float(S), float(Q), float(W), within)
    got = read(out)
    bad = 0
    if len(got) != len(ref):
        print(f"{len(got)} rows, want {len(ref)}")
        return 1
    for r in got:
        fin, st = ref[r["job"]]
        f = float(r["finish"])
        if abs(f - fin) > max(1e-3, 1e-6 * abs(fin)) or abs(float(r["stretch"]) - st) > 1e-6 * max(1, st):
            print(f"job {r['job']}: finish {f} stretch {r['stretch']}, reference {fin} {st}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]), sys.argv[3])
    else:
        sys.exit(check(*sys.argv[2:9]))
