#!/bin/sh
# The report generator on a small result set made here (a shard of the quick binary32 sweep, the
# 16-bit sweeps of three kernels, a binary64 shard, facts, a tiny benchmark): every chart (PNG and
# SVG) and every section is produced; a missing input gives a one-line error naming the file.
# Usage: test_report.sh GELULAB GELULAB_BENCH
set -u
G=$1 B=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
D=$T/in O=$T/out
mkdir -p "$D"
K="--impl gelu-erfc-fast/scalar --impl gelu-tanh-fast/scalar --impl relu --impl gelu-poly5/scalar"
P=$(dirname "$B")/libgelulab-peers.so # a peer swept through --lib, as make report does
PEER=""
if "$G" list --peers --lib "$P" 2>/dev/null | grep -q '^onednn-2.6-gelu_erf .* yes  *gl_peer_onednn_gelu_erf '; then
  PEER="--lib $(dirname "$B")/libgelulab-peer-onednn.so --symbol gl_peer_onednn_gelu_erf --defn exact --name onednn-2.6-gelu_erf"
  # the same function under the name of another version of the library: "What changed between
  # versions" sets the two side by side, bit-identical
  PEER="$PEER --lib $(dirname "$B")/libgelulab-peer-onednn.so --symbol gl_peer_onednn_gelu_erf --defn exact --name onednn-9.9-gelu_erf/avx512"
fi
LIBSO=$(dirname "$B")/libgelulab.so # the library's entry point, swept as make report does
LIBK=""
[ -f "$LIBSO" ] && LIBK="--impl gelu-fast/scalar --lib $LIBSO --symbol gl_gelu_fast --defn exact --name lib/gelu-fast"
OMP_NUM_THREADS=1 GELULAB_ISA=scalar "$G" sweep $K $PEER $LIBK --format f32 --mode quick --shard 1/64 --out "$D/f32.json" \
  --times "$D/f32.times.tsv" >/dev/null 2>&1
"$G" sweep $K --impl gelu-cr-bf16/scalar --format bf16 --out "$D/bf16.json" >/dev/null 2>&1
"$G" sweep $K --impl gelu-cr-f16/scalar --format f16 --out "$D/f16.json" >/dev/null 2>&1
if [ -n "$PEER" ]; then # the 16-bit peer table, as make report keeps it
  { "$G" list --peers --lib "$P" --tsv --format bf16; "$G" list --peers --lib "$P" --tsv --format f16 | tail -n +2; } >"$D/peers16.tsv"
fi
"$G" sweep --impl gelu-erfc-stable --impl relu --format f64 --mode quick --shard 1/16 --out "$D/f64.json" >/dev/null 2>&1
"$G" facts --out "$D" --meta commit=test --meta date=today >/dev/null 2>"$T/ferr"
check "facts exits 0" "[ $? -eq 0 ]"
GELULAB_ISA=scalar "$B" --sizes=64,1024 --benchmark_filter='^(memcpy|relu-vec|gelu-erfc-fast/scalar|gelu-tanh-fast/scalar|relu|gelu-poly5/scalar|onednn-2.6-gelu_erf|memcpy16|relu16|gelu-cr-bf16/scalar|gelu-cr-f16/scalar|gelu-fast/scalar|lib/gelu-fast)/' \
     --benchmark_repetitions=2 --benchmark_min_time=0.0001 --benchmark_min_warmup_time=0 \
     --benchmark_out="$D/bench.json" --benchmark_out_format=json >/dev/null 2>&1
# the speed per distribution: N(0, 1) timed, MiniLM skipped with its reason, uniform not run
GELULAB_ISA=scalar "$B" --dist=normal --sizes=4096,65536 --benchmark_filter='^(memcpy|gelu-fast/scalar|onednn-2.6-gelu_erf)/' \
     --benchmark_repetitions=2 --benchmark_min_time=0.0001 --benchmark_min_warmup_time=0 \
     --benchmark_out="$D/dist-normal.json" --benchmark_out_format=json >/dev/null 2>&1
echo '--dist minilm: cannot open /nowhere/minilm.f32: No such file or directory' >"$D/dist-minilm.skipped"

"$G" moons --samples 200 --epochs 3 --hidden 8 --seeds 3 --act relu,gelu-exact,gelu-erfc-fast/scalar \
     --out "$D/moons.json" >/dev/null 2>&1
check "moons exits 0" "[ $? -eq 0 ]"

