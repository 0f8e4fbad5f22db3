/* patch_search.c - `--patch auto`: tries every stage length and grid the
 * model allows, estimates the whole arena each would need (planning the
 * graph as if the stage ran patch by patch) and keeps the smallest whose
 * recomputed MACs stay within the budget; and parses the --patch setting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patch.h"
#include "patch_walk.h"
#include "plan.h"

#define TE_PATCH_MAX_GRID 8

/* Arena of the whole model if p's stage ran patch by patch, with the
 * storage decisions of low (the stage's outputs on their own).  The graph
 * is only read. */
static size_t estimate_arena(const te_graph *g, const te_lowered *low, const te_patch_plan *p)
{
    te_patch_walk *w = te_patch_walk_new(g, p->n_ops, p->grid_h, p->grid_w);
    te_storage *st = low && low->opts.st ? te_storage_copy(low->opts.st) : te_storage_new(g);
    te_lowered staged;
    te_diag d = {{0}, 0};
    size_t arena = (size_t)-1;
    te_plan *plan;
    int i;
    memset(&staged, 0, sizeof staged);
    if (w && st) {
        for (i = 0; i < w->n_ops; i++)
            te_storage_unlink(st, g->ops[w->ops[i]].out[0]);
        if (low)
            staged = *low;
        staged.opts.st = st;
        plan = te_plan_build_trial(g, &staged, p, &d);
        if (plan)
            arena = plan->arena_bytes;
        te_plan_free(plan);
    }
    te_storage_free(st);
    te_patch_walk_free(w);
    return arena;
}

/* 1 if (arena, extra) is a better choice than the best so far. */
static int better(size_t arena, int64_t extra, const te_patch_plan *best, size_t best_arena,
                  size_t fit)
{
    int64_t best_extra = best ? best->patched_macs - best->stage_macs : 0;
    if (arena == (size_t)-1)
        return 0;
    if (fit && arena <= fit) /* fits the budget: the fastest one */
        return !best || best_arena > fit || extra < best_extra ||
               (extra == best_extra && arena < best_arena);
    if (fit && best && best_arena <= fit)
        return 0;
    return arena < best_arena || (best && arena == best_arena && extra < best_extra);
}

te_patch_plan *te_patch_search(te_graph *g, const te_lowered *low, double max_recompute,
                               int64_t model_macs, size_t baseline, size_t fit, size_t *arena_out)
{
    te_patch_plan *best = NULL;
    size_t best_arena = baseline;
    int n_live = 0, k, n, i;
    for (i = 0; i < g->n_ops; i++)
        n_live += !g->ops[i].dead;
    for (k = 1; k < n_live; k++) {
        for (n = 2; n <= TE_PATCH_MAX_GRID; n++) {
            te_patch_plan *p = te_patch_analyse(g, k, n, n, NULL);
            size_t arena;
            int64_t extra;
            if (!p)
                continue;
            extra = p->patched_macs - p->stage_macs;
            arena = extra <= (int64_t)(max_recompute * (double)model_macs) ? estimate_arena(g, low, p)
                                                                          : (size_t)-1;
            if (arena < baseline && better(arena, extra, best, best_arena, fit)) {
                te_patch_plan_free(best);
                best = p;
                best_arena = arena;
            } else {
                te_patch_plan_free(p);
            }
        }
    }
    if (arena_out)
        *arena_out = best ? best_arena : baseline;
    return best;
}

int te_patch_opts_parse(const char *s, te_patch_opts *p)
{
    int k, h, w;
    char tail;
    if (!s || !strcmp(s, "off")) {
        p->mode = TE_PATCH_OFF;
        return 0;
    }
    if (!strcmp(s, "auto")) {
        p->mode = TE_PATCH_AUTO;
        return 0;
    }
    if (sscanf(s, "%d:%dx%d%c", &k, &h, &w, &tail) == 3 && k > 0 && h > 0 && w > 0 &&
        h * w >= 2 && h <= 64 && w <= 64) {
        p->mode = TE_PATCH_EXPLICIT;
        p->n_ops = k;
        p->grid_h = h;
        p->grid_w = w;
        return 0;
    }
    return -1;
}
