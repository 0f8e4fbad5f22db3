#!/bin/sh
# fuzz/campaign.sh SECONDS | TARGET=SECONDS... - a long fuzzing campaign,
# meant to run in the background, e.g.
#   nohup sh fuzz/campaign.sh reader=1800 compile=3600 graph=7200 >/dev/null 2>&1 &
# Builds the targets (fuzz/build.sh), then runs the fuzz targets one after
# the other (one core at a time: the machine is shared): SECONDS each, or
# the given seconds for each named target.  The corpus is kept between
# campaigns.  The numbers docs/fuzzing.md records go to $dir/summary.txt:
# executions, executions per second, coverage (cov: edges, ft: features),
# corpus size, crash / hang / leak / out-of-memory inputs found.
#
# Environment: FUZZ_CAMPAIGN_DIR (default ${TMPDIR:-/tmp}/tinyengine-fuzz-campaign:
# corpus/, artifacts/, <target>.log, summary.txt), FUZZ_OUT (build dir,
# default build-fuzz/), FUZZ_ARGS (extra libFuzzer flags).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: campaign.sh SECONDS | TARGET=SECONDS..." >&2; exit 2; }
case $1 in
  *=*) plan="$*" ;;
  *) plan="reader=$1 compile=$1 graph=$1" ;;
esac
dir=${FUZZ_CAMPAIGN_DIR:-${TMPDIR:-/tmp}/tinyengine-fuzz-campaign}
out=${FUZZ_OUT:-$root/build-fuzz}
mkdir -p "$dir"
summary=$dir/summary.txt
{
  echo "campaign started $(date -u '+%Y-%m-%d %H:%M:%S UTC'): $plan"
  echo "tree: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet 2>/dev/null || echo ' + uncommitted changes')"
} >>"$summary"
sh "$root/fuzz/build.sh" "$out" >>"$summary" 2>&1 || exit $?
status=0
for item in $plan; do
  t=${item%%=*} secs=${item#*=}
  FUZZ_OUT=$out FUZZ_CORPUS=$dir/corpus FUZZ_SKIP_BUILD=1 FUZZ_TARGETS=$t \
    sh "$root/fuzz/run.sh" "$secs" >>"$summary" 2>&1 || status=1
  a=$dir/artifacts/$t
  echo "  fuzz_$t inputs kept: $(ls "$a" 2>/dev/null | grep -c '^crash-') crashes," \
       "$(ls "$a" 2>/dev/null | grep -c '^timeout-') hangs, $(ls "$a" 2>/dev/null | grep -c '^leak-') leaks," \
       "$(ls "$a" 2>/dev/null | grep -c '^oom-') out-of-memory" >>"$summary"
done
echo "campaign finished $(date -u '+%Y-%m-%d %H:%M:%S UTC'), status $status" >>"$summary"
exit $status
