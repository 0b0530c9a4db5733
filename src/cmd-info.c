/* cmd-info.c - `runeframe info SCENE [--json]`: the facts the loader resolved
 * once (canvas, timeline, frame count), per named value its kind, settle
 * time, final value and conservative range (one row per output: a
 * sample_path value p is p.x, p.y and p.angle), and per named path its
 * segment count, arc length and exact bounds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "font.h"
#include "image.h"
#include "layer.h"
#include "numfmt.h"
#include "path.h"
#include "scene.h"
#include "values.h"

/* The option ids, in the order of .opts below. */
enum { OPT_JSON };

/* "#rrggbb" when opaque, else "#rrggbbaa", as CSS writes colors. */
static const char *info_color(char buf[16], uint32_t rgba)
{
    if ((rgba & 0xffu) == 0xffu)
        snprintf(buf, 16, "#%06lx", (unsigned long)(rgba >> 8));
    else
        snprintf(buf, 16, "#%08lx", (unsigned long)rgba);
    return buf;
}

/* A JSON string literal. Value names are identifiers, but file names and
 * future kinds need not be: escape everything JSON requires. */
static void info_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* Calls fn for every text layer of the tree, with its JSON pointer. */
typedef void (*info_text_fn)(const rf_layer_t *L, const char *ptr, FILE *out, int *first);

static void info_text_one(const rf_layer_t *L, const char *ptr, info_text_fn fn, FILE *out,
                          int *first)
{
    char sub[300];
    uint32_t nch;
    const rf_layer_t *ch = rf_layer_children(L, &nch);
    if (L->type == RF_LAYER_TEXT)
        fn(L, ptr, out, first);
    for (uint32_t i = 0; i < nch; i++) {
        if (L->type == RF_LAYER_INSTANCES) /* one layer object, no index */
            snprintf(sub, sizeof sub, "%.250s/layer", ptr);
        else
            snprintf(sub, sizeof sub, "%.250s/children/%lu", ptr, (unsigned long)i);
        info_text_one(&ch[i], sub, fn, out, first);
    }
}

static void info_each_text(const rf_layer_t *ls, uint32_t n, const char *base, info_text_fn fn,
                           FILE *out, int *first)
{
    char ptr[256];
    for (uint32_t i = 0; i < n; i++) {
        snprintf(ptr, sizeof ptr, "%s/%lu", base, (unsigned long)i);
        info_text_one(&ls[i], ptr, fn, out, first);
    }
}

static void info_text_json(const rf_layer_t *L, const char *ptr, FILE *out, int *first)
{
    fputs(*first ? "\n  " : ",\n  ", out);
    *first = 0;
    fputs("{\"layer\": ", out);
    info_json_string(out, ptr);
    if (L->id != NULL) {
        fputs(", \"id\": ", out);
        info_json_string(out, L->id);
    }
    fputs(", \"font\": ", out);
    info_json_string(out, L->u.text.font != NULL ? L->u.text.font->name : "");
    fputc('}', out);
}

static void info_text_row(const rf_layer_t *L, const char *ptr, FILE *out, int *first)
{
    const rf_font_t *f = L->u.text.font;
    char hex[RF_SHA256_HEX];
    if (*first)
        fprintf(out, "\n%-24s  %-10s  %-28s  %s\n", "TEXT LAYER", "FONT", "FILE", "SHA-256");
    *first = 0;
    if (f == NULL)
        return;
    rf_font_sha256_hex(f, hex);
    fprintf(out, "%-24s  %-10s  %-28s  %s\n", L->id != NULL ? L->id : ptr, f->name, f->file, hex);
}

/* `assets`: every file the scene read besides itself, and the text layers
 * with their fonts. */
