/* tflite_builder.h - writes .tflite model files without TensorFlow.
 *
 * Owns two layers:
 *  - fbb_*: a minimal back-to-front FlatBuffer builder (tables with vtables,
 *    scalars, strings, vectors, vectors of offsets, file identifier).
 *  - tflb_*: a TFLite model held in memory (buffers, tensors, operator codes,
 *    operators with builtin options, subgraph inputs/outputs), serialized by
 *    tflb_finish() as one subgraph, schema version 3, identifier "TFL3".
 *
 * The TFLite layer stores every index exactly as given and checks none of
 * them, so tests can write models with one deliberate flaw (a tensor index
 * out of range, a buffer index past the buffers vector, ...).  Field ids
 * follow tensorflow/lite/schema/schema.fbs; operator codes and union ids
 * come from src/ir/tflite_schema.def. */
#ifndef TFLITE_BUILDER_H
#define TFLITE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "../src/ir/tflite_schema.h"

/* ---------------------------------------------------------------------
 * FlatBuffer builder.  Objects are written from the end of the buffer
 * towards its start; an fbb_ref is an object's distance from the end.
 * Children (strings, vectors, sub-tables) must be finished before the
 * table that refers to them is started; only one table is open at a time. */

#define FBB_MAX_FIELDS 32

typedef uint32_t fbb_ref;

typedef struct {
    uint8_t *buf;        /* the data lies in buf[cap - size, cap) */
    size_t cap, size;
    size_t minalign;     /* largest alignment used so far */
    int err;             /* out of memory or misuse: finish fails */
    int in_table;
    size_t table_start;  /* size when the open table was started */
    int nfields;         /* highest field id used + 1 */
    uint32_t field_pos[FBB_MAX_FIELDS];  /* 0 = absent */
} fbb;

void fbb_init(fbb *b);
void fbb_free(fbb *b);

/* Pads so that after writing `extra` more bytes the data is aligned. */
void fbb_prep(fbb *b, size_t align, size_t extra);

fbb_ref fbb_string(fbb *b, const char *s);
/* Vectors of scalars; `align` > 4 forces a larger element alignment. */
fbb_ref fbb_vec_u8(fbb *b, const uint8_t *v, uint32_t n, size_t align);
fbb_ref fbb_vec_i32(fbb *b, const int32_t *v, uint32_t n);
fbb_ref fbb_vec_i64(fbb *b, const int64_t *v, uint32_t n);
fbb_ref fbb_vec_f32(fbb *b, const float *v, uint32_t n);
/* Vector of offsets to tables or strings. */
fbb_ref fbb_vec_ref(fbb *b, const fbb_ref *v, uint32_t n);

void fbb_start(fbb *b);
void fbb_add_u8(fbb *b, int id, uint8_t v);
void fbb_add_i32(fbb *b, int id, int32_t v);
void fbb_add_u32(fbb *b, int id, uint32_t v);
void fbb_add_u64(fbb *b, int id, uint64_t v);
void fbb_add_f32(fbb *b, int id, float v);
void fbb_add_ref(fbb *b, int id, fbb_ref r);
fbb_ref fbb_end(fbb *b);

/* Writes the root offset (and the 4-byte identifier if ident != NULL).
 * Returns 0, or -1 if any earlier step failed. */
int fbb_finish(fbb *b, fbb_ref root, const char *ident);

/* The finished image (valid until fbb_free). */
const uint8_t *fbb_data(const fbb *b, size_t *size);

/* ---------------------------------------------------------------------
 * TFLite model builder. */

#define TFLB_MAX_RANK 8

/* TensorType values. */
enum {
    TFLB_FLOAT32 = 0,
    TFLB_INT32 = 2,
    TFLB_UINT8 = 3,
    TFLB_INT64 = 4,
    TFLB_BOOL = 6,
    TFLB_INT16 = 7,
    TFLB_INT8 = 9
};

/* Operator codes and option union ids: TE_OP_<NAME> (BuiltinOperator) and
 * TE_OPT_<TAG> (BuiltinOptions), from the compiler's schema table. */

/* Padding and ActivationFunctionType values. */
enum { TFLB_PAD_SAME = 0, TFLB_PAD_VALID = 1 };
enum { TFLB_ACT_NONE = 0, TFLB_ACT_RELU = 1, TFLB_ACT_RELU_N1_TO_1 = 2, TFLB_ACT_RELU6 = 3 };

/* Builtin options of one operator.  `type` selects the union member and
 * which fields are written; build one with the tflb_opt_* helpers and
 * adjust fields (e.g. dilation) afterwards if needed.  A type without
 * fields listed here is written as an empty table. */
