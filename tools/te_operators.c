/* te_operators.c - writes docs/operators.md: every builtin operator that
 * TensorFlow Lite Micro registers (its MicroMutableOpResolver list, as of
 * the version the goldens were made with), and what this compiler does
 * with it, read from the op table itself, so the page cannot go stale
 * (ctest cli.docs_operators compares the committed page with this output);
 * then the custom operators it registers that we compile, and the builtins
 * of the op table TensorFlow Lite Micro does not register (TFLite-only
 * operators we compile, checked against TFLite's kernels).
 *   te_operators > docs/operators.md */
#include <stdio.h>

#include "ops/ops.h"

/* TensorFlow Lite Micro's builtin operators (its kernels directory). */
static const int tflm_builtins[] = {
    TE_OP_ABS, TE_OP_ADD, TE_OP_ADD_N, TE_OP_ARG_MAX, TE_OP_ARG_MIN, TE_OP_ASSIGN_VARIABLE,
    TE_OP_AVERAGE_POOL_2D, TE_OP_BATCH_MATMUL, TE_OP_BATCH_TO_SPACE_ND, TE_OP_BROADCAST_ARGS,
    TE_OP_BROADCAST_TO, TE_OP_CALL_ONCE, TE_OP_CAST, TE_OP_CEIL, TE_OP_CONCATENATION,
    TE_OP_CONV_2D, TE_OP_COS, TE_OP_CUMSUM, TE_OP_DEPTH_TO_SPACE, TE_OP_DEPTHWISE_CONV_2D,
    TE_OP_DEQUANTIZE, TE_OP_DIV, TE_OP_ELU, TE_OP_EMBEDDING_LOOKUP, TE_OP_EQUAL, TE_OP_EXP,
    TE_OP_EXPAND_DIMS, TE_OP_FILL, TE_OP_FLOOR, TE_OP_FLOOR_DIV, TE_OP_FLOOR_MOD,
    TE_OP_FULLY_CONNECTED, TE_OP_GATHER, TE_OP_GATHER_ND, TE_OP_GREATER, TE_OP_GREATER_EQUAL,
    TE_OP_HARD_SWISH, TE_OP_IF, TE_OP_L2_NORMALIZATION, TE_OP_L2_POOL_2D, TE_OP_LEAKY_RELU,
    TE_OP_LESS, TE_OP_LESS_EQUAL, TE_OP_LOG, TE_OP_LOG_SOFTMAX, TE_OP_LOGICAL_AND,
    TE_OP_LOGICAL_NOT, TE_OP_LOGICAL_OR, TE_OP_LOGISTIC, TE_OP_MAX_POOL_2D, TE_OP_MAXIMUM,
    TE_OP_MEAN, TE_OP_MINIMUM, TE_OP_MIRROR_PAD, TE_OP_MUL, TE_OP_NEG, TE_OP_NOT_EQUAL,
    TE_OP_PACK, TE_OP_PAD, TE_OP_PADV2, TE_OP_PRELU, TE_OP_QUANTIZE, TE_OP_READ_VARIABLE,
    TE_OP_REDUCE_ALL, TE_OP_REDUCE_MAX, TE_OP_REDUCE_MIN, TE_OP_RELU, TE_OP_RELU6, TE_OP_RESHAPE,
    TE_OP_RESIZE_BILINEAR, TE_OP_RESIZE_NEAREST_NEIGHBOR, TE_OP_REVERSE_V2, TE_OP_ROUND,
    TE_OP_RSQRT, TE_OP_SELECT_V2, TE_OP_SHAPE, TE_OP_SIN, TE_OP_SLICE, TE_OP_SOFTMAX,
    TE_OP_SPACE_TO_BATCH_ND, TE_OP_SPACE_TO_DEPTH, TE_OP_SPLIT, TE_OP_SPLIT_V, TE_OP_SQRT,
    TE_OP_SQUARE, TE_OP_SQUARED_DIFFERENCE, TE_OP_SQUEEZE, TE_OP_STRIDED_SLICE, TE_OP_SUB,
    TE_OP_SUM, TE_OP_SVDF, TE_OP_TANH, TE_OP_TRANSPOSE, TE_OP_TRANSPOSE_CONV,
    TE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, TE_OP_UNPACK, TE_OP_VAR_HANDLE, TE_OP_WHILE,
    TE_OP_ZEROS_LIKE,
};

#define N_TFLM ((int)(sizeof tflm_builtins / sizeof tflm_builtins[0]))

