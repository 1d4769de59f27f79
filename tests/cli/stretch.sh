# stretch: virtual-cluster sharing simulator.  Numbers are checked against
# hand-worked scenarios (arithmetic in the comments), an independent Python
# simulator (tests/check/stretch_ref.py) and awk invariants
# (tests/check/stretch_invariants.sh).
D="$ROOT/tests/data/stretch"
PY=/usr/bin/python3
REF="$ROOT/tests/check/stretch_ref.py"
INV="$ROOT/tests/check/stretch_invariants.sh"
H='job,vc,submit,finish,stretch'

# A single job alone in its VC with max_parallelism = capacity runs on exactly
# its VC: 10 server-hours on 10 servers = 1 h = ideal time -> stretch 1.
for s in maxmin drr balanced; do
t "alone stretch 1 ($s)" 0 '' "$H
j1,a,0,3600,1" '' stretch -q -s $s "$D/two.csv" "$D/alone.csv"
done
# Alone but allowed 40 servers in an idle 40-server cluster: it borrows b's
# 30 idle servers: 10 sh / 40 = 0.25 h -> finish 900, stretch 900/3600 = 0.25.
t "alone borrows idle servers" 0 $'job,vc,submit,size_server_hours,max_parallelism\nj1,a,0,10,40\n' "$H
j1,a,0,900,0.25" '' stretch -q "$D/two.csv"
# An ISO 8601 submit with a fraction is the instant its epoch text is, and
# is written back as epoch seconds: 00:00:00.375Z is 0.375 (it was
# 0.37500000000000006, the fraction summed digit by digit), and +02:00 is
# taken off (the Alibaba GPU trace's times are relative, near 0).
t "ISO 8601 submit with a fraction: the epoch text's instant" 0 \
    $'job,vc,submit,size_server_hours,max_parallelism\nj1,a,1970-01-01T00:00:00.375Z,10,40\nj2,a,1970-01-01T03:44:40.370102+02:00,10,40\n' "$H
j1,a,0.375,900.375,0.25
j2,a,6280.370102,7180.370102,0.25" '' stretch -q "$D/two.csv"

# Water-filling, three VCs of 10 + 30 system servers (M = 60), all at t=0:
# x1 p=12 size 12, y1 p=25 size 49, z1 p=40 size 99 (server-hours).
# base 10 each, extra 30 over excesses 2, 15, 30: x +2 (left 28), y +min(15,14),
# z +14 -> x 12, y 24, z 24.  x1 done at 1 h: stretch 1 h / (12/10 h) = 0.8333.
# At 1 h: extra 40 over excesses 15, 30: y +15 = 25, z +25 = 35.  y1 has 49-24
# = 25 left -> done at 2 h: stretch 2 / 4.9 = 0.40816.  z1 had 24 + 35 = 59,
# 40 left, alone with p=40 -> done at 3 h: stretch 3 / 9.9 = 0.30303.
t "maxmin water-filling three VCs" 0 '' "$H
x1,x,0,3600,0.8333333333333334
y1,y,0,7200,0.40816326530612246
z1,z,0,10800,0.30303030303030304" '' stretch -q --system-servers 30 "$D/three.csv" "$D/waterfill.csv"

# Max-min of total allocation (../shared/notes/evaluation-fidelity.md):
# capacities 100/300/600, demands 400/500/500, no system servers (M = 1000).
# a_i = min(d_i, max(c_i, x)): x = 200 -> 200 + 300 + 500 = 1000.  Each job's
# size is its allocation x 1 h, so all three end at 3600 s; stretch = 1 h /
# (size / capacity): small 1 / 2 = 0.5, mid 1 / 1 = 1, big 1 / (500/600) = 1.2.
# (The old rule, equal extras on top of capacities, gave 150/350/500.)
t "maxmin: max-min of total allocation, the notes' case" 0 '' "$H
s1,small,0,3600,0.5
m1,mid,0,3600,1
b1,big,0,3600,1.2" '' stretch -q -s maxmin "$D/notes.csv" "$D/notesjobs.csv"

# Two VCs A, B of 10 + 10 system servers (M = 30).  [0,1h): B's b1 (p=30,
# 30 sh) runs on 30 servers, lending A's idle 10.  At 1 h a1 (A) and b2 (B),
# each p=20, 20 sh: base 10 each, 10 extra.
# maxmin: 5 extra each -> 15 each -> 20/15 h = 1.333 h -> finish 8400 s,
#   stretch 4800 / 7200 = 0.6667 for both.
t "lend then borrow: maxmin splits" 0 '' "$H
b1,B,0,3600,0.3333333333333333
a1,A,3600,8400,0.6666666666666666
b2,B,3600,8400,0.6666666666666666" '' stretch -q -s maxmin --quantum 0 --system-servers 10 "$D/lend.csv" "$D/lendjobs.csv"
# drr: at 1 h A's credit is +10 sh (lent 10 for 1 h), B's -20 sh (used 30 of
#   10): A first, takes all 10 extra -> 20 servers -> a1 done at 2 h (stretch
#   3600/7200 = 0.5); b2 did 10 sh by then, then 20 servers for 10 sh -> 2.5 h
#   = 9000 s (stretch 5400/7200 = 0.75).  balanced: [0,1h) is not contended
#   (demand 30 = servers 30), so B pays nothing, and B's 20 borrowed servers
#   use all of A's 10 idle ones (u = 1): A +10 sh, B 0 -> same order, same times.
for s in drr balanced; do
t "lend then borrow: $s repays the lender" 0 '' "$H
b1,B,0,3600,0.3333333333333333
a1,A,3600,7200,0.5
b2,B,3600,9000,0.75" '' stretch -q -s $s --quantum 0 --system-servers 10 "$D/lend.csv" "$D/lendjobs.csv"
done
# Credits at the end (server-hours).  drr: A +10, -10 over [1h,2h] (20 of 10),
# +5 over [2h,2.5h] idle = 5; B -20, 0, -5 (20 of 10 for 0.5 h) = -25.
# balanced: A +10, -10 (contended: demand 40 > 30), then B alone borrows 10 of
# A's idle 10 (u = 1), uncontended: A +5, B 0 -> A 5, B 0.
tcheck "drr credits by hand" bash -c 'stretch -q -s drr --quantum 0 --system-servers 10 "$1/lend.csv" "$1/lendjobs.csv" --vcs "$2/c.csv" >/dev/null &&
    [ "$(cut -d, -f1,12 "$2/c.csv")" = "$(printf "vc,credit_end_server_hours\nA,5\nB,-25")" ]' _ "$D" "$TMP"
