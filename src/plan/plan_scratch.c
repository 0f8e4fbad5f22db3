/* plan_scratch.c - working arrays kept from one plan to the next
 * (te_plan_scratch): the patch search builds and places tens of thousands
 * of trial plans, and allocating (and zeroing) each one's arrays anew cost
 * more than planning them, in sanitized builds above all.  Each slot holds
 * one block that only grows; its contents are left as the last user left
 * them. */
#include <stdlib.h>

#include "plan.h"

void *te_plan_scratch_get(te_plan_scratch *s, int slot, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    if (bytes > s->cap[slot]) {
        size_t cap = s->cap[slot] * 2 > bytes ? s->cap[slot] * 2 : bytes;
        free(s->block[slot]);
        s->block[slot] = malloc(cap);
        s->cap[slot] = s->block[slot] ? cap : 0;
        if (!s->block[slot])
            return NULL;
    }
    return s->block[slot];
}

void te_plan_scratch_free(te_plan_scratch *s)
{
    int i;
    if (!s)
        return;
    for (i = 0; i < TE_SCRATCH_SLOTS; i++) {
        free(s->block[i]);
        s->block[i] = NULL;
        s->cap[i] = 0;
    }
}
