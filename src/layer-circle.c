/* layer-circle.c - the circle layer: a circle of radius r around its
 * center (scene-v1.md "Layers"). */
#include "layer.h"
#include "shape.h"

static const rf_layer_key_t circle_keys[] = {
    { "r", RF_KEY_NUMBER, RF_KEY_REQUIRED | RF_KEY_NONNEG, RF_KEY_AT(u.circle.r), 0, 0, 0, NULL },
};

/* [-r, -r, r, r] */
static void circle_box(const rf_layer_t *L, const double *s, double b[4])
{
    double rr = rf_nonneg(rf_prop_get(&L->u.circle.r, s));
    b[0] = b[1] = -rr;
    b[2] = b[3] = rr;
}

static int circle_shape(rf_shape_t *sh)
{
    const rf_layer_t *L = sh->L;
    const double *s = sh->slots;
    sh->w = rf_nonneg(rf_prop_get(&L->u.circle.r, s));
    return sh->w > 0 && isfinite(sh->w);
}

static void circle_path(cairo_t *cr, const rf_shape_t *sh)
{
    cairo_arc(cr, 0, 0, sh->w, 0, 2 * RF_PI);
    cairo_close_path(cr);
}

/* The square inscribed in the circle. */
static int circle_inner(const rf_shape_t *sh, double in[2][4])
{
    double q = sh->w * RF_SQRT1_2;
    in[0][0] = -q, in[0][1] = -q, in[0][2] = q, in[0][3] = q;
    return 1;
}

static void circle_huge_path(rf_hsink_t *g, const rf_shape_t *sh)
{
    const cairo_matrix_t *m = sh->m;
    rf_hsink_move(g, m, sh->w, 0);
    rf_hsink_arc(g, m, 0, 0, sh->w, 0, 2 * RF_PI);
    rf_hsink_close(g);
}

const rf_layer_class_t rf_layer_class_circle = {
    "circle", circle_keys, RF_NELEM(circle_keys), 0,
    "a circle needs its radius r",
    .box = circle_box, .shape = circle_shape, .path = circle_path,
    .huge_path = circle_huge_path, .inner = circle_inner, .draw = rf_render_shape,
};
