#!/bin/sh
# calibrate_cost.sh - measures exact per-layer instruction counts of the
# conformance models and the shared models, fits the cost model of
# `tinyengine profile` / te_profile_memory() to them and rewrites
# src/api/cost_table.c and the results section of docs/cost-model.md.
# Rerun after changing kernels, then rebuild:
#   sh bench/calibrate_cost.sh && cmake --build build
#
# usage: sh bench/calibrate_cost.sh [--quick] [--measure-only|--fit-only|--patched-only]
#                                   [--no-conformance] [--keep-others]
#                                   [--models "cortex-m4 cortex-m7 host armv7m-portable x86-64-v3"]
#   --quick         leave out the two largest models (mobilenet_v2, mcunetv2_large)
#   --no-conformance  only the shared models (x86-64-v3: its AVX2 kernels are
#                   those of the real models; the other kernels fall back on
#                   the host rows, see te_cost_row)
#   --keep-others   fit only --models; the table keeps the other cost models'
#                   rows (their results stay in their own doc section)
#   --measure-only  measure, do not fit
#   --fit-only      fit the measurements already in the work folder
#   --patched-only  only the whole-model check of --patch auto (run it after
#                   rebuilding with the new table, then --fit-only)
# Environment: TE (default build/tinyengine), SHARED (default ../shared),
#   WORK (measurements, default build-cost/; kept for --fit-only), RUNTIME (the
#   kernels TE embeds, for the family names; default runtime/), TMPDIR.
#
# Per model and cost model: `tinyengine profile --json` (features, predicted
# kernel variant), `tinyengine compile` (kernel actually called, read from the
# generated code), a build whose layer hook is a two-instruction marker
# (bench/cost/layer_main.c, host_main.c), and a run of sample 0 of the
# golden inputs: under qemu-system-arm with the te_icount plugin (start/stop
# at the marker: one interval per operator) for Cortex-M, under valgrind's
# callgrind (one dump per marker call) for the host.  bench/cost/fit.py fits.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
te=${TE:-$root/build/tinyengine}
shared=${SHARED:-$root/../shared}
work=${WORK:-$root/build-cost}
runtime=${RUNTIME:-$root/runtime}
models="cortex-m4 cortex-m7 host armv7m-portable"
quick=0 measure=1 fit=1 only_patched=0 conformance=1 keep=
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --no-conformance) conformance=0 ;;
    --keep-others) keep=--keep-others ;;
    --measure-only) fit=0 ;;
    --fit-only) measure=0 ;;
    --patched-only) only_patched=1 fit=0 ;;
    --models) models=$2; shift ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "calibrate_cost.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
tdir=$root/targets/cortex-m
big=" mobilenet_v2_quantized_1x3x224x224 tinyengine_mcunetv2_large "
skip=" dtln_noise_suppression micro_speech_lstm mnist_lstm_int8 keyword_scrambled_8bit "

# compile target, gcc flags and QEMU board of a cost model
setup() {
  case $1 in
    cortex-m4) ct=cortex-m4 board=mps2-an386 ld=mps2-an386.ld
               flags="-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb" ;;
    cortex-m7) ct=cortex-m7 board=mps2-an500 ld=mps2-an500.ld
               flags="-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard -mthumb" ;;
    armv7m-portable) ct=cortex-m0plus board=mps2-an386 ld=mps2-an386.ld
               flags="-mcpu=cortex-m3 -mthumb -mfloat-abi=soft" ;;
    host) ct=generic board= ld= flags= ;;
    x86-64-v3) ct=x86-64-v3 board= ld= flags= ;; # AVX2 kernels: the functions carry the target attribute
    *) echo "calibrate_cost.sh: unknown cost model $1" >&2; exit 2 ;;
  esac
}

# copy the sample-0 inputs of model $1 (from folder $2) into $3/te_in<i>.bin
inputs() {
  i=0
  while [ -f "$2/input_0_$i.bin" ]; do cp "$2/input_0_$i.bin" "$3/te_in$i.bin"; i=$((i+1)); done
}

run_arm() { # dir
  # shellcheck disable=SC2086
  arm-none-eabi-gcc $flags -O2 -std=c99 -ffunction-sections -fdata-sections -I"$1" -I"$tdir" \
    -DTE_MODEL=m '-DTE_MODEL_HEADER="m.h"' -DM_LAYER_HOOK=te_layer_mark \
    "$1/m.c" "$root/bench/cost/layer_main.c" "$tdir/startup.c" "$tdir/semihost.c" \
    -L"$tdir" -T"$tdir/$ld" \
    -nostartfiles --specs=nano.specs --specs=nosys.specs -Wl,--gc-sections -o "$1/m.elf" \
    >"$1/build.log" 2>&1 || return 1
  # shellcheck disable=SC2086
  arm-none-eabi-gcc $flags -O2 -std=c99 -ffunction-sections -fdata-sections -c "$1/m.c" \
    -o "$1/m.o" >>"$1/build.log" 2>&1 && arm-none-eabi-size -A "$1/m.o" >"$1/size.txt"
  start=$(arm-none-eabi-nm "$1/m.elf" | awk '$3=="te_layer_start"{print $1}')
  stop=$(arm-none-eabi-nm "$1/m.elf" | awk '$3=="te_layer_stop"{print $1}')
  (cd "$1" && timeout 900 qemu-system-arm -M "$board" -nographic -monitor none -serial none \
    -semihosting-config enable=on,target=native -kernel m.elf \
    -plugin "$work/te_icount.so,start=0x$start,stop=0x$stop,out=counts.txt" >run.log 2>&1)
}

