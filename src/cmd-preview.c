/* cmd-preview.c - `runeframe preview SCENE [--port N] [--scale S]`: the
 * live preview server (preview.h) on 127.0.0.1 until Ctrl-C. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmd.h"
#include "diag.h"
#include "preview.h"

/* The option ids, in the order of .opts below. */
enum { OPT_PORT, OPT_SCALE, OPT_JOBS, OPT_ASSETS, OPT_REDUCED_MOTION };

typedef struct preview_opts {
    long port;                  /* -1: 8080 or the next free one */
    double scale;
    long jobs;                  /* 0: the online CPUs, at most 4 */
} preview_opts_t;

static const preview_opts_t preview_defaults = { .port = -1, .scale = 1 };

static volatile sig_atomic_t preview_stop;

static void preview_signal(int sig)
{
    (void)sig;
    preview_stop = 1;
}

static int preview_option(void *state, int id, const char *arg)
{
    preview_opts_t *o = state;

    switch (id) {
    case OPT_PORT:
        if (rf_cmd_parse_long(arg, &o->port) != 0 || o->port > 65535)
            return rf_cmd_usage_error(&rf_cmd_preview,
                                      "--port must be a port number 0..65535, got '%s'", arg);
        return 0;
    case OPT_SCALE:
        return rf_cmd_parse_scale(&rf_cmd_preview, arg, &o->scale);
    case OPT_JOBS:
        return rf_cmd_parse_jobs(&rf_cmd_preview, arg, &o->jobs);
    case OPT_ASSETS: {
        struct stat st;
        if (stat(arg, &st) != 0)
            return rf_cmd_usage_error(&rf_cmd_preview, "--assets '%s': %s", arg,
                                      strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return rf_cmd_usage_error(&rf_cmd_preview, "--assets '%s': not a folder", arg);
        return 0;
    }
    default:
        return 0;
    }
}

/* The scene is loaded by the server (it reloads it), not by the framework. */
static int preview_exec(void *state, const rf_cmd_args_t *args)
{
    const preview_opts_t *o = state;
    int workers = rf_cmd_jobs(o->jobs);
    const char *poll = getenv("RUNEFRAME_PREVIEW_POLL");
    struct sigaction sa;
    rf_preview_opts_t po = {
        .scene = args->operands[0],
        .assets = args->opt[OPT_ASSETS],
        .reduced_motion = args->opt[OPT_REDUCED_MOTION] != NULL,
        .scale = o->scale,
        .port = o->port,
        .workers = workers < RF_PREVIEW_MAX_WORKERS ? workers : RF_PREVIEW_MAX_WORKERS,
        .poll_only = poll != NULL && strcmp(poll, "1") == 0,
        .out = stdout,
        .stop = &preview_stop,
    };

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = preview_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return rf_preview_run(&po);
}

const rf_cmd_t rf_cmd_preview = {
    .summary = "serve a live preview of a scene in the browser (127.0.0.1)",
    .help =
        "Serves a page on http://127.0.0.1:PORT/ (only this machine can reach it)\n"
        "with the frame at any time, a scrubber with the settle times marked,\n"
        "play/pause at the scene's fps and every value at that time. When the\n"
        "scene file or one of its assets changes, the page shows the new scene\n"
        "within a second; an invalid scene shows its errors over the last good\n"
        "frame. GET /frame.png?t=T (or ?frame=N) returns exactly the bytes of\n"
        "'seek --time T' ('seek --frame N'). Runs until Ctrl-C.\n"
        "\n"
        "Options:\n"
        "  --port N     the port (0: any free one); default 8080 or the next free one\n"
        "  --scale S    a draft, as seek's (0 < S <= 1)\n"
        "  --jobs N     frames rendered at once (default the CPUs, at most 4)\n"
        "  --assets DIR also read fonts and images from DIR\n"
        "  --reduced-motion\n"
        "               the scene as its reduced_motion policy resolves it, as\n"
        "               seek --reduced-motion (and its frames are that seek's)\n",
    .usage = "SCENE [--port N] [--scale S] [--jobs N] [--assets DIR] [--reduced-motion]",
    .name = "preview", .opts = "port: scale: jobs: assets: reduced-motion",
    .operands = { "SCENE" }, .min_operands = 1, .max_operands = 1,
    .state_size = sizeof(preview_opts_t), .defaults = &preview_defaults,
    .option = preview_option, .exec = preview_exec,
};
