#!/bin/sh
# The benchmark shim runs every case it can run here on a tiny size, its JSON parses, and
# `gelulab bench-table` lists every case; `gelulab bench` runs the same program; bad input gives
# a one-line error and exit 2.
# Usage: test_bench.sh GELULAB GELULAB_BENCH   (no timing is asserted)
set -u
G=$1 B=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

"$B" --list >"$T/list" 2>&1
check "--list exits 0 and names memcpy and relu-vec" "grep -q '^memcpy ' '$T/list' && grep -q '^relu-vec ' '$T/list'"
runs=$(awk '$5 == "runs"' "$T/list" | wc -l)
check "--list: at least the baselines and the scalar kernels run ($runs)" "[ $runs -ge 12 ]"

# the peers come from one table: gelulab list --peers and the benchmark list the same ones, and
# agree on which run here
"$G" list --peers --lib "$(dirname "$B")/libgelulab-peers.so" >"$T/peers" 2>&1
check "gelulab list --peers exits 0 and lists the peers" "[ \$(tail -n +2 '$T/peers' | wc -l) -ge 1 ]"
# (a served peer, ONNX Runtime under Node, runs for sweeps and is not timed)
"$G" list --peers --lib "$(dirname "$B")/libgelulab-peers.so" --tsv >"$T/peers.tsv" 2>&1
check "the benchmark's peer cases are the table's, run or skipped alike" \
      "[ \"\$(awk '\$2 == \"peer\" {print \$1, \$5 == \"runs\" ? \"yes\" : \"no\"}' '$T/list')\" = \"\$(awk -F'\t' 'NR > 1 {print \$1, \$8 == \"yes\" && \$9 !~ /^(served \\(accuracy only\\)|timed in a run of its own)/ ? \"yes\" : \"no\"}' '$T/peers.tsv')\" ]"
"$G" list --peers --lib "$T/none.so" >/dev/null 2>"$T/pe"; rc=$?
check "list --peers with a missing library: exit 2, one line" "[ $rc -eq 2 ] && [ \$(wc -l <'$T/pe') -eq 1 ]"

"$B" --sizes=16,100 --benchmark_repetitions=2 --benchmark_min_time=0.0001 \
     --benchmark_min_warmup_time=0 --benchmark_out="$T/b.json" --benchmark_out_format=json \
     >"$T/console" 2>"$T/err"
check "shim exits 0" "[ $? -eq 0 ]"
"$G" bench-table "$T/b.json" >"$T/table" 2>"$T/terr"
check "bench-table parses the JSON" "[ $? -eq 0 ]"
for c in $(awk '$5 == "runs" {print $1}' "$T/list"); do
  grep -q "^$c " "$T/table" || { echo "FAIL case $c missing from the table"; fail=1; }
done
check "every runnable case is in the table with 2 repetitions" \
      "[ \$(awk '/Melem/ {on=1; next} on && NF == 0 {exit} on' '$T/table' | grep -c ' 2\$') -eq $runs ]"
check "ratio tables to memcpy and oneDNN gelu_erf" \
      "grep -q 'ratio to memcpy' '$T/table' && grep -q 'ratio to onednn-2.6-gelu_erf' '$T/table'"
# the Python peers (make deps' environment) are timed inside their framework's process
if grep -q 'runs (timed in its framework' "$T/list"; then
  check "served peers timed in their framework's process: 'framework' in the table's column" \
        "grep -q '^tf-2.21-gelu  *peer  *exact  *auto  *framework  *[0-9.]*  *[0-9.]*  *|' '$T/table'"
fi
check "memcpy's ratio to itself is 1" "grep -A3 'ratio to memcpy' '$T/table' | grep -q '^memcpy  *1.000  *1.000'"

# --benchmark_report_aggregates_only=true (the A/B option): only mean/median/stddev/cv entries;
# the table takes Google Benchmark's median and cv (values written here, known exactly)
agg() { # RUN AGGREGATE ITEMS/S CYCLES INDEX
  printf '{"name": "%s_%s", "run_name": "%s", "run_type": "aggregate", "repetitions": 5, "aggregate_name": "%s", "items_per_second": %s, "cycles_per_elem": %s, "case_index": %s, "label": "kind=baseline defn=- isa=libc"}' \
    "$1" "$2" "$1" "$2" "$3" "$4" "$5"
}
{ echo '{"context": {"date": "d", "host_name": "h", "num_cpus": 2, "mhz_per_cpu": 1000}, "benchmarks": ['
  agg memcpy/16/real_time mean 2.1e9 0.5 0; echo ,
  agg memcpy/16/real_time median 2.0e9 0.25 0; echo ,
  agg memcpy/16/real_time cv 0.05 0.01 NaN; echo ']}'; } >"$T/agg.json"
