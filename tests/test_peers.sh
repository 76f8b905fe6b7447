#!/bin/sh
# The peers as make report measures them. When the Debian-packaged ones are built here (oneDNN,
# PyTorch, Eigen), gelulab validate diagnoses each in its own words: the diagnoses below are
# these libraries' measured behaviour (Debian 12: libdnnl 2.6.3, libtorch 1.13.1, Eigen 3.4.0;
# PyPI: torch 2.15.0, onednn 2026.1.0 (oneDNN 3.13.2), mkl 2026.2.0).
# The npm ones (ggml, ONNX Runtime) likewise when make deps could install them (optional). A
# serving evaluator (--serve) is swept and validated like a library, and its failures named.
# Usage: test_peers.sh GELULAB LIBGELULAB_PEERS.so
set -u
G=$1 P=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
# the binary32 forward and the backward peers (validate --backward), from one listing of every kind
"$G" list --peers --lib "$P" --tsv --all-kinds >"$T/all.tsv" || { echo "FAIL list --peers --tsv --all-kinds"; exit 1; }
awk -F'\t' 'NR == 1 || $1 == "f32" || $1 == "bwd"' "$T/all.tsv" | cut -f2- >"$T/peers.tsv"
"$G" list --peers --lib "$P" --sweep-args --all-kinds >"$T/all"
awk -F'\t' '$1 == "f32" || $1 == "bwd"' "$T/all" | cut -f2- >"$T/args"
# --all-kinds lists what the per-kind listings list, led by the kind
"$G" list --peers --lib "$P" --sweep-args --backward >"$T/bwd"
if awk -F'\t' '$1 == "bwd"' "$T/all" | cut -f2- | cmp -s - "$T/bwd" && [ -s "$T/bwd" ] &&
   [ "$(cut -f1 "$T/all" | sort -u | tr '\n' ' ')" = "$(cut -f1 "$T/all" | sort -u | grep -xE 'f32|bwd|bf16|f16' | tr '\n' ' ')" ]; then
  echo "ok   list --all-kinds: the backward lines equal --backward's, every line led by f32, bwd, bf16 or f16"
else
  echo "FAIL list --all-kinds differs from --backward, or a line has another kind:"; cat "$T/all" "$T/bwd"; fail=1
fi
# peers.tsv: name defn isa library version package path runs note lineage call
# a peer's name carries the version of the library it measures ("sleef-3.5-erf/avx2"), in
# every kind
unversioned=$(cut -f2- "$T/all.tsv" | awk -F'\t' 'NR > 1 { v = "-" $5; i = index($1, v)
  c = substr($1, i + length(v), 1)
  if (!i || (c != "" && c != "-" && c != "/")) print $1 " (" $4 " " $5 ")" }')
if [ -z "$unversioned" ] && [ "$(wc -l <"$T/all.tsv")" -gt 20 ]; then
  echo "ok   every peer's name carries its library's version"
else
  echo "FAIL peers whose names lack their library's version: $unversioned"; fail=1
fi
# the default calls (the call column, "What a default call gives"): one per library version at
# most, binary32 forward only; PyTorch's reaches its oneDNN path, JAX's the tanh form
calls=$(awk -F'\t' 'NR > 1 && $12 != "-" { print $1 "|" $5 " " $6 "|" $2 "|" $3 }' "$T/all.tsv" | sort)
twice=$(printf '%s\n' "$calls" | cut -d'|' -f2 | sort | uniq -d)
if [ -z "$twice" ] && ! printf '%s\n' "$calls" | grep -qv '^f32|' &&
   printf '%s\n' "$calls" | grep -qx 'f32|PyTorch 2.15|torch-2.15-gelu|exact' &&
   printf '%s\n' "$calls" | grep -qx 'f32|JAX 0.12|jax-0.12-gelu-tanh|tanh' &&
   printf '%s\n' "$calls" | grep -qx 'f32|TensorFlow 2.21|tf-2.21-gelu|exact' &&
   printf '%s\n' "$calls" | grep -qx 'f32|ggml 0.23|ggml-0.23-gelu|tanh'; then
  echo "ok   default calls: at most one per library version, binary32 forward; PyTorch's is oneDNN's path, JAX's and ggml's the tanh form"
else
  echo "FAIL default calls (the call column): $calls"; fail=1
