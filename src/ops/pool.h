/* pool.h - what AVERAGE_POOL_2D and MAX_POOL_2D share: the checks (int8 or int16,
 * NHWC, SAME/VALID, the output shape TFLite computes, equal quantization),
 * the te_pool kernel parameters and the emission of the kernel call. */
#ifndef TE_OPS_POOL_H
#define TE_OPS_POOL_H

/* Only the kernel parameter struct is used here: declare kernels extern. */
#ifndef TE_KERNEL
#define TE_KERNEL extern
#endif

#include "ops.h"
#include "te_common.h"
#include "te_pool.h"

/* Padding, stride and filter valid, output 0 of the shape TFLite computes
 * (4-D NHWC tensors): 0, else -1 (d set).  L2_POOL_2D shares it. */
int te_pool_check_geometry(const te_op *op, const te_tensor *in, const te_tensor *out,
                           te_diag *d);

/* te_op_def.check of both pooling ops. */
int te_pool_check(te_graph *g, const te_op *op, te_diag *d);
te_patch_kind te_pool_patch_kind(const te_graph *g, const te_op *op);

/* te_op_def.cost_features of both: the window elements of every output. */
void te_pool_cost_features(const te_graph *g, const te_op *op, te_cost_features *f);

/* The shape, stride, filter and padding fields of p (padding from
 * ComputePaddingHeightWidth); act_min / act_max untouched. */
void te_pool_make_geometry(const te_options *o, const te_tensor *in, const te_tensor *out,
                           te_pool_params *p);

/* Fills the kernel parameters as TFLite Micro's CalculateOpDataPooling and
 * PoolingPrepare (padding from ComputePaddingHeightWidth, activation range). */
void te_pool_make_params(const te_options *o, const te_tensor *in, const te_tensor *out,
                         te_pool_params *p);

/* The kernel of a max (is_max 1) or average pool: the output type picks
 * the int8 or the int16 one. */
te_kernel_id te_pool_kernel(const te_graph *g, const te_op *op, int is_max);

/* 1 when the pool kernels may write their output over their input (same
 * base): no output element is written before the windows still to be read
 * have passed it. */
int te_pool_inplace_safe(const te_pool_params *p);

/* te_op_def.inplace_input: 0 when te_pool_inplace_safe, else -1. */
int te_pool_inplace_input(const te_graph *g, const te_op *op);

/* Writes the parameters and `kernel(&p, input 0, output 0);`. */
int te_pool_emit(te_emit *e, const te_op *op, te_kernel_id kernel);

#endif
