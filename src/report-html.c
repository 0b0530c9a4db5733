/* report-html.c - the HTML report (report.h): one self-contained page, the
 * failing frames' images embedded as data: URIs within a byte budget. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* O_CLOEXEC */
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "numfmt.h"
#include "report-int.h"

#define RPT_GOLDEN_MAX (64u << 20)   /* goldens larger than this are not embedded */

static const char HTML_STYLE[] =
    ":root{color-scheme:light dark}\n"
    "body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",sans-serif;margin:16px 24px}\n"
    "h1{font-size:20px;margin:0 0 8px;overflow-wrap:anywhere}\n"
    "h2{font-size:16px;margin:0 0 6px;overflow-wrap:anywhere}\n"
    ".summary{font-size:16px;font-weight:600}\n"
    ".bad{color:#c62828}.good{color:#2e7d32}.upd{color:#1565c0}\n"
    "dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0 16px}\n"
    "dl.meta dt{font-weight:600}dl.meta dd{margin:0;overflow-wrap:anywhere}\n"
    "section.frame{border-top:1px solid #8886;padding:12px 0 16px}\n"
    ".message{margin:4px 0;overflow-wrap:anywhere}\n"
    "pre{background:#8882;padding:6px 8px;margin:6px 0;max-height:24em;overflow:auto;"
    "white-space:pre-wrap;overflow-wrap:anywhere}\n"
    ".images{display:flex;gap:12px;align-items:flex-start}\n"
    "figure{flex:1 1 0;min-width:0;margin:0}\n"
    "figure img{display:block;max-width:100%;height:auto;border:1px solid #8888;"
    "image-rendering:crisp-edges;image-rendering:pixelated;"
    "background:repeating-conic-gradient(#bbb 0 25%,#eee 0 50%) 0 0/16px 16px}\n"
    "figcaption{font-size:12px;margin-top:4px;overflow-wrap:anywhere}\n"
    ".noimg{border:1px dashed #8888;padding:24px 8px;text-align:center;color:#888;"
    "overflow-wrap:anywhere}\n"
    "table{border-collapse:collapse}\n"
    "th,td{padding:2px 10px;border-bottom:1px solid #8884;text-align:left}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    ".notice{border-left:4px solid #f9a825;padding:4px 8px}\n"
    /* "actual size": a checkbox toggles the images to their own pixels,
     * stacked and scrollable; no script needed */
    ".zoom{margin:4px 4px 8px 0}label{font-size:12px}\n"
    ".zoom:checked+label+.images{flex-direction:column}\n"
    ".zoom:checked+label+.images figure{flex:none;max-width:100%;overflow:auto}\n"
    ".zoom:checked+label+.images img{max-width:none}\n"
    "@media (max-width:900px){.images{flex-direction:column}.images figure{flex:none;"
    "width:100%}}\n"
    "ul.index{columns:4 16em;padding-left:1.2em}\n";

static const char B64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void html_base64(report_t *o, const uint8_t *p, size_t n)
{
    char buf[4096];
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        buf[k++] = B64[v >> 18];
        buf[k++] = B64[(v >> 12) & 63];
        buf[k++] = i + 1 < n ? B64[(v >> 6) & 63] : '=';
        buf[k++] = i + 2 < n ? B64[v & 63] : '=';
        if (k == sizeof buf) {
            report_bytes(o, buf, k);
            k = 0;
        }
    }
    report_bytes(o, buf, k);
}

/* Whether n more bytes of images fit in the page's budget. Once an image
 * does not fit, none does any more (sticky), so every later frame is
 * listed the same way, by paths. */
static int html_budget_fits(report_t *o, size_t n)
{
    if (o->over || n > o->embed_max - o->embedded) {
        o->over = 1;
        return 0;
    }
    return 1;
}

static int html_budget_take(report_t *o, size_t n)
{
    if (!html_budget_fits(o, n))
        return 0;
    o->embedded += n;
    return 1;
}

