# CSV layer: the reader's handling of real-world and broken CSV, through the
# csvcat test driver (tests/unit/csvcat.c), which copies CSV through lib/csvio.
C="$ROOT/$BUILD/tests/csvcat"
D="$ROOT/tests/data/csv"

t "copy simple"         0 $'a,b\n1,2\n' $'a,b\n1,2' '' "$C"
t "quoted fields kept"  0 "@$D/quoted.csv" @"$D/quoted.csv" '' "$C"
t "bom and crlf"        0 "@$D/bom_crlf.csv" $'a,b\n1,2\n3,4' '' "$C"
t "blank line skipped"  0 "@$D/blankline.csv" $'a,b\n1,2\n3,4' '' "$C"
t "header only"         0 "@$D/header_only.csv" 'a,b' '' "$C"
t "empty input"         65 "@$D/empty.csv" '' 'csvcat: <stdin>:1: empty input (no header row)' "$C"
t "ragged row"          65 "@$D/ragged.csv" '*' 'csvcat: <stdin>:3: expected 2 fields (as in the header), found 1' "$C"
t "ragged row names file" 65 '' '*' "csvcat: $D/ragged.csv:3: expected 2 fields" "$C" "$D/ragged.csv"
t "unterminated quote"  65 "@$D/unterminated.csv" '*' 'csvcat: <stdin>:2: unterminated quoted field' "$C"
t "nul byte"            65 "@$D/nul.csv" '*' 'csvcat: <stdin>:2: NUL byte in field' "$C"
t "duplicate header"    65 "@$D/duphdr.csv" '*' "csvcat: <stdin>:1: duplicate column 'a' in header" "$C"
# 400,000 columns, the last a repeat of the first: checked pairwise this took
# minutes (40,000 columns: 1.5 s); hashed, well under a second.
awk 'BEGIN { for (i = 0; i < 400000; i++) printf "c%d,", i; print "c0" }' > "$TMP/wide.csv"
t "duplicate in a 400,000-column header" 65 '' '*' "csvcat: $TMP/wide.csv:1: duplicate column 'c0' in header" timeout 60 "$C" "$TMP/wide.csv"
t "binary garbage"      65 "@$D/garbage.bin" '*' 'csvcat: <stdin>:' "$C"
t "missing file"        66 '' '' 'csvcat: /nonexistent.csv: cannot open: No such file or directory' "$C" /nonexistent.csv
t "bad number line"     65 "@$D/badnum.csv" '*' "csvcat: <stdin>:4: column 'b': invalid number '1x'" "$C" --sum b
t "missing column"      65 $'a,b\n1,2\n' '' "csvcat: <stdin>:1: missing required column 'zz'" "$C" --sum zz
# a header that nearly has the column says why it does not (audit, session 21)
t "missing column: TSV read as CSV" 65 $'a\tb\n1\t2\n' '' "csvcat: <stdin>:1: missing required column 'b': the header is one field holding tabs (TSV? use --tsv)" "$C" --sum b
t "missing column: another delimiter" 65 $'a;b\n1;2\n' '' "missing required column 'b': the header is one field holding ';' (use -d ';')" "$C" --sum b
t "missing column: blanks around a name" 65 $'a, b\n1,2\n' '' "missing required column 'b': the header has ' b', with blanks around the name" "$C" --sum b
t "missing column: another case" 65 $'a,B\n1,2\n' '' "missing required column 'b': the header has 'B' (column names are case-sensitive)" "$C" --sum b
t "missing column: renamed, with the hint" 65 $'a, v\n1,2\n' '' "missing required column 'v' (for b): the header has ' v', with blanks around the name" "$C" --sum b --col b=v
t "renamed column"      0 $'a,b\n1,2\n3,4\n' '*' 'sum=6' "$C" --sum v --col v=b
t "empty value required" 65 $'a,b\n1,\n' '*' "csvcat: <stdin>:2: column 'b': missing value" "$C" --sum b
t "nan rejected"        65 $'a,b\n1,nan\n' '*' "invalid number 'nan'" "$C" --sum b
t "tsv in and out"      0 $'a\tb\n1\t2,3\n' $'a\tb\n1\t2,3' '' "$C" --tsv
t "delimiter option"    0 $'a;b\n1;2\n' $'a;b\n1;2' '' "$C" -d ';'
t "bad delimiter"       64 '' '' "invalid value for --delimiter" "$C" -d ';;'
t "no header + names"   0 $'1,2\n3,4\n' $'x,y\n1,2\n3,4' '' "$C" -H --names x,y
t "no header default names" 0 $'1,2\n' $'c1,c2\n1,2' '' "$C" -H
t "--names with an empty name: 64, as a header's" 64 $'1,2,3\n' '' "csvcat: invalid value for --names: 'a,,b' (an empty column name)" "$C" -H --names a,,b
t "--names with a name twice: 64, as a header's" 64 $'1,2\n' '' "csvcat: invalid value for --names: 'a,a' (column 'a' named twice)" "$C" -H --names a,a
t "no output header"    0 $'a,b\n1,2\n' '1,2' '' "$C" --no-output-header
t "version GNU format"  0 '' '*' '' "$C" --version
t "unknown option"      64 '' '' 'unrecognized option' "$C" --frobnicate

