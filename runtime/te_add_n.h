/* te_add_n.h - ADD_N: the elementwise sum of n same-shaped tensors, as
 * TFLite Micro's reference AddN.  float32: a plain running sum from 0.
 * int8 (all inputs share one scale and zero point): ADD's arithmetic, each
 * input shifted left by left_shift and halved by in_mult / in_shift, the sum
 * starting from the scaled input offset (TFLM's accumulator starts there,
 * not at 0), rescaled to the output and clamped; the int32 sum wraps as
 * two's complement. */
#ifndef TE_ADD_N_H
#define TE_ADD_N_H

#include <stdint.h>

typedef struct {
    int n_inputs;           /* >= 2 */
    int size;               /* elements of each input and of the output */
    int32_t in_offset;      /* int8: minus the inputs' zero point */
    int left_shift;         /* int8: 20 */
    int32_t in_mult;
    int in_shift;           /* <= 0 (QuantizeMultiplierSmallerThanOneExp) */
    int32_t out_mult;
    int out_shift;          /* <= 0 */
    int32_t out_offset;     /* output zero point */
    int32_t act_min, act_max;
} te_add_n_params;

/* te:section te_add_n_s8 */
TE_KERNEL void te_add_n_s8(const te_add_n_params *p, const int8_t *const *in, int8_t *out);
/* te:end */
/* te:section te_add_n_f32 */
TE_KERNEL void te_add_n_f32(const te_add_n_params *p, const float *const *in, float *out);
/* te:end */

#endif
