#!/usr/bin/env bash
# impls/coeffs.h is what impls/coeffs.sollya produces (`make coeffs` would not change it).
set -u
src=${1:?usage: test_coeffs.sh SOURCE_DIR}
out=$(mktemp)
if ! sollya --warnonstderr "$src/impls/coeffs.sollya" >"$out" 2>/dev/null; then
    echo "FAIL: sollya failed on impls/coeffs.sollya"; rm -f "$out"; echo "0 passed, 1 failed"; exit 1
fi
if diff -u "$src/impls/coeffs.h" "$out"; then
    echo "1 passed, 0 failed"; rm -f "$out"; exit 0
fi
echo "FAIL: impls/coeffs.h differs from the Sollya script's output (run make coeffs)"
rm -f "$out"; echo "0 passed, 1 failed"; exit 1
