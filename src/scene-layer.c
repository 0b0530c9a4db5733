/* scene-layer.c - `layers`: each layer walked by the layer-type table
 * (layer.h), its numeric properties, paints, follow, path and children, and
 * once the values have slots, the slot fix-up through the table's visitor. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "jsonsyn.h"
#include "scene-int.h"

/* ------------------------------------------------------------------ */
/* Layers                                                               */

/* While layers are walked the values have no slots yet (build_values
 * numbers them once the graph is sorted): a property naming a value holds
 * PENDING(value index, output) until fix_layers turns it into the slot
 * (indices stay below RF_MAX_ITEMS + 1, so this never reaches RF_PROP_CONST). */
#define PENDING(vi, k) SCENE_PENDING(vi, k)

static rf_prop_t konst(double k)
{
    rf_prop_t p = { RF_PROP_CONST, k };
    return p;
}

static void walk_layer(loader_t *L, const cJSON *layer, rf_layer_t *out);

/* A value reference "NAME", "NAME.x|y|angle" (a path sample), "NAME.x..w"
 * (a vector) or "NAME.r|g|b|a" (a color) in a numeric property. */
static void value_ref(loader_t *L, const char *key, const char *s, rf_prop_t *out)
{
    char msg[RF_DIAG_LINE];
    long vi;
    int comp;
    if (scene_resolve_input(L, s, &vi, &comp, msg, sizeof msg) != 0) {
        scene_err_key(L, key, "%s", msg);
        return;
    }
    L->vals[vi].used = 1;
    out->slot = PENDING(vi, comp);   /* comp: the output index */
}


/* A numeric layer property: number, value reference or inline value. A
 * constant size must not be negative (P_NONNEG): an animated one may pass
 * below 0 (a spring's overshoot) and is drawn as 0 there, but a constant
 * one can only be a mistake. */
void scene_walk_numeric(loader_t *L, const cJSON *it, const char *key, int range,
                        rf_prop_t *out)
{
    if (cJSON_IsNumber(it)) {
        double v = it->valuedouble;
        nbuf_t b;
        if (!isfinite(v))
            return;            /* reported by check_finite */
        if (range == P_NONNEG && v < 0)
            scene_err_key(L, key, "must be >= 0, got %s", scene_num(&b, v));
        else
            *out = konst(v);
        return;
    }
    if (cJSON_IsString(it)) {
        value_ref(L, key, it->valuestring, out);
        return;
    }
    if (cJSON_IsObject(it)) {
        size_t m = scene_push(L, key);
        size_t vi = scene_add_value(L, "", it);
        if (vi != SIZE_MAX) {
            L->vals[vi].used = 1;
            out->slot = PENDING(vi, 0);
        }
        scene_resolve_pending(L);
        scene_pop(L, m);
        return;
    }
    scene_err_key(L, key, "must be a number, a value name or a value object, got %s",
                  scene_json_type(it));
}

/* [a, b] of numeric properties (anchor, scale, trim, gradient points). */
static void walk_pair(loader_t *L, const cJSON *it, const char *key, const char *shape,
                      rf_prop_t *a, rf_prop_t *b)
{
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2) {
        if (cJSON_IsArray(it))
            scene_err_key(L, key, "must be an array %s, got %d element%s", shape,
                          cJSON_GetArraySize(it), cJSON_GetArraySize(it) == 1 ? "" : "s");
        else
            scene_err_key(L, key, "must be an array %s, got %s", shape, scene_json_type(it));
        return;
    }
    size_t m = scene_push(L, key);
    scene_walk_numeric(L, it->child, "0", P_ANY, a);
    scene_walk_numeric(L, it->child->next, "1", P_ANY, b);
    scene_pop(L, m);
}

/* 0xRRGGBBAA -> straight channels in [0, 1]. */
static void to_color(uint32_t c, rf_color_t *out)
{
    out->r = (double)(c >> 24 & 0xFFu) / 255;
    out->g = (double)(c >> 16 & 0xFFu) / 255;
    out->b = (double)(c >> 8 & 0xFFu) / 255;
    out->a = (double)(c & 0xFFu) / 255;
}

/* A color string where only a plain color fits: a mix's two colors, a
 * gradient stop's color. what names the taker for the message. */
static void plain_color(loader_t *L, const cJSON *it, const char *key, const char *what,
                        rf_color_t *out)
{
    uint32_t c;
    if (cJSON_IsString(it)) {
        if (strcmp(it->valuestring, "none") == 0)
            scene_err_key(L, key, "must be a color: \"none\" stands only for a whole fill or "
                          "stroke");
        else if (scene_color_string(L, it, key, &c) == F_OK)
            to_color(c, out);
    } else if (cJSON_IsObject(it)) {
        scene_err_key(L, key, "must be a color string: %s takes plain colors, not a mix or a "
                      "gradient", what);
    } else {
        scene_err_key(L, key, "must be a color string, got %s", scene_json_type(it));
    }
}

