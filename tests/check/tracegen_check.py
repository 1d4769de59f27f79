#!/usr/bin/python3
"""tracegen_check.py — an independent checker of tracegen's job kinds.

  tracegen_check.py runs   RUNS.csv TRUTH.csv DAYS START
      schema and ranges of `runs`, and that the truth describes the data:
      the period matches the spacing of submits, a <= d, the empirical 95th
      percentile of input_avail offsets and median of output_read offsets of
      actionable jobs are near a and d, and every not-actionable reason
      shows in the data (high CV, no slack, never read).
  tracegen_check.py usage  RUNS.csv USAGE.csv [failed]
      usage covers exactly the ok runs (all runs with `failed`), one sample a
      minute from start to end, positive integers, cores/mem constant per job.
  tracegen_check.py events RUNS.csv EVENTS.csv
      rebuilds input_avail and output_read of every run from the provenance
      events by the rule of Morpheus §4 and compares them exactly:
        input_avail = last write, by another job, of a file the run reads,
                      before the run starts;
        output_read = first read, by another job, of a file the run wrote
                      (empty when nobody else reads them).

Written from the man page, not from the generator's code.  Exits 1 with the
first problems found.
"""
import csv
import math
import sys
from collections import defaultdict

errors = []


def err(msg):
    errors.append(msg)
    if len(errors) > 20:
        finish()


def finish():
    if errors:
        for e in errors[:20]:
            print("tracegen_check:", e)
        sys.exit(1)
    sys.exit(0)


def read(path, want_header):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = next(r)
        if header != want_header:
            err(f"{path}: header {header}, want {want_header}")
            finish()
        return [dict(zip(header, row)) for row in r]


