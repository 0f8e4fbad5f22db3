/* pool.c - checks, parameters and kernel call shared by AVERAGE_POOL_2D
 * and MAX_POOL_2D (see pool.h): TFLite Micro's ComputePaddingHeightWidth
 * and activation range, then a call to a te_pool kernel (int8, or int16
 * for int16x8 models). */
#include "pool.h"

#include <math.h>
#include <stdio.h>

#include "quant/quant.h"

/* TFLite ComputeOutSize (dilation 1); may be <= 0 for a too large filter. */
static long long pool_out_size(te_padding pad, long long in, long long filter, long long stride)
{
    if (pad == TE_PAD_SAME)
        return (in + stride - 1) / stride;
    return (in + stride - filter) / stride;
}

/* TFLite ComputePadding: the padding before the first row / column. */
static int pool_padding(long long stride, long long in, long long filter, long long out)
{
    long long p = ((out - 1) * stride + filter - in) / 2;
    return p > 0 ? (int)p : 0;
}

int te_pool_check_geometry(const te_op *op, const te_tensor *in, const te_tensor *out,
                           te_diag *d)
{
    const te_options *o = &op->opt;
    long long oh, ow;
    if (o->padding != TE_PAD_SAME && o->padding != TE_PAD_VALID)
        return te_op_fail(d, op, "unsupported padding %d", (int)o->padding);
    if (o->stride_h < 1 || o->stride_w < 1 || o->filter_h < 1 || o->filter_w < 1)
        return te_op_fail(d, op, "invalid stride %dx%d or filter %dx%d (must be >= 1)",
                          o->stride_h, o->stride_w, o->filter_h, o->filter_w);
    oh = pool_out_size(o->padding, in->shape[1] + o->pad_top + o->pad_bottom, o->filter_h,
                       o->stride_h);
    ow = pool_out_size(o->padding, in->shape[2] + o->pad_left + o->pad_right, o->filter_w,
                       o->stride_w);
    if (oh < 1 || ow < 1)
        return te_op_fail(d, op, "filter %dx%d and input %dx%d give an empty output",
                          o->filter_h, o->filter_w, in->shape[1], in->shape[2]);
    if (out->shape[0] != in->shape[0] || out->shape[3] != in->shape[3] ||
        out->shape[1] != oh || out->shape[2] != ow)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has shape [%d,%d,%d,%d], expected "
                          "[%d,%lld,%lld,%d]", out->id, out->name, out->shape[0], out->shape[1],
                          out->shape[2], out->shape[3], in->shape[0], oh, ow, in->shape[3]);
    return 0;
}

/* The quantized range of t's type. */
static void pool_qrange(const te_tensor *t, int32_t *qmin, int32_t *qmax)
{
    *qmin = t->type == TE_DT_INT16 ? -32768 : -128;
    *qmax = -*qmin - 1;
}

/* One input and one output, both int8 or both int16, per-tensor quantized. */
static int pool_check_io(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    te_dtype type;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    type = in && in->type == TE_DT_INT16 ? TE_DT_INT16 : TE_DT_INT8;
    if (te_check_type(d, op, in, "input 0", type) < 0 ||
        te_check_type(d, op, out, "output 0", type) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, out, "output 0") < 0)
        return -1;
    return 0;
}

static int pool_check_quant(const te_op *op, const te_tensor *in, const te_tensor *out,
                            te_diag *d)
{
    int32_t lo, hi, qmin, qmax;
    (void)in; /* TFLite Micro's pools copy raw values whatever the two quantizations */
    pool_qrange(out, &qmin, &qmax);
    if (te_activation_range(op->opt.activation, out->q.scale[0], (int32_t)out->q.zero_point[0],
                            qmin, qmax, &lo, &hi) < 0)
        return te_op_fail(d, op, "unsupported fused activation %d", (int)op->opt.activation);
    return 0;
}

/* Pools run on a patch as window ops (the clone's explicit padding only
 * where the region touches the border); int8 only. */
te_patch_kind te_pool_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = te_in((te_graph *)g, op, 0);
    return in && in->type == TE_DT_INT8 ? TE_PATCH_WINDOW : TE_PATCH_NONE;
}

int te_pool_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    if (pool_check_io(g, op, d) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (in->rank != 4)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has rank %d, expected 4", in->id,
                          in->name, in->rank);
    if (out->rank != 4)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has rank %d, expected 4", out->id,
                          out->name, out->rank);
    if (in->data && te_check_const(d, op, in, "input 0") < 0)
        return -1;
    if (te_pool_check_geometry(op, in, out, d) < 0)
        return -1;
    return pool_check_quant(op, in, out, d);
}

