/* scene-schema.c - the JSON Schema (draft-07) of the scene format, made
 * from the loader's own tables, so that it cannot drift from what the
 * loader reads: the keys of every object are the arrays the loader scans
 * that object with (scene-int.h, "the loader's tables"), a layer's keys
 * and their kinds, flags and defaults are the rows of the layer-type table
 * (layer.h), and the words of every enumeration (easings, blend and mask
 * modes, color names and functions, repeat modes, roles, ...) are the
 * arrays the loader looks words up in. What the tables do not say is the
 * JSON type of each kind of field: that is the one list here (field_kinds,
 * by key name, for the keys of value kinds, and key_schema() by the kind
 * of a layer key). A key with no entry there is described as such
 * ("(no schema for this key yet)") and tests/schema.test fails on it.
 *
 * Draft-07 because editors (VS Code's json.schemas and a scene's own
 * "$schema" key) complete and check it everywhere. The schema accepts
 * every scene the loader accepts; it rejects the mistakes that are about
 * the shape of the file (an unknown key, a wrong JSON type, a missing
 * required key, a word not in an enumeration); what needs the scene's
 * meaning (a name that is not defined, a cycle, a range that depends on
 * another key) is left to `runeframe validate`.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "easing.h"
#include "layer.h"
#include "motion.h"
#include "scene-int.h"
#include "scene.h"

#define UNDESCRIBED "(no schema for this key yet)"
#define NAME_RE "[A-Za-z_][A-Za-z0-9_]*"

/* ---- small builders (each returns its first argument, NULL-safe) ---- */

static cJSON *with(cJSON *o, const char *key, cJSON *v)
{
    if (o != NULL && v != NULL)
        cJSON_AddItemToObject(o, key, v);
    else
        cJSON_Delete(v);
    return o;
}

static cJSON *str(cJSON *o, const char *key, const char *s)
{
    return with(o, key, cJSON_CreateString(s));
}

static cJSON *num(cJSON *o, const char *key, double v)
{
    return with(o, key, cJSON_CreateNumber(v));
}

static cJSON *typed(const char *type, const char *desc)
{
    cJSON *o = str(cJSON_CreateObject(), "type", type);
    return desc != NULL ? str(o, "description", desc) : o;
}

static cJSON *ref(const char *def)
{
    char buf[96];
    snprintf(buf, sizeof buf, "#/definitions/%s", def);
    return str(cJSON_CreateObject(), "$ref", buf);
}

static cJSON *add(cJSON *arr, cJSON *v)
{
    if (arr != NULL && v != NULL)
        cJSON_AddItemToArray(arr, v);
    else
        cJSON_Delete(v);
    return arr;
}

/* {"anyOf": [a, b, c]} (c may be NULL), with a description. */
static cJSON *any3(const char *desc, cJSON *a, cJSON *b, cJSON *c)
{
    cJSON *arr = add(add(cJSON_CreateArray(), a), b);
    if (c != NULL)
        add(arr, c);
    cJSON *o = with(cJSON_CreateObject(), "anyOf", arr);
    return desc != NULL ? str(o, "description", desc) : o;
}

static cJSON *strings(const char *const *names, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        add(arr, cJSON_CreateString(names[i]));
    return arr;
}

static cJSON *enum_of(const char *const *names, size_t n, const char *desc)
{
    cJSON *o = with(cJSON_CreateObject(), "enum", strings(names, n));
    return desc != NULL ? str(o, "description", desc) : o;
}

/* The words of s, separated by sep ("a|b|c", "to duration"), as an array
 * of strings (NULL: none). */
static cJSON *words(const char *s, char sep)
{
    cJSON *arr = cJSON_CreateArray();
    for (const char *p = s; p != NULL && *p != '\0';) {
        const char *e = strchr(p, sep);
        size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)(len < 63 ? len : 63), p);
        add(arr, cJSON_CreateString(w));
        p = e != NULL ? e + 1 : NULL;
    }
    return arr;
}

/* The words of "a|b|c" (a CHOICE row's shape) as an enum. */
static cJSON *enum_words(const char *shape, const char *desc)
{
    return str(with(cJSON_CreateObject(), "enum", words(shape, '|')), "description", desc);
}

/* An array of exactly n items of schema item (each a fresh copy). */
static cJSON *tuple(cJSON *item, int n, const char *desc)
{
    cJSON *o = typed("array", desc);
    with(o, "items", item);
    num(o, "minItems", n);
    return num(o, "maxItems", n);
}

/* A closed object: properties (already built), additionalProperties false,
 * and the keys of the space-separated list required. */
