#!/bin/bash
# examples/slurm/task.sh — one task of examples/slurm/array.sh's job array:
# run TOOL on shard $SLURM_ARRAY_TASK_ID of WORK, write its output beside it
# (replaced only when complete) and the exit status to WORK/status-I, which
# array.sh checks: a task that leaves no status counts as failed.
#
#   sbatch --array=0-3 examples/slurm/task.sh WORK TOOL [ARGS...]
#SBATCH --ntasks=1
set -u
# (sbatch runs a copy of this file from its spool directory: it sources
# nothing from examples/, so the usage check is written out here)
[ $# -ge 2 ] || { echo "task.sh: WORK and TOOL are needed (examples/slurm/array.sh submits this script)" >&2; exit 64; }
work=$1 tool=$2; shift 2
i=${SLURM_ARRAY_TASK_ID:?not in a job array}
printf -v shard '%04d' "$i"
"$tool" "$@" -q -o "$work/out-$shard.csv" "$work/in-$shard.csv"
rc=$?
echo "$rc" > "$work/status-$i.tmp" && mv "$work/status-$i.tmp" "$work/status-$i"
exit "$rc"
