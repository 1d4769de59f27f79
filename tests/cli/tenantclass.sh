# tenantclass: patterns against tracegen's ground truth (awk checker), hand-
# worked series, the gap policy, shard equivalence, scales, errors, and the
# PlanetLab adapter's invariants.
D="$ROOT/tests/data/tenantclass"
CHK="$ROOT/tests/check/tenantclass_accuracy.awk"

# ---- tracegen tenants ----
t "tracegen tenants: header and first row" 0 '' $'tenant,t\ntenant00001,1767571200' '' sh -c 'tracegen tenants --count 1 --days 1 | head -2 | cut -d, -f1,2'
tcheck "tracegen tenants: shards (--set first) concatenate to the full trace" bash -c '
    cmp <(tracegen tenants --seed 4 --count 6 --days 2) <({ tracegen tenants --seed 4 --count 2 --days 2; tracegen tenants --seed 4 --count 4 --days 2 --set first=3 --no-output-header; })'
tcheck "tracegen tenants: rows = tenants x days x 720 at 2 min, util in [0,1], 3 patterns in the truth" bash -c '
    tracegen tenants --seed 4 --count 30 --days 2 --truth "$1/tt.csv" | awk -F, "NR>1{n++; if (\$3<0 || \$3>1) exit 1} END{exit n!=30*2*720}" &&
    [ "$(cut -d, -f2 "$1/tt.csv" | tail -n +2 | sort -u | tr "\n" " ")" = "constant periodic unpredictable " ]' _ "$TMP"
tcheck "tracegen tenants: --set drop removes samples" bash -c '[ "$(tracegen tenants --count 3 --days 2 --set drop=0.5 | wc -l)" -lt 3000 ]'
t "tracegen tenants: bad --set value" 64 '' '' "tenants: --set values out of range" tracegen tenants --set periodic=2
t "tracegen tenants: percent" 0 '' '*' '' sh -c 'tracegen tenants --count 2 --days 1 --set percent=1 | awk -F, "NR>1 && \$3>1 {f=1} END{exit !f}"'

# ---- accuracy on ground truth (>= 95% of patterns right) ----
tracegen tenants --seed 11 --count 120 --days 21 --truth "$TMP/truth11.csv" -o "$TMP/gen11.csv"
tracegen tenants --seed 12 --count 120 --days 28 --set noise=0.05 --truth "$TMP/truth12.csv" -o "$TMP/gen12.csv"
t "classify seed 11" 0 '' '*' 'tenantclass: 120 tenants' tenantclass --servers "$TMP/truth11.csv" --classes "$TMP/cl11.csv" -o "$TMP/out11.csv" "$TMP/gen11.csv"
tcheck "accuracy >= 95% (seed 11, 21 days)" awk -F, -v min=0.95 -f "$CHK" "$TMP/truth11.csv" "$TMP/out11.csv"
t "classify seed 12" 0 '' '*' '*' tenantclass -q -o "$TMP/out12.csv" "$TMP/gen12.csv"
tcheck "accuracy >= 95% (seed 12, noisier)" awk -F, -v min=0.95 -f "$CHK" "$TMP/truth12.csv" "$TMP/out12.csv"
tcheck "checker fails on wrong patterns" bash -c '! awk -F, -v min=0.95 -f "$1" "$2" <(sed "s/,constant,/,periodic,/" "$3")' _ "$CHK" "$TMP/truth11.csv" "$TMP/out11.csv"

# ---- class table invariants (independent sums over the truth and output) ----
tcheck "classes: tenants add up, servers add up to the truth's" bash -c '
    nt=$(awk "END{print NR-1}" "$1"); st=$(awk -F, "NR>1{s+=\$3} END{print s}" "$2")
    awk -F, -v nt="$nt" -v st="$st" "NR>1{n+=\$5; s+=\$6; if (\$3 > \$4 + 1e-12) bad=1} END{exit !(n==nt && s==st && !bad)}" "$3"' \
    _ "$TMP/out11.csv" "$TMP/truth11.csv" "$TMP/cl11.csv"
tcheck "classes: each tenant's class exists and has its pattern" bash -c '
    awk -F, "NR==FNR{p[\$1]=\$2; next} FNR>1 && p[\$3]!=\$2 {exit 1}" "$1" "$2"' _ "$TMP/cl11.csv" "$TMP/out11.csv"
tcheck "classes: server-weighted avg_util recomputed by awk" bash -c '
    awk -F, "FILENAME==ARGV[1]{if(FNR>1)sv[\$1]=\$3; next} FILENAME==ARGV[2]{if(FNR>1){s[\$3]+=sv[\$1]; a[\$3]+=sv[\$1]*\$4}; next}
             FNR>1{d=a[\$1]/s[\$1]-\$3; if (d<0) d=-d; if (d>1e-9) exit 1}" "$1" "$2" "$3"' _ "$TMP/truth11.csv" "$TMP/out11.csv" "$TMP/cl11.csv"

# ---- determinism, order and shard independence ----
tcheck "same input and seed, same bytes" bash -c 'tenantclass -q --servers "$1" "$2" | cmp - "$3"' _ "$TMP/truth11.csv" "$TMP/gen11.csv" "$TMP/out11.csv"
awk -F, 'NR==1{next} {print > (ENVIRON["TMP"] "/sh" (substr($1,7)%2) ".body")}' "$TMP/gen11.csv"
for i in 0 1; do { echo tenant,t,util; cat "$TMP/sh$i.body"; } > "$TMP/shard$i.csv"; done
t "features of shard 0" 0 '' '*' '*' tenantclass -q --features-only --servers "$TMP/truth11.csv" -o "$TMP/f0.csv" "$TMP/shard0.csv"
t "features of shard 1" 0 '' '*' '*' tenantclass -q --features-only --servers "$TMP/truth11.csv" -o "$TMP/f1.csv" "$TMP/shard1.csv"
t "cluster the shards' features" 0 '' '*' '*' tenantclass -q --from-features --classes "$TMP/clsh.csv" -o "$TMP/outsh.csv" "$TMP/f1.csv" "$TMP/f0.csv"
tcheck "sharded result == one process" cmp "$TMP/outsh.csv" "$TMP/out11.csv"
tcheck "sharded classes == one process" cmp "$TMP/clsh.csv" "$TMP/cl11.csv"
tcheck "tenants in another order, same result" bash -c '{ echo tenant,t,util; cat "$1/shard1.csv" "$1/shard0.csv" | grep -v ^tenant,t; } | tenantclass -q --servers "$2" | cmp - "$3"' _ "$TMP" "$TMP/truth11.csv" "$TMP/out11.csv"
tcheck "servers column in the input == --servers" bash -c '
    awk -F, "NR==FNR{s[\$1]=\$3; next} FNR==1{print \$0\",servers\"; next} {print \$0\",\"s[\$1]}" "$1" "$2" |
    tenantclass -q --classes "$3/clcol.csv" >/dev/null && cmp "$3/clcol.csv" "$4"' _ "$TMP/truth11.csv" "$TMP/gen11.csv" "$TMP" "$TMP/cl11.csv"
