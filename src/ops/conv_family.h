/* conv_family.h - checks and compile-time parameters shared by the
 * convolution-family lowerings (CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, TRANSPOSE_CONV): activation/weight/bias checks,
 * per-channel requantization multipliers, activation bounds, padding. */
#ifndef TE_CONV_FAMILY_H
#define TE_CONV_FAMILY_H

#include "ops.h"

int te_convfam_check_act_type(te_diag *d, const te_op *op, const te_tensor *t, const char *which);
int te_convfam_check_weights(te_diag *d, const te_op *op, const te_tensor *w, int rank,
                             int chan_dim);
int te_convfam_check_bias(te_diag *d, const te_op *op, const te_tensor *b, int channels);
int te_convfam_act_range(te_diag *d, const te_op *op, te_activation act, const te_tensor *out,
                         int32_t *lo, int32_t *hi);
int te_convfam_emit_requant(te_emit *e, const te_tensor *in, const te_tensor *w,
                            const te_tensor *out, int channels, int float_product,
                            te_name *mult, te_name *shift);
int64_t te_convfam_out_size(te_padding pad, int64_t in, int64_t k, int64_t stride, int64_t dil);
int64_t te_convfam_pad_before(int64_t in, int64_t k, int64_t stride, int64_t dil, int64_t out);

#endif
