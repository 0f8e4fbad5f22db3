/* runtime_select.c - the runtime code a generated file carries (see
 * runtime_select.h): conditionals the target decides are resolved, then
 * only the sections reachable from the kernels the code calls are kept. */
#include "runtime_select.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "runtime_files.h"

/* ---- identifiers ---------------------------------------------------------- */

#define MAX_NAME 64

static int is_id0(int c) { return isalpha(c) || c == '_'; }
static int is_id(int c) { return isalnum(c) || c == '_'; }

/* Calls fn(ctx, id, len) for every identifier of s outside comments, string
 * and character literals. */
static void each_identifier(const char *s, size_t n, void (*fn)(void *, const char *, size_t),
                            void *ctx)
{
    const char *p = s, *end = s + n;
    while (p < end) {
        if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            const char *q = p + 2;
            while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
                q++;
            p = q + 2 <= end ? q + 2 : end;
        } else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (*p == '"' || *p == '\'') {
            char quote = *p++;
            while (p < end && *p != quote && *p != '\n')
                p += (*p == '\\' && p + 1 < end) ? 2 : 1;
            p++;
        } else if (is_id0((unsigned char)*p)) {
            const char *q = p;
            while (q < end && is_id((unsigned char)*q))
                q++;
            fn(ctx, p, (size_t)(q - p));
            p = q;
        } else if (isdigit((unsigned char)*p)) {
            while (p < end && (is_id((unsigned char)*p) || *p == '.'))
                p++;
        } else {
            p++;
        }
    }
}

/* ---- macros the target decides ------------------------------------------- */

typedef struct {
    char name[MAX_NAME];
    int state; /* 1 defined, 0 not defined */
} known_macro;

typedef struct {
    known_macro *v;
    int n, cap;
    int oom;
} macro_env;

static known_macro *env_find(macro_env *e, const char *s, size_t len)
{
    int i;
    for (i = 0; i < e->n; i++)
        if (strlen(e->v[i].name) == len && memcmp(e->v[i].name, s, len) == 0)
            return &e->v[i];
    return NULL;
}

/* state 1/0: known; -1: forget (the code decides at compile time) */
static void env_set(macro_env *e, const char *s, size_t len, int state)
{
    known_macro *m = env_find(e, s, len);
    if (state < 0) {
        if (m)
            *m = e->v[--e->n];
        return;
    }
    if (!m) {
        if (len >= MAX_NAME)
            return; /* stays unknown: the directive is kept as written */
        if (e->n == e->cap) {
            int cap = e->cap ? 2 * e->cap : 32;
            known_macro *v = realloc(e->v, (size_t)cap * sizeof *v);
            if (!v) {
                e->oom = 1;
                return;
            }
            e->v = v;
            e->cap = cap;
        }
        m = &e->v[e->n++];
        memcpy(m->name, s, len);
        m->name[len] = '\0';
    }
    m->state = state;
}

/* ---- #if expressions: value when known, else the simplified text --------- */

typedef struct {
    int k;    /* 1 true, 0 false, -1 decided when the code compiles */
    int prec; /* of text: 3 primary, 2 &&, 1 || */
    te_buf t;
} xval;

typedef struct {
    const char *p, *end;
    macro_env *env;
    int bad;     /* an operator the simplifier does not handle */
    int touched; /* a known macro took part */
} xparse;

