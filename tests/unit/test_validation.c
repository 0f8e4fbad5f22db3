/* test_validation.c - every validation rule the compiler applies before
 * generating code, one test each: a valid model (tests/unit/op_models.h)
 * is broken in exactly one way and must be refused with one line naming
 * the tensor or operator (the CLI turns that into exit status 1).
 *
 * Rules: FlatBuffer nesting depth, reuse (amplification) budget, schema
 * version, tensor and buffer indices, constant data size vs shape,
 * quantization parameters, operator input/output counts and types, graph
 * cycles and execution order, operator versions, size arithmetic
 * overflow (shapes, element/byte counts, MAC counts). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "frontend/flatbuf.h"
#include "frontend/tflite_reader.h"
#include "op_models.h"
#include "quant/quant.h"
#include "testlib.h"

/* ================================================================ helpers */

/* Loads (all passes and the planner) and generates code; 0 on success. */
static int compile_image(const uint8_t *buf, size_t n, const te_compile_opts *o, te_diag *d)
{
    te_model *m;
    te_buf h, c;
    int rc;
    memset(d, 0, sizeof *d);
    m = te_model_load(buf, n, o, d);
    if (!m)
        return -1;
    memset(&h, 0, sizeof h);
    memset(&c, 0, sizeof c);
    rc = te_model_generate(m, "net", "test", &h, &c, d);
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    return rc;
}

static int compile_model(const tflb_model *m, const te_compile_opts *o, te_diag *d)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    int rc;
    if (tflb_finish(m, &buf, &n) < 0) {
        memset(d, 0, sizeof *d);
        snprintf(d->msg, sizeof d->msg, "(tflb_finish failed)");
        return 0; /* counts as "not refused": the CHECK below fails */
    }
    rc = compile_image(buf, n, o, d);
    free(buf);
    return rc;
}

/* The model must be refused with a message containing every `want`
 * (NULL-terminated list) on one line. */
static void expect_refused(const tflb_model *m, const char *const *want, const char *what,
                           int line)
{
    te_diag d;
    int ok = compile_model(m, NULL, &d) < 0 && d.failed && strchr(d.msg, '\n') == NULL;
    int i;
    for (i = 0; ok && want[i]; i++)
        ok = strstr(d.msg, want[i]) != NULL;
    if (!ok)
        fprintf(stderr, "line %d (%s): expected refusal with '%s', got '%s'\n", line, what,
                want[0], d.failed ? d.msg : "success");
    te_test_report(ok, __FILE__, line, what);
}
#define REFUSED(m, what, ...)                                                  \
    do {                                                                       \
        const char *const want_[] = {__VA_ARGS__, NULL};                       \
        expect_refused((m), want_, (what), __LINE__);                          \
    } while (0)

/* Index of the om_kinds entry called name. */
static int kind(const char *name)
{
    int k;
    for (k = 0; k < OM_N_KINDS; k++)
        if (strcmp(om_kinds[k].name, name) == 0)
            return k;
    fprintf(stderr, "no op model '%s'\n", name);
    exit(2);
}

static void build(const char *name, tflb_model *m)
{
    if (om_build(kind(name), m) < 0) {
        fprintf(stderr, "cannot build op model '%s'\n", name);
        exit(2);
    }
}

/* "CONV_2D (op 0)" for op i of model m, as te_op_fail writes it. */
static const char *op_label(const tflb_model *m, int i, char *buf, size_t n)
{
    int code = m->opcodes[m->ops[i].opcode].builtin;
    snprintf(buf, n, "%s (op %d)", te_opcode_name(code), i);
    return buf;
}

/* ================================================================ valid models */

/* Every op model compiles, with the defaults and with each option. */
static void test_op_models_compile(void)
{
    static const int variants[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 2}};
    int k, v;
    for (k = 0; k < OM_N_KINDS; k++)
        for (v = 0; v < 4; v++) {
            te_compile_opts o = TE_COMPILE_OPTS_DEFAULT;
            tflb_model m;
            te_diag d;
            int rc;
            o.int8_io = variants[v][0];
            o.patch.mode = variants[v][1] ? TE_PATCH_AUTO : TE_PATCH_OFF;
            o.target = variants[v][2];
            build(om_kinds[k].name, &m);
            rc = compile_model(&m, &o, &d);
            if (rc < 0)
                fprintf(stderr, "op model %s (variant %d): %s\n", om_kinds[k].name, v, d.msg);
            CHECK(rc == 0);
            tflb_free(&m);
        }
}

