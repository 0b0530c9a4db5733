/* layer.h - the drawable model of a scene: layers, paints, properties, and
 * the layer-type table that says what each type of layer is.
 *
 * Owns: rf_layer_t and the types it is built from, and rf_layer_classes[],
 * one row (rf_layer_class_t) per layer type. The scene loader builds the
 * layer tree once, in the scene's arena, from `layers` (scene-v1.md
 * "Layers"); the renderer only reads it. Every numeric property is an
 * rf_prop_t: a constant, or an output slot of the value set, so drawing a
 * frame is: evaluate the values at t into a slot array (values.h), then walk
 * the tree reading properties from that array. Nothing here allocates; the
 * table is constant, so any number of threads may read it and any number of
 * renderers may read one tree at the same time.
 *
 * HOW TO ADD A LAYER TYPE (the way Lua's lopcodes.h says how to add an
 * opcode):
 *   1. Add RF_LAYER_NAME to rf_layer_type_t (before RF_LAYER_NTYPES) and,
 *      when it has properties of its own, a struct for them to the union
 *      in rf_layer_t.
 *   2. Write src/layer-NAME.c: its keys, one rf_layer_key_t row each (name,
 *      kind, flags, default, where it lives: RF_KEY_AT(u.NAME.field)), and
 *      its hooks (below), and define `const rf_layer_class_t
 *      rf_layer_class_NAME`. Declare it at the end of this file, add it to
 *      rf_layer_classes[] in layer.c, and the file to Makefile.am.
 *   3. Document the keys in man/runeframe-scene.5, add a scene and goldens.
 * Nothing else changes: the loader validates, defaults, suggests and fixes
 * up slots from the key rows (rf_layer_each_prop), and the renderer lays
 * out, draws, tests for the static prefix and chains groups through the
 * hooks and the same visitor.
 *
 * The hooks, in the order the renderer calls them (shape.h has the types
 * they draw with; a hook may be NULL where said):
 *   ops_max(L)      once, at renderer creation: how many path ops the
 *                   shape can need per frame (NULL: none).
 *   box(L, s, b)    every frame, layout walk: the layer's own box
 *                   [x0, y0, x1, y1] in its own coordinates from the slot
 *                   array s; NaN in b[0] when it cannot be drawn. NULL for
 *                   a type with RF_CLASS_CHILDREN: its box is the union of
 *                   its children's.
 *   shape(sh)       every frame the layer is drawn: this frame's geometry
 *                   into sh (rf_shape_t, which also holds the layer, the
 *                   slots and the device matrix); 0 when it draws nothing.
 *   path(cr, sh)    builds the geometry as a cairo path under the layer's
 *                   device matrix (the current matrix).
 *   huge_path(g, sh) the same path in device coordinates through the
 *                   double-precision sink (shape.h), for shapes too large
 *                   for cairo's fixed-point coordinates.
 *   state_create(r, L) once per renderer (NULL: none): the caches a type
 *                   keeps for L in that renderer (so per thread); NULL
 *                   return is out of memory. state_destroy(state) frees
 *                   them with the renderer. The hooks reach the state
 *                   through rf_shape_t.state and rf_render_state().
 *                   (A RF_CLASS_CHILDREN type gets its state too.)
 *   layout(r, L, state, b) when non-NULL, replaces box: a box that needs
 *                   the state (text: the layout of this frame's string).
 *   draw(r, L, idx, m, op) every frame the layer is drawn, with its device
 *                   matrix m and opacity op: rf_render_shape (shape.h) for
 *                   every type that is a path (it calls the three hooks
 *                   above, then fills, unless RF_CLASS_NO_FILL, and strokes
 *                   with the layer's paints); a type that paints otherwise
 *                   (an image) brings its own. NULL for RF_CLASS_CHILDREN:
 *                   the renderer draws the children, through an
 *                   intermediate group when the opacity is below 1.
 */
#ifndef RF_LAYER_H
#define RF_LAYER_H

#include <stddef.h>
#include <stdint.h>

