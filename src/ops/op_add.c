/* op_add.c - ADD (int8 or int16x8, broadcasting up to 6D, fused
 * activation): checks, TFLite Micro's Prepare-time rescaling (left shift 20,
 * or 15 for int16, per-input and output multipliers below one), the search
 * for the two lookup tables of te_add_s8_lut, and the kernel call
 * (te_add_s8_lut, or te_add_s8 when no tables exist; te_add_s16 for int16,
 * TFLite Micro's general-scale path, which it takes for every int16 ADD;
 * te_binary_i32 / te_binary_f32 for its unquantized int32 and float32 ADD,
 * a loop counter's `i + 1` in a WHILE: binary_plain.h).  The input checks
 * and broadcast layout it shares with MUL: broadcast.h. */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binary_plain.h"
#include "broadcast.h"
#include "flash_budget.h"
#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_add.h"
#include "te_binary_plain.h"

void te_add_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_add_params *p);
void te_add_make_params_s16(te_activation act, const te_tensor *a, const te_tensor *b,
                            const te_tensor *o, te_add_params *p);
int te_add_make_lut(const te_add_params *p, int shift, int32_t *u1, int32_t *u2);
int te_add_make_lut_signed(const te_add_params *p, int subtract, int shift, int32_t *u1,
                           int32_t *u2);
int te_add_emit_lut(te_emit *e, const te_op *op, const te_add_params *p, const int32_t *u1,
                    const int32_t *u2);

/* Fills the kernel parameters exactly as TFLite Micro's CalculateOpDataAdd
 * for inputs shifted left by left_shift and an output range [qmin, qmax]
 * (multipliers below one), and the broadcast layout. */
static void add_fill_params(te_activation act, const te_tensor *a, const te_tensor *b,
                            const te_tensor *o, int left_shift, int32_t qmin, int32_t qmax,
                            te_add_params *p)
{
    float sa = a->q.scale[0], sb = b->q.scale[0];
    double twice_max = 2.0 * (double)(sa > sb ? sa : sb);
    double real_out = twice_max / ((double)(1 << left_shift) * (double)o->q.scale[0]);
    te_bcast_fill(a, b, &p->broadcast, &p->size, p->dims, p->stride1, p->stride2);
    p->in1_offset = (int32_t)-a->q.zero_point[0];
    p->in2_offset = (int32_t)-b->q.zero_point[0];
    p->left_shift = left_shift;
    te_quantize_multiplier_smaller_than_one((double)sa / twice_max, &p->in1_mult, &p->in1_shift);
    te_quantize_multiplier_smaller_than_one((double)sb / twice_max, &p->in2_mult, &p->in2_shift);
    te_quantize_multiplier_smaller_than_one(real_out, &p->out_mult, &p->out_shift);
    p->out_offset = (int32_t)o->q.zero_point[0];
    p->act_min = qmin;
    p->act_max = qmax;
    te_activation_range(act, o->q.scale[0], p->out_offset, qmin, qmax, &p->act_min, &p->act_max);
}

/* int8: left shift 20. */
void te_add_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_add_params *p)
{
    add_fill_params(act, a, b, o, 20, -128, 127, p);
}

/* int16x8: left shift 15. */
void te_add_make_params_s16(te_activation act, const te_tensor *a, const te_tensor *b,
                            const te_tensor *o, te_add_params *p)
{
    add_fill_params(act, a, b, o, 15, -32768, 32767, p);
}

/* ---- lookup tables for te_add_s8_lut ------------------------------------
 * With int8 inputs TFLite's result is a function g(x, y) of the two input
 * values only: clamp(R(T1[x] + T2[y])), T_k the rescaled input, R the
 * output rescale.  We look for integer tables u1, u2 with
 *     clamp((u1[x] + u2[y]) >> S) == g(x, y)   for all 65536 pairs,
 * i.e. g*2^S <= u1[x] + u2[y] <= g*2^S + 2^S - 1, one side dropped where g
 * is act_min or act_max (the clamp does the rest).  These are difference
 * constraints between u1[x] and w[y] = -u2[y], solved exactly by
 * Bellman-Ford (all nodes start at 0): a negative cycle means no tables
 * exist and the op keeps te_add_s8.  The result is verified pair by pair. */

