#!/usr/bin/env python3
"""tracegen_fig2a.py USAGE TRUTH: check that a tracegen jobs workload has the
provisioning statistics of Morpheus §2 Fig. 2a, measured from the usage it
wrote (not from the generator's parameters).

Per job: peak = the largest containers value of any of its usage rows;
provisioned = the truth's column.  Checks (printed with the measured values):
  over-provisioned (provisioned > peak)        75% +- 5 points
  over 10x (provisioned > 10 x peak)            20% +- 5 points
  under-provisioned jobs are large: their median peak is at least twice the
  over-provisioned jobs' median peak, and they hold more of the total peak
  than their share of the jobs.
Exit 0 when all hold, 1 otherwise."""
import csv
import statistics
import sys

usage_p, truth_p = sys.argv[1:3]
peak = {}
for r in csv.DictReader(open(usage_p)):
    c = float(r["containers"])
    if c > peak.get(r["job"], 0):
        peak[r["job"]] = c
prov = {r["job"]: float(r["provisioned"]) for r in csv.DictReader(open(truth_p))}
jobs = sorted(j for j in peak if j in prov)
n = len(jobs)
over = [j for j in jobs if prov[j] > peak[j]]
ten = [j for j in jobs if prov[j] > 10 * peak[j]]
under = [j for j in jobs if prov[j] < peak[j]]
f_over, f_ten = len(over) / n, len(ten) / n
med_under = statistics.median(peak[j] for j in under) if under else 0
med_over = statistics.median(peak[j] for j in over) if over else 0
share_under = sum(peak[j] for j in under) / sum(peak[j] for j in jobs)
print("fig2a: %d jobs: over-provisioned %.1f%%, over 10x %.1f%%, under-provisioned %.1f%% "
      "(median peak %g vs %g over-provisioned; %.1f%% of the total peak)"
      % (n, 100 * f_over, 100 * f_ten, 100 * len(under) / n, med_under, med_over, 100 * share_under))
ok = abs(f_over - 0.75) <= 0.05 and abs(f_ten - 0.20) <= 0.05
ok = ok and med_under >= 2 * med_over and share_under > len(under) / n
sys.exit(0 if ok else 1)
