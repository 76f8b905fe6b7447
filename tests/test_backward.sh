#!/usr/bin/env bash
# The backward pass end to end (gelulab sweep --backward, validate --backward) on the planted
# kernels of tests/test_backward_lib.c:
#  - a correct backward kernel swept with dy = 1 through the library worker and through the
#    pipe protocol (pairs x, dy) gives the same bits, <= 0.5 ULP + 2^-20 against exact_grad, the
#    derivative's special values (NaN, 1, -0, 1/2, 1/2), the "abi" and the root region of
#    exactly the quick space's inputs within 1/32 of x0; shards merged equal the unsharded run;
#  - validate --backward passes it and names each planted defect: dy ignored, dy added, subnormal
#    dy flushed, cancellation in the tail, a float evaluation off near the zero of f' (ULP bound
#    fails, scaled bound holds), the wrong definition, dx == dy breakage, a crash;
#  - usage errors: one line, exit 2.
set -u
G=${1:?usage: test_backward.sh GELULAB LIBBACKWARD}
L=${2:?usage: test_backward.sh GELULAB LIBBACKWARD}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# 1. sweep --backward, quick binary32: library worker and pipe protocol alike
K=(--lib "$L" --symbol b_good --defn exact --name good
   --exec "'$G' __eval-lib --backward '$L' b_good" --defn exact_grad --name piped)
"$G" sweep --backward --mode quick "${K[@]}" --out "$T/b.json" >"$T/out" 2>&1 || bad "sweep --backward: $(cat "$T/out")"
python3 - "$T/b.json" <<'PY' && ok || bad "the backward sweep's figures"
import json, struct, sys
d = json.load(open(sys.argv[1]))
k = {x["name"]: x for x in d["kernels"]}
g, p = k["good"], k["piped"]
assert g["abi"] == p["abi"] == "backward", "abi"
assert g["defn"] == p["defn"] == "exact_grad", "defn"
assert g["own"]["traits"]["out_hash"] == p["own"]["traits"]["out_hash"], "pipe != library"
for r in ("tail_neg", "core", "pos", "root"):
    assert g["own"]["regions"][r]["max_ulp"] <= 0.5 + 2**-20, (r, g["own"]["regions"][r]["max_ulp"])
assert g["own"]["traits"]["specials"] == {"+0": "0x1p-1"}, "quick: +0 is the only special input"
# the root region: quick patterns are the multiples of 61 below 2^32; x within 1/32 of
# x0 = -0.751791524693564457 (negative floats: sign bit set, larger bits for larger |x|)
bits = lambda v: struct.unpack("<I", struct.pack("<f", v))[0]
back = lambda b: struct.unpack("<f", struct.pack("<I", b))[0]
x0 = -0.751791524693564457
inside = lambda b: abs(back(b) - x0) <= 2**-5
lo, hi = bits(x0 + 2**-5), bits(x0 - 2**-5)  # nearest floats to the ends (bits grow with |x|)
while not inside(lo): lo += 1
while inside(lo - 1): lo -= 1
while not inside(hi): hi -= 1
while inside(hi + 1): hi += 1
want = hi // 61 - (lo - 1) // 61
assert g["own"]["regions"]["root"]["n"] == want, (g["own"]["regions"]["root"]["n"], want)
assert g["own"]["regions"]["tiny"]["n"] > 0 and d["inputs"] == 70409300
PY
# every special input: the exhaustive bfloat16 space
"$G" sweep --backward --format bf16 --lib "$L" --symbol b_good --defn exact --out "$T/h.json" >/dev/null 2>&1 ||
    bad "bf16 backward sweep"
python3 - "$T/h.json" <<'PY' && ok || bad "the derivative's special values"
import json, sys
sp = json.load(open(sys.argv[1]))["kernels"][0]["own"]["traits"]["specials"]
assert sp == {"nan": "nan", "+inf": "0x1p+0", "-inf": "-0x0p+0", "+0": "0x1p-1", "-0": "0x1p-1"}, sp
PY
grep -q "good (backward, dy = 1): scaled error (ulps of 1) 0.5 on \[-5, 5\]" "$T/out" && ok ||
    bad "the summary's scaled error line: $(cat "$T/out")"
for k in 1 2; do
    "$G" sweep --backward --mode quick "${K[@]}" --shard $k/2 --out "$T/s$k.json" >/dev/null 2>&1 || bad "shard $k"
