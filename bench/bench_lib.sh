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
