#!/bin/sh
# check_model.sh TINYENGINE MODEL.tflite GOLDEN_DIR SRC_DIR
# Byte-exact check of one model against TFLite Micro's goldens: the code
# `tinyengine compile` writes, built with tests/golden/api_harness.c
# (-std=c99 -Wall -Wextra -Werror -pedantic, against the generated API),
# runs every sample: every output equals its golden file, and every layer
# of the first sample (the harness dumps them through the layer hook) its
# golden layer file.  `tinyengine run` builds exactly what `compile` writes;
# its own options (--samples, --dump-layers) are tested in tests/cli.
#  TE_FLAGS (environment) are passed to every tinyengine command, e.g.
#  TE_FLAGS="--patch auto" checks patch-based execution.
#  TE_HARNESS_CFLAGS (environment, default empty) is appended to the API
#  harness's compile line, e.g. "-fsanitize=address,undefined
#  -fno-sanitize-recover=all" runs the generated code under the sanitizers
#  (tests/run_all.sh sets that).
#  TE_REPORT_DIR (environment, optional): the compile also writes its
#  `info --json` report there, as MODEL_NAME.json (compile --report).
#  CC (environment, default cc): the compiler of the harness build.
#  TE_HARNESS_OPT (environment, default -O2) is the harness's optimisation
#  level; "auto" (tests/run_all.sh, with the sanitizers) builds at -O0 a
#  model whose samples run under TE_HARNESS_O1_MACS MACs in all (default
#  200M), at -O1 a larger one: under the sanitizers gcc takes 2-3x longer
#  at -O1 than at -O0 on the specialised kernels, which only pays off
#  where the run is long (mobilenet_v2 224: 4 s more to build at -O1, 11 s
#  less to run).  Optimised builds run byte for byte under QEMU (-O2, -Os).
# Memory: the arena the header declares is at most TFLite Micro's; without
# TE_FLAGS `info --json` must report the same (with them `info` would run
# the --patch search a second time: tests/cli/test_patch_search.sh compares
# `info` and the generated header under --patch auto).
set -eu
te=$1 model=$2 gold=$3 src=$4
flags=${TE_FLAGS:-}
cc=${CC:-cc}
harness_cflags=${TE_HARNESS_CFLAGS:-}
harness_opt=${TE_HARNESS_OPT:--O2}
work=$(mktemp -d "${TMPDIR:-/tmp}/te-golden-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0

inputs_of() { # sample k -> its input files, in order
  i=0; out=""
  while [ -f "$gold/input_$1_$i.bin" ]; do out="$out $gold/input_$1_$i.bin"; i=$((i+1)); done
  echo "$out"
}
outputs_of() { i=0; out=""; while [ -f "$gold/output_$1_$i.bin" ]; do out="$out $gold/output_$1_$i.bin"; i=$((i+1)); done; echo "$out"; }

samples=$(ls "$gold" | sed -n 's/^input_\([0-9]*\)_0\.bin$/\1/p' | sort -n)
[ -n "$samples" ] || { echo "no samples in $gold"; exit 1; }

first=$(echo "$samples" | head -1)
# Every layer dumped ($work/layers) equals its golden file.
compare_layers() {
  n=0; bad=0
  for f in "$work"/layers/op*.bin; do
    [ -f "$f" ] || continue
    b=$(basename "$f"); n=$((n+1))
    if [ ! -f "$gold/layers/$b" ]; then echo "FAIL layer $b has no golden file"; bad=$((bad+1));
    elif ! cmp -s "$f" "$gold/layers/$b"; then
      [ $bad -lt 5 ] && echo "FAIL layer $b differs: $(cmp "$f" "$gold/layers/$b" 2>&1 | head -1)"; bad=$((bad+1))
    fi
  done
  echo "layers: $n compared, $bad differ"
  [ "$bad" = 0 ] || fail=1
  [ "$n" -gt 0 ] || { echo "FAIL no layers dumped"; fail=1; }
}

report=""
if [ -n "${TE_REPORT_DIR:-}" ]; then
  mkdir -p "$TE_REPORT_DIR"
  report=$TE_REPORT_DIR/$(basename "$model" .tflite).json
  rm -f "$report"
fi
# shellcheck disable=SC2086
"$te" compile "$model" $flags -o "$work/gen" --name te_model ${report:+--report "$report"} >"$work/summary"
cat "$work/summary"
if [ "$harness_opt" = auto ]; then
  macs=$(sed -n 's/^ *MACs: *\([0-9]*\).*/\1/p' "$work/summary")
  if [ "$(( ${macs:-0} * $(echo $samples | wc -w) ))" -lt "${TE_HARNESS_O1_MACS:-200000000}" ]; then
    harness_opt=-O0
  else harness_opt=-O1; fi
fi
dump=""
[ -d "$gold/layers" ] && dump="-DTE_HARNESS_LAYERS -DTE_MODEL_LAYER_HOOK=te_harness_layer"
# shellcheck disable=SC2086
if ! $cc -std=c99 "$harness_opt" -Wall -Wextra -Werror -pedantic -I"$work/gen" -DTE_MODEL=te_model \
     '-DTE_MODEL_HEADER="te_model.h"' $dump $harness_cflags -o "$work/api" "$work"/gen/*.c \
     "$src/tests/golden/api_harness.c"; then
  echo "FAIL API harness build"; exit 1
fi
for k in $samples; do
  ldir=""
  if [ -n "$dump" ] && [ "$k" = "$first" ]; then ldir=$work/layers; mkdir -p "$ldir"; fi
  # shellcheck disable=SC2046
  if ! TE_HARNESS_LAYER_DIR=$ldir "$work/api" $(inputs_of "$k") $(outputs_of "$k"); then
    echo "FAIL sample $k through the API harness"; fail=1
  fi
done
[ -n "$dump" ] && compare_layers
hdr=$(sed -n 's/^#define TE_MODEL_ARENA_BYTES \([0-9]*\)$/\1/p' "$work/gen/te_model.h")
ours=$hdr
if [ -z "$flags" ]; then
  ours=$("$te" info "$model" --json | sed -n 's/^ *"arena_bytes": \([0-9]*\).*/\1/p')
fi
tflm=$(cat "$gold/meta.json" "$gold/run_0.json" 2>/dev/null | tr -d ' \n' | grep -o '"arena_used_bytes":[0-9]*' | head -1 | cut -d: -f2)
if [ -z "$ours" ] || [ "$ours" != "$hdr" ]; then
  echo "FAIL info --json arena_bytes ($ours) != generated ARENA_BYTES ($hdr)"; fail=1
fi
if [ -n "$tflm" ] && [ -n "$ours" ] && [ "$ours" -gt "$tflm" ]; then
  echo "FAIL arena $ours bytes > TFLite Micro's $tflm"; fail=1
fi
echo "arena: ours ${ours:-?} bytes, TFLite Micro ${tflm:-?} bytes"
[ "$fail" = 0 ] && echo "PASS $(basename "$model") ($(echo $samples | wc -w) samples)"
exit $fail
