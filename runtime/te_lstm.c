/* te_lstm.c - the int8 LSTM sequence kernel (see te_lstm.h).
 *
 * Per step each row's input and hidden state are read by all four gates'
 * products.  With TE_TARGET_DSP they are first widened once to int16 pairs
 * in the order SXTB16 takes bytes apart (x0,x2 then x1,x3 for each 4
 * bytes), and the weights of two rows come as int16 lanes a + 256 b: two
 * SMLADs per lane pair (one on its SXTB16) give 4 multiply-accumulates. */
#include <string.h>

#include "te_common.h"
#include "te_activation_s16.h"
#include "te_lstm.h"

/* te:section te_lstm_requant */
/* TFLite MultiplyByQuantizedMultiplier for mult in [0, 2^31) (what
 * QuantizeMultiplier gives): the doubling high multiply cannot saturate
 * and is floor((x m + 2^30) / 2^31); the rounding divide by 2^right (half
 * away from zero) is taken in two shifts without overflow. */
static inline TE_UNUSED int32_t te_lstm_requant(int32_t acc, int32_t mult, int32_t shift)
{
    int32_t left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift, v;
    v = (int32_t)(((int64_t)te_shl_i32(acc, left) * mult + ((int64_t)1 << 30)) >> 31);
    if (right == 0)
        return v;
    return (((v + (v >> 31)) >> (right - 1)) + 1) >> 1;
}
/* te:end */

#if defined(TE_TARGET_DSP)
/* te:section te_lstm_load32 */
/* 4 bytes at p as one word: a single load on cores with unaligned access,
 * inlined at -Os too */
static inline TE_UNUSED uint32_t te_lstm_load32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
/* te:end */

/* te:section te_lstm_widen */
/* x [n] as int16 pairs, 2 words per 4 bytes (zeros past n): (x0, x2),
 * (x1, x3) as SXTB16 and SXTB16 ROR 8 give them. */
static TE_UNUSED void te_lstm_widen(const int8_t *x, int32_t n, uint32_t *xw)
{
    int32_t g, full = n >> 2;
    for (g = 0; g < full; g++) {
        uint32_t w = te_read_u32(x + 4 * g);
        xw[2 * g] = te_sxtb16(w);
        xw[2 * g + 1] = te_sxtb16_ror8(w);
    }
    if (n & 3) {
        uint32_t w = 0;
        int32_t j;
        for (j = 0; j < (n & 3); j++)
            w |= (uint32_t)(uint8_t)x[4 * full + j] << (8 * j);
        xw[2 * full] = te_sxtb16(w);
        xw[2 * full + 1] = te_sxtb16_ror8(w);
    }
}
/* te:end */

/* te:section te_lstm_dot2 */
/* The sums of two weight rows a, b in the DSP layout (te_lstm.h: lanes
 * a + 256 b, 4 per group of 4 columns) with the widened vector xw, added
 * to *a0, *a1: SMLAD of the lanes gives sum a x + 256 sum b x, SMLAD of
 * their SXTB16 sum a x; exact while |sum b x| < 2^23, so at most 126
 * groups (|b x| <= 2^14) per partial sum. */
static inline TE_UNUSED void te_lstm_dot2(const int16_t *v, const uint32_t *xw, int32_t groups,
                                          int32_t *a0, int32_t *a1)
{
    while (groups > 0) {
        int32_t n = groups < 126 ? groups : 126, pairs = n >> 1, lo = 0, raw = 0;
        const int16_t *vp = v;
        const uint32_t *xp = xw;
        for (; pairs > 0; pairs--) { /* two groups a turn: fewer loop steps */
            uint32_t v0 = te_lstm_load32(vp), v1 = te_lstm_load32(vp + 2);
            uint32_t v2 = te_lstm_load32(vp + 4), v3 = te_lstm_load32(vp + 6);
            lo = te_smlad(te_sxtb16(v0), xp[0], lo);
            raw = te_smlad(v0, xp[0], raw);
            lo = te_smlad(te_sxtb16(v1), xp[1], lo);
            raw = te_smlad(v1, xp[1], raw);
            lo = te_smlad(te_sxtb16(v2), xp[2], lo);
            raw = te_smlad(v2, xp[2], raw);
            lo = te_smlad(te_sxtb16(v3), xp[3], lo);
            raw = te_smlad(v3, xp[3], raw);
            vp += 8;
            xp += 4;
        }
        if (n & 1) {
            uint32_t v0 = te_lstm_load32(vp), v1 = te_lstm_load32(vp + 2);
            lo = te_smlad(te_sxtb16(v0), xp[0], lo);
            raw = te_smlad(v0, xp[0], raw);
            lo = te_smlad(te_sxtb16(v1), xp[1], lo);
            raw = te_smlad(v1, xp[1], raw);
        }
        *a0 = (int32_t)((uint32_t)*a0 + (uint32_t)lo);
        *a1 = (int32_t)((uint32_t)*a1 + (uint32_t)((int32_t)((uint32_t)raw - (uint32_t)lo) >> 8));
        v += 4 * n;
        xw += 2 * n;
        groups -= n;
    }
}
/* te:end */
#else
/* te:section te_lstm_dot_s8 */
/* sum of w[j] * x[j] for j < n */
static inline TE_UNUSED int32_t te_lstm_dot_s8(const int8_t *w, const int8_t *x, int32_t n)
{
    int32_t j, acc = 0;
    for (j = 0; j < n; j++)
        acc += (int32_t)w[j] * x[j];
    return acc;
}
/* te:end */
#endif

