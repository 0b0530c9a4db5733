/* render-compose.c - how a layer is composed onto the frame (render.h,
 * scene-v1.md "Compositing"): the draw walk's step for one layer, with a
 * group's clip and mask, a layer's blur and shadows, its opacity and blend
 * mode. The layer's own pixels come from its type's draw hook (layer.h);
 * render.c lays the tree out and fills and strokes shapes. Nothing here
 * allocates per frame except the push_group surfaces and contexts cairo
 * allocates: a blurred or shadowed layer is captured into the renderer's
 * buffer of its nesting level (grown the first time a region needs more).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blur.h"
#include "layer.h"
#include "render-int.h"
#include "shape.h"

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

/* The layer's blur this frame: its standard deviation, capped at the
 * canvas's larger side (a larger blur would spread a layer thinner than
 * one 8-bit step anyway, and the cap bounds the time); 0 for none. */
static double blur_sigma(const rf_renderer_t *r, const rf_layer_t *L)
{
    double s = P(&L->blur, r->slots) * r->unit, cap = r->width > r->height ? r->width : r->height;
    return s > 0 ? (s < cap ? s : cap) : 0; /* NaN: 0 */
}

/* How far past the canvas a capture reaches at most (px): half the
 * canvas's larger side, at most 512 (what a capture costs stays within a
 * few canvases). What lies farther off the canvas neither blurs nor casts
 * a shadow into it. */
static double capture_margin(const rf_renderer_t *r)
{
    int m = (r->width > r->height ? r->width : r->height) / 2;
    return m < 512 ? m : 512;
}

/* d := d intersected with e (x0, y0, x1, y1). */
static void rect_clip(double d[4], const double e[4])
{
    d[0] = fmax(d[0], e[0]);
    d[1] = fmax(d[1], e[1]);
    d[2] = fmin(d[2], e[2]);
    d[3] = fmin(d[3], e[3]);
}

/* d := e grown by g px and moved by (dx, dy). */
static void rect_grow(double d[4], const double e[4], double g, double dx, double dy)
{
    d[0] = e[0] - g + dx;
    d[1] = e[1] - g + dy;
    d[2] = e[2] + g + dx;
    d[3] = e[3] + g + dy;
}

/* Rounds d out to whole pixels; all 0 and 0 returned when it is empty (or
 * NaN). */
static int rect_pixels(double d[4])
{
    d[0] = floor(d[0]);
    d[1] = floor(d[1]);
    d[2] = ceil(d[2]);
    d[3] = ceil(d[3]);
    if (d[2] > d[0] && d[3] > d[1])
        return 1;
    d[0] = d[1] = d[2] = d[3] = 0;
    return 0;
}

/* The device box L (node n, device matrix m) can paint, grown by extra px:
 * its box with its stroke's reach and 2 px of antialiasing; text's glyphs
 * may reach past its line boxes (accents above a capital), so its box is
 * grown by half its height; a clipped group's, its clip's box. 0 for a
 * group without a clip (its children may stroke past their boxes:
 * unbounded). */
static int reach_box(const rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                     const cairo_matrix_t *m, double extra, double d[4])
{
    unsigned flags = rf_layer_class(L)->flags;
    if (flags & RF_CLASS_CHILDREN) {
        const rf_layer_t *clip = L->type == RF_LAYER_GROUP ? L->u.group.clip : NULL;
        cairo_matrix_t lm, cm;
        rf_node_t tmp;
        if (!clip || !clip_layout(r, clip, tmp.box, &lm))
            return 0;
        cairo_matrix_multiply(&cm, &lm, m);
        render_device_box(&tmp, &cm, 2 + extra, d);
        return 1;
    }
    double a = m->xx, b = m->yx, c = m->xy, e = m->yy;
    double stretch = sqrt(fmax(a * a + b * b, c * c + e * e)) + fabs(a * c + b * e);
    double sw = L->stroke.kind != RF_PAINT_NONE ? P(&L->stroke_width, r->slots) : 0;
    double reach = (sw > 0 && isfinite(sw) ? sw * stretch * render_stroke_reach(L, r->slots) : 0) + 2 + extra;
    if (flags & RF_CLASS_INK)
        reach += 0.5 * stretch * fabs(n->box[3] - n->box[1]);
    render_device_box(n, m, reach, d);
    return 1;
}

