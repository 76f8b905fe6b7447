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
grep -q '^verdict: PASS (0 of 11 checks failed)' "$T/out" || { echo "FAIL v_good verdict"; fail=1; }
grep -q '^PASS  subnormal  subnormal inputs (256) and results (' "$T/out" || { echo "FAIL v_good subnormal"; fail=1; }
grep -q '^PASS  memory     reads x and writes y within \[0, n) only, writes every y, leaves x as it was: 84 calls' "$T/out" ||
  { echo "FAIL v_good memory"; fail=1; }
# memory: each planted defect named, at the length where it happens, the rest skipped (exit 1)
v v_write_past 1 memory FAIL "writes y\[0\] past the end \(n = 0\), in calls of n = 0 with the arrays ending at a guard page$"
v v_read_past 1 memory FAIL "reads x\[1\] past the end \(n = 1\), in calls of n = 1 with the arrays ending at a guard page$"
v v_unwritten 1 memory FAIL "leaves 1 of the n = 1 outputs unwritten \(first y\[0\]\), in calls of n = 1"
v v_write_before 1 memory FAIL "writes y\[-1\] before the start \(n = 0\), in calls of n = 0"
v v_write_input 1 memory FAIL "writes its input x\[0\] \(n = 1\), in calls of n = 1"
grep -q '^verdict: FAIL (1 of 1 checks failed)' "$T/out" && grep -q 'the sweep and the other checks are skipped' "$T/out" ||
  { echo "FAIL memory: the rest not skipped"; cat "$T/out"; fail=1; }
"$G" validate --lib "$L" --symbol v_write_past --probes-only >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^FAIL  memory     writes y\[0\] past the end (n = 0)' "$T/out" &&
  echo "ok   memory with --probes-only" || { echo "FAIL memory --probes-only (exit $rc)"; cat "$T/out"; fail=1; }
# the sweep names an access past the end too (no validate probe before it)
"$G" sweep --lib "$L" --symbol v_write_past --defn exact --name wp --format bf16 --out "$T/wp.json" >"$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'kernel wp writes y\[[0-9]*\] past the end (n = [0-9]*) on the chunk of inputs .*; narrowed to x = .* (n = 1): writes y\[1\] past the end (n = 1)' "$T/out" &&
  echo "ok   sweep: writes past the end, named" || { echo "FAIL sweep past the end (exit $rc)"; cat "$T/out"; fail=1; }
v v_nan_inf 1 specials FAIL "wrong value for an infinity \(\+inf gives \+inf, -inf gives NaN"
v v_no_nan 1 specials FAIL "NaN not propagated \(NaN gives \+0\)"
v v_zero_sign 1 specials FAIL "wrong sign of zero \(\+0 gives \+0, -0 gives \+0"
v v_tail 1 tail WARN "returns 0 from x = -0x1\.[0-9a-f]*p\+2 \(-5\.[0-9]*\) down"
v v_tail 1 tail FAIL "cancellation in the negative tail" --region all
# subnormals off (FTZ/DAZ): the flush named, and the tail's zeros from -13.0 not taken for
# cancellation (Phi(x) = 2^-126 there: GELU(x)/x within a factor 4 of the least normal number)
v v_ftz 1 subnormal FAIL "subnormals flushed to zero: subnormal results flushed \\([0-9]+ of [0-9]+ from normal inputs are 0, not one kept; 25[0-9] of 256 subnormal inputs give 0\\)"
v v_ftz 1 tail WARN "returns 0 from x = -0x1\\.[9a][0-9a-f]*p\\+3 \\(-1[23]\\.[0-9]*\\) down, .*: not cancellation: GELU\\(x\\)/x \\(Phi\\(x\\)\\) is [0-9.e-]* there, within a factor 4 of binary32's least normal number 2\\^-126 or below it: an intermediate \\(erfc\\(-x/sqrt2\\) or Phi\\(x\\)\\) flushed to zero or underflowed \\(subnormals off: FTZ\\)"
v v_good 0 subnormal PASS "subnormal inputs \\(256\\) and results \\([0-9]+ from normal inputs\\) not flushed to zero"
v v_tanh 1 definition FAIL "implements the tanh definition, not the exact it claims: max abs error on \[-5, 5\] against each: exact 0\.000473, tanh 2\.38e-07, sigmoid 0\.0207, silu 0\.193$"
v v_tanh_naive 1 definition FAIL "implements the tanh definition, not the exact it claims: max abs error on \[-5, 5\] against each: exact 0\.000473, tanh 4\.3e-07,"
v v_sigmoid 1 definition FAIL "implements the sigmoid definition, not the exact it claims"
v v_silu 1 definition FAIL "implements the silu definition, not the exact it claims"
v v_tail 1 definition PASS "matches the claimed exact definition best \(max abs error on \[-5, 5\] against each: exact 4\.37e-07,"
v v_tanh 0 definition PASS "matches the claimed tanh" --defn tanh
v v_fp16 1 precision FAIL "at most 11 significant bits.*binary16"
v v_vtail 1 layout FAIL "length, position or vector tail\): at x = -0x1\.8p\+2 calls of n = 1 give -0x1\.732ep-34, one call of n = 1003 gives -0x1\.96c966p-28 \(the reference: -0x1\.96c966p-28\)"
v v_inplace 1 layout FAIL "in-place breakage.*in place \(y == x\) give"
v v_nondet 1 layout FAIL "not deterministic.*second calls on the same arrays give"

