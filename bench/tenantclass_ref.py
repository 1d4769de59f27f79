#!/usr/bin/python3
"""tenantclass_ref.py — the reference for bench/tenantclass.sh: the same steps
as tenantclass(1) with numpy.fft and scikit-learn's KMeans.

    tenantclass_ref.py INPUT.csv OUTPUT.csv [--step 120]

Reads tenant,t,util (grouped by tenant, 0-1 scale); per tenant: resample to
the step (mean per step, linear interpolation over gaps), numpy.fft.rfft of
the mean-removed series, strength of the 1 d and 7 d combs (harmonics 1..6,
+-1 bin), lag-one-period correlation, slow standard deviation (periods >= 1 h),
the same pattern rules and defaults as tenantclass; then KMeans (k-means++,
n_init=4) on (avg, peak) inside each pattern with the smallest k whose RMS
distance to the centers is <= 0.05 (k <= 20).  Writes tenant,pattern,class.
Run with Debian's /usr/bin/python3 (python3-numpy, python3-sklearn).
"""
import sys
import numpy as np
from sklearn.cluster import KMeans

STEP = 120.0
PERIODS = (86400.0, 604800.0)
MIN_CYCLES, HARMONICS = 2, 6
PERIODIC_MIN, REPEAT_MIN, CONSTANT_MAX = 0.3, 0.5, 0.03
LOW_PERIOD, PEAK_PCT, MAX_MISSING, MIN_SAMPLES = 3600.0, 99, 0.5, 16
K_MAX, TOL, N_INIT = 20, 0.05, 4


def features(t, u):
    t0 = np.floor(t.min() / STEP) * STEP
    idx = np.floor((t - t0) / STEP).astype(np.int64)
    nb = int(idx.max()) + 1
    s = np.bincount(idx, weights=u, minlength=nb)
    c = np.bincount(idx, minlength=nb)
    filled = c > 0
    missing = nb - int(filled.sum())
    if nb < MIN_SAMPLES or missing > MAX_MISSING * nb:
        return None
    pos = np.nonzero(filled)[0]
    x = np.interp(np.arange(nb), pos, s[filled] / c[filled])
    avg = x.mean()
    peak = np.percentile(x, PEAK_PCT)
    X = np.fft.rfft(x - avg)
    p = (X.real ** 2 + X.imag ** 2) / (nb * nb)
    p[1:] *= 2
    if nb % 2 == 0:
        p[-1] /= 2
    p[0] = 0
    half = nb // 2
    total = p[1:].sum()
    span = nb * STEP
    klow = min(int(np.floor(span / LOW_PERIOD)), half)
    sd_low = np.sqrt(p[1:klow + 1].sum())
    best, period, rep = 0.0, 0.0, 0.0
    for T in PERIODS:
        k0 = span / T
        if k0 < MIN_CYCLES or total <= 0:
            continue
        bins = set()
        for m in range(1, HARMONICS + 1):
            cc = int(np.floor(m * k0 + 0.5))
            for k in range(cc - 1, cc + 2):
                if 1 <= k <= half:
                    bins.add(k)
        st = min(p[sorted(bins)].sum() / total, 1.0)
        if st > best or (st == best and period == 0):
            best, period = st, T
            lag = int(round(T / STEP))
            a, b = x[:-lag], x[lag:]
            if lag < nb and a.std() > 0 and b.std() > 0:
                rep = float(np.corrcoef(a, b)[0, 1])
            else:
                rep = 0.0
    if period > 0 and best >= PERIODIC_MIN and rep >= REPEAT_MIN:
        pat = "periodic"
    elif sd_low <= CONSTANT_MAX:
        pat = "constant"
    else:
        pat = "unpredictable"
    return avg, peak, best, pat


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: tenantclass_ref.py INPUT.csv OUTPUT.csv")
    data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1,
                      dtype=[("tenant", "S32"), ("t", "f8"), ("u", "f8")])
    ten = data["tenant"]
    starts = np.concatenate(([0], np.nonzero(ten[1:] != ten[:-1])[0] + 1, [len(ten)]))
    rows = []
    for i in range(len(starts) - 1):
        a, b = starts[i], starts[i + 1]
        f = features(data["t"][a:b], data["u"][a:b])
        if f is not None:
            rows.append((ten[a].decode(), *f))
    rows.sort()
    cls = {}
    for pat in ("periodic", "constant", "unpredictable"):
        sel = [r for r in rows if r[4] == pat]
        if not sel:
            continue
        X = np.array([(r[1], r[2]) for r in sel])
        kmax = min(K_MAX, len(np.unique(X, axis=0)))
        for k in range(1, kmax + 1):
            km = KMeans(n_clusters=k, init="k-means++", n_init=N_INIT, random_state=1).fit(X)
            if k == kmax or np.sqrt(km.inertia_ / len(X)) <= TOL:
                break
        order = np.lexsort((km.cluster_centers_[:, 1], km.cluster_centers_[:, 0]))
        rank = np.empty(k, dtype=int)
        rank[order] = np.arange(k)
        for r, lab in zip(sel, km.labels_):
            cls[r[0]] = "%s-%d" % (pat, rank[lab] + 1)
    with open(sys.argv[2], "w") as out:
        out.write("tenant,pattern,class\n")
        for r in rows:
            out.write("%s,%s,%s\n" % (r[0], r[4], cls[r[0]]))


if __name__ == "__main__":
    main()
