/* report.c - check reports for CI: JUnit XML, JSON and HTML (report.h).
 *
 * Every report is streamed into an atomic file (atomic.h); the first failed
 * write is remembered with its errno and the temporary is discarded, so a
 * path only ever holds a complete report. All text from the run (scene
 * path, messages, trace lines, file names) is untrusted: it is decoded as
 * UTF-8 with invalid sequences replaced by U+FFFD (one per maximal invalid
 * subpart, as WHATWG decoders do) and escaped for the format; characters a
 * format cannot carry (XML 1.0's forbidden controls, HTML's controls) become
 * U+FFFD too, so the document always parses.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* gethostname, O_CLOEXEC, strcasecmp */
#endif

#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "numfmt.h"

#define RPT_GOLDEN_MAX (64u << 20)   /* goldens larger than this are not embedded */
#define RPT_BAD_CP UINT32_MAX        /* an invalid UTF-8 sequence */

typedef struct rpt {
    FILE *fp;
    int err;                  /* errno of the first failed write, or 0 */
    const rf_check_run_t *run;
    size_t embed_max;         /* HTML: image bytes the page may embed */
    size_t embedded;          /* HTML: image bytes embedded so far */
    int over;                 /* HTML: the budget ran out (sticky) */
} rpt_t;

/* ------------------------------------------------------------ output */

static void out_bytes(rpt_t *o, const char *s, size_t n)
{
    if (o->err != 0 || n == 0)
        return;
    errno = 0;
    if (fwrite(s, 1, n, o->fp) != n)
        o->err = errno != 0 ? errno : EIO;
}

