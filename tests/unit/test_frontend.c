/* test_frontend.c - the .tflite reader (src/frontend) on models built in
 * memory: decoding of opcodes, shapes, quantization, options and constant
 * data, then every kind of malformed input (must fail with a message, never
 * crash: run under ASan/UBSan), truncation at every length and random
 * corruption.
 *
 * The models come from a tiny FlatBuffer writer below: a tree of nodes
 * (tables, scalar vectors, strings, table vectors) serialized front to
 * back, so every uoffset points forward as the format requires. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/tflite_reader.h"
#include "testlib.h"

/* ================================================================ builder */

enum { K_TABLE, K_VEC, K_STRING, K_TABLES };

typedef struct node node;
typedef struct {
    int id;
    int width;          /* scalar bytes, or 0 for an offset to child */
    uint64_t bits;
    node *child;
} field;

struct node {
    int kind;
    field f[16];
    int nf;
    uint8_t bytes[64];  /* K_VEC / K_STRING payload */
    uint32_t len;       /* element count */
    int elem;
    node *items[16];    /* K_TABLES */
    int vt_after;       /* K_TABLE: put the vtable after the table */
    node *share_vt;     /* K_TABLE: reuse this (earlier) table's vtable */
    size_t pos;         /* where it was written: table start / length word */
    size_t vt_pos;
};

static node pool[512];
static int pool_used;

static node *nn(int kind)
{
    node *n;
    if (pool_used == (int)(sizeof pool / sizeof pool[0])) {
        fprintf(stderr, "test node pool exhausted\n");
        exit(2);
    }
    n = &pool[pool_used++];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    return n;
}

static node *table(void) { return nn(K_TABLE); }

static field *set_field(node *t, int id)
{
    int i;
    for (i = 0; i < t->nf; i++)
        if (t->f[i].id == id)
            return &t->f[i];
    t->f[t->nf].id = id;
    return &t->f[t->nf++];
}

static void put(node *t, int id, int width, uint64_t bits)
{
    field *f = set_field(t, id);
    f->width = width;
    f->bits = bits;
    f->child = NULL;
}
static void put_i32(node *t, int id, int32_t v) { put(t, id, 4, (uint32_t)v); }
static void put_u8(node *t, int id, int v) { put(t, id, 1, (uint8_t)v); }
static void put_u64(node *t, int id, uint64_t v) { put(t, id, 8, v); }
static void put_f32(node *t, int id, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put(t, id, 4, u);
}
static void put_child(node *t, int id, node *c)
{
    field *f = set_field(t, id);
    f->width = 0;
    f->child = c;
}
static node *child_of(node *t, int id)
{
    return set_field(t, id)->child;
}

static void drop(node *t, int id)
{
    int i;
    for (i = 0; i < t->nf; i++)
        if (t->f[i].id == id) {
            t->f[i] = t->f[--t->nf];
            return;
        }
}

static node *vec_raw(const void *data, uint32_t len, int elem)
{
    node *v = nn(K_VEC);
    v->len = len;
    v->elem = elem;
    if (len * (uint32_t)elem > sizeof v->bytes) {
        fprintf(stderr, "test vector too long\n");
        exit(2);
    }
    memcpy(v->bytes, data, len * (size_t)elem);
    return v;
}

/* Little-endian int32 vector from a list terminated by a sentinel. */
static node *vec_i32(int n, const int32_t *v)
{
    uint8_t b[64];
    int i;
    for (i = 0; i < n; i++) {
        uint32_t u = (uint32_t)v[i];
        b[4 * i] = (uint8_t)u;
        b[4 * i + 1] = (uint8_t)(u >> 8);
        b[4 * i + 2] = (uint8_t)(u >> 16);
        b[4 * i + 3] = (uint8_t)(u >> 24);
    }
    return vec_raw(b, (uint32_t)n, 4);
}
static node *vec_f32(int n, const float *v)
{
    int32_t u[16];
    int i;
    for (i = 0; i < n; i++)
        memcpy(&u[i], &v[i], 4);
    return vec_i32(n, u);
}
static node *vec_i64(int n, const int64_t *v)
{
    uint8_t b[64];
    int i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 8; k++)
            b[8 * i + k] = (uint8_t)((uint64_t)v[i] >> (8 * k));
    return vec_raw(b, (uint32_t)n, 8);
}
static node *str(const char *s)
{
    node *v = vec_raw(s, (uint32_t)strlen(s), 1);
    v->kind = K_STRING;
    return v;
}
static node *tables(int n, node **items)
{
    node *v = nn(K_TABLES);
    v->len = (uint32_t)n;
    if (n)
        memcpy(v->items, items, sizeof(node *) * (size_t)n);
    return v;
}

/* ------------------------------------------------------------ serializer */

static uint8_t out[1 << 16];
static size_t out_len;

static void align_to(size_t a)
{
    while (out_len % a)
        out[out_len++] = 0;
}
static void w8(uint8_t v) { out[out_len++] = v; }
static void w16(uint16_t v) { w8((uint8_t)v); w8((uint8_t)(v >> 8)); }
static void w32(uint32_t v) { w16((uint16_t)v); w16((uint16_t)(v >> 16)); }
static void patch32(size_t at, uint32_t v)
{
    out[at] = (uint8_t)v;
    out[at + 1] = (uint8_t)(v >> 8);
    out[at + 2] = (uint8_t)(v >> 16);
    out[at + 3] = (uint8_t)(v >> 24);
}

static void write_node(node *n);

/* Field offsets inside the table (4 = first byte after the soffset). */
static size_t layout(node *t, uint16_t *offs, int *nslots)
{
    size_t off = 4;
    int i;
    *nslots = 0;
    memset(offs, 0, sizeof(uint16_t) * 32);
    for (i = 0; i < t->nf; i++) {
        size_t w = t->f[i].width ? (size_t)t->f[i].width : 4;
        while (off % w)
            off++;
        offs[t->f[i].id] = (uint16_t)off;
        off += w;
        if (t->f[i].id + 1 > *nslots)
            *nslots = t->f[i].id + 1;
    }
    while (off % 4)
        off++;
    return off;
}

static void write_vtable(node *t, const uint16_t *offs, int nslots, size_t tsize)
{
    int i;
    align_to(2);
    t->vt_pos = out_len;
    w16((uint16_t)(4 + 2 * nslots));
    w16((uint16_t)tsize);
    for (i = 0; i < nslots; i++)
        w16(offs[i]);
}