/* Stops of a gradient: [offset, color], offsets in [0, 1], non-decreasing
 * (CSS and SVG would clamp a decreasing offset up to the one before it;
 * here it is an error, as it is most likely a typo). */
static void walk_stops(loader_t *L, const cJSON *it, rf_paint_t *p)
{
    if (!cJSON_IsArray(it)) {
        scene_err_key(L, "stops", "must be an array of stops [offset, color], got %s",
                      scene_json_type(it));
        return;
    }
    int n = cJSON_GetArraySize(it);
    if (n < 1) {
        scene_err_key(L, "stops", "must have at least one stop [offset, color]");
        return;
    }
    rf_gradient_stop_t *st = scene_aalloc(L, (size_t)n, sizeof *st);
    if (st == NULL)
        return;
    p->stops = st;
    p->nstops = (uint32_t)n;
    size_t m = scene_push(L, "stops");
    size_t i = 0;
    double prev = 0;
    int have_prev = 0;
    for (const cJSON *s = it->child; s != NULL; s = s->next, i++) {
        size_t mi = scene_pushi(L, i);
        if (!cJSON_IsArray(s) || cJSON_GetArraySize(s) != 2) {
            if (cJSON_IsArray(s))
                scene_err(L, "a stop must be [offset, color], got %d element%s",
                          cJSON_GetArraySize(s), cJSON_GetArraySize(s) == 1 ? "" : "s");
            else
                scene_err(L, "a stop must be [offset, color], got %s", scene_json_type(s));
            scene_pop(L, mi);
            continue;
        }
        double off = 0;
        nbuf_t b, b2;
        if (scene_want_number(L, s->child, "0", &off) == F_OK) {
            if (!(off >= 0 && off <= 1)) {
                scene_err_key(L, "0", "a stop offset must be in [0, 1], got %s",
                              scene_num(&b, off));
            } else if (have_prev && off < prev) {
                scene_err_key(L, "0", "stop offsets must not decrease: %s after %s",
                              scene_num(&b, off), scene_num(&b2, prev));
            } else {
                st[i].offset = off;
                prev = off;
                have_prev = 1;
            }
        }
        plain_color(L, s->child->next, "1", "a gradient stop", &st[i].color);
        scene_pop(L, mi);
    }
    scene_pop(L, m);
}

static const char *const color_kinds[] = { "mix", "linear", "radial" };
static const char *const linear_keys[] = { "from", "to", "stops" };
static const char *const radial_keys[] = { "center", "radius", "stops" };
static const char *const mix_keys[] = { "mix", "by", "space" };
static const char *const mask_keys[] = { "layer", "mode" };
static const char *const shadow_keys[] = { "x", "y", "blur", "color" };
const scene_names_t scene_color_kind_names = SCENE_NAMES(color_kinds, NULL);
const scene_names_t scene_linear_names = SCENE_NAMES(linear_keys, "from to stops");
const scene_names_t scene_radial_names = SCENE_NAMES(radial_keys, "center radius stops");
const scene_names_t scene_mix_names = SCENE_NAMES(mix_keys, "mix by");
const scene_names_t scene_mask_names = SCENE_NAMES(mask_keys, "layer");
const scene_names_t scene_shadow_names = SCENE_NAMES(shadow_keys, NULL);
enum { C_MIX, C_LINEAR, C_RADIAL };

/* "space": the color space of a mix (color.h), srgb when absent. */
static void walk_space(loader_t *L, const cJSON *it, rf_paint_t *p)
{
    qbuf_t a;
    int sp = cJSON_IsString(it) ? rf_color_space_find(it->valuestring) : -1;
    if (sp >= 0)
        p->space = (uint8_t)sp;
    else if (!cJSON_IsString(it))
        scene_err_key(L, "space", "must be \"srgb\", \"linear\" or \"oklab\", got %s",
                      scene_json_type(it));
    else
        scene_err_key(L, "space", "unknown color space '%s' (known: srgb, linear, oklab)",
                      scene_q(&a, it->valuestring));
}

/* {"mix": [COLOR, COLOR], "by": NUMBER, "space": SPACE}, the "mix" member
 * given. */
static void walk_mix(loader_t *L, const cJSON *mix, const cJSON *by, const cJSON *space,
                     rf_paint_t *p)
{
    p->kind = RF_PAINT_MIX;
    p->space = RF_SPACE_SRGB;
    if (space != NULL)
        walk_space(L, space, p);
    if (!cJSON_IsArray(mix) || cJSON_GetArraySize(mix) != 2) {
        int n = cJSON_GetArraySize(mix);
        if (cJSON_IsArray(mix))
            scene_err_key(L, "mix", "must be an array of 2 colors [\"#rrggbb\", \"#rrggbb\"], got "
                          "%d element%s", n, n == 1 ? "" : "s");
        else
            scene_err_key(L, "mix",
                          "must be an array of 2 colors [\"#rrggbb\", \"#rrggbb\"], got %s",
                          scene_json_type(mix));
    } else {
        size_t m = scene_push(L, "mix");
        plain_color(L, mix->child, "0", "a mix", &p->color);
        plain_color(L, mix->child->next, "1", "a mix", &p->color2);
        scene_pop(L, m);
    }
    if (by == NULL)
        scene_err(L, "missing required key 'by' (the mix amount: 0 is the first color, 1 the "
                  "second)");
    else
        scene_walk_numeric(L, by, "by", P_ANY, &p->by);
}

