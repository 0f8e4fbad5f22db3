/* te_resize_nearest.h - RESIZE_NEAREST_NEIGHBOR (TFLite Micro reference).
 * The source row / column of every output row / column is computed by the
 * compiler with TFLite's float arithmetic and passed as tables. */
#ifndef TE_RESIZE_NEAREST_H
#define TE_RESIZE_NEAREST_H

#include <stdint.h>

/* te:section te_resize_nearest_s8 */
/* NHWC; each pixel is `depth` bytes (channels x element size).  Output
 * pixel (b, y, x) = input pixel (b, y_map[y], x_map[x]).  Output pixels
 * are out_pitch bytes apart: depth, or more when the output is a channel
 * slice of a wider tensor (a concatenation's). */
TE_KERNEL void te_resize_nearest_s8(const int8_t *in, int8_t *out, int32_t batches, int32_t in_h,
                                    int32_t in_w, int32_t depth, int32_t out_h, int32_t out_w,
                                    const int32_t *y_map, const int32_t *x_map,
                                    int32_t out_pitch);
/* te:end */

#endif