tcheck "1 MB field round trip" cmp "$D/bigfield.csv" <("$C" <"$D/bigfield.csv")
tcheck "long quoted multi-line record line numbers" bash -c '
    printf "a,b\n\"x\ny\",1\n2\n" | "$1" 2>&1 >/dev/null | grep -q "<stdin>:4: expected 2 fields"' _ "$C"

# -o: the old file stays intact when the run fails, and is replaced when it succeeds.
printf 'old\n' > "$TMP/keep.csv"
t "failed run keeps -o file" 65 "@$D/ragged.csv" '' '*' "$C" -o "$TMP/keep.csv"
tcheck "old content intact" grep -qx old "$TMP/keep.csv"
tcheck "no temporary left" bash -c '! ls -A "$1" | grep -q "^\.keep"' _ "$TMP"
t "successful run replaces -o file" 0 $'a\n1\n' '' '' "$C" -o "$TMP/keep.csv"
tcheck "new content there" diff "$TMP/keep.csv" <(printf 'a\n1\n')
t "unwritable -o"       73 $'a\n1\n' '' 'cannot create' "$C" -o /nonexistent-dir/x.csv
tcheck "full disk is an error" bash -c 'printf "a\n1\n" | "$1" > /dev/full; [ $? = 74 ]' _ "$C"
tcheck "closed pipe is quiet" bash -c '
    yes "1,2" | head -200000 | sed "1i a,b" | "$1" 2>"$2/pipe.err" | head -1 >/dev/null; [ ! -s "$2/pipe.err" ]' _ "$C" "$TMP"

# Outputs that are not plain files: a symlink is followed (its target is
# replaced, the link stays); /dev/stdout is written in place even when it
# points at a regular file, never renamed over (as root that would replace
# /dev/stdout itself).
printf 'target\n' > "$TMP/target.csv"; ln -sf "$TMP/target.csv" "$TMP/link.csv"
t "-o through a symlink" 0 $'a\n1\n' '' '' "$C" -o "$TMP/link.csv"
tcheck "link kept, target replaced" bash -c '[ -L "$1/link.csv" ] && diff "$1/target.csv" <(printf "a\n1\n")' _ "$TMP"
tcheck "-o /dev/stdout into a regular file" bash -c '
    printf "a\n1\n" | "$1" -o /dev/stdout > "$2/viastdout.csv"; rc=$?
    ok=1; [ -L /dev/stdout ] || { ok=0; rm -f /dev/stdout; ln -s /proc/self/fd/1 /dev/stdout; }
    [ $rc = 0 ] && [ $ok = 1 ] && diff "$2/viastdout.csv" <(printf "a\n1\n")' _ "$C" "$TMP"
tcheck "-o /dev/null leaves the device" bash -c '
    printf "a\n1\n" | "$1" -o /dev/null; [ -c /dev/null ]' _ "$C"

# times beyond |t| <= 1e11 s (year 5138) are data errors; CSVR_BOUNDED values beyond 1e15
t "time 2^63 refused" 65 $'t,v\n9223372036854775807,1\n' '*' "csvcat: <stdin>:2: column 't': time '9223372036854775807' out of range" "$C" --time t
t "time -1e300 refused" 65 $'t,v\n-1e300,1\n' '*' "column 't': time '-1e300' out of range" "$C" --time t
t "ISO time fine" 0 $'t,v\n2026-01-05T00:00:00Z,1\n' '*' '' "$C" --time t
t "bounded 1e300 refused" 65 $'t,v\n1,1e300\n' '*' "csvcat: <stdin>:2: column 'v': number '1e300' out of range" "$C" --bounded v
t "bounded 1e15 fine" 0 $'t,v\n1,1e15\n' '*' '' "$C" --bounded v
# ISO 8601 forms Python's datetime.fromisoformat refuses too (audit, session 21)
t "ISO offset with a dangling colon refused" 65 $'t,v\n2026-01-05T00:00:00+02:,1\n' '*' "csvcat: <stdin>:2: column 't': invalid time '2026-01-05T00:00:00+02:'" "$C" --time t
t "second 60 outside 23:59 UTC refused" 65 $'t,v\n2026-01-05T12:34:60Z,1\n' '*' "invalid time '2026-01-05T12:34:60Z'" "$C" --time t
t "the leap second 23:59:60 UTC read" 0 $'t,v\n2016-12-31T23:59:60Z,1\n' '*' '' "$C" --time t
t "year 0000 refused" 65 $'t,v\n0000-01-01,1\n' '*' "invalid time '0000-01-01'" "$C" --time t
t "basic-format date-time refused" 65 $'t,v\n20260105T000000Z,1\n' '*' "invalid time '20260105T000000Z'" "$C" --time t
# an ISO time beyond the range is absolute: no millisecond hint (it had one)
tcheck "ISO time out of range: no unit hint" bash -c '
    printf "t,v\n9999-12-31T23:59:59Z,1\n" | "$1" --time t 2>"$2/iso.err"; [ $? = 65 ] || exit 1
    cat "$2/iso.err"
    grep -qx "csvcat: <stdin>:2: column '"'"'t'"'"': time '"'"'9999-12-31T23:59:59Z'"'"' out of range (the latest is 5138-11-16T09:46:40Z)" "$2/iso.err"' _ "$C" "$TMP"
