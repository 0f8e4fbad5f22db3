/* codegen.c - assembles the generated translation unit: the pasted runtime
 * kernels the model uses, the static arena, the constant arrays, the invoke
 * function (one kernel call per operator, layer hook after each), and the
 * input/output accessors; plus the public header. */
#include "codegen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"
#include "../ir/target.h"
#include "../plan/patch.h"
#include "emit.h"
#include "runtime_select.h"
#include "stack_bound.h"

void te_c_identifier(const char *in, char *out, size_t out_size)
{
    size_t i = 0;
    if (out_size == 0)
        return;
    if (!isalpha((unsigned char)*in) && *in != '_' && i + 1 < out_size)
        out[i++] = 'm';
    for (; *in && i + 1 < out_size; in++)
        out[i++] = isalnum((unsigned char)*in) ? *in : '_';
    out[i] = '\0';
}

/* Copy of s that is safe inside a C comment: printable ASCII only, no star-slash. */
static const char *comment_safe(const char *s, char *out, size_t n)
{
    size_t i = 0;
    for (; *s && i + 1 < n; s++) {
        unsigned char c = (unsigned char)*s;
        out[i++] = (c < 0x20 || c > 0x7e || (c == '*' && s[1] == '/')) ? '_' : (char)c;
    }
    out[i] = '\0';
    return out;
}

static void upper(const char *in, char *out, size_t n)
{
    size_t i;
    for (i = 0; in[i] && i + 1 < n; i++)
        out[i] = (char)toupper((unsigned char)in[i]);
    out[i] = '\0';
}

int te_emit_patch_stage(te_emit *e, const te_patch_plan *sp, int k, te_diag *d); /* emit_patch.c */

/* The provenance lines as " * LINE" lines of the open first comment. */
static void emit_provenance(te_buf *b, const char *prov)
{
    while (prov && *prov) {
        const char *end = strchr(prov, '\n');
        size_t n = end ? (size_t)(end - prov) : strlen(prov);
        te_buf_printf(b, " * %.*s\n", (int)n, prov);
        prov = end ? end + 1 : prov + n;
    }
}

/* Rows of a strided slice: its bytes over the bytes of one row. */
static size_t slice_rows(const te_tensor *t, size_t *row_bytes)
{
    *row_bytes = (size_t)t->shape[t->rank - 1] * te_dtype_size(t->type);
    return *row_bytes ? te_tensor_bytes(t) / *row_bytes : 0;
}

static void emit_layer_done(te_emit *e, const te_op *op)
{
    int j;
    for (j = 0; j < op->n_out; j++) {
        const te_tensor *t = te_out(e->g, op, j);
        size_t row, rows, pitch;
        if (!t || t->patch_role)
            continue;
        pitch = te_storage_slice_pitch(te_emit_storage(e), t->id);
        rows = pitch ? slice_rows(t, &row) : 0;
        if (rows) /* gathered for the hook (pass_concat.c) */
            te_buf_printf(&e->body, "    TE_LAYER_SLICE(%d, %d, %s, %zu, %zu, %zu);\n",
                          te_op_model_index(op), te_op_model_output(op, j),
                          te_emit_tensor(e, t->id).s, rows, row, pitch);
        else
            te_buf_printf(&e->body, "    TE_LAYER_DONE(%d, %d, %s, %zu);\n",
                          te_op_model_index(op), te_op_model_output(op, j),
                          te_emit_tensor(e, t->id).s, te_tensor_bytes(t));
    }
}

/* The layer hook of strided concatenation slices: the slice's rows are
 * gathered into a buffer that exists only when the hook is defined. */
static void emit_slice_hook(te_buf *c, const te_graph *g, const te_storage *st, const char *name,
                            const char *up)
{
    size_t most = 0;
    int t;
    for (t = 0; t < g->n_tensors; t++)
        if (te_storage_slice_pitch(st, t) && te_tensor_bytes(&g->tensors[t]) > most)
            most = te_tensor_bytes(&g->tensors[t]);
    if (!most)
        return;
    te_buf_printf(c,
                  "\n#ifdef %s_LAYER_HOOK\n"
                  "/* an output written straight into its concatenation, one row every pitch "
                  "bytes */\n"
                  "static void %s_layer_slice(int op, int j, const void *data, size_t rows, "
                  "size_t len, size_t pitch)\n{\n"
                  "    static uint8_t rows_of[%zu];\n"
                  "    const uint8_t *p = (const uint8_t *)data;\n"
                  "    size_t r, k;\n"
                  "    for (r = 0; r < rows; r++)\n"
                  "        for (k = 0; k < len; k++)\n"
                  "            rows_of[r * len + k] = p[r * pitch + k];\n"
                  "    %s_LAYER_HOOK(op, j, rows_of, rows * len);\n}\n"
                  "#define TE_LAYER_SLICE(op, j, p, rows, len, pitch) "
                  "%s_layer_slice(op, j, p, rows, len, pitch)\n"
                  "#else\n#define TE_LAYER_SLICE(op, j, p, rows, len, pitch) ((void)0)\n#endif\n",
                  up, name, most, up, name);
}

