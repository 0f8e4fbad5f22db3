/* test_movement_ops.c - the data-movement operators of issue 13: SPLIT,
 * SPLIT_V, UNPACK, PACK, SLICE, EXPAND_DIMS, GATHER, DEPTH_TO_SPACE,
 * SPACE_TO_DEPTH, MIRROR_PAD, PADV2, CAST, SPACE_TO_BATCH_ND and
 * BATCH_TO_SPACE_ND.
 *
 * Each operator goes through its real check() and emit() on random shapes,
 * axes (negative ones too), ranks and element sizes; a small interpreter
 * runs the emitted kernel calls on a test arena and the outputs are
 * compared with plain references written here from TFLite Micro's
 * definitions (index arithmetic, not the kernels' loops).  The zero-copy
 * views (view_input) are checked to name the bytes the output holds, and
 * check() must refuse invalid graphs with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_interp.h"
#include "ops/ops.h"
#include "te_cast.h"
#include "te_common.h"
#include "te_copy_table.h"
#include "te_gather.h"
#include "te_space_batch.h"
#include "testlib.h"

extern const te_op_def te_op_expand_dims, te_op_slice, te_op_split, te_op_split_v, te_op_pack,
    te_op_unpack, te_op_gather, te_op_depth_to_space, te_op_space_to_depth, te_op_mirror_pad,
    te_op_padv2, te_op_cast, te_op_space_to_batch_nd, te_op_batch_to_space_nd;

/* ---- a one-operator graph, tensors packed into the arena ---------------- */

/* Adds a tensor; arena storage, after the ones before, unless `constant`. */
static int g_tensor(op_graph *m, te_dtype type, int rank, const int *shape, int constant)
{
    int id = og_tensor(m, type, rank, shape, constant ? -1 : (long)m->next);
    if (!constant)
        m->next += (te_tensor_bytes(&m->t[id]) + 15) & ~(size_t)15;
    return id;
}

static int g_const_vec(op_graph *m, te_dtype type, const int64_t *v, int n)
{
    int id = g_tensor(m, type, 1, &n, 1);
    og_const(m, id, v, n);
    return id;
}

static int g_const_scalar(op_graph *m, int64_t v)
{
    int id = g_tensor(m, TE_DT_INT32, 0, NULL, 1);
    og_const(m, id, &v, 1);
    return id;
}

static void g_in(op_graph *m, int id) { m->in_ids[m->op.n_in++] = id; }
static void g_out(op_graph *m, int id) { m->out_ids[m->op.n_out++] = id; }

/* ---- running emitted code ---------------------------------------------- */

#define I(k) ((int32_t)strtol(a[k], NULL, 10))
#define P(k) ei_ptr(a[k])

static int kernel_status;

/* The kernels of this file's operators past ei_run_copy_call's. */
static int run_line(const char *f, int n, char a[12][200])
{
    if (strcmp(f, "te_gather_s8") == 0 && n == 4)
        kernel_status |= te_gather_s8(P(0), P(1), P(2), P(3));
    else if (strcmp(f, "te_gather_idx64_s8") == 0 && n == 4)
        kernel_status |= te_gather_idx64_s8(P(0), P(1), P(2), P(3));
    else if (strcmp(f, "te_copy_table_s8") == 0 && n == 6)
        te_copy_table_s8(P(0), P(1), I(2), P(3), P(4), I(5));
    else if (strcmp(f, "te_space_to_batch_s8") == 0 && n == 4)
        te_space_to_batch_s8(P(0), P(1), P(2), (int8_t)I(3));
    else if (strcmp(f, "te_batch_to_space_s8") == 0 && n == 3)
        te_batch_to_space_s8(P(0), P(1), P(2));
    else if (strcmp(f, "te_cast") == 0 && n == 5)
        te_cast(P(0), I(1), P(2), I(3), I(4));
    else
        return -1;
    return 0;
}

/* check() then emit() then run: ei_run_op with this file's kernels
 * (kernel_status: what the kernels that can fail returned, or-ed). */
static int run_op(const te_op_def *def, op_graph *m)
{
    kernel_status = 0;
    return ei_run_op(def, m, run_line);
}

/* ---- helpers ------------------------------------------------------------ */

static void fill_random(void)
{
    size_t i;
    for (i = 0; i < EI_ARENA; i++)
        ei_arena[i] = (int8_t)test_rand();
}

/* Element o of a row-major shape as indices, and back. */
static void unravel(int64_t o, const int *shape, int rank, int64_t *idx)
{
    int k;
    for (k = rank - 1; k >= 0; k--) {
        idx[k] = o % shape[k];
        o /= shape[k];
    }
}

