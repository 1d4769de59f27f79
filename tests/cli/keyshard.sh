# keyshard: shards of whole keys by a fixed hash, checked by an independent
# Python implementation of the hash (tests/check/keyshard_check.py); merge
# checked against one process on the whole input.
C="$ROOT/tests/check/keyshard_check.py"
tracegen -q usage --count 30 --days 3 -o "$TMP/u.csv"
tracegen -q runs --count 20 --days 10 -o "$TMP/r.csv"

for n in 1 3 7; do
    t "split into $n" 0 '' '' '' keyshard -q -k job -n $n -p "$TMP/u$n-" --order "$TMP/o$n.csv" "$TMP/u.csv"
    tcheck "split into $n: rows, hash, header, order (independent check)" python3 "$C" "$TMP/u.csv" job $n "$TMP/u$n-" "$TMP/o$n.csv"
done
t "summary" 0 '' '' 'keyshard: 3745 rows, 20 key groups into 2 shards (1479 to 2266 rows a shard)' \
    keyshard -k job -n 2 -p "$TMP/s-" "$TMP/r.csv"
tcheck "stdin, and keys out of order still stay together" bash -c '
    { head -1 "$1"; tail -n +2 "$1" | sort -t, -k3,3n; } > "$2/shuf.csv"
    keyshard -q -k job -n 3 -p "$2/sh-" < "$2/shuf.csv" && python3 "$3" "$2/shuf.csv" job 3 "$2/sh-"' _ "$TMP/r.csv" "$TMP" "$C"

# merge: one process's output, byte for byte, whatever the key order.
# SHARD_RUN, the start of a case's script (args IN KEY N TMP NAME TOOL...):
# split IN by KEY into N shards in $d (with the order file), the tool on
# each shard (out-I.csv) and on the whole input (one.csv).
SHARD_RUN='
    in=$1 key=$2 n=$3 d=$4/m-$5; shift 5
    mkdir -p "$d" && keyshard -q -k "$key" -n "$n" -p "$d/in-" --order "$d/order.csv" "$in" || exit
    for ((i = 0; i < n; i++)); do "$@" -q "$(printf "%s/in-%04d.csv" "$d" $i)" > "$d/out-$i.csv" || exit; done
    "$@" -q "$in" > "$d/one.csv"'
merge_case() {  # NAME INPUT KEY N TOOL...
    local name=$1 in=$2 key=$3 n=$4; shift 4
    tcheck "$name: shards + merge == one process" bash -c "$SHARD_RUN"'
        keyshard -q --merge --order "$d/order.csv" -k "$key" $(for ((i = 0; i < n; i++)); do echo "$d/out-$i.csv"; done) |
            cmp - "$d/one.csv"' _ "$in" "$key" "$n" "$TMP" "$name" "$@"
}
{ head -1 "$TMP/u.csv"; tail -n +2 "$TMP/u.csv" | sort -t, -k1,1r -s; } >"$TMP/urev.csv"
merge_case skyfit "$TMP/u.csv" job 4 skyfit
merge_case skyfit-reversed "$TMP/urev.csv" job 3 skyfit
merge_case sloinfer "$TMP/r.csv" job 5 sloinfer
tracegen -q taskmem --count 25 -o "$TMP/mem.csv"
merge_case peakgate "$TMP/mem.csv" task 3 peakgate

