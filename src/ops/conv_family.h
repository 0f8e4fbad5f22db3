/* conv_family.h - checks and compile-time parameters shared by the
 * convolution-family lowerings (CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, TRANSPOSE_CONV): activation/weight/bias checks,
 * per-channel requantization multipliers, activation bounds, padding
 * (including explicit padding folded in from a PAD). */
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
/* CONV_2D / DEPTHWISE_CONV_2D geometry along height (axis 0) or width
 * (axis 1) for an input of size `in` and a filter of k taps, honouring the
 * options' stride, dilation, padding and explicit (folded PAD) padding:
 * the output size, and the padding before the first input row/column. */
int64_t te_convfam_conv_out(const te_options *o, int axis, int64_t in, int64_t k);
int64_t te_convfam_conv_pad(const te_options *o, int axis, int64_t in, int64_t k, int64_t out);
/* Stride/dilation >= 1, SAME or VALID, explicit padding >= 0 and the
 * padded 4-D input's height and width within int range. */
int te_convfam_check_conv_options(te_diag *d, const te_op *op, const te_tensor *in);

#endif
