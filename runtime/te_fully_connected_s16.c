/* te_fully_connected_s16.c - the int16x8 FULLY_CONNECTED kernel (see
 * te_fully_connected_s16.h).  Each unit's dot product is summed in 64 bits
 * as TFLite's int64 accumulator does; the bias is added with wrap-around
 * instead of signed-overflow UB. */
#include "te_common.h"
#include "te_fully_connected_s16.h"

/* te:section te_fully_connected_s16 */
TE_KERNEL void te_fully_connected_s16(const te_fully_connected_s16_params *p,
                                      const int16_t *input, const int8_t *weights,
                                      const int64_t *bias, int16_t *output)
{
    int b, u, k;
    for (b = 0; b < p->batches; b++, input += p->depth, output += p->units) {
        const int8_t *w = weights;
        for (u = 0; u < p->units; u++, w += p->depth) {
            int64_t acc = 0;
            int32_t v;
            for (k = 0; k < p->depth; k++)
                acc += (int32_t)input[k] * w[k];
            if (bias)
                acc = (int64_t)((uint64_t)acc + (uint64_t)bias[u]);
            v = te_mul_by_quant_mult_i64(acc, p->mult, p->shift);
            output[u] = (int16_t)te_clamp_i32(v, p->act_min, p->act_max);
        }
    }
}
/* te:end */

/* te:section te_fully_connected_s16_b32 */
TE_KERNEL void te_fully_connected_s16_b32(const te_fully_connected_s16_params *p,
                                          const int16_t *input, const int8_t *weights,
                                          const int32_t *bias, int16_t *output)
{
    int b, u, k;
    for (b = 0; b < p->batches; b++, input += p->depth, output += p->units) {
        const int8_t *w = weights;
        for (u = 0; u < p->units; u++, w += p->depth) {
            uint32_t acc = 0;
            int32_t v;
            for (k = 0; k < p->depth; k++)
                acc += (uint32_t)((int32_t)input[k] * w[k]);
            if (bias)
                acc += (uint32_t)bias[u];
            v = te_mul_by_quant_mult((int32_t)acc, p->mult, p->shift);
            output[u] = (int16_t)te_clamp_i32(v, p->act_min, p->act_max);
        }
    }
}
/* te:end */
