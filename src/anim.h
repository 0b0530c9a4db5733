/* anim.h - the analytical engine: closed-form animation descriptors.
 *
 * Owns: rf_anim_t, one fixed-size descriptor per animation segment (seed 000's
 * RuneAnimDesc in double precision), and rf_track_t, an ordered run of
 * segments that a `sequence` retargets between (a plain value is a track of
 * one segment). Every kind of scene-v1.md "Values" except expr and sample_path
 * is here: spring (three regimes), eased (bezier, repeat and tween, with
 * repeat modes), physics (friction, gravity, terminal bounds), decay and
 * keyframes, and snap (a jump from `from` to `to` at the start).
 *
 * Lifetime: descriptors are built once, at load, by rf_anim_init() and
 * rf_track_build(), which also resolve everything that does not depend on
 * time: settle time, final value, exact range, sequence inheritance. After
 * that they are only read: rf_anim_eval() and rf_track_eval() are pure,
 * thread-safe, and never allocate. Keyframe keys and track segment arrays are
 * borrowed: the builder (the scene loader) owns them in its arena.
 *
 * Time: seconds on the scene clock, double precision (t = 3600 s seeks keep
 * microsecond resolution). Before its start a segment holds its from value.
 * At and after its settle time it is exactly its final value, velocity 0.
 */
#ifndef RF_ANIM_H
#define RF_ANIM_H

#include <stddef.h>
#include <stdint.h>

#include "easing.h"

typedef enum rf_curve {
    RF_CURVE_CONST = 0,  /* holds from forever */
    RF_CURVE_SPRING,     /* damped harmonic oscillator, unit mass */
    RF_CURVE_EASED,      /* from + easing(progress) * (to - from), with repeat */
    RF_CURVE_PHYSICS,    /* dv/dt = gravity - friction * v, terminal bounds */
    RF_CURVE_DECAY,      /* exponential decay, lambda = 4.2 * friction */
    RF_CURVE_KEYFRAMES,  /* piecewise keys over normalized time */
    RF_CURVE_SNAP,       /* from before start, to from start on */
} rf_curve_t;

typedef enum rf_repeat {
    RF_REPEAT_NONE = 0,
    RF_REPEAT_LOOP,       /* restart each cycle */
    RF_REPEAT_PING_PONG,  /* odd cycles play in reverse */
} rf_repeat_t;

typedef enum rf_interp {
    RF_INTERP_LINEAR = 0,
    RF_INTERP_STEP,        /* hold a key's value until the next key */
    RF_INTERP_SMOOTHSTEP,  /* each segment eased by 3u^2 - 2u^3 */
} rf_interp_t;

/* How a segment ends (seed 003's AnimationResult, scene-v1.md "End
 * reasons"): it reaches its final value (finished), physics stops at a
 * terminal bound (bound), a settle search gave up on a motion that does
 * converge, so it keeps its physical value forever (duration-limit), or it
 * never ends (loops, undamped springs, unbounded physics). */
typedef enum rf_end {
    RF_END_FINISHED = 0,
    RF_END_BOUND,
    RF_END_LIMIT,
    RF_END_NEVER,
} rf_end_t;

/* "finished", "bound", "duration-limit", "never". */
const char *rf_end_name(rf_end_t end);

/* One keyframe: normalized time in [0,1], value, and the easing of the
 * segment that ends at this key (ignored on the first key). */
typedef struct rf_key {
    double time;
    double value;
    rf_easing_t easing;
} rf_key_t;

/* What the scene says about one animation, before resolution. The loader
 * fills the fields of its curve (defaults included) and says which of from
 * and velocity were explicit; rf_anim_init() resolves the rest. */
typedef struct rf_anim_spec {
    rf_curve_t curve;
    int has_from;        /* 0: inherit from the previous sequence entry */
    int has_velocity;    /* 0: inherit (spring, physics, decay) */
    double from;
    double to;           /* spring, eased */
    double start;        /* seconds; in a sequence, the entry's `at` */
    double delay;        /* seconds >= 0, added to start (scene-v1.md `delay`) */
    double velocity;     /* spring, physics, decay: value units per second */
    double threshold;    /* spring, decay, gravity-free physics: settle distance */
    /* spring */
    double stiffness;    /* > 0 */
    double damping;      /* >= 0 */
    /* eased and keyframes */
    double duration;     /* > 0 seconds; for a policy, ignored */
    int duration_policy; /* nonzero: duration = clamp(|to-from|/speed, dmin, dmax) */
    double speed, dmin, dmax;
    rf_easing_t easing;  /* eased */
    rf_repeat_t repeat;  /* eased */
    uint32_t iterations; /* eased: 0 = forever when repeating */
    /* physics and decay */
    double friction;     /* >= 0 (decay: > 0) */
    double gravity;      /* physics */
    double min, max;     /* physics terminal bounds, -inf / +inf when absent */
    /* keyframes */
    rf_interp_t interp;
    const rf_key_t *keys;
    uint32_t nkeys;      /* >= 2 */
} rf_anim_spec_t;

/* Fills spec with the contract's defaults for curve: spring stiffness 170,
 * damping 26, threshold 0.01; friction 0 (physics) or 1 (decay); bounds
 * -inf/+inf; has_from and has_velocity set (from 0, velocity 0). */
void rf_anim_spec_defaults(rf_anim_spec_t *spec, rf_curve_t curve);

