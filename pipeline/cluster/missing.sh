#!/usr/bin/env bash
# The shards of a cluster run (pipeline/cluster/submit.sh) still to run: those with no result
# file for some sweep of the plan, and those whose file misses chunks (gelulab merge
# --missing-shards), comma-separated in order ("3,7"; nothing when all are done).
#   usage: pipeline/cluster/missing.sh JOBDIR
set -euo pipefail
J=${1:?usage: missing.sh JOBDIR}
[ -f "$J/cluster.env" ] || { echo "missing.sh: no $J/cluster.env (run submit.sh first)" >&2; exit 2; }
# shellcheck source=/dev/null
. "$J/cluster.env"
declare -A todo
while IFS=$'\t' read -r name _; do
    files=() have=()
    for k in $(seq "$SHARDS"); do
        if [ -f "$J/shards/$name/$k.json" ]; then files+=("$J/shards/$name/$k.json"); else todo[$k]=1; fi
    done
    [ ${#files[@]} -gt 0 ] || continue
    out=$("$BUILD/gelulab" merge "${files[@]}" --shards "$SHARDS" --missing-shards) ||
        { echo "missing.sh: $name: gelulab merge cannot read its shards (above)" >&2; exit 2; }
    IFS=, read -r -a have <<<"$out"
    for k in "${have[@]}"; do todo[$k]=1; done
done <"$J/plan.tsv"
printf '%s\n' "${!todo[@]}" | sort -n | paste -s -d,
