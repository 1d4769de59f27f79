# The examples/*-to-*.sh adapters run from a fresh clone with no arguments:
# default inputs in ../shared/data beside the repository, outputs under out/
# (created), the tools from the clone's build/bin.  The clone is simulated by
# copying examples/ into $TMP/repo with build/bin linked and $TMP/shared/data
# linked to the real data; PATH holds no slokit tool.
mkdir -p "$TMP/repo/build" "$TMP/shared"
cp -r "$ROOT/examples" "$TMP/repo/"
ln -sfn "$ROOT/$BUILD/bin" "$TMP/repo/build/bin"
ln -sfn "$DATA" "$TMP/shared/data"
CLEAN=/usr/bin:/bin
rows() { echo $(($(wc -l <"$1") - 1)); }

t "swim adapter, no arguments" 0 '' '*' "traceconv: 5894 jobs in 4 VCs" \
    env PATH=$CLEAN sh -c 'cd "$1" && examples/swim-to-stretch.sh' _ "$TMP/repo"
tcheck "swim adapter wrote out/swim" bash -c '[ "$(wc -l < "$1/out/swim/jobs.csv")" = 5895 ] && [ "$(wc -l < "$1/out/swim/vcs.csv")" = 5 ]' _ "$TMP/repo"
t "swim adapter -p: map tasks as max_parallelism" 0 '' '*' '*' \
    env PATH=$CLEAN sh -c 'cd "$1" && examples/swim-to-stretch.sh -p -n 2 "$2" out/swim2' _ "$TMP/repo" "$DATA/swim/FB-2009_samples_24_times_1hr_0.tsv"
tcheck "swim adapter -p: every job has a cap, two VCs" bash -c '
    awk -F, "NR > 1 && \$5 < 1 { exit 1 }" "$1/out/swim2/jobs.csv" && [ "$(wc -l < "$1/out/swim2/vcs.csv")" = 3 ]' _ "$TMP/repo"
t "alibaba v2017 adapter, no arguments" 0 '' '*' "alibaba-to-stretch: " \
    env PATH=$CLEAN sh -c 'cd "$1" && examples/alibaba-to-stretch.sh' _ "$TMP/repo"
tcheck "alibaba adapter wrote out/alibaba" test -s "$TMP/repo/out/alibaba/jobs.csv"
t "planetlab adapter, no arguments" 0 '' '*' '*' \
    env PATH=$CLEAN sh -c 'cd "$1" && examples/planetlab-to-tenantclass.sh' _ "$TMP/repo"
tcheck "planetlab adapter wrote out/planetlab" bash -c '[ "$(tail -n +2 "$1/out/planetlab/planetlab-tenants.csv" | wc -l)" = 1052 ]' _ "$TMP/repo"
t "google adapter, no arguments" 0 '' '*' "google-to-replplace: " \
    env PATH=$CLEAN bash -c 'cd "$1" && examples/google-to-replplace.sh' _ "$TMP/repo"
tcheck "google adapter wrote out/google-replplace" test -s "$TMP/repo/out/google-replplace/tenants.csv"
t "swim adapter: a bad file" 65 '' '' "swim-to-stretch: " \
    env PATH=$CLEAN sh -c 'cd "$1" && examples/swim-to-stretch.sh "$2"' _ "$TMP/repo" "$ROOT/tests/data/traceconv/tiny.swf"
# morpheus-eval.sh's summary at a small size where plan+dra misses exactly the
# floor (20 jobs, 10 days, seed 1): no finite "above the floor" ratio, printed
# as '-', never inf or nan (it printed "inf" and "infx").
t "morpheus-eval small: no inf or nan in the summary" 0 '' '*' '*' bash -c '
    PATH="$1/build/bin:$PATH" bash "$1/examples/morpheus-eval.sh" 20 10 1 "$2/me" > "$2/me.out" 2>/dev/null &&
    grep -q "^fewer violations (static / plan+dra): min [0-9.]*x" "$2/me.out" &&
    ! grep -qiE "inf|nan" "$2/me.out"' _ "$TMP/repo" "$TMP"

