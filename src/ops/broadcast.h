/* broadcast.h - what the broadcasting int8 binary element-wise lowerings
 * (ADD, MUL) share: their input checks, the numpy-style broadcast layout
 * their kernels walk (6D, size-1 dims dropped, contiguous dims merged) and
 * the emission of the kernel call with its constant parameter struct. */
#ifndef TE_OPS_BROADCAST_H
#define TE_OPS_BROADCAST_H

#include "ops.h"

/* Two int8 per-tensor quantized inputs (constant ones of the right size)
 * whose shapes broadcast (ranks <= 6) to the int8 quantized output's. */
int te_bcast_check_inputs(te_graph *g, const te_op *op, te_diag *d);

/* The same for ops with an int16x8 form too (ADD, MUL): the inputs and
 * output all int8, or all int16 (input 0's type decides). */
int te_bcast_check_inputs_s8_s16(te_graph *g, const te_op *op, te_diag *d);
/* The shapes of a and b broadcast (ranks <= 6) to out's shape, whatever
 * their types (comparisons, logical ops). */
int te_bcast_check_shapes(te_diag *d, const te_op *op, const te_tensor *a, const te_tensor *b,
                          const te_tensor *out);

/* The checks of an unquantized broadcasting binary op (int32 / float32
 * ADD, DIV, FLOOR_DIV ...): b and the output of a's type, constant
 * operands readable, shapes that broadcast (differing shapes of rank at
 * most max_rank, TFLite Micro's limit of the op), output elements that
 * fit an int32. */
int te_bcast_check_plain(te_diag *d, const te_op *op, const te_tensor *a, const te_tensor *b,
                         const te_tensor *out, int max_rank);

/* The broadcast layout of inputs a and b, into the leading fields of a
 * kernel parameter struct (te_add_params, te_mul_params): broadcast
 * (0: same shapes, one flat loop), size (output elements), the 6D output
 * dims and the element strides of each input per dim (0: broadcast). */
void te_bcast_fill(const te_tensor *a, const te_tensor *b, int *broadcast, int *size, int *dims,
                   int *stride1, int *stride2);

/* Adds the layout fields te_bcast_fill() computed to the params being
 * built (te_params_begin). */
void te_bcast_param_layout(te_emit *e, int broadcast, int size, const int *dims,
                           const int *stride1, const int *stride2);

/* te_params_begin(type) and the layout of op's inputs 0 and 1. */
void te_bcast_params_begin(te_emit *e, const te_op *op, const char *type);

/* Requests kernel k (e.g. TE_K_ADD_S8) and writes its call (params,
 * input 0, input 1, output 0); params is te_params_end()'s "&name". */
int te_bcast_emit(te_emit *e, const te_op *op, te_kernel_id k, const char *params);

/* te_op_def.patch_kind of ADD, MUL and SUB: pointwise on int8 when their
 * constant operands are per-channel (te_patch_pointwise_bcast); the
 * int16x8, int32 and float32 kernels run on whole tensors only (patch
 * stages are int8). */
te_patch_kind te_bcast_patch_kind(const te_graph *g, const te_op *op);

#endif
