/* te_detection_postprocess.c - TFLite_Detection_PostProcess (see
 * te_detection_postprocess.h).  The float arithmetic follows TFLite
 * Micro's expression by expression; a product that TFLite Micro adds to
 * something goes through a volatile, so that no compiler fuses the two
 * into one multiply-add (a different rounding) on targets that have one. */
#include <math.h>

#include "te_common.h"
#include "te_detection_postprocess.h"

/* te:section te_detection_postprocess_f32 */
/* The scratch, cut into the arrays the steps use. */
typedef struct {
    float *decoded;       /* [num_boxes][4]: ymin, xmin, ymax, xmax */
    float *box_score;     /* [num_boxes]: the score NMS runs on */
    float *keep_score;    /* [num_boxes]: scores above the threshold */
    int32_t *keep_box;    /* [num_boxes]: their boxes */
    int32_t *selected;    /* [num_boxes]: boxes NMS kept */
    int32_t *best_class;  /* [num_boxes]: fast: each box's best class */
    int32_t *order;       /* [num_boxes + m]: sort permutation */
    int32_t *aux;         /* [num_boxes + m]: merge buffer */
    int32_t *cand_code;   /* [m]: regular: box * class_stride + class column */
    float *cand_score;    /* [m] */
    int32_t *tmp_code;    /* [m] */
    float *tmp_score;     /* [m] */
    uint8_t *active;      /* [num_boxes]: still a candidate */
} te_dp_work;

/* Value i of a float32 input, or of an int8 one read through its table. */
static inline TE_UNUSED float te_dp_value(const void *base, const float *table, long i)
{
    return table ? table[((const int8_t *)base)[i] + 128] : ((const float *)base)[i];
}

static TE_UNUSED void te_dp_cut(const te_detection_postprocess_params *p, void *scratch,
                                te_dp_work *w)
{
    long nb = p->num_boxes, m = (long)p->max_detections + p->detections_per_class;
    float *f = (float *)scratch;
    w->decoded = f;
    w->box_score = f + 4 * nb;
    w->keep_score = f + 5 * nb;
    w->keep_box = (int32_t *)(f + 6 * nb);
    w->selected = w->keep_box + nb;
    w->best_class = w->selected + nb;
    w->order = w->best_class + nb;
    w->aux = w->order + nb + m;
    w->cand_code = w->aux + nb + m;
    w->cand_score = (float *)(w->cand_code + m);
    w->tmp_code = (int32_t *)(w->cand_score + m);
    w->tmp_score = (float *)(w->tmp_code + m);
    w->active = (uint8_t *)(w->tmp_score + m);
}

/* Decodes every box against its anchor; -1 when one comes out empty or
 * inverted (TFLite Micro's ValidateBoxes). */
static TE_UNUSED int te_dp_decode(const te_detection_postprocess_params *p, const void *boxes,
                                  const float *anchors, float *decoded)
{
    int32_t i, k;
    for (i = 0; i < p->num_boxes; i++) {
        const float *a = anchors + 4 * (long)i;
        float *d = decoded + 4 * (long)i, b[4], yc, xc, hh, hw;
        volatile double ty, tx;
        for (k = 0; k < 4; k++)
            b[k] = te_dp_value(boxes, p->box_table, (long)i * p->box_stride + k);
        ty = (double)b[0] / (double)p->y_scale * (double)a[2];
        tx = (double)b[1] / (double)p->x_scale * (double)a[3];
        yc = (float)(ty + (double)a[0]);
        xc = (float)(tx + (double)a[1]);
        hh = (float)(0.5 * exp((double)b[2] / (double)p->h_scale) * (double)a[2]);
        hw = (float)(0.5 * exp((double)b[3] / (double)p->w_scale) * (double)a[3]);
        d[0] = yc - hh;
        d[1] = xc - hw;
        d[2] = yc + hh;
        d[3] = xc + hw;
    }
    for (i = 0; i < p->num_boxes; i++) {
        const float *d = decoded + 4 * (long)i;
        if (d[0] >= d[2] || d[1] >= d[3])
            return -1;
    }
    return 0;
}

/* Intersection over union of decoded boxes i and j (std::max(a, b) is
 * a < b ? b : a, std::min(a, b) is b < a ? b : a). */
static TE_UNUSED float te_dp_iou(const float *decoded, int32_t i, int32_t j)
{
    const float *a = decoded + 4 * (long)i, *b = decoded + 4 * (long)j;
    float area_a = (a[2] - a[0]) * (a[3] - a[1]), area_b = (b[2] - b[0]) * (b[3] - b[1]);
    float ymin, xmin, ymax, xmax, h, wd;
    volatile float inter;
    if (area_a <= 0 || area_b <= 0)
        return 0.0f;
    ymin = a[0] < b[0] ? b[0] : a[0];
    xmin = a[1] < b[1] ? b[1] : a[1];
    ymax = b[2] < a[2] ? b[2] : a[2];
    xmax = b[3] < a[3] ? b[3] : a[3];
    h = ymax - ymin;
    wd = xmax - xmin;
    inter = (h < 0.0f ? 0.0f : h) * (wd < 0.0f ? 0.0f : wd);
    return inter / (area_a + area_b - inter);
}

/* order[0..n) sorted by decreasing key[order[k]], equal keys keeping their
 * order (a stable merge sort, bottom-up). */
static TE_UNUSED void te_dp_sort(const float *key, int32_t *order, int32_t *aux, int32_t n)
{
    long width, lo, k;
    for (width = 1; width < n; width *= 2) {
        for (lo = 0; lo < n; lo += 2 * width) {
            long mid = TE_MIN(lo + width, (long)n), hi = TE_MIN(lo + 2 * width, (long)n);
            long i = lo, j = mid;
            for (k = lo; k < hi; k++)
                aux[k] = (j < hi && (i >= mid || key[order[j]] > key[order[i]])) ? order[j++]
                                                                                : order[i++];
        }
        for (k = 0; k < n; k++)
            order[k] = aux[k];
    }
}

