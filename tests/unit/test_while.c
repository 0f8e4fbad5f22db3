/* test_while.c - WHILE inlined as a loop region: synthetic models built
 * with tools/tflite_builder (a counter i < n with LESS and ADD, the trip
 * count from the input data or a constant; loop variables updated by ADD,
 * swapped, or passed on as views), run end to end through the generated
 * API and compared with the same computation unrolled (our compiler on the
 * straight-line model); the generated loop's shape; and the refusals
 * (loop variables that change shape, control flow inside the loop). */
#include "e2e_run.h" /* first: it asks for POSIX (mkdtemp) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "tflite_builder.h"

#define N 6

static const float sx = 0.05f, sw = 0.04f, sc = 0.5f; /* sc: below 1 for LESS */
static const int64_t zx = 1, zw = -2, zc = 0;
static const int32_t shape[2] = {1, N}, one_shape[1] = {1};
static const int8_t w_data[N] = {3, -7, 12, 0, 25, -30};

/* COUNT: (i, n, x) -> (i + 1, n, x + w) while i < n.  SWAP: (i, n, a, b)
 * -> (i + 1, n, b, a + b): a body output that is another loop variable.
 * SWAP_VIEW: the same with a = RESHAPE(b), a view of a loop variable.
 * SWAP_BACK: (i, n, a, b) -> (i + 1, n, a + b, a): the copy into b reads
 * a, which the copy before it wrote (NEXT goes through scratch).
 * CONST_TRIP: COUNT with n a constant 4.  BAD_SHAPE: x + w is wider than
 * x.  NESTED: the body runs an IF. */
enum { COUNT, SWAP, SWAP_VIEW, SWAP_BACK, CONST_TRIP, BAD_SHAPE, NESTED };

typedef struct {
    int less, add, reshape, iff, loop;
} opcodes;

static opcodes add_opcodes(tflb_model *m)
{
    opcodes o;
    o.less = tflb_add_opcode(m, TE_OP_LESS, 1);
    o.add = tflb_add_opcode(m, TE_OP_ADD, 1);
    o.reshape = tflb_add_opcode(m, TE_OP_RESHAPE, 1);
    o.iff = tflb_add_opcode(m, TE_OP_IF, 1);
    o.loop = tflb_add_opcode(m, TE_OP_WHILE, 1);
    return o;
}

static int n_vars(int kind)
{
    return kind == SWAP || kind == SWAP_VIEW || kind == SWAP_BACK ? 4 : 3;
}

/* The loop variables' tensors in subgraph s: counter, limit, then data. */
static void add_vars(tflb_model *s, int kind, const char *pre, int32_t *v)
{
    tflb_quant qx = tflb_quant1(&sx, &zx), qc = tflb_quant1(&sc, &zc);
    char name[32];
    int j;
    snprintf(name, sizeof name, "%s_i", pre);
    v[0] = tflb_add_tensor(s, name, TFLB_INT8, one_shape, 1, 0, &qc);
    snprintf(name, sizeof name, "%s_n", pre);
    v[1] = tflb_add_tensor(s, name, TFLB_INT8, one_shape, 1, 0, &qc);
    for (j = 2; j < n_vars(kind); j++) {
        snprintf(name, sizeof name, "%s_x%d", pre, j);
        v[j] = tflb_add_tensor(s, name, TFLB_INT8, shape, 2, 0, &qx);
    }
}

/* A constant of subgraph s: its data in the model's buffers. */
static int32_t sub_const(tflb_model *m, tflb_model *s, const char *name, const int32_t *shp,
                         int rank, const int8_t *data, size_t bytes, const tflb_quant *q)
{
    return tflb_add_tensor(s, name, TFLB_INT8, shp, rank, (uint32_t)tflb_add_buffer(m, data, bytes),
                           q);
}

