#!/bin/bash
# parallel-by-key.sh — run a per-key slokit tool over GNU parallel.
#
#   examples/parallel-by-key.sh KEY [PARALLEL-OPTIONS...] -- TOOL [ARGS...] < in.csv > out.csv
#
#   examples/parallel-by-key.sh job -j2 -- skyfit < usage.csv > skylines.csv
#   examples/parallel-by-key.sh job -j8 --sshlogin 8/host1,8/host2 -- sloinfer < runs.csv > slo.csv
#   examples/parallel-by-key.sh task -j2 --block 50M -- peakgate < mem.csv > profiles.csv
#
# GNU parallel cuts standard input into blocks that hold whole keys
# (--pipe --group-by KEY; the input must be grouped by KEY, which the tools
# require anyway: a key whose rows are in two places would go to two blocks,
# each of which passes the tool's own check, and come out twice; so
# keyshard --check copies the input to parallel and stops where a key comes
# back, exit 65 with the tools' "input not grouped" message, and the output,
# held in a file in $TMPDIR until then, is dropped), gives every block the
# header (--header :), runs TOOL on
# each block on local cores or remote hosts (--sshlogin), and prints the
# outputs in input order (--keep-order).  The per-key tools (sloinfer,
# skyfit, peakgate profiles, tenantclass --features-only) give the same rows
# for a job whatever else is in its block, so the result is the same as one
# process; the repeated headers are dropped here.  With --sshlogin, TOOL must
# be on the remote PATH.  Tab-separated input: SLOKIT_SEP=$'\t' and TOOL --tsv.
# parallel cuts blocks at line ends, so a record that spans lines (a quoted
# line end, such as a job named by a multi-line query) would be cut in two:
# keyshard --check refuses it (exit 65); parallel-shards.sh splits with
# keyshard, which reads such records whole.
# --colsep is not optional: Debian 12's parallel (20221122) needs it for
# --group-by with --header : ("Column 'job' not found in header" otherwise).
# A tool given -s (skyfit, peakgate, tenantclass: rows in any order) is
# refused: --group-by cuts blocks where the key changes, so rows of a key
# that are not together land in several blocks, and each block's keys come
# out sorted within the block only; examples/parallel-shards.sh -S : runs
# it and merges the keys in sorted order, as one process writes them.
# sloinfer writes its jobs sorted whatever their input order, so each
# block's output is sorted and the blocks' are not: they are merged by key
# (keyshard --merge --sorted), as one process writes them (before, an input
# grouped by job in another order came out in block order, exit 0).
# Every byte goes through one Perl process (and through ssh with --sshlogin),
# which is slower than one process for the CSV-speed tools: across hosts,
# shard first (examples/parallel-shards.sh, examples/slurm/array.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards_name=parallel-by-key
source "$here/common.sh"
source "$here/shardlib.sh"
ex_help "$0" "${1-}"
case ${1-} in -*) ex_fail "$shards_name" "the KEY column comes first, not '$1'" ;; esac
[ $# -ge 3 ] || ex_fail "$shards_name" "KEY, -- and a TOOL are needed"
key=$1; shift
popts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do popts+=("$1"); shift; done
[ "${1:-}" = -- ] || ex_fail "$shards_name" "missing -- before TOOL"
shift
ex_tools "$shards_name" "$here/.." keyshard
# (shards_sorted says --sorted for sloinfer too, whose output is sorted
# whatever its arguments: that one is merged by key below)
if [ "$(basename "$1")" != sloinfer ] && [ -n "$(shards_sorted "$@")" ]; then
    echo "$shards_name: $1 -s (rows in any order) cannot run in --group-by blocks: use examples/parallel-shards.sh -S : (or group the input by $key and drop -s)" >&2
    exit 64
fi
command -v parallel >/dev/null || { echo "$shards_name: GNU parallel not found (apt-get install parallel)" >&2; exit 69; }
# parallel runs the command through a shell: quote every word.
cmd=$(printf '%q ' "$@")
held=$(mktemp -d "${TMPDIR:-/tmp}/parallel-by-key.XXXXXX")
trap 'rm -rf "$held"' EXIT
# sloinfer's keys come out sorted: each block's output to a file of its own
# (a block's output starts with the header), merged by key below
sorted=
[ "$(basename "$1")" != sloinfer ] || sorted=1
# the input's header, kept for an input without rows
IFS= read -r hdr && printf '%s\n' "$hdr" >"$held/header" || printf '%s' "${hdr:-}" >"$held/header"
# no input at all, not even a header: the tool says so, as one process would
[ -s "$held/header" ] || { "$@" </dev/null; exit; }
set +e
cat "$held/header" - | keyshard -q --check -k "$key" -d "${SLOKIT_SEP:-,}" 2> >(tee "$held/check.err" >&2) |
    parallel --will-cite --pipe --group-by "$key" --colsep "${SLOKIT_SEP:-,}" --header : --keep-order "${popts[@]}" "$cmd" |
    if [ -n "$sorted" ]; then
        awk -v d="$held" 'NR == 1 { h = $0 } $0 == h { if (f) close(f); f = sprintf("%s/b%09d.csv", d, ++n) } { print > f }'
    else
        awk 'NR == 1 { h = $0; print; next } $0 != h' > "$held/out"
    fi
st=("${PIPESTATUS[@]:1}")   # (without cat's)
set -e
if [ "${st[0]}" != 0 ]; then
    if [ "${st[0]}" = 65 ] && grep -q "input not grouped" "$held/check.err" 2>/dev/null; then
        if [ -n "$sorted" ]; then
            echo "$shards_name: the input is not grouped by $key: sort it by $key, or run $1 (runs in any order) through examples/parallel-shards.sh -S :" >&2
        else
            echo "$shards_name: the input is not grouped by $key: sort it by $key, or run $1 -s through examples/parallel-shards.sh -S :" >&2
        fi
    fi
    exit "${st[0]}"
fi
for s in "${st[@]:1}"; do [ "$s" = 0 ] || exit "$s"; done
# no block (a header and no rows: parallel runs nothing): one process
# writes its header, so does this.  (No exec below: the EXIT trap removes
# $held.)
if [ -n "$sorted" ]; then
    blocks=("$held"/b*.csv)
    if [ -e "${blocks[0]}" ]; then
        keyshard -q --merge --sorted -d "${SLOKIT_SEP:-,}" "${blocks[@]}"
    else
        "$@" <"$held/header"
    fi
    exit
fi
[ -s "$held/out" ] || { "$@" <"$held/header"; exit; }
cat "$held/out"
