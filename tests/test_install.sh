#!/bin/sh
# make install, staged: everything it names lands under DESTDIR (libraries with their soname,
# the header, the gelulab command, the pkg-config file, the CMake package, the docs, and where
# Google Benchmark was found the benchmark program and the peers in LIBEXECDIR/gelulab, which the
# installed gelulab bench, gelulab list --peers and a peer's sweep use); the shared
# library exports the gl_gelu_* entry points alone; examples/consumer, outside the build, builds
# against the staged tree with pkg-config and with CMake (and statically) and each build passes:
# every function within its documented bound of `gelulab ref`, under every ISA this CPU runs.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR
set -u
B=$1 S=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
# make install, as a user runs it, on the build under test (BUILD= overrides the Makefile's)
MAKEFLAGS= make -C "$S" --no-print-directory install BUILD="$B" DESTDIR="$T/stage" PREFIX=/usr \
  >"$T/install.log" 2>&1
check "make install DESTDIR=... PREFIX=/usr exits 0" "[ $? -eq 0 ]" || cat "$T/install.log"
P=$T/stage/usr
LIB=$P/$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$B/CMakeCache.txt")
[ "$LIB" = "$P/" ] && LIB=$P/lib
for f in "$LIB/libgelulab.so" "$LIB/libgelulab.a" "$P/include/gelulab.h" "$P/bin/gelulab" \
         "$LIB/pkgconfig/gelulab.pc" "$LIB/cmake/gelulab/gelulabConfig.cmake" \
         "$LIB/cmake/gelulab/gelulabConfigVersion.cmake" "$P/share/doc/gelulab/README.md"; do
  check "installed: ${f#$T/stage}" "[ -e '$f' ]"
done
check "the soname carries the major version (libgelulab.so.0)" \
      "readelf -d '$LIB/libgelulab.so' | grep -q 'SONAME.*\[libgelulab.so.0\]' && [ -e '$LIB/libgelulab.so.0' ]"