tcheck "percent scale: same patterns and classes, avg x 100" bash -c '
    awk -F, -v OFS=, "NR>1{\$3=\$3*100} {print}" "$1" | tenantclass -q --scale percent |
    awk -F, "NR==FNR{p[\$1]=\$2; c[\$1]=\$3; a[\$1]=\$4; next} FNR>1{d=\$4-100*a[\$1]; if (d<0) d=-d; if (p[\$1]!=\$2 || c[\$1]!=\$3 || d>1e-9) exit 1}" "$2" -' _ "$TMP/gen11.csv" "$TMP/out11.csv"

# ---- hand-worked series ----
# a spiky tenant: 2000 samples 2 min apart, 1 in 200 at 1 (10 of 2000): avg
# 0.005, p99 0 (fewer than 1% above 0).  Its own row keeps peak 0; its class's
# peak_util is never below avg_util (0.005: it was 0), which classpick refuses.
awk 'BEGIN{print "tenant,t,util"; for (i = 0; i < 2000; i++) print "spiky," i * 120 "," (i % 200 ? 0 : 1)}' > "$TMP/spiky.csv"
t "spiky tenant: its row keeps peak 0 < avg 0.005" 0 '' 'spiky,0.005,0' '' sh -c 'tenantclass -q --classes "$2/spiky-cl.csv" "$1" | tail -n +2 | cut -d, -f1,4,5' _ "$TMP/spiky.csv" "$TMP"
t "spiky tenant: class peak_util = avg_util" 0 '' $'class,pattern,avg_util,peak_util,tenants,servers\nconstant-1,constant,0.005,0.005,1,1' '' cat "$TMP/spiky-cl.csv"
t "spiky tenant: classpick reads the class table" 0 $'job,last_duration,containers\nj,1h,1\n' '*' '' classpick -q --classes "$TMP/spiky-cl.csv"
# daily: 0.5 + 0.2 cos(2 pi h / 24) hourly over 4 days: mean 0.5, all variance at 1 d (strength 1), peak 0.7;
# flat: 0.3 everywhere: constant, strength 0.
tcheck "hand: daily cosine and a flat line" bash -c '
    tenantclass -q --step 1h "$1" | awk -F, "
      \$1==\"daily\"{ok1 = \$2==\"periodic\" && (\$4-0.5)^2<1e-20 && (\$5-0.7)^2<1e-20 && (\$6-1)^2<1e-20}
      \$1==\"flat\" { ok2 = \$2==\"constant\" && (\$4-0.3)^2<1e-20 && \$5==0.3 && \$6==0}
      END{exit !(ok1 && ok2)}"' _ "$D/hand.csv"
# gap policy: samples 0.2 (t=0) and 0.4 (t=60) share the first 2-minute step (0.3); 0.8 at t=360 is step 3;
# steps 1 and 2 are interpolated (0.4667, 0.6333): 4 steps, 2 missing, avg 0.55, p99 0.795 (type 7).
t "gap policy: mean per step, linear fill" 0 "@$D/gap.csv" \
    $'tenant,servers,steps,missing,avg,peak\ng,1,4,2,0.55,0.795' '' \
    sh -c 'tenantclass -q --features-only --min-samples 4 | cut -d, -f1-6'
t "too many gaps: skipped with a warning" 0 "@$D/gap.csv" 'tenant,pattern,class,avg,peak,strength' \
    "tenantclass: <stdin>:2: warning: tenant 'g': 2 of 4 steps are gaps (more than --max-missing 0.4); skipped" \
    tenantclass --min-samples 4 --max-missing 0.4
# Two samples 5.4e9 s apart are 45,000,001 steps of 120 s: turned down from
# the steps and gaps alone (pattern_gaps), not from a grid of that many
# steps (fuzz round 10: 706 MB and 8.6 s at -O2, 11 s under ASan); peak RSS
# well under 100 MB in either build.
printf 'tenant,t,util\ng,7167571200,0.2\ng,1767571260,0.4\n' > "$TMP/far.csv"
t "two samples 5.4e9 s apart: skipped for gaps" 0 '' 'tenant,pattern,class,avg,peak,strength' \
    "tenantclass: $TMP/far.csv:2: warning: tenant 'g': 44999999 of 45000001 steps are gaps (more than --max-missing 0.5); skipped (its samples are 5.4e+09 s apart: give --step 89999999m?)" \
    tenantclass "$TMP/far.csv"
tcheck "two samples 5.4e9 s apart: no grid of the span (peak RSS < 100 MB)" bash -c '
    /usr/bin/time -f %M -o "$2/far.rss" tenantclass -q "$1" > /dev/null || exit 1
    rss=$(tail -1 "$2/far.rss"); echo "peak RSS $rss KB"; [ "$rss" -lt 102400 ]' _ "$TMP/far.csv" "$TMP"
t "too short: skipped" 0 "@$D/gap.csv" 'tenant,pattern,class,avg,peak,strength' "fewer than --min-samples 16; skipped" tenantclass
# 5-minute samples at the default 2m step: 430 of 718 steps are gaps, so
# every tenant is skipped; the warning names the samples' interval (median
# 300 s) and the --step that fits, the summary says no tenant is left (exit
# stays 0, as skyfit's when no job can be fitted; classpick refuses the
# empty class table).  Samples 2 min apart with a hole are gaps, not a step.
awk 'BEGIN{print "tenant,t,util"; for(v=1;v<=2;v++) for(i=0;i<288;i++) printf "vm%d,%d,%.3f\n",v,i*300,0.2+0.1*sin(i/10+v)}' > "$TMP/five.csv"
t "5-minute data at --step 2m: the warning names the interval and --step 5m" 0 '' 'tenant,pattern,class,avg,peak,strength' \
    "tenantclass: $TMP/five.csv:2: warning: tenant 'vm1': 430 of 718 steps are gaps (more than --max-missing 0.5); skipped (its samples are 300 s apart: give --step 5m?)" \
    tenantclass "$TMP/five.csv"
t "5-minute data at --step 2m: the summary says no tenant is left" 0 '' '*' \
    "tenantclass: warning: no tenant classified: all 2 were skipped (2 for gaps, 0 too short); 2 of them have samples further apart than --step 120 s" \
    tenantclass "$TMP/five.csv"
t "5-minute data, --features-only: no tenant left, said plainly" 0 '' 'tenant,servers,steps,missing,avg,peak,sd,sd_low,strength,period,repeat,pattern' \
    "tenantclass: warning: no tenant classified: all 2 were skipped (2 for gaps, 0 too short)" \
    tenantclass --features-only "$TMP/five.csv"
