/* check-golden.c - the golden folder of a check (check-int.h): which
 * goldens it holds, and DIR/trace.csv written after an update. */
#define _POSIX_C_SOURCE 200809L   /* fileno */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "check-int.h"
#include "diag.h"
#include "font.h"
#include "image.h"

/* ------------------------------------------------------------ frame list */

static int check_cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* "frame-" digits ".png" exactly as render names frame index (digits of
 * the scene's frame count): the index, or -1 for any other name. */
static long check_golden_index(const char *name, int digits)
{
    char canon[64];
    const char *p = name + 6;
    long idx = 0;
    size_t nd = 0;

    if (strncmp(name, "frame-", 6) != 0)
        return -1;
    while (p[nd] >= '0' && p[nd] <= '9') {
        if (nd >= 18)
            return -1;
        idx = idx * 10 + (p[nd] - '0');
        nd++;
    }
    if (nd == 0 || strcmp(p + nd, ".png") != 0)
        return -1;
    snprintf(canon, sizeof canon, "frame-%0*ld.png", digits, idx);
    return strcmp(canon, name) == 0 ? idx : -1;
}

/* The golden files present: their indices, sorted. *n = 0 and 0 returned
 * when the folder does not exist (*missing = 1). -1 with err on failure. */
int check_scan(const char *dir, int digits, long **out, size_t *n, int *missing,
               int *status, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t cap = 0;
    long *v = NULL;

    *n = 0;
    *missing = 0;
    *out = NULL;
    if (d == NULL) {
        if (errno == ENOENT) {
            *missing = 1;
            return 0;
        }
        *status = errno == ENOTDIR ? RF_EXIT_USAGE : RF_EXIT_IO;
        snprintf(err, errlen, "%s: %s", dir,
                 errno == ENOTDIR ? "not a folder" : strerror(errno));
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        long idx = check_golden_index(de->d_name, digits);
        if (idx < 0)
            continue;
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            long *p = realloc(v, nc * sizeof *v);
            if (p == NULL) {
                free(v);
                closedir(d);
                *status = RF_EXIT_IO;
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            v = p;
            cap = nc;
        }
        v[(*n)++] = idx;
    }
    closedir(d);
    if (*n > 0)
        qsort(v, *n, sizeof *v, check_cmp_long);
    *out = v;
    return 0;
}

/* ------------------------------------------------------------ trace.csv */


/* The trace's asset lines (trace.h): every image and font file the scene
 * read, so that check can name the one whose bytes changed. */
static int check_trace_assets(const rf_scene_t *sc, char **text, size_t *len)
{
    char hex[RF_SHA256_HEX];
    for (uint32_t i = 0; i < sc->nimages; i++) {
        rf_sha256_hex(sc->images[i]->sha256, hex);
        if (strchr(sc->images[i]->file, '\n') == NULL &&
            rf_trace_append_asset(text, len, sc->images[i]->file, hex) != 0)
            return -1;
    }
    for (uint32_t i = 0; i < sc->nfonts; i++) {
        if (sc->fonts[i]->builtin || strchr(sc->fonts[i]->file, '\n') != NULL)
            continue;
        rf_font_sha256_hex(sc->fonts[i], hex);
        if (rf_trace_append_asset(text, len, sc->fonts[i]->file, hex) != 0)
            return -1;
    }
    return 0;
}

/* Writes len bytes of text to path atomically unless the file already
 * holds exactly them (its mtime then stays): 0 written, 1 the same,
 * -1 with c->write_err. */
static int check_write_if_changed(check_ctx_t *c, const char *path, const char *text,
                                  size_t len)
{
    FILE *fp = fopen(path, "rb");
    if (fp != NULL) {
        struct stat stbuf;
        int same = 0;
        if (fstat(fileno(fp), &stbuf) == 0 && S_ISREG(stbuf.st_mode) &&
            (uint64_t)stbuf.st_size == len) {
            char *old = malloc(len + 1);
            if (old != NULL && fread(old, 1, len, fp) == len && memcmp(old, text, len) == 0)
                same = 1;
            free(old);
        }
        fclose(fp);
        if (same)
            return 1;
    }
    if (check_make_dir(c, c->run->golden_dir, &c->golden_dir_made, c->golden_dir_err,
                       sizeof c->golden_dir_err) != 0) {
        snprintf(c->write_err, sizeof c->write_err, "%s", c->golden_dir_err);
        return -1;
    }
    if (rf_atomic_file_write(path, text, len, RF_ATOMIC_FSYNC, c->write_err,
                             sizeof c->write_err) != 0)
        return -1;
    return 0;
}

/* Writes DIR/trace.csv from the frames rendered in this run, unless the
 * file already holds exactly those bytes (its mtime then stays): the
 * values of this run for the goldens it wrote, the old trace's row for the
 * goldens it kept (this run's values when the old trace has no row at that
 * time, a golden kept without a trace, and for the values an older trace
 * has no column for). */
void check_write_trace(check_ctx_t *c)
{
    rf_check_run_t *run = c->run;
    const rf_scene_t *sc = c->scene;
    size_t ns = sc->values.nslots, k = 0;
    double *times = malloc((run->nframes + 1) * sizeof *times);
    double *rows = malloc((run->nframes * ns + 1) * sizeof *rows);
    char path[RF_CHECK_PATH_MAX];
    char *text = NULL;
    size_t len = 0;

    if (times == NULL || rows == NULL) {
        snprintf(run->trace_error, sizeof run->trace_error, "%s/%s: out of memory",
                 run->golden_dir, RF_TRACE_FILE);
        goto out;
    }
    for (size_t i = 0; i < run->nframes; i++) {
        if (!c->rendered[i])
            continue;
        times[k] = run->frames[i].t;
        memcpy(rows + k * ns, c->slots + i * ns, ns * sizeof(double));
        /* a golden this run kept (it passed, or within --max-diff-*) keeps
         * the values it was recorded with: the next failure measures
         * motion from the pixels the golden holds */
        if (!run->frames[i].updated &&
            rf_trace_recall(c->trace, &sc->values, c->cause.inames, times[k], rows + k * ns) == 0)
            memcpy(rows + k * ns, c->slots + i * ns, ns * sizeof(double));
        k++;
    }
    if (k == 0)
        goto out;
    if (check_path_join(path, sizeof path, run->golden_dir, RF_TRACE_FILE, "") != 0)
        goto out;
    if (rf_trace_format(&sc->values, c->cause.inames, times, rows, k, &text, &len) != 0 ||
        check_trace_assets(sc, &text, &len) != 0) {
        snprintf(run->trace_error, sizeof run->trace_error, "%s/%s: out of memory",
                 run->golden_dir, RF_TRACE_FILE);
        goto out;
    }
    switch (check_write_if_changed(c, path, text, len)) {
    case 0:
        run->trace_written = 1;
        break;
    case -1:
        snprintf(run->trace_error, sizeof run->trace_error, "%s", c->write_err);
        run->io_errors++;
        break;
    default:
        break;
    }
out:
    free(text);
    free(times);
    free(rows);
}

/* ------------------------------------------------------------ scene.json */

/* DIR/scene.json: the scene the goldens written in this run were drawn
 * from, the text check compares the scene with to name the cause of a
 * failure (check-cause.c). Only with goldens written: a run that wrote
 * none leaves the copy of the run that did. */
void check_write_scene(check_ctx_t *c)
{
    rf_check_run_t *run = c->run;
    char path[RF_CHECK_PATH_MAX];
    size_t updated = 0;

    for (size_t i = 0; i < run->nframes; i++)
        updated += run->frames[i].updated;
    if (updated == 0 || c->scene->source == NULL ||
        check_path_join(path, sizeof path, run->golden_dir, "scene.json", "") != 0)
        return;
    switch (check_write_if_changed(c, path, c->scene->source, c->scene->source_len)) {
    case 0:
        run->scene_written = 1;
        break;
    case -1:
        if (run->trace_error[0] == '\0')
            snprintf(run->trace_error, sizeof run->trace_error, "%s", c->write_err);
        run->io_errors++;
        break;
    default:
        break;
    }
}