static void html_img(report_t *o, const uint8_t *data, size_t len, const char *alt,
                     const char *fname, uint32_t w, uint32_t h)
{
    report_str(o, "<img alt=\"");
    report_esc(o, alt, ESC_HTML);
    report_str(o, " ");
    report_esc(o, fname, ESC_HTML);
    report_str(o, "\"");
    if (w > 0 && h > 0)
        report_fmt(o, " width=\"%" PRIu32 "\" height=\"%" PRIu32 "\"", w, h);
    report_str(o, " src=\"data:image/png;base64,");
    html_base64(o, data, len);
    report_str(o, "\">");
}

/* sep and "<code>PATH</code>" when there is a path; nothing otherwise. */
static void html_code(report_t *o, const char *sep, const char *path)
{
    if (path == NULL || path[0] == '\0')
        return;
    report_str(o, sep);
    report_str(o, "<code>");
    report_esc(o, path, ESC_HTML);
    report_str(o, "</code>");
}

/* The end of a figure: its caption, then the path when there is one. */
static void html_figure_end(report_t *o, const char *caption, const char *path)
{
    report_str(o, "<figcaption>");
    report_esc(o, caption, ESC_HTML);
    html_code(o, " ", path);
    report_str(o, "</figcaption></figure>\n");
}

/* A figure without an image: why, and the file when there is one. */
static void html_noimg(report_t *o, const char *caption, const char *why, const char *path)
{
    report_str(o, "<figure><div class=\"noimg\">");
    report_esc(o, why, ESC_HTML);
    html_code(o, "<br>", path);
    report_str(o, "</div>");
    html_figure_end(o, caption, NULL);
}

static void html_limit_why(report_t *o, char *why, size_t n)
{
    snprintf(why, n, "not embedded: the page's image limit (%zu bytes) is reached",
             o->embed_max);
}

static void html_buffer_figure(report_t *o, const rf_png_buffer_t *b, const char *caption,
                               const char *alt, const char *fname, const char *missing,
                               const char *path, uint32_t w, uint32_t h)
{
    if (b->data == NULL || b->len == 0) {
        html_noimg(o, caption, missing, path);
        return;
    }
    if (!html_budget_take(o, b->len)) {
        char why[160];
        html_limit_why(o, why, sizeof why);
        html_noimg(o, caption, why, path);
        return;
    }
    report_str(o, "<figure>");
    html_img(o, b->data, b->len, alt, fname, w, h);
    html_figure_end(o, caption, path);
}

/* The expected image: the golden file's own bytes, when it is a regular
 * PNG file of at most RPT_GOLDEN_MAX bytes. */
static void html_golden_figure(report_t *o, const rf_check_frame_t *f, const char *fname)
{
    const char *caption = f->updated ? "expected (golden, as updated)" : "expected (golden)";
    const char *path = FIXED(f->golden_path);
    char why[256];
    if (path[0] == '\0') {
        html_noimg(o, caption, "no golden", NULL);
        return;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            html_noimg(o, caption, "no golden", path);
        else {
            snprintf(why, sizeof why, "cannot read the golden: %s", strerror(errno));
            html_noimg(o, caption, why, path);
        }
        return;
    }
    struct stat st;
    uint8_t *data = NULL;
    const char *problem = NULL;
    size_t len = 0;
    if (fstat(fd, &st) != 0) {
        snprintf(why, sizeof why, "cannot read the golden: %s", strerror(errno));
        problem = why;
    } else if (!S_ISREG(st.st_mode)) {
        problem = "the golden is not a regular file";
    } else if (st.st_size == 0) {
        problem = "the golden is empty";
    } else if ((uintmax_t)st.st_size > RPT_GOLDEN_MAX) {
        snprintf(why, sizeof why, "not embedded: the golden is larger than %u MiB",
                 RPT_GOLDEN_MAX >> 20);
        problem = why;
    } else if (!html_budget_fits(o, (size_t)st.st_size)) {
        html_limit_why(o, why, sizeof why);
        problem = why;
    } else {
        len = (size_t)st.st_size;
        data = malloc(len);
        if (data == NULL) {
            problem = "not embedded: out of memory";
        } else {
            size_t got = 0;
            while (got < len) {
                ssize_t r = read(fd, data + got, len - got);
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0) {
                    snprintf(why, sizeof why, "cannot read the golden: %s",
                             r < 0 ? strerror(errno) : "it shrank while being read");
                    problem = why;
                    break;
                }
                got += (size_t)r;
            }
            static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
            if (problem == NULL && (len < 8 || memcmp(data, sig, 8) != 0))
                problem = "the golden is not a PNG file";
        }
    }
    close(fd);
    if (problem != NULL) {
        free(data);
        html_noimg(o, caption, problem, path);
        return;
    }
    html_budget_take(o, len);   /* fits: checked before reading */
    uint32_t w = f->golden_width > 0 && f->golden_height > 0 ? f->golden_width : 0;
    uint32_t h = w > 0 ? f->golden_height : 0;
    if (w == 0 && f->status != RF_CHECK_SIZE && f->status != RF_CHECK_UNREADABLE) {
        w = o->run->width;
        h = o->run->height;
    }
    report_str(o, "<figure>");
    html_img(o, data, len, "expected (golden)", fname, w, h);
    free(data);
    html_figure_end(o, caption, path);   /* path is not "" here */
}