struct rf_path;
/* cairo's context and matrix, declared by their tags so that this header
 * needs no cairo compiler flags (the loader's users include it). */
struct _cairo;
struct _cairo_matrix;
struct rf_shape;
struct rf_hsink;
struct rf_renderer;
struct rf_font;
struct rf_image;

/* A numeric property: slot == RF_PROP_CONST means the constant k. */
#define RF_PROP_CONST UINT32_MAX
typedef struct rf_prop {
    uint32_t slot;
    double k;
} rf_prop_t;

/* Reads a property from the frame's slot array. */
static inline double rf_prop_get(const rf_prop_t *p, const double *slots)
{
    return p->slot == RF_PROP_CONST ? p->k : slots[p->slot];
}

/* Straight (not premultiplied) color, channels in [0, 1]. */
typedef struct rf_color {
    double r, g, b, a;
} rf_color_t;

/* A color that may be a color value (scene-v1.md "Vector and color
 * values": a color value is used wherever a color is): slot ==
 * RF_PROP_CONST means the constant k; otherwise the four slots from slot
 * on hold straight r, g, b, a, each clamped to [0, 1] when read. */
typedef struct rf_colorp {
    uint32_t slot;
    rf_color_t k;
} rf_colorp_t;

static inline double rf_clamp01(double v)
{
    return v > 0 ? (v < 1 ? v : 1) : 0;   /* NaN -> 0 */
}

/* Reads a color property from the frame's slot array. */
static inline rf_color_t rf_colorp_get(const rf_colorp_t *c, const double *slots)
{
    if (c->slot == RF_PROP_CONST)
        return c->k;
    const double *v = slots + c->slot;
    rf_color_t o = { rf_clamp01(v[0]), rf_clamp01(v[1]), rf_clamp01(v[2]), rf_clamp01(v[3]) };
    return o;
}

typedef struct rf_gradient_stop {
    double offset;        /* [0, 1], non-decreasing */
    rf_colorp_t color;
} rf_gradient_stop_t;

typedef enum rf_paint_kind {
    RF_PAINT_NONE = 0,    /* not drawn */
    RF_PAINT_SOLID,       /* color */
    RF_PAINT_MIX,         /* ends[0] to ends[1] by clamp(by, 0, 1) in space (rf_color_mix) */
    RF_PAINT_LINEAR,      /* gradient from p0 to p1 in the layer's own coordinates */
    RF_PAINT_RADIAL,      /* gradient around p0 with radius */
    RF_PAINT_VALUE,       /* a color value: straight r, g, b, a in the four slots
                           * from by.slot on, each clamped to [0, 1] */
} rf_paint_kind_t;

typedef struct rf_paint {
    uint8_t kind;                  /* rf_paint_kind_t */
    uint8_t space;                 /* MIX: rf_color_space_t (color.h), 0 = srgb */
    rf_color_t color;              /* SOLID */
    rf_colorp_t ends[2];           /* MIX: its two colors, either a color value */
    rf_prop_t by;                  /* MIX; VALUE: its slot is the color's first */
    rf_prop_t p0[2], p1[2];        /* LINEAR from/to; RADIAL center in p0 */
    rf_prop_t radius;              /* RADIAL */
    const rf_gradient_stop_t *stops; /* LINEAR, RADIAL: nstops >= 1 */
    uint32_t nstops;
} rf_paint_t;

/* In rf_layer_classes[] order. */
typedef enum rf_layer_type {
    RF_LAYER_RECT = 0,
    RF_LAYER_CIRCLE,
    RF_LAYER_ELLIPSE,
    RF_LAYER_LINE,
    RF_LAYER_PATH,
    RF_LAYER_GROUP,
    RF_LAYER_TEXT,
    RF_LAYER_IMAGE,
    RF_LAYER_INSTANCES,
    RF_LAYER_NTYPES
} rf_layer_type_t;

typedef struct rf_layer rf_layer_t;

/* One drop shadow (`shadow`, scene-v1.md "Compositing"): the layer's alpha
 * in color, offset by x, y device px, blurred by a Gaussian of standard
 * deviation blur / 2. */
