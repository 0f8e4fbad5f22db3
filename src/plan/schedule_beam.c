/* schedule_beam.c - a beam search over topological orders for a low live
 * memory (the candidate orders of te_schedule_candidates beyond the model's
 * and the one-step greedy).  Every partial order of the same length is a
 * state: the set of operators done, the bytes alive after them (a tensor
 * from its producer, or the start when made before the ops ordered, to its
 * last reader; graph outputs to the end) and the peak so far.  Each step extends the kept
 * states by every ready operator, merges the states with the same set done
 * (the live bytes depend only on the set) and keeps the `width` best by the
 * mode's key: lowest peak then lowest live bytes, or the reverse (an order
 * that frees wide tensors early, as a detector head written right after its
 * feature map).  Ties fall to the lower operator position: deterministic. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule_internal.h"

typedef struct {
    uint64_t key;      /* hash of the set of ops done (Zobrist) */
    size_t live, peak;
    int parent;        /* state index at the step before */
    int op;            /* position in live ops of the op this step ran */
} state;

typedef struct {
    const te_graph *g;
    const int *ops;    /* live op positions in g->ops */
    int n, words;      /* ops, 64-bit words per set */
    int *prod;         /* per tensor: producer's position in ops, -1: none */
    int *n_readers;    /* per tensor: reading ops (each counted once) */
    int *reader_start, *readers; /* per tensor: reading ops' positions */
    uint64_t *zobrist; /* per op */
    char *keep;        /* per tensor: never freed (graph output or unread) */
} beam_graph;

static void beam_graph_free(beam_graph *b)
{
    free(b->prod);
    free(b->n_readers);
    free(b->reader_start);
    free(b->readers);
    free(b->zobrist);
    free(b->keep);
}

/* 1 if op reads tensor t through an earlier input slot already. */
static int read_before(const te_op *op, int j)
{
    int k;
    for (k = 0; k < j; k++)
        if (op->in[k] == op->in[j])
            return 1;
    return 0;
}

static int beam_graph_init(beam_graph *b, const te_graph *g, const int *ops, int n)
{
    int nt = g->n_tensors, i, j, t, total = 0;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    memset(b, 0, sizeof *b);
    b->g = g;
    b->ops = ops;
    b->n = n;
    b->words = (n + 63) / 64;
    b->prod = malloc(sizeof(int) * ((size_t)nt + 1));
    b->n_readers = calloc((size_t)nt + 1, sizeof(int));
    b->reader_start = calloc((size_t)nt + 2, sizeof(int));
    b->zobrist = malloc(sizeof(uint64_t) * ((size_t)n + 1));
    b->keep = calloc((size_t)nt + 1, 1);
    if (!b->prod || !b->n_readers || !b->reader_start || !b->zobrist || !b->keep)
        return -1;
    for (t = 0; t < nt; t++)
        b->prod[t] = -1;
    for (i = 0; i < n; i++) {
        const te_op *op = &g->ops[ops[i]];
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift: fixed seed, deterministic */
        b->zobrist[i] = x;
        for (j = 0; j < op->n_out; j++)
            if (op->out[j] >= 0)
                b->prod[op->out[j]] = i;
        for (j = 0; j < op->n_in; j++)
            if (op->in[j] >= 0 && !read_before(op, j)) {
                b->n_readers[op->in[j]]++;
                total++;
            }
    }
    b->readers = malloc(sizeof(int) * ((size_t)total + 1));
    if (!b->readers)
        return -1;
    for (t = 0; t < nt; t++) {
        b->reader_start[t + 1] = b->reader_start[t] + b->n_readers[t];
        b->keep[t] = b->n_readers[t] == 0 || te_graph_is_output(g, t);
    }
    for (t = 0; t < nt; t++)
        b->n_readers[t] = 0;
    for (i = 0; i < n; i++) {
        const te_op *op = &g->ops[ops[i]];
        for (j = 0; j < op->n_in; j++)
            if (op->in[j] >= 0 && !read_before(op, j)) {
                t = op->in[j];
                b->readers[b->reader_start[t] + b->n_readers[t]++] = i;
            }
    }
    return 0;
}

static int is_done(const uint64_t *set, int i)
{
    return (int)((set[i / 64] >> (i % 64)) & 1u);
}

static int ready(const beam_graph *b, const uint64_t *set, int i)
{
    const te_op *op = &b->g->ops[b->ops[i]];
    int j;
    if (is_done(set, i))
        return 0;
    for (j = 0; j < op->n_in; j++)
        if (op->in[j] >= 0 && b->prod[op->in[j]] >= 0 && !is_done(set, b->prod[op->in[j]]))
            return 0;
    return 1;
}

/* Live bytes after op i runs in state s (set: s's ops done); *top: the
 * bytes alive while it runs. */
static size_t live_after(const beam_graph *b, const uint64_t *set, const state *s, int i,
                         size_t *top)
{
    const te_op *op = &b->g->ops[b->ops[i]];
    size_t live = s->live;
    int j, r;
    for (j = 0; j < op->n_out; j++)
        if (op->out[j] >= 0)
            live += te_schedule_stored_bytes(b->g, op->out[j]);
    *top = live;
    for (j = 0; j < op->n_in; j++) {
        int t = op->in[j], last = 1;
        if (t < 0 || b->keep[t] || read_before(op, j))
            continue;
        for (r = b->reader_start[t]; r < b->reader_start[t + 1] && last; r++)
            last = b->readers[r] == i || is_done(set, b->readers[r]);
        if (last)
            live -= te_schedule_stored_bytes(b->g, t);
    }
    return live;
}

