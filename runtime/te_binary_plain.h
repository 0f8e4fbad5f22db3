/* te_binary_plain.h - unquantized int32 and float32 binary element-wise
 * kernels, bit-exact with TFLite Micro's reference kernels for those types:
 * ADD, SUB and MUL (Add / SubWithActivation / Mul and their broadcasting
 * forms: the result clamped to the fused activation's range, int32
 * wrapping), MINIMUM and MAXIMUM (el1 < el2 ? el1 : el2 and its mirror) and
 * SQUARED_DIFFERENCE ((x - y) * (x - y)), neither clamped.  Such ops carry
 * shape arithmetic (SHAPE -> MUL -> RESHAPE in exports with a dynamic batch)
 * and the float tails of int8 models.  Broadcasting walks the same 6D layout
 * as te_add_s8. */
#ifndef TE_BINARY_PLAIN_H
#define TE_BINARY_PLAIN_H

#include <stdint.h>

#define TE_BINARY_MAX_DIMS 6

/* te:section te_binary_op */
/* Which operation a te_binary_i32 / te_binary_f32 call computes. */
typedef enum {
    TE_BINARY_ADD,
    TE_BINARY_SUB,
    TE_BINARY_MUL,
    TE_BINARY_MIN,
    TE_BINARY_MAX,
    TE_BINARY_SQUARED_DIFFERENCE
} te_binary_op;
/* te:end */

/* te:section te_binary_plain_params */
typedef struct {
    int broadcast;                    /* 0: same shapes, one flat loop of `size` */
    int size;                         /* output elements */
    int dims[TE_BINARY_MAX_DIMS];     /* output shape, extended to 6D */
    int stride1[TE_BINARY_MAX_DIMS];  /* element stride of input 1 per output dim (0: broadcast) */
    int stride2[TE_BINARY_MAX_DIMS];  /* same for input 2 */
    int op;                           /* te_binary_op */
    int32_t act_min, act_max;         /* int32 ADD/SUB/MUL: the range results are clamped to */
    float f_min, f_max;               /* float32 ADD/SUB/MUL: the same */
} te_binary_plain_params;
/* te:end */

/* te:section te_binary_i32 */
TE_KERNEL void te_binary_i32(const te_binary_plain_params *p, const int32_t *in1,
                             const int32_t *in2, int32_t *out);
/* te:end */
/* te:section te_binary_f32 */
TE_KERNEL void te_binary_f32(const te_binary_plain_params *p, const float *in1, const float *in2,
                             float *out);
/* te:end */

#endif
