#!/bin/sh
# consumer.sh MODE SRC TINYENGINE TE_BUILD WORK - the cmake.package and
# cmake.add_subdirectory tests: a firmware project made in WORK (outside the
# repository: tests/cmake/consumer/CMakeLists.txt, examples/firmware/main.c,
# the toolchain file and examples/models/tiny_cnn.tflite copied there) is
# cross-built for Cortex-M4 and run under QEMU; its output must equal
# `tinyengine run`'s on the host.
#   MODE package:       `cmake --install TE_BUILD` into a prefix, which is
#                       then moved (relocatable), and find_package(TinyEngine)
#   MODE subdirectory:  add_subdirectory(SRC): the compiler is built for the host
# No arm-none-eabi-gcc or qemu-system-arm: skipped (77), failed when CI=true.
set -eu
mode=$1 src=$2 te=$3 te_build=$4 work=$5
need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  [ "${CI:-}" = true ] && { echo "ERROR: $1 missing (CI=true)"; exit 1; }
  echo "SKIP: $1 is not installed"; exit 77
}
need arm-none-eabi-gcc
need qemu-system-arm
rm -rf "$work"
mkdir -p "$work/project" "$work/run"
cp "$src/tests/cmake/consumer/CMakeLists.txt" "$src/examples/firmware/main.c" \
   "$src/examples/firmware/arm-none-eabi.cmake" "$work/project/"
cp "$src/examples/models/tiny_cnn.tflite" "$work/project/model.tflite"
cp "$src/examples/models/tiny_cnn_input.bin" "$work/run/input.bin"

case $mode in
package)
  cmake --install "$te_build" --prefix "$work/staged" >/dev/null
  mv "$work/staged" "$work/prefix" # the installed tree must not depend on where it was put
  set -- -DTE_USE=package -DCMAKE_PREFIX_PATH="$work/prefix"
  # the moved tool finds its Cortex-M files (bench builds and runs a model)
  "$work/prefix/bin/tinyengine" bench "$work/project/model.tflite" --target cortex-m4 \
    --input "$work/run/input.bin" >"$work/bench.txt"
  grep -q 'instructions' "$work/bench.txt";;
subdirectory)
  # the host compiler unoptimized (TE_HOST_CMAKE_ARGS): half the build time
  set -- -DTE_USE=subdirectory -DTINYENGINE_SOURCE_DIR="$src" \
    -DTE_HOST_CMAKE_ARGS=-DCMAKE_BUILD_TYPE=None;;
*) echo "consumer.sh: MODE is package or subdirectory"; exit 2;;
esac
cmake -S "$work/project" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$work/project/arm-none-eabi.cmake" "$@"
cmake --build "$work/build" -j2
(cd "$work/run" && timeout 60 qemu-system-arm -M mps2-an386 -nographic -monitor none \
  -serial none -semihosting-config enable=on,target=native -kernel "$work/build/firmware.elf")
"$te" run "$work/project/model.tflite" --input "$work/run/input.bin" -o "$work/host" >/dev/null
cmp "$work/run/output_0.bin" "$work/host/output_0.bin"
echo "$mode: the Cortex-M4 firmware's output equals the host's"
