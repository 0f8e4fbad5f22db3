/* emit.c - the emitter services operator lowerings call (see emit.h):
 * constant arrays, tensor pointer expressions, scratch pointers, statements
 * and the set of runtime kernels in use. */
#include "emit.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plan/plan.h"

const char *te_ctype(te_dtype t)
{
    switch (t) {
    case TE_DT_INT8: return "int8_t";
    case TE_DT_UINT8: return "uint8_t";
    case TE_DT_BOOL: return "uint8_t";
    case TE_DT_INT16: return "int16_t";
    case TE_DT_INT32: return "int32_t";
    case TE_DT_INT64: return "int64_t";
    case TE_DT_FLOAT32: return "float";
    default: return "uint8_t";
    }
}

void te_emit_kernel(te_emit *e, te_kernel_id id)
{
    int i;
    for (i = 0; i < e->n_kernels; i++)
        if (e->kernels[i] == id)
            return;
    if (te_kernel_get(id) && e->n_kernels < TE_K_COUNT)
        e->kernels[e->n_kernels++] = id;
}

void te_emit_stmt(te_emit *e, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *line;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(line = malloc((size_t)n + 1))) {
        e->body.oom = 1; /* codegen reports it */
        return;
    }
    va_start(ap, fmt);
    vsnprintf(line, (size_t)n + 1, fmt, ap);
    va_end(ap);
    te_buf_append(&e->body, "    ", 4);
    te_buf_append(&e->body, line, (size_t)n);
    te_buf_append(&e->body, "\n", 1);
    free(line);
}

void te_emit_indent_since(te_emit *e, size_t start)
{
    te_buf *b = &e->body;
    size_t n = b->len - start, i;
    char *tail = malloc(n + 1);
    if (!tail) {
        b->oom = 1;
        return;
    }
    memcpy(tail, b->s + start, n);
    b->len = start;
    b->s[start] = '\0';
    for (i = 0; i < n; i++) {
        if (i == 0 || tail[i - 1] == '\n')
            if (tail[i] != '\n' && tail[i] != '#')
                te_buf_append(b, "    ", 4);
        te_buf_append(b, tail + i, 1);
    }
    free(tail);
}

/* Constant arrays fill their lines up to this many columns. */
#define TE_CONST_COLUMNS 150

/* Compilers parse a string literal about 15 times faster than a list of
 * integers (a 3.4 MB array: gcc -O2 0.54 s instead of 9.5 s). */
void te_emit_byte_string(te_buf *b, const uint8_t *v, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char line[8 + 4 * TE_BYTES_PER_LINE];
    size_t i, k, len;
    for (i = 0; i < n; i += TE_BYTES_PER_LINE) {
        memcpy(line, "\n    \"", 6);
        len = 6;
        for (k = i; k < n && k < i + TE_BYTES_PER_LINE; k++) {
            line[len++] = '\\';
            line[len++] = 'x';
            line[len++] = hex[v[k] >> 4];
            line[len++] = hex[v[k] & 15];
        }
        line[len++] = '"';
        te_buf_append(b, line, len);
    }
}

/* "[n] NAME_WEIGHTS_ATTR": the header lets the user place the weights */
static void array_dim(const te_emit *e, size_t n, char *dim, size_t size)
{
    const char *c;
    size_t k = (size_t)snprintf(dim, size, "[%zu] ", n ? n : 1);
    for (c = e->name; *c && k + 14 < size; c++)
        dim[k++] = (char)toupper((unsigned char)*c);
    snprintf(dim + k, size - k, "_WEIGHTS_ATTR");
}

/* Writes "static const T name[n] NAME_WEIGHTS_ATTR = {...};" (or finds its
 * twin), `elem` writing each element, as many a line as fit in
 * TE_CONST_COLUMNS; a byte array of TE_BYTE_STRING_MIN or more elements as
 * lines of a string literal of exactly n bytes (no room for its NUL). */
