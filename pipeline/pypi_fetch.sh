#!/usr/bin/env bash
# make deps-pypi: the pinned PyPI wheels of the peers of newer framework versions, unpacked once
# per machine into a cache outside the clone, one prefix per library keyed by its package and
# version (CACHE/DIST-VERSION, the first pin's), as pip would install them into one
# environment: each wheel's files, and its data files (DIST.data/data/lib, include, ...)
# merged into the prefix's lib/ and include/, where the libraries expect each other ($ORIGIN).
#   CACHE/PREFIX/.ok-DIST-VERSION   one per wheel, written when it is unpacked: another clone
#                                   on the machine (CI's) finds them and downloads nothing.
#   CACHE/PREFIX/.specs             the group's pins and members, one per line, written when all
#                                   are unpacked: a group whose pins changed starts from an
#                                   empty prefix (no mix of two versions' runtimes).
# usage: pipeline/pypi_fetch.sh CACHE LABEL DIST==VERSION[:MEMBER,...] ...
#   LABEL names the peers that need the wheels in the messages ($GL_FETCH_SKIPS, if set, says
#   instead what a failure skips); MEMBERs (unzip patterns) unpack only those files of a wheel.
#   Every wheel is optional: a failure is a warning, and the library's peers are then listed as
#   skipped with the reason.
set -u
cache=$1 label=$2
shift 2
skips=${GL_FETCH_SKIPS:-the $label peers}
first=${1%%:*}
prefix="$cache/${first%%==*}-${first##*==}"
mkdir -p "$prefix" 2>/dev/null ||
    { echo "make deps: warning: cannot create $prefix: $skips will be skipped" >&2; exit 0; }
specs=$(printf '%s\n' "$@")
if [ -f "$prefix/.specs" ] && [ "$(cat "$prefix/.specs")" != "$specs" ]; then
    echo "make deps: the pins of $label changed: unpacking them again into $prefix"
    rm -rf "$prefix" && mkdir -p "$prefix"
fi
start=$(date +%s) fetched="" failed=""
for spec in "$@"; do
    pin=${spec%%:*} members=""
    [ "$pin" != "$spec" ] && members=${spec#*:}
    dist=${pin%%==*} ver=${pin##*==}
    [ -f "$prefix/.ok-$dist-$ver" ] && continue
    tmp=$(mktemp -d "$cache/.fetch.XXXXXX") || { failed="$failed $pin"; continue; }
    if ! python3 -m pip download -q --no-deps --only-binary :all: --disable-pip-version-check \
            --python-version 3.11 -d "$tmp" "$pin" >"$tmp/log" 2>&1; then
        echo "make deps: warning: pip download $pin failed: $(tail -n 1 "$tmp/log")" >&2
        rm -rf "$tmp"; failed="$failed $pin"; continue
    fi
    whl=$(ls "$tmp"/*.whl 2>/dev/null | head -n 1)
    mkdir -p "$tmp/x"
    # the members are unzip's patterns, not the shell's (set -f)
    # shellcheck disable=SC2086
    if ! (set -f; unzip -q -o "$whl" ${members//,/ } -d "$tmp/x") 2>"$tmp/log"; then
        echo "make deps: warning: unpacking $pin failed: $(tail -n 1 "$tmp/log")" >&2
        rm -rf "$tmp"; failed="$failed $pin"; continue
    fi
    # the data scheme's files go to the prefix itself, the rest (purelib) beside them
    for data in "$tmp"/x/*.data/data; do
        [ -d "$data" ] && cp -a "$data"/. "$prefix"/ && rm -rf "$data"
    done
    rm -rf "$tmp"/x/*.data "$tmp"/x/*.dist-info
    cp -a "$tmp"/x/. "$prefix"/
    fetched="$fetched $pin($(( $(stat -c %s "$whl") / 1048576 )) MB)"
    rm -rf "$tmp"
    touch "$prefix/.ok-$dist-$ver"
done
[ -z "$failed" ] && printf '%s\n' "$specs" >"$prefix/.specs"
if [ -n "$failed" ]; then
    echo "make deps: warning: $skips will be skipped (not fetched:$failed)" >&2
elif [ -z "$fetched" ]; then
    echo "make deps: PyPI $label present in $prefix"
else
    echo "make deps: PyPI $label fetched into $prefix in $(( $(date +%s) - start )) s:$fetched"
fi
exit 0
