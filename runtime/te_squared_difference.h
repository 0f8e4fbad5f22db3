/* te_squared_difference.h - SQUARED_DIFFERENCE int8 and int16 kernels with
 * numpy-style broadcasting (up to 6D), bit-exact with TFLite Micro's
 * reference: both inputs shifted left (7 for int8, 0 for int16) and
 * rescaled to a common scale, their difference squared in int32, rescaled
 * to the output scale (one multiplier, any size) and clamped to the type. */
#ifndef TE_SQUARED_DIFFERENCE_H
#define TE_SQUARED_DIFFERENCE_H

#include <stdint.h>

#define TE_SQDIFF_MAX_DIMS 6

typedef struct {
    int broadcast;                    /* 0: same shapes, one flat loop of `size` */
    int size;                         /* output elements */
    int dims[TE_SQDIFF_MAX_DIMS];     /* output shape, extended to 6D */
    int stride1[TE_SQDIFF_MAX_DIMS];  /* element stride of input 1 per output dim (0: broadcast) */
    int stride2[TE_SQDIFF_MAX_DIMS];  /* same for input 2 */
    int32_t in1_offset, in2_offset;   /* minus the input zero points */
    int left_shift;                   /* 7 for int8, 0 for int16 */
    int32_t in1_mult;
    int in1_shift;                    /* <= 0 */
    int32_t in2_mult;
    int in2_shift;
    int32_t out_mult;
    int out_shift;                    /* QuantizeMultiplier form: > 0 is a left shift */
    int32_t out_offset;               /* output zero point */
} te_squared_difference_params;

/* Output may be input 1 or input 2 (same shape): element i is read first. */
TE_KERNEL void te_squared_difference_s8(const te_squared_difference_params *p,
                                        const int8_t *in1, const int8_t *in2, int8_t *out);
TE_KERNEL void te_squared_difference_s16(const te_squared_difference_params *p,
                                         const int16_t *in1, const int16_t *in2, int16_t *out);

#endif
