/* patch_search.c - `--patch auto`: tries every stage length and grid the
 * model allows, estimates the whole arena each would need (planning the
 * graph as if the stage ran patch by patch) and keeps the smallest whose
 * extra instructions (the target's cost model, the patches built and
 * lowered) stay within --max-recompute and whose code (patch_code.c) fits
 * the flash budget, the fastest of equal arenas; and parses the --patch
 * setting. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../api/cost_model.h"
#include "../codegen/stack_bound.h"
#include "../ops/lowering.h"
#include "patch.h"
#include "patch_walk.h"
#include "plan.h"

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

/* Estimated instructions of every live operator of g, layer by layer. */
static double model_instructions(const te_graph *g, const te_lowered *low, const char *cm)
{
    double sum = 0;
    int i;
    for (i = 0; i < g->n_ops; i++)
        if (!g->ops[i].dead)
            sum += te_cost_op_estimate(cm, &g->ops[i], te_lowered_find(low, g, &g->ops[i]));
    return sum;
}

te_storage *te_patch_storage(const te_graph *dg, const te_storage *before)
{
    te_storage *st = te_storage_new(dg);
    int t;
    for (t = 0; st && before && t < before->n_tensors && t < st->n_tensors; t++)
        if (!dg->tensors[t].patch_role && !te_patch_is_cut(dg->patch, t))
            st->t[t] = before->t[t];
    return st;
}

/* Adds kernel k to ids (no repeats, no views; at most TE_K_COUNT). */
static void add_kernel(te_kernel_id *ids, int *n, te_kernel_id k)
{
    int j;
    for (j = 0; j < *n && ids[j] != k; j++)
        ;
    if (k != TE_K_VIEW && j == *n && *n < TE_K_COUNT)
        ids[(*n)++] = k;
}

/* A clone's lowering and cost depend on its operator and its signature
 * (te_patch_clone_signature: region shapes, explicit padding, place). */
typedef struct {
    int op;                   /* the original operator's index */
    int sig[TE_PATCH_CLONE_SIG_INTS];
    double cost;
} clone_cost;

/* The patches' instructions: every clone as lowered (with the storage
 * decisions of low on the graph as patched), every crop copy; -1 when out
 * of memory.  Clones of one operator on regions of the same shapes are
 * lowered once (the cells inside the grid all have the same). */
static double patched_instructions(const te_graph *g, const te_lowered *low,
                                   const te_patch_plan *p, const char *cm,
                                   te_kernel_id *ids, int *n_ids)
{
    te_storage *patched = te_patch_storage(g, low->opts.st);
    te_lower_opts o = low->opts;
    clone_cost *cache = calloc((size_t)p->n_steps + 1, sizeof *cache);
    double sum = 0;
    int k, j, n_cache = 0;
    if (!patched || !cache) {
        te_storage_free(patched);
        free(cache);
        return -1;
    }
    o.st = patched;
    for (k = 0; k < p->n_steps; k++) {
        const te_patch_step *st = &p->steps[k];
        te_cost_features f;
        te_lowering l;
        if (st->kind == TE_PSTEP_OP) {
            const te_op *c = &p->clones[st->clone];
            clone_cost *e = &cache[n_cache];
            te_patch_clone_signature(g, c, e->sig);
            e->op = st->op;
            for (j = 0; j < n_cache; j++)
                if (cache[j].op == e->op && !memcmp(cache[j].sig, e->sig, sizeof e->sig))
                    break;
            if (j == n_cache) {
                te_lower_op(g, c, &o, &l);
                e->cost = te_cost_op_estimate(cm, c, &l);
                n_cache++;
                add_kernel(ids, n_ids, l.kernel);
            }
            sum += cache[j].cost;
        } else {
            sum += te_cost_patch_copy(cm, g, st, &f);
        }
    }
    te_storage_free(patched);
    free(cache);
    return sum;
}

/* The kernels g's operators call layer by layer (no repeats; room left
 * for the copy). */
static int layer_kernels(const te_graph *g, const te_lowered *low, te_kernel_id *ids)
{
    int i, n = 0;
    for (i = 0; i < g->n_ops; i++) {
        const te_lowering *l = g->ops[i].dead ? NULL : te_lowered_find(low, g, &g->ops[i]);
        if (l)
            add_kernel(ids, &n, l->kernel);
    }
    return n;
}

