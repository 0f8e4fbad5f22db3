/* op_detection_postprocess.c - the custom operator
 * TFLite_Detection_PostProcess (SSD detectors' box decoding and
 * non-maximum suppression) as TensorFlow Lite Micro runs it: float32 box
 * encodings [1, boxes, >= 4], class scores [1, boxes, classes (+ 1
 * background)] and anchors [boxes, 4]; four float32 outputs (boxes,
 * classes, scores, count).  Its settings come from the custom_options map
 * (te_options.detection, read by the frontend).  One kernel,
 * te_detection_postprocess_f32, with scratch in the arena.  An int8
 * DEQUANTIZE feeding the box encodings or the scores is folded in
 * (pass_fold_dequantize.c): the kernel reads the int8 tensor through the
 * DEQUANTIZE's table, the same floats without the float32 copy.
 *
 * Refused: quantized inputs (TFLite Micro's kernel rejects them at invoke:
 * a DEQUANTIZE must come first), and the fast mode with more than one class
 * per detection (TFLite Micro then writes its outputs at scattered and
 * out-of-range places). */
/* Only the kernel's params struct and buffer size are used here: declare
 * kernels extern. */
#define TE_KERNEL extern
#include "ops.h"

#include <math.h>
#include <stdint.h>

#include "quant/quant.h"
#include "te_common.h"
#include "te_detection_postprocess.h"

enum { IN_BOXES = 0, IN_SCORES = 1, IN_ANCHORS = 2 };

/* The four outputs are float32 with room for `slots` detections. */
static int check_outputs(te_graph *g, const te_op *op, te_diag *d, int64_t *slots)
{
    static const char *const names[4] = {"output 0 (boxes)", "output 1 (classes)",
                                         "output 2 (scores)", "output 3 (count)"};
    int k;
    for (k = 0; k < 4; k++)
        if (te_check_type(d, op, te_out(g, op, k), names[k], TE_DT_FLOAT32) < 0)
            return -1;
    *slots = te_tensor_elems(te_out(g, op, 1));
    if (te_tensor_elems(te_out(g, op, 0)) != 4 * *slots ||
        te_tensor_elems(te_out(g, op, 2)) != *slots || te_tensor_elems(te_out(g, op, 3)) != 1)
        return te_op_fail(d, op, "outputs must hold boxes [N][4], classes [N], scores [N] and "
                          "one count (got %lld, %lld, %lld, %lld values)",
                          (long long)te_tensor_elems(te_out(g, op, 0)),
                          (long long)*slots, (long long)te_tensor_elems(te_out(g, op, 2)),
                          (long long)te_tensor_elems(te_out(g, op, 3)));
    if (*slots < op->opt.detection.max_detections)
        return te_op_fail(d, op, "outputs hold %lld detections, fewer than max_detections %d",
                          (long long)*slots, op->opt.detection.max_detections);
    return 0;
}

