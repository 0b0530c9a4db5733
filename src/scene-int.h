/* scene-int.h - what the loader's files share; private to src/scene*.c.
 *
 * Owns: loader_t, the state of one load (its diag, arena, the values as the
 * file gives them, the JSON pointer of what is being checked), and the
 * helpers every stage uses: errors at pointers, messages, typed fields. One
 * load runs on one thread; nothing here is shared between loads.
 *
 * The stages, each a file (scene.c says in which order they run):
 *   scene-field.c     errors, message helpers, typed fields, finiteness
 *   scene-value.c     `values`: each kind's keys, sequences, indexing
 *   scene-ref.c       `paths`, and the references of values resolved
 *   scene-layer.c     `layers`, walked by the layer-type table (layer.h)
 *   scene-timeline.c  `canvas`, `timeline`, `checks`
 *   scene-build.c     the value graph: order, cycles, building, auto
 *   scene-motion.c    `reduced_motion`, and values reduced before building
 *   scene-story.c     `states`, `transitions`, `storyboard`: sequence values
 *   scene-vec.c       vector and color values: components, outputs, building
 *   scene.c           the top level and the entry points (scene.h)
 * Internal functions shared between them are named scene_* (static helpers have no prefix).
 */
#ifndef RF_SCENE_INT_H
#define RF_SCENE_INT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "anim.h"
#include "arena.h"
#include "diag.h"
#include "easing.h"
#include "expr.h"
#include "layer.h"
#include "loc.h"
#include "motion.h"
#include "numfmt.h"
#include "path.h"
#include "scene.h"
#include "suggest.h"
#include "values.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Expressions are compiled for t in [0, T_MAX]: their published ranges hold
 * for every time from 0 (no command takes a negative time) to 2^53 s, some
 * 285 million years, where the double clock stops telling whole seconds
 * apart. The end must be finite: over [0, +inf) t * 6.283 reaches +inf, where
 * sin is NaN, so sin(t * 6.283) could not be bounded by [-1, 1]. */
#define T_MAX 9007199254740992.0

/* ------------------------------------------------------------------ */
/* Loader state                                                         */

/* One value while loading: what the file says, before the engine. */
typedef struct vsrc {
    const char *name;          /* arena; "" for an inline value */
    rf_value_kind_t kind;
    rf_anim_spec_t *specs;     /* arena; NULL when the value was invalid */
    uint32_t nspecs;
    int used;
    const char *ptr;           /* arena: the value's JSON pointer, for later messages */
    /* expr */
    const char *src;           /* the expression (cJSON's string), NULL when invalid */
    rf_expr_t *pre;            /* arena: src compiled whole when it reads no value (only t
                                * and numbers), by the first pass; build_expr takes it */
    /* sample_path */
    const char *path_ref;      /* a name in `paths`, resolved once paths are known */
    const rf_path_t *path;     /* the measured path, once known */
    const char *progress_ref;  /* "NAME" or "NAME.x": resolved later */
    const cJSON *progress_obj; /* an inline progress, added once names are indexed */
    long progress_vi;          /* the value holding the progress, or -1 */
    int progress_comp;         /* the output of progress_vi it reads (0: a plain value) */
    /* `from` naming a value (plain animated kinds, a sequence's first entry) */
    const char *from_ref;      /* cJSON's string */
    const char *from_ptr;      /* arena: pointer of the `from` key */
    const char *from_kind;     /* the kind that starts from it, for messages */
    int from_velocity;         /* nonzero: also inherit the velocity */
    long from_vi;
    /* the value graph: what this value reads (value indices, reference order) */
    uint32_t *deps;            /* arena */
    uint32_t ndeps;
    int derived_deps;          /* deps are read every frame (expr, sample), not a `from` */
    const char *edge_ptr;      /* arena: where the references are (cycle messages) */
    /* reduced motion */
    int essential;             /* `"essential": true`: never reduced */
    double settle0;            /* the settle time as written (before reduction) */
    /* a vector or color value (scene-vec.c): specs holds ncomp runs of
     * nspecs specs, component k's at specs + k * nspecs */
    uint8_t shape;             /* rf_value_shape_t: SCALAR, VECTOR or COLOR */
    uint8_t ncomp;             /* 0 or 1: one number; else 2..4 */
} vsrc_t;