static void out_str(rpt_t *o, const char *s)
{
    out_bytes(o, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void out_fmt(rpt_t *o, const char *fmt, ...)
{
    if (o->err != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    int rc = vfprintf(o->fp, fmt, ap);
    va_end(ap);
    if (rc < 0)
        o->err = errno != 0 ? errno : EIO;
}

/* ------------------------------------------------------------ text */

/* Decodes one UTF-8 sequence at s (n > 0 bytes). Returns the bytes it
 * covers and the code point in *cp, or RPT_BAD_CP for an invalid sequence
 * (then the count is its maximal subpart: a bad lead byte alone, or a lead
 * and the valid continuation bytes before the first wrong one). Overlong
 * forms, surrogates and values above U+10FFFF are invalid. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t need;
    unsigned lo = 0x80, hi = 0xBF;
    uint32_t v;
    if (c < 0xC2) {
        *cp = RPT_BAD_CP;
        return 1;
    } else if (c < 0xE0) {
        need = 1;
        v = c & 0x1F;
    } else if (c < 0xF0) {
        need = 2;
        v = c & 0x0F;
        if (c == 0xE0)
            lo = 0xA0;   /* overlong */
        else if (c == 0xED)
            hi = 0x9F;   /* surrogates */
    } else if (c < 0xF5) {
        need = 3;
        v = c & 0x07;
        if (c == 0xF0)
            lo = 0x90;   /* overlong */
        else if (c == 0xF4)
            hi = 0x8F;   /* above U+10FFFF */
    } else {
        *cp = RPT_BAD_CP;
        return 1;
    }
    for (size_t i = 1; i <= need; i++) {
        unsigned b = i < n ? s[i] : 0;
        if (i >= n || b < lo || b > hi) {
            *cp = RPT_BAD_CP;
            return i;
        }
        v = (v << 6) | (b & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    *cp = v;
    return need + 1;
}

typedef enum esc_mode {
    ESC_XML_TEXT,
    ESC_XML_ATTR,
    ESC_HTML,
    ESC_JSON,
} esc_mode_t;

static const char REPLACEMENT[] = "\xEF\xBF\xBD";   /* U+FFFD */

/* XML 1.0's Char production. */
static int xml_char_ok(uint32_t cp)
{
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
           (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

/* What replaces cp in mode, or NULL when its bytes are copied as they are. */
static const char *esc_replacement(uint32_t cp, esc_mode_t mode, char buf[8])
{
    if (mode == ESC_JSON) {
        switch (cp) {
        case RPT_BAD_CP: return "\\ufffd";
        case '"': return "\\\"";
        case '\\': return "\\\\";
        case '\n': return "\\n";
        case '\t': return "\\t";
        case '\r': return "\\r";
        case '\b': return "\\b";
        case '\f': return "\\f";
        case 0x2028: return "\\u2028";   /* legal JSON, but not JavaScript */
        case 0x2029: return "\\u2029";
        default: break;
        }
        if (cp < 0x20 || cp == 0x7F) {
            snprintf(buf, 8, "\\u00%02x", (unsigned)(cp & 0xFF));
            return buf;
        }
        return NULL;
    }
    if (cp == RPT_BAD_CP)
        return REPLACEMENT;
    switch (cp) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return mode == ESC_HTML ? "&#39;" : "&apos;";
    default: break;
    }
    if (mode == ESC_HTML) {
        if (cp == '\t' || cp == '\n' || cp == '\r')
            return NULL;
        /* controls (C0, DEL, C1) and noncharacters are HTML parse errors */
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0xFDD0 && cp <= 0xFDEF) ||
            (cp & 0xFFFE) == 0xFFFE)
            return REPLACEMENT;
        return NULL;
    }
    if (!xml_char_ok(cp))
        return REPLACEMENT;
    /* A parser normalizes CR to LF, and tab/LF/CR in attributes to spaces:
     * character references keep them. */
    if (cp == '\r')
        return "&#13;";
    if (mode == ESC_XML_ATTR && cp == '\n')
        return "&#10;";
    if (mode == ESC_XML_ATTR && cp == '\t')
        return "&#9;";
    return NULL;
}

/* Writes n bytes of s escaped for mode; runs of bytes that need nothing
 * are copied in one write. */
static void out_esc_n(rpt_t *o, const char *s, size_t n, esc_mode_t mode)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t run = 0, i = 0;
    while (i < n) {
        uint32_t cp;
        size_t len = utf8_decode(p + i, n - i, &cp);
        char buf[8];
        const char *rep = esc_replacement(cp, mode, buf);
        if (rep != NULL) {
            out_bytes(o, s + run, i - run);
            out_str(o, rep);
            run = i + len;
        }
        i += len;
    }
    out_bytes(o, s + run, n - run);
}

static void out_esc(rpt_t *o, const char *s, esc_mode_t mode)
{
    if (s != NULL)
        out_esc_n(o, s, strlen(s), mode);
}

/* A JSON string literal, or null for NULL. */
static void out_json_str(rpt_t *o, const char *s)
{
    if (s == NULL) {
        out_str(o, "null");
        return;
    }
    out_str(o, "\"");
    out_esc(o, s, ESC_JSON);
    out_str(o, "\"");
}

/* A JSON string, or null for NULL and "". */
static void out_json_path(rpt_t *o, const char *s)
{
    out_json_str(o, s != NULL && s[0] != '\0' ? s : NULL);
}

/* ------------------------------------------------------------ the run */

typedef enum outcome { OUT_PASS, OUT_FAILURE, OUT_ERROR } outcome_t;

/* How a frame counts in a report: an updated golden is a pass; a golden
 * that could not be read or a render that failed is an error (the system,
 * not the pixels); every other status a failure. */
static outcome_t frame_outcome(const rf_check_frame_t *f)
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

/* Whether the frame's diff result holds a comparison. */
static int frame_compared(const rf_check_frame_t *f)
{
    return f->status == RF_CHECK_PASS || f->status == RF_CHECK_DIFFERENT;
}

/* A fixed-size field as a string: itself, or "" when it has no NUL (a
 * corrupt run must not make the report read past the field). */
static const char *fixed_str(const char *s, size_t size)
{
    return memchr(s, '\0', size) != NULL ? s : "";
}

#define FIXED(field) fixed_str((field), sizeof(field))

static const char *frame_name(const rf_check_frame_t *f, char buf[32])
{
    if (FIXED(f->name)[0] != '\0')
        return f->name;
    snprintf(buf, 32, "frame-%05ld", f->index);
    return buf;
}

static const char *status_name(rf_check_status_t s)
{
    const char *n = rf_check_status_name(s);
    return n != NULL ? n : "error";
}

/* Seconds as reports show them: 3 decimals, never negative or non-finite. */
static void out_seconds(rpt_t *o, double s)
{
    out_fmt(o, "%.3f", isfinite(s) && s > 0 ? s : 0.0);
}

static const char *scene_of(const rf_check_run_t *run)
{
    return run->scene_path != NULL ? run->scene_path : "";
}

/* 1 when ts is an xs:dateTime: YYYY-MM-DDTHH:MM:SS[.fff][Z|+HH:MM|-HH:MM]. */
static int timestamp_ok(const char *ts)
{
    static const char pat[] = "dddd-dd-ddTdd:dd:dd";
    size_t i;
    for (i = 0; pat[i] != '\0'; i++) {
        char c = ts[i];
        if (pat[i] == 'd' ? (c < '0' || c > '9') : c != pat[i])
            return 0;
    }
    if (ts[i] == '.') {
        size_t start = ++i;
        while (ts[i] >= '0' && ts[i] <= '9')
            i++;
        if (i == start)
            return 0;
    }
    if (ts[i] == 'Z')
        i++;
    else if (ts[i] == '+' || ts[i] == '-') {
        static const char tz[] = "dd:dd";
        for (size_t k = 0; tz[k] != '\0'; k++) {
            char c = ts[i + 1 + k];
            if (tz[k] == 'd' ? (c < '0' || c > '9') : c != tz[k])
                return 0;
        }
        i += 6;
    }
    return ts[i] == '\0';
}

/* ------------------------------------------------------------ JUnit XML */

/* The testcase classname: "runeframe." and the scene's file name without
 * its extension; its other dots become '_' because JUnit readers split
 * classnames into packages at dots. */
static void xml_classname(rpt_t *o, const char *scene)
{
    const char *base = strrchr(scene, '/');
    base = base != NULL ? base + 1 : scene;
    const char *dot = strrchr(base, '.');
    size_t n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
    out_str(o, "runeframe.");
    if (n == 0) {
        out_str(o, "scene");
        return;
    }
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (base[i] == '.') {
            out_esc_n(o, base + start, i - start, ESC_XML_ATTR);
            out_str(o, "_");
            start = i + 1;
        }
    }
    out_esc_n(o, base + start, n - start, ESC_XML_ATTR);
}

