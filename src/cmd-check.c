/* cmd-check.c - `runeframe check SCENE --golden DIR ...`: golden-image
 * regression for CI (check.h does the work; this file is the command
 * line, the per-frame lines and the report). */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cmd.h"
#include "diag.h"
#include "frames.h"
#include "report.h"
#include "scene.h"

/* --report may be given once per format, and then some. */
#define RF_CHECK_MAX_REPORTS 8

enum { OPT_HELP = 256, OPT_GOLDEN, OPT_DIFF_DIR, OPT_UPDATE, OPT_REPORT, OPT_JOBS, OPT_QUIET };

static const struct option check_options[] = {
    { "golden", required_argument, NULL, OPT_GOLDEN },
    { "diff-dir", required_argument, NULL, OPT_DIFF_DIR },
    { "update", no_argument, NULL, OPT_UPDATE },
    { "report", required_argument, NULL, OPT_REPORT },
    { "jobs", required_argument, NULL, OPT_JOBS },
    { "quiet", no_argument, NULL, OPT_QUIET },
    RF_CMD_DIFF_LONG_OPTIONS,
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

typedef struct check_cli {
    const char *golden;
    const char *diff_dir;
    const char *reports[RF_CHECK_MAX_REPORTS];
    int nreports;
    int update;
    long jobs;              /* 0: online CPUs */
    int quiet;
    rf_cmd_diff_opts_t d;
} check_cli_t;

static int check_parse_args(int argc, char **argv, check_cli_t *o)
{
    int c, st;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", check_options, NULL)) != -1) {
        switch (c) {
        case OPT_GOLDEN:
            o->golden = optarg;
            break;
        case OPT_DIFF_DIR:
            o->diff_dir = optarg;
            break;
        case OPT_UPDATE:
            o->update = 1;
            break;
        case OPT_REPORT:
            if (rf_report_kind_of(optarg) < 0)
                return rf_cmd_usage_error(&rf_cmd_check,
                                          "--report must name a .xml (JUnit), .json or .html "
                                          "file, got '%s'", optarg);
            if (o->nreports == RF_CHECK_MAX_REPORTS)
                return rf_cmd_usage_error(&rf_cmd_check, "at most %d --report options",
                                          RF_CHECK_MAX_REPORTS);
            o->reports[o->nreports++] = optarg;
            break;
        case OPT_JOBS:
            if (rf_cmd_parse_long(optarg, &o->jobs) != 0 || o->jobs < 1 ||
                o->jobs > RF_FRAMES_MAX_JOBS)
                return rf_cmd_usage_error(&rf_cmd_check,
                                          "--jobs must be an integer from 1 to %d, got '%s'",
                                          RF_FRAMES_MAX_JOBS, optarg);
            break;
        case OPT_QUIET:
            o->quiet = 1;
            break;
        case OPT_HELP:
            rf_cmd_print_help(&rf_cmd_check, stdout);
            return RF_EXIT_OK;
        default:
            st = rf_cmd_diff_opt(&rf_cmd_check, c, optarg, &o->d);
            if (st > 0)
                return st;
            if (st < 0)
                return rf_cmd_option_error(&rf_cmd_check, check_options, c, argv);
        }
    }
    rf_cmd_diff_opts_finish(&o->d);
    if (optind >= argc)
        return rf_cmd_usage_error(&rf_cmd_check, "missing SCENE");
    if (argc - optind > 1)
        return rf_cmd_usage_error(&rf_cmd_check, "unexpected argument '%s'", argv[optind + 1]);
    if (o->golden == NULL)
        return rf_cmd_usage_error(&rf_cmd_check, "missing --golden DIR");
    if (o->golden[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_check, "--golden needs a folder name, got ''");
    struct stat gst;
    /* a file given as the folder: not "missing golden FILE/frame-00000.png" */
    if (stat(o->golden, &gst) == 0 && !S_ISDIR(gst.st_mode))
        return rf_cmd_usage_error(&rf_cmd_check, "--golden '%s' is not a folder", o->golden);
    if (o->diff_dir != NULL && o->diff_dir[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_check, "--diff-dir needs a folder name, got ''");
    return -1;
}

typedef struct check_print {
    int quiet;
} check_print_t;

/* One line per frame, then the trace's lines indented under it. */
static void check_print_frame(void *ctx, const rf_check_frame_t *f)
{
    const check_print_t *p = ctx;
    const char *verdict;

    if (p->quiet && f->status == RF_CHECK_PASS && !f->write_failed)
        return;
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

static int check_exec(int argc, char **argv)
{
    check_cli_t o;
    rf_check_options_t co;
    rf_check_run_t run;
    check_print_t pr;
    rf_scene_t *scene;
    char err[1024];
    int status, exit_status;

    memset(&o, 0, sizeof o);
    rf_cmd_diff_opts_init(&o.d);
    status = check_parse_args(argc, argv, &o);
    if (status >= 0)
        return status;
    scene = rf_cmd_load_scene(argv[optind], &status);
    if (scene == NULL)
        return status;

    memset(&co, 0, sizeof co);
    co.golden_dir = o.golden;
    co.diff_dir = o.diff_dir;
    co.update = o.update;
    if (o.jobs > 0) {
        co.jobs = (int)o.jobs;
    } else {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        co.jobs = n < 1 ? 1 : n > RF_FRAMES_MAX_JOBS ? RF_FRAMES_MAX_JOBS : (int)n;
    }
    co.diff = o.d.diff;
    co.max_diff_pixels = o.d.max_pixels;
    co.max_diff_ratio = o.d.max_ratio;
    for (int i = 0; i < o.nreports; i++)
        if (rf_report_kind_of(o.reports[i]) == RF_REPORT_HTML)
            co.keep_images = 1;
    pr.quiet = o.quiet;
    co.on_frame = check_print_frame;
    co.ctx = &pr;

    if (rf_check_execute(scene, argv[optind], &co, &run, &exit_status, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: check: %s\n", err);
        status = exit_status;
        goto out;
    }
    check_print_write_failures(&run);
    if (run.trace_written) {
        size_t n = strlen(o.golden);
        while (n > 1 && o.golden[n - 1] == '/')
            n--;
        printf("wrote %.*s/trace.csv\n", (int)n, o.golden);
    }
    printf("%zu passed, %zu failed", run.passed, run.failed);
    if (o.update)
        printf(", %zu updated", run.updated);
    putchar('\n');
    fflush(stdout);
    status = run.io_errors > 0 ? RF_EXIT_IO : run.failed > 0 ? RF_EXIT_DIFF : RF_EXIT_OK;
    for (int i = 0; i < o.nreports; i++) {
        if (rf_report_write(&run, o.reports[i], err, sizeof err) != 0) {
            fprintf(stderr, "runeframe: check: %s\n", err);
            status = RF_EXIT_IO;
        }
    }
out:
    rf_check_run_destroy(&run);
    rf_scene_destroy(scene);
    return status;
}

const rf_cmd_t rf_cmd_check = {
    .name = "check",
    .usage = "SCENE --golden DIR [--threshold X] [--max-diff-pixels N]\n"
             "                      [--max-diff-ratio R] [--aa] [--diff-dir DIR] [--update]\n"
             "                      [--report FILE] [--jobs N] [--quiet]",
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
        "  --quiet            print only failing frames and the summary\n"
        RF_CMD_DIFF_HELP
        "  --help             print this help and exit\n",
    .exec = check_exec,
};
