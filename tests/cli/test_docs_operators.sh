#!/bin/sh
# test_docs_operators.sh TINYENGINE SRC_DIR TE_MKMODEL - docs/operators.md is
# what tools/te_operators writes from the op table (regenerate it with
# `build/te_operators > docs/operators.md` when an operator is added).
set -eu
src=$2
gen=$(dirname "$1")/te_operators
[ -x "$gen" ] || { echo "FAIL no $gen"; exit 1; }
if "$gen" | cmp -s - "$src/docs/operators.md"; then echo "docs/operators.md is current"; exit 0; fi
echo "FAIL docs/operators.md differs from the op table: run build/te_operators > docs/operators.md"
"$gen" | diff "$src/docs/operators.md" - | head -20
exit 1
