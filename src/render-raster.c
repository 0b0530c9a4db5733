/* render-raster.c - shape fills and strokes through FreeType's rasterizer
 * (render-int.h): the exact covered area of each pixel (raster.h) into
 * the coverage buffer, the paint through it, instead of cairo's fill or
 * stroke, which sample 15 sub-rows where an edge starts or ends in a row
 * and cost 2 to 5 times the instructions (BENCHMARKS.md, "Shape fills by
 * FreeType", "Strokes by FreeType").
 *
 * What they take, and why no more: FreeType adds up the winding of each
 * pixel's parts before its fill rule, so where two edges of the same
 * direction cross inside a pixel (overlapping contours: a self-crossing
 * path, a glyph's overlapping strokes, cairo's pieces of a stroke) it
 * comes out up to 25 levels too dark; cairo samples it. So:
 *   - fills of circles, ellipses and rects: one convex contour; not an
 *     axis-aligned rect without corners (cairo fills whole and partial
 *     pixels of a box exactly, and faster);
 *   - strokes, not dashed, of a shape whose outline is one closed figure
 *     (circles, ellipses, rects, a path of one closed subpath, a text of
 *     one glyph of one contour) under a matrix that keeps the pen a disk
 *     (rotation, uniform scale, a mirror), the same rect excepted when its
 *     joins are square (miters, limit >= sqrt 2: cairo strokes it as
 *     boxes): the outline of the stroke is two contours that do not cross
 *     (offset.h), when offset.h can show that they do not; otherwise cairo
 *     strokes it;
 *   - strokes, not dashed, with butt or square caps, of an open figure
 *     (a path of one open subpath, a line not along x or y) that runs one
 *     way along x or y, when offset.h shows its outline (one contour)
 *     does not cross itself: rasterized a slab of RF_SLAB_PX pixels at a
 *     time (FreeType walks all of an outline's lines for each band of
 *     rows), and a solid painted through the slabs' windows only, so a
 *     1,920 px plot line costs its pixels, not its box.
 * The outline comes from the layer type's huge_path in device space
 * (render-huge.c's sink in its raster mode: curves and arcs flattened
 * within RF_RASTER_TOL px for a fill, RF_STROKE_TOL for a stroke). Gradients, opacity, operators, clips and groups
 * behave as with cairo: only the coverage changes. */
#include <math.h>
#include <stdlib.h>

#include "offset.h"
#include "render-int.h"

/* Rasterizes the outline ras into the coverage buffer over the view and
 * paints p (cached pattern pat) through it at alpha under m. 1 when done
 * (or nothing on the view), 0 when cairo must draw the shape (nothing
 * painted). */
static int raster_paint(rf_renderer_t *r, rf_raster_t *ras, int evenodd, const rf_paint_t *p,
                        cairo_pattern_t *pat, double alpha, const cairo_matrix_t *m)
{
    rf_coverage_t *c = rf_render_coverage(r);
    if (c == NULL)
        return 0;
    int64_t x0, y0, x1, y1;
    int b = rf_raster_bounds(ras, &x0, &y0, &x1, &y1);
    if (b < 0)
        return 0;
    /* the outline's pixels on the view */
    x0 = x0 > c->ox ? x0 : c->ox;
    y0 = y0 > c->oy ? y0 : c->oy;
    x1 = x1 < (int64_t)c->ox + c->w ? x1 : (int64_t)c->ox + c->w;
    y1 = y1 < (int64_t)c->oy + c->h ? y1 : (int64_t)c->oy + c->h;
    if (b == 0 || x1 <= x0 || y1 <= y0)
        return 1; /* nothing on the view */
    uint8_t *a = c->a + (size_t)(y0 - c->oy) * (size_t)c->stride + (size_t)(x0 - c->ox);
    int st = rf_raster_fill(ras, evenodd, a, (int)(x1 - x0), (int)(y1 - y0), c->stride, x0, y0);
    c->x0 = (int32_t)(x0 - c->ox);
    c->y0 = (int32_t)(y0 - c->oy);
    c->x1 = (int32_t)(x1 - c->ox);
    c->y1 = (int32_t)(y1 - c->oy);
    if (st != 0) { /* cleared, for cairo to draw */
        render_coverage_clear(c, c->x0, c->y0, c->x1, c->y1);
        return 0;
    }
    render_coverage_paint(r, p, pat, alpha, m);
    return 1;
}

