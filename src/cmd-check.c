/* cmd-check.c - `runeframe check SCENE --golden DIR ...`: golden-image
 * regression for CI (check.h does the work; this file is the command
 * line, the per-frame lines and the report). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cmd.h"
#include "cmd-diffopt.h"
#include "diag.h"
#include "frames.h"
#include "report.h"
#include "scene.h"

/* --report may be given once per format, and then some. */
#define RF_CHECK_MAX_REPORTS 8

/* The option ids, in the order of .opts below. */
enum { OPT_GOLDEN, OPT_DIFF_DIR, OPT_UPDATE, OPT_REPORT, OPT_JOBS, OPT_QUIET };

/* --golden, --diff-dir, --update and --quiet are read from the arguments. */
typedef struct check_cli {
    const char *reports[RF_CHECK_MAX_REPORTS];
    int nreports;
    long jobs;              /* 0: online CPUs */
    rf_cmd_diff_opts_t d;
} check_cli_t;

static int check_option(void *state, int id, const char *arg)
{
    check_cli_t *o = state;

    switch (id) {
    case OPT_REPORT:
        if (rf_report_kind_of(arg) < 0)
            return rf_cmd_usage_error(&rf_cmd_check,
                                      "--report must name a .xml (JUnit), .json or .html "
                                      "file, got '%s'", arg);
        if (o->nreports == RF_CHECK_MAX_REPORTS)
            return rf_cmd_usage_error(&rf_cmd_check, "at most %d --report options",
                                      RF_CHECK_MAX_REPORTS);
        o->reports[o->nreports++] = arg;
        return 0;
    case OPT_JOBS:
        return rf_cmd_parse_jobs(&rf_cmd_check, arg, &o->jobs);
    default: /* the differ's; --golden, --diff-dir, --update, --quiet: args */
        return id >= RF_CMD_MORE ? rf_cmd_diff_opt(&rf_cmd_check, id, arg, &o->d) : 0;
    }
}

