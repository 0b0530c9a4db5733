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
 * Each stage is a file of its own (scene-int.h lists them); this one holds
 * the top level and the entry points of scene.h.
 */
#define _GNU_SOURCE 1 /* realpath, strndup */

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonsyn.h"
#include "motion.h"
#include "scene-int.h"

/* ------------------------------------------------------------------ */
/* Top level                                                            */

static const char *const top_keys[] = {
    "runeframe", "canvas", "timeline", "values", "paths", "layers", "checks", "fonts",
    "reduced_motion", "motion_scheme", "$schema", "states", "transitions",
    "storyboard",
};
const scene_names_t scene_top_names = SCENE_NAMES(top_keys, "runeframe canvas");
/* Their indices in top_keys (keep the two in the same order). */
enum {
    TOP_RUNEFRAME, TOP_CANVAS, TOP_TIMELINE, TOP_VALUES, TOP_PATHS, TOP_LAYERS, TOP_CHECKS,
    TOP_FONTS, TOP_REDUCED_MOTION, TOP_MOTION_SCHEME, TOP_SCHEMA, TOP_STATES, TOP_TRANSITIONS,
    TOP_STORYBOARD, TOP_N
};
_Static_assert(TOP_N == NELEM(top_keys), "top_keys and its enum differ");


static void load_root(loader_t *L, const cJSON *root)
{
    rf_scene_t *sc = L->sc;
    if (!cJSON_IsObject(root)) {
        scene_err(L, "a scene must be a JSON object, got %s", scene_json_type(root));
        return;
    }
    scene_check_finite(L, root);
    const cJSON *f[NELEM(top_keys)];
    scene_scan_keys(L, root, top_keys, NELEM(top_keys), f);

    /* runeframe: the format version */
    if (f[TOP_RUNEFRAME] == NULL) {
        scene_err(L, "missing required key 'runeframe' (the format version: \"runeframe\": 1)");
    } else if (!cJSON_IsNumber(f[TOP_RUNEFRAME])) {
        scene_err_key(L, "runeframe", "must be 1 (the format version), got %s",
                      scene_json_type(f[TOP_RUNEFRAME]));
    } else if (isfinite(f[TOP_RUNEFRAME]->valuedouble) && f[TOP_RUNEFRAME]->valuedouble != 1) {
        nbuf_t b;
        scene_err_key(L, "runeframe", "unsupported format version %s: this runeframe reads "
                      "version 1", scene_num(&b, f[TOP_RUNEFRAME]->valuedouble));
    }

    /* $schema: where an editor finds the JSON Schema (`runeframe schema`) */
    if (f[TOP_SCHEMA] != NULL && !cJSON_IsString(f[TOP_SCHEMA]))
        scene_err_key(L, "$schema", "must be a string (the schema's path or URI), got %s",
                      scene_json_type(f[TOP_SCHEMA]));

    if (f[TOP_CANVAS] == NULL) {
        scene_err(L, "missing required key 'canvas'");
    } else {
        size_t m = scene_push(L, "canvas");
        scene_parse_canvas(L, f[TOP_CANVAS]);
        scene_pop(L, m);
    }

    L->fps = 60;
    L->fps_ok = 1;
    L->duration_ok = 1;
    if (f[TOP_TIMELINE] != NULL) {
        size_t m = scene_push(L, "timeline");
        scene_parse_timeline(L, f[TOP_TIMELINE]);
        scene_pop(L, m);
    }
    sc->fps = L->fps;

    if (f[TOP_MOTION_SCHEME] != NULL) {
        size_t m = scene_push(L, "motion_scheme");
        scene_parse_motion_scheme(L, f[TOP_MOTION_SCHEME]);
        scene_pop(L, m);
    }
    if (f[TOP_REDUCED_MOTION] != NULL) {
        size_t m = scene_push(L, "reduced_motion");
        scene_parse_reduced_motion(L, f[TOP_REDUCED_MOTION]);
        scene_pop(L, m);
    }
    if (f[TOP_VALUES] != NULL) {
        size_t m = scene_push(L, "values");
        scene_parse_values(L, f[TOP_VALUES]);
        scene_pop(L, m);
    }
    scene_parse_story(L, f[TOP_STATES], f[TOP_TRANSITIONS], f[TOP_STORYBOARD]);
    scene_index_values(L);
    L->indexed = 1;
    scene_add_deferred(L);

    if (f[TOP_PATHS] != NULL) {
        size_t m = scene_push(L, "paths");
        scene_parse_paths(L, f[TOP_PATHS]);
        scene_pop(L, m);
    }
    /* every name is known now: expressions, samples and `from` sources */
    scene_resolve_pending(L);
    if (L->background != NULL) {
        size_t m = scene_push(L, "canvas");
        scene_parse_background(L);
        scene_pop(L, m);
    }
    if (f[TOP_FONTS] != NULL) {
        size_t m = scene_push(L, "fonts");
        scene_parse_fonts(L, f[TOP_FONTS]);
        scene_pop(L, m);
    }
    if (f[TOP_LAYERS] != NULL && !L->items_over) {
        size_t m = scene_push(L, "layers");
        scene_parse_layers(L, f[TOP_LAYERS]);
        scene_pop(L, m);
    }
    if (f[TOP_CHECKS] != NULL) {
        size_t m = scene_push(L, "checks");
        scene_parse_checks(L, f[TOP_CHECKS]);
        scene_pop(L, m);
    }
    if (L->oom)
        return;
    /* the graph: evaluation order, cycles, "used" through expressions */
    if (!L->items_over && scene_sort_values(L) != 0 && L->oom)
        return;

    /* Frames need fps and duration; with an explicit duration they do not
     * depend on the values, so check them even when values have errors. */
    int frames_ok = 0;
    if (L->fps_ok && L->duration_ok && L->duration_given)
        frames_ok = scene_set_frames(L, L->duration) == 0;
    if (scene_nerrors(L) > 0) {
        if (frames_ok && L->check_list != NULL)
            scene_resolve_checks(L);
        return;
    }
    if (scene_build_values(L) != 0)
        return;
    scene_fix_layers(sc->values.values, L->layers, sc->nlayers);
    if (sc->background_slot != RF_PROP_CONST) {   /* SCENE_PENDING, as in the layers */
        uint32_t p = sc->background_slot;
        sc->background_slot = sc->values.values[p / 4].slot + p % 4;
    }
    if (scene_story_finish(L) != 0)
        return;
    if (!L->duration_given) {
        scene_resolve_auto(L);
        frames_ok = scene_nerrors(L) == 0;
    }
    if (frames_ok && L->check_list != NULL)
        scene_resolve_checks(L);
}

