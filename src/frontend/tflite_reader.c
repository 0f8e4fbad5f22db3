/* tflite_reader.c - builds a te_graph from a .tflite image (subgraph 0, and
 * the subgraphs its CALL_ONCE and IF operators run, in te_graph.subgraphs).
 *
 * Owns the TFLite schema knowledge: field ids of Model, OperatorCode,
 * SubGraph, Tensor, QuantizationParameters, Operator and Buffer, which
 * BuiltinOptions member each operator we decode takes (the numbers come
 * from src/ir/tflite_schema.def), and the semantic checks on indices,
 * shapes and quantization.  All byte-level access goes through flatbuf.h. */
#include "tflite_reader.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flatbuf.h"
#include "flexbuf.h"
#include "inline_if.h"
#include "inline_while.h"
#include "resource_vars.h"

/* Field ids (schema.fbs; a union field takes two ids: type, then value). */
enum { MODEL_VERSION = 0, MODEL_OPCODES = 1, MODEL_SUBGRAPHS = 2, MODEL_DESC = 3, MODEL_BUFFERS = 4 };
enum { OPC_DEPRECATED = 0, OPC_CUSTOM = 1, OPC_VERSION = 2, OPC_BUILTIN = 3 };
enum { SG_TENSORS = 0, SG_INPUTS = 1, SG_OUTPUTS = 2, SG_OPERATORS = 3 };
enum { TS_SHAPE = 0, TS_TYPE = 1, TS_BUFFER = 2, TS_NAME = 3, TS_QUANT = 4, TS_VARIABLE = 5,
       TS_SPARSITY = 6 };
enum { QP_SCALE = 2, QP_ZERO_POINT = 3, QP_DETAILS_TYPE = 4, QP_QDIM = 6 };
enum { OP_OPCODE = 0, OP_INPUTS = 1, OP_OUTPUTS = 2, OP_OPT_TYPE = 3, OP_OPT = 4,
       OP_CUSTOM_OPT = 5, OP_CUSTOM_OPT_FORMAT = 6 };
enum { BUF_DATA = 0, BUF_OFFSET = 1, BUF_SIZE = 2 };

#define TFLITE_SCHEMA_VERSION 3
#define TE_MAX_TENSOR_BYTES 2147483647 /* 2^31 - 1 */
/* Operator versions: like TFLite Micro (whose op resolver ignores them) any
 * version is accepted, because a version only summarises tensor types and
 * options that the operator's check() verifies one by one; numbers outside
 * 1..TE_MAX_OP_VERSION mean a corrupt file. */
#define TE_MAX_OP_VERSION 100
/* Bytes of names, index lists and quantization vectors copied out of the
 * file (plus TABLE_COST per table visited) may not exceed WORK_PER_BYTE x
 * the file size + WORK_SLACK.  A well-formed model reads each object once;
 * a hostile one can point thousands of tensors at one huge string. */
#define TABLE_COST 16
#define WORK_PER_BYTE 16
#define WORK_SLACK (1u << 20)

typedef struct {
    fb_buf b;
    te_diag *d;
    te_graph *g;
    fb_vec buffers;
    int n_codes;
    int *codes;        /* effective builtin code per operator_codes entry */
    int *versions;
    char **customs;    /* custom_code (only kept for CUSTOM) */
    uint64_t work;     /* bytes copied + tables visited (see WORK_PER_BYTE) */
    char **res_container, **res_name; /* resource variables met so far (VAR_HANDLE) */
    int n_res;
} reader;

/* ---------------------------------------------------------------- utils */

static void *xcalloc(reader *r, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        te_fail(r->d, "out of memory reading the model");
    return p;
}

/* Accounts for n bytes of work on `what`; fails once the file has made the
 * reader do far more work than its size can justify. */
static int charge(reader *r, uint64_t n, const char *what)
{
    uint64_t limit = (uint64_t)r->b.size * WORK_PER_BYTE + WORK_SLACK;
    r->work += n;
    if (r->work <= limit)
        return 0;
    return te_fail(r->d, "invalid model: reading %s: the file's offsets reuse the same data so "
                   "often that reading it takes more than %llu bytes of work (limit for a "
                   "%lu-byte file)", what, (unsigned long long)limit, (unsigned long)r->b.size);
}

static int charged_table(reader *r, const fb_vec *v, uint32_t i, const char *what, fb_table *t)
{
    return charge(r, TABLE_COST, what) || fb_vec_table(v, i, what, t) ? -1 : 0;
}

static int charged_str(reader *r, const fb_table *t, int id, const char *what, char **out)
{
    fb_vec v;
    *out = NULL;
    if (fb_vec_field(t, id, 1, what, &v) || charge(r, (uint64_t)v.len + 1, what))
        return -1;
    return fb_str_field(t, id, what, out);
}

/* Reads a vector of tensor indices into a fresh int array. */
static int read_index_list(reader *r, const fb_table *t, int id, const char *what,
                           int **out, int *n)
{
    fb_vec v;
    uint32_t i;
    if (fb_vec_field(t, id, 4, what, &v) || charge(r, (uint64_t)v.len * sizeof **out, what))
        return -1;
    *out = xcalloc(r, v.len, sizeof **out);
    if (!*out)
        return -1;
    for (i = 0; i < v.len; i++)
        (*out)[i] = fb_vec_i32(&v, i);
    *n = (int)v.len;
    return 0;
}

/* ---------------------------------------------------------------- opcodes */

static int read_opcode(reader *r, const fb_vec *v, int i)
{
    fb_table t;
    int8_t dep;
    int32_t code, version;
    char *custom;
    if (charged_table(r, v, (uint32_t)i, "OperatorCode", &t) ||
        fb_i8(&t, OPC_DEPRECATED, 0, &dep) || fb_i32(&t, OPC_BUILTIN, 0, &code) ||
        fb_i32(&t, OPC_VERSION, 1, &version))
        return -1;
    if (dep > code)
        code = dep;
    if (code < 0)
        return te_fail(r->d, "invalid model: operator_codes[%d] has negative builtin code %d",
                       i, (int)code);
    /* TFLite Micro's resolver ignores versions; 0 comes from some writers */
    if (version < 0 || version > TE_MAX_OP_VERSION)
        return te_fail(r->d, "invalid model: operator_codes[%d] (%s) has version %d, outside "
                       "0..%d", i, te_opcode_name(code), (int)version, TE_MAX_OP_VERSION);
    r->codes[i] = code;
    r->versions[i] = version;
    if (code != TE_OP_CUSTOM)
        return 0;
    if (charged_str(r, &t, OPC_CUSTOM, "OperatorCode.custom_code", &custom))
        return -1;
    r->customs[i] = custom;
    return 0;
}

static int read_opcodes(reader *r, const fb_table *model)
{
    fb_vec v;
    int i;
    if (fb_vec_field(model, MODEL_OPCODES, 4, "Model.operator_codes", &v))
        return -1;
    r->n_codes = (int)v.len;
    r->codes = xcalloc(r, v.len, sizeof *r->codes);
    r->versions = xcalloc(r, v.len, sizeof *r->versions);
    r->customs = xcalloc(r, v.len, sizeof *r->customs);
    if (!r->codes || !r->versions || !r->customs)
        return -1;
    for (i = 0; i < r->n_codes; i++)
        if (read_opcode(r, &v, i))
            return -1;
    return 0;
}

