/* report.c - check reports for CI: JUnit XML, JSON and HTML (report.h).
 *
 * The entry points: the format from the file name's extension, and the
 * report streamed into an atomic file (atomic.h): the first failed write
 * is remembered with its errno and the temporary is discarded, so a path
 * only ever holds a complete report. Also how a run shows in every format
 * (report-int.h); each format is its own file (report-junit.c,
 * report-json.c, report-html.c), output and escaping are report-out.c's.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* strcasecmp */
#endif

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "atomic.h"
#include "report-int.h"

/* ------------------------------------------------------------ the run */

/* How a frame counts in a report: an updated golden is a pass; a golden
 * that could not be read or a render that failed is an error (the system,
 * not the pixels); every other status a failure. */
outcome_t report_frame_outcome(const rf_check_frame_t *f)
{
    if (f->updated)
        return OUT_PASS;
    switch (f->status) {
    case RF_CHECK_PASS: return OUT_PASS;
    case RF_CHECK_DIFFERENT:
    case RF_CHECK_MISSING:
    case RF_CHECK_SIZE:
    case RF_CHECK_NO_FRAME: return OUT_FAILURE;
    default: return OUT_ERROR;
    }
}

/* A fixed-size field as a string: itself, or "" when it has no NUL (a
 * corrupt run must not make the report read past the field). */
const char *report_fixed_str(const char *s, size_t size)
{
    return memchr(s, '\0', size) != NULL ? s : "";
}

const char *report_frame_name(const rf_check_frame_t *f, char buf[32])
{
    if (FIXED(f->name)[0] != '\0')
        return f->name;
    snprintf(buf, 32, "frame-%05ld", f->index);
    return buf;
}

const char *report_status_name(rf_check_status_t s)
{
    const char *n = rf_check_status_name(s);
    return n != NULL ? n : "error";
}

/* Seconds as reports show them: 3 decimals, never negative or non-finite. */
void report_seconds(report_t *o, double s)
{
    report_fmt(o, "%.3f", isfinite(s) && s > 0 ? s : 0.0);
}

const char *report_scene(const rf_check_run_t *run)
{
    return run->scene_path != NULL ? run->scene_path : "";
}

/* ------------------------------------------------------------ entry points */

int rf_report_kind_of(const char *path)
{
    if (path == NULL)
        return -1;
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (dot == NULL || dot == base)   /* no extension, or a dot file ".xml" */
        return -1;
    if (strcasecmp(dot, ".xml") == 0)
        return RF_REPORT_JUNIT;
    if (strcasecmp(dot, ".json") == 0)
        return RF_REPORT_JSON;
    if (strcasecmp(dot, ".html") == 0 || strcasecmp(dot, ".htm") == 0)
        return RF_REPORT_HTML;
    return -1;
}

static int report_fail(char *err, size_t errlen, const char *path, int e)
{
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "%s: %s", path, strerror(e));
    errno = e;
    return -1;
}

int rf_report_write_embed(const rf_check_run_t *run, const char *path, size_t embed_max,
                          char *err, size_t errlen)
{
    if (path == NULL)
        path = "";
    int kind = rf_report_kind_of(path);
    if (kind < 0) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s: unknown report format (use .xml, .json or .html)",
                     path);
        errno = EINVAL;
        return -1;
    }
    if (run == NULL || (run->nframes > 0 && run->frames == NULL))
        return report_fail(err, errlen, path, EINVAL);

    rf_atomic_file_t af;
    if (rf_atomic_file_open(&af, path, 0, NULL, 0) != 0)
        return report_fail(err, errlen, path, errno);
    report_t o = { .fp = af.fp, .run = run, .embed_max = embed_max };
    switch (kind) {
    case RF_REPORT_JUNIT: report_write_junit(&o); break;
    case RF_REPORT_JSON: report_write_json(&o); break;
    default: report_write_html(&o); break;
    }
    if (o.err != 0) {
        rf_atomic_file_abort(&af);
        return report_fail(err, errlen, path, o.err);
    }
    if (rf_atomic_file_commit(&af, NULL, 0) != 0)
        return report_fail(err, errlen, path, errno != 0 ? errno : EIO);
    return 0;
}

int rf_report_write(const rf_check_run_t *run, const char *path, char *err, size_t errlen)
{
    return rf_report_write_embed(run, path, RF_REPORT_EMBED_MAX, err, errlen);
}