/* ================================================================ FlatBuffer structure */

/* A chain of `depth` tables, each holding field 0 = offset to the next;
 * walks it with fb_table_field and returns the depth reached. */
static int walk_chain(int depth, te_diag *d)
{
    fbb b;
    fbb_ref ref = 0;
    const uint8_t *img;
    size_t size;
    fb_buf buf;
    fb_table t, next;
    int i, present = 1, reached = 1;
    fbb_init(&b);
    for (i = 0; i < depth; i++) {
        fbb_start(&b);
        if (ref)
            fbb_add_ref(&b, 0, ref);
        fbb_add_u32(&b, 1, (uint32_t)i);
        ref = fbb_end(&b);
    }
    fbb_finish(&b, ref, NULL);
    img = fbb_data(&b, &size);
    memset(d, 0, sizeof *d);
    buf.data = img;
    buf.size = size;
    buf.d = d;
    if (fb_root(&buf, "Chain", &t) == 0)
        while (present) {
            if (fb_table_field(&t, 0, "Chain", &next, &present) < 0) {
                reached = -reached;
                break;
            }
            if (present) {
                t = next;
                reached++;
            }
        }
    fbb_free(&b);
    return reached;
}

static void test_nesting_depth(void)
{
    te_diag d;
    CHECK(walk_chain(10, &d) == 10 && !d.failed);
    CHECK(walk_chain(FB_MAX_DEPTH, &d) == FB_MAX_DEPTH && !d.failed);
    CHECK(walk_chain(FB_MAX_DEPTH + 5, &d) == -FB_MAX_DEPTH && d.failed &&
          strstr(d.msg, "nested more than 64 deep") != NULL);
}

/* 3000 tensors that all point at one Tensor table whose name is 60000
 * bytes: a 70 KB file that would make the reader copy 180 MB. */
static size_t amplified_model(uint8_t **out)
{
    enum { N = 3000, NAME = 60000 };
    static char name[NAME + 1];
    fbb b;
    fbb_ref tensor, refs[N], sg, sgs, model, sname, shape;
    const uint8_t *img;
    size_t size;
    int32_t dims[1] = {4};
    int i;
    memset(name, 'n', NAME);
    fbb_init(&b);
    sname = fbb_string(&b, name);
    shape = fbb_vec_i32(&b, dims, 1);
    fbb_start(&b);
    fbb_add_ref(&b, 3, sname);
    fbb_add_ref(&b, 0, shape);
    fbb_add_u8(&b, 1, 9);
    tensor = fbb_end(&b);
    for (i = 0; i < N; i++)
        refs[i] = tensor;
    refs[0] = fbb_vec_ref(&b, refs, N);
    fbb_start(&b);
    fbb_add_ref(&b, 0, refs[0]);
    sg = fbb_end(&b);
    sgs = fbb_vec_ref(&b, &sg, 1);
    fbb_start(&b);
    fbb_add_ref(&b, 2, sgs);
    fbb_add_u32(&b, 0, 3);
    model = fbb_end(&b);
    fbb_finish(&b, model, "TFL3");
    img = fbb_data(&b, &size);
    *out = malloc(size);
    memcpy(*out, img, size);
    fbb_free(&b);
    return size;
}

static void test_reuse_budget(void)
{
    uint8_t *img;
    size_t n = amplified_model(&img);
    te_diag d;
    te_graph *g;
    memset(&d, 0, sizeof d);
    g = te_load_tflite(img, n, &d);
    CHECK(g == NULL && strstr(d.msg, "reuse the same data") != NULL);
    te_graph_free(g);
    free(img);
}

static void test_schema_version(void)
{
    tflb_model m;
    build("conv2d", &m);
    m.schema_version = 2;
    REFUSED(&m, "schema 2", "schema version 2 (expected 3)");
    m.schema_version = 4;
    REFUSED(&m, "schema 4", "schema version 4 (expected 3)");
    tflb_free(&m);
}

