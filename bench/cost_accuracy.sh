#!/bin/sh
# cost_accuracy.sh - how far `tinyengine profile`'s estimated instructions are
# from the exact count, per shared model, on the emulated Cortex-M4 and M7.
#
# usage: sh bench/cost_accuracy.sh [TINYENGINE] [SHARED] [--quick]
#   --quick  leave out the two largest models (mobilenet_v2, mcunetv2_large)
#
# Exact: `tinyengine bench MODEL --target T --input <golden sample 0>` (the
# instructions one NAME_invoke executes under qemu-system-arm, counted by the
# project's TCG plugin).  Estimate: `tinyengine profile --json --target T`
# `estimated_instructions` (the cost table in src/api/cost_table.c, no code
# generated or run).  Error = (estimate - exact) / exact.  Prints a Markdown
# table; the row is marked when the error is outside +-10%.  Unlike
# bench/calibrate_cost.sh this fits nothing: it checks the shipped table
# against whole-model counts, the way an architecture search would use it.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
te=$root/build/tinyengine
shared=$root/../shared
quick=0
n=0
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) if [ $n = 0 ]; then te=$a; else shared=$a; fi; n=$((n+1)) ;;
  esac
done
[ -x "$te" ] || { echo "cost_accuracy.sh: no $te (build first)" >&2; exit 1; }
skip=" dtln_noise_suppression micro_speech_lstm mnist_lstm_int8 keyword_scrambled_8bit "
big=" mobilenet_v2_quantized_1x3x224x224 tinyengine_mcunetv2_large "

exact() { # model target -> instructions, or "-"
  m=$1 t=$2 g=$shared/golden/$(basename "$1" .tflite)
  TE_QEMU_TIMEOUT=1800 "$te" bench "$m" --target "$t" --input "$g/input_0_0.bin" \
    --expect "$g/output_0_0.bin" 2>/dev/null |
    sed -n 's/^instructions: *\([0-9]*\).*/\1/p' | grep . || echo -
}

estimate() { # model target -> estimated instructions
  "$te" profile --json --target "$2" "$1" |
    sed -n 's/^ *"estimated_instructions": *\([0-9]*\).*/\1/p' | head -n 1
}

err() { # estimate exact -> "+1.2%"
  if [ "$2" = - ]; then echo -; return; fi
  awk -v e="$1" -v x="$2" 'BEGIN { printf "%+.1f%%", 100 * (e - x) / x }'
}

outside() { # "+12.3%" -> 0 when within +-10%
  echo "$1" | awk '{ v = $1; sub("%", "", v); exit !(v + 0 > 10 || v + 0 < -10) }'
}

echo "| model | MACs | exact cortex-m4 | estimate | error | exact cortex-m7 | estimate | error | within +-10% |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for m in "$shared"/models/*.tflite; do
  name=$(basename "$m" .tflite)
  case $skip in *" $name "*) continue ;; esac
  if [ $quick = 1 ]; then case $big in *" $name "*) continue ;; esac; fi
  macs=$("$te" profile --json "$m" | sed -n 's/^ *"macs": *\([0-9]*\).*/\1/p' | head -n 1)
  row="| $name | $macs"
  ok=yes
  for t in cortex-m4 cortex-m7; do
    x=$(exact "$m" "$t")
    e=$(estimate "$m" "$t")
    r=$(err "$e" "$x")
    row="$row | $x | $e | $r"
    if [ "$r" = - ] || outside "$r"; then ok=NO; fi
  done
  echo "$row | $ok |"
done
