/* compiler.c - the pipeline: frontend -> passes -> lowering and planning
 * of the candidate storage decisions (the smallest arena wins) -> patch
 * stage (a derived graph, planned the same way) -> codegen.  After the
 * passes (run_passes) the model's graph is only read (const te_graph *),
 * but for its order: the candidate orders are planned on it in turn
 * (plan_best_order, patch_best_tail). */
#include "compiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "frontend/tflite_reader.h"
#include "ops/flash_budget.h"
#include "ops/ops.h"
#include "passes/passes.h"
#include "plan/schedule.h"

/* One plan candidate: storage decisions st, lowered once (options o with
 * st) and planned; it owns all three. */
typedef struct {
    te_storage *st;
    te_lowered *low;
    te_plan *plan;
} candidate;

static void candidate_free(candidate *c)
{
    te_plan_free(c->plan);
    te_lowered_free(c->low);
    te_storage_free(c->st);
    c->plan = NULL;
    c->low = NULL;
    c->st = NULL;
}

/* 0, or -1 with d set (c left empty).  st: the candidate's storage
 * decisions (taken over, also on failure).  prev: an earlier candidate of
 * this graph whose graph-only decisions may be reused (or NULL). */
static int plan_candidate(const te_graph *g, te_storage *st, const te_lower_opts *o,
                          const te_lowered *prev, candidate *c, te_diag *d)
{
    te_lower_opts lo = *o;
    lo.st = st;
    c->st = st;
    c->low = st ? te_lower_graph(g, &lo, prev, d) : NULL;
    c->plan = c->low ? te_plan_build(g, c->low, d) : NULL;
    if (!c->plan) {
        if (!st)
            te_fail(d, "out of memory");
        candidate_free(c);
        return -1;
    }
    return 0;
}

/* Into c (empty or a plan), the plan of storage decisions alt (taken over;
 * NULL: none) when it is the smaller; prev as for plan_candidate. */
static void keep_smaller(const te_graph *g, te_storage *alt, const te_lower_opts *o,
                         const te_lowered *prev, candidate *c)
{
    candidate other;
    te_diag quiet = {{0}, 0};
    if (!alt)
        return;
    if (plan_candidate(g, alt, o, prev, &other, &quiet) == 0 &&
        (!c->plan || other.plan->arena_bytes < c->plan->arena_bytes)) {
        candidate_free(c);
        *c = other;
        return;
    }
    candidate_free(&other);
}

/* Plans storage decisions st (in place where pass_inplace.c put it); if
 * the placement then comes out larger than planning without in-place
 * links (merged buffers can fragment the arena), or without those whose
 * output is the smaller, or without the row-by-row convolutions' links
 * (te_lowered_without_bands), keeps the smaller plan.  When in place wins after
 * all, the links are the ones pass_inplace.c makes on st without them
 * (st's own when st came from it; with the links only tried when `trial`:
 * te_pass_inplace_trial). */
static int plan_inplace(const te_graph *g, const te_storage *st, int trial,
                        const te_lowered *prev, const te_lower_opts *o, candidate *best,
                        te_diag *d)
{
    candidate with, alt;
    te_storage *redo;
    int t;
    if (plan_candidate(g, te_storage_copy(st), o, prev, &with, d) < 0)
        return -1;
    if (!te_storage_any(st, TE_STORE_INPLACE) ||
        with.plan->arena_bytes <= with.plan->bound_no_inplace) {
        *best = with;
        return 0;
    }
    memset(&alt, 0, sizeof alt);
    keep_smaller(g, te_inplace_without(g, st), o, with.low, &alt);
    keep_smaller(g, te_inplace_without_shrinking(g, st), o, with.low, &alt);
    keep_smaller(g, te_lowered_without_bands(with.low, g, st), o, with.low, &alt);
    if (alt.plan && alt.plan->arena_bytes < with.plan->arena_bytes) {
        alt.plan->bound_no_inplace = with.plan->bound_no_inplace;
        candidate_free(&with);
        *best = alt;
        return 0;
    }
    candidate_free(&alt);
    redo = te_inplace_without(g, st);
    if (redo && trial)
        te_pass_inplace_trial(g, redo);
    else if (redo)
        te_pass_inplace(g, redo);
    if (redo && te_storage_equal(redo, st)) {
        te_storage_free(redo);
        *best = with;
        return 0;
    }
    t = plan_candidate(g, redo, o, with.low, best, d);
    candidate_free(&with);
    return t;
}

/* plan_inplace() of st without the in-place links only tried
 * (te_op_def.inplace_on_trial), then of st's with them (te_pass_inplace_trial
 * on st without in-place links, when that differs): those are kept only
 * when the arena comes out strictly smaller. */
