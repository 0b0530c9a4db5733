/* check-cause.c - why a frame of a check changed (check-int.h): the edits
 * of the scene since its goldens were written, read from the copy that
 * --update keeps (DIR/scene.json), matched with what moved at the frame
 * through the value graph (scene.h's rf_value_src_t).
 *
 * An edit inside a value's definition (its pointer at or under the value's:
 * "/values/card_x/spring/stiffness", "/layers/3/rotate/expr") feeds that
 * value and, through the graph, every value that reads it; it is a cause
 * of a frame when one of the values it feeds moved there (or is new since
 * the trace). Any other edit (a color, a layer added, a path, the canvas)
 * is drawn without a value in between, so it is a cause of every failing
 * frame. Edits of `checks` are never causes: they move no pixel.
 *
 * DIR/scene.json comes from a golden folder, that is from a pull request:
 * it is read as trace.csv is (a regular file only, at most 64 MiB, opened
 * without blocking) and compared by scene-diff.h, which trusts nothing. A
 * missing, unreadable or malformed one leaves the cause unknown: it is said
 * under the frame, never an error.
 */
#define _POSIX_C_SOURCE 200809L   /* open's O_CLOEXEC, fstat */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check-int.h"
#include "font.h"
#include "image.h"

#define CAUSE_FILE "scene.json"
#define CAUSE_MAX_LINES 5          /* edits named per failing frame */

/* ------------------------------------------------------------ reading */

