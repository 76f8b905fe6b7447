#!/usr/bin/env bash
# Joins the shards of a cluster run (pipeline/cluster/submit.sh) into JOBDIR/data/NAME.json,
# one per sweep of the plan, and, when the run makes the report, writes it (the other stages
# ran in their own job: facts, bench, moons). A shard that failed or was lost is named, with
# the command that reruns only it; nothing is merged for that sweep, and it exits 1.
#   usage: pipeline/cluster/merge.sh JOBDIR
set -euo pipefail
J=${1:?usage: merge.sh JOBDIR}
[ -f "$J/cluster.env" ] || { echo "merge.sh: no $J/cluster.env (run submit.sh first)" >&2; exit 2; }
# shellcheck source=/dev/null
. "$J/cluster.env"
G=$BUILD/gelulab
mkdir -p "$J/data"
missing=$("$ROOT/pipeline/cluster/missing.sh" "$J")
if [ -n "$missing" ]; then
    echo "merge.sh: shards missing or incomplete: $missing (their logs: $J/logs/shard-K.out)" >&2
    for k in ${missing//,/ }; do
        last=$(grep -E '^gelulab|CANCELLED|TIME LIMIT|SIGTERM' "$J/logs/shard-$k.out" 2>/dev/null |
            tail -n 1 || true)
        echo "merge.sh: shard $k: ${last:-no failure in its log (a result file lost?)}" >&2
    done
    echo "merge.sh: rerun only them: $ROOT/pipeline/cluster/submit.sh --resume $J" >&2
    exit 1
fi
while IFS=$'\t' read -r name _; do
    "$G" merge "$J"/shards/"$name"/*.json --shards "$SHARDS" --out "$J/data/$name.json" \
        >"$J/data/$name.txt"
    echo "merge.sh: $name: $SHARDS shards merged into $J/data/$name.json" >&2
done <"$J/plan.tsv"
if [ "$REPORT" = 1 ]; then
    for f in facts.json bench.json moons.json; do
        [ -f "$J/data/$f" ] || { echo "merge.sh: no $J/data/$f: the stages job failed (see $J/logs/)" >&2; exit 1; }
    done
    STAGES=report "$ROOT/pipeline/make_report.sh" "$BUILD" "$J" "$QUICK"
fi
