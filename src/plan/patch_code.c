/* patch_code.c - the flash a patch stage's code takes: every operator clone
 * and crop copy is one more kernel call in the invoke function (what a
 * call adds on the target, measured: runtime/te_kernel_code.def's
 * TE_CODE_PATCH_CALL, and its kernel's code where the compiler inlines it
 * at every call, TE_KERNEL_CALL), with its params record (shared by
 * clones whose region shapes, padding and place are the same: the emitter
 * writes identical records once; sizeof the kernel's params struct on the
 * target, TE_KERNEL_PARAMS) or its copy's box arrays; the crop copy's
 * kernel and any kernel the clones run but their operators did not, once.
 * An upper bound of what the generated object gains (the stage's own calls
 * and records are not deducted; cli.patch_code checks it against the
 * objects of shared models on every target).  `--patch auto` keeps only
 * plans whose code fits the flash the model's own code and constants leave
 * (flash_budget.h); an explicit --patch K:HxW over it fails with one line.
 * Read by the flash budget too: the speed trades get what the patches
 * leave. */
#include <stdlib.h>
#include <string.h>

#include "../api/cost_model.h"
#include "../ops/flash_budget.h"
#include "../ops/lowering.h"
#include "patch.h"
#include "patch_walk.h"

/* The constants of a clone whose kernel has no params struct (plain
 * arguments and arrays: te_pad_s8's paddings, te_copy_gather_s8's
 * strides, ...) or one the table does not know: the largest params record
 * of the kernels a patch stage runs (te_add_params, 128 bytes), a bound
 * for those arrays too. */
#define OTHER_RECORD_BYTES 128

/* Each of a crop copy's three arrays (its counts, source and destination
 * strides: int32[4]), written once per distinct content: counts per box
 * size, strides per tensor. */
#define COPY_ARRAY_BYTES 16

/* TE_PATCH_CLONE_SIG_INTS (patch.h) counts TE_PATCH_MAX_IN inputs */
typedef char te_patch_sig_size_check[TE_PATCH_CLONE_SIG_INTS == 4 * (TE_PATCH_MAX_IN + 1) + 8 ? 1 : -1];

void te_patch_clone_signature(const te_graph *g, const te_op *c, int *sig)
{
    int k, d, n = 0;
    memset(sig, 0, sizeof(int) * TE_PATCH_CLONE_SIG_INTS);
    for (k = 0; k <= TE_PATCH_MAX_IN; k++) {
        int t = k == 0 ? c->out[0] : k - 1 < c->n_in ? c->in[k - 1] : -1;
        for (d = 0; d < 4; d++)
            sig[n++] = t >= 0 && d < g->tensors[t].rank ? g->tensors[t].shape[d] : -1;
    }
    sig[n++] = c->opt.pad_top;
    sig[n++] = c->opt.pad_bottom;
    sig[n++] = c->opt.pad_left;
    sig[n++] = c->opt.pad_right;
    sig[n++] = c->opt.region.oy - c->opt.region.iy;
    sig[n++] = c->opt.region.ox - c->opt.region.ix;
    sig[n++] = c->opt.region.set ? c->opt.region.oy : 0;
    sig[n] = c->opt.region.set ? c->opt.region.ox : 0;
}

uint32_t te_patch_sig_hash(int op, const int *sig)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(uint32_t)op;
    int i;
    for (i = 0; i < TE_PATCH_CLONE_SIG_INTS; i++)
        h = (h ^ (uint64_t)(uint32_t)sig[i]) * 1099511628211ull;
    return (uint32_t)(h ^ (h >> 29) ^ (h >> 47));
}

/* One constant record of the patches: a clone's params (kind 0, its
 * operator and signature) or a copy array (kinds 1-3: counts of a box,
 * strides of a source or destination tensor). */
typedef struct {
    int kind, op;
    int sig[TE_PATCH_CLONE_SIG_INTS];
} record_key;

/* What a clone record costs: its params record (once) and each call of
 * it; clone: a clone that has it, to lower. */
typedef struct {
    int64_t record, call;
    int clone;
} record_cost;

/* The records seen so far: an array and an open-addressing hash table of
 * indices into it (a plan has up to thousands of steps; comparing each
 * record with every earlier one made the search quadratic in them). */