static void skip_space(xparse *x)
{
    for (;;) {
        while (x->p < x->end && (*x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r'))
            x->p++;
        if (x->p + 1 < x->end && x->p[0] == '\\' && (x->p[1] == '\n' || x->p[1] == '\r')) {
            x->p++;
            continue;
        }
        if (x->p + 1 < x->end && x->p[0] == '/' && x->p[1] == '*') {
            const char *q = x->p + 2;
            while (q + 1 < x->end && !(q[0] == '*' && q[1] == '/'))
                q++;
            x->p = q + 2 <= x->end ? q + 2 : x->end;
            continue;
        }
        if (x->p + 1 < x->end && x->p[0] == '/' && x->p[1] == '/') {
            x->p = x->end;
            continue;
        }
        return;
    }
}

static int accept(xparse *x, const char *tok)
{
    size_t n = strlen(tok);
    skip_space(x);
    if ((size_t)(x->end - x->p) >= n && memcmp(x->p, tok, n) == 0) {
        x->p += n;
        return 1;
    }
    return 0;
}

static size_t ident(xparse *x, const char **s)
{
    const char *q;
    skip_space(x);
    q = x->p;
    if (q >= x->end || !is_id0((unsigned char)*q))
        return 0;
    while (q < x->end && is_id((unsigned char)*q))
        q++;
    *s = x->p;
    x->p = q;
    return (size_t)(q - *s);
}

static xval known(int k)
{
    xval v;
    memset(&v, 0, sizeof v);
    v.k = k;
    v.prec = 3;
    return v;
}

static xval parse_or(xparse *x);

/* The value of defined(NAME) / NAME: the environment's, or unknown. */
static xval name_value(xparse *x, const char *s, size_t n, int is_defined)
{
    known_macro *m = env_find(x->env, s, n);
    xval v;
    if (m) {
        x->touched = 1;
        return known(m->state);
    }
    v = known(-1);
    if (is_defined)
        te_buf_printf(&v.t, "defined(%.*s)", (int)n, s);
    else
        te_buf_printf(&v.t, "%.*s", (int)n, s);
    return v;
}

static xval parse_primary(xparse *x)
{
    const char *s;
    size_t n;
    if (accept(x, "(")) {
        xval v = parse_or(x);
        if (!accept(x, ")"))
            x->bad = 1;
        return v;
    }
    if (accept(x, "!")) {
        xval v = parse_primary(x), r;
        if (v.k >= 0) {
            te_buf_free(&v.t);
            return known(!v.k);
        }
        r = known(-1);
        te_buf_printf(&r.t, v.prec < 3 ? "!(%s)" : "!%s", v.t.s ? v.t.s : "");
        te_buf_free(&v.t);
        return r;
    }
    skip_space(x);
    if (x->p < x->end && isdigit((unsigned char)*x->p)) {
        int k = *x->p != '0';
        while (x->p < x->end && is_id((unsigned char)*x->p))
            x->p++;
        return known(k);
    }
    n = ident(x, &s);
    if (!n) {
        x->bad = 1;
        return known(-1);
    }
    if (n == 7 && memcmp(s, "defined", 7) == 0) {
        int paren = accept(x, "(");
        n = ident(x, &s);
        if (!n || (paren && !accept(x, ")"))) {
            x->bad = 1;
            return known(-1);
        }
        return name_value(x, s, n, 1);
    }
    return name_value(x, s, n, 0);
}

/* a OP b for OP && (is_and) or ||, with known operands folded away */
static xval combine(xval a, xval b, int is_and)
{
    int absorbing = is_and ? 0 : 1, prec = is_and ? 2 : 1;
    xval r;
    if (a.k == absorbing || b.k == absorbing) {
        te_buf_free(&a.t);
        te_buf_free(&b.t);
        return known(absorbing);
    }
    if (a.k >= 0) { /* the neutral value */
        te_buf_free(&a.t);
        return b;
    }
    if (b.k >= 0) {
        te_buf_free(&b.t);
        return a;
    }
    r = known(-1);
    r.prec = prec;
    te_buf_printf(&r.t, a.prec < prec ? "(%s)" : "%s", a.t.s ? a.t.s : "");
    te_buf_printf(&r.t, is_and ? " && " : " || ");
    te_buf_printf(&r.t, b.prec < prec ? "(%s)" : "%s", b.t.s ? b.t.s : "");
    te_buf_free(&a.t);
    te_buf_free(&b.t);
    return r;
}

static xval parse_and(xparse *x)
{
    xval v = parse_primary(x);
    while (!x->bad && accept(x, "&&"))
        v = combine(v, parse_primary(x), 1);
    return v;
}

static xval parse_or(xparse *x)
{
    xval v = parse_and(x);
    while (!x->bad && accept(x, "||"))
        v = combine(v, parse_and(x), 0);
    return v;
}

/* Evaluates the condition in [s, end); *text gets the simplified condition
 * when the value is unknown (NULL: keep the directive as written). */
static int evaluate(macro_env *env, const char *s, const char *end, te_buf *text)
{
    xparse x;
    xval v;
    x.p = s;
    x.end = end;
    x.env = env;
    x.bad = 0;
    x.touched = 0;
    v = parse_or(&x);
    skip_space(&x);
    if (x.bad || x.p != x.end) {
        te_buf_free(&v.t);
        return -1; /* kept as written */
    }
    if (v.k < 0 && x.touched && v.t.s)
        te_buf_append(text, v.t.s, v.t.len);
    te_buf_free(&v.t);
    return v.k;
}

/* ---- stage 1: the conditionals -------------------------------------------- */

typedef struct {
    int resolved;      /* decided here: no directive in the output */
    int active;        /* the current branch is kept */
    int taken;         /* a branch was taken: the later ones go */
    int parent_active;
} cond_frame;

#define MAX_DEPTH 64

typedef struct {
    macro_env *env;
    macro_env dropped; /* macros defined only in branches that went */
    cond_frame st[MAX_DEPTH];
    int depth;
    te_buf *out;
    te_diag *d;
} resolver;

static int all_resolved(const resolver *r)
{
    int i;
    for (i = 0; i < r->depth; i++)
        if (!r->st[i].resolved)
            return 0;
    return 1;
}

static int is_active(const resolver *r)
{
    return r->depth == 0 || (r->st[r->depth - 1].parent_active && r->st[r->depth - 1].active);
}

/* The value of a condition, consulting the macros of dropped branches too. */
static int condition(resolver *r, const char *s, const char *end, te_buf *text)
{
    xparse probe;
    const char *n;
    size_t len;
    /* a name defined only in dropped branches is known not defined */
    probe.p = s;
    probe.end = end;
    while (probe.p < end) {
        if ((len = ident(&probe, &n)) != 0) {
            if (!env_find(r->env, n, len) && env_find(&r->dropped, n, len))
                env_set(r->env, n, len, 0);
        } else if (probe.p < end) {
            probe.p++;
        }
    }
    return evaluate(r->env, s, end, text);
}

static void emit_line(resolver *r, const char *s, size_t n) { te_buf_append(r->out, s, n); }

static void emit_directive(resolver *r, const char *kw, const te_buf *cond, const char *line,
                           size_t n)
{
    if (cond && cond->s)
        te_buf_printf(r->out, "#%s %s\n", kw, cond->s);
    else
        emit_line(r, line, n);
}

/* One logical line (a directive with its continuations, or a plain line). */
static int resolve_line(resolver *r, const char *line, size_t n)
{
    const char *p = line, *end = line + n, *kw, *arg;
    size_t kwn;
    int act = is_active(r);
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || *p != '#') {
        if (act)
            emit_line(r, line, n);
        return 0;
    }
    p++;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    kw = p;
    while (p < end && is_id((unsigned char)*p))
        p++;
    kwn = (size_t)(p - kw);
    arg = p;
    while (end > arg && (end[-1] == '\n' || end[-1] == '\r'))
        end--;
#define KW(s) (kwn == sizeof(s) - 1 && memcmp(kw, s, kwn) == 0)
    if (KW("if") || KW("ifdef") || KW("ifndef")) {
        cond_frame f = {1, 0, 1, 0};
        te_buf text = {0};
        int k = -1;
        if (r->depth == MAX_DEPTH)
            return te_fail(r->d, "internal: runtime conditionals nested too deep");
        if (act) {
            if (KW("if")) {
                k = condition(r, arg, end, &text);
            } else {
                xparse x;
                const char *nm;
                size_t len;
                x.p = arg;
                x.end = end;
                len = ident(&x, &nm);
                k = len ? condition(r, nm, nm + len, &text) : -1;
                if (k >= 0 && KW("ifndef"))
                    k = !k;
                te_buf_free(&text); /* one unknown name: kept as written */
            }
            f.parent_active = 1;
            if (k >= 0) {
                f.active = f.taken = k;
            } else {
                f.resolved = 0;
                f.active = 1;
                f.taken = 0;
                emit_directive(r, "if", &text, line, n);
            }
        }
        te_buf_free(&text);
        r->st[r->depth++] = f;
        return 0;
    }
    if (KW("elif") || KW("else")) {
        cond_frame *f;
        te_buf text = {0};
        int k = 1;
        if (r->depth == 0)
            return te_fail(r->d, "internal: runtime #%.*s without #if", (int)kwn, kw);
        f = &r->st[r->depth - 1];
        if (!f->parent_active)
            return 0;
        if (f->taken) {
            f->active = 0;
            return 0;
        }
        if (KW("elif"))
            k = condition(r, arg, end, &text);
        if (k == 0) {
            f->active = 0;
        } else if (f->resolved && k == 1) {
            f->active = f->taken = 1;
        } else if (f->resolved) { /* unknown after decided-false branches */
            f->resolved = 0;
            f->active = 1;
            if (text.s)
                te_buf_printf(r->out, "#if %s\n", text.s);
            else
                te_buf_printf(r->out, "#if %.*s\n", (int)(end - arg), arg);
        } else if (k == 1) {
            f->active = f->taken = 1;
            te_buf_printf(r->out, "#else\n");
        } else {
            f->active = 1;
            emit_directive(r, "elif", &text, line, n);
        }
        te_buf_free(&text);
        return 0;
    }
    if (KW("endif")) {
        cond_frame f;
        if (r->depth == 0)
            return te_fail(r->d, "internal: runtime #endif without #if");
        f = r->st[--r->depth];
        if (!f.resolved && f.parent_active)
            emit_line(r, line, n);
        return 0;
    }
    if (KW("define") || KW("undef")) {
        xparse x;
        const char *nm;
        size_t len;
        x.p = arg;
        x.end = end;
        len = ident(&x, &nm);
        if (len && !act)
            env_set(&r->dropped, nm, len, 1);
        else if (len)
            env_set(r->env, nm, len, all_resolved(r) ? KW("define") : -1);
    }
    if (KW("include")) {
        while (arg < end && (*arg == ' ' || *arg == '\t'))
            arg++;
        if (arg < end && *arg == '"')
            return 0; /* runtime headers are pasted, not included */
    }
    if (act)
        emit_line(r, line, n);
    return 0;
#undef KW
}

/* End of the logical line at p: a directive runs on over backslash-newlines. */
static const char *line_end(const char *p, const char *end)
{
    const char *t = p, *q = p;
    while (t < end && (*t == ' ' || *t == '\t'))
        t++;
    for (;;) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        q = nl ? nl + 1 : end;
        if (!(t < end && *t == '#') || !nl || nl == p || nl[-1] != '\\')
            return q;
    }
}

