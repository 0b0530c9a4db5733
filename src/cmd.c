/* cmd.c - the subcommand table and the command framework (cmd.h): each
 * declarative entry's option spec turned into getopt_long's table, the
 * parsing loop, help output, one-line usage errors, operand counts, scene
 * loading with error reporting, and the argument parsers commands share. */
#define _GNU_SOURCE 1 /* cpu_set_t (spawn.h) */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmd.h"
#include "diag.h"
#include "frames.h"
#include "lint.h"
#include "numfmt.h"
#include "pngio.h"
#include "render.h"
#include "scene.h"
#include "spawn.h"
#include "series.h"
#include "suggest.h"

/* In `runeframe --help` order. */
const rf_cmd_t *const rf_cmds[] = {
    &rf_cmd_render,
    &rf_cmd_seek,
    &rf_cmd_check,
    &rf_cmd_diff,
    &rf_cmd_info,
    &rf_cmd_sample,
    &rf_cmd_plot,
    &rf_cmd_validate,
    &rf_cmd_preview,
    &rf_cmd_schema,
    &rf_cmd_completion,
    NULL,
};

/* The column where the descriptions of help's option list start: the
 * first option line's ("  --time T           the time ..."), or 10 when
 * --help is the only option. */
static int cmd_help_column(const char *help)
{
    const char *p = strstr(help, "Options:\n"), *q;

    if (p == NULL || strncmp(p + 9, "  -", 3) != 0)
        return 10;
    p += 9;
    q = p + 2 + strcspn(p + 2, " \n");
    while (*q == ' ' && q[1] != ' ' && q[1] != '\n')     /* "-o FILE": the option's argument */
        q = q + 1 + strcspn(q + 1, " \n");
    while (*q == ' ')
        q++;
    return (int)(q - p);
}

void rf_cmd_print_help(const rf_cmd_t *cmd, FILE *out)
{
    fprintf(out, "usage: runeframe %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->summary);
    if (cmd->help == NULL)
        return;
    /* --help is every command's option: its line ends the option list */
    int col = cmd_help_column(cmd->help);
    fprintf(out, "\n%s", cmd->help);
    /* every command that loads a scene takes --assets (scene-v1.md "Assets") */
    if (cmd->loads_scene)
        fprintf(out, "  --assets DIR%*salso read fonts and images from DIR\n",
                col - 14 >= 2 ? col - 14 : 2, "");
    if (cmd->reduced_motion)
        fprintf(out, "  --reduced-motion%*sthe scene as its reduced_motion policy resolves it\n",
                col - 18 >= 2 ? col - 18 : 2, "");
    fprintf(out, "  --help%*sprint this help and exit\n", col - 8, "");
}

/* The getopt_long table of a command, built from its option specs: its
 * own options, the shared group, then --help. Each option's val is its
 * short name, or CMD_LONG + its place in the table. */
#define CMD_MAX_OPTS 48
#define CMD_LONG 256
#define CMD_HELP (-1)
#define CMD_ASSETS (-2)
#define CMD_REDUCED (-3)
_Static_assert(CMD_MAX_OPTS <= RF_CMD_MORE, "option ids must stay below RF_CMD_MAX_IDS");

typedef struct cmd_table {
    struct option lopts[CMD_MAX_OPTS + 1];
    int ids[CMD_MAX_OPTS];                      /* what option() gets; CMD_HELP */
    int has_arg[CMD_MAX_OPTS];
    char optstring[2 * CMD_MAX_OPTS + 2];
    char names[1024];                           /* the specs' words, split */
    size_t n, k, used;
} cmd_table_t;

/* Adds the options of spec ("o|output: json ..."), ids from base up. */
static void cmd_table_add(cmd_table_t *t, const char *spec, int base)
{
    int id = base;
    rf_cmd_spec_word_t w;

    for (const char *p = spec; rf_cmd_spec_next(&p, &w);) {
        char *word = t->names + t->used;
        struct option *lo = &t->lopts[t->n];

        if (t->n >= CMD_MAX_OPTS || t->used + w.len + 1 > sizeof t->names)
            abort();    /* a spec larger than the table: raise CMD_MAX_OPTS */
        memcpy(word, w.name, w.len);
        word[w.len] = '\0';
        t->used += w.len + 1;
        lo->name = word;
        lo->has_arg = w.arg ? required_argument : no_argument;
        lo->flag = NULL;
        lo->val = w.short_name != 0 ? w.short_name : CMD_LONG + (int)t->n;
        t->ids[t->n] = id++;
        t->has_arg[t->n] = w.arg;
        if (w.short_name != 0) {
            t->optstring[t->k++] = (char)w.short_name;
            if (w.arg)
                t->optstring[t->k++] = ':';
        }
        t->n++;
    }
}

int rf_cmd_spec_next(const char **p, rf_cmd_spec_word_t *w)
{
    const char *s = *p;

    if (s == NULL)
        return 0;
    while (*s == ' ')
        s++;
    if (*s == '\0') {
        *p = s;
        return 0;
    }
    size_t len = strcspn(s, " ");
    *p = s + len;
    w->short_name = 0;
    if (len > 2 && s[1] == '|') {
        w->short_name = (unsigned char)s[0];
        s += 2;
        len -= 2;
    }
    w->arg = s[len - 1] == ':';
    w->name = s;
    w->len = len - (size_t)w->arg;
    return 1;
}

static void cmd_table_build(const rf_cmd_t *cmd, cmd_table_t *t)
{
    t->n = t->used = 0;
    t->k = 0;
    /* ':' first: getopt_long reports a missing argument as ':', and
     * prints nothing (opterr is 0 too). */
    t->optstring[t->k++] = ':';
    cmd_table_add(t, cmd->opts, 0);
    cmd_table_add(t, cmd->more, RF_CMD_MORE);
    if (cmd->loads_scene)
        cmd_table_add(t, "assets:", CMD_ASSETS);
    if (cmd->reduced_motion)
        cmd_table_add(t, "reduced-motion", CMD_REDUCED);
    cmd_table_add(t, "help", CMD_HELP);
    memset(&t->lopts[t->n], 0, sizeof t->lopts[t->n]);
    t->optstring[t->k] = '\0';
}

/* The place in the table of the option getopt_long returned as c (its
 * val), or -1 for an error (':' or '?'). */
static int cmd_table_find(const cmd_table_t *t, int c)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->lopts[i].val == c)
            return (int)i;
    return -1;
}