static void xml_property(rpt_t *o, const char *name, const char *value)
{
    out_fmt(o, "      <property name=\"%s\" value=\"", name);
    out_esc(o, value, ESC_XML_ATTR);
    out_str(o, "\"/>\n");
}

static void xml_testcase(rpt_t *o, const rf_check_frame_t *f, const char *scene)
{
    char nbuf[32];
    out_str(o, "    <testcase classname=\"");
    xml_classname(o, scene);
    out_str(o, "\" name=\"");
    out_esc(o, frame_name(f, nbuf), ESC_XML_ATTR);
    out_fmt(o, " t=%g\" time=\"", f->t);
    out_seconds(o, f->seconds);
    out_str(o, "\"");

    outcome_t oc = frame_outcome(f);
    const char *msg = FIXED(f->message)[0] != '\0' ? f->message : status_name(f->status);
    if (oc == OUT_PASS && !f->updated) {
        out_str(o, "/>\n");
        return;
    }
    out_str(o, ">\n");
    if (oc != OUT_PASS) {
        const char *el = oc == OUT_FAILURE ? "failure" : "error";
        out_fmt(o, "      <%s message=\"", el);
        out_esc(o, msg, ESC_XML_ATTR);
        out_str(o, "\" type=\"");
        out_esc(o, status_name(f->status), ESC_XML_ATTR);
        out_str(o, "\">");
        out_esc(o, msg, ESC_XML_TEXT);
        out_str(o, "\n");
        if (f->trace != NULL)
            out_esc(o, f->trace, ESC_XML_TEXT);
        if (FIXED(f->diff_path)[0] != '\0') {
            out_str(o, "diff image: ");
            out_esc(o, f->diff_path, ESC_XML_TEXT);
            out_str(o, "\n");
        }
        out_fmt(o, "</%s>\n", el);
    } else {
        out_str(o, "      <system-out>golden updated: wrote ");
        out_esc(o, FIXED(f->golden_path), ESC_XML_TEXT);
        out_str(o, "\nbefore the update: ");
        out_esc(o, msg, ESC_XML_TEXT);
        out_str(o, "\n");
        if (f->trace != NULL)
            out_esc(o, f->trace, ESC_XML_TEXT);
        out_str(o, "</system-out>\n");
    }
    out_str(o, "    </testcase>\n");
}

