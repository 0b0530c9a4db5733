/* scene-field.c - the loader's errors and messages, and typed fields:
 * numbers, integers, enums, easings and colors checked at their JSON
 * pointers, and the finiteness of every number in the file. */
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

int scene_nerrors(const loader_t *L)
{
    return L->d->count + L->d->dropped;
}

size_t scene_push(loader_t *L, const char *seg)
{
    return rf_pointer_push(L->ptr, sizeof L->ptr, seg);
}

size_t scene_pushi(loader_t *L, size_t i)
{
    return rf_pointer_push_index(L->ptr, sizeof L->ptr, i);
}

void scene_pop(loader_t *L, size_t mark)
{
    L->ptr[mark] = '\0';
}

/* The message of fmt at pointer ptr (formatted before the pointer is read,
 * so an argument may point into L->ptr). */
/* A message of a storyboard's synthesized values (scene-story.c) is
 * stored at the user's key, once: a transition that several values use
 * would otherwise say the same thing for each of them. */
static void story_dedup(loader_t *L, const char *ptr, int before)
{
    if (ptr[0] != '#' || L->d->count <= before)
        return;
    for (int k = 0; k < before; k++)
        if (strcmp(L->d->msg[k], L->d->msg[before]) == 0) {
            L->d->count = before;
            return;
        }
}

static void diag_at(loader_t *L, const char *ptr, const char *msg)
{
    char pb[sizeof L->ptr];
    int before = L->d->count;
    rf_diag_at(L->d, scene_story_ptr(L, ptr, pb, sizeof pb), "%s", msg);
    story_dedup(L, ptr, before);
}

static void err_v(loader_t *L, const char *ptr, const char *fmt, va_list ap)
{
    char buf[RF_DIAG_LINE];
    vsnprintf(buf, sizeof buf, fmt, ap);
    diag_at(L, ptr, buf);
}

/* An error at the current pointer. */
void scene_err(loader_t *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_v(L, L->ptr, fmt, ap);
    va_end(ap);
}

/* An error at member key of the current object. */
void scene_err_key(loader_t *L, const char *key, const char *fmt, ...)
{
    char buf[RF_DIAG_LINE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap); /* before the push: key may be in an argument */
    va_end(ap);
    size_t m = scene_push(L, key);
    diag_at(L, L->ptr, buf);
    scene_pop(L, m);
}

/* An error at a pointer recorded earlier (the resolve and build stages). */
void scene_err_at(loader_t *L, const char *ptr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_v(L, ptr, fmt, ap);
    va_end(ap);
}

/* A positional error inside a string (an expression, path data): the
 * message "col N: ...", then the text and a caret under column col (in
 * characters) on two more lines of the same message, as the CLI prints
 * them. rf_diag_at() keeps a message on one line, so the two lines are
 * appended to the stored message; they are left out when the message would
 * not fit in RF_DIAG_LINE. */
void scene_err_caret(loader_t *L, const char *ptr, const char *text, size_t len, int col,
                     const char *msg)
{
    int before = L->d->count;
    char pb[sizeof L->ptr];
    rf_diag_at(L->d, scene_story_ptr(L, ptr, pb, sizeof pb), "%s", msg);
    if (L->d->count == before)
        return;                /* dropped past RF_DIAG_MAX */
    rf_loc_attach_col(L->d->msg[L->d->count - 1], RF_DIAG_LINE, text, len, col);
    story_dedup(L, ptr, before);
}

void scene_err_oom(loader_t *L)
{
    if (!L->oom) {
        L->oom = 1;
        L->d->io_error = 1;
        rf_diag_file(L->d, "out of memory");
    }
}

void *scene_aalloc(loader_t *L, size_t count, size_t size)
{
    void *p = rf_arena_calloc(L->arena, count == 0 ? 1 : count, size);
    if (p == NULL)
        scene_err_oom(L);
    return p;
}

/* rf_arena_alloc for modules that take an allocator (easing, expr, path). */
void *scene_arena_alloc_fn(void *ctx, size_t size)
{
    return rf_arena_alloc(ctx, size);
}

/* ------------------------------------------------------------------ */
/* Message helpers                                                      */


const char *scene_num(nbuf_t *b, double x)
{
    return rf_num_short(b->s, x);
}

/* A key or string as it may appear inside quotes in a message: control
 * characters escaped, long text cut (on a UTF-8 boundary) with "...". */
