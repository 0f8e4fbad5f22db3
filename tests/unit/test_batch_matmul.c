/* test_batch_matmul.c - BATCH_MATMUL int8: the compiler's parameters
 * (te_batch_matmul_make_params) with te_batch_matmul_s8, against a plain
 * reference written from TFLite Micro's BatchMatMul (rank-5 extension,
 * broadcast batch dims, adj_x / adj_y), over random ranks 2-5, shapes,
 * zero points and scales; also the transposed constant right-hand side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "qtensor.h"
#include "quant/quant.h"
#include "te_batch_matmul.h"
#include "te_common.h"
#include "testlib.h"

void te_batch_matmul_make_params(const te_tensor *lhs, const te_tensor *rhs,
                                 const te_tensor *out, const te_op *op, int rhs_transposed,
                                 te_batch_matmul_params *p);

#define MAXN 8192

static long elems(const int *d, int n)
{
    long e = 1;
    int i;
    for (i = 0; i < n; i++)
        e *= d[i];
    return e;
}

static void run_case(int c)
{
    static int8_t lhs[MAXN], rhs[MAXN], rhs_t[MAXN], want[MAXN], got[MAXN + 8];
    int lr = test_rand_range(2, 5), rr = test_rand_range(2, 5), orank = lr > rr ? lr : rr;
    int adj_x = (int)(test_rand() % 2), adj_y = (int)(test_rand() % 2);
    int rows = test_rand_range(1, 7), cols = test_rand_range(1, 7), depth = test_rand_range(1, 12);
    int l5[5], r5[5], b5[3], lsh[5], rsh[5], osh[5], k, i, j, b, ok = 1;
    int zl = test_rand_range(-128, 127), zr = test_rand_range(-128, 127),
        zo = test_rand_range(-128, 127);
    float sl = 0.001f * (float)test_rand_range(1, 100), sr = 0.001f * (float)test_rand_range(1, 100),
          so = 0.0005f * (float)test_rand_range(1, 100);
    long nl, nr, nb;
    qtensor tl, trh, to;
    te_op op;
    te_batch_matmul_params p;
    for (k = 0; k < 3; k++) { /* batch dims: equal, or one side 1 */
        int d = test_rand_range(1, 3), which = test_rand_range(0, 2);
        l5[k] = which == 1 ? 1 : d;
        r5[k] = which == 2 ? 1 : d;
        if (k < 5 - lr)
            l5[k] = 1;
        if (k < 5 - rr)
            r5[k] = 1;
        b5[k] = l5[k] == 1 ? r5[k] : l5[k];
    }
    l5[3] = adj_x ? depth : rows;
    l5[4] = adj_x ? rows : depth;
    r5[3] = adj_y ? cols : depth;
    r5[4] = adj_y ? depth : cols;
    for (k = 0; k < lr; k++)
        lsh[k] = l5[k + 5 - lr];
    for (k = 0; k < rr; k++)
        rsh[k] = r5[k + 5 - rr];
    for (k = 0; k < orank - 2; k++)
        osh[k] = b5[k + 5 - orank];
    osh[orank - 2] = rows;
    osh[orank - 1] = cols;
    nl = elems(l5, 5);
    nr = elems(r5, 5);
    nb = elems(b5, 3);
    if (nl > MAXN || nr > MAXN || nb * rows * cols > MAXN)
        return;
    for (i = 0; i < nl; i++)
        lhs[i] = (int8_t)test_rand_range(-128, 127);
    for (i = 0; i < nr; i++)
        rhs[i] = (int8_t)test_rand_range(-128, 127);
    /* plain reference */
    for (b = 0; b < nb; b++) {
        int bi[3] = {(int)(b / (b5[1] * b5[2])), (int)(b / b5[2] % b5[1]), (int)(b % b5[2])};
        long lo = 0, ro = 0;
        for (k = 0; k < 3; k++) {
            lo = lo * l5[k] + (l5[k] == 1 ? 0 : bi[k]);
            ro = ro * r5[k] + (r5[k] == 1 ? 0 : bi[k]);
        }
        lo *= (long)l5[3] * l5[4];
        ro *= (long)r5[3] * r5[4];
        for (i = 0; i < rows; i++)
            for (j = 0; j < cols; j++) {
                int32_t acc = 0, m, v;
                int e;
                for (k = 0; k < depth; k++) {
                    int a = lhs[lo + (adj_x ? (long)k * rows + i : (long)i * depth + k)];
                    int w = rhs[ro + (adj_y ? (long)j * depth + k : (long)k * cols + j)];
                    acc += (a - zl) * (w - zr);
                }
                te_quantize_multiplier((double)sl * (double)sr / (double)so, &m, &e);
                v = te_mul_by_quant_mult(acc, m, e) + zo;
                want[(b * rows + i) * cols + j] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
            }
    }
    qt_init_type(&tl, 0, TE_DT_INT8, lr, lsh, sl, zl);
    qt_init_type(&trh, 0, TE_DT_INT8, rr, rsh, sr, zr);
    qt_init_type(&to, 0, TE_DT_INT8, orank, osh, so, zo);
    memset(&op, 0, sizeof op);
    op.opt.adj_x = adj_x;
    op.opt.adj_y = adj_y;
    memset(got, 0x55, sizeof got);
    te_batch_matmul_make_params(&tl.t, &trh.t, &to.t, &op, 0, &p);
    te_batch_matmul_s8(&p, lhs, rhs, got);
    for (i = 0; i < nb * rows * cols; i++)
        ok &= got[i] == want[i];
    ok &= got[nb * rows * cols] == 0x55;
    if (!adj_y) { /* a constant rhs as the compiler stores it: [.., cols, depth] */
        long m;
        for (m = 0; m < nr / (depth * cols); m++)
            for (k = 0; k < depth; k++)
                for (j = 0; j < cols; j++)
                    rhs_t[m * depth * cols + j * depth + k] = rhs[m * depth * cols + k * cols + j];
        memset(got, 0x55, sizeof got);
        te_batch_matmul_make_params(&tl.t, &trh.t, &to.t, &op, 1, &p);
        te_batch_matmul_s8(&p, lhs, rhs_t, got);
        for (i = 0; i < nb * rows * cols; i++)
            ok &= got[i] == want[i];
    }
    if (!ok)
        fprintf(stderr, "batch_matmul case %d: ranks %d/%d adj %d/%d mismatch\n", c, lr, rr,
                adj_x, adj_y);
    CHECK(ok);
}

int main(void)
{
    int c;
    test_seed(20261129u);
    for (c = 0; c < 500; c++)
        run_case(c);
    return test_summary();
}
