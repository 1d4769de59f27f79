# make install / make uninstall into a DESTDIR: the tools, their man pages,
# slokit(7), bash completion and the examples (the nightly plan a cron job
# runs, with its sample telemetry); the installed nightly plan runs from
# there with the installed tools alone; uninstall leaves no file behind.
# (-o all: this build is already made; make is not asked to rebuild it.)
dest=$TMP/root
rm -rf "$dest"
t "make install into DESTDIR" 0 '' '' '' make -s -C "$ROOT" -o all install IBIN="$ROOT/$BUILD/bin" DESTDIR="$dest" PREFIX=/usr/local
tools=$(cd "$ROOT/cmd" && ls *.c | sed 's/\.c$//')
tcheck "every tool, its man page and completion installed" bash -c '
    for t in $2; do
        [ -x "$1/usr/local/bin/$t" ] && [ -f "$1/usr/local/share/man/man1/$t.1" ] &&
            [ -e "$1/usr/local/share/bash-completion/completions/$t" ] || { echo "missing for $t"; exit 1; }
    done
    [ -f "$1/usr/local/share/man/man7/slokit.7" ]' _ "$dest" "$tools"
tcheck "the installed tools are this build's" cmp "$dest/usr/local/bin/lcmpack" "$ROOT/$BUILD/bin/lcmpack"
tcheck "examples installed, scripts executable, the sourced common.sh and shardlib.sh not" bash -c '
    e=$1/usr/local/share/slokit/examples
    [ -x "$e/nightly-plan.sh" ] && [ -x "$e/slurm/array.sh" ] && [ -f "$e/telemetry/runs.csv" ] &&
        [ -f "$e/common.sh" ] && [ ! -x "$e/common.sh" ] && [ -f "$e/shardlib.sh" ] && [ ! -x "$e/shardlib.sh" ] &&
        [ "$(ls "$e"/*.sh | wc -l)" = "$(ls "$2"/examples/*.sh | wc -l)" ]' _ "$dest" "$ROOT"
# the nightly plan from the installed copy, PATH with the installed tools
# and the system only (no build/bin beside it)
t "installed nightly plan runs" 0 '' '*' '*' env PATH="$dest/usr/local/bin:/usr/bin:/bin" \
    bash "$dest/usr/local/share/slokit/examples/nightly-plan.sh" "$dest/usr/local/share/slokit/examples/telemetry" "$TMP/istate"
tcheck "installed nightly plan: a checksummed plan and a report" bash -c '
    [ -s "$1/plan.csv" ] && [ -s "$1/report.txt" ] && "$2/usr/local/bin/lcmpack" -q --plan "$1/plan.csv" --capacity cores=1000,mem=4096000 -o /dev/null' _ "$TMP/istate" "$dest"
t "make uninstall" 0 '' '' '' make -s -C "$ROOT" -o all uninstall DESTDIR="$dest" PREFIX=/usr/local
tcheck "uninstall leaves no file" bash -c '[ -z "$(find "$1" -type f -o -type l)" ]' _ "$dest"
rm -rf "$dest" "$TMP/istate"
