/* te_relu_s16.c - the int16 RELU / RELU6 kernel (see te_relu_s16.h); the
 * zero points are 0 (TFLite Micro requires it for int16 RELU). */
#include "te_common.h"
#include "te_relu_s16.h"

/* te:section te_relu_s16 */
TE_KERNEL void te_relu_s16(const te_relu_s16_params *p, const int16_t *input, int16_t *output,
                           int size)
{
    int i;
    for (i = 0; i < size; i++) {
        int32_t v = input[i];
        if (p->rescale)
            v = te_mul_by_quant_mult(v, p->mult, p->shift);
        /* TFLite's order: the upper bound wins (RELU6 with bounds crossed) */
        output[i] = (int16_t)(v > p->act_max ? p->act_max : v < p->act_min ? p->act_min : v);
    }
}
/* te:end */