/* An open stroke's outline (r->ras_out, offset.h) a slab of
 * RF_SLAB_PX pixels at a time into the coverage buffer: each slab's
 * lines alone through FreeType, its window the slab's pixels; and a
 * solid painted through those windows only (RF_SLABS_MAX of them), the
 * rest of the box holding nothing. */
#define RF_SLAB_PX 64
#define RF_SLABS_MAX 256
typedef struct slabs {
    rf_coverage_t *c;
    int axis;
    int64_t box[4];   /* the pixels filled: x0, y0, x1, y1 on the view */
    int n;            /* windows filled (more than RF_SLABS_MAX: box only) */
    int32_t rect[RF_SLABS_MAX][4];   /* in the buffer */
} slabs_t;

static int slab_fill(void *ctx, rf_raster_t *piece, int64_t c0, int64_t c1)
{
    slabs_t *sl = ctx;
    rf_coverage_t *c = sl->c;
    int64_t x0, y0, x1, y1;
    int b = rf_raster_bounds(piece, &x0, &y0, &x1, &y1);
    if (b < 0)
        return 1;
    if (sl->axis == 0) {
        x0 = x0 > c0 ? x0 : c0;
        x1 = x1 < c1 ? x1 : c1;
    } else {
        y0 = y0 > c0 ? y0 : c0;
        y1 = y1 < c1 ? y1 : c1;
    }
    x0 = x0 > c->ox ? x0 : c->ox;
    y0 = y0 > c->oy ? y0 : c->oy;
    x1 = x1 < (int64_t)c->ox + c->w ? x1 : (int64_t)c->ox + c->w;
    y1 = y1 < (int64_t)c->oy + c->h ? y1 : (int64_t)c->oy + c->h;
    if (b == 0 || x1 <= x0 || y1 <= y0)
        return 0;
    /* counted before the fill: a failed one may have written some */
    sl->box[0] = x0 < sl->box[0] ? x0 : sl->box[0];
    sl->box[1] = y0 < sl->box[1] ? y0 : sl->box[1];
    sl->box[2] = x1 > sl->box[2] ? x1 : sl->box[2];
    sl->box[3] = y1 > sl->box[3] ? y1 : sl->box[3];
    if (sl->n < RF_SLABS_MAX) {
        int32_t *q = sl->rect[sl->n];
        q[0] = (int32_t)(x0 - c->ox);
        q[1] = (int32_t)(y0 - c->oy);
        q[2] = (int32_t)(x1 - c->ox);
        q[3] = (int32_t)(y1 - c->oy);
    }
    sl->n++;
    uint8_t *a = c->a + (size_t)(y0 - c->oy) * (size_t)c->stride + (size_t)(x0 - c->ox);
    return rf_raster_fill(piece, 0, a, (int)(x1 - x0), (int)(y1 - y0), c->stride, x0, y0) != 0;
}

static int slabs_paint(rf_renderer_t *r, const rf_offset_open_info_t *info, const rf_paint_t *p,
                       cairo_pattern_t *pat, double alpha, const cairo_matrix_t *m, int sparse)
{
    rf_coverage_t *c = rf_render_coverage(r);
    if (c == NULL)
        return 0;
    slabs_t sl;
    sl.c = c;
    sl.axis = info->axis;
    sl.box[0] = sl.box[1] = INT64_MAX;
    sl.box[2] = sl.box[3] = INT64_MIN;
    sl.n = 0;
    int st = rf_offset_open_pieces(r->ras_out, info, RF_SLAB_PX, r->ras_piece, slab_fill, &sl);
    if (sl.n == 0)
        return st == 0; /* nothing on the view (or nothing written before it failed) */
    c->x0 = (int32_t)(sl.box[0] - c->ox);
    c->y0 = (int32_t)(sl.box[1] - c->oy);
    c->x1 = (int32_t)(sl.box[2] - c->ox);
    c->y1 = (int32_t)(sl.box[3] - c->oy);
    if (st != 0) { /* cleared, for cairo to draw */
        render_coverage_clear(c, c->x0, c->y0, c->x1, c->y1);
        return 0;
    }
    if (sparse && sl.n <= RF_SLABS_MAX &&
        render_coverage_solid_rects(r, p, alpha, c, (const int32_t(*)[4])sl.rect, sl.n)) {
        for (int i = 0; i < sl.n; i++)
            render_coverage_clear(c, sl.rect[i][0], sl.rect[i][1], sl.rect[i][2], sl.rect[i][3]);
        cairo_set_matrix(r->cr, m);
        return 1;
    }
    render_coverage_paint(r, p, pat, alpha, m);
    return 1;
}

