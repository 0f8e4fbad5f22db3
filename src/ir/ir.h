/* ir.h - the in-memory graph that every pass, the planner and the code
 * emitter work on: tensors, operators with their parsed options, and what
 * the passes decide for every plan alike (views).  What
 * varies between plan candidates is not here: storage decisions are a
 * te_storage (storage.h), the placement is te_plan.place (plan/plan.h).
 *
 * The frontend (src/frontend) builds a te_graph from a .tflite file; nothing
 * after it looks at FlatBuffers again.  Constant tensor data points into the
 * model image, which the graph keeps alive (model_data).  After the passes
 * the graph is only read: a patch stage is a graph derived from it
 * (te_graph.base), built beside it. */
#ifndef TE_IR_H
#define TE_IR_H

#include <stddef.h>
#include <stdint.h>

#include "tflite_schema.h"

#define TE_MAX_RANK 6

typedef enum {
    TE_DT_UNKNOWN = -1,
    /* values equal TFLite's TensorType enum */
    TE_DT_FLOAT32 = 0,
    TE_DT_FLOAT16 = 1,
    TE_DT_INT32 = 2,
    TE_DT_UINT8 = 3,
    TE_DT_INT64 = 4,
    TE_DT_STRING = 5,
    TE_DT_BOOL = 6,
    TE_DT_INT16 = 7,
    TE_DT_COMPLEX64 = 8,
    TE_DT_INT8 = 9,
    TE_DT_FLOAT64 = 10,
    TE_DT_RESOURCE = 20    /* a resource variable handle (VAR_HANDLE's output) */
} te_dtype;

/* te_opcode (TE_OP_<NAME> = TFLite's BuiltinOperator code, every one of them)
 * and te_options_type come from the schema table. */

/* Fused activation, values equal TFLite's ActivationFunctionType. */
typedef enum {
    TE_ACT_NONE = 0,
    TE_ACT_RELU = 1,
    TE_ACT_RELU_N1_TO_1 = 2,
    TE_ACT_RELU6 = 3,
    TE_ACT_TANH = 4,
    TE_ACT_SIGN_BIT = 5
} te_activation;

/* Padding, values equal TFLite's Padding enum. */
typedef enum { TE_PAD_SAME = 0, TE_PAD_VALID = 1 } te_padding;

/* Quantization parameters exactly as stored in the model. */
typedef struct {
    int count;             /* 0: not quantized; 1: per-tensor; >1: per-channel */
    float *scale;          /* count entries */
    int64_t *zero_point;   /* count entries */
    int quantized_dim;
} te_quant;

typedef struct {
    int id;                /* index in the subgraph's tensor table */
    char *name;            /* never NULL ("" if the model has none) */
    te_dtype type;
    int rank;
    int shape[TE_MAX_RANK];
    te_quant q;
    const uint8_t *data;   /* constant data inside the model image, or NULL */
    size_t data_bytes;
    int is_variable;

    /* filled by the frontend and the passes */
    int producer;          /* op index that writes it, -1 for inputs/consts */
    int alias_of;          /* tensor id this one is a zero-copy view of (RESHAPE,
                            * SPLIT ...: pass_alias.c), or -1.  The storage
                            * decisions that vary between plan candidates (in
                            * place, concatenation slices) are not here: they
                            * are a te_storage value (storage.h) */
    size_t alias_offset;   /* byte offset of the view inside alias_of */
    /* A resource variable (VAR_HANDLE's container/shared_name, made a
     * variable tensor by src/frontend/resource_vars.c): NAME_reset fills it
     * with its zero point cast to a byte for any quantized type (TFLite
     * Micro's MicroResourceVariables), then writes state_init over it (the
     * values CALL_ONCE's init subgraph assigns) when not NULL. */
    int is_resource;
    const uint8_t *state_init;
    /* 1: constant data only the compiler reads (a slice's begin and size
     * made by pass_split_slices.c), never emitted: no flash, no weights */
    int compile_only;

    /* patch-based stage (src/plan/patch.h), set only in a graph derived
     * for it (te_graph.base): 0 an ordinary tensor; 1 an intermediate of
     * the patched stage, never stored whole; 2 a region tensor of one
     * patch, stored at slot_offset inside the scratch of stage
     * patch_stage (0: the first) */
    int patch_role;
    size_t slot_offset;
    int patch_stage;
} te_tensor;

/* A half-open spatial box of a tensor (patch-based inference). */
typedef struct {
    int y0, y1, x0, x1;
} te_region;

/* Builtin options, already decoded.  Only the fields of the op's own kind
 * are meaningful; everything is zero otherwise. */