if [ -n "$PEER" ]; then # the peer table as make report keeps it (9 columns), one library at two versions
  printf 'name\tdefn\tisa\tlibrary\tversion\tpackage\tpath\truns\tnote\n' >"$D/peers.tsv"
  printf 'onednn-2.6-gelu_erf\texact\tjit\toneDNN\t2.6\tDebian libdnnl-dev\teltwise gelu_erf\tyes\toneDNN erf\n' >>"$D/peers.tsv"
  printf 'onednn-9.9-gelu_erf/avx512\texact\tavx512\toneDNN\t9.9\tnowhere\tthe same, renamed\tyes\t-\n' >>"$D/peers.tsv"
fi
"$G" report --in "$D" --out "$O" 2>"$T/err"
check "report exits 0" "[ $? -eq 0 ]"
if [ -n "$PEER" ]; then
  check "What the frameworks compute: each peer with its version, package and path" \
        "grep -q '^## What the frameworks compute' '$O/REPORT.md' &&
         grep -qF -- '- \`onednn-9.9-gelu_erf/avx512\` (oneDNN 9.9, nowhere): the same, renamed.' '$O/REPORT.md'"
  check "What changed between versions: both rows, oldest first, and bit-identical in words" \
        "sed -n '/^## What changed between versions/,/^## /p' '$O/REPORT.md' | grep -E '^\| onednn-' | cut -d'|' -f2,3 | tr -d ' ' | tr '\n' ' ' | grep -qx 'onednn-2.6-gelu_erf|2.6 onednn-9.9-gelu_erf/avx512|9.9 ' &&
         grep -qF -- '- \`onednn-2.6-gelu_erf\` → \`onednn-9.9-gelu_erf/avx512\`: bit-identical results' '$O/REPORT.md'"
  # the time per call at the smallest size, of the peers timed (9.9 is not)
  check "What changed between versions: the time one call takes" \
        "grep -qE '^- One call of 64 floats \(64 ÷ its elements/s at that size\) takes: \`onednn-2\.6-gelu_erf\` [0-9.]+ µs\.\$' '$O/REPORT.md'"
fi
if [ -n "$PEER" ]; then # onednn-9.9-gelu_erf/avx512 is not benchmarked: "-" in its place
  check "the frameworks table: a row of bit-identical peers gives each one's library and speed" \
        "grep -qE '^\| onednn-2.6-gelu_erf = onednn-9.9-gelu_erf/avx512[^|]* \| oneDNN 2.6 / oneDNN 9.9 \| exact \|.*\| 1\.000 / - \|\$' '$O/REPORT.md'"
fi
# "What a default call gives", from the peer table's call column (11 columns), with gelulab's
# own kernels in the peers' places so that it runs where no peer is built: a row per call, its
# cells from the sweep's file against exact GELU (a kernel claiming the tanh form too), a peer
# that does not run saying why, and the libraries without a call named; none from a table of 10
# columns, nor from one whose calls are all "-"
D2=$T/in2
cp -r "$D" "$D2"
OMP_NUM_THREADS=1 GELULAB_ISA=scalar "$G" sweep --impl gelu-erfc-fast/scalar --impl gelu-tanh-fast/scalar \
  --format f32 --mode quick --shard 16/64 --out "$D2/f32.json" >/dev/null 2>"$T/err2" # the two forms differ there
check "the default calls' sweep exits 0" "[ $? -eq 0 ]"
{ printf 'name\tdefn\tisa\tlibrary\tversion\tpackage\tpath\truns\tnote\tlineage\tcall\n'
  printf 'gelu-erfc-fast/scalar\texact\tauto\tErflib\t2.0\tnowhere\tgelu(x)\tyes\t-\tErflib\terflib.gelu(x)\n'
  printf 'relu\texact\tauto\tReluLib\t1.0\tnowhere\trelu(x)\tyes\t-\tReluLib\t-\n'
  printf 'nowhere-1.0-gelu\texact\tauto\tNowhere\t1.0\tnowhere\tgelu(x)\tno\tnot installed here\tNowhere\tnowhere.gelu(x)\n'
  printf 'gelu-tanh-fast/scalar\ttanh\tauto\tTanhlib\t1.0\tnowhere\tgelu(x)\tyes\t-\tTanhlib\ttanhlib.gelu(x)\n'
} >"$D2/peers.tsv"
"$G" report --in "$D2" --out "$T/out2" 2>>"$T/err2"
check "the report with default calls exits 0" "[ $? -eq 0 ]"
check "What a default call gives: a row per call, its cells from the sweep's file" \
      "python3 - '$D2/f32.json' '$T/out2/REPORT.md' <<'PY'