static void write_junit(rpt_t *o)
{
    const rf_check_run_t *run = o->run;
    const char *scene = scene_of(run);
    size_t failures = 0, errors = 0;
    for (size_t i = 0; i < run->nframes; i++) {
        outcome_t oc = frame_outcome(&run->frames[i]);
        failures += oc == OUT_FAILURE;
        errors += oc == OUT_ERROR;
    }

    out_str(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out_fmt(o, "<testsuites name=\"runeframe check\" tests=\"%zu\" failures=\"%zu\" "
               "errors=\"%zu\" time=\"", run->nframes, failures, errors);
    out_seconds(o, run->seconds);
    out_str(o, "\">\n  <testsuite name=\"");
    out_esc(o, scene, ESC_XML_ATTR);
    out_fmt(o, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" time=\"",
            run->nframes, failures, errors);
    out_seconds(o, run->seconds);
    out_str(o, "\"");
    if (timestamp_ok(FIXED(run->timestamp)))
        out_fmt(o, " timestamp=\"%s\"", run->timestamp);
    char host[256];
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        if (host[0] != '\0') {
            out_str(o, " hostname=\"");
            out_esc(o, host, ESC_XML_ATTR);
            out_str(o, "\"");
        }
    }
    out_str(o, ">\n    <properties>\n");
    char nb[RF_NUM_BUF], ib[32];
    xml_property(o, "golden", run->golden_dir != NULL ? run->golden_dir : "");
    xml_property(o, "threshold", rf_num_short(nb, run->diff.threshold));
    xml_property(o, "aa", run->diff.include_aa ? "false" : "true");
    snprintf(ib, sizeof ib, "%" PRIu64, run->max_diff_pixels);
    xml_property(o, "max-diff-pixels", ib);
    xml_property(o, "max-diff-ratio", rf_num_short(nb, run->max_diff_ratio));
    xml_property(o, "update", run->update ? "true" : "false");
    out_str(o, "    </properties>\n");
    for (size_t i = 0; i < run->nframes; i++)
        xml_testcase(o, &run->frames[i], scene);
    out_str(o, "  </testsuite>\n</testsuites>\n");
}

/* ------------------------------------------------------------ JSON */

static void out_json_num(rpt_t *o, double x)
{
    char nb[RF_NUM_BUF];
    out_str(o, rf_num_json(nb, x));
}

/* %.17g, so a frame's time reads back as exactly its double. */
static void out_json_exact(rpt_t *o, double x)
{
    if (!isfinite(x)) {
        out_str(o, "null");
        return;
    }
    char nb[RF_NUM_BUF];
    out_str(o, rf_num_exact(nb, x));
}

static void out_json_bool(rpt_t *o, int b)
{
    out_str(o, b ? "true" : "false");
}

/* The trace's lines as a JSON array (no line ends). */
static void json_trace(rpt_t *o, const char *trace)
{
    out_str(o, "[");
    int first = 1;
    const char *p = trace;
    while (p != NULL && *p != '\0') {
        const char *nl = strchr(p, '\n');
        size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);
        out_str(o, first ? "" : ", ");
        out_str(o, "\"");
        out_esc_n(o, p, n, ESC_JSON);
        out_str(o, "\"");
        first = 0;
        p = nl != NULL ? nl + 1 : p + n;
    }
    out_str(o, "]");
}

