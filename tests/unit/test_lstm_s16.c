/* test_lstm_s16.c - te_lstm_s16 (the 16x8 LSTM) against a plain
 * transcription of TFLite Micro's EvalLstm<int16_t, int8_t, int16_t,
 * int64_t> step (lstm_eval.h): the int16 x int8 fully connected products
 * summed in int64 (no offsets: zero points 0), the bias on the input
 * product only, each requantized by TFLite's int64
 * MultiplyByQuantizedMultiplier (the multiplier rounded to 16 bits) and
 * clamped to int16, added with saturation; sigmoid / tanh; cell = forget x
 * cell + input x cell gate; hidden = tanh(cell) x output, clamped to int16.
 * The int64 requantization is written out here, not taken from the
 * runtime.  Random small LSTMs, time major and batch major, with and
 * without a cell clip, from a random state. */
#include <string.h>

#undef TE_KERNEL
#include "te_common.h" /* TE_KERNEL = static TE_UNUSED */
#include "te_activation_s16.c"
#include "te_lstm.c"
#include "testlib.h"
#include "../../src/ops/lstm_weights.h"

#define MAX_B 3
#define MAX_T 4
#define MAX_I 9
#define MAX_S 7

typedef struct {
    int batch, time, ni, ns, time_major, has_bias;
    int8_t w_in[4][MAX_S * TE_LSTM_PAD4(MAX_I)], w_rec[4][MAX_S * TE_LSTM_PAD4(MAX_S)];
    int64_t bias[4][MAX_S];
} lstm_case;

static int32_t clamp16(int32_t v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : v; }

/* TFLite's MultiplyByQuantizedMultiplier(int64_t x, ...). */
static int32_t ref_mbqm64(int64_t x, int32_t m, int shift)
{
    int64_t reduced = m < 0x7FFF0000 ? ((int64_t)m + (1 << 15)) >> 16 : 0x7FFF;
    int total = 15 - shift;
    return (int32_t)((x * reduced + ((int64_t)1 << (total - 1))) >> total);
}

/* reference_integer_ops::FullyConnected, int16 input, int8 weights, int64
 * bias, int16 output (w: rows of TE_LSTM_PAD4(n)). */
static void ref_fc(const int16_t *x, const int8_t *w, const int64_t *bias, int n, int rows,
                   int32_t m, int32_t s, int16_t *out)
{
    int r, j;
    for (r = 0; r < rows; r++) {
        int64_t acc = 0;
        for (j = 0; j < n; j++)
            acc += (int32_t)w[r * TE_LSTM_PAD4(n) + j] * x[j];
        if (bias)
            acc += bias[r];
        out[r] = (int16_t)clamp16(ref_mbqm64(acc, m, s));
    }
}

/* One step for one row of the batch. */
static void ref_step(const lstm_case *c, const te_lstm_s16_params *p, const int16_t *x,
                     int16_t *h, int16_t *cell)
{
    int16_t gate[4][MAX_S], a[MAX_S], b[MAX_S], th[MAX_S];
    int k, i, ns = c->ns;
    for (k = 0; k < 4; k++) {
        ref_fc(x, c->w_in[k], c->has_bias ? c->bias[k] : NULL, c->ni, ns, p->in_mult[k],
               p->in_shift[k], a);
        ref_fc(h, c->w_rec[k], NULL, ns, ns, p->rec_mult[k], p->rec_shift[k], b);
        for (i = 0; i < ns; i++)
            gate[k][i] = (int16_t)clamp16(a[i] + b[i]);
        if (k == TE_LSTM_CELL)
            te_tanh_s16(gate[k], gate[k], ns, 3, 0);
        else
            te_sigmoid_s16(gate[k], gate[k], ns, 3, 0);
    }
    for (i = 0; i < ns; i++) {
        int32_t f = clamp16(te_mul_by_quant_mult(gate[TE_LSTM_FORGET][i] * cell[i],
                                                 p->forget_mult, p->forget_shift));
        int32_t u = clamp16(te_mul_by_quant_mult(gate[TE_LSTM_INPUT][i] * gate[TE_LSTM_CELL][i],
                                                 p->input_mult, p->input_shift));
        int32_t v = clamp16(f + u);
        if (p->cell_clip >= 0)
            v = v < -p->cell_clip ? -p->cell_clip : v > p->cell_clip ? p->cell_clip : v;
        cell[i] = (int16_t)v;
    }
    te_tanh_s16(cell, th, ns, p->cell_tanh_mult, p->cell_tanh_shift);
    for (i = 0; i < ns; i++)
        h[i] = (int16_t)clamp16(te_mul_by_quant_mult(th[i] * gate[TE_LSTM_OUTPUT][i],
                                                     p->hidden_mult, p->hidden_shift));
}