t "5-minute data at --step 5m: both classified" 0 '' '*' 'tenantclass: 2 tenants:' tenantclass --step 5m "$TMP/five.csv"
t "planetlab at --step 2m: every VM skipped, the hint names 5m" 0 '' '*' \
    "1052 of them have samples further apart than --step 120 s" \
    sh -c 'tenantclass --col tenant=vm --col util=cpu --scale percent "$1" 2>&1 >/dev/null | grep -c "skipped (its samples are 300 s apart: give --step 5m?)" | grep -qx 10 &&
           tenantclass --col tenant=vm --col util=cpu --scale percent "$1" >/dev/null' _ "$DATA/planetlab/20110303.csv"
# 1,052 skipped VMs were 1,052 warning lines (cron mailed them nightly): the
# first 10 are named, the summary counts the rest, with or without threads
t "planetlab at --step 2m: 10 VMs named, the summary counts the other 1042" 0 '' '*' \
    "tenantclass: 0 tenants (1052 more skipped: 1052 for gaps, 0 too short; the first 10 are named above, 1042 more are not):" \
    tenantclass --col tenant=vm --col util=cpu --scale percent "$DATA/planetlab/20110303.csv"
tcheck "planetlab --features-only: 10 VMs named, the summary counts the rest" bash -c '
    tenantclass --features-only --col tenant=vm --col util=cpu --scale percent "$1" 2>err >/dev/null &&
    [ "$(grep -c ": warning: tenant .*skipped" err)" = 10 ] &&
    grep -q "1052 skipped for gaps, 0 too short; the first 10 are named above, 1042 more are not) in" err ||
        { cat err; exit 1; }' _ "$DATA/planetlab/20110303.csv"
t "real gaps in 2-minute samples: no --step hint" 0 "@$D/gap.csv" '*' '' \
    sh -c 'tenantclass --min-samples 4 --max-missing 0.4 2>"$1" >/dev/null && grep -q "2 of 4 steps are gaps" "$1" && ! grep -q "apart" "$1"' _ "$TMP/gap.err"
# duplicate (tenant, t) samples are samples like any other: 0.2 and 0.6 both at t=0 make step 0 = 0.4;
# steps 0.4, 0.1, 0.3, 0.3: avg 0.275 (by hand), not 0.3 as keeping only the later sample would give.
t "duplicate (tenant, t) sample: averaged with its step" 0 $'tenant,t,util\na,0,0.2\na,0,0.6\na,120,0.1\na,240,0.3\na,360,0.3\n' \
    $'tenant,servers,steps,missing,avg\na,1,4,0,0.275' '' sh -c 'tenantclass -q --features-only --min-samples 4 | cut -d, -f1-5'
t "empty util is a gap" 0 $'tenant,t,util\na,0,0.1\na,120,\na,240,0.3\na,360,0.3\n' '*' '' \
    sh -c 'tenantclass -q --features-only --min-samples 4 | cut -d, -f3,4 | tail -1 | grep -qx 4,1'
# K-Means by hand: four constant tenants at 0.10, 0.12, 0.50, 0.52 with --k 2: {a,b} and {c,d}
t "k-means by hand: two classes" 0 $'tenant,t,util\na,0,0.1\na,3600,0.1\nb,0,0.12\nb,3600,0.12\nc,0,0.5\nc,3600,0.5\nd,0,0.52\nd,3600,0.52\n' \
    $'tenant,pattern,class\na,constant,constant-1\nb,constant,constant-1\nc,constant,constant-2\nd,constant,constant-2' '' \
    sh -c 'tenantclass -q --min-samples 2 --step 1h --k 2 | cut -d, -f1-3'
t "k auto by tolerance: 0.1 apart is one class at --tolerance 0.3" 0 $'tenant,t,util\na,0,0.1\na,3600,0.1\nb,0,0.2\nb,3600,0.2\n' \
    $'a,constant-1\nb,constant-1' '' sh -c 'tenantclass -q --min-samples 2 --step 1h --tolerance 0.3 | cut -d, -f1,3 | tail -2'
t "fixed k per pattern" 0 '' '*' '' sh -c 'tenantclass -q --k periodic=2,constant=3,unpredictable=1 --classes "$2" "$1" >/dev/null && cut -d, -f2 "$2" | sort | uniq -c | awk "{printf \"%s=%s \", \$2, \$1}" | grep -qx "constant=3 pattern=1 periodic=2 unpredictable=1 "' _ "$TMP/gen11.csv" "$TMP/clk.csv"
t "quoted tenant names" 0 $'tenant,t,util\n"x,1",0,0.5\n"x,1",3600,0.5\n"y""q",0,0.2\n"y""q",3600,0.2\n' \
    $'tenant,pattern,class,avg,peak,strength\n"x,1",constant,constant-1,0.5,0.5,0\n"y""q",constant,constant-1,0.2,0.2,0' '' \
    tenantclass -q --min-samples 2 --step 1h --k 1
t "no header with --names" 0 $'a,0,0.5\na,3600,0.5\n' $'tenant,pattern,class,avg,peak,strength\na,constant,constant-1,0.5,0.5,0' '' \
    tenantclass -q -H --names tenant,t,util --min-samples 2 --step 1h
t "iso times, crlf" 0 $'tenant,t,util\r\na,2026-01-05T00:00:00Z,0.5\r\na,2026-01-05T01:00Z,0.5\r\n' '*' '' \
    sh -c 'tenantclass -q --min-samples 2 --step 1h | tail -1 | grep -qx "a,constant,constant-1,0.5,0.5,0"'