static cJSON *closed(cJSON *props, const char *required, const char *desc)
{
    cJSON *o = typed("object", desc);
    with(o, "properties", props);
    cJSON *req = words(required, ' ');
    if (cJSON_GetArraySize(req) > 0)
        with(o, "required", req);
    else
        cJSON_Delete(req);
    return with(o, "additionalProperties", cJSON_CreateFalse());
}

/* A case-insensitive ECMA-262 alternative for word: "[rR][gG][bB]". */
static void ci_word(char *buf, size_t cap, size_t *o, const char *w)
{
    for (; *w != '\0' && *o + 8 < cap; w++) {
        char c = *w;
        if (c >= 'a' && c <= 'z')
            *o += (size_t)snprintf(buf + *o, cap - *o, "[%c%c]", c, c - 'a' + 'A');
        else if (c == '-')
            *o += (size_t)snprintf(buf + *o, cap - *o, "-");
        else
            *o += (size_t)snprintf(buf + *o, cap - *o, "%c", c);
    }
}

/* ---- the field kinds of value bodies, by key name ---- */

/* The JSON types of the keys of the animated kinds (scene_kind_body_names):
 * each key name of those tables has one row; what a row names is a
 * definition below. */
static const struct { const char *name, *def; } field_kinds[] = {
    { "from", "from" },          { "to", "target" },        { "stiffness", "positive" },
    { "damping", "nonneg" },     { "damping_ratio", "nonneg" },
    { "velocity", "velocity" },    { "threshold", "positive" }, { "start", "number" },
    { "delay", "nonneg" },       { "duration", "duration" },  { "bounce", "bounce" },
    { "role", "role" },          { "curve", "curve" },        { "repeat", "repeat_mode" },
    { "mode", "repeat_mode" },   { "iterations", "iterations" },
    { "easing", "easing" },      { "friction", "nonneg" },    { "gravity", "number" },
    { "min", "number" },         { "max", "number" },         { "interp", "interp" },
    { "keys", "keyframes" },     { "at", "nonneg" },
};

static cJSON *field(const char *name)
{
    for (size_t i = 0; i < NELEM(field_kinds); i++)
        if (strcmp(field_kinds[i].name, name) == 0)
            return ref(field_kinds[i].def);
    return str(cJSON_CreateObject(), "description", UNDESCRIBED);
}

/* The body of the animated kind k: its keys, typed. */
static cJSON *kind_body(size_t k, const char *kind)
{
    scene_names_t b = scene_kind_body_names(k);
    cJSON *props = cJSON_CreateObject();
    for (size_t i = 0; i < b.n; i++)
        with(props, b.names[i], field(b.names[i]));
    char desc[96];
    snprintf(desc, sizeof desc, "a %s value (runeframe-scene(5), \"Values\")", kind);
    return closed(props, b.required, desc);
}

/* ---- layers, from the layer-type table ---- */

static cJSON *nonneg_prop(const char *desc)
{
    cJSON *n = typed("number", NULL);
    num(n, "minimum", 0);
    return any3(desc, n, ref("ref"), ref("value_object"));
}

