/* diag.h - error reports for a scene file and the command line.
 *
 * Owns: rf_diag_t, a fixed-capacity list of messages already in their
 * final form ("runeframe: FILE:LINE:COL: message" for JSON syntax,
 * "runeframe: FILE: /json/pointer: message" for scene semantics); a message
 * at a column (JSON syntax, an expression, path data) carries two more
 * lines, the source line and a caret under the column (loc.h). Nothing
 * allocates: messages are truncated to RF_DIAG_LINE bytes. The loader collects
 * up to RF_DIAG_MAX errors; the CLI prints them and picks the exit status.
 *
 * Thread-safety: no global state; an rf_diag_t belongs to one thread at a
 * time (one per scene load). The pointer helpers are pure functions
 * (did-you-mean lives in suggest.h).
 */
#ifndef RF_DIAG_H
#define RF_DIAG_H

#include <stddef.h>
#include <stdio.h>

#include "loc.h"

#define RF_DIAG_MAX 20
#define RF_DIAG_LINE 1024

/* Exit statuses of the contract (cli.md). */
enum {
    RF_EXIT_OK = 0,      /* success */
    RF_EXIT_DIFF = 1,    /* a check or diff found differences beyond tolerance */
    RF_EXIT_USAGE = 2,   /* usage error or invalid scene */
    RF_EXIT_IO = 3,      /* I/O or system failure */
};

typedef struct rf_diag {
    const char *file;               /* name shown in messages; borrowed */
    int count;                      /* messages stored (<= RF_DIAG_MAX) */
    int dropped;                    /* messages past RF_DIAG_MAX, not stored */
    int io_error;                   /* nonzero: a read failure, exit status 3 */
    char msg[RF_DIAG_MAX][RF_DIAG_LINE];
} rf_diag_t;

/* Empties d and sets the file name used in its messages. */
void rf_diag_init(rf_diag_t *d, const char *file);

/* "runeframe: FILE:LINE:COL: message" (line and column are 1-based; the
 * column counts characters, UTF-8 code points, as loc.h says). */
void rf_diag_syntax(rf_diag_t *d, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A JSON syntax error at loc in text[0 .. len): rf_diag_syntax()'s line,
 * then loc.h's caret display on two more lines of the same message (the
 * source line indented by four spaces, a caret under the column), left out
 * when the line is empty or the whole would not fit in RF_DIAG_LINE:
 *     runeframe: FILE:3:12: expected ':' after an object key
 *           "canvas" {}
 *                    ^
 */
void rf_diag_syntax_at(rf_diag_t *d, const char *text, size_t len, const rf_loc_t *loc,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* "runeframe: FILE: POINTER: message"; pointer is an RFC 6901 JSON pointer. */
void rf_diag_at(rf_diag_t *d, const char *pointer, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "runeframe: FILE: message" (whole-file problems, I/O errors). */
void rf_diag_file(rf_diag_t *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* True once RF_DIAG_MAX messages are stored: callers may stop early. */
int rf_diag_full(const rf_diag_t *d);

/* Prints every message, one per line, and a note when some were dropped. */
void rf_diag_print(const rf_diag_t *d, FILE *out);

/* Appends s to the pointer buffer ptr (of capacity cap) as one JSON pointer
 * segment, escaping '~' as ~0 and '/' as ~1. Returns the previous length, so
 * that ptr[prev] = '\0' pops the segment again. Truncates safely. */
size_t rf_pointer_push(char *ptr, size_t cap, const char *segment);
size_t rf_pointer_push_index(char *ptr, size_t cap, size_t index);

#endif