/* ================================================================ indices */

static void test_tensor_indices(void)
{
    tflb_model m;
    build("add", &m);
    m.ops[0].in[1] = m.n_tensors;
    REFUSED(&m, "input index", "ADD (op 0): input 1 is tensor 3, out of range");
    m.ops[0].in[1] = -2;
    REFUSED(&m, "negative input index", "ADD (op 0): input 1 is tensor -2, out of range");
    m.ops[0].in[1] = 1;
    m.ops[0].out[0] = 7;
    REFUSED(&m, "output index", "ADD (op 0): output 0 is tensor 7, out of range");
    m.ops[0].out[0] = 2;
    m.outputs[0] = -1;
    REFUSED(&m, "graph output index", "outputs[0] is tensor -1, out of range");
    m.outputs[0] = 2;
    m.inputs[1] = 99;
    REFUSED(&m, "graph input index", "inputs[1] is tensor 99, out of range");
    m.inputs[1] = 1;
    m.ops[0].opcode = 5;
    REFUSED(&m, "opcode index", "op 0: opcode_index 5 is out of range");
    tflb_free(&m);
}

static void test_buffer_indices(void)
{
    tflb_model m;
    build("conv2d", &m);
    m.tensors[1].buffer = (uint32_t)m.n_buffers;
    REFUSED(&m, "buffer index", "tensor 1 'w': buffer index 3 is out of range");
    m.tensors[1].buffer = 0xffffffffu;
    REFUSED(&m, "huge buffer index", "tensor 1 'w': buffer index 4294967295 is out of range");
    tflb_free(&m);
}

/* ================================================================ data and shapes */

static void test_constant_size(void)
{
    tflb_model m;
    build("conv2d", &m);
    m.buffers[m.tensors[1].buffer].bytes = 100; /* 3x3x3x4 = 108 */
    REFUSED(&m, "short weights", "tensor 1 'w': has 100 bytes of constant data, but its shape "
                                 "needs 108");
    tflb_free(&m);
    build("conv2d", &m);
    m.tensors[2].shape[0] = 4; /* bias: 3 int32 in the buffer */
    m.tensors[2].n_scale = m.tensors[2].n_zp = 1;
    REFUSED(&m, "bias shape", "tensor 2 'b': has 12 bytes of constant data, but its shape needs 16");
    tflb_free(&m);
    build("transpose", &m);
    m.tensors[1].type = TFLB_INT64; /* perm: 4 int32 read as int64 */
    REFUSED(&m, "index type", "tensor 1 'perm': has 16 bytes", "needs 32");
    tflb_free(&m);
}

static void test_shape_overflow(void)
{
    tflb_model m;
    build("relu", &m);
    m.tensors[1].rank = 4;
    m.tensors[1].shape[0] = 0;
    m.tensors[1].shape[1] = m.tensors[1].shape[2] = 65536;
    m.tensors[1].shape[3] = 65536; /* 0 elements, but 2^48 once the 0 is gone */
    REFUSED(&m, "zero dim hides overflow", "tensor 1 'y': has more than 2^31-1 elements");
    m.tensors[1].shape[0] = 2147483647;
    m.tensors[1].shape[1] = m.tensors[1].shape[2] = m.tensors[1].shape[3] = 2147483647;
    REFUSED(&m, "2^124 elements", "tensor 1 'y': has more than 2^31-1 elements");
    tflb_free(&m);
    build("dequantize", &m);
    m.tensors[1].shape[1] = 1 << 29; /* float32: 2^31 bytes */
    REFUSED(&m, "2^31 bytes", "tensor 1 'y': byte size is more than 2^31-1");
    tflb_free(&m);
}

