#!/usr/bin/env bash
# The report's sweeps, one line each: NAME, then the arguments of `gelulab sweep` that make
# data/NAME.json (tab-separated; no --out, --progress or --shard). make_report.sh runs them
# on this machine; pipeline/cluster/ runs each as shards of an array job and merges them.
#   usage: pipeline/sweep_plan.sh BUILD_DIR [QUICK]
#   NAME: f32 (binary32), bf16, f16 (every 16-bit value), f64 (binary64, sampled), bwd (the
#   backward pass, binary32): built-in kernels (--all), the peers that run here, libgelulab's
#   entry points. QUICK=1: binary32 sampled (every 61st pattern), NEON left out, f64 quick, and
#   the peers of serving libraries (the Python frameworks: --serve-lib, a framework's start-up
#   each; TensorFlow's 3 s) in the f32 sweep only, as binary32 forward peers.
#   GL_PEER_ARGS=FILE: `gelulab list --peers --lib ... --sweep-args --all-kinds` already run
#   (make_report.sh's), instead of listing again
set -euo pipefail
BUILD=${1:?usage: sweep_plan.sh BUILD_DIR [QUICK]}
QUICK=${2:-0}
G=$BUILD/gelulab L=$BUILD/libgelulab-peers.so
[ -x "$G" ] || { echo "sweep_plan.sh: no $G (build first: make build)" >&2; exit 2; }
mode=exhaustive f32_args=()
[ "$QUICK" = 1 ] && mode=quick f32_args=(--no-emulated)

# ARGS... of `gelulab list` that print one tab-separated line of sweep arguments per kernel,
# joined into one line
joined() { "$G" list "$@" | paste -s -d '\t'; }
peers="" peers16="" bpeers="" pbf16="" pf16="" libf="" libb="" libbf16="" libf16=""
if [ -f "$L" ]; then # one listing of every kind (each loads the peers' library: PyTorch's start-up)
    # (GL_PEER_ARGS: a file that holds this listing already, make_report.sh's)
    if [ -n "${GL_PEER_ARGS:-}" ]; then
        all=$(cat "$GL_PEER_ARGS")
    else
        all=$("$G" list --peers --lib "$L" --sweep-args --all-kinds)
    fi
    # QUICK=1: a kind's peers less those of serving libraries (but in the f32 sweep)
    kind() { awk -F'\t' -v k="$1" -v q="${2:-}" '$1 == k && !(q && /\t--serve-lib\t/)' <<<"$all" |
             cut -f2- | paste -s -d '\t'; }
    q=$([ "$QUICK" = 1 ] && echo 1 || echo "")
    peers=$(kind f32) bpeers=$(kind bwd "$q") pbf16=$(kind bf16 "$q") pf16=$(kind f16 "$q")
    peers16=$(kind f32 "$q") # the binary32 peers in the 16-bit sweeps
fi
if [ -f "$BUILD/libgelulab.so" ]; then # the library's entry points, as users call them
    lib=(--library --lib "$BUILD/libgelulab.so" --sweep-args)
    libf=$(joined "${lib[@]}") libb=$(joined "${lib[@]}" --backward)
    libbf16=$(joined "${lib[@]}" --format bf16) libf16=$(joined "${lib[@]}" --format f16)
fi
line() { # NAME FIELD... (empty fields dropped)
    local out=$1
    for f in "${@:2}"; do [ -z "$f" ] || out+=$'\t'$f; done
    printf '%s\n' "$out"
}
e=${f32_args[*]:-}
line f32 --all "$e" "$peers" "$libf" --format f32 --mode "$mode"
line bf16 --all "$e" "${peers16:-}" "$pbf16" "$libbf16" --format bf16
line f16 --all "$e" "${peers16:-}" "$pf16" "$libf16" --format f16
line f64 --all --format f64 --mode "$mode"
line bwd --backward --all "$e" "$bpeers" "$libb" --format f32 --mode "$mode"
