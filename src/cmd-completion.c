/* cmd-completion.c - `runeframe completion bash`: the bash completion
 * script, generated from the command table (cmd.h) so that it cannot
 * drift from the commands: every entry of rf_cmds[] with the options of
 * its spec (and the shared group, --assets, --help), and its operands.
 *
 * What an option's argument completes to comes from the entry's own help
 * text, the metavariable after the option ("  --golden DIR ..."): DIR
 * completes folders; FILE, a name with a dot or '-' (and -o/--output, which
 * always names a file or folder) complete file names; lowercase words
 * ("--format png", "--format y4m") are the values offered; anything else
 * (N, T, A:B) is not guessed. Operands: SCENE completes *.json files, a
 * name ending in .png (diff's A.png) *.png files, SHELL the shells; folders
 * always, to walk into. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"

/* Longest option name, metavariable word and value list kept. */
#define COMP_NAME 48
#define COMP_VALUES 256

typedef enum { ARG_DIRS, ARG_FILES, ARG_WORDS, ARG_UNKNOWN } comp_arg_t;

/* The option's argument kind and, for ARG_WORDS, its words (space separated
 * in values), from every help line of cmd that starts with the option. */
static comp_arg_t comp_arg_kind(const rf_cmd_t *cmd, char short_name, const char *long_name,
                                char *values, size_t vlen)
{
    comp_arg_t kind = ARG_UNKNOWN;
    char opt[COMP_NAME + 4];
    size_t used = 0;

    values[0] = '\0';
    if (short_name == 'o' || strcmp(long_name, "output") == 0)
        return ARG_FILES;
    if (strcmp(long_name, "assets") == 0)
        return ARG_DIRS;
    snprintf(opt, sizeof opt, "--%s ", long_name);
    for (const char *l = cmd->help; l != NULL && *l != '\0';) {
        size_t n = strcspn(l, "\n");
        const char *p = l;
        while (p < l + n && *p == ' ')
            p++;
        if ((size_t)(l + n - p) > strlen(opt) && strncmp(p, opt, strlen(opt)) == 0) {
            const char *w = p + strlen(opt);
            size_t wl = strcspn(w, " \n");
            int lower = wl > 0;
            for (size_t i = 0; i < wl; i++)
                if (!islower((unsigned char)w[i]) && !isdigit((unsigned char)w[i]))
                    lower = 0;
            if (wl == 3 && strncmp(w, "DIR", 3) == 0)
                kind = ARG_DIRS;
            else if (wl > 0 && (memchr(w, '.', wl) != NULL || strncmp(w, "FILE", 4) == 0 ||
                                (wl == 1 && *w == '-')))
                kind = ARG_FILES;
            else if (lower && used + wl + 2 < vlen) {
                used += (size_t)snprintf(values + used, vlen - used, "%s%.*s",
                                         used > 0 ? " " : "", (int)wl, w);
                kind = ARG_WORDS;
            }
        }
        l += n + (l[n] == '\n');
    }
    return kind;
}

/* Prints the case arm of one option that takes an argument, when there
 * is something to offer; with guess 0, only its name, for the one arm of
 * the options whose argument is not guessed. */
static int comp_unknown;    /* options printed into the arm of the unguessed */

static void comp_print_arg(const rf_cmd_t *cmd, char short_name, const char *long_name,
                           int guess)
{
    char values[COMP_VALUES];
    comp_arg_t kind = comp_arg_kind(cmd, short_name, long_name, values, sizeof values);

    if ((kind == ARG_UNKNOWN) == guess)
        return;
    if (!guess) {
        printf("%s--%s", comp_unknown++ ? "|" : "        ", long_name);
        return;
    }
    printf("        ");
    if (short_name != 0)
        printf("-%c|", short_name);
    printf("--%s)", long_name);
    if (kind == ARG_DIRS)
        printf(" _runeframe_dirs; return ;;\n");
    else if (kind == ARG_FILES)
        printf(" _runeframe_files '*'; return ;;\n");
    else
        printf(" COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", values);
}

/* Calls fn(cmd, short, long, has_arg) for each option of spec. */
static void comp_each_opt(const rf_cmd_t *cmd, const char *spec,
                          void (*fn)(const rf_cmd_t *, char, const char *, int))
{
    rf_cmd_spec_word_t w;
    char name[COMP_NAME];

    for (const char *p = spec; rf_cmd_spec_next(&p, &w);) {
        if (w.len >= sizeof name)
            continue;
        memcpy(name, w.name, w.len);
        name[w.len] = '\0';
        fn(cmd, (char)w.short_name, name, w.arg);
    }
}

static void comp_word(const rf_cmd_t *cmd, char short_name, const char *long_name, int arg)
{
    (void)cmd;
    (void)arg;
    if (short_name != 0)
        printf(" -%c", short_name);
    printf(" --%s", long_name);
}