/* The guard block the previous operator left open (an IF branch). */
typedef struct {
    int guard, guard_false;
} open_block;

/* Closes the open block and opens op's, as `} else {` when op runs in the
 * other branch of the same condition. */
static void open_guard(te_emit *e, open_block *b, const te_op *op)
{
    if (b->guard == op->guard && b->guard_false == op->guard_false)
        return;
    if (b->guard && b->guard == op->guard && !b->guard_false && op->guard_false)
        te_buf_printf(&e->body, "    } else {\n");
    else {
        if (b->guard)
            te_buf_printf(&e->body, "    }\n");
        if (op->guard)
            te_buf_printf(&e->body, "    if (%s*(const uint8_t *)%s) {\n",
                          op->guard_false ? "!" : "", te_emit_tensor(e, op->guard - 1).s);
    }
    b->guard = op->guard;
    b->guard_false = op->guard_false;
}

static int emit_ops(te_emit *e, te_diag *d)
{
    const te_plan *p = e->plan;
    open_block guard = {0, 0};
    int s, loop = 0;
    for (s = 0; s < p->n_steps; s++) {
        const te_op *op = &e->g->ops[p->schedule[s]];
        const te_op_def *def = te_op_find(op->opcode);
        int k;
        const te_patch_plan *sp = te_patch_stage_of(e->g->patch, s, &k);
        size_t start;
        if (sp) { /* a patch stage starts (no guard or loop around one) */
            int last = te_patch_stage_last(sp);
            if (te_emit_patch_stage(e, sp, k, d) < 0)
                return -1;
            for (; s <= last; s++)
                emit_layer_done(e, &e->g->ops[p->schedule[s]]);
            s = last;
            continue;
        }
        if (!def)
            return te_fail(d, "unsupported operator %s (op %d)", te_opcode_name(op->opcode),
                           te_op_model_index(op));
        if (loop && op->loop != loop) { /* a WHILE loop ends (no guard is open in one) */
            te_buf_printf(&e->body, "    }\n");
            loop = 0;
        }
        open_guard(e, &guard, op);
        if (op->loop != loop) {
            te_buf_printf(&e->body, "    for (;;) {\n");
            loop = op->loop;
        }
        start = e->body.len;
        if (op->part_of) /* a SPLIT's output (pass_split_slices.c) */
            te_buf_printf(&e->body, "    /* op %d: SLICE, the split's output %d */\n",
                          te_op_model_index(op), op->part);
        else
            te_buf_printf(&e->body, "    /* op %d: %s */\n", op->index, te_opcode_name(op->opcode));
        e->cur_op = op;
        e->low = te_lowered_find(p->low, e->g, op);
        if (def->emit(e, op) < 0) {
            if (!d->failed)
                te_op_fail(d, op, "code generation failed");
            return -1;
        }
        emit_layer_done(e, op);
        if (op->guard || op->loop)
            te_emit_indent_since(e, start);
    }
    if (guard.guard || loop)
        te_buf_printf(&e->body, "    }\n");
    e->cur_op = NULL;
    e->low = NULL;
    return 0;
}

static void emit_io_accessor(te_emit *e, te_buf *c, const char *ret, const char *fn,
                             const int *ids, int n, int want_bytes)
{
    int i;
    te_buf_printf(c, "%s %s_%s(int i)\n{\n    switch (i) {\n", ret, e->name, fn);
    for (i = 0; i < n; i++) {
        if (want_bytes)
            te_buf_printf(c, "    case %d: return %zu;\n", i, te_tensor_bytes(&e->g->tensors[ids[i]]));
        else
            te_buf_printf(c, "    case %d: return (%s)%s;\n", i, ret, te_emit_tensor(e, ids[i]).s);
    }
    te_buf_printf(c, "    default: return 0;\n    }\n}\n\n");
}

/* NAME_STACK_BYTES: the stack bound of stack_bound.h, for the build's -O. */
static void emit_stack_macro(te_buf *h, const char *name, const char *up, const te_graph *g,
                             te_stack_bound sb)
{
    te_buf_printf(h, "/* Stack %s_invoke needs at most (its frame and its kernels' deepest call\n"
                     " * chain, %s): built with optimisation, at -O0. */\n"
                     "#if defined(__OPTIMIZE__)\n#define %s_STACK_BYTES %zu\n#else\n"
                     "#define %s_STACK_BYTES %zu\n#endif\n",
                  name, g->target == TE_TARGET_X86_64_V3 ? "x86-64" : "32-bit Arm", up, sb.opt, up,
                  sb.o0);
}

