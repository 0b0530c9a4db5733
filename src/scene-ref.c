/* scene-ref.c - `paths`, and the references of values resolved once
 * every name is known: expression inputs, sample paths and progresses,
 * `from` sources. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonsyn.h"
#include "scene-int.h"

/* ------------------------------------------------------------------ */
/* Paths                                                                */

static int cmp_pathref(const void *a, const void *b)
{
    return strcmp(((const pathref_t *)a)->name, ((const pathref_t *)b)->name);
}

void scene_parse_paths(loader_t *L, const cJSON *obj)
{
    size_t n;
    unsigned char *dup = scene_want_named(L, obj, "an object mapping names to SVG path data", &n);
    if (dup == NULL)
        return;
    /* kept even when some data is bad: values and layers still look names
     * up in it (and find NULL for the bad ones, already reported) */
    L->path_refs = malloc((n ? n : 1) * sizeof *L->path_refs);
    L->path_names = malloc((n ? n : 1) * sizeof *L->path_names);
    rf_scene_path_t *scp = scene_aalloc(L, n, sizeof *scp);
    if (L->path_refs == NULL || L->path_names == NULL || scp == NULL) {
        free(dup);
        scene_err_oom(L);
        return;
    }
    size_t i = 0, k = 0, good = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next, i++) {
        size_t m = scene_push(L, c->string);
        qbuf_t a;
        const rf_path_t *path = NULL;
        if (dup[i]) {
            scene_err(L, "duplicate key '%s'", scene_q(&a, c->string));
            scene_pop(L, m);
            continue;
        }
        if (!cJSON_IsString(c))
            scene_err(L, "must be a string of SVG path data, got %s", scene_json_type(c));
        else if (!L->items_over)
            path = scene_parse_path_data(L, c->valuestring);
        scene_pop(L, m);
        L->path_refs[k].name = c->string;
        L->path_refs[k].path = path;
        L->path_refs[k].data = cJSON_IsString(c) ? c->valuestring : NULL;
        k++;
        if (path != NULL) {
            scp[good].name = rf_arena_strdup(L->arena, c->string);
            scp[good].path = path;
            if (scp[good].name == NULL)
                scene_err_oom(L);
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
int scene_lookup_path(const loader_t *L, const char *name, const rf_path_t **out)
{
    if (L->path_refs == NULL)
        return 0;
    pathref_t key = { name, NULL, NULL };
    const pathref_t *r = bsearch(&key, L->path_refs, L->npaths, sizeof *L->path_refs,
                                 cmp_pathref);
    if (r == NULL)
        return 0;
    *out = r->path;
    return 1;
}

/* One path of a path key: a name in `paths` (its measured path is shared)
 * or inline data, at the current pointer + key k (NULL: the pointer
 * itself); *data the text when it was inline. NULL when bad (reported). */
static const rf_path_t *path_one(loader_t *L, const cJSON *c, const char *k, const char **data)
{
    *data = NULL;
    if (!cJSON_IsString(c)) {
        if (k != NULL)
            scene_err_key(L, k, "must be a path name, SVG path data or a {\"mix\": [A, B], "
                          "\"by\": VALUE} morph, got %s", scene_json_type(c));
        else
            scene_err(L, "must be a path name or SVG path data, got %s", scene_json_type(c));
        return NULL;
    }
    /* the rule of sample_path: a name refers to `paths`, else data */
    const char *s = c->valuestring;
    const rf_path_t *path = NULL;
    if (scene_lookup_path(L, s, &path)) {
        pathref_t key = { s, NULL, NULL };
        const pathref_t *r = bsearch(&key, L->path_refs, L->npaths, sizeof *L->path_refs,
                                     cmp_pathref);
        *data = r != NULL ? r->data : NULL;
        return path;   /* NULL when its data was bad: reported */
    }
    if (scene_valid_name(s)) {
        const char *dym = scene_suggest(L, s, L->path_names, L->npaths);
        char m[300];
        if (dym != NULL)
            snprintf(m, sizeof m, "unknown path '%.100s' (did you mean '%s'?)", s, dym);
        else
            snprintf(m, sizeof m, "unknown path '%.100s'", s);
        if (k != NULL)
            scene_err_key(L, k, "%s", m);
        else
            scene_err(L, "%s", m);
        return NULL;
    }
    size_t mk = k != NULL ? scene_push(L, k) : 0;
    path = scene_parse_path_data(L, s);
    if (k != NULL)
        scene_pop(L, mk);
    *data = s;
    return path;
}

/* "'C' at col 14" for segment i of p (data: its text, for the column in
 * characters); an arc says how many cubics it makes. */
static void describe_seg(char *buf, size_t cap, const rf_path_t *p, uint32_t i, const char *data)
{
    size_t col;
    char c = rf_path_segment_source(p, i, &col);
    int cc = data != NULL ? rf_loc_column(data, strlen(data), col - 1) : (int)col;
    if (rf_path_segment(p, i, NULL) == RF_PATH_MOVE && c != 'M' && c != 'm')
        snprintf(buf, cap, "the figure that '%c' at col %d starts after 'Z'", c, cc);
    else if (c == 'A' || c == 'a')
        snprintf(buf, cap, "'%c' at col %d (an arc of %u cubic%s, one per 45 degrees)", c, cc,
                 rf_path_command_segments(p, i), rf_path_command_segments(p, i) == 1 ? "" : "s");
    else
        snprintf(buf, cap, "'%c' at col %d", c, cc);
}

/* The two paths of a morph must have one structure: the message names the
 * first segment where they differ (at /mix/1, with a caret when B is
 * inline). */
static void check_morph(loader_t *L, const rf_path_t *a, const char *da, const rf_path_t *b,
                        const char *db)
{
    uint32_t i = rf_path_mismatch(a, b);
    if (i == UINT32_MAX)
        return;
    char wa[120], wb[120], msg[400];
    uint32_t na = rf_path_segment_count(a), nb = rf_path_segment_count(b);
    size_t colb = 0;
    /* two arcs that turn into different numbers of cubics */
    uint32_t ia = i < na ? i : i - 1, ib = i < nb ? i : i - 1;
    char ca = ia < na ? rf_path_segment_source(a, ia, NULL) : 0;
    char cb = ib < nb ? rf_path_segment_source(b, ib, &colb) : 0;
    if ((ca == 'A' || ca == 'a') && (cb == 'A' || cb == 'a') &&
        rf_path_command_segments(a, ia) != rf_path_command_segments(b, ib)) {
        size_t cola;
        rf_path_segment_source(a, ia, &cola);
        int cc = da != NULL ? rf_loc_column(da, strlen(da), cola - 1) : (int)cola;
        snprintf(msg, sizeof msg, "the arc '%c' here makes %u cubics where the first path's '%c' "
                 "at col %d makes %u (arcs morph by their cubics, one per 45 degrees: give both "
                 "arcs the same number)", cb, rf_path_command_segments(b, ib), ca, cc,
                 rf_path_command_segments(a, ia));
    } else if (i >= na) {
        describe_seg(wb, sizeof wb, b, i, db);
        snprintf(msg, sizeof msg, "the second path goes on with %s where the first ends "
                 "(a morph needs the same commands, but lines, quadratics and cubics mix)", wb);
    } else if (i >= nb) {
        describe_seg(wa, sizeof wa, a, i, da);
        snprintf(msg, sizeof msg, "the second path ends where the first goes on with %s "
                 "(a morph needs the same commands, but lines, quadratics and cubics mix)", wa);
    } else {
        describe_seg(wa, sizeof wa, a, i, da);
        describe_seg(wb, sizeof wb, b, i, db);
        snprintf(msg, sizeof msg, "the paths differ at segment %u: %s in the second, %s in the "
                 "first (a morph needs the same commands, but lines, quadratics and cubics mix)", i + 1, wb, wa);
    }
    size_t m = scene_push(L, "mix");
    size_t m1 = scene_pushi(L, 1);
    if (db != NULL && colb > 0) {
        size_t len = strlen(db);
        int cc = rf_loc_column(db, len, colb - 1);
        char full[440];
        snprintf(full, sizeof full, "col %d: %s", cc, msg);
        scene_err_caret(L, L->ptr, db, len, cc, full);
    } else {
        scene_err(L, "%s", msg);
    }
    scene_pop(L, m1);
    scene_pop(L, m);
}

static const char *const morph_keys[] = { "mix", "by" };
const scene_names_t scene_morph_names = SCENE_NAMES(morph_keys, "mix");

/* A path layer's `path`: a path (path_one), or {"mix": [A, B], "by": VALUE}. */
void scene_walk_path_key(loader_t *L, const cJSON *c, rf_path_ref_t *out)
{
    const char *k = c->string, *da, *db;
    if (!cJSON_IsObject(c)) {
        out->path = path_one(L, c, k, &da);
        return;
    }
    const char *const *keys = morph_keys;
    const cJSON *f[2];
    size_t m = scene_push(L, k);
    scene_scan_keys(L, c, keys, 2, f);
    const cJSON *mix = f[0];
    if (mix == NULL) {
        scene_err(L, "missing required key 'mix' (a morph is {\"mix\": [A, B], \"by\": VALUE})");
    } else if (!cJSON_IsArray(mix) || cJSON_GetArraySize(mix) != 2) {
        int n = cJSON_GetArraySize(mix);
        if (cJSON_IsArray(mix))
            scene_err_key(L, "mix", "must be an array of 2 paths [A, B] (names in 'paths' or "
                          "path data), got %d element%s", n, n == 1 ? "" : "s");
        else
            scene_err_key(L, "mix", "must be an array of 2 paths [A, B] (names in 'paths' or "
                          "path data), got %s", scene_json_type(mix));
    } else {
        size_t mm = scene_push(L, "mix");
        size_t m0 = scene_pushi(L, 0);
        const rf_path_t *a = path_one(L, mix->child, NULL, &da);
        scene_pop(L, m0);
        size_t m1 = scene_pushi(L, 1);
        const rf_path_t *b = path_one(L, mix->child->next, NULL, &db);
        scene_pop(L, m1);
        scene_pop(L, mm);
        if (a != NULL && b != NULL)
            check_morph(L, a, da, b, db);
        out->path = a;
        out->path2 = b;
        if (a == NULL || b == NULL || rf_path_mismatch(a, b) != UINT32_MAX)
            out->path = out->path2 = NULL;
    }
    if (f[1] == NULL)
        scene_err(L, "missing required key 'by' (the morph amount: 0 is the first path, 1 the "
                  "second)");
    else
        scene_walk_numeric(L, f[1], "by", P_ANY, &out->by);
    scene_pop(L, m);
}

/* ------------------------------------------------------------------ */
/* References: resolved once every value name and path is known          */


/* "a spring value", "an expr value". */
const char *scene_a_kind(rf_value_kind_t kind)
{
    const char *k = rf_value_kind_name(kind);
    return strchr("aeiou", k[0]) != NULL ? "an" : "a";
}

/* A value input written as a string, "NAME" or "NAME.x|y|angle" (layer
 * properties, a sample's progress, text fields): 0 with the value and the
 * index of the output it names (0 for a plain value), or -1 with a message. */
int scene_resolve_input(loader_t *L, const char *s, long *pvi, int *pcomp, char *msg, size_t cap)
{
    qbuf_t a;
    const char *dot = strchr(s, '.');
    size_t len = dot != NULL ? (size_t)(dot - s) : strlen(s);
    char name[256];             /* for messages: cut with "..." */
    int ok = scene_valid_name_n(s, len);
    if (ok) {
        size_t n = len < sizeof name ? len : sizeof name - 4;
        memcpy(name, s, n);
        strcpy(name + n, len < sizeof name ? "" : "...");
    }
    if (!ok) {
        /* "x + 1" here is most likely meant as an expression */
        snprintf(msg, cap, "must be a number, a value name or a value object, got \"%s\"%s",
                 scene_q(&a, s), strpbrk(s, "+-*/%()<>=?! ") != NULL
                 ? " (an expression is a value object: {\"expr\": \"...\"})" : "");
        return -1;
    }
    long vi = scene_lookup_value(L, s, len);
    if (vi < 0) {
        const char *dym = len < sizeof name ? scene_suggest(L, name, L->names, L->nnamed) : NULL;
        if (dym != NULL)
            snprintf(msg, cap, "unknown value '%s' (did you mean '%s'?)", name, dym);
        else
            snprintf(msg, cap, "unknown value '%s'", name);
        return -1;
    }
    int comp = RF_EXPR_PLAIN;
    const char *field = NULL;
    if (dot != NULL) {
        field = scene_q(&a, dot + 1);
        comp = -1;             /* unknown: the message names field */
        for (int c = 0; c < RF_EXPR_COMPONENTS; c++)
            if (strcmp(dot + 1, rf_expr_components[c]) == 0)
                comp = RF_EXPR_X + c;
    }
    int k;
    if (scene_value_output(L, vi, comp, name, field, msg, cap, &k) != 0)
        return -1;
    *pvi = vi;
    *pcomp = k;
    return 0;
}

int scene_inst_name(const char *name, size_t len)
{
    return len == 1 && name[0] == 'i' ? 0 : len == 1 && name[0] == 'n' ? 1 : -1;
}

long scene_inst_value(loader_t *L, int which)
{
    if (L->inst_vi[which] < 0) {
        cJSON num;
        memset(&num, 0, sizeof num);
        num.type = cJSON_Number;
        num.valuedouble = which; /* i = 0, n = 1 outside instances */
        size_t vi = scene_add_value(L, "", &num);
        if (vi == SIZE_MAX)
            return -1;
        /* no place in the file: not the pointer of the expression that
         * first read it (check traces inline values by their pointers) */
        L->vals[vi].ptr = "";
        L->inst_vi[which] = (long)vi;
    }
    return L->inst_vi[which];
}

/* First-pass resolver: names to value indices (as slots) with unbounded
 * ranges, to check the names and collect the graph's edges. */
static int resolve_first(void *ctx, const char *name, size_t len, int comp,
                         rf_expr_ref_t *out, char *e, size_t elen)
{
    loader_t *L = ctx;
    int which = scene_inst_name(name, len);
    if (which >= 0 && comp != RF_EXPR_PLAIN) {
        snprintf(e, elen, "'%c' is the instance %s: it has no outputs", name[0],
                 which == 0 ? "number" : "count");
        return -1;
    }
    if (which >= 0) {
        long iv = scene_inst_value(L, which);
        if (iv < 0) {
            snprintf(e, elen, "out of memory or items for '%c'", name[0]);
            return -1;
        }
        out->slot = (uint32_t)iv;
        out->lo = -INFINITY;
        out->hi = INFINITY;
        return 0;
    }
    long vi = scene_lookup_value(L, name, len);
    int shown = len > 200 ? 200 : (int)len;
    if (vi < 0) {
        char nm[256];
        const char *dym = NULL;
        if (len < sizeof nm) {
            memcpy(nm, name, len);
            nm[len] = '\0';
            dym = scene_suggest(L, nm, L->names, L->nnamed);
        }
        if (dym != NULL)
            snprintf(e, elen, "unknown value '%.*s' (did you mean '%s'?)", shown, name, dym);
        else
            snprintf(e, elen, "unknown value '%.*s'", shown, name);
        return -1;
    }
    char nm[256];
    snprintf(nm, sizeof nm, "%.*s", shown, name);
    int k;
    if (scene_value_output(L, vi, comp, nm, NULL, e, elen, &k) != 0)
        return -1;
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
    v->deps = scene_aalloc(L, n, sizeof *v->deps);
    v->edge_ptr = rf_arena_strdup(L->arena, ptr);
    if (v->deps == NULL || v->edge_ptr == NULL) {
        scene_err_oom(L);
        v->ndeps = 0;
        return;
    }
    if (n > 0)
        memcpy(v->deps, deps, n * sizeof *deps);
    v->ndeps = n;
    v->derived_deps = derived;
}

/* A resolver that knows no name: an expression it compiles reads t and
 * numbers alone. */
static int resolve_none(void *ctx, const char *name, size_t len, int comp, rf_expr_ref_t *out,
                        char *e, size_t elen)
{
    (void)ctx;
    (void)name;
    (void)len;
    (void)comp;
    (void)out;
    snprintf(e, elen, "a name");
    return -1;
}

static void resolve_expr(loader_t *L, size_t k)
{
    vsrc_t *v = &L->vals[k];
    char ptr[sizeof L->ptr + 32];
    size_t pl = strnlen(v->ptr, sizeof ptr - sizeof "/expr");   /* snprintf's "%s/expr" */
    memcpy(ptr, v->ptr, pl);
    memcpy(ptr + pl, "/expr", sizeof "/expr");
    if (L->scratch == NULL && (L->scratch = rf_arena_create()) == NULL) {
        scene_err_oom(L);
        return;
    }
    size_t len = strlen(v->src);
    rf_expr_t *e = NULL;
    rf_expr_error_t ee;
    /* one that reads no value (a scene's thousands of drifting positions,
     * "854.2 + 4.5 * sin(2.19 * t + 1.16)") compiled whole now, as
     * build_expr would (no input, the same ranges: the same code), instead
     * of twice; any other, or any error, takes the first pass below, which
     * says what is wrong as before */
    if (rf_expr_compile(v->src, len, 0, T_MAX, resolve_none, NULL, scene_arena_alloc_fn,
                        L->arena, &e, &ee) == 0) {
        v->pre = e;
        set_deps(L, k, NULL, 0, 1, ptr);
        return;
    }
    e = NULL;
    if (rf_expr_compile_ex(v->src, len, 0, T_MAX, resolve_first, L, scene_arena_alloc_fn,
                           L->scratch, RF_MAX_EXPR_BYTES, RF_EXPR_DEPS_ONLY, &e, &ee) != 0) {
        if (ee.oom) {
            scene_err_oom(L);
        } else {
            char m[RF_EXPR_ERR_MSG + 32];
            snprintf(m, sizeof m, "col %d: %s", ee.col, ee.msg);
            scene_err_caret(L, ptr, v->src, len, ee.col, m);
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
        if (!scene_lookup_path(L, v->path_ref, &v->path)) {
            const char *dym = scene_suggest(L, v->path_ref, L->path_names, L->npaths);
            if (dym != NULL)
                scene_err_at(L, ptr, "unknown path '%s' (did you mean '%s'?)", v->path_ref, dym);
            else
                scene_err_at(L, ptr, "unknown path '%s'", v->path_ref);
        } else if (v->path != NULL) {
            char what[32];
            size_t col;
            if (scene_second_figure(v->path, what, sizeof what, &col) != NULL) {
                /* seed 000: SamplePath takes one figure */
                pathref_t key = { v->path_ref, NULL, NULL };
                const pathref_t *r = bsearch(&key, L->path_refs, L->npaths,
                                             sizeof *L->path_refs, cmp_pathref);
                const char *d = r != NULL && r->data != NULL ? r->data : "";
                scene_err_at(L, ptr, "path '%s' has more than one figure (%s at col %d of its "
                             "data starts another): sample_path needs a path of one figure",
                             v->path_ref, what, rf_loc_column(d, strlen(d), col - 1));
                v->path = NULL;
            }
        }
    }
    snprintf(ptr, sizeof ptr, "%s/sample_path/progress", v->ptr);
    if (v->progress_ref != NULL) {
        long vi;
        int comp;
        if (scene_resolve_input(L, v->progress_ref, &vi, &comp, msg, sizeof msg) != 0) {
            scene_err_at(L, ptr, "%s", msg);
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
    long vi = scene_lookup_value(L, s, len);
    if (vi < 0 || (dot != NULL && L->vals[vi].kind != RF_VALUE_SAMPLE_PATH)) {
        char name[256];
        const char *dym = NULL;
        if (!scene_valid_name(s)) {
            scene_err_at(L, ptr, "must be a number or a value name, got \"%s\"", scene_q(&a, s));
            return;
        }
        snprintf(name, sizeof name, "%s", s);
        dym = scene_suggest(L, name, L->names, L->nnamed);
        if (dym != NULL)
            scene_err_at(L, ptr, "unknown value '%s' (did you mean '%s'?)", scene_q(&a, s), dym);
        else
            scene_err_at(L, ptr, "unknown value '%s'", scene_q(&a, s));
        return;
    }
    rf_value_kind_t kind = L->vals[vi].kind;
    if (kind == RF_VALUE_EXPR || kind == RF_VALUE_SAMPLE_PATH) {
        scene_err_at(L, ptr, "'%.*s' is %s: expressions and path samples are downstream only and "
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
void scene_resolve_pending(loader_t *L)
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
void scene_add_deferred(loader_t *L)
{
    for (size_t i = 0; i < L->nnamed && !L->items_over; i++) {
        const cJSON *obj = L->vals[i].progress_obj;
        if (obj == NULL)
            continue;
        L->vals[i].progress_obj = NULL;
        snprintf(L->ptr, sizeof L->ptr, "%s/sample_path/progress", L->vals[i].ptr);
        size_t pi = scene_add_value(L, "", obj);
        if (pi != SIZE_MAX)
            L->vals[i].progress_vi = (long)pi;
    }
    L->ptr[0] = '\0';
}

