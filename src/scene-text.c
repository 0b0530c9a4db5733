/* scene-text.c - `fonts` and what a text layer holds beyond numbers: the
 * template, the font, align, features, variations and per_glyph
 * (scene-v1.md "Assets and their paths", "Text"). Asset files are read
 * here, under the path rules: relative to the scene's folder (or an
 * --assets folder) and never leaving it, a symbolic link included. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "font.h"
#include "scene-int.h"
#include "template.h"
#include "text.h"

/* `fonts` entries at most; built-ins come on top. */
#define MAX_FONTS 64
#define FONTS_CAP (MAX_FONTS + 3)
#define MAX_FEATURES 64

/* ---- assets ---- */

/* Adds rel to the scene's asset_files (scene.h): a new arena array one
 * longer, as assets are few. */
static void note_asset(loader_t *L, const char *rel)
{
    rf_scene_t *sc = L->sc;
    const char **files = rf_arena_alloc(L->arena, (sc->nasset_files + 1) * sizeof *files);
    char *copy = rf_arena_strdup(L->arena, rel);

    if (files == NULL || copy == NULL) {
        scene_err_oom(L);
        return;
    }
    if (sc->nasset_files > 0)
        memcpy(files, sc->asset_files, sc->nasset_files * sizeof *files);
    files[sc->nasset_files++] = copy;
    sc->asset_files = files;
}

/* The one reader of assets (scene-int.h). */
unsigned char *scene_read_asset(loader_t *L, const char *key, const char *rel, size_t max,
                                size_t *plen, int io)
{
    char msg[RF_DIAG_LINE];
    unsigned char *buf = NULL;
    int r = rf_asset_read(L->root, L->assets_root, rel, max, &buf, plen, msg, sizeof msg);
    if (r == RF_ASSET_NOMEM)
        scene_err_oom(L);
    else if (r != RF_ASSET_OK)
        scene_err_key(L, key, "%s", msg);
    if (r == RF_ASSET_UNREADABLE && io)
        L->d->io_error = 1;
    else
        note_asset(L, rel);
    return buf;
}

/* ---- fonts ---- */

static int add_font(loader_t *L, rf_font_t *f)
{
    rf_scene_t *sc = L->sc;
    if (sc->fonts == NULL && (sc->fonts = calloc(FONTS_CAP, sizeof *sc->fonts)) == NULL) {
        rf_font_destroy(f);
        scene_err_oom(L);
        return -1;
    }
    if (sc->nfonts >= FONTS_CAP) {
        rf_font_destroy(f);
        return -1;
    }
    sc->fonts[sc->nfonts++] = f;
    return 0;
}

static const rf_font_t *find_font(const loader_t *L, const char *name)
{
    for (uint32_t i = 0; i < L->sc->nfonts; i++)
        if (strcmp(L->sc->fonts[i]->name, name) == 0)
            return L->sc->fonts[i];
    return NULL;
}

void scene_fonts_destroy(rf_scene_t *sc)
{
    for (uint32_t i = 0; i < sc->nfonts; i++)
        rf_font_destroy(sc->fonts[i]);
    free(sc->fonts);
    sc->fonts = NULL;
    sc->nfonts = 0;
}

void scene_parse_fonts(loader_t *L, const cJSON *obj)
{
    if (!cJSON_IsObject(obj)) {
        scene_err(L, "must be an object mapping font names to files, {\"brand\": "
                  "\"fonts/Brand.ttf\"}, got %s", scene_json_type(obj));
        return;
    }
    int n = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next) {
        qbuf_t a;
        const char *file;
        double w;
        if (++n > MAX_FONTS) {
            scene_err_key(L, c->string, "at most %d fonts", MAX_FONTS);
            return;
        }
        if (!scene_valid_name(c->string) && strchr(c->string, '-') == NULL) {
            scene_err_key(L, c->string, "'%s' is not a font name (letters, digits, '_' and "
                          "'-')", scene_q(&a, c->string));
            continue;
        }
        if (rf_font_builtin(c->string, &file, &w)) {
            scene_err_key(L, c->string, "'%s' is a built-in font: give yours another name",
                          c->string);
            continue;
        }
        if (find_font(L, c->string) != NULL) {
            scene_err_key(L, c->string, "duplicate font '%s'", scene_q(&a, c->string));
            continue;
        }
        if (!cJSON_IsString(c)) {
            scene_err_key(L, c->string, "must be a font file name, got %s", scene_json_type(c));
            continue;
        }
        size_t len;
        unsigned char *bytes = scene_read_asset(L, c->string, c->valuestring, RF_FONT_MAX_BYTES,
                                               &len, 0);
        if (bytes == NULL)
            continue;
        char msg[200];
        rf_font_t *f = rf_font_create(c->string, c->valuestring, bytes, len, msg, sizeof msg);
        if (f == NULL) {
            scene_err_key(L, c->string, "'%s': %s", scene_q(&a, c->valuestring), msg);
            continue;
        }
        add_font(L, f);
    }
}