/* One input's or output's description and macros: its name and shape in a
 * comment; element C type, rank, shape (an initializer), bytes, and the
 * scale and zero point of a quantized one. */
static void emit_io_macros(te_buf *h, const te_tensor *t, const char *up, const char *io, int k)
{
    char safe[256];
    int r;
    te_buf_printf(h, "/* %s %d: '%s' %s[", io[0] == 'I' ? "input" : "output", k,
                  comment_safe(t->name, safe, sizeof safe), te_dtype_name(t->type));
    for (r = 0; r < t->rank; r++)
        te_buf_printf(h, "%s%d", r ? "," : "", t->shape[r]);
    te_buf_printf(h, "] */\n");
    te_buf_printf(h, "#define %s_%s%d_CTYPE %s\n", up, io, k, te_ctype(t->type));
    te_buf_printf(h, "#define %s_%s%d_BYTES %zu\n", up, io, k, te_tensor_bytes(t));
    te_buf_printf(h, "#define %s_%s%d_RANK %d\n", up, io, k, t->rank);
    te_buf_printf(h, "#define %s_%s%d_SHAPE {", up, io, k);
    for (r = 0; r < t->rank; r++)
        te_buf_printf(h, "%s%d", r ? ", " : "", t->shape[r]);
    te_buf_printf(h, "%s}\n", t->rank ? "" : "1");
    if (t->q.count >= 1) {
        te_buf_printf(h, "#define %s_%s%d_SCALE %s\n", up, io, k,
                      te_float_literal(t->q.scale[0]).s);
        te_buf_printf(h, "#define %s_%s%d_ZERO_POINT %lld\n", up, io, k,
                      (long long)t->q.zero_point[0]);
    }
}

/* 1 for tensor t with storage of its own in plan p's state region. */
static int state_root(const te_plan *p, const te_tensor *t)
{
    return t->is_variable && !t->data && te_storage_alias_of(p->st, t->id) < 0 &&
           p->place[t->id].in_state;
}

/* The byte NAME_reset fills state tensor t with (the region is zeroed
 * first): TFLite Micro resets an int8 variable tensor to its zero point,
 * and a resource variable to its zero point cast to a byte, any type. */
static uint8_t state_fill(const te_tensor *t)
{
    if (t->is_resource)
        return t->q.count > 0 ? (uint8_t)(int8_t)t->q.zero_point[0] : 0;
    if (t->type == TE_DT_INT8 && t->q.count > 0 && t->q.zero_point[0] != 0)
        return (uint8_t)t->q.zero_point[0];
    return 0;
}

/* 1 if a tensor of the state region does not start at zero. */
static int state_has_zero_points(const te_graph *g, const te_plan *p)
{
    int t;
    for (t = 0; t < g->n_tensors; t++) {
        const te_tensor *tt = &g->tensors[t];
        if (state_root(p, tt) && (state_fill(tt) || tt->state_init))
            return 1;
    }
    return 0;
}

/* 1 if the state holds resource variables (READ_VARIABLE / ASSIGN_VARIABLE). */
static int state_has_resources(const te_graph *g, const te_plan *p)
{
    int t;
    for (t = 0; t < g->n_tensors; t++)
        if (state_root(p, &g->tensors[t]) && g->tensors[t].is_resource)
            return 1;
    return 0;
}

/* 1 when the file has a byte array written as a string literal: a constant
 * (te_emit_byte_string) or a variable's initial value (emit_state_inits). */
static int has_byte_strings(const te_emit *e, const te_graph *g, const te_plan *p)
{
    int t;
    if (e->byte_strings)
        return 1;
    for (t = 0; t < g->n_tensors && p->state_bytes; t++)
        if (state_root(p, &g->tensors[t]) && g->tensors[t].state_init &&
            te_tensor_bytes(&g->tensors[t]) >= TE_BYTE_STRING_MIN)
            return 1;
    return 0;
}

/* The file comment on byte arrays written as string literals, and the
 * pragmas that keep the two warnings such literals raise quiet: -pedantic's
 * on literals over C99's 4095 characters, and -Wextra's on a literal whose
 * NUL has no room (GCC 15, Clang 21), asked for only where the compiler
 * knows it (an unknown option in a pragma is itself a warning). */