/* ------------------------------------------------------------------ */
/* cJSON's allocator (scene-int.h)                                      */

/* Under AddressSanitizer (the sanitizer build, the fuzz harnesses) no
 * span: a node used after its tree is gone, or leaked, is still seen. */
#if defined(__SANITIZE_ADDRESS__)
#define RF_JSON_NO_SPANS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RF_JSON_NO_SPANS 1
#endif
#endif
#ifndef RF_JSON_NO_SPANS
#define RF_JSON_NO_SPANS 0
#endif

/* A span's memory: chunks of at least JSON_CHUNK bytes, bumped, not
 * zeroed (cJSON clears its nodes itself), freed together. */
#define JSON_CHUNK (1u << 20)
typedef struct json_chunk {
    struct json_chunk *next;
    size_t used, size;
    _Alignas(max_align_t) unsigned char data[];
} json_chunk_t;
#define JSON_ALIGN ((size_t)_Alignof(max_align_t))

static _Thread_local json_chunk_t *json_span; /* the span's newest chunk */
static _Thread_local int json_on;             /* in a span: cJSON's frees do nothing */

static void *json_alloc(size_t n)
{
    if (!json_on)
        return malloc(n);
    if (n > SIZE_MAX / 2)
        return NULL;
    size_t need = (n + JSON_ALIGN - 1) & ~(JSON_ALIGN - 1);
    json_chunk_t *c = json_span;
    if (c == NULL || c->size - c->used < need) {
        size_t size = need > JSON_CHUNK ? need : JSON_CHUNK;
        if ((c = malloc(sizeof *c + size)) == NULL)
            return NULL;
        c->next = json_span;
        c->used = 0;
        c->size = size;
        json_span = c;
    }
    void *p = c->data + c->used;
    c->used += need;
    return p;
}

static void json_free(void *p)
{
    if (!json_on)
        free(p);
}

static pthread_once_t json_once = PTHREAD_ONCE_INIT;

static void json_install(void)
{
    cJSON_Hooks h = { json_alloc, json_free };
    cJSON_InitHooks(&h);
}

void scene_json_hooks(void)
{
    pthread_once(&json_once, json_install);
}

scene_json_t scene_json_begin(void)
{
    scene_json_hooks();
    scene_json_t outer = { json_span, json_on };
#if !RF_JSON_NO_SPANS /* with ASan: malloc's, which sees every node's use and leak */
    json_span = NULL;
    json_on = 1;
#endif
    return outer;
}

