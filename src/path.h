/* path.h - SVG path data of one figure, measured once for arc-length sampling.
 *
 * Owns: rf_path_t, an immutable measured path (seed 000 "Source-Aware Path
 * Sampling"): the original segments (12-byte descriptors over a separate
 * array of double points), metric knots (cumulative length, segment index,
 * segment t), the total length and the exact source bounds. Knots never hold
 * flattened x/y: every sample evaluates the original Line/Quad/Cubic/Close.
 *
 * Syntax (scene-v1.md "Paths"): one figure. `M`/`m` first, then any of
 * L H V Q T C S Z in either case, absolute or relative, with implicit repeats
 * (extra pairs after M/m are L/l). Numbers in every SVG form: `1e-3`, `+3`,
 * `.5.5` (= 0.5 0.5), `-1-2` (= -1 -2), `1.`; whitespace is space, tab, CR,
 * LF, FF; one comma may separate two numbers (SVG's comma-wsp), nowhere else.
 * A second M/m, `A`/`a`, and any command after Z are errors (drawing after
 * Z would start a second subpath at the start point: one figure only in
 * runeframe 1). "" (or only whitespace) and a lone "M x y" are valid paths
 * with no segments. At most RF_PATH_MAX_SEGMENTS segments; every coordinate
 * must be finite with magnitude <= 1e150 (so every length is finite).
 *
 * Errors: rf_path_parse() reports the first error, left to right, as
 * "col N: message" with N the 1-based column in d in characters (UTF-8 code
 * points, rf_loc_column; one past the end for "expected a number" at the
 * end); err->col is the same place as a 1-based byte column. It is atomic: on any error it calls
 * alloc not at all (a syntax error) or exactly once and got NULL (out of
 * memory), and *out stays NULL. Parsing runs in two passes (check, measure
 * and count; then one allocation and fill) so nothing is half built.
 *
 * Measurement: each curve is split adaptively at dyadic t (so float t is
 * exact) until 8-point Gauss-Legendre on a piece agrees with its two halves
 * to 1e-13 of the segment's control-polygon length and the speed over the
 * piece stays within 30% of its mean. Lines are one exact piece; lengths
 * are summed with compensation. Total length is accurate to ~1e-15
 * relative (checked against long-double references). Smooth cubics get
 * ~4-10 knots, loops and near-cusps ~20-40.
 *
 * Knot layout (deviation from seed 000's 12-byte knots, on purpose): a knot
 * is 16 bytes, a double cumulative length plus uint32 segment and float t.
 * A float cumulative length has an ulp of 0.25 at 3.6e6 (100,000 cubics of
 * 36 px): with float lengths the long-path test is off by 4.5e-3, ordinary
 * curves by ~1e-8 of their length, and exact boundary ties (a distance
 * equal to a knot's length) break. t stays a float: knot t values are
 * dyadic, so exact.
 *
 * Evaluation: rf_path_sample(), rf_path_locate() and rf_path_trim() are pure,
 * thread-safe, never allocate, and take O(log knots): branch-free binary
 * search for the last knot at or before the distance, linear interpolation
 * of t between it and the next knot of the same segment, then (curves only)
 * two safeguarded Halley steps on the piece's arc length from the knot
 * (4-point, then 8-point Gauss-Legendre), kept inside the piece. Linear
 * interpolation alone is off by up to ~1% of a piece; with the steps, points
 * are within ~1e-13 of the length of the exact arc-length point.
 */
#ifndef RF_PATH_H
#define RF_PATH_H

#include <stddef.h>
#include <stdint.h>

/* scene-v1.md Limits: path segments (this equals RF_MAX_ITEMS; the loader
 * checks the aggregate limit over all items of a scene). */
#define RF_PATH_MAX_SEGMENTS 100000u

typedef struct rf_path rf_path_t;

typedef enum rf_path_kind {
    RF_PATH_LINE = 0,   /* L H V (and M's implicit linetos): 2 points */
    RF_PATH_QUAD,       /* Q T: 3 points */
    RF_PATH_CUBIC,      /* C S: 4 points */
    RF_PATH_CLOSE,      /* Z: a line back to the first point: 2 points */
} rf_path_kind_t;

/* A source segment: its points are pts[first_point .. first_point + degree]
 * (x, y pairs), shared with its neighbours (its first point is the previous
 * segment's last). Its knots are knots[first_knot .. next segment's
 * first_knot - 1]; a zero-length segment has exactly one. */
typedef struct rf_path_seg {
    uint8_t kind;         /* rf_path_kind_t */
    uint8_t pad[3];
    uint32_t first_point;
    uint32_t first_knot;
} rf_path_seg_t;

/* A metric knot: at arc length `length` from the start, segment `segment` is
 * at parameter `t`. Knots increase in length (equal for zero-length
 * segments); the last knot is a sentinel at the total length holding the
 * last positive-length segment at t = 1. */