static void emit_byte_string_prelude(te_buf *c)
{
    te_buf_printf(c, "\n/* Byte arrays of %d+ elements: string literals of %d bytes a line (read\n"
                     " * ~15x faster than integer lists) holding exactly N bytes, no NUL (C99\n"
                     " * 6.7.8p14; this file is C, not C++). The pragmas quiet the warnings on\n"
                     " * that (GCC 15+, Clang) and on literals over C99's 4095 (-pedantic). */\n"
                     "#if defined(__GNUC__)\n"
                     "#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n"
                     "#endif\n"
                     "#if defined(__clang__)\n"
                     "#if __has_warning(\"-Wunterminated-string-initialization\")\n"
                     "#pragma GCC diagnostic ignored \"-Wunterminated-string-initialization\"\n"
                     "#endif\n"
                     "#elif defined(__GNUC__) && __GNUC__ >= 15\n"
                     "#pragma GCC diagnostic ignored \"-Wunterminated-string-initialization\"\n"
                     "#endif\n",
                  TE_BYTE_STRING_MIN, TE_BYTES_PER_LINE);
}

/* With memory regions: each region's placement macro, NAME_<REGION>_ATTR. */
static void emit_region_attrs(te_buf *h, const te_plan *p, const char *up)
{
    int i;
    if (!p->n_regions)
        return;
    te_buf_printf(h, "/* Memory regions: the arena is cut into %d arrays, the hottest buffers in\n"
                     " * the first; define %s_<REGION>_ATTR to place each (empty by default). */\n",
                  p->n_regions, up);
    for (i = 0; i < p->n_regions; i++) {
        char rup[64];
        upper(p->regions[i].spec.name, rup, sizeof rup);
        te_buf_printf(h, "#ifndef %s_%s_ATTR\n#define %s_%s_ATTR\n#endif\n", up, rup, up, rup);
    }
    te_buf_printf(h, "\n");
}