/* {"linear": {...}} or {"radial": {...}}: body is the kind's member. */
static void walk_gradient(loader_t *L, const cJSON *body, int kind, rf_paint_t *p)
{
    int lin = kind == C_LINEAR;
    p->kind = lin ? RF_PAINT_LINEAR : RF_PAINT_RADIAL;
    size_t m = scene_push(L, body->string);
    if (!cJSON_IsObject(body)) {
        scene_err(L, "must be an object {%s}, got %s",
                  lin ? "\"from\": [x, y], \"to\": [x, y], \"stops\": [...]"
                : "\"center\": [x, y], \"radius\": r, \"stops\": [...]", scene_json_type(body));
        scene_pop(L, m);
        return;
    }
    const cJSON *f[3];
    const char *const *keys = lin ? linear_keys : radial_keys;
    scene_scan_keys(L, body, keys, 3, f);
    for (int k = 0; k < 3; k++)
        if (f[k] == NULL)
            scene_err(L, "missing required key '%s'", keys[k]);
    if (f[0] != NULL)
        walk_pair(L, f[0], keys[0], "[x, y]", &p->p0[0], &p->p0[1]);
    if (f[1] != NULL && lin)
        walk_pair(L, f[1], keys[1], "[x, y]", &p->p1[0], &p->p1[1]);
    else if (f[1] != NULL)
        scene_walk_numeric(L, f[1], "radius", P_NONNEG, &p->radius);
    if (f[2] != NULL)
        walk_stops(L, f[2], p);
    scene_pop(L, m);
}

/* fill/stroke: "#..." or "none", or one mix or gradient object. */
static void walk_color(loader_t *L, const cJSON *it, const char *key, rf_paint_t *p)
{
    uint32_t col;
    if (cJSON_IsString(it)) {
        /* a color value by name ("fill": "tint"): a value wins over a CSS name */
        int cv = scene_color_value(L, it->valuestring, key, &p->by.slot);
        if (cv != 0) {
            if (cv > 0)
                p->kind = RF_PAINT_VALUE;
            return;
        }
        if (strcmp(it->valuestring, "none") != 0 && scene_color_string(L, it, key, &col) == F_OK) {
            p->kind = RF_PAINT_SOLID;
            to_color(col, &p->color);
        }
        return;
    }
    if (!cJSON_IsObject(it)) {
        scene_err_key(L, key, "must be a color \"#rrggbb\" or a {\"mix\"}, {\"linear\"} or "
                      "{\"radial\"} object, got %s", scene_json_type(it));
        return;
    }
    size_t m = scene_push(L, key);
    /* an inline color value: {"spring": {"from": "#fff", "to": "#36c"}} */
    int cv = scene_color_inline(L, it, &p->by.slot);
    if (cv != 0) {
        if (cv > 0)
            p->kind = RF_PAINT_VALUE;
        scene_pop(L, m);
        return;
    }
    const cJSON *body = NULL, *by = NULL, *space = NULL;
    int kind = -1;
    for (const cJSON *c = it->child; c != NULL && body == NULL; c = c->next)
        if ((kind = scene_find_name(color_kinds, NELEM(color_kinds), c->string)) >= 0)
            body = c;
    /* everything but the one kind, in file order */
    int unknown = 0;
    for (const cJSON *c = it->child; c != NULL; c = c->next) {
        qbuf_t a;
        if (c == body)
            continue;
        if (scene_find_name(color_kinds, NELEM(color_kinds), c->string) >= 0) {
            if (strcmp(c->string, body->string) == 0)
                scene_err_key(L, c->string, "duplicate key '%s'", c->string);
            else
                scene_err_key(L, c->string, "a color has exactly one kind, got '%s' and '%s'",
                              body->string, c->string);
        } else if (strcmp(c->string, "by") == 0 && kind == C_MIX) {
            if (by != NULL)
                scene_err_key(L, c->string, "duplicate key 'by'");
            else
                by = c;
        } else if (strcmp(c->string, "space") == 0 && kind == C_MIX) {
            if (space != NULL)
                scene_err_key(L, c->string, "duplicate key 'space'");
            else
                space = c;
        } else if (body == NULL) {
            if (strcmp(c->string, "by") != 0 && strcmp(c->string, "space") != 0) {
                scene_err_unknown_key(L, c->string, "color kind", color_kinds, NELEM(color_kinds));
                unknown++;
            }
        } else if (kind != C_MIX &&
                   scene_find_name(kind == C_LINEAR ? linear_keys : radial_keys, 3,
                                   c->string) >= 0) {
            scene_err_key(L, c->string, "'%s' belongs inside '%s'", c->string, body->string);
        } else if (kind == C_MIX) {
            scene_err_unknown_key(L, c->string, "key", mix_keys, NELEM(mix_keys));
        } else {
            scene_err_key(L, c->string, "unknown key '%s' (a %s gradient has only '%s')",
                          scene_q(&a, c->string), body->string, body->string);
        }
    }
    if (body == NULL) {
        if (unknown == 0)
            scene_err(L, "a color object needs one of 'mix', 'linear' or 'radial'");
    } else if (kind == C_MIX) {
        walk_mix(L, body, by, space, p);
    } else {
        walk_gradient(L, body, kind, p);
    }
    scene_pop(L, m);
}

