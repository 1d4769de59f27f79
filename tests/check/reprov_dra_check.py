#!/usr/bin/python3
"""reprov_dra_check.py — an independent model of reprov's DRA (from reprov(1)),
run on random plans and sample streams and compared with reprov's decisions.

    reprov_dra_check.py REPROV_BIN SEED COUNT SCRATCH_DIR

For each of COUNT random cases: writes a plan (with replay_plan.py's writer,
imported), a capacity and a stream; runs reprov; simulates the DRA in Python
(the plan as per-offset sums, loads per slot, extensions as sets of slots);
each case picks --recent instance (the paper's reading: R counts the plan
plus every extension granted in force during a step of the window) or
--recent plan (the original plan only); compares every decision row (t, job, old, new, until, kind of reason).
Exits 1 on the first case that differs, printing it.
"""
import math
import os
import random
import subprocess
import sys
import zlib

reprov, seed, count, scratch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
STEP, LCM, T0 = 60, 3600, 1767571200
NST = LCM // STEP


def write_plan(path, rows):
    cols = ["plan", "job", "kind", "instance", "cycle", "t", "step", "lcm", "stage", "gang",
            "containers", "cores", "mem_mb", "period", "a", "d", "problematic", "crc"]
    out = [",".join(cols)]
    crcs = ""
    for r in rows:
        vals = ["slokit-plan/1"] + [str(v) for v in r]
        crc = "%08x" % (zlib.crc32(",".join(vals).encode()) & 0xffffffff)
        crcs += crc
        out.append(",".join(vals + [crc]))
    out.append(",".join(["slokit-plan/1", "", "end", str(len(rows)), "", "", str(STEP), str(LCM)] + [""] * 9 +
                        ["%08x" % (zlib.crc32(crcs.encode()) & 0xffffffff)]))
    open(path, "w").write("\n".join(out) + "\n")


