# lcmpack: LowCost packing of periodic reservations (tests/data/lcmpack, tests/check/plan_*).
# The expected placements below are worked by hand from the algorithm in
# lcmpack(1); every generated plan is also checked by the independent
# validator tests/check/plan_validate.py, and rigid workloads against the
# brute force tests/check/plan_bruteforce.py.
D="$ROOT/tests/data/lcmpack"
PY=/usr/bin/python3
V="$ROOT/tests/check/plan_validate.py"
# job,instance,t,gang,containers of the plan rows (no header, no trailer)
cols() { awk -F, 'NR > 1 && $3 != "end" { print $2 "," $4 "," $6 "," $10 "," $11 }' "$@"; }

# One job, one stage of 4 container-steps (max parallelism 4), window
# [600, 3000] s of an hourly cycle, 10 cores.  Stage k may stretch over the
# window before the end point e; the gang greedy puts the first container at
# e-1 and each next one on the cheapest eligible step: a fresh step to the
# left (0.1) beats stacking (0.2), so 4 steps of 1 container, peak 0.1.  End
# points ending before 600+4*60 are taller (0.4, 0.2, 0.2); among the ties
# the earliest end wins: 600..780 s.
lcmpack -q --slo "$D/one.slo.csv" --lcm 1h --capacity cores=10,mem=100000 "$D/one.sky.csv" -o "$TMP/one.csv"
t "one job: spread from a"   0 '' $'j1,0,600,1,1\nj1,0,660,1,1\nj1,0,720,1,1\nj1,0,780,1,1' '' cols "$TMP/one.csv"
tcheck "one job: validator" $PY "$V" "$TMP/one.csv" --sky "$D/one.sky.csv" --slo "$D/one.slo.csv" --cap 10,100000

# Two competing rigid jobs (gang = 4 = the stage, 2 stages) in a 10-minute
# cycle of 4 cores: A takes 0 and 60 (earliest of equal peaks 1.0); B cannot
# end at step 2 or 3 (full), so it ends at step 4: 120 and 180.  C's window
# [0, 240] is full: rejected with the reason.  X's SLO status is not a request.
lcmpack --slo "$D/comp.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$D/comp.sky.csv" -o "$TMP/comp.csv" \
    --report "$TMP/comp.rep" 2>"$TMP/comp.err"
t "two compete"              0 '' $'A,0,0,4,4\nA,0,60,4,4\nB,0,120,4,4\nB,0,180,4,4' '' cols "$TMP/comp.csv"
t "cannot fit: reason"       0 '' 'C,periodic,,rejected,,,,,no capacity: stage 2: no free capacity for 4 more container(s)' '' \
    grep '^C,' "$TMP/comp.rep"
t "status not a request"     0 '' "X,,,skipped,,,,,SLO status 'too_few_runs' is not a reservation request" '' grep '^X,' "$TMP/comp.rep"

t "rejection on stderr without --report" 0 '' '*' "lcmpack: job 'C': not placed: no capacity" \
    lcmpack --slo "$D/comp.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$D/comp.sky.csv" -o "$TMP/x.csv"
# 15 jobs like C (A and B fill the cycle first): the first 10 rejections
# named, the summary counts the other 5 (a tight night without --report
# printed one line per request: 2,147 on a 2,000-job dump)
{ cat "$D/comp.slo.csv"; for i in $(seq 1 14); do echo "C$i,600,0,240,actionable"; done; } > "$TMP/comp15.slo.csv"
{ cat "$D/comp.sky.csv"; for i in $(seq 1 14); do grep '^C,' "$D/comp.sky.csv" | sed "s/^C,/C$i,/"; done; } > "$TMP/comp15.sky.csv"
tcheck "15 rejections without --report: 10 named, 5 counted; --report has all 15" bash -c '
    lcmpack --slo "$1" --lcm 10m --capacity cores=4,mem=100000 "$2" -o x.csv 2>err &&
    lcmpack -q --slo "$1" --lcm 10m --capacity cores=4,mem=100000 "$2" -o y.csv --report rep15.csv && cmp -s x.csv y.csv &&
    [ "$(grep -c ": not placed: no capacity" err)" = 10 ] && [ "$(grep -c ",rejected," rep15.csv)" = 15 ] &&
    grep -q "^lcmpack: 17 requests: 2 placed, 15 rejected," err &&
    grep -q "^lcmpack: requests not placed: the first 10 are named above, 5 more are not (--report FILE lists every decision)$" err ||
        { cat err; exit 1; }' _ "$TMP/comp15.slo.csv" "$TMP/comp15.sky.csv"
t "--strict fails on a rejection" 1 '' '' '*' \
    lcmpack --strict --slo "$D/comp.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$D/comp.sky.csv" -o "$TMP/x.csv"
tcheck "two compete: validator" $PY "$V" "$TMP/comp.csv" --sky "$D/comp.sky.csv" --slo "$D/comp.slo.csv" \
    --cap 4,100000 --report "$TMP/comp.rep"

# Gangs: G3 (6 containers, gang 3, 6 cores) goes 3+3 over 0 and 60 (spread:
# 0.5 each rather than 1.0 on one step); G4 (6 rounded up to 8 = 2 gangs of 4,
# at most 1 gang per step) finds no room for a gang of 4 next to 3 and goes to
# 120 and 180.
lcmpack -q --slo "$D/gang.slo.csv" --lcm 10m --capacity cores=6,mem=100000 "$D/gang.sky.csv" -o "$TMP/gang.csv"
t "gangs whole and rounded"  0 '' $'G3,0,0,3,3\nG3,0,60,3,3\nG4,0,120,4,4\nG4,0,180,4,4' '' cols "$TMP/gang.csv"
tcheck "gangs: validator" $PY "$V" "$TMP/gang.csv" --sky "$D/gang.sky.csv" --slo "$D/gang.slo.csv" --cap 6,100000

# An hourly job in a 4-hour cycle: B4 (4-hourly, window [3600, 3660]) sits at
# 1:00 with 2 of 4 cores.  H (hourly, 2 containers rigid, window [0, 600]) sees
# at offset 0 the worst of its 4 instances (1:00: 0.5 -> 1.0 after it), at
# offset 60 s 0.5: it goes to 60 s in every hour.
lcmpack -q --slo "$D/hourly.slo.csv" --lcm 4h --capacity cores=4,mem=100000 "$D/hourly.sky.csv" -o "$TMP/hourly.csv"
t "hourly job in a 4h LCM"   0 '' $'B4,0,3600,2,2\nH,0,60,2,2\nH,1,3660,2,2\nH,2,7260,2,2\nH,3,10860,2,2' '' cols "$TMP/hourly.csv"
tcheck "hourly: validator" $PY "$V" "$TMP/hourly.csv" --sky "$D/hourly.sky.csv" --slo "$D/hourly.slo.csv" --cap 4,100000

# The same two jobs in a daily LCM: B4 repeats 6 times, H 24 times, H still at
# minute 1 of every hour (1:00 is taken in every 4-hour period).
lcmpack -q --slo "$D/hourly.slo.csv" --capacity cores=4,mem=100000 "$D/hourly.sky.csv" -o "$TMP/hourly1d.csv"
t "hourly job in a daily LCM" 0 '' "$(for i in 0 1 2 3 4 5; do echo "B4,$i,$((3600 + 14400 * i)),2,2"; done
    for i in $(seq 0 23); do echo "H,$i,$((60 + 3600 * i)),2,2"; done)" '' cols "$TMP/hourly1d.csv"
tcheck "hourly daily: validator" $PY "$V" "$TMP/hourly1d.csv" --sky "$D/hourly.sky.csv" --slo "$D/hourly.slo.csv" --cap 4,100000

# The alignment penalty: a one-step job in [0, 600] goes to 0 (earliest of
# equal costs); problematic, its mid-point is pulled to (a+d)/2 = 300: steps
# 4 (mid 270) and 5 (mid 330) tie at distance 30, the earlier wins: 240.
t "no penalty: earliest"     0 '' 'P,0,0,2,2' '' \
    sh -c 'lcmpack -q --slo "$1/align.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$1/align.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"
t "penalty from the column"  0 '' 'P,0,240,2,2' '' \
    sh -c 'lcmpack -q --slo "$1/align1.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$1/align.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"
t "penalty from --problematic" 0 '' 'P,0,240,2,2' '' \
    sh -c 'lcmpack -q --problematic P --slo "$1/align.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$1/align.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"
t "penalty weight 0 disables it" 0 '' 'P,0,0,2,2' '' \
    sh -c 'lcmpack -q --align-weight 0 --slo "$1/align1.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$1/align.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"

# --order tight: F (flexible, [0, 600]) arrives before R (4 cores, only step
# 0 fits its window [0, 60]) on 4 cores.  In input order F takes step 0 (the
# earliest of equal costs) and R no longer fits; least flexible first, R
# takes step 0 and F step 1.
t "input order: R rejected"  0 '' 'F,0,0,2,2' '*' sh -c 'lcmpack --slo "$1/order.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$1/order.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"
t "--order tight fits both"  0 '' $'R,0,0,4,4\nF,0,60,2,2' '' sh -c 'lcmpack -q --order tight --slo "$1/order.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$1/order.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"

# --lookahead 1 keeps input order but lets F see R's demand to come (4 of 4
# cores on R's only step 0: 1.0 extra cost there): F's step 0 costs 1.5, step
# 1 0.5, so F takes 60 s and R still fits at 0.
t "--lookahead leaves room"  0 '' $'F,0,60,2,2\nR,0,0,4,4' '' sh -c 'lcmpack -q --lookahead 1 --slo "$1/order.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$1/order.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"

# --improve: on 8 cores both fit at step 0 in input order (peak 6/8); the
# polish lifts F out again, finds step 1 cheaper (0.25 against 0.75) and R
# stays: peak 4/8.  On 4 cores R was rejected in input order and stays
# rejected: alone, F has no cheaper step than 0, so R, tried again after the
# polish, still does not fit (a refusal that fits after it: lcmpack_nightly.sh).
t "online: both at step 0"   0 '' $'F,0,0,2,2\nR,0,0,4,4' '' sh -c 'lcmpack -q --slo "$1/order.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$1/order.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"
t "--improve moves F"        0 '' $'F,0,60,2,2\nR,0,0,4,4' '' sh -c 'lcmpack -q --improve 1 --slo "$1/order.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$1/order.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"
t "--improve report: final costs" 0 '' $'F,placed,60,120,0.25\nR,placed,0,60,0.5' '' sh -c 'lcmpack -q --improve 3 --slo "$1/order.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$1/order.sky.csv" -o /dev/null --report - | awk -F, "NR>1 {print \$1\",\"\$4\",\"\$5\",\"\$6\",\"\$7}"' _ "$D"
t "--improve summary"        0 '' '' 'lcmpack: --improve: 1 moves in 2 rounds, then 0 moves in 1 flattening rounds (peak 0.7500 before, 0.5000 after descent, 0.5000 after)' lcmpack --improve 5 --slo "$D/order.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$D/order.sky.csv" -o /dev/null
t "--improve keeps rejections" 0 '' 'F,0,0,2,2' '*' sh -c 'lcmpack --improve 3 --slo "$1/order.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$1/order.sky.csv" | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D"
# Rigid tries.  X (kept, from --plan) holds 4 of 8 cores on steps 0-7; B (2
# stages of 4 containers, window the whole 10-step cycle) arrives.  The
# stretched trial for end point 10 spreads stage 2 over the free steps 8-9
# (2 + 2), so stage 1 must sit on X (1 container on steps 4-7): peak 5/8.
# Every stretched trial keeps at least 5/8 (only steps 8-9 are free).  The
# rigid trial for the same end point puts 4 + 4 on steps 8-9: peak 4/8, load
# score 4/8 + ln(2 (1 - e^-10)) / 20 = 0.535 (B = 10 / 0.5) against at least
# 5/8 + ln(1 - e^-2.5) / 20 = 0.621; the other rigid trials put a stage on X
# (8/8).  LowCost tries both shapes and takes the rigid one online (before
# the rigid tries it took 5/8 and only --improve found 4/8); --improve has
# nothing left to move.
lcmpack -q --slo "$D/rigid.slo.csv" --lcm 10m --capacity cores=8,mem=100000 <(grep -v '^B,' "$D/rigid.sky.csv") -o "$TMP/rx.csv"
t "rigid: LowCost online"    0 '' $'B,480,1,4\nB,540,2,4' '' sh -c 'lcmpack -q --plan "$1" --slo "$2/rigid.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$2/rigid.sky.csv" | awk -F, "\$2==\"B\" {print \$2\",\"\$6\",\"\$9\",\"\$11}"' _ "$TMP/rx.csv" "$D"
t "rigid: --improve keeps B" 0 '' $'B,480,1,4\nB,540,2,4' '' sh -c 'lcmpack -q --improve 1 --plan "$1" --slo "$2/rigid.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$2/rigid.sky.csv" | awk -F, "\$2==\"B\" {print \$2\",\"\$6\",\"\$9\",\"\$11}"' _ "$TMP/rx.csv" "$D"
t "rigid: --improve summary" 0 '' '' 'lcmpack: --improve: 0 moves in 1 rounds, then 0 moves in 1 flattening rounds (peak 0.5000 before, 0.5000 after descent, 0.5000 after)' lcmpack --improve 1 --plan "$TMP/rx.csv" --slo "$D/rigid.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$D/rigid.sky.csv" -o /dev/null
t "rigid: X never moves"     0 '' '' '' bash -c 'lcmpack -q --improve 3 --plan "$1" --slo "$2/rigid.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$2/rigid.sky.csv" | grep "^slokit-plan/1,X," | cmp - <(grep "^slokit-plan/1,X," "$1")' _ "$TMP/rx.csv" "$D"
t "--improve -1"             64 '' '' "invalid value for --improve: '-1'" lcmpack --improve -1 --capacity cores=1,mem=5 --slo x

# Capacity over time: no cores in [120, 240): B skips it and lands at 240.
lcmpack -q --slo "$D/comp.slo.csv" --lcm 10m --capacity-file "$D/cap.csv" "$D/comp.sky.csv" -o "$TMP/cap.csv"
t "capacity file"            0 '' $'A,0,0,4,4\nA,0,60,4,4\nB,0,240,4,4\nB,0,300,4,4' '' cols "$TMP/cap.csv"
tcheck "capacity file: validator" $PY "$V" "$TMP/cap.csv" --sky "$D/comp.sky.csv" --slo "$D/comp.slo.csv" --cap-file "$D/cap.csv"
# a capacity of 1e308 was taken (--capacity stops at 1e15): every cost
# became 0 and the summary a ratio of zeros ("peak cost 0.0000 ... 2.388x")
t "capacity file: huge cores" 65 '' '' "cap-huge.csv:3: column 'cores': number '1e308' out of range (|value| <= 1e+15)" \
    bash -c 'printf "t,cores,mem_mb\n0,4,100000\n120,1e308,100000\n" > "$1/cap-huge.csv"
             lcmpack -q --slo "$2/comp.slo.csv" --lcm 10m --capacity-file "$1/cap-huge.csv" "$2/comp.sky.csv"' _ "$TMP" "$D"

