/* lut_softmax.c - Prepare parameters of TFLite Micro's int8 SOFTMAX and
 * LOG_SOFTMAX, and the per-difference tables (exp, Q5.26 difference) the
 * runtime kernels in te_softmax.c read (see lut_nonlinear.h). */
#include "lut_nonlinear.h"
#include "quant.h"

#include <math.h>

#include "fixedpoint.h"

/* Integer bits of the scaled difference fed to exp(): Q5.26. */
#define SCALED_DIFF_INT_BITS 5

/* PreprocessSoftmaxScaling + CalculateInputRadius. */
int te_lut_softmax_prepare(double beta, float input_scale, te_lut_softmax_params *p)
{
    double real = beta * (double)input_scale * (double)(1 << (31 - SCALED_DIFF_INT_BITS));
    double radius;
    if (real > 2147483647.0)
        real = 2147483647.0;
    /* QuantizeMultiplierGreaterThanOne checks the multiplier is > 1 */
    if (!(real > 1.0))
        return -1;
    te_quantize_multiplier(real, &p->input_multiplier, &p->input_left_shift);
    radius = 1.0 * ((1 << SCALED_DIFF_INT_BITS) - 1) *
             (double)(1LL << (31 - SCALED_DIFF_INT_BITS)) / (double)(1LL << p->input_left_shift);
    p->diff_min = -(int32_t)floor(radius);
    p->reverse_scaling_divisor = 0;
    p->reverse_scaling_right_shift = 0;
    return 0;
}

/* PreprocessLogSoftmaxScalingExp with beta 1. */
int te_lut_log_softmax_prepare(float input_scale, te_lut_softmax_params *p)
{
    double reverse;
    int shift;
    if (te_lut_softmax_prepare(1.0, input_scale, p) < 0)
        return -1;
    reverse = (double)(1 << (31 - p->input_left_shift)) / (double)p->input_multiplier;
    /* QuantizeMultiplierSmallerThanOneExp checks 0 < reverse < 1, shift <= 0 */
    if (!(reverse > 0.0 && reverse < 1.0))
        return -1;
    te_quantize_multiplier(reverse, &p->reverse_scaling_divisor, &shift);
    if (shift > 0)
        return -1;
    p->reverse_scaling_right_shift = -shift;
    return 0;
}

void te_lut_softmax_exp(const te_lut_softmax_params *p, int32_t table[256])
{
    int d;
    for (d = 0; d < 256; d++) {
        int32_t scaled;
        if (-d < p->diff_min) {
            table[d] = -1;
            continue;
        }
        scaled = te_mul_by_quant_mult_greater_than_one(-d, p->input_multiplier,
                                                       p->input_left_shift);
        table[d] = te_fp_exp_on_negative_values(scaled, SCALED_DIFF_INT_BITS);
    }
}

void te_lut_softmax_q5(const te_lut_softmax_params *p, int32_t table[256])
{
    int d;
    for (d = 0; d < 256; d++)
        table[d] = -d < p->diff_min
                       ? 0
                       : te_mul_by_quant_mult(-d, p->input_multiplier, p->input_left_shift);
}