# -s (rows in any order): one process writes the keys sorted bytewise
# (strcmp), not in the input's order; the shuffled inputs below have every
# key in many places.  --sorted merges so; the order-file merge refuses.
shuffle() { { head -1 "$1"; tail -n +2 "$1" | shuf --random-source=<(yes); } > "$2"; }
shuffle "$TMP/u.csv" "$TMP/us.csv"
shuffle "$TMP/mem.csv" "$TMP/mems.csv"
tracegen -q tenants --count 12 --days 2 -o "$TMP/ten.csv"
shuffle "$TMP/ten.csv" "$TMP/tens.csv"
sorted_case() {  # NAME INPUT KEY N TOOL...
    local name=$1 in=$2 key=$3 n=$4; shift 4
    tcheck "$name: shards + merge --sorted == one process" bash -c "$SHARD_RUN"'
        keyshard -q --merge --sorted --order "$d/order.csv" -k "$key" "$d"/out-?.csv | cmp - "$d/one.csv" &&
        keyshard -q --merge --sorted -k "$key" "$d"/out-?.csv | cmp - "$d/one.csv"' _ "$in" "$key" "$n" "$TMP" "$name" "$@"
    t "$name: the order-file merge refuses (the input was not grouped)" 65 '' '' \
        "comes back after other keys (first at line " \
        bash -c 'd=$1/m-$2; keyshard -q --merge --order "$d/order.csv" -k "$3" "$d"/out-?.csv' _ "$TMP" "$name" "$key"
}
sorted_case skyfit-s "$TMP/us.csv" job 3 skyfit -s
sorted_case peakgate-s "$TMP/mems.csv" task 4 peakgate -s
sorted_case tenantclass-s "$TMP/tens.csv" tenant 2 tenantclass --features-only -s
tcheck "-s on grouped input in another key order: --sorted == one process" bash -c '
    d=$1/m-rev; mkdir -p "$d" && keyshard -q -k job -n 2 -p "$d/in-" --order "$d/order.csv" "$1/urev.csv" &&
    for i in 0 1; do skyfit -qs "$d/in-000$i.csv" > "$d/out-$i.csv" || exit; done
    skyfit -qs "$1/urev.csv" | cmp - <(keyshard -q --merge --sorted --order "$d/order.csv" -k job "$d"/out-?.csv)' _ "$TMP"
# (printf keys: b before a in shard 0 is not sorted; a in both outputs)
t "merge --sorted: an output not sorted by key" 65 '' '' \
    "s1:3: key 'a' after 'b': output not sorted by key (--sorted merges the outputs of a tool run with -s)" \
    bash -c 'printf "k,v\nb,1\na,2\n" > "$1/s1"; keyshard -q --merge --sorted -k k "$1/s1"' _ "$TMP"
t "merge --sorted: a key in two outputs" 65 '' '' "s2:3: key 'b' is also in $TMP/s3 (line 2): outputs of one split hold disjoint keys" \
    bash -c 'printf "k,v\na,1\nb,2\n" > "$1/s2"; printf "k,v\nb,3\nc,4\n" > "$1/s3"
             keyshard -q --merge --sorted -k k "$1/s2" "$1/s3"' _ "$TMP"
t "merge --sorted: bytewise key order, a key's rows together" 0 '' "$(printf 'k,v\nB,0\na,1\na,1b\nab,2\nb,3\nc,4')" '' \
    bash -c 'printf "k,v\na,1\na,1b\nb,3\n" > "$1/s4"; printf "k,v\nB,0\nab,2\nc,4\n" > "$1/s5"
             keyshard -q --merge --sorted -k k "$1/s4" "$1/s5"' _ "$TMP"
t "merge --sorted: a key the order file does not name" 65 '' '' "key 'a' is not in the order file" \
    bash -c 'printf "shard,key\n0,b\n" > "$1/o6"; keyshard -q --merge --sorted --order "$1/o6" -k k "$1/s4"' _ "$TMP"
t "merge --sorted: outputs in the wrong shard order" 65 '' '' "key 'a' belongs to shard 0, not 1, by the order file" \
    bash -c 'printf "shard,key\n0,a\n1,b\n" > "$1/o7"; printf "k,v\nb,1\n" > "$1/s6"
             keyshard -q --merge --sorted --order "$1/o7" -k k "$1/s6" "$1/s4"' _ "$TMP"
t "merge --sorted: an order file that puts a key in two shards" 65 '' '' "o8:3: key 'a' in shard 1 here, in shard 0 before" \
    bash -c 'printf "shard,key\n0,a\n1,a\n" > "$1/o8"; keyshard -q --merge --sorted --order "$1/o8" -k k "$1/s4" "$1/s6"' _ "$TMP"
t "--sorted is for --merge" 64 '' '' "--sorted is for --merge" keyshard -k job -n 2 --sorted
t "merge without an order file concatenates, one header" 0 '' "$(printf 'a,b\n1,x\n2,y\n3,z')" '' \
    bash -c 'printf "a,b\n1,x\n" > "$1/c1"; printf "a,b\n2,y\n3,z" > "$1/c2"; keyshard -q --merge "$1/c1" "$1/c2"' _ "$TMP"
t "merge: a key with no output row is skipped" 0 '' "$(printf 'k,v\nb,2\na,1')" '' \
    bash -c 'printf "shard,key\n1,b\n0,c\n0,a\n" > "$1/ord"; printf "k,v\na,1\n" > "$1/m0"; printf "k,v\nb,2\n" > "$1/m1"
             keyshard -q --merge --order "$1/ord" -k k "$1/m0" "$1/m1"' _ "$TMP"