static int plan_best(const te_graph *g, const te_storage *st, const te_lower_opts *o,
                     const te_lowered *prev, candidate *best, te_diag *d)
{
    te_storage *base = te_storage_copy(st), *tried = te_inplace_without(g, st);
    candidate alt;
    int rc = -1;
    if (!base || !tried) {
        te_fail(d, "out of memory");
        goto out;
    }
    te_pass_inplace_untry(g, base);
    te_pass_inplace_trial(g, tried);
    if (plan_inplace(g, base, 0, prev, o, best, d) < 0)
        goto out;
    rc = 0;
    if (te_storage_equal(tried, base))
        goto out;
    if (plan_inplace(g, tried, 1, best->low, o, &alt, d) < 0) {
        candidate_free(best);
        rc = -1;
    } else if (alt.plan->arena_bytes < best->plan->arena_bytes) {
        candidate_free(best);
        *best = alt;
    } else {
        candidate_free(&alt);
    }
out:
    te_storage_free(base);
    te_storage_free(tried);
    return rc;
}

/* The storage decisions of concatenation slice choice 0 (with work areas
 * for the kernels writing them) or 1 (without; both: slices where
 * pass_concat.c can make them) or 2 (no slices), in place where
 * pass_inplace.c can; NULL when out of memory. */
static te_storage *slice_storage(const te_graph *g, int choice)
{
    te_storage *st = te_storage_new(g);
    if (!st)
        return NULL;
    if (choice < 2)
        te_pass_concat_slices(g, st);
    te_pass_inplace(g, st);
    return st;
}

/* plan_best() of slice choice `choice` (slice_storage). */
static int plan_slices(const te_graph *g, int choice, const te_lowered *prev, candidate *c,
                       te_diag *d)
{
    te_lower_opts o = {0};
    te_storage *st = slice_storage(g, choice);
    int rc;
    if (!st)
        return te_fail(d, "out of memory");
    o.slice_no_work = choice == 1;
    rc = plan_best(g, st, &o, prev, c, d);
    te_storage_free(st);
    return rc;
}

/* 1 if (st, o) are the decisions of slice choice 0. */
static int is_choice_0(const te_graph *g, const te_storage *st, const te_lower_opts *o)
{
    te_storage *c0 = o->slice_no_work ? NULL : slice_storage(g, 0);
    int same = c0 && te_storage_equal(c0, st);
    te_storage_free(c0);
    return same;
}

static void candidates_free(candidate *c, int n)
{
    int i;
    for (i = 0; i < n; i++)
        candidate_free(&c[i]);
}

/* plan_best() with the storage decisions st (and its concatenation
 * slices), then without work areas for the slices, and without them: a
 * slice makes the concatenation's output live from its first producer on,
 * which can raise the peak in between.  Keeps the smallest arena, the
 * earlier choice on a tie (the slices save the copies, the work areas
 * time); when that is the first and st are not the decisions of slice
 * choice 0 (a patch stage kept a layer-by-layer plan's), choice 0 itself.
 * o: the lowering options of st's slices. */
static int plan_graph(const te_graph *g, const te_storage *st, const te_lower_opts *o,
                      candidate *c, te_diag *d)
{
    candidate cand[3];
    int choice, best = 0;
    memset(cand, 0, sizeof cand);
    if (plan_best(g, st, o, NULL, &cand[0], d) < 0)
        return -1;
    if (!te_storage_any(st, TE_STORE_SLICE)) {
        *c = cand[0];
        return 0;
    }
    for (choice = 1; choice <= 2; choice++) {
        if (plan_slices(g, choice, cand[choice - 1].low, &cand[choice], d) < 0) {
            candidates_free(cand, 3);
            return -1;
        }
        if (cand[choice].plan->arena_bytes < cand[best].plan->arena_bytes)
            best = choice;
    }
    if (best == 0 && !is_choice_0(g, st, o)) {
        candidate_free(&cand[0]);
        if (plan_slices(g, 0, cand[2].low, &cand[0], d) < 0) {
            candidates_free(cand, 3);
            return -1;
        }
    }
    *c = cand[best];
    memset(&cand[best], 0, sizeof cand[best]);
    candidates_free(cand, 3);
    return 0;
}

/* 1 if a kernel of c takes scratch that only saves it time. */
static int any_speed_scratch(const candidate *c)
{
    int i;
    for (i = 0; i < c->low->n_ops + c->low->n_clones; i++)
        if (c->low->ops[i].speed_scratch)
            return 1;
    return 0;
}

/* plan_graph(), and again without speed-only scratch when c has some:
 * keeps that plan when its arena is smaller (memory first; the kernels
 * then compute the pixels the scratch served directly). */
static int plan_model(const te_graph *g, const te_storage *st, const te_lower_opts *o,
                      candidate *c, te_diag *d)
{
    te_lower_opts lean = *o;
    candidate alt;
    if (plan_graph(g, st, o, c, d) < 0)
        return -1;
    if (o->no_speed_scratch || !any_speed_scratch(c))
        return 0;
    lean.no_speed_scratch = 1;
    if (plan_graph(g, st, &lean, &alt, d) < 0) {
        candidate_free(c);
        return -1;
    }
    if (alt.plan->arena_bytes < c->plan->arena_bytes) {
        candidate_free(c);
        *c = alt;
    } else {
        candidate_free(&alt);
    }
    return 0;
}

/* The model's plan becomes c's. */
static void set_plan(te_model *m, candidate *c)
{
    te_plan_free(m->plan);
    te_lowered_free(m->low);
    te_storage_free(m->st);
    m->plan = c->plan;
    m->low = c->low;
    m->st = c->st;
}