/* follow: the name of a sample_path value; its first slot. */
static void walk_follow(loader_t *L, const cJSON *c, uint32_t *slot)
{
    const char *k = c->string;
    qbuf_t a;
    if (!cJSON_IsString(c)) {
        scene_err_key(L, k, "must be the name of a sample_path value, got %s", scene_json_type(c));
        return;
    }
    const char *s = c->valuestring;
    const char *dot = strchr(s, '.');
    long vi = scene_valid_name(s) ? scene_lookup_value(L, s, strlen(s)) : -1;
    long base = dot != NULL ? scene_lookup_value(L, s, (size_t)(dot - s)) : -1;
    if (base >= 0 && L->vals[base].kind == RF_VALUE_SAMPLE_PATH) {
        scene_err_key(L, k, "'follow' takes the sample_path value's name: \"%.*s\", not "
                      "\"%s\" (it adds .x and .y, and .angle with orient)",
                      (int)(dot - s), s, scene_q(&a, s));
    } else if (vi < 0) {
        const char *dym = scene_suggest(L, s, L->names, L->nnamed);
        if (dym != NULL)
            scene_err_key(L, k, "unknown value '%s' (did you mean '%s'?)", scene_q(&a, s), dym);
        else
            scene_err_key(L, k, "unknown value '%s'", scene_q(&a, s));
    } else if (L->vals[vi].kind != RF_VALUE_SAMPLE_PATH) {
        scene_err_key(L, k, "'%s' is %s %s value: 'follow' needs a sample_path value", s,
                      scene_a_kind(L->vals[vi].kind), rf_value_kind_name(L->vals[vi].kind));
    } else {
        L->vals[vi].used = 1;
        *slot = PENDING(vi, 0);
    }
}

static void walk_layer(loader_t *L, const cJSON *layer, rf_layer_t *out);

static void walk_children(loader_t *L, const cJSON *c, const rf_layer_t **out, uint32_t *nout,
                          int one)
{
    if (one) {
        /* one layer object (instances' `layer`) */
        if (!cJSON_IsObject(c)) {
            scene_err_key(L, c->string, "must be one layer object, got %s", scene_json_type(c));
            return;
        }
        rf_layer_t *ch = scene_aalloc(L, 1, sizeof *ch);
        if (ch == NULL)
            return;
        size_t m = scene_push(L, c->string);
        walk_layer(L, c, ch);
        scene_pop(L, m);
        *out = ch;
        *nout = 1;
        return;
    }
    if (!cJSON_IsArray(c)) {
        scene_err_key(L, c->string, "must be an array of layers, got %s", scene_json_type(c));
        return;
    }
    int n = cJSON_GetArraySize(c);
    rf_layer_t *ch = scene_aalloc(L, (size_t)n, sizeof *ch);
    if (ch == NULL)
        return;
    *out = ch;
    size_t m = scene_push(L, c->string);
    size_t i = 0;
    for (const cJSON *jc = c->child; jc != NULL && !L->items_over; jc = jc->next, i++) {
        size_t mi = scene_pushi(L, i);
        walk_layer(L, jc, &ch[i]);
        scene_pop(L, mi);
    }
    *nout = (uint32_t)i;
    scene_pop(L, m);
}

/* `count` (instances): a whole number >= 1 (walk_layer counts the items
 * of its instances). */
static void walk_count(loader_t *L, const cJSON *c, uint32_t *out)
{
    double v;
    nbuf_t b;
    if (scene_want_number(L, c, c->string, &v) != F_OK)
        return;
    if (!(v >= 1) || v != floor(v)) {
        scene_err_key(L, c->string, "must be a whole number >= 1 (how many instances), got %s",
                      scene_num(&b, v));
    } else if (v > RF_MAX_ITEMS) {
        scene_err_key(L, c->string, "%s instances are more than the %u items a scene may have "
                      "in all (values, layers, path segments, entries)", scene_num(&b, v),
                      (unsigned)RF_MAX_ITEMS);
    } else {
        *out = (uint32_t)v;
        if (*out > L->max_count)
            L->max_count = *out;
    }
}

