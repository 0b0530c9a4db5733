/* render-int.h - what the renderer's files share (render.c: the walks
 * and drawing; render-compose.c: composing a layer (clip, mask, blur,
 * shadows, opacity, blend); render-huge.c: the huge-coordinate sink;
 * render-prefix.c: the static-prefix cache; render-gradfill.c: gradient
 * boxes painted by gradfill.h). Private to them: nothing else includes it.
 * The semantics are in render.h, the layer types' side in shape.h.
 * Thread-safety: everything here works on one rf_renderer_t, which belongs
 * to one thread at a time (render.h). */
#ifndef RF_RENDER_INT_H
#define RF_RENDER_INT_H

#include <cairo.h>
#include <stdint.h>

#include "bigbuf.h"
#include "glyphmask.h"
#include "helper.h"
#include "layer.h"
#include "raster.h"
#include "render.h"
#include "shape.h"

#define RF_RENDER_ERR_LEN 200

typedef struct rf_node {
    cairo_matrix_t local;      /* this frame's own matrix (layout walk) */
    double box[4];             /* this frame's own box: x0, y0, x1, y1 */
    uint32_t size;             /* nodes in the subtree, itself included */
    int ok;                    /* local and box are finite */
    double pivot[2];           /* a group's anchor point of its box at t = 0
                                * (when its pivot is not given) */
    cairo_pattern_t *pat[2];   /* constant-geometry fill, stroke gradient */
    void *state;               /* the layer type's state (layer.h), or NULL */
} rf_node_t;

/* A group's clip not yet applied to the drawing (render-compose.c "soft
 * clips"): its shape, device matrix and the device pixels wholly inside
 * it. At most RF_SOFT_CLIPS wait at once; a deeper one is applied. */
#define RF_SOFT_CLIPS 8
typedef struct {
    const rf_layer_class_t *cls;
    rf_shape_t sh;              /* its shape (sh.m points at m) */
    cairo_matrix_t m;           /* its device matrix */
    double inner[2][4];         /* whole device pixels inside it */
    int ninner;
} render_soft_t;

