/* layer.c - the layer-type table: the common keys, one row per type, and
 * what the loader and the renderer do with every row (defaults, the slot
 * visitor, children, the static test). The rows of each type live in
 * layer-NAME.c; layer.h says how to add one. */
#include "layer.h"

#include <stdint.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* In the order the unknown-key message lists them (scene-v1.md "Layers"). */
const rf_layer_key_t rf_layer_common_keys[] = {
    { "type", RF_KEY_TYPE, 0, 0, 0, 0, 0, NULL },
    { "id", RF_KEY_STRING, 0, RF_KEY_AT(id), 0, 0, 0, NULL },
    { "x", RF_KEY_NUMBER, RF_KEY_OWN, RF_KEY_AT(x), 0, 0, 0, NULL },
    { "y", RF_KEY_NUMBER, RF_KEY_OWN, RF_KEY_AT(y), 0, 0, 0, NULL },
    { "rotate", RF_KEY_NUMBER, RF_KEY_OWN, RF_KEY_AT(rotate), 0, 0, 0, NULL },
    { "scale", RF_KEY_SCALE, RF_KEY_OWN, RF_KEY_AT(scale_x), RF_KEY_AT(scale_y), 1, 1,
      "[sx, sy]" },
    { "anchor", RF_KEY_PAIR, RF_KEY_OWN, RF_KEY_AT(anchor_x), RF_KEY_AT(anchor_y), 0.5, 0.5,
      "[ax, ay]" },
    { "opacity", RF_KEY_NUMBER, RF_KEY_OWN, RF_KEY_AT(opacity), 0, 1, 0, NULL },
    { "fill", RF_KEY_PAINT, RF_KEY_DRAWN, RF_KEY_AT(fill), 0, 0, 0, NULL },
    { "stroke", RF_KEY_PAINT, RF_KEY_DRAWN, RF_KEY_AT(stroke), 0, 0, 0, NULL },
    { "stroke_width", RF_KEY_NUMBER, RF_KEY_DRAWN | RF_KEY_NONNEG, RF_KEY_AT(stroke_width), 0,
      1, 0, NULL },
    { "line_cap", RF_KEY_CHOICE, RF_KEY_DRAWN, RF_KEY_AT(line_cap), 0, 0, 0,
      "butt|round|square" },
    { "line_join", RF_KEY_CHOICE, RF_KEY_DRAWN, RF_KEY_AT(line_join), 0, 0, 0,
      "miter|round|bevel" },
    { "miter_limit", RF_KEY_NUMBER, RF_KEY_DRAWN | RF_KEY_MIN1, RF_KEY_AT(miter_limit), 0,
      RF_MITER_DEFAULT, RF_MITER_MAX, NULL },
    { "dash", RF_KEY_DASH, RF_KEY_DRAWN, RF_KEY_AT(dash), RF_KEY_AT(ndash), 0, 0, NULL },
    { "dash_offset", RF_KEY_NUMBER, RF_KEY_DRAWN, RF_KEY_AT(dash_offset), 0, 0, 0, NULL },
    { "follow", RF_KEY_FOLLOW, RF_KEY_OWN, RF_KEY_AT(follow_slot), 0, 0, 0, NULL },
    { "orient", RF_KEY_BOOL, 0, RF_KEY_AT(orient), 0, 0, 0, NULL },
    { "blur", RF_KEY_NUMBER, RF_KEY_NONNEG, RF_KEY_AT(blur), 0, 0, 0, NULL },
    { "shadow", RF_KEY_SHADOW, 0, RF_KEY_AT(shadows), RF_KEY_AT(nshadows), 0, 0, NULL },
    { "blend", RF_KEY_BLEND, 0, RF_KEY_AT(blend), 0, 0, 0, NULL },
    { "pixel_snap", RF_KEY_BOOL, 0, RF_KEY_AT(pixel_snap), 0, 0, 0, NULL },
};

const char *const rf_blend_names[RF_BLEND_N] = {
    "normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge",
    "color-burn", "hard-light", "soft-light", "difference", "exclusion", "hue",
    "saturation", "color", "luminosity",
};
const char *const rf_mask_mode_names[RF_MASK_N] = {
    "alpha", "luminance", "alpha-inverted", "luminance-inverted",
};
const uint32_t rf_layer_ncommon_keys = NELEM(rf_layer_common_keys);

/* One line per type, in rf_layer_type_t order. */
const rf_layer_class_t *const rf_layer_classes[RF_LAYER_NTYPES] = {
    [RF_LAYER_RECT] = &rf_layer_class_rect,
    [RF_LAYER_CIRCLE] = &rf_layer_class_circle,
    [RF_LAYER_ELLIPSE] = &rf_layer_class_ellipse,
    [RF_LAYER_LINE] = &rf_layer_class_line,
    [RF_LAYER_PATH] = &rf_layer_class_path,
    [RF_LAYER_GROUP] = &rf_layer_class_group,
    [RF_LAYER_TEXT] = &rf_layer_class_text,
    [RF_LAYER_IMAGE] = &rf_layer_class_image,
    [RF_LAYER_INSTANCES] = &rf_layer_class_instances,
};