/* --sram-limit: one line naming the size reached and the layer setting it,
 * and the smallest arena patch-based execution reached (the search ran
 * before, driven by the limit). */
static int check_sram_limit(te_model *m, const te_compile_opts *o, te_diag *d)
{
    const te_plan *p = m->plan;
    int s, peak_step = 0;
    size_t peak = 0, limit = o ? o->sram_limit : 0, stack = te_model_stack(m).opt;
    const te_op *op;
    char hint[256] = "";
    size_t need = p->arena_bytes + p->state_bytes + stack;
    if (!limit || need <= limit)
        return 0;
    if (p->arena_bytes <= limit)
        return te_fail(d, "does not fit --sram-limit %zu: needs %zu bytes of SRAM (arena %zu + "
                       "state %zu + stack %zu)", limit, need, p->arena_bytes, p->state_bytes, stack);
    for (s = 0; s < p->n_steps; s++) {
        size_t live = te_plan_live_bytes(p, s);
        if (live > peak) {
            peak = live;
            peak_step = s;
        }
    }
    if (p->n_steps == 0)
        return te_fail(d, "does not fit --sram-limit %zu: needs %zu bytes of SRAM (arena %zu + "
                       "state %zu + stack %zu)", limit, need, p->arena_bytes, p->state_bytes, stack);
    if (m->g->patch) {
        char what[160];
        te_patch_describe(m->g->patch, what, sizeof what);
        snprintf(hint, sizeof hint, " (with the smallest patch-based plan found: %s)", what);
    }
    else if (o->patch.mode != TE_PATCH_EXPLICIT)
        snprintf(hint, sizeof hint, "; no patch-based plan needs less");
    op = &m->g->ops[p->schedule[peak_step]];
    return te_fail(d,
                   "does not fit --sram-limit %zu: best plan needs %zu bytes (arena %zu, state %zu, "
                   "stack %zu); the peak (%zu bytes live) is at %s (op %d)%s",
                   limit, need, p->arena_bytes, p->state_bytes, stack, peak,
                   te_opcode_name(op->opcode), op->index, hint);
}

/* --flash-limit: one line when the model does not fit even with int8
 * weights and no inlined kernels (the estimate of te_flash_base_estimate). */
static int check_flash_limit(const te_model *m, te_diag *d)
{
    const te_graph *g = m->g;
    int64_t base;
    if (!g->flash_limit)
        return 0;
    base = te_flash_base_estimate(g);
    if (base <= (int64_t)g->flash_limit)
        return 0;
    return te_fail(d,
                   "does not fit --flash-limit %zu: needs about %lld bytes of flash (%zu of "
                   "weights, about %lld of code and tables)",
                   g->flash_limit, (long long)base, te_model_weights_bytes(m),
                   (long long)te_flash_code_estimate(g));
}

/* --patch K:HxW under --flash-limit: one line when the patches' code does
 * not fit the flash the model leaves (the bound --patch auto keeps to).
 * Under the default limit (a guess, not the user's) the plan asked for is
 * built and `info` and the compile summary say how far over it is. */
static int check_patch_flash(const te_graph *g, const te_patch_opts *po, const te_patch_plan *p,
                             te_diag *d)
{
    const int64_t left = te_patch_flash_left(g);
    char spec[64];
    if (!g->flash_limit || p->code_bytes <= left)
        return 0;
    te_patch_opts_format(po, spec, sizeof spec);
    return te_fail(d, "--patch %s: the patches add ~%lld bytes of code, over the flash "
                   "budget by %lld (--flash-limit %lld, the model ~%lld): use fewer patches or "
                   "a larger --flash-limit", spec,
                   (long long)p->code_bytes, (long long)(p->code_bytes - left),
                   (long long)te_flash_limit(g), (long long)te_flash_base_estimate(g));
}

/* 0 when every clone of dg's patches takes at most the scratch the micro
 * plan gave it (te_patch_step.scratch_bytes), else -1 with d set. */
static int check_clone_scratch(const te_graph *dg, const te_lowered *low, te_diag *d)
{
    const te_patch_plan *p = dg->patch;
    int i;
    for (i = 0; i < p->n_steps; i++) {
        const te_patch_step *s = &p->steps[i];
        const te_lowering *l =
            s->kind == TE_PSTEP_OP ? te_lowered_find(low, dg, &p->clones[s->clone]) : NULL;
        if (l && (l->scratch_bytes > s->scratch_bytes || l->inplace_input != s->inplace_input))
            return te_op_fail(d, &p->clones[s->clone], "its patch clone takes %zu bytes of "
                              "scratch, planned %zu (internal error)", l->scratch_bytes,
                              s->scratch_bytes);
    }
    return 0;
}

/* Position of the first operator after the last stage of chain p. */
static int chain_end(const te_patch_plan *p)
{
    while (p->next)
        p = p->next;
    return te_patch_stage_last(p) + 1;
}

