#!/bin/sh
# swim-to-stretch.sh — turn a SWIM Facebook-2009 workload (TSV, no header:
# job, submit_s, gap_s, map_input_bytes, shuffle_bytes, reduce_output_bytes)
# into stretch(1)'s two inputs, OUTDIR/vcs.csv and OUTDIR/jobs.csv.
#
#   examples/swim-to-stretch.sh [-n VCS] [-l LOAD] [-r BYTES_PER_S] [-p] IN.tsv OUTDIR
#
# Mapping (SWIM has no users, sizes in bytes, no task counts):
#   job                 = column 1 (job0, job1, ...)
#   submit              = column 2, seconds since the start of the workload
#   size_server_hours   = (1 + (input + shuffle + output bytes) / RATE) / 3600:
#                         one server moves RATE bytes a second (default 5e6,
#                         about one 2009 Hadoop task slot), plus one server-second of start-up
#                         so that empty jobs still cost something
#   vc                  = "fb" (N mod VCS), N the job number: VCS teams (default
#                         4) with statistically identical workloads
#   capacity            = the VC's work / (LOAD x horizon), rounded, at least 1:
#                         every VC has load factor LOAD (default 0.8), so any
#                         spread of mean stretch among them is the scheduler's
#                         doing; horizon = the submit span rounded up to whole
#                         hours; pass it to stretch
#                         as --horizon (the script prints the command)
#   max_parallelism     = empty (fully malleable, the paper's model: a job alone
#                         in its VC has stretch 1); with -p, the map-task count
#                         ceil(input / 128 MiB), at least 1
set -eu
vcs=4 load=0.8 rate=5e6 par=0
while getopts n:l:r:p o; do
    case $o in
    n) vcs=$OPTARG ;; l) load=$OPTARG ;; r) rate=$OPTARG ;; p) par=1 ;;
    *) echo "usage: $0 [-n VCS] [-l LOAD] [-r BYTES_PER_S] [-p] IN.tsv OUTDIR" >&2; exit 64 ;;
    esac
done
shift $((OPTIND - 1))
[ $# = 2 ] || { echo "usage: $0 [-n VCS] [-l LOAD] [-r BYTES_PER_S] [-p] IN.tsv OUTDIR" >&2; exit 64; }
in=$1 out=$2
mkdir -p "$out"
awk -F'\t' -v tool=swim-to-stretch -v vcs="$vcs" -v lf="$load" -v rate="$rate" -v par="$par" -v out="$out" '
function fail(m) { printf "swim-to-stretch: %s:%d: %s\n", FILENAME, FNR, m > "/dev/stderr"; bad = 1; exit 65 }
NF != 6 { fail("expected 6 tab-separated fields, found " NF) }
$2 !~ /^[0-9]+(\.[0-9]+)?$/ || $4 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+$/ { fail("not a SWIM job row") }
{
    n = $1; sub(/^job/, "", n)
    if (n !~ /^[0-9]+$/) fail("job id is not jobN: " $1)
    vc = "fb" (n % vcs)
    size = (1 + ($4 + $5 + $6) / rate) / 3600
    p = ""
    if (par) { p = int(($4 + 134217727) / 134217728); if (p < 1) p = 1 }
    job[NR] = $1; jvc[NR] = vc; sub_t[NR] = $2 + 0; jsize[NR] = size; jpar[NR] = p
    work[vc] += size * 3600
    if (NR == 1 || $2 + 0 < t0) t0 = $2 + 0
    if (NR == 1 || $2 + 0 > t1) t1 = $2 + 0
}
END {
    if (bad) exit 65
    if (NR == 0) { print "swim-to-stretch: " FILENAME ": no jobs" > "/dev/stderr"; exit 65 }
    hours = int((t1 - t0) / 3600); if (hours * 3600 < t1 - t0) hours++; if (hours < 1) hours = 1
    h = hours * 3600
    printf "%s: %d jobs; run: stretch --horizon %ds %s/vcs.csv %s/jobs.csv\n", tool, (tool ~ /swim/ ? NR : n), h, out, out > "/dev/stderr"
    print "vc,capacity" > (out "/vcs.csv")
    for (i = 0; i < vcs; i++) {
        vc = "fb" i
        if (!(vc in work)) continue
        c = int(work[vc] / (lf * h) + 0.5); if (c < 1) c = 1
        print vc "," c > (out "/vcs.csv")
    }
    print "job,vc,submit,size_server_hours,max_parallelism" > (out "/jobs.csv")
    for (i = 1; i <= NR; i++)
        printf "%s,%s,%s,%.9g,%s\n", job[i], jvc[i], sub_t[i], jsize[i], jpar[i] > (out "/jobs.csv")
}' "$in"