typedef struct rf_shadow {
    rf_prop_t x, y, blur;
    rf_colorp_t color;
} rf_shadow_t;

/* ---- text (layer-text.c; scene-v1.md "Text") ---- */

/* One piece of a text template: literal bytes, or a value formatted
 * (template.h). */
typedef struct rf_text_piece {
    const char *lit;            /* literal UTF-8 (slot == RF_PROP_CONST) */
    uint32_t len;
    uint32_t slot;              /* a value's output slot, or RF_PROP_CONST */
    uint8_t fmt_kind, fmt_decimals, fmt_commas, fmt_percent; /* rf_fmt_t */
} rf_text_piece_t;

typedef struct rf_text_content {
    const rf_text_piece_t *pieces;
    uint32_t npieces;
    uint32_t maxlen;            /* bytes the formatted text can take, NUL excluded */
} rf_text_content_t;

/* An OpenType feature over the whole text: "tnum" (value 1), "-liga" (0). */
typedef struct rf_text_feature {
    uint32_t tag;
    uint32_t value;
} rf_text_feature_t;

typedef struct rf_text_features {
    const rf_text_feature_t *items;
    uint32_t n;
} rf_text_features_t;

/* A variable-font axis setting: "wght": 650, animatable. */
typedef struct rf_text_var {
    uint32_t tag;
    rf_prop_t v;
} rf_text_var_t;

typedef struct rf_text_vars {
    rf_text_var_t *items;
    uint32_t n;
} rf_text_vars_t;

typedef enum rf_glyph_order {
    RF_ORDER_FORWARD = 0, RF_ORDER_REVERSE, RF_ORDER_CENTER, RF_ORDER_EDGES
} rf_glyph_order_t;

/* per_glyph: each glyph's own motion, its values evaluated at
 * t - rank * stagger. */
typedef struct rf_per_glyph {
    double stagger;             /* seconds >= 0 */
    uint8_t order;              /* rf_glyph_order_t */
    rf_prop_t x, y, rotate, scale, opacity;
} rf_per_glyph_t;

/* A path layer's geometry (scene-v1.md "Paths, complete"): path alone, or
 * a morph from path to path2 (the same structure, rf_path_mismatch) by
 * clamp(by, 0, 1) when path2 is not NULL. */
typedef struct rf_path_ref {
    const struct rf_path *path, *path2;
    rf_prop_t by;
} rf_path_ref_t;

/* fill_rule (path layers): how a fill treats overlapping figures. */
typedef enum rf_fill_rule { RF_FILL_NONZERO = 0, RF_FILL_EVENODD } rf_fill_rule_t;

/* The stroke style (scene-v1.md "Strokes"), in the words' order of the
 * line_cap and line_join rows ("butt|round|square", "miter|round|bevel"). */
typedef enum rf_line_cap { RF_CAP_BUTT = 0, RF_CAP_ROUND, RF_CAP_SQUARE } rf_line_cap_t;
typedef enum rf_line_join { RF_JOIN_MITER = 0, RF_JOIN_ROUND, RF_JOIN_BEVEL } rf_line_join_t;
/* The most entries of a `dash` array (a longer one is a load error). */
#define RF_DASH_MAX 64
/* miter_limit: the contract's default, and the largest drawn (a constant
 * above it is a load error, an animated one is clamped): it bounds how far
 * a stroke reaches past its path, so the renderer's extents. */
#define RF_MITER_DEFAULT 10.0
#define RF_MITER_MAX 100.0

/* An image layer's `fit` and `smoothing` (scene-v1.md "Images"), in the
 * words' order of their key rows. */
typedef enum rf_image_fit { RF_FIT_FILL = 0, RF_FIT_CONTAIN, RF_FIT_COVER } rf_image_fit_t;
typedef enum rf_image_smoothing {
    RF_SMOOTH_LINEAR = 0, RF_SMOOTH_NEAREST, RF_SMOOTH_BEST
} rf_image_smoothing_t;

typedef enum rf_text_align { RF_ALIGN_LEFT = 0, RF_ALIGN_CENTER, RF_ALIGN_RIGHT } rf_text_align_t;

