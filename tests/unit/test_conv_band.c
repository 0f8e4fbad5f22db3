/* test_conv_band.c - a CONV_2D taller than one row written over its input
 * row by row, the input rows later output rows read saved in a band
 * (te_conv2d_band_s8, te_lowering.inplace_band):
 *  - the safety rule (te_conv2d_band_safe) on random geometries (kernel
 *    2..5 rows, SAME/VALID, stride 1..3, dilation 1..2, channels either
 *    way): every geometry it accepts, run in place with te_conv2d_s8 one
 *    row at a time over one buffer, gives the whole-tensor call's bytes;
 *    it rejects unsafe ones, and run in place anyway some of those give
 *    other bytes (a rule accepting everything fails here);
 *  - end to end, x -> conv (1x1, 2 to 24 channels) -> a -> conv k x k -> b
 *    on each kernel the link is offered for (te_conv2d_s8 on Cortex-M0+,
 *    te_conv2d_w8_s8 and te_conv2d_gemm_s8 generic, te_conv2d_gemm_s8 on
 *    Cortex-M4 with room for int16 weights, te_conv2d_avx2_s8 on
 *    x86-64-v3 when the CPU has AVX2): b's bytes equal those of the same
 *    model with a also an output (which keeps b out of place), and the
 *    link, where taken, lowered the arena. */
#include "e2e_run.h"
#include "flash_setting.h"

#include "compiler.h"
#include "codegen/kernels.h"
#include "ir/target.h"
#include "ops/conv_band.h"
#include "ops/lowering.h"
#include "te_conv2d.h"
#include "testlib.h"
#include "tflite_builder.h"

/* ---- the rule, on the reference kernel ---------------------------------- */

#define MAXB 8192

/* TFLite's output size and padding before, for one axis. */
static void axis(int same, int in, int k, int s, int d, int *out, int *pad)
{
    const int ke = (k - 1) * d + 1;
    int total;
    *out = same ? (in + s - 1) / s : (in - ke + s) / s;
    total = (*out - 1) * s + ke - in;
    *pad = same && total > 0 ? total / 2 : 0;
}

static long rule_cases, rule_rejected, rule_unsafe_differs;

/* One random geometry: the whole-tensor call against the in-place rows. */
static void rule_case(void)
{
    static int8_t in[MAXB], w[MAXB], ref[MAXB], buf[MAXB], band[MAXB];
    static int32_t bias[64], mult[64], shift[64];
    te_conv2d_params p, rp;
    te_conv2d_band_params b;
    const int same = test_rand() % 2;
    int i, r, safe;
    long in_bytes, out_bytes, row;
    memset(&p, 0, sizeof p);
    p.batches = 1;
    p.k_h = test_rand_range(2, 5);
    p.k_w = test_rand_range(1, 5);
    p.stride_h = test_rand_range(1, 3);
    p.stride_w = test_rand_range(1, 3);
    p.dil_h = test_rand() % 4 == 0 ? 2 : 1;
    p.dil_w = test_rand() % 4 == 0 ? 2 : 1;
    p.in_h = test_rand_range((p.k_h - 1) * p.dil_h + 1, 12);
    p.in_w = test_rand_range((p.k_w - 1) * p.dil_w + 1, 10);
    p.in_c = test_rand_range(1, 8);
    p.out_c = test_rand_range(1, 12);
    p.filter_c = p.in_c;
    axis(same, p.in_h, p.k_h, p.stride_h, p.dil_h, &p.out_h, &p.pad_top);
    axis(same, p.in_w, p.k_w, p.stride_w, p.dil_w, &p.out_w, &p.pad_left);
    p.input_offset = -test_rand_range(-128, 127);
    p.output_offset = test_rand_range(-128, 127);
    p.act_min = -128;
    p.act_max = 127;
    in_bytes = (long)p.in_h * p.in_w * p.in_c;
    row = (long)p.out_w * p.out_c;
    out_bytes = p.out_h * row;
    for (i = 0; i < in_bytes; i++)
        in[i] = (int8_t)test_rand_range(-128, 127);
    for (i = 0; i < p.out_c * p.k_h * p.k_w * p.in_c; i++)
        w[i] = (int8_t)test_rand_range(-127, 127);
    for (i = 0; i < p.out_c; i++) {
        bias[i] = test_rand_range(-5000, 5000);
        mult[i] = 1518500250 + test_rand_range(0, 1 << 20);
        shift[i] = -test_rand_range(6, 9);
    }
    te_conv2d_s8(&p, in, w, bias, mult, shift, ref);
    b.rows = (p.k_h - 1) * p.dil_h + 1;
    b.row_bytes = p.in_w * p.in_c;
    b.in_h = p.in_h;
    b.stride_h = p.stride_h;
    b.pad_top = p.pad_top;
    b.zero_point = -p.input_offset;
    safe = te_conv2d_band_safe(&b, p.out_h, row);
    /* in place: the buffer holds the input, then each output row at its place */
    memset(buf, 0x5a, sizeof buf);
    memcpy(buf, in, (size_t)in_bytes);
    rp = p;
    rp.in_h = b.rows;
    rp.out_h = 1;
    rp.stride_h = 1;
    rp.pad_top = 0;
    for (r = 0; r < p.out_h; r++) {
        te_conv2d_band_s8(&b, buf, band, r);
        te_conv2d_s8(&rp, band, w, bias, mult, shift, buf + r * row);
    }
    rule_cases++;
    if (safe) {
        const int same_bytes = memcmp(buf, ref, (size_t)out_bytes) == 0;
        CHECK(same_bytes);
        if (!same_bytes)
            printf("band rule accepted %dx%dx%d k%dx%d s%d d%d pad %d -> %dx%dx%d: bytes differ\n",
                   p.in_h, p.in_w, p.in_c, p.k_h, p.k_w, p.stride_h, p.dil_h, p.pad_top,
                   p.out_h, p.out_w, p.out_c);
    } else {
        rule_rejected++;
        rule_unsafe_differs += memcmp(buf, ref, (size_t)out_bytes) != 0;
    }
}

