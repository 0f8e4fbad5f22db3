/* ref_pool.h - plain AVERAGE_POOL_2D / MAX_POOL_2D reference for the
 * pooling kernel tests, int8 or int16 (elem_bytes 1 or 2): TFLite's window
 * clipped to the input, the average rounded half away from zero, the result
 * clamped to [lo, hi].  Header only. */
#ifndef TE_REF_POOL_H
#define TE_REF_POOL_H

#include <stdint.h>

#include "ir/ir.h" /* te_padding */

#if defined(__GNUC__)
#define REF_POOL_UNUSED __attribute__((unused))
#else
#define REF_POOL_UNUSED
#endif

static REF_POOL_UNUSED int32_t ref_pool_get(const void *p, int elem_bytes, long i)
{
    return elem_bytes == 1 ? ((const int8_t *)p)[i] : ((const int16_t *)p)[i];
}

static REF_POOL_UNUSED void ref_pool_set(void *p, int elem_bytes, long i, int32_t v)
{
    if (elem_bytes == 1)
        ((int8_t *)p)[i] = (int8_t)v;
    else
        ((int16_t *)p)[i] = (int16_t)v;
}

/* One output value: the window at (b, y, x, c) of an n x h x w x ch input. */
static REF_POOL_UNUSED int32_t ref_pool_window(int is_max, const void *in, int elem_bytes, int h,
                                               int w, int ch, int fh, int fw, int y0, int x0,
                                               int b, int c)
{
    int32_t sum = 0, mx = elem_bytes == 1 ? -128 : -32768, cnt = 0, val;
    int i, j;
    for (i = 0; i < fh; i++)
        for (j = 0; j < fw; j++) {
            int iy = y0 + i, ix = x0 + j;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                continue;
            val = ref_pool_get(in, elem_bytes, (((long)b * h + iy) * w + ix) * ch + c);
            sum += val;
            mx = val > mx ? val : mx;
            cnt++;
        }
    if (is_max)
        return mx;
    return sum >= 0 ? (sum + cnt / 2) / cnt : -((-sum + cnt / 2) / cnt);
}

static REF_POOL_UNUSED void ref_pool(int is_max, const void *in, int elem_bytes, int n, int h,
                                     int w, int ch, int fh, int fw, int sh, int sw,
                                     te_padding pad, int oh, int ow, int32_t lo, int32_t hi,
                                     void *out)
{
    int ph = 0, pw = 0, b, y, x, c;
    long k = 0;
    if (pad == TE_PAD_SAME) {
        int th = (oh - 1) * sh + fh - h, tw = (ow - 1) * sw + fw - w;
        ph = th > 0 ? th / 2 : 0;
        pw = tw > 0 ? tw / 2 : 0;
    }
    for (b = 0; b < n; b++)
        for (y = 0; y < oh; y++)
            for (x = 0; x < ow; x++)
                for (c = 0; c < ch; c++) {
                    int32_t v = ref_pool_window(is_max, in, elem_bytes, h, w, ch, fh, fw,
                                                y * sh - ph, x * sw - pw, b, c);
                    ref_pool_set(out, elem_bytes, k++, v < lo ? lo : v > hi ? hi : v);
                }
}

#endif
