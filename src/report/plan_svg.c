/* plan_svg.c - draws the memory plan as SVG (see plan_svg.h).
 *
 * Layout, top to bottom: title and figures, legend, the peak label, the
 * main chart (x = schedule step, y = arena address, 0 at the bottom), the
 * live-bytes bar row, and the op labels (index and type, thinned out when
 * the columns are narrow).  Column widths scale with the number of steps so
 * the picture stays about 1000 px wide. */
#include "plan_svg.h"

#include <stdio.h>
#include <string.h>

#define LEFT 84.0        /* room for the address labels */
#define RIGHT 24.0
#define MAIN_TOP 128.0
#define MAIN_H 380.0
#define LIVE_GAP 26.0
#define LIVE_H 84.0
#define PLOT_W 1000.0    /* target width of the step axis */
#define MIN_WIDTH 820.0  /* title and legend need this much */
#define CHAR_W 6.2       /* average glyph width at 11 px */
#define CAPS_W 7.2       /* the same for the upper-case op labels */

static const char *const kind_color[TE_SEG_N_KINDS] = {"#4e79a7", "#f28e2b", "#b07aa1", "#59a14f",
                                                       "#e3b505"};
static const char *const kind_label[TE_SEG_N_KINDS] = {
    "activation tensor", "in-place output (over its input)", "scratch", "graph input",
    "graph output"};
#define PEAK_COLOR "#d62728"

typedef struct {
    const te_plan_view *v;
    te_buf *o;
    int n;              /* steps */
    double colw;        /* px per step */
    double width, height;
    double live_top, label_top;
    double ymax;        /* bytes at the top of the main chart */
    double tick;        /* bytes between address ticks */
    int label_every;    /* label every k-th step */
} layout;

/* ---- small helpers --------------------------------------------------- */

/* 55296 -> "55,296" */
static const char *grouped(char *buf, size_t n, size_t v)
{
    char tmp[32];
    size_t len, i, j = 0;
    snprintf(tmp, sizeof tmp, "%zu", v);
    len = strlen(tmp);
    for (i = 0; i < len && j + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[j++] = ',';
        buf[j++] = tmp[i];
    }
    buf[j] = '\0';
    return buf;
}

static void xml_text(te_buf *o, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': te_buf_printf(o, "&amp;"); break;
        case '<': te_buf_printf(o, "&lt;"); break;
        case '>': te_buf_printf(o, "&gt;"); break;
        case '"': te_buf_printf(o, "&quot;"); break;
        default: /* ASCII only: a name is not trusted to be valid UTF-8 */
            if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f)
                te_buf_append(o, s, 1);
            else
                te_buf_append(o, "?", 1);
        }
    }
}

static void shape_str(char *buf, size_t n, const te_tensor *t)
{
    size_t len = 0;
    int r;
    buf[0] = '\0';
    for (r = 0; r < t->rank && len + 12 < n; r++)
        len += (size_t)snprintf(buf + len, n - len, "%s%d", r ? "x" : "", t->shape[r]);
}

static double step_x(const layout *L, double s) { return LEFT + s * L->colw; }
static double addr_y(const layout *L, double a) { return MAIN_TOP + MAIN_H - a * MAIN_H / L->ymax; }
static double main_bottom(void) { return MAIN_TOP + MAIN_H; }

static const char *op_type(const layout *L, int s) { return te_plan_view_step_type(L->v, s); }
static int op_index(const layout *L, int s) { return L->v->p->schedule[s]; }

/* 1, 2 or 5 x 10^k KiB (k >= -2) in bytes, so that about `want` ticks
 * cover `range` bytes. */
static double nice_tick(double range, int want)
{
    double raw = range / want / 1024.0, base = 0.01;
    while (base * 10 <= raw)
        base *= 10;
    if (raw > 5 * base)
        base *= 10;
    else if (raw > 2 * base)
        base *= 5;
    else if (raw > base)
        base *= 2;
    return base * 1024.0;
}

/* ---- layout ---------------------------------------------------------- */

static int label_len(const layout *L, int s)
{
    char buf[64];
    return snprintf(buf, sizeof buf, "%d %s", op_index(L, s), op_type(L, s));
}

static int is_labelled(const layout *L, int s)
{
    int peak = L->v->peak_step, k = L->label_every;
    if (s == peak)
        return 1;
    if (peak >= 0 && s != peak && s > peak - k && s < peak + k)
        return 0; /* keep the peak's label clear */
    return s % k == 0;
}