/* The components of one animated spec while it is parsed (scene-vec.c). */
enum { VX_FROM = 0, VX_TO, VX_VELOCITY, VX_FIELDS };
typedef struct vecspec {
    rf_value_kind_t kind;      /* physics and decay take no vector */
    int n;                     /* 0: no vector field yet; else the component count */
    char nkey[24];             /* what gave n, for messages: "'from'", "key 0" */
    const char *num_key;       /* the first field given as a plain number */
    int key_number;            /* a key value was a plain number */
    int key_index;             /* the key being read, -1 for a field */
    int color;                 /* a field was a color */
    int kind_said;
    int has[VX_FIELDS];        /* the field was a vector or color */
    double comp[VX_FIELDS][RF_VALUE_MAXOUT];
    double *keyvals;           /* keyframes: nkeys x RF_VALUE_MAXOUT (arena) */
    uint32_t nkeys;
} vecspec_t;

/* A sampled easing while loading: its expression and the samples it fills
 * (arena), now (p only) or once its motion is known (scene-motion.c). */
typedef struct sampled {
    double *samples;
    uint32_t n;
    const rf_expr_t *expr;     /* slots: p, origin, target, distance, duration */
    const char *ptr;           /* arena: pointer of its `sampled` key */
    int motion;                /* reads more than p */
} sampled_t;

/* `paths` by name, for lookups from values and layers. */
typedef struct pathref {
    const char *name;          /* cJSON's key */
    const rf_path_t *path;     /* NULL when its data was invalid */
    const char *data;          /* cJSON's string: the path data (NULL if not one) */
} pathref_t;

typedef struct story story_t;   /* scene-story.c */

typedef struct loader {
    rf_diag_t *d;
    rf_arena_t *arena;
    rf_arena_t *scratch;       /* first-pass expression compiles, freed after load */
    rf_scene_t *sc;
    char ptr[1024];            /* JSON pointer of what is being checked */
    vsrc_t *vals;              /* malloc'd; named first, then inline */
    size_t nvals, capvals;
    size_t nnamed;
    int indexed;               /* named values are indexed: inline values may be added */
    size_t nresolved;          /* vals[0 .. nresolved-1] had their references resolved */
    const char **names;        /* malloc'd: named value names, file order */
    uint32_t *by_name;         /* arena: named indices sorted by strcmp */
    pathref_t *path_refs;      /* malloc'd: `paths` sorted by name */
    const char **path_names;   /* malloc'd: the same names, for suggestions */
    size_t npaths;
    uint32_t *order;           /* malloc'd: evaluation order, once sorted */
    rf_layer_t *layers;        /* arena: the top-level layers, slots PENDING until built */
    size_t items;              /* values, layers, path segments, entries */
    int items_over;
    int oom;
    /* canvas.background, parsed once the values are known (it may name a
     * color value) */
    const cJSON *background;
    /* timeline facts for later stages */
    double fps;
    int fps_ok;
    int duration_given;        /* a number was given */
    int duration_ok;           /* valid (number or "auto") */
    double duration;
    /* checks, raw until the frame count is known */
    const cJSON *check_list;   /* the times or frames array */
    int check_by_time;
    /* assets: the scene's folder and --assets, resolved (malloc'd; NULL
     * when a folder cannot be resolved) */
    char *root, *assets_root;
    const char *assets_arg;
    /* reduced motion: the scene's policy, applied when reduced is set */
    int reduced;               /* --reduced-motion */
    int rm_policy;             /* RF_REDUCED_SNAP or RF_REDUCED_SCALE */
    double rm_scale;           /* the scale policy's s, in (0, 1] */
    rf_motion_scheme_t scheme; /* `motion_scheme`: the springs of the roles */
    /* instances: the largest count (0: none), and the values that hold
     * the expressions' i and n (-1 until an expression reads them) */
    uint32_t max_count;
    long inst_vi[2];
    const cJSON *values_obj;   /* `values`: a color string that names a value is the value */
    /* sampled easings (malloc'd) */
    sampled_t *sampled;
    size_t nsampled, capsampled;
    story_t *story;            /* `states`/`storyboard` (malloc'd), or NULL */
} loader_t;

enum { RF_REDUCED_SNAP = 0, RF_REDUCED_SCALE = 1 };

