/* api_profile.c - te_profile_memory / te_profile_file / te_report_free:
 * loads and plans a model (no code generation) and fills the report of
 * include/tinyengine.h: totals, memory with and without patches, flash
 * estimate, and per layer shapes, MACs, live SRAM, kernel variant and the
 * cost model's instructions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/target.h"
#include "../codegen/kernels.h"
#include "../ops/flash_budget.h"
#include "../ops/ops.h"
#include "api_internal.h"
#include "cost_model.h"

/* The report and the arrays it points to, freed together. */
typedef struct {
    te_report pub;          /* first: te_report_free casts back */
    te_layer_report *layers;
    te_kernel_id *kernels;  /* each layer's kernel (layers[i].kernel names it) */
    te_tensor_info *infos;  /* every layer's inputs/outputs, then the model's */
    int n_infos, cap_infos;
} report_box;

static te_tensor_info *add_info(report_box *b, const te_tensor *t)
{
    te_tensor_info *ti = &b->infos[b->n_infos++];
    int r;
    ti->type = te_dtype_name(t->type);
    ti->rank = t->rank;
    for (r = 0; r < t->rank && r < 6; r++)
        ti->shape[r] = t->shape[r];
    ti->bytes = te_tensor_bytes(t);
    return ti;
}

/* Appends the activation tensors among ids; returns the first, sets *n. */
static const te_tensor_info *add_infos(report_box *b, const te_graph *g, const int *ids, int n_ids,
                                       int *n)
{
    const te_tensor_info *first = &b->infos[b->n_infos];
    int i;
    *n = 0;
    for (i = 0; i < n_ids; i++)
        if (ids[i] >= 0 && !g->tensors[ids[i]].data) {
            add_info(b, &g->tensors[ids[i]]);
            ++*n;
        }
    return first;
}

static size_t const_input_bytes(const te_graph *g, const te_op *op)
{
    size_t sum = 0;
    int i;
    for (i = 0; i < op->n_in; i++)
        if (op->in[i] >= 0 && g->tensors[op->in[i]].data && !g->tensors[op->in[i]].compile_only)
            sum += g->tensors[op->in[i]].data_bytes;
    return sum;
}

/* The cost of an operator as lowered (l: its record). */
static double estimate_op(const char *model, const te_op *op, const te_lowering *l,
                          te_cost_features *f)
{
    const char *name = te_opcode_name(op->opcode);
    *f = l->cost;
    return te_cost_estimate(te_cost_row(model, name, l->kernel, f), l->kernel, f);
}

/* The record of op; a neutral one if there is none (never for a planned op). */
static const te_lowering *lowering_of(const te_model *m, const te_op *op)
{
    static const te_lowering none = {.kernel = TE_K_UNKNOWN, .inplace_input = -1};
    const te_lowering *l = te_lowered_find(m->low, m->g, op);
    return l ? l : &none;
}

static void add_features(double *sum, const te_cost_features *f)
{
    int k;
    for (k = 0; k < TE_COST_NF; k++)
        sum[k] += f->f[k];
}

/* Patch stage operator: the sum over its clones and the copies feeding it. */
static double estimate_patched(const char *model, const te_model *m, const te_op *op,
                               te_layer_report *l, te_kernel_id *kernel)
{
    const te_graph *g = m->g;
    const te_patch_plan *pp = g->patch;
    double sum = 0;
    int k;
    for (k = 0; k < pp->n_steps; k++) {
        const te_patch_step *st = &pp->steps[k];
        te_cost_features f;
        if (st->op != op->index)
            continue;
        if (st->kind == TE_PSTEP_OP) {
            const te_lowering *cl = lowering_of(m, &pp->clones[st->clone]);
            sum += estimate_op(model, &pp->clones[st->clone], cl, &f);
            *kernel = cl->kernel;
        } else {
            sum += te_cost_patch_copy(model, g, st, &f);
        }
        add_features(l->features, &f);
    }
    return sum;
}

/* Channels (last dimension) of output 0. */
static int out_channels(const te_graph *g, const te_op *op)
{
    const te_tensor *t = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    return t && t->rank > 0 ? t->shape[t->rank - 1] : 1;
}