static void make_layout(layout *L, const te_plan_view *v, te_buf *o)
{
    const te_plan *p = v->p;
    double top = (double)p->arena_bytes;
    int s, longest = 0;
    L->v = v;
    L->o = o;
    L->n = p->n_steps > 0 ? p->n_steps : 1;
    L->colw = PLOT_W / L->n;
    if (L->colw > 110)
        L->colw = 110;
    L->label_every = L->colw >= 12 ? 1 : (int)(12.0 / L->colw + 0.999);
    if (p->bound_no_inplace > top)
        top = (double)p->bound_no_inplace;
    if (top < 16)
        top = 16;
    L->ymax = top * 1.08; /* headroom for the arena line's label */
    L->tick = nice_tick(L->ymax, 6);
    for (s = 0; s < p->n_steps; s++)
        if (is_labelled(L, s) && label_len(L, s) > longest)
            longest = label_len(L, s);
    L->live_top = main_bottom() + LIVE_GAP;
    L->label_top = L->live_top + LIVE_H + 6;
    L->width = LEFT + L->n * L->colw + RIGHT;
    if (L->width < MIN_WIDTH)
        L->width = MIN_WIDTH;
    L->height = L->label_top + longest * CAPS_W + 30;
}

/* ---- pieces of the picture ------------------------------------------- */

static void draw_header(const layout *L, const te_plan_svg_opts *opt)
{
    const te_plan *p = L->v->p;
    char a[32], b[32], c[32];
    te_buf *o = L->o;
    te_buf_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"Helvetica, Arial, sans-serif\" "
                     "font-size=\"11\">\n",
                  L->width, L->height, L->width, L->height);
    te_buf_printf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
    te_buf_printf(o, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">", LEFT);
    xml_text(o, opt && opt->title ? opt->title : "model");
    te_buf_printf(o, ": static memory plan</text>\n");
    te_buf_printf(o, "<text x=\"%.0f\" y=\"44\" font-size=\"12\" fill=\"#333\">arena %s B"
                     " \xc2\xb7 live peak %s B \xc2\xb7 lifetime bound without in-place %s B"
                     " \xc2\xb7 %d operators, %d buffers</text>\n",
                  LEFT, grouped(a, sizeof a, p->arena_bytes), grouped(b, sizeof b, p->lower_bound),
                  grouped(c, sizeof c, p->bound_no_inplace), p->n_steps, p->n_buffers);
}

static double legend_item(const layout *L, double x, const char *label, const char *swatch)
{
    te_buf_printf(L->o, "<g transform=\"translate(%.1f,62)\">%s", x, swatch);
    te_buf_printf(L->o, "<text x=\"18\" y=\"10\">%s</text></g>\n", label);
    return x + 18 + (double)strlen(label) * CHAR_W + 16;
}

static void draw_legend(const layout *L)
{
    char sw[160];
    double x = LEFT;
    int k;
    for (k = 0; k < TE_SEG_N_KINDS; k++) {
        snprintf(sw, sizeof sw, "<rect width=\"13\" height=\"13\" fill=\"%s\"/>", kind_color[k]);
        x = legend_item(L, x, kind_label[k], sw);
    }
    x = LEFT;
    te_buf_printf(L->o, "<g transform=\"translate(0,20)\">\n");
    x = legend_item(L, x, "peak step",
                    "<rect width=\"13\" height=\"13\" fill=\"" PEAK_COLOR "\" fill-opacity=\"0.18\" "
                    "stroke=\"" PEAK_COLOR "\"/>");
    x = legend_item(L, x, "arena size",
                    "<line x1=\"0\" y1=\"7\" x2=\"13\" y2=\"7\" stroke=\"#111\" stroke-width=\"1.5\" "
                    "stroke-dasharray=\"4,2\"/>");
    if (L->v->p->bound_no_inplace != L->v->p->arena_bytes)
        x = legend_item(L, x, "lifetime bound without in-place",
                        "<line x1=\"0\" y1=\"7\" x2=\"13\" y2=\"7\" stroke=\"#777\" "
                        "stroke-width=\"1.5\" stroke-dasharray=\"1,2\"/>");
    if (L->v->p->has_tie) {
        snprintf(sw, sizeof sw, "<rect width=\"13\" height=\"13\" fill=\"%s\" "
                 "fill-opacity=\"0.6\" stroke=\"#222\" stroke-dasharray=\"4 2\"/>",
                 kind_color[TE_SEG_INPUT]);
        legend_item(L, x, "input inside the patch stage's output", sw);
    }
    te_buf_printf(L->o, "</g>\n");
}