/* ---- end to end ---------------------------------------------------------- */

static const float s_x = 0.05f, s_w = 0.02f, s_a = 0.08f, s_b = 0.1f;
static const int64_t zp_x = -3, zp_w = 0, zp_a = -128, zp_b = 5;

#define SIDE_MAX 12
#define C_MAX 24

typedef struct {
    int side, cx, ca, cb, k_h, k_w, stride, dil, same, act;
} block;

/* x [1,side,side,cx] -> 1x1 conv to ca (RELU) -> a -> k_h x k_w conv to cb
 * -> b (output; a_out: a an output too). */
static uint8_t *build_block(const block *k, int a_out, size_t *size, int *b_h, int *b_w)
{
    tflb_model m;
    tflb_quant qx = tflb_quant1(&s_x, &zp_x), qw = tflb_quant1(&s_w, &zp_w),
               qa = tflb_quant1(&s_a, &zp_a), qb = tflb_quant1(&s_b, &zp_b);
    static int8_t wdata[C_MAX * 5 * 5 * C_MAX];
    int32_t s_x4[4] = {1, k->side, k->side, k->cx}, s_a4[4] = {1, k->side, k->side, k->ca};
    int32_t s_b4[4], s_w1[4] = {k->ca, 1, 1, k->cx}, s_w2[4] = {k->cb, k->k_h, k->k_w, k->ca};
    int32_t x, a, bt, in[2], outs[2];
    int pad, conv, i;
    tflb_options o;
    uint8_t *data = NULL;
    axis(k->same, k->side, k->k_h, k->stride, k->dil, b_h, &pad);
    axis(k->same, k->side, k->k_w, k->stride, k->dil, b_w, &pad);
    s_b4[0] = 1;
    s_b4[1] = *b_h;
    s_b4[2] = *b_w;
    s_b4[3] = k->cb;
    for (i = 0; i < (int)sizeof wdata; i++)
        wdata[i] = (int8_t)((i * 37 + 11) % 61 - 30);
    tflb_init(&m);
    conv = tflb_add_opcode(&m, TE_OP_CONV_2D, 1);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, s_x4, 4, 0, &qx);
    a = tflb_add_tensor(&m, "a", TFLB_INT8, s_a4, 4, 0, &qa);
    bt = tflb_add_tensor(&m, "b", TFLB_INT8, s_b4, 4, 0, &qb);
    in[0] = x;
    in[1] = tflb_add_const(&m, "w1", TFLB_INT8, s_w1, 4, wdata, (size_t)k->ca * k->cx, &qw);
    o = tflb_opt_conv2d(TFLB_PAD_VALID, 1, 1, TFLB_ACT_RELU);
    tflb_add_op(&m, conv, in, 2, &a, 1, &o);
    in[0] = a;
    in[1] = tflb_add_const(&m, "w2", TFLB_INT8, s_w2, 4, wdata + 3,
                           (size_t)k->cb * k->k_h * k->k_w * k->ca, &qw);
    o = tflb_opt_conv2d(k->same ? TFLB_PAD_SAME : TFLB_PAD_VALID, k->stride, k->stride, k->act);
    o.dilation_h = o.dilation_w = k->dil;
    tflb_add_op(&m, conv, in, 2, &bt, 1, &o);
    outs[0] = bt;
    outs[1] = a;
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, outs, a_out ? 2 : 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}


static long linked_by_kernel[TE_K_COUNT];

