#!/bin/sh
# run_all.sh - the one command that runs every test: configures and builds
# the project with AddressSanitizer + UndefinedBehaviorSanitizer and runs
# ctest (unit, CLI, fuzz smoke and, when ../shared is there, the golden
# tests, whose generated code is also compiled with the sanitizers).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TE_BUILD_DIR:-$root/build-test}
jobs=$(nproc 2>/dev/null || echo 2)
# the golden tests also build the generated code of every model with these
# (set TE_HARNESS_CFLAGS= to turn that off), at -O0 or, for a model whose
# samples run 200M MACs or more, -O1 (TE_HARNESS_OPT=auto, see
# tests/golden/check_model.sh): under the sanitizers gcc builds a model's
# specialised kernels 2-3x faster at -O0, and -O1 (as AddressSanitizer's
# documentation advises) pays off only on long runs (optimised builds are
# run byte-exact by the QEMU tests: every real model at -O2 on the M4 and
# the M7, every conformance model once: its DSP code at -Os on the M4, its
# generic code at -O2 on the M7)
export TE_HARNESS_CFLAGS="${TE_HARNESS_CFLAGS--fsanitize=address,undefined -fno-sanitize-recover=all}"
export TE_HARNESS_OPT="${TE_HARNESS_OPT-auto}"
cmake -S "$root" -B "$build" -DTE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs"
