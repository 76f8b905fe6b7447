#!/usr/bin/env bash
# make report: data (sweeps, facts, benchmarks) into OUT/data/, then `gelulab report` reads only
# those files and writes OUT/REPORT.md with its charts.
#   usage: reports/make_report.sh BUILD_DIR OUT_DIR [QUICK]
#   QUICK=1: binary32 sampled (every 61st pattern), NEON left out, binary64 quick, shorter
#            benchmarks (no 16 Mi size, 3 repetitions), two moons with 10 seeds: about 2 minutes
#   otherwise: exhaustive binary32 (all 2^32 inputs), the full benchmark (the longest stages)
set -euo pipefail
BUILD=${1:?usage: make_report.sh BUILD_DIR OUT_DIR [QUICK]}
OUT=${2:?usage: make_report.sh BUILD_DIR OUT_DIR [QUICK]}
QUICK=${3:-0}
G=$BUILD/gelulab B=$BUILD/gelulab-bench D=$OUT/data
mkdir -p "$D"
t0=$(date +%s)
stage() { echo "report: [$1/8] $2 ($(($(date +%s) - t0)) s so far)" >&2; }
mode=exhaustive bench_args=() f32_args=() moons_seeds=30
if [ "$QUICK" = 1 ]; then # no NEON (qemu), no 16 Mi benchmark
    mode=quick f32_args=(--no-emulated) moons_seeds=10
    bench_args=(--sizes=1024,4096,65536,1048576 --benchmark_repetitions=3
                --benchmark_min_time=0.005 --benchmark_min_warmup_time=0.005)
fi

# the peers that run here, from the table built into libgelulab-peers.so: one line of sweep
# arguments each (`gelulab list --peers --sweep-args`: --lib/--serve ... --defn D --name N)
peers=() npeers=0 bpeers=() nbpeers=0 L=$BUILD/libgelulab-peers.so
pbf16=() pf16=() n16=0 # the 16-bit peers of each format (--abi F in their arguments)
# libgelulab's entry points, swept from the library as users call them (dispatch included)
libf=() libb=() libbf16=() libf16=()
if [ -f "$BUILD/libgelulab.so" ]; then
    lib_args() { # ARRAY [--backward | --format F]
        local -n arr=$1
        while IFS=$'\t' read -r -a a; do arr+=("${a[@]}"); done \
            < <("$G" list --library --lib "$BUILD/libgelulab.so" --sweep-args "${@:2}")
    }
    lib_args libf; lib_args libb --backward; lib_args libbf16 --format bf16
    lib_args libf16 --format f16
fi
rm -rf "$D/validate" "$D/peers.tsv" "$D/peers16.tsv"
if [ -f "$L" ]; then
    while IFS=$'\t' read -r -a a; do
        peers+=("${a[@]}") npeers=$((npeers + 1))
    done < <("$G" list --peers --lib "$L" --sweep-args)
    while IFS=$'\t' read -r -a a; do # the backward peers (dx = dy f'(x))
        bpeers+=("${a[@]}") nbpeers=$((nbpeers + 1))
    done < <("$G" list --peers --lib "$L" --sweep-args --backward)
    while IFS=$'\t' read -r -a a; do pbf16+=("${a[@]}") n16=$((n16 + 1)); done \
        < <("$G" list --peers --lib "$L" --sweep-args --format bf16)
    while IFS=$'\t' read -r -a a; do pf16+=("${a[@]}") n16=$((n16 + 1)); done \
        < <("$G" list --peers --lib "$L" --sweep-args --format f16)
    "$G" list --peers --lib "$L" --tsv >"$D/peers.tsv"
    { "$G" list --peers --lib "$L" --tsv --format bf16
      "$G" list --peers --lib "$L" --tsv --format f16 | tail -n +2; } >"$D/peers16.tsv"
fi

stage 1 "binary32 sweep of every built-in kernel and $npeers peers, $mode"
OMP_NUM_THREADS=1 "$G" sweep --all "${f32_args[@]}" "${peers[@]}" "${libf[@]}" --format f32 --mode "$mode" \
    --progress --out "$D/f32.json" >"$D/f32.txt"
