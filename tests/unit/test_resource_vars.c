/* test_resource_vars.c - resource variables (VAR_HANDLE, READ_VARIABLE,
 * ASSIGN_VARIABLE) and CALL_ONCE end to end: synthetic streaming models
 * built with tools/tflite_builder, compiled, built with a harness that
 * invokes several times and calls NAME_reset() in between, compared with
 * a plain reference computed here; and the one-line errors of what is not
 * supported. */
#include "e2e_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"
#include "te_common.h"
#include "testlib.h"
#include "tflite_builder.h"
#include "tinyengine.h"

#define RESOURCE 20 /* TensorType RESOURCE */
#define N 4096      /* elements of the variable: its initial value is a string literal */
#define STEPS 5     /* invokes; NAME_reset() before step RESET_AT */
#define RESET_AT 3

/* Invokes `steps` times (input k from in.bin), NAME_reset() before step
 * `reset_at`, appending each output to out.bin. */
static const char harness[] =
    "#include <stdio.h>\n#include <stdlib.h>\n#include \"net.h\"\n"
    "int main(int argc, char **argv)\n{\n"
    "    char p[512]; FILE *fi, *fo; int k, steps = atoi(argv[2]), reset_at = atoi(argv[3]);\n"
    "    (void)argc;\n"
    "    snprintf(p, sizeof p, \"%s/in.bin\", argv[1]); fi = fopen(p, \"rb\");\n"
    "    snprintf(p, sizeof p, \"%s/out.bin\", argv[1]); fo = fopen(p, \"wb\");\n"
    "    if (!fi || !fo) return 2;\n"
    "    for (k = 0; k < steps; k++) {\n"
    "        if (k == reset_at) net_reset();\n"
    "        if (fread(net_input(0), 1, net_input_bytes(0), fi) != net_input_bytes(0)) return 3;\n"
    "        if (net_invoke() != 0) return 4;\n"
    "        if (fwrite(net_output(0), 1, net_output_bytes(0), fo) != net_output_bytes(0)) return 5;\n"
    "    }\n    fclose(fi);\n    return fclose(fo) ? 6 : 0;\n}\n";

/* Compiles the model, runs it `steps` times on in (step_in bytes each),
 * reads the outputs (step_out bytes each) into out.  0, or -1 (printed). */
static int run_steps(const uint8_t *model, size_t size, const void *in, size_t step_in,
                     void *out, size_t step_out, int steps, int reset_at)
{
    char err[512], tmpl[] = "/tmp/te-resvar-XXXXXX", cmd[2048], path[600];
    const char *cc = getenv("CC");
    te_generated *gen = te_compile_memory(model, size, "net", NULL, err, sizeof err);
    char *dir;
    FILE *f;
    int rc = -1;
    if (!gen) {
        printf("compile failed: %s\n", err);
        return -1;
    }
    e2e_save_model(model, size, "resvar");
    dir = mkdtemp(tmpl);
    if (!dir || e2e_write_sources(dir, gen, harness, sizeof harness - 1) < 0 ||
        e2e_write(dir, "in.bin", in, step_in * (size_t)steps) < 0)
        goto done;
    snprintf(cmd, sizeof cmd,
             "%s -std=c99 -O1 -Wall -Wextra -Werror -o %s/net %s/net.c %s/main.c -lm && "
             "%s/net %s %d %d", cc && *cc ? cc : "cc", dir, dir, dir, dir, dir, steps, reset_at);
    if (system(cmd) != 0) {
        printf("build or run failed\n");
        goto done;
    }
    snprintf(path, sizeof path, "%s/out.bin", dir);
    f = fopen(path, "rb");
    if (f) {
        rc = fread(out, 1, step_out * (size_t)steps, f) == step_out * (size_t)steps ? 0 : -1;
        fclose(f);
    }
done:
    if (dir && e2e_remove_dir(dir) < 0)
        rc = -1;
    te_generated_free(gen);
    return rc;
}

/* ---- the model ---------------------------------------------------------- */

typedef struct {
    float sx, sv;          /* scales of the input and of the variable (= ADD output) */
    int64_t zx, zv;
    int with_init;         /* CALL_ONCE with an init subgraph assigning init[] */
    int8_t init[N];
    /* 0: output y = READ + x; 1: also z = READ + y after the ASSIGN, output
     * z (the read value outlives the ASSIGN: it must be a copy); 2: output
     * the READ value itself (a graph output: a copy) */
    int shape_kind;
} acc_case;

