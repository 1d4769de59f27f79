#!/usr/bin/env python3
"""Independent check of replplace's drawn reimage counts per tenant size.

    replplace_bursts.py TENANTS EVENTS DAYS [--burst-share X] [--env-burst-share X]
                        [--burst-min F] [--burst-max F] [--burst-window-h H] [--sigmas K]

EVENTS is what `replplace --simulate --write-events` wrote for TENANTS over
DAYS days with those burst options (replplace's defaults if not given).
From the model as replplace(1) states it, not from the C code: a tenant of n
servers at rate r per server-month (a month is 30.4375 days) gets
Poisson(ind r n M) independent reimages (ind = 1 - burst_share -
env_burst_share, M = DAYS / 30.4375 months), Poisson(burst_share r M /
mean_f) tenant bursts and, per environment, Poisson(env_burst_share w M /
mean_f) environment bursts (w = the environment's server-weighted mean
rate), mean_f = (burst_min + burst_max) / 2; a burst draws f uniform in
[burst_min, burst_max] and hits floor(f n) + [u < frac(f n)] servers of each
tenant it touches (mean f n), spread over the burst window after a start
uniform in the period (a share window / (2 DAYS) of its reimages falls after
the end and is not drawn).  So a tenant's expected count is r n M, less that
sliver.

The tenants are grouped by size n; per group the drawn count is compared
with its mean, with the standard deviation of the compound Poisson total:
var = independent mean + sum over burst processes of rate x E[(sum of the
group's sizes in one burst)^2], the square's mean taken over f by a 4000-
point midpoint rule (environment bursts hit every tenant of the environment
with one f, so sizes in one burst are added before squaring).  The check
fails when a group is more than K (4) standard deviations off: a correct
generator fails one of five groups by chance with probability about 3e-4.
Prints one row per size: servers,tenants,drawn,configured,ratio,sd_pct,z.
"""
import csv
import math
import sys
from collections import defaultdict


def main(argv):
    opts = {"--burst-share": 0.5, "--env-burst-share": 0.1, "--burst-min": 0.05,
            "--burst-max": 0.5, "--burst-window-h": 2.0, "--sigmas": 4.0}
    pos = []
    i = 1
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = float(argv[i + 1])
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    if len(pos) != 3:
        sys.exit(__doc__)
    tenants_path, events_path, days = pos[0], pos[1], float(pos[2])
    bs, es = opts["--burst-share"], opts["--env-burst-share"]
    fmin, fmax = opts["--burst-min"], opts["--burst-max"]
    ind = max(0.0, 1 - bs - es)
    mean_f = (fmin + fmax) / 2
    months = days / 30.4375
    keep = 1 - opts["--burst-window-h"] / (2 * 24 * days)  # burst reimages inside the period

    tenants = []  # (name, env, n, rate)
    with open(tenants_path, newline="") as fh:
        for row in csv.DictReader(fh):
            tenants.append((row["tenant"], row["environment"], int(row["servers"]),
                            float(row["reimages_per_server_month"])))
    size_of = []
    for _, _, n, _ in tenants:
        size_of.extend([n] * n)

    drawn = defaultdict(int)
    with open(events_path, newline="") as fh:
        rd = csv.reader(fh)
        head = next(rd)
        si, ki = head.index("server"), head.index("event")
        for row in rd:
            if row[ki] == "reimage":
                drawn[size_of[int(row[si])]] += 1

    K = 4000
    fs = [fmin + (fmax - fmin) * (k + 0.5) / K for k in range(K)]

    def size_moments(n, f):  # mean and variance of one tenant's burst size
        x = f * n
        p = x - math.floor(x)
        return x, p * (1 - p)

    def burst_sq(sizes):  # E over f of (sum of independent sizes)^2
        if fmax <= fmin:
            fl = [fmin]
        else:
            fl = fs
        acc = 0.0
        for f in fl:
            m = v = 0.0
            for n in sizes:
                a, b = size_moments(n, f)
                m += a
                v += b
            acc += v + m * m
        return acc / len(fl)

    mean = defaultdict(float)
    var = defaultdict(float)
    count = defaultdict(int)
    cache = {}
    for _, _, n, r in tenants:
        count[n] += 1
        mean[n] += r * n * months * (ind + bs * keep)
        var[n] += ind * r * n * months
        if bs > 0 and mean_f > 0:
            if (n,) not in cache:
                cache[(n,)] = burst_sq([n])
            var[n] += bs * r * months / mean_f * keep * cache[(n,)]
    if es > 0 and mean_f > 0:
        envs = defaultdict(list)
        for _, e, n, r in tenants:
            envs[e].append((n, r))
        for members in envs.values():
            ns = sum(n for n, _ in members)
            w = sum(n * r for n, r in members) / ns if ns else 0
            lam = es * w * months / mean_f * keep
            by_size = defaultdict(list)
            for n, _ in members:
                by_size[n].append(n)
            for n, sizes in by_size.items():
                mean[n] += lam * mean_f * n * len(sizes)
                key = tuple(sizes)
                if key not in cache:
                    cache[key] = burst_sq(sizes)
                var[n] += lam * cache[key]

    bad = 0
    print("servers,tenants,drawn,configured,ratio,sd_pct,z")
    for n in sorted(count):
        sd = math.sqrt(var[n])
        z = (drawn[n] - mean[n]) / sd if sd > 0 else 0.0
        print("%d,%d,%d,%.0f,%.4f,%.3f,%.2f" % (n, count[n], drawn[n], mean[n], drawn[n] / mean[n],
                                                100 * sd / mean[n], z))
        if abs(z) > opts["--sigmas"]:
            bad += 1
            print("replplace_bursts: tenants of %d servers: drawn %d, expected %.0f +- %.0f (z = %.2f)"
                  % (n, drawn[n], mean[n], sd, z), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
