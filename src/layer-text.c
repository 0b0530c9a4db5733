/* layer-text.c - the text layer (scene-v1.md "Text"): a template formatted
 * each frame, shaped and laid out by text.c, drawn through glyph masks
 * (glyphmask.h: cairo's fill of each outline, at pen positions rounded to
 * 1/16 px) when only moved and uniformly scaled, else as glyph outlines at
 * their exact positions through the same fill and stroke as every shape;
 * reveal (a typewriter) and per_glyph motion.
 *
 * Each renderer keeps a state per text layer (layer.h state_create): the
 * text engine (shaping and outline caches), the glyph masks, the buffer
 * the template is formatted into, and for per_glyph the closure of the
 * values the glyph motion reads with a slot array to evaluate them at
 * shifted times (values.h "time-shifted evaluation"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glyphmask.h"
#include "layer.h"
#include "render.h"
#include "scene.h"
#include "shape.h"
#include "template.h"
#include "text.h"

static const rf_layer_key_t text_keys[] = {
    { "text", RF_KEY_TEXT, RF_KEY_REQUIRED, RF_KEY_AT(u.text.content), 0, 0, 0, NULL },
    { "font", RF_KEY_FONT, 0, RF_KEY_AT(u.text.font), 0, 0, 0, NULL },
    { "size", RF_KEY_NUMBER, RF_KEY_NONNEG, RF_KEY_AT(u.text.size), 0, 16, 0, NULL },
    { "letter_spacing", RF_KEY_NUMBER, 0, RF_KEY_AT(u.text.letter_spacing), 0, 0, 0, NULL },
    { "line_height", RF_KEY_NUMBER, RF_KEY_NONNEG, RF_KEY_AT(u.text.line_height), 0, 1.25, 0,
      NULL },
    { "width", RF_KEY_NUMBER, RF_KEY_NONNEG, RF_KEY_AT(u.text.width), 0, INFINITY, 0, NULL },
    { "align", RF_KEY_CHOICE, 0, RF_KEY_AT(u.text.align), 0, 0, 0, "left|center|right" },
    { "features", RF_KEY_FEATURES, 0, RF_KEY_AT(u.text.features), 0, 0, 0, NULL },
    { "variations", RF_KEY_VARIATIONS, 0, RF_KEY_AT(u.text.variations), 0, 0, 0, NULL },
    { "reveal", RF_KEY_NUMBER, 0, RF_KEY_AT(u.text.reveal), 0, 1, 0, NULL },
    { "per_glyph", RF_KEY_PER_GLYPH, 0, RF_KEY_AT(u.text.per_glyph), 0, 0, 0, NULL },
};

#define ALL UINT32_MAX
#define CHUNK 64

typedef struct text_state {
    rf_text_engine_t *eng;
    char *buf;                 /* the formatted text: maxlen + 1 bytes */
    uint32_t *vtags;           /* variations: tags and this frame's values */
    double *vvals;
    long n;                    /* glyphs of this frame's layout, -1: failed */
    uint32_t shown;            /* clusters drawn (reveal) */
    uint32_t cur, cur_end;     /* the glyphs drawn now, [cur, cur_end);
                                  cur == ALL: every glyph */
    double k;                  /* px per font unit this frame */
    uint32_t *list;            /* per_glyph: the values its motion reads */
    uint32_t nlist;
    double *shift;             /* per_glyph: slots at the shifted time */
    rf_glyph_masks_t *masks;   /* the renderer's glyph masks (glyphmask.h), this frame */
    uint32_t src;              /* this layer's outlines' source there, */
    uint32_t epoch;            /* for these outlines (0: not asked yet) */
} text_state_t;