static const char *html_diff_missing(const rf_check_frame_t *f)
{
    switch (f->status) {
    case RF_CHECK_DIFFERENT: return "not kept";
    case RF_CHECK_MISSING: return "no diff: there is no golden to compare with";
    case RF_CHECK_SIZE: return "no diff: the sizes differ";
    case RF_CHECK_NO_FRAME: return "no diff: the scene has no such frame";
    default: return "no diff: nothing was compared";
    }
}

static const char *html_actual_missing(const rf_check_frame_t *f)
{
    switch (f->status) {
    case RF_CHECK_NO_FRAME: return "no render: the scene has no such frame";
    case RF_CHECK_ERROR: return "no render: the frame failed";
    default: return "not kept";
    }
}

static void html_frame(report_t *o, const rf_check_frame_t *f, size_t pos)
{
    const rf_check_run_t *run = o->run;
    char nbuf[32];
    const char *fname = report_frame_name(f, nbuf);
    outcome_t oc = report_frame_outcome(f);
    report_fmt(o, "<section class=\"frame\" id=\"f%zu\">\n<h2>", pos);
    report_esc(o, fname, ESC_HTML);
    report_fmt(o, " &middot; t=%g &middot; <span class=\"%s\">", f->t,
               f->updated ? "upd" : oc == OUT_PASS ? "good" : "bad");
    report_esc(o, report_status_name(f->status), ESC_HTML);
    if (f->updated)
        report_str(o, ", golden updated");
    report_str(o, "</span></h2>\n");
    if (FIXED(f->message)[0] != '\0') {
        report_str(o, "<p class=\"message\">");
        report_esc(o, f->message, ESC_HTML);
        report_str(o, "</p>\n");
    }
    if (f->trace != NULL && f->trace[0] != '\0') {
        report_str(o, "<pre class=\"trace\">");
        report_esc(o, f->trace, ESC_HTML);
        report_str(o, "</pre>\n");
    }
    report_fmt(o, "<input type=\"checkbox\" class=\"zoom\" id=\"z%zu\"><label for=\"z%zu\">"
               "actual size</label>\n<div class=\"images\">\n", pos, pos);
    html_golden_figure(o, f, fname);
    html_buffer_figure(o, &f->actual_png, "actual (render)", "actual (render)", fname,
                       html_actual_missing(f), NULL, run->width, run->height);
    html_buffer_figure(o, &f->diff_png, "diff", "diff", fname, html_diff_missing(f),
                       FIXED(f->diff_path), run->width, run->height);
    report_str(o, "</div>\n</section>\n");
}

static void html_meta(report_t *o, const char *term, const char *value)
{
    report_str(o, "<dt>");
    report_str(o, term);
    report_str(o, "</dt><dd>");
    report_esc(o, value, ESC_HTML);
    report_str(o, "</dd>\n");
}