"$G" validate --lib "$L" --symbol v_good --format bf16 --json "$T/v.json" >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '"verdict": "pass"' "$T/v.json" && grep -q '"format": "bf16"' "$T/v.json" &&
  grep -q '"mode": "exhaustive"' "$T/v.json" && echo "ok   bf16, --json" || { echo "FAIL bf16/--json (exit $rc)"; cat "$T/out"; fail=1; }
"$G" validate --impl gelu-erfc-double --max-ulp 1 >"$T/out" 2>&1 && grep -q '^verdict: PASS' "$T/out" &&
  echo "ok   --impl gelu-erfc-double passes at 1 ULP" || { echo "FAIL --impl gelu-erfc-double"; cat "$T/out"; fail=1; }
# --max-ulp 0.5 is "correctly rounded", every result checked bit for bit: gelu-cr passes,
# gelu-erfc-double (0.5 ULP to within binary64's resolution on most inputs, not correctly rounded) fails
"$G" validate --impl gelu-cr/scalar --max-ulp 0.5 >"$T/out" 2>&1 &&
  grep -Eq '^PASS  max-ulp +correctly rounded \(--max-ulp 0\.5\) on \[-5, 5\]: 0 of [0-9]+ results differ' "$T/out" &&
  echo "ok   --impl gelu-cr/scalar: correctly rounded at --max-ulp 0.5" || { echo "FAIL gelu-cr/scalar --max-ulp 0.5"; cat "$T/out"; fail=1; }
"$G" validate --impl gelu-erfc-double --max-ulp 0.5 >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -Eq '^FAIL  max-ulp +not correctly rounded \(--max-ulp 0\.5\) on \[-5, 5\]: [1-9][0-9]* of [0-9]+ results differ' "$T/out" &&
  echo "ok   --impl gelu-erfc-double: not correctly rounded at --max-ulp 0.5" || { echo "FAIL gelu-erfc-double --max-ulp 0.5 (exit $rc)"; cat "$T/out"; fail=1; }
"$G" validate --exec "'$G' __eval-lib '$L' v_good" >"$T/out" 2>&1 && grep -q 'pieces of 13' "$T/out" &&
  echo "ok   --exec passes, layout checks reduced" || { echo "FAIL --exec"; cat "$T/out"; fail=1; }

# crashes and hangs: exit 2, narrowed to the input by value, --json written with the failure
"$G" validate --lib "$L" --symbol v_crash --mode quick --json "$T/c.json" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
  grep -q 'crashed (signal 11, Segmentation fault) (n = [0-9]*, arrays ending at a guard page); narrowed to x = 0x1\.[0-9a-f]*p+0 (n = 1): crashed' "$T/err" &&
  grep -q '"verdict": "error"' "$T/c.json" && grep -q '"error": ".*narrowed to x = 0x1\.' "$T/c.json" &&
  echo "ok   crash: exit 2, narrowed to x = 0x1.*p+0, --json" || { echo "FAIL crash (exit $rc)"; cat "$T/err" "$T/c.json"; fail=1; }
"$G" validate --lib "$L" --symbol v_nan_crash --mode quick --json "$T/n.json" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'v_nan_crash crashed (signal 11, Segmentation fault) on the chunk of inputs .*; narrowed to x = nan (n = 1): crashed' "$T/err" &&
  grep -q '"verdict": "error"' "$T/n.json" &&
  echo "ok   crash on NaN: narrowed to x = nan" || { echo "FAIL nan crash (exit $rc)"; cat "$T/err"; fail=1; }
