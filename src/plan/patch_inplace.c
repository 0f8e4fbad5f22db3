/* patch_inplace.c - in-place execution inside a patch stage: whether the
 * clone of a stage operator on one patch's region tensors may write its
 * output over one of its inputs, by the same rules as layer by layer (the
 * op's te_op_def.inplace_input on the clone's shapes and padding, then its
 * lowering in place: kernel variant and scratch), probed on a copy of the
 * graph with room for the clone's region tensors.  The micro plan
 * (patch_analyse.c) decides which links it keeps. */
#include <stdlib.h>
#include <string.h>

#include "../ir/storage.h"
#include "../ops/ops.h"
#include "patch_walk.h"

/* Region tensors one probe may add: the clone's inputs and its output. */
#define PROBE_ROOM (TE_PATCH_MAX_IN + 4)

/* w->probe: g's struct with a copy of its tensors and PROBE_ROOM more. */
static te_graph *probe_graph(te_patch_walk *w, const te_graph *g)
{
    te_graph *pg;
    int t;
    if (w->probe)
        return w->probe_st ? w->probe : NULL;
    pg = malloc(sizeof *pg);
    if (!pg)
        return NULL;
    *pg = *g;
    pg->base = g;
    pg->patch = NULL;
    pg->tensors = malloc(sizeof *pg->tensors * ((size_t)g->n_tensors + PROBE_ROOM));
    if (!pg->tensors) {
        free(pg);
        return NULL;
    }
    memcpy(pg->tensors, g->tensors, sizeof *pg->tensors * (size_t)g->n_tensors);
    memset(pg->tensors + g->n_tensors, 0, sizeof *pg->tensors * PROBE_ROOM);
    pg->n_tensors = g->n_tensors + PROBE_ROOM;
    for (t = g->n_tensors; t < pg->n_tensors; t++)
        te_tensor_unalias(&pg->tensors[t]);
    w->probe = pg;
    w->probe_st = te_storage_new(pg);
    return w->probe_st ? pg : NULL;
}

/* Region tensor number `slot` of the probe: tensor orig with region r
 * (borrowing its name and quantization: never freed through the probe). */
static int probe_tensor(te_graph *pg, const te_patch_walk *w, int slot, int orig, te_region r)
{
    int id = pg->n_tensors - PROBE_ROOM + slot;
    te_tensor *t = &pg->tensors[id];
    *t = pg->tensors[orig];
    t->id = id;
    t->shape[w->ay[orig]] = r.y1 - r.y0;
    t->shape[w->ax[orig]] = r.x1 - r.x0;
    t->data = NULL;
    t->data_bytes = 0;
    t->producer = -1;
    te_tensor_unalias(t);
    t->patch_role = 2;
    return id;
}

static int same_shape(const te_tensor *a, const te_tensor *b)
{
    int d;
    if (a->rank != b->rank || a->type != b->type)
        return 0;
    for (d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d])
            return 0;
    return 1;
}

/* What a probe's answer depends on (the clone's shapes, padding and, for
 * a remap, place; the output's axes; which inputs the stage computes and
 * which it reads whole from their slots), as ints, and the answers to the
 * keys seen, per operator of the graph: the cells inside a grid all ask
 * the same, so do the grids and stages of one search (te_patch_memo keeps
 * them across its analyses), and each answer lowers the clone. */
#define PROBE_KEY (5 + 4 + TE_PATCH_MAX_IN * 9 + 1) /* the last: the inputs (key_ints) */
#define RECENT 4
typedef struct { /* what a lookup reads first, first: one cache line with the key's start */
    unsigned hash; /* key_hash(key) */
    int next;      /* the next answer in its bucket, or -1 */
    int key[PROBE_KEY]; /* key[0]: the operator's index in the graph */
    int k;
    size_t scratch;
} probe_answer;
struct te_probe_seen {
    probe_answer *a;
    int n, cap;
    int *bucket, n_buckets; /* heads of the answers by hash of their keys, or -1 */
    probe_answer *recent;   /* by operator index, RECENT each: the answers
                             * found last (the next cells', mostly: a grid's
                             * cells alternate between a few shapes; first
                             * lookup), or NULL */
    int *next_recent;       /* by operator index: the one to replace next */
    int n_recent;
};

struct te_probe_seen *te_probe_seen_new(void) { return calloc(1, sizeof(struct te_probe_seen)); }

void te_probe_seen_free(struct te_probe_seen *s)
{
    if (s) {
        free(s->a);
        free(s->bucket);
        free(s->recent);
        free(s->next_recent);
    }
    free(s);
}

/* The ints of a key the operator's inputs use (the rest are 0). */
static int key_ints(const int *key) { return 5 + 4 + key[PROBE_KEY - 1] * 9; }

static unsigned key_hash(const int *key)
{
    unsigned h = 2166136261u;
    int i, n = key_ints(key);
    for (i = 0; i < n; i++)
        h = (h ^ (unsigned)key[i]) * 16777619u;
    return h ^ h >> 15 ^ h >> 23; /* the high bits into the low ones, which pick the bucket */
}