"$G" bench-table "$T/agg.json" >"$T/atable" 2>"$T/aerr"
check "bench-table reads aggregates-only JSON: median 2000.0 Melem/s, 0.25 cyc/elem, CV 5.0 %, 5 reps" \
      "grep -q '^memcpy  *baseline  *-  *libc  *process  *2000.0  *|  *0.25  *0.25  *|  *5.0%  *| 5\$' '$T/atable'"

# a run of one library's peers alone (gelulab-bench --peers-of) put on the main run's scale by
# the compare peer timed in both: the compare peer at 1000 Melem/s in the main run and 500 in the
# other, so the other's peer at 200 Melem/s is 400 on the main run's scale, 5 cyc/elem 2.5
run() { # COMPARE_EPS PEER PEER_EPS PEER_CYC
  echo '{"context": {"date": "d", "host_name": "h", "num_cpus": 2, "mhz_per_cpu": 1000, "gelulab_compare": "cmp", "gelulab_compare_title": "cmp"}, "benchmarks": ['
  agg cmp/16/real_time median "$1" 1 1 | sed 's/kind=baseline/kind=peer/'; echo ,
  agg cmp/16/real_time cv 0 0 NaN; echo ,
  agg memcpy/16/real_time median 4e9 0.25 0; echo ,
  agg memcpy/16/real_time cv 0 0 NaN
  [ -n "$2" ] && { echo ,; agg "$2/16/real_time" median "$3" "$4" 2 | sed 's/kind=baseline/kind=peer/'; echo ,
                  agg "$2/16/real_time" cv 0 0 NaN; }
  echo ']}'; }
run 1e9 "" >"$T/main.json"
run 5e8 alone-peer 2e8 5 >"$T/alone.json"
"$G" bench-table "$T/main.json" "$T/alone.json" >"$T/mtable" 2>"$T/merr"
check "bench-table MAIN RUN: the run's peer at 400.0 Melem/s, 2.50 cyc/elem, marked *" \
      "grep -q '^alone-peer\\*  *peer  *-  *libc  *process  *400.0  *|  *2.50  *2.50  *|' '$T/mtable' &&
       grep -q '^\\* timed in a run of its own (gelulab-bench --peers-of), put on this run.s scale by cmp' '$T/mtable'"
run 5e8 "" | sed 's/"gelulab_compare": "cmp"/"gelulab_compare": "other"/' >"$T/other.json"
"$G" bench-table "$T/main.json" "$T/other.json" >/dev/null 2>"$T/merr2"; rc=$?
check "bench-table MAIN RUN with another compare peer: exit 2, one line" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/merr2') -eq 1 ] && grep -q 'compare peer .other. is not the main run.s .cmp.' '$T/merr2'"

"$B" --sizes=0 >/dev/null 2>"$T/e1"; rc=$?
check "bad --sizes: exit 2, one line" "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e1') -eq 1 ]"
# the warm-up and a repetition's length are read by the shim (it runs the warm-up itself)
for a in --benchmark_min_warmup_time=x --benchmark_min_time=-1 --benchmark_min_time=; do
  "$B" --sizes=16 "$a" >"$T/e1o" 2>"$T/e1"; rc=$?
  check "bad $a: exit 2, one line naming it, nothing run" \
        "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e1') -eq 1 ] && grep -q -- '$a' '$T/e1' && [ ! -s '$T/e1o' ]"
done
"$G" bench-table "$T/none.json" >/dev/null 2>"$T/e2"; rc=$?
check "missing file: exit 2, one line" "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e2') -eq 1 ] && grep -q 'cannot read' '$T/e2'"
echo '{"schema": "gelulab-sweep/1"}' >"$T/other.json"
"$G" bench-table "$T/other.json" >/dev/null 2>"$T/e3"; rc=$?
check "not a benchmark file: exit 2" "[ $rc -eq 2 ] && grep -q 'not Google Benchmark JSON' '$T/e3'"
"$G" bench-table >/dev/null 2>"$T/e4"; rc=$?
check "no file: exit 2" "[ $rc -eq 2 ]"

