#!/bin/sh
# test_opcode_bar.sh TINYENGINE SRC_DIR - operator knowledge stays in the op
# files (issue 12): passes, planner, cost model and reports ask the op table
# (src/ops/ops.h te_op_def) instead of testing opcodes, so at most a handful
# of TE_OP_ references live outside src/ops, src/frontend and src/ir.
set -u
src=$2
limit=4
refs=$(cd "$src" && grep -rnoE "TE_OP_[A-Z0-9_]+" src --include=*.c --include=*.h |
       grep -vE "^src/(ops|frontend|ir)/")
n=$(printf '%s' "$refs" | grep -c . || true)
if [ "$n" -gt "$limit" ]; then
    echo "FAIL: $n opcode references outside src/ops, src/frontend, src/ir (at most $limit):"
    printf '%s\n' "$refs"
    exit 1
fi
echo "ok: $n opcode references outside src/ops, src/frontend, src/ir (at most $limit)"
