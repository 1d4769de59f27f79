#!/usr/bin/python3
"""Independent check of traceconv's Google 2011 importer.

    google_trace.py runs  RUNS.csv  JOB_EVENTS...
    google_trace.py usage USAGE.csv STEP[,CORES,MEM] JOB_EVENTS... -- TASK_EVENTS...

runs: rebuilds the runs from the raw job events with Python's gzip and csv
modules and exact decimal arithmetic (Decimal), and compares every row, time
for time, with traceconv's output.
usage: recomputes each complete run's task-seconds from the raw task events
and checks that traceconv's containers x step add up to them (to 1e-9
relative), that the runs written are exactly the complete ones, and that the
samples are STEP apart.  With CORES,MEM (traceconv --machine cores=CORES,mem=MEM):
also that every run with a CPU or a memory request is written (and only
those), that each run's rows give one container size (the same cores and
mem_mb text on every row), and that its containers x cores x step and
containers x mem_mb x step add up to CORES (MEM) times its tasks' seconds x
CPU (memory) request.
Exit 0 when everything matches; prints the first differences otherwise."""
import csv
import gzip
import sys
from decimal import Decimal

END = {2: "evicted", 3: "failed", 4: "finished", 5: "killed", 6: "lost"}
AFTER = 2**63 - 1


def rows(path):
    op = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with op(path, "rt", newline="") as f:
        yield from csv.reader(f)


def secs(us):
    return str(Decimal(us) / Decimal(10**6)).rstrip("0").rstrip(".") if us % 10**6 else str(us // 10**6)


def job_runs(files):
    jobs = {}
    for path in files:
        for r in rows(path):
            t, jid, ev, name = int(r[0]), int(r[2]), int(r[3]), r[7]
            if jid not in jobs:
                jobs[jid] = {"name": name, "submit": None, "start": None, "end": None,
                             "type": None, "before": ev != 0}
            j = jobs[jid]
            if t == AFTER:
                continue
            if ev == 0:
                if j["submit"] is None and j["start"] is None and j["type"] is None:
                    j["submit"] = t
                if t == 0:
                    j["before"] = True
                j["type"] = None
            elif ev == 1:
                if j["start"] is None:
                    j["start"] = t
                j["type"] = None
            elif ev in END:
                j["end"], j["type"] = t, ev
    return jobs


def check_runs(out, files):
    jobs = job_runs(files)
    want = []
    for jid, j in jobs.items():
        if j["before"] or j["submit"] is None or j["start"] is None or j["type"] is None:
            continue
        want.append((j["name"], j["submit"], jid, [j["name"], str(jid), secs(j["submit"]),
                                                   secs(j["start"]), secs(j["end"]), END[j["type"]]]))
    want.sort(key=lambda w: (w[0].encode(), w[1], w[2]))
    got = list(csv.reader(open(out)))
    exp = [["job", "instance", "submit", "start", "end", "status"]] + [w[3] for w in want]
    if got != exp:
        for i, (a, b) in enumerate(zip(got, exp)):
            if a != b:
                print(f"row {i}: got {a} want {b}")
                break
        print(f"{len(got)} rows, want {len(exp)}")
        return 1
    print(f"runs: {len(exp) - 1} rows match")
    return 0


def check_usage(out, step, machine, jfiles, tfiles):
    names = {jid: j["name"] for jid, j in job_runs(jfiles).items()}
    open_, area, bad = {}, {}, set()
    req, reqarea = {}, {}   # (job, task) -> (cpu, mem) at SCHEDULE; job -> [cpu x s, mem x s]
    for path in tfiles:
        for r in rows(path):
            t, jid, idx, ev = int(r[0]), int(r[2]), int(r[3]), int(r[5])
            if t == AFTER:
                continue
            key = (jid, idx)
            if ev == 1:
                if t == 0 or key in open_:
                    bad.add(jid)
                open_[key] = t
                area.setdefault(jid, 0)
                req[key] = (float(r[9] or 0), float(r[10] or 0))
            elif ev in END:
                if key in open_:
                    d = t - open_.pop(key)
                    area[jid] = area.get(jid, 0) + d
                    ra = reqarea.setdefault(jid, [0.0, 0.0])
                    ra[0] += d * req[key][0]
                    ra[1] += d * req[key][1]
                else:
                    bad.add(jid)
    bad |= {jid for jid, _ in open_}
    want = {jid: a for jid, a in area.items() if jid not in bad and jid in names}
    if machine:   # a run with neither request has no container shape: not written
        want = {jid: a for jid, a in want.items() if max(reqarea.get(jid, [0, 0])) > 0}
    got, times, gotreq, sizes = {}, {}, {}, {}
    for r in csv.DictReader(open(out)):
        jid = int(r["run"])
        if r["job"] != names.get(jid):
            print(f"run {jid}: job {r['job']} want {names.get(jid)}")
            return 1
        c = float(r["containers"]) * step * 1e6
        got[jid] = got.get(jid, 0) + c
        times.setdefault(jid, []).append(Decimal(r["t"]))
        if machine:
            g = gotreq.setdefault(jid, [0.0, 0.0])
            g[0] += c * float(r["cores"])
            g[1] += c * float(r["mem_mb"])
            sizes.setdefault(jid, set()).add((r["cores"], r["mem_mb"]))
    if set(got) != set(want):
        print(f"runs written differ: {len(got)} vs {len(want)}; e.g. {sorted(set(got) ^ set(want))[:5]}")
        return 1
    for jid, a in want.items():
        if abs(got[jid] - a) > 1e-9 * max(a, 1):
            print(f"run {jid}: area {got[jid]} us, want {a}")
            return 1
        for i, what in enumerate(("cores", "mem_mb")) if machine else ():
            w = machine[i] * reqarea[jid][i]
            if abs(gotreq[jid][i] - w) > 1e-9 * max(w, 1):
                print(f"run {jid}: containers x {what} x step {gotreq[jid][i]}, want {w}")
                return 1
        if machine and len(sizes[jid]) != 1:   # one container size per run (replay needs it)
            print(f"run {jid}: {len(sizes[jid])} container sizes, want one: {sorted(sizes[jid])[:3]}")
            return 1
        ts = times[jid]
        if any(b - a != Decimal(step) for a, b in zip(ts, ts[1:])):
            print(f"run {jid}: samples not {step} s apart")
            return 1
    print(f"usage: {len(want)} runs, areas{' and requests' if machine else ''} match")
    return 0


def main(argv):
    if argv[1] == "runs":
        return check_runs(argv[2], argv[3:])
    files = argv[4:]
    k = files.index("--")
    step, *machine = argv[3].split(",")
    return check_usage(argv[2], int(step), [float(m) for m in machine], files[:k], files[k + 1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