/* Non-maximum suppression on w->box_score: at most `limit` boxes, best
 * first, into w->selected; returns how many. */
static TE_UNUSED int32_t te_dp_nms(const te_detection_postprocess_params *p, te_dp_work *w,
                                   int32_t limit)
{
    int32_t kept = 0, active, n = 0, i, j, size;
    for (i = 0; i < p->num_boxes; i++)
        if (w->box_score[i] >= p->score_threshold) {
            w->keep_score[kept] = w->box_score[i];
            w->keep_box[kept++] = i;
        }
    for (i = 0; i < kept; i++) {
        w->order[i] = i;
        w->active[i] = 1;
    }
    te_dp_sort(w->keep_score, w->order, w->aux, kept);
    size = TE_MIN(kept, limit);
    active = kept;
    for (i = 0; i < kept && active > 0 && n < size; i++) {
        int32_t box = w->keep_box[w->order[i]];
        if (!w->active[i])
            continue;
        w->selected[n++] = box;
        w->active[i] = 0;
        active--;
        for (j = i + 1; j < kept; j++)
            if (w->active[j] &&
                te_dp_iou(w->decoded, box, w->keep_box[w->order[j]]) > p->iou_threshold) {
                w->active[j] = 0;
                active--;
            }
    }
    return n;
}

/* Fast NMS: each box's best class score, suppressed once.  Returns the
 * number of detections. */
static TE_UNUSED int32_t te_dp_fast(const te_detection_postprocess_params *p, te_dp_work *w,
                                    const void *scores, float *out_boxes, float *out_classes,
                                    float *out_scores)
{
    int32_t i, k, n, off = p->class_stride - p->num_classes;
    for (i = 0; i < p->num_boxes; i++) {
        long row = (long)i * p->class_stride + off;
        float top = te_dp_value(scores, p->score_table, row);
        int32_t best = 0;
        for (k = 1; k < p->num_classes; k++) {
            float v = te_dp_value(scores, p->score_table, row + k);
            if (v > top) {
                top = v;
                best = k;
            }
        }
        w->best_class[i] = best;
        w->box_score[i] = top;
    }
    n = te_dp_nms(p, w, p->max_detections);
    for (i = 0; i < n; i++) {
        int32_t box = w->selected[i];
        for (k = 0; k < 4; k++)
            out_boxes[4 * i + k] = w->decoded[4 * (long)box + k];
        out_classes[i] = (float)w->best_class[box];
        out_scores[i] = w->box_score[box];
    }
    return n;
}

/* Regular NMS: per class, then the best max_detections of all. */
static TE_UNUSED int32_t te_dp_regular(const te_detection_postprocess_params *p, te_dp_work *w,
                                       const void *scores, float *out_boxes,
                                       float *out_classes, float *out_scores)
{
    int32_t col, i, k, best = 0, off = p->class_stride - p->num_classes;
    for (col = 0; col < p->num_classes; col++) {
        int32_t n, total = best, keep;
        for (i = 0; i < p->num_boxes; i++)
            w->box_score[i] =
                te_dp_value(scores, p->score_table, (long)i * p->class_stride + col + off);
        n = te_dp_nms(p, w, p->detections_per_class);
        for (i = 0; i < n; i++, total++) {
            w->cand_code[total] = w->selected[i] * p->class_stride + col + off;
            w->cand_score[total] = w->box_score[w->selected[i]];
        }
        keep = TE_MIN(total, p->max_detections);
        for (i = 0; i < total; i++)
            w->order[i] = i;
        te_dp_sort(w->cand_score, w->order, w->aux, total);
        for (i = 0; i < keep; i++) {
            w->tmp_code[i] = w->cand_code[w->order[i]];
            w->tmp_score[i] = w->cand_score[w->order[i]];
        }
        for (i = 0; i < keep; i++) {
            w->cand_code[i] = w->tmp_code[i];
            w->cand_score[i] = w->tmp_score[i];
        }
        best = keep;
    }
    for (i = 0; i < best; i++) {
        int32_t box = w->cand_code[i] / p->class_stride;
        for (k = 0; k < 4; k++)
            out_boxes[4 * i + k] = w->decoded[4 * (long)box + k];
        out_classes[i] = (float)(w->cand_code[i] - box * p->class_stride - off);
        out_scores[i] = w->cand_score[i];
    }
    return best;
}

TE_KERNEL int te_detection_postprocess_f32(const te_detection_postprocess_params *p,
                                           const void *boxes, const void *scores,
                                           const float *anchors, float *out_boxes,
                                           float *out_classes, float *out_scores,
                                           float *out_count, void *scratch)
{
    te_dp_work w;
    int32_t i, n;
    te_dp_cut(p, scratch, &w);
    if (te_dp_decode(p, boxes, anchors, w.decoded) < 0)
        return -1;
    for (i = 0; i < p->out_slots; i++) {
        out_boxes[4 * i] = out_boxes[4 * i + 1] = out_boxes[4 * i + 2] = out_boxes[4 * i + 3] =
            0.0f;
        out_classes[i] = out_scores[i] = 0.0f;
    }
    n = p->use_regular_nms
            ? te_dp_regular(p, &w, scores, out_boxes, out_classes, out_scores)
            : te_dp_fast(p, &w, scores, out_boxes, out_classes, out_scores);
    out_count[0] = (float)n;
    return 0;
}
/* te:end */
