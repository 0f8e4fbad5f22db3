#!/bin/sh
# run.sh SRC TINYENGINE TE_MKMODEL WORK_DIR - the python.package test:
# installs the Python package from SRC/python into a fresh venv in WORK_DIR
# with pip (offline: --no-index), runs its unit tests (python/tests, which
# compare with the TINYENGINE binary) and the example
# examples/python/rank_models.py on the repository's model and a second one.
# No python3 or no venv module (Debian: python3-venv): skipped (exit 77),
# but a failure when CI=true.
set -eu
src=$1 te=$2 mk=$3 work=$4
skip() {
  [ "${CI:-}" = true ] && { echo "ERROR: $1 (CI=true)"; exit 1; }
  echo "SKIP: $1"; exit 77
}
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
python3 -c 'import venv, ensurepip' 2>/dev/null ||
  skip "python3 cannot make a venv with pip (Debian: apt-get install python3-venv)"
rm -rf "$work"
mkdir -p "$work"
python3 -m venv "$work/venv"
py=$work/venv/bin/python
# (the library at -O0 unless $CFLAGS says otherwise: half the build time,
# and the tests compare its results with the tool's, the same at any level)
CFLAGS=${CFLAGS:--O0} "$py" -m pip install --no-index --disable-pip-version-check -q "$src/python"
cd "$work" # not the source tree: the installed package is the one imported
TINYENGINE_CLI=$te "$py" -m unittest discover -s "$src/python/tests" -v

"$mk" small_conv "$work/small_conv.tflite"
"$py" "$src/examples/python/rank_models.py" "$src/examples/models" "$work/small_conv.tflite" \
  --sram 64K --flash 512K --target cortex-m4 --patch | tee "$work/rank.txt"
grep -q '^1 .*small_conv.tflite$' "$work/rank.txt"
grep -q '^2 .*tiny_cnn.tflite$' "$work/rank.txt"
# a limit nothing fits: every model listed with its reason, exit status 1
if "$py" "$src/examples/python/rank_models.py" "$src/examples/models" --sram 100 >"$work/none.txt"; then
  echo "rank_models.py: expected exit 1 when no model fits"; exit 1
fi
grep -q 'tiny_cnn.tflite: RAM [0-9]* B > 100 B' "$work/none.txt"
echo "python package: installed, tests and example passed"
