#!/bin/bash
# bench/lcmpack.sh — LowCost packing quality and speed (issue 4).
#
# Workloads come from `tracegen requests` (skylines + SLOs, enterprise-like:
# see lib/gen/gen_requests.c).  Quality is the peak cost of the plan against
#   - the lower bound max(largest fixed demand, total area / LCM) that
#     lcmpack prints (goal: within 1.10x on 1,000 and 10,000 jobs),
#   - the LP relaxation bound (tests/check/plan_lpbound.py, glpsol), tighter
#     when windows crowd, on 1,000 jobs,
#   - the interval bound (tests/check/plan_ebound.py), tighter still: the
#     instances of a periodic job share one shape; printed beside the area
#     bound's ratio in every LowCost and naive row (report only: the goal
#     stays the area bound's ratio),
#   - the offline optimum of small rigid instances, a MILP solved by glpsol
#     (tests/check/plan_milp.py; goal within 1.25x),
#   - placing every job at its earliest start (--strategy earliest; goal:
#     at least 14% lower peak).
# Speed: 10,000 periodic jobs into a one-day LCM at one-minute steps (goal
# under 10 s) and adding one job to a plan of 10,000 (goal under 50 ms: the
# placement itself, and the whole command: once into another file, which
# reads, validates and rewrites the 1.5 M-row plan, then into the plan file
# itself, which lcmpack does in place from the plan's index PLAN.idx:
# append + fsync + the index rewritten, the rows never read).
# Wall-clock on a shared machine: CPU seconds (user+sys) are printed too.
set -u
. "$ROOT/bench/lib.sh"
T=$BENCH_TMP/lcmpack
mkdir -p "$T"
PY=/usr/bin/python3
CHK=$ROOT/tests/check
CAP="cores=100000,mem=400000000"
AT=2026-01-05
ATS=$(date -u -d $AT +%s)
# naive_x TIE SKY SLO: "X P": the naive baseline's peak / its own area
# bound, and its peak
naive_x() {
    $PY "$ROOT/bench/naive_online.py" --tie "$1" "$2" "$3" 100000 400000000 86400 60 "$ATS" |
        awk '{ printf "%.3f %s\n", $2 / $5, $2 }'
}
# ebound SKY SLO [AT]: the interval bound's line (tests/check/plan_ebound.py:
# "bound B at [s, e) s  (area bound A)"; AT "-": the periodic jobs alone).
# The goal stays the ratio to the area bound; the interval bound's column
# shows how much of the gap is that bound's looseness.
ebound() { $PY "$CHK/plan_ebound.py" "$1" "$2" 100000 400000000 86400 60 "${3:-$ATS}"; }
# xe X EBLINE: a ratio X to the area bound as a ratio to the interval bound
# (X x A / B, A its area bound: here lcmpack's lower bound is the area one;
# its ratio has more digits than its printed peak)
xe() { echo "$2" | awk -v x="$1" '{ a = $NF; sub(/\)/, "", a); printf "%.3f\n", x * a / $2 }'; }
# xp P EBLINE: a peak P (naive_online.py's, 6 digits) to the interval bound
xp() { echo "$2" | awk -v p="$1" '{ printf "%.3f\n", p / $2 }'; }
x3() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print "inf" }'; }
# summary fields: peak, lower bound, peak / lower bound, placement seconds
peak_of() { sed -n 's/.*peak cost \([0-9.]*\) at.*/\1/p' "$1"; }
x_of() { sed -n 's/.*area\/lcm [0-9.]*): \([0-9.]*\)x;.*/\1/p' "$1"; }
lb_of() { sed -n 's/.*; lower bound \([0-9.]*\) (.*/\1/p' "$1"; }
place_of() { sed -n 's/.*placement \([0-9.]*\) s .*/\1/p' "$1"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", 100 * (a - b) / b }'; }
# run CMD, stderr to $1; prints "wall cpu"
timed() {   # ERR CMD...: "wall cpu" seconds; peak RSS noted for peak (bench/lib.sh)
    local err=$1; shift
    wallcpu "$@" 2>"$err" || { cat "$err" >&2; return 1; }
}
# the same in milliseconds: "wall cpu"
timed_ms() {
    local r
    r=$(timed "$@") || return 1
    awk -v r="$r" 'BEGIN { split(r, a, " "); printf "%.1f %.1f\n", a[1] * 1000, a[2] * 1000 }'
}

for n in $(size 1000 "1000 10000"); do
    tracegen requests --seed 7 --count $n --truth "$T/slo$n.csv" >"$T/sky$n.csv"
    mark
    read -r w c < <(timed "$T/lc$n.err" lcmpack --slo "$T/slo$n.csv" --capacity $CAP --at $AT "$T/sky$n.csv" -o "$T/plan$n.csv")
    timed "$T/ls$n.err" lcmpack --slo "$T/slo$n.csv" --capacity $CAP --at $AT --max-stretch 2 "$T/sky$n.csv" >/dev/null
    timed "$T/lt$n.err" lcmpack --slo "$T/slo$n.csv" --capacity $CAP --at $AT --order tight "$T/sky$n.csv" >/dev/null
    timed "$T/lk$n.err" lcmpack --slo "$T/slo$n.csv" --capacity $CAP --at $AT --lookahead 1 "$T/sky$n.csv" >/dev/null
    imp=10; [ $n -ge 10000 ] && imp=3
    read -r wi ci < <(timed "$T/li$n.err" lcmpack --slo "$T/slo$n.csv" --capacity $CAP --at $AT --improve $imp "$T/sky$n.csv")
    p_lc=$(peak)
    read -r we ce < <(timed "$T/ea$n.err" lcmpack --slo "$T/slo$n.csv" --capacity $CAP --at $AT --strategy earliest "$T/sky$n.csv")
    row "plan $n jobs, lowcost (cpu)" "$c" "lcmpack --strategy earliest" "$ce" "$p_lc"
    p=$(peak_of "$T/lc$n.err"); lb=$(lb_of "$T/lc$n.err"); ps=$(peak_of "$T/ls$n.err"); pe=$(peak_of "$T/ea$n.err")
    pt=$(peak_of "$T/lt$n.err"); pk=$(peak_of "$T/lk$n.err"); pi=$(peak_of "$T/li$n.err")
    x=$(x_of "$T/lc$n.err"); xi=$(x_of "$T/li$n.err")
    read -r nv nvp < <(naive_x earliest "$T/sky$n.csv" "$T/slo$n.csv")
    read -r nl nlp < <(naive_x load "$T/sky$n.csv" "$T/slo$n.csv")
    eb=$(ebound "$T/sky$n.csv" "$T/slo$n.csv"); [ $n = 1000 ] && eb1000=$eb
    echo "bench lcmpack: $n jobs: peak cost $p, lower bound $lb: ${x}x vs lower bound (goal <= 1.10); $(xe "$x" "$eb")x the interval bound ($eb)"
    echo "bench lcmpack: $n jobs: naive online baseline ${nv}x vs lower bound, $(xp "$nvp" "$eb")x the interval bound (ties to the lowest load: ${nl}x, $(xp "$nlp" "$eb")x); LowCost online $(x3 "$x" "$nv")x the naive (goal <= 1.00), --improve $imp ${xi}x"
    echo "bench lcmpack: $n jobs: --max-stretch 2: peak $ps: $(x_of "$T/ls$n.err")x vs lower bound, $(xe "$(x_of "$T/ls$n.err")" "$eb")x the interval bound"
    echo "bench lcmpack: $n jobs: --order tight: peak $pt: $(x_of "$T/lt$n.err")x vs lower bound, $(xe "$(x_of "$T/lt$n.err")" "$eb")x the interval bound"
    echo "bench lcmpack: $n jobs: --lookahead 1 (input order): peak $pk: $(x_of "$T/lk$n.err")x vs lower bound, $(xe "$(x_of "$T/lk$n.err")" "$eb")x the interval bound"
    echo "bench lcmpack: $n jobs: --improve $imp (offline polish): peak $pi: ${xi}x vs lower bound (goal <= 1.10), $(xe "$xi" "$eb")x the interval bound; ${wi} s wall, ${ci} s cpu"
    echo "bench lcmpack: $n jobs: earliest start: peak $pe: lowcost $(pct "$p" "$pe")% ($(ratio "$p" "$pe")x vs earliest; goal <= -14%)"
    echo "bench lcmpack: $n jobs: time ${w} s wall, ${c} s cpu (placement $(place_of "$T/lc$n.err") s)"
done
lp=$($PY "$CHK/plan_lpbound.py" "$T/sky1000.csv" "$T/slo1000.csv" 100000 400000000 86400 60 600 $(date -u -d $AT +%s))
p=$(peak_of "$T/lc1000.err"); pi=$(peak_of "$T/li1000.err")
echo "bench lcmpack: 1000 jobs: LP relaxation bound $lp: $(ratio "$p" "$lp")x vs LP bound"
# the interval bound knows what the area and LP bounds do not: every
# instance of a periodic job repeats one shape, so the night's batch cannot
# all leave the night (tests/check/plan_ebound.py)
echo "bench lcmpack: 1000 jobs: interval $eb1000: online $(xe "$(x_of "$T/lc1000.err")" "$eb1000")x, --improve 10 $(xe "$(x_of "$T/li1000.err")" "$eb1000")x vs interval bound (no plan can be below it)"

# online quality on other seeds: online, naive, --improve 10, and times
for seed in 1 2 3; do
    tracegen requests --seed $seed --count 1000 --truth "$T/slo-s$seed.csv" >"$T/sky-s$seed.csv"
    read -r w c < <(timed "$T/lc-s$seed.err" lcmpack --slo "$T/slo-s$seed.csv" --capacity $CAP --at $AT "$T/sky-s$seed.csv")
    read -r wi ci < <(timed "$T/li-s$seed.err" lcmpack --slo "$T/slo-s$seed.csv" --capacity $CAP --at $AT --improve 10 "$T/sky-s$seed.csv")
    read -r nv nvp < <(naive_x earliest "$T/sky-s$seed.csv" "$T/slo-s$seed.csv")
    read -r nl nlp < <(naive_x load "$T/sky-s$seed.csv" "$T/slo-s$seed.csv")
    x=$(x_of "$T/lc-s$seed.err")
    eb=$(ebound "$T/sky-s$seed.csv" "$T/slo-s$seed.csv"); [ $seed = 1 ] && eb_s1=$eb
    echo "bench lcmpack: 1000 jobs (seed $seed): online ${x}x vs lower bound (goal <= 1.10), $(xe "$x" "$eb")x the interval bound ($eb), in ${c} s cpu; naive ${nv}x, $(xp "$nvp" "$eb")x (lowest-load ties ${nl}x, $(xp "$nlp" "$eb")x): online $(x3 "$x" "$nv")x the naive; --improve 10 $(x_of "$T/li-s$seed.err")x, $(xe "$(x_of "$T/li-s$seed.err")" "$eb")x, in ${ci} s cpu"
done
# what the periodic-first order costs (lcmpack places the one-off instances
# of off-kilter jobs after every periodic job, Morpheus §6): the periodic
# jobs alone (no --at), online and polished, then the one-off instances
# placed online on the polished periodic plan
for seed in 7 1; do
    if [ $seed = 7 ]; then sky=$T/sky1000.csv slo=$T/slo1000.csv eb=$eb1000; else sky=$T/sky-s$seed.csv slo=$T/slo-s$seed.csv eb=$eb_s1; fi
    lcmpack --slo "$slo" --capacity $CAP "$sky" -o /dev/null 2>"$T/po$seed.err"
    lcmpack --slo "$slo" --capacity $CAP --improve 10 "$sky" -o "$T/pi$seed.csv" 2>"$T/pi$seed.err"
    lcmpack --plan "$T/pi$seed.csv" --slo "$slo" --capacity $CAP --at $AT "$sky" -o /dev/null 2>"$T/pio$seed.err"
    ebp=$(ebound "$sky" "$slo" -)
    echo "bench lcmpack: 1000 jobs (seed $seed): periodic jobs alone: online $(x_of "$T/po$seed.err")x, --improve 10 $(x_of "$T/pi$seed.err")x their lower bound ($(xe "$(x_of "$T/po$seed.err")" "$ebp")x, $(xe "$(x_of "$T/pi$seed.err")" "$ebp")x their interval bound: $ebp); one-off instances online on that polished plan: $(x_of "$T/pio$seed.err")x the whole lower bound, $(xe "$(x_of "$T/pio$seed.err")" "$eb")x the interval bound (the floor of any online run that places them last)"
done

# small rigid instances: the MILP optimum (5-minute steps)
worst=0 worstt=0 worstk=0 worsti=0
for seed in $(size "1 2" "1 2 3 4 5 6"); do
    tracegen requests --seed $seed --count 20 --set step=300 --set rigid=1 --set gangs=0 --set offkilter=0 \
        --set problematic=0 --set hourly=0.2 --truth "$T/m$seed.slo" >"$T/m$seed.sky"
    lcmpack --slo "$T/m$seed.slo" --step 300 --capacity cores=1000,mem=10000000 --ends 0 "$T/m$seed.sky" \
        -o /dev/null 2>"$T/m$seed.err"
    lcmpack --order tight --slo "$T/m$seed.slo" --step 300 --capacity cores=1000,mem=10000000 --ends 0 "$T/m$seed.sky" \
        -o /dev/null 2>"$T/mt$seed.err"
    lcmpack --lookahead 1 --slo "$T/m$seed.slo" --step 300 --capacity cores=1000,mem=10000000 --ends 0 "$T/m$seed.sky" \
        -o /dev/null 2>"$T/mk$seed.err"
    lcmpack --improve 10 --slo "$T/m$seed.slo" --step 300 --capacity cores=1000,mem=10000000 --ends 0 "$T/m$seed.sky" \
        -o /dev/null 2>"$T/mi$seed.err"
    p=$(peak_of "$T/m$seed.err"); pt=$(peak_of "$T/mt$seed.err"); pk=$(peak_of "$T/mk$seed.err"); pi=$(peak_of "$T/mi$seed.err")
    res=$($PY "$CHK/plan_milp.py" "$T/m$seed.sky" "$T/m$seed.slo" 1000 10000000 86400 300 $(size 30 120))
    case $res in
    optimum*) opt=$(echo "$res" | cut -d" " -f2); r=$(ratio "$p" "$opt"); rt=$(ratio "$pt" "$opt"); rk=$(ratio "$pk" "$opt"); ri=$(ratio "$pi" "$opt")
        echo "bench lcmpack: 20 rigid jobs (seed $seed): peak $p, MILP optimum $opt: ${r}x vs optimum (--improve 10: ${ri}x; --order tight: ${rt}x; --lookahead 1: ${rk}x; goal <= 1.25)";;
    *) opt=$(echo "$res" | sed 's/bound \([^ ]*\) .*/\1/'); r=$(ratio "$p" "$opt"); rt=$(ratio "$pt" "$opt"); rk=$(ratio "$pk" "$opt"); ri=$(ratio "$pi" "$opt")
        echo "bench lcmpack: 20 rigid jobs (seed $seed): peak $p, MILP not solved in $(size 30 120) s ($res): <= ${r}x vs its bound";;
    esac
    worst=$(awk -v a="$worst" -v b="$r" 'BEGIN { print (b > a ? b : a) }')
    worstt=$(awk -v a="$worstt" -v b="$rt" 'BEGIN { print (b > a ? b : a) }')
    worstk=$(awk -v a="$worstk" -v b="$rk" 'BEGIN { print (b > a ? b : a) }')
    worsti=$(awk -v a="$worsti" -v b="$ri" 'BEGIN { print (b > a ? b : a) }')
