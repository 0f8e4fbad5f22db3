/* te_lstm.h - UNIDIRECTIONAL_SEQUENCE_LSTM with int8 activations and
 * weights, int16 cell state and int32 biases (and its 16x8 form below),
 * bit-exact with TFLite Micro's integer LSTM (lstm_eval.h): per step and
 * gate, two fully connected products (input, recurrent) each requantized
 * to int16 in Q3.12 and added with saturation, the int16 sigmoid (tanh for
 * the cell gate); then cell = forget * cell + input * cell_gate (int16
 * multiplies, saturating add, optional clip) and hidden = tanh(cell) *
 * output (int8), copied to the output. */
#ifndef TE_LSTM_H
#define TE_LSTM_H

#include <stdint.h>

/* Gate order in the parameter arrays: TFLM's order of evaluation. */
enum { TE_LSTM_FORGET = 0, TE_LSTM_INPUT = 1, TE_LSTM_CELL = 2, TE_LSTM_OUTPUT = 3 };

typedef struct {
    int32_t batch, time, n_input, n_state;
    int32_t time_major;              /* 1: input [time][batch][n_input] */
    /* per gate, input [n_state][n_input] and recurrent [n_state][n_state]
     * weights, rows padded with zeros to TE_LSTM_PAD4 columns; with
     * TE_TARGET_DSP int16 lanes, rows in pairs (src/ops/lstm_weights.h),
     * else int8 rows */
    const void *w_in[4];
    const void *w_rec[4];
    /* per gate [n_state]: the bias plus (minus the input zero point) x the
     * row sums of w_in; (minus the hidden state zero point) x those of w_rec */
    const int32_t *bias_in[4], *bias_rec[4];
    int32_t in_mult[4], in_shift[4];   /* input product -> Q3.12 */
    int32_t rec_mult[4], rec_shift[4]; /* recurrent product -> Q3.12 */
    int32_t forget_mult, forget_shift; /* forget (Q0.15) x cell -> cell */
    int32_t input_mult, input_shift;   /* input (Q0.15) x cell gate (Q0.15) -> cell */
    int32_t hidden_mult, hidden_shift, hidden_zp; /* tanh x output -> hidden (int8) */
    int32_t cell_clip;               /* |cell| bound, -1: none */
    int32_t cell_tanh_mult, cell_tanh_shift; /* te_tanh_s16's rescaling of the cell */
} te_lstm_s8_params;

#define TE_LSTM_PAD4(n) (((n) + 3) & ~3)

/* Bytes of scratch te_lstm_s8 needs: per row of a step (the batch when time
 * major, else 1) the input and hidden state widened to int16 pairs, and
 * three int16 gates. */
#define te_lstm_s8_get_buffer_size(time_major, batch, n_input, n_state) \
    ((long)((time_major) ? (batch) : 1) *                                \
     (2 * (TE_LSTM_PAD4(n_input) + TE_LSTM_PAD4(n_state)) + 3 * 2 * (n_state)))

/* The 16x8 LSTM (int16 input, output and hidden state, zero points 0;
 * int8 weights, int64 biases, int16 cell state): the same steps, each
 * product summed in int64 and requantized with TFLite's int64
 * MultiplyByQuantizedMultiplier (TFLite Micro's EvalLstm<int16_t, int8_t,
 * int16_t, int64_t>). */
typedef struct {
    int32_t batch, time, n_input, n_state;
    int32_t time_major;              /* 1: input [time][batch][n_input] */
    /* per gate, input [n_state][n_input] and recurrent [n_state][n_state]
     * int8 weights, rows padded with zeros to TE_LSTM_PAD4 columns */
    const int8_t *w_in[4];
    const int8_t *w_rec[4];
    const int64_t *bias[4];          /* per gate [n_state], or NULL */
    int32_t in_mult[4], in_shift[4];   /* input product -> Q3.12 */
    int32_t rec_mult[4], rec_shift[4]; /* recurrent product -> Q3.12 */
    int32_t forget_mult, forget_shift; /* forget (Q0.15) x cell -> cell */
    int32_t input_mult, input_shift;   /* input (Q0.15) x cell gate (Q0.15) -> cell */
    int32_t hidden_mult, hidden_shift; /* tanh x output -> hidden (int16) */
    int32_t cell_clip;               /* |cell| bound, -1: none */
    int32_t cell_tanh_mult, cell_tanh_shift; /* te_tanh_s16's rescaling of the cell */
} te_lstm_s16_params;

/* Bytes of scratch te_lstm_s16 needs: three int16 gates per row of a step. */
#define te_lstm_s16_get_buffer_size(time_major, batch, n_state) \
    ((long)((time_major) ? (batch) : 1) * 3 * 2 * (n_state))

/* te:section te_lstm_s8 */
/* Runs every time step.  hidden [batch][n_state] int8 and cell
 * [batch][n_state] int16 are the state, read and updated; out [batch x
 * time][n_state] in the input's order; scratch: te_lstm_s8_get_buffer_size
 * bytes, 4-byte aligned. */
TE_KERNEL void te_lstm_s8(const te_lstm_s8_params *p, const int8_t *in, int8_t *hidden,
                          int16_t *cell, int8_t *out, void *scratch);
/* te:end */

/* te:section te_lstm_s16 */
/* te_lstm_s8's contract with int16 input, hidden state and output;
 * scratch: te_lstm_s16_get_buffer_size bytes, 2-byte aligned. */
TE_KERNEL void te_lstm_s16(const te_lstm_s16_params *p, const int16_t *in, int16_t *hidden,
                           int16_t *cell, int16_t *out, void *scratch);
/* te:end */

#endif