/* te:section te_lstm_gate_out */
/* A gate's value before its activation: both products in Q3.12 (each
 * clamped to int16), added with saturation. */
static inline TE_UNUSED int16_t te_lstm_gate_out(const te_lstm_s8_params *p, int k, int32_t a,
                                                 int32_t c)
{
    a = te_clamp_i32(te_lstm_requant(a, p->in_mult[k], p->in_shift[k]), -32768, 32767);
    c = te_clamp_i32(te_lstm_requant(c, p->rec_mult[k], p->rec_shift[k]), -32768, 32767);
    return (int16_t)te_clamp_i32(a + c, -32768, 32767);
}
/* te:end */

/* te:section te_lstm_gate */
/* One gate for `rows` rows of input x [rows][n_input] and hidden state h
 * [rows][n_state] (with DSP: xw, hw, their widened forms): both products,
 * then the gate's activation, into g [rows][n_state]. */
static TE_UNUSED void te_lstm_gate(const te_lstm_s8_params *p, int k, const int8_t *x,
                                   const int8_t *h, const uint32_t *xw, const uint32_t *hw,
                                   int32_t rows, int16_t *g)
{
    const int32_t ni = p->n_input, ns = p->n_state;
    const int32_t pi = TE_LSTM_PAD4(ni), ps = TE_LSTM_PAD4(ns);
    const int8_t *wi = (const int8_t *)p->w_in[k], *wr = (const int8_t *)p->w_rec[k];
    int32_t b, r;
    for (b = 0; b < rows; b++) {
        int16_t *gb = g + b * ns;
#if defined(TE_TARGET_DSP)
        const uint32_t *xb = xw + b * (pi / 2), *hb = hw + b * (ps / 2);
        const int16_t *vi = (const int16_t *)(const void *)wi;
        const int16_t *vr = (const int16_t *)(const void *)wr;
        (void)x;
        (void)h;
        for (r = 0; r < ns; r += 2) {
            int32_t a0 = p->bias_in[k][r], c0 = p->bias_rec[k][r];
            int32_t a1 = r + 1 < ns ? p->bias_in[k][r + 1] : 0;
            int32_t c1 = r + 1 < ns ? p->bias_rec[k][r + 1] : 0;
            te_lstm_dot2(vi + (r / 2) * pi, xb, pi / 4, &a0, &a1);
            te_lstm_dot2(vr + (r / 2) * ps, hb, ps / 4, &c0, &c1);
            gb[r] = te_lstm_gate_out(p, k, a0, c0);
            if (r + 1 < ns)
                gb[r + 1] = te_lstm_gate_out(p, k, a1, c1);
        }
#else
        const int8_t *xb = x + b * ni, *hb = h + b * ns;
        (void)xw;
        (void)hw;
        for (r = 0; r < ns; r++)
            gb[r] = te_lstm_gate_out(p, k,
                                     p->bias_in[k][r] + te_lstm_dot_s8(wi + r * pi, xb, ni),
                                     p->bias_rec[k][r] + te_lstm_dot_s8(wr + r * ps, hb, ns));
#endif
    }
    if (k == TE_LSTM_CELL)
        te_tanh_s16(g, g, rows * ns, 3, 0);
    else
        te_sigmoid_s16(g, g, rows * ns, 3, 0);
}
/* te:end */