static int64_t ravel(const int64_t *idx, const int *shape, int rank)
{
    int64_t o = 0;
    int k;
    for (k = 0; k < rank; k++)
        o = o * shape[k] + idx[k];
    return o;
}

static te_dtype rand_type(int *esz)
{
    int r = test_rand_range(0, 2);
    *esz = r == 0 ? 1 : (r == 1 ? 2 : 4);
    return r == 0 ? TE_DT_INT8 : (r == 1 ? TE_DT_INT16 : TE_DT_INT32);
}

static const int8_t *tensor_bytes(const op_graph *m, int id)
{
    return ei_arena + m->place[id].arena_offset;
}

/* ---- SPLIT, SPLIT_V ----------------------------------------------------- */

static void test_split(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 400 && ok; trial++) {
        op_graph m;
        int v = trial % 2, rank = test_rand_range(1, 5), shape[5], axis, n_out, k, esz, in, j;
        int sizes[4], outs[4], oshape[5];
        int64_t sz[4], o, idx[5], start = 0;
        te_dtype type = rand_type(&esz);
        og_rand_shape(shape, rank, rank > 3 ? 4 : 6);
        axis = test_rand_range(0, rank - 1);
        n_out = test_rand_range(1, 4);
        shape[axis] = n_out * test_rand_range(1, 3);
        for (k = 0; k < n_out; k++)
            sizes[k] = shape[axis] / n_out;
        if (v && n_out > 1) { /* uneven sizes for SPLIT_V */
            int moved = test_rand_range(0, sizes[0] - 1);
            sizes[0] -= moved;
            sizes[n_out - 1] += moved;
        }
        og_init(&m, v ? TE_OP_SPLIT_V : TE_OP_SPLIT);
        in = g_tensor(&m, type, rank, shape, 0);
        for (k = 0; k < n_out; k++) {
            memcpy(oshape, shape, sizeof oshape);
            oshape[axis] = sizes[k];
            outs[k] = g_tensor(&m, type, rank, oshape, 0);
            g_out(&m, outs[k]);
            sz[k] = k == n_out - 1 && v && trial % 4 == 1 ? -1 : sizes[k];
        }
        j = trial % 3 == 0 ? axis - rank : axis;
        if (v) {
            g_in(&m, in);
            g_in(&m, g_const_vec(&m, TE_DT_INT32, sz, n_out));
            g_in(&m, g_const_scalar(&m, j));
        } else {
            g_in(&m, g_const_scalar(&m, j));
            g_in(&m, in);
        }
        m.op.opt.count = n_out;
        fill_random();
        ok &= run_op(v ? &te_op_split_v : &te_op_split, &m) == 0;
        for (k = 0; k < n_out && ok; k++) {
            const te_tensor *t = &m.t[outs[k]];
            const te_op_def *def = v ? &te_op_split_v : &te_op_split;
            size_t off;
            int vi;
            for (o = 0; o < te_tensor_elems(t) && ok; o++) {
                unravel(o, t->shape, rank, idx);
                idx[axis] += start;
                ok &= memcmp(tensor_bytes(&m, outs[k]) + o * esz,
                             tensor_bytes(&m, in) + ravel(idx, shape, rank) * esz,
                             (size_t)esz) == 0;
            }
            vi = def->view_input(&m.g, &m.op, k, &off);
            if (vi >= 0) /* a view names the same bytes */
                ok &= m.op.in[vi] == in && memcmp(tensor_bytes(&m, in) + off,
                                                  tensor_bytes(&m, outs[k]),
                                                  te_tensor_bytes(t)) == 0;
            start += sizes[k];
        }
        if (!ok)
            fprintf(stderr, "split trial %d failed: %s\n", trial, ei_last_error);
    }
    CHECK(ok);
}

static void test_split_errors(void)
{
    op_graph m;
    int s[2] = {2, 6}, so[2] = {2, 4}, in, a, b;
    og_init(&m, TE_OP_SPLIT);
    g_in(&m, g_const_scalar(&m, 1));
    in = g_tensor(&m, TE_DT_INT8, 2, s, 0);
    g_in(&m, in);
    a = g_tensor(&m, TE_DT_INT8, 2, so, 0);
    b = g_tensor(&m, TE_DT_INT8, 2, so, 0);
    g_out(&m, a);
    g_out(&m, b);
    CHECK(run_op(&te_op_split, &m) == -1 && strstr(ei_last_error, "equal parts"));
    m.t[a].shape[1] = 3;
    m.t[b].shape[1] = 3;
    CHECK(run_op(&te_op_split, &m) == 0);
    og_const(&m, m.op.in[0], (int64_t[]){2}, 1);
    CHECK(run_op(&te_op_split, &m) == -1 && strstr(ei_last_error, "out of range"));
}