fi
# a peer swept through a twin (the table's sweep_symbol: MKL's calls with VML_ERRMODE_NOERR)
# gives the call's results bit for bit: the twins are the peers whose swept symbol
# (--sweep-args) is not the one the listing gives (the call as its users write it); one quick
# sweep of both (every 61st binary32 pattern: 1.7e7 of them where MKL's erfc or Phi underflows
# and the default call reports each), their out_hash (the hash of every result, NaN bits
# included) compared. MKL's peers must have twins wherever they run.
"$G" list --peers --lib "$P" >"$T/plain"
set -f
set --
twins="" other=""
old=$IFS IFS=$(printf '\t')
while read -r kind lib path flag sym rest; do
  [ "$lib" = --lib ] || continue
  name=${rest##*"$IFS"}
  call=$(awk -v n="$name" '$1 == n { for (i = 2; i <= NF; i++) if ($i ~ /^gl_/) { print $i; exit } }' "$T/plain")
  [ -n "$call" ] && [ "$call" != "$sym" ] || continue
  [ "$kind" = f32 ] || { other="$other $kind:$name"; continue; }
  twins="$twins $name"
  # shellcheck disable=SC2086
  set -- "$@" $lib $path $flag $sym $rest
  # shellcheck disable=SC2086
  set -- "$@" $lib $path $flag $call $(printf '%s' "$rest" | sed "s|--name${IFS}.*|--name${IFS}call:$name|")
done <"$T/all"
IFS=$old
set +f
mkl_runs=$(awk -F'\t' 'NR > 1 && $4 == "MKL" && $8 == "yes" { print $1 }' "$T/peers.tsv")
if [ -n "$other" ]; then
  echo "FAIL twins of backward or 16-bit peers, which this check does not sweep:$other"; fail=1
elif [ -z "$twins" ] && [ -n "$mkl_runs" ]; then
  echo "FAIL MKL's peers run here but none is swept through a twin"; fail=1
elif [ -z "$twins" ]; then
  echo "skip twins: no peer with a sweep twin runs here (MKL: make deps)"
elif "$G" sweep --mode quick --threads 2 "$@" --out "$T/twins.json" >"$T/out" 2>&1; rc=$?; [ $rc -ne 0 ]; then
  echo "FAIL the twins' sweep (exit $rc):"; cat "$T/out"; fail=1
else
  differ=$(python3 - "$T/twins.json" $twins 2>&1 <<'EOF2'
import json, sys
k = {r['name']: r for r in json.load(open(sys.argv[1]))['kernels']}
h = lambda n: k[n]['own']['traits']['out_hash']
bad = [n for n in sys.argv[2:] if k[n]['failed'] or k['call:' + n]['failed'] or h(n) != h('call:' + n)]
print(' '.join(bad) if bad else 'same')
EOF2
)
  if [ "$differ" = same ]; then
    echo "ok   the sweeps' twins give their calls' results bit for bit:$twins"
  else
    echo "FAIL a twin's results differ from its call's: $differ"; fail=1
  fi
fi
runs() { awk -F'\t' -v n="$1" '$1 == n && $8 == "yes" {ok = 1} END {exit !ok}' "$T/peers.tsv"; }

# d PEER CHECK STATUS PATTERN [validate options]: the peer's diagnosis CHECK is STATUS, matching PATTERN
d() {
  name=$1 check=$2 st=$3 pat=$4
  shift 4
  if ! runs "$name"; then echo "skip $name: $(awk -F'\t' -v n="$name" '$1 == n {print $9}' "$T/peers.tsv")"; return; fi
  line=$(awk -F'\t' -v n="$name" '$NF == n' "$T/args")
  old=$IFS IFS=$(printf '\t')
  # shellcheck disable=SC2086
  set -- $line "$@"
  IFS=$old
  "$G" validate "$@" >"$T/out" 2>"$T/err"
  rc=$?
  if [ $rc -eq 2 ] || ! grep -E "^$st  $check +.*$pat" "$T/out" >/dev/null; then
    echo "FAIL $name: exit $rc, no '$st $check ... $pat' in:"; cat "$T/out" "$T/err"; fail=1; return
  fi
  echo "ok   $name: $st $check"
}

d onednn-2.6-gelu_erf specials FAIL '-inf gives NaN.*-0 gives \+0' --probes-only
d onednn-2.6-gelu_erf tail WARN 'returns 0 from x = -0x1\.633332p\+2' --probes-only
# exact GELU through oneDNN on arrays, ATen's own kernel on one element
d torch-1.13-gelu layout FAIL 'at x = -0x1\.8p\+2 calls of n = 1 give -0x0p\+0, one call of n = 1003 gives 0x0p\+0 \(the reference: -0x1\.96c966p-28\)' --probes-only
d torch-1.13-gelu-aten layout FAIL 'at x = 0x1\.f33dp-1 calls of n = 1 give 0x1\.a0fba6p-1, one call of n = 1003 gives 0x1\.a0fba4p-1 \(the reference: 0x1\.a0fba6p-1\)' --probes-only
d torch-1.13-gelu-tanh specials FAIL '-inf gives NaN' --probes-only
# the tanh forms claiming exact fail the definition check (by max abs error on [-5, 5]), the
# exact ones pass it
d onednn-2.6-gelu_tanh definition FAIL 'implements the tanh definition, not the exact it claims: max abs error on \[-5, 5\] against each: exact 0\.000473, tanh 4\.71e-07,' --defn exact --probes-only
d torch-1.13-gelu-tanh definition FAIL 'implements the tanh definition, not the exact it claims: max abs error on \[-5, 5\] against each: exact 0\.000473, tanh 4\.3e-07,' --defn exact --probes-only
d onednn-2.6-gelu_erf definition PASS 'matches the claimed exact definition best \(max abs error on \[-5, 5\] against each: exact 3\.71e-07, tanh 0\.000473' --probes-only
# Eigen's float erf, a rational approximation, falls below -1 and rises above 1 (built with AVX,
# no FMA, as TensorFlow's wheels: the same bits on every x86 CPU with AVX)
d eigen-3.4-gelu/avx range FAIL 'wrong sign on 854 inputs, x in \[-0x1\.6a07fep\+2, -0x1\.47e6b2p\+2\]; \|y\| > \|x\| on 8 inputs.*erf above 1' --mode quick
d eigen-3.4-gelu-tanh/avx tail FAIL 'returns 0 from x = -0x1\.35c29p\+2' --probes-only
# the backward pass: x phi(x) is inf * 0 = NaN at +-inf in all five; Phi as (1 + erf)/2 and
# (1 + tanh)/2 cancel in the tail; PyTorch's results depend on the length (oneDNN, or ATen for
# one element)
d onednn-2.6-gelu_erf-bwd specials FAIL '\+inf NaN, -inf NaN' --backward --probes-only
d onednn-2.6-gelu_erf-bwd tail FAIL 'loses the derivative from x = -0x1\.1a3d7p\+2' --backward --probes-only
d onednn-2.6-gelu_tanh-bwd tail FAIL 'loses the derivative from x = -0x1\.af5c28p\+1' --backward --probes-only
d torch-1.13-gelu-bwd layout FAIL 'calls of n = 1 give -0x1\.39260cp-26, one call of n = 1003 gives -0x1p-26' --backward --probes-only
d torch-1.13-gelu-bwd-aten dy PASS 'dx = dy f' --backward --probes-only
d torch-1.13-gelu-tanh-bwd specials FAIL '\+inf NaN, -inf NaN' --backward --probes-only
# the PyPI peers (optional: make deps fetches them): PyTorch 2.15 takes oneDNN 3.13's AVX-512
# path, a polynomial that gives NaN at +inf too; oneDNN 3.13 capped at AVX2 is 2.6's code; MKL's
# CdfNorm keeps the tail (x Phi(x): no 1 + erf), but x Phi(x) at -inf is -inf * 0
d onednn-3.13-gelu_erf/avx512 specials FAIL '\+inf gives NaN, -inf gives NaN' --probes-only
d onednn-3.13-gelu_erf/avx512 definition PASS 'exact 1\.04e-06, tanh 0\.000474' --probes-only
d onednn-3.13-gelu_erf/avx2 specials FAIL '\+inf gives \+inf, -inf gives NaN.*-0 gives \+0' --probes-only
d torch-2.15-gelu specials FAIL '\+inf gives NaN, -inf gives NaN' --probes-only
d torch-2.15-gelu layout FAIL 'at x = 0x1\.be67ap\+1 calls of n = 1 give 0x1\.be4bc4p\+1, one call of n = 1003 gives 0x1\.be4bcap\+1 \(the reference: 0x1\.be4bc6p\+1\)' --probes-only
d torch-2.15-gelu-aten layout FAIL 'at x = 0x1\.f33dp-1 calls of n = 1 give 0x1\.a0fba6p-1, one call of n = 1003 gives 0x1\.a0fba2p-1' --probes-only
d mkl-2026.2-cdfnorm-ha tail PASS 'no zero result where the definition is a normal binary32 number' --probes-only
d mkl-2026.2-cdfnorm-ha specials FAIL '\+inf gives \+inf, -inf gives NaN' --probes-only
# the npm peers (optional)
d ggml-0.23-gelu precision FAIL 'at most 11 significant bits.*binary16' --probes-only
d ggml-0.23-gelu-erf definition PASS 'exact' --probes-only
d ort-1.30-gelu specials FAIL '-inf gives NaN' --probes-only
d ort-1.30-quickgelu definition PASS 'sigmoid' --probes-only

# --serve: a serving evaluator in Python (x Phi(x) in binary64, rounded once: correctly rounded
# but for rare double-rounding cases), requests until stdin ends
cat >"$T/serve.py" <<'EOF'
import math, struct, sys
i, o = sys.stdin.buffer, sys.stdout.buffer
while True:
    h = i.read(8)
    if len(h) < 8: break
    n = struct.unpack('<Q', h)[0]
    x = struct.unpack('<%df' % (n // 4), i.read(n))
    y = [v if v != v else 0.5 * v * math.erfc(-v / math.sqrt(2)) if abs(v) != math.inf else (v if v > 0 else -0.0) for v in x]
    o.write(struct.pack('<%df' % len(y), *y)); o.flush()
EOF
"$G" validate --serve "python3 '$T/serve.py'" --probes-only --name py-serve >"$T/out" 2>&1
grep -q '^PASS  layout .*a serving evaluator: lengths and a second request only' "$T/out" &&
  grep -q '^PASS  specials' "$T/out" && echo "ok   --serve: validate's probes pass for a correct evaluator" ||
  { echo "FAIL --serve validate"; cat "$T/out"; fail=1; }
"$G" sweep --serve "python3 '$T/serve.py'" --defn exact --name py-serve --format bf16 --threads 2 \
  --out "$T/s.json" >"$T/out" 2>&1
grep -q '"source": "serve"' "$T/s.json" && grep -Eq '^py-serve +exact +0\.5 +0\.5 +0\.5 ' "$T/out" &&
  echo "ok   --serve: a bf16 sweep, max 0.5 ULP (binary32 results rounded to bf16), source serve" ||
  { echo "FAIL --serve sweep"; cat "$T/out"; fail=1; }
printf 'import sys\nsys.stdin.buffer.read(8)\nsys.exit(3)\n' >"$T/die.py"
"$G" sweep --serve "python3 '$T/die.py'" --defn exact --name dies --format bf16 --out "$T/d.json" >"$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'kernel dies exited with status 3 on the chunk of inputs .*; narrowed to x = [^ ]* (n = 1): exited with status 3' "$T/out" &&
  echo "ok   --serve: an evaluator that exits is reported with its inputs, exit 2" ||
  { echo "FAIL --serve failure (exit $rc)"; cat "$T/out"; fail=1; }
# the Python frameworks (make deps' environment, served by bench/py_eval.py): TensorFlow's eager
# GELU depends on the length (a vectorised body and a scalar tail; x = -6 on an AMD Zen 4),
# TensorFlow and JAX flush subnormals, so their erfc-based exact forms lose the tail only at
# -13.01; OpenVINO's CPU plug-in gives NaN at +inf as oneDNN 3.13's AVX-512 code does
d tf-2.21-gelu layout FAIL 'results depend on how the kernel is called \(length, position or vector tail\): at x = ' --probes-only
d tf-2.21-gelu specials FAIL '\+inf gives \+inf, -inf gives NaN' --probes-only
d jax-0.12-gelu-tanh tail FAIL 'returns 0 from x = -0x1\.37ae14p\+2' --probes-only
d jax-0.12-gelu-exact tail WARN 'returns 0 from x = -0x1\.a051eap\+3' --probes-only
d ort-1.31-gelu tail WARN 'returns 0 from x = -0x1\.633332p\+2' --probes-only
# (OpenVINO's +inf: its AVX-512 code, oneDNN 3.13's; an AVX2 CPU gets 2.6's, +inf -> +inf)
grep -qw avx512f /proc/cpuinfo && d openvino-2026.4-gelu specials FAIL '\+inf gives NaN, -inf gives NaN' --probes-only
d jax-0.12-gelu-exact-bwd specials FAIL 'NaN gives NaN, \+inf NaN, -inf NaN' --backward --probes-only
exit $fail
