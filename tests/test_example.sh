#!/bin/sh
# examples/mykernel, as its README runs it: `make check` passes for my_gelu; my_gelu_naive fails
# the gate with exit 1. Runs on a copy (the source tree stays clean).
# Usage: test_example.sh SOURCE_DIR GELULAB
set -u
S=$1 G=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$S/examples/mykernel" "$T/"
fail=0
make -s -C "$T/mykernel" check GELULAB="$G" >"$T/out" 2>&1 && grep -c '^verdict: PASS' "$T/out" | grep -q '^2$' &&
  grep -q '"verdict": "pass"' "$T/mykernel/validate.json" && echo "ok   make check: two PASS verdicts" ||
  { echo "FAIL make check"; cat "$T/out"; fail=1; }
"$G" validate --lib "$T/mykernel/libmygelu.so" --symbol my_gelu_naive >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^FAIL  specials' "$T/out" && grep -q '^WARN  tail' "$T/out" &&
  echo "ok   my_gelu_naive fails (exit 1): specials, tail" || { echo "FAIL my_gelu_naive (exit $rc)"; cat "$T/out"; fail=1; }
exit $fail
