/* ref_pool.h - plain AVERAGE_POOL_2D / MAX_POOL_2D reference for the
 * pooling kernel tests, int8 or int16 (elem_bytes 1 or 2): TFLite's window
 * clipped to the input, the average rounded half away from zero, the result
 * clamped to [lo, hi]; and a random case's geometry (output shape,
 * options).  Header only. */
#ifndef TE_REF_POOL_H
#define TE_REF_POOL_H

#include <stdint.h>

#include "ir/ir.h" /* te_padding, te_options */

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


/* A pooling case's geometry: the output size TFLite's padding gives for
 * an n x h x w x ch input, window fh x fw, strides sh, sw, in oshape (and
 * the input shape in ishape), and the operator options for it (activation
 * NONE). */
static REF_POOL_UNUSED void ref_pool_geometry(te_padding pad, int n, int h, int w, int ch, int fh,
                                              int fw, int sh, int sw, te_options *opt,
                                              int *ishape, int *oshape)
{
    te_options o = {0};
    int oh = pad == TE_PAD_SAME ? (h + sh - 1) / sh : (h - fh) / sh + 1;
    int ow = pad == TE_PAD_SAME ? (w + sw - 1) / sw : (w - fw) / sw + 1;
    o.padding = pad;
    o.stride_h = sh;
    o.stride_w = sw;
    o.filter_h = fh;
    o.filter_w = fw;
    *opt = o;
    ishape[0] = oshape[0] = n;
    ishape[1] = h;
    ishape[2] = w;
    oshape[1] = oh;
    oshape[2] = ow;
    ishape[3] = oshape[3] = ch;
}

#endif
