/* render-compose.c - how a layer is composed onto the frame (render.h,
 * scene-v1.md "Compositing"): the draw walk's step for one layer, with a
 * group's clip and mask, a layer's blur and shadows, its opacity and blend
 * mode. The layer's own pixels come from its type's draw hook (layer.h);
 * render.c lays the tree out and fills and strokes shapes. Nothing here
 * allocates per frame except the push_group surfaces cairo allocates.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "blur.h"
#include "layer.h"
#include "render-int.h"
#include "shape.h"

static double clamp01(double v)
{
    return v > 0 ? (v < 1 ? v : 1) : 0; /* NaN: 0 */
}

static double P(const rf_prop_t *p, const double *slots)
{
    return rf_prop_get(p, slots);
}

/* A clip layer's own box and matrix this frame (laid out as any shape, at
 * draw time: it has no node); 0 when not finite. */
static int clip_layout(const rf_renderer_t *r, const rf_layer_t *L, double b[4],
                       cairo_matrix_t *m)
{
    const double *s = r->slots;
    const rf_layer_class_t *cls = rf_layer_class(L);
    cls->box(L, s, b);
    double ax = b[0] + P(&L->anchor_x, s) * (b[2] - b[0]);
    double ay = b[1] + P(&L->anchor_y, s) * (b[3] - b[1]);
    return render_local_matrix(L, s, b, ax, ay, (cls->flags & RF_CLASS_CANVAS) != 0, m);
}

/* rf_blend_t to cairo's operators (cairo implements the W3C formulas). */
static const cairo_operator_t blend_ops[RF_BLEND_N] = {
    CAIRO_OPERATOR_OVER, CAIRO_OPERATOR_MULTIPLY, CAIRO_OPERATOR_SCREEN,
    CAIRO_OPERATOR_OVERLAY, CAIRO_OPERATOR_DARKEN, CAIRO_OPERATOR_LIGHTEN,
    CAIRO_OPERATOR_COLOR_DODGE, CAIRO_OPERATOR_COLOR_BURN, CAIRO_OPERATOR_HARD_LIGHT,
    CAIRO_OPERATOR_SOFT_LIGHT, CAIRO_OPERATOR_DIFFERENCE, CAIRO_OPERATOR_EXCLUSION,
    CAIRO_OPERATOR_HSL_HUE, CAIRO_OPERATOR_HSL_SATURATION, CAIRO_OPERATOR_HSL_COLOR,
    CAIRO_OPERATOR_HSL_LUMINOSITY,
};

/* Intersects the current clip with a group's clip shape under the group's
 * device matrix gm (antialiased; a clip too large for cairo's coordinates
 * goes through the double-precision sink). 0 when the clip shows nothing. */
static int clip_apply(rf_renderer_t *r, const rf_layer_t *clip, const cairo_matrix_t *gm)
{
    cairo_t *cr = r->cr;
    double b[4], dev[4];
    cairo_matrix_t lm, cm;
    if (!clip_layout(r, clip, b, &lm))
        return 0;
    cairo_matrix_multiply(&cm, &lm, gm);
    if (!rf_matrix_usable(&cm))
        return 0;
    const rf_layer_class_t *cls = rf_layer_class(clip);
    rf_shape_t sh;
    memset(&sh, 0, sizeof sh);
    sh.L = clip;
    sh.slots = r->slots;
    sh.m = &cm;
    sh.ops = r->ops;
    sh.ops_cap = r->ops_cap;
    if (!cls->shape(&sh))
        return 0;
    rf_node_t tmp;
    memcpy(tmp.box, b, sizeof tmp.box);
    render_device_box(&tmp, &cm, 0, dev);
    cairo_new_path(cr);
    if (fabs(dev[0]) <= RF_GUARD && fabs(dev[1]) <= RF_GUARD && fabs(dev[2]) <= RF_GUARD &&
        fabs(dev[3]) <= RF_GUARD) {
        cairo_set_matrix(cr, &cm);
        cls->path(cr, &sh);
    } else {
        rf_hsink_t g;
        cairo_identity_matrix(cr);
        hsink_init(&g, cr, r->width, r->height, 2);
        hsink_begin(&g, 0);
        cls->huge_path(&g, &sh);
        hsink_end(&g);
    }
    render_fill_rule(cr, clip);
    cairo_clip(cr);
    return 1;
}