EXPORTS=$(nm -D --defined-only "$LIB/libgelulab.so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort)
check "exports: the gl_gelu_* entry points only ($(echo "$EXPORTS" | wc -l) symbols)" \
      "[ -n \"\$EXPORTS\" ] && ! echo \"\$EXPORTS\" | grep -qv '^gl_gelu_'"
check "the installed gelulab command runs from the stage" \
      "LD_LIBRARY_PATH='$LIB' '$P/bin/gelulab' ref --hex -- 1 | grep -qx '0x1.aec4bep-1'"
check "gelulab list --library --sweep-args: the installed libgelulab.so by default" \
      "'$P/bin/gelulab' list --library --sweep-args | head -n 1 | grep -q '^--lib	$LIB/libgelulab.so	'"

# the benchmark program and the peers (built where Google Benchmark is): in a private folder,
# LIBEXECDIR/gelulab, found by the installed gelulab relative to itself; gelulab bench runs
# there (a user's kernel beside the others), gelulab list --peers lists the peers, and their
# sweep arguments name the installed per-library modules, which a sweep loads
X=$P/$(sed -n 's/^CMAKE_INSTALL_LIBEXECDIR:PATH=//p' "$B/CMakeCache.txt")/gelulab
[ "$X" = "$P//gelulab" ] && X=$P/libexec/gelulab
mkdir -p "$T/nobench/bin" && cp "$P/bin/gelulab" "$T/nobench/bin/"
if [ -x "$B/gelulab-bench" ]; then
  for f in gelulab-bench libgelulab-peers.so $(cd "$B" && ls libgelulab-peer-*.so 2>/dev/null); do
    check "installed: ${X#$T/stage}/$f" "[ -e '$X/$f' ]"
  done
  check "no peers in the public library folder" "! ls '$LIB' | grep -q 'peer'"
  so=$(env -u LD_LIBRARY_PATH ldd "$X/gelulab-bench" | awk '$1 == "libgelulab.so.0" {print $3}')
  check "the installed gelulab-bench finds libgelulab.so.0 relative to itself (RUNPATH)" \
        "[ -n '$so' ] && [ \"\$(readlink -f '$so')\" = \"\$(readlink -f '$LIB/libgelulab.so.0')\" ]"
  "$B/gelulab-bench" --list >"$T/blist0" 2>&1
  "$P/bin/gelulab" bench --list >"$T/blist" 2>"$T/blerr"
  check "installed gelulab bench --list exits 0 and is the build's" \
        "[ $? -eq 0 ] && grep -q '^memcpy .* runs\$' '$T/blist' && cmp -s '$T/blist0' '$T/blist'" ||
    cat "$T/blerr"
  printf 'void tiny(const float *x, float *y, unsigned long n)\n{ for (unsigned long i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0; }\n' >"$T/tiny.c"
  ${CC:-cc} -O2 -shared -fPIC -o "$T/libtiny.so" "$T/tiny.c"
  "$P/bin/gelulab" bench --sizes=64 --benchmark_repetitions=1 --benchmark_min_time=0.0001 \
    --benchmark_min_warmup_time=0 --benchmark_filter='^(memcpy|gelu-accurate/scalar|onednn-2.6-gelu_erf|tiny)/' \
    --lib "$T/libtiny.so" --symbol tiny >"$T/brun" 2>"$T/brerr"
  check "installed gelulab bench: a tiny filtered run with a user's kernel exits 0" \
        "[ $? -eq 0 ] && grep -q '^memcpy/64/real_time ' '$T/brun' && grep -q '^gelu-accurate/scalar/64/real_time ' '$T/brun' &&
         grep -q '^tiny/64/real_time .*kind=user ' '$T/brun'" || cat "$T/brerr"
  if grep -q '^onednn-2.6-gelu_erf .* runs$' "$T/blist"; then
    check "installed gelulab bench: the user's kernel beside oneDNN" "grep -q '^onednn-2.6-gelu_erf/64/real_time ' '$T/brun'"
  fi
  "$P/bin/gelulab" list --peers >"$T/plist" 2>"$T/plerr"
  check "installed gelulab list --peers exits 0 and is the build's" \
        "[ $? -eq 0 ] && [ \$(wc -l <'$T/plist') -ge 2 ] && \"$B/gelulab\" list --peers | cmp -s - '$T/plist'" ||
    cat "$T/plerr"
  "$P/bin/gelulab" list --peers --sweep-args --all-kinds >"$T/sargs" 2>&1
  check "installed list --peers --sweep-args: every --lib is an installed module" \
        "[ $? -eq 0 ] && awk -F'\t' '\$2 == \"--lib\" {n++; if (\$3 !~ \"^$X/libgelulab-peer-[a-z0-9-]+[.]so\$\") bad++} END {exit !(n > 0 && !bad)}' '$T/sargs'"
  # a 16-bit peer's sweep (65 536 inputs, seconds) from its installed module, as make report runs it
  line=$(awk -F'\t' '($1 == "bf16" || $1 == "f16") && $2 == "--lib"' "$T/sargs" | head -n 1)
  if [ -n "$line" ]; then
    fmt=${line%%	*}
    args=$(printf '%s' "${line#*	}" | tr '\t' '\n')
    (IFS='
'; "$P/bin/gelulab" sweep --format "$fmt" $args --out "$T/sweep.json") >"$T/sweep.log" 2>&1
    check "installed: gelulab sweep --format $fmt of a peer from its installed module" \
          "[ $? -eq 0 ] && [ -s '$T/sweep.json' ]" || cat "$T/sweep.log"
  fi
else
  "$P/bin/gelulab" bench --list >/dev/null 2>"$T/nb"; rc=$?
  check "no Google Benchmark at build time: installed gelulab bench says so in one line, exit 2" \
        "[ $rc -eq 2 ] && [ \$(wc -l <'$T/nb') -eq 1 ] && grep -q 'the benchmark program is not installed' '$T/nb'"
fi
# without the private folder: one line, exit 2, each
"$T/nobench/bin/gelulab" bench --list >/dev/null 2>"$T/nb"; rc=$?
check "gelulab bench where the benchmark is not installed: exit 2, one line" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/nb') -eq 1 ] && grep -q 'the benchmark program is not installed (neither $T/nobench/bin/gelulab-bench nor $T/nobench/${X#$P/}/gelulab-bench)' '$T/nb'"
"$T/nobench/bin/gelulab" list --peers >/dev/null 2>"$T/np"; rc=$?
check "gelulab list --peers where the peers are not installed: exit 2, one line" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/np') -eq 1 ] && grep -q 'the peers are not installed' '$T/np'"

cp -r "$S/examples/consumer" "$T/src"
# a sanitizer build's library loads into programs built with the sanitizers only
SAN=""
grep -Eqi '^GL_SANITIZE:BOOL=(ON|1|TRUE|YES)$' "$B/CMakeCache.txt" && SAN="-fsanitize=address,undefined"
# pkg-config: the .pc file locates the tree from where it lies
PKG_CONFIG_PATH=$LIB/pkgconfig make -C "$T/src" CFLAGS="-O2 -Wall -Wextra $SAN" consumer >"$T/pc.log" 2>&1
check "consumer builds with pkg-config" "[ $? -eq 0 ]" || cat "$T/pc.log"
LD_LIBRARY_PATH=$LIB "$T/src/consumer" "$P/bin/gelulab" >"$T/run_pc.txt" 2>&1
check "consumer (pkg-config) passes: 13 functions within their bounds" \
      "[ $? -eq 0 ] && grep -q '^ok: 0 of 13 functions outside their bound' '$T/run_pc.txt'" || cat "$T/run_pc.txt"
check "pkg-config build links the shared library" \
      "LD_LIBRARY_PATH='$LIB' ldd '$T/src/consumer' | grep -q 'libgelulab.so.0 => $LIB'"
# CMake: find_package(gelulab) from the stage
cmake -S "$T/src" -B "$T/cb" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="$SAN" >"$T/cm.log" 2>&1 &&
  cmake --build "$T/cb" >>"$T/cm.log" 2>&1
check "consumer builds with CMake (find_package(gelulab))" "[ $? -eq 0 ]" || cat "$T/cm.log"
LD_LIBRARY_PATH=$LIB "$T/cb/consumer" "$P/bin/gelulab" >"$T/run_cm.txt" 2>&1
check "consumer (CMake) passes" "[ $? -eq 0 ] && grep -q '^ok: 0 of 13' '$T/run_cm.txt'" || cat "$T/run_cm.txt"
# static: libgelulab.a needs no LTO plugin and nothing but libpthread and libm
cc -O2 $SAN -I"$P/include" -o "$T/static" "$T/src/consumer.c" "$LIB/libgelulab.a" -lpthread -lm >"$T/st.log" 2>&1
check "consumer links statically (libgelulab.a)" "[ $? -eq 0 ]" || cat "$T/st.log"
"$T/static" "$P/bin/gelulab" >"$T/run_st.txt" 2>&1
check "consumer (static) passes" "[ $? -eq 0 ] && grep -q '^ok: 0 of 13' '$T/run_st.txt'" || cat "$T/run_st.txt"
# every ISA this CPU runs, forced; one it does not run or does not know is refused in one line
for isa in scalar avx2 avx512; do
  GELULAB_ISA=$isa LD_LIBRARY_PATH=$LIB "$T/cb/consumer" "$P/bin/gelulab" >"$T/isa.txt" 2>"$T/isa.err"
  rc=$?
  if grep -q "run the $isa build" "$T/isa.txt"; then
    check "GELULAB_ISA=$isa: that build runs, every function within its bound" "[ $rc -eq 0 ]"
  else
    check "GELULAB_ISA=$isa: not on this CPU, said in one line, the best build runs" \
          "[ $rc -eq 0 ] && [ \$(wc -l <'$T/isa.err') -eq 1 ] && grep -q 'GELULAB_ISA=$isa: not supported by this CPU' '$T/isa.err'"
  fi
done
GELULAB_ISA=sse9 LD_LIBRARY_PATH=$LIB "$T/cb/consumer" "$P/bin/gelulab" >/dev/null 2>"$T/isa.err"
check "GELULAB_ISA=sse9: not an ISA, said in one line" \
      "[ \$(wc -l <'$T/isa.err') -eq 1 ] && grep -q 'GELULAB_ISA=sse9: not an ISA' '$T/isa.err'"
# make deb: the package (CPack), its dependencies, and its files extracted and run
if command -v dpkg-deb >/dev/null && [ -f "$B/CPackConfig.cmake" ]; then
  (cd "$T" && cpack --config "$B/CPackConfig.cmake" -G DEB -B "$T/deb" >"$T/cpack.log" 2>&1)
  DEB=$(ls "$T"/deb/gelulab_*.deb 2>/dev/null | head -n 1)
  check "cpack builds gelulab_VERSION_ARCH.deb" "[ -n '$DEB' ]" || cat "$T/cpack.log"
  check "the package depends on libmpfr6 and libgmp10 (dpkg-shlibdeps)" \
        "dpkg-deb -f '$DEB' Depends | grep -q libmpfr6 && dpkg-deb -f '$DEB' Depends | grep -q libgmp10"
  dpkg-deb -x "$DEB" "$T/x"
  check "its gelulab and libgelulab run from the unpacked package" \
        "'$T/x/usr/bin/gelulab' ref --hex -- 1 | grep -qx '0x1.aec4bep-1' &&
         LD_LIBRARY_PATH='$T/x/usr/lib' '$T/src/consumer' '$T/x/usr/bin/gelulab' | grep -q '^ok: 0 of 13'"
  # not the benchmark and the peers (they would make it depend on oneDNN, PyTorch, ...): its
  # gelulab bench says so in one line
  check "the package holds no benchmark or peers, and depends on none of their libraries" \
        "! dpkg-deb -c '$DEB' | grep -q 'gelulab-bench\\|peer' && ! dpkg-deb -f '$DEB' Depends | grep -q 'dnnl\\|torch\\|sleef\\|benchmark'"
  "$T/x/usr/bin/gelulab" bench >/dev/null 2>"$T/xb"; rc=$?
  check "the package's gelulab bench: not installed, one line, exit 2" \
        "[ $rc -eq 2 ] && [ \$(wc -l <'$T/xb') -eq 1 ] && grep -q 'not installed .*not by the Debian package' '$T/xb'"
fi
exit $fail
