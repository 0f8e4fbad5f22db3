/* te_minmax.h - MINIMUM / MAXIMUM int8 and int16 kernels with numpy-style
 * broadcasting (up to 6D), as TFLite Micro's reference
 * MaximumMinimumBroadcastSlow: the raw values are compared, no rescaling
 * (the converter gives both inputs and the output one scale). */
#ifndef TE_MINMAX_H
#define TE_MINMAX_H

#include <stdint.h>

#define TE_MINMAX_MAX_DIMS 6

typedef struct {
    int broadcast;                   /* 0: same shapes, one flat loop of `size` */
    int size;                        /* output elements */
    int dims[TE_MINMAX_MAX_DIMS];    /* output shape, extended to 6D */
    int stride1[TE_MINMAX_MAX_DIMS]; /* element stride of input 1 per output dim (0: broadcast) */
    int stride2[TE_MINMAX_MAX_DIMS]; /* same for input 2 */
    int is_max;                      /* 1: MAXIMUM, 0: MINIMUM */
} te_minmax_params;

/* Output may be input 1 or input 2 (same shape): element i is read first. */
TE_KERNEL void te_minmax_s8(const te_minmax_params *p, const int8_t *in1, const int8_t *in2,
                            int8_t *out);
TE_KERNEL void te_minmax_s16(const te_minmax_params *p, const int16_t *in1, const int16_t *in2,
                             int16_t *out);

#endif
