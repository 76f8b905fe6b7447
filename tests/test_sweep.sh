#!/usr/bin/env bash
# The accuracy engine end to end (gelulab sweep / merge):
#  - shards merged equal the unsharded run byte for byte;
#  - a kernel measured beside another with the same wrong results on part of the inputs (the
#    run memo) gets the statistics it gets alone;
#  - the fast reference gives the same verdicts as pure MPFR: every bfloat16 and binary16 binade,
#    and whole binary32 binades (a binade is 8 chunks: --shard K/512 is binade K-1);
#  - a kernel wrong at one single input of the 2^32 is found, with that input, by the exhaustive
#    sweep (and nothing else is flagged);
#  - a crashing --lib kernel and a hanging --exec kernel: exit 2, one line naming the input
#    range, results of the others kept; bad flags and files: one-line errors, exit 2;
#  - merge --missing-shards names the shards to rerun (the cluster path's resume);
#  - the binary64 hunt: its shards merged equal the unsharded hunt byte for byte, with 256
#    samples per stratum and a 208-input climb per kernel and chunk counted;
#  - Ctrl-C and SIGTERM keep the finished chunks (complete: false), exit 130.
set -u
G=${1:?usage: test_sweep.sh GELULAB LIBKERNELS}
LIB=${2:?usage: test_sweep.sh GELULAB LIBKERNELS}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
json_field() { python3 -c "import json,sys; d=json.load(open('$1')); print(eval('d' + sys.argv[1]))" "$2"; }

# 1. shards merged = unsharded (quick binary32, a built-in and a library kernel)
K=(--impl gelu-erfc-fast/avx2 --impl gelu-tanh-libm --lib "$LIB" --symbol gelu_good --defn exact)
"$G" sweep --mode quick "${K[@]}" --out "$T/all.json" >/dev/null 2>&1 || bad "unsharded quick sweep"
for k in 1 2 3; do
    "$G" sweep --mode quick "${K[@]}" --shard $k/3 --out "$T/s$k.json" >/dev/null 2>&1 || bad "shard $k"
done
"$G" merge "$T/s1.json" "$T/s3.json" "$T/s2.json" --out "$T/merged.json" >/dev/null || bad "merge"
if cmp -s "$T/all.json" "$T/merged.json"; then ok; else bad "merged shards differ from the unsharded run"; fi
if cmp -s "$T/all.binades.csv" "$T/merged.binades.csv"; then ok; else bad "merged binade CSV differs"; fi
"$G" merge "$T/s1.json" "$T/s1.json" --out "$T/x.json" 2>"$T/err" >/dev/null
[[ $? == 2 ]] && grep -q "overlap" "$T/err" && ok || bad "overlapping shards must be refused"
# two of three shards: the missing chunks and the shard that covers them named, nothing written,
# exit 1; --partial writes it with "complete": false
rm -f "$T/x.json"
"$G" merge "$T/s1.json" "$T/s3.json" --out "$T/x.json" 2>"$T/err" >/dev/null
[[ $? == 1 && $(wc -l <"$T/err") == 1 && ! -e "$T/x.json" ]] && grep -q "chunks \[.*rerun --shard 2/3)" "$T/err" &&
    ok || bad "incomplete merge must name chunks and shard 2/3 and exit 1: $(cat "$T/err")"
"$G" merge "$T/s1.json" "$T/s3.json" --partial --out "$T/x.json" 2>"$T/err" >/dev/null
[[ $? == 0 && $(json_field "$T/x.json" "['complete']") == False ]] && grep -q "partial" "$T/err" &&
    ok || bad "merge --partial must write an incomplete file"
printf '{"schema": "nope"}' >"$T/bad.json"
"$G" merge "$T/bad.json" --out "$T/x.json" 2>"$T/err" >/dev/null
[[ $? == 2 && $(wc -l <"$T/err") == 1 ]] && ok || bad "bad result file: $(cat "$T/err")"

# 1b. the run memo: gelu_flush_late has gelu_flush's wrong tail (+0) below -12 and differs from
# it on [-12, -10) (the same chunk) and [1, 2); beside gelu_flush and relu (+0 on the whole
# negative tail) every statistic of each is the one it has alone
F=(--lib "$LIB" --symbol gelu_flush --defn exact --name flush)
FC=(--lib "$LIB" --symbol gelu_flush_late --defn exact --name flush_late)
"$G" sweep --mode quick --impl relu "${F[@]}" "${FC[@]}" --out "$T/memo.json" >/dev/null 2>&1 ||
    bad "quick sweep of the flushing kernels"