run_host() { # dir
  cc -std=c99 -O2 -I"$1" -DTE_MODEL=m '-DTE_MODEL_HEADER="m.h"' -DM_LAYER_HOOK=te_layer_mark \
    "$1/m.c" "$root/bench/cost/host_main.c" -o "$1/m.host" >"$1/build.log" 2>&1 || return 1
  (cd "$1" && rm -f cg.out* && valgrind --tool=callgrind --dump-before=te_layer_mark \
    --callgrind-out-file=cg.out ./m.host >run.log 2>&1 &&
    for f in $(ls cg.out.* | sort -t. -k3 -n); do
      sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$f"
    done | awk 'NR > 1 { printf "interval %d %s\n", NR - 2, $1 }' >counts.txt && rm -f cg.out*)
}

measure_one() { # cost-model set name tflite inputdir
  d=$work/$1/$3
  rm -rf "$d" && mkdir -p "$d"
  if ! "$te" compile "$4" --target "$ct" --name m -o "$d" >"$d/compile.log" 2>&1; then
    echo "  $3: does not compile ($(head -c 200 "$d/compile.log"))"; rm -rf "$d"; return 0
  fi
  "$te" profile --json --target "$ct" "$4" >"$d/profile.json"
  echo "$2" >"$d/set"
  inputs "$3" "$5" "$d"
  case $1 in host|x86-64-v3) run_host "$d" ;; *) run_arm "$d" ;; esac || {
    why=$(grep -h -o "region .* overflowed by [0-9]* bytes" "$d/build.log" 2>/dev/null | head -n 1)
    echo "  $3: build or run failed${why:+: $why} (see $d)"; rm -f "$d/counts.txt"; return 0; }
  match=match i=0
  while [ -f "$5/output_0_$i.bin" ]; do
    cmp -s "$5/output_0_$i.bin" "$d/te_out$i.bin" || match=MISMATCH
    i=$((i+1))
  done
  echo "$match" >"$d/match"
  echo "  $3: $(grep -c '^interval' "$d/counts.txt") intervals, outputs $match"
}

# whole-model check of the patch-based stage: exact total of `tinyengine bench
# --patch auto` and the profile of the same build
patched="vww_96_int8 person_detect tinyengine_vww"
measure_patched() { # cost-model name
  d=$work/$1/patched/$2 g=$shared/golden/$2
  rm -rf "$d" && mkdir -p "$d"
  "$te" profile --json --target "$ct" --patch auto "$shared/models/$2.tflite" >"$d/profile.json" &&
    "$te" bench "$shared/models/$2.tflite" --target "$ct" --patch auto --input "$g/input_0_0.bin" \
      --expect "$g/output_0_0.bin" >"$d/bench.txt" 2>&1 &&
    echo "  $2 --patch auto: $(grep '^instructions' "$d/bench.txt")" ||
    echo "  $2 --patch auto: failed (see $d)"
}

if [ "$measure" = 1 ]; then
  [ -x "$te" ] || { echo "calibrate_cost.sh: no $te (build first or set TE)" >&2; exit 1; }
  mkdir -p "$work"
  cc -std=c99 -O2 -shared -fPIC -o "$work/te_icount.so" "$tdir/qemu/te_icount.c"
  for cm in $models; do
    setup "$cm"
    echo "== $cm (code for --target $ct)"
    [ "$only_patched" = 1 ] || [ "$conformance" = 0 ] || for m in "$shared"/conformance/*.tflite; do
      n=$(basename "$m" .tflite)
      measure_one "$cm" conformance "$n" "$m" "$shared/conformance/$n"
    done
    [ "$only_patched" = 1 ] || for m in "$shared"/models/*.tflite; do
      n=$(basename "$m" .tflite)
      case $skip in *" $n "*) continue ;; esac
      if [ "$quick" = 1 ]; then case $big in *" $n "*) continue ;; esac; fi
      measure_one "$cm" model "$n" "$m" "$shared/golden/$n"
    done
    [ "$cm" = cortex-m4 ] || [ "$cm" = cortex-m7 ] || continue
    for n in $patched; do
      measure_patched "$cm" "$n"
    done
  done
fi

if [ "$fit" = 1 ]; then
  python3 "$root/bench/cost/fit.py" --work "$work" --table "$root/src/api/cost_table.c" \
    --doc "$root/docs/cost-model.md" --models "$models" --runtime "$runtime" $keep
fi