typedef struct {
    record_key *keys;
    record_cost *costs; /* beside keys */
    int *slots;         /* index + 1 into keys; 0: empty */
    size_t mask;
    int n;
} record_set;

static int record_set_init(record_set *r, int max_records)
{
    size_t size = 16;
    while (size < 2 * (size_t)max_records)
        size *= 2;
    r->keys = malloc(sizeof *r->keys * (size_t)max_records);
    r->costs = calloc((size_t)max_records, sizeof *r->costs);
    r->slots = calloc(size, sizeof *r->slots);
    r->mask = size - 1;
    r->n = 0;
    return r->keys && r->costs && r->slots ? 0 : -1;
}

static void record_set_free(record_set *r)
{
    free(r->keys);
    free(r->costs);
    free(r->slots);
}

/* Its ints hashed (the table's order of slots only: indices are in order
 * of first sight). */
static size_t record_hash(const record_key *k)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(uint32_t)k->kind;
    int i;
    h = (h ^ (uint64_t)(uint32_t)k->op) * 1099511628211ull;
    for (i = 0; i < TE_PATCH_CLONE_SIG_INTS; i++)
        h = (h ^ (uint64_t)(uint32_t)k->sig[i]) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}

/* The index of record k in r, added (-1 - index) when first seen. */
static int record_find(record_set *r, const record_key *k)
{
    size_t i;
    for (i = record_hash(k) & r->mask; r->slots[i]; i = (i + 1) & r->mask)
        if (!memcmp(&r->keys[r->slots[i] - 1], k, sizeof *k))
            return r->slots[i] - 1;
    r->keys[r->n++] = *k;
    r->slots[i] = r->n;
    return -r->n;
}

/* The key of step st's record: a clone's params (kind 0) or one of a
 * copy's arrays (kinds 1-3: counts of a box, strides of a source or
 * destination tensor, by `array`). */
static void step_key(const te_graph *g, const te_patch_plan *p, const te_patch_step *st, int array,
                     record_key *k)
{
    memset(k, 0, sizeof *k);
    if (st->kind == TE_PSTEP_OP) {
        k->op = st->op;
        te_patch_clone_signature(g, &p->clones[st->clone], k->sig);
        return;
    }
    k->kind = 1 + array;
    if (array == 0) {
        const te_tensor *src = &g->tensors[st->src];
        k->sig[0] = st->h;
        k->sig[1] = st->w;
        k->sig[2] = src->rank ? src->shape[src->rank - 1] : 1;
    } else {
        k->sig[0] = array == 1 ? st->src : st->dst;
    }
}

/* The bytes a call of kernel adds on cost model cm: a patch's call
 * (TE_CODE_PATCH_CALL) and, where the compiler inlines the kernel at its
 * calls, its code (TE_KERNEL_CALL). */
static int64_t call_bytes(const char *cm, te_kernel_id kernel)
{
    return (int64_t)te_cost_patch_call_code(cm) + te_cost_kernel_call(cm, kernel);
}

/* Raises c to what kernel costs on cost model cm: its params record (or
 * OTHER_RECORD_BYTES) and its calls. */
static void kernel_cost(const char *cm, te_kernel_id kernel, record_cost *c)
{
    const int params = kernel == TE_K_VIEW ? 0 : te_cost_kernel_params(cm, kernel);
    const int64_t record = params >= 0 ? params : OTHER_RECORD_BYTES;
    const int64_t call = call_bytes(cm, kernel);
    if (record > c->record)
        c->record = record;
    if (call > c->call)
        c->call = call;
}

/* A kernel id te_cost_* tables index. */
static int is_kernel(te_kernel_id k)
{
    return (int)k >= 0 && k < TE_K_COUNT && k != TE_K_VIEW;
}

/* Each clone record's costs, its kernel as lowered with no flash for the
 * speed trades and with all of it (the trades switch a few operators to
 * other kernels: ADD/SUB tables, int16 weight copies; the budget the
 * patches leave them is not known yet, and any in between picks one of
 * those two): the larger of each.  Returns the code of the kernels the
 * clones run that their operators, lowered the same ways on the model's
 * graph, do not (a clone on a small region may take another variant: the
 * portable fast depthwise kernel where the operator runs the DSP one).
 * The graphs are lowered through copies of their records with a flash
 * limit of their own, so the flash budget's memo (keyed on the limit) is
 * not left with a figure of this graph before its patches' code is known;
 * operators are lowered with nothing in place (their in-place variants are
 * not known here: one the clones leave out is not deducted either). */