t "an epoch number out of range keeps the hint" 65 $'t,v\n1767571469473,1\n' '*' "it looks like milliseconds since the epoch; use --time-unit ms" "$C" --time t
# seconds just past the limit (a trace started near it) look like no unit:
# "it looks like milliseconds" came for anything from 1e11 on
tcheck "seconds just past the limit: no unit hint" bash -c '
    printf "t,v\n100000073174,1\n" | "$1" --time t 2>"$2/past.err"; [ $? = 65 ] || exit 1
    cat "$2/past.err"
    grep -qx "csvcat: <stdin>:2: column '"'"'t'"'"': time '"'"'100000073174'"'"' out of range (|value| <= 1e+11)" "$2/past.err"' _ "$C" "$TMP"
# lone-CR line ends (classic Mac OS): libcsv ends records there, where line
# numbers and keyshard see none, so they are refused at line 1
t "lone-CR line ends refused" 65 $'a,b\r1,2\r3,4\r' '' "csvcat: <stdin>:1: a line ends in a lone CR (classic Mac OS line ends): convert them to LF first (tr '\\r' '\\n')" "$C"
t "lone-CR line ends after a BOM refused" 65 $'\xEF\xBB\xBFa,b\r1,2\r' '' "<stdin>:1: a line ends in a lone CR" "$C"
t "CR CR LF is still one line end" 0 $'a,b\r\r\n1,2\r\n' $'a,b\n1,2' '' "$C"
# --time-unit ms on an epoch written with an exponent: the exponent is
# lowered in the text (it was divided after reading: 23% of 20,000 random
# such values came out one ulp off the same instant written in seconds)
tcheck "ms with an exponent: the same bytes as the seconds" bash -c '
    R() { reprov -q --capacity cores=3000,mem=1e9 --plan "$1/tests/fuzz/fixed/reprov.plan.csv" "${@:2}" | sed -n 2p | cut -d, -f1; }
    a=$(printf "job,t,used,pending\nS,1767571469.473029,1000,1500\n" | R "$1")
    b=$(printf "job,t,used,pending\nS,1.767571469473029e12,1000,1500\n" | R "$1" --time-unit ms)
    c=$(printf "job,t,used,pending\nS,1767571469473029E-3,1000,1500\n" | R "$1" --time-unit ms)
    d=$(printf "job,t,used,pending\nS,1.767571469473029e15,1000,1500\n" | R "$1" --time-unit us)
    echo "$a $b $c $d"; [ "$a" = 1767571469.473029 ] && [ "$b" = "$a" ] && [ "$c" = "$a" ] && [ "$d" = "$a" ]' _ "$ROOT"
# a subnormal is written in its shortest form ("%.15g" gave 9.99988867182683e-321)
t "subnormal written shortest" 0 $'task,t,mem_mb,alloc_mb\na,0,1e-320,1000\na,60,1e-320,1000\n' \
    $'task,alloc_mb,normal_mb,p90_mb,peak_mb,waste_mb,class\na,1000,1e-320,1e-320,1e-320,1000,poorly-behaved' '' peakgate -q
# durations: decimal only, an optional "+" either way (0xe10s read as hex before)
t "duration in hex with a unit refused" 64 '' '' "--lcm" lcmpack --lcm 0x3cm --capacity cores=1,mem=1 /dev/null
t "a CR inside a quoted header field is data" 0 $'a,"b\rc"\n1,2\n' $'a,"b\rc"\n1,2' '' "$C"
t "... and doubled quotes before it" 0 $'a,"b""\r",c\r\n1,2,3\r\n' $'a,"b""\r",c\n1,2,3' '' "$C"
t "with -H line 1 is data: its CRs are the parser's" 0 $'x,"n\rm"\n1,2\n' $'c1,c2\nx,"n\rm"\n1,2' '' "$C" -H
# a live stream (reprov) whose first read ends before the header's lone CR
tcheck "lone-CR line ends refused on a stream read in pieces" bash -c '
    (printf "job,t,used,pending"; sleep 0.3; printf "\rS,1767571469,1000,1500\r") |
        reprov -q --capacity cores=3000,mem=1e9 --plan "$1/tests/fuzz/fixed/reprov.plan.csv" 2>"$2/crs.err" >/dev/null
    [ $? = 65 ] && grep -q "<stdin>:1: a line ends in a lone CR" "$2/crs.err"' _ "$ROOT" "$TMP"
t "a CR inside quotes is data" 0 $'a,b\n"x\ry",2\n' $'a,b\n"x\ry",2' '' "$C"

