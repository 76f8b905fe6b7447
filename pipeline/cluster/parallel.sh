#!/usr/bin/env bash
# The cluster path without a scheduler: the shards of a run on machines reachable by ssh (or on
# this one), with GNU parallel; then the report's other stages and the merge here.
# Every machine must see the repository, the build and JOBDIR at the same paths (a shared
# filesystem), as Slurm nodes do.
#   usage: pipeline/cluster/parallel.sh [--sshloginfile FILE] [--jobs J] SUBMIT-OPTIONS...
#          pipeline/cluster/parallel.sh [--sshloginfile FILE] [--jobs J] --resume JOBDIR
#   SUBMIT-OPTIONS: those of pipeline/cluster/submit.sh (--shards N, --out JOBDIR, --quick,
#   --formats, --kernels, --cpus C ...; not --partition or --sbatch-args)
#   --sshloginfile FILE  GNU parallel's list of machines ("8/user@host": 8 shards at a time
#                        there; ":" is this machine); default: this machine only
#   --jobs J             shards at a time per machine (default: its cores / --cpus)
# GNU parallel's joblog (JOBDIR/logs/parallel.log) records each shard's exit; --resume reruns
# the shards whose result files are missing or incomplete (pipeline/cluster/missing.sh), then
# merges again.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
logins=() jobs="" resume="" pass=()
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --sshloginfile) logins=(--sshloginfile "${2:?--sshloginfile needs a file}"); shift ;;
    --jobs) jobs=${2:?--jobs needs a count}; shift ;;
    --resume) resume=${2:?--resume needs JOBDIR}; shift ;;
    *) pass+=("$1") ;;
    esac
    shift
done
command -v parallel >/dev/null || { echo "parallel.sh: no GNU parallel (make deps: parallel)" >&2; exit 2; }
if [ -n "$resume" ]; then
    [ -f "$resume/cluster.env" ] || { echo "parallel.sh: no $resume/cluster.env: not a cluster run" >&2; exit 2; }
    J=$(cd "$resume" && pwd)
else
    J=$("$ROOT/pipeline/cluster/submit.sh" --prepare "${pass[@]}")
fi
# shellcheck source=/dev/null
. "$J/cluster.env"
todo=$("$ROOT/pipeline/cluster/missing.sh" "$J")
[ -n "$jobs" ] || jobs=$(( $(nproc) / CPUS > 0 ? $(nproc) / CPUS : 1 ))
t0=$(date +%s)
if [ -n "$todo" ]; then
    echo "parallel.sh: shards $todo of $SHARDS, $jobs at a time per machine" >&2
    # shellcheck disable=SC2046
    parallel --will-cite "${logins[@]}" --jobs "$jobs" --joblog "$J/logs/parallel.log" \
        "$ROOT/pipeline/cluster/shard.sh" "$J" {} ">" "$J/logs/shard-{}.out" "2>&1" \
        ::: $(tr , ' ' <<<"$todo") || echo "parallel.sh: some shards failed (the merge names them)" >&2
fi
if [ "$REPORT" = 1 ] && { [ ! -f "$J/data/bench.json" ] || [ ! -f "$J/data/moons.json" ] ||
                          [ ! -f "$J/data/facts.json" ]; }; then
    STAGES=facts,bench,moons "$ROOT/pipeline/make_report.sh" "$BUILD" "$J" "$QUICK" 2>"$J/logs/stages.out"
fi
"$ROOT/pipeline/cluster/merge.sh" "$J"
echo "parallel.sh: done in $(($(date +%s) - t0)) s: $J" >&2
