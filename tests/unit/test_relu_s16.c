/* test_relu_s16.c - the int16 RELU / RELU6 kernel (runtime/te_relu_s16.c)
 * against plain references written the way TFLite Micro's
 * ReluQuantized<int16_t> / Relu6Quantized<int16_t> compute, over random
 * scales and every int16 input; and the op checks of the int16 form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "one_op_graph.h"
#include "ops/ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_relu_s16.h"
#include "testlib.h"

/* gemmlowp's rounding doubling high multiply and rounding right shift, in
 * 64-bit arithmetic (TFLite's int32 MultiplyByQuantizedMultiplier). */
static int32_t ref_mbqm32(int32_t x, int32_t m, int shift)
{
    int64_t a = (int64_t)x * ((int64_t)1 << (shift > 0 ? shift : 0)), ab, half;
    int64_t high;
    int e = shift > 0 ? 0 : -shift;
    ab = a * m;
    high = ab >= 0 ? (ab + ((int64_t)1 << 30)) >> 31 : -((-ab + ((int64_t)1 << 30) - 1) >> 31);
    if (e == 0)
        return (int32_t)high;
    half = (int64_t)1 << (e - 1);
    return (int32_t)(high >= 0 ? (high + half) >> e : -((-high + half) >> e));
}

static void test_kernel(void)
{
    enum { N = 65536 };
    static int16_t in[N], out[N];
    int t, i, bad;
    for (i = 0; i < N; i++)
        in[i] = (int16_t)(i - 32768);
    for (t = 0; t < 40; t++) {
        te_relu_s16_params p;
        float si = (float)(1e-5 + 1e-3 * (test_rand() % 1000) / 1000.0);
        float so = (float)(1e-5 + 1e-3 * (test_rand() % 1000) / 1000.0);
        int six = t % 2, sh;
        int32_t top = 32767;
        memset(&p, 0, sizeof p);
        p.rescale = !six;
        if (six) {
            double r = (double)roundf(6.0f / si);
            top = r > 32767.0 ? 32767 : (int32_t)r;
        } else {
            te_quantize_multiplier((double)si / (double)so, &p.mult, &sh);
            p.shift = sh;
        }
        p.act_min = 0;
        p.act_max = top;
        te_relu_s16(&p, in, out, N);
        for (bad = 0, i = 0; i < N; i++) {
            int32_t v = six ? in[i] : ref_mbqm32(in[i], p.mult, p.shift);
            v = v > top ? top : v < 0 ? 0 : v;
            bad += out[i] != v;
        }
        CHECK(bad == 0);
    }
    /* in place */
    {
        te_relu_s16_params p = {0, 0, 0, 0, 100};
        int16_t v[4] = {-5, 50, 150, 0};
        te_relu_s16(&p, v, v, 4);
        CHECK(v[0] == 0 && v[1] == 50 && v[2] == 100 && v[3] == 0);
    }
}

/* ---- op checks ---------------------------------------------------------- */

/* RELU / RELU6 of an int16 1x40 tensor, scales 0.001, zero points 0. */
static void mini(op_graph *m, int opcode)
{
    static const int shape[2] = {1, 40};
    int i;
    og_init(m, opcode);
    for (i = 0; i < 2; i++) {
        og_tensor(m, TE_DT_INT16, 2, shape, -1);
        m->scale[i] = 0.001f;
    }
    m->in_ids[m->op.n_in++] = 0;
    m->out_ids[m->op.n_out++] = 1;
}

static te_diag diag; /* check()'s message */

static int run_check(op_graph *m)
{
    const te_op_def *def = te_op_find(m->op.opcode);
    memset(&diag, 0, sizeof diag);
    return def && def->check ? def->check(&m->g, &m->op, &diag) : -2;
}

static void test_checks(void)
{
    static const int ops[2] = {TE_OP_RELU, TE_OP_RELU6};
    op_graph m;
    int i;
    for (i = 0; i < 2; i++) {
        mini(&m, ops[i]);
        CHECK(run_check(&m) == 0);
        CHECK(te_op_find(ops[i])->variant(&m.g, &m.op) == TE_K_RELU_S16);
        mini(&m, ops[i]);
        m.zp[0] = 2; /* RELU6 clamps to [input zero point, six] (TFLite Micro since 2024) */
        CHECK(ops[i] == TE_OP_RELU6 ? run_check(&m) == 0
                                    : run_check(&m) == -1 && strstr(diag.msg, "zero point"));
        mini(&m, ops[i]);
        m.zp[1] = 2; /* RELU6 ignores the output's quantization */
        CHECK(run_check(&m) == (ops[i] == TE_OP_RELU ? -1 : 0));
        mini(&m, ops[i]);
        m.t[1].type = TE_DT_INT8;
        CHECK(run_check(&m) == -1);
        mini(&m, ops[i]);
        m.t[1].shape[1] = 39;
        CHECK(run_check(&m) == -1 && strstr(diag.msg, "elements") != NULL);
    }
    mini(&m, TE_OP_RELU);
    m.scale[1] = 1e-14f; /* rescale beyond a 31-bit left shift */
    CHECK(run_check(&m) == -1 && strstr(diag.msg, "too large") != NULL);
}

int main(void)
{
    test_seed(20261126u);
    test_kernel();
    test_checks();
    return test_summary();
}