"$G" validate --lib "$L" --symbol v_hang --mode quick --timeout 2 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'hung (no complete result within 2 s; killed) .*narrowed to x = 0x1\.[0-9a-f]*p+0 (n = 1): hung' "$T/err" &&
  echo "ok   hang: exit 2, narrowed to its input" || { echo "FAIL hang (exit $rc)"; cat "$T/err"; fail=1; }
"$G" validate --lib "$L" --symbol v_nan_hang --mode quick --timeout 2 --json "$T/h.json" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'v_nan_hang hung (no complete result within 2 s; killed) on the chunk .*narrowed to x = nan (n = 1)' "$T/err" &&
  grep -q '"verdict": "error"' "$T/h.json" &&
  echo "ok   hang on NaN: narrowed to x = nan" || { echo "FAIL nan hang (exit $rc)"; cat "$T/err"; fail=1; }
# load errors say which, in one line; --json written
"$G" validate --lib "$L" --symbol no_such --json "$T/l.json" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
  grep -qx "gelulab validate: cannot use --lib $L --symbol no_such: symbol not found: no 'no_such' in $L; its exported functions that look most like kernels: .*v_good.* ([0-9]* exported functions)" "$T/err" &&
  grep -q '"verdict": "error"' "$T/l.json" &&
  echo "ok   missing symbol: exit 2, the library's kernels listed" || { echo "FAIL missing symbol"; cat "$T/err"; fail=1; }
"$G" validate --lib /no/such.so --symbol x >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -qx 'gelulab validate: cannot use --lib /no/such.so --symbol x: file not found: /no/such.so' "$T/err" &&
  echo "ok   missing library: exit 2, file not found" || { echo "FAIL missing library"; cat "$T/err"; fail=1; }
if command -v cc >/dev/null; then
  # a library whose own dependency is missing: the loader's words
  printf 'float dep_f(float v) { return v; }\n' >"$T/dep.c"
  printf 'float dep_f(float);\nvoid needs(const float *x, float *y, unsigned long n) { for (unsigned long i = 0; i < n; i++) y[i] = dep_f(x[i]); }\n' >"$T/needs.c"
  cc -shared -fPIC -o "$T/libgldep.so" "$T/dep.c" && cc -shared -fPIC -o "$T/libneeds.so" "$T/needs.c" -L"$T" -lgldep &&
    rm "$T/libgldep.so"
  "$G" validate --lib "$T/libneeds.so" --symbol needs >/dev/null 2>"$T/err"; rc=$?
  [ $rc -eq 2 ] && grep -qx "gelulab validate: cannot use --lib $T/libneeds.so --symbol needs: $T/libneeds.so is there, but a library it needs is missing: libgldep.so: cannot open shared object file: No such file or directory" "$T/err" &&
    echo "ok   missing dependency: the loader's words" || { echo "FAIL missing dependency"; cat "$T/err"; fail=1; }
fi
# a bare name that is a file here is that file
cp "$L" "$T/libgood.so"
(cd "$T" && "$G" validate --lib libgood.so --symbol v_good --probes-only >out 2>err); rc=$?
[ $rc -eq 0 ] && grep -q '^verdict: PASS' "$T/out" && echo "ok   --lib NAME in the current directory" ||
  { echo "FAIL bare name (exit $rc)"; cat "$T/err"; fail=1; }
(cd "$T" && "$G" validate --lib libnone.so --symbol v_good --probes-only >out 2>err); rc=$?
[ $rc -eq 2 ] && grep -q '^gelulab validate: cannot use --lib libnone.so --symbol v_good: file not found: libnone.so (not in the current directory, nor where the loader looks: ' "$T/err" &&
  echo "ok   --lib NAME found nowhere" || { echo "FAIL bare name missing (exit $rc)"; cat "$T/err"; fail=1; }
"$G" validate --impl gelu-erfc-fast/scalar --max-ulp -1 >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && echo "ok   bad bound: exit 2" || { echo "FAIL bad bound"; fail=1; }
"$G" validate --region middle --impl relu >/dev/null 2>&1; [ $? -eq 2 ] && echo "ok   bad region: exit 2" || { echo "FAIL bad region"; fail=1; }
"$G" validate >/dev/null 2>&1; [ $? -eq 2 ] && echo "ok   no kernel: exit 2" || { echo "FAIL no kernel"; fail=1; }
exit $fail