static void *text_state_create(struct rf_renderer *r, const rf_layer_t *L)
{
    const rf_scene_t *sc = rf_render_scene(r);
    text_state_t *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->cur = ALL;
    uint32_t nv = L->u.text.variations.n;
    st->eng = rf_text_engine_create(L->u.text.font, L->u.text.features.items,
                                    L->u.text.features.n);
    st->buf = malloc((size_t)L->u.text.content.maxlen + 1);
    st->vtags = calloc(nv + 1, sizeof *st->vtags);
    st->vvals = calloc(nv + 1, sizeof *st->vvals);
    if (st->eng == NULL || st->buf == NULL || st->vtags == NULL || st->vvals == NULL)
        goto fail;
    for (uint32_t i = 0; i < nv; i++)
        st->vtags[i] = L->u.text.variations.items[i].tag;
    const rf_per_glyph_t *pg = L->u.text.per_glyph;
    if (pg != NULL) {
        uint32_t slots[5] = { pg->x.slot, pg->y.slot, pg->rotate.slot, pg->scale.slot,
                              pg->opacity.slot };
        st->list = rf_values_closure_create(&sc->values, slots, 5, &st->nlist);
        st->shift = calloc(sc->values.nslots ? sc->values.nslots : 1, sizeof *st->shift);
        if (st->list == NULL || st->shift == NULL)
            goto fail;
    }
    return st;
fail:
    free(st->list);
    free(st->shift);
    free(st->vtags);
    free(st->vvals);
    free(st->buf);
    rf_text_engine_destroy(st->eng);
    free(st);
    return NULL;
}

static void text_state_destroy(void *p)
{
    text_state_t *st = p;
    rf_text_engine_destroy(st->eng);
    free(st->buf);
    free(st->vtags);
    free(st->vvals);
    free(st->list);
    free(st->shift);
    free(st);
}

/* The template formatted with this frame's values into buf; its length. */
static size_t format_text(const rf_layer_t *L, const double *s, char *buf)
{
    const rf_text_content_t *c = &L->u.text.content;
    size_t n = 0;
    for (uint32_t i = 0; i < c->npieces; i++) {
        const rf_text_piece_t *p = &c->pieces[i];
        if (p->slot == RF_PROP_CONST) {
            memcpy(buf + n, p->lit, p->len);
            n += p->len;
        } else {
            rf_fmt_t f = { p->fmt_kind, p->fmt_decimals, p->fmt_commas, p->fmt_percent };
            n += rf_fmt_number(&f, s[p->slot], buf + n);
        }
    }
    buf[n] = '\0';
    return n;
}

static void text_layout(struct rf_renderer *r, const rf_layer_t *L, void *state, double b[4])
{
    text_state_t *st = state;
    const double *s = rf_renderer_slots(r);
    rf_text_params_t p;
    p.size = rf_prop_get(&L->u.text.size, s);
    p.letter_spacing = rf_prop_get(&L->u.text.letter_spacing, s);
    p.line_height = rf_prop_get(&L->u.text.line_height, s);
    p.width = rf_prop_get(&L->u.text.width, s);
    p.align = L->u.text.align;
    st->n = -1;
    b[0] = NAN;
    if (!(isfinite(p.size) && isfinite(p.letter_spacing) && isfinite(p.line_height)) ||
        isnan(p.width))
        return;                /* an animated NaN: not drawn this frame */
    p.size = rf_nonneg(p.size);
    p.line_height = rf_nonneg(p.line_height);
    for (uint32_t i = 0; i < L->u.text.variations.n; i++)
        st->vvals[i] = rf_prop_get(&L->u.text.variations.items[i].v, s);
    size_t len = format_text(L, s, st->buf);
    uint32_t nclusters;
    if (rf_text_engine_vary(st->eng, st->vtags, st->vvals, L->u.text.variations.n) != 0 ||
        (st->n = rf_text_layout(st->eng, st->buf, len, &p, &nclusters, b)) < 0) {
        rf_render_fail(r, "text: out of memory, or more glyphs than a text layer may have "
                       "(65536)");
        b[0] = NAN;
        st->n = -1;
        return;
    }
    double rv = rf_clamp01(rf_prop_get(&L->u.text.reveal, s));
    st->shown = rv >= 1 ? nclusters : (uint32_t)floor(rv * nclusters + 1e-9);
    st->k = p.size / rf_text_upem(st->eng);
}

static int text_shape(rf_shape_t *sh)
{
    const text_state_t *st = sh->state;
    return st != NULL && st->n > 0 && st->shown > 0 && st->k > 0;
}

