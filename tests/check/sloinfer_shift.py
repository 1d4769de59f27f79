#!/usr/bin/python3
"""sloinfer_shift.py — the same history shifted in time gets the same SLO.

usage: sloinfer_shift.py [--basis B] SLOINFER RUNS.csv TMPDIR [HOURS...]

Shifts every time column of RUNS.csv (submit, start, end, input_avail,
output_read) by h hours for h = 0..23 (or the HOURS given), runs SLOINFER on
each, and checks, for every job, against the unshifted run:
  * the same status, period, runs, basis, problematic flag;
  * the same window length d - a (to 1e-6 s) and cv, cv_start, cv_read,
    slack_ratio (to 1e-9 relative);
  * a (mod period) moved by exactly the shift: (a + h*3600 - a_h) mod P == 0.
With --basis B (a runs file without provenance: schedule or completion),
also checks that every job's basis is B and that at least one is actionable,
so the check is not passed by jobs that have no window at all.
Independent of sloinfer: it reads only CSV files.  Exit 1 on any difference
(each printed), 0 otherwise.
"""
import csv, io, math, os, subprocess, sys

TIMES = ("submit", "start", "end", "input_avail", "output_read")

def run(cmd, path):
    out = subprocess.run(cmd.split() + ["-q", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("sloinfer failed on %s: %s" % (path, out.stderr))
    return {r["job"]: r for r in csv.DictReader(io.StringIO(out.stdout))}

def close(x, y, rel):
    if x == "" or y == "":
        return x == y
    a, b = float(x), float(y)
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))

def main(argv):
    want_basis = None
    if len(argv) > 2 and argv[1] == "--basis":
        want_basis = argv[2]
        argv = argv[:1] + argv[3:]
    cmd, runs, tmp = argv[1], argv[2], argv[3]
    hours = [int(h) for h in argv[4:]] or list(range(24))
    os.makedirs(tmp, exist_ok=True)
    rows = list(csv.DictReader(open(runs, newline="")))
    cols = list(rows[0].keys())
    base = run(cmd, runs)
    bad = 0
    if want_basis is not None:
        for job, b in base.items():
            if b["basis"] != want_basis:
                print("job %s: basis %s, want %s" % (job, b["basis"], want_basis)); bad += 1
        nact = sum(b["status"] == "actionable" for b in base.values())
        if nact == 0:
            print("no actionable job: nothing to compare"); bad += 1
        print("%d jobs, %d actionable, basis %s" % (len(base), nact, want_basis))
    for h in hours:
        path = os.path.join(tmp, "shift%02d.csv" % h)
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, cols)
            w.writeheader()
            for r in rows:
                r2 = dict(r)
                for c in TIMES:
                    if c in r2 and r2[c] != "":
                        r2[c] = str(int(float(r2[c])) + 3600 * h)
                w.writerow(r2)
        got = run(cmd, path)
        for job, b in base.items():
            g = got.get(job)
            if g is None:
                print("shift %d: job %s missing" % (h, job)); bad += 1; continue
            for c in ("status", "period", "runs", "basis", "problematic"):
                if g[c] != b[c]:
                    print("shift %d: job %s %s %s, unshifted %s" % (h, job, c, g[c], b[c])); bad += 1
            for c in ("cv", "cv_start", "cv_read", "slack_ratio"):
                if not close(g[c], b[c], 1e-9):
                    print("shift %d: job %s %s %s, unshifted %s" % (h, job, c, g[c], b[c])); bad += 1
            if b["a"] != "" and b["d"] != "":
                wb = float(b["d"]) - float(b["a"]); wg = float(g["d"]) - float(g["a"])
                if abs(wb - wg) > 1e-6:
                    print("shift %d: job %s d-a %.6f, unshifted %.6f" % (h, job, wg, wb)); bad += 1
                P = float(b["period"])
                r = math.fmod(float(b["a"]) + 3600 * h - float(g["a"]), P)
                if min(abs(r), abs(abs(r) - P)) > 1e-6:
                    print("shift %d: job %s a %s, unshifted %s" % (h, job, g["a"], b["a"])); bad += 1
    print("%d shifts of %d jobs: %d differences" % (len(hours), len(base), bad))
    return 1 if bad else 0

sys.exit(main(sys.argv))
