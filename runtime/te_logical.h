/* te_logical.h - LOGICAL_AND, LOGICAL_OR (numpy-style broadcasting) and
 * LOGICAL_NOT on bool tensors (one byte each, 0 / 1), as TFLite Micro's
 * logical kernels. */
#ifndef TE_LOGICAL_H
#define TE_LOGICAL_H

#include <stdint.h>

#include "te_common.h"

#define TE_LOGICAL_MAX_DIMS 6

typedef struct {
    int broadcast;                    /* 0: same shapes, one flat loop of `size` */
    int size;                         /* output elements */
    int dims[TE_LOGICAL_MAX_DIMS];    /* output shape, extended to 6D */
    int stride1[TE_LOGICAL_MAX_DIMS]; /* element stride of input 1 per output dim (0: broadcast) */
    int stride2[TE_LOGICAL_MAX_DIMS]; /* same for input 2 */
    int is_or;                        /* 1: LOGICAL_OR, 0: LOGICAL_AND */
} te_logical_params;

/* te:section te_logical_binary */
/* out[i] = in1[i] AND / OR in2[i] (broadcast), 1 or 0. */
TE_KERNEL void te_logical_binary(const te_logical_params *p, const uint8_t *in1,
                                 const uint8_t *in2, uint8_t *out);
/* te:end */
/* te:section te_logical_not */
/* out[i] = !in[i] for i < n; in and out may be the same buffer. */
TE_KERNEL void te_logical_not(const uint8_t *in, uint8_t *out, int n);
/* te:end */

#endif
