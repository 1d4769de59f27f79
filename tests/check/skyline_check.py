#!/usr/bin/python3
"""skyline_check.py — check skyfit's LP optimum against glpsol on the plain model.

For each seed: random jobs (1-6 runs of 1-24 one-minute steps, zeros,
fractions, runs of different lengths, rows shuffled within the job, some
times in ISO 8601) go through `skyfit --stats`; every job's optimum is then
computed independently by glpsol on tests/check/skyline.mod (twice for the
paper's two-phase beta rule), and the checker verifies, for each job:
  - status optimal, one row per step, offsets k*step, alloc >= 0;
  - the objective of skyfit's allocation, recomputed here from the paper's
    definitions (debt recursion), equals glpsol's optimum to 1e-9 relative
    (it was 1e-6 until 2026-11-29; the solver's certificate works at 1e-9,
    and glpsol's optima of these small LPs are that exact);
  - the stats columns objective, a_o, a_u, eps agree with that recomputation;
  - the outlier rule of skyfit(1), recomputed here: a run longer (steps) or
    larger (sum of usage) than median + k * max(1.4826 MAD, 0.1 median, 0.5) of
    the job's runs (median and MAD of the values spread over their
    resolution, one step or one container-step; only runs above the plain
    median), with 5 runs or more, is left out of the fit (so out of
    the glpsol model) and named in the stats column excluded_runs; k = 3,
    or none with --keep-outliers, or --outlier-k K.
  - with the checker's flag --prior W: a random prior skyline for two jobs
    of three (1 to K + 3 steps of 60 s, integers and fractions, sometimes
    the fit's own optimum, which the fit must then return; the third job
    not in it) goes to skyfit
    --prior FILE --prior-weight W; glpsol then solves the final phase with
    mu = W * alpha and the prior (phase 1, hence beta, without it), the
    objective compared is the fit's plus mu * sum |s_k - p_k|, and the
    stats column prior_cost must be that term (empty for the third job).
  - with the checker's flag --runs-table: a runs table (instance, start,
    end) gives about two runs in three a length to the second within their
    last step; skyfit reads it with --runs and the recomputed rule measures
    those runs' lengths in seconds (the others steps x 60) with a floor of
    half a step, 30 s; the stats column recorded_lengths counts them.
Exit 0 when all pass; prints every mismatch.

usage: skyline_check.py SKYFIT_CMD MODEL TMPDIR SEEDS [skyfit options...]
       skyline_check.py --native FILE SKYFIT_CMD MODEL TMPDIR
The --native form reads a ResourceEstimator native skyline log itself (units
containers:offset lasting 5 s, overlapping units adding up), fits it with
`skyfit --format native --step 5` and checks every job the same way.
"""
import csv, os, random, statistics, subprocess, sys, time

def half_point(f, lo, hi):
    """the middle of {y : f(y) = 1/2} for f continuous and nondecreasing
    from below to above 1/2 on [lo, hi] (the middle of a flat stretch at
    1/2, as the median of an even count is the middle of the two); 1/2 to
    1e-9, as the spreads' shares add up in floating point"""
    a, b = lo, hi
    for _ in range(200):        # the lowest point at 1/2
        m = (a + b) / 2
        a, b = (m, b) if f(m) < 0.5 - 1e-9 else (a, m)
    low = b
    a, b = lo, hi
    for _ in range(200):        # the highest
        m = (a + b) / 2
        a, b = (m, b) if f(m) <= 0.5 + 1e-9 else (a, m)
    return (low + a) / 2

def spread_median(x, res):
    """the median of the mixture of uniform spreads [v - res/2, v + res/2]
    (skyfit(1): the values read at their resolution); its CDF is continuous
    and piecewise linear"""
    n = float(len(x))
    return half_point(lambda m: sum(min(1.0, max(0.0, (m - v) / res + 0.5)) for v in x) / n,
                      min(x) - res, max(x) + res)