/* --patch auto: the operators after the last stage of p's chain (the
 * stages' own operators keep their places: the chain was analysed on
 * them) in the order of another of te_schedule_candidates when the patched
 * graph's plan then has a strictly smaller arena (the first such on a
 * tie; one with more bytes alive at once is not planned); *dg and *c (the
 * patched graph, built on g as it is, and its plan) are replaced by that
 * order's.  A detector's heads written right after
 * their feature map free it before the layers after it.  Returns 1 when
 * it reordered g, else 0. */
static int patch_best_tail(te_graph *g, const te_patch_plan *p, const te_lower_opts *lo,
                           const te_patch_opts *po, te_graph **dg, candidate *c)
{
    static const te_lower_opts plain;
    te_schedule_orders orders;
    te_op *saved;
    const int from = chain_end(p);
    size_t before = c->plan->arena_bytes, peak;
    int k, best = 0, applied = 0;
    if (g->keep_order || te_schedule_candidates(g, from, &orders) < 0)
        return 0;
    peak = te_schedule_peak(g, from, orders.index[0], orders.n);
    saved = te_schedule_save(g);
    for (k = 1; k < orders.n_orders && saved; k++) {
        te_diag quiet = {{0}, 0};
        te_graph *dk;
        te_storage *st;
        candidate lbl, alt;
        if (te_schedule_peak(g, from, orders.index[k], orders.n) > peak ||
            te_schedule_apply_tail(g, from, orders.index[k], orders.n) != 1)
            continue;
        applied = k;
        g->content_key = te_flash_graph_key(g);
        st = slice_storage(g, 0); /* in-place links for this order */
        if (!st || plan_model(g, st, &plain, &lbl, &quiet) < 0) {
            te_storage_free(st);
            continue;
        }
        te_storage_free(st);
        dk = te_patch_graph(g, p, &quiet);
        st = dk ? te_patch_storage(dk, lbl.st) : NULL;
        candidate_free(&lbl);
        if (st && plan_graph(dk, st, lo, &alt, &quiet) == 0) {
            if (check_clone_scratch(dk, alt.low, &quiet) == 0 &&
                alt.plan->arena_bytes < c->plan->arena_bytes) {
                candidate_free(c);
                te_graph_free(*dg);
                *c = alt;
                *dg = dk; /* valid while g is in order k */
                dk = NULL;
                best = k;
            } else {
                candidate_free(&alt);
            }
        }
        te_storage_free(st);
        te_graph_free(dk);
    }
    if (applied != best && best == 0) {
        te_schedule_restore(g, saved); /* the order *dg was built on */
        saved = NULL;
    } else if (applied != best) {
        te_schedule_apply_tail(g, from, orders.index[best], orders.n);
    }
    g->content_key = te_flash_graph_key(g);
    free(saved);
    te_schedule_orders_free(&orders);
    if (best && po->explain) {
        char line[160];
        snprintf(line, sizeof line, "order: the operators after the stage reordered (arena %zu "
                 "instead of %zu)", c->plan->arena_bytes, before);
        po->explain(po->explain_ctx, line);
    }
    return best != 0;
}

/* Extra instructions of patched graph dg's stages (te_patch_estimate). */
static double patch_extra(const te_graph *dg)
{
    return dg->patch->patched_instructions - dg->patch->stage_instructions;
}

/* 1 when patched graph dk with plan k is the better choice than dg with
 * plan c, by te_patch_search's rules: under an arena budget `fit` the one
 * with fewer extra instructions of those that fit (the smaller arena of
 * equal ones), else the smaller arena; without, the smaller arena when its
 * code costs less than the SRAM it saves (the thrift rule,
 * TE_PATCH_FLASH_PER_BYTE), or the same arena with fewer extra
 * instructions and no more code. */
static int patched_better(const te_graph *dk, const candidate *k, const te_graph *dg,
                          const candidate *c, size_t fit)
{
    const size_t a = k->plan->arena_bytes, b = c->plan->arena_bytes;
    const double x = patch_extra(dk), y = patch_extra(dg);
    if (fit && a <= fit)
        return b > fit || x < y || (x == y && a < b);
    if (fit && b <= fit)
        return 0;
    if (a == b)
        return x < y && dk->patch->code_bytes <= dg->patch->code_bytes;
    if (fit)
        return a < b;
    return a < b && (int64_t)a * TE_PATCH_FLASH_PER_BYTE + dk->patch->code_bytes <
                        (int64_t)b * TE_PATCH_FLASH_PER_BYTE + dg->patch->code_bytes;
}

/* The arena te_patch_search must beat in another order: that order's
 * layer by layer (lbl), or with `tight` (and no arena budget) the arena
 * at which layer by layer there would cost as much as the plan kept (dg,
 * c) by the thrift rule, when lower: no plan at or above it can be
 * patched_better, and the search skips the stages and grids that cannot
 * go below it (a second stage lowering a first one above it is not
 * searched). */
static size_t search_bar(const candidate *lbl, const te_graph *dg, const candidate *c,
                         size_t fit, int tight)
{
    const size_t kept = c->plan->arena_bytes +
                        (size_t)(dg->patch->code_bytes / TE_PATCH_FLASH_PER_BYTE);
    return tight && !fit && kept < lbl->plan->arena_bytes ? kept : lbl->plan->arena_bytes;
}

