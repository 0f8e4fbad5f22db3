#!/bin/sh
# profile_speed.sh [BUILD_DIR] [SHARED_DIR] [TARGET] - is profiling fast
# enough for architecture search?  Builds bench/profile_speed.c against the
# te_compiler library of BUILD_DIR (default build/) and, on the MLPerf Tiny
# models (vww_96_int8, pretrainedResnet_quant, kws_ref_model, ad01_int8),
# prints in one process the time per te_profile_memory call (load, passes,
# planner, report: no code generation) against te_compile_memory (the same
# plus the generated C), and their ratio; then, when valgrind is installed,
# the instructions of one call of each (callgrind, --toggle-collect), which
# unlike times do not depend on the machine's load.  Target: cortex-m4.
#   sh bench/profile_speed.sh build ../shared cortex-m4
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shared=${2:-$root/../shared}
target=${3:-cortex-m4}
models="vww_96_int8 pretrainedResnet_quant kws_ref_model ad01_int8"
work=$(mktemp -d "${TMPDIR:-/tmp}/te-speed-XXXXXX")
trap 'rm -rf "$work"' EXIT
lib=$build/libte_compiler.a
[ -f "$lib" ] || { echo "profile_speed.sh: no $lib (build first)" >&2; exit 1; }
${CC:-cc} -std=c99 -O2 -I"$root/include" "$root/bench/profile_speed.c" "$lib" -lm \
  -o "$work/profile_speed"
set --
for m in $models; do set -- "$@" "$shared/models/$m.tflite"; done

echo "Time per call, best of 3 rounds of >= 200 ms each ($(uname -m), target $target):"
echo
"$work/profile_speed" --target "$target" "$@"

if command -v valgrind >/dev/null 2>&1; then
  echo
  echo "Instructions per call (valgrind --tool=callgrind, one call, inside the API function):"
  echo
  echo "| model | profile (instructions) | compile (instructions) | compile / profile |"
  echo "|---|---:|---:|---:|"
  for m in $models; do
    for what in profile compile; do
      fn=te_${what}_memory
      [ "$what" = compile ] && fn=te_compile_memory
      valgrind --tool=callgrind --toggle-collect="$fn" --callgrind-out-file="$work/cg.$what" \
        "$work/profile_speed" --target "$target" --once "$what" "$shared/models/$m.tflite" \
        >/dev/null 2>&1
      eval "$what=\$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' '$work/cg.$what')"
    done
    # shellcheck disable=SC2154
    echo "| $m | $profile | $compile | $(awk -v a="$compile" -v b="$profile" 'BEGIN { printf "%.0fx", a / b }') |"
  done
fi