/* A constant number of seconds in [0, key->def2] (instances' stagger). */
static void walk_seconds(loader_t *L, const cJSON *c, const rf_layer_key_t *key, double *out)
{
    double v;
    nbuf_t b, b2;
    if (cJSON_IsString(c) || cJSON_IsObject(c)) {
        scene_err_key(L, c->string, "must be a number of seconds (a constant, not a value), "
                      "got %s", scene_json_type(c));
        return;
    }
    if (scene_num_field(L, c, c->string, 0, R_GE0, &v) != F_OK)
        return;
    if (v > key->def2)
        scene_err_key(L, c->string, "must be at most %s s, got %s", scene_num(&b2, key->def2),
                      scene_num(&b, v));
    else
        *out = v;
}

/* A word out of names (what: "blend mode", "mask mode") into *out. */
static void walk_word(loader_t *L, const cJSON *c, const char *what, const char *const *names,
                      int n, uint8_t *out)
{
    qbuf_t a;
    char list[300];
    if (!cJSON_IsString(c)) {
        scene_err_key(L, c->string, "must be a %s name, got %s", what, scene_json_type(c));
        return;
    }
    for (int i = 0; i < n; i++)
        if (strcmp(c->valuestring, names[i]) == 0) {
            *out = (uint8_t)i;
            return;
        }
    const char *dym = scene_suggest(L, c->valuestring, names, (size_t)n);
    if (dym != NULL)
        scene_err_key(L, c->string, "unknown %s '%s' (did you mean '%s'?)", what,
                      scene_q(&a, c->valuestring), dym);
    else
        scene_err_key(L, c->string, "unknown %s '%s' (known: %s)", what,
                      scene_q(&a, c->valuestring), scene_join(list, sizeof list, names, (size_t)n));
}

/* `blend`: one of the CSS mix-blend-mode names. */
static void walk_blend(loader_t *L, const cJSON *c, uint8_t *out)
{
    walk_word(L, c, "blend mode", rf_blend_names, RF_BLEND_N, out);
}

/* `mask` (groups): {"layer": LAYER, "mode": "alpha"}; LAYER is any layer,
 * a group included, in the group's coordinates. */
static void walk_mask(loader_t *L, const cJSON *c, const rf_layer_t **out, uint8_t *mode)
{
    const char *const *keys = mask_keys;
    if (!cJSON_IsObject(c)) {
        scene_err_key(L, c->string, "must be an object {\"layer\": LAYER, \"mode\": \"alpha\"}, "
                      "got %s", scene_json_type(c));
        return;
    }
    size_t m = scene_push(L, c->string);
    const cJSON *layer = NULL;
    for (const cJSON *k = c->child; k != NULL; k = k->next) {
        int i = scene_find_name(keys, 2, k->string);
        if (i < 0)
            scene_err_unknown_key(L, k->string, "mask key", keys, 2);
        else if (i == 1)
            walk_word(L, k, "mask mode", rf_mask_mode_names, RF_MASK_N, mode);
        else
            layer = k;
    }
    if (layer == NULL) {
        scene_err(L, "a mask needs \"layer\": the layer whose pixels let the children through");
    } else {
        rf_layer_t *ml = scene_aalloc(L, 1, sizeof *ml);
        if (ml != NULL) {
            size_t m2 = scene_push(L, "layer");
            walk_layer(L, layer, ml);
            scene_pop(L, m2);
            *out = ml;
        }
    }
    scene_pop(L, m);
}

/* One shadow object {x, y, blur, color} into sh. */
static void walk_shadow_one(loader_t *L, const cJSON *c, rf_shadow_t *sh)
{
    const char *const *keys = shadow_keys;
    sh->x.slot = sh->y.slot = sh->blur.slot = RF_PROP_CONST;
    sh->x.k = 0;
    sh->y.k = 0;
    sh->blur.k = 0;
    sh->color.r = sh->color.g = sh->color.b = 0;
    sh->color.a = 61.0 / 255; /* #0000003d */
    if (!cJSON_IsObject(c)) {
        scene_err(L, "a shadow must be an object {\"x\", \"y\", \"blur\", \"color\"}, got %s",
                  scene_json_type(c));
        return;
    }
    for (const cJSON *k = c->child; k != NULL; k = k->next) {
        int i = scene_find_name(keys, 4, k->string);
        if (i < 0) {
            scene_err_unknown_key(L, k->string, "shadow key", keys, 4);
        } else if (i == 3) {
            rf_paint_t p;
            memset(&p, 0, sizeof p);
            walk_color(L, k, k->string, &p);
            if (p.kind == RF_PAINT_VALUE)
                scene_err_key(L, k->string, "a shadow's color is a constant color, not a color "
                              "value");
            else if (p.kind == RF_PAINT_SOLID)
                sh->color = p.color;
            else if (p.kind != RF_PAINT_NONE)
                scene_err_key(L, k->string, "a shadow's color is one color, not a mix or gradient");
        } else {
            scene_walk_numeric(L, k, k->string, i == 2 ? P_NONNEG : P_ANY,
                               i == 0 ? &sh->x : i == 1 ? &sh->y : &sh->blur);
        }
    }
}