/* 1 when [a, a_end) is `#ifndef G` and [b, b_end) is `#define G`: a header
 * guard, pointless in a file that pastes each header once. */
static int header_guard(const char *a, const char *a_end, const char *b, const char *b_end)
{
    xparse x;
    const char *g, *h;
    size_t gn, hn;
    x.p = a;
    x.end = a_end;
    if (!accept(&x, "#") || !accept(&x, "ifndef") || !(gn = ident(&x, &g)))
        return 0;
    skip_space(&x);
    if (x.p != x.end)
        return 0;
    x.p = b;
    x.end = b_end;
    if (!accept(&x, "#") || !accept(&x, "define") || !(hn = ident(&x, &h)))
        return 0;
    skip_space(&x);
    return x.p == x.end && gn == hn && memcmp(g, h, gn) == 0;
}

/* Resolves the conditionals of one file into out. */
static int resolve_file(const char *s, size_t n, macro_env *env, te_buf *out, te_diag *d)
{
    resolver r;
    const char *p = s, *end = s + n;
    int rc = 0;
    memset(&r, 0, sizeof r);
    r.env = env;
    r.out = out;
    r.d = d;
    while (p < end && rc == 0) {
        const char *q = line_end(p, end), *q2 = line_end(q, end);
        if (q < end && is_active(&r) && header_guard(p, q, q, q2)) {
            cond_frame f = {1, 1, 1, 1};
            if (r.depth == MAX_DEPTH)
                return te_fail(d, "internal: runtime conditionals nested too deep");
            r.st[r.depth++] = f;
            p = q2;
            continue;
        }
        rc = resolve_line(&r, p, (size_t)(q - p));
        p = q;
    }
    if (rc == 0 && r.depth)
        rc = te_fail(d, "internal: runtime #if without #endif");
    free(r.dropped.v);
    if (rc == 0 && (r.dropped.oom || env->oom))
        rc = te_fail(d, "out of memory in code generation");
    return rc;
}

