/* cmd.h - the subcommand table of the runeframe command line.
 *
 * Owns: rf_cmd_t, one entry per subcommand; each lives in its own
 * src/cmd-NAME.c and is registered in the table in cmd.c. exec() gets argv
 * with argv[0] the subcommand name and returns the process exit status
 * (RF_EXIT_* of diag.h). Errors are printed by the command itself, one line
 * each, prefixed "runeframe: ".
 */
#ifndef RF_CMD_H
#define RF_CMD_H

#include <stdio.h>

struct option;

typedef struct rf_cmd {
    const char *name;
    const char *usage;      /* "SCENE [--json]" */
    const char *summary;    /* one line for `runeframe --help` */
    const char *help;       /* the options, printed by `runeframe NAME --help` */
    int (*exec)(int argc, char **argv);
} rf_cmd_t;

extern const rf_cmd_t rf_cmd_render;
extern const rf_cmd_t rf_cmd_seek;
extern const rf_cmd_t rf_cmd_info;
extern const rf_cmd_t rf_cmd_sample;
extern const rf_cmd_t rf_cmd_plot;
extern const rf_cmd_t rf_cmd_validate;

/* NULL-terminated table of every subcommand, in `--help` order. */
extern const rf_cmd_t *const rf_cmds[];

/* Prints "usage: runeframe NAME USAGE" and the help text. */
void rf_cmd_print_help(const rf_cmd_t *cmd, FILE *out);
/* Prints the one line "runeframe: NAME: MESSAGE"; returns 2 (usage error). */
int rf_cmd_usage_error(const rf_cmd_t *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reports the option getopt_long rejected (it returned c, ':' or '?', with
 * optstring starting with ':') as one house-style line, with a did-you-mean
 * among opts for a misspelt long option; returns 2. */
int rf_cmd_option_error(const rf_cmd_t *cmd, const struct option *opts, int c, char **argv);

/* Loads a scene for a command, printing its errors; NULL with *status set
 * to 2 (invalid) or 3 (unreadable) on failure. */
struct rf_scene *rf_cmd_load_scene(const char *path, int *status);

/* Parses a finite double / a non-negative long from a whole argument;
 * returns 0 on success. */
int rf_cmd_parse_double(const char *s, double *out);
int rf_cmd_parse_long(const char *s, long *out);

#endif