# The load profile against the plan's rows summed independently.
lcmpack -q --slo "$D/hourly.slo.csv" --lcm 4h --capacity cores=4,mem=100000 "$D/hourly.sky.csv" -o /dev/null --load "$TMP/load.csv"
tcheck "load = sum of plan rows" sh -c '
    awk -F, "NR>1 && \$3!=\"end\" { c[\$6] += \$11 * \$12; m[\$6] += \$11 * \$13 }
             END { for (t in c) print t \",\" c[t] \",\" m[t] \",\" (c[t]/4 > m[t]/100000 ? c[t]/4 : m[t]/100000) }" "$1" | sort -n >"$3/l1"
    awk -F, "NR>1 && \$2 > 0" "$2" | sort -n >"$3/l2"
    cmp "$3/l1" "$3/l2"' _ "$TMP/hourly.csv" "$TMP/load.csv" "$TMP"

# --query: plan_alloc_at, mapping an absolute time onto the cycle.  The hourly
# plan above: B4 at 1:00-1:01 of every 4-hour cycle, H at minute 1 of every hour.
Q="lcmpack -q --plan $TMP/hourly.csv --capacity cores=4,mem=100000 --query"
t "query: B4 at 01:00:30"    0 '' $'job,containers,cores,mem_mb\nB4,2,2,2048' '' $Q 2026-01-05T01:00:30
t "query: H at 01:01"        0 '' $'job,containers,cores,mem_mb\nH,2,2,2048' '' $Q 2026-01-05T01:01:00
t "query: H a day later 03:01:10" 0 '' $'job,containers,cores,mem_mb\nH,2,2,2048' '' $Q 2026-01-06T03:01:10
t "query: nothing at 03:02"  0 '' 'job,containers,cores,mem_mb' '' $Q 2026-01-06T03:02:00
# An off-kilter job (58 min) gets one reservation per instance of the --at
# cycle: instance 507923 opens at 1767572040 = 2026-01-05 + 840 s, its window
# [840, 1440] s holds it first at 840 s; the next cycle has nothing.
lcmpack -q --slo "$D/once.slo.csv" --capacity cores=1,mem=100000 --at 2026-01-05 "$D/once.sky.csv" -o "$TMP/once.csv"
t "once: first instance row" 0 '' 'slokit-plan/1,K,once,507923,20458,840,60,86400,1,1,1,1,1024,3480,0,600,0,b8ca9bac' '' sed -n 2p "$TMP/once.csv"
t "once: 25 instances in the day" 0 '' '25' '' sh -c 'grep -c ",once," "$1"' _ "$TMP/once.csv"
t "query: once in its cycle"  0 '' $'job,containers,cores,mem_mb\nK,1,1,1024' '' \
    lcmpack -q --plan "$TMP/once.csv" --capacity cores=1,mem=100000 --query 1767572050
t "query: once not in the next cycle" 0 '' 'job,containers,cores,mem_mb' '' \
    lcmpack -q --plan "$TMP/once.csv" --capacity cores=1,mem=100000 --query 1767658450
tcheck "once: validator" $PY "$V" "$TMP/once.csv" --sky "$D/once.sky.csv" --slo "$D/once.slo.csv" --cap 1,100000

# A window across midnight (a = 23:58, d = 24:02 of a daily period): A takes
# 23:58-24:00, B the two minutes after midnight, stored at t = 0 and 60 of the
# cycle; the plan reads back, the query finds B at 00:00:30 and YARN dates it
# from the next day.
lcmpack -q --slo "$D/wrap.slo.csv" --capacity cores=4,mem=100000 "$D/wrap.sky.csv" -o "$TMP/wrap.csv"
t "window across midnight"   0 '' $'A,0,86280,4,4\nA,0,86340,4,4\nB,0,0,4,4\nB,0,60,4,4' '' cols "$TMP/wrap.csv"
t "wrapped plan reads back"  0 '' @"$TMP/wrap.csv" '' lcmpack -q --plan "$TMP/wrap.csv" --capacity cores=4,mem=100000
t "wrapped: query after midnight" 0 '' $'job,containers,cores,mem_mb\nB,4,4,4096' '' \
    lcmpack -q --plan "$TMP/wrap.csv" --capacity cores=4,mem=100000 --query 2026-01-06T00:00:30
tcheck "wrapped: yarn arrival next day" sh -c 'lcmpack -q --plan "$1" --capacity cores=4,mem=100000 --format yarn --at 2026-01-05 | grep -q "\"arrival\":1767657600000,\"deadline\":1767657720000,\"reservation-name\":\"B\""' _ "$TMP/wrap.csv"
tcheck "wrapped: validator" $PY "$V" "$TMP/wrap.csv" --sky "$D/wrap.sky.csv" --slo "$D/wrap.slo.csv" --cap 4,100000

# ---- incremental planning -------------------------------------------------------
printf 'job,step,offset,alloc,gang\nA,60,0,4,4\nA,60,60,4,4\n' >"$TMP/a.sky"
lcmpack -q --slo "$D/comp.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$TMP/a.sky" -o "$TMP/p1.csv"
lcmpack -q --plan "$TMP/p1.csv" --slo "$D/comp.slo.csv" --capacity cores=4,mem=100000 "$D/comp.sky.csv" \
    -o "$TMP/p2.csv" --report "$TMP/p2.rep"
tcheck "old reservations byte-identical" sh -c 'n=$(head -n -1 "$1" | wc -c); head -n -1 "$1" | cmp -n "$n" - "$2"' _ "$TMP/p1.csv" "$TMP/p2.csv"
t "old job kept, new placed" 0 '' $'A,kept\nB,placed\nC,rejected' '' sh -c 'cut -d, -f1,4 "$1" | grep -v "^X\|^job"' _ "$TMP/p2.rep"
t "incremental plan"         0 '' $'A,0,0,4,4\nA,0,60,4,4\nB,0,120,4,4\nB,0,180,4,4' '' cols "$TMP/p2.csv"
t "plan geometry wins"       64 '' '' 'plan has step 60 s and lcm 600 s, but --step 60 --lcm 3600 were given' \
    lcmpack --plan "$TMP/p1.csv" --lcm 1h --capacity cores=4,mem=100000
lcmpack -q --plan "$TMP/p2.csv" --remove A --capacity cores=4,mem=100000 -o "$TMP/p3.csv"
t "--remove frees a job"     0 '' $'B,0,120,4,4\nB,0,180,4,4' '' cols "$TMP/p3.csv"
tcheck "--remove keeps the others' rows" bash -c 'grep "^slokit-plan/1,B," "$1" | cmp - <(grep "^slokit-plan/1,B," "$2")' _ "$TMP/p2.csv" "$TMP/p3.csv"
# the one warning of lcmpack, reprov and replay (lib/morpheus/plan's
# plan_warn_over): A and B hold 4 one-core containers at 0-240 s, 4 > 2
t "smaller capacity: warning, plan kept" 0 '' '*' 'lcmpack: warning: the plan exceeds the capacity (cost 2.0000 at t=0 s: cores 4 of 2, mem_mb 4096 of 100000; over at 4 of 10 steps): existing reservations stay where they are; free some with --remove or move them with --replan' \
    lcmpack --plan "$TMP/p2.csv" --capacity cores=2,mem=100000 -o "$TMP/x.csv"
tcheck "smaller capacity: rows unchanged" cmp "$TMP/p2.csv" "$TMP/x.csv"
t "smaller capacity: -q says nothing" 0 '' '' '' lcmpack -q --plan "$TMP/p2.csv" --capacity cores=2,mem=100000 -o "$TMP/x.csv"
t "--remove unknown job warns" 0 '' '*' 'lcmpack: warning: --remove Z: no such job in the plan' \
    lcmpack --plan "$TMP/p3.csv" --remove Z --capacity cores=4,mem=100000 -o "$TMP/x.csv"
# --problematic naming no job of the input (a typo) was silently ignored:
# one warning each, as --remove's; a job of the SLO file (A) or of the
# skylines only (S: no SLO row) is not warned about; -q is silent
t "--problematic unknown job warns" 0 '' '*' 'lcmpack: warning: --problematic Z: no such job in the SLO file or the skylines' \
    bash -c 'lcmpack --problematic Z --problematic A --problematic S --lcm 10m --capacity cores=4,mem=100000 \
        --slo "$1/comp.slo.csv" <(cat "$1/comp.sky.csv"; echo S,60,0,1,1) -o /dev/null 2>"$2/pz.err"; rc=$?
        cat "$2/pz.err" >&2; [ $rc = 0 ] && [ "$(grep -c "warning: --problematic" "$2/pz.err")" = 1 ]' _ "$D" "$TMP"
t "--problematic unknown job: -q is silent" 0 '' '*' '' \
    lcmpack -q --problematic Z --lcm 10m --capacity cores=4,mem=100000 --slo "$D/comp.slo.csv" "$D/comp.sky.csv" -o /dev/null
# --replan: A comes back into the freed slot after B moved... B's request first
printf 'job,step,offset,alloc,gang\nB,60,0,4,4\nB,60,60,4,4\n' >"$TMP/b.sky"
lcmpack -q --plan "$TMP/p2.csv" --replan --slo "$D/comp.slo.csv" --capacity cores=4,mem=100000 "$TMP/b.sky" -o "$TMP/p4.csv"
t "--replan re-places the job"     0 '' $'A,0,0,4,4\nA,0,60,4,4\nB,0,120,4,4\nB,0,180,4,4' '' cols "$TMP/p4.csv"
lcmpack -q --plan "$TMP/p3.csv" --replan --slo "$D/comp.slo.csv" --capacity cores=4,mem=100000 "$TMP/b.sky" -o "$TMP/p5.csv"
t "--replan with room moves it earlier" 0 '' $'B,0,0,4,4\nB,0,60,4,4' '' cols "$TMP/p5.csv"

# ---- the plan file is validated -------------------------------------------------
t "plan round trip"          0 '' @"$TMP/p2.csv" '' lcmpack -q --plan "$TMP/p2.csv" --capacity cores=4,mem=100000
sed '3s/,4,1,1024,/,3,1,1024,/' "$TMP/p2.csv" >"$TMP/bad1.csv"
t "edited number refused"    65 '' '' "lcmpack: $TMP/bad1.csv:3: checksum mismatch" lcmpack --plan "$TMP/bad1.csv" --capacity cores=4,mem=100000
# (p1 is one segment: without its trailer no valid trailer is left; p2 = p1 +
# one segment, see "segments" below for what cutting its last trailer means)
head -n -1 "$TMP/p1.csv" >"$TMP/bad2.csv"
t "truncated plan refused"   65 '' '' 'no trailer row' lcmpack --plan "$TMP/bad2.csv" --capacity cores=4,mem=100000
sed '3d' "$TMP/p2.csv" >"$TMP/bad3.csv"
t "deleted row refused"      65 '' '' '*' lcmpack --plan "$TMP/bad3.csv" --capacity cores=4,mem=100000
sed 's|^slokit-plan/1|slokit-plan/9|' "$TMP/p2.csv" >"$TMP/bad4.csv"
t "other version refused"    65 '' '' "unsupported plan format 'slokit-plan/9'" lcmpack --plan "$TMP/bad4.csv" --capacity cores=4,mem=100000
t "not a plan refused"       65 '' '' 'not a slokit plan' sh -c 'cp "$1" "$2/notaplan.csv" && lcmpack --plan "$2/notaplan.csv" --capacity cores=4,mem=100000' _ "$D/comp.sky.csv" "$TMP"
{ head -1 "$TMP/p2.csv"; sed -n '4p;3p' "$TMP/p2.csv"; tail -n +5 "$TMP/p2.csv"; } >"$TMP/bad5.csv"
t "swapped rows refused"     65 '' '' 'trailer does not match the rows' lcmpack --plan "$TMP/bad5.csv" --capacity cores=4,mem=100000
# edits with recomputed checksums (tests/check/plan_recrc.py) still fail the
# reader's own checks: holes, windows, instances that differ, gangs
RC="$PY $ROOT/tests/check/plan_recrc.py"
# (p2: header, A's 2 rows, trailer, B's 2 rows at lines 5-6, trailer)
$RC "$TMP/p2.csv" "$TMP/e1.csv" 6 t 240
t "re-checksummed hole refused" 65 '' '' "e1.csv:6: job 'B': hole or overlap at t 240" lcmpack --plan "$TMP/e1.csv" --capacity cores=4,mem=100000
$RC "$TMP/p2.csv" "$TMP/e2.csv" 2 d 90; $RC "$TMP/e2.csv" "$TMP/e2.csv" 3 d 90
t "allocation outside its window refused" 65 '' '' "job 'A': allocation [0, 120) s lies outside its window [0, 90] s" \
    lcmpack --plan "$TMP/e2.csv" --capacity cores=4,mem=100000
$RC "$TMP/p2.csv" "$TMP/e3.csv" 2 containers 3
t "containers not whole gangs refused" 65 '' '' "e3.csv:2: containers 3 is not a multiple of the gang 4" \
    lcmpack --plan "$TMP/e3.csv" --capacity cores=4,mem=100000
$RC "$TMP/hourly.csv" "$TMP/e4.csv" 4 containers 4
t "instances that differ refused" 65 '' '' "e4.csv:4: job 'H': instance 1 differs from instance 0" \
    lcmpack --plan "$TMP/e4.csv" --capacity cores=4,mem=100000
$RC "$TMP/p2.csv" "$TMP/e5.csv" 3 a 30
t "fields differ within a reservation refused" 65 '' '' "e5.csv:3: job 'A': request fields differ" \
    lcmpack --plan "$TMP/e5.csv" --capacity cores=4,mem=100000
printf 'old\n' >"$TMP/keep.csv"
t "failed run keeps -o"      65 '' '' '*' lcmpack --plan "$TMP/bad1.csv" --capacity cores=4,mem=100000 -o "$TMP/keep.csv"
tcheck "old -o intact"       grep -qx old "$TMP/keep.csv"

# ---- YARN -----------------------------------------------------------------------
lcmpack -q --plan "$TMP/hourly.csv" --capacity cores=4,mem=100000 --format yarn --at 2026-01-05 -o "$TMP/yarn.jsonl"
tcheck "yarn: every line valid JSON" sh -c 'while IFS= read -r l; do printf "%s" "$l" | python3 -m json.tool >/dev/null || exit 1; done <"$1"; test $(wc -l <"$1") = 2' _ "$TMP/yarn.jsonl"
tcheck "yarn: fields" $PY -c '
import json, sys
at = 1767571200 * 1000
r = [json.loads(l) for l in open(sys.argv[1])]
b4, h = r[0]["reservation-definition"], r[1]["reservation-definition"]
assert r[0]["queue"] == "dedicated"
assert b4["reservation-name"] == "B4" and b4["recurrence-expression"] == "14400000", b4
assert b4["arrival"] == at + 3600000 and b4["deadline"] == at + 3660000, b4
# deadline: the SLO deadline d of the window [0, 600] s, not the allocation end (at + 120000)
assert h["recurrence-expression"] == "3600000" and h["arrival"] == at + 60000 and h["deadline"] == at + 600000, h
assert r[0]["reservation-id"] != r[1]["reservation-id"]
req = h["reservation-requests"]
assert req["reservation-request-interpreter"] == 3
rr = req["reservation-request"]
assert rr == [{"duration": 60000, "num-containers": 2, "min-concurrency": 2,
               "capability": {"memory": 1024, "vCores": 1}}], rr
' "$TMP/yarn.jsonl"
tcheck "yarn: API field names and types (tests/check/yarn_api.py)" $PY "$ROOT/tests/check/yarn_api.py" plain "$TMP/yarn.jsonl" "$TMP/hourly.csv" 1767571200
t "yarn needs --at"          64 '' '' '--format yarn needs --at TIME' lcmpack --plan "$TMP/hourly.csv" --capacity cores=4,mem=100000 --format yarn
# a window of a whole period, its start off the grid ([30, 3630] s of an
# hourly job that needs 60 one-minute steps): the plan starts it at the grid
# step below a, 0, and the body's deadline was a + period past that start
# (3630 s against a recurrence of 3600 s), which the RM refuses; now it is
# the arrival + the period
printf 'job,period,a,d\nW,3600,30,3630\n' > "$TMP/wp.slo.csv"
{ echo job,step,offset,alloc; for i in $(seq 0 59); do echo "W,60,$((i * 60)),1"; done; } > "$TMP/wp.sky.csv"
lcmpack -q --slo "$TMP/wp.slo.csv" --capacity cores=100,mem=409600 "$TMP/wp.sky.csv" --at 2026-01-06 -o "$TMP/wp.csv"
t "yarn: a whole-period window off the grid: deadline - arrival = the recurrence" 0 '' \
    '"arrival":1767657600000,"deadline":1767661200000,"reservation-name":"W","recurrence-expression":"3600000"' '' \
    sh -c 'lcmpack -q --plan "$1" --capacity cores=100,mem=409600 --format yarn --at 2026-01-06 -o "$1.jsonl" &&
        grep -o "\"arrival\".*\"recurrence-expression\":\"[0-9]*\"" "$1.jsonl"' _ "$TMP/wp.csv"
tcheck "yarn: the whole-period window's body passes the API checker" $PY "$ROOT/tests/check/yarn_api.py" submit "$TMP/wp.csv.jsonl"

# ---- generated workloads: validator and brute force -----------------------------
# the bench's workload as docs/lcmpack.md ("Try it") and README.md quote it,
# so the headline ratio cannot drift from the tool silently: 1,000 jobs of
# seed 7 online at 1.143x the lower bound, and earliest start 0.0210 (-38%)
tracegen requests --seed 7 --count 1000 --truth "$TMP/b7.slo" >"$TMP/b7.sky"
t "docs: seed 7, 1,000 jobs: the documented 1.143x" 0 '' '*' \
    "lcmpack: peak cost 0.0131 at t=8040 s; lower bound 0.0115 (fixed demand 0.0011, area/lcm 0.0115): 1.143x" \
    lcmpack --slo "$TMP/b7.slo" --capacity cores=100000,mem=400000000 --at 2026-01-05 "$TMP/b7.sky" -o "$TMP/b7.csv"
t "docs: seed 7, 1,000 jobs: earliest start peaks at 0.0210" 0 '' '*' "lcmpack: peak cost 0.0210 at" \
    lcmpack --strategy earliest --slo "$TMP/b7.slo" --capacity cores=100000,mem=400000000 --at 2026-01-05 "$TMP/b7.sky" -o "$TMP/b7e.csv"
tracegen requests --seed 3 --count 120 --truth "$TMP/g.slo" >"$TMP/g.sky"
lcmpack -q --slo "$TMP/g.slo" --capacity cores=150,mem=1000000 --at 2026-01-05 "$TMP/g.sky" -o "$TMP/g.csv" --report "$TMP/g.rep"
tcheck "workload: validator"  $PY "$V" "$TMP/g.csv" --sky "$TMP/g.sky" --slo "$TMP/g.slo" --cap 150,1000000 --report "$TMP/g.rep"
tcheck "workload: some rejected under tight capacity" grep -q ',rejected,' "$TMP/g.rep"
tcheck "workload: off-kilter jobs as once" grep -q '^slokit-plan/1,[^,]*,once,' "$TMP/g.csv"
lcmpack -q --slo "$TMP/g.slo" --capacity cores=150,mem=1000000 --at 2026-01-05 "$TMP/g.sky" -o "$TMP/g2.csv" --report "$TMP/g2.rep" --max-stretch 2 --chunks 0
tcheck "workload --max-stretch --chunks 0: validator" $PY "$V" "$TMP/g2.csv" --sky "$TMP/g.sky" --slo "$TMP/g.slo" --cap 150,1000000 --report "$TMP/g2.rep"
lcmpack -q --slo "$TMP/g.slo" --capacity cores=150,mem=1000000 --at 2026-01-05 "$TMP/g.sky" -o "$TMP/g4.csv" --report "$TMP/g4.rep" --lookahead 1 --order tight
tcheck "workload --lookahead --order tight: validator" $PY "$V" "$TMP/g4.csv" --sky "$TMP/g.sky" --slo "$TMP/g.slo" --cap 150,1000000 --report "$TMP/g4.rep"
# --improve on a workload: a valid plan, the same requests placed (and the
# refused ones that fit the polished plan: tests/cli/lcmpack_nightly.sh), a
# polish peak no higher than the online one, and the same bytes on every run
lcmpack --slo "$TMP/g.slo" --capacity cores=150,mem=1000000 --at 2026-01-05 "$TMP/g.sky" -o "$TMP/g5.csv" --report "$TMP/g5.rep" --improve 4 2>"$TMP/g5.err"
tcheck "workload --improve: validator" $PY "$V" "$TMP/g5.csv" --sky "$TMP/g.sky" --slo "$TMP/g.slo" --cap 150,1000000 --report "$TMP/g5.rep"
tcheck "workload --improve: same decisions" bash -c 'cut -d, -f1-4 "$1" | cmp - <(awk -F, -v OFS=, "/placed after it\"\$/ { \$4 = \"rejected\" } { print \$1, \$2, \$3, \$4 }" "$2")' _ "$TMP/g.rep" "$TMP/g5.rep"
# the summary: moves, then peak before, after the descent and after flattening;
# with 140 cores flattening lowers the peak further (0.9643 -> 0.9357; at 150
# cores, since the load score, the descent ends at a plateau it cannot lower)
tcheck "workload --improve: jobs moved, peak not higher" sh -c 'sed -n "s/.*--improve: \([0-9]*\) moves in [0-9]* rounds, then [0-9]* moves in [0-9]* flattening rounds (peak \([0-9.]*\) before, \([0-9.]*\) after descent, \([0-9.]*\) after)/\1 \2 \3 \4/p" "$1" | awk "{ n++; ok = \$1 > 0 && \$3 <= \$2 && \$4 <= \$3 } END { exit !(n == 1 && ok) }"' _ "$TMP/g5.err"
lcmpack --slo "$TMP/g.slo" --capacity cores=140,mem=1000000 --at 2026-01-05 "$TMP/g.sky" -o "$TMP/g6.csv" --improve 4 2>"$TMP/g6.err"
tcheck "workload --improve: flattening lowered the peak" sh -c 'sed -n "s/.*(peak [0-9.]* before, \([0-9.]*\) after descent, \([0-9.]*\) after)/\1 \2/p" "$1" | awk "{ n++; ok = \$2 < \$1 } END { exit !(n == 1 && ok) }"' _ "$TMP/g6.err"
tcheck "workload --improve 140 cores: validator" $PY "$V" "$TMP/g6.csv" --sky "$TMP/g.sky" --slo "$TMP/g.slo" --cap 140,1000000
tcheck "workload --improve: the peak it claims" sh -c '"$1" "$2" "$3/g5.csv" --sky "$3/g.sky" --slo "$3/g.slo" --cap 150,1000000 --peak "$(sed -n "s/.*peak cost \([0-9.]*\) at.*/\1/p" "$3/g5.err")"' _ $PY "$V" "$TMP"
tcheck "workload --improve: deterministic" sh -c 'lcmpack -q --slo "$1" --capacity cores=150,mem=1000000 --at 2026-01-05 "$2" --improve 4 | cmp - "$3"' _ "$TMP/g.slo" "$TMP/g.sky" "$TMP/g5.csv"
lcmpack -q --slo "$TMP/g.slo" --capacity cores=150,mem=1000000 --at 2026-01-05 "$TMP/g.sky" -o "$TMP/g3.csv" --report "$TMP/g3.rep" --strategy earliest
tcheck "earliest strategy: validator" $PY "$V" "$TMP/g3.csv" --sky "$TMP/g.sky" --slo "$TMP/g.slo" --cap 150,1000000 --report "$TMP/g3.rep"
tcheck "deterministic" sh -c 'lcmpack -q --slo "$1" --capacity cores=150,mem=1000000 --at 2026-01-05 "$2" | cmp - "$3"' _ "$TMP/g.slo" "$TMP/g.sky" "$TMP/g.csv"
# the next night: the plan is fed back, old reservations stay byte-identical, and expire
head -n 1 "$TMP/g.sky" >"$TMP/g1.sky"; grep '^job0000[0-4],' "$TMP/g.sky" >>"$TMP/g1.sky"
lcmpack -q --slo "$TMP/g.slo" --capacity cores=150,mem=1000000 --at 2026-01-05 "$TMP/g1.sky" -o "$TMP/n1.csv"
lcmpack -q --plan "$TMP/n1.csv" --slo "$TMP/g.slo" --capacity cores=150,mem=1000000 --at 2026-01-05 "$TMP/g.sky" -o "$TMP/n2.csv"
tcheck "next night: old rows byte-identical" sh -c 'n=$(head -n -1 "$1" | wc -c); head -n -1 "$1" | cmp -n "$n" - "$2"' _ "$TMP/n1.csv" "$TMP/n2.csv"
tcheck "next night: validator" $PY "$V" "$TMP/n2.csv" --sky "$TMP/g.sky" --slo "$TMP/g.slo" --cap 150,1000000
lcmpack -q --plan "$TMP/n1.csv" --slo "$TMP/g.slo" --capacity cores=150,mem=1000000 --at 2026-01-05 "$TMP/g.sky" -o "$TMP/n3.csv" --improve 3
tcheck "next night --improve: old rows byte-identical" sh -c 'n=$(head -n -1 "$1" | wc -c); head -n -1 "$1" | cmp -n "$n" - "$2"' _ "$TMP/n1.csv" "$TMP/n3.csv"
tcheck "next night --improve: validator" $PY "$V" "$TMP/n3.csv" --sky "$TMP/g.sky" --slo "$TMP/g.slo" --cap 150,1000000
tcheck "a day later once rows expire" sh -c 'lcmpack --plan "$1" --capacity cores=150,mem=1000000 --at 2026-01-07 2>&1 >/dev/null | grep -q "[1-9][0-9]* expired"' _ "$TMP/n2.csv"

for seed in 1 2; do
    tracegen requests --seed $seed --count 30 --set rigid=1 --set gangs=0 --set hourly=0.3 --set offkilter=0 \
        --set maxc=20 --set problematic=0 --truth "$TMP/r$seed.slo" >"$TMP/r$seed.sky"
    lcmpack -q --slo "$TMP/r$seed.slo" --capacity cores=22,mem=60000 --ends 0 "$TMP/r$seed.sky" -o "$TMP/r$seed.csv"
    tcheck "rigid jobs = brute force (seed $seed)" sh -c '
        "$1" "$2" "$3.sky" "$3.slo" 22 60000 86400 60 | sort >"$3.exp"
        awk -F, "NR>1 && \$3!=\"end\" && \$4==0 {print \$2\",\"\$6\",\"\$11}" "$3.csv" | sort | cmp - "$3.exp"' \
        _ $PY "$ROOT/tests/check/plan_bruteforce.py" "$TMP/r$seed"
done

# Against the offline optimum (tests/check/plan_milp.py, GLPK): the bench's
# worst instance in input order (seed 5: 1.41x the optimum), polished with
# --improve, is no better than the optimum (the MILP and the plan agree on the
# cost) and within the issue's 1.25x.
tracegen requests --seed 5 --count 20 --set step=300 --set rigid=1 --set gangs=0 --set offkilter=0 \
    --set problematic=0 --set hourly=0.2 --truth "$TMP/m5.slo" >"$TMP/m5.sky"
tcheck "--improve within 1.25x of the MILP optimum" sh -c '
    opt=$("$1" "$ROOT/tests/check/plan_milp.py" "$2.sky" "$2.slo" 1000 10000000 86400 300 60 | sed -n "s/^optimum \([0-9.]*\).*/\1/p")
    peak=$(lcmpack --improve 10 --slo "$2.slo" --step 300 --capacity cores=1000,mem=10000000 --ends 0 "$2.sky" \
        -o /dev/null 2>&1 | sed -n "s/.*peak cost \([0-9.]*\) at.*/\1/p")
    awk -v o="$opt" -v p="$peak" "BEGIN { exit !(o > 0 && p >= o - 0.00005 && p <= 1.25 * o) }"' _ $PY "$TMP/m5"

# The interval bound of the bench (tests/check/plan_ebound.py): at least the
# area bound, at most the MILP optimum (it is a lower bound on every plan),
# on the MILP's instance and one more.  On the rigid example above with B
# halved (2 + 2 containers) it is the hand-worked 0.5, first found on
# [0, 60) s (X's window is exactly its 8 stages long, so its stage 1 holds
# 4 of 8 cores at step 0 in every plan), above the area bound
# (32 + 4) / 10 / 8 = 0.45; and 0.5 is what the plan reaches.
tracegen requests --seed 2 --count 20 --set step=300 --set rigid=1 --set gangs=0 --set offkilter=0 \
    --set problematic=0 --set hourly=0.2 --truth "$TMP/m2.slo" >"$TMP/m2.sky"
for m in m5 m2; do
    tcheck "interval bound between area and MILP optimum ($m)" sh -c '
        opt=$("$1" "$ROOT/tests/check/plan_milp.py" "$2.sky" "$2.slo" 1000 10000000 86400 300 60 | sed -n "s/^optimum \([0-9.]*\).*/\1/p")
        "$1" "$ROOT/tests/check/plan_ebound.py" "$2.sky" "$2.slo" 1000 10000000 86400 300 |
            awk -v o="$opt" "{ n++; b = \$2; a = \$NF; sub(/\\)/, \"\", a) } END { exit !(n == 1 && o > 0 && a > 0 && b >= a - 1e-9 && b <= o + 1e-9) }"' _ $PY "$TMP/$m"
done
t "interval bound: hand-worked" 0 '' 'bound 0.5 at [0, 60) s  (area bound 0.45)' '' bash -c '"$1" "$2/tests/check/plan_ebound.py" <(sed "s/^B,\(.*\),4\$/B,\1,2/" "$3/rigid.sky.csv") "$3/rigid.slo.csv" 8 100000 600 60 - 60' _ $PY "$ROOT" "$D"
t "interval bound: the plan reaches it" 0 '' '0.5000' '' bash -c 'lcmpack --improve 2 --slo "$1/rigid.slo.csv" --lcm 10m --capacity cores=8,mem=100000 <(sed "s/^B,\(.*\),4\$/B,\1,2/" "$1/rigid.sky.csv") -o /dev/null 2>&1 | sed -n "s/.*peak cost \([0-9.]*\) at.*/\1/p"' _ "$D"
# The LP relaxation of the same model (tests/check/plan_cgbound.py, column
# generation): on the hand-worked case it converges to the 0.5 the plan
# reaches; on the MILP instances its bound lies between the area bound and
# the optimum, and the master's value is at least the bound.
t "lp bound (column generation): hand-worked" 0 '' 'ok' '' bash -c '"$1" "$2/tests/check/plan_cgbound.py" <(sed "s/^B,\(.*\),4\$/B,\1,2/" "$3/rigid.sky.csv") "$3/rigid.slo.csv" 8 100000 600 60 - 2>/dev/null |
    awk "{ n++; b = \$3; m = \$5; a = \$NF; sub(/\\)/, \"\", a) } END { if (n == 1 && b == 0.5 && m == 0.5 && a == 0.45) print \"ok\" }"' _ $PY "$ROOT" "$D"
for m in m5 m2; do
    tcheck "lp bound between area and MILP optimum ($m)" sh -c '
        opt=$("$1" "$ROOT/tests/check/plan_milp.py" "$2.sky" "$2.slo" 1000 10000000 86400 300 60 | sed -n "s/^optimum \([0-9.]*\).*/\1/p")
        "$1" "$ROOT/tests/check/plan_cgbound.py" "$2.sky" "$2.slo" 1000 10000000 86400 300 - 10 2>/dev/null |
            awk -v o="$opt" "{ n++; b = \$3; m = \$5; a = \$NF; sub(/\\)/, \"\", a) } END { exit !(n == 1 && o > 0 && a > 0 && b >= a - 1e-9 && b <= o + 1e-9 && m >= b - 1e-9) }"' _ $PY "$TMP/$m"
done

# ---- input and usage errors -----------------------------------------------------
t "capacity required"        64 '' '' 'the cluster capacity is required' lcmpack --slo "$D/one.slo.csv" "$D/one.sky.csv"
t "bad capacity"             64 '' '' "invalid value for --capacity: 'cores=0,mem=5'" lcmpack --capacity cores=0,mem=5 --slo x
t "capacity above 1e15: says so" 64 '' '' "invalid value for --capacity: 'cores=1e16,mem=5' (cores=1e16 is more than 1e15)" \
    lcmpack --capacity cores=1e16,mem=5 --slo x
t "unknown capacity key"     64 '' '' 'unknown key gpus' lcmpack --capacity cores=1,mem=5,gpus=2 --slo x
t "capacity key twice"       64 '' '' "invalid value for --capacity: 'cores=200,mem=819200,cores=3' (key 'cores' given twice)" \
    lcmpack --capacity cores=200,mem=819200,cores=3 --slo x
t "container mem and mem_mb" 64 '' '' "invalid value for --container: 'cores=1,mem=512,mem_mb=1024' (key 'mem_mb' given twice: 'mem' is the same key)" \
    lcmpack --capacity cores=1,mem=5 --container cores=1,mem=512,mem_mb=1024 --slo x
t "lcm not a multiple of step" 64 '' '' '--lcm 3600 s is not a multiple of --step 7 s' \
    lcmpack --capacity cores=1,mem=5 --slo x --lcm 1h --step 7
t "nothing to do"            64 '' '' 'nothing to do' lcmpack --capacity cores=1,mem=5
t "--at not a cycle start"   64 '' '' 'is not the start of a cycle' lcmpack --capacity cores=1,mem=5 --slo x --at 2026-01-05T01:00
# an --at beyond the CSV time bound passed (fmod of 1e308 is 0) and the
# message then printed an empty date: "--at  is not the start of a cycle"
t "--at out of range"        64 '' '' "lcmpack: invalid value for --at: '1e308' (epoch seconds beyond 1e+11, the year 5138)" \
    lcmpack --capacity cores=1,mem=5 --slo x --at 1e308
t "--query out of range"     64 '' '' "invalid value for --query: '-1e300' (epoch seconds beyond" \
    lcmpack --capacity cores=1,mem=5 --plan x --query -1e300
t "missing slo file"         66 '' '' 'lcmpack: /nonexistent.csv: cannot open' lcmpack --capacity cores=1,mem=5 --slo /nonexistent.csv
t "deadline before start"    65 $'job,step,offset,alloc\nj,60,0,1\n' '' "lcmpack: $TMP/s1.csv:2: job 'j': deadline d 5 is not after the earliest start a 10" \
    sh -c 'printf "job,period,a,d\nj,60,10,5\n" >"$1/s1.csv"; lcmpack --capacity cores=1,mem=5000 --slo "$1/s1.csv"' _ "$TMP"
t "window longer than period" 65 '' '' "window d - a = 120 s is longer than the period 60 s" \
    sh -c 'printf "job,period,a,d\nj,60,0,120\n" >"$1/s2.csv"; lcmpack --capacity cores=1,mem=5000 --slo "$1/s2.csv" </dev/null' _ "$TMP"
t "duplicate SLO row"        65 '' '' "job 'j' has a second SLO row (first at line 2)" \
    sh -c 'printf "job,period,a,d\nj,60,0,30\nj,60,0,30\n" >"$1/s3.csv"; lcmpack --capacity cores=1,mem=5000 --slo "$1/s3.csv" </dev/null' _ "$TMP"
t "nan in SLO"               65 '' '' "invalid" \
    sh -c 'printf "job,period,a,d\nj,nan,0,30\n" >"$1/s4.csv"; lcmpack --capacity cores=1,mem=5000 --slo "$1/s4.csv" </dev/null' _ "$TMP"
t "ungrouped skyline"        65 $'job,step,offset,alloc\nA,60,0,1\nB,60,0,1\nA,60,60,1\n' '' "<stdin>:4: input not grouped by job: job 'A' appears again after job 'B'" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "negative alloc"           65 $'job,step,offset,alloc\nA,60,0,-1\n' '' "<stdin>:2: column 'alloc'" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "offsets not increasing"   65 $'job,step,offset,alloc\nA,60,60,1\nA,60,0,1\n' '' "offset 0 not after the previous 60" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "uneven offsets"           65 $'job,step,offset,alloc\nA,60,0,1\nA,60,60,1\nA,60,180,1\n' '' "lcmpack: <stdin>:4: job 'A': skyline offsets are not evenly spaced by its step 60 s (60 s, then 180 s)" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
# the row that breaks the spacing is named by its own line, even after a
# quoted field that holds a newline (row 3 starts on line 5)
t "uneven offsets: the row's own line" 65 $'job,step,offset,alloc,note\nA,60,0,1,"x\ny"\nA,60,60,1,\nA,60,90,1,\n' '' \
    "lcmpack: <stdin>:5: job 'A': skyline offsets are not evenly spaced by its step 60 s (60 s, then 90 s)" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
# like the other bad rows of a skyline, --on-error skip drops the job whole
t "uneven offsets skipped"   0 $'job,step,offset,alloc\nA,60,0,1\nA,60,60,1\nA,60,90,1\nB,60,0,1\n' \
    $'A,,,skipped,,,,,no skyline for the job\nC,,,skipped,,,,,no skyline for the job\nB,periodic,,placed,0,60,0.1,0,' \
    "<stdin>:4: warning: skipped: job 'A': skyline offsets are not evenly spaced" \
    sh -c 'lcmpack --on-error skip --lcm 10m --capacity cores=10,mem=50000 --slo "$1" --report - -o /dev/null | tail -n +2' _ "$D/comp.slo.csv"
# every row the job takes with it is a skipped row, each at its own line:
# A's rows at lines 2 and 3 (read before its bad row 4) and 5 (after it)
# go with it, 4 rows in the rejects and the count, 3 of them dropped (only
# line 2 was written, and 3 counted)
t "skipped job: every row dropped with it is in the rejects and the count" 0 \
    $'job,step,offset,alloc\nA,60,0,1\nA,60,60,1\nA,60,120,x\nA,60,180,1\nB,60,0,1\n' \
    $'<stdin>,4,column \'alloc\': invalid number \'x\'\n<stdin>,2,job \'A\': skyline dropped (its row at line 4 was skipped)\n<stdin>,3,job \'A\': skyline dropped (its row at line 4 was skipped)\n<stdin>,5,job \'A\': dropped (an earlier row of it was skipped)' \
    "lcmpack: 4 rows skipped (--on-error skip): 1 bad, 3 dropped with their job's bad row; file, line and reason in $TMP/drop.rej" \
    sh -c 'lcmpack --on-error skip --rejects "$2/drop.rej" --lcm 10m --capacity cores=10,mem=50000 --slo "$1" -o /dev/null &&
        tail -n +2 "$2/drop.rej"' _ "$D/comp.slo.csv" "$TMP"
t "missing skyline column"   65 $'job,step,alloc\nA,0,1\n' '' "<stdin>:1: missing required column 'offset'" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "job without skyline reported" 0 $'job,step,offset,alloc\nA,60,0,1\n' '*' '' \
    sh -c 'lcmpack -q --lcm 10m --capacity cores=4,mem=5000 --slo "$1" --report "$2/r.csv" >/dev/null && grep -q "^B,,,skipped,,,,,no skyline for the job" "$2/r.csv"' _ "$D/comp.slo.csv" "$TMP"
t "off-kilter without --at skipped" 0 $'job,step,offset,alloc\nK,60,0,1\n' '*' 'give --at TIME' \
    sh -c 'printf "job,period,a,d\nK,3480,0,600\n" >"$1/s5.csv"; lcmpack --capacity cores=1,mem=5000 --slo "$1/s5.csv"' _ "$TMP"
t "skyline resampled to the step" 0 $'job,step,offset,alloc\nA,30,0,2\nA,30,30,2\nA,30,60,4\nA,30,90,4\n' \
    $'A,0,0,1,2\nA,0,60,1,4' '' sh -c 'lcmpack -q --lcm 10m --capacity cores=100,mem=500000 --slo "$1" --max-stretch 1 | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D/comp.slo.csv"
t "period below the step skipped" 0 $'job,step,offset,alloc\nj,60,0,1\n' '*' '' \
    sh -c 'printf "job,period,a,d\nj,0.5,0,0.2\n" >"$1/s6.csv"; lcmpack -q --capacity cores=1,mem=100 --slo "$1/s6.csv" --report "$1/r6.csv" >/dev/null && grep -q "^j,,,skipped,,,,,period shorter than the plan step" "$1/r6.csv"' _ "$TMP"
t "absurd skyline offset"    65 $'job,step,offset,alloc\nA,60,0,1\nA,60,1e300,1\n' '' "<stdin>:3: column 'offset': number '1e300' out of range" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "absurd skyline span"      65 $'job,step,offset,alloc\nA,1e13,0,1\nA,1e13,1e13,1\n' '' "job 'A': skyline spans 2e+13 s" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "absurd alloc"             65 $'job,step,offset,alloc\nA,60,0,1e9\n' '' "column 'alloc': '1e9' is too large (at most 1e+08)" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
# The skyline's step column: each row holds its alloc for `step` seconds.  A
# one-row skyline of 4 containers with step 120 on the 60 s plan is two
# stages of 4 container-steps (8 in all; the plan step would give 4): with
# --max-stretch 1 both at full parallelism, 4 containers at 0 and at 60 s.
t "skyline step honoured"    0 $'job,step,offset,alloc\nA,120,0,4\n' $'A,0,0,1,4\nA,0,60,1,4' '' \
    sh -c 'lcmpack -q --lcm 10m --capacity cores=100,mem=500000 --slo "$1" --max-stretch 1 | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D/comp.slo.csv"
# Two rows of 90 s (alloc 2, then 4) on a 60 s plan: stage 0 = [0,60) holds
# 2*60/60 = 2; stage 1 = [60,120) holds 2*30/60 + 4*30/60 = 3, max 4; stage
# 2 = [120,180) holds 4*60/60 = 4.  --max-stretch 1: 2, 3, 4 containers.
t "skyline step 90 on a 60 s plan" 0 $'job,step,offset,alloc\nA,90,0,2\nA,90,90,4\n' $'A,0,0,1,2\nA,0,60,1,3\nA,0,120,1,4' '' \
    sh -c 'lcmpack -q --lcm 10m --capacity cores=100,mem=500000 --slo "$1" --max-stretch 1 | awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$4\",\"\$6\",\"\$10\",\"\$11}"' _ "$D/comp.slo.csv"
t "skyline step missing column" 65 $'job,offset,alloc\nA,0,1\n' '' "<stdin>:1: missing required column 'step'" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "skyline step nan"         65 $'job,step,offset,alloc\nA,nan,0,1\n' '' "<stdin>:2: column 'step': invalid number 'nan'" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "skyline step zero"        65 $'job,step,offset,alloc\nA,0,0,1\n' '' "<stdin>:2: column 'step': must be positive, got '0'" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "skyline step negative"    65 $'job,step,offset,alloc\nA,-5,0,1\n' '' "<stdin>:2: column 'step': must be positive, got '-5'" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "skyline step 1e300"       65 $'job,step,offset,alloc\nA,1e300,0,1\n' '' "<stdin>:2: column 'step': number '1e300' out of range" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "skyline step changes"     65 $'job,step,offset,alloc\nA,60,0,1\nA,30,60,1\n' '' "<stdin>:3: job 'A': column 'step' changes within the job (60 s, then 30 s)" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "offsets apart from the step" 65 $'job,step,offset,alloc\nA,30,0,1\nA,30,60,1\n' '' "job 'A': skyline offsets are not evenly spaced by its step 30 s" \
    lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "SLO period 1e300"         65 '' '' "s7.csv:2: job 'j': period 1e+300 s is longer than a year" \
    sh -c 'printf "job,period,a,d\nj,1e300,0,30\n" >"$1/s7.csv"; lcmpack --capacity cores=1,mem=5000 --slo "$1/s7.csv" </dev/null' _ "$TMP"
# --max-requests: the third job of comp.sky.csv (line 6) is one too many for 2;
# one-off instances count too: K (period 3480 s, a = 0) has two instances
# opening in the cycle at 104400 = 29 h (30 * 3480 and 31 * 3480 = 107880).
t "--max-requests refuses"   65 '' '' "lcmpack: $D/comp.sky.csv:6: more than 2 requests (--max-requests)" \
    lcmpack --max-requests 2 --lcm 10m --capacity cores=4,mem=100000 --slo "$D/comp.slo.csv" "$D/comp.sky.csv"
t "--max-requests enough"    0 '' '*' '' \
    lcmpack -q --max-requests 4 --lcm 10m --capacity cores=4,mem=100000 --slo "$D/comp.slo.csv" "$D/comp.sky.csv"
t "--max-requests instances" 65 '' '' "lcmpack: $D/once.sky.csv:2: more than 1 requests (--max-requests; job 'K' has one per instance)" \
    lcmpack --max-requests 1 --lcm 1h --at 104400 --capacity cores=4,mem=100000 --slo "$D/once.slo.csv" "$D/once.sky.csv"
# the request over the limit is named where it is: an --adhoc file on
# standard input is <stdin> (was "-:3"); A, B and C are 3 requests (X is
# skipped), Q1 the 4th, Q2 at line 3 the 5th
printf 'job,arrival,deadline,containers,duration\nQ1,2026-01-05T01:00:00Z,2026-01-05T03:00:00Z,2,10m\nQ2,2026-01-05T01:00:00Z,2026-01-05T03:00:00Z,2,10m\n' > "$TMP/mr-ad.csv"
t "--max-requests: an ad-hoc request on stdin" 65 "@$TMP/mr-ad.csv" '' "lcmpack: <stdin>:3: more than 4 requests (--max-requests)" \
    lcmpack --max-requests 4 --capacity cores=40,mem=100000 --slo "$D/comp.slo.csv" "$D/comp.sky.csv" --adhoc - --at 2026-01-05 -o /dev/null
# under --on-error skip the limit is not a bad row: it stops at the job
# that passes it (it used to be skipped to the rejects, and every later
# job with it, exit 0)
t "--max-requests under --on-error skip" 65 '' '' "lcmpack: $D/comp.sky.csv:6: more than 2 requests (--max-requests)" \
    lcmpack --on-error skip --max-requests 2 --lcm 10m --capacity cores=4,mem=100000 --slo "$D/comp.slo.csv" "$D/comp.sky.csv" -o /dev/null
# a one-off instance whose window closed before --now is no request: J
# (every 1000 s, window [0, 900] s) has three instances open at --now
# 105700 in the cycle at 104400 (105, 106, 107: windows closing at 105900,
# 106900, 107900), the limit; K (every 5000 s, [0, 600] s) has one, 21,
# closed at 105600: skipped, not a request.  It used to be refused as the
# fourth request.
t "--max-requests: a closed instance is no request" 0 '' \
    $'K,once,21,skipped\nJ,once,105,placed\nJ,once,106,placed\nJ,once,107,placed' '' bash -c '
    lcmpack -q --max-requests 3 --lcm 1h --at 104400 --now 105700 --capacity cores=4,mem=100000 \
        --slo <(printf "job,period,a,d\nJ,1000,0,900\nK,5000,0,600\n") <(printf "job,step,offset,alloc\nJ,60,0,1\nK,60,0,1\n") \
        -o /dev/null --report - | tail -n +2 | cut -d, -f1-4'
t "--max-requests 0"         64 '' '' "invalid value for --max-requests: '0'" \
    lcmpack --max-requests 0 --capacity cores=4,mem=100000 --slo "$D/comp.slo.csv" "$D/comp.sky.csv"
t "empty skyline input"      65 '' '' 'empty input' lcmpack --capacity cores=1,mem=5000 --slo "$D/comp.slo.csv"
t "-q is silent"             0 '' '*' '' lcmpack -q --slo "$D/comp.slo.csv" --lcm 10m --capacity cores=4,mem=100000 "$D/comp.sky.csv"
t "help ends with examples"  0 '' '*' '' sh -c 'lcmpack --help | grep -q "lcmpack --plan plan.csv --remove"'

# ---- --stable, --yarn-delta, --horizon (the nightly job's options) ----------------
# Hand-worked: a 1-day cycle of 60 s steps, room for all.  A: 10 steps of 4
# (area 40) in [0, 2 h]; B: 20 steps of 2 (area 40) in [1 h, 4 h]; C: 5 of 3.
# Next night A has one step of 6 (area 42: +5.0%, within 10%: kept byte for
# byte), B doubles (area 80: +100.0%: moved), C is gone (removed).  YARN:
# one update (B), one delete (C), nothing for A.
S="$TMP/stab"; mkdir -p "$S"
printf 'job,period,a,d,status\nA,86400,0,7200,actionable\nB,86400,3600,14400,actionable\nC,86400,0,3600,actionable\n' > "$S/slo1.csv"
printf 'job,period,a,d,status\nA,86400,0,7200,actionable\nB,86400,3600,14400,actionable\n' > "$S/slo2.csv"
awk 'BEGIN { print "job,step,offset,alloc"; for (i = 0; i < 10; i++) print "A,60," 60*i ",4";
             for (i = 0; i < 20; i++) print "B,60," 60*i ",2"; for (i = 0; i < 5; i++) print "C,60," 60*i ",3" }' > "$S/sky1.csv"
