/* patch_search.c - `--patch auto`: tries every stage length the model
 * allows over H x W grids (square or not, up to TE_PATCH_MAX_GRID cells a
 * side), estimates the whole arena each would need (planning the graph as
 * if the stage ran patch by patch) and keeps the smallest whose extra
 * instructions (the target's cost model, the patches built and lowered)
 * stay within --max-recompute and whose code (patch_code.c) fits the flash
 * budget, the fastest of equal arenas; and parses the --patch setting.
 * It stays quick by bounds that skip the expensive steps (the analysis of
 * a grid's patches, and building them to estimate their instructions):
 * the arena without patch scratch bounds a stage, the largest cell of the
 * cut tensor bounds a grid, and a grid over the limits rules out the finer
 * ones of its stage. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../api/cost_model.h"
#include "../codegen/stack_bound.h"
#include "../ops/lowering.h"
#include "../passes/passes.h"
#include "patch.h"
#include "patch_memo.h"
#include "patch_walk.h"
#include "plan.h"

/* The storage decisions a stage's plan may end with (src/compiler.c's
 * candidates: those of the layer-by-layer plan, without the links only
 * tried or with them, without any in-place link, without the shrinking
 * ones, with concatenation slices wherever they can be or none), each with the outputs of the stage's operators on their own (as
 * the patches write them) and its lowering (NULL: the search's own, for
 * the first).  The search estimates a plan's arena as the smallest over
 * them, as the compiler keeps the smallest: with the first alone, a stage
 * whose arena the compile lowers further ranked below one it does not. */
#define TE_STAGED_MAX 8
typedef struct {
    int n;
    te_storage *st[TE_STAGED_MAX];
    te_lowered *low[TE_STAGED_MAX];
    int n_pickable; /* the first ones, which the search's estimates place; the
                     * others only the near-best ones' (exact_arena) */
    int pick; /* the one the stage's first exact estimate found smallest, or -1:
               * the later ones of the stage place only it (the grid rarely
               * changes which one wins, and each exact placement is costly),
               * but see exact_arena */
    const te_patch_walk *prev; /* a stage before the one tried (the second
                                * stage's search), whose outputs are unlinked
                                * too; NULL: none (kept by staged_new) */
} staged;

static void staged_free(staged *sd)
{
    int i;
    for (i = 0; i < sd->n; i++) {
        te_storage_free(sd->st[i]);
        te_lowered_free(sd->low[i]);
    }
    sd->n = 0;
}

/* 1 if tensor t is one stage w computes only patch by patch (made by its
 * operators, neither its output S nor a cut tensor). */
static int stage_internal(const te_patch_walk *w, int t)
{
    int c;
    if (!w || w->produced_by[t] < 0 || t == w->s)
        return 0;
    for (c = 0; c < w->n_cuts; c++)
        if (w->cuts[c] == t)
            return 0;
    return 1;
}

/* Adds storage decisions st (taken over; NULL: none) to sd with stage w's
 * outputs unlinked, and the tensors made outside it that live inside a
 * tensor it computes only patch by patch (a concatenation slice of it,
 * possible for a stage after the network's first operators: that tensor
 * is never whole; te_patch_storage does the same), lowered, unless sd has
 * them already. */
static void staged_add(staged *sd, const te_graph *g, const te_lowered *low,
                       const te_patch_walk *w, te_storage *st)
{
    te_lower_opts o;
    te_diag d = {{0}, 0};
    int i;
    for (i = 0; st && i < w->n_ops; i++)
        te_storage_unlink(st, g->ops[w->ops[i]].out[0]);
    for (i = 0; st && sd->prev && i < sd->prev->n_ops; i++)
        te_storage_unlink(st, g->ops[sd->prev->ops[i]].out[0]);
    for (i = 0; st && i < g->n_tensors; i++) {
        int a = te_storage_alias_of(st, i);
        if (a >= 0 && (stage_internal(w, a) || stage_internal(sd->prev, a)))
            te_storage_unlink(st, i);
    }
    for (i = 0; st && i < sd->n; i++)
        if (te_storage_equal(sd->st[i], st))
            break;
    if (!st || i < sd->n || sd->n == TE_STAGED_MAX) {
        te_storage_free(st);
        return;
    }
    memset(&o, 0, sizeof o);
    if (low)
        o = low->opts;
    o.st = st;
    sd->st[sd->n] = st;
    sd->low[sd->n] = sd->n == 0 ? NULL : te_lower_graph(g, &o, low, &d);
    if (sd->n > 0 && !sd->low[sd->n]) {
        te_storage_free(st);
        return;
    }
    sd->n++;
}

/* The storage decisions of stage w (above; only the first unless `all`);
 * sd->n is 0 when out of memory. */
static void staged_new(staged *sd, const te_graph *g, const te_lowered *low,
                       const te_patch_walk *w, int all)
{
    te_storage *base = low && low->opts.st ? te_storage_copy(low->opts.st) : te_storage_new(g);
    te_storage *t;
    const te_patch_walk *prev = sd->prev;
    memset(sd, 0, sizeof *sd);
    sd->prev = prev;
    sd->pick = -1;
    if (!base)
        return;
    staged_add(sd, g, low, w, te_storage_copy(base));
    sd->n_pickable = sd->n;
    if (!sd->n || !all) {
        te_storage_free(base);
        return;
    }
    if ((t = te_storage_copy(base)) != NULL)
        te_pass_inplace_untry(g, t);
    staged_add(sd, g, low, w, t);
    if ((t = te_inplace_without(g, base)) != NULL)
        te_pass_inplace_trial(g, t);
    staged_add(sd, g, low, w, t);
    staged_add(sd, g, low, w, te_inplace_without(g, base));
    staged_add(sd, g, low, w, te_inplace_without_shrinking(g, base));
    staged_add(sd, g, low, w, te_lowered_without_bands(low, g, base));
    if ((t = te_inplace_without(g, base)) != NULL) { /* every link but those only tried */
        te_pass_inplace(g, t);
        staged_add(sd, g, low, w, te_inplace_without_shrinking(g, t));
        staged_add(sd, g, low, w, t);
    }
    if ((t = te_storage_new(g)) != NULL) { /* concatenation slices where they can be */
        te_pass_concat_slices(g, t);
        te_pass_inplace(g, t);
        staged_add(sd, g, low, w, t);
    }
    sd->n_pickable = sd->n;
    if ((t = te_storage_new(g)) != NULL) { /* no slices (the compile's choice 2) */
        te_pass_inplace(g, t);
        staged_add(sd, g, low, w, t);
    }
    te_storage_free(base);
}

/* Arena of the whole model if p's stage ran patch by patch: with the
 * layer-by-layer plan's storage decisions (sd's first) placed by the quick
 * heuristics (to rank and prune grids) or, `exact`, the smallest over the
 * storage decisions of sd in `mask` (a bit each) placed as the compile
 * places them (to choose among the plans estimated); *argmin (when not
 * NULL): the first that reached it, or -1.  The trial plans' arrays come
 * from ws.  The graph is only read. */
static size_t place_arena(const te_graph *g, const te_lowered *low, te_plan_scratch *ws,
                          const staged *sd, const te_patch_plan *p, int exact, unsigned mask,
                          int *argmin)
{
    size_t arena = (size_t)-1;
    int i, pick = -1;
    for (i = 0; i < (exact ? sd->n : 1); i++) {
        te_lowered staged_low;
        size_t a;
        if (exact && !(mask & (1u << i)))
            continue;
        memset(&staged_low, 0, sizeof staged_low);
        if (sd->low[i])
            staged_low = *sd->low[i];
        else if (low)
            staged_low = *low;
        staged_low.opts.st = sd->st[i];
        a = te_plan_trial_arena(g, &staged_low, p, exact, ws);
        if (a < arena) {
            arena = a;
            pick = i;
        }
    }
    if (argmin)
        *argmin = pick;
    return arena;
}

/* The storage decisions of sd an exact estimate places: its pick, or
 * every one it may pick. */
static unsigned picked(const staged *sd)
{
    return sd->pick >= 0 ? 1u << sd->pick : (1u << sd->n_pickable) - 1;
}

/* place_arena() of p over sd's pick (exact; setting it when not set yet)
 * or of sd's first storage decisions (quick). */
