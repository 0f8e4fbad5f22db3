/* op_unidirectional_sequence_lstm.c - UNIDIRECTIONAL_SEQUENCE_LSTM as the
 * TensorFlow converter writes a Keras LSTM (int8 input, output and hidden
 * state, int8 weights, int32 biases, int16 cell state; or its 16x8 form:
 * int16 input, output and hidden state with zero point 0, int64 biases),
 * with what TFLite Micro's kernel supports: the four gates of a standard
 * LSTM, time major or batch major; no CIFG, peephole, projection or layer
 * norm (TFLM refuses them).  Prepare's effective scales are computed here
 * once (TFLM's CreateGateParams, CreateInterGateMulParams,
 * CreateLstmCellStateInfo); the kernel is te_lstm_s8 / te_lstm_s16 with its
 * gate scratch in the arena. */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/target.h"
#include "activation_s16.h"
#include "lstm_weights.h"
#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_lstm.h"

/* Input tensor positions (TFLM lstm_shared.h). */
enum {
    IN_X = 0,
    IN_W_INPUT = 1, /* input-to-gate weights: 1 input, 2 forget, 3 cell, 4 output */
    IN_W_REC = 5,   /* recurrent weights, same order */
    IN_PEEPHOLE = 9,
    IN_BIAS = 12,   /* 12 input, 13 forget, 14 cell, 15 output */
    IN_PROJ_W = 16,
    IN_PROJ_B = 17,
    IN_HIDDEN = 18,
    IN_CELL = 19,
    IN_LAYER_NORM = 20,
    N_INPUTS = 24
};

/* Offset of gate k (te_lstm.h order: forget, input, cell, output) from
 * the first tensor of each group of four (input, forget, cell, output). */
static const int gate_slot[4] = {1, 0, 2, 3};

/* Sizes the kernel loops over. */
typedef struct {
    int batch, time, n_input, n_state;
} lstm_sizes;

static void sizes_of(te_graph *g, const te_op *op, lstm_sizes *s)
{
    const te_tensor *x = te_in(g, op, IN_X), *h = te_in(g, op, IN_HIDDEN);
    s->batch = op->opt.time_major ? x->shape[1] : x->shape[0];
    s->time = op->opt.time_major ? x->shape[0] : x->shape[1];
    s->n_input = x->shape[2];
    s->n_state = h->shape[1];
}

/* 1: the 16x8 form (int16 input). */
static int is_s16(const te_graph *g, const te_op *op)
{
    return op->in[IN_X] >= 0 && g->tensors[op->in[IN_X]].type == TE_DT_INT16;
}

static int check_weights(te_graph *g, const te_op *op, te_diag *d, const lstm_sizes *s)
{
    const te_dtype bias_type = is_s16(g, op) ? TE_DT_INT64 : TE_DT_INT32;
    int i;
    for (i = IN_W_INPUT; i < IN_PEEPHOLE; i++) {
        const te_tensor *w = te_in(g, op, i);
        int cols = i < IN_W_REC ? s->n_input : s->n_state;
        char which[32];
        snprintf(which, sizeof which, "input %d", i);
        if (!w)
            return te_op_fail(d, op, "input %d (weights) is missing: TFLite Micro's LSTM has no "
                              "CIFG variant", i);
        if (te_check_type(d, op, w, which, TE_DT_INT8) < 0 || te_check_const(d, op, w, which) < 0 ||
            te_check_quant(d, op, w, which) < 0)
            return -1;
        if (w->rank != 2 || w->shape[0] != s->n_state || w->shape[1] != cols)
            return te_op_fail(d, op, "input %d (tensor %d '%s') must be %dx%d weights", i, w->id,
                              w->name, s->n_state, cols);
        if (w->q.count > 1 || w->q.zero_point[0] != 0)
            return te_op_fail(d, op, "input %d (tensor %d '%s') must be per-tensor quantized "
                              "with zero point 0", i, w->id, w->name);
    }
    for (i = IN_BIAS; i < IN_PROJ_W; i++) {
        const te_tensor *b = te_in(g, op, i);
        char which[32];
        snprintf(which, sizeof which, "input %d", i);
        if (te_check_type(d, op, b, which, bias_type) < 0 || te_check_const(d, op, b, which) < 0)
            return -1;
        if (b->rank != 1 || b->shape[0] != s->n_state)
            return te_op_fail(d, op, "input %d (tensor %d '%s') must be %d biases", i, b->id,
                              b->name, s->n_state);
    }
    return 0;
}