/* cond: i < n. */
static void add_cond(tflb_model *m, const opcodes *o, int kind)
{
    tflb_model *s = tflb_add_subgraph(m);
    int32_t v[4], b;
    if (!s)
        return;
    add_vars(s, kind, "c", v);
    b = tflb_add_tensor(s, "c_less", TFLB_BOOL, one_shape, 1, 0, NULL);
    tflb_add_op(s, o->less, v, 2, &b, 1, NULL);
    tflb_set_inputs(s, v, n_vars(kind));
    tflb_set_outputs(s, &b, 1);
}

static void add_body(tflb_model *m, const opcodes *o, int kind)
{
    static const int32_t wide[2] = {1, N + 1};
    static const int8_t one = 1;
    tflb_model *s = tflb_add_subgraph(m);
    tflb_quant qx = tflb_quant1(&sx, &zx), qc = tflb_quant1(&sc, &zc), qw = tflb_quant1(&sw, &zw);
    tflb_options add = tflb_opt_add(TFLB_ACT_NONE), iff = tflb_opt_empty(TE_OPT_IF);
    tflb_options rs = tflb_opt_reshape(shape, 2);
    int32_t v[4], out[4], io[2], c1;
    if (!s)
        return;
    add_vars(s, kind, "b", v);
    c1 = sub_const(m, s, "b_one", one_shape, 1, &one, 1, &qc);
    out[0] = tflb_add_tensor(s, "b_next_i", TFLB_INT8, one_shape, 1, 0, &qc);
    io[0] = v[0];
    io[1] = c1;
    tflb_add_op(s, o->add, io, 2, &out[0], 1, &add);
    out[1] = v[1];
    if (kind == SWAP_BACK) {
        out[2] = tflb_add_tensor(s, "b_sum", TFLB_INT8, shape, 2, 0, &qx);
        io[0] = v[2];
        io[1] = v[3];
        tflb_add_op(s, o->add, io, 2, &out[2], 1, &add);
        out[3] = v[2];
    } else if (kind == SWAP || kind == SWAP_VIEW) {
        out[3] = tflb_add_tensor(s, "b_sum", TFLB_INT8, shape, 2, 0, &qx);
        io[0] = v[2];
        io[1] = v[3];
        tflb_add_op(s, o->add, io, 2, &out[3], 1, &add);
        out[2] = v[3];
        if (kind == SWAP_VIEW) {
            out[2] = tflb_add_tensor(s, "b_view", TFLB_INT8, shape, 2, 0, &qx);
            tflb_add_op(s, o->reshape, &v[3], 1, &out[2], 1, &rs);
        }
    } else {
        int32_t w = sub_const(m, s, "b_w", shape, 2, w_data, N, &qw);
        out[2] = tflb_add_tensor(s, "b_next_x", TFLB_INT8, kind == BAD_SHAPE ? wide : shape, 2,
                                 0, &qx);
        io[0] = v[2];
        io[1] = w;
        if (kind == NESTED) {
            iff.subgraph[0] = iff.subgraph[1] = 1;
            io[0] = c1;
            io[1] = v[2];
            tflb_add_op(s, o->iff, io, 2, &out[2], 1, &iff);
        } else {
            tflb_add_op(s, o->add, io, 2, &out[2], 1, &add);
        }
    }
    tflb_set_inputs(s, v, n_vars(kind));
    tflb_set_outputs(s, out, n_vars(kind));
}

/* Inputs: n (unless CONST_TRIP), then the data variables; outputs: the
 * final counter, then the data variables. */
static int build_loop(int kind, uint8_t **img, size_t *size)
{
    static const int8_t zero = 0, four = 4;
    tflb_model m;
    tflb_quant qc = tflb_quant1(&sc, &zc);
    tflb_options loop = tflb_opt_empty(TE_OPT_WHILE);
    opcodes o;
    int32_t in[4], out[4], ins[4];
    int rc, nv = n_vars(kind), n_ins = 0, j;
    tflb_init(&m);
    o = add_opcodes(&m);
    add_vars(&m, kind, "m", in);
    in[0] = tflb_add_const(&m, "m_i0", TFLB_INT8, one_shape, 1, &zero, 1, &qc);
    if (kind == CONST_TRIP)
        in[1] = tflb_add_const(&m, "m_n4", TFLB_INT8, one_shape, 1, &four, 1, &qc);
    else
        ins[n_ins++] = in[1];
    for (j = 2; j < nv; j++)
        ins[n_ins++] = in[j];
    add_vars(&m, kind, "out", out);
    loop.subgraph[0] = 1;
    loop.subgraph[1] = 2;
    tflb_add_op(&m, o.loop, in, nv, out, nv, &loop);
    tflb_set_inputs(&m, ins, n_ins);
    out[1] = out[0]; /* the limit is not an output */
    tflb_set_outputs(&m, out + 1, nv - 1);
    add_cond(&m, &o, kind);
    add_body(&m, &o, kind);
    rc = tflb_finish(&m, img, size);
    tflb_free(&m);
    return rc;
}