tcheck "balanced credits by hand" bash -c 'stretch -q -s balanced --quantum 0 --system-servers 10 "$1/lend.csv" "$1/lendjobs.csv" --vcs "$2/c.csv" >/dev/null &&
    [ "$(cut -d, -f1,12 "$2/c.csv")" = "$(printf "vc,credit_end_server_hours\nA,5\nB,0")" ]' _ "$D" "$TMP"

# drr charges idle-time use, balanced does not.  A, B, C of 10 (M = 30).
# [0,1h): a1 (p=10, 10 sh) uses exactly A; b1 (p=20, 20 sh) borrows C's idle
# 10; not contended (demand 30 = 30).  drr: A 0, B -10 sh; balanced: A 0, B 0.
# At 1 h a2, b2 (p=20, 15 sh each): base 10 each, extra 10.
# drr: A first -> 20 servers -> 15/20 h: done 6300 (stretch 2700/5400 = 0.5);
#   b2 did 7.5 sh, then 20 servers for 7.5 sh = 0.375 h -> 7650 (4050/5400 = 0.75).
# balanced: credits tie (0, 0) -> max-min, 15 each -> 1 h -> 7200, 3600/5400.
t "idle-time use: drr penalizes" 0 '' "$H
a1,A,0,3600,1
b1,B,0,3600,0.5
a2,A,3600,6300,0.5
b2,B,3600,7650,0.75" '' stretch -q -s drr --quantum 0 "$D/abc.csv" "$D/idlejobs.csv"
for s in balanced maxmin; do
t "idle-time use: $s does not" 0 '' "$H
a1,A,0,3600,1
b1,B,0,3600,0.5
a2,A,3600,7200,0.6666666666666666
b2,B,3600,7200,0.6666666666666666" '' stretch -q -s $s --quantum 0 "$D/abc.csv" "$D/idlejobs.csv"
done

# Inside a VC (capacity 10, alone).  fifo: j1 takes 10 -> 1 h (stretch 1), j2
# waits, then 10 -> 2 h (stretch 2).  fair: 5 each -> both 2 h (stretch 2).
t "within fifo" 0 '' "$H
j1,a,0,3600,1
j2,a,0,7200,2" '' stretch -q --within fifo "$D/one.csv" "$D/fifo.csv"
t "within fair" 0 '' "$H
j1,a,0,7200,2
j2,a,0,7200,2" '' stretch -q "$D/one.csv" "$D/fifo.csv"
# fair with caps: j1 p=2 gets 2, j2 the other 8.  j1 2 sh -> 1 h, stretch
# 1 / (2/10) = 5.  j2 16 sh: 8 by 1 h, then 10 servers -> 0.8 h -> 6480 s,
# stretch 1.8 / 1.6 = 1.125.
t "within fair, capped" 0 '' "$H
j1,a,0,3600,5
j2,a,0,6480,1.125" '' stretch -q "$D/one.csv" "$D/caps.csv"

# Against the independent Python simulator: random small cases, every
# scheduler, both rules within VCs, with and without a quantum, a tight
# credit window (2 h) so that clamping matters, with and without system servers.
for seed in 1 2 3 4 5 6 7 8; do
    mkdir -p "$TMP/ref$seed"
    $PY "$REF" gen $seed "$TMP/ref$seed"
    for s in maxmin drr balanced; do
        for w in fair fifo; do
            q=$(( seed % 2 * 900 )); S=$(( seed % 3 * 10 ))
            tcheck "reference seed $seed $s $w q=$q S=$S" bash -c '
                stretch -q -s "$3" --within "$4" --quantum "$5" --system-servers "$6" --credit-window 2h \
                    "$1/vcs.csv" "$1/jobs.csv" > "$1/out.csv" &&
                "$7" "$2" check "$1" "$1/out.csv" "$3" "$6" "$5" 7200 "$4"' _ "$TMP/ref$seed" "$REF" $s $w $q $S $PY
        done
    done
done

# The paper-like scenario (10 days to keep ASan fast): conservation and
# invariants for each scheduler; maxmin is the least consistent; all three
# have the same utilization (they are work-conserving).
tracegen vcs -o "$TMP/vcs.csv"
tracegen vcjobs --days 10 -o "$TMP/jobs.csv"
# A full disk under the output (320 KB of rows): one line naming it, exit
# 74, the old file intact (it was exit 74 with no message: the write error
# was noticed mid-run and the output thrown away without a word).
t "/dev/full: -o" 74 '' '' "stretch: /dev/full: write error: No space left on device" \
    stretch -q "$TMP/vcs.csv" "$TMP/jobs.csv" -o /dev/full
t "/dev/full: stdout" 74 '' '' "stretch: write error on standard output: No space left on device" \
    bash -c 'stretch -q "$1/vcs.csv" "$1/jobs.csv" > /dev/full' _ "$TMP"
if [ "$(id -u)" = 0 ] && mkdir -p "$TMP/small" && mount -t tmpfs -o size=16k tmpfs "$TMP/small" 2>/dev/null; then
    echo old > "$TMP/small/o.csv"
    t "full disk: -o FILE" 74 '' '' \
        "stretch: $TMP/small/o.csv: write error: No space left on device (old file left unchanged)" \
        stretch -q "$TMP/vcs.csv" "$TMP/jobs.csv" -o "$TMP/small/o.csv"
    tcheck "full disk: old file intact, no debris" bash -c '[ "$(ls -A "$1")" = o.csv ] && grep -qx old "$1/o.csv"' _ "$TMP/small"
    t "full TMPDIR: held stdout" 74 '' '' \
        "stretch: cannot hold standard output in $TMP/small: No space left on device (nothing written)" \
        env TMPDIR="$TMP/small" stretch "$TMP/vcs.csv" "$TMP/jobs.csv"
    umount "$TMP/small"
