/* te_svdf.h - SVDF kernels (TFLite builtin 27), bit-exact with TFLite
 * Micro's EvalIntegerSvdfReference (svdf_common.cc).  Per invoke and batch:
 *  1. the activation state [batch, filters, memory] shifts one step left
 *     (the whole buffer, as TFLite Micro does: each filter's newest slot is
 *     then overwritten);
 *  2. feature: for each filter, the int32 dot of weights_feature[f] with
 *     (input - input_zp), requantized to the state's scale, plus the state
 *     zero point, clamped to the state type, stored in slot memory-1;
 *  3. time: for each filter, the int32 dot of weights_time[f] with
 *     (state[f] - state_zp); the rank consecutive filters of a unit are
 *     summed onto the bias (or 0), requantized to the output scale, plus the
 *     output zero point, clamped to int8.  TFLite Micro's integer SVDF
 *     applies no fused activation (only the int8 clamp).
 * int32 sums wrap modulo 2^32 (as the reference's int32 arithmetic does on
 * every target), so summing a unit's filters straight onto its bias needs
 * none of the reference's scratch buffers.
 * The state type is the time weights' type: int16 (_s16) or int8 (_s8). */
#ifndef TE_SVDF_H
#define TE_SVDF_H

#include <stdint.h>

typedef struct {
    int batches;              /* input [batches, input_size] */
    int input_size;
    int filters;              /* weights_feature [filters, input_size] */
    int rank;                 /* filters per unit: output [batches, filters / rank] */
    int memory;               /* weights_time [filters, memory] */
    int32_t input_offset;     /* -input zero point */
    int32_t feature_mult;     /* input x weights_feature / state scale */
    int feature_shift;        /* TFLite form: > 0 is a left shift */
    int32_t state_zp;         /* activation state zero point */
    int32_t output_mult;      /* state x weights_time / output scale */
    int output_shift;
    int32_t output_zp;
} te_svdf_params;

/* te:section te_svdf_s8_s16 */
/* bias: [filters / rank] or NULL; state: [batches, filters * memory],
 * read and written (a variable tensor that persists across invokes). */
TE_KERNEL void te_svdf_s8_s16(const te_svdf_params *p, const int8_t *input,
                              const int8_t *weights_feature, const int16_t *weights_time,
                              const int32_t *bias, int16_t *state, int8_t *output);
/* te:end */
/* te:section te_svdf_s8_s8 */
TE_KERNEL void te_svdf_s8_s8(const te_svdf_params *p, const int8_t *input,
                             const int8_t *weights_feature, const int8_t *weights_time,
                             const int32_t *bias, int8_t *state, int8_t *output);
/* te:end */

#if defined(TE_TARGET_DSP)
/* Armv7E-M DSP kernels for constant weights: SXTB16 and SMLAD on 4 int8
 * at a time (on int16 pairs for an int16 state), the model's weights as they are, and the zero
 * points folded by the compiler (src/ops/op_svdf.c) into
 *  - feature_bias[f] = input_offset * sum_c weights_feature[f][c];
 *  - unit_bias[u] = bias[u] - state_zp * (sum of the unit's time weights);
 * modulo 2^32, so the dots need no offsets.  The state shift is done row by
 * row while the time dot reads the row (each filter's newest slot is
 * overwritten anyway).  p->input_offset is not read. */
/* te:section te_svdf_s8_s8_dsp */
TE_KERNEL void te_svdf_s8_s8_dsp(const te_svdf_params *p, const int8_t *input,
                                 const int8_t *weights_feature, const int32_t *feature_bias,
                                 const int8_t *weights_time, const int32_t *unit_bias,
                                 int8_t *state, int8_t *output);
/* te:end */
/* te:section te_svdf_s8_s16_dsp */
TE_KERNEL void te_svdf_s8_s16_dsp(const te_svdf_params *p, const int8_t *input,
                                  const int8_t *weights_feature, const int32_t *feature_bias,
                                  const int16_t *weights_time, const int32_t *unit_bias,
                                  int16_t *state, int8_t *output);
/* te:end */
#endif

#endif
