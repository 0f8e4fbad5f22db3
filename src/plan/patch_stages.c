/* patch_stages.c - the chain of patch stages of one plan (te_patch_plan.next):
 * which stage holds a schedule step, the tensors the stages store whole,
 * copying and freeing the chain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patch.h"

int te_patch_stage_last(const te_patch_plan *p) { return p->first + p->n_ops - 1; }

const te_patch_plan *te_patch_stage_of(const te_patch_plan *p, int step, int *index)
{
    int k = 0;
    for (; p; p = p->next, k++)
        if (step >= p->first && step <= te_patch_stage_last(p)) {
            if (index)
                *index = k;
            return p;
        }
    return NULL;
}

int te_patch_n_stages(const te_patch_plan *p)
{
    int n = 0;
    for (; p; p = p->next)
        n++;
    return n;
}

te_patch_plan *te_patch_plan_copy(const te_patch_plan *p)
{
    te_patch_plan *head = NULL, **tail = &head;
    for (; p; p = p->next) {
        te_patch_plan *c = malloc(sizeof *c);
        if (!c) {
            te_patch_plan_free(head);
            return NULL;
        }
        *c = *p;
        c->next = NULL;
        c->clones = NULL;
        c->steps = NULL;
        c->n_clones = c->n_steps = 0;
        *tail = c;
        tail = &c->next;
    }
    return head;
}

int te_patch_is_cut(const te_patch_plan *p, int t)
{
    int c;
    for (; p; p = p->next) {
        for (c = 0; c < p->n_cuts; c++)
            if (p->cuts[c] == t)
                return 1;
        if (t == p->out_tensor)
            return 1;
    }
    return 0;
}

void te_patch_plan_free(te_patch_plan *p)
{
    while (p) {
        te_patch_plan *next = p->next;
        free(p->clones); /* their operands: in the derived graph's blocks */
        free(p->steps);
        free(p);
        p = next;
    }
}

int64_t te_patch_extra_macs(const te_patch_plan *p)
{
    int64_t sum = 0;
    for (; p; p = p->next)
        sum += p->patched_macs - p->stage_macs;
    return sum;
}

void te_patch_describe(const te_patch_plan *p, char *buf, size_t n)
{
    size_t len;
    if (!n)
        return;
    buf[0] = 0;
    if (!p)
        return;
    if (p->lone)
        snprintf(buf, n, "%d operators from step %d in %dx%d patches%s", p->n_ops, p->first,
                 p->grid_h, p->grid_w, p->cache ? " with halo caching" : "");
    else
        snprintf(buf, n, "first %d operators in %dx%d patches%s", p->first + p->n_ops, p->grid_h,
                 p->grid_w, p->cache ? " with halo caching" : "");
    for (p = p->next; p; p = p->next) {
        len = strlen(buf);
        snprintf(buf + len, n - len, " + %d operators from step %d in %dx%d patches%s", p->n_ops,
                 p->first, p->grid_h, p->grid_w, p->cache ? " with halo caching" : "");
    }
}
