#!/usr/bin/env bash
# The sweep store from the command line (gelulab sweep --store; make report's build/store) and
# the build-time code hashes its keys hold (cmake/code_hash.cmake):
#  - editing one algorithm's header changes that algorithm's hash alone; editing the reference
#    or the engine changes the engine's hash (every key) and no kernel's; editing the 16-bit
#    tables' generator changes the hashes of the kernels that read its tables; other compiler
#    flags change every hash; an algorithm header
#    that includes a project file stops the build (its key would not cover that file);
#  - a library kernel: rerun taken from the store, the result files byte-identical to a sweep
#    without it; the library's file changed: that kernel swept again, the other taken; --fresh
#    sweeps both; a sharded sweep is stored under its own chunks;
#  - an external command: rerun taken, its script edited: swept again; its program found on
#    PATH; a program that is not there: not identified, not stored;
#  - --times: a kernel taken from the store spent no time, one swept some; an unwritable
#    file is a one-line error, exit 2;
#  - a kernel that crashes is never stored; a store folder that cannot be made: one line, exit 2;
#  - validate --store: a verdict taken from the store is byte-identical and runs nothing; other
#    arguments, an edited evaluator, --fresh run again; an error is never stored; moons --store
#    likewise (another --threads is the same experiment).
set -u
G=${1:?usage: test_store.sh GELULAB LIBKERNELS SOURCE_DIR}
LIB=${2:?usage: test_store.sh GELULAB LIBKERNELS SOURCE_DIR}
SRC=${3:?usage: test_store.sh GELULAB LIBKERNELS SOURCE_DIR}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# 1. the code hashes (the toolchain's description as CMake writes it, gl_toolchain.txt)
mkdir -p "$T/src"
cp -r "$SRC/cmake" "$SRC/CMakeLists.txt" "$SRC/impls" "$SRC/reference" "$SRC/runner" "$SRC/analysis" "$SRC/include" "$SRC/cli" "$SRC/moons" "$T/src/"
echo "GNU 12.2.0; Release; -O3" >"$T/toolchain.txt"
hashes() { # WHAT OUT
    cmake -DROOT="$T/src" -DBIN="$T/bin" -DOUT="$2" -DWHAT="$1" -DTOOLCHAIN="$T/toolchain.txt" \
        -P "$T/src/cmake/code_hash.cmake" 2>"$T/hash.err"
}
hashes kernels "$T/k1.h" && hashes engine "$T/e1.h" || bad "code_hash.cmake on the sources: $(cat "$T/hash.err")"
grep -q '^#define GL_CODE_HASH_gelu_fast "[0-9a-f]\{64\}"$' "$T/k1.h" && ok || bad "no hash of fast: $(head -3 "$T/k1.h")"
echo "/* edited */" >>"$T/src/impls/vec/algo/gelu_fast.h"
hashes kernels "$T/k2.h"
changed=$(diff "$T/k1.h" "$T/k2.h" | grep '^>' | sed 's/^> #define \([A-Za-z0-9_]*\) .*/\1/' | paste -s -d ' ')
[ "$changed" = GL_CODE_HASH_gelu_fast ] && ok || bad "editing gelu_fast.h changed '$changed', not GL_CODE_HASH_gelu_fast alone"
hashes engine "$T/e2.h"
cmp -s "$T/e1.h" "$T/e2.h" && ok || bad "editing a kernel changed the engine's hash"
echo "/* edited */" >>"$T/src/reference/ref_fast.c"
hashes engine "$T/e3.h" && hashes kernels "$T/k3.h"
cmp -s "$T/e1.h" "$T/e3.h" && bad "editing the reference left the engine's hash as it was" || ok
cmp -s "$T/k2.h" "$T/k3.h" && ok || bad "editing the reference changed a kernel's hash"
echo "/* edited */" >>"$T/src/analysis/sweep.c"
hashes engine "$T/e4.h"
cmp -s "$T/e3.h" "$T/e4.h" && bad "editing the engine left its hash as it was" || ok
echo "/* edited */" >>"$T/src/runner/kernel_src.c" # how kernels are called: the engine's too
hashes engine "$T/e4r.h"
cmp -s "$T/e4.h" "$T/e4r.h" && bad "editing the runner left the engine's hash as it was" || ok
cp "$T/e4r.h" "$T/e4.h"
macro() { sed -n "s/^#define $1 \"\(.*\)\"$/\1/p" "$2"; } # NAME FILE: a hash's value
echo "/* edited */" >>"$T/src/moons/moons.c" # not the engine, nor validate's
hashes engine "$T/e5.h"
[ "$(macro GL_ENGINE_HASH "$T/e4.h")" = "$(macro GL_ENGINE_HASH "$T/e5.h")" ] && ok ||
    bad "editing the two-moons experiment changed the engine's hash"
