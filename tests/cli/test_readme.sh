#!/bin/sh
# test_readme.sh TINYENGINE SRC_DIR - every command and option README.md
# documents is exercised by a test: the quick ones here, on the example
# model (the quick start line as written, each `tinyengine` command of
# "Using it" and each option of the options table, the --option=value form,
# the header snippet compiled), the others by the test named in `elsewhere`
# below.  An option README names that neither this test runs nor
# `elsewhere` lists fails the test: a new documented option needs a test.
set -u
te=$1 src=$2
case $te in /*) ;; *) te=$PWD/$te ;; esac
case $src in /*) ;; *) src=$PWD/$src ;; esac
readme=$src/README.md
work=$(mktemp -d "${TMPDIR:-/tmp}/te-readme-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
no() { if "$@" >"$work/no.log" 2>&1; then fail=$((fail+1)); echo "FAIL (succeeded): $*"; else pass=$((pass+1)); fi; }
model=$src/examples/models/tiny_cnn.tflite
input=$src/examples/models/tiny_cnn_input.bin

# every tinyengine run goes through te, which records the commands and the
# options it was given
ran=" "
te() {
  for a in "$@"; do
    case $a in
      --*=*) ran="$ran${a%%=*} --option " ;;
      -*) ran="$ran$a " ;;
    esac
  done
  ran="$ran$1 "
  "$te" "$@"
}

# ---- Quick start, as written (with this build's binary), in a scratch folder
line=$(sed -n '/^## Quick start/,/^## /p' "$readme" | grep -m1 'tinyengine run')
ok [ -n "$line" ]
cmd=$(printf '%s\n' "$line" | sed 's|.*&& \./build/tinyengine|te|')
ln -s "$src/examples" "$work/examples"
(cd "$work" && eval "$cmd") >"$work/quick.txt" 2>&1
ok [ $? -eq 0 ]
said=$(sed -n 's/.*four int8 scores: `\([-0-9 ]*\)`.*/\1/p' "$readme")
got=$(tail -n 1 "$work/quick.txt" | tr -s ' ' ' ' | sed 's/^ //; s/ $//')
ok [ -n "$said" ]
ok [ "$got" = "$said" ]
ok grep -q '^ran, wrote .* in .* s (target generic)' "$work/quick.txt"
ran="$ran run --input "   # the eval'd te call ran in a subshell

# ---- Using it: each command
ok te compile "$model" -o "$work/gen" --name net --quiet
ok [ -f "$work/gen/net.h" ] && ok [ -f "$work/gen/net.c" ]
ok [ -z "$(te compile "$model" -o "$work/gen" --name net --quiet)" ]
te compile "$model" -o "$work/gen2" --name net >"$work/summary.txt"
for w in '^wrote ' '^  RAM: ' '^  flash: ' '^  MACs: ' '^  slowest layers'; do ok grep -q "$w" "$work/summary.txt"; done
ok te compile "$model" "$model" -o "$work/lib" --name a,b --lib nets --quiet
ok [ -f "$work/lib/nets.c" ] && ok [ -f "$work/lib/a.h" ] && ok [ -f "$work/lib/b.c" ]
ok te info "$model" --json >"$work/info.json"
ok grep -q '"arena_bytes"' "$work/info.json"
ok te info "$model" >/dev/null
ok te run "$model" --input "$input" -o "$work/out" --quiet
ok te run "$model" --input "$input" -o "$work/out2" --expect "$work/out/output_0.bin" \
  --dump-layers "$work/layers" --quiet
ok [ -f "$work/layers/op006_0.bin" ]
printf 'AAAA' >"$work/wrong.bin"
no te run "$model" --input "$input" -o "$work/out3" --expect "$work/wrong.bin" --quiet
mkdir -p "$work/samples" && cp "$input" "$work/samples/input_0_0.bin"
ok te run "$model" --samples "$work/samples" -o "$work/out4" --quiet
ok cmp -s "$work/out4/output_0_0.bin" "$work/out/output_0.bin"
ok te plan "$model" --svg "$work/plan.svg" --quiet
ok grep -q '<svg' "$work/plan.svg"
ok te plan "$model" --json >"$work/plan.json"
ok grep -q arena "$work/plan.json"
mkdir "$work/models" && cp "$model" "$work/models/"
ok te profile "$model" "$work/models" --target cortex-m4 --mhz 120 --json >/dev/null
ok te bench --help >/dev/null   # bench itself runs under QEMU: qemu.tiny_cnn

