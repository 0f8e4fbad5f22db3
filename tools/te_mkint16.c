/* te_mkint16.c - one-operator models of the data-movement operators in an
 * int8 form and an int16x8 form with the same real values, for the int16
 * tests (tests/cli/test_int16_movement.sh):
 *
 *   te_mkint16                         lists the kinds
 *   te_mkint16 KIND 8|16 DIR           writes DIR/model.tflite, DIR/input_<i>.bin
 *   te_mkint16 widen ZP IN8 OUT16      OUT16 = IN8 - ZP as int16
 *
 * The int8 form quantizes every activation with scale 0.05 and zero point
 * ZP8 (-5); the int16 form with scale 0.05 and zero point 0, as the 16x8
 * converter does.  Its inputs are the int8 inputs minus ZP8, so the real
 * values are equal.  These operators move or compare values without
 * arithmetic, so TFLite Micro's int16 output is the int8 output minus ZP8
 * (`widen`), which the int8 goldens pin: the test runs the int8 model,
 * widens its outputs and expects them from the int16 model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_builder.h"

#define ZP8 (-5)
#define MAX_INPUTS 2

typedef struct {
    tflb_model *m;
    int bits;
    int codes[256];                 /* opcode index + 1 per builtin */
    int n_in;
    int32_t in_ids[MAX_INPUTS];
    int32_t in_elems[MAX_INPUTS];
} gen;

static uint32_t rng_state = 12345u;

static uint32_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static int32_t elems(const int32_t *shape, int rank)
{
    int32_t n = 1;
    int i;
    for (i = 0; i < rank; i++)
        n *= shape[i];
    return n;
}

/* An activation tensor of the model's width. */
static int32_t act(gen *g, const char *name, const int32_t *shape, int rank)
{
    static float scale = 0.05f;
    static int64_t zp8 = ZP8, zp16 = 0;
    tflb_quant q = tflb_quant1(&scale, g->bits == 8 ? &zp8 : &zp16);
    return tflb_add_tensor(g->m, name, g->bits == 8 ? TFLB_INT8 : TFLB_INT16, shape, rank, 0, &q);
}

static int32_t input(gen *g, const char *name, const int32_t *shape, int rank)
{
    int32_t id = act(g, name, shape, rank);
    g->in_ids[g->n_in] = id;
    g->in_elems[g->n_in++] = elems(shape, rank);
    return id;
}

static int32_t const_i32(gen *g, const char *name, const int32_t *v, int32_t n, const int32_t *shape,
                         int rank)
{
    return tflb_add_const(g->m, name, TFLB_INT32, shape, rank, v, sizeof(int32_t) * (size_t)n, NULL);
}

static int32_t const_vec(gen *g, const char *name, const int32_t *v, int32_t n)
{
    return const_i32(g, name, v, n, &n, 1);
}

static void op(gen *g, int builtin, const int32_t *in, int n_in, const int32_t *out, int n_out,
               tflb_options o)
{
    if (!g->codes[builtin])
        g->codes[builtin] = tflb_add_opcode(g->m, builtin, 1) + 1;
    tflb_add_op(g->m, g->codes[builtin] - 1, in, n_in, out, n_out, &o);
}

static void finish(gen *g, const int32_t *outs, int n_out)
{
    tflb_set_inputs(g->m, g->in_ids, g->n_in);
    tflb_set_outputs(g->m, outs, n_out);
}

/* ---------------------------------------------------------------------
 * The kinds. */