def one_case(rng, k):
    jobs = {}
    rows = []
    for j in range(rng.randint(1, 4)):
        name = "j%d" % j
        cores = rng.choice([1, 2])
        start = rng.randint(0, NST - 12)
        n = rng.randint(1, 10)
        jobs[name] = dict(cores=cores, mem=1024 * cores, per={})
        for s in range(start, start + n):
            c = rng.randint(1, 12)
            jobs[name]["per"][s] = c
            rows.append([name, "periodic", 0, "", s * STEP, STEP, LCM, 1, 1, c, cores, 1024 * cores, LCM, 0,
                         LCM - 60, 0])
    plan = os.path.join(scratch, "p%d.csv" % k)
    write_plan(plan, rows)
    capc = rng.randint(10, 60)
    grant = rng.choice([60, 90, 120])
    window = rng.choice([0, 60, 120, 300])
    rho = rng.choice([0.5, 1, 2, 3])
    recent = rng.choice(["instance", "instance", "plan"])
    t = T0 + rng.randint(0, 3 * LCM)
    samples = []
    for _ in range(rng.randint(20, 300)):
        t += rng.choice([0, 0, 15, 30, 60, 60, 60, 90, 400])
        job = rng.choice(list(jobs) + ["zz"])
        used = rng.randint(0, 25)
        pend = rng.choice([0, 0, rng.randint(0, 30)])
        samples.append((t, job, used, pend))
    stream = os.path.join(scratch, "s%d.csv" % k)
    open(stream, "w").write("job,t,used,pending\n" + "".join("%s,%d,%d,%d\n" % (j, t, u, p) for t, j, u, p in samples))
    out = subprocess.run([reprov, "-q", "--plan", plan, "--capacity", "cores=%d,mem=1e12" % capc,
                          "--grant", str(grant), "--window", str(window), "--rho", str(rho), "--recent", recent, stream],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return "reprov failed: " + out.stderr
    got = []
    for line in out.stdout.splitlines()[1:]:
        f = line.split(",", 6)
        why = f[6].strip('"')
        kind = "full" if why.startswith("refused: plan full") else why.split(":")[0]
        got.append((int(float(f[0])), f[1], int(f[3]), int(f[4]), int(float(f[5])), kind))

    # the model
    load = [0.0] * NST
    for name, jb in jobs.items():
        for s, c in jb["per"].items():
            load[s] += c * jb["cores"]

    def base(name, T):
        s = (T % LCM) // STEP
        return jobs[name]["per"].get(s, 0)

    st = {n: dict(ext=None, hold=-math.inf, last_until=-math.inf, granted=[], last=0) for n in jobs}

    def alloc(name, k):
        """the job's allocation at plan step k (absolute): the plan, plus with
        --recent instance the largest extension in force during the step"""
        a = base(name, k * STEP)
        if recent == "instance":
            a += max([e for t0, u, e in st[name]["granted"] if t0 < (k + 1) * STEP and u > k * STEP], default=0)
        return a

    want = []

    def decide(job, x, t, used, pend, b):
        if x["ext"] and x["ext"]["until"] > t:
            return
        if t < x["hold"]:
            return
        dem = used + pend
        if dem <= b:
            return
        R = max(alloc(job, k) for k in range(math.floor((t - window) / STEP), t // STEP + 1))
        from_last = recent == "instance" and R == 0 and x["last"] > 0
        if from_last:
            R = x["last"]
        cap = math.floor(rho * R + 1e-9)
        extra = min(dem - b, cap)
        until = t + grant
        if extra > min(dem - b, math.floor(rho * max(base(job, k * STEP) for k in range(
                math.floor((t - window) / STEP), t // STEP + 1)) + 1e-9)):
            stretched[0] += 1  # asked for more than the plan alone would have allowed
        if extra <= 0:
            x["hold"] = until
            want.append((t, job, b, b, until, "refused"))
            return
        s0, s1 = t // STEP, math.ceil((t + grant) / STEP - 1e-9)
        span = list(range(s0, max(s1, s0 + 1)))
        fold = -(-len(span) // NST)
        slots = [s % NST for s in span]
        cores = jobs[job]["cores"]
        fit = min(math.floor((capc - load[s]) / cores + 1e-9) // fold for s in slots[:NST])
        if fit < 1:
            x["hold"] = until
            want.append((t, job, b, b, until, "full"))
            return
        partial = fit < extra
        extra = min(extra, fit)
        for s in slots:
            load[s] += extra * cores
        renew = t - x["last_until"] <= grant
        # old_alloc: what was in force at t, the plan plus an extension still
        # running then (none here: the last one lapsed at its until <= t)
        e = x["ext"]
        old = b + (e["extra"] if e and e["until"] > t else 0)
        x["ext"] = dict(extra=extra, until=until, slots=slots)
        x["granted"].append((t, until, extra))
        x["now"] = b + extra
        how = "renew" if renew else "extend"
        want.append((t, job, old, b + extra, until,
                     ("partial (%s)" if partial else "granted (%s)") % how))

    for t, job, used, pend in samples:
        for n in jobs:  # lapse extensions with until <= t
            e = st[n]["ext"]
            if e and e["until"] <= t:
                for s in e["slots"]:
                    load[s] -= e["extra"] * jobs[n]["cores"]
                st[n]["ext"] = None
                st[n]["last_until"] = e["until"]
        if job not in jobs:
            continue
        x = st[job]
        b = base(job, t)
        # the allocation in force after this sample; the last positive one is R's floor (instance reading)
        x["now"] = b + (x["ext"]["extra"] if x["ext"] and x["ext"]["until"] > t else 0)
        decide(job, x, t, used, pend, b)
        if x["now"] > 0:
            x["last"] = x["now"]

    global nrows
    for r in want:
        kinds[r[5]] = kinds.get(r[5], 0) + 1
    nrows += len(want)
    if got != want:
        for i, (a, b) in enumerate(zip(got, want)):
            if a != b:
                return "case %d (cap %d, grant %d, window %d, rho %g, recent %s): row %d: reprov %s, model %s" % (
                    k, capc, grant, window, rho, recent, i + 1, a, b)
        return "case %d: %d rows from reprov, %d from the model" % (k, len(got), len(want))
    return None


rng = random.Random(seed)
nrows = 0
kinds = {}
stretched = [0]
for k in range(count):
    err = one_case(rng, k)
    if err:
        print(err)
        sys.exit(1)
print("reprov_dra_check: %d random cases agree (%d decisions: %s; %d asks above the plan-only cap)" % (
    count, nrows, kinds, stretched[0]))
if not all(kinds.get(k, 0) > 0 for k in ("granted (extend)", "granted (renew)", "partial (extend)", "refused",
                                         "full")) or not stretched[0]:
    print("reprov_dra_check: the cases did not exercise every kind of decision")
    sys.exit(1)