/* Message buffers and the results of typed fields. */
typedef struct { char s[RF_NUM_BUF]; } nbuf_t;
typedef struct { char s[112]; } qbuf_t;
enum { F_BAD = -1, F_ABSENT = 0, F_OK = 1 };
enum { R_ANY, R_GT0, R_GE0 };

/* scene.c: cJSON's allocator. scene_json_hooks() must run before any
 * cJSON call (every entry point of the loader, scene-diff.c and
 * scene-schema.c calls it; once per process). From scene_json_begin() to
 * the scene_json_end() given what it returned (the span it is inside),
 * cJSON's allocations on
 * this thread come from an arena and its frees do nothing: a load drops
 * its whole tree at once instead of freeing each of its nodes (a 505 KB
 * scene's cJSON_Delete was 13% of loading it). Nothing cJSON makes in
 * that span may be used or freed after it; elsewhere, and on every other
 * thread, malloc and free. Spans nest (save and restore). Built with
 * AddressSanitizer there are no spans (malloc and free throughout), so
 * that it still sees a node used after its tree is gone, or leaked. */
typedef struct scene_json {
    void *span;   /* the span's newest chunk (scene.c) */
    int on;
} scene_json_t;
void scene_json_hooks(void);
scene_json_t scene_json_begin(void);
void scene_json_end(scene_json_t outer);

