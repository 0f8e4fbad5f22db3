/* test_op_table.c - the op table gathered from the op files
 * (cmake/gather_ops.cmake): every definition names a builtin code of the
 * schema, no two share one (te_op_lookup takes the first, so a second
 * would be silently ignored), and te_op_lookup finds each. */
#include <stdio.h>

#include "ops/ops.h"
#include "testlib.h"

int main(void)
{
    static int seen[TE_BUILTIN_COUNT];
    int i;
    CHECK(te_op_count() > 90);
    CHECK(te_op_at(-1) == NULL && te_op_at(te_op_count()) == NULL);
    for (i = 0; i < te_op_count(); i++) {
        const te_op_def *def = te_op_at(i);
        int code = def->opcode;
        CHECK(code >= 0 && code < TE_BUILTIN_COUNT);
        if (code < 0 || code >= TE_BUILTIN_COUNT)
            continue;
        if (seen[code]++)
            printf("%s is defined twice in src/ops\n", te_opcode_name(code));
        CHECK(seen[code] == 1);
        CHECK(te_op_lookup(code) == def);
    }
    CHECK(te_op_find(TE_OP_SELECT) != NULL);
    return test_summary();
}