static void write_table(node *t)
{
    uint16_t offs[32];
    int nslots, i;
    size_t tsize = layout(t, offs, &nslots);
    if (t->share_vt)
        t->vt_pos = t->share_vt->vt_pos;
    else if (!t->vt_after)
        write_vtable(t, offs, nslots, tsize);
    align_to(8);
    t->pos = out_len;
    memset(out + out_len, 0, tsize);
    out_len += tsize;
    for (i = 0; i < t->nf; i++) {
        const field *f = &t->f[i];
        int k;
        for (k = 0; k < f->width; k++)
            out[t->pos + offs[f->id] + k] = (uint8_t)(f->bits >> (8 * k));
    }
    if (t->vt_after && !t->share_vt)
        write_vtable(t, offs, nslots, tsize);
    patch32(t->pos, (uint32_t)(int32_t)((long)t->pos - (long)t->vt_pos));
    for (i = 0; i < t->nf; i++)
        if (!t->f[i].width) {
            size_t at = t->pos + offs[t->f[i].id];
            write_node(t->f[i].child);
            patch32(at, (uint32_t)(t->f[i].child->pos - at));
        }
}

static void write_node(node *n)
{
    uint32_t i;
    if (n->kind == K_TABLE) {
        write_table(n);
        return;
    }
    /* elements 16-byte aligned like converter output for buffers */
    while ((out_len + 4) % 16)
        w8(0);
    n->pos = out_len;
    w32(n->len);
    if (n->kind == K_TABLES) {
        for (i = 0; i < n->len; i++)
            w32(0);
        for (i = 0; i < n->len; i++) {
            size_t at = n->pos + 4 + 4 * i;
            write_node(n->items[i]);
            patch32(at, (uint32_t)(n->items[i]->pos - at));
        }
        return;
    }
    memcpy(out + out_len, n->bytes, n->len * (size_t)n->elem);
    out_len += n->len * (size_t)n->elem;
    if (n->kind == K_STRING)
        w8(0);
}

/* Root offset, "TFL3", then the tree. */
static size_t serialize(node *root)
{
    out_len = 0;
    w32(0);
    w8('T'); w8('F'); w8('L'); w8('3');
    write_node(root);
    patch32(0, (uint32_t)root->pos);
    return out_len;
}

/* ================================================================ models */

/* Handles to the nodes tests mutate. */
typedef struct {
    node *model, *subgraph, *tensors_vec, *ops_vec, *opcodes_vec, *buffers_vec;
    node *tensor[8], *quant[8], *op[4], *buffer[4], *opcode[8];
} model_t;

static node *quant(int n, const float *scale, const int64_t *zp, int qdim)
{
    node *q = table();
    put_child(q, 2, vec_f32(n, scale));
    put_child(q, 3, vec_i64(n, zp));
    if (qdim)
        put_i32(q, 6, qdim);
    return q;
}

static node *tensor(const char *name, int type, int rank, const int32_t *shape, int buffer)
{
    node *t = table();
    put_child(t, 0, vec_i32(rank, shape));
    put_u8(t, 1, type);
    if (buffer)
        put_i32(t, 2, buffer);
    if (name)
        put_child(t, 3, str(name));
    return t;
}

static node *op(int opcode_index, int nin, const int32_t *in, int nout, const int32_t *outs)
{
    node *o = table();
    if (opcode_index)
        put_i32(o, 0, opcode_index);
    put_child(o, 1, vec_i32(nin, in));
    put_child(o, 2, vec_i32(nout, outs));
    return o;
}

static node *buffer(const void *data, uint32_t n)
{
    node *b = table();
    if (n)
        put_child(b, 0, vec_raw(data, n, 1));
    return b;
}

