#!/bin/sh
# test_memory_regions.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - two or more RAM
# regions (--memory-region NAME=BYTES, issue 16): outputs byte-identical to
# the one-arena build (also with a patch stage), one array per region with
# its own NAME_<REGION>_ATTR (on Cortex-M4, arm-none-eabi-gcc puts the
# array in the section the macro names), the regions' bytes in info, info
# --json (and the arena as one array), the compile summary and plan --svg,
# compile --report equal to info --json, and one line (exit 1) for a region
# too small, bad syntax, a name given twice, a library, and a --report that
# cannot be written or is given several models.
#  cli.memory_regions is the test of README's --report (cli.readme looks it up)
set -u
export TE_CFLAGS="${TE_CFLAGS:--O0}" # quickest to build; optimised builds run under QEMU
te=$1 src=$2 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-regions-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
model=$src/examples/models/tiny_cnn.tflite
input=$src/examples/models/tiny_cnn_input.bin
two="--memory-region DTCM=512 --memory-region SRAM=64K"
json() { "$te" info "$1" --json $2; }
num() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" | head -n 1; }

# the same outputs, the same total as one arena or more
"$te" run "$model" --input "$input" -o "$work/plain" >/dev/null || bad "run"
# shellcheck disable=SC2086
"$te" run "$model" $two --input "$input" -o "$work/two" >/dev/null || bad "run $two"
cmp -s "$work/plain/output_0.bin" "$work/two/output_0.bin" || bad "outputs differ with $two"
plain=$(json "$model" "" | num arena_bytes)
json "$model" "" | grep -q memory_regions && bad "info --json names regions without the option"
json "$model" "$two" > "$work/two.json" || bad "info --json $two"
grep -q '"memory_regions": \[{"name": "DTCM", "bytes": [0-9]*, "limit": 512' "$work/two.json" ||
  bad "info --json: no DTCM region: $(grep memory_regions "$work/two.json")"
dtcm=$(sed -n 's/.*"name": "DTCM", "bytes": \([0-9]*\).*/\1/p' "$work/two.json")
sram=$(sed -n 's/.*"name": "SRAM", "bytes": \([0-9]*\).*/\1/p' "$work/two.json")
total=$(num arena_bytes < "$work/two.json")
[ -n "$dtcm" ] && [ "$dtcm" -gt 0 ] && [ "$dtcm" -le 512 ] || bad "DTCM holds '$dtcm' bytes"
[ "$((dtcm + sram))" = "$total" ] || bad "regions $dtcm + $sram != arena_bytes $total"
echo "tiny_cnn: one arena $plain bytes; DTCM $dtcm + SRAM $sram"
"$te" info "$model" $two | grep -q "^memory region:   DTCM [0-9]* of 512 bytes" || bad "info: no region line"
"$te" compile "$model" $two -o "$work/gen" --name net > "$work/summary" || bad "compile $two"
grep -q "^  region: SRAM [0-9]* of 65536 bytes" "$work/summary" || bad "summary: $(cat "$work/summary")"
"$te" plan "$model" $two --svg "$work/plan.svg" >/dev/null || bad "plan --svg"
grep -q "region DTCM: " "$work/plan.svg" || bad "plan --svg draws no region"
"$te" profile "$model" $two >/dev/null || bad "profile $two"

# generated code: two arrays, two placement macros; without the option none
grep -q "^#define NET_DTCM_ATTR$" "$work/gen/net.h" && grep -q "^#define NET_SRAM_ATTR$" "$work/gen/net.h" ||
  bad "net.h: no NET_DTCM_ATTR / NET_SRAM_ATTR"
grep -q "^#define NET_DTCM_BYTES $dtcm$" "$work/gen/net.h" || bad "net.h: NET_DTCM_BYTES"
grep -q "} net_arena_DTCM NET_DTCM_ATTR;" "$work/gen/net.c" || bad "net.c: no DTCM array"
grep -q "net_arena_DTCM.bytes + " "$work/gen/net.c" || bad "net.c: nothing in DTCM"
grep -q "net_arena\.bytes" "$work/gen/net.c" && bad "net.c: the one arena still used"
"$te" compile "$model" -o "$work/one" --name net --quiet || bad "compile"
grep -q "DTCM" "$work/one/net.h" "$work/one/net.c" && bad "a region without --memory-region"

