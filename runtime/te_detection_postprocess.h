/* te_detection_postprocess.h - TFLite_Detection_PostProcess (the SSD
 * detector's last step) as TensorFlow Lite Micro's kernel computes it, in
 * float32:
 *
 *  1. decode: box i's encoding (y, x, h, w) against anchor i (y, x, h, w)
 *     gives the centre y / y_scale * anchor.h + anchor.y (in double, the
 *     product rounded before the sum) and the half height
 *     0.5 * exp(h / h_scale) * anchor.h, likewise for x and w; the box is
 *     (ymin, xmin, ymax, xmax) = centre -/+ half, in float;
 *  2. non-maximum suppression, on the boxes whose score is at least
 *     score_threshold, in decreasing score order (ties: the lower box
 *     first): a box is kept unless one kept before overlaps it with an
 *     intersection over union above iou_threshold;
 *       fast (use_regular_nms 0): once, on each box's best class score
 *       (ties: the lower class), at most max_detections boxes;
 *       regular: per class, at most detections_per_class boxes each, then
 *       the max_detections best of all classes (ties: the earlier kept);
 *  3. outputs: boxes [out_slots][4], classes and scores [out_slots] (the
 *     class without the background offset, as a float), and the count as
 *     one float.  Unused slots are zero (TFLite Micro leaves them as they
 *     were, but for the regular mode's first max_detections).
 *
 * A decoded box with ymin >= ymax or xmin >= xmax makes the kernel return
 * -1, as TFLite Micro's invoke fails; else 0. */
#ifndef TE_DETECTION_POSTPROCESS_H
#define TE_DETECTION_POSTPROCESS_H

#include <stdint.h>

typedef struct {
    int32_t num_boxes;            /* anchors, and boxes to decode */
    int32_t box_stride;           /* floats per box encoding (>= 4; the first 4 used) */
    int32_t num_classes;          /* classes, background not counted */
    int32_t class_stride;         /* scores per box: num_classes, + 1 with a
                                   * background class in front */
    int32_t max_detections;
    int32_t detections_per_class; /* regular: boxes kept per class */
    int32_t use_regular_nms;
    int32_t out_slots;            /* detections the outputs hold (>= max_detections) */
    float score_threshold, iou_threshold;
    float y_scale, x_scale, h_scale, w_scale;
    /* NULL: boxes / scores are float32.  Else they are int8 and each value
     * v reads as table[v + 128] (the table of the DEQUANTIZE the compiler
     * folded into this op: the same floats, without the float32 copy). */
    const float *box_table;
    const float *score_table;
} te_detection_postprocess_params;

/* Bytes of scratch te_detection_postprocess_f32 needs: per box its decoded
 * corners, two scores, five indices and a flag; per entry of the running
 * best list (regular: max_detections + detections_per_class) two codes,
 * two scores and two indices. */
#define te_detection_postprocess_get_buffer_size(num_boxes, max_detections,          \
                                                 detections_per_class)               \
    ((long)(num_boxes) * (4 * 4 + 2 * 4 + 5 * 4 + 1) +                               \
     ((long)(max_detections) + (long)(detections_per_class)) * (6 * 4))

/* te:section te_detection_postprocess_f32 */
/* boxes [num_boxes][box_stride], scores [num_boxes][class_stride] (float32,
 * or int8 through box_table / score_table), anchors [num_boxes][4] float32;
 * scratch: te_detection_postprocess_get_buffer_size bytes, 4-byte aligned. */
TE_KERNEL int te_detection_postprocess_f32(const te_detection_postprocess_params *p,
                                           const void *boxes, const void *scores,
                                           const float *anchors, float *out_boxes,
                                           float *out_classes, float *out_scores,
                                           float *out_count, void *scratch);
/* te:end */

#endif