static void run_block(const char *target, int flash, const block *k)
{
    size_t size, size2, in_bytes = (size_t)k->side * k->side * k->cx, out_bytes, sizes[2];
    int b_h, b_w;
    uint8_t *data = build_block(k, 0, &size, &b_h, &b_w), *data2 = build_block(k, 1, &size2, &b_h, &b_w);
    static int8_t x[SIDE_MAX * SIDE_MAX * C_MAX], b1[SIDE_MAX * SIDE_MAX * C_MAX],
        b2[SIDE_MAX * SIDE_MAX * C_MAX], a2[SIDE_MAX * SIDE_MAX * C_MAX];
    const void *ins[1];
    void *outs1[1], *outs2[2];
    te_compile_opts co;
    te_config cfg;
    te_diag d;
    te_model *m;
    int i;
    memset(&co, 0, sizeof co);
    memset(&cfg, 0, sizeof cfg);
    memset(&d, 0, sizeof d);
    co.target = te_target_parse(target);
    cfg.target = target;
    m = data && data2 ? load_with_flash(data, size, flash, &co, &cfg, &d) : NULL;
    CHECK(m != NULL);
    if (!m) {
        printf("band block %s: %s\n", target, d.msg);
        free(data);
        free(data2);
        return;
    }
    {
        const te_graph *g = m->g;
        const te_op *op = &g->ops[g->n_ops - 1];
        const te_lowering *l = te_lowered_find(m->low, g, op);
        const int linked = te_storage_inplace(m->st, op->out[0]);
        CHECK(l != NULL);
        if (l) {
            CHECK(linked == (l->inplace_band > 0));
            CHECK(!linked || (l->kernel != TE_K_CONV2D_DSP_S8 && l->kernel != TE_K_CONV2D_S16));
            /* kept only when smaller: below the plan without any link */
            CHECK(!linked || m->plan->arena_bytes < m->plan->bound_no_inplace);
            if (linked)
                linked_by_kernel[l->kernel]++;
        }
    }
    te_model_free(m);
    for (i = 0; i < (int)in_bytes; i++)
        x[i] = (int8_t)((i * 97 + 13) % 256 - 128);
    out_bytes = (size_t)b_h * b_w * k->cb;
    ins[0] = x;
    outs1[0] = b1;
    outs2[0] = b2;
    outs2[1] = a2;
    sizes[0] = out_bytes;
    sizes[1] = (size_t)k->side * k->side * k->ca;
    CHECK(e2e_run_cfg(data, size, &cfg, 1, ins, &in_bytes, 1, outs1, sizes) == 0);
    CHECK(e2e_run_cfg(data2, size2, &cfg, 1, ins, &in_bytes, 2, outs2, sizes) == 0);
    if (memcmp(b1, b2, out_bytes) != 0) {
        CHECK(0);
        printf("band block %s flash %d: %dx%dx%d -> %d, k%dx%d s%d d%d %s: bytes differ\n",
               target, flash, k->side, k->side, k->ca, k->cb, k->k_h, k->k_w, k->stride, k->dil,
               k->same ? "same" : "valid");
    }
    free(data);
    free(data2);
}

static void random_block(block *k)
{
    k->side = test_rand_range(6, SIDE_MAX);
    k->cx = test_rand_range(1, 3);
    k->ca = test_rand_range(8, C_MAX);
    k->cb = test_rand() % 3 == 0 ? k->ca : test_rand_range(k->ca / 2, k->ca);
    k->k_h = test_rand_range(2, 5);
    k->k_w = test_rand_range(1, 5);
    k->stride = test_rand() % 4 == 0 ? 2 : 1;
    k->dil = test_rand() % 6 == 0 ? 2 : 1;
    k->same = test_rand() % 3 != 0;
    k->act = test_rand() % 2 ? TFLB_ACT_RELU : TFLB_ACT_NONE;
}

int main(void)
{
    static const struct {
        const char *target;
        int flash;
    } runs[] = {{"cortex-m0plus", FLASH_DEFAULT}, {"generic", FLASH_TIGHT},
                {"generic", FLASH_ROOMY},         {"cortex-m4", FLASH_ROOMY},
                {"x86-64-v3", FLASH_DEFAULT}};
    int c, t;
    for (c = 0; c < 3000; c++)
        rule_case();
    printf("band rule: %ld cases, %ld rejected, %ld of those wrong in place\n", rule_cases,
           rule_rejected, rule_unsafe_differs);
    CHECK(rule_rejected > rule_cases / 20);
    CHECK(rule_unsafe_differs > rule_rejected / 4);
    for (t = 0; t < 5; t++) {
#if defined(__x86_64__) && defined(__GNUC__)
        if (t == 4 && !__builtin_cpu_supports("avx2"))
            continue;
#else
        if (t == 4)
            continue;
#endif
        for (c = 0; c < 6; c++) {
            block k;
            random_block(&k);
            if (c == 0) { /* a residual block's second 3x3: the link pays */
                k.k_h = k.k_w = 3;
                k.stride = k.dil = 1;
                k.same = 1;
                k.cb = k.ca;
                k.cx = 1;
            }
            run_block(runs[t].target, runs[t].flash, &k);
        }
    }
    for (t = 0; t < TE_K_COUNT; t++)
        if (linked_by_kernel[t])
            printf("in place by rows with %s: %ld blocks\n", te_kernel_report_name((te_kernel_id)t),
                   linked_by_kernel[t]);
    CHECK(linked_by_kernel[TE_K_CONV2D_S8] > 0);
    CHECK(linked_by_kernel[TE_K_CONV2D_W8_S8] > 0);
    CHECK(linked_by_kernel[TE_K_CONV2D_GEMM_S8] > 0);
    return test_summary();
}