typedef struct {
    te_padding padding;
    int stride_w, stride_h;
    int dilation_w, dilation_h;    /* 1 when absent */
    int depth_multiplier;          /* DEPTHWISE_CONV_2D */
    int filter_w, filter_h;        /* pools */
    te_activation activation;      /* fused activation of any op that has one */
    int axis;                      /* CONCATENATION, GATHER, PACK, UNPACK */
    int batch_dims;                /* GATHER */
    int count;                     /* PACK values_count, UNPACK num, SPLIT(_V) num_splits */
    int block_size;                /* DEPTH_TO_SPACE, SPACE_TO_DEPTH */
    int mirror_mode;               /* MIRROR_PAD: 0 REFLECT, 1 SYMMETRIC */
    int keep_dims;                 /* MEAN, FULLY_CONNECTED keep_num_dims */
    /* CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV: the converter's accumulator
     * and bias type hint (TE_DT_FLOAT32, TFLite's 0, when not set) */
    te_dtype quantized_bias_type;
    int weights_format;            /* FULLY_CONNECTED: 0 = DEFAULT */
    float beta;                    /* SOFTMAX */
    float alpha;                   /* LEAKY_RELU */
    int align_corners, half_pixel_centers;  /* RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR */
    te_dtype output_type;          /* ARG_MAX, ARG_MIN (0 when absent) */
    int adj_x, adj_y;              /* BATCH_MATMUL */
    int exclusive, reverse;        /* CUMSUM */
    int svdf_rank;                 /* SVDF: filters per output unit */
    int begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask, offset;
    int new_shape_count;           /* RESHAPE options (may be absent: -1) */
    int new_shape[TE_MAX_RANK];
    int squeeze_dims_count;        /* SQUEEZE */
    int squeeze_dims[TE_MAX_RANK];
    /* CONV_2D, DEPTHWISE_CONV_2D: zero-point padding of a PAD folded into
     * the convolution (pass_fold_pad), added around the input before
     * `padding` applies; 0 when none */
    int pad_top, pad_bottom, pad_left, pad_right;
    /* UNIDIRECTIONAL_SEQUENCE_LSTM (activation: of the cell gate) */
    float cell_clip, proj_clip;
    int time_major;
    int resource;                  /* VAR_HANDLE: resource variable id, from its
                                    * (container, shared_name) as TFLite Micro matches them */
    int subgraph[2];               /* CALL_ONCE init; IF then, else; WHILE cond, body */
    /* Inputs (bit k: input k) that read an int8 tensor through its folded
     * DEQUANTIZE's table (pass_fold_dequantize.c); 0 on every other op */
    unsigned dequantized;
    /* TFLite_Detection_PostProcess (its custom_options map, as TFLite
     * Micro reads them: a missing key is 0, but detections_per_class
     * 100 and use_regular_nms 0) */
    struct {
        int max_detections, max_classes_per_detection, detections_per_class;
        int use_regular_nms, num_classes;
        float score_threshold, iou_threshold;
        float y_scale, x_scale, h_scale, w_scale;
    } detection;
    int branches;                  /* IF after inlining: 2 (output = cond ? input 1 + j
                                    * : input 1 + n + j), or 1 (constant condition:
                                    * output j = input 1 + j) */
    int loop_phase;                /* WHILE after inlining (te_loop_phase) */
    /* A patch clone of an op whose input positions follow from the whole
     * tensors' geometry (TE_PATCH_REMAP: PAD, RESIZE_*, SLICE ...), set by
     * src/plan/patch_build.c: the clone's output region starts at (oy, ox)
     * of the whole output along axes (ay, ax), its input region at (iy, ix)
     * of the whole input, whose height/width are in_h/in_w (out_h/out_w
     * the whole output's).  set = 0 on every other op. */
    struct {
        int set, ay, ax, oy, ox, iy, ix, in_h, in_w, out_h, out_w;
    } region;
} te_options;

/* The three operators a WHILE becomes (src/frontend/inline_while.c). */
typedef enum {
    TE_LOOP_NONE = 0,  /* not inlined */
    TE_LOOP_ENTER,     /* outputs (the loop variables) = inputs; the loop opens after it */
    TE_LOOP_TEST,      /* leaves the loop when input 0 (the condition) is false */
    TE_LOOP_NEXT       /* loop variable j (input n + j) = input j; the loop closes after it */
} te_loop_phase;

typedef struct {
    int index;             /* position in the model's execution order */
    int opcode;            /* te_opcode value (builtin code, may be unnamed) */
    int version;           /* operator_codes[].version */
    char *custom_name;     /* for CUSTOM ops, else NULL */
    int n_in, n_out;
    int *in;               /* tensor ids; -1 = optional input absent */
    int *out;
    te_options opt;
    int dead;              /* removed by a pass; skipped by planner/codegen */
    /* An operator of an IF branch, inlined (src/frontend/inline_if.c): 0
     * runs always; k > 0 runs only when bool tensor k - 1 is true (false
     * when guard_false) */
    int guard, guard_false;
    /* An operator of a WHILE loop (src/frontend/inline_while.c): 0 outside
     * any loop; k > 0 runs in the loop of the WHILE of model op index k - 1
     * (the generated code's `for (;;) { ... }` block) */
    int loop;
    /* A SLICE standing for output `part` of a model SPLIT / SPLIT_V
     * (src/passes/pass_split_slices.c): its own index is a new number
     * (after every model operator's, as the schedule names ops by index),
     * but layer dumps and messages name it as output part of model
     * operator part_of - 1 (te_op_model_index, te_op_model_output), whose
     * opcode is part_opcode (SPLIT or SPLIT_V).  0 on every other op. */
    int part_of, part, part_opcode;
} te_op;