"$G" sweep --mode quick "${F[@]}" --out "$T/f.json" >/dev/null 2>&1 || bad "gelu_flush alone"
"$G" sweep --mode quick "${FC[@]}" --out "$T/fc.json" >/dev/null 2>&1 || bad "gelu_flush_late alone"
python3 - "$T" <<'PY' && ok || bad "the run memo changed a statistic"
import json, sys
t = sys.argv[1]
both = {k["name"]: k for k in json.load(open(t + "/memo.json"))["kernels"]}
alone = [json.load(open(t + f))["kernels"][0] for f in ("/f.json", "/fc.json")]
zl = [k["own"]["traits"]["zero_lost"][0] for k in alone]
sys.exit(0 if all(both[k["name"]]["own"] == k["own"] for k in alone) and min(zl) > 0 and
         alone[0]["own"] != alone[1]["own"] else 1)
PY

# 1c. libgelulab's entry point "lib/NAME" and the builds NAME/... of the algorithm it dispatches
# to: the earlier leads, the later follow it block by block and are measured alone where their
# results differ. Here "lib/gelu-cr" is gelu_flush_late, which differs from gelu-cr on the
# negative tail and [1, 2) only: the builds follow it on some chunks and diverge on others,
# listed before it and after it; every statistic of each is the one it has alone
E=(--lib "$LIB" --symbol gelu_flush_late --defn exact --name lib/gelu-cr)
C=(--impl gelu-cr/scalar --impl gelu-cr/avx2)
"$G" sweep --mode quick "${E[@]}" "${C[@]}" --out "$T/entry1.json" >/dev/null 2>&1 || bad "entry point first"
"$G" sweep --mode quick "${C[@]}" "${E[@]}" --out "$T/entry2.json" >/dev/null 2>&1 || bad "entry point last"
"$G" sweep --mode quick "${E[@]}" --out "$T/e.json" >/dev/null 2>&1 || bad "the entry point alone"
"$G" sweep --mode quick --impl gelu-cr/scalar --out "$T/c.json" >/dev/null 2>&1 || bad "gelu-cr alone"
python3 - "$T" <<'PY' && ok || bad "an entry point beside its builds changed a statistic"
import json, sys
t = sys.argv[1]
alone = {k["name"]: k for f in ("/e.json", "/c.json") for k in json.load(open(t + f))["kernels"]}
alone["gelu-cr/avx2"] = alone["gelu-cr/scalar"]
assert alone["lib/gelu-cr"]["own"] != alone["gelu-cr/scalar"]["own"]
for f in ("/entry1.json", "/entry2.json"):
    for k in json.load(open(t + f))["kernels"]:
        for a in ("own", "exact"):
            assert k.get(a) == alone[k["name"]].get(a), (f, k["name"], a)
PY

# 2. fast reference = pure MPFR: the same verdicts. Every count (inputs, correctly rounded,
#    faithful, non-finite, histogram bins, inputs per binade) is equal; max ULP and max absolute
#    error agree to 1e-9 relative or 1e-9 ULP (the two unrounded references differ by less than
#    2^-40 of the reference; MPFR's is a midpoint at ~64 bits, so its low part for tiny x is
#    coarser than the fast path's Taylor term). Relative errors are not compared: below 2^-1000
#    the fast path's unrounded value is 0 (documented), so relative errors against it are undefined.
same_verdicts() { # name, sweep arguments...
    local name=$1
    shift
    "$G" sweep "$@" --out "$T/fast.json" >/dev/null 2>&1
    "$G" sweep "$@" --mpfr-reference --out "$T/mpfr.json" >/dev/null 2>&1
    if python3 - "$T/fast.json" "$T/mpfr.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def close(u, v):
    if isinstance(u, str) or isinstance(v, str): return u == v
    return abs(u - v) <= 1e-9 * max(abs(u), abs(v)) + 1e-9
def same_stats(s, t):
    ints = ("n", "correctly_rounded", "faithful", "nonfinite")
    return all(s[k] == t[k] for k in ints) and all(close(s[k], t[k]) for k in ("max_ulp", "max_abs"))
ok = len(a["kernels"]) == len(b["kernels"])
for ka, kb in zip(a["kernels"], b["kernels"]):
    for ag in ("own", "exact"):
        x, y = ka[ag], kb[ag]
        ok &= same_stats(x["all"], y["all"]) and x["hist"] == y["hist"]
        ok &= all(same_stats(x["regions"][r], y["regions"][r]) for r in x["regions"])
        ok &= [e[4] for e in x["binades"]] == [e[4] for e in y["binades"]]
    if not ok:
        print("differs:", ka["name"], file=sys.stderr)
        break
sys.exit(0 if ok else 1)
PY
    then ok; else bad "fast reference and MPFR disagree: $name"; fi
}
V=(--impl gelu-erfc-fast/avx2 --impl gelu-tanh-fast/avx2 --impl gelu-sigmoid-libm --impl silu-fast/avx2 --impl gelu-poly5/avx2)
same_verdicts "bf16, every binade" --format bf16 "${V[@]}"
same_verdicts "f16, every binade" --format f16 "${V[@]}"
# binary32 binades: [2^-127, 2^-126) (subnormals' neighbour), [2^-20, 2^-19), -[2^6, 2^7)
for shard in 1/512 108/512 390/512; do
    same_verdicts "f32 binade --shard $shard" --shard $shard --impl gelu-erfc-fast/avx2
