/* op_cost.h - the size features an operator's estimated instruction count
 * is linear in (cost model, src/api/cost_model.h).  The op table fills
 * them: common ones from the tensors, per-operator ones through
 * te_op_def.cost_features. */
#ifndef TE_OP_COST_H
#define TE_OP_COST_H

#include <stdint.h>

#include "../ir/ir.h"

/* The features an estimate is linear in. */
enum {
    TE_CF_MACS,   /* multiply-accumulates */
    TE_CF_WINDOW, /* elements gathered: conv patch (im2col) elements per output
                   * pixel, pool window elements per output, summed */
    TE_CF_TAPS,   /* CONV_2D: (output, filter tap) pairs = MACs / input channels:
                   * the inner loop entries of a direct convolution */
    TE_CF_OUT,    /* output elements */
    TE_CF_IN,     /* activation input elements */
    TE_CF_ROWS,   /* output pixels (N*H*W) for images, rows (all but the last
                   * dimension) otherwise: the kernels' outer loop count */
    TE_CF_CALL,   /* 1: the call and its set-up */
    TE_COST_NF
};

typedef struct {
    double f[TE_COST_NF];
    const char *row;      /* a case of its kernel with its own cost-table row
                           * (te_cost_coef.row): "1x1" (a CONV_2D whose taps are
                           * its outputs), "cols" (a DSP depthwise kernel in
                           * column mode); NULL: none */
} te_cost_features;

/* Outer loop count: N*H*W of an image, all but the last dimension otherwise. */
int64_t te_cost_rows_of(const te_tensor *t);

#endif
