/* layer.h - the drawable model of a scene: layers, paints and properties.
 *
 * Owns: rf_layer_t and the types it is built from. The scene loader builds
 * the layer tree once, in the scene's arena, from `layers` (scene-v1.md
 * "Layers"); the renderer only reads it. Every numeric property is an
 * rf_prop_t: a constant, or an output slot of the value set, so drawing a
 * frame is: evaluate the values at t into a slot array (values.h), then walk
 * the tree reading properties from that array. Nothing here allocates.
 */
#ifndef RF_LAYER_H
#define RF_LAYER_H

#include <stdint.h>

struct rf_path;

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

typedef struct rf_gradient_stop {
    double offset;        /* [0, 1], non-decreasing */
    rf_color_t color;
} rf_gradient_stop_t;

typedef enum rf_paint_kind {
    RF_PAINT_NONE = 0,    /* not drawn */
    RF_PAINT_SOLID,       /* color */
    RF_PAINT_MIX,         /* color + (color2 - color) * clamp(by, 0, 1), channel-wise */
    RF_PAINT_LINEAR,      /* gradient from p0 to p1 in the layer's own coordinates */
    RF_PAINT_RADIAL,      /* gradient around p0 with radius */
} rf_paint_kind_t;

typedef struct rf_paint {
    uint8_t kind;                  /* rf_paint_kind_t */
    rf_color_t color, color2;      /* SOLID, MIX */
    rf_prop_t by;                  /* MIX */
    rf_prop_t p0[2], p1[2];        /* LINEAR from/to; RADIAL center in p0 */
    rf_prop_t radius;              /* RADIAL */
    const rf_gradient_stop_t *stops; /* LINEAR, RADIAL: nstops >= 1 */
    uint32_t nstops;
} rf_paint_t;

typedef enum rf_layer_type {
    RF_LAYER_RECT = 0,
    RF_LAYER_CIRCLE,
    RF_LAYER_ELLIPSE,
    RF_LAYER_LINE,
    RF_LAYER_PATH,
    RF_LAYER_GROUP,
} rf_layer_type_t;

typedef struct rf_layer rf_layer_t;

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
    uint32_t follow_slot;       /* first slot (x; y and angle follow) of a
                                 * sample_path value, RF_PROP_CONST when none */
    union {
        struct { rf_prop_t width, height, radius; } rect;
        struct { rf_prop_t r; } circle;
        struct { rf_prop_t rx, ry; } ellipse;
        struct { rf_prop_t x1, y1, x2, y2; } line;
        struct { const struct rf_path *path; rf_prop_t trim0, trim1; } path;
        struct { const rf_layer_t *children; uint32_t nchildren; } group;
    } u;
};

#endif