typedef struct {
    int type;                  /* TE_OPT_* (BuiltinOptions union type) */
    int padding;               /* CONV2D, DEPTHWISE_CONV2D, POOL2D, TRANSPOSE_CONV */
    int stride_w, stride_h;    /* CONV2D, DEPTHWISE_CONV2D, POOL2D, TRANSPOSE_CONV */
    int dilation_w, dilation_h;/* CONV2D, DEPTHWISE_CONV2D (written when != 1) */
    int depth_multiplier;      /* DEPTHWISE_CONV2D */
    int filter_w, filter_h;    /* POOL2D */
    int activation;            /* every type that has fused_activation_function */
    int axis;                  /* CONCATENATION */
    int keep_dims;             /* FULLY_CONNECTED keep_num_dims, REDUCER keep_dims */
    float beta;                /* SOFTMAX */
    int n_dims;                /* RESHAPE new_shape / SQUEEZE squeeze_dims; -1: absent */
    int32_t dims[TFLB_MAX_RANK];
    /* STRIDED_SLICE: begin, end, ellipsis, new_axis, shrink_axis masks */
    int32_t masks[5];
    int align_corners, half_pixel_centers; /* RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR */
    int exclusive, reverse;    /* CUMSUM */
    int block_size;            /* SPACE_TO_DEPTH, DEPTH_TO_SPACE */
    int mirror_mode;           /* MIRROR_PAD: 0 REFLECT, 1 SYMMETRIC */
    const char *container, *shared_name; /* VAR_HANDLE (NULL: field absent) */
    int subgraph[2];           /* CALL_ONCE init; IF then, else; WHILE cond, body */
    int count;                 /* PACK values_count, UNPACK num, SPLIT(_V) num_splits */
    float alpha;               /* LEAKY_RELU */
    int adj_x, adj_y;          /* BATCH_MATMUL */
    float cell_clip;           /* UNIDIRECTIONAL_SEQUENCE_LSTM (activation, time_major too) */
    int time_major;
} tflb_options;

tflb_options tflb_opt_none(void);
tflb_options tflb_opt_empty(int type);
tflb_options tflb_opt_conv2d(int padding, int stride_w, int stride_h, int act);
tflb_options tflb_opt_dwconv2d(int padding, int stride_w, int stride_h,
                               int depth_multiplier, int act);
tflb_options tflb_opt_pool2d(int padding, int stride_w, int stride_h,
                             int filter_w, int filter_h, int act);
tflb_options tflb_opt_fc(int act, int keep_num_dims);
tflb_options tflb_opt_softmax(float beta);
tflb_options tflb_opt_concat(int axis, int act);
tflb_options tflb_opt_add(int act);
tflb_options tflb_opt_mul(int act);
tflb_options tflb_opt_sub(int act);
tflb_options tflb_opt_div(int act);
tflb_options tflb_opt_reshape(const int32_t *new_shape, int n); /* n < 0: no field */
tflb_options tflb_opt_reducer(int keep_dims);
tflb_options tflb_opt_squeeze(const int32_t *dims, int n);
tflb_options tflb_opt_transpose_conv(int padding, int stride_w, int stride_h, int act);
tflb_options tflb_opt_strided_slice(int begin_mask, int end_mask, int shrink_axis_mask);
tflb_options tflb_opt_resize_nearest(int align_corners, int half_pixel_centers);
tflb_options tflb_opt_resize_bilinear(int align_corners, int half_pixel_centers);
tflb_options tflb_opt_cumsum(int exclusive, int reverse);
/* type: TE_OPT_SPACE_TO_DEPTH or TE_OPT_DEPTH_TO_SPACE */
tflb_options tflb_opt_space_depth(int type, int block_size);
tflb_options tflb_opt_mirror_pad(int mode);
/* PACK / UNPACK (count, axis) and SPLIT / SPLIT_V (count). */
tflb_options tflb_opt_pack(int type, int count, int axis);
tflb_options tflb_opt_split(int type, int count);
tflb_options tflb_opt_leaky_relu(float alpha);
tflb_options tflb_opt_batch_matmul(int adj_x, int adj_y);
tflb_options tflb_opt_sequence_lstm(int act, float cell_clip, int time_major);
/* VAR_HANDLE (the strings must outlive the model) and CALL_ONCE. */
tflb_options tflb_opt_var_handle(const char *container, const char *shared_name);
tflb_options tflb_opt_call_once(int init_subgraph_index);

/* Quantization parameters as written.  n_scale and n_zero_point are kept
 * separate on purpose (a mismatch is a test case). */
typedef struct {
    int n_scale;
    const float *scale;
    int n_zero_point;
    const int64_t *zero_point;
    int quantized_dimension;
} tflb_quant;

/* Per-tensor parameters (the struct points at the caller's variables). */
tflb_quant tflb_quant1(const float *scale, const int64_t *zero_point);

