/* te_concat.c - one input's share of CONCATENATION (see te_concat.h). */
#include "te_common.h"
#include "te_concat.h"

/* te:section te_concat_s8 */
TE_KERNEL void te_concat_s8(const int8_t *in, int8_t *out, int32_t outer, int32_t in_row,
                            int32_t out_row)
{
    int32_t o, i;
    for (o = 0; o < outer; o++) {
        for (i = 0; i < in_row; i++)
            out[i] = in[i];
        in += in_row;
        out += out_row;
    }
}
/* te:end */