/* One layer key's schema, from its row. */
static cJSON *key_schema(const rf_layer_key_t *k)
{
    char desc[200];
    int nonneg = (k->flags & RF_KEY_NONNEG) != 0;
    switch ((rf_key_kind_t)k->kind) {
    case RF_KEY_NUMBER: {
        if (k->flags & RF_KEY_MIN1) {
            cJSON *n = typed("number", NULL);
            num(num(n, "minimum", 1), "maximum", k->def2);
            snprintf(desc, sizeof desc, "%s: a number in [1, %g], a value name or a value "
                     "object", k->name, k->def2);
            return any3(desc, n, ref("ref"), ref("value_object"));
        }
        snprintf(desc, sizeof desc, "%s: a number%s, a value name or a value object", k->name,
                 nonneg ? " >= 0" : "");
        cJSON *o = nonneg ? nonneg_prop(desc) : any3(desc, ref("number"), ref("ref"),
                                                      ref("value_object"));
        if (!(k->flags & RF_KEY_REQUIRED) && isfinite(k->def))
            num(o, "default", k->def);
        return o;
    }
    case RF_KEY_DASH: {
        snprintf(desc, sizeof desc, "%s: [on, off, ...] lengths, each a number >= 0, a value "
                 "name or a value object", k->name);
        cJSON *o = typed("array", desc);
        return with(o, "items", nonneg_prop(NULL));
    }
    case RF_KEY_PAIR: {
        snprintf(desc, sizeof desc, "%s: %s, two numbers, value names or value objects",
                 k->name, k->shape != NULL ? k->shape : "[a, b]");
        cJSON *o = tuple(ref("property"), 2, desc);
        if (isfinite(k->def) && isfinite(k->def2))
            with(o, "default", add(add(cJSON_CreateArray(), cJSON_CreateNumber(k->def)),
                                   cJSON_CreateNumber(k->def2)));
        return o;
    }
    case RF_KEY_SCALE:
        snprintf(desc, sizeof desc, "%s: one factor for both axes, or %s", k->name,
                 k->shape != NULL ? k->shape : "[sx, sy]");
        return num(any3(desc, ref("property"), tuple(ref("property"), 2, NULL), NULL), "default",
                   k->def);
    case RF_KEY_PAINT:
        return ref("paint");
    case RF_KEY_STRING:
    case RF_KEY_TEXT:
    case RF_KEY_FONT:
    case RF_KEY_IMAGE: {
        static const char *const what[] = {
            [RF_KEY_STRING] = "a string", [RF_KEY_TEXT] = "the text, a template: {NAME} or "
            "{NAME:.1f} shows a value", [RF_KEY_FONT] = "a name in `fonts` or a built-in font",
            [RF_KEY_IMAGE] = "an image file (PNG, JPEG or SVG) in the scene's folder",
        };
        snprintf(desc, sizeof desc, "%s: %s", k->name, what[k->kind]);
        return typed("string", desc);
    }
    case RF_KEY_BOOL:
        snprintf(desc, sizeof desc, "%s: true or false", k->name);
        return typed("boolean", desc);
    case RF_KEY_FOLLOW:
        snprintf(desc, sizeof desc, "%s: the name of a sample_path value", k->name);
        return ref("name");
    case RF_KEY_PATH: {
        cJSON *morph = cJSON_CreateObject();
        for (size_t i = 0; i < scene_morph_names.n; i++)
            with(morph, scene_morph_names.names[i],
                 i == 0 ? tuple(typed("string", NULL), 2, "[A, B]: two paths") :
                 ref("property"));
        snprintf(desc, sizeof desc, "%s: a name in `paths`, SVG path data, or a morph "
                 "{\"mix\": [A, B], \"by\": NUMBER}", k->name);
        return any3(desc, typed("string", NULL), closed(morph, scene_morph_names.required, NULL),
                    NULL);
    }
    case RF_KEY_CHILDREN: {
        if (k->flags & RF_KEY_ONE) {
            snprintf(desc, sizeof desc, "%s: one layer (a group for several)", k->name);
            return str(ref("layer"), "description", desc);
        }
        cJSON *o = typed("array", "children: the group's layers, drawn in order");
        return with(o, "items", ref("layer"));
    }
    case RF_KEY_COUNT: {
        snprintf(desc, sizeof desc, "%s: a whole number >= 1 (each counts as an item)", k->name);
        cJSON *o = typed("integer", desc);
        return num(num(o, "minimum", 1), "maximum", RF_MAX_ITEMS);
    }
    case RF_KEY_SECONDS: {
        snprintf(desc, sizeof desc, "%s: a constant number of seconds in [0, %g]", k->name,
                 k->def2);
        cJSON *o = typed("number", desc);
        num(num(o, "minimum", 0), "maximum", k->def2);
        return isfinite(k->def) ? num(o, "default", k->def) : o;
    }
    case RF_KEY_CHOICE:
        snprintf(desc, sizeof desc, "%s: one of %s", k->name, k->shape);
        return enum_words(k->shape, desc);
    case RF_KEY_FEATURES: {
        cJSON *o = typed("array", "OpenType features: \"tnum\" turns one on, \"-liga\" off");
        return with(o, "items", typed("string", NULL));
    }
    case RF_KEY_VARIATIONS: {
        cJSON *o = typed("object", "variable-font axes: {\"wght\": 650}");
        return with(o, "additionalProperties", ref("property"));
    }
    case RF_KEY_PER_GLYPH: {
        cJSON *props = cJSON_CreateObject();
        for (size_t i = 0; i < scene_glyph_names.n; i++) {
            const char *g = scene_glyph_names.names[i];
            cJSON *s = strcmp(g, "stagger") == 0 ? ref("nonneg")
                     : strcmp(g, "order") == 0
                         ? enum_of(scene_glyph_order_names.names, scene_glyph_order_names.n,
                                   NULL)
                         : ref("property");
            with(props, g, s);
        }
        return closed(props, scene_glyph_names.required,
                      "per_glyph: each glyph's own motion, its values at t - rank * stagger");
    }
    case RF_KEY_BLEND:
        return enum_of(rf_blend_names, RF_BLEND_N, "blend: a CSS mix-blend-mode");
    case RF_KEY_SHADOW: {
        cJSON *o = typed("array", NULL);
        with(o, "items", ref("shadow"));
        return any3("shadow: one shadow or an array of them, the first on top", ref("shadow"), o,
                    NULL);
    }
    case RF_KEY_SHAPE:
        return str(ref("layer"), "description", "clip: a rect, circle, ellipse or path layer");
    case RF_KEY_MASK: {
        cJSON *props = cJSON_CreateObject();
        for (size_t i = 0; i < scene_mask_names.n; i++)
            with(props, scene_mask_names.names[i],
                 i == 0 ? ref("layer") : enum_of(rf_mask_mode_names, RF_MASK_N, NULL));
        return closed(props, scene_mask_names.required,
                      "mask: {\"layer\": LAYER, \"mode\": \"alpha\"}");
    }
    case RF_KEY_TYPE:
        break;
    }
    return str(cJSON_CreateObject(), "description", UNDESCRIBED);
}

