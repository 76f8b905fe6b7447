#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, in a folder of its own (Debian slurm-wlm and
# munge): a munge key and daemon, slurm.conf, slurmctld and slurmd on localhost at free ports,
# their state, spool, logs and pid files all in DIR. For trying pipeline/cluster/ out and for
# tests/test_slurm.sh; nothing outside DIR is written, and stop kills only the daemons it
# started, by their pid files.
#   usage: pipeline/cluster/one_node.sh start DIR    (then: export SLURM_CONF=DIR/slurm.conf)
#          pipeline/cluster/one_node.sh stop DIR
# start exits 0 once the node is idle; 3 with a one-line reason when the daemons cannot start
# here (no slurm-wlm or munge, not root, no sockets); 2 on bad usage.
set -euo pipefail
what=${1:-} D=${2:-}
[ -n "$D" ] && { [ "$what" = start ] || [ "$what" = stop ]; } ||
    { echo "usage: one_node.sh start|stop DIR" >&2; exit 2; }

stop() {
    local f pid
    for f in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munge/munged.pid"; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$f"
    done
}
if [ "$what" = stop ]; then stop; exit 0; fi

cannot() { echo "one_node.sh: cannot start Slurm here: $*" >&2; stop; exit 3; }
for c in munged slurmctld slurmd sbatch sinfo; do
    command -v "$c" >/dev/null || [ -x "/usr/sbin/$c" ] || cannot "no $c (make deps: slurm-wlm, munge)"
done
[ "$(id -u)" = 0 ] || cannot "slurmd needs root"
PATH=$PATH:/usr/sbin
mkdir -p "$D"/{munge,state,spool,log}
D=$(cd "$D" && pwd)
chmod 700 "$D/munge"
head -c 1024 /dev/urandom >"$D/munge/munge.key"
chmod 400 "$D/munge/munge.key"
munged -f --key-file="$D/munge/munge.key" --socket="$D/munge/socket" \
    --pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" \
    --seed-file="$D/munge/munged.seed" 2>"$D/log/munged.err" ||
    cannot "munged failed: $(tail -n1 "$D/log/munged.err")"

# two free ports next to each other (bash's /dev/tcp: nothing answers there)
port=0
for _ in $(seq 50); do
    p=$((20000 + RANDOM % 40000))
    { (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null || (echo >"/dev/tcp/127.0.0.1/$((p + 1))") 2>/dev/null; } &&
        continue
    port=$p
    break
done
[ "$port" != 0 ] || cannot "no free port pair found"
cat >"$D/slurm.conf" <<EOF
# written by pipeline/cluster/one_node.sh: a one-node cluster in $D
ClusterName=gelulab
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$D/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=gl Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$D/slurm.conf
slurmctld -f "$SLURM_CONF" 2>"$D/log/slurmctld.err" ||
    cannot "slurmctld failed: $(tail -n1 "$D/log/slurmctld.err")"
slurmd -f "$SLURM_CONF" -N localhost 2>"$D/log/slurmd.err" ||
    cannot "slurmd failed: $(tail -n1 "$D/log/slurmd.err")"
for _ in $(seq 100); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [ "$state" = idle ] && { echo "one_node.sh: Slurm up in $D (export SLURM_CONF=$SLURM_CONF)" >&2; exit 0; }
    sleep 0.2
done
cannot "the node did not become idle in 20 s (node state '${state:-none}'; logs in $D/log)"