/* conv(VALID, stride 1x2, relu6) -> reshape(shape tensor) -> softmax. */
static void build_basic(model_t *m)
{
    static const int32_t s_in[] = {1, 4, 4, 2}, s_w[] = {3, 1, 1, 2}, s_b[] = {3},
                         s_conv[] = {1, 2, 4, 3}, s_shape[] = {2}, s_flat[] = {1, 24};
    static const uint8_t w_data[] = {1, 2, 3, 4, 5, 6};
    static const int32_t b_data[] = {100, -200, 300}, shape_data[] = {1, 24};
    static const float sc_in[] = {0.5f}, sc_w[] = {0.1f, 0.2f, 0.3f}, sc_b[] = {0.05f, 0.1f, 0.15f},
                       sc_out[] = {0.25f};
    static const int64_t zp_in[] = {-3}, zp0[] = {0, 0, 0}, zp_out[] = {5};
    static const int32_t op0_in[] = {0, 1, 2}, op0_out[] = {3}, op1_in[] = {3, 4},
                         op1_out[] = {5}, op2_in[] = {5}, op2_out[] = {6};
    static const int32_t sg_in[] = {0}, sg_out[] = {6};
    node *sgs[1];
    node *conv_opt, *sm_opt;
    int i;

    memset(m, 0, sizeof *m);
    pool_used = 0;
    conv_opt = table();
    sm_opt = table();
    m->tensor[0] = tensor("input", 9, 4, s_in, 0);
    m->tensor[1] = tensor("weights", 9, 4, s_w, 1);
    m->tensor[2] = tensor("bias", 2, 1, s_b, 2);
    m->tensor[3] = tensor("conv_out", 9, 4, s_conv, 0);
    m->tensor[4] = tensor("shape", 2, 1, s_shape, 3);
    m->tensor[5] = tensor("flat", 9, 2, s_flat, 0);
    m->tensor[6] = tensor(NULL, 9, 2, s_flat, 0); /* no name */
    m->quant[0] = quant(1, sc_in, zp_in, 0);
    m->quant[1] = quant(3, sc_w, zp0, 0);
    m->quant[2] = quant(3, sc_b, zp0, 0);
    m->quant[3] = quant(1, sc_out, zp_out, 0);
    for (i = 0; i < 4; i++)
        put_child(m->tensor[i], 4, m->quant[i]);
    m->tensors_vec = tables(7, m->tensor);

    put_u8(conv_opt, 0, 1);      /* VALID */
    put_i32(conv_opt, 1, 1);     /* stride_w */
    put_i32(conv_opt, 2, 2);     /* stride_h */
    put_u8(conv_opt, 3, 3);      /* RELU6; dilations absent */
    put_f32(sm_opt, 0, 1.0f);
    m->op[0] = op(0, 3, op0_in, 1, op0_out);
    put_u8(m->op[0], 3, TE_OPT_CONV2D);
    put_child(m->op[0], 4, conv_opt);
    m->op[1] = op(1, 2, op1_in, 1, op1_out);
    m->op[2] = op(2, 1, op2_in, 1, op2_out);
    put_u8(m->op[2], 3, TE_OPT_SOFTMAX);
    put_child(m->op[2], 4, sm_opt);
    m->ops_vec = tables(3, m->op);

    m->subgraph = table();
    put_child(m->subgraph, 0, m->tensors_vec);
    put_child(m->subgraph, 1, vec_i32(1, sg_in));
    put_child(m->subgraph, 2, vec_i32(1, sg_out));
    put_child(m->subgraph, 3, m->ops_vec);
    put_child(m->subgraph, 4, str("main"));

    /* CONV_2D old style (deprecated code only, version 3), RESHAPE new
     * style (builtin_code only), SOFTMAX both, GELU (a code past 127) with
     * the placeholder, CUSTOM with a name. */
    m->opcode[0] = table();
    put_u8(m->opcode[0], 0, TE_OP_CONV_2D);
    put_i32(m->opcode[0], 2, 3);
    m->opcode[1] = table();
    put_i32(m->opcode[1], 3, TE_OP_RESHAPE);
    m->opcode[2] = table();
    put_u8(m->opcode[2], 0, TE_OP_SOFTMAX);
    put_i32(m->opcode[2], 3, TE_OP_SOFTMAX);
    put_i32(m->opcode[2], 2, 2);
    m->opcode[3] = table();
    put_u8(m->opcode[3], 0, TE_OP_PLACEHOLDER_FOR_GREATER_OP_CODES);
    put_i32(m->opcode[3], 3, TE_OP_GELU);
    m->opcode[4] = table();
    put_i32(m->opcode[4], 3, TE_OP_CUSTOM);
    put_child(m->opcode[4], 1, str("MyCustomOp"));
    m->opcodes_vec = tables(5, m->opcode);

    m->buffer[0] = buffer(NULL, 0);
    m->buffer[1] = buffer(w_data, sizeof w_data);
    m->buffer[2] = buffer(b_data, sizeof b_data); /* host is little-endian in tests */
    m->buffer[3] = buffer(shape_data, sizeof shape_data);
    m->buffers_vec = tables(4, m->buffer);

    sgs[0] = m->subgraph;
    m->model = table();
    put_i32(m->model, 0, 3);
    put_child(m->model, 1, m->opcodes_vec);
    put_child(m->model, 2, tables(1, sgs));
    put_child(m->model, 3, str("test model"));
    put_child(m->model, 4, m->buffers_vec);
}

/* ================================================================ helpers */

static te_graph *load(size_t n, te_diag *d)
{
    memset(d, 0, sizeof *d);
    return te_load_tflite(out, n, d);
}

/* Loads the current image; it must fail and the message contain `want`. */
static void expect_fail(size_t n, const char *want, int line)
{
    te_diag d;
    te_graph *g = load(n, &d);
    int ok = !g && d.failed && strstr(d.msg, want) != NULL;
    if (!ok)
        fprintf(stderr, "line %d: expected failure with '%s', got %s '%s'\n", line, want,
                g ? "success" : "failure", d.msg);
    te_test_report(ok, __FILE__, line, want);
    te_graph_free(g);
}
#define EXPECT_FAIL(n, want) expect_fail((n), (want), __LINE__)

static int feq(float a, float b) { return a == b; }

/* ================================================================ tests */

static void test_basic_decode(void)
{
    model_t m;
    te_diag d;
    te_graph *g;
    const te_tensor *t;
    size_t n;
    int32_t bias0;
    build_basic(&m);
    n = serialize(m.model);
    g = load(n, &d);
    CHECK(g != NULL);
    if (!g) {
        fprintf(stderr, "load failed: %s\n", d.msg);
        return;
    }
    CHECK(g->schema_version == 3);
    CHECK(strcmp(g->description, "test model") == 0);
    CHECK(g->model_size == n && g->model_data != NULL && g->model_data != out);
    CHECK(g->n_tensors == 7 && g->n_ops == 3);
    CHECK(g->n_inputs == 1 && g->inputs[0] == 0);
    CHECK(g->n_outputs == 1 && g->outputs[0] == 6);

    t = &g->tensors[0];
    CHECK(t->id == 0 && strcmp(t->name, "input") == 0 && t->type == TE_DT_INT8);
    CHECK(t->rank == 4 && t->shape[0] == 1 && t->shape[1] == 4 && t->shape[3] == 2);
    CHECK(t->q.count == 1 && feq(t->q.scale[0], 0.5f) && t->q.zero_point[0] == -3);
    CHECK(t->data == NULL && t->data_bytes == 0 && t->producer == -1 && t->alias_of == -1);

    t = &g->tensors[1];
    CHECK(t->q.count == 3 && t->q.quantized_dim == 0 && feq(t->q.scale[2], 0.3f));
    CHECK(t->data_bytes == 6 && t->data && t->data[0] == 1 && t->data[5] == 6);
    CHECK(t->data >= g->model_data && t->data + t->data_bytes <= g->model_data + g->model_size);

    t = &g->tensors[2];
    CHECK(t->type == TE_DT_INT32 && t->rank == 1 && t->data_bytes == 12);
    memcpy(&bias0, t->data + 4, 4);
    CHECK(bias0 == -200);
    CHECK(g->tensors[3].producer == 0 && g->tensors[5].producer == 1 &&
          g->tensors[6].producer == 2 && g->tensors[4].producer == -1);
    CHECK(g->tensors[6].name != NULL && g->tensors[6].name[0] == '\0');
    CHECK(g->tensors[6].q.count == 0 && g->tensors[6].q.scale == NULL);

    CHECK(g->ops[0].opcode == TE_OP_CONV_2D && g->ops[0].version == 3);
    CHECK(g->ops[0].n_in == 3 && g->ops[0].in[2] == 2 && g->ops[0].n_out == 1);
    CHECK(g->ops[0].opt.padding == TE_PAD_VALID && g->ops[0].opt.stride_w == 1 &&
          g->ops[0].opt.stride_h == 2 && g->ops[0].opt.activation == TE_ACT_RELU6);
    CHECK(g->ops[0].opt.dilation_w == 1 && g->ops[0].opt.dilation_h == 1);
    CHECK(g->ops[0].custom_name == NULL && g->ops[0].index == 0 && !g->ops[0].dead);
    CHECK(g->ops[1].opcode == TE_OP_RESHAPE && g->ops[1].version == 1);
    CHECK(g->ops[1].opt.new_shape_count == -1);
    CHECK(g->ops[2].opcode == TE_OP_SOFTMAX && g->ops[2].version == 2);
    CHECK(feq(g->ops[2].opt.beta, 1.0f));
    te_graph_free(g);
}

