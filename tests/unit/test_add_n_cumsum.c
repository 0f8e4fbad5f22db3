/* test_add_n_cumsum.c - ADD_N and CUMSUM (float32, int8).
 *
 * References are written here from TFLite Micro's reference AddN and
 * CumSum: int8 inputs offset, shifted left 20, halved by the quantized
 * multiplier of 0.5, summed from the scaled input offset (TFLM's starting
 * accumulator), rescaled by 2 s_in / (2^20 s_out) and clamped; CumSum walks
 * TFLM's [inner, depth, outer] index with exclusive / reverse; float sums
 * in TFLM's order.  Kernels run on random shapes and quantizations; one
 * model with both ops is compiled, built and run (e2e_run.h). */
#include "e2e_run.h"

#include <math.h>
#include <string.h>

#include "compiler.h"
#include "ref_bcast.h"
#include "te_add_n.h"
#include "te_common.h"
#include "te_cumsum.h"
#include "testlib.h"
#include "tflite_builder.h"

#define MAXN 512

/* ---- references ------------------------------------------------------------ */

typedef struct {
    int32_t in_off, out_off, in_m, out_m;
    int in_s, out_s;
} ref_q;

static ref_q ref_quant(float s_in, int z_in, float s_out, int z_out)
{
    ref_q q;
    double twice = 2 * (double)s_in;
    q.in_off = -z_in;
    q.out_off = z_out;
    ref_quantize_multiplier((double)s_in / twice, &q.in_m, &q.in_s);
    ref_quantize_multiplier(twice / ((1 << 20) * (double)s_out), &q.out_m, &q.out_s);
    return q;
}

static int32_t ref_scaled(const ref_q *q, int32_t v)
{
    return ref_mbqm((int32_t)((uint32_t)v << 20), q->in_m, q->in_s);
}

static int8_t ref_out(const ref_q *q, int32_t acc)
{
    int32_t o = ref_mbqm(acc, q->out_m, q->out_s) + q->out_off;
    return (int8_t)(o < -128 ? -128 : o > 127 ? 127 : o);
}

static int32_t wrap_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

static void ref_add_n_s8(const ref_q *q, int n, int size, int8_t in[][MAXN], int8_t *out)
{
    int i, j;
    for (i = 0; i < size; i++) {
        int32_t x = ref_scaled(q, q->in_off);
        for (j = 0; j < n; j++)
            x = wrap_add(x, ref_scaled(q, q->in_off + in[j][i]));
        out[i] = ref_out(q, x);
    }
}

/* TFLM's loop: inner = dims before the axis, outer = dims after it. */
static void ref_cumsum(const ref_q *q, const void *in, void *out, int is_s8, const int *shape,
                       int rank, int axis, int exclusive, int reverse)
{
    int inner = 1, outer = 1, depth = 1, i, oi, ii, di;
    for (i = 0; i < rank; i++) {
        if (i < axis)
            inner *= shape[i];
        else if (i > axis)
            outer *= shape[i];
        else
            depth = shape[i];
    }
    for (oi = 0; oi < outer; oi++) {
        int oa = reverse ? outer - 1 - oi : oi;
        for (ii = 0; ii < inner; ii++) {
            int ia = reverse ? inner - 1 - ii : ii;
            int32_t acc = is_s8 ? ref_scaled(q, q->in_off) : 0;
            float facc = 0.0f;
            for (di = 0; di < depth; di++) {
                int da = reverse ? depth - 1 - di : di;
                int idx = oa + ia * depth * outer + da * outer;
                if (is_s8) {
                    int32_t y = ref_scaled(q, q->in_off + ((const int8_t *)in)[idx]), part;
                    if (exclusive) {
                        part = acc;
                        acc = wrap_add(acc, y);
                    } else {
                        acc = wrap_add(acc, y);
                        part = acc;
                    }
                    ((int8_t *)out)[idx] = ref_out(q, part);
                } else {
                    float x = ((const float *)in)[idx];
                    if (exclusive) {
                        ((float *)out)[idx] = facc;
                        facc += x;
                    } else {
                        facc += x;
                        ((float *)out)[idx] = facc;
                    }
                }
            }
        }
    }
}

