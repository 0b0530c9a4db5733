/* render-gradfill.c - the renderer's side of gradfill.h: which fills it
 * paints (render-int.h render_fill_gradient_box) and the canvas it paints
 * them into. */
#include <math.h>
#include <stdint.h>

#include "gradfill.h"
#include "render-int.h"

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
    for (uint32_t i = 0; i < p->nstops; i++) {
        rf_color_t c = rf_colorp_get(&p->stops[i].color, r->slots);
        if (!(c.a >= 1 && isfinite(c.r) && isfinite(c.g) && isfinite(c.b)))
            return 0; /* translucent (composited, not copied), or not a number */
        st[i] = (rf_gradfill_stop_t){ p->stops[i].offset, c.r, c.g, c.b };
    }
    double x0 = rf_prop_get(&p->p0[0], r->slots), y0 = rf_prop_get(&p->p0[1], r->slots);
    double x1 = rf_prop_get(&p->p1[0], r->slots), y1 = rf_prop_get(&p->p1[1], r->slots);
    if (!(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1)))
        return 0;
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS || cairo_get_target(cr) != r->surface ||
        cairo_get_group_target(cr) != r->surface || cairo_get_operator(cr) != CAIRO_OPERATOR_OVER ||
        cairo_image_surface_get_format(r->surface) != CAIRO_FORMAT_ARGB32 || !rf_gradfill_usable())
        return 0;
    int cw = cairo_image_surface_get_width(r->surface), ch = cairo_image_surface_get_height(r->surface);
    double box[4] = { fmin(X0, X0 + dX), fmin(Y0, Y0 + dY), fmax(X0, X0 + dX), fmax(Y0, Y0 + dY) };
    /* the clip in device pixels; save and restore give back cairo's state
     * bit for bit (its inverse matrix too, which the fill would use) */
    cairo_save(cr);
    cairo_identity_matrix(cr);
    cairo_rectangle_list_t *clip = cairo_copy_clip_rectangle_list(cr);
    cairo_restore(cr);
    int ok = clip->status == CAIRO_STATUS_SUCCESS && clip->num_rectangles == 1;
    if (ok) {
        const cairo_rectangle_t *c = &clip->rectangles[0];
        ok = c->x == floor(c->x) && c->y == floor(c->y) && c->width == floor(c->width) &&
             c->height == floor(c->height);
        box[0] = fmax(box[0], fmax(c->x, 0));
        box[1] = fmax(box[1], fmax(c->y, 0));
        box[2] = fmin(box[2], fmin(c->x + c->width, cw));
        box[3] = fmin(box[3], fmin(c->y + c->height, ch));
    }
    cairo_rectangle_list_destroy(clip);
    if (!ok)
        return 0;
    if (!(box[0] < box[2] && box[1] < box[3]))
        return 1; /* nothing of it on the canvas: nothing to paint */
    cairo_matrix_t inv;
    rf_gradfill_inverse(cr, &inv);
    int ib[4] = { (int)box[0], (int)box[1], (int)box[2], (int)box[3] };
    cairo_surface_flush(r->surface);
    if (!rf_gradfill_linear(cairo_image_surface_get_data(r->surface),
                            cairo_image_surface_get_stride(r->surface), cw, ch, ib,
                            &inv, x0, y0, x1, y1, st, (int)p->nstops))
        return 0;
    cairo_surface_mark_dirty_rectangle(r->surface, ib[0], ib[1], ib[2] - ib[0], ib[3] - ib[1]);
    r->gradfills++;
    return 1;
}
