/* main.c - runeframe's entry point: global options and subcommand dispatch
 * through the table in cmd.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "render.h"
#include "diag.h"
#include "suggest.h"

#ifndef RF_VERSION
#error "RF_VERSION must be defined by the build (-DRF_VERSION='\"X.Y.Z\"')"
#endif

static void main_print_usage(FILE *out)
{
    size_t width = 0;

    for (size_t i = 0; rf_cmds[i] != NULL; i++) {
        size_t len = strlen(rf_cmds[i]->name);
        if (len > width)
            width = len;
    }
    fputs("usage: runeframe COMMAND [ARGS...]\n"
          "       runeframe --help | --version\n"
          "\n"
          "runeframe evaluates analytically animated JSON scenes.\n"
          "\n"
          "Commands:\n", out);
    for (size_t i = 0; rf_cmds[i] != NULL; i++)
        fprintf(out, "  %-*s  %s\n", (int)width, rf_cmds[i]->name, rf_cmds[i]->summary);
    fputs("\n"
          "Run 'runeframe COMMAND --help' for the options of a command,\n"
          "'man runeframe' for the manual and 'man runeframe-scene' for the scene format.\n",
          out);
}

static const rf_cmd_t *main_find_cmd(const char *name)
{
    for (size_t i = 0; rf_cmds[i] != NULL; i++)
        if (strcmp(rf_cmds[i]->name, name) == 0)
            return rf_cmds[i];
    return NULL;
}

static int main_unknown_cmd(const char *name)
{
    const char *names[32];
    size_t n = 0;
    const char *guess;

    for (size_t i = 0; rf_cmds[i] != NULL && n < sizeof names / sizeof names[0]; i++)
        names[n++] = rf_cmds[i]->name;
    guess = rf_did_you_mean(name, names, n);
    if (guess != NULL)
        fprintf(stderr, "runeframe: unknown command '%s' (did you mean '%s'?)\n", name, guess);
    else
        fprintf(stderr, "runeframe: unknown command '%s' (see 'runeframe --help')\n", name);
    return RF_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    const char *arg;
    const rf_cmd_t *cmd;
    int status;

    rf_render_tune_allocator();
    if (argc < 2) {
        main_print_usage(stderr);
        return RF_EXIT_USAGE;
    }
    arg = argv[1];
    if (strcmp(arg, "--version") == 0) {
        printf("runeframe %s\n", RF_VERSION);
        return fflush(stdout) == 0 && !ferror(stdout) ? RF_EXIT_OK : RF_EXIT_IO;
    }
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 || strcmp(arg, "help") == 0) {
        /* `runeframe help CMD` is `runeframe CMD --help`, as in git. */
        if (strcmp(arg, "help") == 0 && argc > 2) {
            cmd = main_find_cmd(argv[2]);
            if (cmd == NULL)
                return main_unknown_cmd(argv[2]);
            rf_cmd_print_help(cmd, stdout);
        } else {
            main_print_usage(stdout);
        }
        return fflush(stdout) == 0 && !ferror(stdout) ? RF_EXIT_OK : RF_EXIT_IO;
    }
    if (arg[0] == '-') {
        fprintf(stderr, "runeframe: unknown option '%s' (see 'runeframe --help')\n", arg);
        return RF_EXIT_USAGE;
    }
    cmd = main_find_cmd(arg);
    if (cmd == NULL)
        return main_unknown_cmd(arg);
    status = rf_cmd_main(cmd, argc - 1, argv + 1);
    /* A full disk or a closed pipe must not pass for success. */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (status == RF_EXIT_OK) {
            fprintf(stderr, "runeframe: %s: cannot write the output: %s\n", cmd->name,
                    errno != 0 ? strerror(errno) : "write error");
            status = RF_EXIT_IO;
        }
    }
    return status;
}
