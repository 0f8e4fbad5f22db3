/* test_api.c - the library API of include/tinyengine.h on models written by
 * tools/tflite_builder: report fields equal the compiler's own figures
 * (te_model_*, the plan), the predicted kernel variant is the function the
 * generated code calls, errors (truncated model, bad options) give NULL and
 * a message, two reports live at once, te_compile_memory equals
 * te_model_generate, te_opcode_name is reentrant and four threads profiling
 * and compiling at once get the results of a serial run.  Runs under ASan in
 * CI (leaks fail it). */
#define _POSIX_C_SOURCE 200809L /* pthreads */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "ir/target.h"
#include "testlib.h"
#include "tflite_builder.h"
#include "tinyengine.h"

/* ------------------------------------------------------------ the models */

static int act(tflb_model *m, const char *name, int n, int h, int w, int c, float scale, int64_t zp)
{
    int32_t shape[4] = {n, h, w, c};
    tflb_quant q = tflb_quant1(&scale, &zp);
    return tflb_add_tensor(m, name, TFLB_INT8, shape, 4, 0, &q);
}

/* int8 weights [d0, d1, d2, d3] (rank 4, or 2 with d2 = d3 = 0) with one
 * scale per channel along qdim, and the int32 bias of `channels`. */
static void conv_consts(tflb_model *m, const char *name, const int32_t *shape, int rank,
                        int qdim, float in_scale, int *w_id, int *b_id)
{
    int n = 1, i, channels = shape[qdim];
    int8_t *w;
    int32_t *b;
    float ws[64], bs[64];
    int64_t zp[64] = {0};
    tflb_quant qw = {channels, ws, channels, zp, qdim}, qb = {channels, bs, channels, zp, 0};
    char bname[64];
    int32_t bshape[1];
    for (i = 0; i < rank; i++)
        n *= shape[i];
    w = malloc((size_t)n);
    b = malloc(sizeof *b * (size_t)channels);
    for (i = 0; i < n; i++)
        w[i] = (int8_t)((int)(test_rand() % 255) - 127);
    for (i = 0; i < channels; i++) {
        ws[i] = 0.002f + 0.0005f * (float)i;
        bs[i] = in_scale * ws[i];
        b[i] = (int32_t)(test_rand() % 2001) - 1000;
    }
    bshape[0] = channels;
    snprintf(bname, sizeof bname, "%s_b", name);
    *w_id = tflb_add_const(m, name, TFLB_INT8, shape, rank, w, (size_t)n, &qw);
    *b_id = tflb_add_const(m, bname, TFLB_INT32, bshape, 1, b, sizeof *b * (size_t)channels,
                           &qb);
    free(w);
    free(b);
}

static void op3(tflb_model *m, int code, int a, int b, int c, int out, const tflb_options *o)
{
    int32_t in[3] = {a, b, c}, o1[1] = {out};
    tflb_add_op(m, code, in, c >= 0 ? 3 : (b >= 0 ? 2 : 1), o1, 1, o);
}

/* conv 3x3 -> depthwise 3x3 s2 -> conv 1x1 -> ADD -> avg pool -> reshape
 * -> fully connected -> softmax, 16x16x4 int8 input. */