/* ---- soft clips ----
 *
 * Cairo applies a clip to every drawing operation, and a path clip costs
 * each operation an intersection with the clip's polygon. A group's clip
 * that is a rect, circle or ellipse whose device matrix keeps axes
 * (the phone screen of a UI demo) waits instead in r->soft with the
 * whole device pixels inside it: a layer drawn wholly inside those
 * pixels, where the clip's coverage is full, is drawn without it; any
 * other layer, and a layer that composites through a group or a capture,
 * applies it for its own drawing (soft_begin). Same pixels where the clip
 * covers: the operations that can reach its edge are clipped as before
 * (RF_CLIP_HARD=1 in the environment turns waiting off: tests compare). */

/* Intersects the clip of cr with shape sh of class cls under device
 * matrix m (the shape's own fill rule). */
static void shape_clip(cairo_t *cr, const rf_layer_class_t *cls, const rf_shape_t *sh,
                       const cairo_matrix_t *m)
{
    cairo_set_matrix(cr, m);
    cairo_new_path(cr);
    cls->path(cr, sh);
    render_fill_rule(cr, sh->L);
    cairo_clip(cr);
}

/* The device pixels wholly inside the soft clip c: its shape's inner
 * rectangles mapped by its axis-keeping matrix, less a pixel for the
 * flattening of arcs, rounded in. */
static void soft_inner(render_soft_t *c)
{
    double in[2][4];
    int n = c->cls->inner(&c->sh, in);
    c->ninner = 0;
    for (int i = 0; i < n && i < 2; i++) {
        double x0 = c->m.xx * in[i][0] + c->m.x0, x1 = c->m.xx * in[i][2] + c->m.x0;
        double y0 = c->m.yy * in[i][1] + c->m.y0, y1 = c->m.yy * in[i][3] + c->m.y0;
        double *d = c->inner[c->ninner];
        d[0] = ceil(fmin(x0, x1) + 1);
        d[1] = ceil(fmin(y0, y1) + 1);
        d[2] = floor(fmax(x0, x1) - 1);
        d[3] = floor(fmax(y0, y1) - 1);
        if (d[2] > d[0] && d[3] > d[1])
            c->ninner++;
    }
}

/* 1 when the pixels of device box b (rounded out) all lie inside c. */
static int soft_holds(const render_soft_t *c, const double b[4])
{
    double x0 = floor(b[0]), y0 = floor(b[1]), x1 = ceil(b[2]), y1 = ceil(b[3]);
    for (int i = 0; i < c->ninner; i++)
        if (x0 >= c->inner[i][0] && y0 >= c->inner[i][1] && x1 <= c->inner[i][2] &&
            y1 <= c->inner[i][3])
            return 1;
    return 0;
}

/* Applies the waiting clips that layer L (node n, device matrix m) may
 * reach past (all of them when it composites through a group or capture:
 * `whole`), saving the state first; none wait while it draws. Returns
 * the number that waited, for soft_end (0 when none had to be applied:
 * L is then not a group, and draws as it is). */
static int soft_begin(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                      const cairo_matrix_t *m, int whole)
{
    int ns = r->nsoft;
    if (ns == 0)
        return 0;
    double b[4];
    int known = !whole && reach_box(r, L, n, m, 0, b);
    unsigned need = 0; /* bit i: clip i reaches L */
    for (int i = 0; i < ns; i++)
        if (!(known && soft_holds(&r->soft[i], b)))
            need |= 1u << i;
    if (need == 0)
        return 0; /* wholly inside every one: drawn as it is */
    cairo_save(r->cr);
    for (int i = 0; i < ns; i++)
        if (need & 1u << i)
            shape_clip(r->cr, r->soft[i].cls, &r->soft[i].sh, &r->soft[i].m);
    r->nsoft = 0;
    return ns;
}

