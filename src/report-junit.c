/* report-junit.c - the JUnit XML report (report.h) as GitLab, Jenkins and
 * GitHub test reporters read it. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* gethostname */
#endif
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "numfmt.h"
#include "report-int.h"

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


/* The testcase classname: "runeframe." and the scene's file name without
 * its extension; its other dots become '_' because JUnit readers split
 * classnames into packages at dots. */
static void xml_classname(report_t *o, const char *scene)
{
    const char *base = strrchr(scene, '/');
    base = base != NULL ? base + 1 : scene;
    const char *dot = strrchr(base, '.');
    size_t n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
    report_str(o, "runeframe.");
    if (n == 0) {
        report_str(o, "scene");
        return;
    }
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (base[i] == '.') {
            report_esc_n(o, base + start, i - start, ESC_XML_ATTR);
            report_str(o, "_");
            start = i + 1;
        }
    }
    report_esc_n(o, base + start, n - start, ESC_XML_ATTR);
}

static void xml_property(report_t *o, const char *name, const char *value)
{
    report_fmt(o, "      <property name=\"%s\" value=\"", name);
    report_esc(o, value, ESC_XML_ATTR);
    report_str(o, "\"/>\n");
}

/* A frame's message as a line of XML text, then its trace lines. */
static void xml_message_trace(report_t *o, const char *msg, const char *trace)
{
    report_esc(o, msg, ESC_XML_TEXT);
    report_str(o, "\n");
    if (trace != NULL)
        report_esc(o, trace, ESC_XML_TEXT);
}

static void xml_testcase(report_t *o, const rf_check_frame_t *f, const char *scene)
{
    char nbuf[32];
    report_str(o, "    <testcase classname=\"");
    xml_classname(o, scene);
    report_str(o, "\" name=\"");
    report_esc(o, report_frame_name(f, nbuf), ESC_XML_ATTR);
    report_fmt(o, " t=%g\" time=\"", f->t);
    report_seconds(o, f->seconds);
    report_str(o, "\"");

    outcome_t oc = report_frame_outcome(f);
    const char *msg = FIXED(f->message)[0] != '\0' ? f->message : report_status_name(f->status);
    if (oc == OUT_PASS && !f->updated) {
        report_str(o, "/>\n");
        return;
    }
    report_str(o, ">\n");
    if (oc != OUT_PASS) {
        const char *el = oc == OUT_FAILURE ? "failure" : "error";
        report_fmt(o, "      <%s message=\"", el);
        report_esc(o, msg, ESC_XML_ATTR);
        report_str(o, "\" type=\"");
        report_esc(o, report_status_name(f->status), ESC_XML_ATTR);
        report_str(o, "\">");
        xml_message_trace(o, msg, f->trace);
        if (FIXED(f->diff_path)[0] != '\0') {
            report_str(o, "diff image: ");
            report_esc(o, f->diff_path, ESC_XML_TEXT);
            report_str(o, "\n");
        }
        report_fmt(o, "</%s>\n", el);
    } else {
        report_str(o, "      <system-out>golden updated: wrote ");
        report_esc(o, FIXED(f->golden_path), ESC_XML_TEXT);
        report_str(o, "\nbefore the update: ");
        xml_message_trace(o, msg, f->trace);
        report_str(o, "</system-out>\n");
    }
    report_str(o, "    </testcase>\n");
}

void report_write_junit(report_t *o)
{
    const rf_check_run_t *run = o->run;
    const char *scene = report_scene(run);
    size_t failures = 0, errors = 0;
    for (size_t i = 0; i < run->nframes; i++) {
        outcome_t oc = report_frame_outcome(&run->frames[i]);
        failures += oc == OUT_FAILURE;
        errors += oc == OUT_ERROR;
    }

    report_str(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    report_fmt(o, "<testsuites name=\"runeframe check\" tests=\"%zu\" failures=\"%zu\" "
               "errors=\"%zu\" time=\"", run->nframes, failures, errors);
    report_seconds(o, run->seconds);
    report_str(o, "\">\n  <testsuite name=\"");
    report_esc(o, scene, ESC_XML_ATTR);
    report_fmt(o, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" time=\"",
               run->nframes, failures, errors);
    report_seconds(o, run->seconds);
    report_str(o, "\"");
    if (timestamp_ok(FIXED(run->timestamp)))
        report_fmt(o, " timestamp=\"%s\"", run->timestamp);
    char host[256];
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        if (host[0] != '\0') {
            report_str(o, " hostname=\"");
            report_esc(o, host, ESC_XML_ATTR);
            report_str(o, "\"");
        }
    }
    report_str(o, ">\n    <properties>\n");
    char nb[RF_NUM_BUF], ib[32];
    xml_property(o, "golden", run->golden_dir != NULL ? run->golden_dir : "");
    xml_property(o, "threshold", rf_num_short(nb, run->diff.threshold));
    xml_property(o, "aa", run->diff.include_aa ? "false" : "true");
    snprintf(ib, sizeof ib, "%" PRIu64, run->max_diff_pixels);
    xml_property(o, "max-diff-pixels", ib);
    xml_property(o, "max-diff-ratio", rf_num_short(nb, run->max_diff_ratio));
    xml_property(o, "update", run->update ? "true" : "false");
    report_str(o, "    </properties>\n");
    for (size_t i = 0; i < run->nframes; i++)
        xml_testcase(o, &run->frames[i], scene);
    report_str(o, "  </testsuite>\n</testsuites>\n");
}