/* ---- UNPACK, PACK ------------------------------------------------------- */

static void test_unpack_pack(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 300 && ok; trial++) {
        op_graph m;
        int pack = trial % 2, rank = test_rand_range(1, 5), big[6] = {0}, small[5] = {0};
        int ids[8], bid, j, axis, n, k, esz;
        int64_t o, idx[6];
        te_dtype type = rand_type(&esz);
        og_rand_shape(big, rank + pack, 4);
        if (!pack)
            og_rand_shape(big, rank, 4);
        axis = test_rand_range(0, rank + pack - 1);
        n = big[axis];
        for (k = 0, j = 0; k < rank + pack; k++)
            if (k != axis)
                small[j++] = big[k];
        og_init(&m, pack ? TE_OP_PACK : TE_OP_UNPACK);
        bid = g_tensor(&m, type, rank + pack, big, 0);
        for (k = 0; k < n; k++)
            ids[k] = g_tensor(&m, type, rank + pack - 1, small, 0);
        if (pack) {
            for (k = 0; k < n; k++)
                g_in(&m, ids[k]);
            g_out(&m, bid);
        } else {
            g_in(&m, bid);
            for (k = 0; k < n; k++)
                g_out(&m, ids[k]);
        }
        m.op.opt.axis = trial % 3 == 0 ? axis - (rank + pack) : axis;
        m.op.opt.count = n;
        fill_random();
        ok &= run_op(pack ? &te_op_pack : &te_op_unpack, &m) == 0;
        for (o = 0; o < og_elems(big, rank + pack) && ok; o++) {
            int64_t sidx[5] = {0};
            unravel(o, big, rank + pack, idx);
            for (k = 0, j = 0; k < rank + pack; k++)
                if (k != axis)
                    sidx[j++] = idx[k];
            ok &= memcmp(tensor_bytes(&m, bid) + o * esz,
                         tensor_bytes(&m, ids[idx[axis]]) +
                             ravel(sidx, small, rank + pack - 1) * esz,
                         (size_t)esz) == 0;
        }
        for (k = 0; !pack && k < n && ok; k++) {
            size_t off;
            if (te_op_unpack.view_input(&m.g, &m.op, k, &off) == 0)
                ok &= memcmp(tensor_bytes(&m, bid) + off, tensor_bytes(&m, ids[k]),
                             te_tensor_bytes(&m.t[ids[k]])) == 0;
        }
        if (!ok)
            fprintf(stderr, "%s trial %d failed: %s\n", pack ? "pack" : "unpack", trial,
                    ei_last_error);
    }
    CHECK(ok);
}

/* ---- SLICE, EXPAND_DIMS ------------------------------------------------- */

static void test_slice(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 300 && ok; trial++) {
        op_graph m;
        int rank = test_rand_range(1, 5), shape[5], oshape[5], k, esz, in, out;
        int64_t begin[5], size[5], o, idx[5];
        te_dtype type = rand_type(&esz);
        size_t off;
        og_rand_shape(shape, rank, 5);
        for (k = 0; k < rank; k++) {
            begin[k] = test_rand_range(0, shape[k] - 1);
            oshape[k] = test_rand_range(1, shape[k] - (int)begin[k]);
            size[k] = oshape[k] == shape[k] - begin[k] && trial % 2 ? -1 : oshape[k];
            if (trial % 5 == 0 && k > 0) { /* contiguous: whole inner axes */
                begin[k] = 0;
                oshape[k] = shape[k];
                size[k] = -1;
            }
        }
        og_init(&m, TE_OP_SLICE);
        in = g_tensor(&m, type, rank, shape, 0);
        out = g_tensor(&m, type, rank, oshape, 0);
        g_in(&m, in);
        g_in(&m, g_const_vec(&m, trial % 3 ? TE_DT_INT32 : TE_DT_INT64, begin, rank));
        g_in(&m, g_const_vec(&m, TE_DT_INT32, size, rank));
        g_out(&m, out);
        fill_random();
        ok &= run_op(&te_op_slice, &m) == 0;
        for (o = 0; o < og_elems(oshape, rank) && ok; o++) {
            unravel(o, oshape, rank, idx);
            for (k = 0; k < rank; k++)
                idx[k] += begin[k];
            ok &= memcmp(tensor_bytes(&m, out) + o * esz,
                         tensor_bytes(&m, in) + ravel(idx, shape, rank) * esz, (size_t)esz) == 0;
        }
        if (te_op_slice.view_input(&m.g, &m.op, 0, &off) == 0)
            ok &= memcmp(tensor_bytes(&m, in) + off, tensor_bytes(&m, out),
                         te_tensor_bytes(&m.t[out])) == 0;
        if (!ok)
            fprintf(stderr, "slice trial %d failed: %s\n", trial, ei_last_error);
    }
    CHECK(ok);
}