t "merge: outputs given in the wrong shard order" 65 '' '*' 'row out of the order file' \
    bash -c 'keyshard -q --merge --order "$1/ord" -k k "$1/m1" "$1/m0"' _ "$TMP"
t "merge: headers differ" 65 '' '*' "header differs" \
    bash -c 'printf "k,w\nb,2\n" > "$1/m2"; keyshard -q --merge "$1/m0" "$1/m2"' _ "$TMP"
t "merge: an empty output (failed task)" 65 '' '*' "empty output (no header row): did its task fail?" \
    bash -c ': > "$1/m3"; keyshard -q --merge "$1/m0" "$1/m3"' _ "$TMP"
t "merge: not an order file" 65 '' '*' "not an order file" \
    bash -c 'keyshard -q --merge --order "$1/m0" "$1/m0"' _ "$TMP"
t "merge: shard number beyond the outputs" 65 '' '*' "ord2:2: bad row (want a shard below 2 and a key)" \
    bash -c 'printf "shard,key\n5,a\n" > "$1/ord2"; keyshard -q --merge --order "$1/ord2" -k k "$1/m0" "$1/m1"' _ "$TMP"

# bytes: quotes, embedded newlines, CRLF, a BOM, no final newline
Q=$(printf '\xef\xbb\xbfk,v\r\n"a,1",x\r\n"a,1","two\r\nlines"\r\nb,"say ""hi"""\r\n"b",last')
t "quoted keys: whole records, bytes kept, \"b\" and b are one key" 0 "$Q" '' '' keyshard -q -k k -n 1 -p "$TMP/q-"
t "quoted keys: shard 0 is the input (final newline added)" 0 '' "$Q" '' cat "$TMP/q-0000.csv"
t "quoted keys: one group per key" 0 "$Q" "$(printf 'shard,key\n0,"a,1"\n0,b')" '' \
    bash -c 'keyshard -q -k k -n 1 -p "$1/q-" --order /dev/stdout' _ "$TMP"
tcheck "quoted keys: hash on the unquoted value (independent check)" bash -c '
    printf "%s" "$1" | tr -d "\357\273\277" > "$2/q.csv"; keyshard -q -k k -n 5 -p "$2/q5-" "$2/q.csv" &&
    python3 "$3" "$2/q.csv" k 5 "$2/q5-"' _ "$Q" "$TMP" "$C"
t "header only: every shard gets the header" 0 'job,x
' 'job,x' '' bash -c 'keyshard -q -k job -n 3 -p "$1/h-" && cat "$1/h-0002.csv"' _ "$TMP"
# (fmix64(fnv1a64(x)) % 2 is 1 for a, 0 for b: keyshard_check.py's hash)
t "header-less input (-H --names)" 0 '' "$(printf 'b,2\nb,3\n--\na,1')" '' \
    bash -c 'printf "a,1\nb,2\nb,3\n" | keyshard -q -H --names k,v -k k -n 2 -p "$1/nh-" &&
             cat "$1/nh-0000.csv"; echo --; cat "$1/nh-0001.csv"' _ "$TMP"
t "--tsv names shards .tsv" 0 '' "$(printf 'k\tv\na\t1')" '' \
    bash -c 'printf "k\tv\na\t1\n" | keyshard -q --tsv -k k -n 1 -p "$1/t-" && cat "$1/t-0000.tsv"' _ "$TMP"
tcheck "gzip shards hold the plain shards" bash -c '
    keyshard -q -k job -n 3 -z9 -p "$1/z-" "$1/u.csv" && for i in 0 1 2; do zcat "$1/z-000$i.csv.gz" | cmp - "$1/u3-000$i.csv" || exit; done' _ "$TMP"
tcheck "gzip input gives the same shards" bash -c '
    gzip -c "$1/u.csv" > "$1/u.csv.gz" && keyshard -q -k job -n 3 -p "$1/g-" "$1/u.csv.gz" &&
    for i in 0 1 2; do cmp "$1/g-000$i.csv" "$1/u3-000$i.csv" || exit; done' _ "$TMP"
tcheck "zstd input gives the same shards" bash -c '
    zstd -q -c "$1/u.csv" > "$1/u.csv.zst" && keyshard -q -k job -n 3 -p "$1/zs-" "$1/u.csv.zst" &&
    for i in 0 1 2; do cmp "$1/zs-000$i.csv" "$1/u3-000$i.csv" || exit; done' _ "$TMP"
