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

#if defined(TE_TARGET_DSP)
/* te:section TE_SVDF_INLINE */
/* The inner loops' helpers, inlined at -Os too (a call per word costs more
 * than the work). */
#if defined(__GNUC__)
#define TE_SVDF_INLINE static inline __attribute__((always_inline)) TE_UNUSED
#else
#define TE_SVDF_INLINE static inline TE_UNUSED
#endif
/* te:end */

/* te:section te_svdf_load_u32 */
/* 4 bytes from any address (one LDR on cores with unaligned access). */
TE_SVDF_INLINE uint32_t te_svdf_load_u32(const int8_t *s)
{
    const uint8_t *b = (const uint8_t *)s;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
/* te:end */

/* te:section te_svdf_word */
/* Bytes s[0..n-1] (n < 4) and zeros as one little-endian word. */
static inline TE_UNUSED uint32_t te_svdf_word(const int8_t *s, int n)
{
    uint32_t w = 0;
    int i;
    for (i = 0; i < n; i++)
        w |= (uint32_t)(uint8_t)s[i] << (8 * i);
    return w;
}
/* te:end */

/* te:section te_svdf_store_u32 */
TE_SVDF_INLINE void te_svdf_store_u32(int8_t *d, uint32_t w)
{
    uint8_t *b = (uint8_t *)d;
    b[0] = (uint8_t)w;
    b[1] = (uint8_t)(w >> 8);
    b[2] = (uint8_t)(w >> 16);
    b[3] = (uint8_t)(w >> 24);
}
/* te:end */

/* te:section te_svdf_mac4 */
/* acc + the dot of 4 int8 in word x with 4 int8 in word w. */
TE_SVDF_INLINE int32_t te_svdf_mac4(int32_t acc, uint32_t x, uint32_t w)
{
    acc = te_smlad(te_sxtb16(x), te_sxtb16(w), acc);
    return te_smlad(te_sxtb16_ror8(x), te_sxtb16_ror8(w), acc);
}
/* te:end */

/* te:section te_svdf_dot2_dsp */
/* acc0 + the dot of weights row w0, acc1 + that of w1, with input x (n
 * int8 each); the two rows share the input words. */
static inline TE_UNUSED void te_svdf_dot2_dsp(const int8_t *x, int n, const int8_t *w0,
                                              const int8_t *w1, int32_t *a0, int32_t *a1)
{
    int32_t s0 = *a0, s1 = *a1;
    int c;
    for (c = 0; c + 4 <= n; c += 4) {
        uint32_t v = te_svdf_load_u32(x + c), lo = te_sxtb16(v), hi = te_sxtb16_ror8(v);
        uint32_t u0 = te_svdf_load_u32(w0 + c), u1 = te_svdf_load_u32(w1 + c);
        s0 = te_smlad(lo, te_sxtb16(u0), s0);
        s1 = te_smlad(lo, te_sxtb16(u1), s1);
        s0 = te_smlad(hi, te_sxtb16_ror8(u0), s0);
        s1 = te_smlad(hi, te_sxtb16_ror8(u1), s1);
    }
    if (c < n) {
        uint32_t v = te_svdf_word(x + c, n - c);
        s0 = te_svdf_mac4(s0, v, te_svdf_word(w0 + c, n - c));
        s1 = te_svdf_mac4(s1, v, te_svdf_word(w1 + c, n - c));
    }
    *a0 = s0;
    *a1 = s1;
}
/* te:end */

/* te:section te_svdf_new_state */
/* A feature dot (offset folded in) as the newest state value, clamped to
 * the state type's [lo, hi]. */
static inline TE_UNUSED int32_t te_svdf_new_state(const te_svdf_params *p, int32_t acc,
                                                  int32_t lo, int32_t hi)
{
    int32_t v = te_mul_by_quant_mult(acc, p->feature_mult, p->feature_shift);
    return te_clamp_i32((int32_t)((uint32_t)v + (uint32_t)p->state_zp), lo, hi);
}
/* te:end */

/* te:section te_svdf_shift_dot_dsp */
/* Shifts row s (m int8) one step left with `last` as its newest value and
 * returns acc + its dot with the time weights row w (m int8). */
static inline TE_UNUSED int32_t te_svdf_shift_dot_dsp(int8_t *s, int m, int8_t last,
                                                      const int8_t *w, int32_t acc)
{
    int j;
    for (j = 0; j + 4 < m; j += 4) { /* s[j+1..j+4] all old values */
        uint32_t v = te_svdf_load_u32(s + j + 1);
        te_svdf_store_u32(s + j, v);
        acc = te_svdf_mac4(acc, v, te_svdf_load_u32(w + j));
    }
    if (m - j == 4) { /* the last 4 values: s[j+1..j+3] and `last` */
        uint32_t v = te_svdf_load_u32(s + j) >> 8 | (uint32_t)(uint8_t)last << 24;
        te_svdf_store_u32(s + j, v);
        acc = te_svdf_mac4(acc, v, te_svdf_load_u32(w + j));
    } else { /* the last 1..3 values, ending with `last` */
        int n = m - j, i;
        for (i = 0; i + 1 < n; i++)
            s[j + i] = s[j + i + 1];
        s[m - 1] = last;
        acc = te_svdf_mac4(acc, te_svdf_word(s + j, n), te_svdf_word(w + j, n));
    }
    return acc;
}
/* te:end */

/* te:section te_svdf_shift_dot16_dsp */
/* The same for an int16 row and int16 time weights: SMLAD on pairs. */
static inline TE_UNUSED int32_t te_svdf_shift_dot16_dsp(int16_t *s, int m, int16_t last,
                                                        const int16_t *w, int32_t acc)
{
    int j;
    for (j = 0; j + 2 < m; j += 2) { /* s[j+1], s[j+2] old values */
        uint32_t v = te_svdf_load_u32((const int8_t *)(s + j + 1));
        te_svdf_store_u32((int8_t *)(s + j), v);
        acc = te_smlad(v, te_svdf_load_u32((const int8_t *)(w + j)), acc);
    }
    if (m - j == 2) { /* s[j+1] and `last` */
        uint32_t v = te_svdf_load_u32((const int8_t *)(s + j)) >> 16 |
                     (uint32_t)(uint16_t)last << 16;
        te_svdf_store_u32((int8_t *)(s + j), v);
        acc = te_smlad(v, te_svdf_load_u32((const int8_t *)(w + j)), acc);
    } else { /* `last` alone */
        s[j] = last;
        acc = te_smlad((uint32_t)(uint16_t)last, (uint32_t)(uint16_t)w[j], acc);
    }
    return acc;
}
/* te:end */

/* te:section te_svdf_s8_s8_dsp */
TE_KERNEL void te_svdf_s8_s8_dsp(const te_svdf_params *p, const int8_t *input,
                                 const int8_t *weights_feature, const int32_t *feature_bias,
                                 const int8_t *weights_time, const int32_t *unit_bias,
                                 int8_t *state, int8_t *output)
{
    const int n = p->input_size, m = p->memory, nf = p->filters;
    int b;
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * n;
        int8_t *s = state + (long)b * nf * m;
        const int8_t *wf = weights_feature, *wt = weights_time;
        const int32_t *ub = unit_bias;
        int32_t acc = *ub++, a[2];
        int f, k, r = 0;
        for (f = 0; f < nf; f += 2, wf += 2 * n) { /* two filters share the input words */
            int pair = f + 1 < nf ? 2 : 1;
            a[0] = feature_bias[f];
            a[1] = pair == 2 ? feature_bias[f + 1] : 0;
            te_svdf_dot2_dsp(x, n, wf, pair == 2 ? wf + n : wf, &a[0], &a[1]);
            for (k = 0; k < pair; k++, s += m, wt += m) {
                acc = te_svdf_shift_dot_dsp(s, m, (int8_t)te_svdf_new_state(p, a[k], -128, 127),
                                            wt, acc);
                if (++r == p->rank) { /* the unit's last filter */
                    *output++ = te_svdf_output(p, (uint32_t)acc);
                    acc = f + k + 1 < nf ? *ub++ : 0;
                    r = 0;
                }
            }
        }
    }
}
/* te:end */