static void test_slice_errors(void)
{
    op_graph m;
    int s[2] = {4, 6}, so[2] = {2, 3}, in, out;
    int64_t b[2] = {1, 4}, sz[2] = {2, 3};
    og_init(&m, TE_OP_SLICE);
    in = g_tensor(&m, TE_DT_INT8, 2, s, 0);
    out = g_tensor(&m, TE_DT_INT8, 2, so, 0);
    g_in(&m, in);
    g_in(&m, g_const_vec(&m, TE_DT_INT32, b, 2));
    g_in(&m, g_const_vec(&m, TE_DT_INT32, sz, 2));
    g_out(&m, out);
    CHECK(run_op(&te_op_slice, &m) == -1 && strstr(ei_last_error, "do not fit"));
    b[1] = 3;
    og_const(&m, m.op.in[1], b, 2);
    CHECK(run_op(&te_op_slice, &m) == 0);
    m.t[out].shape[0] = 3;
    CHECK(run_op(&te_op_slice, &m) == -1 && strstr(ei_last_error, "output 0"));
}

static void test_expand_dims(void)
{
    op_graph m;
    int s[3] = {1, 6, 8}, so[4] = {1, 6, 8, 1}, in, out, ax;
    og_init(&m, TE_OP_EXPAND_DIMS);
    in = g_tensor(&m, TE_DT_INT8, 3, s, 0);
    out = g_tensor(&m, TE_DT_INT8, 4, so, 0);
    g_in(&m, in);
    ax = g_const_scalar(&m, 3);
    g_in(&m, ax);
    g_out(&m, out);
    fill_random();
    CHECK(run_op(&te_op_expand_dims, &m) == 0);
    CHECK(memcmp(tensor_bytes(&m, in), tensor_bytes(&m, out), 48) == 0);
    og_const(&m, ax, (int64_t[]){-1}, 1);
    CHECK(run_op(&te_op_expand_dims, &m) == 0);
    og_const(&m, ax, (int64_t[]){-2}, 1); /* [1,6,1,8] */
    CHECK(run_op(&te_op_expand_dims, &m) == -1 && strstr(ei_last_error, "inserted"));
    og_const(&m, ax, (int64_t[]){5}, 1);
    CHECK(run_op(&te_op_expand_dims, &m) == -1 && strstr(ei_last_error, "out of range"));
}

/* ---- GATHER ------------------------------------------------------------- */

static void test_gather(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 400 && ok; trial++) {
        op_graph m;
        int rank = test_rand_range(1, 4), shape[4], irank = test_rand_range(0, 2), ishape[2];
        int oshape[7], orank = 0, axis, bd = 0, k, esz, in, out, ix, cst = trial % 2, bad;
        int64_t iv[64], o, idx[7], src[4], ni;
        te_dtype type = rand_type(&esz);
        te_dtype itype = trial % 4 == 3 ? TE_DT_INT64 : TE_DT_INT32;
        og_rand_shape(shape, rank, 5);
        og_rand_shape(ishape, irank, 4);
        axis = test_rand_range(0, rank - 1);
        if (axis > 0 && irank > 0 && trial % 5 == 0) { /* batch_dims 1 */
            bd = 1;
            ishape[0] = shape[0];
        }
        ni = og_elems(ishape, irank);
        bad = !cst && trial % 7 == 0;
        for (k = 0; k < ni; k++)
            iv[k] = trial % 3 == 0 ? (k * 2) % shape[axis] : test_rand_range(0, shape[axis] - 1);
        if (bad)
            iv[ni - 1] = trial % 2 ? -1 : shape[axis];
        for (k = 0; k < axis; k++)
            oshape[orank++] = shape[k];
        for (k = bd; k < irank; k++)
            oshape[orank++] = ishape[k];
        for (k = axis + 1; k < rank; k++)
            oshape[orank++] = shape[k];
        og_init(&m, TE_OP_GATHER);
        in = g_tensor(&m, type, rank, shape, 0);
        ix = g_tensor(&m, itype, irank, ishape, cst);
        out = g_tensor(&m, type, orank, oshape, 0);
        g_in(&m, in);
        g_in(&m, ix);
        g_out(&m, out);
        m.op.opt.axis = trial % 3 == 1 ? axis - rank : axis;
        m.op.opt.batch_dims = bd;
        fill_random();
        if (cst)
            og_const(&m, ix, iv, (int)ni);
        else
            for (k = 0; k < ni; k++) {
                int s = itype == TE_DT_INT64 ? 8 : 4, b;
                for (b = 0; b < s; b++)
                    ei_arena[m.place[ix].arena_offset + (size_t)(k * s + b)] =
                        (int8_t)((uint64_t)iv[k] >> (8 * b));
            }
        ok &= run_op(&te_op_gather, &m) == 0;
        if (bad) {
            ok &= kernel_status == -1;
            continue;
        }
        ok &= kernel_status == 0;
        for (o = 0; o < og_elems(oshape, orank) && ok; o++) {
            int64_t coord = 0;
            unravel(o, oshape, orank, idx);
            for (k = 0; k < axis; k++)
                src[k] = idx[k];
            for (k = bd; k < irank; k++)
                coord = coord * ishape[k] + idx[axis + k - bd];
            if (bd)
                coord += idx[0] * (ni / ishape[0]);
            src[axis] = iv[coord];
            for (k = axis + 1; k < rank; k++)
                src[k] = idx[k - 1 + irank - bd];
            ok &= memcmp(tensor_bytes(&m, out) + o * esz,
                         tensor_bytes(&m, in) + ravel(src, shape, rank) * esz, (size_t)esz) == 0;
        }
        if (!ok)
            fprintf(stderr, "gather trial %d failed: %s\n", trial, ei_last_error);
    }
    CHECK(ok);
}

