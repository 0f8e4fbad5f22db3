/* cli_library.c - `tinyengine compile A.tflite B.tflite ... -o DIR`: one
 * library whose models share one arena (the largest of theirs) and one copy
 * of each kernel: DIR/NAME.h and NAME.c per model, DIR/LIB.h and LIB.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "cli.h"

static int write_pair(const char *dir, const char *name, const te_buf *h, const te_buf *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.h", dir, name);
    if (cli_write_file(path, h->s, h->len) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/%s.c", dir, name);
    return cli_write_file(path, c->s, c->len);
}

/* The library's name must not be a model's (same files, same guard). */
static int check_lib_name(const char *lib, char names[][128], int n)
{
    char id[128];
    int i;
    te_c_identifier(lib, id, sizeof id);
    if (strcmp(id, lib) != 0 || strlen(lib) > TE_NAME_MAX)
        return cli_error("compile: --lib '%s' is not a valid C identifier of at most %d characters",
                         lib, TE_NAME_MAX);
    for (i = 0; i < n; i++) {
        size_t k;
        for (k = 0; lib[k] && toupper((unsigned char)lib[k]) == toupper((unsigned char)names[i][k]); k++)
            ;
        if (!lib[k] && !names[i][k])
            return cli_error("compile: the library and a model are both named '%s': give --lib",
                             names[i]);
    }
    return 0;
}

/* NAME.h and NAME.c of one model of lib. */
static int generate_model(te_model *m, const char *path, const char *name, const char *dir,
                          te_codegen_lib *lib)
{
    te_buf h = {0}, c = {0}, prov = {0};
    te_diag d = {{0}, 0};
    te_codegen_opts o;
    const char *base = strrchr(path, '/');
    int rc = -1;
    te_model_provenance(m, name, &prov);
    o.name = name;
    o.model_desc = base ? base + 1 : path;
    o.provenance = prov.s;
    if (te_codegen_in_library(m->g, m->plan, &o, lib, &h, &c, &d) < 0)
        cli_error("%s: %s", path, d.msg);
    else
        rc = write_pair(dir, name, &h, &c);
    te_buf_free(&h);
    te_buf_free(&c);
    te_buf_free(&prov);
    return rc;
}

static void library_summary(const char *dir, const te_codegen_lib *lib, te_model **m, int n)
{
    size_t sum = 0, state = 0;
    int i;
    for (i = 0; i < n; i++) {
        sum += m[i]->plan->arena_bytes;
        state += m[i]->plan->state_bytes;
    }
    printf("wrote %s/%s.h and %s.c: %d models, one arena of %zu bytes (the largest; the sum "
           "would be %zu), state %zu, %d kernel families once\n",
           dir, lib->name, lib->name, n, lib->arena_bytes, sum, state, lib->n_families);
}

int cli_compile_library(const char *const *models, char names[][128], int n, const char *lib_name,
                        const char *dir, const te_compile_opts *opts, int quiet, double started)
{
    te_model **m = calloc((size_t)n, sizeof *m);
    te_codegen_lib lib;
    te_buf h = {0}, c = {0};
    te_diag d = {{0}, 0};
    int i, rc = 1;
    memset(&lib, 0, sizeof lib);
    lib.name = lib_name;
    if (!m)
        return cli_error("out of memory");
    if (check_lib_name(lib_name, names, n) != 0)
        goto out;
    for (i = 0; i < n; i++)
        if (!(m[i] = cli_load_opts(models[i], opts)))
            goto out;
    if (cli_mkdirs(dir) < 0)
        goto out;
    for (i = 0; i < n; i++)
        if (generate_model(m[i], models[i], names[i], dir, &lib) < 0)
            goto out;
    if (te_codegen_library(&lib, &h, &c, &d) < 0) {
        cli_error("%s: %s", lib_name, d.msg);
        goto out;
    }
    if (write_pair(dir, lib_name, &h, &c) < 0)
        goto out;
    rc = 0;
    if (quiet)
        goto out;
    for (i = 0; i < n; i++) {
        char what[4400];
        snprintf(what, sizeof what, "wrote %s/%s.h and %s.c", dir, names[i], names[i]);
        cli_summary(stdout, what, m[i], started);
    }
    library_summary(dir, &lib, m, n);
out:
    for (i = 0; i < n; i++)
        te_model_free(m[i]);
    free(m);
    te_buf_free(&h);
    te_buf_free(&c);
    te_codegen_lib_free(&lib);
    return rc;
}
