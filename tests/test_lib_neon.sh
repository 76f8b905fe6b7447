#!/bin/sh
# libgelulab on AArch64: lib/gelulab.c with the NEON builds of the kernels (impls/vec_neon.c,
# tab16.c), cross-compiled with examples/consumer into a static AArch64 program and run under
# qemu-aarch64: the library dispatches to its NEON builds and every function is within its bound
# of `gelulab ref` (the x86-64 gelulab of this build, called by the consumer).
# Usage: test_lib_neon.sh AARCH64_CC QEMU SOURCE_DIR BUILD_DIR GELULAB
set -u
CC=$1 QEMU=$2 S=$3 B=$4 G=$5
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
"$CC" -O2 -std=c17 -static -Wall -Wextra -Werror -ffp-contract=off -fvisibility=hidden \
  -I"$S/include" -I"$S/impls" -I"$B/impls" -o "$T/consumer" "$S/examples/consumer/consumer.c" \
  "$S/lib/gelulab.c" "$S/impls/vec_neon.c" "$S/impls/tab16.c" "$B/impls/tab16_table.c" \
  -lpthread -lm >"$T/cc.log" 2>&1
if [ $? -eq 0 ]; then echo "ok   libgelulab and the consumer cross-compile for AArch64"; else
  echo "FAIL cross-compiling for AArch64"; cat "$T/cc.log"; exit 1; fi
"$QEMU" "$T/consumer" "$G" >"$T/out" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q 'binary32 functions run the neon build, 16-bit ones the neon build' "$T/out" &&
   grep -q '^ok: 0 of 13 functions outside their bound' "$T/out"; then
  echo "ok   under qemu-aarch64: the NEON builds run, all 13 functions within their bounds"
else
  echo "FAIL under qemu-aarch64 (exit $rc)"; cat "$T/out"; fail=1
fi
exit $fail