void scene_json_end(scene_json_t outer)
{
    if (json_span != outer.span)   /* this span's chunks (none without spans) */
        for (json_chunk_t *c = json_span, *next; c != NULL; c = next) {
            next = c->next;
            free(c);
        }
    json_span = outer.span;
    json_on = outer.on;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

/* The folder of the scene file name, resolved: what asset paths are
 * relative to. malloc'd; NULL when it cannot be resolved. */
static char *scene_folder(const char *name)
{
    const char *slash = name != NULL && strcmp(name, "-") != 0 ? strrchr(name, '/') : NULL;
    char *dir = slash == NULL ? strdup(".") : strndup(name, (size_t)(slash - name) + 1);
    char *real = dir != NULL ? realpath(dir, NULL) : NULL;
    free(dir);
    return real;
}

rf_scene_t *rf_scene_load_buffer(const char *name, const char *buf, size_t len,
                                 rf_diag_t *diag)
{
    return rf_scene_load_buffer_with(name, buf, len, NULL, diag);
}

rf_scene_t *rf_scene_load_buffer_with(const char *name, const char *buf, size_t len,
                                      const rf_scene_opts_t *opts, rf_diag_t *diag)
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
    scene_json_t json = scene_json_begin();
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (root == NULL) {
        /* jsonsyn accepted it: cJSON can then only have run out of memory */
        scene_json_end(json);
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
        scene_json_end(json);
        free(text);
        return NULL;
    }
    sc->arena = L.arena;
    sc->file = rf_arena_strdup(L.arena, name != NULL ? name : "-");
    sc->fps = 60;
    sc->inst_slot[0] = sc->inst_slot[1] = UINT32_MAX; /* RF_PROP_CONST: no i, n */
    sc->background_slot = RF_PROP_CONST;
    L.inst_vi[0] = L.inst_vi[1] = -1;
    L.sc = sc;
    L.root = scene_folder(name);
    L.assets_arg = opts != NULL ? opts->assets : NULL;
    L.reduced = opts != NULL && opts->reduced_motion;
    L.rm_scale = 1;
    L.scheme = rf_motion_standard;
    if (L.assets_arg != NULL)
        L.assets_root = realpath(L.assets_arg, NULL);

    load_root(&L, root);
    /* the text, for check --update's DIR/scene.json */
    char *keep = scene_nerrors(&L) == 0 ? rf_arena_alloc(L.arena, len - skip + 1) : NULL;
    if (keep != NULL) {
        memcpy(keep, text, len - skip + 1);
        sc->source = keep;
        sc->source_len = len - skip;
    }

    free(L.root);
    free(L.assets_root);
    free(L.vals);
    free(L.names);
    free(L.path_refs);
    free(L.path_names);
    free(L.order);
    free(L.sampled);
    scene_story_free(&L);
    rf_arena_destroy(L.scratch);
    cJSON_Delete(root);
    scene_json_end(json);
    free(text);
    if (scene_nerrors(&L) > 0 || sc->file == NULL) {
        if (sc->file == NULL && scene_nerrors(&L) == 0) {
            diag->io_error = 1;
            rf_diag_file(diag, "out of memory");
        }
        scene_fonts_destroy(sc);
        scene_images_destroy(sc);
        rf_arena_destroy(L.arena);
        return NULL;
    }
    return sc;
}

rf_scene_t *rf_scene_load(const char *path, rf_diag_t *diag)
{
    return rf_scene_load_with(path, NULL, diag);
}

rf_scene_t *rf_scene_load_with(const char *path, const rf_scene_opts_t *opts, rf_diag_t *diag)
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
    rf_scene_t *sc = rf_scene_load_buffer_with(path, buf, len, opts, diag);
    free(buf);
    return sc;
}

void rf_scene_destroy(rf_scene_t *scene)
{
    if (scene != NULL) {
        scene_fonts_destroy(scene);
        scene_images_destroy(scene);
        rf_arena_destroy(scene->arena);
    }
}

double rf_scene_frame_time(const rf_scene_t *scene, long i)
{
    return (double)i / scene->fps;
}

long rf_scene_count_frames(double duration, double fps)
{
    double frames = duration * fps;

    if (!(frames <= RF_MAX_FRAMES))
        return -1;
    /* the 1e-9 keeps 1.16 s at 25 fps (28.999999999999996) at 30 frames */
    return (long)floor(frames + 1e-9) + 1;
}

int rf_scene_draft(const rf_scene_t *scene, double scale, double fps, rf_scene_t *out,
                   char *err, size_t errlen)
{
    *out = *scene;
    if (scale > 0 && scale != 1) {
        double w = round(scene->width * scale), h = round(scene->height * scale);
        out->width = w >= 1 ? (int)w : 1;
        out->height = h >= 1 ? (int)h : 1;
        out->scale = scale;
    }
    if (fps > 0) {
        long n = rf_scene_count_frames(scene->duration, fps);
        if (n < 0) {
            snprintf(err, errlen, "--fps %g: too many frames: duration * fps = %g * %g = %g, "
                                  "the limit is %u", fps, scene->duration, fps,
                     scene->duration * fps, (unsigned)RF_MAX_FRAMES);
            return -1;
        }
        out->fps = fps;
        out->nframes = n;
    }
    return 0;
}