# ---- compressed input: gzip and zstd told by their magic bytes (never the
# name), decompressed as a stream, from a file or stdin; output byte-identical
# to the uncompressed run.  Real files from ../shared/data, compressed here.
POD="$DATA/alibaba-gpu-2023/openb_pod_list_gpushare40.csv"
GJ="$DATA/google-2011/job_events-part-00001-of-00500.csv.gz"
SW="$DATA/swim/FB-2009_samples_24_times_1hr_0.tsv"
gzip -c "$POD" > "$TMP/pod.csv.gz"; zstd -q -c "$POD" > "$TMP/pod.csv.zst"
cp "$TMP/pod.csv.gz" "$TMP/pod-gzip-no-extension"
t "gzip file = plain"           0 '' "@$POD" '' "$C" "$TMP/pod.csv.gz"
t "zstd file = plain"           0 '' "@$POD" '' "$C" "$TMP/pod.csv.zst"
t "gzip on stdin"               0 "@$TMP/pod.csv.gz" "@$POD" '' "$C"
t "zstd on stdin"               0 "@$TMP/pod.csv.zst" "@$POD" '' "$C"
t "told by bytes, not name"     0 '' "@$POD" '' "$C" "$TMP/pod-gzip-no-extension"
tcheck "google 2011 job_events .csv.gz as shipped" bash -c 'cmp <(zcat "$1") <("$2" -H --no-output-header "$1")' _ "$GJ" "$C"
tcheck "swim tsv through zstd" bash -c 'cmp "$1" <(zstd -q -c "$1" | "$2" --tsv -H --no-output-header)' _ "$SW" "$C"
# cat a.gz b.gz and multi-frame zstd read as one stream
tail -n +2 "$POD" > "$TMP/pod-rows.csv"
tcheck "concatenated gzip members" bash -c 'cmp <(cat "$1" "$2") <(cat "$3" <(gzip -c "$2") | "$4")' _ "$POD" "$TMP/pod-rows.csv" "$TMP/pod.csv.gz" "$C"
tcheck "concatenated zstd frames" bash -c 'cmp <(cat "$1" "$2") <(cat "$3" <(zstd -q -c "$2") | "$4")' _ "$POD" "$TMP/pod-rows.csv" "$TMP/pod.csv.zst" "$C"
# a truncated or corrupt stream is one clear line and exit 65, never garbage
head -c 3000 "$TMP/pod.csv.gz" > "$TMP/trunc.gz"; head -c 3000 "$TMP/pod.csv.zst" > "$TMP/trunc.zst"
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[2000:2040]=bytes(40); open(sys.argv[2],"wb").write(b)' "$TMP/pod.csv.gz" "$TMP/bad.gz"
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[2000:2040]=bytes(40); open(sys.argv[2],"wb").write(b)' "$TMP/pod.csv.zst" "$TMP/bad.zst"
# the line where the damage is found (zline: the lines decoded before it, + 1)
t "truncated gzip"   65 '' '' "csvcat: $TMP/trunc.gz:$(zline "$TMP/trunc.gz"): truncated gzip input (unexpected end of compressed data)" "$C" "$TMP/trunc.gz"
t "truncated zstd"   65 "@$TMP/trunc.zst" '' "csvcat: <stdin>:$(zline "$TMP/trunc.zst"): truncated zstd input (unexpected end of compressed data)" "$C"
# corruption is found where the decoder notices it (here the checksum at the
# end of the stream): a line number, not a place to check against
for z in gz zst; do
    tcheck "corrupt $z: one line FILE:LINE, exit 65, no output" bash -c '
        out=$("$1" "$2" 2>"$2.err"); st=$?
        [ $st = 65 ] && [ -z "$out" ] && [ $(wc -l < "$2.err") = 1 ] &&
            grep -qE "^csvcat: $2:[0-9]+: corrupt (gzip|zstd) input: " "$2.err"' _ "$C" "$TMP/bad.$z"
done
t "gzip header only" 65 $'\x1f\x8b' '' 'truncated gzip input' "$C"
t "empty gzip stream is empty input" 65 '' '' 'empty input (no header row)' bash -c 'printf "" | gzip -c | "$1"' _ "$C"
# tools read compressed inputs, primary and side files alike, with the same output
tcheck "sloinfer reads gzip"  bash -c 'cmp <(sloinfer -q "$1") <(gzip -c "$1" | sloinfer -q)' _ "$ROOT/tests/data/sloinfer/basic.csv"
tcheck "skyfit reads zstd"    bash -c 'cmp <(skyfit -q "$1") <(zstd -q -c "$1" | skyfit -q)' _ "$ROOT/tests/data/skyfit/shape.csv"
tcheck "stretch reads both compressed" bash -c '
    gzip -c "$1/two.csv" > "$3/two.gz"; zstd -q -c "$1/alone.csv" > "$3/alone.zst"
    cmp <(stretch -q "$1/two.csv" "$1/alone.csv") <(stretch -q "$3/two.gz" "$3/alone.zst")' _ "$ROOT/tests/data/stretch" x "$TMP"

