/* patch_code.c - the flash a patch stage's code takes: every operator clone
 * and crop copy is one more kernel call in the invoke function, with its
 * params record (shared by clones whose region shapes, padding and place
 * are the same: the emitter writes identical records once) or its copy's
 * box arrays.  `--patch auto` keeps only plans whose code fits the flash
 * the model's own code and constants leave (flash_budget.h); an explicit
 * --patch K:HxW over it fails with one line.  Read by the flash budget too:
 * the speed trades get what the patches leave. */
#include <stdlib.h>
#include <string.h>

#include "../api/cost_model.h"
#include "../ops/flash_budget.h"
#include "../ops/lowering.h"
#include "patch.h"
#include "patch_walk.h"

/* Bytes of one params record of a kernel a patch stage runs: the largest
 * of them (te_add_params / te_sub_params, 128 bytes on a 64-bit host;
 * smaller on Cortex-M), an upper bound for every clone. */
#define PARAMS_BYTES 128

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

/* One constant record of the patches: a clone's params (kind 0, its
 * operator and signature) or a copy array (kinds 1-3: counts of a box,
 * strides of a source or destination tensor). */
typedef struct {
    int kind, op;
    int sig[TE_PATCH_CLONE_SIG_INTS];
} record_key;

/* The records seen so far: an array and an open-addressing hash table of
 * indices into it (a plan has up to thousands of steps; comparing each
 * record with every earlier one made the search quadratic in them). */
typedef struct {
    record_key *keys;
    int *slots; /* index + 1 into keys; 0: empty */
    size_t mask;
    int n;
} record_set;

static int record_set_init(record_set *r, int max_records)
{
    size_t size = 16;
    while (size < 2 * (size_t)max_records)
        size *= 2;
    r->keys = malloc(sizeof *r->keys * (size_t)max_records);
    r->slots = calloc(size, sizeof *r->slots);
    r->mask = size - 1;
    r->n = 0;
    return r->keys && r->slots ? 0 : -1;
}

static void record_set_free(record_set *r)
{
    free(r->keys);
    free(r->slots);
}

static size_t record_hash(const record_key *k)
{
    const unsigned char *b = (const unsigned char *)k;
    size_t i, h = 2166136261u;
    for (i = 0; i < sizeof *k; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

/* Bytes of record k the first time it is seen in r (kept there); 0 after.
 * r NULL (out of memory): counted every time. */
static int64_t record_bytes(record_set *r, const record_key *k)
{
    const int64_t bytes = k->kind ? COPY_ARRAY_BYTES : PARAMS_BYTES;
    size_t i;
    if (!r)
        return bytes;
    for (i = record_hash(k) & r->mask; r->slots[i]; i = (i + 1) & r->mask)
        if (!memcmp(&r->keys[r->slots[i] - 1], k, sizeof *k))
            return 0;
    r->keys[r->n++] = *k;
    r->slots[i] = r->n;
    return bytes;
}

int64_t te_patch_code_bytes(const te_graph *g, const te_patch_plan *p)
{
    const int64_t call = te_cost_call_code(te_cost_model_name(g->target));
    record_set set, *seen = &set;
    record_key k;
    int64_t sum = 0;
    int i;
    if (!p || !p->n_steps)
        return 0;
    if (record_set_init(&set, 3 * p->n_steps) < 0)
        seen = NULL;
    for (i = 0; i < p->n_steps; i++) {
        const te_patch_step *st = &p->steps[i];
        sum += call;
        memset(&k, 0, sizeof k);
        if (st->kind == TE_PSTEP_OP) {
            k.op = st->op;
            te_patch_clone_signature(g, &p->clones[st->clone], k.sig);
            sum += record_bytes(seen, &k);
            continue;
        }
        k.kind = 1;
        k.sig[0] = st->h;
        k.sig[1] = st->w;
        k.sig[2] = g->tensors[st->src].rank ? g->tensors[st->src].shape[g->tensors[st->src].rank - 1] : 1;
        sum += record_bytes(seen, &k);
        memset(&k, 0, sizeof k);
        k.kind = 2;
        k.sig[0] = st->src;
        sum += record_bytes(seen, &k);
        k.kind = 3;
        k.sig[0] = st->dst;
        sum += record_bytes(seen, &k);
    }
    record_set_free(&set);
    return sum;
}

int64_t te_patch_code_floor(const te_graph *g, const te_patch_plan *p)
{
    return (int64_t)p->n_ops * p->grid_h * p->grid_w *
           te_cost_call_code(te_cost_model_name(g->target));
}

int64_t te_patch_flash_left(const te_graph *g)
{
    return te_flash_limit(g) + te_flash_patch_allowance(g) - te_flash_base_estimate(g) -
           te_flash_reserve(g);
}
