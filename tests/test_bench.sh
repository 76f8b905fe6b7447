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
      "[ \"\$(awk '\$2 == \"peer\" {print \$1, \$5 == \"runs\" ? \"yes\" : \"no\"}' '$T/list')\" = \"\$(awk -F'\t' 'NR > 1 {print \$1, \$6 == \"yes\" && \$7 !~ /^served/ ? \"yes\" : \"no\"}' '$T/peers.tsv')\" ]"
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
      "grep -q 'ratio to memcpy' '$T/table' && grep -q 'ratio to onednn-gelu_erf' '$T/table'"
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
      "grep -q '^memcpy  *baseline  *-  *libc  *2000.0  *|  *0.25  *0.25  *|  *5.0%  *| 5\$' '$T/atable'"

"$B" --sizes=0 >/dev/null 2>"$T/e1"; rc=$?
check "bad --sizes: exit 2, one line" "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e1') -eq 1 ]"
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
check "gelulab bench without gelulab-bench beside it: exit 2, one line" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e6') -eq 1 ] && grep -q 'no benchmark program' '$T/e6'"
exit $fail