/* ---------------------------------------------------------------- tensors */

static int tensor_fail(reader *r, const te_tensor *t, const char *problem)
{
    return te_fail(r->d, "invalid model: tensor %d '%s': %s", t->id, t->name, problem);
}

/* Dimensions are >= 0 and the product of all of them, a zero counted as
 * one, stays below 2^31: so every product of any subset of dimensions
 * (element counts, strides, MAC counts of one operator in int64) is safe,
 * even in a tensor with a zero dimension. */
static int read_shape(reader *r, const fb_table *tt, te_tensor *t)
{
    fb_vec v;
    uint32_t i;
    int64_t elems = 1;
    size_t esize;
    char msg[128];
    if (fb_vec_field(tt, TS_SHAPE, 4, "Tensor.shape", &v))
        return -1;
    if (v.len > TE_MAX_RANK) {
        snprintf(msg, sizeof msg, "rank %lu is more than %d", (unsigned long)v.len, TE_MAX_RANK);
        return tensor_fail(r, t, msg);
    }
    t->rank = (int)v.len;
    for (i = 0; i < v.len; i++) {
        t->shape[i] = fb_vec_i32(&v, i);
        if (t->shape[i] < 0) {
            snprintf(msg, sizeof msg, "dimension %lu is negative (%d)", (unsigned long)i,
                     t->shape[i]);
            return tensor_fail(r, t, msg);
        }
        /* both factors <= 2^31 - 1: no overflow before the check */
        elems *= t->shape[i] > 0 ? t->shape[i] : 1;
        if (elems > TE_MAX_TENSOR_BYTES)
            return tensor_fail(r, t, "has more than 2^31-1 elements (too large)");
    }
    esize = te_dtype_size(t->type);
    if (esize && elems > (int64_t)(TE_MAX_TENSOR_BYTES / esize))
        return tensor_fail(r, t, "byte size is more than 2^31-1 (too large)");
    return 0;
}

static int read_quant_vectors(reader *r, const fb_table *qt, te_tensor *t)
{
    fb_vec sc, zp;
    uint32_t i, n;
    char msg[128];
    if (fb_vec_field(qt, QP_SCALE, 4, "QuantizationParameters.scale", &sc) ||
        fb_vec_field(qt, QP_ZERO_POINT, 8, "QuantizationParameters.zero_point", &zp))
        return -1;
    if (sc.len == 0 || zp.len == 0)
        return 0; /* like TFLite: quantized only when both are given */
    if (sc.len != zp.len) {
        snprintf(msg, sizeof msg, "quantization has %lu scales but %lu zero points",
                 (unsigned long)sc.len, (unsigned long)zp.len);
        return tensor_fail(r, t, msg);
    }
    n = sc.len;
    if (charge(r, (uint64_t)n * 12, "QuantizationParameters"))
        return -1;
    t->q.scale = xcalloc(r, n, sizeof *t->q.scale);
    t->q.zero_point = xcalloc(r, n, sizeof *t->q.zero_point);
    if (!t->q.scale || !t->q.zero_point)
        return -1;
    for (i = 0; i < n; i++) {
        t->q.scale[i] = fb_vec_f32(&sc, i);
        t->q.zero_point[i] = fb_vec_i64(&zp, i);
    }
    t->q.count = (int)n;
    return 0;
}

/* Per-channel parameters must follow one dimension of the shape.  TOCO
 * wrote quantized_dimension 3 on rank-1 per-channel biases (person_detect);
 * TFLM ignores the field there, so a rank-1 tensor with one scale per
 * element gets dimension 0, the only one it has. */
static int check_per_channel(reader *r, te_tensor *t)
{
    char msg[160];
    int qd = t->q.quantized_dim;
    if (t->q.count <= 1)
        return 0;
    if (t->rank == 1 && t->shape[0] == t->q.count)
        qd = t->q.quantized_dim = 0;
    if (qd < 0 || qd >= t->rank) {
        snprintf(msg, sizeof msg, "quantized_dimension %d is out of range for rank %d", qd,
                 t->rank);
        return tensor_fail(r, t, msg);
    }
    if (t->shape[qd] != t->q.count) {
        snprintf(msg, sizeof msg, "%d per-channel scales but dimension %d has %d entries",
                 t->q.count, qd, t->shape[qd]);
        return tensor_fail(r, t, msg);
    }
    return 0;
}

/* Range of zero points for an integer type; 0 for types without one. */
static int zero_point_range(te_dtype type, int64_t *lo, int64_t *hi)
{
    switch (type) {
    case TE_DT_INT8: *lo = -128; *hi = 127; return 1;
    case TE_DT_UINT8: *lo = 0; *hi = 255; return 1;
    case TE_DT_INT16: *lo = -32768; *hi = 32767; return 1;
    case TE_DT_INT32: *lo = INT32_MIN; *hi = INT32_MAX; return 1;
    default: return 0;
    }
}

/* Per-tensor scales finite, > 0 and within [2^-60, 2^60] (real models
 * stay within about 2^-45 .. 2^10; the bound keeps every ratio of two
 * scales, which the compiler computes in float as TFLite does, finite).
 * Per-channel scales (weights, biases) are taken as TFLite takes them:
 * any finite value; a channel whose rescale factor underflows gets a zero
 * multiplier and a negative scale a negative one, as TFLite's
 * QuantizeMultiplier computes.  Every zero point representable in the type. */
static int check_quant_values(reader *r, te_tensor *t)
{
    char msg[160];
    int64_t lo = 0, hi = 0;
    int i, ranged = zero_point_range(t->type, &lo, &hi);
    for (i = 0; i < t->q.count; i++) {
        float s = t->q.scale[i], a = fabsf(s);
        if (!isfinite(s) || (t->q.count == 1 && !(s > 0.0f))) {
            snprintf(msg, sizeof msg, "quantization scale %d is %g, must be finite%s", i,
                     (double)s, t->q.count == 1 ? " and > 0" : "");
            return tensor_fail(r, t, msg);
        }
        if (a > ldexpf(1.0f, 60) || (t->q.count == 1 && a < ldexpf(1.0f, -60))) {
            snprintf(msg, sizeof msg, "quantization scale %d is %g, outside [2^-60, 2^60]", i,
                     (double)s);
            return tensor_fail(r, t, msg);
        }
        if (ranged && (t->q.zero_point[i] < lo || t->q.zero_point[i] > hi)) {
            snprintf(msg, sizeof msg, "zero point %d is %lld, outside %s's range [%lld, %lld]", i,
                     (long long)t->q.zero_point[i], te_dtype_name(t->type), (long long)lo,
                     (long long)hi);
            return tensor_fail(r, t, msg);
        }
    }
    return 0;
}

/* A tensor of a type no kernel dequantizes (int32 shape constants, float
 * or bool tensors) may carry a per-tensor scale of 0 or worse from some
 * exporters; TFLite Micro copies it without a look.  Such a tensor is read
 * as unquantized instead of refusing the model. */
