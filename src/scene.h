/* scene.h - loading a scene file (scene-v1.md) into immutable data.
 *
 * Owns: rf_scene_t and everything it points to, allocated in one arena and
 * freed by rf_scene_destroy(). The loader is the only module that sees cJSON:
 * it checks syntax (jsonsyn), parses with cJSON_ParseWithOpts, validates
 * every key strictly (unknown keys are errors with a did-you-mean, every
 * number finite, types and ranges checked), collects up to RF_DIAG_MAX errors
 * and, when there are none, builds the engine descriptors once. A loaded
 * scene is read-only: any number of threads may evaluate it.
 */
#ifndef RF_SCENE_H
#define RF_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "values.h"

/* Limits of scene-v1.md. */
#define RF_MAX_FILE_BYTES   (64u << 20)
#define RF_MAX_DEPTH        64
#define RF_MAX_ITEMS        100000      /* values, layers, path segments, sequence entries in all */
/* RF_MAX_EXPR_BYTES: expr.h */
#define RF_MAX_SIDE         16384
#define RF_MAX_PIXELS       67108864
#define RF_MAX_FRAMES       10000000

typedef struct rf_scene rf_scene_t;

/* Where a value of the scene comes from, for explaining a change
 * (check's causes, scene-diff.h): the JSON pointer of its definition
 * ("/values/NAME", or where an inline value is: "/layers/3/rotate") and
 * the values it reads (expression inputs, a sample's progress, a `from`
 * source: indices into values.values). */
typedef struct rf_value_src {
    const char *ptr;
    const uint32_t *deps;
    uint32_t ndeps;
} rf_value_src_t;

struct rf_path;

/* One entry of `paths`: its name and its measured path (path.h). */
typedef struct rf_scene_path {
    const char *name;
    const struct rf_path *path;
} rf_scene_path_t;

/* One storyboard step (scene-v1.md `storyboard`, seed 003's
 * TransitionCore): the state it enters, when, and when it is complete, the
 * time the slowest of its channels (the values its state gives) settles. */
typedef struct rf_story_step {
    const char *state;
    double at;
    double complete;          /* INFINITY when a channel never settles */
    const char *slowest;      /* the value that settles last, NULL without channels */
    uint32_t nchannels;
    int interrupted;          /* the next step starts before it is complete */
} rf_story_step_t;

struct rf_scene {
    const char *file;         /* as given on the command line */
    int width, height;        /* canvas */
    uint32_t background;      /* 0xRRGGBBAA, default 0 (transparent) */
    double fps;               /* (0, 1000] */
    double duration;          /* seconds > 0, resolved when "auto" */
    int duration_auto;        /* nonzero: duration came from settle times */
    long nframes;             /* floor(duration * fps + 1e-9) + 1 */
    double scale;             /* a draft's (rf_scene_draft): width and height
                                 are the canvas's times it, and everything is
                                 drawn scaled by it; 0 as loaded (no scale) */
    rf_values_t values;
    /* the slots of the expressions' i and n (instances: 0 and 1 as the
     * values evaluate them, set per instance by the instances layer);
     * RF_PROP_CONST (layer.h) when no expression reads them */
    uint32_t inst_slot[2];
    uint32_t npaths;          /* named paths of `paths`, in file order */
    const rf_scene_path_t *paths;
    uint32_t nlayers;         /* top-level layers */
    const struct rf_layer *layers; /* nlayers top-level layers, drawn in order (layer.h) */
    /* `checks`: the frames `check` compares, sorted, unique; NULL/0 without */
    const long *check_frames;
    uint32_t ncheck_frames;
    int has_checks;
    /* fonts the layers use: `fonts` entries, then built-ins, each loaded
     * once (font.h); destroyed with the scene */
    uint32_t nfonts;
    struct rf_font **fonts;
    /* every asset file the loader read (fonts today; any kind read through
     * the loader's one asset reader), as the scene names it (relative to
     * its folder or --assets), in reading order: what `preview` follows */
    uint32_t nasset_files;
    const char *const *asset_files;
    /* images the layers draw (image.h), one per file however many layers
     * name it, in the order first named; destroyed with the scene */
    uint32_t nimages;
    struct rf_image **images;
    /* `storyboard` steps in order (their values are ordinary sequences) */
    uint32_t nsteps;
    const rf_story_step_t *steps;
    /* the values the states give are the named values story_first ..
     * story_first + nstory - 1; story_ptrs[k] is the JSON pointer where
     * the file first gives value story_first + k (for messages) */
    uint32_t story_first, nstory;
    const char *const *story_ptrs;
    /* values.n entries, in the order of values.values (NULL in a scene
     * not built by the loader) */
    const rf_value_src_t *value_srcs;
    /* the scene file's text as loaded (no byte order mark), NUL-terminated:
     * what check --update records as DIR/scene.json */
    const char *source;
    size_t source_len;
    struct rf_arena *arena;   /* owns all of the above but the fonts and images */
};

/* How a scene is loaded. */
typedef struct rf_scene_opts {
    const char *assets;       /* --assets DIR: another folder assets may
                                 come from; NULL: the scene's folder only */
    int reduced_motion;       /* nonzero: --reduced-motion, the scene's
                                 `reduced_motion` policy applied at load */
} rf_scene_opts_t;

/* Loads the file at path. On success returns the scene; on failure returns
 * NULL with the errors in diag (diag->io_error set when the file could not be
 * read: exit status 3, else 2). diag->file is set to path. */
rf_scene_t *rf_scene_load(const char *path, rf_diag_t *diag);

/* As rf_scene_load, from memory; name is what messages call the file. */
rf_scene_t *rf_scene_load_buffer(const char *name, const char *buf, size_t len, rf_diag_t *diag);

/* As rf_scene_load and rf_scene_load_buffer, with options (NULL: none).
 * Asset paths are relative to the folder of path (of name; "-": the
 * current folder). */
rf_scene_t *rf_scene_load_with(const char *path, const rf_scene_opts_t *opts, rf_diag_t *diag);
rf_scene_t *rf_scene_load_buffer_with(const char *name, const char *buf, size_t len,
                                      const rf_scene_opts_t *opts, rf_diag_t *diag);

/* Frees the scene and everything it owns. NULL is a no-op. */
void rf_scene_destroy(rf_scene_t *scene);

/* The JSON Schema (draft-07) of the scene format, as text, made from the
 * loader's own tables (scene-schema.c): malloc'd, the caller frees it;
 * NULL when out of memory. */
char *rf_scene_schema(void);

/* A draft of scene (cli.md "Drafts") into *out, a copy that borrows
 * everything scene owns (scene must outlive it; never destroy it): with
 * scale S (0 < S <= 1; 1: none) the canvas is round(width * S) x
 * round(height * S), at least 1 x 1, and everything on it is drawn scaled
 * by S; with fps F (0 < F <= 1000; 0: the scene's) frame n is at n / F and
 * the frames are counted as the loader counts them. Returns 0, or -1 with a
 * message in err when F gives more than RF_MAX_FRAMES frames. */
int rf_scene_draft(const rf_scene_t *scene, double scale, double fps, rf_scene_t *out,
                   char *err, size_t errlen);

/* Frames of a timeline: floor(duration * fps + 1e-9) + 1 (the 1e-9 keeps
 * 1.16 s at 25 fps, 28.999999999999996, at 30 frames); -1 when duration *
 * fps exceeds RF_MAX_FRAMES. */
long rf_scene_count_frames(double duration, double fps);

/* Time of frame i: i / fps as one division, never accumulated. */
double rf_scene_frame_time(const rf_scene_t *scene, long i);

#endif
