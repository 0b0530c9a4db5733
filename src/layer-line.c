/* layer-line.c - the line layer: a segment from (x1, y1) to (x2, y2) in
 * canvas coordinates, stroked with butt caps, never filled (scene-v1.md
 * "Layers"). */
#include "layer.h"
#include "shape.h"

static const rf_layer_key_t line_keys[] = {
    { "x1", RF_KEY_NUMBER, RF_KEY_REQUIRED, RF_KEY_AT(u.line.x1), 0, 0, 0, NULL },
    { "y1", RF_KEY_NUMBER, RF_KEY_REQUIRED, RF_KEY_AT(u.line.y1), 0, 0, 0, NULL },
    { "x2", RF_KEY_NUMBER, RF_KEY_REQUIRED, RF_KEY_AT(u.line.x2), 0, 0, 0, NULL },
    { "y2", RF_KEY_NUMBER, RF_KEY_REQUIRED, RF_KEY_AT(u.line.y2), 0, 0, 0, NULL },
};

/* The bounding box of the two points; not drawable when one is not
 * finite. */
static void line_box(const rf_layer_t *L, const double *s, double b[4])
{
    double x1 = rf_prop_get(&L->u.line.x1, s), y1 = rf_prop_get(&L->u.line.y1, s);
    double x2 = rf_prop_get(&L->u.line.x2, s), y2 = rf_prop_get(&L->u.line.y2, s);
    b[0] = fmin(x1, x2);
    b[1] = fmin(y1, y2);
    b[2] = fmax(x1, x2);
    b[3] = fmax(y1, y2);
    if (!(isfinite(x1) && isfinite(y1) && isfinite(x2) && isfinite(y2)))
        b[0] = NAN; /* fmin would have hidden a NaN */
}

static int line_shape(rf_shape_t *sh)
{
    (void)sh;
    return 1; /* finite points: the layout checked them */
}

static void line_path(cairo_t *cr, const rf_shape_t *sh)
{
    const rf_layer_t *L = sh->L;
    const double *s = sh->slots;
    cairo_move_to(cr, rf_prop_get(&L->u.line.x1, s), rf_prop_get(&L->u.line.y1, s));
    cairo_line_to(cr, rf_prop_get(&L->u.line.x2, s), rf_prop_get(&L->u.line.y2, s));
}

static void line_huge_path(rf_hsink_t *g, const rf_shape_t *sh)
{
    const rf_layer_t *L = sh->L;
    const double *s = sh->slots;
    const cairo_matrix_t *m = sh->m;
    rf_hsink_move(g, m, rf_prop_get(&L->u.line.x1, s), rf_prop_get(&L->u.line.y1, s));
    rf_hsink_line(g, m, rf_prop_get(&L->u.line.x2, s), rf_prop_get(&L->u.line.y2, s));
}

const rf_layer_class_t rf_layer_class_line = {
    "line", line_keys, RF_NELEM(line_keys), RF_CLASS_CANVAS | RF_CLASS_NO_FILL,
    "a line needs x1, y1, x2 and y2",
    .box = line_box, .shape = line_shape, .path = line_path, .huge_path = line_huge_path,
    .draw = rf_render_shape,
};
