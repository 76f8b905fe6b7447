#!/bin/sh
# make deps' PyPI step (pipeline/pypi_fetch.sh): a wheel already unpacked is not fetched again (the
# cache another clone filled), and one that cannot be had is a warning naming it and its peers,
# exit 0, never a failed build: its peers are then listed as skipped.
# Usage: test_pypi_fetch.sh SOURCE_DIR
set -u
S=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$T/c/demo-1.0" && touch "$T/c/demo-1.0/.ok-demo-1.0" "$T/c/demo-1.0/.ok-extra-2.0"
"$S/pipeline/pypi_fetch.sh" "$T/c" "Demo 1" demo==1.0 extra==2.0 >"$T/out" 2>"$T/err"
check "unpacked wheels are present: no download, one line, exit 0" \
      "[ $? -eq 0 ] && [ ! -s '$T/err' ] && grep -qx 'make deps: PyPI Demo 1 present in $T/c/demo-1.0' '$T/out'"
PIP_NO_INDEX=1 "$S/pipeline/pypi_fetch.sh" "$T/c" "Nothing 0" gelulab-no-such-dist==0.0 >"$T/out" 2>"$T/err"
check "a wheel that cannot be had: exit 0, a warning naming it and the skipped peers" \
      "[ $? -eq 0 ] && grep -q '^make deps: warning: pip download gelulab-no-such-dist==0.0 failed' '$T/err' &&
       grep -qx 'make deps: warning: the Nothing 0 peers will be skipped (not fetched: gelulab-no-such-dist==0.0)' '$T/err' &&
       [ ! -e '$T/c/gelulab-no-such-dist-0.0/.ok-gelulab-no-such-dist-0.0' ]"
# the pins changed (another version of a runtime): the group starts again from an empty prefix
echo old==0.9 >"$T/c/demo-1.0/.specs"
PIP_NO_INDEX=1 "$S/pipeline/pypi_fetch.sh" "$T/c" "Demo 1" demo==1.0 extra==2.0 >"$T/out" 2>"$T/err"
check "changed pins: said, the prefix emptied, no stale wheel taken as present" \
      "grep -qx 'make deps: the pins of Demo 1 changed: unpacking them again into $T/c/demo-1.0' '$T/out' &&
       [ ! -e '$T/c/demo-1.0/.ok-extra-2.0' ] && grep -q 'warning: the Demo 1 peers will be skipped' '$T/err'"
exit $fail
