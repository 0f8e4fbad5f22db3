#!/bin/sh
# check_memory_targets.sh TINYENGINE SHARED_DIR [PENDING_TXT] - issue 3's memory figures:
#  - without patches, the arena never exceeds the lifetime lower bound of
#    plain layer-by-layer execution, on every shared and conformance model;
#  - vww_96_int8 fits 55,296 B layer by layer;
#  - with --patch auto --int8-io (input included): vww_96_int8 <= 42,000,
#    tinyengine_vww <= 40,000, mobilenet_v2 <= 393,216 (a 512 KB part).
set -u
te=$1 shared=$2 pending=${3:-/dev/null}
fail=0 n=0
num() { sed -n "s/^ *\"$1\": \\([0-9]*\\).*/\\1/p"; }
for m in "$shared"/models/*.tflite "$shared"/conformance/*.tflite; do
  name=$(basename "$m" .tflite)
  grep -qE "^$name[[:space:]]" "$pending" && continue  # waits for an issue
  j=$("$te" info "$m" --json) || { echo "FAIL $name: info failed"; fail=1; continue; }
  a=$(echo "$j" | num arena_bytes); b=$(echo "$j" | num lifetime_lower_bound_bytes)
  n=$((n+1))
  [ "$a" -le "$b" ] || { echo "FAIL $name: arena $a > lifetime bound $b"; fail=1; }
done
echo "$n models: arena <= lifetime lower bound without patches"
limit() { # MODEL MAX FLAGS...
  m=$1 max=$2; shift 2
  a=$("$te" info "$shared/models/$m.tflite" --json "$@" | num arena_bytes)
  if [ -n "$a" ] && [ "$a" -le "$max" ]; then echo "ok   $m $*: $a <= $max"
  else echo "FAIL $m $*: ${a:-?} > $max"; fail=1; fi
}
limit vww_96_int8 55296
limit vww_96_int8 42000 --patch auto --int8-io
limit tinyengine_vww 40000 --patch auto --int8-io
limit mobilenet_v2_quantized_1x3x224x224 393216 --patch auto --int8-io
exit $fail
