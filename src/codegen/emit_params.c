/* emit_params.c - named file-scope objects for the generated code (see
 * emit.h): unique identifiers, `static const` objects written once per
 * distinct contents, kernel params as designated initializers one field per
 * line, readable tensor names, and kernel calls that stay under the line
 * limit. */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

#define BASE_MAX 40 /* characters of a tensor's name kept in its symbol */

typedef struct {
    uint32_t hash;
    size_t key_off, key_len; /* "type dim = body" in keys */
    te_name name;
} shared_obj;

struct te_emit_syms {
    char **names; /* identifiers in use */
    int n_names, cap_names;
    shared_obj *objs;
    int n_objs, cap_objs;
    te_buf keys;
    te_name *tensor; /* per tensor id: its symbol once written, else "" */
    char params_type[64];
    te_buf fields;   /* fields of the params being built */
};

static struct te_emit_syms *syms_of(te_emit *e)
{
    if (!e->syms) {
        e->syms = calloc(1, sizeof *e->syms);
        if (e->syms)
            e->syms->tensor = calloc((size_t)e->g->n_tensors + 1, sizeof(te_name));
        if (!e->syms || !e->syms->tensor) {
            te_emit_release(e);
            e->consts.oom = 1; /* te_codegen() reports it */
            return NULL;
        }
    }
    return e->syms;
}

void te_emit_release(te_emit *e)
{
    struct te_emit_syms *s = e->syms;
    int i;
    if (!s)
        return;
    for (i = 0; i < s->n_names; i++)
        free(s->names[i]);
    free(s->names);
    free(s->objs);
    free(s->tensor);
    te_buf_free(&s->keys);
    te_buf_free(&s->fields);
    free(s);
    e->syms = NULL;
}

/* Copies s into n, cut to fit. */
static void set_name(te_name *n, const char *s)
{
    size_t len = strlen(s);
    if (len >= sizeof n->s)
        len = sizeof n->s - 1;
    memcpy(n->s, s, len);
    n->s[len] = '\0';
}

static int name_taken(const struct te_emit_syms *s, const char *n)
{
    int i;
    for (i = 0; i < s->n_names; i++)
        if (strcmp(s->names[i], n) == 0)
            return 1;
    return 0;
}

static void take_name(te_emit *e, struct te_emit_syms *s, const char *n)
{
    char *copy = malloc(strlen(n) + 1);
    if (s->n_names == s->cap_names) {
        int cap = s->cap_names ? 2 * s->cap_names : 64;
        char **p = realloc(s->names, (size_t)cap * sizeof *p);
        if (!p) {
            free(copy);
            e->consts.oom = 1;
            return;
        }
        s->names = p;
        s->cap_names = cap;
    }
    if (!copy) {
        e->consts.oom = 1;
        return;
    }
    strcpy(copy, n);
    s->names[s->n_names++] = copy;
}

/* Letters, digits and single underscores; no leading or trailing '_'. */
static void identifier_part(const char *in, size_t in_len, char *out, size_t n)
{
    size_t i, k = 0;
    for (i = 0; i < in_len && k + 1 < n; i++) {
        char c = isalnum((unsigned char)in[i]) ? in[i] : '_';
        if (c == '_' && (k == 0 || out[k - 1] == '_'))
            continue;
        out[k++] = c;
    }
    while (k > 0 && out[k - 1] == '_')
        k--;
    out[k] = '\0';
}

te_name te_emit_symbol(te_emit *e, const char *base)
{
    struct te_emit_syms *s = syms_of(e);
    char part[96];
    te_name n;
    int k;
    identifier_part(base, strlen(base), part, sizeof part);
    snprintf(n.s, sizeof n.s, "%s_%s", e->name, part[0] ? part : "k");
    if (!s)
        return n;
    if (name_taken(s, n.s)) {
        char try[sizeof n.s + 16];
        for (k = 2;; k++) {
            snprintf(try, sizeof try, "%s_%d", n.s, k);
            if (!name_taken(s, try))
                break;
        }
        set_name(&n, try);
    }
    take_name(e, s, n.s);
    return n;
}

te_name te_emit_op_base(const te_emit *e, const char *what)
{
    te_name n;
    if (e->cur_op)
        snprintf(n.s, sizeof n.s, "op%d_%s", te_op_model_index(e->cur_op), what);
    else
        snprintf(n.s, sizeof n.s, "%s", what);
    return n;
}

static uint32_t fnv1a(const char *p, size_t n)
{
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ (uint8_t)p[i]) * 16777619u;
    return h;
}

