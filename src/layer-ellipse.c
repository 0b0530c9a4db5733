/* layer-ellipse.c - the ellipse layer: radii rx and ry around its center,
 * a unit circle built under S(rx, ry) and painted under the layer's own
 * matrix, so that its stroke keeps its width (scene-v1.md "Layers"). */
#include "layer.h"
#include "shape.h"

static const rf_layer_key_t ellipse_keys[] = {
    { "rx", RF_KEY_NUMBER, RF_KEY_REQUIRED | RF_KEY_NONNEG, RF_KEY_AT(u.ellipse.rx), 0, 0, 0,
      NULL },
    { "ry", RF_KEY_NUMBER, RF_KEY_REQUIRED | RF_KEY_NONNEG, RF_KEY_AT(u.ellipse.ry), 0, 0, 0,
      NULL },
};

/* [-rx, -ry, rx, ry] */
static void ellipse_box(const rf_layer_t *L, const double *s, double b[4])
{
    double rx = rf_nonneg(rf_prop_get(&L->u.ellipse.rx, s));
    double ry = rf_nonneg(rf_prop_get(&L->u.ellipse.ry, s));
    b[0] = -rx;
    b[1] = -ry;
    b[2] = rx;
    b[3] = ry;
}

static int ellipse_shape(rf_shape_t *sh)
{
    const rf_layer_t *L = sh->L;
    const double *s = sh->slots;
    sh->w = rf_nonneg(rf_prop_get(&L->u.ellipse.rx, s));
    sh->h = rf_nonneg(rf_prop_get(&L->u.ellipse.ry, s));
    if (!(sh->w > 0 && sh->h > 0))
        return 0;
    cairo_matrix_t sm;
    cairo_matrix_init_scale(&sm, sh->w, sh->h);
    cairo_matrix_multiply(&sh->em, &sm, sh->m);
    return rf_matrix_usable(&sh->em);
}

/* cairo stores the path in device space: building it under the scaled
 * matrix and going back leaves the stroke undistorted. */
static void ellipse_path(cairo_t *cr, const rf_shape_t *sh)
{
    const cairo_matrix_t *m = sh->m;
    cairo_set_matrix(cr, &sh->em);
    cairo_arc(cr, 0, 0, 1, 0, 2 * RF_PI);
    cairo_close_path(cr);
    cairo_set_matrix(cr, m);
}

/* The rectangle inscribed in the ellipse with its corners on the
 * diagonals of the bounding box. */
static int ellipse_inner(const rf_shape_t *sh, double in[2][4])
{
    double qx = sh->w * RF_SQRT1_2, qy = sh->h * RF_SQRT1_2;
    in[0][0] = -qx, in[0][1] = -qy, in[0][2] = qx, in[0][3] = qy;
    return 1;
}

static void ellipse_huge_path(rf_hsink_t *g, const rf_shape_t *sh)
{
    rf_hsink_ellipse(g, &sh->em);
}

const rf_layer_class_t rf_layer_class_ellipse = {
    "ellipse", ellipse_keys, RF_NELEM(ellipse_keys), 0,
    "an ellipse needs its radii rx and ry",
    .box = ellipse_box, .shape = ellipse_shape, .path = ellipse_path,
    .huge_path = ellipse_huge_path, .inner = ellipse_inner, .draw = rf_render_shape,
};