/* Opcode table: GELU through builtin_code, CUSTOM name copied. */
static void test_opcodes(void)
{
    model_t m;
    te_diag d;
    te_graph *g;
    build_basic(&m);
    put_i32(m.op[1], 0, 3); /* RESHAPE op now uses the GELU code */
    put_i32(m.op[2], 0, 4); /* SOFTMAX op now CUSTOM (options ignored) */
    g = load(serialize(m.model), &d);
    CHECK(g != NULL);
    if (!g)
        return;
    CHECK(g->ops[1].opcode == TE_OP_GELU);
    CHECK(g->ops[2].opcode == TE_OP_CUSTOM && g->ops[2].custom_name &&
          strcmp(g->ops[2].custom_name, "MyCustomOp") == 0);
    te_graph_free(g);
}

/* A tensor no operator writes: refused as the input of a builtin operator,
 * accepted as the input of a CUSTOM one (Vela's ethos-u takes its scratch
 * areas that way; validation then reports the CUSTOM operator). */
static void test_unwritten_custom_input(void)
{
    model_t m;
    te_diag d;
    te_graph *g;
    build_basic(&m);
    put_i32(m.tensor[4], 2, 0); /* RESHAPE's shape input loses its data */
    EXPECT_FAIL(serialize(m.model),
                "RESHAPE (op 1): input 1 (tensor 4 'shape') is never written");
    build_basic(&m);
    put_i32(m.tensor[4], 2, 0);
    put_i32(m.op[1], 0, 4); /* the same op as CUSTOM 'MyCustomOp' */
    g = load(serialize(m.model), &d);
    CHECK(g != NULL);
    if (!g)
        return;
    CHECK(g->ops[1].opcode == TE_OP_CUSTOM && g->tensors[4].producer == -1 &&
          g->tensors[4].data == NULL);
    te_graph_free(g);
}

/* One op of each decoded option kind (inputs/outputs are not checked by
 * the reader beyond their range). */
