#!/usr/bin/env python3
"""nights_sim.py -- examples/nightly-plan.sh run as cron would, night after
night, on a sliding 30-day telemetry dump, against a mock YARN
ResourceManager kept here (stdlib only, independent of lcmpack's code).

  tests/check/nights_sim.py BIN WORKDIR [--nights N] [--jobs J] [--seed S]
                            [--capacity cores=C,mem=M] [--offkilter F]
                            [--cap-factor X] [--post-time S]
                            [--post-order delete,update,submit]
                            [--script FILE] [--no-rerun] [--keep]
                            [--quiet] [--show N]

BIN holds tracegen, sloinfer, skyfit, lcmpack, skyplot; WORKDIR is scratch
(reused: the dump is regenerated when the parameters change; --keep keeps
each night's state and telemetry in WORKDIR/keep/N and N-tel).

The dump: `tracegen runs` and `tracegen usage` over WINDOW + N + 1 days; night
k sees the runs submitted in days [k, k + 30) and their usage rows.  Real
change events are injected (night numbers scale with N):
  add      a job is absent from the dump until its night (then present);
  retire   a job disappears from the dump from its night on;
  size     a job's usage (containers) x3 from its night on;
  period   a job keeps every other run from its night on (period x2);
  capacity CAPACITY x --cap-factor (1.3) on its night (and after);
  missed   cron does not run one night (the next night's --at is two days
           after the last run's);
  adhoc    ad-hoc requests (TELEMETRY/adhoc.csv) come on some nights, each
           listed until two nights after its deadline: some ahead, some
           spanning midnight, some under way at the run, some for the day
           after, some withdrawn the next night before their window opens.
Night k runs examples/nightly-plan.sh TELEMETRY STATE at --post-time
seconds after its --at (default 5400: 01:30, the script's crontab; NOW),
then POSTs STATE/yarn/{delete,update,submit}.jsonl to the mock RM, which
drops the non-recurring reservations whose allocation has ended (as the RM
archives them) and validates every body as Hadoop 3's
ReservationInputValidator does, and checks:
  1 the RM's reservations equal the plan's (ids, arrival (periodic: modulo
    the period), deadline, every request item); no delete or update of an
    id the RM lacks, no submit of one it has; one job never holds a
    one-off reservation at the same time as a recurrence of its recurring
    one (from the recurring one's arrival on); every body POSTed has its deadline
    after the POST, room for its duration, and a recurring one a span no
    longer than its recurrence, which divides a day;
  2 at every minute of [at, at + 3 d) the RM's reserved vCores and memory
    (every recurrence, from the bodies) are within the night's capacity,
    also after each POST of the delta, one at a time in --post-order
    (delete,update,submit: lcmpack(1)'s loop); a plan above a capacity that
    shrank (documented) passes only when the report warns and it does not
    get worse;
  3 every actionable SLO job (periodic, or each off-kilter instance opening
    in [at, at + 48 h)) has a reservation or a report row saying why not;
    every reservation's job/instance is reported kept/moved/placed; the
    report's "plan:", "changes:" and "yarn:" counts match decisions.csv and
    the delta files;
  4 on a night with no real change (ad-hoc files aside), >= 95% of the
    reservations of the night before still wanted are byte-identical; a
    re-run of the same night on a copy of the state gives the same plan and
    an empty YARN delta;
  5 an ad-hoc request (job#cycle) is submitted to the RM at most once over
    all nights, placed at most once, never has two reservations, is not
    placed to be over before the run, is gone from the plan (and the RM)
    once --at reaches its deadline, and a withdrawn one whose window has
    not opened is no longer planned;
  6 every reservation lies in its window (periodic and off-kilter: the
    plan's [a, d], one grid step early allowed only when a is off the grid;
    one placed or moved tonight has tonight's SLO a and d (an off-kilter
    instance under way at the run: a from then on); a kept periodic one
    lies in tonight's [a, d] give or take a step); ad-hoc ones in
    [max(arrival, the run of the night placed), deadline]; the YARN deadline is
    the SLO deadline (at + d, n x period + d), the ad-hoc deadline for
    ad-hoc ones.
Prints one line per night and a summary; exit 1 when any check failed.
"""
import argparse, csv, json, math, os, random, shutil, subprocess, sys

DAY = 86400
STEP = 60
WINDOW = 30
HORIZON = 2 * DAY
FNV0, FNVP = 14695981039346656037, 1099511628211


def fnv(s):
    h = FNV0
    for b in s.encode():
        h = ((h ^ b) * FNVP) & 0xFFFFFFFFFFFFFFFF
    return h


def res_id(name, recurring=False):
    """lcmpack's derivable id (yarn.h): a recurring job whose name holds a
    '#' hashes its name and a NUL byte."""
    return "reservation_0_%04d" % (fnv(name + ("\0" if recurring and "#" in name else "")) & 0x3FFFFFFFFFFFFFFF)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


class Fail(Exception):
    pass


class Checks:
    def __init__(self):
        self.fails = {}   # check -> list of messages
        self.runs = {}    # check -> nights checked
        self.notes = {}   # check -> documented exceptions seen

    def ran(self, c):
        self.runs[c] = self.runs.get(c, 0) + 1

    def note(self, c, night, msg):
        self.notes.setdefault(c, []).append(f"night {night}: {msg}")

    def bad(self, c, night, msg):
        self.fails.setdefault(c, []).append(f"night {night}: {msg}")


