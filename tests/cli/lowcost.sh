# lowcost: the quality of LowCost's online placement (lib/morpheus/lowcost,
# through lcmpack).  Placements worked by hand from lowcost.h, and checked
# against the independent brute force tests/check/plan_bruteforce.py and the
# naive online baseline bench/naive_online.py (Python, no shared code).
PY=/usr/bin/python3
V="$ROOT/tests/check/plan_validate.py"
BF="$ROOT/tests/check/plan_bruteforce.py"
NAIVE="$ROOT/bench/naive_online.py"

# The load score against the peak alone.  A 10-step cycle of 100 cores.  X
# (rigid, its window exactly its length) holds 50, 50, 50, 50, 52 containers
# on steps 0-4.  J (rigid: 4 steps of 20 containers) may end by step 8.
# B = 10 / 0.52 (the plan's peak), and a start s gives, with 20 containers
# on each step:
#   s = 0: 70 70 70 70   peak 0.70, score 0.70 + ln(4 (1 - e^-3.846)) / B = 0.7710
#   s = 3: 70 72 20 20   peak 0.72, score 0.7459
#   s = 4: 72 20 20 20   peak 0.72, score 0.72 + ln(0.97864 + 3 e^-13.85 (e^3.846 - 1)) / B = 0.7189
# (s = 1, 2 keep three or four steps near the peak: above 0.7459).  The peak
# alone takes s = 0 and leaves the plan at 0.70 on five steps; the load score
# takes s = 4 (t = 240): 0.72 on one step and X's four steps left at 0.50.
printf 'job,step,offset,alloc,gang\nX,60,0,50,50\nX,60,60,50,50\nX,60,120,50,50\nX,60,180,50,50\nX,60,240,52,52\nJ,60,0,20,20\nJ,60,60,20,20\nJ,60,120,20,20\nJ,60,180,20,20\n' >"$TMP/ls.sky"
printf 'job,period,a,d\nX,600,0,300\nJ,600,0,480\n' >"$TMP/ls.slo"
lcmpack -q --slo "$TMP/ls.slo" --lcm 10m --capacity cores=100,mem=1000000 "$TMP/ls.sky" -o "$TMP/ls.csv"
t "load score: J where the load is low" 0 '' $'J,240,20\nJ,300,20\nJ,360,20\nJ,420,20' '' \
    awk -F, '$2 == "J" { print $2 "," $6 "," $11 }' "$TMP/ls.csv"
tcheck "load score: brute force agrees" sh -c '
    "$1" "$2" "$3/ls.sky" "$3/ls.slo" 100 1000000 600 60 | sort >"$3/ls.exp"
    awk -F, "NR>1 && \$3!=\"end\" {print \$2\",\"\$6\",\"\$11}" "$3/ls.csv" | sort | cmp - "$3/ls.exp"' _ $PY "$BF" "$TMP"
t "load score: the peak alone takes s = 0" 0 '' $'J,0,20\nJ,60,20\nJ,120,20\nJ,180,20' '' \
    sh -c '"$1" "$2" "$3/ls.sky" "$3/ls.slo" 100 1000000 600 60 inf | grep "^J,"' _ $PY "$BF" "$TMP"
t "load score: report cost is the peak" 0 '' 'J,placed,240,480,0.72' '' \
    sh -c 'lcmpack -q --slo "$1/ls.slo" --lcm 10m --capacity cores=100,mem=1000000 "$1/ls.sky" -o /dev/null --report - | awk -F, "\$1==\"J\" {print \$1\",\"\$4\",\"\$5\",\"\$6\",\"\$7}"' _ "$TMP"

# Rigid trials with gangs: G (2 stages of 6 containers in gangs of 3, at most
# 6 a step) in a 4-step window [0, 240] of 12 cores, with Y (rigid, fixed)
# holding 6 on steps 0-1.  The stretched trial for end 4 spreads stage 2 over
# steps 2-3 (3 + 3) and stage 1 on Y's steps (peak 9/12); rigid, 6 + 6 on
# steps 2-3 (peak 6/12), which wins.
printf 'job,step,offset,alloc,gang\nY,60,0,6,6\nY,60,60,6,6\nG,60,0,6,3\nG,60,60,6,3\n' >"$TMP/lg.sky"
printf 'job,period,a,d\nY,600,0,120\nG,600,0,240\n' >"$TMP/lg.slo"
t "rigid trial with gangs" 0 '' $'G,120,3,6\nG,180,3,6' '' sh -c 'lcmpack -q --slo "$1/lg.slo" --lcm 10m --capacity cores=12,mem=1000000 "$1/lg.sky" | awk -F, "\$2==\"G\" {print \$2\",\"\$6\",\"\$10\",\"\$11}"' _ "$TMP"