/* definitions/layer-NAME: the common keys and the type's own, closed. */
static cJSON *layer_class(const rf_layer_class_t *cls)
{
    cJSON *props = cJSON_CreateObject();
    char req[256] = "type";
    size_t o = strlen(req);
    for (int pass = 0; pass < 2; pass++) {
        const rf_layer_key_t *rows = pass == 0 ? rf_layer_common_keys : cls->keys;
        uint32_t n = pass == 0 ? rf_layer_ncommon_keys : cls->nkeys;
        for (uint32_t i = 0; i < n; i++) {
            const rf_layer_key_t *k = &rows[i];
            if (k->kind == RF_KEY_TYPE) {
                with(props, k->name, str(cJSON_CreateObject(), "const", cls->name));
                continue;
            }
            with(props, k->name, key_schema(k));
            if ((k->flags & RF_KEY_REQUIRED) && o + strlen(k->name) + 2 < sizeof req)
                o += (size_t)snprintf(req + o, sizeof req - o, " %s", k->name);
        }
    }
    char desc[600];
    snprintf(desc, sizeof desc, "a %s layer%s%s", cls->name, cls->needs != NULL ? " (" : "",
             cls->needs != NULL ? cls->needs : "");
    if (cls->needs != NULL)
        snprintf(desc + strlen(desc), sizeof desc - strlen(desc), ")");
    return closed(props, req, desc);
}

/* definitions/layer: "type" picks the row. */
static cJSON *layer_any(void)
{
    const char *names[RF_LAYER_NTYPES];
    cJSON *all = cJSON_CreateArray();
    for (int t = 0; t < RF_LAYER_NTYPES; t++) {
        names[t] = rf_layer_classes[t]->name;
        char def[64];
        snprintf(def, sizeof def, "layer-%s", names[t]);
        cJSON *type = with(cJSON_CreateObject(), "type",
                           str(cJSON_CreateObject(), "const", names[t]));
        cJSON *cond = with(cJSON_CreateObject(), "properties", type);
        with(cond, "required", strings((const char *const[]){ "type" }, 1));
        cJSON *branch = with(cJSON_CreateObject(), "if", cond);
        add(all, with(branch, "then", ref(def)));
    }
    cJSON *o = typed("object", "a layer: \"type\" says which (runeframe-scene(5), \"Layers\")");
    with(o, "properties", with(cJSON_CreateObject(), "type",
                               enum_of(names, RF_LAYER_NTYPES, "the layer type")));
    with(o, "required", strings((const char *const[]){ "type" }, 1));
    return with(o, "allOf", all);
}

/* ---- colors and paints ---- */

static cJSON *color_def(void)
{
    /* #hex, a name, or a function, names and functions case-insensitive */
    static char re[16384];
    size_t o = (size_t)snprintf(re, sizeof re, "^\\s*(#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|"
                                "[0-9a-fA-F]{8})");
    for (size_t i = 0; i < RF_COLOR_NNAMES; i++) {
        o += (size_t)snprintf(re + o, sizeof re - o, "|");
        ci_word(re, sizeof re, &o, rf_color_names[i]);
    }
    size_t nf;
    const char *const *fn = rf_color_functions(&nf);
    for (size_t i = 0; i < nf; i++) {
        o += (size_t)snprintf(re + o, sizeof re - o, "|");
        ci_word(re, sizeof re, &o, fn[i]);
        o += (size_t)snprintf(re + o, sizeof re - o, "\\s*\\(.*");
    }
    snprintf(re + o, sizeof re - o, ")\\s*$");
    cJSON *pat = str(typed("string", NULL), "pattern", re);
    return any3("a CSS color: " RF_COLOR_FORMS,
                enum_of(rf_color_names, RF_COLOR_NNAMES, NULL), pat, NULL);
}

static cJSON *stops_def(void)
{
    cJSON *stop = typed("array", "[offset, color], offset in [0, 1]");
    cJSON *off = typed("number", NULL);
    num(num(off, "minimum", 0), "maximum", 1);
    with(stop, "items", add(add(cJSON_CreateArray(), off), ref("color_or_value")));
    num(num(stop, "minItems", 2), "maxItems", 2);
    return with(typed("array", "gradient stops"), "items", stop);
}