static void info_assets_json(const rf_scene_t *sc, FILE *out)
{
    char hex[RF_SHA256_HEX];
    fputs(", \"assets\": [", out);
    for (uint32_t i = 0; i < sc->nfonts; i++) {
        const rf_font_t *f = sc->fonts[i];
        rf_font_sha256_hex(f, hex);
        fputs(i == 0 ? "\n  " : ",\n  ", out);
        fputs("{\"kind\": \"font\", \"name\": ", out);
        info_json_string(out, f->name);
        fputs(", \"file\": ", out);
        info_json_string(out, f->file);
        fprintf(out, ", \"builtin\": %s, \"bytes\": %lu, \"sha256\": \"%s\"}",
                f->builtin ? "true" : "false", (unsigned long)f->len, hex);
    }
    for (uint32_t i = 0; i < sc->nimages; i++) {
        const rf_image_t *img = sc->images[i];
        rf_sha256_hex(img->sha256, hex);
        fputs(i == 0 && sc->nfonts == 0 ? "\n  " : ",\n  ", out);
        fputs("{\"kind\": \"image\", \"file\": ", out);
        info_json_string(out, img->file);
        fprintf(out, ", \"format\": \"%s\", \"width\": %.17g, \"height\": %.17g, "
                "\"orientation\": %d, \"bytes\": %lu, \"sha256\": \"%s\"}",
                rf_image_kind_names[img->kind], img->width, img->height, img->orientation,
                (unsigned long)img->len, hex);
    }
    fputs(sc->nfonts + sc->nimages > 0 ? "\n]" : "]", out);
    fputs(", \"text\": [", out);
    int first = 1;
    info_each_text(sc->layers, sc->nlayers, "/layers", info_text_json, out, &first);
    fputs(first ? "]" : "\n]", out);
}

/* The facts of output k of v: a one-output value's own fields (what the
 * engine kinds have always filled), else its per-output entry (a vector's
 * component settles on its own; the value when its last one does). */
static void info_output(const rf_value_t *v, uint32_t k, double *settle, double *final,
                        double *lo, double *hi)
{
    *settle = v->nout <= 1 ? v->settle : v->out[k].settle;
    if (v->nout <= 1) {
        *final = v->final;
        *lo = v->lo;
        *hi = v->hi;
    } else {
        *final = v->out[k].final;
        *lo = v->out[k].lo;
        *hi = v->out[k].hi;
    }
}

/* The row name of output k of v: "x", or "p.angle" for a path sample,
 * "pos.y" for a vector, "tint.r" for a color. */
static const char *info_output_name(char *buf, size_t size, const rf_value_t *v, uint32_t k)
{
    const char *c = rf_value_output_name(v, k);
    if (c == NULL)
        return v->name;
    snprintf(buf, size, "%s.%s", v->name, c);
    return buf;
}

/* Room for a path sample's name plus ".angle"; a longer name is cut, never
 * overflowed (one-output names are printed as they are). */
#define INFO_NAME_BUF 512

/* `storyboard`: each step's state, time and completion (seed 003's
 * TransitionCore: when the slowest of its channels settles). */
static void info_story_json(const rf_scene_t *sc, FILE *out)
{
    char b1[RF_NUM_BUF];
    fputs(", \"storyboard\": [", out);
    for (uint32_t i = 0; i < sc->nsteps; i++) {
        const rf_story_step_t *st = &sc->steps[i];
        fputs(i == 0 ? "\n  {\"at\": " : ",\n  {\"at\": ", out);
        fputs(rf_num_json(b1, st->at), out);
        fputs(", \"state\": ", out);
        info_json_string(out, st->state);
        fprintf(out, ", \"complete\": %s, \"slowest\": ", rf_num_json(b1, st->complete));
        if (st->slowest != NULL)
            info_json_string(out, st->slowest);
        else
            fputs("null", out);
        fprintf(out, ", \"channels\": %lu, \"interrupted\": %s}", (unsigned long)st->nchannels,
                st->interrupted ? "true" : "false");
    }
    fputs("\n]", out);
}