/* Checked element and byte counts on tensors no reader made. */
static void test_checked_counts(void)
{
    te_tensor t;
    memset(&t, 0, sizeof t);
    t.type = TE_DT_INT32;
    t.rank = 6;
    t.shape[0] = t.shape[1] = t.shape[2] = t.shape[3] = t.shape[4] = t.shape[5] = 2147483647;
    CHECK(te_tensor_elems(&t) == INT64_MAX);
    CHECK(te_tensor_bytes(&t) == (size_t)-1);
    t.shape[3] = 0;
    CHECK(te_tensor_elems(&t) == 0 && te_tensor_bytes(&t) == 0);
    t.rank = 2;
    t.shape[0] = 1 << 20;
    t.shape[1] = 3;
    CHECK(te_tensor_elems(&t) == 3 << 20 && te_tensor_bytes(&t) == (size_t)12 << 20);
    t.rank = 0;
    CHECK(te_tensor_elems(&t) == 1 && te_tensor_bytes(&t) == 4);
}

/* Multipliers of degenerate ratios: no undefined float-to-int conversion. */
static void test_degenerate_multipliers(void)
{
    int32_t m = 1;
    int shift = 1;
    te_quantize_multiplier((double)INFINITY, &m, &shift);
    CHECK(m == INT32_MAX && shift == 1000);
    te_quantize_multiplier((double)NAN, &m, &shift);
    CHECK(m == 0 && shift == 0);
    te_quantize_multiplier(0.75, &m, &shift);
    CHECK(m == 1610612736 && shift == 0);
}

/* A depthwise convolution over a 32768 x 32768 image with a 64 x 64
 * filter: every tensor is legal (< 2^31 bytes) but 2^42 MACs are not. */
static void test_mac_limit(void)
{
    tflb_model m;
    int32_t big[4] = {1, 32768, 32768, 1}, ws[4] = {1, 64, 64, 1}, in[3];
    static int8_t w[64 * 64];
    float scale = 0.01f, wscale = 0.02f, bscale = 0.0002f;
    int64_t zp = 0;
    int32_t bias = 0, one = 1;
    tflb_quant q = tflb_quant1(&scale, &zp), wq = tflb_quant1(&wscale, &zp);
    tflb_quant bq = tflb_quant1(&bscale, &zp);
    tflb_options o = tflb_opt_dwconv2d(TFLB_PAD_SAME, 1, 1, 1, TFLB_ACT_NONE);
    memset(w, 1, sizeof w);
    tflb_init(&m);
    in[0] = tflb_add_tensor(&m, "x", TFLB_INT8, big, 4, 0, &q);
    in[1] = tflb_add_const(&m, "w", TFLB_INT8, ws, 4, w, sizeof w, &wq);
    in[2] = tflb_add_const(&m, "b", TFLB_INT32, &one, 1, &bias, 4, &bq);
    om_op(&m, TE_OP_DEPTHWISE_CONV_2D, in, 3, tflb_add_tensor(&m, "y", TFLB_INT8, big, 4, 0, &q),
          &o);
    om_io(&m, 0, 3);
    REFUSED(&m, "MAC limit", "DEPTHWISE_CONV_2D (op 0): the model needs more than 2^40 "
                             "multiply-accumulates");
    tflb_free(&m);
}

/* ================================================================ quantization */

