# Reliability properties shared by every tool through lib/base/outfile and lib/base/diag:
# kill -9 at random points while writing -o FILE never leaves FILE truncated
# or mixed; a closed downstream pipe ends a tool quietly by SIGPIPE.
C="$ROOT/$BUILD/tests/csvcat"

# A large input so that the writer is caught mid-way (about 40 MB).
big="$TMP/big.csv"
awk 'BEGIN { print "job,run,t,containers"; for (i = 0; i < 1500000; i++) printf "job%05d,r%d,%d,%d\n", i % 9973, i % 7, i * 60, i % 13 }' > "$big"
printf 'old,content\n1,2\n' > "$TMP/out.csv"
cp "$TMP/out.csv" "$TMP/old.csv"
for delay in 0.01 0.05 0.1 0.2 0.3 0.5; do
    "$C" "$big" -o "$TMP/out.csv" & pid=$!
    sleep "$delay"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    tcheck "kill -9 after ${delay}s: old or complete, never partial" bash -c '
        cmp -s "$1" "$2" || cmp -s "$1" "$3"' _ "$TMP/out.csv" "$TMP/old.csv" "$big"
done
t "completed run replaces the file" 0 '' '' '' "$C" "$big" -o "$TMP/out.csv"
tcheck "replaced file is complete" cmp "$TMP/out.csv" "$big"
# SIGKILL leaves the temporary (nothing can catch it); the next run writing
# into the directory removes such debris: ours by name and owner, unlocked
# (a live writer holds its temporary's flock), over a minute old.  A young
# one, a locked one, a file merely named alike and a visible one (the
# user's, e.g. an output named g.csv.slokit.backup) stay.
tcheck "kill -9 left temporaries behind" bash -c 'ls -A "$1" | grep -q "^\.out\.csv\.slokit\.......$"' _ "$TMP"
sw="$TMP/sweep"; mkdir -p "$sw"
for f in .a.csv.slokit.Old001 .b.csv.slokit.Old002 .c.csv.slokit.Young1 .d.csv.slokit.Locked .e.csv.backup .f.csv.slokit.toolong7 \
    g.csv.slokit.backup; do
    printf 'x\n' > "$sw/$f"
done
touch -d '-2 min' "$sw/.a.csv.slokit.Old001" "$sw/.b.csv.slokit.Old002" "$sw/.d.csv.slokit.Locked" "$sw/.e.csv.backup" \
    "$sw/.f.csv.slokit.toolong7" "$sw/g.csv.slokit.backup"
flock "$sw/.d.csv.slokit.Locked" sleep 30 & lockpid=$!
for _ in $(seq 50); do flock -n "$sw/.d.csv.slokit.Locked" true || break; sleep 0.1; done
t "stale temporaries removed, each said" 0 '' '' "csvcat: removed $sw/.a.csv.slokit.Old001, the temporary of a run that was killed before it finished
csvcat: removed $sw/.b.csv.slokit.Old002, the temporary of a run that was killed before it finished" \
    sh -c '"$1" "$2" -o "$3/new.csv" 2>&1 >/dev/null | sort >&2' _ "$C" "$TMP/old.csv" "$sw"
tcheck "young, locked, look-alike and visible files stay" bash -c '
    cd "$1" && [ "$(ls -A | LC_ALL=C sort | tr "\n" " ")" = ".c.csv.slokit.Young1 .d.csv.slokit.Locked .e.csv.backup .f.csv.slokit.toolong7 g.csv.slokit.backup new.csv " ]' _ "$sw"
kill "$lockpid" 2>/dev/null; wait "$lockpid" 2>/dev/null
touch -d '-2 min' "$TMP"/.out.csv.slokit.* 2>/dev/null
t "-q: removed without a word" 0 '' '' '' "$C" -q "$TMP/old.csv" -o "$TMP/out2.csv"
tcheck "the kill -9 debris is gone" bash -c '! ls -A "$1" | grep -q "^\.out\.csv\.slokit\."' _ "$TMP"
tcheck "SIGTERM removes the temporary" bash -c '
    "$1" "$2" -o "$3/term.csv" & pid=$!; sleep 0.05; kill -TERM $pid; wait $pid
    ! ls -A "$3" | grep -q "^\.term\.csv\."' _ "$C" "$big" "$TMP"
tcheck "closed pipe: SIGPIPE, no message" bash -c '
    "$1" "$2" 2>"$3/pipe.err" | head -1 >/dev/null; s=("${PIPESTATUS[@]}")
    [ "${s[0]}" = 141 ] && [ ! -s "$3/pipe.err" ]' _ "$C" "$big" "$TMP"
# SIGABRT (a library's failed assertion: FFTW aborts when it cannot
# allocate) removes the temporary as SIGTERM does; it was left for the next
# run's sweep (session-21 fault-injection audit).
ab="$TMP/abrt"; mkdir -p "$ab"; printf 'old\n' > "$ab/out.csv"; mkfifo "$ab/in"
"$C" "$ab/in" -o "$ab/out.csv" & pid=$!
exec 3>"$ab/in"; head -c 3000000 "$big" >&3   # the writer waits for the rest, its temporary open
for _ in $(seq 50); do ls -A "$ab" | grep -q slokit && break; sleep 0.1; done
ls -A "$ab" | grep -q slokit && had=1 || had=0
kill -ABRT "$pid" 2>/dev/null; { wait "$pid"; } 2>/dev/null; rc=$?; exec 3>&-   # quiet: no "Aborted" in the log
tcheck "SIGABRT: no temporary left, the old file kept" bash -c '
    echo "temporary before: $3, exit $4"; [ "$3" = 1 ] && [ "$4" = 134 ] && ! ls -A "$1" | grep -q slokit &&
    [ "$(cat "$1/out.csv")" = old ]' _ "$ab" "$big" "$had" "$rc"

rm -f "$big" "$TMP/out.csv"

