/* cmd-validate.c - `runeframe validate SCENE`: load and check a scene, print
 * nothing when it is valid, every error (up to 20) when it is not. */
#include "cmd.h"

const rf_cmd_t rf_cmd_validate = {
    .summary = "check a scene file; print nothing when it is valid",
    .help =
        "Loads SCENE and checks every key, type and range of the scene format\n"
        "(man runeframe-scene). Prints nothing and exits 0 when the scene is\n"
        "valid; otherwise prints every error (up to 20), one per line, and\n"
        "exits 2 (3 when the file cannot be read). A valid scene may still get\n"
        "warnings, on stderr as every command prints them (a value never used,\n"
        "one that settles after the timeline ends, an opacity outside 0..1).\n"
        "\n"
        "Options:\n"
        "  --strict      warnings are errors: printed as errors, exit status 2\n"
        "  --quiet       no warnings\n",
    .usage = "SCENE",
    .name = "validate", .opts = "strict quiet", .warns = 1,
    RF_CMD_ONE_SCENE,
};