struct rf_renderer {
    const rf_scene_t *scene;
    cairo_surface_t *surface;
    /* The surface's pixels (bigbuf.h): mapped at rf_renderer_create(),
     * faulted in at once by the first draw, so a renderer made only to lay
     * out (lint.c) touches none of it. */
    rf_bigbuf_t canvas;
    cairo_t *cr;
    /* rf_renderer_swap_canvas's other canvas, its pixels and its context
     * (NULL until the first swap) */
    cairo_surface_t *surface2;
    rf_bigbuf_t canvas2;
    cairo_t *cr2;
    int width, height;
    /* The device matrix every top-level layer is drawn under: the
     * identity, or S(scale) for a draft (scene.h rf_scene_t.scale); unit
     * is that scale (1 without), for what is given in device px (blur,
     * shadow offsets). */
    cairo_matrix_t root;
    double unit;
    double *slots;             /* values.nslots (at least 1) */
    double t;                  /* the time of the frame being drawn */
    rf_node_t *nodes;          /* one per layer, pre-order */
    uint32_t nnodes;
    int pivot_init;            /* the creation layout at t = 0: groups keep
                                * their anchor point as pivot */
    void *blur_line;           /* blur.h's work buffer, blur_cap bytes (for
                                * the canvas; grown for a larger region) */
    size_t blur_cap;
    /* The device region being drawn, x0, y0, x1, y1: the canvas, or while a
     * layer is captured for its blur or shadows (render-compose.c) the
     * capture's region, which may reach past the canvas. Everything that
     * skips or clips what lies off the canvas clips to it instead. */
    double view[4];
    /* The captures' pixels, a buffer per nesting level (the layer's, then
     * its shadow's alpha one level deeper), grown when a larger region is
     * first needed and kept across frames; deeper captures get surfaces
     * cairo allocates. ncap: captures open. */
#define RF_CAPTURE_DEPTH 9
    unsigned char *cap_px[RF_CAPTURE_DEPTH];
    size_t cap_size[RF_CAPTURE_DEPTH];
    int ncap;
    /* The coverage buffer (shape.h rf_render_coverage): A8 bytes over the
     * view, all 0 between uses, grown when a larger view first needs it. */
    rf_coverage_t cov;
    rf_bigbuf_t cov_buf;       /* cov.a's bytes */
    rf_raster_t *ras;          /* shapes' outlines (raster.h); NULL until used */
    rf_glyph_masks_t *glyph_masks; /* every text layer's (glyphmask.h); NULL until used */
    int threads;                   /* rf_renderer_set_threads */
    rf_helper_t *helper;       /* the frame's second thread (render_helper): large gradient
                                  fills' and the glyph masks' batches'; NULL until used */
    rf_raster_t *ras_out;      /* strokes' outlines (offset.h); NULL until used */
    rf_raster_t *ras_piece;    /* an open stroke's outline a slab at a time; NULL until used */
    double *open_xy;           /* an open stroke's polyline, long edges cut (grown, kept) */
    uint32_t open_cap;         /* its room, in points */
    rf_path_op_t *ops;         /* trim buffer: the largest path layer */
    size_t ops_cap;
    /* The static prefix: the layers drawn first (in drawing order) that
     * read no value, so background plus those layers give the same pixels
     * at every t. base holds those pixels once drawn (base_ready) and a
     * frame starts from a copy of base instead of redrawing them: a
     * full-canvas gradient backdrop costs pixman ~10 ms per 1080p frame,
     * the copy ~1 ms. The prefix may end inside groups (the chain: groups
     * whose own properties are constant, opacity 1): their matrices also
     * depend on their children's boxes, so base is used only in a frame
     * whose chain matrices are bitwise those base was drawn under.
     * Byte-identical to drawing the prefix: the same operations on the
     * same cleared surface give the same pixels, and every later layer
     * sets all the cairo state it uses (tests/check_render). Level k of
     * the split, in the list of the chain group of level k - 1 (the
     * top-level layers at level 0): split_list[k] is the index of the
     * level's chain group (k < split_depth) or of its first layer that is
     * not static (k == split_depth), split_node[k] that layer's node. */
#define RF_SPLIT_MAX 8
    uint32_t split_depth;
    uint32_t split_list[RF_SPLIT_MAX + 1];
    uint32_t split_node[RF_SPLIT_MAX + 1];
    cairo_matrix_t split_m[RF_SPLIT_MAX]; /* chain device matrices of base */
    int base_want;             /* the prefix is worth a copy per frame */
    unsigned char *base;       /* height * stride bytes (base_mem), mapped
                                  when first armed; NULL until then */
    rf_bigbuf_t base_mem;
    unsigned long frames;      /* draws so far: the prefix is kept from a
                                  renderer's second draw on, so one that
                                  draws a single frame (seek, a preview
                                  request) never pays for the copy */
    int base_ready;            /* base holds the prefix's pixels */
    int base_armed;            /* this frame keeps them when it reaches
                                  split_node[split_depth] */
    int base_used;             /* the last frame started from base */
    render_soft_t soft[RF_SOFT_CLIPS]; /* the clips waiting, outermost first */
    int nsoft;
    int soft_off;              /* RF_CLIP_HARD: no clip waits (for tests) */
    int gradfill_off;          /* RF_GRADFILL_OFF: cairo paints every gradient (for tests) */
    unsigned gradfills;        /* fills painted by gradfill.h (rf_renderer_gradfills) */
    int opaque;                /* the last frame drawn over an opaque background
                                  (rf_renderer_opaque) */
    char err[RF_RENDER_ERR_LEN];
    int err_oom;               /* err says memory ran out (rf_render_fail_oom) */
};

