/* test_conv_s8_inplace.c - the reference CONV_2D kernel's 1x1 form written
 * over its input (te_conv2d_s8_inplace):
 *  - on random shapes (batches 1..2, up to 5x6 pixels, 1..40 input
 *    channels, fewer or as many output channels, bias or none, an
 *    activation clamp or none), the bytes in place equal te_conv2d_s8's
 *    out of place, its scratch is the out_c bytes its get_buffer_size says
 *    (ASan sees any byte past them), and the bytes after the output are the
 *    input's, untouched;
 *  - a pixel written straight over its input without the scratch (what
 *    te_conv2d_s8 itself would do in place) gives other bytes in some of
 *    those cases: the test would see a kernel that skipped the scratch;
 *  - the compiler's rule on Cortex-M0+ (te_conv2d_s8 everywhere): a
 *    pointwise convolution with fewer or as many output channels as input
 *    ones lowers to te_conv2d_s8_inplace with out_c bytes of scratch when
 *    written over its input, one with more is never offered the link. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "codegen/kernels.h"
#include "ir/storage.h"
#include "ir/target.h"
#include "ops/lowering.h"
#include "ops/ops.h"
#include "te_common.h"
#include "te_conv2d.h"
#include "testlib.h"
#include "tflite_builder.h"

#define MAXC 40
#define MAXPIX (2 * 5 * 6)

static long cases, straight_differs;

/* Random requantization and clamp for out_c channels into p and the tables. */
static void random_quant(te_conv2d_params *p, int32_t *bias, int32_t *mult, int32_t *shift)
{
    int i;
    p->input_offset = -test_rand_range(-128, 127);
    p->output_offset = test_rand_range(-128, 127);
    p->act_min = test_rand() % 2 ? -128 : test_rand_range(-128, 0);
    p->act_max = test_rand() % 2 ? 127 : test_rand_range(1, 127);
    for (i = 0; i < p->out_c; i++) {
        bias[i] = test_rand_range(-5000, 5000);
        mult[i] = 1518500250 + test_rand_range(0, 1 << 20);
        shift[i] = -test_rand_range(6, 9);
    }
}

/* One random shape with out_c channels chosen by `rel`: -1 fewer than in_c,
 * 0 as many. */
static void kernel_case(int rel)
{
    static int8_t in[MAXPIX * MAXC], w[MAXC * MAXC], ref[MAXPIX * MAXC], buf[MAXPIX * MAXC],
        straight[MAXPIX * MAXC];
    static int32_t bias[MAXC], mult[MAXC], shift[MAXC];
    te_conv2d_params p;
    int8_t *scratch;
    long pixels, in_bytes, out_bytes, i;
    int with_bias = test_rand() % 4 != 0, oc, c;
    memset(&p, 0, sizeof p);
    p.batches = test_rand_range(1, 2);
    p.in_h = p.out_h = test_rand_range(1, 5);
    p.in_w = p.out_w = test_rand_range(1, 6);
    p.in_c = test_rand_range(rel < 0 ? 2 : 1, MAXC);
    p.out_c = rel < 0 ? test_rand_range(1, p.in_c - 1) : p.in_c;
    p.filter_c = p.in_c;
    p.k_h = p.k_w = p.stride_h = p.stride_w = p.dil_h = p.dil_w = 1;
    p.out_stride = p.out_c; /* what the emitter writes in place */
    random_quant(&p, bias, mult, shift);
    pixels = (long)p.batches * p.in_h * p.in_w;
    in_bytes = pixels * p.in_c;
    out_bytes = pixels * p.out_c;
    for (i = 0; i < in_bytes; i++)
        in[i] = (int8_t)test_rand_range(-128, 127);
    for (i = 0; i < (long)p.out_c * p.in_c; i++)
        w[i] = (int8_t)test_rand_range(-127, 127);
    te_conv2d_s8(&p, in, w, with_bias ? bias : NULL, mult, shift, ref);
    memcpy(buf, in, (size_t)in_bytes);
    scratch = malloc((size_t)te_conv2d_s8_inplace_get_buffer_size(&p));
    CHECK(scratch != NULL);
    if (!scratch)
        return;
    te_conv2d_s8_inplace(&p, buf, w, with_bias ? bias : NULL, mult, shift, scratch);
    free(scratch);
    cases++;
    if (memcmp(buf, ref, (size_t)out_bytes) != 0 ||
        memcmp(buf + out_bytes, in + out_bytes, (size_t)(in_bytes - out_bytes)) != 0) {
        CHECK(0);
        printf("in place %dx%dx%dx%d -> %d channels: bytes differ\n", p.batches, p.in_h, p.in_w,
               p.in_c, p.out_c);
    }
    /* straight over the input, channel by channel: te_conv2d_s8's order */
    memcpy(straight, in, (size_t)in_bytes);
    for (i = 0; i < pixels; i++)
        for (oc = 0; oc < p.out_c; oc++) {
            uint32_t acc = 0;
            for (c = 0; c < p.in_c; c++)
                acc += (uint32_t)((straight[i * p.in_c + c] + p.input_offset) *
                                  w[oc * p.in_c + c]);
            if (with_bias)
                acc += (uint32_t)bias[oc];
            straight[i * p.out_c + oc] = (int8_t)te_clamp_i32(
                (int32_t)((uint32_t)te_mul_by_quant_mult((int32_t)acc, mult[oc], (int)shift[oc]) +
                          (uint32_t)p.output_offset),
                p.act_min, p.act_max);
        }
    straight_differs += memcmp(straight, ref, (size_t)out_bytes) != 0;
}

