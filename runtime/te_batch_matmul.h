/* te_batch_matmul.h - BATCH_MATMUL int8 and int16 kernels, bit-exact with
 * TFLite Micro's reference BatchMatMul: for every broadcast batch and every
 * output element, the int32 sum over the shared dimension of (lhs - lhs_zp)
 * * (rhs - rhs_zp), requantized with the multiplier lhs_scale * rhs_scale /
 * output_scale, plus the output zero point, clamped to int8.  int16
 * (int16x8 models, zero points 0): the sum in int64, requantized by TFLite's
 * int64 MultiplyByQuantizedMultiplier (the multiplier rounded to 16 bits),
 * clamped to int16.
 *
 * The compiler describes both operands by strides, so one kernel covers
 * adj_x, adj_y, a constant right-hand side stored transposed and batch
 * broadcasting (stride 0 on a batch dimension of size 1). */
#ifndef TE_BATCH_MATMUL_H
#define TE_BATCH_MATMUL_H

#include <stdint.h>

typedef struct {
    int32_t batch[3];                    /* output batch dims (1 when absent) */
    int32_t lhs_batch_stride[3];         /* elements; 0 where lhs broadcasts */
    int32_t rhs_batch_stride[3];
    int32_t rows, cols, depth;           /* output [rows, cols], shared depth */
    int32_t lhs_row_stride, lhs_depth_stride;
    int32_t rhs_col_stride, rhs_depth_stride;
    int32_t lhs_offset, rhs_offset;      /* minus the zero points */
    int32_t mult;
    int shift;                           /* TFLite form: > 0 is a left shift */
    int32_t out_zp;
} te_batch_matmul_params;

/* Output [batch..., rows, cols], contiguous. */
TE_KERNEL void te_batch_matmul_s8(const te_batch_matmul_params *p, const int8_t *lhs,
                                  const int8_t *rhs, int8_t *out);
TE_KERNEL void te_batch_matmul_s16(const te_batch_matmul_params *p, const int16_t *lhs,
                                   const int16_t *rhs, int16_t *out);

#endif