const char *scene_q(qbuf_t *b, const char *s)
{
    size_t o = 0, cap = sizeof b->s;
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (o + 7 + 4 > cap) {
            /* cut before a partial UTF-8 sequence: drop continuation bytes
             * and their lead byte */
            while (o > 0 && ((unsigned char)b->s[o - 1] & 0xC0) == 0x80)
                o--;
            if (o > 0 && ((unsigned char)b->s[o - 1] & 0xC0) == 0xC0)
                o--;
            memcpy(b->s + o, "...", 4);
            return b->s;
        }
        if (*p < 0x20 || *p == 0x7F) {
            const char *e = *p == '\n' ? "\\n" : *p == '\t' ? "\\t" : *p == '\r' ? "\\r" : NULL;
            if (e != NULL)
                o += (size_t)snprintf(b->s + o, cap - o, "%s", e);
            else
                o += (size_t)snprintf(b->s + o, cap - o, "\\u%04X", (unsigned)*p);
        } else {
            b->s[o++] = (char)*p;
        }
    }
    b->s[o] = '\0';
    return b->s;
}

const char *scene_json_type(const cJSON *it)
{
    static const struct { int type; const char *name; } names[] = {
        { cJSON_Number, "a number" }, { cJSON_String, "a string" }, { cJSON_Object, "an object" },
        { cJSON_Array, "an array" },  { cJSON_True, "true" },       { cJSON_False, "false" },
    };
    for (size_t i = 0; i < NELEM(names); i++)
        if (it != NULL && (it->type & 0xFF) == names[i].type)
            return names[i].name;
    return "null";
}

/* "a, b, c" into buf. */
const char *scene_join(char *buf, size_t cap, const char *const *names, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && o < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", names[i]);
    return buf;
}

/* "\"a\", \"b\" or \"c\"" into buf. */
static const char *join_alts(char *buf, size_t cap, const char *const *names, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && o < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s\"%s\"",
                              i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
    return buf;
}

int scene_find_name(const char *const *names, size_t n, const char *s)
{
    /* the first byte before strcmp: most names differ there (a layer's
     * keys are looked up in lists of some 40, 3,000 layers a scene) */
    for (size_t i = 0; i < n; i++)
        if (names[i][0] == s[0] && strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

/* A did-you-mean, skipped once the message would be dropped anyway: a
 * file with 50,000 bad references must not cost 50,000 searches over
 * 50,000 names. */
const char *scene_suggest(const loader_t *L, const char *word, const char *const *names, size_t n)
{
    if (rf_diag_full(L->d))
        return NULL;
    return rf_did_you_mean(word, names, n);
}

/* The unknown-key message, with a suggestion or else the known keys. */
void scene_err_unknown_key(loader_t *L, const char *key, const char *what, const char *const *names,
                           size_t n)
{
    qbuf_t a;
    const char *dym = scene_suggest(L, key, names, n);
    if (dym != NULL) {
        scene_err_key(L, key, "unknown %s '%s' (did you mean '%s'?)", what, scene_q(&a, key), dym);
    } else {
        char list[600];
        scene_err_key(L, key, "unknown %s '%s' (known: %s)", what, scene_q(&a, key),
                      scene_join(list, sizeof list, names, n));
    }
}

/* Maps the members of obj onto names[0..n): found[k] is the member named
 * names[k] (the first, when repeated) or NULL. Unknown and repeated keys
 * are reported at their pointer. */
void scene_scan_keys(loader_t *L, const cJSON *obj, const char *const *names, size_t n,
                     const cJSON **found)
{
    for (size_t k = 0; k < n; k++)
        found[k] = NULL;
    for (const cJSON *c = obj->child; c != NULL; c = c->next) {
        int k = scene_find_name(names, n, c->string);
        qbuf_t a;
        if (k < 0)
            scene_err_unknown_key(L, c->string, "key", names, n);
        else if (found[k] != NULL)
            scene_err_key(L, c->string, "duplicate key '%s'", scene_q(&a, c->string));
        else
            found[k] = c;
    }
}

const cJSON *scene_get(const char *const *names, size_t n, const cJSON **found, const char *name)
{
    int k = scene_find_name(names, n, name);
    return k < 0 ? NULL : found[k];
}

/* An object whose keys the file names (values, paths): NULL after an
 * error, else the flags of its repeated keys (scene_dup_flags; free them). */
unsigned char *scene_want_named(loader_t *L, const cJSON *obj, const char *what, size_t *pn)
{
    if (!scene_want_object(L, obj, what))
        return NULL;
    return scene_dup_flags(L, obj, pn);
}

/* For objects with free-form keys (values, paths): flags[i] = 1 when child i
 * repeats an earlier key. Sorting keeps this O(n log n) for 100,000 values. */
typedef struct keyref { const char *s; size_t i; } keyref_t;

static int keyref_cmp(const void *a, const void *b)
{
    const keyref_t *x = a, *y = b;
    int c = strcmp(x->s, y->s);
    if (c != 0)
        return c;
    return x->i < y->i ? -1 : x->i > y->i;
}

unsigned char *scene_dup_flags(loader_t *L, const cJSON *obj, size_t *pn)
{
    size_t n = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next)
        n++;
    *pn = n;
    unsigned char *flags = calloc(n ? n : 1, 1);
    keyref_t *refs = malloc((n ? n : 1) * sizeof *refs);
    if (flags == NULL || refs == NULL) {
        free(flags);
        free(refs);
        scene_err_oom(L);
        return NULL;
    }
    size_t i = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next, i++) {
        refs[i].s = c->string;
        refs[i].i = i;
    }
    qsort(refs, n, sizeof *refs, keyref_cmp);
    for (i = 1; i < n; i++)
        if (strcmp(refs[i].s, refs[i - 1].s) == 0)
            flags[refs[i].i] = 1;
    free(refs);
    return flags;
}