/* scene-field.c */
int scene_nerrors(const loader_t *L);
size_t scene_push(loader_t *L, const char *seg);
size_t scene_pushi(loader_t *L, size_t i);
void scene_pop(loader_t *L, size_t mark);
void scene_err(loader_t *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void scene_err_key(loader_t *L, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void scene_err_at(loader_t *L, const char *ptr, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void scene_err_caret(loader_t *L, const char *ptr, const char *text, size_t len, int col,
                     const char *msg);
void scene_err_oom(loader_t *L);
void *scene_aalloc(loader_t *L, size_t count, size_t size);
void *scene_arena_alloc_fn(void *ctx, size_t size);
const char *scene_num(nbuf_t *b, double x);
const char *scene_q(qbuf_t *b, const char *s);
const char *scene_json_type(const cJSON *it);
const char *scene_join(char *buf, size_t cap, const char *const *names, size_t n);
int scene_find_name(const char *const *names, size_t n, const char *s);
const char *scene_suggest(const loader_t *L, const char *word, const char *const *names, size_t n);
void scene_err_unknown_key(loader_t *L, const char *key, const char *what, const char *const *names,
                           size_t n);
void scene_scan_keys(loader_t *L, const cJSON *obj, const char *const *names, size_t n,
                     const cJSON **found);
const cJSON *scene_get(const char *const *names, size_t n, const cJSON **found, const char *name);
unsigned char *scene_want_named(loader_t *L, const cJSON *obj, const char *what, size_t *pn);
unsigned char *scene_dup_flags(loader_t *L, const cJSON *obj, size_t *pn);
int scene_count_items(loader_t *L, size_t n);
int scene_want_object(loader_t *L, const cJSON *it, const char *what);
int scene_want_number(loader_t *L, const cJSON *it, const char *key, double *out);
int scene_num_field(loader_t *L, const cJSON *it, const char *key, int required, int range,
                    double *out);
int scene_int_field(loader_t *L, const cJSON *it, const char *key, int required, double lo,
                    double hi, double *out);
int scene_enum_field(loader_t *L, const cJSON *it, const char *key, const char *const *names,
                     size_t n, int *out);
int scene_easing_field(loader_t *L, const cJSON *it, const char *key, int cubic_only,
                       rf_easing_t *out);
int scene_color_string(loader_t *L, const cJSON *it, const char *key, uint32_t *out);
void scene_check_finite(loader_t *L, const cJSON *it);

/* scene-value.c */
int scene_valid_name(const char *s);
int scene_valid_name_n(const char *s, size_t len);
const rf_path_t *scene_parse_path_data(loader_t *L, const char *s);
void scene_walk_path_key(loader_t *L, const cJSON *c, rf_path_ref_t *out);
const char *scene_second_figure(const rf_path_t *p, char *buf, size_t cap, size_t *col);
size_t scene_add_value(loader_t *L, const char *name, const cJSON *it);
void scene_parse_values(loader_t *L, const cJSON *obj);
void scene_index_values(loader_t *L);
long scene_lookup_value(const loader_t *L, const char *name, size_t len);

/* scene-ref.c */
void scene_parse_paths(loader_t *L, const cJSON *obj);
int scene_lookup_path(const loader_t *L, const char *name, const rf_path_t **out);
const char *scene_a_kind(rf_value_kind_t kind);
int scene_resolve_input(loader_t *L, const char *s, long *pvi, int *pcomp, char *msg, size_t cap);
void scene_resolve_pending(loader_t *L);
/* 0 for "i", 1 for "n" (the instance number and count in expressions),
 * else -1. */
int scene_inst_name(const char *name, size_t len);
/* The value that holds i (which 0) or n (1), made on first use: a number,
 * 0 or 1 as evaluated (outside instances), its range set at build
 * (scene-build.c); -1 when out of memory or items. */
long scene_inst_value(loader_t *L, int which);
void scene_add_deferred(loader_t *L);

/* scene-layer.c */
/* While layers are walked the values have no slots yet (build_values
 * numbers them once the graph is sorted): a property naming a value holds
 * SCENE_PENDING(value index, output) until scene_fix_layers turns it into
 * the slot (indices stay below RF_MAX_ITEMS + 1, so this never reaches
 * RF_PROP_CONST). */
#define SCENE_PENDING(vi, k) ((uint32_t)(vi) * 4u + (uint32_t)(k))
enum { P_ANY, P_NONNEG };
void scene_walk_numeric(loader_t *L, const cJSON *it, const char *key, int range,
                        rf_prop_t *out);
void scene_parse_layers(loader_t *L, const cJSON *arr);
void scene_fix_layers(const rf_value_t *vals, rf_layer_t *ls, uint32_t n);

/* scene-text.c: fonts and the text layer's own kinds of keys */
void scene_parse_fonts(loader_t *L, const cJSON *obj);
void scene_walk_text_key(loader_t *L, const cJSON *c, const rf_layer_key_t *key, void *field);
void scene_finish_text_key(loader_t *L, const cJSON *c, const rf_layer_key_t *key,
                           rf_layer_t *out);
void scene_fonts_destroy(rf_scene_t *sc);
/* Reads the asset rel named at key whole (asset.h), at most max bytes, and
 * records it in the scene's asset_files (what `preview` follows): every
 * kind of asset (fonts, images) is read through it. NULL after an error
 * (one that could not read the file sets io_error when io is nonzero). */
unsigned char *scene_read_asset(loader_t *L, const char *key, const char *rel, size_t max,
                                size_t *plen, int io);

/* scene-image.c: an image layer's `src` */
void scene_walk_image(loader_t *L, const cJSON *c, const struct rf_image **out);
void scene_images_destroy(rf_scene_t *sc);

/* scene-stroke.c: `dash` and the bounds of miter_limit */
void scene_walk_dash(loader_t *L, const cJSON *c, const rf_prop_t **out, uint32_t *nout);
void scene_check_min1(loader_t *L, const cJSON *c, const rf_layer_key_t *key,
                      const rf_prop_t *p);

/* scene-timeline.c */
void scene_parse_canvas(loader_t *L, const cJSON *obj);
void scene_parse_background(loader_t *L);
void scene_parse_timeline(loader_t *L, const cJSON *obj);
void scene_parse_checks(loader_t *L, const cJSON *obj);
void scene_resolve_checks(loader_t *L);
int scene_set_frames(loader_t *L, double duration);

/* scene-build.c */
int scene_sort_values(loader_t *L);
int scene_build_values(loader_t *L);
void scene_resolve_auto(loader_t *L);

/* scene-motion.c */
void scene_parse_reduced_motion(loader_t *L, const cJSON *obj);
int scene_reduce_scale(loader_t *L, vsrc_t *s);
int scene_reduce_snap(loader_t *L, vsrc_t *s, const rf_track_t *orig);
void scene_parse_motion_scheme(loader_t *L, const cJSON *it);
int scene_sampled_easing(loader_t *L, const cJSON *it, const char *key, rf_easing_t *out);
void scene_sampled_context(loader_t *L, const rf_easing_t *e, double origin, double target,
                           double duration);
int scene_sampled_is_motion(loader_t *L, const rf_easing_t *e);
typedef struct sampled_prep {
    loader_t *L;
    double tscale;             /* the reduced-motion scale of the value, else 1 */
} sampled_prep_t;
void scene_sampled_prep(void *ctx, rf_anim_spec_t *sp);

/* ---- the loader's tables, as the schema reads them (scene-schema.c) ----
 * Each is the very array the loader scans a JSON object with (or picks a
 * word from), so `runeframe schema` lists what the loader accepts. */
typedef struct scene_names {
    const char *const *names;
    size_t n;
    const char *required;      /* the names the loader needs, space-separated, or NULL */
} scene_names_t;
#define SCENE_NAMES(a, req) { (a), NELEM(a), (req) }
/* 1 when name is a word of the space-separated list req (NULL: none). */
int scene_names_needs(const char *req, const char *name);
extern const scene_names_t scene_top_names;           /* scene.c */
extern const scene_names_t scene_canvas_names;        /* scene-timeline.c */
extern const scene_names_t scene_timeline_names;
extern const scene_names_t scene_checks_names;
extern const scene_names_t scene_kind_names;          /* scene-value.c: value kinds */
extern const scene_names_t scene_value_extra_names;   /* other keys of a value object */
extern const scene_names_t scene_policy_names;        /* a duration policy's keys */
extern const scene_names_t scene_repeat_mode_names;
extern const scene_names_t scene_interp_names;
extern const scene_names_t scene_sample_names;        /* sample_path's keys */
extern const scene_names_t scene_entry_names;         /* a sequence entry's own keys */
/* The keys of the kind kind_keys[k] (scene_kind_names.names[k]); n == 0
 * for a kind that is not an animated one. */
scene_names_t scene_kind_body_names(size_t k);
extern const scene_names_t scene_rm_names;            /* scene-motion.c */
extern const scene_names_t scene_rm_policy_names;
extern const scene_names_t scene_scheme_names;
extern const scene_names_t scene_scheme_spring_names;
extern const scene_names_t scene_sampled_names;
extern const scene_names_t scene_color_kind_names;    /* scene-layer.c */
extern const scene_names_t scene_linear_names;
extern const scene_names_t scene_radial_names;
extern const scene_names_t scene_mix_names;
extern const scene_names_t scene_mask_names;
extern const scene_names_t scene_shadow_names;
extern const scene_names_t scene_glyph_names;         /* scene-text.c */
extern const scene_names_t scene_glyph_order_names;
extern const scene_names_t scene_morph_names;         /* scene-ref.c */
extern const scene_names_t scene_story_step_names;    /* scene-story.c: a storyboard step */
extern const scene_names_t scene_story_trans_names;   /* the kinds a transition may be */

/* scene-story.c: `states`, `transitions` and `storyboard`, after `values`
 * (their names become named values); messages at the synthesized values'
 * pointers ("#s/...") go to the user's keys through scene_story_ptr(). */
void scene_parse_story(loader_t *L, const cJSON *states, const cJSON *transitions,
                       const cJSON *storyboard);
const char *scene_story_ptr(const loader_t *L, const char *ptr, char *buf, size_t cap);
int scene_story_finish(loader_t *L);
void scene_story_free(loader_t *L);

/* scene-vec.c */
int scene_value_output(const loader_t *L, long vi, int comp, const char *name, const char *field,
                       char *msg, size_t cap, int *out);
void scene_vec_begin(vecspec_t *vx, rf_value_kind_t kind);
int scene_vec_color_string(const loader_t *L, const cJSON *it);
int scene_vec_field(loader_t *L, const cJSON *it, const char *key, int required, vecspec_t *vx,
                    int field, double *out);
int scene_vec_key(loader_t *L, const cJSON *it, vecspec_t *vx, uint32_t i, uint32_t nkeys,
                  double *out);
int scene_vec_expand(loader_t *L, size_t vi, rf_anim_spec_t **pspecs, vecspec_t *vxs, uint32_t n,
                     const char *const *kinds);
int scene_color_value(loader_t *L, const char *s, const char *key, uint32_t *slot);
int scene_color_inline(loader_t *L, const cJSON *obj, uint32_t *slot);
int scene_build_vec(loader_t *L, vsrc_t *s, const rf_value_t *vals, rf_value_t *v);

#endif