static void cause_why(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void cause_why(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

/* The bytes of the regular file at path (at most RF_MAX_FILE_BYTES):
 * 0 with *buf (malloc'd) and *len, 1 when it does not exist, -1 with why. */
static int cause_read(const char *path, char **buf, size_t *len, char *why, size_t cap)
{
    struct stat st;
    int fd;
    size_t got = 0, size;
    char *b;

    *buf = NULL;
    *len = 0;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return 1;
        cause_why(why, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        cause_why(why, cap, "%s: not a regular file", path);
        return -1;
    }
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT)
            return 1;
        cause_why(why, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        cause_why(why, cap, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    if (st.st_size > (off_t)RF_MAX_FILE_BYTES) {
        cause_why(why, cap, "%s: larger than 64 MiB (%lld bytes), not a scene", path,
                 (long long)st.st_size);
        close(fd);
        return -1;
    }
    /* one byte more than the limit: a file that grows is refused, not cut */
    size = (size_t)st.st_size + 1;
    if (size > (size_t)RF_MAX_FILE_BYTES + 1)
        size = (size_t)RF_MAX_FILE_BYTES + 1;
    b = malloc(size);
    if (b == NULL) {
        cause_why(why, cap, "%s: out of memory", path);
        close(fd);
        return -1;
    }
    while (got < size) {
        ssize_t r = read(fd, b + got, size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            cause_why(why, cap, "%s: cannot read: %s", path, strerror(errno));
            free(b);
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (got > RF_MAX_FILE_BYTES || got == size) {
        cause_why(why, cap, "%s: changed while read, or larger than 64 MiB", path);
        free(b);
        return -1;
    }
    *buf = b;
    *len = got;
    return 0;
}

/* ------------------------------------------------------------ setup */

/* Whether ptr + 1 can name a trace column (trace.h): "/SEG/SEG...",
 * segments of letters, digits and '_', the first not starting with a digit. */
static int cause_traceable(const char *ptr)
{
    if (ptr == NULL || ptr[0] != '/')
        return 0;
    const char *s = ptr + 1;
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
        return 0;
    for (; *s != '\0'; s++) {
        int ok = (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' ||
                 (*s >= '0' && *s <= '9') || (*s == '/' && s[1] != '/' && s[1] != '\0');
        if (!ok)
            return 0;
    }
    return 1;
}

/* The value whose definition holds the pointer p (the innermost: an inline
 * progress inside a named sample is its own value), or -1. */
static long cause_value_of(const rf_scene_t *sc, const char *p)
{
    long best = -1;
    size_t best_len = 0;
    for (uint32_t i = 0; i < sc->values.n; i++) {
        const char *v = sc->value_srcs[i].ptr;
        size_t n = strlen(v);
        if (n == 0 || strncmp(p, v, n) != 0 || (p[n] != '\0' && p[n] != '/'))
            continue;
        if (best < 0 || n > best_len) {
            best = (long)i;
            best_len = n;
        }
    }
    return best;
}

void check_cause_init(check_ctx_t *c)
{
    check_cause_t *k = &c->cause;
    const rf_scene_t *sc = c->scene;
    char path[RF_CHECK_PATH_MAX], err[600];
    char *old = NULL;
    size_t len = 0;

    memset(k, 0, sizeof *k);
    if (sc->value_srcs != NULL && sc->values.n > sc->values.nnamed) {
        size_t ni = sc->values.n - sc->values.nnamed;
        k->inames = calloc(ni, sizeof *k->inames);
        for (size_t i = 0; k->inames != NULL && i < ni; i++) {
            const char *p = sc->value_srcs[sc->values.nnamed + i].ptr;
            k->inames[i] = cause_traceable(p) ? p + 1 : NULL;
        }
    }
    if (check_path_join(path, sizeof path, c->o->golden_dir, CAUSE_FILE, "") != 0)
        return;
    int rc = cause_read(path, &old, &len, err, sizeof err);
    if (rc == 1)
        return;
    if (rc == 0 && sc->source == NULL) {
        rc = -1;
        snprintf(err, sizeof err, "the scene's text is not at hand");
    }
    if (rc == 0 && rf_scene_diff(old, len, path, sc->source, sc->source_len,
                                 c->run->scene_path, &k->diff, err, sizeof err) != 0)
        rc = -1;
    free(old);
    if (rc != 0) {
        k->state = CHECK_CAUSE_BAD;
        snprintf(k->why, sizeof k->why, "%s", err);
        return;
    }
    k->state = CHECK_CAUSE_DIFF;
    if (k->diff.n > 0 && sc->value_srcs != NULL) {
        k->value_of = malloc(k->diff.n * sizeof *k->value_of);
        for (size_t e = 0; k->value_of != NULL && e < k->diff.n; e++)
            k->value_of[e] = cause_value_of(sc, k->diff.edits[e].ptr);
    }
}

void check_cause_free(check_cause_t *k)
{
    rf_scene_diff_free(&k->diff);
    free(k->value_of);
    free(k->inames);
    memset(k, 0, sizeof *k);
}

/* ------------------------------------------------------------ explaining */

/* Whether pointer p is under "/checks" (or is it): never a cause. */
static int cause_is_checks(const char *p)
{
    return strncmp(p, "/checks", 7) == 0 && (p[7] == '\0' || p[7] == '/');
}

/* How a value is named in a line: its name, or its trace name. */
static const char *cause_value_name(const check_ctx_t *c, uint32_t i)
{
    const rf_values_t *vs = &c->scene->values;
    if (i < vs->nnamed)
        return vs->values[i].name;
    const char *n = c->cause.inames != NULL ? c->cause.inames[i - vs->nnamed] : NULL;
    return n != NULL ? n : c->scene->value_srcs[i].ptr;
}

/* What changed when the scene did not: the renderer or a library, or an
 * asset unless the trace recorded every one the scene reads (then
 * check_explain named any that changed). */
static const char *cause_unchanged(const check_ctx_t *c)
{
    const rf_scene_t *sc = c->scene;
    int any = 0, all = c->trace != NULL;
    for (uint32_t i = 0; i < sc->nimages + sc->nfonts; i++) {
        int img = i < sc->nimages;
        if (!img && sc->fonts[i - sc->nimages]->builtin)
            continue;
        any = 1;
        if (rf_trace_asset(c->trace, img ? sc->images[i]->file
                                         : sc->fonts[i - sc->nimages]->file) == NULL)
            all = 0;
    }
    if (!any)
        return "the renderer or a library changed";
    if (all)
        return "the renderer or a library changed (no image or font did)";
    return "the renderer, an asset or a library changed";
}

/* root[i]: the value that moved (or is new) at this frame whose inputs,
 * through the graph, include value i (itself included), or UINT32_MAX.
 * Returns 1 when the trace said what moved, 0 when it could not (no
 * trace or no row: then every edit may be a cause), -1 out of memory. */
static int cause_roots(const check_ctx_t *c, const rf_check_frame_t *f, const double *slots,
                       uint32_t *root)
{
    const rf_values_t *vs = &c->scene->values;
    unsigned char *flags = malloc(vs->n + 1);
    uint32_t *stack = malloc((vs->n + 1) * sizeof *stack);
    int rc = 1;

    if (flags == NULL || stack == NULL) {
        rc = -1;
        goto out;
    }
    for (uint32_t i = 0; i < vs->n; i++)
        root[i] = UINT32_MAX;
    if (c->trace == NULL || c->scene->value_srcs == NULL ||
        !rf_trace_moved(c->trace, vs, c->cause.inames, f->t, slots, flags)) {
        rc = 0;
        goto out;
    }
    for (uint32_t m = 0; m < vs->n; m++) {
        if (flags[m] == 0 || root[m] != UINT32_MAX)
            continue;
        size_t sp = 0;
        root[m] = m;
        stack[sp++] = m;
        while (sp > 0) {
            const rf_value_src_t *s = &c->scene->value_srcs[stack[--sp]];
            for (uint32_t j = 0; j < s->ndeps; j++) {
                uint32_t w = s->deps[j];
                if (w < vs->n && root[w] == UINT32_MAX) {
                    root[w] = m;
                    stack[sp++] = w;
                }
            }
        }
    }
out:
    free(flags);
    free(stack);
    return rc;
}

void check_cause_explain(check_ctx_t *c, rf_check_frame_t *f, const double *slots,
                         int assets_changed, const char *asset_kind, const char *asset_file)
{
    const check_cause_t *k = &c->cause;
    const rf_scene_diff_t *d = &k->diff;
    char line[RF_SCENE_EDIT_TEXT * 2 + 1200];
    size_t shown = 0, more = 0, considered = 0;
    uint32_t *root = NULL;
    int known = 0;

    if (k->state == CHECK_CAUSE_NONE) {
        check_trace_line(f, "cause: unknown (the goldens have no scene.json to compare the "
                            "scene with; --update records it)");
        return;
    }
    if (k->state == CHECK_CAUSE_BAD) {
        check_trace_line(f, "cause: unknown (ignoring %s)", k->why);
        return;
    }
    for (size_t e = 0; e < d->n; e++)
        considered += !cause_is_checks(d->edits[e].ptr);
    if (considered == 0 && d->total == d->n) {
        if (assets_changed > 0)
            check_trace_line(f, "cause: %s '%s' changed since the goldens%s; the scene did not",
                             asset_kind, asset_file, assets_changed > 1 ? " (and others above)"
                                                                        : "");
        else
            check_trace_line(f, "cause: the scene is unchanged since the goldens%s: %s",
                             d->total > 0 ? " (but for its checks)" : "", cause_unchanged(c));
        return;
    }
    root = k->value_of != NULL ? malloc((c->scene->values.n + 1) * sizeof *root) : NULL;
    if (root != NULL)
        known = cause_roots(c, f, slots, root) == 1;
    for (size_t e = 0; e < d->n; e++) {
        const rf_scene_edit_t *ed = &d->edits[e];
        long v = k->value_of != NULL ? k->value_of[e] : -1;
        char via[320] = "";
        if (cause_is_checks(ed->ptr))
            continue;
        if (v >= 0 && known) {
            uint32_t r = root[v];
            if (r == UINT32_MAX)
                continue;      /* feeds only values that did not move here */
            if (r != (uint32_t)v)
                snprintf(via, sizeof via, " (read by %.300s)", cause_value_name(c, r));
        }
        if (shown == CAUSE_MAX_LINES) {
            more++;
            continue;
        }
        rf_scene_edit_format(line, sizeof line - sizeof via, ed);
        check_trace_line(f, "cause: %s%s", line, via);
        shown++;
    }
    free(root);
    if (more > 0)
        check_trace_line(f, "cause: and %zu more edit%s", more, more > 1 ? "s" : "");
    if (d->total > d->n)
        check_trace_line(f, "cause: and %zu edits not compared (past the first %d)",
                         d->total - d->n, RF_SCENE_DIFF_MAX);
    else if (shown == 0)
        check_trace_line(f, "cause: none of the scene's %zu edit%s since the goldens feeds what "
                            "changed here: the renderer, an asset or a library changed",
                         considered, considered == 1 ? "" : "s");
}