done
echo "bench lcmpack: 20 rigid jobs: worst ${worst}x vs MILP optimum in input order, ${worsti}x with --improve 10, ${worstt}x with --order tight, ${worstk}x with --lookahead 1 (goal <= 1.25)"

# speed: 10,000 periodic jobs, then one more job into that plan
np=$(size 2000 10000)
tracegen requests --seed 11 --count $np --set offkilter=0 --truth "$T/slop.csv" >"$T/skyp.csv"
read -r w c < <(timed "$T/p.err" lcmpack --slo "$T/slop.csv" --capacity $CAP "$T/skyp.csv" -o "$T/planp.csv")
echo "bench lcmpack: $np periodic jobs, 1-day LCM, 60 s steps: ${w} s wall, ${c} s cpu (placement $(place_of "$T/p.err") s; goal < 10 s)"
{ head -1 "$T/skyp.csv"; grep '^job00042,' "$T/skyp.csv" | sed 's/^job00042,/newjob,/'; } >"$T/one.sky"
{ head -1 "$T/slop.csv"; grep '^job00042,' "$T/slop.csv" | sed 's/^job00042,/newjob,/'; } >"$T/one.slo"
read -r w c < <(timed "$T/one.err" lcmpack --plan "$T/planp.csv" --slo "$T/one.slo" --capacity $CAP "$T/one.sky" -o "$T/planp1.csv")
pl=$(place_of "$T/one.err")
echo "bench lcmpack: add 1 job to a plan of $np: placement $(awk -v s="$pl" 'BEGIN { printf "%.1f", s * 1000 }') ms (goal < 50 ms); whole command ${w} s wall, ${c} s cpu (-o another file: loads and saves $(wc -l <"$T/planp.csv") plan rows)"
# the nightly case: -o the --plan file itself, appended in place through PLAN.idx
read -r wi ci < <(timed_ms "$T/inplace.err" lcmpack --plan "$T/planp.csv" --slo "$T/one.slo" --capacity $CAP "$T/one.sky" -o "$T/planp.csv")
grep -q '(appended in place)' "$T/inplace.err" || echo "bench lcmpack: warning: the in-place add did not use the index" >&2
cmp -s "$T/planp.csv" "$T/planp1.csv" || echo "bench lcmpack: warning: the in-place plan differs from the rewritten one" >&2
echo "bench lcmpack: add 1 job to a plan of $np in place (-o the plan itself, via PLAN.idx): whole command ${wi} ms wall, ${ci} ms cpu ($(ratio "$(awk -v w="$w" 'BEGIN { print w * 1000 }')" "$wi")x faster than reading and rewriting it; goal < 50 ms)"
