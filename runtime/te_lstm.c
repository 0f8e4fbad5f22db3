/* te_lstm.c - the int8 LSTM sequence kernel (see te_lstm.h). */
#include <string.h>

#include "te_common.h"
#include "te_activation_s16.h"
#include "te_lstm.h"

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

/* te:section te_lstm_gate */
/* One gate for `rows` rows of input x [rows][n_input] and hidden state h
 * [rows][n_state]: both products requantized to int16, added with
 * saturation, then the gate's activation, into g [rows][n_state]. */
static TE_UNUSED void te_lstm_gate(const te_lstm_s8_params *p, int k, const int8_t *x,
                                   const int8_t *h, int32_t rows, int16_t *g)
{
    const int32_t ni = p->n_input, ns = p->n_state;
    int32_t b, r;
    for (b = 0; b < rows; b++) {
        const int8_t *xb = x + b * ni, *hb = h + b * ns;
        for (r = 0; r < ns; r++) {
            int32_t a = p->bias_in[k][r] + te_lstm_dot_s8(p->w_in[k] + r * ni, xb, ni);
            int32_t c = p->bias_rec[k][r] + te_lstm_dot_s8(p->w_rec[k] + r * ns, hb, ns);
            a = te_clamp_i32(te_mul_by_quant_mult(a, p->in_mult[k], p->in_shift[k]), -32768,
                             32767);
            c = te_clamp_i32(te_mul_by_quant_mult(c, p->rec_mult[k], p->rec_shift[k]), -32768,
                             32767);
            g[b * ns + r] = (int16_t)te_clamp_i32(a + c, -32768, 32767);
        }
    }
    if (k == TE_LSTM_CELL)
        te_tanh_s16(g, g, rows * ns, 3, 0);
    else
        te_sigmoid_s16(g, g, rows * ns, 3, 0);
}
/* te:end */

/* te:section te_lstm_mul_s16 */
/* TFLM MulElementwise of two int16 vectors: requantized product, clamped. */
static inline TE_UNUSED int32_t te_lstm_mul_s16(int32_t a, int32_t b, int32_t m, int32_t s,
                                                int32_t zp, int32_t lo, int32_t hi)
{
    return te_clamp_i32(zp + te_mul_by_quant_mult(a * b, m, s), lo, hi);
}
/* te:end */

/* te:section te_lstm_step */
/* One time step for `rows` rows (the whole batch when time major, else
 * one sequence): the gates, the cell update and the new hidden state,
 * copied to out. */
static TE_UNUSED void te_lstm_step(const te_lstm_s8_params *p, const int8_t *x, int8_t *h,
                                   int16_t *c, int8_t *out, int32_t rows, int16_t *scratch)
{
    const int32_t n = rows * p->n_state;
    int16_t *forget = scratch, *input = scratch + n, *cg = scratch + 2 * n;
    int32_t i;
    te_lstm_gate(p, TE_LSTM_FORGET, x, h, rows, forget);
    te_lstm_gate(p, TE_LSTM_INPUT, x, h, rows, input);
    te_lstm_gate(p, TE_LSTM_CELL, x, h, rows, cg);
    for (i = 0; i < n; i++) {
        int32_t f = te_lstm_mul_s16(forget[i], c[i], p->forget_mult, p->forget_shift, 0, -32768,
                                    32767);
        int32_t u = te_lstm_mul_s16(input[i], cg[i], p->input_mult, p->input_shift, 0, -32768,
                                    32767);
        int32_t v = te_clamp_i32(f + u, -32768, 32767);
        if (p->cell_clip >= 0)
            v = te_clamp_i32(v, -p->cell_clip, p->cell_clip);
        c[i] = (int16_t)v;
    }
    /* the output gate reads the old hidden state: into `input` */
    te_lstm_gate(p, TE_LSTM_OUTPUT, x, h, rows, input);
    te_tanh_s16(c, forget, n, p->cell_tanh_mult, p->cell_tanh_shift);
    for (i = 0; i < n; i++)
        h[i] = (int8_t)te_lstm_mul_s16(forget[i], input[i], p->hidden_mult, p->hidden_shift,
                                       p->hidden_zp, -128, 127);
    memcpy(out, h, (size_t)n);
}
/* te:end */

/* te:section te_lstm_s8 */
TE_KERNEL void te_lstm_s8(const te_lstm_s8_params *p, const int8_t *in, int8_t *hidden,
                          int16_t *cell, int8_t *out, int16_t *scratch)
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
