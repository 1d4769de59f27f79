# examples/shardlib.sh — what the scale-out recipes share (sourced by
# examples/slurm/array.sh and examples/parallel-shards.sh):
#   shards_key TOOL          the key column a per-key tool groups by
#   shards_tool TOOL         TOOL's absolute path (remote shells and batch
#                            jobs start without the build's bin on PATH)
#   shards_split IN KEY N W  keyshard IN into W/in-NNNN.csv and W/order.csv
#   shards_merge KEY N W OUT merge W/out-NNNN.csv in one process's order
# The work directory W holds in-NNNN.csv (shard i of the input), out-NNNN.csv
# (the tool's output on it), order.csv (the key groups' input order) and, for
# Slurm, status-I (the task's exit status) and log-I.txt.
shards_key() {
    case $(basename "$1") in
        sloinfer|skyfit) echo job ;;
        peakgate) echo task ;;
        tenantclass) echo tenant ;;
        *) echo "$0: no default key for '$1' (give -k KEY)" >&2; return 64 ;;
    esac
}
shards_tool() {
    command -v "$1" >/dev/null || { echo "$0: '$1' not found on PATH" >&2; return 69; }
    readlink -f "$(command -v "$1")"
}
shards_split() {
    keyshard -q -k "$2" -n "$3" -p "$4/in-" --order "$4/order.csv" ${1:+"$1"}
}
shards_merge() {
    local files=() i
    for ((i = 0; i < $2; i++)); do files+=("$(printf '%s/out-%04d.csv' "$3" "$i")"); done
    keyshard -q --merge --order "$3/order.csv" -k "$1" ${4:+-o "$4"} "${files[@]}"
}