[ "$(macro GL_PROBES_HASH "$T/e4.h")" = "$(macro GL_PROBES_HASH "$T/e5.h")" ] && ok ||
    bad "editing the two-moons experiment changed validate's hash"
[ "$(macro GL_MOONS_HASH "$T/e4.h")" != "$(macro GL_MOONS_HASH "$T/e5.h")" ] && ok ||
    bad "editing the two-moons experiment left its hash as it was"
echo "/* edited */" >>"$T/src/cli/cmd_validate.c" # validate's, not the engine's
hashes engine "$T/e7.h"
[ "$(macro GL_ENGINE_HASH "$T/e5.h")" = "$(macro GL_ENGINE_HASH "$T/e7.h")" ] &&
    [ "$(macro GL_MOONS_HASH "$T/e5.h")" = "$(macro GL_MOONS_HASH "$T/e7.h")" ] &&
    [ "$(macro GL_PROBES_HASH "$T/e5.h")" != "$(macro GL_PROBES_HASH "$T/e7.h")" ] && ok ||
    bad "editing validate changed another hash than GL_PROBES_HASH, or not it"
echo "/* edited */" >>"$T/src/cli/kernel_args.c" # the kernel arguments validate shares
hashes engine "$T/e8.h"
[ "$(macro GL_ENGINE_HASH "$T/e7.h")" = "$(macro GL_ENGINE_HASH "$T/e8.h")" ] &&
    [ "$(macro GL_PROBES_HASH "$T/e7.h")" != "$(macro GL_PROBES_HASH "$T/e8.h")" ] && ok ||
    bad "editing validate's kernel arguments changed the engine's hash, or not validate's"
cp "$T/e8.h" "$T/e5.h" # the engine's lines below compare with this
echo "/* edited */" >>"$T/src/impls/gen_tab16.c" # the 16-bit tables, gelu-tanh-lut-f16's too
hashes kernels "$T/k5.h"
changed=$(diff "$T/k3.h" "$T/k5.h" | grep '^>' | sed 's/^> #define \([A-Za-z0-9_]*\) .*/\1/' | paste -s -d ' ')
[ "$changed" = "GL_CODE_HASH_LIBM GL_CODE_HASH_TAB16" ] && ok || bad "editing gen_tab16.c changed '$changed'"
echo "GNU 12.2.0; Release; -O2" >"$T/toolchain.txt" # other flags: every hash
hashes kernels "$T/k6.h" && hashes engine "$T/e6.h"
[ "$(diff "$T/k5.h" "$T/k6.h" | grep -c '^>')" = "$(grep -c '^#define' "$T/k5.h")" ] && ok ||
    bad "other compiler flags left a kernel's hash as it was"
cmp -s "$T/e5.h" "$T/e6.h" && bad "other compiler flags left the engine's hash as it was" || ok
echo '#include "../blocks.h"' >>"$T/src/impls/vec/algo/gelu_cr.h"
hashes kernels "$T/k4.h" && bad "an algorithm header including a project file was accepted" ||
    { grep -q "cr.h includes a file" "$T/hash.err" && ok || bad "no reason given: $(cat "$T/hash.err")"; }

# 2. from the command line
cp "$LIB" "$T/lib.so"
K=(--impl gelu-erf-naive --lib "$T/lib.so" --symbol gelu_good --defn exact --name good --format bf16)
sweep() { # OUT ARGS...: the store's "N of M" line into $T/OUT.err
    local out=$1
    shift
    "$G" sweep "$@" --out "$T/$out.json" >/dev/null 2>"$T/$out.err"
}
taken() { sed -n 's/.*: \([0-9]*\) of \([0-9]*\) kernels.*/\1 of \2/p' "$T/$1.err"; }
sweep plain "${K[@]}" || bad "sweep without the store"
sweep first "${K[@]}" --store "$T/st" || bad "sweep into an empty store"
[ "$(taken first)" = "0 of 2" ] && ok || bad "empty store: $(cat "$T/first.err")"
grep -q "2 results saved" "$T/first.err" && ok || bad "not saved: $(cat "$T/first.err")"
sweep again "${K[@]}" --store "$T/st" || bad "sweep from the store"
[ "$(taken again)" = "2 of 2" ] && ok || bad "rerun: $(cat "$T/again.err")"
for f in first again; do
    for e in json binades.csv hist.csv; do
        cmp -s "$T/plain.$e" "$T/$f.$e" && ok || bad "$f.$e differs from a sweep without the store"
    done