# ---- every script's usage and arguments (examples/common.sh) ------------------
# Each script runs as a program (its #! line: the sh ones under dash).
# --help and -h print the script's header comment (here taken with sed and
# bash, not common.sh's awk) and exit 0; an option a script does not take
# is one line on stderr and exit 64, before anything is created; so are too
# many arguments and a count that is not one.  Each runs in an empty
# directory, which must stay empty.
EX=$TMP/repo/examples
header() { # SCRIPT: its lines 2.. up to the first non-comment line, '# ' or '#' removed
    local l
    sed -n '2,$p' "$1" | while IFS= read -r l; do
        [[ $l == \#* ]] || break
        l=${l#\#}; printf '%s\n' "${l# }"
    done
}
scripts=()
for f in "$EX"/*.sh "$EX"/slurm/array.sh; do
    case ${f##*/} in common.sh | shardlib.sh) continue ;; esac
    scripts+=("$f")
done
tcheck "usage: 16 scripts are covered (a new one is covered without editing this file)" test ${#scripts[@]} = 16
mkdir -p "$TMP/empty"
for f in "${scripts[@]}"; do
    n=${f#"$EX/"}
    header "$f" > "$TMP/want-help"
    tcheck "usage: $n's header is its usage (at least 3 lines, the first names the script)" bash -c '
        [ "$(wc -l < "$1")" -ge 3 ] && head -1 "$1" | grep -q "${2##*/}"' _ "$TMP/want-help" "$n"
    for h in --help -h; do
        t "usage: $n $h" 0 '' "@$TMP/want-help" '' bash -c 'cd "$1" && "$2" "$3"' _ "$TMP/empty" "$f" "$h"
    done
    case $n in
        hadoop-streaming.sh) want="hadoop-streaming: unknown mode '--no-such-option'" ;;
        parallel-by-key.sh) want="parallel-by-key: the KEY column comes first, not '--no-such-option'" ;;
        *) s=${n##*/}; case $s in array.sh) ;; *) s=${s%.sh} ;; esac
           want="$s: unknown option '--no-such-option' ($s --help: the usage)" ;;
    esac
    t "usage: $n --no-such-option: exit 64, one line" 64 '' '' "$want" \
        bash -c 'cd "$1" && "$2" --no-such-option 2> err; rc=$?; cat err >&2; [ "$(wc -l < err)" = 1 ] && rm err || rc=99; exit $rc' \
        _ "$TMP/empty" "$f"
    tcheck "usage: $n --no-such-option created nothing" bash -c '[ -z "$(ls -A "$1")" ]' _ "$TMP/empty"
done
# positional scripts: one argument more than the usage names
for a in "nightly-plan 3" "google-to-replplace 5" "harvest-durability 2" "harvest-scheduling 2" "headline 4" \
    "jockey-models 4" "morpheus-eval 5" "planetlab-to-tenantclass 3" "task-memory 4" "vc-fairness 4" \
    "alibaba-to-stretch 3" "swim-to-stretch 3"; do
    set -- $a
    more=(); for ((k = 0; k < $2; k++)); do more+=(x$k); done
    t "usage: $1 with $2 arguments: exit 64" 64 '' '' "$1: at most $(($2 - 1)) arguments, not $2 ($1 --help: the usage)" \
        bash -c 'cd "$1" && "$2" "${@:3}"' _ "$TMP/empty" "$EX/$1.sh" "${more[@]}"
done
tcheck "usage: the extra arguments created nothing" bash -c '[ -z "$(ls -A "$1")" ]' _ "$TMP/empty"
ex_bad() { # NAME WANT-STDERR COMMAND...: exit 64 saying WANT, nothing created
    local name=$1 want=$2; shift 2
    t "usage: $name: exit 64" 64 '' '' "$want" bash -c 'cd "$1" && shift && "$@"' _ "$TMP/empty" "$@"
}
ex_bad "jockey-models SEEDS x" "jockey-models: SEEDS is a whole number of at least 1, not 'x'" bash "$EX/jockey-models.sh" x
ex_bad "jockey-models RUNS 0" "jockey-models: RUNS is a whole number of at least 1, not '0'" bash "$EX/jockey-models.sh" 1 out 0
ex_bad "task-memory DAYS 0" "task-memory: DAYS is a number above 0, not '0'" bash "$EX/task-memory.sh" 0
ex_bad "task-memory DAYS -1" "task-memory: unknown option '-1'" bash "$EX/task-memory.sh" -1
ex_bad "vc-fairness SEEDS 07" "vc-fairness: SEEDS is a whole number of at least 1, not '07'" bash "$EX/vc-fairness.sh" 3 out 07
ex_bad "headline JOBS 1e3" "headline: JOBS is a whole number of at least 1, not '1e3'" "$EX/headline.sh" 1e3
ex_bad "morpheus-eval a seed" "morpheus-eval: a seed of SEEDS is a whole number of at least 0, not 'two'" bash "$EX/morpheus-eval.sh" 20 10 "1 two"
ex_bad "morpheus-eval no seed" "morpheus-eval: SEEDS is a list of seeds, not ' '" bash "$EX/morpheus-eval.sh" 20 10 " "
ex_bad "morpheus-eval MORPHEUS_EVAL_JOBS" "morpheus-eval: MORPHEUS_EVAL_JOBS is a whole number of at least 1, not '0'" \
    env MORPHEUS_EVAL_JOBS=0 bash "$EX/morpheus-eval.sh" 20 10 1
ex_bad "harvest-durability JOBS" "harvest-durability: JOBS is a whole number of at least 1, not 'two'" \
    env JOBS=two bash "$EX/harvest-durability.sh"
ex_bad "harvest-scheduling ROOT" "harvest-scheduling: a factor of LINEAR or ROOT is a number above 0, not '1/2'" \
    env ROOT=1/2 bash "$EX/harvest-scheduling.sh"
ex_bad "google-to-replplace TENANTS" "google-to-replplace: TENANTS is a whole number of at least 1, not 'many'" \
    bash "$EX/google-to-replplace.sh" in.csv out many
ex_bad "alibaba-to-stretch -n 0" "alibaba-to-stretch: VCS (-n) is a whole number of at least 1, not '0'" "$EX/alibaba-to-stretch.sh" -n 0
ex_bad "alibaba-to-stretch -l" "alibaba-to-stretch: option -l needs a value" "$EX/alibaba-to-stretch.sh" -l
ex_bad "swim-to-stretch -p --x" "swim-to-stretch: unknown option '--x'" "$EX/swim-to-stretch.sh" -p --x
ex_bad "parallel-shards no -S" "parallel-shards: -S LOGINS is needed" bash "$EX/parallel-shards.sh" sloinfer
ex_bad "slurm/array.sh no TOOL" "array.sh: a TOOL to run is needed" bash "$EX/slurm/array.sh" -n 2
ex_bad "hadoop-streaming local: no TOOL" "hadoop-streaming: local: a TOOL to run is needed" bash "$EX/hadoop-streaming.sh" local job,run
ex_bad "hadoop-streaming submit: no TOOL" "hadoop-streaming: submit: INPUT, OUTPUT and a TOOL are needed" \
    bash "$EX/hadoop-streaming.sh" submit job,run /in /out
t "slurm/task.sh without WORK and TOOL: exit 64" 64 '' '' "task.sh: WORK and TOOL are needed" bash "$EX/slurm/task.sh"
tcheck "usage: the bad values created nothing" bash -c '[ -z "$(ls -A "$1")" ]' _ "$TMP/empty"

# Hadoop ships only the files named in -files into a task's directory: the
# printed command names common.sh too, and the mapper runs from a directory
# holding just those two files.
tcheck "hadoop-streaming submit ships common.sh with the script" bash -c '
    bash "$1/hadoop-streaming.sh" submit job,run /in /out skyfit | grep -qx "  -files $1/hadoop-streaming.sh,$1/common.sh \\\\"' _ "$EX"
tcheck "hadoop-streaming map from a task directory of the two shipped files" bash -c '
    mkdir -p "$2/task" && cp "$1/hadoop-streaming.sh" "$1/common.sh" "$2/task/" &&
    [ "$(cd "$2/task" && printf "job,run\nj1,r1\n" | bash ./hadoop-streaming.sh map job,run)" = "$(printf "j1\tr1")" ]' _ "$EX" "$TMP"

# Where the tools come from: $SLOKIT_BIN, else PATH, else the checkout's
# build/bin (the adapters above run on the last).  A stand-in tracegen
# records that it ran and fails, so the script stops at its first tool.
mkdir -p "$TMP/fake1" "$TMP/fake2"
for d in fake1 fake2; do
    printf '#!/bin/sh\necho %s > "%s/ran"\nexit 3\n' "$d" "$TMP" > "$TMP/$d/tracegen"
    chmod +x "$TMP/$d/tracegen"
    ln -sf "$ROOT/$BUILD/bin/stretch" "$TMP/$d/stretch"
done
t "tools: SLOKIT_BIN before PATH" 3 '' '*' '' env SLOKIT_BIN="$TMP/fake2" PATH="$TMP/fake1:$CLEAN" bash "$EX/vc-fairness.sh" 1 "$TMP/vf"
tcheck "tools: ... the tracegen of SLOKIT_BIN ran" grep -qx fake2 "$TMP/ran"
t "tools: PATH before the checkout's build" 3 '' '*' '' env PATH="$TMP/fake1:$CLEAN" bash "$EX/vc-fairness.sh" 1 "$TMP/vf"
tcheck "tools: ... the tracegen on PATH ran" grep -qx fake1 "$TMP/ran"
t "tools: SLOKIT_BIN without the tools: exit 1, said" 1 '' '' \
    "vc-fairness: tracegen not found (run make in the checkout, or set SLOKIT_BIN to the directory of the slokit tools)" \
    env SLOKIT_BIN="$TMP/nonexistent" PATH="$CLEAN" bash "$EX/vc-fairness.sh" 1 "$TMP/vf"
t "tools: no build and none on PATH: nightly-plan exit 1, said" 1 '' '' "nightly-plan: sloinfer not found" \
    env PATH="$CLEAN" bash -c 'mkdir -p "$1/nb/examples" && cp -r "$2"/* "$1/nb/examples/" && bash "$1/nb/examples/nightly-plan.sh" "$2/telemetry" "$1/nb/state"' _ "$TMP" "$EX"

# The scale-out recipes find the tools the same way: from a fresh clone, no
# slokit tool on PATH, parallel-shards.sh on this machine (-S :) runs the
# checkout's keyshard and sloinfer and writes what sloinfer writes.
tracegen -q runs --count 12 --days 5 -o "$TMP/sh-runs.csv"
sloinfer -q "$TMP/sh-runs.csv" > "$TMP/sh-one.csv"
t "tools: parallel-shards.sh from a fresh clone, no tool on PATH" 0 '' "@$TMP/sh-one.csv" '' \
    env PATH="$CLEAN" bash -c 'cd "$1" && "$2/parallel-shards.sh" -S : -n 3 -i "$3" sloinfer -q' _ "$TMP" "$EX" "$TMP/sh-runs.csv"

# a split that fails (no such input) removes the work directory it made
# (review, 2026-12-04: an empty ./slokit-shards.XXXXXX was left, unnamed)
t "parallel-shards.sh: a missing input leaves no work directory" 66 '' 'left: 0' '*' bash -c '
    mkdir -p "$1/psx" && cd "$1/psx" && "$2/parallel-shards.sh" -S : -i "$1/no-such.csv" sloinfer; rc=$?
    echo "left: $(ls -d slokit-shards.* 2>/dev/null | wc -l)"; exit $rc' _ "$TMP" "$EX"

# One way to say the usage: no script prints a range of its own lines.
tcheck "usage: no script prints a hard-coded range of its own lines" bash -c '! grep -nE "sed -n .?[0-9]+,[0-9]+p.? \"?\\\$0" "$1"/*.sh "$1"/slurm/*.sh' _ "$ROOT/examples"
tcheck "usage: every script but slurm/task.sh (sbatch runs a copy of it) sources common.sh" bash -c '
    for f in "$1"/*.sh "$1"/slurm/array.sh; do
        case ${f##*/} in common.sh | shardlib.sh) continue ;; esac
        grep -qE "^ *(\\.|source) .*common\\.sh\"?$" "$f" || { echo "$f"; exit 1; }
    done' _ "$ROOT/examples"
