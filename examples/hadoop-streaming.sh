#!/bin/bash
# hadoop-streaming.sh — run a per-key slokit tool as a Hadoop Streaming job.
#
#   examples/hadoop-streaming.sh map COLUMNS              the mapper  (CSV lines -> key-first TSV, no header)
#   examples/hadoop-streaming.sh reduce COLUMNS TOOL ARGS the reducer (TOOL on header-less TSV)
#   examples/hadoop-streaming.sh local COLUMNS TOOL ARGS < in.csv   map | shuffle | reduce on this machine
#   examples/hadoop-streaming.sh submit COLUMNS INPUT OUTPUT TOOL ARGS   print the hadoop command
#
# COLUMNS are the input's column names, key first (e.g. job,run,t,containers).
# The mapper drops header lines (every split may start anywhere, so a header
# is recognised by its text) and turns CSV into TSV; Hadoop sorts and groups
# the lines by the first field (stream.num.map.output.key.fields=1); the
# reducer reads TSV without a header (--tsv -H --names COLUMNS) and writes
# TSV without one (--no-output-header), so part files concatenate.  Values
# with commas inside quotes are not supported by this mapper (use --tsv
# input for those).
#
# This is a contract, not a tested Hadoop run: Hadoop has no Debian package,
# so make check runs the mapper and reducer through the 'local' mode, which
# simulates the shuffle with sort (which, like Hadoop, does not keep the
# order of lines within a key).  Example:
#   tracegen usage --count 100 --days 30 > usage.csv
#   examples/hadoop-streaming.sh local job,run,t,containers,cores,mem_mb skyfit < usage.csv
# On a cluster (print the command, then run it):
#   examples/hadoop-streaming.sh submit job,run,t,containers,cores,mem_mb /data/usage /data/skylines skyfit
set -euo pipefail
. "$(dirname "$0")/common.sh"
ex_help "$0" "${1-}"
mode=${1:-}; cols=${2:-}
case $mode in
    map | reduce | local | submit) ;;
    '') ex_fail hadoop-streaming "a mode is needed: map, reduce, local or submit" ;;
    *) ex_fail hadoop-streaming "unknown mode '$mode' (map, reduce, local, submit)" ;;
esac
[ -n "$cols" ] || ex_fail hadoop-streaming "$mode: COLUMNS is needed (the input's column names, key first)"
shift 2
case $mode:$# in
    reduce:0 | local:0) ex_fail hadoop-streaming "$mode: a TOOL to run is needed" ;;
    submit:[012]) ex_fail hadoop-streaming "submit: INPUT, OUTPUT and a TOOL are needed" ;;
esac
header=$cols

map() { awk -v h="$header" 'BEGIN { FS = ","; OFS = "\t" } $0 == h { next } { sub(/\r$/, ""); $1 = $1; print }'; }
reduce() { "$@" --tsv -H --names "$cols" --no-output-header -q; }

case "$mode" in
    map) map ;;
    reduce) reduce "$@" ;;
    local) map | LC_ALL=C sort -t "$(printf '\t')" -k1,1 | reduce "$@" ;;
    submit)
        input=$1 output=$2; shift 2
        here=$(cd "$(dirname "$0")" && pwd)
        tool=$(printf '%q ' "$@")
        cat <<CMD
hadoop jar \$HADOOP_HOME/share/hadoop/tools/lib/hadoop-streaming-*.jar \\
  -D stream.num.map.output.key.fields=1 \\
  -D mapreduce.job.name='slokit $1' \\
  -files $here/hadoop-streaming.sh,$here/common.sh \\
  -input $input -output $output \\
  -mapper 'hadoop-streaming.sh map $cols' \\
  -reducer 'hadoop-streaming.sh reduce $cols $tool'
CMD
        ;;
esac
