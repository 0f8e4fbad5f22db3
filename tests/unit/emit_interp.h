/* emit_interp.h - runs the C an operator's emit() writes without compiling
 * it: check() then emit() on a one_op_graph, the emitted constant arrays read
 * back, and each emitted statement split into a kernel name and arguments
 * and called on a test arena, pointer arguments resolved with ei_ptr: the
 * copy, pad and concatenation kernels here, the others by the test's own
 * dispatcher.  Header only (static functions and state). */
#ifndef TE_EMIT_INTERP_H
#define TE_EMIT_INTERP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit.h"
#include "one_op_graph.h"
#include "ops/ops.h"
#include "te_concat.h"
#include "te_copy.h"
#include "te_pad.h"

#if defined(__GNUC__)
#define EI_UNUSED __attribute__((unused))
#else
#define EI_UNUSED
#endif

#define EI_ARENA 65536

/* The arena the emitted code's m_arena.bytes stand for. */
static union {
    double align;
    int8_t b[EI_ARENA];
} ei_arena_u;
#define ei_arena ei_arena_u.b

/* "static const T NAME[N] = {...}": an emitted constant array, read back */
typedef struct {
    char name[64];
    char ctype[16];
    size_t n;
    void *data;
} ei_carray;
static ei_carray ei_consts[64];
static int ei_n_consts;

/* "#define NAME ((T *)(m_arena.bytes + N))": the arena tensors' macros */
typedef struct {
    char name[128];
    long offset;
} ei_macro;
static ei_macro ei_macros[64];
static int ei_n_macros;

static char ei_last_error[600]; /* check() or emit() message of the last run */
static int ei_last_stmts; /* statements the last run emitted */

/* Where `name` first stands in a, if it is a whole identifier there. */
static EI_UNUSED const char *ei_name_in(const char *a, const char *name)
{
    const char *q = strstr(a, name);
    char next = q ? q[strlen(name)] : 0;
    if (q && !(next == '_' || (next >= '0' && next <= '9') || (next >= 'a' && next <= 'z') ||
               (next >= 'A' && next <= 'Z')))
        return q;
    return NULL;
}

static EI_UNUSED void ei_parse_macros(const char *s)
{
    ei_n_macros = 0;
    while (s && (s = strstr(s, "#define ")) != NULL && ei_n_macros < 64) {
        ei_macro *m = &ei_macros[ei_n_macros];
        const char *at = strstr(s, "m_arena.bytes + "), *eol = strchr(s, '\n');
        if (sscanf(s, "#define %127s", m->name) == 1 && at && (!eol || at < eol)) {
            m->offset = strtol(at + 16, NULL, 10);
            ei_n_macros++;
        }
        s += 8;
    }
}

/* The emitted constants (float, int32_t, else int8_t) and arena macros. */
static EI_UNUSED void ei_parse_consts(const char *s)
{
    ei_parse_macros(s);
    ei_n_consts = 0;
    while (s && (s = strstr(s, "static const ")) != NULL && ei_n_consts < 64) {
        ei_carray *c = &ei_consts[ei_n_consts++];
        size_t i;
        const char *p;
        sscanf(s, "static const %15s %63[^[][%zu]", c->ctype, c->name, &c->n);
        c->data = calloc(c->n + 1, 8);
        p = strchr(s, '{') + 1;
        for (i = 0; i < c->n; i++) {
            char *end;
            if (strcmp(c->ctype, "float") == 0)
                ((float *)c->data)[i] = strtof(p, &end);
            else if (strcmp(c->ctype, "int32_t") == 0)
                ((int32_t *)c->data)[i] = (int32_t)strtol(p, &end, 10);
            else
                ((int8_t *)c->data)[i] = (int8_t)strtol(p, &end, 10);
            p = end;
            while (*p == ',' || *p == ' ' || *p == '\n' || *p == 'f')
                p++;
        }
        s = p;
    }
}

static EI_UNUSED void ei_free_consts(void)
{
    int i;
    for (i = 0; i < ei_n_consts; i++)
        free(ei_consts[i].data);
    ei_n_consts = 0;
}

static EI_UNUSED size_t ei_ctype_size(const char *ctype)
{
    return strcmp(ctype, "int8_t") == 0 || strcmp(ctype, "uint8_t") == 0 ? 1
           : strcmp(ctype, "int16_t") == 0                               ? 2
                                                                         : 4;
}

/* Value of a pointer argument: an arena tensor's macro, "(T *)(m_arena.bytes
 * + N)" or a constant array's name, with casts and an optional trailing
 * "+ K": bytes after an int8_t cast (our lowerings cast to it first), else
 * elements of the constant's type. */
static EI_UNUSED void *ei_ptr(const char *a)
{
    const char *p = strstr(a, "m_arena.bytes + ");
    const char *plus = strrchr(a, '+');
    long k = 0;
    int i;
    for (i = 0; i < ei_n_macros; i++)
        if (ei_name_in(a, ei_macros[i].name)) {
            if (plus)
                k = strtol(plus + 1, NULL, 10);
            return (char *)ei_arena + ei_macros[i].offset + k;
        }
    if (p) {
        if (plus > p + 15 && strchr(plus, ')') == NULL)
            k = strtol(plus + 1, NULL, 10);
        return (char *)ei_arena + strtol(p + 16, NULL, 10) + k;
    }
    for (i = 0; i < ei_n_consts; i++) {
        const char *q = ei_name_in(a, ei_consts[i].name);
        if (q) {
            if (plus && plus > q)
                k = strtol(plus + 1, NULL, 10);
            return (char *)ei_consts[i].data +
                   k * (long)(strstr(a, "int8_t") ? 1 : ei_ctype_size(ei_consts[i].ctype));
        }
    }
    return NULL;
}

