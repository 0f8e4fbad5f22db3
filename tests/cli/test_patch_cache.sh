#!/bin/sh
# test_patch_cache.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - halo
# caching (--patch K:HxW:cache): rows of an intermediate region the patch of
# the cell above computed are kept in a line buffer and moved, not
# recomputed.  On generated nets (te_mkpatchnet kinds: windows with stride
# and padding, pools, residual adds, pads, a bilinear resize, clones in
# place) the outputs stay byte-identical to layer by layer, on the portable
# kernels (and the Cortex-M4 DSP ones on three of them), and the extra MACs
# are below the same grid's without caching; info --json says the stage
# caches.  A stage with nothing to cache fails with one line; the setting
# round-trips through the provenance.
set -u
export TE_CFLAGS="${TE_CFLAGS:--O0}" # quickest to build; optimised builds run under QEMU
te=$1 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchcache-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
# extra MACs and halo_cache of info --json's first stage
stage() { "$te" info "$1" --json --patch "$2" |
  sed -n 's/^ *"patch": {.*"extra_macs": \([0-9]*\),.*"halo_cache": \([a-z]*\)}.*/\1 \2/p'; }

for spec in uint8_head:5:10x4 fire:3:8x3 residual:5:10x5 avgpool:3:7x4 neck:8:6x4 \
            neck_bilinear:9:7x4 pad_conv:9:10x4 inplace_chain:9:8x5; do
  kind=${spec%%:*} p=${spec#*:}
  m=$work/$kind.tflite in=$work/$kind.bin
  "$mk" "$kind" "$m" "$in" >/dev/null || { bad "te_mkpatchnet $kind"; continue; }
  plain=$(stage "$m" "$p") cached=$(stage "$m" "$p:cache")
  set -- $plain $cached
  if [ $# != 4 ]; then bad "$kind: no stage for --patch $p / $p:cache ('$plain' '$cached')"; continue; fi
  [ "$2" = false ] && [ "$4" = true ] || bad "$kind: halo_cache '$2' / '$4', not false / true"
  [ "$3" -lt "$1" ] || bad "$kind: --patch $p:cache extra MACs $3, not below $1 without caching"
  echo "$kind --patch $p: extra MACs $1, with halo caching $3"
  targets=portable
  case $kind in residual | pad_conv | inplace_chain) targets="portable cortex-m4" ;; esac
  for t in $targets; do
    target=""
    [ "$t" = portable ] || target="--target $t"
    rm -rf "$work/plain" "$work/c"
    "$te" run "$m" $target --input "$in" -o "$work/plain" >/dev/null || { bad "run $kind $target"; continue; }
    "$te" run "$m" $target --patch "$p:cache" --input "$in" -o "$work/c" >/dev/null ||
      { bad "run $kind $target --patch $p:cache"; continue; }
    for o in "$work/plain"/output_*.bin; do
      cmp -s "$o" "$work/c/$(basename "$o")" ||
        bad "$kind $target --patch $p:cache: $(basename "$o") differs from layer by layer"
    done
  done
done

# the summary and the provenance name it
m=$work/residual.tflite
"$te" info "$m" --patch 5:10x5:cache | grep -q "^patch stage: .*10x5 patches with halo caching" ||
  bad "info names no halo caching"
"$te" compile "$m" --patch 5:10x5:cache -o "$work/gen" >/dev/null 2>&1 &&
  grep -rq -- "--patch 5:10x5:cache" "$work/gen" || bad "the generated code's provenance has no :cache"

# one line when nothing can be cached (one row of cells; a one-operator stage)
for p in 5:1x5:cache; do
  msg=$("$te" info "$m" --patch "$p" 2>&1 >/dev/null)
  case $msg in
    *"cannot cache halos (one row of cells)"*) ;;
    *) bad "--patch $p: '$msg'" ;;
  esac
done
"$mk" float_head "$work/f.tflite" "$work/f.bin" >/dev/null
msg=$("$te" info "$work/f.tflite" --patch 1:27x2:cache 2>&1 >/dev/null)
case $msg in
  *"cannot cache halos (no intermediate tensor qualifies)"*) ;;
  *) bad "float_head --patch 1:27x2:cache: '$msg'" ;;
esac
msg=$("$te" info "$m" --patch 5:10x5:cach 2>&1 >/dev/null)
case $msg in
  *"--patch takes off, auto, K:HxW"*) ;;
  *) bad "--patch 5:10x5:cach: '$msg'" ;;
esac
[ "$fail" = 0 ] && echo "PASS halo caching"
exit $fail