static void drop_unusable_scale(te_tensor *t)
{
    float s;
    if (t->q.count != 1 || t->type == TE_DT_INT8 || t->type == TE_DT_UINT8 ||
        t->type == TE_DT_INT16)
        return;
    s = t->q.scale[0];
    if (!isfinite(s) || !(s >= ldexpf(1.0f, -60)) || s > ldexpf(1.0f, 60))
        t->q.count = 0;
}

static int read_quant(reader *r, const fb_table *tt, te_tensor *t)
{
    fb_table qt;
    int present;
    int32_t qd;
    uint8_t details;
    if (fb_table_field(tt, TS_QUANT, "QuantizationParameters", &qt, &present))
        return -1;
    if (!present)
        return 0;
    if (fb_u8(&qt, QP_DETAILS_TYPE, 0, &details) || fb_i32(&qt, QP_QDIM, 0, &qd))
        return -1;
    if (details != 0)
        return tensor_fail(r, t, "uses custom quantization details (unsupported)");
    t->q.quantized_dim = qd;
    if (read_quant_vectors(r, &qt, t))
        return -1;
    drop_unusable_scale(t);
    if (check_quant_values(r, t))
        return -1;
    return check_per_channel(r, t);
}

/* Constant data of buffer `index`: inside the FlatBuffer, or (offset > 1)
 * at a file offset after it. */
static int read_buffer(reader *r, te_tensor *t, uint32_t index)
{
    fb_table bt;
    fb_vec data;
    uint64_t off, size;
    char msg[160];
    if (index == 0 && r->buffers.len == 0)
        return 0; /* the sentinel, even when the model lists no buffers */
    if (index >= r->buffers.len) {
        snprintf(msg, sizeof msg, "buffer index %lu is out of range (model has %lu buffers)",
                 (unsigned long)index, (unsigned long)r->buffers.len);
        return tensor_fail(r, t, msg);
    }
    if (charged_table(r, &r->buffers, index, "Buffer", &bt) ||
        fb_vec_field(&bt, BUF_DATA, 1, "Buffer.data", &data) ||
        fb_u64(&bt, BUF_OFFSET, 0, &off) || fb_u64(&bt, BUF_SIZE, 0, &size))
        return -1;
    if (off > 1) {
        if (off > r->b.size || size > r->b.size - off) {
            snprintf(msg, sizeof msg,
                     "buffer %lu: external data (offset %llu, %llu bytes) runs past the end "
                     "of the %lu-byte file", (unsigned long)index, (unsigned long long)off,
                     (unsigned long long)size, (unsigned long)r->b.size);
            return tensor_fail(r, t, msg);
        }
        if (size) {
            t->data = r->b.data + off;
            t->data_bytes = (size_t)size;
        }
        return 0;
    }
    if (data.len) {
        t->data = r->b.data + data.pos;
        t->data_bytes = data.len;
    }
    return 0;
}

/* Constant data must be exactly shape x element size (TFLite reads that
 * many bytes; the generated code would read past a shorter buffer). */
static int check_data_size(reader *r, te_tensor *t)
{
    char msg[200];
    size_t esize = te_dtype_size(t->type), need;
    if (!t->data || !esize)
        return 0;
    need = (size_t)te_tensor_elems(t) * esize; /* <= 2^31 - 1: read_shape */
    if (t->data_bytes == need)
        return 0;
    snprintf(msg, sizeof msg, "has %lu bytes of constant data, but its shape needs %lu (%lld "
             "elements of %s)", (unsigned long)t->data_bytes, (unsigned long)need,
             (long long)te_tensor_elems(t), te_dtype_name(t->type));
    return tensor_fail(r, t, msg);
}

static int read_tensor(reader *r, const fb_vec *v, int i)
{
    te_tensor *t = &r->g->tensors[i];
    fb_table tt, sparse;
    int8_t type;
    uint32_t buffer;
    uint8_t var;
    int has_sparse;
    t->id = i;
    t->producer = -1;
    t->alias_of = -1;
    if (charged_table(r, v, (uint32_t)i, "Tensor", &tt) ||
        charged_str(r, &tt, TS_NAME, "Tensor.name", &t->name))
        return -1;
    if (fb_i8(&tt, TS_TYPE, 0, &type) || fb_u32(&tt, TS_BUFFER, 0, &buffer) ||
        fb_u8(&tt, TS_VARIABLE, 0, &var) ||
        fb_table_field(&tt, TS_SPARSITY, "SparsityParameters", &sparse, &has_sparse))
        return -1;
    t->type = type >= 0 ? (te_dtype)type : TE_DT_UNKNOWN;
    t->is_variable = var != 0;
    if (has_sparse)
        return tensor_fail(r, t, "is sparse (sparsity parameters are unsupported)");
    if (read_shape(r, &tt, t) || read_quant(r, &tt, t) || read_buffer(r, t, buffer))
        return -1;
    return check_data_size(r, t);
}

static int read_tensors(reader *r, const fb_table *sg)
{
    fb_vec v;
    int i;
    if (fb_vec_field(sg, SG_TENSORS, 4, "SubGraph.tensors", &v))
        return -1;
    r->g->tensors = xcalloc(r, v.len, sizeof *r->g->tensors);
    if (!r->g->tensors)
        return -1;
    r->g->n_tensors = (int)v.len;
    for (i = 0; i < r->g->n_tensors; i++)
        r->g->tensors[i].alias_of = -1;
    for (i = 0; i < r->g->n_tensors; i++)
        if (read_tensor(r, &v, i))
            return -1;
    return 0;
}

/* ---------------------------------------------------------------- options */

/* Names of the BuiltinOptions union members, by type id (for messages). */
static const char *const option_type_names[] = {
#define TE_BUILTIN_OPTIONS(tag, type, id) [id] = #type,
#include "../ir/tflite_schema.def"
#undef TE_BUILTIN_OPTIONS
};

typedef int (*opt_decoder)(reader *r, const fb_table *t, te_op *op);

static int dec_conv(reader *r, const fb_table *t, te_op *op)
{
    te_options *o = &op->opt;
    int8_t pad, act, bias_type;
    int32_t sw, sh, dw, dh;
    (void)r;
    if (fb_i8(t, 0, 0, &pad) || fb_i32(t, 1, 0, &sw) || fb_i32(t, 2, 0, &sh) ||
        fb_i8(t, 3, 0, &act) || fb_i32(t, 4, 1, &dw) || fb_i32(t, 5, 1, &dh) ||
        fb_i8(t, 6, 0, &bias_type))
        return -1;
    o->quantized_bias_type = (te_dtype)bias_type;
    o->padding = (te_padding)pad;
    o->stride_w = sw;
    o->stride_h = sh;
    o->activation = (te_activation)act;
    o->dilation_w = dw;
    o->dilation_h = dh;
    return 0;
}

static int dec_depthwise(reader *r, const fb_table *t, te_op *op)
{
    te_options *o = &op->opt;
    int8_t pad, act;
    int32_t sw, sh, mult, dw, dh;
    (void)r;
    if (fb_i8(t, 0, 0, &pad) || fb_i32(t, 1, 0, &sw) || fb_i32(t, 2, 0, &sh) ||
        fb_i32(t, 3, 0, &mult) || fb_i8(t, 4, 0, &act) || fb_i32(t, 5, 1, &dw) ||
        fb_i32(t, 6, 1, &dh))
        return -1;
    o->padding = (te_padding)pad;
    o->stride_w = sw;
    o->stride_h = sh;
    o->depth_multiplier = mult;
    o->activation = (te_activation)act;
    o->dilation_w = dw;
    o->dilation_h = dh;
    return 0;
}