/* The name of an object already written with this key, or NULL. */
static const te_name *find_twin(const struct te_emit_syms *s, uint32_t h, const char *key,
                                size_t len)
{
    int i;
    for (i = 0; i < s->n_objs; i++) {
        const shared_obj *o = &s->objs[i];
        if (o->hash == h && o->key_len == len && memcmp(s->keys.s + o->key_off, key, len) == 0)
            return &o->name;
    }
    return NULL;
}

static void remember(te_emit *e, struct te_emit_syms *s, uint32_t h, const char *key, size_t len,
                     te_name name)
{
    shared_obj *o;
    if (s->n_objs == s->cap_objs) {
        int cap = s->cap_objs ? 2 * s->cap_objs : 64;
        shared_obj *p = realloc(s->objs, (size_t)cap * sizeof *p);
        if (!p) {
            e->consts.oom = 1;
            return;
        }
        s->objs = p;
        s->cap_objs = cap;
    }
    o = &s->objs[s->n_objs++];
    o->hash = h;
    o->key_off = s->keys.len;
    o->key_len = len;
    o->name = name;
    te_buf_append(&s->keys, key, len);
}

te_name te_emit_object(te_emit *e, const char *type, const char *dim, const char *body,
                       const char *base)
{
    struct te_emit_syms *s = syms_of(e);
    te_buf key = {0};
    const te_name *twin = NULL;
    uint32_t h = 0;
    te_name n;
    te_buf_printf(&key, "%s %s = ", type, dim);
    te_buf_append(&key, body, strlen(body));
    if (s && key.s) {
        h = fnv1a(key.s, key.len);
        twin = find_twin(s, h, key.s, key.len);
    }
    if (twin) {
        n = *twin;
    } else {
        n = te_emit_symbol(e, base);
        /* "= {..." or, a string literal's lines below, "=" */
        te_buf_printf(&e->consts, "static const %s %s%s =%s", type, n.s, dim,
                      body[0] == '\n' ? "" : " ");
        te_buf_append(&e->consts, body, strlen(body));
        te_buf_append(&e->consts, ";\n", 2);
        if (s && key.s)
            remember(e, s, h, key.s, key.len, n);
    }
    if (key.oom)
        e->consts.oom = 1;
    te_buf_free(&key);
    return n;
}

/* ---- params ---- */

void te_params_begin(te_emit *e, const char *type)
{
    struct te_emit_syms *s = syms_of(e);
    if (!s)
        return;
    snprintf(s->params_type, sizeof s->params_type, "%s", type);
    s->fields.len = 0;
    if (s->fields.s)
        s->fields.s[0] = '\0';
}

void te_params_expr(te_emit *e, const char *field, const char *expr)
{
    struct te_emit_syms *s = syms_of(e);
    if (s)
        te_buf_printf(&s->fields, "    .%s = %s,\n", field, expr);
}

void te_params_int(te_emit *e, const char *field, long long v)
{
    char tmp[32];
    if (v == INT32_MIN)
        snprintf(tmp, sizeof tmp, "(-2147483647 - 1)");
    else
        snprintf(tmp, sizeof tmp, "%lld", v);
    te_params_expr(e, field, tmp);
}

void te_params_ints(te_emit *e, const char *field, const int *v, int n)
{
    char tmp[512];
    size_t len = 0;
    int i;
    tmp[len++] = '{';
    for (i = 0; i < n && len + 16 < sizeof tmp; i++)
        len += (size_t)snprintf(tmp + len, sizeof tmp - len, "%s%d", i ? ", " : "", v[i]);
    snprintf(tmp + len, sizeof tmp - len, "}");
    te_params_expr(e, field, tmp);
}

/* "te_conv2d_gemm_params" -> "conv2d_gemm_params" */
static const char *short_type(const char *type)
{
    return strncmp(type, "te_", 3) == 0 ? type + 3 : type;
}

te_name te_params_end(te_emit *e)
{
    struct te_emit_syms *s = syms_of(e);
    te_buf body = {0};
    te_name obj, ref;
    if (!s) {
        snprintf(ref.s, sizeof ref.s, "NULL");
        return ref;
    }
    te_buf_append(&body, "{\n", 2);
    if (s->fields.len)
        te_buf_append(&body, s->fields.s, s->fields.len);
    te_buf_append(&body, "}", 1);
    obj = te_emit_object(e, s->params_type, "", body.s ? body.s : "{0}",
                         te_emit_op_base(e, short_type(s->params_type)).s);
    if (body.oom)
        e->consts.oom = 1;
    te_buf_free(&body);
    {
        char amp[sizeof obj.s + 1];
        amp[0] = '&';
        memcpy(amp + 1, obj.s, sizeof obj.s);
        set_name(&ref, amp);
    }
    return ref;
}

void te_emit_once(te_emit *e, const char *key, const char *text)
{
    struct te_emit_syms *s = syms_of(e);
    char tag[96];
    snprintf(tag, sizeof tag, "#once %s", key); /* never a C identifier */
    if (!s || name_taken(s, tag))
        return;
    take_name(e, s, tag);
    te_buf_append(&e->consts, text, strlen(text));
}