typedef struct {
    uint8_t *data;
    size_t bytes;
} tflb_buffer;

typedef struct {
    char *name;
    int type;
    int rank;
    int32_t shape[TFLB_MAX_RANK];
    uint32_t buffer;
    int has_quant;
    int n_scale, n_zp, qdim;
    float *scale;
    int64_t *zp;
    int is_variable;     /* Tensor.is_variable (set it after tflb_add_tensor) */
} tflb_tensor;

typedef struct {
    int builtin;
    int version;
    char *custom_code;   /* NULL for builtins */
} tflb_opcode;

typedef struct {
    uint32_t opcode;
    int32_t *in, *out;
    int n_in, n_out;
    tflb_options opt;
    uint8_t *custom_options;   /* Operator.custom_options bytes, or NULL */
    size_t custom_options_bytes;
} tflb_op;

/* The model being built.  Fields may be read (and, in tests, altered
 * before tflb_finish); use the functions below to add things. */
typedef struct tflb_model {
    tflb_buffer *buffers;
    int n_buffers, cap_buffers;
    tflb_tensor *tensors;
    int n_tensors, cap_tensors;
    tflb_opcode *opcodes;
    int n_opcodes, cap_opcodes;
    tflb_op *ops;
    int n_ops, cap_ops;
    int32_t *inputs, *outputs;
    int n_inputs, n_outputs;
    char *description;
    char *subgraph_name;
    uint32_t schema_version;  /* 3 */
    int err;                  /* out of memory: finish fails */
    /* Subgraphs 1, 2, ... (tflb_add_subgraph): only their tensors, ops,
     * inputs and outputs are written; buffers and operator codes are this
     * model's (add them here, then use their indices there). */
    struct tflb_model **extra;
    int n_extra;
} tflb_model;

/* Starts an empty model holding buffer 0 (the empty sentinel buffer). */
void tflb_init(tflb_model *m);
void tflb_free(tflb_model *m);

void tflb_set_description(tflb_model *m, const char *s);

/* Adds a buffer with a copy of data (bytes may be 0); returns its index. */
int tflb_add_buffer(tflb_model *m, const void *data, size_t bytes);

/* Adds a tensor; q may be NULL (no quantization table).  buffer 0 means
 * "no data".  Returns the tensor index. */
int tflb_add_tensor(tflb_model *m, const char *name, int type, const int32_t *shape,
                    int rank, uint32_t buffer, const tflb_quant *q);

/* Adds a buffer holding data and a tensor using it. */
int tflb_add_const(tflb_model *m, const char *name, int type, const int32_t *shape,
                   int rank, const void *data, size_t bytes, const tflb_quant *q);

/* Adds an operator code; returns its index. */
int tflb_add_opcode(tflb_model *m, int builtin, int version);
int tflb_add_custom_opcode(tflb_model *m, const char *custom_code, int version);

/* Adds an operator (opt may be NULL: no options); returns its index. */
int tflb_add_op(tflb_model *m, int opcode_index, const int32_t *in, int n_in,
                const int32_t *out, int n_out, const tflb_options *opt);

/* Gives operator op_index a copy of custom_options bytes (the opaque
 * configuration of a CUSTOM operator). */
void tflb_set_custom_options(tflb_model *m, int op_index, const void *data, size_t bytes);

/* A FlexBuffers map of scalars (custom_options of CUSTOM operators such as
 * TFLite_Detection_PostProcess): each entry a key and an int, a float or a
 * bool, every value 4 bytes wide inline, keys sorted as FlexBuffers
 * readers expect.  Writes at most cap bytes to out and returns the size,
 * or 0 when it does not fit. */
typedef enum { TFLB_FLEX_INT, TFLB_FLEX_FLOAT, TFLB_FLEX_BOOL } tflb_flex_kind;
typedef struct {
    const char *key;
    tflb_flex_kind kind;
    double value;
} tflb_flex_entry;
size_t tflb_flex_map(uint8_t *out, size_t cap, const tflb_flex_entry *e, int n);

/* Starts subgraph number n_extra + 1 and returns it (owned by m), or NULL. */
tflb_model *tflb_add_subgraph(tflb_model *m);

void tflb_set_inputs(tflb_model *m, const int32_t *t, int n);
void tflb_set_outputs(tflb_model *m, const int32_t *t, int n);

/* Serializes the model into *out (malloc'd, caller frees).  0 or -1. */
int tflb_finish(const tflb_model *m, uint8_t **out, size_t *size);

/* tflb_finish + write to a file.  0 or -1 (message on stderr). */
int tflb_write_file(const tflb_model *m, const char *path);

/* Writes n bytes to a file (the inputs and reference outputs the model
 * generators write beside their models).  0 or -1 (message on stderr). */
int tflb_write_bytes(const char *path, const void *data, size_t n);

#endif
