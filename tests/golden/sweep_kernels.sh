#!/bin/sh
# sweep_kernels.sh TINYENGINE SHARED_DIR TARGET PENDING_TXT SUBSET_MODEL... -
# the x86-64-v3 golden sweep (tests/golden/golden.cmake) and the Cortex-M4
# -O0 stack check (tests/qemu/qemu.cmake) run a representative subset of the
# real models: this keeps a subset representative.  Every
# kernel any shared real model (but the pending ones) runs on TARGET, as
# `tinyengine profile --json` names it, must be run by a model of the subset;
# a model that brings a new kernel fails here until it joins the subset.
# Skipped (77) without ../shared, a failure then when CI=true.
set -u
te=$1 shared=$2 target=$3 pending=$4
shift 4
if [ ! -d "$shared/models" ]; then
  [ "${CI:-}" = true ] && { echo "ERROR: no $shared/models (CI=true)"; exit 1; }
  echo "skip: no $shared/models"; exit 77
fi
kernels_of() { # MODEL_NAME -> its kernels, one per line
  "$te" profile "$shared/models/$1.tflite" --target "$target" --json |
    sed -n 's/.*"kernel": "\([A-Za-z0-9_]*\)".*/\1/p' | sort -u
}
work=$(mktemp -d "${TMPDIR:-/tmp}/te-sweep-XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/subset"
for m in "$@"; do
  [ -f "$shared/models/$m.tflite" ] || { echo "FAIL: subset model $m is not in $shared/models"; exit 1; }
  kernels_of "$m" >>"$work/subset" || { echo "FAIL: profile of $m"; exit 1; }
done
fail=0 n=0
for f in "$shared"/models/*.tflite; do
  m=$(basename "$f" .tflite)
  grep -qE "^$m([[:space:]]|\$)" "$pending" 2>/dev/null && continue
  n=$((n + 1))
  for k in $(kernels_of "$m"); do
    grep -qx "$k" "$work/subset" && continue
    echo "FAIL: $m runs $k on $target, which no model of the subset runs: add $m to it"
    fail=1
  done
done
[ "$fail" = 0 ] && echo "sweep_kernels $target: the kernels of $n real models all run by the $# of the subset"
exit $fail
