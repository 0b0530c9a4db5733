/* render-gradfill.c - the renderer's side of gradfill.h: which fills it
 * paints (render-int.h render_fill_gradient_box, render_coverage_gradient)
 * and the canvas it paints them into. */
#include <math.h>
#include <stdint.h>

#include "gradfill.h"
#include "render-int.h"

/* Can gradfill.h paint into the canvas now: cr draws into it, not into a
 * group, with operator OVER, the probe agreed (boxes, or through a mask),
 * and the clip is one rectangle of whole pixels, which goes into clip[4]
 * (device pixels, on the canvas)? Reading the clip saves and restores
 * cairo's state, bit for bit (its inverse matrix too, which a fill would
 * use); its rectangle list is a small allocation, made only for a fill
 * that passed every other test. */
static int canvas_ready(rf_renderer_t *r, int mask, int clip[4])
{
    cairo_t *cr = r->cr;
    if (!(cairo_status(cr) == CAIRO_STATUS_SUCCESS && cairo_get_target(cr) == r->surface &&
          cairo_get_group_target(cr) == r->surface &&
          cairo_get_operator(cr) == CAIRO_OPERATOR_OVER &&
          cairo_image_surface_get_format(r->surface) == CAIRO_FORMAT_ARGB32 &&
          (mask ? rf_gradfill_mask_usable() : rf_gradfill_usable())))
        return 0;
    int cw = cairo_image_surface_get_width(r->surface), ch = cairo_image_surface_get_height(r->surface);
    cairo_save(cr);
    cairo_identity_matrix(cr);
    cairo_rectangle_list_t *list = cairo_copy_clip_rectangle_list(cr);
    cairo_restore(cr);
    int ok = list->status == CAIRO_STATUS_SUCCESS && list->num_rectangles == 1;
    if (ok) {
        const cairo_rectangle_t *c = &list->rectangles[0];
        ok = c->x == floor(c->x) && c->y == floor(c->y) && c->width == floor(c->width) &&
             c->height == floor(c->height) && fabs(c->x) < 1e9 && fabs(c->y) < 1e9 &&
             c->width < 1e9 && c->height < 1e9;
        if (ok) {
            clip[0] = (int)fmax(c->x, 0);
            clip[1] = (int)fmax(c->y, 0);
            clip[2] = (int)fmin(c->x + c->width, cw);
            clip[3] = (int)fmin(c->y + c->height, ch);
        }
    }
    cairo_rectangle_list_destroy(list);
    return ok;
}

/* The canvas's pixels, flushed for writing. */
typedef struct {
    unsigned char *data;
    int stride, width, height;
} canvas_t;

static canvas_t canvas_pixels(rf_renderer_t *r)
{
    cairo_surface_flush(r->surface);
    return (canvas_t){ cairo_image_surface_get_data(r->surface),
                       cairo_image_surface_get_stride(r->surface),
                       cairo_image_surface_get_width(r->surface),
                       cairo_image_surface_get_height(r->surface) };
}

/* After painting the box (x, y, w, h) inside clip into the canvas. */
static void painted(rf_renderer_t *r, const int clip[4], int x, int y, int w, int h)
{
    int bx0 = x > clip[0] ? x : clip[0], by0 = y > clip[1] ? y : clip[1];
    int bx1 = x + w < clip[2] ? x + w : clip[2], by1 = y + h < clip[3] ? y + h : clip[3];
    if (bx1 > bx0 && by1 > by0)
        cairo_surface_mark_dirty_rectangle(r->surface, bx0, by0, bx1 - bx0, by1 - by0);
    r->gradfills++;
}

/* The stops of p now, as gradfill.h takes them: 0 when one is not a
 * number (cairo would be handed NaN). */
static int stops_now(const rf_renderer_t *r, const rf_paint_t *p, rf_gradfill_stop_t *st,
                     int opaque)
{
    for (uint32_t i = 0; i < p->nstops; i++) {
        rf_color_t c = rf_colorp_get(&p->stops[i].color, r->slots);
        if (!(isfinite(c.r) && isfinite(c.g) && isfinite(c.b) && isfinite(c.a)) ||
            (opaque && !(c.a >= 1)))
            return 0;
        st[i] = (rf_gradfill_stop_t){ p->stops[i].offset, c.r, c.g, c.b, c.a };
    }
    return 1;
}

