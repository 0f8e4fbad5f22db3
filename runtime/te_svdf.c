/* te_svdf.c - SVDF kernels (see te_svdf.h). */
#include "te_common.h"
#include "te_svdf.h"

/* te:section te_svdf_feature */
/* Step 2 for one filter: the new state value, clamped to [lo, hi]. */
static inline TE_UNUSED int32_t te_svdf_feature(const te_svdf_params *p, const int8_t *x,
                                                const int8_t *w, int32_t lo, int32_t hi)
{
    uint32_t acc = 0;
    int c;
    for (c = 0; c < p->input_size; c++)
        acc += (uint32_t)((int32_t)w[c] * ((int32_t)x[c] + p->input_offset));
    int32_t v = te_mul_by_quant_mult((int32_t)acc, p->feature_mult, p->feature_shift);
    return te_clamp_i32((int32_t)((uint32_t)v + (uint32_t)p->state_zp), lo, hi);
}
/* te:end */

/* te:section te_svdf_output */
/* Step 3's last part: a unit's sum (bias included) as int8. */
static inline TE_UNUSED int8_t te_svdf_output(const te_svdf_params *p, uint32_t acc)
{
    int32_t v = te_mul_by_quant_mult((int32_t)acc, p->output_mult, p->output_shift);
    return (int8_t)te_clamp_i32((int32_t)((uint32_t)v + (uint32_t)p->output_zp), -128, 127);
}
/* te:end */

/* te:section te_svdf_s8_s16 */
TE_KERNEL void te_svdf_s8_s16(const te_svdf_params *p, const int8_t *input,
                              const int8_t *weights_feature, const int16_t *weights_time,
                              const int32_t *bias, int16_t *state, int8_t *output)
{
    const int units = p->filters / p->rank, row = p->memory;
    const long total = (long)p->batches * p->filters * row;
    long i;
    int b, u, r, j;
    for (i = 0; i + 1 < total; i++) /* step 1 */
        state[i] = state[i + 1];
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * p->input_size;
        int16_t *s = state + (long)b * p->filters * row;
        const int16_t *wt = weights_time;
        int f;
        for (f = 0; f < p->filters; f++) /* step 2 */
            s[(long)f * row + row - 1] = (int16_t)te_svdf_feature(
                p, x, weights_feature + (long)f * p->input_size, -32768, 32767);
        for (u = 0; u < units; u++) { /* step 3 */
            uint32_t acc = bias ? (uint32_t)bias[u] : 0u;
            for (r = 0; r < p->rank; r++, s += row, wt += row)
                for (j = 0; j < row; j++)
                    acc += (uint32_t)wt[j] * (uint32_t)((int32_t)s[j] - p->state_zp);
            *output++ = te_svdf_output(p, acc);
        }
    }
}
/* te:end */

/* te:section te_svdf_s8_s8 */
TE_KERNEL void te_svdf_s8_s8(const te_svdf_params *p, const int8_t *input,
                             const int8_t *weights_feature, const int8_t *weights_time,
                             const int32_t *bias, int8_t *state, int8_t *output)
{
    const int units = p->filters / p->rank, row = p->memory;
    const long total = (long)p->batches * p->filters * row;
    long i;
    int b, u, r, j;
    for (i = 0; i + 1 < total; i++) /* step 1 */
        state[i] = state[i + 1];
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * p->input_size;
        int8_t *s = state + (long)b * p->filters * row;
        const int8_t *wt = weights_time;
        int f;
        for (f = 0; f < p->filters; f++) /* step 2 */
            s[(long)f * row + row - 1] = (int8_t)te_svdf_feature(
                p, x, weights_feature + (long)f * p->input_size, -128, 127);
        for (u = 0; u < units; u++) { /* step 3 */
            uint32_t acc = bias ? (uint32_t)bias[u] : 0u;
            for (r = 0; r < p->rank; r++, s += row, wt += row)
                for (j = 0; j < row; j++)
                    acc += (uint32_t)((int32_t)wt[j] * ((int32_t)s[j] - p->state_zp));
            *output++ = te_svdf_output(p, acc);
        }
    }
}
/* te:end */