/* Splits "name(a, b, c)" (after an optional "if (") into the function's
 * name and its top-level arguments; returns their number. */
static EI_UNUSED int ei_split_args(const char *line, char args[12][200], char *fname)
{
    const char *p;
    int depth = 0, n = 0;
    size_t len = 0;
    while (*line == ' ')
        line++;
    if (strncmp(line, "if (", 4) == 0)
        line += 4;
    sscanf(line, "%63[a-z0-9_]", fname);
    p = strchr(line, '(');
    for (p++; *p && n < 12; p++) {
        if (*p == '(')
            depth++;
        if (*p == ')' && depth-- == 0) {
            args[n++][len] = '\0';
            break;
        }
        if (*p == ',' && depth == 0) {
            args[n++][len] = '\0';
            len = 0;
            continue;
        }
        if (len < 199)
            args[n][len++] = *p;
    }
    return n;
}

#define EI_INT(a, k) ((int32_t)strtol((a)[k], NULL, 10))

/* Runs the copy, gather-copy, pad and concatenation kernels the data
 * movement lowerings emit; 1 when the call (f, its n arguments a) was one of
 * them. */
static EI_UNUSED int ei_run_copy_call(const char *f, int n, char a[12][200])
{
    if (strcmp(f, "te_copy_bytes") == 0 && n == 3)
        te_copy_bytes(ei_ptr(a[0]), ei_ptr(a[1]), (size_t)EI_INT(a, 2));
    else if (strcmp(f, "te_copy_gather_s8") == 0 && n == 5)
        te_copy_gather_s8(ei_ptr(a[0]), ei_ptr(a[1]), EI_INT(a, 2), ei_ptr(a[3]), ei_ptr(a[4]));
    else if (strcmp(f, "te_pad_s8") == 0 && n == 6)
        te_pad_s8(ei_ptr(a[0]), ei_ptr(a[1]), ei_ptr(a[2]), ei_ptr(a[3]), ei_ptr(a[4]),
                  (int8_t)(strstr(a[5], "[0]") ? *(int8_t *)ei_ptr(a[5]) : EI_INT(a, 5)));
    else if (strcmp(f, "te_concat_s8") == 0 && n == 5)
        te_concat_s8(ei_ptr(a[0]), ei_ptr(a[1]), EI_INT(a, 2), EI_INT(a, 3), EI_INT(a, 4));
    else
        return 0;
    return 1;
}

/* The test's dispatcher for the other kernels: runs call f with its n
 * arguments a; -1 when it does not know the call. */
typedef int (*ei_run_call)(const char *f, int n, char a[12][200]);

/* One statement; 0, or -1 (printed) when no dispatcher knows its call. */
static EI_UNUSED int ei_run_statement(const char *stmt, ei_run_call run_call)
{
    char a[12][200], f[64];
    int n = ei_split_args(stmt, a, f);
    if (ei_run_copy_call(f, n, a) || run_call(f, n, a) == 0)
        return 0;
    fprintf(stderr, "unknown emitted call: %s", stmt);
    return -1;
}

/* Runs each statement of emitted body text (argument lines past the line
 * limit joined) with run_call; 0, or -2 when one failed. */
static EI_UNUSED int ei_run_body(const char *s, ei_run_call run_call)
{
    ei_last_stmts = 0;
    while (s && *s) {
        char stmt[2048];
        size_t len = 0;
        const char *end = strstr(s, ";\n");
        if (!end)
            break;
        for (; s < end && len + 1 < sizeof stmt; s++)
            if (*s != '\n')
                stmt[len++] = *s;
        stmt[len] = '\0';
        s = end + 2;
        ei_last_stmts++;
        if (ei_run_statement(stmt, run_call))
            return -2;
    }
    return 0;
}

/* check(), the plain lowering, emit(), then the emitted calls on ei_arena.
 * Returns 0, -1 when check() failed (its message in ei_last_error), -2 when
 * emit() or a call failed. */
static EI_UNUSED int ei_run_op(const te_op_def *def, op_graph *m, ei_run_call run_call)
{
    te_diag d;
    te_emit e;
    te_lowering low;
    static const te_lower_opts plain;
    int tc[OG_MAXT] = {0}, rc = 0;
    memset(&d, 0, sizeof d);
    ei_last_error[0] = '\0';
    ei_last_stmts = 0;
    if (def->check(&m->g, &m->op, &d) != 0) {
        snprintf(ei_last_error, sizeof ei_last_error, "%s", d.msg);
        return -1;
    }
    memset(&e, 0, sizeof e);
    m->plan.place = m->place;
    e.plan = &m->plan;
    e.g = &m->g;
    e.name = "m";
    e.tensor_const = tc;
    e.cur_op = &m->op;
    te_lower_op(&m->g, &m->op, &plain, &low);
    e.low = &low;
    e.diag = &d;
    if (def->emit(&e, &m->op) != 0) {
        snprintf(ei_last_error, sizeof ei_last_error, "emit: %s", d.msg);
        rc = -2;
    }
    ei_parse_consts(e.consts.s);
    if (rc == 0)
        rc = ei_run_body(e.body.s, run_call);
    ei_free_consts();
    te_emit_release(&e);
    te_buf_free(&e.consts);
    te_buf_free(&e.body);
    return rc;
}

#endif
