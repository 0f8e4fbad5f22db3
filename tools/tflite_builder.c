/* tflite_builder.c - a minimal back-to-front FlatBuffer builder and the
 * TFLite model serializer built on it (see tflite_builder.h).
 *
 * Layout rules implemented here (FlatBuffers binary format):
 *  - every scalar is aligned to its own size, relative to the end of the
 *    buffer; fbb_finish pads the front so the total size is a multiple of
 *    the largest alignment used, which makes alignment hold from the start;
 *  - a uoffset_t (u32) points forward: target = its own position + value;
 *  - a table starts with an soffset_t (i32): vtable = table - value; the
 *    vtable is u16 [vtable bytes, table bytes, field offsets...], a zero
 *    field offset meaning "absent";
 *  - vectors and strings are a u32 length followed by the elements (strings
 *    also by a NUL byte). */
#include "tflite_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* =====================================================================
 * FlatBuffer builder */

void fbb_init(fbb *b)
{
    memset(b, 0, sizeof(*b));
    b->minalign = 1;
}

void fbb_free(fbb *b)
{
    free(b->buf);
    memset(b, 0, sizeof(*b));
}

/* Makes room for n more bytes in front of the data. */
static int fbb_reserve(fbb *b, size_t n)
{
    size_t cap;
    uint8_t *nb;

    if (b->err)
        return -1;
    if (b->cap - b->size >= n)
        return 0;
    cap = b->cap ? b->cap : 256;
    while (cap - b->size < n) {
        if (cap > ((size_t)1 << 30)) {
            b->err = 1;
            return -1;
        }
        cap *= 2;
    }
    nb = malloc(cap);
    if (!nb) {
        b->err = 1;
        return -1;
    }
    if (b->size)
        memcpy(nb + cap - b->size, b->buf + b->cap - b->size, b->size);
    free(b->buf);
    b->buf = nb;
    b->cap = cap;
    return 0;
}

/* Puts n bytes (in memory order) in front of the data. */
static void fbb_put(fbb *b, const void *p, size_t n)
{
    if (fbb_reserve(b, n))
        return;
    b->size += n;
    if (n)
        memcpy(b->buf + b->cap - b->size, p, n);
}

/* Puts an n-byte little-endian integer in front of the data. */
static void fbb_put_le(fbb *b, uint64_t v, size_t n)
{
    uint8_t tmp[8];
    size_t i;

    for (i = 0; i < n; i++)
        tmp[i] = (uint8_t)(v >> (8 * i));
    fbb_put(b, tmp, n);
}

static void fbb_zeros(fbb *b, size_t n)
{
    static const uint8_t z[16];

    while (n > 0) {
        size_t k = n < sizeof(z) ? n : sizeof(z);
        fbb_put(b, z, k);
        n -= k;
    }
}

void fbb_prep(fbb *b, size_t align, size_t extra)
{
    size_t rem;

    if (align > b->minalign)
        b->minalign = align;
    rem = (b->size + extra) % align;
    if (rem)
        fbb_zeros(b, align - rem);
}

/* Distance to write as a uoffset at the next 4 bytes, pointing at r. */
static uint32_t fbb_uoffset_to(fbb *b, fbb_ref r)
{
    size_t here = b->size + 4;

    if (r == 0 || r > here) {
        b->err = 1;  /* a reference to an object not built yet */
        return 0;
    }
    return (uint32_t)(here - r);
}

static int fbb_no_table(fbb *b)
{
    if (b->in_table)
        b->err = 1;  /* nested objects must be built before the table */
    return !b->in_table;
}

fbb_ref fbb_string(fbb *b, const char *s)
{
    size_t len = strlen(s);

    fbb_no_table(b);
    fbb_prep(b, 4, len + 1);
    fbb_zeros(b, 1);
    fbb_put(b, s, len);
    fbb_put_le(b, len, 4);
    return (fbb_ref)b->size;
}

/* Aligns for n elements of elem bytes (and align for the first one). */
static void fbb_start_vector(fbb *b, size_t elem, uint32_t n, size_t align)
{
    fbb_no_table(b);
    fbb_prep(b, 4, elem * n);
    fbb_prep(b, align > elem ? align : elem, elem * n);
}

static fbb_ref fbb_end_vector(fbb *b, uint32_t n)
{
    fbb_put_le(b, n, 4);
    return (fbb_ref)b->size;
}

fbb_ref fbb_vec_u8(fbb *b, const uint8_t *v, uint32_t n, size_t align)
{
    fbb_start_vector(b, 1, n, align);
    fbb_put(b, v, n);
    return fbb_end_vector(b, n);
}

fbb_ref fbb_vec_i32(fbb *b, const int32_t *v, uint32_t n)
{
    uint32_t i;

    fbb_start_vector(b, 4, n, 4);
    for (i = n; i-- > 0;)
        fbb_put_le(b, (uint32_t)v[i], 4);
    return fbb_end_vector(b, n);
}

fbb_ref fbb_vec_i64(fbb *b, const int64_t *v, uint32_t n)
{
    uint32_t i;

    fbb_start_vector(b, 8, n, 8);
    for (i = n; i-- > 0;)
        fbb_put_le(b, (uint64_t)v[i], 8);
    return fbb_end_vector(b, n);
}

