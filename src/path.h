/* path.h - SVG path data, measured once for arc-length sampling, trimming
 * and morphing.
 *
 * Owns: rf_path_t, an immutable measured path (seed 000 "Source-Aware Path
 * Sampling"): the original segments (12-byte descriptors over a separate
 * array of double points), metric knots (cumulative length, segment index,
 * segment t), the total length and the exact source bounds. Knots never hold
 * flattened x/y: every sample evaluates the original Line/Quad/Cubic/Close.
 *
 * Syntax (scene-v1.md "Paths" and "Paths, complete"): SVG path data,
 * complete. `M`/`m` first, then any of M L H V Q T C S A Z in either case,
 * absolute or relative, with implicit repeats (extra pairs after M/m are
 * L/l). Numbers in every SVG form: `1e-3`, `+3`, `.5.5` (= 0.5 0.5), `-1-2`
 * (= -1 -2), `1.`; whitespace is space, tab, CR, LF, FF; one comma may
 * separate two numbers (SVG's comma-wsp), nowhere else. An arc's two flags
 * are one character each, `0` or `1`, and need no separator ("A1 1 0 1150
 * 50" is flags 1, 1 and the point 50 50). "" (or only whitespace) and a
 * lone "M x y" are valid paths with no segments. At most
 * RF_PATH_MAX_SEGMENTS segments (an arc counts its cubics); every
 * coordinate must be finite with magnitude <= 1e150 (so every length is
 * finite).
 *
 * Subpaths (figures): a second M/m starts another figure, stored as an
 * RF_PATH_MOVE segment (from the current point to the new start; length 0,
 * never drawn; its point is part of the bounds, as the first M's is). Z/z closes the figure with an
 * RF_PATH_CLOSE line back to its start, which becomes the current point; a
 * command after Z other than M starts another figure at that same point
 * (SVG 1.1 8.3.3), stored as an RF_PATH_MOVE of length 0 from the start to
 * itself. rf_path_figures() counts figures; a figure may be empty.
 *
 * Arcs (SVG 1.1 implementation notes F.6): endpoint to center
 * parameterization (F.6.5), radii scaled up when too small for the
 * endpoints (F.6.6), negative radii by their magnitude, the x-axis rotation
 * in degrees, flags as given; an arc whose endpoints coincide is omitted and
 * one with a zero radius is a line (F.6.2). Computed in the unit-circle
 * space of the ellipse, with points taken relative to the arc's start, so
 * radii up to 1e308 give the straight line they are; an arc whose points
 * leave the coordinate range is an error. The arc becomes n = ceil(|sweep| /
 * 45 degrees) RF_PATH_CUBIC segments of equal sweep (handles 4/3 tan(sweep /
 * 4n) of the radius), the last ending exactly on the given end point; their
 * radial error is below 5e-6 of the radius, so a circle measures its
 * 2 pi r to better than 1e-5 relative.
 *
 * Source: each segment keeps the command letter that made it (`A` for an
 * arc's cubics, the letter after Z for the MOVE it implies) and the 1-based
 * byte column of that command (its letter for the first argument group, its
 * first number for implicit repeats), for messages (mix mismatches,
 * sample_path's one-figure rule).
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
 * are within ~1e-13 of the length of the exact arc-length point. Sampling
 * runs over all figures by their total length (MOVEs measure 0); the loader
 * lets sample_path use only paths of one figure.
 *
 * Morphing (rf_path_mix_*): two paths of the same structure (the same
 * sequence of segment kinds: L H V and M's implicit lines are lines, Q T
 * quads, C S and each of an arc's cubics cubics, MOVE, CLOSE) mix point by
 * point, every point a + w (b - a), w clamped to [0, 1] (a point both paths
 * share stays exactly where it is). A line, quad or cubic also mixes with
 * another of those kinds when each is a whole command: the lower is raised
 * to the higher degree (exact elevation) first. Arcs mix as their
 * cubics, so two arcs match only when they make the same number of cubics.
 * Nothing is stored for a mix: each call walks the segments, mixing their
 * points on the stack; a trimmed mix measures the mixed segments with
 * adaptive Gauss-Legendre (the same 1e-13 rule, without knots) and finds
 * the trim ends by safeguarded Newton on that length: O(segments) per call,
 * no allocation. w = 0 and w = 1 are exactly the two paths' own
 * rf_path_trim() and rf_path_bounds().
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
    RF_PATH_CLOSE,      /* Z: a line back to the figure's start: 2 points */
    RF_PATH_MOVE,       /* a second M, or a command after Z: the next figure
                         * starts at its end point; length 0: 2 points */
} rf_path_kind_t;

/* A source segment: its points are pts[first_point .. first_point + degree]
 * (x, y pairs), shared with its neighbours (its first point is the previous
 * segment's last). Its knots are knots[first_knot .. next segment's
 * first_knot - 1]; a zero-length segment has exactly one. */
typedef struct rf_path_seg {
    uint8_t kind;         /* rf_path_kind_t */
    char cmd;             /* the command letter that made it, as written */
    uint8_t pad[2];
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

/* With several figures, a trim runs over them in order by their total
 * length: a part of a figure starts with a move_to; a MOVE in the range is
 * a move_to; a Z is a close_path when the range holds its whole figure
 * (from the figure's start), else a line_to (a zero-length Z of a whole
 * figure still closes it). */

/* ---- morphing: two paths of one structure, mixed by w (see above) ---- */

/* The first segment index at which a and b differ in kind, or where one
 * ends and the other goes on (the shorter's segment count); UINT32_MAX
 * when they have the same structure (then every rf_path_mix_* call is
 * defined). */
uint32_t rf_path_mismatch(const rf_path_t *a, const rf_path_t *b);

/* rf_path_trim() of the mixed path (ops as rf_path_trim, at most
 * rf_path_trim_max(a) of them). */
size_t rf_path_mix_trim(const rf_path_t *a, const rf_path_t *b, double w, double p0, double p1,
                        rf_path_op_t *ops, size_t cap);

/* rf_path_bounds() of the mixed path: exact, as rf_path_bounds(). */
void rf_path_mix_bounds(const rf_path_t *a, const rf_path_t *b, double w, double *x0,
                        double *y0, double *x1, double *y1);

/* rf_path_length() of the mixed path (adaptive Gauss-Legendre, ~1e-13). */
double rf_path_mix_length(const rf_path_t *a, const rf_path_t *b, double w);

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
/* How many figures: 1 + the MOVE segments (1 for "" and a lone M). */
uint32_t rf_path_figures(const rf_path_t *p);
/* Segment i's command letter as written and its 1-based byte column in the
 * path data (see "Source" above). */
char rf_path_segment_source(const rf_path_t *p, uint32_t i, size_t *col);
/* The number of segments the source command of segment i made (an arc's
 * cubics: 1 to 8; every other command 1), counted from that command's
 * first segment. */
uint32_t rf_path_command_segments(const rf_path_t *p, uint32_t i);

#endif
