/* layer-group.c - the group layer: children drawn under the group's
 * transform, through one intermediate surface when its opacity is below 1;
 * its box is the union of its children's (scene-v1.md "Layers"). It has no
 * hooks: the renderer's walks treat every RF_CLASS_CHILDREN type alike. */
#include "layer.h"

static const rf_layer_key_t group_keys[] = {
    { "children", RF_KEY_CHILDREN, RF_KEY_REQUIRED, RF_KEY_AT(u.group.children),
      RF_KEY_AT(u.group.nchildren), 0, 0, NULL },
};

const rf_layer_class_t rf_layer_class_group = {
    "group", group_keys, RF_NELEM(group_keys), RF_CLASS_CHILDREN,
    "a group needs children: an array of layers",
    .box = NULL, /* the union of its children's boxes: every hook is the renderer's */
};
