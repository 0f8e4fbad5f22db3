/* te_activation_s16.h - int16 LOGISTIC and TANH (zero point 0), the
 * arithmetic of TFLite Micro's reference integer kernels: the input
 * rescaled to 1/(3*4096) steps, then a 256-entry sigmoid table with linear
 * interpolation (tanh(x) = 2 sigmoid(2x) - 1).  UNIDIRECTIONAL_SEQUENCE_LSTM
 * calls the same functions on its gates. */
#ifndef TE_ACTIVATION_S16_H
#define TE_ACTIVATION_S16_H

#include <stdint.h>

/* out[i] = sigmoid(in[i]) in Q0.15, for i < n.  The input is first taken
 * to (in[i] * mult + 2^(shift-1)) >> shift (mult > 0, 0 <= shift <= 31,
 * mult <= 32767: the compiler resolves TFLM's power-of-two form).  in and
 * out may be the same buffer. */
TE_KERNEL void te_sigmoid_s16(const int16_t *in, int16_t *out, int32_t n, int32_t mult,
                              int32_t shift);

/* out[i] = tanh(in[i]) in Q0.15, with the same input rescaling. */
TE_KERNEL void te_tanh_s16(const int16_t *in, int16_t *out, int32_t n, int32_t mult,
                           int32_t shift);

#endif
