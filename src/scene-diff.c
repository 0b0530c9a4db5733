/* scene-diff.c - what changed between two scene texts, by JSON pointer
 * (scene-diff.h). The recursion follows the nesting, which the syntax
 * check bounds at RF_MAX_DEPTH; objects are matched through their keys
 * sorted once per object pair. */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup in C11 mode (the fuzz build's -std=c11) */
#endif
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "jsonsyn.h"
#include "scene-diff.h"
#include "scene-int.h"
#include "scene.h"

#define DIFF_PTR_MAX 1024

typedef struct differ {
    rf_scene_diff_t *d;
    char ptr[DIFF_PTR_MAX];
    int oom;
} differ_t;

typedef struct keyed {
    const char *key;
    const cJSON *node;
    size_t idx;
} keyed_t;

/* Compact JSON of it, cut to RF_SCENE_EDIT_TEXT bytes (before a UTF-8
 * continuation byte) with "..."; NULL when out of memory. */
static char *diff_text(const cJSON *it)
{
    char *s = cJSON_PrintUnformatted(it);
    if (s == NULL)
        return NULL;
    size_t n = strlen(s);
    if (n >= RF_SCENE_EDIT_TEXT) {
        size_t k = RF_SCENE_EDIT_TEXT - 4;
        while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
            k--;
        memcpy(s + k, "...", 4);
    }
    return s;
}

static void diff_add(differ_t *df, rf_scene_edit_kind_t kind, const cJSON *was,
                     const cJSON *now)
{
    rf_scene_diff_t *d = df->d;
    d->total++;
    if (d->n >= RF_SCENE_DIFF_MAX || df->oom)
        return;
    if (d->edits == NULL) {
        d->edits = calloc(RF_SCENE_DIFF_MAX, sizeof *d->edits);
        if (d->edits == NULL) {
            df->oom = 1;
            return;
        }
    }
    rf_scene_edit_t *e = &d->edits[d->n];
    e->kind = kind;
    e->ptr = strdup(df->ptr);
    e->was = was != NULL ? diff_text(was) : NULL;
    e->now = now != NULL ? diff_text(now) : NULL;
    if (e->ptr == NULL || (was != NULL && e->was == NULL) || (now != NULL && e->now == NULL)) {
        free(e->ptr);
        free(e->was);
        free(e->now);
        memset(e, 0, sizeof *e);
        df->oom = 1;
        return;
    }
    d->n++;
}

static int keyed_cmp(const void *a, const void *b)
{
    const keyed_t *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c != 0 ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The children of obj sorted by key (malloc'd, *n of them); NULL with
 * *n = 0 for none, or when out of memory (df->oom). */
static keyed_t *diff_sorted(differ_t *df, const cJSON *obj, size_t *n)
{
    size_t k = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next)
        k++;
    *n = 0;
    if (k == 0)
        return NULL;
    keyed_t *v = malloc(k * sizeof *v);
    if (v == NULL) {
        df->oom = 1;
        return NULL;
    }
    k = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next, k++) {
        v[k].key = c->string != NULL ? c->string : "";
        v[k].node = c;
        v[k].idx = k;
    }
    qsort(v, k, sizeof *v, keyed_cmp);
    *n = k;
    return v;
}

/* The first child called key in sorted v, or NULL. */
static const cJSON *diff_find(const keyed_t *v, size_t n, const char *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(v[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(v[lo].key, key) == 0 ? v[lo].node : NULL;
}

static void diff_node(differ_t *df, const cJSON *a, const cJSON *b);

static void diff_object(differ_t *df, const cJSON *a, const cJSON *b)
{
    size_t na, nb;
    keyed_t *sa = diff_sorted(df, a, &na), *sb = diff_sorted(df, b, &nb);
    if (df->oom)
        goto out;
    for (const cJSON *c = a->child; c != NULL && !df->oom; c = c->next) {
        const char *key = c->string != NULL ? c->string : "";
        const cJSON *o = diff_find(sb, nb, key);
        size_t m = rf_pointer_push(df->ptr, sizeof df->ptr, key);
        if (o == NULL)
            diff_add(df, RF_EDIT_REMOVED, c, NULL);
        else
            diff_node(df, c, o);
        df->ptr[m] = '\0';
    }
    for (const cJSON *c = b->child; c != NULL && !df->oom; c = c->next) {
        const char *key = c->string != NULL ? c->string : "";
        if (diff_find(sa, na, key) != NULL)
            continue;
        size_t m = rf_pointer_push(df->ptr, sizeof df->ptr, key);
        diff_add(df, RF_EDIT_ADDED, NULL, c);
        df->ptr[m] = '\0';
    }
out:
    free(sa);
    free(sb);
}

static void diff_array(differ_t *df, const cJSON *a, const cJSON *b)
{
    const cJSON *x = a->child, *y = b->child;
    for (size_t i = 0; (x != NULL || y != NULL) && !df->oom; i++) {
        size_t m = rf_pointer_push_index(df->ptr, sizeof df->ptr, i);
        if (y == NULL)
            diff_add(df, RF_EDIT_REMOVED, x, NULL);
        else if (x == NULL)
            diff_add(df, RF_EDIT_ADDED, NULL, y);
        else
            diff_node(df, x, y);
        df->ptr[m] = '\0';
        x = x != NULL ? x->next : NULL;
        y = y != NULL ? y->next : NULL;
    }
}

static void diff_node(differ_t *df, const cJSON *a, const cJSON *b)
{
    int ta = a->type & 0xFF, tb = b->type & 0xFF;
    if (ta != tb) {
        diff_add(df, RF_EDIT_CHANGED, a, b);
    } else if (cJSON_IsObject(a)) {
        diff_object(df, a, b);
    } else if (cJSON_IsArray(a)) {
        diff_array(df, a, b);
    } else if (cJSON_IsNumber(a)) {
        if (!(a->valuedouble == b->valuedouble))
            diff_add(df, RF_EDIT_CHANGED, a, b);
    } else if (cJSON_IsString(a)) {
        if (strcmp(a->valuestring, b->valuestring) != 0)
            diff_add(df, RF_EDIT_CHANGED, a, b);
    }
    /* true, false, null: the type says it all */
}

/* Parses one side: the loader's limits, then cJSON. NULL with err. */
static cJSON *diff_parse(const char *text, size_t len, const char *name, char *err,
                         size_t errlen)
{
    rf_json_error_t je;
    if (len > RF_MAX_FILE_BYTES) {
        snprintf(err, errlen, "%s: larger than 64 MiB (%zu bytes), not a scene", name, len);
        return NULL;
    }
    if (rf_json_check(text, len, RF_MAX_DEPTH, &je) != 0) {
        snprintf(err, errlen, "%s:%d:%d: not a scene: %s", name, je.line, je.col, je.reason);
        return NULL;
    }
    size_t skip = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    char *buf = malloc(len - skip + 1);
    if (buf == NULL) {
        snprintf(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    memcpy(buf, text + skip, len - skip);
    buf[len - skip] = '\0';
    scene_json_hooks();
    cJSON *root = cJSON_ParseWithOpts(buf, NULL, 1);
    free(buf);
    if (root == NULL)
        snprintf(err, errlen, "%s: out of memory while parsing", name);
    return root;
}

int rf_scene_diff(const char *was, size_t wlen, const char *was_name, const char *now,
                  size_t nlen, const char *now_name, rf_scene_diff_t *d, char *err,
                  size_t errlen)
{
    differ_t df;
    memset(d, 0, sizeof *d);
    memset(&df, 0, sizeof df);
    df.d = d;
    cJSON *a = diff_parse(was, wlen, was_name != NULL ? was_name : "old scene", err, errlen);
    if (a == NULL)
        return -1;
    cJSON *b = diff_parse(now, nlen, now_name != NULL ? now_name : "scene", err, errlen);
    if (b == NULL) {
        cJSON_Delete(a);
        return -1;
    }
    diff_node(&df, a, b);
    cJSON_Delete(a);
    cJSON_Delete(b);
    if (df.oom) {
        rf_scene_diff_free(d);
        snprintf(err, errlen, "out of memory comparing %s with %s",
                 was_name != NULL ? was_name : "old scene", now_name != NULL ? now_name : "scene");
        return -1;
    }
    return 0;
}

void rf_scene_diff_free(rf_scene_diff_t *d)
{
    if (d == NULL)
        return;
    for (size_t i = 0; i < d->n; i++) {
        free(d->edits[i].ptr);
        free(d->edits[i].was);
        free(d->edits[i].now);
    }
    free(d->edits);
    memset(d, 0, sizeof *d);
}

int rf_scene_edit_format(char *buf, size_t cap, const rf_scene_edit_t *e)
{
    const char *p = e->ptr[0] != '\0' ? e->ptr : "(the whole file)";
    switch (e->kind) {
    case RF_EDIT_ADDED:
        return snprintf(buf, cap, "%s added: %s", p, e->now);
    case RF_EDIT_REMOVED:
        return snprintf(buf, cap, "%s removed (was %s)", p, e->was);
    default:
        return snprintf(buf, cap, "%s %s -> %s", p, e->was, e->now);
    }
}
