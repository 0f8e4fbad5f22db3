/* te_fully_connected.c - FULLY_CONNECTED int8 kernel (see
 * te_fully_connected.h).  The accumulator wraps modulo 2^32 like TFLite's
 * int32 one, without signed-overflow UB. */
#include "te_common.h"
#include "te_fully_connected.h"

static inline TE_UNUSED uint32_t te_fully_connected_dot(const int8_t *x, const int8_t *w, int n,
                                                        int32_t off)
{
    uint32_t acc = 0;
    int i;
    for (i = 0; i < n; i++)
        acc += (uint32_t)((x[i] + off) * w[i]);
    return acc;
}

TE_KERNEL void te_fully_connected_s8(const te_fully_connected_params *p, const int8_t *input,
                                     const int8_t *weights, const int32_t *bias,
                                     const int32_t *mult, const int32_t *shift, int8_t *output)
{
    int b, u;
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * p->depth;
        for (u = 0; u < p->units; u++) {
            uint32_t acc = te_fully_connected_dot(x, weights + (long)u * p->depth, p->depth,
                                                  p->input_offset);
            int32_t v;
            if (bias)
                acc += (uint32_t)bias[u];
            v = te_mul_by_quant_mult((int32_t)acc, mult[u], (int)shift[u]);
            v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
            *output++ = (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
        }
    }
}