/* The shape's outline in device space into r->ras, its curves and arcs
 * flattened within RF_RASTER_TOL px (a fill) or RF_STROKE_TOL (a stroke)
 * all along (the raster sink does not clip); its subpaths and how many of
 * them were closed into *nsub, *nclosed. 0, or -1 when cairo must draw
 * the shape (no memory, or a point beyond double precision). */
static int outline(rf_renderer_t *r, const rf_layer_t *L, const rf_shape_t *sh, int stroke,
                   int *nsub, int *nclosed)
{
    if (r->ras == NULL && (r->ras = rf_raster_create()) == NULL)
        return -1;
    rf_hsink_t g;
    hsink_init_raster(&g, r->ras, r->view);
    if (stroke)
        g.tol = RF_STROKE_TOL;
    hsink_begin(&g, stroke);
    rf_layer_class(L)->huge_path(&g, sh);
    hsink_end(&g);
    *nsub = g.nsub;
    *nclosed = g.nclosed;
    return g.imprecise ? -1 : 0;
}

/* An axis-aligned rect without corners: cairo's boxes are exact. */
static int plain_box(const rf_layer_t *L, const rf_shape_t *sh)
{
    return L->type == RF_LAYER_RECT && sh->rad <= 0 && sh->m->xy == 0 && sh->m->yx == 0;
}

int render_raster_fill(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                       const rf_shape_t *sh, double alpha)
{
    int nsub, nclosed;
    if (!(L->type == RF_LAYER_CIRCLE || L->type == RF_LAYER_ELLIPSE || L->type == RF_LAYER_RECT) ||
        plain_box(L, sh) || outline(r, L, sh, 0, &nsub, &nclosed) != 0)
        return 0;
    return raster_paint(r, r->ras, L->fill_rule == RF_FILL_EVENODD, &L->fill, n->pat[0], alpha,
                        sh->m);
}

/* Would cairo stroke it for less: the box of the outline (a pixel more
 * each side) over RF_HOLLOW_PER_POINT times its points? The stroke's mask
 * is composited over the whole box, about 5 instructions a pixel whether
 * covered or not (a ring's hollow too), where cairo composites the
 * ring's spans only; each point of the outline costs cairo about 1,300
 * instructions more than it costs the offset outline and FreeType (a
 * 2,000-shape frame's blobs). A thin border round a large card goes to
 * cairo this way (box 107K px, 56 points), a blob's stroke does not (3K
 * to 30K px, 200 points). */
#define RF_HOLLOW_PER_POINT 256
static int hollow_ring(const rf_raster_t *ras, uint32_t n)
{
    int64_t x0, y0, x1, y1;
    return rf_raster_bounds(ras, &x0, &y0, &x1, &y1) == 1 &&
           (double)(x1 - x0) * (double)(y1 - y0) > (double)RF_HOLLOW_PER_POINT * n;
}

/* Can the shape's outline be one closed figure? Not a line's; a path's
 * only when its ops are one move, then lines and curves, then a close
 * (the open strokes of curves skip flattening their outline for nothing). */
static int may_close(const rf_layer_t *L, const rf_shape_t *sh)
{
    if (L->type == RF_LAYER_LINE)
        return 0;
    if (L->type != RF_LAYER_PATH)
        return 1;
    if (sh->nops < 3 || sh->ops[0].kind != RF_PATH_OP_MOVE ||
        sh->ops[sh->nops - 1].kind != RF_PATH_OP_CLOSE)
        return 0;
    for (size_t i = 1; i + 1 < sh->nops; i++)
        if (sh->ops[i].kind != RF_PATH_OP_LINE && sh->ops[i].kind != RF_PATH_OP_CURVE)
            return 0;
    return 1;
}

/* Can the shape's outline be one open figure? A line's, unless it runs
 * along x or y on the device (with butt or square caps a box, which
 * cairo strokes exactly, and faster); a path's when its ops are one
 * move, then lines and curves, no close. */