/* ---- stage 2: sections ---------------------------------------------------- */

#define MAX_SECTION_NAMES 8

typedef struct {
    int file;
    const char *s; /* text, inside the file's resolved buffer */
    size_t len;
    int n_names;
    char names[MAX_SECTION_NAMES][MAX_NAME];
    te_buf needs; /* explicit needs, space separated */
    int needed;
} section;

/* A run of a resolved file: always pasted (section < 0) or section's text. */
typedef struct {
    int file, section;
    const char *s;
    size_t len;
} piece;

typedef struct {
    section *sec;
    int n_sec, cap_sec;
    piece *pc;
    int n_pc, cap_pc;
    int *work; /* sections whose text is still to scan */
    int n_work;
    int oom;
} selection;

static void *grow(void *v, int *cap, int n, size_t size, int *oom)
{
    void *w;
    int c;
    if (n < *cap)
        return v;
    c = *cap ? 2 * *cap : 64;
    w = realloc(v, (size_t)c * size);
    if (!w) {
        *oom = 1;
        return NULL;
    }
    *cap = c;
    return w;
}

static int add_piece(selection *sel, int file, int sec, const char *s, size_t len)
{
    piece *v = grow(sel->pc, &sel->cap_pc, sel->n_pc, sizeof *v, &sel->oom);
    if (!v)
        return -1;
    sel->pc = v;
    v[sel->n_pc].file = file;
    v[sel->n_pc].section = sec;
    v[sel->n_pc].s = s;
    v[sel->n_pc].len = len;
    sel->n_pc++;
    return 0;
}