static cJSON *paint_def(void)
{
    cJSON *props = cJSON_CreateObject();
    cJSON *kinds = cJSON_CreateArray();
    for (size_t i = 0; i < scene_color_kind_names.n; i++) {
        const char *kind = scene_color_kind_names.names[i];
        const scene_names_t *body = strcmp(kind, "linear") == 0   ? &scene_linear_names
                                  : strcmp(kind, "radial") == 0 ? &scene_radial_names
                                                                : NULL;
        cJSON *req = cJSON_CreateArray();
        add(req, cJSON_CreateString(kind));
        if (body == NULL) {
            /* mix: the other keys sit beside it */
            for (size_t j = 0; j < scene_mix_names.n; j++) {
                const char *m = scene_mix_names.names[j];
                cJSON *s = strcmp(m, kind) == 0 ? tuple(ref("color_or_value"), 2,
                                                          "[A, B]: two colors")
                         : strcmp(m, "space") == 0
                             ? enum_of(rf_color_space_names, RF_COLOR_NSPACES, "the color space")
                             : ref("property");
                with(props, m, s);
                if (strcmp(m, kind) != 0 && scene_names_needs(scene_mix_names.required, m))
                    add(req, cJSON_CreateString(m));
            }
        } else {
            cJSON *bp = cJSON_CreateObject();
            for (size_t j = 0; j < body->n; j++) {
                const char *b = body->names[j];
                cJSON *s = strcmp(b, "stops") == 0    ? stops_def()
                         : strcmp(b, "radius") == 0 ? nonneg_prop(NULL)
                                                    : tuple(ref("property"), 2, "[x, y]");
                with(bp, b, s);
            }
            with(props, kind, closed(bp, body->required, NULL));
        }
        add(kinds, with(cJSON_CreateObject(), "required", req));
    }
    cJSON *obj = closed(props, NULL, "a mix of two colors or a gradient");
    with(obj, "oneOf", kinds);
    return any3("a color, \"none\", {\"mix\": [A, B], \"by\": NUMBER}, {\"linear\": {...}}, "
                "{\"radial\": {...}}, or a color value: its name or an inline value object",
                ref("color"), str(cJSON_CreateObject(), "const", "none"),
                any3(NULL, obj, ref("name"), ref("value_object")));
}

static cJSON *shadow_def(void)
{
    cJSON *props = cJSON_CreateObject();
    for (size_t i = 0; i < scene_shadow_names.n; i++) {
        const char *s = scene_shadow_names.names[i];
        with(props, s, strcmp(s, "color") == 0 ? ref("color_or_value")
                       : strcmp(s, "blur") == 0 ? nonneg_prop(NULL) : ref("property"));
    }
    return closed(props, scene_shadow_names.required, "a drop shadow {x, y, blur, color}");
}

/* ---- easings ---- */

static cJSON *easing_def(int cubic_only)
{
    size_t nk, nf;
    const char *const *kw = rf_easing_words(0, cubic_only, &nk);
    const char *const *fn = rf_easing_words(1, cubic_only, &nf);
    char re[256];
    size_t o = (size_t)snprintf(re, sizeof re, "^\\s*(");
    for (size_t i = 0; i < nf; i++)
        o += (size_t)snprintf(re + o, sizeof re - o, "%s%s", i ? "|" : "", fn[i]);
    snprintf(re + o, sizeof re - o, ")\\s*\\(");
    cJSON *four = tuple(ref("number"), 4, "[x1, y1, x2, y2] of a cubic-bezier");
    cJSON *named = enum_of(kw, nk, NULL);
    cJSON *func = str(typed("string", NULL), "pattern", re);
    cJSON *words = any3(NULL, named, func, NULL);
    if (cubic_only)
        return any3("a curve: a CSS cubic keyword, cubic-bezier(x1, y1, x2, y2) or [x1, y1, x2, "
                    "y2]", words, four, NULL);
    return any3("an easing: a CSS or easings.net name, steps(), cubic-bezier(), linear(), [x1, "
                "y1, x2, y2] or {\"sampled\": EXPR, \"samples\": N}", words, four,
                ref("sampled"));
}

static cJSON *sampled_def(void)
{
    cJSON *props = cJSON_CreateObject();
    for (size_t i = 0; i < scene_sampled_names.n; i++) {
        const char *s = scene_sampled_names.names[i];
        cJSON *n = strcmp(s, "samples") == 0
                       ? num(num(typed("integer", NULL), "minimum", 2), "maximum", 4096)
                       : typed("string", "an expression in p");
        with(props, s, n);
    }
    return closed(props, scene_sampled_names.required, "a sampled easing");
}

/* ---- values ---- */

