#!/bin/sh
# Python kernels (bench/py_eval.py): gelulab validate/sweep --python FILE.py:FUNC, each failure a
# Python kernel can have isolated and named, the timing protocol, and the Python peers (those of
# make deps' environment) listed, swept and timed. Needs the Python peers' environment (make
# deps: PY, its interpreter); without it, says so and passes.
# Usage: test_python.sh GELULAB SOURCE_DIR PY
set -u
G=$1 S=$2 PY=$3
if ! "$PY" -c 'import numpy, scipy, ml_dtypes' 2>/dev/null; then
  echo "skip: no Python peers' environment at $PY (make deps makes it): nothing to test"
  exit 0
fi
export GELULAB_PYTHON=$PY
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
K=$S/tests/py_kernels.py

# v EXIT PATTERN ARGS...: gelulab validate ARGS exits EXIT and prints PATTERN (stdout or stderr)
v() {
  want=$1 pat=$2
  shift 2
  "$G" validate "$@" >"$T/out" 2>&1
  rc=$?
  if [ $rc -ne "$want" ] || ! grep -E -- "$pat" "$T/out" >/dev/null; then
    echo "FAIL validate $*: exit $rc (want $want), no '$pat' in:"; cat "$T/out"; fail=1; return
  fi
  echo "ok   validate $*: exit $rc"
}

# a reference in binary64 rounded once: 0.5 ULP, the witness of the sampled sweep
v 0 'PASS  max-ulp    max ULP on \[-5, 5\]: 0\.5 <= 4 \(worst x = 0x1\.e8p-144, result 0x1\.ep-145, reference 0x1\.e8p-145\)' \
  --python "$S/examples/python/adapters.py:numpy_gelu"
v 0 'PASS  specials   NaN -> NaN, \+inf -> \+inf, -inf -> -0, \+0 -> \+0, -0 -> -0' \
  --python "$S/examples/python/adapters.py:numpy_gelu" --probes-only
# 16 bits: the callable gets ml_dtypes.bfloat16 arrays and returns them
v 0 'PASS  max-ulp    max ULP on \[-5, 5\]: 0\.5 <= 1' --python "$S/examples/python/adapters.py:numpy_gelu" --abi bf16
# JAX's exact GELU backward through jax.vjp: x phi(x) at +inf is NaN
v 1 'FAIL  specials   wrong derivative at a special input \(dy = 1\): NaN gives NaN, \+inf NaN' \
  --python "$S/examples/python/adapters.py:jax_gelu_exact" --backward --probes-only
# each failure isolated, named and narrowed to its inputs (exit 2)
v 2 'narrowed to the 4 inputs .* together \(each half alone passes\): raised ValueError on 4 inputs: too long' --python "$K:raises"
v 2 'narrowed to x = [^ ]* \(n = 1\): returned shape \(2,\) for inputs of shape \(1,\)' --python "$K:bad_shape"
v 2 'returned float64 for float32 inputs' --python "$K:float64"
v 2 'narrowed to x = 0x1p\+0 \(n = 1\): crashed \(signal 11, Segmentation fault\)$' --python "$K:crash"
v 2 'narrowed to x = 0x1p\+1 \(n = 1\): hung' --python "$K:hang" --timeout 3
# what a kernel prints goes to stderr, not into the results
v 0 'PASS  max-ulp    max ULP on \[-5, 5\]: 0\.5 <= 4' --python "$K:chatty"
v 2 'has no callable nope' --python "$K:nope"
v 2 '^gelulab validate: --python .*: no file .*/none\.py$' --python "$S/none.py:f"
v 2 '^gelulab validate: --python .*: give FILE\.py:FUNCTION$' --python "$K"

# a sweep keeps the other kernels' results when a Python kernel fails
"$G" sweep --python "$K:crash" --defn exact --impl gelu-erfc-fast/scalar --format bf16 --out "$T/s.json" >"$T/out" 2>&1
if grep -q 'crashed (signal 11' "$T/out" && grep -E '^gelu-erfc-fast/scalar +exact +0\.5 ' "$T/out" >/dev/null &&
   grep -E 'python:.*crash.*FAILED' "$T/out" >/dev/null; then
  echo "ok   sweep: the crashing Python kernel failed, gelu-erfc-fast/scalar measured beside it"
else
  echo "FAIL sweep with a crashing Python kernel:"; cat "$T/out"; fail=1
fi

