/* test_if.c - IF with its branches inlined as guarded operators: synthetic
 * models built with tools/tflite_builder (x, sel -> cond = sel > 0 ->
 * IF(cond, x): then x + x, else x unchanged), run end to end on both
 * conditions and compared with a plain reference; a constant condition
 * (only the taken branch compiled, no guard); and the refusal of control
 * flow inside a branch. */
#include "e2e_run.h" /* first: it asks for POSIX (mkdtemp) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"
#include "te_common.h"
#include "testlib.h"
#include "tflite_builder.h"

#define N 6

static const float sx = 0.05f, sy = 0.1f, ssel = 0.5f;
static const int64_t zx = 1, zy = -3, zsel = 0;

enum { COND_INPUT, COND_TRUE, COND_FALSE, NESTED };

/* Then branch: ty = ADD(tx, tx) (or an IF, for NESTED). */
static void add_then(tflb_model *m, int op_add, int op_if)
{
    static const int32_t shape[2] = {1, N};
    tflb_model *s = tflb_add_subgraph(m);
    tflb_quant qx = tflb_quant1(&sx, &zx), qy = tflb_quant1(&sy, &zy);
    tflb_options add = tflb_opt_add(TFLB_ACT_NONE);
    int32_t tx, ty, io[2];
    if (!s)
        return;
    tx = tflb_add_tensor(s, "tx", TFLB_INT8, shape, 2, 0, &qx);
    ty = tflb_add_tensor(s, "ty", TFLB_INT8, shape, 2, 0, &qy);
    io[0] = tx;
    io[1] = tx;
    if (op_if >= 0) {
        tflb_options o = tflb_opt_empty(TE_OPT_IF);
        o.subgraph[0] = o.subgraph[1] = 2;
        io[0] = tx; /* not a bool: refused before that matters */
        tflb_add_op(s, op_if, io, 2, &ty, 1, &o);
    } else {
        tflb_add_op(s, op_add, io, 2, &ty, 1, &add);
    }
    tflb_set_inputs(s, &tx, 1);
    tflb_set_outputs(s, &ty, 1);
}

/* Else branch: its input is its output. */
static void add_else(tflb_model *m)
{
    static const int32_t shape[2] = {1, N};
    tflb_model *s = tflb_add_subgraph(m);
    tflb_quant qx = tflb_quant1(&sx, &zx);
    int32_t ex;
    if (!s)
        return;
    ex = tflb_add_tensor(s, "ex", TFLB_INT8, shape, 2, 0, &qx);
    tflb_set_inputs(s, &ex, 1);
    tflb_set_outputs(s, &ex, 1);
}

static int build(int kind, uint8_t **img, size_t *size)
{
    static const int32_t shape[2] = {1, N}, one[1] = {1};
    static const int8_t zero = 0;
    static const uint8_t yes = 1, no = 0;
    tflb_model m;
    tflb_quant qx = tflb_quant1(&sx, &zx), qy = tflb_quant1(&sy, &zy);
    tflb_quant qs = tflb_quant1(&ssel, &zsel);
    tflb_options iff = tflb_opt_empty(TE_OPT_IF);
    int op_gt, op_if, op_add, rc;
    int32_t x, sel, c0, cond, y, io[2], ins[2];
    tflb_init(&m);
    op_gt = tflb_add_opcode(&m, TE_OP_GREATER, 1);
    op_if = tflb_add_opcode(&m, TE_OP_IF, 1);
    op_add = tflb_add_opcode(&m, TE_OP_ADD, 1);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, shape, 2, 0, &qx);
    sel = tflb_add_tensor(&m, "sel", TFLB_INT8, one, 1, 0, &qs);
    c0 = tflb_add_const(&m, "zero", TFLB_INT8, one, 1, &zero, 1, &qs);
    y = tflb_add_tensor(&m, "y", TFLB_INT8, shape, 2, 0, &qy);
    if (kind == COND_TRUE || kind == COND_FALSE) {
        cond = tflb_add_const(&m, "cond", TFLB_BOOL, one, 1, kind == COND_TRUE ? &yes : &no, 1,
                              NULL);
    } else {
        cond = tflb_add_tensor(&m, "cond", TFLB_BOOL, one, 1, 0, NULL);
        io[0] = sel;
        io[1] = c0;
        tflb_add_op(&m, op_gt, io, 2, &cond, 1, NULL);
    }
    iff.subgraph[0] = 1;
    iff.subgraph[1] = 2;
    io[0] = cond;
    io[1] = x;
    tflb_add_op(&m, op_if, io, 2, &y, 1, &iff);
    ins[0] = x;
    ins[1] = sel;
    tflb_set_inputs(&m, ins, 2);
    tflb_set_outputs(&m, &y, 1);
    add_then(&m, op_add, kind == NESTED ? op_if : -1);
    add_else(&m);
    rc = tflb_finish(&m, img, size);
    tflb_free(&m);
    return rc;
}

