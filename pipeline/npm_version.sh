#!/usr/bin/env bash
# The version of npm package NAME installed under DIR/node_modules (make deps: build/npm), or
# nothing (exit 1) when it is not installed. Used by `make deps` (is the pinned version there?)
# and by make_report.sh (the versions the report names).
#   usage: pipeline/npm_version.sh DIR NAME
set -u
DIR=${1:?usage: npm_version.sh DIR NAME} NAME=${2:?usage: npm_version.sh DIR NAME}
v=$(sed -n 's/^  "version": "\(.*\)",/\1/p' "$DIR/node_modules/$NAME/package.json" 2>/dev/null)
[ -n "$v" ] && echo "$v"
