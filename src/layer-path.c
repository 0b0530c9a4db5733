/* layer-path.c - the path layer: SVG path data (a name in `paths` or
 * inline), or a morph between two paths of one structure, in canvas
 * coordinates, drawn between the arc-length progresses trim [start, end]
 * over all its figures, filled by fill_rule (scene-v1.md "Layers", "Paths,
 * complete"). A morph mixes its points each frame on the stack (path.h):
 * nothing is allocated per frame. */
#include "layer.h"
#include "shape.h"

static const rf_layer_key_t path_keys[] = {
    { "path", RF_KEY_PATH, RF_KEY_REQUIRED, RF_KEY_AT(u.path.src), 0, 0, 0, NULL },
    { "trim", RF_KEY_PAIR, 0, RF_KEY_AT(u.path.trim0), RF_KEY_AT(u.path.trim1), 0, 1,
      "[start, end]" },
    { "fill_rule", RF_KEY_CHOICE, RF_KEY_DRAWN, RF_KEY_AT(fill_rule), 0, 0, 0,
      "nonzero|evenodd" },
};

static size_t path_ops_max(const rf_layer_t *L)
{
    return rf_path_trim_max(L->u.path.src.path);
}

/* A morph's weight this frame, clamped to [0, 1] (NaN: 0). */
static double mix_weight(const rf_layer_t *L, const double *s)
{
    double w = rf_prop_get(&L->u.path.src.by, s);
    return w > 0 ? (w < 1 ? w : 1) : 0;
}

/* The exact bounds of the whole (untrimmed) path, or of this frame's mix. */
static void path_box(const rf_layer_t *L, const double *s, double b[4])
{
    const rf_path_ref_t *r = &L->u.path.src;
    if (r->path2 != NULL)
        rf_path_mix_bounds(r->path, r->path2, mix_weight(L, s), &b[0], &b[1], &b[2], &b[3]);
    else
        rf_path_bounds(r->path, &b[0], &b[1], &b[2], &b[3]);
}

/* rf_path_trim: exact sub-curves; [0, 1] is the path verbatim. */
static int path_shape(rf_shape_t *sh)
{
    const rf_layer_t *L = sh->L;
    const rf_path_ref_t *r = &L->u.path.src;
    const double *s = sh->slots;
    double t0 = rf_prop_get(&L->u.path.trim0, s), t1 = rf_prop_get(&L->u.path.trim1, s);
    size_t n = r->path2 != NULL
                   ? rf_path_mix_trim(r->path, r->path2, mix_weight(L, s), t0, t1, sh->ops,
                                      sh->ops_cap)
                   : rf_path_trim(r->path, t0, t1, sh->ops, sh->ops_cap);
    sh->nops = n < sh->ops_cap ? n : sh->ops_cap;
    return sh->nops > 0;
}

static void path_path(cairo_t *cr, const rf_shape_t *sh)
{
    for (size_t i = 0; i < sh->nops; i++) {
        const rf_path_op_t *op = &sh->ops[i];
        switch (op->kind) {
        case RF_PATH_OP_MOVE:
            cairo_move_to(cr, op->p[0], op->p[1]);
            break;
        case RF_PATH_OP_LINE:
            cairo_line_to(cr, op->p[0], op->p[1]);
            break;
        case RF_PATH_OP_CURVE:
            cairo_curve_to(cr, op->p[0], op->p[1], op->p[2], op->p[3], op->p[4], op->p[5]);
            break;
        default:
            cairo_close_path(cr);
            break;
        }
    }
}

static void path_huge_path(rf_hsink_t *g, const rf_shape_t *sh)
{
    const cairo_matrix_t *m = sh->m;
    for (size_t i = 0; i < sh->nops; i++) {
        const rf_path_op_t *op = &sh->ops[i];
        switch (op->kind) {
        case RF_PATH_OP_MOVE:
            rf_hsink_move(g, m, op->p[0], op->p[1]);
            break;
        case RF_PATH_OP_LINE:
            rf_hsink_line(g, m, op->p[0], op->p[1]);
            break;
        case RF_PATH_OP_CURVE:
            rf_hsink_curve(g, m, op->p[0], op->p[1], op->p[2], op->p[3], op->p[4], op->p[5]);
            break;
        default:
            rf_hsink_close(g);
            break;
        }
    }
}

const rf_layer_class_t rf_layer_class_path = {
    "path", path_keys, RF_NELEM(path_keys), RF_CLASS_CANVAS,
    "a path layer needs path: a name in 'paths' or SVG path data",
    .ops_max = path_ops_max, .box = path_box, .shape = path_shape, .path = path_path,
    .huge_path = path_huge_path, .draw = rf_render_shape,
};