static void json_frame(rpt_t *o, const rf_check_frame_t *f)
{
    char nbuf[32];
    out_fmt(o, "    {\"frame\": %ld, \"time\": ", f->index);
    out_json_exact(o, f->t);
    out_str(o, ", \"name\": ");
    out_json_str(o, frame_name(f, nbuf));
    out_str(o, ", \"status\": ");
    out_json_str(o, status_name(f->status));
    out_str(o, ", \"updated\": ");
    out_json_bool(o, f->updated);
    out_str(o, ",\n     ");
    const rf_diff_result_t *d = &f->diff;
    if (frame_compared(f)) {
        out_fmt(o, "\"different_pixels\": %" PRIu64 ", \"antialiased_pixels\": %" PRIu64
                   ", \"pixels\": %" PRIu64 ", \"ratio\": ",
                d->different, d->antialiased, d->pixels);
        if (d->pixels > 0)
            out_json_num(o, (double)d->different / (double)d->pixels);
        else
            out_str(o, "null");
    } else {
        out_str(o, "\"different_pixels\": null, \"antialiased_pixels\": null, "
                   "\"pixels\": null, \"ratio\": null");
    }
    out_str(o, ", \"bbox\": ");
    if (frame_compared(f) && d->different > 0)
        out_fmt(o, "[%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 "]", d->x0, d->y0,
                d->x1, d->y1);
    else
        out_str(o, "null");
    out_str(o, ", \"golden_size\": ");
    if (f->golden_width > 0 && f->golden_height > 0)
        out_fmt(o, "[%" PRIu32 ", %" PRIu32 "]", f->golden_width, f->golden_height);
    else
        out_str(o, "null");
    out_str(o, ",\n     \"message\": ");
    out_json_str(o, FIXED(f->message));
    out_str(o, ",\n     \"trace\": ");
    json_trace(o, f->trace);
    out_str(o, ",\n     \"golden\": ");
    out_json_path(o, FIXED(f->golden_path));
    out_str(o, ", \"diff\": ");
    out_json_path(o, FIXED(f->diff_path));
    out_str(o, ", \"seconds\": ");
    out_json_num(o, f->seconds);
    out_str(o, "}");
}

static void write_json(rpt_t *o)
{
    const rf_check_run_t *run = o->run;
    out_str(o, "{\n  \"scene\": ");
    out_json_str(o, run->scene_path);
    out_str(o, ",\n  \"golden\": ");
    out_json_str(o, run->golden_dir);
    out_fmt(o, ",\n  \"width\": %" PRIu32 ", \"height\": %" PRIu32, run->width, run->height);
    out_str(o, ",\n  \"options\": {\"threshold\": ");
    out_json_num(o, run->diff.threshold);
    out_str(o, ", \"aa\": ");
    out_json_bool(o, !run->diff.include_aa);
    out_str(o, ", \"alpha\": ");
    out_json_num(o, run->diff.alpha);
    out_fmt(o, ", \"max_diff_pixels\": %" PRIu64 ", \"max_diff_ratio\": ",
            run->max_diff_pixels);
    out_json_num(o, run->max_diff_ratio);
    out_str(o, ", \"update\": ");
    out_json_bool(o, run->update);
    out_fmt(o, "},\n  \"passed\": %zu, \"failed\": %zu, \"updated\": %zu, \"io_errors\": %d"
               ", \"trace_written\": ",
            run->passed, run->failed, run->updated, run->io_errors);
    out_json_bool(o, run->trace_written);
    out_str(o, ",\n  \"seconds\": ");
    out_json_num(o, run->seconds);
    out_str(o, ", \"timestamp\": ");
    out_json_str(o, FIXED(run->timestamp));
    out_str(o, ",\n  \"frames\": [");
    for (size_t i = 0; i < run->nframes; i++) {
        out_str(o, i == 0 ? "\n" : ",\n");
        json_frame(o, &run->frames[i]);
    }
    out_str(o, run->nframes > 0 ? "\n  ]\n}\n" : "]\n}\n");
}

/* ------------------------------------------------------------ HTML */

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

static void out_base64(rpt_t *o, const uint8_t *p, size_t n)
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
            out_bytes(o, buf, k);
            k = 0;
        }
    }
    out_bytes(o, buf, k);
}

/* Whether n more bytes of images fit in the page's budget. Once an image
 * does not fit, none does any more (sticky), so every later frame is
 * listed the same way, by paths. */
static int html_budget_fits(rpt_t *o, size_t n)
{
    if (o->over || n > o->embed_max - o->embedded) {
        o->over = 1;
        return 0;
    }
    return 1;
}