static void make_case(lstm_case *c, te_lstm_s16_params *p)
{
    static int8_t k_in[4][MAX_S * TE_LSTM_PAD4(MAX_I)], k_rec[4][MAX_S * TE_LSTM_PAD4(MAX_S)];
    int k, r, j;
    memset(p, 0, sizeof *p);
    memset(c, 0, sizeof *c); /* the weight rows' padding */
    c->batch = test_rand_range(1, MAX_B);
    c->time = test_rand_range(1, MAX_T);
    c->ni = test_rand_range(1, MAX_I);
    c->ns = test_rand_range(1, MAX_S);
    c->time_major = test_rand_range(0, 1);
    c->has_bias = test_rand_range(0, 3) != 0;
    for (k = 0; k < 4; k++) {
        int8_t plain_in[MAX_S * MAX_I], plain_rec[MAX_S * MAX_S];
        for (r = 0; r < c->ns; r++) {
            c->bias[k][r] = test_rand_range(-2000000, 2000000);
            for (j = 0; j < c->ni; j++)
                plain_in[r * c->ni + j] = c->w_in[k][r * TE_LSTM_PAD4(c->ni) + j] =
                    (int8_t)test_rand_range(-127, 127);
            for (j = 0; j < c->ns; j++)
                plain_rec[r * c->ns + j] = c->w_rec[k][r * TE_LSTM_PAD4(c->ns) + j] =
                    (int8_t)test_rand_range(-127, 127);
        }
        te_lstm_pad_weights(plain_in, c->ns, c->ni, k_in[k]);
        te_lstm_pad_weights(plain_rec, c->ns, c->ns, k_rec[k]);
        p->w_in[k] = k_in[k];
        p->w_rec[k] = k_rec[k];
        p->bias[k] = c->has_bias ? c->bias[k] : NULL;
        p->in_mult[k] = test_rand_range(1 << 30, 0x7fffffff);
        p->in_shift[k] = test_rand_range(-14, -6);
        p->rec_mult[k] = test_rand_range(1 << 30, 0x7fffffff);
        p->rec_shift[k] = test_rand_range(-14, -6);
    }
    p->batch = c->batch;
    p->time = c->time;
    p->n_input = c->ni;
    p->n_state = c->ns;
    p->time_major = c->time_major;
    p->forget_mult = 1 << 30; /* 2^-15: cell scale in and out */
    p->forget_shift = -14;
    p->input_mult = 1 << 30;  /* 2^-30 / 2^-11 */
    p->input_shift = -18;
    p->hidden_mult = test_rand_range(1 << 30, 0x7fffffff);
    p->hidden_shift = test_rand_range(-16, -12);
    p->cell_clip = test_rand_range(0, 1) ? -1 : test_rand_range(0, 20000);
    p->cell_tanh_mult = 6; /* cell scale 2^-11 */
    p->cell_tanh_shift = 0;
}

static int run_case(void)
{
    static lstm_case c;
    te_lstm_s16_params p;
    int16_t x[MAX_B * MAX_T * MAX_I], h[MAX_B * MAX_S], h_ref[MAX_B * MAX_S];
    int16_t out[MAX_B * MAX_T * MAX_S + 1], out_ref[MAX_B * MAX_T * MAX_S];
    int16_t cell[MAX_B * MAX_S], cell_ref[MAX_B * MAX_S];
    int16_t scratch[te_lstm_s16_get_buffer_size(1, MAX_B, MAX_S) / 2];
    int i, b, t, n_x, n_state;
    make_case(&c, &p);
    n_x = c.batch * c.time * c.ni;
    n_state = c.batch * c.ns;
    for (i = 0; i < n_x; i++)
        x[i] = (int16_t)test_rand_range(-32768, 32767);
    for (i = 0; i < n_state; i++) {
        h[i] = h_ref[i] = (int16_t)test_rand_range(-32768, 32767);
        cell[i] = cell_ref[i] = (int16_t)test_rand_range(-32768, 32767);
    }
    out[c.batch * c.time * c.ns] = 99;
    te_lstm_s16(&p, x, h, cell, out, scratch);
    for (t = 0; t < c.time; t++)
        for (b = 0; b < c.batch; b++) {
            int row = c.time_major ? t * c.batch + b : b * c.time + t;
            ref_step(&c, &p, x + row * c.ni, h_ref + b * c.ns, cell_ref + b * c.ns);
            memcpy(out_ref + row * c.ns, h_ref + b * c.ns, sizeof(int16_t) * (size_t)c.ns);
        }
    return memcmp(out, out_ref, sizeof(int16_t) * (size_t)(c.batch * c.time * c.ns)) == 0 &&
           memcmp(h, h_ref, sizeof(int16_t) * (size_t)n_state) == 0 &&
           memcmp(cell, cell_ref, sizeof(int16_t) * (size_t)n_state) == 0 &&
           out[c.batch * c.time * c.ns] == 99;
}

int main(void)
{
    int i, bad = 0;
    test_seed(16);
    for (i = 0; i < 500; i++)
        bad += !run_case();
    CHECK(bad == 0);
    return test_summary();
}