static void info_print_json(const rf_scene_t *sc, FILE *out)
{
    const rf_values_t *vs = &sc->values;
    char b1[RF_NUM_BUF], b2[RF_NUM_BUF], b3[RF_NUM_BUF], b4[RF_NUM_BUF], color[16];
    char name[INFO_NAME_BUF];
    int first = 1;

    fprintf(out, "{\"file\": ");
    info_json_string(out, sc->file != NULL ? sc->file : "");
    fprintf(out, ", \"width\": %d, \"height\": %d, \"background\": ", sc->width, sc->height);
    info_json_string(out, info_color(color, sc->background));
    if (sc->background_value != NULL) {   /* a color value: "" when inline */
        fprintf(out, ", \"background_value\": ");
        info_json_string(out, sc->background_value);
    }
    fprintf(out, ", \"fps\": %s", rf_num_json(b1, sc->fps));
    fprintf(out, ", \"duration\": %s", rf_num_json(b1, sc->duration));
    fprintf(out, ", \"duration_auto\": %s", sc->duration_auto ? "true" : "false");
    fprintf(out, ", \"frames\": %ld", sc->nframes);
    /* The frames `check` compares: the scene's checks, or null without. */
    if (sc->has_checks) {
        fputs(", \"checks\": [", out);
        for (uint32_t i = 0; i < sc->ncheck_frames; i++)
            fprintf(out, i > 0 ? ", %ld" : "%ld", sc->check_frames[i]);
        fputc(']', out);
    } else {
        fputs(", \"checks\": null", out);
    }
    fprintf(out, ", \"values\": {");
    for (uint32_t i = 0; i < vs->nnamed; i++) {
        const rf_value_t *v = &vs->values[i];
        uint32_t nout = v->nout > 1 ? v->nout : 1;

        /* Every entry keeps the contract's shape; a path sample's three
         * outputs are three entries, as `sample` names its columns. */
        for (uint32_t k = 0; k < nout; k++) {
            double settle, final, lo, hi;

            info_output(v, k, &settle, &final, &lo, &hi);
            fputs(first ? "\n  " : ",\n  ", out);
            first = 0;
            info_json_string(out, info_output_name(name, sizeof name, v, k));
            fputs(": {\"kind\": ", out);
            info_json_string(out, rf_value_kind_name(v->kind));
            fprintf(out, ", \"settle\": %s", rf_num_json(b1, settle));
            fprintf(out, ", \"end\": \"%s\"", rf_end_name(v->end));
            fprintf(out, ", \"final\": %s", rf_num_json(b1, final));
            fprintf(out, ", \"range\": [%s, %s]", rf_num_json(b1, lo), rf_num_json(b2, hi));
            fprintf(out, ", \"used\": %s}", v->used ? "true" : "false");
        }
    }
    fputs(first ? "}" : "\n}", out);
    fputs(", \"paths\": {", out);
    for (uint32_t i = 0; i < sc->npaths; i++) {
        const rf_scene_path_t *sp = &sc->paths[i];
        double x0, y0, x1, y1;

        rf_path_bounds(sp->path, &x0, &y0, &x1, &y1);
        fputs(i == 0 ? "\n  " : ",\n  ", out);
        info_json_string(out, sp->name);
        fprintf(out, ": {\"segments\": %lu, \"length\": %s",
                (unsigned long)rf_path_segment_count(sp->path),
                rf_num_json(b1, rf_path_length(sp->path)));
        fprintf(out, ", \"bounds\": [%s, %s, %s, %s]}", rf_num_json(b1, x0), rf_num_json(b2, y0),
                rf_num_json(b3, x1), rf_num_json(b4, y1));
    }
    fputs(sc->npaths > 0 ? "\n}" : "}", out);
    if (sc->nsteps > 0)
        info_story_json(sc, out);
    info_assets_json(sc, out);
    fputs("}\n", out);
}

/* The columns of one output's row in the text table. */
typedef struct info_row {
    char namebuf[INFO_NAME_BUF];
    const char *name;
    char settle[RF_NUM_BUF];
    char final[RF_NUM_BUF];
    char lo[RF_NUM_BUF], hi[RF_NUM_BUF];
} info_row_t;

static void info_row_fill(info_row_t *r, const rf_value_t *v, uint32_t k)
{
    double settle, final, lo, hi;

    info_output(v, k, &settle, &final, &lo, &hi);
    r->name = info_output_name(r->namebuf, sizeof r->namebuf, v, k);
    rf_num_short(r->settle, settle);
    if (isnan(final))
        snprintf(r->final, sizeof r->final, "none");
    else
        rf_num_short(r->final, final);
    rf_num_short(r->lo, lo);
    rf_num_short(r->hi, hi);
}

static int info_max(int a, size_t b)
{
    return (size_t)a > b ? a : (int)b;
}

/* The columns of one path's row. */
typedef struct info_path_row {
    char segments[24];
    char length[RF_NUM_BUF];
    char bounds[4 * RF_NUM_BUF + 8];
} info_path_row_t;

static void info_path_row_fill(info_path_row_t *r, const rf_path_t *p)
{
    char b[4][RF_NUM_BUF];
    double x0, y0, x1, y1;

    rf_path_bounds(p, &x0, &y0, &x1, &y1);
    snprintf(r->segments, sizeof r->segments, "%lu", (unsigned long)rf_path_segment_count(p));
    rf_num_short(r->length, rf_path_length(p));
    snprintf(r->bounds, sizeof r->bounds, "[%s, %s, %s, %s]", rf_num_short(b[0], x0),
             rf_num_short(b[1], y0), rf_num_short(b[2], x1), rf_num_short(b[3], y1));
}