# ---- errors ----
t "missing column" 65 $'tenant,time,util\na,0,1\n' '' "tenantclass: <stdin>:1: missing required column 't'" tenantclass
t "util above 1 hints at --scale" 65 $'tenant,t,util\na,0,0.5\na,120,57\n' '' "tenantclass: <stdin>:3: column 'util': 57 is above 1 (for 0-100 data use --scale percent)" tenantclass
t "negative util" 65 $'tenant,t,util\na,0,-0.5\n' '' "tenantclass: <stdin>:2: column 'util': must not be negative, got '-0.5'" tenantclass
t "bad number" 65 $'tenant,t,util\na,0,0.5x\n' '' "tenantclass: <stdin>:2: column 'util': invalid number '0.5x'" tenantclass
t "nan util" 65 $'tenant,t,util\na,0,nan\n' '' "tenantclass: <stdin>:2: column 'util': invalid number 'nan'" tenantclass
t "bad time" 65 $'tenant,t,util\na,yesterday,0.5\n' '' "tenantclass: <stdin>:2: column 't': invalid time 'yesterday'" tenantclass
t "ragged row" 65 $'tenant,t,util\na,0\n' '' "tenantclass: <stdin>:2: expected 3 fields (as in the header), found 2" tenantclass
t "unterminated quote" 65 $'tenant,t,util\n"a,0,1\n' '' "tenantclass: <stdin>:2: unterminated quoted field" tenantclass
t "not grouped" 65 $'tenant,t,util\na,0,0.1\nb,0,0.1\na,120,0.1\n' '' "tenantclass: <stdin>:4: input not grouped by tenant: tenant 'a' appears again after tenant 'b' (sort by tenant first, the header kept on top, e.g. (head -1 FILE; tail -n +2 FILE | sort -s -t, -k1,1), or use -s)" tenantclass
t "absurd time: at its row, with the likely unit" 65 $'tenant,t,util\na,0,0.1\na,1e15,0.2\n' '' "tenantclass: <stdin>:3: column 't': time '1e15' out of range (|value| <= 1e+11): it looks like microseconds since the epoch; use --time-unit us" tenantclass
t "missing tenant" 65 $'tenant,t,util\n,0,0.1\n' '' "tenantclass: <stdin>:2: column 'tenant': missing value" tenantclass
t "empty input" 65 '' '' "tenantclass: <stdin>:1: empty input (no header row)" tenantclass
t "missing file" 66 '' '' "tenantclass: /nonexistent.csv: cannot open" tenantclass /nonexistent.csv
t "bad --scale" 64 '' '' "invalid value for --scale: 'permille'" tenantclass --scale permille
t "bad --k pattern" 64 '' '' "invalid value for --k: unknown pattern 'bursty'" tenantclass --k bursty=3
t "bad --periods" 64 '' '' "invalid value for --periods: 'daily'" tenantclass --periods daily
t "features-only with classes" 64 '' '' "--classes needs the clustering phase" tenantclass --features-only --classes x.csv
t "both phases flags" 64 '' '' "exclude each other" tenantclass --features-only --from-features
# a tenant read twice is an error at the second row, naming the first (keytab's
# rule: the first row kept under --on-error skip); f1's first tenant (line 2)
# again in a third table, or f0's first again at the end of f0 (line 62)
x1=$(sed -n 2p "$TMP/f1.csv" | cut -d, -f1); x0=$(sed -n 2p "$TMP/f0.csv" | cut -d, -f1)
{ head -1 "$TMP/f1.csv"; sed -n 2p "$TMP/f1.csv"; } > "$TMP/fdup.csv"
{ cat "$TMP/f0.csv"; sed -n 2p "$TMP/f0.csv"; } > "$TMP/f0dup.csv"
t "duplicate tenant across feature tables: at its row, naming the first" 65 '' '' \
    "tenantclass: $TMP/fdup.csv:2: duplicate tenant '$x1' (first at $TMP/f1.csv:2)" tenantclass --from-features "$TMP/f1.csv" "$TMP/f0.csv" "$TMP/fdup.csv"
t "duplicate tenant in one feature table" 65 '' '' \
    "tenantclass: $TMP/f0dup.csv:62: duplicate tenant '$x0' (first at line 2)" tenantclass --from-features "$TMP/f1.csv" "$TMP/f0dup.csv"
tcheck "duplicate feature rows skipped (--on-error skip): the first kept" bash -c '
    cmp <(tenantclass -q --from-features --on-error skip --rejects "$1/frej.csv" "$1/f1.csv" "$1/f0dup.csv" "$1/fdup.csv") "$1/outsh.csv" &&
    [ "$(cut -d, -f1,2 "$1/frej.csv" | tail -n +2 | tr "\n" " ")" = "$1/f0dup.csv,62 $1/fdup.csv,2 " ]' _ "$TMP"
# a feature table of no bytes is a shard whose --features-only run failed
# (that run writes its header even for no tenants): refused, where it used to
# be read as no tenants, exit 0 with the shard's tenants missing
: > "$TMP/fempty.csv"
t "empty feature table (a failed shard) refused at its line 1" 65 '' '' \
    "tenantclass: $TMP/fempty.csv:1: empty input (no header row)" tenantclass --from-features "$TMP/f1.csv" "$TMP/fempty.csv" "$TMP/f0.csv"
t "empty feature table on stdin refused" 65 '' '' "tenantclass: <stdin>:1: empty input (no header row)" tenantclass --from-features
t "features of a header-only series: a header, read back as no tenants" 0 $'tenant,t,util\n' \
    'tenant,servers,steps,missing,avg,peak,sd,sd_low,strength,period,repeat,pattern' '' tenantclass -q --features-only
t "bad pattern in features" 65 $'tenant,servers,steps,missing,avg,peak,sd,sd_low,strength,period,repeat,pattern\na,1,10,0,0.1,0.2,0,0,0,0,0,bursty\n' '' \
    "tenantclass: <stdin>:2: column 'pattern': 'bursty' is not periodic, constant or unpredictable" tenantclass --from-features
# times: csvio's getter (--time-unit; |t| <= 1e11 at the row); a span over
# 50 million steps is reported at the row whose time makes it so (line 5), not
# at the tenant's first line: 2^63 was "spans 76861433640456464 steps" at line 2
t "time 2^63 refused at its own row" 65 $'tenant,t,util\na,0,0.1\na,300,0.2\na,600,0.3\na,9223372036854775808,0.4\na,900,0.1\n' '' \
    "tenantclass: <stdin>:5: column 't': time '9223372036854775808' out of range (|value| <= 1e+11)" tenantclass
t "time 2^63 refused at its own row (-s)" 65 $'tenant,t,util\nb,0,0.1\na,0,0.1\na,300,0.2\na,9223372036854775808,0.4\n' '' \
    "tenantclass: <stdin>:5: column 't': time '9223372036854775808' out of range" tenantclass -s
# (9e10 - 0) / 120 + 1 = 750000001 steps of 120 s
t "span too long: at the row that makes it" 65 $'tenant,t,util\na,0,0.1\na,300,0.2\na,600,0.3\na,90000000000,0.4\na,900,0.1\n' '' \
    "tenantclass: <stdin>:5: tenant 'a': t 90000000000 makes it span 750000001 steps of 120 s (more than 50 million, from t 0 to 90000000000); use a larger --step" tenantclass
t "span too long: at the row that makes it (-s)" 65 $'tenant,t,util\nb,0,0.1\na,90000000000,0.4\na,0,0.2\n' '' \
    "tenantclass: <stdin>:4: tenant 'a': t 0 makes it span 750000001 steps" tenantclass -s