static size_t estimate_arena(const te_graph *g, const te_lowered *low, te_plan_scratch *ws,
                             staged *sd, const te_patch_plan *p, int exact)
{
    int pick;
    size_t arena = place_arena(g, low, ws, sd, p, exact, picked(sd), &pick);
    if (exact && sd->pick < 0)
        sd->pick = pick;
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
    for (t = 0; st && before && t < before->n_tensors && t < st->n_tensors; t++) {
        int a = before->t[t].alias_of; /* (not into a tensor no patch stores whole) */
        if (!dg->tensors[t].patch_role && !te_patch_is_cut(dg->patch, t) &&
            (a < 0 || !dg->tensors[a].patch_role))
            st->t[t] = before->t[t];
    }
    if (st)
        te_pass_inplace_clones(dg, st);
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
    size_t mask = 15, j;
    int *slot; /* hash index of cache: entry + 1, 0 free */
    double sum = 0;
    int k, n_cache = 0;
    while (mask + 1 < 2 * ((size_t)p->n_steps + 1))
        mask = 2 * mask + 1;
    slot = calloc(mask + 1, sizeof *slot);
    if (!patched || !cache || !slot) {
        te_storage_free(patched);
        free(cache);
        free(slot);
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
            for (j = te_patch_sig_hash(e->op, e->sig) & mask; slot[j]; j = (j + 1) & mask) {
                const clone_cost *h = &cache[slot[j] - 1];
                if (h->op == e->op && !memcmp(h->sig, e->sig, sizeof e->sig))
                    break;
            }
            if (!slot[j]) {
                te_lower_op(g, c, &o, &l);
                e->cost = te_cost_op_estimate(cm, c, &l);
                slot[j] = ++n_cache;
                add_kernel(ids, n_ids, l.kernel);
            }
            sum += cache[slot[j] - 1].cost;
        } else {
            sum += te_cost_patch_copy(cm, g, st, &f);
        }
    }
    te_storage_free(patched);
    free(cache);
    free(slot);
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

/* The instructions of the operators of every stage of chain p, layer by
 * layer; -1 when a stage cannot be walked. */
static double stages_instructions(const te_graph *g, const te_lowered *low,
                                  const te_patch_plan *p, const char *cm)
{
    double sum = 0;
    int i;
    for (; p; p = p->next) {
        te_patch_walk *w = te_patch_walk_new_at(g, p->first, p->n_ops, p->grid_h, p->grid_w, NULL, 0);
        if (!w)
            return -1;
        for (i = 0; i < w->n_ops; i++)
            sum += te_cost_op_estimate(cm, &g->ops[w->ops[i]],
                                       te_lowered_find(low, g, &g->ops[w->ops[i]]));
        te_patch_walk_free(w);
    }
    return sum;
}

