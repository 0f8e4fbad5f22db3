# patch_lib.sh - sourced by the test_patch_*.sh scripts: their shared
# checks.  Needs te (tinyengine), mk (te_mkpatchnet) and work (a scratch
# folder) set; sets fail (1 once a check fails).
fail=0
bad() { echo "FAIL $*"; fail=1; }
arena() { "$te" info "$1" --json $2 | sed -n 's/^ *"arena_bytes": \([0-9]*\),.*/\1/p'; }
flash="--flash-limit 1M" # a board's flash: the stage kinds are under test here

# patch_kind KIND BOUND STAGE...: te_mkpatchnet KIND's outputs with
# `--patch auto` and each explicit STAGE byte-identical to layer by layer,
# and its arena with `--patch auto` below layer by layer (and at most BOUND
# unless BOUND is 0; BOUND "same": at most layer by layer, for a net whose
# input tensor sets the peak).  The auto arena is the one its build
# reports (the search runs once).
patch_kind() {
  kind=$1 bound=$2
  shift 2
  m=$work/$kind.tflite in=$work/$kind.bin
  "$mk" "$kind" "$m" "$in" || { bad "$kind: te_mkpatchnet"; return; }
  "$te" run "$m" --input "$in" -o "$work/$kind.plain" >/dev/null || { bad "$kind: run"; return; }
  for p in auto "$@"; do
    if ! "$te" run "$m" --patch "$p" $flash --input "$in" -o "$work/$kind.$p" >"$work/$kind.$p.txt"; then
      bad "$kind: run --patch $p"; continue
    fi
    for o in "$work/$kind.plain"/output_*.bin; do
      cmp -s "$o" "$work/$kind.$p/$(basename "$o")" ||
        bad "$kind: --patch $p $(basename "$o") differs from layer by layer"
    done
  done
  plain=$(arena "$m" "")
  auto=$(sed -n 's/^ *RAM: .*= arena \([0-9]*\) .*/\1/p' "$work/$kind.auto.txt")
  if [ -z "$plain" ] || [ -z "$auto" ]; then bad "$kind: no arena (info --json, run's summary)"; return; fi
  if [ "$bound" = same ]; then
    [ "$auto" -le "$plain" ] || bad "$kind: --patch auto $auto above layer by layer $plain"
  else
    [ "$auto" -lt "$plain" ] || bad "$kind: --patch auto $auto not below layer by layer $plain"
    [ "$bound" = 0 ] || [ "$auto" -le "$bound" ] || bad "$kind: --patch auto $auto above $bound"
  fi
  echo "$kind: arena $plain layer by layer, $auto with --patch auto"
}
