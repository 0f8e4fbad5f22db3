/* storage.c - the storage decisions of a plan candidate (storage.h). */
#include "storage.h"

#include <stdlib.h>
#include <string.h>

static te_storage *alloc_storage(int n)
{
    te_storage *s = calloc(1, sizeof *s);
    if (s)
        s->t = calloc((size_t)n + 1, sizeof *s->t);
    if (!s || !s->t) {
        free(s);
        return NULL;
    }
    s->n_tensors = n;
    return s;
}

te_storage *te_storage_new(const te_graph *g)
{
    te_storage *s = alloc_storage(g->n_tensors);
    int t;
    for (t = 0; s && t < g->n_tensors; t++) {
        s->t[t].alias_of = -1;
        if (g->tensors[t].alias_of >= 0)
            te_storage_link(s, t, TE_STORE_VIEW, g->tensors[t].alias_of,
                            g->tensors[t].alias_offset);
    }
    return s;
}

te_storage *te_storage_copy(const te_storage *s)
{
    te_storage *c = alloc_storage(s->n_tensors);
    if (c)
        memcpy(c->t, s->t, sizeof *c->t * (size_t)s->n_tensors);
    return c;
}

void te_storage_free(te_storage *s)
{
    if (!s)
        return;
    free(s->t);
    free(s);
}

void te_storage_link(te_storage *s, int t, te_store_kind kind, int to, size_t offset)
{
    s->t[t].kind = kind;
    s->t[t].alias_of = to;
    s->t[t].alias_offset = offset;
    s->t[t].slice_pitch = 0;
}

void te_storage_unlink(te_storage *s, int t)
{
    te_storage_link(s, t, TE_STORE_OWN, -1, 0);
}

int te_storage_root(const te_storage *s, int t, size_t *offset)
{
    size_t off = 0;
    int guard = 0;
    while (s->t[t].alias_of >= 0 && guard++ < s->n_tensors) {
        off += s->t[t].alias_offset;
        t = s->t[t].alias_of;
    }
    if (offset)
        *offset = off;
    return t;
}

int te_storage_view_root(const te_storage *s, int t)
{
    int guard = 0;
    while (s->t[t].kind == TE_STORE_VIEW && guard++ < s->n_tensors)
        t = s->t[t].alias_of;
    return t;
}

int te_storage_any(const te_storage *s, te_store_kind kind)
{
    int t;
    for (t = 0; t < s->n_tensors; t++)
        if (s->t[t].kind == kind)
            return 1;
    return 0;
}

int te_storage_equal(const te_storage *a, const te_storage *b)
{
    int t;
    if (a->n_tensors != b->n_tensors)
        return 0;
    for (t = 0; t < a->n_tensors; t++)
        if (a->t[t].kind != b->t[t].kind || a->t[t].alias_of != b->t[t].alias_of ||
            a->t[t].alias_offset != b->t[t].alias_offset ||
            a->t[t].slice_pitch != b->t[t].slice_pitch)
            return 0;
    return 1;
}