/* The body of COUNT, SWAP or SWAP_BACK run `trips` times in a straight
 * line; inputs: the data variables; output: the last x (COUNT), b (SWAP) or
 * a (SWAP_BACK). */
static int build_unrolled(int kind, int trips, uint8_t **img, size_t *size)
{
    tflb_model m;
    tflb_quant qx = tflb_quant1(&sx, &zx), qw = tflb_quant1(&sw, &zw);
    tflb_options add = tflb_opt_add(TFLB_ACT_NONE);
    opcodes o;
    int32_t v[4], io[2], w, next;
    int rc, k;
    tflb_init(&m);
    o = add_opcodes(&m);
    add_vars(&m, kind, "u", v);
    w = tflb_add_const(&m, "u_w", TFLB_INT8, shape, 2, w_data, N, &qw);
    tflb_set_inputs(&m, v + 2, n_vars(kind) - 2);
    for (k = 0; k < trips; k++) {
        char name[32];
        snprintf(name, sizeof name, "u_step%d", k);
        next = tflb_add_tensor(&m, name, TFLB_INT8, shape, 2, 0, &qx);
        if (kind == COUNT) {
            io[0] = v[2];
            io[1] = w;
            tflb_add_op(&m, o.add, io, 2, &next, 1, &add);
            v[2] = next;
        } else {
            io[0] = v[2];
            io[1] = v[3];
            tflb_add_op(&m, o.add, io, 2, &next, 1, &add);
            v[kind == SWAP ? 2 : 3] = v[kind == SWAP ? 3 : 2];
            v[kind == SWAP ? 3 : 2] = next;
        }
    }
    tflb_set_outputs(&m, &next, 1);
    rc = tflb_finish(&m, img, size);
    tflb_free(&m);
    return rc;
}

static void fill(int8_t *x, int seed)
{
    int i;
    for (i = 0; i < N; i++)
        x[i] = (int8_t)((i * 37 + seed * 11) % 200 - 100);
}

/* The unrolled model's output for `trips` body runs on data a (and b). */
static void unrolled(int kind, int trips, const int8_t *a, const int8_t *b, int8_t *y)
{
    const void *in[2];
    size_t in_bytes[2] = {N, N}, out_bytes[1] = {N};
    void *out[1];
    uint8_t *img = NULL;
    size_t size = 0;
    in[0] = a;
    in[1] = b;
    out[0] = y;
    CHECK(build_unrolled(kind, trips, &img, &size) == 0);
    CHECK(e2e_run(img, size, kind == COUNT ? 1 : 2, in, in_bytes, 1, out, out_bytes) == 0);
    free(img);
}

/* COUNT (or CONST_TRIP) with limit n: the counter ends at max(n, 0), x
 * has had w added that many times. */
static void run_count(int kind, int8_t n)
{
    int8_t x[N], y[N], want[N], count = 0;
    const void *in[2];
    size_t in_bytes[2] = {1, N}, out_bytes[2] = {1, N};
    void *out[2];
    uint8_t *img = NULL;
    size_t size = 0;
    int trips = kind == CONST_TRIP ? 4 : n > 0 ? n : 0, k = 0;
    fill(x, 1);
    if (kind != CONST_TRIP)
        in[k++] = &n;
    else
        in_bytes[0] = N;
    in[k++] = x;
    out[0] = &count;
    out[1] = y;
    CHECK(build_loop(kind, &img, &size) == 0);
    CHECK(e2e_run(img, size, k, in, in_bytes, 2, out, out_bytes) == 0);
    free(img);
    if (trips > 0)
        unrolled(COUNT, trips, x, NULL, want);
    else
        memcpy(want, x, N);
    if (count != trips || memcmp(y, want, N) != 0)
        printf("%s n=%d: counter %d (want %d) or data differ\n",
               kind == CONST_TRIP ? "CONST_TRIP" : "COUNT", n, count, trips);
    CHECK(count == trips);
    CHECK(memcmp(y, want, N) == 0);
}

