/* lstm_weights.h - the layouts te_lstm_s8 reads an LSTM's int8 weight
 * matrices [rows][cols] in (runtime/te_lstm.h). */
#ifndef TE_OPS_LSTM_WEIGHTS_H
#define TE_OPS_LSTM_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

/* int16 values of the DSP layout (rows taken in pairs, cols padded to 4). */
size_t te_lstm_dsp_weights_len(int rows, int cols);

/* Portable layout: each row padded with zeros to TE_LSTM_PAD4(cols) bytes. */
void te_lstm_pad_weights(const int8_t *w, int rows, int cols, int8_t *out);

/* Armv7E-M layout: rows r, r+1 (a zero row after an odd last one) as one
 * stream of int16 lanes a + 256 b, for each 4 columns j..j+3 the lanes of
 * columns (j, j+2) then (j+1, j+3), the order SXTB16 gives the inputs in:
 * one SMLAD of a lane pair gives a*x + 256 b*x, one of its SXTB16 a*x. */
void te_lstm_dsp_weights(const int8_t *w, int rows, int cols, int16_t *out);

#endif
