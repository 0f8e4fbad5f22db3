/* te_prelu.h - PRELU int8 and int16 kernels with numpy-style broadcasting of alpha
 * (up to 6D), bit-exact with TFLite Micro's reference BroadcastPrelu4DSlow:
 * x - zp_in >= 0 rescaled by s_in / s_out, otherwise (x - zp_in) times
 * (alpha - zp_alpha) rescaled by s_in * s_alpha / s_out; plus the output
 * zero point, clamped to the output type.  The int16 kernel (int16x8
 * models) takes an int8 alpha, as TFLite Micro requires. */
#ifndef TE_PRELU_H
#define TE_PRELU_H

#include <stdint.h>

#define TE_PRELU_MAX_DIMS 6

typedef struct {
    int broadcast;                   /* 0: same shapes, one flat loop of `size` */
    int size;                        /* output elements */
    int dims[TE_PRELU_MAX_DIMS];     /* output shape, extended to 6D */
    int stride1[TE_PRELU_MAX_DIMS];  /* element stride of the input per output dim (0: broadcast) */
    int stride2[TE_PRELU_MAX_DIMS];  /* same for alpha */
    int32_t input_offset, alpha_offset;  /* minus the zero points */
    int32_t mult_pos;
    int shift_pos;                   /* QuantizeMultiplier form: > 0 is a left shift */
    int32_t mult_neg;
    int shift_neg;
    int32_t output_offset;           /* output zero point */
} te_prelu_params;

/* Output may be the input (same shape): element i is read first. */
TE_KERNEL void te_prelu_s8(const te_prelu_params *p, const int8_t *input, const int8_t *alpha,
                           int8_t *out);
TE_KERNEL void te_prelu_s16(const te_prelu_params *p, const int16_t *input, const int8_t *alpha,
                            int16_t *out);

#endif
