# reprov: streaming re-provisioning (tests/data/reprov).  Plans are written by
# tests/check/replay_plan.py from hand-made specs (independent CRC writer), so
# every expected decision below is worked by hand from the spec.
D="$ROOT/tests/data/reprov"
T0=1767571200
CAP="--capacity cores=3000,mem=1e9"
cut5() { cut -d, -f1-5 "$@"; }

# --- DRA (plan.spec: job S plans 500 containers at 0-120 s, 1000 at 120-240 s
# of every hour, nothing after: a straggling Red stage).
# The paper's reading (default --recent instance): R is the largest allocation
# of the current instance over the plan steps covering [t - 120, t], the
# extensions the DRA granted included (Morpheus §7: it "updates the current
# instance ... by increasing it locally").
# t=240: used 1000 + pending 1500 = 2500 > planned 0; steps 2-4 hold 1000,
#   1000, 0, no extension yet: R = 1000, rho 2: cap 2000 -> extended by
#   exactly 2000 until 300.
# t=270: extension in force, no decision.
# t=300: it lapsed; demand 900 > 0; steps 3-5: 1000, 0 + the 2000 granted
#   over [240, 300), 0: R = 2000, cap 4000: renewed with 900 only (never
#   beyond the ask).  old_alloc is what was in force at 300: the plan's 0
#   (the 2000 ended at 300), not the lapsed 2000.
# t=360: no demand (the 900 lapses).  t=420: demand 100 > 0; steps 5-7: the
#   900 granted over [300, 360), 0, 0: R = 900, cap 1800; the last extension
#   ended 60 s ago (<= grant): renewed with 100 until 480, from 0 in force.
# X has no reservation: ignored.
reprov $CAP --plan "$D/plan.csv" "$D/straggler.csv" > "$TMP/dra.csv" 2> "$TMP/dra.err"
t "dra: straggler extended, renewed within the ask, stretched past the plan" 0 '' \
"t,job,policy,old_alloc,new_alloc,until
$((T0+240)),S,dra,0,2000,$((T0+300))
$((T0+300)),S,dra,0,900,$((T0+360))
$((T0+420)),S,dra,0,100,$((T0+480))" '' cut -d, -f1-6 "$TMP/dra.csv"
t "dra: reasons say capped / within, R counts the extensions" 0 '' \
'granted (extend): demand 2500 > planned 0; extra 2000 capped at rho*max recent 2000
granted (renew): demand 900 > planned 0; extra 900 within rho*max recent 4000
granted (renew): demand 100 > planned 0; extra 100 within rho*max recent 1800' '' \
    awk -F, 'NR > 1 { sub(/^[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,/, ""); print }' "$TMP/dra.csv"
t "dra: summary counts" 0 '' '*' '' grep -qF '8 samples (1 of jobs without a reservation, ignored); 3 triggers: 1 extended, 2 renewed, 0 refused (plan full), 0 refused (no recent allocation), 0 refused (rho*max recent < 1); 180000 extra container-seconds' "$TMP/dra.err"
# The straggler stream and then S at t=600, after the 100 lapsed at 480:
# steps 8-10 (480-660 s) hold no plan and no extension, so R would be 0 and
# S refused for good; R is its last allocation instead (the 100 in force at
# its sample at 420 s): cap 200, the 100 asked is granted (no starvation).
t "dra: nothing recent: R is the job's last allocation" 0 '' \
"$((T0+600)),S,dra,0,100,$((T0+660)),granted (extend): demand 100 > planned 0; extra 100 within rho*max recent 200 (its last allocation: nothing recent)" '' \
    sh -c "{ cat '$D/straggler.csv'; echo S,$((T0+600)),100,0; } | reprov -q $CAP --plan '$D/plan.csv' | tail -1"
# A job that never had an allocation (its first sample at 600 s): refused.
t "dra: refused when the job never had an allocation" 0 '' \
"$((T0+600)),S,dra,0,0,$((T0+660)),\"refused: demand 100 > planned 0, but no allocation (planned or extended) in the last 120 s to scale\"" '' \
    sh -c "printf 'job,t,used,pending\nS,$((T0+600)),100,0\n' | reprov -q $CAP --plan '$D/plan.csv' | tail -1"
# A cap floor(rho * R) of 0 with R > 0 (--rho 0, or rho below 1/R) refuses
# every trigger: the reason and the summary name the rho cap (it was "no
# allocation (planned or extended) in the last 120 s to scale", counted as
# "refused (no recent allocation)", with R = 1000 at t=240).
for rho in 0 0.0005; do
t "dra: --rho $rho: refused for the rho cap, not for no recent allocation" 0 '' \
"$((T0+240)),S,dra,0,0,$((T0+300)),\"refused: demand 2500 > planned 0, but the extra is capped at floor(rho $rho * max recent 1000) = 0\"
reprov: dra: 1 samples (0 of jobs without a reservation, ignored); 1 triggers: 0 extended, 0 renewed, 0 refused (plan full), 0 refused (no recent allocation), 1 refused (rho*max recent < 1);" '' \
    sh -c "printf 'job,t,used,pending\nS,$((T0+240)),1000,1500\n' | reprov --no-output-header --rho $rho $CAP --plan '$D/plan.csv' 2>&1 | sed 's/ 0 extra container-seconds.*//'"
done
# A bad row stops the run (exit 65): on standard output the decisions before
# it went out as they were made; -o FILE is replaced only when the input
# ends, so FILE is left as it was; either way the summary counts the
# decisions made (reprov(1) said they "went out as they were made" for both).
BADT="job,t,used,pending
S,$((T0+240)),1000,1500
S,$((T0+100)),1,0
"
t "bad row: standard output has the decisions before it" 65 "$BADT" \
"t,job,policy,old_alloc,new_alloc,until
$((T0+240)),S,dra,0,2000,$((T0+300))" '1 triggers: 1 extended' \
    sh -c "reprov $CAP --plan '$D/plan.csv' > '$TMP/so.csv'; rc=\$?; cut -d, -f1-6 '$TMP/so.csv'; exit \$rc"
t "bad row: -o FILE is left as it was, the summary counts the decision" 65 "$BADT" 'old' '1 triggers: 1 extended' \
    sh -c "printf 'old\n' > '$TMP/keep.csv'; reprov $CAP --plan '$D/plan.csv' -o '$TMP/keep.csv'; rc=\$?; cat '$TMP/keep.csv'; exit \$rc"
# The narrower reading (--recent plan): R from the original plan only.
#   t=240 and t=300 as above but the cap at 300 is 2000 (steps 3-5 plan 1000,
#   0, 0); t=420: nothing planned in steps 5-7: refused.
reprov --recent plan $CAP --plan "$D/plan.csv" "$D/straggler.csv" > "$TMP/drap.csv" 2> "$TMP/drap.err"
t "dra --recent plan: refused without recent plan" 0 '' \
"t,job,policy,old_alloc,new_alloc,until
$((T0+240)),S,dra,0,2000,$((T0+300))
$((T0+300)),S,dra,0,900,$((T0+360))
$((T0+420)),S,dra,0,0,$((T0+480))" '' cut -d, -f1-6 "$TMP/drap.csv"
t "dra --recent plan: reasons" 0 '' \
'granted (extend): demand 2500 > planned 0; extra 2000 capped at rho*max recent 2000
granted (renew): demand 900 > planned 0; extra 900 within rho*max recent 2000
"refused: demand 100 > planned 0, but no planned allocation in the last 120 s to scale"' '' \
    awk -F, 'NR > 1 { sub(/^[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,/, ""); print }' "$TMP/drap.csv"
t "dra --recent plan: summary counts" 0 '' '*' '' grep -qF '8 samples (1 of jobs without a reservation, ignored); 3 triggers: 1 extended, 1 renewed, 0 refused (plan full), 1 refused (no recent allocation), 0 refused (rho*max recent < 1); 174000 extra container-seconds' "$TMP/drap.err"
t "dra: bad --recent" 64 '' '' "invalid value for --recent: 'both'" reprov --recent both $CAP --plan "$D/plan.csv"

# full.spec adds job F with 2000 containers at 240-360 s: capacity 3000 leaves
# room for 1000 < the 2000 wanted -> a partial grant of 1000 at 240; in force
# at 270; at 300 it lapsed: R over steps 3-5 = 1000 (plan at 3, the 1000
# granted at 4), cap 2000, room 1000 at step 5: partial again (a renewal:
# old = the plan's 0 in force at 300, the 1000 having lapsed at 300).
t "dra: partial grants when the plan is nearly full" 0 "@$D/full_stream.csv" \
"t,job,policy,old_alloc,new_alloc,until,reason
$((T0+240)),S,dra,0,1000,$((T0+300)),\"partial (extend): demand 2500 > planned 0; wanted 2000 (capped at rho*max recent 2000), 1000 fit (offset 240 s binds)\"
$((T0+300)),S,dra,0,1000,$((T0+360)),\"partial (renew): demand 2500 > planned 0; wanted 2000 (capped at rho*max recent 2000), 1000 fit (offset 300 s binds)\"" '' \
    reprov -q $CAP --plan "$D/full.csv"
# Starvation, and capacity freeing: capacity 2000, F takes all of it at
# 240-360 s.  S runs 1000 at 180 s (its plan), then asks 2500 at 240, 300
# and 360 s.  240: R = 1000, cap 2000, room 0: refused (plan full); 300: the
# same at step 5; 360: the window (steps 4-6) holds nothing, R = S's last
# allocation 1000, cap 2000, and F is gone: granted 2000 (before, R = 0 and
# S was refused for good, "no allocation to scale").
t "dra: a starved job is granted again once capacity frees" 0 '' \
"t,job,policy,old_alloc,new_alloc,until,reason
$((T0+240)),S,dra,0,0,$((T0+300)),refused: plan full: 2000 more containers do not fit at offset 240 s (room for 0)
$((T0+300)),S,dra,0,0,$((T0+360)),refused: plan full: 2000 more containers do not fit at offset 300 s (room for 0)
$((T0+360)),S,dra,0,2000,$((T0+420)),granted (extend): demand 2500 > planned 0; extra 2000 capped at rho*max recent 2000 (its last allocation: nothing recent)" '' \
    sh -c "printf 'job,t,used,pending\nS,$((T0+180)),1000,0\nS,$((T0+240)),1000,1500\nS,$((T0+300)),1000,1500\nS,$((T0+360)),1000,1500\n' | reprov -q --capacity cores=2000,mem=1e9 --plan '$D/full.csv'"
# with a larger cluster the same stream is granted (2000 fits in 5000 - 2000
# at steps 4-5).  At 300 the 2000 granted over [240, 300) makes R = 2000,
# cap 4000: the whole ask above the plan, 2500, fits (F 2000 + 2500 <= 5000
# at step 5); with --recent plan R stays 1000 and the extra 2000.
t "dra: same stream fits a larger cluster" 0 "@$D/full_stream.csv" \
"t,job,policy,old_alloc,new_alloc
$((T0+240)),S,dra,0,2000
$((T0+300)),S,dra,0,2500" '' sh -c "reprov -q --capacity cores=5000,mem=1e9 --plan '$D/full.csv' | cut -d, -f1-5"
t "dra --recent plan: same stream, cap from the plan only" 0 "@$D/full_stream.csv" \
"t,job,policy,old_alloc,new_alloc
$((T0+240)),S,dra,0,2000
$((T0+300)),S,dra,0,2000" '' sh -c "reprov -q --recent plan --capacity cores=5000,mem=1e9 --plan '$D/full.csv' | cut -d, -f1-5"
# rho and window are honoured: rho 0.5 caps at 500; window 0 sees only the current step (0): refused
t "dra: --rho 0.5" 0 "@$D/full_stream.csv" \
"t,job,policy,old_alloc,new_alloc
$((T0+240)),S,dra,0,500" '' sh -c "reprov -q --rho 0.5 --capacity cores=5000,mem=1e9 --plan '$D/full.csv' | cut -d, -f1-5 | head -2"
t "dra: --grant 2m holds the extension" 0 "@$D/full_stream.csv" \
"t,job,policy,old_alloc,new_alloc,until
$((T0+240)),S,dra,0,2000,$((T0+360))" '' sh -c "reprov -q --grant 2m --capacity cores=5000,mem=1e9 --plan '$D/full.csv' | cut -d, -f1-6"
# A grant longer than the plan's cycle (plan.csv: lcm 1h) holds its extra once
# at any moment: each plan step counts it once.  S plans 1000 at 120-240 s of
# every hour; capacity 3000 leaves room 2000 there, 3000 elsewhere; at 240 s
# R = 1000, cap 2000: the 2000 fit at every step, whatever the grant's length
# (folded onto the 1h cycle, a 2h grant counted itself twice: 1000 granted;
# 100d 2400 times: "plan full").  With capacity 2999, 1999 fit at 120 s.
for g in 2h 100d; do
t "dra: --grant $g on a 1h plan: each plan step counted once" 0 '' \
"t,job,policy,old_alloc,new_alloc,reason
$((T0+240)),S,dra,0,2000,granted (extend): demand 2500 > planned 0; extra 2000 capped at rho*max recent 2000" '' \
    sh -c "reprov -q $CAP --plan '$D/plan.csv' --grant $g '$D/straggler.csv' | cut -d, -f1-5,7-"
done
t "dra: --grant 2h on a 1h plan: partial at the step that binds" 0 '' \
"$((T0+240)),S,dra,0,1999,$((T0+240+7200)),\"partial (extend): demand 2500 > planned 0; wanted 2000 (capped at rho*max recent 2000), 1999 fit (offset 120 s binds)\"" '' \
    sh -c "reprov -q --capacity cores=2999,mem=1e9 --plan '$D/plan.csv' --grant 2h '$D/straggler.csv' | tail -n +2"
# ... and it leaves the plan whole when it lapses: at 240 + 7200 s the demand
# above the plan is 2500, R = 1000 planned + the 2000 in force at 7320-7440 s
# = 3000, cap 6000; room at offset 120 s: 3000 - 1000 = 2000: renewed with 2000
# (a residue of the lapsed grant would leave less), from the 0 the plan holds
# at offset 240 s (the 2000 lapsed at 7440 s).
t "dra: --grant 2h: a lapsed grant leaves its room" 0 '' \
"$((T0+240+7200)),S,dra,0,2000,$((T0+240+14400)),\"partial (renew): demand 2500 > planned 0; wanted 2500 (within rho*max recent 6000), 2000 fit (offset 120 s binds)\"" '' \
    sh -c "printf 'job,t,used,pending\nS,$((T0+180)),1000,0\nS,$((T0+240)),1000,1500\nS,$((T0+240+7200)),1000,1500\n' | reprov -q $CAP --plan '$D/plan.csv' --grant 2h | tail -1"
# --grant and --window at most a year: a decision visits their plan steps
# (--window 1e12 never ended) and a grant of 1e308 s printed until 1e+308
# (now refused by every duration option's own bound, 1e15 s).
t "dra: --window beyond a year refused" 64 '' '' "invalid value for --window: '1e12' (at most 366d)" \
    timeout 20 reprov $CAP --plan "$D/plan.csv" --window 1e12 "$D/straggler.csv"
t "dra: --grant beyond a year refused" 64 '' '' "invalid value for --grant: '1e9' (at most 366d)" \
    reprov $CAP --plan "$D/plan.csv" --grant 1e9 "$D/straggler.csv"
t "dra: --grant 1e308 refused" 64 '' '' "invalid value for --grant: '1e308' (out of range: at most 1e+15 s)" \
    reprov $CAP --plan "$D/plan.csv" --grant 1e308 "$D/straggler.csv"
t "dra: --window 366d: the plan is recent" 0 '' '*' '' sh -c "reprov -q $CAP --plan '$D/plan.csv' --window 366d '$D/straggler.csv' | sed -n 2p | grep -q 'capped at rho\*max recent 2000\$'"

# old_alloc is what was in force at t: the plan's allocation plus an
# extension still running then.  S plans 500 at 0-120 s, 1000 at 120-240 s.
# t=60: demand 800 > 500; R over steps -1..1 = 500, cap 1000: extended by
# 300 until 120, 500 -> 800.  t=150: the 300 lapsed at 120, 30 s ago: a
# renew; in force at 150: the plan's 1000 alone (old binary: 1000 + the
# lapsed 300 = 1300, never in force); R over steps 0..2 = max(500, 500 + 300,
# 1000) = 1000, cap 2000: extra 500 until 210 (room 2000 at steps 2-3):
# 1000 -> 1500.
t "dra: renew: old_alloc is the plan in force at t, not plus the lapsed extra" 0 \
"job,t,used,pending
S,$((T0+60)),500,300
S,$((T0+150)),1000,500
" \
"t,job,policy,old_alloc,new_alloc,until,reason
$((T0+60)),S,dra,500,800,$((T0+120)),granted (extend): demand 800 > planned 500; extra 300 within rho*max recent 1000
$((T0+150)),S,dra,1000,1500,$((T0+210)),granted (renew): demand 1500 > planned 1000; extra 500 within rho*max recent 2000" '' \
    reprov -q $CAP --plan "$D/plan.csv"
# The audit's case: the extension ends while the plan drops to 0.  The same
# plan; t=180: demand 1500 > 1000, R over steps 1..3 = 1000, cap 2000: extra
# 500 until 240 (1000 -> 1500).  t=245: the plan holds 0 and the 500 ended at
# 240: 0 was in force (old binary: 500); R over steps 2..4 = 1000 + 500 at
# step 3 = 1500, cap 3000: a renew of 1500, 0 -> 1500.
t "dra: renew after the plan ends: old_alloc 0" 0 \
"job,t,used,pending
S,$((T0+180)),1000,500
S,$((T0+245)),1000,500
" \
"t,job,policy,old_alloc,new_alloc,until
$((T0+180)),S,dra,1000,1500,$((T0+240))
$((T0+245)),S,dra,0,1500,$((T0+305))" '' \
    sh -c "reprov -q $CAP --plan '$D/plan.csv' | cut -d, -f1-6"

# A plan above --capacity is run, with a warning (unless -q): lcmpack writes
# such plans when the capacity shrank under kept reservations, and the DRA
# still grants at the steps with room; a capacity in the wrong unit refuses
# nearly every trigger, and the warning shows it (old binary: no word).
# plan.csv holds 1000 one-core containers at 120-240 s (2 steps): 1000/700.
t "dra: plan above --capacity: warned, decisions as ever" 0 '' '*' \
    "reprov: $D/plan.csv: warning: the plan exceeds the capacity (cost 1.4286 at t=120 s: cores 1000 of 700, mem_mb 1024000 of 1000000000; over at 2 of 60 steps): every extension that meets one of those steps is refused (is --capacity right? mem is in MB)" \
    reprov --capacity cores=700,mem=1e9 --plan "$D/plan.csv" "$D/straggler.csv"
t "dra: plan above --capacity: partial grants where there is room" 0 '' \
"t,job,policy,old_alloc,new_alloc
$((T0+240)),S,dra,0,700
$((T0+300)),S,dra,0,700
$((T0+420)),S,dra,0,100" '' sh -c "reprov -q --capacity cores=700,mem=1e9 --plan '$D/plan.csv' '$D/straggler.csv' | cut -d, -f1-5"
# mem given in GB (1000 for 1000 GB): 1024000 MB at 120 s is 1024 times it;
# 500 containers at 0-120 s too: over at 4 steps, every trigger refused
t "dra: mem in the wrong unit: the warning says how far over" 0 '' '*' \
    "warning: the plan exceeds the capacity (cost 1024.0000 at t=120 s: cores 1000 of 3000, mem_mb 1024000 of 1000; over at 4 of 60 steps)" \
    reprov --capacity cores=3000,mem=1000 --plan "$D/plan.csv" "$D/straggler.csv"
t "dra: plan above --capacity: -q says nothing" 0 '' '*' '' \
    reprov -q --capacity cores=700,mem=1e9 --plan "$D/plan.csv" "$D/straggler.csv"
t "dra: a plan within --capacity: no warning" 1 '' 0 '' \
    sh -c "reprov $CAP --plan '$D/plan.csv' '$D/straggler.csv' 2>&1 >/dev/null | grep -c warning"

# tracegen usage through --col used=containers (reprov(1)): it is grouped by
# job and run, so it is sorted by t (column 3) first, the header kept (the
# old page said it read tracegen usage directly: exit 65, time order).  The
# plan of the audit: jobs A and B from lcmpack.
printf 'job,period,a,d,status\nA,3600,0,1200,actionable\nB,3600,0,1200,actionable\n' >"$TMP/tu.slo"
printf 'job,step,offset,alloc,cores,mem_mb\nA,60,0,6,1,1024\nA,60,60,6,1,1024\nA,60,120,6,1,1024\nA,60,180,6,1,1024\nA,60,240,6,1,1024\nB,60,0,3,1,1024\nB,60,60,3,1,1024\nB,60,120,3,1,1024\n' >"$TMP/tu.sky"
lcmpack -q --slo "$TMP/tu.slo" --capacity cores=10,mem=1000000 --lcm 1h "$TMP/tu.sky" >"$TMP/tu.plan"
t "dra: tracegen usage unsorted: time order" 65 '' '*' "samples must come in time order" \
    sh -c "tracegen -q usage --count 5 --days 2 | reprov --plan '$TMP/tu.plan' --capacity cores=10,mem=1e6 --col used=containers -"
t "dra: tracegen usage sorted by t, as reprov(1) shows" 0 '' 't,job,policy,old_alloc,new_alloc,until,reason' \
    'dra: 1485 samples (1485 of jobs without a reservation, ignored)' \
    sh -c "tracegen -q usage --count 5 --days 2 | { read -r h; echo \"\$h\"; sort -s -t, -k3,3n; } | reprov --plan '$TMP/tu.plan' --capacity cores=10,mem=1e6 --col used=containers -"
# ... and with job00000 renamed A its samples reach the DRA: rows for A
# only, in time order
tcheck "dra: tracegen usage sorted by t: decisions for a planned job" bash -c '
    tracegen -q usage --count 5 --days 2 | sed "s/^job00000,/A,/" | { read -r h; echo "$h"; sort -s -t, -k3,3n; } |
    reprov -q --plan "$1" --capacity cores=10,mem=1e6 --col used=containers - |
    awk -F, "NR > 1 { if (\$2 != \"A\" || \$1 < last) bad++; last = \$1; n++ } END { exit !(n > 0 && !bad) }"' _ "$TMP/tu.plan"

# --- streaming: a decision must come out while the input is still open
mkfifo "$TMP/fifo"
( reprov -q $CAP --plan "$D/plan.csv" < "$TMP/fifo" > "$TMP/live.csv" 2>&1 ) &
RP=$!
exec 3> "$TMP/fifo"
printf 'job,t,used,pending\nS,%s,1000,1500\n' $((T0+240)) >&3
for i in $(seq 1 200); do [ "$(wc -l < "$TMP/live.csv")" -ge 2 ] && break; sleep 0.1; done
live=$(wc -l < "$TMP/live.csv")
exec 3>&-
wait $RP
t "dra: line-buffered (decision before end of input)" 0 '' '2' '' echo "$live"

# --- errors
t "dra: needs --plan" 64 '' '' "needs --plan FILE" reprov $CAP
t "dra: needs --capacity" 64 '' '' "needs --capacity" reprov --plan "$D/plan.csv"
t "dra: bad policy" 64 '' '' "invalid value for --policy: 'foo'" reprov --policy foo
t "dra: time order" 65 $'job,t,used\nS,100,1\nS,50,1\n' '*' "<stdin>:3: t 50 is before the previous sample's 100" reprov $CAP --plan "$D/plan.csv"
t "dra: negative used" 65 $'job,t,used\nS,100,-1\n' '*' "<stdin>:2:" reprov $CAP --plan "$D/plan.csv"
t "dra: nan used" 65 $'job,t,used\nS,100,nan\n' '*' "<stdin>:2:" reprov $CAP --plan "$D/plan.csv"
t "dra: missing column" 65 $'job,t\nS,1\n' '*' "missing required column 'used'" reprov $CAP --plan "$D/plan.csv"
t "dra: edited plan refused" 65 '' '*' "reprov:" sh -c "sed 's/,1000,1,1024/,1001,1,1024/' '$D/plan.csv' > '$TMP/bad.csv'; reprov $CAP --plan '$TMP/bad.csv' < /dev/null"
t "dra: missing plan file" 66 '' '*' "cannot open" reprov $CAP --plan "$TMP/nope.csv"

# --- Jockey: the slides' worked example.  Table (slides.csv) at 10/20/30
# nodes; deadline 60 min after the first sample, so at 1% (10 min elapsed)
# 50 min are left: 10 nodes need 60 (late), 20 need 40 -> 20; at 3% (20 min)
# 40 left: 20 need 37 -> stays 20; at 5% (30 min) 30 left: 20 need 34, 30
# need 20 -> 30.  Slack 1, no hysteresis, no dead zone.
JK="--policy jockey --table $D/slides.csv --slack 1"
t "jockey: slides 1%/50min -> 20, 3%/40min -> 20, 5%/30min -> 30" 0 "@$D/slides_stream.csv" \
"t,job,policy,old_alloc,new_alloc
$((T0+600)),J,jockey,10,20
$((T0+1800)),J,jockey,20,30" '' sh -c "reprov -q $JK --deadline 60m --alpha 1 --dead-zone 0 | cut -d, -f1-5"
# every progress row 1%..5% against deadlines 50/40/30 min (15 jobs at 0 s
# elapsed), checked against the table by an awk checker
reprov -q $JK --utility "$D/cases_utility.csv" --alpha 1 --dead-zone 0 "$D/cases.csv" > "$TMP/cases.out"
tcheck "jockey: 15 slide cases match the table" awk -f "$ROOT/tests/check/reprov_jockey_cases.awk" "$D/slides.csv" "$TMP/cases.out"
# hysteresis alpha 0.5: 10 + .5(20-10) = 15; 15 + .5(20-15) = 17.5 -> 18; 17.5 + .5(30-17.5) = 23.75 -> 24
t "jockey: hysteresis" 0 "@$D/slides_stream.csv" \
"t,job,policy,old_alloc,new_alloc
$((T0+600)),J,jockey,10,15
$((T0+1200)),J,jockey,15,18
$((T0+1800)),J,jockey,18,24" '' sh -c "reprov -q $JK --deadline 60m --alpha 0.5 --dead-zone 0 | cut -d, -f1-5"
# dead zone 0.6: 10 -> 20 passes (|10| >= 6); 20 -> 30 is held (|10| < 12)
t "jockey: dead zone holds a small change" 0 "@$D/slides_stream.csv" \
"t,job,policy,old_alloc,new_alloc
$((T0+600)),J,jockey,10,20" '' sh -c "reprov -q $JK --deadline 60m --alpha 1 --dead-zone 0.6 | cut -d, -f1-5"
# slack 1.2: at 0% (the 1% row), 10 nodes predict 60*1.2 = 72 > 60 -> 20 at once;
# at 1%, 40*1.2 = 48 <= 50 -> stays 20; at 3%, 37*1.2 = 44.4 > 40 -> 30
t "jockey: slack inflates predictions" 0 "@$D/slides_stream.csv" \
"t,job,policy,old_alloc,new_alloc
$T0,J,jockey,10,20
$((T0+1200)),J,jockey,20,30" '' sh -c "reprov -q --policy jockey --table $D/slides.csv --slack 1.2 --deadline 60m --alpha 1 --dead-zone 0 | cut -d, -f1-5"
# Amdahl S=600 s, P=36000 s: at p 0 with 60 min: 600 + 36000/a <= 3600 -> a >= 12;
# at p 0.5 (progress from stages 10/10 + 10/30... = 20/40) with 30 min left: still 12;
# with 20 min left: .5(600 + 36000/a) <= 1200 -> a >= 20
t "jockey: Amdahl model, per-stage progress" 0 "@$D/amdahl.csv" \
"t,job,policy,old_alloc,new_alloc
$T0,J,jockey,1,12
$((T0+2400)),J,jockey,12,20" '' sh -c "reprov -q --policy jockey --amdahl 600,36000 --deadline 60m --slack 1 --alpha 1 --dead-zone 0 | cut -d, -f1-5"
# build-table: r1 reaches 0.25/0.5/0.75 at 50/100/150 of 200 s; r2 at
# 100/166.67/233.33 of 300 s; r3 never finishes (skipped).  Medians of two:
# 250, 175, 116.67, 58.33
t "jockey: --build-table medians" 0 "@$D/history.csv" \
'job,progress,alloc,remaining
J,0,10,250
J,0.25,10,175
J,0.5,10,116.667
J,0.75,10,58.3333' '*' sh -c "reprov --build-table --grid 0.25 | awk -F, 'NR == 1 { print; next } { printf \"%s,%s,%s,%g\n\", \$1, \$2, \$3, \$4 }'"
reprov -q --build-table --grid 0.25 "$D/history.csv" > "$TMP/built.csv"
# Runs are numbered per job (1, 2, ...), so B's run '1' follows A's run '1':
# a new job starts a new run even when the run's name is the same.  A ran
# 200 s (0.5 at 100 s), B 600 s (0.5 at 300 s).  (Before: B's rows went to
# A's run one by one; B vanished and A's table was wrong, exit 0.)
t "jockey: --build-table, the same run name in two jobs" 0 \
$'job,run,t,progress,alloc\nA,1,0,0,10\nA,1,100,0.5,10\nA,1,200,1,10\nB,1,0,0,10\nB,1,300,0.5,10\nB,1,600,1,10\n' \
'job,progress,alloc,remaining
A,0,10,200
A,0.5,10,100
B,0,10,600
B,0.5,10,300' '*' reprov --build-table --grid 0.5
# A job name of 420 characters: its runs at 10 and 20 containers are two
# tables (a fixed 400-byte key cut the allocation off and merged them: one
# table at 10 with the mean of 100 s and 50 s).
LONGJ=$(printf 'j%.0s' $(seq 420))
t "jockey: --build-table, a long job name keeps its allocations apart" 0 \
"job,run,t,progress,alloc
$LONGJ,r1,0,0,10
$LONGJ,r1,100,1,10
$LONGJ,r2,1000,0,20
$LONGJ,r2,1050,1,20
" "job,progress,alloc,remaining
$LONGJ,0,10,100
$LONGJ,0.5,10,50
$LONGJ,0,20,50
$LONGJ,0.5,20,25" '*' reprov --build-table --grid 0.5
t "jockey: a table with two rows for one progress names both lines" 65 $'job,t,progress,alloc\nJ,0,0,1\n' '' \
    "dup.csv:4: job 'J' has a second row for progress 0.5 at alloc 10 (the first at line 2)" \
    sh -c "printf 'job,progress,alloc,remaining\nJ,0.5,10,100\nJ,0,10,200\nJ,0.5,10,90\n' > '$TMP/dup.csv'; reprov -q --policy jockey --table '$TMP/dup.csv' --deadline 1h"
# fuzz round 9 (by hand): a table without a job column said "job '' has a second row"
t "jockey: the same for a table without a job column names no job" 65 $'job,t,progress,alloc\nJ,0,0,1\n' '' \
    "nojob.csv:4: the table has a second row for progress 0.5 at alloc 10 (the first at line 2)" \
    sh -c "printf 'progress,alloc,remaining\n0.5,10,100\n0,10,200\n0.5,10,90\n' > '$TMP/nojob.csv'; reprov -q --policy jockey --table '$TMP/nojob.csv' --deadline 1h"
t "jockey: a built table drives decisions" 0 $'job,t,progress,alloc\nJ,0,0.5,1\n' \
'0,J,jockey,1,10' '' sh -c "reprov -q --policy jockey --table '$TMP/built.csv' --deadline 1h --alpha 1 --dead-zone 0 | tail -1 | cut -d, -f1-5"
t "jockey: needs a model" 64 '' '' "needs one remaining-time model" reprov --policy jockey --deadline 1h
t "jockey: needs a deadline" 64 '' '' "needs --deadline DUR or --utility FILE" reprov --policy jockey --amdahl 1,2
t "jockey: progress above 1" 65 $'job,t,progress,alloc\nJ,0,1.5,1\n' '*' "<stdin>:2: column 'progress': 1.5 is above 1" reprov --policy jockey --amdahl 1,2 --deadline 1h
t "jockey: completed > total" 65 $'job,t,completed,total,alloc\nJ,0,5;2,4;2,1\n' '*' "<stdin>:2: stage 1:" reprov --policy jockey --amdahl 1,2 --deadline 1h
t "jockey: rising utility refused" 65 '' '*' "must not increase" sh -c "printf 't,utility\n0,0\n10,1\n' > '$TMP/u.csv'; reprov --policy jockey --amdahl 1,2 --utility '$TMP/u.csv' < /dev/null"
# the curve of the rows without a job (every other job's) is named as such,
# not as a job '' (fuzz round 13)
t "jockey: the default curve named in its error" 65 '' '*' "u.csv:4: utility of the rows without a job: t 0 not after the previous 60 (rows sorted by t per job)" \
    sh -c "printf 'job,t,utility\nJ,0,1\n,60,1\n,0,1\n' > '$TMP/u.csv'; reprov --policy jockey --amdahl 1,2 --utility '$TMP/u.csv' < /dev/null"
t "jockey: a job's curve named in its error" 65 '' '*' "u.csv:3: utility of 'J' rises from 0 to 1" \
    sh -c "printf 'job,t,utility\nJ,0,0\nJ,60,1\n' > '$TMP/u.csv'; reprov --policy jockey --amdahl 1,2 --utility '$TMP/u.csv' < /dev/null"
t "jockey: bad --alpha" 64 '' '' "invalid value for --alpha" reprov --policy jockey --amdahl 1,2 --deadline 1h --alpha 2
t "dra: time out of range" 65 $'job,t,used\nS,1e300,1\n' '*' "<stdin>:2: column 't': time '1e300' out of range" reprov $CAP --plan "$D/plan.csv"
t "jockey: table allocations above 1000 are candidates" 0 $'job,t,progress,alloc\nJ,0,0,1\n' '0,J,jockey,1,2000' '' \
    sh -c "printf 'progress,alloc,remaining\n0,1000,100\n0,2000,50\n' > '$TMP/big.csv'; reprov -q --policy jockey --table '$TMP/big.csv' --deadline 60 --slack 1 --alpha 1 --dead-zone 0 | tail -1 | cut -d, -f1-5"
# A table none of whose allocations lies in [--min-alloc, --max-alloc]
# leaves the job's runs without a decision: a warning per job naming the
# table's line, and the summary counts the runs (it was exit 0, the header
# only, "0 decisions", nothing said).
printf 'job,progress,alloc,remaining\nA,0,10,1200\nA,0.5,10,600\nA,0,20,600\nA,0.5,20,300\n' > "$TMP/rng.csv"
RNG=$'job,t,progress,alloc\nA,1000,0,10\nA,1100,0.1,10\n'
t "jockey: no table allocation within --max-alloc: warned per job" 0 "$RNG" 't,job,policy,old_alloc,new_alloc,until,reason' \
    "rng.csv:2: warning: job 'A': no allocation of the table (10 to 20) lies in [--min-alloc 1, --max-alloc 5]: its runs get no decision" \
    reprov --policy jockey --table "$TMP/rng.csv" --deadline 15m --max-alloc 5
t "jockey: no table allocation within --max-alloc: counted in the summary" 0 "$RNG" '*' \
    "0 decisions, 0 more held by the dead zone; 0 runs without a model; 1 runs whose table has no allocation in [--min-alloc, --max-alloc];" \
    reprov --policy jockey --table "$TMP/rng.csv" --deadline 15m --max-alloc 5
t "jockey: no table allocation at or above --min-alloc: warned" 0 "$RNG" 't,job,policy,old_alloc,new_alloc,until,reason' \
    "rng.csv:2: warning: job 'A': no allocation of the table (10 to 20) lies at or above --min-alloc 30: its runs get no decision" \
    reprov --policy jockey --table "$TMP/rng.csv" --deadline 15m --min-alloc 30
t "jockey: the same for the rows without a job" 0 "$RNG" '*' \
    "nojobrng.csv:2: warning: the rows without a job: no allocation of the table (10 to 20) lies in [--min-alloc 1, --max-alloc 5]: the runs of jobs without rows get no decision" \
    sh -c "cut -d, -f2- '$TMP/rng.csv' > '$TMP/nojobrng.csv'; reprov --policy jockey --table '$TMP/nojobrng.csv' --deadline 15m --max-alloc 5"
t "jockey: a table allocation within the range: no warning" 0 "$RNG" '' '' \
    sh -c "! reprov --policy jockey --table '$TMP/rng.csv' --deadline 15m --max-alloc 15 2>&1 >/dev/null | grep warning"
t "jockey: -q silences the warning" 0 "$RNG" 't,job,policy,old_alloc,new_alloc,until,reason' '' \
    reprov -q --policy jockey --table "$TMP/rng.csv" --deadline 15m --max-alloc 5
# A recurring job: a run's elapsed time counts from its own first sample.  At
# 5000 s the first run is past its 60 min deadline.  --late flat (the old
# rule): every allocation has the same penalty, so the smallest (1) is
# chosen; at 8000 s progress goes back to 0: a new run, elapsed 0 again, 12
# containers (600 + 36000/a <= 3600).
AM="--policy jockey --amdahl 600,36000 --deadline 60m --slack 1 --alpha 1 --dead-zone 0 --late flat"
t "jockey: new run detected by progress going back" 0 $'job,t,progress,alloc\nJ,0,0,1\nJ,5000,0.5,12\nJ,8000,0,1\n' \
'0,J,jockey,1,12
5000,J,jockey,12,1
8000,J,jockey,1,12' '' sh -c "reprov -q $AM | tail -n +2 | cut -d, -f1-5"
t "jockey: runs named by a run column" 0 $'job,run,t,progress,alloc\nJ,r1,0,0,1\nJ,r2,100,0,1\nJ,r1,5000,0.5,12\n' \
'0,J,jockey,1,12
100,J,jockey,1,12
5000,J,jockey,12,1' '' sh -c "reprov -q $AM | tail -n +2 | cut -d, -f1-5"
# The summary counts runs: one per job (or job and run) plus each one told
# apart by progress going back: J restarts at 3600 and 5000 s: 3 runs (old
# binary: "of 1 runs (2 told apart ...)"); with a run column, the same 3.
# Decisions (rows written) and the evaluations the dead zone held are
# separate counts: 4 rows, 1 more held, 5 samples.
t "jockey: summary: runs told apart by progress count as runs" 0 $'job,t,alloc,progress\nJ,0,10,0\nJ,600,13,0.1\nJ,3600,20,0\nJ,4200,20,0.1\nJ,5000,20,0\n' '' \
    'reprov: jockey: 5 samples of 3 runs (2 told apart by progress going back); 4 decisions, 1 more held by the dead zone; 0 runs without a model;' \
    reprov -o /dev/null --policy jockey --amdahl 300,36000 --deadline 1h -
t "jockey: summary: the same runs named by a run column" 0 $'job,run,t,alloc,progress\nJ,1,0,10,0\nJ,1,600,13,0.1\nJ,2,3600,20,0\nJ,2,4200,20,0.1\nJ,3,5000,20,0\n' '' \
    'reprov: jockey: 5 samples of 3 runs (0 told apart by progress going back); 4 decisions, 1 more held by the dead zone;' \
    reprov -o /dev/null --policy jockey --amdahl 300,36000 --deadline 1h -

# --late linear (the default): past the deadline U = -(1 + (T - 3600)/3600)
# keeps falling, so the late run gets the allocation that minimizes T: at
# 5000 s, p 0.5, T = 5000 + .5 (600 + 36000/a) is least at --max-alloc 100
# (T = 5480, U = -(1 + 1880/3600) = -1.52222).
t "jockey: a late job gets the allocation that minimizes lateness" 0 $'job,t,progress,alloc\nJ,0,0,1\nJ,5000,0.5,12\n' \
'0,J,jockey,1,12
5000,J,jockey,12,100' '' sh -c "reprov -q --policy jockey --amdahl 600,36000 --deadline 60m --slack 1 --alpha 1 --dead-zone 0 --max-alloc 100 | tail -n +2 | cut -d, -f1-5"
# The same with the slides' table and a 25 min deadline: at 1% (0 s) only
# 30 nodes make it (25 min) -> 30.  At 5% with 70 min elapsed the job is
# late: linear keeps 30 (20 min left, the least lateness); flat gives every
# allocation -1 and falls back to the smallest, 10.
t "jockey: late, table: least lateness" 0 $'job,t,progress,alloc\nJ,0,0.01,10\nJ,4200,0.05,30\n' \
'0,J,jockey,10,30' '' sh -c "reprov -q --policy jockey --table $D/slides.csv --slack 1 --deadline 25m --alpha 1 --dead-zone 0 | tail -n +2 | cut -d, -f1-5"
t "jockey: late, table, --late flat: smallest" 0 $'job,t,progress,alloc\nJ,0,0.01,10\nJ,4200,0.05,30\n' \
'0,J,jockey,10,30
4200,J,jockey,30,10' '' sh -c "reprov -q --policy jockey --table $D/slides.csv --slack 1 --deadline 25m --alpha 1 --dead-zone 0 --late flat | tail -n +2 | cut -d, -f1-5"
t "jockey: bad --late" 64 '' '' "invalid value for --late: 'steep'" reprov --policy jockey --amdahl 1,2 --deadline 1h --late steep
# Model and utility values are bounded like any size (1e15): with S, P =
# 1e308 and slack 2 the prediction was inf ("predicted inf s", utility
# -inf); utility points of +-1e308 made the slope inf, every candidate got
# -inf and the smallest allocation (1) was chosen where 14 meets the deadline.
t "jockey: --amdahl beyond 1e15 refused" 64 '' '' "invalid value for --amdahl: '1e308,1e308' (want S,P: 0 <= S <= 1e+15 and 0 < P <= 1e+15 seconds)" \
    reprov --policy jockey --amdahl 1e308,1e308 --deadline 1h --slack 2
t "jockey: table remaining beyond 1e15 refused" 65 $'job,t,progress,alloc\nJ,0,0,10\n' '*' "big.csv:2: column 'remaining': duration '1e308' out of range (|value| <= 1e+15)" \
    sh -c "printf 'progress,alloc,remaining\n0,10,1e308\n' > '$TMP/big.csv'; reprov --policy jockey --table '$TMP/big.csv' --deadline 1h --slack 2"
t "jockey: utility beyond 1e15 refused" 65 $'job,t,progress,alloc\nJ,0,0,10\n' '*' "column 'utility': number '1e308' out of range (|value| <= 1e+15)" \
    sh -c "printf 't,utility\n0,1e308\n3600,-1e308\n' > '$TMP/u.csv'; reprov --policy jockey --amdahl 300,36000 --utility '$TMP/u.csv'"
t "jockey: --penalty beyond 1e15 refused" 64 '' '' "invalid value for --penalty: '1e300' (must be between 0 and 1e+15)" \
    reprov --policy jockey --amdahl 1,2 --deadline 1h --penalty 1e300

# An independent model of the DRA (tests/check/reprov_dra_check.py, written
# from reprov(1)) on random plans, capacities, options and streams: every
# decision row must agree.
mkdir -p "$TMP/dc"
tcheck "dra: random streams agree with an independent model" \
    /usr/bin/python3 "$ROOT/tests/check/reprov_dra_check.py" "$(command -v reprov)" 7 150 "$TMP/dc"

# --- Comparing remaining-time models (tests/data/reprov/tasks.csv): job J,
# one stage of two 10 s tasks on 1 token; r1 learns (--train 0.5), r2 is
# held back.  Checkpoint 0: 20 s left; table (r1) 20; Amdahl with the
# slides' terms S = 10 (one task on the critical path) + P/N = 20/1 -> 30;
# whole-run (1 - p)(S + P/a) = 30; simulator (durations {10, 10}) 20.
# Progress 0.1 (1 of 2 done, at 110 s): 10 left; table 10; Amdahl 10 + 10 =
# 20; whole-run 0.9 x 30 = 27; simulator 10.  From 0.6 (both done): 0, and
# whole-run still (1 - p) 30.
# found by probing options with extreme values: --interval 1e-300 ticked
# --evaluate-loop's replay forever; a positive interval is at least 1 s
t "--interval below 1 s refused" 64 '' '' "invalid value for --interval: '1e-300' (must be 0 or at least 1 s)" timeout 20 reprov --evaluate-loop --interval 1e-300
t "compare-models: hand-worked" 0 "@$D/tasks.csv" 'job,run,alloc,progress,actual_s,table_s,amdahl_s,amdahl_whole_s,simulator_s
J,r2,1,0,20,20,30,30,20
J,r2,1,0.1,10,10,20,27,10
J,r2,1,0.5,10,10,20,15,10
J,r2,1,0.6,0,0,0,12,0
J,r2,1,0.9,0,0,0,3,0' "simulator                mean 0.000" sh -c "reprov --compare-models --train 0.5 | awk -F, -v OFS=, 'NR == 1 { print; next } \$4 == 0 || \$4 == 0.1 || \$4 == 0.5 || \$4 == 0.6 || \$4 == 0.9 { for (i = 5; i <= 9; i++) \$i = sprintf(\"%.10g\", \$i); print }'"
# the held-back run at an allocation no training run had: the table predicts
# nothing; its cells are empty and its summary says so (it printed "mean nan
# median nan (0 predictions)")
tcheck "compare-models: no table prediction, no nan" bash -c '
    out=$(sed "s/^J,r2,1,/J,r2,2,/" "$1/tasks.csv" | reprov --compare-models --train 0.5 2>"$2/cmp.err") || exit 1
    printf "%s\n" "$out" | awk -F, "NR > 1 && \$6 != \"\" { exit 1 }" || { echo "table_s not empty"; exit 1; }
    grep -q "^reprov:   table  *no predictions\$" "$2/cmp.err" || { cat "$2/cmp.err"; exit 1; }
    ! grep -qi nan "$2/cmp.err" || { cat "$2/cmp.err"; exit 1; }' _ "$D" "$TMP"
# Many jobs, runs interleaved across jobs (each job's runs were found by a scan of every later run: 200,000
# runs took 39 s): 70,000 jobs of four runs shaped like J above, run r of every job before run r + 1 of any.
# Each job's held-back runs are r2 and r3 (10 progress rows each) and start as J's r2 does: 20 s actual,
# 20 s by the table, 20 s by the simulator.
tcheck "compare-models: 70,000 jobs, interleaved runs (each job's runs found by link, not by scan)" bash -c '
    awk "BEGIN { print \"job,run,alloc,stage,start,end,failed\"; for (r = 0; r < 4; r++) for (j = 0; j < 70000; j++) {
        t = r * 1000; printf \"j%d,r%d,1,0,%d,%d,0\\nj%d,r%d,1,0,%d,%d,0\\n\", j, r, t, t + 10, j, r, t + 10, t + 20 } }" > "$1/many.csv" &&
    timeout "$2" reprov -q --compare-models --train 0.5 "$1/many.csv" |
    awk -F, "NR > 1 { n[\$1 \",\" \$2]++; runs[\$1] = runs[\$1] \$2; if (\$4 == 0 && !(\$5 == 20 && \$6 == 20 && \$9 == 20)) bad++ }
             END { for (k in n) { pairs++; if (n[k] != 10) bad++ } for (j in runs) { jobs++; if (runs[j] != \"r2\" \"r2\" \"r2\" \"r2\" \"r2\" \"r2\" \"r2\" \"r2\" \"r2\" \"r2\" \"r3\" \"r3\" \"r3\" \"r3\" \"r3\" \"r3\" \"r3\" \"r3\" \"r3\" \"r3\") bad++ }
                   exit !(pairs == 140000 && jobs == 70000 && !bad) }"' _ "$TMP" "$LONG"
t "compare-models: one run cannot be split" 65 "@$D/tasks.csv" '*' "job 'J': 2 runs cannot be split by --train 0.2" reprov --compare-models --train 0.2
t "compare-models: no policy" 64 '' '' "--compare-models reads task records only" reprov --compare-models --policy jockey
t "compare-models: --reps needs it" 64 '' '' "--reps goes with --compare-models or --simulator" reprov --policy jockey --amdahl 1,2 --deadline 1h --reps 3
# an option of another mode would be ignored: refused, each in each mode
# where it does nothing (the Jockey's tuning is used by --evaluate-loop too)
JK="--policy jockey --amdahl 1,2 --deadline 1h"
for o in "--slack 2" "--alpha 0.3" "--dead-zone 0.2" "--min-alloc 2" "--max-alloc 9" "--interval 60" "--penalty 3" "--late flat"; do
    t "dra: $o: 64" 64 '' '' "reprov: ${o%% *} goes with --policy jockey" reprov $CAP --plan "$D/plan.csv" $o
    t "compare-models: $o: 64" 64 '' '' "reprov: ${o%% *} goes with --policy jockey" reprov --compare-models $o
    t "build-table: $o: 64" 64 '' '' "reprov: ${o%% *} goes with --policy jockey" reprov --build-table $o
done
for o in "--grant 5m" "--window 5m" "--rho 1" "--recent plan" "--capacity cores=3,mem=5"; do
    t "jockey: $o: 64" 64 '' '' "reprov: ${o%% *} goes with --policy dra" reprov $JK $o
    t "evaluate-loop: $o: 64" 64 '' '' "reprov: ${o%% *} goes with --policy dra" reprov --evaluate-loop $o
    t "build-table: $o: 64" 64 '' '' "reprov: ${o%% *} goes with --policy dra" reprov --build-table $o
done
t "--grid without --build-table: 64" 64 '' '' "reprov: --grid goes with --build-table" reprov $JK --grid 0.1
tcheck "evaluate-loop takes the Jockey's tuning (--slack, --interval)" bash -c '
    reprov -q --evaluate-loop --train 0.5 --interval 60 --slack 1.5 "$1" > /dev/null' _ "$D/tasks.csv"
t "compare-models: end before start" 65 $'job,run,alloc,stage,start,end,failed\nJ,r,1,0,10,5,0\n' '*' "<stdin>:2: attempt ends (5) before it starts (10)" reprov --compare-models
# tracegen jobruns: determinism, and on its default jobs the simulator and
# the fixed Amdahl beat the whole-run Amdahl (the old reading)
tcheck "tracegen jobruns: same seed, same records" bash -c 'cmp <(tracegen -q jobruns --count 6) <(tracegen -q jobruns --count 6)'
tcheck "compare-models: whole-run Amdahl is the worst" bash -c '
    tracegen -q jobruns --count 12 | reprov --compare-models --reps 10 2>&1 >/dev/null |
    awk "/amdahl \\(remaining/ { a = \$7 } /whole-run/ { w = \$7 } /simulator/ { s = \$4 }
         END { if (!(w > a && w > s)) { print \"whole \" w \" amdahl \" a \" sim \" s; exit 1 } }"'

# --- The job models in the control loop (tests/data/reprov/tasks.csv: one
# stage of two 10 s tasks).  Deadline 15 s, slack 1, no hysteresis.  At 0 s
# (0 of 2 done): simulator 20 s on 1 token, 10 s on 2 -> 2; Amdahl with
# remaining terms 10 + 20/a <= 15 -> a >= 4.  At 12 s (1 done, 3 s left)
# the job is late whatever it gets: the simulator predicts 10 s at every
# allocation (one task left) -> least lateness, smallest: 1; Amdahl 10 +
# 10/a falls with a -> --max-alloc 10.
JS=$'job,t,completed,total,alloc\nJ,0,0,2,1\nJ,12,1,2,2\n'
t "jockey: --simulator in the loop" 0 "$JS" '0,J,jockey,1,2
12,J,jockey,2,1' '' sh -c "reprov -q --policy jockey --simulator '$D/tasks.csv' --deadline 15s --slack 1 --alpha 1 --dead-zone 0 --max-alloc 10 | tail -n +2 | cut -d, -f1-5"
t "jockey: --stage-amdahl in the loop" 0 "$JS" '0,J,jockey,1,4
12,J,jockey,4,10' '' sh -c "reprov -q --policy jockey --stage-amdahl '$D/tasks.csv' --deadline 15s --slack 1 --alpha 1 --dead-zone 0 --max-alloc 10 | tail -n +2 | cut -d, -f1-5"
# 300,000 jobs with learned models (each sample's job was found by a scan of the models: over a minute):
# every job gets a decision row.
tcheck "jockey --simulator: 300,000 learned jobs, a decision for each" bash -c '
    awk "BEGIN { print \"job,run,alloc,stage,start,end,failed\"; for (i = 0; i < 300000; i++) printf \"J%d,r1,1,0,0,10,0\\nJ%d,r1,1,0,10,20,0\\n\", i, i }" > "$1/jt.csv" &&
    awk "BEGIN { print \"job,t,completed,total,alloc\"; for (i = 0; i < 300000; i++) printf \"J%d,%d,0,2,1\\n\", i, i }" > "$1/js.csv" &&
    timeout "$2" reprov -q --policy jockey --simulator "$1/jt.csv" --deadline 15s --max-alloc 2 "$1/js.csv" |
    awk -F, "NR > 1 { j[\$2]++ } END { for (k in j) n++; exit n != 300000 }"' _ "$TMP" "$LONG"
t "jockey: job models need per-stage samples" 0 $'job,t,progress,alloc\nJ,0,0,1\n' 't,job,policy,old_alloc,new_alloc,until,reason' '1 samples without the per-stage task counts' reprov --policy jockey --simulator "$D/tasks.csv" --deadline 15s
t "jockey: one model only" 64 '' '' "needs one remaining-time model" reprov --policy jockey --amdahl 1,2 --simulator "$D/tasks.csv" --deadline 1h
# the headline script, small: one seed, 8 runs per job
tcheck "examples/jockey-models.sh (1 seed, 8 runs)" bash -c '"$1/examples/jockey-models.sh" 1 "$2/jm" 8 > "$2/jm.txt" &&
    [ "$(grep -cE "^(default|no cluster|heavy|10%|one alloc)" "$2/jm.txt")" = 5 ] &&
    [ "$(grep -cE "^(static|amdahl-whole|stage-amdahl|simulator) " "$2/jm.txt")" = 4 ]' _ "$ROOT" "$TMP"

# --- The control loop end to end (--evaluate-loop), tests/data/reprov/tasks.csv:
# r2 (two 10 s tasks) replayed; deadline = median training run (r1: 20 s);
# decisions every 5 s, slack 1, alpha 1, no dead zone, at most 4 tokens.
# static: 1 token, 0-10, 10-20: finish 20, tokens 20.
# stage-amdahl: t 0: 10 + 20/a <= 20 -> 2, both tasks 0-10; t 5: 10 + 20/a
#   <= 15 -> 4; finish 10, tokens 2 x 5 + 4 x 5 = 30.  amdahl-whole (S 10,
#   P 20): t 0: 10 + 20/a <= 20 -> 2; t 5: -> 4: the same 10 and 30.
# simulator: t 0: 20 s at 1 token meets 20 -> 1 (task 1, 0-10); t 5: 20 s
#   left at 1 (T 25), 10 at 2 (T 15) -> 2 (task 2, 5-15); t 10 (task 1 done):
#   10 s left at any allocation, T 20 -> 1; finish 15, tokens 5 + 10 + 5 = 20.
t "evaluate-loop: hand-worked" 0 "@$D/tasks.csv" 'job,run,policy,finish_s,deadline_s,met,token_s
J,r2,static,20,20,1,20
J,r2,amdahl-whole,10,20,1,30
J,r2,stage-amdahl,10,20,1,30
J,r2,simulator,15,20,1,20' "simulator     deadlines met 100.0% of 1 runs; tokens 1x static's" reprov --evaluate-loop --train 0.5 --slack 1 --alpha 1 --dead-zone 0 --interval 5 --max-alloc 4
# Found by the cell probe (2026-11-25): one attempt recorded from 1970 (a
# start exported as 0) replayed 29 million controller decisions (5 min), an
# end of 1e15 for ever.  Times are epoch seconds or ISO 8601 up to 1e11; the
# controller decides every --interval for its first 10,000 decisions of a
# run, then twice as far apart for every 10,000 more.  A single attempt
# finishes at its recorded length under every policy (old binary: the same
# rows after 5 min).
printf 'job,run,alloc,stage,start,end,failed\nJ,r1,1,0,0,10,0\nJ,r1,1,0,10,20,0\nJ,r2,1,0,0,1767917252,0\n' >"$TMP/epoch0.csv"
t "evaluate-loop: a run recorded over 56 years replays in seconds" 0 '' 'static,1767917252,20,0
amdahl-whole,1767917252,20,0
stage-amdahl,1767917252,20,0
simulator,1767917252,20,0' '' sh -c 'timeout 60 reprov -q --evaluate-loop --train 0.5 "$1" | tail -n +2 | cut -d, -f3-6' _ "$TMP/epoch0.csv"
t "evaluate-loop: end beyond 1e11 refused" 65 $'job,run,alloc,stage,start,end,failed\nJ,r1,1,0,0,10,0\nJ,r2,1,0,0,1e15,0\n' '' "reprov: <stdin>:3: column 'end': time '1e15' out of range" timeout 20 reprov --evaluate-loop --train 0.5
# an allocation beyond any real job (1e15 wrote token_s 1.1e+16): at most
# 1e8 tokens, the largest --max-alloc; 1e8 itself replays
t "evaluate-loop: alloc beyond 1e8 refused" 65 $'job,run,alloc,stage,start,end,failed\nJ,r1,1,0,0,10,0\nJ,r2,1e9,0,0,10,0\n' '' "reprov: <stdin>:3: column 'alloc': 1e+09 tokens is more than 1e+08" reprov --evaluate-loop --train 0.5
t "evaluate-loop: alloc 1e8 replays" 0 $'job,run,alloc,stage,start,end,failed\nJ,r1,1,0,0,10,0\nJ,r2,100000000,0,0,10,0\n' 'J,r2,static,10,10,1,1000000000' '' sh -c 'reprov -q --evaluate-loop --train 0.5 | sed -n 2p'
awk -F, 'BEGIN { OFS = "," } NR > 1 { for (i = 5; i <= 6; i++) $i = strftime("%Y-%m-%dT%H:%M:%SZ", $i, 1) } 1' "$D/tasks.csv" >"$TMP/tasks_iso.csv"
t "evaluate-loop: ISO 8601 times, the same rows" 0 '' "$(reprov -q --evaluate-loop --train 0.5 --interval 5 "$D/tasks.csv")" '' reprov -q --evaluate-loop --train 0.5 --interval 5 "$TMP/tasks_iso.csv"
# A run's task records in another order are the same records (2026-11-30:
# the loop replayed attempts that started together in file order, and the
# learned duration lists followed it: the amdahl and simulator rows of
# tracegen's runs moved when each run's rows were reversed).
tracegen -q jobruns --count 8 --seed 1 -o "$TMP/jr.csv"
awk -F, 'NR == 1 { print; next } $2 != run { for (i = n; i >= 1; i--) print b[i]; n = 0; run = $2 } { b[++n] = $0 }
    END { for (i = n; i >= 1; i--) print b[i] }' "$TMP/jr.csv" >"$TMP/jr_rev.csv"
tcheck "evaluate-loop: the test's input has rows out of order within runs" sh -c '! cmp -s "$1" "$2" && [ "$(sort "$1" | cksum)" = "$(sort "$2" | cksum)" ]' _ "$TMP/jr.csv" "$TMP/jr_rev.csv"
t "evaluate-loop: a run's rows in another order, the same output" 0 '' "$(reprov -q --evaluate-loop --train 0.5 "$TMP/jr.csv")" '' reprov -q --evaluate-loop --train 0.5 "$TMP/jr_rev.csv"
t "compare-models: a run's rows in another order, the same output" 0 '' "$(reprov -q --compare-models --train 0.5 --reps 5 "$TMP/jr.csv")" '' reprov -q --compare-models --train 0.5 --reps 5 "$TMP/jr_rev.csv"
# a job that cannot be split is found before any row is written (a later
# job's error used to follow the rows of the jobs before it)
{ cat "$D/tasks.csv"; echo 'K,k1,1,0,0,10,0'; } >"$TMP/tasks_k.csv"
t "evaluate-loop: a later job that cannot be split, no row" 65 '' '' "job 'K': 1 runs cannot be split by --train 0.5" reprov --evaluate-loop --train 0.5 "$TMP/tasks_k.csv"
t "compare-models: a later job that cannot be split, no row" 65 '' '' "job 'K': 1 runs cannot be split by --train 0.5" reprov --compare-models --train 0.5 "$TMP/tasks_k.csv"
t "evaluate-loop: no --deadline" 64 '' '' "learn their models and set the deadline" reprov --evaluate-loop --deadline 1h
t "evaluate-loop: not with compare" 64 '' '' "--compare-models and --evaluate-loop exclude each other" reprov --evaluate-loop --compare-models
t "deadline-factor needs evaluate-loop" 64 '' '' "--deadline-factor goes with --evaluate-loop" reprov --compare-models --deadline-factor 2

# ---- --on-error skip: bad samples are listed (file,line,reason) and left
# out; the decisions equal the strict run on the file without them ----
awk 'NR == 3 { print "S,1767571300,-5,0" } NR == 6 { print "S,1767571200,1,0" } 1' "$D/straggler.csv" >"$TMP/strag-bad.csv"
t "skip: dra strict stops" 65 '' '*' "strag-bad.csv:3: column 'used': must not be negative, got '-5'" reprov -q $CAP --plan "$D/plan.csv" "$TMP/strag-bad.csv"
t "skip: dra = strict without the rows" 0 '' "$(reprov -q $CAP --plan "$D/plan.csv" "$D/straggler.csv")" '' \
    reprov -q $CAP --plan "$D/plan.csv" --on-error skip --rejects "$TMP/strag-rej.csv" "$TMP/strag-bad.csv"
t "skip: dra rejects" 0 "@$TMP/strag-rej.csv" "file,line,reason
$TMP/strag-bad.csv,3,\"column 'used': must not be negative, got '-5'\"
$TMP/strag-bad.csv,7,t 1767571200 is before the previous sample's 1767571470: samples must come in time order" '' cat
awk 'NR == 3 { print "J,1767571500,1.5,10" } NR == 4 { print "J,1767571600,x,10" } 1' "$D/slides_stream.csv" >"$TMP/slides-bad.csv"
t "skip: jockey = strict without the rows" 0 '' "$(reprov -q $JK --deadline 60m --alpha 1 --dead-zone 0 "$D/slides_stream.csv")" '' \
    reprov -q $JK --deadline 60m --alpha 1 --dead-zone 0 --on-error skip --rejects "$TMP/sl-rej.csv" "$TMP/slides-bad.csv"
tcheck "skip: jockey rejects at lines 3 and 5" bash -c '[ "$(cut -d, -f2 "$1" | tr "\n" " ")" = "line 3 5 " ]' _ "$TMP/sl-rej.csv"

# (audit, session 20) integer options refused the exponent form the pages
# themselves write ("at most 1e8"): --max-alloc 1e2 is --max-alloc 100;
# a fraction or an overflow is still refused
t "--max-alloc 1e2 = --max-alloc 100" 0 $'job,t,progress,alloc\nJ,0,0,1\nJ,5000,0.5,12\n' \
    "$(printf 'job,t,progress,alloc\nJ,0,0,1\nJ,5000,0.5,12\n' | reprov -q --policy jockey --amdahl 600,36000 --deadline 60m \
    --slack 1 --alpha 1 --dead-zone 0 --max-alloc 100)" '' reprov -q --policy jockey --amdahl 600,36000 --deadline 60m --slack 1 \
    --alpha 1 --dead-zone 0 --max-alloc 1e2
t "--max-alloc 1.5: not an integer" 64 '' '' "invalid value for --max-alloc: '1.5' (not an integer)" \
    reprov --policy jockey --amdahl 600,36000 --deadline 60m --max-alloc 1.5
t "--max-alloc 1e400: not an integer" 64 '' '' "invalid value for --max-alloc: '1e400' (not an integer)" \
    reprov --policy jockey --amdahl 600,36000 --deadline 60m --max-alloc 1e400
# (audit, 2026-12-04) Times before 1970 are negative epoch seconds: the DRA
# reads only their order and differences, and the plan's cycle by floor, so
# the straggler's samples shifted back by whole plan cycles (2 h; 20833
# days + 1 h, to before 1913) give the same decisions shifted back.
for off in -7200 -1800000000; do
tcheck "dra: times before 1970: the decisions shifted by $off s" bash -c '
    rv() { reprov -q --capacity cores=3000,mem=1e9 --plan "$1/plan.csv"; }
    want=$(rv "$1" < "$1/straggler.csv")
    got=$(awk -F, -v o="$2" "NR > 1 { \$2 += o } 1" OFS=, "$1/straggler.csv" | rv "$1" |
        awk -F, -v o="$2" "NR > 1 { \$1 -= o; if (\$6 != \"\") \$6 -= o } 1" OFS=,)
    [ "$(printf "%s\n" "$want" | wc -l)" -gt 2 ] && [ "$got" = "$want" ]' _ "$D" "$off"
done
# Jockey reads elapsed time only: the slides stream shifted to before 1970
# by any amount (here to t = -99 s) decides the same.
tcheck "jockey: times before 1970: the decisions shifted" bash -c '
    jk() { reprov -q --policy jockey --table "$1/slides.csv" --slack 1 --deadline 60m --alpha 1 --dead-zone 0; }
    want=$(jk "$1" < "$1/slides_stream.csv")
    got=$(awk -F, "NR > 1 { \$2 -= 1767571299 } 1" OFS=, "$1/slides_stream.csv" | jk "$1" |
        awk -F, "NR > 1 { \$1 += 1767571299; if (\$6 != \"\") \$6 += 1767571299 } 1" OFS=,)
    [ "$(printf "%s\n" "$want" | wc -l)" -gt 2 ] && [ "$got" = "$want" ]' _ "$D"
