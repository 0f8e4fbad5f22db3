#!/bin/sh
# configure_errors.sh SRC WORK - the cmake.configure_errors test: a project
# that add_subdirectory()s TinyEngine and asks tinyengine_add_model() for a
# model file that does not exist, or an unknown TARGET, must fail when CMake
# configures (not later, at build time), with a message naming the problem.
set -eu
src=$1 work=$2
rm -rf "$work"
check() { # NAME MODEL_LINE EXPECTED_MESSAGE
  mkdir -p "$work/$1"
  printf '%s\n' "cmake_minimum_required(VERSION 3.16)" "project(te_bad C)" \
    "add_subdirectory(\${TINYENGINE_SOURCE_DIR} tinyengine)" \
    "add_executable(app main.c)" "$2" >"$work/$1/CMakeLists.txt"
  echo 'int main(void) { return 0; }' >"$work/$1/main.c"
  : >"$work/$1/present.tflite"
  if cmake -S "$work/$1" -B "$work/$1/build" -DTINYENGINE_SOURCE_DIR="$src" \
       >"$work/$1/log.txt" 2>&1; then
    echo "$1: configured, expected an error"; cat "$work/$1/log.txt"; exit 1
  fi
  # CMake wraps messages: one line, single spaces
  tr -s ' \n' '  ' <"$work/$1/log.txt" >"$work/$1/flat.txt"
  grep -q "$3" "$work/$1/flat.txt" || { echo "$1: no '$3' in:"; cat "$work/$1/log.txt"; exit 1; }
  echo "$1: configure-time error: $(grep -o "$3" "$work/$1/flat.txt" | head -1)"
}
check missing_model "tinyengine_add_model(app no_such_model.tflite)" \
  "tinyengine_add_model: model file '.*no_such_model.tflite' does not exist"
check unknown_target "tinyengine_add_model(app present.tflite TARGET cortex-m3)" \
  "tinyengine_add_model: unknown TARGET 'cortex-m3'"
check bad_name "tinyengine_add_model(app present.tflite NAME 3net)" \
  "NAME '3net' is not a C identifier"
