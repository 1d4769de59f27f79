#!/usr/bin/python3
"""skyfit_exact.py — skyfit's optimum against glpsol --exact to 1e-9.

For each seed: one job of N runs x K one-minute steps (moderate sizes,
integer usage with zeros and stage levels, runs of different lengths)
goes through `skyfit --stats` with the two-phase beta rule; glpsol --exact
(rational simplex, no rounding) solves tests/check/skyline.mod for beta 0
and then for beta = 0.1 * that optimum.  Checked: the objective of
skyfit's allocation, recomputed here from the paper's definitions, equals
glpsol's optimum to 1e-9 relative.  The network simplex's phase 2 starts
from phase 1's basis, so this also checks the warm start.

With a 7th argument `wide`, the usage spans 1e-4 to 1e11 (log-uniform,
a fifth of it zero), where every solver's certificate can fail on its own
rounding: checked to 1e-6 relative instead, and the jobs whose network
certificate failed are counted (skyfit then keeps the best answer of its
solvers; it used to keep GLPK's plain LP's, 27% above the optimum on one
job).

usage: skyfit_exact.py SKYFIT_CMD MODEL TMPDIR SEEDS N K [wide]
"""
import csv, os, random, subprocess, sys

def evaluate(use, alloc, alpha, beta):
    """the paper's objective of alloc (as skyline_check.py computes it)"""
    n = len(use)
    over = debt_sum = under_reg = 0.0
    for run in use:
        d = under = 0.0
        for u, a in zip(run, alloc):
            over += max(a - u, 0.0)
            under += max(u - a, 0.0)
            d = max(d + u - a, 0.0)
        debt_sum += d
        if sum(run) > 0:
            under_reg += under / sum(run)
    return alpha * over / n + (1 - alpha) * debt_sum / n + beta * under_reg / n

def glpsol_exact(model, tmp, use, alpha, beta):
    dat = os.path.join(tmp, "exact.dat")
    with open(dat, "w") as f:
        f.write("data;\nparam N := %d;\nparam K := %d;\n" % (len(use), len(use[0])))
        f.write("param alpha := %.17g;\nparam beta := %.17g;\nparam s :=\n" % (alpha, beta))
        for i, run in enumerate(use):
            for j, v in enumerate(run):
                f.write(" %d %d %.17g\n" % (i + 1, j + 1, v))
        f.write(";\nend;\n")
    out = subprocess.run(["glpsol", "--exact", "-m", model, "-d", dat], capture_output=True, text=True)
    for line in out.stdout.splitlines():
        if line.startswith("OBJ "):
            return float(line.split()[1])
    raise SystemExit("glpsol failed:\n" + out.stdout[-2000:] + out.stderr[-2000:])

def main():
    cmd, model, tmp = sys.argv[1:4]
    seeds, n, k = map(int, sys.argv[4:7])
    wide = sys.argv[7:8] == ["wide"]
    tol = 1e-6 if wide else 1e-9
    os.makedirs(tmp, exist_ok=True)
    bad = fellback = 0
    for seed in range(1, seeds + 1):
        rnd = random.Random(seed)
        alpha = rnd.choice([0.01, 0.1, 0.5])
        levels = [rnd.randint(1, 60) for _ in range(3)]
        use, rows = [], [["job", "run", "t", "containers"]]
        for i in range(n):
            ln = k - rnd.randint(0, k // 10)
            if wide:
                run = [0 if rnd.random() < 0.2 else float("%.6g" % 10 ** rnd.uniform(-4, 11)) for j in range(ln)]
            else:
                run = [0 if rnd.random() < 0.05 else
                       max(0, levels[3 * j // ln] + rnd.randint(-5, 5)) for j in range(ln)]
            run[-1] = max(run[-1], 1)   # the run's last row is its length
            for j, v in enumerate(run):
                rows.append(["j", "r%d" % i, str(1767571200 + 86400 * i + 60 * j), repr(v)])
            use.append(run)
        kk = max(len(r) for r in use)
        use = [r + [0] * (kk - len(r)) for r in use]
        inp, stats = os.path.join(tmp, "in.csv"), os.path.join(tmp, "stats.csv")
        with open(inp, "w", newline="") as f:
            csv.writer(f).writerows(rows)
        out = subprocess.run(cmd.split() + ["--keep-outliers", "--alpha", repr(alpha),
                             "--stats", stats, inp], capture_output=True, text=True)
        fellback += "optimality certificate of network failed" in out.stderr
        if out.returncode != 0:
            print("seed %d: skyfit exit %d: %s" % (seed, out.returncode, out.stderr)); bad += 1; continue
        alloc = [float(r["alloc"]) for r in csv.DictReader(out.stdout.splitlines())]
        st = next(csv.DictReader(open(stats)))
        v = glpsol_exact(model, tmp, use, alpha, 0.0)
        beta = 0.1 * v
        opt = glpsol_exact(model, tmp, use, alpha, beta)
        obj = evaluate(use, alloc, alpha, beta)
        if st["status"] != "optimal" or len(alloc) != kk or abs(obj - opt) > tol * max(1.0, abs(opt)):
            print("seed %d N=%d K=%d alpha %g: status %s, objective %.15g, glpsol --exact %.15g (diff %.3g)"
                  % (seed, n, k, alpha, st["status"], obj, opt, obj - opt)); bad += 1
    print("%d jobs of N=%d x K=%d checked to %g, %d mismatches%s" % (seeds, n, k, tol, bad,
          ", %d with the network's certificate failed" % fellback if wide else ""))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