/* 1 if key b holds a's ints (a loop, not memcmp: under AddressSanitizer
 * memcmp checks both whole ranges first, and most keys differ early). */
static int same_key(const int *a, const int *b)
{
    int i, n = key_ints(a);
    for (i = 0; i < n && a[i] == b[i]; i++)
        ;
    return i == n;
}

/* Rebuilds s's buckets for n of them (a power of two); -1 when out of memory. */
static int rehash(struct te_probe_seen *s, int n)
{
    int *bucket = malloc(sizeof(int) * (size_t)n), j;
    if (!bucket)
        return -1;
    for (j = 0; j < n; j++)
        bucket[j] = -1;
    for (j = 0; j < s->n; j++) {
        unsigned h = s->a[j].hash & (unsigned)(n - 1);
        s->a[j].next = bucket[h];
        bucket[h] = j;
    }
    free(s->bucket);
    s->bucket = bucket;
    s->n_buckets = n;
    return 0;
}

static void probe_key(const te_patch_walk *w, const te_graph *g, const te_op *op,
                      const te_patch_need *need, int *key)
{
    const int o = op->out[0];
    int n, k, j;
    for (n = 0; n < PROBE_KEY; n++) /* loops, not memset / memcpy: a search makes */
        key[n] = 0;                 /* millions of keys, and ASan checks their ranges */
    n = 0;
    key[n++] = (int)(op - g->ops);
    key[n++] = w->region[o].y1 - w->region[o].y0;
    key[n++] = w->region[o].x1 - w->region[o].x0;
    key[n++] = w->ay[o];
    key[n++] = w->ax[o];
    if (te_patch_kind_of(g, op) == TE_PATCH_REMAP) {
        const te_patch_need *mapped = &need[te_patch_remap_input(g, op)];
        key[n++] = w->comp[o].y0;
        key[n++] = w->comp[o].x0;
        key[n++] = mapped->r.y0;
        key[n++] = mapped->r.x0;
    } else {
        n += 4;
    }
    key[PROBE_KEY - 1] = op->n_in; /* key_ints */
    for (k = 0; k < op->n_in; k++, n += 9) {
        const int t = op->in[k];
        if (t < 0 || g->tensors[t].data)
            continue;
        key[n] = 1 + need[k].whole;
        key[n + 1] = need[k].r.y1 - need[k].r.y0;
        key[n + 2] = need[k].r.x1 - need[k].r.x0;
        for (j = 0; j < 4; j++)
            key[n + 3 + j] = need[k].pad[j];
        key[n + 7] = te_region_eq(need[k].r, w->region[t]);
        key[n + 8] = w->produced_by[t] >= 0;
    }
}

/* Keeps answer a among the recent ones of its operator. */
static void note_recent(struct te_probe_seen *s, const probe_answer *a)
{
    const int op = a->key[0];
    if (op < s->n_recent) {
        s->recent[op * RECENT + s->next_recent[op]] = *a;
        s->next_recent[op] = (s->next_recent[op] + 1) % RECENT;
    }
}

/* The answer seen for key, or NULL: one of its operator's recent ones, else
 * from the hash table (then a recent one). */
static const probe_answer *seen(const te_patch_walk *w, const int *key)
{
    struct te_probe_seen *s = w->probe_seen;
    unsigned h;
    int j;
    for (j = 0; s && key[0] < s->n_recent && j < RECENT; j++)
        if (same_key(s->recent[key[0] * RECENT + j].key, key))
            return &s->recent[key[0] * RECENT + j];
    if (!s || !s->n_buckets)
        return NULL;
    h = key_hash(key);
    for (j = s->bucket[h & (unsigned)(s->n_buckets - 1)]; j >= 0; j = s->a[j].next)
        if (s->a[j].hash == h && same_key(s->a[j].key, key)) {
            note_recent(s, &s->a[j]);
            return &s->a[j];
        }
    return NULL;
}

/* Keeps the answer for key (when memory allows). */
static void remember(te_patch_walk *w, const te_graph *g, const int *key, int k, size_t scratch)
{
    struct te_probe_seen *s;
    unsigned h;
    if (!w->probe_seen && !(w->probe_seen = te_probe_seen_new()))
        return;
    s = w->probe_seen;
    if (!s->recent && !s->next_recent) {
        s->recent = calloc(((size_t)g->n_ops + 1) * RECENT, sizeof *s->recent);
        s->next_recent = calloc((size_t)g->n_ops + 1, sizeof *s->next_recent);
        s->n_recent = s->recent && s->next_recent ? g->n_ops : 0;
    }
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        probe_answer *a = realloc(s->a, (size_t)cap * sizeof *a);
        if (!a)
            return;
        s->a = a;
        s->cap = cap;
    }
    if (2 * s->n >= s->n_buckets && rehash(s, s->n_buckets ? 2 * s->n_buckets : 128) < 0)
        return;
    s->a[s->n].hash = key_hash(key);
    h = s->a[s->n].hash & (unsigned)(s->n_buckets - 1);
    memcpy(s->a[s->n].key, key, sizeof s->a[s->n].key);
    s->a[s->n].k = k;
    s->a[s->n].scratch = scratch;
    s->a[s->n].next = s->bucket[h];
    note_recent(s, &s->a[s->n]);
    s->bucket[h] = s->n++;
}