def spread_mad(x, med, res):
    """the median of |X - med| for X of that mixture"""
    n = float(len(x))
    def inside(v, d):   # the share of v's spread within [med - d, med + d]
        return max(0.0, min(v + res / 2, med + d) - max(v - res / 2, med - d)) / res
    return half_point(lambda d: sum(inside(v, d) for v in x) / n, 0.0, max(abs(v - med) for v in x) + res)

def outliers(runs, k, len_step=1.0):
    """indices of the outlier runs; runs = [(length, area)], lengths in
    units of which one step is len_step.  skyfit(1): the median and MAD of
    the values read at their resolution (a step for lengths, a
    container-step for areas), a unit floor of half of it, and only runs
    above the plain median"""
    if k <= 0 or len(runs) < 5:
        return set()
    bad = set()
    for col in (0, 1):
        x = [r[col] for r in runs]
        res = len_step if col == 0 else 1.0
        med = spread_median(x, res)
        mad = spread_mad(x, med, res)
        thr = med + k * max(1.4826 * mad, 0.1 * med, 0.5 * res)
        plain = statistics.median(x)
        bad |= {i for i, v in enumerate(x) if v > thr and v > plain}
    return bad if 2 * len(bad) < len(runs) else set()  # half or more: no norm

def evaluate(use, alloc, alpha, beta):
    n = len(use)
    over = under_reg = debt_sum = 0.0
    for run in use:
        t = sum(run)
        d = 0.0
        under = 0.0
        for u, a in zip(run, alloc):
            over += max(a - u, 0.0)
            under += max(u - a, 0.0)
            d = max(d + u - a, 0.0)
        debt_sum += d
        if t > 0:
            under_reg += under / t
    a_o, a_u, eps = over / n, debt_sum / n, under_reg / n
    return alpha * a_o + (1 - alpha) * a_u + beta * eps, a_o, a_u, eps

def prior_cost(alloc, prior, mu):
    p = list(prior) + [0.0] * max(0, len(alloc) - len(prior))
    return mu * sum(abs(a - q) for a, q in zip(alloc, p))

def glpsol(model, tmp, use, alpha, beta, prior=None, mu=0.0, sol=None):
    n, k = len(use), len(use[0])
    dat = os.path.join(tmp, "inst.dat")
    with open(dat, "w") as f:
        f.write("data;\nparam N := %d;\nparam K := %d;\n" % (n, k))
        f.write("param alpha := %.17g;\nparam beta := %.17g;\n" % (alpha, beta))
        if prior is not None and mu > 0:
            f.write("param mu := %.17g;\nparam p :=\n" % mu)
            for j in range(k):
                f.write(" %d %.17g\n" % (j + 1, prior[j] if j < len(prior) else 0.0))
            f.write(";\n")
        f.write("param s :=\n")
        for i in range(n):
            for j in range(k):
                f.write(" %d %d %.17g\n" % (i + 1, j + 1, use[i][j]))
        f.write(";\nend;\n")
    out = subprocess.run(["glpsol", "-m", model, "-d", dat], capture_output=True, text=True)
    for line in out.stdout.splitlines():
        if line.startswith("A ") and sol is not None:
            sol.append(float(line.split()[2]))
    for line in out.stdout.splitlines():
        if line.startswith("OBJ "):
            return float(line.split()[1])
    raise SystemExit("glpsol failed:\n" + out.stdout[-2000:] + out.stderr[-2000:])

def close(a, b, rel=1e-6, floor=1e-7):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + floor