static void test_options(void)
{
    static const int codes[] = {
        TE_OP_CONV_2D, TE_OP_DEPTHWISE_CONV_2D, TE_OP_AVERAGE_POOL_2D, TE_OP_MAX_POOL_2D,
        TE_OP_FULLY_CONNECTED, TE_OP_SOFTMAX, TE_OP_CONCATENATION, TE_OP_ADD, TE_OP_MUL,
        TE_OP_RESHAPE, TE_OP_MEAN, TE_OP_SQUEEZE, TE_OP_STRIDED_SLICE, TE_OP_TRANSPOSE_CONV,
        TE_OP_RESIZE_NEAREST_NEIGHBOR};
    static const int unions[] = {
        TE_OPT_CONV2D, TE_OPT_DEPTHWISE_CONV2D, TE_OPT_POOL2D, TE_OPT_POOL2D,
        TE_OPT_FULLY_CONNECTED, TE_OPT_SOFTMAX, TE_OPT_CONCATENATION, TE_OPT_ADD, TE_OPT_MUL,
        TE_OPT_RESHAPE, TE_OPT_REDUCER, TE_OPT_SQUEEZE, TE_OPT_STRIDED_SLICE,
        TE_OPT_TRANSPOSE_CONV, TE_OPT_RESIZE_NEAREST_NEIGHBOR};
    enum { N = sizeof codes / sizeof codes[0] };
    static const int32_t s1[] = {1}, in0[] = {0, -1}, graph_in[] = {0};
    static const int32_t new_shape[] = {1, 2, 3}, sq_dims[] = {1, 2};
    node *ts[N + 1], *ops[N], *opcs[N], *bufs[1], *sgs[1], *model, *sg, *o[N];
    int32_t outs[N];
    te_diag d;
    te_graph *g;
    int i;
    pool_used = 0;
    for (i = 0; i <= N; i++)
        ts[i] = tensor("t", 9, 1, s1, 0);
    for (i = 0; i < N; i++) {
        opcs[i] = table();
        put_i32(opcs[i], 3, codes[i]);
        outs[i] = i + 1;
        ops[i] = op(i, codes[i] == TE_OP_FULLY_CONNECTED ? 2 : 1, in0, 1, &outs[i]);
        o[i] = table();
        put_u8(ops[i], 3, unions[i]);
        put_child(ops[i], 4, o[i]);
    }
    /* CONV_2D: SAME, 2x3, relu, dilation 2x4 */
    put_i32(o[0], 1, 2); put_i32(o[0], 2, 3); put_u8(o[0], 3, 1);
    put_i32(o[0], 4, 2); put_i32(o[0], 5, 4);
    /* DEPTHWISE: VALID, 1x1, mult 2, relu6, dilation w 3 (h default) */
    put_u8(o[1], 0, 1); put_i32(o[1], 1, 1); put_i32(o[1], 2, 1); put_i32(o[1], 3, 2);
    put_u8(o[1], 4, 3); put_i32(o[1], 5, 3);
    /* AVG POOL: VALID 2x2 stride, filter 3x5, relu */
    put_u8(o[2], 0, 1); put_i32(o[2], 1, 2); put_i32(o[2], 2, 2); put_i32(o[2], 3, 3);
    put_i32(o[2], 4, 5); put_u8(o[2], 5, 1);
    /* MAX POOL: empty options table -> zeros */
    /* FC: relu, keep_num_dims */
    put_u8(o[4], 0, 1); put_u8(o[4], 2, 1);
    put_f32(o[5], 0, 0.5f);                       /* SOFTMAX */
    put_i32(o[6], 0, -1); put_u8(o[6], 1, 3);     /* CONCAT axis -1 relu6 */
    put_u8(o[7], 0, 1);                           /* ADD relu */
    put_u8(o[8], 0, 3);                           /* MUL relu6 */
    put_child(o[9], 0, vec_i32(3, new_shape));    /* RESHAPE */
    put_u8(o[10], 0, 1);                          /* MEAN keep_dims */
    put_child(o[11], 0, vec_i32(2, sq_dims));     /* SQUEEZE */
    put_i32(o[12], 0, 1); put_i32(o[12], 1, 2); put_i32(o[12], 2, 4); put_i32(o[12], 3, 8);
    put_i32(o[12], 4, 16); put_u8(o[12], 5, 1);   /* STRIDED_SLICE */
    put_u8(o[13], 0, 1); put_i32(o[13], 1, 2); put_i32(o[13], 2, 3); /* TRANSPOSE_CONV */
    put_u8(o[14], 0, 0); put_u8(o[14], 1, 1);     /* RESIZE_NN half_pixel */

    sg = table();
    put_child(sg, 0, tables(N + 1, ts));
    put_child(sg, 1, vec_i32(1, graph_in)); /* every op reads tensor 0 */
    put_child(sg, 3, tables(N, ops));
    sgs[0] = sg;
    bufs[0] = buffer(NULL, 0);
    model = table();
    put_i32(model, 0, 3);
    put_child(model, 1, tables(N, opcs));
    put_child(model, 2, tables(1, sgs));
    put_child(model, 4, tables(1, bufs));
    g = load(serialize(model), &d);
    CHECK(g != NULL);
    if (!g) {
        fprintf(stderr, "options model failed: %s\n", d.msg);
        return;
    }
    CHECK(g->n_ops == N && g->n_inputs == 1 && g->n_outputs == 0);
    CHECK(strcmp(g->description, "") == 0);
    {
        const te_options *c = &g->ops[0].opt, *w = &g->ops[1].opt, *p = &g->ops[2].opt;
        CHECK(c->padding == TE_PAD_SAME && c->stride_w == 2 && c->stride_h == 3 &&
              c->activation == TE_ACT_RELU && c->dilation_w == 2 && c->dilation_h == 4);
        CHECK(w->padding == TE_PAD_VALID && w->depth_multiplier == 2 &&
              w->activation == TE_ACT_RELU6 && w->dilation_w == 3 && w->dilation_h == 1);
        CHECK(p->padding == TE_PAD_VALID && p->stride_w == 2 && p->filter_w == 3 &&
              p->filter_h == 5 && p->activation == TE_ACT_RELU);
    }
    CHECK(g->ops[3].opt.filter_w == 0 && g->ops[3].opt.stride_w == 0);
    CHECK(g->ops[4].opt.activation == TE_ACT_RELU && g->ops[4].opt.keep_dims == 1 &&
          g->ops[4].opt.weights_format == 0);
    CHECK(g->ops[4].n_in == 2 && g->ops[4].in[1] == -1); /* optional input */
    CHECK(feq(g->ops[5].opt.beta, 0.5f));
    CHECK(g->ops[6].opt.axis == -1 && g->ops[6].opt.activation == TE_ACT_RELU6);
    CHECK(g->ops[7].opt.activation == TE_ACT_RELU);
    CHECK(g->ops[8].opt.activation == TE_ACT_RELU6);
    CHECK(g->ops[9].opt.new_shape_count == 3 && g->ops[9].opt.new_shape[2] == 3);
    CHECK(g->ops[10].opt.keep_dims == 1);
    CHECK(g->ops[11].opt.squeeze_dims_count == 2 && g->ops[11].opt.squeeze_dims[1] == 2);
    {
        const te_options *s = &g->ops[12].opt;
        CHECK(s->begin_mask == 1 && s->end_mask == 2 && s->ellipsis_mask == 4 &&
              s->new_axis_mask == 8 && s->shrink_axis_mask == 16 && s->offset == 1);
    }
    CHECK(g->ops[13].opt.padding == TE_PAD_VALID && g->ops[13].opt.stride_w == 2 &&
          g->ops[13].opt.stride_h == 3);
    CHECK(g->ops[14].opt.align_corners == 0 && g->ops[14].opt.half_pixel_centers == 1);
    te_graph_free(g);
}

/* Options absent altogether; union type mismatch; too many new_shape dims. */
static void test_option_edge_cases(void)
{
    model_t m;
    te_diag d;
    te_graph *g;
    static const int32_t seven[] = {1, 1, 1, 1, 1, 1, 1};
    node *ro;
    size_t n;
    build_basic(&m);
    drop(m.op[0], 3);
    drop(m.op[0], 4);
    g = load(serialize(m.model), &d);
    CHECK(g != NULL);
    if (g) {
        CHECK(g->ops[0].opt.dilation_w == 1 && g->ops[0].opt.stride_w == 0 &&
              g->ops[0].opt.padding == TE_PAD_SAME);
        te_graph_free(g);
    }
    build_basic(&m);
    put_u8(m.op[0], 3, TE_OPT_POOL2D); /* Pool2DOptions (5) on a CONV_2D */
    EXPECT_FAIL(serialize(m.model), "CONV_2D (op 0): builtin_options has union type 5");

    build_basic(&m);
    ro = table();
    put_child(ro, 0, vec_i32(7, seven));
    put_u8(m.op[1], 3, TE_OPT_RESHAPE);
    put_child(m.op[1], 4, ro);
    EXPECT_FAIL(serialize(m.model), "RESHAPE (op 1): ReshapeOptions.new_shape has 7 entries");

    /* type given but table absent: defaults */
    build_basic(&m);
    drop(m.op[2], 4);
    n = serialize(m.model);
    g = load(n, &d);
    CHECK(g != NULL && feq(g->ops[2].opt.beta, 0.0f));
    te_graph_free(g);
}

/* Shared vtables (tables with the same field layout) and a vtable stored
 * after its table (negative soffset). */
