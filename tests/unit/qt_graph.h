/* qt_graph.h - a one-operator graph of qtensors (qtensor.h) for the
 * element-wise tests' check() cases: inputs 0..n_in-1, output 3, the
 * graph's tensor array a copy made as each tensor is set, and check() run
 * with the message it must give.  Header only (static functions). */
#ifndef TE_QT_GRAPH_H
#define TE_QT_GRAPH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/diag.h"
#include "ops/ops.h"
#include "qtensor.h"

typedef struct {
    te_graph g;
    qtensor t[4];
    te_op op;
    int in[3], out[1];
} qt_graph;

/* Operator opcode with inputs 0..n_in-1 and output 3 (tensors unset). */
static QT_UNUSED void qg_init(qt_graph *m, int opcode, int n_in)
{
    int i;
    memset(m, 0, sizeof *m);
    m->g.n_tensors = 4;
    m->g.tensors = calloc(4, sizeof(te_tensor));
    m->g.ops = &m->op;
    m->g.n_ops = 1;
    m->op.opcode = opcode;
    m->op.n_in = n_in;
    m->op.n_out = 1;
    m->op.in = m->in;
    m->op.out = m->out;
    for (i = 0; i < n_in; i++)
        m->in[i] = i;
    m->out[0] = 3;
}

static QT_UNUSED void qg_set(qt_graph *m, int id, te_dtype type, int rank, const int *shape,
                             float scale, int zp)
{
    qt_init_type(&m->t[id], id, type, rank, shape, scale, zp);
    m->g.tensors[id] = m->t[id].t;
}

/* check(): 1 when it accepts the graph (expect NULL) or refuses it with a
 * message containing expect; frees the graph's tensor array. */
static QT_UNUSED int qg_check(qt_graph *m, const char *expect)
{
    const te_op_def *def = te_op_find(m->op.opcode);
    te_diag d;
    int rc;
    memset(&d, 0, sizeof d);
    rc = def && def->check ? def->check(&m->g, &m->op, &d) : 0;
    if (expect && (rc == 0 || !strstr(d.msg, expect)))
        fprintf(stderr, "expected error '%s', got rc %d '%s'\n", expect, rc, d.msg);
    if (!expect && rc != 0)
        fprintf(stderr, "unexpected error '%s'\n", d.msg);
    free(m->g.tensors);
    return expect ? rc < 0 && strstr(d.msg, expect) != NULL : rc == 0;
}

#endif
