/* te_div.h - DIV with numpy-style broadcasting (TFLite Micro: up to 5D), as
 * its reference kernels: float32 (x / y), int32 (C division) and int8
 * (offsets, GetReciprocal of the divisor, the quotient rescaled by
 * s1 / (s2 * s_out)), each clamped to the fused activation's range; and
 * FLOOR_DIV and FLOOR_MOD (float32 only in TFLite Micro, up to 4D). */
#ifndef TE_DIV_H
#define TE_DIV_H

#include <stdint.h>

#include "te_common.h"

#define TE_DIV_MAX_DIMS 6

typedef struct {
    int broadcast;                /* 0: same shapes, one flat loop of `size` */
    int size;                     /* output elements */
    int dims[TE_DIV_MAX_DIMS];    /* output shape, extended to 6D */
    int stride1[TE_DIV_MAX_DIMS]; /* element stride of input 1 per output dim (0: broadcast) */
    int stride2[TE_DIV_MAX_DIMS]; /* same for input 2 */
    int32_t act_min, act_max;     /* int8 / int32: the activation's range */
    float f_min, f_max;           /* float32: the activation's range */
    int32_t in1_offset, in2_offset, out_offset; /* int8: -zp1, -zp2, zp_out */
    int32_t out_multiplier, out_shift;          /* int8: s1 / (s2 * s_out) */
    int in2_size;                 /* FLOOR_DIV: input 2's elements (checked for zeros) */
} te_div_params;

/* te:section te_div_s8 */
TE_KERNEL void te_div_s8(const te_div_params *p, const int8_t *in1, const int8_t *in2,
                         int8_t *out);
/* te:end */
/* te:section te_div_i32 */
TE_KERNEL void te_div_i32(const te_div_params *p, const int32_t *in1, const int32_t *in2,
                          int32_t *out);
/* te:end */
/* te:section te_floor_div_f32 */
/* FLOOR_DIV: (float)floor((double)x / (double)y); -1 (nothing written)
 * when input 2 holds a zero, as TFLite Micro refuses it. */
TE_KERNEL int te_floor_div_f32(const te_div_params *p, const float *in1, const float *in2,
                               float *out);
/* te:end */
/* te:section te_floor_mod_f32 */
/* FLOOR_MOD: fmodf(x, y), moved to y's sign when the signs differ. */
TE_KERNEL void te_floor_mod_f32(const te_div_params *p, const float *in1, const float *in2,
                                float *out);
/* te:end */
/* te:section te_div_f32 */
TE_KERNEL void te_div_f32(const te_div_params *p, const float *in1, const float *in2,
                          float *out);
/* te:end */

#endif
