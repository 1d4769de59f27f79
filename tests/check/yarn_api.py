#!/usr/bin/env python3
"""yarn_api.py OP FILE [PLAN AT] -- check YARN reservation bodies (one JSON
object per line) against the Hadoop 3 ResourceManager REST API's Cluster
Reservation API, independently of lcmpack:

  submit  POST /ws/v1/cluster/reservation/submit
          {"queue": string, "reservation-id": string, "reservation-definition": object}
  update  POST /ws/v1/cluster/reservation/update
          {"reservation-id": string, "reservation-definition": object}
  delete  POST /ws/v1/cluster/reservation/delete
          {"reservation-id": string}
  reservation-definition: arrival long (ms), deadline long (ms),
          reservation-name string, recurrence-expression string (optional),
          priority int (optional), reservation-requests object:
          reservation-request-interpreter int (0..3), reservation-request
          array of {capability {memory int, vCores int}, num-containers int,
          min-concurrency int, duration long}
  reservation-id: "reservation_<cluster timestamp>_<id>" (YARN's ReservationId).

The field names of the definition are also checked against the sample body
in ../shared/data/yarn-reservation/submit-reservation.json when present.
With PLAN and AT (epoch s), each definition must also match the plan's
reservation of that name: arrival = its first step, total duration = its
length, deadline >= its end.  Prints "ok N bodies" or the first problem
(exit 1)."""
import json, os, re, sys

INT = int
RID = re.compile(r'^reservation_\d+_\d{4,}$')

def fail(msg):
    print("yarn_api: " + msg)
    sys.exit(1)

def need(obj, keys, where, optional=()):
    if not isinstance(obj, dict):
        fail(f"{where}: not an object")
    extra = set(obj) - set(keys) - set(optional)
    missing = set(keys) - set(obj)
    if extra or missing:
        fail(f"{where}: fields {sorted(obj)}; missing {sorted(missing)}, unknown {sorted(extra)}")

def is_int(v):
    return isinstance(v, INT) and not isinstance(v, bool)

def check_def(d, where):
    need(d, ["arrival", "deadline", "reservation-name", "reservation-requests"], where,
         optional=["recurrence-expression", "priority"])
    for k in ("arrival", "deadline"):
        if not is_int(d[k]) or d[k] < 0:
            fail(f"{where}: {k} {d[k]!r} is not a long (ms)")
    if not isinstance(d["reservation-name"], str) or not d["reservation-name"]:
        fail(f"{where}: reservation-name is not a string")
    if "recurrence-expression" in d and not re.fullmatch(r"\d+", str(d["recurrence-expression"])) \
            or "recurrence-expression" in d and not isinstance(d["recurrence-expression"], str):
        fail(f"{where}: recurrence-expression {d.get('recurrence-expression')!r} is not a string of ms")
    rr = d["reservation-requests"]
    need(rr, ["reservation-request-interpreter", "reservation-request"], where + ".reservation-requests")
    if not is_int(rr["reservation-request-interpreter"]) or not 0 <= rr["reservation-request-interpreter"] <= 3:
        fail(f"{where}: reservation-request-interpreter not in 0..3")
    items = rr["reservation-request"]
    if not isinstance(items, list) or not items:
        fail(f"{where}: reservation-request is not a non-empty array")
    total = 0
    for i, it in enumerate(items):
        w = f"{where}.reservation-request[{i}]"
        need(it, ["capability", "num-containers", "min-concurrency", "duration"], w)
        need(it["capability"], ["memory", "vCores"], w + ".capability")
        for k in ("memory", "vCores"):
            if not is_int(it["capability"][k]) or it["capability"][k] < 0:
                fail(f"{w}: capability.{k} is not an int")
        for k in ("num-containers", "min-concurrency", "duration"):
            if not is_int(it[k]) or it[k] < 1:
                fail(f"{w}: {k} {it[k]!r} is not a positive int")
        if it["min-concurrency"] > it["num-containers"]:
            fail(f"{w}: min-concurrency above num-containers")
        total += it["duration"]
    if not d["arrival"] < d["deadline"]:
        fail(f"{where}: arrival {d['arrival']} not before deadline {d['deadline']}")
    if rr["reservation-request-interpreter"] == 3 and total > d["deadline"] - d["arrival"]:
        fail(f"{where}: R_ORDER_NO_GAP requests last {total} ms, more than deadline - arrival")
    # the RM's ReservationInputValidator: a recurring reservation's
    # deadline - arrival is at most its recurrence
    if "recurrence-expression" in d and d["deadline"] - d["arrival"] > int(d["recurrence-expression"]):
        fail(f"{where}: deadline - arrival {d['deadline'] - d['arrival']} ms exceeds the recurrence "
             f"{d['recurrence-expression']} ms")
    return total

