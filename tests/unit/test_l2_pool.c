/* test_l2_pool.c - L2_POOL_2D (float32).  The reference is written here
 * from TFLite Micro's reference L2Pool: the window clipped to the input,
 * the float sum of squares, divided by the cells counted, sqrt, clamped by
 * max then min to the activation's range.  The kernel runs on random
 * geometries (SAME and VALID padding); a model with both paddings and a
 * fused RELU6 is compiled, built and run (e2e_run.h); int8 is refused. */
#include "e2e_run.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "te_common.h"
#include "te_l2_pool.h"
#include "testlib.h"
#include "tflite_builder.h"

#define MAXN 4096

static int out_size(int same, int in, int filter, int stride)
{
    return same ? (in + stride - 1) / stride : (in + stride - filter) / stride;
}

static int padding(int stride, int in, int filter, int out)
{
    int p = ((out - 1) * stride + filter - in) / 2;
    return p > 0 ? p : 0;
}

static void ref_l2_pool(const te_l2_pool_params *p, const float *in, float *out)
{
    int b, oy, ox, c, fy, fx;
    for (b = 0; b < p->batches; b++)
        for (oy = 0; oy < p->out_h; oy++)
            for (ox = 0; ox < p->out_w; ox++)
                for (c = 0; c < p->depth; c++) {
                    int y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
                    int fys = y0 < 0 ? -y0 : 0, fxs = x0 < 0 ? -x0 : 0, n = 0;
                    int fye = p->filter_h < p->in_h - y0 ? p->filter_h : p->in_h - y0;
                    int fxe = p->filter_w < p->in_w - x0 ? p->filter_w : p->in_w - x0;
                    float s = 0.f, r;
                    for (fy = fys; fy < fye; fy++)
                        for (fx = fxs; fx < fxe; fx++) {
                            float v = in[((b * p->in_h + y0 + fy) * p->in_w + x0 + fx) * p->depth +
                                         c];
                            s += v * v;
                            n++;
                        }
                    r = sqrtf(s / (float)n);
                    r = r < p->f_min ? p->f_min : r;
                    r = p->f_max < r ? p->f_max : r;
                    out[((b * p->out_h + oy) * p->out_w + ox) * p->depth + c] = r;
                }
}

static void make_params(te_l2_pool_params *p, int same, int b, int h, int w, int d, int fh,
                        int fw, int sh, int sw)
{
    memset(p, 0, sizeof *p);
    p->batches = b;
    p->in_h = h;
    p->in_w = w;
    p->depth = d;
    p->filter_h = fh;
    p->filter_w = fw;
    p->stride_h = sh;
    p->stride_w = sw;
    p->out_h = out_size(same, h, fh, sh);
    p->out_w = out_size(same, w, fw, sw);
    p->pad_h = padding(sh, h, fh, p->out_h);
    p->pad_w = padding(sw, w, fw, p->out_w);
    p->f_min = -FLT_MAX;
    p->f_max = FLT_MAX;
}

static void test_kernel(int cases)
{
    static float in[MAXN], out[MAXN], want[MAXN];
    int c, i;
    for (c = 0; c < cases; c++) {
        te_l2_pool_params p;
        int same = c & 1, b = test_rand_range(1, 2), h = test_rand_range(1, 9),
            w = test_rand_range(1, 9), d = test_rand_range(1, 5);
        int fh = test_rand_range(1, same ? 5 : h), fw = test_rand_range(1, same ? 5 : w);
        int n = b * h * w * d;
        make_params(&p, same, b, h, w, d, fh, fw, test_rand_range(1, 3), test_rand_range(1, 3));
        if (c % 3 == 1) {
            p.f_min = 0.0f;
            p.f_max = 6.0f;
        }
        for (i = 0; i < n; i++)
            in[i] = (float)test_rand_range(-200000, 200000) / 9973.0f;
        ref_l2_pool(&p, in, want);
        te_l2_pool_f32(&p, in, out);
        CHECK(memcmp(out, want, sizeof(float) * (size_t)(p.batches * p.out_h * p.out_w * d)) ==
              0);
    }
}

/* x float[1,5,6,3] -> L2_POOL(SAME 3x3 /2, RELU6) -> [1,3,3,3];
 *                  -> L2_POOL(VALID 2x3 /1) -> [1,4,4,3] */
static uint8_t *build_model(size_t *size, int int8)
{
    tflb_model m;
    float s = 0.1f;
    int64_t z = 0;
    tflb_quant q = tflb_quant1(&s, &z);
    tflb_options same = tflb_opt_pool2d(TFLB_PAD_SAME, 2, 2, 3, 3, TFLB_ACT_RELU6),
                 valid = tflb_opt_pool2d(TFLB_PAD_VALID, 1, 1, 3, 2, TFLB_ACT_NONE);
    int32_t sx[4] = {1, 5, 6, 3}, sa[4] = {1, 3, 3, 3}, sb[4] = {1, 4, 4, 3};
    int32_t x, a, b, outs[2], opc;
    int type = int8 ? TFLB_INT8 : TFLB_FLOAT32;
    const tflb_quant *qp = int8 ? &q : NULL;
    uint8_t *data = NULL;
    tflb_init(&m);
    x = tflb_add_tensor(&m, "x", type, sx, 4, 0, qp);
    a = tflb_add_tensor(&m, "a", type, sa, 4, 0, qp);
    b = tflb_add_tensor(&m, "b", type, sb, 4, 0, qp);
    opc = tflb_add_opcode(&m, TE_OP_L2_POOL_2D, 1);
    tflb_add_op(&m, opc, &x, 1, &a, 1, &same);
    tflb_add_op(&m, opc, &x, 1, &b, 1, &valid);
    outs[0] = a;
    outs[1] = b;
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, outs, 2);
    CHECK(tflb_finish(&m, &data, size) == 0);
    tflb_free(&m);
    return data;
}

static void test_e2e(void)
{
    float x[90], a[27], b[48], wa[27], wb[48];
    const void *ins[1] = {x};
    size_t in_bytes[1] = {sizeof x}, out_bytes[2] = {sizeof a, sizeof b};
    void *outs[2] = {a, b};
    te_l2_pool_params p;
    size_t size;
    char err[256] = "";
    te_generated *gen;
    uint8_t *model = build_model(&size, 0);
    int i;
    for (i = 0; i < 90; i++)
        x[i] = (float)((i * 37) % 41) * 0.61f - 11.0f;
    CHECK(model != NULL);
    if (model) {
        CHECK(e2e_run(model, size, 1, ins, in_bytes, 2, outs, out_bytes) == 0);
        make_params(&p, 1, 1, 5, 6, 3, 3, 3, 2, 2);
        p.f_min = 0.0f;
        p.f_max = 6.0f;
        ref_l2_pool(&p, x, wa);
        make_params(&p, 0, 1, 5, 6, 3, 2, 3, 1, 1);
        ref_l2_pool(&p, x, wb);
        CHECK(memcmp(a, wa, sizeof a) == 0);
        CHECK(memcmp(b, wb, sizeof b) == 0);
        free(model);
    }
    model = build_model(&size, 1);
    gen = model ? te_compile_memory(model, size, "net", NULL, err, sizeof err) : NULL;
    CHECK(gen == NULL && strstr(err, "L2_POOL_2D") != NULL);
    te_generated_free(gen);
    free(model);
}

int main(void)
{
    test_seed(2202);
    test_kernel(400);
    test_e2e();
    return test_summary();
}