# ---- the plan file, read here (not through lcmpack) -------------------------

def read_plan(path):
    """{(job, kind, instance): res} with res: rows (raw lines), steps [(t, containers)],
    cycle, lcm, period, a, d, cores, mem."""
    res = {}
    with open(path) as f:
        lines = f.read().splitlines()
    for line in lines[1:]:
        f = line.split(",")
        if f[2] == "end":
            continue
        key = (f[1], f[2], f[3] if f[2] == "once" else "")
        r = res.setdefault(key, {"rows": [], "steps": [], "cycle": int(f[4]) if f[4] else None,
                                 "lcm": int(f[7]), "step": int(f[6]), "period": float(f[13]),
                                 "a": float(f[14]), "d": float(f[15]), "cores": float(f[11]),
                                 "mem": float(f[12]), "instance": int(f[3])})
        r["rows"].append(line)
        # a once row's time is absolute: cycle x lcm + t (one may span midnight)
        t = int(float(f[5])) + (int(f[4]) * int(f[7]) if f[2] == "once" else 0)
        r.setdefault("inst", {}).setdefault(int(f[3]), []).append((t, int(f[10])))
    for key, r in res.items():
        # a periodic reservation has rows for every instance of the cycle:
        # the same allocation shifted by n x period (checked); the body is
        # instance 0's, recurring
        first = min(r["inst"])
        r["steps"] = r["inst"][first]
        if key[1] == "periodic":
            r["instance"] = first
            for n, st in r["inst"].items():
                shifted = [(t - round((n - first) * r["period"]), c) for t, c in st]
                if shifted != r["steps"]:
                    raise Fail(f"{key[0]}: instance {n} is not instance {first} shifted by the period")
    return res


def expected_body(key, r, at):
    """The reservation-definition the RM should hold for plan reservation r."""
    job, kind, inst = key
    steps = r["steps"]
    for (t0, _), (t1, _) in zip(steps, steps[1:]):
        if t1 != t0 + r["step"]:
            raise Fail(f"{job}: plan steps not contiguous ({t0}, {t1})")
    base = at if kind == "periodic" else 0
    start = base + steps[0][0]
    end = start + len(steps) * r["step"]
    dl = at + r["d"] if kind == "periodic" else r["instance"] * r["period"] + r["d"]
    items = []
    for t, c in steps:
        if items and items[-1][1] == c:
            items[-1][0] += r["step"] * 1000
        else:
            items.append([r["step"] * 1000, c])
    return {"name": job if kind == "periodic" else f"{job}#{inst}", "arrival": round(start * 1000),
            "deadline": round(max(dl, end) * 1000), "slo_deadline": dl, "end": end,
            "rec": round(r["period"] * 1000) if kind == "periodic" else None,
            "items": [(d, c, math.ceil(r["mem"] - 1e-9), math.ceil(r["cores"] - 1e-9)) for d, c in items]}


def body_view(defn):
    reqs = defn["reservation-requests"]
    if reqs.get("reservation-request-interpreter") != 3:
        raise Fail(f"{defn.get('reservation-name')}: interpreter {reqs.get('reservation-request-interpreter')}")
    items = []
    for it in reqs["reservation-request"]:
        if it["num-containers"] != it["min-concurrency"]:
            raise Fail(f"{defn['reservation-name']}: min-concurrency != num-containers")
        items.append((it["duration"], it["num-containers"], it["capability"]["memory"], it["capability"]["vCores"]))
    rec = defn.get("recurrence-expression")
    return {"name": defn["reservation-name"], "arrival": defn["arrival"], "deadline": defn["deadline"],
            "rec": int(rec) if rec is not None else None, "items": items}


# ---- the mock ResourceManager ----------------------------------------------

class MockRM:
    def __init__(self):
        self.res = {}          # id -> body view
        self.submitted = {}    # id -> nights it was submitted

    def archive(self, now_ms):
        """Drop non-recurring reservations whose allocation has ended."""
        for rid in [k for k, v in self.res.items() if v["rec"] is None and alloc_end(v) <= now_ms]:
            del self.res[rid]

    def apply(self, night, at, delete, update, submit, ck, now):
        """The delta, validated as the Hadoop 3 RM's ReservationInputValidator
        does (deadline after now, room for the duration, a recurring one no
        longer than its recurrence, which divides the maximum periodicity of
        one day)."""
        now = now * 1000
        for b in delete:
            rid = b["reservation-id"]
            if rid not in self.res:
                ck.bad(1, night, f"delete of {rid}, which the RM does not have")
            else:
                del self.res[rid]
        for op, bodies in (("update", update), ("submit", submit)):
            for b in bodies:
                rid = b["reservation-id"]
                v = body_view(b["reservation-definition"])
                if op == "update" and rid not in self.res:
                    ck.bad(1, night, f"update of {rid} ({v['name']}), which the RM does not have")
                if op == "submit" and rid in self.res:
                    ck.bad(1, night, f"submit of {rid} ({v['name']}), which the RM already has")
                if v["deadline"] <= now:
                    ck.bad(1, night, f"{op} {v['name']}: deadline {v['deadline']} not after now {now}")
                if v["arrival"] + sum(i[0] for i in v["items"]) > v["deadline"]:
                    ck.bad(1, night, f"{op} {v['name']}: arrival + duration after the deadline")
                if v["rec"] and (v["deadline"] - v["arrival"] > v["rec"] or DAY * 1000 % v["rec"]):
                    ck.bad(1, night, f"{op} {v['name']}: deadline - arrival {v['deadline'] - v['arrival']} "
                                     f"against the recurrence {v['rec']}")
                if op == "submit":
                    self.submitted.setdefault(rid, []).append(night)
                self.res[rid] = v


