# sloinfer: hand-worked histories (expected values computed by hand in the
# comments; the data files are built so that the arithmetic is short), the
# provenance form against the run-table form, tracegen ground truth checked
# by tests/check/sloinfer_accuracy.py, bad input, determinism and sharding.
D="$ROOT/tests/data/sloinfer"
H='job,instance,submit,start,end,input_avail,output_read,status'
H0='job,instance,submit,start,end,status' # no provenance columns
O='job,period,a,d,runs,cv,slack_ratio,status,consumer_period,source,basis,cv_start,cv_read,problematic'
S="sloinfer -q --precision 4"

# ---- hand-worked --------------------------------------------------------------
# basic.csv: daily job etl, 6 runs submitted at 01:00 + (0,30,10,50,20,40) s,
# start = submit + 60, 1 h long; input_avail offsets 3000,3100,2900,3300,3200,3050;
# output_read offsets 36000,36600,35400,37200,36000,36300.
#   a  = p95{2900,3000,3050,3100,3200,3300}: h = 4.75 -> 3200 + .75*100 = 3275
#   d  = p50{35400,36000,36000,36300,36600,37200}: h = 2.5 -> 36000 + .5*300 = 36150
#   cv = median|x - 36150| = median{750,150,150,150,450,1050} = 300; 300/36150 = 0.0083
#   slack: end offsets 7260+s, (read-end)/3600 = 7.9833 8.1417 7.8139 8.3028 7.9778 8.0556;
#          median = (7.9833 + 8.0556)/2 = 28870/3600 = 8.0194
t "basic daily job" 0 '' "$O
etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,actionable,86400.0000,inferred,provenance,0.1452,0.0102,0" '' $S "$D/basic.csv"
# a = p50 of input_avail: h = 2.5 -> 3050 + .5*50 = 3075; d = p90 of reads: h = 4.5 -> 36600 + .5*600 = 36900
t "percentile options" 0 '' "$O
etl,86400.0000,3075.0000,36900.0000,6,0.0092,8.0194,actionable,86400.0000,inferred,provenance,0.1452,0.0102,0" '' $S --a-pct 50 --d-pct 90 "$D/basic.csv"
t "cv threshold" 0 '' "$O
etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,high_cv,86400.0000,inferred,provenance,0.1452,0.0102,0" '' $S --max-cv 0.008 "$D/basic.csv"
t "slack threshold" 0 '' "$O
etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,no_slack,86400.0000,inferred,provenance,0.1452,0.0102,0" '' $S --min-slack 8.1 "$D/basic.csv"
t "min runs" 0 '' "$O
etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,too_few_runs,86400.0000,inferred,provenance,0.1452,0.0102,0" '' $S --min-runs 7 "$D/basic.csv"
t "given period" 0 '' "$O
etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,actionable,86400.0000,inferred,provenance,0.1452,0.0102,0" '' $S --period 1d "$D/basic.csv"
t "iso 8601 times" 0 '' "$O
etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,actionable,86400.0000,inferred,provenance,0.1452,0.0102,0" '' $S "$D/iso.csv"
t "stdin and summary" 0 "@$D/basic.csv" '*' 'sloinfer: 1 jobs from 6 runs: 1 actionable' sloinfer
t "summary says natural period" 0 "@$D/basic.csv" '*' 'periods: 1 natural' sloinfer

# cv and the problematic CVs are taken from the job's scheduled submit (its
# phase: the median submit offset 3600 + median{0,10,20,30,40,50} = 3625):
#   cv = 300 / (36150 - 3625) = 0.0092
#   cv_start: start - input_avail = 660,590,770,410,480,650: median 620,
#     MAD median{210,140,30,30,40,150} = 90: 90/620 = 0.1452
#   cv_read: output_read - end = 28740,29310,28130,29890,28720,29000: median
#     28870, MAD median{130,130,150,440,740,1020} = 295: 295/28870 = 0.0102
# Elsewhere in this file cv = (the MAD in the comment) / (d_median - phase).

# ---- SLOs without provenance (basis) ------------------------------------------
# basic.csv without input_avail and output_read (a Google-2011-style export):
#   a = p95 of submit offsets 3600+{0,10,20,30,40,50}: 3600 + 40 + .75*10 = 3647.5
#   d = p95 of end offsets (7260 + same) + 0.25 * median run (3600 s):
#       7307.5 + 900 = 8207.5
#   cv of end offsets from the phase: 3635 + s, median 3660, MAD 15: 0.0041
#   slack = median (8207.5 - 7260 - s)/3600 = (947.5 - 25)/3600 = 0.2562
t "no provenance: basis schedule" 0 "$(cut -d, -f1-5,8 "$D/basic.csv")" "$O
etl,86400.0000,3647.5000,8207.5000,6,0.0041,0.2562,actionable,,inferred,schedule,,,0" '' $S
# input_avail kept: a = 3275 as in basic.csv, cv_start as above
t "no output_read: basis completion" 0 "$(cut -d, -f1-6,8 "$D/basic.csv")" "$O
etl,86400.0000,3275.0000,8207.5000,6,0.0041,0.2562,actionable,,inferred,completion,0.1452,,0" '' $S
t "no provenance: summary says so" 0 "$(cut -d, -f1-5,8 "$D/basic.csv")" '*' \
    "sloinfer: no output_read column in the input: d from the runs' ends (0 jobs basis completion, 1 schedule)" sloinfer
# d = p90 of ends 7260 + {0..50}: 7260 + 45 = 7305, + 0.5 * 3600 = 9105;
# slack = (9105 - 7285)/3600 = 0.5056
t "--done-pct and --done-slack" 0 "$(cut -d, -f1-5,8 "$D/basic.csv")" "$O
etl,86400.0000,3647.5000,9105.0000,6,0.0041,0.5056,actionable,,inferred,schedule,,,0" '' \
    $S --done-pct 90 --done-slack 0.5
# d above a + P is lowered to a + P, and slack_ratio is taken against the d
# written (it was taken against the d before the cap: 23.0063 here):
#   d = 7307.5 + 23 * 3600 = 90107.5 > a + P = 3647.5 + 86400 = 90047.5
#   slack = median (90047.5 - 7260 - s)/3600 = (82787.5 - 25)/3600 = 22.9896
# and the runs need more than a period: no_window, before no_slack (the
# capped d leaves them no slack by construction)
t "capped d: slack_ratio against the d written" 0 "$(cut -d, -f1-5,8 "$D/basic.csv")" "$O
etl,86400.0000,3647.5000,90047.5000,6,0.0041,22.9896,no_window,,inferred,schedule,,,0" '' $S --done-slack 23
t "capped d: no_window, not no_slack" 0 "$(cut -d, -f1-5,8 "$D/basic.csv")" "$O
etl,86400.0000,3647.5000,90047.5000,6,0.0041,22.9896,no_window,,inferred,schedule,,,0" '' \
    $S --done-slack 23 --min-slack 23
t "--basis provenance: no reads is no_consumer" 0 "$(cut -d, -f1-5,8 "$D/basic.csv")" "$O
etl,86400.0000,3647.5000,,6,,,no_consumer,,inferred,provenance,,,0" '' $S --basis provenance
t "--basis completion: the summary names the option" 0 "$(cat "$D/basic.csv")" '*' \
    "sloinfer: --basis completion: d from the runs' ends (1 jobs basis completion, 0 schedule)" sloinfer --basis completion
# The basis follows the columns, not the values (2026-11-30): an
# output_read column empty in every run is provenance (every job
# no_consumer, warned of), as in a part of an export holding only jobs that
# nobody reads; before, such a part decided completion while the whole
# export decided provenance, so workers split by job gave other rows than
# one process (examples/telemetry's runs.csv, its three no_consumer jobs
# apart: actionable with basis completion)
t "an empty output_read column: provenance, no_consumer, warned" 0 \
    "$(awk -F, 'BEGIN { OFS = "," } NR > 1 { $7 = "" } 1' "$D/basic.csv")" "$O