static int64_t lower_records(const te_graph *g, const te_patch_plan *p, record_set *r)
{
    const char *cm = te_cost_model_name(g->target);
    const te_lower_opts o = {0};
    const te_graph *model = g->base ? g->base : g;
    te_graph trial = *g, own = *model;
    unsigned char runs[TE_K_COUNT] = {0}, had[TE_K_COUNT] = {0};
    unsigned char *done = calloc((size_t)model->n_ops + 1, 1);
    int64_t code = 0;
    int pass, i, k;
    for (pass = 0; pass < 2; pass++) { /* one graph and budget at a time: the memo keeps one */
        trial.flash_limit = own.flash_limit = pass == 0 ? 1 : (size_t)1 << 40;
        trial.content_key = te_flash_graph_key(&trial); /* once a pass, not per lowering */
        own.content_key = te_flash_graph_key(&own);
        for (i = 0; i < r->n; i++) {
            te_lowering l;
            if (r->keys[i].kind)
                continue;
            te_lower_op(&trial, &p->clones[r->costs[i].clone], &o, &l);
            kernel_cost(cm, l.kernel, &r->costs[i]);
            if (is_kernel(l.kernel))
                runs[l.kernel] = 1;
        }
        if (done)
            memset(done, 0, (size_t)model->n_ops + 1);
        for (i = 0; i < r->n; i++) {
            const int op = r->keys[i].op;
            te_lowering l;
            if (r->keys[i].kind || op < 0 || op >= model->n_ops || (done && done[op]))
                continue;
            if (done)
                done[op] = 1;
            te_lower_op(&own, &model->ops[op], &o, &l);
            if (is_kernel(l.kernel))
                had[l.kernel] = 1;
        }
    }
    free(done);
    for (k = 0; k < TE_K_COUNT; k++)
        if (runs[k] && !had[k])
            code += te_cost_kernel_code(cm, (te_kernel_id)k);
    return code;
}

int64_t te_patch_code_bytes(const te_graph *g, const te_patch_plan *p)
{
    const char *cm = te_cost_model_name(g->target);
    const int64_t copy_call = call_bytes(cm, TE_K_PATCH_COPY_S8);
    record_set set;
    record_key k;
    int64_t sum = 0;
    int i, a;
    if (!p || !p->n_steps)
        return 0;
    if (record_set_init(&set, 3 * p->n_steps) < 0) { /* out of memory: the former flat bound */
        record_set_free(&set);
        return p->n_steps * (int64_t)(te_cost_call_code(cm) + OTHER_RECORD_BYTES + 3 * COPY_ARRAY_BYTES);
    }
    for (i = 0; i < p->n_steps; i++) { /* the distinct records */
        const te_patch_step *st = &p->steps[i];
        const int op = st->kind == TE_PSTEP_OP;
        for (a = 0; a < (op ? 1 : 3); a++) {
            int at;
            step_key(g, p, st, a, &k);
            at = record_find(&set, &k);
            if (at < 0)
                set.costs[-1 - at] = (record_cost){op ? 0 : COPY_ARRAY_BYTES, 0, op ? st->clone : -1};
        }
    }
    sum += lower_records(g, p, &set); /* kernels the operators did not run */
    for (i = 0; i < set.n; i++)
        sum += set.costs[i].record;
    for (i = 0; i < p->n_steps; i++) { /* the calls */
        const te_patch_step *st = &p->steps[i];
        if (st->kind == TE_PSTEP_OP) {
            step_key(g, p, st, 0, &k);
            sum += set.costs[record_find(&set, &k)].call;
        } else {
            sum += copy_call;
        }
    }
    sum += te_cost_kernel_code(cm, TE_K_PATCH_COPY_S8); /* the copies' kernel, once */
    record_set_free(&set);
    return sum;
}

int64_t te_patch_code_floor(const te_graph *g, const te_patch_plan *p)
{
    return (int64_t)p->n_ops * p->grid_h * p->grid_w *
           te_cost_patch_call_code(te_cost_model_name(g->target));
}

int64_t te_patch_flash_left(const te_graph *g)
{
    return te_flash_limit(g) + te_flash_patch_allowance(g) - te_flash_base_estimate(g) -
           te_flash_reserve(g);
}