done
printf 'x' >>"$T/lib.so" # the library's file changed (it still loads)
sweep libchanged "${K[@]}" --store "$T/st" --times "$T/times.tsv" || bad "sweep after the library changed"
[ "$(taken libchanged)" = "1 of 2" ] && ok || bad "library changed: $(cat "$T/libchanged.err")"
# where its time went (--times): the kernel taken from the store spent none, the one swept some
# running (its 65536 inputs through a child process; measuring them may print as 0.000); the
# shared rows; no other row
[ "$(sed -n 2p "$T/times.tsv")" = "$(printf 'kernel\tstate\trun_s\tmeasure_s')" ] && ok ||
    bad "--times header: $(head -2 "$T/times.tsv")"
[ "$(awk -F'\t' 'NR > 2 { print $1 "," $2 }' "$T/times.tsv" | paste -s -d ' ')" = \
    "gelu-erf-naive,store good,swept (inputs and references),shared (the rest: chunk set-up, merges, waits),shared" ] &&
    ok || bad "--times rows: $(cat "$T/times.tsv")"
awk -F'\t' '$1 == "gelu-erf-naive" && $3 == "0.000" && $4 == "0.000" { a = 1 }
             $1 == "good" && $3 > 0 && $4 >= 0 { b = 1 } END { exit !(a && b) }' "$T/times.tsv" && ok ||
    bad "--times seconds: $(cat "$T/times.tsv")"
grep -q "^# gelulab sweep times .*: bf16 exhaustive, [0-9]* threads, [0-9.]* s of wall clock" "$T/times.tsv" && ok ||
    bad "--times first line: $(head -1 "$T/times.tsv")"
"$G" sweep "${K[@]}" --times "$T/nodir/t.tsv" >/dev/null 2>"$T/times.err"
[ $? = 2 ] && [ "$(wc -l <"$T/times.err")" = 1 ] && grep -q "cannot write $T/nodir/t.tsv" "$T/times.err" && ok ||
    bad "--times into a missing folder: $(cat "$T/times.err")"
sweep fresh "${K[@]}" --store "$T/st" --fresh || bad "--fresh"
[ "$(taken fresh)" = "0 of 2" ] && ok || bad "--fresh took results: $(cat "$T/fresh.err")"
cmp -s "$T/plain.json" "$T/fresh.json" && ok || bad "--fresh gave other results"
sweep shard "${K[@]}" --store "$T/st" --shard 2/3 || bad "a shard"
[ "$(taken shard)" = "0 of 2" ] && ok || bad "a shard took the whole sweep's results: $(cat "$T/shard.err")"
sweep shard2 "${K[@]}" --store "$T/st" --shard 2/3 || bad "the shard again"
[ "$(taken shard2)" = "2 of 2" ] && cmp -s "$T/shard.json" "$T/shard2.json" && ok ||
    bad "the shard's rerun: $(cat "$T/shard2.err")"
