#!/usr/bin/env bash
# gelulab ref from the command line: outputs (hex-floats known from tests/test_known_values.c
# and the published decimals there), the documented errors and exit codes.
set -u
G=${1:?usage: test_cli.sh path/to/gelulab}
pass=0 fail=0

# expect NAME WANT_RC WANT_STDOUT CMD...   (WANT_STDOUT: exact text, or '*' for any)
expect() {
    local name=$1 want_rc=$2 want_out=$3
    shift 3
    local out rc
    out=$("$@" 2>/tmp/gl_cli_err.$$)
    rc=$?
    if [[ $rc != "$want_rc" || ($want_out != '*' && $out != "$want_out") ]]; then
        echo "FAIL $name: rc=$rc (want $want_rc) stdout=[$out] want=[$want_out] stderr=[$(cat /tmp/gl_cli_err.$$)]"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
# stderr_is NAME PATTERN: the last command's stderr is one line matching PATTERN
stderr_is() {
    local lines
    lines=$(wc -l </tmp/gl_cli_err.$$)
    if [[ $lines != 1 ]] || ! grep -q -- "$2" /tmp/gl_cli_err.$$; then
        echo "FAIL $1: stderr=[$(cat /tmp/gl_cli_err.$$)]"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# the version the project declares (CMakeLists.txt's project(... VERSION), read from the source
want_version=$(sed -n 's/^project(gelulab VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../CMakeLists.txt")
expect "--version" 0 "gelulab $want_version" "$G" --version
expect "hex f32" 0 "-0x1.44ed0cp-3" "$G" ref --hex -1
expect "hex f32 several" 0 $'-0x1.44ed0cp-3\n0x1.f45a18p+0\n-0x0p+0\ninf\nnan' \
    "$G" ref --hex -- -1 2 -inf inf nan
expect "default columns" 0 $'-0x1p+0\t-0.158655256\t-0x1.44ed0cp-3' "$G" ref -1
expect "f64" 0 $'-0x1p+0\t-0.15865525393145705\t-0x1.44ed0bb7cb20bp-3' "$G" ref --format f64 -1
expect "hex input" 0 "0x1.f45a183e9b13dp+0" "$G" ref --format f64 --hex 0x1p1
expect "phi" 0 "0x1.aec4bd120d37dp-1" "$G" ref --defn phi --format f64 --hex 1
expect "bf16" 0 "-0x1.44p-3" "$G" ref --format bf16 --hex -1
expect "f16" 0 "-0x1.45p-3" "$G" ref --format f16 --hex -1
expect "tail subnormal" 0 "-0x1.38p-143" "$G" ref --hex -14
expect "mpfr:100" 0 $'0x2p+0\t1.9544997361036415855994347256671\t0x1.f45a183e9b13d03318bb3e532p+0' \
    "$G" ref --format mpfr:100 2
expect "exact_grad at 0" 0 "0x1p-1" "$G" ref --defn exact_grad --hex 0
expect "help" 0 '*' "$G" ref --help
expect "top help" 0 '*' "$G" --help
expect "self-check" 0 "self-check: ok" "$G" ref --self-check

# gelulab list: every algorithm on every ISA, NEON run under qemu when the cross build exists
list=$("$G" list)
for algo in gelu-erfc-fast gelu-tanh-fast gelu-poly3 gelu-poly5 gelu-poly7 gelu-sigmoid-fast silu-fast; do
    for isa in scalar avx2 avx512 neon; do
        if grep -q "^$algo/$isa " <<<"$list"; then pass=$((pass + 1)); else
            echo "FAIL list: no $algo/$isa"; fail=$((fail + 1)); fi
    done
done
if command -v qemu-aarch64 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null; then
    if grep -q "^gelu-erfc-fast/neon .* qemu " <<<"$list"; then pass=$((pass + 1)); else
        echo "FAIL list: gelu-erfc-fast/neon not marked qemu"; fail=$((fail + 1)); fi
fi
expect "list help" 0 '*' "$G" list --help
expect "list bad arg" 2 "" "$G" list --frob
stderr_is "list bad arg" "unknown argument"

expect "unknown flag" 2 "" "$G" ref --frobnicate 1
stderr_is "unknown flag" "unknown option"
expect "unknown defn" 2 "" "$G" ref --defn gelu2 1
stderr_is "unknown defn" "unknown definition 'gelu2'"
expect "unknown format" 2 "" "$G" ref --format f8 1
stderr_is "unknown format" "unknown format 'f8'"
expect "bad number" 2 "" "$G" ref 1.5x
stderr_is "bad number" "cannot parse '1.5x'"
expect "no value" 2 "" "$G" ref
stderr_is "no value" "no value given"
expect "unknown command" 2 "" "$G" frob
stderr_is "unknown command" "unknown command 'frob'"

# every command answers --help on stdout with exit 0, and its text is printed as written (a
# printf escape such as %% shows that it went through fputs unformatted)
for c in ref list sweep merge validate facts report moons bench bench-table; do
    help=$("$G" "$c" --help 2>/dev/null)
    if [[ $? == 0 && $help == *usage:* && $help != *%%* ]]; then pass=$((pass + 1)); else
        echo "FAIL $c --help: exit status, no usage line, or a literal %%"; fail=$((fail + 1)); fi
done

# the names before 0.2 (impls/registry.c: renamed) are accepted until 0.3, with a note, and the
# results carry the name now: tanhfast was renamed gelu-tanh-accurate, erf-naive gelu-erf-naive
T=$(mktemp -d)
for pair in tanhfast/scalar=gelu-tanh-accurate/scalar erf-naive=gelu-erf-naive \
    grad_tanh/scalar=gelu-tanh-grad-accurate/scalar tanhcr_bf16/scalar=gelu-tanh-cr-bf16/scalar; do
    old=${pair%=*} now=${pair#*=}
    fmt=f32
    [[ $old == tanhcr_bf16* ]] && fmt=bf16
    bwd=()
    [[ $old == grad_* ]] && bwd=(--backward)
    expect "old name $old" 0 "*" "$G" sweep --impl "$old" "${bwd[@]}" --format $fmt --mode quick \
        --shard 1/4096 --out "$T/r.json"
    stderr_is "old name $old: the note" "note: '$old' is now named '$now' (the names before gelulab 0.2 are accepted until 0.3)"
    if grep -q "\"name\": \"$now\"" "$T/r.json" && ! grep -q "\"$old\"" "$T/r.json"; then
        pass=$((pass + 1))
    else
        echo "FAIL old name $old: the result file does not name $now"; fail=$((fail + 1))
    fi
done
# a result file written before 0.2 reads with the names now: shard 1 of 2 under the old name
# merged with shard 2 under the new one gives the file of the new name
"$G" sweep --impl gelu-tanh-accurate/scalar --mode quick --shard 1/2 --out "$T/s1.json" >/dev/null 2>&1
"$G" sweep --impl gelu-tanh-accurate/scalar --mode quick --shard 2/2 --out "$T/s2.json" >/dev/null 2>&1
sed -i 's|"gelu-tanh-accurate/scalar"|"tanhfast/scalar"|' "$T/s1.json"
expect "merge: a shard under the old name" 0 "*" "$G" merge "$T/s1.json" "$T/s2.json" --out "$T/m.json"
if grep -q '"tanhfast/scalar"' "$T/s1.json" && grep -q '"name": "gelu-tanh-accurate/scalar"' "$T/m.json" &&
    ! grep -q tanhfast "$T/m.json"; then pass=$((pass + 1)); else
    echo "FAIL merge of an old-named shard: $(grep -o '"name": "[^"]*"' "$T/m.json")"; fail=$((fail + 1)); fi
expect "new names: no note" 0 "*" "$G" sweep --impl gelu-tanh-accurate/scalar --mode quick \
    --shard 1/4096 --out "$T/r.json"
if [[ ! -s /tmp/gl_cli_err.$$ ]]; then pass=$((pass + 1)); else
    echo "FAIL new names: stderr=[$(cat /tmp/gl_cli_err.$$)]"; fail=$((fail + 1)); fi
rm -rf "$T"

rm -f /tmp/gl_cli_err.$$
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