/* getopt_long's own messages are not in the house format: report the
 * offending option (getopt_long returned c, ':' or '?') ourselves, as one
 * line, with a suggestion for a misspelt long option; returns 2. */
static int cmd_option_error(const rf_cmd_t *cmd, const struct option *opts, int c, char **argv)
{
    const char *names[CMD_MAX_OPTS];
    size_t n = 0, len;
    char word[64];
    const char *arg = argv[optind - 1];
    const char *guess;
    int is_long = arg[0] == '-' && arg[1] == '-';

    if (c == ':' && optopt > 0 && optopt < 256 && !is_long)
        return rf_cmd_usage_error(cmd, "option '-%c' needs an argument", optopt);
    for (const struct option *o = opts; o->name != NULL; o++) {
        if (c == ':' && o->val == optopt)
            return rf_cmd_usage_error(cmd, "option '--%s' needs an argument", o->name);
        if (c == '?' && o->val == optopt && is_long)
            return rf_cmd_usage_error(cmd, "option '--%s' takes no argument", o->name);
        if (n < sizeof names / sizeof names[0])
            names[n++] = o->name;
    }
    if (optopt > 0 && optopt < 256)
        return rf_cmd_usage_error(cmd, "unknown option '-%c'", optopt);
    while (*arg == '-')
        arg++;
    len = strcspn(arg, "=");
    if (len >= sizeof word)
        len = sizeof word - 1;
    memcpy(word, arg, len);
    word[len] = '\0';
    guess = rf_did_you_mean(word, names, n);
    if (guess != NULL)
        return rf_cmd_usage_error(cmd, "unknown option '--%s' (did you mean '--%s'?)", word, guess);
    return rf_cmd_usage_error(cmd, "unknown option '--%s'", word);
}

/* "missing SCENE", "missing B.png", "missing A.png and B.png". */
static int cmd_missing_operands(const rf_cmd_t *cmd, int given)
{
    char buf[256];
    size_t len = 0;

    for (int i = given; i < cmd->min_operands && i < RF_CMD_MAX_OPERANDS; i++)
        len += (size_t)snprintf(buf + len, len < sizeof buf ? sizeof buf - len : 0, "%s%s",
                                i > given ? " and " : "", cmd->operands[i]);
    return rf_cmd_usage_error(cmd, "missing %s", buf);
}