/* --patch auto in g's current order (the stage chosen anew), the
 * operators after the stage reordered as patch_best_tail does: *dg and *c
 * (built on another order of g) are replaced by its plan when
 * patched_better (then 1; else 0, g left in this order or another tail
 * order: the caller puts back the one *dg was built on). */
static int patch_try_order(te_graph *g, const te_lower_opts *lo, const te_patch_opts *po,
                           size_t fit, int tight, te_graph **dg, candidate *c)
{
    static const te_lower_opts plain;
    te_patch_opts quiet = *po;
    te_diag d = {{0}, 0};
    te_patch_plan *p = NULL;
    te_graph *dk = NULL;
    te_storage *st = slice_storage(g, 0); /* in-place links for this order */
    candidate lbl, alt;
    int kept = 0;
    quiet.explain = NULL;
    quiet.no_cache_pass = 1;
    if (st && plan_model(g, st, &plain, &lbl, &d) == 0) {
        p = te_patch_search(g, lbl.low, &quiet, search_bar(&lbl, *dg, c, fit, tight), fit, NULL);
        dk = p ? te_patch_graph(g, p, &d) : NULL;
        te_storage_free(st);
        st = dk ? te_patch_storage(dk, lbl.st) : NULL;
        candidate_free(&lbl);
    }
    if (dk && st && plan_graph(dk, st, lo, &alt, &d) == 0) {
        if (check_clone_scratch(dk, alt.low, &d) == 0) {
            patch_best_tail(g, p, lo, &quiet, &dk, &alt);
            kept = patched_better(dk, &alt, *dg, c, fit);
        }
        if (kept) {
            candidate_free(c);
            te_graph_free(*dg);
            *c = alt;
            *dg = dk; /* valid while g stays in this order */
            dk = NULL;
        } else {
            candidate_free(&alt);
        }
    }
    te_storage_free(st);
    te_graph_free(dk);
    te_patch_plan_free(p);
    return kept;
}

/* --explain: the stage kept was found in another order than the first
 * search's (arena `before` there). */
static void explain_other_order(const te_patch_opts *po, const char *which, const te_graph *dg,
                                size_t arena, size_t before)
{
    char line[240];
    const te_patch_plan *q = dg->patch;
    if (!po->explain)
        return;
    snprintf(line, sizeof line, "order: stage found in %s: first %d operators in %dx%d "
             "patches%s, arena %zu instead of %zu", which, q->n_ops, q->grid_h, q->grid_w,
             q->next ? " and a second stage" : "", arena, before);
    po->explain(po->explain_ctx, line);
}

/* --patch auto after patch_best_tail reordered the operators after the
 * stage: the search once more in g's new order (patch_try_order: in the
 * reordered schedule another length, grid or second stage may reach a
 * lower arena); else g goes back to the order *dg was built on. */
static void patch_search_reordered(te_graph *g, const te_lower_opts *lo, const te_patch_opts *po,
                                   size_t fit, te_graph **dg, candidate *c)
{
    te_op *saved = te_schedule_save(g);
    const size_t before = c->plan->arena_bytes;
    if (!saved)
        return;
    if (patch_try_order(g, lo, po, fit, 0, dg, c)) {
        free(saved);
        explain_other_order(po, "the reordered schedule", *dg, c->plan->arena_bytes, before);
        return;
    }
    te_schedule_restore(g, saved); /* the order *dg was built on */
    g->content_key = te_flash_graph_key(g);
}

/* --patch auto: the search once more in each other candidate order of the
 * whole graph (te_schedule_candidates) that puts another operator before
 * the end of the kept plan's stages (there a stage of other operators may
 * run patch by patch; an order differing only after them is the tail
 * patch_best_tail tries), with patch_try_order's thrift bar; the best by
 * patched_better is kept, g left in its order. */
static void patch_search_orders(te_graph *g, const te_lower_opts *lo, const te_patch_opts *po,
                                size_t fit, te_graph **dg, candidate *c)
{
    te_schedule_orders orders;
    te_op *saved = te_schedule_save(g);
    const size_t before = c->plan->arena_bytes;
    int k, won = 0;
    if (!saved || g->keep_order || te_schedule_candidates(g, 0, &orders) < 0) {
        free(saved);
        return;
    }
    for (k = 1; k < orders.n_orders && saved; k++) {
        int at = 0;
        while (at < orders.n && orders.index[k][at] == orders.index[0][at])
            at++;
        if (at >= chain_end((*dg)->patch) || te_schedule_apply(g, orders.index[k], orders.n) < 0)
            continue;
        g->content_key = te_flash_graph_key(g);
        if (patch_try_order(g, lo, po, fit, 1, dg, c)) {
            free(saved);
            saved = te_schedule_save(g); /* the order *dg is built on */
            won = 1;
        }
    }
    if (saved) {
        te_schedule_restore(g, saved);
        g->content_key = te_flash_graph_key(g);
    }
    te_schedule_orders_free(&orders);
    if (won)
        explain_other_order(po, "another candidate order", *dg, c->plan->arena_bytes, before);
}