static int may_open(const rf_layer_t *L, const rf_shape_t *sh)
{
    if (L->type == RF_LAYER_LINE) {
        const cairo_matrix_t *m = sh->m;
        double dx = rf_prop_get(&L->u.line.x2, sh->slots) - rf_prop_get(&L->u.line.x1, sh->slots);
        double dy = rf_prop_get(&L->u.line.y2, sh->slots) - rf_prop_get(&L->u.line.y1, sh->slots);
        double ux = m->xx * dx + m->xy * dy, uy = m->yx * dx + m->yy * dy;
        return ux != 0 && uy != 0;
    }
    if (L->type != RF_LAYER_PATH || sh->nops < 2 || sh->ops[0].kind != RF_PATH_OP_MOVE)
        return 0;
    for (size_t i = 1; i < sh->nops; i++)
        if (sh->ops[i].kind != RF_PATH_OP_LINE && sh->ops[i].kind != RF_PATH_OP_CURVE)
            return 0;
    return 1;
}

/* An open stroke's polyline (*xy, *n points) with every edge longer than
 * RF_EDGE_PX cut into equal parts at most that long, in r->open_xy (kept
 * for the next): a slab's piece keeps the edges over it whole, and
 * FreeType walks all of an edge's cells, so a line across the canvas was
 * walked once a slab (256 times on a 16,384 px canvas). 0, or -1 when out
 * of memory or past FreeType's points (cairo strokes it). */
#define RF_EDGE_PX 48.0
static int cut_long(rf_renderer_t *r, const double **xy, uint32_t *n)
{
    const double *p = *xy;
    double need = 1;
    for (uint32_t i = 0; i + 1 < *n; i++) /* a NaN edge: one part (the raster refuses it) */
        need += fmax(1, ceil(hypot(p[2 * i + 2] - p[2 * i], p[2 * i + 3] - p[2 * i + 1]) /
                             RF_EDGE_PX));
    if (need == *n)
        return 0; /* none longer */
    if (!(need <= RF_RASTER_MAX_POINTS))
        return -1;
    if (need > r->open_cap) {
        double *q = realloc(r->open_xy, (size_t)need * 2 * sizeof *q);
        if (q == NULL)
            return -1;
        r->open_xy = q;
        r->open_cap = (uint32_t)need;
    }
    double *q = r->open_xy;
    uint32_t m = 0;
    for (uint32_t i = 0; i + 1 < *n; i++) {
        double x0 = p[2 * i], y0 = p[2 * i + 1], dx = p[2 * i + 2] - x0, dy = p[2 * i + 3] - y0;
        int parts = (int)fmax(1, ceil(hypot(dx, dy) / RF_EDGE_PX));
        for (int k = 0; k < parts; k++) {
            q[2 * m] = x0 + dx * k / parts;
            q[2 * m + 1] = y0 + dy * k / parts;
            m++;
        }
    }
    q[2 * m] = p[2 * (*n - 1)];
    q[2 * m + 1] = p[2 * (*n - 1) + 1];
    m++;
    *xy = q;
    *n = m;
    return 0;
}

/* The direction a path starts (end 0) or ends (end 1) in on the device,
 * as cairo's stroker takes it for a cap, into d (not unit): its first
 * (last) op of some length, zero-length ones skipped as cairo drops them;
 * when that is a curve, from its start to its first control point, or to
 * the next when they coincide (the other way round at its end): 1; 0
 * when it is a line (the flattened edge is the direction) or there is
 * none. */
static int end_tangent(const rf_shape_t *sh, int end, double d[2])
{
    if (sh->L->type != RF_LAYER_PATH || sh->nops < 2)
        return 0;
    for (size_t j = 1; j < sh->nops; j++) {
        size_t i = end ? sh->nops - j : j;
        const rf_path_op_t *op = &sh->ops[i], *prev = &sh->ops[i - 1];
        const double *ps = prev->kind == RF_PATH_OP_CURVE ? prev->p + 4 : prev->p;
        int curve = op->kind == RF_PATH_OP_CURVE;
        double q[4][2] = { { ps[0], ps[1] }, { op->p[0], op->p[1] },
                           { curve ? op->p[2] : op->p[0], curve ? op->p[3] : op->p[1] },
                           { curve ? op->p[4] : op->p[0], curve ? op->p[5] : op->p[1] } };
        double dx = 0, dy = 0;
        for (int k = 1; k <= 3 && dx == 0 && dy == 0; k++) {
            const double *a = end ? q[3 - k] : q[0], *b = end ? q[3] : q[k];
            dx = b[0] - a[0];
            dy = b[1] - a[1];
        }
        if (dx == 0 && dy == 0)
            continue;   /* of no length */
        if (!curve)
            return 0;
        const cairo_matrix_t *m = sh->m;
        d[0] = m->xx * dx + m->xy * dy;
        d[1] = m->yx * dx + m->yy * dy;
        return d[0] != 0 || d[1] != 0;
    }
    return 0;
}

