#!/bin/sh
# fuzz/build.sh [OUTDIR] - builds the libFuzzer targets and their seeds.
#
# Needs clang with libFuzzer (Debian: clang and libclang-rt-14-dev), make
# and cmake (to embed the runtime kernels, as the main build does).
# Compiles the te_compiler sources directly with clang through fuzz/Makefile
# (-fsanitize=fuzzer,address,undefined, incremental), then writes the seeds:
#   OUTDIR/fuzz_reader, fuzz_compile, fuzz_graph  the targets
#   OUTDIR/seeds/reader/*.tflite                 te_mkmodel kinds + one model
#                                                per operator (tests/unit/op_models.h)
#   OUTDIR/seeds/compile/*                       the same models behind an
#                                                options byte (see fuzz_options.h)
#   OUTDIR/seeds/graph/*                         recipes for fuzz_graph
# OUTDIR defaults to build-fuzz/ at the top of the tree (ignored by git).
# Exit status 77 when clang cannot link a libFuzzer program.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build-fuzz}
cc=${FUZZ_CC:-clang}
mkdir -p "$out"
out=$(cd "$out" && pwd)

probe=$out/probe.c
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$probe"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe" -o "$out/probe" >"$out/probe.log" 2>&1; then
  echo "fuzz/build.sh: '$cc -fsanitize=fuzzer' does not link here (need clang and libclang-rt-14-dev):"
  head -3 "$out/probe.log"
  exit 77
fi

make -s -f "$root/fuzz/Makefile" -j2 CC="$cc" ROOT="$root" OUT="$out"

# Seeds: the project's own models only (never files from ../shared).
seeds=$out/seeds
rm -rf "$seeds"
mkdir -p "$seeds/reader" "$seeds/compile" "$seeds/graph"
"$out/mkseeds" "$seeds/reader" "$seeds/graph"
for kind in $("$out/te_mkmodel" --help 2>&1 | sed -n 's/^  \([a-z_0-9]*\) .*/\1/p'); do
  "$out/te_mkmodel" "$kind" "$seeds/reader/mk_$kind.tflite" >/dev/null
done
# compile seeds: options byte (fuzz_options.h) 0 defaults, 3 --int8-io --patch auto,
# 4 cortex-m4, 18 --patch 1:2x2, 178 --patch 2:3x3
for f in "$seeds"/reader/*.tflite; do
  b=$(basename "$f" .tflite)
  for opt in 0 3 4 18 178; do
    { printf "\\$(printf %03o "$opt")"; cat "$f"; } >"$seeds/compile/${b}_o$opt"
  done
done
echo "fuzz/build.sh: targets in $out, $(ls "$seeds/reader" | wc -l) reader seeds, $(ls "$seeds/compile" | wc -l) compile seeds, $(ls "$seeds/graph" | wc -l) graph seeds"
