#!/bin/sh
# build_and_run.sh SRC_DIR TINYENGINE BUILD_DIR - the example.firmware test:
# configures and builds examples/firmware with the arm-none-eabi toolchain
# file and tinyengine_add_model(); when qemu-system-arm is there, runs the
# firmware on mps2-an386 and checks its output file equals `tinyengine run`'s.
# No arm-none-eabi-gcc: skipped (exit 77), but a failure when CI=true.
set -eu
src=$1 te=$2 build=$3
need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  [ "${CI:-}" = true ] && { echo "ERROR: $1 missing (CI=true)"; exit 1; }
  echo "SKIP: $1 is not installed"; exit 77
}
need arm-none-eabi-gcc
rm -rf "$build"
cmake -S "$src/examples/firmware" -B "$build" \
  -DCMAKE_TOOLCHAIN_FILE="$src/examples/firmware/arm-none-eabi.cmake" \
  -DTINYENGINE_EXECUTABLE="$te"
cmake --build "$build"
need qemu-system-arm
run=$build/run
mkdir -p "$run"
(cd "$run" && timeout 120 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
  -semihosting-config enable=on,target=native -kernel "$build/firmware.elf")
"$te" run "$src/examples/models/tiny_cnn.tflite" --input "$src/examples/models/tiny_cnn_input.bin" \
  -o "$run/host"
cmp "$run/output_0.bin" "$run/host/output_0.bin"
echo "firmware output equals the host's"