static uint8_t *build_cnn(size_t *size)
{
    tflb_model m;
    uint8_t *out = NULL;
    int x, c1, d1, c2, c3, s, p, r, f, y, w, b, conv, dw, add, pool, resh, fc, sm;
    int32_t s_conv1[4] = {8, 3, 3, 4}, s_dw[4] = {1, 3, 3, 8}, s_pw[4] = {16, 1, 1, 8};
    int32_t s_pw2[4] = {16, 1, 1, 8}, s_fc[2] = {5, 16}, s2[2] = {1, 16}, s5[2] = {1, 5};
    int32_t newshape[2] = {1, 16}, two = 2;
    float sm_scale = 1.0f / 256, f_scale = 0.1f;
    int64_t sm_zp = -128, f_zp = 3;
    tflb_quant q_sm = tflb_quant1(&sm_scale, &sm_zp), q_f = tflb_quant1(&f_scale, &f_zp);
    tflb_options o;
    tflb_init(&m);
    conv = tflb_add_opcode(&m, TE_OP_CONV_2D, 1);
    dw = tflb_add_opcode(&m, TE_OP_DEPTHWISE_CONV_2D, 1);
    add = tflb_add_opcode(&m, TE_OP_ADD, 1);
    pool = tflb_add_opcode(&m, TE_OP_AVERAGE_POOL_2D, 1);
    resh = tflb_add_opcode(&m, TE_OP_RESHAPE, 1);
    fc = tflb_add_opcode(&m, TE_OP_FULLY_CONNECTED, 1);
    sm = tflb_add_opcode(&m, TE_OP_SOFTMAX, 1);
    x = act(&m, "x", 1, 16, 16, 4, 0.05f, -5);
    c1 = act(&m, "c1", 1, 16, 16, 8, 0.06f, -128);
    d1 = act(&m, "d1", 1, 8, 8, 8, 0.07f, -128);
    c2 = act(&m, "c2", 1, 8, 8, 16, 0.08f, 2);
    c3 = act(&m, "c3", 1, 8, 8, 16, 0.09f, -1);
    s = act(&m, "sum", 1, 8, 8, 16, 0.1f, 0);
    p = act(&m, "pool", 1, 1, 1, 16, 0.1f, 0);
    r = tflb_add_tensor(&m, "flat", TFLB_INT8, s2, 2, 0, &q_f);
    f = tflb_add_tensor(&m, "logits", TFLB_INT8, s5, 2, 0, &q_f);
    y = tflb_add_tensor(&m, "prob", TFLB_INT8, s5, 2, 0, &q_sm);
    conv_consts(&m, "w1", s_conv1, 4, 0, 0.05f, &w, &b);
    o = tflb_opt_conv2d(TFLB_PAD_SAME, 1, 1, TFLB_ACT_RELU);
    op3(&m, conv, x, w, b, c1, &o);
    conv_consts(&m, "wd", s_dw, 4, 3, 0.06f, &w, &b);
    o = tflb_opt_dwconv2d(TFLB_PAD_SAME, 2, 2, 1, TFLB_ACT_RELU6);
    op3(&m, dw, c1, w, b, d1, &o);
    conv_consts(&m, "w2", s_pw, 4, 0, 0.07f, &w, &b);
    o = tflb_opt_conv2d(TFLB_PAD_VALID, 1, 1, TFLB_ACT_NONE);
    op3(&m, conv, d1, w, b, c2, &o);
    conv_consts(&m, "w3", s_pw2, 4, 0, 0.07f, &w, &b);
    op3(&m, conv, d1, w, b, c3, &o);
    o = tflb_opt_add(TFLB_ACT_NONE);
    op3(&m, add, c2, c3, -1, s, &o);
    o = tflb_opt_pool2d(TFLB_PAD_VALID, 8, 8, 8, 8, TFLB_ACT_NONE);
    op3(&m, pool, s, -1, -1, p, &o);
    w = tflb_add_const(&m, "shape", TFLB_INT32, &two, 1, newshape, sizeof newshape, NULL);
    o = tflb_opt_reshape(newshape, 2);
    op3(&m, resh, p, w, -1, r, &o);
    conv_consts(&m, "wf", s_fc, 2, 0, 0.1f, &w, &b);
    o = tflb_opt_fc(TFLB_ACT_NONE, 0);
    op3(&m, fc, r, w, b, f, &o);
    o = tflb_opt_softmax(1.0f);
    op3(&m, sm, f, -1, -1, y, &o);
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, &y, 1);
    if (tflb_finish(&m, &out, size) != 0)
        out = NULL;
    tflb_free(&m);
    return out;
}

/* -------------------------------------------------------------- checks */

