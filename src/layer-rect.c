/* layer-rect.c - the rect layer: a rectangle from its top-left corner, with
 * corners rounded by circular arcs of `radius` (scene-v1.md "Layers"). */
#include "layer.h"
#include "shape.h"

static const rf_layer_key_t rect_keys[] = {
    { "width", RF_KEY_NUMBER, RF_KEY_REQUIRED | RF_KEY_NONNEG, RF_KEY_AT(u.rect.width), 0, 0, 0,
      NULL },
    { "height", RF_KEY_NUMBER, RF_KEY_REQUIRED | RF_KEY_NONNEG, RF_KEY_AT(u.rect.height), 0, 0,
      0, NULL },
    { "radius", RF_KEY_NUMBER, RF_KEY_NONNEG, RF_KEY_AT(u.rect.radius), 0, 0, 0, NULL },
};

/* [0, 0, width, height] */
static void rect_box(const rf_layer_t *L, const double *s, double b[4])
{
    b[0] = b[1] = 0;
    b[2] = rf_nonneg(rf_prop_get(&L->u.rect.width, s));
    b[3] = rf_nonneg(rf_prop_get(&L->u.rect.height, s));
}

/* Not drawn with width or height 0; the radius is clamped to [0,
 * min(width, height) / 2]. */
static int rect_shape(rf_shape_t *sh)
{
    const rf_layer_t *L = sh->L;
    const double *s = sh->slots;
    sh->w = rf_nonneg(rf_prop_get(&L->u.rect.width, s));
    sh->h = rf_nonneg(rf_prop_get(&L->u.rect.height, s));
    if (!(sh->w > 0 && sh->h > 0 && isfinite(sh->w) && isfinite(sh->h)))
        return 0;
    sh->rad = fmin(rf_nonneg(rf_prop_get(&L->u.rect.radius, s)), fmin(sh->w, sh->h) / 2);
    return 1;
}

static void rect_path(cairo_t *cr, const rf_shape_t *sh)
{
    if (sh->rad > 0) {
        double w = sh->w, h = sh->h, q = sh->rad;
        cairo_move_to(cr, q, 0);
        cairo_line_to(cr, w - q, 0);
        cairo_arc(cr, w - q, q, q, -RF_PI / 2, 0);
        cairo_line_to(cr, w, h - q);
        cairo_arc(cr, w - q, h - q, q, 0, RF_PI / 2);
        cairo_line_to(cr, q, h);
        cairo_arc(cr, q, h - q, q, RF_PI / 2, RF_PI);
        cairo_line_to(cr, 0, q);
        cairo_arc(cr, q, q, q, RF_PI, 3 * RF_PI / 2);
        cairo_close_path(cr);
    } else {
        cairo_rectangle(cr, 0, 0, sh->w, sh->h);
    }
}

/* The rect less its corners' squares: the middle band across, the middle
 * band down (one rect without a radius). */
static int rect_inner(const rf_shape_t *sh, double in[2][4])
{
    double w = sh->w, h = sh->h, q = sh->rad;
    in[0][0] = q, in[0][1] = 0, in[0][2] = w - q, in[0][3] = h;
    in[1][0] = 0, in[1][1] = q, in[1][2] = w, in[1][3] = h - q;
    return q > 0 ? 2 : 1;
}

static void rect_huge_path(rf_hsink_t *g, const rf_shape_t *sh)
{
    const cairo_matrix_t *m = sh->m;
    double w = sh->w, h = sh->h, q = sh->rad;
    rf_hsink_move(g, m, q, 0);
    rf_hsink_line(g, m, w - q, 0);
    if (q > 0)
        rf_hsink_arc(g, m, w - q, q, q, -RF_PI / 2, 0);
    rf_hsink_line(g, m, w, h - q);
    if (q > 0)
        rf_hsink_arc(g, m, w - q, h - q, q, 0, RF_PI / 2);
    rf_hsink_line(g, m, q, h);
    if (q > 0)
        rf_hsink_arc(g, m, q, h - q, q, RF_PI / 2, RF_PI);
    rf_hsink_line(g, m, 0, q);
    if (q > 0)
        rf_hsink_arc(g, m, q, q, q, RF_PI, 3 * RF_PI / 2);
    rf_hsink_close(g);
}

const rf_layer_class_t rf_layer_class_rect = {
    "rect", rect_keys, RF_NELEM(rect_keys), 0,
    "a rect needs width and height",
    .box = rect_box, .shape = rect_shape, .path = rect_path, .huge_path = rect_huge_path,
    .inner = rect_inner,
    .draw = rf_render_shape,
};