/* A built-in font, loaded on first use. NULL after an error. */
static const rf_font_t *builtin_font(loader_t *L, const char *key, const char *name)
{
    const rf_font_t *have = find_font(L, name);
    const char *file;
    double wght;
    if (have != NULL)
        return have;
    if (!rf_font_builtin(name, &file, &wght))
        return NULL;
    for (uint32_t i = 0; i < L->sc->nfonts; i++) {
        const rf_font_t *o = L->sc->fonts[i];
        if (!o->builtin || strcmp(o->file, file) != 0)
            continue;
        /* another built-in of this file (sans for sans-bold): shared */
        rf_font_t *font = rf_font_share(o, name);
        if (font == NULL) {
            scene_err_oom(L);
            return NULL;
        }
        font->def_wght = wght;
        return add_font(L, font) == 0 ? font : NULL;
    }
    char dir[4096], path[4200];
    if (rf_font_dir(dir, sizeof dir) != 0) {
        scene_err_key(L, key, "the built-in fonts are missing: runeframe looks in "
                      "$RUNEFRAME_FONT_DIR, next to its binary and in its installed data "
                      "folder (reinstall runeframe)");
        return NULL;
    }
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "rb");
    unsigned char *bytes = NULL;
    size_t len = 0, cap = 0;
    if (f != NULL) {
        for (;;) {
            if (len == cap) {
                size_t nc = cap ? cap * 2 : (1u << 20);
                unsigned char *nb = nc <= RF_FONT_MAX_BYTES * 2u ? realloc(bytes, nc) : NULL;
                if (nb == NULL)
                    break;
                bytes = nb;
                cap = nc;
            }
            size_t got = fread(bytes + len, 1, cap - len, f);
            len += got;
            if (got == 0)
                break;
        }
        fclose(f);
    }
    char msg[200];
    rf_font_t *font = bytes != NULL ? rf_font_create(name, file, bytes, len, msg, sizeof msg)
                                    : NULL;
    if (font == NULL) {
        if (bytes == NULL)
            snprintf(msg, sizeof msg, "%s", strerror(errno));
        scene_err_key(L, key, "the built-in font '%s' (%s): %s", name, path, msg);
        return NULL;
    }
    font->builtin = 1;
    font->def_wght = wght;
    if (add_font(L, font) != 0)
        return NULL;
    return font;
}

static void walk_font(loader_t *L, const cJSON *c, const rf_font_t **out)
{
    qbuf_t a;
    if (!cJSON_IsString(c)) {
        scene_err_key(L, c->string, "must be a font name, got %s", scene_json_type(c));
        return;
    }
    const char *file;
    double w;
    const rf_font_t *f = find_font(L, c->valuestring);
    if (f == NULL && rf_font_builtin(c->valuestring, &file, &w))
        f = builtin_font(L, c->string, c->valuestring);
    if (f != NULL)
        *out = f;
    if (f != NULL || rf_font_builtin(c->valuestring, &file, &w))
        return;
    {
        const char *names[FONTS_CAP + 4];
        size_t n = 0;
        for (uint32_t i = 0; i < L->sc->nfonts; i++)
            if (!L->sc->fonts[i]->builtin)
                names[n++] = L->sc->fonts[i]->name;
        for (size_t i = 0; rf_font_builtin_names[i] != NULL; i++)
            names[n++] = rf_font_builtin_names[i];
        const char *dym = scene_suggest(L, c->valuestring, names, n);
        char list[200];
        if (dym != NULL)
            scene_err_key(L, c->string, "unknown font '%s' (did you mean '%s'?)",
                          scene_q(&a, c->valuestring), dym);
        else
            scene_err_key(L, c->string, "unknown font '%s' (known: %s; add yours under "
                          "\"fonts\")", scene_q(&a, c->valuestring),
                          scene_join(list, sizeof list, names, n));
    }
}

