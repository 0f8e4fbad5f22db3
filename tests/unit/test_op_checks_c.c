/* test_op_checks_c.c - check() of RESIZE_BILINEAR, REDUCE_MAX/MIN, SUM,
 * ARG_MAX/MIN and BATCH_MATMUL on small hand-made graphs: a valid graph is
 * accepted, and each way TFLite Micro refuses it (or we cannot compute it)
 * is refused with one message naming the problem. */
#include <stdio.h>
#include <string.h>

#include "ir/diag.h"
#include "ir/ir.h"
#include "one_op_graph.h"
#include "ops/ops.h"
#include "testlib.h"

/* A one-operator graph with one output. */
static void g_init(op_graph *m, int opcode)
{
    og_init(m, opcode);
    m->op.n_out = 1;
}

static int g_tensor(op_graph *m, te_dtype type, int rank, const int *shape)
{
    return og_tensor(m, type, rank, shape, -1);
}

/* A constant int32 vector. */
static int g_const_i32(op_graph *m, int n, const int32_t *v)
{
    int shape[1] = {n}, id = g_tensor(m, TE_DT_INT32, 1, shape);
    og_const_i32(m, id, v, n);
    m->t[id].q.count = 0;
    return id;
}

static void g_io(op_graph *m, int in0, int in1, int out)
{
    m->in_ids[0] = in0;
    m->in_ids[1] = in1;
    m->op.n_in = 2;
    m->out_ids[0] = out;
}

/* check() result; when `want` is set, the message must contain it. */
static int run_check(op_graph *m, const char *want)
{
    te_diag d;
    const te_op_def *def = te_op_find(m->op.opcode);
    int rc;
    memset(&d, 0, sizeof d);
    if (!def)
        return -2;
    rc = def->check(&m->g, &m->op, &d);
    if (want && (rc == 0 || !strstr(d.msg, want))) {
        fprintf(stderr, "expected '%s', got rc %d '%s'\n", want, rc, d.msg);
        return 0;
    }
    return rc;
}

static void resize_graph(op_graph *m, int ac, int hp, int oh, int ow)
{
    int is[4] = {1, 4, 4, 3}, os[4] = {1, oh, ow, 3};
    int32_t size[2] = {oh, ow};
    int a, b;
    g_init(m, TE_OP_RESIZE_BILINEAR);
    a = g_tensor(m, TE_DT_INT8, 4, is);
    b = g_const_i32(m, 2, size);
    g_io(m, a, b, g_tensor(m, TE_DT_INT8, 4, os));
    m->op.opt.align_corners = ac;
    m->op.opt.half_pixel_centers = hp;
}

static void test_resize_checks(void)
{
    op_graph m;
    resize_graph(&m, 0, 1, 7, 9);
    CHECK(run_check(&m, NULL) == 0);
    resize_graph(&m, 1, 1, 7, 9);
    CHECK(run_check(&m, "align_corners and half_pixel_centers") < 0);
    resize_graph(&m, 0, 0, 7, 9);
    m.t[2].shape[1] = 8; /* size tensor says 7 */
    CHECK(run_check(&m, "does not match") < 0);
    resize_graph(&m, 0, 0, 7, 9);
    m.t[0].type = TE_DT_INT16;
    CHECK(run_check(&m, "expected int8") < 0);
}

static void reduce_graph(op_graph *m, int opcode, int32_t axis, int out_elems)
{
    int is[3] = {2, 3, 4}, os[1] = {out_elems};
    int a, b;
    g_init(m, opcode);
    a = g_tensor(m, TE_DT_INT8, 3, is);
    b = g_const_i32(m, 1, &axis);
    g_io(m, a, b, g_tensor(m, TE_DT_INT8, 1, os));
}