/* --patch: runs the first stage patch by patch when asked (explicit form)
 * or when the search finds a smaller arena (auto, or when layer by layer
 * does not fit the arena budget `fit`): m->g becomes a graph derived from
 * the source (te_patch_graph), planned anew; the source is only read.
 * Keeps the bound of plain layer-by-layer execution for the reports. */
static int apply_patches(te_model *m, const te_patch_opts *po, size_t fit, te_diag *d)
{
    const te_graph *g = m->source;
    te_graph *dg;
    te_patch_plan *p = NULL;
    te_patch_opts auto_on;
    te_lower_opts lo = m->low->opts;
    te_storage *st;
    candidate c;
    int rc;
    size_t bound = m->plan->bound_no_inplace;
    if (po->mode == TE_PATCH_OFF && fit && m->plan->arena_bytes > fit)
        auto_on = *po, auto_on.mode = TE_PATCH_AUTO, po = &auto_on; /* the limit drives it */
    if (g->has_guards && po->mode == TE_PATCH_EXPLICIT)
        return te_fail(d, "--patch: the model runs IF branches or WHILE loops, which "
                       "patch-based execution does not support");
    if (g->has_guards)
        return 0; /* operators under a guard or in a loop do not run patch by patch */
    if (po->mode == TE_PATCH_EXPLICIT) {
        p = te_patch_analyse_cache(g, po->from, po->n_ops, po->grid_h, po->grid_w, po->cache, d);
        if (!p)
            return -1;
        p->lone = po->from > 0;
        if (po->n_ops2 > 0 &&
            !(p->next = te_patch_analyse_cache(g, po->n_ops, po->n_ops2, po->grid_h2, po->grid_w2,
                                               po->cache2, d))) {
            te_patch_plan_free(p);
            return -1;
        }
        te_patch_estimate(g, m->low, p); /* the slowdown the reports state */
        if (check_patch_flash(g, po, p, d) < 0) {
            te_patch_plan_free(p);
            return -1;
        }
    } else if (po->mode == TE_PATCH_AUTO) {
        p = te_patch_search(g, m->low, po, m->plan->arena_bytes, fit, NULL);
        if (!p)
            return 0; /* nothing beats layer-by-layer */
    } else {
        return 0;
    }
    dg = te_patch_graph(g, p, d);
    if (!dg) {
        te_patch_plan_free(p);
        return -1;
    }
    st = te_patch_storage(dg, m->st);
    rc = st ? plan_graph(dg, st, &lo, &c, d) : te_fail(d, "out of memory");
    te_storage_free(st);
    if (rc == 0 && check_clone_scratch(dg, c.low, d) < 0) {
        candidate_free(&c);
        rc = -1;
    }
    if (rc == 0 && po->mode == TE_PATCH_AUTO && patch_best_tail(m->source, p, &lo, po, &dg, &c))
        patch_search_reordered(m->source, &lo, po, fit, &dg, &c);
    if (rc == 0 && po->mode == TE_PATCH_AUTO)
        patch_search_orders(m->source, &lo, po, fit, &dg, &c);
    te_patch_plan_free(p); /* dg has its own copy */
    if (rc < 0) {
        te_graph_free(dg);
        return -1;
    }
    m->g = dg;
    set_plan(m, &c);
    m->plan->bound_no_inplace = bound;
    return 0;
}

/* The arena budget --sram-limit leaves (0: none).  When layer by layer does
 * not fit, it also turns the patch search on (--patch auto then picks the
 * fastest plan that fits, not the smallest). */
static size_t patch_budget(const te_model *m, const te_compile_opts *o)
{
    size_t state = m->plan->state_bytes + te_model_stack(m).opt; /* and the stack */
    if (!o->sram_limit)
        return 0;
    return o->sram_limit > state ? o->sram_limit - state : 1;
}

/* The passes: the last writes to the model's graph (0, or -1 with d set).
 * patch_order: the order that lets the patch stage run longest
 * (te_schedule_for_patches); 1 when that is the memory order already. */
static int run_passes(te_graph *g, const te_compile_opts *o, int patch_order, te_diag *d)
{
    if (te_pass_fold_const(g, d) < 0 || te_pass_validate(g, d) < 0)
        return -1;
    g->target = o ? o->target : 0;
    g->flash_limit = o ? o->flash_limit : 0;
    if (o && o->int8_io)
        te_pass_int8_io(g);
    if (o && (o->patch.mode != TE_PATCH_OFF || o->sram_limit) && te_pass_split_slices(g, d) < 0)
        return -1;
    te_pass_dce(g);
    te_pass_fold_pad(g);
    te_pass_fold_dequantize(g);
    te_schedule_for_memory(g);
    if (patch_order && !te_schedule_for_patches(g))
        return 1; /* the same order: nothing else to try */
    te_pass_alias(g);
    g->content_key = te_flash_graph_key(g); /* final: the flash budget's memo keys on it */
    return 0;
}

/* The graph's order, or another of te_schedule_candidates when its plan
 * has a strictly smaller arena (the first such on a tie; an order with
 * more bytes alive at once, te_schedule_peak, is not planned): g is
 * reordered and c (g's plan in its current order) replaced.  0, or -1 with
 * d set (c freed). */