def intval(s, what):
    try:
        return int(s)
    except ValueError:
        err(f"{what}: not an integer: {s!r}")
        return 0


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[(n - 1) // 2] + xs[n // 2]) / 2


def pct(xs, p):
    """type-7 percentile"""
    xs = sorted(xs)
    h = (len(xs) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


RUNS_COLS = ["job", "instance", "submit", "start", "end", "input_avail", "output_read", "status"]
TRUTH_COLS = ["job", "period", "a", "d", "consumer_period", "actionable", "reason"]


def load_runs(path):
    rows = read(path, RUNS_COLS)
    jobs = {}
    order = []
    seen = set()
    for i, r in enumerate(rows, 2):
        w = f"{path}:{i}"
        j = r["job"]
        if j not in jobs:
            if j in seen:
                err(f"{w}: job {j} not grouped")
            jobs[j] = []
            order.append(j)
        seen.add(j)
        for c in ("submit", "start", "end", "input_avail"):
            r[c] = intval(r[c], f"{w} {c}")
        r["output_read"] = intval(r["output_read"], f"{w} output_read") if r["output_read"] else None
        if r["status"] not in ("ok", "failed"):
            err(f"{w}: status {r['status']!r}")
        if not r["instance"].startswith(j + "-") or not r["instance"][len(j) + 1:].isdigit():
            err(f"{w}: instance {r['instance']!r} is not {j}-NNNNNN")
        if not r["submit"] <= r["start"] <= r["end"]:
            err(f"{w}: want submit <= start <= end")
        if not r["input_avail"] < r["start"]:
            err(f"{w}: input_avail {r['input_avail']} not before start {r['start']}")
        if r["output_read"] is not None:
            if r["status"] != "ok":
                err(f"{w}: a failed run's output was read")
            if r["output_read"] <= r["end"]:
                err(f"{w}: output read at {r['output_read']} before the run ended at {r['end']}")
        jobs[j].append(r)
    for j, rs in jobs.items():
        ids = [r["instance"] for r in rs]
        if len(set(ids)) != len(ids):
            err(f"{j}: duplicate instance ids")
        subs = [r["submit"] for r in rs]
        if subs != sorted(subs):
            err(f"{j}: runs not sorted by submit")
    return jobs, order


def check_runs(runs_path, truth_path, days, start):
    jobs, order = load_runs(runs_path)
    truth = read(truth_path, TRUTH_COLS)
    tjobs = [t["job"] for t in truth]
    if set(jobs) - set(tjobs):
        err(f"jobs without truth: {sorted(set(jobs) - set(tjobs))[:5]}")
    reasons = defaultdict(int)
    for t in truth:
        j = t["job"]
        P = int(t["period"])
        a = int(t["a"])
        d = int(t["d"]) if t["d"] else None
        cp = int(t["consumer_period"]) if t["consumer_period"] else None
        act = t["actionable"]
        reason = t["reason"]
        reasons[reason] += 1
        if act not in ("0", "1") or (act == "1") != (reason == "actionable"):
            err(f"{j}: actionable {act!r} does not match reason {reason!r}")
        if reason not in ("actionable", "high_cv", "no_slack", "no_consumer"):
            err(f"{j}: unknown reason {reason!r}")
        if not 0 <= a < P:
            err(f"{j}: a={a} outside [0, {P})")
        if (d is None) != (reason == "no_consumer") or (cp is None) != (reason == "no_consumer"):
            err(f"{j}: d/consumer_period presence does not match reason {reason}")
        if d is not None and not a <= d < P:
            err(f"{j}: want a <= d < period, got a={a} d={d} period={P}")
        if cp is not None and (cp < P or cp % P):
            err(f"{j}: consumer_period {cp} is not a multiple of the period {P}")
        rs = jobs.get(j, [])
        # expected number of scheduled runs: periods starting inside the trace
        k0 = math.ceil(start / P)
        k1 = math.ceil((start + days * 86400) / P)
        nper = k1 - k0
        if nper >= 50 and not 0.9 * nper <= len(rs) <= 1.15 * nper:
            err(f"{j}: {len(rs)} runs for {nper} periods")
        if len(rs) >= 5:
            # the period is the typical spacing of submits (robust to extra runs)
            gaps = [y["submit"] - x["submit"] for x, y in zip(rs, rs[1:])]
            g = median(gaps)
            if abs(g - P) > 60:
                err(f"{j}: median submit spacing {g} s, truth period {P}")
            # submits are scheduled: most at the same offset in the period
            offs = sorted(r["submit"] % P for r in rs)
            mo = median(offs)
            near = sum(1 for o in offs if abs(o - mo) <= 60)
            if near < 0.8 * len(offs):
                err(f"{j}: only {near} of {len(offs)} submits near offset {mo}")
        ok = [r for r in rs if r["status"] == "ok"]
        if len(ok) < 8:
            continue
        # scheduled runs: submitted at the usual offset (retries and manual
        # runs come later in the period and may see late appends to inputs)
        mo = median([r["submit"] % P for r in rs])
        sched = [r for r in rs if abs(r["submit"] % P - mo) <= 60]
        # offsets relative to the period start of the run's submit
        ia = [r["input_avail"] - (r["submit"] // P) * P for r in sched]
        if reason != "no_consumer" and not any(r["output_read"] is not None for r in ok):
            err(f"{j}: has a consumer but no output is ever read")
        if reason == "no_consumer" and any(r["output_read"] is not None for r in rs):
            err(f"{j}: no consumer, yet an output was read")
        if reason == "actionable":
            if abs(pct(ia, 0.95) - a) > 0.03 * P + 30:
                err(f"{j}: p95 of input_avail offsets {pct(ia, 0.95):.0f}, truth a={a} (period {P})")
        rd = [r for r in ok if r["output_read"] is not None]
        if len(rd) < 8 or reason == "no_consumer":
            continue
        if cp == P:
            od = [r["output_read"] - (r["submit"] // P) * P for r in rd]
        else:  # a longer-period consumer: the offset within the job's period
            od = [r["output_read"] % P for r in rd]
        med = median(od)
        mad = median([abs(x - med) for x in od])
        cv = mad / med if med > 0 else float("inf")
        slack = median([(r["output_read"] - r["end"]) / max(1, r["end"] - r["start"]) for r in rd])
        if reason == "actionable":
            if abs(med - d) > 0.03 * P + 30:
                err(f"{j}: median output_read offset {med:.0f}, truth d={d} (period {P})")
            if cv > 0.1:
                err(f"{j}: actionable but CV of output_read {cv:.3f}")
            if slack < 0.5:
                err(f"{j}: actionable but slack ratio {slack:.2f}")
        elif reason == "high_cv" and cv < 0.15:
            err(f"{j}: high_cv but CV of output_read {cv:.3f}")
        elif reason == "no_slack" and slack > 0.3:
            err(f"{j}: no_slack but slack ratio {slack:.2f}")
    print("runs:", sum(len(v) for v in jobs.values()), "runs of", len(jobs), "jobs;",
          ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))


def check_usage(runs_path, usage_path, failed):
    jobs, _ = load_runs(runs_path)
    want = {}
    for rs in jobs.values():
        for r in rs:
            if r["status"] == "ok" or failed:
                want[r["instance"]] = r
    rows = read(usage_path, ["job", "run", "t", "containers", "cores", "mem_mb"])
    got = defaultdict(list)
    percore = {}
    for i, u in enumerate(rows, 2):
        w = f"{usage_path}:{i}"
        t, c, co, me = (intval(u[k], f"{w} {k}") for k in ("t", "containers", "cores", "mem_mb"))
        if c < 1 or co < 1 or me < 1:
            err(f"{w}: containers, cores and mem_mb must be positive")
        if percore.setdefault(u["job"], (co, me)) != (co, me):
            err(f"{w}: cores/mem_mb change within job {u['job']}")
        r = want.get(u["run"])
        if r is None:
            err(f"{w}: run {u['run']} is not an {'' if failed else 'ok '}run of the runs kind")
            continue
        if r["job"] != u["job"]:
            err(f"{w}: run {u['run']} belongs to {r['job']}")
        got[u["run"]].append(t)
    for inst, r in want.items():
        ts = got.get(inst, [])
        n = -(-(r["end"] - r["start"]) // 60)
        if ts != [r["start"] + 60 * k for k in range(n)]:
            err(f"run {inst}: {len(ts)} samples, want {n} at start + 60k")
    print("usage:", len(rows), "samples of", len(got), "runs")


def check_events(runs_path, events_path):
    jobs, _ = load_runs(runs_path)
    rows = read(events_path, ["time", "job", "instance", "file", "op"])
    reads = defaultdict(list)    # instance -> files it read
    writes = defaultdict(list)   # file -> [(time, job, instance)]
    freads = defaultdict(list)   # file -> [(time, job)]
    wrote = defaultdict(set)     # instance -> files it wrote
    seen_inst = set()
    for i, e in enumerate(rows, 2):
        t = intval(e["time"], f"{events_path}:{i} time")
        if e["op"] == "read":
            reads[e["instance"]].append(e["file"])
            freads[e["file"]].append((t, e["job"]))
        elif e["op"] == "write":
            writes[e["file"]].append((t, e["job"]))
            wrote[e["instance"]].add(e["file"])
        else:
            err(f"{events_path}:{i}: op {e['op']!r}")
        seen_inst.add((e["job"], e["instance"]))
    nrun = 0
    for j, rs in jobs.items():
        for r in rs:
            nrun += 1
            inst = r["instance"]
            if (j, inst) not in seen_inst:
                err(f"run {inst} has no events")
                continue
            ws = [t for f in set(reads[inst]) for (t, wj) in writes[f] if wj != j and t < r["start"]]
            ia = max(ws) if ws else None
            if ia != r["input_avail"]:
                err(f"run {inst}: events give input_avail {ia}, runs has {r['input_avail']}")
            rd = [t for f in wrote[inst] for (t, rj) in freads[f] if rj != j]
            orr = min(rd) if rd else None
            if orr != r["output_read"]:
                err(f"run {inst}: events give output_read {orr}, runs has {r['output_read']}")
    runs_inst = {(j, r["instance"]) for j, rs in jobs.items() for r in rs}
    for (j, inst) in seen_inst:
        if j in jobs and (j, inst) not in runs_inst:
            err(f"events name run {inst} of {j}, which runs does not have")
    print("events:", len(rows), "events;", nrun, "runs reproduced")


def main():
    a = sys.argv[1:]
    if len(a) >= 5 and a[0] == "runs":
        check_runs(a[1], a[2], float(a[3]), float(a[4]))
    elif len(a) >= 3 and a[0] == "usage":
        check_usage(a[1], a[2], len(a) > 3 and a[3] == "failed")
    elif len(a) == 3 and a[0] == "events":
        check_events(a[1], a[2])
    else:
        print(__doc__)
        sys.exit(2)
    finish()


main()
