/* te_conv2d_band.h - the band of input rows a convolution written over its
 * own input reads: output row r is computed from a copy of the input rows
 * it needs (the input zero point beyond the top and bottom edges), then
 * stored over input rows no later output row reads again. */
#ifndef TE_CONV2D_BAND_H
#define TE_CONV2D_BAND_H

#include <stdint.h>

typedef struct {
    int rows;       /* band rows: (k_h - 1) * dil_h + 1 */
    int row_bytes;  /* bytes of one input row: in_w * in_c */
    int in_h;       /* input rows */
    int stride_h;   /* input rows from one output row's band to the next */
    int pad_top;    /* padding rows above the first input row */
    int32_t zero_point; /* the input's zero point (padding rows) */
} te_conv2d_band_params;

/* te:section te_conv2d_band_s8 */
/* Makes band hold input rows r * stride_h - pad_top onwards (p->rows of
 * them), for r = 0, 1, ... in turn: the rows the band held for r - 1 that
 * it still needs are moved up, only the others read from input. */
TE_KERNEL void te_conv2d_band_s8(const te_conv2d_band_params *p, const int8_t *input,
                                 int8_t *band, int r);
/* te:end */

#endif
