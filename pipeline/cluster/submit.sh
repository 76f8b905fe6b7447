#!/usr/bin/env bash
# The report's sweeps (or sweeps of your own) as a Slurm array job: one shard per array task,
# the other stages of the report in a job beside it, and a dependent job that merges the shards
# and writes the report. docs/cluster.md says how to size it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
usage() {
    cat <<'USAGE'
usage: pipeline/cluster/submit.sh --shards N [--out JOBDIR] [--build DIR] [--quick]
                                 [--formats LIST] [--kernels 'ARGS'] [--hunt-args 'ARGS']
                                 [--partition P] [--cpus C] [--sbatch-args 'ARGS']
                                 [--no-report] [--wait] [--dry-run | --prepare]
       pipeline/cluster/submit.sh --resume JOBDIR [--wait] [--dry-run]

Submits (sbatch) an array job of N tasks, task K running `gelulab sweep ... --shard K/N` of
every sweep of the plan; with the report, a job for its other stages (facts, the peers'
diagnoses, benchmark, two moons; --exclusive, for the benchmark); and a job that runs when
they have ended (afterany), merges the shards into JOBDIR/data/ and writes JOBDIR/REPORT.md.
A shard that fails or is lost is named by the merge job; --resume reruns only those shards
(and the stages job if its files are missing), then merges again.

  --shards N       array tasks, shards of every sweep
  --out JOBDIR     where everything goes (default build/cluster): cluster.env, plan.tsv,
                   shards/NAME/K.json, logs/, data/, REPORT.md; on a filesystem that every
                   node sees, like BUILD
  --build DIR      the build to run (default build; make build)
  --quick          the quick report (QUICK=1): binary32 sampled, binary64 quick
  --formats LIST   sweeps of the plan, comma-separated (default f32,bf16,f16,f64,bwd):
                   f32, bf16, f16, f64 (sampled), bwd (backward pass), hunt (the binary64
                   worst-case hunt, gelulab sweep --mode hunt; never part of the report)
  --kernels 'ARGS' kernels as gelulab sweep takes them ("--impl gelu-erfc-stable --lib
                   ./libmine.so --symbol my_gelu --defn exact") instead of the report's
                   (built-ins, peers, libgelulab); then no report, only the merged files
  --hunt-args 'ARGS'  for hunt: default "--per-stratum 4096 --exponents -1023:1023"
  --partition P    the Slurm partition of every job (default: the cluster's default)
  --cpus C         CPUs per array task, its sweep's threads (default 1)
  --sbatch-args 'ARGS'  more sbatch options for every job (--account, --time, --qos ...)
  --no-report      only merge the sweeps, even with the report's formats and kernels
  --wait           wait for the merge job to end; exit with its status
  --dry-run        print the sbatch commands, submit nothing
  --prepare        only write JOBDIR (cluster.env, plan.tsv) and print its path: for
                   pipeline/cluster/parallel.sh, or to submit shards.sbatch by hand
  --resume JOBDIR  rerun the shards the merge named (pipeline/cluster/missing.sh), then merge
USAGE
}
die() { echo "submit.sh: $*" >&2; exit 2; }

SHARDS="" J=build/cluster BUILD=build QUICK=0 FORMATS=f32,bf16,f16,f64,bwd KERNELS="" CPUS=1
HUNT_ARGS="--per-stratum 4096 --exponents -1023:1023" PARTITION="" SBATCH_ARGS="" REPORT=1
WAIT=0 DRY=0 RESUME="" PREPARE=0
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) usage; exit 0 ;;
    --quick) QUICK=1 ;;
    --no-report) REPORT=0 ;;
    --wait) WAIT=1 ;;
    --dry-run) DRY=1 ;;
    --prepare) PREPARE=1 ;;
    --shards | --out | --build | --formats | --kernels | --hunt-args | --partition | --cpus | \
        --sbatch-args | --resume)
        [ $# -ge 2 ] || die "$1 needs a value"
        case $1 in
        --shards) SHARDS=$2 ;; --out) J=$2 ;; --build) BUILD=$2 ;; --formats) FORMATS=$2 ;;
        --kernels) KERNELS=$2 ;; --hunt-args) HUNT_ARGS=$2 ;; --partition) PARTITION=$2 ;;
        --cpus) CPUS=$2 ;; --sbatch-args) SBATCH_ARGS=$2 ;; --resume) RESUME=$2 ;;
        esac
        shift ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
    shift
done
[ "$DRY" = 1 ] || [ "$PREPARE" = 1 ] || command -v sbatch >/dev/null ||
    die "no sbatch here: submit from a Slurm login node (or use pipeline/cluster/parallel.sh)"

# sbatch ARGS... -> the job id (--dry-run: prints the command, "DRY" as the id)
submit() {
    local -a extra
    eval "extra=($SBATCH_ARGS)"
    [ -z "$PARTITION" ] || extra+=(--partition "$PARTITION")
    if [ "$DRY" = 1 ]; then
        echo "sbatch ${extra[*]} $*" >&2
        echo DRY
        return
    fi
    sbatch --parsable "${extra[@]}" "$@" | cut -d';' -f1
}

