#!/bin/sh
# check_int8_io.sh TINYENGINE MODEL.tflite GOLDEN_DIR - with --int8-io the
# leading QUANTIZE (op 0) and trailing DEQUANTIZE disappear: feeding op 0's
# golden int8 output must reproduce every later golden layer, and the int8
# output must be the last layer's bytes.
set -eu
te=$1 model=$2 gold=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/te-i8io-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$te" info "$model" --int8-io | grep -q "QUANTIZE .*(dead: removed)" || { echo "FAIL QUANTIZE not removed"; exit 1; }
"$te" run "$model" --int8-io --input "$gold/layers/op000_0.bin" -o "$work/out" --dump-layers "$work/l"
n=0 bad=0 last=""
for f in "$work"/l/op*.bin; do
  b=$(basename "$f"); n=$((n+1)); last=$f
  cmp -s "$f" "$gold/layers/$b" || { echo "FAIL layer $b differs"; bad=$((bad+1)); }
done
[ -f "$work/l/op000_0.bin" ] && { echo "FAIL op 0 (QUANTIZE) still ran"; bad=$((bad+1)); }
cmp -s "$work/out/output_0.bin" "$last" || { echo "FAIL int8 output is not the last layer ($last)"; bad=$((bad+1)); }
echo "int8-io: $n layers compared, $bad failures"
[ "$bad" = 0 ] && [ "$n" -gt 0 ]