/* The stack bound (optimised builds) a patched plan may reach: the layer-by-
 * layer one or the 2 KiB the project promises, whichever is larger. */
static size_t stack_allowed(const te_graph *g, const te_lowered *low)
{
    te_kernel_id ids[TE_K_COUNT];
    size_t lbl = te_stack_bound_kernels(ids, layer_kernels(g, low, ids), g->target).opt;
    return lbl > TE_PATCH_STACK_PROMISE ? lbl : TE_PATCH_STACK_PROMISE;
}

int te_patch_estimate(const te_graph *g, const te_lowered *low, te_patch_plan *p)
{
    const char *cm = te_cost_model_name(g->target);
    int rc = -1, i;
    te_patch_walk *w = te_patch_walk_new(g, p->n_ops, p->grid_h, p->grid_w);
    te_graph *dg;
    te_diag d = {{0}, 0};
    if (w) {
        p->stage_instructions = 0;
        for (i = 0; i < w->n_ops; i++)
            p->stage_instructions +=
                te_cost_op_estimate(cm, &g->ops[w->ops[i]], te_lowered_find(low, g, &g->ops[w->ops[i]]));
        p->model_instructions = model_instructions(g, low, cm);
        dg = te_patch_graph(g, p, &d);
        if (dg) {
            te_kernel_id ids[TE_K_COUNT];
            int n_ids = layer_kernels(g, low, ids);
            add_kernel(ids, &n_ids, TE_K_PATCH_COPY_S8);
            p->patched_instructions = patched_instructions(dg, low, dg->patch, cm, ids, &n_ids);
            p->code_bytes = dg->patch->code_bytes;
            p->stack_bytes = te_stack_bound_kernels(ids, n_ids, g->target).opt;
            rc = p->patched_instructions < 0 ? -1 : 0;
        }
        te_graph_free(dg);
    }
    te_patch_walk_free(w);
    return rc;
}

static double extra_of(const te_patch_plan *p)
{
    return p ? p->patched_instructions - p->stage_instructions : 0;
}

/* 1 if (arena, extra instructions) is a better choice than the best so far. */
static int better(size_t arena, double extra, const te_patch_plan *best, size_t best_arena,
                  size_t fit)
{
    double best_extra = extra_of(best);
    if (arena == (size_t)-1)
        return 0;
    if (fit && arena <= fit) /* fits the budget: the fastest one */
        return !best || best_arena > fit || extra < best_extra ||
               (extra == best_extra && arena < best_arena);
    if (fit && best && best_arena <= fit)
        return 0;
    return arena < best_arena || (best && arena == best_arena && extra < best_extra);
}

/* 1 if a plan with this arena may still beat the best (before its
 * instructions are estimated). */
static int may_win(size_t arena, size_t best_arena, size_t fit)
{
    return (fit && arena <= fit) || arena <= best_arena;
}

/* --explain: one line to po's sink. */
static void explain(const te_patch_opts *po, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    if (!po->explain)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    po->explain(po->explain_ctx, line);
}

/* Stages k0..k1 refused for the same reason: one line. */
static void explain_stages(const te_patch_opts *po, int k0, int k1, const char *why)
{
    if (k0 == k1)
        explain(po, "first %d operators: %s", k0, why);
    else
        explain(po, "first %d..%d operators: %s", k0, k1, why);
}

/* --explain: why the plan of stage k over an n x n grid lost.  flash: the
 * flash the patches may take (te_patch_flash_left). */
