/* api_common.c - options, errors and loading shared by the library API
 * (include/tinyengine.h), plus te_free and te_version. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/target.h"
#include "../version.h"
#include "api_internal.h"

void *te_api_error(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    if (!err || err_size == 0)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return NULL;
}

/* "DTCM=128K,SRAM=320K" into regions (NULL or "": none). */
static int memory_regions(const char *list, te_regions *r, char *err, size_t err_size)
{
    char one[128], msg[200];
    while (list && *list) {
        const char *comma = strchr(list, ',');
        size_t len = comma ? (size_t)(comma - list) : strlen(list);
        snprintf(one, sizeof one, "%.*s", (int)len, list);
        if (te_regions_add(r, one, msg, sizeof msg) < 0) {
            te_api_error(err, err_size, "%s", msg);
            return -1;
        }
        list = comma ? comma + 1 : NULL;
    }
    return 0;
}

int te_api_options(const te_config *cfg, te_compile_opts *o, char *err, size_t err_size)
{
    te_compile_opts def = TE_COMPILE_OPTS_DEFAULT;
    *o = def;
    if (!cfg)
        return 0;
    if (cfg->target && (o->target = te_target_parse(cfg->target)) < 0) {
        te_api_error(err, err_size, "unknown target '%s' (generic, cortex-m0plus, cortex-m4, "
                                    "cortex-m7)", cfg->target);
        return -1;
    }
    if (te_patch_opts_parse(cfg->patch, &o->patch) < 0) {
        te_api_error(err, err_size, "bad patch setting '%s' (off, auto, K:HxW, K:HxW+K2:H2xW2 or K@F:HxW such as "
                                    "4:3x3, 4:3x3+6:2x2, 6@11:2x2 or 4:3x3:cache)",
                     cfg->patch);
        return -1;
    }
    if (cfg->max_recompute_pct < 0)
        o->patch.max_recompute = 0;
    else if (cfg->max_recompute_pct > 0)
        o->patch.max_recompute = cfg->max_recompute_pct / 100.0;
    o->int8_io = cfg->int8_io != 0;
    o->sram_limit = cfg->sram_limit;
    o->flash_limit = cfg->flash_limit;
    return memory_regions(cfg->memory_regions, &o->regions, err, err_size);
}

te_model *te_api_load(const void *model, size_t size, const te_compile_opts *o, char *err,
                      size_t err_size)
{
    te_diag d;
    te_model *m;
    memset(&d, 0, sizeof d);
    if (!model && size)
        return te_api_error(err, err_size, "no model data");
    m = te_model_load((const uint8_t *)model, size, o, &d);
    if (!m)
        te_api_error(err, err_size, "%s", d.failed ? d.msg : "cannot load the model");
    return m;
}

void te_free(void *p) { free(p); }

const char *te_version(void) { return TE_VERSION; }