static void draw_address_axis(const layout *L)
{
    double a, x1 = LEFT + L->n * L->colw;
    te_buf *o = L->o;
    for (a = 0; a <= L->ymax + 0.5; a += L->tick) {
        double y = addr_y(L, a);
        te_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
                      LEFT, y, x1, y);
        te_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g KiB</text>\n", LEFT - 6,
                      y + 4, a / 1024.0);
    }
    te_buf_printf(o, "<text transform=\"translate(14,%.1f) rotate(-90)\" text-anchor=\"middle\" "
                     "font-size=\"12\">arena address (offset)</text>\n",
                  MAIN_TOP + MAIN_H / 2);
}

/* The patch stages' steps: a grey band under everything (label = 0), or
 * each stage's label over everything (label = 1). */
static void draw_stage(const layout *L, const te_plan_svg_opts *opt, int label)
{
    int k;
    for (k = 0; opt && k < opt->n_stages && k < TE_PLAN_SVG_STAGES; k++) {
        int first = opt->stage_first[k], last = opt->stage_last[k];
        double x0, x1;
        if (first < 0 || last < first || first >= L->v->p->n_steps)
            continue;
        x0 = step_x(L, first);
        x1 = step_x(L, (last < L->n ? last : L->n - 1) + 1);
        if (!label)
            te_buf_printf(L->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                                "fill=\"#000\" fill-opacity=\"0.08\"/>\n",
                          x0, MAIN_TOP, x1 - x0, L->live_top + LIVE_H - MAIN_TOP);
        else
            te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#444\" stroke=\"#fff\" "
                                "stroke-width=\"3\" paint-order=\"stroke\">%s</text>\n",
                          x0 + 3, MAIN_TOP + 13 + 15 * k,
                          opt->stage_label[k] ? opt->stage_label[k] : "patch stage");
    }
}

/* 1 if sg is the input a patch stage reads inside its output's place (the
 * plan's tied member, te_plan.has_tie): drawn over that output, see-through. */
static int is_overlay(const layout *L, const te_segment *sg)
{
    const te_plan *p = L->v->p;
    return p->has_tie && sg->buffer == p->tie_member;
}

static void seg_tooltip(const layout *L, const te_segment *sg)
{
    const te_graph *g = L->v->g;
    char b0[32], b1[32], b2[32], shape[96];
    te_buf *o = L->o;
    te_buf_printf(o, "<title>");
    if (sg->tensor >= 0) {
        const te_tensor *t = &g->tensors[sg->tensor];
        const te_storage *st = L->v->p->st;
        shape_str(shape, sizeof shape, t);
        te_buf_printf(o, "tensor %d '", sg->tensor);
        xml_text(o, t->name);
        te_buf_printf(o, "' %s[%s]", te_dtype_name(t->type), shape);
        if (te_storage_alias_of(st, sg->tensor) >= 0)
            te_buf_printf(o, "&#10;%s tensor %d",
                          te_storage_inplace(st, sg->tensor) ? "written in place over" : "view of",
                          te_storage_alias_of(st, sg->tensor));
        if (is_overlay(L, sg))
            te_buf_printf(o, "&#10;inside the place of the patch stage's output (tensor %d), "
                             "%zu B in: each patch writes its cell only over input bytes no "
                             "later patch reads", L->v->p->buffers[L->v->p->tie_anchor].tensor,
                          L->v->p->tie_offset);
    } else {
        if (sg->op >= 0 && sg->op < g->n_ops)
            te_buf_printf(o, "scratch of op %d (%s)", sg->op, te_opcode_name(g->ops[sg->op].opcode));
        else
            te_buf_printf(o, "working memory of the patch stage (one patch at a time)");
    }
    te_buf_printf(o, "&#10;%s B at offset %s..%s&#10;steps %d..%d: op %d (%s) .. op %d (%s)</title>",
                  grouped(b0, sizeof b0, sg->bytes), grouped(b1, sizeof b1, sg->offset),
                  grouped(b2, sizeof b2, sg->offset + sg->bytes - 1), sg->first, sg->last,
                  op_index(L, sg->first), op_type(L, sg->first), op_index(L, sg->last),
                  op_type(L, sg->last));
}

