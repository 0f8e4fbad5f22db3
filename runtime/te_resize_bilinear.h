/* te_resize_bilinear.h - RESIZE_BILINEAR int8 kernel, bit-exact with TFLite
 * Micro's integer reference (ResizeBilinearInteger): source positions in
 * fixed point with 10 fractional bits, the four neighbours weighted in
 * 2^20 units, rounded half away from zero.  The compiler computes every
 * output row's and column's neighbours and fractions once and passes them
 * as tables. */
#ifndef TE_RESIZE_BILINEAR_H
#define TE_RESIZE_BILINEAR_H

#include <stdint.h>

/* NHWC int8 with `depth` channels.  y_tab has 3 entries per output row:
 * the element offsets of its two source rows inside one image, and the
 * fraction dy (input_y - 1024 * y0, in [-512, 1024)).  x_tab likewise per
 * output column: the element offsets of the two source pixels inside a row,
 * and dx.  Output pixels are out_pitch bytes apart (depth, or more when the
 * output is a channel slice of a concatenation's output). */
TE_KERNEL void te_resize_bilinear_s8(const int8_t *in, int8_t *out, int32_t batches,
                                     int32_t image_elems, int32_t depth, int32_t out_h,
                                     int32_t out_w, const int32_t *y_tab, const int32_t *x_tab,
                                     int32_t out_pitch);

#endif
