/* report.h - check reports for CI: JUnit XML, JSON and HTML.
 *
 * Owns: the three report formats, written from an rf_check_run_t (check.h).
 * The format follows the file name's extension. Every report is written
 * atomically (atomic.h): the path holds the complete new report or what it
 * held before.
 *
 *   .xml   JUnit XML as GitLab, Jenkins and GitHub test reporters read it:
 *          <testsuites> with one <testsuite> named after the scene and one
 *          <testcase> per checked frame (classname "runeframe.SCENE", name
 *          "frame-00032 t=0.533333"); a failing frame has a <failure> whose
 *          message attribute is the frame's one-line message (the pixel
 *          counts) and whose text adds the trace explanation; an unreadable
 *          golden or a render failure is an <error>. Counts in the tests,
 *          failures and errors attributes; times in seconds.
 *   .json  one object: scene, golden folder, options, the summary counts and
 *          per frame its number, time, status, counts, bounding box, message,
 *          moved-value lines and file paths.
 *   .html  one self-contained page (no server, no other file): the summary,
 *          then per failing frame the expected (golden), actual (render) and
 *          diff images side by side, embedded as data: URIs, with the message
 *          and the trace lines; passing frames in a compact table. Images
 *          need rf_check_options_t.keep_images; past RF_REPORT_EMBED_MAX bytes
 *          of images, later frames are listed with their paths instead.
 *
 * Thread-safety: no global state; the run is only read, so reports of one
 * run may be written from several threads at once (to different paths).
 */
#ifndef RF_REPORT_H
#define RF_REPORT_H

#include <stddef.h>

#include "check.h"

#define RF_REPORT_EMBED_MAX (256u << 20)   /* bytes of images an HTML page embeds */

typedef enum rf_report_kind {
    RF_REPORT_JUNIT = 0,
    RF_REPORT_JSON,
    RF_REPORT_HTML,
} rf_report_kind_t;

/* The kind for path's extension (.xml, .json, .html or .htm, any case);
 * -1 for any other. Checked before a run starts, so a typo costs nothing. */
int rf_report_kind_of(const char *path);

/* Writes the report of run to path. Returns 0, or -1 with one line in err
 * ("PATH: strerror") when the file could not be written. */
int rf_report_write(const rf_check_run_t *run, const char *path, char *err, size_t errlen);

/* rf_report_write with embed_max bytes of images for an HTML page in place
 * of RF_REPORT_EMBED_MAX (lets tests reach the limit with small images). */
int rf_report_write_embed(const rf_check_run_t *run, const char *path, size_t embed_max,
                          char *err, size_t errlen);

#endif
