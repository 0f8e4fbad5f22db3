#!/bin/sh
# fuzz/gen_check.sh [MAX] - runs the generated code of the fuzz corpora's
# models under ASan + UBSan (fuzz/gen_check.c): every fuzz_compile corpus
# input, and every fuzz_graph corpus input turned into its model
# (FUZZ_GRAPH_DUMP), at most MAX of each (default all).  Slow (a C build
# per model): run it after a campaign.  Environment: FUZZ_OUT (build dir of
# fuzz/build.sh, default build-fuzz/), FUZZ_CORPUS (as fuzz/run.sh), CC.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
max=${1:-1000000}
out=${FUZZ_OUT:-$root/build-fuzz}
base=${FUZZ_CORPUS:-${TMPDIR:-/tmp}/tinyengine-fuzz/corpus}
[ -x "$out/gen_check" ] || sh "$root/fuzz/build.sh" "$out" || exit $?
work=$(mktemp -d "${TMPDIR:-/tmp}/te-gen-check-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/models" "$work/run"
n=0
for f in $(ls "$base/graph" 2>/dev/null | head -n "$max"); do
  n=$((n+1))
  FUZZ_GRAPH_DUMP="$work/models/graph_$n" "$out/fuzz_graph" "$base/graph/$f" >/dev/null 2>&1
done
for f in $(ls "$base/compile" 2>/dev/null | head -n "$max"); do
  cp "$base/compile/$f" "$work/models/compile_$f"
done
ls "$work/models" | sed "s|^|$work/models/|" | xargs "$out/gen_check" "$work/run"
