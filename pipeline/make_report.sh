#!/usr/bin/env bash
# make report: data (sweeps, facts, benchmarks) into OUT/data/, then `gelulab report` reads only
# those files and writes OUT/REPORT.md with its charts.
#   usage: pipeline/make_report.sh BUILD_DIR OUT_DIR [QUICK]
#   QUICK=1: binary32 sampled (every 61st pattern), NEON left out, binary64 quick, shorter
#            benchmarks (1 Ki, 4 Ki and 1 Mi floats, 3 repetitions of 4 ms), two moons with 5 seeds:
#            104 s on 2 cores from an empty store (a fresh clone of 6116ef4, 2026-12-07, Zen 4;
#            114 s, the median of 3, at 00d9bd6), 44 s rerun (2026-12-05, e0208fb)
#   otherwise: exhaustive binary32 (all 2^32 inputs), the full benchmark (the longest stages)
#   GL_STORE=DIR: the sweeps keep each kernel's results there and take what it holds (gelulab
#   sweep --store; default BUILD_DIR/store; "" none), and so do the peers' diagnoses and two
#   moons (validate --store, moons --store); FRESH=1: every kernel swept and diagnosed again
#   STAGES=sweeps,facts,bench,moons,report (the default: all) runs only the stages named:
#   pipeline/cluster/ runs the sweeps as shards on other machines, facts (with the peers'
#   diagnoses), bench and moons in a job of their own, and report once all is merged
set -euo pipefail
BUILD=${1:?usage: make_report.sh BUILD_DIR OUT_DIR [QUICK]}
OUT=${2:?usage: make_report.sh BUILD_DIR OUT_DIR [QUICK]}
QUICK=${3:-0}
G=$BUILD/gelulab B=$BUILD/gelulab-bench D=$OUT/data
mkdir -p "$D"
t0=$(date +%s)
stage() { echo "report: [$1/8] $2 ($(($(date +%s) - t0)) s so far)" >&2; }
STAGES=${STAGES:-sweeps,facts,bench,moons,report}
want() { [[ ,$STAGES, == *,$1,* ]]; }
for s in ${STAGES//,/ }; do
    [[ $s =~ ^(sweeps|facts|bench|moons|report)$ ]] ||
        { echo "make_report.sh: unknown stage '$s' in STAGES (sweeps, facts, bench, moons, report)" >&2; exit 2; }
done
# the full benchmark: 3 repetitions of 40 ms (42 ms with gelulab-bench's 5 % margin: as long as
# Google Benchmark's 30 ms minimum made them, 1.4x on average, before gelulab-bench sized them
# itself) after a 5 ms warm-up (their median was within 0.8 % of 5 repetitions' for 90 % of the
# 835 benchmarks of a full run: docs/design.md, "Where a report's time goes"; gelulab-bench's
# own defaults are 5 of 50 ms after 0.1 s)
mode=exhaustive moons_seeds=30
timing=(--benchmark_repetitions=3 --benchmark_min_time=0.04 --benchmark_min_warmup_time=0.005)
bench_args=()
if [ "$QUICK" = 1 ]; then # no 16 Mi benchmark (sweep_plan.sh leaves NEON out)
    mode=quick moons_seeds=5
    timing=(--benchmark_repetitions=3 --benchmark_min_time=0.004 --benchmark_min_warmup_time=0.0005)
    bench_args=(--sizes=1024,4096,1048576)
fi
bench_args+=("${timing[@]}")

L=$BUILD/libgelulab-peers.so
# every peer's sweep arguments, one line each (KIND, then the arguments), listed once: each
# listing loads the peers' library (PyTorch's start-up, a second); sweep_plan.sh takes it too
peer_args="" GL_PEER_ARGS="" bench_lists=""
# on any exit: the listing's file gone, and no background job left running (make_report.sh
# stopped by an error or an interrupt)
killtree() { # PID and every process under it (/proc's children lists: no procps needed)
    local c
    for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do killtree "$c"; done
    kill "$1" 2>/dev/null
}
trap 'rm -rf "${GL_PEER_ARGS:-}" "${bench_lists:-}"; for p in $(jobs -p); do killtree "$p"; done' EXIT
if [ -f "$L" ] && { want sweeps || want facts || want bench; }; then
    peer_args=$("$G" list --peers --lib "$L" --sweep-args --all-kinds)
    GL_PEER_ARGS=$(mktemp)
    printf '%s\n' "$peer_args" >"$GL_PEER_ARGS"
    export GL_PEER_ARGS
fi
if [ "$QUICK" = 1 ] && [ -f "$L" ]; then
    # the serving libraries' backward and 16-bit peers are not swept in QUICK: not timed either;
    # their binary32 forward ones are timed at 4 Ki floats only (the report's ratios)
    served=$(awk -F'\t' '/\t--serve-lib\t/' <<<"$peer_args")
    quick_out=$(awk -F'\t' '$1 != "f32" { print $NF }' <<<"$served" | paste -s -d '|')
    quick_4k=$(awk -F'\t' '$1 == "f32" { print $NF }' <<<"$served" | paste -s -d '|')
    [ -z "$served" ] ||
        bench_args+=("--benchmark_filter=-^((${quick_out//./\\.})/|(${quick_4k//./\\.})/(1024|1048576)/)")
fi
want facts && rm -rf "$D/validate" "$D/peers.tsv" "$D/peers16.tsv"

# the sweeps (pipeline/sweep_plan.sh: built-in kernels, the peers that run here, libgelulab's
# entry points), each into data/NAME.json with its summary table in data/NAME.txt and where its
# time went in data/NAME.times.tsv
declare -A plan
STORE=${GL_STORE-$BUILD/store} store=()
[ -z "$STORE" ] || store=(--store "$STORE")
[ -z "$STORE" ] || [ "${FRESH:-0}" != 1 ] || store+=(--fresh)
sweep() { # NAME [quiet]: the plan's line NAME (quiet: no progress)
    local -a args progress=(--progress)
    IFS=$'\t' read -r -a args <<<"${plan[$1]}"
    [ "${2:-}" != quiet ] || progress=()
    OMP_NUM_THREADS=1 "$G" sweep "${args[@]:1}" "${store[@]}" "${progress[@]}" --out "$D/$1.json" \
        --times "$D/$1.times.tsv" >"$D/$1.txt"
}
named() { grep -o -e $'\t--name\t' <<<"${plan[$1]}" | wc -l; } # the named kernels of a sweep
# The work beside the sweeps (facts and the peers' diagnoses, two moons, the benchmark's
# listings): none of it reads a
# sweep's files, and the sweeps leave a core idle at times (loading a library, starting a
# framework, a kind's last chunks: 8-32 % of each 16-bit, binary64 and backward sweep's time in
# a quick report), so it runs in the background from the start at a lower priority (nice 10:
# the sweeps keep their pace while both cores are busy) and the benchmark, which must run
# alone, waits for it, and for each job's exit status (`wait PID`, as for the binary16 sweep).
side=() side_pid=() # the background jobs' names and processes, waited for before the benchmark
side_start() { # NAME COMMAND...: COMMAND (or function) in the background
    local name=$1
    shift
    (renice -n 10 -p "$BASHPID" >/dev/null || true; "$@") &
    side+=("$name") side_pid+=("$!")
}
facts_and_diagnoses() {
    if [ -f "$L" ]; then # the tables of the binary32 and of the 16-bit peers
        all=$("$G" list --peers --lib "$L" --tsv --all-kinds)
        awk -F'\t' 'NR == 1 || $1 == "f32"' <<<"$all" | cut -f2- >"$D/peers.tsv"
        awk -F'\t' 'NR == 1 || $1 == "bf16" || $1 == "f16"' <<<"$all" | cut -f2- >"$D/peers16.tsv"
    fi
    pkg() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"; }
    npmv() { # an npm peer's package and version, as make deps installed it into build/npm
        local v
        v=$("$(dirname "$0")/npm_version.sh" "$(dirname "$0")/../build/npm" "$1")
        echo "$1@${v:-not installed}"
    }
    pypiv() { # the PyPI wheels make deps unpacked, where this build looked for them
        local l d
        d=$(sed -n 's/^GL_PYPI_DIR:PATH=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
        l=$(ls -d "${d:-/nonexistent}"/*/.ok-* 2>/dev/null | sed 's|.*/\.ok-||' | tr '\n' ' ')
        echo "${l:-none}"
    }
    pyfw() { # the Python frameworks in the peers' environment (make deps), as py_eval finds them
        local v l out=""
        v=$(sed -n 's/^GL_PY_VENV:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
        for l in tensorflow jax onnxruntime openvino; do
            out+="$l $("${v:-/nonexistent}/bin/python" "$(dirname "$0")/../bench/py_eval.py" \
                --version "$l" 2>/dev/null || echo none) "
        done
        echo "${out% }"
    }
    # the facts in the background, beside the diagnoses (its exit status kept in a file)
    { rc=0; "$G" facts --out "$D" --meta "commit=$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
        --meta "gelulab=$("$G" --version | cut -d' ' -f2)" --meta "python_peers=$(pyfw)" \
        --meta "date=$(date -u +%Y-%m-%dT%H:%MZ)" --meta "report_mode=$mode" \
        --meta "google_benchmark=$(pkg libbenchmark-dev)" --meta "sleef=$(pkg libsleef-dev)" \
        --meta "onednn=$(pkg libdnnl-dev)" --meta "pytorch=$(pkg libtorch-dev)" \
        --meta "eigen=$(pkg libeigen3-dev)" --meta "node=$(node --version 2>/dev/null || echo none)" \
        --meta "npm_peers=$(npmv onnxruntime-node) $(npmv @node-llama-cpp/linux-x64)" \
        --meta "pypi_peers=$(pypiv)" \
        --meta "gnuplot=$(gnuplot --version 2>/dev/null || echo none)" || rc=$?
      echo "$rc" >"$D/facts.rc"; } &
    # each peer's diagnoses: gelulab validate's probes (exit 1: a check failed, which is the finding)
    # (one per core at a time)
    mkdir -p "$D/validate"
    probe() {
        local name=${*: -1}
        "$G" validate "$@" --probes-only "${store[@]}" --json "$D/validate/${name//\//_}.json" \
            >"$D/validate/${name//\//_}.txt" 2>&1 ||
            [ $? = 1 ] || echo "report: gelulab validate could not run $name (see $D/validate)" >&2
    }
    running=1 # the facts
    while IFS=$'\t' read -r -a a; do
        [ "$running" -lt "$(nproc)" ] || { wait -n || true; running=$((running - 1)); }
        probe "${a[@]}" &
        running=$((running + 1))
    # the longest first, so that the two cores end together: PyTorch's load in each of
    # validate's two workers (1.3 s a peer for 1.13, under 1 s for the others; 2026-12-05)
    # QUICK=1: the binary32 forward peers only, and none of a serving library (each validate
    # loads its library: PyTorch's and TensorFlow's start-up, seconds, are most of the time);
    # make report diagnoses every peer of every kind
    done < <([ -f "$L" ] && printf '%s\n' "$peer_args" |
        { if [ "$QUICK" = 1 ]; then grep '^f32' | grep -v $'\t--serve-lib\t'; else cat; fi } |
        sed -e 's/^bwd\t/--backward\t/' -e 's/^[a-z0-9]*\t//' |
        awk '{ print (/peer-torch\.so/ || /tf-2/ ? 0 : /peer-torch[0-9]/ ? 1 : 2) "\t" $0 }' |
        sort -s -n -k1,1 | cut -f2-
        # our backward kernels, the widest build of each that runs here
        "$G" list | awk '$2 ~ /_grad$/ && $5 == "yes" { split($1, a, "/"); w[a[1]] = $1 }
                         END { for (k in w) printf "--impl\t%s\n", w[k] }' | sort)
    wait
    rc=$(cat "$D/facts.rc" 2>/dev/null || echo 1)
    rm -f "$D/facts.rc"
    [ "$rc" = 0 ] || { echo "report: gelulab facts failed (exit $rc)" >&2; return 1; }
}
if want facts; then
    stage 1 "reference facts, special values, error curves; the peers' diagnoses (in the background)"
    side_start diagnoses facts_and_diagnoses
fi
if want moons; then
    stage 2 "two-moons experiment ($moons_seeds seeds per activation; in the background, progress in $D/moons.log)"
    side_start moons "$G" moons --seeds "$moons_seeds" "${store[@]}" --progress --out "$D/moons.json" \
        >"$D/moons.txt" 2>"$D/moons.log"
fi
if want bench; then # the benchmark's two listings (2.5 s, each loads every peer's library)
    bench_lists=$(mktemp -d)
    side_start bench-lists sh -c '"$1" --peer-runs >"$2/peer-runs" && "$1" --list >"$2/list" 2>/dev/null' \
        sh "$B" "$bench_lists"
fi
if want sweeps; then
    while IFS= read -r l; do plan[${l%%$'\t'*}]=$l; done \
        < <("$(dirname "$0")/sweep_plan.sh" "$BUILD" "$QUICK")
    stage 3 "binary32 sweep of every built-in kernel and $(named f32) peers and entry points, $mode"
    sweep f32
    stage 4 "bfloat16 and binary16 sweeps (all 65536 inputs): built-in kernels, peers, 16-bit peers"
    # the two side by side: each is mostly loading the peers' libraries (PyTorch 1.13 and 2.15,
    # Node), one core's work (5.4 s of CPU in 6.7 s for bfloat16 in a quick report)
    sweep f16 quiet &
    f16=$!
    sweep bf16
    wait "$f16" || { echo "report: the binary16 sweep failed (exit $?)" >&2; exit 1; }
    stage 5 "binary64 sampled sweep ($mode)"
    sweep f64
    stage 6 "backward pass: binary32 sweep (dy = 1) of the backward kernels and peers, $mode"
    sweep bwd
fi
# the background work done (its status checked) before the benchmark
if [ ${#side[@]} -gt 0 ]; then
    jobs -r | grep -q . && echo "report: waiting for the work in the background: ${side[*]} ($(($(date +%s) - t0)) s so far)" >&2
    for i in "${!side[@]}"; do
        wait "${side_pid[$i]}" && continue
        rc=$? name=${side[$i]}
        echo "report: $name failed (exit $rc)$([ ! -f "$D/$name.log" ] || echo ": see $D/$name.log")" >&2
        exit 1
    done
fi
if want bench; then
    stage 7 "throughput benchmarks (one core; Google Benchmark log in $D/bench.txt)"
    "$B" --benchmark_out="$D/bench.json" --benchmark_out_format=json \
        --benchmark_display_aggregates_only=true "${bench_args[@]}" >"$D/bench.txt"
    # the libraries whose peers run only in a process of their own (oneDNN 3.13): a run each,
    # beside memcpy and the compare peer, which put it on the main run's scale (the report)
    rm -f "$D"/bench-*.json
    # (listed once, in the background: a listing checks every library's version, 1.2 s)
    peer_runs=$(cat "$bench_lists/peer-runs")
    for m in $peer_runs; do
        "$B" --peers-of "$m" --benchmark_out="$D/bench-$m.json" --benchmark_out_format=json \
            --benchmark_display_aggregates_only=true "${bench_args[@]}" >>"$D/bench.txt"
    done
    # the speed per input distribution (REPORT.md "Speed by input distribution"): the binary32
    # exact-GELU cases that run here (vector builds, peers) and memcpy at 4 Ki and 64 Ki floats,
    # on uniform inputs, on N(0, 1) and on MiniLM's activations (make deps-activations; absent:
    # skipped, the reason in dist-minilm.skipped), each with the runs of their own as above
    rm -f "$D"/dist-*
    # (QUICK=1: not the serving libraries' peers, timed at 4 Ki in the main run only: each
    # run would start their frameworks again, 4 s a run; the report names them)
    exact=$(awk '$3 == "exact" && ($5 == "runs" || $5 == "timed") &&
        ($2 == "peer" || ($2 == "gelulab" && $4 != "scalar")) { print $1 }' "$bench_lists/list" |
        { if [ "$QUICK" = 1 ] && [ -n "${quick_4k:-}" ]; then
              grep -vxF -e "${quick_4k//|/$'\n'}" || true; else cat; fi; } |
        paste -s -d '|')
    dist_args=(--sizes=4096,65536 "${timing[@]}" "--benchmark_filter=^(memcpy|${exact//./\\.})/")
    # uniform inputs are the main run's, which has 4 Ki and 64 Ki (the report takes them from
    # bench.json); QUICK's has no 64 Ki: a run of its own
    dists="normal minilm"
    [ "$QUICK" = 1 ] && dists="uniform $dists"
    acts=${GL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gelulab}/activations/minilm-l6-gelu-inputs
    [ -f "$acts.json" ] && cp "$acts.json" "$D/minilm-inputs.json"
    for dist in $dists; do
        if ! "$B" --dist="$dist" "${dist_args[@]}" --benchmark_out="$D/dist-$dist.json" \
            --benchmark_out_format=json --benchmark_display_aggregates_only=true \
            >>"$D/bench.txt" 2>"$D/dist-$dist.log"; then
            rm -f "$D/dist-$dist.json"
            grep -v '^gelulab-bench: skipped' "$D/dist-$dist.log" | tail -1 >"$D/dist-$dist.skipped"
            echo "report: --dist=$dist skipped: $(cat "$D/dist-$dist.skipped")" >&2
            continue
        fi
        for m in $peer_runs; do
            "$B" --peers-of "$m" --dist="$dist" "${dist_args[@]}" \
                --benchmark_out="$D/dist-$dist-$m.json" --benchmark_out_format=json \
                --benchmark_display_aggregates_only=true >>"$D/bench.txt" 2>>"$D/dist-$dist.log"
        done
    done
fi
if want report; then
    stage 8 "charts and REPORT.md"
    "$G" report --in "$D" --out "$OUT"
    echo "report: done in $(($(date +%s) - t0)) s: $OUT/REPORT.md" >&2
else
    echo "report: stages $STAGES done in $(($(date +%s) - t0)) s: $D" >&2
fi