static te_name emit_array(te_emit *e, const char *ctype, size_t n, const char *base,
                          void (*elem)(te_buf *, const void *, size_t), const void *v)
{
    te_buf body = {0}, one = {0};
    te_name name;
    char dim[sizeof name.s + 48];
    size_t i, col = TE_CONST_COLUMNS;
    int literal =
        n >= TE_BYTE_STRING_MIN && (!strcmp(ctype, "int8_t") || !strcmp(ctype, "uint8_t"));
    if (literal) {
        te_emit_byte_string(&body, v, n);
        e->byte_strings++;
    } else {
        te_buf_append(&body, "{", 1);
        if (n == 0)
            te_buf_append(&body, "0", 1);
        for (i = 0; i < n; i++) {
            one.len = 0;
            elem(&one, v, i);
            if (i + 1 < n)
                te_buf_append(&one, ",", 1);
            if (col + one.len > TE_CONST_COLUMNS) {
                te_buf_append(&body, "\n    ", 5);
                col = 4;
            }
            if (one.s)
                te_buf_append(&body, one.s, one.len);
            col += one.len;
        }
        if (one.oom)
            body.oom = 1;
        te_buf_free(&one);
        te_buf_append(&body, "\n}", 2);
    }
    array_dim(e, n, dim, sizeof dim);
    name = te_emit_object(e, ctype, dim, body.s ? body.s : "{0}", base);
    if (body.oom)
        e->consts.oom = 1;
    te_buf_free(&body);
    return name;
}

static void put_int(te_buf *b, long long x)
{
    char tmp[24];
    int len;
    if (x == INT32_MIN)
        len = snprintf(tmp, sizeof tmp, "(-2147483647-1)");
    else
        len = snprintf(tmp, sizeof tmp, "%lld", x);
    te_buf_append(b, tmp, (size_t)len);
}

static void el_i8(te_buf *b, const void *v, size_t i) { put_int(b, ((const int8_t *)v)[i]); }
static void el_u8(te_buf *b, const void *v, size_t i) { put_int(b, ((const uint8_t *)v)[i]); }
static void el_i16(te_buf *b, const void *v, size_t i) { put_int(b, ((const int16_t *)v)[i]); }
static void el_i32(te_buf *b, const void *v, size_t i) { put_int(b, ((const int32_t *)v)[i]); }
static void el_i64(te_buf *b, const void *v, size_t i)
{
    int64_t x = ((const int64_t *)v)[i];
    if (x >= -2147483647 && x <= 2147483647)
        put_int(b, (long long)x);
    else if (x == INT64_MIN)
        te_buf_printf(b, "(-INT64_C(9223372036854775807)-1)");
    else
        te_buf_printf(b, "INT64_C(%lld)", (long long)x);
}
static void el_f32(te_buf *b, const void *v, size_t i)
{
    float f = ((const float *)v)[i];
    if (isfinite(f))
        te_buf_printf(b, "%af", (double)f);
    else if (isnan(f))
        te_buf_printf(b, "(0.0f/0.0f)"); /* not reached by supported ops */
    else
        te_buf_printf(b, "%s3.402823466e+38f", f < 0 ? "-" : "");
}

#define OP_BASE(hint) te_emit_op_base(e, (hint) ? (hint) : "k").s
te_name te_emit_const_i8(te_emit *e, const int8_t *v, size_t n, const char *hint)
{
    return emit_array(e, "int8_t", n, OP_BASE(hint), el_i8, v);
}
te_name te_emit_const_u8(te_emit *e, const uint8_t *v, size_t n, const char *hint)
{
    return emit_array(e, "uint8_t", n, OP_BASE(hint), el_u8, v);
}
te_name te_emit_const_i16(te_emit *e, const int16_t *v, size_t n, const char *hint)
{
    return emit_array(e, "int16_t", n, OP_BASE(hint), el_i16, v);
}
te_name te_emit_const_i32(te_emit *e, const int32_t *v, size_t n, const char *hint)
{
    return emit_array(e, "int32_t", n, OP_BASE(hint), el_i32, v);
}
te_name te_emit_const_i64(te_emit *e, const int64_t *v, size_t n, const char *hint)
{
    return emit_array(e, "int64_t", n, OP_BASE(hint), el_i64, v);
}
te_name te_emit_const_f32(te_emit *e, const float *v, size_t n, const char *hint)
{
    return emit_array(e, "float", n, OP_BASE(hint), el_f32, v);
}
#undef OP_BASE