etl,86400.0000,3275.0000,,6,,,no_consumer,,inferred,provenance,0.1452,,0" \
    "sloinfer: <stdin>: warning: output_read is empty in every run: every job is no_consumer (nobody reads it); if the export has no provenance, drop the column or give --basis completion" \
    sloinfer --precision 4
tcheck "split by job (the jobs nobody reads apart): the same rows as one process" bash -c '
    python3 - "$1/examples/telemetry/runs.csv" "$2" <<PY
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
read = {r[0] for r in rows[1:] if r[6] != ""}
for name, keep in (("unread", lambda j: j not in read), ("read", lambda j: j in read)):
    part = [r for r in rows[1:] if keep(r[0])]
    assert part, name
    csv.writer(open(sys.argv[2] + "/part-" + name + ".csv", "w", newline=""), lineterminator="\n").writerows([rows[0]] + part)
PY
    sloinfer -q "$1/examples/telemetry/runs.csv" > "$2/whole.slo" &&
    sloinfer -q "$2/part-unread.csv" > "$2/unread.slo" && sloinfer -q "$2/part-read.csv" > "$2/read.slo" || exit 1
    grep -q ",no_consumer," "$2/unread.slo" && ! grep -q ",completion," "$2/unread.slo" || { cat "$2/unread.slo"; exit 1; }
    keyshard -q --merge --sorted -k job "$2/unread.slo" "$2/read.slo" | cmp - "$2/whole.slo"' _ "$ROOT" "$TMP"
# the label completion / schedule is the job's own: a from its input_avail
# when its runs have one, else from its submits
t "basis completion or schedule, job by job" 0 \
    "$(cut -d, -f1-6,8 "$D/basic.csv"; cut -d, -f1-6,8 "$D/basic.csv" | sed 1d | sed "s/^etl,etl-/nia,nia-/; s/,[0-9]*,ok$/,,ok/")" \
    '*' "sloinfer: no output_read column in the input: d from the runs' ends (1 jobs basis completion, 1 schedule)" sloinfer

# ---- problematic jobs (Morpheus §7) -----------------------------------------------
# problematic.csv: daily, submit 01:00, start +60, 1 h; input waits (start -
# input_avail) 100,200,1000,2000,3000,150; reads at 36000 + 60 i.
#   a = p95 of input offsets {3560,3460,2660,1660,660,3510}: 3510 + .75*50 = 3547.5
#   d = median{36000..36300} = 36150; cv = 90/(36150 - 3600) = 0.0028
#   cv_start: median 600, MAD median{500,450,400,400,1400,2400} = 475: 0.7917
#   cv_read: 28740 + 60 i: median 28890, MAD 90: 0.0031; slack 28890/3600 = 8.025
#   default threshold asinh(1/2)/ln 2 = 0.6942 (MAD/median of exponential
#   waits; MAD/median of non-negative waits is at most 1): 0.7917 is above
t "problematic: cv_start 0.79 above the default 0.694" 0 '' "$O
prob,86400.0000,3547.5000,36150.0000,6,0.0028,8.0250,actionable,86400.0000,inferred,provenance,0.7917,0.0031,1" '' \
    $S "$D/problematic.csv"
t "problematic: --problematic-cv 0.8" 0 '' "$O
prob,86400.0000,3547.5000,36150.0000,6,0.0028,8.0250,actionable,86400.0000,inferred,provenance,0.7917,0.0031,0" '' \
    $S --problematic-cv 0.8 "$D/problematic.csv"
t "problematic: the summary names the default" 0 "@$D/problematic.csv" '*' \
    "sloinfer: 1 jobs problematic (cv_start or cv_read above 0.694)" sloinfer
# independent: cv_start/cv_read recomputed in Python for 24 drawn jobs; regular
# waits are not flagged, unpredictable input or read waits are, by default
tcheck "problematic by default: Python checker" /usr/bin/python3 "$ROOT/tests/check/sloinfer_problematic.py" sloinfer "$TMP/probcheck"
# lcmpack reads the flag by default (no --problematic-cv anywhere) and pulls
# the one-step job into the middle third of its window [3547.5, 36150]
# (middle 19848.75); unflagged (--problematic-cv 0.8) it starts at the first
# whole step after a: 3600
printf 'job,step,offset,alloc\nprob,60,0,1\n' > "$TMP/prob.sky"
tcheck "problematic flag reaches lcmpack by default" bash -c '
    sloinfer -q "$1" | lcmpack -q --slo - --capacity cores=4,mem=100000 "$2" |
        awk -F, "NR == 2 { m = (3547.5 + 36150) / 2; h = (36150 - 3547.5) / 6; d = \$6 + 30 - m
                           exit !(\$17 == 1 && d < h && -d < h) }" &&
    sloinfer -q --problematic-cv 0.8 "$1" | lcmpack -q --slo - --capacity cores=4,mem=100000 "$2" |
        awk -F, "NR == 2 { exit !(\$17 == 0 && \$6 == 3600) }"' _ "$D/problematic.csv" "$TMP/prob.sky"

# missing_extra.csv: hourly job hr, periods 0..11 with 3 and 7 missing; period 5
# has an extra ok run 1700 s off schedule (input 1900, read 3500: it would move
# a and d); period 9's scheduled run failed (input 3000) and was retried at +900.
# Usable: 10 runs, input offsets all 200 -> a = 200; read offsets
# 2400+60*(k%4) -> {2400x3, 2460x3, 2520x3, 2580}: d = p50 = 2460,
# MAD = median{0x3,60x7} = 60, cv = 60/2460 = 0.0244;
# slack (read-end)/600 with end 930+5*(k%3) (retry: 1530): median of
# {1.55, 2.4333, 2.4417, 2.45, 2.5333, 2.5417, ...} = (2.5333+2.5417)/2 = 2.5375
t "missing, extra and failed runs" 0 '' "$O
hr,3600.0000,200.0000,2460.0000,10,0.0278,2.5375,actionable,3600.0000,inferred,provenance,0.0182,0.0394,0" '' $S "$D/missing_extra.csv"
t "extra and failed runs counted in the summary" 0 '' '*' '1 failed and 1 extra or off-schedule runs not used' \
    sloinfer "$D/missing_extra.csv"

# gaps.csv: a daily job that ran on days 0,1,3,4,6,9,10,12,13,15 only: gaps of
# 1,2,1,2,3,1,2,1,2 days, so the MEDIAN gap is 2 days; the daily grid explains
# every submit (precision 1, recall 10/16 = 0.625) while a 2-day grid explains
# half (0.5 x 5/8 = 0.31): period 1 d, 10 runs.  a = 3000, d = 36000, cv = 0,
# slack median (28740 - 20)/3600 = 7.9778 (jitter 20*(i%3) s)
t "median gap of two periods" 0 '' "$O
skip,86400.0000,3000.0000,36000.0000,10,0.0000,7.9778,actionable,86400.0000,inferred,provenance,0.0294,0.0007,0" '' $S "$D/gaps.csv"