# The plan: one line per sweep, NAME and gelulab sweep's arguments (tab-separated)
write_plan() {
    local mode=exhaustive f line
    [ "$QUICK" = 1 ] && mode=quick
    local -a k h
    eval "k=($KERNELS)"
    eval "h=($HUNT_ARGS)"
    local report_plan="" # the report's sweeps, listed once (gelulab list loads every peer)
    if [ -z "$KERNELS" ] && [[ ,$FORMATS, =~ ,(f32|bf16|f16|f64|bwd), ]]; then
        report_plan=$("$ROOT/pipeline/sweep_plan.sh" "$BUILD" "$QUICK")
    fi
    for f in ${FORMATS//,/ }; do
        case $f in
        f32 | bf16 | f16 | f64 | bwd)
            if [ -z "$KERNELS" ]; then
                line=$(grep "^$f"$'\t' <<<"$report_plan")
            else
                local -a a=("$f")
                [ "$f" = bwd ] && a+=(--backward)
                a+=("${k[@]}" --format "${f/bwd/f32}")
                case $f in f32 | f64 | bwd) a+=(--mode "$mode") ;; esac
                line=$(IFS=$'\t'; echo "${a[*]}")
            fi ;;
        hunt)
            [ ${#k[@]} -gt 0 ] || k=(--all)
            local -a a=(hunt "${k[@]}" --format f64 --mode hunt "${h[@]}")
            line=$(IFS=$'\t'; echo "${a[*]}") ;;
        *) die "unknown format '$f' in --formats (f32, bf16, f16, f64, bwd, hunt)" ;;
        esac
        printf '%s\n' "$line"
    done
}

if [ -n "$RESUME" ]; then
    J=$RESUME
    [ -f "$J/cluster.env" ] || die "no $J/cluster.env: not a cluster run"
    # shellcheck source=/dev/null
    . "$J/cluster.env"
    todo=$("$ROOT/pipeline/cluster/missing.sh" "$J")
    stages_todo=0
    if [ "$REPORT" = 1 ]; then
        for f in facts.json bench.json moons.json; do [ -f "$J/data/$f" ] || stages_todo=1; done
    fi
    [ -n "$todo" ] || [ "$stages_todo" = 1 ] || echo "submit.sh: every shard is there; merging" >&2
else
    [[ $SHARDS =~ ^[0-9]+$ ]] && [ "$SHARDS" -ge 1 ] || die "--shards N needs a count from 1"
    [[ $CPUS =~ ^[0-9]+$ ]] && [ "$CPUS" -ge 1 ] || die "bad --cpus '$CPUS'"
    [ -x "$BUILD/gelulab" ] || die "no $BUILD/gelulab (make build first)"
    BUILD=$(cd "$BUILD" && pwd)
    mkdir -p "$J/logs" "$J/shards" "$J/data"
    J=$(cd "$J" && pwd)
    if [ -n "$KERNELS" ]; then REPORT=0; fi
    for f in f32 bf16 f16 f64; do [[ ,$FORMATS, == *,$f,* ]] || REPORT=0; done
    { for v in ROOT BUILD SHARDS QUICK FORMATS KERNELS HUNT_ARGS PARTITION CPUS SBATCH_ARGS REPORT; do
          printf '%s=%q\n' "$v" "${!v}"
      done; } >"$J/cluster.env"
    write_plan >"$J/plan.tsv"
    todo=1-$SHARDS stages_todo=$REPORT
    if [ "$PREPARE" = 1 ]; then echo "$J"; exit 0; fi
fi

deps=""
if [ -n "$todo" ]; then
    a=$(submit --array="$todo" --cpus-per-task="$CPUS" --output="$J/logs/shard-%a.out" \
        "$ROOT/pipeline/cluster/shards.sbatch" "$J")
    echo "submit.sh: array job $a: shards $todo of $SHARDS" >&2
    deps=$a
fi
if [ "$stages_todo" = 1 ]; then
    b=$(submit --output="$J/logs/stages.out" "$ROOT/pipeline/cluster/stages.sbatch" "$J")
    echo "submit.sh: stages job $b: facts, diagnoses, benchmark, two moons" >&2
    deps=${deps:+$deps:}$b
fi
w=()
[ "$WAIT" = 1 ] && w=(--wait)
echo "submit.sh: merge job after ${deps:-nothing}; results in $J/data/$([ "$REPORT" = 1 ] && echo ", $J/REPORT.md")" >&2
set +e
m=$(submit ${deps:+--dependency=afterany:$deps} "${w[@]}" --output="$J/logs/merge-%j.out" \
    "$ROOT/pipeline/cluster/merge.sbatch" "$J")
rc=$?
set -e
echo "$m"
[ "$WAIT" = 0 ] || [ "$rc" = 0 ] || echo "submit.sh: the merge job failed: $J/logs/merge-$m.out" >&2
exit $rc
