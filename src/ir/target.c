/* target.c - target names and features (see target.h). */
#include "target.h"

#include <string.h>

static const char *const names[] = {"generic", "cortex-m0plus", "cortex-m4", "cortex-m7", "x86-64-v3"};

const char *te_target_name(int target)
{
    return target >= 0 && target < (int)(sizeof names / sizeof names[0]) ? names[target] : "?";
}

int te_target_parse(const char *s)
{
    int i;
    for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

int te_target_has_dsp(int target)
{
    return target == TE_TARGET_CORTEX_M4 || target == TE_TARGET_CORTEX_M7;
}

int te_target_has_avx2(int target)
{
    return target == TE_TARGET_X86_64_V3;
}