static cJSON *value_object_def(void)
{
    cJSON *props = cJSON_CreateObject();
    cJSON *one = cJSON_CreateArray();
    for (size_t k = 0; k < scene_kind_names.n; k++) {
        const char *kind = scene_kind_names.names[k];
        char def[64];
        snprintf(def, sizeof def, "kind-%s", kind);
        with(props, kind, ref(def));
        add(one, with(cJSON_CreateObject(), "required", strings(&kind, 1)));
    }
    for (size_t i = 0; i < scene_value_extra_names.n; i++)
        with(props, scene_value_extra_names.names[i],
             typed("boolean", "kept as it is under reduced motion"));
    cJSON *o = closed(props, NULL, "a value: exactly one kind, {\"spring\": {...}}, "
                      "{\"tween\": {...}}, {\"expr\": \"...\"}, ...");
    return with(o, "oneOf", one);
}

static cJSON *sequence_def(void)
{
    cJSON *props = cJSON_CreateObject();
    cJSON *one = cJSON_CreateArray();
    for (size_t i = 0; i < scene_entry_names.n; i++)
        with(props, scene_entry_names.names[i], field(scene_entry_names.names[i]));
    for (size_t k = 0; k < scene_kind_names.n; k++) {
        if (scene_kind_body_names(k).n == 0)
            continue;          /* only the animated kinds are entries */
        const char *kind = scene_kind_names.names[k];
        char def[64];
        snprintf(def, sizeof def, "kind-%s", kind);
        with(props, kind, ref(def));
        add(one, with(cJSON_CreateObject(), "required", strings(&kind, 1)));
    }
    cJSON *entry = closed(props, scene_entry_names.required,
                          "a sequence entry {\"at\": seconds, KIND: {...}}");
    with(entry, "oneOf", one);
    cJSON *o = typed("array", "the entries, in time order");
    num(o, "minItems", 1);
    return with(o, "items", entry);
}

static cJSON *sample_def(void)
{
    cJSON *props = cJSON_CreateObject();
    for (size_t i = 0; i < scene_sample_names.n; i++) {
        const char *s = scene_sample_names.names[i];
        with(props, s, strcmp(s, "path") == 0
                           ? typed("string", "a name in `paths` or SVG path data")
                           : ref("property"));
    }
    return closed(props, scene_sample_names.required,
                  "a point moving along a path: NAME.x, NAME.y and NAME.angle");
}

static cJSON *keyframes_def(void)
{
    cJSON *key = typed("array", "[time, value] or [time, value, easing], time in [0, 1]");
    with(key, "items", add(add(add(cJSON_CreateArray(), ref("number")), ref("target")),
                           ref("easing")));
    num(num(key, "minItems", 2), "maxItems", 3);
    cJSON *o = typed("array", "the keys, times from 0 to 1");
    num(o, "minItems", 2);
    return with(o, "items", key);
}

/* ---- the top level ---- */

static cJSON *names_object(const scene_names_t *nm, cJSON *(*kind)(const char *),
                           const char *desc)
{
    cJSON *props = cJSON_CreateObject();
    for (size_t i = 0; i < nm->n; i++)
        with(props, nm->names[i], kind(nm->names[i]));
    return closed(props, nm->required, desc);
}

static cJSON *canvas_key(const char *k)
{
    if (strcmp(k, "background") == 0)
        return ref("color_or_value");
    cJSON *n = typed("integer", "pixels");
    return num(num(n, "minimum", 1), "maximum", RF_MAX_SIDE);
}

static cJSON *timeline_key(const char *k)
{
    if (strcmp(k, "fps") == 0) {
        cJSON *n = typed("number", "frames per second, in (0, 1000] (default 60)");
        return num(num(n, "exclusiveMinimum", 0), "maximum", 1000);
    }
    return any3("seconds, or \"auto\": until every value has settled", ref("positive"),
                str(cJSON_CreateObject(), "const", "auto"), NULL);
}

static cJSON *checks_key(const char *k)
{
    cJSON *o = typed("array", strcmp(k, "frames") == 0 ? "frame numbers" : "times in seconds");
    num(o, "minItems", 1);
    cJSON *item = strcmp(k, "frames") == 0 ? typed("integer", NULL) : ref("nonneg");
    if (strcmp(k, "frames") == 0)
        num(item, "minimum", 0);
    return with(o, "items", item);
}

static cJSON *rm_key(const char *k)
{
    if (strcmp(k, "policy") == 0)
        return enum_of(scene_rm_policy_names.names, scene_rm_policy_names.n,
                       "snap: jump to the end; scale: play faster");
    cJSON *n = typed("number", "the time scale, > 0 and <= 1");
    return num(num(n, "exclusiveMinimum", 0), "maximum", 1);
}

static cJSON *scheme_key(const char *k)
{
    (void)k;
    return ref(strcmp(k, "stiffness") == 0 ? "positive" : "nonneg");
}

