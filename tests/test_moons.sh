#!/bin/sh
# gelulab moons from the command line: the result file's content and determinism (threads do not
# change a bit), the documented errors, and Ctrl-C keeping the finished seeds.
# Usage: test_moons.sh GELULAB
set -u
G=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
SMALL="--samples 200 --epochs 3 --hidden 8 --seeds 4"
ACTS="--act relu,gelu-exact,gelu-tanh --act gelu-erfc-fast/scalar,gelu-poly3/scalar"

"$G" moons $SMALL $ACTS --threads 1 --out "$T/a.json" >"$T/a.txt" 2>"$T/a.err"
check "small run exits 0" "[ $? -eq 0 ]"
"$G" moons $SMALL $ACTS --threads 2 --out "$T/b.json" >"$T/b.txt" 2>/dev/null
check "1 and 2 threads: identical result files" "cmp -s '$T/a.json' '$T/b.json'"
check "schema" "grep -q '\"schema\": \"gelulab-moons/1\"' '$T/a.json'"
check "5 activations, 4 runs each" "[ \$(grep -c '\"seed\": ' '$T/a.json') -eq 20 ]"
check "comparisons against gelu-exact and relu" \
      "grep -q '\"a\": \"relu\", \"b\": \"gelu-exact\", \"metric\": \"test_acc\"' '$T/a.json' &&
       grep -q '\"a\": \"gelu-exact\", \"b\": \"relu\", \"metric\": \"train_loss\"' '$T/a.json'"
check "table: a row per activation and the GELU-vs-ReLU line" \
      "[ \$(grep -cE '^(relu|gelu-exact|gelu-tanh|gelu-erfc-fast/scalar|gelu-poly3/scalar) +[0-9]' '$T/a.txt') -eq 5 ] &&
       grep -q '^gelu-exact - relu, test accuracy' '$T/a.txt'"
check "--help" "'$G' moons --help | grep -q 'usage: gelulab moons'"
# a backward kernel for the backward pass: its f' (binary32) instead of the exact derivative;
# gelu-grad-accurate's is the exact derivative correctly rounded almost everywhere
"$G" moons $SMALL --act gelu-exact,gelu-exact+gelu-grad-accurate/scalar,gelu-tanh+gelu-tanh-grad-fast/scalar \
    --out "$T/g.json" >"$T/g.txt" 2>/dev/null
check "NAME+GRAD: runs, names its gradient" \
      "[ $? -eq 0 ] && grep -q '\"name\": \"gelu-exact+gelu-grad-accurate/scalar\", \"kind\": \"definition\", \"defn\": \"exact\"' '$T/g.json' &&
       grep -q '\"gradient\": \"gelu-tanh-grad-fast/scalar\"' '$T/g.json'"

bad() { # NAME PATTERN ARGS...: exit 2 and one line on stderr matching PATTERN
    n=$1 p=$2
    shift 2
    "$G" moons "$@" >/dev/null 2>"$T/e"
    rc=$?
    check "$n" "[ $rc -eq 2 ] && [ \$(wc -l <'$T/e') -eq 1 ] && grep -q -- '$p' '$T/e'"
}
bad "unknown activation" "unknown activation .gelu-fancy." --act gelu-fancy
bad "NEON kernel" "cannot run in this process" --act gelu-erfc-fast/neon
bad "bad seeds" "bad value for --seeds" --seeds 0
bad "bad hidden" "bad value for --hidden" --hidden 8,x
bad "unknown option" "unknown option .--frobnicate." --frobnicate 1
bad "missing value" "missing value" --seeds
bad "unwritable --out" "cannot write /nonexistent/m.json" $SMALL --out /nonexistent/m.json
bad "twice" "activation .relu. twice" --act relu,relu
bad "relu with a backward kernel" "relu takes no backward kernel" --act relu+gelu-grad-fast
bad "unknown backward kernel" "no backward kernel .gelu-grad-nope." --act gelu-exact+gelu-grad-nope
bad "a forward kernel as the gradient" "no backward kernel .gelu-erfc-fast/scalar." --act gelu-exact+gelu-erfc-fast/scalar

# Ctrl-C: stops after the running runs; the file keeps whole seeds and says it was interrupted
"$G" moons --samples 2000 --epochs 100 --seeds 50 --act relu,gelu-exact --threads 1 \
    --out "$T/i.json" >/dev/null 2>"$T/i.err" &
pid=$!
sleep 3
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130, interrupted, fewer seeds kept" \
      "[ $rc -eq 130 ] && grep -q '\"interrupted\": true' '$T/i.json' &&
       grep -q 'interrupted; keeping the' '$T/i.err'"
exit $fail
