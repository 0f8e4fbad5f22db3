/* plan_arena.c - assigns arena offsets to the plan's buffers.
 *
 * Greedy placement under several orderings (size, lifetime length, start,
 * size x length) and two fit rules (lowest offset, tightest gap), keeping
 * the smallest arena; small plans then get a local search over the order.
 * Stops early when the lifetime lower bound (most bytes alive at one step,
 * which no placement can beat) is reached.  A tied pair (the patch stage's
 * output S and the input it reads inside S's place, te_plan.has_tie) is placed as one
 * piece, and apart when that is no larger. */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* Orderings tried; each sorts buffer indices, "before" = placed first. */
/* Local search only for plans this small (its cost grows as n^4). */
#define TE_PLAN_SEARCH_MAX_BUFFERS 160

enum { BY_SIZE, BY_LENGTH, BY_START, BY_AREA, N_ORDERS };

static int64_t sort_key(const te_buffer *b, int order)
{
    int64_t len = (int64_t)(b->last - b->first + 1);
    switch (order) {
    case BY_SIZE: return (int64_t)b->bytes * 4096 + len;
    case BY_LENGTH: return len * ((int64_t)1 << 32) + (int64_t)b->bytes;
    case BY_START: return -(int64_t)b->first * ((int64_t)1 << 32) + (int64_t)b->bytes;
    default: return (int64_t)b->bytes * len;
    }
}

/* A buffer of an ordering being sorted: its key and where it stood. */
typedef struct {
    int64_t key;
    int at, buffer;
} sort_item;

static int by_key_down(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? 1 : -1;
    return (x->at > y->at) - (x->at < y->at);
}

/* Below this many, sorts insert (the micro plans of patches, placed by
 * the thousand, have a few dozen buffers); above, qsort. */
#define TE_PLAN_INSERTION_SORT_MAX 48

/* Sorts order by descending key, stably (ties keep their order: the
 * position breaks them); item: room for n. */
static void sort_order(const te_buffer *bufs, int *order, int n, int how, sort_item *item)
{
    int i, j;
    for (i = 0; i < n; i++) {
        item[i].key = sort_key(&bufs[order[i]], how);
        item[i].at = i;
        item[i].buffer = order[i];
    }
    if (n > TE_PLAN_INSERTION_SORT_MAX)
        qsort(item, (size_t)n, sizeof *item, by_key_down);
    else
        for (i = 1; i < n; i++) {
            const sort_item v = item[i];
            for (j = i; j > 0 && item[j - 1].key < v.key; j--)
                item[j] = item[j - 1];
            item[j] = v;
        }
    for (i = 0; i < n; i++)
        order[i] = item[i].buffer;
}

