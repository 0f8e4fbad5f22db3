/* test_pw_inplace.c - a pointwise CONV_2D written over its input (in place)
 * in residual blocks: x -> [1x1 expand ->] depthwise 3x3 -> 1x1 (no more
 * output channels than input ones) -> ADD(x, .).  On each target (generic
 * with the GEMM kernel and with the int8-weight one, Cortex-M4 with the
 * GEMM kernel, x86-64-v3 when the CPU has AVX2, Cortex-M0+ with the
 * reference kernel, te_conv2d_s8_inplace in place) the compiler links the
 * 1x1's output to its input where the kernel allows it and the arena comes
 * out below the plan without that link (kept only then), and the generated
 * code gives byte for byte the outputs of the same block with the 1x1's
 * output also a graph output (which keeps it out of place).  On a DSP core
 * the GEMM kernel's batched path (full int8 range, channels in fours) is
 * kept, and te_conv2d_dsp_s8 never goes in place: no link. */
#include "e2e_run.h"
#include "flash_setting.h"

#include "compiler.h"
#include "ir/target.h"
#include "codegen/kernels.h"
#include "ops/lowering.h"
#include "passes/passes.h"
#include "testlib.h"
#include "tflite_builder.h"

static const float s_x = 0.05f, s_w = 0.02f, s_e = 0.08f, s_d = 0.09f, s_p = 0.1f,
                   s_z = 0.12f;
static const int64_t zp_x = -3, zp_w = 0, zp_e = -128, zp_d = -128, zp_p = 4, zp_z = -2;

#define SIDE 8
#define C_IN 16
#define C_EXP 48


/* project: x [1,8,8,16] -> 1x1 to 48 (RELU6) -> depthwise 3x3 (RELU6) ->
 * 1x1 to 16 (act) -> ADD(x, .); else x -> depthwise 3x3 (RELU) -> 1x1 to
 * 16 (act) -> ADD.  pw_out: the 1x1's output is a graph output too. */
static uint8_t *build_block(int project, int act, int pw_out, size_t *size)
{
    tflb_model m;
    tflb_quant qx = tflb_quant1(&s_x, &zp_x), qw = tflb_quant1(&s_w, &zp_w),
               qe = tflb_quant1(&s_e, &zp_e), qd = tflb_quant1(&s_d, &zp_d),
               qp = tflb_quant1(&s_p, &zp_p), qz = tflb_quant1(&s_z, &zp_z);
    const int c = project ? C_EXP : C_IN;
    int32_t s_act[4] = {1, SIDE, SIDE, C_IN}, s_wide[4] = {1, SIDE, SIDE, c};
    int32_t s_we[4] = {C_EXP, 1, 1, C_IN}, s_wd[4] = {1, 3, 3, c}, s_wp[4] = {C_IN, 1, 1, c};
    static int8_t wdata[C_EXP * C_IN + 8]; /* read from offsets 0, 5 and 7 */
    int32_t x, e, d, p, z, in[2], outs[2];
    tflb_options o;
    uint8_t *data = NULL;
    int i, conv, dw;
    tflb_init(&m);
    for (i = 0; i < C_EXP * C_IN + 8; i++)
        wdata[i] = (int8_t)((i * 37 + 11) % 61 - 30);
    conv = tflb_add_opcode(&m, TE_OP_CONV_2D, 1);
    dw = tflb_add_opcode(&m, TE_OP_DEPTHWISE_CONV_2D, 1);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, s_act, 4, 0, &qx);
    e = x;
    if (project) {
        e = tflb_add_tensor(&m, "e", TFLB_INT8, s_wide, 4, 0, &qe);
        in[0] = x;
        in[1] = tflb_add_const(&m, "we", TFLB_INT8, s_we, 4, wdata, C_EXP * C_IN, &qw);
        o = tflb_opt_conv2d(TFLB_PAD_SAME, 1, 1, TFLB_ACT_RELU6);
        tflb_add_op(&m, conv, in, 2, &e, 1, &o);
    }
    d = tflb_add_tensor(&m, "d", TFLB_INT8, s_wide, 4, 0, &qd);
    in[0] = e;
    in[1] = tflb_add_const(&m, "wd", TFLB_INT8, s_wd, 4, wdata + 5, (size_t)9 * c, &qw);
    o = tflb_opt_dwconv2d(TFLB_PAD_SAME, 1, 1, 1, project ? TFLB_ACT_RELU6 : TFLB_ACT_RELU);
    tflb_add_op(&m, dw, in, 2, &d, 1, &o);
    p = tflb_add_tensor(&m, "p", TFLB_INT8, s_act, 4, 0, &qp);
    in[0] = d;
    in[1] = tflb_add_const(&m, "wp", TFLB_INT8, s_wp, 4, wdata + 7, (size_t)C_IN * c, &qw);
    o = tflb_opt_conv2d(TFLB_PAD_VALID, 1, 1, act);
    tflb_add_op(&m, conv, in, 2, &p, 1, &o);
    z = tflb_add_tensor(&m, "z", TFLB_INT8, s_act, 4, 0, &qz);
    in[0] = x;
    in[1] = p;
    o = tflb_opt_add(TFLB_ACT_NONE);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_ADD, 1), in, 2, &z, 1, &o);
    outs[0] = z;
    outs[1] = p;
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, outs, pw_out ? 2 : 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

/* The arena of g planned without the links only tried (what the compiler
 * planned before pointwise convolutions went in place). */