static int dec_pool(reader *r, const fb_table *t, te_op *op)
{
    te_options *o = &op->opt;
    int8_t pad, act;
    int32_t sw, sh, fw, fh;
    (void)r;
    if (fb_i8(t, 0, 0, &pad) || fb_i32(t, 1, 0, &sw) || fb_i32(t, 2, 0, &sh) ||
        fb_i32(t, 3, 0, &fw) || fb_i32(t, 4, 0, &fh) || fb_i8(t, 5, 0, &act))
        return -1;
    o->padding = (te_padding)pad;
    o->stride_w = sw;
    o->stride_h = sh;
    o->filter_w = fw;
    o->filter_h = fh;
    o->activation = (te_activation)act;
    return 0;
}

static int dec_fully_connected(reader *r, const fb_table *t, te_op *op)
{
    int8_t act, fmt, bias_type;
    uint8_t keep;
    (void)r;
    if (fb_i8(t, 0, 0, &act) || fb_i8(t, 1, 0, &fmt) || fb_u8(t, 2, 0, &keep) ||
        fb_i8(t, 4, 0, &bias_type))
        return -1;
    op->opt.quantized_bias_type = (te_dtype)bias_type;
    op->opt.activation = (te_activation)act;
    op->opt.weights_format = fmt;
    op->opt.keep_dims = keep != 0;
    return 0;
}

static int dec_softmax(reader *r, const fb_table *t, te_op *op)
{
    (void)r;
    return fb_f32(t, 0, 0.0f, &op->opt.beta);
}

static int dec_concatenation(reader *r, const fb_table *t, te_op *op)
{
    int32_t axis;
    int8_t act;
    (void)r;
    if (fb_i32(t, 0, 0, &axis) || fb_i8(t, 1, 0, &act))
        return -1;
    op->opt.axis = axis;
    op->opt.activation = (te_activation)act;
    return 0;
}

/* AddOptions and MulOptions: the activation is field 0. */
static int dec_activation0(reader *r, const fb_table *t, te_op *op)
{
    int8_t act;
    (void)r;
    if (fb_i8(t, 0, 0, &act))
        return -1;
    op->opt.activation = (te_activation)act;
    return 0;
}

/* Reads an int vector of at most TE_MAX_RANK entries; *count = -1 if absent. */
static int read_small_ints(reader *r, const fb_table *t, int id, const char *what, te_op *op,
                           int *count, int *vals)
{
    fb_vec v;
    uint32_t i;
    *count = -1;
    if (fb_vec_field(t, id, 4, what, &v))
        return -1;
    if (!v.present)
        return 0;
    if (v.len > TE_MAX_RANK)
        return te_fail(r->d, "invalid model: %s (op %d): %s has %lu entries, more than %d",
                       te_opcode_name(op->opcode), op->index, what, (unsigned long)v.len,
                       TE_MAX_RANK);
    for (i = 0; i < v.len; i++)
        vals[i] = fb_vec_i32(&v, i);
    *count = (int)v.len;
    return 0;
}

static int dec_reshape(reader *r, const fb_table *t, te_op *op)
{
    return read_small_ints(r, t, 0, "ReshapeOptions.new_shape", op, &op->opt.new_shape_count,
                           op->opt.new_shape);
}

static int dec_reducer(reader *r, const fb_table *t, te_op *op)
{
    uint8_t keep;
    (void)r;
    if (fb_u8(t, 0, 0, &keep))
        return -1;
    op->opt.keep_dims = keep != 0;
    return 0;
}

static int dec_squeeze(reader *r, const fb_table *t, te_op *op)
{
    te_options *o = &op->opt;
    if (read_small_ints(r, t, 0, "SqueezeOptions.squeeze_dims", op, &o->squeeze_dims_count,
                        o->squeeze_dims))
        return -1;
    if (o->squeeze_dims_count < 0)
        o->squeeze_dims_count = 0;
    return 0;
}

static int dec_strided_slice(reader *r, const fb_table *t, te_op *op)
{
    te_options *o = &op->opt;
    int32_t m[5];
    uint8_t offset;
    int i;
    (void)r;
    for (i = 0; i < 5; i++)
        if (fb_i32(t, i, 0, &m[i]))
            return -1;
    if (fb_u8(t, 5, 0, &offset))
        return -1;
    o->begin_mask = m[0];
    o->end_mask = m[1];
    o->ellipsis_mask = m[2];
    o->new_axis_mask = m[3];
    o->shrink_axis_mask = m[4];
    o->offset = offset != 0;
    return 0;
}

static int dec_transpose_conv(reader *r, const fb_table *t, te_op *op)
{
    te_options *o = &op->opt;
    int8_t pad, act, bias_type;
    int32_t sw, sh;
    (void)r;
    if (fb_i8(t, 0, 0, &pad) || fb_i32(t, 1, 0, &sw) || fb_i32(t, 2, 0, &sh) ||
        fb_i8(t, 3, 0, &act) || fb_i8(t, 4, 0, &bias_type))
        return -1;
    o->quantized_bias_type = (te_dtype)bias_type;
    o->padding = (te_padding)pad;
    o->stride_w = sw;
    o->stride_h = sh;
    o->activation = (te_activation)act;
    o->dilation_w = 1;
    o->dilation_h = 1;
    return 0;
}

static int dec_resize_nearest(reader *r, const fb_table *t, te_op *op)
{
    uint8_t ac, hp;
    (void)r;
    if (fb_u8(t, 0, 0, &ac) || fb_u8(t, 1, 0, &hp))
        return -1;
    op->opt.align_corners = ac != 0;
    op->opt.half_pixel_centers = hp != 0;
    return 0;
}

/* ResizeBilinearOptions: new_height, new_width (deprecated), align_corners,
 * half_pixel_centers. */
static int dec_gather(reader *r, const fb_table *t, te_op *op)
{
    int32_t axis, batch_dims;
    (void)r;
    if (fb_i32(t, 0, 0, &axis) || fb_i32(t, 1, 0, &batch_dims))
        return -1;
    op->opt.axis = axis;
    op->opt.batch_dims = batch_dims;
    return 0;
}

/* PackOptions (values_count, axis) and UnpackOptions (num, axis). */
static int dec_count_axis(reader *r, const fb_table *t, te_op *op)
{
    int32_t count, axis;
    (void)r;
    if (fb_i32(t, 0, 0, &count) || fb_i32(t, 1, 0, &axis))
        return -1;
    op->opt.count = count;
    op->opt.axis = axis;
    return 0;
}

/* SplitOptions / SplitVOptions: num_splits. */
static int dec_num_splits(reader *r, const fb_table *t, te_op *op)
{
    int32_t n;
    (void)r;
    if (fb_i32(t, 0, 0, &n))
        return -1;
    op->opt.count = n;
    return 0;
}