void te_pool_make_geometry(const te_options *o, const te_tensor *in, const te_tensor *out,
                           te_pool_params *p)
{
    p->batches = in->shape[0];
    p->in_h = in->shape[1];
    p->in_w = in->shape[2];
    p->depth = in->shape[3];
    p->out_h = out->shape[1];
    p->out_w = out->shape[2];
    p->stride_h = o->stride_h;
    p->stride_w = o->stride_w;
    p->filter_h = o->filter_h;
    p->filter_w = o->filter_w;
    /* explicit padding (pad_top ...) only on a patch clone: the rows the
     * window would read beyond the tensor's real border, never counted */
    p->pad_h = o->pad_top + pool_padding(o->stride_h, p->in_h + o->pad_top + o->pad_bottom,
                                         o->filter_h, p->out_h);
    p->pad_w = o->pad_left + pool_padding(o->stride_w, p->in_w + o->pad_left + o->pad_right,
                                          o->filter_w, p->out_w);
}

/* Fills the kernel parameters as TFLite Micro's CalculateOpDataPooling and
 * PoolingPrepare (padding from ComputePaddingHeightWidth, activation range). */
void te_pool_make_params(const te_options *o, const te_tensor *in, const te_tensor *out,
                         te_pool_params *p)
{
    te_pool_make_geometry(o, in, out, p);
    pool_qrange(out, &p->act_min, &p->act_max);
    te_activation_range(o->activation, out->q.scale[0], (int32_t)out->q.zero_point[0],
                        p->act_min, p->act_max, &p->act_min, &p->act_max);
}

int te_pool_emit(te_emit *e, const te_op *op, te_kernel_id kernel)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_name pi = te_emit_tensor(e, in->id), po = te_emit_tensor(e, out->id);
    te_pool_params p;
    te_pool_make_params(&op->opt, in, out, &p);
    te_emit_kernel(e, kernel);
    te_params_begin(e, "te_pool_params");
    te_params_int(e, "batches", p.batches);
    te_params_int(e, "in_h", p.in_h);
    te_params_int(e, "in_w", p.in_w);
    te_params_int(e, "depth", p.depth);
    te_params_int(e, "out_h", p.out_h);
    te_params_int(e, "out_w", p.out_w);
    te_params_int(e, "stride_h", p.stride_h);
    te_params_int(e, "stride_w", p.stride_w);
    te_params_int(e, "filter_h", p.filter_h);
    te_params_int(e, "filter_w", p.filter_w);
    te_params_int(e, "pad_h", p.pad_h);
    te_params_int(e, "pad_w", p.pad_w);
    te_params_int(e, "act_min", p.act_min);
    te_params_int(e, "act_max", p.act_max);
    te_emit_call(e, te_kernel_name(kernel), te_params_end(e).s, pi.s, po.s);
    return 0;
}

/* The pool kernels write output element e (pixels in raster order, the
 * channels of each pixel in turn) right after reading its window, so the
 * output may overwrite its input (same base) when every element's window
 * starts at or after the element's own index: then no write reaches an
 * input byte a later element still reads.  Checked pixel by pixel (the
 * depth cancels out); batches follow as the output is not the larger. */
int te_pool_inplace_safe(const te_pool_params *p)
{
    long long oy, ox;
    if ((long long)p->out_h * p->out_w > (long long)p->in_h * p->in_w)
        return 0;
    for (oy = 0; oy < p->out_h; oy++)
        for (ox = 0; ox < p->out_w; ox++) {
            long long y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
            if ((y0 > 0 ? y0 : 0) * p->in_w + (x0 > 0 ? x0 : 0) < oy * p->out_w + ox)
                return 0;
        }
    return 1;
}

int te_pool_inplace_input(const te_graph *g, const te_op *op)
{
    const te_tensor *in = te_in((te_graph *)g, op, 0), *out = te_out((te_graph *)g, op, 0);
    te_pool_params p;
    if (!in || !out || in->rank != 4 || out->rank != 4 || in->type != out->type)
        return -1;
    te_pool_make_geometry(&op->opt, in, out, &p);
    return te_pool_inplace_safe(&p) ? 0 : -1;
}

te_kernel_id te_pool_kernel(const te_graph *g, const te_op *op, int is_max)
{
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    if (out && out->type == TE_DT_INT16)
        return is_max ? TE_K_POOL_MAX_S16 : TE_K_POOL_AVG_S16;
    return is_max ? TE_K_POOL_MAX_S8 : TE_K_POOL_AVG_S8;
}

void te_pool_cost_features(const te_graph *g, const te_op *op, te_cost_features *f)
{
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    f->f[TE_CF_WINDOW] = out ? (double)te_tensor_elems(out) * op->opt.filter_h * op->opt.filter_w
                             : 0;
}
