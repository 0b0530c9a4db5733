/* report-json.c - the JSON report (report.h): one object, the run and
 * its frames. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "numfmt.h"
#include "report-int.h"

/* A JSON string literal, or null for NULL. */
static void json_str(report_t *o, const char *s)
{
    if (s == NULL) {
        report_str(o, "null");
        return;
    }
    report_str(o, "\"");
    report_esc(o, s, ESC_JSON);
    report_str(o, "\"");
}

/* A JSON string, or null for NULL and "". */
static void json_path(report_t *o, const char *s)
{
    json_str(o, s != NULL && s[0] != '\0' ? s : NULL);
}

/* Whether the frame's diff result holds a comparison. */
static int frame_compared(const rf_check_frame_t *f)
{
    return f->status == RF_CHECK_PASS || f->status == RF_CHECK_DIFFERENT;
}


static void json_num(report_t *o, double x)
{
    char nb[RF_NUM_BUF];
    report_str(o, rf_num_json(nb, x));
}

/* %.17g, so a frame's time reads back as exactly its double. */
static void json_exact(report_t *o, double x)
{
    if (!isfinite(x)) {
        report_str(o, "null");
        return;
    }
    char nb[RF_NUM_BUF];
    report_str(o, rf_num_exact(nb, x));
}

static void json_bool(report_t *o, int b)
{
    report_str(o, b ? "true" : "false");
}

/* The trace's lines as a JSON array (no line ends). */
static void json_trace(report_t *o, const char *trace)
{
    report_str(o, "[");
    int first = 1;
    const char *p = trace;
    while (p != NULL && *p != '\0') {
        const char *nl = strchr(p, '\n');
        size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);
        report_str(o, first ? "" : ", ");
        report_str(o, "\"");
        report_esc_n(o, p, n, ESC_JSON);
        report_str(o, "\"");
        first = 0;
        p = nl != NULL ? nl + 1 : p + n;
    }
    report_str(o, "]");
}

static void json_frame(report_t *o, const rf_check_frame_t *f)
{
    char nbuf[32];
    report_fmt(o, "    {\"frame\": %ld, \"time\": ", f->index);
    json_exact(o, f->t);
    report_str(o, ", \"name\": ");
    json_str(o, report_frame_name(f, nbuf));
    report_str(o, ", \"status\": ");
    json_str(o, report_status_name(f->status));
    report_str(o, ", \"updated\": ");
    json_bool(o, f->updated);
    report_str(o, ",\n     ");
    const rf_diff_result_t *d = &f->diff;
    if (frame_compared(f)) {
        report_fmt(o, "\"different_pixels\": %" PRIu64 ", \"antialiased_pixels\": %" PRIu64
                   ", \"pixels\": %" PRIu64 ", \"ratio\": ",
                d->different, d->antialiased, d->pixels);
        if (d->pixels > 0)
            json_num(o, (double)d->different / (double)d->pixels);
        else
            report_str(o, "null");
    } else {
        report_str(o, "\"different_pixels\": null, \"antialiased_pixels\": null, "
                   "\"pixels\": null, \"ratio\": null");
    }
    report_str(o, ", \"bbox\": ");
    if (frame_compared(f) && d->different > 0)
        report_fmt(o, "[%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 "]", d->x0, d->y0,
                   d->x1, d->y1);
    else
        report_str(o, "null");
    report_str(o, ", \"golden_size\": ");
    if (f->golden_width > 0 && f->golden_height > 0)
        report_fmt(o, "[%" PRIu32 ", %" PRIu32 "]", f->golden_width, f->golden_height);
    else
        report_str(o, "null");
    report_str(o, ",\n     \"message\": ");
    json_str(o, FIXED(f->message));
    report_str(o, ",\n     \"trace\": ");
    json_trace(o, f->trace);
    report_str(o, ",\n     \"golden\": ");
    json_path(o, FIXED(f->golden_path));
    report_str(o, ", \"diff\": ");
    json_path(o, FIXED(f->diff_path));
    report_str(o, ", \"seconds\": ");
    json_num(o, f->seconds);
    report_str(o, "}");
}

void report_write_json(report_t *o)
{
    const rf_check_run_t *run = o->run;
    report_str(o, "{\n  \"scene\": ");
    json_str(o, run->scene_path);
    report_str(o, ",\n  \"golden\": ");
    json_str(o, run->golden_dir);
    report_fmt(o, ",\n  \"width\": %" PRIu32 ", \"height\": %" PRIu32, run->width, run->height);
    report_str(o, ",\n  \"options\": {\"threshold\": ");
    json_num(o, run->diff.threshold);
    report_str(o, ", \"aa\": ");
    json_bool(o, !run->diff.include_aa);
    report_str(o, ", \"alpha\": ");
    json_num(o, run->diff.alpha);
    report_fmt(o, ", \"max_diff_pixels\": %" PRIu64 ", \"max_diff_ratio\": ",
               run->max_diff_pixels);
    json_num(o, run->max_diff_ratio);
    report_str(o, ", \"update\": ");
    json_bool(o, run->update);
    report_fmt(o, "},\n  \"passed\": %zu, \"failed\": %zu, \"updated\": %zu, \"io_errors\": %d"
               ", \"trace_written\": ",
            run->passed, run->failed, run->updated, run->io_errors);
    json_bool(o, run->trace_written);
    report_str(o, ",\n  \"seconds\": ");
    json_num(o, run->seconds);
    report_str(o, ", \"timestamp\": ");
    json_str(o, FIXED(run->timestamp));
    report_str(o, ",\n  \"frames\": [");
    for (size_t i = 0; i < run->nframes; i++) {
        report_str(o, i == 0 ? "\n" : ",\n");
        json_frame(o, &run->frames[i]);
    }
    report_str(o, run->nframes > 0 ? "\n  ]\n}\n" : "]\n}\n");
}