static void fill_layer(report_box *b, const te_model *m, int step, const char *model)
{
    const te_graph *g = m->g;
    const te_plan *p = m->plan;
    int oi = p->schedule[step], j;
    const te_op *op = &g->ops[oi];
    te_layer_report *l = &b->layers[step];
    te_kernel_id *kernel = &b->kernels[step];
    const te_lowering *low = lowering_of(m, op);
    te_cost_features f;
    l->index = te_op_model_index(op);
    l->step = step;
    l->op = te_opcode_name(op->opcode);
    *kernel = low->kernel;
    l->inputs = add_infos(b, g, op->in, op->n_in, &l->n_inputs);
    l->outputs = add_infos(b, g, op->out, op->n_out, &l->n_outputs);
    l->macs = (long long)low->macs;
    l->weights_bytes = const_input_bytes(g, op);
    l->scratch_bytes = p->op_scratch[oi] >= 0 ? p->buffers[p->op_scratch[oi]].bytes : 0;
    l->live_bytes = te_plan_live_bytes(p, step);
    for (j = 0; j < op->n_out; j++)
        l->in_place |= op->out[j] >= 0 && te_storage_inplace(p->st, op->out[j]);
    l->patched = te_patch_stage_of(g->patch, step, NULL) != NULL;
    l->loop = op->loop;
    if (l->patched) {
        l->instructions = estimate_patched(model, m, op, l, kernel); /* the clones' kernel */
        f = low->cost;
    } else {
        l->instructions = estimate_op(model, op, low, &f);
        memcpy(l->features, f.f, sizeof f.f);
    }
    l->kernel = te_kernel_report_name(*kernel);
    l->const_bytes = te_cost_const_bytes(te_cost_row(model, l->op, *kernel, &f), *kernel,
                                         l->weights_bytes, out_channels(g, op));
}

static int count_infos(const te_graph *g, const te_plan *p)
{
    int s, n = g->n_inputs + g->n_outputs;
    for (s = 0; s < p->n_steps; s++)
        n += g->ops[p->schedule[s]].n_in + g->ops[p->schedule[s]].n_out;
    return n;
}

/* One kernel call of the generated invoke (kernel: its id in the
 * lowering record, op: the operator or patch clone it runs): its call's
 * bytes, and its kernel's code the first time (used[]); a DSP depthwise
 * call the flash budget inlines costs one inlined copy instead
 * (flash_budget.h, arm-gcc -O2 measured). */
static size_t call_code(const char *model, const te_graph *g, const te_op *op,
                        te_kernel_id kernel, unsigned char *used)
{
    const te_kernel_info *k = te_kernel_get(kernel);
    size_t sum = (size_t)te_cost_call_code(model);
    if (kernel == TE_K_VIEW)
        return 0;
    if (!k)
        return sum;
    if (op && k->family && !strcmp(k->family, "depthwise_dsp") && te_flash_dw_inline(g, op))
        return sum + TE_FLASH_DW_INLINE_BYTES;
    if (!used[kernel]) {
        used[kernel] = 1;
        sum += (size_t)te_cost_kernel_code(model, kernel);
    }
    return sum;
}

/* Code (runtime/te_kernel_code.def, measured): the generated file's own
 * functions, every kernel it calls once, and each call; the GEMM copies
 * --flash-limit inlines as the flash budget counts them. */
static size_t code_bytes(const te_model *m, const char *model)
{
    const te_graph *g = m->g;
    const te_plan *p = m->plan;
    unsigned char used[TE_K_COUNT] = {0};
    size_t sum = (size_t)te_cost_base_code(model) + (size_t)te_flash_gemm_inline_bytes(g);
    int s, k;
    for (s = 0; s < p->n_steps; s++) {
        const te_op *op = &g->ops[p->schedule[s]];
        if (!te_patch_stage_of(g->patch, s, NULL)) {
            sum += call_code(model, g, op, lowering_of(m, op)->kernel, used);
            continue;
        }
        for (k = 0; k < g->patch->n_steps; k++) {
            const te_patch_step *st = &g->patch->steps[k];
            const te_op *clone;
            if (st->op != op->index)
                continue;
            if (st->kind != TE_PSTEP_OP) {
                sum += call_code(model, g, NULL, TE_K_PATCH_COPY_S8, used);
                continue;
            }
            clone = &g->patch->clones[st->clone];
            sum += call_code(model, g, clone, lowering_of(m, clone)->kernel, used);
        }
    }
    return sum;
}

static void fill_totals(report_box *b, const te_model *m, const char *model)
{
    te_report *r = &b->pub;
    const te_graph *g = m->g;
    size_t peak = 0, consts = 0;
    int s;
    r->macs = (long long)te_model_macs(m);
    r->weights_bytes = te_model_weights_bytes(m);
    r->peak_sram_bytes = m->plan->arena_bytes;
    r->state_bytes = m->plan->state_bytes;
    r->stack_bytes = te_model_stack(m).opt;
    r->stack_bytes_O0 = te_model_stack(m).o0;
    r->ram_bytes = r->peak_sram_bytes + r->state_bytes + r->stack_bytes;
    r->live_peak_bytes = m->plan->lower_bound;
    r->lifetime_bound_bytes = m->plan->bound_no_inplace;
    r->peak_layer = r->n_layers > 0 ? 0 : -1;
    for (s = 0; s < r->n_layers; s++) {
        const te_layer_report *l = &r->layers[s];
        if (l->live_bytes > peak) {
            peak = l->live_bytes;
            r->peak_layer = s;
        }
        r->instructions += l->instructions;
        consts += l->const_bytes;
    }
    r->const_bytes = consts;
    r->code_bytes = code_bytes(m, model);
    r->flash_bytes = r->const_bytes + r->code_bytes;
    if (g->patch) {
        r->patch_ops = g->patch->lone ? g->patch->n_ops /* from step patch_first */
                                      : g->patch->first + g->patch->n_ops; /* --patch K:HxW's K */
        r->patch_first = g->patch->lone ? g->patch->first : 0;
        r->patch_grid_h = g->patch->grid_h;
        r->patch_grid_w = g->patch->grid_w;
        r->patch_extra_macs = (long long)(g->patch->patched_macs - g->patch->stage_macs);
        r->patch_scratch_bytes = g->patch->scratch_bytes;
    }
}