static void explain_grid(const te_patch_opts *po, int k, int n, const te_patch_plan *p,
                         size_t arena, size_t baseline, size_t best_arena, size_t fit,
                         double model, int64_t flash, size_t stack)
{
    if (!po->explain)
        return;
    if (!p)
        explain(po, "first %d operators, %dx%d: the grid is too fine for the cut tensor", k, n, n);
    else if (arena == (size_t)-1 && p->code_bytes > flash)
        explain(po, "first %d operators, %dx%d: patches add at least ~%lld bytes of code, over "
                    "the flash budget by %lld", k, n, n, (long long)p->code_bytes,
                (long long)(p->code_bytes - flash));
    else if (arena == (size_t)-1)
        explain(po, "first %d operators, %dx%d: cannot be planned", k, n, n);
    else if (arena >= baseline)
        explain(po, "first %d operators, %dx%d: peak not lower (arena %zu, %zu layer by layer)",
                k, n, n, arena, baseline);
    else if (p->patched_instructions > 0 && p->code_bytes > flash)
        explain(po, "first %d operators, %dx%d: arena %zu, but patches add ~%lld bytes of code, "
                    "over the flash budget by %lld", k, n, n, arena, (long long)p->code_bytes,
                (long long)(p->code_bytes - flash));
    else if (p->patched_instructions > 0 && p->stack_bytes > stack)
        explain(po, "first %d operators, %dx%d: arena %zu, but its kernels may need %zu bytes of "
                    "stack, over %zu (layer by layer, or 2 KiB)", k, n, n, arena,
                p->stack_bytes, stack);
    else if (p->patched_instructions > 0 && extra_of(p) > po->max_recompute * model)
        explain(po, "first %d operators, %dx%d: arena %zu, but over --max-recompute by %.0f%% "
                    "(+%.0f%% instructions, %.0f%% allowed)",
                k, n, n, arena, 100.0 * (extra_of(p) / model - po->max_recompute),
                100.0 * extra_of(p) / model, 100.0 * po->max_recompute);
    else if (fit && arena <= fit)
        explain(po, "first %d operators, %dx%d: arena %zu fits the limit, but a faster plan "
                    "fitting it was found before", k, n, n, arena);
    else
        explain(po, "first %d operators, %dx%d: arena %zu, not below the best plan so far "
                    "(arena %zu; the fewer instructions win a tie)%s",
                k, n, n, arena, best_arena, fit ? ", and above the limit" : "");
}

te_patch_plan *te_patch_search(const te_graph *g, const te_lowered *low, const te_patch_opts *po,
                               size_t baseline, size_t fit, size_t *arena_out)
{
    te_patch_plan *best = NULL;
    size_t best_arena = baseline;
    double model = model_instructions(g, low, te_cost_model_name(g->target));
    double budget = po->max_recompute * model;
    const int64_t flash = te_patch_flash_left(g);
    const size_t stack = stack_allowed(g, low);
    int n_live = 0, k, n, i, refused_from = 0;
    char why[256], refused[256] = "";
    for (i = 0; i < g->n_ops; i++)
        n_live += !g->ops[i].dead;
    for (k = 1; k < n_live; k++) {
        if (po->explain) { /* stages refused whatever the grid: one line per reason */
            if (te_patch_stage_reason(g, k, why, sizeof why) < 0) {
                if (refused_from && strcmp(why, refused))
                    explain_stages(po, refused_from, k - 1, refused);
                if (!refused_from || strcmp(why, refused))
                    refused_from = k;
                snprintf(refused, sizeof refused, "%s", why);
                continue;
            }
            if (refused_from)
                explain_stages(po, refused_from, k - 1, refused);
            refused_from = 0;
        }
        for (n = 2; n <= TE_PATCH_MAX_GRID; n++) {
            te_patch_plan *p = te_patch_analyse(g, k, n, n, NULL);
            size_t arena = (size_t)-1;
            if (!p) {
                if (po->explain && te_patch_stage_reason(g, k, why, sizeof why) == 0)
                    explain_grid(po, k, n, NULL, arena, baseline, best_arena, fit, model, flash, stack);
                continue;
            }
            p->code_bytes = te_patch_code_floor(g, p); /* until estimated */
            if (p->code_bytes <= flash) /* the clones' calls alone fit */
                arena = estimate_arena(g, low, p);
            if (arena < baseline && may_win(arena, best_arena, fit) &&
                te_patch_estimate(g, low, p) == 0 && p->code_bytes <= flash && p->stack_bytes <= stack &&
                extra_of(p) <= budget && better(arena, extra_of(p), best, best_arena, fit)) {
                te_patch_plan_free(best);
                best = p;
                best_arena = arena;
            } else {
                explain_grid(po, k, n, p, arena, baseline, best_arena, fit, model, flash, stack);
                te_patch_plan_free(p);
            }
        }
    }
    if (refused_from)
        explain_stages(po, refused_from, n_live - 1, refused);
    if (po->explain && best)
        explain(po, "kept: first %d operators in %dx%d patches, arena %zu; patches add ~%lld "
                    "bytes of code (flash budget %lld)", best->n_ops, best->grid_h, best->grid_w,
                best_arena, (long long)best->code_bytes, (long long)flash);
    else if (po->explain)
        explain(po, "kept: layer by layer, arena %zu", best_arena);
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