import json, math, re, sys
ks = {k['name']: k for k in json.load(open(sys.argv[1]))['kernels']}
erf, th = ks['gelu-erfc-fast/scalar'], ks['gelu-tanh-fast/scalar']
q = chr(96) # a backtick, which the shell's double quotes would take
def bin_cell(h, f): # the report's upper edge of the bin holding the f-quantile
    want, s, b = math.ceil(f * sum(h)), 0, 0
    while b < len(h) - 1:
        s += h[b]
        if s >= want:
            break
        b += 1
    if b == len(h) - 1:
        return '> 2^%d' % (len(h) - 3)
    u = 2.0 ** (b - 1)
    return '≤ %g' % u if u <= 2 else '≤ 2^%d' % (b - 1)
def cells(k): # max ULP and worst input on [-5, 5], median / 99.9 %, % CR, as the report writes them
    c, a = k['regions']['core'], k['all']
    u = '%.3g' % c['max_ulp']
    u = '%.9g' % c['max_ulp'] if c['max_ulp'] > 0.5 and u == '0.5' else u
    p = 100.0 * a['correctly_rounded'] / a['n']
    cr = ('> 99.99' if a['correctly_rounded'] < a['n'] and p >= 99.995 else
          '< 0.01' if a['correctly_rounded'] > 0 and p < 0.005 else '%.2f' % p)
    w = c['worst']
    typical = bin_cell(k['hist'], 0.5) + ' / ' + bin_cell(k['hist'], 0.999)
    return [u, typical, cr, '%s → %s (%s)' % (q + w['x'] + q, q + w['y'] + q, q + w['ref'] + q)]
md = open(sys.argv[2]).read().split('### What a default call gives')[1].split('### Every peer')[0]
lines = [l for l in md.splitlines() if l.startswith('| ')]
rows = [[c.strip() for c in l.strip().strip('|').split(' | ')] for l in lines[1:]]
speed = lines[0].count(' | ') == 8 # the compare peer's column, where the benchmark has one
ok = len(rows) == 3 and cells(th['exact']) != cells(th['own'])
ok = ok and rows[0][:8] == ['Erflib 2.0', 'erflib.gelu(x)', q + 'gelu-erfc-fast/scalar' + q, 'exact'] + cells(erf['exact'])
ok = ok and rows[1][:5] == ['Nowhere 1.0', 'nowhere.gelu(x)', q + 'nowhere-1.0-gelu' + q, 'exact', 'not swept here: not installed here']
ok = ok and rows[2][:8] == ['Tanhlib 1.0', 'tanhlib.gelu(x)', q + 'gelu-tanh-fast/scalar' + q, 'tanh'] + cells(th['exact'])
ok = ok and (not speed or all(re.fullmatch('[0-9.]+', r[8]) for r in (rows[0], rows[2])))
ok = ok and 'No call: ReluLib 1.0 (their callers name the function' in md
sys.exit(0 if ok else 1)
PY"
cut -f1-10 "$D2/peers.tsv" >"$T/p10" && mv "$T/p10" "$D2/peers.tsv"
"$G" report --in "$D2" --out "$T/out3" 2>>"$T/err2"
check "a peer table of 10 columns: no default-call table" \
      "[ -s '$T/out3/REPORT.md' ] && ! grep -q '^### What a default call gives' '$T/out3/REPORT.md'"
awk -F'\t' -v OFS='\t' '{ print $0, NR == 1 ? "call" : "-" }' "$D2/peers.tsv" >"$T/p11" && mv "$T/p11" "$D2/peers.tsv"
"$G" report --in "$D2" --out "$T/out4" 2>>"$T/err2"
check "a peer table whose calls are all -: no default-call table" \
      "[ -s '$T/out4/REPORT.md' ] && grep -q '^## What the frameworks compute' '$T/out4/REPORT.md' &&
       ! grep -q '^### What a default call gives' '$T/out4/REPORT.md'"
check "the header gives the repetitions and their spread" \
      "grep -qE '^binary32 sweep: .* Benchmarks: median of 2 repetitions, one core; the repetitions. spread \(coefficient of variation of elements/s\) over the run.s [0-9]+ benchmarks, case and size: median [0-9.]+ %, 90th percentile [0-9.]+ %(;.*)?\.\$' '$O/REPORT.md'"
for c in definitions binades hist pareto throughput moons errors_erf errors_tanh errors_relu errors_poly; do
  check "chart $c.png and $c.svg" "[ -s '$O/$c.png' ] && [ -s '$O/$c.svg' ] && grep -q '<svg' '$O/$c.svg'"