typedef struct {
    state s;
    int mode;
} ranked;

static int by_key(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    size_t a1 = a->mode ? a->s.live : a->s.peak, b1 = b->mode ? b->s.live : b->s.peak;
    size_t a2 = a->mode ? a->s.peak : a->s.live, b2 = b->mode ? b->s.peak : b->s.live;
    if (a1 != b1)
        return a1 < b1 ? -1 : 1;
    if (a2 != b2)
        return a2 < b2 ? -1 : 1;
    if (a->s.key != b->s.key) /* groups equal sets for the merge */
        return a->s.key < b->s.key ? -1 : 1;
    if (a->s.parent != b->s.parent)
        return a->s.parent < b->s.parent ? -1 : 1;
    return a->s.op < b->s.op ? -1 : a->s.op > b->s.op;
}

/* Keeps in next the first `width` children of distinct sets (they are
 * sorted: the first of a set is its best).  Returns how many. */
static int keep_best(ranked *kids, int n_kids, int width, state *next)
{
    int i, k = 0, m;
    for (i = 0; i < n_kids && k < width; i++) {
        int dup = 0;
        for (m = 0; m < k && !dup; m++)
            dup = next[m].key == kids[i].s.key;
        if (!dup)
            next[k++] = kids[i].s;
    }
    return k;
}

/* Into kids, every state one op longer than the `parents` states `prev`
 * (their sets of ops done in `sets`; NULL prev: the start, live0 bytes
 * alive); returns how many. */
static int expand(const beam_graph *b, const state *prev, int parents, const uint64_t *sets,
                  size_t live0, int mode, ranked *kids)
{
    int k, i, n_kids = 0;
    for (k = 0; k < parents; k++) {
        state root = {0, 0, 0, -1, -1};
        const state *p = prev ? &prev[k] : &root;
        const uint64_t *set = sets + (size_t)k * (size_t)b->words;
        root.live = root.peak = live0;
        for (i = 0; i < b->n; i++) {
            ranked *c = &kids[n_kids];
            size_t top;
            if (!ready(b, set, i))
                continue;
            c->mode = mode;
            c->s.live = live_after(b, set, p, i, &top);
            c->s.peak = top > p->peak ? top : p->peak;
            c->s.key = p->key ^ b->zobrist[i];
            c->s.parent = k;
            c->s.op = i;
            n_kids++;
        }
    }
    return n_kids;
}

/* The sets of ops done of the `count` states `next` (one op after their
 * parents, whose sets are in `sets`, or none at the start) into out. */
static void advance_sets(const beam_graph *b, const state *next, int count, const uint64_t *sets,
                         int start, uint64_t *out)
{
    size_t words = (size_t)b->words;
    int k;
    for (k = 0; k < count; k++) {
        uint64_t *dst = out + (size_t)k * words;
        if (start)
            memset(dst, 0, sizeof(uint64_t) * words);
        else
            memcpy(dst, sets + (size_t)next[k].parent * words, sizeof(uint64_t) * words);
        dst[next[k].op / 64] |= (uint64_t)1 << (next[k].op % 64);
    }
}

int te_schedule_beam(const te_graph *g, const int *ops, int n, int width, int mode, int *order)
{
    beam_graph b;
    state *hist = NULL;        /* n steps x width states */
    int *count = NULL;         /* states per step */
    uint64_t *sets = NULL, *next_sets = NULL, *swap;
    ranked *kids = NULL;
    size_t live0 = 0;
    int s, k, j, rc = -1, best;
    if (n <= 0 || width < 1)
        return -1;
    if (beam_graph_init(&b, g, ops, n) < 0)
        goto out;
    hist = malloc(sizeof *hist * (size_t)n * (size_t)width);
    count = calloc((size_t)n + 1, sizeof(int));
    sets = calloc((size_t)width * (size_t)b.words, sizeof(uint64_t));
    next_sets = calloc((size_t)width * (size_t)b.words, sizeof(uint64_t));
    kids = malloc(sizeof *kids * (size_t)width * (size_t)n);
    if (!hist || !count || !sets || !next_sets || !kids)
        goto out;
    for (j = 0; j < g->n_tensors; j++) /* read, made before: inputs, a stage's outputs */
        if (b.prod[j] < 0 && b.reader_start[j + 1] > b.reader_start[j])
            live0 += te_schedule_stored_bytes(g, j);
    for (s = 0; s < n; s++) {
        state *row = &hist[(size_t)s * (size_t)width];
        int n_kids = expand(&b, s ? row - width : NULL, s ? count[s - 1] : 1, sets, live0, mode,
                            kids);
        if (n_kids == 0)
            goto out; /* not a DAG in op order */
        qsort(kids, (size_t)n_kids, sizeof *kids, by_key);
        count[s] = keep_best(kids, n_kids, width, row);
        advance_sets(&b, row, count[s], sets, s == 0, next_sets);
        swap = sets, sets = next_sets, next_sets = swap;
    }
    for (best = 0, k = 1; k < count[n - 1]; k++) /* the lowest peak of the complete orders */
        if (hist[(size_t)(n - 1) * (size_t)width + (size_t)k].peak <
            hist[(size_t)(n - 1) * (size_t)width + (size_t)best].peak)
            best = k;
    for (s = n - 1; s >= 0; s--) {
        const state *c = &hist[(size_t)s * (size_t)width + (size_t)best];
        order[s] = ops[c->op];
        best = c->parent;
    }
    rc = 0;
out:
    beam_graph_free(&b);
    free(hist);
    free(count);
    free(sets);
    free(next_sets);
    free(kids);
    return rc;
}