static void test_gather_errors(void)
{
    op_graph m;
    int s[2] = {10, 8}, si = 2, so[2] = {2, 8}, in, ix, out;
    int64_t iv[2] = {3, 10};
    og_init(&m, TE_OP_GATHER);
    in = g_tensor(&m, TE_DT_INT8, 2, s, 0);
    ix = g_tensor(&m, TE_DT_INT32, 1, &si, 1);
    out = g_tensor(&m, TE_DT_INT8, 2, so, 0);
    g_in(&m, in);
    g_in(&m, ix);
    g_out(&m, out);
    og_const(&m, ix, iv, 2);
    CHECK(run_op(&te_op_gather, &m) == -1 && strstr(ei_last_error, "outside"));
    iv[1] = 9;
    og_const(&m, ix, iv, 2);
    CHECK(run_op(&te_op_gather, &m) == 0);
    m.op.opt.axis = 2;
    CHECK(run_op(&te_op_gather, &m) == -1 && strstr(ei_last_error, "axis"));
    m.op.opt.axis = 0;
    m.t[ix].type = TE_DT_INT16;
    CHECK(run_op(&te_op_gather, &m) == -1 && strstr(ei_last_error, "int32"));
}

/* ---- DEPTH_TO_SPACE, SPACE_TO_DEPTH ------------------------------------- */

static void test_space_depth(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 200 && ok; trial++) {
        op_graph m;
        int d2s = trial % 2, b = test_rand_range(1, 3), esz, small[4] = {0}, big[4] = {0}, in, out;
        int64_t o, idx[4], src[4];
        te_dtype type = rand_type(&esz);
        /* `big` is the spatial (H*b, W*b, C) side, `small` the deep one */
        small[0] = big[0] = test_rand_range(1, 2);
        small[1] = test_rand_range(1, 4);
        small[2] = test_rand_range(1, 4);
        big[3] = test_rand_range(1, 4);
        small[3] = big[3] * b * b;
        big[1] = small[1] * b;
        big[2] = small[2] * b;
        og_init(&m, d2s ? TE_OP_DEPTH_TO_SPACE : TE_OP_SPACE_TO_DEPTH);
        in = g_tensor(&m, type, 4, d2s ? small : big, 0);
        out = g_tensor(&m, type, 4, d2s ? big : small, 0);
        g_in(&m, in);
        g_out(&m, out);
        m.op.opt.block_size = b;
        fill_random();
        ok &= run_op(d2s ? &te_op_depth_to_space : &te_op_space_to_depth, &m) == 0;
        for (o = 0; o < og_elems(big, 4) && ok; o++) { /* walk the spatial side */
            int64_t off;
            unravel(o, big, 4, idx);
            src[0] = idx[0];
            src[1] = idx[1] / b;
            src[2] = idx[2] / b;
            src[3] = ((idx[1] % b) * b + idx[2] % b) * big[3] + idx[3];
            off = ravel(src, small, 4);
            ok &= memcmp(tensor_bytes(&m, d2s ? out : in) + o * esz,
                         tensor_bytes(&m, d2s ? in : out) + off * esz, (size_t)esz) == 0;
        }
        if (!ok)
            fprintf(stderr, "space/depth trial %d failed: %s\n", trial, ei_last_error);
    }
    CHECK(ok);
}

