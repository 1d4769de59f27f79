#!/usr/bin/python3
"""Independent checker of peakgate --simulate output (tests/cli/peakgate.sh).

Reads the per-step series (--series), the per-task results (stdout) and the
node summary (--summary) and checks, without any of peakgate's code:

  * the bound: in every step of every gated run, the node's memory is at most
    sum_i min(A normal_i, peak_i) + (sum of the k largest peak_i - that), and
    with --simple also sum(normal) + the k largest (peak - normal); normal and
    peak come from --model N P or are recomputed here from the raw --input;
  * the gate: at most k tasks hold a token ('peak') per step; a task above its
    threshold A*normal holds one; a paused task keeps its memory (0 before it
    starts);
  * trajectories: the values a task goes through under the gate are the same
    as unpaced (and, with --input, the same as its recorded series): pausing
    delays a task, it never changes it;
  * starvation freedom: while a task waits, every other task is granted a
    token at most once (fixed cyclic order), and every wait ends before the
    run does (or at the horizon); with --input, every task finishes;
  * the per-task numbers (progress, elapsed, slowdown, paused, longest pause,
    peaks, grants) and the summary (max, bound, held) recounted from the series.

Exit 0 when everything holds; otherwise prints what failed and exits 1.
"""
import argparse
import csv
import math
import sys
from collections import defaultdict

fails = []


def fail(msg):
    if len(fails) < 30:
        print("FAIL " + msg)
    fails.append(msg)