static int plan_best_order(te_graph *g, candidate *c, te_diag *d)
{
    static const te_lower_opts plain;
    te_schedule_orders orders;
    te_op *saved;
    size_t arena = c->plan->arena_bytes, peak;
    int k, best = 0, applied = 0, rc = 0;
    if (te_schedule_candidates(g, 0, &orders) < 0)
        return 0; /* out of memory: the order it has */
    peak = te_schedule_peak(g, 0, orders.index[0], orders.n);
    saved = te_schedule_save(g);
    for (k = 1; k < orders.n_orders && saved; k++) {
        te_storage *st;
        candidate alt;
        te_diag quiet = {{0}, 0};
        if (te_schedule_peak(g, 0, orders.index[k], orders.n) > peak)
            continue; /* more bytes alive at once: not planned */
        if (te_schedule_apply(g, orders.index[k], orders.n) < 0)
            break;
        applied = k;
        g->content_key = te_flash_graph_key(g);
        st = slice_storage(g, 0);
        if (!st || plan_model(g, st, &plain, &alt, &quiet) < 0) {
            te_storage_free(st);
            continue;
        }
        te_storage_free(st);
        if (alt.plan->arena_bytes < arena) {
            arena = alt.plan->arena_bytes;
            best = k;
            candidate_free(c);
            *c = alt; /* g's plan while g stays in order k */
        } else {
            candidate_free(&alt);
        }
    }
    if (applied != best) { /* back to the order kept, planned again */
        te_storage *st;
        candidate_free(c);
        if (best == 0) {
            te_schedule_restore(g, saved);
            saved = NULL;
        } else if (te_schedule_apply(g, orders.index[best], orders.n) < 0) {
            rc = te_fail(d, "out of memory");
        }
        g->content_key = te_flash_graph_key(g);
        st = rc == 0 ? slice_storage(g, 0) : NULL;
        rc = rc < 0 ? -1 : st ? plan_model(g, st, &plain, c, d) : te_fail(d, "out of memory");
        te_storage_free(st);
    }
    free(saved);
    te_schedule_orders_free(&orders);
    return rc;
}

static te_model *finish(te_graph *g, const te_compile_opts *o, int patch_order, te_diag *d)
{
    static const te_lower_opts plain;
    const te_graph *src = g; /* only read after the passes */
    te_model *m;
    te_storage *st;
    candidate c;
    int rc;
    if (!g)
        return NULL;
    rc = run_passes(g, o, patch_order, d);
    if (rc != 0) {
        te_graph_free(g);
        return NULL;
    }
    m = calloc(1, sizeof *m);
    if (!m) {
        te_graph_free(g);
        te_fail(d, "out of memory");
        return NULL;
    }
    m->g = m->source = g;
    if (o)
        m->opts = *o;
    st = slice_storage(src, 0);
    if (!st) {
        te_model_free(m);
        te_fail(d, "out of memory");
        return NULL;
    }
    rc = plan_model(src, st, &plain, &c, d);
    te_storage_free(st);
    if (rc == 0 && !patch_order && plan_best_order(g, &c, d) < 0)
        rc = -1; /* c freed */
    if (rc < 0) {
        te_model_free(m);
        return NULL;
    }
    set_plan(m, &c);
    if ((o && apply_patches(m, &o->patch, patch_budget(m, o), d) < 0) ||
        (o && o->regions.n && te_plan_regions(m->plan, m->g, &o->regions, d) < 0)) {
        te_model_free(m);
        return NULL;
    }
    return m;
}

/* The limits the user set, checked on the model kept (freed when over). */
static te_model *check_limits(te_model *m, const te_compile_opts *o, te_diag *d)
{
    if (m && (check_sram_limit(m, o, d) < 0 || check_flash_limit(m, d) < 0)) {
        te_model_free(m);
        return NULL;
    }
    return m;
}

/* SRAM the model needs: arena, state and stack. */
static size_t ram_need(const te_model *m)
{
    return m->plan->arena_bytes + m->plan->state_bytes + te_model_stack(m).opt;
}

/* --explain lines of one compile, kept until it is known which compile's
 * model is kept. */
static void keep_line(void *ctx, const char *line)
{
    te_buf_printf((te_buf *)ctx, "%s\n", line);
}

static void replay_lines(const te_compile_opts *o, te_buf *lines)
{
    char *s = lines->s, *nl;
    while (s && (nl = strchr(s, '\n')) != NULL) {
        *nl = '\0';
        o->patch.explain(o->patch.explain_ctx, s);
        s = nl + 1;
    }
}

/* --patch auto, or an --sram-limit that may turn it on (an explicit
 * K:HxW keeps the order `info` shows for K). */
static int patch_search_may_run(const te_compile_opts *o)
{
    return o && (o->patch.mode == TE_PATCH_AUTO ||
                 (o->patch.mode == TE_PATCH_OFF && o->sram_limit));
}

/* 1 when m2 is the better model: under --sram-limit the first that fits
 * (the search already took the fastest plan that does) or else the one
 * needing less; without, the smaller arena. */