# ---- per-input renames: --col ROLE:KEY=NAME renames only in the input with
# that role; plain --col KEY=NAME only in the tool's primary input.
SD="$ROOT/tests/data/stretch"
printf 'vc,servers\na,10\nb,30\n' > "$TMP/caps-servers.csv"
printf 'job,group,submit,size_server_hours,max_parallelism\nj1,a,0,10,10\n' > "$TMP/jobs-group.csv"
ALONE=$'job,vc,submit,finish,stretch\nj1,a,0,3600,1'
t "role rename: capacities only"  0 '' "$ALONE" '' stretch -q --col capacities:capacity=servers "$TMP/caps-servers.csv" "$SD/alone.csv"
t "role rename not in other input" 65 '' '' "stretch: $SD/two.csv:1: missing required column 'servers' (for capacity)" stretch -q --col capacities:capacity=servers "$SD/two.csv" "$SD/alone.csv"
t "plain rename: primary only"    0 '' "$ALONE" '' stretch -q --col vc=group "$SD/two.csv" "$TMP/jobs-group.csv"
t "primary role name = plain"     0 '' "$ALONE" '' stretch -q --col jobs:vc=group "$SD/two.csv" "$TMP/jobs-group.csv"
t "unknown role"                  64 '' '' "stretch: invalid value for --col: 'job:vc=group' (unknown input role 'job'; this tool reads: jobs, capacities)" stretch -q --col job:vc=group "$SD/two.csv" "$TMP/jobs-group.csv"
t "empty role"                    64 '' '' "invalid value for --col: ':vc=group' (want KEY=NAME or ROLE:KEY=NAME)" stretch -q --col :vc=group "$SD/two.csv" "$TMP/jobs-group.csv"
t "tool option for two inputs"    65 '' '' "stretch: $SD/two.csv:1: missing required column 'group' (for vc)" stretch -q --vc-col group "$SD/two.csv" "$TMP/jobs-group.csv"
# csvcat names no roles (any ROLE is taken), but a rename is still refused
# where it reads nothing by name
t "csvcat: a role it reads nothing from" 64 $'a,b\n1,2\n' '' "invalid value for --col: 'other:v=a' (csvcat reads column 'v' from its input, not its other input: --col v=a)" "$C" --sum v --col v=b --col other:v=a
t "csvcat: a role it reads nothing from, any KEY" 64 $'a,b\n1,2\n' '' "invalid value for --col: 'other:w=a' (unknown column key 'w'; csvcat reads no column by name from its other input)" "$C" --sum v --col v=b --col other:w=a

# ---- --col KEY: a column the tool reads from that input.  Any other KEY
# (a typo) was taken and did nothing: sloinfer --col output_raed=read_at
# read no output_read column and inferred another basis, exit 0.  Now a usage
# error before any input is read, naming the keys the input has, in every
# tool that reads CSV (the inputs below are never opened).
B="$ROOT/tests/bad"
E="$B/common/empty.csv"
ukey() { # ukey TOOL INPUT FIRST-KEYS ARGS...: --col nosuch=x refused, naming INPUT's keys
    local tool=$1 role=$2 keys=$3
    shift 3
    t "unknown --col key: $tool" 64 '' '' \
        "$tool: invalid value for --col: 'nosuch=x' (unknown column key 'nosuch'; $tool reads these from its $role: $keys" \
        "$tool" --col nosuch=x "$@"
}
ukey sloinfer "runs input" "job, instance, submit, start, end, input_avail, output_read, status, consumer_period)" "$E"
ukey skyfit "usage input" "job, run, t, containers, cores, mem_mb)" "$E"
ukey peakgate "usage input" "task, t, mem_mb, alloc_mb)" "$E"
ukey lcmpack "skylines input" "job, step, offset, alloc, cores, mem_mb, gang)" --slo "$B/lcmpack/slo.csv" --capacity cores=8,mem=100000 "$E"
ukey stretch "jobs input" "job, vc, submit, size_server_hours, max_parallelism)" "$B/stretch/vcs.csv" "$E"
ukey tenantclass "series input" "tenant, t, util, servers, steps, missing, avg" "$E"
ukey classpick "jobs input" "job, last_duration, containers)" --classes "$B/classpick/classes.csv" "$E"
ukey replplace "blocks input" "block, server)" "$B/replplace/tenants.csv" "$E"
ukey skyplot input "job, run, t, containers, kind" skyline "$E" --term dumb
ukey reprov "samples input" "job, t, used, pending, run, alloc" --capacity cores=3000,mem=1e9 --plan "$B/reprov/plan.csv" "$E"
ukey replay "usage input" "job, run, t, containers, cores, mem_mb)" --slo "$B/replay/slo.csv" --plan "$B/replay/plan.csv" \
    --provisioned "$B/replay/prov.csv" --capacity cores=4,mem=100000 "$E"
ukey keyshard input "job)" -k job -n 2 "$E"
t "unknown --col key: keyshard --merge without -k" 64 '' '' \
    "invalid value for --col: 'job=x' (unknown column key 'job'; keyshard reads no column by name from its input)" \
    keyshard --merge --col job=x "$E" "$E"
# the run the typo changed: with the right KEY the provenance basis (d =
# 5105.5), with the typo exit 64 and nothing written
{ echo job,instance,submit,start,end,input_avail,read_at,status
  for k in $(seq 0 11); do s=$((1767571200 + k * 3600)); echo "a,i$k,$s,$((s + 10)),$((s + 600)),$((s - 100)),$((s + 1500 + k)),ok"; done; } >"$TMP/rd.csv"
