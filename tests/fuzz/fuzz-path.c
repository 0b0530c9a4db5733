/* fuzz-path.c - SVG path data: parse, measure, sample, locate, trim, bounds.
 *
 * The input is the path data, byte for byte (NULs included: they are bad
 * characters to the parser, not terminators). Invariants (path.h):
 *   - parse is atomic: an error allocates nothing (syntax) and names a
 *     column in 1 .. len + 1 with a one-line message; a success allocates
 *     once, and with a failing allocator the same data fails cleanly;
 *   - lengths are finite, knots non-decreasing and ending on the total,
 *     segment lengths summing to it;
 *   - every sampled point is finite, inside the exact bounds (up to
 *     rounding), equal to where rf_path_locate() says it is, with an angle
 *     in [-180, 180]; no chord is longer than the arc between its ends;
 *   - trims fit rf_path_trim_max(), start with a move_to, stay finite, and
 *     their on-curve points lie inside the bounds.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"

#include "fuzz.h"

#define NPROG 96

static unsigned alloc_calls;

static void *alloc_counting(void *ctx, size_t size)
{
    (void)ctx;
    alloc_calls++;
    return malloc(size);
}

static void *alloc_failing(void *ctx, size_t size)
{
    (void)ctx;
    (void)size;
    alloc_calls++;
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int inside(double v, double lo, double hi, double tol)
{
    return v >= lo - tol && v <= hi + tol;
}

static void check_path(const rf_path_t *p, fuzz_rng_t *rng)
{
    uint32_t nseg = rf_path_segment_count(p), nk;
    const rf_path_knot_t *knots = rf_path_knots(p, &nk);
    double len = rf_path_length(p), x0, y0, x1, y1, sx, sy, mag = 1;

    FUZZ_CHECK(nseg <= RF_PATH_MAX_SEGMENTS, "%u segments", nseg);
    FUZZ_CHECK(isfinite(len) && len >= 0, "length %.17g", len);
    rf_path_bounds(p, &x0, &y0, &x1, &y1);
    FUZZ_CHECK(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1) && x0 <= x1 &&
                   y0 <= y1,
               "bounds [%g %g %g %g]", x0, y0, x1, y1);
    rf_path_start(p, &sx, &sy);
    FUZZ_CHECK(inside(sx, x0, x1, 0) && inside(sy, y0, y1, 0), "start outside the bounds");

    /* the largest coordinate sets the scale of rounding errors */
    double seglen_sum = 0;
    for (uint32_t i = 0; i < nseg; i++) {
        const double *pts;
        rf_path_kind_t k = rf_path_segment(p, i, &pts);
        int deg = k == RF_PATH_QUAD ? 2 : k == RF_PATH_CUBIC ? 3 : 1;
        FUZZ_CHECK((unsigned)k <= RF_PATH_MOVE, "segment %u kind %d", i, (int)k);
        for (int j = 0; j <= deg; j++) {
            FUZZ_CHECK(isfinite(pts[2 * j]) && isfinite(pts[2 * j + 1]) &&
                           fabs(pts[2 * j]) <= 1e150 && fabs(pts[2 * j + 1]) <= 1e150,
                       "segment %u point %d", i, j);
            mag = fmax(mag, fmax(fabs(pts[2 * j]), fabs(pts[2 * j + 1])));
        }
        double sl = rf_path_segment_length(p, i);
        FUZZ_CHECK(isfinite(sl) && sl >= 0, "segment %u length %.17g", i, sl);
        seglen_sum += sl;
        for (int j = 0; j <= 4; j++) {
            double x, y;
            rf_path_segment_eval(p, i, j / 4.0, &x, &y);
            FUZZ_CHECK(isfinite(x) && isfinite(y), "segment %u at %d/4", i, j);
        }
        if (i > 0) {
            const double *prev;
            rf_path_kind_t pk = rf_path_segment(p, i - 1, &prev);
            int pdeg = pk == RF_PATH_QUAD ? 2 : pk == RF_PATH_CUBIC ? 3 : 1;
            FUZZ_CHECK(prev[2 * pdeg] == pts[0] && prev[2 * pdeg + 1] == pts[1],
                       "segment %u does not start where %u ends", i, i - 1);
        }
    }
    double tol = 1e-9 * mag;
    FUZZ_CHECK(fabs(seglen_sum - len) <= 1e-9 * len + tol * 1e-6,
               "segment lengths sum to %.17g, total %.17g", seglen_sum, len);

    /* knots */
    FUZZ_CHECK(nseg == 0 ? nk == 0 : nk >= nseg + 1, "%u knots for %u segments", nk, nseg);
    for (uint32_t i = 0; i < nk; i++) {
        FUZZ_CHECK(knots[i].segment < nseg, "knot %u segment %u", i, knots[i].segment);
        FUZZ_CHECK(knots[i].t >= 0 && knots[i].t <= 1, "knot %u t %g", i, (double)knots[i].t);
        FUZZ_CHECK(isfinite(knots[i].length) && knots[i].length >= 0, "knot %u length", i);
        if (i > 0)
            FUZZ_CHECK(knots[i - 1].length <= knots[i].length, "knot %u decreases", i);
    }
    if (nk > 0)
        FUZZ_CHECK(knots[nk - 1].length == len, "last knot %.17g, length %.17g",
                   knots[nk - 1].length, len);

    /* progresses: fixed edges, knot boundaries, the rest chosen */
    double prog[NPROG];
    size_t np = 0;
    static const double edges[] = { 0, -0.0, 1, 0.5, 1e-300, 0.999999999999999889,
                                    1.1102230246251565e-16, 0.25, 0.75, 1.0 / 3 };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        prog[np++] = edges[i];
    for (uint32_t i = 0; i < nk && np < NPROG / 2 && len > 0; i++)
        prog[np++] = knots[i].length / len;
    while (np < NPROG)
        prog[np++] = fuzz_unit(rng);
    qsort(prog, np, sizeof prog[0], cmp_double);

    /* the figure of each segment: chords are bounded only within one */
    uint32_t *fig = malloc((nseg ? nseg : 1) * sizeof *fig), nfig = 0, pfig = 0;
    FUZZ_CHECK(fig != NULL, "out of memory");
    for (uint32_t i = 0; i < nseg; i++) {
        nfig += rf_path_segment(p, i, NULL) == RF_PATH_MOVE;
        fig[i] = nfig;
    }
    FUZZ_CHECK(nfig + 1 == rf_path_figures(p), "%u figures, %u moves", rf_path_figures(p), nfig);
    double px = 0, py = 0, pp = 0;
    for (size_t i = 0; i < np; i++) {
        double x, y, a, lx, ly, t;
        uint32_t seg;
        rf_path_sample(p, prog[i], &x, &y, &a);
        FUZZ_CHECK(isfinite(x) && isfinite(y), "sample at %.17g", prog[i]);
        FUZZ_CHECK(a >= -180 && a <= 180, "angle %.17g at %.17g", a, prog[i]);
        FUZZ_CHECK(inside(x, x0, x1, tol) && inside(y, y0, y1, tol),
                   "point (%.17g, %.17g) at %.17g outside [%.17g %.17g %.17g %.17g]", x, y,
                   prog[i], x0, y0, x1, y1);
        rf_path_locate(p, prog[i], &seg, &t);
        if (nseg == 0) {
            FUZZ_CHECK(seg == UINT32_MAX && t == 0, "locate without segments");
            FUZZ_CHECK(x == sx && y == sy, "sample without segments is not the start");
            continue;
        }
        FUZZ_CHECK(seg < nseg && t >= 0 && t <= 1, "locate %.17g: %u %.17g", prog[i], seg, t);
        rf_path_segment_eval(p, seg, t, &lx, &ly);
        FUZZ_CHECK(fabs(lx - x) <= tol && fabs(ly - y) <= tol,
                   "sample (%.17g, %.17g) but segment %u at %.17g is (%.17g, %.17g)", x, y, seg,
                   t, lx, ly);
        if (i > 0 && fig[seg] == pfig) {
            double chord = hypot(x - px, y - py), arc = (prog[i] - pp) * len;
            FUZZ_CHECK(chord <= arc * (1 + 1e-6) + 1e-6 * len + tol,
                       "chord %.17g over arc %.17g from %.17g to %.17g (length %.17g)", chord,
                       arc, pp, prog[i], len);
        }
        px = x;
        py = y;
        pp = prog[i];
        pfig = fig[seg];
    }
    free(fig);
    /* out-of-range progresses clamp */
    {
        static const double odd[] = { -1, 2, -INFINITY, INFINITY, NAN, -1e300, 1e300 };
        for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
            double x, y, a, cx, cy, ca;
            double c = isnan(odd[i]) || odd[i] < 0 ? 0 : 1;
            rf_path_sample(p, odd[i], &x, &y, &a);
            rf_path_sample(p, c, &cx, &cy, &ca);
            FUZZ_CHECK(x == cx && y == cy && a == ca, "progress %g does not clamp", odd[i]);
        }
        rf_path_sample(p, 0.5, NULL, NULL, NULL);
    }

    /* trims */
    size_t cap = rf_path_trim_max(p);
    FUZZ_CHECK(cap == (size_t)nseg + 1, "trim_max %zu for %u segments", cap, nseg);
    rf_path_op_t *ops = malloc(cap * sizeof *ops);
    FUZZ_CHECK(ops != NULL, "out of memory");
    for (int k = 0; k < 12; k++) {
        double a, b;
        if (k == 0) {
            a = 0;
            b = 1;
        } else if (k == 1) {
            a = NAN;
            b = INFINITY;
        } else if (k == 2) {
            a = 0.5;
            b = 0.5;
        } else {
            a = prog[fuzz_byte(rng) % np];
            b = prog[fuzz_byte(rng) % np];
        }
        size_t n = rf_path_trim(p, a, b, NULL, 0);
        FUZZ_CHECK(n <= cap, "trim [%g, %g] needs %zu > %zu", a, b, n, cap);
        size_t m = rf_path_trim(p, a, b, ops, cap);
        FUZZ_CHECK(m == n, "trim sizes %zu then %zu", n, m);
        if (n > 1) {
            size_t q = rf_path_trim(p, a, b, ops, 1);
            FUZZ_CHECK(q == n && ops[0].kind == RF_PATH_OP_MOVE, "trim with cap 1");
            rf_path_trim(p, a, b, ops, cap);
        }
        for (size_t i = 0; i < n; i++) {
            int kind = ops[i].kind, np2 = kind == RF_PATH_OP_CURVE ? 6 : 2;
            FUZZ_CHECK(i > 0 || kind == RF_PATH_OP_MOVE, "trim op %zu kind %d", i, kind);
            FUZZ_CHECK(kind >= RF_PATH_OP_MOVE && kind <= RF_PATH_OP_CLOSE, "op kind %d", kind);
            if (kind == RF_PATH_OP_CLOSE) {
                /* a figure's end: the last op, or the next figure's move_to */
                FUZZ_CHECK(i == n - 1 || ops[i + 1].kind == RF_PATH_OP_MOVE,
                           "close at op %zu of [%g, %g] followed by op kind %d", i, a, b,
                           ops[i + 1].kind);
                continue;
            }
            for (int j = 0; j < np2; j++)
                FUZZ_CHECK(isfinite(ops[i].p[j]), "trim op %zu p[%d]", i, j);
            double ex = ops[i].p[np2 - 2], ey = ops[i].p[np2 - 1];
            FUZZ_CHECK(inside(ex, x0, x1, tol) && inside(ey, y0, y1, tol),
                       "trim op %zu ends at (%.17g, %.17g) outside the bounds", i, ex, ey);
        }
        double ca = isnan(a) ? 0 : fmin(fmax(a, 0), 1), cb = isnan(b) ? 0 : fmin(fmax(b, 0), 1);
        if (ca == 0 && cb == 1)
            FUZZ_CHECK(n == (nseg > 0 ? (size_t)nseg + 1 : 0), "whole trim: %zu ops for %u segments",
                       n, nseg);
        else if (!(ca < cb) || len == 0)
            FUZZ_CHECK(n == 0, "trim [%g, %g] gives %zu ops", a, b, n);
        /* a morph of p with itself is p (to rounding), in the same ops */
        double w = fuzz_unit(rng);
        size_t mn = rf_path_mix_trim(p, p, w, a, b, NULL, 0);
        FUZZ_CHECK(mn <= cap, "mix trim [%g, %g] by %g needs %zu > %zu", a, b, w, mn, cap);
        mn = rf_path_mix_trim(p, p, w, a, b, ops, cap);
        for (size_t i = 0; i < mn && i < cap; i++) {
            int np2 = ops[i].kind == RF_PATH_OP_CURVE ? 6 : ops[i].kind == RF_PATH_OP_CLOSE ? 0 : 2;
            for (int j = 0; j < np2; j++)
                FUZZ_CHECK(isfinite(ops[i].p[j]), "mix trim op %zu p[%d]", i, j);
        }
    }
    FUZZ_CHECK(rf_path_mismatch(p, p) == UINT32_MAX, "a path mismatches itself");
    {
        double w = fuzz_unit(rng), ml = rf_path_mix_length(p, p, w), b0, b1, b2, b3;
        FUZZ_CHECK(fabs(ml - len) <= 1e-9 * len + tol * 1e-6, "mix length %.17g, length %.17g",
                   ml, len);
        rf_path_mix_bounds(p, p, w, &b0, &b1, &b2, &b3);
        FUZZ_CHECK(fabs(b0 - x0) <= tol && fabs(b1 - y0) <= tol && fabs(b2 - x1) <= tol &&
                       fabs(b3 - y1) <= tol,
                   "mix bounds [%g %g %g %g]", b0, b1, b2, b3);
    }
    free(ops);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rf_path_t *p = (rf_path_t *)(uintptr_t)1;
    rf_path_error_t err;
    fuzz_rng_t rng;

    memset(&err, 0, sizeof err);
    alloc_calls = 0;
    int rc = rf_path_parse((const char *)data, size, alloc_counting, NULL, &p, &err);
    if (rc != 0) {
        FUZZ_CHECK(p == NULL, "failed parse left *out set");
        FUZZ_CHECK(alloc_calls == 0, "syntax error after %u allocations", alloc_calls);
        FUZZ_CHECK(err.col >= 1 && err.col <= size + 1, "col %zu of %zu bytes", err.col, size);
        FUZZ_CHECK(memchr(err.msg, '\0', sizeof err.msg) != NULL, "message not terminated");
        FUZZ_CHECK(err.msg[0] != '\0' && strpbrk(err.msg, "\r\n") == NULL, "message '%s'",
                   err.msg);
        return 0;
    }
    FUZZ_CHECK(p != NULL && alloc_calls == 1, "success after %u allocations", alloc_calls);
    /* a parse without the error struct agrees */
    {
        rf_path_t *q = NULL;
        FUZZ_CHECK(rf_path_parse((const char *)data, size, alloc_counting, NULL, &q, NULL) == 0,
                   "second parse failed");
        FUZZ_CHECK(rf_path_length(q) == rf_path_length(p), "two lengths");
        free(q);
    }
    /* out of memory: fails, says so without a column, leaves *out NULL */
    {
        rf_path_t *q = (rf_path_t *)(uintptr_t)1;
        alloc_calls = 0;
        rc = rf_path_parse((const char *)data, size, alloc_failing, NULL, &q, &err);
        FUZZ_CHECK(rc != 0 && q == NULL && err.col == 0 && alloc_calls == 1,
                   "allocation failure: rc %d, col %zu, %u calls", rc, err.col, alloc_calls);
    }
    fuzz_rng_init(&rng, NULL, 0, fuzz_hash(data, size));
    check_path(p, &rng);
    free(p);
    return 0;
}