static void k_pad(gen *g)
{
    int32_t s[4] = {1, 5, 6, 3}, so[4] = {1, 8, 9, 4}, ps[2] = {4, 2};
    int32_t amounts[8] = {0, 0, 1, 2, 2, 1, 0, 1}, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_i32(g, "paddings", amounts, 8, ps, 2);
    out = act(g, "y", so, 4);
    op(g, TE_OP_PAD, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

/* PADV2 with a constant value, quantized like the data (real 0.6). */
static void k_padv2(gen *g)
{
    static float scale = 0.05f;
    static int64_t zp8 = ZP8, zp16 = 0;
    int32_t s[4] = {1, 4, 5, 6}, so[4] = {1, 6, 5, 9}, ps[2] = {4, 2}, one = 1;
    int32_t amounts[8] = {0, 0, 2, 0, 0, 0, 1, 2}, in[3], out;
    tflb_quant q = tflb_quant1(&scale, g->bits == 8 ? &zp8 : &zp16);
    int8_t v8 = 12 + ZP8;
    int16_t v16 = 12;
    in[0] = input(g, "x", s, 4);
    in[1] = const_i32(g, "paddings", amounts, 8, ps, 2);
    in[2] = g->bits == 8 ? tflb_add_const(g->m, "value", TFLB_INT8, &one, 0, &v8, 1, &q)
                         : tflb_add_const(g->m, "value", TFLB_INT16, &one, 0, &v16, 2, &q);
    out = act(g, "y", so, 4);
    op(g, TE_OP_PADV2, in, 3, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_transpose(gen *g)
{
    int32_t s[4] = {1, 4, 5, 6}, so[4] = {1, 6, 4, 5}, perm[4] = {0, 3, 1, 2}, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "perm", perm, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_TRANSPOSE, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_slice(gen *g)
{
    int32_t s[4] = {1, 5, 6, 7}, so[4] = {1, 3, 2, 4}, begin[4] = {0, 1, 2, 1};
    int32_t size[4] = {1, 3, 2, 4}, in[3], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "begin", begin, 4);
    in[2] = const_vec(g, "size", size, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_SLICE, in, 3, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_strided_slice(gen *g)
{
    int32_t s[4] = {1, 6, 7, 5}, so[4] = {1, 3, 2, 5}, begin[4] = {0, 0, 1, 0};
    int32_t end[4] = {1, 6, 7, 5}, strides[4] = {1, 2, 3, 1}, in[4], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "begin", begin, 4);
    in[2] = const_vec(g, "end", end, 4);
    in[3] = const_vec(g, "strides", strides, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_STRIDED_SLICE, in, 4, &out, 1, tflb_opt_strided_slice(0, 0, 0));
    finish(g, &out, 1);
}

static void k_split(gen *g)
{
    int32_t s[4] = {1, 4, 4, 9}, so[4] = {1, 4, 4, 3}, axis = 3, one = 1, in[2], out[3];
    in[0] = const_i32(g, "axis", &axis, 1, &one, 0);
    in[1] = input(g, "x", s, 4);
    out[0] = act(g, "y0", so, 4);
    out[1] = act(g, "y1", so, 4);
    out[2] = act(g, "y2", so, 4);
    op(g, TE_OP_SPLIT, in, 2, out, 3, tflb_opt_split(TE_OPT_SPLIT, 3));
    finish(g, out, 3);
}

static void k_split_v(gen *g)
{
    int32_t s[4] = {1, 9, 4, 3}, s0[4] = {1, 2, 4, 3}, s1[4] = {1, 5, 4, 3}, s2[4] = {1, 2, 4, 3};
    int32_t sizes[3] = {2, 5, -1}, axis = 1, one = 1, in[3], out[3];
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "sizes", sizes, 3);
    in[2] = const_i32(g, "axis", &axis, 1, &one, 0);
    out[0] = act(g, "y0", s0, 4);
    out[1] = act(g, "y1", s1, 4);
    out[2] = act(g, "y2", s2, 4);
    op(g, TE_OP_SPLIT_V, in, 3, out, 3, tflb_opt_split(TE_OPT_SPLIT_V, 3));
    finish(g, out, 3);
}

static void k_pack(gen *g)
{
    int32_t s[3] = {3, 4, 5}, so[4] = {3, 2, 4, 5}, in[2], out;
    in[0] = input(g, "a", s, 3);
    in[1] = input(g, "b", s, 3);
    out = act(g, "y", so, 4);
    op(g, TE_OP_PACK, in, 2, &out, 1, tflb_opt_pack(TE_OPT_PACK, 2, 1));
    finish(g, &out, 1);
}

static void k_unpack(gen *g)
{
    int32_t s[3] = {4, 3, 5}, so[2] = {4, 5}, in, out[3];
    in = input(g, "x", s, 3);
    out[0] = act(g, "y0", so, 2);
    out[1] = act(g, "y1", so, 2);
    out[2] = act(g, "y2", so, 2);
    op(g, TE_OP_UNPACK, &in, 1, out, 3, tflb_opt_pack(TE_OPT_UNPACK, 3, 1));
    finish(g, out, 3);
}

/* EXPAND_DIMS then SQUEEZE back, then a TRANSPOSE so that the output is not
 * the input's storage. */
static void k_expand_squeeze(gen *g)
{
    int32_t s[3] = {4, 5, 6}, se[4] = {4, 1, 5, 6}, so[3] = {6, 4, 5}, axis = 1, one = 1;
    int32_t dims[1] = {1}, perm[3] = {2, 0, 1}, in[2], mid, sq, out;
    in[0] = input(g, "x", s, 3);
    in[1] = const_i32(g, "axis", &axis, 1, &one, 0);
    mid = act(g, "expanded", se, 4);
    op(g, TE_OP_EXPAND_DIMS, in, 2, &mid, 1, tflb_opt_none());
    sq = act(g, "squeezed", s, 3);
    op(g, TE_OP_SQUEEZE, &mid, 1, &sq, 1, tflb_opt_squeeze(dims, 1));
    in[0] = sq;
    in[1] = const_vec(g, "perm", perm, 3);
    out = act(g, "y", so, 3);
    op(g, TE_OP_TRANSPOSE, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_resize_nearest(gen *g)
{
    int32_t s[4] = {1, 4, 5, 3}, so[4] = {1, 7, 10, 3}, size[2] = {7, 10}, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "size", size, 2);
    out = act(g, "y", so, 4);
    op(g, TE_OP_RESIZE_NEAREST_NEIGHBOR, in, 2, &out, 1, tflb_opt_resize_nearest(0, 1));
    finish(g, &out, 1);
}

static void k_reverse(gen *g)
{
    int32_t s[4] = {1, 4, 5, 3}, axis = 2, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "axis", &axis, 1);
    out = act(g, "y", s, 4);
    op(g, TE_OP_REVERSE_V2, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_broadcast_to(gen *g)
{
    int32_t s[4] = {1, 1, 4, 3}, so[4] = {1, 3, 4, 3}, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "shape", so, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_BROADCAST_TO, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_select_v2(gen *g)
{
    int32_t s[4] = {1, 3, 4, 5}, sc[4] = {1, 1, 4, 5}, in[3], out;
    uint8_t cond[20];
    int i;
    for (i = 0; i < 20; i++)
        cond[i] = (uint8_t)((i * 7 + 3) % 3 == 0);
    in[0] = tflb_add_const(g->m, "condition", TFLB_BOOL, sc, 4, cond, sizeof(cond), NULL);
    in[1] = input(g, "a", s, 4);
    in[2] = input(g, "b", s, 4);
    out = act(g, "y", s, 4);
    op(g, TE_OP_SELECT_V2, in, 3, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_maxmin(gen *g, int builtin)
{
    int32_t s[4] = {1, 3, 4, 5}, sb[4] = {1, 1, 1, 5}, in[2], out;
    in[0] = input(g, "a", s, 4);
    in[1] = input(g, "b", sb, 4);
    out = act(g, "y", s, 4);
    op(g, builtin, in, 2, &out, 1, tflb_opt_empty(TE_OPT_MAXIMUM_MINIMUM));
    finish(g, &out, 1);
}

static void k_maximum(gen *g) { k_maxmin(g, TE_OP_MAXIMUM); }
static void k_minimum(gen *g) { k_maxmin(g, TE_OP_MINIMUM); }

static void k_concat(gen *g)
{
    int32_t sa[4] = {1, 3, 4, 2}, sb[4] = {1, 3, 4, 5}, so[4] = {1, 3, 4, 7}, in[2], out;
    in[0] = input(g, "a", sa, 4);
    in[1] = input(g, "b", sb, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_CONCATENATION, in, 2, &out, 1, tflb_opt_concat(3, TFLB_ACT_NONE));
    finish(g, &out, 1);
}

static const struct {
    const char *name;
    void (*build)(gen *g);
} kinds[] = {
    {"pad", k_pad},
    {"padv2", k_padv2},
    {"transpose", k_transpose},
    {"slice", k_slice},
    {"strided_slice", k_strided_slice},
    {"split", k_split},
    {"split_v", k_split_v},
    {"pack", k_pack},
    {"unpack", k_unpack},
    {"expand_squeeze", k_expand_squeeze},
    {"resize_nearest", k_resize_nearest},
    {"reverse", k_reverse},
    {"broadcast_to", k_broadcast_to},
    {"select_v2", k_select_v2},
    {"maximum", k_maximum},
    {"minimum", k_minimum},
    {"concat", k_concat},
};

#define N_KINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

/* ---------------------------------------------------------------------
 * Files. */

static int write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "te_mkint16: cannot write %s\n", path);
    return ok ? 0 : -1;
}

/* Input i: int8 values over the whole range, or the same minus ZP8 as int16. */
static int write_input(const gen *g, const char *dir, int i)
{
    char path[1024];
    int32_t n = g->in_elems[i], k;
    int16_t *v = malloc(sizeof(int16_t) * (size_t)n);
    int8_t *v8 = (int8_t *)v;
    int rc;
    if (!v)
        return -1;
    for (k = 0; k < n; k++) {
        int x = (int)(rng_next() % 256u) - 128;
        if (g->bits == 8)
            v8[k] = (int8_t)x;
        else
            v[k] = (int16_t)(x - ZP8);
    }
    snprintf(path, sizeof(path), "%s/input_%d.bin", dir, i);
    rc = write_file(path, v, (size_t)n * (size_t)(g->bits / 8));
    free(v);
    return rc;
}

static int build(const char *kind, int bits, const char *dir)
{
    tflb_model m;
    gen g;
    char path[1024];
    uint8_t *buf;
    size_t size;
    int i, k, rc = 0;

    for (k = 0; k < N_KINDS && strcmp(kinds[k].name, kind) != 0; k++)
        ;
    if (k == N_KINDS) {
        fprintf(stderr, "te_mkint16: unknown kind '%s' (run without arguments for the list)\n", kind);
        return 1;
    }
    memset(&g, 0, sizeof(g));
    tflb_init(&m);
    g.m = &m;
    g.bits = bits;
    kinds[k].build(&g);
    if (tflb_finish(&m, &buf, &size) != 0) {
        fprintf(stderr, "te_mkint16: cannot serialize %s\n", kind);
        tflb_free(&m);
        return 1;
    }
    snprintf(path, sizeof(path), "%s/model.tflite", dir);
    rc |= write_file(path, buf, size);
    free(buf);
    for (i = 0; i < g.n_in; i++)
        rc |= write_input(&g, dir, i);
    tflb_free(&m);
    return rc ? 1 : 0;
}

/* OUT16 = IN8 - zp, element by element, as int16 (little-endian host). */
static int widen(int zp, const char *in8, const char *out16)
{
    FILE *f = fopen(in8, "rb"), *o = f ? fopen(out16, "wb") : NULL;
    int c, ok = f && o;
    while (ok && (c = getc(f)) != EOF) {
        int16_t v = (int16_t)((int8_t)c - zp);
        ok = fwrite(&v, sizeof(v), 1, o) == 1;
    }
    if (f)
        fclose(f);
    if (o && fclose(o) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "te_mkint16: cannot widen %s into %s\n", in8, out16);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    int k;
    if (argc == 5 && strcmp(argv[1], "widen") == 0)
        return widen(atoi(argv[2]), argv[3], argv[4]);
    if (argc == 4 && (strcmp(argv[2], "8") == 0 || strcmp(argv[2], "16") == 0))
        return build(argv[1], atoi(argv[2]), argv[3]);
    if (argc != 1) {
        fprintf(stderr, "usage: te_mkint16 [KIND 8|16 DIR | widen ZP IN8.bin OUT16.bin]\n");
        return 2;
    }
    for (k = 0; k < N_KINDS; k++)
        printf("%s\n", kinds[k].name);
    return 0;
}