/* ---- the template ---- */

/* The offset of the first byte that is not UTF-8, or len. */
static size_t utf8_bad(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > len)
            return i;
        uint32_t cp = n == 1 ? c : n == 2 ? c & 31 : n == 3 ? c & 15 : c & 7;
        for (size_t k = 1; k < n; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            cp = cp << 6 | (s[i + k] & 63u);
        }
        static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += n;
    }
    return len;
}

static void walk_template(loader_t *L, const cJSON *c, rf_text_content_t *out)
{
    const char *k = c->string;
    if (!cJSON_IsString(c)) {
        scene_err_key(L, k, "must be a string, got %s", scene_json_type(c));
        return;
    }
    const char *s = c->valuestring;
    size_t len = strlen(s), bad = utf8_bad((const unsigned char *)s, len);
    if (len > RF_TEXT_MAX_BYTES) {
        scene_err_key(L, k, "text of %zu bytes: a text layer holds at most %d", len,
                      RF_TEXT_MAX_BYTES);
        return;
    }
    if (bad < len) {
        scene_err_key(L, k, "not valid UTF-8 at byte %zu", bad);
        return;
    }
    char *copy = rf_arena_strdup(L->arena, s);
    size_t npieces = 0, pos = 0;
    rf_tpl_token_t tok;
    char msg[RF_DIAG_LINE];
    int r;
    while ((r = rf_template_next(s, &pos, &tok, msg, sizeof msg)) == 1)
        npieces++;
    if (r < 0) {
        scene_err_key(L, k, "at byte %zu: %s", tok.at, msg);
        return;
    }
    rf_text_piece_t *p = scene_aalloc(L, npieces ? npieces : 1, sizeof *p);
    if (p == NULL || copy == NULL) {
        scene_err_oom(L);
        return;
    }
    size_t maxlen = 0, i = 0;
    pos = 0;
    while (rf_template_next(s, &pos, &tok, msg, sizeof msg) == 1) {
        rf_text_piece_t *q = &p[i++];
        q->slot = RF_PROP_CONST;
        if (!tok.is_value) {
            q->lit = copy + (tok.s - s);
            q->len = (uint32_t)tok.len;
            maxlen += tok.len;
            continue;
        }
        char name[256];
        long vi;
        int comp;
        rf_fmt_t f = { 0, 0, 0, 0 };
        snprintf(name, sizeof name, "%.*s", (int)(tok.len < 255 ? tok.len : 255), tok.s);
        if (tok.fmt != NULL && rf_fmt_parse(tok.fmt, tok.fmtlen, &f, msg, sizeof msg) != 0) {
            scene_err_key(L, k, "{%s}: %s", name, msg);
            continue;
        }
        if (scene_resolve_input(L, name, &vi, &comp, msg, sizeof msg) != 0) {
            scene_err_key(L, k, "{%s}: %s", name, msg);
            continue;
        }
        L->vals[vi].used = 1;
        q->slot = SCENE_PENDING(vi, comp);
        q->fmt_kind = f.kind;
        q->fmt_decimals = f.decimals;
        q->fmt_commas = f.commas;
        q->fmt_percent = f.percent;
        maxlen += RF_FMT_MAX_BYTES;
    }
    out->pieces = p;
    out->npieces = (uint32_t)i;
    out->maxlen = (uint32_t)maxlen;
}

/* ---- features, variations ---- */

/* A 1-4 character OpenType tag (padded with spaces), or 0. */
static uint32_t parse_tag(const char *s, size_t n)
{
    if (n < 1 || n > 4)
        return 0;
    char t[4] = { ' ', ' ', ' ', ' ' };
    for (size_t i = 0; i < n; i++) {
        if (s[i] < 0x21 || s[i] > 0x7E)
            return 0;
        t[i] = s[i];
    }
    return (uint32_t)(unsigned char)t[0] << 24 | (uint32_t)(unsigned char)t[1] << 16 |
           (uint32_t)(unsigned char)t[2] << 8 | (uint32_t)(unsigned char)t[3];
}

