#!/usr/bin/env bash
# make deps-python: the Python peers' virtual environment (bench/py_eval.py), made once per
# machine outside the clone, every package pinned by bench/py_peers.txt and installed from PyPI
# with --no-deps (what the pins say, nothing resolved again).
#   VENV/.pins   the pins it was made from, written when every package is in: another clone on
#                the machine (CI's) finds it and installs nothing; pins that changed make it
#                again from nothing.
# Python: $GL_PYTHON if set, else the first of python3.12, python3.13, python3.14 and the
# pyenv versions of those (JAX 0.12 and NumPy 2.5 need 3.12 or newer; Debian 12 has 3.11).
# Optional, like every peer: a failure is a warning, and the Python peers are then listed as
# skipped with the reason (the evaluator's --version check).
# usage: pipeline/py_venv.sh VENV PINS
set -u
venv=$1 pins=$2
warn() { echo "make deps: warning: $*: the TensorFlow, JAX, ONNX Runtime 1.31 and OpenVINO peers will be skipped" >&2; exit 0; }
if [ -f "$venv/.pins" ] && cmp -s "$venv/.pins" "$pins" && [ -x "$venv/bin/python" ]; then
    echo "make deps: Python peers present in $venv"
    exit 0
fi
py=${GL_PYTHON:-}
if [ -z "$py" ]; then
    for v in 3.12 3.13 3.14; do
        for c in "python$v" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v"*/bin/"python$v"; do
            if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import venv, ssl' 2>/dev/null; then
                py=$(command -v "$c"); break 2
            fi
        done
    done
fi
[ -n "$py" ] || warn "no Python 3.12 or newer (JAX 0.12 and NumPy 2.5 need it; GL_PYTHON=PATH names one)"
"$py" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null ||
    warn "$py is not Python 3.12 or newer"
start=$(date +%s)
echo "make deps: making the Python peers' environment in $venv ($("$py" --version 2>&1), $(grep -c '==' "$pins") pinned packages)"
rm -rf "$venv" && mkdir -p "$(dirname "$venv")" || warn "cannot create $venv"
log=$(mktemp)
if ! "$py" -m venv "$venv" >"$log" 2>&1; then
    rm -rf "$venv"; warn "$py -m venv failed: $(tail -n 1 "$log")"
fi
if ! "$venv/bin/python" -m pip install -q --no-deps --only-binary :all: --disable-pip-version-check \
        -r "$pins" >"$log" 2>&1; then
    rm -rf "$venv"; warn "pip install -r $pins failed: $(tail -n 1 "$log")"
fi
rm -f "$log"
cp "$pins" "$venv/.pins"
echo "make deps: Python peers installed in $venv in $(( $(date +%s) - start )) s ($(du -sm "$venv" | cut -f1) MB)"
exit 0
