#!/usr/bin/python3
"""sloinfer_noprov.py — check SLOs inferred without provenance (basis
schedule or completion) against the runs they came from.

usage: sloinfer_noprov.py RUNS.csv SLO.csv [--min-actionable N] [--min-cover F]

For every actionable row of SLO.csv:
  * basis is 'schedule' (RUNS has no input_avail) or 'completion', and
    cv_read is empty (there are no reads);
  * 0 <= a < period and 0 < d - a <= period;
  * the window holds the job's history: placing each successful run's window
    at the grid instance nearest its submit (a + k*period), at least
    --min-cover (default 0.9) of those runs end by the window's end.
At least --min-actionable rows (default 1) must be actionable.  Reads only
the two CSV files; exit 0 when all hold, else 1 with each failure printed.
"""
import csv, math, sys

OK = {"ok", "success", "succeeded", "completed", "finished", "done", ""}

def main(argv):
    args, opts, i = [], {"--min-actionable": 1.0, "--min-cover": 0.9}, 1
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = float(argv[i + 1]); i += 2
        else:
            args.append(argv[i]); i += 1
    runs_path, slo_path = args
    runs = {}
    with open(runs_path, newline="") as f:
        rd = csv.DictReader(f)
        has_ia = "input_avail" in rd.fieldnames
        for r in rd:
            if r.get("status", "").lower() in OK:
                runs.setdefault(r["job"], []).append((float(r["submit"]), float(r["end"])))
    bad = n = 0
    for s in csv.DictReader(open(slo_path, newline="")):
        if s["status"] != "actionable":
            continue
        n += 1
        job = s["job"]
        want = "completion" if has_ia else "schedule"
        if s["basis"] != want or s["cv_read"] != "":
            print(job, "basis", s["basis"], "cv_read", s["cv_read"], "want", want); bad += 1
        P, a, d = float(s["period"]), float(s["a"]), float(s["d"])
        if not (0 <= a < P and 0 < d - a <= P):
            print(job, "window a %g d %g period %g" % (a, d, P)); bad += 1; continue
        rs = runs.get(job, [])
        covered = 0
        for sub, end in rs:
            k = math.floor((sub - a) / P + 0.5)
            covered += end <= a + k * P + (d - a) + 1e-6
        if not rs or covered < opts["--min-cover"] * len(rs):
            print(job, "window [%g, %g] of period %g holds %d of %d runs" % (a, d, P, covered, len(rs))); bad += 1
    print("%d actionable jobs, %d failures" % (n, bad))
    if n < opts["--min-actionable"]:
        print("fewer than %d actionable jobs" % opts["--min-actionable"]); bad += 1
    return 1 if bad else 0

sys.exit(main(sys.argv))