static void test_reduce_checks(void)
{
    static const int ops[3] = {TE_OP_REDUCE_MAX, TE_OP_REDUCE_MIN, TE_OP_SUM};
    op_graph m;
    int k;
    for (k = 0; k < 3; k++) {
        reduce_graph(&m, ops[k], -1, 6);
        CHECK(run_check(&m, NULL) == 0);
        reduce_graph(&m, ops[k], 3, 6);
        CHECK(run_check(&m, "outside [-3, 3)") < 0);
        reduce_graph(&m, ops[k], 1, 6);
        CHECK(run_check(&m, "the reduction gives 8") < 0);
        reduce_graph(&m, ops[k], 0, 12);
        m.scale[2] = 0.5f; /* only SUM rescales */
        CHECK(k == 2 ? run_check(&m, NULL) == 0 : run_check(&m, "scale and zero point") < 0);
    }
}

static void arg_graph(op_graph *m, int opcode, int32_t axis, te_dtype out_type, int out_elems)
{
    int is[3] = {2, 3, 4}, os[1] = {out_elems};
    int a, b;
    g_init(m, opcode);
    a = g_tensor(m, TE_DT_INT8, 3, is);
    b = g_const_i32(m, 1, &axis);
    g_io(m, a, b, g_tensor(m, out_type, 1, os));
}

static void test_arg_checks(void)
{
    op_graph m;
    arg_graph(&m, TE_OP_ARG_MAX, 1, TE_DT_INT32, 8);
    CHECK(run_check(&m, NULL) == 0);
    arg_graph(&m, TE_OP_ARG_MIN, -3, TE_DT_INT64, 12);
    CHECK(run_check(&m, NULL) == 0);
    arg_graph(&m, TE_OP_ARG_MAX, 3, TE_DT_INT32, 8);
    CHECK(run_check(&m, "axis 3 is outside") < 0);
    arg_graph(&m, TE_OP_ARG_MAX, 1, TE_DT_INT8, 8);
    CHECK(run_check(&m, "expected int32 or int64") < 0);
    arg_graph(&m, TE_OP_ARG_MIN, 2, TE_DT_INT32, 8);
    CHECK(run_check(&m, "expected 6") < 0);
}

static void bmm_graph(op_graph *m, int lr, const int *ls, int rr, const int *rs, int orank,
                      const int *os)
{
    int a, b;
    g_init(m, TE_OP_BATCH_MATMUL);
    a = g_tensor(m, TE_DT_INT8, lr, ls);
    b = g_tensor(m, TE_DT_INT8, rr, rs);
    g_io(m, a, b, g_tensor(m, TE_DT_INT8, orank, os));
}

static void test_bmm_checks(void)
{
    static const int l[4] = {2, 1, 6, 8}, r[3] = {3, 8, 5}, o[4] = {2, 3, 6, 5};
    static const int r_bad[3] = {3, 7, 5}, o_bad[4] = {2, 3, 6, 4}, r_nb[3] = {4, 8, 5};
    op_graph m;
    bmm_graph(&m, 4, l, 3, r, 4, o);
    CHECK(run_check(&m, NULL) == 0);
    bmm_graph(&m, 4, l, 3, r_bad, 4, o);
    CHECK(run_check(&m, "do not multiply") < 0);
    bmm_graph(&m, 4, l, 3, r, 4, o_bad);
    CHECK(run_check(&m, "dimension 3 is 4, expected 5") < 0);
    bmm_graph(&m, 4, l, 3, r, 4, o);
    m.op.opt.adj_y = 1; /* rhs read as [3, 5, 8]: depth 8 vs lhs 8, cols 8 */
    CHECK(run_check(&m, NULL) < 0);
    {
        static const int l2[4] = {2, 2, 6, 8};
        bmm_graph(&m, 4, l2, 3, r_nb, 4, o);
        CHECK(run_check(&m, "batch dimensions must match or be 1") < 0);
    }
}

int main(void)
{
    test_resize_checks();
    test_reduce_checks();
    test_arg_checks();
    test_bmm_checks();
    return test_summary();
}
