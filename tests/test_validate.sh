#!/bin/sh
# gelulab validate: one planted kernel per bug class is caught with the right diagnosis; a
# correct kernel passes; crashes, hangs and usage errors give exit 2.
# Usage: test_validate.sh GELULAB LIBVALIDATE_KERNELS.so
set -u
G=$1 L=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
# v SYMBOL EXPECTED_EXIT CHECK_NAME STATUS PATTERN [extra args]
v() {
  sym=$1 want=$2 check=$3 st=$4 pat=$5
  shift 5
  "$G" validate --lib "$L" --symbol "$sym" --mode quick "$@" >"$T/out" 2>"$T/err"
  rc=$?
  if [ $rc -ne "$want" ]; then echo "FAIL $sym: exit $rc, expected $want"; cat "$T/out" "$T/err"; fail=1; return; fi
  if [ -n "$check" ] && ! grep -E "^$st  $check +.*$pat" "$T/out" >/dev/null; then
    echo "FAIL $sym: no '$st $check ... $pat' in:"; cat "$T/out"; fail=1; return
  fi
  echo "ok   $sym: exit $rc${check:+, $st $check}"
}
v v_good 0 "" "" ""
grep -q '^verdict: PASS (0 of 9 checks failed)' "$T/out" || { echo "FAIL v_good verdict"; fail=1; }
v v_nan_inf 1 specials FAIL "wrong value for an infinity \(\+inf gives \+inf, -inf gives NaN"
v v_no_nan 1 specials FAIL "NaN not propagated \(NaN gives \+0\)"
v v_zero_sign 1 specials FAIL "wrong sign of zero \(\+0 gives \+0, -0 gives \+0"
v v_tail 1 tail WARN "returns 0 from x = -0x1\.[0-9a-f]*p\+2 \(-5\.[0-9]*\) down"
v v_tail 1 tail FAIL "cancellation in the negative tail" --region all
v v_tanh 1 definition FAIL "implements the tanh definition, not the exact it claims"
v v_tanh 0 definition PASS "matches the claimed tanh" --defn tanh
v v_fp16 1 precision FAIL "at most 11 significant bits.*binary16"
v v_vtail 1 layout FAIL "length, position or vector tail.*calls of n = 1 gives"
v v_inplace 1 layout FAIL "in-place breakage.*in place \(y == x\) gives"
v v_nondet 1 layout FAIL "not deterministic.*a second call on the same arrays gives"

"$G" validate --lib "$L" --symbol v_good --format bf16 --json "$T/v.json" >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '"verdict": "pass"' "$T/v.json" && grep -q '"format": "bf16"' "$T/v.json" &&
  grep -q '"mode": "exhaustive"' "$T/v.json" && echo "ok   bf16, --json" || { echo "FAIL bf16/--json (exit $rc)"; cat "$T/out"; fail=1; }
"$G" validate --impl erfc-double --max-ulp 1 >"$T/out" 2>&1 && grep -q '^verdict: PASS' "$T/out" &&
  echo "ok   --impl erfc-double passes at 1 ULP" || { echo "FAIL --impl erfc-double"; cat "$T/out"; fail=1; }
"$G" validate --exec "'$G' __eval-lib '$L' v_good" >"$T/out" 2>&1 && grep -q 'pieces of 13' "$T/out" &&
  echo "ok   --exec passes, layout checks reduced" || { echo "FAIL --exec"; cat "$T/out"; fail=1; }

"$G" validate --lib "$L" --symbol v_crash --mode quick >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'v_crash crashed (signal 11, Segmentation fault) on inputs 0x1' "$T/err" &&
  echo "ok   crash: exit 2 with the input range" || { echo "FAIL crash (exit $rc)"; cat "$T/err"; fail=1; }
"$G" validate --lib "$L" --symbol v_hang --mode quick --timeout 2 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'v_hang hung (no complete result within 2 s; killed) on inputs' "$T/err" &&
  echo "ok   hang: exit 2 after the timeout" || { echo "FAIL hang (exit $rc)"; cat "$T/err"; fail=1; }
"$G" validate --lib "$L" --symbol no_such >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
  grep -qx "gelulab validate: cannot use --lib $L --symbol no_such: missing file or symbol" "$T/err" &&
  echo "ok   missing symbol: exit 2, one line naming validate" || { echo "FAIL missing symbol"; cat "$T/err"; fail=1; }
"$G" validate --lib /no/such.so --symbol x >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -qx 'gelulab validate: cannot use --lib /no/such.so --symbol x: missing file or symbol' "$T/err" &&
  echo "ok   missing library: exit 2, one line" || { echo "FAIL missing library"; cat "$T/err"; fail=1; }
"$G" validate --impl erf/scalar --max-ulp -1 >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && echo "ok   bad bound: exit 2" || { echo "FAIL bad bound"; fail=1; }
"$G" validate --region middle --impl relu >/dev/null 2>&1; [ $? -eq 2 ] && echo "ok   bad region: exit 2" || { echo "FAIL bad region"; fail=1; }
"$G" validate >/dev/null 2>&1; [ $? -eq 2 ] && echo "ok   no kernel: exit 2" || { echo "FAIL no kernel"; fail=1; }
exit $fail
