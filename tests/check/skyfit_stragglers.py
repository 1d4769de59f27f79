#!/usr/bin/python3
"""skyfit_stragglers.py — skyfit's outlier rule on tracegen ground truth.

usage: skyfit_stragglers.py TMPDIR [--count N] [--days D] [--seed S]
                            [--prob P] [--last L] [--k K] [--runs] [--max-long F] [--max-under X]

Generates the same jobs twice with tracegen usage: with stragglers
(--set straggler_prob=P, default 0.3: a straggler runs 1.5-3x longer with a
tail of a few slow tasks) and without (straggler_prob=0: the true normal
behaviour).  Fits three skylines with `skyfit --last L` (default 10): on the
clean trace with --keep-outliers (the reference: every normal run), and on the straggler trace with the outlier rule
(default, or --outlier-k K) and with --keep-outliers; with --runs also with
the rule measuring run lengths from the straggler trace's runs table
(tracegen runs, same seed and parameters: skyfit --runs).  For each job it measures
  * the skyline's length in steps, against the reference's;
  * the under-allocation of the NORMAL runs (every run of the clean trace):
    mean over runs of sum_k (u_k - s_k)+ / sum_k u_k.
Prints a table row per variant; with --max-long F and --max-under X it
checks that with the rule (and with the rule and --runs) at most a fraction F of jobs has a skyline more
than 1.3x the reference's length, and that its mean under-allocation of
normal runs exceeds the reference's by at most X.  Independent of skyfit's
internals: it reads only CSV files.
"""
import csv, os, statistics, subprocess, sys

def opt(argv, name, default):
    return type(default)(argv[argv.index(name) + 1]) if name in argv else default

def sh(cmd, out):
    with open(out, "w") as f:
        subprocess.run(cmd, stdout=f, check=True)

def skylines(path):
    s = {}
    for r in csv.DictReader(open(path, newline="")):
        s.setdefault(r["job"], []).append(float(r["alloc"]))
    return s

def runs(path):
    u = {}
    for r in csv.DictReader(open(path, newline="")):
        u.setdefault(r["job"], {}).setdefault(r["run"], []).append(float(r["containers"]))
    return u

def under(sky, rs):
    vals = []
    for u in rs.values():
        tot = sum(u)
        miss = sum(max(x - (sky[k] if k < len(sky) else 0.0), 0.0) for k, x in enumerate(u))
        vals.append(miss / tot if tot > 0 else 0.0)
    return statistics.mean(vals)

def main(argv):
    tmp = argv[1]
    n, days, seed = opt(argv, "--count", 60), opt(argv, "--days", 21), opt(argv, "--seed", 1)
    prob, last = opt(argv, "--prob", 0.3), opt(argv, "--last", 10)
    os.makedirs(tmp, exist_ok=True)
    base = ["tracegen", "-q", "usage", "--seed", str(seed), "--count", str(n), "--days", str(days)]
    dirty, clean = os.path.join(tmp, "dirty.csv"), os.path.join(tmp, "clean.csv")
    sh(base + ["--set", "straggler_prob=%g" % prob], dirty)
    sh(base + ["--set", "straggler_prob=0"], clean)
    variants = [("reference (no stragglers)", clean, ["--keep-outliers"]), ("outlier rule (default)", dirty, []),
                ("--keep-outliers", dirty, ["--keep-outliers"])]
    if "--runs" in argv:
        table = os.path.join(tmp, "dirty_runs.csv")
        sh(["tracegen", "-q", "runs"] + base[3:] + ["--set", "straggler_prob=%g" % prob], table)
        variants.append(("outlier rule, --runs", dirty, ["--runs", table]))
    fits = {}
    for name, inp, extra in variants:
        out = os.path.join(tmp, "sky%d.csv" % len(fits))
        k = ["--outlier-k", argv[argv.index("--k") + 1]] if "--k" in argv and "--keep-outliers" not in extra else []
        sh(["skyfit", "-q", "--last", str(last)] + k + extra + [inp], out)
        fits[name] = skylines(out)
    normal = runs(clean)
    ref = fits["reference (no stragglers)"]
    jobs = sorted(j for j in ref if all(j in f for f in fits.values()))
    print("%d jobs, straggler_prob %g, skyfit --last %d" % (len(jobs), prob, last))
    print("%-26s %14s %14s %14s" % ("skyline", "len/ref (med)", "len > 1.3 ref", "under normal"))
    res = {}
    for name, f in fits.items():
        ratio = [len(f[j]) / len(ref[j]) for j in jobs]
        longer = sum(r > 1.3 for r in ratio) / len(jobs)
        u = statistics.mean(under(f[j], normal[j]) for j in jobs)
        res[name] = (longer, u)
        print("%-26s %14.3f %13.1f%% %13.2f%%" % (name, statistics.median(ratio), 100 * longer, 100 * u))
    bad = 0
    for rule in [n for n in res if n.startswith("outlier rule")]:
        if "--max-long" in argv and res[rule][0] > opt(argv, "--max-long", 0.0):
            print("too many long skylines with the %s" % rule); bad = 1
        if "--max-under" in argv and res[rule][1] > res["reference (no stragglers)"][1] + opt(argv, "--max-under", 0.0):
            print("under-allocation of normal runs grew with the %s" % rule); bad = 1
    return bad

sys.exit(main(sys.argv))