static void info_print_paths(const rf_scene_t *sc, FILE *out)
{
    info_path_row_t r;
    int wname = 4, wseg = 8, wlen = 6;

    for (uint32_t i = 0; i < sc->npaths; i++) {
        info_path_row_fill(&r, sc->paths[i].path);
        wname = info_max(wname, strlen(sc->paths[i].name));
        wseg = info_max(wseg, strlen(r.segments));
        wlen = info_max(wlen, strlen(r.length));
    }
    fprintf(out, "\n%-*s  %-*s  %-*s  %s\n", wname, "PATH", wseg, "SEGMENTS", wlen, "LENGTH",
            "BOUNDS");
    for (uint32_t i = 0; i < sc->npaths; i++) {
        info_path_row_fill(&r, sc->paths[i].path);
        fprintf(out, "%-*s  %-*s  %-*s  %s\n", wname, sc->paths[i].name, wseg, r.segments,
                wlen, r.length, r.bounds);
    }
}

static void info_story_text(const rf_scene_t *sc, FILE *out)
{
    char at[RF_NUM_BUF], done[RF_NUM_BUF], step[16];
    int wat = 2, wstate = 5, wdone = 8;
    for (uint32_t i = 0; i < sc->nsteps; i++) {
        wat = info_max(wat, strlen(rf_num_short(at, sc->steps[i].at)));
        wstate = info_max(wstate, strlen(sc->steps[i].state));
        wdone = info_max(wdone, strlen(rf_num_short(done, sc->steps[i].complete)));
    }
    fprintf(out, "\n%-4s  %-*s  %-*s  %-*s  %s\n", "STEP", wat, "AT", wstate, "STATE", wdone,
            "COMPLETE", "SLOWEST");
    for (uint32_t i = 0; i < sc->nsteps; i++) {
        const rf_story_step_t *st = &sc->steps[i];
        snprintf(step, sizeof step, "%lu", (unsigned long)i);
        fprintf(out, "%-4s  %-*s  %-*s  %-*s  %s%s\n", step, wat, rf_num_short(at, st->at),
                wstate, st->state, wdone, rf_num_short(done, st->complete),
                st->slowest != NULL ? st->slowest : "-",
                st->interrupted ? " (interrupted by the next step)" : "");
    }
}

static void info_print_text(const rf_scene_t *sc, FILE *out)
{
    const rf_values_t *vs = &sc->values;
    char b1[RF_NUM_BUF], color[16];
    info_row_t r;
    int wname = 4, wkind = 4, wsettle = 6, wend = 14, wfinal = 5;

    fprintf(out, "canvas      %dx%d\n", sc->width, sc->height);
    if (sc->background_value == NULL)
        fprintf(out, "background  %s\n", info_color(color, sc->background));
    else if (sc->background_value[0] != '\0')
        fprintf(out, "background  the color value '%s'\n", sc->background_value);
    else
        fprintf(out, "background  an inline color value\n");
    fprintf(out, "fps         %s\n", rf_num_short(b1, sc->fps));
    fprintf(out, "duration    %s%s\n", rf_num_short(b1, sc->duration),
            sc->duration_auto ? " (auto: the largest finite settle time)" : "");
    fprintf(out, "frames      %ld\n", sc->nframes);
    fprintf(out, "values      %lu\n", (unsigned long)vs->nnamed);
    fprintf(out, "paths       %lu\n", (unsigned long)sc->npaths);

    if (vs->nnamed > 0) {
        for (uint32_t i = 0; i < vs->nnamed; i++) {
            const rf_value_t *v = &vs->values[i];
            uint32_t nout = v->nout > 1 ? v->nout : 1;

            for (uint32_t k = 0; k < nout; k++) {
                info_row_fill(&r, v, k);
                wname = info_max(wname, strlen(r.name));
                wkind = info_max(wkind, strlen(rf_value_kind_name(v->kind)));
                wsettle = info_max(wsettle, strlen(r.settle));
                wfinal = info_max(wfinal, strlen(r.final));
            }
        }
        fprintf(out, "\n%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", wname, "NAME", wkind, "KIND",
                wsettle, "SETTLE", wend, "END", wfinal, "FINAL", "RANGE");
        for (uint32_t i = 0; i < vs->nnamed; i++) {
            const rf_value_t *v = &vs->values[i];
            uint32_t nout = v->nout > 1 ? v->nout : 1;

            for (uint32_t k = 0; k < nout; k++) {
                info_row_fill(&r, v, k);
                fprintf(out, "%-*s  %-*s  %-*s  %-*s  %-*s  [%s, %s]\n", wname, r.name,
                        wkind, rf_value_kind_name(v->kind), wsettle, r.settle, wend,
                        rf_end_name(v->end), wfinal, r.final, r.lo, r.hi);
            }
        }
    }
    if (sc->npaths > 0)
        info_print_paths(sc, out);
    if (sc->nsteps > 0)
        info_story_text(sc, out);
    int first = 1;
    info_each_text(sc->layers, sc->nlayers, "/layers", info_text_row, out, &first);
    char hex[RF_SHA256_HEX];
    for (uint32_t i = 0; i < sc->nimages; i++) {
        const rf_image_t *img = sc->images[i];
        if (i == 0)
            fprintf(out, "\n%-28s  %-5s  %-11s  %-9s  %s\n", "IMAGE", "KIND", "SIZE", "BYTES",
                    "SHA-256");
        char size[40];
        snprintf(size, sizeof size, "%.6gx%.6g", img->width, img->height);
        rf_sha256_hex(img->sha256, hex);
        fprintf(out, "%-28s  %-5s  %-11s  %-9lu  %s\n", img->file, rf_image_kind_names[img->kind],
                size, (unsigned long)img->len, hex);
    }
}