# a truncated stream is an error, never a clean end (zlib's gzread took it as
# one), at the line where the data stops (zline: worked out apart)
head -c 20000 "$TMP/u.csv.gz" > "$TMP/tr.csv.gz"; head -c 20000 "$TMP/u.csv.zst" > "$TMP/trz.csv.zst"
seq 1 20000 | sed "1s/.*/shard,key/" | gzip | head -c 200 > "$TMP/o.gz"
t "truncated gzip input: 65, no shard" 65 '' '' "keyshard: $TMP/tr.csv.gz:$(zline "$TMP/tr.csv.gz"): truncated gzip input (unexpected end of compressed data)" \
    sh -c 'keyshard -k job -n 2 -p "$1/tr-" "$1/tr.csv.gz"; st=$?; ! ls "$1"/tr-0* 2>/dev/null && exit $st' _ "$TMP"
t "truncated zstd input: 65" 65 "@$TMP/trz.csv.zst" '' "keyshard: <stdin>:$(zline "$TMP/trz.csv.zst"): truncated zstd input" \
    keyshard -k job -n 2 -p "$TMP/trz-"
t "truncated gzip order file on --merge: 65, stdout empty" 65 '' '' "keyshard: $TMP/o.gz:$(zline "$TMP/o.gz"): truncated gzip input" \
    keyshard --merge --order "$TMP/o.gz" -k job "$TMP/u3-0000.csv"
tcheck "1000 shards (more than the default open-file limit of many systems)" bash -c '
    mkdir -p "$1/many" && keyshard -q -k job -n 1000 -p "$1/many/s-" "$1/r.csv" && [ $(ls "$1/many" | wc -l) = 1000 ] &&
    [ $(cat "$1"/many/s-*.csv | grep -vc "^job,") = $(($(wc -l < "$1/r.csv") - 1)) ]' _ "$TMP"

# a merge error late in the merge: nothing on standard output (it was held)
t "merge: row out of the order, stdout gets nothing" 65 '' '' "row out of the order file's key order" \
    sh -c 'keyshard -q --merge --order "$1/o3.csv" -k job "$1/u3-0001.csv" "$1/u3-0000.csv" "$1/u3-0002.csv"' _ "$TMP"

# errors
# (audit, session 20) a header naming the key twice was split on the first
# one, silently (sloinfer and skyfit refuse any duplicate column)
t "a key column named twice: 65, no shard" 65 $'job,v,job\na,1,x\n' '' \
    "keyshard: <stdin>:1: duplicate column 'job' in header (which one is the key?)" \
    sh -c 'keyshard -k job -n 2 -p "$1/dup-"; st=$?; ! ls "$1"/dup-0* 2>/dev/null && exit $st' _ "$TMP"
t "a key column named twice in --names: 64" 64 $'a,1,x\n' '' "keyshard: invalid value for --names: 'job,v,job' (column 'job' named twice)" \
    keyshard --merge --no-header --names job,v,job -k job -
t "missing key column" 65 "$(printf 'a,b\n1,2\n')" '' "keyshard: <stdin>:1: missing key column 'job'" keyshard -k job -n 2 -p "$TMP/e-"
t "empty input" 65 '' '' "keyshard: <stdin>:1: empty input (no header row)" keyshard -k job -n 2 -p "$TMP/e-"
t "unterminated quote" 65 "$(printf 'k,v\na,"open\n')" '' "keyshard: <stdin>:2: unterminated quoted field" keyshard -k k -n 2 -p "$TMP/e-"
t "a record without the key column" 65 "$(printf 'a,k\n1,x\n2\n')" '' "keyshard: <stdin>:3: no column 2 (the key 'k') in this record" keyshard -k k -n 2 -p "$TMP/e-"
t "no shard written on error" 1 '' '' '' test -e "$TMP/e-0000.csv"
t "no such input" 66 '' '' "keyshard: $TMP/none.csv: cannot open" keyshard -k job -n 2 -p "$TMP/e-" "$TMP/none.csv"
t "cannot create shards" 73 "$(printf 'k\na\n')" '' "cannot create" keyshard -k k -n 2 -p "$TMP/nodir/s-"
t "-n 0" 64 '' '' "invalid value for --shards: '0'" keyshard -k job -n 0
t "-n beyond 4000" 64 '' '' "invalid value for --shards: '4001'" keyshard -k job -n 4001
t "-z 0" 64 '' '' "invalid value for --gzip: '0'" keyshard -k job -n 2 -z0
t "split needs --key and --shards" 64 '' '' "splitting needs --key and --shards" keyshard -n 2
t "-o is for --merge" 64 '' '' "-o is for --merge" keyshard -k job -n 2 -o x.csv
t "--merge without outputs" 64 '' '' "--merge needs the per-shard outputs" keyshard --merge
t "--merge with --gzip" 64 '' '' "--shards, --prefix and --gzip are for splitting" keyshard --merge -z x.csv

