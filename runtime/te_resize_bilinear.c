/* te_resize_bilinear.c - bilinear resize, int8 (see te_resize_bilinear.h). */
#include "te_common.h"
#include "te_resize_bilinear.h"

/* sum / 2^20 rounded half away from zero (truncating division, as TFLite's
 * non-single-rounding path).  |sum| < 2^30, so no overflow. */
static inline TE_UNUSED int8_t te_resize_bilinear_round(int32_t sum)
{
    int32_t r = sum > 0 ? (sum + (1 << 19)) / (1 << 20) : (sum - (1 << 19)) / (1 << 20);
    return (int8_t)r; /* TFLite's static_cast: wraps outside int8 */
}

TE_KERNEL void te_resize_bilinear_s8(const int8_t *in, int8_t *out, int32_t batches,
                                     int32_t image_elems, int32_t depth, int32_t out_h,
                                     int32_t out_w, const int32_t *y_tab, const int32_t *x_tab,
                                     int32_t out_pitch)
{
    int32_t b, y, x, c;
    for (b = 0; b < batches; b++) {
        const int8_t *img = in + (long)b * image_elems;
        for (y = 0; y < out_h; y++) {
            const int8_t *row0 = img + y_tab[3 * y], *row1 = img + y_tab[3 * y + 1];
            int32_t dy = y_tab[3 * y + 2], wy = 1024 - dy;
            for (x = 0; x < out_w; x++) {
                const int8_t *p00 = row0 + x_tab[3 * x], *p10 = row1 + x_tab[3 * x];
                const int8_t *p01 = row0 + x_tab[3 * x + 1], *p11 = row1 + x_tab[3 * x + 1];
                int32_t dx = x_tab[3 * x + 2], wx = 1024 - dx;
                int32_t w00 = wy * wx, w10 = dy * wx, w01 = wy * dx, w11 = dy * dx;
                for (c = 0; c < depth; c++)
                    out[c] = te_resize_bilinear_round(p00[c] * w00 + p10[c] * w10 +
                                                      p01[c] * w01 + p11[c] * w11);
                out += out_pitch;
            }
        }
    }
}