/* Report totals and layers against the compiler's own figures. */
static void check_against_model(const uint8_t *data, size_t size, const te_config *cfg,
                                int target)
{
    char err[256] = "";
    te_report *r = te_profile_memory(data, size, cfg, err, sizeof err);
    te_compile_opts o = TE_COMPILE_OPTS_DEFAULT;
    te_diag d = {{0}, 0};
    te_model *m;
    double sum = 0;
    int s;
    o.target = target;
    m = te_model_load(data, size, &o, &d);
    CHECK(r != NULL && m != NULL);
    if (!r || !m) {
        printf("  %s %s\n", err, d.msg);
        te_report_free(r);
        te_model_free(m);
        return;
    }
    CHECK(r->macs == (long long)te_model_macs(m));
    CHECK(r->weights_bytes == te_model_weights_bytes(m));
    CHECK(r->peak_sram_bytes == m->plan->arena_bytes);
    CHECK(r->peak_sram_bytes_no_patch == m->plan->arena_bytes);
    CHECK(r->live_peak_bytes == m->plan->lower_bound);
    CHECK(r->lifetime_bound_bytes == m->plan->bound_no_inplace);
    CHECK(r->n_layers == m->plan->n_steps);
    CHECK(r->n_inputs == 1 && r->n_outputs == 1);
    CHECK(r->inputs[0].rank == 4 && r->inputs[0].shape[3] == 4 && r->inputs[0].bytes == 1024);
    CHECK(r->flash_bytes == r->const_bytes + r->code_bytes && r->const_bytes >= r->weights_bytes);
    CHECK(r->peak_layer >= 0 && r->peak_layer < r->n_layers);
    for (s = 0; s < r->n_layers && s < m->plan->n_steps; s++) {
        const te_layer_report *l = &r->layers[s];
        const te_op *op = &m->g->ops[m->plan->schedule[s]];
        CHECK(l->index == op->index && l->step == s);
        CHECK(!strcmp(l->op, te_opcode_name(op->opcode)));
        CHECK(l->macs == (long long)te_op_macs(m->g, op));
        CHECK(l->live_bytes == te_plan_live_bytes(m->plan, s));
        CHECK(l->live_bytes <= r->layers[r->peak_layer].live_bytes);
        CHECK(l->instructions >= 0 && (l->instructions > 0 || !strcmp(l->kernel, "view")));
        CHECK(l->n_outputs == 1);
        sum += l->instructions;
    }
    CHECK(r->instructions > 0 && r->instructions == sum);
    CHECK(r->cycles == r->instructions * r->cpi);
    CHECK(r->latency_ms > 0 && r->latency_ms * r->mhz * 1000.0 > 0.999 * r->cycles &&
          r->latency_ms * r->mhz * 1000.0 < 1.001 * r->cycles);
    te_report_free(r);
    te_model_free(m);
}

/* The runtime function called in the generated code after "op N:" (te_X for
 * te_X_inl, the always-inlined copy of kernel te_X). */
