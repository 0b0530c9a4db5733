/* cmd-validate.c - `runeframe validate SCENE`: load and check a scene, print
 * nothing when it is valid, every error (up to 20) when it is not. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "scene.h"

enum { OPT_HELP = 256 };

static const struct option validate_options[] = {
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

/* getopt_long's own messages are not in the house format: report the
 * offending option ourselves, with a suggestion for a near miss. */
static int validate_exec(int argc, char **argv)
{
    rf_scene_t *scene;
    int status;
    int c;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", validate_options, NULL)) != -1) {
        switch (c) {
        case OPT_HELP:
            rf_cmd_print_help(&rf_cmd_validate, stdout);
            return RF_EXIT_OK;
        default:
            return rf_cmd_option_error(&rf_cmd_validate, validate_options, c, argv);
        }
    }
    if (optind >= argc)
        return rf_cmd_usage_error(&rf_cmd_validate, "missing SCENE");
    if (argc - optind > 1)
        return rf_cmd_usage_error(&rf_cmd_validate, "unexpected argument '%s'", argv[optind + 1]);

    scene = rf_cmd_load_scene(argv[optind], &status);
    rf_scene_destroy(scene);
    return status;
}

const rf_cmd_t rf_cmd_validate = {
    .name = "validate",
    .usage = "SCENE",
    .summary = "check a scene file; print nothing when it is valid",
    .help =
        "Loads SCENE and checks every key, type and range of the scene format\n"
        "(man runeframe-scene). Prints nothing and exits 0 when the scene is\n"
        "valid; otherwise prints every error (up to 20), one per line, and\n"
        "exits 2 (3 when the file cannot be read).\n"
        "\n"
        "Options:\n"
        "  --help  print this help and exit\n",
    .exec = validate_exec,
};
