#!/bin/sh
# test_example_makefile.sh TINYENGINE SRC_DIR - examples/makefile (the
# plain Makefile project, no CMake) in a temporary copy: `make run` compiles
# the shipped model with the tool, builds the program and prints the same
# int8 scores `tinyengine run` writes.  Skips (77) without make.
set -u
te=$1 src=$2
case $te in /*) ;; *) te=$PWD/$te ;; esac
case $src in /*) ;; *) src=$PWD/$src ;; esac
command -v make >/dev/null 2>&1 || { echo "SKIP: make missing"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/te-example-make-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -R "$src/examples/makefile" "$work/example" || exit 1
make -C "$work/example" run TE_ROOT="$src" TINYENGINE="$te" > "$work/out.txt" 2>&1 ||
  { cat "$work/out.txt"; echo "FAIL: make run"; exit 1; }
"$te" run "$src/examples/models/tiny_cnn.tflite" --input "$src/examples/models/tiny_cnn_input.bin" \
  -o "$work/run" --quiet || { echo "FAIL: tinyengine run"; exit 1; }
want=$(od -An -v -td1 "$work/run/output_0.bin" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
got=$(sed -n 's/^score [0-9]*: *\(-*[0-9]*\) =.*/\1/p' "$work/out.txt" | tr '\n' ' ' | sed 's/ $//')
[ -n "$got" ] && [ "$got" = "$want" ] || { cat "$work/out.txt"; echo "FAIL: scores '$got', tinyengine run gives '$want'"; exit 1; }
grep -q "^best class: " "$work/out.txt" || { echo "FAIL: no best class line"; exit 1; }
[ -f "$work/example/gen/net.h" ] && [ -x "$work/example/classify" ] || { echo "FAIL: files"; exit 1; }
make -C "$work/example" clean >/dev/null 2>&1 && [ ! -e "$work/example/gen" ] || { echo "FAIL: make clean"; exit 1; }
# nothing written into the source tree
[ ! -e "$src/examples/makefile/gen" ] || { echo "FAIL: gen/ in the source tree"; exit 1; }
echo "ok: make run printed $got"
