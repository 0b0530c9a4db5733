/* scene.c - the scene loader: file -> syntax check -> cJSON -> strict
 * validation with JSON pointers -> engine descriptors in one arena.
 *
 * Validation keeps going after an error wherever the structure allows, so a
 * user sees every problem of a file at once (up to RF_DIAG_MAX). The engine
 * descriptors are only built when there is no error at all, because
 * rf_anim_init() trusts its specs. cJSON is used here and nowhere else, and
 * only through case-sensitive walks of the children: "Width" is not "width".
 *
 * Stages: parse `values` (structure only) -> index their names -> parse
 * `paths` -> resolve the references of every value (expression names,
 * sample paths and progresses, `from` sources), now that every name is
 * known -> `layers`, walked into the layer tree (layer.h; their inline
 * values resolved in place) -> the value graph: one iterative depth-first
 * sort gives the evaluation order, finds a cycle, and carries "used" from a
 * layer's values to what they read -> build
 * everything in that order, so that an expression is compiled with the real
 * ranges of its inputs and a `from` source's track exists before the value
 * that starts from it -> the layers' value references become slots.
 */
#include "scene.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "arena.h"
#include "easing.h"
#include "expr.h"
#include "jsonsyn.h"
#include "layer.h"
#include "numfmt.h"
#include "path.h"

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
    /* sample_path */
    const char *path_ref;      /* a name in `paths`, resolved once paths are known */
    const rf_path_t *path;     /* the measured path, once known */
    const char *progress_ref;  /* "NAME" or "NAME.x": resolved later */
    const cJSON *progress_obj; /* an inline progress, added once names are indexed */
    long progress_vi;          /* the value holding the progress, or -1 */
    int progress_comp;         /* RF_EXPR_PLAIN or the component of a sample */
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
} vsrc_t;

/* `paths` by name, for lookups from values and layers. */
typedef struct pathref {
    const char *name;          /* cJSON's key */
    const rf_path_t *path;     /* NULL when its data was invalid */
} pathref_t;

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
    /* timeline facts for later stages */
    double fps;
    int fps_ok;
    int duration_given;        /* a number was given */
    int duration_ok;           /* valid (number or "auto") */
    double duration;
    /* checks, raw until the frame count is known */
    const cJSON *check_list;   /* the times or frames array */
    int check_by_time;
} loader_t;

static int nerrors(const loader_t *L)
{
    return L->d->count + L->d->dropped;
}

static size_t push(loader_t *L, const char *seg)
{
    return rf_pointer_push(L->ptr, sizeof L->ptr, seg);
}

static size_t pushi(loader_t *L, size_t i)
{
    return rf_pointer_push_index(L->ptr, sizeof L->ptr, i);
}

static void pop(loader_t *L, size_t mark)
{
    L->ptr[mark] = '\0';
}