/* The layer's blur this frame: its standard deviation, capped at the
 * canvas's larger side (a larger blur would spread a layer thinner than
 * one 8-bit step anyway, and the cap bounds the time); 0 for none. */
static double blur_sigma(const rf_renderer_t *r, const rf_layer_t *L)
{
    double s = P(&L->blur, r->slots) * r->unit, cap = r->width > r->height ? r->width : r->height;
    return s > 0 ? (s < cap ? s : cap) : 0; /* NaN: 0 */
}

/* The region of the canvas, in whole pixels, that L (node n, device
 * matrix m) can paint, grown by extra px and offset by (dx, dy) (a
 * shadow's): its device box with its stroke's reach and 2 px of
 * antialiasing. A group's children may stroke past their boxes, so a group
 * takes the canvas; text's glyphs may reach past its line boxes (accents
 * above a capital), so its box is grown by half its height. All 0 when it
 * is off the canvas (or not finite). */
static void reach_rect(const rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                       const cairo_matrix_t *m, double extra, double dx, double dy, double d[4])
{
    unsigned flags = rf_layer_class(L)->flags;
    d[0] = d[1] = 0;
    d[2] = r->width;
    d[3] = r->height;
    if (flags & RF_CLASS_CHILDREN)
        return;
    double a = m->xx, b = m->yx, c = m->xy, e = m->yy;
    double stretch = sqrt(fmax(a * a + b * b, c * c + e * e)) + fabs(a * c + b * e);
    double sw = L->stroke.kind != RF_PAINT_NONE ? P(&L->stroke_width, r->slots) : 0;
    double reach = (sw > 0 && isfinite(sw) ? sw * stretch * render_stroke_reach(L, r->slots) : 0) + 2 + extra;
    if (flags & RF_CLASS_INK)
        reach += 0.5 * stretch * fabs(n->box[3] - n->box[1]);
    render_device_box(n, m, reach, d);
    d[0] += fmin(dx, 0);
    d[1] += fmin(dy, 0);
    d[2] += fmax(dx, 0);
    d[3] += fmax(dy, 0);
    d[0] = fmax(floor(d[0]), 0);
    d[1] = fmax(floor(d[1]), 0);
    d[2] = fmin(ceil(d[2]), r->width);
    d[3] = fmin(ceil(d[3]), r->height);
    if (!(d[2] > d[0] && d[3] > d[1]))
        d[0] = d[1] = d[2] = d[3] = 0; /* off the canvas (or NaN): nothing */
}

/* Saves the state and clips to the device rectangle d. */
static void clip_save(cairo_t *cr, const double d[4])
{
    cairo_save(cr);
    cairo_identity_matrix(cr);
    cairo_new_path(cr);
    cairo_rectangle(cr, d[0], d[1], d[2] - d[0], d[3] - d[1]);
    cairo_clip(cr);
}

/* Shadow sh's offset and standard deviation this frame (the blur capped
 * as blur_sigma's); 0 when it is off any canvas (or NaN). */
static int shadow_now(const rf_renderer_t *r, const rf_shadow_t *sh, double *dx, double *dy,
                      double *sg)
{
    double cap = r->width > r->height ? r->width : r->height;
    *dx = P(&sh->x, r->slots) * r->unit; /* device px: scaled with a draft */
    *dy = P(&sh->y, r->slots) * r->unit;
    *sg = 0.5 * P(&sh->blur, r->slots) * r->unit;
    *sg = *sg > 0 ? (*sg < cap ? *sg : cap) : 0;
    return fabs(*dx) <= 4 * cap && fabs(*dy) <= 4 * cap;
}

/* The region L, blurred by sigma, and its shadows can paint (reach_rect's
 * rules): where a group for the whole layer needs to be. */
static void whole_rect(const rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                       const cairo_matrix_t *m, double sigma, double d[4])
{
    double own = rf_blur_reach(sigma), e[4], dx, dy, sg;
    reach_rect(r, L, n, m, own, 0, 0, d);
    for (uint32_t i = 0; i < L->nshadows; i++) {
        if (!shadow_now(r, &L->shadows[i], &dx, &dy, &sg))
            continue;
        reach_rect(r, L, n, m, own + rf_blur_reach(sg), dx, dy, e);
        if (!(e[2] > e[0]))
            continue;
        if (!(d[2] > d[0])) {
            memcpy(d, e, sizeof e);
            continue;
        }
        d[0] = fmin(d[0], e[0]);
        d[1] = fmin(d[1], e[1]);
        d[2] = fmax(d[2], e[2]);
        d[3] = fmax(d[3], e[3]);
    }
}

