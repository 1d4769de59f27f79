#!/usr/bin/env python3
"""Check the nightly job's METRICS file (examples/nightly-plan.sh) apart from
the script: the Prometheus text exposition format (version 0.0.4, as
node_exporter's textfile collector reads it), and its values against the
state directory, each worked out here from the files themselves.

  nightly_metrics.py METRICS EXIT [STATE]

EXIT: the exit status the last run must have recorded.  With STATE (the
run published a night), every value of the published night is compared
with STATE's files; without it only the format and the exit status are.
Prints what is wrong and exits 1, or exits 0.
"""
import csv
import datetime
import math
import os
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*$")
SAMPLE = re.compile(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*")*)?\})? (\S+)$')
STATUSES = ("placed", "kept", "moved", "rejected", "skipped", "removed", "expired")


def parse(path):
    """{name: {labels string: value}}, after checking the format."""
    fams, typed, helped, order = {}, set(), set(), []
    text = open(path, encoding="utf-8").read()
    if not text.endswith("\n"):
        raise ValueError("the last line has no line end")
    for n, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, rest = line[2:6], line[7:]
            name, _, arg = rest.partition(" ")
            if not NAME.match(name):
                raise ValueError(f"line {n}: bad metric name {name!r}")
            if name in fams:
                raise ValueError(f"line {n}: {kind} of {name} after its samples")
            seen = typed if kind == "TYPE" else helped
            if name in seen:
                raise ValueError(f"line {n}: a second {kind} of {name}")
            seen.add(name)
            if kind == "TYPE" and arg != "gauge":
                raise ValueError(f"line {n}: {name} is a {arg!r}, every metric here is a gauge")
            if kind == "HELP" and not arg:
                raise ValueError(f"line {n}: {name} has an empty HELP")
            continue
        if line.startswith("#") or not line:
            raise ValueError(f"line {n}: neither a sample nor HELP/TYPE: {line!r}")
        m = SAMPLE.match(line)
        if not m:
            raise ValueError(f"line {n}: not a sample: {line!r}")
        name, labels, value = m.group(1), m.group(3) or "", m.group(5)
        if name not in typed or name not in helped:
            raise ValueError(f"line {n}: {name} has no HELP and TYPE before it")
        if order and order[-1] != name and name in fams:
            raise ValueError(f"line {n}: the samples of {name} are not together")
        v = float(value)  # "+Inf" reads too
        if math.isnan(v):
            raise ValueError(f"line {n}: NaN")
        if labels in fams.setdefault(name, {}):
            raise ValueError(f"line {n}: a second sample {name}{{{labels}}}")
        fams[name][labels] = v
        order.append(name)
    return fams


def expect(state):
    """The published night's values, from STATE's files."""
    cur = os.readlink(os.path.join(state, "current"))
    g = os.path.join(state, cur)
    want = {"slokit_nightly_generation": {"": float(cur.removeprefix("gen."))}}
    with open(os.path.join(g, "decisions.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    want["slokit_nightly_decisions"] = {
        f'status="{s}"': float(sum(re.match(r"[a-z]*", r["status"]).group(0) == s for r in rows)) for s in STATUSES
    }
    with open(os.path.join(g, "rejects.csv"), newline="") as f:
        want["slokit_nightly_bad_rows"] = {"": float(sum(1 for _ in csv.DictReader(f)))}
    want["slokit_nightly_yarn_delta_bodies"] = {}
    for k in ("submit", "update", "delete"):
        p = os.path.join(g, "yarn", k + ".jsonl")
        n = sum(1 for _ in open(p)) if os.path.exists(p) else 0
        want["slokit_nightly_yarn_delta_bodies"][f'kind="{k}"'] = float(n)
    with open(os.path.join(g, "load.csv"), newline="") as f:
        cost = [r["cost"] for r in csv.DictReader(f)]
    peak = math.inf if "" in cost else max([float(c) for c in cost] + [0.0])
    want["slokit_nightly_plan_peak_cost"] = {"": peak}
    m = re.search(r", plan from (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)$", open(os.path.join(g, "report.txt")).read(), re.M)
    if not m:
        raise ValueError("report.txt has no 'plan from' date")
    t = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    want["slokit_nightly_plan_from_timestamp_seconds"] = {"": t.timestamp()}
    return want


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    bad = []
    try:
        fams = parse(sys.argv[1])
    except (ValueError, OSError) as e:
        print(f"{sys.argv[1]}: {e}")
        sys.exit(1)
    get = lambda n: fams.get(n, {}).get("")
    if get("slokit_nightly_last_exit_status") != float(sys.argv[2]):
        bad.append(f"last_exit_status {get('slokit_nightly_last_exit_status')}, want {sys.argv[2]}")
    run = get("slokit_nightly_last_run_timestamp_seconds")
    if run is None or abs(run - datetime.datetime.now().timestamp()) > 3600:
        bad.append(f"last_run_timestamp_seconds {run} is not about now")
    if len(sys.argv) == 4:
        if get("slokit_nightly_last_success_timestamp_seconds") != run:
            bad.append("a published night: last_success is not the last run")
        for name, samples in expect(sys.argv[3]).items():
            got = fams.get(name, {})
            for labels, v in samples.items():
                g = got.get(labels)
                if g is None or not (g == v or abs(g - v) <= 1e-5 * max(1.0, abs(v))):
                    bad.append(f"{name}{{{labels}}} = {g}, the state says {v}")
            if set(got) != set(samples):
                bad.append(f"{name}: samples {sorted(got)}, want {sorted(samples)}")
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