# an external command: its script's content in the key; a program found on PATH
printf '#!/bin/sh\nexec cat\n' >"$T/ev.sh" && chmod +x "$T/ev.sh" # y = x: wrong, but a kernel
X=(--exec "'$T/ev.sh'" --defn exact --name ev --exec cat --defn exact --name cat --format bf16 --store "$T/st")
sweep ev1 "${X[@]}" && sweep ev2 "${X[@]}"
[ "$(taken ev2)" = "2 of 2" ] && cmp -s "$T/ev1.json" "$T/ev2.json" && ok || bad "commands rerun: $(cat "$T/ev2.err")"
grep -q "^file $(command -v cat) sha256 " "$T"/st/*/*.key && ok || bad "cat not found on PATH for its key"
printf '# edited\n' >>"$T/ev.sh"
sweep ev3 "${X[@]}"
[ "$(taken ev3)" = "1 of 2" ] && ok || bad "the script changed: $(cat "$T/ev3.err")"
sweep ev4 --exec gl-no-such-program --defn exact --format bf16 --store "$T/st"
grep -q "gl-no-such-program cannot be identified" "$T/ev4.err" && ok || bad "a program not on PATH: $(cat "$T/ev4.err")"
C=(--lib "$T/lib.so" --symbol gelu_crash --defn exact --name crash --format bf16 --store "$T/st")
sweep crash "${C[@]}"
[ $? = 2 ] && ok || bad "a crashing kernel: exit 2"
sweep crash2 "${C[@]}"
[ "$(taken crash2)" = "0 of 1" ] && ok || bad "a crashing kernel was stored: $(cat "$T/crash2.err")"
: >"$T/file"
"$G" sweep --impl gelu-erf-naive --format bf16 --store "$T/file/st" >/dev/null 2>"$T/nodir.err"
[ $? = 2 ] && [ "$(wc -l <"$T/nodir.err")" = 1 ] && grep -q "cannot make the store" "$T/nodir.err" && ok ||
    bad "a store that cannot be made: $(cat "$T/nodir.err")"
"$G" sweep --impl gelu-erf-naive --format bf16 --fresh >/dev/null 2>"$T/fresh1.err"
[ $? = 2 ] && grep -q -- "--fresh goes with --store" "$T/fresh1.err" && ok || bad "--fresh alone accepted"

# 3. the diagnoses and two moons (make report's validate --store and moons --store)
# an evaluator that notes each of its starts: a verdict taken from the store starts it never
printf '#!/bin/sh\necho start >>"%s/starts"\nexec cat\n' "$T" >"$T/cnt.sh" && chmod +x "$T/cnt.sh"
V=(--exec "'$T/cnt.sh'" --defn exact --name cnt --probes-only)
starts() { cat "$T/starts" 2>/dev/null | wc -l; }
validate() { # OUT ARGS...: stdout in $T/OUT.txt, --json $T/OUT.json; the exit status in $T/OUT.rc
    local out=$1
    shift
    "$G" validate "$@" --json "$T/$out.json" >"$T/$out.txt" 2>"$T/$out.err"
    echo $? >"$T/$out.rc"
}
validate v0 "${V[@]}"
n0=$(starts)
[ "$(cat "$T/v0.rc")" = 1 ] && [ "$n0" -gt 0 ] && ok || bad "validate of y = x: exit $(cat "$T/v0.rc"), $n0 starts"
validate v1 "${V[@]}" --store "$T/vs"
n1=$(starts)
validate v2 "${V[@]}" --store "$T/vs"
[ "$(starts)" = "$n1" ] && [ "$(cat "$T/v2.rc")" = 1 ] && ok ||
    bad "a stored verdict ran the evaluator again (exit $(cat "$T/v2.rc")): $(cat "$T/v2.err")"
for f in v1 v2; do
    for e in txt json; do cmp -s "$T/v0.$e" "$T/$f.$e" && ok || bad "validate --store: $f.$e differs"; done
done
validate v3 "${V[@]}" --store "$T/vs" --name other # other arguments: another key
[ "$(starts)" -gt "$n1" ] && grep -q '"other"' "$T/v3.json" && ok || bad "--name other was taken from the store"
n3=$(starts)
printf '# edited\n' >>"$T/cnt.sh" # the evaluator's script changed
validate v4 "${V[@]}" --store "$T/vs"
[ "$(starts)" -gt "$n3" ] && ok || bad "an edited evaluator's verdict was taken from the store"
n4=$(starts)
validate v5 "${V[@]}" --store "$T/vs" --fresh
[ "$(starts)" -gt "$n4" ] && cmp -s "$T/v4.json" "$T/v5.json" && ok || bad "validate --fresh"
printf '#!/bin/sh\necho start >>"%s/starts"\nexit 3\n' "$T" >"$T/dies.sh" && chmod +x "$T/dies.sh"
validate d1 --exec "'$T/dies.sh'" --defn exact --probes-only --store "$T/vs"
n5=$(starts)
validate d2 --exec "'$T/dies.sh'" --defn exact --probes-only --store "$T/vs"
[ "$(cat "$T/d2.rc")" = 2 ] && [ "$(starts)" -gt "$n5" ] && ok ||
    bad "an evaluator that cannot run: exit $(cat "$T/d2.rc") (2), stored?"
# two moons: the same settings taken (a mark put in the record's output shows it), others not
M=(--seeds 2 --epochs 3 --act relu,gelu-exact,gelu-erf-naive)
"$G" moons "${M[@]}" --out "$T/m0.json" >"$T/m0.txt" 2>/dev/null
"$G" moons "${M[@]}" --store "$T/ms" --out "$T/m1.json" >"$T/m1.txt" 2>/dev/null
cmp -s "$T/m0.json" "$T/m1.json" && cmp -s "$T/m0.txt" "$T/m1.txt" && ok || bad "moons --store: other results"
echo "taken from the store" >>"$T"/ms/*/*.out
"$G" moons "${M[@]}" --threads 1 --store "$T/ms" --out "$T/m2.json" >"$T/m2.txt" 2>/dev/null
grep -q "taken from the store" "$T/m2.txt" && cmp -s "$T/m0.json" "$T/m2.json" && ok ||
    bad "moons with the same settings (another --threads) not taken from the store"
