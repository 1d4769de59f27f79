# replplace: Algorithm 2 replica placement, the stock policy, the simulator
# and the Google machine-events adapter.  Expected values are worked by hand
# from the rules in replplace(1) (tiny grids) or checked by the independent
# tests/check/replplace_check.py (large runs); the simulator is checked on
# cases whose loss counts follow from first principles.
D="$ROOT/tests/data/replplace"
CHECK="/usr/bin/python3 $ROOT/tests/check/replplace_check.py"
TINY="$D/tiny.csv"

# ---- the 3 x 3 grid -----------------------------------------------------------
# tiny.csv: 9 tenants of equal space, rates 0.1/1/5 x peaks 0.1/0.5/0.9, so
# each class holds exactly one tenant: a=r0p0 b=r0p1 ... i=r2p2; servers
# a:0-1 b:2-3 c:4-5 d:6-7 e:8-9 f:10-11 g:12-13 h:14-15 i:16-17.
cat >"$TMP/tiny-classes.csv" <<'EOF'
class,reimage_row,peak_col,tenants,servers,space_gb,space_share,reimages_min,reimages_max,peak_min,peak_max
r0p0,0,0,1,2,100,0.1111111111111111,0.1,0.1,0.1,0.1
r0p1,0,1,1,2,100,0.1111111111111111,0.1,0.1,0.5,0.5
r0p2,0,2,1,2,100,0.1111111111111111,0.1,0.1,0.9,0.9
r1p0,1,0,1,2,100,0.1111111111111111,1,1,0.1,0.1
r1p1,1,1,1,2,100,0.1111111111111111,1,1,0.5,0.5
r1p2,1,2,1,2,100,0.1111111111111111,1,1,0.9,0.9
r2p0,2,0,1,2,100,0.1111111111111111,5,5,0.1,0.1
r2p1,2,1,1,2,100,0.1111111111111111,5,5,0.5,0.5
r2p2,2,2,1,2,100,0.1111111111111111,5,5,0.9,0.9
EOF
t "tiny grid classes" 0 $'block,server\n' 'block,replica,server,tenant,class' '*' \
    replplace -q --classes "$TMP/tc.csv" "$TINY"
tcheck "tiny grid classes by hand" diff "$TMP/tc.csv" "$TMP/tiny-classes.csv"
# uneven.csv: one tenant with 600 of 1100 GB; worked by hand: rows by rate
# (s1 | big | s2 s3 s4 s5), columns by peak inside each row, midpoint rule.
t "uneven grid classes" 0 $'block,server\n' '*' '*' replplace -q --classes "$TMP/uc.csv" "$D/uneven.csv"
tcheck "uneven grid classes by hand" diff "$TMP/uc.csv" "$D/uneven-classes.csv"
t "summary names the space spread" 0 $'block,server\n' '*' 'class space 0.0% to 54.5% of the total (ideal 11.1%); some classes are empty' \
    replplace "$D/uneven.csv"

# ---- hand-worked placements ------------------------------------------------------
# 300 blocks created on server 0 (tenant a, class r0p0), 3 replicas: replica 1
# is server 0; replicas 2-3 must avoid row 0 and column 0 and each other's row
# and column: {r1p1, r2p2} = tenants {e, i} or {r1p2, r2p1} = {f, h}.
awk 'BEGIN { print "block,server"; for (i = 0; i < 300; i++) print "b" i ",0" }' >"$TMP/on0.csv"
replplace -q "$TINY" "$TMP/on0.csv" >"$TMP/on0.out" 2>&1
tcheck "replica 1 is the creating server" awk -F, 'NR > 1 && $2 == 1 && $3 != 0 { exit 1 }' "$TMP/on0.out"
tcheck "replicas 2-3 only {e,i} or {f,h}, both seen" awk -F, '
    NR > 1 && $2 == 2 { r2 = $4 } NR > 1 && $2 == 3 { p = (r2 < $4) ? r2 $4 : $4 r2; seen[p]++ }
    END { n = 0; for (k in seen) { n++; if (k != "ei" && k != "fh") exit 1 } exit !(n == 2 && seen["ei"] > 50 && seen["fh"] > 50) }' "$TMP/on0.out"
tcheck "servers lie in the named tenant" awk -F, '
    BEGIN { split("a b c d e f g h i", T, " ") } NR > 1 && T[int($3 / 2) + 1] != $4 { exit 1 }' "$TMP/on0.out"
# 4 replicas: rows and columns are forgotten after 3, so replica 4 may be any
# of the 6 tenants outside the block's first three, including b, c, d, g that
# share a row or column with a (forbidden for replicas 2-3).
replplace -q -r 4 "$TINY" "$TMP/on0.csv" >"$TMP/on0r4.out" 2>&1
tcheck "replica 4 forgets rows and columns, not environments" awk -F, '
    NR > 1 && $2 == 1 { used = $4 } NR > 1 && ($2 == 2 || $2 == 3) { used = used $4 }
    NR > 1 && $2 == 4 { if (index(used, $4)) exit 1; seen[$4]++ }
    END { exit !(seen["b"] > 20 && seen["c"] > 20 && seen["d"] > 20 && seen["g"] > 20) }' "$TMP/on0r4.out"
# environment diversity: e and i share environment x, so {e, i} is forbidden
replplace -q "$D/tiny-env.csv" "$TMP/on0.csv" >"$TMP/env.out" 2>&1
tcheck "environment rule leaves only {f,h}" awk -F, '
    NR > 1 && $2 > 1 && $4 != "f" && $4 != "h" { bad = 1 } END { exit bad || NR != 901 }' "$TMP/env.out"
# tiny-3env.csv: the 9 tenants in 3 environments (a,e,i | b,f,g | c,d,h): 3
# replicas fit ({f,h} from server 0) but a 4th needs a 4th environment.
t "3 environments hold 3 replicas" 0 "@$TMP/on0.csv" '*' '' replplace -q "$D/tiny-3env.csv"
tcheck "only {f,h} fits 3 environments" bash -c "replplace -q '$D/tiny-3env.csv' '$TMP/on0.csv' | awk -F, 'NR > 1 && \$2 > 1 && \$4 != \"f\" && \$4 != \"h\" { bad = 1 } END { exit bad || NR != 901 }'"
t "diversity exhausted at replica 4" 1 $'block,server\nb1,0\n' '*' \
    "replplace: <stdin>:2: block 'b1': diversity exhausted at replica 4 of 4" replplace -r 4 "$D/tiny-3env.csv"