/* `/ * te:section A B needs C D * /` -> a new section; -1 on a bad marker */
static int add_section(selection *sel, int file, const char *p, const char *end, te_diag *d)
{
    section *v = grow(sel->sec, &sel->cap_sec, sel->n_sec, sizeof *v, &sel->oom), *s;
    int in_needs = 0;
    if (!v)
        return te_fail(d, "out of memory in code generation");
    sel->sec = v;
    s = &v[sel->n_sec];
    memset(s, 0, sizeof *s);
    s->file = file;
    while (p < end) {
        const char *q;
        while (p < end && !is_id0((unsigned char)*p) && *p != '*')
            p++;
        if (p >= end || *p == '*')
            break;
        for (q = p; q < end && is_id((unsigned char)*q); q++)
            ;
        if ((size_t)(q - p) == 5 && memcmp(p, "needs", 5) == 0) {
            in_needs = 1;
        } else if (in_needs) {
            te_buf_printf(&s->needs, "%.*s ", (int)(q - p), p);
        } else {
            if (s->n_names == MAX_SECTION_NAMES || (size_t)(q - p) >= MAX_NAME)
                return te_fail(d, "internal: runtime section marker %.*s: too many or too long "
                                  "names", (int)(end - p), p);
            memcpy(s->names[s->n_names], p, (size_t)(q - p));
            s->names[s->n_names++][q - p] = '\0';
        }
        p = q;
    }
    if (s->n_names == 0)
        return te_fail(d, "internal: runtime section without a name");
    return sel->n_sec++;
}

static int starts(const char *p, const char *end, const char *tok)
{
    size_t n = strlen(tok);
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return (size_t)(end - p) >= n && memcmp(p, tok, n) == 0;
}