def parse_native(path):
    jobs = {}
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#") or f[0].startswith("//"):
            continue
        steps = {}
        for unit in f[7].split("|"):
            if unit:
                c, off = unit.split(":")
                assert int(off) % 5 == 0
                steps[int(off) // 5] = steps.get(int(off) // 5, 0) + int(c)
        jobs.setdefault(f[0], []).append([steps.get(j, 0) for j in range(max(steps) + 1)])
    out = []
    for name, runs in jobs.items():
        k = max(len(r) for r in runs)
        out.append((name, [r + [0] * (k - len(r)) for r in runs]))
    return out

def check_job(tag, model, tmp, use, alpha, beta, s, rws, step, prior=None, mu=0.0):
    if not s or s["status"] != "optimal":
        print(tag, "status", s and s["status"]); return 1
    if len(rws) != len(use[0]) or any(float(r["offset"]) != step * j for j, r in enumerate(rws)):
        print(tag, "wrong rows", len(rws)); return 1
    alloc = [float(r["alloc"]) for r in rws]
    if min(alloc) < 0:
        print(tag, "negative alloc"); return 1
    if beta is None:
        v = glpsol(model, tmp, use, alpha, 0.0)
        b = 0.1 * v
    else:
        b = beta
    with_prior = prior is not None and mu > 0
    opt = glpsol(model, tmp, use, alpha, b, prior, mu) if (beta is not None or b > 0 or with_prior) else v
    obj, a_o, a_u, eps = evaluate(use, alloc, alpha, b)
    pc = prior_cost(alloc, prior, mu) if with_prior else 0.0
    scale = max(1.0, max(max(r) for r in use))
    if not close(obj + pc, opt, 1e-9, 1e-10 * scale):
        print(tag, "objective %.12g (prior's cost %.12g), glpsol optimum %.12g" % (obj + pc, pc, opt)); return 1
    bad = 0
    if with_prior != (s.get("prior_cost", "") != ""):
        print(tag, "prior_cost '%s', a prior: %s" % (s.get("prior_cost"), with_prior)); bad += 1
    elif with_prior and not close(float(s["prior_cost"]), pc, 1e-7, 1e-9 * scale):
        print(tag, "stats prior_cost %s, recomputed %.12g" % (s["prior_cost"], pc)); bad += 1
    for col, want in (("objective", obj), ("a_o", a_o), ("a_u", a_u), ("eps", eps)):
        got = float(s[col])
        if not close(got, want, 1e-7, 1e-9 * scale):
            print(tag, "stats %s %.12g, recomputed %.12g" % (col, got, want)); bad += 1
    return bad

def main_native():
    path, cmd, model, tmp = sys.argv[2:6]
    os.makedirs(tmp, exist_ok=True)
    stats = os.path.join(tmp, "stats.csv")
    out = subprocess.run(cmd.split() + ["-q", "--format", "native", "--step", "5", "--stats", stats, path],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print("skyfit exit %d: %s" % (out.returncode, out.stderr)); return 1
    fit = {}
    for r in csv.DictReader(out.stdout.splitlines()):
        fit.setdefault(r["job"], []).append(r)
    st = {r["job"]: r for r in csv.DictReader(open(stats))}
    bad = 0
    jobs = parse_native(path)
    for name, use in jobs:
        bad += check_job("%s %s" % (path, name), model, tmp, use, 0.01, None, st.get(name), fit.get(name, []), 5)
    print("%d jobs checked, %d mismatches" % (len(jobs), bad))
    return 1 if bad or not jobs else 0

def main():
    if sys.argv[1] == "--native":
        return main_native()
    cmd, model, tmp, seeds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    extra = sys.argv[5:]
    runs_table = "--runs-table" in extra
    extra = [x for x in extra if x != "--runs-table"]
    prior_w = None
    if "--prior" in extra:
        i = extra.index("--prior")
        prior_w = float(extra[i + 1])
        del extra[i:i + 2]
    pfile = os.path.join(tmp, "prior.csv")
    npriors = 0
    ok = 0.0 if "--keep-outliers" in extra else float(extra[extra.index("--outlier-k") + 1]) if "--outlier-k" in extra else 3.0
    nexcl = 0
    os.makedirs(tmp, exist_ok=True)
    bad = 0
    checked = 0
    table = os.path.join(tmp, "runs.csv")
    if runs_table:
        extra = extra + ["--runs", table]
    for seed in range(1, seeds + 1):
        rnd = random.Random(seed)
        alpha = rnd.choice([0.0, 1.0, 0.01, 0.01, 0.1, 0.5, round(rnd.random(), 3)])
        beta = rnd.choice([None, None, 0.0, round(rnd.uniform(0, 3), 3)])
        jobs = []
        rows = []
        trows = []
        for jn in range(3):
            n = rnd.randint(1, 6)
            k = rnd.randint(1, 24)
            use = []
            for i in range(n):
                ln = rnd.randint(1, k) if rnd.random() < 0.5 else k
                base = rnd.choice([1, 5, 40])
                run = []
                for j in range(k):
                    if j >= ln:
                        v = 0.0
                    elif rnd.random() < 0.15:
                        v = 0.0
                    elif rnd.random() < 0.5:
                        v = float(rnd.randint(0, 3 * base))
                    else:
                        v = round(rnd.uniform(0, 3 * base), 3)
                    run.append(v)
                use.append(run)
            # --runs-table: job02 is a short job (job00057 of the headline):
            # runs of 55-75 s, sampled every 60 s from the start (1 or 2
            # steps), often one straggler of 130-240 s, all on 1-3 containers
            short = None
            if runs_table and jn == 2:
                n = rnd.randint(5, 10)
                short = [rnd.randint(55, 75) for _ in range(n)]
                if rnd.random() < 0.8:
                    short[rnd.randrange(n)] = rnd.randint(130, 240)
                k = max((L + 59) // 60 for L in short)
                c = float(rnd.randint(1, 3))
                use = [[c if j < (L + 59) // 60 else 0.0 for j in range(k)] for L in short]
            # the run's length is its last row; drop all-zero tails beyond it
            name = "job%02d" % jn
            jrows = []
            starts = []
            for i, run in enumerate(use):
                start = 1767571200 + rnd.randint(0, 30) * 86400 + rnd.randint(0, 3600)
                starts.append(start)
                last = max([j for j in range(k) if run[j] > 0], default=0)
                last = max(last, rnd.randint(0, k - 1)) if rnd.random() < 0.5 else k - 1
                if short:
                    last = (short[i] + 59) // 60 - 1
                for j in range(last + 1):
                    t = start + 60 * j
                    ts = str(t) if jn != 1 else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
                    jrows.append([name, "r%d" % i, ts, repr(run[j])])
                for j in range(last + 1, k):
                    run[j] = 0.0
            # steps of the fit = the longest run as written
            kk = max(int(len([r for r in jrows if r[1] == "r%d" % i])) for i in range(n))
            use = [run[:kk] for run in use]
            lens = [len([r for r in jrows if r[1] == "r%d" % i]) for i in range(n)]
            # lengths in seconds: steps x 60, or to the second from the table
            # (run names carry the job's too, though the table is keyed by job and instance)
            secs = [60.0 * l for l in lens]
            rec = 0
            rname = lambda i: "r%d" % i
            if runs_table:
                rname = lambda i, nm=name: "%s-r%d" % (nm, i)
                for i in range(n):
                    if rnd.random() < (0.9 if short else 0.67):
                        secs[i] = float(short[i] if short else (lens[i] - 1) * 60 + rnd.randint(1, 60))
                        trows.append("%s,%s,%d,%d" % (name, rname(i), starts[i], starts[i] + int(secs[i])))
                        rec += 1
                jrows = [[r[0], "%s-%s" % (name, r[1]), r[2], r[3]] for r in jrows]
            out = outliers([(secs[i], sum(use[i][:lens[i]])) for i in range(n)], ok, 60.0)
            if out:
                nexcl += len(out)
                kk = max(lens[i] for i in range(n) if i not in out)
                use = [use[i][:kk] for i in range(n) if i not in out]
            rnd.shuffle(jrows)
            rows += jrows
            jobs.append((name, use, out, rname, rec))
        if runs_table:
            with open(table, "w") as f:
                f.write("job,instance,start,end\n")
                for r in trows:
                    f.write(r + "\n")
        inp = os.path.join(tmp, "in.csv")
        with open(inp, "w") as f:
            f.write("job,run,t,containers\n")
            for r in rows:
                f.write(",".join(r) + "\n")
        priors = {}
        own = set()
        if prior_w is not None:
            # jobs 0 and 1 get a prior (sometimes glpsol's own optimum: the
            # fit must come back to it exactly), job 2 none
            with open(pfile, "w") as f:
                f.write("job,step,offset,alloc\n")
                for name, use, out, rname, rec in jobs[:2]:
                    k = len(use[0])
                    if rnd.random() < 0.25:
                        sol = []
                        bb = beta if beta is not None else 0.1 * glpsol(model, tmp, use, alpha, 0.0)
                        glpsol(model, tmp, use, alpha, bb, sol=sol)
                        pr = [max(0.0, x) for x in sol]
                        own.add(name)
                    else:
                        pr = [float(rnd.randint(0, 60)) if rnd.random() < 0.5 else round(rnd.uniform(0, 60), 3)
                              for _ in range(rnd.randint(1, k + 3))]
                    priors[name] = pr
                    for j, a in enumerate(pr):
                        f.write("%s,60,%d,%r\n" % (name, 60 * j, a))
            npriors += len(priors)
        stats = os.path.join(tmp, "stats.csv")
        args = cmd.split() + ["-q", "--min-runs", "1", "--alpha", repr(alpha), "--stats", stats] + extra
        if prior_w is not None:
            args += ["--prior", pfile, "--prior-weight", repr(prior_w)]
        if beta is not None:
            args += ["--beta", repr(beta)]
        out = subprocess.run(args + [inp], capture_output=True, text=True)
        if out.returncode != 0:
            print("seed %d: skyfit exit %d: %s" % (seed, out.returncode, out.stderr))
            bad += 1
            continue
        fit = {}
        for r in csv.DictReader(out.stdout.splitlines()):
            fit.setdefault(r["job"], []).append(r)
        st = {r["job"]: r for r in csv.DictReader(open(stats))}
        for name, use, out, rname, rec in jobs:
            checked += 1
            tag = "seed %d %s (N=%d K=%d alpha=%g beta=%s)" % (seed, name, len(use), len(use[0]), alpha, beta)
            bad += check_job(tag, model, tmp, use, alpha, beta, st.get(name), fit.get(name, []), 60,
                             priors.get(name), (prior_w or 0.0) * alpha)
            if name in own and alpha > 0:
                # the prior is an optimum: the only optimum with the prior's term
                got = [float(r["alloc"]) for r in fit.get(name, [])]
                if len(got) != len(priors[name]) or any(not close(a, q, 1e-6, 1e-6) for a, q in zip(got, priors[name])):
                    print(tag, "prior is an optimum, fit moved: %s vs %s" % (got, priors[name])); bad += 1
            s = st.get(name)
            got = set(s["excluded_runs"].split(";")) if s and s["excluded_runs"] else set()
            if s and (got != {rname(i) for i in out} or int(s["excluded"]) != len(out)):
                print(tag, "excluded runs %s, recomputed %s" % (sorted(got), sorted(rname(i) for i in out)))
                bad += 1
            if s and int(s["recorded_lengths"]) != rec:
                print(tag, "recorded_lengths %s, expected %d" % (s["recorded_lengths"], rec))
                bad += 1
    print("%d jobs checked, %d mismatches, %d outlier runs%s" % (checked, bad, nexcl,
          ", %d with a prior" % npriors if prior_w is not None else ""))
    return 1 if bad else 0

sys.exit(main())
