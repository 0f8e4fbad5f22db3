/* te_logical.c - the logical kernels on bool tensors (see te_logical.h). */
#include "te_common.h"
#include "te_logical.h"

/* te:section te_logical_binary */
static inline TE_UNUSED void te_logical_row(int is_or, const uint8_t *a, int s1, const uint8_t *b,
                                            int s2, uint8_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = is_or ? (uint8_t)(a[i * s1] || b[i * s2]) : (uint8_t)(a[i * s1] && b[i * s2]);
}

TE_KERNEL void te_logical_binary(const te_logical_params *p, const uint8_t *in1,
                                 const uint8_t *in2, uint8_t *out)
{
    if (!p->broadcast) {
        te_logical_row(p->is_or, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_logical_row(p->is_or, in1 + te_i1, p->stride1[5], in2 + te_i2,
                                 p->stride2[5], out + te_o, p->dims[5]));
}
/* te:end */

/* te:section te_logical_not */
TE_KERNEL void te_logical_not(const uint8_t *in, uint8_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = (uint8_t)!in[i];
}
/* te:end */