"$G" bench --list >"$T/glist" 2>&1
check "gelulab bench --list is gelulab-bench --list" "cmp -s '$T/list' '$T/glist'"
"$G" bench --no-such-flag >"$T/o5" 2>"$T/e5"; rc=$?
check "gelulab bench with a wrong flag: exit 2, one line, nothing run" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e5') -eq 1 ] && grep -q 'unrecognized.*--no-such-flag' '$T/e5' && [ ! -s '$T/o5' ]"
cp "$G" "$T/gelulab"
"$T/gelulab" bench >/dev/null 2>"$T/e6"; rc=$?
check "gelulab bench without gelulab-bench beside it or installed: exit 2, one line" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e6') -eq 1 ] && grep -q 'gelulab bench: the benchmark program is not installed (neither .*/gelulab-bench nor .*/libexec/gelulab/gelulab-bench).*libbenchmark-dev' '$T/e6'"
"$T/gelulab" list --peers >/dev/null 2>"$T/e7"; rc=$?
check "gelulab list --peers without the peers beside it or installed: exit 2, one line" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e7') -eq 1 ] && grep -q 'gelulab list: the peers are not installed (neither .*/libgelulab-peers.so nor .*/libexec/gelulab/libgelulab-peers.so)' '$T/e7'"

# A user's kernels (gelulab bench --lib): a scalar erfc GELU, its backward and a bfloat16 one,
# built here, each timed beside the cases of its ABI, in the same run and table
cat >"$T/user.c" <<'END_OF_C'
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
void user_gelu(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = (float)(0.5 * x[i] * erfc(-x[i] * 0.7071067811865476));
}
void user_gelu_bwd(const float *x, const float *dy, float *dx, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        dx[i] = (float)(dy[i] * (0.5 * erfc(-v * 0.7071067811865476) +
                                 v * exp(-0.5 * v * v) * 0.3989422804014327));
    }
}
void user_gelu_bf16(const uint16_t *x, uint16_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)x[i] << 16;
        float v;
        memcpy(&v, &u, sizeof v);
        v = (float)(0.5 * v * erfc(-v * 0.7071067811865476));
        memcpy(&u, &v, sizeof u);
        y[i] = (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
    }
}
END_OF_C
${CC:-cc} -O2 -shared -fPIC -o "$T/libuser.so" "$T/user.c" -lm >"$T/cc.log" 2>&1
check "the user's kernel library builds (cc -shared -fPIC)" "[ $? -eq 0 ]" || cat "$T/cc.log"
U="--lib $T/libuser.so --symbol user_gelu --name my-gelu --symbol user_gelu_bwd --backward
   --symbol user_gelu_bf16 --abi bf16 --name my-gelu-bf16"
"$G" bench --list $U >"$T/ulist" 2>"$T/ulerr"
check "bench --list --lib: the three user cases run, with their kinds" \
      "[ $? -eq 0 ] && grep -q '^my-gelu  *user  *-  *-  *runs\$' '$T/ulist' &&
       grep -q '^user_gelu_bwd  *user-bwd  *-  *-  *runs\$' '$T/ulist' &&
       grep -q '^my-gelu-bf16  *user16  *-  *-  *runs\$' '$T/ulist'"
line() { grep -n "^$1 " "$T/ulist" | cut -d: -f1; }
check "each beside the cases of its ABI: forward before relu-bwd-vec, backward before memcpy16" \
      "[ \$(line my-gelu) -gt \$(line gelu-accurate/scalar) ] && [ \$(line my-gelu) -lt \$(line relu-bwd-vec) ] &&
       [ \$(line user_gelu_bwd) -gt \$(line relu-bwd-vec) ] && [ \$(line user_gelu_bwd) -lt \$(line memcpy16) ] &&
       [ \$(line my-gelu-bf16) -gt \$(line memcpy16) ]"
check "the rest of the list is unchanged" "[ \"\$(grep -v ' user' '$T/ulist')\" = \"\$(cat '$T/list')\" ]"
onednn=0
grep -q '^onednn-2.6-gelu_erf .* runs$' "$T/list" && onednn=1
"$G" bench $U --sizes=64 --benchmark_repetitions=1 --benchmark_min_time=0.0001 \
     --benchmark_min_warmup_time=0 --benchmark_out="$T/u.json" --benchmark_out_format=json \
     --benchmark_filter='^(memcpy|gelu-accurate/scalar|onednn-2.6-gelu_erf|my-gelu|relu-bwd-vec|user_gelu_bwd|memcpy16|my-gelu-bf16)/' \
     >"$T/uconsole" 2>"$T/uerr"
check "gelulab bench --lib ... exits 0" "[ $? -eq 0 ]" || cat "$T/uerr"
for c in memcpy gelu-accurate/scalar my-gelu relu-bwd-vec user_gelu_bwd memcpy16 my-gelu-bf16; do
  grep -q "^$c/64/real_time " "$T/uconsole" || { echo "FAIL $c/64 missing from the console output"; fail=1; }
