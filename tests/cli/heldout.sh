# heldout: the per-key tools hold stdout until their whole input was read
# (lib/base/outfile's outf_open_held, issue 16 Deliver 5): a grouping or
# ordering error late in the input leaves nothing on stdout, not the rows of
# the groups before it; a run that succeeds writes the same bytes as before
# (those of -o FILE, which is not spooled); the spool is an unlinked file in
# $TMPDIR, so no run can leave it behind.

# ---- a late grouping error: stdout empty (before: rows fitted from part of a group) ----
# job00000's rows after its 50th moved to the end: before the hold, stdout had
# job00000's skyline fitted from its first rows (alloc 5; the whole job gives 6)
tracegen usage -q --count 3 --days 7 -o "$TMP/u.csv"
awk -F, 'NR == 1 { print; next } $1 == "job00000" && ++n > 50 { late = late $0 "\n"; next } { print }
    END { printf "%s", late }' "$TMP/u.csv" > "$TMP/ug.csv"
t "skyfit: late grouping error, stdout empty" 65 '' '' \
    "skyfit: $TMP/ug.csv:3938: input not grouped by job: job 'job00000' appears again after job 'job00002'" skyfit -q "$TMP/ug.csv"
tcheck "skyfit: the moved rows change job00000's skyline" bash -c '
    [ "$(skyfit -q -s "$1" | grep -c "^job00000,")" -gt 0 ] &&
    ! cmp -s <(skyfit -q -s "$1" | grep "^job00000,") <(head -3938 "$1" | head -n -1 | skyfit -q | grep "^job00000,")' _ "$TMP/ug.csv"
# task0001's samples after its 50th moved to the end (before: peak_mb 918.6 of
# its first rows on stdout, the whole task peaks at 1032)
tracegen taskmem -q --count 3 -o "$TMP/m.csv"
awk -F, 'NR == 1 { print; next } $1 == "task0001" && ++n > 50 { late = late $0 "\n"; next } { print }
    END { printf "%s", late }' "$TMP/m.csv" > "$TMP/ugm.csv"
t "peakgate: late grouping error, stdout empty" 65 '' '' \
    "input not grouped by task: task 'task0001' appears again after task 'task0003'" peakgate -q "$TMP/ugm.csv"
t "peakgate --simulate: late grouping error, stdout empty" 65 '' '' \
    "input not grouped by task" peakgate -q --simulate "$TMP/ugm.csv"
# tenantclass --features-only writes each tenant's features when it is complete:
# tenant00001's samples split around tenant00002 (before: its features from
# its first half were on stdout)
tracegen tenants -q --count 3 --days 2 -o "$TMP/tn.csv"
awk -F, 'NR == 1 { print; next } $1 == "tenant00001" && ++n > 100 { late = late $0 "\n"; next } { print }
    END { printf "%s", late }' "$TMP/tn.csv" > "$TMP/ugt.csv"
t "tenantclass --features-only: late grouping error, stdout empty" 65 '' '' \
    "input not grouped by tenant: tenant 'tenant00001' appears again" tenantclass -q --features-only "$TMP/ugt.csv"
t "sloinfer: a bad last row, stdout empty" 65 $'job,instance,submit,start,end,status\na,a1,0,10,20,ok\na,a2,3600,3610,3620,ok\na,a3,7200,7210,7220,ok\nb,b1,100,110,105,ok\n' '' \
    "<stdin>:5: end before start" sloinfer -q

# ---- a run that succeeds: the same bytes as -o FILE (not spooled) ----------------
# more than one 64 KiB copy chunk
tracegen usage -q --count 40 --days 7 -o "$TMP/u40.csv"
tcheck "skyfit: stdout = -o FILE = -o /dev/stdout, > 64 KiB" bash -c '
    skyfit -q "$1" -o "$2/sky.csv" && [ "$(wc -c < "$2/sky.csv")" -gt 65536 ] &&
    skyfit -q "$1" | cmp - "$2/sky.csv" && skyfit -q "$1" > "$2/sky2.csv" && cmp "$2/sky2.csv" "$2/sky.csv" &&
    skyfit -q "$1" -o /dev/stdout | cmp - "$2/sky.csv"' _ "$TMP/u40.csv" "$TMP"
tcheck "peakgate: stdout = -o FILE (profiles, --simulate)" bash -c '
    peakgate -q "$1" -o "$2/p.csv" && peakgate -q "$1" | cmp - "$2/p.csv" &&
    peakgate -q --simulate "$1" -o "$2/ps.csv" && peakgate -q --simulate "$1" | cmp - "$2/ps.csv"' _ "$TMP/m.csv" "$TMP"
