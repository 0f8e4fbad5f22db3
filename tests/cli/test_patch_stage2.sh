#!/bin/sh
# test_patch_stage2.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - a second
# patch stage (--patch K:HxW+K2:H2xW2: the next K2 operators after the first
# stage run patch by patch too, reading the first stage's output whole): on
# an MBConv net (te_mkpatchnet mcunet_in4_160, whose 40x40 block after the
# first stage sets the arena) and a residual one (resnet_128), the outputs
# stay byte-identical to layer by layer, on the portable kernels and a
# target's (Cortex-M4 DSP; AVX2 for resnet, whose op 12 has no region form
# on the DSP kernels), and the arena is lower than with the first stage alone.  Bad
# settings fail with one line.  `plan` and its picture show both stages.
# --patch auto adds a second stage on
# mcunet_in4_160 (below the 230400 its first stage alone reaches; --explain
# says so), then a finer first stage (below the 221728 the second stage
# reaches after the first stage it had), with the same outputs.
set -u
export TE_CFLAGS="${TE_CFLAGS:--O0}" # quickest to build; optimised builds run under QEMU
te=$1 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchstage2-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
arena() { "$te" info "$1" --patch "$2" | sed -n 's/^arena bytes: *\([0-9]*\).*/\1/p'; }

# kind, first stage, both stages, the other target
for spec in "mcunet_in4_160 10:2x3 10:2x3+7:2x2 cortex-m4" "resnet_128 11:7x8 11:7x8+4:4x4 x86-64-v3"; do
  set -- $spec
  m=$work/$1.tflite in=$work/$1.bin
  "$mk" "$1" "$m" "$in" >/dev/null || { bad "te_mkpatchnet $1"; continue; }
  a1=$(arena "$m" "$2") a2=$(arena "$m" "$3")
  if [ -z "$a1" ] || [ -z "$a2" ]; then bad "$1: no arena for --patch $2 / $3"; continue; fi
  [ "$a2" -lt "$a1" ] || bad "$1: --patch $3 arena $a2, not below $2's $a1"
  echo "$1: arena $a1 (--patch $2), $a2 (--patch $3)"
  "$te" info "$m" --patch "$3" | grep -q "^patch stage 2: " || bad "$1: info names no second stage"
  "$te" plan "$m" --patch "$3" | grep -q "^patch stage 2: *steps " || bad "$1: plan names no second stage"
  "$te" plan "$m" --patch "$3" --svg "$work/plan.svg" --quiet >/dev/null &&
    grep -q ">patch stage 2: " "$work/plan.svg" || bad "$1: the plan picture shows no second stage"
  for target in "" "--target $4"; do
    rm -rf "$work/plain" "$work/p"
    "$te" run "$m" $target --input "$in" -o "$work/plain" >/dev/null || { bad "run $1 $target"; continue; }
    [ -n "$target" ] || cp -r "$work/plain" "$work/plain_$1"
    "$te" run "$m" $target --patch "$3" --input "$in" -o "$work/p" >/dev/null ||
      { bad "run $1 $target --patch $3"; continue; }
    for o in "$work/plain"/output_*.bin; do
      cmp -s "$o" "$work/p/$(basename "$o")" ||
        bad "$1 $target --patch $3: $(basename "$o") differs from layer by layer"
    done
  done
done

# (one build: the arena from run's summary, the search's lines from its --explain)
m=$work/mcunet_in4_160.tflite in=$work/mcunet_in4_160.bin
rm -rf "$work/p"
"$te" run "$m" --patch auto --explain --input "$in" -o "$work/p" >"$work/auto.txt" 2>"$work/explain.txt" ||
  bad "mcunet_in4_160: run --patch auto"
a=$(sed -n 's/^ *RAM: .*= arena \([0-9]*\) .*/\1/p' "$work/auto.txt")
[ -n "$a" ] && [ "$a" -lt 221728 ] || bad "mcunet_in4_160 --patch auto: arena '$a', not below 221728"
grep -q "^patch search: second stage: [0-9]* operators from step 10 in " "$work/explain.txt" ||
  bad "mcunet_in4_160 --patch auto --explain: no second stage line"
grep -q "^patch search: first stage re-searched with a second: first 10 operators" "$work/explain.txt" ||
  bad "mcunet_in4_160 --patch auto --explain: no re-searched first stage line"
echo "mcunet_in4_160: arena $a (--patch auto)"
cmp -s "$work/plain_mcunet_in4_160/output_0.bin" "$work/p/output_0.bin" ||
  bad "mcunet_in4_160 --patch auto differs"

# one line for a setting it cannot run
m=$work/mcunet_in4_160.tflite
for p in "10:2x3+" "10:2x3+7:1x1" "10:2x3+0:2x2" "10:2x3+7:2x2+3:2x2"; do
  msg=$("$te" info "$m" --patch "$p" 2>&1 >/dev/null)
  case $msg in
    *"--patch takes off, auto, K:HxW, K:HxW+K2:H2xW2 or K@F:HxW"*) ;;
    *) bad "--patch $p: '$msg'" ;;
  esac
done
msg=$("$te" info "$m" --patch 10:2x3+200:2x2 2>&1 >/dev/null)
case $msg in
  *"the 200 operators from step 10 cannot run patch by patch"*) ;;
  *) bad "--patch 10:2x3+200:2x2: '$msg'" ;;
esac
[ "$fail" = 0 ] && echo "PASS a second patch stage"
exit $fail