done
if [ $onednn = 1 ]; then
  check "the user's kernel beside oneDNN gelu_erf in the console output" \
        "grep -q '^onednn-2.6-gelu_erf/64/real_time ' '$T/uconsole' &&
         grep -q '^my-gelu/64/real_time .*kind=user defn=- isa=- lib=$T/libuser.so\$' '$T/uconsole'"
else
  echo "skip the user's kernel beside oneDNN: oneDNN is not built here"
fi
check "the JSON labels say a user kernel and its library" \
      "grep -q '\"label\": \"kind=user defn=- isa=- lib=$T/libuser.so\"' '$T/u.json' &&
       grep -q '\"label\": \"kind=user-bwd defn=- isa=- lib=$T/libuser.so\"' '$T/u.json' &&
       grep -q '\"label\": \"kind=user16 defn=- isa=- lib=$T/libuser.so fmt=bf16\"' '$T/u.json'"
"$G" bench-table "$T/u.json" >"$T/utable" 2>"$T/uterr"
check "bench-table reads it" "[ $? -eq 0 ]" || cat "$T/uterr"
check "bench-table: the user cases with their kinds, beside memcpy and gelu-accurate/scalar" \
      "grep -q '^my-gelu  *user  *-  *-  *process  *[0-9.]*  *|.*| 1\$' '$T/utable' &&
       grep -q '^user_gelu_bwd  *user-bwd  *-  *-  *process  *[0-9.]*  *|' '$T/utable' &&
       grep -q '^my-gelu-bf16  *user16  *-  *-  *process  *[0-9.]*  *|' '$T/utable' &&
       grep -q '^gelu-accurate/scalar  *gelulab ' '$T/utable' && grep -q '^memcpy  *baseline ' '$T/utable'"
check "bench-table: the user cases' ratios to memcpy (bf16: to memcpy16)" \
      "grep -A12 'ratio to memcpy' '$T/utable' | grep -q '^my-gelu  *[0-9][0-9.]*\$' &&
       grep -A12 'ratio to memcpy' '$T/utable' | grep -q '^my-gelu-bf16  *[0-9][0-9.]*\$'"
if [ $onednn = 1 ]; then
  check "bench-table: the user's kernel beside oneDNN gelu_erf, with its ratio to it" \
        "grep -q '^onednn-2.6-gelu_erf  *peer ' '$T/utable' &&
         grep -A12 'ratio to onednn-2.6-gelu_erf' '$T/utable' | grep -q '^my-gelu  *[0-9][0-9.]*\$'"
fi
# what does not load: one line, exit 2, nothing timed
uerr() { # NAME GREP ARGS...: exit 2, one line on stderr matching GREP, nothing on stdout
  n=$1 re=$2
  shift 2
  "$G" bench "$@" --sizes=64 --benchmark_filter=memcpy/ >"$T/uo" 2>"$T/ue"; rc=$?
  check "bench $n: exit 2, one line, nothing run" \
        "[ $rc -eq 2 ] && [ \$(wc -l <'$T/ue') -eq 1 ] && grep -q -- \"\$re\" '$T/ue' && [ ! -s '$T/uo' ]" ||
    cat "$T/ue"
}
uerr "--lib missing file" "^gelulab-bench: --lib $T/none.so: file not found\$" --lib "$T/none.so" --symbol f
uerr "--symbol missing" "^gelulab-bench: --lib $T/libuser.so: symbol 'nope' not found\$" \
     --lib "$T/libuser.so" --symbol nope
uerr "--lib not a library (the loader's message)" "^gelulab-bench: --lib $T/user.c: cannot load: .*user.c" \
     --lib "$T/user.c" --symbol user_gelu
uerr "--symbol without --lib" "no --lib" --symbol user_gelu
uerr "--lib without --symbol" "no --symbol" --lib "$T/libuser.so"
uerr "--abi f32" "bf16 or f16" --lib "$T/libuser.so" --symbol user_gelu_bf16 --abi f32
uerr "--backward with --abi" "backward kernels are binary32" --lib "$T/libuser.so" \
     --symbol user_gelu_bwd --backward --abi bf16
uerr "--name of a built-in case" "--name memcpy: there is a case of that name" \
     --lib "$T/libuser.so" --symbol user_gelu --name memcpy
"$G" bench --help >"$T/help" 2>&1
check "gelulab bench --help documents --lib, --symbol, --name, --backward, --abi" \
      "grep -q -- '--lib PATH --symbol SYM' '$T/help' && grep -q -- '--name N' '$T/help' &&
       grep -q -- '--backward ' '$T/help' && grep -q -- '--abi bf16|f16' '$T/help'"
exit $fail