/* Cuts a resolved file into pieces and sections. */
static int cut_file(selection *sel, int file, const char *s, size_t n, te_diag *d)
{
    const char *p = s, *end = s + n, *run = s;
    int cur = -1;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *q = nl ? nl + 1 : end;
        if (starts(p, q, "/* te:section ")) {
            if (cur >= 0)
                return te_fail(d, "internal: runtime section inside a section");
            if (p > run && add_piece(sel, file, -1, run, (size_t)(p - run)) < 0)
                return te_fail(d, "out of memory in code generation");
            if ((cur = add_section(sel, file, p + 13, q, d)) < 0)
                return -1;
            run = q;
        } else if (starts(p, q, "/* te:end */")) {
            if (cur < 0)
                return te_fail(d, "internal: runtime te:end without a section");
            sel->sec[cur].s = run;
            sel->sec[cur].len = (size_t)(p - run);
            if (add_piece(sel, file, cur, run, (size_t)(p - run)) < 0)
                return te_fail(d, "out of memory in code generation");
            cur = -1;
            run = q;
        }
        p = q;
    }
    if (cur >= 0)
        return te_fail(d, "internal: runtime section without te:end");
    if (end > run && add_piece(sel, file, -1, run, (size_t)(end - run)) < 0)
        return te_fail(d, "out of memory in code generation");
    return 0;
}

/* Marks the sections that provide name (and queues them for a scan). */
static void need_name(void *ctx, const char *name, size_t len)
{
    selection *sel = ctx;
    int i, j;
    for (i = 0; i < sel->n_sec; i++) {
        section *s = &sel->sec[i];
        if (s->needed)
            continue;
        for (j = 0; j < s->n_names; j++)
            if (strlen(s->names[j]) == len && memcmp(s->names[j], name, len) == 0)
                break;
        if (j < s->n_names) {
            s->needed = 1;
            sel->work[sel->n_work++] = i;
        }
    }
}

/* Everything reachable from the always-pasted pieces and from body. */
static int close_over(selection *sel, const char *body, size_t body_len)
{
    int i;
    sel->work = malloc(((size_t)sel->n_sec + 1) * sizeof *sel->work);
    if (!sel->work)
        return -1;
    each_identifier(body, body_len, need_name, sel);
    for (i = 0; i < sel->n_pc; i++)
        if (sel->pc[i].section < 0)
            each_identifier(sel->pc[i].s, sel->pc[i].len, need_name, sel);
    while (sel->n_work > 0) {
        section *s = &sel->sec[sel->work[--sel->n_work]];
        each_identifier(s->s, s->len, need_name, sel);
        if (s->needs.s)
            each_identifier(s->needs.s, s->needs.len, need_name, sel);
    }
    return 0;
}

/* ---- stage 3: tidy output -------------------------------------------------- */

static int blank(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return 0;
    return 1;
}

static int directive(const char *s, size_t n, const char *kw)
{
    size_t k = strlen(kw), i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n || s[i] != '#')
        return 0;
    for (i++; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
        ;
    return n - i >= k && memcmp(s + i, kw, k) == 0 && (n - i == k || !is_id((unsigned char)s[i + k]));
}

/* Appends text to out without conditional groups that hold nothing (their
 * sections all went) and without runs of blank lines. */
static void tidy(te_buf *out, const char *text, size_t n)
{
    typedef struct { const char *s; size_t len; int drop; } line;
    line *v;
    int nl = 0, i, *stack, depth = 0, prev_blank = 0;
    const char *p = text, *end = text + n;
    for (; p < end; nl++) {
        const char *q = memchr(p, '\n', (size_t)(end - p));
        p = q ? q + 1 : end;
    }
    v = calloc((size_t)nl + 1, sizeof *v);
    stack = calloc((size_t)nl + 1, sizeof *stack);
    if (!v || !stack) {
        free(v);
        free(stack);
        te_buf_append(out, text, n); /* untidy but complete */
        return;
    }
    for (p = text, i = 0; p < end; i++) {
        const char *q = memchr(p, '\n', (size_t)(end - p));
        v[i].s = p;
        p = q ? q + 1 : end;
        v[i].len = (size_t)(p - v[i].s);
    }
    for (i = 0; i < nl; i++) {
        if (directive(v[i].s, v[i].len, "if") || directive(v[i].s, v[i].len, "ifdef") ||
            directive(v[i].s, v[i].len, "ifndef")) {
            stack[depth++] = i;
        } else if (directive(v[i].s, v[i].len, "endif") && depth > 0) {
            int first = stack[--depth], j, empty = 1;
            for (j = first + 1; j < i && empty; j++)
                if (!v[j].drop && !blank(v[j].s, v[j].len) && !directive(v[j].s, v[j].len, "else") &&
                    !directive(v[j].s, v[j].len, "elif"))
                    empty = 0;
            if (empty)
                for (j = first; j <= i; j++)
                    v[j].drop = 1;
        }
    }
    for (i = 0; i < nl; i++) {
        int b = blank(v[i].s, v[i].len);
        if (v[i].drop || (b && prev_blank))
            continue;
        te_buf_append(out, v[i].s, v[i].len);
        prev_blank = b;
    }
    free(v);
    free(stack);
}