/* SWAP / SWAP_VIEW with limit n: (a, b) -> (b, a + b) n times. */
static void run_swap(int kind, int8_t n)
{
    int8_t a[N], b[N], ya[N], yb[N], want_a[N], want_b[N], count = 0;
    const void *in[3];
    size_t in_bytes[3] = {1, N, N}, out_bytes[3] = {1, N, N};
    void *out[3];
    uint8_t *img = NULL;
    size_t size = 0;
    fill(a, 2);
    fill(b, 5);
    in[0] = &n;
    in[1] = a;
    in[2] = b;
    out[0] = &count;
    out[1] = ya;
    out[2] = yb;
    CHECK(build_loop(kind, &img, &size) == 0);
    CHECK(e2e_run(img, size, 3, in, in_bytes, 3, out, out_bytes) == 0);
    free(img);
    if (kind == SWAP_BACK) { /* a_k = a_k-1 + b_k-1, b_k = a_k-1 */
        memcpy(want_a, a, N);
        memcpy(want_b, n >= 1 ? a : b, N);
        if (n >= 1)
            unrolled(SWAP_BACK, n, a, b, want_a);
        if (n >= 2)
            unrolled(SWAP_BACK, n - 1, a, b, want_b);
    } else { /* a_k = b_k-1, b_k = a_k-1 + b_k-1 */
        memcpy(want_a, n >= 1 ? b : a, N);
        memcpy(want_b, b, N);
        if (n >= 1)
            unrolled(SWAP, n, a, b, want_b);
        if (n >= 2)
            unrolled(SWAP, n - 1, a, b, want_a);
    }
    if (count != n || memcmp(ya, want_a, N) != 0 || memcmp(yb, want_b, N) != 0)
        printf("%s n=%d: outputs differ\n",
               kind == SWAP ? "SWAP" : kind == SWAP_VIEW ? "SWAP_VIEW" : "SWAP_BACK", n);
    CHECK(count == n);
    CHECK(memcmp(ya, want_a, N) == 0);
    CHECK(memcmp(yb, want_b, N) == 0);
}

/* The converter's counter: (i, n, x) int32 counter and limit, LESS and an
 * int32 ADD; x int8 (x + w, as COUNT) or float32 (x + wf, RELU6). */
