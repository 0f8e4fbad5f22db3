/* qtensor.h - per-tensor quantized test tensors for the element-wise and
 * reduction kernel tests (a te_tensor with its one scale and zero point, as
 * the compiler's parameter builders read it), an int32 axis tensor, and the
 * random scales, activations and int8 data those tests draw.  Header only
 * (static functions). */
#ifndef TE_QTENSOR_H
#define TE_QTENSOR_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ir/ir.h"
#include "testlib.h"

#if defined(__GNUC__)
#define QT_UNUSED __attribute__((unused))
#else
#define QT_UNUSED
#endif

typedef struct {
    te_tensor t;
    float scale;
    int64_t zp;
} qtensor;

/* Tensor id of the given type and shape, per-tensor scale and zero point. */
static QT_UNUSED void qt_init_type(qtensor *q, int id, te_dtype type, int rank, const int *shape,
                                   float scale, int zp)
{
    int i;
    memset(q, 0, sizeof *q);
    q->t.id = id;
    q->t.name = "t";
    q->t.type = type;
    q->t.rank = rank;
    for (i = 0; i < rank; i++)
        q->t.shape[i] = shape[i];
    q->scale = scale;
    q->zp = zp;
    q->t.q.count = 1;
    q->t.q.scale = &q->scale;
    q->t.q.zero_point = &q->zp;
    q->t.producer = -1;
    q->t.alias_of = -1;
}

/* Constant int32 axis tensor id "axis" of n_axes entries, its little-endian
 * data in bytes (4 * n_axes). */
static QT_UNUSED void qt_axis_tensor(te_tensor *tax, int id, const int *axes, int n_axes,
                                     uint8_t *bytes)
{
    int i, k;
    memset(tax, 0, sizeof *tax);
    tax->id = id;
    tax->name = "axis";
    tax->type = TE_DT_INT32;
    tax->rank = 1;
    tax->shape[0] = n_axes;
    for (i = 0; i < n_axes; i++)
        for (k = 0; k < 4; k++)
            bytes[4 * i + k] = (uint8_t)((uint32_t)axes[i] >> (8 * k));
    tax->data = bytes;
    tax->data_bytes = (size_t)(4 * n_axes);
}

/* An int8 activation scale, log-uniform in 0.0005 .. 0.2. */
static QT_UNUSED float rand_scale_s8(void)
{
    return (float)(0.0005 * pow(400.0, (double)(test_rand() % 10000) / 10000.0));
}

static QT_UNUSED te_activation rand_act(void)
{
    static const te_activation acts[] = {TE_ACT_NONE, TE_ACT_RELU, TE_ACT_RELU6,
                                         TE_ACT_RELU_N1_TO_1};
    return acts[test_rand() % 4];
}

static QT_UNUSED void fill_rand_s8(int8_t *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = (int8_t)test_rand_range(-128, 127);
}

#endif