/* ---- calls ---- */

/* "fn(a, b)" into body, one argument per line past the limit; `extra` is
 * what the line holds besides the call ("    " and ");", or the if). */
static void write_call(te_emit *e, size_t extra, const char *fn, va_list args)
{
    va_list ap;
    const char *a;
    size_t width = extra + strlen(fn) + 1;
    int n = 0;
    va_copy(ap, args);
    while ((a = va_arg(ap, const char *)) != NULL) {
        width += strlen(a) + (n ? 2 : 0);
        n++;
    }
    va_end(ap);
    te_buf_printf(&e->body, "%s(", fn);
    n = 0;
    va_copy(ap, args);
    while ((a = va_arg(ap, const char *)) != NULL) {
        if (width > TE_EMIT_LINE_MAX)
            te_buf_printf(&e->body, "%s\n        %s", n ? "," : "", a);
        else
            te_buf_printf(&e->body, "%s%s", n ? ", " : "", a);
        n++;
    }
    va_end(ap);
    te_buf_append(&e->body, ")", 1);
}

void te_emit_call_args(te_emit *e, const char *fn, ...)
{
    va_list ap;
    te_buf_append(&e->body, "    ", 4);
    va_start(ap, fn);
    write_call(e, 4 + 2, fn, ap); /* "    " and ");" */
    va_end(ap);
    te_buf_append(&e->body, ";\n", 2);
}

void te_emit_outlined_call_args(te_emit *e, const char *outline, const char *base,
                                const char *fn, ...)
{
    const te_name f = te_emit_symbol(e, base);
    te_buf call = e->body; /* write_call writes into body: the function's, for a moment */
    va_list ap;
    e->body = e->funcs;
    if (e->cur_op)
        te_buf_printf(&e->body, "\n/* op %d: %s */\n", te_op_model_index(e->cur_op),
                      te_opcode_name(e->cur_op->opcode));
    te_buf_printf(&e->body, "%s void %s(void)\n{\n    ", outline, f.s);
    va_start(ap, fn);
    write_call(e, 4 + 2, fn, ap);
    va_end(ap);
    te_buf_append(&e->body, ";\n}\n", 4);
    e->funcs = e->body;
    e->body = call;
    te_emit_stmt(e, "%s();", f.s);
}

void te_emit_call_status_args(te_emit *e, const char *fn, ...)
{
    va_list ap;
    te_buf_append(&e->body, "    if (", 8);
    va_start(ap, fn);
    write_call(e, 8 + 7, fn, ap); /* "    if (", ")" and " != 0)" */
    va_end(ap);
    te_buf_append(&e->body, " != 0)\n        return 1;\n", 25);
}

te_name te_float_literal(float v)
{
    te_name n = te_expr("%.9g", (double)v);
    if (!strpbrk(n.s, ".en"))
        return te_expr("%s.0f", n.s);
    return te_expr("%sf", n.s);
}

te_name te_expr(const char *fmt, ...)
{
    te_name n;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n.s, sizeof n.s, fmt, ap);
    va_end(ap);
    return n;
}

/* ---- tensor names ---- */

void te_emit_tensor_base(const te_emit *e, int tid, char *out, size_t n)
{
    const te_tensor *t = &e->g->tensors[tid];
    const char *name = t->name ? t->name : "", *end = strchr(name, ';'), *start, *patch;
    char part[BASE_MAX + 1];
    int segments = 0;
    if (!end)
        end = name + strlen(name);
    patch = strstr(name, "@patch");
    if (patch && patch < end)
        end = patch;
    /* the last two path segments: "model/conv2d_3/Relu" -> "conv2d_3/Relu" */
    for (start = end; start > name; start--)
        if (start[-1] == '/' && ++segments == 2)
            break;
    if (end - start > BASE_MAX)
        start = end - BASE_MAX;
    identifier_part(start, (size_t)(end - start), part, sizeof part);
    if (!part[0] || isdigit((unsigned char)part[0]))
        snprintf(out, n, "t%d%s%s", tid, part[0] ? "_" : "", part);
    else
        snprintf(out, n, "%s", part);
    if (patch) {
        char suffix[16];
        size_t len = strlen(out);
        snprintf(suffix, sizeof suffix, "_p%d", atoi(patch + 6));
        if (len + strlen(suffix) < n)
            memcpy(out + len, suffix, strlen(suffix) + 1);
    }
}

te_name *te_emit_tensor_symbol(te_emit *e, int tid)
{
    struct te_emit_syms *s = syms_of(e);
    return s ? &s->tensor[tid] : NULL;
}