def close(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def percentile(xs, p):
    xs = sorted(xs)
    h = (len(xs) - 1) * p / 100.0
    lo = int(math.floor(h))
    if lo + 1 >= len(xs):
        return xs[-1]
    return xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--series", required=True)
    ap.add_argument("--tasks", required=True, help="peakgate --simulate stdout")
    ap.add_argument("--summary", required=True)
    ap.add_argument("--approach", type=float, default=1.10)
    ap.add_argument("--model", nargs=2, type=float, metavar=("NORMAL", "PEAK"))
    ap.add_argument("--noise", type=float, default=0.03)
    ap.add_argument("--input", help="raw task,t,mem_mb input (recompute profiles)")
    ap.add_argument("--normal", default="mean", help="mean or pN, as given to peakgate")
    ap.add_argument("--simple", action="store_true", help="also check sum(normal)+top-k(peak-normal)")
    ap.add_argument("--step", type=float, default=1.0)
    a = ap.parse_args()

    # ---- series
    runs = defaultdict(lambda: defaultdict(list))  # (policy,k) -> task -> [(t, mem, state)]
    with open(a.series) as f:
        for row in csv.DictReader(f):
            runs[(row["policy"], int(row["k"]))][row["task"]].append(
                (float(row["t"]), float(row["mem_mb"]), row["state"]))
    if not runs:
        fail("empty series")
        return
    tasks = sorted(next(iter(runs.values())).keys())

    # ---- normal and peak, independently
    normal, peak, raw = {}, {}, {}
    if a.model:
        for task in tasks:
            normal[task] = a.model[0]
            peak[task] = max(a.model[1], a.model[0] * (1 + a.noise))
    else:
        with open(a.input) as f:
            for row in csv.DictReader(f):
                raw.setdefault(row["task"], []).append(float(row["mem_mb"]))
        for task, xs in raw.items():
            if a.normal == "mean":
                normal[task] = sum(xs) / len(xs)
            else:
                normal[task] = percentile(xs, float(a.normal[1:]))
            peak[task] = max(xs)
        if sorted(raw) != tasks:
            fail("series tasks %s differ from the input's %s" % (tasks, sorted(raw)))
            return
    thr = {t: a.approach * normal[t] for t in tasks}

    def bound(k):
        b = {t: min(thr[t], peak[t]) for t in tasks}
        extra = sorted((peak[t] - b[t] for t in tasks), reverse=True)
        return sum(b.values()) + sum(e for e in extra[:k] if e > 0)

    def bound_simple(k):
        extra = sorted((peak[t] - normal[t] for t in tasks), reverse=True)
        return sum(normal.values()) + sum(e for e in extra[:k] if e > 0)

    # ---- per-task results and summary from the tool
    res = {}
    with open(a.tasks) as f:
        for row in csv.DictReader(f):
            res[(row["policy"], int(row["k"]), row["task"])] = row
    summ = {}
    with open(a.summary) as f:
        for row in csv.DictReader(f):
            summ[(row["policy"], int(row["k"]))] = row

    unpaced = runs.get(("unpaced", 0))
    if unpaced is None:
        fail("no unpaced run")
        return
    first_k = min(k for (p, k) in runs if p == "gated") if any(p == "gated" for p, _ in runs) else 1

    for (policy, k), per in sorted(runs.items()):
        name = "%s k=%d" % (policy, k)
        nsteps = len(per[tasks[0]])
        for task in tasks:
            if len(per[task]) != nsteps:
                fail("%s: task %s has %d steps, others %d" % (name, task, len(per[task]), nsteps))
                return
            for s, (t, _, _) in enumerate(per[task]):
                if not close(t, s * a.step):
                    fail("%s: task %s step %d has t=%g" % (name, task, s, t))
                    return
        kb = k if policy == "gated" else first_k
        B = bound(kb)
        BS = bound_simple(kb)
        maxmem = 0.0
        for s in range(nsteps):
            total = sum(per[task][s][1] for task in tasks)
            maxmem = max(maxmem, total)
            if policy == "gated":
                if total > B * (1 + 1e-9):
                    fail("%s: step %d uses %.6f MB > bound %.6f" % (name, s, total, B))
                if a.simple and total > BS * (1 + 1e-9):
                    fail("%s: step %d uses %.6f MB > sum(normal)+top-k(peak-normal) %.6f" % (name, s, total, BS))
                holders = [task for task in tasks if per[task][s][2] == "peak"]
                if len(holders) > k:
                    fail("%s: step %d has %d token holders > k=%d" % (name, s, len(holders), k))
            for task in tasks:
                _, mem, st = per[task][s]
                if policy == "gated" and mem > thr[task] * (1 + 1e-12) and st != "peak":
                    fail("%s: step %d task %s at %.3f MB above its threshold %.3f in state %s"
                         % (name, s, task, mem, thr[task], st))
                if policy == "unpaced" and st == "paused":
                    fail("%s: step %d task %s paused" % (name, s, task))
                if st == "paused":
                    prev = per[task][s - 1][1] if s > 0 else 0.0
                    if mem != prev:
                        fail("%s: step %d paused task %s changed memory %.3f -> %.3f" % (name, s, task, prev, mem))
                if st == "done" and mem != 0:
                    fail("%s: step %d finished task %s holds %.3f MB" % (name, s, task, mem))

        # trajectories: the advanced values equal the unpaced ones (and the recorded series)
        for task in tasks:
            adv = [m for (_, m, st) in per[task] if st in ("run", "peak")]
            ref = [m for (_, m, st) in unpaced[task] if st in ("run", "peak")]
            if raw:
                ref = raw[task]
            n = min(len(adv), len(ref))
            if adv[:n] != ref[:n]:
                fail("%s: task %s's trajectory differs from the unpaced one" % (name, task))
            if raw and policy == "gated" and len(adv) != len(ref):
                fail("%s: task %s did %d of its %d samples (did not finish)" % (name, task, len(adv), len(ref)))

        # grants and starvation freedom
        grants = {task: [] for task in tasks}
        for task in tasks:
            seq = per[task]
            for s, (_, mem, st) in enumerate(seq):
                if policy == "gated" and st == "peak":
                    if s == 0 or seq[s - 1][2] != "peak" or seq[s - 1][1] <= thr[task]:
                        grants[task].append(s)
        if policy == "gated":
            for task in tasks:
                seq = per[task]
                s = 0
                while s < nsteps:
                    if seq[s][2] != "paused":
                        s += 1
                        continue
                    e = s
                    while e + 1 < nsteps and seq[e + 1][2] == "paused":
                        e += 1
                    if e + 1 < nsteps and seq[e + 1][2] != "peak":
                        fail("%s: task %s's wait %d-%d ends without a token" % (name, task, s, e))
                    for other in tasks:
                        if other == task:
                            continue
                        g = [x for x in grants[other] if s <= x <= e]
                        if len(g) > 1:
                            fail("%s: while %s waited (steps %d-%d), %s got %d tokens (cyclic order broken)"
                                 % (name, task, s, e, other, len(g)))
                    s = e + 1

        # recount the per-task numbers
        sds = []
        for task in tasks:
            seq = per[task]
            progress = sum(1 for (_, _, st) in seq if st in ("run", "peak"))
            paused = sum(1 for (_, _, st) in seq if st == "paused")
            longest = run_len = 0
            for (_, _, st) in seq:
                run_len = run_len + 1 if st == "paused" else 0
                longest = max(longest, run_len)
            done_at = next((s for s, (_, _, st) in enumerate(seq) if st == "done"), None)
            elapsed = done_at if done_at is not None else nsteps
            peaks = 0
            prev = 0.0
            for (_, m, st) in seq:
                if st in ("run", "peak"):
                    if prev <= thr[task] < m:
                        peaks += 1
                    prev = m
            row = res.get((policy, k, task))
            if row is None:
                fail("%s: no result row for %s" % (name, task))
                continue
            sd = elapsed / progress if progress else float("inf")
            sds.append(sd)
            checks = [("progress_s", progress * a.step), ("elapsed_s", elapsed * a.step),
                      ("paused_s", paused * a.step), ("longest_pause_s", longest * a.step),
                      ("peaks", peaks), ("grants", len(grants[task]) if policy == "gated" else 0),
                      ("slowdown", sd)]
            for col, want in checks:
                got = float(row[col]) if row[col] != "" else float("inf")
                if not close(got, want, 1e-9):
                    fail("%s: task %s %s = %s, recounted %s" % (name, task, col, row[col], want))
        sm = summ.get((policy, k))
        if sm is None:
            fail("%s: no summary row" % name)
            continue
        if not close(float(sm["max_mem_mb"]), maxmem, 1e-9):
            fail("%s: summary max_mem_mb %s, recounted %.6f" % (name, sm["max_mem_mb"], maxmem))
        if not close(float(sm["bound_mb"]), B, 1e-9):
            fail("%s: summary bound_mb %s, recomputed %.6f" % (name, sm["bound_mb"], B))
        if not close(float(sm["bound_simple_mb"]), BS, 1e-9):
            fail("%s: summary bound_simple_mb %s, recomputed %.6f" % (name, sm["bound_simple_mb"], BS))
        held = "yes" if maxmem <= B * (1 + 1e-9) else "no"
        if sm["bound_held"] != held:
            fail("%s: summary bound_held %s, recounted %s" % (name, sm["bound_held"], held))
        if int(sm["steps"]) != nsteps:
            fail("%s: summary steps %s, series has %d" % (name, sm["steps"], nsteps))
        if not close(float(sm["max_slowdown"]), max(sds), 1e-9):
            fail("%s: summary max_slowdown %s, recounted %s" % (name, sm["max_slowdown"], max(sds)))
    print("checked %d runs of %d tasks" % (len(runs), len(tasks)))


main()
sys.exit(1 if fails else 0)