/* ---- MIRROR_PAD --------------------------------------------------------- */

/* Reflection written the other way round: distance from the edge. */
static int64_t mirrored(int64_t i, int64_t left, int64_t size, int reflect)
{
    int64_t x = i - left;
    if (x < 0)
        x = reflect ? -x : -x - 1;
    if (x >= size)
        x = reflect ? 2 * (size - 1) - x : 2 * size - 1 - x;
    return x;
}

static void test_mirror_pad(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 300 && ok; trial++) {
        op_graph m;
        int rank = test_rand_range(1, 5), shape[5], oshape[5], k, esz, in, out, pshape[2];
        int reflect = trial % 2, pid;
        int64_t pads[10], o, idx[5];
        te_dtype type = rand_type(&esz);
        og_rand_shape(shape, rank, rank > 3 ? 3 : 5);
        for (k = 0; k < rank; k++) {
            int maxp = shape[k] - reflect;
            pads[2 * k] = trial % 4 == 0 && k == rank - 1 ? 0 : test_rand_range(0, maxp);
            pads[2 * k + 1] = trial % 4 == 0 && k == rank - 1 ? 0 : test_rand_range(0, maxp);
            oshape[k] = shape[k] + (int)(pads[2 * k] + pads[2 * k + 1]);
        }
        og_init(&m, TE_OP_MIRROR_PAD);
        in = g_tensor(&m, type, rank, shape, 0);
        out = g_tensor(&m, type, rank, oshape, 0);
        pshape[0] = rank;
        pshape[1] = 2;
        pid = g_tensor(&m, trial % 3 ? TE_DT_INT32 : TE_DT_INT64, 2, pshape, 1);
        og_const(&m, pid, pads, 2 * rank);
        g_in(&m, in);
        g_in(&m, pid);
        g_out(&m, out);
        m.op.opt.mirror_mode = reflect ? 0 : 1;
        fill_random();
        ok &= run_op(&te_op_mirror_pad, &m) == 0;
        for (o = 0; o < og_elems(oshape, rank) && ok; o++) {
            unravel(o, oshape, rank, idx);
            for (k = 0; k < rank; k++)
                idx[k] = mirrored(idx[k], pads[2 * k], shape[k], reflect);
            ok &= memcmp(tensor_bytes(&m, out) + o * esz,
                         tensor_bytes(&m, in) + ravel(idx, shape, rank) * esz, (size_t)esz) == 0;
        }
        if (!ok)
            fprintf(stderr, "mirror_pad trial %d failed: %s\n", trial, ei_last_error);
    }
    CHECK(ok);
}

static void test_mirror_pad_errors(void)
{
    op_graph m;
    int s[2] = {3, 4}, so[2] = {7, 4}, ps[2] = {2, 2}, pid, out;
    int64_t pads[4] = {2, 2, 0, 0};
    og_init(&m, TE_OP_MIRROR_PAD);
    g_in(&m, g_tensor(&m, TE_DT_INT8, 2, s, 0));
    pid = g_tensor(&m, TE_DT_INT32, 2, ps, 1);
    og_const(&m, pid, pads, 4);
    g_in(&m, pid);
    out = g_tensor(&m, TE_DT_INT8, 2, so, 0);
    g_out(&m, out);
    CHECK(run_op(&te_op_mirror_pad, &m) == 0); /* REFLECT: at most size - 1 */
    pads[0] = 3;
    m.t[out].shape[0] = 8;
    og_const(&m, pid, pads, 4);
    CHECK(run_op(&te_op_mirror_pad, &m) == -1 && strstr(ei_last_error, "out of range"));
    m.op.opt.mirror_mode = 1; /* SYMMETRIC: up to size */
    CHECK(run_op(&te_op_mirror_pad, &m) == 0);
}

/* ---- PADV2 -------------------------------------------------------------- */

