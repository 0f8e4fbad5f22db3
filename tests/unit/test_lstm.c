/* test_lstm.c - te_lstm_s8 against a plain transcription of TFLite Micro's
 * integer LSTM step (lstm_eval.h): fully connected products with the zero
 * point applied to every input, each clamped to int16, added with
 * saturation; sigmoid / tanh; cell = forget x cell + input x cell gate;
 * hidden = tanh(cell) x output.  Random small LSTMs, time major and batch
 * major, with and without a cell clip, several steps from a random state.
 * test_lstm_dsp.c includes this file with TE_TARGET_DSP defined: the
 * widened-input SMLAD products on any host. */
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
    int batch, time, ni, ns, time_major;
    int8_t w_in[4][MAX_S * TE_LSTM_PAD4(MAX_I)], w_rec[4][MAX_S * TE_LSTM_PAD4(MAX_S)];
    int32_t bias[4][MAX_S];
    int32_t x_zp, h_zp;
    /* the kernel's layout on this target (lstm_weights.h) */
    int8_t k_in[4][MAX_S * TE_LSTM_PAD4(MAX_I)], k_rec[4][MAX_S * TE_LSTM_PAD4(MAX_S)];
    int16_t d_in[4][(MAX_S + 1) * TE_LSTM_PAD4(MAX_I)], d_rec[4][(MAX_S + 1) * TE_LSTM_PAD4(MAX_S)];
} lstm_case;

/* The weights of gate k in te_lstm_s8's layout for the target. */
static void kernel_weights(lstm_case *c, te_lstm_s8_params *p, int k)
{
    int8_t plain_in[MAX_S * MAX_I], plain_rec[MAX_S * MAX_S];
    int r, j;
    for (r = 0; r < c->ns; r++) {
        for (j = 0; j < c->ni; j++)
            plain_in[r * c->ni + j] = c->w_in[k][r * TE_LSTM_PAD4(c->ni) + j];
        for (j = 0; j < c->ns; j++)
            plain_rec[r * c->ns + j] = c->w_rec[k][r * TE_LSTM_PAD4(c->ns) + j];
    }
#if defined(TE_TARGET_DSP)
    te_lstm_dsp_weights(plain_in, c->ns, c->ni, c->d_in[k]);
    te_lstm_dsp_weights(plain_rec, c->ns, c->ns, c->d_rec[k]);
    p->w_in[k] = c->d_in[k];
    p->w_rec[k] = c->d_rec[k];
#else
    te_lstm_pad_weights(plain_in, c->ns, c->ni, c->k_in[k]);
    te_lstm_pad_weights(plain_rec, c->ns, c->ns, c->k_rec[k]);
    p->w_in[k] = c->k_in[k];
    p->w_rec[k] = c->k_rec[k];
#endif
}

static int32_t clamp16(int32_t v) { return te_clamp_i32(v, -32768, 32767); }

/* TFLM FullyConnected int8 -> int16: sum of w * (x + offset), plus bias
 * (w: rows of TE_LSTM_PAD4(n)). */
static void ref_fc(const int8_t *x, int32_t offset, const int8_t *w, const int32_t *bias, int n,
                   int rows, int32_t m, int32_t s, int16_t *out)
{
    int r, j;
    for (r = 0; r < rows; r++) {
        int32_t acc = 0;
        for (j = 0; j < n; j++)
            acc += w[r * TE_LSTM_PAD4(n) + j] * (x[j] + offset);
        if (bias)
            acc += bias[r];
        out[r] = (int16_t)clamp16(te_mul_by_quant_mult(acc, m, s));
    }
}

/* One step for one row of the batch. */
static void ref_step(const lstm_case *c, const te_lstm_s8_params *p, const int8_t *x, int8_t *h,
                     int16_t *cell)
{
    int16_t gate[4][MAX_S], a[MAX_S], b[MAX_S], th[MAX_S];
    int k, i, ns = c->ns;
    for (k = 0; k < 4; k++) {
        ref_fc(x, -c->x_zp, c->w_in[k], c->bias[k], c->ni, ns, p->in_mult[k], p->in_shift[k], a);
        ref_fc(h, -c->h_zp, c->w_rec[k], NULL, ns, ns, p->rec_mult[k], p->rec_shift[k], b);
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
            v = te_clamp_i32(v, -p->cell_clip, p->cell_clip);
        cell[i] = (int16_t)v;
    }
    te_tanh_s16(cell, th, ns, p->cell_tanh_mult, p->cell_tanh_shift);
    for (i = 0; i < ns; i++)
        h[i] = (int8_t)te_clamp_i32(p->hidden_zp + te_mul_by_quant_mult(th[i] *
                                                                        gate[TE_LSTM_OUTPUT][i],
                                                                        p->hidden_mult,
                                                                        p->hidden_shift),
                                    -128, 127);
}