awk 'BEGIN { print "job,step,offset,alloc"; for (i = 0; i < 10; i++) print "A,60," 60*i "," (i == 3 ? 6 : 4);
             for (i = 0; i < 20; i++) print "B,60," 60*i ",4" }' > "$S/sky2.csv"
SC="--capacity cores=100,mem=1000000"
lcmpack -q --slo "$S/slo1.csv" $SC "$S/sky1.csv" -o "$S/p1.csv"
t "stable: A kept, B moved, C removed" 0 '' '*' 'lcmpack: --stable 10%: 1 kept, 1 moved (1 placed again), 0 new, 1 removed' \
    lcmpack --plan "$S/p1.csv" --stable 10% --slo "$S/slo2.csv" $SC "$S/sky2.csv" --at 2026-01-05 --report "$S/r2.csv" --yarn-delta "$S/d2" -o "$S/p2.csv"
tcheck "stable: the report says why (A's span counted from the plan here)" bash -c '
    len=$(awk -F, "\$2 == \"A\" && \$3 == \"periodic\"" "$1/p1.csv" | wc -l)
    want="C,periodic,,removed,no request tonight (--stable)
A,periodic,,kept,\"area +5.0%, needs 10 of $len steps (0.0% of the work past them), inside [a, d]\"
B,periodic,,moved,area +100.0% (more than 10%)"
    got=$(awk -F, -v OFS=, "NR > 1 { r = \$9; for (i = 10; i <= NF; i++) r = r \",\" \$i; print \$1, \$2, \$3, \$4, r }" "$1/r2.csv")
    [ "$got" = "$want" ] || { echo "$got"; exit 1; }' _ "$S"