t "--col output_read=read_at: the provenance basis" 0 '' '*' '' \
    sh -c 'sloinfer -q --col output_read=read_at "$1" | cut -d, -f4,11 | grep -qx "5105.5,provenance"' _ "$TMP/rd.csv"
t "--col output_raed=read_at: 64, not another basis" 64 '' '' \
    "sloinfer: invalid value for --col: 'output_raed=read_at' (unknown column key 'output_raed'; sloinfer reads these from its runs input: job, instance, submit, start, end, input_avail, output_read, status, consumer_period)" \
    sloinfer -q --col output_raed=read_at "$TMP/rd.csv"
# a KEY of another input, given without its ROLE: the rename it needs
t "--col KEY of another input: names the ROLE" 64 '' '' \
    "sloinfer: invalid value for --col: 'time=ts' (sloinfer reads column 'time' from its events input, not its runs input: --col events:time=ts)" \
    sloinfer --col time=ts "$TMP/rd.csv"
t "--col ROLE:KEY not of that input" 64 '' '' \
    "stretch: invalid value for --col: 'capacities:servers=x' (unknown column key 'servers'; stretch reads these from its capacities input: vc, capacity)" \
    stretch --col capacities:servers=x "$SD/two.csv" "$TMP/jobs-group.csv"
t "--col ROLE:KEY of the primary input" 64 '' '' \
    "stretch: invalid value for --col: 'capacities:submit=x' (stretch reads column 'submit' from its jobs input, not its capacities input: --col submit=x)" \
    stretch --col capacities:submit=x "$SD/two.csv" "$TMP/jobs-group.csv"
t "--col KEY of the other input: stretch" 64 '' '' \
    "stretch: invalid value for --col: 'capacity=servers' (stretch reads column 'capacity' from its capacities input, not its jobs input: --col capacities:capacity=servers)" \
    stretch --col capacity=servers "$TMP/caps-servers.csv" "$SD/alone.csv"
# optional columns stay renameable (max_parallelism, input_avail), and a KEY
# of any mode in every mode (reprov's samples of both policies and of the
# history; tenantclass's feature columns with the series)
# (alone.csv's job at max_parallelism 10 of its VC's 10 servers takes 3600 s;
# without the column, no limit: 900 s)
sed '1s/max_parallelism/mp/' "$SD/alone.csv" >"$TMP/alone-mp.csv"
t "--col optional column: stretch max_parallelism" 0 '' "$ALONE" '' stretch -q --col max_parallelism=mp "$SD/two.csv" "$TMP/alone-mp.csv"
t "--col a KEY of another mode: reprov dra with progress" 65 '' '' "$E:1: empty input" \
    reprov --col progress=p --capacity cores=3000,mem=1e9 --plan "$B/reprov/plan.csv" "$E"
t "--col a feature column with the series: tenantclass" 65 '' '' "$E:1: empty input" tenantclass --col pattern=p "$E"
# skyplot's keys include the columns --x, --y and --by name
t "--col a column --y names: skyplot" 65 '' '' "$E:1: empty input" \
    skyplot lines --y used --col used=u "$E" --term dumb
t "--col a column no option names: skyplot" 64 '' '' "(unknown column key 'used'; skyplot reads these from its input: " \
    skyplot lines --col used=u "$E" --term dumb

# ---- --time-unit: epoch numbers of the primary input in ms or us; a time
# that is too large to be seconds gets an error naming the likely unit.
SL="$ROOT/tests/data/sloinfer/basic.csv"
awk -F, -v OFS=, 'NR > 1 { for (i = 3; i <= 7; i++) if ($i != "") $i = $i "000" } 1' "$SL" > "$TMP/basic-ms.csv"
awk -F, -v OFS=, 'NR > 1 { for (i = 3; i <= 7; i++) if ($i != "") $i = $i "000000" } 1' "$SL" > "$TMP/basic-us.csv"
sloinfer -q "$SL" > "$TMP/basic-s.out"
t "sloinfer --time-unit ms = seconds" 0 '' "@$TMP/basic-s.out" '' sloinfer -q --time-unit ms "$TMP/basic-ms.csv"
t "sloinfer --time-unit us = seconds" 0 '' "@$TMP/basic-s.out" '' sloinfer -q --time-unit us "$TMP/basic-us.csv"
t "ms without --time-unit: hint" 65 '' '*' "sloinfer: $TMP/basic-ms.csv:2: column 'submit': time '1767574800000' out of range (|value| <= 1e+11): it looks like milliseconds since the epoch; use --time-unit ms" sloinfer -q "$TMP/basic-ms.csv"
t "us given as ms: hint says us" 65 '' '*' "it looks like microseconds since the epoch; use --time-unit us" sloinfer -q --time-unit ms "$TMP/basic-us.csv"
t "bad --time-unit" 64 '' '' "invalid value for --time-unit: 'ns' (want s, ms or us)" sloinfer --time-unit ns "$SL"
# an input --time-unit does not reach gets no advice to use it (it said "use
# --time-unit ms" to a run that had it, and to lcmpack, which refuses it)
printf 'time,job,instance,file,op\n1767574700000,a,a-1,/d/a,write\n' > "$TMP/ev-ms.csv"
t "--events in ms: --time-unit is for the main input only" 65 '' '' \
    "sloinfer: $TMP/ev-ms.csv:2: column 'time': time '1767574700000' out of range (|value| <= 1e+11): it looks like milliseconds since the epoch, but this file takes epoch seconds or ISO 8601 (--time-unit is for the main input only): divide by 1000" \
    sloinfer -q --time-unit ms --events "$TMP/ev-ms.csv" "$TMP/basic-ms.csv"
