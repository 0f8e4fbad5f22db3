/* test_tflm_greedy.c - the TFLM arena estimate of te_tflm_arena (bench/):
 * the greedy planner on hand-placed cases (size order, the later buffer
 * first on equal sizes, first gap that fits) and, on random buffers, that
 * no two buffers alive together share a byte and the head is the highest
 * end; the lifetimes on a hand-made chain (an intermediate dies after its
 * reader, the output lives to the end, constants are not planned); models
 * with subgraphs are not estimated. */
#include <stdio.h>
#include <string.h>

#include "testlib.h"
#include "tflm_estimate.h"
#include "tflm_greedy.h"

static tflm_buffer buf(size_t size, int first, int last)
{
    tflm_buffer b = {size, first, last, 0};
    return b;
}

static void hand_cases(void)
{
    tflm_buffer a[2] = {buf(16, 0, 1), buf(32, 2, 3)};
    tflm_buffer b[3] = {buf(96, 0, 1), buf(48, 1, 2), buf(48, 2, 3)};
    tflm_buffer c[4] = {buf(32, 0, 0), buf(24, 0, 2), buf(32, 2, 2), buf(16, 1, 1)};
    /* disjoint lifetimes share offset 0 */
    CHECK(tflm_greedy_plan(a, 2) == 32);
    CHECK(a[0].offset == 0 && a[1].offset == 0);
    /* equal sizes: buffer 2 (added later) goes first, at 0 beside nothing
     * alive with it; buffer 1 then overlaps both in time and lands above */
    CHECK(tflm_greedy_plan(b, 3) == 144);
    CHECK(b[0].offset == 0 && b[2].offset == 0 && b[1].offset == 96);
    /* buffer 1, alive throughout, lands above 0 and 2; buffer 3 (alive at
     * 1 only, placed last) fits in the gap under buffer 1 */
    CHECK(tflm_greedy_plan(c, 4) == 56);
    CHECK(c[2].offset == 0 && c[0].offset == 0 && c[1].offset == 32 && c[3].offset == 0);
    CHECK(tflm_greedy_plan(c, 0) == 0);
}

static void random_cases(void)
{
    test_seed(7);
    for (int round = 0; round < 200; round++) {
        tflm_buffer b[24];
        int n = test_rand_range(1, 24), bad = 0;
        size_t head, top = 0;
        for (int i = 0; i < n; i++) {
            int first = test_rand_range(-1, 10);
            b[i] = buf((size_t)test_rand_range(1, 64) * 16, first, first + test_rand_range(0, 5));
        }
        head = tflm_greedy_plan(b, n);
        for (int i = 0; i < n; i++) {
            if (b[i].offset + b[i].size > top)
                top = b[i].offset + b[i].size;
            for (int j = i + 1; j < n; j++) {
                int live = !(b[i].first > b[j].last || b[j].first > b[i].last);
                int share = b[i].offset < b[j].offset + b[j].size &&
                            b[j].offset < b[i].offset + b[i].size;
                bad |= live && share;
            }
        }
        CHECK(!bad);
        CHECK(head == top);
    }
}

static void chain_case(void)
{
    /* in(1x10) -> A -> t1(1x100) -> B -> t2(1x40) -> C -> out(1x30);
     * t4 (1x64) is constant.  Alive together: in+t1 (op A), t1+t2 (B),
     * t2+out (C); out from its producer on.  Sizes 16, 112, 48, 32: t1 at
     * 0, t2 above it (both alive at B), in above t1 (both at A), out at 0
     * (t1 is dead by C): head 160. */
    static const uint8_t weights[64];
    te_tensor t[5];
    int a_in[2] = {0, 4}, a_out[1] = {1}, b_in[1] = {1}, b_out[1] = {2}, c_in[1] = {2},
        c_out[1] = {3}, inputs[1] = {0}, outputs[1] = {3};
    int sizes[5] = {10, 100, 40, 30, 64};
    te_op ops[3];
    te_graph g;
    tflm_estimate e;
    memset(t, 0, sizeof t);
    memset(ops, 0, sizeof ops);
    memset(&g, 0, sizeof g);
    for (int i = 0; i < 5; i++) {
        t[i].id = i;
        t[i].type = TE_DT_INT8;
        t[i].rank = 2;
        t[i].shape[0] = 1;
        t[i].shape[1] = sizes[i];
    }
    t[4].data = weights;
    t[4].data_bytes = sizeof weights;
    ops[0] = (te_op){.index = 0, .opcode = TE_OP_FULLY_CONNECTED, .n_in = 2, .n_out = 1,
                     .in = a_in, .out = a_out};
    ops[1] = (te_op){.index = 1, .opcode = TE_OP_RELU, .n_in = 1, .n_out = 1, .in = b_in,
                     .out = b_out};
    ops[2] = (te_op){.index = 2, .opcode = TE_OP_RELU, .n_in = 1, .n_out = 1, .in = c_in,
                     .out = c_out};
    g.tensors = t;
    g.n_tensors = 5;
    g.ops = ops;
    g.n_ops = 3;
    g.inputs = inputs;
    g.n_inputs = 1;
    g.outputs = outputs;
    g.n_outputs = 1;
    CHECK(tflm_estimate_arena(&g, &e) == 0);
    CHECK(e.estimated);
    CHECK(e.n_buffers == 4);
    CHECK(e.head == 160);
    CHECK(e.tail > 0);
    g.n_subgraphs = 2;
    CHECK(tflm_estimate_arena(&g, &e) == 0);
    CHECK(!e.estimated && e.reason != NULL);
}

int main(void)
{
    hand_cases();
    chain_case();
    random_cases();
    return test_summary();
}
