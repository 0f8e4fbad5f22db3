/* te_batch_matmul.c - BATCH_MATMUL int8 kernel (see te_batch_matmul.h). */
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

TE_KERNEL void te_batch_matmul_s8(const te_batch_matmul_params *p, const int8_t *lhs,
                                  const int8_t *rhs, int8_t *out)
{
    int32_t b0, b1, b2;
    long matrix = (long)p->rows * p->cols;
    for (b0 = 0; b0 < p->batch[0]; b0++)
        for (b1 = 0; b1 < p->batch[1]; b1++)
            for (b2 = 0; b2 < p->batch[2]; b2++) {
                long lo = (long)b0 * p->lhs_batch_stride[0] + (long)b1 * p->lhs_batch_stride[1] +
                          (long)b2 * p->lhs_batch_stride[2];
                long ro = (long)b0 * p->rhs_batch_stride[0] + (long)b1 * p->rhs_batch_stride[1] +
                          (long)b2 * p->rhs_batch_stride[2];
                te_batch_matmul_one(p, lhs + lo, rhs + ro, out);
                out += matrix;
            }
}