/* ---- the file's top comment ------------------------------------------------ */

/* A line of a comment that holds only its leading " *": a paragraph break. */
static int comment_break(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    if (s == end || *s != '*')
        return 0;
    for (s++; s < end && *s != '\n'; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r')
            return 0;
    return 1;
}

/* The text of a runtime file as pasted: its top comment cut to its first
 * paragraph (what the file holds; the design notes that follow, often
 * about other targets and kernels, stay in runtime/), the rest unchanged. */
static void brief_top_comment(te_buf *out, const char *s, size_t n)
{
    const char *end = s + n, *close, *p;
    if (n < 2 || s[0] != '/' || s[1] != '*') {
        te_buf_append(out, s, n);
        return;
    }
    for (close = s + 2; close + 1 < end && !(close[0] == '*' && close[1] == '/'); close++)
        ;
    for (p = s; p < close;) {
        const char *nl = memchr(p, '\n', (size_t)(close - p));
        if (!nl)
            break;
        if (nl + 1 < close && comment_break(nl + 1, close)) {
            te_buf_append(out, s, (size_t)(nl - s));
            te_buf_append(out, " */", 3);
            p = close + 2; /* the rest of the closing line, then the file */
            te_buf_append(out, p, (size_t)(end - p));
            return;
        }
        p = nl + 1;
    }
    te_buf_append(out, s, n);
}

/* ---- the whole ------------------------------------------------------------- */

/* The embedded file called name, in runtime/ or one of its ISA folders. */
static const te_runtime_file *runtime_file(const char *name)
{
    const te_runtime_file *f;
    for (f = te_runtime_files; f->name; f++) {
        const char *base = strrchr(f->name, '/');
        if (strcmp(base ? base + 1 : f->name, name) == 0)
            return f;
    }
    return NULL;
}

typedef struct {
    const char **fam;
    int n, cap;
    int oom;
} family_list;

static void add_family(family_list *l, const char *fam)
{
    int i;
    const char **v;
    for (i = 0; i < l->n; i++)
        if (strcmp(l->fam[i], fam) == 0)
            return;
    v = grow(l->fam, &l->cap, l->n, sizeof *v, &l->oom);
    if (!v)
        return;
    l->fam = v;
    l->fam[l->n++] = fam;
}

static void called_family(void *ctx, const char *name, size_t len)
{
    int k = te_kernel_find(name, len);
    if (k >= 0)
        add_family(ctx, te_kernel_get((te_kernel_id)k)->family);
}

/* shared: the library's header defines TE_KERNEL (external linkage);
 * otherwise te_common.h defines it: static. */
static void isa_macros(macro_env *env, te_runtime_isa isa, int shared)
{
    env_set(env, "TE_TARGET_DSP", 13, isa.dsp ? 1 : 0);
    env_set(env, "TE_TARGET_AVX2", 14, isa.avx2 ? 1 : 0);
    env_set(env, "__SSE2__", 8, isa.avx2 ? 1 : 0);
    env_set(env, "TE_KERNEL", 9, shared ? 1 : 0);
}

/* The pasted pieces: all to out, or (decls set) the headers' to decls and
 * the sources' to out.  File 0 is te_common.h, then each family's .h, .c. */
static int paste(te_buf *out, te_buf *decls, const char *body, size_t body_len,
                 const char *const *families, int n, te_runtime_isa isa, te_diag *d)
{
    family_list fams = {0};
    macro_env env = {0};
    selection sel;
    te_buf *resolved = NULL, text = {0}, header = {0};
    const char **names = NULL;
    int i, n_files, rc = -1;
    memset(&sel, 0, sizeof sel);
    for (i = 0; i < n; i++)
        add_family(&fams, families[i]);
    each_identifier(body, body_len, called_family, &fams);
    n_files = 1 + 2 * fams.n;
    resolved = calloc((size_t)n_files, sizeof *resolved);
    names = calloc((size_t)n_files, sizeof *names);
    if (fams.oom || !resolved || !names) {
        te_fail(d, "out of memory in code generation");
        goto out;
    }
    isa_macros(&env, isa, decls != NULL);
    for (i = 0; i < n_files; i++) {
        char fname[MAX_NAME + 8];
        const te_runtime_file *f;
        if (i == 0)
            snprintf(fname, sizeof fname, "te_common.h");
        else if (snprintf(fname, sizeof fname, "te_%s.%s", fams.fam[(i - 1) / 2],
                          i % 2 ? "h" : "c") >= (int)sizeof fname) {
            te_fail(d, "internal: runtime family name too long: %s", fams.fam[(i - 1) / 2]);
            goto out;
        }
        if (!(f = runtime_file(fname))) {
            te_fail(d, "internal: runtime file %s is not embedded", fname);
            goto out;
        }
        names[i] = f->name;
        te_buf_free(&text);
        brief_top_comment(&text, f->text, f->len);
        if (text.oom) {
            te_fail(d, "out of memory in code generation");
            goto out;
        }
        if (resolve_file(text.s, text.len, &env, &resolved[i], d) < 0)
            goto out;
        if (resolved[i].oom) {
            te_fail(d, "out of memory in code generation");
            goto out;
        }
    }
    for (i = 0; i < n_files; i++)
        if (resolved[i].len && cut_file(&sel, i, resolved[i].s, resolved[i].len, d) < 0)
            goto out;
    if (sel.oom || close_over(&sel, body, body_len) < 0) {
        te_fail(d, "out of memory in code generation");
        goto out;
    }
    te_buf_free(&text);
    for (i = 0; i < sel.n_pc; i++) {
        const piece *pc = &sel.pc[i];
        te_buf *to = decls && (pc->file == 0 || pc->file % 2) ? &header : &text;
        if (i == 0 || pc->file != sel.pc[i - 1].file)
            te_buf_printf(to, "\n/* ---- runtime/%s ---- */\n", names[pc->file]);
        if (pc->section < 0 || sel.sec[pc->section].needed)
            te_buf_append(to, pc->s, pc->len);
    }
    if (header.len)
        tidy(decls, header.s, header.len);
    if (text.len)
        tidy(out, text.s, text.len);
    if (text.oom || out->oom || header.oom || (decls && decls->oom)) {
        te_fail(d, "out of memory in code generation");
        goto out;
    }
    rc = 0;
out:
    for (i = 0; resolved && i < n_files; i++)
        te_buf_free(&resolved[i]);
    for (i = 0; i < sel.n_sec; i++)
        te_buf_free(&sel.sec[i].needs);
    free(resolved);
    free(names);
    free(sel.sec);
    free(sel.pc);
    free(sel.work);
    free(fams.fam);
    free(env.v);
    te_buf_free(&text);
    te_buf_free(&header);
    return rc;
}

int te_runtime_paste(te_buf *out, const char *body, size_t body_len, const char *const *families,
                     int n, te_runtime_isa isa, te_diag *d)
{
    return paste(out, NULL, body, body_len, families, n, isa, d);
}

int te_runtime_paste_shared(te_buf *decls, te_buf *defs, const char *body, size_t body_len,
                            const char *const *families, int n, te_runtime_isa isa, te_diag *d)
{
    return paste(defs, decls, body, body_len, families, n, isa, d);
}