static void test_vtable_layouts(void)
{
    model_t m;
    te_diag d;
    te_graph *g;
    build_basic(&m);
    m.tensor[3]->share_vt = m.tensor[0]; /* shape, type, name, quantization */
    m.tensor[2]->share_vt = m.tensor[1]; /* shape, type, buffer, name, quantization */
    m.tensor[5]->vt_after = 1;
    g = load(serialize(m.model), &d);
    CHECK(m.tensor[3]->vt_pos == m.tensor[0]->vt_pos && m.tensor[5]->vt_pos > m.tensor[5]->pos);
    CHECK(g != NULL);
    if (g) {
        CHECK(g->tensors[3].rank == 4 && g->tensors[3].shape[3] == 3);
        CHECK(strcmp(g->tensors[3].name, "conv_out") == 0 && g->tensors[3].q.zero_point[0] == 5);
        CHECK(g->tensors[2].data_bytes == 12 && g->tensors[2].q.count == 3);
        CHECK(g->tensors[5].rank == 2 && g->tensors[5].shape[1] == 24);
        te_graph_free(g);
    } else {
        fprintf(stderr, "vtable layouts: %s\n", d.msg);
    }
}

/* Buffer.offset/size: data outside the FlatBuffer. */
static void test_external_buffer(void)
{
    model_t m;
    te_diag d;
    te_graph *g;
    size_t n, ext;
    int i;
    build_basic(&m);
    drop(m.buffer[1], 0);
    put_u64(m.buffer[1], 1, 0); /* patched below once the end is known */
    put_u64(m.buffer[1], 2, 6);
    n = serialize(m.model);
    ext = (n + 15) & ~(size_t)15;
    for (i = 0; i < 6; i++)
        out[ext + i] = (uint8_t)(10 + i);
    put_u64(m.buffer[1], 1, ext);
    n = serialize(m.model);
    CHECK(n <= ext); /* same layout */
    g = load(ext + 6, &d);
    CHECK(g != NULL);
    if (g) {
        CHECK(g->tensors[1].data_bytes == 6 && g->tensors[1].data[0] == 10 &&
              g->tensors[1].data[5] == 15);
        CHECK(g->tensors[1].data == g->model_data + ext);
        te_graph_free(g);
    } else {
        fprintf(stderr, "external buffer: %s\n", d.msg);
    }
    EXPECT_FAIL(ext + 5, "external data");
    put_u64(m.buffer[1], 2, UINT64_MAX - 2); /* size that would wrap */
    n = serialize(m.model);
    EXPECT_FAIL(ext + 6, "external data");
}

static void test_header_errors(void)
{
    static const uint8_t four[4] = {8, 0, 0, 0};
    te_diag d;
    model_t m;
    size_t n;
    memset(&d, 0, sizeof d);
    CHECK(te_load_tflite(four, 0, &d) == NULL && strstr(d.msg, "empty") != NULL);
    memset(&d, 0, sizeof d);
    CHECK(te_load_tflite(four, 4, &d) == NULL && strstr(d.msg, "too small") != NULL);
    build_basic(&m);
    n = serialize(m.model);
    out[7] = '2';
    EXPECT_FAIL(n, "expected \"TFL3\"");
    n = serialize(m.model);
    patch32(0, (uint32_t)n + 100);
    EXPECT_FAIL(n, "Model at byte offset 0: offset points past the end");
    n = serialize(m.model);
    patch32(0, 0xFFFFFFF0u);
    EXPECT_FAIL(n, "offset points past the end");
    put_i32(m.model, 0, 2);
    EXPECT_FAIL(serialize(m.model), "schema version 2");
}

static void test_structural_errors(void)
{
    model_t m;
    size_t n;
    char want[64];
    build_basic(&m);
    n = serialize(m.model);
    patch32(m.model->pos, 0x7FFFFFF0u); /* soffset -> vtable before byte 0 */
    snprintf(want, sizeof want, "Model at byte offset %lu: vtable offset out of range",
             (unsigned long)m.model->pos);
    EXPECT_FAIL(n, want);

    n = serialize(m.model);
    patch32(m.tensor[2]->pos, (uint32_t)(-(int32_t)(n - m.tensor[2]->pos))); /* vtable at n */
    EXPECT_FAIL(n, "Tensor at byte offset");

    n = serialize(m.model);
    patch32(m.tensors_vec->pos, 1000000);
    snprintf(want, sizeof want, "SubGraph.tensors at byte offset %lu: vector runs past",
             (unsigned long)m.tensors_vec->pos);
    EXPECT_FAIL(n, want);

    n = serialize(m.model);
    patch32(m.tensors_vec->pos, 0xFFFFFFFFu); /* len * 4 would overflow 32 bits */
    EXPECT_FAIL(n, "vector length is more than 2^31-1");

    n = serialize(m.model);
    patch32(m.tensors_vec->pos, 0x40000000u); /* len * 4 = 2^32 */
    EXPECT_FAIL(n, "vector runs past");

    /* a string (tensor name) longer than the file */
    n = serialize(m.model);
    {
        size_t at = child_of(m.tensor[0], 3)->pos;
        patch32(at, (uint32_t)(n - at));
    }
    EXPECT_FAIL(n, "Tensor.name at byte offset");

    /* vtable claims a field beyond the table's inline size */
    n = serialize(m.model);
    out[m.model->vt_pos + 2] = 4; /* table size 4: fields outside */
    out[m.model->vt_pos + 3] = 0;
    EXPECT_FAIL(n, "lies outside its 4-byte table");

    /* odd / too small vtable size */
    n = serialize(m.model);
    out[m.model->vt_pos] = 3;
    out[m.model->vt_pos + 1] = 0;
    EXPECT_FAIL(n, "malformed vtable");
}