static float rand_scale(void) { return (float)test_rand_range(1, 4000) / 40000.0f; }

/* ---- kernels against the references ------------------------------------ */

static void test_add_n_kernels(int cases)
{
    static int8_t in[24][MAXN], out[MAXN], want[MAXN];
    static float fin[24][MAXN], fout[MAXN], fwant[MAXN];
    const int8_t *ptr[24];
    const float *fptr[24];
    int c, i, j;
    for (c = 0; c < cases; c++) {
        int n = c % 7 == 6 ? test_rand_range(16, 24) : test_rand_range(2, 5);
        int size = test_rand_range(1, MAXN);
        float s_in = rand_scale(), s_out = rand_scale() * (c % 3 ? 1.0f : 4.0f);
        int z_in = test_rand_range(-128, 127), z_out = test_rand_range(-128, 127);
        ref_q q = ref_quant(s_in, z_in, s_out, z_out);
        te_add_n_params p;
        memset(&p, 0, sizeof p);
        p.n_inputs = n;
        p.size = size;
        p.in_offset = q.in_off;
        p.left_shift = 20;
        p.in_mult = q.in_m;
        p.in_shift = q.in_s;
        p.out_mult = q.out_m;
        p.out_shift = q.out_s;
        p.out_offset = q.out_off;
        p.act_min = -128;
        p.act_max = 127;
        for (j = 0; j < n; j++) {
            for (i = 0; i < size; i++) {
                in[j][i] = (int8_t)test_rand_range(-128, 127);
                fin[j][i] = (float)test_rand_range(-100000, 100000) / 997.0f;
            }
            ptr[j] = in[j];
            fptr[j] = fin[j];
        }
        ref_add_n_s8(&q, n, size, in, want);
        te_add_n_s8(&p, ptr, out);
        CHECK(memcmp(out, want, (size_t)size) == 0);
        for (i = 0; i < size; i++) {
            float x = 0.0f;
            for (j = 0; j < n; j++)
                x += fin[j][i];
            fwant[i] = x;
        }
        te_add_n_f32(&p, fptr, fout);
        CHECK(memcmp(fout, fwant, sizeof(float) * (size_t)size) == 0);
    }
}

static void test_cumsum_kernels(int cases)
{
    static int8_t in[MAXN], out[MAXN], want[MAXN];
    static float fin[MAXN], fout[MAXN], fwant[MAXN];
    int c, i;
    for (c = 0; c < cases; c++) {
        int rank = test_rand_range(1, 4), shape[4], size = 1, axis, before = 1, after = 1;
        float s_in = rand_scale(), s_out = rand_scale() * (c % 2 ? 1.0f : 8.0f);
        int z_in = test_rand_range(-128, 127), z_out = test_rand_range(-128, 127);
        ref_q q = ref_quant(s_in, z_in, s_out, z_out);
        te_cumsum_params p;
        for (i = 0; i < rank; i++) {
            shape[i] = test_rand_range(1, c % 5 == 0 ? 40 : 6);
            size *= shape[i];
        }
        if (size > MAXN) {
            c--;
            continue;
        }
        axis = test_rand_range(0, rank - 1);
        for (i = 0; i < rank; i++) {
            if (i < axis)
                before *= shape[i];
            else if (i > axis)
                after *= shape[i];
        }
        memset(&p, 0, sizeof p);
        p.before = before;
        p.depth = shape[axis];
        p.after = after;
        p.exclusive = c & 1;
        p.reverse = (c >> 1) & 1;
        p.in_offset = q.in_off;
        p.left_shift = 20;
        p.in_mult = q.in_m;
        p.in_shift = q.in_s;
        p.out_mult = q.out_m;
        p.out_shift = q.out_s;
        p.out_offset = q.out_off;
        p.act_min = -128;
        p.act_max = 127;
        for (i = 0; i < size; i++) {
            in[i] = (int8_t)test_rand_range(-128, 127);
            fin[i] = (float)test_rand_range(-100000, 100000) / 997.0f;
        }
        ref_cumsum(&q, in, want, 1, shape, rank, axis, p.exclusive, p.reverse);
        te_cumsum_s8(&p, in, out);
        CHECK(memcmp(out, want, (size_t)size) == 0);
        ref_cumsum(&q, fin, fwant, 0, shape, rank, axis, p.exclusive, p.reverse);
        te_cumsum_f32(&p, fin, fout);
        CHECK(memcmp(fout, fwant, sizeof(float) * (size_t)size) == 0);
    }
}