/* Starts drawing into a surface over only the device region d (a blur's
 * reach, from reach_rect). */
static void blur_begin(rf_renderer_t *r, const double d[4])
{
    clip_save(r->cr, d);
    cairo_push_group(r->cr);
}

/* Blurs the image surface of pattern pat (a popped group: ARGB32, or A8
 * for a shadow) in place by sigma. */
static void blur_surface(rf_renderer_t *r, cairo_pattern_t *pat, double sigma)
{
    cairo_surface_t *s = NULL;
    if (cairo_pattern_get_surface(pat, &s) != CAIRO_STATUS_SUCCESS ||
        cairo_surface_get_type(s) != CAIRO_SURFACE_TYPE_IMAGE || r->blur_line == NULL)
        return;
    cairo_surface_flush(s);
    unsigned char *px = cairo_image_surface_get_data(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    cairo_format_t f = cairo_image_surface_get_format(s);
    if (px != NULL && w <= r->width && h <= r->height) {
        if (f == CAIRO_FORMAT_A8)
            rf_blur_a8(px, stride, w, h, sigma, r->blur_line);
        else if (f == CAIRO_FORMAT_ARGB32)
            rf_blur_argb32(px, stride, w, h, sigma, r->blur_line);
    }
    cairo_surface_mark_dirty(s);
}

/* Blurs what blur_begin's surface holds and paints it. */
static void blur_end(rf_renderer_t *r, double sigma)
{
    cairo_t *cr = r->cr;
    cairo_pattern_t *pat = cairo_pop_group(cr);
    blur_surface(r, pat, sigma);
    cairo_set_source(cr, pat);
    cairo_paint(cr);
    cairo_pattern_destroy(pat);
    cairo_restore(cr);
}

/* Ends the group the layer was drawn into: paints its shadows, the last
 * first (the first on top), each the layer's alpha offset by x, y device
 * px and blurred by blur / 2 (an A8 surface over only the region it can
 * reach), painted in the shadow's color; then the layer; the opacity op applies to them as one (CSS).
 * The layer was drawn (blurred by sigma) in its own region, inside a
 * cairo_save and a clip_save, both undone here. */
static void shadows_draw(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                         const cairo_matrix_t *m, double sigma, double op)
{
    cairo_t *cr = r->cr;
    cairo_pattern_t *pat = cairo_pop_group(cr);
    double d[4], dx, dy, sg, own = rf_blur_reach(sigma);
    cairo_restore(cr); /* the layer's region: the shadows reach past it */
    if (op < 1) {
        whole_rect(r, L, n, m, sigma, d);
        clip_save(cr, d);
        cairo_push_group(cr); /* shadows and layer, then the opacity once */
    }
    for (uint32_t i = L->nshadows; i-- > 0;) {
        if (!shadow_now(r, &L->shadows[i], &dx, &dy, &sg))
            continue;
        const rf_color_t *c = &L->shadows[i].color;
        /* the layer's alpha, offset, into an A8 surface of the region the
         * shadow reaches; blurred; then the color through it */
        reach_rect(r, L, n, m, own + rf_blur_reach(sg), dx, dy, d);
        clip_save(cr, d);
        cairo_push_group_with_content(cr, CAIRO_CONTENT_ALPHA);
        cairo_translate(cr, dx, dy);
        cairo_set_source_rgba(cr, 0, 0, 0, 1);
        cairo_mask(cr, pat);
        cairo_identity_matrix(cr);
        cairo_pattern_t *alpha = cairo_pop_group(cr);
        blur_surface(r, alpha, sg);
        cairo_set_source_rgba(cr, c->r, c->g, c->b, c->a);
        cairo_mask(cr, alpha);
        cairo_pattern_destroy(alpha);
        cairo_restore(cr);
    }
    cairo_identity_matrix(cr);
    cairo_set_source(cr, pat);
    cairo_paint(cr);
    cairo_pattern_destroy(pat);
    if (op < 1) {
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, op);
        cairo_restore(cr);
    }
    cairo_restore(cr);
}