# offkilter.csv: epoch-aligned periods of 5400 s (90 min: not natural, a whole
# minute), 5430 s (a whole second) and 87300 s (24h15m: within 5% of a day, but
# a day would drift 900 s a period = 8100 s over the history, far more than the
# jitter); jitter 0,20,20,0,... keeps the least-squares slope exact.  Offsets
# for k90 and k5430: input 500; reads 4000+30*(k%3) -> d = 4030,
# cv = 30/4030 = 0.0074; slack median (1.8333+1.85)/2 = 1.8417.
# d2415: input 3000, reads 30000+60*(k%3): d = 30060, cv = 60/30060 = 0.0020,
# slack = median of (30000+60*(k%3) - 5410 - 20*(k%2))/1800 = 13.6833.
# dj: daily, jitter 0,10,0,10,20 s: least-squares slope 86400 + 40/10 = 86404,
# snapped to 1 d by default (drift 16 s); slack median (30000-9010-10)/1800 = 11.6556.
t "off-kilter periods and snapping" 0 '' "$O
d2415,87300.0000,3000.0000,30060.0000,10,0.0023,13.6833,actionable,87300.0000,inferred,provenance,0.0161,0.0020,0
dj,86400.0000,5000.0000,30000.0000,5,0.0000,11.6556,actionable,86400.0000,inferred,provenance,0.0045,0.0005,0
k5430,5430.0000,500.0000,4030.0000,8,0.0088,1.8417,actionable,5430.0000,inferred,provenance,0.0833,0.0090,0
k90,5400.0000,500.0000,4030.0000,8,0.0088,1.8417,actionable,5400.0000,inferred,provenance,0.0833,0.0090,0" '' $S "$D/offkilter.csv"
# eight hourly runs (audit, session 20): b's submits fit 3598.73 s with a
# robust jitter of 1.15 s (the real one ~2.9 s), so the drift to 3600 over
# 7 periods, 8.9 s, failed the 3-jitter test and b was read as 3599 s.  The
# fit's 99% interval, 3598.73 +- t(6) 3.707 x se 0.457 (numpy: polyfit,
# residuals / 6 dof) = [3597.03, 3600.42], holds 3600: hourly.  s (exactly
# 3597 s, +-1 s) has [3596.46, 3597.35]: it stays 3597.
t "eight hourly runs: a natural period inside the fit's 99% interval wins" 0 '' $'b,3600,actionable\ns,3597,actionable' '' \
    bash -c '{ printf "job,instance,submit,start,end,status\n"; i=0
        for t in 1440000183 1440003785 1440007376 1440010984 1440014578 1440018176 1440021776 1440025375; do
            echo "b,$i,$t,$((t+10)),$((t+100)),ok"; i=$((i+1)); done
        j=(0 1 0 -1 0 1 0 -1); for k in 0 1 2 3 4 5 6 7; do t=$((1440000000 + 3597*k + ${j[$k]}))
            echo "s,$k,$t,$((t+10)),$((t+100)),ok"; done; } | sloinfer -q | awk -F, "NR > 1 { print \$1 \",\" \$2 \",\" \$8 }"'
tcheck "snap-tol 0 keeps the fitted 86404 s" bash -c \
    'sloinfer -q --snap-tol 0 "$1" | awk -F, "\$1==\"dj\" { n++; ok = \$2 == 86404 } END { exit !(n == 1 && ok) }"' _ "$D/offkilter.csv"
t "natural list without 1d: whole minutes" 0 '' '*' 'periods: 0 natural, 3 whole minutes, 1 whole seconds' \
    sloinfer --natural 1h,1w "$D/offkilter.csv"
t "summary counts snapping" 0 '' '*' 'periods: 1 natural, 2 whole minutes, 1 whole seconds' sloinfer "$D/offkilter.csv"

# statuses.csv: daily jobs like etl.  hcv: reads at 20000..70000 -> d = 45000,
# MAD 15000, cv = 0.3333; nsl: read 60 s after the end -> slack 60/3600 = 0.0167,
# reads 7320+s -> d = 7345, cv = 15/7345 = 0.0020; noc: never read; few: 3 runs
# (a = p95{2900,3000,3100} = 3090); one: a single run, no period; tfr: 2 reads of 6.
t "every status, no job disappears" 0 '' "$O
few,86400.0000,3090.0000,36000.0000,3,0.0000,7.9806,too_few_runs,86400.0000,inferred,provenance,0.1061,0.0003,0
hcv,86400.0000,3275.0000,45000.0000,6,0.3625,10.4736,high_cv,86400.0000,inferred,provenance,0.1452,0.3984,0
noc,86400.0000,3275.0000,,6,,,no_consumer,,inferred,provenance,0.1452,,0
nsl,86400.0000,3275.0000,7345.0000,6,0.0040,0.0167,no_slack,86400.0000,inferred,provenance,0.1452,0.0000,0
one,,,,1,,,too_few_runs,,inferred,provenance,,,0
tfr,86400.0000,3275.0000,36000.0000,6,0.0000,7.9792,too_few_reads,86400.0000,inferred,provenance,0.1452,0.0005,0" '' $S "$D/statuses.csv"
t "irregular submits are not periodic" 0 '' '*' '' $S "$D/notperiodic.csv"
tcheck "not_periodic status" bash -c 'sloinfer -q "$1" | grep -q ",not_periodic,"' _ "$D/notperiodic.csv"

# footnote5.csv: hourly runs (submit :04, start :05, end :20, input :02) over two
# days, read by a DAILY consumer at 06:00 that reads every output that ended since
# its last read.  Raw read offsets spread over a day; folded into the job's own
# period (first recurrence after the end) every read is at :00 of the next hour:
# d = 3600, cv = 0, slack = (3600-1200)/900 = 2.6667.  'hourly' infers the
# consumer period from the shared reads (3 consumer runs a day apart: 1 d),
# 'hourly_col' reads it from the consumer_period column (1d); 'hourly_same' has
# consumer_period 3600 in the column: no folding, reads spread: high_cv, and
# d capped at a + period = 3720.
t "footnote 5: smaller period wins" 0 '' "$O
hourly,3600.0000,120.0000,3600.0000,48,0.0000,2.6667,actionable,86400.0000,inferred,provenance,0.0000,0.0000,0
hourly_col,3600.0000,120.0000,3600.0000,48,0.0000,2.6667,actionable,86400.0000,inferred,provenance,0.0000,0.0000,0
hourly_same,3600.0000,120.0000,3720.0000,48,0.4826,48.6667,high_cv,3600.0000,inferred,provenance,0.0000,0.4932,0" '' $S "$D/footnote5.csv"
# footnote5_once.csv: etl's runs (end offsets 7260+s), all read by ONE weekly
# rollup on day 6 at 06:00: one consumer run, longer than the history (empty
# consumer_period); folded, every read is at 06:00 = 21600 of the run's own day:
# d = 21600, cv = 0, slack = median (14340 - s)/3600 = (3.9778 + 3.975)/2 = 3.9764
t "footnote 5: one rollup read of every run" 0 '' "$O
rollup,86400.0000,3275.0000,21600.0000,6,0.0000,3.9764,actionable,,inferred,provenance,0.1452,0.0010,0" '' $S "$D/footnote5_once.csv"
t "footnote 5 in the summary" 0 '' '*' '2 jobs read by consumers with a longer period' sloinfer "$D/footnote5.csv"
# The same runs, rollup-3's inputs recorded 1,000,000 s later (after its own
# run and its read; found by AFL, fuzz round 10).  T_inAvail (minus the
# phase p): 3000 3050 3100 3200 3300 1002900; p95: h = 4.75 -> 3300 + .75 *
# 999600 = 753000 - p; on the grid a = 753000 mod 86400 = 61800.  The folded
# reads stay at 21600 - p, so d - a = 21600 - 753000 = -731400 is kept and
# d = 61800 - 731400 = -669600: the window is the wrong way round, status
# no_window (d below a, negative here, is what the history says).
# cv_start = MAD/median of start - input_avail {660 590 -999230 410 480 650}:
# median 535, MAD 120: 0.2243.  lcmpack skips the row (not a request).
sed 's/,1767746900,/,1768746900,/' "$D/footnote5_once.csv" > "$TMP/late_inputs.csv"
t "inputs after the reads: no_window, d below a" 0 '' "$O
rollup,86400.0000,61800.0000,-669600.0000,6,0.0000,3.9764,no_window,,inferred,provenance,0.2243,0.0010,0" '' $S "$TMP/late_inputs.csv"
tcheck "inputs after the reads: lcmpack skips the no_window row" bash -c '
    sloinfer -q "$1" > "$2/late.slo.csv" || exit 1
    printf "job,step,offset,alloc\nrollup,60,0,4\n" > "$2/late.sky.csv"
    lcmpack --slo "$2/late.slo.csv" --capacity cores=8,mem=100000 "$2/late.sky.csv" 2>&1 >/dev/null | grep -q "0 requests: 0 placed, 0 rejected, 0 kept; 1 skipped"' _ "$TMP/late_inputs.csv" "$TMP"

