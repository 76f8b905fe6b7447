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
# the README's sample outputs of examples/mykernel are this build's, line for line: every
# ```console block whose first line is `$ build/gelulab validate --lib ./libmygelu.so ...` is
# run in the example's folder and its other lines compared with the output
awk -v d="$T" '/^```console$/ {inb = 1; n++; next} /^```$/ {inb = 0; next}
  inb {print > (d "/readme_block_" n)}' "$S/README.md"
samples=0
for b in "$T"/readme_block_*; do
  first=$(head -n 1 "$b")
  case $first in '$ build/gelulab validate --lib ./libmygelu.so '*) ;; *) continue ;; esac
  samples=$((samples + 1))
  args=${first#'$ build/gelulab '}
  # shellcheck disable=SC2086
  (cd "$T/mykernel" && "$G" $args) >"$T/got" 2>&1
  tail -n +2 "$b" >"$T/want"
  if diff "$T/want" "$T/got" >"$T/diff"; then
    echo "ok   README sample: $args"
  else
    echo "FAIL README sample differs from the run: $args"; cat "$T/diff"; fail=1
  fi
done
[ $samples -ge 2 ] || { echo "FAIL README: $samples validate samples of examples/mykernel found"; fail=1; }
exit $fail