static void test_semantic_errors(void)
{
    model_t m;
    static const int32_t bad_in[] = {0, 99, 2}, neg_out[] = {-1}, bad_sg[] = {7};
    static const int32_t neg_shape[] = {1, -2}, rank7[] = {1, 1, 1, 1, 1, 1, 1},
                         huge[] = {65536, 65536, 65536}, huge32[] = {65536, 32768},
                         huge29[] = {65536, 8192};
    static const float sc3[] = {0.1f, 0.2f, 0.3f}, sc2[] = {0.1f, 0.2f};
    static const int64_t zp2[] = {0, 0}, zp3[] = {0, 0, 0};
    node *sgs[1];
    te_diag d;
    te_graph *g;

    build_basic(&m);
    put_child(m.op[0], 1, vec_i32(3, bad_in));
    EXPECT_FAIL(serialize(m.model), "CONV_2D (op 0): input 1 is tensor 99, out of range");

    build_basic(&m);
    put_child(m.op[1], 2, vec_i32(1, neg_out));
    EXPECT_FAIL(serialize(m.model), "RESHAPE (op 1): output 0 is tensor -1, out of range");

    build_basic(&m);
    put_child(m.op[1], 2, vec_i32(1, bad_in)); /* output 0 -> tensor 0 ok, write conflict no */
    put_child(m.op[2], 2, vec_i32(1, bad_in));
    EXPECT_FAIL(serialize(m.model), "SOFTMAX (op 2): output tensor 0 is also written by op 1");

    build_basic(&m);
    put_child(m.op[2], 2, vec_i32(1, bad_in + 2)); /* SOFTMAX writes the bias */
    EXPECT_FAIL(serialize(m.model), "SOFTMAX (op 2): output 0 is constant tensor 2 'bias'");

    build_basic(&m);
    put_child(m.subgraph, 2, vec_i32(1, bad_sg));
    EXPECT_FAIL(serialize(m.model), "subgraph 0 outputs[0] is tensor 7, out of range");

    build_basic(&m);
    put_i32(m.tensor[1], 2, 4);
    EXPECT_FAIL(serialize(m.model), "tensor 1 'weights': buffer index 4 is out of range");

    build_basic(&m);
    put_i32(m.op[2], 0, 5);
    EXPECT_FAIL(serialize(m.model), "op 2: opcode_index 5 is out of range");

    build_basic(&m);
    put_child(m.quant[1], 3, vec_i64(2, zp2));
    EXPECT_FAIL(serialize(m.model), "tensor 1 'weights': quantization has 3 scales but 2 zero");

    build_basic(&m);
    put_child(m.quant[1], 2, vec_f32(2, sc2));
    put_child(m.quant[1], 3, vec_i64(2, zp2));
    EXPECT_FAIL(serialize(m.model), "2 per-channel scales but dimension 0 has 3 entries");

    build_basic(&m);
    put_i32(m.quant[1], 6, 4);
    EXPECT_FAIL(serialize(m.model), "quantized_dimension 4 is out of range for rank 4");

    build_basic(&m);
    put_i32(m.quant[1], 6, -1);
    EXPECT_FAIL(serialize(m.model), "quantized_dimension -1 is out of range");

    /* TOCO style: rank-1 per-channel bias with quantized_dimension 3 */
    build_basic(&m);
    put_i32(m.quant[2], 6, 3);
    g = load(serialize(m.model), &d);
    CHECK(g != NULL && g->tensors[2].q.count == 3 && g->tensors[2].q.quantized_dim == 0);
    te_graph_free(g);

    /* per-tensor quantization: the dimension is irrelevant */
    build_basic(&m);
    put_i32(m.quant[0], 6, 9);
    g = load(serialize(m.model), &d);
    CHECK(g != NULL);
    te_graph_free(g);

    /* scale without zero point: not quantized (as TFLite) */
    build_basic(&m);
    drop(m.quant[3], 3);
    g = load(serialize(m.model), &d);
    CHECK(g != NULL && g->tensors[3].q.count == 0);
    te_graph_free(g);

    build_basic(&m);
    put_child(m.tensor[5], 0, vec_i32(2, neg_shape));
    EXPECT_FAIL(serialize(m.model), "tensor 5 'flat': dimension 1 is negative (-2)");

    build_basic(&m);
    put_child(m.tensor[5], 0, vec_i32(7, rank7));
    EXPECT_FAIL(serialize(m.model), "tensor 5 'flat': rank 7 is more than 6");

    build_basic(&m);
    put_child(m.tensor[5], 0, vec_i32(3, huge));
    EXPECT_FAIL(serialize(m.model), "tensor 5 'flat': has more than 2^31-1 elements");

    build_basic(&m);
    put_child(m.tensor[4], 0, vec_i32(2, huge32)); /* 2^31 elements */
    EXPECT_FAIL(serialize(m.model), "tensor 4 'shape': has more than 2^31-1 elements");

    build_basic(&m);
    put_child(m.tensor[2], 0, vec_i32(2, huge29)); /* 2^29 int32 = 2^31 bytes */
    EXPECT_FAIL(serialize(m.model), "tensor 2 'bias': byte size is more than 2^31-1");

    build_basic(&m);
    put_u8(m.tensor[5], 1, 2); /* int32 */
    put_child(m.tensor[5], 0, vec_i32(1, huge32)); /* 65536 int32: fine */
    g = load(serialize(m.model), &d);
    CHECK(g != NULL);
    te_graph_free(g);

    build_basic(&m);
    put_child(m.model, 2, tables(0, sgs));
    EXPECT_FAIL(serialize(m.model), "no subgraphs");

    build_basic(&m);
    drop(m.model, 2);
    EXPECT_FAIL(serialize(m.model), "no subgraphs");

    build_basic(&m);
    put_child(m.tensor[1], 6, table()); /* sparsity */
    EXPECT_FAIL(serialize(m.model), "tensor 1 'weights': is sparse");

    build_basic(&m);
    put_child(m.quant[1], 2, vec_f32(3, sc3));
    put_child(m.quant[1], 3, vec_i64(3, zp3));
    put_u8(m.quant[1], 4, 1); /* CustomQuantization details */
    EXPECT_FAIL(serialize(m.model), "custom quantization");
}

/* Empty vectors and absent optional parts are valid. */
static void test_minimal_valid(void)
{
    node *model, *sg, *sgs[1];
    te_diag d;
    te_graph *g;
    pool_used = 0;
    sg = table();
    sgs[0] = sg;
    model = table();
    put_i32(model, 0, 3);
    put_child(model, 1, tables(0, NULL));
    put_child(model, 2, tables(1, sgs));
    g = load(serialize(model), &d);
    CHECK(g != NULL);
    if (g) {
        CHECK(g->n_tensors == 0 && g->n_ops == 0 && g->n_inputs == 0 && g->n_outputs == 0);
        CHECK(g->description && g->description[0] == '\0');
        te_graph_free(g);
    } else {
        fprintf(stderr, "minimal: %s\n", d.msg);
    }
}

/* Every proper prefix of a valid model is rejected with a message. */
static void test_truncation(void)
{
    model_t m;
    size_t n, k;
    int all_failed = 1, all_msgs = 1;
    build_basic(&m);
    n = serialize(m.model);
    for (k = 0; k < n; k++) {
        te_diag d;
        uint8_t *copy = malloc(k ? k : 1); /* exact size: ASan sees any overread */
        te_graph *g;
        memcpy(copy, out, k);
        memset(&d, 0, sizeof d);
        g = te_load_tflite(copy, k, &d);
        if (g) {
            all_failed = 0;
            fprintf(stderr, "truncated to %lu bytes still loads\n", (unsigned long)k);
            te_graph_free(g);
        } else if (!d.failed || !d.msg[0]) {
            all_msgs = 0;
        }
        free(copy);
    }
    CHECK(all_failed);
    CHECK(all_msgs);
}