static int check_variants(te_graph *g, const te_op *op, te_diag *d)
{
    static const int absent[] = {9, 10, 11, 16, 17, 20, 21, 22, 23};
    size_t k;
    for (k = 0; k < sizeof absent / sizeof absent[0]; k++)
        if (te_in(g, op, absent[k]))
            return te_op_fail(d, op, "input %d is present: peephole, projection and layer norm "
                              "LSTMs are not supported (nor by TFLite Micro)", absent[k]);
    return 0;
}

static int check_state(te_graph *g, const te_op *op, te_diag *d, const lstm_sizes *s)
{
    const te_tensor *h = te_in(g, op, IN_HIDDEN), *c = te_in(g, op, IN_CELL);
    int32_t m, sh;
    int p;
    if (te_check_type(d, op, h, "input 18 (output state)",
                      is_s16(g, op) ? TE_DT_INT16 : TE_DT_INT8) < 0 ||
        te_check_quant(d, op, h, "input 18 (output state)") < 0 ||
        te_check_type(d, op, c, "input 19 (cell state)", TE_DT_INT16) < 0 ||
        te_check_quant(d, op, c, "input 19 (cell state)") < 0)
        return -1;
    if (!h->is_variable || !c->is_variable || h->data || c->data)
        return te_op_fail(d, op, "the output and cell states (inputs 18, 19) must be variable "
                          "tensors");
    if (te_tensor_elems(h) != (int64_t)s->batch * s->n_state ||
        te_tensor_elems(c) != (int64_t)s->batch * s->n_state)
        return te_op_fail(d, op, "the states must have %d x %d elements", s->batch, s->n_state);
    te_checked_log2(c->q.scale[0], &p);
    if (te_s16_tanh_pot_rescale(p, &m, &sh) < 0)
        return te_op_fail(d, op, "cell state scale %g is out of range", (double)c->q.scale[0]);
    return 0;
}

/* TFLM's FC multiplier: the float product of the scales over 2^-12. */
static void fc_multiplier(float in_scale, float w_scale, int32_t *m, int32_t *sh)
{
    float prod = in_scale * w_scale;
    int e;
    te_quantize_multiplier((double)prod / (double)(1.0f / 4096.0f), m, &e);
    *sh = e;
}

/* The 16x8 form: input and hidden state zero points 0 (TFLite's int16
 * fully connected applies no offset), and every gate product's multiplier
 * within its int64 requantization (shift at most 7). */
static int check_s16(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *x = te_in(g, op, IN_X), *h = te_in(g, op, IN_HIDDEN);
    int k;
    if (x->q.zero_point[0] != 0 || h->q.zero_point[0] != 0)
        return te_op_fail(d, op, "int16 input and output state need zero point 0 (have %lld, "
                          "%lld)", (long long)x->q.zero_point[0], (long long)h->q.zero_point[0]);
    for (k = 0; k < 8; k++) {
        const te_tensor *w = te_in(g, op, IN_W_INPUT + k);
        int32_t m, sh;
        fc_multiplier(k < 4 ? x->q.scale[0] : h->q.scale[0], w->q.scale[0], &m, &sh);
        if (sh > 7)
            return te_op_fail(d, op, "input %d (weights) scale %g: the gate product's multiplier "
                              "is beyond TFLite's int64 requantization", IN_W_INPUT + k,
                              (double)w->q.scale[0]);
    }
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *x, *h, *out;
    lstm_sizes s;
    if (te_check_io_count(d, op, N_INPUTS, N_INPUTS, 1) < 0)
        return -1;
    x = te_in(g, op, IN_X);
    h = te_in(g, op, IN_HIDDEN);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, x, "input 0", x && x->type == TE_DT_INT16 ? TE_DT_INT16 : TE_DT_INT8) <
            0 ||
        te_check_quant(d, op, x, "input 0") < 0 ||
        te_check_type(d, op, out, "output 0", x->type) < 0)
        return -1;
    if (x->rank != 3 || !h || h->rank < 2)
        return te_op_fail(d, op, "input 0 must be 3-D and input 18 at least 2-D");
    sizes_of(g, op, &s);
    if (s.batch < 1 || s.time < 1 || s.n_input < 1 || s.n_state < 1)
        return te_op_fail(d, op, "empty sequence, input or state");
    if (out->rank != 3 || out->shape[0] != x->shape[0] || out->shape[1] != x->shape[1] ||
        out->shape[2] != s.n_state)
        return te_op_fail(d, op, "output 0 must be %dx%dx%d", x->shape[0], x->shape[1],
                          s.n_state);
    if (check_variants(g, op, d) < 0 || check_weights(g, op, d, &s) < 0 ||
        check_state(g, op, d, &s) < 0)
        return -1;
    if (op->opt.activation != TE_ACT_TANH) /* TFLM: sigmoid or tanh; a model can say tanh */
        return te_op_fail(d, op, "cell gate activation %d: only TANH is supported",
                          (int)op->opt.activation);
    if (!(op->opt.cell_clip >= 0.0f))
        return te_op_fail(d, op, "negative cell_clip %g", (double)op->opt.cell_clip);
    return is_s16(g, op) ? check_s16(g, op, d) : 0;
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    lstm_sizes s;
    sizes_of((te_graph *)g, op, &s);
    return (int64_t)s.batch * s.time * 4 * s.n_state * (s.n_input + s.n_state);
}

