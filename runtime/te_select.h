/* te_select.h - SELECT_V2: out = condition ? x : y element by element, with
 * numpy-style broadcasting of the three inputs (up to 5D in TFLite Micro),
 * values copied raw (int8, int16, float32: TFLite Micro's types). */
#ifndef TE_SELECT_H
#define TE_SELECT_H

#include <stdint.h>

#include "te_common.h"

#define TE_SELECT_MAX_DIMS 6

typedef struct {
    int broadcast;                  /* 0: same shapes, one flat loop of `size` */
    int size;                       /* output elements */
    int dims[TE_SELECT_MAX_DIMS];   /* output shape, extended to 6D */
    int stride_c[TE_SELECT_MAX_DIMS]; /* element stride of the condition per dim (0: broadcast) */
    int stride_x[TE_SELECT_MAX_DIMS]; /* same for x */
    int stride_y[TE_SELECT_MAX_DIMS]; /* same for y */
} te_select_params;

/* te:section te_select_s8 */
TE_KERNEL void te_select_s8(const te_select_params *p, const uint8_t *cond, const int8_t *x,
                            const int8_t *y, int8_t *out);
/* te:end */
/* te:section te_select_s16 */
TE_KERNEL void te_select_s16(const te_select_params *p, const uint8_t *cond, const int16_t *x,
                             const int16_t *y, int16_t *out);
/* te:end */
/* te:section te_select_f32 */
TE_KERNEL void te_select_f32(const te_select_params *p, const uint8_t *cond, const float *x,
                             const float *y, float *out);
/* te:end */

#endif