/* Parses argv as cmd declares it into state and args (its option
 * arguments, operands and scene), then runs the command. */
static int cmd_warn(const rf_cmd_t *cmd, rf_cmd_args_t *args);

static int cmd_run(const rf_cmd_t *cmd, int argc, char **argv, void *state,
                   rf_cmd_args_t *args)
{
    cmd_table_t t;
    int c, i, status;

    cmd_table_build(cmd, &t);
    if (cmd->defaults != NULL)
        memcpy(state, cmd->defaults, cmd->state_size);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, t.optstring, t.lopts, NULL)) != -1) {
        i = cmd_table_find(&t, c);
        if (i < 0)
            return cmd_option_error(cmd, t.lopts, c, argv);
        if (t.ids[i] == CMD_HELP) {
            rf_cmd_print_help(cmd, stdout);
            return RF_EXIT_OK;
        }
        if (t.ids[i] == CMD_ASSETS) {
            args->assets = optarg;
            continue;
        }
        if (t.ids[i] == CMD_REDUCED) {
            args->reduced_motion = 1;
            continue;
        }
        args->opt[t.ids[i]] = t.has_arg[i] ? optarg : "";
        status = cmd->option != NULL ? cmd->option(state, t.ids[i], t.has_arg[i] ? optarg : NULL)
                                     : 0;
        if (status != 0)
            return status;
    }
    args->operands = argv + optind;
    args->noperands = argc - optind;
    if (args->noperands < cmd->min_operands)
        return cmd_missing_operands(cmd, args->noperands);
    if (args->noperands > cmd->max_operands)
        return rf_cmd_usage_error(cmd, "unexpected argument '%s'",
                                  args->operands[cmd->max_operands]);
    if (cmd->check != NULL && (status = cmd->check(state, args)) != 0)
        return status;
    if (cmd->loads_scene && args->assets != NULL) {
        struct stat st;
        if (stat(args->assets, &st) != 0)
            return rf_cmd_usage_error(cmd, "--assets '%s': %s", args->assets, strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return rf_cmd_usage_error(cmd, "--assets '%s': not a folder", args->assets);
    }
    if (cmd->loads_scene) {
        args->scene = rf_cmd_load_scene(args->operands[0], args->assets, args->reduced_motion,
                                        &status);
        if (args->scene == NULL)
            return status;
        status = cmd->warns ? cmd_warn(cmd, args) : 0;
        if (!cmd->lends_renderer) {
            rf_renderer_destroy(args->renderer);
            args->renderer = NULL;
        }
        if (status != 0 || cmd->exec == NULL)
            return status;
    }
    return cmd->exec(state, args);
}

/* 1 when the command declares the option called name and it was given. */
static int cmd_given(const rf_cmd_t *cmd, const rf_cmd_args_t *args, const char *name)
{
    int id = 0;
    size_t n = strlen(name);
    rf_cmd_spec_word_t w;

    for (const char *p = cmd->opts; rf_cmd_spec_next(&p, &w); id++)
        if (w.len == n && strncmp(w.name, name, n) == 0)
            return args->opt[id] != NULL;
    return 0;
}

typedef struct cmd_warning {
    const char *file;
    int strict;
} cmd_warning_t;

static void cmd_print_warning(void *ctx, const char *pointer, const char *message)
{
    const cmd_warning_t *w = ctx;

    fprintf(stderr, "runeframe: %s%s: %s: %s\n", w->strict ? "" : "warning: ", w->file, pointer,
            message);
}

/* The scene's warnings (lint.h) on stderr, unless the command's --quiet
 * was given; with --strict (validate) they are errors: exit status 2. */
static int cmd_warn(const rf_cmd_t *cmd, rf_cmd_args_t *args)
{
    cmd_warning_t w = { args->operands[0], cmd_given(cmd, args, "strict") };

    if (!w.strict && cmd_given(cmd, args, "quiet"))
        return 0;
    /* the renderer the lint lays layers out with, kept for exec */
    size_t n = rf_lint_scene_with(args->scene, &args->renderer, cmd_print_warning, &w);
    return w.strict && n > 0 ? RF_EXIT_USAGE : 0;
}

