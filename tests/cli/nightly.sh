# The nightly job (examples/nightly-plan.sh): a first night, an identical
# re-run (idempotent, byte-identical plan), a night where one job changed
# (only its reservation moves), a failing night (last night's state intact).
N="$ROOT/examples/nightly-plan.sh"
tel="$TMP/tel"; st="$TMP/state"
rm -rf "$tel" "$st"; mkdir -p "$tel"
tracegen -q runs --count 12 --days 7 -o "$tel/runs.csv"
tracegen -q usage --count 12 --days 7 -o "$tel/usage.csv"
export CAPACITY=cores=600,mem=2400000 SLOKIT_BIN="$ROOT/$BUILD/bin"

t "first night" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "report: all jobs new" grep -q "changes:   12 new, 0 changed, 0 gone" "$st/report.txt"
tcheck "report: placement summary" grep -qE "^plan: +[0-9]+ requests: [0-9]+ placed" "$st/report.txt"
tcheck "plan is valid (lcmpack reads it back)" lcmpack -q --plan "$st/plan.csv" --capacity cores=600,mem=2400000 -o "$TMP/reread.csv"
tcheck "one YARN body per reservation" bash -c '
    n=$(awk -F, "NR > 1 && \$3 != \"end\" { r[\$2] } END { print length(r) }" "$1/plan.csv")
    [ "$(wc -l < "$1/yarn.jsonl")" = "$n" ] && [ "$n" -gt 0 ]' _ "$st"
tcheck "YARN bodies are JSON" bash -c 'while read -r l; do printf "%s" "$l" | /usr/bin/python3 -m json.tool >/dev/null || exit 1; done < "$1/yarn.jsonl"' _ "$st"
tcheck "plan picture is SVG" /usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$st/plan.svg"
cp "$st/plan.csv" "$TMP/plan.night1"

t "same input again" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "nothing changed" grep -q "changes:   0 new, 0 changed, 0 gone" "$st/report.txt"
tcheck "plan byte-identical" cmp "$st/plan.csv" "$TMP/plan.night1"

# job00003's runs now use twice the containers: only its reservation is redone
awk -F, -v OFS=, 'NR > 1 && $1 == "job00003" { $4 = $4 * 2 } 1' "$tel/usage.csv" > "$tel/u2" && mv "$tel/u2" "$tel/usage.csv"
t "one job changed" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "report: 1 changed" grep -q "changes:   0 new, 1 changed, 0 gone" "$st/report.txt"
tcheck "other reservations byte-identical" bash -c '
    rows() { awk -F, "NR > 1 && \$3 != \"end\" && \$2 != \"job00003\"" "$1"; }
    diff <(rows "$1") <(rows "$2")' _ "$TMP/plan.night1" "$st/plan.csv"

# a failing night leaves the state exactly as it was, and no debris
cp "$st/plan.csv" "$TMP/plan.night3"
t "failing night" 1 '' '*' 'last night' env CAPACITY=cores=0,mem=0 bash "$N" "$tel" "$st"
tcheck "plan untouched after failure" cmp "$st/plan.csv" "$TMP/plan.night3"
tcheck "no scratch left" bash -c '! ls -A "$1" | grep -q tonight' _ "$st"
t "missing telemetry" 1 '' '' 'nightly-plan: /nonexistent/runs.csv: missing' bash "$N" /nonexistent "$st"
tcheck "crontab example in README" grep -qE "^[0-9]+ [0-9]+ \* \* \* .*nightly-plan.sh" "$ROOT/README.md"