/* The model operator an op's layers are reported as (layer dumps
 * op<NNN>_<j>, messages), and the number there of the op's output j. */
static inline int te_op_model_index(const te_op *op)
{
    return op->part_of ? op->part_of - 1 : op->index;
}
static inline int te_op_model_output(const te_op *op, int j)
{
    return op->part + j;
}

typedef struct te_graph {
    te_tensor *tensors;
    int n_tensors;
    te_op *ops;            /* execution order */
    int n_ops;
    int *inputs, n_inputs;
    int *outputs, n_outputs;
    char *description;     /* model description string, may be "" */
    int schema_version;

    uint8_t *model_data;   /* owned copy of the file image */
    size_t model_size;

    struct te_patch_plan *patch; /* patch-based first stage, or NULL (owned); set
                            * only on a derived graph (below) */
    /* A graph derived from base for its patch stage (te_patch_graph,
     * src/plan/patch.h), or NULL for a model's own graph.  A derived graph
     * owns only its tensor array (base's tensors, copied, with the stage's
     * roles marked, then the region tensors), its blocks (`owned`: the
     * region tensors' names and quantization, the clones' operand lists)
     * and patch; everything else (operators, inputs, outputs, constant
     * data, subgraphs) is base's, borrowed: base must outlive it and is
     * never modified through it. */
    const struct te_graph *base;
    uint64_t content_key;  /* the fingerprint (te_flash_graph_key) of a graph no
                            * longer written: set after the passes and when a
                            * derived graph is built; 0: computed on each use */
    int target;            /* te_target (src/ir/target.h): picks kernel variants */
    size_t flash_limit;    /* --flash-limit: bytes of flash the generated code may
                            * take (0 = none given: no flash-for-speed trades on
                            * Cortex-M4/M7) */
    void **owned;          /* buffers the graph frees: constant data computed
                            * at compile time (pass_fold_const.c); a derived
                            * graph's blocks (te_graph_alloc) */
    int n_owned;
    char *block_at;        /* te_graph_alloc's free bytes in the last block */
    size_t block_left;
    /* Further subgraphs of the model that operators of this one call
     * (CALL_ONCE's init subgraph), by model subgraph index; NULL when not
     * read.  Their constant data points into this graph's model_data. */
    struct te_graph **subgraphs;
    int n_subgraphs;
    int keep_order;        /* 1: operators have side effects on state (resource
                            * variables) or run under guards (IF branches): the
                            * schedule keeps the model's order */
    int has_guards;        /* 1: some operator has a guard or runs in a loop (no
                            * patch stage) */
} te_graph;

/* Frees everything the graph owns (including model_data; of a derived
 * graph, only what it owns: see te_graph.base). NULL is fine. */
void te_graph_free(te_graph *g);

/* Hands the heap buffer p to the graph, which frees it with itself;
 * returns p, or NULL (and frees p) when out of memory or g is a derived
 * graph (its base's buffers are not its own). */
void *te_graph_adopt(te_graph *g, void *p);

/* `bytes` (16-byte aligned) carved from blocks derived graph g owns and
 * frees with itself, for what it makes by the thousand (its region tensors'
 * names and quantization, its clones' operand lists); NULL when out of
 * memory. */
void *te_graph_alloc(te_graph *g, size_t bytes);

/* Helpers used everywhere. */
const char *te_dtype_name(te_dtype t);
size_t te_dtype_size(te_dtype t);            /* 0 for unknown/string */
/* "CONV_2D", "TFLite_Detection_PostProcess" (a known custom operator),
 * or "BUILTIN_<n>" */
const char *te_opcode_name(int opcode);
/* The code of the custom operator named custom_code (TE_CUSTOM lines of
 * tflite_schema.def), or -1. */
int te_custom_opcode(const char *custom_code);
int64_t te_tensor_elems(const te_tensor *t); /* product of shape; 1 for rank 0 */
size_t te_tensor_bytes(const te_tensor *t);
int te_tensor_same_shape(const te_tensor *a, const te_tensor *b); /* same rank and dims */
/* Makes t no view. */
void te_tensor_unalias(te_tensor *t);
/* 1 if tensor t is one of g's inputs / outputs. */
int te_graph_is_input(const te_graph *g, int t);
int te_graph_is_output(const te_graph *g, int t);
/* The one live operator reading tensor t, reading it once, as its input
 * *input; -1 if there is none, several read it (or one twice), or t is a
 * graph output. */
int te_graph_sole_reader(const te_graph *g, int t, int *input);

static inline te_tensor *te_in(te_graph *g, const te_op *op, int i)
{
    return (i < op->n_in && op->in[i] >= 0) ? &g->tensors[op->in[i]] : NULL;
}
static inline te_tensor *te_out(te_graph *g, const te_op *op, int i)
{
    return (i < op->n_out && op->out[i] >= 0) ? &g->tensors[op->out[i]] : NULL;
}

#endif
