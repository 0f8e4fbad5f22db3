/* fc_layout.c - FULLY_CONNECTED constants for the fast kernels (see
 * fc_layout.h and runtime/te_fully_connected.h). */
#include "fc_layout.h"

#define FC_ROWS 8 /* TE_FULLY_CONNECTED_DSP_ROWS */

void te_fc_fold_bias(const int8_t *w, int units, int depth, const int32_t *bias,
                     int32_t input_offset, int32_t *out)
{
    int u, k;
    for (u = 0; u < units; u++) {
        uint32_t sum = 0;
        for (k = 0; k < depth; k++)
            sum += (uint32_t)(int32_t)w[(size_t)u * depth + k];
        sum = sum * (uint32_t)input_offset + (bias ? (uint32_t)bias[u] : 0u);
        out[u] = (int32_t)sum;
    }
}

size_t te_fc_dsp_rows(int units)
{
    return (size_t)(units + FC_ROWS - 1) / FC_ROWS * FC_ROWS;
}

size_t te_fc_dsp_words(int units, int depth)
{
    return te_fc_dsp_rows(units) * (size_t)((depth + 3) / 4);
}

/* Weight of row u at index k, 0 beyond the matrix (padding). */
static int32_t weight(const int8_t *w, int units, int depth, int u, int k)
{
    return u < units && k < depth ? w[(size_t)u * depth + k] : 0;
}

/* The 16-bit lane of rows (u, u+1) at index k, or -1 if it does not fit. */
static int lane(const int8_t *w, int units, int depth, int u, int k, uint32_t *v)
{
    int32_t x = weight(w, units, depth, u, k) + 256 * weight(w, units, depth, u + 1, k);
    if (x < -32768 || x > 32767)
        return -1;
    *v = (uint32_t)x & 0xffffu;
    return 0;
}

int te_fc_dsp_pack(const int8_t *w, int units, int depth, int32_t *out)
{
    int groups = (depth + 3) / 4, u, g, h, p;
    size_t n = 0;
    for (u = 0; u < units; u += FC_ROWS)
        for (g = 0; g < groups; g++)
            for (h = 0; h < 2; h++)
                for (p = 0; p < FC_ROWS / 2; p++) {
                    uint32_t lo, hi;
                    if (lane(w, units, depth, u + 2 * p, 4 * g + h, &lo) ||
                        lane(w, units, depth, u + 2 * p, 4 * g + h + 2, &hi))
                        return -1;
                    out[n++] = (int32_t)(lo | hi << 16);
                }
    return 0;
}
