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
tcheck "SIGTERM removes the temporary" bash -c '
    "$1" "$2" -o "$3/term.csv" & pid=$!; sleep 0.05; kill -TERM $pid; wait $pid
    ! ls -A "$3" | grep -q "^\.term\.csv\."' _ "$C" "$big" "$TMP"
tcheck "closed pipe: SIGPIPE, no message" bash -c '
    "$1" "$2" 2>"$3/pipe.err" | head -1 >/dev/null; s=("${PIPESTATUS[@]}")
    [ "${s[0]}" = 141 ] && [ ! -s "$3/pipe.err" ]' _ "$C" "$big" "$TMP"
rm -f "$big" "$TMP/out.csv"