/* Feeds the drawn glyphs' outlines to a cairo path (cr) or the huge sink
 * (g), in the layer's coordinates. */
static void emit(cairo_t *cr, rf_hsink_t *g, const rf_shape_t *sh)
{
    text_state_t *st = sh->state;
    const rf_glyph_pos_t *gp = rf_text_glyphs(st->eng);
    uint32_t i0 = st->cur == ALL ? 0 : st->cur, i1 = st->cur == ALL ? (uint32_t)st->n : st->cur_end;
    double k = st->k;
    for (uint32_t i = i0; i < i1; i++) {
        if (gp[i].rank >= st->shown)
            continue;
        const uint8_t *cmd;
        const double *pt;
        uint32_t nc;
        if (rf_text_outline(st->eng, gp[i].gid, &cmd, &nc, &pt) != 0)
            continue;          /* out of memory: the glyph is left out */
        double ox = gp[i].x, oy = gp[i].y;
        for (uint32_t c = 0; c < nc; c++) {
            double x[3], y[3];
            int np = cmd[c] == 'C' ? 3 : cmd[c] == 'Z' ? 0 : 1;
            for (int q = 0; q < np; q++) {
                x[q] = ox + pt[2 * q] * k;
                y[q] = oy - pt[2 * q + 1] * k;
            }
            pt += 2 * np;
            switch (cmd[c]) {
            case 'M':
                if (cr)
                    cairo_move_to(cr, x[0], y[0]);
                else
                    rf_hsink_move(g, sh->m, x[0], y[0]);
                break;
            case 'L':
                if (cr)
                    cairo_line_to(cr, x[0], y[0]);
                else
                    rf_hsink_line(g, sh->m, x[0], y[0]);
                break;
            case 'C':
                if (cr)
                    cairo_curve_to(cr, x[0], y[0], x[1], y[1], x[2], y[2]);
                else
                    rf_hsink_curve(g, sh->m, x[0], y[0], x[1], y[1], x[2], y[2]);
                break;
            default:
                if (cr)
                    cairo_close_path(cr);
                else
                    rf_hsink_close(g);
                break;
            }
        }
    }
}

static void text_path(cairo_t *cr, const rf_shape_t *sh)
{
    emit(cr, NULL, sh);
}

static void text_huge_path(rf_hsink_t *g, const rf_shape_t *sh)
{
    emit(NULL, g, sh);
}

/* ---- glyph masks ----
 * Text whose device matrix is a translation and a uniform scale is drawn
 * through cached glyph masks (glyphmask.h): each glyph's pen position on
 * the device is rounded to the nearest 1/RF_GLYPH_PHASES px (halves up) and its mask at
 * that phase is added into the renderer's coverage buffer, which is then
 * filled with the layer's paint in one operation. Rotated, skewed or
 * mirrored text, text larger than RF_GLYPH_MASK_MAX_EM px per em, a
 * stroke, the evenodd rule, and per_glyph text with a gradient (each
 * glyph moves its own) draw the outlines instead. */

/* Whether L is drawn through masks this frame under device matrix m, with
 * the device px per font unit in *kd. */