# Cortex-M4: the region's array lands in the section its macro names
if command -v arm-none-eabi-gcc >/dev/null 2>&1 && command -v arm-none-eabi-objdump >/dev/null 2>&1; then
  "$te" compile "$model" --target cortex-m4 $two -o "$work/m4" --name net --quiet || bad "compile m4"
  arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -std=c99 \
    -Wall -Wextra -Werror -DNET_DTCM_ATTR='__attribute__((section(".dtcm")))' \
    -c "$work/m4/net.c" -o "$work/m4/net.o" || bad "arm-none-eabi-gcc"
  arm-none-eabi-objdump -t "$work/m4/net.o" > "$work/m4/syms"
  grep -q "\.dtcm.*net_arena_DTCM$" "$work/m4/syms" || bad "net_arena_DTCM not in .dtcm: $(grep net_arena "$work/m4/syms")"
  grep -q "\.bss.*net_arena_SRAM$" "$work/m4/syms" || bad "net_arena_SRAM not in .bss"
else
  echo "no arm-none-eabi-gcc: section placement not checked"
fi

# the arena as one array, beside the regions' total: the plain arena
[ "$(num one_region_arena_bytes < "$work/two.json")" = "$plain" ] ||
  bad "one_region_arena_bytes $(num one_region_arena_bytes < "$work/two.json") != one arena's $plain"
# compile --report writes what info --json prints for the same options
# shellcheck disable=SC2086
"$te" compile "$model" $two -o "$work/rep" --report "$work/rep/report.json" --quiet || bad "compile --report"
cmp -s "$work/two.json" "$work/rep/report.json" || bad "compile --report differs from info --json"

# a patch stage: its working memory in one region, outputs unchanged
if "$mk" fire "$work/fire.tflite" "$work/fire.bin"; then
  "$te" run "$work/fire.tflite" --input "$work/fire.bin" -o "$work/fire.plain" >/dev/null || bad "fire run"
  "$te" run "$work/fire.tflite" --patch auto --memory-region A=4K --memory-region B=8K \
    --memory-region C=1M --input "$work/fire.bin" -o "$work/fire.three" >/dev/null || bad "fire 3 regions"
  cmp -s "$work/fire.plain/output_0.bin" "$work/fire.three/output_0.bin" || bad "fire: outputs differ"
else
  bad "te_mkpatchnet fire"
fi

# refusals: one line, exit 1
refuse() {
  want=$1
  shift
  if "$te" "$@" > "$work/err" 2>&1; then bad "accepted: $*"; return; fi
  [ "$(wc -l < "$work/err")" -eq 1 ] && grep -q "$want" "$work/err" || bad "$*: $(cat "$work/err")"
}
refuse "does not fit --memory-region SRAM=256: region SRAM needs [0-9]* bytes.*SRAM=[0-9]* would fit" \
  info "$model" --memory-region DTCM=256 --memory-region SRAM=256
need=$(sed -n 's/.*SRAM=\([0-9]*\) would fit.*/\1/p' "$work/err")
"$te" info "$model" --memory-region DTCM=256 --memory-region "SRAM=$need" >/dev/null ||
  bad "SRAM=$need, the size the error named, does not fit"
refuse "NAME=BYTES" info "$model" --memory-region DTCM
refuse "NAME=BYTES" info "$model" --memory-region DTCM=lots
refuse "NAME=BYTES" compile "$model" -o "$work/x" --memory-region
refuse "given twice" info "$model" --memory-region DTCM=1K --memory-region dtcm=2K
refuse "not a C identifier" info "$model" --memory-region 1st=1K
refuse "taken by the generated code" info "$model" --memory-region WEIGHTS=1K
refuse "library" compile "$model" "$model" --name a,b -o "$work/lib" $two
refuse "cannot write --report" compile "$model" -o "$work/rep2" --report "$work/no/such/dir/r.json"
refuse "report takes one model" compile "$model" "$model" --name a,b -o "$work/lib" --report "$work/r.json"
exit $fail