static int build_loop32(int f32, uint8_t **img, size_t *size)
{
    static const int32_t zero = 0, one = 1;
    static const float wf[N] = {0.5f, -1.25f, 2.0f, 0.0f, 3.5f, -0.75f};
    tflb_model m, *c, *b;
    tflb_quant qx = tflb_quant1(&sx, &zx), qw = tflb_quant1(&sw, &zw);
    tflb_options loop = tflb_opt_empty(TE_OPT_WHILE), add = tflb_opt_add(TFLB_ACT_NONE);
    tflb_options relu6 = tflb_opt_add(TFLB_ACT_RELU6);
    opcodes o;
    int32_t v[3], out[3], io[2], k, t, rc;
    int dt = f32 ? TFLB_FLOAT32 : TFLB_INT8;
    const tflb_quant *q = f32 ? NULL : &qx;
    tflb_init(&m);
    o = add_opcodes(&m);
    v[0] = tflb_add_const(&m, "i0", TFLB_INT32, one_shape, 1, &zero, 4, NULL);
    v[1] = tflb_add_tensor(&m, "n", TFLB_INT32, one_shape, 1, 0, NULL);
    v[2] = tflb_add_tensor(&m, "x", dt, shape, 2, 0, q);
    out[0] = tflb_add_tensor(&m, "i", TFLB_INT32, one_shape, 1, 0, NULL);
    out[1] = tflb_add_tensor(&m, "n_out", TFLB_INT32, one_shape, 1, 0, NULL);
    out[2] = tflb_add_tensor(&m, "y", dt, shape, 2, 0, q);
    loop.subgraph[0] = 1;
    loop.subgraph[1] = 2;
    tflb_add_op(&m, o.loop, v, 3, out, 3, &loop);
    tflb_set_inputs(&m, v + 1, 2);
    out[1] = out[0];
    tflb_set_outputs(&m, out + 1, 2);
    for (k = 0; k < 2; k++) { /* cond, then body */
        tflb_model *s = tflb_add_subgraph(&m);
        if (!s)
            break;
        v[0] = tflb_add_tensor(s, "s_i", TFLB_INT32, one_shape, 1, 0, NULL);
        v[1] = tflb_add_tensor(s, "s_n", TFLB_INT32, one_shape, 1, 0, NULL);
        v[2] = tflb_add_tensor(s, "s_x", dt, shape, 2, 0, q);
        tflb_set_inputs(s, v, 3);
        if (k == 0) {
            c = s;
            t = tflb_add_tensor(c, "s_less", TFLB_BOOL, one_shape, 1, 0, NULL);
            tflb_add_op(c, o.less, v, 2, &t, 1, NULL);
            tflb_set_outputs(c, &t, 1);
            continue;
        }
        b = s;
        out[0] = tflb_add_tensor(b, "s_next_i", TFLB_INT32, one_shape, 1, 0, NULL);
        io[0] = v[0];
        io[1] = tflb_add_tensor(b, "s_one", TFLB_INT32, one_shape, 1,
                                (uint32_t)tflb_add_buffer(&m, &one, 4), NULL);
        tflb_add_op(b, o.add, io, 2, &out[0], 1, &add);
        out[1] = v[1];
        out[2] = tflb_add_tensor(b, "s_next_x", dt, shape, 2, 0, q);
        io[0] = v[2];
        io[1] = f32 ? tflb_add_tensor(b, "s_wf", TFLB_FLOAT32, shape, 2,
                                      (uint32_t)tflb_add_buffer(&m, wf, sizeof wf), NULL)
                    : sub_const(&m, b, "s_w", shape, 2, w_data, N, &qw);
        tflb_add_op(b, o.add, io, 2, &out[2], 1, f32 ? &relu6 : &add);
        tflb_set_outputs(b, out, 3);
    }
    rc = tflb_finish(&m, img, size);
    tflb_free(&m);
    return rc;
}

static void run_count32(int f32, int32_t n)
{
    static const float wf[N] = {0.5f, -1.25f, 2.0f, 0.0f, 3.5f, -0.75f};
    int8_t x[N], want[N];
    float xf[N], wantf[N];
    union {
        int8_t s8[N];
        float f[N];
    } y;
    int32_t count = -1;
    const void *in[2];
    size_t in_bytes[2] = {4, f32 ? sizeof xf : N}, out_bytes[2] = {4, in_bytes[1]};
    void *out[2];
    uint8_t *img = NULL;
    size_t size = 0;
    int trips = n > 0 ? n : 0, i, k;
    fill(x, 3);
    for (i = 0; i < N; i++)
        xf[i] = wantf[i] = (float)x[i] / 16.0f;
    in[0] = &n;
    in[1] = f32 ? (const void *)xf : (const void *)x;
    out[0] = &count;
    out[1] = &y;
    CHECK(build_loop32(f32, &img, &size) == 0);
    CHECK(e2e_run(img, size, 2, in, in_bytes, 2, out, out_bytes) == 0);
    free(img);
    if (!f32 && trips > 0)
        unrolled(COUNT, trips, x, NULL, want);
    else
        memcpy(want, x, N);
    for (k = 0; k < trips; k++)
        for (i = 0; i < N; i++) {
            float v = wantf[i] + wf[i];
            v = v < 0.0f ? 0.0f : v;
            wantf[i] = 6.0f < v ? 6.0f : v;
        }
    if (count != trips || (f32 ? memcmp(y.f, wantf, sizeof wantf) : memcmp(y.s8, want, N)))
        printf("COUNT32 %s n=%d: counter %d or data differ\n", f32 ? "float" : "int8", (int)n,
               (int)count);
    CHECK(count == trips);
    CHECK(f32 ? memcmp(y.f, wantf, sizeof wantf) == 0 : memcmp(y.s8, want, N) == 0);
}