printf 'job,arrival,deadline,containers,duration\nah1,1767657600000000,1767690000000000,10,1h\n' > "$TMP/adhoc-us.csv"
t "lcmpack --adhoc in us: no --time-unit to use" 65 '' '' \
    "lcmpack: $TMP/adhoc-us.csv:2: column 'arrival': time '1767657600000000' out of range (|value| <= 1e+11): it looks like microseconds since the epoch, but this file takes epoch seconds or ISO 8601: divide by 1000000" \
    lcmpack -q --capacity cores=10,mem=1000000 --at 2026-01-06 --slo "$ROOT/tests/fuzz/fixed/lcmpack-adhoc.slo.csv" \
    --adhoc "$TMP/adhoc-us.csv" "$ROOT/tests/fuzz/fixed/lcmpack-adhoc.sky.csv"
tcheck "skyfit --time-unit ms = seconds" bash -c '
    cmp <(skyfit -q "$1") <(awk -F, -v OFS=, "NR > 1 { \$3 = \$3 * 1000 } 1" "$1" | skyfit -q --time-unit ms)' _ "$ROOT/tests/data/skyfit/shape.csv"
t "ISO times are not scaled" 0 $'t,v\n2026-01-05T00:00:00Z,1\n' '*' '' "$C" --time t --time-unit us

# ---- --on-error skip: bad rows are skipped, counted and reported; the
# default stays strict; tools that cannot go on without a row still stop.
{ cat "$SL"; echo "etl,etl-x,1x,2,3,,,ok"; echo "etl,etl-y,1"; sed -n 2p "$SL"; } > "$TMP/basic-bad.csv"
t "strict by default" 65 '' '*' "sloinfer: $TMP/basic-bad.csv:8: column 'submit': invalid time '1x'" sloinfer -q "$TMP/basic-bad.csv"
t "skip: same result as the good rows" 0 '' "@$TMP/basic-s.out" '' sloinfer -q --on-error skip --rejects "$TMP/rej.csv" "$TMP/basic-bad.csv"
tcheck "skip: rejects file" diff "$TMP/rej.csv" - <<REJ
file,line,reason
$TMP/basic-bad.csv,8,column 'submit': invalid time '1x' (want epoch seconds or ISO 8601 UTC)
$TMP/basic-bad.csv,9,"expected 8 fields (as in the header), found 3"
$TMP/basic-bad.csv,10,duplicate instance 'etl-1' of job 'etl'
REJ
t "skip: summary counts" 0 '' '*' "sloinfer: 3 bad rows skipped (--on-error skip); file, line and reason in $TMP/rej.csv" sloinfer --on-error skip --rejects "$TMP/rej.csv" "$TMP/basic-bad.csv"
t "skip: default rejects on stderr" 0 '' '*' "sloinfer: $TMP/basic-bad.csv:8: warning: skipped: column 'submit': invalid time '1x'" sloinfer --on-error skip "$TMP/basic-bad.csv"
# 25 bad rows without --rejects: the first 10 are warnings, the rest counted
# (a million were a million lines on stderr, the summary buried under them);
# the same 25 in --rejects (basic.csv is 7 lines: the bad rows are lines 8-32).
{ cat "$SL"; for i in $(seq 1 25); do echo "etl,etl-b$i,1x,2,3,,,ok"; done; } > "$TMP/many-bad.csv"
tcheck "skip: 25 bad rows, the first 10 shown, the rest counted" bash -c '
    sloinfer --on-error skip "$1" 2>err >out1 || exit 1
    sloinfer -q --on-error skip --rejects rej25.csv "$1" >out2 || exit 1
    [ "$(grep -c ": warning: skipped: column .submit.: invalid time .1x." err)" = 10 ] &&
    [ "$(grep -c ",column .submit.: invalid time .1x." rej25.csv)" = 25 ] &&
    grep -q "^sloinfer: $1:8: warning: skipped" err && grep -q "^sloinfer: $1:17: warning: skipped" err &&
    ! grep -q ":18: warning" err && cmp -s out1 out2 &&
    grep -q "^sloinfer: 25 bad rows skipped (--on-error skip); the first 10 are above, 15 more not shown (--rejects FILE lists every one)$" err ||
        { cat err; exit 1; }' _ "$TMP/many-bad.csv"