done
"$G" merge "$T/s2.json" "$T/s1.json" --out "$T/m.json" >/dev/null && cmp -s "$T/b.json" "$T/m.json" && ok ||
    bad "merged backward shards differ from the unsharded run"

# 1c. our backward kernels' NEON builds under qemu (when built), listed first: each build's
# statistics are the ones it has alone (a built-in twin of an external kernel that follows
# another external one takes the first of the chain's statistics)
if "$G" list | grep -q '^gelu-grad-fast/neon .* qemu'; then
    N=(--impl gelu-grad-fast/neon --impl gelu-grad-fast/scalar --impl gelu-grad-accurate/neon --impl gelu-grad-accurate/scalar)
    "$G" sweep --backward --format bf16 "${N[@]}" --out "$T/n.json" >/dev/null 2>&1 || bad "NEON backward sweep"
    "$G" sweep --backward --format bf16 --impl gelu-grad-accurate/scalar --out "$T/n1.json" >/dev/null 2>&1
    python3 - "$T/n.json" "$T/n1.json" <<'PY' && ok || bad "a NEON-first backward sweep changed a statistic"
import json, sys
k = {x["name"]: x for x in json.load(open(sys.argv[1]))["kernels"]}
alone = json.load(open(sys.argv[2]))["kernels"][0]
for name in ("gelu-grad-accurate/neon", "gelu-grad-accurate/scalar"):
    assert k[name]["own"]["all"] == alone["own"]["all"], name
    assert k[name]["own"]["traits"]["out_hash"] == alone["own"]["traits"]["out_hash"], name
PY
else
    echo "skip NEON backward builds (no qemu-aarch64 or cross build)"
fi

# 2. validate --backward: the correct kernel passes, each defect gets its diagnosis
v() { # SYMBOL EXIT CHECK STATUS PATTERN [extra args]
    sym=$1 want=$2 check=$3 st=$4 pat=$5
    shift 5
    "$G" validate --backward --lib "$L" --symbol "$sym" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [[ $rc != "$want" ]]; then bad "$sym: exit $rc, expected $want: $(cat "$T/out" "$T/err")"; return; fi
    if [[ -n $check ]] && ! grep -Eq "^$st  $check +.*$pat" "$T/out"; then
        bad "$sym: no '$st $check ... $pat' in: $(cat "$T/out")"; return
    fi
    ok
}
v b_good 0 "" "" ""
grep -q '^verdict: PASS (0 of 12 checks failed)' "$T/out" && ok || bad "b_good verdict: $(cat "$T/out")"
v b_dy_ignored 1 dy FAIL "dy ignored \(dx = f'\(x\) whatever dy\)" --probes-only
v b_dy_added 1 dy FAIL "dy added, not multiplied" --probes-only
v b_dy_ftz 1 dy FAIL "dy = -0x1.8p-135: dx = 0x0p\+0 .*subnormal dy flushed to zero" --probes-only
v b_tail 1 tail FAIL "loses the derivative from x = -0x1.17ae14p\+2 \(-4.37\) down.*cancellation in the negative tail" --probes-only
v b_ftz 0 tail WARN "loses the derivative from x = -0x1\.[9a][0-9a-f]*p\+3 \(-1[23][.0-9]*\) down.*: not cancellation: GELU\(x\)/x \(Phi\(x\)\) is [0-9.e-]* there.*flushed to zero or underflowed" --probes-only
v b_float 1 max-ulp FAIL "max ULP on \[-5, 5\] outside the root: 45.58 > 4"
grep -Eq "^PASS  max-scaled max scaled error \(ulps of 1\) on \[-5, 5\], root included: 1.162 <= 4" "$T/out" && ok ||
    bad "b_float's scaled error: $(cat "$T/out")"
v b_tanh 1 definition FAIL "implements the tanh_grad definition, not the exact_grad it claims" --probes-only
v b_tanh 0 definition PASS "matches the claimed tanh_grad definition best" --defn tanh --mode quick
v b_inplace_dy 1 layout FAIL "in-place breakage.*in place over dy \(dx == dy\) give" --probes-only
"$G" validate --backward --lib "$L" --symbol b_read_dy_past >"$T/out" 2>&1
[[ $? == 1 ]] && grep -q '^FAIL  memory     reads dy\[1\] past the end (n = 1), in calls of n = 1 with the arrays ending at a guard page$' "$T/out" && ok ||
    bad "b_read_dy_past: $(cat "$T/out")"
