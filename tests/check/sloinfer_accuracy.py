#!/usr/bin/python3
"""sloinfer_accuracy.py — compare sloinfer's output with tracegen's ground truth.

usage: sloinfer_accuracy.py SLO.csv TRUTH.csv [--min-period F] [--min-status F]
                            [--min-ad F] [--tol F] [-v]

The truth (tracegen runs/events --truth) has job,period,a,d,consumer_period,
actionable,reason.  Checks, over the jobs of the truth:
  * every truth job has exactly one output row (no job disappears);
  * period: the fraction with period == truth period is >= --min-period;
  * status: the fraction whose status equals the truth reason
    ('actionable' for actionable jobs) is >= --min-status;
  * a and d: over truth-actionable jobs that sloinfer also calls actionable,
    the fraction with |a - a_true| and |d - d_true| both <= tol * period is
    >= --min-ad (default tol 0.02: half an hour on a daily job).
Exits 0 when all hold, 1 otherwise; prints the measured fractions.
Independent of sloinfer: it reads only the two CSV files.
"""
import csv
import sys


def main(argv):
    args = [a for a in argv[1:] if not a.startswith('-')]
    opts = {'--min-period': 0.95, '--min-status': 0.9, '--min-ad': 0.9, '--tol': 0.02}
    verbose = '-v' in argv
    i = 1
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = float(argv[i + 1])
            args.remove(argv[i + 1])
            i += 2
        else:
            i += 1
    slo_path, truth_path = args
    with open(slo_path, newline='') as f:
        rows = list(csv.DictReader(f))
    with open(truth_path, newline='') as f:
        truth = list(csv.DictReader(f))
    out = {}
    ok = True
    missing = 0
    for r in rows:
        if r['job'] in out:
            print('duplicate output row for', r['job'])
            ok = False
        out[r['job']] = r
    n = len(truth)
    per_ok = st_ok = ad_n = ad_ok = 0
    for t in truth:
        r = out.get(t['job'])
        if r is None:
            missing += 1
            if missing <= 10:
                print('job missing from the output:', t['job'])
            ok = False
            continue
        P = float(t['period'])
        if r['period'] and abs(float(r['period']) - P) < 0.5:
            per_ok += 1
        elif verbose:
            print('period', t['job'], r['period'], 'want', P)
        want = 'actionable' if t['actionable'] == '1' else t['reason']
        if r['status'] == want:
            st_ok += 1
        elif verbose:
            print('status', t['job'], r['status'], 'want', want, 'P', P)
        if want == 'actionable' and r['status'] == 'actionable':
            ad_n += 1
            da = abs(float(r['a']) - float(t['a']))
            dd = abs(float(r['d']) - float(t['d']))
            if da <= opts['--tol'] * P and dd <= opts['--tol'] * P:
                ad_ok += 1
            elif verbose:
                print('a/d', t['job'], 'P', P, 'a', r['a'], t['a'], 'd', r['d'], t['d'])
    fp = per_ok / n if n else 0
    fs = st_ok / n if n else 0
    fa = ad_ok / ad_n if ad_n else 0
    print('jobs %d: period %.3f, status %.3f, a/d within %.3g*period %.3f (of %d)' % (
        n, fp, fs, opts['--tol'], fa, ad_n))
    if len(out) != n:
        print('output has %d rows for %d truth jobs' % (len(out), n))
        ok = False
    ok = ok and fp >= opts['--min-period'] and fs >= opts['--min-status'] and fa >= opts['--min-ad']
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