done

# 3. one wrong input of 2^32, found by the exhaustive sweep
"$G" sweep --lib "$LIB" --symbol gelu_planted --defn exact --out "$T/planted.json" >/dev/null 2>&1 \
    || bad "exhaustive sweep of the planted kernel"
top=$(json_field "$T/planted.json" "['kernels'][0]['own']['top'][0]['bits']")
ulp=$(json_field "$T/planted.json" "['kernels'][0]['own']['all']['max_ulp']")
second=$(json_field "$T/planted.json" "['kernels'][0]['own']['top'][1]['ulp']")
n=$(json_field "$T/planted.json" "['kernels'][0]['own']['all']['n']")
[[ $top == 0x40490fdb ]] && ok || bad "planted input not found first: $top"
python3 -c "import sys; sys.exit(0 if 999 < $ulp < 1001 and float('$second') <= 1 else 1)" && ok ||
    bad "planted error $ulp, next worst $second"
[[ $n == 4294967296 ]] && ok || bad "exhaustive sweep saw $n inputs"

# 4. crash and hang: reported with the input range, exit 2, the other kernels kept
"$G" sweep --format bf16 --impl gelu-erfc-fast/avx2 --lib "$LIB" --symbol gelu_crash --defn exact \
    --out "$T/crash.json" >"$T/out" 2>"$T/err"
rc=$?
[[ $rc == 2 ]] && grep -q "crashed (signal 11" "$T/err" && grep -q "on the chunk of inputs 0x1p-31 \.\. 0x1.fep+0 (chunk 3, n = 4096); narrowed to x = 0x1p+0 (n = 1): crashed (signal 11" "$T/err" &&
    [[ $(wc -l <"$T/err") == 1 ]] && ok || bad "crash: rc=$rc $(cat "$T/err")"
[[ $(json_field "$T/crash.json" "['kernels'][1]['failed']") == True &&
   $(json_field "$T/crash.json" "['kernels'][0]['own']['all']['n']") == 65536 ]] && ok ||
    bad "crash: results not kept"
# kernels of one library share a worker: one crashing leaves the others' results as they are
"$G" sweep --format bf16 --lib "$LIB" --symbol gelu_crash --defn exact --name crash \
    --lib "$LIB" --symbol gelu_good --defn exact --name good --out "$T/crash2.json" >/dev/null 2>&1
"$G" sweep --format bf16 --lib "$LIB" --symbol gelu_good --defn exact --name good \
    --out "$T/good.json" >/dev/null 2>&1
[[ $(json_field "$T/crash2.json" "['kernels'][0]['failed']") == True &&
   $(json_field "$T/crash2.json" "['kernels'][1]['failed']") == False &&
   $(json_field "$T/crash2.json" "['kernels'][1]['own']") == \
   "$(json_field "$T/good.json" "['kernels'][0]['own']")" ]] && ok ||
    bad "a crash in a library's shared worker changed its other kernel's results"
"$G" sweep --format bf16 --exec 'sleep 100' --defn exact --timeout 1 --out "$T/hang.json" \
    >"$T/out" 2>"$T/err"
rc=$?
[[ $rc == 2 ]] && grep -q "hung" "$T/err" && grep -q "on the chunk of inputs .*; narrowed to x = [^ ]* (n = 1): hung" "$T/err" && ok ||
    bad "hang: rc=$rc $(cat "$T/err")"
