/* layer-group.c - the group layer: children drawn in their own coordinates
 * under the group's transform (x, y translate; rotate and scale turn around
 * the pivot, or the anchor point of the children's union box at t = 0),
 * through one intermediate surface when its opacity is below 1; its box is
 * the union of its children's (scene-v1.md "Layers"). It has no
 * hooks: the renderer's walks treat every RF_CLASS_CHILDREN type alike. */
#include <math.h>

#include "layer.h"

static const rf_layer_key_t group_keys[] = {
    { "children", RF_KEY_CHILDREN, RF_KEY_REQUIRED, RF_KEY_AT(u.group.children),
      RF_KEY_AT(u.group.nchildren), 0, 0, NULL },
    /* NaN: not given (the anchor point of the children's box at t = 0) */
    { "pivot", RF_KEY_PAIR, RF_KEY_OWN, RF_KEY_AT(u.group.pivot_x), RF_KEY_AT(u.group.pivot_y),
      NAN, NAN, "[px, py]" },
    { "clip", RF_KEY_SHAPE, 0, RF_KEY_AT(u.group.clip), 0, 0, 0, NULL },
    { "mask", RF_KEY_MASK, 0, RF_KEY_AT(u.group.mask), RF_KEY_AT(u.group.mask_mode), 0, 0, NULL },
};

const rf_layer_class_t rf_layer_class_group = {
    "group", group_keys, RF_NELEM(group_keys), RF_CLASS_CHILDREN,
    "a group needs children: an array of layers",
    .box = NULL, /* the union of its children's boxes: every hook is the renderer's */
};