/* The settings TFLite Micro's Prepare and Eval insist on. */
static int check_settings(const te_op *op, te_diag *d, int classes_with_background)
{
    static const char *const scale_names[4] = {"y_scale", "x_scale", "h_scale", "w_scale"};
    const float scale[4] = {op->opt.detection.y_scale, op->opt.detection.x_scale,
                            op->opt.detection.h_scale, op->opt.detection.w_scale};
    int nc = op->opt.detection.num_classes, k;
    float iou = op->opt.detection.iou_threshold;
    if (op->opt.detection.max_detections < 1)
        return te_op_fail(d, op, "max_detections %d must be positive",
                          op->opt.detection.max_detections);
    if (nc < 1 || classes_with_background < nc || classes_with_background - nc > 1)
        return te_op_fail(d, op, "num_classes %d does not fit %d scores per box (the classes, "
                          "or the classes and one background)", nc, classes_with_background);
    if (!(iou > 0.0f && iou <= 1.0f))
        return te_op_fail(d, op, "nms_iou_threshold %g must be in (0, 1]", (double)iou);
    if (!isfinite(op->opt.detection.score_threshold))
        return te_op_fail(d, op, "nms_score_threshold %g is not finite",
                          (double)op->opt.detection.score_threshold);
    for (k = 0; k < 4; k++)
        if (!isfinite(scale[k]) || scale[k] == 0.0f)
            return te_op_fail(d, op, "%s %g must be finite and non-zero (boxes are divided "
                              "by it)", scale_names[k], (double)scale[k]);
    if (op->opt.detection.use_regular_nms && op->opt.detection.detections_per_class < 1)
        return te_op_fail(d, op, "detections_per_class %d must be positive",
                          op->opt.detection.detections_per_class);
    if (!op->opt.detection.use_regular_nms && op->opt.detection.max_classes_per_detection < 1)
        return te_op_fail(d, op, "max_classes_per_detection %d must be positive",
                          op->opt.detection.max_classes_per_detection);
    if (!op->opt.detection.use_regular_nms && op->opt.detection.max_classes_per_detection > 1 &&
        nc > 1)
        return te_op_fail(d, op, "max_classes_per_detection %d is not supported in the fast "
                          "mode (TFLite Micro writes such outputs out of place); use 1 or "
                          "use_regular_nms", op->opt.detection.max_classes_per_detection);
    return 0;
}

/* Input k is not float32: only an int8 tensor whose DEQUANTIZE the
 * compiler folded in (pass_fold_dequantize.c) may be read that way. */
static int check_folded(te_graph *g, const te_op *op, te_diag *d, int k)
{
    const te_tensor *t = te_in(g, op, k);
    if (!(op->opt.dequantized & (1u << k)))
        return te_op_fail(d, op, "input %d is %s; TFLite Micro's kernel takes float32 only "
                          "(dequantize it first)", k, te_dtype_name(t->type));
    if (t->type != TE_DT_INT8 || t->q.count != 1)
        return te_op_fail(d, op, "input %d: only an int8 tensor quantized per tensor reads "
                          "through its DEQUANTIZE's table", k);
    return te_check_quant(d, op, t, "a dequantized input");
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *boxes, *scores, *anchors;
    int64_t slots;
    int k;
    if (te_check_io_count(d, op, 3, 3, 4) < 0)
        return -1;
    boxes = te_in(g, op, IN_BOXES);
    scores = te_in(g, op, IN_SCORES);
    anchors = te_in(g, op, IN_ANCHORS);
    for (k = 0; k < 3; k++)
        if (te_in(g, op, k)->type != TE_DT_FLOAT32 && check_folded(g, op, d, k) < 0)
            return -1;
    if (boxes->rank != 3 || boxes->shape[0] != 1 || boxes->shape[2] < 4)
        return te_op_fail(d, op, "input 0 (box encodings) must have shape [1, boxes, >= 4]");
    if (scores->rank != 3 || scores->shape[0] != 1 || scores->shape[1] != boxes->shape[1])
        return te_op_fail(d, op, "input 1 (scores) must have shape [1, %d, classes]",
                          boxes->shape[1]);
    if (anchors->rank != 2 || anchors->shape[0] != boxes->shape[1] || anchors->shape[1] != 4)
        return te_op_fail(d, op, "input 2 (anchors) must have shape [%d, 4]", boxes->shape[1]);
    if (boxes->shape[1] < 1 || (int64_t)boxes->shape[1] * scores->shape[2] > INT32_MAX / 2 ||
        (int64_t)boxes->shape[1] * 64 > INT32_MAX)
        return te_op_fail(d, op, "%d boxes of %d scores are out of range", boxes->shape[1],
                          scores->shape[2]);
    if (check_settings(op, d, scores->shape[2]) < 0 || check_outputs(g, op, d, &slots) < 0)
        return -1;
    if (op->opt.detection.max_detections > INT32_MAX / 64 ||
        op->opt.detection.detections_per_class > INT32_MAX / 64)
        return te_op_fail(d, op, "max_detections %d / detections_per_class %d are out of range",
                          op->opt.detection.max_detections,
                          op->opt.detection.detections_per_class);
    for (k = 0; k < 3; k++)
        if (te_in(g, op, k)->data && te_check_const(d, op, te_in(g, op, k), "an input") < 0)
            return -1;
    return 0;
}

