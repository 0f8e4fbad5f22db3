/* plan_regions.c - several RAM regions (--memory-region NAME=BYTES): each
 * arena buffer goes in exactly one region, the hottest first.
 *
 * A buffer's heat is the bytes its operators read and write per byte of its
 * size (each operator touching it counts its MACs, or its activation bytes
 * when it multiplies nothing): small scratch and small, busy activations
 * come first.  In that order buffers fill the first region while they fit
 * (first fit beside the ones already there), then the next; the last region
 * takes the rest.  Each region is then placed again with the arena placer
 * (te_plan_place) when that is smaller, so it sits at its own lifetime
 * bound.  A buffer never straddles regions; in-place outputs and
 * concatenation slices share their root's buffer, so their region; the
 * patch stage's tied pair (its output and the input inside it) goes into
 * one region together.
 *
 * The plan keeps one offset space: region r's buffers lie in [base, base +
 * bytes) of it, regions end to end (16-byte aligned), so everything that
 * reads offsets (patch slots, aliases, reports) is unchanged; the emitter
 * turns an offset into region r's array plus (offset - base). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/storage.h"
#include "patch.h"
#include "plan.h"

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v;
    if (!isdigit((unsigned char)*s))
        return -1;
    v = strtoull(s, &end, 10);
    if (*end == 'k' || *end == 'K')
        v *= 1024, end++;
    else if (*end == 'm' || *end == 'M')
        v *= 1024 * 1024, end++;
    if (*end != '\0' || v == 0)
        return -1;
    *out = (size_t)v;
    return 0;
}

/* Names the generated code already uses as NAME_<X>_ATTR / NAME_<X>_BYTES. */
static int reserved(const char *name)
{
    static const char *const taken[] = {"ARENA", "WEIGHTS", "STATE", "STACK", "LAYER"};
    size_t i;
    char up[TE_REGION_NAME_MAX];
    for (i = 0; name[i] && i + 1 < sizeof up; i++)
        up[i] = (char)toupper((unsigned char)name[i]);
    up[i] = '\0';
    for (i = 0; i < sizeof taken / sizeof taken[0]; i++)
        if (!strcmp(up, taken[i]))
            return 1;
    return 0;
}

static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b))
            return 0;
    return *a == *b;
}

int te_regions_add(te_regions *r, const char *spec, char *err, size_t err_size)
{
    const char *eq = strchr(spec, '=');
    size_t len = eq ? (size_t)(eq - spec) : 0, i, bytes;
    te_region_spec *out;
    int k;
    if (!eq || len == 0 || parse_size(eq + 1, &bytes) < 0) {
        snprintf(err, err_size, "--memory-region takes NAME=BYTES such as DTCM=128K, not '%s'",
                 spec);
        return -1;
    }
    if (len >= TE_REGION_NAME_MAX || isdigit((unsigned char)spec[0])) {
        snprintf(err, err_size, "--memory-region: '%.*s' is not a C identifier of at most %d "
                 "characters", (int)len, spec, TE_REGION_NAME_MAX - 1);
        return -1;
    }
    for (i = 0; i < len; i++)
        if (!isalnum((unsigned char)spec[i]) && spec[i] != '_') {
            snprintf(err, err_size, "--memory-region: '%.*s' is not a C identifier", (int)len,
                     spec);
            return -1;
        }
    if (r->n >= TE_MAX_REGIONS) {
        snprintf(err, err_size, "--memory-region: at most %d regions", TE_MAX_REGIONS);
        return -1;
    }
    out = &r->r[r->n];
    memcpy(out->name, spec, len);
    out->name[len] = '\0';
    if (reserved(out->name)) {
        snprintf(err, err_size, "--memory-region: the name %s is taken by the generated code "
                 "(NAME_%s_ATTR); pick another", out->name, out->name);
        return -1;
    }
    for (k = 0; k < r->n; k++)
        if (same_name(r->r[k].name, out->name)) {
            snprintf(err, err_size, "--memory-region %s given twice (names are compared "
                     "ignoring case)", out->name);
            return -1;
        }
    out->limit = bytes;
    r->n++;
    return 0;
}

