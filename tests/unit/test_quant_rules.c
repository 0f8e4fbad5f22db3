/* test_quant_rules.c - TFLite's own quantization rules: per-channel weight
 * and bias scales that are negative (MIT's MCUNet) or so small that the
 * rescale factor underflows (OpenMV's FastDepth, 1e-20 in dead channels)
 * are accepted and give the multipliers TFLite's QuantizeMultiplier
 * derives (negative; zero); a per-tensor activation scale <= 0 is still
 * refused, naming the tensor.  (Byte-exact outputs on such a model:
 * golden test of mit_mcunet_320kb_1mb_imagenet.) */
#include <string.h>
#include <stdlib.h>

#include "compiler.h"
#include "quant/quant.h"
#include "tflite_builder.h"
#include "testlib.h"

/* in int8[1,2,2,2] -> 1x1 CONV_2D with 3 channels of the given scales. */
static te_model *conv_model(const float *wscale, float in_scale, te_diag *d)
{
    tflb_model b;
    float s_in = in_scale, s_out = 0.1f, bscale[3];
    int64_t zp = 0, zps[3] = {0, 0, 0};
    tflb_quant qin = tflb_quant1(&s_in, &zp), qout = tflb_quant1(&s_out, &zp), qw, qb;
    int32_t sin[] = {1, 2, 2, 2}, sw[] = {3, 1, 1, 2}, sb[] = {3}, sout[] = {1, 2, 2, 3};
    int8_t w[6] = {1, -2, 3, -4, 5, -6};
    int32_t bias[3] = {10, -20, 30}, t[4], out;
    tflb_options o = tflb_opt_conv2d(TFLB_PAD_VALID, 1, 1, TFLB_ACT_NONE);
    uint8_t *img = NULL;
    size_t n = 0;
    te_model *m;
    int i;
    for (i = 0; i < 3; i++)
        bscale[i] = in_scale * wscale[i];
    qw.n_scale = qw.n_zero_point = 3;
    qw.scale = wscale;
    qw.zero_point = zps;
    qw.quantized_dimension = 0;
    qb = qw;
    qb.scale = bscale;
    tflb_init(&b);
    t[0] = tflb_add_tensor(&b, "in", TFLB_INT8, sin, 4, 0, &qin);
    t[1] = tflb_add_const(&b, "w", TFLB_INT8, sw, 4, w, sizeof w, &qw);
    t[2] = tflb_add_const(&b, "b", TFLB_INT32, sb, 1, bias, sizeof bias, &qb);
    out = tflb_add_tensor(&b, "out", TFLB_INT8, sout, 4, 0, &qout);
    tflb_add_op(&b, tflb_add_opcode(&b, TE_OP_CONV_2D, 3), t, 3, &out, 1, &o);
    tflb_set_inputs(&b, t, 1);
    tflb_set_outputs(&b, &out, 1);
    CHECK(tflb_finish(&b, &img, &n) == 0);
    m = img ? te_model_load(img, n, NULL, d) : NULL;
    free(img);
    tflb_free(&b);
    return m;
}

int main(void)
{
    static const float scales[3] = {0.02f, -0.03f, 1e-20f};
    te_diag d = {0};
    te_buf h = {0}, c = {0};
    te_model *m = conv_model(scales, 0.5f, &d);
    int32_t mult;
    int shift;
    CHECK(m != NULL);
    CHECK(m && te_model_generate(m, "q", "test", &h, &c, &d) == 0);
    te_model_free(m);
    te_buf_free(&h);
    te_buf_free(&c);
    /* TFLite's QuantizeMultiplier: negative in, negative out; underflow 0 */
    te_quantize_multiplier(0.5 * -0.03 / 0.1, &mult, &shift);
    CHECK(mult < 0 && shift == -2);
    te_quantize_multiplier(0.5 * 1e-20 / 0.1, &mult, &shift);
    CHECK(mult == 0 && shift == 0);
    /* a per-tensor activation scale of 0 is still refused */
    memset(&d, 0, sizeof d);
    m = conv_model(scales, 0.0f, &d);
    CHECK(m == NULL && strstr(d.msg, "'in'") != NULL);
    te_model_free(m);
    return test_summary();
}
