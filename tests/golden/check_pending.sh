#!/bin/sh
# check_pending.sh PENDING_TXT SHARED_DIR - every line of the pending list
# names a shared model that exists and the issue it waits for (#N), once.
set -u
list=$1 shared=$2
[ -d "$shared/models" ] || { [ "${CI:-}" = true ] && exit 1; exit 77; }
fail=0 n=0
names=$(grep -E '^[A-Za-z0-9_]' "$list" | awk '{print $1}')
for name in $names; do
  n=$((n+1))
  line=$(grep -E "^$name[[:space:]]" "$list")
  [ -f "$shared/models/$name.tflite" ] || [ -f "$shared/conformance/$name.tflite" ] ||
    { echo "FAIL $name: no such model in $shared"; fail=1; }
  echo "$line" | grep -qE '[[:space:]]#[0-9]+' || { echo "FAIL $name: no issue number (#N)"; fail=1; }
done
dups=$(echo "$names" | sort | uniq -d)
[ -z "$dups" ] || { echo "FAIL listed twice: $dups"; fail=1; }
echo "pending: $n models"
exit $fail
