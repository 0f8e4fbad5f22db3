#!/bin/sh
# run_all.sh - the one command that runs every test: configures and builds
# the project with AddressSanitizer + UndefinedBehaviorSanitizer and runs
# ctest (unit, CLI and, when ../shared is there, the golden tests).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TE_BUILD_DIR:-$root/build-test}
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$root" -B "$build" -DTE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs"
