/* test_flexbuf.c - the FlexBuffers map reader (src/frontend/flexbuf.c):
 * the maps the model builder writes (4-byte values), a hand-laid map of
 * 1-byte slots with an indirect float, a uint and a bool, FlexBuffers'
 * conversions, absent keys, and every truncation and many corruptions of
 * a buffer (-1 or a value, never a read outside it: ASan watches). */
#include <stdlib.h>
#include <string.h>

#include "frontend/flexbuf.h"
#include "testlib.h"
#include "tflite_builder.h"

/* "a": INT -3, "b": INDIRECT_FLOAT 1.5 (float32), "c": UINT 200, "d": BOOL
 * true; map and keys 1 byte wide. */
static const uint8_t hand[31] = {
    'a', 0, 'b', 0, 'c', 0, 'd', 0,
    0x00, 0x00, 0xC0, 0x3F,      /* 8: 1.5f, b's target */
    4, 13, 12, 11, 10,           /* 12: key vector: size, offsets back to the keys */
    4, 1, 4,                     /* 17: map prefix: keys at 17 - 4, width 1, 4 entries */
    0xFD, 13, 200, 1,            /* 20: values */
    1 << 2, 8 << 2 | 2, 2 << 2, 26 << 2, /* 24: INT, INDIRECT_FLOAT 32-bit, UINT, BOOL */
    8, 9 << 2, 1                 /* 28: root: map at 28 - 8, MAP of 1-byte slots, width 1 */
};

static void test_hand_laid(void)
{
    te_flex_value v;
    CHECK(te_flex_map_get(hand, sizeof hand, "a", &v) == 0 && v.kind == TE_FLEX_INT);
    CHECK(te_flex_as_int32(&v) == -3 && te_flex_as_float(&v) == -3.0f && te_flex_as_bool(&v));
    CHECK(te_flex_map_get(hand, sizeof hand, "b", &v) == 0 && v.kind == TE_FLEX_FLOAT);
    CHECK(te_flex_as_float(&v) == 1.5f && te_flex_as_int32(&v) == 1);
    CHECK(te_flex_map_get(hand, sizeof hand, "c", &v) == 0 && v.kind == TE_FLEX_UINT);
    CHECK(te_flex_as_int32(&v) == 200 && te_flex_as_float(&v) == 200.0f);
    CHECK(te_flex_map_get(hand, sizeof hand, "d", &v) == 0 && v.kind == TE_FLEX_BOOL);
    CHECK(te_flex_as_bool(&v) == 1 && te_flex_as_int32(&v) == 1);
    CHECK(te_flex_map_get(hand, sizeof hand, "e", &v) == 0 && v.kind == TE_FLEX_NULL);
    CHECK(te_flex_as_int32(&v) == 0 && te_flex_as_float(&v) == 0.0f && !te_flex_as_bool(&v));
    CHECK(te_flex_map_get(hand, sizeof hand, "", &v) == 0 && v.kind == TE_FLEX_NULL);
}

static void test_builder_map(void)
{
    static const tflb_flex_entry e[4] = {{"num_classes", TFLB_FLEX_INT, 90},
                                         {"y_scale", TFLB_FLEX_FLOAT, 10.0},
                                         {"use_regular_nms", TFLB_FLEX_BOOL, 1},
                                         {"max_detections", TFLB_FLEX_INT, -7}};
    uint8_t buf[256];
    size_t n = tflb_flex_map(buf, sizeof buf, e, 4);
    te_flex_value v;
    CHECK(n > 0 && tflb_flex_map(buf, 8, e, 4) == 0);
    CHECK(te_flex_map_get(buf, n, "num_classes", &v) == 0 && te_flex_as_int32(&v) == 90);
    CHECK(te_flex_map_get(buf, n, "y_scale", &v) == 0 && te_flex_as_float(&v) == 10.0f);
    CHECK(te_flex_map_get(buf, n, "use_regular_nms", &v) == 0 && te_flex_as_bool(&v) == 1);
    CHECK(te_flex_map_get(buf, n, "max_detections", &v) == 0 && te_flex_as_int32(&v) == -7);
    CHECK(te_flex_map_get(buf, n, "detections_per_class", &v) == 0 && v.kind == TE_FLEX_NULL);
}

/* Cut short, or a byte changed: an error or some value, within bounds. */
static void test_damaged(void)
{
    static const char *const keys[5] = {"a", "b", "c", "d", "zz"};
    uint8_t *copy;
    te_flex_value v;
    size_t n, i;
    int k, b, errors = 0;
    for (n = 0; n < sizeof hand; n++) { /* exact-size copies: ASan sees any overread */
        copy = malloc(n ? n : 1);
        memcpy(copy, hand, n);
        for (k = 0; k < 5; k++)
            errors += te_flex_map_get(n ? copy : NULL, n, keys[k], &v) < 0;
        free(copy);
    }
    CHECK(errors > 0);
    copy = malloc(sizeof hand);
    for (i = 0; i < sizeof hand; i++)
        for (b = 0; b < 256; b += 3) {
            memcpy(copy, hand, sizeof hand);
            copy[i] = (uint8_t)b;
            for (k = 0; k < 5; k++)
                (void)te_flex_map_get(copy, sizeof hand, keys[k], &v);
        }
    free(copy);
    CHECK(te_flex_map_get(hand, 2, "a", &v) < 0);
}

int main(void)
{
    test_hand_laid();
    test_builder_map();
    test_damaged();
    return test_summary();
}