static void make_case(lstm_case *c, te_lstm_s8_params *p, int32_t eff_in[4][MAX_S],
                      int32_t eff_rec[4][MAX_S])
{
    int k, r, j;
    memset(p, 0, sizeof *p);
    memset(c, 0, sizeof *c); /* the weight rows' padding */
    c->batch = test_rand_range(1, MAX_B);
    c->time = test_rand_range(1, MAX_T);
    c->ni = test_rand_range(1, MAX_I);
    c->ns = test_rand_range(1, MAX_S);
    c->time_major = test_rand_range(0, 1);
    c->x_zp = test_rand_range(-128, 127);
    c->h_zp = test_rand_range(-10, 10);
    for (k = 0; k < 4; k++) {
        for (r = 0; r < c->ns; r++) {
            int32_t sum_in = 0, sum_rec = 0;
            c->bias[k][r] = test_rand_range(-20000, 20000);
            for (j = 0; j < c->ni; j++)
                sum_in += c->w_in[k][r * TE_LSTM_PAD4(c->ni) + j] = (int8_t)test_rand_range(-127, 127);
            for (j = 0; j < c->ns; j++)
                sum_rec += c->w_rec[k][r * TE_LSTM_PAD4(c->ns) + j] = (int8_t)test_rand_range(-127, 127);
            eff_in[k][r] = c->bias[k][r] - c->x_zp * sum_in;
            eff_rec[k][r] = -c->h_zp * sum_rec;
        }
        kernel_weights(c, p, k);
        p->bias_in[k] = eff_in[k];
        p->bias_rec[k] = eff_rec[k];
        p->in_mult[k] = test_rand_range(1 << 30, 0x7fffffff);
        p->in_shift[k] = test_rand_range(-6, 2);
        p->rec_mult[k] = test_rand_range(1 << 30, 0x7fffffff);
        p->rec_shift[k] = test_rand_range(-6, 2);
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
    p->hidden_shift = test_rand_range(-24, -20);
    p->hidden_zp = c->h_zp;
    p->cell_clip = test_rand_range(0, 1) ? -1 : test_rand_range(0, 20000);
    p->cell_tanh_mult = 6; /* cell scale 2^-11 */
    p->cell_tanh_shift = 0;
}

static int run_case(void)
{
    static lstm_case c;
    te_lstm_s8_params p;
    int32_t eff_in[4][MAX_S], eff_rec[4][MAX_S];
    int8_t x[MAX_B * MAX_T * MAX_I], h[MAX_B * MAX_S], h_ref[MAX_B * MAX_S];
    int8_t out[MAX_B * MAX_T * MAX_S + 1], out_ref[MAX_B * MAX_T * MAX_S];
    int16_t cell[MAX_B * MAX_S], cell_ref[MAX_B * MAX_S];
    uint32_t scratch[(te_lstm_s8_get_buffer_size(1, MAX_B, MAX_I, MAX_S) + 3) / 4];
    int i, b, t, n_x, n_state;
    make_case(&c, &p, eff_in, eff_rec);
    n_x = c.batch * c.time * c.ni;
    n_state = c.batch * c.ns;
    for (i = 0; i < n_x; i++)
        x[i] = (int8_t)test_rand_range(-128, 127);
    for (i = 0; i < n_state; i++) {
        h[i] = h_ref[i] = (int8_t)test_rand_range(-128, 127);
        cell[i] = cell_ref[i] = (int16_t)test_rand_range(-32768, 32767);
    }
    out[c.batch * c.time * c.ns] = 99;
    te_lstm_s8(&p, x, h, cell, out, scratch);
    for (t = 0; t < c.time; t++)
        for (b = 0; b < c.batch; b++) {
            int row = c.time_major ? t * c.batch + b : b * c.time + t;
            ref_step(&c, &p, x + row * c.ni, h_ref + b * c.ns, cell_ref + b * c.ns);
            memcpy(out_ref + row * c.ns, h_ref + b * c.ns, (size_t)c.ns);
        }
    return memcmp(out, out_ref, (size_t)(c.batch * c.time * c.ns)) == 0 &&
           memcmp(h, h_ref, (size_t)n_state) == 0 &&
           memcmp(cell, cell_ref, sizeof(int16_t) * (size_t)n_state) == 0 &&
           out[c.batch * c.time * c.ns] == 99;
}

#if defined(TE_TARGET_DSP)
/* Long rows of extreme values: the 127-group partial sums of te_lstm_dot2
 * keep sum b x exact. */
static void check_long_dot(void)
{
    enum { N = 1100, P = TE_LSTM_PAD4(N) };
    static int8_t w[2 * N], x[N];
    static int16_t v[P];
    static uint32_t xw[P / 2];
    int32_t s0 = 0, s1 = 0, a0 = 5, a1 = -7;
    int j;
    for (j = 0; j < N; j++) {
        w[j] = (int8_t)(test_rand_range(0, 1) ? 127 : -127);
        w[N + j] = (int8_t)(j & 1 ? -127 : 127);
        x[j] = (int8_t)(j & 1 ? -128 : 127);
        s0 += w[j] * x[j];
        s1 += w[N + j] * x[j];
    }
    te_lstm_dsp_weights(w, 2, N, v);
    te_lstm_widen(x, N, xw);
    te_lstm_dot2(v, xw, P / 4, &a0, &a1);
    CHECK(a0 == 5 + s0 && a1 == -7 + s1);
}
#endif

int main(void)
{
    int i, bad = 0;
    test_seed(14);
    for (i = 0; i < 500; i++)
        bad += !run_case();
    CHECK(bad == 0);
#if defined(TE_TARGET_DSP)
    check_long_dot();
#endif
    return test_summary();
}
