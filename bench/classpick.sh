# bench/classpick.sh — Algorithm 1 throughput (issue 6): class choices for 1 M
# jobs against a 200-tenant class table, against a plain pass of the lib's CSV
# layer over the same job file (csvcat), both timed in this run; and the
# month-long --simulate comparison with YARN-PT.
source "$ROOT/bench/lib.sh"
C="$(dirname "$BIN")/tests/csvcat"
d="$BENCH_TMP/classpick"; mkdir -p "$d"
if [ ! -s "$d/cl.csv" ]; then
    tracegen -q tenants --count 200 --days 30 --truth "$d/truth.csv" -o "$d/util.csv"
    tenantclass -q --servers "$d/truth.csv" --classes "$d/cl.csv" "$d/util.csv" > "$d/tenants.csv"
fi
n=$(size 200000 1000000)
# integer arithmetic only: the same file under every awk
[ -s "$d/jobs$n.csv" ] || awk -v n="$n" 'BEGIN { print "job,last_duration,containers"
    for (i = 0; i < n; i++) printf "j%07d,%s,%d\n", i, (i % 10 == 0) ? "" : (i * 7919) % 1000, 1 + (i * 104729) % 50 }' > "$d/jobs$n.csv"
ref=$(best 3 "$C" "$d/jobs$n.csv")
mark
pick=$(best 3 classpick -q --classes "$d/cl.csv" --no-book "$d/jobs$n.csv")
row "pick classes for $n jobs, no booking" "$pick" "csvcat, a plain CSV pass" "$ref" "$(peak)"
mark
book=$(best 3 classpick -q --classes "$d/cl.csv" "$d/jobs$n.csv")
row "pick classes for $n jobs, booking" "$book" "csvcat, a plain CSV pass" "$ref" "$(peak)"
echo "bench classpick: $n jobs, 200 tenants: ${pick} s without booking, ${book} s booking containers ($(ratio "$pick" "$ref")x and $(ratio "$book" "$ref")x a plain CSV pass, ${ref} s)"
sim=$(best 1 classpick -q --simulate --classes "$d/cl.csv" --tenants "$d/tenants.csv" --series "$d/util.csv" --servers "$d/truth.csv")
echo "bench classpick: --simulate, 200 tenants, one month, class-aware and YARN-PT: ${sim} s"