/* `shadow`: one object or an array of them. */
static void walk_shadows(loader_t *L, const cJSON *c, const rf_shadow_t **out, uint32_t *nout)
{
    int n = cJSON_IsArray(c) ? cJSON_GetArraySize(c) : 1;
    if (n == 0)
        return;
    if (scene_count_items(L, (size_t)n))
        return;
    rf_shadow_t *sh = scene_aalloc(L, (size_t)n, sizeof *sh);
    if (sh == NULL)
        return;
    size_t m = scene_push(L, c->string);
    if (cJSON_IsArray(c)) {
        size_t i = 0;
        for (const cJSON *e = c->child; e != NULL; e = e->next, i++) {
            size_t mi = scene_pushi(L, i);
            walk_shadow_one(L, e, &sh[i]);
            scene_pop(L, mi);
        }
    } else {
        walk_shadow_one(L, c, &sh[0]);
    }
    scene_pop(L, m);
    *out = sh;
    *nout = (uint32_t)n;
}

/* `clip`: one shape layer (rect, circle, ellipse or path) in the group's
 * coordinates. */
static void walk_shape(loader_t *L, const cJSON *c, const rf_layer_t **out)
{
    const char *k = c->string;
    if (!cJSON_IsObject(c)) {
        scene_err_key(L, k, "must be a shape object (a rect, circle, ellipse or path layer), "
                      "got %s", scene_json_type(c));
        return;
    }
    rf_layer_t *sh = scene_aalloc(L, 1, sizeof *sh);
    if (sh == NULL)
        return;
    size_t m = scene_push(L, k);
    walk_layer(L, c, sh);
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(c, "type");
    int t = cJSON_IsString(ty) ? rf_layer_type_find(ty->valuestring) : -1;
    if (t == RF_LAYER_LINE || (t >= 0 && (rf_layer_classes[t]->flags & RF_CLASS_CHILDREN)))
        scene_err_key(L, "type", "a %s is a rect, circle, ellipse or path, not a %s", k,
                      rf_layer_classes[t]->name);
    scene_pop(L, m);
    *out = sh;
}

static void *key_field(rf_layer_t *o, uint16_t at)
{
    return (char *)o + at;
}

/* One key of a layer, read as its row says. */
static void walk_layer_prop(loader_t *L, const cJSON *c, const rf_layer_key_t *key,
                            rf_layer_t *out)
{
    const char *k = c->string;
    const rf_layer_class_t *cls = rf_layer_class(out);
    int range = key->flags & RF_KEY_NONNEG ? P_NONNEG : P_ANY;
    if (key->flags & RF_KEY_DRAWN) {
        /* what a shape does not draw is an error, not silently ignored; a
         * paint of "none" says nothing is drawn and is fine anywhere */
        int none = cJSON_IsString(c) && strcmp(c->valuestring, "none") == 0;
        if ((cls->flags & RF_CLASS_NO_FILL) && key->at == RF_KEY_AT(fill) && !none) {
            scene_err_key(L, k, "a %s has no fill (use stroke)", cls->name);
            return;
        }
        if ((cls->flags & RF_CLASS_PIXELS) && !none) {
            scene_err_key(L, k, "'%s' does nothing on an %s: it draws the file's own pixels",
                          k, cls->name);
            return;
        }
        if ((cls->flags & RF_CLASS_REPEAT) && !none) {
            scene_err_key(L, k, "'%s' does nothing on instances: they draw only their layer "
                          "(give it to it)", k);
            return;
        }
        if ((cls->flags & RF_CLASS_CHILDREN) && !none) {
            scene_err_key(L, k, "'%s' does nothing on a %s: a %s draws only its children "
                          "(give it to them)", k, cls->name, cls->name);
            return;
        }
    }
    switch (key->kind) {
    case RF_KEY_STRING: {
        const char **str = key_field(out, key->at);
        if (!cJSON_IsString(c))
            scene_err_key(L, k, "must be a string, got %s", scene_json_type(c));
        else if ((*str = rf_arena_strdup(L->arena, c->valuestring)) == NULL)
            scene_err_oom(L);
        break;
    }
    case RF_KEY_SCALE:
        if (cJSON_IsArray(c)) {
            walk_pair(L, c, k, key->shape, key_field(out, key->at), key_field(out, key->at2));
        } else {
            rf_prop_t *a = key_field(out, key->at);
            scene_walk_numeric(L, c, k, range, a);
            *(rf_prop_t *)key_field(out, key->at2) = *a;
        }
        break;
    case RF_KEY_PAIR:
        walk_pair(L, c, k, key->shape, key_field(out, key->at), key_field(out, key->at2));
        break;
    case RF_KEY_PAINT:
        walk_color(L, c, k, key_field(out, key->at));
        break;
    case RF_KEY_BOOL:
        if (!cJSON_IsBool(c))
            scene_err_key(L, k, "must be true or false, got %s", scene_json_type(c));
        else
            *(uint8_t *)key_field(out, key->at) = cJSON_IsTrue(c) ? 1 : 0;
        break;
    case RF_KEY_FOLLOW:
        walk_follow(L, c, key_field(out, key->at));
        break;
    case RF_KEY_PATH:
        scene_walk_path_key(L, c, key_field(out, key->at));
        break;
    case RF_KEY_CHILDREN:
        walk_children(L, c, key_field(out, key->at), key_field(out, key->at2),
                      (key->flags & RF_KEY_ONE) != 0);
        break;
    case RF_KEY_COUNT:
        walk_count(L, c, key_field(out, key->at));
        break;
    case RF_KEY_SECONDS:
        walk_seconds(L, c, key, key_field(out, key->at));
        break;
    case RF_KEY_TEXT:
    case RF_KEY_FONT:
    case RF_KEY_CHOICE:
    case RF_KEY_FEATURES:
    case RF_KEY_VARIATIONS:
    case RF_KEY_PER_GLYPH:
        scene_walk_text_key(L, c, key, key_field(out, key->at));
        break;
    case RF_KEY_BLEND:
        walk_blend(L, c, key_field(out, key->at));
        break;
    case RF_KEY_SHADOW:
        walk_shadows(L, c, key_field(out, key->at), key_field(out, key->at2));
        break;
    case RF_KEY_SHAPE:
        walk_shape(L, c, key_field(out, key->at));
        break;
    case RF_KEY_MASK:
        walk_mask(L, c, key_field(out, key->at), key_field(out, key->at2));
        break;
    case RF_KEY_IMAGE:
        scene_walk_image(L, c, key_field(out, key->at));
        break;
    case RF_KEY_DASH:
        scene_walk_dash(L, c, key_field(out, key->at), key_field(out, key->at2));
        break;
    default:
        scene_walk_numeric(L, c, k, range, key_field(out, key->at));
        if (key->flags & RF_KEY_MIN1)
            scene_check_min1(L, c, key, key_field(out, key->at));
        break;
    }
}