static void lower(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l)
{
    lstm_sizes s;
    (void)o;
    sizes_of((te_graph *)g, op, &s);
    l->scratch_bytes =
        is_s16(g, op)
            ? (size_t)te_lstm_s16_get_buffer_size(op->opt.time_major, s.batch, s.n_state)
            : (size_t)te_lstm_s8_get_buffer_size(op->opt.time_major, s.batch, s.n_input,
                                                 s.n_state);
    l->kernel = is_s16(g, op) ? TE_K_LSTM_S16 : TE_K_LSTM_S8;
}

/* TFLM's CreateInterGateMulParams multiplier. */
static void mul_multiplier(float s1, float s2, float out, int32_t *m, int32_t *sh)
{
    int e;
    te_quantize_multiplier((double)s1 * (double)s2 / (double)out, m, &e);
    *sh = e;
}

/* Weights w [rows][cols] in the layout te_lstm_s8 reads on the target
 * (dsp: its DSP layout there), te_lstm_s16 everywhere (dsp 0). */
static te_name emit_weights(te_emit *e, const te_tensor *w, const char *hint, int dsp)
{
    int rows = w->shape[0], cols = w->shape[1];
    size_t n = dsp ? te_lstm_dsp_weights_len(rows, cols) : (size_t)rows * TE_LSTM_PAD4(cols);
    void *v = malloc(n * (dsp ? 2 : 1));
    te_name name;
    if (!v) {
        te_fail(e->diag, "out of memory");
        return te_expr("0");
    }
    if (dsp) {
        te_lstm_dsp_weights((const int8_t *)w->data, rows, cols, v);
        name = te_emit_const_i16(e, v, n, hint);
    } else {
        te_lstm_pad_weights((const int8_t *)w->data, rows, cols, v);
        name = te_emit_const_i8(e, v, n, hint);
    }
    free(v);
    return name;
}

/* bias[r] + offset * sum of row r of w [rows][cols], in 32-bit two's
 * complement (bias NULL: 0). */
static void effective_bias(const te_tensor *w, const te_tensor *b, int32_t offset, int32_t *out)
{
    const int8_t *wv = (const int8_t *)w->data;
    int rows = w->shape[0], cols = w->shape[1], r, j;
    for (r = 0; r < rows; r++) {
        int64_t sum = 0;
        uint32_t v;
        for (j = 0; j < cols; j++)
            sum += wv[(size_t)r * cols + j];
        v = (uint32_t)(int64_t)offset * (uint32_t)sum;
        if (b)
            v += (uint32_t)((const int32_t *)b->data)[r];
        out[r] = (int32_t)v;
    }
}