/* `blend` (scene-v1.md "Compositing"): CSS mix-blend-mode names, in
 * rf_blend_names[] order; the renderer maps them to cairo's operators. */
typedef enum rf_blend {
    RF_BLEND_NORMAL = 0,
    RF_BLEND_MULTIPLY, RF_BLEND_SCREEN, RF_BLEND_OVERLAY, RF_BLEND_DARKEN,
    RF_BLEND_LIGHTEN, RF_BLEND_COLOR_DODGE, RF_BLEND_COLOR_BURN, RF_BLEND_HARD_LIGHT,
    RF_BLEND_SOFT_LIGHT, RF_BLEND_DIFFERENCE, RF_BLEND_EXCLUSION, RF_BLEND_HUE,
    RF_BLEND_SATURATION, RF_BLEND_COLOR, RF_BLEND_LUMINOSITY,
    RF_BLEND_N
} rf_blend_t;
extern const char *const rf_blend_names[RF_BLEND_N];

/* A group's `mask` mode (scene-v1.md "Compositing"), in rf_mask_mode_names[]
 * order: what of the mask layer's pixels multiplies the children's. */
typedef enum rf_mask_mode {
    RF_MASK_ALPHA = 0,          /* its alpha */
    RF_MASK_LUMINANCE,          /* its luminance times its alpha */
    RF_MASK_ALPHA_INVERTED,     /* 1 - alpha */
    RF_MASK_LUMINANCE_INVERTED, /* 1 - luminance times alpha */
    RF_MASK_N
} rf_mask_mode_t;
extern const char *const rf_mask_mode_names[RF_MASK_N];

struct rf_layer {
    uint8_t type;               /* rf_layer_type_t */
    uint8_t orient;             /* nonzero: add the follow sample's angle to rotate */
    const char *id;             /* optional name, NULL when absent */
    /* transform: the anchor point of the shape's own box is placed at
     * (x, y) + follow; rotate (degrees) and scale turn around it */
    rf_prop_t x, y, rotate, scale_x, scale_y, anchor_x, anchor_y;
    rf_prop_t opacity;          /* clamped to [0, 1] when drawn */
    rf_prop_t stroke_width;
    rf_paint_t fill, stroke;
    /* the stroke style (render-stroke.c draws it) */
    uint8_t line_cap;           /* rf_line_cap_t */
    uint8_t line_join;          /* rf_line_join_t */
    uint8_t fill_rule;          /* rf_fill_rule_t: a key of path layers only,
                                 * nonzero for every other shape */
    rf_prop_t miter_limit;      /* >= 1, RF_MITER_DEFAULT */
    const rf_prop_t *dash;      /* on, off, ... lengths (px); NULL: solid */
    uint32_t ndash;             /* <= RF_DASH_MAX */
    rf_prop_t dash_offset;      /* px into the pattern where it starts */
    uint32_t follow_slot;       /* first slot (x; y and angle follow) of a
                                 * sample_path value, RF_PROP_CONST when none */
    rf_prop_t blur;             /* Gaussian standard deviation (px), 0: none */
    const rf_shadow_t *shadows; /* drawn beneath the layer, the first on top */
    uint32_t nshadows;
    uint8_t blend;              /* rf_blend_t */
    uint8_t pixel_snap;         /* nonzero: the device translation is rounded */
    union {
        struct { rf_prop_t width, height, radius; } rect;
        struct { rf_prop_t r; } circle;
        struct { rf_prop_t rx, ry; } ellipse;
        struct { rf_prop_t x1, y1, x2, y2; } line;
        struct { rf_path_ref_t src; rf_prop_t trim0, trim1; } path;
        /* pivot: NaN (the default) when not given: the anchor point of
         * the children's union box at t = 0 (render.c) */
        struct { const rf_layer_t *children; uint32_t nchildren;
                 rf_prop_t pivot_x, pivot_y;
                 const rf_layer_t *clip; /* a shape layer, NULL when none */
                 const rf_layer_t *mask; /* any layer, NULL when none */
                 uint8_t mask_mode;      /* rf_mask_mode_t */ } group;
        struct {
            rf_text_content_t content;
            const struct rf_font *font;
            rf_prop_t size, letter_spacing, line_height, width, reveal;
            uint8_t align;              /* rf_text_align_t */
            rf_text_features_t features;
            rf_text_vars_t variations;
            rf_per_glyph_t *per_glyph;  /* NULL: the text moves as one */
        } text;
        /* width, height: NaN when not given (the image's own size, or
         * the aspect ratio kept from the other one) */
        struct {
            const struct rf_image *img;
            rf_prop_t width, height;
            uint8_t fit;                /* rf_image_fit_t */
            uint8_t smoothing;          /* rf_image_smoothing_t */
        } image;
        /* instances (layer-instances.c): the one layer (children[0]) drawn
         * count times, instance i with every value at t - i * stagger */
        struct {
            const rf_layer_t *children;
            uint32_t nchildren;         /* 1 */
            uint32_t count;             /* >= 1 */
            double stagger;             /* seconds, [0, RF_STAGGER_MAX] */
        } inst;
    } u;
};