# --check: the input copied unchanged; stopped (65, the tools' message) where
# a key comes back after its group ended, after the records before it
t "--check: grouped input copied" 0 $'k,v\na,1\na,2\nb,3\n' $'k,v\na,1\na,2\nb,3' '' keyshard -q --check -k k
t "--check: a quoted key, a missing last line end" 0 $'k,v\n"a,1",1\n"a,1",2' $'k,v\n"a,1",1\n"a,1",2' '' keyshard -q --check -k k
t "--check: a key that comes back" 65 $'k,v\na,1\nb,2\na,3\n' $'k,v\na,1\nb,2' \
    "keyshard: <stdin>:4: input not grouped by k: k 'a' appears again after k 'b'" keyshard -q --check -k k
t "--check: -H --names, --tsv" 65 $'x\ta\nx\tb\ny\tc\nx\td\n' '*' "keyshard: <stdin>:4: input not grouped by k: k 'x' appears again after k 'y'" \
    keyshard -q --check --tsv -H --names k,v -k k
# a record that spans lines would be cut in two by a line-based splitter
# (GNU parallel --pipe, parallel-by-key.sh): refused where it starts
# the message's sort command groups the input, the key where it is (the
# audit of 2026-12-04: it said -k1,1 -t, whatever the key column and the
# delimiter, and sorted the header with the rows): followed as printed
tcheck "--check: the message's sort command, key column 2, groups the file" bash -c '
    cd "$1" && printf "x,job\n1,a\n2,b\n3,a\n" >c2.csv && ! keyshard -q --check -k job c2.csv >/dev/null 2>c2.err &&
    cmd=$(sed -n "s/.*e\.g\. \((head -1 [^;]*; tail -n +2 [^|]* | sort [^)]*)\).*/\1/p" c2.err) &&
    [ "$cmd" = "(head -1 c2.csv; tail -n +2 c2.csv | sort -s -t, -k2,2)" ] &&
    bash -c "$cmd" | keyshard -q --check -k job | cmp - <(printf "x,job\n1,a\n3,a\n2,b\n")' _ "$TMP"
tcheck "--check --tsv -H: the command names the tab and no header" bash -c '
    printf "a\tx\nb\ty\nc\tx\n" | keyshard -q --check --tsv -H --names v,k -k k 2>&1 >/dev/null |
        grep -qF "(sort by k first, e.g. sort -s -t \"\$(printf '"'"'\\t'"'"')\" -k2,2 FILE)"'
t "--check: a record that spans lines" 65 $'k,v\na,1\n"b\nc",2\n' $'k,v\na,1' \
    "keyshard: <stdin>:3: a quoted field holds a line end: a splitter that cuts at line ends (GNU parallel --pipe) would cut this record" \
    keyshard -q --check -k k
t "--check: summary" 0 $'k,v\na,1\na,2\nb,3\n' '*' "keyshard: 3 rows in 2 key groups, grouped by k" keyshard --check -k k
t "--check: a record without the key column is the tool's" 0 $'v,k\n1,a\n2\n' $'v,k\n1,a\n2' '' keyshard -q --check -k k
t "--check: missing key column" 65 $'a,b\n1,2\n' '' "keyshard: <stdin>:1: missing key column 'job'" keyshard --check -k job
t "--check needs --key" 64 '' '' "--check needs --key" keyshard --check
t "--check with --shards" 64 '' '' "--check copies one input" keyshard --check -k k -n 2

# The stream and determinism promises (slokit(7)) for every per-key tool and
# every tool with --seed, on tracegen output and the public traces through
# traceconv: shards of keys at random (k = 2, 3; rows shuffled where a tool
# takes them in any order) merged == one process, summary counts add up,
# shuffled rows, --seed, times as ISO 8601 (Z, +00:00, +02:00, -05:30,
# fractions) and in ms/us, --tsv, -d ';', gzip and zstd
# (tests/check/stream_props.py; without --small it runs k = 2..5 and the
# PlanetLab and Alibaba traces too).
tcheck "stream properties of every per-key and seeded tool (stream_props.py --small)" \
    python3 "$ROOT/tests/check/stream_props.py" --small --work "$TMP/sp" --data "$DATA"

