# Conventions every tool keeps (README "CSV conventions", docs/HACKING.md):
# GNU --version, --help ending with worked examples, a man page with EXIT
# STATUS and EXAMPLES, exit 64 on a bad option, 66 on a missing input file,
# bash completion that knows the tool.
for bin in $(ls "$ROOT/$BUILD/bin"); do
    t "$bin --version" 0 '' '*' '' "$bin" --version
    tcheck "$bin --version is GNU format" bash -c '"$1" --version | head -1 | grep -qE "^$1 \(slokit\) [0-9]+\.[0-9]+\.[0-9]+$"' _ "$bin"
    tcheck "$bin --help ends with examples" bash -c '"$1" --help | grep -qi "^ *examples\?:"' _ "$bin"
    # argp wraps at 79 columns, so a longer example line would break mid-command
    tcheck "$bin --help examples fit in 79 columns" bash -c 'ARGP_HELP_FMT=rmargin=1000 "$1" --help |
        awk "f && length(\$0) > 79 { print; bad = 1 } /^ *[Ee]xamples?:/ { f = 1 } END { exit bad }"' _ "$bin"
    t "$bin bad option" 64 '' '' 'unrecognized option' "$bin" --no-such-option
    tcheck "$bin man page" bash -c 'm="$ROOT/man/$1.1"; [ -f "$m" ] && grep -q "^\.SH EXIT STATUS" "$m" && grep -q "^\.SH EXAMPLES" "$m" && grep -q "^\.SH OPTIONS" "$m" && man -l "$m" >/dev/null 2>&1' _ "$bin"
    tcheck "$bin in bash completion" grep -qw "$bin" "$ROOT/contrib/slokit.bash-completion"
done
tcheck "completion script parses" bash -n "$ROOT/contrib/slokit.bash-completion"
tcheck "completion offers skyplot options" bash -c '
    source "$ROOT/contrib/slokit.bash-completion"
    COMP_WORDS=(skyplot --te); COMP_CWORD=1; _slokit_complete skyplot --te skyplot
    [ "${COMPREPLY[*]}" = "--term" ]'
