/* test_activation_s16.c - the int16 sigmoid and tanh kernels against a
 * plain 64-bit transcription of TFLite's reference arithmetic (every int16
 * input, several rescalings), against the real functions (within a few
 * Q0.15 steps), and the compile-time rescaling TFLM's Prepare computes. */
#include <math.h>
#include <stdlib.h>

#include "te_common.h"
#include "te_activation_s16.h"
#include "testlib.h"
#include "../../src/ops/activation_s16.h"

/* sigmoid(i / 24) in Q0.16, TFLite's sigmoid_table_uint16. */
static const int64_t table[257] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
    40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
    47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
    53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
    62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
    63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
    64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
    65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
    65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
    65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
    65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65535,
    65535};

/* floor(a / 2^s) for any sign. */
static int64_t floor_shift(int64_t a, int s)
{
    int64_t d = (int64_t)1 << s;
    return a >= 0 ? a / d : -((-a + d - 1) / d);
}

/* Reference: x' = floor((x m + 2^(s-1)) / 2^s), then the table of |x'|
 * in steps of 2^9 (sigmoid) or 2^8 (tanh) with linear interpolation,
 * mirrored for negative x'. */
static int16_t ref(int is_tanh, int32_t x, int32_t m, int32_t s)
{
    int64_t v = floor_shift((int64_t)x * m + (s > 0 ? (int64_t)1 << (s - 1) : 0), s);
    int64_t a = v < 0 ? -v : v, step = is_tanh ? 8 : 9, hi = a >> step, f = a & ((1 << step) - 1);
    int64_t r = hi >= 255 ? (is_tanh ? (int64_t)0xFFFF << 8 : (int64_t)0x7FFF << 10)
                          : (table[hi] << step) + f * (table[hi + 1] - table[hi]);
    if (!is_tanh)
        return (int16_t)floor_shift(v >= 0 ? r + 512 : ((int64_t)1 << 25) - r + 511, 10);
    return (int16_t)floor_shift(v >= 0 ? r - (1 << 23) + 128 : -r + (1 << 23) + 127, 8);
}

static void check_all_inputs(int is_tanh, int32_t m, int32_t s)
{
    static int16_t in[65536], out[65536];
    int i, bad = 0;
    for (i = 0; i < 65536; i++)
        in[i] = (int16_t)(i - 32768);
    if (is_tanh)
        te_tanh_s16(in, out, 65536, m, s);
    else
        te_sigmoid_s16(in, out, 65536, m, s);
    for (i = 0; i < 65536; i++)
        bad += out[i] != ref(is_tanh, in[i], m, s);
    CHECK(bad == 0);
    /* in place */
    if (is_tanh)
        te_tanh_s16(in, in, 65536, m, s);
    else
        te_sigmoid_s16(in, in, 65536, m, s);
    for (i = 0, bad = 0; i < 65536; i++)
        bad += in[i] != out[i];
    CHECK(bad == 0);
}

/* The functions themselves: input scale `scale`, output 2^-15. */
static void check_accuracy(int is_tanh, float scale)
{
    int32_t m, s;
    int i, worst = 0;
    CHECK(te_s16_act_rescale(scale, is_tanh, &m, &s) == 0);
    for (i = -32768; i < 32768; i += 7) {
        int16_t x = (int16_t)i, y;
        double r = (double)scale * i, want;
        want = is_tanh ? tanh(r) : 1.0 / (1.0 + exp(-r));
        if (is_tanh)
            te_tanh_s16(&x, &y, 1, m, s);
        else
            te_sigmoid_s16(&x, &y, 1, m, s);
        if (abs((int)lrint(want * 32768.0) - y) > worst)
            worst = abs((int)lrint(want * 32768.0) - y);
    }
    CHECK(worst <= 8);
}

int main(void)
{
    static const int32_t rescalings[][2] = {{3, 0}, {6, 0}, {3, 3}, {24576, 0}, {24575, 15},
                                            {16384, 31}, {32767, 14}};
    int32_t m, s;
    size_t k;
    for (k = 0; k < sizeof rescalings / sizeof rescalings[0]; k++) {
        check_all_inputs(0, rescalings[k][0], rescalings[k][1]);
        check_all_inputs(1, rescalings[k][0], rescalings[k][1]);
    }
    /* TFLM Prepare: 2^-12 is the power-of-two form (3, 0); TANH also takes
     * 2^-11 that way, LOGISTIC rescales it */
    CHECK(te_s16_act_rescale(1.0f / 4096, 0, &m, &s) == 0 && m == 3 && s == 0);
    CHECK(te_s16_act_rescale(8.0f / 32767, 0, &m, &s) == 0 && m == 3 && s == 0);
    CHECK(te_s16_act_rescale(1.0f / 2048, 1, &m, &s) == 0 && m == 6 && s == 0);
    CHECK(te_s16_act_rescale(1.0f / 2048, 0, &m, &s) == 0 && m == 24576 && s == 12);
    CHECK(te_s16_act_rescale(1.0f / 1000, 0, &m, &s) == 0 && m == 25165 && s == 11);
    CHECK(te_s16_act_rescale(4.0f, 0, &m, &s) < 0);
    CHECK(te_s16_act_rescale(1e-14f, 0, &m, &s) < 0); /* too small: refused, not garbage */
    /* LSTM tanh of a cell state with scale 2^p */
    CHECK(te_s16_tanh_pot_rescale(-12, &m, &s) == 0 && m == 3 && s == 0);
    CHECK(te_s16_tanh_pot_rescale(-11, &m, &s) == 0 && m == 6 && s == 0);
    CHECK(te_s16_tanh_pot_rescale(-15, &m, &s) == 0 && m == 3 && s == 3);
    check_accuracy(0, 1.0f / 4096);
    check_accuracy(1, 1.0f / 4096);
    check_accuracy(0, 1.0f / 3000);
    check_accuracy(1, 1.0f / 5000);
    return test_summary();
}
