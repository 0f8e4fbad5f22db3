/* provenance.c - what the generated files' first comment says about where
 * they came from: the tool version, the options that change the code (as
 * `tinyengine compile` spells them) and the model image's SHA-256, so a
 * generated file can be traced to, and rebuilt from, its model. */
#include "compiler.h"
#include "frontend/sha256.h"
#include "ir/target.h"
#include "version.h"

/* The options, each as " --flag value", in the CLI's order. */
static void options_text(const te_compile_opts *o, const char *name, te_buf *out)
{
    int i;
    te_buf_printf(out, " --target %s", te_target_name(o->target));
    if (o->int8_io)
        te_buf_printf(out, " --int8-io");
    if (o->patch.mode == TE_PATCH_AUTO)
        te_buf_printf(out, " --patch auto --max-recompute %g", o->patch.max_recompute * 100.0);
    else if (o->patch.mode == TE_PATCH_EXPLICIT) {
        char spec[64];
        te_patch_opts_format(&o->patch, spec, sizeof spec);
        te_buf_printf(out, " --patch %s", spec);
    }
    if (o->flash_limit)
        te_buf_printf(out, " --flash-limit %zu", o->flash_limit);
    if (o->sram_limit)
        te_buf_printf(out, " --sram-limit %zu", o->sram_limit);
    for (i = 0; i < o->regions.n; i++)
        te_buf_printf(out, " --memory-region %s=%zu", o->regions.r[i].name, o->regions.r[i].limit);
    te_buf_printf(out, " --name %s", name);
}

void te_model_provenance(const te_model *m, const char *name, te_buf *out)
{
    char hex[65];
    te_sha256_hex(m->g->model_data, m->g->model_size, hex);
    te_buf_printf(out, "tinyengine %s, options:", TE_VERSION);
    options_text(&m->opts, name, out);
    te_buf_printf(out, "\nmodel sha256 %s", hex);
}
