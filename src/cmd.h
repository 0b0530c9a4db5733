/* cmd.h - the command framework of the runeframe command line.
 *
 * Owns: rf_cmd_t, one declarative entry per subcommand (its summary, help,
 * usage, name, options, operands, settings and callbacks), and
 * rf_cmd_main(), which does once for every command what each would
 * otherwise write again: the getopt_long loop (its struct option array and
 * optstring built from the entry), `--help` (the option and its help line),
 * the house-style errors for a bad option ("unknown option '--x' (did you
 * mean '--y'?)", "option '--x' needs an argument", ...), "missing SCENE",
 * "unexpected argument 'X'", and loading the SCENE operand. Also what
 * commands share: the one-line usage error, strict parsing of numeric
 * arguments and of the options several commands take (--jobs, --png-*).
 * Thread-safety: the command line runs on the main thread only (getopt_long
 * keeps global state).
 *
 * How to add a command, in the manner of tmux's cmd-*.c:
 *   1. Write src/cmd-NAME.c: an enum of option ids, in the order of the
 *      option spec; a struct of the settings that need parsing (and its
 *      defaults); the callbacks; and one entry, last in the file:
 *
 *          enum { OPT_OUTPUT, OPT_SIZE };
 *          typedef struct name_opts { long size; } name_opts_t;
 *          static const name_opts_t name_defaults = { .size = 64 };
 *          static int name_option(void *state, int id, const char *arg)
 *              ... parses --size into ((name_opts_t *)state)->size ...
 *          static int name_exec(void *state, const rf_cmd_args_t *args)
 *              ... args->scene, args->opt[OPT_OUTPUT] (NULL: not given) ...
 *          const rf_cmd_t rf_cmd_name = {
 *              .summary = "one line for runeframe --help",
 *              .help = "What it does.\n\nOptions:\n  -o FILE  ...\n",
 *              .usage = "SCENE -o FILE [--size N]",
 *              .name = "name", .opts = "o|output: size:",
 *              RF_CMD_ONE_SCENE,   (or .operands and .min/max_operands)
 *              .state_size = sizeof(name_opts_t), .defaults = &name_defaults,
 *              .option = name_option, .exec = name_exec,
 *          };
 *
 *      `--help` is implicit: not in .opts, and its help line ("  --help
 *      print this help and exit", aligned with the option list) is printed
 *      after .help. An option that is only stored needs no code: exec()
 *      reads args->opt[id].
 *   2. Declare it below and list it in rf_cmds[] (cmd.c), in `--help` order.
 *   3. Add the file to runeframe_SOURCES in Makefile.am.
 *
 * What rf_cmd_main() does, in this order: copies *defaults into a new
 * state (zeros without); for each option given, in command-line order,
 * records its argument in args.opt[id] and calls option(state, id, arg)
 * (arg NULL for an option without an argument); checks the operand count
 * against min/max_operands; calls check(state, &args) for what depends on
 * several options ("missing -o FILE"); loads the scene (.loads_scene); and
 * calls exec(state, &args), then destroys the scene. Each callback returns
 * 0 to go on (option, check) or the exit status (RF_EXIT_* of diag.h).
 * Errors are printed by the command, one line each, "runeframe: NAME:
 * MESSAGE": rf_cmd_usage_error() prints it and returns the usage status.
 * Engine logic belongs in library modules that unit tests can call
 * (plot.c, video.c, series.c, check.c, ...), not in cmd-*.c.
 */
#ifndef RF_CMD_H
#define RF_CMD_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

struct rf_png_options;
struct rf_scene;

/* Options are declared as a spec string, one word per option in the
 * order of the command's enum of ids: "o|output: frames: quiet" is -o /
 * --output with an argument (id 0), --frames with one (id 1) and --quiet
 * without (id 2). A word is [C|]LONG[:] - C a short name, ':' when the
 * option takes an argument. The ids of the shared group (.more) count from
 * RF_CMD_MORE. */
#define RF_CMD_MORE 64

/* One word of an option spec: its short name (0: none), its long name
 * (len bytes at name, not NUL-terminated) and whether it takes an argument. */
typedef struct rf_cmd_spec_word {
    int short_name;
    const char *name;
    size_t len;
    int arg;
} rf_cmd_spec_word_t;

/* Reads the word of the spec at *p (NULL or "" are empty) into w and
 * moves *p past it: 1, or 0 when there is none left. The one reader of
 * specs: the option table, the framework's own checks and the completion
 * script all read them through it. */
int rf_cmd_spec_next(const char **p, rf_cmd_spec_word_t *w);

/* Most operands a command may name in its "missing ..." message. */
#define RF_CMD_MAX_OPERANDS 2
/* The operands of most commands: exactly one SCENE, loaded before exec(). */
#define RF_CMD_ONE_SCENE \
    .operands = { "SCENE" }, .min_operands = 1, .max_operands = 1, .loads_scene = 1
/* Option ids are below this (own: 0 .. RF_CMD_MORE-1, shared: from RF_CMD_MORE). */
#define RF_CMD_MAX_IDS (2 * RF_CMD_MORE)