/* Ends soft_begin's state: the clips wait again. */
static void soft_end(rf_renderer_t *r, int ns)
{
    if (ns == 0)
        return;
    cairo_restore(r->cr);
    r->nsoft = ns;
}

/* Intersects the current clip with a group's clip shape under the group's
 * device matrix gm (antialiased; a clip too large for cairo's coordinates
 * goes through the double-precision sink), or when `soft` allows, lets it
 * wait in r->soft (the group draws its children straight onto the
 * drawing). 0 when the clip shows nothing. */
static int clip_apply(rf_renderer_t *r, const rf_layer_t *clip, const cairo_matrix_t *gm,
                      int soft)
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
    if (fabs(dev[0]) <= RF_GUARD && fabs(dev[1]) <= RF_GUARD && fabs(dev[2]) <= RF_GUARD &&
        fabs(dev[3]) <= RF_GUARD) {
        if (soft && !r->soft_off && cls->inner && cm.xy == 0 && cm.yx == 0 &&
            r->nsoft < RF_SOFT_CLIPS) {
            render_soft_t *c = &r->soft[r->nsoft++];
            c->cls = cls;
            c->sh = sh;
            c->m = cm;
            c->sh.m = &c->m;
            soft_inner(c);
        } else {
            shape_clip(cr, cls, &sh, &cm);
        }
        return 1;
    }
    rf_hsink_t g;
    cairo_new_path(cr);
    cairo_identity_matrix(cr);
    hsink_init(&g, cr, r->view, 2);
    hsink_begin(&g, 0);
    cls->huge_path(&g, &sh);
    hsink_end(&g);
    render_fill_rule(cr, clip);
    cairo_clip(cr);
    return 1;
}

/* The region of the view (the canvas, or the capture drawn into), in whole
 * pixels, that L can paint (reach_box, a group: the whole view), grown by
 * extra px and offset by (dx, dy) (a shadow's). All 0 when it is off the
 * view (or not finite). */