# ---- overrides -------------------------------------------------------------------
cat "$D/basic.csv" > "$TMP/bs.csv"; tail -n +2 "$D/statuses.csv" >> "$TMP/bs.csv"
t "overrides replace and mark" 0 '' "$O
etl,86400.0000,3275.0000,40000.0000,6,0.0092,8.0194,actionable,86400.0000,overridden:d,provenance,0.1452,0.0102,0
few,86400.0000,3090.0000,36000.0000,3,0.0000,7.9806,too_few_runs,86400.0000,overridden:period,provenance,0.1061,0.0003,0
hcv,86400.0000,3275.0000,45000.0000,6,0.3625,10.4736,high_cv,86400.0000,inferred,provenance,0.1452,0.3984,0
noc,86400.0000,3275.0000,,6,,,no_consumer,,inferred,provenance,0.1452,,0
nsl,86400.0000,3275.0000,20000.0000,6,0.0040,0.0167,actionable,86400.0000,overridden:d,provenance,0.1452,0.0000,0
one,,,,1,,,too_few_runs,,inferred,provenance,,,0
tfr,86400.0000,3275.0000,36000.0000,6,0.0000,7.9792,too_few_reads,86400.0000,inferred,provenance,0.1452,0.0005,0" \
    "overrides.csv:5: warning: override for job 'ghost' matches no job in the input" \
    sloinfer --precision 4 --override "$D/overrides.csv" "$TMP/bs.csv"
t "override a after d: no_window" 0 '' "$O
etl,86400.0000,40000.0000,36150.0000,6,0.0092,8.0194,no_window,86400.0000,overridden:a,provenance,0.1452,0.0102,0" '' \
    $S --override "$D/override_a.csv" "$D/basic.csv"
# an overridden period re-derives a and d: missing_extra.csv seen with 2 h
# periods: the phase is the densest cluster of submits (even hours, at 305 s),
# runs at odd hours are second runs or off schedule; the 6 even-hour runs:
# input 200; reads 2400,2520,... -> d = 2460, cv = 60/2460; slack median
# (2.45 + 2.6333)/2 = 2.5417
printf 'job,period\nhr,2h\n' > "$TMP/op.csv"
t "override period re-derives a and d" 0 '' "$O
hr,7200.0000,200.0000,2460.0000,6,0.0278,2.5417,actionable,7200.0000,overridden:period,provenance,0.0370,0.0393,0" '' \
    $S --override "$TMP/op.csv" "$D/missing_extra.csv"
t "override duplicate job" 65 '' '*' "dup.csv:3: duplicate job 'etl' (first at line 2)" \
    bash -c 'printf "job,d\netl,1\netl,2\n" > "$1/dup.csv"; sloinfer --override "$1/dup.csv" "$2"' _ "$TMP" "$D/basic.csv"
# under --on-error skip the duplicate (the later row) and a bad row are
# rejected and the first row of etl applies: the same rows as that row alone
tcheck "override: skip keeps the first row of a job" bash -c 'printf "job,d\netl,4000\netl,5000\nbi,x\n" > "$1/dup2.csv"
    printf "job,d\netl,4000\n" > "$1/one.csv"
    cmp <(sloinfer -q --on-error skip --rejects "$1/orej.csv" --override "$1/dup2.csv" "$2") <(sloinfer -q --override "$1/one.csv" "$2") &&
    [ "$(cut -d, -f2 "$1/orej.csv" | tail -n +2 | tr "\n" " ")" = "3 4 " ]' _ "$TMP" "$D/basic.csv"
t "override d before a" 65 '' '*' "d must be after a (a '500', d '400')" \
    bash -c 'printf "job,a,d\netl,500,400\n" > "$1/da.csv"; sloinfer --override "$1/da.csv" "$2"' _ "$TMP" "$D/basic.csv"
t "override window longer than the period" 65 '' '*' "the window from a to d is longer than the period" \
    bash -c 'printf "job,period,a,d\netl,1h,100,4000\n" > "$1/wl.csv"; sloinfer --override "$1/wl.csv" "$2"' _ "$TMP" "$D/basic.csv"
# an overridden d more than a period after the inferred a: not a usable window
t "override d beyond a + period: no_window" 0 '' "$O
etl,86400.0000,3275.0000,90000.0000,6,0.0092,8.0194,no_window,86400.0000,overridden:d,provenance,0.1452,0.0102,0" '' \
    bash -c 'printf "job,d\netl,90000\n" > "$1/dl.csv"; sloinfer -q --precision 4 --override "$1/dl.csv" "$2"' _ "$TMP" "$D/basic.csv"
# ... and without -q the job is named with the reason, not only counted in
# "1 jobs overridden" (d - a = 90000 - 3275 = 86725 > 86400), at the
# override's file and line (the warning had no place)
t "override no_window: warned with the job and why" 0 '' '*' \
    "sloinfer: $TMP/dl.csv:2: warning: job 'etl': the override gives d - a = 86725 s > period 86400 s: no_window" \
    sloinfer --override "$TMP/dl.csv" "$D/basic.csv"
t "override a after d: warned" 0 '' '*' \
    "sloinfer: $D/override_a.csv:2: warning: job 'etl': the override gives d = 36150 s, not after a = 40000 s: no_window" \
    sloinfer --override "$D/override_a.csv" "$D/basic.csv"
# d - a = 86400.4 s rounds to the period: written in full so the message
# does not say "86400 s > period 86400 s"
t "override no_window: a fraction past the period is shown" 0 '' '*' \
    "the override gives d - a = 86400.4 s > period 86400 s: no_window" \
    bash -c 'printf "job,a,d\netl,100,86500.4\n" > "$1/df.csv"; sloinfer --override "$1/df.csv" "$2"' _ "$TMP" "$D/basic.csv"
# An hourly job with 30% of its hours missed and 30% extra runs at random
# later times (hourly_noisy.csv: 70 distinct submits over 74 h, 47 of them
# within 10 s of :12 past the hour).  By the documented score (precision x
# recall, a submit within 0.1 P of the grid) the grid of 3600 s at :12
# scores 49/70 x 49/72 = 0.476 (two extra runs land within 360 s), the best
# 7200 s grid 0.289 (worked in Python).  It was called 7200 s, not_periodic
# (review, 2026-12-04): the least-squares fit from the 3600 s candidate took
# in the extra runs of its first eight hours, tilted to 3686 s and ended at
# 3665 s, away from the regular runs; each window of the fit is now trimmed
# to the submits near the grid before the window grows.
t "period: an hourly job with many missed and extra runs" 0 "@$D/hourly_noisy.csv" 'j,3600,actionable' '' \
    sh -c 'sloinfer -q | cut -d, -f1,2,8 | sed 1d'