/* SpaceToDepthOptions / DepthToSpaceOptions: block_size. */
static int dec_block_size(reader *r, const fb_table *t, te_op *op)
{
    int32_t b;
    (void)r;
    if (fb_i32(t, 0, 0, &b))
        return -1;
    op->opt.block_size = b;
    return 0;
}

/* MirrorPadOptions: mode (REFLECT = 0, SYMMETRIC = 1). */
static int dec_mirror_pad(reader *r, const fb_table *t, te_op *op)
{
    int8_t mode;
    (void)r;
    if (fb_i8(t, 0, 0, &mode))
        return -1;
    op->opt.mirror_mode = mode;
    return 0;
}

static int dec_leaky_relu(reader *r, const fb_table *t, te_op *op)
{
    (void)r;
    return fb_f32(t, 0, 0.0f, &op->opt.alpha);
}

static int dec_resize_bilinear(reader *r, const fb_table *t, te_op *op)
{
    uint8_t ac, hp;
    (void)r;
    if (fb_u8(t, 2, 0, &ac) || fb_u8(t, 3, 0, &hp))
        return -1;
    op->opt.align_corners = ac != 0;
    op->opt.half_pixel_centers = hp != 0;
    return 0;
}

/* CumsumOptions: exclusive, reverse. */
static int dec_cumsum(reader *r, const fb_table *t, te_op *op)
{
    uint8_t ex, rev;
    (void)r;
    if (fb_u8(t, 0, 0, &ex) || fb_u8(t, 1, 0, &rev))
        return -1;
    op->opt.exclusive = ex != 0;
    op->opt.reverse = rev != 0;
    return 0;
}

/* ArgMaxOptions / ArgMinOptions: output_type. */
static int dec_arg_min_max(reader *r, const fb_table *t, te_op *op)
{
    int8_t type;
    (void)r;
    if (fb_i8(t, 0, 0, &type))
        return -1;
    op->opt.output_type = (te_dtype)type;
    return 0;
}

/* BatchMatMulOptions: adj_x, adj_y (asymmetric_quantize_inputs is hybrid
 * only). */
static int dec_batch_matmul(reader *r, const fb_table *t, te_op *op)
{
    uint8_t ax, ay;
    (void)r;
    if (fb_u8(t, 0, 0, &ax) || fb_u8(t, 1, 0, &ay))
        return -1;
    op->opt.adj_x = ax != 0;
    op->opt.adj_y = ay != 0;
    return 0;
}

/* SVDFOptions: rank, fused_activation_function (asymmetric_quantize_inputs
 * is hybrid only). */
static int dec_svdf(reader *r, const fb_table *t, te_op *op)
{
    int32_t rank;
    int8_t act;
    (void)r;
    if (fb_i32(t, 0, 0, &rank) || fb_i8(t, 1, 0, &act))
        return -1;
    op->opt.svdf_rank = rank;
    op->opt.activation = (te_activation)act;
    return 0;
}

/* UnidirectionalSequenceLSTMOptions: fused_activation_function (the cell
 * gate's), cell_clip, proj_clip, time_major (asymmetric_quantize_inputs
 * is hybrid only; diagonal_recurrent_tensors is not in TFLM). */
static int dec_sequence_lstm(reader *r, const fb_table *t, te_op *op)
{
    int8_t act;
    uint8_t tm;
    (void)r;
    if (fb_i8(t, 0, 0, &act) || fb_f32(t, 1, 0.0f, &op->opt.cell_clip) ||
        fb_f32(t, 2, 0.0f, &op->opt.proj_clip) || fb_u8(t, 3, 0, &tm))
        return -1;
    op->opt.activation = (te_activation)act;
    op->opt.time_major = tm != 0;
    return 0;
}

/* A resource variable's id, as TFLite Micro's MicroResourceVariables finds
 * or creates it: the same shared_name, and the same container unless this
 * one has none (an absent or empty container matches any). */
static int resource_id(reader *r, char *container, char *name)
{
    int i;
    char **c2, **n2;
    for (i = 0; i < r->n_res; i++)
        if ((!container[0] || !strcmp(container, r->res_container[i])) &&
            !strcmp(name, r->res_name[i])) {
            free(container);
            free(name);
            return i;
        }
    c2 = realloc(r->res_container, (size_t)(r->n_res + 1) * sizeof *c2);
    if (c2)
        r->res_container = c2;
    n2 = realloc(r->res_name, (size_t)(r->n_res + 1) * sizeof *n2);
    if (n2)
        r->res_name = n2;
    if (!c2 || !n2) {
        free(container);
        free(name);
        return te_fail(r->d, "out of memory reading resource variables");
    }
    r->res_container[r->n_res] = container;
    r->res_name[r->n_res] = name;
    return r->n_res++;
}

static int dec_var_handle(reader *r, const fb_table *t, te_op *op)
{
    char *container = NULL, *name = NULL;
    if (fb_str_field(t, 0, "VarHandleOptions.container", &container) ||
        fb_str_field(t, 1, "VarHandleOptions.shared_name", &name)) {
        free(container);
        return -1;
    }
    op->opt.resource = resource_id(r, container, name);
    return op->opt.resource < 0 ? -1 : 0;
}

/* CallOnceOptions: init_subgraph_index. */
static int dec_call_once(reader *r, const fb_table *t, te_op *op)
{
    int32_t a;
    (void)r;
    if (fb_i32(t, 0, 0, &a))
        return -1;
    op->opt.subgraph[0] = a;
    return 0;
}

/* IfOptions then/else, WhileOptions cond/body subgraph indices. */
static int dec_two_subgraphs(reader *r, const fb_table *t, te_op *op)
{
    int32_t a, b;
    (void)r;
    if (fb_i32(t, 0, 0, &a) || fb_i32(t, 1, 0, &b))
        return -1;
    op->opt.subgraph[0] = a;
    op->opt.subgraph[1] = b;
    return 0;
}