/* te:section te_lstm_mul_s16 */
/* TFLM MulElementwise of two int16 values: requantized product, clamped. */
static inline TE_UNUSED int32_t te_lstm_mul_s16(int32_t a, int32_t b, int32_t m, int32_t s,
                                                int32_t zp, int32_t lo, int32_t hi)
{
    return te_clamp_i32(zp + te_lstm_requant(a * b, m, s), lo, hi);
}
/* te:end */

/* te:section te_lstm_cell_update */
/* cell = forget x cell + input x cell gate (saturating, optional clip),
 * for n values. */
static inline TE_UNUSED void te_lstm_cell_update(int32_t forget_mult, int32_t forget_shift,
                                                 int32_t input_mult, int32_t input_shift,
                                                 int32_t clip, const int16_t *forget,
                                                 const int16_t *input, const int16_t *cg,
                                                 int16_t *c, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        int32_t f = te_lstm_mul_s16(forget[i], c[i], forget_mult, forget_shift, 0, -32768, 32767);
        int32_t u = te_lstm_mul_s16(input[i], cg[i], input_mult, input_shift, 0, -32768, 32767);
        int32_t v = te_clamp_i32(f + u, -32768, 32767);
        if (clip >= 0)
            v = te_clamp_i32(v, -clip, clip);
        c[i] = (int16_t)v;
    }
}
/* te:end */

/* te:section te_lstm_step */
/* One time step for `rows` rows (the whole batch when time major, else
 * one sequence): the gates, the cell update and the new hidden state,
 * copied to out.  scratch: the widened rows, then three gates. */
static TE_UNUSED void te_lstm_step(const te_lstm_s8_params *p, const int8_t *x, int8_t *h,
                                   int16_t *c, int8_t *out, int32_t rows, void *scratch)
{
    const int32_t n = rows * p->n_state;
    const int32_t pi = TE_LSTM_PAD4(p->n_input), ps = TE_LSTM_PAD4(p->n_state);
    uint32_t *xw = (uint32_t *)scratch, *hw = xw + rows * (pi / 2);
    int16_t *forget = (int16_t *)(hw + rows * (ps / 2)), *input = forget + n, *cg = input + n;
    int32_t i;
#if defined(TE_TARGET_DSP)
    for (i = 0; i < rows; i++) {
        te_lstm_widen(x + i * p->n_input, p->n_input, xw + i * (pi / 2));
        te_lstm_widen(h + i * p->n_state, p->n_state, hw + i * (ps / 2));
    }
#endif
    te_lstm_gate(p, TE_LSTM_FORGET, x, h, xw, hw, rows, forget);
    te_lstm_gate(p, TE_LSTM_INPUT, x, h, xw, hw, rows, input);
    te_lstm_gate(p, TE_LSTM_CELL, x, h, xw, hw, rows, cg);
    te_lstm_cell_update(p->forget_mult, p->forget_shift, p->input_mult, p->input_shift,
                        p->cell_clip, forget, input, cg, c, n);
    /* the output gate reads the old hidden state: into `input` */
    te_lstm_gate(p, TE_LSTM_OUTPUT, x, h, xw, hw, rows, input);
    te_tanh_s16(c, forget, n, p->cell_tanh_mult, p->cell_tanh_shift);
    for (i = 0; i < n; i++)
        h[i] = (int8_t)te_lstm_mul_s16(forget[i], input[i], p->hidden_mult, p->hidden_shift,
                                       p->hidden_zp, -128, 127);
    memcpy(out, h, (size_t)n);
}
/* te:end */

/* te:section te_lstm_s8 */
TE_KERNEL void te_lstm_s8(const te_lstm_s8_params *p, const int8_t *in, int8_t *hidden,
                          int16_t *cell, int8_t *out, void *scratch)
{
    const int32_t ni = p->n_input, ns = p->n_state;
    int32_t b, t;
    if (p->time_major) {
        for (t = 0; t < p->time; t++)
            te_lstm_step(p, in + t * p->batch * ni, hidden, cell, out + t * p->batch * ns,
                         p->batch, scratch);
        return;
    }
    for (b = 0; b < p->batch; b++)
        for (t = 0; t < p->time; t++)
            te_lstm_step(p, in + (b * p->time + t) * ni, hidden + b * ns, cell + b * ns,
                         out + (b * p->time + t) * ns, 1, scratch);
}
/* te:end */

/* ---- the 16x8 LSTM ---------------------------------------------------------- */