# A one-off window longer than the cycle (lowcost.h, "folded"): a 4-step
# cycle (--lcm 4m) where X holds 1 container at every step, and Q, every 7
# min (off-kilter: a one-off), 4 stages of 3 containers, window 7 steps from
# t = 60 (its instance opens a minute after --at).  An allocation of more
# than 4 steps puts two of Q's steps on one slot.  With 4 cores the free
# capacity, 3 x 4, is Q's 12 containers: Q fits only by filling every slot
# (peak 1), as 3, 3, 3, 3 does; LowCost refused it before counting its own
# containers on a slot ("no capacity at t 60 s once folded onto the cycle").
# With 100 cores the load, 4 + 12 containers on 4 slots, is at least 4 on
# some slot (0.04), which 3, 3, 3, 3 reaches; before, Q was spread over 7
# steps (peak 0.06, reported 0.04).
printf 'job,step,offset,alloc\nX,60,0,1\nX,60,60,1\nX,60,120,1\nX,60,180,1\nQ,60,0,3\nQ,60,60,3\nQ,60,120,3\nQ,60,180,3\n' >"$TMP/fw.sky"
printf 'job,period,a,d\nX,240,0,240\nQ,420,0,420\n' >"$TMP/fw.slo"
t "folded window: fits by filling every slot" 0 '' 'Q,once,4208503,placed,60,300,1,0,' '' \
    sh -c 'lcmpack -q --slo "$1/fw.slo" --lcm 4m --capacity cores=4,mem=1000000 --at 2026-01-05 "$1/fw.sky" -o /dev/null --report - | grep "^Q,"' _ "$TMP"
t "folded window: the lowest peak" 0 '' $'t,cores,mem_mb,cost\n0,4,4096,0.04\n60,4,4096,0.04\n120,4,4096,0.04\n180,4,4096,0.04' '' \
    lcmpack -q --slo "$TMP/fw.slo" --lcm 4m --capacity cores=100,mem=1000000 --at 2026-01-05 "$TMP/fw.sky" -o /dev/null --load -

# A generated workload (500 jobs, seed 4, the bench's mix): a valid plan, the
# peak it claims, and online LowCost no worse than the naive online baseline
# (rigid, least raise of the peak; lowest-load ties, its stronger variant).
tracegen requests --seed 4 --count 500 --truth "$TMP/w.slo" >"$TMP/w.sky"
lcmpack --slo "$TMP/w.slo" --capacity cores=100000,mem=400000000 --at 2026-01-05 "$TMP/w.sky" -o "$TMP/w.csv" \
    --report "$TMP/w.rep" 2>"$TMP/w.err"
tcheck "workload: validator and claimed peak" sh -c '"$1" "$2" "$3/w.csv" --sky "$3/w.sky" --slo "$3/w.slo" --cap 100000,400000000 --report "$3/w.rep" --peak "$(sed -n "s/.*peak cost \([0-9.]*\) at.*/\1/p" "$3/w.err")"' _ $PY "$V" "$TMP"
tcheck "workload: online not worse than the naive baseline" sh -c '
    at=$(date -u -d 2026-01-05 +%s)
    lcmpack -q --slo "$3/w.slo" --capacity cores=100000,mem=400000000 --at 2026-01-05 "$3/w.sky" --load "$3/w.load" -o /dev/null
    p=$(awk -F, "NR > 1 { c = \$2 / 100000; if (\$3 / 400000000 > c) c = \$3 / 400000000; if (c > m) m = c } END { printf \"%.9g\", m }" "$3/w.load")
    n=$("$1" "$2" --tie load "$3/w.sky" "$3/w.slo" 100000 400000000 86400 60 "$at" | cut -d" " -f2)
    awk -v p="$p" -v n="$n" "BEGIN { exit !(p > 0 && n > 0 && p <= n) }"' _ $PY "$NAIVE" "$TMP"

# Re-entrancy (lowcost.h, "Threads"): no file-scope variable in lowcost.c
# (scratch space lives in the caller's lowcost_ws); tests/unit/test_lowcost.c
# runs placements interleaved and in two threads (under valgrind --tool=helgrind
# it reports the race a static workspace brings back).
tcheck "lowcost keeps no file-scope state" sh -c '! grep -nE "^(static )?[a-z][a-z0-9_ *]*[ *][A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])? *(=[^(]*)?;" "$1"' _ "$ROOT/lib/morpheus/lowcost.c"
