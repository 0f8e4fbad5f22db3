/* api_compile.c - te_compile_memory: a model image to the generated NAME.h
 * and NAME.c text, in memory (what `tinyengine compile` writes to files). */
#include <stdlib.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "api_internal.h"

/* Takes the text out of a buffer ("" when it is empty). */
static char *take(te_buf *b, size_t *len)
{
    char *s = b->s;
    *len = b->len;
    if (!s && (s = malloc(1)) != NULL)
        s[0] = '\0';
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

te_generated *te_compile_memory(const void *model, size_t size, const char *name,
                                const te_config *cfg, char *err, size_t err_size)
{
    te_compile_opts o;
    te_model *m;
    te_buf h = {0}, c = {0};
    te_diag d;
    te_generated *out = NULL;
    char ident[128];
    memset(&d, 0, sizeof d);
    if (te_api_options(cfg, &o, err, err_size) < 0)
        return NULL;
    te_c_identifier(name && *name ? name : "model", ident, sizeof ident);
    m = te_api_load(model, size, &o, err, err_size);
    if (!m)
        return NULL;
    if (te_model_generate(m, ident, ident, &h, &c, &d) < 0)
        te_api_error(err, err_size, "%s", d.msg);
    else if (h.oom || c.oom || !(out = calloc(1, sizeof *out)))
        te_api_error(err, err_size, "out of memory");
    else {
        out->header = take(&h, &out->header_bytes);
        out->source = take(&c, &out->source_bytes);
        if (!out->header || !out->source) {
            te_generated_free(out);
            out = te_api_error(err, err_size, "out of memory");
        }
    }
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    return out;
}

void te_generated_free(te_generated *g)
{
    if (!g)
        return;
    free(g->header);
    free(g->source);
    free(g);
}
