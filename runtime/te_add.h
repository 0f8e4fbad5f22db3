/* te_add.h - ADD int8 kernel with numpy-style broadcasting (up to 6D),
 * bit-exact with TFLite Micro's reference integer Add / BroadcastAdd6DSlow:
 * both inputs are shifted left by left_shift, rescaled to a common scale,
 * summed, rescaled to the output scale and clamped (fused activation).
 *
 * te_add_s8_lut is the same operator when the compiler has found two
 * 256-entry tables u1, u2 (indexed by the int8 value + 128) such that, for
 * every pair of int8 inputs (x, y), clamp((u1[x] + u2[y]) >> TE_ADD_LUT_SHIFT)
 * equals TFLite's result: the tables absorb both input rescales and the
 * output rescale, checked exhaustively at compile time.
 *
 * The unquantized int32 / float32 ADD is te_binary_i32 / te_binary_f32
 * (te_binary_plain.h). */
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
    int left_shift;                /* 20 for int8, 15 for int16 */
    int32_t in1_mult;
    int in1_shift;                 /* <= 0 (QuantizeMultiplierSmallerThanOneExp) */
    int32_t in2_mult;
    int in2_shift;
    int32_t out_mult;
    int out_shift;
    int32_t out_offset;            /* output zero point */
    int32_t act_min, act_max;
} te_add_params;

/* Table kernel: fixed right shift of the table sum (u1[x] + u2[y] never
 * overflows: the compiler bounds both tables by 2^30). */
#define TE_ADD_LUT_SHIFT 16

typedef struct {
    int broadcast;                 /* same layout fields as te_add_params */
    int size;
    int dims[TE_ADD_MAX_DIMS];
    int stride1[TE_ADD_MAX_DIMS];
    int stride2[TE_ADD_MAX_DIMS];
    const int32_t *u1, *u2;        /* 256 entries each, index x + 128 */
    int32_t act_min, act_max;
} te_add_lut_params;


/* te:section te_add_s8 */
TE_KERNEL void te_add_s8(const te_add_params *p, const int8_t *in1, const int8_t *in2,
                         int8_t *out);
/* te:end */
/* te:section te_add_s8_lut */
/* Output may be input 1 or input 2 (same shape): element i is read first. */
TE_KERNEL void te_add_s8_lut(const te_add_lut_params *p, const int8_t *in1, const int8_t *in2,
                             int8_t *out);
/* te:end */
/* te:section te_add_s16 */
TE_KERNEL void te_add_s16(const te_add_params *p, const int16_t *in1, const int16_t *in2,
                          int16_t *out);
/* te:end */

#endif