t "--rejects needs skip" 64 '' '' '--rejects needs --on-error skip' sloinfer --rejects "$TMP/r.csv" "$SL"
t "bad --on-error" 64 '' '' "invalid value for --on-error: 'ignore' (want strict or skip)" sloinfer --on-error ignore "$SL"
# skyfit: a bad row, also the first of a job, is skipped; the job goes on
SK="$ROOT/tests/data/skyfit/shape.csv"
awk -F, -v OFS=, 'NR == 2 || NR == 5 { $4 = "x" } 1' "$SK" > "$TMP/shape-bad.csv"
awk -F, 'NR != 2 && NR != 5' "$SK" > "$TMP/shape-good.csv"
t "skyfit strict" 65 '' '*' "skyfit: $TMP/shape-bad.csv:2: column 'containers': invalid number 'x'" skyfit -q "$TMP/shape-bad.csv"
tcheck "skyfit skip = without the rows" bash -c 'cmp <(skyfit -q "$1") <(skyfit -q --on-error skip "$2")' _ "$TMP/shape-good.csv" "$TMP/shape-bad.csv"
# lcmpack: a second SLO row of a job is dropped (the first kept); a skyline
# with a bad row drops its whole job
LD="$ROOT/tests/data/lcmpack"
{ cat "$LD/comp.slo.csv"; echo "A,600,0,300,actionable"; } > "$TMP/slo-dup.csv"
awk -F, -v OFS=, '$1 == "B" && $3 == 60 { $4 = "x" } 1' "$LD/comp.sky.csv" > "$TMP/sky-bad.csv"
grep -v '^B,' "$LD/comp.sky.csv" > "$TMP/sky-noB.csv"
LCM="lcmpack -q --lcm 1h --capacity cores=12,mem=100000"
t "lcmpack duplicate SLO strict" 65 '' '' "lcmpack: $TMP/slo-dup.csv:6: job 'A' has a second SLO row (first at line 2)" $LCM --slo "$TMP/slo-dup.csv" "$LD/comp.sky.csv"
tcheck "lcmpack skip: duplicate dropped, skyline job dropped" bash -c '
    cmp <($1 --slo "$2" "$3") <($1 --on-error skip --rejects "$5/lr.csv" --slo "$4" "$6")' _ "$LCM" "$LD/comp.slo.csv" "$TMP/sky-noB.csv" "$TMP/slo-dup.csv" "$TMP" "$TMP/sky-bad.csv"
tcheck "lcmpack rejects" diff "$TMP/lr.csv" - <<REJ
file,line,reason
$TMP/slo-dup.csv,6,job 'A' has a second SLO row (first at line 2)
$TMP/sky-bad.csv,5,column 'alloc': invalid number 'x'
$TMP/sky-bad.csv,4,job 'B': skyline dropped (its row at line 5 was skipped)
REJ
# stretch skips a bad job row and goes on (more in tests/cli/stretch.sh)
t "stretch under skip" 0 $'job,vc,submit,size_server_hours,max_parallelism\nj1,a,0,x,10\nj2,a,0,10,10\n' 'job,vc,submit,finish,stretch
j2,a,0,3600,1' "stretch: <stdin>:2: warning: skipped: column 'size_server_hours': invalid number 'x'" stretch --on-error skip "$SD/two.csv" -
# skyplot tenants: the series and the class table each renamed on their own
PD="$ROOT/tests/data/skyplot"
sed '1s/^tenant,/vm,/' "$PD/util.csv" > "$TMP/util-vm.csv"
sed '1s/^tenant,/vm_id,/' "$PD/classes.csv" > "$TMP/classes-vmid.csv"
t "skyplot: a rename per input" 0 '' '' '' skyplot -q tenants "$TMP/util-vm.csv" --classes "$TMP/classes-vmid.csv" \
    --col tenant=vm --col classes:tenant=vm_id -o "$TMP/ten-roles.svg"
tcheck "skyplot: same chart as without renames" bash -c '
    skyplot -q tenants "$1/util.csv" --classes "$1/classes.csv" -o "$2/ten-plain.svg" && cmp "$2/ten-plain.svg" "$2/ten-roles.svg"' _ "$PD" "$TMP"
# derived periods: an hourly job whose times are microseconds from the trace
# start (all below 1e11, so no epoch time gives it away) has a "period" of
# 114 years: warned with the unit; --time-unit us gives 3600 s
awk 'BEGIN { print "job,instance,submit,start,end,input_avail,output_read,status"
    for (i = 0; i < 8; i++) { s = (i * 3600 + 30) * 1000000; printf "h,h-%d,%.0f,%.0f,%.0f,,,ok\n", i, s, s + 60000000, s + 660000000 } }' > "$TMP/hourly-us.csv"
t "implausible derived period warned" 0 '' '*' "sloinfer: warning: job 'h': derived period of 114.1 years is implausible: are the input times in ms or us? (use --time-unit ms or --time-unit us)" sloinfer "$TMP/hourly-us.csv"
tcheck "with --time-unit us: the hour" bash -c '
    sloinfer -q --time-unit us "$1" | awk -F, "NR == 2 && \$1 == \"h\" && \$2 == 3600 { ok = 1 } END { exit !ok }"' _ "$TMP/hourly-us.csv"