# slack_ratio is taken against d as written, the overridden one too
# (review, 2026-12-04: it stayed against the inferred d).  Worked by hand:
# ten daily runs submitted and started at 00:00, each 1 h long (schedule
# basis): d = 3600 + 0.25 x 3600 = 4500, slack (4500 - 3600) / 3600 = 0.25;
# signed off at d = 2 h: (7200 - 3600) / 3600 = 1; at 30 min: (1800 - 3600)
# / 3600 = -0.5, actionable (signed off) and warned: the runs end after it
{ echo job,instance,submit,start,end,status
  for k in 0 1 2 3 4 5 6 7 8 9; do s=$((1767571200 + k * 86400)); echo "h,$k,$s,$s,$((s + 3600)),ok"; done; } > "$TMP/hour.csv"
t "override d: slack_ratio against it" 0 '' $'h,4500,0.25,actionable\nh,7200,1,actionable\nh,1800,-0.5,actionable' \
    "sloinfer: $TMP/ovs30m.csv:2: warning: job 'h': most of its runs end after the override's d (slack_ratio -0.5)" sh -c '
    sloinfer -q "$1/hour.csv" | cut -d, -f1,4,7,8 | sed 1d
    for d in 2h 30m; do printf "job,d\nh,%s\n" $d > "$1/ovs$d.csv"; done
    sloinfer -q --override "$1/ovs2h.csv" "$1/hour.csv" | cut -d, -f1,4,7,8 | sed 1d
    sloinfer --override "$1/ovs30m.csv" "$1/hour.csv" 2>&1 >/dev/null | grep warning >&2
    sloinfer -q --override "$1/ovs30m.csv" "$1/hour.csv" | cut -d, -f1,4,7,8 | sed 1d' _ "$TMP"
# an overridden d with no period or a to place it by is said (it was a
# silent too_few_runs while the summary counted the job overridden)
t "override d of a job with no period: warned" 0 '' '*' \
    "sloinfer: $TMP/ovsolo.csv:2: warning: job 'solo': the override's d leaves it too_few_runs: no period and a to place it by (give the period and a in the override too)" \
    bash -c 'printf "job,d\nsolo,30m\n" > "$1/ovsolo.csv"; printf "job,instance,submit,start,end,status\nsolo,1,1000,1010,1100,ok\n" |
        sloinfer --override "$1/ovsolo.csv"' _ "$TMP"
# an override file with a header and no rows overrides nothing (AFL,
# sloinfer-override: qsort was given the NULL row array, a UBSan report)
tcheck "override with a header only: the same SLOs, stderr clean" bash -c 'printf "job,d\n" > "$1/ho.csv" &&
    sloinfer -q --override "$1/ho.csv" "$2" > "$1/ho.out" 2> "$1/ho.err" && sloinfer -q "$2" | cmp - "$1/ho.out" && [ ! -s "$1/ho.err" ]' _ "$TMP" "$D/basic.csv"
t "override no_window: -q keeps stderr empty" 0 '' '*' '' sloinfer -q --override "$TMP/dl.csv" "$D/basic.csv"
# a valid sign-off is not warned about (d = 40000: window 36725 s)
tcheck "override with a valid window: no warning" bash -c 'printf "job,d\netl,40000\n" > "$1/dv.csv" &&
    sloinfer --override "$1/dv.csv" "$2" 2>"$1/dv.err" >/dev/null && grep -q "1 jobs overridden" "$1/dv.err" &&
    ! grep -q warning "$1/dv.err"' _ "$TMP" "$D/basic.csv"
# an override d of 1e308 was written out as the job's d ("1e+308", status
# no_window), a consumer_period of 1e308 likewise: durations stop at 1e15
t "override d out of range" 65 '' '' "huge.csv:2: column 'd': duration '1e308' out of range (|value| <= 1e+15)" \
    bash -c 'printf "job,a,d\netl,100,1e308\n" > "$1/huge.csv"; sloinfer -q --override "$1/huge.csv" "$2"' _ "$TMP" "$D/basic.csv"
t "consumer_period out of range" 65 '' '' "cp.csv:2: column 'consumer_period': duration '1e308' out of range (|value| <= 1e+15)" \
    bash -c 'printf "job,instance,submit,start,end,consumer_period\ne,1,0,0,10,1e308\n" > "$1/cp.csv"; sloinfer -q "$1/cp.csv"' _ "$TMP"
t "override of every field" 0 '' "job,period,a,d,runs,status,consumer_period,source,basis,cv_start,cv_read,problematic
etl,3600.0000,100.0000,200.0000,6,actionable,3600.0000,overridden:period+a+d,provenance,0.1452,0.0102,0" '' \
    bash -c 'printf "job,period,a,d\netl,1h,100,200\n" > "$1/all.csv"; sloinfer -q --precision 4 --override "$1/all.csv" "$2" | cut -d, -f1-5,8-' _ "$TMP" "$D/basic.csv"
t "override without values" 65 '' '*' "override file has none of the columns 'period', 'a', 'd'" \
    bash -c 'printf "job,x\netl,1\n" > "$1/nx.csv"; sloinfer --override "$1/nx.csv" "$2"' _ "$TMP" "$D/basic.csv"
t "override bad duration" 65 '' '*' "column 'd'" \
    bash -c 'printf "job,d\netl,soon\n" > "$1/bd.csv"; sloinfer --override "$1/bd.csv" "$2"' _ "$TMP" "$D/basic.csv"
t "override file missing" 66 '' '' "sloinfer: /nonexistent.csv: cannot open" sloinfer --override /nonexistent.csv "$D/basic.csv"

# ---- provenance form ------------------------------------------------------------
# prov_events.csv encodes basic.csv's input_avail/output_read as raw events with
# distractors: an ingress write long before, two input files, a producer append
# AFTER run 3 started that run 3 reads later (must not count), the job's own
# state file and its own validation read of its output (not a consumer), and a
# consumer re-read (not the first read).  Same result as basic.csv.
t "provenance events give the same SLO" 0 '' "$O
etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,actionable,86400.0000,inferred,provenance,0.1452,0.0102,0" '' \
    $S --events "$D/prov_events.csv" "$D/prov_runs.csv"
# a read by a run not in the run table (its start unknown) is taken to read
# the newest version, and counted (review, 2026-12-04): P writes f daily at
# 01:00 + n s on day n (submitted at 00:00 + n s), C starts 60 s before
# P's write and reads 60 s after it, so C reads yesterday's version and P's
# output is first read the next day: d past the period (86400 s); with C's
# runs not in the table each read is taken to be of today's version, read
# 3660 s after P's submit: d under 2 h (the summary counts C's 10 reads)
{ echo time,job,instance,file,op
  for n in 0 1 2 3 4 5 6 7 8 9; do b=$((1700006400 + n * 86400 + n))
      echo "$((b + 3600)),P,$n,f,write"; echo "$((b + 3660)),C,$n,f,read"; done; } > "$TMP/ev2.csv"
{ echo job,instance,submit,start,end,status
  for n in 0 1 2 3 4 5 6 7 8 9; do b=$((1700006400 + n * 86400 + n))
      echo "P,$n,$b,$b,$((b + 3600)),ok"; echo "C,$n,$((b + 3500)),$((b + 3540)),$((b + 5400)),ok"; done; } > "$TMP/ev2runs.csv"
grep -v "^C," "$TMP/ev2runs.csv" > "$TMP/ev2P.csv"
t "events: the reader's start picks the version" 0 '' 'P next day C 0' '' sh -c '
    sloinfer -q --events "$1/ev2.csv" "$1/ev2runs.csv" | awk -F, "\$1 == \"P\" { printf \"P %s \", (\$4 > 86400 ? \"next day\" : \$4) }"
    sloinfer --events "$1/ev2.csv" "$1/ev2runs.csv" 2>&1 >/dev/null | grep -c "not in the run table" | sed "s/^/C /"' _ "$TMP"