# Lone-CR line ends (classic Mac OS): the tools' reader ends a record at a
# lone CR, keyshard's framing did not: a CR-only file was "0 rows" with the
# whole file copied as every shard's header (exit 0), and a lone CR inside an
# LF file kept two keys' rows together.  Both are refused where they are.
t "lone-CR line ends refused" 65 $'job,v\rA,1\rB,2\r' '' "keyshard: <stdin>:1: a line ends in a lone CR (classic Mac OS line ends)" keyshard -q -k job -n 2 -p "$TMP/cr-"
t "a lone CR inside an LF file refused at its line" 65 $'job,v\nA,1\rB,2\nC,3\n' '' "keyshard: <stdin>:2: a line ends in a lone CR" keyshard -q -k job -n 2 -p "$TMP/cr-"
t "a lone CR in a quoted record, outside the quotes, refused" 65 $'job,v\n"A",1\rB,2\n' '' "keyshard: <stdin>:2: a line ends in a lone CR" keyshard -q -k job -n 2 -p "$TMP/cr-"
python3 -c "import sys; sys.stdout.write('job,v\r' + ''.join('k%d,%d\r' % (i % 7, i) for i in range(300000)))" > "$TMP/cr-big.csv"
t "a 3 MB CR-only file refused at line 1, not read whole" 65 '' '' "keyshard: $TMP/cr-big.csv:1: a line ends in a lone CR" keyshard -q -k job -n 2 -p "$TMP/cr-" "$TMP/cr-big.csv"
# CRLF with quoted fields (an Excel export): the lone-CR check looked ahead
# over every CRLF left in the buffer for each record: 8.5 MB took 4 minutes
python3 -c "import sys; w = sys.stdout.write; w('job,v,note\r\n'); [w('k%d,%d,\"n%d\"\r\n' % (i % 50, i, i)) for i in range(400000)]" > "$TMP/crlfq.csv"
t "CRLF with quoted fields: linear (8.5 MB within 60 s; 4 min when quadratic)" 0 '' '' '' \
    timeout 60 keyshard -q -k job -n 4 -p "$TMP/crlfq-" "$TMP/crlfq.csv"
tcheck "... every row in a shard, whole" bash -c '[ "$(cat "$1"/crlfq-000?.csv | grep -vc "^job,v,note")" = 400000 ]' _ "$TMP"
# a quoted record with a lone CR and no closing quote before the end: the
# lone CR comes first in the bytes and is what a classic Mac OS file has
t "a lone CR before an unterminated quote at the end: the lone CR is named" 65 $'job,v\n"A",1\rB,"2\n' '' "keyshard: <stdin>:2: a line ends in a lone CR" keyshard -q -k job -n 2 -p "$TMP/cr-"
t "a lone CR inside quotes, then the closing quote missing: unterminated" 65 $'job,v\n"A",1\n"B\rC,2\n' '' "keyshard: <stdin>:3: unterminated quoted field" keyshard -q -k job -n 2 -p "$TMP/cr-"
t "CRLF, CR CR LF and a CR inside quotes are fine" 0 $'job,v\r\nA,"x\ry"\r\nB,2\r\r\n' '' '' keyshard -q -k job -n 1 -p "$TMP/crok-"
t "... and copied byte for byte" 0 '' $'job,v\r\nA,"x\ry"\r\nB,2\r\r' '' cat "$TMP/crok-0000.csv"
t "a line of CRs alone is blank, as the tools read it (no key '\\r' coming back)" 0 $'job,v\nA,1\n\r\r\nB,2\n\r\r\nC,3\n' \
    $'job,v\nA,1\nB,2\nC,3' '' keyshard -q --check -k job
t "-H: the BOM is not part of the first key (its rows stay in one shard)" 0 $'\xef\xbb\xbfjobA,1\njobA,2\n' '' '' \
    keyshard -q -H -k c1 -n 2 -p "$TMP/bomh-" --order "$TMP/bomh-order.csv"
t "... one key group" 0 '' $'shard,key\n0,jobA' '' cat "$TMP/bomh-order.csv"