static int in_tflm(int opcode)
{
    int i;
    for (i = 0; i < N_TFLM; i++)
        if (tflm_builtins[i] == opcode)
            return 1;
    return 0;
}

/* What we do with an operator, from its op table entry. */
static const char *status(int opcode)
{
    const te_op_def *def = te_op_lookup(opcode);
    if (!def)
        return "no";
    if (!def->emit)
        return "folded at compile time (constant inputs, static shapes)";
    if (def->fold)
        return "yes (folded when its inputs are constants)";
    return "yes";
}

/* Whether the operator runs inside a patch stage, from its op table entry
 * (patch_kind; a channel SPLIT runs there as one SLICE per output). */
static const char *patch(int opcode)
{
    const te_op_def *def = te_op_lookup(opcode);
    if (opcode == TE_OP_SPLIT || opcode == TE_OP_SPLIT_V)
        return "yes (as SLICEs)";
    return def && def->emit && def->patch_kind ? "yes" : "no";
}

/* One table row: name, code, what we do, int16x8 or not, patches or not. */
static void row(int opcode)
{
    const te_op_def *def = te_op_lookup(opcode);
    printf("| %s | %d | %s | %s | %s |\n", te_opcode_name(opcode), opcode, status(opcode),
           def && def->emit && def->int16x8 ? "yes" : "no", patch(opcode));
}

/* The custom operators the op table knows (TE_CUSTOM lines of
 * src/ir/tflite_schema.def), all of which TFLite Micro registers. */
static void custom_ops(void)
{
    int code;
    printf("\n## Custom operators\n\n"
           "CUSTOM operators TensorFlow Lite Micro registers, by their custom_code name; the\n"
           "code column is the compiler's own number for them. TFLite Micro's other custom\n"
           "operators (CIRCULAR_BUFFER, ethos-u, the signal library's) are refused.\n"
           "TFLite_Detection_PostProcess takes float32 inputs, as TFLite Micro's kernel does\n"
           "(in an int8 detector a DEQUANTIZE comes before it).\n\n"
           "| operator | code | int8 | int16 | patch |\n|---|---:|---|---|---|\n");
    for (code = TE_CUSTOM_BASE; code < TE_CUSTOM_BASE + TE_CUSTOM_COUNT; code++)
        row(code);
}

/* The op table's builtins TFLite Micro does not register, by code. */
static void tflite_only(void)
{
    int code, n = 0;
    for (code = 0; code < TE_BUILTIN_COUNT; code++) {
        if (in_tflm(code) || !te_op_lookup(code))
            continue;
        if (!n++)
            printf("\n## TFLite builtins TensorFlow Lite Micro does not register\n\n"
                   "Compiled with the semantics of TensorFlow Lite's own kernel\n"
                   "(tensorflow/lite/kernels); no TFLite Micro golden output exists for them.\n\n"
                   "| operator | code | int8 | int16 | patch |\n|---|---:|---|---|---|\n");
        row(code);
    }
}

int main(void)
{
    int i, yes = 0, folded = 0;
    for (i = 0; i < N_TFLM; i++) {
        const te_op_def *def = te_op_lookup(tflm_builtins[i]);
        yes += def && def->emit;
        folded += def && !def->emit;
    }
    printf("# Operators\n\n"
           "Every builtin operator TensorFlow Lite Micro registers, and whether TinyEngine\n"
           "compiles it. Written by `tools/te_operators.c` from the compiler's own op table\n"
           "(`build/te_operators > docs/operators.md`); the test `cli.docs_operators` fails when\n"
           "this page and the op table disagree.\n\n"
           "*int8*: the operator compiles for int8 (and the other types its op file accepts),\n"
           "bit-exact with TensorFlow Lite Micro's reference kernels. *int16*: also with int16x8\n"
           "activations (int16, zero point 0; issue 14). Operators outside this page (custom\n"
           "operators, TFLite-only builtins not listed below) are refused with their names.\n"
           "*patch*: the operator can run inside a patch stage (`--patch`, issue 16) on a\n"
           "region of its tensors; some only for some types or with constant operands\n"
           "(the `patch_kind` of its op file says which; `info --patch auto --explain`\n"
           "names the operator that ends a stage).\n\n"
           "%d of %d compile; %d more are folded away at compile time.\n\n"
           "| operator | code | int8 | int16 | patch |\n|---|---:|---|---|---|\n",
           yes, N_TFLM, folded);
    for (i = 0; i < N_TFLM; i++)
        row(tflm_builtins[i]);
    custom_ops();
    tflite_only();
    return 0;
}
