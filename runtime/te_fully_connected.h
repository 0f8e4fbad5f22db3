/* te_fully_connected.h - FULLY_CONNECTED int8 kernels, bit-exact with
 * TFLite Micro's reference FullyConnected / FullyConnectedPerChannel
 * (the per-tensor case is the per-channel one with equal multipliers).
 *
 * te_fully_connected_s8: the plain kernel (any weights, runtime offset);
 * te_fully_connected_s8_wz the same with per-tensor weights of a non-zero
 * zero point (activations as weights, QAT layers), which TFLite Micro's
 * per-tensor FullyConnected subtracts.
 * The fast kernels take constant weights prepared by the compiler
 * (src/ops/fc_layout.c): the input offset folded into the bias,
 *   bias'[u] = bias[u] - input_zp * sum_k w[u][k]   (modulo 2^32),
 * which is exact because the int32 accumulator wraps modulo 2^32 too.
 *  - te_fully_connected_s8_fast: weights [units, depth] as in the model;
 *  - te_fully_connected_s8_dsp (TE_TARGET_DSP): weights packed for SMLAD,
 *    two rows per 16-bit lane (see te_fully_connected.c). */
#ifndef TE_FULLY_CONNECTED_H
#define TE_FULLY_CONNECTED_H

#include <stdint.h>

typedef struct {
    int batches;               /* input viewed as [batches, depth] */
    int depth;                 /* accumulation depth (weights' last dim) */
    int units;                 /* output [batches, units], weights [units, depth] */
    int32_t input_offset;      /* -input zero point */
    int32_t output_offset;     /* output zero point */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
    int per_channel;           /* fast kernels: 0 = mult[0], shift[0] for every unit */
} te_fully_connected_params;

/* te:section te_fully_connected_s8 */
/* mult/shift/bias: one entry per unit; bias may be NULL. */
TE_KERNEL void te_fully_connected_s8(const te_fully_connected_params *p, const int8_t *input,
                                     const int8_t *weights, const int32_t *bias,
                                     const int32_t *mult, const int32_t *shift, int8_t *output);
/* te:end */

/* te:section te_fully_connected_s8_wz */
/* weights_offset: minus the weights' zero point. */
TE_KERNEL void te_fully_connected_s8_wz(const te_fully_connected_params *p,
                                        int32_t weights_offset, const int8_t *input,
                                        const int8_t *weights, const int32_t *bias,
                                        const int32_t *mult, const int32_t *shift,
                                        int8_t *output);
/* te:end */

/* te:section te_fully_connected_s8_fast */
/* Fast kernels: p->input_offset is ignored (it is in `bias`, never NULL);
 * with p->per_channel == 0 every unit has mult[0] and shift[0]; mult is
 * QuantizeMultiplier's ([2^30, 2^31) or 0). */
TE_KERNEL void te_fully_connected_s8_fast(const te_fully_connected_params *p,
                                          const int8_t *input, const int8_t *weights,
                                          const int32_t *bias, const int32_t *mult,
                                          const int32_t *shift, int8_t *output);
/* te:end */
/* te:section te_fully_connected_s8_rows4 */
/* The two loop shapes _fast chooses between: 4 rows sharing each input
 * byte (scalar cores) or one row in blocks of 16 bytes (vector units). */
TE_KERNEL void te_fully_connected_s8_rows4(const te_fully_connected_params *p,
                                           const int8_t *input, const int8_t *weights,
                                           const int32_t *bias, const int32_t *mult,
                                           const int32_t *shift, int8_t *output);
/* te:end */
/* te:section te_fully_connected_s8_lanes */
TE_KERNEL void te_fully_connected_s8_lanes(const te_fully_connected_params *p,
                                           const int8_t *input, const int8_t *weights,
                                           const int32_t *bias, const int32_t *mult,
                                           const int32_t *shift, int8_t *output);
/* te:end */

#if defined(TE_TARGET_DSP)
/* Rows in blocks of 8 (units padded with zero rows), input in groups of 4
 * bytes (the last group padded with zeros); `packed` holds for each block,
 * each group, each half h (bytes h and h+2 of the group) and each pair of
 * rows (2p, 2p+1) one word of two 16-bit lanes w[2p][k] + 256 * w[2p+1][k]
 * for k = 4g+h (low lane) and 4g+h+2 (high lane), each lane in int16
 * range.  bias has an entry for every row of every block (0 past units). */
#define TE_FULLY_CONNECTED_DSP_ROWS 8
/* te:section te_fully_connected_s8_dsp */
TE_KERNEL void te_fully_connected_s8_dsp(const te_fully_connected_params *p,
                                         const int8_t *input, const int32_t *packed,
                                         const int32_t *bias, const int32_t *mult,
                                         const int32_t *shift, int8_t *output);
/* te:end */
#endif

#endif