"$G" sweep --format bf16 --exec 'head -c 100' --defn exact --out "$T/short.json" >"$T/out" 2>"$T/err"
[[ $? == 2 ]] && grep -q "returned 100 bytes" "$T/err" && ok || bad "short output: $(cat "$T/err")"

# 5. usage errors: one line, exit 2
for args in "--frob" "--impl nope" "--format f8 --all" "--lib /nonexistent.so --symbol f --defn exact" \
            "--lib $LIB --symbol no_such_symbol --defn exact" "--exec true" "--shard 4/3 --all" \
            "--lib $LIB --defn exact"; do
    # shellcheck disable=SC2086
    "$G" sweep $args >/dev/null 2>"$T/err"
    rc=$?
    [[ $rc == 2 && $(wc -l <"$T/err") == 1 ]] && ok || bad "usage error '$args': rc=$rc $(cat "$T/err")"
done

# 5b. the resume path: the shards that cover missing chunks, as a list (none: an empty line)
[[ $("$G" merge "$T/s1.json" "$T/s3.json" --shards 3 --missing-shards) == 2 &&
   $("$G" merge "$T/s1.json" "$T/s2.json" "$T/s3.json" --shards 3 --missing-shards) == "" &&
   $("$G" merge "$T/s1.json" --shards 3 --missing-shards) == 2,3 ]] && ok ||
    bad "merge --missing-shards"
"$G" merge "$T/s1.json" --shards 4 --missing-shards >/dev/null 2>"$T/err"
[[ $? == 2 && $(cat "$T/err") == *"shards of 3, not of --shards 4"* ]] && ok ||
    bad "merge --shards of another count: $(cat "$T/err")"
"$G" merge "$T/s1.json" --missing-shards >/dev/null 2>"$T/err"
[[ $? == 2 && $(wc -l <"$T/err") == 1 ]] && ok || bad "--missing-shards without --shards"

# 5c. the binary64 hunt: 2 signs x 5 binades x 256 samples = 2560 inputs in 10 chunks, each
# followed by a 13 x 16 = 208-input climb per kernel: n = 2560 + 2080; shards merge exactly
H=(--format f64 --mode hunt --per-stratum 256 --exponents -2:2 --impl gelu-erfc-stable --impl gelu-tanh-libm)
"$G" sweep "${H[@]}" --out "$T/h.json" >/dev/null 2>&1 || bad "hunt"
for k in 1 2 3; do
    "$G" sweep "${H[@]}" --shard $k/3 --out "$T/h$k.json" >/dev/null 2>&1 || bad "hunt shard $k"
done
"$G" merge "$T/h3.json" "$T/h1.json" "$T/h2.json" --out "$T/hm.json" >/dev/null || bad "hunt merge"
cmp -s "$T/h.json" "$T/hm.json" && cmp -s "$T/h.hist.csv" "$T/hm.hist.csv" && ok ||
    bad "hunt shards merged differ from the unsharded hunt"
[[ $(json_field "$T/h.json" "['kernels'][0]['own']['all']['n']") == 4640 &&
   $(json_field "$T/h.json" "['hunt']") == "{'per_stratum': 256, 'exponents': [-2, 2]}" ]] && ok ||
    bad "hunt: inputs counted or parameters written"
for args in "--mode hunt --impl gelu-erfc-stable" "--format f64 --mode hunt --exponents 3:2 --all" \
            "--format f64 --mode hunt --per-stratum 5000 --all"; do
    # shellcheck disable=SC2086
    "$G" sweep $args >/dev/null 2>"$T/err"
    [[ $? == 2 && $(wc -l <"$T/err") == 1 ]] && ok || bad "hunt usage error '$args': $(cat "$T/err")"
done

# 6. Ctrl-C, and SIGTERM (a scheduler's time limit), keep what was finished
for sig in INT TERM; do
    "$G" sweep --impl gelu-erfc-fast/avx2 --out "$T/$sig.json" >/dev/null 2>&1 &
    pid=$!
    sleep 3
    kill -$sig $pid
    wait $pid
    rc=$?
    [[ $rc == 130 && $(json_field "$T/$sig.json" "['complete']") == False &&
       $(json_field "$T/$sig.json" "['kernels'][0]['own']['all']['n']") -gt 0 ]] && ok ||
        bad "SIG$sig: rc=$rc"
done

echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