else
    tskip "stretch on a full disk" "needs root to mount a small tmpfs"
fi
for s in maxmin drr balanced; do
    stretch -q -s $s --system-servers 1250 "$TMP/vcs.csv" "$TMP/jobs.csv" --vcs "$TMP/v-$s.csv" \
        --daily "$TMP/d-$s.csv" --summary "$TMP/s-$s.csv" -o "$TMP/o-$s.csv"
    tcheck "paper $s: conservation and invariants" sh "$INV" "$TMP/jobs.csv" "$TMP/v-$s.csv" "$TMP/o-$s.csv" "$TMP/d-$s.csv"
done
tcheck "paper: maxmin spread > drr and balanced" awk -F, '
    FNR == 1 { f++ } $1 == "consistency" { c[f] = $2 } $1 == "utilization" { u[f] = $2 }
    END { if (!(c[1] > c[2] && c[1] > c[3])) { print "spread maxmin " c[1] " drr " c[2] " balanced " c[3]; exit 1 }
          if ((u[1] - u[2])^2 > 1e-18 || (u[1] - u[3])^2 > 1e-18) { print "utilization differs: " u[1] " " u[2] " " u[3]; exit 1 } }' \
    "$TMP/s-maxmin.csv" "$TMP/s-drr.csv" "$TMP/s-balanced.csv"

# Determinism: same input, same bytes; tracegen: same seed same trace, other seed other trace.
tcheck "deterministic output" bash -c '
    stretch -q -s balanced --system-servers 1250 "$1/vcs.csv" "$1/jobs.csv" --vcs "$1/x1.csv" > "$1/y1.csv" &&
    stretch -q -s balanced --system-servers 1250 "$1/vcs.csv" "$1/jobs.csv" --vcs "$1/x2.csv" > "$1/y2.csv" &&
    cmp "$1/x1.csv" "$1/x2.csv" && cmp "$1/y1.csv" "$1/y2.csv"' _ "$TMP"
# --reorder (stretch(1)): jobs out of submit order within the read-ahead
# (the rows shuffled 50 at a time) give each job the row of the sorted file,
# rows in input order (the --vcs sums may differ in the last digits).
tcheck "--reorder: rows shuffled 50 at a time, each job's row as in the sorted file" bash -c '
    { head -1 "$1"; tail -n +2 "$1" | awk "{ print int((NR - 1) / 50) \",\" rand() \",\" \$0 }" | sort -t, -k1,1n -k2,2g | cut -d, -f3-; } > "$2/jobs.shuf"
    { head -1 "$1"; tail -n +2 "$2/jobs.shuf" | sort -s -t, -k3,3g; } > "$2/jobs.resorted"
    ! cmp -s "$1" "$2/jobs.shuf" &&
    diff <(stretch -q "$2/vcs.csv" "$2/jobs.shuf" | sort) <(stretch -q "$2/vcs.csv" "$2/jobs.resorted" | sort)' _ "$TMP/jobs.csv" "$TMP"
