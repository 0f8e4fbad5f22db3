/* te_l2norm.c - the L2_NORMALIZATION kernels (see te_l2norm.h).  Each row
 * is read completely before it is written: in and out may be one buffer. */
#include <math.h>

#include "te_common.h"
#include "te_l2norm.h"

/* te:section te_l2norm_s8 */
TE_KERNEL void te_l2norm_s8(const int8_t *in, int8_t *out, int outer, int depth,
                            int32_t input_zero_point)
{
    int i, c;
    for (i = 0; i < outer; i++, in += depth, out += depth) {
        uint32_t acc = 0; /* int32 in TFLite, wrapping past 2^16 steps */
        int32_t multiplier;
        int shift;
        for (c = 0; c < depth; c++) {
            int32_t v = in[c] - input_zero_point;
            acc += (uint32_t)(v * v);
        }
        te_inv_sqrt_multiplier_exp((int32_t)acc, &multiplier, &shift);
        for (c = 0; c < depth; c++) {
            int32_t v = te_mul_by_quant_mult(in[c] - input_zero_point, multiplier, shift + 7);
            out[c] = (int8_t)te_clamp_i32(v, -128, 127);
        }
    }
}
/* te:end */

/* te:section te_l2norm_f32 */
TE_KERNEL void te_l2norm_f32(const float *in, float *out, int outer, int depth)
{
    int i, c;
    for (i = 0; i < outer; i++, in += depth, out += depth) {
        float sum = 0.0f, norm;
        for (c = 0; c < depth; c++)
            sum += in[c] * in[c];
        norm = sqrtf(sum);
        if (norm < 1e-6f)
            norm = 1e-6f;
        for (c = 0; c < depth; c++)
            out[c] = in[c] / norm;
    }
}
/* te:end */
