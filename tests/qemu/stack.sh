#!/bin/sh
# stack.sh TINYENGINE SHARED_DIR OPT PATCH MODEL... - the stack bound of the
# generated header holds on the target: every MODEL is benched on the
# Cortex-M4 (QEMU mps2-an386) at OPT (-O2, -O0, ...) with --patch PATCH
# (off or auto; a model --patch auto leaves layer by layer has the same code
# as with off and is not benched twice).  `bench` itself fails when the
# painted stack exceeds the NAME_STACK_BYTES its header states for that OPT;
# at an optimised level the stack must also stay within 2 KiB.  Pending
# models (no code) are skipped.
# Missing shared data or tools: skipped (77), a failure when CI=true.
set -u
te=$1 shared=$2 opt=$3 patch=$4
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
# 0 when --patch auto finds no patch stage for $1: its generated code is then
# the layer-by-layer code (but for the options line of the provenance
# comment), whose stack the --patch off run of the same OPT measures.
same_code_unpatched() {
  gen=$(mktemp -d "${TMPDIR:-/tmp}/te-stack-gen-XXXXXX")
  "$te" compile "$1" --target cortex-m4 --patch auto -o "$gen/auto" --name m --quiet &&
  "$te" compile "$1" --target cortex-m4 -o "$gen/off" --name m --quiet &&
  for x in c h; do
    grep -v '^ \* tinyengine .*options:' "$gen/auto/m.$x" >"$gen/a"
    grep -v '^ \* tinyengine .*options:' "$gen/off/m.$x" >"$gen/o"
    cmp -s "$gen/a" "$gen/o" || { rm -rf "$gen"; return 1; }
  done
  rc=$?; rm -rf "$gen"; return $rc
}
for model in "$@"; do
  f=$shared/models/$model.tflite
  [ -f "$f" ] || { echo "FAIL: $model: no $f"; fail=$((fail+1)); continue; }
  if [ "$patch" = auto ] && same_code_unpatched "$f"; then
    if [ "$opt" = -O0 ]; then by=qemu.stack.O0; else by="qemu.$model.m4"; fi
    echo "$model $opt --patch auto: no patch stage, the same code as --patch off ($by)"
    n=$((n+1)); continue
  fi
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
  if [ "$opt" != -O0 ] && [ "$used" -gt 2048 ]; then
    echo "FAIL: $model: $used bytes of stack at $opt, over 2 KiB"; fail=$((fail+1)); continue
  fi
  n=$((n+1))
done
echo "stack: $n model(s) within their bound, $fail failure(s)"
[ "$fail" -eq 0 ]