typedef struct rf_path_knot {
    double length;
    uint32_t segment;
    float t;
} rf_path_knot_t;

#define RF_PATH_ERR_LEN 160

typedef struct rf_path_error {
    size_t col;                 /* 1-based byte column; 0: not positional (out of memory) */
    char msg[RF_PATH_ERR_LEN];  /* "col 14: expected a number" */
} rf_path_error_t;

/* Memory for a path: size bytes aligned for any type (like malloc or
 * rf_arena_alloc); NULL when out of memory. The path has no destroy call:
 * *out is the one block alloc returned, freed with whatever owns ctx (the
 * scene's arena; with a malloc-based alloc, free(*out)). */
typedef void *(*rf_path_alloc_fn)(void *ctx, size_t size);

/* Parses and measures the first len bytes of d (no NUL needed; d may be NULL
 * when len is 0). Returns 0 and sets *out on success; returns nonzero with
 * err filled (err may be NULL) and *out = NULL on failure. */
int rf_path_parse(const char *d, size_t len, rf_path_alloc_fn alloc, void *ctx,
                  rf_path_t **out, rf_path_error_t *err);

/* Total arc length (0 for a path without positive-length segments). */
double rf_path_length(const rf_path_t *p);

/* Exact bounds of the whole figure (endpoints and the roots of each curve's
 * derivative, not the control hull). A path without segments is the point
 * box of its first point ((0,0) for ""). */
void rf_path_bounds(const rf_path_t *p, double *x0, double *y0, double *x1, double *y1);

/* The point at arc length progress * length and the tangent direction there,
 * atan2(dy, dx) in degrees in canvas coordinates (y down: 90 points down).
 * progress clamps to [0,1]; NaN counts as 0. A distance exactly on a segment
 * boundary takes the next positive-length segment at t = 0. Where the
 * derivative vanishes (cusps, coincident control points) the direction is
 * the limit along the curve: the second derivative (negated at t = 1), then
 * the third. A path with no positive length returns its first point and
 * angle 0. Any output pointer may be NULL. */
void rf_path_sample(const rf_path_t *p, double progress, double *x, double *y, double *angle_deg);

/* Where rf_path_sample() evaluates: the segment index and its t. For a path
 * with no positive length: segment 0, t 0 (or UINT32_MAX, 0 without segments). */
void rf_path_locate(const rf_path_t *p, double progress, uint32_t *segment, double *t);

/* The original segment at parameter t in [0,1] (Bernstein form). */
void rf_path_segment_eval(const rf_path_t *p, uint32_t segment, double t, double *x, double *y);

/* ---- trimming: the sub-path between two progresses, ready for cairo ---- */

typedef enum rf_path_op_kind {
    RF_PATH_OP_MOVE = 0,  /* cairo_move_to(p[0], p[1]) */
    RF_PATH_OP_LINE,      /* cairo_line_to(p[0], p[1]) */
    RF_PATH_OP_CURVE,     /* cairo_curve_to(p[0] .. p[5]) */
    RF_PATH_OP_CLOSE,     /* cairo_close_path() */
} rf_path_op_kind_t;

typedef struct rf_path_op {
    int kind;             /* rf_path_op_kind_t */
    double p[6];
} rf_path_op_t;

/* The sub-path from arc-length progress p0 to p1 (each clamped to [0,1], NaN
 * as 0): a move_to, then line_to / curve_to ops whose curves are the exact
 * de Casteljau sub-curves of the original segments (quads degree-elevated),
 * never polylines. Zero-length segments inside the range are left out.
 * p0 >= p1 (or no positive length) gives no ops, except that [0,1] is the
 * whole figure verbatim: every segment, and a Z as RF_PATH_OP_CLOSE (so
 * strokes join at the start) - an all-zero "M x y Z" still draws its dot.
 * Writes at most cap ops to ops (may be NULL when cap is 0) and returns the
 * number the full result has: call with cap 0 to size, or size once with
 * rf_path_trim_max(). */
size_t rf_path_trim(const rf_path_t *p, double p0, double p1, rf_path_op_t *ops, size_t cap);
/* Most ops any trim of p returns: segments + 1. */
size_t rf_path_trim_max(const rf_path_t *p);

/* ---- inspection (tests, `info`) ---- */

uint32_t rf_path_segment_count(const rf_path_t *p);
/* Segment i's kind; its points (degree + 1 x,y pairs) in *pts when pts is
 * not NULL. */
rf_path_kind_t rf_path_segment(const rf_path_t *p, uint32_t i, const double **pts);
/* Arc length of segment i alone. */
double rf_path_segment_length(const rf_path_t *p, uint32_t i);
/* The knots (count in *count, 0 for a path without segments). */
const rf_path_knot_t *rf_path_knots(const rf_path_t *p, uint32_t *count);
/* The first point (M's point; (0,0) for ""). */
void rf_path_start(const rf_path_t *p, double *x, double *y);

#endif