static void draw_segment(const layout *L, const te_segment *sg)
{
    double x0 = step_x(L, sg->first + (sg->from_mid ? 0.5 : 0.0)), x1 = step_x(L, sg->last + 1);
    double y0 = addr_y(L, (double)(sg->offset + sg->bytes)), y1 = addr_y(L, (double)sg->offset);
    if (y1 - y0 < 2)
        y0 = y1 - 2; /* tiny buffers stay visible */
    te_buf_printf(L->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                        "%s>",
                  x0, y0, x1 - x0, y1 - y0, kind_color[sg->kind],
                  is_overlay(L, sg) ? "fill-opacity=\"0.6\" stroke=\"#222\" stroke-width=\"1\" "
                                      "stroke-dasharray=\"4 2\""
                                    : "stroke=\"#fff\" stroke-width=\"0.7\"");
    seg_tooltip(L, sg);
    te_buf_printf(L->o, "</rect>\n");
    if (x1 - x0 >= 40 && y1 - y0 >= 14)
        te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#fff\" "
                            "font-size=\"10\" pointer-events=\"none\">%.3gK</text>\n",
                      (x0 + x1) / 2, (y0 + y1) / 2 + 3.5, (double)sg->bytes / 1024.0);
}

/* Buffers first, in-place outputs over them (they start mid-step), the
 * input inside a patch stage's output last (it overlaps that output). */
static void draw_segments(const layout *L)
{
    int pass, i;
    for (pass = 0; pass < 3; pass++)
        for (i = 0; i < L->v->n_segs; i++) {
            const te_segment *sg = &L->v->segs[i];
            if (pass == 2 ? is_overlay(L, sg) : sg->from_mid == pass && !is_overlay(L, sg))
                draw_segment(L, sg);
        }
}

static void hline(const layout *L, double y, const char *color, const char *dash, const char *label)
{
    double x1 = LEFT + L->n * L->colw;
    te_buf_printf(L->o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                        "stroke-width=\"1.5\" stroke-dasharray=\"%s\"/>\n",
                  LEFT, y, x1, y, color, dash);
    te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\" stroke=\"#fff\" "
                        "stroke-width=\"3\" paint-order=\"stroke\">%s</text>\n",
                  x1 - 4, y - 4, color, label);
}

static void draw_bound_lines(const layout *L)
{
    const te_plan *p = L->v->p;
    char a[32], label[160];
    if (p->bound_no_inplace != p->arena_bytes) {
        snprintf(label, sizeof label, "lifetime bound without in-place %s B",
                 grouped(a, sizeof a, p->bound_no_inplace));
        hline(L, addr_y(L, (double)p->bound_no_inplace), "#777", "1,2", label);
    }
    snprintf(label, sizeof label, "arena %s B%s", grouped(a, sizeof a, p->arena_bytes),
             p->arena_bytes == p->lower_bound ? " = live peak (no placement waste)" : "");
    hline(L, addr_y(L, (double)p->arena_bytes), "#111", "5,3", label);
}

/* Memory regions: a band per region under the buffers (label = 0), a line
 * at each region's end and its name, bytes and size over them (label = 1). */
static void draw_regions(const layout *L, int label)
{
    static const char *const band[2] = {"#1f77b4", "#2ca02c"};
    const te_plan *p = L->v->p;
    double x1 = LEFT + L->n * L->colw;
    int r;
    for (r = 0; r < p->n_regions; r++) {
        const te_plan_region *pr = &p->regions[r];
        double y0 = addr_y(L, (double)(pr->base + pr->bytes)), y1 = addr_y(L, (double)pr->base);
        char a[32], b[32], text[160];
        if (!label) {
            te_buf_printf(L->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                                "fill=\"%s\" fill-opacity=\"0.07\"/>\n",
                          LEFT, y0, x1 - LEFT, y1 - y0, band[r % 2]);
            continue;
        }
        te_buf_printf(L->o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                            "stroke=\"%s\" stroke-width=\"1\"/>\n",
                      LEFT, y0, x1, y0, band[r % 2]);
        snprintf(text, sizeof text, "region %s: %s of %s B", pr->spec.name,
                 grouped(a, sizeof a, pr->bytes), grouped(b, sizeof b, pr->spec.limit));
        te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" stroke=\"#fff\" "
                            "stroke-width=\"3\" paint-order=\"stroke\">",
                      LEFT + 4, y1 - 4, band[r % 2]);
        xml_text(L->o, text);
        te_buf_printf(L->o, "</text>\n");
    }
}

/* The peak step's column: a tint under the buffers (fill) or its outline
 * and label over everything. */