/* The buffer tensor t, read or written at step s, lives in (its storage
 * root's; a patch stage's tensor: the working memory of the stage holding
 * step s), or -1. */
static int buffer_of(const te_plan *p, int t, int s)
{
    size_t off;
    int r = te_storage_root(p->st, t, &off), k = 0;
    if (p->patch_role[t] && p->patch_scratch >= 0) {
        if (te_patch_stage_of(p->stage, s, &k) && k < TE_PATCH_MAX_STAGES &&
            p->stage_scratch[k] >= 0)
            return p->stage_scratch[k];
        return p->patch_scratch;
    }
    return p->tensor_buffer[r];
}

/* Bytes each buffer's operators read and write, per byte of its size. */
static void buffer_heat(const te_plan *p, const te_graph *g, double *heat)
{
    int s, i;
    for (i = 0; i < p->n_buffers; i++)
        heat[i] = 0;
    for (s = 0; s < p->n_steps; s++) {
        const te_op *op = &g->ops[p->schedule[s]];
        const te_lowering *l = p->low ? te_lowered_find(p->low, g, op) : NULL;
        double work = 0;
        int64_t macs = l ? l->macs : 0;
        for (i = 0; i < op->n_in + op->n_out; i++) {
            int t = i < op->n_in ? op->in[i] : op->out[i - op->n_in];
            if (t >= 0 && !g->tensors[t].data)
                work += (double)te_tensor_bytes(&g->tensors[t]);
        }
        if ((double)macs > work)
            work = (double)macs;
        for (i = 0; i < op->n_in + op->n_out; i++) {
            int t = i < op->n_in ? op->in[i] : op->out[i - op->n_in], b;
            if (t < 0 || g->tensors[t].data || (b = buffer_of(p, t, s)) < 0)
                continue;
            heat[b] += work;
        }
        if (p->op_scratch[p->schedule[s]] >= 0)
            heat[p->op_scratch[p->schedule[s]]] += work;
    }
    for (i = 0; i < p->n_buffers; i++)
        heat[i] /= (double)(p->buffers[i].bytes ? p->buffers[i].bytes : 1);
}

/* Hottest first; then the smaller; then the earlier. */
static void sort_by_heat(const te_buffer *bufs, const double *heat, int *order, int n)
{
    int i, j;
    for (i = 1; i < n; i++) {
        int v = order[i];
        for (j = i; j > 0; j--) {
            int u = order[j - 1];
            int before = heat[v] > heat[u] ||
                         (heat[v] == heat[u] && (bufs[v].bytes < bufs[u].bytes ||
                                                 (bufs[v].bytes == bufs[u].bytes && v < u)));
            if (!before)
                break;
            order[j] = u;
        }
        order[j] = v;
    }
}

static int live(const te_buffer *b) { return b->last >= b->first; }

/* Fills region r with the buffers of `order` not yet given one that fit
 * below `limit` beside those already there (bounded 0: all of them); the
 * plan's tied pair goes in together, at its anchor's turn.  Offsets
 * relative to the region; returns its top. */
static size_t fill_region(te_plan *p, const int *order, int r, int bounded, size_t limit,
                          int *placed)
{
    te_buffer *bufs = p->buffers;
    int i, n_placed = 0;
    size_t top = 0;
    for (i = 0; i < p->n_buffers; i++) {
        te_buffer *b = &bufs[order[i]], *m = NULL;
        size_t off, end;
        if (b->region >= 0 || (p->has_tie && order[i] == p->tie_member))
            continue;
        if (p->has_tie && order[i] == p->tie_anchor && live(&bufs[p->tie_member]))
            m = &bufs[p->tie_member];
        off = te_plan_first_fit(bufs, placed, n_placed, b, m, p->tie_offset);
        end = off + b->bytes;
        if (m && off + p->tie_offset + m->bytes > end)
            end = off + p->tie_offset + m->bytes;
        if (bounded && end > (limit & ~(size_t)15))
            continue;
        b->offset = off;
        b->region = r;
        placed[n_placed++] = order[i];
        if (m) {
            m->offset = off + p->tie_offset;
            m->region = r;
            placed[n_placed++] = p->tie_member;
        }
        if (end > top)
            top = end;
    }
    return top;
}