# --time-unit ms: the same series in milliseconds gives the same features (it was read as seconds)
tcheck "--time-unit ms reads milliseconds" bash -c '
    tracegen tenants --seed 5 --count 3 --days 2 > "$1/s.csv" &&
    awk -F, -v OFS=, "NR>1{\$2=\$2*1000} 1" "$1/s.csv" > "$1/ms.csv" &&
    cmp <(tenantclass -q --features-only "$1/s.csv") <(tenantclass -q --features-only --time-unit ms "$1/ms.csv")' _ "$TMP"
printf 'old\n' > "$TMP/keep.csv"
t "failed run keeps -o file" 65 $'tenant,t,util\na,0,7\n' '' '*' tenantclass -o "$TMP/keep.csv"
tcheck "old output intact" grep -qx old "$TMP/keep.csv"

# ---- PlanetLab adapter (real data): invariants ----
t "planetlab adapter runs" 0 '' '*' '*' sh -c 'cd "$1" && "$2/examples/planetlab-to-tenantclass.sh" "$3/planetlab/20110303.csv" "$1" > mix.txt' _ "$TMP" "$ROOT" "$DATA"
tcheck "planetlab: every VM classified once, percent in range, avg <= peak" bash -c '
    cut -d, -f1 "$1" | sort -u | wc -l | grep -qx 1053 &&
    awk -F, "NR>1{n++; if (\$2!=\"periodic\" && \$2!=\"constant\" && \$2!=\"unpredictable\") exit 1;
             if (\$4<0 || \$5>100 || \$4>\$5+1e-9) exit 1} END{exit n!=1052}" "$2"' _ "$DATA/planetlab/20110303.csv" "$TMP/planetlab-tenants.csv"
tcheck "planetlab: class table sums to 1052 tenants and servers" awk -F, 'NR>1{n+=$5; s+=$6} END{exit !(n==1052 && s==1052)}' "$TMP/planetlab-classes.csv"
tcheck "planetlab: the mix adds up to 100%" awk -F, '{n+=$2} END{exit n!=1052}' "$TMP/mix.txt"
# the mix README.md and docs/tenantclass.md print, so it cannot drift silently
tcheck "planetlab: the documented mix 618 / 2 / 432 (58.7%, 0.2%, 41.1%)" bash -c '
    [ "$(cat "$1")" = "$(printf "constant,618,58.7%%\nperiodic,2,0.2%%\nunpredictable,432,41.1%%")" ]' _ "$TMP/mix.txt"
# a VM whose day spans at most 5 points has sd <= 2.5 < --constant-max 3 points, so it cannot be unpredictable
tcheck "planetlab: VMs with a flat day are never unpredictable" bash -c '
    awk -F, "NR>1{v=\$3+0; if(!(\$1 in mn)||v<mn[\$1])mn[\$1]=v; if(!(\$1 in mx)||v>mx[\$1])mx[\$1]=v} END{for(k in mn) if(mx[k]-mn[k]<=5) print k}" "$1" > "$3/flat.txt"
    [ "$(wc -l < "$3/flat.txt")" -ge 20 ] && awk -F, "NR==FNR{f[\$0]=1; next} (\$1 in f) && \$2==\"unpredictable\" {exit 1}" "$3/flat.txt" "$2"' _ "$DATA/planetlab/20110303.csv" "$TMP/planetlab-tenants.csv" "$TMP"

# the --features-only summary gives the tenants per pattern (1052 VMs:
# counted independently from the feature table's pattern column)
PL="$DATA/planetlab/20110303.csv"
PLO="--col tenant=vm --col util=cpu --step 5m --scale percent --periods 1h,2h,3h,4h,6h,8h"
tcheck "planetlab --features-only: summary gives tenants per pattern, as the table has them" bash -c '
    tenantclass $2 --features-only "$1" > "$3/pl.feat" 2> "$3/pl.err" &&
    want=$(awk -F, "NR>1{n++; c[\$12]++} END{printf \"features of %d tenants written (periodic %d, constant %d, unpredictable %d, \", n, c[\"periodic\"], c[\"constant\"], c[\"unpredictable\"]}" "$3/pl.feat") &&
    grep -qF "$want" "$3/pl.err"' _ "$PL" "$PLO" "$TMP"
# the second phase given the first phase's options (--col tenant=vm): the
# feature table has tenantclass's own 'tenant' column ("missing required
# column 'tenant'", exit 65, before), and the classes are one process's
tcheck "planetlab --from-features with the --features-only run's --col: one process's classes" bash -c '
    tenantclass -q $2 --features-only "$1" > "$3/plcol.feat" &&
    tenantclass -q $2 --from-features "$3/plcol.feat" > "$3/plcol.out" &&
    tenantclass -q $2 "$1" | cmp - "$3/plcol.out"' _ "$PL" "$PLO" "$TMP"
# the summary's rms is in the --tolerance's own 0-1 units at --scale percent
# too (it printed 4.99 against a tolerance of 0.05): k stops at the smallest
# k whose rms is within the tolerance (below --k-max 20), so every rms the
# line gives is at most the tolerance the second line names
tcheck "planetlab --scale percent: summary rms within the --tolerance it names" bash -c '
    tenantclass $2 "$1" 2> "$3/plrms.err" > /dev/null &&
    tol=$(sed -n "s/.*<= --tolerance \([0-9.]*\) (rms and sd in 0-1 units).*/\1/p" "$3/plrms.err") && [ -n "$tol" ] &&
    grep -oE "rms [0-9][0-9.e-]*" "$3/plrms.err" | awk -v t="$tol" "{n++; if (\$2 > t + 0) exit 1} END{exit n != 3}"' _ "$PL" "$PLO" "$TMP"
# one process and --features-only + --from-features cluster the same doubles
# at --scale percent (avg x 100 / 100 is not always avg: constant-1's
# avg_util was 2.4066136448948954 vs 2.406613644894896), also over keyshard
# shards of the VMs
tcheck "planetlab percent: --from-features == one process, byte for byte (tenants and classes)" bash -c '
    tenantclass -q $2 --classes "$3/plc1.csv" "$1" > "$3/plt1.csv" &&
    tenantclass -q --from-features --scale percent --classes "$3/plc2.csv" "$3/pl.feat" > "$3/plt2.csv" &&
    cmp "$3/plc1.csv" "$3/plc2.csv" && cmp "$3/plt1.csv" "$3/plt2.csv"' _ "$PL" "$PLO" "$TMP"
tcheck "planetlab percent: 3 keyshard shards through --features-only == one process" bash -c '
    keyshard -q -k vm -n 3 -p "$3/plsh-" "$1" &&
    for i in 0 1 2; do tenantclass -q $2 --features-only "$3/plsh-000$i.csv" > "$3/plsh-$i.feat" || exit; done &&
    tenantclass -q --from-features --scale percent --classes "$3/plc3.csv" "$3/plsh-2.feat" "$3/plsh-0.feat" "$3/plsh-1.feat" > "$3/plt3.csv" &&
    cmp "$3/plc1.csv" "$3/plc3.csv" && cmp "$3/plt1.csv" "$3/plt3.csv"' _ "$PL" "$PLO" "$TMP"