static int info_exec(void *state, const rf_cmd_args_t *args)
{
    (void)state;
    if (args->opt[OPT_JSON] != NULL)
        info_print_json(args->scene, stdout);
    else
        info_print_text(args->scene, stdout);
    return RF_EXIT_OK;
}

const rf_cmd_t rf_cmd_info = {
    .summary = "print a scene's timeline, values' settle times and ranges, and paths",
    .help =
        "Prints the canvas size and background, fps, duration (marked auto when\n"
        "it was resolved from settle times), the frame count\n"
        "floor(duration * fps + 1e-9) + 1, one row per named value in file\n"
        "order: its kind, settle time (inf when it never settles), how it ends\n"
        "(finished: reaches its final value; bound: physics stopped at a bound;\n"
        "duration-limit: the settle search gave up, the physical value is kept;\n"
        "never: loops, undamped springs, unbounded physics), final value\n"
        "(none when it has none) and conservative range [min, max] (-inf/inf\n"
        "where unbounded), and one row per named path: its segment count, arc\n"
        "length and exact bounds [x0, y0, x1, y1], and one row per storyboard\n"
        "step: when it enters its state and when it is complete (the slowest of\n"
        "the values its state gives settles; inf when one never does; marked\n"
        "when the next step starts before that). A sample_path value p has three\n"
        "rows, p.x, p.y and p.angle; an expression's range is the one its\n"
        "interval analysis published. Inline values inside layers are not listed.\n"
        "\n"
        "Options:\n"
        "  --json  print one JSON object instead: width, height, background\n"
        "          (and background_value, the color value's name or \"\" for an\n"
        "          inline one, when the background is a color value),\n"
        "          fps, duration, duration_auto, frames, checks (the frame\n"
        "          numbers check compares, or null), values and paths, where\n"
        "          each value output (p.x, p.y, p.angle for a path sample) has\n"
        "          kind, settle, end, final, range [lo, hi] and used, and each\n"
        "          path has segments, length and bounds [x0, y0, x1, y1], and\n"
        "          (with a storyboard) storyboard lists each step's at, state,\n"
        "          complete, slowest, channels and interrupted; an\n"
        "          infinite settle time, a missing final value and an unbounded\n"
        "          range end are null; then assets (every font file: kind,\n"
        "          name, file, builtin, bytes, sha256; every image file: kind,\n"
        "          file, format, width, height, orientation, bytes, sha256) and\n"
        "          text (each text layer's JSON pointer, id and font)\n",
    .usage = "SCENE [--json]",
    .name = "info", .opts = "json",
    RF_CMD_ONE_SCENE, .reduced_motion = 1, .exec = info_exec,
};
