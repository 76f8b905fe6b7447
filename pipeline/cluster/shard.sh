#!/usr/bin/env bash
# One shard of a cluster run (pipeline/cluster/submit.sh wrote JOBDIR/cluster.env and
# JOBDIR/plan.tsv): every sweep of the plan with --shard K/N, each into
# JOBDIR/shards/NAME/K.json (written aside, then moved into place: a file there is whole; an
# interrupted sweep, SIGTERM at a time limit, leaves its finished chunks, which the merge counts).
#   usage: pipeline/cluster/shard.sh JOBDIR K       (an array task: K = $SLURM_ARRAY_TASK_ID)
set -euo pipefail
J=${1:?usage: shard.sh JOBDIR K}
K=${2:?usage: shard.sh JOBDIR K}
[ -f "$J/cluster.env" ] || { echo "shard.sh: no $J/cluster.env (run submit.sh first)" >&2; exit 2; }
# shellcheck source=/dev/null
. "$J/cluster.env"
[[ $K =~ ^[0-9]+$ ]] && [ "$K" -ge 1 ] && [ "$K" -le "$SHARDS" ] ||
    { echo "shard.sh: shard '$K' is not in 1..$SHARDS" >&2; exit 2; }
threads=${SLURM_CPUS_PER_TASK:-$CPUS}
# SIGTERM (a time limit, scancel) reaches the sweep too, which writes its finished chunks; this
# script waits for it and keeps them
trap 'echo "shard $K/$SHARDS: SIGTERM" >&2' TERM
rc=0
while IFS= read -r line; do
    IFS=$'\t' read -r -a a <<<"$line"
    name=${a[0]} tmp=$J/shards/${a[0]}/.tmp-$K.$$
    mkdir -p "$tmp"
    echo "shard $K/$SHARDS: $name ($(date -u +%H:%M:%S))" >&2
    set +e
    OMP_NUM_THREADS=1 "$BUILD/gelulab" sweep "${a[@]:1}" --shard "$K/$SHARDS" --threads "$threads" \
        --progress --out "$tmp/$K.json" >"$tmp/$K.txt"
    r=$?
    set -e
    # a whole result (0), or a kernel failed (2: named in the file), or interrupted (130: the
    # finished chunks): kept; anything else (a usage error, a crash) leaves no file
    if [ -f "$tmp/$K.json" ] && { [ $r = 0 ] || [ $r = 2 ] || [ $r = 130 ]; }; then
        mv "$tmp/$K.txt" "$J/shards/$name/$K.txt"
        mv "$tmp/$K.json" "$J/shards/$name/$K.json"
    fi
    rm -rf "$tmp"
    [ $r = 0 ] || { echo "shard $K/$SHARDS: $name: gelulab sweep exited $r" >&2; rc=1; }
    [ $r != 130 ] || exit 130
done <"$J/plan.tsv"
exit $rc
