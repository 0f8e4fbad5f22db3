/* te_add.h - ADD int8 kernel with numpy-style broadcasting (up to 6D),
 * bit-exact with TFLite Micro's reference integer Add / BroadcastAdd6DSlow:
 * both inputs are shifted left by left_shift, rescaled to a common scale,
 * summed, rescaled to the output scale and clamped (fused activation). */
#ifndef TE_ADD_H
#define TE_ADD_H

#include <stdint.h>

#define TE_ADD_MAX_DIMS 6

typedef struct {
    int broadcast;                 /* 0: same shapes, one flat loop of `size` */
    int size;                      /* output elements */
    int dims[TE_ADD_MAX_DIMS];     /* output shape, extended to 6D */
    int stride1[TE_ADD_MAX_DIMS];  /* element stride of input 1 per output dim (0: broadcast) */
    int stride2[TE_ADD_MAX_DIMS];  /* same for input 2 */
    int32_t in1_offset, in2_offset;  /* minus the input zero points */
    int left_shift;                /* 20 for int8 */
    int32_t in1_mult;
    int in1_shift;                 /* <= 0 (QuantizeMultiplierSmallerThanOneExp) */
    int32_t in2_mult;
    int in2_shift;
    int32_t out_mult;
    int out_shift;
    int32_t out_offset;            /* output zero point */
    int32_t act_min, act_max;
} te_add_params;

TE_KERNEL void te_add_s8(const te_add_params *p, const int8_t *in1, const int8_t *in2,
                         int8_t *out);

#endif