static void walk_features(loader_t *L, const cJSON *c, rf_text_features_t *out)
{
    const char *k = c->string;
    if (!cJSON_IsArray(c)) {
        scene_err_key(L, k, "must be an array of OpenType features, [\"tnum\", \"-liga\"], "
                      "got %s", scene_json_type(c));
        return;
    }
    int n = cJSON_GetArraySize(c);
    if (n > MAX_FEATURES) {
        scene_err_key(L, k, "at most %d features", MAX_FEATURES);
        return;
    }
    rf_text_feature_t *f = scene_aalloc(L, n ? (size_t)n : 1, sizeof *f);
    if (f == NULL)
        return;
    size_t m = scene_push(L, k), i = 0;
    for (const cJSON *e = c->child; e != NULL; e = e->next, i++) {
        size_t mi = scene_pushi(L, i);
        qbuf_t a;
        const char *s = cJSON_IsString(e) ? e->valuestring : NULL;
        uint32_t val = 1, tag = 0;
        if (s != NULL) {
            if (*s == '-' || *s == '+')
                val = *s++ == '+';
            const char *eq = strchr(s, '=');
            size_t tl = eq != NULL ? (size_t)(eq - s) : strlen(s);
            tag = parse_tag(s, tl);
            if (eq != NULL) {
                char *end;
                unsigned long v = strtoul(eq + 1, &end, 10);
                if (*end != '\0' || end == eq + 1 || v > 65535)
                    tag = 0;
                val = (uint32_t)v;
            }
        }
        if (tag == 0)
            scene_err(L, "must be an OpenType feature: a tag of 1 to 4 characters, \"-tag\" "
                      "to turn it off or \"tag=N\", got %s%s%s", s ? "\"" : "",
                      s ? scene_q(&a, e->valuestring) : scene_json_type(e), s ? "\"" : "");
        f[i].tag = tag;
        f[i].value = val;
        scene_pop(L, mi);
    }
    scene_pop(L, m);
    out->items = f;
    out->n = (uint32_t)i;
}

static void walk_variations(loader_t *L, const cJSON *c, rf_text_vars_t *out)
{
    const char *k = c->string;
    if (!cJSON_IsObject(c)) {
        scene_err_key(L, k, "must be an object of variable-font axes, {\"wght\": 650}, got %s",
                      scene_json_type(c));
        return;
    }
    int n = cJSON_GetArraySize(c);
    if (n > RF_FONT_MAX_AXES) {
        scene_err_key(L, k, "at most %d axes", RF_FONT_MAX_AXES);
        return;
    }
    rf_text_var_t *v = scene_aalloc(L, n ? (size_t)n : 1, sizeof *v);
    if (v == NULL)
        return;
    size_t m = scene_push(L, k), i = 0;
    for (const cJSON *e = c->child; e != NULL; e = e->next) {
        qbuf_t a;
        uint32_t tag = parse_tag(e->string, strlen(e->string));
        if (tag == 0) {
            scene_err_key(L, e->string, "'%s' is not an axis tag (1 to 4 characters: wght, "
                          "wdth, opsz, ...)", scene_q(&a, e->string));
            continue;
        }
        v[i].tag = tag;
        v[i].v.slot = RF_PROP_CONST;
        scene_walk_numeric(L, e, e->string, P_ANY, &v[i].v);
        i++;
    }
    scene_pop(L, m);
    out->items = v;
    out->n = (uint32_t)i;
}

/* ---- choices, per_glyph ---- */

/* The words of a CHOICE row: "left|center|right". */
static size_t choice_words(const char *spec, char words[][16], const char **ptrs, size_t cap)
{
    size_t n = 0;
    while (*spec != '\0' && n < cap) {
        size_t l = strcspn(spec, "|");
        snprintf(words[n], 16, "%.*s", (int)(l < 15 ? l : 15), spec);
        ptrs[n] = words[n];
        n++;
        spec += l + (spec[l] == '|');
    }
    return n;
}

static void walk_choice(loader_t *L, const cJSON *c, const char *spec, uint8_t *out)
{
    char words[8][16];
    const char *ptrs[8];
    size_t n = choice_words(spec, words, ptrs, 8);
    int v;
    if (scene_enum_field(L, c, c->string, ptrs, n, &v) == F_OK)
        *out = (uint8_t)v;
}

static const char *const glyph_keys[] = { "stagger", "order", "x", "y", "rotate", "scale",
                                          "opacity" };
static const char *const glyph_orders[] = { "forward", "reverse", "center", "edges" };
const scene_names_t scene_glyph_names = SCENE_NAMES(glyph_keys, NULL);
const scene_names_t scene_glyph_order_names = SCENE_NAMES(glyph_orders, NULL);

