#!/bin/bash
# tests/engines/lab.sh — a throw-away lab of real engines on this machine:
# a two-node Slurm cluster (slurmctld + two slurmd) and two sshd hosts, each
# node and host in its own network namespace, for tests/cli/engines.sh and
# bench/scaleout.sh.
#
#   lab.sh up DIR      start (idempotent: a running lab in DIR is left as is)
#   lab.sh down DIR    stop everything it started, by pid, and delete its
#                      namespaces (idempotent)
#   lab.sh leftovers DIR   print whatever of the lab is still there (processes,
#                      namespaces, mounts, veths); exit 1 if anything is
#   lab.sh why-not     print why the lab cannot run here (exit 1), or nothing
#   lab.sh run DIR CMD...  run CMD in the client namespace (SLURM_CONF set)
#
# Topology (all inside namespaces this script made; nothing else is touched
# or contacted): namespace C holds a bridge with 10.251.0.1/24 and is where
# slurmctld listens and where clients (sbatch, squeue, ssh, parallel) run;
# n1, n2 (slurmd) and h1, h2 (sshd) hang off the bridge by veth pairs
# created inside C, at 10.251.0.2 to .5.  Namespaces are named slk<PID><x>
# after the starting shell's pid, so two labs never collide.  munged runs in
# the root namespace (it only needs its own unix socket, key and files in DIR).
# h1 and h2 each see their own directory (DIR/disk-h1, DIR/disk-h2) at
# DIR/remote, bound there in a mount namespace of their own: a file copied
# there by `parallel --trc` is on that host only, and DIR/remote stays empty
# for everyone else.
#
# Every wait is bounded (LAB_TIMEOUT seconds, default 30).  Needs root,
# ip, nsenter, unshare, munged, slurmctld, slurmd, sshd, ssh, rsync.
set -u
LAB_TIMEOUT=${LAB_TIMEOUT:-30}

die() { echo "lab: $*" >&2; exit 1; }

# waitfor SECS CMD...: poll CMD every 0.1 s until it succeeds; 1 on timeout.
waitfor() {
    local n=$(($1 * 10)); shift
    while ! "$@" >/dev/null 2>&1; do
        n=$((n - 1)); [ $n -gt 0 ] || return 1
        sleep 0.1
    done
}

why_not() {
    [ "$(id -u)" = 0 ] || { echo "not root (network namespaces and daemons need root)"; return 1; }
    local c missing=""
    for c in ip nsenter unshare munged slurmctld slurmd sbatch squeue scancel sinfo ssh ssh-keygen rsync parallel; do
        command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] || missing="$missing $c"
    done
    [ -x /usr/sbin/sshd ] || missing="$missing sshd"
    [ -z "$missing" ] || { echo "missing:$missing (make deps installs slurm-wlm munge openssh-server openssh-client rsync parallel)"; return 1; }
    local probe="slkprobe$$"
    ip netns add "$probe" 2>/dev/null || { echo "cannot create network namespaces (no CAP_NET_ADMIN/CAP_SYS_ADMIN)"; return 1; }
    ip netns del "$probe"
    return 0
}

# ---- up --------------------------------------------------------------------

net_up() {  # D TAG
    local D=$1 tag=$2 c=${2}c i=2 ns
    ip netns add "$c" || return 1
    echo "$c" >>"$D/netns"
    ip -n "$c" link set lo up
    ip -n "$c" link add br0 type bridge && ip -n "$c" link set br0 up &&
        ip -n "$c" addr add 10.251.0.1/24 dev br0 || return 1
    for ns in n1 n2 h1 h2; do
        ip netns add "$tag$ns" || return 1
        echo "$tag$ns" >>"$D/netns"
        ip -n "$c" link add "v$ns" type veth peer name eth0 netns "$tag$ns" &&
            ip -n "$c" link set "v$ns" master br0 up &&
            ip -n "$tag$ns" link set lo up &&
            ip -n "$tag$ns" addr add "10.251.0.$i/24" dev eth0 &&
            ip -n "$tag$ns" link set eth0 up || return 1
        i=$((i + 1))
    done
}

munge_up() {  # D
    local D=$1
    mkdir -p "$D/munge" && chmod 700 "$D/munge"
    head -c 1024 /dev/urandom >"$D/munge/key" && chmod 400 "$D/munge/key"
    munged -F --socket="$D/munge.sock" --key-file="$D/munge/key" --pid-file="$D/munge/pid" \
        --log-file="$D/munge/log" --seed-file="$D/munge/seed" >"$D/munge/out" 2>&1 &
    echo $! >>"$D/pids"
    waitfor "$LAB_TIMEOUT" test -S "$D/munge.sock" || { cat "$D/munge/log" "$D/munge/out" >&2; return 1; }
}

