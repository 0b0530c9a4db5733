/* easing.h - timing functions: progress in, eased progress out.
 *
 * Owns: rf_easing_t, a small fixed-size descriptor for every easing of the
 * contract (scene-v1.md "easing names"): the CSS keywords, cubic-bezier,
 * steps(N, jump-*), CSS linear(...) stops, and the Penner family as
 * easings.net defines it. Descriptors are built once by rf_easing_parse() or
 * rf_easing_init_cubic(); evaluation only reads them, never allocates and is
 * thread-safe. A linear(...) easing borrows its stop array, which lives in
 * storage the caller passed to the parser (the scene's arena).
 */
#ifndef RF_EASING_H
#define RF_EASING_H

#include <stddef.h>
#include <stdint.h>

typedef enum rf_ease_kind {
    RF_EASE_LINEAR = 0,   /* identity */
    RF_EASE_CUBIC,        /* CSS cubic-bezier(p1x, p1y, p2x, p2y) */
    RF_EASE_STEPS,        /* CSS steps(n, jump) */
    RF_EASE_STOPS,        /* CSS linear(...) with explicit stops */
    RF_EASE_PENNER,       /* easings.net function, see rf_penner_t */
    RF_EASE_SAMPLED,      /* n samples at p = i/(n-1), linear between (seed 004) */
} rf_ease_kind_t;

typedef enum rf_jump {
    RF_JUMP_START = 0,
    RF_JUMP_END,
    RF_JUMP_NONE,
    RF_JUMP_BOTH,
} rf_jump_t;

/* Penner families; the function is family * 3 + {0 in, 1 out, 2 in-out}. */
typedef enum rf_penner_family {
    RF_PENNER_SINE = 0, RF_PENNER_QUAD, RF_PENNER_CUBIC, RF_PENNER_QUART,
    RF_PENNER_QUINT, RF_PENNER_EXPO, RF_PENNER_CIRC, RF_PENNER_BACK,
    RF_PENNER_ELASTIC, RF_PENNER_BOUNCE,
    RF_PENNER_FAMILIES
} rf_penner_family_t;
enum { RF_PENNER_IN = 0, RF_PENNER_OUT = 1, RF_PENNER_IN_OUT = 2 };

/* One CSS linear() control point after the spec's fix-up: input positions
 * are all present and non-decreasing. */
typedef struct rf_stop {
    double x;   /* input progress */
    double y;   /* output progress */
} rf_stop_t;

typedef struct rf_easing {
    uint8_t kind;           /* rf_ease_kind_t */
    uint8_t sub;            /* RF_EASE_STEPS: rf_jump_t; RF_EASE_PENNER: function index */
    uint32_t n;             /* RF_EASE_STEPS: step count; RF_EASE_STOPS: stop count;
                             * RF_EASE_SAMPLED: sample count (>= 2) */
    double p[4];            /* RF_EASE_CUBIC: p1x, p1y, p2x, p2y */
    union {
        const rf_stop_t *stops;  /* RF_EASE_STOPS: n stops, borrowed */
        const double *samples;   /* RF_EASE_SAMPLED: n values, borrowed */
    };
} rf_easing_t;

/* The identity easing. */
void rf_easing_init_linear(rf_easing_t *e);
/* A cubic-bezier. When clamp is nonzero every component is clamped to [0,1]
 * (the `bezier` kind); otherwise only y may leave [0,1] and the caller must
 * have checked that x1, x2 are in [0,1] (CSS). */
void rf_easing_init_cubic(rf_easing_t *e, double p1x, double p1y, double p2x,
                          double p2y, int clamp);

/* A sampled easing (seed 004's sampled functions): samples[i] is the
 * eased progress at p = i / (n - 1), n >= 2, borrowed (the caller fills
 * it, before the easing is evaluated or its range taken). Evaluation
 * clamps p to [0,1] and interpolates linearly between the samples. */
void rf_easing_init_sampled(rf_easing_t *e, const double *samples, uint32_t n);

/* Storage for the stops of linear(...) easings while parsing. */
typedef void *(*rf_easing_alloc_fn)(void *ctx, size_t size);

/* Parses an easing string: "linear", "ease", "ease-in", "ease-out",
 * "ease-in-out", "step-start", "step-end", "steps(N[, jump-start|jump-end|
 * jump-none|jump-both|start|end])", "cubic-bezier(a, b, c, d)",
 * "linear(...)", or a Penner name "ease-{in,out,in-out}-{sine,...,bounce}".
 * When cubic_only is nonzero (the `bezier` kind) only "linear", the CSS ease
 * names and cubic-bezier(...) are accepted and the curve is clamped.
 * linear(...) stops are allocated with alloc(ctx, size). Returns 0 on
 * success; -1 with a one-line reason in err (no file or pointer prefix). */
int rf_easing_parse(rf_easing_t *e, const char *text, int cubic_only,
                    rf_easing_alloc_fn alloc, void *ctx,
                    char *err, size_t errlen);

/* Eased progress at input progress p. p is normally in [0,1]; values outside
 * are accepted and follow CSS (cubic-bezier extrapolates along the end
 * tangents, steps() and linear() as their algorithms say; Penner functions
 * clamp p to [0,1]). */
double rf_easing_eval(const rf_easing_t *e, double p);

/* d(eased)/dp at p, for velocity inheritance: the exact derivative of every
 * kind (steps: 0; at 0 and 1 one-sided). Infinite where the tangent is
 * vertical (cubic p1x = 0 with p1y != 0 at p = 0, the circ family's ends). */
double rf_easing_slope(const rf_easing_t *e, double p);

/* Range [lo, hi] of rf_easing_eval over p in [0,1]: exact for linear, cubic
 * (from the roots of y'(s)), steps and stops; for Penner functions from
 * their known extrema. It always contains eval(0) and eval(1). */
void rf_easing_range(const rf_easing_t *e, double *lo, double *hi);

/* CSS cubic-bezier y for x, the solver the whole engine uses: 4 Newton
 * iterations, then bisection where Newton has not converged, so that the
 * error in y is <= 1e-6 on every curve with x1, x2 in [0,1]. Outside
 * [0,1] it extrapolates linearly along the end tangents as CSS does. */
double rf_cubic_solve(double p1x, double p1y, double p2x, double p2y, double x);

/* What rf_easing_parse reads, for the scene schema: its keywords (*n of
 * them; cubic_only: those a bezier curve takes) and, with functions, the
 * function names ("steps", "cubic-bezier", "linear"; cubic_only:
 * "cubic-bezier" alone) instead. */
const char *const *rf_easing_words(int functions, int cubic_only, size_t *n);

/* The CSS/Penner name of an easing for messages and `info`; buf >= 64. */
const char *rf_easing_name(const rf_easing_t *e, char *buf, size_t len);

#endif
