/* te_resize_nearest.c - nearest-neighbour resize (see te_resize_nearest.h). */
#include "te_common.h"
#include "te_resize_nearest.h"

/* te:section te_resize_nearest_s8 */
TE_KERNEL void te_resize_nearest_s8(const int8_t *in, int8_t *out, int32_t batches, int32_t in_h,
                                    int32_t in_w, int32_t depth, int32_t out_h, int32_t out_w,
                                    const int32_t *y_map, const int32_t *x_map,
                                    int32_t out_pitch)
{
    int32_t b, y, x, c;
    int32_t row = in_w * depth;
    long o = 0;
    for (b = 0; b < batches; b++) {
        const int8_t *img = in + b * in_h * row;
        for (y = 0; y < out_h; y++) {
            const int8_t *src_row = img + y_map[y] * row;
            for (x = 0; x < out_w; x++) {
                const int8_t *src = src_row + x_map[x] * depth;
                int8_t *dst = out + o;
                for (c = 0; c < depth; c++)
                    dst[c] = src[c];
                o += out_pitch;
            }
        }
    }
}
/* te:end */
