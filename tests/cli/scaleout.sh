# Scale-out: the per-key tools give the same output when their input is split
# by key across GNU parallel workers (examples/parallel-by-key.sh, small
# blocks so that every run really has several shards) and when run as a
# Hadoop Streaming job (examples/hadoop-streaming.sh local: map | sort | reduce).
P="$ROOT/examples/parallel-by-key.sh"
H="$ROOT/examples/hadoop-streaming.sh"
tracegen -q runs --count 16 --days 10 -o "$TMP/runs.csv"
tracegen -q usage --count 16 --days 10 -o "$TMP/usage.csv"
tracegen -q taskmem --count 40 -o "$TMP/mem.csv"
tracegen -q tenants --count 30 --days 3 -o "$TMP/util.csv"

# one process (reference) vs GNU parallel, byte for byte and after sorting
scale() {  # NAME KEY INPUT BLOCK TOOL ARGS...
    local name=$1 key=$2 in=$3 block=$4; shift 4
    "$@" -q < "$in" > "$TMP/$name.one"
    tcheck "$name: input really splits into several blocks" bash -c '
        parallel --will-cite --pipe --group-by "$1" --colsep , --header : --block "$2" wc -l < "$3" | [ $(wc -l) -ge 3 ]' _ "$key" "$block" "$in"
    t "$name under parallel -j2" 0 "@$in" "@$TMP/$name.one" '*' "$P" "$key" -j2 --block "$block" -- "$@" -q
    tcheck "$name sharded == single after sorting" bash -c '
        diff <(sort "$1") <("$2" "$3" -j2 --block "$4" -- "${@:6}" -q < "$5" | sort)' _ "$TMP/$name.one" "$P" "$key" "$block" "$in" "$@"
}
scale skyfit job "$TMP/usage.csv" 300k skyfit
scale sloinfer job "$TMP/runs.csv" 60k sloinfer
scale peakgate task "$TMP/mem.csv" 200k peakgate
scale tenantclass tenant "$TMP/util.csv" 100k tenantclass --features-only
tcheck "tenantclass: clustering of sharded features == one process" bash -c '
    tenantclass -q --from-features "$1/tenantclass.one" > "$1/tc.a"
    "$2" tenant -j2 --block 100k -- tenantclass --features-only -q < "$3" > "$1/feat.par"
    tenantclass -q --from-features "$1/feat.par" > "$1/tc.b"
    cmp "$1/tc.a" "$1/tc.b"' _ "$TMP" "$P" "$TMP/util.csv"

# Hadoop Streaming, as a contract: the mapper and reducer command lines run
# through a local shuffle (map | sort | reduce), not on Hadoop (no Debian
# package); the result must equal a direct run. run
hadoop() {  # NAME COLUMNS INPUT TOOL ARGS...
    local name=$1 cols=$2 in=$3; shift 3
    tcheck "$name: hadoop contract, local shuffle (not a Hadoop run): map | sort | reduce == direct" bash -c '
        "$1" local "$2" "${@:4}" < "$3" > "$TMP/h.out" &&
        "${@:4}" -q --no-output-header < "$3" | tr , "\t" | cmp - "$TMP/h.out"' _ "$H" "$cols" "$in" "$@"
}
hadoop skyfit job,run,t,containers,cores,mem_mb "$TMP/usage.csv" skyfit
hadoop sloinfer job,instance,submit,start,end,input_avail,output_read,status "$TMP/runs.csv" sloinfer
hadoop peakgate task,t,mem_mb,alloc_mb "$TMP/mem.csv" peakgate
hadoop tenantclass tenant,t,util "$TMP/util.csv" tenantclass --features-only
tcheck "hadoop submit prints the streaming command" bash -c '
    "$1" submit job,run,t,containers /in /out skyfit --alpha 0.1 | grep -q "stream.num.map.output.key.fields=1"' _ "$H"