static void test_padv2(void)
{
    op_graph m;
    int s[2] = {2, 3}, so[2] = {3, 5}, ps[2] = {2, 2}, pid, vid, in, out, one = 1, i, j;
    int64_t pads[4] = {1, 0, 0, 2};
    og_init(&m, TE_OP_PADV2);
    in = g_tensor(&m, TE_DT_INT8, 2, s, 0);
    pid = g_tensor(&m, TE_DT_INT32, 2, ps, 1);
    og_const(&m, pid, pads, 4);
    vid = g_tensor(&m, TE_DT_INT8, 1, &one, 0);
    out = g_tensor(&m, TE_DT_INT8, 2, so, 0);
    g_in(&m, in);
    g_in(&m, pid);
    g_in(&m, vid);
    g_out(&m, out);
    fill_random();
    ei_arena[m.place[vid].arena_offset] = -7;
    CHECK(run_op(&te_op_padv2, &m) == 0);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 5; j++) {
            int8_t want = i >= 1 && j < 3 ? tensor_bytes(&m, in)[(i - 1) * 3 + j] : -7;
            CHECK(tensor_bytes(&m, out)[i * 5 + j] == want);
        }
    m.zp[vid] = 3; /* the value must be quantized like the output */
    CHECK(run_op(&te_op_padv2, &m) == -1 && strstr(ei_last_error, "zero point"));
}

/* ---- CAST --------------------------------------------------------------- */

static void test_cast(void)
{
    static const te_dtype types[5] = {TE_DT_INT8, TE_DT_UINT8, TE_DT_INT16, TE_DT_INT32,
                                      TE_DT_FLOAT32};
    int a, b, i, ok = 1, shape[1] = {37};
    for (a = 0; a < 5; a++)
        for (b = 0; b < 5; b++) {
            op_graph m;
            int in, out;
            og_init(&m, TE_OP_CAST);
            in = g_tensor(&m, types[a], 1, shape, 0);
            out = g_tensor(&m, types[b], 1, shape, 0);
            g_in(&m, in);
            g_out(&m, out);
            fill_random();
            if (types[a] == TE_DT_FLOAT32)
                for (i = 0; i < 37; i++)
                    ((float *)(ei_arena + m.place[in].arena_offset))[i] = (float)(i * 7 - 120) * 0.75f;
            ok &= run_op(&te_op_cast, &m) == 0;
            for (i = 0; i < 37 && ok; i++) {
                const int8_t *p = tensor_bytes(&m, in), *q = tensor_bytes(&m, out);
                double x;
                int64_t want, got;
                switch (types[a]) {
                case TE_DT_INT8: x = ((const int8_t *)p)[i]; break;
                case TE_DT_UINT8: x = ((const uint8_t *)p)[i]; break;
                case TE_DT_INT16: x = ((const int16_t *)p)[i]; break;
                case TE_DT_INT32: x = ((const int32_t *)p)[i]; break;
                default: x = ((const float *)p)[i]; break;
                }
                if (types[b] == TE_DT_FLOAT32) {
                    ok &= ((const float *)q)[i] == (float)x;
                    continue;
                }
                want = (int64_t)x; /* truncation toward zero, then wrap */
                switch (types[b]) {
                case TE_DT_INT8: got = ((const int8_t *)q)[i]; want = (int8_t)(uint8_t)want; break;
                case TE_DT_UINT8: got = ((const uint8_t *)q)[i]; want = (uint8_t)want; break;
                case TE_DT_INT16:
                    got = ((const int16_t *)q)[i];
                    want = (int16_t)(uint16_t)want;
                    break;
                default: got = ((const int32_t *)q)[i]; break;
                }
                ok &= got == want;
            }
            if (!ok) {
                fprintf(stderr, "cast %d -> %d failed: %s\n", a, b, ei_last_error);
                a = b = 5;
            }
        }
    CHECK(ok);
}

/* ---- SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND ------------------------------- */

