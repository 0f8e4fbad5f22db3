/* _shim.c - flat entry points over include/tinyengine.h for the Python
 * package's ctypes binding: the te_config record is filled here, from the
 * same header the library is built with, so Python never mirrors its
 * layout (fields added to te_config stay zero, i.e. at their defaults). */
#include <stddef.h>

#include "tinyengine.h"

/* Fills a te_config from plain values (NULL strings, zeros: defaults). */
static te_config make_config(const char *target, int int8_io, unsigned long long sram_limit,
                             const char *patch, double max_recompute_pct,
                             const char *memory_regions, double mhz, double cpi)
{
    te_config cfg = {0};
    cfg.target = target;
    cfg.int8_io = int8_io;
    cfg.sram_limit = (size_t)sram_limit;
    cfg.patch = patch;
    cfg.max_recompute_pct = max_recompute_pct;
    cfg.memory_regions = memory_regions;
    cfg.mhz = mhz;
    cfg.cpi = cpi;
    return cfg;
}

/* The profile report of a model image as `tinyengine profile --json`
 * prints it (model_name: its "model" field); NULL and err on failure.
 * Free with te_free(). */
char *tepy_profile_json(const void *model, size_t size, const char *model_name,
                        const char *target, int int8_io, unsigned long long sram_limit,
                        const char *patch, double max_recompute_pct, const char *memory_regions,
                        double mhz, double cpi, char *err, size_t err_size)
{
    te_config cfg = make_config(target, int8_io, sram_limit, patch, max_recompute_pct,
                                memory_regions, mhz, cpi);
    te_report *r = te_profile_memory(model, size, &cfg, err, err_size);
    char *json;
    if (!r)
        return NULL;
    json = te_report_json(r, model_name);
    te_report_free(r);
    if (!json && err && err_size)
        err[0] = '\0';
    return json;
}

/* The generated NAME.h and NAME.c of a model image; NULL and err on
 * failure.  Read with tepy_generated_text, free with te_generated_free(). */
te_generated *tepy_compile(const void *model, size_t size, const char *name, const char *target,
                           int int8_io, unsigned long long sram_limit, const char *patch,
                           double max_recompute_pct, const char *memory_regions, char *err,
                           size_t err_size)
{
    te_config cfg = make_config(target, int8_io, sram_limit, patch, max_recompute_pct,
                                memory_regions, 0, 0);
    return te_compile_memory(model, size, name, &cfg, err, err_size);
}

/* which = 0: the header, 1: the source; its length in *len. */
const char *tepy_generated_text(const te_generated *g, int which, size_t *len)
{
    *len = which ? g->source_bytes : g->header_bytes;
    return which ? g->source : g->header;
}
