#!/usr/bin/python3
"""tenantclass_features.py SERIES FEATURES TENANT... — recompute tenantclass's
per-tenant features from their definitions in tenantclass(1), in plain Python
(no FFT library: each DFT bin summed directly): the 120 s epoch-aligned grid
(mean per step, gaps filled linearly), steps and gap count, avg, the type-7
99th percentile, sd, the slow sd (power at periods >= 1 h), and for the
periods 1d and 7d holding >= 2 cycles the comb strength (bins within one of
round(m k0), m = 1..6, over the variance) and the lag-one-period Pearson
repeat.  Exits 1 when any feature of a listed tenant differs by more than
1e-6 (default parameters only)."""
import csv, math, sys, cmath
rows = {}
for r in csv.DictReader(open(sys.argv[1])):
    rows.setdefault(r['tenant'], []).append((int(r['t']), float(r['util'])))
feat = {r['tenant']: r for r in csv.DictReader(open(sys.argv[2]))}
D = 120
def bin_power(x, k):
    N = len(x)
    s = sum(v * cmath.exp(-2j * math.pi * k * i / N) for i, v in enumerate(x))
    p = abs(s) ** 2 / N ** 2
    return p if 2 * k == N else 2 * p
bad = 0
for name in sys.argv[3:]:
    pts = rows[name]
    t0 = pts[0][0] // D * D
    n = (pts[-1][0] // D * D - t0) // D + 1
    acc = [[0, 0] for _ in range(n)]
    for t, u in pts:
        i = (t - t0) // D; acc[i][0] += u; acc[i][1] += 1
    x = [a / c if c else None for a, c in acc]
    have = [i for i, v in enumerate(x) if v is not None]
    gaps = n - len(have)
    for a, b in zip(have, have[1:]):
        for i in range(a + 1, b):
            x[i] = x[a] + (x[b] - x[a]) * (i - a) / (b - a)
    N = len(x); mu = sum(x) / N; y = [v - mu for v in x]
    var = sum(v * v for v in y) / N
    kmax_low = int(N * D / 3600)
    sdlow = math.sqrt(sum(bin_power(y, k) for k in range(1, kmax_low + 1)))
    best = (0, 0, 0)
    for T in (86400, 7 * 86400):
        if N * D < 2 * T: continue
        k0 = N * D / T
        bins = set()
        for m in range(1, 7):
            c = round(m * k0)
            for k in (c - 1, c, c + 1):
                if 1 <= k <= N // 2: bins.add(k)
        st = sum(bin_power(y, k) for k in bins) / var
        L = T // D
        a = x[:-L]; b = x[L:]
        ma = sum(a) / len(a); mb = sum(b) / len(b)
        cov = sum((p - ma) * (q - mb) for p, q in zip(a, b))
        rep = cov / math.sqrt(sum((p - ma) ** 2 for p in a) * sum((q - mb) ** 2 for q in b))
        if st > best[0]: best = (st, T, rep)
    s = sorted(x); h = (N - 1) * 0.99; lo = int(math.floor(h)); pk = s[lo] + (h - lo) * (s[min(lo + 1, N - 1)] - s[lo])
    f = feat[name]
    got = dict(steps=N, missing=gaps, avg=mu, peak=pk, sd=math.sqrt(var), sd_low=sdlow, strength=best[0], period=best[1], repeat=best[2])
    for k, v in got.items():
        d = abs(float(f[k]) - v)
        if d > 1e-6:
            print(f"{name}: {k}: tenantclass {f[k]}, recomputed {v:.9g}")
            bad = 1
sys.exit(bad)