int rf_layer_type_find(const char *name)
{
    for (int t = 0; t < RF_LAYER_NTYPES; t++)
        if (strcmp(rf_layer_classes[t]->name, name) == 0)
            return t;
    return -1;
}

static rf_prop_t konst(double k)
{
    rf_prop_t p = { RF_PROP_CONST, k };
    return p;
}

static void *field(rf_layer_t *L, uint16_t at)
{
    return (char *)L + at;
}

static void key_default(rf_layer_t *o, const rf_layer_key_t *k)
{
    switch (k->kind) {
    case RF_KEY_NUMBER:
        *(rf_prop_t *)field(o, k->at) = konst(k->def);
        break;
    case RF_KEY_PAIR:
    case RF_KEY_SCALE:
        *(rf_prop_t *)field(o, k->at) = konst(k->def);
        *(rf_prop_t *)field(o, k->at2) = konst(k->def2);
        break;
    case RF_KEY_PAINT: {
        rf_paint_t *p = field(o, k->at);
        memset(p, 0, sizeof *p);
        p->kind = RF_PAINT_NONE;
        p->by = konst(0);
        p->p0[0] = p->p0[1] = p->p1[0] = p->p1[1] = konst(0);
        p->radius = konst(0);
        break;
    }
    case RF_KEY_FOLLOW:
        *(uint32_t *)field(o, k->at) = RF_PROP_CONST;
        break;
    case RF_KEY_PATH:
        ((rf_path_ref_t *)field(o, k->at))->by = konst(0);
        break;
    case RF_KEY_COUNT:
        *(uint32_t *)field(o, k->at) = (uint32_t)k->def;
        break;
    case RF_KEY_SECONDS:
        *(double *)field(o, k->at) = k->def;
        break;
    default:
        break;                 /* strings, bools, paths, children: zero */
    }
}

void rf_layer_defaults(rf_layer_t *o, int type)
{
    memset(o, 0, sizeof *o);
    o->type = (uint8_t)(type >= 0 ? type : RF_LAYER_RECT);
    const rf_layer_class_t *c = rf_layer_class(o);
    for (uint32_t i = 0; i < rf_layer_ncommon_keys; i++)
        key_default(o, &rf_layer_common_keys[i]);
    for (uint32_t i = 0; i < c->nkeys; i++)
        key_default(o, &c->keys[i]);
    if (c->flags & RF_CLASS_INK) {
        o->fill.kind = RF_PAINT_SOLID;
        o->fill.color.a = 1;   /* black */
    }
}

static int each_slot_tree(rf_layer_t *L, rf_layer_slot_fn fn, void *ctx);

