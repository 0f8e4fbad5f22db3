/* te_conv2d_band.c - the band of input rows of a convolution written over
 * its own input (see te_conv2d_band.h): copies only, no arithmetic. */
#include <string.h>

#include "te_common.h"
#include "te_conv2d_band.h"

/* te:section te_conv2d_band_s8 */
TE_KERNEL void te_conv2d_band_s8(const te_conv2d_band_params *p, const int8_t *input,
                                 int8_t *band, int r)
{
    const size_t row = (size_t)p->row_bytes;
    const int keep = r > 0 && p->stride_h < p->rows ? p->rows - p->stride_h : 0;
    int t;
    if (keep > 0)
        memmove(band, band + (size_t)p->stride_h * row, (size_t)keep * row);
    for (t = keep; t < p->rows; t++) {
        const int y = r * p->stride_h - p->pad_top + t;
        if (y >= 0 && y < p->in_h)
            memcpy(band + (size_t)t * row, input + (size_t)y * row, row);
        else
            memset(band + (size_t)t * row, (int)p->zero_point, row);
    }
}
/* te:end */