stage 2 "bfloat16 and binary16 sweeps (all 65536 inputs), built-in kernels, peers and $n16 16-bit peers"
"$G" sweep --all "${f32_args[@]}" "${peers[@]}" "${pbf16[@]}" "${libbf16[@]}" --format bf16 --out "$D/bf16.json" \
    >"$D/bf16.txt"
"$G" sweep --all "${f32_args[@]}" "${peers[@]}" "${pf16[@]}" "${libf16[@]}" --format f16 --out "$D/f16.json" \
    >"$D/f16.txt"
stage 3 "binary64 sampled sweep ($mode)"
"$G" sweep --all --format f64 --mode "$mode" --progress --out "$D/f64.json" >"$D/f64.txt"
stage 4 "backward pass: binary32 sweep (dy = 1) of the backward kernels and $nbpeers backward peers, $mode"
OMP_NUM_THREADS=1 "$G" sweep --backward --all "${f32_args[@]}" "${bpeers[@]}" "${libb[@]}" --format f32 \
    --mode "$mode" --progress --out "$D/bwd.json" >"$D/bwd.txt"
stage 5 "reference facts, special values, error curves; the peers' diagnoses"
pkg() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"; }
npmv() { # an npm peer's package and version, as make deps installed it into build/npm
    local v
    v=$("$(dirname "$0")/npm_version.sh" "$(dirname "$0")/../build/npm" "$1")
    echo "$1@${v:-not installed}"
}
"$G" facts --out "$D" --meta "commit=$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    --meta "date=$(date -u +%Y-%m-%dT%H:%MZ)" --meta "report_mode=$mode" \
    --meta "google_benchmark=$(pkg libbenchmark-dev)" --meta "sleef=$(pkg libsleef-dev)" \
    --meta "onednn=$(pkg libdnnl-dev)" --meta "pytorch=$(pkg libtorch-dev)" \
    --meta "eigen=$(pkg libeigen3-dev)" --meta "node=$(node --version 2>/dev/null || echo none)" \
    --meta "npm_peers=$(npmv onnxruntime-node) $(npmv @node-llama-cpp/linux-x64)" \
    --meta "gnuplot=$(gnuplot --version 2>/dev/null || echo none)"
# each peer's diagnoses: gelulab validate's probes (exit 1: a check failed, which is the finding)
# (one per core at a time)
mkdir -p "$D/validate"
probe() {
    local name=${*: -1}
    "$G" validate "$@" --probes-only --json "$D/validate/${name//\//_}.json" \
        >"$D/validate/${name//\//_}.txt" 2>&1 ||
        [ $? = 1 ] || echo "report: gelulab validate could not run $name (see $D/validate)" >&2
}
running=0
while IFS=$'\t' read -r -a a; do
    [ "$running" -lt "$(nproc)" ] || { wait -n || true; running=$((running - 1)); }
    probe "${a[@]}" &
    running=$((running + 1))
done < <([ -f "$L" ] && { "$G" list --peers --lib "$L" --sweep-args
    "$G" list --peers --lib "$L" --sweep-args --backward | sed 's/^/--backward\t/'
    "$G" list --peers --lib "$L" --sweep-args --format bf16
    "$G" list --peers --lib "$L" --sweep-args --format f16; }
    # our backward kernels, the widest build of each that runs here
    "$G" list | awk '$2 ~ /_grad$/ && $5 == "yes" { split($1, a, "/"); w[a[1]] = $1 }
                     END { for (k in w) printf "--impl\t%s\n", w[k] }' | sort)
wait
stage 6 "throughput benchmarks (one core; Google Benchmark log in $D/bench.txt)"
"$B" --benchmark_out="$D/bench.json" --benchmark_out_format=json \
    --benchmark_display_aggregates_only=true "${bench_args[@]}" >"$D/bench.txt"
stage 7 "two-moons experiment ($moons_seeds seeds per activation)"
"$G" moons --seeds "$moons_seeds" --progress --out "$D/moons.json" >"$D/moons.txt"
stage 8 "charts and REPORT.md"
"$G" report --in "$D" --out "$OUT"
echo "report: done in $(($(date +%s) - t0)) s: $OUT/REPORT.md" >&2