tcheck "stretch: stdout = -o FILE" bash -c '
    tracegen vcs -q -o "$1/vcs.csv" && tracegen vcjobs -q --days 2 -o "$1/jobs.csv" &&
    stretch -q --reorder 10 "$1/vcs.csv" "$1/jobs.csv" -o "$1/st.csv" &&
    stretch -q --reorder 10 "$1/vcs.csv" "$1/jobs.csv" | cmp - "$1/st.csv"' _ "$TMP"

# ---- the spool: where, when it cannot be made or filled, never left behind ----------
t "TMPDIR missing: exit 73, nothing written" 73 '' '' \
    "skyfit: cannot hold standard output in $TMP/nonexistent: No such file or directory" \
    env TMPDIR="$TMP/nonexistent" skyfit -q "$TMP/u.csv"
t "TMPDIR missing: -o FILE does not need it" 0 '' '' '' env TMPDIR="$TMP/nonexistent" skyfit -q "$TMP/u.csv" -o "$TMP/sky3.csv"
if [ "$(id -u)" = 0 ] && mkdir -p "$TMP/small" && mount -t tmpfs -o size=16k tmpfs "$TMP/small" 2>/dev/null; then
    t "TMPDIR full: exit 74, nothing written" 74 '' '' \
        "skyfit: cannot hold standard output in $TMP/small: No space left on device (nothing written)" \
        env TMPDIR="$TMP/small" skyfit -q "$TMP/u40.csv"
    tcheck "TMPDIR full: nothing left in it" bash -c '[ -z "$(ls -A "$1")" ]' _ "$TMP/small"
    umount "$TMP/small"
else
    tskip "TMPDIR full: exit 74, nothing written" "needs root to mount a small tmpfs"
fi
# -o FILE on a full file system: one line naming the output, never a bare
# "TOOL: write error" before it (sloinfer and tracegen tenants said both)
if [ "$(id -u)" = 0 ] && mkdir -p "$TMP/full" && mount -t tmpfs -o size=64k tmpfs "$TMP/full" 2>/dev/null; then
    dd if=/dev/zero of="$TMP/full/fill" bs=4k 2>/dev/null
    tracegen -q runs --count 5 --days 3 > "$TMP/fr.csv"
    tracegen -q taskmem --count 3 > "$TMP/fm.csv"
    for c in "tracegen tenants --count 50" "tracegen usage --count 5 --days 3" "sloinfer $TMP/fr.csv" \
             "skyfit $TMP/u40.csv" "peakgate $TMP/fm.csv"; do
        tcheck "full disk, -o FILE: one write error line: ${c%% $TMP*}" bash -c '
            $1 -o "$2/x.csv" 2> "$2.err"; rc=$?
            [ "$rc" = 74 ] && [ "$(grep -c "write error" "$2.err")" = 1 ] &&
                grep -q "^${1%% *}: $2/x.csv: write error: No space left on device" "$2.err" && [ ! -e "$2/x.csv" ] ||
                { echo "exit $rc:"; cat "$2.err"; exit 1; }' _ "$c" "$TMP/full"
    done
    umount "$TMP/full"
else
    tskip "full disk, -o FILE: one write error line" "needs root to mount a small tmpfs"
fi
# while a run waits for input, its spool is already unlinked: TMPDIR stays
# empty and the process holds a deleted file there; SIGTERM leaves nothing
tcheck "spool unlinked at creation" bash -c '
    d=$1/spool; mkdir -p "$d"; rm -f "$1/fifo"; mkfifo "$1/fifo"
    TMPDIR=$d skyfit -q < "$1/fifo" > /dev/null 2>&1 & pid=$!
    exec 3> "$1/fifo"
    for i in $(seq 100); do ls -l /proc/$pid/fd 2>/dev/null | grep -q "$d/.slokit-held.*(deleted)" && break; sleep 0.1; done
    ls -l /proc/$pid/fd | grep -q "$d/.slokit-held.*(deleted)" || { echo "no deleted spool open"; kill $pid; exit 1; }
    [ -z "$(ls -A "$d")" ] || { echo "spool visible"; ls -A "$d"; kill $pid; exit 1; }
    kill -TERM $pid; exec 3>&-; wait $pid
    [ -z "$(ls -A "$d")" ]' _ "$TMP"