static int kernel_called(const char *src, int index, char *out, size_t n)
{
    char mark[48];
    const char *p, *end;
    snprintf(mark, sizeof mark, "/* op %d: ", index);
    if (!(p = strstr(src, mark)))
        return -1;
    p += strlen(mark);
    end = strstr(p, "TE_LAYER_DONE");
    for (; *p && (!end || p < end); p++) {
        size_t k = 0;
        if (strncmp(p, "te_", 3) != 0 || (p[-1] >= 'a' && p[-1] <= 'z') || p[-1] == '_')
            continue;
        while ((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9') || p[k] == '_')
            k++;
        /* te_X(, or te_X_inl, in TE_..._CALL(te_X_inl, te_X)(: a call the
         * optimiser specialises (op_conv2d.c, op_depthwise_conv2d.c) */
        if ((p[k] == '(' || (p[k] == ',' && !strncmp(p - 6, "_CALL(", 6))) && k < n) {
            if (k > 4 && !strncmp(p + k - 4, "_inl", 4))
                k -= 4; /* an always-inlined copy of the kernel */
            memcpy(out, p, k);
            out[k] = '\0';
            return 0;
        }
    }
    snprintf(out, n, "view");
    return 0;
}

/* Each layer's predicted kernel variant is the function its code calls. */
static void check_variants(const uint8_t *data, size_t size, const char *target)
{
    te_config cfg;
    char err[256] = "", called[64];
    te_report *r;
    te_generated *gen;
    int s;
    memset(&cfg, 0, sizeof cfg);
    cfg.target = target;
    r = te_profile_memory(data, size, &cfg, err, sizeof err);
    gen = te_compile_memory(data, size, "net", &cfg, err, sizeof err);
    CHECK(r != NULL && gen != NULL);
    for (s = 0; r && gen && s < r->n_layers; s++) {
        int ok = kernel_called(gen->source, r->layers[s].index, called, sizeof called) == 0 &&
                 !strcmp(called, r->layers[s].kernel);
        CHECK(ok);
        if (!ok)
            printf("  %s op %d (%s): predicted %s, the code calls %s\n", target,
                   r->layers[s].index, r->layers[s].op, r->layers[s].kernel, called);
    }
    te_report_free(r);
    te_generated_free(gen);
}

static void check_compile(const uint8_t *data, size_t size)
{
    char err[256] = "";
    te_generated *gen = te_compile_memory(data, size, "net", NULL, err, sizeof err);
    te_diag d = {{0}, 0};
    te_model *m = te_model_load(data, size, NULL, &d);
    te_buf h = {0}, c = {0};
    CHECK(gen != NULL && m != NULL);
    if (gen && m && te_model_generate(m, "net", "net", &h, &c, &d) == 0) {
        CHECK(gen->header_bytes == h.len && !memcmp(gen->header, h.s, h.len));
        CHECK(gen->source_bytes == c.len && !memcmp(gen->source, c.s, c.len));
        CHECK(strstr(gen->source, "int net_invoke(void)") != NULL);
        CHECK(gen->source[gen->source_bytes] == '\0');
    }
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    te_generated_free(gen);
}

/* te_config.memory_regions: one array per region, named by its macro. */
static void check_regions(const uint8_t *data, size_t size)
{
    te_config cfg;
    char err[256] = "";
    te_generated *gen;
    memset(&cfg, 0, sizeof cfg);
    cfg.memory_regions = "FAST=1K,SLOW=4M";
    gen = te_compile_memory(data, size, "net", &cfg, err, sizeof err);
    CHECK(gen != NULL);
    if (gen) {
        CHECK(strstr(gen->header, "#define NET_FAST_ATTR") != NULL);
        CHECK(strstr(gen->source, "} net_arena_SLOW NET_SLOW_ATTR;") != NULL);
        CHECK(strstr(gen->source, "net_arena.bytes") == NULL);
    }
    te_generated_free(gen);
}

static void check_errors(const uint8_t *data, size_t size)
{
    char err[256];
    te_config cfg;
    size_t cut;
    memset(&cfg, 0, sizeof cfg);
    for (cut = 0; cut < size; cut += size / 7 + 1) {
        strcpy(err, "");
        CHECK(te_profile_memory(data, cut, NULL, err, sizeof err) == NULL);
        CHECK(err[0] != '\0');
    }
    strcpy(err, "");
    CHECK(te_profile_memory(NULL, 0, NULL, err, sizeof err) == NULL && err[0]);
    CHECK(te_profile_memory(data, size / 2, NULL, NULL, 0) == NULL); /* no err buffer: fine */
    strcpy(err, "x");
    CHECK(te_profile_memory(data, size / 2, NULL, err, 1) == NULL && err[0] == '\0');
    cfg.target = "cortex-m99";
    CHECK(te_profile_memory(data, size, &cfg, err, sizeof err) == NULL &&
          strstr(err, "unknown target 'cortex-m99'") != NULL);
    cfg.target = NULL;
    cfg.patch = "sideways";
    CHECK(te_profile_memory(data, size, &cfg, err, sizeof err) == NULL &&
          strstr(err, "patch") != NULL);
    cfg.patch = NULL;
    cfg.sram_limit = 100;
    CHECK(te_profile_memory(data, size, &cfg, err, sizeof err) == NULL &&
          strstr(err, "sram-limit") != NULL);
    cfg.sram_limit = 0;
    cfg.memory_regions = "DTCM=4K,DTCM=8K";
    CHECK(te_profile_memory(data, size, &cfg, err, sizeof err) == NULL &&
          strstr(err, "twice") != NULL);
    cfg.memory_regions = "DTCM=4K,SRAM";
    CHECK(te_compile_memory(data, size, "x", &cfg, err, sizeof err) == NULL &&
          strstr(err, "NAME=BYTES") != NULL);
    cfg.memory_regions = NULL;
    CHECK(te_compile_memory(data, size / 3, "x", NULL, err, sizeof err) == NULL && err[0]);
    CHECK(te_profile_file("/nonexistent/model.tflite", NULL, err, sizeof err) == NULL &&
          strstr(err, "/nonexistent/model.tflite") != NULL);
}

/* Two reports alive at once, on different targets, are independent. */
static void check_two_handles(const uint8_t *data, size_t size)
{
    te_config m4, gen;
    char e1[128], e2[128];
    te_report *a, *b;
    double a_instr;
    memset(&m4, 0, sizeof m4);
    memset(&gen, 0, sizeof gen);
    m4.target = "cortex-m4";
    m4.mhz = 200;
    a = te_profile_memory(data, size, &m4, e1, sizeof e1);
    a_instr = a ? a->instructions : 0;
    b = te_profile_memory(data, size, &gen, e2, sizeof e2);
    CHECK(a != NULL && b != NULL);
    if (a && b) {
        CHECK(!strcmp(a->target, "cortex-m4") && !strcmp(b->target, "generic"));
        CHECK(!strcmp(a->cost_model, "cortex-m4") && !strcmp(b->cost_model, "host"));
        CHECK(a->mhz == 200 && b->mhz == 120 && a->cpi == 1);
        CHECK(a->instructions == a_instr && a->macs == b->macs);
        CHECK(a->n_layers == b->n_layers);
    }
    te_report_free(a);
    te_report_free(b);
    te_report_free(NULL);
    te_generated_free(NULL);
}

static void check_patch(const uint8_t *data, size_t size)
{
    te_config cfg;
    char err[256] = "";
    te_report *plain, *r;
    memset(&cfg, 0, sizeof cfg);
    plain = te_profile_memory(data, size, &cfg, err, sizeof err);
    cfg.patch = "2:2x2";
    r = te_profile_memory(data, size, &cfg, err, sizeof err);
    CHECK(plain != NULL && r != NULL);
    if (plain && r) {
        CHECK(r->patch_ops == 2 && r->patch_grid_h == 2 && r->patch_grid_w == 2);
        CHECK(r->peak_sram_bytes_no_patch == plain->peak_sram_bytes);
        CHECK(r->layers[0].patched && r->layers[1].patched && !r->layers[2].patched);
        CHECK(r->layers[0].instructions > 0 && r->patch_extra_macs >= 0);
        CHECK(r->macs == plain->macs);
    } else {
        printf("  patch: %s\n", err);
    }
    te_report_free(plain);
    te_report_free(r);
}

static void check_json(const uint8_t *data, size_t size)
{
    char err[256];
    te_report *r = te_profile_memory(data, size, NULL, err, sizeof err);
    char *js = r ? te_report_json(r, "a \"quoted\" name") : NULL;
    int depth = 0, min_depth = 0;
    const char *p;
    CHECK(js != NULL);
    if (js) {
        static const char *const keys[] = {"\"estimated_instructions\": ", "\"peak_sram_bytes\": ",
                                           "\"flash_bytes\": ", "\"macs\": ", "\"layers\": [",
                                           "\"kernel\": ", "\"live_bytes\": ",
                                           "\"a \\\"quoted\\\" name\""};
        size_t k;
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
            CHECK(strstr(js, keys[k]) != NULL);
        for (p = js; *p; p++) {
            depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
            if (depth < min_depth)
                min_depth = depth;
        }
        CHECK(depth == 0 && min_depth == 0);
    }
    te_free(js);
    te_report_free(r);
}

/* ---- threads: the same results as one at a time ---- */

typedef struct {
    const uint8_t *data;
    size_t size;
    const char *target;
    double instructions;  /* expected */
    size_t sram, source_bytes;
    int ok;
} thread_job;

static void *thread_main(void *arg)
{
    thread_job *j = arg;
    te_config cfg;
    char err[256];
    int k;
    memset(&cfg, 0, sizeof cfg);
    cfg.target = j->target;
    j->ok = 1;
    for (k = 0; k < 8; k++) {
        te_report *r = te_profile_memory(j->data, j->size, &cfg, err, sizeof err);
        te_generated *g = te_compile_memory(j->data, j->size, "net", &cfg, err, sizeof err);
        j->ok &= r && g && r->instructions == j->instructions && r->peak_sram_bytes == j->sram &&
                 g->source_bytes == j->source_bytes;
        j->ok &= te_profile_memory(j->data, j->size / 2, &cfg, err, sizeof err) == NULL;
        te_report_free(r);
        te_generated_free(g);
    }
    return NULL;
}

static void check_threads(const uint8_t *data, size_t size)
{
    static const char *const targets[4] = {"generic", "cortex-m4", "cortex-m7", "cortex-m0plus"};
    thread_job jobs[4];
    pthread_t th[4];
    int i, started[4] = {0};
    for (i = 0; i < 4; i++) {
        te_config cfg;
        char err[256];
        te_report *r;
        te_generated *g;
        memset(&cfg, 0, sizeof cfg);
        cfg.target = targets[i];
        r = te_profile_memory(data, size, &cfg, err, sizeof err);
        g = te_compile_memory(data, size, "net", &cfg, err, sizeof err);
        CHECK(r != NULL && g != NULL);
        jobs[i].data = data;
        jobs[i].size = size;
        jobs[i].target = targets[i];
        jobs[i].instructions = r ? r->instructions : -1;
        jobs[i].sram = r ? r->peak_sram_bytes : 0;
        jobs[i].source_bytes = g ? g->source_bytes : 0;
        jobs[i].ok = 0;
        te_report_free(r);
        te_generated_free(g);
    }
    for (i = 0; i < 4; i++)
        started[i] = pthread_create(&th[i], NULL, thread_main, &jobs[i]) == 0;
    for (i = 0; i < 4; i++) {
        CHECK(started[i]);
        if (started[i])
            pthread_join(th[i], NULL);
        CHECK(jobs[i].ok);
    }
}

static void check_opcode_names(void)
{
    /* codes past the schema table get numbered names */
    const char *a = te_opcode_name(210), *b = te_opcode_name(211);
    CHECK(!strcmp(a, "BUILTIN_210") && !strcmp(b, "BUILTIN_211")); /* a not overwritten */
    CHECK(!strcmp(te_opcode_name(0), "ADD") && !strcmp(te_opcode_name(3), "CONV_2D"));
    CHECK(!strcmp(te_opcode_name(150), "GELU"));
    CHECK(!strcmp(te_opcode_name(259), "BUILTIN_259"));
    CHECK(!strcmp(te_opcode_name(-1), "BUILTIN_UNKNOWN"));
    CHECK(!strcmp(te_opcode_name(100000), "BUILTIN_UNKNOWN"));
}

int main(void)
{
    size_t size = 0;
    uint8_t *cnn;
    te_config m4;
    test_seed(7);
    cnn = build_cnn(&size);
    CHECK(cnn != NULL);
    if (!cnn)
        return test_summary();
    memset(&m4, 0, sizeof m4);
    m4.target = "cortex-m4";
    check_against_model(cnn, size, NULL, 0);
    check_against_model(cnn, size, &m4, TE_TARGET_CORTEX_M4);
    check_variants(cnn, size, "generic");
    check_variants(cnn, size, "cortex-m4");
    check_variants(cnn, size, "cortex-m7");
    check_variants(cnn, size, "x86-64-v3");
    check_compile(cnn, size);
    check_regions(cnn, size);
    check_errors(cnn, size);
    check_two_handles(cnn, size);
    check_patch(cnn, size);
    check_json(cnn, size);
    check_threads(cnn, size);
    check_opcode_names();
    CHECK(!strcmp(te_version(), "0.1.0"));
    free(cnn);
    return test_summary();
}