t "--soft places it and counts it" 0 $'block,server\nb1,0\nb2,0\n' '*' \
    'relaxed: 0 replicas in a repeated row/column, 2 in a repeated environment' replplace --soft -r 4 "$D/tiny-3env.csv"
replplace -q --soft -r 4 "$D/tiny-3env.csv" "$TMP/on0.csv" >"$TMP/soft.out"
tcheck "checker counts the soft breaks" bash -c "$CHECK --soft --replicas 4 '$D/tiny-3env.csv' '$TMP/on0.csv' '$TMP/soft.out' | grep -q 'environment breaks: 300'"
tcheck "checker rejects them without --soft" bash -c "! $CHECK --replicas 4 '$D/tiny-3env.csv' '$TMP/on0.csv' '$TMP/soft.out'"
# uneven: 4 of the 9 classes are empty, so 3 replicas run out of rows x columns
t "empty classes exhaust diversity" 1 $'block,server\nb1,0\n' '' \
    "diversity exhausted at replica 3 of 3" replplace -r 3 "$D/uneven.csv"
t "--soft relaxes the grid first" 0 $'block,server\nb1,0\n' '*' \
    'relaxed: 1 replicas in a repeated row/column, 0 in a repeated environment' replplace --soft -r 3 "$D/uneven.csv"
t "2 replicas from big go to row 2, columns 0 or 2" 0 \
    "@$TMP/on0.csv" '*' '' replplace -q -r 2 "$D/uneven.csv"
replplace -q -r 2 "$D/uneven.csv" "$TMP/on0.csv" >"$TMP/un2.out"
tcheck "uneven 2nd replicas are s4 or s5" awk -F, 'NR > 1 && $2 == 2 && $4 != "s4" && $4 != "s5" { bad = 1 } END { exit bad || NR != 601 }' "$TMP/un2.out"

# ---- space ------------------------------------------------------------------------------
# 1 GB per tenant at 256 MB blocks = 4 replicas each; 9 tenants = 36 replicas.
sed '2,$ s/,100,/,1,/' "$TINY" >"$TMP/small.csv"
awk 'BEGIN { print "block,server"; for (i = 0; i < 12; i++) print "b" i "," (2 * i) % 18 }' >"$TMP/twelve.csv"
t "12 blocks x 3 fill 36 slots exactly" 0 "@$TMP/twelve.csv" '*' '*' replplace -q --soft "$TMP/small.csv"
tcheck "no tenant above 4 replicas" bash -c "replplace -q --soft '$TMP/small.csv' '$TMP/twelve.csv' | awk -F, 'NR > 1 { n[\$4]++ } END { for (k in n) if (n[k] != 4) exit 1 }'"
t "13th block finds no space" 1 "$(cat "$TMP/twelve.csv"; echo b12,0)" '*' \
    "block 'b12': no space left for replica 1 of 3" replplace --soft "$TMP/small.csv"
t "13th block finds no space: stdout empty (held, as -o keeps the old file)" 1 "$(cat "$TMP/twelve.csv"; echo b12,0)" '' \
    "block 'b12': no space left for replica 1 of 3" replplace -q --soft "$TMP/small.csv"
t "a bad row after good blocks: stdout empty" 65 $'block,server\nb1,0\nb2,x\n' '' \
    "replplace: <stdin>:3: column 'server': invalid integer 'x'" replplace -q --soft "$TMP/small.csv"
t "full local tenant: replica 1 moves, counted" 0 $'block,server\nb1,0\nb2,0\nb3,0\nb4,0\nb5,0\n' '*' \
    '1 first replicas not local' replplace --soft "$TMP/small.csv"