static size_t arena_without_trial(const te_graph *g)
{
    te_storage *st = te_storage_new(g);
    te_lower_opts lo;
    te_lowered *low;
    te_plan *plan;
    te_diag d;
    size_t arena = 0;
    memset(&lo, 0, sizeof lo);
    memset(&d, 0, sizeof d);
    te_pass_inplace(g, st);
    lo.st = st;
    low = te_lower_graph(g, &lo, NULL, &d);
    plan = low ? te_plan_build(g, low, &d) : NULL;
    if (plan)
        arena = plan->arena_bytes;
    te_plan_free(plan);
    te_lowered_free(low);
    te_storage_free(st);
    return arena;
}

static int is_dsp(const char *target) { return target && !strcmp(target, "cortex-m4"); }

static long n_inplace; /* blocks compiled with the 1x1 in place */

/* The block compiled for target under a flash setting (flash_setting.h). */
static void run_block(const char *target, int flash, int project, int act)
{
    size_t size, size2, in_bytes = SIDE * SIDE * C_IN, out_bytes = SIDE * SIDE * C_IN;
    uint8_t *data = build_block(project, act, 0, &size), *data2 = build_block(project, act, 1, &size2);
    static int8_t x[SIDE * SIDE * C_IN], z1[SIDE * SIDE * C_IN], z2[SIDE * SIDE * C_IN],
        p2[SIDE * SIDE * C_IN];
    const void *ins[1];
    void *outs1[1], *outs2[2];
    size_t out_sizes[2];
    te_compile_opts co;
    te_config cfg;
    te_diag d;
    te_model *m;
    int i;
    memset(&co, 0, sizeof co);
    memset(&cfg, 0, sizeof cfg);
    memset(&d, 0, sizeof d);
    co.target = te_target_parse(target);
    cfg.target = target;
    m = data && data2 ? load_with_flash(data, size, flash, &co, &cfg, &d) : NULL;
    CHECK(m != NULL);
    if (!m) {
        printf("pw block %s: %s\n", target, d.msg);
        free(data);
        free(data2);
        return;
    }
    {
        const te_graph *g = m->g;
        const te_op *pw = &g->ops[g->n_ops - 2];
        const te_lowering *l = te_lowered_find(m->low, g, pw);
        const size_t before = arena_without_trial(g);
        /* the GEMM kernel's batched path on a DSP core stays; the DSP
         * int8-weight kernel would need its scratch path's code */
        const int allowed = l && l->kernel != TE_K_CONV2D_DSP_S8 &&
                            !(is_dsp(target) && l->kernel == TE_K_CONV2D_GEMM_S8 &&
                              act == TFLB_ACT_NONE);
        const int linked = te_storage_inplace(m->st, pw->out[0]);
        CHECK(!linked || allowed);
        CHECK(l && l->inplace_input == (linked ? 0 : -1));
        /* kept only when the arena comes out smaller */
        CHECK(linked ? m->plan->arena_bytes < before : m->plan->arena_bytes == before);
        CHECK(flash != FLASH_TIGHT || (l && l->kernel == TE_K_CONV2D_W8_S8));
        CHECK(strcmp(target, "cortex-m0plus") ||
              (l && l->kernel == (linked ? TE_K_CONV2D_S8_INPLACE : TE_K_CONV2D_S8)));
        CHECK(flash != FLASH_ROOMY || (l && l->kernel != TE_K_CONV2D_W8_S8 &&
                                       l->kernel != TE_K_CONV2D_DSP_S8));
        n_inplace += linked;
        printf("%s%s %s act %d: %s (%s), arena %zu (%zu without it)\n", target,
               flash == FLASH_TIGHT ? " int8 weights" : flash == FLASH_ROOMY ? " roomy" : "", project ? "expand/project" : "separable", act,
               linked ? "in place" : "not in place",
               l ? te_kernel_report_name(l->kernel) : "?", m->plan->arena_bytes, before);
    }
    te_model_free(m);
    for (i = 0; i < (int)in_bytes; i++)
        x[i] = (int8_t)((i * 97 + 13) % 256 - 128);
    ins[0] = x;
    outs1[0] = z1;
    outs2[0] = z2;
    outs2[1] = p2;
    out_sizes[0] = out_sizes[1] = out_bytes;
    CHECK(e2e_run_cfg(data, size, &cfg, 1, ins, &in_bytes, 1, outs1, out_sizes) == 0);
    CHECK(e2e_run_cfg(data2, size2, &cfg, 1, ins, &in_bytes, 2, outs2, out_sizes) == 0);
    CHECK(memcmp(z1, z2, out_bytes) == 0);
    free(data);
    free(data2);
}

int main(void)
{
    static const char *const targets[] = {"generic", "cortex-m4", "x86-64-v3", "cortex-m0plus"};
    int t, project;
    for (t = 0; t < 4; t++) {
#if defined(__x86_64__) && defined(__GNUC__)
        if (t == 2 && !__builtin_cpu_supports("avx2"))
            continue;
#else
        if (t == 2)
            continue;
#endif
        for (project = 0; project <= 1; project++) {
            run_block(targets[t], FLASH_DEFAULT, project, TFLB_ACT_RELU);
            run_block(targets[t], FLASH_DEFAULT, project, TFLB_ACT_NONE);
        }
    }
    for (project = 0; project <= 1; project++) {
        run_block("generic", FLASH_TIGHT, project, TFLB_ACT_NONE);
        run_block("generic", FLASH_ROOMY, project, TFLB_ACT_NONE);
        run_block("cortex-m4", FLASH_ROOMY, project, TFLB_ACT_RELU);
        run_block("cortex-m4", FLASH_ROOMY, project, TFLB_ACT_NONE);
    }
    /* every target's separable block and the generic ones at least */
    CHECK(n_inplace >= 7);
    return test_summary();
}