static int use_masks(struct rf_renderer *r, const rf_layer_t *L, text_state_t *st,
                     const cairo_matrix_t *m, double *kd)
{
    const rf_per_glyph_t *pg = L->u.text.per_glyph;
    if (pg != NULL && (L->fill.kind == RF_PAINT_LINEAR || L->fill.kind == RF_PAINT_RADIAL))
        return 0; /* each glyph carries its own gradient: one paint cannot */
    double sw = rf_prop_get(&L->stroke_width, rf_renderer_slots(r));
    if (L->fill.kind == RF_PAINT_NONE || L->fill_rule == RF_FILL_EVENODD ||
        (L->stroke.kind != RF_PAINT_NONE && sw > 0 && isfinite(sw)))
        return 0;
    if (!(m->xy == 0 && m->yx == 0 && m->xx == m->yy && m->xx > 0 && fabs(m->x0) < 1e7 &&
          fabs(m->y0) < 1e7))
        return 0;
    *kd = st->k * m->xx;
    if (!(*kd * rf_text_upem(st->eng) <= RF_GLYPH_MASK_MAX_EM))
        return 0;
    /* the renderer's masks, shared with its other text layers: this
     * layer's glyphs under the id of its font and variations */
    if ((st->masks = rf_render_glyph_masks(r)) == NULL)
        return 0;
    /* asked again only when the outlines change (rf_text_outline_epoch,
     * at least 1 once the engine exists): an id stays right (it is never
     * another instance's), and a renderer of more sources than the table
     * holds keeps each layer's masks */
    uint32_t epoch = rf_text_outline_epoch(st->eng);
    if (epoch != st->epoch) {
        const void *settings;
        size_t bytes;
        rf_text_instance(st->eng, &settings, &bytes);
        st->src = rf_glyph_masks_source(st->masks, L->u.text.font, settings, bytes);
        st->epoch = epoch;
    }
    return 1;
}

/* Where glyph g goes under m: the whole pixel (*ix, *iy) and the phase
 * (*px, *py) of its pen rounded to 1/RF_GLYPH_PHASES px. 0 when it is too
 * far off the view for that (the outline path's guard decides). */
static int glyph_place(const rf_glyph_pos_t *g, const cairo_matrix_t *m, long *ix, long *iy,
                       int *px, int *py)
{
    double X = m->xx * g->x + m->x0, Y = m->yy * g->y + m->y0;
    if (!(fabs(X) < 1e7 && fabs(Y) < 1e7))
        return 0;
    const long q = RF_GLYPH_PHASES;
    long qx = (long)floor(X * q + 0.5), qy = (long)floor(Y * q + 0.5);
    *ix = (long)floor((double)qx / q);
    *iy = (long)floor((double)qy / q);
    *px = (int)(qx - q * *ix);
    *py = (int)(qy - q * *iy);
    return 1;
}

/* The masks of the shown glyphs under m made in one batch (glyphmask.h):
 * a glyph's phases one after another (each a shift of one outline), on
 * two threads where the cache may use them, before add_glyph takes them
 * one by one. Where anything fails, add_glyph makes the rest. */
static void make_masks(text_state_t *st, rf_raster_t *ras, const rf_glyph_pos_t *gp,
                       const cairo_matrix_t *m, double kd)
{
    const uint8_t *cmd;
    const double *pt;
    uint32_t nc;
    long ix, iy;
    int px, py;
    /* every outline first: fetching one may move the others */
    for (long i = 0; i < st->n; i++)
        if (gp[i].rank < st->shown && rf_text_outline(st->eng, gp[i].gid, &cmd, &nc, &pt) != 0)
            return;
    for (long i = 0; i < st->n; i++) {
        if (gp[i].rank >= st->shown || !glyph_place(&gp[i], m, &ix, &iy, &px, &py) ||
            rf_text_outline(st->eng, gp[i].gid, &cmd, &nc, &pt) != 0 || nc == 0)
            continue;
        int got = rf_glyph_masks_reserve(st->masks, st->src, gp[i].gid, kd, px, py, cmd, nc, pt);
        if (got == 2 || got < 0)
            break; /* full, or out of memory: what is reserved, then one by one */
    }
    rf_glyph_masks_paint(st->masks, ras);
}

/* Adds glyph g under m (translation and uniform scale, kd device px per
 * font unit) into the coverage c, at opacity a8 / 255. 1 when its mask
 * would be too large (the caller draws its outline), else 0 (also when
 * out of memory: the glyph is left out, as the outline path does). */