/* 1 if clone c of op (on the probe's region tensors, output out_id) can
 * write over its input k: a tensor the stage computes, read whole from its
 * slot, no smaller than the output, and the op's lowering takes it in
 * place (its scratch into *scratch). */
static int usable(te_patch_walk *w, const te_graph *g, te_graph *pg, const te_op *op, te_op *c,
                  int k, int out_id, size_t *scratch)
{
    int t = k < op->n_in ? op->in[k] : -1, o = op->out[0];
    te_patch_need need;
    te_lower_opts lo;
    te_lowering l;
    if (t < 0 || g->tensors[t].data || w->produced_by[t] < 0 || c->in[k] == t ||
        te_tensor_bytes(&pg->tensors[out_id]) > te_tensor_bytes(&pg->tensors[c->in[k]]))
        return 0;
    if (te_patch_input_region(g, op, k, w->region[o], w->ay[o], w->ax[o], &need) < 0 ||
        !te_region_eq(need.r, w->region[t]))
        return 0; /* read through a crop: not the slot itself */
    te_storage_link(w->probe_st, out_id, TE_STORE_INPLACE, c->in[k], 0);
    memset(&lo, 0, sizeof lo);
    lo.st = w->probe_st;
    te_lower_op(pg, c, &lo, &l);
    te_storage_unlink(w->probe_st, out_id);
    if (l.inplace_input != k)
        return 0;
    *scratch = l.scratch_bytes;
    return 1;
}

/* te_patch_inplace_probe on the probe graph pg, the inputs' needs known. */
static int probe(te_patch_walk *w, const te_graph *g, te_graph *pg, const te_op *op,
                 const te_patch_need *need, size_t *scratch)
{
    const te_op_def *def = te_op_find(op->opcode);
    int in[TE_PATCH_MAX_IN + 1], out_id, o = op->out[0], k, k2, t;
    te_op c = *op;
    for (k = 0; k < op->n_in; k++) {
        t = op->in[k];
        in[k] = t;
        if (t >= 0 && !g->tensors[t].data && !need[k].whole)
            in[k] = probe_tensor(pg, w, k, t, need[k].r);
    }
    out_id = probe_tensor(pg, w, TE_PATCH_MAX_IN, o, w->region[o]);
    c.in = in;
    c.out = &out_id;
    te_patch_clone_options(g, w, op, need, &c);
    k = def->inplace_input(pg, &c);
    if (k >= 0 && usable(w, g, pg, op, &c, k, out_id, scratch))
        return k;
    /* an element-wise op may write over any input of the output's shape:
     * when the first one is read through a crop, another */
    for (k2 = 0; def->inplace_input == te_inplace_same_shape_input && k2 < op->n_in && k2 < 2; k2++)
        if (k2 != k && in[k2] >= 0 && same_shape(&pg->tensors[in[k2]], &pg->tensors[out_id]) &&
            usable(w, g, pg, op, &c, k2, out_id, scratch))
            return k2;
    return -1;
}

int te_patch_inplace_probe(te_patch_walk *w, const te_graph *g, int i, size_t *scratch)
{
    const te_op *op = &g->ops[w->ops[i]];
    const te_op_def *def = te_op_find(op->opcode);
    te_patch_need need[TE_PATCH_MAX_IN];
    int key[PROBE_KEY], k, t;
    const probe_answer *a;
    te_graph *pg;
    *scratch = 0;
    if (!def || !def->inplace_input || op->n_in > TE_PATCH_MAX_IN || op->n_out != 1)
        return -1;
    memset(need, 0, sizeof need);
    for (k = 0; k < op->n_in; k++) {
        t = op->in[k];
        if (t < 0 || g->tensors[t].data)
            continue;
        if (te_region_eq(w->region[op->out[0]], w->comp[op->out[0]]))
            need[k] = w->need[i][k]; /* te_patch_regions asked the same */
        else if (te_patch_input_region(g, op, k, w->region[op->out[0]], w->ay[op->out[0]],
                                       w->ax[op->out[0]], &need[k]) < 0)
            return -1;
    }
    probe_key(w, g, op, need, key);
    if ((a = seen(w, key)) != NULL) {
        *scratch = a->scratch;
        return a->k;
    }
    if (!(pg = probe_graph(w, g))) /* made on the first answer not seen yet */
        return -1;
    k = probe(w, g, pg, op, need, scratch);
    remember(w, g, key, k, *scratch);
    return k;
}

void te_patch_probe_free(te_patch_walk *w)
{
    if (!w->probe_shared)
        te_probe_seen_free(w->probe_seen);
    w->probe_seen = NULL;
    if (w->probe)
        free(w->probe->tensors);
    free(w->probe);
    te_storage_free(w->probe_st);
    w->probe = NULL;
    w->probe_st = NULL;
}