/* ---- the key rows ---- */

/* What a key holds, and so how the loader reads it. */
typedef enum rf_key_kind {
    RF_KEY_TYPE = 0,   /* "type": read first by the loader */
    RF_KEY_NUMBER,     /* rf_prop_t: a number, a value name or an inline value */
    RF_KEY_DASH,       /* const rf_prop_t * + uint32_t count (at2): [on, off,
                        * ...], each a NUMBER >= 0 (scene-stroke.c) */
    RF_KEY_PAIR,       /* two rf_prop_t, at and at2: [a, b] */
    RF_KEY_SCALE,      /* two rf_prop_t: a number (both) or [sx, sy] */
    RF_KEY_PAINT,      /* rf_paint_t: a color, "none", a mix or a gradient */
    RF_KEY_STRING,     /* const char *, copied into the scene's arena */
    RF_KEY_BOOL,       /* uint8_t: true or false */
    RF_KEY_FOLLOW,     /* uint32_t slot: the name of a sample_path value */
    RF_KEY_PATH,       /* rf_path_ref_t: a name in `paths`, path data, or a
                        * morph {"mix": [A, B], "by": NUMBER} of two of them */
    RF_KEY_CHILDREN,   /* const rf_layer_t *children + uint32_t count (at2) */
    RF_KEY_TEXT,       /* rf_text_content_t: a template (template.h) */
    RF_KEY_FONT,       /* const struct rf_font *: a name in `fonts` or a built-in */
    RF_KEY_CHOICE,     /* uint8_t: the index of a word in shape, "left|center|right" */
    RF_KEY_FEATURES,   /* rf_text_features_t: ["tnum", "-liga"] */
    RF_KEY_VARIATIONS, /* rf_text_vars_t: {"wght": 650} */
    RF_KEY_PER_GLYPH,  /* rf_per_glyph_t *: {"stagger": 0.03, "y": "rise", ...} */
    RF_KEY_BLEND,      /* uint8_t rf_blend_t: one of rf_blend_names */
    RF_KEY_SHADOW,     /* const rf_shadow_t * + uint32_t count (at2): one
                        * shadow object or an array of them */
    RF_KEY_SHAPE,      /* const rf_layer_t *: one rect, circle, ellipse or path
                        * layer (a clip); its slots are visited with L's */
    RF_KEY_MASK,       /* const rf_layer_t * + uint8_t rf_mask_mode_t (at2):
                        * {"layer": LAYER, "mode": "alpha"}; the slots of the
                        * layer and of its children are visited with L's */
    RF_KEY_IMAGE,      /* const struct rf_image *: an image file (image.h),
                        * read and decoded at load (scene-image.c) */
    RF_KEY_COUNT,      /* uint32_t: a whole number >= 1, constant; each one
                        * counts as an item (scene.h RF_MAX_ITEMS) */
    RF_KEY_SECONDS,    /* double: a constant number of seconds in [0, def2] */
} rf_key_kind_t;

