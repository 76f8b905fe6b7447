#!/usr/bin/env bash
# The cluster path on a real scheduler: a one-node Slurm started here (pipeline/cluster/one_node.sh:
# munge, slurmctld, slurmd on localhost, configuration in a temporary folder), a quick sharded
# run submitted as an array job (pipeline/cluster/submit.sh: binary32 quick, bfloat16, the
# binary64 hunt on a few binades), the dependent merge job waited for; then:
#  - each merged result equals the unsharded run on this machine byte for byte (JSON and CSVs);
#  - a lost shard is named (pipeline/cluster/missing.sh), only it is rerun (--resume), and the
#    merge is byte-identical again;
#  - a shard that fails (its kernel library gone) is named by the merge job with its reason;
#  - GNU parallel (pipeline/cluster/parallel.sh, this machine only) gives the same files.
# Skips (exit 77) with a one-line reason where the daemons cannot start; stops them by their
# pids whatever happens.
#   usage: test_slurm.sh SOURCE_DIR BUILD_DIR
set -u
SRC=${1:?usage: test_slurm.sh SOURCE_DIR BUILD_DIR}
BUILD=$(cd "${2:?usage: test_slurm.sh SOURCE_DIR BUILD_DIR}" && pwd)
C=$SRC/pipeline/cluster G=$BUILD/gelulab
T=$(mktemp -d)
trap '"$C/one_node.sh" stop "$T/slurm"; rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
same() { # JOBDIR NAME: the merged files equal the unsharded run's
    local f
    for f in json binades.csv hist.csv; do
        cmp -s "$1/data/$2.$f" "$T/un/$2.$f" || return 1
    done
}

"$C/one_node.sh" start "$T/slurm" 2>"$T/start.err"
case $? in
0) ;;
3) echo "skip: $(cat "$T/start.err")"; exit 77 ;;
*) echo "FAIL one_node.sh start: $(cat "$T/start.err")"; exit 1 ;;
esac
export SLURM_CONF=$T/slurm/slurm.conf

# the run: 3 shards of three sweeps of a few kernels
K="--impl gelu-erfc-stable --impl gelu-tanh-libm --impl gelu-erfc-fast/scalar"
H="--per-stratum 256 --exponents -3:3"
run=(--shards 3 --quick --build "$BUILD" --formats f32,bf16,hunt --kernels "$K" --hunt-args "$H")
timeout 600 "$C/submit.sh" "${run[@]}" --out "$T/job" --wait >/dev/null 2>"$T/submit.err" ||
    bad "submit --wait: $(cat "$T/submit.err") $(cat "$T"/job/logs/merge-*.out 2>/dev/null)"

# the same sweeps unsharded, from the run's own plan
mkdir -p "$T/un"
while IFS=$'\t' read -r -a a; do
    "$G" sweep "${a[@]:1}" --out "$T/un/${a[0]}.json" >/dev/null 2>&1 ||
        bad "unsharded ${a[0]}"
done <"$T/job/plan.tsv"
for n in f32 bf16 hunt; do same "$T/job" $n && ok || bad "$n: merged shards differ from the unsharded run"; done
[[ $(grep -c . "$T/job/plan.tsv") == 3 && -s "$T/job/logs/shard-3.out" ]] && ok || bad "plan or logs"

# a lost shard: named, only it rerun, merged again
rm -f "$T/job/shards/bf16/2.json" "$T"/job/data/*
[[ $("$C/missing.sh" "$T/job") == 2 ]] && ok || bad "missing.sh must name shard 2: $("$C/missing.sh" "$T/job")"
timeout 600 "$C/submit.sh" --resume "$T/job" --wait >/dev/null 2>"$T/resume.err" || bad "resume: $(cat "$T/resume.err")"
grep -q "shards 2 of 3" "$T/resume.err" && ok || bad "resume must rerun shard 2 only: $(cat "$T/resume.err")"
for n in f32 bf16 hunt; do same "$T/job" $n && ok || bad "$n after --resume differs"; done

# failing shards: their kernel library gone before they run; the merge job fails naming them,
# why, and the command that reruns only them
cp "$BUILD/tests/libgl_test_kernels.so" "$T/libk.so"
"$C/submit.sh" --prepare --shards 2 --build "$BUILD" --quick --formats f32 --out "$T/job2" \
    --kernels "--lib $T/libk.so --symbol gelu_good --defn exact" >/dev/null || bad "--prepare"
rm -f "$T/libk.so"
timeout 600 "$C/submit.sh" --resume "$T/job2" --wait >/dev/null 2>&1
rc=$?
m=$(cat "$T"/job2/logs/merge-*.out 2>/dev/null)
[[ $rc != 0 && $m == *"shards missing or incomplete: 1,2"* && $m == *"shard 1: gelulab sweep: "* &&
   $m == *"--resume $T/job2"* ]] && ok || bad "failing shards must be named: rc=$rc $m"

# GNU parallel on this machine: the same files
if command -v parallel >/dev/null; then
    "$C/parallel.sh" "${run[@]}" --out "$T/par" >/dev/null 2>"$T/par.err" || bad "parallel.sh: $(cat "$T/par.err")"
    for n in f32 bf16 hunt; do same "$T/par" $n && ok || bad "parallel.sh: $n differs"; done
else
    echo "skip parallel.sh: no GNU parallel (make deps)"
fi

echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
