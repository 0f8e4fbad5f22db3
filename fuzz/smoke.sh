#!/bin/sh
# fuzz/smoke.sh OUTDIR [SECONDS] - the fuzz.smoke ctest: builds the fuzz
# targets (fuzz/build.sh, into OUTDIR) and runs each for SECONDS (default
# 40) on a fresh corpus made of the seeds, with the limits of fuzz/run.sh.
# Exit 0 when none found anything; 1 on a crash, hang, leak or OOM (the
# input is saved under OUTDIR/artifacts/); 77 (ctest: skipped) when clang
# with libFuzzer is missing, unless CI=true, where that is a failure.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: smoke.sh OUTDIR [SECONDS]}
secs=${2:-40}
sh "$root/fuzz/build.sh" "$out" >"${TMPDIR:-/tmp}/te-fuzz-build.$$" 2>&1
rc=$?
if [ "$rc" != 0 ]; then
  cat "${TMPDIR:-/tmp}/te-fuzz-build.$$"; rm -f "${TMPDIR:-/tmp}/te-fuzz-build.$$"
  if [ "$rc" = 77 ] && [ "${CI:-}" != true ]; then
    echo "skipped: clang with libFuzzer is not available"; exit 77
  fi
  echo "FAIL: the fuzz targets did not build"; exit 1
fi
rm -f "${TMPDIR:-/tmp}/te-fuzz-build.$$"
work=$(mktemp -d "${TMPDIR:-/tmp}/te-fuzz-smoke-XXXXXX")
trap 'rm -rf "$work"' EXIT
FUZZ_OUT=$out FUZZ_CORPUS=$work/corpus FUZZ_SKIP_BUILD=1 sh "$root/fuzz/run.sh" "$secs"
rc=$?
if [ "$rc" != 0 ] && [ -d "$work/artifacts" ]; then
  mkdir -p "$out/artifacts"; cp -r "$work/artifacts/." "$out/artifacts/"
  cp "$work"/*.log "$out/artifacts/" 2>/dev/null
  echo "inputs and logs kept in $out/artifacts/"
fi
exit $rc