/* te:section te_lstm_dot_s16 */
/* sum of w[j] * x[j] for j < n, in int64 */
static inline TE_UNUSED int64_t te_lstm_dot_s16(const int8_t *w, const int16_t *x, int32_t n)
{
    int64_t acc = 0;
    int32_t j;
    for (j = 0; j < n; j++)
        acc += (int32_t)w[j] * x[j];
    return acc;
}
/* te:end */

/* te:section te_lstm_gate_s16 */
/* One gate for `rows` rows of input x [rows][n_input] and hidden state h
 * [rows][n_state]: both products requantized to Q3.12 (each clamped to
 * int16), added with saturation, then the gate's activation, into g. */
static TE_UNUSED void te_lstm_gate_s16(const te_lstm_s16_params *p, int k, const int16_t *x,
                                       const int16_t *h, int32_t rows, int16_t *g)
{
    const int32_t ni = p->n_input, ns = p->n_state;
    const int32_t pi = TE_LSTM_PAD4(ni), ps = TE_LSTM_PAD4(ns);
    int32_t b, r;
    for (b = 0; b < rows; b++)
        for (r = 0; r < ns; r++) {
            int64_t a = te_lstm_dot_s16(p->w_in[k] + r * pi, x + b * ni, ni);
            int64_t c = te_lstm_dot_s16(p->w_rec[k] + r * ps, h + b * ns, ns);
            int32_t qa, qc;
            if (p->bias[k])
                a += p->bias[k][r];
            qa = te_clamp_i32(te_mul_by_quant_mult_i64(a, p->in_mult[k], p->in_shift[k]),
                              -32768, 32767);
            qc = te_clamp_i32(te_mul_by_quant_mult_i64(c, p->rec_mult[k], p->rec_shift[k]),
                              -32768, 32767);
            g[b * ns + r] = (int16_t)te_clamp_i32(qa + qc, -32768, 32767);
        }
    if (k == TE_LSTM_CELL)
        te_tanh_s16(g, g, rows * ns, 3, 0);
    else
        te_sigmoid_s16(g, g, rows * ns, 3, 0);
}
/* te:end */

/* te:section te_lstm_step_s16 */
/* te_lstm_step for the 16x8 LSTM; scratch: three gates. */
static TE_UNUSED void te_lstm_step_s16(const te_lstm_s16_params *p, const int16_t *x, int16_t *h,
                                       int16_t *c, int16_t *out, int32_t rows, void *scratch)
{
    const int32_t n = rows * p->n_state;
    int16_t *forget = (int16_t *)scratch, *input = forget + n, *cg = input + n;
    int32_t i;
    te_lstm_gate_s16(p, TE_LSTM_FORGET, x, h, rows, forget);
    te_lstm_gate_s16(p, TE_LSTM_INPUT, x, h, rows, input);
    te_lstm_gate_s16(p, TE_LSTM_CELL, x, h, rows, cg);
    te_lstm_cell_update(p->forget_mult, p->forget_shift, p->input_mult, p->input_shift,
                        p->cell_clip, forget, input, cg, c, n);
    /* the output gate reads the old hidden state: into `input` */
    te_lstm_gate_s16(p, TE_LSTM_OUTPUT, x, h, rows, input);
    te_tanh_s16(c, forget, n, p->cell_tanh_mult, p->cell_tanh_shift);
    for (i = 0; i < n; i++)
        h[i] = (int16_t)te_lstm_mul_s16(forget[i], input[i], p->hidden_mult, p->hidden_shift, 0,
                                        -32768, 32767);
    memcpy(out, h, sizeof(int16_t) * (size_t)n);
}
/* te:end */

/* te:section te_lstm_s16 */
TE_KERNEL void te_lstm_s16(const te_lstm_s16_params *p, const int16_t *in, int16_t *hidden,
                           int16_t *cell, int16_t *out, void *scratch)
{
    const int32_t ni = p->n_input, ns = p->n_state;
    int32_t b, t;
    if (p->time_major) {
        for (t = 0; t < p->time; t++)
            te_lstm_step_s16(p, in + t * p->batch * ni, hidden, cell, out + t * p->batch * ns,
                             p->batch, scratch);
        return;
    }
    for (b = 0; b < p->batch; b++)
        for (t = 0; t < p->time; t++)
            te_lstm_step_s16(p, in + (b * p->time + t) * ni, hidden + b * ns, cell + b * ns,
                             out + (b * p->time + t) * ns, 1, scratch);
}
/* te:end */