done
for s in '## Summary' '## Pareto front' '## Definitions and errors' '## Special values' \
         '## bfloat16 and binary16' '## binary64 (sampled)' '## Claims checked' '## Methods' \
         '## Downstream: the two-moons experiment' '## Machine and toolchain' \
         '## Where the sweeps. time went'; do
  check "section $s" "grep -q '^$s' '$O/REPORT.md'"
done
check "summary has a row per kernel, marked as from an incomplete sweep (a 1/64 shard)" \
      "[ \$(grep -cE '^\| (gelu-erfc-fast/scalar|gelu-tanh-fast/scalar|relu|gelu-poly5/scalar)( \*)? † \|' '$O/REPORT.md') -ge 4 ]"
check "the incomplete sweeps named: f32.json (1 of 64 shards), f64.json" \
      "grep -q '^\*\*Incomplete sweep\*\*: .f32.json. covers 1 of 68 chunks (missing: chunks \[1, 68))' '$O/REPORT.md' &&
       grep -q '^\*\*Incomplete sweep\*\*: .f64.json. covers' '$O/REPORT.md' && ! grep -q 'Incomplete sweep.*bf16' '$O/REPORT.md'"
check "native 16-bit section: a row per 16-bit kernel, correctly rounded, throughput beside memcpy16" \
      "grep -q '^### Native 16-bit kernels' '$O/REPORT.md' &&
       grep -qE '^\| gelu-cr-bf16/scalar \| bf16 \| exact \| 0.5 \| 0.5 \| 100.00 \| 0 \| 254 of 254 \| 0 \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \|$' '$O/REPORT.md' &&
       grep -qE '^\| gelu-cr-f16/scalar \| f16 \| exact \| 0.5 \| 0.5 \| 100.00 \| 0 \| 2046 of 2046 \| 0 \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \|$' '$O/REPORT.md'"
check "native 16-bit section: no wrong-sign zeros from the correctly rounded kernels" \
      "grep -qE '^bf16 kernels whose results include ±0 where the correctly rounded result is the other zero .*: none\.\$' '$O/REPORT.md' &&
       grep -qE '^f16 kernels whose results include ±0 where the correctly rounded result is the other zero .*: none\.\$' '$O/REPORT.md'"
check "the binary32 table of the 16-bit sweeps leaves the 16-bit kernels out" \
      "! grep -qE '^\| gelu-cr-(b)?f16/scalar \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| ' '$O/REPORT.md' && grep -qE '^\| gelu-erfc-fast/scalar \| 0.5 \| 0.5 \| ' '$O/REPORT.md'"
if [ -n "$PEER" ]; then
  check "16-bit peers that do not run here are named with the reason" \
        "! grep -q ' no ' '$D/peers16.tsv' || grep -q '^Not measured here: ' '$O/REPORT.md'"
fi
if [ -n "$LIBK" ]; then
  check "libgelulab section: gl_gelu_fast against the build it runs, the same bits" \
        "grep -q '^## libgelulab: the kernels as a library' '$O/REPORT.md' &&
         grep -qE '^\| gl_gelu_fast \| gelu-fast/scalar \| [0-9]+ \| [0-9]+ \| [0-9.]+ \| yes \|$' '$O/REPORT.md'"
fi
check "speed by distribution: N(0, 1) columns, the skipped ones with their reason" \
      "sed -n '/^## Speed by input distribution/,/^## /p' '$O/REPORT.md' >'$T/dist' &&
       grep -q '^uniform \[−8, 8\] inputs: skipped: not measured for this data' '$T/dist' &&
       grep -q '^MiniLM inputs: skipped: --dist minilm: cannot open /nowhere/minilm.f32: No such file or directory\.$' '$T/dist' &&
       grep -q '^| case (Melem/s, × the fastest exact peer) | N(0, 1), 4Ki | N(0, 1), 64Ki |$' '$T/dist' &&
       grep -qE '^\| gelu-fast/scalar \| [0-9]+( \([0-9.]+×\))? \| [0-9]+( \([0-9.]+×\))? \|$' '$T/dist'"
if [ -n "$PEER" ]; then
  check "speed by distribution: ratios to the fastest exact peer, named in the last row" \
        "grep -qE '^\| onednn-2.6-gelu_erf \| [0-9]+ \(1.00×\) \| [0-9]+ \(1.00×\) \|$' '$T/dist' &&
         grep -q '^| \*fastest exact peer\* | onednn-2.6-gelu_erf | onednn-2.6-gelu_erf |$' '$T/dist'"
fi
check "the worst-input table says what it leaves out, and why" \
  "grep -q '^Left out of this table and of the per-binade and histogram charts below, each with the results of the kernel it follows' '$O/REPORT.md'"