static int second_is_better(const te_model *m, const te_model *m2, const te_compile_opts *o)
{
    if (!m2)
        return 0;
    if (!m)
        return 1;
    if (o->sram_limit)
        return ram_need(m) > o->sram_limit && ram_need(m2) < ram_need(m);
    return m2->plan->arena_bytes < m->plan->arena_bytes;
}

/* When the patch search may run (patch_search_may_run) the model is also
 * compiled in the order that lets the stage run longest
 * (te_schedule_for_patches) and kept when second_is_better; g2 is a
 * second load of the same model for that (NULL: patches off).  --explain
 * prints the lines of the model kept. */
static te_model *finish_both(te_graph *g, te_graph *g2, const te_compile_opts *o, te_diag *d)
{
    te_compile_opts o1, o2;
    te_buf lines[2] = {{0}, {0}};
    te_diag quiet = {{0}, 0};
    te_model *m, *m2;
    int pick;
    if (!g2)
        return check_limits(finish(g, o, 0, d), o, d);
    o1 = o2 = *o;
    if (o->patch.explain) {
        o1.patch.explain = o2.patch.explain = keep_line;
        o1.patch.explain_ctx = &lines[0];
        o2.patch.explain_ctx = &lines[1];
    }
    m = finish(g, &o1, 0, d);
    m2 = finish(g2, &o2, 1, &quiet);
    pick = second_is_better(m, m2, o);
    if (pick && d)
        memset(d, 0, sizeof *d); /* the first one's failure no longer stands */
    if (o->patch.explain) {
        replay_lines(o, &lines[pick]);
        if (pick && m) {
            char line[200];
            snprintf(line, sizeof line, "order: operators that cannot run on a patch and the side "
                     "branches before them moved after the stage (arena %zu instead of %zu)",
                     m2->plan->arena_bytes, m->plan->arena_bytes);
            o->patch.explain(o->patch.explain_ctx, line);
        }
    }
    te_model_free(pick ? m : m2);
    te_buf_free(&lines[0]);
    te_buf_free(&lines[1]);
    m = pick ? m2 : m;
    if (m)
        m->opts = *o;
    return check_limits(m, o, d);
}

te_model *te_model_load_file(const char *path, const te_compile_opts *o, te_diag *d)
{
    te_graph *g = te_load_tflite_file(path, d);
    te_graph *g2 = g && patch_search_may_run(o) ? te_load_tflite_file(path, NULL) : NULL;
    return finish_both(g, g2, o, d);
}

te_model *te_model_load(const uint8_t *data, size_t size, const te_compile_opts *o, te_diag *d)
{
    te_graph *g = te_load_tflite(data, size, d);
    te_graph *g2 = g && patch_search_may_run(o) ? te_load_tflite(data, size, NULL) : NULL;
    return finish_both(g, g2, o, d);
}

void te_model_free(te_model *m)
{
    if (!m)
        return;
    te_plan_free(m->plan);
    te_lowered_free(m->low);
    te_storage_free(m->st);
    if (m->g != m->source)
        te_graph_free(m->g); /* derived: frees only what it owns */
    te_graph_free(m->source);
    free(m);
}

int te_model_generate(te_model *m, const char *name, const char *model_desc, te_buf *h, te_buf *c,
                      te_diag *d)
{
    te_codegen_opts o;
    te_buf prov = {0};
    int rc;
    te_model_provenance(m, name, &prov);
    o.name = name;
    o.model_desc = model_desc;
    o.provenance = prov.s;
    rc = te_codegen(m->g, m->plan, &o, h, c, d);
    te_buf_free(&prov);
    return rc;
}

te_stack_bound te_model_stack(const te_model *m)
{
    return te_stack_bound_plan(m->g, m->plan);
}

int64_t te_op_macs(const te_graph *g, const te_op *op)
{
    const te_op_def *def = te_op_find(op->opcode);
    return def && def->macs && !op->dead ? def->macs(g, op) : 0;
}

int64_t te_model_macs(const te_model *m)
{
    int64_t sum = 0;
    int i;
    for (i = 0; i < m->g->n_ops; i++)
        sum += te_op_macs(m->g, &m->g->ops[i]);
    return sum;
}

int64_t te_model_flash_extra(const te_model *m)
{
    int64_t sum = 0;
    int i;
    for (i = 0; m->low && i < m->low->n_ops + m->low->n_clones; i++)
        sum += m->low->ops[i].flash_extra;
    return sum;
}

size_t te_model_weights_bytes(const te_model *m)
{
    const te_graph *g = m->g;
    char *seen = calloc((size_t)g->n_tensors + 1, 1);
    size_t sum = 0;
    int i, j;
    if (!seen)
        return 0;
    for (i = 0; i < g->n_ops; i++) {
        if (g->ops[i].dead)
            continue;
        for (j = 0; j < g->ops[i].n_in; j++) {
            int t = g->ops[i].in[j];
            if (t >= 0 && g->tensors[t].data && !g->tensors[t].compile_only && !seen[t]) {
                seen[t] = 1;
                sum += g->tensors[t].data_bytes;
            }
        }
    }
    free(seen);
    return sum;
}