/* Counts one item against RF_MAX_ITEMS; nonzero once past the limit (the
 * first time with an error at the current pointer). */
int scene_count_items(loader_t *L, size_t n)
{
    if (L->items_over)
        return 1;
    L->items += n;
    if (L->items > RF_MAX_ITEMS) {
        L->items_over = 1;
        scene_err(L, "too many items: a scene has at most %u values, layers, path segments "
                  "and sequence entries in all", (unsigned)RF_MAX_ITEMS);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Typed fields                                                         */

/* 1 when it is an object; else "must be WHAT, got TYPE" and 0. */
int scene_want_object(loader_t *L, const cJSON *it, const char *what)
{
    if (cJSON_IsObject(it))
        return 1;
    scene_err(L, "must be %s, got %s", what, scene_json_type(it));
    return 0;
}

/* A finite number; non-finite ones were reported by the finiteness pass. */
int scene_want_number(loader_t *L, const cJSON *it, const char *key, double *out)
{
    if (it == NULL)
        return F_ABSENT;
    if (!cJSON_IsNumber(it)) {
        scene_err_key(L, key, "must be a number, got %s", scene_json_type(it));
        return F_BAD;
    }
    if (!isfinite(it->valuedouble))
        return F_BAD;
    *out = it->valuedouble;
    return F_OK;
}

/* scene_want_number, and a missing member is an error when required. */
static int required_number(loader_t *L, const cJSON *it, const char *key, int required,
                           double *out)
{
    int r = scene_want_number(L, it, key, out);
    if (r == F_ABSENT && required) {
        scene_err(L, "missing required key '%s'", key);
        return F_BAD;
    }
    return r;
}

/* A number member with a range; *out is left alone unless it is valid. */
int scene_num_field(loader_t *L, const cJSON *it, const char *key, int required, int range,
                    double *out)
{
    double v = 0;
    int r = required_number(L, it, key, required, &v);
    nbuf_t b;
    if (r != F_OK)
        return r;
    if (range == R_GT0 && !(v > 0)) {
        scene_err_key(L, key, "must be > 0, got %s", scene_num(&b, v));
        return F_BAD;
    }
    if (range == R_GE0 && !(v >= 0)) {
        scene_err_key(L, key, "must be >= 0, got %s", scene_num(&b, v));
        return F_BAD;
    }
    *out = v;
    return F_OK;
}

/* An integer member in [lo, hi]. */
int scene_int_field(loader_t *L, const cJSON *it, const char *key, int required, double lo,
                    double hi, double *out)
{
    double v = 0;
    int r = required_number(L, it, key, required, &v);
    nbuf_t b, b1, b2;
    if (r != F_OK)
        return r;
    if (v != floor(v)) {
        scene_err_key(L, key, "must be an integer, got %s", scene_num(&b, v));
        return F_BAD;
    }
    if (v < lo || v > hi) {
        if (lo == 1 && hi == 4294967295.0 && v < lo)
            scene_err_key(L, key, "must be a positive integer, got %s", scene_num(&b, v));
        else
            scene_err_key(L, key, "must be an integer in %s..%s, got %s", scene_num(&b1, lo),
                          scene_num(&b2, hi), scene_num(&b, v));
        return F_BAD;
    }
    *out = v;
    return F_OK;
}

int scene_enum_field(loader_t *L, const cJSON *it, const char *key, const char *const *names,
                     size_t n, int *out)
{
    char alts[200];
    qbuf_t a;
    if (it == NULL)
        return F_ABSENT;
    if (!cJSON_IsString(it)) {
        scene_err_key(L, key, "must be %s, got %s", join_alts(alts, sizeof alts, names, n),
                      scene_json_type(it));
        return F_BAD;
    }
    int k = scene_find_name(names, n, it->valuestring);
    if (k >= 0) {
        *out = k;
        return F_OK;
    }
    const char *dym = scene_suggest(L, it->valuestring, names, n);
    if (dym != NULL)
        scene_err_key(L, key, "must be %s, got \"%s\" (did you mean \"%s\"?)",
                      join_alts(alts, sizeof alts, names, n), scene_q(&a, it->valuestring), dym);
    else
        scene_err_key(L, key, "must be %s, got \"%s\"", join_alts(alts, sizeof alts, names, n),
                      scene_q(&a, it->valuestring));
    return F_BAD;
}

/* An easing: a string for rf_easing_parse(), or [x1, y1, x2, y2]. The
 * `bezier` kind (cubic_only) clamps every component; elsewhere a CSS
 * cubic-bezier needs x1 and x2 in [0, 1]. */
int scene_easing_field(loader_t *L, const cJSON *it, const char *key, int cubic_only,
                       rf_easing_t *out)
{
    const char *what = cubic_only ? "a curve name" : "an easing name";
    if (it == NULL)
        return F_ABSENT;
    if (cJSON_IsString(it)) {
        char why[256];
        if (rf_easing_parse(out, it->valuestring, cubic_only, scene_arena_alloc_fn, L->arena,
                            why, sizeof why) != 0) {
            scene_err_key(L, key, "%s", why);
            return F_BAD;
        }
        return F_OK;
    }
    if (cJSON_IsObject(it) && !cubic_only)
        return scene_sampled_easing(L, it, key, out);
    if (!cJSON_IsArray(it)) {
        scene_err_key(L, key, cubic_only ? "must be %s or an array [x1, y1, x2, y2], got %s"
                                         : "must be %s, an array [x1, y1, x2, y2] or "
                                           "{\"sampled\": EXPR, \"samples\": N}, got %s", what,
                      scene_json_type(it));
        return F_BAD;
    }
    int n = cJSON_GetArraySize(it);
    if (n != 4) {
        scene_err_key(L, key, "a cubic-bezier needs 4 numbers [x1, y1, x2, y2], got %d", n);
        return F_BAD;
    }
    double p[4] = { 0, 0, 0, 0 };
    int bad = 0, i = 0;
    size_t m = scene_push(L, key);
    for (const cJSON *c = it->child; c != NULL; c = c->next, i++) {
        char idx[16];
        snprintf(idx, sizeof idx, "%d", i);
        if (scene_want_number(L, c, idx, &p[i]) != F_OK) {
            bad = 1;
            continue;
        }
        if (!cubic_only && (i == 0 || i == 2) && !(p[i] >= 0 && p[i] <= 1)) {
            nbuf_t b;
            scene_err_key(L, idx, "cubic-bezier %s must be in [0, 1], got %s",
                          i == 0 ? "x1" : "x2", scene_num(&b, p[i]));
            bad = 1;
        }
    }
    scene_pop(L, m);
    if (bad)
        return F_BAD;
    rf_easing_init_cubic(out, p[0], p[1], p[2], p[3], cubic_only);
    return F_OK;
}

/* A color string (color.h: '#' forms, names, rgb(), hsl(), oklch()) ->
 * 0xRRGGBBAA; an error names the color, the reason and the forms. */
int scene_color_string(loader_t *L, const cJSON *it, const char *key, uint32_t *out)
{
    qbuf_t a;
    char why[160];
    if (rf_color_parse(it->valuestring, out, why, sizeof why) == 0)
        return F_OK;
    scene_err_key(L, key, "invalid color \"%s\": %s; expected %s", scene_q(&a, it->valuestring),
                  why, RF_COLOR_FORMS);
    return F_BAD;
}

/* ------------------------------------------------------------------ */
/* Finiteness                                                           */

/* 1 when every number under it is finite (no pointer kept: the walk of a
 * large scene's every node, which is all most loads need). */
static int all_finite(const cJSON *it)
{
    if (cJSON_IsNumber(it))
        return isfinite(it->valuedouble);
    for (const cJSON *c = it->child; c != NULL; c = c->next)
        if (!all_finite(c))
            return 0;
    return 1;
}

/* Each number under it that is not finite, reported at its pointer. */
static void finite_at(loader_t *L, const cJSON *it)
{
    if (cJSON_IsNumber(it) && !isfinite(it->valuedouble)) {
        scene_err(L, "number out of range: every number must be finite");
        return;
    }
    size_t i = 0;
    for (const cJSON *c = it->child; c != NULL; c = c->next, i++) {
        size_t m = cJSON_IsObject(it) ? scene_push(L, c->string) : scene_pushi(L, i);
        finite_at(L, c);
        scene_pop(L, m);
    }
}

/* cJSON turns an overflowing literal such as 1e999 into an infinity; the
 * contract says every number is finite, wherever it is. */
void scene_check_finite(loader_t *L, const cJSON *it)
{
    if (!all_finite(it)) /* once: not again at every level (a review's 60-deep case) */
        finite_at(L, it);
}

