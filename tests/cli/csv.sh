# CSV layer: the reader's handling of real-world and broken CSV, through the
# csvcat test driver (tests/unit/csvcat.c), which copies CSV through lib/csvio.
C="$ROOT/$BUILD/tests/csvcat"
D="$ROOT/tests/data/csv"

t "copy simple"         0 $'a,b\n1,2\n' $'a,b\n1,2' '' "$C"
t "quoted fields kept"  0 "@$D/quoted.csv" @"$D/quoted.csv" '' "$C"
t "bom and crlf"        0 "@$D/bom_crlf.csv" $'a,b\n1,2\n3,4' '' "$C"
t "blank line skipped"  0 "@$D/blankline.csv" $'a,b\n1,2\n3,4' '' "$C"
t "header only"         0 "@$D/header_only.csv" 'a,b' '' "$C"
t "empty input"         65 "@$D/empty.csv" '' 'csvcat: <stdin>:1: empty input (no header row)' "$C"
t "ragged row"          65 "@$D/ragged.csv" '*' 'csvcat: <stdin>:3: expected 2 fields (as in the header), found 1' "$C"
t "ragged row names file" 65 '' '*' "csvcat: $D/ragged.csv:3: expected 2 fields" "$C" "$D/ragged.csv"
t "unterminated quote"  65 "@$D/unterminated.csv" '*' 'csvcat: <stdin>:2: unterminated quoted field' "$C"
t "nul byte"            65 "@$D/nul.csv" '*' 'csvcat: <stdin>:2: NUL byte in field' "$C"
t "duplicate header"    65 "@$D/duphdr.csv" '*' "csvcat: <stdin>:1: duplicate column 'a' in header" "$C"
t "binary garbage"      65 "@$D/garbage.bin" '*' 'csvcat: <stdin>:' "$C"
t "missing file"        66 '' '' 'csvcat: /nonexistent.csv: cannot open: No such file or directory' "$C" /nonexistent.csv
t "bad number line"     65 "@$D/badnum.csv" '*' "csvcat: <stdin>:4: column 'b': invalid number '1x'" "$C" --sum b
t "missing column"      65 $'a,b\n1,2\n' '' "csvcat: <stdin>:1: missing required column 'zz'" "$C" --sum zz
t "renamed column"      0 $'a,b\n1,2\n3,4\n' '*' 'sum=6' "$C" --sum v --col v=b
t "empty value required" 65 $'a,b\n1,\n' '*' "csvcat: <stdin>:2: column 'b': missing value" "$C" --sum b
t "nan rejected"        65 $'a,b\n1,nan\n' '*' "invalid number 'nan'" "$C" --sum b
t "tsv in and out"      0 $'a\tb\n1\t2,3\n' $'a\tb\n1\t2,3' '' "$C" --tsv
t "delimiter option"    0 $'a;b\n1;2\n' $'a;b\n1;2' '' "$C" -d ';'
t "bad delimiter"       64 '' '' "invalid value for --delimiter" "$C" -d ';;'
t "no header + names"   0 $'1,2\n3,4\n' $'x,y\n1,2\n3,4' '' "$C" -H --names x,y
t "no header default names" 0 $'1,2\n' $'c1,c2\n1,2' '' "$C" -H
t "no output header"    0 $'a,b\n1,2\n' '1,2' '' "$C" --no-output-header
t "version GNU format"  0 '' '*' '' "$C" --version
t "unknown option"      64 '' '' 'unrecognized option' "$C" --frobnicate

tcheck "1 MB field round trip" cmp "$D/bigfield.csv" <("$C" <"$D/bigfield.csv")
tcheck "long quoted multi-line record line numbers" bash -c '
    printf "a,b\n\"x\ny\",1\n2\n" | "$1" 2>&1 >/dev/null | grep -q "<stdin>:4: expected 2 fields"' _ "$C"

# -o: the old file stays intact when the run fails, and is replaced when it succeeds.
printf 'old\n' > "$TMP/keep.csv"
t "failed run keeps -o file" 65 "@$D/ragged.csv" '' '*' "$C" -o "$TMP/keep.csv"
tcheck "old content intact" grep -qx old "$TMP/keep.csv"
tcheck "no temporary left" bash -c '! ls -A "$1" | grep -q "^\.keep"' _ "$TMP"
t "successful run replaces -o file" 0 $'a\n1\n' '' '' "$C" -o "$TMP/keep.csv"
tcheck "new content there" diff "$TMP/keep.csv" <(printf 'a\n1\n')
t "unwritable -o"       73 $'a\n1\n' '' 'cannot create' "$C" -o /nonexistent-dir/x.csv
tcheck "full disk is an error" bash -c 'printf "a\n1\n" | "$1" > /dev/full; [ $? = 74 ]' _ "$C"
tcheck "closed pipe is quiet" bash -c '
    yes "1,2" | head -200000 | sed "1i a,b" | "$1" 2>"$2/pipe.err" | head -1 >/dev/null; [ ! -s "$2/pipe.err" ]' _ "$C" "$TMP"

# Outputs that are not plain files: a symlink is followed (its target is
# replaced, the link stays); /dev/stdout is written in place even when it
# points at a regular file, never renamed over (as root that would replace
# /dev/stdout itself).
printf 'target\n' > "$TMP/target.csv"; ln -sf "$TMP/target.csv" "$TMP/link.csv"
t "-o through a symlink" 0 $'a\n1\n' '' '' "$C" -o "$TMP/link.csv"
tcheck "link kept, target replaced" bash -c '[ -L "$1/link.csv" ] && diff "$1/target.csv" <(printf "a\n1\n")' _ "$TMP"
tcheck "-o /dev/stdout into a regular file" bash -c '
    printf "a\n1\n" | "$1" -o /dev/stdout > "$2/viastdout.csv"; rc=$?
    ok=1; [ -L /dev/stdout ] || { ok=0; rm -f /dev/stdout; ln -s /proc/self/fd/1 /dev/stdout; }
    [ $rc = 0 ] && [ $ok = 1 ] && diff "$2/viastdout.csv" <(printf "a\n1\n")' _ "$C" "$TMP"
tcheck "-o /dev/null leaves the device" bash -c '
    printf "a\n1\n" | "$1" -o /dev/null; [ -c /dev/null ]' _ "$C"

# times beyond |t| <= 1e11 s (year 5138) are data errors; CSVR_BOUNDED values beyond 1e15
t "time 2^63 refused" 65 $'t,v\n9223372036854775807,1\n' '*' "csvcat: <stdin>:2: column 't': time '9223372036854775807' out of range" "$C" --time t
t "time -1e300 refused" 65 $'t,v\n-1e300,1\n' '*' "column 't': time '-1e300' out of range" "$C" --time t
t "ISO time fine" 0 $'t,v\n2026-01-05T00:00:00Z,1\n' '*' '' "$C" --time t
t "bounded 1e300 refused" 65 $'t,v\n1,1e300\n' '*' "csvcat: <stdin>:2: column 'v': number '1e300' out of range" "$C" --bounded v
t "bounded 1e15 fine" 0 $'t,v\n1,1e15\n' '*' '' "$C" --bounded v