# (audit, session 20) a job whose SLO is still a request but which has no
# skyline tonight (a usage export cut short) lost its reservation as "no
# request tonight": a gap in the data is not a job that left
t "stable: a job with its SLO but no skyline keeps its reservation" 0 '' \
    $'C,,,skipped,no skyline for the job\nC,periodic,,kept,no skyline tonight, its SLO is still a request: last night\'s reservation stands\ndelete 0' '*' bash -c '
    lcmpack --plan "$1/p1.csv" --stable 10% --slo "$1/slo1.csv" $2 "$1/sky2.csv" --at 2026-01-05 --report - \
        --yarn-delta "$1/dnos" -o "$1/pnos.csv" | awk -F, "\$1 == \"C\" { r = \$9; for (i = 10; i <= NF; i++) r = r \",\" \$i; gsub(/\"/, \"\", r); print \$1, \$2, \$3, \$4, r }" OFS=,
    echo delete $(wc -l < "$1/dnos/delete.jsonl")
    diff <(grep ",C,periodic," "$1/p1.csv") <(grep ",C,periodic," "$1/pnos.csv")' _ "$S" "$SC"
tcheck "stable: A's rows byte-identical, C's gone" bash -c 'diff <(grep ",A,periodic," "$1") <(grep ",A,periodic," "$2") && ! grep -q ",C,periodic," "$2"' _ "$S/p1.csv" "$S/p2.csv"
t "delta: B updated, C deleted, nothing submitted" 0 '' $'0 1 1' '' \
    sh -c 'echo $(wc -l < "$1/submit.jsonl") $(wc -l < "$1/update.jsonl") $(wc -l < "$1/delete.jsonl")' _ "$S/d2"
# --yarn-base: the delta against the plan the RM holds, when it is not
# --plan (last night's delta never POSTed): a re-run of night 2 from p2 is
# an empty delta against p2, and night 2's delta again against p1
t "--yarn-base: the delta against the plan the RM holds" 0 '' $'0 0 0\nsame as night 2' '' bash -c '
    lcmpack -q --plan "$1/p2.csv" --stable 10% --slo "$1/slo2.csv" $2 "$1/sky2.csv" --at 2026-01-05 -o /dev/null --yarn-delta "$1/d3" &&
    echo $(cat "$1/d3/submit.jsonl" | wc -l) $(cat "$1/d3/update.jsonl" | wc -l) $(cat "$1/d3/delete.jsonl" | wc -l) &&
    lcmpack -q --plan "$1/p2.csv" --stable 10% --slo "$1/slo2.csv" $2 "$1/sky2.csv" --at 2026-01-05 -o /dev/null \
        --yarn-delta "$1/d4" --yarn-base "$1/p1.csv" &&
    for f in submit update delete; do cmp "$1/d2/$f.jsonl" "$1/d4/$f.jsonl" || exit 1; done && echo same as night 2' _ "$S" "$SC"
t "--yarn-base needs --yarn-delta" 64 '' '' '--yarn-base needs --yarn-delta' lcmpack --plan "$S/p2.csv" --yarn-base "$S/p1.csv" $SC -o /dev/null
tcheck "delta: update is B's, API fields and types" sh -c 'grep -q "\"reservation-name\":\"B\"" "$2/update.jsonl" && $1 "$3" update "$2/update.jsonl" "$4" 1767571200 && $1 "$3" delete "$2/delete.jsonl"' _ "$PY" "$S/d2" "$ROOT/tests/check/yarn_api.py" "$S/p2.csv"
tcheck "reservation-id: reservation_0_ + FNV-1a 64 of the job, low 62 bits (computed here)" $PY -c '
import json, sys
def fnv(s):
    h = 14695981039346656037
    for c in s.encode():
        h = ((h ^ c) * 1099511628211) % 2**64
    return h & (2**62 - 1)
u = json.loads(open(sys.argv[1] + "/update.jsonl").readline())
d = json.loads(open(sys.argv[1] + "/delete.jsonl").readline())
assert u["reservation-id"] == "reservation_0_%04d" % fnv("B"), u["reservation-id"]
assert d["reservation-id"] == "reservation_0_%04d" % fnv("C"), d["reservation-id"]
' "$S/d2"
t "stable re-run: nothing moves" 0 '' '*' 'lcmpack: YARN delta in' \
    lcmpack --plan "$S/p2.csv" --stable 10% --slo "$S/slo2.csv" $SC "$S/sky2.csv" --at 2026-01-05 --yarn-delta "$S/d3" -o "$S/p3.csv"
tcheck "stable re-run: plan byte-identical, empty delta" sh -c 'cmp "$1/p2.csv" "$1/p3.csv" && ! [ -s "$1/d3/submit.jsonl" ] && ! [ -s "$1/d3/update.jsonl" ] && ! [ -s "$1/d3/delete.jsonl" ]' _ "$S"
t "stable 1%: A moves too" 0 '' '*' '--stable 1%: 0 kept, 2 moved' \
    lcmpack --plan "$S/p1.csv" --stable 1% --slo "$S/slo2.csv" $SC "$S/sky2.csv" -o /dev/null
t "stable as a fraction" 0 '' '*' '--stable 10%: 1 kept' \
    lcmpack --plan "$S/p1.csv" --stable 0.1 --slo "$S/slo2.csv" $SC "$S/sky2.csv" -o /dev/null
t "stable: window moved away" 0 '' '*' '' sh -c '
    printf "job,period,a,d,status\nA,86400,40000,50000,actionable\nB,86400,3600,14400,actionable\n" > "$1/slo3.csv"
    lcmpack -q --plan "$1/p1.csv" --stable 10% --slo "$1/slo3.csv" --capacity cores=100,mem=1000000 "$1/sky1.csv" --report "$1/r3.csv" -o /dev/null
    grep -q "^A,periodic,,moved,.*no longer inside the new window \[40000, 50000\] s" "$1/r3.csv"' _ "$S"
t "stable and replan exclude each other" 64 '' '' '--stable and --replan exclude each other' \
    lcmpack --plan "$S/p1.csv" --stable 10% --replan --slo "$S/slo2.csv" $SC "$S/sky2.csv"
t "bad --stable" 64 '' '' "stable" lcmpack --plan "$S/p1.csv" --stable x --slo "$S/slo2.csv" $SC "$S/sky2.csv"
t "yarn-delta needs --at" 64 '' '' '--yarn-delta needs --at' lcmpack --slo "$S/slo2.csv" $SC "$S/sky2.csv" --yarn-delta "$S/d4"
# --cluster-timestamp T: every id is reservation_T_<hash>, in the bodies of
# --format yarn as in the delta (--format yarn wrote reservation_0_ whatever
# T was, so yarn.jsonl and yarn/*.jsonl named different reservations)
t "cluster timestamp: --format yarn and --yarn-delta give the same ids" 0 '' $'A\nB' '' bash -c '
    lcmpack -q --plan "$1/p2.csv" --capacity cores=100,mem=1000000 --at 2026-01-05 --format yarn \
        --cluster-timestamp 1767000000000 -o "$1/ts.jsonl" &&
    lcmpack -q --plan "$1/p2.csv" --capacity cores=100,mem=1000000 --at 2026-01-05 --remove A --remove B \
        --cluster-timestamp 1767000000000 --yarn-delta "$1/tsd" -o /dev/null &&
    python3 - "$1/ts.jsonl" "$1/tsd/delete.jsonl" <<EOF
import json, sys
def fnv(s):
    h = 14695981039346656037
    for c in s.encode():
        h = ((h ^ c) * 1099511628211) % 2**64
    return h & (2**62 - 1)
want = {"reservation_1767000000000_%04d" % fnv(j): j for j in "AB"}
bodies = {}
for l in open(sys.argv[1]):
    b = json.loads(l)
    bodies[b["reservation-id"]] = b["reservation-definition"]["reservation-name"]
deleted = sorted(json.loads(l)["reservation-id"] for l in open(sys.argv[2]))
assert sorted(bodies) == deleted == sorted(want), (bodies, deleted)
assert all(want[i] == bodies[i] for i in deleted), bodies
print("\n".join(sorted(bodies.values())))
EOF' _ "$S"
# --horizon: K every 7 h, window [0, 10 min]: instances opening in [at, at + 48 h)
# (computed here) are all reserved; the default horizon is one cycle.
t "horizon 48h: every instance opening in it" 0 '' '*' '' sh -c '
    printf "job,period,a,d,status\nK,25200,0,600,actionable\n" > "$1/k.csv"; printf "job,step,offset,alloc\nK,60,0,1\n" > "$1/ksky.csv"
    lcmpack -q --slo "$1/k.csv" --capacity cores=10,mem=100000 "$1/ksky.csv" --at 2026-01-05 --horizon 48h -o "$1/k48.csv"
    lcmpack -q --slo "$1/k.csv" --capacity cores=10,mem=100000 "$1/ksky.csv" --at 2026-01-05 -o "$1/k24.csv"
    want() { python3 -c "import math,sys; at=1767571200; h=int(sys.argv[1]); print(\" \".join(str(n) for n in range(math.ceil(at/25200), (at+h)//25200 + 1) if n*25200 < at+h))" $1; }
    got() { awk -F, "NR > 1 && \$3 == \"once\" { print \$4 }" "$1" | uniq | tr "\n" " " | sed "s/ $//"; }
    [ "$(got "$1/k48.csv")" = "$(want 172800)" ] && [ "$(got "$1/k24.csv")" = "$(want 86400)" ]' _ "$S"
# --adhoc: capacity 10 cores; P (periodic, daily) must run 10 containers for
# 60 min in [0, 1 h] of every day: it fills the first hour.  Q (ad-hoc) needs
# 10 containers for 30 min in [at, at + 2 h]: only [1 h, 2 h] is left, so its
# 300 container-steps must all lie there.  E's deadline is before --at:
# expired.  Z needs 10 containers for 90 min in [at, at + 90 min]: no room:
# rejected.  Placed after P although listed first.  Next night (--at + 1 d)
# Q's once reservation has ended: expired and dropped.
A="$TMP/adhoc"; mkdir -p "$A"
printf 'job,period,a,d,status\nP,86400,0,3600,actionable\n' > "$A/slo.csv"
awk 'BEGIN { print "job,step,offset,alloc"; for (i = 0; i < 60; i++) print "P,60," 60*i ",10" }' > "$A/sky.csv"
printf 'job,arrival,deadline,containers,duration\nQ,2026-01-05T00:00:00Z,2026-01-05T02:00:00Z,10,30m\nE,2026-01-04T00:00:00Z,2026-01-04T05:00:00Z,1,60\nZ,2026-01-05T00:00:00Z,2026-01-05T01:30:00Z,10,90m\n' > "$A/req.csv"
AC="--capacity cores=10,mem=1000000"
t "adhoc: placed on what periodic reservations leave" 0 '' '*' '' \
    lcmpack -q --slo "$A/slo.csv" $AC "$A/sky.csv" --adhoc "$A/req.csv" --at 2026-01-05 --report "$A/r.csv" -o "$A/p.csv"
t "adhoc: decisions" 0 '' $'E,adhoc,expired\nP,periodic,placed\nQ,adhoc,placed\nZ,adhoc,rejected' '' \
    awk -F, -v OFS=, 'NR > 1 { print $1, $2, $4 }' "$A/r.csv"
tcheck "adhoc: Q's 300 container-steps all in [1 h, 2 h] of 2026-01-05" bash -c '
    awk -F, "\$2 == \"Q\" { n += \$11; if (\$5 != 20458 || \$6 < 3600 || \$6 >= 7200) bad = 1 } END { exit !(n == 300 && !bad) }" "$1"' _ "$A/p.csv"
tcheck "adhoc: at most 10 cores at any offset (summed here)" bash -c '
    awk -F, "NR > 1 && \$3 != \"end\" { l[\$6] += \$11 * \$12 } END { for (t in l) if (l[t] > 10) exit 1 }" "$1"' _ "$A/p.csv"
t "adhoc: expired the next night" 0 '' '*' '' \
    lcmpack -q --plan "$A/p.csv" $AC --at 2026-01-06 --report "$A/r2.csv" -o "$A/p2.csv"
# (run without --adhoc: Q is still reported as the ad-hoc reservation it
# was, from its period, the cycle; it read "once")
tcheck "adhoc: Q gone, P kept" bash -c 'grep -q "^Q,adhoc,20458,expired" "$1" && ! grep -q ",Q," "$2" && grep -q ",P,periodic," "$2"' _ "$A/r2.csv" "$A/p2.csv"
t "adhoc needs --at" 64 '' '' '--adhoc needs --at' lcmpack --slo "$A/slo.csv" $AC "$A/sky.csv" --adhoc "$A/req.csv"
# --now, the time of the run (the nightly job plans from midnight and runs
# at 01:30).  The RM refuses a body whose deadline is not after the time it
# is POSTed (Hadoop 3's ReservationInputValidator); dated from --at, every
# hourly body had its deadline in the past.  Worked by hand on the 4 h plan
# above (H hourly, window [0, 600] s, at 60 s; B4 every 4 h, [3600, 3660] s)
# at 01:30 (at + 5400 s): H's first instance whose deadline (n x 3600 + 600)
# is after 5400 is n = 2: arrival at + 7260 s, deadline at + 7800 s; B4's
# (n x 14400 + 3660) is n = 1: arrival at + 18000 s, deadline at + 18060 s.
t "--now 01:30: periodic bodies dated from their first instance still ahead" 0 '' \
    $'B4 1767589200000 1767589260000 14400000\nH 1767578460000 1767579000000 3600000' '' bash -c '
    lcmpack -q --plan "$1" --capacity cores=4,mem=100000 --format yarn --at 2026-01-05 --now 2026-01-05T01:30:00Z |
        python3 -c "