static int check_check(void *state, const rf_cmd_args_t *args)
{
    check_cli_t *o = state;
    const char *golden = args->opt[OPT_GOLDEN], *diff_dir = args->opt[OPT_DIFF_DIR];
    struct stat gst;

    rf_cmd_diff_opts_finish(&o->d);
    if (golden == NULL)
        return rf_cmd_usage_error(&rf_cmd_check, "missing --golden DIR");
    if (golden[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_check, "--golden needs a folder name, got ''");
    /* a file given as the folder: not "missing golden FILE/frame-00000.png" */
    if (stat(golden, &gst) == 0 && !S_ISDIR(gst.st_mode))
        return rf_cmd_usage_error(&rf_cmd_check, "--golden '%s' is not a folder", golden);
    if (diff_dir != NULL && diff_dir[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_check, "--diff-dir needs a folder name, got ''");
    return 0;
}

typedef struct check_print {
    int quiet;
    int progress;           /* 1: a progress line on stderr (a terminal) */
    int shown;              /* the length of the progress line showing */
    size_t failed;
} check_print_t;

/* Erases the progress line, if one shows, so that a frame line or the
 * summary starts at the beginning of an empty line. */
static void check_progress_erase(check_print_t *p)
{
    if (p->shown > 0) {
        fprintf(stderr, "\r%*s\r", p->shown, "");
        fflush(stderr);
        p->shown = 0;
    }
}

/* One line per frame, then the trace's lines indented under it; on a
 * terminal, "check 12/90  1 failed" below them until the run ends. */
static void check_print_frame(void *ctx, const rf_check_frame_t *f, size_t done, size_t total)
{
    check_print_t *p = ctx;
    const char *verdict;

    if (f->status != RF_CHECK_PASS && !f->updated)
        p->failed++;
    if (!p->quiet || f->status != RF_CHECK_PASS || f->write_failed) {
        check_progress_erase(p);
        if (f->status == RF_CHECK_PASS)
            verdict = "ok";
        else if (f->updated)
            verdict = "updated";
        else
            verdict = "FAIL";
        printf("%s t=%.6g: %s", f->name, f->t, verdict);
        if (f->message[0] != '\0')
            printf(f->status == RF_CHECK_PASS || f->updated ? " (%s)" : ": %s", f->message);
        putchar('\n');
        for (const char *l = f->trace; l != NULL && *l != '\0';) {
            size_t n = strcspn(l, "\n");
            printf("  %.*s\n", (int)n, l);
            l += n + (l[n] == '\n');
        }
        if (f->diff_path[0] != '\0')
            printf("  diff image: %s\n", f->diff_path);
        fflush(stdout);
    }
    if (p->progress && done < total) {
        int n = fprintf(stderr, "\rcheck %zu/%zu", done, total);
        if (p->failed > 0)
            n += fprintf(stderr, "  %zu failed", p->failed);
        fflush(stderr);
        p->shown = n > 1 ? n - 1 : 0;
    }
    if (done == total)
        check_progress_erase(p);
}

/* A golden, diff image or trace.csv that could not be written is an I/O
 * error (exit status 3), said on stderr in one line: the first failure
 * (its path and reason) and how many there were; the frame lines on stdout
 * say which. A warning of the run (an unreadable trace) is printed as one. */
static void check_print_write_failures(const rf_check_run_t *run)
{
    const char *first = NULL;
    size_t count = run->trace_error[0] != '\0';

    for (size_t i = 0; i < run->nframes; i++) {
        if (run->frames[i].write_failed) {
            if (first == NULL)
                first = run->frames[i].write_error;
            count++;
        }
    }
    if (first == NULL && count > 0)
        first = run->trace_error;
    if (count > 1)
        fprintf(stderr, "runeframe: check: %zu files not written: %s\n", count, first);
    else if (count == 1)
        fprintf(stderr, "runeframe: check: %s\n", first);
    if (run->warning[0] != '\0')
        fprintf(stderr, "runeframe: check: warning: %s\n", run->warning);
}

static int check_exec(void *state, const rf_cmd_args_t *args)
{
    const check_cli_t *o = state;
    const char *golden = args->opt[OPT_GOLDEN];
    int update = args->opt[OPT_UPDATE] != NULL;
    rf_check_options_t co;
    rf_check_run_t run;
    check_print_t pr;
    char err[1024];
    int status, exit_status;

    memset(&co, 0, sizeof co);
    co.golden_dir = golden;
    co.diff_dir = args->opt[OPT_DIFF_DIR];
    co.update = update;
    co.jobs = rf_cmd_jobs(o->jobs);
    co.diff = o->d.diff;
    co.max_diff_pixels = o->d.max_pixels;
    co.max_diff_ratio = o->d.max_ratio;
    for (int i = 0; i < o->nreports; i++)
        if (rf_report_kind_of(o->reports[i]) == RF_REPORT_HTML)
            co.keep_images = 1;
    memset(&pr, 0, sizeof pr);
    pr.quiet = args->opt[OPT_QUIET] != NULL;
    pr.progress = !pr.quiet && isatty(STDERR_FILENO);
    co.on_frame = check_print_frame;
    co.ctx = &pr;

    if (rf_check_execute(args->scene, args->operands[0], &co, &run, &exit_status, err,
                         sizeof err) != 0) {
        check_progress_erase(&pr);
        fprintf(stderr, "runeframe: check: %s\n", err);
        status = exit_status;
        goto out;
    }
    check_print_write_failures(&run);
    if (run.trace_written) {
        size_t n = strlen(golden);
        while (n > 1 && golden[n - 1] == '/')
            n--;
        printf("wrote %.*s/trace.csv\n", (int)n, golden);
    }
    if (run.scene_written) {
        size_t n = strlen(golden);
        while (n > 1 && golden[n - 1] == '/')
            n--;
        printf("wrote %.*s/scene.json\n", (int)n, golden);
    }
    printf("%zu passed, %zu failed", run.passed, run.failed);
    if (update)
        printf(", %zu updated", run.updated);
    putchar('\n');
    fflush(stdout);
    /* a bad scene first: it is what to fix, whatever else failed */
    status = run.scene_errors > 0 ? RF_EXIT_USAGE
             : run.io_errors > 0  ? RF_EXIT_IO
             : run.failed > 0     ? RF_EXIT_DIFF
                                  : RF_EXIT_OK;
    for (int i = 0; i < o->nreports; i++) {
        if (rf_report_write(&run, o->reports[i], err, sizeof err) != 0) {
            fprintf(stderr, "runeframe: check: %s\n", err);
            status = RF_EXIT_IO;
        }
    }
out:
    rf_check_run_destroy(&run);
    return status;
}

static const check_cli_t check_defaults = { .d = RF_CMD_DIFF_OPTS_DEFAULT };

const rf_cmd_t rf_cmd_check = {
    .summary = "compare rendered frames with golden PNGs (CI regression)",
    .help =
        "Renders the scene's \"checks\" frames (without them: every frame that has a\n"
        "golden DIR/frame-NNNNN.png) and compares each with its golden using\n"
        "pixelmatch 7.2's measure. Prints one line per frame, the moved values of a\n"
        "failing frame when DIR/trace.csv exists, and 'N passed, N failed'.\n"
        "Exit status 0 when every frame passes, 1 when one fails (differs, has no\n"
        "golden, has another size), 2 for a usage error or an invalid scene, 3 when\n"
        "a golden cannot be read as a PNG or a file cannot be written.\n"
        "\n"
        "Options:\n"
        "  --golden DIR       the goldens (required)\n"
        "  --update           write the missing and failing goldens (and\n"
        "                     DIR/trace.csv); passing goldens are not touched\n"
        "  --diff-dir DIR     write DIR/frame-NNNNN.diff.png for each failing frame\n"
        "  --report FILE      FILE.xml (JUnit), FILE.json or FILE.html (expected,\n"
        "                     actual and diff images side by side, self-contained);\n"
        "                     may be given more than once\n"
        "  --jobs N           N worker threads (default: online CPUs)\n"
        "  --quiet            print only failing frames and the summary (and no\n"
        "                     progress line: one shows on stderr when it is a\n"
        "                     terminal)\n"
        RF_CMD_DIFF_HELP,
    .usage = "SCENE --golden DIR [--threshold X] [--max-diff-pixels N]\n"
             "                      [--max-diff-ratio R] [--aa] [--diff-dir DIR] [--update]\n"
             "                      [--report FILE] [--jobs N] [--quiet]",
    .name = "check", .opts = "golden: diff-dir: update report: jobs: quiet",
    .more = rf_cmd_diff_options, /* cmd-diffopt.h */
    RF_CMD_ONE_SCENE, .warns = 1, .reduced_motion = 1, .state_size = sizeof(check_cli_t), .defaults = &check_defaults,
    .option = check_option, .check = check_check, .exec = check_exec,
};