/* The generated code is one loop: copies in, for (;;), break, copies back. */
static void test_generated_loop(void)
{
    char err[256];
    uint8_t *img = NULL;
    size_t size = 0;
    te_generated *gen;
    CHECK(build_loop(COUNT, &img, &size) == 0);
    gen = te_compile_memory(img, size, "net", NULL, err, sizeof err);
    CHECK(gen != NULL);
    if (gen) {
        CHECK(strstr(gen->source, "    for (;;) {\n") != NULL);
        CHECK(strstr(gen->source, "            break;\n") != NULL);
        CHECK(strstr(gen->source, "te_add_s8") != NULL);
        CHECK(strstr(gen->source, "_SCRATCH") == NULL);
    }
    te_generated_free(gen);
    free(img);
    CHECK(build_loop(SWAP_BACK, &img, &size) == 0); /* staged through scratch */
    gen = te_compile_memory(img, size, "net", NULL, err, sizeof err);
    CHECK(gen != NULL);
    if (gen)
        CHECK(strstr(gen->source, "NET_OP5_SCRATCH + 7") != NULL);
    te_generated_free(gen);
    free(img);
}

/* profile marks the loop's layers as per iteration (te_layer_report.loop). */
static void test_profile_loop(void)
{
    char err[256];
    uint8_t *img = NULL;
    size_t size = 0;
    te_report *r;
    int i, in_loop = 0;
    CHECK(build_loop(SWAP_BACK, &img, &size) == 0);
    r = te_profile_memory(img, size, NULL, err, sizeof err);
    CHECK(r != NULL);
    if (r) {
        for (i = 0; i < r->n_layers; i++)
            in_loop += r->layers[i].loop == 1;
        CHECK(r->layers[0].loop == 0); /* ENTER runs once */
        CHECK(in_loop == r->n_layers - 1);
    }
    te_report_free(r);
    free(img);
}

static void test_refused(int kind, const char *want)
{
    char err[512] = "";
    uint8_t *img = NULL;
    size_t size = 0;
    te_generated *gen;
    CHECK(build_loop(kind, &img, &size) == 0);
    gen = te_compile_memory(img, size, "net", NULL, err, sizeof err);
    CHECK(gen == NULL);
    printf("refused as expected: %s\n", err);
    CHECK(strstr(err, want) != NULL);
    CHECK(strchr(err, '\n') == NULL);
    te_generated_free(gen);
    free(img);
}

int main(void)
{
    static const int8_t limits[] = {3, 1, 0, -2, 7};
    size_t i;
    for (i = 0; i < sizeof limits; i++) {
        run_count(COUNT, limits[i]);
        run_swap(SWAP, limits[i] > 0 ? limits[i] : 0);
        run_swap(SWAP_VIEW, limits[i] > 0 ? limits[i] : 0);
        run_swap(SWAP_BACK, limits[i] > 0 ? limits[i] : 0);
        run_count32(0, limits[i]);
        run_count32(1, limits[i]);
    }
    run_count(CONST_TRIP, 0);
    test_generated_loop();
    test_profile_loop();
    test_refused(BAD_SHAPE, "WHILE (op 0): loop variable 2 is int8, 6 bytes (tensor 'm_x2') but "
                            "the body subgraph's output tensor 'b_next_x' is int8, 7 bytes: loop "
                            "variables that change type or shape (dynamic shapes) are unsupported");
    test_refused(NESTED, "WHILE (op 0): its subgraph 2 runs IF (op 1): control flow inside a "
                         "WHILE loop is unsupported");
    return test_summary();
}
