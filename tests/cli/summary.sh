# summary: a tool's summary on stderr comes after its outputs are complete,
# is whole lines, each beginning with the tool's name,
# and only when they were written (lib/base/diag's slk_summary, held until
# slk_finish).  A full disk at the last write leaves the warnings about the
# input and one error line, never a summary of output that is not there
# (tracegen usage, peakgate, tenantclass, traceconv, classpick and replplace
# printed theirs first, and tracegen usage summarized the part it wrote
# before the error).

# sumcheck NAME ARGV...: every fuzz target's command on its seed, without -q.
# S: stderr of the run as given (stdout to /dev/null); F: stderr of the run
# with stdout, and every /dev/null output the command names, on /dev/full.
# F must be the lines of S before its summary (a suffix of S, not empty when
# S is not) and then the write error lines (one an output), exit 74.  A run that writes
# nothing to a full device (keyshard's shards are files) must say what S says.
sumcheck() {
    local name=$1 seed=$2 a rs rf
    local -a argv=() full=()
    shift 2
    for a in "$@"; do
        [ "$a" = -q ] && continue
        a=${a//@@/$seed}
        argv+=("$a")
        full+=("${a//\/dev\/null//dev/full}")
    done
    CASE="summary after the outputs: $name"
    timeout 60 "${argv[@]}" </dev/null >/dev/null 2>"$TMP/.s"; rs=$?
    timeout 60 "${full[@]}" </dev/null >/dev/full 2>"$TMP/.f"; rf=$?
    if [ "$rs" != 0 ]; then
        _fail "the run on /dev/null exited $rs: $(tail -1 "$TMP/.s")"
    elif grep -qvE "^${argv[0]##*/}: " "$TMP/.s" || { [ -s "$TMP/.s" ] && [ -n "$(tail -c 1 "$TMP/.s")" ]; }; then
        # whole lines, each the tool's (replay wrote its regime rows' newlines
        # to stderr at once and the rest to the held summary: two blank lines,
        # then its rows run together)
        _fail "stderr is not whole lines of '${argv[0]##*/}: ...': $(grep -vnE "^${argv[0]##*/}: " "$TMP/.s" | head -2 | tr "\n" " ")"
    elif [ "$rf" = 0 ]; then
        # (the same but for the seconds it took)
        cmp -s <(sed -E 's/[0-9.]+ s$/T s/' "$TMP/.s") <(sed -E 's/[0-9.]+ s$/T s/' "$TMP/.f") && PASS=$((PASS + 1)) || _fail "a run that wrote nothing to /dev/full said something else: $(diff "$TMP/.s" "$TMP/.f" | head -3)"
    else
        if /usr/bin/python3 - "$TMP/.s" "$TMP/.f" "$rf" "${argv[0]}" <<'EOF'
import sys
s = open(sys.argv[1]).read().splitlines()
f = open(sys.argv[2]).read().splitlines()
rf, tool = sys.argv[3], sys.argv[4]
why = None
n = next((i for i, l in enumerate(f) if "write error" in l), len(f))  # the errors: one an output
if rf != "74":
    why = "exit %s on a full device, want 74" % rf
elif n == len(f) or any(not l.startswith(tool + ": ") or "write error" not in l
                        or "No space left on device" not in l for l in f[n:]):
    why = "the write errors are not the last lines: %r" % f[n:]
elif f[:n] != s[:n]:
    why = "the lines before the error are not the start of the run's own stderr: %r" % f[:n]
elif s and n == len(s):
    why = "the summary of a run that failed to write was printed: %r" % s[-1]
if why:
    open(sys.argv[2][:-2] + ".why", "w").write(why + "\n")
    sys.exit(1)
EOF
        then PASS=$((PASS + 1)); else _fail "$(cat "$TMP/.why")"; fi
    fi
}
# reprov's live policies print their summary at once by design (each decision
# went out as it was made): reprov(1)
live() { case $1 in reprov | reprov-plan | reprov-jockey | reprov-jockey-table | reprov-utility) return 0 ;; esac; return 1; }
any() { return 0; }
sumtarget() { live "$1" || sumcheck "$@"; }
probe_targets any sumtarget

# the modes no fuzz target drives
D=$ROOT/tests/data
tracegen -q jobruns --count 3 -o "$TMP/jobruns.csv"
tracegen -q storage --count 20 -o "$TMP/storage.csv"
tracegen -q taskmem --count 4 -o "$TMP/tm.csv"
tracegen -q tenants --count 12 -o "$TMP/ten.csv"
for k in $(tracegen --list | awk 'NF && $1 ~ /^[a-z]+$/ { print $1 }' | sort -u); do
    sumcheck "tracegen $k" _ tracegen "$k" --count 4 --days 3
done
sumcheck "peakgate --fillers" _ peakgate --fillers "$TMP/tm.csv"
sumcheck "peakgate --simulate" _ peakgate --simulate --train 0.5 "$TMP/tm.csv"
sumcheck "tenantclass --features-only" _ tenantclass --features-only "$TMP/ten.csv"
sumcheck "tenantclass --classes" _ tenantclass --classes /dev/null "$TMP/ten.csv"
sumcheck "replplace --simulate" _ replplace --simulate --blocks 2000 --accesses 1000 --days 3 "$TMP/storage.csv"
sumcheck "replplace --classes" _ replplace --classes /dev/null "$TMP/storage.csv" "$ROOT/tests/fuzz/fixed/replplace.blocks.csv"
sumcheck "reprov --compare-models" _ reprov --compare-models --train 0.5 --reps 3 "$TMP/jobruns.csv"
sumcheck "reprov --evaluate-loop" _ reprov --evaluate-loop --train 0.5 "$TMP/jobruns.csv"
sumcheck "reprov --build-table" _ reprov --build-table --grid 0.25 "$D/reprov/history.csv"
sumcheck "keyshard --merge" _ keyshard --merge "$TMP/tm.csv" "$TMP/tm.csv"
sumcheck "traceconv google-runs (real trace)" _ traceconv google-runs "$DATA/google-2011/job_events-part-00001-of-00500.csv.gz"

# a check that fails on outputs that were written (exit 1) still summarizes
# them: skyfit --strict with a job of one run (job00005 of this dump)
tracegen -q usage --count 10 --days 10 -o "$TMP/u6.csv"
t "--strict failure: the summary is printed" 1 '' '*' "skyfit: 10 jobs: 9 fitted, 1 too few runs" \
    skyfit --strict "$TMP/u6.csv"
# the summary is the last thing on stderr, after the note about job00005
tcheck "summary after the notes" bash -c '
    skyfit "$1" 2>&1 >/dev/null | sed -n 1p | grep -q "^skyfit: job .job00005.: not fitted" &&
    skyfit "$1" 2>&1 >/dev/null | sed -n 2p | grep -q "^skyfit: 10 jobs: "' _ "$TMP/u6.csv"