static void walk_per_glyph(loader_t *L, const cJSON *c, rf_per_glyph_t **out)
{
    if (!cJSON_IsObject(c)) {
        scene_err_key(L, c->string, "must be an object {\"stagger\": 0.03, \"y\": VALUE, ...}, "
                      "got %s", scene_json_type(c));
        return;
    }
    rf_per_glyph_t *g = scene_aalloc(L, 1, sizeof *g);
    if (g == NULL)
        return;
    const rf_prop_t k0 = { RF_PROP_CONST, 0 }, k1 = { RF_PROP_CONST, 1 };
    g->x = g->y = g->rotate = k0;
    g->scale = g->opacity = k1;
    size_t m = scene_push(L, c->string);
    const cJSON *f[7];
    scene_scan_keys(L, c, glyph_keys, 7, f);
    double st = 0;
    if (scene_num_field(L, f[0], "stagger", 0, R_GE0, &st) == F_OK)
        g->stagger = st;
    const char *const *orders = glyph_orders;
    int o;
    if (f[1] != NULL && scene_enum_field(L, f[1], "order", orders, 4, &o) == F_OK)
        g->order = (uint8_t)o;
    rf_prop_t *props[5] = { &g->x, &g->y, &g->rotate, &g->scale, &g->opacity };
    for (int i = 0; i < 5; i++)
        if (f[2 + i] != NULL)
            scene_walk_numeric(L, f[2 + i], glyph_keys[2 + i], P_ANY, props[i]);
    scene_pop(L, m);
    *out = g;
}

void scene_walk_text_key(loader_t *L, const cJSON *c, const rf_layer_key_t *key, void *field)
{
    switch (key->kind) {
    case RF_KEY_TEXT:
        walk_template(L, c, field);
        break;
    case RF_KEY_FONT:
        walk_font(L, c, field);
        break;
    case RF_KEY_CHOICE:
        walk_choice(L, c, key->shape, field);
        break;
    case RF_KEY_FEATURES:
        walk_features(L, c, field);
        break;
    case RF_KEY_VARIATIONS:
        walk_variations(L, c, field);
        break;
    default:
        walk_per_glyph(L, c, field);
        break;
    }
}

void scene_finish_text_key(loader_t *L, const cJSON *c, const rf_layer_key_t *key,
                           rf_layer_t *out)
{
    char *field = (char *)out + key->at;
    if (key->kind == RF_KEY_FONT && *(const rf_font_t **)field == NULL && c == NULL) {
        const rf_font_t *f = builtin_font(L, "font", "sans");
        *(const rf_font_t **)field = f;
        return;
    }
    if (key->kind != RF_KEY_VARIATIONS || c == NULL)
        return;
    /* the font is the one key of this kind's layer that names axes */
    const rf_font_t *font = NULL;
    const rf_layer_class_t *cls = rf_layer_class(out);
    for (uint32_t i = 0; i < cls->nkeys; i++)
        if (cls->keys[i].kind == RF_KEY_FONT)
            font = *(const rf_font_t **)((char *)out + cls->keys[i].at);
    if (font == NULL)
        return;                /* its error is reported */
    const rf_text_vars_t *v = (const rf_text_vars_t *)field;
    size_t m = scene_push(L, c->string);
    for (uint32_t i = 0; i < v->n; i++) {
        if (rf_font_axis(font, v->items[i].tag) != NULL)
            continue;
        char t[5], list[120];
        size_t o = 0;
        uint32_t tg = v->items[i].tag;
        snprintf(t, sizeof t, "%c%c%c%c", tg >> 24, tg >> 16 & 255, tg >> 8 & 255, tg & 255);
        for (uint32_t a = 0; a < font->naxes && o + 8 < sizeof list; a++) {
            uint32_t x = font->axes[a].tag;
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%c%c%c%c", a ? ", " : "",
                                  x >> 24, x >> 16 & 255, x >> 8 & 255, x & 255);
        }
        while (strlen(t) > 0 && t[strlen(t) - 1] == ' ')
            t[strlen(t) - 1] = '\0';
        if (font->naxes == 0)
            scene_err_key(L, t, "font '%s' is not a variable font: it has no axes", font->name);
        else
            scene_err_key(L, t, "font '%s' has no axis '%s' (its axes: %s)", font->name, t, list);
    }
    scene_pop(L, m);
}