/* ---- the compiler's rule ------------------------------------------------- */

static const float s_x = 0.05f, s_w = 0.02f, s_y = 0.1f;
static const int64_t zp_x = -3, zp_w = 0, zp_y = 4;

/* x [1,6,6,cin] -> 1x1 conv to cout -> y. */
static uint8_t *build_pointwise(int cin, int cout, size_t *size)
{
    static int8_t wdata[MAXC * MAXC];
    tflb_model m;
    tflb_quant qx = tflb_quant1(&s_x, &zp_x), qw = tflb_quant1(&s_w, &zp_w),
               qy = tflb_quant1(&s_y, &zp_y);
    int32_t sx[4] = {1, 6, 6, cin}, sy[4] = {1, 6, 6, cout}, sw[4] = {cout, 1, 1, cin};
    int32_t x, y, in[2];
    tflb_options o;
    uint8_t *data = NULL;
    int i;
    for (i = 0; i < cout * cin; i++)
        wdata[i] = (int8_t)((i * 37 + 11) % 61 - 30);
    tflb_init(&m);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, sx, 4, 0, &qx);
    y = tflb_add_tensor(&m, "y", TFLB_INT8, sy, 4, 0, &qy);
    in[0] = x;
    in[1] = tflb_add_const(&m, "w", TFLB_INT8, sw, 4, wdata, (size_t)cout * cin, &qw);
    o = tflb_opt_conv2d(TFLB_PAD_VALID, 1, 1, TFLB_ACT_NONE);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_CONV_2D, 1), in, 2, &y, 1, &o);
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, &y, 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

/* The 1x1 of build_pointwise on Cortex-M0+: offered in place exactly when
 * cout <= cin, then lowered to te_conv2d_s8_inplace with cout bytes. */
static void rule_case(int cin, int cout)
{
    size_t size;
    uint8_t *data = build_pointwise(cin, cout, &size);
    te_compile_opts co;
    te_diag d;
    te_model *m;
    memset(&co, 0, sizeof co);
    memset(&d, 0, sizeof d);
    co.target = te_target_parse("cortex-m0plus");
    m = data ? te_model_load(data, size, &co, &d) : NULL;
    CHECK(m != NULL);
    if (m) {
        const te_graph *g = m->g;
        const te_op *op = &g->ops[g->n_ops - 1];
        const te_op_def *def = te_op_find(op->opcode);
        const int offered = def && def->inplace_input && def->inplace_input(g, op) == 0;
        te_storage *st = te_storage_new(g);
        te_lower_opts lo;
        te_lowering l;
        CHECK(offered == (cout <= cin));
        if (offered && st) {
            memset(&lo, 0, sizeof lo);
            te_storage_link(st, op->out[0], TE_STORE_INPLACE, op->in[0], 0);
            lo.st = st;
            te_lower_op(g, op, &lo, &l);
            CHECK(l.inplace_input == 0);
            CHECK(l.kernel == TE_K_CONV2D_S8_INPLACE);
            CHECK(l.scratch_bytes == (size_t)cout);
        }
        te_storage_free(st);
        te_model_free(m);
    } else {
        printf("pointwise %d -> %d: %s\n", cin, cout, d.msg);
    }
    free(data);
}

int main(void)
{
    int c;
    for (c = 0; c < 2000; c++)
        kernel_case(c % 2 ? -1 : 0);
    printf("te_conv2d_s8_inplace: %ld cases; straight over the input, %ld differ\n", cases,
           straight_differs);
    CHECK(straight_differs > cases / 4);
    rule_case(16, 8);
    rule_case(16, 16);
    rule_case(16, 24);
    rule_case(3, 1);
    return test_summary();
}
