#!/bin/sh
# tiny_cnn.sh TINYENGINE SRC_DIR - Cortex-M checks that need no ../shared, on
# the example model the project ships:
#  1. the outputs computed on cortex-m4 and cortex-m7 under QEMU equal the
#     outputs of `tinyengine run` on the host, byte for byte;
#  2. with --ram 16K (the 16 KiB stack alone fills it) the link fails with
#     "region `RAM' overflowed", as a too-big model must.
# Missing tools: skipped (exit 77), but a failure when CI=true.
set -eu
te=$1 src=$2
model=$src/examples/models/tiny_cnn.tflite input=$src/examples/models/tiny_cnn_input.bin
for tool in qemu-system-arm arm-none-eabi-gcc timeout; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    [ "${CI:-}" = true ] && { echo "ERROR: $tool missing (CI=true)"; exit 1; }
    echo "SKIP: $tool is not installed"; exit 77
  fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/te-tinycnn-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$te" run "$model" --input "$input" -o "$work/host"
for target in cortex-m4 cortex-m7; do
  "$te" bench "$model" --target "$target" --input "$input" --expect "$work/host/output_0.bin"
done
if "$te" bench "$model" --input "$input" --ram 16K >"$work/small.log" 2>&1; then
  echo "FAIL: bench with --ram 16K linked"; exit 1
fi
grep -q "region .RAM' overflowed" "$work/small.log" || { cat "$work/small.log"; echo "FAIL: no overflow message"; exit 1; }
echo "--ram 16K: link failed with region RAM overflowed, as expected"