t "events: a reader not in the table reads the newest, counted" 0 '' 'P same day' \
    'sloinfer: 20 events on 1 files joined to 10 runs: 0 got an input_avail, 10 an output_read; 10 reads by runs not in the run table (the first: job instance C 0) read the newest version, their start unknown' \
    sh -c 'sloinfer --events "$1/ev2.csv" "$1/ev2P.csv" | awk -F, "\$1 == \"P\" { print \"P\", (\$4 < 7200 ? \"same day\" : \$4) }"' _ "$TMP"
# events with no read of any run's output: the warning names the events
# file and --events (it named the run table's output_read column, which
# it does not have)
t "events with no read: the events file is named" 0 '' '*' \
    "sloinfer: $TMP/ev2w.csv: warning: no run's output is read by another job's run: every job is no_consumer (nobody reads it); without provenance, drop --events or give --basis completion" \
    sh -c 'grep -v ",read$" "$1/ev2.csv" > "$1/ev2w.csv"; sloinfer --events "$1/ev2w.csv" "$1/ev2P.csv"' _ "$TMP"
t "events summary" 0 '' '*' 'sloinfer: 74 events on 20 files joined to 6 runs: 6 got an input_avail, 6 an output_read' \
    sloinfer --events "$D/prov_events.csv" "$D/prov_runs.csv"
t "events of a file out of order" 65 '' '*' "ev.csv:3: events of file 'f' not in time order ('5' after a later event)" bash -c \
    'printf "time,job,instance,file,op\n10,a,a1,f,write\n5,b,b1,f,read\n" > "$1/ev.csv"; sloinfer --events "$1/ev.csv" "$2"' _ "$TMP" "$D/prov_runs.csv"
# only each file's events need to be in order: the same events, files interleaved differently
tcheck "events of different files may interleave" bash -c '
    { head -1 "$1"; tail -n +2 "$1" | sort -t, -k4,4 -s; } > "$2/byfile.csv"
    sloinfer -q --events "$2/byfile.csv" "$3" | cmp - <(sloinfer -q "$4")' _ "$D/prov_events.csv" "$TMP" "$D/prov_runs.csv" "$D/basic.csv"
t "events bad op" 65 '' '*' "column 'op': want 'read' or 'write', got 'append'" bash -c \
    'printf "time,job,instance,file,op\n10,a,a1,f,append\n" > "$1/ev2.csv"; sloinfer --events "$1/ev2.csv" "$2"' _ "$TMP" "$D/prov_runs.csv"
t "events need instance in the run table" 65 "$(printf 'job,submit,start,end\na,1,2,3\n')" '*' "missing required column 'instance'" \
    sloinfer --events "$D/prov_events.csv"
t "events file missing" 66 '' '*' "/nonexistent.csv: cannot open" sloinfer --events /nonexistent.csv "$D/prov_runs.csv"

# ---- bad input ------------------------------------------------------------------
# any row order: job a's runs in reverse order, job b's in between.  a has
# period 3600 (3 runs, too few) and no provenance columns: a = submit offset 100,
# d = end offset 120 + 0.25 * 10 s run = 122.5, slack 2.5/10 = 0.25
t "rows in any order" 0 "$H0
a,a3,7300,7310,7320,ok
b,b1,100,110,120,ok
a,a2,3700,3710,3720,ok
a,a1,100,110,120,ok
" "$O
a,3600,100,122.5,3,0,0.25,too_few_runs,,inferred,schedule,,,0
b,,,,1,,,too_few_runs,,inferred,schedule,,,0" '' sloinfer -q
# an error in the last row: stdout gets nothing (it is held until the whole
# input was read; the header alone would look like a run without jobs)
t "no row before a later error" 65 "$(cat "$D/basic.csv"; printf '\nb,b1,100,110,105,,,ok\n')" '' \
    "<stdin>:9: end before start" sloinfer
t "duplicate instance across the input" 65 "$H
a,a1,100,110,120,,,ok
b,b1,100,110,120,,,ok
a,a1,200,210,220,,,ok
" '' "sloinfer: <stdin>:4: duplicate instance 'a1' of job 'a'" sloinfer
t "more runs than --max-runs" 65 "@$D/basic.csv" '' \
    "sloinfer: <stdin>:5: more than 3 runs (--max-runs): sloinfer holds its input" sloinfer --max-runs 3
t "bad --basis" 64 '' '' "invalid value for --basis: 'reads'" sloinfer --basis reads
# an option that would be ignored is refused
for o in "--natural 1h" "--min-score 0.5"; do
    t "$o with --period: 64" 64 '' '' "sloinfer: ${o%% *} applies to an estimated period: not with --period" sloinfer --period 1d $o
done
for o in "--done-pct 90" "--done-slack 0.5"; do
    t "$o with --basis provenance: 64" 64 '' '' "sloinfer: ${o%% *} goes with --basis completion or auto" sloinfer --basis provenance $o
done
t "--done-pct with the default basis (auto): accepted" 0 "@$D/basic.csv" '*' '' sloinfer -q --done-pct 90
t "end before start" 65 "$H
a,a1,100,110,105,,,ok
" '*' "sloinfer: <stdin>:2: end before start (start '110', end '105')" sloinfer
t "start before submit" 65 "$H
a,a1,100,90,105,,,ok
" '*' "sloinfer: <stdin>:2: start before submit (submit '100', start '90')" sloinfer
t "nan time" 65 "$H
a,a1,nan,110,120,,,ok
" '*' "sloinfer: <stdin>:2: column 'submit': invalid time 'nan'" sloinfer
t "negative time" 65 "$H
a,a1,-5,110,120,,,ok
" '*' "column 'submit': must not be negative" sloinfer
t "huge time" 65 "$H
a,a1,100,110,1e300,,,ok
" '*' "column 'end': time '1e300' out of range" sloinfer
t "missing job" 65 "$H
,a1,100,110,120,,,ok
" '*' "sloinfer: <stdin>:2: column 'job': missing value" sloinfer
t "duplicate instance" 65 "$H
a,a1,100,110,120,,,ok
a,a1,200,210,220,,,ok
" '*' "sloinfer: <stdin>:3: duplicate instance 'a1' of job 'a'" sloinfer
t "bad consumer_period" 65 "$H,consumer_period
a,a1,100,110,120,,,ok,weekly
" '*' "column 'consumer_period'" sloinfer
t "missing column" 65 "$(printf 'job,submit,start\na,1,2\n')" '*' "sloinfer: <stdin>:1: missing required column 'end'" sloinfer
t "one run" 0 "$H
a,a1,100,110,120,90,500,ok
" "$O
a,,,,1,,,too_few_runs,,inferred,provenance,,,0" '' sloinfer -q
t "empty input" 65 '' '' "sloinfer: <stdin>:1: empty input" sloinfer
t "header only" 0 "$H
" "$O" '' sloinfer -q
t "all runs failed" 0 "$H0
a,a1,100,110,120,FAILED
a,a2,3700,3710,3720,killed
a,a3,7300,7310,7320,failed
" "$O
a,3600,,,0,,,too_few_runs,,inferred,schedule,,,0" '' sloinfer -q
t "unknown status is a failure" 0 "$H0
a,a1,100,110,120,GOOD
" "$O
a,,,,0,,,too_few_runs,,inferred,schedule,,,0" '' sloinfer -q
t "--ok-status, case-insensitive" 0 "$H0
a,a1,100,110,120,GOOD
" "$O
a,,,,1,,,too_few_runs,,inferred,schedule,,,0" '' sloinfer -q --ok-status ok,good
t "renamed job column" 0 "$(sed '1s/^job,/name,/' "$D/basic.csv")" "$O
etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,actionable,86400.0000,inferred,provenance,0.1452,0.0102,0" '' $S --job-col name
t "tsv" 0 "$(tr , '\t' < "$D/basic.csv")" "$(printf '%s\n%s' "$O" "etl,86400.0000,3275.0000,36150.0000,6,0.0092,8.0194,actionable,86400.0000,inferred,provenance,0.1452,0.0102,0" | tr , '\t')" '' \
    $S --tsv
