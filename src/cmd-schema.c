/* cmd-schema.c - `runeframe schema`: print the JSON Schema of the scene
 * format, which the loader makes from its own tables (rf_scene_schema,
 * scene.h), for editors: VS Code's json.schemas, or "$schema" in a scene.
 * `make install` installs the same text as
 * $(datadir)/runeframe/runeframe-scene.schema.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "scene.h"

static int schema_exec(void *state, const rf_cmd_args_t *args)
{
    (void)state;
    (void)args;
    char *text = rf_scene_schema();
    if (text == NULL) {
        fprintf(stderr, "runeframe: schema: out of memory\n");
        return RF_EXIT_IO;
    }
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, stdout) != n || fputc('\n', stdout) == EOF ||
              fflush(stdout) != 0;
    free(text);
    if (bad) {
        fprintf(stderr, "runeframe: schema: cannot write the schema to stdout\n");
        return RF_EXIT_IO;
    }
    return RF_EXIT_OK;
}

const rf_cmd_t rf_cmd_schema = {
    .summary = "print the JSON Schema of the scene format, for editors",
    .help =
        "Prints the JSON Schema (draft-07) of the scene format on stdout. It is\n"
        "made from the loader's own tables (the keys of every object, the layer\n"
        "types and their keys, the easing, blend and color names), so an editor\n"
        "that reads it completes keys and flags unknown keys, wrong types,\n"
        "missing required keys and unknown words while typing; `runeframe\n"
        "validate` checks the rest (names, ranges that depend on other keys).\n"
        "`make install` installs it as\n"
        "  $(datadir)/runeframe/runeframe-scene.schema.json\n"
        "A scene names it with a top-level \"$schema\" key, or VS Code maps it to\n"
        "scene files in its settings (\"json.schemas\").\n",
    .usage = "",
    .name = "schema",
    .max_operands = 0,
    .exec = schema_exec,
};