import json, sys
for l in sys.stdin:
    d = json.loads(l)[\"reservation-definition\"]
    print(d[\"reservation-name\"], d[\"arrival\"], d[\"deadline\"], d[\"recurrence-expression\"])"' _ "$TMP/hourly.csv"
# a deadline at --now is not after it (review, 2026-12-04: at 00:10, H's
# first instance, deadline at + 600, was still the one its body was dated
# from): at 00:09:59 H is dated from instance 0 (arrival at + 60, deadline
# at + 600), at 00:10 from instance 1 (at + 3660, at + 4200); B4's
# deadline (at + 3660) is ahead at both
t "--now at a deadline: dated from the next instance" 0 '' \
    $'00:09:59 B4 1767574800000 1767574860000 H 1767571260000 1767571800000\n00:10:00 B4 1767574800000 1767574860000 H 1767574860000 1767575400000' '' bash -c '
    for n in 00:09:59 00:10:00; do
        printf "%s" $n
        lcmpack -q --plan "$1" --capacity cores=4,mem=100000 --format yarn --at 2026-01-05 --now 2026-01-05T${n}Z |
            python3 -c "
import json, sys
for l in sys.stdin:
    d = json.loads(l)[\"reservation-definition\"]
    print(\"\", d[\"reservation-name\"], d[\"arrival\"], d[\"deadline\"], end=\"\")"
        echo
    done' _ "$TMP/hourly.csv"
# the ad-hoc plan: Q's reservation (10 containers, [3660, 5460) s of Jan 5,
# deadline 02:00) is under way at 01:20, a body; it has run by 01:31:
# expired, no body (and no delete: the RM drops it).  P (daily, [0, 1 h]) is
# dated from Jan 6 at either time (deadlines shown: Jan 6 01:00, Jan 5 02:00)
t "--now: a one-off reservation over by then expires" 0 '' \
    $'01:20 P 1767661200000 Q#20458 1767578400000\n01:31 P 1767661200000' '' bash -c '
    for n in 01:20 01:31; do
        printf "%s" $n
        lcmpack -q --plan "$1" --capacity cores=10,mem=1000000 --format yarn --at 2026-01-05 \
            --now 2026-01-05T$n:00Z | grep -o "\"deadline\":[0-9]*,\"reservation-name\":\"[^\"]*\"" |
            sed "s/\"deadline\":\([0-9]*\),\"reservation-name\":\"\([^\"]*\)\"/ \2 \1/" | sort | tr -d "\n"
        echo
    done' _ "$A/p.csv"
# an ad-hoc request is placed from --now on: Q's window opens at 00:00, but
# at 00:45 the first hour's P leaves [01:00, 02:00]; at 01:40 only
# [01:40, 02:00]: 20 minutes for Q's 30: refused (placed from --at, it was
# reserved at 01:01-01:31, over before the run)
t "--now: ad-hoc requests are placed from it on" 0 '' $'00:45 Q placed 3600\n01:40 Q rejected ' '' bash -c '
    for n in 00:45 01:40; do
        lcmpack -q --slo "$1/slo.csv" --capacity cores=10,mem=1000000 "$1/sky.csv" --adhoc "$1/req.csv" \
            --at 2026-01-05 --now 2026-01-05T$n:00Z -o /dev/null --report - | awk -F, -v n=$n "\$1 == \"Q\" { print n, \$1, \$4, \$5 }"
    done' _ "$A"
# off-kilter instances (K every 7 h, window [0, 600] s; instances opening
# in the --at cycle: 02:00, 09:00, 16:00, 23:00) at --now 02:05: the 02:00
# one is under way, placed from 02:05 (not before: a re-run at 02:05 finds
# it there); at 02:30 its window has closed: skipped, not placed in the past
t "--now: off-kilter instances from it on, a closed window skipped" 0 '' \
    $'02:05 placed 7500  4\n02:30 skipped  its window closed before --now 3' '' bash -c '
    printf "job,period,a,d,status\nK,25200,0,600,actionable\n" > "$1/kn.csv"; printf "job,step,offset,alloc\nK,60,0,1\n" > "$1/knsky.csv"
    for n in 02:05 02:30; do
        lcmpack -q --slo "$1/kn.csv" --capacity cores=10,mem=1000000 "$1/knsky.csv" --at 2026-01-05 \
            --now 2026-01-05T$n:00Z --yarn-delta "$1/knd" -o /dev/null --report "$1/kn.rep" &&
        awk -F, -v n=$n -v s=$(wc -l < "$1/knd/submit.jsonl") "\$3 == 70142 { print n, \$4, \$5, \$9, s }" "$1/kn.rep"
    done' _ "$A"
# an instance that opened since --at and ran before --now, its window still
# open, is served: it stays (spent, kept) and is not placed again.  K2 every
# 7 h, window [0, 1 h], one step: the instance opening at 02:00 is placed at
# 02:00 by a run at 02:00; a run at 02:30 finds it over, window open until
# 03:00 (it used to be expired and placed again, at 02:30: served twice, and
# the delta updated a reservation the RM had dropped when it ended); its
# reason names --now, the time it was decided from
t "--now: an instance that ran since --at is served, not placed again" 0 '' \
    $'placed 7200\nkept 7200 "ran before --now: its request is served (kept, without load, until its deadline)"\n0 0 0' '' bash -c '
    printf "job,period,a,d,status\nK2,25200,0,3600,actionable\n" > "$1/k2.csv"; printf "job,step,offset,alloc\nK2,60,0,1\n" > "$1/k2sky.csv"
    run() { lcmpack -q --slo "$1/k2.csv" --capacity cores=10,mem=1000000 "$1/k2sky.csv" --at 2026-01-05 --stable 10% \
                --report - "${@:2}" | awk -F, "\$3 == 70142 { print \$4, \$5 (\$9 != \"\" ? \" \" \$9 \",\" \$10 \",\" \$11 : \"\") }"; }
    run "$1" --now 2026-01-05T02:00:00Z -o "$1/k2a.csv" --yarn-delta "$1/k2d0"
    run "$1" --now 2026-01-05T02:30:00Z --plan "$1/k2a.csv" -o "$1/k2b.csv" --yarn-delta "$1/k2d"
    echo $(wc -l < "$1/k2d/submit.jsonl") $(wc -l < "$1/k2d/update.jsonl") $(wc -l < "$1/k2d/delete.jsonl")' _ "$A"
# an id whose old reservation the RM has archived is submitted, not updated.
# J every 5 h (18000 s, off-kilter), window [4000, 7200] s; night 2 reads its
# period as 18000.17 s, which renumbers the instances: J#98203 was Jan 6
# 01:07 (over by the run at 01:30) and is now Jan 6 04:45.  The old one
# expires ("ended before --now") and the RM has dropped it, so the new
# J#98203 is a submit (it was an update of an id the RM no longer had: the
# thirty-night simulator at 1,000 jobs, job00050 and job00732)
t "--yarn-delta: an archived id placed again is a submit" 0 '' \
    $'98203 expired\n98203 placed\nsubmit 1 update 0' '' bash -c '
    printf "job,step,offset,alloc\n" > "$1/jsky.csv"; for o in 0 60 120 180 240; do echo "J,60,$o,1" >> "$1/jsky.csv"; done
    printf "job,period,a,d\nJ,18000,4000,7200\n" > "$1/j1.csv"; printf "job,period,a,d\nJ,18000.17,4000,7200\n" > "$1/j2.csv"
    lcmpack -q --slo "$1/j1.csv" --capacity cores=10,mem=1000000 "$1/jsky.csv" --at 2026-01-05 --horizon 48h -o "$1/jp1.csv" &&
    lcmpack -q --plan "$1/jp1.csv" --stable 10% --slo "$1/j2.csv" --capacity cores=10,mem=1000000 "$1/jsky.csv" \
        --horizon 48h --at 2026-01-06 --now 2026-01-06T01:30:00Z -o /dev/null --report - --yarn-delta "$1/jd" |
        awk -F, "\$3 == 98203 { print \$3, \$4 }"
    echo submit $(grep -c "\"J#98203\"" "$1/jd/submit.jsonl") update $(grep -c "\"J#98203\"" "$1/jd/update.jsonl")' _ "$A"
# (audit, session 20) a periodic job named x#19640 had the id of one-off
# instance 19640 of a job x (both hashed "x#19640"): a re-run on unchanged
# input sent an update and a delete, and retiring x#19640 deleted x's
# one-off at the RM.  The periodic one now hashes "x#19640" and a NUL byte;
# the ids are worked out here apart, in Python, from yarn.h's rule.
t "--yarn-delta: a periodic job named x#19640 and x's one-off 19640 have distinct ids" 0 '' \
    $'ids ok\nrerun 0 0 0\nretire x#19640: delete 1 ok' '' bash -c '
    printf "job,period,a,d\nx,90000,0,1800\nx#19640,3600,0,1800\n" > "$1/col.slo"; printf "job,period,a,d\nx,90000,0,1800\n" > "$1/col3.slo"
    printf "job,step,offset,alloc\nx,60,0,5\nx#19640,60,0,2\n" > "$1/col.sky"
    C=(--capacity cores=100,mem=1000000 "$1/col.sky" --at 2026-01-05)
    lcmpack -q --slo "$1/col.slo" "${C[@]}" -o "$1/col.plan" &&
    lcmpack -q --plan "$1/col.plan" --capacity cores=100,mem=1000000 --format yarn --at 2026-01-05 > "$1/col.jsonl" &&
    python3 - "$1/col.jsonl" <<PY || exit 1
import json, sys
def fnv(b):
    h = 14695981039346656037
    for c in b: h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "reservation_0_%04d" % (h & 0x3FFFFFFFFFFFFFFF)
got = {}
for l in open(sys.argv[1]):
    b = json.loads(l); d = b["reservation-definition"]
    got[(d["reservation-name"], "recurrence-expression" in d)] = b["reservation-id"]
want = {("x#19640", True): fnv(b"x#19640\0"), ("x#19640", False): fnv(b"x#19640")}
assert got == want and len(set(got.values())) == 2, (got, want)
print("ids ok")
PY
    lcmpack -q --plan "$1/col.plan" --stable 10% --slo "$1/col.slo" "${C[@]}" -o /dev/null --yarn-delta "$1/coly" &&
    echo rerun $(cat "$1/coly/submit.jsonl" | wc -l) $(cat "$1/coly/update.jsonl" | wc -l) $(cat "$1/coly/delete.jsonl" | wc -l)
    grep -v "^x#" "$1/col.sky" > "$1/col3.sky"  # retired: no SLO row, no skyline (a skyline alone keeps it)
    lcmpack -q --plan "$1/col.plan" --stable 10% --slo "$1/col3.slo" --capacity cores=100,mem=1000000 "$1/col3.sky" \
        --at 2026-01-05 -o /dev/null --yarn-delta "$1/coly3" &&
    id=$(grep "\"recurrence-expression\"" "$1/col.jsonl" | sed "s/.*\"reservation-id\":\"\([^\"]*\)\".*/\1/") &&
    echo "retire x#19640: delete $(wc -l < "$1/coly3/delete.jsonl") $(grep -q "\"$id\"" "$1/coly3/delete.jsonl" && echo ok)"' _ "$A"
# Two job names whose FNV-1a 64 hashes are equal (found with about 2^31
# tries, Pollard's rho with distinguished points, 2026-11-30; equal in all
# 64 bits, checked here in Python): both bodies went out under one
# reservation-id, and the re-run on the same input sent an update and a
# delete.  Now the first name in byte order keeps the id, the other takes
# the hash of its name, a NUL and "1" (yarn.h, RESERVATION ID), said in a
# warning; the re-run's delta is empty.
t "--yarn-delta: two job names that collide under FNV-1a get distinct ids, a re-run an empty delta" 0 '' \
    $'ids ok\nsubmit 2\nrerun 0 0 0\nalone: reservation_0_3497953186137569839\nwith j21: update 1 submit 1 delete 0' \
    "'j31c29820c46fd4fb' takes reservation_0_3497953186137569839 instead" bash -c '
    printf "job,period,a,d\nj31c29820c46fd4fb,86400,0,7200\nj21fce07f01484a78,86400,3600,14400\n" > "$1/fc.slo"
    awk "BEGIN { print \"job,step,offset,alloc\"; for (i = 0; i < 10; i++) print \"j31c29820c46fd4fb,60,\" 60*i \",4\";
                 for (i = 0; i < 20; i++) print \"j21fce07f01484a78,60,\" 60*i \",2\" }" > "$1/fc.sky"
    C=(--capacity cores=100,mem=1000000 "$1/fc.sky" --at 2026-01-05)
    lcmpack -q --slo "$1/fc.slo" "${C[@]}" -o "$1/fc.plan" --yarn-delta "$1/fcd" || exit 1
    python3 - "$1/fcd/submit.jsonl" <<PY || exit 1
import json, sys
def fnv(b):
    h = 14695981039346656037
    for c in b: h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h
assert fnv(b"j31c29820c46fd4fb") == fnv(b"j21fce07f01484a78")
rid = lambda b: "reservation_0_%04d" % (fnv(b) & 0x3FFFFFFFFFFFFFFF)
got = {json.loads(l)["reservation-definition"]["reservation-name"]: json.loads(l)["reservation-id"] for l in open(sys.argv[1])}
want = {"j21fce07f01484a78": rid(b"j21fce07f01484a78"), "j31c29820c46fd4fb": rid(b"j31c29820c46fd4fb\0" b"1")}
assert got == want, (got, want)
print("ids ok")
PY
    echo submit $(wc -l < "$1/fcd/submit.jsonl")
    python3 "$2/tests/check/yarn_api.py" submit "$1/fcd/submit.jsonl" > /dev/null || exit 1
    lcmpack -q --plan "$1/fc.plan" --stable 10% --slo "$1/fc.slo" "${C[@]}" -o /dev/null --yarn-delta "$1/fcr" &&
    echo rerun $(cat "$1/fcr/submit.jsonl" | wc -l) $(cat "$1/fcr/update.jsonl" | wc -l) $(cat "$1/fcr/delete.jsonl" | wc -l)
    # j31 alone keeps its own id; when j21 comes, it takes the id (an update
    # with j21'"'"'s body) and j31 is submitted under its second id
    grep -v j21 "$1/fc.slo" > "$1/fc1.slo"
    lcmpack -q --slo "$1/fc1.slo" "${C[@]}" -o "$1/fc1.plan" && lcmpack --plan "$1/fc1.plan" "${C[@]:0:2}" --at 2026-01-05 \
        --format yarn -o - 2>/dev/null | grep -q "\"reservation_0_740030223412131788\"" &&
    lcmpack -q --plan "$1/fc1.plan" --stable 10% --slo "$1/fc.slo" "${C[@]}" -o /dev/null --yarn-delta "$1/fc2" 2>/dev/null &&
    echo alone: $(sed "s/.*\"reservation-id\":\"\([^\"]*\)\".*/\1/" "$1/fc2/submit.jsonl") &&
    echo with j21: update $(grep -c j21fce07f01484a78 "$1/fc2/update.jsonl") submit $(grep -c j31c29820c46fd4fb "$1/fc2/submit.jsonl") \
        delete $(cat "$1/fc2/delete.jsonl" | wc -l)
    lcmpack --plan "$1/fc.plan" "${C[@]:0:2}" --at 2026-01-05 --format yarn -o /dev/null' _ "$A" "$ROOT"
t "--horizon needs --at" 64 '' '' '--horizon needs --at' \
    lcmpack --slo "$A/slo.csv" $AC "$A/sky.csv" --horizon 48h -o /dev/null
t "--now needs --at" 64 '' '' '--now needs --at' \
    lcmpack --plan "$A/p.csv" $AC --now 2026-01-05T02:00:00Z -o /dev/null
t "--now before --at" 64 '' '' '--now is before --at' \
    lcmpack --plan "$A/p.csv" $AC --at 2026-01-05 --now 2026-01-04T23:00:00Z -o /dev/null
# (audit, session 20) a request whose duration is longer than its window
# stopped the whole run (exit 65, no plan); it is a rejected row now, with
# the ad-hoc file's fixes worked by hand: 5 containers x 2 h in [02:00,
# 03:00] needs 120 steps of the window's 60: a deadline of at least 04:00,
# or 10 containers at once (600 container-steps over 60 steps)
t "adhoc: a duration longer than its window is rejected, the others placed" 0 '' \
    $'ok1,adhoc,20459,placed\ntoolong,adhoc,20459,rejected,,,,,"window [7200, 10800] s holds 60 whole steps of 60 s, fewer than the 120 the request needs; fixes in the ad-hoc file: a deadline of at least 2026-01-06T04:00:00Z, or at least 10 containers at once for its 600 container-steps"' \
    '1 rejected' sh -c '
    printf "job,arrival,deadline,containers,duration\nok1,2026-01-06T02:00:00Z,2026-01-06T06:00:00Z,5,1h\ntoolong,2026-01-06T02:00:00Z,2026-01-06T03:00:00Z,5,2h\n" > "$1/req5.csv"
    lcmpack --slo "$1/slo.csv" --capacity cores=100,mem=1000000 "$1/sky.csv" --adhoc "$1/req5.csv" --at 2026-01-06 \
        -o /dev/null --report - | grep -E "^(ok1|toolong)," | sed "s/^\(ok1,adhoc,20459,placed\),.*/\1/"' _ "$A"
# an ad-hoc request whose window the run's time cut says so (it gave the
# cut window's fixes in the ad-hoc file, as if the file were wrong): Q
# ([01:00, 01:30], 2 containers for 20 min = 20 steps) at --now 01:15 has
# [4500, 5400] s left, 15 steps; R ([23:50 the day before, 00:10], 15
# steps) at --at 00:00 has [86400, 87000] of its cycle's [85800, 87000],
# 10 steps; S ([01:10, 01:20], 15 steps) is too short in the file as well:
# its own window's fixes (a deadline of 01:10 + 15 min, or 30
# container-steps over its 10 steps: 3 at once)
printf 'job,arrival,deadline,containers,duration\nQ,2026-01-06T01:00:00Z,2026-01-06T01:30:00Z,2,20m\nR,2026-01-05T23:50:00Z,2026-01-06T00:10:00Z,2,15m\nS,2026-01-06T01:10:00Z,2026-01-06T01:20:00Z,2,15m\n' > "$TMP/cut.csv"
t "adhoc: a window cut by --now or --at says so" 0 '' \
    $'R,adhoc,20458,rejected,,,,,"cut by --at: --at leaves [86400, 87000] s of its window [85800, 87000] s, 10 whole steps of 60 s, fewer than the 15 the request needs"\n--\nQ,adhoc,20459,rejected,,,,,"cut by --now: --now leaves [4500, 5400] s of its window [3600, 5400] s, 15 whole steps of 60 s, fewer than the 20 the request needs"\nS,adhoc,20459,rejected,,,,,"window [4200, 4800] s holds 10 whole steps of 60 s, fewer than the 15 the request needs; fixes in the ad-hoc file: a deadline of at least 2026-01-06T01:25:00Z, or at least 3 containers at once for its 30 container-steps"' '' sh -c '
    lcmpack -q --slo "$1/slo.csv" --capacity cores=100,mem=1000000 "$1/sky.csv" --adhoc "$2" --at 2026-01-06 \
        -o /dev/null --report - | grep -E "^R,"; echo --
    lcmpack -q --slo "$1/slo.csv" --capacity cores=100,mem=1000000 "$1/sky.csv" --adhoc "$2" --at 2026-01-06 \
        --now 2026-01-06T01:15:00Z -o /dev/null --report - | grep -E "^[QS],"' _ "$A" "$TMP/cut.csv"
# a duration longer than the cycle (1e308 s reached an int64 cast: the
# sanitizer build's cell probe) is a rejected row that says so
t "adhoc: a duration longer than the cycle is rejected, said" 0 '' \
    $'big,adhoc,20459,rejected,,,,,"its duration is longer than the plan\'s cycle (86400 s): fixes in the ad-hoc file: requests of at most a cycle each, or more containers at once"' \
    '*' sh -c '
    printf "job,arrival,deadline,containers,duration\nbig,2026-01-06T02:00:00Z,2026-01-06T03:00:00Z,5,1e308\n" > "$1/req6.csv"
    lcmpack --slo "$1/slo.csv" --capacity cores=100,mem=1000000 "$1/sky.csv" --adhoc "$1/req6.csv" --at 2026-01-06 \
        -o /dev/null --report - | grep "^big,"' _ "$A"
t "adhoc: deadline before arrival" 65 '' '' "req2.csv:2: job 'B': deadline" sh -c '
    printf "job,arrival,deadline,containers,duration\nB,2026-01-05T02:00:00Z,2026-01-05T01:00:00Z,1,60\n" > "$1/req2.csv"
    lcmpack --slo "$1/slo.csv" --capacity cores=10,mem=1000000 "$1/sky.csv" --adhoc "$1/req2.csv" --at 2026-01-05' _ "$A"
# fuzz9: a window that opened before --at.  S needs 10 containers for 30 min
# in [Jan 4 23:00, Jan 5 02:00]; --at is Jan 5 00:00 and P fills Jan 5's
# first hour, so only [1 h, 2 h] of Jan 5 (cycle 20458) is both future and
# free: its 300 container-steps must all lie there.  It was placed at 23:00
# of Jan 4 (cycle 20457), before --at: "placed", yet nothing reserved ahead.
# Its instance stays 20457, the cycle of its arrival (its identity, S#20457,
# the same whatever --at is); its rows lie in cycle 20458.
t "adhoc: a window open before --at is placed after --at" 0 '' '300 0' '' sh -c '
    printf "job,arrival,deadline,containers,duration\nS,2026-01-04T23:00:00Z,2026-01-05T02:00:00Z,10,30m\n" > "$1/req4.csv"
    lcmpack -q --slo "$1/slo.csv" --capacity cores=10,mem=1000000 "$1/sky.csv" --adhoc "$1/req4.csv" \
        --at 2026-01-05 | awk -F, "\$2 == \"S\" { n += \$11; if (\$4 != 20457 || \$5 != 20458 || \$6 < 3600 || \$6 >= 7200) bad++ } END { print n, bad + 0 }"' _ "$A"
# fuzz9: a positive duration under 1e-9 steps (1e-8 s) rounded to 0 steps:
# "placed" with no row at all.  It needs one step: 3 containers x 1 step = 3
# container-steps, all after P's hour.
t "adhoc: a 1e-8 s duration reserves one step" 0 '' '3 0' '' sh -c '
    printf "job,arrival,deadline,containers,duration\nT,2026-01-05T00:00:00Z,2026-01-05T02:00:00Z,3,1e-8\n" > "$1/req3.csv"
    lcmpack -q --slo "$1/slo.csv" --capacity cores=10,mem=1000000 "$1/sky.csv" --adhoc "$1/req3.csv" \
        --at 2026-01-05 | awk -F, "\$2 == \"T\" { n += \$11; if (\$6 < 3600) bad++ } END { print n, bad + 0 }"' _ "$A"

# Ad-hoc identity and nights (audit, session 15).  One ad-hoc request big,
# 50 containers x 2 h in [Jan 7 12:00, Jan 8 10:00], on a plan of an hourly
# and a daily job (100 cores).  Night 1 (--at Jan 7) places it on Jan 7.
# Before: night 2 (--at Jan 8) expired that reservation and placed the
# request again (its window is still open) as a new one, big#20461 (the
# instance came from the arrival clipped to --at), a second 50 x 2 h
# reservation and a YARN submit.  Now its identity is the cycle of its
# arrival (big#20460, whatever --at is), and a reservation that ran stays in
# the plan, spent (no load), until the request's deadline passes.
N="$TMP/adnights"; mkdir -p "$N"
printf 'job,period,a,d,status\nhourly,3600,0,1800,actionable\ndaily,86400,3600,14400,actionable\n' > "$N/slo.csv"
awk 'BEGIN { print "job,step,offset,alloc"; for (i = 0; i < 5; i++) print "hourly,60," 60*i ",4";
             for (i = 0; i < 60; i++) print "daily,60," 60*i ",10" }' > "$N/sky.csv"
printf 'job,arrival,deadline,containers,duration\nbig,2026-01-07T12:00:00Z,2026-01-08T10:00:00Z,50,2h\n' > "$N/ad.csv"
NR_=(--stable 10% --slo "$N/slo.csv" --capacity cores=100,mem=409600 "$N/sky.csv" --adhoc "$N/ad.csv")
t "adhoc nights: night 1 places big#20460" 0 '' 'big,adhoc,20460,placed' '*' bash -c '
    lcmpack "$@" --at 2026-01-07 --yarn-delta "$0/y1" -o "$0/p1.csv" --report - | grep ^big, | cut -d, -f1-4' "$N" "${NR_[@]}"
t "adhoc nights: night 2 keeps the spent reservation, places nothing" 0 '' \
    'big,adhoc,20460,kept,43200,50400,0,0,"ran before --at: its request is served (kept, without load, until its deadline)"' \
    '0 submit, 0 update, 0 delete' bash -c '
    lcmpack "$@" --plan "$0/p1.csv" --at 2026-01-08 --yarn-delta "$0/y2" -o "$0/p2.csv" --report - | grep ^big,' \
    "$N" "${NR_[@]}"
tcheck "adhoc nights: the plan still holds big#20460's 120 rows and no other instance" bash -c '
    [ "$(grep -c ",big,once,20460," "$1")" = 120 ] && [ "$(grep -c ",big," "$1")" = 120 ] && cmp -s "$1" "$2"' _ \
    "$N/p2.csv" "$N/p1.csv"
t "adhoc nights: --format yarn submits no body for the spent reservation" 0 '' $'"reservation-name":"hourly"\n"reservation-name":"daily"' \
    '*' bash -c 'lcmpack "$@" --plan "$0/p2.csv" --at 2026-01-08 --format yarn | grep -o "\"reservation-name\":\"[^\"]*\""' \
    "$N" "${NR_[@]}"
t "adhoc nights: a re-run of night 2 is a fixed point" 0 '' '' '0 submit, 0 update, 0 delete' bash -c '
    lcmpack "$@" --plan "$0/p2.csv" --at 2026-01-08 --yarn-delta "$0/y3" -o "$0/p3.csv" &&
    cmp "$0/p2.csv" "$0/p3.csv"' "$N" "${NR_[@]}"
# the spent reservation has no load: on Jan 8 a request for 95 containers
# over 12:00-14:00 (the time of day big ran on Jan 7) fits beside the hourly
# job's 4 (it did not fit while big's 50 counted on every day)
printf 'job,arrival,deadline,containers,duration\nbig,2026-01-07T12:00:00Z,2026-01-08T10:00:00Z,50,2h\nfull,2026-01-08T12:00:00Z,2026-01-08T14:00:00Z,95,2h\n' \
    > "$N/ad2.csv"
t "adhoc nights: the spent reservation holds no capacity" 0 '' 'full,adhoc,20461,placed,43200,50400' '*' bash -c '
    lcmpack "$@" --plan "$0/p2.csv" --adhoc "$0/ad2.csv" --at 2026-01-08 -o /dev/null --report - | grep ^full, |
    cut -d, -f1-6' "$N" --stable 10% --slo "$N/slo.csv" --capacity cores=100,mem=409600 "$N/sky.csv"
t "adhoc nights: night 3 expires it, one row" 0 '' 'big,adhoc,20460,expired,43200,50400,,,ended before --at' '*' bash -c '
    lcmpack "$@" --plan "$0/p2.csv" --at 2026-01-09 -o "$0/p4.csv" --report - | grep ^big, &&
    ! grep -q ",big," "$0/p4.csv"' "$N" "${NR_[@]}"
# under way at --at: [Jan 7 23:00, Jan 8 04:00], 2 h; placed from 23:00, it
# runs across midnight: night 2 keeps it (with --stable and with --replan,
# which before freed it and placed it again)
printf 'job,arrival,deadline,containers,duration\nadB,2026-01-07T23:00:00Z,2026-01-08T04:00:00Z,10,2h\n' > "$N/adB.csv"
for opt in --stable=10% --replan; do
    t "adhoc nights: under way at --at, kept ($opt)" 0 '' \
        'adB,adhoc,20460,kept,82800,90000,0.11,0,under way at --at: kept until it ends' '*' bash -c '
        lcmpack "$1" "${@:2}" --at 2026-01-07 -o "$0/b1.csv" &&
        lcmpack "$1" "${@:2}" --plan "$0/b1.csv" --at 2026-01-08 -o "$0/b2.csv" --report - | grep ^adB, &&
        cmp -s <(grep ,adB, "$0/b1.csv") <(grep ,adB, "$0/b2.csv")' "$N" "$opt" --slo "$N/slo.csv" --capacity cores=100,mem=409600 "$N/sky.csv" \
        --adhoc "$N/adB.csv"
done
# --replan frees a job requested again, but not its one-off whose window
# opened before --at and that has not started: no request of the night asks
# for it (before, it left the plan with no report row).  K: period 900 s on
# a 600 s cycle, window [300, 1200] of its period, centred (problematic,
# rigid): instance 0 at [660, 840], instance 1 at [1560, 1740].  At --at
# 600 instance 0's window has opened (300) and it starts at 660; instance
# 1 is requested again and re-placed.
RP="$TMP/replan-underway"; mkdir -p "$RP"
printf 'job,period,a,d,status\nK,900,300,1200,actionable\n' > "$RP/slo.csv"
printf 'job,step,offset,alloc\nK,60,0,2\nK,60,60,2\nK,60,120,2\n' > "$RP/sky.csv"
RPR=(--slo "$RP/slo.csv" --lcm 10m --capacity cores=4,mem=100000 --problematic K --max-stretch 1 "$RP/sky.csv")
lcmpack -q "${RPR[@]}" --at 0 --horizon 30m -o "$RP/p1.csv"
t "--replan keeps a one-off whose window opened before --at" 0 '' \
    $'K,once,0,kept,660,840,0.5,0,"its window opened before --at: kept, expires when it ends"\nK,once,1,placed,360,540,0.5,0,' \
    '*' bash -c 'lcmpack "$@" --plan "$0/p1.csv" --replan --at 600 --horizon 20m -o "$0/p2.csv" --report - | tail -n +2 &&
    [ "$(grep -c ",K,once,0," "$0/p2.csv")" = 3 ]' "$RP" "${RPR[@]}"
# two requests of one job in one cycle were one reservation id (x#20460
# twice in one YARN submit): refused
printf 'job,arrival,deadline,containers,duration\nx,2026-01-07T10:00:00Z,2026-01-07T12:00:00Z,10,1h\nx,2026-01-07T15:00:00Z,2026-01-07T18:00:00Z,10,1h\n' \
    > "$N/dup.csv"
t "adhoc: two requests of one job in one cycle refused" 65 '' '' \
    "dup.csv:3: job 'x': a second request in the cycle of line 2" \
    lcmpack --slo "$N/slo.csv" --capacity cores=100,mem=409600 "$N/sky.csv" --adhoc "$N/dup.csv" --at 2026-01-07
# --on-error skip: a bad ad-hoc row (a garbled number, a second request of a
# job in one cycle) is skipped to the rejects and the other requests are
# placed; it used to stop the run, and the nightly job lost its whole night.
# Empty cores and mem_mb cells are the default container (they were "missing
# value"), one of the two empty is an error.
printf 'job,arrival,deadline,containers,duration,cores,mem_mb\nok1,2026-01-07T10:00:00Z,2026-01-07T12:00:00Z,10,1h,,\nbad,2026-01-07T10:00:00Z,2026-01-07T12:00:00Z,x5,1h,,\nx,2026-01-07T10:00:00Z,2026-01-07T12:00:00Z,10,1h,2,2048\nx,2026-01-07T15:00:00Z,2026-01-07T18:00:00Z,10,1h,,\nhalf,2026-01-07T10:00:00Z,2026-01-07T12:00:00Z,10,1h,2,\n' \
    > "$N/skip.csv"
t "adhoc --on-error skip: bad rows to the rejects, the rest placed" 0 '' \
    $'ok1,adhoc,20460,placed\nx,adhoc,20460,placed' '*' bash -c '
    lcmpack -q --on-error skip --rejects "$0/skip.rej" "$@" --adhoc "$0/skip.csv" --at 2026-01-07 -o /dev/null --report - |
        grep ",adhoc," | cut -d, -f1-4' "$N" --slo "$N/slo.csv" --capacity cores=100,mem=409600 "$N/sky.csv"
t "adhoc --on-error skip: the rejects name each row" 0 '' \
    "$N/skip.csv,3,column 'containers': invalid number 'x5'
$N/skip.csv,5,job 'x': a second request in the cycle of line 4 (one ad-hoc request per job and cycle of 86400 s: it is the reservation job#cycle; give the requests their own job names)
$N/skip.csv,6,job 'half': column 'mem_mb' empty but not column 'cores' (both: the container; neither: the default, --container)" '' \
    sh -c 'tail -n +2 "$1" | sed "s/\"//g"' _ "$N/skip.rej"
t "adhoc: a garbled number stops the run without --on-error skip" 65 '' '' "skip.csv:3: column 'containers': invalid number 'x5'" \
    lcmpack --slo "$N/slo.csv" --capacity cores=100,mem=409600 "$N/sky.csv" --adhoc "$N/skip.csv" --at 2026-01-07 -o "$N/x.csv"
t "adhoc: empty cores and mem_mb cells are the default container" 0 '' 'ok1,once,20460,1,1024' '' sh -c '
    lcmpack -q --slo "$1" --capacity cores=100,mem=409600 "$2" --adhoc "$3" --at 2026-01-07 -o "$4" &&
    grep -m1 ",ok1," "$4" | cut -d, -f2,3,4,12,13' _ "$N/slo.csv" "$N/sky.csv" <(head -2 "$N/skip.csv") "$N/x.csv"
# --remove: the job is freed and not placed again by the same run (before:
# "removed", then placed again from its SLO row, silently).  The removed
# row names the reservation freed, its kind and place, as every other row
# about a reservation does (it had empty kind, t_start and t_end): daily's
# 60 steps of 10 containers stretched over its window [3600, 14400] s (the
# next case reads the place from q1.csv's rows)
lcmpack -q --slo "$N/slo.csv" --capacity cores=100,mem=409600 "$N/sky.csv" --at 2026-01-07 -o "$N/q1.csv"
t "--remove: freed and not placed again" 0 '' $'daily,periodic,,removed,3600,14400,,,--remove\ndaily,,,skipped,,,,,"--remove: freed tonight, not placed again"\nhourly,periodic,,kept,0,1200,0.01,0,already in the plan (--replan moves it)' \
    '1 skipped, 1 removed' bash -c '
    lcmpack --plan "$0/q1.csv" --remove daily "$@" --at 2026-01-08 --report "$0/rq.csv" -o "$0/q2.csv" &&
    tail -n +2 "$0/rq.csv" && ! grep -q ",daily," "$0/q2.csv"' "$N" --slo "$N/slo.csv" \
    --capacity cores=100,mem=409600 "$N/sky.csv"
tcheck "--remove: the removed row's place is the plan's" bash -c '
    want=$(awk -F, "\$2 == \"daily\" { if (lo == \"\" || \$6 < lo) lo = \$6; if (\$6 + \$7 > hi) hi = \$6 + \$7 } END { print lo \",\" hi }" "$0/q1.csv")
    [ "$(grep "^daily,periodic,,removed," "$0/rq.csv" | cut -d, -f5,6)" = "$want" ]' "$N"
# an off-kilter job's --remove: one row per one-off instance freed, with its
# instance and place (K every 3480 s, one step in [0, 600] s of each period:
# instances 30 and 31 open in the cycle at 104400 s = 29 h, at its offsets 0
# and 3480 = 31 * 3480 - 104400, each placed at its first step)
lcmpack -q --lcm 1h --at 104400 --capacity cores=4,mem=100000 --slo "$D/once.slo.csv" "$D/once.sky.csv" -o "$TMP/rmo1.csv"
t "--remove: one row per one-off reservation freed" 0 '' \
    $'K,once,30,removed,0,60,,,--remove\nK,once,31,removed,3480,3540,,,--remove' '*' bash -c '
    lcmpack --plan "$0" --remove K --capacity cores=4,mem=100000 -o /dev/null --report - | tail -n +2' "$TMP/rmo1.csv"
# a change of period (daily becomes off-kilter, 90000 s) under --stable:
# the old reservation is removed as replaced, not "no request tonight"
sed 's/^daily,86400/daily,90000/' "$N/slo.csv" > "$N/slo_k.csv"
t "--stable: a changed period is reported as replaced" 0 '' \
    $'daily,periodic,,removed,3600,14400,,,"replaced: the job\'s request tonight has another kind or period, placed as a new one"\ndaily,once,19643,placed,43200,54000,0.05,0,' \
    '*' bash -c 'lcmpack --plan "$0/q1.csv" "$@" --at 2026-01-08 -o /dev/null --report - | grep ^daily,' \
    "$N" --stable 10% --slo "$N/slo_k.csv" --capacity cores=100,mem=409600 "$N/sky.csv"
# a one-off instance under way at --at (its window opened before) had no
# report row and was counted nowhere: now kept, with its place and cost
printf 'job,period,a,d,status\nfivehr,18000,600,9000,actionable\n' > "$N/slo5.csv"
awk 'BEGIN { print "job,step,offset,alloc"; for (i = 0; i < 30; i++) print "fivehr,60," 60*i ",6" }' > "$N/sky5.csv"
F5=(--stable 10% --slo "$N/slo5.csv" --capacity cores=100,mem=409600 "$N/sky5.csv" --horizon 48h)
lcmpack -q "${F5[@]}" --at 2026-01-08 -o "$N/f1.csv"
t "--stable: a one-off under way at --at is reported kept" 0 '' \
    'fivehr,once,98222,kept,79980,88200,0.03,0,under way at --at: kept until it ends' \
    '10 requests: 9 placed, 0 rejected, 1 kept' bash -c '
    lcmpack --plan "$0/f1.csv" "$@" --at 2026-01-10 -o /dev/null --report - | grep ^fivehr,once,98222,' "$N" "${F5[@]}"
# (audit, session 20) without --stable the same reservation was kept with
# no report row and counted nowhere (placed + kept fell short of the plan)
t "a one-off under way at --at is reported kept without --stable too" 0 '' \
    'fivehr,once,98222,kept,79980,88200,0.03,0,under way at --at: kept until it ends' \
    '10 requests: 9 placed, 0 rejected, 1 kept' bash -c '
    lcmpack --plan "$0/f1.csv" "$@" --at 2026-01-10 -o /dev/null --report - | grep ^fivehr,once,98222,' "$N" \
    "${F5[@]:2}"
# the same job turns periodic (every 4 h, window [2:10, 2:43] of each 4 h)
# at --now Jan 9 22:30 while its one-off fivehr#98222 (window opening Jan 9
# 22:10) runs, 22:13 to 00:30.  The periodic reservation sits at offset
# 7800 s: the instance of Jan 9 20:00 holds 22:10-22:43 and is the first
# whose deadline (22:43) is after --now.  Dated from it (arrival
# 1767996600000), the RM held the job twice from 22:30 to 22:43 (the known
# gap of session 19); now its body starts with the next instance, Jan 10
# 02:10 (1768011000000), in the delta and in --format yarn alike, and the
# next night (the one-off over) sends nothing
printf 'job,period,a,d,status\nfivehr,14400,7800,9800,actionable\n' > "$N/slo4.csv"
F4=(--stable 10% --slo "$N/slo4.csv" --capacity cores=100,mem=409600 "$N/sky5.csv" --horizon 48h)
t "--yarn-delta: a job turned periodic starts after its one-off under way" 0 '' \
    $'fivehr,once,98222,kept,79980,88200\nfivehr,periodic,,placed,7800,9780\nsubmit 1768011000000\nyarn 1767996780000 1768011000000\nnight 3: 0 0 0' '' bash -c '
    lcmpack -q --plan "$0/f1.csv" "$@" --at 2026-01-09 --now 2026-01-09T22:30:00Z -o "$0/f4.csv" --report - \
        --yarn-delta "$0/y4" | grep -E "^fivehr,(periodic|once,98222)," | cut -d, -f1-6
    arr() { sed -n "s/.*\"arrival\":\([0-9]*\).*/\1/p" "$@" | tr "\n" " " | sed "s/ $//"; }
    echo submit $(arr "$0/y4/submit.jsonl")
    echo yarn $(lcmpack -q --plan "$0/f4.csv" --capacity cores=100,mem=409600 --format yarn --at 2026-01-09 \
        --now 2026-01-09T22:30:00Z | arr)
    lcmpack -q --plan "$0/f4.csv" "$@" --at 2026-01-10 --now 2026-01-10T01:30:00Z -o /dev/null --yarn-delta "$0/y5"
    echo night 3: $(cat "$0/y5/submit.jsonl" "$0/y5/update.jsonl" | wc -l) $(wc -l < "$0/y5/delete.jsonl") \
        $(grep -c . "$0/y5/submit.jsonl")' "$N" "${F4[@]}"
# the summary: one removal count; --improve says when it had nothing to do
# (it printed peaks 0.0000 "before" and "after descent")
# (daily retired: neither its SLO row nor its skyline; a skyline alone keeps
# its reservation, "no SLO row tonight")
grep -v daily "$N/slo.csv" > "$N/slo_nd.csv"
grep -v daily "$N/sky.csv" > "$N/sky_nd.csv"
t "--stable: the summary's removal counts agree" 0 '' '' '0 skipped, 1 removed, 0 expired' \
    lcmpack --plan "$N/q1.csv" --stable 10% --slo "$N/slo_nd.csv" --capacity cores=100,mem=409600 "$N/sky_nd.csv" \
    --at 2026-01-08 -o /dev/null
t "--improve with nothing placed says so" 0 '' '' '--improve: nothing to polish' \
    lcmpack --plan "$N/q1.csv" --stable 10% --improve 5 --slo "$N/slo.csv" --capacity cores=100,mem=409600 \
    "$N/sky.csv" --at 2026-01-08 -o /dev/null

# Windows off the grid (docs/lcmpack.md): three rigid 8-step jobs (2
# containers a step) in an hourly cycle of 60 s steps.  g1 [78, 569.5] s
# (make run's job00000): 491.5 s hold 8 steps, but the grid steps inside are
# [120, 540), 7: the window starts one step early, at 60: [60, 540), the only
# 8-step fit (cost 2/10).  g2 [100, 591.5] likewise [60, 540), never past
# its deadline (not [120, 600)): on top of g1, cost 4/10.  g3 [78, 557]:
# 479 s hold 7 steps: refused as before.
lcmpack --slo "$D/offgrid.slo.csv" --lcm 1h --capacity cores=10,mem=100000 "$D/offgrid.sky.csv" \
    -o "$TMP/og.csv" --report "$TMP/og.rep" 2>/dev/null
t "off grid: g1 starts one step early" 0 '' 'g1,periodic,,placed,60,540,0.2,0,' '' grep '^g1,' "$TMP/og.rep"
t "off grid: g2 starts early too"   0 '' 'g2,periodic,,placed,60,540,0.4,0,' '' grep '^g2,' "$TMP/og.rep"
t "off grid: g3 shorter than 8 steps" 0 '' 'window [78, 557] s holds 7 whole steps of 60 s, fewer than the 8' '' \
    grep -o 'window \[78, 557\] s holds 7 whole steps of 60 s, fewer than the 8' "$TMP/og.rep"
t "off grid: rows at 60..480" 0 '' \
    "$(printf 'g1,0,%s,2,2\n' 60 120 180 240 300 360 420 480; printf 'g2,0,%s,2,2\n' 60 120 180 240 300 360 420 480)" '' \
    cols "$TMP/og.csv"
tcheck "off grid: validator" $PY "$V" "$TMP/og.csv" --sky "$D/offgrid.sky.csv" --slo "$D/offgrid.slo.csv" \
    --cap 10,100000 --report "$TMP/og.rep"
t "off grid: the plan reads back (its windows follow the same rule)" 0 '' '' '3 requests: 0 placed, 1 rejected, 2 kept' \
    lcmpack --plan "$TMP/og.csv" --slo "$D/offgrid.slo.csv" --capacity cores=10,mem=100000 "$D/offgrid.sky.csv" \
    -o "$TMP/og2.csv"

# The deadline a refusal suggests is the least d that is then placed (audit,
# 2026-12): by the rule above a request of n steps fits when n x step <= d -
# a, so d = a + n x step (it said up to one step more: d + the steps
# missing, 3810 s for [3600, 3690], where 3780 fits, and no fix at all for
# a window of no whole step).  g3 [78, 557] needs 8 steps: 78 + 480 = 558.
t "least deadline: off grid g3, 78 + 8 x 60" 0 '' 'a deadline d of at least 558 s' '' \
    grep -o 'a deadline d of at least 558 s' "$TMP/og.rep"
# a 3-step skyline (5 containers a step) on 60 s steps, daily: each window
# [a, d], the d worked by hand (a + 180), the suggestion read back, then
# placed with that d and refused with d - 1 (d - 0.5 for the fractional one)
printf 'job,step,offset,alloc\nj,60,0,5\nj,60,60,5\nj,60,120,5\n' > "$TMP/ld.sky"
tcheck "least deadline: the suggested d is placed, one less is not" bash -c '
    run() { printf "job,period,a,d\nj,86400,%s,%s\n" "$1" "$2" > "$T/ld.slo"
        lcmpack -q --slo "$T/ld.slo" --capacity cores=100,mem=1000000 "$T/ld.sky" -o /dev/null --report "$T/ld.rep" &&
            tail -1 "$T/ld.rep"; }
    T=$1; shift
    while [ $# -gt 0 ]; do
        a=$1 d=$2 want=$3 less=$4; shift 4
        got=$(run "$a" "$d" | sed -n "s/.*a deadline d of at least \([0-9.]*\) s.*/\1/p")
        [ "$got" = "$want" ] || { echo "[$a, $d]: suggested \"$got\", want $want"; exit 1; }
        run "$a" "$got" | grep -q "^j,periodic,,placed," || { echo "[$a, $got] not placed"; exit 1; }
        run "$a" "$less" | grep -q "^j,periodic,,rejected," || { echo "[$a, $less] placed"; exit 1; }
    done' _ "$TMP" 3600 3690 3780 3779  3600 3779 3780 3779  3630 3750 3810 3809  3630 3700 3810 3809 \
    3600 3650 3780 3779  0 150 180 179  3630.5 3700 3810.5 3810
t "least deadline: a window of no whole step names the deadline fix" 0 '' \
    'j,periodic,,rejected,,,,,"window [3600, 3650] s holds no whole 60 s step, fewer than the 3 the skyline needs at its maximum parallelism; fix: a deadline d of at least 3780 s (sloinfer --override)"' '' \
    sh -c 'printf "job,period,a,d\nj,86400,3600,3650\n" > "$1/ld0.slo"
    lcmpack -q --slo "$1/ld0.slo" --capacity cores=100,mem=1000000 "$1/ld.sky" -o /dev/null --report - | tail -1' _ "$TMP"
# an off-kilter job (kind once, --at): each instance's window [2340, 2800]
# (25 instances a day) holds 7 of its 10 steps; d = 2340 + 600 = 2940
t "least deadline: a once job" 0 '' '25' '' sh -c '
    printf "job,period,a,d\nk,3480,2340,2800\n" > "$1/ldk.slo"
    { echo job,step,offset,alloc; for i in 0 1 2 3 4 5 6 7 8 9; do echo k,60,$((i * 60)),4; done; } > "$1/ldk.sky"
    lcmpack -q --slo "$1/ldk.slo" --capacity cores=100,mem=1000000 --at 2026-01-07 "$1/ldk.sky" -o /dev/null \
        --report - | grep -c "^k,once,[0-9]*,rejected,.*a deadline d of at least 2940 s"' _ "$TMP"
# The deadline fix never makes d - a longer than the period (the SLO's
# rule: instance windows never overlap; sloinfer --override refuses it).
# L (every 600 s, window [300, 540]) with a skyline of 11 one-container
# steps needs 660 s: a + 660 = 960 is no fix (d - a 660 > 600), so the
# reason names none and says why; with 10 steps, a + 600 = 900 is the
# fix (d - a = 600, the period itself) and places.  It suggested 960.
printf 'job,period,a,d\nL,600,300,540\n' > "$TMP/lp.slo"
{ echo job,step,offset,alloc; for i in 0 1 2 3 4 5 6 7 8 9 10; do echo L,60,$((i * 60)),1; done; } > "$TMP/lp11.sky"
t "least deadline: never past the period" 0 '' \
    'L,periodic,,rejected,,,,,"window [300, 540] s holds 4 whole steps of 60 s, fewer than the 11 the skyline needs at its maximum parallelism, and no deadline d gives it them: d - a would be at least 660 s, more than its period of 600 s (the most d - a can be); fixes: a skyline of fewer or more recent runs (skyfit --last N, a lower --outlier-k: it is as long as the longest run kept, see longest_run in skyfit --stats), or a job that runs at least 3 containers at once (its 11 container-steps over the 4 steps its window can hold; its skyline peaks at 1), so its runs and next skyline are shorter"' '' \
    sh -c 'lcmpack -q --slo "$1/lp.slo" --lcm 10m --capacity cores=4,mem=100000 "$1/lp11.sky" -o /dev/null --report - | tail -1' _ "$TMP"
t "least deadline: up to the period itself, then placed" 0 '' $'a deadline d of at least 900 s\nL,periodic,,placed,300,900' '' sh -c '
    head -11 "$1/lp11.sky" > "$1/lp10.sky"
    lcmpack -q --slo "$1/lp.slo" --lcm 10m --capacity cores=4,mem=100000 "$1/lp10.sky" -o /dev/null --report - |
        grep -o "a deadline d of at least [0-9]* s" &&
    printf "job,period,a,d\nL,600,300,900\n" > "$1/lp9.slo" &&
    lcmpack -q --slo "$1/lp9.slo" --lcm 10m --capacity cores=4,mem=100000 "$1/lp10.sky" -o /dev/null --report - |
        tail -1 | cut -d, -f1-6' _ "$TMP"
# an off-kilter job the same: K every 700 s, [100, 400], 12 steps (720 s)
t "least deadline: never past the period, once job" 0 '' '6' '' sh -c '
    printf "job,period,a,d\nK,700,100,400\n" > "$1/lpk.slo"
    { echo job,step,offset,alloc; for i in 0 1 2 3 4 5 6 7 8 9 10 11; do echo K,60,$((i * 60)),1; done; } > "$1/lpk.sky"
    lcmpack -q --slo "$1/lpk.slo" --lcm 1h --at 3600 --capacity cores=4,mem=100000 "$1/lpk.sky" -o /dev/null --report - |
        grep -c "^K,once,[0-9]*,rejected,.*no deadline d gives it them: d - a would be at least 720 s, more than its period of 700 s"' _ "$TMP"

# The fewest containers at once a refusal suggests follow the same rule
# (review, 2026-12-04): the window holds floor((d - a) / step) steps when
# the grid starts it a step early, so the fix is ceil(area / those steps),
# not over the grid steps inside (it said 6 for the first case, nothing for
# the second, 5 for the third).  Each worked by hand, then the suggested
# job placed:
# - [78, 569.5] (491.5 s: 8 steps; 7 on the grid), 10 steps of 4 (40
#   container-steps): ceil(40 / 8) = 5; 8 steps of 5 placed at [60, 540)
# - [30, 100] (70 s: 1 step; none on the grid), 2 steps of 2: ceil(4 / 1)
#   = 4; 1 step of 4 placed at [0, 60)
# - ad-hoc [at + 100, at + 400] (300 s: 5 steps; 4 on the grid), 2
#   containers for 10 min (20): ceil(20 / 5) = 4; 4 for 5 min placed at
#   [60, 360)
t "fewest containers: over the steps the window can hold" 0 '' \
    $'5 of 8 steps\nJ,periodic,,placed,60,540\n4 of 1 step\nJ,periodic,,placed,0,60\n4 at once\nW,adhoc,20460,placed,60,360' '' bash -c '
    T=$1; AT=1767744000
    sky() { { echo job,step,offset,alloc; for i in $(seq 0 $(($1 - 1))); do echo J,60,$((i * 60)),$2; done; } > "$T/fc.sky"; }
    run() { printf "job,period,a,d\nJ,3600,%s,%s\n" "$1" "$2" > "$T/fc.slo"
        lcmpack -q --slo "$T/fc.slo" --capacity cores=100,mem=1000000 "$T/fc.sky" -o /dev/null --report - | tail -1; }
    sky 10 4; run 78 569.5 | sed -n "s/.*at least \([0-9]*\) containers at once (its 40 container-steps over the \([0-9]*\) steps its window.*/\1 of \2 steps/p"
    sky 8 5; run 78 569.5 | cut -d, -f1-6
    sky 2 2; run 30 100 | sed -n "s/.*at least \([0-9]*\) containers at once (its 4 container-steps over the \([0-9]*\) step its window.*/\1 of \2 step/p"
    sky 1 4; run 30 100 | cut -d, -f1-6
    printf "job,period,a,d\nP,86400,0,86400\n" > "$T/fc.slo"; printf "job,step,offset,alloc\nP,60,0,1\n" > "$T/fc.sky"
    adhoc() { printf "job,arrival,deadline,containers,duration\nW,%s,%s,%s,%s\n" $((AT + 100)) $((AT + 400)) "$1" "$2" > "$T/fc.req"
        lcmpack -q --slo "$T/fc.slo" --capacity cores=100,mem=1000000 --at $AT --adhoc "$T/fc.req" "$T/fc.sky" \
            -o /dev/null --report - | grep "^W,"; }
    adhoc 2 10m | grep -o "at least [0-9]* containers at once"  | sed "s/at least //; s/ containers//"
    adhoc 4 5m | cut -d, -f1-6' _ "$TMP"

# --adhoc in the skyline form (--adhoc-skyline): the same P fills the first
# hour of the day at 10 cores.  H (ad-hoc, window [at, at + 2 h]) is given by
# a skyfit skyline of two rigid steps: 4 containers (gang 4), then 10 (gang
# 10).  Its 10-container step fits only once P has ended, so the earliest
# end that fits is step 62: 4 containers at 3600 s, 10 at 3660 s (every
# fitting end point ties at peak 1.0; ties go to the earliest end).  H2
# (the same skyline, deadline before --at) expires; G has no skyline and
# no area: refused; a row with containers but no duration: refused.
printf 'job,step,offset,alloc,gang\nH,60,0,4,4\nH,60,60,10,10\nH2,60,0,1,1\n' > "$A/hsky.csv"
printf 'job,arrival,deadline,containers,duration\nH,2026-01-05T00:00:00Z,2026-01-05T02:00:00Z,,\nH2,2026-01-04T00:00:00Z,2026-01-04T05:00:00Z,,\n' > "$A/hreq.csv"
t "adhoc skyline: placed" 0 '' '*' '' \
    lcmpack -q --slo "$A/slo.csv" $AC "$A/sky.csv" --adhoc "$A/hreq.csv" --adhoc-skyline "$A/hsky.csv" \
    --at 2026-01-05 --report "$A/hr.csv" -o "$A/hp.csv"
t "adhoc skyline: decisions" 0 '' $'H2,adhoc,expired\nP,periodic,placed\nH,adhoc,placed' '' \
    awk -F, -v OFS=, 'NR > 1 { print $1, $2, $4 }' "$A/hr.csv"
t "adhoc skyline: H's two steps after P's hour" 0 '' $'20458,3600,4,4\n20458,3660,10,10' '' \
    awk -F, -v OFS=, '$2 == "H" { print $5, $6, $10, $11 }' "$A/hp.csv"
tcheck "adhoc skyline: at most 10 cores at any offset (summed here)" bash -c '
    awk -F, "NR > 1 && \$3 != \"end\" { l[\$6] += \$11 * \$12 } END { for (t in l) if (l[t] > 10) exit 1 }" "$1"' _ "$A/hp.csv"
t "adhoc skyline: no skyline and no area" 65 '' '' "hreq2.csv:2: job 'G': no containers and duration, and no skyline" sh -c '
    printf "job,arrival,deadline\nG,2026-01-05T00:00:00Z,2026-01-05T02:00:00Z\n" > "$1/hreq2.csv"
    lcmpack --slo "$1/slo.csv" --capacity cores=10,mem=1000000 "$1/sky.csv" --adhoc "$1/hreq2.csv" \
        --adhoc-skyline "$1/hsky.csv" --at 2026-01-05 -o /dev/null' _ "$A"
t "adhoc: containers without duration" 65 '' '' "hreq3.csv:2: job 'G': column 'containers' without column 'duration'" sh -c '
    printf "job,arrival,deadline,containers,duration\nG,2026-01-05T00:00:00Z,2026-01-05T02:00:00Z,3,\n" > "$1/hreq3.csv"
    lcmpack --slo "$1/slo.csv" --capacity cores=10,mem=1000000 "$1/sky.csv" --adhoc "$1/hreq3.csv" \
        --at 2026-01-05 -o /dev/null' _ "$A"
t "--adhoc-skyline needs --adhoc" 64 '' '' '--adhoc-skyline needs --adhoc' \
    lcmpack --slo "$A/slo.csv" $AC "$A/sky.csv" --adhoc-skyline "$A/hsky.csv" --at 2026-01-05

# ---- an input without its columns: one line, naming every missing one
# (the SLO, skyline, capacity and ad-hoc readers printed one line per
# missing column: three or four "missing required column" lines; then only
# the first)
printf 'job\nx\n' > "$TMP/nocols.csv"
for c in "--slo $TMP/nocols.csv --capacity cores=1,mem=5 $D/comp.sky.csv|'period', 'a' and 'd'" \
         "--slo $D/comp.slo.csv --capacity cores=1,mem=5 $TMP/nocols.csv|'step', 'offset' and 'alloc'" \
         "--slo $D/comp.slo.csv --lcm 10m --capacity-file $TMP/nocols.csv $D/comp.sky.csv|'t', 'cores' and 'mem_mb'" \
         "--slo $D/comp.slo.csv --lcm 10m --capacity cores=1,mem=5 $D/comp.sky.csv --adhoc $TMP/nocols.csv --at 0|'arrival' and 'deadline'"; do
    # shellcheck disable=SC2086 # the options, split on purpose
    t "no columns: ${c##*|}" 65 '' '' "nocols.csv:1: missing required columns ${c##*|}" lcmpack -q ${c%|*}
    # shellcheck disable=SC2086
    tcheck "no columns: ${c##*|}: one line" bash -c '[ "$(lcmpack -q "$@" 2>&1 >/dev/null | wc -l)" = 1 ]' _ ${c%|*}
done

# ---- one standard input, one standard output.  --slo - with the skyline on
# stdin read the SLOs, then an empty skyline ("missing required column"
# lines); --report - beside the plan on stdout interleaved two tables.
t "stdin twice: --slo - and the skyline" 64 "@$D/comp.sky.csv" '' "lcmpack: only one input can be standard input" \
    lcmpack -q --slo - --lcm 10m --capacity cores=1,mem=5
t "stdin twice: --plan - and --capacity-file -" 64 '' '' "only one input can be standard input" \
    lcmpack -q --plan - --capacity-file - --query 0
t "stdin once: --slo - and a skyline FILE" 0 "@$D/comp.slo.csv" '*' '' \
    lcmpack -q --slo - --lcm 10m --capacity cores=8,mem=100000 "$D/comp.sky.csv"
t "stdout twice: the plan and --report -" 64 '' '' "lcmpack: only one output can be standard output" \
    lcmpack -q --slo "$D/comp.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$D/comp.sky.csv" --report -
t "stdout twice: --query and --load -" 64 '' '' "only one output can be standard output" \
    lcmpack -q --plan "$TMP/cap.csv" --capacity cores=8,mem=100000 --query 0 --load -
t "stdout once: -o FILE and --report -" 0 '' '*' '' \
    lcmpack -q --slo "$D/comp.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$D/comp.sky.csv" --report - -o "$TMP/once.csv"
# --report is committed last: a report that could not be written (a full
# disk) left exit 74 with the new plan already in place of the old one;
# now the report's rows are flushed before any output is
# replaced (as a failed --load keeps the old plan)
echo old > "$TMP/keep.csv"
t "report write error: exit 74, one message" 74 '' '' "lcmpack: /dev/full: write error: No space left on device" \
    lcmpack --slo "$D/comp.slo.csv" --lcm 10m --capacity cores=8,mem=100000 "$D/comp.sky.csv" --report /dev/full -o "$TMP/keep.csv"
tcheck "report write error: the old plan stays" bash -c '[ "$(cat "$1")" = old ]' _ "$TMP/keep.csv"
# a job name that is not UTF-8 (a Latin-1 export) went into the YARN body
# byte for byte: invalid JSON, which the RM refuses; stray bytes are now
# \ufffd, well-formed UTF-8 passes through
printf 'job,period,a,d,status\n\xff\xfejob,3600,0,3000,actionable\nj\xc3\xb6b\xe2\x82\xac\xf0\x9f\x98\x80,3600,0,3000,actionable\nx\xed\xa0\x80y\xc3,3600,0,3000,actionable\n' > "$TMP/u8.slo"
printf 'job,step,offset,alloc\n\xff\xfejob,60,0,3\nj\xc3\xb6b\xe2\x82\xac\xf0\x9f\x98\x80,60,0,3\nx\xed\xa0\x80y\xc3,60,0,3\n' > "$TMP/u8.sky"
t "yarn: names as valid JSON (UTF-8)" 0 '' '"\ufffd\ufffdjob"
"j\u00f6b\u20ac\ud83d\ude00"
"x\ufffd\ufffd\ufffdy\ufffd"' '' bash -c '
    lcmpack -q --slo "$1" --capacity cores=200,mem=819200 "$2" --format yarn --at 2026-01-06 |
    /usr/bin/python3 -c "import sys, json
for l in sys.stdin.buffer: print(json.dumps(json.loads(l)[\"reservation-definition\"][\"reservation-name\"]))"' _ "$TMP/u8.slo" "$TMP/u8.sky"

# ---- a one-off reservation that runs in the next cycle (code review, 2026-11-29)
# "late": period 25 h, window 23:00 (Jan 8) to 03:00 (Jan 9); the capacity is 0
# from 23:00 to 24:00, so LowCost places it at 00:01 (Jan 9): 86460 s from
# the start of the cycle its window opens in.  Its plan rows count from the
# cycle of their first row (Jan 9, t 60).  Before: a --replan re-run that
# rewrote the plan byte for byte gave a YARN "update" (the two counts hashed
# differently); the in-place run (through PLAN.idx) reported the kept
# reservation at 86460 and the plan read whole at 60; at --at Jan 9 the
# in-place run did not report it at all ("0 kept").
NC="$TMP/nc"; mkdir -p "$NC"
printf 'job,period,a,d,status\nlate,90000,43200,57600,actionable\n' > "$NC/slo.csv"
awk 'BEGIN { print "job,step,offset,alloc"; for (i = 0; i < 60; i++) print "late,60," 60 * i ",6" }' > "$NC/sky.csv"
printf 't,cores,mem_mb\n0,100,1000000\n82800,0,1000000\n' > "$NC/cap.csv"
NCR="--slo $NC/slo.csv --capacity-file $NC/cap.csv $NC/sky.csv"
t "next cycle: placed at 00:01 of the next day" 0 '' 'job,kind,instance,status,t_start,t_end,cost,penalty,reason
late,once,19643,placed,86460,90060,0.06,0,' '' lcmpack -q $NCR --at 2026-01-08 -o "$NC/p1.csv" --report -
tcheck "next cycle: its rows count from their own cycle" grep -q '^slokit-plan/1,late,once,19643,20462,60,' "$NC/p1.csv"
cp "$NC/p1.csv" "$NC/p1b.csv"
t "next cycle: --replan that keeps it: empty YARN delta" 0 '' '' "YARN delta in $NC/yd: 0 submit, 0 update, 0 delete (1 unchanged" \
    lcmpack --plan "$NC/p1b.csv" --replan $NCR --at 2026-01-08 -o "$NC/p4.csv" --yarn-delta "$NC/yd"
tcheck "next cycle: --replan wrote the plan byte for byte" cmp "$NC/p1b.csv" "$NC/p4.csv"
for at in 2026-01-08 2026-01-09; do
    lcmpack -q $NCR --at 2026-01-08 -o "$NC/ip.csv"; cp "$NC/ip.csv" "$NC/rd.csv"
    lcmpack --plan "$NC/ip.csv" $NCR --at $at -o "$NC/ip.csv" --report "$NC/ip.rep" 2> "$NC/ip.err"
    lcmpack --no-index --plan "$NC/rd.csv" $NCR --at $at -o "$NC/rd.csv" --report "$NC/rd.rep" 2> "$NC/rd.err"
    tcheck "next cycle, --at $at: the in-place run took the index" grep -q "from the index" "$NC/ip.err"
    t "next cycle, --at $at: in place and read whole report the same" 0 '' "@$NC/rd.rep" '' cat "$NC/ip.rep"
    tcheck "next cycle, --at $at: kept where it was placed" grep -q '^late,once,19643,kept,86460,90060,' "$NC/ip.rep"
    tcheck "next cycle, --at $at: the summaries count it kept" bash -c 'grep -q "1 kept" "$1" && grep -q "1 kept" "$2"' _ "$NC/ip.err" "$NC/rd.err"
done
# --improve lifts and settles reservations; the load it leaves must be the
# one a re-run sums from the plan (in plan order), in --load and in
# PLAN.idx.  Fractional container sizes make the difference visible: the
# --load of the first run, of a re-run reading the plan whole, and of a
# re-run through the index are the same bytes (before, the first differed
# from the re-run in most steps: 49.60000000000001 against 49.6).
/usr/bin/python3 -c '
import random
r = random.Random(3)
slo = open("'"$NC"'/f.slo", "w"); sky = open("'"$NC"'/f.sky", "w")
slo.write("job,period,a,d,status\n"); sky.write("job,step,offset,alloc,cores,mem_mb,gang\n")
for j in range(40):
    per = r.choice([3600, 14400, 86400]); n = r.randint(3, 12); a = r.randrange(0, per // 2, 60)
    slo.write("f%02d,%d,%d,%d,actionable\n" % (j, per, a, min(per, a + n * 60 * r.randint(2, 5))))
    c, m = round(r.uniform(0.1, 0.9), 3), round(r.uniform(100, 900), 3)
    for k in range(n):
        sky.write("f%02d,60,%d,%d,%s,%s,1\n" % (j, 60 * k, r.randint(1, 40), c, m))
'
lcmpack -q --improve 3 --slo "$NC/f.slo" --capacity cores=10000,mem=100000000 "$NC/f.sky" -o "$NC/f.csv" --load "$NC/f1.load"
lcmpack -q --no-index --plan "$NC/f.csv" --slo "$NC/f.slo" --capacity cores=10000,mem=100000000 "$NC/f.sky" -o "$NC/f2.csv" --load "$NC/f2.load"
lcmpack -q --plan "$NC/f.csv" --slo "$NC/f.slo" --capacity cores=10000,mem=100000000 "$NC/f.sky" -o "$NC/f.csv" --load "$NC/f3.load"
tcheck "--improve: the load is the one a re-run reads" cmp "$NC/f1.load" "$NC/f2.load"
tcheck "--improve: ... and the one the index gives" cmp "$NC/f2.load" "$NC/f3.load"
# a repeated instance whose request fields differ (an edit with recomputed
# checksums) was accepted, and a rewrite changed it silently: every row of a
# reservation is checked now.  hourly.csv: B4 at line 2, H's instances 0-3 at
# lines 3-6.
$RC "$TMP/hourly.csv" "$TMP/e6.csv" 5 cores 2
t "instance 2's cores differ: refused" 65 '' '' "e6.csv:5: job 'H': request fields differ between rows of one reservation" \
    lcmpack --plan "$TMP/e6.csv" --capacity cores=4,mem=100000 -o /dev/null
$RC "$TMP/hourly.csv" "$TMP/e7.csv" 3 d 900
t "instance 0's window differs from the rest: refused" 65 '' '' "e7.csv:4: job 'H': request fields differ between rows of one reservation" \
    lcmpack --plan "$TMP/e7.csv" --capacity cores=4,mem=100000 -o /dev/null
# --at is checked against the plan's own cycle when --plan gives it (and
# --lcm is not given): a 1 h plan at 01:00 was refused naming "--lcm 86400"
t "--at on a 1 h plan's cycle, not the default --lcm" 0 '' '*' '' \
    lcmpack -q --plan "$TMP/one.csv" --capacity cores=10,mem=100000 --format yarn --at 2026-01-05T01:00:00Z
t "--at off a 1 h plan's cycle: refused" 64 '' '' "not the start of a cycle" \
    lcmpack -q --plan "$TMP/one.csv" --capacity cores=10,mem=100000 --format yarn --at 2026-01-05T01:30:00Z
# a plan of the default 1 d cycle, no --lcm: --at was not checked at all
# (argp leaves it to the plan, and the plan's check ran only when its lcm
# differed from --lcm's default), and the YARN bodies came 12 h off
for m in "--format yarn" "--query 0" "--remove j1 -o $TMP/x.csv"; do
    t "--at off a 1 d plan's cycle, no --lcm: refused ($m)" 64 '' '' \
        "lcmpack: --at 2026-01-05T12:00:00Z is not the start of a cycle (a multiple of the plan's lcm 86400 s since the epoch)" \
        lcmpack -q --plan "$TMP/hourly1d.csv" --capacity cores=4,mem=100000 --at 2026-01-05T12:00:00Z $m
done
# one container larger than the capacity everywhere: the reason said "no
# free capacity ... (some end points not tried: --ends)", as if --ends helped
printf 'job,period,a,d\nBIG,86400,0,7200\n' > "$TMP/big.slo.csv"
printf 'job,step,offset,alloc,cores,mem_mb\nBIG,60,0,4,200,1024\n' > "$TMP/big.sky.csv"
printf 'job,step,offset,alloc,cores,mem_mb,gang\nBIG,60,0,4,60,1024,2\n' > "$TMP/bigg.sky.csv"
t "a container larger than the capacity: the reason says so" 0 '' \
    "job,kind,instance,status,t_start,t_end,cost,penalty,reason
BIG,periodic,,rejected,,,,,\"a container of cores=200, mem_mb=1024 is larger than the capacity at every step (at most cores=100, mem_mb=409600); fixes: smaller containers (the skyline's cores,mem_mb, or --container) or a larger capacity\"" '' \
    lcmpack -q --slo "$TMP/big.slo.csv" --capacity cores=100,mem=409600 "$TMP/big.sky.csv" -o "$TMP/x.csv" --report -
t "a gang larger than the capacity: the reason says so" 0 '' \
    "job,kind,instance,status,t_start,t_end,cost,penalty,reason
BIG,periodic,,rejected,,,,,\"one gang of 2 containers of cores=60, mem_mb=1024 (cores=120, mem_mb=2048) is larger than the capacity at every step (at most cores=100, mem_mb=409600); fixes: smaller containers (the skyline's cores,mem_mb, or --container) or a larger capacity\"" '' \
    lcmpack -q --slo "$TMP/big.slo.csv" --capacity cores=100,mem=409600 "$TMP/bigg.sky.csv" -o "$TMP/x.csv" --report -
# no memory (or no cores) at any step: smaller containers cannot help, so
# the fix named is a capacity only (it offered "smaller containers" first)
printf 't,cores,mem_mb\n0,100,0\n3600,100,0\n' > "$TMP/nomem.csv"
printf 't,cores,mem_mb\n0,0,409600\n' > "$TMP/nocores.csv"
t "no memory at any step: the only fix named is a capacity" 0 '' \
    "job,kind,instance,status,t_start,t_end,cost,penalty,reason
BIG,periodic,,rejected,,,,,\"a container of cores=200, mem_mb=1024 is larger than the capacity at every step (at most cores=100, mem_mb=0: no memory at any step); fix: a capacity with memory (--capacity or --capacity-file)\"" '' \
    lcmpack -q --slo "$TMP/big.slo.csv" --capacity-file "$TMP/nomem.csv" "$TMP/big.sky.csv" -o "$TMP/x.csv" --report -
t "no cores at any step: the only fix named is a capacity" 0 '' \
    "job,kind,instance,status,t_start,t_end,cost,penalty,reason
BIG,periodic,,rejected,,,,,\"one gang of 2 containers of cores=60, mem_mb=1024 (cores=120, mem_mb=2048) is larger than the capacity at every step (at most cores=0, mem_mb=409600: no cores at any step); fix: a capacity with cores (--capacity or --capacity-file)\"" '' \
    lcmpack -q --slo "$TMP/big.slo.csv" --capacity-file "$TMP/nocores.csv" "$TMP/bigg.sky.csv" -o "$TMP/x.csv" --report -
# a load on a step of zero capacity (--capacity-file) has an infinite cost:
# the warning and the summary printed "cost inf" and "infx"
printf 't,cores,mem_mb\n0,4,100000\n3600,0,0\n7200,4,100000\n' > "$TMP/cap0.csv"
t "a load on zero capacity: cost unbounded, never inf" 0 '' '*' \
    "warning: the plan exceeds the capacity (cost unbounded at t=" \
    lcmpack --plan "$TMP/hourly1d.csv" --capacity-file "$TMP/cap0.csv" --at 2026-01-05 -o "$TMP/x.csv"
tcheck "a load on zero capacity: the summary's peak and ratio unbounded, no inf" sh -c '
    lcmpack --plan "$1" --capacity-file "$2" --at 2026-01-05 -o "$3" 2> "$3.err" &&
    grep -q "peak cost unbounded at t=.*): unbounded; placement" "$3.err" && ! grep -q inf "$3.err"' \
    _ "$TMP/hourly1d.csv" "$TMP/cap0.csv" "$TMP/x.csv"
# (audit, 2026-12) and --load's and --report's cost cells are empty there
# (documented in lcmpack(1), --load and --report: "empty: no finite cost
# (a load on a step of zero capacity)"; it was undocumented).  B4 sits at
# 3600 s, on the step of zero capacity; H's instance at 3660 s too
t "a load on zero capacity: --load's cost cell empty, 0 for no load" 0 '' $'0,0,0,0\n3600,2,2048,\n3660,2,2048,' '' \
    sh -c 'lcmpack -q --plan "$1" --capacity-file "$2" --at 2026-01-05 -o /dev/null --load - | sed -n "2p;62,63p"' \
    _ "$TMP/hourly1d.csv" "$TMP/cap0.csv"
t "a load on zero capacity: --report's cost cell empty" 0 '' \
    $'B4,periodic,,kept,3600,3660,,0\nH,periodic,,kept,60,120,,0' '' \
    sh -c 'lcmpack -q --plan "$1" --stable 10% --slo "$3/hourly.slo.csv" "$3/hourly.sky.csv" --capacity-file "$2" \
        --at 2026-01-05 -o /dev/null --report - | awk -F, -v OFS=, "NR > 1 { print \$1, \$2, \$3, \$4, \$5, \$6, \$7, \$8 }"' \
    _ "$TMP/hourly1d.csv" "$TMP/cap0.csv" "$D"
t "a load on zero capacity: the empty cost cell documented, --load and --report" 0 '' '2' '' \
    grep -c 'empty: no finite cost (a load on a step of zero capacity' "$ROOT/man/lcmpack.1"
# an output that cannot be written: its one error line and no summary of a
# plan it did not write ("6 placed ... plan: 6 reservations" came after
# "cannot create"; since session 36 the missing directory is found before
# the input is read, cli_outputs)
t "failed write: the error alone, no summary" 73 '' '' \
    "lcmpack: $TMP/nodir/x.csv: cannot create: No such file or directory" \
    sh -c 'lcmpack --slo "$1" --capacity cores=4,mem=100000 "$2" -o "$3" 2> "$4"; rc=$?; cat "$4" >&2
        [ "$(wc -l < "$4")" = 1 ] || exit 99; exit $rc' _ "$D/hourly.slo.csv" "$D/hourly.sky.csv" "$TMP/nodir/x.csv" "$TMP/nodir.err"
# --improve with nothing to polish named ad-hoc requests that were not given
t "--improve, nothing new: no ad-hoc named without --adhoc" 0 '' '*' \
    "lcmpack: --improve: nothing to polish (no request placed tonight)
" lcmpack --plan "$TMP/hourly1d.csv" --stable 10% --improve 2 --slo "$D/hourly.slo.csv" --capacity cores=4,mem=100000 \
    "$D/hourly.sky.csv" -o "$TMP/x.csv"
t "--at on a 1 d plan's cycle, no --lcm" 0 '' '*' '' \
    lcmpack -q --plan "$TMP/hourly1d.csv" --capacity cores=4,mem=100000 --format yarn --at 2026-01-05
# before the epoch: accepted, and the plan written (instance -4, cycle -1)
# was then refused by lcmpack itself at its first once row
t "--at before the epoch: refused" 64 '' '' \
    "lcmpack: --at is before the epoch (1970-01-01T00:00:00Z): the plan's instances count from it" \
    lcmpack -q --slo "$D/hourly.slo.csv" --capacity cores=4,mem=100000 "$D/hourly.sky.csv" --at -86400 -o "$TMP/x.csv"
# an ad-hoc reservation that ran before --now, which the RM never held (not
# in --yarn-base): nothing to submit, as --format yarn writes nothing for it
# (before: "1 submit" of an allocation entirely in the past)
printf 'job,arrival,deadline,containers,duration\nX,2026-01-07T20:00:00Z,2026-01-08T12:00:00Z,10,1h\n' > "$NC/ad.csv"
lcmpack -q --slo "$D/hourly.slo.csv" --capacity cores=40,mem=1000000 "$D/hourly.sky.csv" --at 2026-01-07 -o "$NC/n0.csv"
lcmpack -q --plan "$NC/n0.csv" --capacity cores=40,mem=1000000 --at 2026-01-07 --adhoc "$NC/ad.csv" -o "$NC/n1.csv"
tcheck "spent ad-hoc: X placed on night 1 at 20:00" grep -q '^slokit-plan/1,X,once,20460,20460,72000,' "$NC/n1.csv"
t "spent ad-hoc: no submit for it" 0 '' '' "YARN delta in $NC/yb: 0 submit, 0 update, 0 delete" \
    lcmpack --plan "$NC/n1.csv" --capacity cores=40,mem=1000000 --at 2026-01-08 --now 2026-01-08T01:30:00Z \
    --adhoc "$NC/ad.csv" --yarn-delta "$NC/yb" --yarn-base "$NC/n0.csv" -o "$NC/n2.csv"
# a once row's cycle is bounded as times are (|cycle x lcm| <= 1e11 s): a
# re-checksummed cycle of 2^62 - 1 overflowed the distance in steps between
# two rows of one reservation (signed overflow); refused now
$RC "$NC/p1.csv" "$NC/ecyc.csv" 2 cycle 4611686018427387903
t "a once cycle beyond the times read: refused" 65 '' '' "ecyc.csv:2: column 'cycle': invalid value '4611686018427387903'" \
    lcmpack --plan "$NC/ecyc.csv" --capacity cores=100,mem=1000000 -o /dev/null