static int html_budget_take(rpt_t *o, size_t n)
{
    if (!html_budget_fits(o, n))
        return 0;
    o->embedded += n;
    return 1;
}

static void html_img(rpt_t *o, const uint8_t *data, size_t len, const char *alt,
                     const char *fname, uint32_t w, uint32_t h)
{
    out_str(o, "<img alt=\"");
    out_esc(o, alt, ESC_HTML);
    out_str(o, " ");
    out_esc(o, fname, ESC_HTML);
    out_str(o, "\"");
    if (w > 0 && h > 0)
        out_fmt(o, " width=\"%" PRIu32 "\" height=\"%" PRIu32 "\"", w, h);
    out_str(o, " src=\"data:image/png;base64,");
    out_base64(o, data, len);
    out_str(o, "\">");
}

/* A figure without an image: why, and the file when there is one. */
static void html_noimg(rpt_t *o, const char *caption, const char *why, const char *path)
{
    out_str(o, "<figure><div class=\"noimg\">");
    out_esc(o, why, ESC_HTML);
    if (path != NULL && path[0] != '\0') {
        out_str(o, "<br><code>");
        out_esc(o, path, ESC_HTML);
        out_str(o, "</code>");
    }
    out_str(o, "</div><figcaption>");
    out_esc(o, caption, ESC_HTML);
    out_str(o, "</figcaption></figure>\n");
}

static void html_limit_why(rpt_t *o, char *why, size_t n)
{
    snprintf(why, n, "not embedded: the page's image limit (%zu bytes) is reached",
             o->embed_max);
}

static void html_buffer_figure(rpt_t *o, const rf_png_buffer_t *b, const char *caption,
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
    out_str(o, "<figure>");
    html_img(o, b->data, b->len, alt, fname, w, h);
    out_str(o, "<figcaption>");
    out_esc(o, caption, ESC_HTML);
    if (path != NULL && path[0] != '\0') {
        out_str(o, " <code>");
        out_esc(o, path, ESC_HTML);
        out_str(o, "</code>");
    }
    out_str(o, "</figcaption></figure>\n");
}

/* The expected image: the golden file's own bytes, when it is a regular
 * PNG file of at most RPT_GOLDEN_MAX bytes. */
static void html_golden_figure(rpt_t *o, const rf_check_frame_t *f, const char *fname)
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
    out_str(o, "<figure>");
    html_img(o, data, len, "expected (golden)", fname, w, h);
    free(data);
    out_str(o, "<figcaption>");
    out_esc(o, caption, ESC_HTML);
    out_str(o, " <code>");
    out_esc(o, path, ESC_HTML);
    out_str(o, "</code></figcaption></figure>\n");
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

static void html_frame(rpt_t *o, const rf_check_frame_t *f, size_t pos)
{
    const rf_check_run_t *run = o->run;
    char nbuf[32];
    const char *fname = frame_name(f, nbuf);
    outcome_t oc = frame_outcome(f);
    out_fmt(o, "<section class=\"frame\" id=\"f%zu\">\n<h2>", pos);
    out_esc(o, fname, ESC_HTML);
    out_fmt(o, " &middot; t=%g &middot; <span class=\"%s\">", f->t,
            f->updated ? "upd" : oc == OUT_PASS ? "good" : "bad");
    out_esc(o, status_name(f->status), ESC_HTML);
    if (f->updated)
        out_str(o, ", golden updated");
    out_str(o, "</span></h2>\n");
    if (FIXED(f->message)[0] != '\0') {
        out_str(o, "<p class=\"message\">");
        out_esc(o, f->message, ESC_HTML);
        out_str(o, "</p>\n");
    }
    if (f->trace != NULL && f->trace[0] != '\0') {
        out_str(o, "<pre class=\"trace\">");
        out_esc(o, f->trace, ESC_HTML);
        out_str(o, "</pre>\n");
    }
    out_fmt(o, "<input type=\"checkbox\" class=\"zoom\" id=\"z%zu\"><label for=\"z%zu\">"
               "actual size</label>\n<div class=\"images\">\n", pos, pos);
    html_golden_figure(o, f, fname);
    html_buffer_figure(o, &f->actual_png, "actual (render)", "actual (render)", fname,
                       html_actual_missing(f), NULL, run->width, run->height);
    html_buffer_figure(o, &f->diff_png, "diff", "diff", fname, html_diff_missing(f),
                       FIXED(f->diff_path), run->width, run->height);
    out_str(o, "</div>\n</section>\n");
}