static void fill_timing(te_report *r, te_layer_report *layers, const te_config *cfg)
{
    int s;
    r->mhz = cfg && cfg->mhz > 0 ? cfg->mhz : 120.0;
    r->cpi = cfg && cfg->cpi > 0 ? cfg->cpi : 1.0;
    for (s = 0; s < r->n_layers; s++)
        layers[s].latency_us = layers[s].instructions * r->cpi / r->mhz;
    r->cycles = r->instructions * r->cpi;
    r->latency_ms = r->cycles / (r->mhz * 1000.0);
}

static report_box *build_report(const te_model *m, const te_config *cfg)
{
    const te_graph *g = m->g;
    const te_plan *p = m->plan;
    const char *model = te_cost_model_name(g->target);
    report_box *b = calloc(1, sizeof *b);
    int s;
    if (!b)
        return NULL;
    b->cap_infos = count_infos(g, p);
    b->layers = calloc((size_t)p->n_steps + 1, sizeof *b->layers);
    b->kernels = calloc((size_t)p->n_steps + 1, sizeof *b->kernels);
    b->infos = calloc((size_t)b->cap_infos + 1, sizeof *b->infos);
    if (!b->layers || !b->kernels || !b->infos) {
        te_report_free(&b->pub);
        return NULL;
    }
    b->pub.target = te_target_name(g->target);
    b->pub.cost_model = model;
    b->pub.layers = b->layers;
    b->pub.n_layers = p->n_steps;
    for (s = 0; s < p->n_steps; s++)
        fill_layer(b, m, s, model);
    b->pub.inputs = add_infos(b, g, g->inputs, g->n_inputs, &b->pub.n_inputs);
    b->pub.outputs = add_infos(b, g, g->outputs, g->n_outputs, &b->pub.n_outputs);
    fill_totals(b, m, model);
    fill_timing(&b->pub, b->layers, cfg);
    return b;
}

/* The arena the same model needs without a patch stage. */
static size_t arena_without_patches(const void *model, size_t size, const te_compile_opts *o)
{
    te_compile_opts plain = *o;
    te_model *m;
    size_t bytes;
    plain.patch.mode = TE_PATCH_OFF;
    plain.sram_limit = 0;
    m = te_api_load(model, size, &plain, NULL, 0);
    if (!m)
        return 0;
    bytes = m->plan->arena_bytes;
    te_model_free(m);
    return bytes;
}

te_report *te_profile_memory(const void *model, size_t size, const te_config *cfg, char *err,
                             size_t err_size)
{
    te_compile_opts o;
    te_model *m;
    report_box *b;
    if (te_api_options(cfg, &o, err, err_size) < 0)
        return NULL;
    m = te_api_load(model, size, &o, err, err_size);
    if (!m)
        return NULL;
    b = build_report(m, cfg);
    if (b)
        b->pub.peak_sram_bytes_no_patch =
            m->g->patch ? arena_without_patches(model, size, &o) : m->plan->arena_bytes;
    te_model_free(m);
    if (!b)
        return te_api_error(err, err_size, "out of memory");
    return &b->pub;
}

te_report *te_profile_model(const te_model *m, const te_config *cfg)
{
    report_box *b = build_report(m, cfg);
    if (!b)
        return NULL;
    b->pub.peak_sram_bytes_no_patch = m->plan->arena_bytes; /* not searched here */
    return &b->pub;
}

te_report *te_profile_file(const char *path, const te_config *cfg, char *err, size_t err_size)
{
    FILE *f;
    long n;
    void *data = NULL;
    te_report *r = NULL;
    if (!path || !(f = fopen(path, "rb")))
        return te_api_error(err, err_size, "cannot open %s: %s", path ? path : "(null)",
                            path ? strerror(errno) : "no path");
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)n + 1)) != NULL && fread(data, 1, (size_t)n, f) == (size_t)n)
        r = te_profile_memory(data, (size_t)n, cfg, err, err_size);
    else
        te_api_error(err, err_size, "cannot read %s", path);
    fclose(f);
    free(data);
    return r;
}

void te_report_free(te_report *r)
{
    report_box *b = (report_box *)r;
    if (!b)
        return;
    free(b->layers);
    free(b->kernels);
    free(b->infos);
    free(b);
}