def sample_fields():
    here = os.path.dirname(os.path.abspath(__file__))
    p = os.path.join(here, "..", "..", "..", "shared", "data", "yarn-reservation", "submit-reservation.json")
    if not os.path.exists(p):
        p = "/work/shared/data/yarn-reservation/submit-reservation.json"
    if not os.path.exists(p):
        return None
    s = json.load(open(p))
    d = s["reservation-definition"]
    it = d["reservation-requests"]["reservation-request"][0]
    return set(s), set(d), set(d["reservation-requests"]), set(it), set(it["capability"])

def plan_res(path, at):
    """name -> (first step abs s, length s, end abs s) from a slokit plan, independently."""
    out = {}
    rows = [l.split(",") for l in open(path).read().splitlines()[1:]]
    for f in rows:
        if f[2] == "end":
            continue
        job, kind, inst, cyc, t, step, lcm = f[1], f[2], f[3], f[4], int(f[5]), int(f[6]), int(f[7])
        if kind == "periodic" and inst != "0":
            continue
        name = job if kind == "periodic" else f"{job}#{inst}"
        base = at if kind == "periodic" else int(cyc) * lcm
        key = name
        if key not in out:
            out[key] = [base + t, 0, None, base, lcm]
        r = out[key]
        # periodic rows wrap modulo the cycle: count steps, not times
        r[1] += step
    for k, r in out.items():
        r[2] = r[0] + r[1]
    return out

def main():
    if len(sys.argv) not in (3, 5):
        fail("usage: yarn_api.py submit|update|delete|plain FILE [PLAN AT]")
    op, path = sys.argv[1], sys.argv[2]
    plan = plan_res(sys.argv[3], int(sys.argv[4])) if len(sys.argv) == 5 else None
    sf = sample_fields()
    n = 0
    ids = {}
    for ln, line in enumerate(open(path), 1):
        where = f"{path}:{ln}"
        try:
            b = json.loads(line)
        except ValueError as e:
            fail(f"{where}: not JSON: {e}")
        if op in ("submit", "plain"):
            need(b, ["queue", "reservation-id", "reservation-definition"], where)
            if not isinstance(b["queue"], str):
                fail(f"{where}: queue is not a string")
        elif op == "update":
            need(b, ["reservation-id", "reservation-definition"], where)
        elif op == "delete":
            need(b, ["reservation-id"], where)
        else:
            fail("unknown op " + op)
        if not isinstance(b["reservation-id"], str) or not RID.match(b["reservation-id"]):
            fail(f"{where}: reservation-id {b['reservation-id']!r} is not reservation_<ts>_<id>")
        if b["reservation-id"] in ids:  # two bodies, one reservation: the RM would hold one of them
            fail(f"{where}: reservation-id {b['reservation-id']} again (first at line {ids[b['reservation-id']]})")
        ids[b["reservation-id"]] = ln
        if "reservation-definition" in b:
            d = b["reservation-definition"]
            total = check_def(d, where)
            if sf:
                top, dk, rk, ik, ck = sf
                if not set(d) - {"recurrence-expression", "priority"} <= dk or \
                        not set(d["reservation-requests"]) <= rk or \
                        any(not set(i) <= ik or not set(i["capability"]) <= ck
                            for i in d["reservation-requests"]["reservation-request"]):
                    fail(f"{where}: field names differ from the API's sample body")
            if plan is not None:
                r = plan.get(d["reservation-name"])
                if r is None:
                    fail(f"{where}: no reservation '{d['reservation-name']}' in the plan")
                if d["arrival"] != r[0] * 1000 or total != r[1] * 1000 or d["deadline"] < r[2] * 1000:
                    fail(f"{where}: arrival {d['arrival']}, {total} ms, deadline {d['deadline']} do not match "
                         f"the plan's start {r[0]} s, length {r[1]} s, end {r[2]} s")
        n += 1
    print(f"ok {n} bodies")

main()