enum {
    RF_KEY_REQUIRED = 1 << 0, /* the layer needs it (the loader names it) */
    RF_KEY_NONNEG = 1 << 1,   /* a constant must be >= 0 (a size) */
    RF_KEY_DRAWN = 1 << 2,    /* fill, stroke, stroke_width: what a layer
                               * draws itself (see RF_CLASS_*) */
    RF_KEY_OWN = 1 << 3,      /* a common key that places the layer itself
                               * (transform, opacity, follow): what a group
                               * must keep constant to be chained (render) */
    RF_KEY_MIN1 = 1 << 4,     /* a constant must be >= 1 (miter_limit) and
                               * at most def2 */
    RF_KEY_ONE = 1 << 5,      /* CHILDREN: one layer object, not an array
                               * (instances' `layer`); the count is 1 */
};

/* The longest `stagger` of instances (s): the longest timeline (10,000,000
 * frames at 1 fps), so that every shifted time stays a whole-frame-exact
 * double (scene-v1.md "Limits"). */
#define RF_STAGGER_MAX 1e7

typedef struct rf_layer_key {
    const char *name;
    uint8_t kind;              /* rf_key_kind_t */
    uint8_t flags;             /* RF_KEY_* */
    uint16_t at, at2;          /* offsets in rf_layer_t (RF_KEY_AT) */
    double def, def2;          /* defaults of NUMBER, PAIR, SCALE; a MIN1
                                  NUMBER's largest in def2 */
    const char *shape;         /* PAIR, SCALE: "[ax, ay]" for messages;
                                  CHOICE: the words, "left|center|right" */
} rf_layer_key_t;

#define RF_KEY_AT(member) ((uint16_t)offsetof(rf_layer_t, member))
/* The number of rows of a key array. */
#define RF_NELEM(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* The most keys one layer may have: the common ones plus its type's
 * (tests/check_layer.c holds every row to it). */
#define RF_LAYER_MAX_KEYS 40

/* ---- the type rows ---- */

enum {
    RF_CLASS_CANVAS = 1 << 0,   /* drawn in canvas coordinates: x, y
                                 * translate it and the anchor is only the
                                 * pivot (line, path) */
    RF_CLASS_NO_FILL = 1 << 1,  /* stroke only: a fill is an error */
    RF_CLASS_CHILDREN = 1 << 2, /* draws children, not paints (group) */
    RF_CLASS_INK = 1 << 3,      /* fill defaults to #000000, not none (text) */
    RF_CLASS_PIXELS = 1 << 4,   /* draws its own pixels, not paints: fill,
                                 * stroke and the stroke style are errors
                                 * (image) */
    RF_CLASS_REPEAT = 1 << 5,   /* with RF_CLASS_CHILDREN: the children are
                                 * laid out and drawn once per instance, each
                                 * time with the slots and time the instance
                                 * hook gives (instances) */
};

/* A row: name, keys, nkeys, flags and needs in that order, then the
 * hooks by name (layer-rect.c is the model). */