/* ---- the huge-coordinate sink (render-huge.c) ----
 *
   cairo keeps device coordinates in 24.8 fixed point: past +-2^23 px they
 * wrap (a line to x = 1e7 comes out short, a rect 1e9 wide inside out);
 * its rasterizer already goes wrong on long sloped edges past about 2^17
 * px (a rotated ellipse 1e9 px wide fills the wrong rows); and it cuts an
 * arc of radius 1e20 px into so many pieces that one frame takes minutes.
 * A shape whose device box, stroke included, leaves [-RF_GUARD, RF_GUARD]
 * is therefore built here in double precision and clipped to the guard
 * box G, the canvas grown by RF_GUARD_MARGIN: a fill by Sutherland-Hodgman
 * (the winding inside G is unchanged), a stroke as the runs of its outline
 * inside G, whose cut ends lie farther off the canvas than any stroke drawn
 * reaches (RF_GUARD_REACH, in device px, miter included; a wider stroke on
 * such a shape is an error). Curves are flattened to RF_FLAT_TOL px near
 * the canvas; a piece of curve whose hull stays away from the canvas (and
 * the stroke's reach) becomes its chord, which cannot change a pixel.
 * Every loop is bounded (RF_FLAT_DEPTH), and cairo only ever sees
 * coordinates within 16384 + 2^16 px of the origin. */
#define RF_GUARD 65536.0
#define RF_GUARD_MARGIN 65536.0
#define RF_GUARD_REACH 32768.0
#define RF_FLAT_TOL 0.05
/* The same for a fill drawn by FreeType (render.c raster_fill): a cubic
 * strays at most 3/4 of its control points' distance, an arc its apex's,
 * so every edge is within 1/64 px of the shape's. */
#define RF_RASTER_TOL (1.0 / 64)
/* A stroke's outline (render-raster.c), its curves, arcs and round joins:
 * twice as coarse, as it has two sides to rasterize and its curves
 * are cut into many more lines (a 2,000-shape frame: 25% fewer
 * instructions than at 1/64); still within a third of cairo's 0.1 px. */
#define RF_STROKE_TOL (1.0 / 32)
#define RF_FLAT_DEPTH 60
/* A piece near the canvas still this far (px) from its chord once it cannot
 * be split (an ellipse 1e100 px wide and 40 high, rotated): its points are
 * below double precision there, and no drawing of it would be right. */
#define RF_FLAT_BAD 1.0

struct rf_hsink {
    cairo_t *cr;                 /* building under the identity matrix */
    rf_raster_t *ras;            /* or feeding this outline (a fill) */
    double tol;                  /* px: curves and arcs are flattened until
                                    their control points (an arc's apex)
                                    are this close to the chord */
    double g[4];                 /* G: x0, y0, x1, y1 */
    double b[4];                 /* where accuracy matters: canvas + reach */
    int stroke;                  /* runs (stroke) or clipped polygons (fill) */
    int imprecise;               /* RF_FLAT_BAD was exceeded near the canvas */
    int in_sub;                  /* a subpath is open */
    int nsub, nclosed;           /* raster: subpaths ended, of them closed */
    double sx, sy, px, py;       /* its start and the current point */
    /* stroke */
    int run, cut, first_at_start, first_done;
    double fx, fy;               /* end of the first run's first piece */
    /* fill: four clip stages, then the output */
    struct { int n; double fx, fy, lx, ly; } st[4];
    int nout;
};

/* An empty sink feeding cr, for the device region v (x0, y0, x1, y1: the
 * canvas, or a capture's region, rf_renderer_t.view): G is v grown by
 * RF_GUARD_MARGIN, accuracy matters within pad px of it. */
void hsink_init(rf_hsink_t *g, cairo_t *cr, const double v[4], double pad);
/* An empty sink feeding the outline ras (reset first) with a fill, for
 * the device region v: not clipped (the shape is within RF_GUARD), arcs
 * cut into chords within RF_RASTER_TOL px (rf_raster_arc), curves
 * flattened as for cairo but to RF_RASTER_TOL near v. */
void hsink_init_raster(rf_hsink_t *g, rf_raster_t *ras, const double v[4]);
/* Starts a fill (stroke 0) or a stroke outline (stroke 1) of the shape. */
void hsink_begin(rf_hsink_t *g, int stroke);
/* Ends the open subpath, if any. */
void hsink_end(rf_hsink_t *g);