static cJSON *role_spring(const char *k)
{
    (void)k;
    return names_object(&scene_scheme_spring_names, scheme_key, "the role's spring");
}

static cJSON *top_key(const char *k);

static cJSON *definitions(void)
{
    cJSON *d = cJSON_CreateObject();
    with(d, "number", typed("number", NULL));
    cJSON *nn = typed("number", ">= 0");
    with(d, "nonneg", num(nn, "minimum", 0));
    cJSON *pos = typed("number", "> 0");
    with(d, "positive", num(pos, "exclusiveMinimum", 0));
    cJSON *b = typed("number", "the spring's bounce, > -1 and < 1");
    with(d, "bounce", num(num(b, "exclusiveMinimum", -1), "exclusiveMaximum", 1));
    cJSON *it = typed("integer", "how many times it plays");
    with(d, "iterations", num(num(it, "minimum", 1), "maximum", 4294967295.0));
    with(d, "name", str(typed("string", "a name: a letter or '_', then letters, digits, '_'"),
                        "pattern", "^" NAME_RE "$"));
    with(d, "ref", str(typed("string", "a value name, or NAME.x, NAME.y or NAME.angle of a "
                             "sample_path value"), "pattern", "^" NAME_RE "(\\." NAME_RE ")?$"));
    cJSON *vec = typed("array", "a vector: 2 to 4 numbers, one per component");
    with(vec, "items", ref("number"));
    with(d, "vector", num(num(vec, "minItems", 2), "maxItems", 4));
    with(d, "target", any3("a number, a vector of 2 to 4 numbers, or a color", ref("number"),
                           ref("vector"), ref("color")));
    with(d, "velocity", any3("units per second: a number, or one per component (a color's "
                             "four channels per second)", ref("number"), ref("vector"), NULL));
    with(d, "from", any3("the start: a number, a vector, a color, or the name of a value to "
                         "start from its state", ref("target"), ref("name"), NULL));
    with(d, "property", any3("a number, a value name or a value object", ref("number"),
                             ref("ref"), ref("value_object")));
    with(d, "value", any3("a constant or a value object", ref("number"), ref("value_object"),
                          NULL));
    with(d, "value_object", value_object_def());
    for (size_t k = 0; k < scene_kind_names.n; k++) {
        const char *kind = scene_kind_names.names[k];
        char def[64];
        snprintf(def, sizeof def, "kind-%s", kind);
        cJSON *s = scene_kind_body_names(k).n > 0 ? kind_body(k, kind)
                 : strcmp(kind, "sequence") == 0 ? sequence_def()
                 : strcmp(kind, "expr") == 0
                     ? typed("string", "an expression such as \"2*x + sin(t)\"")
                 : strcmp(kind, "sample_path") == 0
                     ? sample_def()
                     : str(cJSON_CreateObject(), "description", UNDESCRIBED);
        with(d, def, s);
    }
    cJSON *pol = cJSON_CreateObject();
    for (size_t i = 0; i < scene_policy_names.n; i++)
        with(pol, scene_policy_names.names[i], ref(i == 1 ? "nonneg" : "positive"));
    with(d, "duration", any3("seconds > 0, or a {\"speed\", \"min\", \"max\"} policy",
                             ref("positive"), closed(pol, scene_policy_names.required, NULL),
                             NULL));
    with(d, "role", enum_of(rf_motion_roles, RF_ROLES, "a motion-scheme role"));
    with(d, "repeat_mode", enum_of(scene_repeat_mode_names.names, scene_repeat_mode_names.n,
                                   "how it repeats"));
    with(d, "interp", enum_of(scene_interp_names.names, scene_interp_names.n,
                              "interpolation between keys"));
    with(d, "easing", easing_def(0));
    with(d, "curve", easing_def(1));
    with(d, "sampled", sampled_def());
    with(d, "keyframes", keyframes_def());
    with(d, "color", color_def());
    with(d, "color_or_value", any3("a color, or a color value: its name or an inline value "
                                   "object", ref("color"), ref("name"), ref("value_object")));
    with(d, "paint", paint_def());
    with(d, "shadow", shadow_def());
    with(d, "layer", layer_any());
    for (int t = 0; t < RF_LAYER_NTYPES; t++) {
        char def[64];
        snprintf(def, sizeof def, "layer-%s", rf_layer_classes[t]->name);
        with(d, def, layer_class(rf_layer_classes[t]));
    }
    return d;
}