/* One decoder per options table, by its BuiltinOptions union type id. */
static const opt_decoder decoders[TE_OPT_END_] = {
    [TE_OPT_VAR_HANDLE] = dec_var_handle,
    [TE_OPT_CALL_ONCE] = dec_call_once,
    [TE_OPT_IF] = dec_two_subgraphs,
    [TE_OPT_WHILE] = dec_two_subgraphs,
    [TE_OPT_CONV2D] = dec_conv,
    [TE_OPT_DEPTHWISE_CONV2D] = dec_depthwise,
    [TE_OPT_POOL2D] = dec_pool,
    [TE_OPT_FULLY_CONNECTED] = dec_fully_connected,
    [TE_OPT_SOFTMAX] = dec_softmax,
    [TE_OPT_CONCATENATION] = dec_concatenation,
    [TE_OPT_ADD] = dec_activation0,
    [TE_OPT_PACK] = dec_count_axis,
    [TE_OPT_MUL] = dec_activation0,
    [TE_OPT_RESHAPE] = dec_reshape,
    [TE_OPT_REDUCER] = dec_reducer,
    [TE_OPT_SQUEEZE] = dec_squeeze,
    [TE_OPT_STRIDED_SLICE] = dec_strided_slice,
    [TE_OPT_TRANSPOSE_CONV] = dec_transpose_conv,
    [TE_OPT_RESIZE_NEAREST_NEIGHBOR] = dec_resize_nearest,
    [TE_OPT_RESIZE_BILINEAR] = dec_resize_bilinear,
    [TE_OPT_ARG_MAX] = dec_arg_min_max,
    [TE_OPT_ARG_MIN] = dec_arg_min_max,
    [TE_OPT_BATCH_MAT_MUL] = dec_batch_matmul,
    [TE_OPT_SUB] = dec_activation0,
    [TE_OPT_LEAKY_RELU] = dec_leaky_relu,
    [TE_OPT_GATHER] = dec_gather,
    [TE_OPT_UNPACK] = dec_count_axis,
    [TE_OPT_SPLIT] = dec_num_splits,
    [TE_OPT_SPLIT_V] = dec_num_splits,
    [TE_OPT_SPACE_TO_DEPTH] = dec_block_size,
    [TE_OPT_DEPTH_TO_SPACE] = dec_block_size,
    [TE_OPT_MIRROR_PAD] = dec_mirror_pad,
    [TE_OPT_SVDF] = dec_svdf,
    [TE_OPT_L2NORM] = dec_activation0,
    [TE_OPT_DIV] = dec_activation0,
    [TE_OPT_CUMSUM] = dec_cumsum,
    [TE_OPT_UNIDIRECTIONAL_SEQUENCE_LSTM] = dec_sequence_lstm,
};

/* The options type each operator takes (tflite_schema.def
 * TE_BUILTIN_TAKES), 0 when its options are not read. */
static const unsigned char options_taken[TE_BUILTIN_COUNT] = {
#define TE_BUILTIN_TAKES(name, tag) [TE_OP_##name] = TE_OPT_##tag,
#include "../ir/tflite_schema.def"
#undef TE_BUILTIN_TAKES
};

static int options_type_of(int opcode)
{
    return opcode >= 0 && opcode < TE_BUILTIN_COUNT ? options_taken[opcode] : 0;
}

/* Fields that are not zero when the options table is absent. */
static void option_defaults(te_op *op, int taken)
{
    if (taken == TE_OPT_CONV2D || taken == TE_OPT_DEPTHWISE_CONV2D ||
        taken == TE_OPT_TRANSPOSE_CONV) {
        op->opt.dilation_w = 1;
        op->opt.dilation_h = 1;
    }
    if (taken == TE_OPT_RESHAPE)
        op->opt.new_shape_count = -1;
    op->opt.resource = -1;
    op->opt.subgraph[0] = op->opt.subgraph[1] = -1;
}

/* Decodes the builtin options by the union type the file carries, which
 * must be the one the operator takes (options_type_of). */
static int read_options(reader *r, const fb_table *ot, te_op *op)
{
    int taken = options_type_of(op->opcode);
    uint8_t type;
    fb_table t;
    int present;
    option_defaults(op, taken);
    if (!taken)
        return 0; /* options of this op are not used */
    if (fb_u8(ot, OP_OPT_TYPE, 0, &type))
        return -1;
    if (type == 0)
        return 0;
    if (type != taken)
        return te_fail(r->d,
                       "invalid model: %s (op %d): builtin_options has union type %d, expected "
                       "%d (%s)", te_opcode_name(op->opcode), op->index, type, taken,
                       option_type_names[taken]);
    if (fb_table_field(ot, OP_OPT, option_type_names[type], &t, &present))
        return -1;
    return present ? decoders[type](r, &t, op) : 0;
}

/* ---------------------------------------------------------------- custom options */

/* One key of a custom operator's FlexBuffers map (absent: null). */
static int flex_key(reader *r, const te_op *op, const fb_vec *v, const char *key,
                    te_flex_value *out)
{
    if (charge(r, (uint64_t)v->len + 1, "Operator.custom_options") < 0)
        return -1;
    if (te_flex_map_get(v->b->data + v->pos, v->len, key, out) == 0)
        return 0;
    return te_fail(r->d, "invalid model: %s (op %d): custom_options is not a valid "
                   "FlexBuffers map (reading '%s')", te_opcode_name(op->opcode), op->index, key);
}

/* TFLite_Detection_PostProcess's settings, read as TFLite Micro's Init
 * does: AsInt32 / AsFloat / AsBool of each key, a missing key as 0 except
 * detections_per_class (100) and use_regular_nms (false). */
static int read_detection_options(reader *r, const te_op *op, const fb_vec *v, te_options *o)
{
    static const char *const int_keys[] = {"max_detections", "max_classes_per_detection",
                                           "detections_per_class", "num_classes"};
    static const char *const float_keys[] = {"nms_score_threshold", "nms_iou_threshold",
                                             "y_scale", "x_scale", "h_scale", "w_scale"};
    int *ints[4];
    float *floats[6];
    te_flex_value f;
    size_t k;
    ints[0] = &o->detection.max_detections;
    ints[1] = &o->detection.max_classes_per_detection;
    ints[2] = &o->detection.detections_per_class;
    ints[3] = &o->detection.num_classes;
    floats[0] = &o->detection.score_threshold;
    floats[1] = &o->detection.iou_threshold;
    floats[2] = &o->detection.y_scale;
    floats[3] = &o->detection.x_scale;
    floats[4] = &o->detection.h_scale;
    floats[5] = &o->detection.w_scale;
    for (k = 0; k < 4; k++) {
        if (flex_key(r, op, v, int_keys[k], &f) < 0)
            return -1;
        *ints[k] = k == 2 && f.kind == TE_FLEX_NULL ? 100 : (int)te_flex_as_int32(&f);
    }
    for (k = 0; k < 6; k++) {
        if (flex_key(r, op, v, float_keys[k], &f) < 0)
            return -1;
        *floats[k] = te_flex_as_float(&f);
    }
    if (flex_key(r, op, v, "use_regular_nms", &f) < 0)
        return -1;
    o->detection.use_regular_nms = te_flex_as_bool(&f);
    return 0;
}

/* The custom_options of a custom operator the compiler knows. */
static int read_custom_options(reader *r, const fb_table *ot, te_op *op)
{
    fb_vec v;
    uint8_t format;
    if (op->opcode != TE_OP_DETECTION_POSTPROCESS)
        return 0;
    if (fb_vec_field(ot, OP_CUSTOM_OPT, 1, "Operator.custom_options", &v) ||
        fb_u8(ot, OP_CUSTOM_OPT_FORMAT, 0, &format))
        return -1;
    if (format != 0)
        return te_fail(r->d, "invalid model: %s (op %d): custom_options_format %d is not "
                       "FLEXBUFFERS (0)", te_opcode_name(op->opcode), op->index, format);
    if (!v.present || v.len == 0)
        return te_fail(r->d, "invalid model: %s (op %d): has no custom_options (TFLite Micro "
                       "reads its settings from them)", te_opcode_name(op->opcode), op->index);
    return read_detection_options(r, op, &v, &op->opt);
}

/* ---------------------------------------------------------------- operators */

static int op_index_fail(reader *r, const te_op *op, const char *which, int i, int tensor)
{
    return te_fail(r->d, "invalid model: %s (op %d): %s %d is tensor %d, out of range "
                   "(subgraph has %d tensors)", te_opcode_name(op->opcode), op->index, which, i,
                   tensor, r->g->n_tensors);
}