typedef struct rf_layer_class {
    const char *name;                  /* "rect" */
    const rf_layer_key_t *keys;        /* its own keys, after the common ones */
    uint32_t nkeys;
    uint32_t flags;                    /* RF_CLASS_* */
    const char *needs;                 /* the end of the missing-key message */
    size_t (*ops_max)(const rf_layer_t *L);
    void (*box)(const rf_layer_t *L, const double *slots, double b[4]);
    int (*shape)(struct rf_shape *sh);
    void (*path)(struct _cairo *cr, const struct rf_shape *sh);
    void (*huge_path)(struct rf_hsink *g, const struct rf_shape *sh);
    /* After shape: up to two rectangles (x0, y0, x1, y1, in the layer's
     * own coordinates, those sh->m maps to the device) every point of which is inside the
     * shape, and their number; a clip of this type leaves a layer drawn
     * wholly inside them alone (render-compose.c "soft clips"). NULL:
     * none known. */
    int (*inner)(const struct rf_shape *sh, double in[2][4]);
    void (*draw)(struct rf_renderer *r, const rf_layer_t *L, uint32_t idx,
                 const struct _cairo_matrix *m, double opacity);
    /* A type whose layout needs caches of its own (text: shaped strings,
     * glyph outlines) keeps them per renderer, so per thread: */
    void *(*state_create)(struct rf_renderer *r, const rf_layer_t *L);
    void (*state_destroy)(void *state);
    void (*layout)(struct rf_renderer *r, const rf_layer_t *L, void *state, double b[4]);
    /* RF_CLASS_REPEAT: instance k of L at base time t (the frame's, or
     * the enclosing instance's): the slot array its subtree is drawn with
     * (the state's, filled here: values.h "time-shifted evaluation") and
     * its time in *tk; NULL when there is no instance k. Never allocates. */
    double *(*instance)(const struct rf_renderer *r, const rf_layer_t *L, void *state,
                        uint32_t k, double t, double *tk);
} rf_layer_class_t;

/* The common keys, in the order messages list them: type, id, x, y,
 * rotate, scale, anchor, opacity, fill, stroke, stroke_width,
 * line_cap, line_join, miter_limit, dash, dash_offset, follow, orient,
 * blur, shadow, blend, pixel_snap. */
extern const rf_layer_key_t rf_layer_common_keys[];
extern const uint32_t rf_layer_ncommon_keys;

/* One row per type, indexed by rf_layer_type_t. */
extern const rf_layer_class_t *const rf_layer_classes[RF_LAYER_NTYPES];

/* The row of L's type. */
static inline const rf_layer_class_t *rf_layer_class(const rf_layer_t *L)
{
    return rf_layer_classes[L->type];
}

/* The type named name, or -1. */
int rf_layer_type_find(const char *name);

/* Sets every property of o to its default (scene-v1.md "Layers") for type
 * (an rf_layer_type_t), before the file's keys. */
void rf_layer_defaults(rf_layer_t *o, int type);

/* Calls fn once for every slot-carrying property of L itself (not its
 * children): every rf_prop_t of its keys, those inside its paints, and the
 * follow slot, with the key it belongs to; stops at the first nonzero
 * return and returns it (0 when every call returned 0). The one list of
 * properties: the loader's slot fix-up and the renderer's static test both
 * walk it. */
typedef int (*rf_layer_slot_fn)(const rf_layer_key_t *key, uint32_t *slot, void *ctx);
int rf_layer_each_slot(rf_layer_t *L, rf_layer_slot_fn fn, void *ctx);

/* L's children (RF_KEY_CHILDREN), *n their count; NULL and 0 for a type
 * without children. */
const rf_layer_t *rf_layer_children(const rf_layer_t *L, uint32_t *n);

/* 1 when no property of L or of its children reads a value (slot). */
int rf_layer_is_static(const rf_layer_t *L);

/* The longest time before t at which drawing L (and its children) at t
 * evaluates values: (count - 1) * stagger for instances (plus their
 * layer's own), stagger times the most glyphs a per_glyph text can have
 * (its template's longest formatted length) less one; 0 when every value
 * is read at t. Frame reuse needs it (frames.c): two frames with the same
 * values at t may still differ at the shifted times. */
double rf_layer_time_shift(const rf_layer_t *L);

/* 1 when every property of L with one of flags (RF_KEY_*) is a constant. */
int rf_layer_keys_static(const rf_layer_t *L, unsigned flags);

/* The rows, one per layer-NAME.c. */
extern const rf_layer_class_t rf_layer_class_rect;
extern const rf_layer_class_t rf_layer_class_circle;
extern const rf_layer_class_t rf_layer_class_ellipse;
extern const rf_layer_class_t rf_layer_class_line;
extern const rf_layer_class_t rf_layer_class_path;
extern const rf_layer_class_t rf_layer_class_group;
extern const rf_layer_class_t rf_layer_class_text;
extern const rf_layer_class_t rf_layer_class_image;
extern const rf_layer_class_t rf_layer_class_instances;

#endif
