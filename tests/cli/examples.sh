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
