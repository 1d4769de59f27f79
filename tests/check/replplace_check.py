#!/usr/bin/python3
"""Independent checker for replplace placements.

    replplace_check.py [--policy alg2|stock] [--replicas R] [--block-mb MB]
                       [--rack-size N] [--soft] TENANTS BLOCKS PLACEMENTS

Recomputes, from the tenants table alone and the rules written in
replplace(1), the server numbering (servers 0.. through the tenants in file
order), every tenant's class in the 3 x 3 grid (rows: reimage rate thirds of
the total space, tenants sorted by rate, peak, name, each in the third holding
the midpoint of its space; columns: the same inside each row by peak, rate,
name) and each tenant's capacity, then checks every placement:

  alg2:  R rows per block numbered 1..R in input order; replica 1 on the
         creating server (unless its tenant was full, counted); the server
         belongs to the named tenant, whose class is the one written; within
         each group of 3 replicas no two share a row or a column; all
         environments of a block differ; no tenant over capacity.
  stock: replica 1 local, replica 2 on the rack of replica 1, replica 3 on
         another rack than 1 and 2, no server twice (when space allowed).

With --soft, constraint breaks are counted rather than fatal.  Prints a
summary; exits 1 on the first violation (with the block), 0 otherwise.
"""
import csv
import math
import sys


def fail(msg):
    print("replplace_check: FAIL: " + msg)
    sys.exit(1)


def thirds(items, weight):
    total = sum(weight(x) for x in items)
    by_count = not total > 0
    if by_count:
        total = float(len(items))
    cum, out = 0.0, []
    for x in items:
        w = 1.0 if by_count else weight(x)
        g = int(math.floor(3.0 * (cum + w / 2) / total))
        out.append(min(2, max(0, g)))
        cum += w
    return out


def main(argv):
    policy, R, block_mb, rack, soft = "alg2", 3, 256.0, 20, False
    args = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--policy":
            policy = argv[i + 1]; i += 2
        elif a == "--replicas":
            R = int(argv[i + 1]); i += 2
        elif a == "--block-mb":
            block_mb = float(argv[i + 1]); i += 2
        elif a == "--rack-size":
            rack = int(argv[i + 1]); i += 2
        elif a == "--soft":
            soft = True; i += 1
        else:
            args.append(a); i += 1
    if len(args) != 3:
        fail("usage: replplace_check.py [options] TENANTS BLOCKS PLACEMENTS")
    tpath, bpath, ppath = args

    tenants = []
    with open(tpath, newline="") as f:
        for row in csv.DictReader(f):
            tenants.append(dict(name=row["tenant"], env=row["environment"], n=int(row["servers"]),
                                space=float(row["space_gb"]), rate=float(row["reimages_per_server_month"]),
                                peak=float(row["peak_util"])))
    first = 0
    server_tenant = []
    for t in tenants:
        t["first"] = first
        first += t["n"]
        server_tenant.extend([t["name"]] * t["n"])
        t["cap"] = math.floor(t["space"] * 1024.0 / block_mb)
        t["used"] = 0
    by_name = {t["name"]: t for t in tenants}

    order = sorted(tenants, key=lambda t: (t["rate"], t["peak"], t["name"]))
    for t, g in zip(order, thirds(order, lambda t: t["space"])):
        t["row"] = g
    for r in range(3):
        members = sorted([t for t in tenants if t["row"] == r], key=lambda t: (t["peak"], t["rate"], t["name"]))
        for t, g in zip(members, thirds(members, lambda t: t["space"])):
            t["col"] = g
            t["cls"] = "r%dp%d" % (r, g)

    creators = []
    with open(bpath, newline="") as f:
        for row in csv.DictReader(f):
            creators.append((row["block"], int(row["server"])))

    stats = dict(blocks=0, rows=0, nonlocal_first=0, grid=0, env=0, stock_rack=0)
    with open(ppath, newline="") as f:
        rd = csv.reader(f)
        hdr = next(rd)
        if hdr != ["block", "replica", "server", "tenant", "class"]:
            fail("placement header is %r" % hdr)
        rows = list(rd)
    if len(rows) != R * len(creators):
        fail("%d placement rows for %d blocks x %d replicas" % (len(rows), len(creators), R))
    for b, (block, creator) in enumerate(creators):
        reps = rows[b * R:(b + 1) * R]
        servers, envs = [], []
        for k, (blk, rep, srv, ten, cls) in enumerate(reps):
            if blk != block or int(rep) != k + 1:
                fail("block %s: row %d is %s replica %s" % (block, k + 1, blk, rep))
            s = int(srv)
            if not 0 <= s < len(server_tenant) or server_tenant[s] != ten:
                fail("block %s replica %d: server %s is not in tenant %s" % (block, k + 1, srv, ten))
            t = by_name[ten]
            if t["cls"] != cls:
                fail("block %s replica %d: tenant %s is class %s, written %s" % (block, k + 1, ten, t["cls"], cls))
            if s in servers:
                fail("block %s: server %d twice" % (block, s))
            t["used"] += 1
            if t["used"] > t["cap"]:
                fail("block %s: tenant %s over its capacity of %d blocks" % (block, ten, t["cap"]))
            servers.append(s)
            envs.append(t["env"])
        if servers[0] != creator:
            stats["nonlocal_first"] += 1
            if by_name[server_tenant[creator]]["used"] < by_name[server_tenant[creator]]["cap"] and not soft:
                fail("block %s: replica 1 on %d, not on the creating server %d whose tenant had space"
                     % (block, servers[0], creator))
        if policy == "alg2":
            for g0 in range(0, R, 3):
                grp = [by_name[server_tenant[s]] for s in servers[g0:g0 + 3]]
                rws = [t["row"] for t in grp]
                cls = [t["col"] for t in grp]
                if len(set(rws)) != len(rws) or len(set(cls)) != len(cls):
                    stats["grid"] += 1
                    if not soft:
                        fail("block %s: replicas %d-%d repeat a row or column: %s"
                             % (block, g0 + 1, g0 + len(grp), [t["cls"] for t in grp]))
            if len(set(envs)) != len(envs):
                stats["env"] += 1
                if not soft:
                    fail("block %s: environments repeat: %s" % (block, envs))
        else:
            racks = [s // rack for s in servers]
            ok = True
            if R >= 2 and servers[0] == creator and racks[1] != racks[0]:
                ok = False
            if R >= 3 and (racks[2] == racks[0] or racks[2] == racks[1]):
                ok = False
            if not ok:
                stats["stock_rack"] += 1
        stats["blocks"] += 1
        stats["rows"] += R
    print("replplace_check: ok: %(blocks)d blocks, %(rows)d placements; first replica not local: "
          "%(nonlocal_first)d; grid breaks: %(grid)d; environment breaks: %(env)d; stock rack misses: "
          "%(stock_rack)d" % stats)
    if policy == "stock" and stats["stock_rack"] > stats["blocks"] // 100:
        fail("stock: %d of %d blocks miss the rack rule" % (stats["stock_rack"], stats["blocks"]))


if __name__ == "__main__":
    main(sys.argv)