int rf_cmd_main(const rf_cmd_t *cmd, int argc, char **argv)
{
    /* calloc: every setting and option argument starts 0 / NULL */
    void *state = calloc(1, cmd->state_size > 0 ? cmd->state_size : 1);
    rf_cmd_args_t *args = calloc(1, sizeof *args);
    int status = RF_EXIT_IO;

    if (state == NULL || args == NULL)
        fprintf(stderr, "runeframe: %s: out of memory\n", cmd->name);
    else
        status = cmd_run(cmd, argc, argv, state, args);
    if (args != NULL) {
        rf_renderer_destroy(args->renderer);
        rf_scene_destroy(args->scene);
    }
    free(args);
    free(state);
    return status;
}

/* One line only: scripts and tests match the whole message, so the hint to
 * use --help lives in the usage text, not in every error. */
void rf_cmd_report(const void *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "runeframe: %s: ", ((const rf_cmd_t *)cmd)->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int rf_cmd_usage_error(const rf_cmd_t *cmd, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    rf_cmd_report(cmd, fmt, ap);
    va_end(ap);
    return RF_EXIT_USAGE;
}

struct rf_scene *rf_cmd_load_scene(const char *path, const char *assets, int reduced_motion,
                                   int *status)
{
    rf_scene_opts_t opts = { assets, reduced_motion };
    /* rf_diag_t holds 20 KiB of messages: keep it off the stack of
     * sanitizer builds and small-stack threads. */
    rf_diag_t *diag = malloc(sizeof *diag);
    rf_scene_t *scene;

    if (diag == NULL) {
        fprintf(stderr, "runeframe: %s: out of memory\n", path);
        *status = RF_EXIT_IO;
        return NULL;
    }
    rf_diag_init(diag, path);
    scene = rf_scene_load_with(path, &opts, diag);
    if (scene == NULL) {
        if (diag->count == 0 && diag->dropped == 0)
            rf_diag_file(diag, "cannot load the scene");
        rf_diag_print(diag, stderr);
        *status = diag->io_error ? RF_EXIT_IO : RF_EXIT_USAGE;
    } else {
        *status = RF_EXIT_OK;
    }
    free(diag);
    return scene;
}

int rf_cmd_parse_long(const char *s, long *out)
{
    char *end;
    long x;

    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    x = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
    *out = x;
    return 0;
}

int rf_cmd_parse_jobs(const rf_cmd_t *cmd, const char *arg, long *jobs)
{
    if (rf_cmd_parse_long(arg, jobs) != 0 || *jobs < 1 || *jobs > RF_FRAMES_MAX_JOBS)
        return rf_cmd_usage_error(cmd, "--jobs must be an integer from 1 to %d, got '%s'",
                                  RF_FRAMES_MAX_JOBS, arg);
    return 0;
}

int rf_cmd_cpus(void)
{
    int n = rf_spawn_cpus();
    return n > RF_FRAMES_MAX_JOBS ? RF_FRAMES_MAX_JOBS : n;
}

int rf_cmd_jobs(long jobs)
{
    long n = jobs > 0 ? jobs : sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > RF_FRAMES_MAX_JOBS ? RF_FRAMES_MAX_JOBS : (int)n;
}

int rf_cmd_parse_png_level(const rf_cmd_t *cmd, const char *arg, rf_png_options_t *png)
{
    long l;

    if (rf_cmd_parse_long(arg, &l) != 0 || l > 9)
        return rf_cmd_usage_error(cmd, "--png-level must be an integer from 0 to 9, got '%s'",
                                  arg);
    png->level = (int)l;
    return 0;
}

int rf_cmd_parse_png_filter(const rf_cmd_t *cmd, const char *arg, rf_png_options_t *png)
{
    if (rf_png_filter_parse(arg, &png->filter) != 0)
        return rf_cmd_usage_error(cmd, "--png-filter must be none, sub, up, avg, paeth or all, "
                                       "got '%s'", arg);
    return 0;
}

int rf_cmd_parse_scale(const rf_cmd_t *cmd, const char *arg, double *scale)
{
    if (rf_num_parse(arg, scale) != 0 || !(*scale > 0 && *scale <= 1))
        return rf_cmd_usage_error(cmd, "--scale must be a number > 0 and <= 1, got '%s'", arg);
    return 0;
}

int rf_cmd_parse_fps(const rf_cmd_t *cmd, const char *arg, double *fps)
{
    if (rf_num_parse(arg, fps) != 0 || !(*fps > 0 && *fps <= 1000))
        return rf_cmd_usage_error(cmd, "--fps must be a number > 0 and <= 1000, got '%s'", arg);
    return 0;
}
