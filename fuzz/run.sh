#!/bin/sh
# fuzz/run.sh [DURATION] - runs each fuzz target for DURATION seconds
# (default 60) and prints, per target, the executions, coverage (cov: edges,
# ft: features), corpus size and whether it found a crash, a hang (timeout),
# a leak or an out-of-memory.  Exit status 1 when any target found one, 77
# when clang/libFuzzer is missing (fuzz/build.sh).
#
# Environment:
#   FUZZ_OUT      build dir of fuzz/build.sh (default build-fuzz/)
#   FUZZ_CORPUS   corpus dir, kept between runs (default
#                 ${TMPDIR:-/tmp}/tinyengine-fuzz/corpus: outside the repo)
#   FUZZ_TARGETS  targets to run (default "reader compile graph")
#   FUZZ_ARGS     extra libFuzzer flags (e.g. -jobs=1 -workers=1)
#   FUZZ_SKIP_BUILD=1  use the targets in FUZZ_OUT as they are
# Crash inputs are written to $FUZZ_CORPUS/../artifacts/<target>/.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
duration=${1:-60}
out=${FUZZ_OUT:-$root/build-fuzz}
base=${FUZZ_CORPUS:-${TMPDIR:-/tmp}/tinyengine-fuzz/corpus}
targets=${FUZZ_TARGETS:-reader compile graph}

if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  sh "$root/fuzz/build.sh" "$out" || exit $?
fi
status=0
for t in $targets; do
  corpus=$base/$t
  art=$(dirname "$base")/artifacts/$t
  log=$(dirname "$base")/$t.log
  mkdir -p "$corpus" "$art"
  # .tflite bytes get the dictionary; fuzz_graph reads short recipes
  if [ "$t" = graph ]; then extra="-max_len=512"
  else extra="-max_len=65536 -dict=$root/fuzz/tflite.dict"; fi
  # shellcheck disable=SC2086
  "$out/fuzz_$t" "$corpus" "$out/seeds/$t" $extra \
      -max_total_time="$duration" -timeout=2 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$art/" ${FUZZ_ARGS:-} >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(echo "$last" | sed -n 's/.*\(cov: [0-9]*\).*/\1/p')
  ft=$(echo "$last" | sed -n 's/.*\(ft: [0-9]*\).*/\1/p')
  corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\).*/\1/p')
  found="none"
  if grep -q 'ERROR: libFuzzer: timeout' "$log"; then found="HANG"
  elif grep -q 'ERROR: LeakSanitizer' "$log"; then found="LEAK"
  elif grep -q 'out-of-memory' "$log"; then found="OUT-OF-MEMORY"
  elif [ "$rc" != 0 ]; then found="CRASH"
  fi
  echo "fuzz_$t: ${execs:-?} executions (${speed:-?}/s), ${cov:-cov: ?}, ${ft:-ft: ?}, corpus ${corp:-?}, found: $found"
  if [ "$found" != none ]; then
    status=1
    echo "  log: $log; inputs: $art/"
    grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5 | sed 's/^/  /'
  fi
done
exit $status
