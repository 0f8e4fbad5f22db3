/* test_op_table.c - the op table gathered from the op files
 * (cmake/gather_ops.cmake): every definition names a builtin code of the
 * schema or a custom operator's (TE_CUSTOM), no two share one (te_op_lookup takes the first, so a second
 * would be silently ignored), and te_op_lookup finds each. */
#include <stdio.h>

#include "ops/ops.h"
#include "testlib.h"

int main(void)
{
    static int seen[TE_BUILTIN_COUNT + TE_CUSTOM_COUNT];
    int i;
    CHECK(te_op_count() > 90);
    CHECK(te_op_at(-1) == NULL && te_op_at(te_op_count()) == NULL);
    for (i = 0; i < te_op_count(); i++) {
        const te_op_def *def = te_op_at(i);
        int code = def->opcode, slot;
        int custom = code >= TE_CUSTOM_BASE && code < TE_CUSTOM_BASE + TE_CUSTOM_COUNT;
        CHECK((code >= 0 && code < TE_BUILTIN_COUNT) || custom);
        if (!custom && (code < 0 || code >= TE_BUILTIN_COUNT))
            continue;
        slot = custom ? TE_BUILTIN_COUNT + code - TE_CUSTOM_BASE : code;
        if (seen[slot]++)
            printf("%s is defined twice in src/ops\n", te_opcode_name(code));
        CHECK(seen[slot] == 1);
        CHECK(te_op_lookup(code) == def);
    }
    CHECK(te_op_find(TE_OP_SELECT) != NULL);
    /* every custom operator has its name both ways */
    for (i = 0; i < TE_CUSTOM_COUNT; i++)
        CHECK(te_custom_opcode(te_opcode_name(TE_CUSTOM_BASE + i)) == TE_CUSTOM_BASE + i);
    CHECK(te_custom_opcode("ethos-u") == -1 && te_custom_opcode(NULL) == -1);
    return test_summary();
}