/* detections_per_class as the kernel uses it (the fast mode needs none). */
static int per_class(const te_op *op)
{
    return op->opt.detection.use_regular_nms ? op->opt.detection.detections_per_class : 0;
}

static void lower(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l)
{
    (void)o;
    l->scratch_bytes = (size_t)te_detection_postprocess_get_buffer_size(
        g->tensors[op->in[IN_BOXES]].shape[1], op->opt.detection.max_detections, per_class(op));
    l->kernel = TE_K_DETECTION_POSTPROCESS_F32;
}

/* The table an int8 input is read through ("0": a float32 input). */
static te_name dequantize_table(te_emit *e, const te_op *op, int k, const char *hint)
{
    const te_tensor *t = te_in(e->g, op, k);
    float lut[256];
    if (!(op->opt.dequantized & (1u << k)))
        return te_expr("0");
    te_dequantize_table(t->type, t->q.scale[0], (int32_t)t->q.zero_point[0], lut);
    return te_emit_const_f32(e, lut, 256, hint);
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *boxes = te_in(e->g, op, IN_BOXES), *scores = te_in(e->g, op, IN_SCORES);
    const te_options *o = &op->opt;
    te_name prm, pb, ps, pa, ob, oc, os, on, scratch;
    te_params_begin(e, "te_detection_postprocess_params");
    te_params_int(e, "num_boxes", boxes->shape[1]);
    te_params_int(e, "box_stride", boxes->shape[2]);
    te_params_int(e, "num_classes", o->detection.num_classes);
    te_params_int(e, "class_stride", scores->shape[2]);
    te_params_int(e, "max_detections", o->detection.max_detections);
    te_params_int(e, "detections_per_class", per_class(op));
    te_params_int(e, "use_regular_nms", o->detection.use_regular_nms != 0);
    te_params_int(e, "out_slots", te_tensor_elems(te_out(e->g, op, 1)));
    te_params_expr(e, "score_threshold", te_float_literal(o->detection.score_threshold).s);
    te_params_expr(e, "iou_threshold", te_float_literal(o->detection.iou_threshold).s);
    te_params_expr(e, "y_scale", te_float_literal(o->detection.y_scale).s);
    te_params_expr(e, "x_scale", te_float_literal(o->detection.x_scale).s);
    te_params_expr(e, "h_scale", te_float_literal(o->detection.h_scale).s);
    te_params_expr(e, "w_scale", te_float_literal(o->detection.w_scale).s);
    te_params_expr(e, "box_table", dequantize_table(e, op, IN_BOXES, "box_dequant").s);
    te_params_expr(e, "score_table", dequantize_table(e, op, IN_SCORES, "score_dequant").s);
    prm = te_params_end(e);
    pb = te_emit_tensor(e, op->in[IN_BOXES]);
    ps = te_emit_tensor(e, op->in[IN_SCORES]);
    pa = te_emit_tensor(e, op->in[IN_ANCHORS]);
    ob = te_emit_tensor(e, op->out[0]);
    oc = te_emit_tensor(e, op->out[1]);
    os = te_emit_tensor(e, op->out[2]);
    on = te_emit_tensor(e, op->out[3]);
    scratch = te_emit_scratch(e, "void");
    te_emit_kernel(e, TE_K_DETECTION_POSTPROCESS_F32);
    te_emit_kernel_call_status(e, TE_K_DETECTION_POSTPROCESS_F32, prm.s, pb.s, ps.s, pa.s, ob.s,
                               oc.s, os.s, on.s, scratch.s);
    return 0;
}

const te_op_def te_op_detection_postprocess = {
    .opcode = TE_OP_DETECTION_POSTPROCESS,
    .dequantize_inputs = 1u << IN_BOXES | 1u << IN_SCORES,
    .check = check,
    .emit = emit,
    .lower = lower,
    .lower_once = 1,
    .kernel = TE_ONE_KERNEL(TE_K_DETECTION_POSTPROCESS_F32),
};
