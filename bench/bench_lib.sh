# bench_lib.sh - shell helpers the bench scripts share (sourced, not run).

# bench_need SCRIPT TOOL...: exits 2 naming the first tool not built.
bench_need() {
  _script=$1
  shift
  for _tool in "$@"; do
    [ -x "$_tool" ] || { echo "$_script: $_tool not built (cmake --build BUILD)" >&2; exit 2; }
  done
}

# bench_workdir NAME: a fresh temporary directory in $work, removed on exit.
bench_workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/te-$1-XXXXXX")
  trap 'rm -rf "$work"' EXIT
}

# num KEY FILE: the first integer value of "KEY": in a JSON file.
num() { grep -o "\"$1\": *[0-9]*" "$2" 2>/dev/null | head -1 | sed 's/.*: *//'; }

# patch_stages INFO.json: the patch stages `info --json --patch ...` chose,
# "first K ops, HxW patches" ("K ops from step F, HxW patches" for a lone
# stage later in the network) and, with a second stage,
# " + K2 ops from step F, H2xW2 patches" (empty when there is none); a stage
# that keeps its halo rows in line buffers ("halo_cache": true) says so.
patch_stages() {
  {
  sed -n -e 's/^ *"patch": *{"ops": *\([0-9]*\), *"grid": *\[\([0-9]*\), *\([0-9]*\)\].*"from_step": *\([0-9]*\).*/\1 ops from step \4, \2x\3 patches/p' \
    -e 's/^ *"patch": *{"ops": *\([0-9]*\), *"grid": *\[\([0-9]*\), *\([0-9]*\)\].*/first \1 ops, \2x\3 patches/p' "$1" |
    sed "$(grep -q '^ *"patch": .*"halo_cache": *true' "$1" && echo 's/$/ with halo caching/')"
  sed -n 's/^ *"patch_stage2": *{"first": *\([0-9]*\), *"ops": *\([0-9]*\), *"grid": *\[\([0-9]*\), *\([0-9]*\)\].*/ + \2 ops from step \1, \3x\4 patches/p' "$1" |
    sed "$(grep -q '^ *"patch_stage2": .*"halo_cache": *true' "$1" && echo 's/$/ with halo caching/')"
  } | sed 's/ 1 ops/ 1 op/'
}
