/* te_unary_s16.c - the int16 LEAKY_RELU and ABS kernels (see te_unary_s16.h). */
#include "te_common.h"
#include "te_unary_s16.h"

TE_KERNEL void te_leaky_relu_s16(const te_leaky_relu_s16_params *p, const int16_t *input,
                                 int16_t *output, int size)
{
    int i;
    for (i = 0; i < size; i++) {
        int32_t v = p->in_offset + input[i];
        int32_t r = v >= 0 ? te_mul_by_quant_mult(v, p->identity_mult, p->identity_shift)
                           : te_mul_by_quant_mult(v, p->alpha_mult, p->alpha_shift);
        output[i] = (int16_t)te_clamp_i32(p->out_offset + r, -32768, 32767);
    }
}

TE_KERNEL void te_abs_s16(const te_abs_s16_params *p, const int16_t *input, int16_t *output,
                          int size)
{
    int i;
    for (i = 0; i < size; i++) {
        int32_t v = input[i] < 0 ? -(int32_t)input[i] : input[i];
        if (p->rescale)
            v = te_mul_by_quant_mult(v, p->mult, p->shift);
        output[i] = (int16_t)te_clamp_i32(v, -32768, 32767);
    }
}
