#!/bin/bash
# tests/fuzz/harvest.sh [BUILD] — copy every crash and hang an AFL++ campaign
# saved (BUILD/out/<target>/default/{crashes,hangs}, default build-afl) to
# tests/fuzz/regress/<target>/ as crash-<id> / hang-<id>, where
# tests/cli/fuzz_regress.sh replays them.  Prints what it copied.
set -u
build=${1:-build-afl}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
for d in "$build"/out/*/default; do
    [ -d "$d" ] || continue
    t=$(basename "$(dirname "$d")")
    for kind in crashes hangs; do
        for f in "$d/$kind"/id:*; do
            [ -f "$f" ] || continue
            id=$(basename "$f" | sed 's/^id:\([0-9]*\),.*/\1/')
            dst=tests/fuzz/regress/$t/${kind%es}-$id
            [ "$kind" = hangs ] && dst=tests/fuzz/regress/$t/hang-$id
            [ "$kind" = crashes ] && dst=tests/fuzz/regress/$t/crash-$id
            mkdir -p "tests/fuzz/regress/$t"
            cmp -s "$f" "$dst" 2>/dev/null || { cp "$f" "$dst"; chmod 644 "$dst"; echo "$dst <- $f"; }
        done
    done
done