/* Do both ends stand on at least 1 px: the first (last) edge of some
 * length, or the tangent there when given? cairo keeps its coordinates on
 * a 1/256 px grid and drops what is shorter than 1/512: below a pixel
 * its cap turns from the true one (a trim ending a hair past a corner,
 * a wide square cap on a 0.003 px segment: up to 255 levels apart); those
 * are left to cairo. */
static int ends_long(const double *xy, uint32_t n, const double *t0, const double *t1)
{
    for (int end = 0; end < 2; end++) {
        const double *t = end ? t1 : t0;
        double l = 0;
        if (t != NULL) {
            l = hypot(t[0], t[1]);
        } else {
            for (uint32_t j = 0; j + 1 < n && !(l > 1e-6); j++) {
                uint32_t k = end ? n - 2 - j : j;
                l = hypot(xy[2 * k + 2] - xy[2 * k], xy[2 * k + 3] - xy[2 * k + 1]);
            }
        }
        if (!(l >= 1))
            return 0;
    }
    return 1;
}

int render_raster_stroke(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                         const rf_shape_t *sh, double sw, double alpha)
{
    static const rf_offset_join_t joins[] = { RF_OFFSET_MITER, RF_OFFSET_ROUND, RF_OFFSET_BEVEL };
    const cairo_matrix_t *m = sh->m;
    double limit = render_miter_limit(L, r->slots);
    rf_offset_join_t join = joins[L->line_join <= RF_JOIN_BEVEL ? L->line_join : 0];
    int closed = may_close(L, sh);
    /* the plain box with square corners: cairo strokes it as boxes; an
     * open figure with round caps: cairo (its caps turn back) */
    if ((!closed && (L->line_cap == RF_CAP_ROUND || !may_open(L, sh))) ||
        (plain_box(L, sh) && join == RF_OFFSET_MITER && limit * limit >= 2) ||
        render_stroke_dashed(L, r->slots))
        return 0;
    /* a pen that stays a disk: m turns, scales alike both ways, mirrors */
    double k = hypot(m->xx, m->yx), tiny = 1e-12 * k;
    if (!(k > 0 && isfinite(k)) ||
        !((fabs(m->xx - m->yy) <= tiny && fabs(m->xy + m->yx) <= tiny) ||
          (fabs(m->xx + m->yy) <= tiny && fabs(m->xy - m->yx) <= tiny)))
        return 0;
    double hw = 0.5 * sw * k;
    int nsub, nclosed;
    if (outline(r, L, sh, 1, &nsub, &nclosed) != 0 || nsub != 1 || nclosed != (closed ? 1 : 0))
        return 0;
    const double *xy;
    uint32_t np = rf_raster_polygon(r->ras, &xy);
    if (np < (closed ? 3u : 2u))
        return 0;
    /* a mostly empty box: a ring goes to cairo (the mask would be
     * composited over all of it); an open stroke only when its paint
     * cannot skip the empty stretches (a solid on the canvas can) */
    int sparse = hollow_ring(r->ras, np);
    if (sparse && (closed || !render_coverage_solid_ready(r, &L->stroke, alpha)))
        return 0;
    if (r->ras_out == NULL && (r->ras_out = rf_raster_create()) == NULL)
        return 0;
    rf_raster_reset(r->ras_out);
    if (closed) {
        if (rf_offset_ring(r->ras_out, xy, np, hw, join, limit, RF_STROKE_TOL) != 0)
            return 0;
        return raster_paint(r, r->ras_out, 0, &L->stroke, n->pat[1], alpha, m);
    }
    if (cut_long(r, &xy, &np) != 0)
        return 0;
    rf_offset_open_info_t info;
    double d0[2], d1[2];
    int t0 = end_tangent(sh, 0, d0), t1 = end_tangent(sh, 1, d1);
    if (!ends_long(xy, np, t0 ? d0 : NULL, t1 ? d1 : NULL) ||
        rf_offset_open(r->ras_out, xy, np, t0 ? d0 : NULL, t1 ? d1 : NULL, hw, join, limit,
                       L->line_cap == RF_CAP_SQUARE ? RF_OFFSET_SQUARE : RF_OFFSET_BUTT,
                       RF_STROKE_TOL, &info) != 0)
        return 0;
    if (r->ras_piece == NULL && (r->ras_piece = rf_raster_create()) == NULL)
        return 0;
    return slabs_paint(r, &info, &L->stroke, n->pat[1], alpha, m, sparse);
}
