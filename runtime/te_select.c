/* te_select.c - the SELECT_V2 kernels (see te_select.h). */
#include "te_common.h"
#include "te_select.h"

/* te:section TE_SELECT_KERNEL */
/* The kernel of one element type: flat when no input broadcasts, else the
 * 6-D walk with each input's element strides. */
#define TE_SELECT_KERNEL(NAME, T)                                                              \
    TE_KERNEL void NAME(const te_select_params *p, const uint8_t *cond, const T *x, const T *y, \
                        T *out)                                                                \
    {                                                                                          \
        const int *d = p->dims, *sc = p->stride_c, *sx = p->stride_x, *sy = p->stride_y;       \
        int i0, i1, i2, i3, i4, i5;                                                            \
        if (!p->broadcast) {                                                                   \
            for (i0 = 0; i0 < p->size; i0++)                                                   \
                out[i0] = cond[i0] ? x[i0] : y[i0];                                            \
            return;                                                                            \
        }                                                                                      \
        for (i0 = 0; i0 < d[0]; i0++)                                                          \
            for (i1 = 0; i1 < d[1]; i1++)                                                      \
                for (i2 = 0; i2 < d[2]; i2++)                                                  \
                    for (i3 = 0; i3 < d[3]; i3++)                                              \
                        for (i4 = 0; i4 < d[4]; i4++) {                                        \
                            int c = i0 * sc[0] + i1 * sc[1] + i2 * sc[2] + i3 * sc[3] +        \
                                    i4 * sc[4];                                                \
                            int a = i0 * sx[0] + i1 * sx[1] + i2 * sx[2] + i3 * sx[3] +        \
                                    i4 * sx[4];                                                \
                            int b = i0 * sy[0] + i1 * sy[1] + i2 * sy[2] + i3 * sy[3] +        \
                                    i4 * sy[4];                                                \
                            for (i5 = 0; i5 < d[5]; i5++)                                      \
                                *out++ = cond[c + i5 * sc[5]] ? x[a + i5 * sx[5]]              \
                                                              : y[b + i5 * sy[5]];             \
                        }                                                                      \
    }
/* te:end */

/* te:section te_select_s8 */
TE_SELECT_KERNEL(te_select_s8, int8_t)
/* te:end */

/* te:section te_select_s16 */
TE_SELECT_KERNEL(te_select_s16, int16_t)
/* te:end */

/* te:section te_select_f32 */
TE_SELECT_KERNEL(te_select_f32, float)
/* te:end */
