#!/bin/bash
# examples/parallel-shards.sh — run a per-key slokit tool over ssh hosts with
# GNU parallel: shard the input by key, one job per shard on the hosts,
# merge the outputs in the order one process writes them (the keys' input
# order; sorted keys for sloinfer and for a tool given -s); fail if any job
# failed.
#
#   examples/parallel-shards.sh -S LOGINS [OPTIONS] TOOL [TOOL-ARGS...]
#     -S LOGINS   parallel's --sshlogin list, e.g. 2/node1,2/node2 (N/host:
#                 at most N jobs on host at once; ':' is this machine)
#     -T          no shared file system: copy each shard to its host and the
#                 output back (parallel --transferfile/--return/--cleanup;
#                 rsync on both ends)
#     -R DIR      with -T, the directory on the hosts (default: parallel's
#                 unique ~/.parallel/tmp/... directory, removed afterwards)
#     -i FILE     input (default: standard input)
#     -o FILE     output (default: standard output); replaced only on success
#     -n N        shards (default 4 a host)
#     -k KEY      key column (default: job, task or tenant by the tool)
#     -w DIR      local work directory; without -T it must be on a file system
#                 every host mounts at the same path (default: a new
#                 ./slokit-shards.XXXXXX, removed on success and when the split fails)
#     -e CMD      the ssh command (parallel --ssh), e.g. -e 'ssh -F my_config'
#
#   examples/parallel-shards.sh -S 2/node1,2/node2 -i usage.csv skyfit > sky.csv
#   examples/parallel-shards.sh -S 1/node1,1/node2 -T -i runs.csv sloinfer > slo.csv
#
# The tools must be installed at the same path on every host (resolved here
# with command -v: remote commands start in $HOME, without this PATH).
# Sharding first and sending whole files is what scales: streaming every
# byte through ssh (parallel --pipe, examples/parallel-by-key.sh) is slower
# than one process for the CSV-speed tools.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards_name=parallel-shards
source "$here/common.sh"
source "$here/shardlib.sh"
ex_help "$0" "${1-}"
logins="" trc=0 rdir="..." in="" out="" n="" key="" work="" sshcmd=""
while getopts :hS:TR:i:o:n:k:w:e: o; do
    case $o in
        S) logins=$OPTARG ;; T) trc=1 ;; R) rdir=$OPTARG ;; i) in=$OPTARG ;; o) out=$OPTARG ;;
        n) n=$OPTARG ;; k) key=$OPTARG ;; w) work=$OPTARG ;; e) sshcmd=$OPTARG ;;
        h) ex_usage "$0"; exit 0 ;;
        *) ex_badopt "$shards_name" "$o" "$OPTARG" "$OPTIND" "$@" ;;
    esac
done
shift $((OPTIND - 1))
[ -n "$logins" ] || ex_fail "$shards_name" "-S LOGINS is needed (':' is this machine)"
[ $# -ge 1 ] || ex_fail "$shards_name" "a TOOL to run is needed"
ex_tools "$shards_name" "$here/.." keyshard
[ -n "$key" ] || key=$(shards_key "$1") || exit
tool=$(shards_tool "$1") || exit
sorted=$(shards_sorted "$@")
shift
command -v parallel >/dev/null || { echo "$shards_name: GNU parallel not found (apt-get install parallel)" >&2; exit 69; }
hosts=$(tr ',' '\n' <<<"$logins" | grep -c .)
[ -n "$n" ] || n=$((4 * hosts))
keep=1
[ -n "$work" ] || { work=$(mktemp -d "$PWD/slokit-shards.XXXXXX") || exit 73; keep=0; }
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 73
rm -f "$work"/out-*.csv

# a split that fails (no such input, a bad row) leaves nothing to keep: a
# work directory made here goes (a cron job with a wrong path piled up
# empty ones); one given with -w stays
shards_split "$in" "$key" "$n" "$work" || { rc=$?; [ $keep = 1 ] || rm -rf "$work"; exit $rc; }
cmd="$(printf '%q ' "$tool" "$@") -q"
popts=(--will-cite --halt soon,fail=1 -S "$logins" ${sshcmd:+--ssh "$sshcmd"})
if [ $trc = 1 ]; then
    # relative names: parallel copies in-NNNN.csv into the remote directory
    # and brings out-NNNN.csv back into $work
    (cd "$work" && seq -f %04g 0 $((n - 1)) |
        parallel "${popts[@]}" --workdir "$rdir" --transferfile in-{}.csv --return out-{}.csv --cleanup \
            "$cmd -o out-{}.csv in-{}.csv")
else
    # parallel runs the command through a shell: the work directory quoted
    # (the default one is under $PWD, which may hold a space)
    qw=$(printf '%q' "$work")
    seq -f %04g 0 $((n - 1)) | parallel "${popts[@]}" "$cmd -o $qw/out-{}.csv $qw/in-{}.csv"
fi
rc=$?
[ $rc = 0 ] || { echo "$shards_name: a job failed (exit $rc; parallel's messages above); work directory kept: $work" >&2; exit "$rc"; }
shards_merge "$key" "$n" "$work" "$out" ${sorted:+"$sorted"} || { echo "$shards_name: merge failed; work directory $work" >&2; exit 65; }
[ $keep = 1 ] || rm -rf "$work"
