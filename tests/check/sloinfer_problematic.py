#!/usr/bin/python3
"""sloinfer_problematic.py — the default problematic threshold, checked
against an independent computation of Morpheus §7's CVs.

usage: sloinfer_problematic.py SLOINFER TMPDIR

Writes a runs file of daily jobs (30 runs each, submit at 01:00 + j min,
start 60 s later, 1 h long) whose waits are drawn with a fixed seed:
  reg_*    input waits 600 s +- 30 s, reads 2 h +- 60 s after the end
  unif_*   input waits uniform on [300, 900] s (MAD/median about 0.25)
  exp_*    input waits exponential, mean 1800 s (MAD/median about 0.694)
  wide_*   input waits log-uniform on [1, 20000] s: unpredictable
  bimod_*  input waits 0 s or 10000-40000 s, half each: unpredictable
  rwide_*  regular input waits, reads log-uniform on [1, 50000] s after the end
runs SLOINFER on it with its defaults (no --problematic-cv) and checks for
every job:
  * cv_start = MAD/median of start - input_avail and cv_read = MAD/median of
    output_read - end (medians below 60 s count as 60 s), computed here with
    Python's statistics module, equal to sloinfer's (1e-9 relative);
  * problematic = 1 exactly when either is above asinh(1/2)/ln 2 = 0.6942
    (the MAD/median of exponential waits);
  * the design holds on these draws: every reg_ and unif_ job is 0, every
    wide_, bimod_ and rwide_ job is 1 (exp_ jobs sit on the threshold and
    may go either way; only the rule above is checked for them).
Exit 1 on any difference (each printed), 0 otherwise.
"""
import csv, io, math, os, random, statistics, subprocess, sys

THRESHOLD = math.asinh(0.5) / math.log(2)
DAY, T0, RUNS = 86400, 1767571200, 30

def robust_cv(x, floor):
    m = statistics.median(x)
    mad = statistics.median([abs(v - m) for v in x])
    return mad / max(m, floor)

def draw(kind, rnd):
    """(input wait, read wait) of one run of a job of this kind."""
    read = 7200 + rnd.uniform(-60, 60)
    if kind == "reg":
        return 600 + rnd.uniform(-30, 30), read
    if kind == "unif":
        return rnd.uniform(300, 900), read
    if kind == "exp":
        return rnd.expovariate(1 / 1800), read
    if kind == "wide":
        return math.exp(rnd.uniform(0, math.log(20000))), read
    if kind == "bimod":
        return (0 if rnd.random() < 0.5 else rnd.uniform(10000, 40000)), read
    if kind == "rwide":
        return 600 + rnd.uniform(-30, 30), math.exp(rnd.uniform(0, math.log(50000)))
    raise ValueError(kind)

def main(argv):
    cmd, tmp = argv[1], argv[2]
    os.makedirs(tmp, exist_ok=True)
    rnd = random.Random(16)
    kinds = ["reg", "unif", "exp", "wide", "bimod", "rwide"]
    want, rows = {}, []
    j = 0
    for kind in kinds:
        for n in range(4):
            job = "%s_%d" % (kind, n)
            waits, reads = [], []
            for k in range(RUNS):
                sub = T0 + k * DAY + 3600 + 60 * j
                start, end = sub + 60, sub + 60 + 3600
                w, r = draw(kind, rnd)
                ia, rd = "%.3f" % (start - w), "%.3f" % (end + r)
                waits.append(start - float(ia)) # as sloinfer reads them
                reads.append(float(rd) - end)
                rows.append((job, "%s-%02d" % (job, k), sub, start, end, ia, rd))
            cs, cr = robust_cv(waits, 60), robust_cv(reads, 60)
            want[job] = (kind, cs, cr, int(cs > THRESHOLD or cr > THRESHOLD))
            j += 1
    path = os.path.join(tmp, "problematic_runs.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["job", "instance", "submit", "start", "end", "input_avail", "output_read", "status"])
        for r in rows:
            w.writerow(list(r) + ["ok"])
    out = subprocess.run(cmd.split() + ["-q", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("sloinfer failed: %s" % out.stderr)
    got = {r["job"]: r for r in csv.DictReader(io.StringIO(out.stdout))}
    bad = 0
    for job, (kind, cs, cr, flag) in sorted(want.items()):
        g = got.get(job)
        if g is None:
            print("%s: missing" % job); bad += 1; continue
        for name, x in (("cv_start", cs), ("cv_read", cr)):
            y = float(g[name])
            if abs(x - y) > 1e-9 * max(1, abs(x)):
                print("%s: %s %.12g, want %.12g" % (job, name, y, x)); bad += 1
        if int(g["problematic"]) != flag:
            print("%s: problematic %s, want %d (cv_start %.4f, cv_read %.4f, threshold %.4f)"
                  % (job, g["problematic"], flag, cs, cr, THRESHOLD)); bad += 1
        design = {"reg": 0, "unif": 0, "wide": 1, "bimod": 1, "rwide": 1}.get(kind)
        if design is not None and flag != design:
            print("%s: the draw does not show the design (cv_start %.4f, cv_read %.4f): flag %d, meant %d"
                  % (job, cs, cr, flag, design)); bad += 1
    nflag = sum(v[3] for v in want.values())
    print("%d jobs, %d problematic by default (threshold %.4f)" % (len(want), nflag, THRESHOLD))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