tcheck "percent, synthetic: --from-features == one process (classes)" bash -c '
    awk -F, -v OFS=, "NR>1{\$3=\$3*100} {print}" "$1" > "$2/pct11.csv" &&
    tenantclass -q --scale percent --classes "$2/pc1.csv" "$2/pct11.csv" > /dev/null &&
    tenantclass -q --scale percent --features-only "$2/pct11.csv" |
    tenantclass -q --scale percent --from-features --classes "$2/pc2.csv" > /dev/null && cmp "$2/pc1.csv" "$2/pc2.csv"' _ "$TMP/gen11.csv" "$TMP"

# ---- several readers (regular files over 32 MiB are cut between tenants) ----
tracegen tenants --seed 13 --count 60 --days 30 -o "$TMP/big.csv"
tcheck "threads: 3 readers == 1 reader (tenants and classes)" bash -c '
    tenantclass -q --threads 1 --classes "$1/c1.csv" "$1/big.csv" > "$1/t1.csv" &&
    tenantclass -q --threads 3 --classes "$1/c3.csv" "$1/big.csv" > "$1/t3.csv" &&
    cmp "$1/t1.csv" "$1/t3.csv" && cmp "$1/c1.csv" "$1/c3.csv"' _ "$TMP"
tcheck "threads: feature tables in input order" bash -c 'cmp <(tenantclass -q --threads 1 --features-only "$1") <(tenantclass -q --threads 2 --features-only "$1")' _ "$TMP/big.csv"
# --servers listing one of the 60 tenants: the other 59 take 1 server, counted
# across the readers as by one (review, 2026-12-04)
printf 'tenant,servers\ntenant00001,4\n' > "$TMP/big-srv.csv"
for th in 1 3; do
    t "threads $th: tenants not in --servers counted across the readers" 0 '' \
        "tenantclass: warning: 59 tenants are not in --servers $TMP/big-srv.csv; counted as 1 server" '' \
        sh -c 'tenantclass --threads "$1" --servers "$2" "$3" 2>&1 >/dev/null | grep "warning: .* --servers"' _ "$th" "$TMP/big-srv.csv" "$TMP/big.csv"
done
{ cat "$TMP/big.csv"; grep "^tenant00002," "$TMP/big.csv" | head -20; } > "$TMP/ungrouped.csv"
t "threads: ungrouped input, same message as one reader" 65 '' '' \
    "tenantclass: $TMP/ungrouped.csv:1296002: input not grouped by tenant: tenant 'tenant00002' appears again after tenant '" \
    tenantclass --threads 2 "$TMP/ungrouped.csv"
t "threads: ungrouped input, features-only" 65 '' '' "$TMP/ungrouped.csv:1296002: input not grouped by tenant: tenant 'tenant00002' appears again" \
    tenantclass --threads 2 --features-only "$TMP/ungrouped.csv"
{ cat "$TMP/big.csv"; echo "zzz,1767571200,2"; } > "$TMP/badtail.csv"
t "threads: a bad value in the last range" 65 '' '*' "tenantclass: $TMP/badtail.csv:1296002: column 'util': 2 is above 1" tenantclass --threads 2 "$TMP/badtail.csv"
last=$(tail -1 "$TMP/big.csv" | cut -d, -f1)
{ cat "$TMP/big.csv"; echo "$last,90000000000,0.5"; } > "$TMP/spantail.csv"
t "threads: a span too long, at its row in the last range" 65 '' '*' "tenantclass: $TMP/spantail.csv:1296002: tenant '$last': t 90000000000 makes it span" \
    tenantclass --threads 2 "$TMP/spantail.csv"

# ---- --max-tenants: the clustering phase keeps ~170 bytes per tenant ----
# f1 holds the 60 odd tenants and f0 the 60 even ones (header at line 1), so
# with a limit of 100 the 101st tenant is f0's 41st row, at line 42.
tcheck "max-tenants: 60 + 60 feature rows" bash -c '[ "$(tail -n +2 "$1" | wc -l)" = 60 ] && [ "$(tail -n +2 "$2" | wc -l)" = 60 ]' _ "$TMP/f0.csv" "$TMP/f1.csv"
t "--max-tenants refuses features" 65 '' '' "tenantclass: $TMP/f0.csv:42: more than 100 tenants (--max-tenants)" \
    tenantclass -q --from-features --max-tenants 100 -o "$TMP/mt.csv" "$TMP/f1.csv" "$TMP/f0.csv"
tcheck "--max-tenants: no output left" test ! -e "$TMP/mt.csv"
t "--max-tenants 120 is enough" 0 '' '*' '' tenantclass -q --from-features --max-tenants 120 "$TMP/f1.csv" "$TMP/f0.csv"
# the 51st tenant of gen11.csv starts at line 756002 (awk finds it), with
# parallel readers (a 54 MB file) or one (stdin)
t "--max-tenants: the 51st tenant's line" 0 '' '756002' '' awk -F, 'NR>1 && $1!=p {n++; p=$1; if (n==51) print NR}' "$TMP/gen11.csv"
t "--max-tenants refuses series" 65 '' '' "tenantclass: $TMP/gen11.csv:756002: more than 50 tenants (--max-tenants)" tenantclass -q --max-tenants 50 "$TMP/gen11.csv"
t "--max-tenants refuses series, one reader" 65 '' '' "tenantclass: <stdin>:756002: more than 50 tenants (--max-tenants)" \
    sh -c 'tenantclass -q --max-tenants 50 < "$1"' _ "$TMP/gen11.csv"
t "--max-tenants: --features-only streams" 0 '' '*' '' tenantclass -q --features-only --max-tenants 1 "$TMP/shard0.csv"
t "--max-tenants 0" 64 '' '' "invalid value for --max-tenants: '0'" tenantclass --max-tenants 0

# ---- compressed series: read as one stream (threads only over a plain file)
tracegen tenants --count 30 --days 3 --seed 5 > "$TMP/z.csv"
tenantclass -q "$TMP/z.csv" > "$TMP/z.plain.out"
gzip -c "$TMP/z.csv" > "$TMP/z.csv.gz"; zstd -q -c "$TMP/z.csv" > "$TMP/z.csv.zst"
t "gzip series = plain"  0 '' "@$TMP/z.plain.out" '' tenantclass -q "$TMP/z.csv.gz"
t "zstd series on stdin = plain" 0 '' "@$TMP/z.plain.out" '' sh -c 'tenantclass -q < "$1"' _ "$TMP/z.csv.zst"
head -c 20000 "$TMP/z.csv.gz" > "$TMP/z.trunc.gz"
t "truncated gzip series" 65 '' '' "tenantclass: $TMP/z.trunc.gz:$(zline "$TMP/z.trunc.gz"): truncated gzip input (unexpected end of compressed data)" \
    tenantclass -q -o "$TMP/z.out" "$TMP/z.trunc.gz"
