/* storage.h - the storage decisions of one plan candidate, as a value
 * beside the (const) graph: for every tensor, whether it has storage of its
 * own, is a zero-copy view of another tensor (RESHAPE, SPLIT ...: the
 * graph's views, copied in), an output written in place over an input that
 * dies there (pass_inplace.c), or a slice of a concatenation's output that
 * its producer writes straight into (pass_concat.c).
 *
 * The compiler makes one per candidate (with or without in-place links,
 * with or without slices); lowering (te_lower_opts.st), the planner
 * (te_plan.st), the emitter and the reports read it.  Nothing writes it
 * once the candidate is built. */
#ifndef TE_STORAGE_H
#define TE_STORAGE_H

#include <stddef.h>

#include "ir.h"

typedef enum {
    TE_STORE_OWN = 0,  /* storage of its own */
    TE_STORE_VIEW,     /* a zero-copy view (te_tensor.alias_of of the graph) */
    TE_STORE_INPLACE,  /* written in place over input alias_of */
    TE_STORE_SLICE     /* a slice of concatenation output alias_of */
} te_store_kind;

typedef struct {
    te_store_kind kind;
    int alias_of;        /* tensor id whose storage it shares, or -1 */
    size_t alias_offset; /* byte offset inside that storage */
    size_t slice_pitch;  /* TE_STORE_SLICE: bytes from one row (pixel) to the
                          * next in the concatenation's output; 0 contiguous */
} te_tensor_store;

typedef struct te_storage {
    int n_tensors;
    te_tensor_store *t; /* n_tensors entries, by tensor id */
} te_storage;

/* Every tensor of g on its own storage, but the graph's views; NULL when
 * out of memory. */
te_storage *te_storage_new(const te_graph *g);
te_storage *te_storage_copy(const te_storage *s);
void te_storage_free(te_storage *s);

/* Links tensor t to `to` at byte offset `offset` (kind: not OWN). */
void te_storage_link(te_storage *s, int t, te_store_kind kind, int to, size_t offset);
/* Gives t storage of its own again. */
void te_storage_unlink(te_storage *s, int t);

/* The tensor whose storage t shares, or -1. */
static inline int te_storage_alias_of(const te_storage *s, int t) { return s->t[t].alias_of; }
static inline int te_storage_inplace(const te_storage *s, int t)
{
    return s->t[t].kind == TE_STORE_INPLACE;
}
static inline int te_storage_slice(const te_storage *s, int t)
{
    return s->t[t].kind == TE_STORE_SLICE;
}
/* The pitch of a strided slice, 0 for anything else. */
static inline size_t te_storage_slice_pitch(const te_storage *s, int t)
{
    return s->t[t].kind == TE_STORE_SLICE ? s->t[t].slice_pitch : 0;
}

/* Storage root of tensor t (following every link), and t's byte offset in
 * it (the sum of the offsets on the way). */
int te_storage_root(const te_storage *s, int t, size_t *offset);
/* The root when in-place and slice links are ignored (views followed). */
int te_storage_view_root(const te_storage *s, int t);
/* 1 if a and b make the same decisions. */
int te_storage_equal(const te_storage *a, const te_storage *b);
/* 1 if some tensor has a link of that kind. */
int te_storage_any(const te_storage *s, te_store_kind kind);

#endif
