/* te_mul.h - MUL int8 kernel with numpy-style broadcasting (up to 6D),
 * bit-exact with TFLite Micro's reference integer Mul / BroadcastMul4DSlow:
 * (x1 - zp1) * (x2 - zp2) requantized with one multiplier, plus the output
 * zero point, clamped (fused activation).  te_mul_s16: the same on int16
 * (int16x8: zero points 0). */
#ifndef TE_MUL_H
#define TE_MUL_H

#include <stdint.h>

#define TE_MUL_MAX_DIMS 6

typedef struct {
    int broadcast;                 /* 0: same shapes, one flat loop of `size` */
    int size;                      /* output elements */
    int dims[TE_MUL_MAX_DIMS];     /* output shape, extended to 6D */
    int stride1[TE_MUL_MAX_DIMS];  /* element stride of input 1 per output dim (0: broadcast) */
    int stride2[TE_MUL_MAX_DIMS];  /* same for input 2 */
    int32_t in1_offset, in2_offset;  /* minus the input zero points */
    int32_t out_mult;
    int out_shift;                 /* TFLite QuantizeMultiplier form: > 0 is a left shift */
    int32_t out_offset;            /* output zero point */
    int32_t act_min, act_max;
} te_mul_params;

/* te:section te_mul_s8 */
TE_KERNEL void te_mul_s8(const te_mul_params *p, const int8_t *in1, const int8_t *in2,
                         int8_t *out);
/* te:end */
/* te:section te_mul_s16 */
TE_KERNEL void te_mul_s16(const te_mul_params *p, const int16_t *in1, const int16_t *in2,
                          int16_t *out);
/* te:end */

#endif