static void test_space_batch(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 300 && ok; trial++) {
        op_graph m;
        int s2b = trial % 2, four = trial % 5 != 0, rank = four ? 4 : 3, esz, k, in, out;
        int space[4], batch[4], ps[2], pid;
        int64_t blk[2], pad[4], o, idx[4];
        te_dtype type = rand_type(&esz);
        int n = test_rand_range(1, 2), c = test_rand_range(1, 4), bh, bw, zp = -5;
        blk[0] = bh = test_rand_range(1, 3);
        blk[1] = bw = four ? test_rand_range(1, 3) : 1;
        /* the batch side: n * bh * bw batches of oh x ow pixels */
        batch[1] = test_rand_range(1, 4);
        batch[2] = four ? test_rand_range(1, 4) : 1;
        pad[0] = test_rand_range(0, bh - 1 + (s2b ? bh : 0));
        pad[1] = test_rand_range(0, (int)(batch[1] * bh - pad[0] - 1) < 0 ? 0 :
                                        (int)(batch[1] * bh - pad[0] - 1) % (bh + 1));
        pad[2] = four ? test_rand_range(0, bw - 1) : 0;
        pad[3] = four ? test_rand_range(0, bw - 1) : 0;
        if (batch[1] * bh - pad[0] - pad[1] < 1)
            pad[0] = pad[1] = 0;
        if (batch[2] * bw - pad[2] - pad[3] < 1)
            pad[2] = pad[3] = 0;
        batch[0] = n * bh * bw;
        space[0] = n;
        space[1] = batch[1] * bh - (int)(pad[0] + pad[1]);
        space[2] = batch[2] * bw - (int)(pad[2] + pad[3]);
        if (!four) {
            batch[2] = c;
            space[2] = c;
        } else {
            batch[3] = c;
            space[3] = c;
        }
        og_init(&m, s2b ? TE_OP_SPACE_TO_BATCH_ND : TE_OP_BATCH_TO_SPACE_ND);
        in = g_tensor(&m, type, rank, s2b ? space : batch, 0);
        out = g_tensor(&m, type, rank, s2b ? batch : space, 0);
        m.zp[out] = zp;
        ps[0] = rank - 2;
        ps[1] = 2;
        pid = g_tensor(&m, TE_DT_INT32, 2, ps, 1);
        og_const(&m, pid, pad, 2 * (rank - 2));
        g_in(&m, in);
        g_in(&m, g_const_vec(&m, TE_DT_INT32, blk, rank - 2));
        g_in(&m, pid);
        g_out(&m, out);
        if (type != TE_DT_INT8)
            m.zp[out] = 0;
        fill_random();
        ok &= run_op(s2b ? &te_op_space_to_batch_nd : &te_op_batch_to_space_nd, &m) == 0;
        /* walk the batch side: batch b, pixel (h, w) <-> space pixel
         * (h * bh + sh - top, w * bw + sw - left) of batch b % n */
        for (o = 0; o < og_elems(batch, rank) && ok; o++) {
            int64_t b, h, w, ch, sh, sw, y, x, sidx[4];
            unravel(o, batch, rank, idx);
            b = idx[0];
            h = idx[1];
            w = four ? idx[2] : 0;
            ch = idx[rank - 1];
            sh = (b / n) / bw;
            sw = (b / n) % bw;
            y = h * bh + sh - pad[0];
            x = w * bw + sw - pad[2];
            if (y < 0 || y >= space[1] || x < 0 || x >= (four ? space[2] : 1)) {
                for (k = 0; s2b && k < esz; k++)
                    ok &= tensor_bytes(&m, out)[o * esz + k] ==
                          (type == TE_DT_INT8 ? (int8_t)zp : 0);
                continue;
            }
            sidx[0] = b % n;
            sidx[1] = y;
            if (four) {
                sidx[2] = x;
                sidx[3] = ch;
            } else {
                sidx[2] = ch;
            }
            ok &= memcmp(tensor_bytes(&m, s2b ? out : in) + o * esz,
                         tensor_bytes(&m, s2b ? in : out) + ravel(sidx, space, rank) * esz,
                         (size_t)esz) == 0;
        }
        if (!ok)
            fprintf(stderr, "space/batch trial %d failed: %s\n", trial, ei_last_error);
    }
    CHECK(ok);
}

static void test_space_batch_errors(void)
{
    op_graph m;
    int s[4] = {1, 5, 4, 2}, so[4] = {4, 3, 2, 2}, ps[2] = {2, 2}, pid, out;
    int64_t blk[2] = {2, 2}, pad[4] = {0, 0, 0, 0};
    og_init(&m, TE_OP_SPACE_TO_BATCH_ND);
    g_in(&m, g_tensor(&m, TE_DT_INT8, 4, s, 0));
    g_in(&m, g_const_vec(&m, TE_DT_INT32, blk, 2));
    pid = g_tensor(&m, TE_DT_INT32, 2, ps, 1);
    og_const(&m, pid, pad, 4);
    g_in(&m, pid);
    out = g_tensor(&m, TE_DT_INT8, 4, so, 0);
    g_out(&m, out);
    CHECK(run_op(&te_op_space_to_batch_nd, &m) == -1 && strstr(ei_last_error, "multiple"));
    pad[1] = 1;
    og_const(&m, pid, pad, 4);
    CHECK(run_op(&te_op_space_to_batch_nd, &m) == 0);
    m.t[out].shape[0] = 2;
    CHECK(run_op(&te_op_space_to_batch_nd, &m) == -1 && strstr(ei_last_error, "output 0"));
}

int main(void)
{
    test_seed(20261126u);
    test_split();
    test_split_errors();
    test_unpack_pack();
    test_slice();
    test_slice_errors();
    test_expand_dims();
    test_gather();
    test_gather_errors();
    test_space_depth();
    test_mirror_pad();
    test_mirror_pad_errors();
    test_padv2();
    test_cast();
    test_space_batch();
    test_space_batch_errors();
    return test_summary();
}
