/* te_batch_matmul.c - BATCH_MATMUL int8 and int16 kernels (see te_batch_matmul.h). */
#include "te_common.h"
#include "te_batch_matmul.h"

/* One [rows, cols] output matrix. */
static inline TE_UNUSED void te_batch_matmul_one(const te_batch_matmul_params *p,
                                                 const int8_t *lhs, const int8_t *rhs,
                                                 int8_t *out)
{
    int32_t i, j, k;
    for (i = 0; i < p->rows; i++) {
        const int8_t *l = lhs + (long)i * p->lhs_row_stride;
        for (j = 0; j < p->cols; j++) {
            const int8_t *r = rhs + (long)j * p->rhs_col_stride;
            int32_t acc = 0, v;
            for (k = 0; k < p->depth; k++)
                acc += (l[(long)k * p->lhs_depth_stride] + p->lhs_offset) *
                       (r[(long)k * p->rhs_depth_stride] + p->rhs_offset);
            v = te_mul_by_quant_mult(acc, p->mult, p->shift) + p->out_zp;
            *out++ = (int8_t)te_clamp_i32(v, -128, 127);
        }
    }
}

/* Element offset of batch (b0, b1, b2) in an operand with these strides. */
static inline TE_UNUSED long te_batch_matmul_at(const int32_t *stride, int32_t b0, int32_t b1,
                                                int32_t b2)
{
    return (long)b0 * stride[0] + (long)b1 * stride[1] + (long)b2 * stride[2];
}

TE_KERNEL void te_batch_matmul_s8(const te_batch_matmul_params *p, const int8_t *lhs,
                                  const int8_t *rhs, int8_t *out)
{
    int32_t b0, b1, b2;
    long matrix = (long)p->rows * p->cols;
    for (b0 = 0; b0 < p->batch[0]; b0++)
        for (b1 = 0; b1 < p->batch[1]; b1++)
            for (b2 = 0; b2 < p->batch[2]; b2++) {
                te_batch_matmul_one(p, lhs + te_batch_matmul_at(p->lhs_batch_stride, b0, b1, b2),
                                    rhs + te_batch_matmul_at(p->rhs_batch_stride, b0, b1, b2),
                                    out);
                out += matrix;
            }
}

/* One [rows, cols] output matrix of int16 operands (zero points 0). */
static inline TE_UNUSED void te_batch_matmul_one_s16(const te_batch_matmul_params *p,
                                                     const int16_t *lhs, const int16_t *rhs,
                                                     int16_t *out)
{
    int32_t i, j, k;
    for (i = 0; i < p->rows; i++) {
        const int16_t *l = lhs + (long)i * p->lhs_row_stride;
        for (j = 0; j < p->cols; j++) {
            const int16_t *r = rhs + (long)j * p->rhs_col_stride;
            int64_t acc = 0;
            for (k = 0; k < p->depth; k++)
                acc += (int32_t)l[(long)k * p->lhs_depth_stride] *
                       (int32_t)r[(long)k * p->rhs_depth_stride];
            *out++ = (int16_t)te_clamp_i32(te_mul_by_quant_mult_i64(acc, p->mult, p->shift),
                                           -32768, 32767);
        }
    }
}

TE_KERNEL void te_batch_matmul_s16(const te_batch_matmul_params *p, const int16_t *lhs,
                                   const int16_t *rhs, int16_t *out)
{
    int32_t b0, b1, b2;
    long matrix = (long)p->rows * p->cols;
    for (b0 = 0; b0 < p->batch[0]; b0++)
        for (b1 = 0; b1 < p->batch[1]; b1++)
            for (b2 = 0; b2 < p->batch[2]; b2++) {
                te_batch_matmul_one_s16(
                    p, lhs + te_batch_matmul_at(p->lhs_batch_stride, b0, b1, b2),
                    rhs + te_batch_matmul_at(p->rhs_batch_stride, b0, b1, b2), out);
                out += matrix;
            }
}