t "bad percentile" 64 '' '' "invalid value for --a-pct: '101'" sloinfer --a-pct 101
t "bad period" 64 '' '' "invalid value for --period: '0'" sloinfer --period 0
t "huge period" 64 '' '' "invalid value for --period: '1e308' (out of range: at most 1e+15 s)" sloinfer --period 1e308
t "bad natural list" 64 '' '' "invalid value for --natural: 'x'" sloinfer --natural 1h,x
t "bad snap tolerance" 64 '' '' "invalid value for --snap-tol: '2'" sloinfer --snap-tol 2
# an --anchor of 1e308 was taken: the epoch grid became fmod noise (a, d
# shifted by the sign of the anchor), a silent wrong plan downstream
t "anchor out of range" 64 '' '' "sloinfer: invalid value for --anchor: '1e308' (epoch seconds beyond 1e+11, the year 5138)" sloinfer --anchor 1e308
t "bad min runs" 64 '' '' "invalid value for --min-runs: '0'" sloinfer --min-runs 0
t "stdin twice" 64 '' '' "only one input can be standard input" sloinfer --events -
# ---- ties: two runs of a period equally near the schedule ----------------------
# tie.csv: a daily job submitted at 02:00, started 02:01, ended 03:00 on 5
# days; on the 6th two runs 6a (ends 03:00) and 6b (ends 05:00) submitted at
# the same time.  The earlier end wins whatever the row order:
#   d = p95 of end offsets {10800 x 6} + 0.25 * median run (3540 s) = 11685
#   slack = (11685 - 10800) / 3540 = 0.25
# (6b chosen, as the old code did when it came first: 16200 + 885 = 17085)
TIE="$O
j,86400.0000,7200.0000,11685.0000,6,0.0000,0.2500,actionable,,inferred,schedule,,,0"
t "tie: the earlier end wins" 0 '' "$TIE" '' $S "$D/tie.csv"
{ head -1 "$D/tie.csv"; tail -n +2 "$D/tie.csv" | tac; } > "$TMP/tie_rev.csv"
t "tie: the earlier end wins, rows reversed" 0 '' "$TIE" '' $S "$TMP/tie_rev.csv"
# tie_read.csv: the same with reads at 04:00 on the 5 days and 06:00 for 6b
# (6a unread).  The run whose output was read wins, in either order: 6 reads,
# so --min-runs 6 is actionable (the old code took 6a when it came first:
# too_few_reads); d = p50{14400 x 5, 21600} = 14400, slack = median
# {3600/3540 x 5, 3600/10740} = 1.0169
TIER="$O
j,86400.0000,7200.0000,14400.0000,6,0.0000,1.0169,actionable,86400.0000,inferred,provenance,,0.0000,0"
t "tie: the run that was read wins" 0 '' "$TIER" '' $S --min-runs 6 "$D/tie_read.csv"
{ head -1 "$D/tie_read.csv"; tail -n +2 "$D/tie_read.csv" | tac; } > "$TMP/tie_read_rev.csv"
t "tie: the run that was read wins, rows reversed" 0 '' "$TIER" '' $S --min-runs 6 "$TMP/tie_read_rev.csv"

t "two inputs" 64 '' '' "one input file only" sloinfer a.csv b.csv
t "input file missing" 66 '' '' "sloinfer: /nonexistent.csv: cannot open" sloinfer /nonexistent.csv
tcheck "help ends with examples" bash -c 'sloinfer --help | grep -q "tracegen runs --count 100 --days 30 | sloinfer"'
printf 'old\n' > "$TMP/keep.csv"
t "failed run keeps -o file" 65 "$H
a,a1,100,110,105,,,ok
" '' '*' sloinfer -o "$TMP/keep.csv"
tcheck "old -o content intact" grep -qx old "$TMP/keep.csv"

# ---- tracegen ground truth ----------------------------------------------------------
tracegen runs -q --seed 11 --count 40 --days 21 --truth "$TMP/truth.csv" -o "$TMP/runs.csv"
tracegen events -q --seed 11 --count 40 --days 21 -o "$TMP/events_raw.csv"
{ head -1 "$TMP/events_raw.csv"; tail -n +2 "$TMP/events_raw.csv" | sort -t, -k1,1n -s; } > "$TMP/events.csv"
t "tracegen runs" 0 '' '' '' sloinfer -q "$TMP/runs.csv" -o "$TMP/slo.csv"
# >= 95% true periods, >= 90% true status, a and d within 2% of the period for
# >= 90% of the actionable jobs (weekly jobs have 3 runs in 21 days: too_few_runs)
tcheck "accuracy against the truth" /usr/bin/python3 "$ROOT/tests/check/sloinfer_accuracy.py" \
    "$TMP/slo.csv" "$TMP/truth.csv" --min-period 0.95 --min-status 0.9 --min-ad 0.9 --tol 0.02
t "provenance form equals run-table form" 0 '' "@$TMP/slo.csv" '' sloinfer -q --events "$TMP/events.csv" "$TMP/runs.csv"
# the figures README.md and docs/sloinfer.md print, so they cannot drift from
# the tool silently: the "Try it" summary (100 jobs, 30 days, seed 1) and the
# default row of the accuracy table (1,000 jobs, 30 days, seed 5)
t "docs: the documented summary of 100 jobs" 0 '' '*' \
    "sloinfer: 100 jobs from 57713 runs: 74 actionable, 3 too_few_runs, 3 no_consumer, 12 high_cv, 8 no_slack" \
    sh -c 'tracegen -q runs --count 100 --days 30 | sloinfer > /dev/null'
tcheck "docs: the documented accuracy, default mix (status 95.5%)" bash -c '
    tracegen -q runs --count 1000 --days 30 --seed 5 --truth "$1/acc5_truth.csv" | sloinfer -q > "$1/acc5.csv" &&
    /usr/bin/python3 "$2" "$1/acc5.csv" "$1/acc5_truth.csv" |
        grep -qxF "jobs 1000: period 1.000, status 0.955, a/d within 0.02*period 1.000 (of 725)"' \
    _ "$TMP" "$ROOT/tests/check/sloinfer_accuracy.py"
# tracegen writes events grouped by job, each file's events in time order: enough
t "provenance form on events grouped by job" 0 '' "@$TMP/slo.csv" '' sloinfer -q --events "$TMP/events_raw.csv" "$TMP/runs.csv"
t "deterministic" 0 '' "@$TMP/slo.csv" '' sloinfer -q "$TMP/runs.csv"
# split by job across two workers: the union of their rows is the whole output
awk -F, -v d="$TMP" 'NR == 1 { print > (d "/w0.csv"); print > (d "/w1.csv"); next }
    { w = (substr($1, length($1)) % 2); print > (d "/w" w ".csv") }' "$TMP/runs.csv"
tcheck "same output when split by job" bash -c '
    { sloinfer -q "$1/w0.csv"; sloinfer -q --no-output-header "$1/w1.csv"; } | sort > "$1/split.out"
    sort "$1/slo.csv" | cmp - "$1/split.out"' _ "$TMP"
# any row order: reversed and shuffled copies give the same bytes (run
# table and provenance forms; the Google 2011 runs below have real ties)
tcheck "shuffled runs: byte-identical output" /usr/bin/python3 "$ROOT/tests/check/sloinfer_permute.py" \
    sloinfer "$TMP/runs.csv" "$TMP/perm" 1 2