static int var_tensor(tflb_model *m, const char *name, const acc_case *c, uint32_t buffer)
{
    static const int32_t shape[2] = {1, N};
    tflb_quant q = tflb_quant1(&c->sv, &c->zv);
    return tflb_add_tensor(m, name, TFLB_INT8, shape, 2, buffer, &q);
}

/* Init subgraph: VAR_HANDLE('acc') -> ASSIGN_VARIABLE(handle, constant). */
static void add_init_subgraph(tflb_model *m, const acc_case *c, int op_vh, int op_assign)
{
    tflb_model *s = tflb_add_subgraph(m);
    tflb_options vh = tflb_opt_var_handle("", "acc");
    int32_t h, v, io[2];
    if (!s)
        return;
    h = tflb_add_tensor(s, "init_handle", RESOURCE, NULL, 0, 0, NULL);
    v = var_tensor(s, "init_value", c, (uint32_t)tflb_add_buffer(m, c->init, N));
    tflb_add_op(s, op_vh, NULL, 0, &h, 1, &vh);
    io[0] = h;
    io[1] = v;
    tflb_add_op(s, op_assign, io, 2, NULL, 0, NULL);
}

/* Subgraph 0: [CALL_ONCE(1)], VAR_HANDLE('acc'), y = READ + x, ASSIGN(y),
 * output y: a streaming accumulator. */
static int build_acc(const acc_case *c, uint8_t **img, size_t *size)
{
    static const int32_t shape[2] = {1, N};
    tflb_model m;
    tflb_quant qx = tflb_quant1(&c->sx, &c->zx);
    tflb_options vh = tflb_opt_var_handle("", "acc"), add = tflb_opt_add(TFLB_ACT_NONE);
    tflb_options once = tflb_opt_call_once(1);
    int op_once, op_vh, op_read, op_assign, op_add, rc;
    int32_t x, h, r, y, io[2];
    tflb_init(&m);
    op_once = tflb_add_opcode(&m, TE_OP_CALL_ONCE, 1);
    op_vh = tflb_add_opcode(&m, TE_OP_VAR_HANDLE, 1);
    op_read = tflb_add_opcode(&m, TE_OP_READ_VARIABLE, 1);
    op_assign = tflb_add_opcode(&m, TE_OP_ASSIGN_VARIABLE, 1);
    op_add = tflb_add_opcode(&m, TE_OP_ADD, 1);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, shape, 2, 0, &qx);
    h = tflb_add_tensor(&m, "handle", RESOURCE, NULL, 0, 0, NULL);
    r = var_tensor(&m, "read", c, 0);
    y = var_tensor(&m, "y", c, 0);
    if (c->with_init)
        tflb_add_op(&m, op_once, NULL, 0, NULL, 0, &once);
    tflb_add_op(&m, op_vh, NULL, 0, &h, 1, &vh);
    tflb_add_op(&m, op_read, &h, 1, &r, 1, NULL);
    io[0] = r;
    io[1] = x;
    tflb_add_op(&m, op_add, io, 2, &y, 1, &add);
    io[0] = h;
    io[1] = y;
    tflb_add_op(&m, op_assign, io, 2, NULL, 0, NULL);
    tflb_set_inputs(&m, &x, 1);
    if (c->shape_kind == 1) {
        int32_t z = var_tensor(&m, "z", c, 0);
        io[0] = r;
        io[1] = y;
        tflb_add_op(&m, op_add, io, 2, &z, 1, &add);
        tflb_set_outputs(&m, &z, 1);
    } else {
        tflb_set_outputs(&m, c->shape_kind == 2 ? &r : &y, 1);
    }
    if (c->with_init)
        add_init_subgraph(&m, c, op_vh, op_assign);
    rc = tflb_finish(&m, img, size);
    tflb_free(&m);
    return rc;
}