static void emit_header(te_buf *h, const te_graph *g, const te_plan *p, const te_codegen_opts *o,
                        te_stack_bound sb)
{
    char up[128];
    int i;
    upper(o->name, up, sizeof up);
    char safe[256];
    te_buf_printf(h, "/* %s.h - generated by tinyengine from %s. Do not edit.\n", o->name,
                  comment_safe(o->model_desc, safe, sizeof safe));
    emit_provenance(h, o->provenance);
    te_buf_printf(h, " */\n");
    te_buf_printf(h, "#ifndef %s_H\n#define %s_H\n\n#include <stddef.h>\n#include <stdint.h>\n\n", up, up);
    te_buf_printf(h, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    te_buf_printf(h, "/* Placement: define %s_ARENA_ATTR (applied to the arena) and %s_WEIGHTS_ATTR\n"
                     " * (applied to every constant array) before this header, or with -D, e.g.\n"
                     " * -D%s_ARENA_ATTR='__attribute__((section(\".dtcm\")))'.  Empty by default. */\n"
                     "#ifndef %s_ARENA_ATTR\n#define %s_ARENA_ATTR\n#endif\n"
                     "#ifndef %s_WEIGHTS_ATTR\n#define %s_WEIGHTS_ATTR\n#endif\n\n",
                  up, up, up, up, up, up, up);
    emit_region_attrs(h, p, up);
    if (p->state_bytes)
        te_buf_printf(h, "/* %s_STATE_ATTR: the same for the persistent state (arena's by default). */\n"
                         "#ifndef %s_STATE_ATTR\n#define %s_STATE_ATTR %s_ARENA_ATTR\n#endif\n\n",
                      up, up, up, up);
    te_buf_printf(h, "/* Static RAM: the arena holds activations and scratch during an invoke; the\n"
                     " * state holds variable tensors (LSTM/SVDF state), kept across invokes. */\n");
    te_buf_printf(h, "#define %s_ARENA_BYTES %zu\n", up, p->arena_bytes);
    for (i = 0; i < p->n_regions; i++) {
        char rup[64];
        upper(p->regions[i].spec.name, rup, sizeof rup);
        te_buf_printf(h, "#define %s_%s_BYTES %zu\n", up, rup, p->regions[i].bytes);
    }
    te_buf_printf(h, "#define %s_STATE_BYTES %zu\n", up, p->state_bytes);
    emit_stack_macro(h, o->name, up, g, sb);
    te_buf_printf(h, "#define %s_NUM_INPUTS %d\n#define %s_NUM_OUTPUTS %d\n\n", up, g->n_inputs, up,
                  g->n_outputs);
    for (i = 0; i < g->n_inputs + g->n_outputs; i++) {
        int is_in = i < g->n_inputs, k = is_in ? i : i - g->n_inputs;
        emit_io_macros(h, &g->tensors[is_in ? g->inputs[k] : g->outputs[k]], up,
                       is_in ? "INPUT" : "OUTPUT", k);
    }
    te_buf_printf(h, "\nint         %s_invoke(void);   /* one inference; 0 on success */\n", o->name);
    if (state_has_resources(g, p))
        te_buf_printf(h, "void        %s_reset(void);    /* the state back to its start: variables' "
                         "initial values */\n", o->name);
    else
        te_buf_printf(h, "void        %s_reset(void);    /* zero the state (it starts zeroed) */\n",
                      o->name);
    te_buf_printf(h, "void       *%s_input(int i);   /* input i's bytes go here */\n", o->name);
    te_buf_printf(h, "const void *%s_output(int i);  /* output i after invoke */\n", o->name);
    te_buf_printf(h, "size_t      %s_input_bytes(int i);\n", o->name);
    te_buf_printf(h, "size_t      %s_output_bytes(int i);\n", o->name);
    te_buf_printf(h, "int         %s_num_inputs(void);\n", o->name);
    te_buf_printf(h, "int         %s_num_outputs(void);\n", o->name);
    te_buf_printf(h, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

/* The stack work buffer of the DSP convolution when the code calls it
 * (TE_K_CONV2D_DSP_S8, as the emitter recorded), sized to the largest
 * patches its records keep on the stack (te_lowering.stack_buffer, at most
 * the kernel's default; 4 bytes when every op has arena scratch); 0 when
 * the code does not call it. */
static size_t dsp_stack_buffer(const te_emit *e, const te_plan *p)
{
    size_t most = 0;
    int i, dsp = 0;
    for (i = 0; i < e->n_kernels; i++)
        dsp |= e->kernels[i] == TE_K_CONV2D_DSP_S8;
    for (i = 0; dsp && p->low && i < p->low->n_ops + p->low->n_clones; i++)
        if (p->low->ops[i].stack_buffer > most)
            most = p->low->ops[i].stack_buffer;
    return dsp ? (most + 7) & ~(size_t)3 : 0;
}

static void emit_stack_buffers(te_buf *c, size_t bytes)
{
    if (bytes)
        te_buf_printf(c, "\n/* patches of the DSP convolution on the stack: its largest */\n"
                         "#define TE_CONV2D_DSP_STACK %zu\n", bytes);
}

/* One static array per memory region, NAME_arena_<REGION> NAME_<REGION>_ATTR. */
static void emit_region_arrays(te_buf *c, const te_plan *p, const char *name, const char *up)
{
    int i;
    for (i = 0; i < p->n_regions; i++) {
        char rup[64], arena[96];
        upper(p->regions[i].spec.name, rup, sizeof rup);
        te_emit_arena_name(name, p, i, arena, sizeof arena);
        te_buf_printf(c, "\n/* memory region %s: %zu bytes (of %zu) */\n"
                         "static union {\n    double align_d;\n    int64_t align_i;\n"
                         "    uint8_t bytes[%zu];\n} %s %s_%s_ATTR;\n",
                      p->regions[i].spec.name, p->regions[i].bytes, p->regions[i].spec.limit,
                      p->regions[i].bytes ? p->regions[i].bytes : 16, arena, up, rup);
    }
}

/* The arena: the model's own, or in a library the library's (the DSP
 * stack buffer then sized in LIB.c for all its models). */
static void emit_arena(te_buf *c, const te_emit *e, const te_plan *p, const te_codegen_opts *o,
                       const char *up, te_codegen_lib *lib)
{
    if (lib) {
        size_t dsp = dsp_stack_buffer(e, p);
        char lib_up[128];
        upper(lib->name, lib_up, sizeof lib_up);
        te_buf_printf(c, "\n/* The arena of library %s, shared with its other models (%s_ARENA_BYTES\n"
                         " * is the largest of theirs): they must not run at the same time. */\n"
                         "#define %s_arena %s_arena\n",
                      lib->name, lib_up, o->name, lib->name);
        if (p->arena_bytes > lib->arena_bytes)
            lib->arena_bytes = p->arena_bytes;
        if (dsp > lib->dsp_stack)
            lib->dsp_stack = dsp;
        return;
    }
    if (p->n_regions) {
        emit_region_arrays(c, p, o->name, up);
        return;
    }
    te_buf_printf(c, "\nstatic union {\n    double align_d;\n    int64_t align_i;\n"
                     "    uint8_t bytes[%zu];\n} %s_arena %s_ARENA_ATTR;\n",
                  p->arena_bytes ? p->arena_bytes : 16, o->name, up);
}

static void emit_prologue(te_buf *c, const te_emit *e, const te_graph *g, const te_plan *p,
                          const te_codegen_opts *o, te_codegen_lib *lib)
{
    char up[128], safe[256];
    upper(o->name, up, sizeof up);
    te_buf_printf(c, "/* %s.c - generated by tinyengine from %s. Do not edit.\n", o->name,
                  comment_safe(o->model_desc, safe, sizeof safe));
    emit_provenance(c, o->provenance);
    te_buf_printf(c, " * Define %s_LAYER_HOOK=fn to have fn(op, output, data, bytes) called\n"
                     " * after every operator (used by `tinyengine run --dump-layers`).\n",
                  up);
    te_buf_printf(c, " * Target: %s. */\n", te_target_name(g->target));
    te_buf_printf(c, "#include \"%s.h\"\n", o->name);
    if (lib)
        te_buf_printf(c, "#include \"%s.h\" /* the kernels, shared with the library's other models */\n",
                      lib->name);
    te_buf_printf(c, "\n#include <stddef.h>\n#include <stdint.h>\n");
    if (has_byte_strings(e, g, p))
        emit_byte_string_prelude(c);
    te_buf_printf(c, "\n#ifdef %s_LAYER_HOOK\nvoid %s_LAYER_HOOK(int op, int output, const void *data, size_t bytes);\n"
                     "#define TE_LAYER_DONE(op, j, p, n) %s_LAYER_HOOK(op, j, p, n)\n#else\n"
                     "#define TE_LAYER_DONE(op, j, p, n) ((void)0)\n#endif\n",
                  up, up, up);
    emit_arena(c, e, p, o, up, lib);
    if (p->state_bytes && state_has_resources(g, p))
        te_buf_printf(c, "\n/* Variables: given their initial values by %s_reset() (the first invoke\n"
                         " * calls it), kept across invokes. */\n", o->name);
    else if (p->state_bytes)
        te_buf_printf(c, "\n/* Variable tensors: zeroed at start and by %s_reset(), kept across invokes. */\n",
                      o->name);
    if (p->state_bytes)
        te_buf_printf(c, "static union {\n    double align_d;\n    int64_t align_i;\n"
                         "    uint8_t bytes[%zu];\n} %s_state %s_STATE_ATTR;\n",
                      p->state_bytes, o->name, up);
    if (p->state_bytes && state_has_resources(g, p))
        te_buf_printf(c, "/* 0 until %s_reset() gave the variables their initial values. */\n"
                         "static int %s_state_ready;\n", o->name, o->name);
    else if (p->state_bytes && state_has_zero_points(g, p))
        te_buf_printf(c, "/* 0 until %s_reset() set the int8 state to its zero points. */\n"
                         "static int %s_state_ready;\n", o->name, o->name);
    emit_slice_hook(c, g, p->st, o->name, up);
    if (!lib)
        emit_stack_buffers(c, dsp_stack_buffer(e, p));
}

/* 1 when the code in b uses the arena array `arena` (NAME_arena; a model
 * whose only output is a constant has no tensor in the arena: the variable
 * would be unused). */
static int mentions_arena(const te_buf *b, const char *arena)
{
    char needle[160];
    snprintf(needle, sizeof needle, "%s.bytes", arena);
    return b->s && strstr(b->s, needle) != NULL;
}

/* The initial values of resource variables (CALL_ONCE's init subgraph),
 * before NAME_reset(). */
static void emit_state_inits(te_buf *c, const te_graph *g, const te_plan *p, const char *name)
{
    char safe[256];
    int t;
    size_t i, n;
    for (t = 0; t < g->n_tensors; t++) {
        const te_tensor *tt = &g->tensors[t];
        if (!state_root(p, tt) || !tt->state_init)
            continue;
        n = te_tensor_bytes(tt);
        te_buf_printf(c, "/* initial value of resource variable '%s' (CALL_ONCE) */\n"
                         "static const uint8_t %s_init_%d[%zu] =",
                      comment_safe(tt->name, safe, sizeof safe), name, t, n);
        if (n >= TE_BYTE_STRING_MIN) {
            te_emit_byte_string(c, tt->state_init, n);
            te_buf_printf(c, ";\n\n");
            continue;
        }
        te_buf_printf(c, " {");
        for (i = 0; i < n; i++)
            te_buf_printf(c, "%s%u,", i % 16 ? " " : "\n    ", (unsigned)tt->state_init[i]);
        te_buf_printf(c, "\n};\n\n");
    }
}

/* NAME_reset(): TFLite Micro's ResetVariableTensors: zeroes the state,
 * then sets each int8 variable tensor to its zero point (and then the
 * first invoke calls it: NAME_state_ready); a resource variable gets its
 * zero point byte, or the value CALL_ONCE's init subgraph gives it (the
 * init runs again after a reset, unlike TFLite Micro's Reset(), which
 * leaves CALL_ONCE spent). */
static void emit_reset(te_buf *c, const te_graph *g, const te_plan *p, const char *name)
{
    int t;
    if (p->state_bytes)
        emit_state_inits(c, g, p, name);
    te_buf_printf(c, "void %s_reset(void)\n{\n", name);
    if (p->state_bytes)
        te_buf_printf(c, "    size_t i;\n    for (i = 0; i < sizeof %s_state.bytes; i++)\n"
                         "        %s_state.bytes[i] = 0;\n", name, name);
    if (p->state_bytes && state_has_zero_points(g, p)) {
        for (t = 0; t < g->n_tensors; t++) {
            const te_tensor *tt = &g->tensors[t];
            size_t off = p->place[t].state_offset, end = off + te_tensor_bytes(tt);
            if (!state_root(p, tt))
                continue;
            if (tt->state_init)
                te_buf_printf(c, "    for (i = 0; i < %zu; i++) /* %s */\n"
                                 "        %s_state.bytes[%zu + i] = %s_init_%d[i];\n",
                              te_tensor_bytes(tt), "initial value (CALL_ONCE)", name,
                              off, name, t);
            else if (tt->is_resource && state_fill(tt))
                te_buf_printf(c, "    for (i = %zu; i < %zu; i++) /* %s */\n"
                                 "        %s_state.bytes[i] = %u;\n",
                              off, end, "zero point of a resource variable", name,
                              (unsigned)state_fill(tt));
            else if (!tt->is_resource && state_fill(tt))
                te_buf_printf(c, "    for (i = %zu; i < %zu; i++) /* %s */\n"
                                 "        %s_state.bytes[i] = (uint8_t)%lld;\n",
                              off, end, "zero point of an int8 variable", name,
                              (long long)tt->q.zero_point[0]);
        }
        te_buf_printf(c, "    %s_state_ready = 1;\n", name);
    }
    te_buf_printf(c, "}\n\n");
}

/* The runtime the invoke function calls, for the target's ISA. */
static int paste_kernels(const te_emit *e, te_buf *c, te_diag *d)
{
    const char *families[TE_K_COUNT];
    te_runtime_isa isa;
    te_buf calls = {0}; /* the code that names kernels: the outlined calls and the invoke */
    int i, rc;
    if (e->funcs.len)
        te_buf_append(&calls, e->funcs.s, e->funcs.len);
    if (e->body.len)
        te_buf_append(&calls, e->body.s, e->body.len);
    if (e->body.oom || e->funcs.oom || calls.oom) {
        te_buf_free(&calls);
        return te_fail(d, "out of memory in code generation");
    }
    for (i = 0; i < e->n_kernels; i++)
        families[i] = te_kernel_get(e->kernels[i])->family;
    isa.dsp = te_target_has_dsp(e->g->target);
    isa.avx2 = te_target_has_avx2(e->g->target);
    rc = te_runtime_paste(c, calls.s ? calls.s : "", calls.len, families, e->n_kernels, isa, d);
    te_buf_free(&calls);
    return rc;
}

/* In a library the model calls the shared kernels, never copies of its
 * own: the calls that would inline a kernel when optimising call it. */
static void call_shared_kernels(te_buf *c, const te_buf *consts)
{
    static const char *const calls[] = {"TE_CONV2D_GEMM_CALL", "TE_DEPTHWISE_DSP_CALL"};
    size_t i;
    for (i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (consts->s && strstr(consts->s, calls[i]))
            te_buf_printf(c, "\n/* library: the shared kernel, not a copy inlined here */\n"
                             "#undef %s\n#define %s(inl, plain) plain\n",
                          calls[i], calls[i]);
}

/* What the model's code calls, for the library's runtime. */
static int add_to_library(te_codegen_lib *lib, const te_emit *e, const char *name, te_diag *d)
{
    int i, j;
    if (lib->n_models && e->g->target != lib->target)
        return te_fail(d, "model %s is for target %s, the library's first model for %s", name,
                       te_target_name(e->g->target), te_target_name(lib->target));
    lib->target = e->g->target;
    te_buf_printf(&lib->models, "%s%s", lib->n_models++ ? ", " : "", name);
    if (e->funcs.len)
        te_buf_append(&lib->calls, e->funcs.s, e->funcs.len);
    if (e->body.len)
        te_buf_append(&lib->calls, e->body.s, e->body.len);
    for (i = 0; i < e->n_kernels; i++) {
        const char *fam = te_kernel_get(e->kernels[i])->family;
        for (j = 0; j < lib->n_families && strcmp(lib->families[j], fam) != 0; j++)
            ;
        if (j < lib->n_families)
            continue;
        if (lib->n_families == (int)(sizeof lib->families / sizeof lib->families[0]))
            return te_fail(d, "internal: too many kernel families in one library");
        lib->families[lib->n_families++] = fam;
    }
    if (lib->models.oom || lib->calls.oom || e->body.oom || e->funcs.oom)
        return te_fail(d, "out of memory in code generation");
    return 0;
}

static int codegen(te_graph *g, const te_plan *p, const te_codegen_opts *o, te_codegen_lib *lib,
                   te_buf *h, te_buf *c, te_diag *d)
{
    te_emit e;
    te_buf io = {0};
    int rc = -1, i;
    if (strlen(o->name) > TE_NAME_MAX)
        return te_fail(d, "name '%.*s...' has %zu characters: at most %d allowed", 16, o->name,
                       strlen(o->name), TE_NAME_MAX);
    if (lib && p->n_regions)
        return te_fail(d, "--memory-region: models compiled into a library share one arena; "
                       "compile them one at a time");
    memset(&e, 0, sizeof e);
    e.g = g;
    e.plan = p;
    e.name = o->name;
    e.diag = d;
    e.tensor_const = calloc((size_t)g->n_tensors + 1, sizeof(int));
    if (!e.tensor_const)
        return te_fail(d, "out of memory in code generation");
    if (emit_ops(&e, d) < 0)
        goto out;
    emit_io_accessor(&e, &io, "void *", "input", g->inputs, g->n_inputs, 0);
    emit_io_accessor(&e, &io, "const void *", "output", g->outputs, g->n_outputs, 0);
    emit_io_accessor(&e, &io, "size_t", "input_bytes", g->inputs, g->n_inputs, 1);
    emit_io_accessor(&e, &io, "size_t", "output_bytes", g->outputs, g->n_outputs, 1);
    te_buf_printf(&io, "int %s_num_inputs(void) { return %d; }\n", o->name, g->n_inputs);
    te_buf_printf(&io, "int %s_num_outputs(void) { return %d; }\n", o->name, g->n_outputs);

    {
        te_kernel_id ids[2 * TE_K_COUNT];
        int n = e.n_kernels;
        memcpy(ids, e.kernels, (size_t)n * sizeof ids[0]);
        n = te_stack_plan_kernels(g, p, ids + n, 0) + n;
        emit_header(h, g, p, o, te_stack_bound_kernels(ids, n, g->target));
    }
    emit_prologue(c, &e, g, p, o, lib);
    if (lib ? add_to_library(lib, &e, o->name, d) < 0 : paste_kernels(&e, c, d) < 0)
        goto out;
    te_buf_printf(c, "\n/* ---- constants (flash) ---- */\n");
    if (e.consts.len)
        te_buf_append(c, e.consts.s, e.consts.len);
    if (lib)
        call_shared_kernels(c, &e.consts);
    if (e.funcs.len)
        te_buf_append(c, e.funcs.s, e.funcs.len);
    te_buf_printf(c, "\nint %s_invoke(void)\n{\n", o->name);
    for (i = 0; i < (p->n_regions ? p->n_regions : 1); i++) {
        char arena[96];
        te_emit_arena_name(o->name, p, i, arena, sizeof arena);
        if (!mentions_arena(&e.body, arena) && !mentions_arena(&io, arena) &&
            !mentions_arena(&e.consts, arena) && !mentions_arena(&e.funcs, arena))
            te_buf_printf(c, "    (void)%s; /* nothing lives in %s */\n", arena,
                          p->n_regions ? "this region" : "the arena");
    }
    if (p->state_bytes && state_has_zero_points(g, p))
        te_buf_printf(c, "    if (!%s_state_ready)\n        %s_reset();\n", o->name, o->name);
    if (e.body.len)
        te_buf_append(c, e.body.s, e.body.len);
    te_buf_printf(c, "    return 0;\n}\n\n");
    emit_reset(c, g, p, o->name);
    if (io.len)
        te_buf_append(c, io.s, io.len);
    if (h->oom || c->oom || e.consts.oom || e.body.oom || e.funcs.oom || io.oom) {
        te_fail(d, "out of memory in code generation");
        goto out;
    }
    rc = 0;
out:
    te_emit_release(&e);
    te_buf_free(&e.consts);
    te_buf_free(&e.body);
    te_buf_free(&e.funcs);
    te_buf_free(&io);
    free(e.tensor_const);
    return rc;
}

int te_codegen(te_graph *g, const te_plan *p, const te_codegen_opts *o, te_buf *h, te_buf *c,
               te_diag *d)
{
    return codegen(g, p, o, NULL, h, c, d);
}

int te_codegen_in_library(te_graph *g, const te_plan *p, const te_codegen_opts *o,
                          te_codegen_lib *lib, te_buf *h, te_buf *c, te_diag *d)
{
    return codegen(g, p, o, lib, h, c, d);
}
