#!/usr/bin/env bash
# Writes OUT/REPORT.md: the reference part of the report (what exists so far): correctly
# rounded values of every definition at landmark inputs, the fast path's self-check and its
# throughput against pure MPFR. Data first (OUT/*.tsv, *.txt from `gelulab ref`), then the
# markdown is assembled from those files only.
#   usage: reports/reference_report.sh path/to/gelulab OUT_DIR
set -euo pipefail
G=${1:?usage: reference_report.sh GELULAB OUT_DIR}
OUT=${2:?usage: reference_report.sh GELULAB OUT_DIR}
mkdir -p "$OUT"

xs=(-6 -3 -1 -0.751791524693564457 -0.5 -0x1p-20 0 0x1p-20 0.5 1 2 3 6)
defns=(exact tanh sigmoid silu exact_grad phi)

echo "report: [1/3] reference values (${#defns[@]} definitions x ${#xs[@]} inputs, f64 and f32)" >&2
for d in "${defns[@]}"; do
    for f in f64 f32; do
        "$G" ref --defn "$d" --format "$f" -- "${xs[@]}" | sed "s/^/$d\t$f\t/"
    done
done >"$OUT/reference_values.tsv"

echo "report: [2/3] fast path self-check" >&2
"$G" ref --self-check >"$OUT/selfcheck.txt" || true

echo "report: [3/3] reference throughput (fast path vs pure MPFR, one core)" >&2
for d in exact tanh sigmoid silu; do "$G" ref --speed --defn "$d" --count 2000000; done >"$OUT/ref_speed.txt"

{
    echo "# gelulab report"
    echo
    echo "Generated $(date -u +%Y-%m-%dT%H:%MZ) on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'),"
    echo "gelulab commit $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)."
    echo "This report grows with the project: so far it holds the reference itself."
    echo
    echo "## Reference values"
    echo
    echo "Correctly rounded (nearest-even) results from MPFR interval arithmetic in a Ziv loop."
    echo
    echo "| definition | x | f64 | f32 (hex) |"
    echo "|---|---|---|---|"
    for d in "${defns[@]}"; do
        paste <(awk -F'\t' -v d="$d" '$1==d && $2=="f64" {print $3 "\t" $4}' "$OUT/reference_values.tsv") \
              <(awk -F'\t' -v d="$d" '$1==d && $2=="f32" {print $5}' "$OUT/reference_values.tsv") |
            awk -F'\t' -v d="$d" '{printf "| %s | `%s` | %s | `%s` |\n", d, $1, $2, $3}'
    done
    echo
    echo "## Fast certified binary32 path"
    echo
    echo "Self-check on this machine's libm: \`$(cat "$OUT/selfcheck.txt")\`"
    echo
    echo '```'
    cat "$OUT/ref_speed.txt"
    echo '```'
} >"$OUT/REPORT.md"
echo "report: wrote $OUT/REPORT.md" >&2