/* "{a, b, c, d}" of four constants' names, into list. */
static int gate_list(te_emit *e, const te_name n[4], char list[4 * sizeof(te_name) + 16])
{
    size_t len = strlen(n[0].s) + strlen(n[1].s) + strlen(n[2].s) + strlen(n[3].s) + 9;
    if (len > 4 * sizeof(te_name) + 16)
        return te_fail(e->diag, "internal: LSTM constant names too long");
    sprintf(list, "{%s, %s, %s, %s}", n[0].s, n[1].s, n[2].s, n[3].s);
    return 0;
}

/* The per-gate constants (weights in the target's layout, effective
 * biases) and their four-entry initialisers "{a, b, c, d}": weights in,
 * weights recurrent, biases in, biases recurrent. */
static int emit_gate_arrays(te_emit *e, const te_op *op, const lstm_sizes *s, char list[4][4 * sizeof(te_name) + 16])
{
    te_graph *g = e->g;
    const te_tensor *x = te_in(g, op, IN_X), *h = te_in(g, op, IN_HIDDEN);
    int32_t *bias = malloc(sizeof(int32_t) * (size_t)s->n_state);
    const int dsp = te_target_has_dsp(g->target);
    te_name n[4][4];
    int k, a;
    if (!bias)
        return te_fail(e->diag, "out of memory");
    for (k = 0; k < 4; k++) {
        const te_tensor *wi = te_in(g, op, IN_W_INPUT + gate_slot[k]);
        const te_tensor *wr = te_in(g, op, IN_W_REC + gate_slot[k]);
        n[0][k] = emit_weights(e, wi, "w_in", dsp);
        n[1][k] = emit_weights(e, wr, "w_rec", dsp);
        effective_bias(wi, te_in(g, op, IN_BIAS + gate_slot[k]), -(int32_t)x->q.zero_point[0],
                       bias);
        n[2][k] = te_emit_const_i32(e, bias, (size_t)s->n_state, "bias_in");
        effective_bias(wr, NULL, -(int32_t)h->q.zero_point[0], bias);
        n[3][k] = te_emit_const_i32(e, bias, (size_t)s->n_state, "bias_rec");
    }
    free(bias);
    for (a = 0; a < 4; a++)
        if (gate_list(e, n[a], list[a]) < 0)
            return -1;
    return 0;
}

/* The 16x8 form's per-gate constants: weights (rows padded, no DSP layout)
 * and the model's int64 biases; initialisers as emit_gate_arrays. */
static int emit_gate_arrays_s16(te_emit *e, const te_op *op, char list[3][4 * sizeof(te_name) + 16])
{
    te_graph *g = e->g;
    te_name n[3][4];
    int k, a;
    for (k = 0; k < 4; k++) {
        n[0][k] = emit_weights(e, te_in(g, op, IN_W_INPUT + gate_slot[k]), "w_in", 0);
        n[1][k] = emit_weights(e, te_in(g, op, IN_W_REC + gate_slot[k]), "w_rec", 0);
        n[2][k] = te_emit_tensor(e, op->in[IN_BIAS + gate_slot[k]]);
    }
    for (a = 0; a < 3; a++)
        if (gate_list(e, n[a], list[a]) < 0)
            return -1;
    return 0;
}

/* The gates' product multipliers (input and recurrent, to Q3.12). */
static void params_gate_scales(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *x = te_in(g, op, IN_X), *h = te_in(g, op, IN_HIDDEN);
    int in_m[4], in_s[4], rec_m[4], rec_s[4], k;
    int32_t m, sh;
    for (k = 0; k < 4; k++) {
        fc_multiplier(x->q.scale[0], te_in(g, op, IN_W_INPUT + gate_slot[k])->q.scale[0], &m, &sh);
        in_m[k] = (int)m;
        in_s[k] = (int)sh;
        fc_multiplier(h->q.scale[0], te_in(g, op, IN_W_REC + gate_slot[k])->q.scale[0], &m, &sh);
        rec_m[k] = (int)m;
        rec_s[k] = (int)sh;
    }
    te_params_ints(e, "in_mult", in_m, 4);
    te_params_ints(e, "in_shift", in_s, 4);
    te_params_ints(e, "rec_mult", rec_m, 4);
    te_params_ints(e, "rec_shift", rec_s, 4);
}

