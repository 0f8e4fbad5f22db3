/* te_space_batch.h - SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND on NHWC data
 * (3-d NWC inputs are passed as H = 1), as TFLite Micro's reference kernels
 * move them: whole pixels of `depth` bytes.  The converter brackets a
 * dilated convolution with them. */
#ifndef TE_SPACE_BATCH_H
#define TE_SPACE_BATCH_H

#include <stdint.h>

/* p = {in_n, in_h, in_w, out_n, out_h, out_w, block_h, block_w, pad_top,
 * pad_left, depth_bytes}.  Output batch ob reads input batch ob % in_n at
 * block shift ((ob / in_n) / block_w, (ob / in_n) % block_w); pixels that
 * fall in the padding get `pad` in every byte. */
TE_KERNEL void te_space_to_batch_s8(const int8_t *in, int8_t *out, const int32_t *p, int8_t pad);

/* p = {in_n, in_h, in_w, out_n, out_h, out_w, block_h, block_w, crop_top,
 * crop_left, depth_bytes}.  Input batch ib goes to output batch ib % out_n
 * at block shift ((ib / out_n) / block_w, (ib / out_n) % block_w); pixels
 * that land in the crops are dropped. */
TE_KERNEL void te_batch_to_space_s8(const int8_t *in, int8_t *out, const int32_t *p);

#endif