/* Places region r again with the arena placer and keeps that when smaller
 * than first fit's `top` (the tied pair with it, when the region holds it:
 * apart if the placer found that no larger); returns the region's bytes
 * (offsets relative). */
static size_t replace_region(te_plan *p, int r, size_t top, size_t *lower_bound)
{
    te_plan sub;
    int i, n = 0, tied = p->has_tie && p->buffers[p->tie_anchor].region == r;
    memset(&sub, 0, sizeof sub);
    sub.buffers = malloc(sizeof(te_buffer) * ((size_t)p->n_buffers + 1));
    if (!sub.buffers)
        return top;
    for (i = 0; i < p->n_buffers; i++)
        if (p->buffers[i].region == r && live(&p->buffers[i])) {
            if (tied && i == p->tie_anchor)
                sub.tie_anchor = n;
            if (tied && i == p->tie_member)
                sub.tie_member = n;
            sub.buffers[n++] = p->buffers[i];
        }
    sub.n_buffers = n;
    sub.n_steps = p->n_steps;
    sub.quick = p->quick;
    sub.has_tie = tied;
    sub.tie_offset = p->tie_offset;
    te_plan_place(&sub);
    *lower_bound = sub.lower_bound;
    if (sub.arena_bytes < top) {
        top = sub.arena_bytes;
        for (i = 0, n = 0; i < p->n_buffers; i++)
            if (p->buffers[i].region == r && live(&p->buffers[i]))
                p->buffers[i].offset = sub.buffers[n++].offset;
        if (tied)
            p->has_tie = sub.has_tie;
    }
    free(sub.buffers);
    return top;
}

static int overflow(const te_plan *p, int r, te_diag *d)
{
    const te_plan_region *pr = &p->regions[r];
    char before[160] = "";
    if (r > 0)
        snprintf(before, sizeof before, " after %s%s took the hottest buffers",
                 p->regions[0].spec.name, r > 1 ? " and the regions before it" : "");
    return te_fail(d, "does not fit --memory-region %s=%zu: region %s needs %zu bytes%s "
                   "(--memory-region %s=%zu would fit)",
                   pr->spec.name, pr->spec.limit, pr->spec.name, pr->bytes, before,
                   pr->spec.name, pr->bytes);
}

int te_plan_regions(te_plan *p, const te_graph *g, const te_regions *rs, te_diag *d)
{
    int n = p->n_buffers, i, r, rc = 0;
    int *order = malloc(sizeof(int) * ((size_t)n + 1));
    int *placed = malloc(sizeof(int) * ((size_t)n + 1));
    double *heat = malloc(sizeof(double) * ((size_t)n + 1));
    size_t base = 0;
    if (!order || !placed || !heat) {
        free(order);
        free(placed);
        free(heat);
        return te_fail(d, "out of memory while placing memory regions");
    }
    buffer_heat(p, g, heat);
    p->one_region_bytes = p->arena_bytes;
    for (i = 0; i < n; i++) {
        order[i] = i;
        p->buffers[i].region = live(&p->buffers[i]) ? -1 : 0;
    }
    sort_by_heat(p->buffers, heat, order, n);
    p->n_regions = rs->n;
    for (r = 0; r < rs->n; r++) {
        te_plan_region *pr = &p->regions[r];
        size_t top = fill_region(p, order, r, r + 1 < rs->n, rs->r[r].limit, placed);
        pr->spec = rs->r[r];
        pr->bytes = align16(replace_region(p, r, top, &pr->lower_bound));
        pr->base = base;
        base += pr->bytes;
    }
    for (i = 0; i < n; i++)
        if (live(&p->buffers[i]))
            p->buffers[i].offset += p->regions[p->buffers[i].region].base;
    p->arena_bytes = base;
    te_plan_assign_offsets(p, g);
    for (r = 0; r < rs->n && rc == 0; r++)
        if (p->regions[r].bytes > p->regions[r].spec.limit)
            rc = overflow(p, r, d);
    free(order);
    free(placed);
    free(heat);
    return rc;
}