/* TFLite Micro's int8 ADD (left shift 20, float ratios), no activation. */
static int8_t ref_add(int8_t a, float sa, int64_t za, int8_t b, float sb, int64_t zb, float so,
                      int64_t zo)
{
    float twice = 2.0f * (sa > sb ? sa : sb);
    int32_t ma, mb, mo, u, v, r;
    int ea, eb, eo;
    te_quantize_multiplier((double)(sa / twice), &ma, &ea);
    te_quantize_multiplier((double)(sb / twice), &mb, &eb);
    te_quantize_multiplier((double)(twice / (1048576.0f * so)), &mo, &eo);
    u = te_rounding_divide_by_pot(
        te_sat_round_doubling_high_mul((a - (int32_t)za) * 1048576, ma), -ea);
    v = te_rounding_divide_by_pot(
        te_sat_round_doubling_high_mul((b - (int32_t)zb) * 1048576, mb), -eb);
    r = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(u + v, mo), -eo) + (int32_t)zo;
    return (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
}

/* The accumulator by hand: the state starts at the init values (or the
 * zero point), each step adds the input, NAME_reset() starts again. */
static void reference(const acc_case *c, const int8_t *in, int8_t *out)
{
    int8_t v[N];
    int k, i;
    for (k = 0; k < STEPS; k++) {
        if (k == 0 || k == RESET_AT)
            for (i = 0; i < N; i++)
                v[i] = c->with_init ? c->init[i] : (int8_t)c->zv;
        for (i = 0; i < N; i++) {
            int8_t old = v[i];
            v[i] = ref_add(v[i], c->sv, c->zv, in[k * N + i], c->sx, c->zx, c->sv, c->zv);
            out[k * N + i] = c->shape_kind == 0   ? v[i]
                             : c->shape_kind == 1 ? ref_add(old, c->sv, c->zv, v[i], c->sv,
                                                            c->zv, c->sv, c->zv)
                                                  : old;
        }
    }
}

static void test_accumulator(const acc_case *c, const char *what)
{
    int8_t in[STEPS * N], out[STEPS * N], want[STEPS * N];
    uint8_t *img = NULL;
    size_t size = 0;
    int i;
    for (i = 0; i < STEPS * N; i++)
        in[i] = (int8_t)((i * 53 + 7) % 61 - 30);
    reference(c, in, want);
    CHECK(build_acc(c, &img, &size) == 0);
    CHECK(run_steps(img, size, in, N, out, N, STEPS, RESET_AT) == 0);
    if (memcmp(out, want, sizeof out) != 0) {
        printf("%s: outputs differ\n  got: ", what);
        for (i = 0; i < STEPS * N; i++)
            printf("%d ", out[i]);
        printf("\n want: ");
        for (i = 0; i < STEPS * N; i++)
            printf("%d ", want[i]);
        printf("\n");
    }
    CHECK(memcmp(out, want, sizeof out) == 0);
    free(img);
}

/* ---- what is refused, with one line naming it ----------------------------- */

enum { BAD_NEVER_ASSIGNED, BAD_INIT_NOT_CONST, BAD_INIT_SIZE, BAD_SUBGRAPH_INDEX, BAD_WHILE };