static int add_glyph(text_state_t *st, rf_raster_t *ras, rf_coverage_t *c,
                     const rf_glyph_pos_t *g, const cairo_matrix_t *m, double kd, unsigned a8)
{
    long ix, iy;
    int px, py;
    if (!glyph_place(g, m, &ix, &iy, &px, &py))
        return 1; /* far off the view: the outline path's guard decides */
    const uint8_t *cmd;
    const double *pt;
    uint32_t nc;
    if (rf_text_outline(st->eng, g->gid, &cmd, &nc, &pt) != 0 || nc == 0)
        return 0; /* out of memory, or nothing to draw */
    const rf_glyph_mask_t *gm;
    int got = rf_glyph_masks_get(st->masks, ras, st->src, g->gid, kd, px, py, cmd, nc, pt, &gm);
    if (got != 0 || gm->w == 0)
        return got > 0;
    long x = ix + gm->x0 - c->ox, y = iy + gm->y0 - c->oy;
    if (x >= c->w || y >= c->h || x + gm->w <= 0 || y + gm->h <= 0)
        return 0; /* off the view */
    rf_glyph_mask_add(c->a, c->w, c->h, c->stride, gm, (int)x, (int)y, a8);
    int x0 = x < 0 ? 0 : (int)x, y0 = y < 0 ? 0 : (int)y;
    int x1 = x + gm->w > c->w ? c->w : (int)(x + gm->w);
    int y1 = y + gm->h > c->h ? c->h : (int)(y + gm->h);
    c->x0 = x0 < c->x0 ? x0 : c->x0;
    c->y0 = y0 < c->y0 ? y0 : c->y0;
    c->x1 = x1 > c->x1 ? x1 : c->x1;
    c->y1 = y1 > c->y1 ? y1 : c->y1;
    return 0;
}

/* The layer without per_glyph through masks at opacity op: every glyph
 * into one coverage, filled once (overlapping glyphs blend once). 0 when
 * the outlines must be drawn instead. */
static int draw_masked(struct rf_renderer *r, const rf_layer_t *L, uint32_t idx, text_state_t *st,
                       const cairo_matrix_t *m, double op)
{
    double kd;
    if (!use_masks(r, L, st, m, &kd))
        return 0;
    rf_coverage_t *c = rf_render_coverage(r);
    if (c == NULL)
        return 0;
    rf_raster_t *ras = rf_render_raster(r);
    if (ras == NULL)
        return 0; /* out of memory: the outlines, as without a coverage */
    const rf_glyph_pos_t *gp = rf_text_glyphs(st->eng);
    long outlines = 0; /* glyphs whose masks would be too large */
    make_masks(st, ras, gp, m, kd);
    for (long i = 0; i < st->n; i++)
        if (gp[i].rank < st->shown)
            outlines += add_glyph(st, ras, c, &gp[i], m, kd, 255);
    if (op < 1 && c->x1 > c->x0) {
        unsigned a8 = (unsigned)lround(op * 255);
        for (int y = c->y0; y < c->y1; y++) {
            uint8_t *a = c->a + (size_t)y * (size_t)c->stride;
            for (int x = c->x0; x < c->x1; x++) {
                unsigned t = a[x] * a8 + 128;
                a[x] = (uint8_t)((t + (t >> 8)) >> 8);
            }
        }
    }
    rf_render_fill_coverage(r, L, idx, m);
    for (long i = 0; outlines > 0 && i < st->n; i++) {
        if (gp[i].rank >= st->shown || add_glyph(st, ras, c, &gp[i], m, kd, 0) == 0)
            continue; /* (a8 0 adds nothing: this asks again which ones) */
        st->cur = (uint32_t)i;
        st->cur_end = (uint32_t)i + 1;
        rf_render_shape(r, L, idx, m, op);
        outlines--;
    }
    st->cur = ALL;
    return 1;
}

/* The rank of glyph k of n in the per_glyph order. */
static double glyph_rank(int order, uint32_t k, uint32_t n)
{
    double mid = (n - 1) / 2.0, c = floor(fabs(k - mid));
    switch (order) {
    case RF_ORDER_REVERSE:
        return (double)(n - 1 - k);
    case RF_ORDER_CENTER:
        return c;
    case RF_ORDER_EDGES:
        return floor(mid) - c;
    default:
        return (double)k;
    }
}