static void comp_arm(const rf_cmd_t *cmd, char short_name, const char *long_name, int arg)
{
    if (arg)
        comp_print_arg(cmd, short_name, long_name, 1);
}

static void comp_arm_unknown(const rf_cmd_t *cmd, char short_name, const char *long_name,
                             int arg)
{
    if (arg)
        comp_print_arg(cmd, short_name, long_name, 0);
}

static void comp_print_command(const rf_cmd_t *cmd)
{
    const char *operand = cmd->operands[0];

    printf("    %s)\n        case $prev in\n", cmd->name);
    comp_each_opt(cmd, cmd->opts, comp_arm);
    comp_each_opt(cmd, cmd->more, comp_arm);
    if (cmd->loads_scene)
        comp_print_arg(cmd, 0, "assets", 1);
    comp_unknown = 0;
    comp_each_opt(cmd, cmd->opts, comp_arm_unknown);
    comp_each_opt(cmd, cmd->more, comp_arm_unknown);
    if (comp_unknown > 0)
        printf(") return ;;  # numbers, times, lists: nothing to guess\n");
    printf("        esac\n        if [[ $cur == -* ]]; then\n"
           "            COMPREPLY=($(compgen -W '");
    comp_each_opt(cmd, cmd->opts, comp_word);
    comp_each_opt(cmd, cmd->more, comp_word);
    /* the options the framework adds (cmd.c) */
    printf("%s%s --help' -- \"$cur\"))\n            return\n        fi\n",
           cmd->loads_scene ? " --assets" : "", cmd->reduced_motion ? " --reduced-motion" : "");
    if (operand == NULL || cmd->max_operands == 0)
        printf("        ;;\n");
    else if (strcmp(operand, "SCENE") == 0)
        printf("        _runeframe_files '*.json' ;;\n");
    else if (strlen(operand) > 4 && strcmp(operand + strlen(operand) - 4, ".png") == 0)
        printf("        _runeframe_files '*.png' ;;\n");
    else if (strcmp(operand, "SHELL") == 0)
        printf("        COMPREPLY=($(compgen -W 'bash' -- \"$cur\")) ;;\n");
    else
        printf("        _runeframe_files '*' ;;\n");
}

static int completion_exec(void *state, const rf_cmd_args_t *args)
{
    (void)state;
    if (strcmp(args->operands[0], "bash") != 0)
        return rf_cmd_usage_error(&rf_cmd_completion, "no completion for '%s': only bash "
                                                      "(see 'runeframe completion --help')",
                                  args->operands[0]);
    printf("# bash completion for runeframe: subcommands, their options, option\n"
           "# values and scene files. Generated by `runeframe completion bash` from\n"
           "# the command table; `make install` puts it where bash-completion finds\n"
           "# it, or: source <(runeframe completion bash)\n\n"
           "# _runeframe_files PATTERN: files matching PATTERN, and folders\n"
           "_runeframe_files() {\n"
           "    local IFS=$'\\n'\n"
           "    compopt -o filenames 2>/dev/null\n"
           "    COMPREPLY=($(compgen -f -X \"!$1\" -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
           "    [ \"$1\" = '*' ] && COMPREPLY=($(compgen -f -- \"$cur\"))\n"
           "}\n\n"
           "_runeframe_dirs() {\n"
           "    local IFS=$'\\n'\n"
           "    compopt -o filenames 2>/dev/null\n"
           "    COMPREPLY=($(compgen -d -- \"$cur\"))\n"
           "}\n\n"
           "_runeframe() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
           "    COMPREPLY=()\n"
           "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
           "        COMPREPLY=($(compgen -W '");
    for (int i = 0; rf_cmds[i] != NULL; i++)
        printf("%s ", rf_cmds[i]->name);
    printf("help --help --version' -- \"$cur\"))\n"
           "        return\n"
           "    fi\n"
           "    case ${COMP_WORDS[1]} in\n"
           "    help)\n"
           "        [ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W '");
    for (int i = 0; rf_cmds[i] != NULL; i++)
        printf("%s%s", i > 0 ? " " : "", rf_cmds[i]->name);
    printf("' -- \"$cur\")) ;;\n");
    for (int i = 0; rf_cmds[i] != NULL; i++)
        comp_print_command(rf_cmds[i]);
    printf("    esac\n"
           "}\n\n"
           "complete -F _runeframe runeframe\n");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "runeframe: completion: standard output: write failed\n");
        return RF_EXIT_IO;
    }
    return RF_EXIT_OK;
}

const rf_cmd_t rf_cmd_completion = {
    .summary = "print the bash completion script",
    .help =
        "Prints a bash completion script for runeframe's commands, options,\n"
        "option values and scene files, generated from the command table.\n"
        "`make install` installs it for bash-completion; to try it in a shell:\n"
        "  source <(runeframe completion bash)\n",
    .usage = "bash",
    .name = "completion",
    .operands = { "SHELL" }, .min_operands = 1, .max_operands = 1,
    .exec = completion_exec,
};
