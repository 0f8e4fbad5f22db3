/* movement.h - helpers the data-movement lowerings (RESHAPE, SQUEEZE,
 * TRANSPOSE, STRIDED_SLICE, PAD, RESIZE_NEAREST_NEIGHBOR) share: constant
 * index tensors, shape strings and the emission of byte copies and strided
 * gathers (te_copy kernels). */
#ifndef TE_OPS_MOVEMENT_H
#define TE_OPS_MOVEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "ops.h"

/* Element i of a constant int32 or int64 tensor (little-endian data). */
int64_t te_move_const_int(const te_tensor *t, int64_t i);

/* "[1,4,4,8]" into buf (truncated to n bytes). */
void te_move_shape_str(const int *shape, int rank, char *buf, size_t n);

/* A constant int32 (or int64 when allowed) index tensor of rank <= 1 whose
 * data matches its shape. */
int te_move_check_index_tensor(te_diag *d, const te_op *op, const te_tensor *t,
                               const char *which, int allow_int64);

/* RESHAPE / SQUEEZE: input 0 exists with a known type, output 0 has the
 * same type; and both have as many elements. */
int te_move_check_same_type(te_diag *d, const te_op *op, const te_tensor *in,
                            const te_tensor *out);
int te_move_check_same_elems(te_diag *d, const te_op *op, const te_tensor *in,
                             const te_tensor *out);

/* te_op_def.variant of RESHAPE / SQUEEZE: TE_K_VIEW when output 0 shares
 * input 0's bytes (nothing to run), else TE_K_COPY_BYTES. */
te_kernel_id te_move_copy_variant(const te_graph *g, const te_op *op);

/* Byte copy of input 0 into output 0 unless they share storage. */
int te_move_emit_copy(te_emit *e, const te_op *op);

/* Output 0 = gather from input 0 starting at element `base`: counts/steps
 * per axis in elements (rank <= TE_MAX_RANK).  Drops size-1 axes, merges
 * axes that stay contiguous and turns multi-byte elements into a byte axis. */
int te_move_emit_gather(te_emit *e, const te_op *op, int64_t base, int rank,
                        const int64_t *counts, const int64_t *steps);
/* The same from input `in_i` into output `out_i` (SPLIT, UNPACK, GATHER...). */
int te_move_emit_gather_io(te_emit *e, const te_op *op, int in_i, int out_i, int64_t base,
                           int rank, const int64_t *counts, const int64_t *steps);

/* 1 when output `out_i` is a zero-copy view of input `in_i` (set up by
 * pass_alias from te_op_def.view_input): emit() then writes nothing. */
int te_move_is_view(const te_graph *g, const te_op *op, int in_i, int out_i);

/* A patch clone's place along axis k (op->opt.region, TE_PATCH_REMAP ops
 * whose input and output share their height/width axes): 1 when k is one of
 * its height/width axes, with the whole input's and output's sizes along it
 * and where the clone's input and output regions start in them; 0 on any
 * other axis and op (the tensors are whole along it). */
typedef struct {
    int64_t in_size, out_size, in_origin, out_origin;
} te_move_axis_place;
int te_move_region_axis(const te_op *op, int k, te_move_axis_place *p);

/* fold() of the ops whose output is input 0's bytes unchanged (RESHAPE,
 * SQUEEZE): a copy when input 0 is a constant. */
int te_move_fold_copy(te_graph *g, const te_op *op, uint8_t *const *out);

/* The gather above done at compile time on constant bytes (element size
 * esz): for constant folding. */
void te_move_gather_now(const uint8_t *in, uint8_t *out, size_t esz, int64_t base, int rank,
                        const int64_t *counts, const int64_t *steps);

#endif
