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

/* Insertion sort by descending key (reentrant; a few hundred buffers). */
static void sort_order(const te_buffer *bufs, int *order, int n, int how)
{
    int i, j;
    for (i = 1; i < n; i++) {
        int v = order[i];
        int64_t kv = sort_key(&bufs[v], how);
        for (j = i; j > 0 && sort_key(&bufs[order[j - 1]], how) < kv; j--)
            order[j] = order[j - 1];
        order[j] = v;
    }
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

/* The placed buffers living at the same time as x, into out; their count. */
static int neighbours_of(const te_buffer *bufs, const int *placed, int n_placed,
                         const te_buffer *x, neighbour *out)
{
    int i, k = 0;
    for (i = 0; i < n_placed; i++) {
        const te_buffer *o = &bufs[placed[i]];
        if (!lifetimes_overlap(o, x))
            continue;
        out[k].lo = o->offset;
        out[k].hi = o->offset + te_buffer_bytes_beside(o, x);
        out[k].x_bytes = te_buffer_bytes_beside(x, o);
        k++;
    }
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
static size_t choose_offset(const te_buffer *bufs, const int *placed, int n_placed,
                            const te_buffer *b, int best_fit, const te_buffer *m, size_t m_off,
                            neighbour *nb)
{
    size_t best = (size_t)-1, best_gap = (size_t)-1;
    const int kb = neighbours_of(bufs, placed, n_placed, b, nb);
    const int km = m ? neighbours_of(bufs, placed, n_placed, m, nb + kb) : 0;
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

/* Places buffers in `order` (a tied member together with its anchor);
 * returns the arena size (offsets left in bufs), or, as soon as it
 * reaches `cap`, a size >= cap (the placement left unfinished: the
 * callers keep only a placement below the best so far).  nb: room for
 * 2 x n neighbours. */
static size_t place_in_order(te_buffer *bufs, const int *order, int n, int *placed, int best_fit,
                             const tie_pair *tie, size_t cap, neighbour *nb)
{
    size_t top = 0;
    int i, n_placed = 0;
    for (i = 0; i < n; i++) {
        te_buffer *b = &bufs[order[i]], *m = NULL;
        if (b->last < b->first || (tie && order[i] == tie->member))
            continue;
        if (tie && order[i] == tie->anchor)
            m = &bufs[tie->member];
        b->offset =
            choose_offset(bufs, placed, n_placed, b, best_fit, m, tie ? tie->offset : 0, nb);
        placed[n_placed++] = order[i];
        if (b->offset + b->bytes > top)
            top = b->offset + b->bytes;
        if (m) {
            m->offset = b->offset + tie->offset;
            placed[n_placed++] = tie->member;
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
static size_t improve_order(te_buffer *bufs, int n, int *best_order, int *order, int *placed,
                            size_t best, size_t bound, size_t *best_off, const tie_pair *tie,
                            neighbour *nb)
{
    int round, k, i;
    for (round = 0; round < 3 && best > bound; round++) {
        int improved = 0;
        for (k = 1; k < n && best > bound; k++) {
            size_t top;
            order[0] = best_order[k];
            for (i = 0; i < k; i++)
                order[i + 1] = best_order[i];
            for (i = k + 1; i < n; i++)
                order[i] = best_order[i];
            top = place_in_order(bufs, order, n, placed, 0, tie, best, nb);
            if (top < best) {
                best = top;
                improved = 1;
                for (i = 0; i < n; i++) {
                    best_order[i] = order[i];
                    best_off[i] = bufs[i].offset;
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
    delta = calloc((size_t)p->n_steps + 1, sizeof(size_t));
    if (!delta) { /* out of memory: step by step */
        for (s = 0; s < p->n_steps; s++)
            if (te_plan_live_bytes(p, s) > peak)
                peak = te_plan_live_bytes(p, s);
        return peak;
    }
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
    free(delta);
    return peak;
}

/* te_plan_place with the plan's tie as it stands. */
static void place(te_plan *p)
{
    tie_pair pair, *tie = NULL;
    int n = p->n_buffers, how, fit, i;
    int *order = malloc(sizeof(int) * ((size_t)n + 1));
    int *placed = malloc(sizeof(int) * ((size_t)n + 1));
    size_t *best_off = malloc(sizeof(size_t) * ((size_t)n + 1));
    int *best_order = malloc(sizeof(int) * ((size_t)n + 1));
    neighbour *nb = malloc(sizeof(neighbour) * (2 * (size_t)n + 1));
    size_t best = (size_t)-1;
    p->lower_bound = live_peak(p);
    if (p->has_tie) {
        pair.anchor = p->tie_anchor;
        pair.member = p->tie_member;
        pair.offset = p->tie_offset;
        tie = &pair;
    }
    if (!order || !placed || !best_off || !best_order || !nb) {
        /* no sharing at all: always correct */
        p->has_tie = 0;
        p->arena_bytes = 0;
        for (i = 0; i < n; i++) {
            p->buffers[i].offset = p->arena_bytes;
            p->arena_bytes += p->buffers[i].bytes;
        }
        free(order);
        free(placed);
        free(best_off);
        free(best_order);
        free(nb);
        return;
    }
    for (how = 0; how < N_ORDERS && best > p->lower_bound; how++) {
        for (fit = 0; fit < 2 && best > p->lower_bound; fit++) {
            size_t top;
            for (i = 0; i < n; i++)
                order[i] = i;
            sort_order(p->buffers, order, n, how);
            top = place_in_order(p->buffers, order, n, placed, fit, tie, best, nb);
            if (top < best) {
                best = top;
                for (i = 0; i < n; i++) {
                    best_off[i] = p->buffers[i].offset;
                    best_order[i] = order[i];
                }
            }
        }
    }
    if (n <= TE_PLAN_SEARCH_MAX_BUFFERS && !p->quick)
        best = improve_order(p->buffers, n, best_order, order, placed, best, p->lower_bound,
                             best_off, tie, nb);
    for (i = 0; i < n; i++)
        p->buffers[i].offset = best_off[i];
    p->arena_bytes = best;
    free(order);
    free(placed);
    free(best_off);
    free(best_order);
    free(nb);
}

void te_plan_place(te_plan *p)
{
    size_t *tied = NULL, tied_arena;
    int i;
    if (p->has_tie)
        tied = malloc(sizeof(size_t) * ((size_t)p->n_buffers + 1));
    if (!tied) {
        p->has_tie = 0;
        place(p);
        return;
    }
    place(p);
    if (!p->has_tie) { /* out of memory: placed apart */
        free(tied);
        return;
    }
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
    free(tied);
}

size_t te_plan_first_fit(const te_buffer *bufs, const int *placed, int n_placed,
                         const te_buffer *b, const te_buffer *m, size_t m_off)
{
    neighbour *nb = malloc(sizeof(neighbour) * (2 * (size_t)n_placed + 1));
    size_t off = 0;
    int i;
    if (nb) {
        off = choose_offset(bufs, placed, n_placed, b, 0, m, m_off, nb);
        free(nb);
        return off;
    }
    for (i = 0; i < n_placed; i++) /* out of memory: above every placed buffer */
        if (bufs[placed[i]].offset + bufs[placed[i]].bytes > off)
            off = bufs[placed[i]].offset + bufs[placed[i]].bytes;
    return off;
}