typedef struct rf_anim {
    /* what every evaluation reads comes first, so that a closed form usually
     * touches one cache line of its descriptor */
    uint8_t curve;        /* rf_curve_t */
    uint8_t repeat;       /* rf_repeat_t (eased) */
    uint8_t interp;       /* rf_interp_t (keyframes) */
    uint8_t regime;       /* spring: 0 under, 1 critical, 2 over; physics: form */
    uint32_t iterations;  /* eased: 0 = forever */
    double start;         /* seconds: the spec's start + delay */
    double settle;        /* absolute seconds at and after which value == final; INFINITY if never */
    double to;            /* target (spring, eased); asymptote or bound when settling */
    double p[6];          /* curve coefficients, see anim.c */
    double from;          /* value before start */
    double final;         /* value at and after settle; NAN when it has none */
    double duration;      /* eased, keyframes: one cycle, seconds */
    double lo, hi;        /* range of the value over all t (exact where the kind allows) */
    rf_easing_t easing;   /* eased */
    const rf_key_t *keys; /* keyframes, borrowed */
    uint32_t nkeys;
    uint8_t end;          /* rf_end_t */
} rf_anim_t;

/* Resolves spec into a; the segment starts at spec->start + spec->delay.
 * Never fails on a spec the loader validated: the
 * settle searches are bounded whatever the numbers are. */
void rf_anim_init(rf_anim_t *a, const rf_anim_spec_t *spec);

/* Value at time t, always within the published range [lo, hi] (closed forms
 * that round an ulp past an exact extremum are clamped back). */
double rf_anim_eval(const rf_anim_t *a, double t);
/* Value and velocity (units per second) at time t; velocity is 0 before start
 * and after settle. */
void rf_anim_eval_state(const rf_anim_t *a, double t, double *x, double *v);

/* Range of the segment's value over [-inf, t_end): what a sequence shows of a
 * segment before the next one takes over. Exact for springs and physics,
 * the whole-segment range for the other kinds. */
void rf_anim_range_until(const rf_anim_t *a, double t_end, double *lo, double *hi);

/* A run of segments; segment i is in charge from its start (the entry's
 * `at`) until the next segment's start. */
typedef struct rf_track {
    uint32_t n;             /* >= 1 */
    const rf_anim_t *segs;  /* n segments, starts strictly increasing */
    const double *starts;   /* the n segment starts, packed for the lookup */
    const uint32_t *bucket; /* n + 1 entries: a uniform time grid over the
                             * starts; bucket[b] .. bucket[b+1] bounds the
                             * segments a time in cell b can fall in */
    double grid_t0;         /* starts[0] */
    double grid_scale;      /* cells per second */
    double settle;          /* the last segment's settle time */
    double final;           /* the last segment's final value, NAN if none */
    double lo, hi;          /* union of what each segment shows */
    rf_end_t end;           /* the last segment's end reason */
} rf_track_t;

/* Bytes of storage rf_track_build() needs for n segments (suitably aligned
 * for doubles); 0 when n is 0 or the size would overflow. */
size_t rf_track_storage_size(uint32_t n);

/* Builds a track from n specs into storage (rf_track_storage_size(n) bytes,
 * owned by the caller, borrowed by the track), resolving sequence
 * retargeting: spec i > 0 without an explicit from (velocity) takes the value
 * (velocity) of segment i-1 at spec[i].start + spec[i].delay. Duration-based kinds take only
 * the value. */
void rf_track_build(rf_track_t *tr, void *storage, const rf_anim_spec_t *specs, uint32_t n);

/* rf_track_build, calling prep(ctx, &spec) on each segment's spec once its
 * inheritance is resolved and before it is built (the loader fills a
 * sampled easing's motion context there: origin, target, duration). */
typedef void (*rf_track_prep_fn)(void *ctx, rf_anim_spec_t *spec);
void rf_track_build_prep(rf_track_t *tr, void *storage, const rf_anim_spec_t *specs, uint32_t n,
                         rf_track_prep_fn prep, void *ctx);

/* Vector and color values (scene-v1.md "Vector and color values", seed
 * 003's converters): ncomp (<= RF_TRACK_MAXCOMP) tracks built side by
 * side, one per component, each exactly rf_track_build_prep() of its own
 * specs: specs holds ncomp runs of n specs (component k's at specs + k*n),
 * storage[k] is component k's storage (rf_track_storage_size(n) bytes).
 * Only a duration policy couples them: with ncomp > 1 every component of
 * an entry plays in the duration of the Euclidean distance
 * sqrt(sum (to_k - from_k)^2) (the components arrive together). */
#define RF_TRACK_MAXCOMP 4
void rf_track_build_vec(rf_track_t *tr, void *const *storage, const rf_anim_spec_t *specs,
                        uint32_t ncomp, uint32_t n, rf_track_prep_fn prep, void *ctx);

/* The duration an eased spec plays one cycle in: its duration, or its
 * policy clamp(|to - from| / speed, min, max) resolved (at least 1 ms). */
double rf_anim_spec_duration(const rf_anim_spec_t *spec);

/* Value at t: a grid cell, usually one comparison, then closed form. */
double rf_track_eval(const rf_track_t *tr, double t);
void rf_track_eval_state(const rf_track_t *tr, double t, double *x, double *v);

#endif