slurm_conf() {  # D
    local D=$1
    mkdir -p "$D/slurm/ctld" "$D/slurm/spool/n1" "$D/slurm/spool/n2"
    cat >"$D/slurm.conf" <<EOF
ClusterName=slklab
SlurmctldHost=localhost(10.251.0.1)
SlurmctldPort=6817
SlurmdPort=6818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge.sock
StateSaveLocation=$D/slurm/ctld
SlurmdSpoolDir=$D/slurm/spool/%n
SlurmctldPidFile=$D/slurm/ctld.pid
SlurmctldLogFile=$D/slurm/ctld.log
SlurmdPidFile=$D/slurm/slurmd-%n.pid
SlurmdLogFile=$D/slurm/slurmd-%n.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=2
SchedulerParameters=batch_sched_delay=0
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MaxArraySize=1001
NodeName=n1 NodeAddr=10.251.0.2 CPUs=1 RealMemory=1000 State=UNKNOWN
NodeName=n2 NodeAddr=10.251.0.3 CPUs=1 RealMemory=1000 State=UNKNOWN
PartitionName=lab Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOF
}

slurm_up() {  # D TAG
    local D=$1 tag=$2 n
    slurm_conf "$D"
    SLURM_CONF=$D/slurm.conf nsenter --net="/run/netns/${tag}c" slurmctld -D -i >"$D/slurm/ctld.out" 2>&1 &
    echo $! >>"$D/pids"
    for n in n1 n2; do
        SLURM_CONF=$D/slurm.conf nsenter --net="/run/netns/$tag$n" slurmd -D -N "$n" >"$D/slurm/slurmd-$n.out" 2>&1 &
        echo $! >>"$D/pids"
    done
    idle() { [ "$(lab_run "$D" sinfo -h -N -o %T | grep -c '^idle')" = 2 ]; }
    waitfor "$LAB_TIMEOUT" idle || { tail -5 "$D"/slurm/*.log "$D"/slurm/*.out >&2; return 1; }
}

sshd_up() {  # D TAG
    local D=$1 tag=$2 i=4 h
    mkdir -p "$D/ssh" "$D/remote" /run/sshd
    ssh-keygen -q -t ed25519 -N '' -f "$D/ssh/id" && cp "$D/ssh/id.pub" "$D/ssh/authorized_keys" || return 1
    cat >"$D/ssh/config" <<EOF
Host *
  User root
  IdentityFile $D/ssh/id
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking no
  UserKnownHostsFile $D/ssh/known_hosts
  GlobalKnownHostsFile /dev/null
  LogLevel ERROR
  ConnectTimeout 10
EOF
    for h in h1 h2; do
        ssh-keygen -q -t ed25519 -N '' -f "$D/ssh/hostkey-$h" || return 1
        cat >"$D/ssh/sshd-$h" <<EOF
ListenAddress 10.251.0.$i
HostKey $D/ssh/hostkey-$h
PidFile $D/ssh/sshd-$h.pid
PermitRootLogin prohibit-password
PubkeyAuthentication yes
AuthorizedKeysFile $D/ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
EOF
        # exec all the way down: $! is sshd itself
        # the host's own disk, DIR/disk-hN, is bound over DIR/remote in its
        # private mount namespace only; there too, root's ~/.bashrc (which
        # bash reads for commands run through sshd) is hidden behind
        # /dev/null, so a login set-up of the machine's (pyenv's rehash,
        # conda) can neither race between parallel jobs nor print into the
        # tools' stderr
        mkdir -p "$D/disk-$h"
        unshare --mount --propagation private sh -c '
            rc=$(getent passwd root | cut -d: -f6)/.bashrc
            { [ ! -f "$rc" ] || mount --bind /dev/null "$rc"; } &&
            mount --bind "$2/disk-$4" "$2/remote" && exec nsenter --net="/run/netns/$1" /usr/sbin/sshd -D -e -f "$3"' \
            _ "$tag$h" "$D" "$D/ssh/sshd-$h" "$h" >"$D/ssh/sshd-$h.log" 2>&1 &
        echo $! >>"$D/pids"
        waitfor "$LAB_TIMEOUT" lab_run "$D" ssh -F "$D/ssh/config" "10.251.0.$i" true ||
            { cat "$D/ssh/sshd-$h.log" >&2; return 1; }
        i=$((i + 1))
    done
}

# lab_run D CMD...: run CMD in the client namespace with the lab's Slurm config.
lab_run() {
    local D=$1; shift
    SLURM_CONF=$D/slurm.conf nsenter --net="/run/netns/$(cat "$D/tag")c" "$@"
}

up() {
    local D=$1
    mkdir -p "$D" && chmod 755 "$D" && D=$(cd "$D" && pwd)
    if [ -s "$D/tag" ] && [ -s "$D/up" ]; then
        local p alive=1
        for p in $(cat "$D/pids"); do kill -0 "$p" 2>/dev/null || alive=0; done
        [ $alive = 1 ] && return 0
        down "$D"
    fi
    why=$(why_not) || die "$why"
    local tag="slk$$"
    rm -rf "$D/ssh" "$D/slurm" "$D/munge" "$D/remote" "$D"/disk-h?
    echo "$tag" >"$D/tag"
    : >"$D/pids"; : >"$D/netns"
    net_up "$D" "$tag" && munge_up "$D" && slurm_up "$D" "$tag" && sshd_up "$D" "$tag" ||
        { echo "lab: cannot start the lab (see above); stopping what started" >&2; down "$D"; return 1; }
    date +%s >"$D/up"
}

# ---- down ------------------------------------------------------------------

stop_pids() {  # SIG PID...: signal, then wait (bounded) for them to go
    local sig=$1 p; shift
    for p in "$@"; do kill "-$sig" "$p" 2>/dev/null; done
    gone() { local q; for q in "$@"; do kill -0 "$q" 2>/dev/null && return 1; done; return 0; }
    waitfor 10 gone "$@"
}

down() {
    local D=$1 ns pids=""
    [ -d "$D" ] || return 0
    [ -s "$D/tag" ] || { rm -f "$D/up"; return 0; }
    # jobs first (their slurmstepd would outlive slurmd), then the daemons
    [ -s "$D/up" ] && timeout 10 bash -c "$(declare -f lab_run); lab_run '$D' scancel --quiet --partition=lab" 2>/dev/null
    [ -s "$D/pids" ] && pids=$(cat "$D/pids")
    # shellcheck disable=SC2086
    stop_pids TERM $pids || stop_pids KILL $pids
    # anything still running inside our namespaces was started by the lab
    for ns in $(cat "$D/netns" 2>/dev/null); do
        pids=$(ip netns pids "$ns" 2>/dev/null)
        # shellcheck disable=SC2086
        [ -z "$pids" ] || stop_pids TERM $pids || stop_pids KILL $pids
        ip netns del "$ns" 2>/dev/null
    done
    rm -f "$D/up" "$D/pids" "$D/netns" "$D/munge.sock"
}

leftovers() {
    local D=$1 tag bad=0 p
    [ -s "$D/tag" ] || return 0
    tag=$(cat "$D/tag")
    for p in $(cat "$D/pids.all" 2>/dev/null); do
        kill -0 "$p" 2>/dev/null && { echo "process $p still running: $(tr '\0' ' ' </proc/$p/cmdline)"; bad=1; }
    done
    ip netns list | grep "^$tag" && { echo "namespaces above still there"; bad=1; }
    grep -e "$tag" -e " $D/" /proc/mounts && { echo "mounts above still there"; bad=1; }
    ip -o link show | grep -e "v[nh][12]@" -e "$tag" && { echo "veths above in the root namespace"; bad=1; }
    for p in /proc/[0-9]*; do  # a daemon of ours that escaped the pid list
        case $(cat "$p/comm" 2>/dev/null) in munged|slurmctld|slurmd|slurmstepd|sshd) ;; *) continue ;; esac
        grep -qaF "$D/" "$p/cmdline" "$p/environ" 2>/dev/null &&
            { echo "process ${p#/proc/} of the lab still running: $(tr '\0' ' ' <"$p/cmdline")"; bad=1; }
    done
    return $bad
}

case "${1:-}" in
    up) [ $# = 2 ] || die "usage: lab.sh up DIR"; up "$2" && cp "$2/pids" "$2/pids.all" ;;
    down) [ $# = 2 ] || die "usage: lab.sh down DIR"; down "$2" ;;
    leftovers) [ $# = 2 ] || die "usage: lab.sh leftovers DIR"; leftovers "$2" ;;
    why-not) why_not ;;
    run) [ $# -ge 3 ] || die "usage: lab.sh run DIR CMD..."; D=$2; shift 2; lab_run "$D" "$@" ;;
    *) die "usage: lab.sh up|down|leftovers|run DIR, or lab.sh why-not" ;;
esac
