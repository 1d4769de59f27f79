# examples/common.sh — what every script of examples/ shares, sourced (POSIX
# sh: the sh scripts source it too): its usage, its arguments and where its
# tools come from.  One way each, so `SCRIPT --help` and a mistyped option
# behave alike in every script:
#
#   ex_usage SCRIPT    SCRIPT's header comment (its second line up to the
#                      first line that is not a comment) without the '# ',
#                      on standard output: the usage, as the file says it
#   ex_help SCRIPT ARG ARG -h or --help: the usage, exit 0 (a script whose
#                      first argument may be an option calls this first)
#   ex_fail NAME MSG   one line "NAME: MSG (NAME --help: the usage)" on
#                      standard error, exit 64 (a bad argument)
#   ex_args NAME SCRIPT MAX ARG...
#                      a script of positional arguments only: -h or --help
#                      among them, the usage and exit 0; another argument
#                      that starts with '-', "unknown option"; more than
#                      MAX, "at most MAX arguments"; both through ex_fail
#   ex_badopt NAME O OPTARG OPTIND ARG...
#                      a script that reads its options with getopts (in
#                      silent mode, ':' first, with h for the usage) calls
#                      this for getopts' ':' and '?', with its own
#                      arguments: "option -X needs a value" or "unknown
#                      option '-X'" ('--bogus' whole) through ex_fail
#   ex_whole NAME WHAT VALUE [MIN]
#                      VALUE a whole number of at least MIN, 0 or 1
#                      (default 1; at most 9 digits, no leading 0), else
#                      ex_fail "WHAT is a whole number of at least MIN ..."
#   ex_number NAME WHAT VALUE
#                      VALUE a decimal number above 0 (0.5, 3, 2.), else
#                      ex_fail "WHAT is a number above 0 ..."
#   ex_tools NAME ROOT TOOL...
#                      puts the slokit tools on PATH: the directory
#                      $SLOKIT_BIN when set; else the tools already on PATH
#                      (an installed slokit, or the build a test put
#                      there); else this checkout's ROOT/build/bin.  A TOOL
#                      found nowhere: "NAME: TOOL not found (...)", exit 1.

# shellcheck shell=sh

ex_usage() {
    awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$1"
}

ex_help() {
    case ${2-} in -h | --help) ex_usage "$1"; exit 0 ;; esac
}

ex_fail() {
    echo "$1: $2 ($1 --help: the usage)" >&2
    exit 64
}

ex_args() {
    _ex_name=$1 _ex_script=$2 _ex_max=$3
    shift 3
    for _ex_a in "$@"; do ex_help "$_ex_script" "$_ex_a"; done
    for _ex_a in "$@"; do
        case $_ex_a in -?*) ex_fail "$_ex_name" "unknown option '$_ex_a'" ;; esac
    done
    [ $# -le "$_ex_max" ] || ex_fail "$_ex_name" "at most $_ex_max arguments, not $#"
}

ex_badopt() {
    _ex_name=$1 _ex_o=$2 _ex_c=$3 _ex_i=$4
    shift 4
    case $_ex_o:$_ex_c in
    ::*) ex_fail "$_ex_name" "option -$_ex_c needs a value" ;;
    *:-) # a long option: shells leave OPTIND on it (bash) or after it (dash)
        for _ex_k in "$_ex_i" $((_ex_i - 1)); do
            [ "$_ex_k" -ge 1 ] && [ "$_ex_k" -le $# ] || continue
            eval "_ex_a=\${$_ex_k}"
            case $_ex_a in --?*) ex_fail "$_ex_name" "unknown option '$_ex_a'" ;; esac
        done
        ex_fail "$_ex_name" "unknown option '--'" ;;
    *) ex_fail "$_ex_name" "unknown option '-$_ex_c'" ;;
    esac
}

ex_whole() {
    case $3 in
    0) [ "${4-1}" = 0 ] && return 0 ;;
    '' | *[!0-9]* | 0* | ??????????*) ;;
    *) return 0 ;;
    esac
    ex_fail "$1" "$2 is a whole number of at least ${4-1}, not '$3'"
}

ex_number() {
    case $3 in
    '' | . | *[!0-9.]* | *.*.* | ??????????*) ex_fail "$1" "$2 is a number above 0, not '$3'" ;;
    esac
    case $3 in *[1-9]*) ;; *) ex_fail "$1" "$2 is a number above 0, not '$3'" ;; esac
}

ex_tools() {
    _ex_name=$1 _ex_root=$2
    shift 2
    if [ -n "${SLOKIT_BIN-}" ]; then
        PATH=$SLOKIT_BIN:$PATH
    elif ! command -v "$1" > /dev/null 2>&1; then
        PATH=$_ex_root/build/bin:$PATH
    fi
    export PATH
    for _ex_t in "$@"; do
        command -v "$_ex_t" > /dev/null 2>&1 || {
            echo "$_ex_name: $_ex_t not found (run make in the checkout, or set SLOKIT_BIN to the directory of the slokit tools)" >&2
            exit 1
        }
    done
}