/* te:section te_svdf_s8_s16_dsp */
TE_KERNEL void te_svdf_s8_s16_dsp(const te_svdf_params *p, const int8_t *input,
                                  const int8_t *weights_feature, const int32_t *feature_bias,
                                  const int16_t *weights_time, const int32_t *unit_bias,
                                  int16_t *state, int8_t *output)
{
    const int n = p->input_size, m = p->memory, nf = p->filters;
    int b;
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * n, *wf = weights_feature;
        int16_t *s = state + (long)b * nf * m;
        const int16_t *wt = weights_time;
        const int32_t *ub = unit_bias;
        int32_t acc = *ub++, a[2];
        int f, k, r = 0;
        for (f = 0; f < nf; f += 2, wf += 2 * n) { /* two filters share the input words */
            int pair = f + 1 < nf ? 2 : 1;
            a[0] = feature_bias[f];
            a[1] = pair == 2 ? feature_bias[f + 1] : 0;
            te_svdf_dot2_dsp(x, n, wf, pair == 2 ? wf + n : wf, &a[0], &a[1]);
            for (k = 0; k < pair; k++, s += m, wt += m) {
                acc = te_svdf_shift_dot16_dsp(
                    s, m, (int16_t)te_svdf_new_state(p, a[k], -32768, 32767), wt, acc);
                if (++r == p->rank) { /* the unit's last filter */
                    *output++ = te_svdf_output(p, (uint32_t)acc);
                    acc = f + k + 1 < nf ? *ub++ : 0;
                    r = 0;
                }
            }
        }
    }
}
/* te:end */
#endif