void report_write_html(report_t *o)
{
    const rf_check_run_t *run = o->run;
    const char *scene = report_scene(run);
    char nb[RF_NUM_BUF], buf[96];

    report_str(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>runeframe check: ");
    report_esc(o, scene, ESC_HTML);
    report_str(o, "</title>\n<style>\n");
    report_str(o, HTML_STYLE);
    report_str(o, "</style>\n</head>\n<body>\n<h1>runeframe check: ");
    report_esc(o, scene, ESC_HTML);
    report_str(o, "</h1>\n");
    /* one run of text, as the CLI's summary line reads */
    report_fmt(o, "<p class=\"summary %s\">%zu passed, %zu failed", run->failed > 0 ? "bad" : "good",
               run->passed, run->failed);
    if (run->update || run->updated > 0)
        report_fmt(o, ", %zu updated", run->updated);
    report_str(o, "</p>\n<dl class=\"meta\">\n");
    html_meta(o, "golden", run->golden_dir != NULL ? run->golden_dir : "");
    snprintf(buf, sizeof buf, "%" PRIu32 " x %" PRIu32, run->width, run->height);
    html_meta(o, "size", buf);
    html_meta(o, "threshold", rf_num_short(nb, run->diff.threshold));
    html_meta(o, "aa", run->diff.include_aa ? "counted (no --aa)" : "ignored (--aa)");
    snprintf(buf, sizeof buf, "%" PRIu64, run->max_diff_pixels);
    html_meta(o, "max-diff-pixels", buf);
    html_meta(o, "max-diff-ratio", rf_num_short(nb, run->max_diff_ratio));
    html_meta(o, "update", run->update ? "yes" : "no");
    html_meta(o, "started", FIXED(run->timestamp));
    snprintf(buf, sizeof buf, "%.3f s", isfinite(run->seconds) && run->seconds > 0
                                            ? run->seconds : 0.0);
    html_meta(o, "time", buf);
    report_str(o, "</dl>\n");

    /* The frames shown in full: not passing, or updated. */
    size_t shown = 0, passing = 0;
    for (size_t i = 0; i < run->nframes; i++) {
        const rf_check_frame_t *f = &run->frames[i];
        if (f->status != RF_CHECK_PASS || f->updated)
            shown++;
        else
            passing++;
    }
    if (shown > 0) {
        report_str(o, "<h2>Frames that failed or were updated</h2>\n<ul class=\"index\">\n");
        for (size_t i = 0; i < run->nframes; i++) {
            const rf_check_frame_t *f = &run->frames[i];
            if (f->status == RF_CHECK_PASS && !f->updated)
                continue;
            char nbuf[32];
            report_fmt(o, "<li><a href=\"#f%zu\">", i);
            report_esc(o, report_frame_name(f, nbuf), ESC_HTML);
            report_str(o, "</a> ");
            report_esc(o, report_status_name(f->status), ESC_HTML);
            report_str(o, f->updated ? " (updated)</li>\n" : "</li>\n");
        }
        report_str(o, "</ul>\n");
        for (size_t i = 0; i < run->nframes; i++) {
            const rf_check_frame_t *f = &run->frames[i];
            if (f->status != RF_CHECK_PASS || f->updated)
                html_frame(o, f, i);
        }
    }
    if (o->over)
        report_fmt(o, "<p class=\"notice\">The page embeds at most %zu bytes of images; "
                   "the images past that limit are listed by their paths.</p>\n",
                o->embed_max);

    report_fmt(o, "<h2>Passing frames (%zu)</h2>\n", passing);
    if (passing > 0) {
        report_str(o, "<table>\n<thead><tr><th>frame</th><th>time</th><th>different pixels</th>"
                   "<th>seconds</th></tr></thead>\n<tbody>\n");
        for (size_t i = 0; i < run->nframes; i++) {
            const rf_check_frame_t *f = &run->frames[i];
            if (f->status != RF_CHECK_PASS || f->updated)
                continue;
            char nbuf[32];
            report_fmt(o, "<tr id=\"f%zu\"><td>", i);
            report_esc(o, report_frame_name(f, nbuf), ESC_HTML);
            report_fmt(o, "</td><td class=\"n\">%g</td><td class=\"n\">%" PRIu64 " / %" PRIu64
                       "</td><td class=\"n\">",
                    f->t, f->diff.different, f->diff.pixels);
            report_seconds(o, f->seconds);
            report_str(o, "</td></tr>\n");
        }
        report_str(o, "</tbody>\n</table>\n");
    } else {
        report_str(o, "<p>None.</p>\n");
    }
    report_str(o, "</body>\n</html>\n");
}