static int lifetimes_overlap(const te_buffer *a, const te_buffer *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* The overlay tie of te_plan (has_tie): member goes at anchor + offset. */
typedef struct {
    int anchor, member;
    size_t offset;
} tie_pair;

/* A placed buffer that lives at the same time as the one being placed, x:
 * the bytes [lo, hi) it takes beside x and the bytes x takes beside it
 * (te_buffer_bytes_beside both ways). */
typedef struct {
    size_t lo, hi, x_bytes;
} neighbour;

/* The buffers placed so far, and where to find those beside a buffer. */
typedef struct {
    const te_buffer *bufs;
    const int *placed;
    int n_placed;
    /* NULL, or per buffer whether it is placed, and the buffers whose
     * lifetimes overlap buffer i's: beside[beside_at[i] .. beside_at[i + 1]) */
    const unsigned char *is_placed;
    const int *beside_at, *beside;
} placer;

static void add_neighbour(const te_buffer *o, const te_buffer *x, neighbour *out)
{
    out->lo = o->offset;
    out->hi = o->offset + te_buffer_bytes_beside(o, x);
    out->x_bytes = te_buffer_bytes_beside(x, o);
}

/* The placed buffers living at the same time as x, into out (in no
 * particular order: what reads them does not depend on it); their count. */
static int neighbours_of(const placer *pl, const te_buffer *x, neighbour *out)
{
    int i, k = 0;
    if (pl->beside) {
        const int xi = (int)(x - pl->bufs);
        for (i = pl->beside_at[xi]; i < pl->beside_at[xi + 1]; i++)
            if (pl->is_placed[pl->beside[i]])
                add_neighbour(&pl->bufs[pl->beside[i]], x, &out[k++]);
        return k;
    }
    for (i = 0; i < pl->n_placed; i++)
        if (lifetimes_overlap(&pl->bufs[pl->placed[i]], x))
            add_neighbour(&pl->bufs[pl->placed[i]], x, &out[k++]);
    return k;
}

/* 1 if x at offset `at` overlaps none of its k neighbours; *gap (if given):
 * lowered to the space left above x to the next one. */
static int fits_at(const neighbour *nb, int k, size_t at, size_t *gap)
{
    int i;
    for (i = 0; i < k; i++) {
        const size_t x_end = at + nb[i].x_bytes;
        if (at < nb[i].hi && nb[i].lo < x_end)
            return 0;
        if (gap && nb[i].lo >= x_end && nb[i].lo - x_end < *gap)
            *gap = nb[i].lo - x_end;
    }
    return 1;
}

/* Offsets where `b` could go: 0 and the end of every placed buffer that
 * lives at the same time (for m, tied to b at m_off bytes into it, where m
 * would start there).  Picks the lowest (first fit) or the one that leaves
 * the smallest gap above b (best fit); both orders of trying give the same
 * pick (the least offset, or the least (gap, offset)).  nb: room for
 * 2 x n_placed neighbours. */
static size_t choose_offset(const placer *pl, const te_buffer *b, int best_fit,
                            const te_buffer *m, size_t m_off, neighbour *nb)
{
    size_t best = (size_t)-1, best_gap = (size_t)-1;
    const int kb = neighbours_of(pl, b, nb);
    const int km = m ? neighbours_of(pl, m, nb + kb) : 0;
    const neighbour *nm = nb + kb;
    int c, who;
    for (who = 0; who < (m ? 2 : 1); who++)
        for (c = -1; c < (who ? km : kb); c++) {
            size_t cand, gap = (size_t)-1;
            cand = c < 0 ? 0 : (who ? nm : nb)[c].hi;
            if (who && cand < m_off)
                continue;
            cand -= who ? m_off : 0;
            if (!best_fit && cand >= best)
                continue; /* first fit: only a lower offset can win */
            if (!fits_at(nb, kb, cand, &gap) || (m && !fits_at(nm, km, cand + m_off, NULL)))
                continue;
            if (best_fit ? (gap < best_gap || (gap == best_gap && cand < best)) : cand < best) {
                best = cand;
                best_gap = gap;
            }
        }
    return best;
}

/* The arrays one placement works in (place()). */
typedef struct {
    int *order, *placed, *best_order;
    size_t *best_off;
    int64_t *key;          /* sort keys of list_beside */
    sort_item *item;       /* sort_order's */
    neighbour *nb;         /* 2 x n + 1 */
    unsigned char *is_placed;
    int *beside_at, *beside; /* placer's lists; beside NULL: none (too many pairs) */
} work;

/* Pairs of buffers whose lifetimes overlap that the lists may hold: beyond,
 * each placement scans the buffers placed so far instead. */
#define TE_PLAN_MAX_PAIRS (4 << 20)

static int ascending(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Fills w->beside_at / w->beside with, per buffer that lives at all, the
 * others whose lifetimes overlap its own (left NULL when there are too
 * many): in order of first step, each buffer meets the later ones that
 * start before it ends.  Uses w->order, w->placed and w->key as scratch. */
static void list_beside(const te_buffer *bufs, int n, work *w, te_plan_scratch *ws)
{
    int *by = w->order, *deg = w->placed, i, j, k, n_live = 0;
    size_t pairs = 0;
    for (i = 0; i < n; i++) { /* first step, then index */
        deg[i] = 0;
        if (bufs[i].first <= bufs[i].last)
            w->key[n_live++] = (int64_t)bufs[i].first * ((int64_t)1 << 32) + i;
    }
    if (n_live > TE_PLAN_INSERTION_SORT_MAX)
        qsort(w->key, (size_t)n_live, sizeof(int64_t), ascending);
    else
        for (i = 1; i < n_live; i++) {
            const int64_t v = w->key[i];
            for (j = i; j > 0 && w->key[j - 1] > v; j--)
                w->key[j] = w->key[j - 1];
            w->key[j] = v;
        }
    for (i = 0; i < n_live; i++)
        by[i] = (int)(w->key[i] & 0xffffffff);
    for (i = 0; i < n_live && pairs <= TE_PLAN_MAX_PAIRS; i++)
        for (j = i + 1; j < n_live && bufs[by[j]].first <= bufs[by[i]].last; j++) {
            deg[by[i]]++;
            deg[by[j]]++;
            pairs++;
        }
    if (pairs > TE_PLAN_MAX_PAIRS)
        return;
    /* both lists in one block: a search places tens of thousands of plans */
    w->beside_at = te_plan_scratch_get(ws, TE_SCRATCH_BESIDE,
                                       sizeof(int) * ((size_t)n + 1 + 2 * pairs + 1));
    if (!w->beside_at) {
        w->beside = NULL;
        return;
    }
    w->beside = w->beside_at + n + 1;
    for (i = 0, k = 0; i < n; i++) { /* deg[i] becomes where the next of i's goes */
        w->beside_at[i] = k;
        k += deg[i];
        deg[i] = w->beside_at[i];
    }
    w->beside_at[n] = k;
    for (i = 0; i < n_live; i++)
        for (j = i + 1; j < n_live && bufs[by[j]].first <= bufs[by[i]].last; j++) {
            w->beside[deg[by[i]]++] = by[j];
            w->beside[deg[by[j]]++] = by[i];
        }
}

/* Places buffers in `order` (a tied member together with its anchor);
 * returns the arena size (offsets left in bufs), or, as soon as it
 * reaches `cap`, a size >= cap (the placement left unfinished: the
 * callers keep only a placement below the best so far). */
static size_t place_in_order(te_buffer *bufs, const int *order, int n, work *w, int best_fit,
                             const tie_pair *tie, size_t cap)
{
    placer pl;
    size_t top = 0;
    int i;
    pl.bufs = bufs;
    pl.placed = w->placed;
    pl.n_placed = 0;
    pl.is_placed = w->beside ? w->is_placed : NULL;
    pl.beside_at = w->beside_at;
    pl.beside = w->beside;
    if (n > 0)
        memset(w->is_placed, 0, (size_t)n);
    for (i = 0; i < n; i++) {
        te_buffer *b = &bufs[order[i]], *m = NULL;
        if (b->last < b->first || (tie && order[i] == tie->member))
            continue;
        if (tie && order[i] == tie->anchor)
            m = &bufs[tie->member];
        b->offset = choose_offset(&pl, b, best_fit, m, tie ? tie->offset : 0, w->nb);
        w->placed[pl.n_placed++] = order[i];
        w->is_placed[order[i]] = 1;
        if (b->offset + b->bytes > top)
            top = b->offset + b->bytes;
        if (m) {
            m->offset = b->offset + tie->offset;
            w->placed[pl.n_placed++] = tie->member;
            w->is_placed[tie->member] = 1;
            if (m->offset + m->bytes > top)
                top = m->offset + m->bytes;
        }
        if (top >= cap)
            break;
    }
    return top;
}

/* Local search for small plans: move one buffer to the front of the best
 * order found so far, keep the move if the arena shrinks; a few rounds. */
static size_t improve_order(te_buffer *bufs, int n, work *w, size_t best, size_t bound,
                            const tie_pair *tie)
{
    int round, k, i;
    for (round = 0; round < 3 && best > bound; round++) {
        int improved = 0;
        for (k = 1; k < n && best > bound; k++) {
            size_t top;
            w->order[0] = w->best_order[k];
            for (i = 0; i < k; i++)
                w->order[i + 1] = w->best_order[i];
            for (i = k + 1; i < n; i++)
                w->order[i] = w->best_order[i];
            top = place_in_order(bufs, w->order, n, w, 0, tie, best);
            if (top < best) {
                best = top;
                improved = 1;
                for (i = 0; i < n; i++) {
                    w->best_order[i] = w->order[i];
                    w->best_off[i] = bufs[i].offset;
                }
            }
        }
        if (!improved)
            break;
    }
    return best;
}

/* Sum of bytes alive at each step, maximised: no placement can be smaller.
 * The same sums as te_plan_live_bytes, step by step, in one sweep: each
 * buffer adds its bytes at its first step, its shrink at the step after
 * shrink_after and takes what is left off after its last; the tie's
 * doubly counted bytes come off while both of its pair live (sums modulo
 * 2^64, as te_plan_live_bytes's). */
static size_t live_peak(const te_plan *p)
{
    size_t peak = 0, live = 0, *delta;
    int s, i;
    if (p->n_steps <= 0)
        return 0;
    delta = te_plan_scratch_get(p->scratch, TE_SCRATCH_PEAK, sizeof(size_t) * ((size_t)p->n_steps + 1));
    if (!delta) { /* out of memory: step by step */
        for (s = 0; s < p->n_steps; s++)
            if (te_plan_live_bytes(p, s) > peak)
                peak = te_plan_live_bytes(p, s);
        return peak;
    }
    memset(delta, 0, sizeof(size_t) * ((size_t)p->n_steps + 1));
    for (i = 0; i < p->n_buffers; i++) {
        const te_buffer *b = &p->buffers[i];
        const int first = b->first < 0 ? 0 : b->first;
        const int last = b->last >= p->n_steps ? p->n_steps - 1 : b->last;
        if (first > last)
            continue;
        delta[first] += te_buffer_bytes_from(b, first);
        if (b->shrink_after >= first && b->shrink_after < last)
            delta[b->shrink_after + 1] += b->shrunk_bytes - b->bytes;
        delta[last + 1] -= te_buffer_bytes_from(b, last);
    }
    if (p->has_tie) {
        const te_buffer *a = &p->buffers[p->tie_anchor], *m = &p->buffers[p->tie_member];
        const size_t off = p->tie_offset, end = off + m->bytes;
        int first = a->first > m->first ? a->first : m->first;
        int last = a->last < m->last ? a->last : m->last;
        first = first < 0 ? 0 : first;
        last = last >= p->n_steps ? p->n_steps - 1 : last;
        if (off < a->bytes && first <= last) {
            const size_t twice = (end < a->bytes ? end : a->bytes) - off;
            delta[first] -= twice;
            delta[last + 1] += twice;
        }
    }
    for (s = 0; s < p->n_steps; s++) {
        live += delta[s];
        if (live > peak)
            peak = live;
    }
    return peak;
}

/* w's arrays for n1 buffers, carved from one block of ws; all NULL when
 * out of memory. */
static void work_arrays(work *w, size_t n1, te_plan_scratch *ws)
{
    char *at = te_plan_scratch_get(ws, TE_SCRATCH_WORK,
                                   n1 * (sizeof(size_t) + sizeof(int64_t) + sizeof(sort_item) +
                                         2 * sizeof(neighbour) + 3 * sizeof(int) + 1));
    if (!at)
        return;
    w->best_off = (size_t *)(void *)at; /* the widest alignment first */
    at += n1 * sizeof(size_t);
    w->key = (int64_t *)(void *)at;
    at += n1 * sizeof(int64_t);
    w->item = (sort_item *)(void *)at;
    at += n1 * sizeof(sort_item);
    w->nb = (neighbour *)(void *)at;
    at += 2 * n1 * sizeof(neighbour);
    w->order = (int *)(void *)at;
    w->placed = w->order + n1;
    w->best_order = w->placed + n1;
    w->is_placed = (unsigned char *)(w->best_order + n1);
}

/* te_plan_place with the plan's tie as it stands. */
static void place(te_plan *p)
{
    tie_pair pair, *tie = NULL;
    int n = p->n_buffers, how, fit, i;
    const size_t n1 = (size_t)n + 1;
    work w = {0};
    size_t best = (size_t)-1;
    work_arrays(&w, n1, p->scratch);
    p->lower_bound = live_peak(p);
    if (p->has_tie) {
        pair.anchor = p->tie_anchor;
        pair.member = p->tie_member;
        pair.offset = p->tie_offset;
        tie = &pair;
    }
    if (!w.order || !w.placed || !w.best_off || !w.best_order || !w.key || !w.item || !w.nb || !w.is_placed) {
        /* no sharing at all: always correct */
        p->has_tie = 0;
        p->arena_bytes = 0;
        for (i = 0; i < n; i++) {
            p->buffers[i].offset = p->arena_bytes;
            p->arena_bytes += p->buffers[i].bytes;
        }
        return;
    }
    list_beside(p->buffers, n, &w, p->scratch);
    for (how = 0; how < N_ORDERS && best > p->lower_bound; how++) {
        for (fit = 0; fit < 2 && best > p->lower_bound; fit++) {
            size_t top;
            if (fit == 0) { /* both fits place the same order */
                for (i = 0; i < n; i++)
                    w.order[i] = i;
                sort_order(p->buffers, w.order, n, how, w.item);
            }
            top = place_in_order(p->buffers, w.order, n, &w, fit, tie, best);
            if (top < best) {
                best = top;
                for (i = 0; i < n; i++) {
                    w.best_off[i] = p->buffers[i].offset;
                    w.best_order[i] = w.order[i];
                }
            }
        }
    }
    if (n <= TE_PLAN_SEARCH_MAX_BUFFERS && !p->quick)
        best = improve_order(p->buffers, n, &w, best, p->lower_bound, tie);
    for (i = 0; i < n; i++)
        p->buffers[i].offset = w.best_off[i];
    p->arena_bytes = best;
}

/* te_plan_place with p->scratch set. */
static void place_tied(te_plan *p)
{
    size_t *tied = NULL, tied_arena;
    int i;
    if (p->has_tie)
        tied = te_plan_scratch_get(p->scratch, TE_SCRATCH_TIED,
                                   sizeof(size_t) * ((size_t)p->n_buffers + 1));
    if (!tied) {
        p->has_tie = 0;
        place(p);
        return;
    }
    place(p);
    if (!p->has_tie) /* out of memory: placed apart */
        return;
    tied_arena = p->arena_bytes;
    for (i = 0; i < p->n_buffers; i++)
        tied[i] = p->buffers[i].offset;
    p->has_tie = 0;
    place(p); /* the two apart: kept when no larger */
    if (tied_arena < p->arena_bytes) {
        p->has_tie = 1;
        for (i = 0; i < p->n_buffers; i++)
            p->buffers[i].offset = tied[i];
        p->arena_bytes = tied_arena;
        p->lower_bound = live_peak(p);
    }
}

void te_plan_place(te_plan *p)
{
    te_plan_scratch ws;
    if (p->scratch) {
        place_tied(p);
        return;
    }
    memset(&ws, 0, sizeof ws); /* working arrays for this placement alone */
    p->scratch = &ws;
    place_tied(p);
    p->scratch = NULL;
    te_plan_scratch_free(&ws);
}

size_t te_plan_first_fit(const te_buffer *bufs, const int *placed, int n_placed,
                         const te_buffer *b, const te_buffer *m, size_t m_off)
{
    neighbour *nb = malloc(sizeof(neighbour) * (2 * (size_t)n_placed + 1));
    placer pl = {0};
    size_t off = 0;
    int i;
    pl.bufs = bufs;
    pl.placed = placed;
    pl.n_placed = n_placed;
    if (nb) {
        off = choose_offset(&pl, b, 0, m, m_off, nb);
        free(nb);
        return off;
    }
    for (i = 0; i < n_placed; i++) /* out of memory: above every placed buffer */
        if (bufs[placed[i]].offset + bufs[placed[i]].bytes > off)
            off = bufs[placed[i]].offset + bufs[placed[i]].bytes;
    return off;
}