# one serving process for several kernels (--serve ARGS --serve-lib CMD): each measured, a
# failing one ended alone (the next request starts the process again)
SL="exec '$PY' '$S/bench/py_eval.py' --serve-many"
"$G" sweep --serve "--callable $S/examples/python/adapters.py:numpy_gelu" --serve-lib "$SL" --defn exact --name a \
           --serve "--callable $K:raises" --serve-lib "$SL" --defn exact --name b \
           --serve "--abi bf16 --callable $S/examples/python/adapters.py:numpy_gelu" --serve-lib "$SL" --abi bf16 \
           --defn exact --name c --format bf16 --out "$T/lib.json" >"$T/out" 2>&1
if grep -E '^a +exact +0\.5 ' "$T/out" >/dev/null && grep -E '^c +exact +0\.5 ' "$T/out" >/dev/null &&
   grep -E '^b .*FAILED' "$T/out" >/dev/null && grep -q 'raised ValueError on 4 inputs: too long' "$T/out" &&
   grep -q '"command": "--callable .*raises", "serve_lib": ".*--serve-many"' "$T/lib.json"; then
  echo "ok   sweep --serve-lib: two kernels measured by one serving process, the failing one named"
else
  echo "FAIL sweep --serve-lib:"; cat "$T/out"; grep '"command"' "$T/lib.json"; fail=1
fi

# the timing protocol: inputs once (answered 0 s: nothing timed), then 3 calls timed
"$PY" - "$S/bench/py_eval.py" "$S/examples/python/adapters.py:numpy_gelu" >"$T/time" 2>&1 <<'PYEOF'
import struct, subprocess, sys
p = subprocess.Popen([sys.executable, sys.argv[1], "--time"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
spec = ("--callable " + sys.argv[2]).encode()
def ask(k, inputs=b""):
    body = struct.pack("<QQQ", k, 4, len(spec)) + spec + inputs
    p.stdin.write(struct.pack("<Q", len(body)) + body)
    p.stdin.flush()
    return struct.unpack("<d", p.stdout.read(8))[0]
print("load", "untimed" if ask(0, struct.pack("<4f", -1, 0, 1, 2)) < 0.01 else "slow")
t = ask(3)
print("timed", "positive" if t > 0 else t)
p.stdin.close()
print("exit", p.wait())
PYEOF
if [ "$(tr '\n' ' ' <"$T/time")" = "load untimed timed positive exit 0 " ]; then
  echo "ok   py_eval --time: inputs once, then 3 calls timed in its process"
else
  echo "FAIL py_eval --time:"; cat "$T/time"; fail=1
fi

# above 2^20 elements it keeps one tensor (the last) and each kind's inputs, sent once: a peer
# without inputs of that size gets its tensor made from them (a callable that raises on other
# values checks what it is given: -7, -6, ..., 2^20 - 4, exact in binary32)
cat >"$T/kinds.py" <<'PYEOF'
import numpy as np
N = (1 << 20) + 4
WANT = np.arange(N, dtype=np.float32) - 7
def same(x):
    if x.dtype != np.float32 or not np.array_equal(x, WANT):
        raise ValueError("not the inputs sent")
    return x
PYEOF
"$PY" - "$S/bench/py_eval.py" "$T/kinds.py" >"$T/time2" 2>&1 <<'PYEOF'
import struct, subprocess, sys
import numpy as np
p = subprocess.Popen([sys.executable, sys.argv[1], "--time"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
n = (1 << 20) + 4
def ask(spec, k, inputs=b""):
    spec = spec.encode()
    body = struct.pack("<QQQ", k, n, len(spec)) + spec + inputs
    p.stdin.write(struct.pack("<Q", len(body)) + body)
    p.stdin.flush()
    got = p.stdout.read(8)
    return struct.unpack("<d", got)[0] if len(got) == 8 else "failed"
# two peers of one kind: the same callable under two spellings of its path
a, b = "--callable " + sys.argv[2] + ":same", "--callable " + sys.argv[2].replace("/kinds", "/./kinds") + ":same"
print("a sent", ask(a, 0, (np.arange(n, dtype="<f4") - 7).tobytes()) >= 0)
print("b made", ask(b, 0) >= 0, "timed", ask(b, 2) > 0)
print("a made again", ask(a, 2) > 0)
p.stdin.close()
print("exit", p.wait())
PYEOF
if [ "$(tr '\n' ' ' <"$T/time2")" = "a sent True b made True timed True a made again True exit 0 " ]; then
  echo "ok   py_eval --time: inputs above 2^20 sent once, a second peer's tensor made from them"
else
  echo "FAIL py_eval --time, inputs kept above 2^20:"; cat "$T/time2"; fail=1
fi
exit $fail
