/* patch_memo.c - a hash table of the search's analyses and estimates
 * (patch_memo.h).  A key is a list of ints: a tag, then the analysis's
 * arguments, or every field of a plan chain the estimate reads (its
 * results, code_bytes to model_instructions, left out).  An analysis
 * keeps the plan te_patch_analyse_cache returned (a flat record: no next
 * stage, clones or steps; copied out) or none where it failed; an
 * estimate keeps its return value and results. */
#include <stdlib.h>
#include <string.h>

#include "patch_memo.h"
#include "patch_walk.h"

#define KEY_ANALYSE 1
#define KEY_ESTIMATE 2
/* ints of one stage's fields in an estimate's key (serialise) */
#define STAGE_INTS (16 + TE_PATCH_MAX_CACHED + TE_PATCH_MAX_CUTS)

typedef struct memo_entry {
    int *key, n_key;
    te_patch_plan *plan; /* an analysis's (NULL: it failed); an estimate's results */
    int rc;              /* an estimate's return value */
    struct memo_entry *next;
} memo_entry;

struct te_patch_memo {
    memo_entry **bucket;
    size_t n_buckets, n_entries;
    struct te_probe_seen *seen; /* the analyses' in-place probe answers */
};

te_patch_memo *te_patch_memo_new(void)
{
    te_patch_memo *m = calloc(1, sizeof *m);
    if (m && (!(m->bucket = calloc(m->n_buckets = 256, sizeof *m->bucket)) ||
              !(m->seen = te_probe_seen_new()))) {
        free(m->bucket);
        free(m);
        m = NULL;
    }
    return m;
}

void te_patch_memo_free(te_patch_memo *m)
{
    size_t b;
    if (!m)
        return;
    for (b = 0; b < m->n_buckets; b++)
        while (m->bucket[b]) {
            memo_entry *e = m->bucket[b];
            m->bucket[b] = e->next;
            te_patch_plan_free(e->plan);
            free(e->key);
            free(e);
        }
    free(m->bucket);
    te_probe_seen_free(m->seen);
    free(m);
}

static size_t hash(const int *key, int n)
{
    size_t h = 2166136261u;
    int i;
    for (i = 0; i < n; i++)
        h = (h ^ (size_t)(unsigned)key[i]) * 16777619u;
    return h;
}

/* Doubles the table once it holds twice as many entries as buckets. */
static void grow(te_patch_memo *m)
{
    size_t n = m->n_buckets * 2, b;
    memo_entry **bucket = calloc(n, sizeof *bucket);
    if (!bucket)
        return; /* longer chains, same answers */
    for (b = 0; b < m->n_buckets; b++)
        while (m->bucket[b]) {
            memo_entry *e = m->bucket[b];
            m->bucket[b] = e->next;
            e->next = bucket[hash(e->key, e->n_key) % n];
            bucket[hash(e->key, e->n_key) % n] = e;
        }
    free(m->bucket);
    m->bucket = bucket;
    m->n_buckets = n;
}

static memo_entry *find(const te_patch_memo *m, const int *key, int n)
{
    memo_entry *e;
    for (e = m->bucket[hash(key, n) % m->n_buckets]; e; e = e->next)
        if (e->n_key == n && !memcmp(e->key, key, (size_t)n * sizeof *key))
            return e;
    return NULL;
}

/* A new entry for key (copied), or NULL when out of memory. */
static memo_entry *add(te_patch_memo *m, const int *key, int n)
{
    memo_entry *e = calloc(1, sizeof *e);
    if (!e || !(e->key = malloc((size_t)n * sizeof *key))) {
        free(e);
        return NULL;
    }
    memcpy(e->key, key, (size_t)n * sizeof *key);
    e->n_key = n;
    e->next = m->bucket[hash(key, n) % m->n_buckets];
    m->bucket[hash(key, n) % m->n_buckets] = e;
    if (++m->n_entries > 2 * m->n_buckets)
        grow(m);
    return e;
}

/* A plan of the caller's own equal to p (flat: p has no next stage). */
static te_patch_plan *copy_of(const te_patch_plan *p)
{
    te_patch_plan *q = p ? malloc(sizeof *q) : NULL;
    if (q)
        memcpy(q, p, sizeof *q);
    return q;
}

te_patch_plan *te_patch_memo_analyse(te_patch_memo *m, const te_graph *g, int first, int n_ops,
                                     int grid_h, int grid_w, int cache)
{
    const int key[6] = {KEY_ANALYSE, first, n_ops, grid_h, grid_w, cache};
    memo_entry *e = m ? find(m, key, 6) : NULL;
    if (!e && m && (e = add(m, key, 6)) != NULL)
        e->plan = te_patch_analyse_seen(g, first, n_ops, grid_h, grid_w, cache, m->seen);
    if (!e)
        return te_patch_analyse_cache(g, first, n_ops, grid_h, grid_w, cache, NULL);
    return copy_of(e->plan);
}

/* One stage's fields the estimate reads, as ints into key; how many. */
static int serialise(const te_patch_plan *p, int *key)
{
    int n = 0, i;
    key[n++] = p->first;
    key[n++] = p->n_ops;
    key[n++] = p->grid_h;
    key[n++] = p->grid_w;
    key[n++] = p->cache;
    key[n++] = p->n_cached;
    for (i = 0; i < p->n_cached; i++)
        key[n++] = p->cached[i];
    key[n++] = p->out_tensor;
    key[n++] = p->n_cuts;
    for (i = 0; i < p->n_cuts; i++)
        key[n++] = p->cuts[i];
    key[n++] = (int)(p->scratch_bytes & 0x7fffffff);
    key[n++] = (int)(p->scratch_bytes >> 31);
    key[n++] = (int)(p->stage_macs & 0x7fffffff);
    key[n++] = (int)(p->stage_macs >> 31);
    key[n++] = (int)(p->patched_macs & 0x7fffffff);
    key[n++] = (int)(p->patched_macs >> 31);
    key[n++] = p->overlay_in;
    key[n++] = (int)(p->overlay_offset & 0x7fffffff);
    key[n++] = (int)(p->overlay_offset >> 31);
    return n;
}

int te_patch_memo_estimate(te_patch_memo *m, const te_graph *g, const struct te_lowered *low,
                           te_patch_plan *p)
{
    int key[1 + TE_PATCH_MAX_STAGES * STAGE_INTS], n = 1, stages = 0;
    const te_patch_plan *q;
    memo_entry *e;
    key[0] = KEY_ESTIMATE;
    for (q = p; q; q = q->next)
        if (++stages > TE_PATCH_MAX_STAGES)
            return te_patch_estimate(g, low, p);
    for (q = p; q; q = q->next)
        n += serialise(q, key + n);
    e = m ? find(m, key, n) : NULL;
    if (!e) {
        int rc = te_patch_estimate(g, low, p);
        if (m && (e = add(m, key, n)) != NULL) {
            e->rc = rc;
            e->plan = rc == 0 ? copy_of(p) : NULL; /* its results (failures run again) */
            if (e->plan)
                e->plan->next = NULL;
        }
        return rc;
    }
    if (!e->plan)
        return te_patch_estimate(g, low, p);
    p->stage_instructions = e->plan->stage_instructions;
    p->patched_instructions = e->plan->patched_instructions;
    p->model_instructions = e->plan->model_instructions;
    p->code_bytes = e->plan->code_bytes;
    p->stack_bytes = e->plan->stack_bytes;
    return e->rc;
}