tcheck "truncated gzip series: no output left" test ! -e "$TMP/z.out"

# ---- -s/--sort: rows in any order, grouped by tenant first ----
# shuffled rows (a fixed permutation) with -s give the bytes of the grouped input without -s
{ echo tenant,t,util; tail -n +2 "$TMP/gen11.csv" | shuf --random-source=<(yes); } > "$TMP/shuf11.csv"
tcheck "shuffle is really ungrouped" bash -c '! tenantclass -q "$1" > /dev/null 2>&1' _ "$TMP/shuf11.csv"
tcheck "-s: shuffled input == grouped input (tenants and classes)" bash -c '
    tenantclass -q -s --servers "$1" --classes "$2/cls.csv" "$3" | cmp - "$4" && cmp "$2/cls.csv" "$5"' \
    _ "$TMP/truth11.csv" "$TMP" "$TMP/shuf11.csv" "$TMP/out11.csv" "$TMP/cl11.csv"
tcheck "--sort --features-only: shuffled == grouped features" bash -c '
    cmp <(tenantclass -q --sort --features-only "$1") <(tenantclass -q --features-only "$2")' _ "$TMP/shuf11.csv" "$TMP/gen11.csv"
t "-s: a tenant's rows keep their order (gap policy by hand)" 0 $'tenant,t,util\nb,0,0.5\ng,0,0.2\nb,120,0.5\ng,60,0.4\ng,360,0.8\n' \
    $'tenant,servers,steps,missing,avg,peak\nb,1,2,0,0.5,0.5\ng,1,4,2,0.55,0.795' '' \
    sh -c 'tenantclass -q -s --features-only --min-samples 2 | cut -d, -f1-6'
t "ungrouped without -s: the error names -s" 65 $'tenant,t,util\na,0,0.1\nb,0,0.1\na,120,0.1\n' '' \
    "(sort by tenant first, the header kept on top, e.g. (head -1 FILE; tail -n +2 FILE | sort -s -t, -k1,1), or use -s)" tenantclass
t "-s: a bad row still names its line" 65 $'tenant,t,util\nb,0,0.1\na,0,0.1\nb,120,x\n' '' \
    "tenantclass: <stdin>:4: column 'util': invalid number 'x'" tenantclass -s
t "-s with --from-features" 64 '' '' "--sort reads a series" tenantclass -s --from-features

# ---- --on-error skip: a bad row is counted, written with its reason, the run goes on ----
printf 'tenant,t,util\na,0,0.1\na,3600,0.1\nb,0,0.5\nb,3600,0.5x\nb,7200,0.5\n,0,0.3\nc,0,0.2\nc,3600,0.2\n' > "$TMP/bad.csv"
grep -v -e 0.5x -e '^,' "$TMP/bad.csv" > "$TMP/good.csv"
t "strict by default: the bad row stops the run" 65 "@$TMP/bad.csv" '' "tenantclass: <stdin>:5: column 'util': invalid number '0.5x'" tenantclass --min-samples 2 --step 1h
t "--on-error skip: 2 rows skipped, counted" 0 '' '*' "tenantclass: 2 bad rows skipped (--on-error skip); file, line and reason in $TMP/rej.csv" \
    tenantclass --min-samples 2 --step 1h --on-error skip --rejects "$TMP/rej.csv" -o "$TMP/skip.csv" "$TMP/bad.csv"
t "--on-error skip: the rejects say where and why" 0 '' \
    "file,line,reason
$TMP/bad.csv,5,column 'util': invalid number '0.5x'
$TMP/bad.csv,7,column 'tenant': missing value" '' cat "$TMP/rej.csv"
tcheck "--on-error skip: result == the input without the bad rows" bash -c 'tenantclass -q --min-samples 2 --step 1h "$1" | cmp - "$2"' _ "$TMP/good.csv" "$TMP/skip.csv"

# ---- features against their definitions (tests/check/tenantclass_features.py: plain-Python DFT bins,
# linear gap fill, type-7 percentile, lag-one-period Pearson), with gaps (drop=0.3) and 5 days
tracegen -q tenants --seed 3 --count 12 --days 5 --set drop=0.3 -o "$TMP/fdrop.csv"
tcheck "features recomputed independently: steps, gaps, avg, peak, sd, slow sd, strength, period, repeat" bash -c '
    tenantclass -q --features-only "$1" > "$2/fdrop.feat" && python3 "$3" "$1" "$2/fdrop.feat" tenant00001 tenant00002 tenant00005 tenant00009' \
    _ "$TMP/fdrop.csv" "$TMP" "$ROOT/tests/check/tenantclass_features.py"
# servers beyond 1e8 (a tenant of 1e308 servers made the class table's servers 1e+308, and two of them inf)
t "servers column 1e308: too large" 65 '' '' "column 'servers': '1e308' is too large (at most 1e+08)" \
    sh -c 'tracegen -q tenants --count 2 --days 1 | awk -F, -v OFS=, "NR==1{print \$0,\"servers\"; next} {print \$0, \"1e308\"}" | tenantclass -q --min-samples 4'
t "--servers 1e9: too large" 65 '' '' "column 'servers': '1e9' is too large (at most 1e+08)" \
    sh -c 'printf "tenant,servers\ntenant00001,1e9\n" > "$1/sbig.csv" && tracegen -q tenants --count 2 --days 1 | tenantclass -q --servers "$1/sbig.csv"' _ "$TMP"
# (review, 2026-12-04) the warning about tenants --servers does not list
# counted only those that fell back to 1 server, and said "1 tenants are
# not in --servers" when two were not: a (servers column 7) takes 7, c
# (empty column) 1; b is listed (5 wins over its column's 3).  The class
# holds 7 + 5 + 1 = 13 servers, its avg (7 x 0.2 + 5 x 0.24 + 1 x 0.24) /
# 13 = 2.84 / 13.  The same with -s (rows held) and --features-only (which
# did not warn), and from a feature table, whose servers column a and c
# keep (7 and 1).
awk 'BEGIN { print "tenant,t,util,servers"; for (i = 0; i < 200; i++) print "a," 120 * i ",0.2,7"
             for (i = 0; i < 200; i++) print "b," 120 * i ",0.24,3"; for (i = 0; i < 200; i++) print "c," 120 * i ",0.24," }' > "$TMP/srv3.csv"