def footprint(v, t0, n):
    """[(minute index from t0, cores, mem)] of body view v over n minutes
    (every recurrence of a recurring one)."""
    out = []
    starts = [v["arrival"]]
    if v["rec"]:
        s = v["arrival"] + ((t0 - v["arrival"]) // v["rec"] - 1) * v["rec"]
        starts = range(max(s, v["arrival"]), t0 + n * STEP * 1000, v["rec"])  # from its arrival on
    for s in starts:
        t = s
        for dur, c, m, vc in v["items"]:
            for x in range(t, t + dur, STEP * 1000):
                i = (x - t0) // (STEP * 1000)
                if 0 <= i < n:
                    out.append((i, c * vc, c * m))
            t += dur
    return out


def post_order_overbook(rm_before, ops, t0, n, cap):
    """Apply ops [(op, id, view)] in order to a copy of rm_before, the load
    kept minute by minute; the minutes some POST takes over the capacity
    that are within it both before and after the whole delta (a transient
    overbooking the RM would refuse)."""
    cores, mem = cap
    res = dict(rm_before)
    lc, lm = [0.0] * n, [0.0] * n
    for v in res.values():
        for i, c, m in footprint(v, t0, n):
            lc[i] += c
            lm[i] += m
    over = lambda i: lc[i] > cores + 1e-6 or lm[i] > mem + 1e-6
    before = {i for i in range(n) if over(i)}
    hit = {}
    for op, rid, v in ops:
        if rid in res:
            for i, c, m in footprint(res[rid], t0, n):
                lc[i] -= c
                lm[i] -= m
            del res[rid]
        if op != "delete":
            res[rid] = v
            for i, c, m in footprint(v, t0, n):
                lc[i] += c
                lm[i] += m
                if over(i) and i not in before:
                    hit.setdefault(i, (op, v["name"]))
    return {i: w for i, w in hit.items() if not over(i)}


def alloc_end(v):
    return v["arrival"] + sum(i[0] for i in v["items"])


def recurs_over(w, s, e):
    """True when some recurrence of recurring body view w (from its arrival
    on) holds an allocation overlapping [s, e) (ms)."""
    dur = alloc_end(w) - w["arrival"]
    n = max(0, (s - dur - w["arrival"]) // w["rec"])
    t = w["arrival"] + n * w["rec"]
    while t < e:
        if t + dur > s:
            return True
        t += w["rec"]
    return False


# ---- the dump ---------------------------------------------------------------

def make_dump(a, work):
    days = WINDOW + a.nights + 1
    stamp = f"{a.jobs} {days} {a.seed} {a.offkilter}"
    sf = os.path.join(work, "dump.stamp")
    if os.path.exists(sf) and open(sf).read() == stamp:
        return
    tg = os.path.join(a.bin, "tracegen")
    common = ["--count", str(a.jobs), "--days", str(days), "--seed", str(a.seed),
              "--set", f"offkilter_frac={a.offkilter}"]
    sh([tg, "-q", "runs"] + common + ["--truth", os.path.join(work, "truth.csv"), "-o", os.path.join(work, "runs.csv")])
    sh([tg, "-q", "usage"] + common + ["-o", os.path.join(work, "usage.csv")])
    with open(sf, "w") as f:
        f.write(stamp)


def plan_events(a, work):
    truth = read_csv(os.path.join(work, "truth.csv"))
    rnd = random.Random(a.seed)
    act = [r["job"] for r in truth if r["actionable"] == "1" and DAY % int(float(r["period"])) == 0]
    daily = [j for j in act if int(float(next(r for r in truth if r["job"] == j)["period"])) == DAY]
    rnd.shuffle(act)
    n = a.nights
    ev = {}
    per = daily[0] if daily else act[0]
    rest = [j for j in act if j != per]
    if len(rest) < 3:
        raise SystemExit("nights_sim: too few actionable periodic jobs for the events; more --jobs")
    ev["period"] = (per, max(1, n * 15 // 30))
    ev["add"] = (rest[0], max(1, n * 6 // 30))
    ev["retire"] = (rest[1], max(1, n * 9 // 30))
    ev["size"] = (rest[2], max(1, n * 12 // 30))
    ev["capacity"] = max(1, n * 18 // 30)
    ev["missed"] = n * 25 // 30 if n >= 10 else -1
    return ev


def adhoc_requests(a, t0):
    """Ad-hoc requests: (name, first night listed, arrival, deadline, containers, duration,
    night no longer listed or None)."""
    rnd = random.Random(a.seed + 1000)
    reqs = []
    nights = sorted({max(1, a.nights * x // 30) for x in (4, 5, 10, 20, 21)} - {0})
    i = 0
    for k in nights:
        if k >= a.nights:
            continue
        at = t0 + (WINDOW + k) * DAY
        for j in range(4):
            kind = ("ahead", "midnight", "underway", "later", "withdrawn")[i % 5]
            dur = rnd.choice((600, 1800, 3600))
            if kind == "ahead":
                arr = at + rnd.randrange(0, DAY - 3 * dur, 60)
            elif kind == "midnight":
                arr = at + DAY - dur - rnd.randrange(0, 3600, 60)
            elif kind == "later":
                arr = at + DAY + rnd.randrange(0, DAY - 3 * dur, 60)
            elif kind == "withdrawn":
                arr = at + DAY + DAY // 2 + rnd.randrange(0, DAY // 4, 60)
            else:
                arr = at - rnd.randrange(600, 3 * 3600, 60)
            dl = arr + 3 * dur if kind != "underway" else at + 2 * dur + rnd.randrange(0, 3600, 60)
            # listed from night k until two nights after the deadline, a
            # withdrawn one for one night only (gone before its window opens)
            until = k + 1 if kind == "withdrawn" else None
            reqs.append((f"adh{i:03d}", k, arr, dl, rnd.choice((2, 5, 10)), dur, until))
            i += 1
    return reqs


def is_listed(r, k, at):
    return r[1] <= k and at < r[3] + 2 * DAY and (r[6] is None or k < r[6])


def cut_night(a, work, k, t0, ev, tel, adhoc):
    lo, hi = t0 + k * DAY, t0 + (k + WINDOW) * DAY
    add_j, add_k = ev["add"]
    ret_j, ret_k = ev["retire"]
    size_j, size_k = ev["size"]
    per_j, per_k = ev["period"]
    keep_runs = set()
    per_seen = 0
    os.makedirs(tel, exist_ok=True)
    with open(os.path.join(work, "runs.csv")) as f, open(os.path.join(tel, "runs.csv"), "w") as o:
        o.write(f.readline())
        for line in f:
            x = line.split(",", 4)
            job, run, sub = x[0], x[1], int(x[2])
            if (job == add_j and k < add_k) or (job == ret_j and k >= ret_k):
                continue
            if job == per_j and k >= per_k:
                # every other run of the job (all of its history: period x2)
                idx = int(run.rsplit("-", 1)[1])
                if idx % 2:
                    continue
            if lo <= sub < hi:
                o.write(line)
                keep_runs.add(run)
    with open(os.path.join(work, "usage.csv")) as f, open(os.path.join(tel, "usage.csv"), "w") as o:
        o.write(f.readline())
        for line in f:
            x = line.split(",", 4)
            if x[1] not in keep_runs:
                continue
            if x[0] == size_j and k >= size_k:
                x[3] = str(int(x[3]) * 3)
                line = ",".join(x)
            o.write(line)
    path = os.path.join(tel, "adhoc.csv")
    at = hi
    listed = [r for r in adhoc if is_listed(r, k, at)]
    if listed:
        with open(path, "w") as o:
            o.write("job,arrival,deadline,containers,duration\n")
            for name, _, arr, dl, c, dur, _ in listed:
                o.write(f"{name},{arr},{dl},{c},{dur}\n")
    elif os.path.exists(path):
        os.remove(path)
    return listed


# ---- one night --------------------------------------------------------------

def run_night(a, tel, state, cap):
    env = dict(os.environ, CAPACITY=cap, SLOKIT_BIN=a.bin, LC_ALL="C", NOW=str(a.now))
    env.pop("SLOKIT_STATE", None)
    p = subprocess.run(["bash", a.script, tel, state], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise Fail(f"nightly-plan.sh exit {p.returncode}: {p.stderr.strip()[:300]}")
    return p.stdout


def parse_cap(cap):
    d = dict(x.split("=") for x in cap.split(","))
    return float(d["cores"]), float(d.get("mem", d.get("mem_mb")))


def dec_rows(state):
    return read_csv(os.path.join(state, "decisions.csv"))


def check_night(a, ck, k, at, state, rm, prev_plan, cap, adhoc, changed, adhoc_hist, rerun_state, tel):
    plan = read_plan(os.path.join(state, "plan.csv"))
    slo = {r["job"]: r for r in read_csv(os.path.join(state, "slo.csv"))}
    decs = dec_rows(state)
    yd = os.path.join(state, "yarn")
    delete, update, submit = (read_jsonl(os.path.join(yd, f"{o}.jsonl")) for o in ("delete", "update", "submit"))
    adhoc_by = {r[0]: r for r in adhoc}

    # the mock RM: archive what ended, then the delta
    rm.archive((at + a.post_time) * 1000)
    # POSTed one by one, in the order lcmpack(1) gives (delete, update,
    # submit; --post-order): no POST may find the RM over a capacity the
    # delta as a whole respects
    n3 = 3 * DAY // STEP
    ops = {o: [(o, b["reservation-id"], body_view(b["reservation-definition"]) if o != "delete" else None)
               for b in bodies] for o, bodies in (("submit", submit), ("update", update), ("delete", delete))}
    ck.ran(2)
    for order in (a.post_order,):
        seq = [x for o in order for x in ops[o]]
        tr = post_order_overbook(rm.res, seq, at * 1000, n3, cap)
        if tr:
            i = min(tr)
            ck.bad(2, k, f"POSTed in the order {' '.join(order)}: {len(tr)} minutes transiently over the capacity, "
                         f"first at at+{i * STEP} s by the {tr[i][0]} of {tr[i][1]}")
    rm.apply(k, at, delete, update, submit, ck, at + a.post_time)
    rm.archive((at + a.post_time) * 1000)  # a body whose allocation is already over

    # ---- check 1: the RM equals the plan
    ck.ran(1)
    exp = {}
    for key, r in plan.items():
        try:
            b = expected_body(key, r, at)
        except Fail as e:
            ck.bad(1, k, str(e))
            continue
        if key[1] == "once" and b["end"] <= at + a.post_time:
            continue  # ended (spent, or done by the POST): the RM has archived it
        exp[res_id(b["name"], b["rec"] is not None)] = (key, b)
    for rid, (key, b) in exp.items():
        v = rm.res.get(rid)
        if v is None:
            ck.bad(1, k, f"{b['name']} planned, not in the RM")
            continue
        same = v["name"] == b["name"] and v["rec"] == b["rec"] and v["items"] == b["items"]
        if b["rec"]:
            same = same and (v["arrival"] - b["arrival"]) % b["rec"] == 0 \
                and v["deadline"] - v["arrival"] == b["deadline"] - b["arrival"]
        else:
            same = same and v["arrival"] == b["arrival"] and v["deadline"] == b["deadline"]
        if not same:
            ck.bad(1, k, f"{b['name']}: RM holds {v}, plan says {b}")
    for rid, v in rm.res.items():
        if rid not in exp:
            ck.bad(1, k, f"RM holds {v['name']} ({rid}), not in the plan")
    jobs_rec = {v["name"]: v for v in rm.res.values() if v["rec"]}
    for v in rm.res.values():
        w = jobs_rec.get(v["name"].split("#")[0]) if not v["rec"] else None
        if w and recurs_over(w, v["arrival"], alloc_end(v)):
            ck.bad(1, k, f"double-book: {v['name']} at the same time as a recurrence of its job's recurring one")

    # ---- check 2: the RM within capacity
    ck.ran(2)
    cores, mem = cap
    n = 3 * DAY // STEP
    lc, lm = [0.0] * n, [0.0] * n
    t0 = at * 1000
    for v in rm.res.values():
        for i, c, m in footprint(v, t0, n):
            lc[i] += c
            lm[i] += m
    over = [i for i in range(n) if lc[i] > cores + 1e-6 or lm[i] > mem + 1e-6]
    worst = max((max(lc[i] / cores, lm[i] / mem) for i in over), default=0.0)
    if over:
        # documented (lcmpack(1), "Incremental planning"): reservations kept
        # from a night with more capacity stay above a capacity that shrank,
        # with a warning, which the night's report must carry; and tonight's
        # placements never add to the overload (the worst cost never grows
        # while the capacity stays)
        i = max(over, key=lambda i: max(lc[i] / cores, lm[i] / mem))
        what = (f"{len(over)} minutes over the capacity; worst at at+{i * STEP} s: "
                f"{lc[i]:g} of {cores:g} cores, {lm[i]:g} of {mem:g} mem")
        rep = open(os.path.join(state, "report.txt")).read()
        if "\nwarning:   the plan exceeds the capacity" not in rep:
            ck.bad(2, k, what + ", and the report does not warn")
        elif a.prev_over and a.prev_over[0] == cap and worst > a.prev_over[1] + 1e-9:
            ck.bad(2, k, what + f": worse than the night before ({a.prev_over[1]:.4f})")
        else:
            ck.note(2, k, what + " (kept from a larger capacity; the report warns)")
    a.prev_over = (cap, worst) if over else None

    # ---- check 3: every actionable job accounted for; counts
    ck.ran(3)
    by_job = {}
    for d in decs:
        by_job.setdefault(d["job"], []).append(d)
    for job, s in slo.items():
        if s["status"] not in ("actionable", "overridden") and s.get("source") != "overridden":
            continue
        p = float(s["period"])
        rows = by_job.get(job, [])
        if not rows:
            ck.bad(3, k, f"actionable {job}: no report row")
            continue
        if DAY % p == 0 and (p / STEP) == int(p / STEP):
            ok = any(r["kind"] == "periodic" and r["status"] in ("kept", "moved", "placed") for r in rows)
            if ok and (job, "periodic", "") not in plan:
                ck.bad(3, k, f"{job} reported {[r['status'] for r in rows]} but has no reservation")
            if not ok and not any(r["status"] in ("rejected", "skipped") and r["reason"] for r in rows):
                ck.bad(3, k, f"actionable {job}: neither a reservation nor a reason ({rows})")
        else:
            a_ = float(s["a"])
            want = [n_ for n_ in range(int((at - a_) // p) - 1, int((at + HORIZON - a_) // p) + 2)
                    if at <= n_ * p + a_ < at + HORIZON]
            if any(r["status"] == "skipped" and r["kind"] in ("once", "") for r in rows) and not want:
                continue
            for n_ in want:
                rr = [r for r in rows if r["instance"] == str(n_)]
                if not rr:
                    ck.bad(3, k, f"off-kilter {job} instance {n_} opens at at+{n_ * p + a_ - at:g} s: no report row")
                elif rr[0]["status"] in ("kept", "moved", "placed"):
                    if (job, "once", str(n_)) not in plan:
                        ck.bad(3, k, f"{job}#{n_} reported {rr[0]['status']}, no reservation")
                elif not rr[0]["reason"]:
                    ck.bad(3, k, f"{job}#{n_} {rr[0]['status']} without a reason")
    for key in plan:
        job, kind, inst = key
        rr = [r for r in by_job.get(job, []) if (r["instance"] == inst if kind == "once" else r["kind"] == "periodic")]
        if not any(r["status"] in ("kept", "moved", "placed") for r in rr):
            ck.bad(3, k, f"reservation {job} {kind} {inst}: no kept/moved/placed report row ({rr})")
    cnt = {}
    for d in decs:
        cnt[d["status"]] = cnt.get(d["status"], 0) + 1
    rep = open(os.path.join(state, "report.txt")).read()
    import re
    m = re.search(r"^plan: +(\d+) requests: (\d+) placed, (\d+) rejected, (\d+) kept; (\d+) skipped, "
                  r"(\d+) removed, (\d+) expired", rep, re.M)
    if not m:
        ck.bad(3, k, "report.txt has no 'plan: N requests' line")
    else:
        req, pl, rj, kp, sk, rmv, ex = map(int, m.groups())
        want = {"placed": cnt.get("placed", 0) + cnt.get("moved", 0), "rejected": cnt.get("rejected", 0),
                "kept": cnt.get("kept", 0), "skipped": cnt.get("skipped", 0), "removed": cnt.get("removed", 0),
                "expired": cnt.get("expired", 0)}
        got = {"placed": pl, "rejected": rj, "kept": kp, "skipped": sk, "removed": rmv, "expired": ex}
        if got != want:
            ck.bad(3, k, f"summary {got} but decisions.csv {want}")
        if req != pl + rj + kp:
            ck.bad(3, k, f"summary: {req} requests != placed + rejected + kept")
    # the changes line's expired: reservations that ended, not ad-hoc requests
    # whose deadline passed before they were placed (in no plan)
    past = sum(1 for d in decs if d["status"] == "expired" and d["reason"].startswith("deadline before"))
    m = re.search(r"^changes: +(\d+) kept, (\d+) moved, (\d+) new, (\d+) removed, (\d+) expired", rep, re.M)
    if not m or tuple(map(int, m.groups())) != (cnt.get("kept", 0), cnt.get("moved", 0), cnt.get("placed", 0),
                                                   cnt.get("removed", 0), cnt.get("expired", 0) - past):
        ck.bad(3, k, f"changes line {m.groups() if m else None} vs decisions {cnt}")
    # the YARN delta's counts against the report
    m = re.search(r"^yarn: +delta (\d+) submit, (\d+) update, (\d+) delete", rep, re.M)
    if not m or tuple(map(int, m.groups())) != (len(submit), len(update), len(delete)):
        ck.bad(3, k, f"report's yarn line {m.groups() if m else None} vs delta files "
                     f"{(len(submit), len(update), len(delete))}")

    # ---- check 4: stability and the re-run
    if prev_plan is not None and not changed:
        ck.ran(4)
        wanted = [key for key, r in prev_plan.items()
                  if key[1] == "periodic" or expected_body(key, r, at)["end"] > at + a.post_time]
        same = sum(1 for key in wanted if key in plan and plan[key]["rows"] == prev_plan[key]["rows"])
        if wanted and same < 0.95 * len(wanted):
            moved = [key for key in wanted if not (key in plan and plan[key]["rows"] == prev_plan[key]["rows"])]
            ck.bad(4, k, f"only {same} of {len(wanted)} reservations byte-identical ({moved[:6]})")
    if rerun_state:
        ck.ran(4)
        run_night(a, tel, rerun_state, a.cap_now)
        p2 = open(os.path.join(rerun_state, "plan.csv")).read()
        if p2 != open(os.path.join(state, "plan.csv")).read():
            ck.bad(4, k, "re-run: plan differs")
        for o in ("submit", "update", "delete"):
            if read_jsonl(os.path.join(rerun_state, "yarn", f"{o}.jsonl")):
                ck.bad(4, k, f"re-run: {o}.jsonl not empty")
        shutil.rmtree(rerun_state)

    # ---- check 5: ad-hoc requests
    ck.ran(5)
    for key, r in plan.items():
        job = key[0]
        if job not in adhoc_by:
            continue
        if sum(1 for kk in plan if kk[0] == job) > 1:
            ck.bad(5, k, f"{job}: {sum(1 for kk in plan if kk[0] == job)} reservations")
        dl = adhoc_by[job][3]
        if at >= dl:
            ck.bad(5, k, f"{job}#{key[2]}: still in the plan at at={at} >= its deadline {dl}")
    for key, r in plan.items():
        # an ad-hoc request placed tonight must run after the night's run:
        # a reservation over by then never serves it (and is "spent" tomorrow)
        dd = [d for d in decs if d["job"] == key[0] and d["kind"] == "adhoc" and d["status"] in ("placed", "moved")]
        if dd and expected_body(key, r, at)["end"] <= at + a.post_time:
            ck.bad(5, k, f"ad-hoc {key[0]}#{key[2]} placed tonight at [{expected_body(key, r, at)['arrival'] / 1000 - at:g}, "
                         f"{expected_body(key, r, at)['end'] - at:g}] s after --at: over before the run at "
                         f"+{a.post_time} s")
    for d in decs:
        if d["kind"] == "adhoc" and d["status"] in ("placed", "moved"):
            adhoc_hist.setdefault((d["job"], d["instance"]), []).append((k, d["status"]))
            if len(adhoc_hist[(d["job"], d["instance"])]) > 1:
                ck.bad(5, k, f"ad-hoc {d['job']}#{d['instance']} placed again: {adhoc_hist[(d['job'], d['instance'])]}")
    listed = {r[0] for r in adhoc if is_listed(r, k, at)}
    for name in listed:
        dl = adhoc_by[name][3]
        if at >= dl and any(kk[0] == name for kk in plan):
            ck.bad(5, k, f"{name} past its deadline but planned")
    for r in adhoc:
        if r[0] not in listed and r[2] >= at and any(kk[0] == r[0] for kk in plan):
            ck.bad(5, k, f"{r[0]}: no longer listed, its window not yet open, still planned")
    for rid, nights in rm.submitted.items():
        if len(nights) > 1:
            v = rm.res.get(rid)
            name = v["name"] if v else rid
            if name.split("#")[0] in adhoc_by:
                ck.bad(5, k, f"ad-hoc {name} submitted on nights {nights}")
    for v in rm.res.values():
        job = v["name"].split("#")[0]
        if job in adhoc_by and adhoc_by[job][3] <= at:
            ck.bad(5, k, f"RM still holds ad-hoc {v['name']} after its deadline")

    # ---- check 6: windows and deadlines
    ck.ran(6)
    dmap = {}
    for d in decs:
        dmap[(d["job"], d["kind"] if d["kind"] != "adhoc" else "once", d["instance"] if d["kind"] != "periodic" else "")] = d
    for key, r in plan.items():
        job, kind, inst = key
        b = expected_body(key, r, at)
        t_first = r["steps"][0][0]
        t_last = r["steps"][-1][0] + r["step"]
        if job in adhoc_by:
            _, _, arr, dl, _, _, _ = adhoc_by[job]
            placed_at = at + a.post_time  # placed from the run's time on (lcmpack --now)
            hist = adhoc_hist.get((job, inst))
            if hist:
                placed_at = a.at_of[hist[0][0]] + a.post_time
            s, e = b["arrival"] / 1000, b["end"]
            lo_ = max(arr, placed_at)
            lo_ = math.floor(lo_ / STEP) * STEP  # one step early when off the grid
            if s < lo_ or e > dl:
                ck.bad(6, k, f"ad-hoc {job}#{inst}: [{s:g}, {e:g}] outside [{max(arr, placed_at)}, {dl}]")
            if b["deadline"] / 1000 != dl:
                ck.bad(6, k, f"ad-hoc {job}: YARN deadline {b['deadline'] / 1000:g} != {dl}")
            continue
        a_, d_ = r["a"], r["d"]
        lo_ = math.floor(a_ / STEP) * STEP if (d_ - a_) // STEP > (math.floor(d_ / STEP) - math.ceil(a_ / STEP)) else a_
        if kind == "periodic":
            s, e = t_first, t_last
        else:
            off = -r["instance"] * r["period"]
            s, e = t_first + off, t_last + off
        if s < lo_ - 1e-9 or e > d_ + 1e-9:
            ck.bad(6, k, f"{job} {kind} {inst}: [{s:g}, {e:g}] outside the plan's window [{a_:g}, {d_:g}]")
        if abs(b["slo_deadline"] * 1000 - b["deadline"]) > 1:
            ck.bad(6, k, f"{job}: YARN deadline {b['deadline']} is not the SLO deadline {b['slo_deadline'] * 1000}")
        sl = slo.get(job)
        dd = dmap.get(key)
        if sl and dd:
            sa, sd = float(sl["a"]), float(sl["d"])
            if kind == "once":  # an instance under way at the run is placed from then on (lcmpack --now)
                sa = max(sa, at + a.post_time - r["instance"] * r["period"])
            if dd["status"] in ("placed", "moved") and (abs(sa - a_) > 1e-6 or sd != d_):
                ck.bad(6, k, f"{job}: placed tonight with [{a_:g}, {d_:g}], SLO says [{sa:g}, {sd:g}]")
            # a kept reservation keeps the window it was placed with; it must
            # still lie in tonight's [a, d], give or take a step (lcmpack(1),
            # "Stable plans")
            if dd["status"] == "kept" and kind == "periodic" and (s < sa - STEP - 1e-9 or e > sd + STEP + 1e-9):
                ck.bad(6, k, f"{job}: kept at [{s:g}, {e:g}], outside tonight's SLO [{sa:g}, {sd:g}] by more than a step")
    return plan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("work")
    ap.add_argument("--nights", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--capacity", default="cores=1500,mem=6000000")
    ap.add_argument("--offkilter", default="0.2")
    ap.add_argument("--cap-factor", type=float, default=1.3,
                    help="the capacity event multiplies CAPACITY by this (default 1.3; < 1 shrinks it)")
    ap.add_argument("--post-order", default="delete,update,submit",
                    help="the order the delta's files are POSTed in (default: lcmpack(1)'s example)")
    ap.add_argument("--post-time", type=int, default=5400,
                    help="seconds after --at at which the night runs and its delta is POSTed "
                         "(default 5400: the script's crontab, 01:30)")
    ap.add_argument("--no-rerun", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--show", type=int, default=8, help="problems listed per check (default 8)")
    ap.add_argument("--script", help="the nightly script (default examples/nightly-plan.sh of this tree)")
    ap.add_argument("--keep", action="store_true", help="keep each night's state in WORKDIR/keep/N")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)
    a.post_order = a.post_order.split(",")
    a.script = a.script or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                                        "nightly-plan.sh")
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    make_dump(a, work)
    t0 = None
    with open(os.path.join(work, "runs.csv")) as f:
        next(f)
        t0 = min(int(l.split(",")[2]) for l in f) // DAY * DAY
    ev = plan_events(a, work)
    adhoc = adhoc_requests(a, t0)
    cap0 = a.capacity
    cores, mem = parse_cap(cap0)
    cap1 = f"cores={cores * a.cap_factor:g},mem={mem * a.cap_factor:g}"
    state = os.path.join(work, "state")
    shutil.rmtree(state, ignore_errors=True)
    tel = os.path.join(work, "tel")
    rm, ck = MockRM(), Checks()
    prev, hist = None, {}
    a.at_of = {}
    a.prev_over = None
    evnights = {v[1]: kname for kname, v in ev.items() if isinstance(v, tuple)}
    evnights[ev["capacity"]] = "capacity"
    evnights[ev["missed"] + 1] = "after a missed night"
    if not a.quiet:
        print("events: " + ", ".join(f"{kname} {v[0]} night {v[1]}" if isinstance(v, tuple) else f"{kname} night {v}"
                                      for kname, v in ev.items()) + f"; {len(adhoc)} ad-hoc requests")
    for k in range(a.nights):
        listed = cut_night(a, work, k, t0, ev, tel, adhoc)
        at = t0 + (WINDOW + k) * DAY
        a.at_of[k] = at
        a.cap_now = cap1 if k >= ev["capacity"] else cap0
        a.now = at + a.post_time
        if k == ev["missed"]:
            if not a.quiet:
                print(f"night {k:2d} missed (cron did not run)")
            continue
        try:
            run_night(a, tel, state, a.cap_now)
        except Fail as e:
            ck.bad(0, k, str(e))
            break
        if a.keep:
            kd = os.path.join(work, "keep", str(k))
            shutil.rmtree(kd, ignore_errors=True)
            shutil.copytree(os.path.join(state, "current"), kd)
            shutil.rmtree(kd + "-tel", ignore_errors=True)
            shutil.copytree(tel, kd + "-tel")
        rerun = None
        if not a.no_rerun:
            rerun = os.path.join(work, "rerun")
            shutil.rmtree(rerun, ignore_errors=True)
            shutil.copytree(state, rerun, symlinks=True)
        nb = sum(len(v) for v in ck.fails.values())
        try:
            prev = check_night(a, ck, k, at, state, rm, prev, parse_cap(a.cap_now), adhoc, k in evnights, hist,
                               rerun, tel)
        except Fail as e:
            ck.bad(0, k, str(e))
            break
        if not a.quiet:
            rep = open(os.path.join(state, "report.txt")).read().splitlines()
            ch = next((l for l in rep if l.startswith("changes:")), "")
            yl = next((l for l in rep if l.startswith("yarn:      delta")), "")
            print(f"night {k:2d} {evnights.get(k, ''):8s} ad-hoc {len(listed):2d} | {ch[11:60]} | "
                  f"{yl[16:60]} | RM {len(rm.res)} | {sum(len(v) for v in ck.fails.values()) - nb} problems")
    names = {0: "the night ran", 1: "RM = plan", 2: "RM within capacity", 3: "actionable jobs accounted",
             4: "stability, re-run", 5: "ad-hoc once", 6: "windows, deadlines"}
    bad = 0
    for c in range(7):
        f = ck.fails.get(c, [])
        if c and not ck.runs.get(c) and not f:
            continue
        print(f"check {c} ({names[c]}): {'FAIL' if f else 'ok'} ({ck.runs.get(c, 0)} nights checked"
              f"{', %d problems' % len(f) if f else ''})")
        for m in f[:a.show]:
            print("   " + m)
        nt = ck.notes.get(c, [])
        if nt:
            print(f"   ({len(nt)} documented exception(s), e.g. {nt[0]})")
        bad += len(f)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
