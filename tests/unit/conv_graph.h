/* conv_graph.h - a hand-built graph of one convolution-family operator
 * (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV) for the
 * tests of its check(): tensors 0 input, 1 weights, 2 bias, 3 output (and
 * up to two more), per-channel scales, and check() run on it.  Header only
 * (static functions). */
#ifndef TE_CONV_GRAPH_H
#define TE_CONV_GRAPH_H

#include <string.h>

#include "ir/diag.h"
#include "ir/ir.h"
#include "one_op_graph.h"
#include "ops/ops.h"

typedef struct {
    te_graph g;
    te_tensor t[6];
    te_op op;
    int in[4], out[1];
    float scale[6][40];
    int64_t zp[6][40];
    te_diag d; /* check()'s message */
} conv_graph;

/* Tensor id: its type and shape, nscales quantization channels of the
 * same scale, zero point 0. */
static OG_UNUSED void cg_tensor(conv_graph *m, int id, te_dtype type, int rank,
                                const int *shape, int nscales, float scale)
{
    te_tensor *t = &m->t[id];
    int i;
    memset(t, 0, sizeof *t);
    og_tensor_init(t, id, type, rank, shape);
    t->q.count = nscales;
    t->q.scale = m->scale[id];
    t->q.zero_point = m->zp[id];
    for (i = 0; i < nscales; i++) {
        m->scale[id][i] = scale;
        m->zp[id][i] = 0;
    }
}

/* The operator: inputs 0, 1, 2, output 3, n_tensors tensors; SAME padding,
 * stride and dilation 1. */
static OG_UNUSED void cg_wire(conv_graph *m, int opcode, int n_tensors)
{
    m->g.tensors = m->t;
    m->g.n_tensors = n_tensors;
    m->g.ops = &m->op;
    m->g.n_ops = 1;
    m->op.opcode = opcode;
    m->op.n_in = 3;
    m->op.n_out = 1;
    m->op.in = m->in;
    m->op.out = m->out;
    m->in[0] = 0;
    m->in[1] = 1;
    m->in[2] = 2;
    m->out[0] = 3;
    m->op.opt.padding = TE_PAD_SAME;
    m->op.opt.stride_h = m->op.opt.stride_w = 1;
    m->op.opt.dilation_h = m->op.opt.dilation_w = 1;
}

/* check() of the operator (message in m->d); -2 when it has none. */
static OG_UNUSED int cg_check(conv_graph *m)
{
    const te_op_def *def = te_op_find(m->op.opcode);
    memset(&m->d, 0, sizeof m->d);
    return def && def->check ? def->check(&m->g, &m->op, &m->d) : -2;
}

#endif