static int key_each_slot(rf_layer_t *L, const rf_layer_key_t *k, rf_layer_slot_fn fn,
                         void *ctx)
{
    int r = 0;
    switch (k->kind) {
    case RF_KEY_NUMBER:
        return fn(k, &((rf_prop_t *)field(L, k->at))->slot, ctx);
    case RF_KEY_PAIR:
    case RF_KEY_SCALE:
        if ((r = fn(k, &((rf_prop_t *)field(L, k->at))->slot, ctx)) != 0)
            return r;
        return fn(k, &((rf_prop_t *)field(L, k->at2))->slot, ctx);
    case RF_KEY_PAINT: {
        rf_paint_t *p = field(L, k->at);
        uint32_t *const s[] = { &p->by.slot, &p->p0[0].slot, &p->p0[1].slot, &p->p1[0].slot,
                                &p->p1[1].slot, &p->radius.slot };
        for (size_t i = 0; i < NELEM(s) && r == 0; i++)
            r = fn(k, s[i], ctx);
        return r;
    }
    case RF_KEY_FOLLOW:
        return fn(k, (uint32_t *)field(L, k->at), ctx);
    case RF_KEY_PATH:
        return fn(k, &((rf_path_ref_t *)field(L, k->at))->by.slot, ctx);
    case RF_KEY_DASH: {
        /* the entries were allocated writable by the loader */
        rf_prop_t *d = *(rf_prop_t **)field(L, k->at);
        uint32_t n = *(uint32_t *)field(L, k->at2);
        for (uint32_t i = 0; i < n && r == 0; i++)
            r = fn(k, &d[i].slot, ctx);
        return r;
    }
    case RF_KEY_SHADOW: {
        rf_shadow_t *sh = *(rf_shadow_t **)field(L, k->at);
        uint32_t n = *(uint32_t *)field(L, k->at2);
        for (uint32_t i = 0; i < n && r == 0; i++) {
            uint32_t *const s[] = { &sh[i].x.slot, &sh[i].y.slot, &sh[i].blur.slot };
            for (size_t j = 0; j < NELEM(s) && r == 0; j++)
                r = fn(k, s[j], ctx);
        }
        return r;
    }
    case RF_KEY_TEXT: {
        /* the pieces were allocated writable by the loader */
        rf_text_content_t *c = field(L, k->at);
        rf_text_piece_t *p = (rf_text_piece_t *)(uintptr_t)c->pieces;
        for (uint32_t i = 0; i < c->npieces && r == 0; i++)
            if (p[i].slot != RF_PROP_CONST)
                r = fn(k, &p[i].slot, ctx);
        return r;
    }
    case RF_KEY_VARIATIONS: {
        rf_text_vars_t *v = field(L, k->at);
        for (uint32_t i = 0; i < v->n && r == 0; i++)
            r = fn(k, &v->items[i].v.slot, ctx);
        return r;
    }
    case RF_KEY_PER_GLYPH: {
        rf_per_glyph_t *g = *(rf_per_glyph_t **)field(L, k->at);
        if (g == NULL)
            return 0;
        uint32_t *const s[] = { &g->x.slot, &g->y.slot, &g->rotate.slot, &g->scale.slot,
                                &g->opacity.slot };
        for (size_t i = 0; i < NELEM(s) && r == 0; i++)
            r = fn(k, s[i], ctx);
        return r;
    }
    case RF_KEY_SHAPE: {
        rf_layer_t *sub = *(rf_layer_t **)field(L, k->at);
        return sub != NULL ? rf_layer_each_slot(sub, fn, ctx) : 0;
    }
    case RF_KEY_MASK: {
        rf_layer_t *sub = *(rf_layer_t **)field(L, k->at);
        return sub != NULL ? each_slot_tree(sub, fn, ctx) : 0;
    }
    default:
        return 0;
    }
}

int rf_layer_each_slot(rf_layer_t *L, rf_layer_slot_fn fn, void *ctx)
{
    const rf_layer_class_t *c = rf_layer_class(L);
    int r = 0;
    for (uint32_t i = 0; i < rf_layer_ncommon_keys && r == 0; i++)
        r = key_each_slot(L, &rf_layer_common_keys[i], fn, ctx);
    for (uint32_t i = 0; i < c->nkeys && r == 0; i++)
        r = key_each_slot(L, &c->keys[i], fn, ctx);
    return r;
}

/* L's slots and those of its whole subtree (a mask layer: no other walk
 * reaches its children; the children were allocated writable). */
static int each_slot_tree(rf_layer_t *L, rf_layer_slot_fn fn, void *ctx)
{
    uint32_t n;
    int r = rf_layer_each_slot(L, fn, ctx);
    rf_layer_t *ch = (rf_layer_t *)(uintptr_t)rf_layer_children(L, &n);
    for (uint32_t i = 0; i < n && r == 0; i++)
        r = each_slot_tree(&ch[i], fn, ctx);
    return r;
}

const rf_layer_t *rf_layer_children(const rf_layer_t *L, uint32_t *n)
{
    const rf_layer_class_t *c = rf_layer_class(L);
    for (uint32_t i = 0; i < c->nkeys; i++) {
        const rf_layer_key_t *k = &c->keys[i];
        if (k->kind == RF_KEY_CHILDREN) {
            *n = *(const uint32_t *)((const char *)L + k->at2);
            return *(const rf_layer_t *const *)((const char *)L + k->at);
        }
    }
    *n = 0;
    return NULL;
}

typedef struct { unsigned flags; } static_ctx_t;

static int slot_reads_value(const rf_layer_key_t *key, uint32_t *slot, void *ctx)
{
    const static_ctx_t *sc = ctx;
    if (sc->flags != 0 && (key->flags & sc->flags) == 0)
        return 0;
    return *slot != RF_PROP_CONST;
}

int rf_layer_keys_static(const rf_layer_t *L, unsigned flags)
{
    static_ctx_t sc = { flags };
    /* the visitor only reads through the slots it hands out */
    return rf_layer_each_slot((rf_layer_t *)(uintptr_t)L, slot_reads_value, &sc) == 0;
}

int rf_layer_is_static(const rf_layer_t *L)
{
    if (!rf_layer_keys_static(L, 0))
        return 0;
    uint32_t n;
    const rf_layer_t *ch = rf_layer_children(L, &n);
    for (uint32_t i = 0; i < n; i++)
        if (!rf_layer_is_static(&ch[i]))
            return 0;
    return 1;
}
