# examples/shardlib.sh — what the scale-out recipes share (sourced by
# examples/slurm/array.sh and examples/parallel-shards.sh):
#   shards_key TOOL          the key column a per-key tool groups by
#   shards_tool TOOL         TOOL's absolute path (remote shells and batch
#                            jobs start without the build's bin on PATH)
#   shards_split IN KEY N W  keyshard IN into W/in-NNNN.csv and W/order.csv
#   shards_sorted TOOL ARGS  "--sorted" when TOOL writes its keys in sorted
#                            order: sloinfer always, skyfit, peakgate and
#                            tenantclass when ARGS give them -s (--sort)
#   shards_merge KEY N W OUT [--sorted]
#                            merge W/out-NNNN.csv in one process's order
# Messages start with $shards_name, which the sourcing script sets.
# The work directory W holds in-NNNN.csv (shard i of the input), out-NNNN.csv
# (the tool's output on it), order.csv (the key groups' input order) and, for
# Slurm, status-I (the task's exit status) and log-I.txt.
shards_key() {
    case $(basename "$1") in
        sloinfer|skyfit) echo job ;;
        peakgate) echo task ;;
        tenantclass) echo tenant ;;
        *) echo "$shards_name: no default key for '$1' (give -k KEY)" >&2; return 64 ;;
    esac
}
shards_tool() {
    command -v "$1" >/dev/null || { echo "$shards_name: '$1' not found on PATH" >&2; return 69; }
    readlink -f "$(command -v "$1")"
}
shards_split() {
    keyshard -q -k "$2" -n "$3" -p "$4/in-" --order "$4/order.csv" ${1:+"$1"}
}
# -s (--sort, or --so/--sor as argp abbreviates it, or s in a cluster of
# short flags such as -qs) is the sort of skyfit, peakgate and tenantclass:
# rows in any order, keys written in bytewise order (keyshard --merge
# --sorted restores that order; the input's key order is not it).  -o and -d
# take a value: the rest of their cluster, or the next word.
# sloinfer takes its runs in any order and always writes its jobs sorted
# (bytewise), whatever their order in the input: a time-ordered export, the
# usual one, failed the order-file merge ("row out of the order file's key
# order"), and its shards' outputs concatenated were not one process's.
shards_sorted() {
    case $(basename "$1") in
        sloinfer) echo --sorted; return 0 ;;
        skyfit | peakgate | tenantclass) ;;
        *) return 0 ;;
    esac
    shift
    local a skip=0
    for a; do
        if [ $skip = 1 ]; then skip=0; continue; fi
        case $a in
            --) return 0 ;;
            --so | --sor | --sort) echo --sorted; return 0 ;;
            --*) ;;
            -?*)
                a=${a#-}
                while [ -n "$a" ]; do
                    case ${a:0:1} in
                        s) echo --sorted; return 0 ;;
                        o | d) [ -n "${a:1}" ] || skip=1; break ;;
                    esac
                    a=${a:1}
                done
                ;;
        esac
    done
}
shards_merge() {
    local files=() i
    for ((i = 0; i < $2; i++)); do files+=("$(printf '%s/out-%04d.csv' "$3" "$i")"); done
    keyshard -q --merge ${5:+"$5"} --order "$3/order.csv" -k "$1" ${4:+-o "$4"} "${files[@]}"
}