/* ---- end to end ------------------------------------------------------------ */

static float SI = 0.04f, SO = 0.09f, SC = 0.2f;
static int64_t ZI = -7, ZO = 11, ZC = -3;

/* a, b, c int8[2,3] -> ADD_N -> int8; fa, fb float[2,3] -> ADD_N -> float;
 * x int8[2,3,4] -> CUMSUM(axis -2, exclusive, reverse) -> int8;
 * fx float[2,3,4] -> CUMSUM(axis 2) -> float. */
static uint8_t *build_model(size_t *size)
{
    tflb_model m;
    tflb_quant qi = tflb_quant1(&SI, &ZI), qo = tflb_quant1(&SO, &ZO), qc = tflb_quant1(&SC, &ZC);
    tflb_options none = tflb_opt_empty(TE_OPT_ADD_N), cs1 = tflb_opt_cumsum(1, 1),
                 cs0 = tflb_opt_cumsum(0, 0);
    int32_t s23[2] = {2, 3}, s234[3] = {2, 3, 4}, s1[1] = {1}, am2 = -2, a2 = 2;
    int32_t in[7], out[4], ax1, ax2, opn, opc;
    uint8_t *data = NULL;
    tflb_init(&m);
    in[0] = tflb_add_tensor(&m, "a", TFLB_INT8, s23, 2, 0, &qi);
    in[1] = tflb_add_tensor(&m, "b", TFLB_INT8, s23, 2, 0, &qi);
    in[2] = tflb_add_tensor(&m, "c", TFLB_INT8, s23, 2, 0, &qi);
    in[3] = tflb_add_tensor(&m, "fa", TFLB_FLOAT32, s23, 2, 0, NULL);
    in[4] = tflb_add_tensor(&m, "fb", TFLB_FLOAT32, s23, 2, 0, NULL);
    in[5] = tflb_add_tensor(&m, "x", TFLB_INT8, s234, 3, 0, &qi);
    in[6] = tflb_add_tensor(&m, "fx", TFLB_FLOAT32, s234, 3, 0, NULL);
    out[0] = tflb_add_tensor(&m, "sum8", TFLB_INT8, s23, 2, 0, &qo);
    out[1] = tflb_add_tensor(&m, "sumf", TFLB_FLOAT32, s23, 2, 0, NULL);
    out[2] = tflb_add_tensor(&m, "cs8", TFLB_INT8, s234, 3, 0, &qc);
    out[3] = tflb_add_tensor(&m, "csf", TFLB_FLOAT32, s234, 3, 0, NULL);
    ax1 = tflb_add_const(&m, "axm2", TFLB_INT32, s1, 1, &am2, 4, NULL);
    ax2 = tflb_add_const(&m, "ax2", TFLB_INT32, s1, 1, &a2, 4, NULL);
    opn = tflb_add_opcode(&m, TE_OP_ADD_N, 1);
    opc = tflb_add_opcode(&m, TE_OP_CUMSUM, 1);
    tflb_add_op(&m, opn, in, 3, &out[0], 1, &none);
    tflb_add_op(&m, opn, &in[3], 2, &out[1], 1, &none);
    tflb_add_op(&m, opc, (int32_t[]){in[5], ax1}, 2, &out[2], 1, &cs1);
    tflb_add_op(&m, opc, (int32_t[]){in[6], ax2}, 2, &out[3], 1, &cs0);
    tflb_set_inputs(&m, in, 7);
    tflb_set_outputs(&m, out, 4);
    CHECK(tflb_finish(&m, &data, size) == 0);
    tflb_free(&m);
    return data;
}