"$G" validate --backward --lib "$L" --symbol b_crash >"$T/out" 2>"$T/err"
[[ $? == 2 ]] && grep -q "crashed (signal 11, Segmentation fault) .*; narrowed to x = 0x1\.[0-9a-f]*p+0, dy = [^ ]* (n = 1): crashed" "$T/err" && ok ||
    bad "b_crash: $(cat "$T/err")"
"$G" validate --backward --exec "'$G' __eval-lib --backward '$L' b_good" --json "$T/v.json" >"$T/out" 2>&1
[[ $? == 0 ]] && grep -q '"abi": "backward"' "$T/v.json" && grep -q '"own_root": {' "$T/v.json" && ok ||
    bad "validate --backward --exec: $(cat "$T/out")"

# 2a. a serving backward evaluator (Python: requests of pairs x, dy; dy GELU'(x) in binary64,
# rounded once) passes validate --backward --serve
cat >"$T/serve.py" <<'EOF'
import math, struct, sys
i, o = sys.stdin.buffer, sys.stdout.buffer
def grad(v):
    if v != v: return v
    if abs(v) == math.inf: return 1.0 if v > 0 else -0.0
    return 0.5 * math.erfc(-v / math.sqrt(2)) + v * math.exp(-0.5 * v * v) / math.sqrt(2 * math.pi)
def f32(d):  # Python's pack of a double beyond FLT_MAX raises; the rounding gives an infinity
    return d if d != d or abs(d) <= 3.4028235677973366e38 else math.copysign(math.inf, d)
while True:
    h = i.read(8)
    if len(h) < 8: break
    n = struct.unpack('<Q', h)[0]
    p = struct.unpack('<%df' % (n // 4), i.read(n))
    dx = [f32(p[2 * k + 1] * grad(p[2 * k])) for k in range(len(p) // 2)]
    o.write(struct.pack('<%df' % len(dx), *dx)); o.flush()
EOF
"$G" validate --backward --probes-only --serve "python3 '$T/serve.py'" --name served >"$T/out" 2>&1
[[ $? == 0 ]] && grep -q '^verdict: PASS (0 of 7 checks failed)' "$T/out" && grep -q '^SKIP  memory ' "$T/out" && ok ||
    bad "validate --backward --serve: $(cat "$T/out")"

# 2b. our backward kernels (scalar builds: every machine runs them): the accurate ones pass at
# 1 ULP, the binary32 one fails the ULP bound next to the root region and holds the scaled one
for k in gelu-grad-accurate gelu-tanh-grad-accurate; do
    "$G" validate --impl $k/scalar --max-ulp 1 >"$T/out" 2>&1
    [[ $? == 0 ]] && grep -q '^verdict: PASS (0 of 12 checks failed)' "$T/out" && ok ||
        bad "validate --impl $k/scalar --max-ulp 1: $(cat "$T/out")"
done
"$G" validate --impl gelu-grad-fast/scalar >"$T/out" 2>&1
[[ $? == 1 ]] && grep -Eq '^FAIL  max-ulp +max ULP on \[-5, 5\] outside the root: 2[0-9.]+ > 4' "$T/out" &&
    grep -Eq '^PASS  max-scaled' "$T/out" && grep -Eq '^PASS  dy ' "$T/out" && ok ||
    bad "validate --impl gelu-grad-fast/scalar: $(cat "$T/out")"

# 3. usage errors
"$G" sweep --mode quick --lib "$L" --symbol b_good --defn exact_grad >/dev/null 2>"$T/err"
[[ $? == 2 && $(wc -l <"$T/err") == 1 ]] && grep -q "needs --backward" "$T/err" && ok ||
    bad "a derivative without --backward: $(cat "$T/err")"
"$G" validate --backward --impl gelu-erfc-fast/scalar >/dev/null 2>"$T/err"
[[ $? == 2 && $(wc -l <"$T/err") == 1 ]] && grep -q "is a forward kernel" "$T/err" && ok ||
    bad "a forward built-in with --backward: $(cat "$T/err")"

echo "backward: $pass passed, $fail failed"
[[ $fail == 0 ]]