int render_fill_gradient_box(rf_renderer_t *r, const rf_layer_t *L, const rf_shape_t *sh,
                             const cairo_matrix_t *m)
{
    const rf_paint_t *p = &L->fill;
    cairo_t *cr = r->cr;
    if (r->gradfill_off || L->type != RF_LAYER_RECT || sh->rad > 0 || p->kind != RF_PAINT_LINEAR ||
        p->nstops < 2 || p->nstops > RF_GRADFILL_MAX_STOPS || m->xy != 0 || m->yx != 0)
        return 0;
    /* cairo_rectangle(0, 0, w, h): the corner m maps the origin to, then
     * m's distances (each a whole number of pixels, well inside cairo's
     * 24.8 fixed point) */
    double X0 = m->x0, Y0 = m->y0, dX = m->xx * sh->w, dY = m->yy * sh->h;
    const double lim = 4194304.0;
    if (!(fabs(X0) < lim && fabs(Y0) < lim && fabs(dX) < lim && fabs(dY) < lim) ||
        X0 != floor(X0) || Y0 != floor(Y0) || dX != floor(dX) || dY != floor(dY) ||
        dX == 0 || dY == 0)
        return 0;
    rf_gradfill_stop_t st[RF_GRADFILL_MAX_STOPS];
    if (!stops_now(r, p, st, 1))
        return 0; /* translucent (composited, not copied), or not a number */
    double x0 = rf_prop_get(&p->p0[0], r->slots), y0 = rf_prop_get(&p->p0[1], r->slots);
    double x1 = rf_prop_get(&p->p1[0], r->slots), y1 = rf_prop_get(&p->p1[1], r->slots);
    if (!(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1)))
        return 0;
    int clip[4];
    if (!canvas_ready(r, 0, clip))
        return 0;
    double box[4] = { fmin(X0, X0 + dX), fmin(Y0, Y0 + dY), fmax(X0, X0 + dX), fmax(Y0, Y0 + dY) };
    box[0] = fmax(box[0], clip[0]);
    box[1] = fmax(box[1], clip[1]);
    box[2] = fmin(box[2], clip[2]);
    box[3] = fmin(box[3], clip[3]);
    if (!(box[0] < box[2] && box[1] < box[3]))
        return 1; /* nothing of it on the canvas: nothing to paint */
    cairo_matrix_t inv;
    rf_gradfill_inverse(cr, &inv);
    int ib[4] = { (int)box[0], (int)box[1], (int)box[2], (int)box[3] };
    canvas_t cv = canvas_pixels(r);
    if (!rf_gradfill_linear(cv.data, cv.stride, cv.width, cv.height, ib, &inv, x0, y0, x1, y1, st,
                            (int)p->nstops, render_helper(r)))
        return 0;
    painted(r, ib, ib[0], ib[1], ib[2] - ib[0], ib[3] - ib[1]);
    return 1;
}