static void test_quantization(void)
{
    tflb_model m;
    build("conv2d", &m);
    m.tensors[0].scale[0] = 0.0f;
    REFUSED(&m, "scale 0", "tensor 0 'x': quantization scale 0 is 0, must be finite and > 0");
    m.tensors[0].scale[0] = -0.5f;
    REFUSED(&m, "negative scale", "tensor 0 'x': quantization scale 0 is -0.5");
    m.tensors[0].scale[0] = (float)NAN;
    REFUSED(&m, "NaN scale", "tensor 0 'x': quantization scale 0 is", "must be finite");
    m.tensors[0].scale[0] = (float)INFINITY;
    REFUSED(&m, "infinite scale", "tensor 0 'x': quantization scale 0 is inf");
    m.tensors[0].scale[0] = 1e-19f;
    REFUSED(&m, "tiny scale", "tensor 0 'x': quantization scale 0 is 1e-19, outside [2^-60, 2^60]");
    m.tensors[0].scale[0] = 2e18f;
    REFUSED(&m, "huge scale", "tensor 0 'x': quantization scale 0 is 2e+18, outside");
    m.tensors[0].scale[0] = 0.05f;
    m.tensors[1].scale[2] = (float)NAN; /* negative is TFLite's (test_quant_rules.c) */
    REFUSED(&m, "per-channel scale", "tensor 1 'w': quantization scale 2 is nan, must be finite");
    m.tensors[1].scale[2] = 0.01f;
    m.tensors[0].zp[0] = 128;
    REFUSED(&m, "int8 zero point", "tensor 0 'x': zero point 0 is 128, outside int8's range "
                                   "[-128, 127]");
    m.tensors[0].zp[0] = -129;
    REFUSED(&m, "int8 zero point low", "zero point 0 is -129");
    m.tensors[0].zp[0] = 0;
    m.tensors[2].zp[1] = (int64_t)1 << 40;
    REFUSED(&m, "int32 zero point", "tensor 2 'b': zero point 1 is 1099511627776, outside int32");
    tflb_free(&m);

    build("conv2d", &m);
    m.tensors[1].n_zp = 2;
    REFUSED(&m, "scale/zp counts", "tensor 1 'w': quantization has 3 scales but 2 zero points");
    m.tensors[1].n_zp = 3;
    m.tensors[1].qdim = 3;
    REFUSED(&m, "per-channel dimension", "tensor 1 'w': 3 per-channel scales but dimension 3 "
                                         "has 4 entries");
    tflb_free(&m);

    build("conv2d", &m);
    m.tensors[1].qdim = 4;
    REFUSED(&m, "quantized_dimension range", "tensor 1 'w': quantized_dimension 4 is out of "
                                             "range for rank 4");
    m.tensors[1].qdim = -1;
    REFUSED(&m, "negative quantized_dimension", "quantized_dimension -1 is out of range");
    tflb_free(&m);

    build("depthwise_conv2d", &m);
    m.tensors[1].qdim = 0; /* 4 scales along a dimension of 1 */
    REFUSED(&m, "per-channel count", "tensor 1 'w': 4 per-channel scales but dimension 0 has 1 "
                                     "entries");
    tflb_free(&m);
}

/* Rescale factors of 2^31 or more need accumulator shifts of 32 bits or
 * more (undefined in the generated code); just below is fine. */