if [ -n "$LIBK" ]; then
  check "the worst-input table: libgelulab's entry point named where it is left out" \
    "grep '^Left out' '$O/REPORT.md' | grep -q '\`lib/gelu-fast\`'"
fi
if [ -n "$PEER" ]; then
  check "the worst-input table: a bit-identical peer named where it is left out" \
    "grep '^Left out' '$O/REPORT.md' | grep -q '\`onednn-9.9-gelu_erf/avx512\`'"
fi
if grep -q '^cpu family' /proc/cpuinfo 2>/dev/null; then
  check "the machine named by model, family and model number" \
    "grep -Eq '^Accuracy and cost .* on this machine \(.*, [A-Za-z]+ family [0-9]+ model [0-9]+' '$O/REPORT.md'"
fi
# the microarchitecture by vendor, family and model (gelulab's table): Zen 4 for family 25 model 17,
# Cascade Lake for Intel's model 85 at stepping 7 (Skylake-SP's model), none for a family not in it
if grep -q '"cpu_id"' "$D/facts.json"; then
  for c in "AuthenticAMD family 25 model 17 stepping 1|Zen 4" "GenuineIntel family 6 model 85 stepping 7|Cascade Lake" \
           "AuthenticAMD family 99 model 1 stepping 0|"; do
    id=${c%|*} u=${c#*|}
    rm -rf "$T/ua" && mkdir "$T/ua" && cp -r "$D"/. "$T/ua/"
    sed -i "s/\"cpu_id\": \"[^\"]*\"/\"cpu_id\": \"$id\"/" "$T/ua/facts.json"
    "$G" report --in "$T/ua" --out "$T/uaout" 2>/dev/null
    if [ -n "$u" ]; then
      check "the microarchitecture named: $u for $id" \
            "grep -q '^Accuracy and cost .* on this machine ([^,]*, $u, $id' '$T/uaout/REPORT.md' &&
             grep -q '^| microarchitecture | $u (by cpu_id' '$T/uaout/REPORT.md' &&
             grep -q '($u, ${id#* })' '$T/uaout/charts/pareto.gp'"
    else
      check "no microarchitecture for $id: said so, none guessed" \
            "grep -q '^Accuracy and cost .* on this machine ([^,]*, $id' '$T/uaout/REPORT.md' &&
             grep -q '^| microarchitecture | not named (cpu_id' '$T/uaout/REPORT.md'"
    fi
  done
fi
check "summary: the typical error (mean ULP on the core) beside the worst, units in the headers" \
  "grep -q '^| kernel | defn | ISA | own: core, ULP | own: all, ULP |.* mean ULP, own: core |' '$O/REPORT.md'"
check "throughput: one panel per group, memcpy in each" \
  "grep -q 'set multiplot title' '$O/charts/throughput.gp' && [ \$(grep -c \"index 0 using .* lc rgb '#bbbbbb' notitle\" '$O/charts/throughput.gp') -ge 4 ]"
# a chart is drawn at the size it is printed at: 241 points, a column 8.5 cm wide (the PNG at 4
# pixels a point), its text 5 points and up
check "every chart at column width" \
  "[ \$(ls '$O'/charts/*.gp | wc -l) -ge 10 ] && ! grep -L \"^set terminal pngcairo size 964,[0-9]* font 'Sans,5' fontscale 3 \" '$O'/charts/*.gp | grep -q . && ! grep -L '^set terminal svg size 241,' '$O'/charts/*.gp | grep -q . && ! grep -hoE \"font ',[0-4](\\.[0-9])?'\" '$O'/charts/*.gp | grep -q ."
check "claims: GELU(-1) from the reference" "grep -q '| GELU(−1) ≈ −0.159 | -0.15865525393145' '$O/REPORT.md'"
check "claims: the minimum of GELU" "grep -q 'minimum -0.169971' '$O/REPORT.md'"
check "special values: relu(NaN) is flagged" "grep -E '^\| relu \|' '$O/REPORT.md' | head -n 3 | grep -q '\*\*0\*\*'"
check "moons: a row per activation" "[ \$(grep -cE '^\| (relu|gelu-exact|gelu-erfc-fast/scalar) \| (relu|definition, exact|kernel, exact) ' '$O/REPORT.md') -eq 3 ]"
check "moons: the GELU-vs-ReLU answer" "grep -q '^\*\*Does GELU beat ReLU here?\*\* Test accuracy of gelu-exact minus relu' '$O/REPORT.md'"
if [ -n "$PEER" ]; then
  # on the chart as itself, or counted in the label of a cheaper kernel with its bits (+N)
  check "the peer in the summary and on the Pareto chart" \
        "grep -qE '^\| onednn-2.6-gelu_erf( \*)?( †)? \| exact \| jit ' '$O/REPORT.md' && grep -qE ',onednn-2\.6-gelu_erf( \(\+[0-9]+\))?,1,|\(\+[0-9]+\),' '$O/charts/pareto.dat'"
  # the Pareto chart's third panel, the peers timed in their framework's process: the same data
  # with oneDNN's benchmark rows marked as a served framework's (timed=framework) put it there,
  # each peers' panel titled with its own libraries
  rm -rf "$T/fwin" "$T/fwout" && cp -r "$D" "$T/fwin" &&
    awk '/"name": / { m = index($0, "\"onednn-2.6-gelu_erf/") > 0 }
         m && /"label": / { sub(/lib=oneDNN/, "lib=oneDNN timed=framework") } { print }' \
        "$D/bench.json" >"$T/fwin/bench.json" &&
    "$G" report --in "$T/fwin" --out "$T/fwout" >/dev/null 2>&1
  check "Pareto: a framework-timed peer in a panel of its own, each peers' panel its libraries, none empty" \
        "grep -qE ',onednn-2\.6-gelu_erfᶠ( \(\+[0-9]+\))?,2,' '$T/fwout/charts/pareto.dat' &&
         grep -q 'peers timed in their framework.s process (ᶠ): oneDNN\"' '$T/fwout/charts/pareto.gp' &&
         ! grep -q 'peers called in gelulab.s process' '$T/fwout/charts/pareto.gp' &&
         grep -q 'peers called in gelulab.s process: oneDNN\"' '$O/charts/pareto.gp' &&
         ! grep -q 'framework.s process (ᶠ):' '$O/charts/pareto.gp' &&
         grep -q 'drawn apart on the chart, timed in their framework.s process (ᶠ)\.\$' '$T/fwout/REPORT.md' &&
         grep -q 'drawn apart on the chart\.\$' '$O/REPORT.md'"
fi
check "no chart reads outside IN/OUT" "! grep -l 'gelulab ' '$O'/charts/*.gp"
# a kernel whose key counts others, "(+N)", still has its curve: every kernel's block of rows
# as long as the others' (each a row per binade and sign swept)
check "per-binade chart: every kernel on it has all its binades" \
      "awk 'BEGIN { RS = \"\" } NR == 1 { n = NF } NF != n || NF < 2 { bad = 1 } END { exit bad }' '$O/charts/binades.dat'"
nbuilt=$(echo "$K" | wc -w) nbuilt=$((nbuilt / 2 + (${#LIBK} > 0)))
check "where the time went: the built-in kernels in one row, the shared work, the peers' share" \
      "grep -q '^| gelulab.s built-in kernels | $nbuilt | 0 | [0-9.]* | [0-9.]* | [0-9.]* % |\$' '$O/REPORT.md' &&
       grep -q '^| the inputs and the references, shared | | | [0-9.]* | | [0-9.]* % |\$' '$O/REPORT.md' &&
       grep -q '^Running every kernel but gelulab.s built-in ones (the peers, libgelulab.s entry points), round trips included: ' '$O/REPORT.md'"
check "where the time went: the table's shares add up to 100 % (every row of the times file counted once)" \
      "sed -n '/^## Where the sweeps/,/^## Methods/p' '$O/REPORT.md' | sed -n 's/^|.* \\([0-9.]*\\) % |\$/\\1/p' | awk '{ s += \$1 } END { exit !(s > 99.6 && s < 100.4) }'"
check "backward pass without bwd.json: said, not dropped" \
      "grep -q '^Not measured: no .bwd.json. in the input (made by .gelulab sweep --backward' '$O/REPORT.md'"

# the backward pass: a shard of a quick backward sweep (two of our kernels; oneDNN's when built;
# shard 48/64 of the quick sweep: negative x, the zero of f' and the deep tail included), and
# their benchmark beside relu-bwd-vec
BK="--impl gelu-grad-accurate/scalar --impl gelu-grad-fast/scalar --impl gelu-tanh-grad-accurate/scalar"
BPEER=""
if [ -n "$PEER" ]; then
  BPEER="--lib $(dirname "$B")/libgelulab-peer-onednn.so --symbol gl_peer_onednn_gelu_erf_bwd --defn exact --name onednn-2.6-gelu_erf-bwd"
fi
OMP_NUM_THREADS=1 "$G" sweep --backward $BK $BPEER --mode quick --shard 48/64 --out "$D/bwd.json" >/dev/null 2>&1
"$B" --sizes=64,1024 --benchmark_filter='^(memcpy|relu-vec|gelu-erfc-fast/scalar|gelu-tanh-fast/scalar|relu|gelu-poly5/scalar|onednn-2.6-gelu_erf|memcpy16|relu16|gelu-cr-bf16/scalar|gelu-cr-f16/scalar|relu-bwd-vec|gelu-grad-accurate/scalar|gelu-grad-fast/scalar|gelu-tanh-grad-accurate/scalar|onednn-2.6-gelu_erf-bwd)/' \
     --benchmark_repetitions=2 --benchmark_min_time=0.0001 --benchmark_min_warmup_time=0 \
     --benchmark_out="$D/bench.json" --benchmark_out_format=json >/dev/null 2>&1
"$G" report --in "$D" --out "$O" 2>"$T/err"
check "report with the backward pass exits 0" "[ $? -eq 0 ]"
check "where the time went: a sweep without its times file said, not dropped" \
      "grep -q '^\*\*backward pass\*\*: no times file (.bwd.times.tsv.: written by .gelulab sweep --times.)' '$O/REPORT.md'"
for c in backward_pareto backward_binades; do
  check "chart $c.png and $c.svg" "[ -s '$O/$c.png' ] && [ -s '$O/$c.svg' ] && grep -q '<svg' '$O/$c.svg'"
done
check "backward table: a row per kernel, throughput beside relu-bwd-vec" \
      "[ \$(grep -cE '^\| gelu-grad-(accurate|fast)/scalar \| exact_grad \| .* \| [0-9]+ \([0-9.]+×\) \|$' '$O/REPORT.md') -eq 2 ]"
check "backward table: gelu-grad-accurate within 1 ULP outside the root" \
      "grep -qE '^\| gelu-grad-accurate/scalar \| exact_grad \| 0\.5[0-9]* \| ' '$O/REPORT.md'"
# its order depends on the measured speeds: gelu-grad-accurate/scalar, the most accurate here
# against exact GELU' (0.125 ulps of 1 against 0.415, 2.38 and the tanh kernel's 7 285), is
# always on it, but first where the others measured
# slower (gelu-grad-fast/scalar took 13.1 cycles an element against its 11.0 in a run beside two
# busy loops), which a pattern that wanted it after another entry failed: checked are each
# entry's form, cost rising and error falling along the list, and that kernel in it
bwd_front_list() { # REPORT.md: the backward front's entries, "; " between them
  local l
  l=$(grep -E '^Pareto front \(no kernel at least as cheap and as accurate, by the max scaled error against exact GELU′, and better in one\): ' "$1") || return 1
  printf '%s\n' "${l#*better in one): }"
}
front_cheapest_first() { # REPORT.md
  local l
  l=$(bwd_front_list "$1") || return 1
  case "$l" in *'`gelu-grad-accurate/scalar`'*) ;; *) return 1 ;; esac
  printf '%s\n' "${l%.}" | tr ';' '\n' | awk '
    { if (!match($0, /^ ?`(gelu-(tanh-)?grad-[a-z]+\/scalar|onednn-2\.6-gelu_erf-bwd)` [0-9.]+ cycles\/element, [0-9.e+-]+ ulps of 1$/)) bad = 1
      c = $2 + 0; e = $4 + 0
      if (NR > 1 && !(c >= pc && e <= pe)) bad = 1
      pc = c; pe = e }
    END { exit bad || NR < 1 }'
}
check "backward: the Pareto front listed under its chart, cheapest first" "front_cheapest_first '$O/REPORT.md'"
# the front is drawn against exact GELU' as the forward one against exact GELU, whichever
# kernels the timings put on it (the tanh kernel too, where it measured the cheapest): each
# entry's error is its row's "scaled vs exact GELU'" cell (the list prints 3 digits, the table
# 4: equal within half a unit of the third), and the chart draws the tanh kernel, correctly
# rounded to its own derivative (0.5 ULP, 0.125 ulps of 1 here), at its error against exact
# GELU' (the approximation's, up to about 8.7e-4 = 7 286 ulps of 1 over all inputs)
front_against_exact() { # REPORT.md
  local l
  l=$(bwd_front_list "$1") || return 1
  printf '%s\n' "${l%.}" | tr ';' '\n' |
    sed -E 's/^ ?`([^`]*)` [0-9.]+ cycles\/element, ([0-9.e+-]+) ulps of 1$/\1 \2/' |
    while read -r name err; do
      awk -F'|' -v k=" $name " -v e="$err" 'index($2, k) == 1 { n++; t = $7 + 0
          ok = t - e <= 0.005 * e && e - t <= 0.005 * e } END { exit !(n == 1 && ok) }' "$1" || exit 1
    done || return 1
  grep -E '^\| gelu-tanh-grad-accurate/scalar \| tanh_grad \| ' "$1" |
    awk -F'|' '{ own = $6 + 0; ex = $7 + 0; ok = own <= 0.5 && ex > 100 } END { exit !(NR == 1 && ok) }' &&
    awk -F, 'index($3, "gelu-tanh-grad-accurate/scalar") == 1 { n++; y = $2 }
      END { exit !(n == 1 && y > 100) }' "$2"
}
check "backward: the front and chart by the error against exact GELU', a tanh gradient's both errors in its row" \
      "front_against_exact '$O/REPORT.md' '$O/charts/backward_pareto.dat'"
check "the forward sections do not list backward kernels" \
      "! sed -n '/^## Summary/,/^## Backward pass/p' '$O/REPORT.md' | grep -q -- '-grad-'"
if [ -n "$BPEER" ]; then
  check "the backward peer: its row and the Pareto chart" \
        "grep -qE '^\| onednn-2.6-gelu_erf-bwd \| exact_grad ' '$O/REPORT.md' && grep -q ',onednn-2.6-gelu_erf-bwd,1' '$O/charts/backward_pareto.dat'"
fi
# results +-0 where the correctly rounded result is the other zero, listed under each table:
# none on positive inputs (the f32 shard); in the backward shard (every 61st pattern: its
# deep negative tail too, where f' underflows to -0) none of ours, and oneDNN 2.6's gelu_erf
# backward gives +0 there; result files written before they were counted say so, not "none"
check "the wrong-zero-sign lists: none on positive inputs, none of our gradients" \
      "grep -q '^Kernels whose results include ±0 where the correctly rounded result is the other zero .*: none\.\$' '$O/REPORT.md' &&
       grep -q '^Kernels whose results include ±0 where the correctly rounded f′ is the other zero' '$O/REPORT.md' &&
       ! grep '^Kernels whose results include ±0 where the correctly rounded f′' '$O/REPORT.md' | grep -q 'gelu-grad'"
if [ -n "$BPEER" ]; then
  check "the wrong-zero-sign list: oneDNN 2.6's gelu_erf backward, +0 in the deep tail" \
        "grep -qE '^Kernels whose results include ±0 where the correctly rounded f′ is the other zero.*: .onednn-2\.6-gelu_erf-bwd. [0-9]+ of its results \([0-9.]+ %; % CR [0-9.]+, [0-9.]+ but for the sign of zero\)\.\$' '$O/REPORT.md'"
fi
mkdir "$T/old" && cp -r "$D"/. "$T/old/" && sed -i 's/, "zero_sign": [0-9]*//g' "$T/old/f32.json"
"$G" report --in "$T/old" --out "$T/oldout" 2>/dev/null
check "result files from before the zero-sign counts: said, not \"none\"" \
      "grep -q '^Kernels whose results include ±0 where .*: not counted in these result files (written before gelulab counted them)\.\$' '$T/oldout/REPORT.md'"
# merged, such a file stays one without the counts (not one whose zeros read as counted)
"$G" merge "$T/old/f32.json" --partial --out "$T/old/merged.json" >/dev/null 2>&1
check "merging a file from before the zero-sign counts writes none" \
      "[ -s '$T/old/merged.json' ] && ! grep -q zero_sign '$T/old/merged.json' && grep -q '\"zero_sign\": ' '$D/f32.json'"

mv "$D/moons.json" "$T/moons.json"
"$G" report --in "$D" --out "$O" 2>"$T/e1"; rc=$?
check "missing moons.json: exit 2, one line naming it" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e1') -eq 1 ] && grep -q 'missing input .*moons.json (made by gelulab moons' '$T/e1'"
mv "$T/moons.json" "$D/moons.json"
rm "$D/bench.json"
"$G" report --in "$D" --out "$O" 2>"$T/e2"; rc=$?
check "missing bench.json: exit 2, one line naming it" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e2') -eq 1 ] && grep -q 'missing input .*bench.json (made by gelulab-bench' '$T/e2'"
"$G" report --in "$D" 2>/dev/null; rc=$?
check "no --out: exit 2" "[ $rc -eq 2 ]"
echo '{"x": 1}' >"$D/bench.json"
"$G" report --in "$D" --out "$O" 2>"$T/e3"; rc=$?
check "bad bench.json: exit 2" "[ $rc -eq 2 ] && grep -q 'not Google Benchmark JSON' '$T/e3'"
exit $fail