int te_patch_estimate(const te_graph *g, const te_lowered *low, te_patch_plan *p)
{
    const char *cm = te_cost_model_name(g->target);
    int rc = -1;
    te_graph *dg;
    te_diag d = {{0}, 0};
    p->stage_instructions = stages_instructions(g, low, p, cm);
    if (p->stage_instructions < 0)
        return -1;
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

#define TE_PATCH_SEEN 64

/* The search's inputs, limits and best plan so far. */
typedef struct {
    const te_graph *g;
    const te_lowered *low;
    const te_patch_opts *po;
    size_t baseline, fit;
    double model, budget;  /* the model's instructions, the extra ones allowed */
    int64_t flash;         /* what the patches' code may take (te_patch_flash_left) */
    int64_t call_bytes;    /* the code of one kernel call (te_cost_call_code) */
    size_t stack;          /* stack_allowed */
    te_patch_plan *best;
    size_t best_arena; /* its arena as the compile places it (estimate_arena, exact) */
    size_t best_quick; /* and by the quick heuristics, against which grids are pruned */
    int cache;         /* the grids tried are analysed with halo caching (the
                        * second pass over the stages, te_patch_search) */
    int min_k;         /* the cached pass: the stages tried are min_k..min_k + 2 long
                        * (min_k: the first stage the pass without caching kept;
                        * caching lifts the recompute that stops finer grids and
                        * slightly longer stages; more lengths cost compile time
                        * and won nothing on the stand-ins) */
    int over_budget;   /* a plan within the flash was over --max-recompute (what
                        * halo caching can lift; without one it is not tried) */
    int64_t next_bar;  /* research_first: what a first stage and its second must cost
                        * less than to be kept (next_cost; 0: no bar) */
    te_patch_memo *memo; /* every analysis and estimate of the search (both passes) */
    te_plan_scratch *ws; /* the trial plans' arrays, kept from one to the next */
} search;

/* A stage the search may run patch by patch: its length k, its cut tensor
 * S and S's height and width, and its floor: the arena if its patches took
 * no scratch (no grid's is lower: the arena grows with the scratch). */
typedef struct {
    int k, s, h, w;
    int overlay_in; /* te_patch_overlay_input, or -1 */
    int n_cuts, cuts[TE_PATCH_MAX_CUTS]; /* its other cut tensors (patch.h) */
    size_t floor;
    staged sd; /* its storage decisions (staged_new), while it is tried */
    /* the grids analysed so far (try_stage) and their scratch: a finer
     * grid needs no more scratch, so each is a lower bound of the coarser
     * ones' (at most TE_PATCH_SEEN kept) */
    int n_seen;
    struct {
        int gh, gw;
        size_t scratch;
    } seen[TE_PATCH_SEEN];
} stage;

/* Arena of the whole model if stage st ran over a gh x gw grid whose
 * patches took `scratch` bytes, its output overlaying the stage's input
 * from its first byte (patch_overlay.c; no grid's overlay starts lower):
 * a lower bound of every grid's. */
static size_t stage_arena(const search *s, stage *st, int gh, int gw, size_t scratch)
{
    te_patch_plan p;
    memset(&p, 0, sizeof p);
    p.n_ops = st->k;
    te_patch_skip_head(s->g, &p.first, &p.n_ops);
    p.grid_h = gh;
    p.grid_w = gw;
    p.out_tensor = st->s;
    p.scratch_bytes = scratch;
    p.overlay_in = st->overlay_in;
    p.overlay_offset = 0;
    p.n_cuts = st->n_cuts;
    memcpy(p.cuts, st->cuts, sizeof p.cuts);
    return estimate_arena(s->g, s->low, s->ws, &st->sd, &p, 0);
}

/* A lower bound of the patches' scratch in a gh x gw grid: the bytes of
 * S's largest cell (the scratch holds it), or the scratch of a finer grid
 * already analysed. */
static size_t scratch_floor(const search *s, const stage *st, int gh, int gw)
{
    size_t pixel = te_tensor_bytes(&s->g->tensors[st->s]) / ((size_t)st->h * (size_t)st->w);
    size_t b = pixel * (size_t)((st->h + gh - 1) / gh) * (size_t)((st->w + gw - 1) / gw);
    int i;
    b = (b + TE_ARENA_ALIGN - 1) & ~(size_t)(TE_ARENA_ALIGN - 1);
    for (i = 0; i < st->n_seen; i++)
        if (st->seen[i].gh >= gh && st->seen[i].gw >= gw && st->seen[i].scratch > b)
            b = st->seen[i].scratch;
    return b;
}

/* The cell counts the search tries along an axis of n pixels: every count
 * up to TE_PATCH_ALL_GRIDS, then up to n and TE_PATCH_MAX_GRID only the
 * fewest cells giving each size of the largest cell (n / count rounded up):
 * more cells with largest ones of the same size need as large regions, so
 * as much scratch, and recompute more.  Returns how many (into out). */
static int axis_grids(int n, int *out)
{
    int c, m = 0;
    for (c = 1; c <= n && c <= TE_PATCH_MAX_GRID; c++)
        if (c <= TE_PATCH_ALL_GRIDS || (n + c - 1) / c != (n + c - 2) / (c - 1))
            out[m++] = c;
    return m;
}

/* --explain: why stage k over a gh x gw grid lost (p NULL: it could not be
 * analysed; bound: arena is a lower bound, the grid not analysed). */
static void explain_grid(const search *s, int k, int gh, int gw, const te_patch_plan *p,
                         size_t arena, int bound)
{
    const te_patch_opts *po = s->po;
    const size_t baseline = s->baseline, best_arena = s->best_arena, fit = s->fit;
    const int64_t flash = s->flash;
    if (!po->explain)
        return;
    if (bound && arena >= baseline)
        explain(po, "first %d operators, %dx%d: peak not lower (arena at least %zu, %zu layer "
                    "by layer)", k, gh, gw, arena, baseline);
    else if (bound)
        explain(po, "first %d operators, %dx%d: arena at least %zu, not below the best plan so "
                    "far (arena %zu)%s", k, gh, gw, arena, s->best_quick,
                fit ? ", and above the limit" : "");
    else if (!p)
        explain(po, "first %d operators, %dx%d: the grid is too fine for the cut tensor", k, gh, gw);
    else if (arena == (size_t)-1 && p->code_bytes > flash)
        explain(po, "first %d operators, %dx%d: patches add at least ~%lld bytes of code, over "
                    "the flash budget by %lld", k, gh, gw, (long long)p->code_bytes,
                (long long)(p->code_bytes - flash));
    else if (arena == (size_t)-1)
        explain(po, "first %d operators, %dx%d: cannot be planned", k, gh, gw);
    else if (arena >= baseline)
        explain(po, "first %d operators, %dx%d: peak not lower (arena %zu, %zu layer by layer)",
                k, gh, gw, arena, baseline);
    else if (p->patched_instructions > 0 && p->code_bytes > flash)
        explain(po, "first %d operators, %dx%d: arena %zu, but patches add ~%lld bytes of code, "
                    "over the flash budget by %lld", k, gh, gw, arena, (long long)p->code_bytes,
                (long long)(p->code_bytes - flash));
    else if (p->patched_instructions > 0 && p->stack_bytes > s->stack)
        explain(po, "first %d operators, %dx%d: arena %zu, but its kernels may need %zu bytes of "
                    "stack, over %zu (layer by layer, or 2 KiB)", k, gh, gw, arena,
                p->stack_bytes, s->stack);
    else if (p->patched_instructions > 0 && extra_of(p) > s->budget)
        explain(po, "first %d operators, %dx%d: arena %zu, but over --max-recompute by %.0f%% "
                    "(+%.0f%% instructions, %.0f%% allowed)",
                k, gh, gw, arena, 100.0 * (extra_of(p) / s->model - po->max_recompute),
                100.0 * extra_of(p) / s->model, 100.0 * po->max_recompute);
    else if (fit && arena <= fit)
        explain(po, "first %d operators, %dx%d: arena %zu fits the limit, but a faster plan "
                    "fitting it was found before", k, gh, gw, arena);
    else
        explain(po, "first %d operators, %dx%d: arena %zu, not below the best plan so far "
                    "(arena %zu; the fewer instructions win a tie)%s",
                k, gh, gw, arena, best_arena, fit ? ", and above the limit" : "");
}

/* What the cheap steps say of a grid (probe). */
typedef struct {
    int gh, gw;
    int kind;         /* PROBE_FINE, PROBE_HIGH or PROBE_OK */
    te_patch_plan *p; /* PROBE_OK: the analysed plan */
    size_t arena;     /* PROBE_OK: its arena (quick placement) */
    staged *sd;       /* its stage's storage decisions */
    int offered, verdict; /* search_row: offered, and what offer() said */
} probe;

#define PROBE_FINE 0 /* too fine: its clones' calls alone are over the flash, or it
                      * cannot be analysed (a cell too small); so are finer ones */
#define PROBE_HIGH 1 /* its arena cannot beat the best plan so far */
#define PROBE_OK 2   /* its arena may win: estimate it */

/* The cheap steps for stage st over a gh x gw grid: the code floor, the
 * arena with the least scratch the grid can take (so that a grid that cannot
 * win is not analysed), the analysis and the arena. */
static probe probe_grid(const search *s, stage *st, int gh, int gw)
{
    probe r;
    te_patch_plan lb;
    memset(&r, 0, sizeof r);
    memset(&lb, 0, sizeof lb);
    r.gh = gh;
    r.gw = gw;
    r.arena = (size_t)-1;
    r.sd = &st->sd;
    lb.code_bytes = (int64_t)st->k * gh * gw * s->call_bytes; /* te_patch_code_floor */
    if (lb.code_bytes > s->flash) {
        explain_grid(s, st->k, gh, gw, &lb, r.arena, 0);
        r.kind = PROBE_FINE;
        return r;
    }
    r.arena = stage_arena(s, st, gh, gw, scratch_floor(s, st, gh, gw));
    r.kind = PROBE_HIGH;
    if (r.arena >= s->baseline || !may_win(r.arena, s->best_quick, s->fit)) {
        explain_grid(s, st->k, gh, gw, &lb, r.arena, 1);
        return r;
    }
    r.p = te_patch_memo_analyse(s->memo, s->g, 0, st->k, gh, gw, s->cache);
    if (!r.p) {
        explain_grid(s, st->k, gh, gw, NULL, r.arena, 0);
        r.kind = PROBE_FINE;
        return r;
    }
    if (st->n_seen < TE_PATCH_SEEN) {
        st->seen[st->n_seen].gh = gh;
        st->seen[st->n_seen].gw = gw;
        st->seen[st->n_seen++].scratch = r.p->scratch_bytes;
    }
    r.p->code_bytes = te_patch_code_floor(s->g, r.p); /* until estimated */
    r.arena = estimate_arena(s->g, s->low, s->ws, &st->sd, r.p, 0);
    if (r.arena >= s->baseline || !may_win(r.arena, s->best_quick, s->fit)) {
        explain_grid(s, st->k, gh, gw, r.p, r.arena, 0);
        te_patch_plan_free(r.p);
        r.p = NULL;
        return r;
    }
    r.kind = PROBE_OK;
    return r;
}

/* What the thrift rule minimises: TE_PATCH_FLASH_PER_BYTE bytes of the
 * patches' code are worth one byte of SRAM (p NULL: layer by layer). */
static int64_t thrift_cost(const te_patch_plan *p, size_t arena)
{
    return (int64_t)arena * TE_PATCH_FLASH_PER_BYTE + (p ? p->code_bytes : 0);
}

/* How near the best plan so far an exact estimate must come for
 * exact_arena to place every storage decision: within 1/TE_NEAR_BEST. */
#define TE_NEAR_BEST 8

/* estimate_arena(exact) of p, and when that came near the best plan so far
 * (or the SRAM budget), the smallest over every storage decision of sd
 * (its pick becomes the one that reached it): a grid the compile lowers
 * further with other decisions than the ones the stage's first estimate
 * picked (no concatenation slices, say) is then ranked by the arena the
 * compile reaches. */
static size_t exact_arena(const search *s, staged *sd, const te_patch_plan *p)
{
    const unsigned placed = picked(sd), others = ((1u << sd->n) - 1) & ~placed;
    size_t arena = estimate_arena(s->g, s->low, s->ws, sd, p, 1), more;
    size_t near = arena == (size_t)-1 ? arena : arena - arena / TE_NEAR_BEST;
    int pick;
    if (!others || (near > s->best_arena && !(s->fit && arena > s->fit && near <= s->fit)))
        return arena;
    more = place_arena(s->g, s->low, s->ws, sd, p, 1, others, &pick);
    if (more < arena)
        sd->pick = pick; /* the later grids of the stage place it */
    return more < arena ? more : arena;
}

/* Estimates the plan of a PROBE_OK probe (unless its arena can no longer
 * win) and keeps it in s->best when it is better (else frees it).  Returns
 * 1 when it is estimated within the limits on code and extra
 * instructions, -1 when over them (a finer grid of the stage, adding
 * clones and recompute, would be too), 0 when not estimated. */
static int offer(search *s, probe *r)
{
    te_patch_plan *p = r->p;
    int estimated = may_win(r->arena, s->best_quick, s->fit) &&
                    te_patch_memo_estimate(s->memo, s->g, s->low, p) == 0;
    int within = estimated && p->code_bytes <= s->flash && extra_of(p) <= s->budget;
    if (estimated && p->code_bytes <= s->flash && extra_of(p) > s->budget)
        s->over_budget = 1;
    size_t exact = within && p->stack_bytes <= s->stack ? exact_arena(s, r->sd, p) : (size_t)-1;
    r->p = NULL;
    if (exact != (size_t)-1 && better(exact, extra_of(p), s->best, s->best_arena, s->fit)) {
        te_patch_plan_free(s->best);
        s->best = p;
        s->best_arena = exact;
        s->best_quick = r->arena;
    } else {
        explain_grid(s, p->n_ops, r->gh, r->gw, p, exact != (size_t)-1 ? exact : r->arena, 0);
        te_patch_plan_free(p);
    }
    return within ? 1 : estimated ? -1 : 0;
}

/* Column j of a row of grids (gh cells down), probed once: row[j]. */
static probe *row_probe(search *s, stage *st, int gh, const int *gw, probe *row, int j)
{
    if (!row[j].gh)
        row[j] = probe_grid(s, st, gh, gw[j]);
    return &row[j];
}

/* offer() of a row's probe, once: 1 within the limits, -1 over them, 0
 * not estimated (or not PROBE_OK). */
static int row_offer(search *s, probe *r)
{
    if (r->kind == PROBE_OK && !r->offered) {
        r->offered = 1;
        r->verdict = offer(s, r);
    }
    return r->kind == PROBE_OK ? r->verdict : 0;
}

/* One row of a stage (gh cells down) without an SRAM limit, over the
 * columns gw[0 .. *limit): the arena falls and the extra instructions grow
 * with the columns, so the best grid of the row is the finest within the
 * limits, or the coarsest of equal arena.  Two binary searches find the
 * first column whose arena may win and the last within the limits; then
 * the coarser ones of equal arena are tried.  *limit falls to the first
 * column over the limits (finer rows are too) or at the stage's floor. */
static void search_row(search *s, stage *st, int gh, const int *gw, int *limit)
{
    probe row[TE_PATCH_MAX_GRID], *r;
    int lo = 0, hi = *limit, j, kept = -1;
    size_t kept_arena = 0;
    memset(row, 0, sizeof row);
    if (hi > 0) { /* the finest column first: when its arena cannot win, none can */
        r = row_probe(s, st, gh, gw, row, hi - 1);
        if (r->kind == PROBE_HIGH)
            lo = hi = *limit; /* nothing of the row to try */
        else
            hi -= 1, *limit = r->kind == PROBE_FINE ? hi : *limit;
    }
    while (lo < hi) { /* the first column that is not PROBE_HIGH */
        j = lo + (hi - lo) / 2;
        r = row_probe(s, st, gh, gw, row, j);
        if (r->kind == PROBE_HIGH)
            lo = j + 1;
        else
            hi = j, *limit = r->kind == PROBE_FINE ? j : *limit;
    }
    hi = *limit;
    while (lo < hi) { /* the last column within the limits */
        j = lo + (hi - lo) / 2;
        r = row_probe(s, st, gh, gw, row, j);
        if (r->kind == PROBE_FINE || row_offer(s, r) < 0) {
            hi = *limit = j;
        } else {
            if (r->kind == PROBE_OK)
                kept = j, kept_arena = r->arena;
            lo = j + 1;
        }
    }
    for (j = kept - 1; kept >= 0 && j >= 0; j--) { /* coarser columns of equal arena */
        r = row_probe(s, st, gh, gw, row, j);
        if (r->kind != PROBE_OK || r->arena != kept_arena)
            break;
        row_offer(s, r);
    }
    if (kept >= 0 && kept_arena == st->floor && kept < *limit)
        *limit = kept; /* finer rows reach no lower arena, only more instructions */
    for (j = 0; j < TE_PATCH_MAX_GRID; j++)
        te_patch_plan_free(row[j].p);
}

/* One row of a stage under an SRAM limit: every column of gw[0 .. *limit),
 * coarsest first, until one after which no finer grid can win: over the
 * limits on code or extra instructions, or fitting the limit (finer ones
 * only add instructions), or at the stage's floor. */
static void scan_row(search *s, stage *st, int gh, const int *gw, int *limit)
{
    int j;
    for (j = 0; j < *limit; j++) {
        probe r = probe_grid(s, st, gh, gw[j]);
        int within = r.kind == PROBE_OK ? offer(s, &r) : 0;
        if (r.kind == PROBE_FINE || within < 0 || r.arena == st->floor ||
            (within > 0 && r.arena <= s->fit)) {
            *limit = j;
            return;
        }
    }
}

/* Tries stage st over the grids axis_grids gives for S's height and width,
 * row by row (gh cells down), coarsest first; finer grids than one after
 * which none can win form a staircase: one limit, falling row by row. */
static void try_stage(search *s, stage *st)
{
    int gh[TE_PATCH_MAX_GRID], gw[TE_PATCH_MAX_GRID];
    int nh = axis_grids(st->h, gh), nw = axis_grids(st->w, gw), i, limit = nw;
    te_patch_walk *w = te_patch_walk_new(s->g, st->k, s->cache ? 2 : 1, 1);
    if (w && s->cache && te_patch_cache_setup(w, s->g, NULL) < 0) { /* nothing to cache */
        te_patch_walk_free(w);
        return;
    }
    if (w)
        staged_new(&st->sd, s->g, s->low, w, 1);
    te_patch_walk_free(w);
    st->n_seen = 0; /* scratch bounds hold within one pass (caching or not) */
    for (i = s->cache ? 1 : 0; i < nh && limit > 0 && st->sd.n; i++) { /* caching: 2 rows or more */
        const int one = gh[i] == 1 && gw[0] == 1; /* 1x1 is no grid */
        int row_limit = limit - one;
        if (s->fit)
            scan_row(s, st, gh[i], gw + one, &row_limit);
        else
            search_row(s, st, gh[i], gw + one, &row_limit);
        limit = row_limit + one;
    }
    staged_free(&st->sd);
}

/* Orders stages by floor (the most promising first), then length. */
static int stage_cmp(const void *a, const void *b)
{
    const stage *x = a, *y = b;
    if (x->floor != y->floor)
        return x->floor < y->floor ? -1 : 1;
    return x->k - y->k;
}

/* The stages of g (the first k live operators for every k that can form
 * one) with their floors, into *out; how many, -1 when out of memory.
 * --explain: the lengths refused whatever the grid, one line per reason. */
static int find_stages(search *s, int n_live, stage **out)
{
    const te_patch_opts *po = s->po;
    stage *sv = calloc((size_t)n_live + 1, sizeof *sv);
    int n = 0, k, refused_from = 0;
    char why[256], refused[256] = "";
    *out = sv;
    if (!sv)
        return -1;
    for (k = 1; k < n_live; k++) {
        te_patch_walk *w;
        why[0] = 0;
        w = te_patch_walk_new_why(s->g, k, 1, 1, why, sizeof why);
        if (!w) {
            if (refused_from && strcmp(why, refused))
                explain_stages(po, refused_from, k - 1, refused);
            if (!refused_from || strcmp(why, refused))
                refused_from = k;
            snprintf(refused, sizeof refused, "%s", why[0] ? why : "out of memory");
            continue;
        }
        if (refused_from)
            explain_stages(po, refused_from, k - 1, refused);
        refused_from = 0;
        sv[n].k = k;
        sv[n].s = w->s;
        sv[n].h = s->g->tensors[w->s].shape[1];
        sv[n].w = s->g->tensors[w->s].shape[2];
        sv[n].overlay_in = te_patch_overlay_input(w, s->g);
        sv[n].n_cuts = w->n_cuts;
        memcpy(sv[n].cuts, w->cuts, sizeof sv[n].cuts);
        staged_new(&sv[n].sd, s->g, s->low, w, 0); /* kept while the stage is tried */
        te_patch_walk_free(w);
        sv[n].floor = stage_arena(s, &sv[n], 1, 1, 0);
        staged_free(&sv[n].sd);
        n++;
    }
    if (refused_from)
        explain_stages(po, refused_from, n_live - 1, refused);
    qsort(sv, (size_t)n, sizeof *sv, stage_cmp);
    return n;
}

/* Stage p->n_ops over a gh x gw grid, analysed and estimated, when it
 * keeps to the limits (code, extra instructions, stack); its arena into
 * *arena.  NULL when it cannot or does not. */
static te_patch_plan *plan_within(search *s, const te_patch_plan *p, int gh, int gw,
                                  size_t *arena)
{
    te_patch_walk *w = te_patch_walk_new_at(s->g, p->first, p->n_ops, 1, 1, NULL, 0);
    staged sd;
    te_patch_plan *q;
    memset(&sd, 0, sizeof sd);
    if (w)
        staged_new(&sd, s->g, s->low, w, 1);
    q = sd.n ? te_patch_memo_analyse(s->memo, s->g, p->first, p->n_ops, gh, gw, p->cache) : NULL;
    te_patch_walk_free(w);
    *arena = q ? estimate_arena(s->g, s->low, s->ws, &sd, q, 1) : (size_t)-1;
    staged_free(&sd);
    if (q && (*arena >= s->baseline || te_patch_memo_estimate(s->memo, s->g, s->low, q) < 0 ||
              q->code_bytes > s->flash || extra_of(q) > s->budget || q->stack_bytes > s->stack)) {
        te_patch_plan_free(q);
        q = NULL;
    }
    return q;
}


/* Into *best (arena *best_arena; freed when replaced unless it is top),
 * the grid of stage st with an arena below `ceiling` that costs less by
 * the thrift rule, if one does (below: the compile lowers stages' arenas
 * a little further than the estimate, not all alike, so an equal estimate
 * is no reason to change stage):
 * the grids whose arena with no scratch (st->floor), then with the least
 * scratch the grid can take (stage_arena of scratch_floor, the bound
 * probe_grid prunes with), and clones' calls (te_patch_code_floor) cost
 * less than *best are analysed, then those whose arena does are estimated. */
static void thrift_stage(search *s, stage *st, const te_patch_plan *top, size_t ceiling,
                         te_patch_plan **best, size_t *best_arena)
{
    int ah[TE_PATCH_MAX_GRID], aw[TE_PATCH_MAX_GRID], nh, nw, i, j;
    const int64_t floor_cost = (int64_t)st->floor * TE_PATCH_FLASH_PER_BYTE;
    te_patch_walk *w;
    if (floor_cost >= thrift_cost(*best, *best_arena) || st->floor >= s->baseline)
        return;
    w = te_patch_walk_new(s->g, st->k, 1, 1);
    if (w)
        staged_new(&st->sd, s->g, s->low, w, 1);
    te_patch_walk_free(w);
    nh = axis_grids(st->h, ah);
    nw = axis_grids(st->w, aw);
    for (i = 0; i < nh && st->sd.n; i++)
        for (j = 0; j < nw; j++) {
            const int64_t calls = (int64_t)st->k * ah[i] * aw[j] * s->call_bytes;
            size_t arena;
            te_patch_plan *q;
            if (ah[i] * aw[j] < 2 || floor_cost + calls >= thrift_cost(*best, *best_arena))
                continue;
            if ((int64_t)stage_arena(s, st, ah[i], aw[j], scratch_floor(s, st, ah[i], aw[j])) *
                        TE_PATCH_FLASH_PER_BYTE + calls >= thrift_cost(*best, *best_arena))
                continue; /* its arena with the least scratch it can take costs more */
            q = te_patch_memo_analyse(s->memo, s->g, 0, st->k, ah[i], aw[j], 0);
            arena = q ? estimate_arena(s->g, s->low, s->ws, &st->sd, q, 1) : (size_t)-1;
            if (q && arena < s->baseline && arena < ceiling &&
                (int64_t)arena * TE_PATCH_FLASH_PER_BYTE + te_patch_code_floor(s->g, q) <
                    thrift_cost(*best, *best_arena) &&
                te_patch_memo_estimate(s->memo, s->g, s->low, q) == 0 && q->code_bytes <= s->flash &&
                extra_of(q) <= s->budget && q->stack_bytes <= s->stack &&
                thrift_cost(q, arena) < thrift_cost(*best, *best_arena)) {
                if (*best != top)
                    te_patch_plan_free(*best);
                *best = q;
                *best_arena = arena;
            } else {
                te_patch_plan_free(q);
            }
        }
    staged_free(&st->sd);
}

/* The thrift rule (no SRAM limit): of the plan with the smallest arena and
 * the coarser grids of its stage (no more cells along either side), the
 * one whose SRAM and code cost the least, TE_PATCH_FLASH_PER_BYTE bytes of
 * code to a byte of SRAM; then, at a lower arena than that one, a grid of
 * any stage (the smallest's own too: a grid not coarser along both sides)
 * that costs less still (the search prunes for the arena alone: backing
 * off along the smallest arena's stage can land above a coarser plan of a
 * shorter stage, or of its own stage across); layer by layer if that
 * costs less still. */
static void thrift(search *s, stage *stages, int n_stages)
{
    int ah[TE_PATCH_MAX_GRID], aw[TE_PATCH_MAX_GRID], nh, nw, i, j;
    const te_patch_plan *top = s->best;
    te_patch_plan *best;
    size_t best_arena, ceiling;
    if (!top || s->fit)
        return;
    nh = axis_grids(s->g->tensors[top->out_tensor].shape[1], ah);
    nw = axis_grids(s->g->tensors[top->out_tensor].shape[2], aw);
    best = s->best;
    best_arena = s->best_arena;
    for (i = 0; i < nh && ah[i] <= top->grid_h; i++)
        for (j = 0; j < nw && aw[j] <= top->grid_w; j++) {
            size_t arena;
            te_patch_plan *q;
            if (ah[i] * aw[j] < 2 || (ah[i] == top->grid_h && aw[j] == top->grid_w))
                continue;
            q = plan_within(s, top, ah[i], aw[j], &arena);
            if (q && thrift_cost(q, arena) < thrift_cost(best, best_arena)) {
                if (best != top)
                    te_patch_plan_free(best);
                best = q;
                best_arena = arena;
            } else {
                te_patch_plan_free(q);
            }
        }
    ceiling = best_arena;
    for (i = 0; i < n_stages; i++) /* every stage's grids (pruned for the arena) */
        if (stages[i].floor < ceiling)
            thrift_stage(s, &stages[i], top, ceiling, &best, &best_arena);
    if (best != top) {
        explain(s->po, "thrift: first %d operators in %dx%d patches, arena %zu (+%zu) for ~%lld "
                       "bytes less code than first %d in %dx%d", best->first + best->n_ops, best->grid_h,
                best->grid_w, best_arena, best_arena - s->best_arena,
                (long long)(top->code_bytes - best->code_bytes), top->first + top->n_ops, top->grid_h,
                top->grid_w);
        te_patch_plan_free(s->best);
        s->best = best;
        s->best_arena = best_arena;
    }
    if (thrift_cost(NULL, s->baseline) <= thrift_cost(s->best, s->best_arena)) {
        explain(s->po, "thrift: layer by layer: first %d operators in %dx%d patches save %zu "
                       "bytes of SRAM for ~%lld bytes of code", s->best->first + s->best->n_ops,
                s->best->grid_h,
                s->best->grid_w, s->baseline - s->best_arena, (long long)s->best->code_bytes);
        te_patch_plan_free(s->best);
        s->best = NULL;
        s->best_arena = s->baseline;
    }
}

/* ---- The second stage: after the first stage is chosen, the operators
 * after it may run patch by patch too (the layer-by-layer block after the
 * first stage often sets the arena of MBConv and residual nets).  Every
 * length of the operators that follow is tried over its grids (coarsest
 * first; a row stops at the first grid over the limits, which the first
 * stage's extra instructions and code already take part of); the plan kept
 * costs the least by the thrift rule (under an SRAM budget: the smallest
 * arena, only when the first stage alone does not fit) and has a lower
 * arena than the first stage alone. */

/* A second-stage length: its cut tensor S and S's height and width, its
 * floor (the arena of both stages if its patches took no scratch). */
typedef struct {
    int k, s, h, w, n_cuts, cuts[TE_PATCH_MAX_CUTS];
    size_t floor;
} next_stage;

/* The trial plan of the first stage followed by q: the arena (quick, or
 * exact over sd's pick) the model would take. */
static size_t chain_arena(const search *s, staged *sd, const te_patch_plan *first,
                          te_patch_plan *q, int exact)
{
    te_patch_plan head;
    if (!first) /* a lone stage (search_lone) */
        return exact ? exact_arena(s, sd, q) : estimate_arena(s->g, s->low, s->ws, sd, q, 0);
    head = *first;
    head.next = q;
    return exact ? exact_arena(s, sd, &head) : estimate_arena(s->g, s->low, s->ws, sd, &head, 0);
}

/* The second stage as the trial planner reads it (no analysis yet): S's
 * cells of gh x gw, `scratch` bytes per patch. */
static void next_stub(te_patch_plan *q, const next_stage *ns, int first, int gh, int gw,
                      size_t scratch)
{
    memset(q, 0, sizeof *q);
    q->first = first;
    q->n_ops = ns->k;
    q->grid_h = gh;
    q->grid_w = gw;
    q->out_tensor = ns->s;
    q->n_cuts = ns->n_cuts;
    memcpy(q->cuts, ns->cuts, sizeof q->cuts);
    q->scratch_bytes = scratch;
    q->overlay_in = -1;
}

/* What the second stage's choice minimises: the thrift cost of both stages
 * (or the arena under an SRAM budget). */
static int64_t next_cost(const search *s, size_t arena, int64_t code)
{
    return s->fit ? (int64_t)arena : (int64_t)arena * TE_PATCH_FLASH_PER_BYTE + code;
}

typedef struct {
    te_patch_plan *best; /* the best second stage so far, or NULL */
    size_t best_arena;
    int64_t best_cost;
    int tried;           /* grids estimated */
} next_search;

/* The grids of second-stage length ns (schedule position `start`) over
 * sd: into ns_best when one costs less (next_cost).  first NULL: the
 * stage runs alone (search_lone). */
static void try_next_stage(search *s, const te_patch_plan *first, int start,
                           const next_stage *ns, staged *sd, next_search *nx)
{
    int ah[TE_PATCH_MAX_GRID], aw[TE_PATCH_MAX_GRID], nh = axis_grids(ns->h, ah),
        nw = axis_grids(ns->w, aw), i, j;
    const size_t pixel = te_tensor_bytes(&s->g->tensors[ns->s]) / ((size_t)ns->h * (size_t)ns->w);
    const int64_t code1 = first ? first->code_bytes : 0;
    const double extra1 = first ? extra_of(first) : 0;
    for (i = 0; i < nh; i++)
        for (j = 0; j < nw; j++) {
            const int64_t calls = (int64_t)ns->k * ah[i] * aw[j] * s->call_bytes;
            const int64_t code0 = code1 + calls;
            size_t cell = pixel * (size_t)((ns->h + ah[i] - 1) / ah[i]) *
                          (size_t)((ns->w + aw[j] - 1) / aw[j]), arena;
            te_patch_plan stub, *q;
            if (ah[i] * aw[j] < 2)
                continue;
            if (code0 > s->flash || next_cost(s, ns->floor, code0) >= nx->best_cost)
                break; /* finer columns: more calls */
            cell = (cell + TE_ARENA_ALIGN - 1) & ~(size_t)(TE_ARENA_ALIGN - 1);
            next_stub(&stub, ns, start, ah[i], aw[j], cell);
            if (next_cost(s, chain_arena(s, sd, first, &stub, 0), code0) >= nx->best_cost)
                continue; /* a finer grid may still win */
            q = te_patch_memo_analyse(s->memo, s->g, start, ns->k, ah[i], aw[j], 0);
            if (!q)
                break; /* too fine for S */
            q->code_bytes = calls;
            arena = chain_arena(s, sd, first, q, 0);
            if (next_cost(s, arena, code0) >= nx->best_cost) {
                te_patch_plan_free(q);
                continue;
            }
            nx->tried++;
            if (te_patch_memo_estimate(s->memo, s->g, s->low, q) < 0 ||
                code1 + q->code_bytes > s->flash || extra1 + extra_of(q) > s->budget ||
                q->stack_bytes > s->stack) {
                te_patch_plan_free(q);
                break; /* finer columns: more code and recompute */
            }
            arena = chain_arena(s, sd, first, q, 1);
            if (arena != (size_t)-1 && arena < s->best_arena &&
                next_cost(s, arena, code1 + q->code_bytes) < nx->best_cost) {
                te_patch_plan_free(nx->best);
                nx->best = q;
                nx->best_arena = arena;
                nx->best_cost = next_cost(s, arena, code1 + q->code_bytes);
                if (arena <= ns->floor)
                    return; /* the length's floor: other grids add only cells */
            } else {
                te_patch_plan_free(q);
            }
        }
}

/* Orders second-stage lengths by floor, then length. */
static int next_cmp(const void *a, const void *b)
{
    const next_stage *x = a, *y = b;
    if (x->floor != y->floor)
        return x->floor < y->floor ? -1 : 1;
    return x->k - y->k;
}

/* A stage from schedule position `start` after `first` (NULL: a lone
 * stage, search_lone), k_min..k_max operators long (start + k_max at most
 * n_live), that lowers s->best_arena within the limits, or NULL; its
 * arena (both stages') into *arena.  what: the stage in --explain lines. */
static te_patch_plan *search_from(search *s, const te_patch_plan *first, int start, int k_min,
                                  int k_max, const char *what, size_t *arena)
{
    te_patch_walk *w1 = first ? te_patch_walk_new_at(s->g, first->first, first->n_ops, 1, 1, NULL, 0)
                              : NULL;
    next_stage *nv = calloc((size_t)k_max + 1, sizeof *nv);
    next_search nx;
    const int64_t code1 = first ? first->code_bytes : 0;
    int n = 0, k, i;
    memset(&nx, 0, sizeof nx);
    nx.best_arena = s->best_arena;
    nx.best_cost = s->fit && s->best_arena <= s->fit ? 0 /* fits: nothing to gain */
                                                      : next_cost(s, s->best_arena, code1);
    if (s->next_bar && s->next_bar < nx.best_cost)
        nx.best_cost = s->next_bar; /* a stage above it is not kept anyway */
    for (k = k_min; (w1 || !first) && nv && nx.best_cost > 0 && k <= k_max; k++) {
        te_patch_walk *w = te_patch_walk_new_at(s->g, start, k, 1, 1, NULL, 0);
        staged sd;
        te_patch_plan stub;
        if (!w)
            continue;
        nv[n].k = k;
        nv[n].s = w->s;
        nv[n].h = s->g->tensors[w->s].shape[1];
        nv[n].w = s->g->tensors[w->s].shape[2];
        nv[n].n_cuts = w->n_cuts;
        memcpy(nv[n].cuts, w->cuts, sizeof nv[n].cuts);
        memset(&sd, 0, sizeof sd);
        sd.prev = w1;
        staged_new(&sd, s->g, s->low, w, 0);
        next_stub(&stub, &nv[n], start, 1, 1, 0);
        nv[n].floor = sd.n ? chain_arena(s, &sd, first, &stub, 0) : (size_t)-1;
        staged_free(&sd);
        te_patch_walk_free(w);
        if (nv[n].floor < s->best_arena)
            n++;
    }
    if (nv)
        qsort(nv, (size_t)n, sizeof *nv, next_cmp);
    for (i = 0; i < n && !(nx.best && nx.best_arena <= nv[0].floor); i++) {
        te_patch_walk *w; /* (stops once a plan reaches the lowest floor) */
        staged sd;
        if (next_cost(s, nv[i].floor, code1) >= nx.best_cost)
            continue;
        w = te_patch_walk_new_at(s->g, start, nv[i].k, 1, 1, NULL, 0);
        memset(&sd, 0, sizeof sd);
        sd.prev = w1;
        if (w)
            staged_new(&sd, s->g, s->low, w, 1);
        te_patch_walk_free(w);
        if (sd.n)
            try_next_stage(s, first, start, &nv[i], &sd, &nx);
        staged_free(&sd);
    }
    if (nx.best)
        explain(s->po, "%s: %d operators from step %d in %dx%d patches, arena %zu "
                       "(%zu without it; %d lengths below it, %d grids estimated)",
                what, nx.best->n_ops, start, nx.best->grid_h, nx.best->grid_w, nx.best_arena,
                s->best_arena, n, nx.tried);
    else if (first)
        explain(s->po, "%s: none from step %d lowers the arena %zu within the limits "
                       "(%d lengths below it, %d grids estimated)", what, start, s->best_arena, n,
                nx.tried);
    te_patch_walk_free(w1);
    free(nv);
    *arena = nx.best_arena;
    return nx.best;
}

/* The second stage for s->best (the first stage, arena s->best_arena), or
 * NULL when none lowers the arena within the limits. */
static te_patch_plan *search_next(search *s, int n_live, size_t *arena)
{
    const int start = s->best->first + s->best->n_ops;
    return search_from(s, s->best, start, 1, n_live - start - 1, "second stage", arena);
}

/* ---- A lone stage later in the network: the peak may be far from the
 * input (a decoder's upsampled maps, a depth or segmentation head), or a
 * short stage after operators better run whole (a float input's QUANTIZE,
 * in place) may beat the first stages.  The stages tried cover the
 * layer-by-layer peak step (a stage elsewhere leaves that step's tensors
 * whole), start at most TE_PATCH_LONE_SPAN steps before it and end at most
 * that many after it (half as many when a first stage was found: there
 * the lone stage rarely wins, and the search runs on every model), the
 * network's last operator included; the tensors made before a stage are
 * read whole, as a second stage reads them.  The lone stage replaces the
 * plan found when its arena is lower and it costs less by the thrift rule
 * (under an SRAM budget: when that plan does not fit), as a second stage
 * does. */
#define TE_PATCH_LONE_SPAN 12

/* The bytes live at each schedule step of g's layer-by-layer plan (quick
 * placement) into a new array of *n (NULL when out of memory), and the
 * step with the most into *peak. */
static size_t *live_bytes(const search *s, int *n, int *peak)
{
    te_diag d;
    te_plan *p;
    size_t *live = NULL;
    int step;
    memset(&d, 0, sizeof d);
    *peak = -1;
    p = te_plan_build_quick(s->g, s->low, &d);
    if (p && (live = calloc((size_t)p->n_steps + 1, sizeof *live)) != NULL) {
        for (step = 0; step < p->n_steps; step++) {
            live[step] = te_plan_live_bytes(p, step);
            if (*peak < 0 || live[step] > live[*peak])
                *peak = step;
        }
        *n = p->n_steps;
    }
    te_plan_free(p);
    return live;
}

/* The most bytes live at steps [a, b) of live, 0 when none. */
static size_t most_live(const size_t *live, int a, int b)
{
    size_t most = 0;
    for (; a < b; a++)
        if (live[a] > most)
            most = live[a];
    return most;
}

/* The best lone stage into s->best when it costs less than the plan s
 * holds (the thrift rule: a lower arena worth its code; under an SRAM
 * budget a lower arena, only when that plan does not fit). */
static void search_lone(search *s, int n_live)
{
    int n_steps = 0, peak;
    size_t *live = live_bytes(s, &n_steps, &peak);
    const int span = s->best ? TE_PATCH_LONE_SPAN / 2 : TE_PATCH_LONE_SPAN;
    int start, lo = peak - span < 1 ? 1 : peak - span;
    te_patch_plan *best = NULL;
    size_t best_arena = s->best_arena;
    te_patch_opts quiet = *s->po;
    const te_patch_opts *po = s->po;
    const int64_t bar = s->best && !s->fit ? next_cost(s, s->best_arena, s->best->code_bytes) : 0;
    quiet.explain = NULL;
    if (peak < 1 || n_steps != n_live) {
        free(live);
        return;
    }
    s->po = &quiet;
    for (start = peak; start >= lo; start--) {
        size_t arena;
        int k_min = peak - start + 1, k_max = peak + span - start + 1;
        te_patch_plan *q;
        /* the steps outside the stage keep their layer-by-layer tensors (a
         * stage only adds the outputs it stores on their own): a stage
         * whose outside already holds as many bytes as the arena to beat
         * cannot win */
        if (most_live(live, 0, start) >= best_arena)
            continue;
        if (start + k_max > n_live)
            k_max = n_live - start;
        while (k_min <= k_max && most_live(live, start + k_min, n_live) >= best_arena)
            k_min++;
        if (k_min > k_max)
            continue;
        s->next_bar = best ? next_cost(s, best_arena, best->code_bytes) : bar;
        q = search_from(s, NULL, start, k_min, k_max, "lone stage", &arena);
        if (q) {
            te_patch_plan_free(best);
            best = q;
            best_arena = arena;
        }
    }
    s->po = po;
    s->next_bar = 0;
    free(live);
    if (!best) {
        explain(po, "no stage around the peak step %d (steps %d..%d) lowers the arena", peak, lo,
                peak + span);
        return;
    }
    explain(po, "lone stage: %d operators from step %d in %dx%d patches, arena %zu (peak step %d)",
            best->n_ops, best->first, best->grid_h, best->grid_w, best_arena, peak);
    best->lone = 1;
    te_patch_plan_free(s->best);
    s->best = best;
    s->best_arena = best_arena;
}

/* Most finer first-stage grids re-searched with a second stage each (each
 * is a second-stage search: 8 keep the compile time of mit_mcunet's
 * --patch auto within 2x of one stage's; 16 would reach 2.8x). */
#define TE_PATCH_RESEARCH_MAX 8

/* With a second stage the first stage's peak may set the arena: finer
 * grids of the first stage (same length, within the limits, as plan_within),
 * each with the second stage search_next finds for it, replace s->best
 * (both stages) when the arena is strictly lower and the pair costs less by
 * the thrift rule (the arena alone under an SRAM budget).  Without a budget
 * search_next looks only for second stages below the best pair so far
 * (next_bar): those above it would not be kept.  Rows of finer
 * grids stop at the first over the limits; at most TE_PATCH_RESEARCH_MAX
 * grids are tried. */
static void research_first(search *s, int n_live)
{
    const te_patch_plan *top = s->best; /* (both stages) */
    int ah[TE_PATCH_MAX_GRID], aw[TE_PATCH_MAX_GRID], nh, nw, i, j, tries = 0;
    te_patch_plan *best = NULL;
    size_t best_arena = s->best_arena;
    int64_t best_cost = next_cost(s, s->best_arena, top->code_bytes);
    te_patch_opts quiet = *s->po; /* one line below says what it kept */
    te_patch_walk *w = te_patch_walk_new_at(s->g, top->first, top->n_ops, 1, 1, NULL, 0);
    staged sd; /* the first stage's storage decisions, once (as plan_within's) */
    memset(&sd, 0, sizeof sd);
    if (w)
        staged_new(&sd, s->g, s->low, w, 1);
    te_patch_walk_free(w);
    quiet.explain = NULL;
    nh = axis_grids(s->g->tensors[top->out_tensor].shape[1], ah);
    nw = axis_grids(s->g->tensors[top->out_tensor].shape[2], aw);
    for (i = 0; i < nh && tries < TE_PATCH_RESEARCH_MAX; i++) {
        if (ah[i] < top->grid_h)
            continue;
        for (j = 0; j < nw && tries < TE_PATCH_RESEARCH_MAX; j++) {
            search s1 = *s;
            size_t arena1, arena2;
            te_patch_plan *q, *next;
            if (aw[j] < top->grid_w || (ah[i] == top->grid_h && aw[j] == top->grid_w))
                continue;
            tries++;
            q = sd.n ? te_patch_memo_analyse(s->memo, s->g, top->first, top->n_ops, ah[i], aw[j],
                                             top->cache)
                     : NULL;
            arena1 = q ? estimate_arena(s->g, s->low, s->ws, &sd, q, 1) : (size_t)-1;
            if (q && (arena1 >= s->baseline || te_patch_memo_estimate(s->memo, s->g, s->low, q) < 0 ||
                      q->code_bytes > s->flash || extra_of(q) > s->budget ||
                      q->stack_bytes > s->stack)) {
                te_patch_plan_free(q);
                q = NULL;
            }
            if (!q)
                break; /* over the limits (or the cells): finer columns too */
            s1.best = q;
            s1.best_arena = arena1;
            if (!s->fit) { /* the pair must beat the best pair so far, not only q alone */
                s1.best_arena = arena1 < best_arena ? arena1 : best_arena;
                s1.next_bar = best_cost;
            }
            s1.po = &quiet;
            next = search_next(&s1, n_live, &arena2);
            if (next) {
                q->next = next;
                arena1 = arena2;
                if (te_patch_memo_estimate(s->memo, s->g, s->low, q) < 0)
                    arena1 = (size_t)-1;
            }
            if (arena1 < best_arena && next_cost(s, arena1, q->code_bytes) < best_cost) {
                te_patch_plan_free(best);
                best = q;
                best_arena = arena1;
                best_cost = next_cost(s, arena1, q->code_bytes);
            } else {
                te_patch_plan_free(q);
            }
        }
    }
    staged_free(&sd);
    if (!best)
        return;
    explain(s->po, "first stage re-searched with a second: first %d operators in %dx%d patches%s, "
                   "arena %zu (was %zu with %dx%d)", best->first + best->n_ops, best->grid_h,
            best->grid_w,
            best->next ? " and a second stage" : "", best_arena, s->best_arena, top->grid_h,
            top->grid_w);
    te_patch_plan_free(s->best);
    s->best = best;
    s->best_arena = best_arena;
}

/* The first stage's lengths and grids, analysed with halo caching level
 * `cache` (0: none, TE_PATCH_CACHE_*), into s->best / s->best_arena
 * (pruned against the best plan s holds already); stages: find_stages'.
 * The caching pass is quiet about the stages the first pass explained. */
static void first_stages(search *s, stage *stages, int n, int cache)
{
    const te_patch_opts *po = s->po;
    int i;
    s->cache = cache;
    if (cache)
        explain(po, "with halo caching (as much as keeps the scratch of none):");
    for (i = 0; i < n; i++) {
        stage *st = &stages[i];
        if (st->k < s->min_k || (s->min_k && st->k > s->min_k + 2))
            continue;
        if (st->floor >= s->baseline && !cache)
            explain(po, "first %d operators: peak not lower with any grid (arena at least "
                        "%zu, %zu layer by layer)", st->k, st->floor, s->baseline);
        else if (!may_win(st->floor, s->best_quick, s->fit) && !cache)
            explain(po, "first %d operators: no grid below the best plan so far (arena at "
                        "least %zu, best %zu)", st->k, st->floor, s->best_quick);
        else if (st->floor < s->baseline && may_win(st->floor, s->best_quick, s->fit))
            try_stage(s, st);
    }
    s->cache = 0;
}

/* After the first stage: the thrift rule, then a second stage. */
static void finish(search *s, stage *stages, int n, int n_live)
{
    thrift(s, stages, n);
    if (s->best) { /* a second stage after it, when it lowers the arena */
        size_t arena2;
        te_patch_plan *next = search_next(s, n_live, &arena2);
        if (next) {
            s->best->next = next;
            s->best_arena = arena2;
            te_patch_memo_estimate(s->memo, s->g, s->low, s->best); /* both stages' instructions and code */
            research_first(s, n_live);
        }
    }
}

/* Halo caching (patch_cache.c) on the first stage: the search again (c,
 * a copy of s before the first stage's) with every grid analysed with the
 * caching that keeps the patch's working memory (TE_PATCH_CACHE_LEAN);
 * its plan replaces s's only when it caches and beats it by the same rules
 * (a lower arena, or an equal one with fewer extra instructions; the
 * thrift rule). */
static void search_cached(search *s, search c, stage *stages, int n, int n_live,
                          size_t first_arena)
{
    if (s->po->no_cache_pass)
        return;
    if (!s->over_budget) {
        explain(s->po, "no halo caching: no grid was over --max-recompute");
        return;
    }
    first_stages(&c, stages, n, TE_PATCH_CACHE_LEAN);
    /* a first stage above the other's alone (first_arena) stays above it with
     * any second stage: not worth the second stage's search */
    if (c.best && c.best->cache && c.best_arena <= first_arena)
        finish(&c, stages, n, n_live);
    if (c.best && c.best->cache &&
        better(c.best_arena, extra_of(c.best), s->best, s->best_arena, s->fit) &&
        (s->fit || thrift_cost(c.best, c.best_arena) < thrift_cost(s->best, s->best_arena))) {
        explain(s->po, "halo caching kept: arena %zu (%zu without), ~%.0f extra instructions "
                       "(%.0f without)", c.best_arena, s->best_arena, extra_of(c.best),
                extra_of(s->best));
        te_patch_plan_free(s->best);
        s->best = c.best;
        s->best_arena = c.best_arena;
    } else {
        te_patch_plan_free(c.best);
    }
}

te_patch_plan *te_patch_search(const te_graph *g, const te_lowered *low, const te_patch_opts *po,
                               size_t baseline, size_t fit, size_t *arena_out)
{
    search s, c;
    te_plan_scratch ws;
    stage *stages = NULL;
    size_t first_arena;
    int n_live = 0, n, i;
    memset(&s, 0, sizeof s);
    memset(&ws, 0, sizeof ws);
    s.ws = &ws;
    s.g = g;
    s.low = low;
    s.po = po;
    s.baseline = s.best_arena = s.best_quick = baseline;
    s.fit = fit;
    s.model = model_instructions(g, low, te_cost_model_name(g->target));
    s.budget = po->max_recompute * s.model;
    s.flash = te_patch_flash_left(g);
    s.call_bytes = te_cost_call_code(te_cost_model_name(g->target));
    s.stack = stack_allowed(g, low);
    s.memo = te_patch_memo_new(); /* NULL: each analysis runs every time */
    for (i = 0; i < g->n_ops; i++)
        n_live += !g->ops[i].dead;
    n = find_stages(&s, n_live, &stages);
    c = s;
    first_stages(&s, stages, n, 0);
    c.min_k = s.best ? s.best->first + s.best->n_ops : 0;
    first_arena = s.best_arena;
    finish(&s, stages, n, n_live);
    search_cached(&s, c, stages, n, n_live, first_arena);
    search_lone(&s, n_live);
    free(stages);
    te_patch_memo_free(s.memo);
    te_plan_scratch_free(&ws);
    if (po->explain && s.best) {
        char what[256];
        te_patch_describe(s.best, what, sizeof what);
        explain(po, "kept: %s, arena %zu; patches add ~%lld bytes of code (flash budget %lld)",
                what, s.best_arena, (long long)s.best->code_bytes, (long long)s.flash);
    } else if (po->explain)
        explain(po, "kept: layer by layer, arena %zu", s.best_arena);
    if (arena_out)
        *arena_out = s.best ? s.best_arena : baseline;
    return s.best;
}

/* One stage "K:HxW" or "K:HxW:cache" at s (n characters): 0 and its
 * values, or -1. */
static int parse_stage(const char *s, size_t n, int *k, int *h, int *w, int *cache)
{
    static const char suffix[] = ":cache";
    const size_t ns = sizeof suffix - 1;
    char buf[48], tail;
    *cache = n > ns && !memcmp(s + n - ns, suffix, ns);
    if (*cache)
        n -= ns;
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (sscanf(buf, "%d:%dx%d%c", k, h, w, &tail) == 3 && *k > 0 && *h > 0 && *w > 0 &&
        *h * *w >= 2 && *h <= TE_PATCH_MAX_GRID && *w <= TE_PATCH_MAX_GRID)
        return 0;
    return -1;
}

/* "K@F:HxW[:cache]": a lone stage from step F, into p (explicit form). */
static int parse_lone(const char *s, te_patch_opts *p)
{
    char head[64];
    const char *at = strchr(s, '@'), *colon = at ? strchr(at, ':') : NULL;
    int k, f;
    char tail;
    if (!at || !colon || strchr(s, '+') || colon - s >= 40 || strlen(colon) > 40)
        return -1;
    memcpy(head, s, (size_t)(colon - s));
    head[colon - s] = 0;
    if (sscanf(head, "%d@%d%c", &k, &f, &tail) != 2 || k < 1 || f < 1)
        return -1;
    snprintf(head, sizeof head, "%d%.40s", k, colon); /* "K:HxW[:cache]" */
    if (parse_stage(head, strlen(head), &p->n_ops, &p->grid_h, &p->grid_w, &p->cache) < 0)
        return -1;
    p->mode = TE_PATCH_EXPLICIT;
    p->from = f;
    p->n_ops2 = p->grid_h2 = p->grid_w2 = p->cache2 = 0;
    return 0;
}

int te_patch_opts_parse(const char *s, te_patch_opts *p)
{
    int k, h, w, k2 = 0, h2 = 0, w2 = 0, c = 0, c2 = 0;
    const char *plus;
    if (!s || !strcmp(s, "off")) {
        p->mode = TE_PATCH_OFF;
        return 0;
    }
    if (!strcmp(s, "auto")) {
        p->mode = TE_PATCH_AUTO;
        return 0;
    }
    if (strchr(s, '@'))
        return parse_lone(s, p);
    plus = strchr(s, '+');
    if (parse_stage(s, plus ? (size_t)(plus - s) : strlen(s), &k, &h, &w, &c) < 0 ||
        (plus && parse_stage(plus + 1, strlen(plus + 1), &k2, &h2, &w2, &c2) < 0))
        return -1;
    p->cache = c;
    p->cache2 = c2;
    p->mode = TE_PATCH_EXPLICIT;
    p->from = 0;
    p->n_ops = k;
    p->grid_h = h;
    p->grid_w = w;
    p->n_ops2 = k2;
    p->grid_h2 = h2;
    p->grid_w2 = w2;
    return 0;
}

void te_patch_opts_format(const te_patch_opts *p, char *buf, size_t n)
{
    const char *c = p->cache ? ":cache" : "", *c2 = p->cache2 ? ":cache" : "";
    if (p->from > 0)
        snprintf(buf, n, "%d@%d:%dx%d%s", p->n_ops, p->from, p->grid_h, p->grid_w, c);
    else if (p->n_ops2 > 0)
        snprintf(buf, n, "%d:%dx%d%s+%d:%dx%d%s", p->n_ops, p->grid_h, p->grid_w, c, p->n_ops2,
                 p->grid_h2, p->grid_w2, c2);
    else
        snprintf(buf, n, "%d:%dx%d%s", p->n_ops, p->grid_h, p->grid_w, c);
}
