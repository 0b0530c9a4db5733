/* anim-track.c - tracks: the segments of a `sequence`, resolved once at
 * load (each retarget inherits value and velocity from the segment before),
 * and the O(1) lookup of the segment in charge at a time (anim.h). */
#include "anim.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

static double dmin2(double a, double b) { return a < b ? a : b; }
static double dmax2(double a, double b) { return a > b ? a : b; }

/* ------------------------------------------------------------------- track */

size_t rf_track_storage_size(uint32_t n)
{
    uint64_t bytes = (uint64_t)n * (sizeof(rf_anim_t) + sizeof(double) + sizeof(uint32_t))
                     + sizeof(uint32_t);
    return n == 0 || bytes > (uint64_t)(SIZE_MAX / 2) ? 0 : (size_t)bytes;
}

/* Grid cell of time t; monotone in t, so a start in an earlier cell is
 * always before t and a start in a later cell always after it. */
static uint32_t track_cell(const rf_track_t *tr, double t)
{
    double u = (t - tr->grid_t0) * tr->grid_scale;
    if (!(u > 0.0))
        return 0;
    if (u >= (double)(tr->n - 1))
        return tr->n - 1;
    return (uint32_t)u;
}

void rf_track_build(rf_track_t *tr, void *storage, const rf_anim_spec_t *specs, uint32_t n)
{
    rf_track_build_prep(tr, storage, specs, n, NULL, NULL);
}

/* Spec i of a track as it is built: an explicit from and velocity, or the
 * state of segment i - 1 (prev, NULL for the first) at its start. */
static rf_anim_spec_t track_inherit(const rf_anim_spec_t *spec, const rf_anim_t *prev)
{
    rf_anim_spec_t s = *spec;
    if (prev != NULL) {
        double x, v;
        rf_anim_eval_state(prev, s.start + s.delay, &x, &v);
        if (!s.has_from)
            s.from = x;
        /* an easing with a vertical tangent (cubic p1x = 0, circ) has an
         * infinite slope at its ends: a retarget there starts at rest */
        if (!isfinite(v))
            v = 0.0;
        /* duration-based kinds take only the value (seed 000) */
        if (!s.has_velocity && (s.curve == RF_CURVE_SPRING || s.curve == RF_CURVE_PHYSICS
                                || s.curve == RF_CURVE_DECAY))
            s.velocity = v;
    }
    return s;
}

/* The lookup grid, settle, final value and range of a track whose
 * segments are built. */
static void track_finish(rf_track_t *tr, rf_anim_t *segs, uint32_t n)
{
    double *starts = (double *)(segs + n);
    uint32_t *bucket = (uint32_t *)(starts + n);
    for (uint32_t i = 0; i < n; i++)
        starts[i] = segs[i].start;
    tr->n = n;
    tr->segs = segs;
    tr->starts = starts;
    tr->bucket = bucket;
    /* n - 1 cells over [first start, last start]: evenly spaced entries
     * land one per cell */
    tr->grid_t0 = starts[0];
    double span = starts[n - 1] - starts[0];
    tr->grid_scale = n > 1 && span > 0 && isfinite(span) ? (double)(n - 1) / span : 0.0;
    if (!isfinite(tr->grid_scale))
        tr->grid_scale = 0.0;
    /* bucket[b] = last segment whose cell is < b (0 if none), so that the
     * answer for a time in cell b lies in bucket[b] .. bucket[b+1] */
    uint32_t j = 0;
    for (uint32_t b = 0; b <= n; b++) {
        while (j + 1 < n && track_cell(tr, starts[j + 1]) < b)
            j++;
        bucket[b] = (b == 0 || track_cell(tr, starts[0]) >= b) ? 0 : j;
    }
    tr->settle = segs[n - 1].settle;
    tr->final = segs[n - 1].final;
    tr->end = (rf_end_t)segs[n - 1].end;
    tr->lo = INFINITY;
    tr->hi = -INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        double lo, hi, end = i + 1 < n ? segs[i + 1].start : INFINITY;
        rf_anim_range_until(&segs[i], end, &lo, &hi);
        tr->lo = dmin2(tr->lo, lo);
        tr->hi = dmax2(tr->hi, hi);
    }
}

void rf_track_build_prep(rf_track_t *tr, void *storage, const rf_anim_spec_t *specs, uint32_t n,
                         rf_track_prep_fn prep, void *ctx)
{
    rf_anim_t *segs = storage;
    for (uint32_t i = 0; i < n; i++) {
        rf_anim_spec_t s = track_inherit(&specs[i], i > 0 ? &segs[i - 1] : NULL);
        if (prep != NULL)
            prep(ctx, &s);
        rf_anim_init(&segs[i], &s);
    }
    track_finish(tr, segs, n);
}

void rf_track_build_vec(rf_track_t *tr, void *const *storage, const rf_anim_spec_t *specs,
                        uint32_t ncomp, uint32_t n, rf_track_prep_fn prep, void *ctx)
{
    rf_anim_spec_t s[RF_TRACK_MAXCOMP];
    if (ncomp > RF_TRACK_MAXCOMP)
        ncomp = RF_TRACK_MAXCOMP;
    for (uint32_t i = 0; i < n; i++) {
        double d2 = 0;
        for (uint32_t k = 0; k < ncomp; k++) {
            rf_anim_t *segs = storage[k];
            s[k] = track_inherit(&specs[(size_t)k * n + i], i > 0 ? &segs[i - 1] : NULL);
            d2 += (s[k].to - s[k].from) * (s[k].to - s[k].from);
        }
        /* a duration policy measures the whole move: every component plays
         * in the duration of the Euclidean distance */
        if (ncomp > 1 && s[0].duration_policy) {
            rf_anim_spec_t whole = s[0];
            whole.from = 0;
            whole.to = sqrt(d2);
            double d = rf_anim_spec_duration(&whole);
            for (uint32_t k = 0; k < ncomp; k++) {
                s[k].duration_policy = 0;
                s[k].duration = d;
            }
        }
        for (uint32_t k = 0; k < ncomp; k++) {
            if (prep != NULL)
                prep(ctx, &s[k]);
            rf_anim_init((rf_anim_t *)storage[k] + i, &s[k]);
        }
    }
    for (uint32_t k = 0; k < ncomp; k++)
        track_finish(&tr[k], storage[k], n);
}

/* The segment in charge at t: the last one whose start is <= t (the first
 * one before any start, where it holds its from value). The grid cell
 * bounds the candidates; evenly spaced entries leave one or two, and a
 * branch-free halving settles the rest. */
static const rf_anim_t *track_seg(const rf_track_t *tr, double t)
{
    if (tr->n == 1)
        return tr->segs;
    uint32_t cell = track_cell(tr, t);
    uint32_t lo = tr->bucket[cell], hi = tr->bucket[cell + 1];
    if (hi - lo <= 1) /* the usual case: one comparison, a conditional move */
        return &tr->segs[tr->starts[hi] <= t ? hi : lo];
    uint32_t len = hi - lo + 1;
    const double *base = tr->starts + lo;
    while (len > 1) {
        uint32_t half = len / 2;
        base = base[half] <= t ? base + half : base;
        len -= half;
    }
    return &tr->segs[base - tr->starts];
}

double rf_track_eval(const rf_track_t *tr, double t)
{
    return rf_anim_eval(track_seg(tr, t), t);
}

void rf_track_eval_state(const rf_track_t *tr, double t, double *x, double *v)
{
    rf_anim_eval_state(track_seg(tr, t), t, x, v);
}
