#!/bin/sh
# compare_builds.sh - checks that two builds of the compiler plan and generate
# the same: `info --json`, `plan --json`, `profile --json`, `plan --svg` and
# the generated NAME.c / NAME.h of every model in SHARED/models and
# SHARED/conformance, plain, with --patch auto and per target.  For changes
# that must not move a byte (refactorings of the planner or the lowering).
#
#   sh tools/compare_builds.sh BASE/tinyengine NEW/tinyengine [SHARED]
#
# SHARED defaults to ../shared.  Prints each difference; exits 1 if any.
set -u
B=$1
N=$2
S=${3:-../shared}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
fail=0

same() { # label, then the two commands' outputs in $T/b and $T/n, rc in rb/rn
    n=$((n + 1))
    if [ "$rb" != "$rn" ] || ! cmp -s "$T/b" "$T/n"; then
        echo "DIFF: $1"
        fail=$((fail + 1))
    fi
}

for m in "$S"/models/*.tflite "$S"/conformance/*.tflite; do
    for opt in "" "--patch auto" "--target cortex-m4" "--target x86-64-v3" \
        "--target cortex-m4 --patch auto"; do
        for cmd in "info --json" "plan --json" "profile --json"; do
            $B $cmd "$m" $opt >"$T/b" 2>&1; rb=$?
            $N $cmd "$m" $opt >"$T/n" 2>&1; rn=$?
            same "$cmd $m $opt"
        done
        $B plan "$m" --svg "$T/b" $opt >/dev/null 2>&1; rb=$?
        $N plan "$m" --svg "$T/n" $opt >/dev/null 2>&1; rn=$?
        same "plan --svg $m $opt"
        rm -rf "$T/cb" "$T/cn"
        $B compile "$m" -o "$T/cb" --name net $opt >/dev/null 2>&1; rb=$?
        $N compile "$m" -o "$T/cn" --name net $opt >/dev/null 2>&1; rn=$?
        cat "$T"/cb/net.* >"$T/b" 2>/dev/null
        cat "$T"/cn/net.* >"$T/n" 2>/dev/null
        same "compile $m $opt"
    done
done
echo "compared $n, differing $fail"
[ "$fail" = 0 ]