# ---- stock policy --------------------------------------------------------------------
# replplace(1) names the policy "(--policy stock)", once printed "(--policystock)"
tcheck "man: (--policy stock) with its space" bash -c 'MANWIDTH=200 man -l "$1" 2>/dev/null | grep -qF -- "(--policy stock)"' _ "$ROOT/man/replplace.1"
# --racks ids, racks of 2 servers = one tenant each: replica 2 is the other
# server of the creator's rack, replica 3 on another rack.
t "stock: local, same rack, remote rack" 0 $'block,server\nb1,4\n' '*' '' replplace -q --policy stock --rack-size 2 --racks ids "$TINY"
tcheck "stock rack rule" bash -c "printf 'block,server\nb1,4\nb2,9\nb3,17\n' | replplace -q --policy stock --rack-size 2 --racks ids '$TINY' | awk -F, '
    BEGIN { c[\"b1\"] = 4; c[\"b2\"] = 9; c[\"b3\"] = 17 } NR > 1 { n++ }
    NR > 1 && \$2 == 1 { r = int(\$3 / 2); s1 = \$3; if (\$3 != c[\$1]) bad = 1 } NR > 1 && \$2 == 2 && (int(\$3 / 2) != r || \$3 == s1) { bad = 1 }
    NR > 1 && \$2 == 3 && int(\$3 / 2) == r { bad = 1 } END { exit bad || n != 9 }'"

# ---- large runs against the independent checker ------------------------------------------
tracegen storage --count 200 --seed 7 >"$TMP/ten.csv"
nsrv=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$TMP/ten.csv")
awk -v n="$nsrv" 'BEGIN { srand(5); print "block,server"; for (i = 0; i < 30000; i++) print "blk" i "," int(rand() * n) }' >"$TMP/blocks.csv"
replplace -q "$TMP/ten.csv" "$TMP/blocks.csv" >"$TMP/p3.csv"
tcheck "checker: alg2 x3, 30000 blocks" $CHECK "$TMP/ten.csv" "$TMP/blocks.csv" "$TMP/p3.csv"
replplace -q -r 6 --pick space "$TMP/ten.csv" "$TMP/blocks.csv" >"$TMP/p6.csv"
tcheck "checker: alg2 x6 --pick space" $CHECK --replicas 6 "$TMP/ten.csv" "$TMP/blocks.csv" "$TMP/p6.csv"
replplace -q --block-mb 60000 -r 4 --soft "$TMP/ten.csv" "$TMP/blocks.csv" >"$TMP/pfull.csv"
tcheck "checker: nearly full cluster, --soft, capacity respected" $CHECK --soft --replicas 4 --block-mb 60000 "$TMP/ten.csv" "$TMP/blocks.csv" "$TMP/pfull.csv"
# the checker knows id racks (a shuffled rack map is not in the output)
replplace -q --policy stock --racks ids "$TMP/ten.csv" "$TMP/blocks.csv" >"$TMP/ps.csv"
tcheck "checker: stock x3" $CHECK --policy stock "$TMP/ten.csv" "$TMP/blocks.csv" "$TMP/ps.csv"
tcheck "checker catches a broken placement" bash -c "
    awk -F, -v OFS=, 'NR == 3 { \$3 = \$3 == 0 ? 1 : 0 } 1' '$TMP/p3.csv' >'$TMP/bad.csv'
    ! $CHECK '$TMP/ten.csv' '$TMP/blocks.csv' '$TMP/bad.csv'"

# ---- determinism ----------------------------------------------------------------------
replplace -q --seed 9 "$TMP/ten.csv" "$TMP/blocks.csv" >"$TMP/d1.csv"
replplace -q --seed 9 "$TMP/ten.csv" <"$TMP/blocks.csv" >"$TMP/d2.csv"
tcheck "same seed, same placements" cmp "$TMP/d1.csv" "$TMP/d2.csv"
tcheck "another seed, other placements" bash -c "! cmp -s '$TMP/d1.csv' '$TMP/p3.csv'"
tcheck "tracegen storage is deterministic" bash -c "cmp <(tracegen storage --seed 7 --count 200) '$TMP/ten.csv'"
tcheck "tracegen storage: servers=N is exact, 80% rates <= 1, grid filled" bash -c "
    tracegen storage --count 300 --set servers=12583 >'$TMP/g.csv'
    awk -F, 'NR > 1 { s += \$3; n++; low += (\$5 <= 1) } END { exit !(s == 12583 && low / n >= 0.8) }' '$TMP/g.csv' &&
    printf 'block,server\nb1,0\n' | replplace --classes '$TMP/gc.csv' '$TMP/g.csv' 2>'$TMP/gc.err' >/dev/null &&
    grep -q 'class space' '$TMP/gc.err' &&
    awk -F, 'NR > 1 && (\$4 < 3 || \$7 < 0.09 || \$7 > 0.13) { exit 1 }' '$TMP/gc.csv'"

# ---- input validation ---------------------------------------------------------------------
t "missing TENANTS" 64 '' '' 'missing TENANTS file' replplace
t "bad --replicas" 64 '' '' "invalid value for --replicas: '0'" replplace -r 0 "$TINY"
t "too many replicas" 64 '' '' "invalid value for --replicas: '17'" replplace -r 17 "$TINY"
t "--replicas: at most 8 values" 64 '' '' "invalid value for --replicas: '1,2,3,4,5,6,7,8,9' (at most 8 values)" replplace --simulate -r 1,2,3,4,5,6,7,8,9 "$TINY"
t "bad --policy" 64 '' '' "invalid value for --policy: 'hdfs'" replplace --policy hdfs "$TINY"
t "bad --pick" 64 '' '' "invalid value for --pick: 'big'" replplace --pick big "$TINY"
t "lists need --simulate" 64 '' '' 'need --simulate' replplace -r 3,4 "$TINY"
# an option of --simulate without it would be ignored: refused, each of them
for o in "--events x.csv" "--write-events w.csv" "--lost l.csv" "--blocks 10" "--days 2" "--rebuild server" "--rate 5" \
         "--busy-dest any" "--detect 5m" "--busy 0.5" "--util-scale 2" "--accesses 10" "--burst-share 0.2" \
         "--env-burst-share 0.2" "--burst-min 0.1" "--burst-max 0.6" "--burst-window 1h"; do
    t "$o without --simulate: 64" 64 '' '' "replplace: ${o%% *} needs --simulate" replplace $o "$TINY"
done
t "burst bounds" 64 '' '' '--burst-min must not exceed --burst-max' replplace --simulate --burst-min 0.6 "$TINY"
t "missing tenants file" 66 '' '' 'replplace: /nonexistent.csv: cannot open' replplace /nonexistent.csv
t "missing columns" 65 $'tenant,environment,servers\na,e,1\n' '' \
    "missing required columns 'space_gb', 'reimages_per_server_month' and 'peak_util'" replplace - /dev/null
t "peak as percent" 65 $'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\na,e,1,10,0.1,85\n' '' \
    "replplace: <stdin>:2: column 'peak_util': '85' is above 1" replplace - /dev/null
t "zero servers" 65 $'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\na,e,0,10,0.1,0.5\n' '' \
    "<stdin>:2: column 'servers'" replplace - /dev/null
t "negative rate" 65 $'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\na,e,1,10,-1,0.5\n' '' \
    "<stdin>:2: column 'reimages_per_server_month'" replplace - /dev/null
t "nan space" 65 $'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\na,e,1,nan,1,0.5\n' '' \
    "invalid number 'nan'" replplace - /dev/null
t "duplicate tenant" 65 $'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\na,e,1,10,1,0.5\na,f,1,10,1,0.5\n' '' \
    "<stdin>:3: duplicate tenant 'a'" replplace - /dev/null
t "missing environment" 65 $'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\na,,1,10,1,0.5\n' '' \
    "<stdin>:2: column 'environment': missing value" replplace - /dev/null
t "no tenants" 65 $'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\n' '' 'no tenants' replplace - /dev/null
t "server out of range" 65 $'block,server\nb1,18\n' '*' \
    "replplace: <stdin>:2: column 'server': 18 is not a server (the tenants have servers 0 to 17)" replplace "$TINY"
t "negative server" 65 $'block,server\nb1,-1\n' '*' "<stdin>:2: column 'server'" replplace "$TINY"
t "server not a number" 65 $'block,server\nb1,x\n' '*' "<stdin>:2: column 'server': invalid" replplace "$TINY"
t "missing block id" 65 $'block,server\n,1\n' '*' "<stdin>:2: column 'block': missing value" replplace "$TINY"
t "blocks without server column" 65 $'block\nb1\n' '' "missing required column 'server'" replplace "$TINY"
t "renamed columns" 0 $'id,host\nb1,0\n' '*' '' replplace -q --col block=id --col server=host "$TINY"
t "quoted block ids survive" 0 $'block,server\n"a,b",0\n' '*' '' replplace -q "$TINY"
tcheck "quoted block id written quoted" bash -c "printf 'block,server\n\"a,b\",0\n' | replplace -q '$TINY' | grep -q '^\"a,b\",1,0,a,r0p0$'"
printf 'old\n' >"$TMP/keep.csv"
t "failed run keeps -o" 1 $'block,server\nb1,0\n' '' '*' replplace -r 4 -o "$TMP/keep.csv" "$D/tiny-3env.csv"
tcheck "old output intact" grep -qx old "$TMP/keep.csv"
tcheck "full disk is an error" bash -c "printf 'block,server\nb1,0\n' | replplace -q '$TINY' >/dev/full; [ \$? = 74 ]"

# ---- simulator ---------------------------------------------------------------------------
# no reimages (rates 0): nothing lost; utilization scaled to 0: no read fails
t "no events, no loss" 0 '' \
    $'policy,replicas,blocks,lost_blocks,lost_pct,accesses,failed_accesses,failed_pct,reimages,replicas_destroyed,rereplicated,relaxed,max_backlog,first_loss_day,mean_util\nalg2,3,2000,0,0,4000,0,0,0,0,0,0,0,,0\nstock,3,2000,0,0,4000,0,0,0,0,0,0,0,,0' '*' \
    bash -c "awk -F, -v OFS=, 'NR > 1 { \$5 = 0 } 1' '$TINY' >'$TMP/tiny0.csv'; replplace --simulate -r 3 --blocks 2000 --accesses 4000 --util-scale 0 --days 30 --block-mb 16 '$TMP/tiny0.csv' | awk -F, -v OFS=, 'NR > 1 { \$6 = 4000 } 1'"
# an --events file with no loss to replay is refused (a header only simulated
# 1 s, "simulating 1.157e-05 days", and wrote a table of zeros, exit 0)
printf 't,server,event\n' >"$TMP/none.csv"
t "--events header only: nothing to simulate" 65 '' '' \
    "replplace: $TMP/none.csv: no reimage or fail event: nothing to simulate (leave out --events to draw events from the tenants' rates)" \
    replplace --simulate --blocks 100 --accesses 10 --events "$TMP/none.csv" "$TINY"
t "--events header only, with --days: nothing to simulate" 65 '' '' "replplace: $TMP/none.csv: no reimage or fail event: nothing to simulate" \
    replplace --simulate --blocks 100 --accesses 10 --days 30 --events "$TMP/none.csv" "$TINY"
printf 't,server,event\n5,0,add\n' >"$TMP/addonly.csv"
t "--events of adds only: nothing to simulate" 65 '' '' "replplace: $TMP/addonly.csv: no reimage or fail event: nothing to simulate" \
    replplace --simulate --blocks 100 --accesses 10 --events "$TMP/addonly.csv" "$TINY"
printf 't,server,event\n172800,0,reimage\n' >"$TMP/late.csv"
t "--events: every loss after --days" 65 '' '' "replplace: $TMP/late.csv: no reimage or fail event in the first 1 days (--days): nothing to simulate" \
    replplace --simulate --blocks 100 --accesses 10 --days 1 --events "$TMP/late.csv" "$TINY"
# without --days, up to the last event but at least the 1-hour --days
# minimum (one event at t=100 simulated 101 s)
printf 't,server,event\n100,0,reimage\n' >"$TMP/early.csv"
t "--events, last event at 100 s: 1 hour simulated" 0 '' '*' "replplace: simulating 0.04167 days: 1 reimage/fail events ($TMP/early.csv)" \
    replplace --simulate --blocks 100 --accesses 10 --events "$TMP/early.csv" "$TINY"
# one server holds every replica (one tenant, one server, 1 replica): reimaging it loses them all
ONE=$'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\nsolo,e,1,1000,0,0.1\n'
printf '%s' "$ONE" >"$TMP/one.csv"
t "all replicas on a reimaged server are lost" 0 '' '*' '' bash -c "
    printf 't,server,event\n100,0,reimage\n' >'$TMP/ev1.csv'
    replplace -q --simulate -r 1 --policy alg2 --blocks 1000 --accesses 0 --events '$TMP/ev1.csv' --days 1 '$TMP/one.csv' >'$TMP/sim1.csv'"
tcheck "1000 of 1000 blocks lost at t=100" awk -F, 'NR == 2 { ok = ($3 == 1000 && $4 == 1000 && $14 * 86400 > 99.99 && $14 * 86400 < 100.01) } END { exit !ok }' "$TMP/sim1.csv"
# two servers, two replicas each: both reimaged 60 s apart, inside the 10 min
# detection delay, so nothing is re-created in between: all lost.  Reimaged
# 1 day apart, each copy is re-created in time only if the rate allows: at
# 30 blocks/h, 500 blocks take 16.7 h < 1 day, so none is lost.
printf 'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\np,e1,1,1000,0,0.1\nq,e2,1,1000,0,0.1\nr,e3,1,1000,0,0.1\n' >"$TMP/three.csv"
printf 't,server,event\n100,0,reimage\n160,1,reimage\n' >"$TMP/ev2.csv"
printf 't,server,event\n100,0,reimage\n86500,1,reimage\n' >"$TMP/ev3.csv"
t "two reimages inside the detection delay" 0 '' '*' '' bash -c "
    replplace -q --simulate -r 3 --policy stock --rack-size 1 --blocks 500 --accesses 0 --events '$TMP/ev2.csv' --days 2 '$TMP/three.csv' >'$TMP/sim2.csv'"
tcheck "3 servers x 3 replicas: two reimages lose nothing (one copy left)" awk -F, 'NR == 2 { ok = ($4 == 0 && $10 == 1000) } END { exit !ok }' "$TMP/sim2.csv"
printf 'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\np,e1,1,1000,0,0.1\nq,e2,1,1000,0,0.1\n' >"$TMP/two.csv"
replplace -q --simulate -r 2 --policy stock --rack-size 1 --blocks 500 --accesses 0 --events "$TMP/ev2.csv" --days 2 "$TMP/two.csv" >"$TMP/sim3.csv"
tcheck "2 servers x 2 replicas, reimaged 60 s apart: all 500 lost" awk -F, 'NR == 2 { ok = ($4 == 500) } END { exit !ok }' "$TMP/sim3.csv"
printf 'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\np,e1,1,1000,0,0.1\nq,e2,1,1000,0,0.1\nr,e3,1,1000,0,0.1\n' >"$TMP/three2.csv"
replplace -q --simulate -r 2 --policy stock --rack-size 1 --blocks 500 --accesses 0 --events "$TMP/ev3.csv" --days 2 "$TMP/three2.csv" >"$TMP/sim4.csv"
tcheck "reimaged a day apart at 30/h: re-created in time, none lost" awk -F, 'NR == 2 { ok = ($4 == 0 && $11 > 0) } END { exit !ok }' "$TMP/sim4.csv"
replplace -q --simulate -r 2 --policy stock --rack-size 1 --rate 10 --rebuild server --blocks 500 --accesses 0 --events "$TMP/ev3.csv" --days 2 "$TMP/three2.csv" >"$TMP/sim5.csv"
# --rebuild server: server 0 holds ~333 blocks; (86500 - 700) s at 10/h re-creates 238 of them;
# of the ~95 left, those whose other copy is on server 1 (about half) are lost
tcheck "at 10/h ~48 blocks are still waiting when server 1 goes" awk -F, '
    NR == 2 { ok = ($4 > 15 && $4 < 100 && $14 * 86400 > 86499.9 && $14 * 86400 < 86500.1) } END { exit !ok }' "$TMP/sim5.csv"
# busy servers deny reads: peak 1.0 tenants at util-scale 1 are busy near
# their daily peak, peak 0.1 never; a cluster of only busy tenants fails reads (rate 0: no reimage)
printf 'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\np,e1,3,1000,0,1\n' >"$TMP/hot.csv"
replplace -q --simulate -r 1 --blocks 100 --accesses 10000 --days 10 "$TMP/hot.csv" >"$TMP/hot.out"
tcheck "hot tenant: some reads fail, not all" awk -F, 'NR == 2 { ok = ($7 > 100 && $7 < 9000) } END { exit !ok }' "$TMP/hot.out"
replplace -q --simulate -r 1 --blocks 100 --accesses 10000 --days 10 --busy 1 "$TMP/hot.csv" >"$TMP/hot1.out"
tcheck "--busy 1: no read fails" awk -F, 'NR == 2 { ok = ($7 == 0) } END { exit !ok }' "$TMP/hot1.out"
# the summary's reads are the reads each run simulated (a Poisson count
# around --accesses: 107 for 100 here), not --accesses: it said "100 reads"
# then "107 failed reads".  Every read of 10 blocks on 18 servers all
# reimaged at t=100 fails (lost); each run's line must match its table row.
printf 'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\nA,e1,6,1000,1,0.9\nB,e2,6,1000,1,0.9\nC,e3,6,1000,1,0.9\n' >"$TMP/rten.csv"
{ echo t,server,event; for s in $(seq 0 17); do echo "100,$s,reimage"; done; } >"$TMP/rev.csv"
t "simulate summary: expected reads, then each run's simulated count" 0 '' '*' \
    'replplace: simulating 1 days: 18 reimage/fail events' \
    replplace --simulate --events "$TMP/rev.csv" --blocks 10 --accesses 100 --days 1 -o "$TMP/rsim.csv" "$TMP/rten.csv"
tcheck "simulate summary: failed reads of N, N = the table's accesses, failed <= N" bash -c '
    replplace --simulate --events "$1/rev.csv" --blocks 10 --accesses 100 --days 1 "$1/rten.csv" 2>"$1/rsim.err" >"$1/rsim.csv" &&
    grep -q "10 blocks, reads at Poisson times, 100 expected (--accesses" "$1/rsim.err" &&
    grep -E "^replplace: (alg2|stock) +x[0-9]:" "$1/rsim.err" |
      sed -E "s/^replplace: ([a-z0-9]+) +x([0-9]+): .* ([0-9]+) failed reads of ([0-9]+) .*/\1,\2,\3,\4/" > "$1/rsim.lines" &&
    [ "$(wc -l < "$1/rsim.lines")" = 4 ] &&
    awk -F, "NR==FNR{if (\$3 > \$4) exit 1; f[\$1\",\"\$2]=\$3; n[\$1\",\"\$2]=\$4; next}
             FNR>1{k=\$1\",\"\$2; if (!(k in n) || n[k] != \$6 || f[k] != \$7) exit 1; c++} END{exit c != 4}" "$1/rsim.lines" "$1/rsim.csv" &&
    grep -q "107 failed reads of 107 (0 busy, 107 lost)" "$1/rsim.err"' _ "$TMP"
# events: write and replay give the same table; determinism
replplace -q --simulate --blocks 3000 --accesses 2000 --days 60 --write-events "$TMP/w.csv" "$TMP/ten.csv" >"$TMP/s1.csv"
replplace -q --simulate --blocks 3000 --accesses 2000 --days 60 --events "$TMP/w.csv" "$TMP/ten.csv" >"$TMP/s2.csv"
tcheck "replaying written events gives the same table" cmp "$TMP/s1.csv" "$TMP/s2.csv"
tcheck "written events: sorted, in range, bursts present" awk -F, -v n="$nsrv" '
    NR > 1 { if ($1 < p || $1 >= 60 * 86400 || $2 < 0 || $2 >= n || $3 != "reimage") bad = 1; p = $1; h[int($1 / 3600)]++ }
    END { m = 0; for (k in h) if (h[k] > m) m = h[k]; exit bad || !(NR > 100 && m >= 10) }' "$TMP/w.csv"
replplace -q --simulate --blocks 3000 --accesses 2000 --days 60 "$TMP/ten.csv" >"$TMP/s3.csv"
tcheck "simulation is deterministic" cmp "$TMP/s1.csv" "$TMP/s3.csv"
# drawn reimages per tenant size = the configured rate (docs/replplace.md, "Bursts
# on small tenants"): 18 environments, each with one tenant of 1, 2, 5, 20 and
# 100 servers, all at 10 reimages per server-month.  tests/check/replplace_bursts.py
# derives each size's mean and compound-Poisson standard deviation from the
# model in replplace(1) and fails beyond 4 sd.  Before the fix (a burst hit
# clamp(lround(f n), 1, n) servers) the first run drew 2.58x, 1.48x and 1.028x
# the rate on 1-, 2- and 5-server tenants (z = 164, 70 and 5.4); the second
# puts every burst in an environment, with small fractions (old code: 5.3x,
# 2.7x and 1.12x on 1, 2 and 5 servers).
awk 'BEGIN { print "tenant,environment,servers,space_gb,reimages_per_server_month,peak_util"
             split("1 2 5 20 100", z, " ")
             for (e = 0; e < 18; e++) for (k = 1; k <= 5; k++)
                 printf "t%d_%d,e%d,%d,%d,10,%.2f\n", z[k], e, e, z[k], 1000 * z[k], 0.2 + 0.03 * (e % 10) }' >"$TMP/bten.csv"
replplace -q --simulate --policy alg2 -r 3 --blocks 10 --accesses 10 --days 1826.25 \
    --write-events "$TMP/bev.csv" "$TMP/bten.csv" >/dev/null
tcheck "bursts: drawn reimages per tenant size = the rate (1-100 servers, 5 years, within 4 sd)" \
    /usr/bin/python3 "$ROOT/tests/check/replplace_bursts.py" "$TMP/bten.csv" "$TMP/bev.csv" 1826.25
replplace -q --simulate --policy alg2 -r 3 --blocks 10 --accesses 10 --days 365 --burst-share 0 \
    --env-burst-share 0.9 --burst-max 0.3 --write-events "$TMP/bev2.csv" "$TMP/bten.csv" >/dev/null
tcheck "bursts: environment bursts alike (all reimages in them, fractions 0.05-0.3)" \
    /usr/bin/python3 "$ROOT/tests/check/replplace_bursts.py" "$TMP/bten.csv" "$TMP/bev2.csv" 365 \
    --burst-share 0 --env-burst-share 0.9 --burst-max 0.3
replplace -q --simulate --policy alg2 -r 3 --blocks 10 --accesses 10 --days 365 --burst-share 0 \
    --env-burst-share 0.9 --burst-max 0.3 --write-events "$TMP/bev3.csv" "$TMP/bten.csv" >/dev/null
tcheck "bursts: same seed, same events" cmp "$TMP/bev2.csv" "$TMP/bev3.csv"
rm -f "$TMP/bev.csv" "$TMP/bev3.csv"
t "event server out of range" 65 '' '' "replplace: $TMP/bad-ev.csv:2: column 'server': 18 is not a server" \
    bash -c "printf 't,server,event\n1,18,reimage\n' >'$TMP/bad-ev.csv'; replplace --simulate --events '$TMP/bad-ev.csv' '$TINY'"
t "event kind" 65 '' '' "column 'event': invalid event 'boom' (want reimage, fail or add)" \
    bash -c "printf 't,server,event\n1,1,boom\n' >'$TMP/bad-ev2.csv'; replplace --simulate --events '$TMP/bad-ev2.csv' '$TINY'"
t "negative event time" 65 '' '' "column 't'" \
    bash -c "printf 't,server,event\n-5,1,reimage\n' >'$TMP/bad-ev3.csv'; replplace --simulate --events '$TMP/bad-ev3.csv' '$TINY'"
t "too many blocks for the space" 1 '' '*' 'blocks found no space' \
    replplace --simulate --blocks 5000 --days 1 "$TMP/small.csv"
# (review, 2026-12-04) the advice said "a larger --block-mb", but a tenant
# holds floor(space_gb x 1024 / --block-mb) replicas: at 512 MB each 1 GB
# tenant of small.csv holds 2, the 9 of them 18 = 6 blocks of 3, so 6 of 12
# find no space; at 128 MB they hold 8 each, 72 >= 36, and all 12 fit.
t "no space: the advice is a smaller --block-mb" 1 '' '' \
    'replplace: alg2 with 3 replicas: 6 of 12 blocks found no space (a tenant holds floor(space_gb x 1024 / --block-mb) replicas: use fewer --blocks or a smaller --block-mb)' \
    replplace -q --simulate -r 3 --policy alg2 --blocks 12 --days 1 --block-mb 512 "$TMP/small.csv"
t "no space: a smaller --block-mb fits the blocks" 0 '' '*' '' \
    replplace -q --simulate -r 3 --policy alg2 --blocks 12 --days 1 --block-mb 128 "$TMP/small.csv"

# ---- Google clusterdata-2011 machine events adapter ----------------------------------------
G="$DATA/google-2011/machine_events-part-00000.csv.gz"
if [ -r "$G" ]; then
    t "google adapter runs" 0 '' '' '*' bash "$ROOT/examples/google-to-replplace.sh" "$G" "$TMP/g" 300 1
    nm=$(zcat "$G" | cut -d, -f2 | sort -u | wc -l)
    nrem=$(zcat "$G" | awk -F, '$3 == 1' | wc -l)
    tcheck "every machine is a server 0..N-1" awk -F, -v n="$nm" 'NR > 1 { if ($1 != NR - 2) exit 1 } END { exit NR - 1 != n }' "$TMP/g/machines.csv"
    tcheck "tenants cover exactly the N servers" awk -F, -v n="$nm" 'NR > 1 { s += $3 } END { exit s != n }' "$TMP/g/tenants.csv"
    tcheck "one fail per REMOVE (no machine removed twice in this trace)" awk -F, -v r="$nrem" '$3 == "fail" { f++ } END { exit f != r }' "$TMP/g/events-all.csv"
    tcheck "per server: fail, add, fail, ... in time order" awk -F, -v n="$nm" '
        NR > 1 { if ($1 < p || $2 < 0 || $2 >= n) exit 1; p = $1
                 if ($3 == "fail") { if (st[$2] == "down") exit 1; st[$2] = "down" }
                 else if ($3 == "add") { if (st[$2] != "down") exit 1; st[$2] = "up" } else exit 1 }' "$TMP/g/events-all.csv"
    tcheck "replay = second half, shifted" bash -c "
        s=\$(awk -F, 'NR > 1 && \$1 > m { m = \$1 } END { printf \"%.0f\", m / 2 }' '$TMP/g/events-all.csv')
        a=\$(awk -F, -v s=\"\$s\" 'NR > 1 && \$1 >= s' '$TMP/g/events-all.csv' | wc -l)
        b=\$(awk -F, 'NR > 1 { if (\$1 < 0 || \$1 < p) exit 1; p = \$1; n++ } END { print n }' '$TMP/g/events.csv')
        [ \"\$a\" = \"\$b\" ] && [ \"\$a\" -gt 1000 ]"
    tcheck "history rates = fails in the first half per server-month" bash -c "
        awk -F, 'NR == 2 { print \$3, \$5 }' '$TMP/g/tenants.csv' | {
            read n rate
            s=\$(awk -F, 'NR > 1 && \$1 > m { m = \$1 } END { printf \"%.0f\", m / 2 }' '$TMP/g/events-all.csv')
            f=\$(awk -F, -v s=\"\$s\" -v n=\"\$n\" 'NR > 1 && \$3 == \"fail\" && \$1 < s && \$2 < n' '$TMP/g/events-all.csv' | wc -l)
            awk -v f=\"\$f\" -v n=\"\$n\" -v s=\"\$s\" -v r=\"\$rate\" 'BEGIN { e = f / n / (s / 86400 / 30.4375); exit !(r - e < 1e-4 && e - r < 1e-4) }'; }"
    t "simulate on the Google events" 0 '' '*' 'x3: ' replplace --simulate --blocks 20000 --accesses 1000 \
        --events "$TMP/g/events.csv" "$TMP/g/tenants.csv"
fi

# --lost: every lost block's replicas, where and when each copy went
replplace -q --simulate -r 2 --policy stock --rack-size 1 --blocks 500 --accesses 0 --events "$TMP/ev2.csv" --days 2 \
    --lost "$TMP/lost.csv" "$TMP/two.csv" >/dev/null
tcheck "--lost: 500 blocks x 2 rows, servers 0 and 1, destroyed at t=100 and 160" awk -F, '
    NR == 1 { if ($0 != "policy,replicas,block,lost_day,replica,server,tenant,environment,class,destroyed_day") exit 1; next }
    { n++; d = $10 * 86400; if (!(($6 == 0 && d > 99.99 && d < 100.01) || ($6 == 1 && d > 159.99 && d < 160.01))) exit 1
      if ($4 * 86400 < 159.99 || $4 * 86400 > 160.01) exit 1 }
    END { exit n != 1000 }' "$TMP/lost.csv"

# tracegen storage parameters
t "storage: non-numeric --set" 64 '' '' "tracegen: invalid value for --set servers: 'abc' (want a number)" tracegen storage --set servers=abc
t "storage: servers below count" 64 '' '' 'want at least --count=300' tracegen storage --set servers=10
t "storage: unknown key" 64 '' '' "unknown --set key 'racks' for kind 'storage'" tracegen storage --set racks=3

# ---- re-creation models (--rebuild), racks (--racks), busy destinations (--busy-dest)
# three one-server tenants and 3 replicas: every block is on all three
# servers.  Server 0 is reimaged at t=100; re-creation starts at 700 s and a
# sender sends one block every 120 s (30/h).  By the end (0.05 days, 4320 s)
# a sender has sent at 700, 820, ..., 4300: 31 blocks.  sources: servers 1
# and 2 both send (300 items split between them), 62 blocks; server: the
# reimaged server's one queue, 31 blocks.
printf 't,server,event\n100,0,reimage\n' >"$TMP/ev-r0.csv"
RB="replplace -q --simulate -r 3 --policy stock --rack-size 1 --blocks 300 --accesses 0 --events $TMP/ev-r0.csv --days 0.05 $TMP/three2.csv"
tcheck "--rebuild sources: two senders x 31 blocks by 4320 s" bash -c "$RB --rebuild sources | awk -F, 'NR == 2 { ok = (\$10 == 300 && \$11 == 62 && \$4 == 0) } END { exit !ok }'"
tcheck "--rebuild server: one queue, 31 blocks by 4320 s" bash -c "$RB --rebuild server | awk -F, 'NR == 2 { ok = (\$10 == 300 && \$11 == 31 && \$4 == 0) } END { exit !ok }'"
tcheck "default is --rebuild sources" bash -c "diff <($RB) <($RB --rebuild sources)"
# 20 blocks; servers 0 and 1 reimaged at 100 and 200 s (inside the detection
# delay): each block has one copy left, on server 2, and two to re-create.
# The items first queued on server 1 move to server 2 when server 1 finds it
# no longer holds the block; server 2 sends all 40 in 40 x 120 s < 1 day.
printf 't,server,event\n100,0,reimage\n200,1,reimage\n' >"$TMP/ev-r01.csv"
tcheck "--rebuild sources: items of a reimaged sender move to the last holder" bash -c "
    replplace -q --simulate -r 3 --policy stock --rack-size 1 --blocks 20 --accesses 0 --events '$TMP/ev-r01.csv' \
        --days 1 '$TMP/three2.csv' | awk -F, 'NR == 2 { ok = (\$4 == 0 && \$10 == 40 && \$11 == 40) } END { exit !ok }'"
# --busy 0: every server with any load is busy.  avoid: alg2 finds no
# destination and retries every hour, re-creating nothing; any: as before
# (server mode, 31).  At --util-scale 0 no server is busy and avoid changes
# nothing.  Blocks are still created (the filter is dropped when it leaves
# no room).  three-env.csv tenants are one server each in distinct classes.
printf 'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\np,e1,1,1000,0.1,0.1\nq,e2,1,1000,1,0.5\nr,e3,1,1000,5,0.9\n' >"$TMP/three3.csv"
BD="replplace -q --simulate -r 3 --policy alg2 --soft --blocks 300 --accesses 0 --events $TMP/ev-r0.csv --days 0.05 --rebuild server $TMP/three3.csv"
tcheck "--busy-dest avoid --busy 0: nothing re-created onto busy servers" bash -c "$BD --busy 0 --busy-dest avoid | awk -F, 'NR == 2 { ok = (\$3 == 300 && \$10 == 300 && \$11 == 0) } END { exit !ok }'"
tcheck "--busy-dest any --busy 0: re-created as without the filter" bash -c "$BD --busy 0 --busy-dest any | awk -F, 'NR == 2 { ok = (\$11 == 31) } END { exit !ok }'"
tcheck "--busy-dest avoid at --util-scale 0: no server busy, 31 re-created" bash -c "$BD --busy 0 --util-scale 0 --busy-dest avoid | awk -F, 'NR == 2 { ok = (\$11 == 31) } END { exit !ok }'"
tcheck "stock never avoids busy servers" bash -c "$BD --policy stock --rack-size 1 --busy 0 --busy-dest avoid | awk -F, 'NR == 2 { ok = (\$11 == 31) } END { exit !ok }'"
# racks: two tenants of 10 servers, racks of 10.  ids: a rack is one tenant,
# so stock's second replica (same rack as the first) is always in the first
# replica's tenant; mixed: racks are shuffled across tenants, so it often is not.
printf 'tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\na,e1,10,1000,1,0.5\nb,e2,10,1000,1,0.5\n' >"$TMP/tworack.csv"
awk 'BEGIN { print "block,server"; for (i = 0; i < 400; i++) print "b" i "," (i % 20) }' >"$TMP/tworack-blocks.csv"
SAMEPAIR="awk -F, 'NR > 1 { t[\$1, \$2] = \$4 } END { for (k in t) { split(k, p, SUBSEP); if (p[2] == 1) { n++; s += t[p[1], 1] == t[p[1], 2] } } print s / n }'"
tcheck "--racks ids: replicas 0 and 1 always in one tenant" bash -c "
    replplace -q -r 2 --policy stock --rack-size 10 --racks ids '$TMP/tworack.csv' '$TMP/tworack-blocks.csv' | $SAMEPAIR | grep -qx 1"
tcheck "--racks mixed (default): replicas 0 and 1 in one tenant for 20-80% of blocks" bash -c "
    replplace -q -r 2 --policy stock --rack-size 10 '$TMP/tworack.csv' '$TMP/tworack-blocks.csv' | $SAMEPAIR | awk '{ exit !(\$1 > 0.2 && \$1 < 0.8) }'"

# ---- examples/harvest-durability.sh at a small size ----------------------------------
t "harvest-durability.sh runs (small)" 0 '' '*' '' env SERVERS=300 TENANTS=30 BLOCKS=3000 DAYS=20 SEEDS="1 2 3" GOOGLE=/nonexistent \
    bash "$ROOT/examples/harvest-durability.sh" "$TMP/hd"
tcheck "harvest-durability: 3 seeds x 2 policies x 2 replica counts" awk -F, '
    NR == 1 { if ($1 != "seed") exit 1; next } { n[$1]++ } END { exit !(n[1] == 4 && n[2] == 4 && n[3] == 4 && NR == 13) }' "$TMP/hd/synthetic.csv"
tcheck "harvest-durability: min <= avg <= max of the lost blocks in the table" bash -c "
    env SERVERS=300 TENANTS=30 BLOCKS=3000 DAYS=20 SEEDS='1 2 3' GOOGLE=/nonexistent bash '$ROOT/examples/harvest-durability.sh' '$TMP/hd2' |
    awk -F'|' '/^\| (stock|Algorithm)/ { split(\$4, a, \" / \"); n++; if (!(a[1] + 0 <= a[2] + 0 && a[2] + 0 <= a[3] + 0)) exit 1 } END { exit n != 4 }'"

# ---- --on-error skip (issue 18): bad block and tenant rows are skipped; the
# placements equal those of the files without them (strict by default)
printf 'block,server\nb1,0\nb2,x\nb3,17\nb4,99\n' >"$TMP/skip-blocks.csv"
printf 'block,server\nb1,0\nb3,17\n' >"$TMP/skip-good.csv"
{ cat "$TINY"; echo 'zz,envz,2,100,1,2'; } >"$TMP/skip-tenants.csv"
t "skip: strict by default" 65 '' '*' "skip-blocks.csv:3: column 'server'" replplace -q "$TINY" "$TMP/skip-blocks.csv"
tcheck "skip: same placements as without the rows" bash -c 'cmp <(replplace -q "$1" "$2") <(replplace -q --on-error skip --rejects "$5" "$4" "$3")' _ "$TINY" "$TMP/skip-good.csv" "$TMP/skip-blocks.csv" "$TMP/skip-tenants.csv" "$TMP/skip-rej.csv"
tcheck "skip: three rows rejected" bash -c '[ "$(grep -c "skip-" "$1")" = 3 ]' _ "$TMP/skip-rej.csv"

# ---- absurd tenant values: a clear refusal, not a degenerate grid or a simulation that never ends ----
t "space_gb 1e308: too large" 65 $'block,server\nb1,0\n' '' "replplace: $TMP/huge-space.csv:2: column 'space_gb': '1e308' is too large (at most 1e+12)" \
    sh -c 'sed "2s/^\([^,]*,[^,]*,[^,]*\),[^,]*,/\1,1e308,/" "$1" > "$2" && replplace -q "$2"' _ "$TINY" "$TMP/huge-space.csv"
t "reimage rate 1e308 --simulate: refused up front (drew events forever)" 65 '' '' "reimages in 1 days (at most 1e8 can be simulated)" \
    sh -c 'sed "2s/^\([^,]*,[^,]*,[^,]*,[^,]*\),[^,]*,/\1,1e308,/" "$1" > "$2" && timeout 60 replplace -q --simulate --blocks 100 --accesses 100 --days 1 "$2"' _ "$TINY" "$TMP/huge-rate.csv"
t "--events t 1e308: refused (the run was 1e303 days and the event vanished)" 65 '' '' "ev-huge.csv:2: column 't': '1e308' is beyond 36600 days" \
    sh -c 'printf "t,server,event\n1e308,0,reimage\n" > "$2" && replplace -q --simulate --blocks 100 --accesses 100 --events "$2" "$1"' _ "$TINY" "$TMP/ev-huge.csv"

# --classes and -o are replaced together: a run that fails on BLOCKS (here
# empty) leaves the old class table (it was written before BLOCKS was read)
printf 'old\n' > "$TMP/keepc.csv"; printf 'old\n' > "$TMP/keepo.csv"
t "a failed run replaces neither --classes nor -o" 65 '' '' "replplace: <stdin>:1: empty input (no header row; want block,server)" \
    replplace -q --classes "$TMP/keepc.csv" -o "$TMP/keepo.csv" "$TMP/ten.csv"
tcheck "... both old" bash -c '[ "$(cat "$1/keepc.csv" "$1/keepo.csv")" = "$(printf "old\nold")" ]' _ "$TMP"