static void test_rescale_limit(void)
{
    static const struct {
        const char *kind;
        int out;        /* output tensor */
        double base;    /* the factor's numerator: the largest in x w scale */
        const char *want;
    } cases[] = {
        {"conv2d", 3, 0.05 * 0.006, "CONV_2D (op 0): input 0 scale x input 1 scale (channel 2)"},
        {"depthwise_conv2d", 3, 0.05 * 0.007, "DEPTHWISE_CONV_2D (op 0): "},
        {"fully_connected", 3, 0.1 * 0.008, "FULLY_CONNECTED (op 0): input 0 scale x input 1"},
        {"transpose_conv", 4, 0.05 * 0.006, "TRANSPOSE_CONV (op 0): input 2 scale x input 1"},
        {"mul", 2, 0.05 * 0.03, "MUL (op 0): input 0 scale x input 1 scale (channel 0)"},
        {"mean", 2, 0.05, "MEAN (op 0): input 0 scale / output scale = 2.14"},
        {"requantize", 1, 0.06, "QUANTIZE (op 0): input 0 scale / output scale = 2.14"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tflb_model m;
        te_diag d;
        build(cases[i].kind, &m);
        m.tensors[cases[i].out].scale[0] = (float)(cases[i].base / (2147483648.0 * 1.0001));
        REFUSED(&m, cases[i].kind, cases[i].want);
        m.tensors[cases[i].out].scale[0] = (float)(cases[i].base / (2147483648.0 * 0.999));
        if (strcmp(cases[i].kind, "depthwise_conv2d") != 0) /* its RELU6 refuses first */
            CHECK(compile_model(&m, NULL, &d) == 0);
        tflb_free(&m);
    }
}

/* ================================================================ operators */

/* Every operator: no inputs at all, one output too many, an int32 input
 * activation (the graph input, so a type the API passes through; for
 * QUANTIZE, which takes several input types, a float32 output). */
static void test_op_counts_and_types(void)
{
    int k;
    for (k = 0; k < OM_N_KINDS; k++) {
        tflb_model m;
        char label[64];
        int32_t extra, two[2];
        int n_saved;
        if (strcmp(om_kinds[k].name, "network") == 0)
            continue;
        build(om_kinds[k].name, &m);
        op_label(&m, 0, label, sizeof label);
        n_saved = m.ops[0].n_in;
        m.ops[0].n_in = 0;
        REFUSED(&m, om_kinds[k].name, label, "inputs, expected");
        m.ops[0].n_in = n_saved;

        extra = tflb_add_tensor(&m, "extra", m.tensors[m.ops[0].out[0]].type,
                                m.tensors[m.ops[0].out[0]].shape, m.tensors[m.ops[0].out[0]].rank,
                                0, NULL);
        two[0] = m.ops[0].out[0];
        two[1] = extra;
        free(m.ops[0].out);
        m.ops[0].out = malloc(sizeof two);
        memcpy(m.ops[0].out, two, sizeof two);
        m.ops[0].n_out = 2;
        REFUSED(&m, om_kinds[k].name, label, "has 2 outputs, expected 1");
        m.ops[0].n_out = 1;

        if (m.opcodes[0].builtin == TE_OP_QUANTIZE) { /* takes many input types */
            m.tensors[m.outputs[0]].type = TFLB_FLOAT32;
            REFUSED(&m, om_kinds[k].name, label, "float32");
        } else {
            m.tensors[m.inputs[0]].type = TFLB_INT32; /* 4-byte activations: nobody's */
            REFUSED(&m, om_kinds[k].name, label, "int32");
        }
        tflb_free(&m);
    }
}

static void test_op_versions(void)
{
    tflb_model m;
    te_diag d;
    build("softmax", &m);
    m.opcodes[0].version = 0; /* TFLite Micro ignores versions */
    CHECK(compile_model(&m, NULL, &d) == 0);
    m.opcodes[0].version = -3;
    REFUSED(&m, "version -3", "operator_codes[0] (SOFTMAX) has version -3, outside 0..100");
    m.opcodes[0].version = 101;
    REFUSED(&m, "version 101", "has version 101");
    m.opcodes[0].version = 100;
    CHECK(compile_model(&m, NULL, &d) == 0);
    m.opcodes[0].version = 3;
    CHECK(compile_model(&m, NULL, &d) == 0);
    tflb_free(&m);
}

/* ================================================================ graph order */

static void swap_ops(tflb_model *m, int a, int b)
{
    tflb_op t = m->ops[a];
    m->ops[a] = m->ops[b];
    m->ops[b] = t;
}

static void test_graph_order(void)
{
    tflb_model m;
    build("relu", &m);
    m.ops[0].in[0] = m.ops[0].out[0]; /* reads its own output */
    REFUSED(&m, "self loop", "RELU (op 0): input 0 (tensor 1 'y') is also its own output",
            "cycle");
    tflb_free(&m);

    build("network", &m);
    swap_ops(&m, 2, 3); /* ADD now reads the depthwise output before it exists */
    REFUSED(&m, "out of order", "ADD (op 2): input 1 (tensor 3 'd') is written by op 3, which "
                                "runs later");
    swap_ops(&m, 2, 3);
    m.ops[1].in[0] = m.ops[3].out[0]; /* CONV reads ADD's output: a real cycle */
    REFUSED(&m, "cycle", "CONV_2D (op 1): input 0", "is written by op 3");
    tflb_free(&m);

    build("add", &m);
    m.n_inputs = 1; /* tensor 1 is now read but never written */
    REFUSED(&m, "never written", "ADD (op 0): input 1 (tensor 1 'b') is never written");
    tflb_free(&m);

    build("relu", &m);
    m.inputs[0] = 1; /* the graph input is the op's output */
    REFUSED(&m, "input written", "graph input 0 (tensor 1 'y') is also written by RELU (op 0)");
    tflb_free(&m);
}

int main(void)
{
    test_op_models_compile();
    test_nesting_depth();
    test_reuse_budget();
    test_schema_version();
    test_tensor_indices();
    test_buffer_indices();
    test_constant_size();
    test_shape_overflow();
    test_checked_counts();
    test_degenerate_multipliers();
    test_mac_limit();
    test_quantization();
    test_rescale_limit();
    test_op_counts_and_types();
    test_op_versions();
    test_graph_order();
    return test_summary();
}