/* Instances: each instance after the first counts the items of the
 * layer (its subtree: layers, inline values, path segments) again, so
 * nested instances are bounded by their product. */
static void count_instances(loader_t *L, const rf_layer_t *out, size_t before)
{
    size_t per = L->items - before - 1, more = out->u.inst.count - 1; /* 1: L itself */
    if (L->items_over || out->u.inst.nchildren == 0 || more == 0)
        return;
    if (per > 0 && more > (RF_MAX_ITEMS + 1) / per) {
        nbuf_t b;
        L->items_over = 1;
        scene_err(L, "%u instances of a layer of %s item%s are more than the %u items a "
                  "scene may have in all (values, layers, path segments, entries)",
                  (unsigned)out->u.inst.count, scene_num(&b, (double)per), per == 1 ? "" : "s",
                  (unsigned)RF_MAX_ITEMS);
        return;
    }
    if (scene_count_items(L, per * more))
        L->items_over = 1;
}

static void walk_layer(loader_t *L, const cJSON *layer, rf_layer_t *out)
{
    rf_layer_defaults(out, -1);
    size_t before = L->items;
    if (scene_count_items(L, 1))
        return;
    if (!cJSON_IsObject(layer)) {
        scene_err(L, "a layer must be an object, got %s", scene_json_type(layer));
        return;
    }
    qbuf_t a;
    int type = -1;
    const cJSON *ty = NULL;
    for (const cJSON *c = layer->child; c != NULL; c = c->next)
        if (strcmp(c->string, "type") == 0 && ty == NULL)
            ty = c;
    if (ty == NULL) {
        scene_err(L, "missing required key 'type'");
    } else if (!cJSON_IsString(ty)) {
        scene_err_key(L, "type", "must be a layer type string, got %s", scene_json_type(ty));
    } else {
        type = rf_layer_type_find(ty->valuestring);
        if (type < 0) {
            char list[100];
            const char *type_names[RF_LAYER_NTYPES];
            for (int t = 0; t < RF_LAYER_NTYPES; t++)
                type_names[t] = rf_layer_classes[t]->name;
            const char *dym = scene_suggest(L, ty->valuestring, type_names, RF_LAYER_NTYPES);
            if (dym != NULL)
                scene_err_key(L, "type", "unknown layer type '%s' (did you mean '%s'?)",
                              scene_q(&a, ty->valuestring), dym);
            else
                scene_err_key(L, "type", "unknown layer type '%s' (known: %s)",
                              scene_q(&a, ty->valuestring),
                              scene_join(list, sizeof list, type_names, RF_LAYER_NTYPES));
        }
    }
    rf_layer_defaults(out, type);
    /* the keys this layer may have: the common ones, then its type's */
    const rf_layer_class_t *cls = type >= 0 ? rf_layer_classes[type] : NULL;
    const rf_layer_key_t *rows[RF_LAYER_MAX_KEYS];
    const char *allowed[RF_LAYER_MAX_KEYS];
    size_t na = 0;
    for (size_t i = 0; i < rf_layer_ncommon_keys; i++)
        rows[na++] = &rf_layer_common_keys[i];
    if (cls != NULL)
        for (size_t i = 0; i < cls->nkeys && na < RF_LAYER_MAX_KEYS; i++)
            rows[na++] = &cls->keys[i];
    for (size_t i = 0; i < na; i++)
        allowed[i] = rows[i]->name;
    const cJSON *seen[RF_LAYER_MAX_KEYS] = { 0 };
    for (const cJSON *c = layer->child; c != NULL; c = c->next) {
        if (c == ty)
            continue;
        int k = scene_find_name(allowed, na, c->string);
        if (k < 0) {
            if (type < 0)
                continue;  /* unknown type: its own keys cannot be judged */
            int other = -1;
            for (int t = 0; t < RF_LAYER_NTYPES && other < 0; t++)
                for (size_t i = 0; i < rf_layer_classes[t]->nkeys && other < 0; i++)
                    if (strcmp(rf_layer_classes[t]->keys[i].name, c->string) == 0)
                        other = t;
            if (other >= 0)
                scene_err_key(L, c->string, "'%s' is not a property of %s layers (it belongs to %s "
                              "layers)", c->string, cls->name, rf_layer_classes[other]->name);
            else
                scene_err_unknown_key(L, c->string, "key", allowed, na);
            continue;
        }
        if (seen[k] != NULL || rows[k]->kind == RF_KEY_TYPE) {
            scene_err_key(L, c->string, "duplicate key '%s'", scene_q(&a, c->string));
            continue;
        }
        seen[k] = c;
        walk_layer_prop(L, c, rows[k], out);
    }
    if (type < 0)
        return;
    if (type == RF_LAYER_INSTANCES)
        count_instances(L, out, before);
    /* required keys, named in one message */
    char list[100];
    size_t nmiss = 0, nreq = 0, o = 0;
    for (size_t i = rf_layer_ncommon_keys; i < na; i++)
        if ((rows[i]->flags & RF_KEY_REQUIRED) && seen[i] == NULL)
            nmiss++;
    list[0] = '\0';
    for (size_t i = rf_layer_ncommon_keys; i < na; i++) {
        if (!(rows[i]->flags & RF_KEY_REQUIRED) || seen[i] != NULL)
            continue;
        o += (size_t)snprintf(list + o, sizeof list - o, "%s'%s'",
                              nreq == 0 ? "" : nreq + 1 == nmiss ? " and " : ", ",
                              rows[i]->name);
        nreq++;
    }
    if (nmiss > 0)
        scene_err(L, "missing required key%s %s (%s)", nmiss > 1 ? "s" : "", list, cls->needs);
    /* what a key's meaning needs from the layer's other keys (a font's
     * axes; the default font) */
    for (size_t i = rf_layer_ncommon_keys; i < na; i++)
        scene_finish_text_key(L, seen[i], rows[i], out);
    /* orient turns by the follow sample's angle: without follow there is
     * none, and a silent no-op would hide a missing or misspelt follow */
    const cJSON *jo = seen[scene_find_name(allowed, na, "orient")];
    if (jo != NULL && cJSON_IsTrue(jo) && seen[scene_find_name(allowed, na, "follow")] == NULL)
        scene_err_key(L, "orient", "orient needs follow: a sample_path value to take the angle "
                      "from");
}