static int check_op_tensors(reader *r, te_op *op)
{
    int i, n = r->g->n_tensors;
    for (i = 0; i < op->n_in; i++)
        if (op->in[i] < -1 || op->in[i] >= n)
            return op_index_fail(r, op, "input", i, op->in[i]);
    for (i = 0; i < op->n_out; i++) {
        te_tensor *t;
        if (op->out[i] < 0 || op->out[i] >= n)
            return op_index_fail(r, op, "output", i, op->out[i]);
        t = &r->g->tensors[op->out[i]];
        if (t->data)
            return te_fail(r->d, "invalid model: %s (op %d): output %d is constant tensor %d "
                           "'%s'", te_opcode_name(op->opcode), op->index, i, t->id, t->name);
        if (t->producer >= 0)
            return te_fail(r->d, "invalid model: %s (op %d): output tensor %d is also written "
                           "by op %d", te_opcode_name(op->opcode), op->index, t->id, t->producer);
        t->producer = op->index;
    }
    return 0;
}

static int read_operator(reader *r, const fb_vec *v, int i)
{
    te_op *op = &r->g->ops[i];
    fb_table t;
    uint32_t code;
    op->index = i;
    if (charged_table(r, v, (uint32_t)i, "Operator", &t) || fb_u32(&t, OP_OPCODE, 0, &code))
        return -1;
    if (code >= (uint32_t)r->n_codes)
        return te_fail(r->d, "invalid model: op %d: opcode_index %lu is out of range "
                       "(model has %d operator codes)", i, (unsigned long)code, r->n_codes);
    op->opcode = r->codes[code];
    op->version = r->versions[code];
    if (te_custom_opcode(r->customs[code]) >= 0) /* a custom operator the compiler knows */
        op->opcode = te_custom_opcode(r->customs[code]);
    else if (r->customs[code]) {
        size_t n = strlen(r->customs[code]) + 1;
        op->custom_name = xcalloc(r, n, 1);
        if (!op->custom_name)
            return -1;
        memcpy(op->custom_name, r->customs[code], n);
    }
    if (read_index_list(r, &t, OP_INPUTS, "Operator.inputs", &op->in, &op->n_in) ||
        read_index_list(r, &t, OP_OUTPUTS, "Operator.outputs", &op->out, &op->n_out))
        return -1;
    if (check_op_tensors(r, op) || read_options(r, &t, op) || read_custom_options(r, &t, op))
        return -1;
    if (op->opcode == TE_OP_VAR_HANDLE && op->opt.resource < 0) { /* no options */
        char *container = xcalloc(r, 1, 1), *name = xcalloc(r, 1, 1);
        if (!container || !name) {
            free(container);
            free(name);
            return -1;
        }
        op->opt.resource = resource_id(r, container, name);
        return op->opt.resource < 0 ? -1 : 0;
    }
    return 0;
}

static int read_operators(reader *r, const fb_table *sg)
{
    fb_vec v;
    int i;
    if (fb_vec_field(sg, SG_OPERATORS, 4, "SubGraph.operators", &v))
        return -1;
    r->g->ops = xcalloc(r, v.len, sizeof *r->g->ops);
    if (!r->g->ops)
        return -1;
    r->g->n_ops = (int)v.len;
    for (i = 0; i < r->g->n_ops; i++)
        if (read_operator(r, &v, i))
            return -1;
    return 0;
}

/* ---------------------------------------------------------------- graph */

/* Where an operator input comes from must exist when the operator runs:
 * TFLite executes operators in the order they are stored, so that order
 * must be a topological order (no cycles, nothing read before written).
 * A CUSTOM operator may read a tensor nobody writes: accelerator ops (Vela's
 * ethos-u) take their scratch areas that way, and the runtime just gives
 * such a tensor arena space; validation then reports the operator itself.
 * is_input[t] = 1 for graph inputs. */
static int check_input_source(reader *r, const te_op *op, int i, const char *is_input)
{
    const te_tensor *t = &r->g->tensors[op->in[i]];
    const char *name = te_opcode_name(op->opcode);
    if (t->producer == op->index)
        return te_fail(r->d, "invalid model: %s (op %d): input %d (tensor %d '%s') is also its "
                       "own output (the graph has a cycle)", name, op->index, i, t->id, t->name);
    if (t->producer > op->index)
        return te_fail(r->d, "invalid model: %s (op %d): input %d (tensor %d '%s') is written by "
                       "op %d, which runs later (operators must be stored in execution order: "
                       "the graph has a cycle or is out of order)", name, op->index, i, t->id,
                       t->name, t->producer);
    if (t->producer < 0 && !t->data && !t->is_variable && !is_input[t->id] && !op->custom_name &&
        te_tensor_elems(t) != 0) /* an empty constant (tf.reshape(x, [])'s shape) needs no writer */
        return te_fail(r->d, "invalid model: %s (op %d): input %d (tensor %d '%s') is never "
                       "written: not a graph input, a constant, a variable or an output of an "
                       "earlier operator", name, op->index, i, t->id, t->name);
    return 0;
}

static int check_ops_order(reader *r, const char *is_input)
{
    te_graph *g = r->g;
    int i, k;
    for (i = 0; i < g->n_ops; i++)
        for (k = 0; k < g->ops[i].n_in; k++)
            if (g->ops[i].in[k] >= 0 && check_input_source(r, &g->ops[i], k, is_input))
                return -1;
    return 0;
}

static int check_graph_order(reader *r)
{
    te_graph *g = r->g;
    char *is_input = xcalloc(r, (size_t)g->n_tensors, 1);
    int i, rc = 0;
    if (!is_input)
        return -1;
    for (i = 0; i < g->n_inputs && !rc; i++) {
        const te_tensor *t = &g->tensors[g->inputs[i]];
        is_input[t->id] = 1;
        if (t->producer >= 0)
            rc = te_fail(r->d, "invalid model: graph input %d (tensor %d '%s') is also written "
                         "by %s (op %d)", i, t->id, t->name,
                         te_opcode_name(g->ops[t->producer].opcode), t->producer);
    }
    for (i = 0; i < g->n_outputs && !rc; i++) {
        const te_tensor *t = &g->tensors[g->outputs[i]];
        if (t->producer < 0 && !t->data && !t->is_variable && !is_input[t->id])
            rc = te_fail(r->d, "invalid model: graph output %d (tensor %d '%s') is never written: "
                         "not a graph input, a constant or an operator's output", i, t->id,
                         t->name);
    }
    if (!rc)
        rc = check_ops_order(r, is_input);
    free(is_input);
    return rc;
}

/* SubGraph.inputs (which = "inputs") or SubGraph.outputs. */
static int read_io(reader *r, const fb_table *sg, int id, const char *which, int **list, int *n)
{
    int i;
    if (read_index_list(r, sg, id, id == SG_INPUTS ? "SubGraph.inputs" : "SubGraph.outputs",
                        list, n))
        return -1;
    for (i = 0; i < *n; i++)
        if ((*list)[i] < 0 || (*list)[i] >= r->g->n_tensors)
            return te_fail(r->d, "invalid model: subgraph 0 %s[%d] is tensor %d, out of range "
                           "(subgraph has %d tensors)", which, i, (*list)[i], r->g->n_tensors);
    return 0;
}