/* x -> [CALL_ONCE] VAR_HANDLE READ ADD [ASSIGN] -> y, broken as `kind` says. */
static int build_bad(int kind, uint8_t **img, size_t *size)
{
    static const int32_t shape[2] = {1, N}, half[2] = {1, N / 2};
    static const int8_t init[N] = {1, 2, 3, 4};
    static const float sc = 0.1f;
    static const int64_t zp = 0;
    tflb_model m, *sub;
    tflb_quant q = tflb_quant1(&sc, &zp);
    tflb_options vh = tflb_opt_var_handle(NULL, "v"), add = tflb_opt_add(TFLB_ACT_NONE);
    tflb_options once = tflb_opt_call_once(kind == BAD_SUBGRAPH_INDEX ? 5 : 1);
    tflb_options loop = tflb_opt_empty(TE_OPT_WHILE);
    int op_once, op_vh, op_read, op_assign, op_add, rc;
    int32_t x, h, r, y, io[2], sh, sv;
    tflb_init(&m);
    op_once = tflb_add_opcode(&m, kind == BAD_WHILE ? TE_OP_WHILE : TE_OP_CALL_ONCE, 1);
    op_vh = tflb_add_opcode(&m, TE_OP_VAR_HANDLE, 1);
    op_read = tflb_add_opcode(&m, TE_OP_READ_VARIABLE, 1);
    op_assign = tflb_add_opcode(&m, TE_OP_ASSIGN_VARIABLE, 1);
    op_add = tflb_add_opcode(&m, TE_OP_ADD, 1);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, shape, 2, 0, &q);
    h = tflb_add_tensor(&m, "handle", RESOURCE, NULL, 0, 0, NULL);
    r = tflb_add_tensor(&m, "read", TFLB_INT8, shape, 2, 0, &q);
    y = tflb_add_tensor(&m, "y", TFLB_INT8, shape, 2, 0, &q);
    loop.subgraph[0] = 1;
    loop.subgraph[1] = 1;
    tflb_add_op(&m, op_once, NULL, 0, NULL, 0, kind == BAD_WHILE ? &loop : &once);
    tflb_add_op(&m, op_vh, NULL, 0, &h, 1, &vh);
    tflb_add_op(&m, op_read, &h, 1, &r, 1, NULL);
    io[0] = r;
    io[1] = x;
    tflb_add_op(&m, op_add, io, 2, &y, 1, &add);
    if (kind != BAD_NEVER_ASSIGNED) {
        io[0] = h;
        io[1] = y;
        tflb_add_op(&m, op_assign, io, 2, NULL, 0, NULL);
    }
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, &y, 1);
    sub = tflb_add_subgraph(&m);
    if (sub) { /* init: VAR_HANDLE, then ASSIGN of a constant, a READ, or a half */
        sh = tflb_add_tensor(sub, "h", RESOURCE, NULL, 0, 0, NULL);
        sv = tflb_add_tensor(sub, "v", TFLB_INT8, kind == BAD_INIT_SIZE ? half : shape, 2,
                             (uint32_t)tflb_add_buffer(&m, init, kind == BAD_INIT_SIZE ? N / 2 : N),
                             &q);
        tflb_add_op(sub, op_vh, NULL, 0, &sh, 1, &vh);
        if (kind == BAD_INIT_NOT_CONST) {
            sv = tflb_add_tensor(sub, "r", TFLB_INT8, shape, 2, 0, &q);
            tflb_add_op(sub, op_read, &sh, 1, &sv, 1, NULL);
        }
        io[0] = sh;
        io[1] = sv;
        if (kind != BAD_NEVER_ASSIGNED)
            tflb_add_op(sub, op_assign, io, 2, NULL, 0, NULL);
    }
    rc = tflb_finish(&m, img, size);
    tflb_free(&m);
    return rc;
}

static void test_refused(int kind, const char *expect)
{
    char err[512] = "";
    uint8_t *img = NULL;
    size_t size = 0;
    te_generated *gen;
    CHECK(build_bad(kind, &img, &size) == 0);
    gen = te_compile_memory(img, size, "net", NULL, err, sizeof err);
    CHECK(gen == NULL);
    if (!strstr(err, expect))
        printf("expected '%s' in: %s\n", expect, err);
    CHECK(strstr(err, expect) != NULL);
    CHECK(strchr(err, '\n') == NULL);
    printf("refused as expected: %s\n", err);
    te_generated_free(gen);
    free(img);
}

int main(void)
{
    acc_case c = {0.05f, 0.1f, 3, -2, 1, {10, -20, 30, -40}, 0};
    int i;
    for (i = 4; i < N; i++)
        c.init[i] = (int8_t)((i * 37 + 11) % 101 - 50);
    test_accumulator(&c, "int8 accumulator, CALL_ONCE init");
    c.shape_kind = 1;
    test_accumulator(&c, "read value used after the assign");
    c.shape_kind = 2;
    test_accumulator(&c, "read value as the graph output");
    c.shape_kind = 0;
    c.with_init = 0;
    test_accumulator(&c, "int8 accumulator, zero-point start");
    c.sx = 0.02f;
    c.sv = 0.03f;
    c.zx = -7;
    c.zv = 5;
    c.with_init = 1;
    test_accumulator(&c, "int8 accumulator, other scales");
    test_refused(BAD_NEVER_ASSIGNED, "READ_VARIABLE (op 2): resource variable 'v' is never "
                                     "assigned");
    test_refused(BAD_INIT_NOT_CONST, "init subgraph 1 runs READ_VARIABLE (op 1), which is not "
                                     "known at compile time");
    test_refused(BAD_INIT_SIZE, "assigns 2048 bytes");
    test_refused(BAD_SUBGRAPH_INDEX, "CALL_ONCE (op 0): calls subgraph 5 (model has 2 subgraphs");
    test_refused(BAD_WHILE, "WHILE (op 0)");
    return test_summary();
}