/* Random byte corruption: any outcome but a crash or a silent failure. */
static void test_corruption(void)
{
    model_t m;
    size_t n;
    int it, silent = 0;
    uint8_t *copy;
    build_basic(&m);
    n = serialize(m.model);
    copy = malloc(n);
    test_seed(1234);
    for (it = 0; it < 20000; it++) {
        te_diag d;
        te_graph *g;
        int k, flips = 1 + (int)(test_rand() % 4);
        memcpy(copy, out, n);
        for (k = 0; k < flips; k++)
            copy[test_rand() % n] = (uint8_t)test_rand();
        memset(&d, 0, sizeof d);
        g = te_load_tflite(copy, n, &d);
        if (!g && !d.msg[0])
            silent++;
        te_graph_free(g);
    }
    CHECK(silent == 0);
    free(copy);
}

static void test_file_loading(void)
{
    static const char *path = "test_frontend_tmp.tflite";
    model_t m;
    size_t n;
    te_diag d;
    te_graph *g;
    FILE *f;
    memset(&d, 0, sizeof d);
    CHECK(te_load_tflite_file("/nonexistent/dir/model.tflite", &d) == NULL);
    CHECK(strstr(d.msg, "cannot open '/nonexistent/dir/model.tflite'") != NULL);

    build_basic(&m);
    n = serialize(m.model);
    f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(out, 1, n, f) == n);
    fclose(f);
    memset(&d, 0, sizeof d);
    g = te_load_tflite_file(path, &d);
    CHECK(g != NULL && g->n_ops == 3 && g->model_size == n);
    te_graph_free(g);

    f = fopen(path, "wb");
    if (f)
        fclose(f);
    memset(&d, 0, sizeof d);
    CHECK(te_load_tflite_file(path, &d) == NULL && strstr(d.msg, "empty file") != NULL);
    remove(path);
}

/* The schema table (src/ir/tflite_schema.def): every BuiltinOperator from 0
 * to the last, consecutive, named by te_opcode_name() exactly as its
 * TE_OP_ constant; spot checks against schema.fbs; the option union ids. */
static void test_schema_table(void)
{
    static const struct { int value, code; const char *name; } ops[] = {
#define TE_BUILTIN(name, code) {TE_OP_##name, code, #name},
#include "ir/tflite_schema.def"
#undef TE_BUILTIN
    };
    static const struct { int value, id; const char *type; } opts[] = {
#define TE_BUILTIN_OPTIONS(tag, type, id) {TE_OPT_##tag, id, #type},
#include "ir/tflite_schema.def"
#undef TE_BUILTIN_OPTIONS
    };
    int n = (int)(sizeof ops / sizeof ops[0]), i, k;
    CHECK(n == TE_BUILTIN_COUNT && n == 210);
    for (i = 0; i < n; i++) {
        CHECK(ops[i].code == i && ops[i].value == i);
        CHECK(!strcmp(te_opcode_name(i), ops[i].name));
        for (k = 0; k < i; k++)
            CHECK(strcmp(ops[k].name, ops[i].name) != 0);
    }
    CHECK(TE_OP_ADD == 0 && TE_OP_CONV_2D == 3 && TE_OP_DEPTH_TO_SPACE == 5);
    CHECK(TE_OP_CUSTOM == 32 && TE_OP_TILE == 69 && TE_OP_SQRT == 75 && TE_OP_SHAPE == 77);
    CHECK(TE_OP_FLOOR_DIV == 90 && TE_OP_GATHER_ND == 107 && TE_OP_QUANTIZE == 114);
    CHECK(TE_OP_HARD_SWISH == 117 && TE_OP_BATCH_MATMUL == 126);
    CHECK(TE_OP_PLACEHOLDER_FOR_GREATER_OP_CODES == 127 && TE_OP_GELU == 150);
    CHECK(TE_OP_STABLEHLO_LOGISTIC == 162 && TE_OP_DILATE == 203);
    CHECK(TE_OP_STABLEHLO_CASE == 209);
    CHECK(!strcmp(te_opcode_name(TE_OP_SHAPE), "SHAPE"));
    CHECK(!strcmp(te_opcode_name(TE_OP_STABLEHLO_CASE), "STABLEHLO_CASE"));
    CHECK(!strcmp(te_opcode_name(TE_BUILTIN_COUNT), "BUILTIN_210"));

    CHECK(sizeof opts / sizeof opts[0] == 126);
    for (i = 0; i < (int)(sizeof opts / sizeof opts[0]); i++)
        CHECK(opts[i].id == i + 1 && opts[i].value == i + 1);
    CHECK(TE_OPT_NONE == 0 && TE_OPT_CONV2D == 1 && TE_OPT_DEPTHWISE_CONV2D == 2);
    CHECK(TE_OPT_POOL2D == 5 && TE_OPT_FULLY_CONNECTED == 8 && TE_OPT_SOFTMAX == 9);
    CHECK(TE_OPT_CONCATENATION == 10 && TE_OPT_ADD == 11 && TE_OPT_RESHAPE == 17);
    CHECK(TE_OPT_MUL == 21 && TE_OPT_REDUCER == 27 && TE_OPT_SQUEEZE == 30);
    CHECK(TE_OPT_STRIDED_SLICE == 32 && TE_OPT_TRANSPOSE_CONV == 49);
    CHECK(TE_OPT_RESIZE_NEAREST_NEIGHBOR == 74 && TE_OPT_RIGHT_SHIFT == 126);
    CHECK(!strcmp(opts[TE_OPT_SHAPE - 1].type, "ShapeOptions"));
}

int main(void)
{
    test_schema_table();
    test_basic_decode();
    test_opcodes();
    test_unwritten_custom_input();
    test_options();
    test_option_edge_cases();
    test_vtable_layouts();
    test_external_buffer();
    test_header_errors();
    test_structural_errors();
    test_semantic_errors();
    test_minimal_valid();
    test_truncation();
    test_corruption();
    test_file_loading();
    return test_summary();
}
