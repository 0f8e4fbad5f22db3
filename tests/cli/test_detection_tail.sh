#!/bin/sh
# test_detection_tail.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - an
# int8 SSD as the TF object detection API exports it (te_mkpatchnet
# ssd_mobilenet_v2_300_detect: MobileNetV2 300x300, heads reshaped and
# concatenated, LOGISTIC, DEQUANTIZE, TFLite_Detection_PostProcess over
# 1917 anchors x 91 classes) compiles, both DEQUANTIZEs are folded into the
# post-process op, and with --patch auto the arena stays below the float32
# scores tensor alone (1917 x 91 x 4 = 697788 bytes), which the fold never
# makes; layer by layer it is the backbone's 2520000.  `info --json` only:
# quick under the sanitizers (tools/te_mkref's detection_* kinds check the
# op's outputs).
set -u
te=$1 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-detect-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
num() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" | head -1; }
"$mk" ssd_mobilenet_v2_300_detect "$work/m.tflite" "$work/in.bin" ||
  { echo "FAIL te_mkpatchnet"; exit 1; }
"$te" info "$work/m.tflite" --json > "$work/plain.json" || { echo "FAIL info"; exit 1; }
"$te" info "$work/m.tflite" --json --patch auto > "$work/patch.json" ||
  { echo "FAIL info --patch auto"; exit 1; }
dead=$(tr -d ' \n' < "$work/plain.json" | grep -o '"op":"DEQUANTIZE","dead":true' | wc -l)
[ "$dead" -eq 2 ] || { echo "FAIL $dead of the 2 DEQUANTIZEs folded"; fail=1; }
plain=$(num arena_bytes < "$work/plain.json")
patched=$(num arena_bytes < "$work/patch.json")
[ "$plain" = 2520000 ] || { echo "FAIL layer-by-layer arena $plain, expected 2520000"; fail=1; }
[ -n "$patched" ] && [ "$patched" -lt 697788 ] ||
  { echo "FAIL --patch auto arena $patched is not below the float32 scores' 697788"; fail=1; }
[ $fail = 0 ] && echo "OK: SSD with its post-process op: arena $plain layer by layer, $patched with --patch auto; DEQUANTIZEs folded"
exit $fail
