/* conv_band.c - the safety rule of a convolution run in place row by row
 * over a band of saved input rows (conv_band.h). */
/* The runtime header gives the band's params: declare its kernel extern. */
#ifndef TE_KERNEL
#define TE_KERNEL extern
#endif
#include "conv_band.h"

/* Band r holds input rows r * stride_h - pad_top .. + rows - 1; each band
 * keeps what the one before held of them, so input row i is read from the
 * input once, at the first r whose band reaches it (none when a stride
 * larger than the band skips it, or the rows run out first).  By then
 * output rows 0 .. r - 1 are stored, over bytes [0, r * out_row_bytes). */
int te_conv2d_band_safe(const te_conv2d_band_params *b, int out_h, long out_row_bytes)
{
    long long i;
    if (b->rows < 1 || b->stride_h < 1)
        return 0;
    for (i = 0; i < b->in_h; i++) {
        /* the first r with r * stride_h - pad_top + rows - 1 >= i */
        long long need = i + b->pad_top - (b->rows - 1), r;
        r = need <= 0 ? 0 : (need + b->stride_h - 1) / b->stride_h;
        if (r >= out_h || i < r * b->stride_h - b->pad_top)
            continue; /* never loaded */
        if (r * out_row_bytes > i * (long long)b->row_bytes)
            return 0;
    }
    return 1;
}
