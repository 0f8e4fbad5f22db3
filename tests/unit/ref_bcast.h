/* ref_bcast.h - plain numpy broadcasting for the operator tests' reference
 * implementations: random broadcastable shape pairs, the flat index of an
 * input for an output index, and the TFLite fixed-point primitives written
 * out from their definitions (gemmlowp SaturatingRoundingDoublingHighMul,
 * RoundingDivideByPOT, TFLite QuantizeMultiplier).  Header only. */
#ifndef TE_REF_BCAST_H
#define TE_REF_BCAST_H

#include <math.h>
#include <stdint.h>

#include "testlib.h"

#if defined(__GNUC__)
#define REF_UNUSED __attribute__((unused))
#else
#define REF_UNUSED
#endif

/* Random output shape of rank r (<= max_rank; dims up to max_dim, 3 past
 * rank 4) and two input shapes that broadcast to it (leading dims dropped,
 * dims set to 1 at random; every output dim comes from an input). */
static REF_UNUSED void ref_rand_bcast_dims(int max_rank, int max_dim, int *r, int *out, int *ra,
                                           int *sa, int *rb, int *sb)
{
    int i, pattern = (int)(test_rand() % 4);
    *r = test_rand_range(0, max_rank);
    for (i = 0; i < *r; i++)
        out[i] = test_rand_range(1, *r > 4 ? 3 : max_dim);
    *ra = *rb = *r;
    if (pattern != 0 && *r > 0) {
        *ra = test_rand_range(0, *r);
        *rb = test_rand_range(0, *r);
        if (test_rand() % 2)
            *ra = *r;
        else
            *rb = *r;
    }
    for (i = 0; i < *ra; i++)
        sa[i] = (pattern == 0 || test_rand() % 3) ? out[*r - *ra + i] : 1;
    for (i = 0; i < *rb; i++)
        sb[i] = (pattern == 0 || test_rand() % 3) ? out[*r - *rb + i] : 1;
    for (i = 0; i < *r; i++) {
        int ia = i - (*r - *ra), ib = i - (*r - *rb);
        int da = ia >= 0 ? sa[ia] : 1, db = ib >= 0 ? sb[ib] : 1;
        if (da != out[i] && db != out[i]) {
            if (ia >= 0)
                sa[ia] = out[i];
            else
                sb[ib] = out[i];
        }
    }
}

/* ref_rand_bcast_dims with dims up to 5. */
static REF_UNUSED void ref_rand_bcast(int max_rank, int *r, int *out, int *ra, int *sa, int *rb,
                                      int *sb)
{
    ref_rand_bcast_dims(max_rank, 5, r, out, ra, sa, rb, sb);
}

static REF_UNUSED int ref_elems(const int *s, int r)
{
    int i, n = 1;
    for (i = 0; i < r; i++)
        n *= s[i];
    return n;
}

/* Flat index in input shape s (rank ri, right-aligned in rank r) of output index idx. */
static REF_UNUSED int ref_bcast_index(const int *idx, int r, const int *s, int ri)
{
    int i, off = 0;
    for (i = 0; i < ri; i++)
        off = off * s[i] + (s[i] == 1 ? 0 : idx[r - ri + i]);
    return off;
}

static REF_UNUSED void ref_next_index(int *idx, const int *shape, int r)
{
    int i;
    for (i = r - 1; i >= 0; i--) {
        if (++idx[i] < shape[i])
            return;
        idx[i] = 0;
    }
}

static REF_UNUSED int32_t ref_srdhm(int32_t a, int32_t b)
{
    int64_t ab = (int64_t)a * b, nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
    if (a == INT32_MIN && b == INT32_MIN)
        return INT32_MAX;
    return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

static REF_UNUSED int32_t ref_rdbp(int32_t x, int e)
{
    int32_t mask = (int32_t)(((int64_t)1 << e) - 1), rem = x & mask;
    int32_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> e) + (rem > thr ? 1 : 0);
}

/* TFLite QuantizeMultiplier: m = mult * 2^(shift - 31). */
static REF_UNUSED void ref_quantize_multiplier(double m, int32_t *mult, int *shift)
{
    double q;
    int64_t qf;
    if (m == 0.0) {
        *mult = 0;
        *shift = 0;
        return;
    }
    q = frexp(m, shift);
    qf = (int64_t)round(q * (double)(1LL << 31));
    if (qf == (1LL << 31)) {
        qf /= 2;
        ++*shift;
    }
    if (*shift < -31) {
        *shift = 0;
        qf = 0;
    }
    *mult = (int32_t)qf;
}

/* MultiplyByQuantizedMultiplier (shift > 0: left shift first). */
static REF_UNUSED int32_t ref_mbqm(int32_t x, int32_t mult, int shift)
{
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    return ref_rdbp(ref_srdhm((int32_t)((uint32_t)x << left), mult), right);
}

#endif
