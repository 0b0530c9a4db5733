/* report-int.h - what the report writers (report.h) share, private to them.
 *
 * Owns: report_t (one report being written: its stream, its first write
 * error, the HTML image budget), the output and escaping helpers
 * (report-out.c), how a frame shows in every format (report.c), and one
 * writer per format:
 *   report.c        entry points (format by extension, atomic file) and
 *                   the run's shared views (outcome, names, seconds);
 *   report-out.c    output that remembers the first failed write, UTF-8
 *                   decoding and escaping for XML, HTML and JSON;
 *   report-junit.c  JUnit XML;
 *   report-json.c   JSON;
 *   report-html.c   the self-contained HTML page.
 *
 * Thread-safety: as report.h; an report_t belongs to the one thread writing it.
 */
#ifndef RF_REPORT_INT_H
#define RF_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"

typedef struct rpt {
    FILE *fp;
    int err;                  /* errno of the first failed write, or 0 */
    const rf_check_run_t *run;
    size_t embed_max;         /* HTML: image bytes the page may embed */
    size_t embedded;          /* HTML: image bytes embedded so far */
    int over;                 /* HTML: the budget ran out (sticky) */
} report_t;

/* ---- report-out.c: output (nothing once a write failed; o->err says why) */

void report_bytes(report_t *o, const char *s, size_t n);
void report_str(report_t *o, const char *s);
void report_fmt(report_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What a string is escaped for. All text from the run is untrusted: it is
 * decoded as UTF-8 with invalid sequences replaced by U+FFFD, and what the
 * format cannot carry becomes U+FFFD too. */
typedef enum esc_mode {
    ESC_XML_TEXT,
    ESC_XML_ATTR,
    ESC_HTML,
    ESC_JSON,
} esc_mode_t;

/* n bytes of s (or the NUL-terminated s, nothing for NULL) escaped for mode. */
void report_esc_n(report_t *o, const char *s, size_t n, esc_mode_t mode);
void report_esc(report_t *o, const char *s, esc_mode_t mode);

/* ---- report.c: how a run shows in every format */

typedef enum outcome { OUT_PASS, OUT_FAILURE, OUT_ERROR } outcome_t;

/* How a frame counts in a report: an updated golden is a pass; a golden
 * that could not be read or a render that failed is an error (the system,
 * not the pixels); every other status a failure. */
outcome_t report_frame_outcome(const rf_check_frame_t *f);

/* A fixed-size field as a string: itself, or "" when it has no NUL (a
 * corrupt run must not make the report read past the field). */
const char *report_fixed_str(const char *s, size_t size);
#define FIXED(field) report_fixed_str((field), sizeof(field))

/* The frame's name, or "frame-NNNNN" from its index when it has none. */
const char *report_frame_name(const rf_check_frame_t *f, char buf[32]);
const char *report_status_name(rf_check_status_t s);
/* Seconds as reports show them: 3 decimals, never negative or non-finite. */
void report_seconds(report_t *o, double s);
/* The scene's path, "" when there is none. */
const char *report_scene(const rf_check_run_t *run);

/* ---- one writer per format: the whole document to o */

void report_write_junit(report_t *o);   /* report-junit.c */
void report_write_json(report_t *o);    /* report-json.c */
void report_write_html(report_t *o);    /* report-html.c */

#endif