static cJSON *top_key(const char *k)
{
    if (strcmp(k, "runeframe") == 0)
        return str(num(cJSON_CreateObject(), "const", 1), "description",
                   "the format version: 1");
    if (strcmp(k, "$schema") == 0)
        return typed("string", "where an editor finds this schema");
    if (strcmp(k, "canvas") == 0)
        return names_object(&scene_canvas_names, canvas_key, "the picture: width, height, "
                            "background");
    if (strcmp(k, "timeline") == 0)
        return names_object(&scene_timeline_names, timeline_key, "fps and duration");
    if (strcmp(k, "checks") == 0)
        return names_object(&scene_checks_names, checks_key,
                            "the frames `runeframe check` compares: times or frames");
    if (strcmp(k, "reduced_motion") == 0)
        return names_object(&scene_rm_names, rm_key, "what --reduced-motion does");
    if (strcmp(k, "values") == 0 || strcmp(k, "paths") == 0 || strcmp(k, "fonts") == 0) {
        const char *what = k[0] == 'v' ? "named values" : k[0] == 'p' ? "named SVG path data"
                                                                      : "named font files";
        cJSON *o = typed("object", what);
        if (k[0] == 'v')
            with(o, "propertyNames", ref("name"));
        return with(o, "additionalProperties", k[0] == 'v' ? ref("value")
                                                           : typed("string", NULL));
    }
    if (strcmp(k, "layers") == 0)
        return with(typed("array", "the layers, drawn in order"), "items", ref("layer"));
    if (strcmp(k, "states") == 0) {
        /* a state: value names to their values there */
        cJSON *st = with(typed("object", "a state: value names and their values in it"),
                         "propertyNames", ref("name"));
        with(st, "additionalProperties", ref("target"));
        cJSON *o = with(typed("object", "named states (runeframe-scene(5), STATES AND "
                              "STORYBOARDS)"), "propertyNames", ref("name"));
        return with(o, "additionalProperties", st);
    }
    if (strcmp(k, "transitions") == 0) {
        /* one kind, its body without from/to/start/velocity */
        cJSON *one = cJSON_CreateObject();
        with(one, "propertyNames", enum_of(scene_story_trans_names.names,
                                            scene_story_trans_names.n, NULL));
        num(num(one, "minProperties", 1), "maxProperties", 1);
        str(one, "type", "object");
        cJSON *o = typed("object", "how each value moves between states: a value name or "
                         "\"*\" for the rest, to {KIND: {...}} without from, to, start, "
                         "velocity");
        return with(o, "additionalProperties", one);
    }
    if (strcmp(k, "storyboard") == 0) {
        cJSON *props = cJSON_CreateObject();
        with(props, scene_story_step_names.names[0], ref("nonneg"));
        with(props, scene_story_step_names.names[1], ref("name"));
        cJSON *step = closed(props, scene_story_step_names.required, "a step: {\"at\": "
                             "seconds, \"state\": NAME}");
        return with(typed("array", "when each state is entered, in time order"), "items", step);
    }
    if (strcmp(k, "motion_scheme") == 0)
        return any3("\"standard\", \"expressive\", or an object mapping roles to springs",
                    enum_of(scene_scheme_names.names, scene_scheme_names.n, NULL),
                    names_object(&(const scene_names_t){ rf_motion_roles, RF_ROLES, NULL },
                                 role_spring, NULL),
                    NULL);
    return str(cJSON_CreateObject(), "description", UNDESCRIBED);
}

char *rf_scene_schema(void)
{
    scene_json_hooks();
    cJSON *root = cJSON_CreateObject();
    str(root, "$schema", "http://json-schema.org/draft-07/schema#");
    str(root, "title", "runeframe scene, format version 1");
    str(root, "description", "A runeframe scene (runeframe-scene(5)). Generated by `runeframe "
        "schema` from the loader's tables; `runeframe validate` checks what a schema cannot.");
    with(root, "definitions", definitions());
    cJSON *schema = names_object(&scene_top_names, top_key, NULL);
    /* merge the top level's type, properties and required into the root */
    for (cJSON *c = schema->child; c != NULL;) {
        cJSON *next = c->next;
        if (strcmp(c->string, "description") != 0)
            cJSON_AddItemToObject(root, c->string, cJSON_DetachItemViaPointer(schema, c));
        c = next;
    }
    cJSON_Delete(schema);
    char *out = cJSON_Print(root);
    cJSON_Delete(root);
    if (out == NULL)
        return NULL;
    /* two spaces for each of cJSON's indenting tabs, ": " for ":\t" (a tab
     * inside a string is written \t, so every raw tab is layout) */
    size_t n = strlen(out);
    char *text = malloc(2 * n + 1), *w = text;
    for (const char *r = out; text != NULL && *r != '\0'; r++) {
        if (*r != '\t') {
            *w++ = *r;
        } else if (r > out && r[-1] == ':') {
            *w++ = ' ';
        } else {
            *w++ = ' ';
            *w++ = ' ';
        }
    }
    if (text != NULL)
        *w = '\0';
    cJSON_free(out);
    return text;
}