int render_coverage_gradient(rf_renderer_t *r, const rf_paint_t *p, const cairo_matrix_t *m,
                             const uint8_t *a, int stride, int x, int y, int w, int h)
{
    cairo_t *cr = r->cr;
    int radial = p->kind == RF_PAINT_RADIAL;
    if (r->gradfill_off || !(radial || p->kind == RF_PAINT_LINEAR) || p->nstops < 1 ||
        p->nstops > RF_GRADFILL_MAX_STOPS)
        return 0;
    double x0 = rf_prop_get(&p->p0[0], r->slots), y0 = rf_prop_get(&p->p0[1], r->slots);
    double x1 = 0, y1 = 0, rad = 0;
    if (radial)
        rad = rf_prop_get(&p->radius, r->slots);
    else {
        x1 = rf_prop_get(&p->p1[0], r->slots);
        y1 = rf_prop_get(&p->p1[1], r->slots);
    }
    rf_gradfill_stop_t st[RF_GRADFILL_MAX_STOPS];
    /* a degenerate gradient is the last stop's color (render.c
     * gradient_create): cairo's */
    int usable = radial ? isfinite(rad) && rad > 0
                        : isfinite(x1) && isfinite(y1) && !(x0 == x1 && y0 == y1);
    int clip[4];
    if (!(usable && isfinite(x0) && isfinite(y0)) || !stops_now(r, p, st, 0) ||
        !canvas_ready(r, 1, clip))
        return 0;
    /* the inverse of m as cairo holds it when the source is set under m */
    cairo_matrix_t inv;
    cairo_set_matrix(cr, m);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        return 0;
    rf_gradfill_inverse(cr, &inv);
    cairo_identity_matrix(cr);
    const rf_gradfill_mask_t mk = { a, stride, x, y, w, h, render_helper(r) };
    canvas_t cv = canvas_pixels(r);
    int n = (int)p->nstops;
    if (!(radial ? rf_gradfill_radial(cv.data, cv.stride, cv.width, cv.height, clip, &inv, x0, y0,
                                      rad, st, n, &mk)
                 : rf_gradfill_linear_mask(cv.data, cv.stride, cv.width, cv.height, clip, &inv, x0,
                                           y0, x1, y1, st, n, &mk)))
        return 0;
    painted(r, clip, x, y, w, h);
    return 1;
}

/* The largest coverage box (pixels) a solid is composited here. */
#define RF_SOLID_MASK_MAX 4096

/* The straight color of p at alpha into c when gradfill.h may paint it
 * (a solid, finite; RF_GRADFILL_OFF unset). */
static int solid_color(const rf_renderer_t *r, const rf_paint_t *p, double alpha, double c[4])
{
    return !r->gradfill_off && render_paint_solid(r, p, alpha, c) &&
           isfinite(c[0]) && isfinite(c[1]) && isfinite(c[2]) && isfinite(c[3]);
}

int render_coverage_solid_rects(rf_renderer_t *r, const rf_paint_t *p, double alpha,
                                const rf_coverage_t *cov, const int32_t (*rects)[4], int n)
{
    double c[4];
    int clip[4];
    if (!solid_color(r, p, alpha, c) || !canvas_ready(r, 1, clip))
        return 0;
    canvas_t cv = canvas_pixels(r);
    for (int i = 0; i < n; i++) {
        const int32_t *b = rects[i];
        const rf_gradfill_mask_t mk = { cov->a + (size_t)b[1] * (size_t)cov->stride + (size_t)b[0],
                                        cov->stride, cov->ox + b[0], cov->oy + b[1],
                                        b[2] - b[0], b[3] - b[1], NULL };
        rf_gradfill_solid_mask(cv.data, cv.stride, cv.width, cv.height, clip, c, &mk);
        painted(r, clip, mk.x, mk.y, mk.w, mk.h);
    }
    return 1;
}

int render_coverage_solid_ready(rf_renderer_t *r, const rf_paint_t *p, double alpha)
{
    double c[4];
    int clip[4];
    return solid_color(r, p, alpha, c) && canvas_ready(r, 1, clip);
}

int render_coverage_solid(rf_renderer_t *r, const rf_paint_t *p, double alpha, const uint8_t *a,
                          int stride, int x, int y, int w, int h)
{
    double c[4];
    /* pixman composites a solid as fast as this per pixel: only cairo's
     * own overhead, about 9,000 instructions a call, is saved, which
     * matters for small shapes */
    if ((int64_t)w * h > RF_SOLID_MASK_MAX || !solid_color(r, p, alpha, c))
        return 0;
    int clip[4];
    if (!canvas_ready(r, 1, clip))
        return 0;
    const rf_gradfill_mask_t mk = { a, stride, x, y, w, h, NULL };
    canvas_t cv = canvas_pixels(r);
    rf_gradfill_solid_mask(cv.data, cv.stride, cv.width, cv.height, clip, c, &mk);
    painted(r, clip, x, y, w, h);
    return 1;
}