# ---- the options table (and the header snippet each build compiles)
for t in generic cortex-m0plus cortex-m4 cortex-m7 x86-64-v3; do
  ok te compile "$model" -o "$work/t_$t" --name net --target "$t" --quiet
done
ok te compile "$model" -o "$work/o1" --name net --int8-io --quiet
ok te compile "$model" -o "$work/o2" --name net --patch auto --max-recompute 30 --quiet
no te compile "$model" -o "$work/o3" --name net --max-recompute 30 --quiet
ok te compile "$model" -o "$work/o4" --name net --patch off --quiet
ok te compile "$model" -o "$work/o5" --name net --patch 2:2x2 --quiet
ok grep -q 'patch' "$work/o5/net.c"
ok te compile "$model" -o "$work/o6" --name net --sram-limit 64K --quiet
no te compile "$model" -o "$work/o7" --name net --sram-limit 100 --quiet
ok grep -q 'sram' "$work/no.log"
ok te compile "$model" -o "$work/o8" --name net --flash-limit 512K --quiet
ok te compile "$model" -o "$work/o10" --name net --memory-region DTCM=2K --memory-region SRAM=64K --quiet
ok grep -q 'net_arena_DTCM NET_DTCM_ATTR' "$work/o10/net.c"
ok te compile "$model" -o "$work/o9" --name=net --target=cortex-m4 --quiet
ok cmp -s "$work/o9/net.c" "$work/t_cortex-m4/net.c"
# the README's header snippet, in a function, against each generated net.h
awk '/The header is the whole API/ { seen = 1; next }
     seen && /^```c$/ { copy = 1; next }
     copy && /^```$/ { exit }
     copy && !/#include/ { print }' "$readme" >"$work/snippet.txt"
ok [ -s "$work/snippet.txt" ]
{ echo '#include <string.h>'; echo '#include "net.h"'; echo 'static int8_t image[NET_INPUT0_BYTES];'
  echo 'int main(void)'; echo '{'; cat "$work/snippet.txt"; echo '    (void)scores;'; echo '    return 0;'; echo '}'; } >"$work/snippet.c"
for d in gen t_cortex-m4 o5; do
  ok ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -I"$work/$d" -o "$work/snippet_$d" "$work/snippet.c" "$work/$d/net.c"
  ok "$work/snippet_$d"
done

# ---- every option README names is run here or listed with the test that runs it
elsewhere="--explain:cli.patch_explain --report:cli.memory_regions --break-system-packages:python.package --sram:python.package --flash:python.package
--build:cmake.package --install:cmake.package --prefix:cmake.package"
for opt in $(grep -o -- '--[a-z][a-z0-9-]*' "$readme" | sort -u); do
  case "$ran" in *" $opt "*) pass=$((pass+1)); continue ;; esac
  by=$(printf '%s\n' $elsewhere | sed -n "s/^$opt:\(.*\)/\1/p")
  # the named test is registered (cmake.package: a loop over "package subdirectory")
  if [ -n "$by" ] && grep -rqs -e "NAME $by" -e "^#  $by " "$src/tests" "$src/CMakeLists.txt"; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "FAIL: README option $opt is exercised by no test (run it here, or list its test in 'elsewhere')"
  fi
done
for c in compile info run plan profile bench; do
  case "$ran" in *" $c "*) pass=$((pass+1)) ;; *) fail=$((fail+1)); echo "FAIL: command $c not run" ;; esac
done
ok grep -qs 'NAME qemu.tiny_cnn' "$src/tests/qemu/qemu.cmake"   # bench --input --expect under QEMU

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