static void draw_peak(const layout *L, int outline)
{
    const te_plan_view *v = L->v;
    char a[32];
    double w = L->colw < 3 ? 3 : L->colw, x, cx, right = LEFT + L->n * L->colw, tx;
    const char *anchor = "middle";
    if (v->peak_step < 0)
        return;
    x = step_x(L, v->peak_step) + (L->colw - w) / 2;
    cx = x + w / 2;
    te_buf_printf(L->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n", x,
                  MAIN_TOP - 6, w, L->live_top + LIVE_H - MAIN_TOP + 6,
                  outline ? "fill=\"none\" stroke=\"" PEAK_COLOR "\" stroke-width=\"1.2\""
                          : "fill=\"" PEAK_COLOR "\" fill-opacity=\"0.16\"");
    if (!outline)
        return;
    tx = cx;
    if (cx < LEFT + 160)
        anchor = "start", tx = x;
    else if (cx > right - 160)
        anchor = "end", tx = x + w;
    te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"" PEAK_COLOR "\" "
                        "font-weight=\"bold\">peak %s B at op %d (%s)</text>\n",
                  tx, MAIN_TOP - 10, anchor, grouped(a, sizeof a, v->peak_bytes),
                  op_index(L, v->peak_step), op_type(L, v->peak_step));
}

static void draw_live_chart(const layout *L)
{
    const te_plan_view *v = L->v;
    double top = (double)(v->p->arena_bytes ? v->p->arena_bytes : 1), base = L->live_top + LIVE_H;
    char a[32];
    int s;
    te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">live</text>\n", LEFT - 6,
                  L->live_top + LIVE_H / 2 - 2);
    te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">bytes</text>\n", LEFT - 6,
                  L->live_top + LIVE_H / 2 + 11);
    te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.4g KiB</text>\n",
                  LEFT - 6, L->live_top + 4, top / 1024.0);
    te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">0</text>\n", LEFT - 6,
                  base + 4);
    te_buf_printf(L->o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#111\" "
                        "stroke-dasharray=\"5,3\"/>\n",
                  LEFT, L->live_top, LEFT + L->n * L->colw, L->live_top);
    for (s = 0; s < v->p->n_steps; s++) {
        double h = (double)v->live[s] * LIVE_H / top, gap = L->colw >= 4 ? 1 : 0;
        te_buf_printf(L->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                            "<title>step %d: op %d (%s)&#10;live %s B (%.0f%% of the arena)</title>"
                            "</rect>\n",
                      step_x(L, s) + gap / 2, base - h, L->colw - gap, h,
                      s == v->peak_step ? PEAK_COLOR : "#8fa9c4", s, op_index(L, s), op_type(L, s),
                      grouped(a, sizeof a, v->live[s]), 100.0 * (double)v->live[s] / top);
    }
    te_buf_printf(L->o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                  LEFT, base, LEFT + L->n * L->colw, base);
}

static void draw_step_labels(const layout *L)
{
    int s;
    for (s = 0; s < L->v->p->n_steps; s++) {
        double x = step_x(L, s) + L->colw / 2;
        int peak = s == L->v->peak_step;
        if (!is_labelled(L, s))
            continue;
        te_buf_printf(L->o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                      x, L->label_top - 6, x, L->label_top - 2);
        te_buf_printf(L->o, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"end\"%s>"
                            "%d %s</text>\n",
                      x + 4, L->label_top,
                      peak ? " fill=\"" PEAK_COLOR "\" font-weight=\"bold\"" : "", op_index(L, s),
                      op_type(L, s));
    }
    te_buf_printf(L->o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">"
                        "schedule step: op index and type%s</text>\n",
                  LEFT + L->n * L->colw / 2, L->height - 9,
                  L->label_every > 1 ? " (some labels left out)" : "");
}

static void draw_frame(const layout *L)
{
    te_buf_printf(L->o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                        "stroke=\"#333\"/>\n",
                  LEFT, MAIN_TOP, L->n * L->colw, MAIN_H);
}

void te_plan_svg(te_buf *out, const te_plan_view *v, const te_plan_svg_opts *o)
{
    layout L;
    make_layout(&L, v, out);
    draw_header(&L, o);
    draw_legend(&L);
    draw_address_axis(&L);
    draw_stage(&L, o, 0);
    draw_regions(&L, 0);
    draw_peak(&L, 0);
    draw_segments(&L);
    draw_bound_lines(&L);
    draw_regions(&L, 1);
    draw_frame(&L);
    draw_live_chart(&L);
    draw_peak(&L, 1);
    draw_step_labels(&L);
    draw_stage(&L, o, 1);
    te_buf_printf(out, "</svg>\n");
}