tcheck "shuffled runs, provenance form: byte-identical output" /usr/bin/python3 \
    "$ROOT/tests/check/sloinfer_permute.py" sloinfer "$TMP/runs.csv" "$TMP/perm" 3 -- --events "$TMP/events.csv"
# time-ordered input (the usual export order) gives the grouped output
{ head -1 "$TMP/runs.csv"; tail -n +2 "$TMP/runs.csv" | sort -t, -k3,3n; } > "$TMP/bytime.csv"
t "time-ordered runs" 0 '' "@$TMP/slo.csv" '' sloinfer -q "$TMP/bytime.csv"
# the same jobs shifted by 0..23 h: one SLO (same d - a, cv, status; a moved by the shift)
tcheck "shifted by 0..23 h: one SLO" /usr/bin/python3 "$ROOT/tests/check/sloinfer_shift.py" sloinfer "$TMP/runs.csv" "$TMP/shift"
# the same without provenance: the columns a scheduler exports (basis
# schedule) and those plus input_avail (basis completion), shifted by 0..23 h
cut -d, -f1-5,8 "$TMP/runs.csv" > "$TMP/runs_sched.csv"
cut -d, -f1-6,8 "$TMP/runs.csv" > "$TMP/runs_compl.csv"
tcheck "shifted by 0..23 h, basis schedule: one SLO" /usr/bin/python3 "$ROOT/tests/check/sloinfer_shift.py" \
    --basis schedule sloinfer "$TMP/runs_sched.csv" "$TMP/shift_sched"
tcheck "shifted by 0..23 h, basis completion: one SLO" /usr/bin/python3 "$ROOT/tests/check/sloinfer_shift.py" \
    --basis completion sloinfer "$TMP/runs_compl.csv" "$TMP/shift_compl"
# a daily job whose inputs and reads straddle 00:00 UTC: basic.csv moved 23 h
# later (submit 00:00, input 23:10 the day before, read 09:02): same window
tcheck "straddling midnight: same d - a" /usr/bin/python3 "$ROOT/tests/check/sloinfer_shift.py" sloinfer "$D/basic.csv" "$TMP/shift1" 23 22 21
cut -d, -f1-5,8 "$D/basic.csv" > "$TMP/basic_sched.csv"
tcheck "straddling midnight, basis schedule: same d - a" /usr/bin/python3 "$ROOT/tests/check/sloinfer_shift.py" \
    --basis schedule sloinfer "$TMP/basic_sched.csv" "$TMP/shift1s" 23 22 21

# ---- Google 2011 job events (../shared/data/google-2011, first 4 of 500 parts) ----
# converted to runs: job = logical job name, instance = job ID, submit / start
# / end = the first SUBMIT / SCHEDULE / terminal event (s), status from the
# terminal event type.  No input_avail, no output_read: basis schedule.
G=$DATA/google-2011
zcat "$G"/job_events-part-0000[1-4]-of-00500.csv.gz | awk -F, 'BEGIN { OFS = ","; print "job,instance,submit,start,end,status" }
    { id = $3; t = int($1 / 1000000) + 1304233200; ev = $4
      if (ev == 0 && !(id in su)) { su[id] = t; nm[id] = $8 }
      else if (ev == 1 && !(id in st)) st[id] = t
      else if (ev >= 2 && ev <= 6 && !(id in en)) { en[id] = t; x[id] = ev == 4 ? "finished" : "failed" } }
    END { for (id in su) if ((id in st) && (id in en)) print nm[id], id, su[id], st[id], en[id], x[id] }' > "$TMP/google.csv"
t "google 2011 runs" 0 '' '' '' sloinfer -q "$TMP/google.csv" -o "$TMP/google.slo"
# 25 actionable jobs (of 1,861 names, 1,785 with fewer than 5 runs in these
# 5.6 hours); each: basis schedule, 0 <= a < P, d - a <= P, and its window
# at the grid instance nearest each successful run holds >= 90% of them
tcheck "google 2011: actionable SLOs with their basis" /usr/bin/python3 "$ROOT/tests/check/sloinfer_noprov.py" \
    "$TMP/google.csv" "$TMP/google.slo" --min-actionable 20
# two runs of a period equally near the schedule (whole seconds here, so
# more ties than traceconv's microsecond times, where 4 jobs have them):
# reversed rows changed 10 jobs' d, cv or slack before the tie rule; now
# every permutation gives the same bytes
tcheck "google 2011: shuffled runs give byte-identical output" /usr/bin/python3 \
    "$ROOT/tests/check/sloinfer_permute.py" sloinfer "$TMP/google.csv" "$TMP/perm" 1 2 3 4 5
# the documented path (docs/traceconv.md, docs/sloinfer.md, README): the
# counts those pages quote, so they cannot go stale silently
t "google 2011 via traceconv: the documented counts" 0 '' '*' \
    "sloinfer: 1861 jobs from 4742 runs: 25 actionable, 1783 too_few_runs, 13 not_periodic, 37 high_cv, 3 no_window" \
    sh -c 'traceconv -q google-runs "$1"/job_events-part-0000[1-4]-of-00500.csv.gz | sloinfer' _ "$G"

# times relative to a trace start in microseconds (as Google's are) without
# --time-unit: every job's period is 114 years; the first 3 jobs are named,
# the summary counts all 5 and names the option, and --time-unit us gives
# hourly periods with no warning
{ echo job,instance,submit,start,end
  for i in $(seq 0 20); do for j in a b c d e; do
    echo "$j,$i,$((i * 3600 * 1000000)),$(((i * 3600 + 60) * 1000000)),$(((i * 3600 + 600) * 1000000))"
  done; done; } > "$TMP/rel_us.csv"
tcheck "unit: 3 jobs named, the rest counted" bash -c '
    sloinfer "$1" 2>&1 >/dev/null | grep -c "derived period of 114.1 years is implausible" | grep -qx 3 &&
    sloinfer "$1" 2>&1 >/dev/null | grep -q "5 jobs in all have a period of over 20 years (3 shown above): are the input times in ms or us? (use --time-unit ms or --time-unit us)"' _ "$TMP/rel_us.csv"
tcheck "unit: --time-unit us gives hourly periods, no warning" bash -c '
    out=$(sloinfer --time-unit us "$1" 2>"$1.err") && ! grep -q "years" "$1.err" &&
    [ "$(printf "%s\n" "$out" | cut -d, -f2 | sort -u | head -1)" = 3600 ]' _ "$TMP/rel_us.csv"
# The same instants in ms (--time-unit ms) or us and in s give the same
# bytes: 8794963.406 ms is read as the double of 8794.963406 s (one
# rounding), not as 8794963.406 rounded and then divided by 1000 (which gave
# a = 394.96340599999894 for 394.96340600000076, a Google 2011 run's times).
R1=$'job,instance,submit,start,end\nj,a,8794.963406,8796.630414,8822.321756\nj,b,7446.908012,7448.32737,7476.309465\n'
t "unit: times in ms read as the same doubles as in s" 0 \
    $'job,instance,submit,start,end\nj,a,8794963.406,8796630.414,8822321.756\nj,b,7446908.012,7448327.37,7476309.465\n' \
    "$(printf %s "$R1" | sloinfer -q --period 1200 --min-runs 1)" '' sloinfer -q --period 1200 --min-runs 1 --time-unit ms
t "unit: times in us read as the same doubles as in s" 0 \
    $'job,instance,submit,start,end\nj,a,8794963406,8796630414,8822321756\nj,b,7446908012,7448327370,7476309465\n' \
    "$(printf %s "$R1" | sloinfer -q --period 1200 --min-runs 1)" '' sloinfer -q --period 1200 --min-runs 1 --time-unit us