/* Little-endian model bytes -> host values, one element at a time. */
static void el_raw(te_buf *b, const void *v, size_t i, size_t size, int is_signed)
{
    const uint8_t *p = (const uint8_t *)v + i * size;
    uint64_t u = 0;
    size_t k;
    for (k = 0; k < size; k++)
        u |= (uint64_t)p[k] << (8 * k);
    if (is_signed && size < 8 && (u >> (8 * size - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * size);
    if (is_signed)
        put_int(b, (long long)(int64_t)u);
    else
        te_buf_printf(b, "%lluu", (unsigned long long)u);
}
static void el_raw_i16(te_buf *b, const void *v, size_t i) { el_raw(b, v, i, 2, 1); }
static void el_raw_i32(te_buf *b, const void *v, size_t i) { el_raw(b, v, i, 4, 1); }
static void el_raw_i64(te_buf *b, const void *v, size_t i) { el_raw(b, v, i, 8, 1); }
static void el_raw_f32(te_buf *b, const void *v, size_t i)
{
    const uint8_t *p = (const uint8_t *)v + i * 4;
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, 4);
    el_f32(b, &f, 0);
}

/* Input 1 of op is a constant int8 weights tensor (rank >= 2). */
static int has_weights(const te_emit *e, const te_op *op)
{
    const te_tensor *w = op && op->n_in > 1 && op->in[1] >= 0 ? &e->g->tensors[op->in[1]] : NULL;
    return w && w->data && w->rank >= 2 && w->type == TE_DT_INT8;
}

/* What a constant tensor is to the operator being lowered: "op3_weights",
 * "op3_bias" (an int32 / int64 vector after an op's weights), else "op3_"
 * and its model name (a SLICE's size, a STRIDED_SLICE's strides ...). */
static void const_tensor_base(const te_emit *e, const te_tensor *t, char *out, size_t n)
{
    const te_op *op = e->cur_op;
    char base[48];
    int j = -1, k;
    for (k = 0; op && k < op->n_in; k++)
        if (op->in[k] == t->id)
            j = k;
    if (j == 1 && has_weights(e, op))
        snprintf(base, sizeof base, "weights");
    else if (j >= 2 && t->rank == 1 && (t->type == TE_DT_INT32 || t->type == TE_DT_INT64) &&
             has_weights(e, op))
        snprintf(base, sizeof base, "bias");
    else
        te_emit_tensor_base(e, t->id, base, sizeof base);
    snprintf(out, n, "%s", te_emit_op_base(e, base).s);
}

static te_name emit_const_tensor(te_emit *e, const te_tensor *t)
{
    size_t esz = te_dtype_size(t->type), n = esz ? t->data_bytes / esz : 0;
    char base[sizeof(te_name)];
    const_tensor_base(e, t, base, sizeof base);
    switch (t->type) {
    case TE_DT_INT8: return emit_array(e, "int8_t", n, base, el_i8, t->data);
    case TE_DT_INT16: return emit_array(e, "int16_t", n, base, el_raw_i16, t->data);
    case TE_DT_INT32: return emit_array(e, "int32_t", n, base, el_raw_i32, t->data);
    case TE_DT_INT64: return emit_array(e, "int64_t", n, base, el_raw_i64, t->data);
    case TE_DT_FLOAT32: return emit_array(e, "float", n, base, el_raw_f32, t->data);
    default: return emit_array(e, "uint8_t", t->data_bytes, base, el_u8, t->data);
    }
}

/* "(void *)" between a byte address and a wider type's pointer: the planner
 * aligns every offset, and the cast through void * says so to -Wcast-align. */
static const char *via_void(const char *ctype)
{
    return strcmp(ctype, "int8_t") && strcmp(ctype, "uint8_t") ? "(void *)" : "";
}

void te_emit_arena_name(const char *name, const te_plan *p, int region, char *out, size_t n)
{
    if (p && p->n_regions)
        snprintf(out, n, "%s_arena_%s", name, p->regions[region].spec.name);
    else
        snprintf(out, n, "%s_arena", name);
}

/* "NAME_arena.bytes + 8000", or with memory regions "NAME_arena_DTCM.bytes + 64"
 * (the offset within the region's array). */
static void arena_address(const te_emit *e, int region, size_t offset, char *out, size_t n)
{
    char arena[96];
    te_emit_arena_name(e->name, e->plan, region, arena, sizeof arena);
    if (e->plan->n_regions)
        offset -= e->plan->regions[region].base;
    snprintf(out, n, "%s.bytes + %zu", arena, offset);
}

/* "#define NAME_T_<tensor> ((int8_t *)(NAME_arena.bytes + 8000)) / * its model name * /"
 * (NAME_state for a variable tensor) */
static te_name define_arena_tensor(te_emit *e, const te_tensor *t)
{
    char base[64], macro[128], addr[160];
    const char *src = t->name ? t->name : "";
    const te_tensor_place *pl = &e->plan->place[t->id];
    te_name n;
    size_t i, len, room, before = e->consts.len;
    te_emit_tensor_base(e, t->id, base, sizeof base);
    snprintf(macro, sizeof macro, "T_%s", base);
    n = te_emit_symbol(e, macro); /* NAME_T_<base>: the macro has NAME in capitals */
    for (i = 0; i < strlen(e->name) && i < sizeof n.s; i++)
        n.s[i] = (char)toupper((unsigned char)n.s[i]);
    if (pl->in_state)
        snprintf(addr, sizeof addr, "%s_state.bytes + %zu", e->name, pl->state_offset);
    else
        arena_address(e, pl->region, pl->arena_offset, addr, sizeof addr);
    te_buf_printf(&e->consts, "#define %s ((%s *)%s(%s))", n.s, te_ctype(t->type),
                  via_void(te_ctype(t->type)), addr);
    len = e->consts.len - before;
    room = len + 7 < TE_EMIT_LINE_MAX ? TE_EMIT_LINE_MAX - len - 7 : 0; /* " / *  * /" */
    if (room > 8 && src[0] && src[0] != ';') {
        te_buf_append(&e->consts, " /* ", 4);
        for (i = 0; src[i] && src[i] != ';' && i < room; i++) {
            int ok = src[i] >= 0x20 && src[i] < 0x7f && !(src[i] == '*' && src[i + 1] == '/') &&
                     !(src[i] == '/' && src[i + 1] == '*');
            te_buf_append(&e->consts, ok ? &src[i] : "_", 1);
        }
        te_buf_append(&e->consts, " */", 3);
    }
    te_buf_append(&e->consts, "\n", 1);
    return n;
}

te_name te_emit_tensor(te_emit *e, int tid)
{
    te_name n, *sym;
    const te_tensor *t;
    if (tid < 0 || tid >= e->g->n_tensors) {
        snprintf(n.s, sizeof n.s, "NULL");
        return n;
    }
    t = &e->g->tensors[tid];
    sym = te_emit_tensor_symbol(e, tid);
    if (sym && sym->s[0])
        return *sym;
    n = t->data ? emit_const_tensor(e, t) : define_arena_tensor(e, t);
    if (sym)
        *sym = n;
    return n;
}

const te_storage *te_emit_storage(const te_emit *e) { return e->plan ? e->plan->st : NULL; }

te_name te_emit_scratch(te_emit *e, const char *ctype)
{
    te_name n;
    /* scratch is per position in the ops array; a clone of a patch has its
     * own in the stage scratch (te_patch_step.scratch_off) */
    const te_op *op = e->cur_op;
    int own = op && op >= e->g->ops && op < e->g->ops + e->g->n_ops;
    size_t off = own ? te_plan_scratch_offset(e->plan, (int)(op - e->g->ops))
                     : te_plan_clone_scratch_offset(e->plan, e->g, op);
    char *c, addr[160];
    /* #define NAME_OP3_SCRATCH ((int8_t *)(NAME_arena.bytes + 1024)) */
    n = te_emit_symbol(e, te_emit_op_base(e, "scratch").s);
    for (c = n.s; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    arena_address(e, own ? te_plan_scratch_region(e->plan, (int)(op - e->g->ops))
                         : te_plan_clone_scratch_region(e->plan, e->g, op), off,
                  addr, sizeof addr);
    te_buf_printf(&e->consts, "#define %s ((%s *)%s(%s))\n", n.s, ctype, via_void(ctype), addr);
    return n;
}