printf 'tenant,servers\nb,5\n' > "$TMP/srv-b.csv"
for o in "" -s; do
    t "--servers $o: every tenant it does not list counted, by where its servers came from" 0 '' \
        'constant-1,constant,0.21846153846153846,0.21846153846153846,3,13' \
        "tenantclass: warning: 2 tenants are not in --servers $TMP/srv-b.csv: 1 with the servers column of the input, 1 counted as 1 server" \
        sh -c 'tenantclass $1 --periods 1h --servers "$2" --classes "$3/srv3-cl.csv" "$3/srv3.csv" > /dev/null && tail -n +2 "$3/srv3-cl.csv"' _ "$o" "$TMP/srv-b.csv" "$TMP"
done
t "--servers with --features-only: the same warning (it had none)" 0 '' '*' \
    "tenantclass: warning: 2 tenants are not in --servers $TMP/srv-b.csv: 1 with the servers column of the input, 1 counted as 1 server" \
    tenantclass --periods 1h --features-only --servers "$TMP/srv-b.csv" "$TMP/srv3.csv"
t "--servers with --from-features: the unlisted keep the table's servers, counted" 0 '' '*' \
    "tenantclass: warning: 2 tenants are not in --servers $TMP/srv-b.csv: 2 with the servers column of the input, 0 counted as 1 server" \
    sh -c 'tenantclass -q --periods 1h --features-only "$1/srv3.csv" | tenantclass --from-features --servers "$2"' _ "$TMP" "$TMP/srv-b.csv"
# servers are whole machines (classpick's reserve is per server, replplace
# reads whole servers): 2.5 was taken and written as a class of 3.5 servers
t "--servers 2.5: not whole" 65 '' '' "tenantclass: $TMP/sfrac.csv:2: column 'servers': '2.5' is not a whole number of servers" \
    sh -c 'printf "tenant,servers\ntenant00001,2.5\ntenant00002,1\n" > "$1/sfrac.csv" && tracegen -q tenants --count 2 --days 1 | tenantclass -q --servers "$1/sfrac.csv" --classes "$1/sfrac-cl.csv"' _ "$TMP"
t "servers column 2.5: not whole" 65 '' '' "tenantclass: <stdin>:2: column 'servers': '2.5' is not a whole number of servers" \
    sh -c 'tracegen -q tenants --count 2 --days 1 | awk -F, -v OFS=, "NR==1{print \$0,\"servers\"; next} {print \$0, \"2.5\"}" | tenantclass -q --min-samples 4'
t "servers 2.5 in a feature table: not whole" 65 $'tenant,servers,steps,missing,avg,peak,sd,sd_low,strength,period,repeat,pattern\na,2.5,10,0,0.1,0.2,0,0,0,0,0,constant\n' '' \
    "tenantclass: <stdin>:2: column 'servers': '2.5' is not a whole number of servers" tenantclass --from-features
t "--servers 1e3 and 15.0: whole, taken" 0 '' $'class,pattern,avg_util,peak_util,tenants,servers' '' \
    sh -c 'printf "tenant,servers\ntenant00001,1e3\ntenant00002,15.0\n" > "$1/swhole.csv" && tracegen -q tenants --count 2 --days 1 | tenantclass -q --servers "$1/swhole.csv" --classes "$1/swhole-cl.csv" >/dev/null && awk -F, "NR>1{s+=\$6} END{exit s!=1015}" "$1/swhole-cl.csv" && head -1 "$1/swhole-cl.csv"' _ "$TMP"
# --max-tenants with several readers (a file over 32 MiB): the same message
# at the same line as one reader, the first tenant that comes with the limit
# reached, kept or not.  Six tenants of 450,000 rows, t2 of 5 (too short:
# skipped).  Limit 2: t2 is refused at its first line, 900002, with no
# warning; limit 3: t2's warning, then t4 at 1350007.  (Before, each range
# kept at most the limit and the merge reported at the end of the range:
# line 1800006 or 2250006, and with the limit 2 a warning for t2 first.)
awk 'BEGIN { print "tenant,t,util"; for (t = 0; t < 6; t++) for (i = 0; i < (t == 2 ? 5 : 450000); i++) print "t" t "," i * 120 ",0.5" }' > "$TMP/tmax.csv"
for mt in 2 3; do
    tenantclass --threads 1 --max-tenants $mt "$TMP/tmax.csv" > /dev/null 2> "$TMP/tmax1-$mt.err"
    for th in 2 3; do
        t "--max-tenants $mt, $th readers: one reader's messages" 0 '' '' '' bash -c '
            tenantclass --threads $2 --max-tenants $1 "$3/tmax.csv" > /dev/null 2> "$3/tmax$2-$1.err"
            [ $? = 65 ] && cmp "$3/tmax1-$1.err" "$3/tmax$2-$1.err"' _ $mt $th "$TMP"
    done
done
tcheck "--max-tenants 2: refused at t2's first line, no warning" \
    bash -c '[ "$(cat "$1")" = "tenantclass: $2:900002: more than 2 tenants (--max-tenants)" ]' _ "$TMP/tmax1-2.err" "$TMP/tmax.csv"
tcheck "--max-tenants 3: t2's warning, then t4's first line" grep -q "tmax.csv:1350007: more than 3 tenants" "$TMP/tmax1-3.err"
rm -f "$TMP/tmax.csv"

# out of memory in the FFT: FFTW's planner aborts when its own allocation
# fails ("fftw: alloc.c:29: assertion failed: p", exit 134, at ulimit -v
# 100-160 MB for this 2,000,001-point series); slokit allocates the buffers
# and a block larger than the planner needs first, so it is "out of
# memory", exit 70, at every limit.  -O2 only: ASan's shadow memory cannot
# start under ulimit -v.
if [ "${BUILD#build-asan}" = "$BUILD" ] && [ -z "${SLOKIT_WRAP:-}" ]; then
    printf 'tenant,t,util\na,0,0.5\na,2,0.6\na,2000000,0.5\n' > "$TMP/fftoom.csv"
    tcheck "FFT out of memory: exit 70 and one line at every ulimit -v, never FFTW's abort" bash -c '
        ok=0
        for v in 60000 80000 100000 120000 140000 160000 200000 260000; do
            (ulimit -v $v; exec tenantclass -q --step 1s --max-missing 1 "$1") > "$1.out" 2> "$1.err"
            rc=$?
            case $rc in
            0) ok=$((ok + 1)); grep -q "^a,periodic," "$1.out" || exit 1 ;;
            70) [ "$(cat "$1.err")" = "tenantclass: out of memory" ] || { cat "$1.err"; exit 1; } ;;
            *) echo "ulimit -v $v: exit $rc: $(head -1 "$1.err")"; exit 1 ;;
            esac
        done
        [ $ok -ge 1 ]' _ "$TMP/fftoom.csv"
else
    tskip "FFT out of memory under ulimit -v" "ASan cannot start under ulimit -v"
fi
