#!/bin/sh
# stack.sh TINYENGINE SHARED_DIR OPT PATCH MODEL... - the stack bound of the
# generated header holds on the target: every MODEL is benched on the
# Cortex-M4 (QEMU mps2-an386) at OPT (-O2, -O0, ...) with --patch PATCH
# (off or auto).  `bench` itself fails when the painted stack exceeds the
# NAME_STACK_BYTES its header states for that OPT; at an optimised level the
# stack must also stay within 2 KiB.  Pending models (no code) are skipped.
# Missing shared data or tools: skipped (77), a failure when CI=true.
set -u
te=$1 shared=$2 opt=$3 patch=$4
# Models known to need more than 2 KiB at an optimised level (issue 17's target
# not reached yet), as tests/golden/pending.txt does for models: listed ones
# must stay within their bound; one that gets under 2 KiB fails until taken off.
#   mit_mcunet_320kb_1mb_imagenet: --patch auto -O2, 2,452 B: the int8-weight
#   DSP convolution's 2304-byte patch buffer (its 3x3x48+ layers; issue 15).
over_2k_known=" mit_mcunet_320kb_1mb_imagenet "
shift 4
missing() {
  if [ "${CI:-}" = true ]; then echo "ERROR: $1 (CI=true: the test cannot be skipped)"; exit 1; fi
  echo "SKIP: $1"; exit 77
}
[ -d "$shared/models" ] || missing "no shared models in $shared"
for tool in qemu-system-arm arm-none-eabi-gcc arm-none-eabi-size arm-none-eabi-nm timeout; do
  command -v "$tool" >/dev/null 2>&1 || missing "$tool is not installed"
done
log=$(mktemp "${TMPDIR:-/tmp}/te-stack-XXXXXX")
trap 'rm -f "$log"' EXIT
fail=0 n=0
for model in "$@"; do
  f=$shared/models/$model.tflite
  [ -f "$f" ] || { echo "FAIL: $model: no $f"; fail=$((fail+1)); continue; }
  set -- "$f" --target cortex-m4 --opt "$opt" --patch "$patch"
  # a DSP image over the board's 4 MiB flash: the portable kernels (as run_model.sh)
  if ! "$te" bench "$@" >"$log" 2>&1 &&
     ! { grep -q overflowed "$log" && "$te" bench "$@" --portable >"$log" 2>&1; }; then
    cat "$log"; echo "FAIL: $model at $opt --patch $patch"; fail=$((fail+1)); continue
  fi
  used=$(sed -n 's/^stack used: *\([0-9]*\) bytes.*/\1/p' "$log")
  bound=$(sed -n 's/^stack used:.*(bound \([0-9]*\),.*/\1/p' "$log")
  echo "$model $opt --patch $patch: stack used ${used:-?} bytes, bound ${bound:-?}"
  if [ -z "$used" ] || [ -z "$bound" ]; then
    echo "FAIL: $model: no stack line in the bench report"; fail=$((fail+1)); continue
  fi
  case $over_2k_known in *" $model "*) known=1 ;; *) known=0 ;; esac
  if [ "$opt" != -O0 ] && [ "$used" -gt 2048 ] && [ $known = 0 ]; then
    echo "FAIL: $model: $used bytes of stack at $opt, over 2 KiB"; fail=$((fail+1))
  elif [ "$opt" != -O0 ] && [ "$used" -le 2048 ] && [ $known = 1 ] && [ "$patch" = auto ]; then
    echo "FAIL: $model: $used bytes at $opt, within 2 KiB now: take it off over_2k_known"
    fail=$((fail+1))
  elif [ "$opt" != -O0 ] && [ $known = 1 ]; then
    echo "KNOWN: $model: $used bytes of stack at $opt, over 2 KiB (issue 17)"
  fi
  n=$((n+1))
done
echo "stack: $n model(s) within their bound, $fail failure(s)"
[ "$fail" -eq 0 ]