static void test_e2e(void)
{
    static int8_t a[3][MAXN], x[24], sum8[6], cs8[24], w8[24];
    float fa[6], fb[6], fx[24], sumf[6], csf[24], wf[24];
    const void *ins[7] = {a[0], a[1], a[2], fa, fb, x, fx};
    size_t in_bytes[7] = {6, 6, 6, 24, 24, 24, 96}, out_bytes[4] = {6, 24, 24, 96};
    void *outs[4] = {sum8, sumf, cs8, csf};
    int shape[3] = {2, 3, 4}, i, j;
    size_t size;
    uint8_t *model = build_model(&size);
    ref_q q;
    for (j = 0; j < 3; j++)
        for (i = 0; i < 6; i++)
            a[j][i] = (int8_t)(i * 45 - 120 + j * 17);
    for (i = 0; i < 6; i++) {
        fa[i] = (float)i * 0.37f - 1.0f;
        fb[i] = 1e7f / (float)(i + 1);
    }
    for (i = 0; i < 24; i++) {
        x[i] = (int8_t)(i * 11 - 128);
        fx[i] = (float)(i * i) * 0.013f - 2.5f;
    }
    CHECK(model != NULL);
    if (!model)
        return;
    CHECK(e2e_run(model, size, 7, ins, in_bytes, 4, outs, out_bytes) == 0);
    q = ref_quant(SI, (int)ZI, SO, (int)ZO);
    ref_add_n_s8(&q, 3, 6, a, w8);
    CHECK(memcmp(sum8, w8, 6) == 0);
    for (i = 0; i < 6; i++) {
        float s = 0.0f;
        s += fa[i];
        s += fb[i];
        CHECK(memcmp(&sumf[i], &s, 4) == 0);
    }
    q = ref_quant(SI, (int)ZI, SC, (int)ZC);
    ref_cumsum(&q, x, w8, 1, shape, 3, 1, 1, 1);
    CHECK(memcmp(cs8, w8, 24) == 0);
    ref_cumsum(&q, fx, wf, 0, shape, 3, 2, 0, 0);
    CHECK(memcmp(csf, wf, 96) == 0);
    free(model);
}

/* int8 ADD_N with differing input quantization is refused, as in TFLM. */
static void test_refusals(void)
{
    tflb_model m;
    float s2 = 0.05f;
    tflb_quant qi = tflb_quant1(&SI, &ZI), q2 = tflb_quant1(&s2, &ZI), qo = tflb_quant1(&SO, &ZO);
    tflb_options none = tflb_opt_empty(TE_OPT_ADD_N);
    int32_t s23[2] = {2, 3}, in[2], out;
    uint8_t *data = NULL;
    size_t size = 0;
    char err[256] = "";
    te_generated *gen;
    tflb_init(&m);
    in[0] = tflb_add_tensor(&m, "a", TFLB_INT8, s23, 2, 0, &qi);
    in[1] = tflb_add_tensor(&m, "b", TFLB_INT8, s23, 2, 0, &q2);
    out = tflb_add_tensor(&m, "o", TFLB_INT8, s23, 2, 0, &qo);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_ADD_N, 1), in, 2, &out, 1, &none);
    tflb_set_inputs(&m, in, 2);
    tflb_set_outputs(&m, &out, 1);
    CHECK(tflb_finish(&m, &data, &size) == 0);
    tflb_free(&m);
    gen = data ? te_compile_memory(data, size, "net", NULL, err, sizeof err) : NULL;
    CHECK(gen == NULL && strstr(err, "ADD_N") != NULL && strstr(err, "zero point") != NULL);
    te_generated_free(gen);
    free(data);
}

int main(void)
{
    test_seed(1406);
    test_add_n_kernels(300);
    test_cumsum_kernels(400);
    test_e2e();
    test_refusals();
    return test_summary();
}