static int read_model_header(reader *r, fb_table *model)
{
    uint32_t version;
    if (fb_root(&r->b, "Model", model) || fb_u32(model, MODEL_VERSION, 0, &version))
        return -1;
    if (version != TFLITE_SCHEMA_VERSION)
        return te_fail(r->d, "unsupported model: schema version %lu (expected %d)",
                       (unsigned long)version, TFLITE_SCHEMA_VERSION);
    r->g->schema_version = (int)version;
    if (fb_str_field(model, MODEL_DESC, "Model.description", &r->g->description))
        return -1;
    return fb_vec_field(model, MODEL_BUFFERS, 4, "Model.buffers", &r->buffers);
}

/* Subgraph `index` into r->g. */
static int read_subgraph(reader *r, const fb_vec *subgraphs, int index)
{
    fb_table sg;
    if (fb_vec_table(subgraphs, (uint32_t)index, "SubGraph", &sg) || read_tensors(r, &sg) ||
        read_io(r, &sg, SG_INPUTS, "inputs", &r->g->inputs, &r->g->n_inputs) ||
        read_io(r, &sg, SG_OUTPUTS, "outputs", &r->g->outputs, &r->g->n_outputs))
        return -1;
    return read_operators(r, &sg) || check_graph_order(r) ? -1 : 0;
}

/* Index of the subgraph op calls that subgraph 0 has not read yet, lowest
 * first; -1 when none (or an invalid index: then d is set and *bad = 1). */
static int next_called(reader *r, int after, uint32_t n_subgraphs, int *bad)
{
    const te_graph *g = r->g;
    int i, k, best = -1;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        int n = op->opcode == TE_OP_CALL_ONCE ? 1
                : op->opcode == TE_OP_IF || op->opcode == TE_OP_WHILE ? 2 : 0;
        for (k = 0; k < n; k++) {
            int s = op->opt.subgraph[k];
            if (s < 1 || (uint32_t)s >= n_subgraphs) {
                *bad = 1;
                te_fail(r->d, "invalid model: %s (op %d): calls subgraph %d (model has %lu "
                        "subgraphs; 0 is the main one)", te_opcode_name(op->opcode), op->index,
                        s, (unsigned long)n_subgraphs);
                return -1;
            }
            if (s > after && (best < 0 || s < best))
                best = s;
        }
    }
    return best;
}

/* The subgraphs CALL_ONCE and IF operators of subgraph 0 run, into
 * g->subgraphs[index], in index order (TFLite Micro prepares subgraphs in
 * that order, which decides which VAR_HANDLE creates a resource). */
static int read_called_subgraphs(reader *r, const fb_vec *subgraphs)
{
    te_graph *main_g = r->g;
    int s = 0, bad = 0, rc = 0;
    while (!rc && (s = next_called(r, s, subgraphs->len, &bad)) > 0) {
        te_graph *sub;
        if (!main_g->subgraphs) {
            main_g->subgraphs = xcalloc(r, subgraphs->len, sizeof *main_g->subgraphs);
            if (!main_g->subgraphs)
                return -1;
            main_g->n_subgraphs = (int)subgraphs->len;
        }
        sub = xcalloc(r, 1, sizeof *sub);
        if (!sub)
            return -1;
        main_g->subgraphs[s] = sub;
        r->g = sub;
        rc = read_subgraph(r, subgraphs, s);
        r->g = main_g;
    }
    return rc || bad ? -1 : 0;
}

static int read_graph(reader *r)
{
    fb_table model;
    fb_vec subgraphs;
    if (read_model_header(r, &model) || read_opcodes(r, &model) ||
        fb_vec_field(&model, MODEL_SUBGRAPHS, 4, "Model.subgraphs", &subgraphs))
        return -1;
    if (subgraphs.len == 0)
        return te_fail(r->d, "invalid model: no subgraphs");
    if (read_subgraph(r, &subgraphs, 0))
        return -1;
    return read_called_subgraphs(r, &subgraphs);
}

static int check_header(const uint8_t *data, size_t size, te_diag *d)
{
    if (size == 0)
        return te_fail(d, "invalid model: empty file");
    if (size < 8)
        return te_fail(d, "invalid model: file too small (%lu bytes) to be a TFLite model",
                       (unsigned long)size);
    if (memcmp(data + 4, "TFL3", 4) != 0)
        return te_fail(d, "not a TFLite model: file identifier at byte offset 4 is "
                       "%02x %02x %02x %02x, expected \"TFL3\"",
                       data[4], data[5], data[6], data[7]);
    return 0;
}

static void reader_free(reader *r)
{
    int i;
    for (i = 0; i < r->n_codes && r->customs; i++)
        free(r->customs[i]);
    free(r->customs);
    for (i = 0; i < r->n_res; i++) {
        free(r->res_container[i]);
        free(r->res_name[i]);
    }
    free(r->res_container);
    free(r->res_name);
    free(r->codes);
    free(r->versions);
}

te_graph *te_load_tflite(const uint8_t *data, size_t size, te_diag *d)
{
    reader r;
    int rc;
    if (check_header(data, size, d))
        return NULL;
    memset(&r, 0, sizeof r);
    r.d = d;
    r.g = xcalloc(&r, 1, sizeof *r.g);
    if (!r.g)
        return NULL;
    r.g->model_data = malloc(size);
    if (!r.g->model_data) {
        te_fail(d, "out of memory copying the %lu-byte model", (unsigned long)size);
        te_graph_free(r.g);
        return NULL;
    }
    memcpy(r.g->model_data, data, size);
    r.g->model_size = size;
    r.b.data = r.g->model_data;
    r.b.size = size;
    r.b.d = d;
    rc = read_graph(&r);
    if (!rc)
        rc = te_inline_if(r.g, d);
    if (!rc)
        rc = te_inline_while(r.g, d);
    if (!rc)
        rc = te_lower_resource_vars(r.g, r.res_name, r.n_res, d);
    reader_free(&r);
    if (rc) {
        te_graph_free(r.g);
        return NULL;
    }
    return r.g;
}

/* ---------------------------------------------------------------- files */

static uint8_t *read_all(FILE *f, size_t *size)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap > ((size_t)-1) / 2) {
            free(buf);
            return NULL;
        }
        {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    *size = n;
    return buf;
}

te_graph *te_load_tflite_file(const char *path, te_diag *d)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    size_t size = 0;
    te_graph *g;
    int err;
    if (!f) {
        te_fail(d, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    errno = 0;
    buf = read_all(f, &size);
    err = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (!buf || err) {
        if (err)
            te_fail(d, "cannot read '%s': %s", path, strerror(err));
        else
            te_fail(d, "out of memory reading '%s'", path);
        free(buf);
        return NULL;
    }
    if (size == 0) {
        te_fail(d, "empty file (0 bytes): not a .tflite model"); /* callers name the path */
        free(buf);
        return NULL;
    }
    g = te_load_tflite(buf, size, d);
    free(buf);
    return g;
}