static uint32_t fbb_f32_bits(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

fbb_ref fbb_vec_f32(fbb *b, const float *v, uint32_t n)
{
    uint32_t i;

    fbb_start_vector(b, 4, n, 4);
    for (i = n; i-- > 0;)
        fbb_put_le(b, fbb_f32_bits(v[i]), 4);
    return fbb_end_vector(b, n);
}

fbb_ref fbb_vec_ref(fbb *b, const fbb_ref *v, uint32_t n)
{
    uint32_t i;

    fbb_start_vector(b, 4, n, 4);
    for (i = n; i-- > 0;)
        fbb_put_le(b, fbb_uoffset_to(b, v[i]), 4);
    return fbb_end_vector(b, n);
}

void fbb_start(fbb *b)
{
    fbb_no_table(b);
    b->in_table = 1;
    b->table_start = b->size;
    b->nfields = 0;
    memset(b->field_pos, 0, sizeof(b->field_pos));
}

/* Records that field id was just written at the front of the data. */
static void fbb_field_done(fbb *b, int id)
{
    if (!b->in_table || id < 0 || id >= FBB_MAX_FIELDS) {
        b->err = 1;
        return;
    }
    b->field_pos[id] = (uint32_t)b->size;
    if (id + 1 > b->nfields)
        b->nfields = id + 1;
}

static void fbb_add_scalar(fbb *b, int id, uint64_t v, size_t n)
{
    fbb_prep(b, n, 0);
    fbb_put_le(b, v, n);
    fbb_field_done(b, id);
}

void fbb_add_u8(fbb *b, int id, uint8_t v) { fbb_add_scalar(b, id, v, 1); }
void fbb_add_i32(fbb *b, int id, int32_t v) { fbb_add_scalar(b, id, (uint32_t)v, 4); }
void fbb_add_u32(fbb *b, int id, uint32_t v) { fbb_add_scalar(b, id, v, 4); }
void fbb_add_u64(fbb *b, int id, uint64_t v) { fbb_add_scalar(b, id, v, 8); }
void fbb_add_f32(fbb *b, int id, float v) { fbb_add_scalar(b, id, fbb_f32_bits(v), 4); }

void fbb_add_ref(fbb *b, int id, fbb_ref r)
{
    fbb_prep(b, 4, 0);
    fbb_put_le(b, fbb_uoffset_to(b, r), 4);
    fbb_field_done(b, id);
}

fbb_ref fbb_end(fbb *b)
{
    size_t obj, tsize, vt_bytes;
    int id;

    if (!b->in_table) {
        b->err = 1;
        return 0;
    }
    fbb_prep(b, 4, 0);
    fbb_put_le(b, 0, 4);  /* soffset to the vtable, patched below */
    obj = b->size;
    tsize = obj - b->table_start;
    vt_bytes = 4 + 2 * (size_t)b->nfields;
    if (tsize > 0xffff)
        b->err = 1;
    for (id = b->nfields - 1; id >= 0; id--) {
        uint32_t p = b->field_pos[id];
        fbb_put_le(b, p ? obj - p : 0, 2);
    }
    fbb_put_le(b, tsize, 2);
    fbb_put_le(b, vt_bytes, 2);
    b->in_table = 0;
    if (b->err)
        return 0;
    {
        /* The vtable lies just before the table: soffset = table - vtable. */
        uint32_t so = (uint32_t)(b->size - obj);
        uint8_t *p = b->buf + b->cap - obj;
        p[0] = (uint8_t)so;
        p[1] = (uint8_t)(so >> 8);
        p[2] = (uint8_t)(so >> 16);
        p[3] = (uint8_t)(so >> 24);
    }
    return (fbb_ref)obj;
}

int fbb_finish(fbb *b, fbb_ref root, const char *ident)
{
    size_t extra = ident ? 8 : 4;

    fbb_no_table(b);
    fbb_prep(b, b->minalign > 4 ? b->minalign : 4, extra);
    if (ident)
        fbb_put(b, ident, 4);
    fbb_put_le(b, fbb_uoffset_to(b, root), 4);
    return b->err ? -1 : 0;
}

const uint8_t *fbb_data(const fbb *b, size_t *size)
{
    *size = b->size;
    return b->buf ? b->buf + b->cap - b->size : NULL;
}

/* =====================================================================
 * TFLite options helpers */

tflb_options tflb_opt_none(void)
{
    tflb_options o;

    memset(&o, 0, sizeof(o));
    o.type = TE_OPT_NONE;
    o.dilation_w = o.dilation_h = 1;
    o.n_dims = -1;
    return o;
}

tflb_options tflb_opt_empty(int type)
{
    tflb_options o = tflb_opt_none();

    o.type = type;
    return o;
}

tflb_options tflb_opt_conv2d(int padding, int stride_w, int stride_h, int act)
{
    tflb_options o = tflb_opt_empty(TE_OPT_CONV2D);

    o.padding = padding;
    o.stride_w = stride_w;
    o.stride_h = stride_h;
    o.activation = act;
    return o;
}

tflb_options tflb_opt_dwconv2d(int padding, int stride_w, int stride_h,
                               int depth_multiplier, int act)
{
    tflb_options o = tflb_opt_conv2d(padding, stride_w, stride_h, act);

    o.type = TE_OPT_DEPTHWISE_CONV2D;
    o.depth_multiplier = depth_multiplier;
    return o;
}

tflb_options tflb_opt_pool2d(int padding, int stride_w, int stride_h,
                             int filter_w, int filter_h, int act)
{
    tflb_options o = tflb_opt_conv2d(padding, stride_w, stride_h, act);

    o.type = TE_OPT_POOL2D;
    o.filter_w = filter_w;
    o.filter_h = filter_h;
    return o;
}

tflb_options tflb_opt_fc(int act, int keep_num_dims)
{
    tflb_options o = tflb_opt_empty(TE_OPT_FULLY_CONNECTED);

    o.activation = act;
    o.keep_dims = keep_num_dims;
    return o;
}

tflb_options tflb_opt_softmax(float beta)
{
    tflb_options o = tflb_opt_empty(TE_OPT_SOFTMAX);

    o.beta = beta;
    return o;
}

tflb_options tflb_opt_concat(int axis, int act)
{
    tflb_options o = tflb_opt_empty(TE_OPT_CONCATENATION);

    o.axis = axis;
    o.activation = act;
    return o;
}

static tflb_options tflb_opt_act(int type, int act)
{
    tflb_options o = tflb_opt_empty(type);

    o.activation = act;
    return o;
}

tflb_options tflb_opt_add(int act) { return tflb_opt_act(TE_OPT_ADD, act); }
tflb_options tflb_opt_mul(int act) { return tflb_opt_act(TE_OPT_MUL, act); }
tflb_options tflb_opt_sub(int act) { return tflb_opt_act(TE_OPT_SUB, act); }
tflb_options tflb_opt_div(int act) { return tflb_opt_act(TE_OPT_DIV, act); }

static tflb_options tflb_opt_dims(int type, const int32_t *dims, int n)
{
    tflb_options o = tflb_opt_empty(type);
    int i;

    if (n > TFLB_MAX_RANK)
        n = TFLB_MAX_RANK;
    o.n_dims = n;
    for (i = 0; i < n; i++)
        o.dims[i] = dims[i];
    return o;
}

tflb_options tflb_opt_reshape(const int32_t *new_shape, int n)
{
    return tflb_opt_dims(TE_OPT_RESHAPE, new_shape, n);
}

tflb_options tflb_opt_squeeze(const int32_t *dims, int n)
{
    return tflb_opt_dims(TE_OPT_SQUEEZE, dims, n);
}

tflb_options tflb_opt_pack(int type, int count, int axis)
{
    tflb_options o = tflb_opt_empty(type);

    o.count = count;
    o.axis = axis;
    return o;
}

tflb_options tflb_opt_split(int type, int count)
{
    tflb_options o = tflb_opt_empty(type);

    o.count = count;
    return o;
}

tflb_options tflb_opt_leaky_relu(float alpha)
{
    tflb_options o = tflb_opt_empty(TE_OPT_LEAKY_RELU);

    o.alpha = alpha;
    return o;
}

tflb_options tflb_opt_batch_matmul(int adj_x, int adj_y)
{
    tflb_options o = tflb_opt_empty(TE_OPT_BATCH_MAT_MUL);

    o.adj_x = adj_x;
    o.adj_y = adj_y;
    return o;
}

tflb_options tflb_opt_sequence_lstm(int act, float cell_clip, int time_major)
{
    tflb_options o = tflb_opt_empty(TE_OPT_UNIDIRECTIONAL_SEQUENCE_LSTM);

    o.activation = act;
    o.cell_clip = cell_clip;
    o.time_major = time_major;
    return o;
}

tflb_options tflb_opt_reducer(int keep_dims)
{
    tflb_options o = tflb_opt_empty(TE_OPT_REDUCER);

    o.keep_dims = keep_dims;
    return o;
}

tflb_options tflb_opt_transpose_conv(int padding, int stride_w, int stride_h, int act)
{
    tflb_options o = tflb_opt_conv2d(padding, stride_w, stride_h, act);

    o.type = TE_OPT_TRANSPOSE_CONV;
    return o;
}

tflb_options tflb_opt_strided_slice(int begin_mask, int end_mask, int shrink_axis_mask)
{
    tflb_options o = tflb_opt_empty(TE_OPT_STRIDED_SLICE);

    o.masks[0] = begin_mask;
    o.masks[1] = end_mask;
    o.masks[4] = shrink_axis_mask;
    return o;
}

tflb_options tflb_opt_space_depth(int type, int block_size)
{
    tflb_options o = tflb_opt_empty(type);

    o.block_size = block_size;
    return o;
}

tflb_options tflb_opt_mirror_pad(int mode)
{
    tflb_options o = tflb_opt_empty(TE_OPT_MIRROR_PAD);

    o.mirror_mode = mode;
    return o;
}

tflb_options tflb_opt_resize_nearest(int align_corners, int half_pixel_centers)
{
    tflb_options o = tflb_opt_empty(TE_OPT_RESIZE_NEAREST_NEIGHBOR);

    o.align_corners = align_corners;
    o.half_pixel_centers = half_pixel_centers;
    return o;
}

tflb_options tflb_opt_resize_bilinear(int align_corners, int half_pixel_centers)
{
    tflb_options o = tflb_opt_empty(TE_OPT_RESIZE_BILINEAR);

    o.align_corners = align_corners;
    o.half_pixel_centers = half_pixel_centers;
    return o;
}

tflb_options tflb_opt_cumsum(int exclusive, int reverse)
{
    tflb_options o = tflb_opt_empty(TE_OPT_CUMSUM);

    o.exclusive = exclusive;
    o.reverse = reverse;
    return o;
}

tflb_options tflb_opt_var_handle(const char *container, const char *shared_name)
{
    tflb_options o = tflb_opt_empty(TE_OPT_VAR_HANDLE);
    o.container = container;
    o.shared_name = shared_name;
    return o;
}

tflb_options tflb_opt_call_once(int init_subgraph_index)
{
    tflb_options o = tflb_opt_empty(TE_OPT_CALL_ONCE);
    o.subgraph[0] = init_subgraph_index;
    return o;
}

tflb_quant tflb_quant1(const float *scale, const int64_t *zero_point)
{
    tflb_quant q;

    q.n_scale = 1;
    q.scale = scale;
    q.n_zero_point = 1;
    q.zero_point = zero_point;
    q.quantized_dimension = 0;
    return q;
}

/* =====================================================================
 * TFLite model: building in memory */

/* Ensures room for one more element in a growing array. */
static int tflb_grow(tflb_model *m, void **arr, int n, int *cap, size_t elem)
{
    void *p;
    int ncap;

    if (m->err)
        return -1;
    if (n < *cap)
        return 0;
    ncap = *cap ? *cap * 2 : 8;
    p = realloc(*arr, (size_t)ncap * elem);
    if (!p) {
        m->err = 1;
        return -1;
    }
    *arr = p;
    *cap = ncap;
    return 0;
}

static void *tflb_memdup(tflb_model *m, const void *src, size_t n)
{
    void *p;

    if (n == 0 || !src)
        return NULL;
    p = malloc(n);
    if (!p) {
        m->err = 1;
        return NULL;
    }
    memcpy(p, src, n);
    return p;
}

static char *tflb_strdup(tflb_model *m, const char *s)
{
    return s ? tflb_memdup(m, s, strlen(s) + 1) : NULL;
}

void tflb_init(tflb_model *m)
{
    memset(m, 0, sizeof(*m));
    m->schema_version = 3;
    tflb_add_buffer(m, NULL, 0);
}

void tflb_free(tflb_model *m)
{
    int i;

    for (i = 0; i < m->n_buffers; i++)
        free(m->buffers[i].data);
    for (i = 0; i < m->n_tensors; i++) {
        free(m->tensors[i].name);
        free(m->tensors[i].scale);
        free(m->tensors[i].zp);
    }
    for (i = 0; i < m->n_opcodes; i++)
        free(m->opcodes[i].custom_code);
    for (i = 0; i < m->n_ops; i++) {
        free(m->ops[i].in);
        free(m->ops[i].out);
        free(m->ops[i].custom_options);
    }
    free(m->buffers);
    free(m->tensors);
    free(m->opcodes);
    free(m->ops);
    free(m->inputs);
    free(m->outputs);
    free(m->description);
    free(m->subgraph_name);
    for (i = 0; i < m->n_extra; i++) {
        tflb_free(m->extra[i]);
        free(m->extra[i]);
    }
    free(m->extra);
    memset(m, 0, sizeof(*m));
}

/* ---- FlexBuffers map (see tflite_builder.h) ----
 * Layout: the keys (NUL-terminated), padding to 4, the key vector (its
 * length, then per key a 4-byte offset back to it), the map's prefix (the
 * offset back to the key vector, its width 4, the entry count), the values
 * (4 bytes each), one packed type byte per value, the root (a 4-byte
 * offset back to the map, its packed type MAP/32-bit, its width 4). */
static void flex_put32(uint8_t *p, uint32_t v)
{
    int k;
    for (k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static int flex_key_order(const void *a, const void *b)
{
    return strcmp(((const tflb_flex_entry *)a)->key, ((const tflb_flex_entry *)b)->key);
}

size_t tflb_flex_map(uint8_t *out, size_t cap, const tflb_flex_entry *e, int n)
{
    enum { T_INT = 1, T_FLOAT = 3, T_MAP = 9, T_BOOL = 26, W4 = 2 };
    tflb_flex_entry sorted[64];
    size_t key_at[64], pos = 0, keys, map, need = 0;
    int i;
    if (n < 0 || n > 64)
        return 0;
    memcpy(sorted, e, sizeof *e * (size_t)n);
    qsort(sorted, (size_t)n, sizeof *sorted, flex_key_order);
    for (i = 0; i < n; i++)
        need += strlen(sorted[i].key) + 1;
    need = ((need + 3) & ~(size_t)3) + 4 + 4 * (size_t)n + 12 + 5 * (size_t)n + 6;
    if (need > cap)
        return 0;
    memset(out, 0, need);
    for (i = 0; i < n; i++) {
        key_at[i] = pos;
        memcpy(out + pos, sorted[i].key, strlen(sorted[i].key) + 1);
        pos += strlen(sorted[i].key) + 1;
    }
    pos = (pos + 3) & ~(size_t)3;
    flex_put32(out + pos, (uint32_t)n);
    keys = pos + 4;
    for (i = 0; i < n; i++)
        flex_put32(out + keys + 4 * (size_t)i, (uint32_t)(keys + 4 * (size_t)i - key_at[i]));
    pos = keys + 4 * (size_t)n;
    flex_put32(out + pos, (uint32_t)(pos - keys));
    flex_put32(out + pos + 4, 4);
    flex_put32(out + pos + 8, (uint32_t)n);
    map = pos + 12;
    for (i = 0; i < n; i++) {
        uint8_t *v = out + map + 4 * (size_t)i;
        int type = sorted[i].kind == TFLB_FLEX_INT ? T_INT
                   : sorted[i].kind == TFLB_FLEX_FLOAT ? T_FLOAT : T_BOOL;
        if (type == T_FLOAT) {
            float f = (float)sorted[i].value;
            uint32_t u;
            memcpy(&u, &f, 4);
            flex_put32(v, u);
        } else {
            flex_put32(v, (uint32_t)(int32_t)sorted[i].value);
        }
        out[map + 4 * (size_t)n + (size_t)i] = (uint8_t)(type << 2 | W4);
    }
    pos = map + 5 * (size_t)n;
    flex_put32(out + pos, (uint32_t)(pos - map));
    out[pos + 4] = T_MAP << 2 | W4;
    out[pos + 5] = 4;
    return pos + 6;
}

tflb_model *tflb_add_subgraph(tflb_model *m)
{
    tflb_model **grown = realloc(m->extra, sizeof *grown * (size_t)(m->n_extra + 1));
    tflb_model *sub = calloc(1, sizeof *sub);
    if (grown)
        m->extra = grown;
    if (!grown || !sub) {
        free(sub);
        m->err = 1;
        return NULL;
    }
    m->extra[m->n_extra++] = sub;
    return sub;
}

void tflb_set_description(tflb_model *m, const char *s)
{
    free(m->description);
    m->description = tflb_strdup(m, s);
}

int tflb_add_buffer(tflb_model *m, const void *data, size_t bytes)
{
    tflb_buffer *b;

    if (tflb_grow(m, (void **)&m->buffers, m->n_buffers, &m->cap_buffers, sizeof(*b)))
        return -1;
    b = &m->buffers[m->n_buffers];
    b->data = tflb_memdup(m, data, bytes);
    b->bytes = b->data ? bytes : 0;
    return m->n_buffers++;
}

static void tflb_copy_quant(tflb_model *m, tflb_tensor *t, const tflb_quant *q)
{
    t->has_quant = q != NULL;
    if (!q)
        return;
    t->n_scale = q->n_scale > 0 ? q->n_scale : 0;
    t->n_zp = q->n_zero_point > 0 ? q->n_zero_point : 0;
    t->qdim = q->quantized_dimension;
    t->scale = tflb_memdup(m, q->scale, (size_t)t->n_scale * sizeof(float));
    t->zp = tflb_memdup(m, q->zero_point, (size_t)t->n_zp * sizeof(int64_t));
    if (!t->scale)
        t->n_scale = 0;
    if (!t->zp)
        t->n_zp = 0;
}

int tflb_add_tensor(tflb_model *m, const char *name, int type, const int32_t *shape,
                    int rank, uint32_t buffer, const tflb_quant *q)
{
    tflb_tensor *t;
    int i;

    if (tflb_grow(m, (void **)&m->tensors, m->n_tensors, &m->cap_tensors, sizeof(*t)))
        return -1;
    t = &m->tensors[m->n_tensors];
    memset(t, 0, sizeof(*t));
    t->name = tflb_strdup(m, name ? name : "");
    t->type = type;
    t->rank = rank < 0 ? 0 : (rank > TFLB_MAX_RANK ? TFLB_MAX_RANK : rank);
    for (i = 0; i < t->rank; i++)
        t->shape[i] = shape[i];
    t->buffer = buffer;
    tflb_copy_quant(m, t, q);
    return m->n_tensors++;
}

int tflb_add_const(tflb_model *m, const char *name, int type, const int32_t *shape,
                   int rank, const void *data, size_t bytes, const tflb_quant *q)
{
    int b = tflb_add_buffer(m, data, bytes);

    if (b < 0)
        return -1;
    return tflb_add_tensor(m, name, type, shape, rank, (uint32_t)b, q);
}

int tflb_add_opcode(tflb_model *m, int builtin, int version)
{
    tflb_opcode *c;

    if (tflb_grow(m, (void **)&m->opcodes, m->n_opcodes, &m->cap_opcodes, sizeof(*c)))
        return -1;
    c = &m->opcodes[m->n_opcodes];
    c->builtin = builtin;
    c->version = version;
    c->custom_code = NULL;
    return m->n_opcodes++;
}

int tflb_add_custom_opcode(tflb_model *m, const char *custom_code, int version)
{
    int i = tflb_add_opcode(m, TE_OP_CUSTOM, version);

    if (i >= 0)
        m->opcodes[i].custom_code = tflb_strdup(m, custom_code);
    return i;
}

static int32_t *tflb_dup_ids(tflb_model *m, const int32_t *v, int n)
{
    int32_t *p = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));

    if (!p) {
        m->err = 1;
        return NULL;
    }
    if (n > 0)
        memcpy(p, v, (size_t)n * sizeof(int32_t));
    return p;
}

int tflb_add_op(tflb_model *m, int opcode_index, const int32_t *in, int n_in,
                const int32_t *out, int n_out, const tflb_options *opt)
{
    tflb_op *o;

    if (tflb_grow(m, (void **)&m->ops, m->n_ops, &m->cap_ops, sizeof(*o)))
        return -1;
    o = &m->ops[m->n_ops];
    o->opcode = (uint32_t)opcode_index;
    o->n_in = n_in < 0 ? 0 : n_in;
    o->n_out = n_out < 0 ? 0 : n_out;
    o->in = tflb_dup_ids(m, in, o->n_in);
    o->out = tflb_dup_ids(m, out, o->n_out);
    o->opt = opt ? *opt : tflb_opt_none();
    o->custom_options = NULL;
    o->custom_options_bytes = 0;
    return m->n_ops++;
}

void tflb_set_custom_options(tflb_model *m, int op_index, const void *data, size_t bytes)
{
    tflb_op *o;

    if (op_index < 0 || op_index >= m->n_ops) {
        m->err = 1;
        return;
    }
    o = &m->ops[op_index];
    free(o->custom_options);
    o->custom_options = malloc(bytes ? bytes : 1);
    o->custom_options_bytes = o->custom_options ? bytes : 0;
    if (!o->custom_options)
        m->err = 1;
    else if (bytes)
        memcpy(o->custom_options, data, bytes);
}

static void tflb_set_ids(tflb_model *m, int32_t **dst, int *n_dst, const int32_t *t, int n)
{
    free(*dst);
    *n_dst = n < 0 ? 0 : n;
    *dst = tflb_dup_ids(m, t, *n_dst);
}

void tflb_set_inputs(tflb_model *m, const int32_t *t, int n)
{
    tflb_set_ids(m, &m->inputs, &m->n_inputs, t, n);
}

void tflb_set_outputs(tflb_model *m, const int32_t *t, int n)
{
    tflb_set_ids(m, &m->outputs, &m->n_outputs, t, n);
}

/* =====================================================================
 * TFLite model: serialization.  Field ids are those of schema.fbs:
 *   Model: version 0, operator_codes 1, subgraphs 2, description 3, buffers 4
 *   SubGraph: tensors 0, inputs 1, outputs 2, operators 3, name 4
 *   Buffer: data 0 (force_align 16)
 *   OperatorCode: deprecated_builtin_code 0 (i8), custom_code 1, version 2,
 *                 builtin_code 3 (i32)
 *   Operator: opcode_index 0, inputs 1, outputs 2, builtin_options_type 3,
 *             builtin_options 4, custom_options 5
 *   Tensor: shape 0, type 1, buffer 2, name 3, quantization 4, is_variable 5
 *   QuantizationParameters: min 0, max 1, scale 2, zero_point 3,
 *             details_type 4, details 5, quantized_dimension 6 */

static fbb_ref tflb_write_buffer(fbb *b, const tflb_buffer *buf)
{
    fbb_ref data = 0;

    if (buf->bytes)
        data = fbb_vec_u8(b, buf->data, (uint32_t)buf->bytes, 16);
    fbb_start(b);
    if (data)
        fbb_add_ref(b, 0, data);
    return fbb_end(b);
}

static fbb_ref tflb_write_opcode(fbb *b, const tflb_opcode *c)
{
    fbb_ref custom = c->custom_code ? fbb_string(b, c->custom_code) : 0;
    int dep = c->builtin < TE_OP_PLACEHOLDER_FOR_GREATER_OP_CODES
                  ? c->builtin : TE_OP_PLACEHOLDER_FOR_GREATER_OP_CODES;

    fbb_start(b);
    fbb_add_i32(b, 3, c->builtin);
    fbb_add_i32(b, 2, c->version);
    if (custom)
        fbb_add_ref(b, 1, custom);
    fbb_add_u8(b, 0, (uint8_t)(int8_t)dep);
    return fbb_end(b);
}

static fbb_ref tflb_write_quant(fbb *b, const tflb_tensor *t)
{
    fbb_ref scale = fbb_vec_f32(b, t->scale, (uint32_t)t->n_scale);
    fbb_ref zp = fbb_vec_i64(b, t->zp, (uint32_t)t->n_zp);

    fbb_start(b);
    fbb_add_i32(b, 6, t->qdim);
    fbb_add_ref(b, 3, zp);
    fbb_add_ref(b, 2, scale);
    return fbb_end(b);
}

static fbb_ref tflb_write_tensor(fbb *b, const tflb_tensor *t)
{
    fbb_ref quant = t->has_quant ? tflb_write_quant(b, t) : 0;
    fbb_ref name = fbb_string(b, t->name ? t->name : "");
    fbb_ref shape = fbb_vec_i32(b, t->shape, (uint32_t)t->rank);

    fbb_start(b);
    if (quant)
        fbb_add_ref(b, 4, quant);
    fbb_add_ref(b, 3, name);
    fbb_add_u32(b, 2, t->buffer);
    fbb_add_ref(b, 0, shape);
    fbb_add_u8(b, 1, (uint8_t)t->type);
    if (t->is_variable)
        fbb_add_u8(b, 5, 1);
    return fbb_end(b);
}

/* Writes the fields of the options table that belong to o->type. */
static void tflb_write_option_fields(fbb *b, const tflb_options *o, fbb_ref dims)
{
    switch (o->type) {
    case TE_OPT_CONV2D:
    case TE_OPT_DEPTHWISE_CONV2D: {
        int dw = o->type == TE_OPT_DEPTHWISE_CONV2D;  /* ids shift by one */
        fbb_add_i32(b, 1, o->stride_w);
        fbb_add_i32(b, 2, o->stride_h);
        if (dw)
            fbb_add_i32(b, 3, o->depth_multiplier);
        if (o->dilation_w != 1)
            fbb_add_i32(b, 4 + dw, o->dilation_w);
        if (o->dilation_h != 1)
            fbb_add_i32(b, 5 + dw, o->dilation_h);
        fbb_add_u8(b, 0, (uint8_t)o->padding);
        fbb_add_u8(b, 3 + dw, (uint8_t)o->activation);
        break;
    }
    case TE_OPT_POOL2D:
        fbb_add_i32(b, 1, o->stride_w);
        fbb_add_i32(b, 2, o->stride_h);
        fbb_add_i32(b, 3, o->filter_w);
        fbb_add_i32(b, 4, o->filter_h);
        fbb_add_u8(b, 0, (uint8_t)o->padding);
        fbb_add_u8(b, 5, (uint8_t)o->activation);
        break;
    case TE_OPT_FULLY_CONNECTED:
        fbb_add_u8(b, 0, (uint8_t)o->activation);
        if (o->keep_dims)
            fbb_add_u8(b, 2, 1);
        break;
    case TE_OPT_SOFTMAX:
        fbb_add_f32(b, 0, o->beta);
        break;
    case TE_OPT_CONCATENATION:
        fbb_add_i32(b, 0, o->axis);
        fbb_add_u8(b, 1, (uint8_t)o->activation);
        break;
    case TE_OPT_ADD:
    case TE_OPT_MUL:
    case TE_OPT_SUB:
    case TE_OPT_DIV:
    case TE_OPT_L2NORM:
        fbb_add_u8(b, 0, (uint8_t)o->activation);
        break;
    case TE_OPT_RESHAPE:
    case TE_OPT_SQUEEZE:
        if (dims)
            fbb_add_ref(b, 0, dims);
        break;
    case TE_OPT_REDUCER:
        fbb_add_u8(b, 0, (uint8_t)(o->keep_dims != 0));
        break;
    case TE_OPT_TRANSPOSE_CONV:
        fbb_add_i32(b, 1, o->stride_w);
        fbb_add_i32(b, 2, o->stride_h);
        fbb_add_u8(b, 0, (uint8_t)o->padding);
        fbb_add_u8(b, 3, (uint8_t)o->activation);
        break;
    case TE_OPT_STRIDED_SLICE: {
        int i;
        for (i = 0; i < 5; i++)
            fbb_add_i32(b, i, o->masks[i]);
        break;
    }
    case TE_OPT_RESIZE_NEAREST_NEIGHBOR:
        fbb_add_u8(b, 0, (uint8_t)(o->align_corners != 0));
        fbb_add_u8(b, 1, (uint8_t)(o->half_pixel_centers != 0));
        break;
    case TE_OPT_RESIZE_BILINEAR: /* fields 0, 1: the deprecated new_height/width */
        fbb_add_u8(b, 2, (uint8_t)(o->align_corners != 0));
        fbb_add_u8(b, 3, (uint8_t)(o->half_pixel_centers != 0));
        break;
    case TE_OPT_SPACE_TO_DEPTH:
    case TE_OPT_DEPTH_TO_SPACE:
        fbb_add_i32(b, 0, o->block_size);
        break;
    case TE_OPT_MIRROR_PAD:
        fbb_add_u8(b, 0, (uint8_t)o->mirror_mode);
        break;
    case TE_OPT_CUMSUM:
        fbb_add_u8(b, 0, (uint8_t)(o->exclusive != 0));
        fbb_add_u8(b, 1, (uint8_t)(o->reverse != 0));
        break;
    case TE_OPT_CALL_ONCE:
        fbb_add_i32(b, 0, o->subgraph[0]);
        break;
    case TE_OPT_PACK:
    case TE_OPT_UNPACK:
        fbb_add_i32(b, 0, o->count);
        fbb_add_i32(b, 1, o->axis);
        break;
    case TE_OPT_SPLIT:
    case TE_OPT_SPLIT_V:
        fbb_add_i32(b, 0, o->count);
        break;
    case TE_OPT_LEAKY_RELU:
        fbb_add_f32(b, 0, o->alpha);
        break;
    case TE_OPT_UNIDIRECTIONAL_SEQUENCE_LSTM:
        fbb_add_f32(b, 1, o->cell_clip);
        fbb_add_u8(b, 0, (uint8_t)o->activation);
        fbb_add_u8(b, 3, (uint8_t)(o->time_major != 0));
        break;
    case TE_OPT_BATCH_MAT_MUL:
        fbb_add_u8(b, 0, (uint8_t)(o->adj_x != 0));
        fbb_add_u8(b, 1, (uint8_t)(o->adj_y != 0));
        break;
    case TE_OPT_IF:
    case TE_OPT_WHILE:
        fbb_add_i32(b, 0, o->subgraph[0]);
        fbb_add_i32(b, 1, o->subgraph[1]);
        break;
    default:
        break;  /* other option tables are written empty */
    }
}

/* VarHandleOptions: its strings are written before the table. */
static fbb_ref tflb_write_var_handle(fbb *b, const tflb_options *o)
{
    fbb_ref container = o->container ? fbb_string(b, o->container) : 0;
    fbb_ref name = o->shared_name ? fbb_string(b, o->shared_name) : 0;
    fbb_start(b);
    if (container)
        fbb_add_ref(b, 0, container);
    if (name)
        fbb_add_ref(b, 1, name);
    return fbb_end(b);
}

static fbb_ref tflb_write_options(fbb *b, const tflb_options *o)
{
    fbb_ref dims = 0;

    if (o->type == TE_OPT_NONE)
        return 0;
    if (o->type == TE_OPT_VAR_HANDLE)
        return tflb_write_var_handle(b, o);
    if ((o->type == TE_OPT_RESHAPE || o->type == TE_OPT_SQUEEZE) && o->n_dims >= 0)
        dims = fbb_vec_i32(b, o->dims, (uint32_t)o->n_dims);
    fbb_start(b);
    tflb_write_option_fields(b, o, dims);
    return fbb_end(b);
}

static fbb_ref tflb_write_op(fbb *b, const tflb_op *o)
{
    fbb_ref custom = o->custom_options
                         ? fbb_vec_u8(b, o->custom_options, (uint32_t)o->custom_options_bytes, 1)
                         : 0;
    fbb_ref opts = tflb_write_options(b, &o->opt);
    fbb_ref out = fbb_vec_i32(b, o->out, (uint32_t)o->n_out);
    fbb_ref in = fbb_vec_i32(b, o->in, (uint32_t)o->n_in);

    fbb_start(b);
    if (custom)
        fbb_add_ref(b, 5, custom);
    if (opts)
        fbb_add_ref(b, 4, opts);
    fbb_add_ref(b, 2, out);
    fbb_add_ref(b, 1, in);
    fbb_add_u32(b, 0, o->opcode);
    if (opts)
        fbb_add_u8(b, 3, (uint8_t)o->opt.type);
    return fbb_end(b);
}

/* Writes n objects with fn and the vector of offsets to them. */
#define TFLB_WRITE_ALL(b, items, n, fn, result)                      \
    do {                                                             \
        fbb_ref *refs_ = malloc(sizeof(fbb_ref) * (size_t)((n) + 1)); \
        int i_;                                                      \
        if (!refs_) {                                                \
            (b)->err = 1;                                            \
            (result) = 0;                                            \
            break;                                                   \
        }                                                            \
        for (i_ = (n) - 1; i_ >= 0; i_--)                            \
            refs_[i_] = fn((b), &(items)[i_]);                       \
        (result) = fbb_vec_ref((b), refs_, (uint32_t)(n));           \
        free(refs_);                                                 \
    } while (0)

static fbb_ref tflb_write_subgraph(fbb *b, const tflb_model *m)
{
    fbb_ref name, ops, outs, ins, tensors;

    name = fbb_string(b, m->subgraph_name ? m->subgraph_name : "main");
    TFLB_WRITE_ALL(b, m->ops, m->n_ops, tflb_write_op, ops);
    outs = fbb_vec_i32(b, m->outputs, (uint32_t)m->n_outputs);
    ins = fbb_vec_i32(b, m->inputs, (uint32_t)m->n_inputs);
    TFLB_WRITE_ALL(b, m->tensors, m->n_tensors, tflb_write_tensor, tensors);
    fbb_start(b);
    fbb_add_ref(b, 4, name);
    fbb_add_ref(b, 3, ops);
    fbb_add_ref(b, 2, outs);
    fbb_add_ref(b, 1, ins);
    fbb_add_ref(b, 0, tensors);
    return fbb_end(b);
}

static fbb_ref tflb_write_model(fbb *b, const tflb_model *m)
{
    fbb_ref buffers, opcodes, subgraphs, desc, *sg;
    int i;

    /* Buffers first: they end up at the end of the file, as in converter
     * output, keeping the tables compact. */
    TFLB_WRITE_ALL(b, m->buffers, m->n_buffers, tflb_write_buffer, buffers);
    sg = malloc(sizeof *sg * (size_t)(m->n_extra + 1));
    if (!sg) {
        b->err = 1;
        return 0;
    }
    for (i = m->n_extra; i >= 1; i--)
        sg[i] = tflb_write_subgraph(b, m->extra[i - 1]);
    sg[0] = tflb_write_subgraph(b, m);
    subgraphs = fbb_vec_ref(b, sg, (uint32_t)(m->n_extra + 1));
    free(sg);
    TFLB_WRITE_ALL(b, m->opcodes, m->n_opcodes, tflb_write_opcode, opcodes);
    desc = fbb_string(b, m->description ? m->description : "tinyengine te_mkmodel");
    fbb_start(b);
    fbb_add_ref(b, 4, buffers);
    fbb_add_ref(b, 3, desc);
    fbb_add_ref(b, 2, subgraphs);
    fbb_add_ref(b, 1, opcodes);
    fbb_add_u32(b, 0, m->schema_version);
    return fbb_end(b);
}

int tflb_finish(const tflb_model *m, uint8_t **out, size_t *size)
{
    fbb b;
    const uint8_t *data;
    int rc = -1, i;

    *out = NULL;
    *size = 0;
    if (m->err)
        return -1;
    for (i = 0; i < m->n_extra; i++)
        if (m->extra[i]->err)
            return -1;
    fbb_init(&b);
    if (fbb_finish(&b, tflb_write_model(&b, m), "TFL3") == 0) {
        data = fbb_data(&b, size);
        *out = malloc(*size);
        if (*out) {
            memcpy(*out, data, *size);
            rc = 0;
        }
    }
    fbb_free(&b);
    if (rc)
        *size = 0;
    return rc;
}

int tflb_write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "tflite_builder: cannot write '%s'\n", path);
    return ok ? 0 : -1;
}

int tflb_write_file(const tflb_model *m, const char *path)
{
    uint8_t *data;
    size_t size;
    int rc;

    if (tflb_finish(m, &data, &size)) {
        fprintf(stderr, "tflite_builder: cannot serialize the model (out of memory?)\n");
        return -1;
    }
    rc = tflb_write_bytes(path, data, size);
    free(data);
    return rc;
}