tcheck "tracegen vcjobs: same seed, same trace" bash -c 'tracegen vcjobs --days 3 --seed 7 | cmp - <(tracegen vcjobs --days 3 --seed 7)'
tcheck "tracegen vcjobs: other seed, other trace" bash -c '! tracegen vcjobs --days 3 --seed 7 | cmp -s - <(tracegen vcjobs --days 3 --seed 8)'
tcheck "tracegen paper loads" bash -c 'tracegen vcjobs --days 30 | awk -F, -v OFS=, "NR > 1 { w[\$2] += \$4 }
    END { split(\"vc_a 250 0.3 vc_b 300 0.5 vc_c 800 1 vc_d 400 1 vc_e 300 1 vc_f 700 1.6\", a, \" \");
          for (i = 1; i < 18; i += 3) { l = w[a[i]] / (a[i+1] * 720); if (l < a[i+2] * 0.9 || l > a[i+2] * 1.1) { print a[i], l; exit 1 } } }"'
tcheck "tracegen mixed: 115 VCs, 50000 servers" bash -c '[ "$(tracegen vcs --set scenario=mixed | awk -F, "NR > 1 { n++; c += \$2 } END { print n, (c > 49900 && c < 50100) }")" = "115 1" ]'
t "tracegen bad scenario" 64 '' '' "unknown --set scenario 'x'" tracegen vcs --set scenario=x

# Real traces through the adapters (examples/): they run, and stretch's
# output keeps its invariants.
SW="$DATA/swim/FB-2009_samples_24_times_1hr_0.tsv"
AL="$DATA/alibaba-v2017/batch_task.csv"
tcheck "swim adapter" bash -c '"$1/examples/swim-to-stretch.sh" "$2" "$3/sw" 2>/dev/null &&
    [ "$(wc -l < "$3/sw/jobs.csv")" = 5895 ] && [ "$(wc -l < "$3/sw/vcs.csv")" = 5 ]' _ "$ROOT" "$SW" "$TMP"
tcheck "alibaba adapter" bash -c '"$1/examples/alibaba-to-stretch.sh" "$2" "$3/al" 2>/dev/null &&
    [ "$(wc -l < "$3/al/jobs.csv")" = "$(tr -d "\r" < "$2" | awk -F, "\$6 == \"Terminated\" && \$2 > \$1 && \$5 > 0" | wc -l | awk "{ print \$1 + 1 }")" ] &&
    [ "$(wc -l < "$3/al/vcs.csv")" = 7 ]' _ "$ROOT" "$AL" "$TMP"
for s in maxmin drr balanced; do
    tcheck "swim $s: invariants, load 0.8 +- 0.05" bash -c '
        stretch -q -s "$2" --horizon 86400s "$1/sw/vcs.csv" "$1/sw/jobs.csv" --vcs "$1/sw/v.csv" --daily "$1/sw/d.csv" > "$1/sw/o.csv" &&
        sh "$3" "$1/sw/jobs.csv" "$1/sw/v.csv" "$1/sw/o.csv" "$1/sw/d.csv" &&
        awk -F, "NR > 1 && (\$5 < 0.75 || \$5 > 0.85) { exit 1 }" "$1/sw/v.csv"' _ "$TMP" $s "$INV"
    tcheck "alibaba $s: invariants, load 0.8 +- 0.01" bash -c '
        stretch -q -s "$2" --horizon 64800s "$1/al/vcs.csv" "$1/al/jobs.csv" --vcs "$1/al/v.csv" > "$1/al/o.csv" &&
        sh "$3" "$1/al/jobs.csv" "$1/al/v.csv" "$1/al/o.csv" &&
        awk -F, "NR > 1 && (\$5 < 0.79 || \$5 > 0.81) { exit 1 }" "$1/al/v.csv"' _ "$TMP" $s "$INV"
done
# The default --load-bins compare VCs that the tools size alike: traceconv
# swim's four VCs at its default --load 0.8 (0.794..0.809) and the Alibaba
# adapter's six at 0.8 each land in one bin, so the consistency figure is
# max/min of all their mean stretches (computed here from --vcs).  The
# former default edges 0.5,0.8,1.25,2,4 split both into two bins: SWIM drr
# read 1.65x where the four VCs spread 2.11x.
traceconv -q swim "$SW" --capacities "$TMP/tc-vcs.csv" > "$TMP/tc-jobs.csv"
for s in maxmin drr balanced; do
    for tr in "swim tc-vcs.csv tc-jobs.csv 86400s 4" "alibaba al/vcs.csv al/jobs.csv 64800s 6"; do
        read -r name vf jf hz n <<< "$tr"
        tcheck "$name $s: default load bins hold all $n VCs, consistency = max/min of all" bash -c '
            stretch -s "$2" --horizon "$5" "$1/$3" "$1/$4" --vcs "$1/lb-v.csv" --summary "$1/lb-s.csv" -o /dev/null 2> "$1/lb-e.txt" &&
            [ "$(grep -c "^stretch: load .*: $6 VCs," "$1/lb-e.txt")" = 1 ] &&
            awk -F, -v want="$6" "FNR == 1 { f++; next } f == 1 { n++; m = \$6; if (n == 1 || m < lo) lo = m; if (n == 1 || m > hi) hi = m }
                f == 2 && \$1 == \"consistency\" { c = \$2 }
                END { if (n != want || (c / (hi / lo) - 1)^2 > 1e-24) { print n, c, hi / lo; exit 1 } }" "$1/lb-v.csv" "$1/lb-s.csv"' \
            _ "$TMP" $s "$vf" "$jf" "$hz" "$n"
    done
done
# The paper scenario's classes under the default bins: vc_a, vc_b
# under-utilized; vc_c, vc_d, vc_e fully utilized; vc_f alone above.
tcheck "paper: default load bins = the paper's classes (2, 3, 1 VCs)" bash -c '
    stretch --system-servers 1250 "$1/vcs.csv" "$1/jobs.csv" -o /dev/null 2>&1 |
        grep "^stretch: load .* VCs," | sed "s/.*: \([0-9]*\) VCs,.*/\1/" | tr "\n" " " | grep -qx "2 3 "' _ "$TMP"
# The consistency figures README.md and docs/stretch.md print, so they cannot
# drift from the tool silently: the paper-like month (30 days, seed 1, 1,250
# system servers) and the two real traces at their adapters' load 0.8.
tracegen vcjobs -o "$TMP/jobs30.csv"
for c in "paper maxmin 4.85x vcs.csv jobs30.csv" "paper drr 1.69x vcs.csv jobs30.csv" \
         "paper balanced 2.45x vcs.csv jobs30.csv" \
         "swim maxmin 2.01x tc-vcs.csv tc-jobs.csv 86400s" "swim drr 2.11x tc-vcs.csv tc-jobs.csv 86400s" \
         "swim balanced 2.29x tc-vcs.csv tc-jobs.csv 86400s" "alibaba maxmin 1.55x al/vcs.csv al/jobs.csv 64800s" \
         "alibaba drr 1.73x al/vcs.csv al/jobs.csv 64800s" "alibaba balanced 1.63x al/vcs.csv al/jobs.csv 64800s"; do
    read -r name s want vf jf hz <<< "$c"
    opt=(--system-servers 1250)
    [ -n "$hz" ] && opt=(--horizon "$hz")
    t "$name $s: the documented consistency $want" 0 '' '*' \
        "stretch: consistency (worst max/min mean stretch within a load bin): $want" \
        stretch -s "$s" "${opt[@]}" "$TMP/$vf" "$TMP/$jf" -o /dev/null
done
t "swim adapter rejects garbage" 65 '' '' 'swim-to-stretch: ' "$ROOT/examples/swim-to-stretch.sh" "$D/two.csv" "$TMP/bad"

# Input validation.
J='job,vc,submit,size_server_hours,max_parallelism'
t "unknown vc" 65 "$J
j1,zz,0,1,1
" '' "stretch: <stdin>:2: unknown vc 'zz'" stretch "$D/two.csv"
t "duplicate job" 65 "$J
j1,a,0,1,1
j1,a,5,1,1
" '' "stretch: <stdin>:3: duplicate job 'j1'" stretch "$D/two.csv"
t "negative size" 65 "$J
j1,a,0,-1,1
" '' "stretch: <stdin>:2: column 'size_server_hours'" stretch "$D/two.csv"
t "zero size" 65 "$J
j1,a,0,0,1
" '' "<stdin>:2: column 'size_server_hours'" stretch "$D/two.csv"
t "nan submit" 65 "$J
j1,a,nan,1,1
" '' "<stdin>:2: column 'submit'" stretch "$D/two.csv"
t "zero parallelism" 65 "$J
j1,a,0,1,0
" '' "<stdin>:2: column 'max_parallelism'" stretch "$D/two.csv"
t "huge size" 65 "$J
j1,a,0,1e300,1
" '' "is too large" stretch "$D/two.csv"
# A job may not end sooner than the clock can time (stretch(1), INPUT): its
# shortest run, size x 3600 / min(max_parallelism, every server), must be
# at least 1e-12 of |submit| and at least 1e-12 s.  These rows printed
# nonsense: j3 (3.6e-17 s on one server) finished with j1 at 9.47e-299 s,
# stretch 2.6e-281, since a job less than 1.8e-15 s from done counted as
# done at any time; at submit 100 j1 finished at its submit, stretch 0.
t "tiny size refused: under the time floor" 65 "$J
j1,a,0,1e-300,40
j2,a,0,1e-12,1
j3,a,0,1e-20,1
" '' "stretch: <stdin>:2: column 'size_server_hours': '1e-300' is too small: job 'j1' would run 9e-299 s even at 40 servers, under the floor of 1e-12 s (1e-12 of |submit|, at least 1e-12 s: the clock cannot time a shorter run)" \
    stretch "$D/two.csv"
# In 2026 (submit 1767571449) the floor is 1.77e-3 s: 1e-6 server-hours on
# 40 servers is 9e-5 s (it printed stretch 0.24968 for 0.25); on one
# server, 3.6e-3 s, it runs: alone at 1 server, stretch 3.6e-3 /
# (3.6e-3 / 10) = 10, within 10 of the clock's ulps there (2.4e-7 s each):
# 10 +- 7e-4 (it prints 9.99967).
t "tiny size refused: the floor grows with |submit|" 65 "$J
j1,a,1767571449,1e-6,40
" '' "stretch: <stdin>:2: column 'size_server_hours': '1e-6' is too small: job 'j1' would run 9e-05 s even at 40 servers, under the floor of 0.00177 s" \
    stretch "$D/two.csv"
tcheck "above the floor: the stretch is good to the clock" bash -c 'printf "%s\n" "$1" j1,a,1767571449,1e-6,1 |
    stretch -q "$2/two.csv" | awk -F, "NR == 2 { s = \$5 } END { exit !(s > 10 - 7e-4 && s < 10 + 7e-4) }"' _ "$J" "$D"
# Near time 0 tiny jobs are exact: "done" is relative to the clock at t.
# a (10 servers) runs j1 (1.0001e-15 sh = 3.60036e-12 server-s) and j2
# (3.6e-12) on one server each: j2 ends at 3.6e-12 s, j1 at 3.60036e-12 s,
# each stretch (finish / (work / 10)) 10.  j1 was finished at 3.6e-12 with
# j2 (3.6e-16 s left, under the 1.8e-15 s the old rule ignored at any t)
# and the run failed its conservation check (exit 70).
t "tiny jobs near time 0 finish exactly" 0 "$J
j1,a,0,1.0001e-15,1
j2,a,0,1e-15,1
" "$H
j1,a,0,3.6003600000000002e-12,10
j2,a,0,3.6000000000000004e-12,10" '' stretch -q "$D/two.csv"
# A job that even alone would finish beyond the time range (1e11 s) is a
# data error: it printed finish 3.6e+303, and drr/balanced re-evaluated
# every 5 minutes until then (a hang).  j1: 1 server-hour at 1e-300 servers;
# j2: 1e15 server-hours on a's 10 servers = 3.6e17 s.
for s in maxmin drr; do
t "job beyond the time range even alone ($s)" 65 "$J
j1,a,0,1,1e-300
" '' "<stdin>:2: job 'j1' would run until 3.6e+303 s even alone (size 1 server-hours at 1e-300 servers" \
    timeout 20 stretch -s $s "$D/two.csv"
t "huge job beyond the time range ($s)" 65 "$J
j2,a,0,1e15,
" '' "<stdin>:2: job 'j2' would run until 3.6e+17 s even alone (size 1e15 server-hours at 10 servers" \
    timeout 20 stretch -s $s "$D/two.csv"
done
# a subnormal capacity: the job runs forever alone (the message said "until inf s")
printf 'vc,capacity\na,1e-320\n' > "$TMP/subnormal.csv"
t "a job that never finishes alone says so, naming its VC" 65 "$J
j1,a,0,10,10
" '' "<stdin>:2: job 'j1' would run forever even alone (size 10 server-hours at 1e-320 servers: its max_parallelism, or the capacity of VC 'a' plus the system servers)" \
    timeout 20 stretch "$TMP/subnormal.csv"
# ... but the system servers count: 3.6e12 server-s alone at 10 + 1e6
# servers is 3.6e6 s (3.6e11 s on a's 10 alone)
t "system servers count for the time range" 0 "$J
j3,a,0,1e9,
" '*' '' stretch -q --system-servers 1e6 "$D/two.csv"
t "tiny --quantum refused" 64 '' '' "invalid value for --quantum: '1e-9' (must be 0 or at least 1 s)" \
    timeout 20 stretch -s drr --quantum 1e-9 "$D/two.csv" "$D/alone.csv"
t "missing column" 65 $'job,vc,submit\nj1,a,0\n' '' "missing required column 'size_server_hours'" stretch "$D/two.csv"
# --max-jobs: the third job (line 4) is one too many for 2; 3 is enough
t "--max-jobs refuses" 65 "$J
j1,a,0,1,1
j2,a,5,1,1
j3,b,5,1,1
" '' "stretch: <stdin>:4: more than 2 jobs (--max-jobs)" stretch --max-jobs 2 "$D/two.csv"
t "--max-jobs enough" 0 "$J
j1,a,0,1,1
j2,a,5,1,1
j3,b,5,1,1
" '*' '' stretch -q --max-jobs 3 "$D/two.csv"
t "--max-jobs 0" 64 '' '' "invalid value for --max-jobs: '0'" stretch --max-jobs 0 "$D/two.csv" "$D/alone.csv"
t "capacity 1e300" 65 '' '' ":2: column 'capacity': number '1e300' out of range" stretch <(printf 'vc,capacity\na,1e300\n') "$D/alone.csv"
t "zero capacity" 65 '' '' ":3: column 'capacity': must be positive, got '0'" stretch <(printf 'vc,capacity\na,1\nb,0\n') "$D/alone.csv"
t "duplicate vc" 65 '' '' "duplicate vc 'a'" stretch <(printf 'vc,capacity\na,1\na,2\n') "$D/alone.csv"
t "no vcs" 65 '' '' "no VCs" stretch <(printf 'vc,capacity\n') "$D/alone.csv"
t "missing file" 66 '' '' 'stretch: /nonexistent.csv: cannot open' stretch /nonexistent.csv "$D/alone.csv"
t "bad scheduler" 64 '' '' "invalid value for --scheduler: 'fair'" stretch -s fair "$D/two.csv" "$D/alone.csv"
t "bad within" 64 '' '' "invalid value for --within" stretch --within lifo "$D/two.csv" "$D/alone.csv"
t "bad load bins" 64 '' '' "edges must increase" stretch --load-bins 1,0.5 "$D/two.csv" "$D/alone.csv"
t "negative system servers" 64 '' '' "invalid value for --system-servers" stretch --system-servers -1 "$D/two.csv" "$D/alone.csv"
t "zero credit window" 64 '' '' "invalid value for --credit-window" stretch --credit-window 0 "$D/two.csv" "$D/alone.csv"
t "both on stdin" 64 '' '' "cannot both be standard input" stretch -
t "no capacities" 64 '' '' "missing CAPACITIES" stretch
t "header only" 0 "$J
" "$H" '' stretch -q "$D/two.csv"
t "renamed columns" 0 $'id,team,t,work,par\nj1,a,0,10,10\n' "$H
j1,a,0,3600,1" '' stretch -q --job-col id --vc-col team --submit-col t --size-col work --parallelism-col par \
    --capacity-col servers <(printf 'team,servers\na,10\n')
t "missing max_parallelism means no limit" 0 $'job,vc,submit,size_server_hours\nj1,a,0,10\n' "$H
j1,a,0,900,0.25" '' stretch -q "$D/two.csv"
t "iso submit" 0 $'job,vc,submit,size_server_hours,max_parallelism\nj1,a,2026-01-05T00:00:00Z,10,10\n' "$H
j1,a,1767571200,1767574800,1" '' stretch -q "$D/two.csv"
t "summary on stderr" 0 '' '*' 'consistency' stretch "$D/three.csv" "$D/waterfill.csv"
printf 'old\n' > "$TMP/keep.csv"
printf 'old vcs\n' > "$TMP/keep-vcs.csv"
t "failed run keeps -o and --vcs" 65 "$J
j1,zz,0,1,1
" '' '*' stretch "$D/two.csv" -o "$TMP/keep.csv" --vcs "$TMP/keep-vcs.csv"
tcheck "old content intact" grep -qx old "$TMP/keep.csv"
tcheck "old --vcs content intact" grep -qx "old vcs" "$TMP/keep-vcs.csv"
t "unwritable --vcs" 73 '' '*' 'cannot create' stretch -q "$D/two.csv" "$D/alone.csv" --vcs /nonexistent-dir/v.csv
t "help has examples" 0 '' '*' '' stretch --help

# Parallelism caps (issue 18 item 8): single-server jobs in a 10-server VC,
# never contended, have stretch 1 h / (1 sh / 10) = 10 whatever the
# scheduler; the floor cap / min(p, servers) = 10 is all of it -> warning.
t "caps dominate: warning" 0 $'job,vc,submit,size_server_hours,max_parallelism\nj1,a,0,1,1\nj2,a,600,1,1\n' "$H
j1,a,0,3600,10
j2,a,600,4200,10" "dominated by max_parallelism caps: jobs alone in an idle cluster would have mean stretch 10 of the 10 measured" stretch "$D/one.csv"
tcheck "no cap warning when max_parallelism = capacity" bash -c '! stretch "$1/two.csv" "$1/alone.csv" 2>&1 >/dev/null | grep -q "max_parallelism caps"' _ "$D"
tcheck "summary: parallelism floor 10" bash -c 'printf "job,vc,submit,size_server_hours,max_parallelism\nj1,a,0,1,1\n" |
    stretch -q "$1/one.csv" --summary "$2/fl.csv" >/dev/null && grep -qx "parallelism_floor_stretch,10" "$2/fl.csv"' _ "$D" "$TMP"
# --summary /dev/stdout with stdout redirected to a file is --summary -
# (the audit of 2026-12-04: it opened the file again and the summary was
# lost under the job rows, exit 0)
tcheck "--summary /dev/stdout into a file: the bytes of --summary -" bash -c '
    printf "vc,capacity\na,10\n" >"$1.c"; printf "job,vc,submit,size_server_hours\nj1,a,100,1\n" >"$1.j"
    stretch -q --summary /dev/stdout "$1.c" "$1.j" >"$1.dev" && stretch -q --summary - "$1.c" "$1.j" >"$1.dash" &&
    cmp "$1.dev" "$1.dash" && grep -qx "mean_stretch,1" "$1.dev" && grep -qx "j1,a,100,460,1" "$1.dev"' _ "$TMP/sumdev"
# (audit) --summary mixed two scopes: jobs, mean_stretch,
# parallelism_floor_stretch and work_server_hours covered every job, while
# --vcs, utilization and consistency covered the --start/--horizon window
# (a window holding no job read jobs 1, mean_stretch 0.667).  The summary
# now has --vcs's scope: a window without jobs has none, and the run's own
# count is jobs_simulated.
tcheck "summary: a window without jobs has none (--vcs's scope)" bash -c '
    printf "vc,capacity\na,10\nb,5\n" > "$1/c2.csv"; printf "job,vc,submit,size_server_hours\nj1,a,0,1\n" > "$1/j1.csv"
    stretch -q "$1/c2.csv" "$1/j1.csv" --start 100000 --vcs "$1/w-v.csv" --summary "$1/w-s.csv" > /dev/null &&
    [ "$(grep -E "^(jobs|jobs_simulated|mean_stretch|parallelism_floor_stretch|work_server_hours|used_server_hours)," "$1/w-s.csv" | tr "\n" " ")" = \
      "jobs,0 jobs_simulated,1 mean_stretch, parallelism_floor_stretch, work_server_hours,0 used_server_hours,1 " ]' _ "$TMP"
# (review, 2026-12-04) the window was closed at its end, so a job submitted
# at start + horizon counted in two windows end to end: a daily job at
# 00:00:00 (x, y, z of 1 server-hour at 0, 1 d and 2 d on VC A of 100) was
# in both [0, 1 d] and [1 d, 2 d].  Half-open, [0, 1 d) holds x alone and
# [1 d, 2 d) y alone.  The default window must still hold the last submit
# (2 d): the whole days from the first submit that hold it, floor(2 d / 1 d)
# + 1 = 3 days (ceil gave 2 days, whose closed end held z), so A's load is
# 3 / (100 x 72 h) = 1/2400, each --daily day's 1 / (100 x 24 h) (it was
# 3 / (100 x 48 h) = 0.000625 beside days of 1/2400).
printf 'vc,capacity\nA,100\nB,300\n' > "$TMP/edge-v.csv"
printf 'job,vc,submit,size_server_hours\nx,A,0,1\ny,A,86400,1\nz,A,172800,1\n' > "$TMP/edge-j.csv"
for st in 0 86400; do
    t "window [$st s, +1 d) is half-open: one job, one day" 0 '' "jobs,1
work_server_hours,1
A,1,1
A,$st,1" '' \
        bash -c 'stretch -q --start "$1" --horizon 1d --summary "$2/edge-s.csv" --vcs "$2/edge-vcs.csv" --daily "$2/edge-d.csv" \
                "$2/edge-v.csv" "$2/edge-j.csv" -o /dev/null &&
            grep -E "^(jobs|work_server_hours)," "$2/edge-s.csv" && awk -F, "\$1 == \"A\" { print \$1 \",\" \$3 \",\" \$4 }" "$2/edge-vcs.csv" &&
            awk -F, "NR > 1 { print \$1 \",\" \$2 \",\" \$3 }" "$2/edge-d.csv"' _ "$st" "$TMP"
done
t "default window: the whole days that hold the last submit (3 d for a submit at 2 d)" 0 '' \
    $'jobs,3\nhorizon_s,259200\nA,0.0004166666666666667\nA,0,0.0004166666666666667\nA,86400,0.0004166666666666667\nA,172800,0.0004166666666666667' '' \
    bash -c 'stretch -q --summary "$1/edge-s.csv" --vcs "$1/edge-vcs.csv" --daily "$1/edge-d.csv" "$1/edge-v.csv" "$1/edge-j.csv" -o /dev/null &&
        grep -E "^(horizon_s|jobs)," "$1/edge-s.csv" && awk -F, "\$1 == \"A\" { print \$1 \",\" \$5 }" "$1/edge-vcs.csv" &&
        awk -F, "NR > 1 { print \$1 \",\" \$2 \",\" \$4 }" "$1/edge-d.csv"' _ "$TMP"
# Ten days of the paper-like scenario, every third job capped at 50 servers,
# accounted over days 4-6 only: the summary's jobs, work and used hours are
# the --vcs columns' sums, its mean stretch and parallelism floor those of
# the per-job rows submitted in the window (computed here in awk from the
# rows and the inputs), jobs_simulated every row.
awk -F, -v OFS=, 'NR > 1 && NR % 3 == 0 { $5 = 50 } 1' "$TMP/jobs.csv" > "$TMP/jobs-cap.csv"
for s in maxmin drr; do
    tcheck "summary $s over a window: the --vcs rows' sums and the window's jobs" bash -c '
        stretch -q -s "$2" --system-servers 1250 --start 2026-01-08T00:00:00Z --horizon 3d "$1/vcs.csv" "$1/jobs-cap.csv" \
            --vcs "$1/wv.csv" --summary "$1/ws.csv" > "$1/wo.csv" &&
        awk -F, "FILENAME == ARGV[1] && FNR > 1 { cap[\$1] = \$2; own += \$2 }
            FILENAME == ARGV[2] && FNR > 1 { p[\$1] = \$5 }
            FILENAME == ARGV[3] && FNR > 1 { rows++; if (\$3 >= 1767830400 && \$3 < 1767830400 + 3 * 86400) {
                n++; ss += \$5; m = p[\$1] == \"\" || p[\$1] > own + 1250 ? own + 1250 : p[\$1]; fl += cap[\$2] / m } }
            FILENAME == ARGV[4] && FNR > 1 { vj += \$3; vw += \$4; vu += \$10 }
            FILENAME == ARGV[5] { v[\$1] = \$2 }
            function off(a, b) { return (a - b) ^ 2 > 1e-18 * (b ^ 2 + 1) }
            END { if (n < 100 || n == rows || v[\"jobs\"] != n || v[\"jobs\"] != vj || v[\"jobs_simulated\"] != rows ||
                      off(v[\"mean_stretch\"], ss / n) || off(v[\"parallelism_floor_stretch\"], fl / n) ||
                      off(v[\"work_server_hours\"], vw) || off(v[\"used_server_hours\"], vu)) {
                      print n, rows, vj, ss / n, fl / n, vw, vu; for (k in v) print k, v[k]; exit 1 } }" \
            "$1/vcs.csv" "$1/jobs-cap.csv" "$1/wo.csv" "$1/wv.csv" "$1/ws.csv"' _ "$TMP" $s
done
# the headline script, small: 3 days of the paper-like month, both real traces
tcheck "examples/vc-fairness.sh (3 days)" bash -c '"$1/examples/vc-fairness.sh" 3 "$2/vf" > "$2/vf.txt" && [ "$(grep -c consistency "$2/vf.txt")" -ge 3 ]' _ "$ROOT" "$TMP"

# Streaming (issue 20 item 3): jobs are read as the simulation needs them.
# Out of submit order within --reorder: the same jobs and finish times as
# the same rows stably sorted by submit (ties kept in file order, so the
# simulation sees the same arrivals); beyond it: an error at the row.
awk 'NR == 1 { print; next } NR % 2 == 0 { h = $0; next } { print; print h } END { if (NR % 2 == 0) print h }' \
    "$TMP/jobs.csv" > "$TMP/swapped.csv"
{ head -1 "$TMP/swapped.csv"; tail -n +2 "$TMP/swapped.csv" | LC_ALL=C sort -s -t, -k3,3n; } > "$TMP/resorted.csv"
tcheck "swapped pairs, --reorder 1: same jobs as sorted" bash -c '
    cmp <(stretch -q --reorder 1 --system-servers 1250 "$1/vcs.csv" "$1/swapped.csv" | LC_ALL=C sort) \
        <(stretch -q --system-servers 1250 "$1/vcs.csv" "$1/resorted.csv" | LC_ALL=C sort)' _ "$TMP"
t "out of order beyond --reorder" 65 "$J
j1,a,100,1,1
j2,a,50,1,1
" '' "stretch: <stdin>:3: submit '50' is before that of a job already started: jobs must be sorted by submit, or out of order by at most --reorder 0 jobs" stretch --reorder 0 "$D/two.csv"
# j1 finished (at 360) before the error, but j2 (submit 50) shares its VC and
# would have slowed it: stdout is held, so no j1 row is left behind
t "out of order: nothing on stdout" 65 "$J
j1,a,0,1,10
j3,a,100000,1,10
j2,a,50,1,10
" '' "stretch: <stdin>:4: submit '50' is before that of a job already started" stretch --reorder 0 "$D/two.csv"
t "out of order within --reorder 1" 0 "$J
j1,a,100,1,1
j2,a,50,1,1
" "$H
j1,a,100,3700,10
j2,a,50,3650,10" '' stretch -q --reorder 1 "$D/two.csv"
# a job's rows wait for every earlier job: j1 (10 sh on 1 server, 10 h)
# holds j2 (done at 1 h) back; the output stays in input order
t "rows in input order" 0 "$J
j1,a,0,10,1
j2,b,0,1,1
" "$H
j1,a,0,36000,10
j2,b,0,3600,30" '' stretch -q "$D/two.csv"

# --on-error skip (issue 18 item 5): a bad job row (bad size, unknown vc, a
# duplicate id: the later row) is written to the rejects and the run goes
# on; the output is that of the good rows alone.  Likewise a bad capacity.
printf '%s\n' "$J" j1,a,0,10,10 j2,a,60,x,10 j3,zz,60,1,1 j1,b,120,5,5 j4,b,180,5,5 > "$TMP/skip-bad.csv"
printf '%s\n' "$J" j1,a,0,10,10 j4,b,180,5,5 > "$TMP/skip-good.csv"
tcheck "skip: output of the good rows" bash -c '
    cmp <(stretch -q --on-error skip --rejects "$1/rej.csv" "$2/two.csv" "$1/skip-bad.csv") <(stretch -q "$2/two.csv" "$1/skip-good.csv")' _ "$TMP" "$D"
tcheck "skip: rejects with reasons" diff "$TMP/rej.csv" - <<REJ
file,line,reason
$TMP/skip-bad.csv,3,column 'size_server_hours': invalid number 'x'
$TMP/skip-bad.csv,4,unknown vc 'zz' (not in $D/two.csv)
$TMP/skip-bad.csv,5,duplicate job 'j1' (first at line 2)
REJ
t "skip: summary counts" 0 '' '*' "stretch: 3 bad rows skipped (--on-error skip)" stretch --on-error skip "$D/two.csv" "$TMP/skip-bad.csv"
t "skip: a bad capacity row" 0 '' "$H
j1,a,0,3600,1" "warning: skipped: duplicate vc 'a' (first at line 2)" stretch --on-error skip <(printf 'vc,capacity\na,10\nb,30\na,5\n') "$D/alone.csv"
t "strict: the same row stops the run" 65 '' '' "stretch: $TMP/skip-bad.csv:3: column 'size_server_hours': invalid number 'x'" stretch -q "$D/two.csv" "$TMP/skip-bad.csv"
# 8,000 VCs of 10 servers, a 1 server-hour job in each, 10 s apart: each job runs alone on the idle cluster
# (maxmin lends every idle server): 3600 / 80,000 = 0.045 s.  Epoch times round each such interval to
# 2.4e-7 s, 5e-6 of it: the conservation self-check used to call that an internal error (exit 70).
tcheck "8,000 VCs, sub-second jobs at epoch times: no false internal error, each job 0.045 s" bash -c '
    awk "BEGIN { print \"vc,capacity\"; for (i = 0; i < 8000; i++) printf \"v%d,10\\n\", i }" > "$1/v8k.csv" &&
    awk "BEGIN { print \"job,vc,submit,size_server_hours\"; for (i = 0; i < 8000; i++) printf \"j%d,v%d,%d,1\\n\", i, i, 1700000000 + i * 10 }" > "$1/j8k.csv" &&
    stretch -q "$1/v8k.csv" "$1/j8k.csv" | awk -F, "NR > 1 { n++; d = \$4 - \$3 - 0.045; if (d < 0) d = -d; if (d > 1e-6) bad++ } END { exit !(n == 8000 && !bad) }"' _ "$TMP"

# p_j = min(max_parallelism, M) (stretch(1), Model): a lone job wider than
# the cluster does not make it contended.  A, B of 10 (M = 20); a1 (A,
# p = 50 -> 20, 10 sh) alone: 20 servers for 0.5 h.  balanced: demand 20 =
# M, not contended, so A pays nothing for B's idle 10 (u = 1), B +10 x 0.5
# = +5; contended_share 0.  (With p = 50 uncapped: contended all along,
# A -5, share 1/48; the man page said "no limit" and the code capped.)
printf 'vc,capacity\nA,10\nB,10\n' > "$TMP/wide.vcs.csv"
printf 'job,vc,submit,size_server_hours,max_parallelism\na1,A,0,10,50\n' > "$TMP/wide.jobs.csv"
tcheck "a job wider than the cluster: p capped at M, not contended" bash -c '
    stretch -q -s balanced --quantum 0 "$1" "$2" --vcs "$3.vcs" --summary "$3.sum" > "$3.out" &&
    [ "$(cut -d, -f1,12 "$3.vcs")" = "$(printf "vc,credit_end_server_hours\nA,0\nB,5")" ] &&
    grep -qx "contended_share,0" "$3.sum" && grep -qx "a1,A,0,1800,0.5" "$3.out"' \
    _ "$TMP/wide.vcs.csv" "$TMP/wide.jobs.csv" "$TMP/wide"