"$G" moons --seeds 2 --epochs 4 --act relu,gelu-exact,gelu-erf-naive --store "$T/ms" --out "$T/m3.json" \
    >"$T/m3.txt" 2>/dev/null
grep -q "taken from the store" "$T/m3.txt" && bad "moons --epochs 4 taken from the --epochs 3 record" || ok
"$G" moons "${M[@]}" --store "$T/ms" --fresh --out "$T/m4.json" >"$T/m4.txt" 2>/dev/null
grep -q "taken from the store" "$T/m4.txt" && bad "moons --fresh taken from the store" || ok
cmp -s "$T/m0.json" "$T/m4.json" && ok || bad "moons --fresh: other results"
[ "$(ls "$T"/ms/*/*.key | wc -l)" = 2 ] && ok || bad "moons: $(ls "$T"/ms/*/*.key | wc -l) records, not 2"

# the reference's self-check of sweep and validate, kept in the store: written once ("0": the
# fast path agrees here); a planted verdict under the same key is what the next sweep and
# validate take (they fall back to MPFR, saying why); --fresh checks again; another key (an
# environment variable every key holds) is not taken
S1=(--impl gelu-erf-naive --format bf16)
"$G" sweep "${S1[@]}" --store "$T/sc" --out "$T/sc0.json" >/dev/null 2>"$T/sc0.err"
sc=$(ls "$T"/sc/*/*.selfcheck 2>/dev/null)
[ "$(wc -w <<<"$sc")" = 1 ] && [ "$(head -1 "$sc")" = 0 ] && grep -q '^gelulab-selfcheck/1$' "${sc%.selfcheck}.key" &&
    ok || bad "self-check: no record 0 in the store ($sc: $(cat "$sc" 2>/dev/null))"
printf '3\nplanted disagreement\n' >"$sc"
"$G" sweep "${S1[@]}" --store "$T/sc" --out "$T/sc1.json" >/dev/null 2>"$T/sc1.err"
grep -q "fast reference disagrees with MPFR here (planted disagreement); using pure MPFR" "$T/sc1.err" &&
    ok || bad "sweep --store: the kept self-check not taken: $(head -2 "$T/sc1.err")"
"$G" validate --impl gelu-erf-naive --probes-only --store "$T/sc" >/dev/null 2>"$T/scv.err"
grep -q "fast reference disagrees with MPFR here (planted disagreement); using pure MPFR" "$T/scv.err" &&
    ok || bad "validate --store: the kept self-check not taken: $(head -2 "$T/scv.err")"
GLIBC_TUNABLES=glibc.malloc.perturb=0 "$G" sweep "${S1[@]}" --store "$T/sc" --out "$T/sc2.json" \
    >/dev/null 2>"$T/sc2.err"
grep -q "planted" "$T/sc2.err" && bad "self-check taken under another key (GLIBC_TUNABLES)" || ok
"$G" sweep "${S1[@]}" --store "$T/sc" --fresh --out "$T/sc3.json" >/dev/null 2>"$T/sc3.err"
! grep -q "planted" "$T/sc3.err" && [ "$(head -1 "$sc")" = 0 ] && ok ||
    bad "sweep --fresh: the self-check not run again ($(head -1 "$sc"))"

echo "test_store.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
