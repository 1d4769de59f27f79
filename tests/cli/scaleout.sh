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

# -s (rows in any order): one process writes the keys sorted.  The shard
# recipes merge so (keyshard --merge --sorted) on a shuffled input: GNU
# parallel on this machine (-S :), and the Slurm array through a stand-in
# sbatch that runs the tasks here (tests/cli/engines.sh runs real Slurm and
# ssh); parallel-by-key.sh, whose --group-by blocks need grouped rows,
# refuses -s.
S="$ROOT/examples/parallel-shards.sh"
A="$ROOT/examples/slurm/array.sh"
shuffle() { { head -1 "$1"; tail -n +2 "$1" | shuf --random-source=<(yes); } > "$2"; }
shuffle "$TMP/usage.csv" "$TMP/usage.shuf"
shuffle "$TMP/mem.csv" "$TMP/mem.shuf"
shuffle "$TMP/util.csv" "$TMP/util.shuf"
FS=$TMP/fakeslurm
mkdir -p "$FS"
cat > "$FS/sbatch" <<'EOF_SBATCH'
#!/bin/bash
# stand-in for "sbatch --parsable --array=0-N[%M] --output=LOG ... SCRIPT ARGS": the tasks, here, in turn
arr="" log=/dev/null
while [ "${1#-}" != "$1" ]; do
    case $1 in --array=*) arr=${1#--array=} ;; --output=*) log=${1#--output=} ;; esac
    shift
done
arr=${arr%%%*}
for ((i = ${arr%-*}; i <= ${arr#*-}; i++)); do SLURM_ARRAY_TASK_ID=$i bash "$@" > "${log//%a/$i}" 2>&1; done
echo 4242
EOF_SBATCH
printf '#!/bin/sh\n' > "$FS/squeue"
chmod +x "$FS/sbatch" "$FS/squeue"
shuffled() {  # NAME KEY INPUT TOOL ARGS...
    local name=$1 key=$2 in=$3; shift 3
    "$@" -q "$in" > "$TMP/$name.one"
    t "$name: parallel-shards.sh -S 2/: on shuffled rows == one process" 0 '' "@$TMP/$name.one" '' \
        "$S" -S 2/: -n 3 -w "$TMP/$name.w" -i "$in" "$@"
    t "$name: slurm/array.sh (stand-in sbatch) on shuffled rows == one process" 0 '' "@$TMP/$name.one" '' \
        env PATH="$FS:$PATH" "$A" -P 0.1 -n 4 -w "$TMP/$name.a" -i "$in" "$@"
    t "$name: parallel-by-key.sh refuses -s" 64 "@$in" '' "cannot run in --group-by blocks" "$P" "$key" -j2 -- "$@"
}
shuffled skyfit-s job "$TMP/usage.shuf" skyfit -s
shuffled peakgate-s task "$TMP/mem.shuf" peakgate -s
shuffled tenantclass-s tenant "$TMP/util.shuf" tenantclass --features-only -s
# squeue -j of one job id exits 1, "Invalid job id specified", once slurmctld
# has purged the finished job (MinJobAge): the array has left the queue, and
# the status files decide (the old loop took it for a busy controller and
# polled until -t, or for ever).  Any other squeue failure is retried, and
# -t still cancels.
mkdir -p "$TMP/purged" "$TMP/busy" "$TMP/down"
cp "$FS/sbatch" "$TMP/purged/"; cp "$FS/sbatch" "$TMP/busy/"; cp "$FS/sbatch" "$TMP/down/"
printf '#!/bin/sh\necho "slurm_load_jobs error: Invalid job id specified" >&2\nexit 1\n' > "$TMP/purged/squeue"
cat > "$TMP/busy/squeue" <<EOF_SQ
#!/bin/sh
# two failures of a busy controller, then the empty queue
n=\$(cat "$TMP/busy/n" 2>/dev/null || echo 0); echo \$((n + 1)) > "$TMP/busy/n"
[ "\$n" -ge 2 ] && exit 0
echo "squeue: error: Socket timed out on send/recv operation" >&2; exit 1
EOF_SQ
printf '#!/bin/sh\necho "squeue: error: Unable to contact slurm controller (connect failure)" >&2\nexit 1\n' > "$TMP/down/squeue"
printf '#!/bin/sh\necho "$@" > "%s/down/cancelled"\n' "$TMP" > "$TMP/down/scancel"
chmod +x "$TMP"/purged/* "$TMP"/busy/* "$TMP"/down/*
t "slurm/array.sh: a job purged before the poll (squeue: Invalid job id specified) is done" 0 '' \
    "@$TMP/peakgate-s.one" '' env PATH="$TMP/purged:$PATH" "$A" -P 0.1 -t 20 -n 3 -w "$TMP/purged.w" -i "$TMP/mem.shuf" peakgate -s -q
t "slurm/array.sh: a busy controller's squeue failures are retried" 0 '' "@$TMP/peakgate-s.one" '' \
    env PATH="$TMP/busy:$PATH" "$A" -P 0.1 -t 20 -n 3 -w "$TMP/busy.w" -i "$TMP/mem.shuf" peakgate -s -q
tcheck "slurm/array.sh: ... retried twice, then the empty queue" test "$(cat "$TMP/busy/n")" = 3
t "slurm/array.sh: squeue failing otherwise is never taken for done: -t cancels" 75 '' '' "timed out after 1s; cancelled" \
    env PATH="$TMP/down:$PATH" "$A" -P 0.1 -t 1 -n 3 -w "$TMP/down.w" -i "$TMP/mem.shuf" peakgate -s -q
tcheck "slurm/array.sh: ... scancel got the job id" grep -qx 4242 "$TMP/down/cancelled"
for m in "--clusters=other" "--time=5 -M other" "--cluster other"; do
    t "slurm/array.sh: -s '$m' refused (squeue would ask this cluster)" 64 '' '' "--clusters/-M is not supported" \
        env PATH="$TMP/purged:$PATH" "$A" -s "$m" -n 3 -w "$TMP/cl.w" -i "$TMP/mem.shuf" peakgate -s -q
done
t "slurm/array.sh: an unknown option, one line" 64 '' '' "array.sh: unknown option '-Z' (array.sh --help: the usage)" "$A" -Z
tcheck "slurm/array.sh --help: the whole header, its options and examples to the last line" bash -c '
    "$1" --help > "$2/ah.txt" && grep -q "^    -P SECS     poll squeue every SECS" "$2/ah.txt" &&
    [ "$(tail -1 "$2/ah.txt")" = "the ends of their logs on standard error." ]' _ "$A" "$TMP"
# sloinfer takes its runs in any order and always writes its jobs sorted: the
# shard recipes merge it by key (they merged by the order file, which a
# time-ordered export, the usual one, fails: "row out of the order file's key
# order"), and parallel-by-key.sh merges its blocks by key (an input grouped
# by job in reverse order came out in block order, exit 0).
{ head -1 "$TMP/runs.csv"; tail -n +2 "$TMP/runs.csv" | sort -t, -k3,3n -s; } > "$TMP/runs.bytime"
{ head -1 "$TMP/runs.csv"; tail -n +2 "$TMP/runs.csv" | sort -t, -k1,1r -s; } > "$TMP/runs.rev"
sloinfer -q "$TMP/runs.csv" > "$TMP/sloinfer.all"
t "sloinfer: parallel-shards.sh -S 2/: on time-ordered runs == one process" 0 '' "@$TMP/sloinfer.all" '' \
    "$S" -S 2/: -n 3 -w "$TMP/slo.w" -i "$TMP/runs.bytime" sloinfer -q
t "sloinfer: slurm/array.sh (stand-in sbatch) on time-ordered runs == one process" 0 '' "@$TMP/sloinfer.all" '' \
    env PATH="$FS:$PATH" "$A" -P 0.1 -n 4 -w "$TMP/slo.a" -i "$TMP/runs.bytime" sloinfer -q
t "sloinfer: parallel-by-key.sh on runs grouped in reverse job order == one process" 0 "@$TMP/runs.rev" \
    "@$TMP/sloinfer.all" '*' "$P" job -j2 --block 60k -- sloinfer -q
t "sloinfer: parallel-by-key.sh on time-ordered runs: not grouped, use parallel-shards.sh" 65 "@$TMP/runs.bytime" '' \
    "run sloinfer (runs in any order) through examples/parallel-shards.sh -S :" "$P" job -j2 --block 60k -- sloinfer -q
# examples/telemetry has three jobs nobody reads (no_consumer): in small
# blocks some block holds only such jobs, and sloinfer's basis auto decided
# from that block's values (completion: those jobs actionable) where one
# process decided provenance; it follows the columns now (sloinfer(1))
sloinfer -q "$ROOT/examples/telemetry/runs.csv" > "$TMP/tel.slo"
t "sloinfer: parallel-by-key.sh in 1k blocks on runs with jobs nobody reads == one process" 0 \
    "@$ROOT/examples/telemetry/runs.csv" "@$TMP/tel.slo" '*' "$P" job -j2 --block 1k -- sloinfer -q
# a job named with a line end (a multi-line query): GNU parallel cuts its
# blocks at line ends and cut such a record in two (sloinfer: "unterminated
# quoted field", at some block sizes only); keyshard --check refuses it and
# points to parallel-shards.sh, which reads it whole
python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
for r in rows[1:]:
    if r[0] == "job00003": r[0] = "multi\nline"
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(rows)' "$TMP/runs.csv" "$TMP/runs.ml"
sloinfer -q "$TMP/runs.ml" > "$TMP/ml.slo"
t "parallel-by-key.sh: a record that spans lines is refused, parallel-shards.sh named" 65 "@$TMP/runs.ml" '' \
    "a quoted field holds a line end: a splitter that cuts at line ends (GNU parallel --pipe) would cut this record; split such input with keyshard (examples/parallel-shards.sh)" \
    "$P" job -j2 --block 60k -- sloinfer -q
tcheck "parallel-by-key.sh: ... and says nothing of grouping" bash -c '! "$1" job -j2 --block 60k -- sloinfer -q < "$2" 2>&1 >/dev/null | grep -q "not grouped"' _ "$P" "$TMP/runs.ml"
t "parallel-shards.sh: a record that spans lines, whole" 0 '' "@$TMP/ml.slo" '' "$S" -S 2/: -n 3 -w "$TMP/ml.w" -i "$TMP/runs.ml" sloinfer -q
t "the order-file merge refuses the shuffled shards (a tool run with -s)" 65 '' '' "merge with --sorted" \
    keyshard -q --merge --order "$TMP/peakgate-s.w/order.csv" -k task "$TMP"/peakgate-s.w/out-000?.csv
t "parallel-shards.sh: the same tools without -s fail on shuffled rows" 65 '' '' "input not grouped by task" \
    "$S" -S 2/: -n 3 -w "$TMP/nos.w" -i "$TMP/mem.shuf" peakgate

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

# An input not grouped by key, whose scattered groups GNU parallel's
# --group-by puts in different blocks that each pass the tool's own check:
# one process refuses it (65), and so does parallel-by-key.sh (keyshard
# --check in front), with nothing on standard output; the old script wrote
# each of those keys twice.  The first half of every task's rows, then the
# second halves.
awk -F, 'NR == 1 { print; next } { n[$1]++; r[$1, n[$1]] = $0; if (n[$1] == 1) o[++k] = $1 }
    END { for (h = 0; h < 2; h++) for (i = 1; i <= k; i++) { t = o[i]; m = int(n[t] / 2)
              for (j = h ? m + 1 : 1; j <= (h ? n[t] : m); j++) print r[t, j] } }' "$TMP/mem.csv" > "$TMP/mem.halves"
t "one process refuses keys in two places" 65 '' '' "input not grouped by task" peakgate -q "$TMP/mem.halves"
tcheck "halves: every block passes peakgate's own check" bash -c '
    n=$(parallel --will-cite --pipe --group-by task --colsep , --header : --block 200k "peakgate -q | wc -l" < "$1") &&
    [ $(echo "$n" | wc -l) -ge 3 ]' _ "$TMP/mem.halves"
t "parallel-by-key.sh refuses keys in two places, stdout empty" 65 "@$TMP/mem.halves" '' \
    "keyshard: <stdin>:$(awk -F, 'NR > 1 && seen[$1] && $1 != p { print NR; exit } { seen[$1] = 1; p = $1 }' "$TMP/mem.halves"): input not grouped by task: task 'task0001' appears again after task 'task0040'" \
    "$P" task -j2 --block 200k -- peakgate
t "parallel-by-key.sh on a shuffled input: 65" 65 "@$TMP/mem.shuf" '' "input not grouped by task" "$P" task -j2 -- peakgate