/* Sets a gradient paint p of a huge shape under layer matrix m as the
 * source for the device region v (see the comment above it in
 * render-huge.c); may set the current matrix to m's linear part. Returns 0
 * when p is not a drawable gradient (paint_set's rules apply). */
int hsink_gradient_set(cairo_t *cr, const rf_paint_t *p, const double *slots, double alpha,
                       const cairo_matrix_t *m, const double v[4]);

/* ---- the walks (render.c), for the static prefix and compositing ---- */

/* Instance k of L (node idx) for the walks over a RF_CLASS_CHILDREN
 * layer's children: 1 when there is one, with r->slots and r->t set to
 * its slots and time (a RF_CLASS_REPEAT layer's instance hook, at the
 * base time t0; any other: k == 0, as they are); 0 after the last, with
 * r->slots and r->t back at s0 and t0 (the slots and time of L's parent). */
int render_instance(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx, uint32_t k,
                    double *s0, double t0);
/* Lays out the subtree of L at node idx; returns the index after it. */
uint32_t render_layout(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx);
/* The frame's second thread (helper.h) when it may use two cores
 * (rf_renderer_set_threads 2 or more), made on first use; else NULL. One
 * serves the large gradient fills and the glyph masks' batches, used by
 * one at a time. */
rf_helper_t *render_helper(rf_renderer_t *r);
/* L's own matrix (x, y, follow, rotate, scale around the anchor a = (ax,
 * ay); offset by a when canvas) into m; 0 when it or box b is not finite. */
int render_local_matrix(const rf_layer_t *L, const double *s, const double b[4], double ax,
                        double ay, int canvas, cairo_matrix_t *m);
/* A group's mask layer, NULL when none. Its subtree's nodes follow the
 * children's in the group's subtree (every walk visits it there). */
static inline const rf_layer_t *render_mask_of(const rf_layer_t *L)
{
    return L->type == RF_LAYER_GROUP ? L->u.group.mask : NULL;
}

/* ---- composing one layer (render-compose.c) ---- */

/* Draws L (node idx) under the device matrix parent. */
void render_draw_layer(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx,
                          const cairo_matrix_t *parent);
/* The device box of node n's own box under m, grown by reach px. */
void render_device_box(const rf_node_t *n, const cairo_matrix_t *m, double reach,
                          double out[4]);

/* The state every cairo_t the renderer draws with starts from (render.c):
 * the stroke style's defaults and the fill rule. */
void render_context_defaults(cairo_t *cr);

/* ---- the stroke style (render-stroke.c) ---- */

/* render-stroke.c: how far L's stroke reaches past its path this frame,
 * in stroke widths (its miter limit, cap and join); sets L's cap, join,
 * miter limit and dash on cr. */
double render_stroke_reach(const rf_layer_t *L, const double *slots);
void render_stroke_style(cairo_t *cr, const rf_layer_t *L, const double *slots);
/* L's miter limit this frame as drawn (1 .. RF_MITER_MAX), and whether its
 * dash pattern draws dashes (lengths that sum to more than 0). */
double render_miter_limit(const rf_layer_t *L, const double *slots);
int render_stroke_dashed(const rf_layer_t *L, const double *slots);
/* Sets L's fill rule (path layers' fill_rule; nonzero for every other
 * shape) before a fill or a clip. */
void render_fill_rule(cairo_t *cr, const rf_layer_t *L);

/* ---- fills and strokes through FreeType (render-raster.c) ----
 *
 * render_raster_fill and render_raster_stroke draw the shape sh of layer
 * L (node n) at alpha through the coverage buffer, its coverage from
 * rf_raster (raster.h: the exact area of each pixel) instead of cairo's
 * fill or stroke, when the shape is one they take; 1 when done (or
 * nothing to draw), 0 when the caller must draw with cairo. */
int render_raster_fill(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                       const rf_shape_t *sh, double alpha);
int render_raster_stroke(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                         const rf_shape_t *sh, double sw, double alpha);
/* render.c: paints p (cached pattern pat) at alpha through the coverage
 * buffer's bytes in its box, then clears them; the pattern in the
 * coordinates of m, the current matrix after. And the clearing alone:
 * the bytes in [x0, x1) x [y0, y1) zeroed, the box emptied. */