/* What the command line gave, as exec() and check() get it. */
typedef struct rf_cmd_args {
    /* Each option's last argument by id ("" for an option without one),
     * NULL when it was not given: plain options need no option(). */
    const char *opt[RF_CMD_MAX_IDS];
    char **operands;
    int noperands;
    struct rf_scene *scene;     /* with .loads_scene: operands[0], loaded */
    const char *assets;         /* with .loads_scene: --assets DIR, or NULL */
    int reduced_motion;         /* with .reduced_motion: --reduced-motion was given */
    /* With .lends_renderer: the renderer of scene the warnings laid the
     * layers out with (lint.h rf_lint_scene_with), for exec to draw with
     * (render.h: what the lint did changes no frame), so the text is not
     * shaped twice; NULL when there was none (--quiet, a scene the lint
     * does not lay out, out of memory). cmd.c destroys it after exec. */
    struct rf_renderer *renderer;
} rf_cmd_args_t;

typedef struct rf_cmd {
    const char *name;
    const char *usage;      /* "SCENE [--json]" */
    const char *summary;    /* one line for `runeframe --help` */
    const char *help;       /* the options, printed by `runeframe NAME --help` */
    const char *opts;       /* the command's own options (a spec, above), or NULL */
    const char *more;       /* a shared group after them (cmd-diffopt.h), or NULL */
    /* The operands' names, for "missing A.png and B.png"; min..max of them. */
    const char *operands[RF_CMD_MAX_OPERANDS];
    int min_operands, max_operands;
    int loads_scene;        /* 1: operands[0] is a scene, loaded (and destroyed) here */
    int warns;              /* 1: the loaded scene's warnings (lint.h) are printed
                             * on stderr, unless its --quiet is given (the
                             * commands that draw it, and validate; not those
                             * that look at values, where a value no layer
                             * uses is what one looks at) */
    int lends_renderer;     /* 1: with .warns, keep the lint's renderer for exec
                             * (args->renderer); else it goes after the lint */
    int reduced_motion;     /* 1: takes --reduced-motion, the scene loaded with its
                             * reduced_motion policy applied (cli.md) */
    size_t state_size;      /* the settings struct option() fills, or 0 */
    const void *defaults;   /* its initial value (state_size bytes), or NULL: zeros */
    /* Each option as it comes (NULL: every option is plain): 0 to go on. */
    int (*option)(void *state, int id, const char *arg);
    /* What the options say together, before the scene is read (or NULL): 0
     * to go on. */
    int (*check)(void *state, const rf_cmd_args_t *args);
    /* The command; NULL: nothing more than loading the scene. */
    int (*exec)(void *state, const rf_cmd_args_t *args);
} rf_cmd_t;

extern const rf_cmd_t rf_cmd_render;
extern const rf_cmd_t rf_cmd_seek;
extern const rf_cmd_t rf_cmd_info;
extern const rf_cmd_t rf_cmd_sample;
extern const rf_cmd_t rf_cmd_plot;
extern const rf_cmd_t rf_cmd_validate;
extern const rf_cmd_t rf_cmd_preview;
extern const rf_cmd_t rf_cmd_check;
extern const rf_cmd_t rf_cmd_diff;
extern const rf_cmd_t rf_cmd_completion;
extern const rf_cmd_t rf_cmd_schema;

/* NULL-terminated table of every subcommand, in `--help` order. */
extern const rf_cmd_t *const rf_cmds[];

/* Runs cmd with argv[0] its name: parses the options and operands as the
 * entry declares, then calls exec(). Returns the exit status. */
int rf_cmd_main(const rf_cmd_t *cmd, int argc, char **argv);

/* Prints "usage: runeframe NAME USAGE" and the help text. */
void rf_cmd_print_help(const rf_cmd_t *cmd, FILE *out);
/* Prints the one line "runeframe: NAME: MESSAGE"; returns 2 (usage error). */
int rf_cmd_usage_error(const rf_cmd_t *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The same line from a va_list, for cmd the command (an rf_cmd_t): the
 * report callback of series.h, as RF_CMD_REPORT(&rf_cmd_NAME) builds it. */
void rf_cmd_report(const void *cmd, const char *fmt, va_list ap);
#define RF_CMD_REPORT(cmd) { rf_cmd_report, (cmd) }

/* Loads a scene for a command, printing its errors; NULL with *status set
 * to 2 (invalid) or 3 (unreadable) on failure. */
struct rf_scene *rf_cmd_load_scene(const char *path, const char *assets, int reduced_motion,
                                   int *status);

/* Parses a non-negative long from a whole argument; returns 0 on success.
 * (A double: rf_num_parse of numfmt.h.) */
int rf_cmd_parse_long(const char *s, long *out);

/* The options several commands share, each parsed one way with one
 * message: --jobs N (1 .. RF_FRAMES_MAX_JOBS), --png-level L and
 * --png-filter F. 0, or the status of the usage error printed. */
int rf_cmd_parse_jobs(const rf_cmd_t *cmd, const char *arg, long *jobs);
/* The worker threads for --jobs N: N, or without it (0) the online CPUs
 * (1 .. RF_FRAMES_MAX_JOBS). */
int rf_cmd_jobs(long jobs);
/* The CPUs this process may run on (its affinity mask: taskset, a
 * container's cpuset), else the online ones; 1 .. RF_FRAMES_MAX_JOBS. */
int rf_cmd_cpus(void);
int rf_cmd_parse_png_level(const rf_cmd_t *cmd, const char *arg, struct rf_png_options *png);
int rf_cmd_parse_png_filter(const rf_cmd_t *cmd, const char *arg, struct rf_png_options *png);
/* Drafts (cli.md): --scale S, 0 < S <= 1, and --fps F, 0 < F <= 1000 (as
 * a scene's fps). */
int rf_cmd_parse_scale(const rf_cmd_t *cmd, const char *arg, double *scale);
int rf_cmd_parse_fps(const rf_cmd_t *cmd, const char *arg, double *fps);

#endif