/* The cell update and hidden state multipliers (gate outputs in Q0.15),
 * the hidden state's zero point (int8 only), the quantized cell clip (-1:
 * none) and the cell's tanh rescaling. */
static void params_cell(te_emit *e, const te_op *op, int32_t tanh_m, int32_t tanh_s)
{
    const te_tensor *h = te_in(e->g, op, IN_HIDDEN), *c = te_in(e->g, op, IN_CELL);
    const float gate_out = 1.0f / 32768.0f;
    int32_t m, sh;
    int clip = -1;
    mul_multiplier(gate_out, c->q.scale[0], c->q.scale[0], &m, &sh);
    te_params_int(e, "forget_mult", m);
    te_params_int(e, "forget_shift", sh);
    mul_multiplier(gate_out, gate_out, c->q.scale[0], &m, &sh);
    te_params_int(e, "input_mult", m);
    te_params_int(e, "input_shift", sh);
    mul_multiplier(gate_out, gate_out, h->q.scale[0], &m, &sh);
    te_params_int(e, "hidden_mult", m);
    te_params_int(e, "hidden_shift", sh);
    if (h->type == TE_DT_INT8)
        te_params_int(e, "hidden_zp", h->q.zero_point[0]);
    if (op->opt.cell_clip > 0.0f) { /* TFLM: static_cast<int16_t> of the clamped quotient */
        double q = (double)op->opt.cell_clip / (double)c->q.scale[0];
        clip = (int)(int16_t)(q < -32768.0 ? -32768.0 : q > 32767.0 ? 32767.0 : q);
    }
    te_params_int(e, "cell_clip", clip);
    te_params_int(e, "cell_tanh_mult", tanh_m);
    te_params_int(e, "cell_tanh_shift", tanh_s);
}

static int emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *c = te_in(g, op, IN_CELL);
    const int s16 = is_s16(g, op);
    const te_kernel_id kernel = s16 ? TE_K_LSTM_S16 : TE_K_LSTM_S8;
    lstm_sizes s;
    int32_t tanh_m, tanh_s;
    te_name prm, px, ph, pc, po, scratch;
    char list[4][4 * sizeof(te_name) + 16];
    int p;
    sizes_of(g, op, &s);
    te_checked_log2(c->q.scale[0], &p);
    if (te_s16_tanh_pot_rescale(p, &tanh_m, &tanh_s) < 0)
        return te_op_fail(e->diag, op, "lost its cell rescaling (internal error)");
    te_emit_kernel(e, TE_K_SIGMOID_S16);
    te_emit_kernel(e, TE_K_TANH_S16);
    te_emit_kernel(e, kernel);
    if ((s16 ? emit_gate_arrays_s16(e, op, list) : emit_gate_arrays(e, op, &s, list)) < 0)
        return -1;
    te_params_begin(e, s16 ? "te_lstm_s16_params" : "te_lstm_s8_params");
    te_params_int(e, "batch", s.batch);
    te_params_int(e, "time", s.time);
    te_params_int(e, "n_input", s.n_input);
    te_params_int(e, "n_state", s.n_state);
    te_params_int(e, "time_major", op->opt.time_major);
    te_params_expr(e, "w_in", list[0]);
    te_params_expr(e, "w_rec", list[1]);
    if (s16) {
        te_params_expr(e, "bias", list[2]);
    } else {
        te_params_expr(e, "bias_in", list[2]);
        te_params_expr(e, "bias_rec", list[3]);
    }
    params_gate_scales(e, op);
    params_cell(e, op, tanh_m, tanh_s);
    prm = te_params_end(e);
    px = te_emit_tensor(e, op->in[IN_X]);
    ph = te_emit_tensor(e, op->in[IN_HIDDEN]);
    pc = te_emit_tensor(e, op->in[IN_CELL]);
    po = te_emit_tensor(e, op->out[0]);
    scratch = te_emit_scratch(e, "void");
    te_emit_kernel_call(e, kernel, prm.s, px.s, ph.s, pc.s, po.s, scratch.s);
    return 0;
}

const te_op_def te_op_unidirectional_sequence_lstm = {
    .opcode = TE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
    .check = check,
    .macs = macs,
    .emit = emit,
    .lower = lower,
    .lower_once = 1,
    .int16x8 = 1,
};