void render_coverage_paint(rf_renderer_t *r, const rf_paint_t *p, cairo_pattern_t *pat,
                           double alpha, const cairo_matrix_t *m);
void render_coverage_clear(rf_coverage_t *c, int x0, int y0, int x1, int y1);

/* ---- the static prefix (render-prefix.c) ---- */

/* Finds the static prefix (at creation, after the nodes are prepared) and
 * allocates base when it is worth a copy per frame; -1 when out of
 * memory. */
int prefix_find(rf_renderer_t *r);
/* At the start of a laid-out frame: 1 when the surface now holds the
 * prefix (copied from base: draw with prefix_draw_rest); 0 when the
 * frame must be drawn whole (and is armed to keep the prefix when base is
 * still empty). */
int prefix_restore(rf_renderer_t *r);
/* Draws what follows the prefix. */
void prefix_draw_rest(rf_renderer_t *r);
/* Before drawing node idx of a whole frame: keeps the prefix's pixels when
 * the prefix ends there. */
void prefix_reached(rf_renderer_t *r, uint32_t idx);
/* After the last layer of a whole frame. */
void prefix_end(rf_renderer_t *r);

/* render-gradfill.c: the fill of a rect without rounded corners under a
 * linear gradient whose stops are all opaque, when its device box is whole
 * pixels, the canvas is the target and the clip is a rectangle, painted by
 * gradfill.h (the pixels cairo_fill would paint, without pixman's
 * per-pixel walk: a 1080p gradient backdrop was a third of a cold `seek`).
 * 1 when painted; 0: cairo draws it. The clip is read as cairo's rectangle
 * list (a small allocation, only for a fill that passed every other test).
 * m is the current matrix; cairo's state is as it was on return. */
int render_fill_gradient_box(rf_renderer_t *r, const rf_layer_t *L, const rf_shape_t *sh,
                             const cairo_matrix_t *m);

/* render-gradfill.c: paint p, a linear or radial gradient set under m,
 * through the coverage a (rows of stride bytes, w x h, at device pixel
 * (x, y)) into the canvas, as cairo_mask_surface() would (gradfill.h:
 * pixman's gradient walk costs 30 to 75 instructions a covered pixel). 1
 * when painted; 0, nothing painted: cairo draws it (another paint, a group
 * or another operator, a clip that is not one rectangle of whole pixels).
 * The current matrix is the identity on return. */
int render_coverage_gradient(rf_renderer_t *r, const rf_paint_t *p, const cairo_matrix_t *m,
                             const uint8_t *a, int stride, int x, int y, int w, int h);

/* render-gradfill.c: the same for a solid, mix or color-value paint at
 * alpha over a box of at most 4,096 pixels (cairo_mask_surface() of a
 * solid source: pixman's over_n_8_8888; cairo's own overhead, about 9,000
 * instructions a call, is most of a small shape's cost). */
int render_coverage_solid(rf_renderer_t *r, const rf_paint_t *p, double alpha, const uint8_t *a,
                          int stride, int x, int y, int w, int h);
/* render-gradfill.c: the same through the coverage buffer's bytes in n
 * rectangles of it that do not overlap (x0, y0, x1, y1 in the buffer),
 * any size (a long stroke's slabs: the rest of its box holds nothing); 1
 * when painted, 0: nothing painted. And whether it would paint p now
 * (render_coverage_solid_ready: the canvas, the operator and the clip as
 * they are). */
int render_coverage_solid_rects(rf_renderer_t *r, const rf_paint_t *p, double alpha,
                                const rf_coverage_t *cov, const int32_t (*rects)[4], int n);
int render_coverage_solid_ready(rf_renderer_t *r, const rf_paint_t *p, double alpha);

/* render.c: the straight color a solid, mix or color-value paint sets as
 * cairo's source at alpha, into c (red, green, blue, alpha); 0 for a
 * gradient. */
int render_paint_solid(const rf_renderer_t *r, const rf_paint_t *p, double alpha, double c[4]);

#endif
