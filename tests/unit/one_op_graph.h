/* one_op_graph.h - a graph of one operator built by hand for the operator
 * tests: tensors of the shapes and types a test gives, constants with their
 * little-endian data, and each arena tensor's place (the plan the emitter
 * reads) at the offset the test chooses.  Header only (static functions). */
#ifndef TE_ONE_OP_GRAPH_H
#define TE_ONE_OP_GRAPH_H

#include <stdint.h>
#include <string.h>

#include "ir/ir.h"
#include "plan/plan.h"
#include "testlib.h"

#if defined(__GNUC__)
#define OG_UNUSED __attribute__((unused))
#else
#define OG_UNUSED
#endif

#define OG_MAXT 16  /* tensors */
#define OG_CMAX 512 /* bytes of one constant */

typedef struct {
    te_graph g;
    te_tensor t[OG_MAXT];
    te_tensor_place place[OG_MAXT]; /* where the plan put each tensor */
    te_plan plan;                   /* place, for the emitter */
    float scale[OG_MAXT];
    int64_t zp[OG_MAXT];
    int in_ids[OG_MAXT], out_ids[OG_MAXT];
    te_op op;
    uint8_t cdata[OG_MAXT][OG_CMAX];
    size_t next; /* for tests that pack tensors: the next free arena offset */
} op_graph;

/* The fields of tensor t any test graph sets: id, name "t", type, shape;
 * no producer, no alias. */
static OG_UNUSED void og_tensor_init(te_tensor *t, int id, te_dtype type, int rank,
                                     const int *shape)
{
    int i;
    t->id = id;
    t->name = "t";
    t->type = type;
    t->rank = rank;
    for (i = 0; i < rank; i++)
        t->shape[i] = shape[i];
    t->producer = -1;
    t->alias_of = -1;
}

/* An empty graph of one operator, no inputs or outputs yet. */
static OG_UNUSED void og_init(op_graph *m, int opcode)
{
    memset(m, 0, sizeof *m);
    m->g.tensors = m->t;
    m->g.ops = &m->op;
    m->g.n_ops = 1;
    m->op.opcode = opcode;
    m->op.in = m->in_ids;
    m->op.out = m->out_ids;
}

/* Adds a tensor (scale 0.05, zero point 0); returns its id.  arena < 0: a
 * constant (data set later), else its offset in the arena. */
static OG_UNUSED int og_tensor(op_graph *m, te_dtype type, int rank, const int *shape, long arena)
{
    int id = m->g.n_tensors++;
    te_tensor *t = &m->t[id];
    og_tensor_init(t, id, type, rank, shape);
    m->place[id].arena_offset = arena < 0 ? 0 : (size_t)arena;
    m->place[id].in_arena = arena >= 0;
    m->scale[id] = 0.05f;
    m->zp[id] = 0;
    t->q.count = 1;
    t->q.scale = &m->scale[id];
    t->q.zero_point = &m->zp[id];
    return id;
}

/* Constant data of tensor id: n values, 8 bytes each for an INT64 tensor,
 * else 4 (int32). */
static OG_UNUSED void og_const(op_graph *m, int id, const int64_t *v, int n)
{
    int i, k, size = m->t[id].type == TE_DT_INT64 ? 8 : 4;
    for (i = 0; i < n; i++)
        for (k = 0; k < size; k++)
            m->cdata[id][size * i + k] = (uint8_t)((uint64_t)v[i] >> (8 * k));
    m->t[id].data = m->cdata[id];
    m->t[id].data_bytes = (size_t)(n * size);
}

/* The same from int32 values. */
static OG_UNUSED void og_const_i32(op_graph *m, int id, const int32_t *v, int n)
{
    int64_t w[OG_CMAX / 4];
    int i;
    for (i = 0; i < n; i++)
        w[i] = v[i];
    og_const(m, id, w, n);
}

/* Elements of a shape. */
static OG_UNUSED int64_t og_elems(const int *shape, int rank)
{
    int64_t n = 1;
    int i;
    for (i = 0; i < rank; i++)
        n *= shape[i];
    return n;
}

/* A random shape, each dimension 1..maxd. */
static OG_UNUSED void og_rand_shape(int *shape, int rank, int maxd)
{
    int i;
    for (i = 0; i < rank; i++)
        shape[i] = test_rand_range(1, maxd);
}

#endif