static void html_meta(rpt_t *o, const char *term, const char *value)
{
    out_str(o, "<dt>");
    out_str(o, term);
    out_str(o, "</dt><dd>");
    out_esc(o, value, ESC_HTML);
    out_str(o, "</dd>\n");
}

static void write_html(rpt_t *o)
{
    const rf_check_run_t *run = o->run;
    const char *scene = scene_of(run);
    char nb[RF_NUM_BUF], buf[96];

    out_str(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>runeframe check: ");
    out_esc(o, scene, ESC_HTML);
    out_str(o, "</title>\n<style>\n");
    out_str(o, HTML_STYLE);
    out_str(o, "</style>\n</head>\n<body>\n<h1>runeframe check: ");
    out_esc(o, scene, ESC_HTML);
    out_str(o, "</h1>\n");
    /* one run of text, as the CLI's summary line reads */
    out_fmt(o, "<p class=\"summary %s\">%zu passed, %zu failed", run->failed > 0 ? "bad" : "good",
            run->passed, run->failed);
    if (run->update || run->updated > 0)
        out_fmt(o, ", %zu updated", run->updated);
    out_str(o, "</p>\n<dl class=\"meta\">\n");
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
    out_str(o, "</dl>\n");

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
        out_str(o, "<h2>Frames that failed or were updated</h2>\n<ul class=\"index\">\n");
        for (size_t i = 0; i < run->nframes; i++) {
            const rf_check_frame_t *f = &run->frames[i];
            if (f->status == RF_CHECK_PASS && !f->updated)
                continue;
            char nbuf[32];
            out_fmt(o, "<li><a href=\"#f%zu\">", i);
            out_esc(o, frame_name(f, nbuf), ESC_HTML);
            out_str(o, "</a> ");
            out_esc(o, status_name(f->status), ESC_HTML);
            out_str(o, f->updated ? " (updated)</li>\n" : "</li>\n");
        }
        out_str(o, "</ul>\n");
        for (size_t i = 0; i < run->nframes; i++) {
            const rf_check_frame_t *f = &run->frames[i];
            if (f->status != RF_CHECK_PASS || f->updated)
                html_frame(o, f, i);
        }
    }
    if (o->over)
        out_fmt(o, "<p class=\"notice\">The page embeds at most %zu bytes of images; "
                   "the images past that limit are listed by their paths.</p>\n",
                o->embed_max);

    out_fmt(o, "<h2>Passing frames (%zu)</h2>\n", passing);
    if (passing > 0) {
        out_str(o, "<table>\n<thead><tr><th>frame</th><th>time</th><th>different pixels</th>"
                   "<th>seconds</th></tr></thead>\n<tbody>\n");
        for (size_t i = 0; i < run->nframes; i++) {
            const rf_check_frame_t *f = &run->frames[i];
            if (f->status != RF_CHECK_PASS || f->updated)
                continue;
            char nbuf[32];
            out_fmt(o, "<tr id=\"f%zu\"><td>", i);
            out_esc(o, frame_name(f, nbuf), ESC_HTML);
            out_fmt(o, "</td><td class=\"n\">%g</td><td class=\"n\">%" PRIu64 " / %" PRIu64
                       "</td><td class=\"n\">",
                    f->t, f->diff.different, f->diff.pixels);
            out_seconds(o, f->seconds);
            out_str(o, "</td></tr>\n");
        }
        out_str(o, "</tbody>\n</table>\n");
    } else {
        out_str(o, "<p>None.</p>\n");
    }
    out_str(o, "</body>\n</html>\n");
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
    rpt_t o = { .fp = af.fp, .run = run, .embed_max = embed_max };
    switch (kind) {
    case RF_REPORT_JUNIT: write_junit(&o); break;
    case RF_REPORT_JSON: write_json(&o); break;
    default: write_html(&o); break;
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