static void text_draw(struct rf_renderer *r, const rf_layer_t *L, uint32_t idx,
                      const cairo_matrix_t *m, double op)
{
    text_state_t *st = rf_render_state(r, idx);
    const rf_per_glyph_t *pg = L->u.text.per_glyph;
    if (st == NULL || st->n <= 0 || st->shown == 0 || !(st->k > 0))
        return;
    if (pg == NULL && draw_masked(r, L, idx, st, m, op))
        return;
    if (pg == NULL && op < 1) {
        /* one path, so that overlapping glyphs blend once */
        st->cur = ALL;
        rf_render_shape(r, L, idx, m, op);
        return;
    }
    if (pg == NULL) {
        /* CHUNK glyphs per path: cairo keeps a path in buffers it frees at
         * every new path, and a 2,000-glyph path's buffers are fresh
         * mmap'd pages each frame (bench/text: 66 ms against 25 ms per
         * frame); opaque, glyphs drawn in runs look the same */
        uint32_t n = (uint32_t)st->n;
        for (uint32_t k = 0; k < n; k += CHUNK) {
            st->cur = k;
            st->cur_end = k + CHUNK < n ? k + CHUNK : n;
            rf_render_shape(r, L, idx, m, op);
        }
        st->cur = ALL;
        return;
    }
    const rf_scene_t *sc = rf_render_scene(r);
    const rf_glyph_pos_t *gp = rf_text_glyphs(st->eng);
    double t = rf_render_time(r);
    uint32_t n = (uint32_t)st->n;
    rf_coverage_t *c = NULL; /* glyphs added and not yet filled */
    for (uint32_t k = 0; k < n; k++) {
        if (gp[k].rank >= st->shown)
            continue;
        double tk = t - glyph_rank(pg->order, k, n) * pg->stagger;
        rf_values_eval_list(&sc->values, st->list, st->nlist, tk, st->shift);
        const double *s = st->shift;
        double dx = rf_prop_get(&pg->x, s), dy = rf_prop_get(&pg->y, s);
        double rot = rf_prop_get(&pg->rotate, s), sc1 = rf_prop_get(&pg->scale, s);
        double ok = op * rf_clamp01(rf_prop_get(&pg->opacity, s));
        if (!(ok > 0) || !isfinite(dx) || !isfinite(dy) || !isfinite(rot) || !isfinite(sc1))
            continue;
        /* m * T(c + d) * R * S * T(-c) */
        cairo_matrix_t g, mk;
        double a = rot * (RF_PI / 180.0), cs = cos(a), sn = sin(a);
        double cx = gp[k].cx, cy = gp[k].cy;
        g.xx = cs * sc1;
        g.yx = sn * sc1;
        g.xy = -sn * sc1;
        g.yy = cs * sc1;
        g.x0 = cx + dx - (g.xx * cx + g.xy * cy);
        g.y0 = cy + dy - (g.yx * cx + g.yy * cy);
        cairo_matrix_multiply(&mk, &g, m);
        if (!rf_matrix_usable(&mk))
            continue;
        double kd;
        if (use_masks(r, L, st, &mk, &kd)) {
            if (c == NULL && (c = rf_render_coverage(r)) == NULL)
                goto outline; /* out of memory */
            rf_raster_t *ras = rf_render_raster(r); /* NULL: out of memory, the outline */
            if (ras != NULL &&
                add_glyph(st, ras, c, &gp[k], &mk, kd, (unsigned)lround(ok * 255)) == 0)
                continue;
        }
        if (c != NULL) { /* what came before is drawn first */
            rf_render_fill_coverage(r, L, idx, m);
            c = NULL;
        }
    outline:
        st->cur = k;
        st->cur_end = k + 1;
        rf_render_shape(r, L, idx, &mk, ok);
    }
    if (c != NULL)
        rf_render_fill_coverage(r, L, idx, m);
    st->cur = ALL;
}

const rf_layer_class_t rf_layer_class_text = {
    "text", text_keys, RF_NELEM(text_keys), RF_CLASS_INK,
    "a text layer draws the string in text",
    .box = NULL,
    .shape = text_shape,
    .path = text_path,
    .huge_path = text_huge_path,
    .draw = text_draw,
    .state_create = text_state_create,
    .state_destroy = text_state_destroy,
    .layout = text_layout,
};