static void reach_rect(const rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                       const cairo_matrix_t *m, double extra, double dx, double dy, double d[4])
{
    memcpy(d, r->view, sizeof r->view);
    double b[4];
    if (!reach_box(r, L, n, m, extra, b))
        return;
    b[0] += fmin(dx, 0);
    b[1] += fmin(dy, 0);
    b[2] += fmax(dx, 0);
    b[3] += fmax(dy, 0);
    rect_clip(d, b);
    rect_pixels(d);
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

/* ---- captures: a layer drawn into pixels of its own ----
 *
 * A blurred layer, or one casting shadows, is drawn into a surface of its
 * own over the region whose pixels can reach the view once blurred and
 * offset; that region may lie partly or wholly off the canvas (a card
 * above the top edge whose shadow falls onto it), which cairo's
 * push_group, bounded by the canvas, cannot hold. The surface's pixels are
 * the renderer's buffer for the nesting level (render-int.h), and while
 * the layer draws, r->cr and r->view are the capture's. */

typedef struct {
    cairo_t *cr;          /* the drawing's before the capture */
    double view[4];       /* its view */
    double rect[4];       /* the captured region (device px) */
    cairo_surface_t *s;   /* its pixels (device offset: rect's origin) */
} capture_t;

/* The region of L's own pixels (blurred by sigma, then offset by each
 * shadow's and blurred by its) that can reach the view: the view grown by
 * the blur's reach, and for each shadow moved back by its offset and grown
 * by both reaches; within what L can paint, blurred, and the canvas grown
 * by capture_margin. 0 when it is empty. */
static int capture_rect(const rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                        const cairo_matrix_t *m, double sigma, double d[4])
{
    double own = rf_blur_reach(sigma), e[4], dx, dy, sg, M = capture_margin(r);
    double lim[4] = { -M, -M, r->width + M, r->height + M };
    rect_grow(d, r->view, own, 0, 0);
    for (uint32_t i = 0; i < L->nshadows; i++) {
        if (!shadow_now(r, &L->shadows[i], &dx, &dy, &sg))
            continue;
        rect_grow(e, r->view, own + rf_blur_reach(sg), -dx, -dy);
        d[0] = fmin(d[0], e[0]);
        d[1] = fmin(d[1], e[1]);
        d[2] = fmax(d[2], e[2]);
        d[3] = fmax(d[3], e[3]);
    }
    rect_clip(d, lim);
    if (reach_box(r, L, n, m, own, e))
        rect_clip(d, e);
    return rect_pixels(d);
}

/* Starts drawing into a capture of region d (whole pixels, not empty) in
 * format f, cleared. Ended by capture_end, its pixels given back by
 * capture_release. */
static void capture_begin(rf_renderer_t *r, capture_t *c, const double d[4], cairo_format_t f)
{
    int w = (int)(d[2] - d[0]), h = (int)(d[3] - d[1]), lvl = r->ncap++;
    int stride = cairo_format_stride_for_width(f, w);
    size_t need = (size_t)stride * (size_t)h;
    unsigned char *px = NULL;
    if (lvl < RF_CAPTURE_DEPTH && stride > 0) {
        if (r->cap_size[lvl] < need) { /* the first region this large */
            free(r->cap_px[lvl]);
            r->cap_px[lvl] = malloc(need);
            r->cap_size[lvl] = r->cap_px[lvl] ? need : 0;
        }
        px = r->cap_px[lvl];
    }
    if (px) {
        memset(px, 0, need);
        c->s = cairo_image_surface_create_for_data(px, f, w, h, stride);
    } else {
        c->s = cairo_image_surface_create(f, w, h); /* cleared; or in error */
    }
    cairo_surface_set_device_offset(c->s, -d[0], -d[1]);
    memcpy(c->rect, d, sizeof c->rect);
    memcpy(c->view, r->view, sizeof r->view);
    c->cr = r->cr;
    r->cr = cairo_create(c->s);
    render_context_defaults(r->cr);
    memcpy(r->view, d, sizeof r->view);
}

/* Ends the drawing into c: r->cr and r->view are the drawing's before it
 * again, c->s holds the pixels. */
static void capture_end(rf_renderer_t *r, capture_t *c)
{
    cairo_status_t st = cairo_status(r->cr);
    cairo_destroy(r->cr);
    r->cr = c->cr;
    memcpy(r->view, c->view, sizeof r->view);
    cairo_surface_flush(c->s);
    if (st != CAIRO_STATUS_SUCCESS && r->err[0] == '\0')
        snprintf(r->err, sizeof r->err, "cairo: %s", cairo_status_to_string(st));
}

/* Gives c's pixels back (its level's buffer free for the next capture). */
static void capture_release(rf_renderer_t *r, capture_t *c)
{
    cairo_surface_destroy(c->s);
    r->ncap--;
}

/* Blurs the pixels of image surface s (ARGB32, or A8 for a shadow) in
 * place by sigma; the work buffer grows the first time a region needs
 * more. */
static void blur_surface(rf_renderer_t *r, cairo_surface_t *s, double sigma)
{
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
        return;
    unsigned char *px = cairo_image_surface_get_data(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    cairo_format_t f = cairo_image_surface_get_format(s);
    size_t need = RF_BLUR_WORK(w, h);
    if (px == NULL)
        return;
    if (need > r->blur_cap) {
        void *b = malloc(need);
        if (!b) {
            rf_render_fail_oom(r, "out of memory for a blur");
            return;
        }
        free(r->blur_line);
        r->blur_line = b;
        r->blur_cap = need;
    }
    if (f == CAIRO_FORMAT_A8)
        rf_blur_a8(px, stride, w, h, sigma, r->blur_line);
    else if (f == CAIRO_FORMAT_ARGB32)
        rf_blur_argb32(px, stride, w, h, sigma, r->blur_line);
    cairo_surface_mark_dirty(s);
}

/* The alpha bytes of n ARGB32 pixels s into o. The pointers are restrict
 * and the blocks of a known count, so GCC vectorizes it at -O2 (a uint8_t
 * store may alias anything: without restrict the loop stays bytewise). */
static void alpha_row(uint8_t *restrict o, const uint32_t *restrict s, long n)
{
    long i = 0;
    for (; i + 16 <= n; i += 16)
        for (int k = 0; k < 16; k++)
            o[i + k] = (uint8_t)(s[i + k] >> 24);
    for (; i < n; i++)
        o[i] = (uint8_t)(s[i] >> 24);
}

/* The shadow's alpha without pixman when the offset is whole pixels: the
 * alpha bytes of the ARGB32 capture src (region sr) copied into the
 * cleared A8 capture dst (region dr) dx, dy px away, which is what an
 * opaque black source masked by src paints there (pixman's
 * 255 * a / 255 is a). 0 (nothing done) for a fractional offset or a
 * surface without pixels: the caller masks through cairo. */
static int alpha_copy(cairo_surface_t *dst, const double dr[4], cairo_surface_t *src,
                      const double sr[4], double dx, double dy)
{
    if (dx != floor(dx) || dy != floor(dy) || cairo_surface_status(dst) != CAIRO_STATUS_SUCCESS ||
        cairo_surface_status(src) != CAIRO_STATUS_SUCCESS)
        return 0;
    uint8_t *dp = cairo_image_surface_get_data(dst);
    const uint8_t *sp = cairo_image_surface_get_data(src);
    if (dp == NULL || sp == NULL)
        return 0;
    int dw = cairo_image_surface_get_width(dst), dh = cairo_image_surface_get_height(dst);
    int sw = cairo_image_surface_get_width(src), sh = cairo_image_surface_get_height(src);
    int ds = cairo_image_surface_get_stride(dst), ss = cairo_image_surface_get_stride(src);
    /* dst pixel (i, j) is src pixel (i + ox, j + oy) */
    long ox = (long)(dr[0] - dx - sr[0]), oy = (long)(dr[1] - dy - sr[1]);
    long i0 = ox < 0 ? -ox : 0, i1 = sw - ox < dw ? sw - ox : dw;
    long j0 = oy < 0 ? -oy : 0, j1 = sh - oy < dh ? sh - oy : dh;
    cairo_surface_flush(dst);
    for (long j = j0; j < j1; j++) {
        const uint32_t *s = (const uint32_t *)(const void *)(sp + (size_t)(j + oy) * (size_t)ss) + ox;
        uint8_t *o = dp + (size_t)j * (size_t)ds;
        if (i1 > i0)
            alpha_row(o + i0, s + i0, i1 - i0);
    }
    cairo_surface_mark_dirty(dst);
    return 1;
}

/* Paints the captured layer c (blurred by sigma already): first its
 * shadows, the last first (the first on top), each the layer's alpha
 * offset by x, y device px into an A8 capture of the region it reaches in
 * the view, blurred by blur / 2, painted in the shadow's color; then the
 * layer. The opacity op applies to them as one (CSS). */
static void shadows_draw(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                         const cairo_matrix_t *m, const capture_t *c, double sigma, double op)
{
    cairo_t *cr = r->cr;
    double d[4], e[4], dx, dy, sg;
    if (op < 1) {
        whole_rect(r, L, n, m, sigma, d);
        clip_save(cr, d);
        cairo_push_group(cr); /* shadows and layer, then the opacity once */
    }
    for (uint32_t i = L->nshadows; i-- > 0;) {
        if (!shadow_now(r, &L->shadows[i], &dx, &dy, &sg))
            continue;
        const rf_color_t col = rf_colorp_get(&L->shadows[i].color, r->slots);
        double g = rf_blur_reach(sg);
        rect_grow(d, r->view, g, 0, 0);
        rect_grow(e, c->rect, g, dx, dy);
        rect_clip(d, e);
        if (!rect_pixels(d))
            continue;
        capture_t a;
        capture_begin(r, &a, d, CAIRO_FORMAT_A8);
        if (!alpha_copy(a.s, a.rect, c->s, c->rect, dx, dy)) {
            cairo_set_source_rgba(r->cr, 0, 0, 0, 1);
            cairo_mask_surface(r->cr, c->s, dx, dy);
        }
        capture_end(r, &a);
        blur_surface(r, a.s, sg);
        cairo_identity_matrix(cr);
        cairo_set_source_rgba(cr, col.r, col.g, col.b, col.a);
        cairo_mask_surface(cr, a.s, 0, 0);
        capture_release(r, &a);
    }
    cairo_identity_matrix(cr);
    cairo_set_source_surface(cr, c->s, 0, 0);
    cairo_paint(cr);
    if (op < 1) {
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, op);
        cairo_restore(cr);
    }
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
    double op = rf_clamp01(P(&L->opacity, r->slots));
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
    int captured = L->nshadows > 0 || sigma > 0;
    capture_t cap;
    if (captured && !capture_rect(r, L, n, &m, sigma, d))
        return; /* none of its pixels reaches the view */
    int children = (rf_layer_class(L)->flags & RF_CLASS_CHILDREN) != 0;
    const rf_layer_t *mask = children ? render_mask_of(L) : NULL;
    int through = blend || captured || (children && (op < 1 || mask)); /* a group or capture */
    int waited = 0;
    if (!children || through) /* a plain group's children see the waiting clips */
        waited = soft_begin(r, L, n, &m, through);
    if (blend) {
        whole_rect(r, L, n, &m, sigma, d);
        clip_save(cr, d);
        cairo_push_group(cr); /* the layer whole, then blended once */
        if (captured)
            capture_rect(r, L, n, &m, sigma, d);
    }
    double whole = op; /* with shadows: the opacity of layer and shadows as one */
    if (captured) {
        if (L->nshadows > 0)
            op = 1;
        capture_begin(r, &cap, d, CAIRO_FORMAT_ARGB32);
        cr = r->cr;
    }
    if (!children) {
        rf_layer_class(L)->draw(r, L, idx, &m, op);
    } else {
        const rf_layer_t *clip = L->type == RF_LAYER_GROUP ? L->u.group.clip : NULL;
        int nsoft = r->nsoft;
        if (clip)
            cairo_save(cr);
        if (!clip || clip_apply(r, clip, &m, !(op < 1 || mask))) {
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
        r->nsoft = nsoft; /* its own clip, if it waited, is done */
    }
    if (captured) {
        capture_end(r, &cap);
        cr = r->cr;
        if (sigma > 0)
            blur_surface(r, cap.s, sigma);
        if (L->nshadows > 0) {
            shadows_draw(r, L, n, &m, &cap, sigma, whole);
        } else {
            cairo_identity_matrix(cr);
            cairo_set_source_surface(cr, cap.s, 0, 0);
            cairo_paint(cr);
        }
        capture_release(r, &cap);
    }
    if (blend) {
        cairo_pop_group_to_source(cr);
        cairo_set_operator(cr, blend_ops[L->blend]);
        cairo_identity_matrix(cr);
        cairo_paint(cr);
        cairo_restore(cr); /* the operator, the matrix and the region */
    }
    soft_end(r, waited);
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
