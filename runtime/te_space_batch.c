/* te_space_batch.c - SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND (see
 * te_space_batch.h). */
#include "te_common.h"
#include "te_space_batch.h"

TE_KERNEL void te_space_to_batch_s8(const int8_t *in, int8_t *out, const int32_t *p, int8_t pad)
{
    int32_t in_n = p[0], in_h = p[1], in_w = p[2], out_n = p[3], out_h = p[4], out_w = p[5];
    int32_t bh = p[6], bw = p[7], top = p[8], left = p[9], depth = p[10];
    int32_t ob, oh, ow, i;
    for (ob = 0; ob < out_n; ob++) {
        int32_t ib = ob % in_n, sw = (ob / in_n) % bw, sh = (ob / in_n) / bw;
        for (oh = 0; oh < out_h; oh++) {
            int32_t ih = oh * bh + sh - top;
            for (ow = 0; ow < out_w; ow++) {
                int32_t iw = ow * bw + sw - left;
                if (ih < 0 || ih >= in_h || iw < 0 || iw >= in_w) {
                    for (i = 0; i < depth; i++)
                        out[i] = pad;
                } else {
                    const int8_t *src = in + ((ib * in_h + ih) * in_w + iw) * depth;
                    for (i = 0; i < depth; i++)
                        out[i] = src[i];
                }
                out += depth;
            }
        }
    }
}

TE_KERNEL void te_batch_to_space_s8(const int8_t *in, int8_t *out, const int32_t *p)
{
    int32_t in_n = p[0], in_h = p[1], in_w = p[2], out_n = p[3], out_h = p[4], out_w = p[5];
    int32_t bh = p[6], bw = p[7], top = p[8], left = p[9], depth = p[10];
    int32_t ib, ih, iw, i;
    for (ib = 0; ib < in_n; ib++) {
        int32_t ob = ib % out_n, shift = ib / out_n;
        for (ih = 0; ih < in_h; ih++) {
            int32_t oh = ih * bh + shift / bw - top;
            if (oh < 0 || oh >= out_h)
                continue;
            for (iw = 0; iw < in_w; iw++) {
                int32_t ow = iw * bw + shift % bw - left;
                const int8_t *src = in + ((ib * in_h + ih) * in_w + iw) * depth;
                int8_t *dst = out + ((ob * out_h + oh) * out_w + ow) * depth;
                if (ow < 0 || ow >= out_w)
                    continue;
                for (i = 0; i < depth; i++)
                    dst[i] = src[i];
            }
        }
    }
}