/* TFLite Micro's int8 ADD (left shift 20, float ratios), no activation. */
static int8_t ref_add(int8_t a, int8_t b)
{
    float twice = 2.0f * sx;
    int32_t ma, mo, u, v, r;
    int ea, eo;
    te_quantize_multiplier((double)(sx / twice), &ma, &ea);
    te_quantize_multiplier((double)(twice / (1048576.0f * sy)), &mo, &eo);
    u = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul((a - (int32_t)zx) * 1048576, ma),
                                  -ea);
    v = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul((b - (int32_t)zx) * 1048576, ma),
                                  -ea);
    r = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(u + v, mo), -eo) + (int32_t)zy;
    return (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
}

static void run_case(int kind, int8_t sel, const char *what)
{
    int8_t x[N], y[N], want[N];
    const void *in[2];
    size_t in_bytes[2] = {N, 1}, out_bytes[1] = {N};
    void *out[1];
    uint8_t *img = NULL;
    size_t size = 0;
    int i, take_then = kind == COND_TRUE || (kind == COND_INPUT && sel > 0);
    for (i = 0; i < N; i++) {
        x[i] = (int8_t)(i * 41 - 100);
        want[i] = take_then ? ref_add(x[i], x[i]) : x[i];
    }
    in[0] = x;
    in[1] = &sel;
    out[0] = y;
    CHECK(build(kind, &img, &size) == 0);
    CHECK(e2e_run(img, size, 2, in, in_bytes, 1, out, out_bytes) == 0);
    if (memcmp(y, want, N) != 0)
        printf("%s: outputs differ\n", what);
    CHECK(memcmp(y, want, N) == 0);
    free(img);
}

/* A constant condition compiles the taken branch alone: no guard. */
static void test_constant_condition_unguarded(void)
{
    char err[256];
    uint8_t *img = NULL;
    size_t size = 0;
    te_generated *gen;
    CHECK(build(COND_TRUE, &img, &size) == 0);
    gen = te_compile_memory(img, size, "net", NULL, err, sizeof err);
    CHECK(gen != NULL);
    if (gen) {
        CHECK(strstr(gen->source, "if (*(const uint8_t *)") == NULL);
        CHECK(strstr(gen->source, "te_add_s8(") != NULL);
    }
    te_generated_free(gen);
    free(img);
    CHECK(build(COND_INPUT, &img, &size) == 0);
    gen = te_compile_memory(img, size, "net", NULL, err, sizeof err);
    CHECK(gen != NULL);
    if (gen)
        CHECK(strstr(gen->source, "} else {") != NULL);
    te_generated_free(gen);
    free(img);
}

static void test_nested_refused(void)
{
    char err[512] = "";
    uint8_t *img = NULL;
    size_t size = 0;
    te_generated *gen;
    CHECK(build(NESTED, &img, &size) == 0);
    gen = te_compile_memory(img, size, "net", NULL, err, sizeof err);
    CHECK(gen == NULL);
    printf("refused as expected: %s\n", err);
    CHECK(strstr(err, "IF (op 1): its subgraph 1 runs IF (op 0): control flow inside an IF "
                      "branch is unsupported") != NULL);
    te_generated_free(gen);
    free(img);
}

int main(void)
{
    run_case(COND_INPUT, 5, "runtime condition, then");
    run_case(COND_INPUT, -5, "runtime condition, else");
    run_case(COND_INPUT, 0, "runtime condition, 0 > 0 is false");
    run_case(COND_TRUE, 0, "constant true");
    run_case(COND_FALSE, 0, "constant false");
    test_constant_condition_unguarded();
    test_nested_refused();
    return test_summary();
}