/* Turns the mask layer's pixels in s (premultiplied ARGB32) into the
 * coverage mode says, times op, in every channel. Luminance is Filter
 * Effects' luminanceToAlpha (0.2125 R + 0.7154 G + 0.0721 B) of the
 * premultiplied sRGB channels, which is the luminance times the alpha. */
static void mask_convert(cairo_surface_t *s, int mode, double op)
{
    unsigned char *px = cairo_image_surface_get_data(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t k = (uint32_t)lround(op * 65536.0);
    int lum = mode == RF_MASK_LUMINANCE || mode == RF_MASK_LUMINANCE_INVERTED;
    int inv = mode == RF_MASK_ALPHA_INVERTED || mode == RF_MASK_LUMINANCE_INVERTED;
    if (px == NULL)
        return;
    for (int y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(void *)(px + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            uint32_t v = row[x], c = v >> 24;
            if (lum)
                c = (2125 * ((v >> 16) & 255) + 7154 * ((v >> 8) & 255) + 721 * (v & 255) +
                     5000) / 10000;
            if (inv)
                c = 255 - c;
            c = (c * k + 32768) >> 16;
            row[x] = c * 0x01010101u;
        }
    }
}

/* Ends the group the children were drawn into (the current group) and
 * paints it through the mask layer M (node mi, drawn under the group's
 * device matrix m into a surface of the same extents), times op. */
static void mask_apply(rf_renderer_t *r, const rf_layer_t *M, int mode, uint32_t mi,
                       const cairo_matrix_t *m, double op)
{
    cairo_t *cr = r->cr;
    cairo_identity_matrix(cr);
    cairo_pattern_t *content = cairo_pop_group(cr);
    cairo_push_group(cr);
    render_draw_layer(r, M, mi, m);
    cairo_identity_matrix(cr);
    cairo_pattern_t *mk = cairo_pop_group(cr);
    cairo_surface_t *s = NULL;
    if (!(mode == RF_MASK_ALPHA && op >= 1) &&
        cairo_pattern_get_surface(mk, &s) == CAIRO_STATUS_SUCCESS &&
        cairo_surface_get_type(s) == CAIRO_SURFACE_TYPE_IMAGE) {
        cairo_surface_flush(s);
        mask_convert(s, mode, op);
        cairo_surface_mark_dirty(s);
    }
    cairo_set_source(cr, content);
    cairo_mask(cr, mk);
    cairo_pattern_destroy(mk);
    cairo_pattern_destroy(content);
}

void render_draw_layer(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx,
                       const cairo_matrix_t *parent)
{
    const rf_node_t *n = &r->nodes[idx];
    prefix_reached(r, idx);
    if (!n->ok)
        return;
    double op = clamp01(P(&L->opacity, r->slots));
    if (!(op > 0))
        return;
    cairo_matrix_t m;
    cairo_matrix_multiply(&m, &n->local, parent); /* local first, then parent */
    if (L->pixel_snap) {
        /* seed 004: the translation lands on whole pixels */
        m.x0 = round(m.x0);
        m.y0 = round(m.y0);
    }
    if (!rf_matrix_usable(&m))
        return;
    cairo_t *cr = r->cr;
    int blend = L->blend != RF_BLEND_NORMAL && L->blend < RF_BLEND_N;
    double sigma = blur_sigma(r, L), d[4];
    if (blend) {
        whole_rect(r, L, n, &m, sigma, d);
        clip_save(cr, d);
        cairo_push_group(cr); /* the layer whole, then blended once */
    }
    double whole = op; /* with shadows: the opacity of layer and shadows as one */
    if (L->nshadows > 0) {
        op = 1;
        reach_rect(r, L, n, &m, rf_blur_reach(sigma), 0, 0, d);
        cairo_save(cr);
        clip_save(cr, d); /* undone by shadows_draw */
        cairo_push_group(cr); /* the layer, to cast its shadows */
    }
    if (sigma > 0) {
        reach_rect(r, L, n, &m, rf_blur_reach(sigma), 0, 0, d);
        blur_begin(r, d);
    }
    if (!(rf_layer_class(L)->flags & RF_CLASS_CHILDREN)) {
        rf_layer_class(L)->draw(r, L, idx, &m, op);
    } else {
        const rf_layer_t *clip = L->type == RF_LAYER_GROUP ? L->u.group.clip : NULL;
        const rf_layer_t *mask = render_mask_of(L);
        if (clip)
            cairo_save(cr);
        if (!clip || clip_apply(r, clip, &m)) {
            if (op < 1 || mask)
                cairo_push_group(cr); /* inside the clip: only its extents */
            uint32_t ci = idx + 1, nch;
            const rf_layer_t *ch = rf_layer_children(L, &nch);
            int repeat = (rf_layer_class(L)->flags & RF_CLASS_REPEAT) != 0;
            double *s0 = r->slots, t0 = r->t;
            for (uint32_t k = 0; render_instance(r, L, idx, k, s0, t0); k++) {
                ci = idx + 1;
                for (uint32_t i = 0; i < nch; i++) {
                    if (repeat) /* this instance's own layout */
                        render_layout(r, &ch[i], ci);
                    render_draw_layer(r, &ch[i], ci, &m);
                    ci += r->nodes[ci].size;
                }
            }
            if (mask) {
                mask_apply(r, mask, L->u.group.mask_mode, ci, &m, op); /* ci: the mask's node */
            } else if (op < 1) {
                cairo_pop_group_to_source(cr);
                cairo_paint_with_alpha(cr, op);
            }
        }
        if (clip)
            cairo_restore(cr);
    }
    if (sigma > 0)
        blur_end(r, sigma);
    if (L->nshadows > 0)
        shadows_draw(r, L, n, &m, sigma, whole);
    if (blend) {
        cairo_pop_group_to_source(cr);
        cairo_set_operator(cr, blend_ops[L->blend]);
        cairo_identity_matrix(cr);
        cairo_paint(cr);
        cairo_restore(cr); /* the operator, the matrix and the region */
    }
}

/* ---- what reaches the canvas (for warnings) ---- */

/* 1 when L (node idx, under parent) can paint a pixel of the canvas this
 * frame: a group when one of its children can (or when it blurs or casts
 * shadows, which is not worked out), any other layer when whole_rect is
 * not empty. */
static int touch_layer(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx,
                       const cairo_matrix_t *parent)
{
    const rf_node_t *n = &r->nodes[idx];
    cairo_matrix_t m;
    double d[4];

    if (!n->ok)
        return 0;
    cairo_matrix_multiply(&m, &n->local, parent);
    if (!rf_matrix_usable(&m))
        return 0;
    if (rf_layer_class(L)->flags & RF_CLASS_CHILDREN) {
        if (L->nshadows > 0 || blur_sigma(r, L) > 0)
            return 1;
        uint32_t nch;
        const rf_layer_t *ch = rf_layer_children(L, &nch);
        int repeat = (rf_layer_class(L)->flags & RF_CLASS_REPEAT) != 0, hit = 0;
        double *s0 = r->slots, t0 = r->t;
        /* every instance of a repeated subtree, in its own layout */
        for (uint32_t k = 0; render_instance(r, L, idx, k, s0, t0); k++) {
            uint32_t ci = idx + 1;
            for (uint32_t i = 0; i < nch && !hit; i++) {
                if (repeat)
                    render_layout(r, &ch[i], ci);
                hit = touch_layer(r, &ch[i], ci, &m);
                ci += r->nodes[ci].size;
            }
            if (hit && repeat) {
                r->slots = s0;
                r->t = t0;
            }
            if (hit)
                return 1;
        }
        return 0;
    }
    whole_rect(r, L, n, &m, blur_sigma(r, L), d);
    return d[2] > d[0] && d[3] > d[1];
}

void rf_renderer_touch(rf_renderer_t *r, double t, unsigned char *touch)
{
    const rf_scene_t *sc = r->scene;
    uint32_t idx = 0;

    r->t = t;
    rf_values_eval(&sc->values, t, r->slots);
    for (uint32_t i = 0; i < sc->nlayers; i++)
        idx = render_layout(r, &sc->layers[i], idx);
    idx = 0;
    for (uint32_t i = 0; i < sc->nlayers; i++) {
        if (!touch[i] && touch_layer(r, &sc->layers[i], idx, &r->root))
            touch[i] = 1;
        idx += r->nodes[idx].size;
    }
}
