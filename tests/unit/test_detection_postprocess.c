/* test_detection_postprocess.c - te_detection_postprocess_f32 on the six
 * boxes of TensorFlow Lite Micro's own kernel test (two classes after a
 * background column, three far-apart groups of overlapping boxes), with
 * the outputs that follow from its arithmetic by hand: boxes that decode
 * exactly (centre 0.5 / 10.5 / 100.5, half size 0.5), fast and regular
 * NMS, a keypoint column after the box, scores tied across classes (the lower class wins), scores tied
 * across boxes (the lower box first), a score threshold that keeps none,
 * and an inverted box (the invoke fails).  The randomized comparison with
 * an independent reference is te_mkref's detection_* kinds. */
#include <string.h>

#include "te_common.h"
#include "te_detection_postprocess.h"
#include "testlib.h"

enum { N = 6 };

static const float boxes[N * 4] = {0, 0, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0,
                                   0, 0, 0, 0, 0, 1, 0, 0, 0, 0,  0, 0};
static const float anchors[N * 4] = {0.5f, 0.5f,  1, 1, 0.5f, 0.5f,   1, 1,
                                     0.5f, 0.5f,  1, 1, 0.5f, 10.5f,  1, 1,
                                     0.5f, 10.5f, 1, 1, 0.5f, 100.5f, 1, 1};
static const float scores[N * 3] = {0, .9f,  .8f,  0, .75f, .72f, 0, .6f, .5f,
                                    0, .93f, .95f, 0, .5f,  .4f,  0, .3f, .2f};

typedef struct {
    float box[4 * 3], cls[3], score[3], count;
} outputs;

static te_detection_postprocess_params params(int regular)
{
    te_detection_postprocess_params p;
    memset(&p, 0, sizeof p);
    p.num_boxes = N;
    p.box_stride = 4;
    p.num_classes = 2;
    p.class_stride = 3;
    p.max_detections = 3;
    p.detections_per_class = regular ? 1 : 0;
    p.use_regular_nms = regular;
    p.out_slots = 3;
    p.score_threshold = 0.0f;
    p.iou_threshold = 0.5f;
    p.y_scale = p.x_scale = 10.0f;
    p.h_scale = p.w_scale = 5.0f;
    return p;
}

static int run(const te_detection_postprocess_params *p, const float *b, const float *s,
               outputs *o)
{
    static union {
        float f;
        uint8_t bytes[4096];
    } scratch;
    CHECK(te_detection_postprocess_get_buffer_size(p->num_boxes, p->max_detections,
                                                   p->detections_per_class) <=
          (long)sizeof scratch.bytes);
    memset(o, 0x5a, sizeof *o); /* unused slots must be zeroed */
    return te_detection_postprocess_f32(p, b, s, anchors, o->box, o->cls, o->score, &o->count,
                                        scratch.bytes);
}

/* Runs p on boxes b and scores s and checks every output bit for bit. */
static void expect(const te_detection_postprocess_params *p, const float *b, const float *s,
                   const float *box, const float *cls, const float *score, float count)
{
    outputs o;
    CHECK(run(p, b, s, &o) == 0);
    CHECK(memcmp(o.box, box, sizeof o.box) == 0);
    CHECK(memcmp(o.cls, cls, sizeof o.cls) == 0);
    CHECK(memcmp(o.score, score, sizeof o.score) == 0);
    CHECK(o.count == count);
}

/* Fast: each box's best class; box 3 (class 1, .95), box 0 (.9) and box 5
 * (.3) survive, the others overlap a better one by IoU .82. */
static void test_fast(void)
{
    static const float box[12] = {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101};
    static const float cls[3] = {1, 0, 0}, score[3] = {.95f, .9f, .3f};
    te_detection_postprocess_params p = params(0);
    expect(&p, boxes, scores, box, cls, score, 3.0f);
}

/* The same boxes with a fifth (keypoint) column the kernel must skip. */
static void test_keypoints(void)
{
    static const float box[12] = {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101};
    static const float cls[3] = {1, 0, 0}, score[3] = {.95f, .9f, .3f};
    te_detection_postprocess_params p = params(0);
    float b[N * 5];
    int i, k;
    for (i = 0; i < N; i++) {
        for (k = 0; k < 4; k++)
            b[5 * i + k] = boxes[4 * i + k];
        b[5 * i + 4] = 1.0f;
    }
    p.box_stride = 5;
    expect(&p, b, scores, box, cls, score, 3.0f);
}

/* Regular, one box per class: box 3 for both classes (.95 class 1, .93
 * class 0), the third slot empty. */
static void test_regular(void)
{
    static const float box[12] = {0, 10, 1, 11, 0, 10, 1, 11, 0, 0, 0, 0};
    static const float cls[3] = {1, 0, 0}, score[3] = {.95f, .93f, 0};
    te_detection_postprocess_params p = params(1);
    expect(&p, boxes, scores, box, cls, score, 2.0f);
}

/* No background column; ties: box 3's two classes score the same (class 0
 * wins) and boxes 0, 1 and 2 tie at .015625 (box 0 first, as TFLite
 * Micro's stable sort has it; 1 and 2 overlap it and go). */
static void test_ties(void)
{
    static const float s[N * 2] = {0.015625f, 0.007812f, 0.003906f, 0.015625f,
                                   0.015625f, 0.007812f, 0.019531f, 0.019531f,
                                   0.007812f, 0.003906f, 0.003906f, 0.003906f};
    static const float box[12] = {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101};
    static const float cls[3] = {0, 0, 0}, score[3] = {0.019531f, 0.015625f, 0.003906f};
    te_detection_postprocess_params p = params(0);
    p.class_stride = 2;
    expect(&p, boxes, s, box, cls, score, 3.0f);
}

/* A threshold above every score: nothing detected, every slot zero. */
static void test_none_kept(void)
{
    static const float zero[12] = {0};
    te_detection_postprocess_params p = params(0);
    p.score_threshold = 0.99f;
    expect(&p, boxes, scores, zero, zero, zero, 0.0f);
}

/* A box whose height decodes to zero: TFLite Micro's ValidateBoxes fails
 * the invoke. */
static void test_invalid_box(void)
{
    float b[N * 4];
    te_detection_postprocess_params p = params(1);
    outputs o;
    memcpy(b, boxes, sizeof b);
    b[4 * 2 + 2] = -1000.0f; /* exp(-200) * 0.5 rounds to 0 in float */
    CHECK(run(&p, b, scores, &o) == -1);
}

int main(void)
{
    test_fast();
    test_keypoints();
    test_regular();
    test_ties();
    test_none_kept();
    test_invalid_box();
    return test_summary();
}
