#!/bin/sh
# test_patch_code.sh TINYENGINE SRC_DIR - the patch stage's code estimate
# (`info --json` patch.code_bytes_estimate, src/plan/patch_code.c) against
# what the patches really add to the generated object: each case compiled
# with and without its --patch plan for its target, the objects built as
# the project builds generated code (cc -O2 for generic and x86-64-v3;
# arm-none-eabi-gcc -O2 and -Os for cortex-m0plus, cortex-m4 and cortex-m7,
# the larger growth of the two), and the growth of .text + .rodata + .data
# compared: the estimate is an upper bound of it, and within 2x of it.
# Both sides are compiled with no flash for the speed trades (--flash-limit
# at the model's own need, plus the patches' estimate when patched): the
# trades are charged apart (src/ops/flash_budget.h).  The cases: stages
# --patch auto picks and other grids on shared real models, covering
# conv/depthwise stages (vww, person_detect, pretrainedResnet), float
# QUANTIZE heads and te_lut_s8 clones the compiler inlines at every call
# (tflm_retinaface on the host: the former estimate, a flat call and 128
# bytes a record, was 0.88x of the growth there, and 0.99x on
# tinyengine_vww for Cortex-M4), a clone kernel the operator does not run
# (tflm_custom: the portable depthwise kernel beside the DSP one) and
# every target.  Measured on every shared model that picks a stage, five
# targets, 152 plans (docs/cost-model.md, "Patch code"): 1.09x-1.84x, and
# up to 3x where the stage drops code the estimate does not deduct.
# Skips (77) without the shared models or a compiler.
set -u
te=$1 src=$2
models=$src/../shared/models
[ -d "$models" ] || { echo "skip: no $models"; exit 77; }
command -v arm-none-eabi-gcc >/dev/null 2>&1 || { echo "skip: no arm-none-eabi-gcc"; exit 77; }
command -v cc >/dev/null 2>&1 || { echo "skip: no cc"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/te-pcode-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

# size DIR CC...: .text + .rodata + .data of DIR/net.c compiled with CC
size_of() {
  d=$1; shift
  "$@" -std=c99 -w -c "$d/net.c" -o "$d/net.o" || return 1
  size -A "$d/net.o" | awk '$1 ~ /^\.(text|rodata|data)/ { s += $2 } END { print s + 0 }'
}

# check MODEL TARGET PLAN
check() {
  f=$models/$1.tflite t=$2 p=$3
  [ -f "$f" ] || return 0
  arm="arm-none-eabi-gcc -mthumb"
  case $t in
  generic | x86-64-v3) set -- "cc -O2" ;;
  cortex-m0plus) set -- "$arm -mcpu=cortex-m0plus -O2" "$arm -mcpu=cortex-m0plus -Os" ;;
  cortex-m4) arm="$arm -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16"; set -- "$arm -O2" "$arm -Os" ;;
  cortex-m7) arm="$arm -mcpu=cortex-m7 -mfloat-abi=hard -mfpu=fpv5-d16"; set -- "$arm -O2" "$arm -Os" ;;
  esac
  m=$(basename "$f" .tflite)
  need=$("$te" compile "$f" --target "$t" --flash-limit 1 --quiet -o "$work/x" --name net 2>&1 |
         sed -n 's/.*needs about \([0-9]*\) bytes.*/\1/p')
  est=$("$te" info "$f" --json --target "$t" --patch "$p" --flash-limit 1000000000 |
        sed -n 's/.*"code_bytes_estimate": \([0-9]*\).*/\1/p')
  rm -rf "$work/u" "$work/p"
  if [ -z "$need" ] || [ -z "$est" ] ||
     ! "$te" compile "$f" --target "$t" --flash-limit "$need" --quiet -o "$work/u" --name net ||
     ! "$te" compile "$f" --target "$t" --patch "$p" --flash-limit $((need + est)) --quiet \
         -o "$work/p" --name net; then
    echo "FAIL: $m ($t, --patch $p) does not compile"
    fail=$((fail + 1))
    return
  fi
  growth=
  for cc in "$@"; do
    # shellcheck disable=SC2086
    u=$(size_of "$work/u" $cc) && pz=$(size_of "$work/p" $cc) || { growth=; break; }
    [ -z "$growth" ] || [ $((pz - u)) -gt "$growth" ] && growth=$((pz - u))
  done
  if [ -z "$growth" ] || [ "$growth" -le 0 ]; then
    echo "FAIL: $m ($t, --patch $p): no growth measured ('$growth')"
    fail=$((fail + 1))
    return
  fi
  echo "$m ($t, --patch $p): estimate $est, growth $growth"
  if [ "$est" -lt "$growth" ] || [ "$est" -gt $((growth * 2)) ]; then
    echo "FAIL: $m ($t, --patch $p): estimate $est outside [$growth, 2 x $growth]"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

check vww_96_int8 cortex-m4 8:6x6
check vww_96_int8 cortex-m0plus 8:4x4
check person_detect cortex-m7 8:6x6
check pretrainedResnet_quant x86-64-v3 8:5x5
check tflm_custom_model_rf_keras_7a86b0c cortex-m4 4:4x4
check tinyengine_vww cortex-m4 7:7x7
check tflm_retinaface_466a481 generic 18:8x8
echo "patch_code: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