#define LUT_PAIRS (256 * 256)

/* g(x, y) for x, y = -128..127, row-major by x + 128; d: the start of
 * the search, the tables of the real-valued rescaling (d[0..255]: u1,
 * d[256..511]: -u2), which are feasible or nearly so.  subtract: SUB's
 * g (the rescaled input 2 enters negated; everything else as ADD). */
static void lut_targets(const te_add_params *p, int subtract, int shift, int8_t *g, int64_t *d)
{
    int32_t t1[256], t2[256];
    const double out_real = ldexp((double)p->out_mult, p->out_shift - 31) * ldexp(1.0, shift);
    int i, j;
    for (i = 0; i < 256; i++) {
        t1[i] = te_mul_by_quant_mult_smaller_than_one(
            te_shl_i32(p->in1_offset + i - 128, p->left_shift), p->in1_mult, p->in1_shift);
        t2[i] = te_mul_by_quant_mult_smaller_than_one(
            te_shl_i32(p->in2_offset + i - 128, p->left_shift), p->in2_mult, p->in2_shift);
        if (subtract) /* |t2| < 2^28: no overflow */
            t2[i] = -t2[i];
    }
    for (i = 0; i < 256; i++) {
        d[i] = (int64_t)floor((double)t1[i] * out_real + ldexp((double)p->out_offset + 0.5, shift));
        d[256 + i] = -(int64_t)floor((double)t2[i] * out_real);
    }
    for (i = 0; i < 256; i++)
        for (j = 0; j < 256; j++) {
            int32_t v = te_mul_by_quant_mult_smaller_than_one(t1[i] + t2[j], p->out_mult,
                                                              p->out_shift) + p->out_offset;
            g[i * 256 + j] = (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
        }
}

/* One Bellman-Ford pass over every pair's two constraints; 1 if any
 * distance dropped.  d[0..255]: u1, d[256..511]: w = -u2. */
static int lut_relax(const int8_t *g, int32_t lo, int32_t hi, int64_t k, int64_t *d)
{
    int i, j, changed = 0;
    for (i = 0; i < 256; i++) {
        int64_t u = d[i];
        const int8_t *row = g + i * 256;
        for (j = 0; j < 256; j++) {
            int64_t *w = &d[256 + j], v = row[j];
            if (v != hi && *w + v * k + k - 1 < u) { /* u1 + u2 <= v k + k - 1 */
                u = *w + v * k + k - 1;
                changed = 1;
            }
            if (v != lo && u - v * k < *w) { /* u1 + u2 >= v k */
                *w = u - v * k;
                changed = 1;
            }
        }
        d[i] = u;
    }
    return changed;
}

/* Relaxation passes allowed per search.  From the real-valued start every
 * table of the shared models and conformance tests settles in at most one;
 * a search that needs more is given up (te_add_s8 then: slower, as exact),
 * which bounds the compile time (a negative cycle would otherwise take 512
 * passes of 65536 pairs: seconds under the sanitizers, found by fuzz_graph). */
#define LUT_MAX_PASSES 32

/* Relaxed from the start d until every constraint holds (a feasible
 * potential: a few passes from a good start), centred and checked to fit
 * (|u| < 2^30). */
static int lut_solve(const int8_t *g, int32_t lo, int32_t hi, int shift, int64_t *d, int32_t *u1,
                     int32_t *u2)
{
    int64_t mn = INT64_MAX, mx = INT64_MIN, c;
    int i, pass;
    for (pass = 0; lut_relax(g, lo, hi, (int64_t)1 << shift, d); pass++)
        if (pass >= LUT_MAX_PASSES)
            return 0; /* infeasible, or not worth the compile time */
    for (i = 0; i < 256; i++) {
        mn = d[i] < mn ? d[i] : mn;
        mx = d[i] > mx ? d[i] : mx;
    }
    c = -(mn + (mx - mn) / 2); /* u1 centred on 0 */
    for (i = 0; i < 512; i++) {
        int64_t v = i < 256 ? d[i] + c : -(d[i] + c);
        if (v <= -((int64_t)1 << 30) || v >= ((int64_t)1 << 30))
            return 0;
        if (i < 256)
            u1[i] = (int32_t)v;
        else
            u2[i - 256] = (int32_t)v;
    }
    return 1;
}

/* The kernel's arithmetic against g for every pair. */
static int lut_verify(const int8_t *g, int32_t lo, int32_t hi, int shift, const int32_t *u1,
                      const int32_t *u2)
{
    int i, j;
    for (i = 0; i < 256; i++)
        for (j = 0; j < 256; j++)
            if (te_clamp_i32((u1[i] + u2[j]) >> shift, lo, hi) != g[i * 256 + j])
                return 0;
    return 1;
}

/* Tables for te_add_s8_lut with right shift `shift` (TE_ADD_LUT_SHIFT in
 * the kernel) for the rescaling p: 1 and u1, u2 filled, or 0 if none. */
int te_add_make_lut(const te_add_params *p, int shift, int32_t *u1, int32_t *u2)
{
    return te_add_make_lut_signed(p, 0, shift, u1, u2);
}

static int lut_compute(const te_add_params *p, int subtract, int shift, int32_t *u1, int32_t *u2);

/* Tables found lately, by everything lut_targets reads: the lowering of
 * every ADD and of each of its patch clones (the same rescaling on every
 * region, dozens per --patch auto candidate) asks for them.  One memo per
 * thread: the C API may compile models on several threads at once. */
#define LUT_MEMO 16
#define LUT_KEY 14
#if defined(__GNUC__)
#define LUT_MEMO_STORAGE static __thread
#else
#define LUT_MEMO_STORAGE static /* compilers without thread-local storage: one thread */
#endif

typedef struct {
    int32_t key[LUT_KEY];
    int ok;
    int32_t u1[256], u2[256];
} lut_memo;

/* The same for ADD (subtract 0) or SUB (subtract 1: input 2 subtracted,
 * p holding SUB's multipliers in ADD's fields). */
int te_add_make_lut_signed(const te_add_params *p, int subtract, int shift, int32_t *u1,
                           int32_t *u2)
{
    LUT_MEMO_STORAGE lut_memo memo[LUT_MEMO];
    LUT_MEMO_STORAGE int n_memo, next;
    const int32_t key[LUT_KEY] = {p->in1_offset, p->in2_offset, p->left_shift, p->in1_mult,
                                  p->in1_shift,  p->in2_mult,   p->in2_shift,  p->out_mult,
                                  p->out_shift,  p->out_offset, p->act_min,    p->act_max,
                                  subtract,      shift};
    lut_memo *m;
    int i;
    for (i = 0; i < n_memo; i++)
        if (!memcmp(memo[i].key, key, sizeof key)) {
            memcpy(u1, memo[i].u1, sizeof memo[i].u1);
            memcpy(u2, memo[i].u2, sizeof memo[i].u2);
            return memo[i].ok;
        }
    m = &memo[next];
    next = (next + 1) % LUT_MEMO;
    n_memo += n_memo < LUT_MEMO;
    memcpy(m->key, key, sizeof key);
    memset(m->u1, 0, sizeof m->u1);
    memset(m->u2, 0, sizeof m->u2);
    m->ok = lut_compute(p, subtract, shift, m->u1, m->u2);
    memcpy(u1, m->u1, sizeof m->u1);
    memcpy(u2, m->u2, sizeof m->u2);
    return m->ok;
}

/* te_add_make_lut_signed without the memo. */
static int lut_compute(const te_add_params *p, int subtract, int shift, int32_t *u1, int32_t *u2)
{
    int8_t *g = malloc(LUT_PAIRS);
    int64_t d[512];
    int ok;
    if (!g)
        return 0;
    lut_targets(p, subtract, shift, g, d);
    ok = lut_solve(g, p->act_min, p->act_max, shift, d, u1, u2) &&
         lut_verify(g, p->act_min, p->act_max, shift, u1, u2);
    if (!ok) { /* the plain shortest paths from 0 (slower; finds a few more) */
        memset(d, 0, sizeof d);
        ok = lut_solve(g, p->act_min, p->act_max, shift, d, u1, u2) &&
             lut_verify(g, p->act_min, p->act_max, shift, u1, u2);
    }
    free(g);
    return ok;
}

/* Outputs below which an ADD keeps te_add_s8: the two tables cost 2 KB of
 * flash and their search milliseconds of compile time, for a few hundred
 * instructions saved.  Above, the tables are a flash-for-speed trade of
 * the flash budget (flash_budget.h). */
#define ADD_LUT_MIN_ELEMS 256

/* Parameters of op and, when it has tables, the tables (returns 1). */
static int add_plan(const te_graph *g, const te_op *op, te_add_params *p, int32_t *u1,
                    int32_t *u2)
{
    te_graph *gm = (te_graph *)g; /* te_in/te_out take a mutable graph; nothing is written */
    te_add_make_params(op->opt.activation, te_in(gm, op, 0), te_in(gm, op, 1),
                       te_out(gm, op, 0), p);
    return te_tensor_elems(te_out(gm, op, 0)) >= ADD_LUT_MIN_ELEMS &&
           te_flash_lut_allowed(g, op) && te_add_make_lut(p, TE_ADD_LUT_SHIFT, u1, u2);
}

static int add_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *b, *o;
    int32_t lo, hi;
    float sa, sb;
    int s16, left_shift;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    if (te_binary_plain_is(g, op))
        return te_binary_plain_check(g, op, d, 1);
    if (te_bcast_check_inputs_s8_s16(g, op, d) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    s16 = o->type == TE_DT_INT16;
    left_shift = s16 ? 15 : 20;
    sa = a->q.scale[0];
    sb = b->q.scale[0];
    if (!(2.0 * (double)(sa > sb ? sa : sb) < (double)(1 << left_shift) * (double)o->q.scale[0]))
        return te_op_fail(d, op, "output scale %g is too small for input scales %g and %g "
                          "(rescale factor must be below 1)", (double)o->q.scale[0],
                          (double)sa, (double)sb);
    if (s16 && (a->q.zero_point[0] < -32767 || a->q.zero_point[0] > 32767 ||
                b->q.zero_point[0] < -32767 || b->q.zero_point[0] > 32767 ||
                o->q.zero_point[0] < -32768 || o->q.zero_point[0] > 32767))
        return te_op_fail(d, op, "int16 zero points must lie inside int16");
    if (te_activation_range(op->opt.activation, o->q.scale[0], (int32_t)o->q.zero_point[0],
                            s16 ? -32768 : -128, s16 ? 32767 : 127, &lo, &hi) < 0)
        return te_op_fail(d, op, "unsupported fused activation %d", (int)op->opt.activation);
    return 0;
}

/* te_add_s8_lut(&params, in1, in2, out), params with the two tables (SUB's
 * table form too). */
int te_add_emit_lut(te_emit *e, const te_op *op, const te_add_params *p, const int32_t *u1,
                    const int32_t *u2)
{
    const te_tensor *a = te_in(e->g, op, 0), *b = te_in(e->g, op, 1), *o = te_out(e->g, op, 0);
    te_name pa = te_emit_tensor(e, a->id), pb = te_emit_tensor(e, b->id),
            po = te_emit_tensor(e, o->id);
    te_name n1 = te_emit_const_i32(e, u1, 256, "add_u1"), n2 = te_emit_const_i32(e, u2, 256,
                                                                                 "add_u2");
    te_name prm;
    te_emit_kernel(e, TE_K_ADD_S8_LUT);
    te_params_begin(e, "te_add_lut_params");
    te_bcast_param_layout(e, p->broadcast, p->size, p->dims, p->stride1, p->stride2);
    te_params_expr(e, "u1", n1.s);
    te_params_expr(e, "u2", n2.s);
    te_params_int(e, "act_min", p->act_min);
    te_params_int(e, "act_max", p->act_max);
    prm = te_params_end(e);
    te_emit_kernel_call(e, TE_K_ADD_S8_LUT, prm.s, pa.s, pb.s, po.s);
    return 0;
}

/* Kernels, as lowering records them (te_lowering.variant). */
enum { ADD_PLAIN, ADD_LUT, ADD_S16, ADD_PLAIN_TYPES };

/* TFLite Micro's float range of a fused activation (CalculateActivationRange). */
static int add_emit(te_emit *e, const te_op *op)
{
    te_add_params p;
    int32_t u1[256], u2[256];
    int s16 = e->low->variant == ADD_S16;
    if (e->low->variant == ADD_PLAIN_TYPES) /* int32 sums keep the whole int32 range */
        return te_binary_plain_emit(e, op, TE_BINARY_ADD, 0);
    if (e->low->variant == ADD_LUT) {
        if (!add_plan(e->g, op, &p, u1, u2)) /* the tables lowering found */
            return te_op_fail(e->diag, op, "lost its addition tables (internal error)");
        return te_add_emit_lut(e, op, &p, u1, u2);
    }
    (s16 ? te_add_make_params_s16 : te_add_make_params)(op->opt.activation, te_in(e->g, op, 0),
                                                     te_in(e->g, op, 1), te_out(e->g, op, 0),
                                                     &p);
    te_params_begin(e, "te_add_params");
    te_bcast_param_layout(e, p.broadcast, p.size, p.dims, p.stride1, p.stride2);
    te_params_int(e, "in1_offset", p.in1_offset);
    te_params_int(e, "in2_offset", p.in2_offset);
    te_params_int(e, "left_shift", p.left_shift);
    te_params_int(e, "in1_mult", p.in1_mult);
    te_params_int(e, "in1_shift", p.in1_shift);
    te_params_int(e, "in2_mult", p.in2_mult);
    te_params_int(e, "in2_shift", p.in2_shift);
    te_params_int(e, "out_mult", p.out_mult);
    te_params_int(e, "out_shift", p.out_shift);
    te_params_int(e, "out_offset", p.out_offset);
    te_params_int(e, "act_min", p.act_min);
    te_params_int(e, "act_max", p.act_max);
    if (s16)
        return te_bcast_emit(e, op, TE_K_ADD_S16, te_params_end(e).s);
    return te_bcast_emit(e, op, TE_K_ADD_S8, te_params_end(e).s);
}

/* te_add_s8_lut when its tables exist: the search costs milliseconds, so
 * it runs once per op (lower_once: it depends on the quantization alone). */
static void add_lower(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l)
{
    te_add_params p;
    int32_t u1[256], u2[256];
    (void)o;
    if (te_binary_plain_is(g, op)) {
        l->variant = ADD_PLAIN_TYPES;
        l->kernel = te_binary_plain_kernel(g, op);
        return;
    }
    if (g->tensors[op->out[0]].type == TE_DT_INT16) {
        l->variant = ADD_S16;
        l->kernel = TE_K_ADD_S16;
        return;
    }
    l->variant = add_plan(g, op, &p, u1, u2) ? ADD_LUT : ADD_PLAIN;
    l->kernel = l->variant == ADD_LUT ? TE_K_ADD_S8_LUT : TE_K_ADD_S8;
}

const te_op_def te_op_add = {
    .opcode = TE_OP_ADD,
    .int16x8 = 1,
    .check = add_check,
    .emit = add_emit,
    .inplace_input = te_inplace_same_shape_input,
    .lower = add_lower,
    .lower_once = 1,
    .patch_kind = te_bcast_patch_kind,
};