static void err(loader_t *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void err_key(loader_t *L, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An error at the current pointer. */
static void err(loader_t *L, const char *fmt, ...)
{
    char buf[RF_DIAG_LINE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    rf_diag_at(L->d, L->ptr, "%s", buf);
}

/* An error at member key of the current object. */
static void err_key(loader_t *L, const char *key, const char *fmt, ...)
{
    char buf[RF_DIAG_LINE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t m = push(L, key);
    rf_diag_at(L->d, L->ptr, "%s", buf);
    pop(L, m);
}

static void err_at(loader_t *L, const char *ptr, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An error at a pointer recorded earlier (the resolve and build stages). */
static void err_at(loader_t *L, const char *ptr, const char *fmt, ...)
{
    char buf[RF_DIAG_LINE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    rf_diag_at(L->d, ptr, "%s", buf);
}

/* A positional error inside a string (an expression, path data): the
 * message "col N: ...", then the text and a caret under column col (in
 * characters) on two more lines of the same message, as the CLI prints
 * them. rf_diag_at() keeps a message on one line, so the two lines are
 * appended to the stored message; they are left out when the message would
 * not fit in RF_DIAG_LINE. */
static void err_caret(loader_t *L, const char *ptr, const char *text, size_t len, int col,
                      const char *msg)
{
    int before = L->d->count;
    rf_diag_at(L->d, ptr, "%s", msg);
    if (L->d->count == before)
        return;                /* dropped past RF_DIAG_MAX */
    rf_loc_attach_col(L->d->msg[L->d->count - 1], RF_DIAG_LINE, text, len, col);
}

static void err_oom(loader_t *L)
{
    if (!L->oom) {
        L->oom = 1;
        L->d->io_error = 1;
        rf_diag_file(L->d, "out of memory");
    }
}

static void *aalloc(loader_t *L, size_t count, size_t size)
{
    void *p = rf_arena_calloc(L->arena, count == 0 ? 1 : count, size);
    if (p == NULL)
        err_oom(L);
    return p;
}

/* rf_arena_alloc for modules that take an allocator (easing, expr, path). */
static void *arena_alloc_fn(void *ctx, size_t size)
{
    return rf_arena_alloc(ctx, size);
}

/* ------------------------------------------------------------------ */
/* Message helpers                                                      */

typedef struct { char s[RF_NUM_BUF]; } nbuf_t;
typedef struct { char s[112]; } qbuf_t;

static const char *num(nbuf_t *b, double x)
{
    return rf_num_short(b->s, x);
}

/* A key or string as it may appear inside quotes in a message: control
 * characters escaped, long text cut (on a UTF-8 boundary) with "...". */
static const char *q(qbuf_t *b, const char *s)
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

static const char *json_type(const cJSON *it)
{
    if (cJSON_IsNumber(it))
        return "a number";
    if (cJSON_IsString(it))
        return "a string";
    if (cJSON_IsObject(it))
        return "an object";
    if (cJSON_IsArray(it))
        return "an array";
    if (cJSON_IsTrue(it))
        return "true";
    if (cJSON_IsFalse(it))
        return "false";
    return "null";
}

/* "a, b, c" into buf. */
static const char *join(char *buf, size_t cap, const char *const *names, size_t n)
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

static int find_name(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

/* A did-you-mean, skipped once the message would be dropped anyway: a
 * file with 50,000 bad references must not cost 50,000 searches over
 * 50,000 names. */
static const char *suggest(const loader_t *L, const char *word, const char *const *names,
                           size_t n)
{
    if (rf_diag_full(L->d))
        return NULL;
    return rf_did_you_mean(word, names, n);
}

/* The unknown-key message, with a suggestion or else the known keys. */
static void err_unknown_key(loader_t *L, const char *key, const char *what,
                            const char *const *names, size_t n)
{
    qbuf_t a;
    const char *dym = suggest(L, key, names, n);
    if (dym != NULL) {
        err_key(L, key, "unknown %s '%s' (did you mean '%s'?)", what, q(&a, key), dym);
    } else {
        char list[600];
        err_key(L, key, "unknown %s '%s' (known: %s)", what, q(&a, key),
                join(list, sizeof list, names, n));
    }
}

/* Maps the members of obj onto names[0..n): found[k] is the member named
 * names[k] (the first, when repeated) or NULL. Unknown and repeated keys
 * are reported at their pointer. */
static void scan_keys(loader_t *L, const cJSON *obj, const char *const *names, size_t n,
                      const cJSON **found)
{
    for (size_t k = 0; k < n; k++)
        found[k] = NULL;
    for (const cJSON *c = obj->child; c != NULL; c = c->next) {
        int k = find_name(names, n, c->string);
        qbuf_t a;
        if (k < 0)
            err_unknown_key(L, c->string, "key", names, n);
        else if (found[k] != NULL)
            err_key(L, c->string, "duplicate key '%s'", q(&a, c->string));
        else
            found[k] = c;
    }
}

static const cJSON *get(const char *const *names, size_t n, const cJSON **found,
                        const char *name)
{
    int k = find_name(names, n, name);
    return k < 0 ? NULL : found[k];
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

static unsigned char *dup_flags(loader_t *L, const cJSON *obj, size_t *pn)
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
        err_oom(L);
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
static int count_items(loader_t *L, size_t n)
{
    if (L->items_over)
        return 1;
    L->items += n;
    if (L->items > RF_MAX_ITEMS) {
        L->items_over = 1;
        err(L, "too many items: a scene has at most %u values, layers, path segments "
            "and sequence entries in all", (unsigned)RF_MAX_ITEMS);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Typed fields                                                         */

enum { F_BAD = -1, F_ABSENT = 0, F_OK = 1 };
enum { R_ANY, R_GT0, R_GE0 };

/* A finite number; non-finite ones were reported by the finiteness pass. */
static int want_number(loader_t *L, const cJSON *it, const char *key, double *out)
{
    if (it == NULL)
        return F_ABSENT;
    if (!cJSON_IsNumber(it)) {
        err_key(L, key, "must be a number, got %s", json_type(it));
        return F_BAD;
    }
    if (!isfinite(it->valuedouble))
        return F_BAD;
    *out = it->valuedouble;
    return F_OK;
}

/* A number member with a range; *out is left alone unless it is valid. */
static int num_field(loader_t *L, const cJSON *it, const char *key, int required,
                     int range, double *out)
{
    double v = 0;
    int r = want_number(L, it, key, &v);
    nbuf_t b;
    if (r == F_ABSENT) {
        if (required) {
            err(L, "missing required key '%s'", key);
            return F_BAD;
        }
        return F_ABSENT;
    }
    if (r == F_BAD)
        return F_BAD;
    if (range == R_GT0 && !(v > 0)) {
        err_key(L, key, "must be > 0, got %s", num(&b, v));
        return F_BAD;
    }
    if (range == R_GE0 && !(v >= 0)) {
        err_key(L, key, "must be >= 0, got %s", num(&b, v));
        return F_BAD;
    }
    *out = v;
    return F_OK;
}

/* An integer member in [lo, hi]. */
static int int_field(loader_t *L, const cJSON *it, const char *key, int required,
                     double lo, double hi, double *out)
{
    double v = 0;
    int r = want_number(L, it, key, &v);
    nbuf_t b, b1, b2;
    if (r == F_ABSENT) {
        if (required) {
            err(L, "missing required key '%s'", key);
            return F_BAD;
        }
        return F_ABSENT;
    }
    if (r == F_BAD)
        return F_BAD;
    if (v != floor(v)) {
        err_key(L, key, "must be an integer, got %s", num(&b, v));
        return F_BAD;
    }
    if (v < lo || v > hi) {
        if (lo == 1 && hi == 4294967295.0 && v < lo)
            err_key(L, key, "must be a positive integer, got %s", num(&b, v));
        else
            err_key(L, key, "must be an integer in %s..%s, got %s", num(&b1, lo),
                    num(&b2, hi), num(&b, v));
        return F_BAD;
    }
    *out = v;
    return F_OK;
}

static int enum_field(loader_t *L, const cJSON *it, const char *key,
                      const char *const *names, size_t n, int *out)
{
    char alts[200];
    qbuf_t a;
    if (it == NULL)
        return F_ABSENT;
    if (!cJSON_IsString(it)) {
        err_key(L, key, "must be %s, got %s", join_alts(alts, sizeof alts, names, n),
                json_type(it));
        return F_BAD;
    }
    int k = find_name(names, n, it->valuestring);
    if (k >= 0) {
        *out = k;
        return F_OK;
    }
    const char *dym = suggest(L, it->valuestring, names, n);
    if (dym != NULL)
        err_key(L, key, "must be %s, got \"%s\" (did you mean \"%s\"?)",
                join_alts(alts, sizeof alts, names, n), q(&a, it->valuestring), dym);
    else
        err_key(L, key, "must be %s, got \"%s\"", join_alts(alts, sizeof alts, names, n),
                q(&a, it->valuestring));
    return F_BAD;
}

/* An easing: a string for rf_easing_parse(), or [x1, y1, x2, y2]. The
 * `bezier` kind (cubic_only) clamps every component; elsewhere a CSS
 * cubic-bezier needs x1 and x2 in [0, 1]. */
static int easing_field(loader_t *L, const cJSON *it, const char *key, int cubic_only,
                        rf_easing_t *out)
{
    const char *what = cubic_only ? "a curve name" : "an easing name";
    if (it == NULL)
        return F_ABSENT;
    if (cJSON_IsString(it)) {
        char why[256];
        if (rf_easing_parse(out, it->valuestring, cubic_only, arena_alloc_fn, L->arena,
                            why, sizeof why) != 0) {
            err_key(L, key, "%s", why);
            return F_BAD;
        }
        return F_OK;
    }
    if (!cJSON_IsArray(it)) {
        err_key(L, key, "must be %s or an array [x1, y1, x2, y2], got %s", what,
                json_type(it));
        return F_BAD;
    }
    int n = cJSON_GetArraySize(it);
    if (n != 4) {
        err_key(L, key, "a cubic-bezier needs 4 numbers [x1, y1, x2, y2], got %d", n);
        return F_BAD;
    }
    double p[4] = { 0, 0, 0, 0 };
    int bad = 0, i = 0;
    size_t m = push(L, key);
    for (const cJSON *c = it->child; c != NULL; c = c->next, i++) {
        char idx[16];
        snprintf(idx, sizeof idx, "%d", i);
        if (want_number(L, c, idx, &p[i]) != F_OK) {
            bad = 1;
            continue;
        }
        if (!cubic_only && (i == 0 || i == 2) && !(p[i] >= 0 && p[i] <= 1)) {
            nbuf_t b;
            err_key(L, idx, "cubic-bezier %s must be in [0, 1], got %s",
                    i == 0 ? "x1" : "x2", num(&b, p[i]));
            bad = 1;
        }
    }
    pop(L, m);
    if (bad)
        return F_BAD;
    rf_easing_init_cubic(out, p[0], p[1], p[2], p[3], cubic_only);
    return F_OK;
}

/* "#rgb", "#rgba", "#rrggbb", "#rrggbbaa" -> 0xRRGGBBAA. */
static int parse_color(const char *s, uint32_t *out)
{
    if (s[0] != '#')
        return -1;
    size_t n = strlen(s + 1);
    if (n != 3 && n != 4 && n != 6 && n != 8)
        return -1;
    unsigned v[8] = { 0 };
    for (size_t i = 0; i < n; i++) {
        char c = s[1 + i];
        if (c >= '0' && c <= '9')
            v[i] = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v[i] = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v[i] = (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    unsigned r, g, b, a = 255;
    if (n <= 4) {
        r = v[0] * 17; g = v[1] * 17; b = v[2] * 17;
        if (n == 4)
            a = v[3] * 17;
    } else {
        r = v[0] * 16 + v[1]; g = v[2] * 16 + v[3]; b = v[4] * 16 + v[5];
        if (n == 8)
            a = v[6] * 16 + v[7];
    }
    *out = (uint32_t)r << 24 | (uint32_t)g << 16 | (uint32_t)b << 8 | (uint32_t)a;
    return 0;
}

static int color_string(loader_t *L, const cJSON *it, const char *key, uint32_t *out)
{
    qbuf_t a;
    if (parse_color(it->valuestring, out) == 0)
        return F_OK;
    err_key(L, key, "invalid color \"%s\": expected \"#rgb\", \"#rgba\", \"#rrggbb\" or "
            "\"#rrggbbaa\"",
            q(&a, it->valuestring));
    return F_BAD;
}

/* ------------------------------------------------------------------ */
/* Finiteness                                                           */

/* cJSON turns an overflowing literal such as 1e999 into an infinity; the
 * contract says every number is finite, wherever it is. */
static void check_finite(loader_t *L, const cJSON *it)
{
    if (cJSON_IsNumber(it) && !isfinite(it->valuedouble)) {
        err(L, "number out of range: every number must be finite");
        return;
    }
    size_t i = 0;
    for (const cJSON *c = it->child; c != NULL; c = c->next, i++) {
        size_t m = cJSON_IsObject(it) ? push(L, c->string) : pushi(L, i);
        check_finite(L, c);
        pop(L, m);
    }
}

/* ------------------------------------------------------------------ */
/* Values                                                               */

/* Kind keys of a value object, in rf_value_kind_t order from SPRING, then
 * the kinds of a later version. */
static const char *const kind_keys[] = {
    "spring", "bezier", "repeat", "tween", "physics", "decay", "keyframes",
    "sequence", "expr", "sample_path",
};
enum { K_SEQUENCE = 7, K_EXPR = 8, K_SAMPLE_PATH = 9, K_ANIMATED = 7 };

static const char *const spring_keys[] = {
    "from", "to", "stiffness", "damping", "damping_ratio", "velocity", "threshold", "start",
};
static const char *const bezier_keys[] = {
    "from", "to", "curve", "duration", "repeat", "iterations", "start",
};
static const char *const repeat_keys[] = {
    "from", "to", "duration", "mode", "iterations", "start",
};
static const char *const tween_keys[] = {
    "from", "to", "duration", "easing", "repeat", "iterations", "start",
};
static const char *const physics_keys[] = {
    "from", "velocity", "friction", "gravity", "min", "max", "threshold", "start",
};
static const char *const decay_keys[] = {
    "from", "velocity", "friction", "threshold", "start",
};
static const char *const keyframes_keys[] = {
    "duration", "interp", "keys", "start",
};
static const char *const policy_keys[] = { "speed", "min", "max" };
static const char *const repeat_modes[] = { "none", "loop", "ping-pong" };
static const char *const interp_names[] = { "linear", "step", "smoothstep" };

static const char *const reserved_names[] = {
    "t", "min", "max", "clamp", "abs", "floor", "ceil", "round", "sqrt", "pow", "exp",
    "log", "sin", "cos", "tan", "atan2", "mix", "step", "smoothstep",
};

typedef struct kindinfo {
    const char *const *keys;
    size_t nkeys;
    rf_curve_t curve;
} kindinfo_t;

static kindinfo_t kind_info(rf_value_kind_t kind)
{
    switch (kind) {
    case RF_VALUE_SPRING:
        return (kindinfo_t){ spring_keys, NELEM(spring_keys), RF_CURVE_SPRING };
    case RF_VALUE_BEZIER:
        return (kindinfo_t){ bezier_keys, NELEM(bezier_keys), RF_CURVE_EASED };
    case RF_VALUE_REPEAT:
        return (kindinfo_t){ repeat_keys, NELEM(repeat_keys), RF_CURVE_EASED };
    case RF_VALUE_TWEEN:
        return (kindinfo_t){ tween_keys, NELEM(tween_keys), RF_CURVE_EASED };
    case RF_VALUE_PHYSICS:
        return (kindinfo_t){ physics_keys, NELEM(physics_keys), RF_CURVE_PHYSICS };
    case RF_VALUE_DECAY:
        return (kindinfo_t){ decay_keys, NELEM(decay_keys), RF_CURVE_DECAY };
    case RF_VALUE_KEYFRAMES:
        return (kindinfo_t){ keyframes_keys, NELEM(keyframes_keys), RF_CURVE_KEYFRAMES };
    default:
        return (kindinfo_t){ NULL, 0, RF_CURVE_CONST };
    }
}

static int valid_name(const char *s)
{
    if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return 0;
    for (const char *p = s + 1; *p != '\0'; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return 1;
}

/* valid_name() of the first len bytes of s (a name has no length limit). */
static int valid_name_n(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
        if (!(alpha || (i > 0 && c >= '0' && c <= '9')))
            return 0;
    }
    return len > 0;
}

/* `duration`: seconds > 0, or (policy_ok) {"speed", "min", "max"}. */
static void duration_field(loader_t *L, const cJSON *it, int policy_ok, rf_anim_spec_t *sp)
{
    if (it == NULL) {
        err(L, "missing required key 'duration'");
        return;
    }
    if (cJSON_IsObject(it) && policy_ok) {
        const cJSON *f[NELEM(policy_keys)];
        size_t m = push(L, "duration");
        scan_keys(L, it, policy_keys, NELEM(policy_keys), f);
        double speed = 1, dmin = 0, dmax = INFINITY;
        num_field(L, f[0], "speed", 1, R_GT0, &speed);
        int rmin = num_field(L, f[1], "min", 0, R_GE0, &dmin);
        int rmax = num_field(L, f[2], "max", 0, R_GT0, &dmax);
        if (rmin != F_BAD && rmax == F_OK && dmax < dmin) {
            nbuf_t a, b;
            err_key(L, "max", "must be >= min (%s), got %s", num(&a, dmin), num(&b, dmax));
        }
        pop(L, m);
        sp->duration_policy = 1;
        sp->speed = speed;
        sp->dmin = dmin;
        sp->dmax = dmax;
        return;
    }
    if (!cJSON_IsNumber(it)) {
        err_key(L, "duration", policy_ok
                ? "must be a number of seconds or a {\"speed\", \"min\", \"max\"} policy, got %s"
                : "must be a number of seconds, got %s", json_type(it));
        return;
    }
    num_field(L, it, "duration", 1, R_GT0, &sp->duration);
}

/* A `from` that names a value (seed 000 retargeting, resolved at load). */
typedef struct fromref {
    const char *name;          /* NULL: from is a number or absent */
    const char *ptr;           /* arena: pointer of the `from` key */
    int velocity_given;        /* an explicit `velocity` overrides the source's */
} fromref_t;

/* Fills sp from the body of an animated kind. entry < 0: a plain value;
 * else the index of a sequence entry (entries after the first inherit an
 * absent from/velocity; none may carry `start`). A `from` naming a value is
 * recorded in *fr (plain values and a sequence's first entry only). */
static void parse_anim(loader_t *L, const cJSON *body, rf_value_kind_t kind,
                       rf_anim_spec_t *sp, int entry, fromref_t *fr)
{
    fr->name = NULL;
    fr->ptr = NULL;
    fr->velocity_given = 0;
    kindinfo_t ki = kind_info(kind);
    rf_anim_spec_defaults(sp, ki.curve);
    if (!cJSON_IsObject(body)) {
        err(L, "must be an object, got %s", json_type(body));
        return;
    }
    const cJSON *f[8];
    scan_keys(L, body, ki.keys, ki.nkeys, f);
#define G(name) get(ki.keys, ki.nkeys, f, name)
    int inherit = entry > 0;
    nbuf_t b1, b2, b3;

    const cJSON *start = G("start");
    if (entry >= 0 && start != NULL)
        err_key(L, "start", "use the entry's 'at' instead of 'start'");
    else
        num_field(L, start, "start", 0, R_ANY, &sp->start);

    int rfrom = F_ABSENT;
    if (kind != RF_VALUE_KEYFRAMES) {
        const cJSON *jf = G("from");
        if (cJSON_IsString(jf)) {
            /* a value name: its state at the start, filled in at build */
            if (entry > 0) {
                err_key(L, "from", "only a sequence's first entry may start from another "
                        "value: later entries inherit from the entry before");
                rfrom = F_BAD;
            } else {
                size_t m = push(L, "from");
                fr->name = jf->valuestring;
                fr->ptr = rf_arena_strdup(L->arena, L->ptr);
                if (fr->ptr == NULL)
                    err_oom(L);
                pop(L, m);
                rfrom = F_OK;
            }
            sp->has_from = 1;
        } else if (jf != NULL && !cJSON_IsNumber(jf)) {
            err_key(L, "from", "must be a number or a value name, got %s", json_type(jf));
            rfrom = F_BAD;
            sp->has_from = 1;
        } else {
            rfrom = num_field(L, jf, "from", 0, R_ANY, &sp->from);
            sp->has_from = inherit ? rfrom != F_ABSENT : 1;
        }
    }

    switch (kind) {
    case RF_VALUE_SPRING: {
        num_field(L, G("to"), "to", 1, R_ANY, &sp->to);
        int rk = num_field(L, G("stiffness"), "stiffness", 0, R_GT0, &sp->stiffness);
        int rd = num_field(L, G("damping"), "damping", 0, R_GE0, &sp->damping);
        double z = 0;
        int rz = num_field(L, G("damping_ratio"), "damping_ratio", 0, R_GE0, &z);
        if (rd != F_ABSENT && rz != F_ABSENT) {
            err_key(L, "damping_ratio", "give either 'damping' or 'damping_ratio', not both");
        } else if (rz == F_OK && rk != F_BAD) {
            double c = 2 * z * sqrt(sp->stiffness);
            if (!isfinite(c))
                err_key(L, "damping_ratio", "too large: the damping it gives is not finite");
            else
                sp->damping = c;
        }
        int rv = num_field(L, G("velocity"), "velocity", 0, R_ANY, &sp->velocity);
        sp->has_velocity = inherit ? rv != F_ABSENT : 1;
        fr->velocity_given = rv != F_ABSENT;
        num_field(L, G("threshold"), "threshold", 0, R_GT0, &sp->threshold);
        break;
    }
    case RF_VALUE_BEZIER:
    case RF_VALUE_REPEAT:
    case RF_VALUE_TWEEN: {
        num_field(L, G("to"), "to", 1, R_ANY, &sp->to);
        duration_field(L, G("duration"), 1, sp);
        int mode = RF_REPEAT_NONE;
        if (kind == RF_VALUE_BEZIER) {
            if (easing_field(L, G("curve"), "curve", 1, &sp->easing) == F_ABSENT) {
                char why[160];
                if (rf_easing_parse(&sp->easing, "ease", 1, arena_alloc_fn, L->arena, why,
                                    sizeof why) != 0)
                    err(L, "internal error: default curve: %s", why);
            }
        } else if (kind == RF_VALUE_TWEEN) {
            if (easing_field(L, G("easing"), "easing", 0, &sp->easing) == F_ABSENT)
                rf_easing_init_linear(&sp->easing);
        } else {
            rf_easing_init_linear(&sp->easing);
            mode = RF_REPEAT_LOOP;
        }
        const char *mkey = kind == RF_VALUE_REPEAT ? "mode" : "repeat";
        enum_field(L, G(mkey), mkey, repeat_modes, NELEM(repeat_modes), &mode);
        sp->repeat = (rf_repeat_t)mode;
        double it = 0;
        if (int_field(L, G("iterations"), "iterations", 0, 1, 4294967295.0, &it) == F_OK)
            sp->iterations = (uint32_t)it;
        else
            sp->iterations = 0;
        break;
    }
    case RF_VALUE_PHYSICS: {
        int rv = num_field(L, G("velocity"), "velocity", 0, R_ANY, &sp->velocity);
        sp->has_velocity = inherit ? rv != F_ABSENT : 1;
        fr->velocity_given = rv != F_ABSENT;
        num_field(L, G("friction"), "friction", 0, R_GE0, &sp->friction);
        num_field(L, G("gravity"), "gravity", 0, R_ANY, &sp->gravity);
        int rmin = num_field(L, G("min"), "min", 0, R_ANY, &sp->min);
        int rmax = num_field(L, G("max"), "max", 0, R_ANY, &sp->max);
        num_field(L, G("threshold"), "threshold", 0, R_GT0, &sp->threshold);
        if (rmin == F_OK && rmax == F_OK && !(sp->min < sp->max)) {
            err_key(L, "max", "must be > min (%s), got %s", num(&b1, sp->min),
                    num(&b2, sp->max));
        } else if (rmin != F_BAD && rmax != F_BAD && rfrom != F_BAD && sp->has_from &&
                   fr->name == NULL && !(sp->from >= sp->min && sp->from <= sp->max)) {
            /* (a value-name from is checked at build, when its number is known) */
            if (rfrom == F_OK)
                err_key(L, "from", "must lie within [min, max] = [%s, %s], got %s",
                        num(&b1, sp->min), num(&b2, sp->max), num(&b3, sp->from));
            else
                err(L, "the default from 0 lies outside [min, max] = [%s, %s]: set 'from'",
                    num(&b1, sp->min), num(&b2, sp->max));
        }
        break;
    }
    case RF_VALUE_DECAY: {
        int rv = num_field(L, G("velocity"), "velocity", 0, R_ANY, &sp->velocity);
        sp->has_velocity = inherit ? rv != F_ABSENT : 1;
        fr->velocity_given = rv != F_ABSENT;
        num_field(L, G("friction"), "friction", 0, R_GT0, &sp->friction);
        num_field(L, G("threshold"), "threshold", 0, R_GT0, &sp->threshold);
        break;
    }
    case RF_VALUE_KEYFRAMES: {
        duration_field(L, G("duration"), 0, sp);
        int interp = RF_INTERP_LINEAR;
        enum_field(L, G("interp"), "interp", interp_names, NELEM(interp_names), &interp);
        sp->interp = (rf_interp_t)interp;
        const cJSON *keys = G("keys");
        if (keys == NULL) {
            err(L, "missing required key 'keys'");
            break;
        }
        if (!cJSON_IsArray(keys)) {
            err_key(L, "keys", "must be an array of [time, value] or [time, value, easing], "
                    "got %s", json_type(keys));
            break;
        }
        int n = cJSON_GetArraySize(keys);
        if (n < 2) {
            err_key(L, "keys", "needs at least 2 keys, got %d", n);
            break;
        }
        rf_key_t *kv = aalloc(L, (size_t)n, sizeof *kv);
        if (kv == NULL)
            break;
        size_t m = push(L, "keys");
        int i = 0, tok = 0;      /* tok: the previous key's time is valid */
        double prev = 0;
        for (const cJSON *k = keys->child; k != NULL; k = k->next, i++) {
            size_t mk = pushi(L, (size_t)i);
            rf_easing_init_linear(&kv[i].easing);
            int ne = cJSON_IsArray(k) ? cJSON_GetArraySize(k) : -1;
            if (ne != 2 && ne != 3) {
                if (ne < 0)
                    err(L, "a key must be [time, value] or [time, value, easing], got %s",
                        json_type(k));
                else
                    err(L, "a key must be [time, value] or [time, value, easing], got %d "
                        "element%s", ne, ne == 1 ? "" : "s");
                tok = 0;
                pop(L, mk);
                continue;
            }
            const cJSON *kt = k->child, *kval = kt->next;
            double t = 0;
            int rt = want_number(L, kt, "0", &t);
            want_number(L, kval, "1", &kv[i].value);
            if (ne == 3)
                easing_field(L, kval->next, "2", 0, &kv[i].easing);
            if (rt == F_OK) {
                if (i == 0 && t != 0)
                    err_key(L, "0", "the first key's time must be 0, got %s", num(&b1, t));
                else if (i > 0 && tok && !(t > prev))
                    err_key(L, "0", "key times must strictly increase: got %s after %s",
                            num(&b1, t), num(&b2, prev));
                else if (i == n - 1 && t != 1)
                    err_key(L, "0", "the last key's time must be 1, got %s", num(&b1, t));
                else if (t < 0 || t > 1)
                    err_key(L, "0", "key times are normalized: must be in [0, 1], got %s",
                            num(&b1, t));
                kv[i].time = t;
                prev = t;
                tok = 1;
            } else {
                tok = 0;
            }
            pop(L, mk);
        }
        pop(L, m);
        sp->keys = kv;
        sp->nkeys = (uint32_t)n;
        /* what the value shows before start; nothing to inherit */
        sp->from = kv[0].value;
        sp->has_from = 1;
        sp->has_velocity = 1;
        break;
    }
    default:
        break;
    }
#undef G
}

/* Parses and measures SVG path data at the current pointer (a `paths`
 * entry, a sample's or a path layer's inline data) and counts its segments
 * against RF_MAX_ITEMS. NULL after an error. */
static const rf_path_t *parse_path_data(loader_t *L, const char *s)
{
    qbuf_t a;
    const char *p = s;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f')
        p++;
    if (*p == '\0') {
        err(L, "path data is empty: it must start with 'M'");
        return NULL;
    }
    if (*p != 'M' && *p != 'm') {
        err(L, "path data must start with 'M' (move to), got \"%s\"", q(&a, p));
        return NULL;
    }
    size_t len = strlen(s);
    rf_path_t *path = NULL;
    rf_path_error_t pe;
    if (rf_path_parse(s, len, arena_alloc_fn, L->arena, &path, &pe) != 0) {
        if (pe.col == 0)
            err_oom(L);
        else
            err_caret(L, L->ptr, s, len, rf_loc_column(s, len, pe.col - 1), pe.msg);
        return NULL;
    }
    count_items(L, rf_path_segment_count(path));
    return path;
}

/* {"expr": "..."}: checked here, compiled once every name is known. */
static void parse_expr(loader_t *L, const cJSON *body, size_t vi)
{
    if (!cJSON_IsString(body)) {
        err(L, "must be an expression string such as \"2*x + t\", got %s", json_type(body));
        return;
    }
    size_t len = strlen(body->valuestring);
    if (len > RF_MAX_EXPR_BYTES) {
        err(L, "expression is %zu bytes; the limit is %u", len, (unsigned)RF_MAX_EXPR_BYTES);
        return;
    }
    L->vals[vi].src = body->valuestring;
}

static size_t add_value(loader_t *L, const char *name, const cJSON *it);

static const char *const sample_keys[] = { "path", "progress" };

/* {"sample_path": {"path": NAME or DATA, "progress": NUMBER, NAME or VALUE}}.
 * A path that is a name (a letter or '_', then letters, digits, '_') refers
 * to `paths`; anything else is inline path data (no valid path data is
 * such a name: it needs numbers after its M, with separators). */
static void parse_sample_path(loader_t *L, const cJSON *body, size_t vi)
{
    if (!cJSON_IsObject(body)) {
        err(L, "must be an object {\"path\": ..., \"progress\": ...}, got %s", json_type(body));
        return;
    }
    const cJSON *f[NELEM(sample_keys)];
    scan_keys(L, body, sample_keys, NELEM(sample_keys), f);
    const cJSON *jp = f[0], *jg = f[1];
    if (jp == NULL) {
        err(L, "missing required key 'path'");
    } else if (!cJSON_IsString(jp)) {
        err_key(L, "path", "must be a path name or SVG path data, got %s", json_type(jp));
    } else if (valid_name(jp->valuestring)) {
        L->vals[vi].path_ref = jp->valuestring;
    } else {
        size_t m = push(L, "path");
        L->vals[vi].path = parse_path_data(L, jp->valuestring);
        pop(L, m);
    }
    if (jg == NULL) {
        err(L, "missing required key 'progress'");
    } else if (cJSON_IsString(jg)) {
        L->vals[vi].progress_ref = jg->valuestring;
    } else if (cJSON_IsNumber(jg) || cJSON_IsObject(jg)) {
        /* an inline value: added after the named ones (they come first) */
        if (L->indexed) {
            size_t m = push(L, "progress");
            size_t pi = add_value(L, "", jg);
            pop(L, m);
            if (pi != SIZE_MAX)
                L->vals[vi].progress_vi = (long)pi;
        } else {
            L->vals[vi].progress_obj = jg;
        }
    } else {
        err_key(L, "progress", "must be a number, a value name or a value object, got %s",
                json_type(jg));
    }
}

static size_t new_value(loader_t *L, const char *name)
{
    if (L->nvals == L->capvals) {
        size_t cap = L->capvals ? L->capvals * 2 : 64;
        vsrc_t *nv = realloc(L->vals, cap * sizeof *nv);
        if (nv == NULL) {
            err_oom(L);
            return SIZE_MAX;
        }
        L->vals = nv;
        L->capvals = cap;
    }
    vsrc_t *v = &L->vals[L->nvals];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->ptr = "";
    v->progress_vi = -1;
    v->from_vi = -1;
    return L->nvals++;
}

static void set_from(loader_t *L, size_t vi, const fromref_t *fr, const char *kind)
{
    vsrc_t *v = &L->vals[vi];
    v->from_ref = fr->name;
    v->from_ptr = fr->ptr;
    v->from_kind = kind;
    /* spring, physics and decay inherit the velocity too (seed 000) */
    v->from_velocity = !fr->velocity_given &&
                       (strcmp(kind, "spring") == 0 || strcmp(kind, "physics") == 0 ||
                        strcmp(kind, "decay") == 0);
}

static void parse_sequence(loader_t *L, const cJSON *arr, size_t vi)
{
    if (!cJSON_IsArray(arr)) {
        err(L, "must be an array of {\"at\": seconds, KIND: {...}} entries, got %s",
            json_type(arr));
        return;
    }
    int n = cJSON_GetArraySize(arr);
    if (n == 0) {
        err(L, "must have at least one entry");
        return;
    }
    rf_anim_spec_t *specs = aalloc(L, (size_t)n, sizeof *specs);
    if (specs == NULL)
        return;
    /* entry keys: `at` and the kinds (all listed, for better messages) */
    const char *ekeys[1 + NELEM(kind_keys)];
    ekeys[0] = "at";
    for (size_t k = 0; k < NELEM(kind_keys); k++)
        ekeys[1 + k] = kind_keys[k];
    double prev_at = -INFINITY;
    int i = 0;
    for (const cJSON *e = arr->child; e != NULL; e = e->next, i++) {
        size_t m = pushi(L, (size_t)i);
        rf_anim_spec_defaults(&specs[i], RF_CURVE_CONST);
        if (count_items(L, 1)) {
            pop(L, m);
            return;
        }
        if (!cJSON_IsObject(e)) {
            err(L, "a sequence entry must be an object {\"at\": seconds, KIND: {...}}, got %s",
                json_type(e));
            pop(L, m);
            continue;
        }
        const cJSON *at = NULL, *body = NULL;
        int kind = -1;
        for (const cJSON *c = e->child; c != NULL; c = c->next) {
            int k = find_name(ekeys, NELEM(ekeys), c->string);
            qbuf_t a;
            if (k < 0) {
                err_unknown_key(L, c->string, "key", ekeys, NELEM(ekeys));
            } else if (k == 0) {
                if (at != NULL)
                    err_key(L, "at", "duplicate key 'at'");
                else
                    at = c;
            } else if (body != NULL) {
                if (strcmp(body->string, c->string) == 0)
                    err_key(L, c->string, "duplicate key '%s'", q(&a, c->string));
                else
                    err_key(L, c->string, "an entry has exactly one kind, got '%s' and '%s'",
                            body->string, c->string);
            } else {
                body = c;
                kind = k - 1;
            }
        }
        double t = 0;
        int rat = num_field(L, at, "at", 1, R_GE0, &t);
        if (rat == F_OK) {
            if (!(t > prev_at)) {
                nbuf_t b1, b2;
                err_key(L, "at", "must be greater than the previous entry's 'at' (%s), got %s",
                        num(&b1, prev_at), num(&b2, t));
            }
            prev_at = t;
        }
        if (body == NULL) {
            char list[200];
            err(L, "missing the entry's kind: one of %s",
                join(list, sizeof list, kind_keys, K_ANIMATED));
        } else if (kind == K_SEQUENCE) {
            err_key(L, "sequence", "a sequence entry cannot be a sequence");
        } else if (kind == K_EXPR || kind == K_SAMPLE_PATH) {
            err_key(L, body->string, "%s values cannot be sequence entries", body->string);
        } else {
            size_t mb = push(L, body->string);
            fromref_t fr;
            parse_anim(L, body, (rf_value_kind_t)(kind + 1), &specs[i], i, &fr);
            pop(L, mb);
            if (fr.name != NULL)
                set_from(L, vi, &fr, kind_keys[kind]);
            if (rat == F_OK)
                specs[i].start = t;
        }
        pop(L, m);
    }
    L->vals[vi].specs = specs;
    L->vals[vi].nspecs = (uint32_t)n;
}

/* The object of a kinded value: exactly one kind key. */
static void parse_kinded(loader_t *L, const cJSON *obj, size_t vi)
{
    const cJSON *body = NULL;
    int kind = -1, unknown = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next) {
        int k = find_name(kind_keys, NELEM(kind_keys), c->string);
        if (k >= 0 && body == NULL) {
            body = c;
            kind = k;
        }
    }
    /* second pass, in file order: everything that is not the one kind */
    for (const cJSON *c = obj->child; c != NULL; c = c->next) {
        if (c == body)
            continue;
        int k = find_name(kind_keys, NELEM(kind_keys), c->string);
        qbuf_t a;
        unknown++;
        if (k >= 0) {
            if (strcmp(c->string, body->string) == 0)
                err_key(L, c->string, "duplicate key '%s'", q(&a, c->string));
            else
                err_key(L, c->string, "a value has exactly one kind, got '%s' and '%s'",
                        body->string, c->string);
        } else if (body != NULL && kind < K_ANIMATED &&
                   find_name(kind_info((rf_value_kind_t)(kind + 1)).keys,
                             kind_info((rf_value_kind_t)(kind + 1)).nkeys, c->string) >= 0) {
            err_key(L, c->string, "'%s' belongs inside '%s'", q(&a, c->string), body->string);
        } else {
            err_unknown_key(L, c->string, "value kind", kind_keys, NELEM(kind_keys));
        }
    }
    if (body == NULL) {
        if (unknown == 0) {
            char list[300];
            err(L, "missing the value kind: one of %s",
                join(list, sizeof list, kind_keys, NELEM(kind_keys)));
        }
        return;
    }
    size_t m = push(L, body->string);
    if (kind == K_SEQUENCE) {
        L->vals[vi].kind = RF_VALUE_SEQUENCE;
        parse_sequence(L, body, vi);
    } else if (kind == K_EXPR) {
        L->vals[vi].kind = RF_VALUE_EXPR;
        parse_expr(L, body, vi);
    } else if (kind == K_SAMPLE_PATH) {
        L->vals[vi].kind = RF_VALUE_SAMPLE_PATH;
        if (L->vals[vi].name[0] == '\0')
            err(L, "a path sample has three outputs (x, y, angle): define it in 'values' "
                "and use NAME.x, NAME.y or NAME.angle");
        else
            parse_sample_path(L, body, vi);
    } else {
        rf_anim_spec_t *sp = aalloc(L, 1, sizeof *sp);
        if (sp != NULL) {
            fromref_t fr;
            L->vals[vi].kind = (rf_value_kind_t)(kind + 1);
            parse_anim(L, body, L->vals[vi].kind, sp, -1, &fr);
            L->vals[vi].specs = sp;
            L->vals[vi].nspecs = 1;
            if (fr.name != NULL)
                set_from(L, vi, &fr, kind_keys[kind]);
        }
    }
    pop(L, m);
}

/* Adds the value it (a number or a kinded object) under name at the
 * current pointer; returns its index or SIZE_MAX when it was not stored. */
static size_t add_value(loader_t *L, const char *name, const cJSON *it)
{
    if (count_items(L, 1))
        return SIZE_MAX;
    size_t vi = new_value(L, name);
    if (vi == SIZE_MAX)
        return vi;
    L->vals[vi].ptr = rf_arena_strdup(L->arena, L->ptr);
    if (L->vals[vi].ptr == NULL) {
        err_oom(L);
        L->vals[vi].ptr = "";
    }
    if (cJSON_IsNumber(it)) {
        rf_anim_spec_t *sp = aalloc(L, 1, sizeof *sp);
        if (sp == NULL)
            return vi;
        rf_anim_spec_defaults(sp, RF_CURVE_CONST);
        sp->from = isfinite(it->valuedouble) ? it->valuedouble : 0;
        sp->to = sp->from;
        sp->has_from = 1;
        L->vals[vi].kind = RF_VALUE_STATIC;
        L->vals[vi].specs = sp;
        L->vals[vi].nspecs = 1;
    } else if (cJSON_IsObject(it)) {
        parse_kinded(L, it, vi);
    } else {
        err(L, "a value must be a number or an object such as {\"spring\": {...}}, got %s",
            json_type(it));
    }
    return vi;
}

static int cmp_vidx(const void *a, const void *b, const vsrc_t *vals)
{
    return strcmp(vals[*(const uint32_t *)a].name, vals[*(const uint32_t *)b].name);
}

/* C11 qsort has no context argument, and a file-scope pointer would make
 * concurrent loads unsafe: a small merge sort instead. */
static void sort_by_name(uint32_t *idx, uint32_t *tmp, size_t n, const vsrc_t *vals)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_by_name(idx, tmp, h, vals);
    sort_by_name(idx + h, tmp, n - h, vals);
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n)
        tmp[o++] = cmp_vidx(&idx[j], &idx[i], vals) < 0 ? idx[j++] : idx[i++];
    while (i < h)
        tmp[o++] = idx[i++];
    while (j < n)
        tmp[o++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

static void parse_values(loader_t *L, const cJSON *obj)
{
    if (!cJSON_IsObject(obj)) {
        err(L, "must be an object mapping names to values, got %s", json_type(obj));
        return;
    }
    size_t n;
    unsigned char *dup = dup_flags(L, obj, &n);
    if (dup == NULL)
        return;
    size_t i = 0;
    for (const cJSON *c = obj->child; c != NULL && !L->items_over; c = c->next, i++) {
        size_t m = push(L, c->string);
        qbuf_t a;
        const char *name = c->string;
        if (dup[i])
            err(L, "duplicate key '%s'", q(&a, name));
        else if (!valid_name(name))
            err(L, "invalid value name '%s': a name is a letter or '_' followed by letters, "
                "digits and '_'", q(&a, name));
        else if (strcmp(name, "t") == 0)
            err(L, "invalid value name 't': 't' is the time in expressions");
        else if (find_name(reserved_names, NELEM(reserved_names), name) >= 0)
            err(L, "invalid value name '%s': it is a function name", name);
        if (!dup[i]) {
            const char *nm = rf_arena_strdup(L->arena, name);
            if (nm == NULL)
                err_oom(L);
            else
                add_value(L, nm, c);
        }
        pop(L, m);
    }
    free(dup);
}

/* After `values`: the index of named values for lookups from layers. */
static void index_values(loader_t *L)
{
    L->nnamed = L->nvals;
    size_t n = L->nnamed;
    L->names = malloc((n ? n : 1) * sizeof *L->names);
    uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    L->by_name = aalloc(L, n, sizeof *L->by_name);
    if (L->names == NULL || tmp == NULL || L->by_name == NULL) {
        free(tmp);
        err_oom(L);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        L->names[i] = L->vals[i].name;
        L->by_name[i] = (uint32_t)i;
    }
    sort_by_name(L->by_name, tmp, n, L->vals);
    free(tmp);
}

static long lookup_value(const loader_t *L, const char *name, size_t len)
{
    if (L->by_name == NULL)
        return -1;
    size_t lo = 0, hi = L->nnamed;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = L->vals[L->by_name[mid]].name;
        int c = strncmp(s, name, len);
        if (c == 0 && s[len] != '\0')
            c = 1;
        if (c == 0)
            return (long)L->by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Paths                                                                */

static int cmp_pathref(const void *a, const void *b)
{
    return strcmp(((const pathref_t *)a)->name, ((const pathref_t *)b)->name);
}

static void parse_paths(loader_t *L, const cJSON *obj)
{
    if (!cJSON_IsObject(obj)) {
        err(L, "must be an object mapping names to SVG path data, got %s", json_type(obj));
        return;
    }
    size_t n;
    unsigned char *dup = dup_flags(L, obj, &n);
    if (dup == NULL)
        return;
    /* kept even when some data is bad: values and layers still look names
     * up in it (and find NULL for the bad ones, already reported) */
    L->path_refs = malloc((n ? n : 1) * sizeof *L->path_refs);
    L->path_names = malloc((n ? n : 1) * sizeof *L->path_names);
    rf_scene_path_t *scp = aalloc(L, n, sizeof *scp);
    if (L->path_refs == NULL || L->path_names == NULL || scp == NULL) {
        free(dup);
        err_oom(L);
        return;
    }
    size_t i = 0, k = 0, good = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next, i++) {
        size_t m = push(L, c->string);
        qbuf_t a;
        const rf_path_t *path = NULL;
        if (dup[i]) {
            err(L, "duplicate key '%s'", q(&a, c->string));
            pop(L, m);
            continue;
        }
        if (!cJSON_IsString(c))
            err(L, "must be a string of SVG path data, got %s", json_type(c));
        else if (!L->items_over)
            path = parse_path_data(L, c->valuestring);
        pop(L, m);
        L->path_refs[k].name = c->string;
        L->path_refs[k].path = path;
        k++;
        if (path != NULL) {
            scp[good].name = rf_arena_strdup(L->arena, c->string);
            scp[good].path = path;
            if (scp[good].name == NULL)
                err_oom(L);
            good++;
        }
    }
    free(dup);
    qsort(L->path_refs, k, sizeof *L->path_refs, cmp_pathref);
    for (i = 0; i < k; i++)
        L->path_names[i] = L->path_refs[i].name;
    L->npaths = k;
    L->sc->paths = scp;
    L->sc->npaths = (uint32_t)good;
}

/* The `paths` entry called name: 1 and *out (NULL for invalid data), or 0. */
static int lookup_path(const loader_t *L, const char *name, const rf_path_t **out)
{
    if (L->path_refs == NULL)
        return 0;
    pathref_t key = { name, NULL };
    const pathref_t *r = bsearch(&key, L->path_refs, L->npaths, sizeof *L->path_refs,
                                 cmp_pathref);
    if (r == NULL)
        return 0;
    *out = r->path;
    return 1;
}

/* ------------------------------------------------------------------ */
/* References: resolved once every value name and path is known          */

static const char *const components[] = { "x", "y", "angle" };

/* "a spring value", "an expr value". */
static const char *a_kind(rf_value_kind_t kind)
{
    const char *k = rf_value_kind_name(kind);
    return strchr("aeiou", k[0]) != NULL ? "an" : "a";
}

/* A value input written as a string, "NAME" or "NAME.x|y|angle" (layer
 * properties, a sample's progress): 0 with the value and component, or -1
 * with a message. */
static int resolve_input(loader_t *L, const char *s, long *pvi, int *pcomp, char *msg,
                         size_t cap)
{
    qbuf_t a;
    const char *dot = strchr(s, '.');
    size_t len = dot != NULL ? (size_t)(dot - s) : strlen(s);
    char name[256];             /* for messages: cut with "..." */
    int ok = valid_name_n(s, len);
    if (ok) {
        size_t n = len < sizeof name ? len : sizeof name - 4;
        memcpy(name, s, n);
        strcpy(name + n, len < sizeof name ? "" : "...");
    }
    if (!ok) {
        /* "x + 1" here is most likely meant as an expression */
        snprintf(msg, cap, "must be a number, a value name or a value object, got \"%s\"%s",
                 q(&a, s), strpbrk(s, "+-*/%()<>=?! ") != NULL
                 ? " (an expression is a value object: {\"expr\": \"...\"})" : "");
        return -1;
    }
    long vi = lookup_value(L, s, len);
    if (vi < 0) {
        const char *dym = len < sizeof name ? suggest(L, name, L->names, L->nnamed) : NULL;
        if (dym != NULL)
            snprintf(msg, cap, "unknown value '%s' (did you mean '%s'?)", name, dym);
        else
            snprintf(msg, cap, "unknown value '%s'", name);
        return -1;
    }
    int sample = L->vals[vi].kind == RF_VALUE_SAMPLE_PATH;
    int comp = RF_EXPR_PLAIN;
    if (dot != NULL) {
        const char *field = dot + 1;
        for (int c = 0; c < 3; c++)
            if (strcmp(field, components[c]) == 0)
                comp = RF_EXPR_X + c;
        if (comp == RF_EXPR_PLAIN) {
            snprintf(msg, cap, "unknown output '.%s' of '%s': a path sample has .x, .y and "
                     ".angle", q(&a, field), name);
            return -1;
        }
        if (!sample) {
            snprintf(msg, cap, "'%s' is %s %s value: only a sample_path value has .x, .y and "
                     ".angle", name, a_kind(L->vals[vi].kind),
                     rf_value_kind_name(L->vals[vi].kind));
            return -1;
        }
    } else if (sample) {
        snprintf(msg, cap, "'%.150s' is a path sample: use %.150s.x, %.150s.y or %.150s.angle",
                 name, name, name, name);
        return -1;
    }
    *pvi = vi;
    *pcomp = comp;
    return 0;
}

/* First-pass resolver: names to value indices (as slots) with unbounded
 * ranges, to check the names and collect the graph's edges. */
static int resolve_first(void *ctx, const char *name, size_t len, int comp,
                         rf_expr_ref_t *out, char *e, size_t elen)
{
    loader_t *L = ctx;
    long vi = lookup_value(L, name, len);
    int shown = len > 200 ? 200 : (int)len;
    if (vi < 0) {
        char nm[256];
        const char *dym = NULL;
        if (len < sizeof nm) {
            memcpy(nm, name, len);
            nm[len] = '\0';
            dym = suggest(L, nm, L->names, L->nnamed);
        }
        if (dym != NULL)
            snprintf(e, elen, "unknown value '%.*s' (did you mean '%s'?)", shown, name, dym);
        else
            snprintf(e, elen, "unknown value '%.*s'", shown, name);
        return -1;
    }
    int sample = L->vals[vi].kind == RF_VALUE_SAMPLE_PATH;
    if (comp == RF_EXPR_PLAIN && sample) {
        snprintf(e, elen, "'%.*s' is a path sample: use %.*s.x, %.*s.y or %.*s.angle", shown,
                 name, shown, name, shown, name, shown, name);
        return -1;
    }
    if (comp != RF_EXPR_PLAIN && !sample) {
        snprintf(e, elen, "'%.*s' is %s %s value: only a sample_path value has .x, .y and "
                 ".angle", shown, name, a_kind(L->vals[vi].kind),
                 rf_value_kind_name(L->vals[vi].kind));
        return -1;
    }
    out->slot = (uint32_t)vi;
    out->lo = -INFINITY;
    out->hi = INFINITY;
    return 0;
}

/* deps = one value, and where the reference is. */
static void set_deps(loader_t *L, size_t k, const uint32_t *deps, uint32_t n, int derived,
                     const char *ptr)
{
    vsrc_t *v = &L->vals[k];
    v->deps = aalloc(L, n, sizeof *v->deps);
    v->edge_ptr = rf_arena_strdup(L->arena, ptr);
    if (v->deps == NULL || v->edge_ptr == NULL) {
        err_oom(L);
        v->ndeps = 0;
        return;
    }
    if (n > 0)
        memcpy(v->deps, deps, n * sizeof *deps);
    v->ndeps = n;
    v->derived_deps = derived;
}

static void resolve_expr(loader_t *L, size_t k)
{
    vsrc_t *v = &L->vals[k];
    char ptr[sizeof L->ptr + 32];
    snprintf(ptr, sizeof ptr, "%s/expr", v->ptr);
    if (L->scratch == NULL && (L->scratch = rf_arena_create()) == NULL) {
        err_oom(L);
        return;
    }
    size_t len = strlen(v->src);
    rf_expr_t *e = NULL;
    rf_expr_error_t ee;
    if (rf_expr_compile(v->src, len, 0, T_MAX, resolve_first, L, arena_alloc_fn,
                        L->scratch, &e, &ee) != 0) {
        if (ee.oom) {
            err_oom(L);
        } else {
            char m[RF_EXPR_ERR_MSG + 32];
            snprintf(m, sizeof m, "col %d: %s", ee.col, ee.msg);
            err_caret(L, ptr, v->src, len, ee.col, m);
        }
        return;
    }
    const uint32_t *deps;
    uint32_t n = rf_expr_deps(e, &deps);
    set_deps(L, k, deps, n, 1, ptr);
}

static void resolve_sample(loader_t *L, size_t k)
{
    vsrc_t *v = &L->vals[k];
    char ptr[sizeof L->ptr + 32];
    char msg[RF_DIAG_LINE];
    if (v->path_ref != NULL) {
        snprintf(ptr, sizeof ptr, "%s/sample_path/path", v->ptr);
        if (!lookup_path(L, v->path_ref, &v->path)) {
            const char *dym = suggest(L, v->path_ref, L->path_names, L->npaths);
            if (dym != NULL)
                err_at(L, ptr, "unknown path '%s' (did you mean '%s'?)", v->path_ref, dym);
            else
                err_at(L, ptr, "unknown path '%s'", v->path_ref);
        }
    }
    snprintf(ptr, sizeof ptr, "%s/sample_path/progress", v->ptr);
    if (v->progress_ref != NULL) {
        long vi;
        int comp;
        if (resolve_input(L, v->progress_ref, &vi, &comp, msg, sizeof msg) != 0) {
            err_at(L, ptr, "%s", msg);
        } else {
            v->progress_vi = vi;
            v->progress_comp = comp;
        }
    }
    if (v->progress_vi >= 0) {
        uint32_t d = (uint32_t)v->progress_vi;
        set_deps(L, k, &d, 1, 1, ptr);
    }
}

/* `from` naming a value: any value that is not derived (an expression or a
 * path sample: downstream only, seed 000). */
static void resolve_from(loader_t *L, size_t k)
{
    vsrc_t *v = &L->vals[k];
    const char *s = v->from_ref;
    const char *ptr = v->from_ptr != NULL ? v->from_ptr : v->ptr;
    qbuf_t a;
    const char *dot = strchr(s, '.');
    size_t len = dot != NULL ? (size_t)(dot - s) : strlen(s);
    long vi = lookup_value(L, s, len);
    if (vi < 0 || (dot != NULL && L->vals[vi].kind != RF_VALUE_SAMPLE_PATH)) {
        char name[256];
        const char *dym = NULL;
        if (!valid_name(s)) {
            err_at(L, ptr, "must be a number or a value name, got \"%s\"", q(&a, s));
            return;
        }
        snprintf(name, sizeof name, "%s", s);
        dym = suggest(L, name, L->names, L->nnamed);
        if (dym != NULL)
            err_at(L, ptr, "unknown value '%s' (did you mean '%s'?)", q(&a, s), dym);
        else
            err_at(L, ptr, "unknown value '%s'", q(&a, s));
        return;
    }
    rf_value_kind_t kind = L->vals[vi].kind;
    if (kind == RF_VALUE_EXPR || kind == RF_VALUE_SAMPLE_PATH) {
        err_at(L, ptr, "'%.*s' is %s: expressions and path samples are downstream only and "
               "cannot be the source of a %s", (int)(len > 200 ? 200 : len), s,
               kind == RF_VALUE_EXPR ? "an expression" : "a path sample", v->from_kind);
        return;
    }
    v->from_vi = vi;
    uint32_t d = (uint32_t)vi;
    set_deps(L, k, &d, 1, 0, ptr);
}

/* Resolves the values added since the last call (named ones after
 * `paths`, inline ones where a layer adds them, so messages stay in order). */
static void resolve_pending(loader_t *L)
{
    while (L->nresolved < L->nvals && !L->oom) {
        size_t k = L->nresolved++;
        const vsrc_t *v = &L->vals[k];
        if (v->kind == RF_VALUE_EXPR && v->src != NULL)
            resolve_expr(L, k);
        else if (v->kind == RF_VALUE_SAMPLE_PATH)
            resolve_sample(L, k);
        else if (v->from_ref != NULL)
            resolve_from(L, k);
    }
}

/* The inline progress values of named samples: added after every named
 * value, so that named values stay first. */
static void add_deferred(loader_t *L)
{
    for (size_t i = 0; i < L->nnamed && !L->items_over; i++) {
        const cJSON *obj = L->vals[i].progress_obj;
        if (obj == NULL)
            continue;
        L->vals[i].progress_obj = NULL;
        snprintf(L->ptr, sizeof L->ptr, "%s/sample_path/progress", L->vals[i].ptr);
        size_t pi = add_value(L, "", obj);
        if (pi != SIZE_MAX)
            L->vals[i].progress_vi = (long)pi;
    }
    L->ptr[0] = '\0';
}

/* ------------------------------------------------------------------ */
/* Layers                                                               */

/* While layers are walked the values have no slots yet (build_values
 * numbers them once the graph is sorted): a property naming a value holds
 * PENDING(value index, output) until fix_layers turns it into the slot
 * (indices stay below RF_MAX_ITEMS + 1, so this never reaches RF_PROP_CONST). */
#define PENDING(vi, k) ((uint32_t)(vi) * 3u + (uint32_t)(k))

static rf_prop_t konst(double k)
{
    rf_prop_t p = { RF_PROP_CONST, k };
    return p;
}

static void walk_layer(loader_t *L, const cJSON *layer, rf_layer_t *out);

/* A value reference "NAME" or "NAME.x|y|angle" in a numeric property. */
static void value_ref(loader_t *L, const char *key, const char *s, rf_prop_t *out)
{
    char msg[RF_DIAG_LINE];
    long vi;
    int comp;
    if (resolve_input(L, s, &vi, &comp, msg, sizeof msg) != 0) {
        err_key(L, key, "%s", msg);
        return;
    }
    L->vals[vi].used = 1;
    out->slot = PENDING(vi, comp == RF_EXPR_PLAIN ? 0 : comp - RF_EXPR_X);
}

enum { P_ANY, P_NONNEG };

/* A numeric layer property: number, value reference or inline value. A
 * constant size must not be negative (P_NONNEG): an animated one may pass
 * below 0 (a spring's overshoot) and is drawn as 0 there, but a constant
 * one can only be a mistake. */
static void walk_numeric(loader_t *L, const cJSON *it, const char *key, int range,
                         rf_prop_t *out)
{
    if (cJSON_IsNumber(it)) {
        double v = it->valuedouble;
        nbuf_t b;
        if (!isfinite(v))
            return;            /* reported by check_finite */
        if (range == P_NONNEG && v < 0)
            err_key(L, key, "must be >= 0, got %s", num(&b, v));
        else
            *out = konst(v);
        return;
    }
    if (cJSON_IsString(it)) {
        value_ref(L, key, it->valuestring, out);
        return;
    }
    if (cJSON_IsObject(it)) {
        size_t m = push(L, key);
        size_t vi = add_value(L, "", it);
        if (vi != SIZE_MAX) {
            L->vals[vi].used = 1;
            out->slot = PENDING(vi, 0);
        }
        resolve_pending(L);
        pop(L, m);
        return;
    }
    err_key(L, key, "must be a number, a value name or a value object, got %s", json_type(it));
}

/* [a, b] of numeric properties (anchor, scale, trim, gradient points). */
static void walk_pair(loader_t *L, const cJSON *it, const char *key, const char *shape,
                      rf_prop_t *a, rf_prop_t *b)
{
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2) {
        if (cJSON_IsArray(it))
            err_key(L, key, "must be an array %s, got %d element%s", shape,
                    cJSON_GetArraySize(it), cJSON_GetArraySize(it) == 1 ? "" : "s");
        else
            err_key(L, key, "must be an array %s, got %s", shape, json_type(it));
        return;
    }
    size_t m = push(L, key);
    walk_numeric(L, it->child, "0", P_ANY, a);
    walk_numeric(L, it->child->next, "1", P_ANY, b);
    pop(L, m);
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
            err_key(L, key, "must be a color: \"none\" stands only for a whole fill or "
                    "stroke");
        else if (color_string(L, it, key, &c) == F_OK)
            to_color(c, out);
    } else if (cJSON_IsObject(it)) {
        err_key(L, key, "must be a color string: %s takes plain colors, not a mix or a "
                "gradient", what);
    } else {
        err_key(L, key, "must be a color string, got %s", json_type(it));
    }
}

/* Stops of a gradient: [offset, color], offsets in [0, 1], non-decreasing
 * (CSS and SVG would clamp a decreasing offset up to the one before it;
 * here it is an error, as it is most likely a typo). */
static void walk_stops(loader_t *L, const cJSON *it, rf_paint_t *p)
{
    if (!cJSON_IsArray(it)) {
        err_key(L, "stops", "must be an array of stops [offset, color], got %s",
                json_type(it));
        return;
    }
    int n = cJSON_GetArraySize(it);
    if (n < 1) {
        err_key(L, "stops", "must have at least one stop [offset, color]");
        return;
    }
    rf_gradient_stop_t *st = aalloc(L, (size_t)n, sizeof *st);
    if (st == NULL)
        return;
    p->stops = st;
    p->nstops = (uint32_t)n;
    size_t m = push(L, "stops");
    size_t i = 0;
    double prev = 0;
    int have_prev = 0;
    for (const cJSON *s = it->child; s != NULL; s = s->next, i++) {
        size_t mi = pushi(L, i);
        if (!cJSON_IsArray(s) || cJSON_GetArraySize(s) != 2) {
            if (cJSON_IsArray(s))
                err(L, "a stop must be [offset, color], got %d element%s",
                    cJSON_GetArraySize(s), cJSON_GetArraySize(s) == 1 ? "" : "s");
            else
                err(L, "a stop must be [offset, color], got %s", json_type(s));
            pop(L, mi);
            continue;
        }
        double off = 0;
        nbuf_t b, b2;
        if (want_number(L, s->child, "0", &off) == F_OK) {
            if (!(off >= 0 && off <= 1)) {
                err_key(L, "0", "a stop offset must be in [0, 1], got %s", num(&b, off));
            } else if (have_prev && off < prev) {
                err_key(L, "0", "stop offsets must not decrease: %s after %s", num(&b, off),
                        num(&b2, prev));
            } else {
                st[i].offset = off;
                prev = off;
                have_prev = 1;
            }
        }
        plain_color(L, s->child->next, "1", "a gradient stop", &st[i].color);
        pop(L, mi);
    }
    pop(L, m);
}

static const char *const color_kinds[] = { "mix", "linear", "radial" };
static const char *const linear_keys[] = { "from", "to", "stops" };
static const char *const radial_keys[] = { "center", "radius", "stops" };
enum { C_MIX, C_LINEAR, C_RADIAL };

/* {"mix": [COLOR, COLOR], "by": NUMBER}, the "mix" member given. */
static void walk_mix(loader_t *L, const cJSON *mix, const cJSON *by, rf_paint_t *p)
{
    p->kind = RF_PAINT_MIX;
    if (!cJSON_IsArray(mix) || cJSON_GetArraySize(mix) != 2) {
        int n = cJSON_GetArraySize(mix);
        if (cJSON_IsArray(mix))
            err_key(L, "mix", "must be an array of 2 colors [\"#rrggbb\", \"#rrggbb\"], got "
                    "%d element%s", n, n == 1 ? "" : "s");
        else
            err_key(L, "mix", "must be an array of 2 colors [\"#rrggbb\", \"#rrggbb\"], got %s",
                    json_type(mix));
    } else {
        size_t m = push(L, "mix");
        plain_color(L, mix->child, "0", "a mix", &p->color);
        plain_color(L, mix->child->next, "1", "a mix", &p->color2);
        pop(L, m);
    }
    if (by == NULL)
        err(L, "missing required key 'by' (the mix amount: 0 is the first color, 1 the "
            "second)");
    else
        walk_numeric(L, by, "by", P_ANY, &p->by);
}

/* {"linear": {...}} or {"radial": {...}}: body is the kind's member. */
static void walk_gradient(loader_t *L, const cJSON *body, int kind, rf_paint_t *p)
{
    int lin = kind == C_LINEAR;
    p->kind = lin ? RF_PAINT_LINEAR : RF_PAINT_RADIAL;
    size_t m = push(L, body->string);
    if (!cJSON_IsObject(body)) {
        err(L, "must be an object {%s}, got %s",
            lin ? "\"from\": [x, y], \"to\": [x, y], \"stops\": [...]"
                : "\"center\": [x, y], \"radius\": r, \"stops\": [...]", json_type(body));
        pop(L, m);
        return;
    }
    const cJSON *f[3];
    const char *const *keys = lin ? linear_keys : radial_keys;
    scan_keys(L, body, keys, 3, f);
    for (int k = 0; k < 3; k++)
        if (f[k] == NULL)
            err(L, "missing required key '%s'", keys[k]);
    if (f[0] != NULL)
        walk_pair(L, f[0], keys[0], "[x, y]", &p->p0[0], &p->p0[1]);
    if (f[1] != NULL && lin)
        walk_pair(L, f[1], keys[1], "[x, y]", &p->p1[0], &p->p1[1]);
    else if (f[1] != NULL)
        walk_numeric(L, f[1], "radius", P_NONNEG, &p->radius);
    if (f[2] != NULL)
        walk_stops(L, f[2], p);
    pop(L, m);
}

/* fill/stroke: "#..." or "none", or one mix or gradient object. */
static void walk_color(loader_t *L, const cJSON *it, const char *key, rf_paint_t *p)
{
    uint32_t col;
    if (cJSON_IsString(it)) {
        if (strcmp(it->valuestring, "none") != 0 && color_string(L, it, key, &col) == F_OK) {
            p->kind = RF_PAINT_SOLID;
            to_color(col, &p->color);
        }
        return;
    }
    if (!cJSON_IsObject(it)) {
        err_key(L, key, "must be a color \"#rrggbb\" or a {\"mix\"}, {\"linear\"} or "
                "{\"radial\"} object, got %s", json_type(it));
        return;
    }
    size_t m = push(L, key);
    const cJSON *body = NULL, *by = NULL;
    int kind = -1;
    for (const cJSON *c = it->child; c != NULL && body == NULL; c = c->next)
        if ((kind = find_name(color_kinds, NELEM(color_kinds), c->string)) >= 0)
            body = c;
    /* everything but the one kind, in file order */
    int unknown = 0;
    for (const cJSON *c = it->child; c != NULL; c = c->next) {
        qbuf_t a;
        if (c == body)
            continue;
        if (find_name(color_kinds, NELEM(color_kinds), c->string) >= 0) {
            if (strcmp(c->string, body->string) == 0)
                err_key(L, c->string, "duplicate key '%s'", c->string);
            else
                err_key(L, c->string, "a color has exactly one kind, got '%s' and '%s'",
                        body->string, c->string);
        } else if (strcmp(c->string, "by") == 0 && kind == C_MIX) {
            if (by != NULL)
                err_key(L, c->string, "duplicate key 'by'");
            else
                by = c;
        } else if (body == NULL) {
            if (strcmp(c->string, "by") != 0) {
                err_unknown_key(L, c->string, "color kind", color_kinds, NELEM(color_kinds));
                unknown++;
            }
        } else if (kind != C_MIX &&
                   find_name(kind == C_LINEAR ? linear_keys : radial_keys, 3, c->string) >= 0) {
            err_key(L, c->string, "'%s' belongs inside '%s'", c->string, body->string);
        } else if (kind == C_MIX) {
            static const char *const mix_keys[] = { "mix", "by" };
            err_unknown_key(L, c->string, "key", mix_keys, NELEM(mix_keys));
        } else {
            err_key(L, c->string, "unknown key '%s' (a %s gradient has only '%s')",
                    q(&a, c->string), body->string, body->string);
        }
    }
    if (body == NULL) {
        if (unknown == 0)
            err(L, "a color object needs one of 'mix', 'linear' or 'radial'");
    } else if (kind == C_MIX) {
        walk_mix(L, body, by, p);
    } else {
        walk_gradient(L, body, kind, p);
    }
    pop(L, m);
}

/* follow: the name of a sample_path value; its first slot. */
static void walk_follow(loader_t *L, const cJSON *c, uint32_t *slot)
{
    const char *k = c->string;
    qbuf_t a;
    if (!cJSON_IsString(c)) {
        err_key(L, k, "must be the name of a sample_path value, got %s", json_type(c));
        return;
    }
    const char *s = c->valuestring;
    const char *dot = strchr(s, '.');
    long vi = valid_name(s) ? lookup_value(L, s, strlen(s)) : -1;
    long base = dot != NULL ? lookup_value(L, s, (size_t)(dot - s)) : -1;
    if (base >= 0 && L->vals[base].kind == RF_VALUE_SAMPLE_PATH) {
        err_key(L, k, "'follow' takes the sample_path value's name: \"%.*s\", not "
                "\"%s\" (it adds .x and .y, and .angle with orient)",
                (int)(dot - s), s, q(&a, s));
    } else if (vi < 0) {
        const char *dym = suggest(L, s, L->names, L->nnamed);
        if (dym != NULL)
            err_key(L, k, "unknown value '%s' (did you mean '%s'?)", q(&a, s), dym);
        else
            err_key(L, k, "unknown value '%s'", q(&a, s));
    } else if (L->vals[vi].kind != RF_VALUE_SAMPLE_PATH) {
        err_key(L, k, "'%s' is %s %s value: 'follow' needs a sample_path value", s,
                a_kind(L->vals[vi].kind), rf_value_kind_name(L->vals[vi].kind));
    } else {
        L->vals[vi].used = 1;
        *slot = PENDING(vi, 0);
    }
}

/* path: a name in `paths` (its measured path is shared) or inline data. */
static void walk_path_ref(loader_t *L, const cJSON *c, const rf_path_t **out)
{
    const char *k = c->string;
    if (!cJSON_IsString(c)) {
        err_key(L, k, "must be a path name or SVG path data, got %s", json_type(c));
        return;
    }
    /* the rule of sample_path: a name refers to `paths`, else data */
    const char *s = c->valuestring;
    const rf_path_t *path;
    if (lookup_path(L, s, &path)) {
        *out = path;   /* NULL when its data was bad: reported */
        return;
    }
    if (valid_name(s)) {
        const char *dym = suggest(L, s, L->path_names, L->npaths);
        if (dym != NULL)
            err_key(L, k, "unknown path '%s' (did you mean '%s'?)", s, dym);
        else
            err_key(L, k, "unknown path '%s'", s);
        return;
    }
    size_t m = push(L, k);
    *out = parse_path_data(L, s);
    pop(L, m);
}

static void walk_children(loader_t *L, const cJSON *c, const rf_layer_t **out, uint32_t *nout)
{
    if (!cJSON_IsArray(c)) {
        err_key(L, c->string, "must be an array of layers, got %s", json_type(c));
        return;
    }
    int n = cJSON_GetArraySize(c);
    rf_layer_t *ch = aalloc(L, (size_t)n, sizeof *ch);
    if (ch == NULL)
        return;
    *out = ch;
    size_t m = push(L, c->string);
    size_t i = 0;
    for (const cJSON *jc = c->child; jc != NULL && !L->items_over; jc = jc->next, i++) {
        size_t mi = pushi(L, i);
        walk_layer(L, jc, &ch[i]);
        pop(L, mi);
    }
    *nout = (uint32_t)i;
    pop(L, m);
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
            err_key(L, k, "a %s has no fill (use stroke)", cls->name);
            return;
        }
        if ((cls->flags & RF_CLASS_CHILDREN) && !none) {
            err_key(L, k, "'%s' does nothing on a %s: a %s draws only its children "
                    "(give it to them)", k, cls->name, cls->name);
            return;
        }
    }
    switch (key->kind) {
    case RF_KEY_STRING: {
        const char **str = key_field(out, key->at);
        if (!cJSON_IsString(c))
            err_key(L, k, "must be a string, got %s", json_type(c));
        else if ((*str = rf_arena_strdup(L->arena, c->valuestring)) == NULL)
            err_oom(L);
        break;
    }
    case RF_KEY_SCALE:
        if (cJSON_IsArray(c)) {
            walk_pair(L, c, k, key->shape, key_field(out, key->at), key_field(out, key->at2));
        } else {
            rf_prop_t *a = key_field(out, key->at);
            walk_numeric(L, c, k, range, a);
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
            err_key(L, k, "must be true or false, got %s", json_type(c));
        else
            *(uint8_t *)key_field(out, key->at) = cJSON_IsTrue(c) ? 1 : 0;
        break;
    case RF_KEY_FOLLOW:
        walk_follow(L, c, key_field(out, key->at));
        break;
    case RF_KEY_PATH:
        walk_path_ref(L, c, key_field(out, key->at));
        break;
    case RF_KEY_CHILDREN:
        walk_children(L, c, key_field(out, key->at), key_field(out, key->at2));
        break;
    default:
        walk_numeric(L, c, k, range, key_field(out, key->at));
        break;
    }
}

static void walk_layer(loader_t *L, const cJSON *layer, rf_layer_t *out)
{
    rf_layer_defaults(out, -1);
    if (count_items(L, 1))
        return;
    if (!cJSON_IsObject(layer)) {
        err(L, "a layer must be an object, got %s", json_type(layer));
        return;
    }
    qbuf_t a;
    int type = -1;
    const cJSON *ty = NULL;
    const char *type_names[RF_LAYER_NTYPES];
    for (int t = 0; t < RF_LAYER_NTYPES; t++)
        type_names[t] = rf_layer_classes[t]->name;
    for (const cJSON *c = layer->child; c != NULL; c = c->next)
        if (strcmp(c->string, "type") == 0 && ty == NULL)
            ty = c;
    if (ty == NULL) {
        err(L, "missing required key 'type'");
    } else if (!cJSON_IsString(ty)) {
        err_key(L, "type", "must be a layer type string, got %s", json_type(ty));
    } else {
        type = rf_layer_type_find(ty->valuestring);
        if (type < 0) {
            char list[100];
            const char *dym = suggest(L, ty->valuestring, type_names, RF_LAYER_NTYPES);
            if (dym != NULL)
                err_key(L, "type", "unknown layer type '%s' (did you mean '%s'?)",
                        q(&a, ty->valuestring), dym);
            else
                err_key(L, "type", "unknown layer type '%s' (known: %s)", q(&a, ty->valuestring),
                        join(list, sizeof list, type_names, RF_LAYER_NTYPES));
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
        int k = find_name(allowed, na, c->string);
        if (k < 0) {
            if (type < 0)
                continue;  /* unknown type: its own keys cannot be judged */
            int other = -1;
            for (int t = 0; t < RF_LAYER_NTYPES && other < 0; t++)
                for (size_t i = 0; i < rf_layer_classes[t]->nkeys && other < 0; i++)
                    if (strcmp(rf_layer_classes[t]->keys[i].name, c->string) == 0)
                        other = t;
            if (other >= 0)
                err_key(L, c->string, "'%s' is not a property of %s layers (it belongs to %s "
                        "layers)", c->string, cls->name, rf_layer_classes[other]->name);
            else
                err_unknown_key(L, c->string, "key", allowed, na);
            continue;
        }
        if (seen[k] != NULL || rows[k]->kind == RF_KEY_TYPE) {
            err_key(L, c->string, "duplicate key '%s'", q(&a, c->string));
            continue;
        }
        seen[k] = c;
        walk_layer_prop(L, c, rows[k], out);
    }
    if (type < 0)
        return;
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
        err(L, "missing required key%s %s (%s)", nmiss > 1 ? "s" : "", list, cls->needs);
    /* orient turns by the follow sample's angle: without follow there is
     * none, and a silent no-op would hide a missing or misspelt follow */
    const cJSON *jo = seen[find_name(allowed, na, "orient")];
    if (jo != NULL && cJSON_IsTrue(jo) && seen[find_name(allowed, na, "follow")] == NULL)
        err_key(L, "orient", "orient needs follow: a sample_path value to take the angle "
                "from");
}

static void parse_layers(loader_t *L, const cJSON *arr)
{
    if (!cJSON_IsArray(arr)) {
        err(L, "must be an array of layers, got %s", json_type(arr));
        return;
    }
    int n = cJSON_GetArraySize(arr);
    rf_layer_t *ls = aalloc(L, (size_t)n, sizeof *ls);
    if (ls == NULL)
        return;
    size_t i = 0;
    for (const cJSON *c = arr->child; c != NULL && !L->items_over; c = c->next, i++) {
        size_t m = pushi(L, i);
        walk_layer(L, c, &ls[i]);
        pop(L, m);
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
        *slot = vals[*slot / 3].slot + *slot % 3;
    return 0;
}

static void fix_layers(const rf_value_t *vals, rf_layer_t *ls, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t nch;
        rf_layer_each_slot(&ls[i], fix_slot, (void *)(uintptr_t)vals);
        /* the children were allocated writable by walk_children; the
         * model only hands them out as const */
        rf_layer_t *ch = (rf_layer_t *)(uintptr_t)rf_layer_children(&ls[i], &nch);
        fix_layers(vals, ch, nch);
    }
}

/* ------------------------------------------------------------------ */
/* Canvas, timeline, checks                                             */

static const char *const canvas_keys[] = { "width", "height", "background" };
static const char *const timeline_keys[] = { "fps", "duration" };
static const char *const checks_keys[] = { "times", "frames" };

static void parse_canvas(loader_t *L, const cJSON *obj)
{
    if (!cJSON_IsObject(obj)) {
        err(L, "must be an object {\"width\", \"height\", \"background\"}, got %s",
            json_type(obj));
        return;
    }
    const cJSON *f[3];
    scan_keys(L, obj, canvas_keys, 3, f);
    double w = 0, h = 0;
    int rw = int_field(L, f[0], "width", 1, 1, RF_MAX_SIDE, &w);
    int rh = int_field(L, f[1], "height", 1, 1, RF_MAX_SIDE, &h);
    if (rw == F_OK && rh == F_OK && w * h > RF_MAX_PIXELS) {
        nbuf_t a, b, c;
        err(L, "too many pixels: width * height must be at most %u, got %s * %s = %s",
            (unsigned)RF_MAX_PIXELS, num(&a, w), num(&b, h), num(&c, w * h));
    }
    L->sc->width = (int)w;
    L->sc->height = (int)h;
    if (f[2] != NULL) {
        if (!cJSON_IsString(f[2]))
            err_key(L, "background", "must be a color \"#rrggbb\", got %s", json_type(f[2]));
        else
            color_string(L, f[2], "background", &L->sc->background);
    }
}

static void parse_timeline(loader_t *L, const cJSON *obj)
{
    if (obj == NULL)
        return;
    if (!cJSON_IsObject(obj)) {
        err(L, "must be an object {\"fps\", \"duration\"}, got %s", json_type(obj));
        L->fps_ok = 0;
        L->duration_ok = 0;
        return;
    }
    const cJSON *f[2];
    scan_keys(L, obj, timeline_keys, 2, f);
    double fps = 0;
    int r = num_field(L, f[0], "fps", 0, R_ANY, &fps);
    if (r == F_OK && !(fps > 0 && fps <= 1000)) {
        nbuf_t b;
        err_key(L, "fps", "must be in (0, 1000], got %s", num(&b, fps));
        r = F_BAD;
    }
    if (r == F_OK)
        L->fps = fps;
    L->fps_ok = r != F_BAD;
    const cJSON *d = f[1];
    if (d == NULL)
        return;
    if (cJSON_IsString(d) && strcmp(d->valuestring, "auto") == 0)
        return;
    if (cJSON_IsNumber(d)) {
        double v = 0;
        int rd = num_field(L, d, "duration", 0, R_GT0, &v);
        L->duration_ok = rd == F_OK;
        L->duration_given = 1;
        L->duration = v;
        return;
    }
    qbuf_t a;
    if (cJSON_IsString(d))
        err_key(L, "duration", "must be a number of seconds or \"auto\", got \"%s\"",
                q(&a, d->valuestring));
    else
        err_key(L, "duration", "must be a number of seconds or \"auto\", got %s",
                json_type(d));
    L->duration_ok = 0;
}

/* First pass over `checks`: the shape and types, before frames exist. */
static void parse_checks(loader_t *L, const cJSON *obj)
{
    if (!cJSON_IsObject(obj)) {
        err(L, "must be an object {\"times\": [...]} or {\"frames\": [...]}, got %s",
            json_type(obj));
        return;
    }
    const cJSON *f[2];
    scan_keys(L, obj, checks_keys, 2, f);
    if (f[0] != NULL && f[1] != NULL) {
        err(L, "give either 'times' or 'frames', not both");
        return;
    }
    if (f[0] == NULL && f[1] == NULL) {
        err(L, "needs 'times' or 'frames'");
        return;
    }
    int by_time = f[0] != NULL;
    const cJSON *list = by_time ? f[0] : f[1];
    const char *key = by_time ? "times" : "frames";
    if (!cJSON_IsArray(list)) {
        err_key(L, key, "must be an array of %s, got %s",
                by_time ? "times in seconds" : "frame numbers", json_type(list));
        return;
    }
    if (list->child == NULL) {
        err_key(L, key, "must not be empty");
        return;
    }
    size_t m = push(L, key);
    size_t i = 0;
    int bad = 0;
    for (const cJSON *c = list->child; c != NULL; c = c->next, i++) {
        char idx[24];
        double v = 0;
        snprintf(idx, sizeof idx, "%zu", i);
        int r = by_time ? num_field(L, c, idx, 0, R_GE0, &v)
                        : int_field(L, c, idx, 0, 0, 9007199254740992.0, &v);
        if (r != F_OK)
            bad = 1;
    }
    pop(L, m);
    if (!bad) {
        L->check_list = list;
        L->check_by_time = by_time;
    }
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* Second pass over `checks`, with the frame count. */
static void resolve_checks(loader_t *L)
{
    rf_scene_t *sc = L->sc;
    const cJSON *list = L->check_list;
    int n = cJSON_GetArraySize(list);
    long *fr = aalloc(L, (size_t)n, sizeof *fr);
    if (fr == NULL)
        return;
    const char *key = L->check_by_time ? "times" : "frames";
    size_t m0 = push(L, "checks");
    size_t m = push(L, key);
    int i = 0;
    nbuf_t b1, b2;
    for (const cJSON *c = list->child; c != NULL; c = c->next, i++) {
        double v = c->valuedouble;
        char idx[24];
        snprintf(idx, sizeof idx, "%d", i);
        if (L->check_by_time) {
            double f = round(v * sc->fps);
            if (!(f < (double)sc->nframes)) {
                err_key(L, idx, "time %s is frame %s, after the last frame %ld (t = %s)",
                        num(&b1, v), num(&b2, f), sc->nframes - 1,
                        rf_num_short((char[RF_NUM_BUF]){ 0 },
                                     rf_scene_frame_time(sc, sc->nframes - 1)));
                continue;
            }
            fr[i] = (long)f;
        } else {
            if (!(v < (double)sc->nframes)) {
                err_key(L, idx, "frame %s does not exist: frames are 0..%ld", num(&b1, v),
                        sc->nframes - 1);
                continue;
            }
            fr[i] = (long)v;
        }
    }
    pop(L, m);
    pop(L, m0);
    qsort(fr, (size_t)n, sizeof *fr, cmp_long);
    uint32_t u = 0;
    for (int k = 0; k < n; k++)
        if (u == 0 || fr[k] != fr[u - 1])
            fr[u++] = fr[k];
    sc->check_frames = fr;
    sc->ncheck_frames = u;
    sc->has_checks = 1;
}

/* duration * fps within the limit; then N. */
static int set_frames(loader_t *L, double duration)
{
    rf_scene_t *sc = L->sc;
    double frames = duration * sc->fps;
    if (!(frames <= RF_MAX_FRAMES)) {
        nbuf_t a, b, c;
        size_t m0 = push(L, "timeline");
        size_t m = push(L, "duration");
        err(L, "too many frames: duration * fps = %s * %s = %s, the limit is %u%s",
            num(&a, duration), num(&b, sc->fps), num(&c, frames), (unsigned)RF_MAX_FRAMES,
            sc->duration_auto ? " (duration \"auto\")" : "");
        pop(L, m);
        pop(L, m0);
        return -1;
    }
    sc->duration = duration;
    /* the 1e-9 keeps 1.16 s at 25 fps (28.999999999999996) at 30 frames */
    sc->nframes = (long)floor(frames + 1e-9) + 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Building                                                             */

/* How a cycle message names a value: its name, or where an inline one is. */
static int cycle_name(const loader_t *L, uint32_t i, char *buf, size_t cap)
{
    const vsrc_t *v = &L->vals[i];
    if (v->name[0] != '\0')
        return snprintf(buf, cap, "%s", v->name);
    return snprintf(buf, cap, "(the value at %s)", v->ptr);
}

/* Reports the cycle members[0 .. n-1] (each reads the next, the last reads
 * the first), named from the member that comes first in the file, at that
 * member's reference: "cycle: a -> b -> a". */
static void report_cycle(loader_t *L, const uint32_t *members, size_t n)
{
    size_t first = 0;
    for (size_t i = 1; i < n; i++)
        if (members[i] < members[first])
            first = i;
    char line[700];
    size_t o = 0;
    char nm[600];
    for (size_t j = 0; j <= n; j++) {
        uint32_t m = members[(first + j) % n];
        int w = cycle_name(L, m, nm, sizeof nm);
        if (w < 0)
            w = 0;
        /* a long cycle is cut, keeping its closing name */
        if (j < n && o + (size_t)w + 4 > sizeof line - 160) {
            cycle_name(L, members[first], nm, sizeof nm);
            snprintf(line + o, sizeof line - o, " -> ... -> %.100s (a cycle of %zu values)", nm,
                     n);
            o = strlen(line);
            break;
        }
        o += (size_t)snprintf(line + o, sizeof line - o, "%s%s", j ? " -> " : "", nm);
        if (o >= sizeof line)
            o = sizeof line - 1;
    }
    const vsrc_t *v = &L->vals[members[first]];
    err_at(L, v->edge_ptr != NULL ? v->edge_ptr : v->ptr, "cycle: %s", line);
}

/* The evaluation order: every value after the values it reads (expression
 * inputs, a sample's progress, a `from` source), by an iterative
 * depth-first search (no recursion: a chain of 100,000 values) from each
 * value in file order, in reference order; a value is placed when all it
 * reads is. Every back edge closes a cycle, reported as found. Then "used" flows from a used
 * derived value to what it reads every frame (not to a `from` source: that
 * is read once, at the start). */
static int sort_values(loader_t *L)
{
    size_t n = L->nvals;
    uint8_t *state = calloc(n ? n : 1, 1);     /* 0 new, 1 on the stack, 2 placed */
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    uint32_t *next = malloc((n ? n : 1) * sizeof *next);  /* next edge of stack[i] */
    uint32_t *at = malloc((n ? n : 1) * sizeof *at);      /* stack index of a node */
    L->order = malloc((n ? n : 1) * sizeof *L->order);
    int rc = 0;
    if (state == NULL || stack == NULL || next == NULL || at == NULL || L->order == NULL) {
        err_oom(L);
        rc = -1;
        goto done;
    }
    size_t placed = 0;
    for (size_t r = 0; r < n && !(rc != 0 && rf_diag_full(L->d)); r++) {
        if (state[r] != 0)
            continue;
        size_t sp = 0;
        stack[sp] = (uint32_t)r;
        next[sp] = 0;
        at[r] = 0;
        state[r] = 1;
        sp++;
        while (sp > 0) {
            uint32_t u = stack[sp - 1];
            const vsrc_t *v = &L->vals[u];
            if (next[sp - 1] < v->ndeps) {
                uint32_t w = v->deps[next[sp - 1]++];
                if (w >= n || state[w] == 2)
                    continue;
                if (state[w] == 1) {
                    /* each back edge is one cycle: report it and go on, so
                     * that every cycle of the file is named (until the
                     * message list is full) */
                    rc = -1;
                    if (rf_diag_full(L->d))
                        break;
                    report_cycle(L, &stack[at[w]], sp - at[w]);
                    continue;
                }
                state[w] = 1;
                at[w] = (uint32_t)sp;
                stack[sp] = w;
                next[sp] = 0;
                sp++;
            } else {
                state[u] = 2;
                L->order[placed++] = u;
                sp--;
            }
        }
    }
    if (rc == 0) {
        for (size_t i = n; i-- > 0;) {
            const vsrc_t *v = &L->vals[L->order[i]];
            if (v->used && v->derived_deps)
                for (uint32_t j = 0; j < v->ndeps; j++)
                    L->vals[v->deps[j]].used = 1;
        }
    }
done:
    free(state);
    free(stack);
    free(next);
    free(at);
    if (rc != 0) {
        free(L->order);
        L->order = NULL;
    }
    return rc;
}

/* Second-pass resolver: the real slots and ranges of built values. */
typedef struct build_ctx {
    loader_t *L;
    const rf_value_t *vals;
} build_ctx_t;

static int resolve_built(void *ctx, const char *name, size_t len, int comp,
                         rf_expr_ref_t *out, char *e, size_t elen)
{
    const build_ctx_t *b = ctx;
    long vi = lookup_value(b->L, name, len);
    if (vi < 0) {
        snprintf(e, elen, "internal error: '%.*s' vanished", (int)(len > 200 ? 200 : len), name);
        return -1;
    }
    const rf_value_t *v = &b->vals[vi];
    uint32_t k = comp == RF_EXPR_PLAIN ? 0 : (uint32_t)(comp - RF_EXPR_X);
    out->slot = v->slot + k;
    out->lo = v->out[k].lo;
    out->hi = v->out[k].hi;
    return 0;
}

static void out_one(rf_value_t *v)
{
    v->out[0].final = v->final;
    v->out[0].lo = v->lo;
    v->out[0].hi = v->hi;
}

/* An expression, compiled with its inputs' ranges and t in [0, T_MAX]: so
 * its range holds past the timeline's [0, duration] too (sample and seek
 * take any time >= 0), not only for the frames rendered. It settles when every
 * input has (never when it reads t), on itself evaluated at that time with
 * every input at its final value. */
static int build_expr(loader_t *L, const vsrc_t *s, rf_value_t *vals, rf_value_t *v,
                      double *finals, const uint32_t *owner)
{
    build_ctx_t bc = { L, vals };
    rf_expr_t *e = NULL;
    rf_expr_error_t ee;
    char ptr[sizeof L->ptr + 32];
    snprintf(ptr, sizeof ptr, "%s/expr", s->ptr);
    if (rf_expr_compile(s->src, strlen(s->src), 0, T_MAX, resolve_built, &bc,
                        arena_alloc_fn, L->arena, &e, &ee) != 0) {
        if (ee.oom)
            err_oom(L);
        else
            err_at(L, ptr, "internal error: col %d: %s", ee.col, ee.msg);
        return -1;
    }
    v->expr = e;
    rf_expr_range(e, &v->lo, &v->hi);
    const uint32_t *deps;
    uint32_t nd = rf_expr_deps(e, &deps);
    double settle = 0;
    int has_final = 1;
    for (uint32_t j = 0; j < nd; j++) {
        const rf_value_t *in = &vals[owner[deps[j]]];
        if (!(in->settle <= settle))
            settle = in->settle;       /* NaN never occurs; INFINITY sticks */
        if (isnan(finals[deps[j]]))
            has_final = 0;
    }
    if (rf_expr_uses_time(e))
        settle = INFINITY;
    v->settle = settle;
    v->final = isfinite(settle) && has_final ? rf_expr_eval(e, finals, settle) : NAN;
    out_one(v);
    return 0;
}

/* A path sample: x and y range over the path's exact bounds (its values
 * are clamped there, see rf_value_eval), the angle over [-180, 180]. It
 * settles with its progress, on the point at the progress's final value. */
static void build_sample(const vsrc_t *s, rf_value_t *vals, rf_value_t *v)
{
    const rf_value_t *pv = &vals[s->progress_vi];
    uint32_t k = s->progress_comp == RF_EXPR_PLAIN ? 0 : (uint32_t)(s->progress_comp - RF_EXPR_X);
    double x0, y0, x1, y1;
    v->path = s->path;
    v->progress_slot = pv->slot + k;
    v->nout = 3;
    rf_path_bounds(s->path, &x0, &y0, &x1, &y1);
    v->out[0].lo = x0;
    v->out[0].hi = x1;
    v->out[1].lo = y0;
    v->out[1].hi = y1;
    v->out[2].lo = -180;
    v->out[2].hi = 180;
    v->settle = pv->settle;
    double pf = pv->out[k].final;
    if (isnan(pf)) {
        for (int j = 0; j < 3; j++)
            v->out[j].final = NAN;
    } else {
        rf_path_sample(s->path, pf, &v->out[0].final, &v->out[1].final, &v->out[2].final);
        for (int j = 0; j < 2; j++)    /* as rf_value_eval clamps */
            v->out[j].final = fmin(fmax(v->out[j].final, v->out[j].lo), v->out[j].hi);
    }
    /* the one-output facts describe x, as out[0] does */
    v->final = v->out[0].final;
    v->lo = v->out[0].lo;
    v->hi = v->out[0].hi;
}

/* A `from` naming a value: that value's state at the start of this one
 * (value, and velocity for spring, physics and decay unless given). */
static int apply_from(loader_t *L, const vsrc_t *s, const rf_value_t *vals)
{
    const rf_value_t *src = &vals[s->from_vi];
    rf_anim_spec_t *sp = &s->specs[0];
    double x = 0, vel = 0;
    nbuf_t b1, b2, b3, b4;
    rf_track_eval_state(&src->track, sp->start, &x, &vel);
    if (!isfinite(x) || !isfinite(vel)) {
        err_at(L, s->from_ptr, "'%s' is not finite at t = %s, where this %s starts",
               L->vals[s->from_vi].name, num(&b1, sp->start), s->from_kind);
        return -1;
    }
    if (sp->curve == RF_CURVE_PHYSICS && !(x >= sp->min && x <= sp->max)) {
        err_at(L, s->from_ptr, "'%s' is %s at t = %s, where this physics starts: outside "
               "[min, max] = [%s, %s]", L->vals[s->from_vi].name, num(&b1, x),
               num(&b2, sp->start), num(&b3, sp->min), num(&b4, sp->max));
        return -1;
    }
    sp->from = x;
    sp->has_from = 1;
    if (s->from_velocity) {
        sp->velocity = vel;
        sp->has_velocity = 1;
    }
    return 0;
}

static int build_values(loader_t *L)
{
    rf_scene_t *sc = L->sc;
    rf_values_t *vs = &sc->values;
    size_t n = L->nvals;
    rf_value_t *vals = aalloc(L, n, sizeof *vals);
    uint32_t *order = aalloc(L, n, sizeof *order);
    if (vals == NULL || order == NULL || L->order == NULL)
        return -1;
    /* slots in file order: one per output */
    size_t nslots = 0;
    for (size_t i = 0; i < n; i++) {
        vals[i].slot = (uint32_t)nslots;
        vals[i].nout = L->vals[i].kind == RF_VALUE_SAMPLE_PATH ? 3 : 1;
        nslots += vals[i].nout;
    }
    /* the final value of every slot (for expressions' finals), and which
     * value owns a slot */
    double *finals = malloc((nslots ? nslots : 1) * sizeof *finals);
    uint32_t *owner = malloc((nslots ? nslots : 1) * sizeof *owner);
    if (finals == NULL || owner == NULL) {
        free(finals);
        free(owner);
        err_oom(L);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < vals[i].nout; j++)
            owner[vals[i].slot + j] = (uint32_t)i;
    int rc = 0;
    for (size_t oi = 0; oi < n && rc == 0; oi++) {
        size_t i = L->order[oi];
        const vsrc_t *s = &L->vals[i];
        rf_value_t *v = &vals[i];
        order[oi] = (uint32_t)i;
        v->name = s->name;
        v->kind = s->kind;
        v->used = s->used;
        if (s->kind == RF_VALUE_EXPR) {
            if (s->src == NULL) {
                rc = -1;
                break;
            }
            rc = build_expr(L, s, vals, v, finals, owner);
        } else if (s->kind == RF_VALUE_SAMPLE_PATH) {
            if (s->path == NULL || s->progress_vi < 0) {
                rc = -1;
                break;
            }
            build_sample(s, vals, v);
        } else {
            if (s->specs == NULL || s->nspecs == 0) {
                rc = -1;
                break;
            }
            if (s->from_vi >= 0 && apply_from(L, s, vals) != 0) {
                rc = -1;
                break;
            }
            size_t bytes = rf_track_storage_size((uint32_t)s->nspecs);
            void *storage = bytes ? aalloc(L, 1, bytes) : NULL;
            if (storage == NULL) {
                rc = -1;
                break;
            }
            rf_track_build(&v->track, storage, s->specs, (uint32_t)s->nspecs);
            if (s->kind == RF_VALUE_STATIC) {
                /* a number: settled from the start, exactly itself */
                v->settle = 0;
                v->final = s->specs[0].from;
                v->lo = v->hi = s->specs[0].from;
            } else {
                v->settle = v->track.settle;
                v->final = v->track.final;
                v->lo = v->track.lo;
                v->hi = v->track.hi;
            }
            out_one(v);
        }
        for (uint32_t j = 0; j < v->nout && rc == 0; j++)
            finals[v->slot + j] = v->out[j].final;
    }
    free(finals);
    free(owner);
    if (rc != 0) {
        /* every path that leaves a value undescribed reports an error */
        if (nerrors(L) == 0)
            rf_diag_file(L->d, "internal error: a value has no description");
        return -1;
    }
    vs->n = (uint32_t)n;
    vs->nnamed = (uint32_t)L->nnamed;
    vs->values = vals;
    vs->order = order;
    vs->by_name = L->by_name;
    vs->nslots = (uint32_t)nslots;
    return 0;
}

/* "auto": the largest finite settle time of the values layers use, or of
 * all values when layers use none. */
static void resolve_auto(loader_t *L)
{
    const rf_values_t *vs = &L->sc->values;
    int any_used = 0;
    for (uint32_t i = 0; i < vs->n; i++)
        if (vs->values[i].used)
            any_used = 1;
    double best = 0;
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        if ((any_used && !v->used) || !isfinite(v->settle))
            continue;
        if (v->settle > best)
            best = v->settle;
    }
    L->sc->duration_auto = 1;
    if (!(best > 0)) {
        size_t m0 = push(L, "timeline");
        size_t m = push(L, "duration");
        err(L, "\"auto\" needs a value that settles: set a duration in seconds");
        pop(L, m);
        pop(L, m0);
        return;
    }
    set_frames(L, best);
}

/* ------------------------------------------------------------------ */
/* Top level                                                            */

static const char *const top_keys[] = {
    "runeframe", "canvas", "timeline", "values", "paths", "layers", "checks",
};

static void load_root(loader_t *L, const cJSON *root)
{
    rf_scene_t *sc = L->sc;
    if (!cJSON_IsObject(root)) {
        err(L, "a scene must be a JSON object, got %s", json_type(root));
        return;
    }
    check_finite(L, root);
    const cJSON *f[NELEM(top_keys)];
    scan_keys(L, root, top_keys, NELEM(top_keys), f);

    /* runeframe: the format version */
    if (f[0] == NULL) {
        err(L, "missing required key 'runeframe' (the format version: \"runeframe\": 1)");
    } else if (!cJSON_IsNumber(f[0])) {
        err_key(L, "runeframe", "must be 1 (the format version), got %s", json_type(f[0]));
    } else if (isfinite(f[0]->valuedouble) && f[0]->valuedouble != 1) {
        nbuf_t b;
        err_key(L, "runeframe", "unsupported format version %s: this runeframe reads "
                "version 1", num(&b, f[0]->valuedouble));
    }

    if (f[1] == NULL) {
        err(L, "missing required key 'canvas'");
    } else {
        size_t m = push(L, "canvas");
        parse_canvas(L, f[1]);
        pop(L, m);
    }

    L->fps = 60;
    L->fps_ok = 1;
    L->duration_ok = 1;
    if (f[2] != NULL) {
        size_t m = push(L, "timeline");
        parse_timeline(L, f[2]);
        pop(L, m);
    }
    sc->fps = L->fps;

    if (f[3] != NULL) {
        size_t m = push(L, "values");
        parse_values(L, f[3]);
        pop(L, m);
    }
    index_values(L);
    L->indexed = 1;
    add_deferred(L);

    if (f[4] != NULL) {
        size_t m = push(L, "paths");
        parse_paths(L, f[4]);
        pop(L, m);
    }
    /* every name is known now: expressions, samples and `from` sources */
    resolve_pending(L);
    if (f[5] != NULL && !L->items_over) {
        size_t m = push(L, "layers");
        parse_layers(L, f[5]);
        pop(L, m);
    }
    if (f[6] != NULL) {
        size_t m = push(L, "checks");
        parse_checks(L, f[6]);
        pop(L, m);
    }
    if (L->oom)
        return;
    /* the graph: evaluation order, cycles, "used" through expressions */
    if (!L->items_over && sort_values(L) != 0 && L->oom)
        return;

    /* Frames need fps and duration; with an explicit duration they do not
     * depend on the values, so check them even when values have errors. */
    int frames_ok = 0;
    if (L->fps_ok && L->duration_ok && L->duration_given)
        frames_ok = set_frames(L, L->duration) == 0;
    if (nerrors(L) > 0) {
        if (frames_ok && L->check_list != NULL)
            resolve_checks(L);
        return;
    }
    if (build_values(L) != 0)
        return;
    fix_layers(sc->values.values, L->layers, sc->nlayers);
    if (!L->duration_given) {
        resolve_auto(L);
        frames_ok = nerrors(L) == 0;
    }
    if (frames_ok && L->check_list != NULL)
        resolve_checks(L);
}

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

rf_scene_t *rf_scene_load_buffer(const char *name, const char *buf, size_t len,
                                 rf_diag_t *diag)
{
    rf_diag_init(diag, name);
    if (len > RF_MAX_FILE_BYTES) {
        rf_diag_file(diag, "file too large: a scene is at most %u bytes (64 MiB), this one "
                     "has %zu", (unsigned)RF_MAX_FILE_BYTES, len);
        return NULL;
    }
    rf_json_error_t je;
    if (rf_json_check(buf, len, RF_MAX_DEPTH, &je) != 0) {
        rf_diag_syntax_at(diag, buf, len, &je.loc, "%s", je.reason);
        return NULL;
    }
    /* cJSON wants a NUL-terminated text; skip a byte order mark it does not know */
    size_t skip = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    char *text = malloc(len - skip + 1);
    if (text == NULL) {
        diag->io_error = 1;
        rf_diag_file(diag, "out of memory");
        return NULL;
    }
    memcpy(text, buf + skip, len - skip);
    text[len - skip] = '\0';
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (root == NULL) {
        /* jsonsyn accepted it: cJSON can then only have run out of memory */
        diag->io_error = 1;
        rf_diag_file(diag, "out of memory while parsing");
        free(text);
        return NULL;
    }

    loader_t L;
    memset(&L, 0, sizeof L);
    L.d = diag;
    L.arena = rf_arena_create();
    rf_scene_t *sc = L.arena != NULL ? rf_arena_alloc(L.arena, sizeof *sc) : NULL;
    if (sc == NULL) {
        diag->io_error = 1;
        rf_diag_file(diag, "out of memory");
        rf_arena_destroy(L.arena);
        cJSON_Delete(root);
        free(text);
        return NULL;
    }
    sc->arena = L.arena;
    sc->file = rf_arena_strdup(L.arena, name != NULL ? name : "-");
    sc->fps = 60;
    L.sc = sc;

    load_root(&L, root);

    free(L.vals);
    free(L.names);
    free(L.path_refs);
    free(L.path_names);
    free(L.order);
    rf_arena_destroy(L.scratch);
    cJSON_Delete(root);
    free(text);
    if (nerrors(&L) > 0 || sc->file == NULL) {
        if (sc->file == NULL && nerrors(&L) == 0) {
            diag->io_error = 1;
            rf_diag_file(diag, "out of memory");
        }
        rf_arena_destroy(L.arena);
        return NULL;
    }
    return sc;
}

rf_scene_t *rf_scene_load(const char *path, rf_diag_t *diag)
{
    rf_diag_init(diag, path);
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (f == NULL) {
        diag->io_error = 1;
        rf_diag_file(diag, "cannot read: %s", strerror(errno));
        return NULL;
    }
    /* Read in chunks and stop one byte past the limit, so a huge file (or
     * an endless pipe) is refused without being read whole. */
    size_t cap = 64 << 10, len = 0;
    char *buf = malloc(cap);
    int too_big = 0, rd_err = 0, saved = 0;
    while (buf != NULL) {
        if (len == cap) {
            if (cap > RF_MAX_FILE_BYTES) {
                too_big = 1;
                break;
            }
            size_t ncap = cap * 2;
            if (ncap > (size_t)RF_MAX_FILE_BYTES + 1)
                ncap = (size_t)RF_MAX_FILE_BYTES + 1;
            char *nb = realloc(buf, ncap);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0 || len < cap) {
            if (ferror(f)) {
                rd_err = 1;
                saved = errno;
            }
            if (feof(f) || rd_err)
                break;
        }
    }
    if (len > RF_MAX_FILE_BYTES)
        too_big = 1;
    if (!is_stdin)
        fclose(f);
    if (buf == NULL) {
        diag->io_error = 1;
        rf_diag_file(diag, "out of memory");
        return NULL;
    }
    if (rd_err) {
        free(buf);
        diag->io_error = 1;
        rf_diag_file(diag, "cannot read: %s", strerror(saved));
        return NULL;
    }
    if (too_big) {
        free(buf);
        rf_diag_file(diag, "file too large: a scene is at most %u bytes (64 MiB)",
                     (unsigned)RF_MAX_FILE_BYTES);
        return NULL;
    }
    rf_scene_t *sc = rf_scene_load_buffer(path, buf, len, diag);
    free(buf);
    return sc;
}

void rf_scene_destroy(rf_scene_t *scene)
{
    if (scene != NULL)
        rf_arena_destroy(scene->arena);
}

double rf_scene_frame_time(const rf_scene_t *scene, long i)
{
    return (double)i / scene->fps;
}
