/* values.h - the scene's named values and their evaluation at a time.
 *
 * Owns: rf_value_t (one named value of the scene: its kind, what computes it
 * (an engine track, a compiled expression, or a path and a progress input),
 * and the `info` facts: settle time, final value, range) and rf_values_t (all
 * of them, with a name index and the evaluation order). Evaluation writes one
 * double per output slot: most values have one output; a sample_path value
 * has three (x, y, angle in degrees); a vector value 2 to 4 (x, y, z, w)
 * and a color value 4 (r, g, b, a), each component its own track of
 * descriptors built from the same parameters. rf_values_eval() runs over the values
 * in dependency order (an expression after every value it reads, a sample
 * after its progress), reads only const data and never allocates, so any
 * number of threads may evaluate the same set at different times.
 *
 * The set and its arrays are built by the scene loader in the scene's arena.
 */
#ifndef RF_VALUES_H
#define RF_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "anim.h"
#include "expr.h"

struct rf_expr;
struct rf_path;

/* The facts of one output slot of a value with several (sample_path: x, y,
 * angle; a vector's components; a color's channels); for one-output values
 * out[0] repeats settle/final/lo/hi. */
typedef struct rf_value_out {
    double settle;         /* this output's own settle time (a vector's
                            * component); the value's for derived values */
    double final;          /* NAN when it has no final value */
    double lo, hi;
} rf_value_out_t;

/* The most outputs a value has: a 4-component vector or a color. */
#define RF_VALUE_MAXOUT 4

/* What a value's outputs are (scene-v1.md "Vector and color values"). */
typedef enum rf_value_shape {
    RF_SHAPE_SCALAR = 0,   /* one output */
    RF_SHAPE_SAMPLE,       /* a path sample: x, y, angle */
    RF_SHAPE_VECTOR,       /* 2 to 4 components: x, y, z, w */
    RF_SHAPE_COLOR,        /* straight RGBA, channels 0..1: r, g, b, a */
} rf_value_shape_t;

typedef enum rf_value_kind {
    RF_VALUE_STATIC = 0,   /* a number */
    RF_VALUE_SPRING,
    RF_VALUE_BEZIER,
    RF_VALUE_REPEAT,
    RF_VALUE_TWEEN,
    RF_VALUE_PHYSICS,
    RF_VALUE_DECAY,
    RF_VALUE_KEYFRAMES,
    RF_VALUE_SNAP,         /* from before start, to from start on */
    RF_VALUE_SEQUENCE,
    RF_VALUE_EXPR,         /* derived: a compiled expression over other values and t */
    RF_VALUE_SAMPLE_PATH,  /* derived: a point on a path by arc-length progress */
    RF_VALUE_KINDS
} rf_value_kind_t;

typedef struct rf_value rf_value_t;

/* The names of the outputs of a value of shape, in slot order: "x", "y",
 * "angle" for a path sample, "x", "y", "z", "w" for a vector, "r", "g",
 * "b", "a" for a color (NULL for a scalar). Columns, rows and expressions
 * spell an output NAME.x, NAME.angle, NAME.z, NAME.r. */
const char *const *rf_value_shape_names(rf_value_shape_t shape);
/* The name of output k of v ("y", "angle", "b"), NULL for a one-output value. */
const char *rf_value_output_name(const rf_value_t *v, uint32_t k);
/* The output of a value of shape with nout outputs that the component
 * name[0 .. len-1] names, or -1. */
int rf_value_output_find(rf_value_shape_t shape, uint32_t nout, const char *name, size_t len);
/* The output that component comp (expr.h: RF_EXPR_PLAIN, RF_EXPR_X, ...)
 * names in such a value, or -1: PLAIN names the one output of a scalar. */
int rf_value_component_output(rf_value_shape_t shape, uint32_t nout, int comp);

/* The scene-file name of a kind ("spring", "sequence", ...). */
const char *rf_value_kind_name(rf_value_kind_t kind);

struct rf_value {
    const char *name;      /* the key in `values`; "" for an inline value */
    rf_value_kind_t kind;
    uint32_t slot;         /* first output slot */
    uint32_t nout;         /* outputs: 1, 3 for a sample_path (x, y, angle),
                            * 2-4 for a vector, 4 for a color (r, g, b, a) */
    uint8_t shape;         /* rf_value_shape_t */
    rf_track_t track;      /* animated kinds; static values: one RF_CURVE_CONST segment;
                            * a vector or color: its first component's (comps[0]) */
    const rf_track_t *comps; /* a vector or color: nout tracks, one per component,
                              * each the scalar closed form with the shared parameters */
    const struct rf_expr *expr;  /* RF_VALUE_EXPR: compiled, reads other slots and t */
    const struct rf_path *path;  /* RF_VALUE_SAMPLE_PATH: the measured path */
    uint32_t progress_slot;      /* RF_VALUE_SAMPLE_PATH: slot holding its progress */
    rf_value_out_t out[RF_VALUE_MAXOUT]; /* per-output facts, nout entries */
    double settle;         /* INFINITY when it never settles */
    double final;          /* NAN when it has no final value */
    double lo, hi;         /* conservative range, -INFINITY/INFINITY when unbounded */
    rf_end_t end;          /* how it ends (anim.h); derived values: as their inputs */
    int used;              /* nonzero: a layer uses it (directly or through others) */
};

typedef struct rf_values {
    uint32_t n;            /* named values first (file order), then inline ones */
    uint32_t nnamed;       /* values[0 .. nnamed-1] have names */
    rf_value_t *values;
    const uint32_t *order; /* evaluation order (dependencies first), n entries */
    const uint32_t *by_name; /* indices of named values sorted by name (strcmp) */
    uint32_t nslots;       /* doubles that rf_values_eval() writes */
} rf_values_t;

/* The named value called name, or NULL. O(log n). */
const rf_value_t *rf_values_find(const rf_values_t *vs, const char *name);
const rf_value_t *rf_values_findn(const rf_values_t *vs, const char *name, size_t len);

/* Evaluates every value at time t into out[0 .. nslots-1]. */
void rf_values_eval(const rf_values_t *vs, double t, double *out);

/* Evaluates one value at t into slots[v->slot .. v->slot + nout - 1]. The
 * slots of everything it reads must already hold their values at t, as
 * they do when values are evaluated in `order`. */
void rf_value_eval(const rf_value_t *v, double t, double *slots);

/* ---- time-shifted evaluation (text per_glyph; instances) ----
 * A layer part that is drawn as it would be at another time (glyph k of
 * a per_glyph text at t - rank * stagger) evaluates only the values its
 * properties read, directly or through expressions and path samples, at
 * that time, into a slot array of its own: values are pure functions of
 * t, so nothing is kept from one glyph to the next. */

/* The indices of the values that slots[0 .. n-1] depend on, themselves
 * included, in evaluation order: a malloc'd array (free() it) of *count
 * entries, NULL when out of memory. Setup time, not per frame. */
uint32_t *rf_values_closure_create(const rf_values_t *vs, const uint32_t *slots, uint32_t n,
                                   uint32_t *count);

/* Evaluates the values list[0 .. n-1] (a closure, in its order) at t into
 * out (nslots doubles). Never allocates. */
void rf_values_eval_list(const rf_values_t *vs, const uint32_t *list, uint32_t n, double t,
                         double *out);

#endif