void scene_parse_layers(loader_t *L, const cJSON *arr)
{
    if (!cJSON_IsArray(arr)) {
        scene_err(L, "must be an array of layers, got %s", scene_json_type(arr));
        return;
    }
    int n = cJSON_GetArraySize(arr);
    rf_layer_t *ls = scene_aalloc(L, (size_t)n, sizeof *ls);
    if (ls == NULL)
        return;
    size_t i = 0;
    for (const cJSON *c = arr->child; c != NULL && !L->items_over; c = c->next, i++) {
        size_t m = scene_pushi(L, i);
        walk_layer(L, c, &ls[i]);
        scene_pop(L, m);
    }
    L->layers = ls;
    L->sc->layers = ls;
    L->sc->nlayers = (uint32_t)i;
}

/* Once the values have slots: PENDING references become slots. */
static int fix_slot(const rf_layer_key_t *key, uint32_t *slot, void *ctx)
{
    const rf_value_t *vals = ctx;
    (void)key;
    if (*slot != RF_PROP_CONST)
        *slot = vals[*slot / 4].slot + *slot % 4;   /* SCENE_PENDING */
    return 0;
}

void scene_fix_layers(const rf_value_t *vals, rf_layer_t *ls, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t nch;
        rf_layer_each_slot(&ls[i], fix_slot, (void *)(uintptr_t)vals);
        /* the children were allocated writable by walk_children; the
         * model only hands them out as const */
        rf_layer_t *ch = (rf_layer_t *)(uintptr_t)rf_layer_children(&ls[i], &nch);
        scene_fix_layers(vals, ch, nch);
    }
}

